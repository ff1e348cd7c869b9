"""The one run engine: fixed blocks of hand indices, reduced in block order.

A run is ``(study, params, block_size)``; its blocks are the index ranges
``[b*block_size, (b+1)*block_size)``.  A block's result is an int64 vector of
exact counts computed by a registered *block function* ``f(params, first, n)``,
a pure function of its arguments (every hand's randomness depends only on the
seed and the hand index), so thread count, block order, backend and machine
cannot change a result.  Each finished block is written atomically to
``OUT/blocks/`` as Parquet with its run id and checksum; re-running the same
command into the same folder (or ``--resume``) reuses every valid block and
redoes missing, corrupted or foreign ones.  The same block function is what a
Dask worker runs.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import shlex
import sys
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

import numba
import numpy as np

from .common import TricksimError
from .progress import Progress
from .runfolder import (CODE_HASH, FORMAT, _keep_other_length, _old_manifest, _prepare_out, _tables_units,
                        _write_manifest, block_file, read_block, write_block)

CURRENT_COMMAND = ""


def set_command(argv) -> None:
    """Record the command line that started the runs (for manifests and reports)."""
    global CURRENT_COMMAND
    CURRENT_COMMAND = "tricksim " + " ".join(shlex.quote(a) for a in argv)


BLOCKS: dict[str, Callable] = {}
"""The block functions of the games, by study name (``<game key>.<name>``): each game's ``Game`` record
registers its ``blocks`` here when it is built (analysis/game.py), so the engine never imports a game."""

HAND_ROWS: dict[str, Callable] = {}
"""The per-hand rows of a study's blocks (``--keep-hands``), registered likewise (``Game.hand_rows``)."""

BLOCK_FUNCS: dict[str, Callable] = {}
"""Block functions registered here take precedence over the games' (tests replace one this way)."""


def register(blocks, hand_rows=None) -> None:
    """Register a game's block functions (study name -> ``f(params, first, n)``) and per-hand rows."""
    BLOCKS.update(blocks)
    HAND_ROWS.update(hand_rows or {})


def find_block(study: str) -> Callable:
    """The block function of ``study``: one put in ``BLOCK_FUNCS``, else the one its game registered."""
    fn = BLOCK_FUNCS.get(study) or BLOCKS.get(study)
    if fn is None:
        raise TricksimError(f"unknown study {study!r}")
    return fn


def run_block(block, params_json: str, first: int, n: int) -> np.ndarray:
    """Entry point of a worker: run one block of a study (its name, or its block function itself: what a
    Dask worker is sent, pickled by reference, so that unpickling it imports the game that defines it)."""
    fn = block if callable(block) else find_block(block)
    return np.asarray(fn(json.loads(params_json), first, n), dtype=np.int64)


