"""Boulmous (RULES.md section 1): rules, heuristics, trace and the bid-odds studies."""
from __future__ import annotations

import json
from dataclasses import dataclass
from math import comb
from typing import Iterator

import numpy as np
import pandas as pd

from tricksim.analysis import engine
from tricksim.analysis.common import make_params
from tricksim.analysis.engine import RunOptions
from tricksim.analysis.game import Duplicate, Game
from tricksim.analysis.common import (HeuristicDef, Param, TricksimError, flag, parse_cards, parse_heuristic,
                             rules_dict)
from tricksim.analysis.stats import hist_mean_ci, wilson
from tricksim.kernels import boulmous as K
from tricksim.kernels.cards import card_str, cards_of, mask_of
from tricksim.kernels.rng import GAME_BOULMOUS

KEY = "boulmous"
DECK_RANKS = "9TJQKA"
TRUMP_NAMES = ["S", "H", "D", "C", "NT"]
N_LAYOUTS = comb(18, 6) * comb(12, 6)  # 17,153,136
BLOCK_DEALS = 1 << 22  # hands per engine block for the random-deal studies (about 1-2 s of work)
ODDS_BLOCK = 1 << 18   # hands per block of the odds of one hand
GAMES_BLOCK = 1 << 14  # whole games per block


def check_hands(hands: int) -> int:
    if hands < 1:
        raise TricksimError(f"the number of hands must be at least 1, got {hands}")
    return hands


@dataclass(frozen=True)
class BoulmousRules:
    """Every variant flag of RULES.md 1.1 with its default."""
    PREFIX = "boulmous"
    auction: str = flag("single_round", ["single_round", "multi_round"], help="rule 5")
    left_bower_is_trump: bool = flag(True, help="rule 9: same-colour jack is a trump for every purpose")
    must_head: bool = flag(False, help="rule 12: must beat the best card when following")
    trump_obligation: str = flag("optional", ["optional", "must_trump", "must_trump_and_overtrump"], help="rule 13")
    failed_taker_keeps_tricks: bool = flag(True, help="rule 16: failed taker scores tricks - bid (else -bid)")
    end_check: str = flag("end_of_deal", ["end_of_deal", "after_each_trick"], help="rule 17")
    tie_break: str = flag("play_on", ["play_on", "taker_priority", "shared_win"], help="rule 17")
    winner_pays_own_boxes: bool = flag(False, help="rule 18")
    failed_boulmous_is_box: bool = flag(True, help="rule 18")
    target: int = flag(21, rng=(1, 1000), help="rule 17: points to win a game")
    deal_packets: str = flag("3+3", ["3+3", "2+2+2", "1x6", "6"], help="rule 3 (cosmetic: no effect after a uniform shuffle)")


def rules_array(r: BoulmousRules) -> np.ndarray:
    a = np.zeros(K.N_RULES, np.int64)
    a[K.R_AUCTION] = 0 if r.auction == "single_round" else 1
    a[K.R_LEFT_BOWER_TRUMP] = int(r.left_bower_is_trump)
    a[K.R_MUST_HEAD] = int(r.must_head)
    a[K.R_TRUMP_OBL] = ["optional", "must_trump", "must_trump_and_overtrump"].index(r.trump_obligation)
    a[K.R_FAILED_KEEPS] = int(r.failed_taker_keeps_tricks)
    a[K.R_END_CHECK] = 0 if r.end_check == "end_of_deal" else 1
    a[K.R_TIE_BREAK] = ["play_on", "taker_priority", "shared_win"].index(r.tie_break)
    a[K.R_WINNER_PAYS_OWN] = int(r.winner_pays_own_boxes)
    a[K.R_FAILED_B_IS_BOX] = int(r.failed_boulmous_is_box)
    a[K.R_TARGET] = r.target
    return a


# ---------------------------------------------------------------------------
# heuristics
# ---------------------------------------------------------------------------
def _family(margin, bower, trump, ace, king, length, nt, bmargin, gang, draw, lead_high):
    return {p.name: p for p in [
        Param("margin", margin, -3, 3, "bid only when estimated tricks - margin reach the bid"),
        Param("bower_weight", bower, 0, 2, "tricks counted per bower (J of trumps, J of same colour)"),
        Param("trump_weight", trump, 0, 2, "tricks counted per other trump"),
        Param("ace_weight", ace, 0, 2, "tricks counted per side ace"),
        Param("king_weight", king, 0, 2, "tricks counted per side king"),
        Param("length_bonus", length, 0, 2, "extra tricks per trump beyond two"),
        Param("nt_bias", nt, -3, 3, "added to the no-trump estimate when choosing trumps"),
        Param("boulmous_margin", bmargin, -3, 3, "extra margin before jumping to 6 (boulmous)"),
        Param("gang_up", gang, 0, 1, "1: a defender never overtakes another defender who beats the taker"),
        Param("draw_trumps", draw, 0, 1, "1: as taker, lead trumps while opponents may hold some (cautious)"),
        Param("lead_high", lead_high, 0, 1, "1: lead the highest card, 0: the lowest (aggressive)"),
    ]}


