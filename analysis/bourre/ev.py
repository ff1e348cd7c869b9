"""Bourre's expected-value player ``ev`` (issue 15 item 1): its probability table, computed by
fictitious play and cached on disk.

**The decision.** After the up-card, ``ev`` plays when its expected chips from playing exceed
passing's (0: a passer only loses his ante, already paid): ``P(win) x pot + P(tie) x tie value -
P(bourre) x bourre cost`` (kernels/bourre/ ``ev_gain``: pot limit, fixed penalty, tie rule,
double ante and the ante a bourre or a tie saves are read from the rules).  With ``draw=1`` it also
chooses how many cards to draw: for every count the rules allow it keeps its strongest cards
(``ev_discard``) and takes the count of the highest expected chips (``ev_best``; another count
than basic's must gain ``draw_z`` standard errors over it), and plays when those are positive.
With ``draw=0`` (the default: ``draw=1`` measured no better, README) the discard is ``basic``'s.  Card play is ``basic``'s; so is the decision of a hand with no class with data.

**The table.** P(win), P(tie), P(bourre) of *playing* and the samples, per hand class: the class
of the cards it keeps (``K.ev_kept_class``: trumps, highest trump, side aces, side kings, other
side cards; the cards drawn are the rest), the players who declared play before it (0..3+), its
position (first half, second half, dealer) and the pot over the table's antes (<2, <4, <8, 8+):
``K.EV_CELLS`` cells.  It travels to the kernels as their own argument, the ev tables ``evt``
(``ev_tables``: one row per seat or entrant, none when no seat is ev), never in the parameter matrix.

**The iteration** (fictitious play).  Iteration 0: every seat plays ``ev`` with an empty table
(that is ``basic``).  Each iteration simulates ``train_sessions`` sessions of ``train_deals``
deals (pot carried on, as ``tricksim pot`` plays) with the current players
(``K.sim_ev_train``); in every deal one decision point drawn on its own stream is sampled and its
outcome *of playing* with its own discard is counted in its class: the real outcome if the seat
played, else the deal replayed from the same cards and stock with the seat playing (the
counterfactual, as the odds study evaluates a choice); with ``draw=1`` a second sample plays a
draw count drawn uniformly from those the rules allow (keeping the strongest cards), replayed
likewise, so every count has data.  The counts give the next table; the next players use it.  The share
of decisions that changed is measured on the decisions the current players meet: those where the
previous players would have decided otherwise.  The iteration stops when it is under 1% (the
table of that iteration is the answer) or after ``max_iter``.  Every iteration uses the same
training seed (common random numbers: a decision changes because the players did, not the luck),
so the table is a pure function of (rules, table size, ev's parameters, code).

**The cache.** ``$TRICKSIM_CACHE`` (default ``~/.cache/tricksim``) ``/bourre-ev/<key>.npz``, the key a
hash of the rules, the table size, ev's parameters and the code that makes the table
(``TABLE_CODE_HASH``: kernels/bourre/, rng.py, cards.py, this file and config.py, which maps the
rules and ev's parameters to the kernel's arrays and holds their defaults; not the engine's
CODE_HASH, which changes with any file of analysis/, e.g. another game's, and would retrain for
nothing); in memory too, so a run's blocks (or a Dask worker's) read it once.

**Shipped.** The tables the main job reads (default rules, 7 players, ``ev``'s defaults) ship with tricksim
(analysis/data/, analysis/cache.py ``load_shipped``, written by ``tricksim tables --regenerate``), found by
the key without the code hash (``table_config``): after memory and the disk cache, before training.
"""
from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

import numpy as np

from ...kernels import bourre as K
from ...kernels.rng import GAME_BOURRE, STREAM_DEAL, STREAM_DECIDE, derive_key
from ..cache import cache_dir as _cache_dir
from ..cache import code_hash, kernel_files, load_shipped, shipped_path
from ..common import rules_dict
from .config import _dynamic, rules_array
from .spec import SPEC

TOL = 0.01                 # converged: under 1% of the decisions changed
EV_STREAM = 7              # the random stream that picks the sampled decision point (kernels/rng.py keys)


