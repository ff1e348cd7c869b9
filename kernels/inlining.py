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

It also keeps, per inlined function and compile setting, the function's untyped IR (``_untyped_ir``): Numba's
``inline_function`` rebuilds it from bytecode at every call site, running the callee's whole untyped pipeline
(its own inlining included) again, though ``inline_ir`` copies the IR before changing anything.  A cold compile
of ``tricksim odds bourre --play heuristic,pimc,open`` took 62 CPU s without it and 55 with it.

It changes nothing else: only ``ir.Block`` objects deep-copied without a memo inside ``inline_ir`` use
the shared memo, and it is installed only when Numba's ``inline_ir`` has the copy loop it replaces (checked
on the source), so another Numba version keeps its own behaviour.  ``TRICKSIM_STOCK_INLINER=1`` keeps
Numba's own copy (for comparisons).
"""
import copy as _copy
import threading as _threading

from numba.core import inline_closurecall as _icc
from numba.core import ir as _ir

from .numbapatch import source_has, stock_asked

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


def untyped_memo_installed() -> bool:
    """True when the inliner takes each function's untyped IR from the memo."""
    return getattr(_icc.InlineWorker.inline_function, "__wrapped__", None) is not None


def install() -> bool:
    """Install the shared memo in Numba's inliner; returns whether it is installed."""
    if stock_asked("INLINER"):
        return False
    if installed():
        return True
    worker = _icc.InlineWorker
    if not source_has((worker.inline_ir, _EXPECTED)):
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
    _install_untyped_memo(worker)
    return True


_EXPECTED_FRONT = ("callee_ir = self.run_untyped_passes(function)",
                   "return self.inline_ir(caller_ir, block, i, callee_ir, freevars,")
_untyped = {}   # the inlined function -> [(its compile setting, its untyped IR), ...]


def _install_untyped_memo(worker):
    """Inline each function's untyped IR computed once per compile setting, not once per call site.

    Numba's ``inline_function`` runs the callee's whole untyped pipeline (bytecode, IR, its own inlining of
    the functions it calls) at every call site, though the result depends only on the function (its code and
    the globals it reads, which the kernels never reassign) and the compile setting: the typing context, the
    kinds of target context and pipeline (a compile makes its own of each, the target context from the flags),
    the locals and the flags.  ``inline_ir`` copies the IR it is given before it changes anything, so handing
    it one IR per function and setting gives the same code."""
    if not source_has(*((worker.inline_function, line) for line in _EXPECTED_FRONT)):
        return
    stock = worker.inline_function

    def inline_function(self, caller_ir, block, i, function, arg_typs=None):
        callee_ir = _untyped_ir(self, function)
        freevars = function.__code__.co_freevars
        return self.inline_ir(caller_ir, block, i, callee_ir, freevars, arg_typs=arg_typs)

    inline_function.__doc__ = stock.__doc__
    inline_function.__wrapped__ = stock
    worker.inline_function = inline_function


def _untyped_ir(inliner, function):
    """``inliner.run_untyped_passes(function)``, computed once per function and compile setting."""
    inliner.flags.enable_ssa = False        # what run_untyped_passes sets first
    flags = inliner.flags.values()
    setting = (inliner.typingctx, type(inliner.targetctx), type(inliner.pipeline), dict(inliner.locals), flags)
    entries = _untyped.setdefault(function, [])
    for seen, func_ir in entries:
        if (seen[0] is setting[0] and seen[1] is setting[1] and seen[2] is setting[2]
                and seen[3] == setting[3] and seen[4] == setting[4]):
            return func_ir
    func_ir = inliner.run_untyped_passes(function)
    entries.append(((*setting[:4], _copy.deepcopy(flags)), func_ir))
    return func_ir

