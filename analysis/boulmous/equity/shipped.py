"""The Boulmous equity arrays shipped in analysis/data/ (``Game.tables``, ``tricksim tables``): the outcome
counts of the tables the main job reads (seed 0, 8,000,000 deals, ``cautious`` in every seat, to 21 and, for
the quick run, to 11) and the calibration of score-aware bidding (4,000,000 deals); the value iteration and
p* are rebuilt from them on first use (seconds, not the minutes of the measurement).  The main job asks for
each table under two keys (``cautious`` as the default heuristic and as the base of a score-aware seat: the
same parameters, two labels), so both are shipped, measured once.  Canaries: 20,000 deals of each kind."""
from __future__ import annotations

from ... import engine
from ...cache import Shipped, key_of
from ...common import make_params
from ...engine import RunOptions
from ..spec import SPEC
from . import outcomes as O
from . import saware as SA
from . import studies as S
from . import table as E

CANARY_DEALS = 20_000
_MEMO: dict = {}


def _counts(kind: str, run, rules, specs, **extra):
    """Measure (or read from the disk cache of this code) the counts of ``run``; ``make`` for ``Shipped``."""
    def make():
        same = (kind, key_of(**{**O.config(kind, rules, specs, **extra), "heuristics": [
            [s.name, {k: float(v) for k, v in s.values}] for s in specs]}))   # the labels change no count
        if same not in _MEMO:
            z = O.load(O.cache_key(kind, rules, specs, **extra))
            _MEMO[same] = z["counts"] if z is not None else RunOptions().execute(run).counts
        return {"counts": _MEMO[same]}, {}
    return make


def _outcomes(name, rules, specs, deals=E.DEALS, canary=False) -> Shipped:
    return Shipped(O.FOLDER, name, O.config("boulmous-outcomes", rules, specs, seed=0, deals=deals), O.CODE,
                   _counts("boulmous-outcomes", S.outcomes_run(0, deals, rules, specs), rules, specs, seed=0,
                           deals=deals), canary)


def _calibration(name, rules, spec, deals=SA.CAL_DEALS, canary=False) -> Shipped:
    specs = [SA.base_spec(spec)] * 4
    run = engine.Run("boulmous.equity_calibration", make_params(SA.CAL_SEED, rules, specs), deals, E.BLOCK)
    return Shipped(O.FOLDER, name, O.config("boulmous-bid-calibration", rules, specs, seed=SA.CAL_SEED, deals=deals),
                   O.CODE, _counts("boulmous-bid-calibration", run, rules, specs, seed=SA.CAL_SEED, deals=deals),
                   canary)


def tables() -> list[Shipped]:
    out = []
    aware = SPEC.parse_heuristic("cautious:score_aware=1")
    for rules, to in ((SPEC.rules(), "21"), (SPEC.rules_from(["target=11"]), "11 (quick)")):
        out += [_outcomes(f"boulmous equity outcomes, to {to}", rules, SPEC.parse_seats(None)),
                _outcomes(f"boulmous equity outcomes, to {to}, score-aware base", rules,
                          [SA.base_spec(aware)] * 4),
                _calibration(f"boulmous bid calibration, to {to}", rules, aware)]
    rules = SPEC.rules()
    return out + [_outcomes("boulmous equity outcomes canary", rules, SPEC.parse_seats(None), CANARY_DEALS, True),
                  _calibration("boulmous bid calibration canary", rules, aware, CANARY_DEALS, True)]
