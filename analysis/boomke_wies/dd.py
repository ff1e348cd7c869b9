"""Boomke Wies open-hand (double-dummy) play (the optional ``dd`` extra: endplay, which wraps the DDS solver):
the heuristic's result beside the double-dummy result on the same deals, for one hand
(``dd_hand``) or over random deals with the auction (``dd_deals``).  Both sides see all cards and play
perfectly: not a bound on the heuristics' result (heuristic defenders can let a heuristic declarer do better)."""
from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from ...kernels import boomke_wies as K
from ...kernels.cards import RANKS, SUITS, card_str, mask_of
from .. import engine
from ..common import TricksimError, make_params
from ..engine import RunOptions
from ..stats import Z95, hist_mean_ci, paired_hist_means, wilson
from .config import BIDS, CONTRACT_NAMES, BoomkeRules, call_name, no_pimc, parse_hand, score
from .spec import SPEC

DD_BATCH = 100
_DD_THREADS = {"n": 0}


def _endplay():
    try:
        import endplay._dds as dds
        import endplay.dds.solve as solve
        from endplay.types import Deal, Denom, Player
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
    kd, kc, ra, codes, prm = SPEC.kernel_args(params)
    recs = K.trace_deals(kd, kc, first, n, ra, codes, prm)
    probs, meta = [], []
    for rec in recs:
        decl = int(rec[K.REC_DECL])
        t = int(rec[K.REC_TRUMP])
        leader = int(rec[K.REC_LEADER0])
        hands = [int(rec[K.REC_HANDS + s]) for s in range(4)]
        same_side = (leader & 1) == (decl & 1)
        probs.append((hands, leader, t, t if leader == decl else -1))
        meta.append((K.contract_class.py_func(int(rec[K.REC_CONTRACT])), int(rec[K.REC_TEAM + (decl & 1)]), same_side))
    tricks = dd_solve(probs, _DD_THREADS["n"] or None)
    agg = np.zeros(AGG_DD_DEALS, np.int64)
    for (cc, th, same), td in zip(meta, tricks):
        td = td if same else 13 - td
        agg[(cc * 14 + th) * 14 + td] += 1
    return agg


def block_dd_hand(params, first, n):
    """Deals ``first..first+n-1`` of the hand's odds study: per opening suit the team's
    heuristic tricks beside its double-dummy tricks with the hand on lead in that suit."""
    kd, kc, ra, codes, prm = SPEC.kernel_args(params)
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
    """Open-hand (double-dummy) play for one hand: on the first ``deals`` deals of its odds study,
    per opening suit and bid, the heuristic's success beside the double-dummy success
    (the hand's holder on lead, obliged to open the suit that becomes trumps)."""
    rules = rules or BoomkeRules()
    if rules.variant == "no_auction":
        raise TricksimError("open-hand (double-dummy) play applies to the bidding game, not to the no-auction variant")
    cards = parse_hand(hand) if isinstance(hand, str) else list(hand)
    specs = no_pimc(SPEC.parse_seats(heuristics), "odds")
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
    """Open-hand (double-dummy) play over random deals with the auction: on the first ``deals``
    deals of the auction study, the declaring team's heuristic result beside the
    double-dummy result of the same declarer, trumps and opening-lead suit."""
    rules = rules or BoomkeRules()
    if rules.variant == "no_auction":
        raise TricksimError("open-hand (double-dummy) play applies to the bidding game, not to the no-auction variant")
    specs = no_pimc(SPEC.parse_seats(heuristics), "odds")
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


def ladder_bound(opts, quick: bool, seed: int = 2026) -> dict:
    """``Ladder.bound`` (analysis/game.py): open-hand (double-dummy) play of ``partner``'s contracts.  On the first
    deals of the seed (the ladder's cards), the auction by ``partner`` in every seat, then the declaring
    partnership's points per deal (rule 11) when both sides play double dummy (``dd_deals``), beside ``partner``'s
    own card play of the same contracts, paired."""
    hands = 100 if quick else 600
    rules = BoomkeRules()
    dd = dd_deals(seed, hands, rules=rules, opts=opts)
    joint = dd["joint"]                                       # [contract class, heuristic tricks, DD tricks]
    pts = np.array([[score(K.MEETJE if cc == 7 else cc + 7, t, rules)[0] for t in range(14)]
                    for cc in range(K.N_CC)], float)
    (mo, ho, n), (mh, hh, _), (mg, hg, _) = paired_hist_means(pts[:, None, :], pts[:, :, None], joint)
    return {"label": "open-hand: the declaring side", "mean": mo, "ci": ho, "n": n, "heuristic": "partner",
            "heur_mean": mh, "heur_ci": hh, "gap": mg, "gap_ci": hg,
            "command": f"tricksim odds boomke-wies --hands {hands} --seed {seed} --double-dummy --dd-deals {hands}",
            "what": ("the points per deal of the declaring partnership, not a partnership's average over both "
                     f"sides: on the first {n:,} deals of the seed (the ladder's cards), `partner` bids in every "
                     "seat, and both sides then play the contract double dummy, seeing all 52 cards and playing "
                     "perfectly (DDS via endplay; same declarer and trumps, the declarer's side obliged to open the "
                     "trump suit). It is what the contracts `partner` reaches are worth under perfect card play, not "
                     "a ceiling on any entrant: no entrant sees the cards, an entrant also defends and reaches other "
                     "contracts, and weak defenders can let a declarer make more than perfect ones would")}
