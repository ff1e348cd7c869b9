"""Boomke Wies (RULES.md section 2): rules, partnership heuristics, trace, bid odds with the
double-dummy bound beside them, auctions over random deals, matches, duplicate support.

Studies (all through ``analysis.engine``, block functions ``boomke_wies.*``):
- ``odds_hand``: one 13-card hand; per random deal of the other 39 cards, the hand's
  holder declares and opens each suit it holds (that suit becomes trumps, rule 7), and
  for each seat position the auction in which it passes and the one in which it bids
  by its heuristic (``boomke_wies.odds``);
- ``auction_stats`` / ``odds_classes``: random deals with the auction (how auctions
  end, success per contract by the declarer's hand class) and the first to speak made
  declarer in its own suit (success of every bid by hand class);
- ``dd_hand`` / ``dd_deals``: the double-dummy bound of the same deals (endplay / DDS,
  the optional ``dd`` extra), beside the heuristic's result on each deal;
- ``match_stats``: whole matches of ``match_deals`` deals (rule 12);
- ``boomke_wies.duplicate``: the duplicate tournament of ``tricksim compare``.
Every deal is a pure function of (seed, deal index): the trace shows exactly the deals
the studies play.
"""
from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import numpy as np
import pandas as pd

from tricksim.analysis import engine
from tricksim.analysis.common import make_params
from tricksim.analysis.engine import RunOptions
from tricksim.analysis.game import Duplicate, Game
from tricksim.analysis.common import (HeuristicDef, HeuristicSpec, Param, TricksimError, flag, parse_cards,
                             parse_heuristic, rules_dict)
from tricksim.analysis.stats import Z95, hist_mean_ci, mean_ci, wilson
from tricksim.kernels import boomke_wies as K
from tricksim.kernels.cards import RANKS, SUITS, card_str, cards_of, mask_of
from tricksim.kernels.rng import GAME_BOOMKE

KEY = "boomke_wies"
N_SEATS = 4
BIDS = list(range(7, 14))
CONTRACT_NAMES = ["7", "8", "9", "10", "11", "12", "Boom", "Meetje"]   # contract class 0..7
POSITIONS = ["1st (dealer's left)", "2nd", "3rd", "dealer"]
HCP_BUCKETS = [(0, 7), (8, 10), (11, 13), (14, 16), (17, 19), (20, 37)]
ODDS_BLOCK = 1 << 16      # deals per engine block: the odds of one hand
DEALS_BLOCK = 1 << 20     # random deals (auctions, hand classes)
MATCHES_BLOCK = 1 << 13   # whole matches


# ---------------------------------------------------------------------------
# rules
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class BoomkeRules:
    """Every variant flag of RULES.md 2.1 / 2.2 / section 5 with its default."""
    PREFIX = "boomke"
    variant: str = flag("auction", ["auction", "no_auction"], help="rule 13: no_auction = classic whist, trumps turned up")
    dealer_may_bid_8_to_12: bool = flag(False, help="rule 6: after three passes the dealer may also bid 8-12")
    meetje_trump: str = flag("dealer_leads_trump", ["dealer_leads_trump", "dealer_names_then_eldest_leads"],
                             help="rule 8")
    meetje_shortfall_penalty: bool = flag(False, help="2.2: in Meetje the dealer's team scores -(7-T) when T < 7")
    defence_scoring: str = flag("upto9_1_else_2", ["upto9_1_else_2", "literal_exactly9"],
                                help="2.2: defenders of a failed 7-9 score 1 (<= 9 tricks) or 2; literal: 1 only for exactly 9")
    shuffle: str = flag("full", ["full", "none_collect_tricks"],
                        help="rule 3: none_collect_tricks = the played tricks are gathered, cut and dealt")
    deal_packets: str = flag("4_4_5", ["4_4_5", "5_4_4"],
                             help="rule 3: packets (matter only without a shuffle; no_auction deals 4-4-4-1)")
    target_score: int | None = flag(None, rng=(1, 1000), help="rule 12: a match ends when a team reaches it (none = off)")
    tiebreak_extra_deal: bool = flag(True, help="rule 12: a match tied at the end gets one extra deal")
    match_deals: int = flag(16, rng=(1, 1000), help="rule 12: deals per match (without a target score)")


def rules_array(r: BoomkeRules) -> np.ndarray:
    a = np.zeros(K.N_RULES, np.int64)
    a[K.R_VARIANT] = ["auction", "no_auction"].index(r.variant)
    a[K.R_DEALER_8_12] = int(r.dealer_may_bid_8_to_12)
    a[K.R_MEETJE_TRUMP] = ["dealer_leads_trump", "dealer_names_then_eldest_leads"].index(r.meetje_trump)
    a[K.R_MEETJE_SHORTFALL] = int(r.meetje_shortfall_penalty)
    a[K.R_DEFENCE] = ["upto9_1_else_2", "literal_exactly9"].index(r.defence_scoring)
    a[K.R_SHUFFLE] = ["full", "none_collect_tricks"].index(r.shuffle)
    a[K.R_PACKETS] = ["4_4_5", "5_4_4"].index(r.deal_packets)
    a[K.R_TARGET] = 0 if r.target_score is None else int(r.target_score)
    a[K.R_TIEBREAK_EXTRA] = int(r.tiebreak_extra_deal)
    a[K.R_MATCH_DEALS] = int(r.match_deals)
    return a


# ---------------------------------------------------------------------------
# heuristics
# ---------------------------------------------------------------------------
def _family(margin=0.0, ace=1.0, king=0.75, queen=0.4, trump_len=0.75, short=0.2, partner=4.0, partner_passed=3.4,
            partner_bid=0.9, seven_margin=0.5, boom_margin=1.5, overcall_partner=0, draw_trumps=1, count=1, ruff=1):
    return {p.name: p for p in [
        Param("margin", margin, -3, 5, "bid a level only when the team's estimated tricks minus margin reach it"),
        Param("ace", ace, 0, 2, "tricks counted per ace"),
        Param("king", king, 0, 2, "tricks counted per king with at least one more card of its suit"),
        Param("queen", queen, 0, 2, "tricks counted per queen with at least two more cards of its suit"),
        Param("trump_len", trump_len, 0, 2, "tricks counted per card of the longest suit (the intended trumps) beyond three"),
        Param("short", short, 0, 2, "ruffing value per singleton (twice per void) beside four or more trumps"),
        Param("partner", partner, 0, 7, "tricks credited to a partner who has not spoken"),
        Param("partner_passed", partner_passed, 0, 7, "tricks credited to a partner who has passed"),
        Param("partner_bid", partner_bid, 0, 2, "share credited of what a partner's bid b implies (b + margin - partner)"),
        Param("seven_margin", seven_margin, -3, 6, "forced dealer: bid 7 when the team estimate reaches 7 + this, else Meetje"),
        Param("boom_margin", boom_margin, -3, 6, "bid Boom when the team estimate reaches 13 + this"),
        Param("overcall_partner", overcall_partner, 0, 1, "1: may overbid its own partner"),
        Param("draw_trumps", draw_trumps, 0, 1, "1: the declaring side leads trumps while an opponent may hold one"),
        Param("count", count, 0, 1, "1: remembers every card played and who showed out; 0: sees only its hand and the trick"),
        Param("ruff", ruff, 0, 1, "1: trumps a trick the opponents are winning when void; 0: always discards"),
    ]}


REGISTRY = {
    "random": HeuristicDef("random", K.H_RANDOM,
                           {"bid_prob": Param("bid_prob", 0.3, 0, 1, "chance of bidding (0-2 above the lowest legal bid) when it may")},
                           "random-legal baseline: random calls, a uniformly random legal card (the opening lead too)",
                           deterministic=False),
    "partner": HeuristicDef("partner", K.H_PARTNER, _family(),
                            "partnership player: values its hand, credits partner by what partner's calls show, "
                            "opens its longest suit as trumps, draws trumps, second hand low, third hand high, never "
                            "overtakes a winning partner, ruffs cheaply, counts cards"),
    "naive": HeuristicDef("naive", K.H_NAIVE, _family(partner_passed=4.0, partner_bid=0.0, overcall_partner=1,
                                                      draw_trumps=0, count=0),
                          "the same valuation without memory and without partner inference: credits partner a fixed "
                          "4 tricks whatever he called, may overbid him, does not draw trumps, remembers no card"),
}
ALIASES = {"default": "partner"}


# ---------------------------------------------------------------------------
# calls, hands, scoring (Python side)
# ---------------------------------------------------------------------------
def parse_hand(text: str) -> list[int]:
    return parse_cards(text, 13, RANKS, "Boomke Wies hand")


