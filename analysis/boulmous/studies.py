"""Boulmous studies: the block functions the engine runs (deals, odds of one hand, hand classes,
whole games, the duplicate tournament) and the studies that run and decode them into DataFrames."""
from __future__ import annotations

import json
import time

import numpy as np
import pandas as pd

from ...kernels import boulmous as K
from ...kernels.boulmous import pimc as P
from ...kernels.boulmous import solver as S
from ...kernels.cards import card_str, mask_of
from ...kernels.layout import Layout
from .. import engine
from ..common import TricksimError, make_params
from ..engine import RunOptions
from ..seating import seating
from ..stats import MIN_SAMPLE, batch_ratio, hist_mean_ci, hist_mean_interval, mean_ci, t_crit, wilson
from .config import (BLOCK_DEALS, DEALER, GAMES_BLOCK, N_LAYOUTS, ODDS_BLOCK, PIMC_WORLDS, TRUMP_NAMES, BoulmousRules,
                     _trump, bid_stakes_ci, check_hands, check_seat, exact_counts, has_pimc, no_pimc, parse_hand,
                     pimc_key, rules_array)
from .equity.saware import game_arrays
from .spec import SPEC


def block_deals(params, first, n):
    kd, kc, ra, codes, prm = SPEC.kernel_args(params)
    return K.sim_deals(kd, kc, first, n, ra, codes, prm)


def block_odds(params, first, n):
    kd, kc, ra, codes, prm = SPEC.kernel_args(params)
    return K.sim_odds(kd, kc, first, n, np.uint64(params["hand_mask"]), params["seat"], DEALER, ra, codes, prm)


def block_classes(params, first, n):
    kd, kc, ra, codes, prm = SPEC.kernel_args(params)
    return K.sim_classes(kd, kc, first, n, ra, codes, prm)


def box_batch(games: int) -> int:
    """Games per batch of the boxes' interval: a power of two (so it divides the default block) from 8
    up, as large as leaves at least 32 batches."""
    b = 8
    while b * 2 * 32 <= games and b * 2 <= GAMES_BLOCK:
        b *= 2
    return b


# block_games' per-batch sums, appended after the kernel's vector (``K.GAMES.rest``)
BOX_SUMS = Layout(("xx", 4), ("xd", 4), ("dd", 1), ("batches", 1))


