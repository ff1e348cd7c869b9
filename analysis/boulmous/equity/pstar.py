"""The score thresholds p* (issue 27): from the equity table of ``odds boulmous --scores``, for a score state and a
seat, the chance of making a bid at which bidding is worth as much as passing in chance to win the game.

For the hand in ``seat`` at the scores ``y`` (the odds' seats: 0 = the dealer's left .. 3 = the dealer) and a bid b:

- W_make: the seat's chance to win the game after it takes the contract b and makes it; W_fail: after it fails.
  Each is the equity table's value of the state after the deal (scored as a bid of b: rules 16 and 18), averaged
  over the table's own measured deals in which that seat took the contract (at any level: the play does not depend
  on the bid, as in odds boulmous --hand) and took b tricks or more (fewer), with their splits of the six tricks,
  so the other seats' tricks are as they come in play;
- W_pass: after a deal in which the seat passes, averaged over the table's measured deals in which that seat did
  not take the contract: another seat took it (any contract, any split) or all four passed (the deal scores 0,
  the next dealer deals).  Passing leads to what the others then make of the deal.

These are the W of score-aware bidding (saware.py, ``KE.bid_pstar`` over every state, the same numbers: tested);
here one state at a time, with intervals.  Then p* = (W_pass - W_fail) / (W_make - W_fail): a hand that makes b with a chance p gains the game by bidding
(p W_make + (1 - p) W_fail) rather than passing when p > p*.  A p* below 0 means bidding is better even when sure to
fail; above 1, passing is better even when sure to make.  Its 95% interval is the delta method over the three
averages' sampling errors (disjoint sets of the table's deals, so independent); the table's value function is taken
as exact (its own error, common to the three, moves p* much less).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ....kernels.boulmous import equity as KE
from ...engine import RunOptions
from . import outcomes as O
from . import studies as S
from . import table as E
from .decide import _all_outcomes, _call_outcomes, _value

BIDS = (3, 4, 5, 6)


def _splits(counts, seat: int, bid: int):
    """int64[ODDS_WON] x 2: the splits of the six tricks in the table's deals in which ``seat`` took the contract (any
    bid: the play does not depend on the bid's level, as odds boulmous --hand values every bid from one playout),
    those where it took ``bid`` tricks or more, and the others."""
    c = np.asarray(counts, np.int64).reshape(4, KE.N_CODES).sum(axis=0)
    s = KE.OUTCOME_CODES.field(c, "taken")[seat].sum(axis=0)         # [contract][the tricks' split]: any contract
    mine = np.arange(KE.ODDS_WON) // (7 ** (3 - seat)) % 7
    return np.where(mine >= bid, s, 0), np.where(mine < bid, s, 0)


def _passed(counts, seat: int) -> np.ndarray:
    """The table's outcome counts with the deals ``seat`` took left out (pooled, in dealer block 0)."""
    c = np.asarray(counts, np.int64).reshape(4, KE.N_CODES).sum(axis=0).copy()
    KE.OUTCOME_CODES.field(c, "taken")[seat] = 0
    return np.concatenate([c, np.zeros(3 * KE.N_CODES, np.int64)])


def p_star(table: E.Table, scores, seat: int, bid: int, rules) -> dict:
    """W_make, W_fail, W_pass (each with its half-width and n) and p* with its 95% interval (module docstring)."""
    made, failed = _splits(table.counts, seat, bid)
    out = {"bid": bid, "seat": seat}
    for name, wc in (("make", made), ("fail", failed)):
        if wc.sum() == 0:
            return out | {"p_star": np.nan, "lo": np.nan, "hi": np.nan, "n_make": int(made.sum()),
                          "n_fail": int(failed.sum())}
        d = _call_outcomes(wc, seat, bid, rules)
        w, h, *_ = _value(table, scores, d, seat, _all_outcomes(seat, bid, rules))
        out |= {f"w_{name}": float(w), f"w_{name}_ci": float(h), f"n_{name}": d["n"]}
    pas = O.decode_boulmous(_passed(table.counts, seat), rules)
    w, h, *_ = _value(table, scores, pas, seat, _all_outcomes(seat, None, rules))
    out |= {"w_pass": float(w), "w_pass_ci": float(h), "n_pass": pas["n"]}
    P, M, F = out["w_pass"], out["w_make"], out["w_fail"]
    gap = M - F
    p = (P - F) / gap if gap != 0 else np.nan
    g = np.array([1 / gap, -(P - F) / gap ** 2, (P - M) / gap ** 2]) if gap != 0 else np.full(3, np.nan)
    sd = np.array([out["w_pass_ci"], out["w_make_ci"], out["w_fail_ci"]]) / E.Z
    half = float(E.Z * np.sqrt(((g * sd) ** 2).sum()))
    return out | {"p_star": float(p), "lo": float(p - half), "hi": float(p + half)}


