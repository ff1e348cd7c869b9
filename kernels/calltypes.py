"""Numba's typing of a call to a function template remembered per argument types, not redone at every call site.

Numba types every call site of the compiled code on its own: a call to ``operator.add``, ``min`` or
``np.uint64`` asks each of the function's templates in turn (``types.Function.get_call_type``) whether it
accepts the argument types, and the kernels make tens of thousands of such calls with the same few argument
types (a cold compile of ``tricksim odds bourre --play heuristic,pimc,open``: 24,500 calls to templates,
of which 19,500 repeat an earlier one).  The answer, a signature, is a function of the function, the
argument types (literal values included), the keyword argument types and the compile flags (the templates of
``@overload`` compile their implementation under the current flags), and the first answer leaves in Numba's
caches everything that lowering the call needs (the implementation for those argument types), so a repeated
call can be given the same signature.

:func:`install` wraps ``BaseContext._resolve_user_function_type`` so that, for a ``types.Function`` (a
function with templates: builtins, NumPy's functions, ``@overload``; not a compiled function, which
Numba's dispatcher already keeps per signature), a signature found once is kept per typing context, function,
argument types, keyword argument types and flags.  A failed or raising typing is not kept: it is typed again
as Numba does.  That cold compile took 58 CPU s without it and 55 with it.  ``TRICKSIM_STOCK_CALLS=1`` keeps
Numba's own (for comparisons); tests/test_inlining.py compiles kernels both ways in fresh interpreters and
compares their LLVM IR.
"""
from numba.core import targetconfig as _targetconfig
from numba.core import types as _types
from numba.core.typing import context as _context

from .numbapatch import replace, source_has, stock_asked

_EXPECTED = "return func.get_call_type(self, args, kws)"


def installed() -> bool:
    """True when the typing of template calls is remembered."""
    return getattr(_context.BaseContext._resolve_user_function_type, "__wrapped__", None) is not None


def _flags_key():
    """The current compile flags as a hashable key: the options set explicitly (the rest are the defaults)."""
    flags = _targetconfig.ConfigStack.top_or_none()
    if flags is None:
        return None
    return type(flags), tuple(sorted((k, repr(v)) for k, v in flags._values.items()))


def install() -> bool:
    """Install the memo of template calls' signatures; returns whether it is installed."""
    if stock_asked("CALLS"):
        return False
    if installed():
        return True
    stock = _context.BaseContext._resolve_user_function_type
    if not source_has((stock, _EXPECTED)):
        return False

    def _resolve_user_function_type(self, func, args, kws, literals=None):
        if literals is not None or not isinstance(func, _types.Function):
            return stock(self, func, args, kws, literals)
        try:
            key = (func, tuple(args), tuple(sorted(kws.items())) if isinstance(kws, dict) else tuple(kws),
                   _flags_key())
            memo = self.__dict__.setdefault("_tricksim_call_types", {})
            found = memo.get(key)
        except TypeError:       # an unhashable argument type: typed as Numba does
            return stock(self, func, args, kws, literals)
        if found is not None:
            return found
        found = stock(self, func, args, kws, literals)
        if found is not None:
            memo[key] = found
        return found

    replace(_context.BaseContext, "_resolve_user_function_type", _resolve_user_function_type)
    return True