def block_games(params, first, n):
    """The kernel's sums, then (with ``box_batch`` in params) per-batch sums for the boxes' batch
    variance: the games of global indices [k B, (k+1) B) form batch k, a batch cut by a block edge
    counts its pieces apart; appended: sum of x_s^2 (4), sum of x_s d (4), sum of d^2, the batches
    (x_s = boxes of seat s in the batch, d = its finished games)."""
    kd, kc, ra, codes, prm = SPEC.kernel_args(params)
    extra = game_arrays(SPEC.specs_from_json(params["heuristics"]), SPEC.rules_of(params))
    B = params.get("box_batch")
    if not B:
        return K.sim_games(kd, kc, first, n, ra, codes, prm, *extra)
    total = None
    bx = np.zeros(BOX_SUMS.size, np.int64)
    i = first
    while i < first + n:
        j = min(first + n, (i // B + 1) * B)
        a = K.sim_games(kd, kc, i, j - i, ra, codes, prm, *extra)
        total = a if total is None else total + a
        g = K.GAMES.unpack(a)
        x = g["boxes"]
        d = (j - i) - int(g["abandoned"][0])
        bx[BOX_SUMS.slice("xx")] += x * x
        bx[BOX_SUMS.slice("xd")] += x * d
        bx[BOX_SUMS.slice("dd")] += d * d
        bx[BOX_SUMS.slice("batches")] += 1
        i = j
    return np.concatenate([total, bx])


def hand_rows(params, first, n):
    """One row per hand of a ``boulmous.deals`` block (from the trace kernel: the same hands)."""
    kd, kc, ra, codes, prm = SPEC.kernel_args(params)
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


def _odds_tables(agg, seat_label, exact, rules: BoulmousRules):
    """Per trump and bid: P(make) with interval, expected points and stakes; and the pass line.
    A failed bid scores tricks - bid, or -bid with ``failed_taker_keeps_tricks=false``
    (rule 16); the pass line's points come from the kernel's own scoring."""
    rows = []
    tricks = np.arange(7)
    odds = K.ODDS.unpack(agg)
    for t in range(5):
        h = odds["by_trump"][t]
        n = int(h.sum())
        if n == 0:
            continue
        for bid in range(3, 7):
            k = int(h[bid:].sum())
            p, lo, hi = wilson(k, n)
            pts = np.where(tricks >= bid, tricks, tricks - bid if rules.failed_taker_keeps_tricks else -bid)
            m, half, _ = hist_mean_ci(pts, h)
            ms, slo, shi = bid_stakes_ci(bid, k, n)
            pbox = 1 - k / n
            p = float(p)
            rows.append({"trump": TRUMP_NAMES[t], "bid": bid, "p_make": p,
                         "ci_low": float(lo) if not exact else p, "ci_high": float(hi) if not exact else p,
                         "n": n, "exp_points": m, "points_ci": 0.0 if exact else half,
                         "exp_stakes": ms, "stakes_ci": 0.0 if exact else (shi - slo) / 2,
                         "stakes_lo": ms if exact else slo, "stakes_hi": ms if exact else shi, "p_box": pbox})
    df = pd.DataFrame(rows)
    ph = odds["pass_points"]
    sh = odds["pass_stakes"]
    n = int(ph.sum())
    pm, phalf, _ = hist_mean_ci(np.arange(-6, 7), ph)
    sm, slo, shi, _ = hist_mean_interval(np.arange(-1, 4), sh)
    pas = pd.DataFrame([{"call": "pass", "n": n, "exp_points": pm, "points_ci": 0.0 if exact else phalf,
                         "exp_stakes": sm, "stakes_ci": 0.0 if exact else (shi - slo) / 2,
                         "stakes_lo": sm if exact else slo, "stakes_hi": sm if exact else shi}]) if n else pd.DataFrame()
    return df, pas


def best_call(df: pd.DataFrame, pas: pd.DataFrame):
    """The call with the highest expected points plus stakes (the boulmous payments of the deal: bid 6 is
    worth +3 stakes made, -3 failed), ties to the lower bid; passing when it is worth more.  Returns (call,
    expected points plus stakes, expected points, expected stakes)."""
    v = df.assign(value=df.exp_points + df.exp_stakes)
    best = v.sort_values(["value", "bid"], ascending=[False, True]).iloc[0]
    if len(pas):
        p = pas.iloc[0]
        if p.exp_points + p.exp_stakes > best.value:
            return "pass", float(p.exp_points + p.exp_stakes), float(p.exp_points), float(p.exp_stakes)
    return f"{int(best['bid'])} {best['trump']}", float(best.value), float(best.exp_points), float(best.exp_stakes)


def odds_run(cards, seat: int = 0, seed: int = 0, hands: int = 200_000, rules=None, heuristics=None,
             block_size: int = ODDS_BLOCK) -> engine.Run:
    """The run of ``odds_hand`` (Monte Carlo): what names its folder and what it executes."""
    specs = no_pimc(SPEC.parse_seats(heuristics), "odds")
    params = make_params(seed, rules or BoulmousRules(), specs, hand_mask=mask_of(cards), seat=seat)
    return engine.Run("boulmous.odds", params, hands, block_size)


def odds_hand(hand: str | list[int], seat: int = 0, seed: int = 0, hands: int = 200_000,
              rules: BoulmousRules | None = None, heuristics=None, exact: bool = False,
              trumps: list[str] | None = None, opts: RunOptions = RunOptions(),
              until_precision: float | None = None, block_size: int = ODDS_BLOCK, with_pass: bool = True, run=None):
    """Bid odds of one Boulmous hand: ``seat`` is the position from the dealer's left
    (0 = first to bid, 3 = dealer). Returns a dict of DataFrames:
    ``calls`` (trump x bid), ``pass`` (expected points/stakes of passing) and
    ``best`` (one row: the call with the highest expected points plus stakes, ``best_call``)."""
    rules = rules or BoulmousRules()
    cards = parse_hand(hand) if isinstance(hand, str) else list(hand)
    check_seat(seat)
    specs = no_pimc(SPEC.parse_seats(heuristics), "odds")
    tlist = [TRUMP_NAMES.index(_trump(t)) for t in (trumps or TRUMP_NAMES)]
    hand_mask = mask_of(cards)
    if exact:
        for s in specs:
            if not s.deterministic:
                raise TricksimError(f"exact odds need deterministic heuristics; {s.name!r} plays at random")
        t0 = time.perf_counter()
        params = make_params(seed, rules, specs)
        kd, kc, ra, codes, prm = SPEC.kernel_args(params)
        agg = exact_counts(hand_mask, seat, tlist, with_pass, ra, codes, prm)
        secs = time.perf_counter() - t0
        df, pas = _odds_tables(agg, seat, True, rules)
        res = {"calls": df, "pass": pas, "seconds": secs, "n": N_LAYOUTS, "exact": True}
    else:
        check_hands(hands)
        run = run or odds_run(cards, seat, seed, hands, rules, specs, block_size)
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
    call, val, pts, stakes = best_call(res["calls"], res["pass"])
    res["best"] = pd.DataFrame([{"best_call": call, "exp_value": val, "exp_points": pts, "exp_stakes": stakes}])
    res["hand"] = " ".join(card_str(c) for c in cards)
    return res


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


def classes_run(seed: int = 0, hands: int = 2_000_000, rules=None, heuristics=None,
                block_size: int = BLOCK_DEALS) -> engine.Run:
    """The run of ``odds_classes``."""
    return engine.Run("boulmous.classes", make_params(seed, rules or BoulmousRules(), no_pimc(SPEC.parse_seats(heuristics), "odds (hand classes)")),
                      hands, block_size)


def odds_classes(seed: int = 0, hands: int = 2_000_000, rules=None, heuristics=None, opts: RunOptions = RunOptions(),
                 block_size: int = BLOCK_DEALS, run=None):
    """Success rate of each bid by hand class when the first to speak takes the
    contract in its preferred trump suit (no-trump choices are left out).
    Returns {'classes': long table, 'by_trumps_bowers': summary table}."""
    r = opts.execute(run or classes_run(seed, check_hands(hands), rules, heuristics, block_size))
    agg = K.CLASSES.field(r.counts, "tricks")          # [trumps, bowers, side aces, tricks]
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
    specs = no_pimc(SPEC.parse_seats(heuristics), "auction statistics")
    run = engine.Run("boulmous.deals", make_params(seed, rules, specs), check_hands(hands), block_size,
                     keep_hands=keep_hands)
    if keep_hands and opts.out is None:
        raise TricksimError("keeping one row per hand needs a run folder")
    r = opts.execute(run)
    agg = K.DEALS.unpack(r.counts)
    h = agg["cells"]
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
    pf, flo, fhi = wilson(int(agg["all_pass"][0]), n)
    rows.append({"contract": "all pass", "freq": float(pf), "freq_lo": float(flo), "freq_hi": float(fhi),
                 "n_deals": n, "taken": 0, "p_made": np.nan, "made_lo": np.nan, "made_hi": np.nan})
    m, half = mean_ci(agg["score_sum"], agg["score_sq"], n)
    pos = pd.DataFrame({"position": ["1st (dealer's left)", "2nd", "3rd", "dealer"], "mean_points": m,
                        "ci": half, "n": n})
    return {"contracts": pd.DataFrame(rows), "positions": pos, "n": n, "seconds": r.seconds}


def stakes_run(seed: int = 0, games: int = 100_000, rules=None, heuristics=None,
               block_size: int = GAMES_BLOCK) -> engine.Run:
    """The run of ``game_stakes``."""
    if games < 1:
        raise TricksimError(f"the number of games must be at least 1, got {games}")
    return engine.Run("boulmous.games", make_params(seed, rules or BoulmousRules(), no_pimc(SPEC.parse_seats(heuristics), "stakes"),
                                                    box_batch=box_batch(games)), games, block_size, unit="games")


def game_stakes(seed: int = 0, games: int = 100_000, rules=None, heuristics=None, opts: RunOptions = RunOptions(),
                block_size: int = GAMES_BLOCK, run=None):
    """Whole games to the target with the money settlement: stakes per seat."""
    specs = no_pimc(SPEC.parse_seats(heuristics), "stakes")
    game_arrays(specs, rules or BoulmousRules(), opts)     # score-aware seats: their table and calibration, once
    r = opts.execute(run or stakes_run(seed, games, rules, specs, block_size))
    a = K.GAMES.unpack(r.counts)
    abandoned = int(a["abandoned"][0])
    done = r.n - abandoned
    m, half = mean_ci(a["stakes"], a["stakes_sq"], done)
    pw, lo, hi = wilson(a["wins"], done)
    bx = BOX_SUMS.unpack(K.GAMES.rest(r.counts))       # block_games' batch sums, after the kernel's
    nb = int(bx["batches"][0])
    bm, bvar, bdf = batch_ratio(a["boxes"], bx["xx"], bx["xd"], done, int(bx["dd"][0]), nb)
    bhalf = np.asarray(t_crit(bdf) * np.sqrt(bvar)) if bdf == bdf and bdf >= MIN_SAMPLE - 1 else np.full(4, np.nan)
    df = pd.DataFrame({"seat": [0, 1, 2, 3], "heuristic": [s.label for s in specs], "mean_stakes": m,
                       "stakes_ci": half, "p_win": pw, "win_lo": lo, "win_hi": hi,
                       "boxes_per_game": a["boxes"] / max(done, 1), "boxes_ci": bhalf, "games": done,
                       "box_batches": nb})
    return {"seats": df, "games": r.n, "abandoned": abandoned, "mean_deals": a["deals"][0] / max(r.n, 1),
            "seconds": r.seconds}


def bench_cases(seed=0):
    """Benchmark cases: complete hands (auction, trump choice, play, scoring)."""
    cases = []
    for h in ["cautious", "aggressive", "random"]:
        specs = SPEC.parse_seats(h)
        params = make_params(seed, BoulmousRules(), specs)

        def fn(first, n, params=params):
            engine.run_block("boulmous.deals", json.dumps(params), first, n)
            return n
        cases.append((f"deals, all seats {h}", fn))
    return cases


def solver_bench_cases(seed=0):
    """Benchmark cases of the open-hand solver (``tricksim bench --solver``): whole random deals, one solve each
    from the first trick (kernels/boulmous/solver.py solve_batch: the taker on lead, deal i with taker i mod 4 and
    trump i mod 5, no-trump included), default rules."""
    ra = rules_array(BoulmousRules())
    kd, _ = SPEC.keys(seed)

    def fn(first, n):
        hands = S.random_deals(kd, first, n)
        idx = np.arange(first, first + n, dtype=np.int64)
        out = np.zeros(n, np.int64)
        S.solve_batch(hands, idx % 4, idx % 5, idx % 4, ra, out)
        return n
    return [("open-hand solve, whole deal (taker on lead)", fn)]


PIMC_BENCH_DEALS = 100   # at most this many deals per round of the PIMC case (about a second on one core)


def pimc_bench_cases(seed=0):
    """The sampling player's case of ``tricksim bench --solver``: whole random deals played by four PIMC seats at
    the default worlds (kernels/boulmous/pimc.py pimc_play_batch: deal i with taker i mod 4 on lead, trump i mod 5,
    bid 3, goal: the contract), default rules; at most PIMC_BENCH_DEALS deals a round."""
    ra = rules_array(BoulmousRules())
    kd, _ = SPEC.keys(seed)

    def fn(first, n):
        n = min(n, PIMC_BENCH_DEALS)
        hands = S.random_deals(kd, first, n)
        idx = np.arange(first, first + n, dtype=np.int64)
        P.pimc_play_batch(hands, idx % 4, idx % 5, np.full(n, 3, np.int64), ra, PIMC_WORLDS, P.GOAL_CONTRACT,
                          pimc_key(seed), first, np.zeros((n, 24), np.int64), np.zeros(n, np.int64), P.SHARE_TT)
        return n
    return [(f"PIMC whole deal, four pimc seats ({PIMC_WORLDS} worlds; at most {PIMC_BENCH_DEALS} deals a round)", fn)]


def block_duplicate(params, first, n):
    codes, prm = SPEC.heuristic_arrays(SPEC.specs_from_json(params["entrants"]))
    k = len(codes)
    ids, nround = seating(SPEC, k, params)
    kd, kc = SPEC.keys(params["seed"])
    args = (kd, kc, first, n, rules_array(SPEC.rules_of(params)), np.ascontiguousarray(codes[ids]),
            np.ascontiguousarray(prm[ids]), ids, k, nround)
    if has_pimc(SPEC.specs_from_json(params["entrants"])):   # the sampling player sits at the table
        return K.sim_duplicate(*args, pimc_key(params["seed"]))
    return K.sim_duplicate(*args)


def solver_bench(seed=0):
    """``Game.solver_bench``: the open-hand solver's cases, then the sampling player's (``tricksim bench --solver``)."""
    return solver_bench_cases(seed) + pimc_bench_cases(seed)
