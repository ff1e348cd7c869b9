"""Benchmark: complete hands per second per game and heuristic, 1 thread and all threads.

Each game module provides ``bench_cases()`` -> list of ``(label, fn)`` where
``fn(first, n)`` plays hands ``first..first+n-1`` through the same batch kernel
the studies use and returns the number of hands played.
"""
from __future__ import annotations

import importlib
import time

import numba
import pandas as pd

GAME_MODULES = {"boulmous": "analysis.boulmous", "boomke-wies": "analysis.boomke_wies", "bourre": "analysis.bourre"}
DEFAULT_HANDS = {"boulmous": 4_000_000, "boomke-wies": 2_000_000, "bourre": 2_000_000}


def available_games():
    out = []
    for g, m in GAME_MODULES.items():
        try:
            mod = importlib.import_module(m)
        except ModuleNotFoundError:
            continue
        if hasattr(mod, "bench_cases"):
            out.append(g)
    return out


def time_case(fn, n, threads, repeats=3):
    """Best of ``repeats`` timings of ``fn(0, n)`` with ``threads`` numba threads (after a warm-up)."""
    old = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        fn(0, min(n, 20_000))  # compile / load from cache, warm up
        best = float("inf")
        for r in range(repeats):
            t0 = time.perf_counter()
            done = fn(r * n, n)
            best = min(best, time.perf_counter() - t0)
        return done / best
    finally:
        numba.set_num_threads(old)


def run(games=None, hands=None, seed=0, threads=None):
    games = games or available_games()
    allt = numba.config.NUMBA_NUM_THREADS
    tlist = threads or sorted({1, allt})
    rows = []
    for g in games:
        mod = importlib.import_module(GAME_MODULES[g])
        n = hands or DEFAULT_HANDS.get(g, 1_000_000)
        for label, fn in mod.bench_cases(seed):
            rates = {t: time_case(fn, n, t) for t in tlist}
            row = {"game": g, "case": label, "hands": n}
            for t in tlist:
                row[f"hands/s {t} thread{'s' if t > 1 else ''}"] = f"{rates[t]:,.0f}"
            if len(tlist) > 1:
                row["speed-up"] = f"{rates[tlist[-1]] / rates[tlist[0]]:.2f}x"
            rows.append(row)
    return pd.DataFrame(rows)