REGISTRY = {
    "random": HeuristicDef("random", K.H_RANDOM, {"bid_prob": Param("bid_prob", 0.3, 0, 1, "chance of bidding (the lowest legal level or above, uniformly) when it may")},
                           "random-legal baseline: random bids, random trump, a uniformly random legal card", deterministic=False),
    "cautious": HeuristicDef("cautious", K.H_CAUTIOUS, _family(0.5, 1.0, 0.6, 0.8, 0.3, 0.3, -0.5, 0.5, 1, 1, 0),
                             "card-counting player: draws trumps as taker, leads sure winners, wins only with cards no unseen card beats"),
    "aggressive": HeuristicDef("aggressive", K.H_AGGRESSIVE, _family(-0.3, 1.0, 0.75, 0.9, 0.45, 0.4, -0.3, 0.0, 0, 0, 1),
                               "optimistic bidder, no card memory: wins a trick with its cheapest winning card whenever it can"),
}
ALIASES = {"default": "cautious"}


# ---------------------------------------------------------------------------
# block functions (the engine's unit of work)
# ---------------------------------------------------------------------------
def block_deals(params, first, n):
    kd, kc, ra, codes, prm = GAME.kernel_args(params)
    return K.sim_deals(kd, kc, first, n, ra, codes, prm)


def block_odds(params, first, n):
    kd, kc, ra, codes, prm = GAME.kernel_args(params)
    return K.sim_odds(kd, kc, first, n, np.uint64(params["hand_mask"]), params["seat"], 3, ra, codes, prm)


def block_classes(params, first, n):
    kd, kc, ra, codes, prm = GAME.kernel_args(params)
    return K.sim_classes(kd, kc, first, n, ra, codes, prm)


def block_games(params, first, n):
    kd, kc, ra, codes, prm = GAME.kernel_args(params)
    return K.sim_games(kd, kc, first, n, ra, codes, prm)


def hand_rows(params, first, n):
    """One row per hand of a ``boulmous.deals`` block (from the trace kernel: the same hands)."""
    kd, kc, ra, codes, prm = GAME.kernel_args(params)
    recs = K.trace_deals(kd, kc, first, n, ra, codes, prm)
    cols = {"hand_index": np.arange(first, first + n), "dealer": recs[:, K.REC_DEALER],
            "taker": recs[:, K.REC_TAKER], "contract": recs[:, K.REC_CONTRACT], "trump": recs[:, K.REC_TRUMP],
            "made": recs[:, K.REC_MADE]}
    for s in range(4):
        cols[f"hand{s}"] = recs[:, K.REC_HANDS + s].astype(np.uint64)
    for s in range(4):
        cols[f"tricks{s}"] = recs[:, K.REC_WON + s]
    for s in range(4):
        cols[f"score{s}"] = recs[:, K.REC_SCORE + s]
    return pd.DataFrame(cols)


# ---------------------------------------------------------------------------
# trace
# ---------------------------------------------------------------------------
def record_to_dict(rec, seed, index, rules, specs, with_legal=False):
    """One TRACE.md line from a kernel hand record."""
    rec = [int(x) for x in rec]
    taker = rec[K.REC_TAKER]
    hands = [sorted(cards_of(rec[K.REC_HANDS + s])) for s in range(4)]
    nb = rec[K.REC_NBIDS]
    bids = [{"seat": rec[K.REC_BIDS + 2 * i], "bid": rec[K.REC_BIDS + 2 * i + 1] or None} for i in range(nb)]
    tricks = []
    legal = []
    for t in range(rec[K.REC_NTRICKS]):
        b = K.REC_TRICKS + 6 * t
        tricks.append({"leader": rec[b], "cards": [card_str(c) for c in rec[b + 1:b + 5]], "winner": rec[b + 5]})
        legal.append([[card_str(c) for c in sorted(cards_of(rec[K.REC_LEGAL + 4 * t + k]))] for k in range(4)])
    made = rec[K.REC_MADE]
    d = {
        "game": KEY, "seed": seed, "hand_index": index, "rules": rules_dict(rules),
        "heuristics": [s.label for s in specs], "dealer": rec[K.REC_DEALER],
        "deal": [[card_str(c) for c in h] for h in hands], "bids": bids,
        "taker": taker if taker >= 0 else None, "contract": rec[K.REC_CONTRACT] if taker >= 0 else None,
        "trump": TRUMP_NAMES[rec[K.REC_TRUMP]] if taker >= 0 else None,
        "hands": [[card_str(c) for c in h] for h in hands], "tricks": tricks,
        "tricks_won": [rec[K.REC_WON + s] for s in range(4)],
        "made": None if made < 0 else bool(made),
        "score_delta": [rec[K.REC_SCORE + s] for s in range(4)],
        "stakes_delta": [rec[K.REC_STAKES + s] for s in range(4)],
    }
    if with_legal:
        d["legal"] = legal
    return d


def trace(seed: int = 0, hands: int = 10, rules: BoulmousRules | None = None, heuristics=None,
          first: int = 0, with_legal: bool = False) -> list[dict]:
    """Hands ``first..first+hands-1`` of the run with this seed, as TRACE.md dicts."""
    rules = rules or BoulmousRules()
    specs = parse_seats(heuristics)
    check_hands(hands)
    params = make_params(seed, rules, specs)
    kd, kc, ra, codes, prm = GAME.kernel_args(params)
    recs = K.trace_deals(kd, kc, first, hands, ra, codes, prm)
    return [record_to_dict(recs[i], seed, first + i, rules, specs, with_legal) for i in range(hands)]


# ---------------------------------------------------------------------------
# odds of one hand
# ---------------------------------------------------------------------------
def parse_hand(text: str) -> list[int]:
    return parse_cards(text, 6, DECK_RANKS, "Boulmous hand")


