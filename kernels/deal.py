"""Dealing helpers shared by the games' kernels (uint64 bitmask hands, no allocation)."""
import numpy as np
from numba import njit

from .cards import U0, U1
from .rng import shuffle


@njit(cache=True, nogil=True, _nrt=False)
def deal_with_fixed(st, rest, fixed, seat, hands, per_hand):
    """Seat ``seat`` of four holds ``fixed``; the ``3 * per_hand`` cards of ``rest`` are shuffled
    (generator state ``st``) and dealt to the other three seats in seat order, ``per_hand`` each
    (Boulmous 6, Boomke Wies 13).  Pass ``per_hand`` as an int64 (``np.int64(6)``), not a literal."""
    shuffle(st, rest, 3 * per_hand)
    k = 0
    for s in range(4):
        if s == seat:
            hands[s] = fixed
            continue
        m = U0
        for i in range(per_hand):
            m |= U1 << np.uint64(rest[per_hand * k + i])
        k += 1
        hands[s] = m
