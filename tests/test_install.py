"""A fresh virtual environment, the project installed as a user installs it (``pip install .``, not
editable, no extras): the ``tricksim`` command must work with the declared dependencies alone.

An import that no dependency declares (``import click`` once slipped in because the test extras
happened to pull it in) fails here: every module of the installed package is imported, and one simulating command
per game compiles and runs its kernels.  The same environment then gets the ``dd`` extra and runs the
double-dummy path of the main job.  The rules (docs/RULES.md) are installed with the package:
``tricksim rules GAME --full`` prints them without the repository.  Nothing generic is installed at the top level: ``import cli``,
``import analysis`` and ``import kernels`` fail there.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

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


@pytest.fixture(scope="module")
def fresh_venv(tmp_path_factory):
    base = tmp_path_factory.mktemp("fresh")
    src = _copy_project(base / "src")
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    py = venv / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "NUMBA_CACHE_DIR")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["NUMBA_CACHE_DIR"] = str(base / "numba-cache")  # cold, like a new machine
    r = _run([str(py), "-m", "pip", "install", "--quiet", str(src)], cwd=base, env=env)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    work = base / "work"  # an unrelated folder: nothing of the repository on sys.path
    work.mkdir()
    return {"py": py, "bin": venv / "bin" / "tricksim", "env": env, "cwd": work, "src": src}


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


def test_every_module_imports_with_the_declared_dependencies(fresh_venv):
    """Every module of the installed package imports (no kernel is compiled by an import), but those of the web
    page, which need the ``web`` extra's libraries and nothing else: an import that no dependency declares fails
    here whichever command would reach it."""
    v = fresh_venv
    code = ("import importlib, pkgutil, tricksim\n"
            "for m in pkgutil.walk_packages(tricksim.__path__, 'tricksim.'):\n"
            "    try:\n"
            "        importlib.import_module(m.name)\n"
            "        print('ok', m.name)\n"
            "    except ModuleNotFoundError as e:\n"
            "        print('missing', m.name, e.name)\n")
    r = _run([str(v["py"]), "-c", code], cwd=v["cwd"], env=v["env"])
    assert r.returncode == 0, r.stderr[-3000:]
    rows = [x.split() for x in r.stdout.splitlines()]
    ok = {x[1] for x in rows if x[0] == "ok"}
    missing = {x[1]: x[2] for x in rows if x[0] == "missing"}
    assert len(ok) > 100 and {"tricksim.cli", "tricksim.analysis.studies", "tricksim.kernels.bourre.pimc"} <= ok
    web = {"starlette", "jinja2", "uvicorn"}
    assert all(m.startswith("tricksim.analysis.web.") and lib.split(".")[0] in web
               for m, lib in missing.items()), missing


def test_one_simulating_command_per_game(fresh_venv):
    """Each game's kernels compile (cold, in this environment's own Numba cache) and run from the installed package.
    The cheapest command of each game to compile (Boulmous' and Boomke Wies' odds: their batch odds kernel,
    Bourre's pot: its sessions kernel, analysis/compiling.py COLD_SECONDS); the trace commands' output is tested in
    the checkout (tests/test_trace_explain.py and each game's referee tests), and their imports above."""
    v = fresh_venv
    r = _ok(v, "odds", "boulmous", "--hand", "JH JD AH KH 9S TC", "--trump", "H", "--hands", "2000", "-q",
            "--out", str(v["cwd"] / "run-odds"))
    assert "best" in r.stdout.lower()
    r = _ok(v, "odds", "boomke-wies", "--hand", BOOMKE_HAND, "--hands", "2000", "-q",
            "--out", str(v["cwd"] / "run-odds-bw"))
    assert "Best call per position" in r.stdout, r.stdout[-2000:]
    r = _ok(v, "pot", "--players", "4", "--sessions", "20", "--deals", "10", "--seed", "1", "--quiet",
            "--out", str(v["cwd"] / "run-pot"))
    assert "bourre per deal" in r.stdout and "200 deals" in r.stdout, r.stdout[-2000:]


BOOMKE_HAND = "AS KS QS JS 9S 7S AH KH 4H AD 3D 5C 2C"


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


def test_dd_extra_main_job_path(fresh_venv):
    """The main job installs the ``dd`` extra for the Boomke Wies double-dummy bound."""
    v = fresh_venv
    r = _run([str(v["py"]), "-m", "pip", "install", "--quiet", f"{v['src']}[dd]"], cwd=v["cwd"], env=v["env"])
    assert r.returncode == 0, r.stderr[-2000:]
    r = _ok(v, "odds", "boomke-wies", "--double-dummy", "--dd-deals", "4", "--hands", "2000", "-q",
            "--out", str(v["cwd"] / "run-dd"))
    assert "double" in r.stdout.lower()


def test_web_extra_ships_the_templates(fresh_venv):
    """After the other tests (which need a venv without it): the ``web`` extra installs, and the page's templates
    are package data of the installed (not editable) package."""
    v = fresh_venv
    r = _run([str(v["py"]), "-m", "pip", "install", "--quiet", f"{v['src']}[web]"], cwd=v["cwd"], env=v["env"])
    assert r.returncode == 0, r.stderr[-2000:]
    code = ("import jinja2, tricksim.analysis.web.app as a; "
            "env = jinja2.Environment(loader=jinja2.FileSystemLoader(a.TEMPLATES)); "
            "[env.get_template(t) for t in ('base.html', 'index.html', 'odds.html', 'charts.html', 'pot.html', "
            "'result.html', 'controls.html')]; "
            "a.make_app(lambda argv: []); print('site-packages' in str(a.TEMPLATES))")
    r = _run([str(v["py"]), "-c", code], cwd=v["cwd"], env=v["env"])
    assert r.returncode == 0 and r.stdout.strip() == "True", r.stderr[-2000:]