def _odds_tables(agg, seat_label, exact, rules: BoulmousRules):
    """Per trump and bid: P(make) with interval, expected points and stakes; and the pass line.
    A failed bid scores tricks - bid, or -bid with ``failed_taker_keeps_tricks=false``
    (rule 16); the pass line's points come from the kernel's own scoring."""
    rows = []
    tricks = np.arange(7)
    for t in range(5):
        h = agg[t * 7:(t + 1) * 7]
        n = int(h.sum())
        if n == 0:
            continue
        for bid in range(3, 7):
            k = int(h[bid:].sum())
            p, lo, hi = wilson(k, n)
            pts = np.where(tricks >= bid, tricks, tricks - bid if rules.failed_taker_keeps_tricks else -bid)
            stake = np.where(tricks >= bid, 3 if bid == 6 else 0, -3 if bid == 6 else 0)
            m, half, _ = hist_mean_ci(pts, h)
            ms, halfs, _ = hist_mean_ci(stake, h)
            pbox = 1 - k / n
            p = float(p)
            rows.append({"trump": TRUMP_NAMES[t], "bid": bid, "p_make": p,
                         "ci_low": float(lo) if not exact else p, "ci_high": float(hi) if not exact else p,
                         "n": n, "exp_points": m, "points_ci": 0.0 if exact else half,
                         "exp_stakes": ms, "stakes_ci": 0.0 if exact else halfs, "p_box": pbox})
    df = pd.DataFrame(rows)
    ph = agg[35:48]
    sh = agg[48:53]
    n = int(ph.sum())
    pm, phalf, _ = hist_mean_ci(np.arange(-6, 7), ph)
    sm, shalf, _ = hist_mean_ci(np.arange(-1, 4), sh)
    pas = pd.DataFrame([{"call": "pass", "n": n, "exp_points": pm, "points_ci": 0.0 if exact else phalf,
                         "exp_stakes": sm, "stakes_ci": 0.0 if exact else shalf}]) if n else pd.DataFrame()
    return df, pas


def best_call(df: pd.DataFrame, pas: pd.DataFrame, by="exp_points"):
    """The call with the highest expected points (ties: the lower bid)."""
    best = df.sort_values([by, "bid"], ascending=[False, True]).iloc[0]
    if len(pas) and pas[by].iloc[0] > best[by]:
        return "pass", float(pas[by].iloc[0])
    return f"{int(best['bid'])} {best['trump']}", float(best[by])


def odds_run(cards, seat: int = 0, seed: int = 0, hands: int = 200_000, rules=None, heuristics=None,
             block_size: int = ODDS_BLOCK) -> engine.Run:
    """The run of ``odds_hand`` (Monte Carlo): what names its folder and what it executes."""
    specs = parse_seats(heuristics)
    params = make_params(seed, rules or BoulmousRules(), specs, hand_mask=mask_of(cards), seat=seat)
    return engine.Run("boulmous.odds", params, hands, block_size)


def check_seat(seat: int) -> int:
    if not 0 <= seat <= 3:
        raise TricksimError(f"the seat must be 0..3 (0 = dealer's left, 3 = dealer), got {seat}")
    return seat


def odds_hand(hand: str | list[int], seat: int = 0, seed: int = 0, hands: int = 200_000,
              rules: BoulmousRules | None = None, heuristics=None, exact: bool = False,
              trumps: list[str] | None = None, opts: RunOptions = RunOptions(),
              until_precision: float | None = None, block_size: int = ODDS_BLOCK, with_pass: bool = True):
    """Bid odds of one Boulmous hand: ``seat`` is the position from the dealer's left
    (0 = first to bid, 3 = dealer). Returns a dict of DataFrames:
    ``calls`` (trump x bid), ``pass`` (expected points/stakes of passing) and
    ``best`` (one row)."""
    rules = rules or BoulmousRules()
    cards = parse_hand(hand) if isinstance(hand, str) else list(hand)
    check_seat(seat)
    specs = parse_seats(heuristics)
    tlist = [TRUMP_NAMES.index(_trump(t)) for t in (trumps or TRUMP_NAMES)]
    hand_mask = mask_of(cards)
    if exact:
        for s in specs:
            if not s.deterministic:
                raise TricksimError(f"exact odds need deterministic heuristics; {s.name!r} plays at random")
        import time
        t0 = time.perf_counter()
        params = make_params(seed, rules, specs)
        kd, kc, ra, codes, prm = GAME.kernel_args(params)
        agg = K.exact_odds(np.uint64(hand_mask), seat, 3, np.array(tlist, np.int64), with_pass, ra, codes, prm)
        secs = time.perf_counter() - t0
        df, pas = _odds_tables(agg, seat, True, rules)
        res = {"calls": df, "pass": pas, "seconds": secs, "n": N_LAYOUTS, "exact": True}
    else:
        check_hands(hands)
        run = odds_run(cards, seat, seed, hands, rules, specs, block_size)
        stop = None
        if until_precision:
            def stop(acc, n):
                df, _ = _odds_tables(acc, seat, False, rules)
                return bool(((df.ci_high - df.ci_low) / 2).max() <= until_precision)
        r = opts.execute(run, stop)
        df, pas = _odds_tables(r.counts, seat, False, rules)
        res = {"calls": df[df.trump.isin([TRUMP_NAMES[t] for t in tlist])].reset_index(drop=True), "pass": pas,
               "seconds": r.seconds, "n": r.n, "exact": False}
    if not len(res["calls"]):
        raise TricksimError("no trump selected")
    call, val = best_call(res["calls"], res["pass"])
    res["best"] = pd.DataFrame([{"best_call": call, "exp_points": val}])
    res["hand"] = " ".join(card_str(c) for c in cards)
    return res