@dataclass
class Run:
    study: str
    params: dict
    total: int
    block_size: int
    unit: str = "hands"
    keep_hands: bool = False
    command: str = field(default_factory=lambda: CURRENT_COMMAND or " ".join(["tricksim"] + sys.argv[1:]))

    @property
    def params_json(self) -> str:
        return json.dumps(self.params, sort_keys=True, separators=(",", ":"))

    @property
    def run_id(self) -> str:
        key = json.dumps([FORMAT, CODE_HASH, self.study, self.params, self.block_size], sort_keys=True)
        return hashlib.sha256(key.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class RunOptions:
    """How a study's runs execute: none of it changes a result.  A study takes one (``opts``) in
    place of these six keyword arguments and hands it to ``execute``."""

    out: Path | None = None
    """The run folder (blocks, manifest); None: nothing is persisted."""
    threads: int | None = None
    """Local threads (None: all cores)."""
    scheduler: str | None = None
    """A Dask scheduler address (or Client): the blocks run there."""
    progress: bool = False
    """A progress bar (a terminal) or one line per run (a log) on stderr."""
    force: bool = False
    """Replace a run folder holding a different run (or the tables of a larger one)."""
    resume: bool = True
    """Reuse the finished blocks of the same run in the folder."""

    def at(self, out) -> "RunOptions":
        """The same options with another run folder (None: nothing persisted)."""
        return dataclasses.replace(self, out=None if out is None else Path(out))

    def sub(self, name: str) -> "RunOptions":
        """The same options with a sub-folder of this run folder (none if there is none)."""
        return self.at(None if self.out is None else Path(self.out) / name)

    def execute(self, run: "Run", stop=None, min_blocks: int = 1) -> "Result":
        """``execute(run)`` with these options."""
        return execute(run, self.out, threads=self.threads, scheduler=self.scheduler, progress=self.progress,
                       stop=stop, force=self.force, resume=self.resume, min_blocks=min_blocks)


@dataclass
class Result:
    counts: np.ndarray
    n: int                 # units aggregated
    blocks: int
    reused: int
    seconds: float
    out: Path | None
    stopped_early: bool = False

    @property
    def rate(self) -> float:
        return self.n / self.seconds if self.seconds > 0 else float("nan")


def execute(run: Run, out: Path | None = None, threads: int | None = None, scheduler: str | None = None,
            progress: bool = True, stop: Callable[[np.ndarray, int], bool] | None = None,
            force: bool = False, resume: bool = True, min_blocks: int = 1) -> Result:
    """Run (or resume) every block of ``run`` and return the block-ordered reduction.

    ``stop(counts, n)`` is asked after each contiguous prefix of blocks (in block
    order, so the answer is reproducible); True ends the run early."""
    if run.total <= 0:
        raise TricksimError(f"--{run.unit} must be at least 1, got {run.total}")
    if threads is not None and threads < 1:
        raise TricksimError(f"--threads must be at least 1, got {threads}")
    old = _old_manifest(Path(out)) if out is not None else None
    out = _prepare_out(run, out, force, resume)
    nblocks = (run.total + run.block_size - 1) // run.block_size
    spans = [(b, b * run.block_size, min(run.block_size, run.total - b * run.block_size)) for b in range(nblocks)]
    started = datetime.now(timezone.utc).isoformat(timespec="seconds")
    results: dict[int, np.ndarray] = {}
    reused = 0
    # the manifest tells the truth at every moment: blocks_done after each block, status at the end
    # (complete, stopped_at_precision, interrupted or failed); tables_units remembers the size of the
    # last finished run of this folder, whose tables it holds
    man = {"started": started, "status": "running", "blocks_done": 0, "blocks_total": nblocks,
           "tables_units": _tables_units(old) if old and old.get("run_id") == run.run_id else 0}
    if out is not None:
        if run.keep_hands:
            keep = {block_file(run, b, n) for b, _, n in spans}
            for f in (out / "hands").glob("b*.parquet") if (out / "hands").exists() else []:
                if f.name not in keep:   # rows of a run of another length: not this run's hands
                    f.unlink()
        for b, first, n in spans:
            p = out / "blocks" / block_file(run, b, n)
            if p.exists() and (not run.keep_hands or (out / "hands" / block_file(run, b, n)).exists()):
                v = read_block(p, run.run_id, b, first, n)
                if v is not None:
                    results[b] = v
                    reused += 1
                else:
                    _keep_other_length(run, p, b, first)
        man["blocks_done"] = len(results)
        _write_manifest(out, run, man)

    state = {"prefix": 0, "acc": None, "n": 0, "stopped": False}

    def advance():
        if out is not None and man["blocks_done"] != len(results):
            man["blocks_done"] = len(results)
            _write_manifest(out, run, man)
        # fold finished blocks into the running sum in block order, then drop them:
        # memory stays bounded by the blocks that finished out of order
        while state["prefix"] < nblocks and state["prefix"] in results:
            b = state["prefix"]
            v = results[b]
            results[b] = None
            state["acc"] = v.copy() if state["acc"] is None else state["acc"] + v
            state["n"] += spans[b][2]
            state["prefix"] += 1
            if stop is not None and state["prefix"] >= min_blocks and stop(state["acc"], state["n"]):
                # stopped early only if units asked for are left: one that played them all is complete
                state["stopped"] = state["prefix"] < nblocks
                return

    t0 = time.perf_counter()
    try:
        advance()
        todo = [s for s in spans if s[0] not in results]
        pbar = Progress(progress, run, sum(s[2] for s in spans if s[0] in results), run.total)
        try:
            if not state["stopped"] and todo:
                if scheduler:
                    _run_dask(run, todo, results, out, scheduler, pbar, advance, state)
                else:
                    _run_local(run, todo, results, out, threads, pbar, advance, state)
        finally:
            pbar.close()
    except BaseException as e:
        if out is not None:
            man.update(status="interrupted" if isinstance(e, KeyboardInterrupt) else "failed",
                       ended=datetime.now(timezone.utc).isoformat(timespec="seconds"), blocks_done=len(results),
                       units_aggregated=state["n"], seconds=round(time.perf_counter() - t0, 3))
            if not isinstance(e, KeyboardInterrupt):
                man["error"] = f"{type(e).__name__}: {e}"
            try:
                _write_manifest(out, run, man)
            except Exception:
                pass
        raise
    secs = time.perf_counter() - t0
    if state["acc"] is None:
        raise TricksimError("no block finished")
    if out is not None:
        man.update(ended=datetime.now(timezone.utc).isoformat(timespec="seconds"),
                   status="stopped_at_precision" if state["stopped"] else "complete",
                   blocks_done=len(results), units_aggregated=state["n"], tables_units=state["n"],
                   seconds=round(secs, 3), threads=threads, scheduler=scheduler)
        _write_manifest(out, run, man)
    return Result(state["acc"], state["n"], state["prefix"], reused, secs, out, state["stopped"])


def _store(run, out, b, first, n, v, results):
    if out is not None:
        if run.keep_hands:
            _write_hands(run, out, b, first, n)
        write_block(out / "blocks" / block_file(run, b, n), run.run_id, b, first, n, v)
    results[b] = v


def _write_hands(run, out, b, first, n):
    rows = HAND_ROWS.get(run.study)
    if rows is None:
        raise TricksimError(f"--keep-hands is not available for {run.study}")
    df = rows(run.params, first, n)
    d = out / "hands"
    d.mkdir(exist_ok=True)
    name = block_file(run, b, n)
    tmp = d / (name + ".tmp")
    df.to_parquet(tmp, index=False)
    os.replace(tmp, d / name)


def _run_local(run, todo, results, out, threads, pbar, advance, state):

    old = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    try:
        pj = run.params_json
        fn = find_block(run.study)
        for b, first, n in todo:
            v = run_block(fn, pj, first, n)
            _store(run, out, b, first, n, v, results)
            pbar.update(n)
            advance()
            if state["stopped"]:
                return
    finally:
        numba.set_num_threads(old)


def _run_dask(run, todo, results, out, scheduler, pbar, advance, state):
    try:
        from dask.distributed import Client, as_completed
    except ImportError:
        raise TricksimError("--scheduler needs the dask extra: pip install 'tricksim[dask]'") from None
    client = scheduler if not isinstance(scheduler, str) else None
    own = client is None
    if own:
        try:
            client = Client(scheduler, timeout="20s")
        except Exception as e:
            raise TricksimError(f"cannot reach the Dask scheduler {scheduler}: {e}") from None
    try:
        nworkers = max(1, len(client.scheduler_info().get("workers", {})))
        window = 2 * nworkers
        pj = run.params_json
        fn = find_block(run.study)
        it = iter(todo)
        futs = {}
        ac = as_completed()
        for s in [x for _, x in zip(range(window), it)]:
            f = client.submit(run_block, fn, pj, s[1], s[2], pure=False)
            futs[f] = s
            ac.add(f)
        for f in ac:
            b, first, n = futs.pop(f)
            v = f.result()
            _store(run, out, b, first, n, v, results)
            pbar.update(n)
            advance()
            if state["stopped"]:
                for g in futs:
                    g.cancel()
                return
            nxt = next(it, None)
            if nxt is not None:
                g = client.submit(run_block, fn, pj, nxt[1], nxt[2], pure=False)
                futs[g] = nxt
                ac.add(g)
    finally:
        if own:
            client.close()
