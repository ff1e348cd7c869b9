"""The transposition-table workspace both open-hand solvers use (kernels/bourre/solver.py,
kernels/boulmous/solver.py): one uint64 array per thread, allocated once and reused for any number of
solves.

Layout: a header the solvers share (``W_GEN`` the generation, ``W_BITS`` log2 of the table size,
``W_NODES`` nodes searched, a statistic), then each solver's own words (its constants and its search
stack, ``table`` words in all from the start), then the table: 2**bits entries of ``entry_words`` words.
Every solve takes a fresh generation (``new_generation``), part of each entry's key, so entries of
earlier solves never match and nothing is cleared.  What an entry holds and how a position hashes to
its slot is the solver's own (its positions differ).  A solver may keep a second generation counter of
its own for a table that lives longer than one solve (``renew_generation``: Boulmous' shared table, kept
across the solves of one deal)."""
import numpy as np
from numba import njit

from .cards import U0, U1

W_GEN, W_BITS, W_NODES = 0, 1, 2
W_HEADER = 3          # the solver's own words start here


@njit(cache=True, nogil=True)
def workspace(table, entry_words, bits, extra=0):
    """A workspace whose table starts at word ``table``: 2**bits entries of ``entry_words`` words, then ``extra``
    words (a second table of the solver's own)."""
    ws = np.zeros(table + entry_words * (1 << bits) + extra, np.uint64)
    ws[W_BITS] = np.uint64(bits)
    return ws


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def new_generation(ws, table):
    """A fresh generation: every table entry of an older one is ignored (after 2**32 solves the table,
    from word ``table`` on, is cleared and the count starts over)."""
    renew_generation(ws, W_GEN, 32, table, ws.shape[0])


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def renew_generation(ws, word, bits, start, stop):
    """A fresh generation in the counter ``ws[word]`` of a table ``ws[start:stop]`` whose entries keep ``bits``
    bits of it: 1, 2, ..., 2**bits - 1, then the table is cleared and the count starts over at 1 (0, the
    cleared entries' generation, is never current)."""
    g = ws[word] + U1
    if g >= np.uint64(1 << bits):
        for i in range(start, stop):
            ws[i] = U0
        g = U1
    ws[word] = g


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def merge_bounds(lo, hi, result, target):
    """The bounds (lo, hi) of a position's value narrowed by one null-window search's outcome: it reached
    ``target`` (``result``), so lo >= target, or it did not, so hi <= target - 1 (both solvers' table stores)."""
    if result:
        if target > lo:
            lo = target
    elif target - 1 < hi:
        hi = target - 1
    return lo, hi
