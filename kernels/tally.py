"""Accumulating a duplicate tournament's sums (shared by the games' ``sim_duplicate``).

The layout of one metric's block at offset ``off`` of the count vector, for ``k`` entrants:
``S[k]`` (sum of each entrant's result) then ``Q[k*k]`` (sum of the products of two entrants'
results), row-major; analysis/compare/ decodes it into means, variances and covariances."""
from numba import njit


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def add_outer(acc, off, x, k):
    """``acc[off + a*k + b] += x[a] * x[b]`` for every pair of entrants (a, b)."""
    for a in range(k):
        for b in range(k):
            acc[off + a * k + b] += x[a] * x[b]


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def add_sum_outer(acc, off, x, k):
    """One observation ``x[k]`` into the block at ``off``: ``S += x`` (``acc[off:off+k]``), then
    ``Q += x x^T`` (``acc[off+k:off+k+k*k]``)."""
    for a in range(k):
        acc[off + a] += x[a]
    add_outer(acc, off + k, x, k)
