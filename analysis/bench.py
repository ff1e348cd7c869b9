"""Benchmark: complete hands per second per game and heuristic, 1 thread and all threads.

Each game's ``Game.bench_cases(seed)`` (analysis/game.py) gives a list of ``(label, fn)``
where ``fn(first, n)`` plays hands ``first..first+n-1`` through the same batch kernel
the studies use and returns the number of hands played.
"""
from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

import numba
import pandas as pd

from . import engine, warmup
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

def compile_times(games=None, jobs: int = 1) -> pd.DataFrame:
    """CPU seconds of every warm-up command (``Game.warmup``: together they call every batch kernel), on an empty
    Numba cache (cold: each compiles what the commands before it have not) and again on the cache it filled
    (cached: loading and the tiny runs), with the entry points each compiled and their compile CPU seconds.
    ``jobs`` processes side by side (1: each compile's CPU seconds undisturbed by another's)."""

    chosen = [get(g) for g in games] if games else list(GAMES)
    rows = []
    with tempfile.TemporaryDirectory(prefix="tricksim-nbcache-") as cache:
        cold = warmup.run(chosen, jobs=jobs, progress=True, cache_dir=cache)
        warm = {t.label: t for t in warmup.run(chosen, jobs=jobs, progress=True, cache_dir=cache)}
    for t in cold:
        rows.append({"game": t.game, "command": t.label.removeprefix("tricksim "), "cold CPU s": round(t.cpu, 1),
                     "cached CPU s": round(warm[t.label].cpu, 1),
                     "compiled (CPU s)": f"FAILED: {t.error}" if t.error else ", ".join(f"{k} {v:.1f}" for k, v in
                                                   sorted(t.compiled.items(), key=lambda kv: -kv[1]))})
    rows.append({"game": "all", "command": f"(total, {jobs} job{'s' if jobs > 1 else ''})",
                 "cold CPU s": round(sum(t.cpu for t in cold), 1),
                 "cached CPU s": round(sum(t.cpu for t in warm.values()), 1), "compiled (CPU s)": ""})
    return pd.DataFrame(rows)
