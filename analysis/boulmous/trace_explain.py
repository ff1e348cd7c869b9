"""``tricksim trace boulmous -H pimc --explain`` (issue 27): the sampling player's reasons at each of its decisions.

At every decision of a sampling (pimc) seat in a traced deal, its candidates are valued again from Python by the
kernel's own njit functions (kernels/boulmous/pimc.py, solver.py) at the traced position, with the same random
stream, so the worlds are the ones it sampled and the best shown is the call or card it made (tests check it):

- **calls** (``pimc_calls``, before the auction, a seat with ``bid=1``): ``worlds`` layouts of the 18 unseen cards;
  in each, the seat's tricks as the taker on lead for each trump (the solver); a bid b in trump t is worth its
  points plus stakes (rule 16, 18), passing the seat's tricks in its worst suit (the kernel's stand-in).  The
  candidates of a turn are the bids it may make (over the highest bid so far), each in its best trump, and pass;
  it bids the best one when it is worth more than passing;
- **cards** (``pimc_choose``): the candidates are the legal cards, one per run of equivalent cards; each is solved
  in the same worlds (layouts consistent with all the seat has seen), valued by the number of worlds in which the
  contract is made, then by the taker's tricks (the taker maximises, a defender minimises; ties to the lower card).
  With the race (``race`` > 0) the sampling stops once the leader is clear: the worlds counted are those solved.

Each candidate's value is its mean over the worlds with a 95% interval over the worlds (Student's t; the worlds are
independent draws; none from a single world), and the number of worlds; for a card also the worlds where the
contract is made, with their Wilson interval.
"""
from __future__ import annotations

import math

import numpy as np

from ...kernels.boulmous import H_PIMC
from ...kernels.boulmous import pimc as KP
from ...kernels.boulmous import solver as KS
from ...kernels.boulmous.players import P_BID, P_RACE, P_WORLDS, min_power_card
from ...kernels.boulmous.rules import DECK24, NT, R_FAILED_KEEPS, R_LEFT_BOWER_TRUMP, legal_mask
from ...kernels.cards import card_str
from ...kernels.rng import seed_state
from ..common import TricksimError, make_params, parse_card
from ..explain import need_sampling_seat
from ..stats import t_crit, wilson
from .config import TRUMP_NAMES, has_pimc, pimc_key
from .spec import SPEC


def _ci(x) -> tuple:
    x = np.asarray(x, np.float64)
    if len(x) < 2:
        return float(x.mean()), None, None          # no interval from one world (JSON: null)
    half = float(t_crit(len(x) - 1) * x.std(ddof=1) / math.sqrt(len(x)))
    return float(x.mean()), float(x.mean() - half), float(x.mean() + half)


def _mask(cards) -> np.uint64:
    m = 0
    for c in cards:
        m |= 1 << c
    return np.uint64(m)


def call_values(seat: int, hand, ra, worlds: int, key, deal: int) -> tuple:
    """Per world (int64[worlds, 5, 5]): rows b - 3 the bids 3..6 by trump, row 4 column 0 passing, as
    ``pimc_calls`` sums them (the same stream, the same solves)."""
    lb = ra[R_LEFT_BOWER_TRUMP]
    z = np.zeros(1, np.int64)
    others, cap, elig, ucards, ways = KP._sampler(np.int64(seat), hand, z, np.int64(0), z, z, z, z, np.int64(NT), ra, lb)
    st = np.zeros(1, np.uint64)
    seed_state(st, key, np.int64(deal))
    seed_state(st, st[0], np.int64(KP.CALL_STREAM + seat))
    world = np.zeros(4, np.uint64)
    trick = np.zeros(4, np.int64)
    ws = KS._workspace(KS.TT_BITS)
    keeps = ra[R_FAILED_KEEPS] != 0
    per = np.zeros((worlds, 5, 5), np.int64)
    for w in range(worlds):
        KP._draw(st, world, others, cap, elig, ucards, ways)
        world[seat] = hand
        worst = 6
        for t in range(5):
            v = int(KS.solve(world, np.int64(seat), trick, np.int64(0), np.int64(t), np.int64(seat), ra, ws))
            if t < 4:
                worst = min(worst, v)
            for b in range(3, 7):
                p = v if v >= b else (v - b if keeps else -b)
                per[w, b - 3, t] = p + ((3 if v == 6 else -3) if b == 6 else 0)
        per[w, 4, 0] = worst
    return per