def _trump(t: str) -> str:
    t = t.strip().upper()
    if t not in TRUMP_NAMES:
        raise TricksimError(f"unknown trump {t!r}: use S, H, D, C or NT")
    return t


def compare_exact(mc: dict, ex: dict) -> pd.DataFrame:
    """Monte Carlo rows beside the exact ones: is each exact value inside the MC interval?"""
    m = mc["calls"].merge(ex["calls"][["trump", "bid", "p_make", "exp_points"]], on=["trump", "bid"],
                          suffixes=("_mc", "_exact"))
    m["inside_ci"] = (m.p_make_exact >= m.ci_low) & (m.p_make_exact <= m.ci_high)
    # an exact 0 or 1 is inside the (exact-at-the-bounds) Wilson interval whatever the sample: not a check
    m["informative"] = (m.p_make_exact > 0) & (m.p_make_exact < 1)
    return m[["trump", "bid", "p_make_mc", "ci_low", "ci_high", "n", "p_make_exact", "inside_ci", "informative",
              "exp_points_mc", "exp_points_exact"]]


def inside_text(cmp: pd.DataFrame) -> str:
    """'k of n exact values lie inside ...', counting only the exact values strictly between 0 and 1."""
    inf = cmp[cmp.informative]
    k, n = int(inf.inside_ci.sum()), len(inf)
    rest = len(cmp) - n
    return (f"{k} of {n} exact values strictly between 0 and 1 lie inside the Monte Carlo 95% interval (about 95% "
            "expected)" + (f"; {rest} exact values of 0 or 1, inside by construction, are not counted" if rest else ""))


# ---------------------------------------------------------------------------
# random deals: success by hand class, and the auction
# ---------------------------------------------------------------------------
def classes_run(seed: int = 0, hands: int = 2_000_000, rules=None, heuristics=None,
                block_size: int = BLOCK_DEALS) -> engine.Run:
    """The run of ``odds_classes``."""
    return engine.Run("boulmous.classes", make_params(seed, rules or BoulmousRules(), parse_seats(heuristics)),
                      hands, block_size)


def odds_classes(seed: int = 0, hands: int = 2_000_000, rules=None, heuristics=None, opts: RunOptions = RunOptions(),
                 block_size: int = BLOCK_DEALS):
    """Success rate of each bid by hand class when the first to speak takes the
    contract in its preferred trump suit (no-trump choices are left out).
    Returns {'classes': long table, 'by_trumps_bowers': summary table}."""
    r = opts.execute(classes_run(seed, check_hands(hands), rules, heuristics, block_size))
    agg = r.counts.reshape(8, 3, 5, 7)
    rows = []
    for ntr in range(8):
        for nb in range(3):
            for ace in range(5):
                h = agg[ntr, nb, ace]
                n = int(h.sum())
                if n == 0:
                    continue
                row = {"trumps": ntr, "bowers": nb, "side_aces": ace, "n": n,
                       "mean_tricks": float((h * np.arange(7)).sum() / n)}
                for bid in range(3, 7):
                    p, lo, hi = wilson(int(h[bid:].sum()), n)
                    row[f"p{bid}"] = float(p)
                    row[f"p{bid}_lo"] = float(lo)
                    row[f"p{bid}_hi"] = float(hi)
                rows.append(row)
    classes = pd.DataFrame(rows)
    summ = []
    a2 = agg.sum(axis=2)
    for ntr in range(8):
        for nb in range(3):
            h = a2[ntr, nb]
            n = int(h.sum())
            if n == 0:
                continue
            row = {"trumps": ntr, "bowers": nb, "n": n}
            for bid in range(3, 7):
                p, lo, hi = wilson(int(h[bid:].sum()), n)
                row[f"p{bid}"] = float(p)
                row[f"p{bid}_lo"] = float(lo)
                row[f"p{bid}_hi"] = float(hi)
            summ.append(row)
    return {"classes": classes, "by_trumps_bowers": pd.DataFrame(summ), "n": r.n, "seconds": r.seconds}


def auction_stats(seed: int = 0, hands: int = 2_000_000, rules=None, heuristics=None,
                  opts: RunOptions = RunOptions(), block_size: int = BLOCK_DEALS, keep_hands: bool = False):
    """How auctions end over random deals: contract level, trump, success rate.  ``keep_hands``: also
    one row per hand in the run folder's ``hands/`` (needs ``opts.out``)."""
    rules = rules or BoulmousRules()
    specs = parse_seats(heuristics)
    run = engine.Run("boulmous.deals", make_params(seed, rules, specs), check_hands(hands), block_size,
                     keep_hands=keep_hands)
    if keep_hands and opts.out is None:
        raise TricksimError("keeping one row per hand needs a run folder")
    r = opts.execute(run)
    agg = r.counts
    h = agg[:560].reshape(4, 4, 5, 7)
    n = r.n
    rows = []
    for ci, bid in enumerate(range(3, 7)):
        hb = h[:, ci].sum(axis=(0, 1))
        k = int(hb.sum())
        made = int(hb[bid:].sum())
        pf, flo, fhi = wilson(k, n)
        pm, mlo, mhi = wilson(made, k)
        rows.append({"contract": bid, "freq": float(pf), "freq_lo": float(flo), "freq_hi": float(fhi),
                     "n_deals": n, "taken": k, "p_made": float(pm), "made_lo": float(mlo), "made_hi": float(mhi)})
    pf, flo, fhi = wilson(int(agg[560]), n)
    rows.append({"contract": "all pass", "freq": float(pf), "freq_lo": float(flo), "freq_hi": float(fhi),
                 "n_deals": n, "taken": 0, "p_made": np.nan, "made_lo": np.nan, "made_hi": np.nan})
    from tricksim.analysis.stats import mean_ci
    m, half = mean_ci(agg[561:565], agg[565:569], n)
    pos = pd.DataFrame({"position": ["1st (dealer's left)", "2nd", "3rd", "dealer"], "mean_points": m,
                        "ci": half, "n": n})
    return {"contracts": pd.DataFrame(rows), "positions": pos, "n": n, "seconds": r.seconds}


