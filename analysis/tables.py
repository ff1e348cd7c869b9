"""``tricksim tables``: the tables shipped with tricksim in analysis/data/ (issue 25 item 4).

The main job trains or measures, on a first run, tables that are a pure function of the code and a fixed
seed: Bourre's ``ev`` table (fictitious play), the Boulmous equity outcome counts and the calibration of
score-aware bidding, the Boomke Wies equity counts.  Each game lists the ones it ships (``Game.tables``: the
main job's, and one small canary of each kind); they are read after memory and the disk cache, before
computing (analysis/cache.py ``load_shipped``), by the key of their configuration *without* the code hash:
an edit of the code that leaves the results alone keeps them in use, and the canaries (tests/test_tables.py,
regenerated with the code of today) catch an edit that changes them.  A configuration that is not shipped
(other rules, parameters, table sizes) is computed and cached as before.

``regenerate`` rewrites them all with the code of today (reading the disk cache of the same code when it has
them) and removes the files no table names; ``status`` is the listing.
"""
from __future__ import annotations

import json
import time
from typing import Iterator

import numpy as np
import pandas as pd

from .cache import DATA, Shipped, array_sha, as_json, write_shipped
from .common import TricksimError, rules_dict
from .registry import GAMES


def shipped_tables(canaries: bool = True) -> list[tuple]:
    """(game, ``Shipped``) of every table the games ship (the canaries too unless ``canaries`` is false)."""
    return [(g, t) for g in GAMES if g.tables is not None for t in g.tables() if canaries or not t.canary]


def _read(t: Shipped):
    """(manifest, arrays) of a shipped file, or (None, None)."""
    try:
        manifest = json.loads(t.path.with_suffix(".json").read_text())
        with np.load(t.path, allow_pickle=False) as z:
            return manifest, {k: z[k].copy() for k in z.files}
    except (OSError, ValueError, KeyError):
        return None, None


def describe(game, config: dict) -> str:
    """The configuration in a few words: the rules that differ from the defaults, the rest but the layout."""
    default = rules_dict(game.rules())
    rules = {k: v for k, v in config.get("rules", {}).items() if default.get(k) != v}
    parts = [", ".join(f"{k}={v}" for k, v in rules.items()) or "default rules"]
    for k, v in config.items():
        if k == "heuristic":
            n, d = v[1].get("train_sessions", 0), v[1].get("train_deals", 0)
            parts.append(f"{v[0]} trained on {n:,.0f} x {d:,.0f} deals")
        elif k == "heuristics":
            parts.append("/".join(sorted({h[2] for h in v})))
        elif k in ("players", "seed", "deals"):
            parts.append(f"{k} {v:,}")
    return ", ".join(parts)


def check(t: Shipped, manifest, arrays) -> list[str]:
    """What is wrong with a shipped table (empty: nothing)."""
    if manifest is None:
        return ["missing"]
    bad = []
    if manifest.get("config") != as_json(t.config):
        bad.append("its configuration is not the one the code asks for")
    if manifest.get("sha256") != array_sha(arrays):
        bad.append("its arrays do not match its checksum")
    return bad


def status() -> pd.DataFrame:
    """One row per shipped table: what it is, its file and size, its checksum, whether it is current (made by
    the code of today; or what is wrong: missing, its arrays not its checksum, its configuration not the code's)."""
    rows = []
    for g, t in shipped_tables():
        manifest, arrays = _read(t)
        bad = check(t, manifest, arrays)
        state = ("; ".join(bad) if bad else "yes" if manifest.get("code") == t.code else
                 "code changed since (the canaries say whether its results did)")
        rows.append({"table": t.name, "configuration": describe(g, t.config),
                     "KB": round(t.path.stat().st_size / 1024, 1) if t.path.exists() else 0.0,
                     "sha256": (manifest or {}).get("sha256", "")[:12], "made": (manifest or {}).get("date", "")[:10],
                     "current": state})
    return pd.DataFrame(rows)


def orphans() -> list:
    """Files of analysis/data/ that no shipped table names."""
    named = {p for _, t in shipped_tables() for p in (t.path, t.path.with_suffix(".json"))}
    return sorted(p for p in DATA.glob("*") if p.suffix in (".npz", ".json") and p not in named)


def make(t: Shipped) -> tuple[dict, dict]:
    """The table's arrays made with the code of today, and the manifest's extras."""
    arrays, info = t.make()
    return {k: np.asarray(v) for k, v in arrays.items()}, info


def regenerate(canaries_only: bool = False) -> Iterator[str]:
    """Make every shipped table (or only the canaries) with the code of today and write it; remove the files no
    table names.  Yields one line per table."""
    todo = [(g, t) for g, t in shipped_tables() if t.canary or not canaries_only]
    if not todo:
        raise TricksimError("no game ships a table")
    for i, (g, t) in enumerate(todo, 1):
        t0 = time.perf_counter()
        arrays, info = make(t)
        path = write_shipped(t.folder, t.config, t.code, arrays, **info)
        yield (f"[{i}/{len(todo)}] {t.name}: {path.name}, {path.stat().st_size / 1024:.1f} KB, sha256 "
               f"{array_sha(arrays)[:12]} ({time.perf_counter() - t0:.1f} s)")
    if not canaries_only:
        for p in orphans():
            p.unlink()
            yield f"removed {p.name} (no table names it)"
