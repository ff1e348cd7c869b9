#!/usr/bin/env python
"""Measure tricksim's speed and times, and write docs/performance.md: the one place for every time figure.

Each measurement appends a dated record (commit, command, result, the machine's load during the run) to
docs/performance.jsonl, then the page is rewritten from all records, newest first:

    python scripts/performance.py bench        # hands per second per game, 1 and all threads (tricksim bench)
    python scripts/performance.py solver       # open-hand solves and sampling-player deals per second
    python scripts/performance.py compile      # every warm-up command on an empty Numba cache, then cached
    python scripts/performance.py tests        # the fast tier and the whole suite on this checkout
    python scripts/performance.py main-job     # a fresh clone with an empty home folder: bash scripts/report.sh --quick
    python scripts/performance.py render       # only rewrite the page from the records

Run it with the project's environment (.venv/bin/python; main-job and tests need only bash and git).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "docs" / "performance.jsonl"
PAGE = ROOT / "docs" / "performance.md"

SECTIONS = {
    "first-contact": ("First contact: the main job on a fresh clone",
                      "A fresh clone with an empty home folder (no pip cache, no Numba cache, no `~/.cache/tricksim`): "
                      "the quick main job installs, compiles every kernel once (`tricksim warmup`) and runs the "
                      "headline studies on small samples. CPU seconds (user + system) are the robust measure on a "
                      "shared machine; wall seconds depend on what else runs."),
    "studies": ("The headline studies, compiled", "`tricksim report` once the kernels are compiled: the time of each page."),
    "speed": ("Speed: hands per second",
              "`tricksim bench`: complete deals (auction, trump choice, play, scoring; Bourré: deals of 200-deal "
              "sessions, draw included). After a warm-up each case runs several rounds; a round times 1 thread and "
              "then all threads on the same hands, so a slow spell of the host hits both sides of the speed-up "
              "alike. 'hands/s' is the best round per thread count, 'per round' the range of the rounds' own "
              "speed-ups (a wide range means the host was busy, not that the kernels vary)."),
    "solver": ("Open-hand solvers and sampling players",
               "`tricksim bench --solver`: whole deals solved open-handed per second, and whole deals played by "
               "the sampling player (`pimc`) per second, timed like `tricksim bench`."),
    "compile": ("Compiling",
                "Numba compiles each kernel entry point on its first use and caches it for the install "
                "(`tricksim warmup` does it ahead of use; `tricksim warmup --check` says whether it is done). "
                "`tricksim bench --compile` runs every warm-up command (together they call every batch kernel) one "
                "after another on an empty Numba cache, then again on the cache they filled: a command's cold CPU "
                "seconds include compiling what the commands before it have not."),
    "compile-entry": ("Compiling: the Bourré entry points one by one",
                      "Each entry point called once with tiny arguments in a fresh process with an empty Numba cache, "
                      "its CPU seconds minus those of importing the package (`python scripts/compile_cost.py capture`, "
                      "then `python scripts/compile_cost.py measure --calls DIR [--src OLD_CHECKOUT] --inner`)."),
    "other": ("Other figures", "Single measurements of one feature, each with its command."),
    "tests": ("Tests", "`bash scripts/test.sh` runs every test; `--fast` the fast tier (tests marked `fast`)."),
}


class Load:
    """The 1-minute load average sampled every few seconds while a measurement runs: its range."""

    def __init__(self):
        self.samples, self._stop = [], threading.Event()

    def __enter__(self):
        def loop():
            while not self._stop.is_set():
                self.samples.append(os.getloadavg()[0])
                self._stop.wait(5)
        self._t = threading.Thread(target=loop, daemon=True)
        self._t.start()
        return self

    def __exit__(self, *a):
        self._stop.set()
        self._t.join()
        self.samples.append(os.getloadavg()[0])

    def text(self) -> str:
        lo, hi = min(self.samples), max(self.samples)
        return f"{lo:.1f}" if round(lo, 1) == round(hi, 1) else f"{lo:.1f}-{hi:.1f}"


def commit() -> str:
    sha = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--", "analysis", "kernels", "cli.py"], cwd=ROOT,
                           capture_output=True, text=True).stdout.strip()
    return sha + ("+changes" if dirty else "")


def record(section: str, what: str, command: str, result: str, load: str, table=None, **extra) -> dict:
    r = {"date": datetime.now(timezone.utc).strftime("%Y-%m-%d"), "commit": commit(), "section": section,
         "what": what, "command": command, "result": result, "load": load, **extra}
    if table is not None:
        r["table"] = table
    with RECORDS.open("a") as f:
        f.write(json.dumps(r, ensure_ascii=False) + "\n")
    return r


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(cmd, cwd, env=None, log=None) -> tuple[float, float, int, str]:
    """Run ``cmd`` (a list) in ``cwd``: wall seconds, CPU seconds of it and its children, exit code, output."""
    c0, t0 = _cpu(), time.perf_counter()
    p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    wall, cpu = time.perf_counter() - t0, _cpu() - c0
    out = p.stdout + p.stderr
    if log:
        Path(log).write_text(out)
    return wall, cpu, p.returncode, out


def _minsec(s: float) -> str:
    return f"{s:.0f} s" if s < 120 else f"{s / 60:.1f} min ({s:,.0f} s)"


def cmd_bench(args):
    from tricksim.analysis import bench
    with Load() as ld:
        df = bench.run(hands=args.hands, repeats=args.repeats)
    cmd = "tricksim bench" + (f" --hands {args.hands}" if args.hands else "") + f" --repeats {args.repeats}"
    best = "; ".join(f"{r['game']} {r['case']}: {r[df.columns[3]]} hands/s on 1 thread" for _, r in df.iterrows()
                     if "default" in r["case"] or "cautious" in r["case"])
    record("speed", "hands per second, every game and case", cmd, best, ld.text(), df.to_dict("records"))


def cmd_solver(args):
    from tricksim.analysis import bench
    with Load() as ld:
        df = bench.solver(hands=args.hands, repeats=args.repeats)
    cmd = "tricksim bench --solver" + (f" --hands {args.hands}" if args.hands else "") + f" --repeats {args.repeats}"
    record("solver", "open-hand solves and sampling-player deals per second", cmd,
           f"{len(df)} cases", ld.text(), df.to_dict("records"))


def cmd_compile(args):
    from tricksim.analysis import bench
    with Load() as ld:
        df = bench.compile_times()
    tot = df.iloc[-1]
    record("compile", "every warm-up command, cold and cached", "tricksim bench --compile",
           f"{len(df) - 1} commands: {tot['cold CPU s']:.0f} CPU s cold, {tot['cached CPU s']:.0f} CPU s cached "
           "(one after another)", ld.text(), df.drop(columns=["compiled (CPU s)"]).to_dict("records"))


def _pytest_summary(out: str) -> str:
    lines = [x for x in out.splitlines() if re.search(r"\d+ (passed|failed)", x)]
    return lines[-1].strip("= ") if lines else "no pytest summary (see the log)"


def cmd_tests(args):
    for what, extra in (("fast tier", ["--fast"]), ("whole suite", [])):
        if args.only and args.only != what.split()[0]:
            continue
        with Load() as ld:
            wall, cpu, code, out = timed(["bash", "scripts/test.sh", *extra], ROOT, log=f"/tmp/tricksim-perf-{extra and 'fast' or 'all'}.log")
        record("tests", what, "bash scripts/test.sh" + (" --fast" if extra else ""),
               f"{_pytest_summary(out)}; {_minsec(wall)} wall, {cpu:,.0f} CPU s" + ("" if code == 0 else f"; exit {code}"),
               ld.text())


def cmd_main_job(args):
    """A fresh clone of HEAD with an empty home folder: the quick main job (install, warm-up, studies)."""
    with tempfile.TemporaryDirectory(prefix="tricksim-perf-") as tmp:
        clone, home = Path(tmp) / "clone", Path(tmp) / "home"
        home.mkdir()
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("TRICKSIM", "NUMBA", "VIRTUAL_ENV"))}
        env["HOME"] = str(home)
        job = ["bash", "scripts/report.sh"] + ([] if args.full else ["--quick"])
        with Load() as ld:
            wall, cpu, code, out = timed(job, clone, env, log="/tmp/tricksim-perf-main-job.log")
        warm = re.search(r"warm-up: .*?in ([\d,.]+) s", out)
        studies = re.findall(r"\] (\S+): done in (\d+) s", out)
        result = (f"{_minsec(wall)} wall, {cpu:,.0f} CPU s" + ("" if code == 0 else f"; exit {code}")
                  + (f"; the warm-up {warm.group(1)} s wall" if warm else "")
                  + ("; the studies " + ", ".join(f"{s} {t} s" for s, t in studies) if studies else ""))
        record("first-contact", "main job" + ("" if args.full else ", quick") + ", fresh clone, empty home folder",
               " ".join(job), result, ld.text())


def _table(rows) -> str:
    if not rows:
        return ""
    cols = list(rows[0])
    out = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for r in rows:
        out.append("| " + " | ".join(str(r.get(c, "")) for c in cols) + " |")
    return "\n".join(out)


def render() -> Path:
    recs = [json.loads(x) for x in RECORDS.read_text().splitlines() if x.strip()] if RECORDS.exists() else []
    md = ["# Performance: every time figure, dated, with its command and the machine's load\n",
          "The machine: 2 cores, 24 GiB, often shared by other jobs; the load average (1 minute, sampled during the "
          "run) is given beside each figure. Newer figures come first; nothing else in the repository repeats "
          "them. Written by `python scripts/performance.py render` from the records in "
          "[performance.jsonl](performance.jsonl); `python scripts/performance.py bench` (also `solver`, `compile`, "
          "`tests`, `main-job`) measures again and adds a record.\n"]
    for key, (title, intro) in SECTIONS.items():
        rs = [r for _, r in sorted(((r["date"], i), r) for i, r in enumerate(recs) if r["section"] == key)][::-1]
        if not rs:
            continue
        md += [f"## {title}\n", intro + "\n"]
        history = [r for r in rs if "table" not in r]
        tables = [r for r in rs if "table" in r]
        if history:
            md.append(_table([{"date": r["date"], "commit": r["commit"], "what": r["what"], "command": f"`{r['command']}`",
                               "result": r["result"], "load": r["load"]} for r in history]) + "\n")
        shown = set()
        for r in tables:
            if (r["what"], r["command"]) in shown:
                md.append(f"- earlier: {r['date']}" + (f", {r['commit']}" if r["commit"] else "")
                          + f", `{r['command']}`: {r['result']} (load {r['load']})")
                continue
            shown.add((r["what"], r["command"]))
            md.append(f"**{r['what']}**, {r['date']}" + (f", commit {r['commit']}" if r["commit"] else "")
                      + f", load {r['load']}: `{r['command']}`"
                      + (f". {r['note']}" if r.get("note") else "") + "\n")
            md.append(_table(r["table"]) + "\n")
        md.append("")
    PAGE.write_text("\n".join(md).rstrip() + "\n")
    return PAGE


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=["bench", "solver", "compile", "tests", "main-job", "render"])
    ap.add_argument("--hands", type=int, default=None, help="bench/solver: hands per case")
    ap.add_argument("--repeats", type=int, default=3, help="bench/solver: interleaved rounds per case")
    ap.add_argument("--only", choices=["fast", "whole"], default=None, help="tests: one tier only")
    ap.add_argument("--full", action="store_true", help="main-job: the full main job instead of --quick")
    a = ap.parse_args(argv)
    if a.what != "render":
        {"bench": cmd_bench, "solver": cmd_solver, "compile": cmd_compile, "tests": cmd_tests,
         "main-job": cmd_main_job}[a.what](a)
    print(render())


if __name__ == "__main__":
    sys.exit(main())
