"""A duplicate tournament's count vector (the games' ``sim_duplicate``, Boulmous' whole games): its declared
layouts, and the sums the kernels add into it.

For ``k`` entrants, one metric's block (``block_layout(k)``): ``S[k]``, the sum over the deals of each entrant's
result X_h (the metric summed over its seats and the deal's playouts), ``Q[k, k]``, the sum of X_a X_b, and
``P[k, k]``, the sum over the deals and their playouts of Y_a Y_b (Y_h: one playout's result).  The vectors:

- ``rounds_layout(k, nround, metrics)`` (Boulmous, Bourre: the balanced seating design of analysis/compare/
  design.py, rounds of k seatings): ``deals``, the deals of each round, then per metric (in the game's order,
  ``Duplicate.metrics``) ``metric_layout``: its ``blocks``, one per round, then ``M[nround * k, k]``, per seating
  row r the sum over the deals of Y_h;
- ``pairs_layout(k, metrics)`` (Boomke Wies: every ordered pair of entrants on every deal): one block per metric;
- Boulmous' whole games (``sim_games_duplicate``): ``rounds_layout`` then ``WHOLE_GAMES``.

Their lengths depend on ``k`` and ``nround``, so a kernel takes the offsets from ``block_offsets`` and
``rounds_offsets`` (the layouts' own offsets: tests/test_kernel_declarations.py checks that they agree), and the
analysis unpacks the vector by name (analysis/compare/tables.py); no kernel reads a ``Layout``."""
import numpy as np
from numba import njit

from .layout import Layout


def block_layout(k: int) -> Layout:
    """One metric's sums for ``k`` entrants (in a round, or over all the deals)."""
    return Layout(("S", k), ("Q", (k, k)), ("P", (k, k)))


def metric_layout(k: int, nround: int) -> Layout:
    """One metric of the rounds layout: its block of each round, then ``M`` (per seating row, per entrant)."""
    return Layout(("blocks", (nround, block_layout(k).size)), ("M", (nround * k, k)))


def rounds_layout(k: int, nround: int, metrics) -> Layout:
    """The count vector of a tournament in ``nround`` rounds of ``k`` seatings: the deals of each round, then one
    ``metric_layout`` per metric, named by it."""
    size = metric_layout(k, nround).size
    return Layout(("deals", nround), *((m, size) for m in metrics))


def pairs_layout(k: int, metrics) -> Layout:
    """The count vector of a tournament of every ordered pair of ``k`` entrants: one block per metric."""
    size = block_layout(k).size
    return Layout(*((m, size) for m in metrics))


# what Boulmous' whole games append after their rounds layout: the deals played and the games abandoned
WHOLE_GAMES = Layout(("deals", 1), ("abandoned", 1))
WG_DEALS, WG_ABANDONED = WHOLE_GAMES.offsets()
WG_LEN = WHOLE_GAMES.size


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def block_offsets(k):
    """``block_layout(k)``: the offsets of S, Q and P within a block, and its size."""
    return 0, k, k + k * k, k + 2 * k * k


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def rounds_offsets(k, nround):
    """``rounds_layout(k, nround, metrics)``: the offset of ``deals``, of the first metric and the size of one (the
    metric ``i`` at first + i * size), then within a metric (``metric_layout``) the offsets of ``blocks`` and ``M``."""
    blocks = nround * (k + 2 * k * k)
    return 0, nround, blocks + nround * k * k, 0, blocks


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def add_outer(acc, off, x, k):
    """``acc[off + a*k + b] += x[a] * x[b]`` for every pair of entrants (a, b)."""
    for a in range(k):
        for b in range(k):
            acc[off + a * k + b] += x[a] * x[b]


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def add_sum_outer(acc, o_s, o_q, x, k):
    """One observation ``x[k]`` into a block: ``S += x`` at ``o_s``, then ``Q += x x^T`` at ``o_q``."""
    for a in range(k):
        acc[o_s + a] += x[a]
    add_outer(acc, o_q, x, k)


@njit(cache=True, nogil=True, _nrt=True)
def sum_rows(part):
    """``part.sum(axis=0)`` of a block kernel's per-chunk counts (2-D int64): the counts of the whole block.

    Compiled once and cached, where NumPy's ``sum(axis=0)`` is compiled again in every process for every kernel
    with its bounds check and error message (about a second of each cold compile).  Integer sums: the order of
    the additions does not matter."""
    n, m = part.shape
    out = np.zeros(m, np.int64)
    for i in range(n):
        for j in range(m):
            out[j] += part[i, j]
    return out
