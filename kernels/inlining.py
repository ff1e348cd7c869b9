"""Numba's ``inline="always"`` without its quadratic copy: one deep-copy memo per inlined call site.

The kernels inline their card-level steps (``@njit(inline="always")``), and Numba's untyped inliner
(``numba.core.inline_closurecall.InlineWorker.inline_ir``) copies the callee's blocks twice at every call
site, each block with ``copy.deepcopy`` and a fresh memo.  Every variable of a block refers to the
function's one ``Scope``, which holds every variable of the function, so each block's copy drags a copy of
the whole scope with it: the work grows with blocks times variables.  Profiling a cold compile of
``tricksim odds bourre`` found most of its time there (docs/performance.md, issue 25).

:func:`install` gives the blocks copied by one ``inline_ir`` call one memo, so the copy is the copy of the
blocks taken together (what ``copy.deepcopy(the_ir.blocks)`` would give): the blocks share one copied
scope, as the original blocks share one scope.  The inlined code is the same; tests/test_inlining.py
compiles kernels both ways in fresh interpreters and compares their LLVM IR.

It changes nothing else: only ``ir.Block`` objects deep-copied without a memo inside ``inline_ir`` use
the shared memo, and it is installed only when Numba's ``inline_ir`` has the copy loop it replaces (checked
on the source), so another Numba version keeps its own behaviour.  ``TRICKSIM_STOCK_INLINER=1`` keeps
Numba's own copy (for comparisons).
"""
import copy as _copy
import inspect as _inspect
import os as _os
import threading as _threading

from numba.core import inline_closurecall as _icc
from numba.core import ir as _ir

_EXPECTED = "new_block = copy.deepcopy(the_ir.blocks[block_label])"
_state = _threading.local()


class _SharedMemoCopy:
    """Stands in for the ``copy`` module inside numba.core.inline_closurecall."""

    def __init__(self, block_type):
        self._block_type = block_type

    def deepcopy(self, x, memo=None):
        if memo is None and isinstance(x, self._block_type):
            memo = getattr(_state, "memo", None)
        return _copy.deepcopy(x, memo)

    def __getattr__(self, name):
        return getattr(_copy, name)


def installed() -> bool:
    """True when the shared-memo copy is in place."""
    return isinstance(_icc.copy, _SharedMemoCopy)


def install() -> bool:
    """Install the shared memo in Numba's inliner; returns whether it is installed."""
    if _os.environ.get("TRICKSIM_STOCK_INLINER") == "1":
        return False
    if installed():
        return True
    worker = _icc.InlineWorker
    try:
        source = _inspect.getsource(worker.inline_ir)
    except (OSError, TypeError):
        return False
    if _EXPECTED not in source:
        return False
    stock = worker.inline_ir

    def inline_ir(self, *args, **kwargs):
        outer = getattr(_state, "memo", None)
        _state.memo = {}
        try:
            return stock(self, *args, **kwargs)
        finally:
            _state.memo = outer

    inline_ir.__doc__ = stock.__doc__
    inline_ir.__wrapped__ = stock
    worker.inline_ir = inline_ir
    _icc.copy = _SharedMemoCopy(_ir.Block)
    return True
