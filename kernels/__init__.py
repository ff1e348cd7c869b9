"""Numba kernels of tricksim.

Every ``@njit`` function of the project lives in this package (STYLE.md rule 1).
Kernels take ndarrays, scalars and module constants only: no objects, no I/O,
no mutable globals.  Parsing, validation and printing live in ``analysis/``.
"""
