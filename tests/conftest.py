"""Shared fixtures of the test suite."""
import functools

import pytest


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
