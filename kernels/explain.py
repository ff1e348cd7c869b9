"""The sampling players' reasons (``tricksim trace ... -H pimc --explain``, issue 27): one row per decision.

The sampling players of Bourre and Boomke Wies (kernels/bourre/pimc.py, kernels/boomke_wies/pimc.py) take an
optional argument ``xo`` (int64[..., X_LEN], one row per decision point of a deal): when it is given they write
into their decision's row, besides choosing exactly as without it, the candidates they weighed and, over the worlds
they valued, each candidate's sum of values, sum of squared values and a second sum (the tie-break: sure tricks in
Bourre, the side's tricks in Boomke Wies). None (omitted): numba prunes every write, so no other kernel compiles
this. The analysis turns a row into means with their intervals (analysis/explain.py ``world_stats``).
"""
import numpy as np
from numba import njit

KIND_CARD, KIND_DRAW, KIND_CALL = 1, 2, 3   # 0: no decision in the row
MAX_XC = 40                                 # candidates of a row (Bourre's draw: at most 40)
X_KIND, X_SEAT, X_WORLDS, X_NC = 0, 1, 2, 3
X_CAND = 4                                  # the candidates (a card; a call; -1 pass or the discard's mask)
X_SUM = X_CAND + MAX_XC                     # per candidate: its values' sum over the worlds
X_SQ = X_SUM + MAX_XC                       # ... the sum of their squares
X_AUX = X_SQ + MAX_XC                       # ... the tie-break's sum
X_LEN = X_AUX + MAX_XC


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def x_open(xr, kind, seat, nc):
    """Start the row ``xr`` (int64[X_LEN]) of a decision of ``seat`` among ``nc`` candidates: sums at 0."""
    xr[X_KIND] = kind
    xr[X_SEAT] = seat
    xr[X_WORLDS] = 0
    xr[X_NC] = nc
    for ci in range(nc):
        xr[X_SUM + ci] = 0
        xr[X_SQ + ci] = 0
        xr[X_AUX + ci] = 0


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def x_add(xr, ci, v, aux):
    """Candidate ``ci`` is worth ``v`` (tie-break ``aux``) in one more world."""
    xr[X_SUM + ci] += np.int64(v)
    xr[X_SQ + ci] += np.int64(v) * np.int64(v)
    xr[X_AUX + ci] += np.int64(aux)