def stakes_run(seed: int = 0, games: int = 100_000, rules=None, heuristics=None,
               block_size: int = GAMES_BLOCK) -> engine.Run:
    """The run of ``game_stakes``."""
    if games < 1:
        raise TricksimError(f"the number of games must be at least 1, got {games}")
    return engine.Run("boulmous.games", make_params(seed, rules or BoulmousRules(), parse_seats(heuristics)), games,
                      block_size, unit="games")


def game_stakes(seed: int = 0, games: int = 100_000, rules=None, heuristics=None, opts: RunOptions = RunOptions(),
                block_size: int = GAMES_BLOCK):
    """Whole games to the target with the money settlement: stakes per seat."""
    specs = parse_seats(heuristics)
    r = opts.execute(stakes_run(seed, games, rules, specs, block_size))
    a = r.counts
    done = r.n - int(a[13])
    from tricksim.analysis.stats import mean_ci
    m, half = mean_ci(a[0:4], a[8:12], done)
    pw, lo, hi = wilson(a[4:8], done)
    df = pd.DataFrame({"seat": [0, 1, 2, 3], "heuristic": [s.label for s in specs], "mean_stakes": m,
                       "stakes_ci": half, "p_win": pw, "win_lo": lo, "win_hi": hi,
                       "boxes_per_game": a[14:18] / max(done, 1), "games": done})
    return {"seats": df, "games": r.n, "abandoned": int(a[13]), "mean_deals": a[12] / max(r.n, 1),
            "seconds": r.seconds}


# ---------------------------------------------------------------------------
# views and commands (cli.py prints what the commands yield; they write the run folder)
# ---------------------------------------------------------------------------
def _fmt_calls(df: pd.DataFrame, exact: bool) -> pd.DataFrame:
    from tricksim.analysis.output import pct, pm
    rows = []
    for r in df.itertuples():
        rows.append({"trump": r.trump, "bid": r.bid,
                     "P(make)" + (" exact" if exact else " [95% CI]"): pct(r.p_make, None if exact else r.ci_low,
                                                                         None if exact else r.ci_high),
                     "n": f"{r.n:,}", "E[points]": pm(r.exp_points, None if exact else r.points_ci, 2),
                     "E[stakes]": pm(r.exp_stakes, None if exact else r.stakes_ci, 3)})
    return pd.DataFrame(rows)


def render_odds(res) -> str:
    from tricksim.analysis.output import pm
    lines = [f"Boulmous hand {res['hand']}: the taker's chances ({'exact, every one of ' + format(res['n'], ',') + ' layouts' if res['exact'] else format(res['n'], ',') + ' random deals of the other 18 cards'})",
             _fmt_calls(res["calls"], res["exact"]).to_string(index=False)]
    if len(res["pass"]):
        p = res["pass"].iloc[0]
        ci = (None, None) if res["exact"] else (p.points_ci, p.stakes_ci)
        lines.append(f"pass (the others bid on; this seat defends): E[points] {pm(p.exp_points, ci[0], 2)}, "
                     f"E[stakes] {pm(p.exp_stakes, ci[1], 3)}")
    b = res["best"].iloc[0]
    lines.append(f"best call: {b.best_call} (expected points {b.exp_points:+.2f})")
    lines.append("E[stakes] counts the boulmous payments of this deal (bid 6: +3 made, -3 failed); "
                 "each failed contract also adds a box (1 stake to the game's winner), shown as P(box) = 1 - P(make).")
    return "\n".join(lines)


