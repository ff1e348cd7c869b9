"""Cold compile cost of every kernel entry point: CPU seconds (user + sys) of a fresh process with an empty
``NUMBA_CACHE_DIR`` that calls one entry point once, minus a baseline process that imports the same module and
loads the same arguments without calling anything.

Two steps:

``capture``: runs tiny CLI commands (COMMANDS below) with ``NUMBA_DISABLE_JIT=1`` and every ``@njit`` of
kernels/ wrapped, and stores the arguments of each call made from Python (not from inside another kernel),
one file per entry point and argument types, under ``--calls`` (default /tmp/tricksim-compile-calls).  Nothing
is compiled, so this takes seconds (except the sampling players, slow in pure Python even on tiny inputs).

``measure``: for every stored call (or those matching ``--only``), a fresh process calls the entry point with
those arguments; prints a table: entry point, argument types, cold CPU s, and ``uptime``'s load beside it.
``--src DIR`` measures the package found in DIR (a checkout laid out as ``DIR/tricksim/...``) instead of the
installed one, e.g. an older commit exported with ``git archive``.

    .venv/bin/python scripts/compile_cost.py capture
    .venv/bin/python scripts/compile_cost.py measure --only bourre
    .venv/bin/python scripts/compile_cost.py measure --jobs 2 --json out.json

``NUMBA_DEBUG_CACHE=1`` in the environment of a measured process shows which functions are compiled (the cache
misses); ``--inner`` prints, per measured entry point, the njit functions compiled and how many specialisations
each got (after the call, from every Dispatcher's ``signatures``).
"""
from __future__ import annotations

import argparse
import fnmatch
import hashlib
import json
import os
import pickle
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CALLS = Path(tempfile.gettempdir()) / "tricksim-compile-calls"

# tiny commands of the CLI that together reach every batch entry point (and the trace kernels)
HAND_B = ["--hand", "AH KH 7C 4D 2S", "--up-card", "9H"]
COMMANDS = [
    ["odds", "bourre", *HAND_B, "--hands", "40"],
    ["odds", "bourre", *HAND_B, "--hands", "16", "--play", "heuristic,open"],
    ["odds", "bourre", *HAND_B, "--hands", "2", "--play", "heuristic,pimc:worlds=2"],
    ["odds", "bourre", *HAND_B, "--hands", "2", "--play", "heuristic,open,pimc:worlds=2"],
    ["compare", "bourre", "ev:train_sessions=100,train_deals=10,max_iter=1", "basic", "tight", "--hands", "40"],
    ["compare", "bourre", "basic", "pimc:worlds=2", "--hands", "2", "--players", "3"],
    ["pot", "--players", "3", "--deals", "4", "--sessions", "4"],
    ["pot", "--players", "3", "--deals", "4", "--sessions", "4", "--tail", "--tail-roots", "2"],
    ["trace", "bourre", "--players", "3", "--deals", "1"],
    ["trace", "bourre", "--players", "3", "--deals", "1", "-H", "pimc:worlds=2"],
    ["odds", "boulmous", "--hands", "40"],
    ["odds", "boulmous", "--hand", "JH JD AH KH QH 9H 7H AS", "--hands", "40"],
    ["odds", "boulmous", "--hand", "JH JD AH KH QH 9H 7H AS", "--hands", "40", "--exact"],
    ["odds", "boulmous", "--hand", "JH JD AH KH QH 9H 7H AS", "--hands", "4", "--play", "heuristic,open"],
    ["odds", "boulmous", "--hand", "JH JD AH KH QH 9H 7H AS", "--hands", "2", "--play", "heuristic,pimc"],
    ["odds", "boulmous", "--hands", "4", "--play", "heuristic,open"],
    ["odds", "boulmous", "--hands", "2", "--play", "heuristic,pimc"],
    ["compare", "boulmous", "basic", "tight", "--hands", "40"],
    ["compare", "boulmous", "basic", "pimc:worlds=2", "--hands", "2"],
    ["stakes", "boulmous", "--games", "4"],
    ["trace", "boulmous", "--hands", "1"],
    ["trace", "boulmous", "--hands", "1", "-H", "pimc:worlds=2"],
    ["equity", "boulmous", "--deals", "40"],
    ["odds", "boomke-wies", "--hands", "40"],
    ["odds", "boomke-wies", "--hand", "AH KH QH JH 9H 8H 7H AS", "--hands", "40"],
    ["odds", "boomke-wies", "--hand", "AH KH QH JH 9H 8H 7H AS", "--hands", "4", "--double-dummy", "--dd-deals", "2"],
    ["odds", "boomke-wies", "--hand", "AH KH QH JH 9H 8H 7H AS", "--hands", "4", "--play", "heuristic,open"],
    ["compare", "boomke-wies", "basic", "tight", "--hands", "40"],
    ["stakes", "boomke-wies", "--games", "4"],
    ["trace", "boomke-wies", "--hands", "1"],
    ["equity", "boomke-wies", "--deals", "40"],
]

