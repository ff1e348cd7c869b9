"""Opt-in: each test's CPU seconds, for finding what makes the suite slow (issue 25, "tests in tiers").

``TRICKSIM_TEST_CPU=FOLDER bash scripts/test.sh ...`` writes one JSON line per test to ``FOLDER/<worker>.jsonl``
(``main`` without pytest-xdist): the test's id, its file, the worker, wall seconds, the CPU seconds of the test
process (every thread: Numba's parallel kernels included) and of the child processes it waited for (the CLI run
as a command, pip), and the CPU seconds Numba spent compiling in the test process (the outermost ``numba:compile``
events), with the kernels so compiled (a kernel loaded from the cache compiles nothing).  Setup and teardown count
with the test, so a module's shared fixture counts with its first test.  ``python tests/cputime.py FOLDER`` sums
them by file and by worker, and names the kernels compiled more than once in the run (both workers at once, or a
second signature).
"""
import json
import os
import resource
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path

import pytest


class _Compiling:
    """CPU seconds of the compiling thread inside outermost numba:compile events of this process."""

    def __init__(self):
        self.seconds = 0.0
        self.depth = threading.local()
        self.kernels = []           # (module.function, CPU seconds) of each outermost compilation

    def on_start(self, event):
        d = getattr(self.depth, "n", 0)
        self.depth.n = d + 1
        if d == 0:
            self.depth.t0 = time.thread_time()

    def on_end(self, event):
        self.depth.n -= 1
        if self.depth.n == 0:
            dt = time.thread_time() - self.depth.t0
            self.seconds += dt
            try:
                f = event.data["dispatcher"].py_func
                name = f"{f.__module__.replace('tricksim.kernels.', '')}.{f.__name__}"
            except Exception:
                name = "?"
            self.kernels.append((name, round(dt, 2)))


class Recorder:
    def __init__(self, folder):
        from numba.core import event as nb_event

        class _Listener(nb_event.Listener):
            def __init__(s):
                s.c = _Compiling()

            def on_start(s, event):
                s.c.on_start(event)

            def on_end(s, event):
                s.c.on_end(event)

        self.listener = _Listener()
        nb_event.register("numba:compile", self.listener)
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        Path(folder).mkdir(parents=True, exist_ok=True)
        self.out = open(Path(folder) / f"{worker}.jsonl", "a")
        self.worker = worker

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item, nextitem):
        ch0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        c0, w0, k0 = time.process_time(), time.perf_counter(), self.listener.c.seconds
        n0 = len(self.listener.c.kernels)
        yield
        ch1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        rec = {"id": item.nodeid, "file": item.nodeid.split("::")[0], "worker": self.worker,
               "wall": round(time.perf_counter() - w0, 3), "cpu": round(time.process_time() - c0, 3),
               "children": round(ch1.ru_utime + ch1.ru_stime - ch0.ru_utime - ch0.ru_stime, 3),
               "compile": round(self.listener.c.seconds - k0, 3), "kernels": self.listener.c.kernels[n0:]}
        self.out.write(json.dumps(rec) + "\n")
        self.out.flush()



def summary(folder, top=40):
    files = defaultdict(lambda: defaultdict(float))
    workers = defaultdict(lambda: defaultdict(float))
    for p in Path(folder).glob("*.jsonl"):
        for line in p.read_text().splitlines():
            r = json.loads(line)
            for k in ("wall", "cpu", "children", "compile"):
                files[r["file"]][k] += r[k]
                workers[r["worker"]][k] += r[k]
            files[r["file"]]["n"] += 1
            files[r["file"]]["worker"] = r["worker"]
    rows = sorted(files.items(), key=lambda kv: -(kv[1]["cpu"] + kv[1]["children"]))
    print(f"{'file':48s} {'n':>5s} {'cpu+ch':>8s} {'cpu':>8s} {'child':>7s} {'compile':>8s} {'wall':>8s} worker")
    for f, d in rows[:top]:
        print(f"{f:48s} {int(d['n']):5d} {d['cpu'] + d['children']:8.1f} {d['cpu']:8.1f} {d['children']:7.1f} "
              f"{d['compile']:8.1f} {d['wall']:8.1f} {d['worker']}")
    twice = defaultdict(list)
    for p in Path(folder).glob("*.jsonl"):
        for line in p.read_text().splitlines():
            r = json.loads(line)
            for name, sec in r.get("kernels", []):
                twice[name].append((sec, r["worker"], r["id"]))
    again = sorted(((sum(s for s, _, _ in v), k, v) for k, v in twice.items() if len(v) > 1), reverse=True)
    if again:
        print("compiled more than once (CPU s in all, then each: seconds worker test):")
    for total, k, v in again[:top]:
        print(f"  {k}: {total:.1f} s; " + "; ".join(f"{s:.1f} {w} {i.split('::')[-1][:50]}" for s, w, i in v[:4]))
    for w, d in sorted(workers.items()):
        print(f"worker {w}: cpu+children {d['cpu'] + d['children']:.0f} s, compile {d['compile']:.0f} s, "
              f"wall {d['wall']:.0f} s")


if __name__ == "__main__":
    summary(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 40)