def parse_call(text) -> int:
    """'7'..'13', 'boom' (= 13) or 'meetje' -> the kernel's call code."""
    t = str(text).strip().lower()
    if t == "boom":
        return K.BOOM
    if t == "meetje":
        return K.MEETJE
    if t.isdigit() and 7 <= int(t) <= 13:
        return int(t)
    raise TricksimError(f"unknown call {text!r}: use a bid 7..13, 'boom' or 'meetje'")


def call_name(code: int) -> str:
    if code == K.MEETJE:
        return "Meetje"
    if code == K.BOOM:
        return "Boom"
    return str(code)


def score(contract: int, T: int, rules: BoomkeRules, O: int | None = None):
    """(declaring team's points, opponents' points, made) by the scoring table (rule 11)."""
    O = 13 - T if O is None else O
    return K.score_contract(contract, T, O, rules_array(rules))


def _trump(t: str) -> int:
    u = t.strip().upper()
    if u not in ("S", "H", "D", "C"):
        raise TricksimError(f"unknown trump {t!r}: Boomke Wies trumps are a suit (S, H, D or C), made by the first lead")
    return SUITS.index(u)


# ---------------------------------------------------------------------------
# block functions (the engine's unit of work)
# ---------------------------------------------------------------------------
def block_deals(params, first, n):
    kd, kc, ra, codes, prm = GAME.kernel_args(params)
    return K.sim_deals(kd, kc, first, n, ra, codes, prm)


def block_classes(params, first, n):
    kd, kc, ra, codes, prm = GAME.kernel_args(params)
    return K.sim_classes(kd, kc, first, n, ra, codes, prm)


def block_odds(params, first, n):
    kd, kc, ra, codes, prm = GAME.kernel_args(params)
    pos = np.zeros(4, np.int64)
    for p in params["positions"]:
        pos[p] = 1
    return K.sim_odds(kd, kc, first, n, np.uint64(params["hand_mask"]), pos, ra, codes, prm)


def block_matches(params, first, n):
    kd, kc, ra, codes, prm = GAME.kernel_args(params)
    return K.sim_matches(kd, kc, first, n, ra, codes, prm)


# ---------------------------------------------------------------------------
# trace
# ---------------------------------------------------------------------------
def _cards(mask):
    return [card_str(c) for c in sorted(cards_of(int(mask) & ((1 << 64) - 1)))]


def record_to_dict(rec, seed, index, rules, specs, with_legal=False):
    """One TRACE.md line from a kernel hand record."""
    rec = [int(x) for x in rec]
    hands = [_cards(rec[K.REC_HANDS + s]) for s in range(4)]
    nb = rec[K.REC_NBIDS]
    bids = []
    for i in range(nb):
        b = rec[K.REC_BIDS + 2 * i + 1]
        bids.append({"seat": rec[K.REC_BIDS + 2 * i],
                     "bid": None if b == K.PASS else ("meetje" if b == K.MEETJE else b)})
    tricks, legal = [], []
    for t in range(rec[K.REC_NTRICKS]):
        b = K.REC_TRICKS + 6 * t
        tricks.append({"leader": rec[b], "cards": [card_str(c) for c in rec[b + 1:b + 5]], "winner": rec[b + 5]})
        legal.append([_cards(rec[K.REC_LEGAL + 4 * t + k]) for k in range(4)])
    no_auction = rules.variant == "no_auction"
    decl = rec[K.REC_DECL]
    contract = rec[K.REC_CONTRACT]
    d = {
        "game": KEY, "seed": seed, "hand_index": index, "rules": rules_dict(rules),
        "heuristics": [s.label for s in specs], "dealer": rec[K.REC_DEALER],
        "deal": hands, "teams": [[0, 2], [1, 3]], "bids": bids,
        "bidder": None if no_auction else decl,
        "contract": None if no_auction else ("meetje" if contract == K.MEETJE else contract),
        "trump": SUITS[rec[K.REC_TRUMP]],
        "first_leader": rec[K.REC_LEADER0],
        "hands": hands, "tricks": tricks,
        "tricks_won": [rec[K.REC_WON + s] for s in range(4)],
        "team_tricks": [rec[K.REC_TEAM], rec[K.REC_TEAM + 1]],
        "made": None if no_auction else bool(rec[K.REC_MADE]),
        "score_delta": [rec[K.REC_SCORE + s] for s in range(4)],
        "stopped_early": rec[K.REC_NTRICKS] < 13,
    }
    if no_auction:
        d["turn_up"] = card_str(rec[K.REC_TURNUP])
    if rules.shuffle == "none_collect_tricks":
        d["pile"] = [card_str(c) for c in rec[K.REC_PILE:K.REC_PILE + 52]]
        d["cut"] = rec[K.REC_CUT]
    if with_legal:
        d["legal"] = legal
    return d


def trace(seed: int = 0, hands: int = 10, rules: BoomkeRules | None = None, heuristics=None,
          first: int = 0, with_legal: bool = False) -> list[dict]:
    """Hands ``first..first+hands-1`` of the deal studies with this seed, as TRACE.md dicts."""
    rules = rules or BoomkeRules()
    specs = parse_seats(heuristics)
    check_hands(hands)
    if first < 0:
        raise TricksimError(f"the first deal's index must be at least 0, got {first}")
    kd, kc, ra, codes, prm = GAME.kernel_args(make_params(seed, rules, specs))
    recs = K.trace_deals(kd, kc, first, hands, ra, codes, prm)
    return [record_to_dict(recs[i], seed, first + i, rules, specs, with_legal) for i in range(hands)]


# ---------------------------------------------------------------------------
# odds of one hand
# ---------------------------------------------------------------------------
def _score_vectors(contract, rules):
    """Per team tricks T = 0..13: the declaring team's points and its net (minus the opponents')."""
    ours = np.zeros(14)
    net = np.zeros(14)
    for T in range(14):
        a, b, _ = score(contract, T, rules)
        ours[T] = a
        net[T] = a - b
    return ours, net


def heuristic_open_suit(cards, spec) -> str:
    """The suit the heuristic would open as declarer (so its trumps)."""
    if spec.code == K.H_RANDOM:
        return "random"
    return SUITS[K.best_suit(np.uint64(mask_of(cards)))]


