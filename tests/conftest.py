"""Shared fixtures of the test suite."""
import atexit
import functools
import gc
import os
import sys

import pytest


def pytest_configure(config):
    """``TRICKSIM_TEST_CPU=FOLDER``: record each test's CPU seconds there (tests/cputime.py).  A pytest-xdist
    worker ends without the interpreter's teardown (``_worker_exit``).  The collector runs at the thresholds of
    Numba's compilations."""
    folder = os.environ.get("TRICKSIM_TEST_CPU")
    if folder:
        from cputime import Recorder
        config.pluginmanager.register(Recorder(folder), "tricksim-cputime")
    if hasattr(config, "workerinput"):      # this process is a pytest-xdist worker (not a pytest a test starts)
        atexit.register(_worker_exit)
    # Python's collector in a test process runs throughout at the thresholds Numba's compilations run at
    # (kernels/compilegc.py), not Python's (700, 10, 10): a test process holds every kernel it compiled or loaded
    # (Numba's IR, types, libraries), and each full collection scans all of it.  In a full-tier run (2026-11-28,
    # gc.callbacks) the two workers spent 35 and 22 CPU s collecting outside the compilations, in 32 and 30 full
    # collections; with these thresholds 16 and 10, in 3 and 2
    from tricksim.kernels.compilegc import THRESHOLDS
    gc.set_threshold(*THRESHOLDS)


def pytest_sessionfinish(session):
    """A pytest-xdist worker's tests are done: every object it holds is frozen out of the collector's reach
    (``gc.freeze``), so the full collection pytest runs at its end (to report exceptions raised in ``__del__``) scans
    only what is made after this.  In a full-tier run (2026-11-28) that collection kept the last worker 7 s on a
    heap of compiled kernels; it finds garbage of the tests' own only if the collector never ran after it was made."""
    if hasattr(session.config, "workerinput"):
        gc.freeze()


def _worker_exit():
    """The last step of a worker: its results are with the controller, which computes the run's outcome and exit
    code (tests/test_tiers.py: a failing test fails the command under workers); the exit handlers registered after
    this one have run.  ``os._exit`` skips the interpreter's teardown, which frees every module and object one by
    one, Numba's compiled kernels among them: in a full-tier run (2026-11-28) the controller waited 7 s after the
    workers' exit handlers for the two processes to end, CPU seconds that change nothing (analysis/common.py
    ``exit_now`` does the same for the command line)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(0)


# The full tier's longest files (CPU seconds on a fresh clone, every kernel compiled cold: tests/cputime.py), longest
# first.  scripts/test.sh hands each file to one worker (--dist loadfile) in collection order (--no-loadscope-reorder:
# not pytest-xdist's own order, by the count of tests, which left these few-test files for the end), so the longest
# start first and the short ones fill in behind them on both workers.
LONGEST_FIRST = ("test_report_more.py", "test_report_charts.py", "test_report.py", "test_install.py",
                 "test_kernel_declarations.py", "test_chart.py", "test_bourre_ev.py", "test_pimc_bourre_decide.py",
                 "test_trace_explain.py", "test_solver_boulmous.py", "test_explain.py", "test_bourre.py", "test_web.py",
                 "test_cli_errors.py")


def pytest_collection_modifyitems(session, config, items):
    """The files of ``LONGEST_FIRST`` first, in its order; the others after them, as collected (the tests of a
    file keep their order)."""
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))


@functools.lru_cache(maxsize=64)
def _boulmous_trace(seed, hands, rules_items, heuristic, with_legal, first):
    from tricksim.analysis.boulmous import BoulmousRules, trace

    return trace(seed, hands, rules=BoulmousRules(**dict(rules_items)), heuristics=[heuristic],
                 with_legal=with_legal, first=first)


@pytest.fixture(scope="session")
def boulmous_trace():
    """``boulmous_trace(seed, hands, rules: dict, heuristic, with_legal=True, first=0)``:
    Boulmous trace dicts, cached for the session (do not mutate them)."""
    def get(seed, hands, rules=None, heuristic="random", with_legal=True, first=0):
        return _boulmous_trace(seed, hands, tuple(sorted((rules or {}).items())), heuristic, with_legal, first)
    return get


@pytest.fixture(scope="session", autouse=True)
def _bourre_ev_cache(tmp_path_factory):
    """Bourre's ev tables (analysis/bourre/ev.py) are trained into a cache of this test session, never
    the user's (``$TRICKSIM_CACHE``).  Under pytest-xdist (scripts/test.sh's full tier) the workers of one run
    share it, as the tests of one process do: a table one worker trained is not trained again by the other (the
    cache writes each file whole, under a name of its own, then renames it: two writers never mix)."""
    import os
    old = os.environ.get("TRICKSIM_CACHE")
    if os.environ.get("PYTEST_XDIST_WORKER"):   # each worker's base folder sits in the run's own folder
        cache = tmp_path_factory.getbasetemp().parent / "ev-cache"
        cache.mkdir(exist_ok=True)
    else:
        cache = tmp_path_factory.mktemp("ev-cache")
    os.environ["TRICKSIM_CACHE"] = str(cache)
    yield
    if old is None:
        os.environ.pop("TRICKSIM_CACHE", None)
    else:
        os.environ["TRICKSIM_CACHE"] = old
