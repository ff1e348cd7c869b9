"""Boulmous odds under several kinds of play on the same deals (issue 12 item 4): ``tricksim odds boulmous
--hand ... --play heuristic,open``.

Kinds of play (``PLAY_KINDS``):

- ``heuristic``: the four seats play their heuristics, as the plain odds study does (the same deals and the
  same random decisions: its column equals ``odds_hand``'s on the same number of deals);
- ``pimc``: the sampling player in every seat (taker and defenders; card play only, the contract being
  forced): each decision samples ``worlds`` layouts of the unseen cards consistent with what the seat has
  seen and plays the card that scores best on them open-handed (kernels/boulmous/pimc.py pimc_card, goal: the
  taker's tricks); ``pimc:worlds=N`` sets the worlds (default ``PIMC_WORLDS``).  Its own random stream
  (seed, deal index, trump): the column does not depend on threads or blocks;
- ``open``: open-hand (double-dummy) play: every seat sees every card and plays perfectly, the taker against
  the three defenders as one side (kernels/boulmous/solver.py).  It is *not* a bound on the heuristics' result:
  heuristic defenders can do worse than perfect ones, so a heuristic taker can make more than open-hand play.

The block function ``boulmous.odds_play`` deals deal ``i`` exactly as ``boulmous.odds`` does (the deal index
fixes the other 18 cards for every kind: common random numbers) and counts, per trump, the joint histogram of
the taker's tricks under every kind requested, so paired differences (the gap) come from the same counts.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...kernels.boulmous import odds_play as S
from ...kernels.boulmous import pimc_batch as P
from ...kernels.cards import card_str, mask_of
from ...kernels.layout import Layout
from .. import engine
from ..common import TricksimError, make_params
from ..engine import RunOptions
from ..stats import hist_mean_ci, mean_ci, wilson
from .config import (DEALER, PIMC_WORLDS, TRUMP_NAMES, BoulmousRules, _trump, check_hands, check_seat, no_pimc,
                     parse_hand, pimc_key)
from .spec import SPEC
from .studies import bid_stakes_ci

PLAY_KINDS = ("heuristic", "pimc", "open")
DEFAULT_PLAY = ("heuristic", "open")   # the kinds when none are given (pimc is slow: asked for by name)
PLAY_LABELS = {"heuristic": "heuristics", "pimc": "pimc", "open": "open-hand"}
PLAY_BLOCK = 1 << 14   # deals per block: about a second of open-hand solving (five trumps a deal)
PLAY_HANDS = 200_000   # default deals with --play (as the plain odds)
PIMC_BLOCK = 128       # deals per block with pimc (five PIMC deals each: a few seconds a block)
PIMC_HANDS = 4_000     # default deals of --hand with pimc (about a minute on 2 cores, five trumps)
PIMC_CLASS_HANDS = 10_000   # default deals of the class table with pimc
PIMC_CLASS_BLOCK = 512


def play_worlds(text) -> int:
    """The worlds of ``pimc:worlds=N`` in ``--play`` (default ``PIMC_WORLDS``)."""
    items = text if isinstance(text, (list, tuple)) else [text]
    worlds = PIMC_WORLDS
    for x in (x.strip().lower() for item in items for x in str(item).split(",")):
        if x.startswith("pimc:"):
            key, _, val = x[5:].partition("=")
            if key.strip() != "worlds":
                raise TricksimError(f"--play {x!r}: pimc takes one parameter, worlds (pimc:worlds=N)")
            try:
                worlds = int(val)
            except ValueError:
                raise TricksimError(f"--play {x!r}: worlds must be an integer from 1 to 4096") from None
            if not 1 <= worlds <= 4096:
                raise TricksimError(f"--play {x!r}: worlds must be an integer from 1 to 4096, got {worlds}")
    return worlds


def parse_play(text) -> list[str]:
    """The kinds of play of ``--play`` (``"heuristic,open"`` or a list), deduplicated, in ``PLAY_KINDS`` order."""
    items = text if isinstance(text, (list, tuple)) else [text]
    names = [x.strip().lower() for item in items for x in str(item).split(",") if x.strip()]
    if not names:
        raise TricksimError(f"--play is empty: give kinds of play among {', '.join(PLAY_KINDS)}")
    play_worlds(names)
    names = [x.split(":")[0].strip() for x in names]
    for x in names:
        if x not in PLAY_KINDS:
            raise TricksimError(f"--play: unknown kind of play {x!r}; choose among {', '.join(PLAY_KINDS)}")
    return [k for k in PLAY_KINDS if k in names]


def _tricks(kind, params, first, n):
    """int64[n, 5]: the taker's tricks per deal and trump under ``kind`` (pimc: -1 for a trump not asked)."""
    kd, kc, ra, codes, prm = SPEC.kernel_args(params)
    out = np.zeros((n, 5), np.int64)
    fixed = np.uint64(params["hand_mask"])
    if kind == "heuristic":
        S.sim_odds_tricks(kd, kc, first, n, fixed, params["seat"], DEALER, ra, codes, prm, out)
    elif kind == "pimc":
        asked = np.array([int(t in params["trumps"]) for t in range(5)], np.int64)
        P.sim_odds_pimc(kd, pimc_key(params["seed"]), first, n, fixed, params["seat"], ra, asked,
                        params["worlds"], out)
    else:
        S.sim_odds_open(kd, first, n, fixed, params["seat"], ra, out)
    return out