def _odds_tables(agg, cards, positions, rules, n):
    """Trick distributions, the calls table and the per-position table from ``sim_odds`` counts."""
    held = [s for s in range(4) if any(c // 16 == s for c in cards)]
    trick_rows, call_rows = [], []
    for s in held:
        h = agg[s * 14:(s + 1) * 14]
        m, half, _ = hist_mean_ci(np.arange(14), h)
        row = {"trump": SUITS[s], "n": int(h.sum()), "mean_tricks": m, "mean_ci": half}
        for T in range(14):
            row[f"P{T}"] = h[T] / max(h.sum(), 1)
        trick_rows.append(row)
        for contract in BIDS + [K.MEETJE]:
            hh = h
            if contract == K.MEETJE and rules.meetje_trump == "dealer_names_then_eldest_leads":
                hh = agg[K.ODDS_MEETJE + s * 14:K.ODDS_MEETJE + (s + 1) * 14]
                if hh.sum() == 0:
                    continue
            nn = int(hh.sum())
            need = 7 if contract == K.MEETJE else contract
            k = int(hh[need:].sum())
            p, lo, hi = wilson(k, nn)
            ours, net = _score_vectors(contract, rules)
            mo, ho, _ = hist_mean_ci(ours, hh)
            mn, hn, _ = hist_mean_ci(net, hh)
            call_rows.append({"trump": SUITS[s], "call": call_name(contract), "p_make": float(p), "ci_low": float(lo),
                              "ci_high": float(hi), "n": nn, "exp_points": mo, "points_ci": ho, "exp_net": mn,
                              "net_ci": hn, "dealer_only": contract == K.MEETJE})
    pos_rows = []
    ours_v = np.arange(-7, 6)
    net_v = np.arange(-10, 6)
    for p in positions:
        base = K.ODDS_POS + p * K.ODDS_POS_LEN
        seg = agg[base:base + K.ODDS_POS_LEN]
        pass_o, pass_n = seg[0:13], seg[13:29]
        heur_o, heur_n = seg[29:42], seg[42:58]
        npos = int(pass_o.sum())
        po, poh, _ = hist_mean_ci(ours_v, pass_o)
        pn, pnh, _ = hist_mean_ci(net_v, pass_n)
        ho, hoh, _ = hist_mean_ci(ours_v, heur_o)
        hn, hnh, _ = hist_mean_ci(net_v, heur_n)
        pd_, pdl, pdh = wilson(int(seg[58]), npos)
        pp_, ppl, pph = wilson(int(seg[59]), npos)
        pos_rows.append({"position": p, "position_name": POSITIONS[p], "n": npos,
                         "pass_points": po, "pass_points_ci": poh, "pass_net": pn, "pass_net_ci": pnh,
                         "heuristic_points": ho, "heuristic_points_ci": hoh, "heuristic_net": hn,
                         "heuristic_net_ci": hnh, "p_hand_declares": float(pd_), "hand_declares_lo": float(pdl),
                         "hand_declares_hi": float(pdh), "p_partner_declares": float(pp_),
                         "partner_declares_lo": float(ppl), "partner_declares_hi": float(pph)})
    calls = pd.DataFrame(call_rows)
    posdf = pd.DataFrame(pos_rows)
    best_rows = []
    for r in pos_rows:
        cand = calls if r["position"] == 3 else calls[~calls.dealer_only]
        b = cand.sort_values(["exp_net", "call"], ascending=[False, True]).iloc[0]
        if r["pass_net"] > b.exp_net:
            best_rows.append({"position": r["position_name"], "best_call": "pass", "exp_net": r["pass_net"],
                              "net_ci": r["pass_net_ci"]})
        else:
            best_rows.append({"position": r["position_name"], "best_call": f"{b.call}, opening {b.trump}",
                              "exp_net": b.exp_net, "net_ci": b.net_ci})
    best_trump = None
    if len(calls):
        by_t = calls[calls.call == "7"].sort_values("exp_net", ascending=False)
        best_trump = by_t.iloc[0].trump if len(by_t) else None
    return {"tricks": pd.DataFrame(trick_rows), "calls": calls, "positions": posdf, "best": pd.DataFrame(best_rows),
            "best_trump": best_trump}


def _positions(seat):
    if seat is None:
        return [0, 1, 2, 3]
    if not 0 <= int(seat) <= 3:
        raise TricksimError(f"the seat must be 0..3 (0 = dealer's left, 3 = dealer), got {seat}")
    return [int(seat)]


def check_hands(hands: int) -> int:
    if hands < 1:
        raise TricksimError(f"the number of deals must be at least 1, got {hands}")
    return hands


def odds_run(cards, seat=None, seed: int = 0, hands: int = 200_000, rules=None, heuristics=None,
             block_size: int = ODDS_BLOCK) -> engine.Run:
    """The run of ``odds_hand``: what names its folder and what it executes."""
    params = make_params(seed, rules or BoomkeRules(), parse_seats(heuristics), hand_mask=mask_of(cards),
                         positions=_positions(seat))
    return engine.Run("boomke_wies.odds", params, check_hands(hands), block_size, unit="deals")


def odds_hand(hand, seat=None, seed: int = 0, hands: int = 200_000, rules: BoomkeRules | None = None, heuristics=None,
              trumps=None, calls=None, opts: RunOptions = RunOptions(), until_precision: float | None = None,
              block_size: int = ODDS_BLOCK):
    """Bid odds of one Boomke Wies hand over ``hands`` random deals of the other 39 cards.

    ``seat``: position from the dealer (0 = dealer's left .. 3 = dealer) or None for all
    four. Returns {'tricks', 'calls', 'positions', 'best', 'best_trump', 'open_suit', ...}:
    per opening suit (= trumps) the distribution of the team's tricks, per call the
    chance of making it with its 95% interval and the expected points and net points
    (ours minus theirs) by the scoring table, per position the passing and heuristic
    alternatives, and the best call per position (by expected net points)."""
    rules = rules or BoomkeRules()
    if rules.variant == "no_auction":
        raise TricksimError("the odds of a hand need the bidding game: the no-auction variant has no calls "
                            "(run 'tricksim odds boomke-wies --rule variant=no_auction' without --hand)")
    cards = parse_hand(hand) if isinstance(hand, str) else list(hand)
    positions = _positions(seat)
    specs = parse_seats(heuristics)
    tsel = [_trump(t) for t in trumps] if trumps else None
    csel = [call_name(parse_call(c)) for c in calls] if calls else None
    run = odds_run(cards, seat, seed, hands, rules, specs, block_size)
    if until_precision is not None and until_precision <= 0:
        raise TricksimError(f"the precision must be a positive half-width, got {until_precision}")

    def precise(acc, n):
        t = _odds_tables(acc, cards, positions, rules, n)["calls"]
        return bool(((t.ci_high - t.ci_low) / 2).max() <= until_precision)
    r = opts.execute(run, precise if until_precision else None)
    res = _odds_tables(r.counts, cards, positions, rules, r.n)
    if tsel is not None:
        keep = [SUITS[t] for t in tsel]
        res["calls"] = res["calls"][res["calls"].trump.isin(keep)].reset_index(drop=True)
        res["tricks"] = res["tricks"][res["tricks"].trump.isin(keep)].reset_index(drop=True)
    if csel is not None:
        res["calls"] = res["calls"][res["calls"].call.isin(csel)].reset_index(drop=True)
    res.update({"n": r.n, "seconds": r.seconds, "hand": " ".join(card_str(c) for c in cards), "cards": cards,
                "open_suit": heuristic_open_suit(cards, specs[0]), "positions_list": positions,
                "heuristics": [s.label for s in specs], "counts": r.counts})
    return res


def render_odds(res) -> str:
    from tricksim.analysis.output import pct, pm
    lines = [f"Boomke Wies hand {res['hand']}: {res['n']:,} random deals of the other 39 cards; heuristics "
             f"{', '.join(sorted(set(res['heuristics'])))}; every row is the hand's holder declaring and opening "
             "that suit (so making it trumps), partner and opponents playing the heuristics."]
    tr = res["tricks"]
    rows = []
    for r in tr.itertuples():
        rows.append({"trump": r.trump, "E[team tricks]": pm(r.mean_tricks, r.mean_ci, 2),
                     **{str(T): f"{100 * getattr(r, f'P{T}'):.1f}" for T in range(4, 14)}})
    lines.append("\nTeam tricks (% of deals with exactly T tricks, T = 4..13; the same in every seat position, "
                 "since once the hand declares the play does not depend on who dealt):")
    lines.append(pd.DataFrame(rows).to_string(index=False))
    rows = []
    for r in res["calls"].itertuples():
        rows.append({"trump": r.trump, "call": r.call + (" (dealer)" if r.dealer_only else ""),
                     "P(make) [95% CI]": pct(r.p_make, r.ci_low, r.ci_high), "n": f"{r.n:,}",
                     "E[points]": pm(r.exp_points, r.points_ci, 3), "E[net]": pm(r.exp_net, r.net_ci, 3)})
    lines.append("\nCalls (P(make) = team takes at least the bid; Meetje: at least 7; points by the scoring table, "
                 "graded by tricks taken; net = ours minus the opponents'):")
    lines.append(pd.DataFrame(rows).to_string(index=False))
    rows = []
    for r in res["positions"].itertuples():
        rows.append({"position": r.position_name,
                     "pass: E[net]": pm(r.pass_net, r.pass_net_ci, 3),
                     "heuristic: E[net]": pm(r.heuristic_net, r.heuristic_net_ci, 3),
                     "heuristic: hand declares": pct(r.p_hand_declares, r.hand_declares_lo, r.hand_declares_hi),
                     "partner declares": pct(r.p_partner_declares, r.partner_declares_lo, r.partner_declares_hi)})
    lines.append("\nBy position (pass = the hand passes at its first turn and the others bid on; as dealer after three "
                 "passes it must call, and calls by its heuristic; heuristic = the whole auction by the heuristics):")
    lines.append(pd.DataFrame(rows).to_string(index=False))
    lines.append("\nBest call per position (highest expected net points; a call is assumed to end the auction):")
    for r in res["best"].itertuples():
        lines.append(f"  {r.position}: {r.best_call} ({pm(r.exp_net, r.net_ci, 3)} net points)")
    lines.append(f"Best trump (opening suit) for a 7 bid: {res['best_trump']}; the heuristic itself opens "
                 f"{res['open_suit']}.")
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# random deals: auctions and hand classes
# ---------------------------------------------------------------------------
def _hcp_bucket(h):
    for i, (lo, hi) in enumerate(HCP_BUCKETS):
        if lo <= h <= hi:
            return i
    return len(HCP_BUCKETS) - 1


def _bucket_name(i):
    lo, hi = HCP_BUCKETS[i]
    return f"{lo}-{hi}" if hi < 37 else f"{lo}+"


def deals_run(seed: int = 0, hands: int = 2_000_000, rules=None, heuristics=None,
              block_size: int = DEALS_BLOCK) -> engine.Run:
    """The run of ``auction_stats``."""
    return engine.Run("boomke_wies.deals", make_params(seed, rules or BoomkeRules(), parse_seats(heuristics)),
                      check_hands(hands), block_size, unit="deals")


def auction_stats(seed: int = 0, hands: int = 2_000_000, rules=None, heuristics=None,
                  opts: RunOptions = RunOptions(), block_size: int = DEALS_BLOCK):
    """How auctions end over random deals (dealer = deal index mod 4): each contract, Meetje
    and Boom with their frequency and success rate, by the declarer's position and hand
    class; mean points per seat position. No-auction variant: team tricks."""
    rules = rules or BoomkeRules()
    r = opts.execute(deals_run(seed, hands, rules, heuristics, block_size))
    return decode_deals(r.counts, r.n, rules) | {"seconds": r.seconds}


def decode_deals(agg, n, rules):
    A = agg[:K.AGG_A].reshape(K.N_CC, 4, 14)
    B = agg[K.OFF_B:K.OFF_B + K.AGG_B].reshape(K.N_CC, 10, 38, 2)
    C = agg[K.OFF_C:K.OFF_C + 8]
    D = agg[K.OFF_D:K.OFF_D + 14]
    rows = []
    for cc in range(K.N_CC):
        h = A[cc].sum(axis=0)
        k = int(h.sum())
        made = int(B[cc, :, :, 1].sum())
        pf, flo, fhi = wilson(k, n)
        pm_, mlo, mhi = wilson(made, k)
        mt, mth, _ = hist_mean_ci(np.arange(14), h)
        rows.append({"contract": CONTRACT_NAMES[cc], "freq": float(pf), "freq_lo": float(flo), "freq_hi": float(fhi),
                     "n_deals": n, "declared": k, "p_made": float(pm_), "made_lo": float(mlo), "made_hi": float(mhi),
                     "mean_team_tricks": mt, "tricks_ci": mth})
    contracts = pd.DataFrame(rows)
    prow = []
    for p in range(4):
        h = A[:, p, :]
        k = int(h.sum())
        pf, flo, fhi = wilson(k, n)
        prow.append({"declarer_position": POSITIONS[p], "freq": float(pf), "freq_lo": float(flo),
                     "freq_hi": float(fhi), "n_deals": n})
    m, half = mean_ci(C[:4], C[4:8], n)
    points = pd.DataFrame({"position": POSITIONS, "mean_points": m, "ci": half, "n_deals": n})
    # success by contract and the declarer's hand class (longest suit, HCP bucket)
    crow = []
    for cc in range(K.N_CC):
        for lg in range(10):
            for hb in range(len(HCP_BUCKETS)):
                lo, hi = HCP_BUCKETS[hb]
                seg = B[cc, lg, lo:hi + 1]
                k = int(seg.sum())
                if k == 0:
                    continue
                p, plo, phi = wilson(int(seg[:, 1].sum()), k)
                crow.append({"contract": CONTRACT_NAMES[cc], "longest_suit": lg + 4, "hcp": _bucket_name(hb),
                             "n": k, "p_made": float(p), "made_lo": float(plo), "made_hi": float(phi)})
    res = {"contracts": contracts, "declarer_positions": pd.DataFrame(prow), "points": points,
           "by_class": pd.DataFrame(crow), "n": n}
    if rules.variant == "no_auction":
        m, half, _ = hist_mean_ci(np.arange(14), D)
        res["no_auction"] = pd.DataFrame({"team0_tricks": np.arange(14), "freq": D / max(n, 1), "n_deals": n})
        res["no_auction_mean"] = (m, half)
    return res


def odds_classes(seed: int = 0, hands: int = 2_000_000, rules=None, heuristics=None,
                 opts: RunOptions = RunOptions(), block_size: int = DEALS_BLOCK):
    """Random deals; the first to speak declares (no auction) and opens the suit its
    heuristic prefers: the chance its team takes at least b tricks (b = 7..13) by its
    longest suit and its high-card points (4-3-2-1)."""
    rules = rules or BoomkeRules()
    if rules.variant == "no_auction":
        raise TricksimError("success by hand class needs the bidding game (the no-auction variant has no declarer)")
    specs = parse_seats(heuristics)
    run = engine.Run("boomke_wies.classes", make_params(seed, rules, specs), check_hands(hands), block_size,
                     unit="deals")
    r = opts.execute(run)
    return decode_classes(r.counts, r.n) | {"seconds": r.seconds}


def decode_classes(agg, n):
    a = agg.reshape(10, 38, 14)

    def row(h, **key):
        k = int(h.sum())
        m, half, _ = hist_mean_ci(np.arange(14), h)
        d = {**key, "n": k, "mean_tricks": m, "mean_ci": half}
        for b in BIDS:
            p, lo, hi = wilson(int(h[b:].sum()), k)
            d[f"p{b}"], d[f"p{b}_lo"], d[f"p{b}_hi"] = float(p), float(lo), float(hi)
        return d
    by_len = [row(a[lg].sum(axis=0), longest_suit=lg + 4) for lg in range(10) if a[lg].sum() > 0]
    by_hcp = [row(a[:, lo:hi + 1].sum(axis=(0, 1)), hcp=_bucket_name(i)) for i, (lo, hi) in enumerate(HCP_BUCKETS)]
    grid = []
    for lg in range(10):
        for i, (lo, hi) in enumerate(HCP_BUCKETS):
            h = a[lg, lo:hi + 1].sum(axis=0)
            if h.sum() > 0:
                grid.append(row(h, longest_suit=lg + 4, hcp=_bucket_name(i)))
    return {"by_longest": pd.DataFrame(by_len), "by_hcp": pd.DataFrame(by_hcp), "grid": pd.DataFrame(grid), "n": n}


# ---------------------------------------------------------------------------
# matches (rule 12)
# ---------------------------------------------------------------------------
def matches_run(seed: int = 0, matches: int = 100_000, rules=None, heuristics=None,
                block_size: int = MATCHES_BLOCK) -> engine.Run:
    """The run of ``match_stats``."""
    if matches < 1:
        raise TricksimError(f"the number of matches must be at least 1, got {matches}")
    return engine.Run("boomke_wies.matches", make_params(seed, rules or BoomkeRules(), parse_seats(heuristics)),
                      matches, block_size, unit="matches")


def match_stats(seed: int = 0, matches: int = 100_000, rules=None, heuristics=None, opts: RunOptions = RunOptions(),
                block_size: int = MATCHES_BLOCK):
    """Whole matches (``match_deals`` deals, or to ``target_score``): team points per match,
    wins, draws, deals per match."""
    specs = parse_seats(heuristics)
    r = opts.execute(matches_run(seed, matches, rules, specs, block_size))
    a = r.counts
    n = r.n
    m, half = mean_ci(a[0:2], a[2:4], n)
    pw, lo, hi = wilson(a[4:7], n)
    teams = pd.DataFrame({"team": ["seats 0+2", "seats 1+3", "draw"],
                          "heuristics": [f"{specs[0].label} + {specs[2].label}", f"{specs[1].label} + {specs[3].label}", ""],
                          "mean_points": [m[0], m[1], np.nan], "points_ci": [half[0], half[1], np.nan],
                          "p": pw, "p_lo": lo, "p_hi": hi, "matches": n})
    return {"teams": teams, "matches": n, "mean_deals": a[7] / max(n, 1), "extra_deals": int(a[8]),
            "booms_per_match": a[9] / max(n, 1), "meetjes_per_match": a[10] / max(n, 1), "seconds": r.seconds}


# ---------------------------------------------------------------------------
# double dummy (optional extra: endplay, which wraps the DDS solver)
# ---------------------------------------------------------------------------
DD_BATCH = 100
_DD_THREADS = {"n": 0}


def _endplay():
    try:
        import endplay.dds.solve as solve
        from endplay.types import Deal, Denom, Player
        import endplay._dds as dds
    except ImportError:
        raise TricksimError("--double-dummy needs the optional 'dd' extra (endplay, the DDS solver): "
                            "pip install 'tricksim[dd]'") from None
    return solve, Deal, Denom, Player, dds


def _pbn(hands) -> str:
    parts = []
    for s in range(4):
        m = int(hands[s]) & ((1 << 64) - 1)
        parts.append(".".join("".join(RANKS[r] for r in range(12, -1, -1) if (m >> (16 * su + r)) & 1)
                              for su in range(4)))
    return "N:" + " ".join(parts)


def dd_solve(problems, threads: int | None = None) -> list[int]:
    """Double-dummy tricks for the side on lead. ``problems``: (hands as 4 masks, leader
    seat, trump suit, lead suit or -1). With a lead suit the leader must open that suit
    (the declarer making trumps by the first card led): the best of those cards counts.
    Seats 0..3 are North, East, South, West (clockwise, partners opposite)."""
    solve, Deal, Denom, Player, dds = _endplay()
    if threads is not None:
        dds.SetMaxThreads(int(threads))
    out = []
    for i in range(0, len(problems), DD_BATCH):
        chunk = problems[i:i + DD_BATCH]
        deals = []
        for hands, leader, trump, _ in chunk:
            d = Deal.from_pbn(_pbn(hands))
            d.first = Player(int(leader))
            d.trump = Denom(int(trump))
            deals.append(d)
        solved = solve.solve_all_boards(deals, solve.SolveMode.Default)
        for (hands, leader, trump, ls), sb in zip(chunk, solved):
            best = -1
            for card, tricks in sb:
                if ls < 0 or int(card.suit) == ls:
                    best = max(best, int(tricks))
            if best < 0:
                raise RuntimeError("the double-dummy solver returned no card of the required suit")
            out.append(best)
    return out


AGG_DD_DEALS = K.N_CC * 14 * 14
AGG_DD_HAND = 4 * 14 * 14


def block_dd_deals(params, first, n):
    """Deals ``first..first+n-1`` of the auction study: the heuristic declaring team's tricks
    beside the double-dummy tricks of the same declarer, trumps and (for the declarer's
    opening) lead suit. Returns [contract class][heuristic tricks][DD tricks]."""
    kd, kc, ra, codes, prm = GAME.kernel_args(params)
    recs = K.trace_deals(kd, kc, first, n, ra, codes, prm)
    probs, meta = [], []
    for rec in recs:
        decl = int(rec[K.REC_DECL])
        t = int(rec[K.REC_TRUMP])
        leader = int(rec[K.REC_LEADER0])
        hands = [int(rec[K.REC_HANDS + s]) for s in range(4)]
        same_side = (leader & 1) == (decl & 1)
        probs.append((hands, leader, t, t if leader == decl else -1))
        meta.append((K.contract_class(int(rec[K.REC_CONTRACT])), int(rec[K.REC_TEAM + (decl & 1)]), same_side))
    tricks = dd_solve(probs, _DD_THREADS["n"] or None)
    agg = np.zeros(AGG_DD_DEALS, np.int64)
    for (cc, th, same), td in zip(meta, tricks):
        td = td if same else 13 - td
        agg[(cc * 14 + th) * 14 + td] += 1
    return agg


def block_dd_hand(params, first, n):
    """Deals ``first..first+n-1`` of the hand's odds study: per opening suit the team's
    heuristic tricks beside its double-dummy tricks with the hand on lead in that suit."""
    kd, kc, ra, codes, prm = GAME.kernel_args(params)
    hs, tk = K.odds_tricks(kd, kc, first, n, np.uint64(params["hand_mask"]), ra, codes, prm)
    probs, meta = [], []
    for i in range(n):
        for s in range(4):
            if tk[i, s] >= 0:
                probs.append(([int(x) for x in hs[i]], 0, s, s))
                meta.append((s, int(tk[i, s])))
    tricks = dd_solve(probs, _DD_THREADS["n"] or None)
    agg = np.zeros(AGG_DD_HAND, np.int64)
    for (s, th), td in zip(meta, tricks):
        agg[(s * 14 + th) * 14 + td] += 1
    return agg


def paired_gap(up: int, down: int, n: int):
    """Difference of two success rates measured on the same n deals (``up`` deals where
    only the second succeeds, ``down`` where only the first does), with the Agresti-Min
    95% interval (half a deal added to each cell of the 2x2 table, so that it never
    collapses to zero width). Returns (difference, half-width)."""
    d = (up - down) / n
    n2 = n + 2.0
    u, w = up + 0.5, down + 0.5
    c = (u - w) / n2
    var = ((u + w) - (u - w) ** 2 / n2) / (n2 * n2)
    return d, abs(c - d) + Z95 * var ** 0.5


def _gap_rows(joint, key: dict, bids):
    """Heuristic vs double-dummy success per bid from a joint [heuristic][DD] histogram;
    the gap DD - heuristic has a paired 95% interval (same deals)."""
    rows = []
    n = int(joint.sum())
    if n == 0:
        return rows
    th = np.arange(14)[:, None]
    td = np.arange(14)[None, :]
    for b in bids:
        hm = th >= b
        dm = td >= b
        kh = int(joint[np.broadcast_to(hm, joint.shape)].sum())
        kd = int(joint[np.broadcast_to(dm, joint.shape)].sum())
        up = int(joint[np.broadcast_to(~hm & dm, joint.shape)].sum())     # DD makes, heuristic fails
        down = int(joint[np.broadcast_to(hm & ~dm, joint.shape)].sum())   # heuristic makes, DD fails
        ph, hlo, hhi = wilson(kh, n)
        pdd, dlo, dhi = wilson(kd, n)
        g, gh = paired_gap(up, down, n)
        rows.append({**key, "bid": call_name(b), "n": n, "p_heuristic": float(ph), "heur_lo": float(hlo),
                     "heur_hi": float(hhi), "p_double_dummy": float(pdd), "dd_lo": float(dlo), "dd_hi": float(dhi),
                     "gap": float(g), "gap_ci": float(gh), "dd_below_heuristic": float(g) < -float(gh)})
    return rows


def _dd_run(study, params, n, block, opts: RunOptions):
    """Run a double-dummy study: ``opts.threads`` are the solver's threads (a block solves its deals in
    batches), not the engine's."""
    if opts.threads is not None and opts.threads < 1:
        raise TricksimError(f"the number of threads must be at least 1, got {opts.threads}")
    _endplay()
    _DD_THREADS["n"] = opts.threads or 0
    run = engine.Run(study, params, n, block, unit="deals")
    try:
        r = dataclasses.replace(opts, threads=None).execute(run)
    finally:
        _DD_THREADS["n"] = 0
    fresh = r.n - r.reused * block
    rate = fresh / r.seconds if r.seconds > 0 and fresh > 0 else float("nan")
    return r, rate


def dd_hand(hand, seed: int = 0, deals: int = 1000, rules=None, heuristics=None, opts: RunOptions = RunOptions(),
            block_size: int = 25):
    """The double-dummy bound for one hand: on the first ``deals`` deals of its odds study,
    per opening suit and bid, the heuristic's success beside the double-dummy success
    (the hand's holder on lead, obliged to open the suit that becomes trumps)."""
    rules = rules or BoomkeRules()
    if rules.variant == "no_auction":
        raise TricksimError("the double-dummy bound applies to the bidding game, not to the no-auction variant")
    cards = parse_hand(hand) if isinstance(hand, str) else list(hand)
    specs = parse_seats(heuristics)
    if deals < 1:
        raise TricksimError(f"the number of double-dummy deals must be at least 1, got {deals}")
    params = make_params(seed, rules, specs, hand_mask=mask_of(cards))
    r, rate = _dd_run("boomke_wies.dd_hand", params, deals, block_size, opts)
    joint = r.counts.reshape(4, 14, 14)
    rows = []
    for s in range(4):
        rows += _gap_rows(joint[s], {"trump": SUITS[s]}, BIDS)
    solves = int(joint.sum())
    return {"table": pd.DataFrame(rows), "deals": r.n, "solves": solves, "seconds": r.seconds,
            "solves_per_s": rate * solves / max(r.n, 1) if rate == rate else rate, "deals_per_s": rate,
            "hand": " ".join(card_str(c) for c in cards), "joint": joint}


def dd_deals(seed: int = 0, deals: int = 2000, rules=None, heuristics=None, opts: RunOptions = RunOptions(),
             block_size: int = 50):
    """The double-dummy bound over random deals with the auction: on the first ``deals``
    deals of the auction study, the declaring team's heuristic result beside the
    double-dummy result of the same declarer, trumps and opening-lead suit."""
    rules = rules or BoomkeRules()
    if rules.variant == "no_auction":
        raise TricksimError("the double-dummy bound applies to the bidding game, not to the no-auction variant")
    specs = parse_seats(heuristics)
    if deals < 1:
        raise TricksimError(f"the number of double-dummy deals must be at least 1, got {deals}")
    params = make_params(seed, rules, specs)
    r, rate = _dd_run("boomke_wies.dd_deals", params, deals, block_size, opts)
    joint = r.counts.reshape(K.N_CC, 14, 14)
    by_contract = []
    for cc in range(K.N_CC):
        need = 7 if cc == 7 else cc + 7
        by_contract += _gap_rows(joint[cc], {"contract": CONTRACT_NAMES[cc]}, [need])
    by_bid = _gap_rows(joint.sum(axis=0), {"contract": "all"}, BIDS)
    tot = joint.sum(axis=0)
    mh, hh, _ = hist_mean_ci(np.arange(14), tot.sum(axis=1))
    md, hd, _ = hist_mean_ci(np.arange(14), tot.sum(axis=0))
    diff = np.arange(14)[None, :] - np.arange(14)[:, None]
    vals = diff.ravel()
    mg, hg, _ = hist_mean_ci(vals, tot.ravel())
    return {"by_contract": pd.DataFrame(by_contract), "by_bid": pd.DataFrame(by_bid), "deals": r.n,
            "seconds": r.seconds, "deals_per_s": rate, "mean_heuristic": (mh, hh), "mean_dd": (md, hd),
            "mean_gap": (mg, hg), "joint": joint}


def render_dd(res, kind: str) -> str:
    from tricksim.analysis.output import pct
    tab = res["table"] if kind == "hand" else res["by_contract"]
    key = "trump" if kind == "hand" else "contract"
    rows = []
    for r in tab.itertuples():
        rows.append({key: getattr(r, key), "bid": r.bid, "n": f"{r.n:,}",
                     "heuristic [95% CI]": pct(r.p_heuristic, r.heur_lo, r.heur_hi),
                     "double dummy [95% CI]": pct(r.p_double_dummy, r.dd_lo, r.dd_hi),
                     "gap DD - heur.": f"{100 * r.gap:+.1f} ± {100 * r.gap_ci:.1f} pp"})
    rate = res["deals_per_s"]
    if rate == rate:
        speed = f"{rate:,.1f} deals per second here ({res['seconds']:.0f} s"
        if kind == "hand":
            speed += f"; {res['solves_per_s']:,.1f} solves per second, one per opening suit"
        speed += ")"
    else:
        speed = "every block reused from the run folder"
    head = f"Double-dummy bound (DDS via endplay) on {res['deals']:,} of the same deals: {speed}"
    lines = [head, pd.DataFrame(rows).to_string(index=False)]
    below = tab[tab.dd_below_heuristic] if len(tab) else tab
    if len(below):
        lines.append(f"Note: in {len(below)} row(s) the double-dummy success is below the heuristic's by more than the "
                     "gap's interval (the heuristic defenders err more often than the heuristic declarer).")
    if kind == "deals":
        lines.append("\nAll deals, the declaring team taking at least b tricks:")
        rows = []
        for r in res["by_bid"].itertuples():
            rows.append({"b": r.bid, "heuristic": pct(r.p_heuristic, r.heur_lo, r.heur_hi),
                         "double dummy": pct(r.p_double_dummy, r.dd_lo, r.dd_hi),
                         "gap": f"{100 * r.gap:+.1f} ± {100 * r.gap_ci:.1f} pp"})
        lines.append(pd.DataFrame(rows).to_string(index=False))
        (mh, hh), (md, hd), (mg, hg) = res["mean_heuristic"], res["mean_dd"], res["mean_gap"]
        lines.append(f"Mean declaring-team tricks: heuristic {mh:.2f} ± {hh:.2f}, double dummy {md:.2f} ± {hd:.2f}, "
                     f"gap {mg:+.2f} ± {hg:.2f}.")
    lines.append("('gap' = double-dummy minus heuristic success on the same deals, in percentage points (pp), "
                 "with its paired 95% interval)")
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# duplicate tournaments (analysis/compare.py)
# ---------------------------------------------------------------------------
def block_duplicate(params, first, n):
    codes, prm = GAME.heuristic_arrays(GAME.specs_from_json(params["entrants"]))
    kd, kc = GAME.keys(params["seed"])
    return K.sim_duplicate(kd, kc, first, n, rules_array(GAME.rules_of(params)), codes, prm)


# ---------------------------------------------------------------------------
# plots
# ---------------------------------------------------------------------------
def _yerr(p, lo, hi):
    """Error bars from an interval (never negative: Wilson bounds at 0 or 1 can round)."""
    p = np.asarray(p, float)
    return [np.maximum(p - np.asarray(lo, float), 0), np.maximum(np.asarray(hi, float) - p, 0)]


def plot_tricks(res, path: Path):
    from tricksim.analysis.plots import plt
    fig, ax = plt.subplots(figsize=(8, 4.2))
    T = np.arange(14)
    tr = res["tricks"]
    w = 0.8 / max(len(tr), 1)
    for i, r in enumerate(tr.itertuples()):
        ax.bar(T + (i - (len(tr) - 1) / 2) * w, [getattr(r, f"P{t}") for t in T], width=w, label=f"opens {r.trump}")
    ax.axvline(6.5, color="grey", lw=0.8, ls="--")
    ax.set_xticks(T)
    ax.set_xlabel("tricks taken by the hand's team")
    ax.set_ylabel("share of deals")
    ax.set_title(f"{res['hand']} as declarer, {res['n']:,} random deals", fontsize=9)
    ax.legend(fontsize=8)
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)


def plot_classes(grid: pd.DataFrame, path: Path, n: int, bids=(7, 9, 10)):
    from tricksim.analysis.plots import plt
    fig, axes = plt.subplots(1, len(bids), figsize=(5 * len(bids), 4.2), sharey=True)
    hcps = [_bucket_name(i) for i in range(len(HCP_BUCKETS))]
    # only the suit lengths with a cell to show (no row that is always blank)
    lens = sorted({r.longest_suit for r in grid.itertuples() if r.n >= 200}) or sorted(grid.longest_suit.unique())
    for ax, b in zip(axes, bids):
        g = np.full((len(lens), len(hcps)), np.nan)
        for r in grid.itertuples():
            if r.n >= 200 and r.longest_suit in lens:
                g[lens.index(r.longest_suit), hcps.index(r.hcp)] = getattr(r, f"p{b}")
        im = ax.imshow(g, origin="lower", cmap="RdYlGn", vmin=0, vmax=1, aspect="auto")
        for i in range(len(lens)):
            for j in range(len(hcps)):
                if not np.isnan(g[i, j]):
                    ax.text(j, i, f"{100 * g[i, j]:.0f}%", ha="center", va="center", fontsize=7)
        ax.set_xticks(range(len(hcps)))
        ax.set_xticklabels(hcps)
        ax.set_yticks(range(len(lens)))
        ax.set_yticklabels(lens)
        ax.set_xlabel("declarer's high-card points")
        ax.set_title(f"team takes {b}+ tricks" + (" (Boom)" if b == 13 else ""))
    axes[0].set_ylabel("declarer's longest suit")
    cb = fig.colorbar(im, ax=axes, shrink=0.8, label="P(success), %")
    from matplotlib import ticker
    cb.ax.yaxis.set_major_formatter(ticker.PercentFormatter(xmax=1, decimals=0))
    fig.suptitle(f"Boomke Wies: the first to speak declares in its longest suit, chance of success in % ({n:,} random "
                 "deals; cells with < 200 deals blank)", fontsize=9)
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)


