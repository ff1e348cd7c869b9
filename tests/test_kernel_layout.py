"""The kernel floor's layout, checked on the source: every kernels/**/*.py parsed with ``ast``, its imports
(module-level and function-local) resolved to kernel modules.

- no import loop among the kernel modules (a loop fails whichever module is imported first);
- no kernel module imports the floors above (``tricksim.analysis``, ``tricksim.cli``), and no game package
  imports another game's (a game reaches only the shared modules at kernels/ top and its own package);
- no kernel file over its line budget: 750 lines, the two open-hand solvers 950;
- every kernel module imports on its own in a fresh interpreter.
"""
import pytest

from importgraph import MODULES as ALL_MODULES
from importgraph import ROOT
from importgraph import cycles as _cycles
from importgraph import imports as all_imports
from test_imports import import_each_alone

KERNELS = ROOT / "kernels"
PKG = "tricksim.kernels"
FILES = sorted(KERNELS.rglob("*.py"))
BUDGET = 750
SOLVER_BUDGET = 950
SOLVERS = {"bourre/solver.py", "boulmous/solver.py"}


MODULES = {m: p for m, p in ALL_MODULES.items() if m == PKG or m.startswith(PKG + ".")}


def _is_package(mod: str) -> bool:
    return MODULES[mod].name == "__init__.py"


def _imports(mod: str):
    """(imported module, line) for every import statement of ``mod`` (tests/importgraph.py)."""
    return ((t, line) for t, line, _ in all_imports(mod))


def _graph():
    return {m: sorted({t for t, _ in _imports(m) if t in MODULES and t != m}) for m in MODULES}


def test_the_reader_sees_every_kernel_module_and_their_imports():
    """The graph is not empty by accident: the game packages and their phase modules are there, and the
    sampling players' known edges are read (Bourré's play reaches its sampling player, which uses the solver)."""
    g = _graph()
    for game in ("bourre", "boulmous", "boomke_wies"):
        assert f"{PKG}.{game}" in g and f"{PKG}.{game}.rules" in g
    assert f"{PKG}.bourre.pimc" in g[f"{PKG}.bourre.play"]
    assert f"{PKG}.bourre.solver" in g[f"{PKG}.bourre.pimc"]
    assert sum(len(v) for v in g.values()) > 50


def test_no_import_loop_among_kernel_modules():
    loops = _cycles(_graph())
    assert not loops, "import loops among kernel modules: " + "; ".join(" <-> ".join(c) for c in loops)


def test_the_reader_finds_a_loop():
    """The cycle finder itself, on a small graph with a loop through a function-local import."""
    assert _cycles({"a": ["b"], "b": ["c"], "c": ["a"], "d": ["a"]}) == [["a", "b", "c"]]
    assert _cycles({"a": ["b"], "b": [], "c": ["c"]}) == [["c"]]


@pytest.mark.parametrize("mod", sorted(MODULES))
def test_kernels_stay_on_their_floor_and_games_apart(mod):
    """Kernels never import the floors above; a game's modules import the shared modules at kernels/ top
    and their own game's modules, never another game's."""
    parts = mod.split(".")
    game = parts[2] if len(parts) > 2 and _is_package(f"{PKG}.{parts[2]}") else None
    bad = []
    for target, line in _imports(mod):
        if target.startswith(("tricksim.analysis", "tricksim.cli")):
            bad.append(f"{target} (line {line})")
        elif target.startswith(PKG + ".") and target in MODULES:
            tgame = target.split(".")[2]
            if _is_package(f"{PKG}.{tgame}") and tgame != game:
                bad.append(f"{target} (line {line}: another game)")
            if game is None and _is_package(f"{PKG}.{tgame}"):
                bad.append(f"{target} (line {line}: a shared module importing a game)")
    assert not bad, f"{mod} imports {', '.join(bad)}"


@pytest.mark.parametrize("path", FILES, ids=[p.relative_to(KERNELS).as_posix() for p in FILES])
def test_kernel_file_within_its_line_budget(path):
    rel = path.relative_to(KERNELS).as_posix()
    budget = SOLVER_BUDGET if rel in SOLVERS else BUDGET
    n = len(path.read_text().splitlines())
    assert n <= budget, f"kernels/{rel}: {n} lines, over its budget of {budget}"


