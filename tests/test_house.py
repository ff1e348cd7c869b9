"""The house, checked on the source (issue 24): the game is the unit on both floors and nothing loops.

Every ``.py`` of kernels/, analysis/ and cli.py is parsed with ``ast``; every import statement (at module
level or inside a function, absolute or relative) is resolved to a tricksim module.

- no import loop anywhere in the package;
- floors: kernels never import the floors above; analysis never imports the CLI;
- games: a module of ``analysis/<game>/`` imports only its own game's modules, the shared modules below the
  games (``SHARED``) and the kernels, never the registry, another game or a cross-game feature; a shared module
  never imports a game or a feature (the features reach the games through ``Game`` members);
- function-local imports only of the heavy optional libraries (matplotlib, through ``analysis/plots.py``;
  dask, endplay, optuna, pyarrow, rich), never of tricksim's own modules;
- no analysis file over 400 lines (the kernels' budgets are in test_kernel_layout.py).
(That every module imports alone, first, in a fresh interpreter is tests/test_imports.py.)
"""
import pytest

from importgraph import MODULES, PKG, ROOT
from importgraph import cycles as _cycles
from importgraph import graph as _graph
from importgraph import imports as _imports

pytestmark = pytest.mark.fast   # the fast tier (scripts/test.sh --fast)
GAMES = ("boulmous", "boomke_wies", "bourre")
SHARED = {"tricksim.analysis", "tricksim.analysis.common", "tricksim.analysis.stats", "tricksim.analysis.quantiles",
          "tricksim.analysis.output", "tricksim.analysis.plots", "tricksim.analysis.engine",
          "tricksim.analysis.runfolder", "tricksim.analysis.progress", "tricksim.analysis.game",
          "tricksim.analysis.seating", "tricksim.analysis.cache", "tricksim.analysis.play_kinds",
          "tricksim.analysis.compiling", "tricksim.analysis.pages", "tricksim.analysis.explain"}
"""The modules below the games: what every game may use."""
LAZY_OK = ("matplotlib", "dask", "distributed", "endplay", "optuna", "pyarrow", "rich", "typer", "click",
           "tricksim.analysis.plots", "starlette", "jinja2", "uvicorn", "tricksim.analysis.web.app")
"""What a function may import on its own (heavy optional libraries; plots.py loads matplotlib; the web extra's
libraries, through analysis/web/app.py, loaded by ``tricksim serve`` alone)."""
ANALYSIS_BUDGET = 400


def _game_of(mod: str):
    parts = mod.split(".")
    return parts[2] if len(parts) > 2 and parts[1] == "analysis" and parts[2] in GAMES else None


def test_the_reader_sees_the_whole_package():
    g = _graph()
    assert "tricksim.cli" in g and "tricksim.analysis.registry" in g["tricksim.cli"]
    for game in GAMES:
        assert f"tricksim.analysis.{game}.spec" in g and f"tricksim.kernels.{game}" in g
        assert f"tricksim.analysis.{game}.spec" in g[f"tricksim.analysis.{game}"]
    assert set(g["tricksim.analysis.registry"]) >= {f"tricksim.analysis.{x}" for x in GAMES}
    assert sum(len(v) for v in g.values()) > 300


def test_the_reader_finds_loops_and_resolves_relative_imports(tmp_path):
    assert _cycles({"a": ["b"], "b": ["c"], "c": ["a"], "d": ["a"]}) == [["a", "b", "c"]]
    assert _cycles({"a": ["b"], "b": [], "c": ["c"]}) == [["c"]]
    # a relative import two levels up, inside a function, is read as such
    src = "def f():\n    from ..stats import wilson\n"
    p = tmp_path / "x.py"
    p.write_text(src)
    MODULES["tricksim.analysis.bourre.zz_probe"] = p
    try:
        assert list(_imports("tricksim.analysis.bourre.zz_probe")) == [("tricksim.analysis.stats", 2, True)]
    finally:
        del MODULES["tricksim.analysis.bourre.zz_probe"]


def test_no_import_loop_anywhere():
    loops = _cycles(_graph())
    assert not loops, "import loops (function-local imports counted): " + "; ".join(" <-> ".join(c) for c in loops)


@pytest.mark.parametrize("mod", sorted(MODULES))
def test_each_module_stays_on_its_floor(mod):
    """Kernels import no analysis; analysis never the CLI; a game only itself, the shared modules and the
    kernels; a shared module no game and no feature."""
    game = _game_of(mod)
    bad = []
    for target, line, _ in _imports(mod):
        if not target.startswith(PKG + ".") or target == mod:
            continue
        where = f"{target} (line {line})"
        if mod.startswith("tricksim.kernels") and not target.startswith("tricksim.kernels"):
            bad.append(where)
        elif mod.startswith("tricksim.analysis") and target == "tricksim.cli":
            bad.append(where)
        elif game is not None and target.startswith("tricksim.analysis"):
            own = target == f"tricksim.analysis.{game}" or target.startswith(f"tricksim.analysis.{game}.")
            if not own and target not in SHARED:
                bad.append(where + ": a game imports only itself and the shared modules")
        elif mod in SHARED and target.startswith("tricksim.analysis") and target not in SHARED:
            bad.append(where + ": a shared module imports a game or a cross-game feature")
    assert not bad, f"{mod} imports {', '.join(bad)}"


@pytest.mark.parametrize("mod", sorted(MODULES))
def test_function_local_imports_only_for_heavy_optional_libraries(mod):
    bad = [f"{t} (line {line})" for t, line, local in _imports(mod)
           if local and t.startswith(PKG + ".") and not t.startswith(LAZY_OK)]
    assert not bad, f"{mod} imports inside a function: {', '.join(bad)}"


ANALYSIS_FILES = sorted((ROOT / "analysis").rglob("*.py"))


@pytest.mark.parametrize("path", ANALYSIS_FILES, ids=[p.relative_to(ROOT).as_posix() for p in ANALYSIS_FILES])
def test_analysis_file_within_its_line_budget(path):
    n = len(path.read_text().splitlines())
    assert n <= ANALYSIS_BUDGET, f"{path.relative_to(ROOT)}: {n} lines, over the budget of {ANALYSIS_BUDGET}"


def test_the_games_are_found_only_through_the_registry():
    """The shared modules and the games never name the registry; the features that do are the ones above."""
    users = sorted(m for m, deps in _graph().items() if "tricksim.analysis.registry" in deps)
    assert all(_game_of(m) is None and m not in SHARED for m in users), users


def test_every_package_is_installed():
    """setuptools' explicit ``packages`` list (pyproject.toml) names every package of the tree, so an installed
    (not editable) tricksim has them all (analysis/boulmous/equity/ once was missing: only a fresh install saw it)."""
    import tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    packages = {m for m, p in MODULES.items() if p.name == "__init__.py"}
    assert packages <= listed, f"not in pyproject.toml's packages: {sorted(packages - listed)}"