def plot_contracts(contracts: pd.DataFrame, path: Path, n: int):
    from tricksim.analysis.plots import plt
    fig, ax = plt.subplots(1, 2, figsize=(11, 3.8))
    x = np.arange(len(contracts))
    f = contracts.freq.to_numpy()
    ax[0].bar(x, f, yerr=_yerr(f, contracts.freq_lo, contracts.freq_hi), color="#4c72b0")
    ax[0].set_xticks(x)
    ax[0].set_xticklabels(contracts.contract)
    ax[0].set_ylabel("share of auctions")
    ax[0].set_title("final contract")
    p = contracts.p_made.to_numpy()
    ok = ~np.isnan(p)
    ax[1].bar(x[ok], p[ok], yerr=_yerr(p[ok], contracts.made_lo[ok], contracts.made_hi[ok]), color="#55a868")
    ax[1].set_xticks(x)
    ax[1].set_xticklabels(contracts.contract)
    ax[1].set_ylim(0, 1)
    ax[1].set_title("declaring team makes it (Meetje: takes 7+)")
    fig.suptitle(f"Boomke Wies auctions over {n:,} random deals (95% intervals)", fontsize=9)
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)


def plot_dd(by_bid: pd.DataFrame, path: Path, n: int, title: str):
    from tricksim.analysis.plots import plt
    fig, ax = plt.subplots(figsize=(7, 4))
    x = np.arange(len(by_bid))
    for off, col, lab, lo, hi in ((-0.2, "p_heuristic", "heuristic play", "heur_lo", "heur_hi"),
                                  (0.2, "p_double_dummy", "double dummy", "dd_lo", "dd_hi")):
        v = by_bid[col].to_numpy()
        ax.bar(x + off, v, width=0.4, yerr=_yerr(v, by_bid[lo], by_bid[hi]), label=lab)
    ax.set_xticks(x)
    ax.set_xticklabels(by_bid.bid)
    ax.set_ylim(0, 1)
    ax.set_xlabel("tricks needed")
    ax.set_ylabel("P(declaring team takes them)")
    ax.set_title(f"{title} ({n:,} deals, 95% intervals)", fontsize=9)
    ax.legend()
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)


