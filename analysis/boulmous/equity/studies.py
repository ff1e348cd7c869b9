"""The equity studies (issue 16): the Boulmous table (measured, cached, built), one state's equity with its
intervals, the heatmap grid, and the check against whole games simulated from sampled states."""
from __future__ import annotations

import threading

import numpy as np
import pandas as pd

from ....kernels.boulmous import equity as KE
from ....kernels.boulmous import no_score_aware
from ... import engine
from ...common import TricksimError, make_params
from ...engine import RunOptions
from ...stats import wilson
from ..config import no_pimc
from ..spec import SPEC
from . import outcomes as O
from . import table as E

_MEMORY: dict = {}
_LOCK = threading.Lock()


def _game():
    return SPEC


def same_heuristic(specs) -> None:
    no_pimc(specs, "equity")
    if len({(s.name, tuple(s.values)) for s in specs}) != 1:
        raise TricksimError("equity tables need one heuristic for every seat (the table pools the four dealers): "
                            "give -H once")


def outcomes_run(seed: int = 0, deals: int = E.DEALS, rules=None, heuristics=None) -> engine.Run:
    """The run that measures the per-deal outcome distribution (``boulmous.equity_outcomes``)."""
    g = _game()
    if deals < 1:
        raise TricksimError(f"--deals must be at least 1, got {deals}")
    specs = no_pimc(g.parse_seats(heuristics), "equity")
    return engine.Run("boulmous.equity_outcomes", make_params(seed, rules or g.rules(), specs),
                      deals, E.BLOCK)


def boulmous_table(seed: int = 0, deals: int = E.DEALS, rules=None, heuristics=None, opts: RunOptions = RunOptions(),
                   floor: int = E.FLOOR, run=None) -> E.Table:
    """The equity table: from memory, the disk cache, or measured (the outcome counts, cached on their
    own, or shipped with tricksim) and built now.  ``source``: "memory", "disk", "built" (from cached counts),
    "shipped" (built from the counts shipped in analysis/data/) or "computed"."""
    g = _game()
    rules = rules or g.rules()
    E.check_rules(rules)
    specs = g.parse_seats(heuristics)
    same_heuristic(specs)
    if floor >= 0:
        raise TricksimError(f"the table's floor must be below 0, got {floor}")
    kt = O.cache_key("boulmous-table", rules, specs, seed=seed, deals=deals, floor=floor)
    with _LOCK:
        if kt in _MEMORY:
            t = _MEMORY[kt]
            t.source = "memory"
            return t
    z = O.load(kt)
    if z is not None:
        dist = O.decode_boulmous(z["counts"], rules)
        t = E.Table(z["V"], dist, rules, floor, float(z["seconds"]), int(z["sweeps"]), "disk")
        counts = z["counts"]
    else:
        kc = O.cache_key("boulmous-outcomes", rules, specs, seed=seed, deals=deals)
        zc = O.load(kc)
        zs = None if zc is not None else O.shipped("boulmous-outcomes", rules, specs, seed=seed, deals=deals)
        if zc is not None:
            counts, source = zc["counts"], "built"
        elif zs is not None:
            counts, source = zs["counts"], "shipped"       # analysis/data/: built now, cached as built
        else:
            counts, source = opts.execute(run or outcomes_run(seed, deals, rules, specs)).counts, "computed"
            O.save(kc, counts=counts)
        t = E.build(O.decode_boulmous(counts, rules), rules, floor)
        t.source = source
        O.save(kt, counts=counts, V=t.V, seconds=np.array(t.seconds), sweeps=np.array(t.sweeps))
    t.counts, t.key = counts, kt              # the raw outcome counts (score-aware bidding decodes the contracts)
    with _LOCK:
        _MEMORY.clear()                       # one table at a time: 76 MB each at target 21
        _MEMORY[kt] = t
    return t


def state_frame(table: E.Table, scores, dealer: int, boxes=(0, 0, 0, 0), intervals: bool = True) -> pd.DataFrame:
    """One row per seat: score, P(win) with its 95% interval, expected money with its half-width."""
    v = table.state(scores, dealer, boxes)
    h = table.interval(scores, dealer) if intervals else np.full(KE.V_LEN, np.nan)
    pw, hw = KE.VALUE.field(v, "win"), KE.VALUE.field(h, "win")
    return pd.DataFrame({"seat": range(4), "score": list(scores), "deals": [s == dealer for s in range(4)],
                         "p_win": pw, "win_lo": np.clip(pw - hw, 0, 1), "win_hi": np.clip(pw + hw, 0, 1),
                         "money": KE.VALUE.field(v, "money"), "money_ci": KE.VALUE.field(h, "money"),
                         "deals_measured": table.dist["n"]})


def heat_grid(table: E.Table, scores, dealer: int, seats=(0, 1), lo: int = 0) -> pd.DataFrame:
    """P(seat ``seats[0]`` wins) over the scores of ``seats`` (``lo`` .. target - 1 each), the others fixed."""
    a, b = seats
    rows = []
    for sa in range(lo, table.target):
        for sb in range(lo, table.target):
            sc = list(scores)
            sc[a], sc[b] = sa, sb
            v = table.state(sc, dealer)
            rows.append({f"score{a}": sa, f"score{b}": sb, "p_win": v[a], "p_win_other": v[b]})
    return pd.DataFrame(rows)


def sample_states(n: int, target: int, seed: int) -> list[tuple[list[int], int]]:
    rng = np.random.default_rng([seed, 16])
    return [(list(rng.integers(0, target, 4)), int(rng.integers(0, 4))) for _ in range(n)]


def check_boulmous(table: E.Table, states: int = 20, games: int = 20_000, seed: int = 0, heuristics=None,
                   table_ci: bool = True) -> pd.DataFrame:
    """Whole games simulated from ``states`` sampled score states (scores 0..target-1, any dealer),
    ``games`` each, on streams of seed + 1 (not the deals the table was measured on), against the table:
    one seat per state (seat i mod 4), ``inside`` when the difference is within 1.96 combined standard
    errors (the simulation's and, with ``table_ci``, the table's)."""
    g = _game()
    specs = g.parse_seats(heuristics)
    kd, kc = g.keys((seed + 1) % 2 ** 64)
    codes, prm = g.heuristic_arrays(specs)
    sa = no_score_aware()
    ra = g.rules_array(table.rules)
    rows = []
    for i, (sc, d) in enumerate(sample_states(states, table.target, seed)):
        a = KE.boulmous_games_from(kd, kc, np.int64(i * games), np.int64(games), ra, codes, prm,
                                   np.array(sc, np.int64), np.int64(d), *sa)
        a = KE.GAMES_FROM.unpack(a)
        n = games - int(a["abandoned"][0])
        s = i % 4
        p, lo, hi = wilson(int(a["wins"][s]), n)
        v = table.state(sc, d)
        ht = table.interval(sc, d)[KE.V_WIN + s] if table_ci else 0.0
        se = np.sqrt(max(float(p) * (1 - float(p)), 1.0 / n) / n + (ht / E.Z) ** 2)
        pt = v[KE.V_WIN + s]
        rows.append({"scores": ",".join(map(str, sc)), "dealer": d, "seat": s, "p_table": pt, "table_ci": ht,
                     "p_sim": float(p), "sim_lo": float(lo), "sim_hi": float(hi), "games": n,
                     "inside": abs(pt - float(p)) <= E.Z * se,
                     "money_table": v[KE.V_MONEY + s], "money_sim": a["stakes"][s] / n})
    return pd.DataFrame(rows)
