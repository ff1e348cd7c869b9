"""Score-aware decisions (issue 16 item 2): the calls of one Boulmous hand ranked by the chance to win the
game (and the expected money), from the scores.

The hand's deals are those of ``tricksim odds boulmous --hand`` (the same seed gives the same deals and
decisions), but every seat's tricks are kept (kernels/equity.boulmous_odds_joint).  For a call (trump,
bid) each deal's tricks give the deal's score changes (rule 16), box and boulmous payments; the equity
table (analysis/boulmous/equity/table.py) gives the value of the state after it.  The average over the deals is
the call's P(win the game) and expected money; its interval is the sample's (the table's own error is
the same for every call: common to the comparison).  Passing: the auction with the hand's holder forced
to pass.  Seats are the odds' seats (0 = the dealer's left .. 3 = the dealer), so ``--scores`` lists the
scores in that order.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ....kernels.boulmous import equity as KE
from ....kernels.cards import mask_of
from ... import engine
from ...common import TricksimError, make_params
from ...engine import RunOptions
from ...stats import unseen_bounds
from ..config import DEALER, ODDS_BLOCK, check_hands
from ..spec import SPEC
from . import outcomes as O
from . import studies as S
from . import table as E

TRUMPS = ["S", "H", "D", "C", "NT"]


def block_odds(params, first, n):
    kd, kc, ra, codes, prm = SPEC.kernel_args(params)
    return KE.boulmous_odds_joint(kd, kc, first, n, np.uint64(params["hand_mask"]), params["seat"], DEALER, ra,
                                  codes, prm)


def odds_run(cards, seat: int, seed: int, hands: int, rules, specs) -> engine.Run:
    return engine.Run("boulmous.equity_odds", make_params(seed, rules, specs, hand_mask=mask_of(cards), seat=seat),
                      hands, ODDS_BLOCK)


def _call_outcomes(won_counts: np.ndarray, seat: int, bid: int, rules) -> dict:
    """The outcome arrays of the calls 'bid' by ``seat`` from the counts of the four seats' tricks."""
    codes = np.nonzero(won_counts)[0]
    won = np.stack([codes // 343, codes // 49 % 7, codes // 7 % 7, codes % 7], axis=1).astype(np.int64)
    delta = won.copy()
    made = won[:, seat] >= bid
    delta[~made, seat] = (won[~made, seat] - bid) if rules.failed_taker_keeps_tricks else -bid
    box = (~made & (bid < 6 or rules.failed_boulmous_is_box)).astype(np.int64)
    imm = np.zeros((len(codes), 4))
    if bid == 6:
        sign = np.where(made, 1.0, -1.0)
        imm[:, :] = -sign[:, None]
        imm[:, seat] = 3 * sign
    cnt = won_counts[codes].astype(np.float64)
    return {"prob": cnt / cnt.sum(), "delta": delta, "taker": np.full(len(codes), seat, np.int64), "box": box,
            "imm": imm, "p_make": float(cnt[made].sum() / cnt.sum()), "n": int(cnt.sum())}


SPLITS = np.array([c for c in range(2401) if c // 343 + c // 49 % 7 + c // 7 % 7 + c % 7 == 6])
"""The outcome codes (w0 * 343 + w1 * 49 + w2 * 7 + w3) of the ways the six tricks can fall."""


def _all_outcomes(seat: int, bid: int | None, rules) -> dict:
    """Every outcome a deal can have, seen or not: of the call 'bid' by ``seat`` (every split of the six
    tricks), or (``bid`` None) of passing (all pass, or another seat takes any contract with any split)."""
    if bid is not None:
        wc = np.zeros(2401, np.int64)
        wc[SPLITS] = 1
        return _call_outcomes(wc, seat, bid, rules)
    c = np.zeros(4 * KE.N_CODES, np.int64)
    c[KE.PASS_CODE] = 1
    for taker in range(4):
        if taker != seat:
            for contract in range(4):
                c[(taker * 4 + contract) * 2401 + SPLITS] = 1
    return O.decode_boulmous(c, rules)


def _value(table: E.Table, y, dist, seat: int, every: dict):
    """Mean and 95% half-width over the deals of the seat's P(win) and money after the deal; the bounds are
    kept within what any deal can give (``every``: all the outcomes, seen or not, of the call or pass)."""
    def after(d):
        return KE.values_after(table.V, np.array(y, np.int64), d["delta"], d["taker"], d["box"], d["imm"],
                               *table.args()[5:])
    v = after(dist)
    p = dist["prob"]
    mean = p @ v
    sd = np.sqrt(np.maximum(p @ (v * v) - mean * mean, 0.0))
    half = E.Z * sd / np.sqrt(dist["n"])
    lo, hi = mean - half, mean + half
    va = after(every)
    vmin, vmax = va.min(axis=0), va.max(axis=0)
    flat = sd == 0.0
    if flat.any():   # every deal gave the same value: unseen outcomes could move it within the attainable range
        ulo, uhi = unseen_bounds(mean, vmin, vmax, dist["n"])
        lo, hi = np.where(flat, ulo, lo), np.where(flat, uhi, hi)
    lo, hi = np.maximum(lo, np.minimum(vmin, mean)), np.minimum(hi, np.maximum(vmax, mean))
    w, m = KE.V_WIN + seat, KE.V_MONEY + seat          # the seat's fields of a state's value (KE.VALUE)
    return mean[w], half[w], mean[m], half[m], (lo[w], hi[w]), (lo[m], hi[m])


def odds_scores(cards, seat: int, scores, seed: int = 0, hands: int = 200_000, rules=None, heuristics=None,
                trumps=None, opts: RunOptions = RunOptions(), table_seed: int = 0, table_deals: int = E.DEALS, run=None):
    """Every call of the hand (and passing) by P(win the game) and expected money from ``scores`` (the
    odds' seats).  Returns {'calls': DataFrame ranked by P(win), 'before': the state's equity before the
    deal (hand unknown), 'table': the equity table, 'n', 'seconds'}."""
    rules = rules or SPEC.rules()
    E.check_rules(rules)
    specs = SPEC.parse_seats(heuristics)
    S.same_heuristic(specs)
    sc = E.parse_scores(scores, 4, rules.target, E.FLOOR)
    tlist = [t.upper() for t in (trumps or TRUMPS)]
    for t in tlist:
        if t not in TRUMPS:
            raise TricksimError(f"unknown trump {t!r}: one of {' '.join(TRUMPS)}")
    table = S.boulmous_table(table_seed, table_deals, rules, specs, opts.sub("equity_table"))
    r = opts.execute(run or odds_run(cards, seat, seed, check_hands(hands), rules, specs))
    c = r.counts
    y = sc                                   # the odds' dealer is seat 3: canonical seats are the odds' seats
    rows = []
    for ti, t in enumerate(TRUMPS):
        if t not in tlist:
            continue
        wc = KE.ODDS_JOINT.field(c, "by_trump")[ti]
        for bid in range(3, 7):
            d = _call_outcomes(wc, seat, bid, rules)
            pw, hw, m, hm, (wl, wh), (ml, mh) = _value(table, y, d, seat, _all_outcomes(seat, bid, rules))
            rows.append({"call": f"{bid} {t}", "trump": t, "bid": bid, "p_make": d["p_make"], "p_win_game": pw,
                         "win_ci": hw, "win_lo": wl, "win_hi": wh, "money": m, "money_ci": hm, "money_lo": ml,
                         "money_hi": mh, "n": d["n"]})
    pas = O.decode_boulmous(np.concatenate([np.zeros(3 * KE.N_CODES, np.int64), KE.ODDS_JOINT.field(c, "pass")]),
                            rules)
    pw, hw, m, hm, (wl, wh), (ml, mh) = _value(table, y, pas, seat, _all_outcomes(seat, None, rules))
    rows.append({"call": "pass", "trump": "", "bid": 0, "p_make": np.nan, "p_win_game": pw, "win_ci": hw,
                 "win_lo": wl, "win_hi": wh, "money": m, "money_ci": hm, "money_lo": ml, "money_hi": mh,
                 "n": pas["n"]})
    df = pd.DataFrame(rows)
    df["change"] = df.p_win_game - _before(table, sc, seat)
    df["money_change"] = df.money - _before(table, sc, seat, money=True)
    df = df.sort_values(["p_win_game", "bid"], ascending=[False, True]).reset_index(drop=True)
    return {"calls": df, "table": table, "n": r.n, "seconds": r.seconds,
            "before": _before(table, sc, seat), "money_before": _before(table, sc, seat, money=True)}


def _before(table: E.Table, sc, seat: int, money: bool = False) -> float:
    """The seat's equity before the deal (its hand unknown): the table at the scores, dealer seat 3."""
    return float(table.state(sc, 3)[seat + (4 if money else 0)])