# ---------------------------------------------------------------------------
# CLI adapters (cli.py calls these)
# ---------------------------------------------------------------------------
def render_deals(res) -> str:
    from tricksim.analysis.output import pct, pm
    rows = []
    for r in res["contracts"].itertuples():
        rows.append({"contract": r.contract, "share [95% CI]": pct(r.freq, r.freq_lo, r.freq_hi),
                     "deals": f"{r.declared:,}", "made [95% CI]": pct(r.p_made, r.made_lo, r.made_hi),
                     "E[team tricks]": "-" if r.declared == 0 else pm(r.mean_team_tricks, r.tricks_ci, 2)})
    pts = res["points"]
    return (f"How auctions end over {res['n']:,} random deals (dealer = deal index mod 4):\n"
            + pd.DataFrame(rows).to_string(index=False)
            + "\nMean points per deal by seat position: "
            + ", ".join(f"{r.position} {pm(r.mean_points, r.ci, 3)}" for r in pts.itertuples()))


def render_classes(res) -> str:
    from tricksim.analysis.output import pct, show
    out = [f"The first to speak declares in the suit its heuristic opens ({res['n']:,} random deals): chance its "
           "team takes at least b tricks"]
    for key, df in (("longest_suit", res["by_longest"]), ("hcp", res["by_hcp"])):
        rows = []
        for r in df.itertuples():
            rows.append({key: getattr(r, key), "n": f"{r.n:,}", "E[tricks]": f"{r.mean_tricks:.2f}",
                         **{f"{b}+": pct(getattr(r, f'p{b}'), getattr(r, f'p{b}_lo'), getattr(r, f'p{b}_hi'))
                            for b in (7, 8, 9, 10, 13)}})
        out.append(show(pd.DataFrame(rows)))
    return "\n".join(out)