def odds_command(hand: str | None = None, seat: int | None = None, exact: bool = False, trumps=None,
                 keep_hands: bool = False, hands: int | None = None, seed: int = 0, heuristics=None, rules=None,
                 until_precision: float | None = None, opts: RunOptions = RunOptions()) -> Iterator[str]:
    """``tricksim odds boulmous``: the odds of one hand (``hand``; ``exact`` also enumerates every
    layout), else by hand class and how auctions end over random deals.  Writes the run folder
    (``opts.out``, else a default one) and yields the text to print."""
    from tricksim.analysis.output import pct, with_folder, write_table
    from tricksim.analysis.plots import heatmap_classes

    rules = rules or BoulmousRules()
    specs = parse_seats(heuristics)
    if hand is not None:
        cards = parse_hand(hand)
        seat = check_seat(0 if seat is None else seat)
        hands = hands or 200_000
        run = odds_run(cards, seat, seed, hands, rules, specs)
        opts = with_folder(opts, KEY, "odds", run)
        engine.check_folder(run, opts.out, opts.force)   # before the enumeration, not after it
        if exact:
            if opts.scheduler:
                raise TricksimError("the exact enumeration runs locally: drop the Dask scheduler")
            ex = odds_hand(cards, seat, seed, rules=rules, heuristics=specs, exact=True, trumps=trumps)
        mc = odds_hand(cards, seat, seed, hands, rules, specs, trumps=trumps, opts=opts,
                       until_precision=until_precision)
        write_table(mc["calls"], opts.out, "odds_calls")
        write_table(mc["pass"], opts.out, "odds_pass")
        if exact:
            yield render_odds(ex)
            yield f"(exact enumeration: {ex['seconds']:.1f} s)\n"
            cmp = compare_exact(mc, ex)
            write_table(ex["calls"], opts.out, "odds_calls_exact")
            write_table(cmp, opts.out, "mc_vs_exact")
            yield f"Monte Carlo ({mc['n']:,} deals) against the exact answer: {inside_text(cmp)}"
            yield pd.DataFrame({"trump": cmp.trump, "bid": cmp.bid,
                                "MC [95% CI]": [pct(a, b, c) for a, b, c in zip(cmp.p_make_mc, cmp.ci_low, cmp.ci_high)],
                                "exact": [pct(x, digits=2) for x in cmp.p_make_exact],
                                "inside": cmp.inside_ci}).to_string(index=False)
        else:
            yield render_odds(mc)
        yield f"\nresults in {opts.out}"
        return
    hands = hands or 2_000_000
    opts = with_folder(opts, KEY, "classes", classes_run(seed, hands, rules, specs))
    res = odds_classes(seed, hands, rules, specs, opts)
    write_table(res["classes"], opts.out, "classes")
    write_table(res["by_trumps_bowers"], opts.out, "by_trumps_bowers")
    heatmap_classes(res["by_trumps_bowers"], opts.out / "classes_heatmap.png", res["n"])
    yield render_classes(res)
    au = auction_stats(seed, hands, rules, specs, opts.sub("auction"), keep_hands=keep_hands)
    write_table(au["contracts"], opts.out, "auction_contracts")
    write_table(au["positions"], opts.out, "auction_positions")
    yield "\n" + render_auction(au)
    yield (f"\ntables and heatmap in {opts.out}"
           + (f"; one row per hand in {opts.out / 'auction' / 'hands'}" if keep_hands else ""))


def render_auction(au) -> str:
    from tricksim.analysis.output import pct, pm
    c = au["contracts"]
    pos = au["positions"]
    return (f"How the auctions end over {au['n']:,} random deals (the chosen heuristics in every seat):\n"
            + pd.DataFrame({"contract": c.contract, "frequency [95% CI]": [pct(a, b, e, 2) for a, b, e in zip(c.freq, c.freq_lo, c.freq_hi)],
                            "made [95% CI]": [pct(a, b, e) if a == a else "-" for a, b, e in zip(c.p_made, c.made_lo, c.made_hi)],
                            "taken": [f"{x:,}" for x in c.taken]}).to_string(index=False)
            + "\nmean points per deal by position:\n"
            + pd.DataFrame({"position": pos.position, "points": [pm(a, b) for a, b in zip(pos.mean_points, pos.ci)]}).to_string(index=False))


def render_classes(res) -> str:
    from tricksim.analysis.output import pct
    df = res["by_trumps_bowers"]
    rows = []
    for r in df.itertuples():
        rows.append({"trumps": r.trumps, "bowers": r.bowers, "n": f"{r.n:,}",
                     **{f"bid {b}": pct(getattr(r, f"p{b}"), getattr(r, f"p{b}_lo"), getattr(r, f"p{b}_hi"))
                        for b in range(3, 7)}})
    return (f"Boulmous: chance that the first to speak makes each bid, taking the contract in the trump suit its "
            f"heuristic prefers, by trumps held (bowers included) and bowers held; {res['n']:,} random deals "
            f"(no-trump choices left out)\n" + pd.DataFrame(rows).to_string(index=False))


def stakes_command(games: int = 100_000, seed: int = 0, heuristics=None, rules=None,
                   opts: RunOptions = RunOptions()) -> Iterator[str]:
    """``tricksim stakes boulmous``: whole games with the money settlement; writes the run folder
    and yields the text to print."""
    from tricksim.analysis.output import pct, pm, with_folder, write_table
    rules = rules or BoulmousRules()
    specs = parse_seats(heuristics)
    opts = with_folder(opts, KEY, "stakes", stakes_run(seed, games, rules, specs))
    res = game_stakes(seed, games, rules, specs, opts)
    write_table(res["seats"], opts.out, "stakes")
    df = res["seats"]
    yield (f"Boulmous games to {rules.target} with the money settlement, {res['games']:,} games "
           f"({res['mean_deals']:.1f} deals per game on average, {res['abandoned']} abandoned); seat 0 deals first")
    yield pd.DataFrame({"seat": df.seat, "heuristic": df.heuristic,
                        "stakes per game": [pm(a, b) for a, b in zip(df.mean_stakes, df.stakes_ci)],
                        "P(win) [95% CI]": [pct(a, b, c) for a, b, c in zip(df.p_win, df.win_lo, df.win_hi)],
                        "boxes per game": df.boxes_per_game.round(3)}).to_string(index=False)
    yield f"\nresults in {opts.out}"


def bench_cases(seed=0):
    """Benchmark cases: complete hands (auction, trump choice, play, scoring)."""
    cases = []
    for h in ["cautious", "aggressive", "random"]:
        specs = parse_seats(h)
        params = make_params(seed, BoulmousRules(), specs)

        def fn(first, n, params=params):
            engine.run_block("boulmous.deals", json.dumps(params), first, n)
            return n
        cases.append((f"deals, all seats {h}", fn))
    return cases


