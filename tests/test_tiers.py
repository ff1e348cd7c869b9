"""The fast tier (``scripts/test.sh --fast``: tests marked ``fast`` and not ``slow``) covers what an edit must not break:
every game's referee agreement (a module that imports the game's referee, ``tests/ref_<game>.py``), bad input through
the CLI, the layout of the house and the statistics.  Read from the test modules' source, not by running them."""
import ast
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent

pytestmark = pytest.mark.fast   # the fast tier (scripts/test.sh --fast)


def _fast_modules():
    out = {}
    for f in sorted(TESTS.glob("test_*.py")):
        tree = ast.parse(f.read_text())
        fast = any(isinstance(n, ast.Assign) and any(getattr(t, "id", "") == "pytestmark" for t in n.targets)
                   and "fast" in ast.unparse(n.value) for n in tree.body)
        if fast:
            imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
            imported |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
            out[f.stem] = imported
    return out


@pytest.mark.parametrize("game", ["boulmous", "boomke_wies", "bourre"])
def test_fast_tier_checks_every_game_against_its_referee(game):
    fast = _fast_modules()
    users = [m for m, imp in fast.items() if f"ref_{game}" in imp]
    assert users, f"no fast test module imports tests/ref_{game}.py"


def test_fast_tier_holds_bad_input_layout_and_statistics():
    fast = _fast_modules()
    for m in ("test_cli_errors", "test_house", "test_stats", "test_golden", "test_tiers"):
        assert m in fast, m


def test_test_command_has_the_fast_switch():
    script = (TESTS.parent / "scripts" / "test.sh").read_text()
    assert '"--fast"' in script and '-m "fast and not slow"' in script