def odds_command(hand: str | None = None, seat: int | None = None, trumps=None, calls=None,
                 double_dummy: bool = False, n_dd: int | None = None, hands: int | None = None, seed: int = 0,
                 heuristics=None, rules=None, until_precision: float | None = None,
                 opts: RunOptions = RunOptions()) -> Iterator[str]:
    """``tricksim odds boomke-wies``: the odds of one hand (``hand``), else how auctions end and
    success by hand class over random deals; ``double_dummy`` adds the perfect-play bound on the
    first ``n_dd`` deals.  Writes the run folder and yields the text to print."""
    from tricksim.analysis.output import with_folder, write_table

    rules = rules or BoomkeRules()
    specs = parse_seats(heuristics)
    if hand is not None:
        cards = parse_hand(hand)
        _positions(seat)
        for t in trumps or ():
            _trump(t)
        if rules.variant == "no_auction":
            raise TricksimError("the odds of a hand need the bidding game: the no-auction variant has no calls")
        if double_dummy:
            _endplay()
        hands = hands or 200_000
        opts = with_folder(opts, KEY, "odds", odds_run(cards, seat, seed, hands, rules, specs))
        res = odds_hand(cards, seat, seed, hands, rules, specs, trumps=trumps, calls=calls or None, opts=opts,
                        until_precision=until_precision)
        for k in ("tricks", "calls", "positions", "best"):
            write_table(res[k], opts.out, k)
        plot_tricks(res, opts.out / "tricks.png")
        yield render_odds(res)
        if double_dummy:
            dd = dd_hand(cards, seed, n_dd or 1000, rules, specs, opts=opts.sub("double_dummy"))
            if trumps:
                dd["table"] = dd["table"][dd["table"].trump.isin([t.strip().upper() for t in trumps])]
            write_table(dd["table"], opts.out, "double_dummy")
            yield ""
            yield render_dd(dd, "hand")
        yield f"\nresults in {opts.out}"
        return
    hands = hands or 2_000_000
    opts = with_folder(opts, KEY, "deals", deals_run(seed, hands, rules, specs))
    if double_dummy and rules.variant == "no_auction":
        raise TricksimError("the double-dummy bound applies to the bidding game, not to the no-auction variant")
    if double_dummy:
        _endplay()
    res = auction_stats(seed, hands, rules, specs, opts.sub("auction"))
    for k in ("contracts", "declarer_positions", "points", "by_class"):
        write_table(res[k], opts.out, k)
    if rules.variant == "no_auction":
        m, half = res["no_auction_mean"]
        write_table(res["no_auction"], opts.out, "team_tricks")
        yield (f"No-auction Boomke Wies (classic whist, trumps turned up), {res['n']:,} random deals: seats 0+2 take "
               f"{m:.3f} ± {half:.3f} tricks per deal.")
        yield f"\nresults in {opts.out}"
        return
    plot_contracts(res["contracts"], opts.out / "contracts.png", res["n"])
    cls = odds_classes(seed, hands, rules, specs, opts.sub("classes"))
    for k in ("by_longest", "by_hcp", "grid"):
        write_table(cls[k], opts.out, f"classes_{k}")
    plot_classes(cls["grid"], opts.out / "classes.png", cls["n"])
    yield render_deals(res)
    yield ""
    yield render_classes(cls)
    if double_dummy:
        dd = dd_deals(seed, n_dd or 2000, rules, specs, opts=opts.sub("double_dummy"))
        write_table(dd["by_contract"], opts.out, "double_dummy_by_contract")
        write_table(dd["by_bid"], opts.out, "double_dummy_by_bid")
        plot_dd(dd["by_bid"], opts.out / "double_dummy.png", dd["deals"],
                "Boomke Wies declarers: heuristic vs double dummy")
        yield ""
        yield render_dd(dd, "deals")
    yield f"\ntables and plots in {opts.out}"