def explain_call(seat: int, hand, high: int, said, ra, worlds: int, key, deal: int) -> dict:
    """The seat's turn in the auction over the highest bid ``high``: every bid it may make in its best trump, and
    pass, valued over the worlds; the best (by the kernel's rule) and what it said."""
    per = call_values(seat, hand, ra, worlds, key, deal)
    sums = per.sum(axis=0)
    trumps = [int(np.argmax(sums[b])) for b in range(4)]      # ties: the lower index, as the kernel
    lo = 3 if high < 3 else high + 1
    cands = []
    for b in range(lo, 7):
        m, a, z = _ci(per[:, b - 3, trumps[b - 3]] / 1.0)
        cands.append({"choice": f"{b} {TRUMP_NAMES[trumps[b - 3]]}", "sum": int(sums[b - 3, trumps[b - 3]]),
                      "mean": m, "lo": a, "hi": z})
    m, a, z = _ci(per[:, 4, 0])
    pas = {"choice": "pass", "sum": int(sums[4, 0]), "mean": m, "lo": a, "hi": z}
    best = None
    for c in cands:                                          # the highest sum; ties: the lower bid
        if best is None or c["sum"] > best["sum"]:
            best = c
    chosen = best["choice"] if best is not None and best["sum"] > pas["sum"] else "pass"
    return {"kind": "call", "seat": seat, "worlds": worlds, "candidates": cands + [pas], "best": chosen,
            "played": "pass" if not said else f"{said} {TRUMP_NAMES[trumps[said - 3]]}", "value": "points plus stakes if the seat took it "
            "(pass: its tricks in its worst suit), per world"}


def explain_card(seat: int, hand: int, played, taker: int, t: int, bid: int, ra, worlds: int, race: float, key,
                 deal: int) -> dict | None:
    """The card decision of ``seat`` after ``played`` (play order), or None when it had one candidate."""
    lb = ra[R_LEFT_BOWER_TRUMP]
    n = len(played)
    pl = np.zeros(24, np.int64)
    pl[:n] = played
    who, pos, led_of, wp_of = (np.zeros(24, np.int64) for _ in range(4))
    leader, ntr, led, wp, _, won = KP._history(pl, np.int64(n), np.int64(taker), np.int64(t), lb, who, pos, led_of,
                                               wp_of)
    cur = [int(c) for c in played[n - ntr:]] if ntr else []
    hand = np.uint64(hand)
    pm = int(_mask(played))
    legal = legal_mask(hand, np.int64(ntr), np.int64(led), np.int64(wp), np.int64(t), ra, lb)
    cand = KP._reps(legal, np.uint64((int(DECK24) & ~pm) | int(_mask(cur))), np.int64(t), lb)
    cards = []
    m = np.uint64(cand)
    while int(m):
        c = int(min_power_card(m, np.int64(t), lb))
        cards.append(c)
        m = np.uint64(int(m) & ~(1 << c))
    if len(cards) < 2:
        return None
    ws_ = np.zeros((worlds, 4), np.uint64)
    if KP.sample_worlds(np.int64(seat), hand, pl, np.int64(n), np.int64(taker), np.int64(t), ra, key,
                        np.int64(deal), ws_) == 0:
        return None
    ws = KS._workspace(KS.TT_BITS)
    tricks = np.zeros((worlds, len(cards)), np.int64)
    trick = np.zeros(4, np.int64)
    wmul = 7 * worlds
    sgn = 1 if seat == taker else -1
    used = worlds
    for w in range(worlds):
        for k, c in enumerate(cards):
            h = ws_[w].copy()
            trick[:] = 0
            trick[:ntr] = cur
            h[seat] = np.uint64(int(h[seat]) ^ (1 << c))
            trick[ntr] = c
            if ntr == 3:
                _, _, ws2, _ = KS._trick_state(trick, np.int64(4), np.int64(leader), np.int64(t), lb)
                v = (1 if ws2 == taker else 0) + int(KS.solve(h, ws2, trick, np.int64(0), np.int64(t),
                                                               np.int64(taker), ra, ws))
            else:
                v = int(KS.solve(h, np.int64(leader), trick, np.int64(ntr + 1), np.int64(t), np.int64(taker), ra, ws))
            tricks[w, k] = v
        if race > 0 and KP.RACE_MIN_WORLDS <= w + 1 < worlds and _race_done(tricks[:w + 1], won, bid, wmul, sgn,
                                                                             race):
            used = w + 1
            break
    tr = tricks[:used]
    mk = (won + tr >= bid).astype(np.int64)
    best = 0
    for k in range(1, len(cards)):
        if mk[:, k].sum() != mk[:, best].sum():
            better = mk[:, k].sum() > mk[:, best].sum()
        elif tr[:, k].sum() != tr[:, best].sum():
            better = tr[:, k].sum() > tr[:, best].sum()
        else:
            continue
        if better == (seat == taker):
            best = k
    cands = []
    for k, c in enumerate(cards):
        m, a, z = _ci(won + tr[:, k])
        p_, pa, pz = wilson(int(mk[:, k].sum()), used)
        cands.append({"choice": card_str(c), "made": int(mk[:, k].sum()), "p_made": float(p_), "made_lo": float(pa),
                      "made_hi": float(pz), "mean": m, "lo": a, "hi": z})
    return {"kind": "card", "seat": seat, "trick": n // 4 + 1, "worlds": used, "candidates": cands,
            "best": card_str(cards[best]), "value": "the worlds where the contract is made, then the taker's "
            "tricks in the deal (the taker maximises, a defender minimises)"}


