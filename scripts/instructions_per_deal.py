"""Instructions per deal of one ``tricksim bench`` case, counted by valgrind's cachegrind: a measure of the
kernels' speed that does not move with the machine's load (issue 24), for one or several checkouts.

For each checkout (each with its own ``.venv``) the case runs once untimed to compile its kernels (or load them
from the cache), then twice under ``valgrind --tool=cachegrind --cache-sim=no``: at ``--small`` and at
``--large`` deals.  (instructions(large) - instructions(small)) / (large - small) is the instructions per deal:
the import, the cache load and the warm-up are in both runs and cancel.  Both runs play the same first deals
(Bourre's case: the sessions from 0, 200 deals each).  The kernels are compiled for ``NUMBA_CPU_NAME=generic``
(valgrind cannot run AVX-512 code), so every checkout runs the same instruction set; one Numba thread.

    python scripts/instructions_per_deal.py /work/main                     # Bourre, 7 players, basic
    python scripts/instructions_per_deal.py OLD NEW --game boomke-wies --case "partner"
    python scripts/instructions_per_deal.py /tmp/export --python .venv/bin/python   # an exported tree

A folder without a ``.venv`` is taken as an exported tree (``git archive``, or a copy with a change to try) laid out
as ``DIR/tricksim/...``: it runs with ``--python`` and ``PYTHONPATH=DIR``.

Prints per checkout its commit, the two counts and the instructions per deal, with ``uptime``'s load (which the
counts do not depend on)."""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import tempfile
from pathlib import Path

CASES = {"bourre": "7 players, default (basic)", "boomke-wies": "deals, all seats partner (default)",
         "boulmous": "deals, all seats cautious"}

# Runs inside a checkout's venv: today's package (tricksim.analysis) or an older commit's top-level ``analysis``.
RUNNER = """
import sys
game, case, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
try:
    from tricksim.analysis.registry import get
    cases = get(game).bench_cases(0)
except ImportError:
    import importlib
    cases = importlib.import_module("analysis." + game.replace("-", "_")).bench_cases(0)
fns = [fn for label, fn in cases if case in label]
if len(fns) != 1:
    raise SystemExit(f"case {case!r}: {len(fns)} matches among {[label for label, _ in cases]}")
print("played", fns[0](0, n))
"""


PYTHON = None     # --python: the interpreter of exported trees


def env(checkout: Path) -> dict[str, str]:
    e = dict(os.environ, NUMBA_CPU_NAME="generic", NUMBA_NUM_THREADS="1", PYTHONHASHSEED="0")
    e.pop("NUMBA_CPU_FEATURES", None)
    if not (checkout / ".venv").is_dir():
        e["PYTHONPATH"] = str(checkout)
    return e


def python(checkout: Path) -> str:
    py = checkout / ".venv" / "bin" / "python"
    if py.exists():
        return str(py)
    if PYTHON is None or not (checkout / "tricksim").is_dir():
        raise SystemExit(f"{checkout}: no .venv, and not an exported tree (DIR/tricksim) run with --python")
    return PYTHON


def run_case(checkout: Path, game: str, case: str, n: int, valgrind: bool) -> int:
    """Plays the case at ``n`` deals in ``checkout``; under valgrind returns the instructions counted, else 0."""
    cmd = [python(checkout), "-c", RUNNER, game, case, str(n)]
    if not valgrind:
        subprocess.run(cmd, check=True, cwd=checkout, env=env(checkout), capture_output=True, text=True)
        return 0
    with tempfile.NamedTemporaryFile(suffix=".cachegrind") as out:
        cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", f"--cachegrind-out-file={out.name}", *cmd]
        subprocess.run(cmd, check=True, cwd=checkout, env=env(checkout), capture_output=True, text=True)
        text = Path(out.name).read_text()
    m = re.search(r"^summary:\s+(\d+)", text, re.M)
    if not m:
        raise SystemExit(f"no summary line in cachegrind's output for {checkout}")
    return int(m.group(1))


def commit(checkout: Path) -> str:
    r = subprocess.run(["git", "-C", str(checkout), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    if r.returncode != 0:
        return "(no git)"
    dirty = subprocess.run(["git", "-C", str(checkout), "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()
    return r.stdout.strip() + ("+changes" if dirty else "")


def load() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("checkouts", nargs="+", type=Path)
    ap.add_argument("--game", default="bourre", choices=sorted(CASES))
    ap.add_argument("--case", help="a part of the case's label (default: the game's first case)")
    ap.add_argument("--small", type=int, default=2_000)
    ap.add_argument("--large", type=int, default=202_000)
    ap.add_argument("--python", type=Path, help="the interpreter of exported trees (a venv with tricksim's needs)")
    a = ap.parse_args()
    global PYTHON
    PYTHON = str(a.python.absolute()) if a.python else None
    case = a.case or CASES[a.game]
    print(f"{a.game}, case {case!r}, deals {a.small:,} and {a.large:,}; {load()}")
    for path in a.checkouts:
        path = path.resolve()
        run_case(path, a.game, case, a.small, valgrind=False)          # compile or load from the cache
        small = run_case(path, a.game, case, a.small, valgrind=True)
        large = run_case(path, a.game, case, a.large, valgrind=True)
        per = (large - small) / (a.large - a.small)
        print(f"{commit(path):16} {path}: {small:,} and {large:,} instructions; {per:,.1f} instructions per deal",
              flush=True)
    print(f"end; {load()}")


if __name__ == "__main__":
    main()
