"""Boomke Wies odds of one hand under several kinds of play on the same deals (issue 12 item 4):
``tricksim odds boomke-wies --hand ... --play heuristic,open``.

Kinds of play (``PLAY_KINDS``), for each suit the hand holds, the hand's holder declaring and opening that suit
(so making it trumps, rule 7):

- ``heuristic``: every seat plays its heuristic, as the plain odds study does (the same deals and decisions: its
  trick distribution equals ``odds_hand``'s ``tricks`` on the same deals);
- ``pimc``: the hand's seat played by the sampling player (kernels/boomke_wies/pimc.py; ``pimc:NAME=V`` items set
  its parameters), the other seats as in the heuristics' column, from the same deals and decision stream: it plays
  the contract 7 forced on it (the most net points, ties to the most tricks) and opens the suit asked;
- ``open``: open-hand (double-dummy) play: both sides see all cards and play perfectly, the declarer opening the
  best card of the trump suit (DDS through the optional ``dd`` extra, analysis/boomke_wies/dd.py). It is not a
  bound on the heuristics' result: heuristic defenders can let a heuristic declarer do better.

The block function ``boomke_wies.odds_play`` counts per opening suit the joint histogram of the team's tricks
under the three kinds (open-hand or pimc tricks 0 when that kind is not requested), so the gaps are paired.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...kernels import boomke_wies as K
from ...kernels.cards import SUITS, card_str, mask_of
from .. import engine
from ..common import TricksimError, make_params
from ..engine import RunOptions
from ..output import PP, pct, plain_table, pm
from ..common import spec_json
from ..play_kinds import parse_play as parse_kinds
from ..play_kinds import pimc_settings
from ..stats import hist_mean_ci, mean_ci, wilson
from .config import BIDS, BoomkeRules, call_name, has_pimc, parse_hand, pimc_arg, score
from .dd import _DD_THREADS, _dd_run, dd_solve, paired_gap
from .spec import SPEC

PLAY_KINDS = ("heuristic", "pimc", "open")
PLAY_LABELS = {"heuristic": "heuristics", "pimc": "sampling (pimc)", "open": "open-hand"}
PLAY_HANDS = 1_000      # default deals with --play (open-hand play: about 7 deals a second, four solves each)
PLAY_BLOCK = 25
INSTALL = ("--play open needs the optional 'dd' extra (endplay, the DDS solver): pip install 'tricksim[dd]' "
           "(from a clone: pip install -e '.[dd]')")


def parse_play(text) -> list[str]:
    """The kinds of play of ``--play`` among ``PLAY_KINDS``."""
    return parse_kinds(text, PLAY_KINDS, "Boomke Wies")


def pimc_spec(play):
    """The sampling player of ``--play`` (``pimc:worlds=N,pimc:infer=0`` items; defaults otherwise)."""
    spec = SPEC.parse_seats(pimc_settings(play), 1)[0]
    has_pimc([spec])                    # refuses a non-integer worlds
    return spec


def check_open_extra() -> None:
    """One clear line when open-hand play is asked for and the ``dd`` extra is missing."""
    try:
        import endplay.dds.solve  # noqa: F401
    except ImportError:
        raise TricksimError(INSTALL) from None


def block_odds_play(params, first, n):
    """Per opening suit s the joint count of cell ``((s * 14 + heuristic tricks) * 14 + open-hand tricks) * 14 +
    pimc tricks``."""
    kd, kc, ra, codes, prm = SPEC.kernel_args(params)
    hs, tk = K.odds_tricks(kd, kc, first, n, np.uint64(params["hand_mask"]), ra, codes, prm)
    tp = np.zeros_like(tk)
    if "pimc" in params["play"]:        # the hand's seat the sampling player, the others as in the heuristics'
        specs = SPEC.specs_from_json(params["heuristics"])
        specs[0] = SPEC.specs_from_json([params["pimc"]])[0]
        pc, pp = SPEC.heuristic_arrays(specs)
        _, tp = K.odds_tricks(kd, kc, first, n, np.uint64(params["hand_mask"]), ra, pc, pp, *pimc_arg(specs))
    probs, meta = [], []
    for i in range(n):
        for s in range(4):
            if tk[i, s] >= 0 and s in params["suits"]:
                probs.append(([int(x) for x in hs[i]], 0, s, s))
                meta.append((s, int(tk[i, s]), int(tp[i, s])))
    tricks = dd_solve(probs, _DD_THREADS["n"] or None) if "open" in params["play"] else [0] * len(meta)
    agg = np.zeros(4 * 14 * 14 * 14, np.int64)
    for (s, th, tq), td in zip(meta, tricks):
        agg[((s * 14 + th) * 14 + td) * 14 + tq] += 1
    return agg


def odds_play_run(cards, seed: int = 0, hands: int = PLAY_HANDS, rules=None, heuristics=None, play=PLAY_KINDS,
                  block_size: int = PLAY_BLOCK, trumps=None) -> engine.Run:
    """The run of ``odds_play``: what names its folder and what it executes (``trumps``: only these opening
    suits, default every suit the hand holds)."""
    suits = sorted({c // 16 for c in cards} & {SUITS.index(t) for t in _suits(trumps) or SUITS})
    if not suits:
        raise TricksimError("the hand holds none of the trumps asked for")
    kinds = parse_play(play)
    extra = {"pimc": spec_json([pimc_spec(play)])[0]} if "pimc" in kinds else {}
    params = make_params(seed, rules or BoomkeRules(), SPEC.parse_seats(heuristics), hand_mask=mask_of(cards),
                         play=kinds, suits=suits, **extra)
    return engine.Run("boomke_wies.odds_play", params, hands, block_size, unit="deals")


def _suits(trumps):
    """The trump letters asked for (None: all), checked."""
    if not trumps:
        return None
    out = [str(t).strip().upper() for t in trumps]
    for t in out:
        if t not in SUITS:
            raise TricksimError(f"unknown trump {t!r}: use S H D C")
    return out


def _score_vectors(contract, rules):
    ours, net = np.zeros(14), np.zeros(14)
    for T in range(14):
        a, b, _ = score(contract, T, rules)
        ours[T], net[T] = a, a - b
    return ours, net


def play_tables(counts, kinds, rules):
    """(calls, gaps): per trump, bid (7..13, 13 = Boom) and kind P(make) with its Wilson interval, the expected
    points and net points and the mean team tricks; per trump and bid, open-hand minus heuristics: the paired
    difference of P(make) (Agresti-Min interval) and of the net points and tricks (Student's t)."""
    # [suit][heuristic tricks][open-hand tricks][pimc tricks] (a last axis of 1: counts without the pimc column)
    joint = np.asarray(counts).reshape(4, 14, 14, -1)
    rows, gaps = [], []
    th = np.arange(14)[:, None]
    td = np.arange(14)[None, :]
    for s in range(4):
        j3 = joint[s]
        n = int(j3.sum())
        if n == 0:
            continue
        pairs = {"open": j3.sum(axis=2), "pimc": j3.sum(axis=1)}    # [heuristic tricks][the kind's tricks]
        marg = {"heuristic": j3.sum(axis=(1, 2)), "open": j3.sum(axis=(0, 2)), "pimc": j3.sum(axis=(0, 1))}
        for b in BIDS:
            ours, net = _score_vectors(b, rules)
            for kind in kinds:
                h = marg[kind]
                p, lo, hi = wilson(int(h[b:].sum()), n)
                mo, ho, _ = hist_mean_ci(ours, h)
                mn, hn, _ = hist_mean_ci(net, h)
                mt, ht, _ = hist_mean_ci(np.arange(14), h)
                rows.append({"trump": SUITS[s], "bid": call_name(b), "play": kind, "p_make": float(p),
                             "ci_low": float(lo), "ci_high": float(hi), "n": n, "exp_points": mo, "points_ci": ho,
                             "exp_net": mn, "net_ci": hn, "mean_tricks": mt, "tricks_ci": ht})
            for kind in kinds:
                if kind == "heuristic" or "heuristic" not in kinds:
                    continue
                j = pairs[kind]
                up = int(j[(th < b) & (td >= b)].sum())       # the kind makes, the heuristics fail
                down = int(j[(th >= b) & (td < b)].sum())
                g, gh = paired_gap(up, down, n)
                dn = net[None, :] - net[:, None]
                m, half = mean_ci(float((dn * j).sum()), float((dn * dn * j).sum()), n)
                dt = (td - th).astype(float)
                mt, htg = mean_ci(float((dt * j).sum()), float((dt * dt * j).sum()), n)
                gaps.append({"trump": SUITS[s], "bid": call_name(b), "play": kind, "versus": "heuristic", "n": n,
                             "gap": float(g), "gap_ci": float(gh), "only_kind": up, "only_heuristic": down,
                             "net_gap": float(m), "net_gap_ci": float(half), "tricks_gap": float(mt),
                             "tricks_gap_ci": float(htg)})
    return pd.DataFrame(rows), pd.DataFrame(gaps)


def best_calls(calls: pd.DataFrame) -> pd.DataFrame:
    """Per kind of play, the call with the highest expected net points (ties: the lower bid)."""
    rows = []
    for kind, d in calls.groupby("play", sort=False):
        d = d.assign(level=d.bid.map(lambda x: 13 if x == "Boom" else int(x)))
        b = d.sort_values(["exp_net", "level"], ascending=[False, True]).iloc[0]
        rows.append({"play": kind, "best_call": f"{b.bid} {b.trump}", "exp_net": float(b.exp_net),
                     "net_ci": float(b.net_ci)})
    return pd.DataFrame(rows)


def odds_play(hand, seed: int = 0, hands: int = PLAY_HANDS, rules: BoomkeRules | None = None, heuristics=None,
              play=PLAY_KINDS, trumps=None, opts: RunOptions = RunOptions(), block_size: int = PLAY_BLOCK, run=None):
    """Odds of one Boomke Wies hand declaring each suit it holds, under each kind of play in ``play``, on the same
    deals. Returns ``calls``, ``gaps`` (open-hand minus heuristics, paired), ``best``, ``n``, ``seconds``."""
    rules = rules or BoomkeRules()
    if rules.variant == "no_auction":
        raise TricksimError("the odds of a hand need the bidding game: the no-auction variant has no calls")
    cards = parse_hand(hand) if isinstance(hand, str) else list(hand)
    kinds = parse_play(play)
    if hands < 1:
        raise TricksimError(f"the number of deals must be at least 1, got {hands}")
    run = run or odds_play_run(cards, seed, hands, rules, heuristics, play, block_size, trumps)
    if "open" in kinds:
        check_open_extra()
        r, _ = _dd_run(run.study, run.params, run.total, run.block_size, opts)
    else:
        r = opts.execute(run)
    calls, gaps = play_tables(r.counts, kinds, rules)
    return {"calls": calls, "gaps": gaps, "best": best_calls(calls), "n": r.n, "seconds": r.seconds,
            "hand": " ".join(card_str(c) for c in cards), "play": kinds}


def render_play(res) -> str:
    c = res["calls"]
    lines = [f"Boomke Wies hand {res['hand']}: {res['n']:,} random deals of the other 39 cards, every kind of play "
             "on the same deals; each row is the hand's holder declaring and opening that suit (so making it "
             "trumps). P(make) = the team takes at least the bid (Boom: all 13); points by the scoring table; "
             "net = ours minus the opponents'."]
    if "open" in res["play"]:
        lines.append("open-hand = double-dummy play: both sides see all cards and play perfectly, the declarer "
                     "opening the best trump (DDS). Not a bound on the heuristics' result: heuristic defenders can "
                     "let a heuristic declarer do better.")
    if "pimc" in res["play"]:
        lines.append("sampling (pimc) = the hand's seat played by the sampling player (its partner and the opponents "
                     "as in the heuristics' row), on the same deals; it plays the contract 7 (the most net points, "
                     "ties to the most tricks).")
    lines.append(plain_table(pd.DataFrame({
        "trump": c.trump, "bid": c.bid, "play": c.play.map(PLAY_LABELS),
        "P(make) [95% CI]": [pct(a, b, e) for a, b, e in zip(c.p_make, c.ci_low, c.ci_high)],
        "E[points]": [pm(a, b, 3) for a, b in zip(c.exp_points, c.points_ci)],
        "E[net]": [pm(a, b, 3) for a, b in zip(c.exp_net, c.net_ci)],
        "E[tricks]": [pm(a, b, 2, sign=False) for a, b in zip(c.mean_tricks, c.tricks_ci)],
        "n": c.n.map(lambda x: f"{x:,}")})))
    g = res["gaps"]
    if len(g):
        lines.append("\ngap, each kind minus heuristics, paired on the same deals (95% CI):")
        lines.append(plain_table(pd.DataFrame({
            "trump": g.trump, "bid": g.bid, "play": g.play.map(PLAY_LABELS),
            "P(make)": [pm(100 * a, 100 * b, 1) + " pp" for a, b in zip(g.gap, g.gap_ci)],
            "E[net]": [pm(a, b, 3) for a, b in zip(g.net_gap, g.net_gap_ci)],
            "E[tricks]": [pm(a, b, 2) for a, b in zip(g.tricks_gap, g.tricks_gap_ci)],
            "n": g.n.map(lambda x: f"{x:,}")})))
        lines.append(f"({PP})")
    for b in res["best"].itertuples():
        lines.append(f"best call under {PLAY_LABELS[b.play]}: {b.best_call} ({pm(b.exp_net, b.net_ci, 3)} net points; "
                     "a call is assumed to end the auction)")
    return "\n".join(lines)
