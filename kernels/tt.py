"""The transposition-table workspace both open-hand solvers use (kernels/bourre/solver.py,
kernels/boulmous/solver.py): one uint64 array per thread, allocated once and reused for any number of
solves.

Layout: a header the solvers share (``W_GEN`` the generation, ``W_BITS`` log2 of the table size,
``W_NODES`` nodes searched, a statistic), then each solver's own words (its constants and its search
stack, ``table`` words in all from the start), then the table: 2**bits entries of ``entry_words`` words.
Every solve takes a fresh generation (``new_generation``), part of each entry's key, so entries of
earlier solves never match and nothing is cleared.  What an entry holds and how a position hashes to
its slot is the solver's own (its positions differ)."""
import numpy as np
from numba import njit

from .cards import U0, U1

W_GEN, W_BITS, W_NODES = 0, 1, 2
W_HEADER = 3          # the solver's own words start here


@njit(cache=True, nogil=True)
def workspace(table, entry_words, bits):
    """A workspace whose table starts at word ``table``: 2**bits entries of ``entry_words`` words."""
    ws = np.zeros(table + entry_words * (1 << bits), np.uint64)
    ws[W_BITS] = np.uint64(bits)
    return ws


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def new_generation(ws, table):
    """A fresh generation: every table entry of an older one is ignored (after 2**32 solves the table,
    from word ``table`` on, is cleared and the count starts over)."""
    g = ws[W_GEN] + U1
    if g >= np.uint64(1 << 32):
        for i in range(table, ws.shape[0]):
            ws[i] = U0
        g = U1
    ws[W_GEN] = g