# ---------------------------------------------------------------------------------------------------------------
# capture (runs inside the child: python compile_cost.py _capture_child OUTDIR -- ARGV...)
# ---------------------------------------------------------------------------------------------------------------


def _install_recorder(outdir: Path):
    """Wrap every njit of the package (NUMBA_DISABLE_JIT: njit returns the Python function) so that a call from
    Python code (depth 0) stores its arguments once per argument types."""
    import numba
    from numba import typeof

    orig = numba.njit
    depth = [0]
    seen = set()

    def sig_of(args):
        out = []
        for a in args:
            try:
                out.append(str(typeof(a)))
            except Exception:  # noqa: BLE001 - anything numba cannot type
                out.append(type(a).__name__)
        return tuple(out)

    def wrap(f, opts):
        def rec(*args, **kw):
            if depth[0] == 0 and f.__module__.startswith("tricksim.kernels"):
                sig = sig_of(args) + tuple(f"{k}={sig_of([v])[0]}" for k, v in sorted(kw.items()))
                key = (f.__module__, f.__qualname__, sig)
                if key not in seen:
                    seen.add(key)
                    h = hashlib.sha1(repr(key).encode()).hexdigest()[:12]
                    try:
                        blob = pickle.dumps({"module": f.__module__, "name": f.__qualname__, "sig": sig,
                                             "parallel": bool(opts.get("parallel")), "args": args, "kw": kw,
                                             "argv": sys.argv[3:]})
                        (outdir / f"{f.__module__}.{f.__qualname__}.{h}.pkl").write_bytes(blob)
                    except Exception as e:  # noqa: BLE001
                        print(f"compile_cost: cannot store a call of {f.__qualname__}: {e}", file=sys.stderr)
            depth[0] += 1
            try:
                return f(*args, **kw)
            finally:
                depth[0] -= 1
        rec.__wrapped__ = f
        rec.py_func = f
        return rec

    def njit(*a, **kw):
        if a and callable(a[0]):
            return wrap(a[0], kw)
        return lambda f: wrap(f, kw)

    numba.njit = njit
    numba.jit = njit
    # the bit intrinsics of kernels/cards.py have no pure-Python form: give them one
    import numpy as np
    import numba.core.extending as ext
    import numba.cpython.unsafe.numbers as un
    un.trailing_zeros = lambda x: np.uint64((int(x) & -int(x)).bit_length() - 1) if int(x) else np.uint64(64)
    un.leading_zeros = lambda x: np.uint64(64 - int(x).bit_length())
    ext.intrinsic = lambda f: (lambda x: np.uint64(bin(int(x)).count("1")))   # only _ctpop is an intrinsic
    return orig


def _capture_child(outdir: str, argv: list[str]):
    _install_recorder(Path(outdir))
    from tricksim import cli
    sys.argv = ["tricksim", *argv]
    try:
        cli.main()
    except SystemExit:
        pass