def play_layout(k: int) -> Layout:
    """``block_odds_play``'s vector for ``k`` kinds of play: per trump, the joint histogram of the taker's tricks
    0..6 under each kind (axis k-1-j: kind j of ``params["play"]``)."""
    return Layout(("by_trump", (5,) + (7,) * k),)


def block_odds_play(params, first, n):
    """Per trump t, the joint histogram of the taker's tricks under the kinds ``params["play"]`` (``play_layout``):
    count ``t * 7**K + sum_j tricks_j * 7**j`` (K kinds, j in the order of ``params["play"]``)."""
    kinds = params["play"]
    k = len(kinds)
    lay = play_layout(k)
    code = np.repeat(lay.offset("by_trump") + np.arange(5, dtype=np.int64)[None, :] * 7 ** k, n, axis=0)
    for j, kind in enumerate(kinds):
        code += _tricks(kind, params, first, n) * 7 ** j
    if "trumps" in params:      # pimc: only the trumps asked are played (and counted)
        code = code[:, sorted(params["trumps"])]
    return np.bincount(code.ravel(), minlength=lay.size).astype(np.int64)


def _pimc_params(play, trumps=None) -> dict:
    """The run parameters pimc adds (none without it, so the other kinds' runs keep their folders)."""
    if "pimc" not in parse_play(play):
        return {}
    out = {"worlds": play_worlds(play)}
    if trumps is not None:
        out["trumps"] = sorted({TRUMP_NAMES.index(_trump(t)) for t in (trumps or TRUMP_NAMES)})
    return out


def odds_play_run(cards, seat: int = 0, seed: int = 0, hands: int = PLAY_HANDS, rules=None, heuristics=None,
                  play=DEFAULT_PLAY, block_size: int | None = None, trumps=None) -> engine.Run:
    """The run of ``odds_play``: what names its folder and what it executes (with pimc, only ``trumps``)."""
    specs = no_pimc(SPEC.parse_seats(heuristics), "odds --play (the heuristic seats)")
    extra = _pimc_params(play, trumps or TRUMP_NAMES)
    params = make_params(seed, rules or BoulmousRules(), specs, hand_mask=mask_of(cards), seat=seat,
                         play=parse_play(play), **extra)
    return engine.Run("boulmous.odds_play", params, hands, block_size or (PIMC_BLOCK if extra else PLAY_BLOCK))


def _points(bid, rules):
    tricks = np.arange(7)
    return np.where(tricks >= bid, tricks, tricks - bid if rules.failed_taker_keeps_tricks else -bid)