def stakes_command(games: int = 100_000, seed: int = 0, heuristics=None, rules=None,
                   opts: RunOptions = RunOptions()) -> Iterator[str]:
    """``tricksim stakes boomke-wies``: whole matches (rule 12), team points; writes the run folder
    and yields the text to print."""
    from tricksim.analysis.output import pct, pm, with_folder, write_table
    rules = rules or BoomkeRules()
    specs = parse_seats(heuristics)
    opts = with_folder(opts, KEY, "matches", matches_run(seed, games, rules, specs))
    res = match_stats(seed, games, rules, specs, opts)
    write_table(res["teams"], opts.out, "matches")
    length = (f"to {rules.target_score} points" if rules.target_score else f"of {rules.match_deals} deals")
    yield (f"Boomke Wies matches {length}, {res['matches']:,} matches ({res['mean_deals']:.2f} deals per match, "
           f"{res['extra_deals']:,} tie-break deals; {res['booms_per_match']:.3f} Booms and "
           f"{res['meetjes_per_match']:.3f} Meetjes per match); seat 0 deals first")
    df = res["teams"]
    yield pd.DataFrame({"team": df.team, "heuristics": df.heuristics,
                        "points per match": [pm(a, b, 3) if a == a else "-" for a, b in zip(df.mean_points, df.points_ci)],
                        "P(win) [95% CI]": [pct(a, b, c) for a, b, c in zip(df.p, df.p_lo, df.p_hi)]}).to_string(index=False)
    yield f"\nresults in {opts.out}"


# ---------------------------------------------------------------------------
# benchmark
# ---------------------------------------------------------------------------
def bench_cases(seed=0):
    """Complete deals (deal, auction, trumps by the first lead, play, scoring) through the
    auction study's block function."""
    cases = []
    for h in ["partner", "naive", "random"]:
        params = make_params(seed, BoomkeRules(), parse_seats(h))

        def fn(first, n, params=params):
            engine.run_block("boomke_wies.deals", json.dumps(params), first, n)
            return n
        cases.append((f"deals, all seats {h}" + (" (default)" if h == "partner" else ""), fn))
    return cases


# ---------------------------------------------------------------------------
# the headline report (tricksim report)
# ---------------------------------------------------------------------------
EXAMPLE_HAND = "AS KS QS JS 9S 7S AH KH 4H AD 3D 5C 2C"


