"""Boulmous tables, formatted once: each function turns a study's numbers into the DataFrame of
strings that the terminal (``output.show``) and the headline markdown (``output.markdown_table``)
both print, so a table reads the same wherever it appears."""
from __future__ import annotations

import pandas as pd

from ..output import pct, pm


def classes_table(res, min_deals: int = 0) -> pd.DataFrame:
    """Success by trumps held (bowers included) and bowers held: P(make) of each bid with its 95%
    interval and the deals of each class (classes with fewer than ``min_deals`` left out)."""
    df = res["by_trumps_bowers"]
    df = df[df.n >= min_deals]
    return pd.DataFrame({"trumps": df.trumps, "bowers": df.bowers, "deals": [f"{x:,}" for x in df.n],
                         **{f"bid {b} [95% CI]": [pct(getattr(r, f"p{b}"), getattr(r, f"p{b}_lo"), getattr(r, f"p{b}_hi"))
                                                  for r in df.itertuples()] for b in range(3, 7)}})


def auction_table(au) -> pd.DataFrame:
    """How auctions end: each contract's share of the deals and how often it is made."""
    c = au["contracts"]
    return pd.DataFrame({"contract": c.contract,
                         "share [95% CI]": [pct(a, b, e, 2) for a, b, e in zip(c.freq, c.freq_lo, c.freq_hi)],
                         "made [95% CI]": [pct(a, b, e) if a == a else "-" for a, b, e in zip(c.p_made, c.made_lo, c.made_hi)],
                         "deals taken": [f"{x:,}" for x in c.taken]})


def positions_table(au) -> pd.DataFrame:
    """Mean points per deal by seat position (with the 95% half-width)."""
    pos = au["positions"]
    return pd.DataFrame({"position": pos.position,
                         "points per deal": [pm(a, b) for a, b in zip(pos.mean_points, pos.ci)]})


def stakes_table(res) -> pd.DataFrame:
    """Whole games with the money settlement: stakes per game, P(win) and boxes per seat."""
    s = res["seats"]
    return pd.DataFrame({"seat": s.seat, "heuristic": s.heuristic,
                         "stakes per game": [pm(a, b) for a, b in zip(s.mean_stakes, s.stakes_ci)],
                         "P(win) [95% CI]": [pct(a, b, e) for a, b, e in zip(s.p_win, s.win_lo, s.win_hi)],
                         "boxes per game [95% CI]": [pm(a, b, 3, sign=False, missing="too few games for an interval")
                                                     for a, b in zip(s.boxes_per_game, s.boxes_ci)]})


def exact_vs_mc_table(cmpdf) -> pd.DataFrame:
    """The exact odds of one hand beside the Monte Carlo estimate (``studies.compare_exact``)."""
    return pd.DataFrame({"trump": cmpdf.trump, "bid": cmpdf.bid,
                         "P(make) exact": [pct(x, digits=2) for x in cmpdf.p_make_exact],
                         "Monte Carlo [95% CI]": [pct(a, b, c) for a, b, c in zip(cmpdf.p_make_mc, cmpdf.ci_low, cmpdf.ci_high)],
                         "inside CI": cmpdf.inside_ci,
                         "E[points] exact": [f"{x:+.3f}" for x in cmpdf.exp_points_exact]})
