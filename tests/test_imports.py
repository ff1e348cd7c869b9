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
A package goes before its modules, and a module its package's import already imported gets no fork of its own:
``import P.M`` first imports the package P whole, then finds P.M in ``sys.modules`` and runs nothing more (and
fails with P's error when P fails), so its result is P's, exactly (importlib ``_find_and_load``).
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

# the third-party libraries the parent interpreter loads before forking (never a tricksim module),
# and every other module that importing the whole package loads (numba's modules that the kernels import or that the
# patches of Numba pull in, two of the standard library's): the forks read the package's bytecode from a folder of
# their own, where no other module's is, so a module first imported in a fork would be compiled there from source
PRELOAD = ["numpy", "numba", "numba.core.registry", "numba.core.inline_closurecall", "numba.core.ssa",
           "numba.cpython.randomimpl", "numba.cpython.listobj", "numba.cpython.hashing", "numba.cpython.charseq",
           "numba.core.unsafe.bytes", "numba.cpython.unsafe.numbers", "pandas", "matplotlib", "matplotlib.pyplot",
           "typer", "rich", "pyarrow", "optuna", "tomllib", "resource"]
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
# the bytecode of the sources, compiled once here (not imported) into a folder of its own: each fork reads it instead
# of compiling every module it imports again (PYTHONDONTWRITEBYTECODE: no fork writes any); a file that does not
# compile is left to the fork that imports it, which reports the error as ``import`` does
import importlib.util, py_compile
sys.pycache_prefix = tempfile.mkdtemp()
for src in SOURCES:
    try:
        py_compile.compile(src, cfile=importlib.util.cache_from_source(src), doraise=True)
    except py_compile.PyCompileError:
        pass
out = tempfile.mkdtemp()
running = {}
results = {}
loaded = {}
forked = []


def reap():
    pid, status = os.wait()
    mod, path = running.pop(pid)
    with open(path) as f:
        got = json.loads(f.read() or "{}")
    err = got.get("err", "")
    if status != 0 and not err:
        err = f"the import process died (status {status})"
    results[mod] = err
    loaded[mod] = set(got.get("loaded", ()))


for depth in sorted({m.count(".") for m in MODULES}):     # a package before its modules
    for i, mod in enumerate(MODULES):
        if mod.count(".") != depth:
            continue
        parent = mod.rpartition(".")[0]
        if parent in results and (results[parent] or mod in loaded[parent]):
            results[mod] = results[parent]      # ``import mod`` first runs its package, which imported it (or failed)
            loaded[mod] = loaded[parent]
            continue
        while len(running) >= WORKERS:
            reap()
        path = os.path.join(out, f"{i}.json")
        open(path, "w").close()
        pid = os.fork()
        if pid == 0:                        # the child: no tricksim module loaded yet
            msg = ""
            try:
                importlib.import_module(mod)
            except BaseException:
                msg = traceback.format_exc(limit=-3) or "failed"
            now = [m for m in sys.modules if m == "tricksim" or m.startswith("tricksim.") or m in MODULES]
            with open(path, "w") as f:
                f.write(json.dumps({"err": msg, "loaded": now}))
            os._exit(0)
        running[pid] = (mod, path)
        forked.append(mod)
    while running:
        reap()
print(json.dumps({"results": results, "forked": forked}))
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


def tricksim_sources(root: Path = ROOT) -> list[str]:
    """The source files of the package's modules (tricksim_modules' files)."""
    return [str(root / "cli.py")] + [str(f) for folder in ("kernels", "analysis")
                                     for f in sorted((root / folder).rglob("*.py")) if "__pycache__" not in f.parts]


def fork_imports(modules: list[str], cwd: Path = ROOT, env=None, sources=None) -> dict:
    """Run the fork check: ``{"results": {module: error ("" = fine)}, "forked": [the modules given a fork]}``.
    ``sources``: the modules' files (the package's by default), compiled once before the forks."""
    sources = tricksim_sources() if sources is None else [str(x) for x in sources]
    code = (f"PRELOAD = {PRELOAD!r}\nMODULES = {modules!r}\nWORKERS = {WORKERS}\nSOURCES = {sources!r}\n"
            + FORK_IMPORTS)
    r = subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env or _env(), capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


def import_each_alone(modules: list[str], cwd: Path = ROOT, env=None, sources=None) -> dict[str, str]:
    """{module: the error of importing it first in an interpreter without tricksim ("" = fine)}."""
    return fork_imports(modules, cwd, env, sources)["results"]


def test_module_list_covers_the_package():
    mods = tricksim_modules()
    assert len(mods) == len(set(mods)) > 40
    for m in ("tricksim.cli", "tricksim.kernels", "tricksim.kernels.bourre.solver", "tricksim.kernels.bourre.pimc",
              "tricksim.kernels.bourre.odds_play", "tricksim.analysis.bourre.pot", "tricksim.analysis.boulmous.equity.views"):
        assert m in mods


@pytest.fixture(scope="module")
def alone():
    return fork_imports(tricksim_modules())


def test_every_module_imports_first_on_its_own(alone):
    mods = tricksim_modules()
    res = alone["results"]
    assert sorted(res) == sorted(mods)
    bad = {m: e for m, e in res.items() if e}
    assert not bad, "modules that fail when imported first:\n" + "\n".join(f"{m}: {e}" for m, e in bad.items())


# the Bourre kernels' import loop (point 9) and the console entry point, each in a new interpreter; the package
# tricksim.kernels.bourre imports the solver and the sampling player, so ``import tricksim.kernels.bourre.solver``
# (or ``.pimc``) first is ``import tricksim.kernels.bourre`` (the test checks it on the fork check's record)
FRESH = ["tricksim.kernels.bourre", "tricksim.kernels.bourre.odds_play", "tricksim.cli"]
SAME_AS_THEIR_PACKAGE = ["tricksim.kernels.bourre.solver", "tricksim.kernels.bourre.pimc"]


def _fresh_import(mod: str) -> tuple[int, str]:
    r = subprocess.run([sys.executable, "-c", f"import {mod}"], cwd=ROOT, env=_env(), capture_output=True,
                       text=True, timeout=300)
    return r.returncode, r.stderr[-1500:]


def test_bourre_loop_and_cli_import_in_a_new_interpreter(alone):
    assert not set(SAME_AS_THEIR_PACKAGE) & set(alone["forked"]) and "tricksim.kernels.bourre" in alone["forked"]
    with ThreadPoolExecutor(max_workers=min(len(FRESH), os.cpu_count() or 1)) as ex:
        res = dict(zip(FRESH, ex.map(_fresh_import, FRESH)))
    bad = {m: err for m, (rc, err) in res.items() if rc != 0}
    assert not bad, bad


def test_the_check_catches_an_import_loop(tmp_path):
    """The fork check fails where ``python -c "import M"`` fails: a package whose modules a and b import each
    other's names at the top fails when b is imported first (and not when a is).  A module its package imports
    gets its package's result without a fork of its own (c), also when the package fails (broken.d), as
    ``python -c`` does."""
    pkg = tmp_path / "loopy"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from . import c\n")
    (pkg / "a.py").write_text("X = 1\nfrom loopy.b import Y\n")
    (pkg / "b.py").write_text("from loopy.a import X\nY = 2\n")
    (pkg / "c.py").write_text("Z = 3\n")
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "__init__.py").write_text("raise RuntimeError('the package fails')\n")
    (tmp_path / "broken" / "d.py").write_text("W = 4\n")
    mods = ['loopy.b', 'loopy.a', 'loopy.c', 'loopy', 'broken.d', 'broken']
    out = fork_imports(mods, tmp_path, _env(), sorted(tmp_path.rglob("*.py")))
    res = out["results"]
    assert "ImportError" in res["loopy.b"] and "circular import" in res["loopy.b"]
    assert res["loopy.a"] == "" == res["loopy.c"] == res["loopy"]
    assert "the package fails" in res["broken.d"] and res["broken.d"] == res["broken"]
    assert sorted(out["forked"]) == ["broken", "loopy", "loopy.a", "loopy.b"]
    assert _plain(tmp_path, "loopy.b") != 0 and _plain(tmp_path, "loopy.a") == 0 == _plain(tmp_path, "loopy.c")
    assert _plain(tmp_path, "broken.d") != 0


def _plain(cwd, mod):
    return subprocess.run([sys.executable, "-c", f"import {mod}"], cwd=cwd, env=_env(), capture_output=True,
                          timeout=120).returncode


if __name__ == "__main__":     # pragma: no cover
    # a manual check of another copy of the sources: python tests/test_imports.py DIR, where DIR/tricksim holds
    # cli.py, kernels/ and analysis/ (DIR goes first on PYTHONPATH, ahead of the editable install)
    top = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else None
    env = dict(_env(), PYTHONPATH=str(top)) if top else None
    pkg = top / "tricksim" if top else ROOT
    out = import_each_alone(tricksim_modules(pkg), top or ROOT, env, tricksim_sources(pkg))
    print("\n".join(f"{m}: {e.strip().splitlines()[-1] if e else 'ok'}" for m, e in out.items()))