def _race_done(per, won, bid, wmul, sgn, race) -> bool:
    """``pimc_choose``'s race stop after the worlds ``per`` (int64[w, candidates], the taker's tricks from here)."""
    mk = (won + per >= bid).astype(np.int64)
    tricks, makes = per.sum(axis=0), mk.sum(axis=0)
    best = 0
    for k in range(1, per.shape[1]):
        if sgn * (wmul * (makes[k] - makes[best]) + tricks[k] - tricks[best]) > 0:
            best = k
    for k in range(per.shape[1]):
        if k == best:
            continue
        d = (mk[:, best] - mk[:, k]) if (wmul > 0 and makes[k] != makes[best]) else (per[:, best] - per[:, k])
        lead, ss = int(d.sum()), int((d * d).sum())
        if sgn * lead <= 0 or lead * lead <= race * race * ss:
            return False
    return True


def explain_deal(d: dict, seed: int, rules, specs) -> list[dict]:
    """Every decision of a sampling seat in the traced deal ``d`` (a docs/trace.md dict)."""
    _, _, ra, codes, prm = SPEC.kernel_args(make_params(seed, rules, specs))
    key = pimc_key(seed)
    deal = d["hand_index"]
    hands = [[parse_card(c) for c in h] for h in d["deal"]]
    out = []
    high = 0
    for b in d["bids"]:
        s = b["seat"]
        if codes[s] == H_PIMC and prm[s, P_BID] > 0.5 and high < 6:     # over a 6 it can only pass
            out.append(explain_call(s, _mask(hands[s]), high, b["bid"], ra, int(prm[s, P_WORLDS]), key, deal))
        if b["bid"]:
            high = b["bid"]
    if d["taker"] is None:
        return out
    t = TRUMP_NAMES.index(d["trump"])
    played = []
    held = [set(h) for h in hands]
    for tr in d["tricks"]:
        for j, c in enumerate(tr["cards"]):
            s = (tr["leader"] + j) % 4
            c = parse_card(c)
            if codes[s] == H_PIMC:
                x = explain_card(s, int(_mask(held[s])), played, d["taker"], t, d["contract"], ra,
                                 int(prm[s, P_WORLDS]), float(prm[s, P_RACE]), key, deal)
                if x is not None:
                    x["played"] = card_str(c)
                    out.append(x)
            played.append(c)
            held[s].discard(c)
    return out


def with_explain(records: list[dict], seed: int, rules, specs) -> list[dict]:
    """``trace boulmous --explain``: each record with its field ``explain``, the sampling seats' decisions
    (``explain_deal``); refused in one line when no seat is the sampling player."""
    need_sampling_seat(has_pimc(specs))
    for s in SPEC.parse_seats(specs):
        if s.code == H_PIMC and s.value("infer") > 0.5:
            raise TricksimError(f"--explain shows the decisions of pimc without inference; {s.label!r} has infer=1 "
                                "(its worlds depend on the calls heard): use infer=0 there")
    return [d | {"explain": explain_deal(d, seed, rules, specs)} for d in records]