def headline(out, quick: bool = False, progress: bool = False) -> str:
    """Boomke Wies headline studies into ``out/boomke_wies/``: how auctions end, success by
    hand class, the example hand's bid odds, and heuristic vs double-dummy success."""
    from tricksim.analysis.output import markdown_table, pct, pm, write_table
    out = Path(out)
    d = out / "boomke_wies"
    d.mkdir(parents=True, exist_ok=True)
    runs = out / "runs"
    seed = 2026
    n_deals = 20_000 if quick else 2_000_000
    n_hand = 5_000 if quick else 200_000
    n_dd = 20 if quick else 200
    md = ["## Boomke Wies: partnership bid odds, with the perfect-play bound beside them\n",
          "Default rules (RULES.md 2.1), every seat playing the default heuristic `partner`, seed "
          f"{seed}. Every rate has its 95% Wilson interval and sample size.\n"]
    # 1. auctions
    res = auction_stats(seed, n_deals, opts=RunOptions(runs / "boomke_wies-headline-deals", progress=progress, force=True))
    write_table(res["contracts"], d, "contracts")
    write_table(res["by_class"], d, "contracts_by_class")
    write_table(res["points"], d, "points_by_position")
    plot_contracts(res["contracts"], d / "contracts.png", res["n"])
    t = res["contracts"]
    tab = pd.DataFrame({"contract": t.contract, "share [95% CI]": [pct(a, b, c, 2) for a, b, c in zip(t.freq, t.freq_lo, t.freq_hi)],
                        "deals": [f"{x:,}" for x in t.declared],
                        "made [95% CI]": [pct(a, b, c) for a, b, c in zip(t.p_made, t.made_lo, t.made_hi)]})
    md.append("### How auctions end\n")
    md.append(f"Regenerate: `tricksim odds boomke-wies --hands {n_deals} --seed {seed}`\n")
    md.append(f"{res['n']:,} random deals, dealer = deal index mod 4, {res['seconds']:.1f} s.\n\n" + markdown_table(tab) + "\n")
    md.append("Mean points per deal by seat position: " + ", ".join(
        f"{r.position} {pm(r.mean_points, r.ci, 3)}" for r in res["points"].itertuples()) + ".\n")
    md.append("![contracts](boomke_wies/contracts.png)\n")
    # 2. classes
    cls = odds_classes(seed, n_deals, opts=RunOptions(runs / "boomke_wies-headline-classes", progress=progress, force=True))
    for k in ("by_longest", "by_hcp", "grid"):
        write_table(cls[k], d, f"classes_{k}")
    plot_classes(cls["grid"], d / "classes.png", cls["n"])
    md.append("### Success by hand class\n")
    md.append(f"Regenerate: `tricksim odds boomke-wies --hands {n_deals} --seed {seed}` (the same command)\n")
    md.append(f"The first to speak declares and opens its longest suit (so makes it trumps); {cls['n']:,} random "
              "deals; the chance its team takes at least b tricks, by its longest suit and by its high-card points "
              "(A4 K3 Q2 J1).\n")
    for key, df in (("longest_suit", cls["by_longest"]), ("hcp", cls["by_hcp"])):
        tb = pd.DataFrame({key: df[key], "n": [f"{x:,}" for x in df.n],
                           **{f"{b}+": [pct(a, lo, hi) for a, lo, hi in zip(df[f"p{b}"], df[f"p{b}_lo"], df[f"p{b}_hi"])]
                              for b in (7, 9, 10, 13)}})
        md.append(markdown_table(tb) + "\n")
    md.append("![classes](boomke_wies/classes.png)\n")
    # 3. the example hand
    oh = odds_hand(EXAMPLE_HAND, None, seed, n_hand, opts=RunOptions(runs / "boomke_wies-headline-hand", progress=progress, force=True))
    for k in ("tricks", "calls", "positions", "best"):
        write_table(oh[k], d, f"hand_{k}")
    plot_tricks(oh, d / "hand_tricks.png")
    md.append("### One hand: " + EXAMPLE_HAND + "\n")
    md.append(f"Regenerate: `tricksim odds boomke-wies --hand \"{EXAMPLE_HAND}\" --hands {n_hand} --seed {seed}`\n")
    c = oh["calls"]
    c7 = c[c.call.isin(["7", "9", "10", "Boom", "Meetje"])]
    md.append(f"{oh['n']:,} random deals of the other 39 cards; the hand's holder declares and opens each suit.\n\n"
              + markdown_table(pd.DataFrame({"opens (trumps)": c7.trump, "call": c7.call,
                                  "P(make) [95% CI]": [pct(a, b, e) for a, b, e in zip(c7.p_make, c7.ci_low, c7.ci_high)],
                                  "E[points]": [pm(a, b) for a, b in zip(c7.exp_points, c7.points_ci)],
                                  "E[net]": [pm(a, b) for a, b in zip(c7.exp_net, c7.net_ci)]})) + "\n")
    md.append("Best call by position: " + "; ".join(f"{r.position}: **{r.best_call}** ({pm(r.exp_net, r.net_ci)} net)"
                                                    for r in oh["best"].itertuples())
              + f". The heuristic opens {oh['open_suit']}.\n")
    md.append("![hand](boomke_wies/hand_tricks.png)\n")
    # 4. double dummy
    md.append("### Heuristic play against the double-dummy bound\n")
    try:
        _endplay()
        have_dd = True
    except TricksimError as e:
        have_dd = False
        md.append(f"Skipped: {e}.\n")
    if have_dd:
        dd = dd_deals(seed, n_dd, opts=RunOptions(runs / "boomke_wies-headline-dd", progress=progress, force=True))
        write_table(dd["by_contract"], d, "double_dummy_by_contract")
        write_table(dd["by_bid"], d, "double_dummy_by_bid")
        plot_dd(dd["by_bid"], d / "double_dummy.png", dd["deals"], "Declaring team: heuristic vs double dummy")
        md.append(f"Regenerate: `tricksim odds boomke-wies --hands {n_deals} --seed {seed} --double-dummy "
                  f"--dd-deals {n_dd}`\n")
        md.append(f"The first {dd['deals']:,} deals of the auction study solved double dummy (DDS via endplay; same "
                  "declarer, same trumps, the declarer obliged to open the trump suit), "
                  f"{dd['deals_per_s']:.1f} deals per second on this machine. Gap = DD − heuristic success on the "
                  "same deals, in percentage points, with a paired 95% interval.\n")
        b = dd["by_bid"]
        md.append(markdown_table(pd.DataFrame({"tricks needed": b.bid, "heuristic": [pct(x, y, z) for x, y, z in zip(b.p_heuristic, b.heur_lo, b.heur_hi)],
                                    "double dummy": [pct(x, y, z) for x, y, z in zip(b.p_double_dummy, b.dd_lo, b.dd_hi)],
                                    "gap (pct. points)": [f"{100 * g:+.1f} ± {100 * h:.1f}" for g, h in zip(b.gap, b.gap_ci)]})) + "\n")
        bc = dd["by_contract"]
        md.append("By contract (made = the declaring team reaches its bid; Meetje: 7):\n\n" + markdown_table(pd.DataFrame(
            {"contract": bc.contract, "n": bc.n, "heuristic made": [pct(x, y, z) for x, y, z in zip(bc.p_heuristic, bc.heur_lo, bc.heur_hi)],
             "double dummy": [pct(x, y, z) for x, y, z in zip(bc.p_double_dummy, bc.dd_lo, bc.dd_hi)],
             "gap (pct. points)": [f"{100 * g:+.1f} ± {100 * h:.1f}" for g, h in zip(bc.gap, bc.gap_ci)]})) + "\n")
        (mh, hh), (mdd, hd), (mg, hg) = dd["mean_heuristic"], dd["mean_dd"], dd["mean_gap"]
        md.append(f"Mean declaring-team tricks: heuristic {mh:.2f} ± {hh:.2f}, double dummy {mdd:.2f} ± {hd:.2f} "
                  f"(gap {mg:+.2f} ± {hg:.2f}).\n")
        below = [f"{r.contract} / {r.bid}" for df in (b, bc) for r in df.itertuples() if r.dd_below_heuristic]
        md.append("Sanity: " + ("in no row is the double-dummy success below the heuristic declaring side's by more "
                                "than the gap's 95% interval." if not below else
                                "the double-dummy success is below the heuristic's by more than the interval in "
                                + ", ".join(below) + " (heuristic defenders err more than the heuristic declarer).")
                  + "\n")
        md.append("![double dummy](boomke_wies/double_dummy.png)\n")
    return "\n".join(md)


# ---------------------------------------------------------------------------
# the game record (analysis/game.py)
# ---------------------------------------------------------------------------
GAME = Game(
    name="boomke-wies", key=KEY, title="Boomke Wies", rules=BoomkeRules, rules_array=rules_array, kernel=K,
    rng_id=GAME_BOOMKE, heuristics=REGISTRY, aliases=ALIASES, seats=N_SEATS, seat_range=(4, 4),
    blocks={"boomke_wies.deals": block_deals, "boomke_wies.classes": block_classes, "boomke_wies.odds": block_odds,
            "boomke_wies.matches": block_matches, "boomke_wies.dd_deals": block_dd_deals,
            "boomke_wies.dd_hand": block_dd_hand, "boomke_wies.duplicate": block_duplicate},
    duplicate=Duplicate(study="boomke_wies.duplicate", metrics=("points", "team_tricks"),
                        unit="points per deal (per partnership)", hands=300_000, block=1 << 16, layout="pairs"),
    trace=trace, stakes=stakes_command, bench_cases=bench_cases, bench_hands=2_000_000, headline=headline,
    heading="## Boomke Wies", rules_section="2 (Boomke Wies)")

parse_seats = GAME.parse_seats
heuristic_arrays = GAME.heuristic_arrays
specs_from_json = GAME.specs_from_json