# ---------------------------------------------------------------------------
# duplicate tournaments (analysis/compare.py)
# ---------------------------------------------------------------------------
def block_duplicate(params, first, n):
    from tricksim.analysis.compare import seating
    codes, prm = GAME.heuristic_arrays(GAME.specs_from_json(params["entrants"]))
    k = len(codes)
    ids, nround = seating(GAME, k, params)
    kd, kc = GAME.keys(params["seed"])
    return K.sim_duplicate(kd, kc, first, n, rules_array(GAME.rules_of(params)), np.ascontiguousarray(codes[ids]),
                           np.ascontiguousarray(prm[ids]), ids, k, nround)


def parse_entrants(names, user_defs=None):
    """The heuristic specs of ``names`` (scripts/compare_designs.py; ``compare.entrant_specs`` also
    refuses a name given twice)."""
    return [GAME.parse_heuristic(h, user_defs) for h in names]


# ---------------------------------------------------------------------------
# the headline report (tricksim report)
# ---------------------------------------------------------------------------
HEADLINE_HAND = "JH JD AH KH 9S TC"


def headline(out, quick: bool = False, progress: bool = False) -> str:
    """Boulmous headline studies into ``out/boulmous/``; returns the markdown section."""
    from pathlib import Path

    from tricksim.analysis.output import markdown_table, pct, pm, write_table
    from tricksim.analysis.plots import heatmap_classes

    out = Path(out)
    d = out / "boulmous"
    d.mkdir(parents=True, exist_ok=True)
    runs = out / "runs"
    n_cls = 50_000 if quick else 4_000_000
    n_odds = 20_000 if quick else 400_000
    n_games = 2_000 if quick else 100_000
    seed = 2026
    md = ["## Boulmous\n"]

    # 1. one hand, exact and Monte Carlo
    trumps = ["H", "NT"] if quick else None
    mc = odds_hand(HEADLINE_HAND, 0, seed, n_odds, trumps=trumps, opts=RunOptions(runs / "boulmous-headline-odds", progress=progress, force=True))
    ex = None if quick else odds_hand(HEADLINE_HAND, 0, seed, exact=True)
    write_table(mc["calls"], d, "hand_odds_mc")
    cmd = f'tricksim odds boulmous --hand "{HEADLINE_HAND}" --hands {n_odds} --seed {seed}' + ("" if quick else " --exact")
    md.append(f"### Bid odds of one hand: {HEADLINE_HAND}, first to speak\n")
    md.append(f"Regenerate: `{cmd}`\n")
    md.append("All four seats play the default heuristic (`cautious`); the hand's holder takes the contract "
              "at each level with each trump; the other 18 cards are dealt at random. ")
    if ex is not None:
        write_table(ex["calls"], d, "hand_odds_exact")
        cmpdf = compare_exact(mc, ex)
        write_table(cmpdf, d, "hand_odds_mc_vs_exact")
        md.append(f"The exact column enumerates all {N_LAYOUTS:,} layouts of the other hands "
                  f"({ex['seconds']:.0f} s); the Monte Carlo column uses {mc['n']:,} random deals. "
                  f"{inside_text(cmpdf)}.\n")
        tab = pd.DataFrame({"trump": cmpdf.trump, "bid": cmpdf.bid,
                            "P(make) exact": [pct(x, digits=2) for x in cmpdf.p_make_exact],
                            "Monte Carlo [95% CI]": [pct(a, b, c) for a, b, c in zip(cmpdf.p_make_mc, cmpdf.ci_low, cmpdf.ci_high)],
                            "inside CI": cmpdf.inside_ci, "E[points] exact": cmpdf.exp_points_exact.round(3)})
        md.append(markdown_table(tab) + "\n")
        p = ex["pass"].iloc[0]
        b = ex["best"].iloc[0]
        md.append(f"Passing instead (the others bid on, this seat defends): expected points {p.exp_points:+.3f} "
                  f"(exact). **Best call: {b.best_call}** (expected points {b.exp_points:+.3f}).\n")
    else:
        md.append("\n```\n" + render_odds(mc) + "\n```\n")

    # 2. random deals by hand class
    res = odds_classes(seed, n_cls, opts=RunOptions(runs / "boulmous-headline-classes", progress=progress, force=True))
    write_table(res["classes"], d, "classes")
    write_table(res["by_trumps_bowers"], d, "by_trumps_bowers")
    heatmap_classes(res["by_trumps_bowers"], d / "classes_heatmap.png", res["n"])
    md.append("### How often a contract is made, by hand class\n")
    md.append(f"Regenerate: `tricksim odds boulmous --hands {n_cls} --seed {seed}`\n")
    md.append(f"{res['n']:,} random deals. The first to speak is made taker at every level with the trump suit its "
              "heuristic prefers (no-trump choices, a minority, are left out) and the table counts how often the "
              "tricks it then takes reach each bid. Trumps held include the bowers.\n")
    md.append("![Boulmous success by hand class](boulmous/classes_heatmap.png)\n")
    bt = res["by_trumps_bowers"]
    bt = bt[bt.n >= 1000]
    md.append(markdown_table(pd.DataFrame({"trumps": bt.trumps, "bowers": bt.bowers, "deals": [f"{x:,}" for x in bt.n],
                                **{f"bid {b}": [pct(getattr(r, f"p{b}"), getattr(r, f"p{b}_lo"), getattr(r, f"p{b}_hi"))
                                                for r in bt.itertuples()] for b in range(3, 7)}})) + "\n")
    md.append("(Classes with fewer than 1,000 deals omitted here; all are in `boulmous/by_trumps_bowers.csv`, "
              "and by side aces too in `boulmous/classes.csv`. Rows with one or two trumps are a selected few: the "
              "heuristic names such a short trump suit only when its side cards are strong, which is why one "
              "trump can do better than two.)\n")

    # 3. auctions
    au = auction_stats(seed, n_cls, opts=RunOptions(runs / "boulmous-headline-auction", progress=progress, force=True))
    write_table(au["contracts"], d, "auction_contracts")
    write_table(au["positions"], d, "auction_positions")
    md.append("### How auctions end (all seats `cautious`)\n")
    md.append(f"Regenerate: `tricksim odds boulmous --hands {n_cls} --seed {seed}` (printed after the class table).\n")
    c = au["contracts"]
    md.append(markdown_table(pd.DataFrame({"contract": c.contract, "frequency": [pct(a, b, e, 2) for a, b, e in zip(c.freq, c.freq_lo, c.freq_hi)],
                                "made": [pct(a, b, e) if a == a else "-" for a, b, e in zip(c.p_made, c.made_lo, c.made_hi)],
                                "deals": [f"{x:,}" for x in c.n_deals]})) + "\n")
    pos = au["positions"]
    md.append(markdown_table(pd.DataFrame({"position": pos.position, "mean points per deal": [pm(a, b) for a, b in zip(pos.mean_points, pos.ci)]})) + "\n")

    # 4. whole games with money
    gs = game_stakes(seed, n_games, opts=RunOptions(runs / "boulmous-headline-stakes", progress=progress, force=True))
    write_table(gs["seats"], d, "game_stakes")
    s = gs["seats"]
    md.append("### Whole games to 21 with the money settlement\n")
    md.append(f"Regenerate: `tricksim stakes boulmous --games {n_games} --seed {seed}`\n")
    md.append(f"{gs['games']:,} games, {gs['mean_deals']:.1f} deals per game on average; seat 0 deals first. "
              "Stakes: the winner collects 1 from each other player plus 1 per box (failed contract) each made; "
              "a boulmous moves 1 per opponent at once.\n")
    md.append(markdown_table(pd.DataFrame({"seat": s.seat, "stakes per game": [pm(a, b) for a, b in zip(s.mean_stakes, s.stakes_ci)],
                                "P(win)": [pct(a, b, e) for a, b, e in zip(s.p_win, s.win_lo, s.win_hi)],
                                "boxes per game": s.boxes_per_game.round(3)})) + "\n")
    return "\n".join(md)