def thresholds(states: dict, rules, specs=None, opts: RunOptions = RunOptions(), table=None) -> pd.DataFrame:
    """One row per score state (``states``: name -> a function seat -> the four scores), seat and bid 3-6."""
    table = table or S.boulmous_table(0, E.DEALS, rules, specs, opts.sub("equity_table"))
    rows = []
    for name, scores_of in states.items():
        for seat in range(4):
            for bid in BIDS:
                rows.append({"state": name, "scores": ",".join(map(str, scores_of(seat)))}
                            | p_star(table, scores_of(seat), seat, bid, rules))
    return pd.DataFrame(rows)


def cell(r) -> str:
    """``62% [58, 66]``; ``always bid`` below 0, ``never`` above 1 (with the interval wholly out of [0, 1])."""
    if np.isnan(r.p_star):
        return "n/a"
    if r.hi < 0:
        return "bid, even failing"
    if r.lo > 1:
        return "pass, even making"
    return f"{100 * r.p_star:.1f}% [{100 * r.lo:.1f}, {100 * r.hi:.1f}]"


def grid(df: pd.DataFrame, seats) -> pd.DataFrame:
    """The thresholds as a table: rows (state, bid), one column per seat."""
    out = []
    for (state, bid), g in df.groupby(["state", "bid"], sort=False):
        g = g.set_index("seat")
        out.append({"scores": state, "bid": bid, **{name: cell(g.loc[s]) for s, name in enumerate(seats)}})
    return pd.DataFrame(out)


def readings(df: pd.DataFrame, seat: int, seat_name: str) -> list[str]:
    """One line per state for a player, e.g. 'from even scores, first to bid: bid 4 when you make it at least
    62% of the time'."""
    lines = []
    for state, g in df[df.seat == seat].groupby("state", sort=False):
        parts = []
        for r in g.itertuples():
            if np.isnan(r.p_star):
                continue
            if r.hi < 0:
                parts.append(f"bid {r.bid} whatever the chance")
            elif r.lo > 1:
                parts.append(f"never bid {r.bid}")
            else:
                parts.append(f"bid {r.bid} when you make it at least {100 * r.p_star:.0f}% of the time")
        lines.append(f"From {state}, {seat_name}: " + "; ".join(parts) + ".")
    return lines


def chart_extra(states: dict, rules, seats, seat_names, specs=None, opts: RunOptions = RunOptions()) -> tuple:
    """The Boulmous chart's table of thresholds (``ChartData.extra``): (heading, table by seat, the lines below)."""
    df = thresholds(states, rules, specs, opts)
    n = int(df.n_make.iloc[0] + df.n_fail.iloc[0] + df.n_pass.iloc[0])
    below = readings(df, 0, seat_names[0]) + [
        "p* = (W_pass - W_fail) / (W_make - W_fail): bidding b beats passing in the chance to win the game when you "
        "make b more often than p*. W_make / W_fail: the chance to win after taking the contract and making / "
        "failing b (the equity table's value after the deal, over the table's deals the seat took, with b tricks or "
        "more / fewer); W_pass: after passing, over the table's deals the seat did not take (another seat's "
        "contract as it came, or all four passed). 95% intervals: the delta method over those deals' sampling "
        f"(the table's {n:,} deals; its value function taken as exact); methods: docs/methods/equity.md."]
    return (f"Score thresholds p*: the chance of making a bid at which bidding equals passing (target "
            f"{rules.target})", grid(df, seats), below)
