"""Numba kernels of tricksim.

Every ``@njit`` function of the project lives in this package (docs/architecture.md: the kernel floor).
Kernels take ndarrays, scalars and module constants only: no objects, no I/O,
no mutable globals.  Parsing, validation and printing live in ``analysis/``.

Layout: the parts every game shares at this level (``cards``, ``rng``, ``deal``, ``tally``), and one
package per game (``bourre/``, ``boulmous/``, ``boomke_wies/``), each split by phase in the order of a deal
(rules, players, dealing, one deal, batch entry points, solver, sampling player, equity).  No kernel module
imports one above it: the import graph has no loop (tests/test_kernel_layout.py).

Numba's on-disk cache (``cache=True``) checks only the source file of the function it caches,
but the kernels inline functions and tables of other kernel files (``kernels/cards.py``,
``kernels/rng.py``, ``kernels/boulmous/rules.py`` into ``kernels/boulmous/solver.py``): an edit there
would leave stale compiled code in the cache.  So the package keys the whole cache on all of its
sources: on import, if the hash of every ``kernels/**/*.py`` differs from the one stored beside a
folder's cache, every cached kernel of that folder is dropped (and recompiled on its next use).
"""
import hashlib as _hashlib
import os as _os
from pathlib import Path as _Path


def _cache_dirs(src: _Path):
    yield src / "__pycache__"
    root = _os.environ.get("NUMBA_CACHE_DIR")
    if root:  # numba mirrors the source folder's absolute path under NUMBA_CACHE_DIR
        yield _Path(root) / _Path(*src.resolve().parts[1:])


def _key_cache_on_sources(src: _Path | None = None) -> None:
    src = src or _Path(__file__).resolve().parent
    files = sorted(src.rglob("*.py"))
    h = _hashlib.sha256()
    for f in files:
        h.update(f.relative_to(src).as_posix().encode())
        h.update(f.read_bytes())
    key = h.hexdigest()
    for folder in sorted({src} | {f.parent for f in files}):   # every kernel folder has its own __pycache__
        for d in _cache_dirs(folder):
            stamp = d / "tricksim-kernels.sha256"
            try:
                if stamp.exists() and stamp.read_text() == key:
                    continue
                if d.is_dir():
                    for f in d.iterdir():
                        if f.suffix in (".nbi", ".nbc"):
                            f.unlink(missing_ok=True)
                d.mkdir(parents=True, exist_ok=True)
                stamp.write_text(key)
            except OSError:  # a read-only install: numba then cannot cache there either
                pass


_key_cache_on_sources()


# Numba's compiler, patched before any kernel compiles (docs/architecture.md; each patch checks Numba's source and
# its TRICKSIM_STOCK_* switch, kernels/numbapatch.py)
from . import calleeopt as _calleeopt, calltypes as _calltypes, compilegc as _compilegc  # noqa: E402
from . import framestack as _framestack, gufunclink as _gufunclink  # noqa: E402
from . import inlining as _inlining, ssa as _ssa  # noqa: E402

for _patch in (_inlining, _ssa, _calltypes, _framestack, _gufunclink, _calleeopt, _compilegc):
    _patch.install()
