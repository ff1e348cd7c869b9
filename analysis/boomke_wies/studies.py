"""Boomke Wies studies (block functions ``boomke_wies.*``, all through ``analysis.engine``):

- ``odds_hand``: one 13-card hand; per random deal of the other 39 cards, the hand's holder declares
  and opens each suit it holds (that suit becomes trumps, rule 7), and for each seat position the
  auction in which it passes and the one in which it bids by its heuristic;
- ``auction_stats`` / ``odds_classes``: random deals with the auction (how auctions end, success per
  contract by the declarer's hand class) and the first to speak made declarer in its own suit;
- ``match_stats``: whole matches of ``match_deals`` deals (rule 12);
- ``block_duplicate``: the duplicate tournament of ``tricksim compare``.
Every deal is a pure function of (seed, deal index): the trace shows exactly the deals the studies play.
"""
from __future__ import annotations

import json

import numpy as np
import pandas as pd

from ...kernels import boomke_wies as K
from ...kernels.cards import SUITS, card_str, mask_of
from .. import engine
from ..common import TricksimError, make_params
from ..engine import RunOptions
from ..stats import hist_mean_ci, mean_ci, wilson
from .config import (BIDS, CONTRACT_NAMES, DEALS_BLOCK, HCP_BUCKETS, MATCHES_BLOCK, ODDS_BLOCK, POSITIONS,
                     BoomkeRules, _bucket_name, _positions, _trump, call_name, check_hands, parse_call, parse_hand,
                     no_pimc, pimc_arg, rules_array, score)
from .spec import SPEC


def block_deals(params, first, n):
    kd, kc, ra, codes, prm = SPEC.kernel_args(params)
    return K.sim_deals(kd, kc, first, n, ra, codes, prm)


def block_classes(params, first, n):
    kd, kc, ra, codes, prm = SPEC.kernel_args(params)
    return K.sim_classes(kd, kc, first, n, ra, codes, prm)


def block_odds(params, first, n):
    kd, kc, ra, codes, prm = SPEC.kernel_args(params)
    pos = np.zeros(4, np.int64)
    for p in params["positions"]:
        pos[p] = 1
    return K.sim_odds(kd, kc, first, n, np.uint64(params["hand_mask"]), pos, ra, codes, prm)


def block_matches(params, first, n):
    kd, kc, ra, codes, prm = SPEC.kernel_args(params)
    return K.sim_matches(kd, kc, first, n, ra, codes, prm)


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
    odds = K.ODDS.unpack(agg)
    for s in held:
        h = odds["declarer"][s]
        m, half, _ = hist_mean_ci(np.arange(14), h)
        row = {"trump": SUITS[s], "n": int(h.sum()), "mean_tricks": m, "mean_ci": half}
        for T in range(14):
            row[f"P{T}"] = h[T] / max(h.sum(), 1)
        trick_rows.append(row)
        for contract in BIDS + [K.MEETJE]:
            hh = h
            if contract == K.MEETJE and rules.meetje_trump == "dealer_names_then_eldest_leads":
                hh = odds["meetje"][s]
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
    by_position = odds["positions"].reshape(4, K.ODDS_POS_LEN)
    for p in positions:
        seg = K.ODDS_POSITION.unpack(by_position[p])
        pass_o, pass_n = seg["pass_points"], seg["pass_net"]
        heur_o, heur_n = seg["heur_points"], seg["heur_net"]
        npos = int(pass_o.sum())
        po, poh, _ = hist_mean_ci(ours_v, pass_o)
        pn, pnh, _ = hist_mean_ci(net_v, pass_n)
        ho, hoh, _ = hist_mean_ci(ours_v, heur_o)
        hn, hnh, _ = hist_mean_ci(net_v, heur_n)
        pd_, pdl, pdh = wilson(int(seg["declares"][0]), npos)
        pp_, ppl, pph = wilson(int(seg["partner_declares"][0]), npos)
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


def odds_run(cards, seat=None, seed: int = 0, hands: int = 200_000, rules=None, heuristics=None,
             block_size: int = ODDS_BLOCK) -> engine.Run:
    """The run of ``odds_hand``: what names its folder and what it executes."""
    params = make_params(seed, rules or BoomkeRules(), no_pimc(SPEC.parse_seats(heuristics), "odds"), hand_mask=mask_of(cards),
                         positions=_positions(seat))
    return engine.Run("boomke_wies.odds", params, check_hands(hands), block_size, unit="deals")


def odds_hand(hand, seat=None, seed: int = 0, hands: int = 200_000, rules: BoomkeRules | None = None, heuristics=None,
              trumps=None, calls=None, opts: RunOptions = RunOptions(), until_precision: float | None = None,
              block_size: int = ODDS_BLOCK, run=None):
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
    specs = no_pimc(SPEC.parse_seats(heuristics), "odds")
    tsel = [_trump(t) for t in trumps] if trumps else None
    csel = [call_name(parse_call(c)) for c in calls] if calls else None
    run = run or odds_run(cards, seat, seed, hands, rules, specs, block_size)
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