TABLE_CODE_HASH = code_hash([*kernel_files("bourre"), "analysis/bourre/ev.py", "analysis/bourre/config.py"])


def cache_dir() -> Path:
    return _cache_dir("bourre-ev")


@dataclass
class EvTable:
    """ev's table for one (rules, table size, ev parameters): ``table`` float64[K.EV_LEN] (per cell
    p_win, p_tie, p_bourre; p_win = -1: too few samples), ``counts`` the last iteration's
    int64[K.EV_CELLS, K.EV_STATS], ``history`` one dict per iteration, ``converged``, ``key``,
    ``path`` (the cache file), ``source`` ("computed", "disk", "shipped" or "memory")."""
    table: np.ndarray
    counts: np.ndarray
    history: list
    converged: bool
    key: str
    path: Path
    source: str = "computed"
    seconds: float = 0.0
    meta: dict = field(default_factory=dict)


def table_config(rules, players: int, spec) -> dict:
    """What makes the table, but the code (the key of a shipped table)."""
    return {"rules": rules_dict(rules), "players": int(players), "heuristic": [spec.name, dict(spec.values)],
            "layout": [K.EV_NT, K.EV_NTT, K.EV_NA, K.EV_NK, K.EV_NO, K.EV_NNP, K.EV_NPOS, K.EV_NPOT, K.N_PARAMS],
            "tol": TOL}


def table_key(rules, players: int, spec) -> str:
    js = dict(table_config(rules, players, spec), code=TABLE_CODE_HASH)
    return hashlib.sha256(json.dumps(js, sort_keys=True).encode()).hexdigest()[:24]


def table_from_counts(counts, min_samples) -> np.ndarray:
    """Per cell (p_win, p_tie, p_bourre, samples) of playing, or p_win = -1 below ``min_samples`` samples."""
    c = np.asarray(K.EV_TRAIN.field(np.asarray(counts), "cells"), np.float64)
    n = c[:, K.EV_SAMP]
    t = np.full((K.EV_CELLS, K.EV_W), -1.0)
    ok = n >= max(1, min_samples)
    t[ok, 0] = c[ok, K.EV_WIN] / n[ok]
    t[ok, 1] = c[ok, K.EV_TIE] / n[ok]
    t[ok, 2] = c[ok, K.EV_BOU] / n[ok]
    t[ok, 3] = n[ok]
    t[~ok, 1:] = 0.0
    return t.reshape(-1)


def _settings(spec) -> dict:
    v = dict(spec.values)
    return {k: int(round(v[k])) for k in ("train_sessions", "train_deals", "train_seed", "max_iter", "min_samples")}


def train(rules, players: int, spec) -> Iterator[dict]:
    """The fictitious play: yields one dict per iteration (iteration, changed, decisions, samples,
    classes with data, seconds) and returns the ``EvTable`` (``table = yield from train(...)``)."""
    st = _settings(spec)
    t0 = time.perf_counter()
    kd, kc = (derive_key(st["train_seed"], GAME_BOURRE, STREAM_DEAL),   # the game's keys (GameSpec.keys)
              derive_key(st["train_seed"], GAME_BOURRE, STREAM_DECIDE))
    kx = derive_key(st["train_seed"], GAME_BOURRE, EV_STREAM)
    ra = rules_array(rules)
    codes, hp = SPEC.heuristic_arrays([spec] * players)        # every seat ev, with its parameters
    prev = table_from_counts(np.zeros(K.EV_TRAIN.size, np.int64), st["min_samples"])
    cur = prev.copy()
    history = []
    converged = False
    counts = None
    cum = np.zeros(K.EV_TRAIN.size, np.int64)
    for it in range(st["max_iter"] + 1):
        t1 = time.perf_counter()
        evt = np.ascontiguousarray(np.tile(cur, (players, 1)))       # every seat ev, with the current table
        pevt = np.ascontiguousarray(np.tile(prev, (players, 1)))     # and the previous one
        counts = _dynamic(K.sim_ev_train, kd, kc, kx, 0, st["train_sessions"], players, st["train_deals"], ra,
                          codes, hp, evt, pevt)
        dec, ch = K.EV_TRAIN.value(counts, "decisions"), K.EV_TRAIN.value(counts, "changed")
        cells = K.EV_TRAIN.field(counts, "cells")
        h = {"iteration": it, "players": "basic" if it == 0 else f"ev (table {it})",
             "decisions": dec, "changed": ch / dec if (it > 0 and dec) else float("nan"),
             "play_rate": float(cells[:, K.EV_PLAYED].sum()) / max(dec, 1),
             "samples": int(cells[:, K.EV_SAMP].sum()),
             "classes": int((cells[:, K.EV_SAMP] >= max(1, st["min_samples"])).sum()),
             "seconds": time.perf_counter() - t1}
        history.append(h)
        yield h
        if it > 0 and dec and ch / dec < TOL:
            converged = True
            break
        if it == st["max_iter"]:
            break
        cum += counts
        prev, cur = cur, table_from_counts(cum, st["min_samples"])
    key = table_key(rules, players, spec)
    return EvTable(cur, K.EV_TRAIN.field(cum, "cells").copy(), history, converged, key,
                   cache_dir() / f"{key}.npz", "computed", time.perf_counter() - t0,
                   {"rules": rules_dict(rules), "players": players, "heuristic": [spec.name, dict(spec.values)],
                    "code": TABLE_CODE_HASH})


