"""The Boomke Wies equity counts shipped in analysis/data/ (``Game.tables``, ``tricksim tables``): the per-deal
counts the main job's match equity reads (seed 0, 4,000,000 deals, the default heuristic) and a canary (20,000
deals)."""
from __future__ import annotations

from ..cache import Shipped, key_of, load
from ..engine import RunOptions
from . import equity as B
from .spec import SPEC

CANARY_DEALS = 20_000


def _counts(name: str, deals: int, canary: bool = False) -> Shipped:
    rules, specs = SPEC.rules(), SPEC.parse_seats(None)
    cfg = B.config(0, deals, rules, specs)

    def make():
        z = load("equity", key_of(**cfg, code=B.CODE))      # the disk cache of this code, or measured now
        return {"counts": z["counts"] if z is not None else
                RunOptions().execute(B.outcomes_run(0, deals, rules, specs)).counts}, {}
    return Shipped("equity", name, cfg, B.CODE, make, canary)


def tables() -> list[Shipped]:
    return [_counts("boomke wies equity outcomes", B.DEALS), _counts("boomke wies equity canary", CANARY_DEALS, True)]