def deals_run(seed: int = 0, hands: int = 2_000_000, rules=None, heuristics=None,
              block_size: int = DEALS_BLOCK) -> engine.Run:
    """The run of ``auction_stats``."""
    return engine.Run("boomke_wies.deals", make_params(seed, rules or BoomkeRules(), no_pimc(SPEC.parse_seats(heuristics), "odds")),
                      check_hands(hands), block_size, unit="deals")


def auction_stats(seed: int = 0, hands: int = 2_000_000, rules=None, heuristics=None,
                  opts: RunOptions = RunOptions(), block_size: int = DEALS_BLOCK, run=None):
    """How auctions end over random deals (dealer = deal index mod 4): each contract, Meetje
    and Boom with their frequency and success rate, by the declarer's position and hand
    class; mean points per seat position. No-auction variant: team tricks."""
    rules = rules or BoomkeRules()
    r = opts.execute(run or deals_run(seed, hands, rules, heuristics, block_size))
    return decode_deals(r.counts, r.n, rules) | {"seconds": r.seconds}


def decode_deals(agg, n, rules):
    g = K.DEALS.unpack(agg)
    A, B, D = g["by_contract"], g["by_class"], g["no_auction"]
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
    m, half = mean_ci(g["score_sum"], g["score_sq"], n)
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
    specs = no_pimc(SPEC.parse_seats(heuristics), "odds")
    run = engine.Run("boomke_wies.classes", make_params(seed, rules, specs), check_hands(hands), block_size,
                     unit="deals")
    r = opts.execute(run)
    return decode_classes(r.counts, r.n) | {"seconds": r.seconds}


def decode_classes(agg, n):
    a = K.CLASSES.field(agg, "tricks")          # [longest suit - 4, high-card points, team tricks]

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


def matches_run(seed: int = 0, matches: int = 100_000, rules=None, heuristics=None,
                block_size: int = MATCHES_BLOCK) -> engine.Run:
    """The run of ``match_stats``."""
    if matches < 1:
        raise TricksimError(f"the number of matches must be at least 1, got {matches}")
    return engine.Run("boomke_wies.matches", make_params(seed, rules or BoomkeRules(), no_pimc(SPEC.parse_seats(heuristics), "stakes")),
                      matches, block_size, unit="matches")


def match_stats(seed: int = 0, matches: int = 100_000, rules=None, heuristics=None, opts: RunOptions = RunOptions(),
                block_size: int = MATCHES_BLOCK, run=None):
    """Whole matches (``match_deals`` deals, or to ``target_score``): team points per match,
    wins, draws, deals per match."""
    specs = no_pimc(SPEC.parse_seats(heuristics), "stakes")
    r = opts.execute(run or matches_run(seed, matches, rules, specs, block_size))
    a = K.MATCHES.unpack(r.counts)
    n = r.n
    m, half = mean_ci(a["points"], a["points_sq"], n)
    pw, lo, hi = wilson(np.concatenate([a["wins"], a["draws"]]), n)
    teams = pd.DataFrame({"team": ["seats 0+2", "seats 1+3", "draw"],
                          "heuristics": [f"{specs[0].label} + {specs[2].label}", f"{specs[1].label} + {specs[3].label}", ""],
                          "mean_points": [m[0], m[1], np.nan], "points_ci": [half[0], half[1], np.nan],
                          "p": pw, "p_lo": lo, "p_hi": hi, "matches": n})
    return {"teams": teams, "matches": n, "mean_deals": a["deals"][0] / max(n, 1),
            "extra_deals": int(a["extra_deals"][0]),
            "booms_per_match": a["booms"][0] / max(n, 1), "meetjes_per_match": a["meetjes"][0] / max(n, 1),
            "seconds": r.seconds}


def block_duplicate(params, first, n):
    codes, prm = SPEC.heuristic_arrays(SPEC.specs_from_json(params["entrants"]))
    kd, kc = SPEC.keys(params["seed"])
    return K.sim_duplicate(kd, kc, first, n, rules_array(SPEC.rules_of(params)), codes, prm,
                           *pimc_arg(SPEC.specs_from_json(params["entrants"])))


def bench_cases(seed=0):
    """Complete deals (deal, auction, trumps by the first lead, play, scoring) through the
    auction study's block function."""
    cases = []
    for h in ["partner", "naive", "random"]:
        params = make_params(seed, BoomkeRules(), SPEC.parse_seats(h))

        def fn(first, n, params=params):
            engine.run_block("boomke_wies.deals", json.dumps(params), first, n)
            return n
        cases.append((f"deals, all seats {h}" + (" (default)" if h == "partner" else ""), fn))
    return cases
