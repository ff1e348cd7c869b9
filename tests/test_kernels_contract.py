"""The kernels' contract (STYLE.md 1): every jitted function is compiled with ``cache=True`` (so a
process loads it instead of compiling it again), and nothing in kernels/ prints (kernels compute;
cli.py prints).  Checked on the source, so functions a module does not export count too."""
import ast
from pathlib import Path

import pytest

KERNELS = Path(__file__).resolve().parent.parent / "kernels"
JIT = {"njit", "jit", "vectorize", "guvectorize", "generated_jit", "cfunc"}
FILES = sorted(KERNELS.rglob("*.py"))
# Known violations, as xfail(strict=True): fixing one turns it into an XPASS failure (then drop it here).
PRINTS_KNOWN: dict = {}


def _files(known=None):
    known = known or {}
    ids = [p.relative_to(KERNELS).as_posix() for p in FILES]
    return [pytest.param(p, id=i, marks=[pytest.mark.xfail(strict=True, reason=known[i])] if i in known else [])
            for p, i in zip(FILES, ids)]


def _decorator_name(d):
    f = d.func if isinstance(d, ast.Call) else d
    return getattr(f, "id", None) or getattr(f, "attr", None)


def _jitted(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            for d in node.decorator_list:
                if _decorator_name(d) in JIT:
                    yield node, d


@pytest.mark.parametrize("path", _files())
def test_every_kernel_function_is_cached(path):
    tree = ast.parse(path.read_text())
    bad = []
    for fn, d in _jitted(tree):
        kws = {k.arg: k.value for k in d.keywords} if isinstance(d, ast.Call) else {}
        cache = kws.get("cache")
        if not (isinstance(cache, ast.Constant) and cache.value is True):
            bad.append(f"{fn.name} (line {fn.lineno})")
    assert not bad, f"{path.name}: jitted without cache=True: {', '.join(bad)}"


@pytest.mark.parametrize("path", _files(PRINTS_KNOWN))
def test_nothing_in_kernels_prints(path):
    tree = ast.parse(path.read_text())
    bad = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            if getattr(f, "id", None) == "print":
                bad.append(f"print (line {node.lineno})")
            elif (isinstance(f, ast.Attribute) and f.attr == "write" and isinstance(f.value, ast.Attribute)
                  and f.value.attr in ("stdout", "stderr")):
                bad.append(f"sys.{f.value.attr}.write (line {node.lineno})")
    assert not bad, f"{path.name} prints: {', '.join(bad)}"


def test_the_kernels_are_numba_functions_with_a_cache():
    """The same on the compiled objects: every dispatcher of every kernel module (the shared ones and each
    game's phase modules) has a file cache."""
    import importlib
    import pkgutil

    from numba.core.dispatcher import Dispatcher

    import tricksim.kernels

    modules = [importlib.import_module(m.name)
               for m in pkgutil.walk_packages(tricksim.kernels.__path__, "tricksim.kernels.")]
    seen = 0
    for mod in modules:
        for name, obj in vars(mod).items():
            if isinstance(obj, Dispatcher) and obj.py_func.__module__ == mod.__name__:
                seen += 1
                assert type(obj._cache).__name__ != "NullCache", f"{mod.__name__}.{name} has no cache"
    assert seen > 50
