"""The page's runs in the background: one worker thread runs the commands one after the other (the kernels use
every core, so two at once would only share them), while the server keeps answering other pages.

A job is one command line (``odds ...`` or ``pot ...``) with its run folder.  Its progress (units done of the
total, for each engine run of the command) comes from the engine's progress hook (``progress.WATCH``); ``cancel``
stops it after the block in progress (``progress.Cancelled``), the finished blocks staying in the run folder, so
the same page asked again resumes there as the CLI does.  Jobs are kept by their key (the command line), so a
reload of a page finds its job.
"""
from __future__ import annotations

import hashlib
import json
import queue
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..common import TricksimError
from ..output import capture_tables
from ..progress import WATCH, Cancelled

RUN_LOCK = threading.Lock()
"""One command at a time in the process (every server of it): the kernels already use every core."""

KEEP = 200
"""Finished jobs kept in memory (the oldest are forgotten; their run folders stay)."""


def job_key(argv) -> str:
    """The job of a command line: the same line is the same job (and the same run folder)."""
    return hashlib.sha256(json.dumps(list(argv)).encode()).hexdigest()[:20]


@dataclass
class Job:
    key: str
    argv: list
    """The command line, without ``tricksim`` and the page's own ``--out``/``--quiet``."""
    out: Path
    """Its run folder."""
    status: str = "waiting"
    """waiting, running, done, failed (a user error: ``error`` is the CLI's line) or cancelled."""
    study: str = ""
    unit: str = "hands"
    done: int = 0
    total: int = 0
    runs: int = 0
    """Engine runs started so far (a command may make several: --play, --tail)."""
    lines: list = field(default_factory=list)
    tables: list = field(default_factory=list)
    error: str = ""
    seconds: float = 0.0
    started: float = 0.0
    cancel_asked: threading.Event = field(default_factory=threading.Event)
    finished: threading.Event = field(default_factory=threading.Event)

    # the engine's progress hook (progress.WATCH), called in the worker thread
    def start(self, study, unit, done, total):
        if self.cancel_asked.is_set():
            raise Cancelled("cancelled")
        self.study, self.unit, self.done, self.total = study, unit, done, total
        self.runs += 1

    def update(self, n):
        self.done += n
        if self.cancel_asked.is_set():
            raise Cancelled("cancelled")

    @property
    def over(self) -> bool:
        return self.status in ("done", "failed", "cancelled")

    def progress(self) -> dict:
        """What the page's progress box shows (the polling endpoint's JSON)."""
        elapsed = (self.seconds if self.over else time.perf_counter() - self.started) if self.started else 0.0
        return {"key": self.key, "status": self.status, "study": self.study, "unit": self.unit, "done": self.done,
                "total": self.total, "runs": self.runs, "seconds": round(elapsed, 1), "error": self.error,
                "cancel_asked": self.cancel_asked.is_set()}


class Jobs:
    """The jobs of one server and the worker thread that runs them, in the order they were asked."""

    def __init__(self, command: Callable, runs: Path):
        self.command = command
        """``command(argv) -> lines`` (cli.page_command): the CLI's command run in this process."""
        self.runs = Path(runs)
        self.jobs: dict[str, Job] = {}
        self.lock = threading.Lock()
        self.todo: queue.Queue = queue.Queue()
        self.worker = threading.Thread(target=self._work, name="tricksim-runs", daemon=True)
        self.worker.start()

    def submit(self, argv, prefix: str, again: bool = False) -> Job:
        """The job of ``argv`` (a new one if there is none, or if ``again`` and the last one was cancelled or
        failed: it resumes the finished blocks)."""
        key = job_key(argv)
        with self.lock:
            job = self.jobs.get(key)
            if job is not None and not (again and job.status in ("cancelled", "failed")):
                return job
            job = Job(key=key, argv=list(argv), out=self.runs / f"{prefix}-{key}")
            self.jobs[key] = job
            self._forget_old()
        self.todo.put(job)
        return job

    def get(self, key: str) -> Job | None:
        with self.lock:
            return self.jobs.get(key)

    def cancel(self, key: str) -> Job | None:
        job = self.get(key)
        if job is not None and not job.over:
            job.cancel_asked.set()
        return job

    def _forget_old(self):
        over = [k for k, j in self.jobs.items() if j.over]
        for k in over[:max(0, len(self.jobs) - KEEP)]:
            del self.jobs[k]

    def _work(self):
        while True:
            job = self.todo.get()
            self._run(job)

    def _run(self, job: Job):
        job.started = time.perf_counter()
        if job.cancel_asked.is_set():
            job.status = "cancelled"
        else:
            job.status = "running"
            token = WATCH.set(job)
            try:
                with RUN_LOCK, capture_tables() as tables:
                    job.lines = self.command(job.argv + ["--out", str(job.out), "--quiet"])
                job.tables = tables
                job.status = "done"
            except Cancelled:
                job.status = "cancelled"
            except TricksimError as e:
                job.status, job.error = "failed", str(e).replace("\n", " ")
            except Exception as e:      # a bug: one line on the page, the server keeps serving
                job.status, job.error = "failed", f"internal error: {type(e).__name__}: {e}"
            finally:
                WATCH.reset(token)
        job.seconds = time.perf_counter() - job.started
        job.finished.set()