_MEMORY: dict = {}
_LOCK = threading.RLock()


def _load(path: Path, key: str) -> EvTable | None:
    try:
        with np.load(path, allow_pickle=False) as z:
            meta = json.loads(str(z["meta"]))
            if meta.get("key") != key or z["table"].shape != (K.EV_LEN,):
                return None
            return EvTable(z["table"].copy(), z["counts"].copy(), meta["history"], meta["converged"], key, path,
                           "disk", meta.get("seconds", 0.0), meta)
    except (OSError, ValueError, KeyError):
        return None


def _save(t: EvTable) -> None:
    t.path.parent.mkdir(parents=True, exist_ok=True)
    meta = dict(t.meta, key=t.key, history=t.history, converged=t.converged, seconds=t.seconds)
    tmp = t.path.with_name(f".{t.path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as f:
        np.savez(f, table=t.table, counts=t.counts, meta=np.array(json.dumps(meta)))
    os.replace(tmp, t.path)


def _shipped(rules, players: int, spec, key: str) -> EvTable | None:
    cfg = table_config(rules, players, spec)
    found = load_shipped("bourre-ev", cfg)
    if found is None or found[0]["table"].shape != (K.EV_LEN,):
        return None
    z, m = found
    return EvTable(z["table"], z["counts"], m["history"], m["converged"], key, shipped_path("bourre-ev", cfg),
                   "shipped", m.get("seconds", 0.0), m)


def cached(rules, players: int, spec, shipped: bool = True) -> EvTable | None:
    """The table from memory, the disk cache or (``shipped``) the tables shipped with tricksim, or None."""
    key = table_key(rules, players, spec)
    with _LOCK:
        t = _MEMORY.get(key)
        if t is not None and (shipped or t.source != "shipped"):
            return EvTable(t.table, t.counts, t.history, t.converged, key, t.path, "memory", t.seconds, t.meta)
        t = _load(cache_dir() / f"{key}.npz", key) or (_shipped(rules, players, spec, key) if shipped else None)
        if t is not None:
            _MEMORY[key] = t
        return t


def prepare(rules, players: int, spec, shipped: bool = True) -> Iterator[dict]:
    """Train (yielding each iteration) unless cached (or, ``shipped``, shipped); returns the ``EvTable``
    (saved to the cache when trained)."""
    t = cached(rules, players, spec, shipped)
    if t is not None:
        return t
    with _LOCK:
        t = yield from train(rules, players, spec)
        try:
            _save(t)
        except OSError:
            pass                       # a read-only cache: the table stays in memory
        _MEMORY[t.key] = t
    return t


def ev_table(rules, players: int, spec) -> EvTable:
    """The table, silently (from the cache, or trained now)."""
    gen = prepare(rules, players, spec)
    while True:
        try:
            next(gen)
        except StopIteration as e:
            return e.value


def ev_tables(specs, rules, players: int, form: bool = False) -> np.ndarray | None:
    """The kernels' ev tables argument (``evt``) for the seats, or a tournament's entrants, ``specs`` at a table of
    ``players``: float64[len(specs), K.EV_LEN], row i the table of specs[i] when it is ev (zeros for the others);
    None when none is ev: the kernels are then compiled without ev's decisions (kernels/bourre/players.py
    ``decide``), seconds less on a cold first run and a test less per decision.  ``form``: the tables (all zeros)
    even when none is ev, the form of a study whose other runs have an ev seat (``EV_FORM``): the same deals."""
    if not study_ev_form(specs):
        return np.zeros((len(specs), K.EV_LEN), np.float64) if form else None
    out = np.zeros((len(specs), K.EV_LEN), np.float64)
    for i, s in enumerate(specs):
        if s.code == K.H_EV:
            out[i] = ev_table(rules, players, s).table
    return out


EV_FORM = "ev_form"
"""The run parameter of a run without an ev seat in a study with one (``study_ev_form``): its kernels take the ev
tables (zeros) as its other runs' do, so the study calls one compiled form of each kernel, not two (the form
without ev compiles tens of CPU seconds on a cold cache, and plays the same deals)."""


def study_ev_form(*seat_lists) -> bool:
    """Whether a study whose runs have these seats (lists of ``HeuristicSpec``) passes the kernels ev's tables in
    every run: when any seat of any run is ev.  A study without ev keeps the form without ev's decisions."""
    return any(s.code == K.H_EV for specs in seat_lists for s in specs)


def with_ev_form(params: dict, form: bool) -> dict:
    """A run's parameters in a study of the form ``form`` (``study_ev_form``): marked ``EV_FORM`` when the study
    passes ev's tables and none of this run's seats is ev (a run with an ev seat takes them anyway, and keeps the
    parameters, so the run id, it has alone)."""
    if form and not study_ev_form(SPEC.specs_from_json(params["heuristics"])):
        params = dict(params, **{EV_FORM: True})
    return params


def run_ev_tables(params) -> np.ndarray | None:
    """``ev_tables`` of a run's parameters: its seats' heuristics, rules and table size, and its study's form."""
    specs = SPEC.specs_from_json(params["heuristics"])
    return ev_tables(specs, SPEC.rules_of(params), params.get("players", len(specs)), bool(params.get(EV_FORM)))


def iteration_line(h: dict) -> str:
    ch = "" if h["changed"] != h["changed"] else f", {100 * h['changed']:.2f}% of decisions changed"
    return (f"ev table, iteration {h['iteration']} (players: {h['players']}): {h['decisions']:,} decisions, "
            f"play {100 * h['play_rate']:.1f}%{ch}; {h['samples']:,} samples, {h['classes']} classes with data "
            f"({h['seconds']:.1f} s)")


def prepare_lines(specs, rules, players: int) -> Iterator[str]:
    """The CLI's text while the ev tables of ``specs`` are computed or loaded (nothing without ev)."""
    seen = set()
    for s in specs:
        if s.code != K.H_EV or s.values in seen:
            continue
        seen.add(s.values)
        gen = prepare(rules, players, s)
        try:
            while True:
                yield iteration_line(next(gen))
        except StopIteration as e:
            t = e.value
        last = t.history[-1]
        state = (f"converged: {100 * last['changed']:.2f}% of decisions changed in the last iteration"
                 if t.converged else f"NOT converged after {last['iteration']} iterations "
                 f"({100 * last['changed']:.2f}% changed in the last)")
        how = (f"computed in {t.seconds:.1f} s" if t.source == "computed" else
               f"shipped with tricksim (computed in {t.seconds:.1f} s)" if t.source == "shipped"
               else f"loaded from the cache (computed in {t.seconds:.1f} s)")
        yield f"ev table ({players} players, {s.label}): {len(t.history) - 1} iterations, {state}; {how}: {t.path}"
