"""Every module of tricksim imports on its own (issue 23, point 9).

``python -c "import tricksim.kernels.solve_bourre"`` once failed with a circular import
(bourre -> pimc_bourre -> solve_bourre -> bourre) that the rest of the suite never saw, because
each test process had already imported the loop from its friendly end.  Here every module of the
package (cli.py, every file of kernels/ and analysis/) is imported FIRST, in an interpreter in which
no module of tricksim has been imported yet.

How, quickly: one child interpreter imports only the third-party libraries (numpy, numba, pandas,
matplotlib, typer, ...; no tricksim module, which it checks), then forks one process per tricksim
module; each forked process starts with no tricksim module in ``sys.modules``, imports its module,
and reports the error if the import fails.  An import loop depends only on the order in which
tricksim's own modules are first imported, so each fork sees exactly what ``python -c "import M"``
sees, at a few milliseconds per module instead of a second or more of interpreter and numba start-up.
A second test imports the modules of the Bourre loop and the command line in truly new interpreters
(``python -c``), as a user would.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# the third-party libraries the parent interpreter loads before forking (never a tricksim module)
PRELOAD = ["numpy", "numba", "numba.core.registry", "pandas", "matplotlib", "matplotlib.pyplot", "typer", "rich",
           "pyarrow", "optuna"]
WORKERS = max(1, min(4, os.cpu_count() or 1))      # forked imports at a time

FORK_IMPORTS = r'''
import importlib, json, os, sys, tempfile, traceback
os.environ.setdefault("MPLBACKEND", "Agg")
for name in PRELOAD:
    try:
        importlib.import_module(name)
    except Exception:
        pass
assert not [m for m in sys.modules if m == "tricksim" or m.startswith("tricksim.")], "tricksim preloaded"
out = tempfile.mkdtemp()
running = {}
results = {}


def reap():
    pid, status = os.wait()
    mod, path = running.pop(pid)
    with open(path) as f:
        err = f.read()
    if status != 0 and not err:
        err = f"the import process died (status {status})"
    results[mod] = err


for i, mod in enumerate(MODULES):
    while len(running) >= WORKERS:
        reap()
    path = os.path.join(out, f"{i}.txt")
    open(path, "w").close()
    pid = os.fork()
    if pid == 0:                        # the child: no tricksim module loaded yet
        msg = ""
        try:
            importlib.import_module(mod)
        except BaseException:
            msg = traceback.format_exc(limit=-3) or "failed"
        with open(path, "w") as f:
            f.write(msg)
        os._exit(0)
    running[pid] = (mod, path)
while running:
    reap()
print(json.dumps(results))
'''


def tricksim_modules(root: Path = ROOT) -> list[str]:
    """The importable names of every module of the package, as pyproject.toml maps them
    (tricksim.cli = cli.py, tricksim.kernels = kernels/, tricksim.analysis = analysis/)."""
    mods = ["tricksim", "tricksim.cli"]
    for folder in ("kernels", "analysis"):
        for f in sorted((root / folder).rglob("*.py")):
            if "__pycache__" in f.parts:
                continue
            parts = list(f.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            mods.append(".".join(["tricksim", *parts]))
    return mods


def _env():
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["MPLBACKEND"] = "Agg"
    return env


def import_each_alone(modules: list[str], cwd: Path = ROOT, env=None) -> dict[str, str]:
    """{module: the error of importing it first in an interpreter without tricksim ("" = fine)}."""
    code = f"PRELOAD = {PRELOAD!r}\nMODULES = {modules!r}\nWORKERS = {WORKERS}\n" + FORK_IMPORTS
    r = subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env or _env(), capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_module_list_covers_the_package():
    mods = tricksim_modules()
    assert len(mods) == len(set(mods)) > 40
    for m in ("tricksim.cli", "tricksim.kernels", "tricksim.kernels.bourre.solver", "tricksim.kernels.bourre.pimc",
              "tricksim.kernels.bourre.odds_play", "tricksim.analysis.bourre.pot", "tricksim.analysis.boulmous.equity.views"):
        assert m in mods


def test_every_module_imports_first_on_its_own():
    mods = tricksim_modules()
    res = import_each_alone(mods)
    assert sorted(res) == sorted(mods)
    bad = {m: e for m, e in res.items() if e}
    assert not bad, "modules that fail when imported first:\n" + "\n".join(f"{m}: {e}" for m, e in bad.items())


# the Bourre kernels' import loop (point 9) and the console entry point, each in a new interpreter
FRESH = ["tricksim.kernels.bourre.solver", "tricksim.kernels.bourre.pimc", "tricksim.kernels.bourre.odds_play",
         "tricksim.kernels.bourre", "tricksim.cli"]


def _fresh_import(mod: str) -> tuple[int, str]:
    r = subprocess.run([sys.executable, "-c", f"import {mod}"], cwd=ROOT, env=_env(), capture_output=True,
                       text=True, timeout=300)
    return r.returncode, r.stderr[-1500:]


def test_bourre_loop_and_cli_import_in_a_new_interpreter():
    with ThreadPoolExecutor(max_workers=min(len(FRESH), os.cpu_count() or 1)) as ex:
        res = dict(zip(FRESH, ex.map(_fresh_import, FRESH)))
    bad = {m: err for m, (rc, err) in res.items() if rc != 0}
    assert not bad, bad


def test_the_check_catches_an_import_loop(tmp_path):
    """The fork check fails where ``python -c "import M"`` fails: a package whose modules a and b import each
    other's names at the top fails when b is imported first (and not when a is)."""
    pkg = tmp_path / "loopy"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("X = 1\nfrom loopy.b import Y\n")
    (pkg / "b.py").write_text("from loopy.a import X\nY = 2\n")
    code = "PRELOAD = []\nMODULES = ['loopy.b', 'loopy.a']\nWORKERS = 2\n" + FORK_IMPORTS
    r = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=_env(), capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    res = json.loads(r.stdout.strip().splitlines()[-1])
    assert "ImportError" in res["loopy.b"] and "circular import" in res["loopy.b"]
    assert res["loopy.a"] == ""
    assert _plain(tmp_path, "loopy.b") != 0 and _plain(tmp_path, "loopy.a") == 0


def _plain(cwd, mod):
    return subprocess.run([sys.executable, "-c", f"import {mod}"], cwd=cwd, env=_env(), capture_output=True,
                          timeout=120).returncode


if __name__ == "__main__":     # pragma: no cover
    # a manual check of another copy of the sources: python tests/test_imports.py DIR, where DIR/tricksim holds
    # cli.py, kernels/ and analysis/ (DIR goes first on PYTHONPATH, ahead of the editable install)
    top = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else None
    env = dict(_env(), PYTHONPATH=str(top)) if top else None
    out = import_each_alone(tricksim_modules(top / "tricksim" if top else ROOT), top or ROOT, env)
    print("\n".join(f"{m}: {e.strip().splitlines()[-1] if e else 'ok'}" for m, e in out.items()))
