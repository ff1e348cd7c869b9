"""A fresh virtual environment, the project installed as a user installs it (not editable, no extras): the
``tricksim`` command must work with the declared dependencies alone.

An import that no dependency declares (``import click`` once slipped in because the test extras
happened to pull it in) fails here: every module of the installed package is imported (the module-level imports),
and every library a function imports on its own (the function-local imports: the heavy optional libraries) is
imported too, or is declared by an extra.  One command compiles its kernels cold (in this
environment's own Numba cache) and runs them from the installed package; the same environment then gets the ``dd``
extra, whose double-dummy solver (the installed package's code calling the installed endplay) must solve deals as the
checkout's does, then the ``web`` extra.  The rules (docs/RULES.md) are installed with the package:
``tricksim rules GAME --full`` prints them without the repository.  Nothing generic is installed at the top level: ``import cli``,
``import analysis`` and ``import kernels`` fail there.

Cheaply: the project's wheel is built once (``pip wheel``, the build ``pip install .`` does) and installed, then its
extras (``pip install WHEEL[dd]``: the wheel's own metadata declares them, without building it again), by uv when
the test environment has it (scripts/setup.sh installs with it: its cache holds the libraries), else by pip; neither
byte-compiles the libraries (the interpreter compiles what it imports, on first import).
"""
from __future__ import annotations

import ast
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import numpy as np
import pytest

from importgraph import FILES
from tricksim.analysis import boomke_wies

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ["pyproject.toml", "README.md", "cli.py", "kernels", "analysis", "docs"]


def _copy_project(dst: Path) -> Path:
    """The working tree's package sources (not HEAD: what is being tested), without caches."""
    dst.mkdir()
    for name in SOURCES:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dst / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(src, dst / name)
    return dst


def _run(cmd, cwd, env, timeout=600):
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


def _install_cmd(py) -> list:
    """The command that installs a built wheel into the environment of ``py``: uv, when the test environment has
    it (scripts/setup.sh installs with it, so its cache holds the libraries; pip's cache may be empty), else pip;
    either compiles no bytecode.  What is tested is the wheel (``pip wheel`` builds it, as ``pip install .`` does)
    and the installed package; unpacking a wheel is the same by either installer."""
    if importlib.util.find_spec("uv") is not None and os.environ.get("TRICKSIM_TEST_INSTALLER") != "pip":
        return [sys.executable, "-m", "uv", "pip", "install", "--quiet", "--python", str(py)]
    return [str(py), "-m", "pip", "install", "--quiet", "--no-compile"]


