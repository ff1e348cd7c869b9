"""What every patch of Numba in this package checks before it installs (kernels/inlining.py, ssa.py, calltypes.py,
framestack.py, gufunclink.py, calleeopt.py, compilegc.py): that no ``TRICKSIM_STOCK_<NAME>=1`` asks for Numba's own
behaviour (for comparisons: tests/test_inlining.py, tests/test_ssa.py), and that Numba's source still has the lines
the patch replaces or relies on, so that another Numba version keeps its own behaviour; and how each puts its
wrappers in place (``replace``)."""
import inspect as _inspect
import os as _os


def stock_asked(name: str) -> bool:
    """True when ``TRICKSIM_STOCK_<name>=1`` keeps Numba's own behaviour."""
    return _os.environ.get(f"TRICKSIM_STOCK_{name}") == "1"


def replace(owner, name: str, new) -> None:
    """Put ``new`` in the place of ``owner.name`` (a module's function or a class's method), keeping Numba's own as
    ``new.__wrapped__`` (how a patch's ``installed()`` tells, and how tests reach Numba's own) and its docstring."""
    stock = getattr(owner, name)
    new.__wrapped__ = stock
    new.__doc__ = stock.__doc__
    setattr(owner, name, new)


def has_wrapper(f, marker: str) -> bool:
    """True when ``f`` or a function it wraps (its ``__wrapped__`` chain, as ``replace`` and ``functools.wraps``
    keep it) carries the attribute ``marker``: how a patch that wraps the same method as others (``Dispatcher.compile``:
    framestack.py, calleeopt.py, compilegc.py) tells whether its own wrapper is in place."""
    while f is not None:
        if getattr(f, marker, False):
            return True
        f = getattr(f, "__wrapped__", None)
    return False


def install_wrapper(owner, name: str, switch: str, marker: str, make) -> bool:
    """Install a patch that wraps ``owner.name`` (``Dispatcher.compile``: framestack.py, compilegc.py): not when
    ``TRICKSIM_STOCK_<switch>=1`` (False); at once when its wrapper, the one carrying ``marker``, is in place
    (True); else ``make(stock)`` builds the wrapper of what is there now, which is marked and put in its place
    (``replace``)."""
    if stock_asked(switch):
        return False
    if has_wrapper(getattr(owner, name), marker):
        return True
    new = make(getattr(owner, name))
    setattr(new, marker, True)
    replace(owner, name, new)
    return True


def source_has(*expected) -> bool:
    """True when, for each ``(function, line)`` of ``expected``, the function's source holds the line (False when a
    source cannot be read)."""
    try:
        return all(line in _inspect.getsource(f) for f, line in expected)
    except (OSError, TypeError):
        return False
