"""A parallel kernel's loop body optimised and emitted once, in the kernel, not also in the libraries Numba wraps it in.

Numba compiles the body of a ``prange`` loop as a function of its own (a gufunc), in a code library ``K`` that is
finalized (optimised, emitted as machine code) when it is compiled; then it wraps it twice (``_GufuncWrapper``'s
library ``W1``, linking ``K``; ``parallelgufuncwrapper``, ``W2``, linking ``W1`` and ``K``) and links ``W2`` and
``K`` into the kernel's library.  Each library is finalized on its own: the code it links is copied in,
optimised again at the module level and emitted as machine code.  Only the kernel's library is called (and
cached) after that: ``W1`` and ``W2`` exist to be linked into it.  So the whole loop body of every parallel kernel
(its inlined deal, play and players) was optimised and emitted twice more than needed.

:func:`install` marks the two wrapper libraries while Numba lowers a parfor (``call_parallel_gufunc``; by the
names Numba gives them), and a marked library's ``finalize`` only links what it links: no module-level
optimisation, no machine code.  The kernel's library then links, optimises and emits everything, as before.  A
cold compile of ``tricksim odds bourre --play heuristic,pimc,open`` took 50.8 CPU s with Numba's own
finalization and 45.0 with this (-11%); ``odds bourre`` 11.8 and 10.7; the outputs are byte-identical and the
compiled kernels as fast (docs/performance.md).  It installs only on the Numba sources it was written against (the
lines it relies on are checked), and ``TRICKSIM_STOCK_LINK=1`` keeps Numba's own.

The body's own library ``K`` is compiled the same way: its compilation (``compile_ir`` with Numba's
``ParforGufuncCompiler``) asks for no executable (``no_compile``: nothing calls the body from Python; the wrappers
call it by its symbol) and no Python or C wrappers, and ``K`` is only linked.  The kernel's library then optimises
the body once, with everything else: cold, ``odds bourre`` took 11.0 and 10.4 CPU s with ``K`` finalized on its own
and 10.0 and 10.1 without; ``odds bourre --play heuristic,pimc,open`` 46.2 and 44.2; the tables printed the same.
"""
import threading as _threading

from numba.core import codegen as _codegen
from numba.core import compiler as _compiler
from numba.np.ufunc import parallel as _parallel
from numba.np.ufunc import wrappers as _wrappers
from numba.parfors import parfor_lowering as _parfor_lowering

from .numbapatch import replace, source_has, stock_asked

WRAPPERS = ("parallelgufuncwrapper", "_GufuncWrapper")
"""How the names of the two wrapper libraries Numba makes for a parfor's gufunc start or contain."""

_EXPECTED = (
    (_parfor_lowering.call_parallel_gufunc, "context.active_code_library.add_linking_library(info.library)"),
    (_parallel.build_gufunc_kernel, "create_library('parallelgufuncwrapper')"),
    (_wrappers._GufuncWrapper._compile_wrapper, "create_library(str(self))"),
    (_codegen.CPUCodeLibrary.finalize, "self._optimize_final_module()"),
    (_codegen.CPUCodeLibrary.finalize, "self._finalize_final_module()"),
    (_parfor_lowering._create_gufunc_for_parfor_body, "pipeline_class=ParforGufuncCompiler)"),
    (_parfor_lowering.call_parallel_gufunc, "llvm_func = cres.library.get_function(cres.fndesc.llvm_func_name)"),
)

BODY_PIPELINE = "ParforGufuncCompiler"
"""The name of the compiler class Numba compiles a parfor's loop body (its gufunc) with."""

_state = _threading.local()


def installed() -> bool:
    """True when the wrapper libraries of a parfor's gufunc are only linked into the kernel's."""
    return getattr(_codegen.CPUCodeLibrary.finalize, "__wrapped__", None) is not None


def _link_only(lib) -> None:
    """``CPUCodeLibrary.finalize`` for a library that is only ever linked into another: the libraries it links
    are copied in (as Numba's finalize does), and nothing is optimised at the module level or emitted."""
    _codegen.require_global_compiler_lock()
    lib._raise_if_finalized()
    seen = set()
    for library in lib._linking_libraries:
        if library not in seen:
            lib._reload_init.update(library._reload_init)
            seen.add(library)
            lib._final_module.link_in(library._get_module_for_linking(), preserve=True)
    lib._final_module.verify()
    lib._finalize_dynamic_globals()
    lib._verify_declare_only_symbols()
    lib._finalized = True


def install() -> bool:
    """Install the four wrappers; returns whether they are installed."""
    if stock_asked("LINK"):
        return False
    if installed():
        return True
    if not source_has(*_EXPECTED):
        return False
    stock_call = _parfor_lowering.call_parallel_gufunc
    stock_create = _codegen.CPUCodegen.create_library
    stock_finalize = _codegen.CPUCodeLibrary.finalize
    stock_compile_ir = _compiler.compile_ir

    def call_parallel_gufunc(lowerer, cres, *args, **kwargs):
        outer = getattr(_state, "lowering", False)
        _state.lowering = True
        try:
            return stock_call(lowerer, cres, *args, **kwargs)
        finally:
            _state.lowering = outer

    def create_library(self, name, **kwargs):
        lib = stock_create(self, name, **kwargs)
        if getattr(_state, "lowering", False) and any(w in name for w in WRAPPERS):
            lib._tricksim_link_only = True
        return lib

    def finalize(self):
        if getattr(self, "_tricksim_link_only", False):
            return _link_only(self)
        return stock_finalize(self)

    def compile_ir(typingctx, targetctx, func_ir, args, return_type, flags, locals, *more, **kwargs):
        pipeline = kwargs.get("pipeline_class")
        if getattr(pipeline, "__name__", None) == BODY_PIPELINE and kwargs.get("library") is None:
            flags = flags.copy()            # the parfor's own flags stay as they are
            flags.no_compile = flags.no_cpython_wrapper = flags.no_cfunc_wrapper = True
            lib = targetctx.codegen().create_library(func_ir.func_id.func_qualname)
            lib.enable_object_caching()     # as Numba's lowering does for a library it makes
            lib._tricksim_link_only = True
            kwargs["library"] = lib
        return stock_compile_ir(typingctx, targetctx, func_ir, args, return_type, flags, locals, *more, **kwargs)

    replace(_parfor_lowering, "call_parallel_gufunc", call_parallel_gufunc)
    replace(_codegen.CPUCodegen, "create_library", create_library)
    replace(_codegen.CPUCodeLibrary, "finalize", finalize)
    replace(_compiler, "compile_ir", compile_ir)
    return True
