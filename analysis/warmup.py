"""``tricksim warmup``: compile every command's kernels ahead of use (issue 25 item 2), and measure what that costs.

Numba compiles a kernel on its first call, on one core, and keeps the machine code in its on-disk cache.  Each
game lists in its record (``Game.warmup``) the command lines, with tiny sizes, that call every batch kernel it has
(its odds, classes, tournaments, whole games, traces, the sampling player, the solver, the pot and its tail, the
equity kernels); warmup runs them in ``jobs`` processes side by side (Numba compiles on one core per process),
longest first, under a progress bar, and says what each cost in CPU seconds.  Run on an empty cache, the same
table is the cold compile cost of every entry point (``tricksim bench --compile``).  The runs write into a
temporary folder (their run folders and outputs are thrown away); the tables the commands load (Bourre's ``ev``,
the equity tables) come from the package's shipped data or the user's cache, as in any run.

A Dask worker can run it as a preload: ``dask worker ... --preload tricksim.analysis.warmup`` (``dask_setup``).
"""
from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

import numba
import pandas as pd

from . import compiling
from .common import TricksimError
from .progress import stderr_console
from .registry import GAMES

# the child: the CLI's own entry point, with a listener that times each outermost compilation (CPU seconds)
_CHILD = r"""
import json, os, sys, time
from numba.core import event as ev
from tricksim.analysis import compiling
times = {}
class Timer(ev.Listener):
    depth = 0
    def on_start(self, e):
        if self.depth == 0:
            self.t0, self.name = time.process_time(), compiling.entry_name(e.data["dispatcher"])
        self.depth += 1
    def on_end(self, e):
        self.depth -= 1
        if self.depth == 0:
            times[self.name] = times.get(self.name, 0.0) + time.process_time() - self.t0
ev.register("numba:compile", Timer())
from tricksim.cli import main
rc = 0
try:
    main(sys.argv[1:])
except SystemExit as e:
    rc = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
with open(os.environ["TRICKSIM_WARMUP_OUT"], "w") as f:
    json.dump({"rc": rc, "compiled": times}, f)
from tricksim.analysis.common import exit_now
exit_now(rc)
"""


# CPU seconds of each warm-up command on an empty cache, two processes side by side (2026-11-26, fresh clone, load
# 1.3-4.5: `bash scripts/report.sh`'s warm-up): the order of the runs, longest first, so that the two processes end
# together instead of one compiling the slowest kernels alone at the end.  A command not listed counts 20 s.
MEASURED = {
    "odds bourre --hand 'AH KH 7C 4D 2S' --up-card 9H --play heuristic,pimc,open --hands 4": 212,
    'compare bourre ev:train_sessions=200,train_deals=20 basic --hands 4 --players 4': 186,
    'trace bourre --players 4 --deals 1 -H pimc': 99,
    "odds bourre --hand 'AH KH 7C 4D 2S' --up-card 9H --hands 200": 61,
    'compare boulmous cautious pimc --hands 4': 46,
    'trace boulmous --hands 1 -H pimc': 44,
    'equity boulmous --scores 18,17,9,3 --deals 30000 --check 1 --check-games 10': 44,
    "odds boulmous --hand 'JH JD AH KH 9S TC' --exact --trump NT --hands 200": 34,
    "odds boulmous --hand 'JH JD AH KH 9S TC' --scores 18,17,9,3 --hands 200": 33,
    "odds boulmous --hand 'JH JD AH KH 9S TC' --play heuristic,pimc,open --hands 8": 30,
    'pot --players 4 --sessions 200 --deals 10 --tail --tail-levels 10 --tail-roots 100': 26,
    'compare bourre basic pimc --hands 4 --players 4': 25,
    "odds boulmous --hand 'JH JD AH KH 9S TC' --hands 200": 23,
    'odds boulmous --play heuristic,pimc,open --hands 8': 23,
    'compare boulmous cautious cautious:score_aware=1 --games 4 --rule target=11': 21,
    "odds boomke-wies --hand 'AS KS QS JS TS 9S 8S AH KH QH AD KD AC' --hands 200": 20,
    'stakes boulmous --games 20': 19,
    'bench --solver --hands 4 --repeats 1 --threads 1': 17,
    'pot --players 4 --sessions 20 --deals 10': 16,
    'odds boulmous --hands 2000': 14,
    'odds boomke-wies --hands 2000': 14,
    'equity boomke-wies --scores 7,4 --deals-left 4 --deals 30000 --check 1 --check-games 10': 14,
    'compare bourre basic tight --hands 200': 14,
    'compare boulmous cautious aggressive --hands 400': 13,
    'compare boulmous cautious aggressive --games 20': 13,
    'compare boomke-wies partner naive --hands 200': 11,
    'stakes boomke-wies --games 10': 10,
    'trace bourre --players 4 --deals 2': 6,
    'trace boomke-wies --hands 2': 4,
    'trace boulmous --hands 2': 3,
}


@dataclass
class Task:
    game: str
    argv: tuple
    cpu: float = 0.0
    wall: float = 0.0
    compiled: dict = field(default_factory=dict)
    error: str = ""

    @property
    def label(self) -> str:
        return "tricksim " + " ".join(shlex.quote(a) for a in self.argv)


def tasks(games) -> list[Task]:
    """The warm-up command lines of ``games`` (``Game`` records)."""
    return [Task(g.name, tuple(argv)) for g in games for argv in g.warmup]