@pytest.fixture(scope="module")
def fresh_venv(tmp_path_factory):
    base = tmp_path_factory.mktemp("fresh")
    src = _copy_project(base / "src")
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    py = venv / "bin" / "python"
    # PYTHONDONTWRITEBYTECODE dropped: pip compiles nothing (--no-compile), the interpreters write the bytecode
    # of what they import into the environment, once, as a user's do
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "NUMBA_CACHE_DIR", "PYTHONDONTWRITEBYTECODE")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["NUMBA_CACHE_DIR"] = str(base / "numba-cache")  # cold, like a new machine
    r = _run([str(py), "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(base / "dist"), str(src)], cwd=base,
             env=env)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    wheel, = (base / "dist").glob("tricksim-*.whl")
    r = _run([*_install_cmd(py), str(wheel)], cwd=base, env=env)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    work = base / "work"  # an unrelated folder: nothing of the repository on sys.path
    work.mkdir()
    return {"py": py, "bin": venv / "bin" / "tricksim", "env": env, "cwd": work, "src": src, "wheel": wheel}


def _install_extra(v, extra):
    """``pip install WHEEL[extra]``: the extra's libraries, as the installed package's metadata declares them."""
    r = _run([*_install_cmd(v["py"]), f"{v['wheel']}[{extra}]"],
             cwd=v["cwd"], env=v["env"])
    assert r.returncode == 0, r.stderr[-2000:]


def _ok(v, *args):
    r = _run([str(v["bin"]), *args], cwd=v["cwd"], env=v["env"])
    assert r.returncode == 0, f"tricksim {' '.join(args)}: exit {r.returncode}\n{r.stderr[-3000:]}"
    return r


def test_help_and_no_generic_top_level_modules(fresh_venv):
    v = fresh_venv
    assert "odds" in _ok(v, "--help").stdout
    for mod in ("cli", "analysis", "kernels"):
        r = _run([str(v["py"]), "-c", f"import {mod}"], cwd=v["cwd"], env=v["env"])
        assert r.returncode != 0 and "ModuleNotFoundError" in r.stderr, f"import {mod} should fail"
    r = _run([str(v["py"]), "-c", "import tricksim.cli, tricksim.analysis.engine, tricksim.kernels.cards"],
             cwd=v["cwd"], env=v["env"])
    assert r.returncode == 0, r.stderr


def test_installed_rules_print_without_the_repository(fresh_venv):
    """``pip install .`` ships docs/RULES.md (package data): the printed section is the checkout's, read from the
    installed package, in a folder that holds no docs/."""
    v = fresh_venv
    out = _ok(v, "rules", "bourre", "--full").stdout
    assert out.startswith("## 3. Bourr") and "tied_only_next_hand" in out and "## 1. Boulmous" not in out
    assert out.strip() == _checkout_section("## 3.")
    assert "tricksim rules bourre --full" in _ok(v, "rules", "bourre").stdout
    r = _run([str(v["py"]), "-c", "import tricksim.cli as c; print(c.RULES_MD)"], cwd=v["cwd"], env=v["env"])
    where = Path(r.stdout.strip())
    assert r.returncode == 0 and where.is_file() and "site-packages" in where.parts, r.stdout + r.stderr


def _checkout_section(head):
    lines = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8").splitlines()
    i = next(k for k, x in enumerate(lines) if x.startswith(head))
    j = next(k for k in range(i + 1, len(lines)) if lines[k].startswith("## "))
    return "\n".join(lines[i:j]).rstrip("-\n ").strip()


def test_package_data_builds_without_a_venv(tmp_path):
    """Fast (no new environment, no network): setuptools' build_py lays out the package as an install does; the
    built tree holds tricksim/docs/RULES.md and trace.md (and the shipped tables, tricksim/analysis/data/), and its
    cli prints the rules from there."""
    src = _copy_project(tmp_path / "src")
    build = tmp_path / "build"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    r = _run([sys.executable, "-c", "import setuptools; setuptools.setup()", "-q", "build_py", "-d", str(build)],
             cwd=src, env=env, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    assert "deprecated" not in r.stderr.lower(), r.stderr[-3000:]
    for name in ("RULES.md", "trace.md"):
        assert (build / "tricksim" / "docs" / name).read_bytes() == (ROOT / "docs" / name).read_bytes()
    shipped = sorted(p.name for p in (ROOT / "analysis" / "data").glob("*") if p.suffix in (".npz", ".json"))
    assert shipped and sorted(p.name for p in (build / "tricksim" / "analysis" / "data").glob("*")
                              if p.suffix in (".npz", ".json")) == shipped     # the tables of tricksim tables
    env["PYTHONPATH"] = str(build)          # ahead of the editable install: the built tree is imported
    code = ("import tricksim.cli as c, sys; print(c.RULES_MD); sys.stdout.flush(); "
            "c.main(['rules', 'boomke-wies', '--full'])")
    r = _run([sys.executable, "-c", code], cwd=tmp_path, env=env, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    first, rest = r.stdout.split("\n", 1)
    assert Path(first) == build / "tricksim" / "docs" / "RULES.md"
    assert rest.strip() == _checkout_section("## 2.")


def _function_local_libraries() -> list[str]:
    """The libraries (top-level names, not tricksim) that some function of the package imports on its own: no
    module-level import reaches them, only the command that calls that function.  An import under a ``try`` that
    catches ImportError (a fallback: ``cli._usage_errors`` takes click's class when typer does not vendor it) is
    not required."""
    out = set()
    for path in FILES:
        for fn in ast.walk(ast.parse(path.read_text())):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            guarded = {id(n) for t in ast.walk(fn) if isinstance(t, ast.Try) and any(
                       isinstance(h.type, ast.Name) and h.type.id in ("ImportError", "ModuleNotFoundError")
                       for h in t.handlers) for n in ast.walk(t)}
            for n in ast.walk(fn):
                if id(n) in guarded:
                    continue
                if isinstance(n, ast.Import):
                    out |= {a.name.split(".")[0] for a in n.names}
                elif isinstance(n, ast.ImportFrom) and not n.level:
                    out.add(n.module.split(".")[0])
    return sorted(out - {"tricksim"})


def _declared_by_extras() -> dict[str, str]:
    """{name a requirement of an extra names (``dask[distributed]`` names dask and distributed): the extra}."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    return {name.lower().replace("-", "_"): extra for extra, reqs in extras.items() if extra != "test"
            for req in reqs for name in re.findall(r"[A-Za-z_][A-Za-z0-9_.-]*", req)}


IMPORT_ALL = ("import importlib, pkgutil, sys, tricksim\n"
              "for m in pkgutil.walk_packages(tricksim.__path__, 'tricksim.'):\n"
              "    try:\n"
              "        importlib.import_module(m.name)\n"
              "        print('ok', m.name)\n"
              "    except ModuleNotFoundError as e:\n"
              "        print('missing', m.name, e.name)\n"
              "for lib in sys.argv[1:]:\n"
              "    try:\n"
              "        importlib.import_module(lib)\n"
              "        print('lib', lib, lib)\n"
              "    except ModuleNotFoundError as e:\n"
              "        print('nolib', lib, e.name)\n")


def test_every_module_imports_with_the_declared_dependencies(fresh_venv):
    """Every module of the installed package imports (no kernel is compiled by an import), but those of the web
    page, which need the ``web`` extra's libraries and nothing else: an import that no dependency declares fails
    here whichever command would reach it.  The libraries imported inside functions (matplotlib, pyarrow, rich,
    optuna ...; tests/test_house.py allows no function-local import of tricksim's own modules) import too, or are
    the libraries of an extra (dask: ``dask``, uvicorn: ``web``): an undeclared one fails here even if no command
    below reaches the function that imports it."""
    v = fresh_venv
    libs = _function_local_libraries()
    assert {"matplotlib", "pyarrow", "rich"} <= set(libs), libs
    r = _run([str(v["py"]), "-c", IMPORT_ALL, *libs], cwd=v["cwd"], env=v["env"])
    assert r.returncode == 0, r.stderr[-3000:]
    rows = [x.split() for x in r.stdout.splitlines()]
    ok = {x[1] for x in rows if x[0] == "ok"}
    missing = {x[1]: x[2] for x in rows if x[0] == "missing"}
    assert len(ok) > 100 and {"tricksim.cli", "tricksim.analysis.studies", "tricksim.kernels.bourre.pimc"} <= ok
    web = {"starlette", "jinja2", "uvicorn"}
    assert all(m.startswith("tricksim.analysis.web.") and lib.split(".")[0] in web
               for m, lib in missing.items()), missing
    assert sorted(x[1] for x in rows if x[0] in ("lib", "nolib")) == libs
    extras = _declared_by_extras()
    undeclared = {lib: err for lib, err in ((x[1], x[2]) for x in rows if x[0] == "nolib")
                  if err.split(".")[0].lower() not in extras}
    assert not undeclared, f"imported inside a function, declared by no dependency nor extra: {undeclared}"


def test_a_kernel_compiles_cold_and_runs_from_the_installed_package(fresh_venv):
    """A game's kernels compile (cold, in this environment's own Numba cache, saying so once) and run from the
    installed package: Boulmous' odds, the cheapest command to compile (its batch odds kernel,
    analysis/compiling.py COLD_SECONDS).  One game's compile stands for the others':
    what an installed package can lack that the checkout has is a module or a package (every module is imported
    above; tests/test_house.py checks that each package is in pyproject.toml), a library (the module-level and the
    function-local imports, above; tricksim's own modules are never imported inside a function, tests/test_house.py)
    or a data file (the rules, the templates and
    the shipped tables, here and in ``test_package_data_builds_without_a_venv``); a kernel's compile itself reads
    none of them, and every kernel compiles and runs in the checkout's tests."""
    v = fresh_venv
    r = _ok(v, "odds", "boulmous", "--hand", "JH JD AH KH 9S TC", "--trump", "H", "--hands", "2000", "-q",
            "--out", str(v["cwd"] / "run-odds"))
    assert "best" in r.stdout.lower()
    assert "compiling the Boulmous kernels for this machine" in r.stderr, r.stderr[-2000:]   # the cold-cache notice
    assert any(Path(v["env"]["NUMBA_CACHE_DIR"]).rglob("*.nbi")), "nothing cached in the environment's Numba cache"


def test_bad_input_is_one_line_exit_2(fresh_venv):
    v = fresh_venv
    r = _run([str(v["bin"]), "odds", "boulmous", "--hand", "JH JD AH KH 9S 2C"], cwd=v["cwd"], env=v["env"])
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "2C" in lines[0], r.stderr


def test_serve_without_the_web_extra_names_it(fresh_venv):
    """``tricksim serve`` needs the ``web`` extra: without it, one line naming the install command, exit code 2."""
    v = fresh_venv
    r = _run([str(v["bin"]), "serve"], cwd=v["cwd"], env=v["env"])
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and "pip install '.[web]'" in lines[0], r.stderr


DD_SOLVE = ("import json, sys; from tricksim.analysis.boomke_wies import dd; "
            "print(json.dumps([dd.__file__, dd.dd_solve(json.loads(sys.argv[1]), threads=1)]))")


def _dd_problems(deals=3, seed=7):
    """Random deals as ``dd_solve`` takes them (four hands' masks, bit 16 * suit + rank), each with a leader and a
    trump suit, with and without the declarer's forced opening in trumps (the main job's two kinds of problem)."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(deals):
        cards = rng.permutation([16 * s + r for s in range(4) for r in range(13)])
        hands = [sum(1 << int(c) for c in cards[13 * h:13 * h + 13]) for h in range(4)]
        leader, trump = int(rng.integers(4)), int(rng.integers(4))
        out += [(hands, leader, trump, trump), (hands, leader, trump, -1)]
    return out


def test_dd_extra_solves_as_the_checkout(fresh_venv):
    """The main job installs the ``dd`` extra for the Boomke Wies double-dummy study: the extra declares endplay,
    which imports now, and the installed package's solver (``dd_solve``, where every call into endplay is: its
    solver, its deal and player types, the thread count) solves random deals, with and without a forced opening,
    as the checkout's does (the test extras hold endplay).  The kernels the study plays its deals with are the
    checkout's tests' (test_boomke_wies); an installed package's kernels compile and run above."""
    v = fresh_venv
    _install_extra(v, "dd")
    dd = sorted(lib for lib, extra in _declared_by_extras().items() if extra == "dd")
    assert dd == ["endplay"], dd
    r = _run([str(v["py"]), "-c", "import importlib, sys; [importlib.import_module(m) for m in sys.argv[1:]]", *dd],
             cwd=v["cwd"], env=v["env"])
    assert r.returncode == 0, r.stderr[-2000:]
    problems = _dd_problems()
    r = _run([str(v["py"]), "-c", DD_SOLVE, json.dumps(problems)], cwd=v["cwd"], env=v["env"])
    assert r.returncode == 0, r.stderr[-2000:]
    where, tricks = json.loads(r.stdout)
    assert "site-packages" in Path(where).parts, where
    assert tricks == boomke_wies.dd_solve(problems) and all(0 <= t <= 13 for t in tricks), tricks


def test_web_extra_ships_the_templates(fresh_venv):
    """After the other tests (which need a venv without it): the ``web`` extra installs, and the page's templates
    are package data of the installed (not editable) package."""
    v = fresh_venv
    _install_extra(v, "web")
    code = ("import jinja2, tricksim.analysis.web.app as a; "
            "env = jinja2.Environment(loader=jinja2.FileSystemLoader(a.TEMPLATES)); "
            "[env.get_template(t) for t in ('base.html', 'index.html', 'odds.html', 'charts.html', 'pot.html', "
            "'result.html', 'controls.html')]; "
            "a.make_app(lambda argv: []); print('site-packages' in str(a.TEMPLATES))")
    r = _run([str(v["py"]), "-c", code], cwd=v["cwd"], env=v["env"])
    assert r.returncode == 0 and r.stdout.strip() == "True", r.stderr[-2000:]
