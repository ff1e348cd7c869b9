"""``tricksim trace boomke-wies -H pimc --explain`` (issue 27): the traced deals played again, exactly as
``trace_deals`` plays them, with the sampling player writing its reasons (kernels/explain.py). Compiled only when a
trace is explained (not an entry point ``tricksim warmup`` compiles)."""
import numpy as np
from numba import njit

from ..explain import X_LEN
from ..rng import seed_state
from .pimc import X_CALL_ROW
from .play import full_hand
from .rules import MAX_BIDS, REC_LEN

X_ROWS = X_CALL_ROW + MAX_BIDS      # a deal's rows: its 52 cards, then its calls


@njit(cache=True, nogil=True)
def explain_deals(key_deal, key_dec, first, n, rules, hcodes, hparams, pimc):
    """The records of hands first..first+n-1 exactly as ``trace_deals`` gives them (``pimc`` the sampling
    player's workspace), and int64[n, X_ROWS, X_LEN]: at each decision of a sampling seat, the row of its
    candidates and their values (a card at row i of the deal's cards, call i at ``X_CALL_ROW + i``)."""
    out = np.zeros((n, REC_LEN), np.int64)
    xo = np.zeros((n, X_ROWS, X_LEN), np.int64)
    st = np.zeros(1, np.uint64)
    sd = np.zeros(1, np.uint64)
    deck = np.zeros(52, np.int64)
    pile = np.zeros(52, np.int64)
    hands = np.zeros(4, np.uint64)
    h = np.zeros(4, np.uint64)
    prev = np.zeros(REC_LEN, np.int64)
    for i in range(n):
        idx = first + i
        seed_state(sd, key_deal, idx)
        seed_state(st, key_dec, idx)
        full_hand(sd, st, idx & 3, rules, hcodes, hparams, deck, pile, hands, h, out[i], prev, pimc, xo[i])
    return out, xo
