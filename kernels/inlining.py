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

The copy itself is :func:`ir_deepcopy`: what ``copy.deepcopy`` gives with the same memo, made without ``copy``'s
generic reduce machinery for the IR's own classes, lists, tuples and dicts (tests/test_inlining.py compares the two
on a kernel's IR, object sharing included).  A cold compile of ``tricksim odds bourre`` took 10.1 and 9.9 CPU s
with ``copy.deepcopy`` and 9.5 and 9.3 with it; with the sampling player and the open hand 35.3 and 32.8
(``TRICKSIM_STOCK_IRCOPY=1`` keeps ``copy.deepcopy``, for comparisons).

It changes nothing else: only ``ir.Block`` objects deep-copied without a memo inside ``inline_ir`` use
the shared memo, and it is installed only when Numba's ``inline_ir`` has the copy loop it replaces (checked
on the source), so another Numba version keeps its own behaviour.  ``TRICKSIM_STOCK_INLINER=1`` keeps
Numba's own copy (for comparisons).
"""
import copy as _copy
import copyreg as _copyreg
from collections import defaultdict as _defaultdict
import threading as _threading

from numba.core import inline_closurecall as _icc
from numba.core import ir as _ir

from .numbapatch import replace, source_has, stock_asked

_EXPECTED = "new_block = copy.deepcopy(the_ir.blocks[block_label])"
_state = _threading.local()


class _SharedMemoCopy:
    """Stands in for the ``copy`` module inside numba.core.inline_closurecall."""

    def __init__(self, block_type):
        self._block_type = block_type
        self._ir_copy = not stock_asked("IRCOPY")     # TRICKSIM_STOCK_IRCOPY=1: copy.deepcopy (for comparisons)

    def deepcopy(self, x, memo=None):
        if memo is None and isinstance(x, self._block_type):
            memo = getattr(_state, "memo", None)
            if memo is not None and self._ir_copy:
                return ir_deepcopy(x, memo)
        return _copy.deepcopy(x, memo)


def _plain(cls) -> bool:
    """True when ``copy.deepcopy`` copies an instance of ``cls`` field by field: a new instance made by
    ``object.__new__``, its ``__dict__`` the deep copy of the original's (no ``__deepcopy__``, no ``__slots__``, no
    reduce or state hooks of its own)."""
    return (cls.__new__ is object.__new__ and "__slots__" not in vars(cls) and cls not in _copy._deepcopy_dispatch
            and cls not in _copyreg.dispatch_table and getattr(cls, "__deepcopy__", None) is None
            and cls.__reduce_ex__ is object.__reduce_ex__ and cls.__reduce__ is object.__reduce__
            and getattr(cls, "__getstate__", object.__getstate__) is object.__getstate__
            and not hasattr(cls, "__setstate__"))


_ATOMIC = frozenset(t for t, f in _copy._deepcopy_dispatch.items() if f is _copy._deepcopy_atomic)
_PLAIN = frozenset(c for c in vars(_ir).values() if isinstance(c, type) and c.__module__ == _ir.__name__
                   and _plain(c))
_OWN = frozenset(c for c in vars(_ir).values() if isinstance(c, type) and c.__module__ == _ir.__name__
                 and "__deepcopy__" in vars(c))
_NIL = object()


def ir_deepcopy(x, memo: dict):
    """``copy.deepcopy(x, memo)`` for Numba IR: the same copy (the same objects shared, the same new ones), made
    without ``copy``'s generic machinery for the IR's own classes (copied field by field, or by their own
    ``__deepcopy__``), lists, tuples, dicts, sets and a scope's defaultdicts; anything else goes to
    ``copy.deepcopy`` with the same memo.  Numba IR is most of what the inliner copies, and ``copy``'s reduce
    protocol (and ``ir.Expr``'s ``__getattr__``, which raises for each hook ``copy`` asks for) made the copy about
    a tenth of a cold compile."""
    cls = type(x)
    if cls in _ATOMIC:
        return x
    i = id(x)
    y = memo.get(i, _NIL)
    if y is not _NIL:
        return y
    if cls in _PLAIN:
        y = object.__new__(cls)
        memo[i] = y
        state = x.__dict__
        y.__dict__.update({k: ir_deepcopy(v, memo) for k, v in state.items()})
        _keep_alive(x, memo)
        return y
    if cls is list:
        y = []
        memo[i] = y
        append = y.append
        for a in x:
            append(ir_deepcopy(a, memo))
        _keep_alive(x, memo)
        return y
    if cls is dict:
        y = {}
        memo[i] = y
        for k, v in x.items():
            y[ir_deepcopy(k, memo)] = ir_deepcopy(v, memo)
        _keep_alive(x, memo)
        return y
    if cls is _defaultdict:                     # a scope's redefinitions
        y = _defaultdict(x.default_factory)
        memo[i] = y
        for k, v in x.items():
            y[ir_deepcopy(k, memo)] = ir_deepcopy(v, memo)
        _keep_alive(x, memo)
        return y
    if cls is set:
        y = {ir_deepcopy(a, memo) for a in x}
        memo[i] = y
        _keep_alive(x, memo)
        return y
    if cls is tuple:
        items = [ir_deepcopy(a, memo) for a in x]
        y = memo.get(i, _NIL)        # a tuple that holds itself through a list (as copy checks)
        if y is not _NIL:
            return y
        y = tuple(items) if any(a is not b for a, b in zip(x, items)) else x
        if y is not x:
            memo[i] = y
            _keep_alive(x, memo)
        return y
    if cls in _OWN:
        y = x.__deepcopy__(memo)
        if y is not x:
            memo[i] = y
            _keep_alive(x, memo)
        return y
    return _copy.deepcopy(x, memo)


def _keep_alive(x, memo):
    """As ``copy`` does: the originals copied are kept alive while the memo is (their ids key it)."""
    try:
        memo[id(memo)].append(x)
    except KeyError:
        memo[id(memo)] = [x]

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

    replace(worker, "inline_ir", inline_ir)
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

    replace(worker, "inline_function", inline_function)


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

