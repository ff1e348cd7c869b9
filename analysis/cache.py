"""The disk cache of tables that take long to compute and never change for the same inputs and code (the
match equity tables' per-deal outcomes, analysis/boulmous/equity/ and analysis/boomke_wies/equity.py):
``$TRICKSIM_CACHE`` (default ``~/.cache/tricksim``) ``/<folder>/<key>.npz``, the key a hash of everything that
makes the arrays, the code included (``code_hash``)."""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent


def code_hash(files) -> str:
    """A short hash of the sources ``files`` (paths relative to the package root, e.g. ``kernels/rng.py``)."""
    h = hashlib.sha256()
    for rel in files:
        h.update(rel.encode())
        h.update((ROOT / rel).read_bytes())
    return h.hexdigest()[:16]


def kernel_files(game_key: str) -> list[str]:
    """A game's kernel sources and the shared ones its tables depend on (cards, random numbers)."""
    return [*sorted(f"kernels/{game_key}/{f.name}" for f in (ROOT / "kernels" / game_key).glob("*.py")),
            "kernels/rng.py", "kernels/cards.py"]


def cache_dir(folder: str) -> Path:
    base = os.environ.get("TRICKSIM_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "tricksim")
    return Path(base) / folder


def key_of(**parts) -> str:
    """The cache key of ``parts`` (JSON-able values)."""
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()[:24]


def load(folder: str, key: str) -> dict | None:
    """The arrays cached under ``key`` (a dict), or None."""
    try:
        with np.load(cache_dir(folder) / f"{key}.npz", allow_pickle=False) as z:
            if str(z["key"]) != key:
                return None
            return {k: z[k].copy() for k in z.files}
    except (OSError, ValueError, KeyError):
        return None


def save(folder: str, key: str, **arrays) -> None:
    """Write atomically; a read-only cache is not an error (the result stays in memory)."""
    d = cache_dir(folder)
    try:
        d.mkdir(parents=True, exist_ok=True)
        tmp = d / f".{key}.{os.getpid()}.tmp"
        with open(tmp, "wb") as f:
            np.savez(f, key=np.array(key), **arrays)
        os.replace(tmp, d / f"{key}.npz")
    except OSError:
        pass