def trace_games(seed: int = 0, games: int = 1, rules: BoulmousRules | None = None, heuristics=None,
                first: int = 0) -> list[dict]:
    """Whole games ``first..first+games-1`` exactly as ``game_stakes`` plays them: one
    TRACE.md dict per deal, plus ``game_index``, ``deal_in_game``, ``scores_after``,
    ``boxes_after`` and, on a game's last deal, ``winners`` and ``game_stakes`` (the
    money of the whole game, settlement included)."""
    rules = rules or BoulmousRules()
    specs = parse_seats(heuristics)
    params = make_params(seed, rules, specs)
    kd, kc, ra, codes, prm = GAME.kernel_args(params)
    out = []
    for g in range(first, first + games):
        log, winners = K.trace_game(kd, kc, g, ra, codes, prm)
        for j in range(log.shape[0]):
            d = record_to_dict(log[j, :K.REC_LEN], seed, j, rules, specs)
            d["game_index"] = g
            d["deal_in_game"] = j
            d["scores_after"] = [int(x) for x in log[j, K.LOG_SCORES:K.LOG_SCORES + 4]]
            d["boxes_after"] = [int(x) for x in log[j, K.LOG_BOXES:K.LOG_BOXES + 4]]
            if j == log.shape[0] - 1:
                d["winners"] = [s for s in range(4) if (int(winners) >> s) & 1]
                d["game_stakes"] = [int(x) for x in log[j, K.LOG_STAKES:K.LOG_STAKES + 4]]
            out.append(d)
    return out


# ---------------------------------------------------------------------------
# the game record (analysis/game.py)
# ---------------------------------------------------------------------------
GAME = Game(
    name="boulmous", key=KEY, title="Boulmous", rules=BoulmousRules, rules_array=rules_array, kernel=K,
    rng_id=GAME_BOULMOUS, heuristics=REGISTRY, aliases=ALIASES, seats=4, seat_range=(4, 4),
    blocks={"boulmous.deals": block_deals, "boulmous.odds": block_odds, "boulmous.classes": block_classes,
            "boulmous.games": block_games, "boulmous.duplicate": block_duplicate},
    hand_rows={"boulmous.deals": hand_rows},
    duplicate=Duplicate(study="boulmous.duplicate", metrics=("points", "stakes"), unit="points per deal",
                        hands=1_000_000, block=1 << 18, layout="rounds", max_entrants=4,
                        dealer_note=" (four deals each, one per dealer)"),
    trace=trace, stakes=stakes_command, bench_cases=bench_cases, bench_hands=4_000_000, headline=headline,
    heading="## Boulmous", rules_section="1 (Boulmous)")

parse_seats = GAME.parse_seats
heuristic_arrays = GAME.heuristic_arrays
specs_from_json = GAME.specs_from_json