def capture(calls: Path, commands, timeout: float):
    calls.mkdir(parents=True, exist_ok=True)
    for argv in commands:
        out = tempfile.mkdtemp(prefix="tricksim-cc-run-")
        full = list(argv) if argv[0] == "trace" else [*argv, "--out", out, "--quiet"]   # trace writes no run folder
        env = dict(os.environ, NUMBA_DISABLE_JIT="1")
        t0 = time.time()
        try:
            r = subprocess.run([sys.executable, __file__, "_capture_child", str(calls), "--", *full], env=env,
                               capture_output=True, text=True, timeout=timeout)
            tail = (r.stderr.strip().splitlines() or [""])[-1][:160]
            print(f"{time.time() - t0:7.1f} s  rc={r.returncode}  {' '.join(argv)}  {tail if r.returncode else ''}")
        except subprocess.TimeoutExpired:
            print(f"{time.time() - t0:7.1f} s  timeout  {' '.join(argv)} (calls made before it are stored)")


# ---------------------------------------------------------------------------------------------------------------
# measure
# ---------------------------------------------------------------------------------------------------------------

CHILD = r"""
import importlib, pickle, sys, os, time
d = pickle.loads(open(sys.argv[1], 'rb').read())
mod = importlib.import_module(d['module'])
fn = mod
for part in d['name'].split('.'):
    fn = getattr(fn, part)
if sys.argv[2] == 'call':
    inner = sys.argv[3] == 'inner'
    if inner:   # CPU time of every compilation (numba's compile events), exclusive of the ones nested in it
        from numba.core import event
        stack, rows = [], []

        class L(event.Listener):
            def on_start(self, ev):
                stack.append([time.process_time(), 0.0])

            def on_end(self, ev):
                t0, nested = stack.pop()
                dt = time.process_time() - t0
                if stack:
                    stack[-1][1] += dt
                disp = ev.data['dispatcher']
                f = getattr(disp, 'py_func', None)
                name = (f.__module__ + '.' + f.__qualname__) if f else str(disp)
                rows.append((dt - nested, dt, name, str(ev.data.get('args'))))
        event.register('numba:compile', L())
    fn(*d['args'], **d['kw'])
    if inner:
        from collections import defaultdict
        agg = defaultdict(lambda: [0.0, 0.0, 0, set()])
        for ex, inc, name, sig in rows:
            a = agg[name]
            a[0] += ex; a[1] = max(a[1], inc); a[2] += 1; a[3].add(sig)
        for name, (ex, inc, n, sigs) in sorted(agg.items(), key=lambda kv: -kv[1][0]):
            if name.startswith('tricksim') or n > 1 or ex > 0.5:
                print(f'INNER {ex:8.1f} s own {inc:8.1f} s incl  x{n}  {name.removeprefix("tricksim.kernels.")}')
                if n > 1:
                    for sg in sorted(sigs):
                        print(f'INNER        {sg[:300]}')
"""

def _run_measured(cmd, env):
    """(CPU s user+sys, rc, stdout, stderr) of one child process."""
    r, w = os.pipe()
    r2, w2 = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        os.close(r)
        os.close(r2)
        os.dup2(w, 1)
        os.dup2(w2, 2)
        os.execve(cmd[0], cmd, env)
    os.close(w)
    os.close(w2)
    import threading
    bufs = [b"", b""]

    def drain(fd, i):
        with os.fdopen(fd, "rb") as f:
            bufs[i] = f.read()
    ts = [threading.Thread(target=drain, args=(fd, i)) for i, fd in enumerate((r, r2))]
    for t in ts:
        t.start()
    _, status, ru = os.wait4(pid, 0)
    for t in ts:
        t.join()
    return ru.ru_utime + ru.ru_stime, os.waitstatus_to_exitcode(status), bufs[0].decode(), bufs[1].decode()


