"""A function compiled for the kernel that calls it is optimised once, in that kernel, not first on its own.

Numba compiles a function's callees inside its own compilation (typing a call compiles the callee), each into a code
library that it finalizes at once: the callee's own callees are linked in, the whole module goes through LLVM's
module passes (inlining, loop passes, vectorisation) and is emitted as machine code.  The caller then links the
callee's library and optimises and emits all of it again, so code that sits N calls below a kernel went through
the module passes N + 1 times.  Only the outermost result is ever run by the kernels.

:func:`install` counts how deep ``Dispatcher.compile`` calls nest in each thread, and:

- a library finalized inside a nested compile (a callee's, or that of a function Numba's typing compiles for an
  overload) skips the module passes: its functions have had Numba's function passes, and the kernel that links it
  optimises them in its own module passes, after inlining.  It is marked as a callee's (``callee(cres)``) and is
  still emitted, as Numba's typing of calls needs its entry point;
- a callee's overload is kept out of the dispatcher's table of functions callable from Python
  (``Dispatcher.add_overload``), so that a call from Python with its argument types asks to compile it; a compile
  asked from outside any compilation (from Python) replaces a callee's overload by the whole function, optimised on
  its own as Numba does: whatever Python calls runs fully optimised code;
- Numba's disk cache keeps the two forms apart: a callee's is saved under its index key plus ``"callee"``; a nested
  compile loads either form (the callee's first), a compile asked from Python only the whole one.

A cold compile of ``tricksim odds bourre --play heuristic,pimc,open`` took 43.9 CPU s without it and 35.7 with it
(-19%), and the tables it prints are the same; the kernels run as fast (docs/performance.md).  It installs only on
the Numba sources it was written against (the lines it relies on are checked), and ``TRICKSIM_STOCK_CALLEES=1``
keeps Numba's own.
"""
import threading as _threading

from numba.core import caching as _caching
from numba.core import codegen as _codegen
from numba.core import dispatcher as _dispatcher
from numba.core import sigutils as _sigutils

from .numbapatch import replace, source_has, stock_asked

CALLEE_KEY = "callee"
"""What a callee's form adds to its index key in Numba's disk cache."""

_EXPECTED = (
    (_dispatcher.Dispatcher.compile, "existing = self.overloads.get(tuple(args))"),
    (_dispatcher.Dispatcher.compile, "cres = self._cache.load_overload(sig, self.targetctx)"),
    (_dispatcher.Dispatcher.compile, "self.add_overload(cres)"),
    (_dispatcher._DispatcherBase.add_overload, "self._insert(sig, cres.entry_point, cres.objectmode)"),
    (_dispatcher._DispatcherBase.add_overload, "self.overloads[args] = cres"),
    (_codegen.CPUCodeLibrary.finalize, "self._optimize_final_module()"),
    (_caching.Cache._load_overload, "key = self._index_key(sig, target_context.codegen())"),
    (_caching.Cache._save_overload, "key = self._index_key(sig, data.codegen)"),
)

_state = _threading.local()


def depth() -> int:
    """How many ``Dispatcher.compile`` calls are running in this thread (1 inside a compile asked from Python)."""
    return getattr(_state, "depth", 0)


def callee(cres) -> bool:
    """True when a compile result is a callee's: compiled or loaded inside another function's compilation, its own
    library not optimised at the module level."""
    return getattr(cres.library, "_tricksim_callee", False)


def installed() -> bool:
    """True when callees are optimised only in the kernels that link them."""
    return getattr(_codegen.CPUCodeLibrary._optimize_final_module, "__wrapped__", None) is not None


def install() -> bool:
    """Install the six wrappers; returns whether they are installed."""
    if stock_asked("CALLEES"):
        return False
    if installed():
        return True
    if not source_has(*_EXPECTED):
        return False
    stock_compile = _dispatcher.Dispatcher.compile
    stock_add = _dispatcher._DispatcherBase.add_overload
    stock_optimize = _codegen.CPUCodeLibrary._optimize_final_module
    stock_load = _caching.Cache.load_overload
    stock_save = _caching.Cache.save_overload
    stock_key = _caching.Cache._index_key

    def compile(self, sig):
        outer = depth()
        replaced = None
        if outer == 0:      # asked from Python: a callee's overload is compiled whole
            args = tuple(_sigutils.normalize_signature(sig)[0])
            existing = self.overloads.get(args)
            if existing is not None and callee(existing):
                replaced = self.overloads.pop(args)
        _state.depth = outer + 1
        try:
            return stock_compile(self, sig)
        except BaseException:
            if replaced is not None and args not in self.overloads:
                self.overloads[args] = replaced
            raise
        finally:
            _state.depth = outer

    def add_overload(self, cres):
        if callee(cres):    # callable from other compiled functions, not from Python
            self.overloads[tuple(cres.signature.args)] = cres
            return
        return stock_add(self, cres)

    def _optimize_final_module(self):
        if depth() >= 2:
            self._tricksim_callee = True
            return
        return stock_optimize(self)

    def load_overload(self, sig, target_context):
        if depth() >= 2:
            _state.key = CALLEE_KEY
            try:
                cres = stock_load(self, sig, target_context)
            finally:
                _state.key = None
            if cres is not None:
                cres.library._tricksim_callee = True
                return cres
        return stock_load(self, sig, target_context)

    def save_overload(self, sig, data):
        if not callee(data):
            return stock_save(self, sig, data)
        _state.key = CALLEE_KEY
        try:
            return stock_save(self, sig, data)
        finally:
            _state.key = None

    def _index_key(self, sig, codegen):
        key = stock_key(self, sig, codegen)
        extra = getattr(_state, "key", None)
        return key if extra is None else (*key, extra)

    replace(_dispatcher.Dispatcher, "compile", compile)
    replace(_dispatcher._DispatcherBase, "add_overload", add_overload)
    replace(_caching.Cache, "load_overload", load_overload)
    replace(_caching.Cache, "save_overload", save_overload)
    replace(_caching.Cache, "_index_key", _index_key)
    replace(_codegen.CPUCodeLibrary, "_optimize_final_module", _optimize_final_module)
    return True
