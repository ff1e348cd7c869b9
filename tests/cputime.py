"""Opt-in: each test's CPU seconds, for finding what makes the suite slow (issue 25, "tests in tiers").

``TRICKSIM_TEST_CPU=FOLDER bash scripts/test.sh ...`` writes one JSON line per test to ``FOLDER/<worker>.jsonl``
(``main`` without pytest-xdist): the test's id, its file, the worker, wall seconds, the CPU seconds of the test
process (every thread: Numba's parallel kernels included) and of the child processes it waited for (the CLI run
as a command, pip), and the CPU seconds Numba spent compiling in the test process (the outermost ``numba:compile``
events), with the kernels so compiled and each one's signature (its argument types, from the event; a kernel
loaded from the cache compiles nothing).  Setup and teardown count
with the test, so a module's shared fixture counts with its first test.  ``python tests/cputime.py FOLDER`` sums
them by file and by worker, and names the kernels compiled more than once in the run, and why: a second
signature (the arguments whose types differ are named, e.g. ``arg 9 none | array(float64, 2d, C)``) or the same
signature compiled again (in both workers at once: each has its own memory, and the second finds the cache only
when the first saved it before it looked).
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


def _name(event) -> str:
    try:
        f = event.data["dispatcher"].py_func
        return f"{f.__module__.replace('tricksim.kernels.', '')}.{f.__name__}"
    except Exception:
        return "?"


def _signature(event) -> list:
    """The argument types of the compilation (one string each): the event carries them, nothing is computed."""
    try:
        return [str(a) for a in event.data["args"]]
    except Exception:
        return []


def why_again(sigs) -> str:
    """Why a kernel compiled more than once, from its compilations' signatures (lists of argument type
    strings, one per compilation): ``same signature`` or the arguments that differ, ``arg i a | b``."""
    forms = list(dict.fromkeys(tuple(s) for s in sigs))
    if len(forms) <= 1:
        return "same signature"
    if len({len(f) for f in forms}) > 1:
        return "signatures: " + " | ".join(str(len(f)) + " args" for f in forms)
    diff = [i for i in range(len(forms[0])) if len({f[i] for f in forms}) > 1]
    return f"{len(forms)} signatures: " + "; ".join(
        f"arg {i} " + " | ".join(dict.fromkeys(f[i] for f in forms)) for i in diff)


class _Compiling:
    """CPU seconds of the compiling thread inside outermost numba:compile events of this process."""

    def __init__(self):
        self.seconds = 0.0
        self.depth = threading.local()
        self.kernels = []           # (module.function, CPU seconds, signature) of each outermost compilation

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
            self.kernels.append((_name(event), round(dt, 2), _signature(event)))


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
        c0, w0, k0, t0 = time.process_time(), time.perf_counter(), self.listener.c.seconds, time.time()
        n0 = len(self.listener.c.kernels)
        yield
        ch1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        rec = {"id": item.nodeid, "file": item.nodeid.split("::")[0], "worker": self.worker, "start": round(t0, 3),
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
            for name, sec, *sig in r.get("kernels", []):
                twice[name].append((sec, r["worker"], r["id"], sig[0] if sig else None))
    again = sorted(((sum(s for s, *_ in v), k, v) for k, v in twice.items() if len(v) > 1), reverse=True)
    if again:
        print("compiled more than once (CPU s in all, why, then each: seconds worker test [signature number]):")
    for total, k, v in again[:top]:
        sigs = [g for *_, g in v if g is not None]
        why = why_again(sigs) if len(sigs) == len(v) else "signatures not recorded"
        if why == "same signature":
            why += " in " + " and ".join(sorted({w for _, w, _, _ in v}))
        num = {f: j for j, f in enumerate(dict.fromkeys(tuple(g) for g in sigs))} if sigs else {}
        print(f"  {k}: {total:.1f} s, {why}; " + "; ".join(
            f"{s:.1f} {w} {i.split('::')[-1][:50]}" + (f" [{num[tuple(g)]}]" if g is not None and len(num) > 1 else "")
            for s, w, i, g in v[:6]))
    for w, d in sorted(workers.items()):
        print(f"worker {w}: cpu+children {d['cpu'] + d['children']:.0f} s, compile {d['compile']:.0f} s, "
              f"wall {d['wall']:.0f} s")


if __name__ == "__main__":
    summary(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 40)