def test_the_old_single_file_modules_are_gone():
    for old in ("bourre", "solve_bourre", "pimc_bourre", "odds_bourre", "boulmous", "solve_boulmous",
                "pimc_boulmous", "boomke_wies", "equity"):
        assert not (KERNELS / f"{old}.py").exists(), f"kernels/{old}.py is back beside the game packages"


@pytest.fixture(scope="module")
def imported_alone():
    """{kernel module: the error of importing it first ("" = fine)}: one interpreter loads the third-party libraries
    only, then forks one process per module, each with no tricksim module loaded (tests/test_imports.py), instead of
    one new interpreter (and numba's start-up) per module."""
    return import_each_alone(sorted(MODULES))


@pytest.mark.parametrize("mod", sorted(MODULES))
def test_each_kernel_module_imports_alone(mod, imported_alone):
    """Imported first, alone (so no earlier import can hide a loop or a missing one)."""
    assert imported_alone[mod] == "", f"import {mod} fails alone:\n{imported_alone[mod][-3000:]}"


def test_every_kernel_package_is_installed():
    """setuptools' explicit ``packages`` list (pyproject.toml) names every kernel sub-package, so an
    installed (not editable) tricksim has them all."""
    import tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    packages = {m for m in MODULES if _is_package(m)}
    assert packages <= listed, f"not in pyproject.toml's packages: {sorted(packages - listed)}"


# Bourre's deal-level steps (the antes, the settlement, the next deal, a session's start and deal) are inlined
# (``inline="always"``) into the per-deal loops: compiled once and called, they left the instructions per deal almost
# unchanged but cost the clock 25-35% (4 players 2.70 -> 3.63 M deals/s, 7 players 1.63 -> 2.03 M, one thread), and
# since Numba's inliner copies with one memo (kernels/inlining.py) inlining them costs the cold compile little
# (docs/performance.md, "Speed").  The ev player's table lookups stay compiled once and called: only ev seats reach
# them.  The per-card and per-seat steps (legality, the players' card choice, the declaration) stay inlined: the play
# was 10% slower with the declaration compiled once, and twice as slow with nothing inlined.  Boomke Wies: the
# auction's quick test of a certain thirteen (sure_thirteen, aces_of_its_suits) is inlined and its full test
# (thirteen_certain) compiled once, called for about 3 hands in 1,000 (docs/performance.md, "Speed").
COMPILED_ONCE = {"bourre/players.py": {"ev_kept_class", "ev_cell", "ev_discard", "ev_gain", "ev_gain_var",
                                       "ev_best"},
                 "boomke_wies/players.py": {"thirteen_certain"}}
STAY_INLINED = {"bourre/draw.py": {"declare", "draw_declared"}, "bourre/players.py": {"choose_card", "choose_discard"},
                "bourre/rules.py": {"legal_cards", "legal_follow"},
                "bourre/play.py": {"settle", "post_antes", "next_deal"},
                "bourre/sessions.py": {"session_start", "session_deal"},
                "boomke_wies/players.py": {"sure_thirteen", "aces_of_its_suits"}}


def _inline_always(rel: str) -> dict[str, bool]:
    import ast

    out = {}
    for node in ast.walk(ast.parse((KERNELS / rel).read_text())):
        if isinstance(node, ast.FunctionDef):
            out[node.name] = any(isinstance(d, ast.Call) and any(
                k.arg == "inline" and getattr(k.value, "value", None) == "always" for k in d.keywords)
                for d in node.decorator_list)
    return out


@pytest.mark.fast
def test_deal_level_steps_are_compiled_once_and_card_steps_inlined():
    for rel, names in COMPILED_ONCE.items():
        flags = _inline_always(rel)
        assert all(n in flags and not flags[n] for n in names), (rel, {n: flags.get(n) for n in names})
    for rel, names in STAY_INLINED.items():
        flags = _inline_always(rel)
        assert all(flags.get(n) for n in names), (rel, {n: flags.get(n) for n in names})
