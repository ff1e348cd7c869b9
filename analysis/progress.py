"""Progress of a run on stderr (analysis/engine.py): a rich bar on a terminal, one plain line elsewhere."""
from __future__ import annotations

import sys
import time
from contextvars import ContextVar

from . import compiling

WATCH: ContextVar = ContextVar("tricksim_watch", default=None)
"""An observer of the runs of this thread (the web page's job, analysis/web/jobs.py): ``start(study, unit, done,
total)`` when a run starts, ``update(n)`` after each finished block, which may raise ``Cancelled`` to stop the run
there (its finished blocks are kept in the run folder, the manifest says ``interrupted``)."""


class Cancelled(KeyboardInterrupt):
    """A run stopped at the user's request (the page's Cancel): handled like Ctrl-C, finished blocks kept."""


class Progress:
    """Progress of a run on stderr: a rich bar (units done, units per second, time left) on a terminal;
    elsewhere (a log file, CI) no bar, and one plain line when the run ends."""

    def __init__(self, enabled, run, done, total):
        self.p = None
        self.plain = None
        self.t0 = time.perf_counter()
        self.new = 0
        self.watch = WATCH.get()
        if self.watch is not None:
            self.watch.start(run.study, run.unit, done, total)
        if not enabled:
            return
        if not sys.stderr.isatty():
            self.plain = (f"{run.study} {run.unit}", done, total)
            return
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
        self.p = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                          TextColumn("{task.fields[rate]}"), TimeRemainingColumn(), transient=True,
                          console=stderr_console())
        self.p.start()
        self.what = f"{run.study} {run.unit}"
        self.task = self.p.add_task(self.what, total=total, completed=done, rate="")
        compiling._PROGRESS.append(self)   # a kernel compiling on first use says so in this bar

    def compiling(self, text, line=None):
        """Show ``text`` (a kernel compiling) as the bar's description; None: back to the run's, and print
        ``line`` above the bar."""
        self.p.update(self.task, description=text or self.what)
        if line:
            self.p.console.print(line, highlight=False, markup=False)

    def update(self, n):
        if self.watch is not None:
            self.watch.update(n)
        if self.p is None:
            self.new += n
            return
        self.new += n
        dt = time.perf_counter() - self.t0
        rate = f"{self.new / dt:,.0f} {'/s'}" if dt > 0 else ""
        self.p.update(self.task, advance=n, rate=rate)

    def close(self):
        if self.p is not None:
            self.p.stop()
            if self in compiling._PROGRESS:
                compiling._PROGRESS.remove(self)
        elif self.plain is not None:
            what, done, total = self.plain
            dt = time.perf_counter() - self.t0
            reused = f", {done:,} reused" if done else ""
            sys.stderr.write(f"  {what}: {done + self.new:,} of {total:,} in {dt:.1f} s{reused}\n")
            self.plain = None


def stderr_console():
    from rich.console import Console
    return Console(stderr=True)
