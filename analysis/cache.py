"""The disk cache of tables that take long to compute and never change for the same inputs and code (the
match equity tables' per-deal outcomes, analysis/boulmous/equity/ and analysis/boomke_wies/equity.py):
``$TRICKSIM_CACHE`` (default ``~/.cache/tricksim``) ``/<folder>/<key>.npz``, the key a hash of everything that
makes the arrays, the code included (``code_hash``); and the tables shipped with tricksim (``DATA``), read when
the cache has none."""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

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


# ---- the tables shipped with tricksim (analysis/data/, ``tricksim tables``) ------------------------------
DATA = ROOT / "analysis" / "data"
"""The shipped tables: ``<folder>-<key>.npz`` (the arrays, compressed) beside ``<folder>-<key>.json`` (the
manifest: the configuration, the code hash and the date it was made with, the sha256 of its arrays), the key
a hash of the configuration *without* the code, so an edit of the code that leaves the results alone keeps
them in use (the canaries of tests/test_tables.py catch an edit that changes them)."""


def shipped_path(folder: str, config: dict) -> Path:
    return DATA / f"{folder}-{key_of(**config)}.npz"


def array_sha(arrays: dict) -> str:
    """The sha256 of ``arrays`` (name, dtype, shape and bytes of each, by name)."""
    h = hashlib.sha256()
    for name in sorted(arrays):
        a = np.ascontiguousarray(arrays[name])
        h.update(f"{name}:{a.dtype.str}:{a.shape}".encode())
        h.update(a.tobytes())
    return h.hexdigest()


def as_json(config: dict) -> dict:
    """``config`` as it reads back from a manifest (tuples as lists, keys sorted)."""
    return json.loads(json.dumps(config, sort_keys=True, default=str))


def load_shipped(folder: str, config: dict) -> tuple[dict, dict] | None:
    """The shipped arrays of ``config`` and their manifest, or None (none shipped, or not these)."""
    path = shipped_path(folder, config)
    try:
        manifest = json.loads(path.with_suffix(".json").read_text())
        with np.load(path, allow_pickle=False) as z:
            arrays = {k: z[k].copy() for k in z.files}
    except (OSError, ValueError, KeyError):
        return None
    if manifest.get("config") != as_json(config) or manifest.get("sha256") != array_sha(arrays):
        return None
    return arrays, manifest


def write_shipped(folder: str, config: dict, code: str, arrays: dict, **info) -> Path:
    """Write a shipped table and its manifest (``tricksim tables --regenerate``)."""
    path = shipped_path(folder, config)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as f:
        np.savez_compressed(f, **arrays)
    manifest = {"kind": folder, "key": path.stem.split("-")[-1], "config": as_json(config), "code": code,
                "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), "sha256": array_sha(arrays),
                "arrays": {k: [np.asarray(v).dtype.str, list(np.shape(v))] for k, v in sorted(arrays.items())},
                **as_json(info)}
    path.with_suffix(".json").write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    return path


@dataclass(frozen=True, eq=False)
class Shipped:
    """One table shipped in analysis/data/ (``Game.tables``)."""
    folder: str
    """Its kind: the folder of its disk cache (``bourre-ev``, ``equity``), the start of its file name."""
    name: str
    """A short label (``tricksim tables``)."""
    config: dict
    """What makes it, but the code (JSON-able): its file's key, and what its manifest must record."""
    code: str
    """The hash of the code that makes it (recorded in the manifest: the table is current when it is equal)."""
    make: Callable
    """``make() -> (arrays, info)``: the table computed with the code of today (or read from the disk cache of
    that code), never read from the shipped files; ``info``: JSON-able extras for the manifest."""
    canary: bool = False
    """A small configuration, quick to make, that the tests regenerate to catch a change of the results."""

    @property
    def path(self) -> Path:
        return shipped_path(self.folder, self.config)