def _run(task: Task, env: dict, root: str) -> Task:
    cwd = tempfile.mkdtemp(prefix="run-", dir=root)   # its own folder: two runs of one study never share a run folder
    fd, out = tempfile.mkstemp(prefix="warmup-", suffix=".json", dir=cwd)
    os.close(fd)
    t0 = time.perf_counter()
    p = subprocess.Popen([sys.executable, "-c", _CHILD, *task.argv], cwd=cwd, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, env=dict(env, TRICKSIM_WARMUP_OUT=out))
    err = p.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    task.wall = time.perf_counter() - t0
    task.cpu = usage.ru_utime + usage.ru_stime
    try:
        res = json.loads(Path(out).read_text())
        task.compiled = res["compiled"]
    except (OSError, ValueError, KeyError):
        res = {"rc": p.returncode}
    if p.returncode or res.get("rc"):
        lines = [ln for ln in err.strip().splitlines() if ln.strip()]
        task.error = lines[-1] if lines else f"exit code {p.returncode}"
    return task


def run(games, jobs: int | None = None, progress: bool = True, cache_dir: str | None = None) -> list[Task]:
    """Run the warm-up commands of ``games`` in ``jobs`` processes (default: the cores), longest first; with
    ``cache_dir`` Numba's cache goes there (``bench --compile``: an empty one, to measure a cold start)."""
    todo = tasks(games)
    if not todo:
        raise TricksimError("nothing to warm up")
    jobs = max(1, int(jobs or os.cpu_count() or 1))
    env = dict(os.environ, NUMBA_NUM_THREADS="1")   # the runs are tiny: no thread pool to wake (compilation is
    if cache_dir is not None:                        # the same for any thread count)
        env["NUMBA_CACHE_DIR"] = str(cache_dir)
    # longest first (what the last warm-up measured, when known), so that two processes finish together
    todo.sort(key=lambda t: -MEASURED.get(t.label.removeprefix("tricksim "), compiling.DEFAULT_SECONDS))
    bar = _bar(progress, len(todo))
    with tempfile.TemporaryDirectory(prefix="tricksim-warmup-") as cwd, ThreadPoolExecutor(jobs) as pool:
        env["TRICKSIM_CACHE"] = os.path.join(cwd, "tables")   # tiny tables trained here stay out of the user cache
        futs = [pool.submit(_run, t, env, cwd) for t in todo]
        for f in as_completed(futs):
            t = f.result()
            if bar is not None:
                bar.advance(t)
    if bar is not None:
        bar.close()
    return todo


class _bar:
    def __init__(self, enabled, total):
        self.p = None
        self.total, self.done, self.t0 = total, 0, time.perf_counter()
        if not enabled:
            return
        if not sys.stderr.isatty():
            sys.stderr.write(f"tricksim warmup: {total} commands\n")
            return
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
        self.p = Progress(TextColumn("[bold]warming up[/bold] {task.description}"), BarColumn(), MofNCompleteColumn(),
                          TimeElapsedColumn(), transient=True, console=stderr_console())
        self.p.start()
        self.task = self.p.add_task("", total=total)

    def advance(self, t: Task):
        self.done += 1
        line = f"  {'FAILED ' if t.error else ''}{t.label}: {t.cpu:.0f} CPU s"
        if self.p is not None:
            self.p.update(self.task, advance=1, description=t.game)
            self.p.console.print(line, highlight=False)
        else:
            sys.stderr.write(line + "\n")

    def close(self):
        if self.p is not None:
            self.p.stop()


def summary(done: list[Task], wall: float) -> list[str]:
    """The lines ``tricksim warmup`` prints after the runs: failures, the total, what is still cold."""
    out = []
    for t in done:
        if t.error:
            out.append(f"failed: {t.label}: {t.error}")
    cpu = sum(t.cpu for t in done)
    comp = sum(sum(t.compiled.values()) for t in done)
    out.append(f"warmup: {len(done)} commands in {wall:.0f} s wall, {cpu:.0f} CPU s of which compiling {comp:.0f} s")
    return out


def entry_table(done: list[Task]):
    """One row per entry point compiled: the CPU seconds of its compilation, and the command that compiled it
    (an entry point compiled by two commands at once, in two processes, counts in both)."""
    rows = []
    for t in done:
        for name, s in t.compiled.items():
            rows.append({"game": compiling.game_of(name), "entry point": name, "cold CPU s": round(s, 1),
                         "compiled by": t.label})
    if not rows:
        return pd.DataFrame(columns=["game", "entry point", "cold CPU s", "compiled by"])
    return pd.DataFrame(rows).sort_values(["game", "cold CPU s"], ascending=[True, False]).reset_index(drop=True)


def check_lines() -> tuple[bool, list[str]]:
    """(warm, lines): whether every entry point is compiled for this machine in the cache, and the lines that say
    which are not and why."""
    state = compiling.check()
    cold = {k: v for k, v in state.items() if v != "warm"}
    if not cold:
        return True, [f"warm: all {len(state)} kernel entry points are compiled for this machine "
                      f"(numba {numba.__version__})"]
    lines = [f"cold: {len(cold)} of {len(state)} kernel entry points will compile on first use "
             f"(`tricksim warmup` compiles them now):"]
    by_reason = {}
    for name, why in cold.items():
        by_reason.setdefault(why, []).append(name)
    for why, names in by_reason.items():
        lines.append(f"  {len(names)} {compiling.REASONS[why]}: {', '.join(names)}")
    return False, lines


def dask_setup(worker=None):
    """Dask's preload hook (``--preload tricksim.analysis.warmup``): warm the worker's machine before it takes work."""
    run(GAMES, jobs=1, progress=False)