def _play_tables(counts, kinds, rules):
    """(calls, gaps): per trump, bid and kind P(make) with its Wilson interval and the expected points and
    stakes; per trump, bid and pair (kind, heuristic) the paired difference of P(make)."""
    k = len(kinds)
    by_trump = play_layout(k).field(counts, "by_trump")
    rows, gaps = [], []
    for t in range(5):
        joint = by_trump[t]                                             # axis k-1-j: kind j
        n = int(joint.sum())
        if n == 0:
            continue
        marg = {kind: joint.sum(axis=tuple(a for a in range(k) if a != k - 1 - j))
                for j, kind in enumerate(kinds)}
        for bid in range(3, 7):
            pts = _points(bid, rules)
            for kind in kinds:
                h = marg[kind]
                made = int(h[bid:].sum())
                p, lo, hi = wilson(made, n)
                m, half, _ = hist_mean_ci(pts, h)
                ms, slo, shi = bid_stakes_ci(bid, made, n)
                mean_t, half_t, _ = hist_mean_ci(np.arange(7), h)
                rows.append({"trump": TRUMP_NAMES[t], "bid": bid, "play": kind, "p_make": float(p),
                             "ci_low": float(lo), "ci_high": float(hi), "n": n, "exp_points": m, "points_ci": half,
                             "exp_stakes": ms, "stakes_ci": (shi - slo) / 2, "stakes_lo": slo,
                             "stakes_hi": shi, "mean_tricks": mean_t, "tricks_ci": half_t})
            if "heuristic" in kinds:
                ih = kinds.index("heuristic")
                for j, kind in enumerate(kinds):
                    if kind == "heuristic":
                        continue
                    # the pair's 7x7 joint: rows = this kind's tricks, columns = the heuristics'
                    pair = joint.sum(axis=tuple(a for a in range(k) if a not in (k - 1 - j, k - 1 - ih)))
                    if k - 1 - j > k - 1 - ih:
                        pair = pair.T
                    up = int(pair[bid:, :bid].sum())     # made under this kind only
                    down = int(pair[:bid, bid:].sum())   # made under the heuristics only
                    d, half = mean_ci(up - down, up + down, n)
                    dt = np.subtract.outer(np.arange(7), np.arange(7))
                    mt, ht = mean_ci(float((dt * pair).sum()), float((dt * dt * pair).sum()), n)
                    gaps.append({"trump": TRUMP_NAMES[t], "bid": bid, "play": kind, "versus": "heuristic",
                                 "gap": float(d), "gap_ci": float(half), "n": n, "only_this": up,
                                 "only_heuristic": down, "tricks_gap": float(mt), "tricks_gap_ci": float(ht)})
    return pd.DataFrame(rows), pd.DataFrame(gaps)


def best_calls(calls: pd.DataFrame) -> pd.DataFrame:
    """Per kind of play, the call with the highest expected points plus stakes (ties: the lower bid)."""
    rows = []
    for kind, df in calls.groupby("play", sort=False):
        v = df.exp_points + df.exp_stakes
        b = df.assign(value=v).sort_values(["value", "bid"], ascending=[False, True]).iloc[0]
        rows.append({"play": kind, "best_call": f"{int(b.bid)} {b.trump}", "exp_value": float(b.value),
                     "exp_points": float(b.exp_points), "exp_stakes": float(b.exp_stakes)})
    return pd.DataFrame(rows)


def odds_play(hand, seat: int = 0, seed: int = 0, hands: int = PLAY_HANDS, rules: BoulmousRules | None = None,
              heuristics=None, play=DEFAULT_PLAY, trumps: list[str] | None = None, opts: RunOptions = RunOptions(),
              until_precision: float | None = None, block_size: int | None = None, run=None):
    """Bid odds of one Boulmous hand under each kind of play in ``play``, from the same deals.  Returns a dict:
    ``calls`` (trump x bid x kind: p_make with its interval, expected points, stakes and tricks), ``gaps``
    (trump x bid, each kind against the heuristics: the paired difference of P(make) and of mean tricks with
    95% intervals), ``best`` (per kind, by expected points plus stakes), ``n``, ``seconds``, ``hand``, ``play``."""
    rules = rules or BoulmousRules()
    cards = parse_hand(hand) if isinstance(hand, str) else list(hand)
    check_seat(seat)
    kinds = parse_play(play)
    tlist = [TRUMP_NAMES.index(_trump(t)) for t in (trumps or TRUMP_NAMES)]
    run = run or odds_play_run(cards, seat, seed, check_hands(hands), rules, heuristics, play, block_size, trumps)
    stop = None
    if until_precision:
        def stop(acc, n):
            df, _ = _play_tables(acc, kinds, rules)
            return bool(((df.ci_high - df.ci_low) / 2).max() <= until_precision)
    r = opts.execute(run, stop)
    calls, gaps = _play_tables(r.counts, kinds, rules)
    keep = [TRUMP_NAMES[t] for t in tlist]
    calls = calls[calls.trump.isin(keep)].reset_index(drop=True)
    if len(gaps):
        gaps = gaps[gaps.trump.isin(keep)].reset_index(drop=True)
    if not len(calls):
        raise TricksimError("no trump selected")
    return {"calls": calls, "gaps": gaps, "best": best_calls(calls), "n": r.n, "seconds": r.seconds,
            "hand": " ".join(card_str(c) for c in cards), "play": kinds, "seat": seat,
            "worlds": run.params.get("worlds")}


# ---- the hand classes over random deals ----------------------------------------------------------------------
N_CLASSES = 8 * 3 * 5   # (trumps held 0..7, bowers 0..2, side aces 0..4), as kernels/boulmous.hand_class


