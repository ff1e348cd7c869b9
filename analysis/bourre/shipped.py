"""The ``ev`` tables Bourre ships in analysis/data/ (``Game.tables``, ``tricksim tables``): the one the main job
reads (default rules, a table of 7, ``ev``'s defaults: 5 iterations of fictitious play, about 30 s on two
cores, after about 6 minutes compiling the training kernel on a fresh machine, which the main job no longer
needs), the same at a table of 5 (the strength ladder's tournament, ``tricksim report --only ladder``, which
would otherwise compile the training kernel and train it) and a canary (a table of 4 trained on a few hundred
short sessions: seconds once compiled)."""
from __future__ import annotations

from ..cache import Shipped
from . import ev
from .config import DEFAULT_PLAYERS, BourreRules
from .spec import SPEC

CANARY = "ev:train_sessions=300,train_deals=30,train_seed=7"   # not the tests' own small tables (those train)
LADDER_PLAYERS = 5      # the strength ladder's Bourre tournament (analysis/bourre/__init__.py ``Ladder``): ev an entrant


def _make(rules, players: int, spec):
    def make():
        gen = ev.prepare(rules, players, spec, shipped=False)      # trained now, or the disk cache of this code
        while True:
            try:
                next(gen)
            except StopIteration as stop:
                t = stop.value
                break
        return ({"table": t.table, "counts": t.counts},
                {"history": t.history, "converged": t.converged, "seconds": round(t.seconds, 1)})
    return make


def _table(name: str, players: int, text: str, canary: bool = False) -> Shipped:
    rules, spec = BourreRules(), SPEC.parse_seats([text], players)[0]
    return Shipped("bourre-ev", name, ev.table_config(rules, players, spec), ev.TABLE_CODE_HASH,
                   _make(rules, players, spec), canary)


def tables() -> list[Shipped]:
    return [_table(f"bourre ev, {DEFAULT_PLAYERS} players", DEFAULT_PLAYERS, "ev"),
            _table(f"bourre ev, {LADDER_PLAYERS} players (the ladder's)", LADDER_PLAYERS, "ev"),
            _table("bourre ev canary, 4 players", 4, CANARY, canary=True)]
