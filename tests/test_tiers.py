"""The fast tier (``scripts/test.sh --fast``: tests marked ``fast`` and not ``slow``) covers what an edit must not break:
every game's referee agreement (a module that imports the game's referee, ``tests/ref_<game>.py``), bad input through
the CLI, the layout of the house and the statistics.  Read from the test modules' source, not by running them."""
import ast
import functools
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent

pytestmark = pytest.mark.fast   # the fast tier (scripts/test.sh --fast)


@functools.lru_cache(maxsize=1)   # every test module parsed once a run, not once per test
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


def _pytest_args(*args, **env):
    """What scripts/test.sh would hand pytest for these arguments (TRICKSIM_TEST_ECHO=1: nothing installed or run)."""
    import os
    import subprocess
    e = {k: v for k, v in os.environ.items() if k != "TRICKSIM_TEST_WORKERS"}
    e.update(TRICKSIM_TEST_ECHO="1", **env)
    r = subprocess.run(["bash", str(TESTS.parent / "scripts" / "test.sh"), *args], env=e, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return r.stdout.splitlines()


def _cores():
    import os
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


def test_full_tier_runs_one_worker_per_core_each_file_on_one_worker():
    n = _cores()
    want = ["-n", str(n), "--dist", "loadfile", "--no-loadscope-reorder", "-rs"] if n > 1 else ["-rs"]
    assert _pytest_args("-rs") == want           # what CI passes
    assert _pytest_args("-rs", OMP_NUM_THREADS="1", OMP_THREAD_LIMIT="1") == want   # set by a Dask cluster, not ours
    assert _pytest_args("-rs", TRICKSIM_TEST_WORKERS="1") == ["-rs"]
    assert _pytest_args(TRICKSIM_TEST_WORKERS="99")[:2] == (["-n", str(n)] if n > 1 else [])   # never past the cores


def test_the_longest_files_are_collected_first():
    """Under the workers the files start in collection order (--no-loadscope-reorder above): conftest.py puts the
    longest first; each name it lists is a test file."""
    import conftest
    assert len(set(conftest.LONGEST_FIRST)) == len(conftest.LONGEST_FIRST)
    assert all((TESTS / name).is_file() for name in conftest.LONGEST_FIRST)


def test_fast_tier_runs_on_the_same_workers_and_explicit_worker_counts_are_kept():
    n = _cores()
    workers = ["-n", str(n), "--dist", "loadfile", "--no-loadscope-reorder"] if n > 1 else []
    assert _pytest_args("--fast", "-x") == workers + ["-m", "fast and not slow", "-x"]
    assert _pytest_args("--fast", TRICKSIM_TEST_WORKERS="1") == ["-m", "fast and not slow"]
    assert _pytest_args("-n", "1", "-k", "stats") == ["-n", "1", "-k", "stats"]
    assert _pytest_args("-p", "no:xdist") == ["-p", "no:xdist"]


def test_the_test_extra_brings_the_workers():
    import tomllib
    extra = tomllib.loads((TESTS.parent / "pyproject.toml").read_text())["project"]["optional-dependencies"]["test"]
    assert any(d.startswith("pytest-xdist") for d in extra), extra


@pytest.mark.slow   # left out of the fast tier: starts two pytest workers (a few seconds)
def test_a_failing_test_fails_the_command_under_workers(tmp_path):
    """Through scripts/test.sh with two workers, a failing test makes the command fail and -rs still reports skips."""
    import os
    import subprocess
    (tmp_path / "test_one.py").write_text(
        "import os\nimport pytest\n\ndef test_fails():\n    assert 1 == 2\n\n"
        "def test_skips():\n    pytest.skip('said why')\n\ndef test_passes():\n    pass\n\n"
        "def test_idle_openmp_threads_sleep_under_workers():\n"      # they would spin on the other worker's core
        "    if os.environ.get('PYTEST_XDIST_WORKER'):\n"
        "        assert os.environ.get('OMP_WAIT_POLICY') == 'passive'\n")
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    env["TRICKSIM_TEST_WORKERS"] = "2"
    r = subprocess.run(["bash", str(TESTS.parent / "scripts" / "test.sh"), "-rs", "-p", "no:cacheprovider",
                        str(tmp_path / "test_one.py")], env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 1, r.stdout[-2000:] + r.stderr[-2000:]
    assert "1 failed, 2 passed, 1 skipped" in r.stdout and "said why" in r.stdout, r.stdout[-2000:]
    if _cores() > 1:
        assert "2 workers" in r.stdout, r.stdout[-2000:]