def block_classes_play(params, first, n):
    """Per hand class of the first to speak (``boulmous.classes``'s deals and decisions; no-trump choices left
    out), the joint histogram of its tricks under the kinds ``params["play"]``: count
    ``class * 7**K + sum_j tricks_j * 7**j``."""
    kinds = params["play"]
    k = len(kinds)
    kd, kc, ra, codes, prm = SPEC.kernel_args(params)
    out = np.zeros((n, 3), np.int64)
    S.sim_classes_play(kd, kc, first, n, ra, codes, prm, "open" in kinds, out)
    if "pimc" in kinds:     # the same deals and trumps, four PIMC seats
        pim = np.zeros(n, np.int64)
        P.sim_classes_pimc(kd, kc, pimc_key(params["seed"]), first, n, ra, codes, prm, params["worlds"], pim)
        out = np.column_stack([out, pim])
    out = out[out[:, 0] >= 0]
    code = out[:, 0] * 7 ** k
    for j, kind in enumerate(kinds):
        code = code + out[:, {"heuristic": 1, "open": 2, "pimc": 3}[kind]] * 7 ** j
    return np.bincount(code, minlength=N_CLASSES * 7 ** k).astype(np.int64)


def classes_play_run(seed: int = 0, hands: int = 2_000_000, rules=None, heuristics=None, play=DEFAULT_PLAY,
                     block_size: int | None = None) -> engine.Run:
    """The run of ``odds_classes_play``."""
    specs = no_pimc(SPEC.parse_seats(heuristics), "odds --play (the heuristic seats)")
    extra = _pimc_params(play)
    return engine.Run("boulmous.classes_play", make_params(seed, rules or BoulmousRules(), specs,
                                                            play=parse_play(play), **extra), hands,
                      block_size or (PIMC_CLASS_BLOCK if extra else 1 << 17))


def odds_classes_play(seed: int = 0, hands: int = 2_000_000, rules=None, heuristics=None, play=DEFAULT_PLAY,
                      opts: RunOptions = RunOptions(), block_size: int | None = None, run=None):
    """``odds_classes`` under each kind of play on the same deals: the first to speak takes each bid in the trump
    its heuristic prefers (no-trump choices left out).  Returns ``by_trumps_bowers`` (one row per trumps held,
    bowers held and kind: n, p3..p6 with intervals, mean tricks), ``gaps`` (per trumps, bowers and bid, each kind
    against the heuristics: the paired difference with its interval), ``n``, ``seconds``, ``play``."""
    rules = rules or BoulmousRules()
    kinds = parse_play(play)
    run = run or classes_play_run(seed, check_hands(hands), rules, heuristics, play, block_size)
    r = opts.execute(run)
    k = len(kinds)
    joint = r.counts.reshape((8, 3, 5) + (7,) * k).sum(axis=2)
    rows, gaps = [], []
    for ntr in range(8):
        for nb in range(3):
            jt = joint[ntr, nb]
            n = int(jt.sum())
            if n == 0:
                continue
            marg = {kind: jt.sum(axis=tuple(a for a in range(k) if a != k - 1 - j)) for j, kind in enumerate(kinds)}
            for kind in kinds:
                h = marg[kind]
                row = {"trumps": ntr, "bowers": nb, "play": kind, "n": n,
                       "mean_tricks": float((h * np.arange(7)).sum() / n)}
                for bid in range(3, 7):
                    p, lo, hi = wilson(int(h[bid:].sum()), n)
                    row.update({f"p{bid}": float(p), f"p{bid}_lo": float(lo), f"p{bid}_hi": float(hi)})
                rows.append(row)
            if "heuristic" in kinds:
                ih = kinds.index("heuristic")
                for j, kind in enumerate(kinds):
                    if kind == "heuristic":
                        continue
                    pair = jt.sum(axis=tuple(a for a in range(k) if a not in (k - 1 - j, k - 1 - ih)))
                    if k - 1 - j > k - 1 - ih:
                        pair = pair.T
                    for bid in range(3, 7):
                        up, down = int(pair[bid:, :bid].sum()), int(pair[:bid, bid:].sum())
                        d, half = mean_ci(up - down, up + down, n)
                        gaps.append({"trumps": ntr, "bowers": nb, "bid": bid, "play": kind, "versus": "heuristic",
                                     "gap": float(d), "gap_ci": float(half), "n": n})
    return {"by_trumps_bowers": pd.DataFrame(rows), "gaps": pd.DataFrame(gaps), "n": r.n, "seconds": r.seconds,
            "play": kinds, "worlds": run.params.get("worlds")}
