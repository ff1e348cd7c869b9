"""Boomke Wies tables, formatted once: each function turns a study's numbers into the DataFrame of
strings that the terminal (``output.show``) and the headline markdown (``output.markdown_table``)
both print, so a table reads the same wherever it appears."""
from __future__ import annotations

import pandas as pd

from ..output import no_interval, pct, pm


def contracts_table(res) -> pd.DataFrame:
    """How auctions end: each contract's share of the deals, how often it is made, the declaring
    team's mean tricks."""
    t = res["contracts"]
    return pd.DataFrame({"contract": t.contract,
                         "share [95% CI]": [pct(a, b, c, 2) for a, b, c in zip(t.freq, t.freq_lo, t.freq_hi)],
                         "deals": [f"{x:,}" for x in t.declared],
                         "made [95% CI]": [pct(a, b, c) for a, b, c in zip(t.p_made, t.made_lo, t.made_hi)],
                         "E[team tricks]": ["-" if d == 0 else pm(m, h, 2, sign=False, missing=no_interval(d))
                                            for d, m, h in zip(t.declared, t.mean_team_tricks, t.tricks_ci)]})


def points_text(res) -> str:
    """Mean points per deal by seat position, in one line."""
    return ", ".join(f"{r.position} {pm(r.mean_points, r.ci, 3)}" for r in res["points"].itertuples())


def class_tables(res, bids=(7, 8, 9, 10, 13)) -> dict:
    """Success by hand class: {"longest_suit": DataFrame, "hcp": DataFrame}, the chance the
    declaring team takes at least b tricks for each b of ``bids``."""
    out = {}
    for key, df in (("longest_suit", res["by_longest"]), ("hcp", res["by_hcp"])):
        out[key] = pd.DataFrame({key: df[key], "n": [f"{x:,}" for x in df.n],
                                 "E[tricks]": ["-" if k == 0 else pm(x, h, 2, sign=False, missing=no_interval(k))
                                               for x, h, k in zip(df.mean_tricks, df.mean_ci, df.n)],
                                 **{f"{b}+": [pct(a, lo, hi) for a, lo, hi in zip(df[f"p{b}"], df[f"p{b}_lo"], df[f"p{b}_hi"])]
                                    for b in bids}})
    return out


def calls_table(res, calls=None) -> pd.DataFrame:
    """The calls of one hand (``odds_hand``): P(make), expected points and net, per opening suit
    (only the ``calls`` named, if given)."""
    c = res["calls"]
    if calls is not None:
        c = c[c.call.isin(list(calls))]
    return pd.DataFrame({"trump": c.trump, "call": [a + (" (dealer)" if d else "") for a, d in zip(c.call, c.dealer_only)],
                         "P(make) [95% CI]": [pct(a, b, e) for a, b, e in zip(c.p_make, c.ci_low, c.ci_high)],
                         "n": [f"{x:,}" for x in c.n],
                         "E[points]": [pm(a, b, 3) for a, b in zip(c.exp_points, c.points_ci)],
                         "E[net]": [pm(a, b, 3) for a, b in zip(c.exp_net, c.net_ci)]})


def dd_bid_table(dd) -> pd.DataFrame:
    """Heuristic vs open-hand (double-dummy) success by tricks needed, with the paired gap."""
    b = dd["by_bid"]
    return pd.DataFrame({"tricks needed": b.bid,
                         "heuristic [95% CI]": [pct(x, y, z) for x, y, z in zip(b.p_heuristic, b.heur_lo, b.heur_hi)],
                         "double dummy [95% CI]": [pct(x, y, z) for x, y, z in zip(b.p_double_dummy, b.dd_lo, b.dd_hi)],
                         "gap DD - heur.": [pm(100 * g, 100 * h, 1) + " pp" for g, h in zip(b.gap, b.gap_ci)]})


def dd_contract_table(dd) -> pd.DataFrame:
    """Heuristic vs open-hand (double-dummy) success by contract, with the paired gap."""
    bc = dd["by_contract"]
    return pd.DataFrame({"contract": bc.contract, "bid": bc.bid, "n": [f"{x:,}" for x in bc.n],
                         "heuristic [95% CI]": [pct(x, y, z) for x, y, z in zip(bc.p_heuristic, bc.heur_lo, bc.heur_hi)],
                         "double dummy [95% CI]": [pct(x, y, z) for x, y, z in zip(bc.p_double_dummy, bc.dd_lo, bc.dd_hi)],
                         "gap DD - heur.": [pm(100 * g, 100 * h, 1) + " pp" for g, h in zip(bc.gap, bc.gap_ci)]})


def matches_table(res) -> pd.DataFrame:
    """Whole matches: points per match and P(win) per team."""
    df = res["teams"]
    return pd.DataFrame({"team": df.team, "heuristics": df.heuristics,
                         "points per match": [pm(a, b, 3) if a == a else "-" for a, b in zip(df.mean_points, df.points_ci)],
                         "P(win) [95% CI]": [pct(a, b, c) for a, b, c in zip(df.p, df.p_lo, df.p_hi)]})
