"""Benchmark: complete hands per second per game and heuristic, 1 thread and all threads.

Each game's ``Game.bench_cases(seed)`` (analysis/game.py) gives a list of ``(label, fn)``
where ``fn(first, n)`` plays hands ``first..first+n-1`` through the same batch kernel
the studies use and returns the number of hands played.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numba
import pandas as pd

from . import engine
from .common import TricksimError, make_params
from .registry import GAMES, get, names


def available_games():
    """The games' CLI names, in registry order."""
    return names()


def time_case(fn, n, tlist, repeats=5):
    """Hands per second of ``fn`` for each thread count in ``tlist``: after a warm-up,
    ``repeats`` rounds, each timing every thread count in turn on the same hands (round r
    plays hands r*n..r*n+n-1).  Interleaving matters on a shared machine: a slow spell of
    the host then hits both sides of a speed-up alike instead of one of them.

    Returns ``(best, ratios)``: the best rate per thread count, and per round the rate of
    the last thread count over the first (the spread of the speed-up)."""
    old = numba.get_num_threads()
    try:
        for t in tlist:
            numba.set_num_threads(t)
            fn(0, min(n, 20_000))  # compile / load from cache, warm up
        best = {t: 0.0 for t in tlist}
        ratios = []
        for r in range(repeats):
            rate = {}
            for t in tlist:
                numba.set_num_threads(t)
                t0 = time.perf_counter()
                done = fn(r * n, n)
                rate[t] = done / (time.perf_counter() - t0)
                best[t] = max(best[t], rate[t])
            ratios.append(rate[tlist[-1]] / rate[tlist[0]])
        return best, ratios
    finally:
        numba.set_num_threads(old)


def run(games=None, hands=None, seed=0, threads=None, repeats=5):
    """One row per game and case: the best of ``repeats`` interleaved rounds per thread
    count, the speed-up of the best rates, and the range of the per-round speed-ups."""
    games = games or available_games()
    allt = numba.config.NUMBA_NUM_THREADS
    tlist = sorted(set(threads)) if threads else sorted({1, allt})
    for t in tlist:
        if not 1 <= t <= allt:
            raise TricksimError(f"--threads {t}: this machine runs 1 to {allt} threads")
    rows = []
    for name in games:
        g = get(name)
        n = hands or g.bench_hands
        for label, fn in g.bench_cases(seed):
            rates, ratios = time_case(fn, n, tlist, repeats)
            row = {"game": g.name, "case": label, "hands": n}
            for t in tlist:
                row[f"hands/s {t} thread{'s' if t > 1 else ''}"] = f"{rates[t]:,.0f}"
            if len(tlist) > 1:
                row["speed-up"] = f"{rates[tlist[-1]] / rates[tlist[0]]:.2f}x"
                row["per round"] = f"{min(ratios):.2f}-{max(ratios):.2f}x"
            rows.append(row)
    return pd.DataFrame(rows)


SOLVER_DEALS = 20_000   # whole deals per round of ``tricksim bench --solver``


def solver(hands=None, seed=0, threads=None, repeats=5):
    """Whole-deal open-hand solves per second (issue 12's bar: at least 4,000 per second per core, two threads
    at least 1.8x one), 1 thread and all threads, timed as ``run`` times the playing kernels (interleaved
    rounds, the best reported): ``Game``-independent cases from each game that has an open-hand solver, and
    each game's sampling player (issue 12's bar: at least 2 whole deals per second per core)."""
    allt = numba.config.NUMBA_NUM_THREADS
    tlist = sorted(set(threads)) if threads else sorted({1, allt})
    for t in tlist:
        if not 1 <= t <= allt:
            raise TricksimError(f"--threads {t}: this machine runs 1 to {allt} threads")
    n = hands or SOLVER_DEALS
    rows = []
    for g in GAMES:
        if g.solver_bench is None:
            continue
        for label, fn in g.solver_bench(seed):
            game = g.title
            rates, ratios = time_case(fn, n, tlist, repeats)
            row = {"game": game, "case": label, "deals": n}
            for t in tlist:
                row[f"deals/s {t} thread{'s' if t > 1 else ''}"] = f"{rates[t]:,.0f}"
            if len(tlist) > 1:
                row["speed-up"] = f"{rates[tlist[-1]] / rates[tlist[0]]:.2f}x"
                row["per round"] = f"{min(ratios):.2f}-{max(ratios):.2f}x"
            rows.append(row)
    return pd.DataFrame(rows)


