"""The Boulmous deal itself: ``deal_random`` (a shuffled 24-card pack, six cards a seat) and ``deal_rest``
(the other 18 cards around a fixed hand).  Below the play and the solver, which both deal."""
import numpy as np
from numba import njit

from ..cards import U0, U1, lowest
from ..deal import deal_with_fixed
from ..rng import seed_state, shuffle
from .rules import DECK24


@njit(cache=True, nogil=True, _nrt=False)
def deal_random(st, deck, hands):
    """Reset ``deck`` to the sorted 24 cards, shuffle it and give seat k the cards
    deck[6k:6k+6]."""
    m = 0
    for s in range(4):
        for r in range(7, 13):
            deck[m] = s * 16 + r
            m += 1
    shuffle(st, deck, 24)
    for s in range(4):
        m = U0
        for i in range(6):
            m |= U1 << np.uint64(deck[6 * s + i])
        hands[s] = m


@njit(cache=True, nogil=True)
def _rest_of(fixed):
    """The 18 cards outside ``fixed``, in increasing order (the order kernels/boulmous/odds.sim_odds deals them in)."""
    rest0 = np.zeros(18, np.int64)
    k = 0
    m = DECK24 & ~fixed
    while m != U0:
        rest0[k] = lowest(m)
        m &= m - U1
        k += 1
    return rest0


@njit(cache=True, nogil=True, inline="always")
def deal_rest(sd, key_deal, idx, rest, rest0, fixed, seat, hands):
    """Deal ``idx`` of the 18 cards ``rest0`` outside ``fixed`` (``seat``'s hand) into ``hands``, exactly as
    kernels/boulmous/odds.sim_odds deals it (``seed_state(key_deal, idx)`` then ``deal_with_fixed``); ``sd`` and
    ``rest`` are scratch."""
    seed_state(sd, key_deal, idx)
    rest[:] = rest0
    deal_with_fixed(sd, rest, fixed, seat, hands, np.int64(6))