def _load():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def measure_one(path: Path, src: str | None, inner: bool):
    res = {}
    for mode in ("import", "call"):
        with tempfile.TemporaryDirectory(prefix="tricksim-cc-cache-") as cache:
            env = dict(os.environ, NUMBA_CACHE_DIR=cache)
            env.pop("NUMBA_DISABLE_JIT", None)
            if src:
                env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
            load0 = _load()
            cpu, rc, out, err = _run_measured([sys.executable, "-c", CHILD, str(path), mode,
                                               "inner" if inner else "-"], env)
            res[mode] = (cpu, rc, out, err, load0, _load())
    return res


def measure(calls: Path, only: list[str], src: str | None, jobs: int, inner: bool, json_out: str | None):
    files = sorted(calls.glob("*.pkl"))
    if only:
        files = [f for f in files if any(fnmatch.fnmatch(f.name, f"*{o}*") for o in only)]
    metas = []
    for f in files:
        d = pickle.loads(f.read_bytes())
        metas.append((f, d["module"].removeprefix("tricksim.kernels.") + "." + d["name"], d["sig"], d["argv"]))
    print(f"# {len(metas)} entry points; uptime: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}")
    print(f"# {'entry point':42s} {'cold CPU s':>10s} {'base s':>7s}  load (1/5/15 min) before -> after  rc")
    from concurrent.futures import ThreadPoolExecutor
    rows = []
    with ThreadPoolExecutor(jobs) as ex:
        futs = [(m, ex.submit(measure_one, m[0], src, inner)) for m in metas]
        for (f, name, sig, argv), fut in futs:
            res = fut.result()
            cpu = res["call"][0] - res["import"][0]
            rc = res["call"][1]
            print(f"{name:44s} {cpu:10.1f} {res['import'][0]:7.1f}  {res['call'][4]} -> {res['call'][5]}  {rc}",
                  flush=True)
            if rc:
                print("   " + res["call"][3].strip().splitlines()[-1][:200] if res["call"][3].strip() else "")
            if inner:
                for line in res["call"][2].splitlines():
                    if line.startswith("INNER"):
                        print("      " + line[6:])
            rows.append({"entry": name, "sig": list(sig), "argv": argv, "cpu": cpu, "base": res["import"][0],
                         "rc": rc, "load_before": res["call"][4], "load_after": res["call"][5]})
    if json_out:
        Path(json_out).write_text(json.dumps(rows, indent=1))


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "_capture_child":
        _capture_child(sys.argv[2], sys.argv[4:])
        return
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("step", choices=("capture", "measure", "list"))
    ap.add_argument("--calls", type=Path, default=CALLS, help="where the captured calls are stored")
    ap.add_argument("--only", action="append", default=[], help="measure the entry points whose file name "
                    "(module.function.hash) contains this (repeatable)")
    ap.add_argument("--commands", action="append", default=[], help="capture: only the commands containing this")
    ap.add_argument("--src", help="measure the package under this folder (DIR/tricksim) instead of the installed one")
    ap.add_argument("--jobs", type=int, default=1, help="measure this many entry points at once")
    ap.add_argument("--inner", action="store_true", help="also list the njit functions compiled per entry point")
    ap.add_argument("--timeout", type=float, default=900, help="capture: seconds per command")
    ap.add_argument("--json", help="measure: also write the rows as JSON here")
    a = ap.parse_args()
    if a.step == "capture":
        cmds = [c for c in COMMANDS if not a.commands or any(s in " ".join(c) for s in a.commands)]
        capture(a.calls, cmds, a.timeout)
    elif a.step == "list":
        for f in sorted(a.calls.glob("*.pkl")):
            d = pickle.loads(f.read_bytes())
            print(f"{f.name:70s} {' '.join(d['argv'])}")
    else:
        measure(a.calls, a.only, a.src, a.jobs, a.inner, a.json)


if __name__ == "__main__":
    main()