def engine_overhead(hands: int = 10_000_000, seed: int = 0, out=None):
    """Wall time of a Boulmous run through the engine (blocks persisted to a run folder)
    against one bare kernel call over the same hands; both on all local threads."""

    g = get("boulmous")
    block = g.blocks["boulmous.deals"]
    params = make_params(seed, g.rules(), g.parse_seats("default"))
    block(params, 0, 10_000)  # load / compile
    t_bare = t_eng = float("inf")
    with tempfile.TemporaryDirectory() as tmp:
        for rep in range(3):  # interleaved, best of three: the machine is shared
            t0 = time.perf_counter()
            bare = block(params, 0, hands)
            t_bare = min(t_bare, time.perf_counter() - t0)
            run = engine.Run("boulmous.deals", params, hands, 1 << 22)
            t0 = time.perf_counter()
            res = engine.execute(run, Path(out or tmp) / "run", progress=False, force=True, resume=False)
            t_eng = min(t_eng, time.perf_counter() - t0)
    assert (res.counts == bare).all()
    return pd.DataFrame([{"hands": hands, "bare kernel s": round(t_bare, 3), "engine s": round(t_eng, 3),
                          "overhead": f"{100 * (t_eng / t_bare - 1):.1f}%",
                          "hands/s engine": f"{hands / t_eng:,.0f}"}])


def dask_throughput(hands: int = 20_000_000, seed: int = 0, workers: int = 2):
    """Hands per second of the same run on the local backend and on a Dask LocalCluster
    (loopback, ``workers`` single-threaded worker processes)."""
    from dask.distributed import Client, LocalCluster

    g = get("boulmous")
    block = g.blocks["boulmous.deals"]
    params = make_params(seed, g.rules(), g.parse_seats("default"))
    run = engine.Run("boulmous.deals", params, hands, 1 << 22)
    block(params, 0, 10_000)
    t0 = time.perf_counter()
    local = engine.execute(run, None, progress=False)
    t_local = time.perf_counter() - t0
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster, Client(cluster) as client:
        client.run(lambda: block(params, 0, 10_000))  # warm the workers (cache load)
        t0 = time.perf_counter()
        remote = engine.execute(run, None, progress=False, scheduler=cluster.scheduler_address)
        t_dask = time.perf_counter() - t0
    assert (remote.counts == local.counts).all()
    return pd.DataFrame([{"hands": hands, "local s": round(t_local, 2), "dask s": round(t_dask, 2),
                          "local hands/s": f"{hands / t_local:,.0f}", "dask hands/s": f"{hands / t_dask:,.0f}",
                          "dask / local": f"{t_local / t_dask:.0%}"}])


# ---- compile time: what a first run costs -----------------------------------------------------------------------

_COMPILE_CHILD = r"""
import json, sys, tempfile, time
from pathlib import Path
from numba.core.dispatcher import Dispatcher
times = {}
_orig = Dispatcher._compile_for_args
def _timed(self, *args, **kws):  # a top-level entry point's first call: compile, or load from the cache
    t0 = time.perf_counter()
    try:
        return _orig(self, *args, **kws)
    finally:
        name = self.py_func.__module__.rsplit(".", 1)[-1] + "." + self.py_func.__name__
        times[name] = times.get(name, 0.0) + time.perf_counter() - t0
Dispatcher._compile_for_args = _timed
t0 = time.perf_counter()
from tricksim.analysis.studies import headline_step
with tempfile.TemporaryDirectory() as tmp:
    headline_step(sys.argv[1], Path(tmp), quick=True)
sys.stdout.write(json.dumps({"wall": time.perf_counter() - t0, "entry": times}) + "\n")
"""


def compile_times(games=None) -> pd.DataFrame:
    """Seconds per kernel entry point on a first run, cold (an empty Numba cache) and cached.

    Each game's quick headline study runs twice in a fresh process with its own cache folder: the
    first run compiles every entry point it uses, the second loads them from the cache.  An entry
    point's time is the time of its first call (compilation or cache load: Numba compiles on first
    use); "study s" is the whole quick study (imports, compilation, simulation, tables, plots)."""

    games = games or available_games() + ["compare"]
    rows = []
    for g in games:
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, NUMBA_CACHE_DIR=cache)
            res = []
            for _ in range(2):
                p = subprocess.run([sys.executable, "-c", _COMPILE_CHILD, g], env=env, capture_output=True,
                                   text=True)
                if p.returncode != 0:
                    raise TricksimError(f"compile timing of {g} failed: {p.stderr.strip().splitlines()[-1]}")
                res.append(json.loads(p.stdout.strip().splitlines()[-1]))
        cold, warm = res
        for name in sorted(cold["entry"], key=lambda k: -cold["entry"][k]):
            rows.append({"study": g, "entry point": name, "cold s": round(cold["entry"][name], 2),
                         "cached s": round(warm["entry"].get(name, float("nan")), 2)})
        rows.append({"study": g, "entry point": "(whole quick study)", "cold s": round(cold["wall"], 1),
                     "cached s": round(warm["wall"], 1)})
    return pd.DataFrame(rows)
