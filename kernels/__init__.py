"""Numba kernels of tricksim.

Every ``@njit`` function of the project lives in this package (STYLE.md rule 1).
Kernels take ndarrays, scalars and module constants only: no objects, no I/O,
no mutable globals.  Parsing, validation and printing live in ``analysis/``.

Numba's on-disk cache (``cache=True``) checks only the source file of the function it caches,
but the kernels inline functions and tables of other kernel files (``kernels/cards.py``,
``kernels/rng.py``, ``kernels/boulmous.py`` into ``kernels/solve_boulmous.py``): an edit there
would leave stale compiled code in the cache.  So the package keys the whole cache on all of its
sources: on import, if the hash of ``kernels/*.py`` differs from the one stored beside the cache,
every cached kernel is dropped (and recompiled on its next use).
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
    h = _hashlib.sha256()
    for f in sorted(src.glob("*.py")):
        h.update(f.name.encode())
        h.update(f.read_bytes())
    key = h.hexdigest()
    for d in _cache_dirs(src):
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

# Bourre's play kernel reaches its sampling player through a bottom import (kernels/bourre.py), and the
# sampling player imports the solver, which imports bourre: importing bourre first makes every entry into
# that loop (bourre, solve_bourre, pimc_bourre, odds_bourre) resolve, whichever module is asked for alone.
# (A stop-gap until the kernels are split by game and phase, with no loop at all.)
from tricksim.kernels import bourre as _bourre  # noqa: E402,F401
