"""``tricksim odds boomke-wies --hand ... --explain`` (issue 27): why one call.

Every call the seat can make is valued on the same random deals, as ``odds_hand`` values it (the same run and the
same block function ``boomke_wies.odds``: its numbers are the plain odds' on the same deals): a bid of 7 .. 12 or
Boom, opening a suit the hand holds (the suit led becomes trumps, rule 7), by the deal's net points (ours minus
theirs) under the scoring table, the call assumed to end the auction; pass, by the side's net points when the hand
passes at its first turn and the others bid on.  The dealer has a second decision (rule 6): after three passes he
may not pass and calls 7, Boom or Meetje (8-12 too under ``dealer_may_bid_8_to_12``), each in the suit he opens
(Meetje: valued as plain odds values it, on the declarer's tricks in that suit, or on the Meetje playout under
``meetje_trump = dealer_names_then_eldest_leads``); Meetje belongs to that decision only, as on the chart.

Each call's value on a deal is a linear function of the kernel's per-deal histograms (``weights``), so the deals cut
into ``BATCHES`` engine blocks give per-batch means, and the margin of the best call over each other is a paired
difference with Student's t over the batches (analysis/explain.py).  Then a few of the run's own deals (its first
``EXAMPLES``), each replayed alone by the same block function, where the best call wins (a bid made; Meetje: the
dealer's side takes 7 or more; pass: more than the runner-up call) and where it loses, shown as the four hands the
kernel dealt (``odds_tricks``, the same dealing).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...kernels import boomke_wies as K
from ...kernels.boomke_wies.odds import ODDS_DECLARER, ODDS_MEETJE, ODDS_POS, OP_PASS_NET
from ...kernels.cards import RANKS, SUITS, card_str, cards_of
from ..engine import RunOptions
from ..explain import (BATCHES, EXAMPLES, batch_size, batch_sums, keeper, margin_cells, margins, pick_examples,
                       same_as_best, verdict)
from ..output import pct, pm, show, with_folder, write_table
from .config import KEY, POSITIONS, BoomkeRules, _positions, call_name, parse_hand, score
from .spec import SPEC
from .studies import _odds_tables, block_odds, odds_hand, odds_run

MAIN, FORCED = "the call at its turn", "the dealer's call after three passes"


def _net(contract: int, rules: BoomkeRules) -> np.ndarray:
    return np.array([a - b for a, b, _ in (score(contract, t, rules) for t in range(14))], np.float64)


def choices(cards, seat: int, rules: BoomkeRules) -> list[tuple[str, str, int, int]]:
    """(group, label, contract, suit) of every call: pass (contract 0, suit -1), then 7 .. 12 and Boom in each suit
    the hand holds; for the dealer also the forced calls after three passes (7, Boom, Meetje; 8-12 by the rule)."""
    held = [s for s in range(4) if any(c // 16 == s for c in cards)]
    out = [(MAIN, "pass", 0, -1)] + [(MAIN, f"{call_name(c)} {SUITS[s]}", c, s) for s in held for c in range(7, 14)]
    if seat == 3:
        forced = [7] + (list(range(8, 13)) if rules.dealer_may_bid_8_to_12 else []) + [K.BOOM, K.MEETJE]
        out += [(FORCED, f"{call_name(c)} {SUITS[s]}", c, s) for s in held for c in forced]
    return out


def _hist(contract: int, suit: int, rules: BoomkeRules) -> int:
    """Offset of the histogram of the team's tricks that values ``contract`` in ``suit`` (as ``_odds_tables``)."""
    if contract == K.MEETJE and rules.meetje_trump == "dealer_names_then_eldest_leads":
        return ODDS_MEETJE + 14 * suit
    return ODDS_DECLARER + 14 * suit


def _pass_net(seat: int) -> int:
    return ODDS_POS + seat * K.ODDS_POS_LEN + OP_PASS_NET


def weights(ch, seat: int, rules: BoomkeRules) -> np.ndarray:
    """float64[kernel cells, calls]: a call's summed net points are the kernel's counts times its column."""
    w = np.zeros((K.AGG_ODDS, len(ch)))
    for j, (_, _, c, s) in enumerate(ch):
        if s < 0:
            w[_pass_net(seat):_pass_net(seat) + 16, j] = np.arange(-10, 6)
        else:
            w[_hist(c, s, rules):_hist(c, s, rules) + 14, j] = _net(c, rules)
    return w


def segments(seat: int):
    """The histograms each deal hits once (the declarer's and Meetje's tricks per suit, the seat's pass net)."""
    return ([(ODDS_DECLARER + 14 * s, 14) for s in range(4)] + [(ODDS_MEETJE + 14 * s, 14) for s in range(4)]
            + [(_pass_net(seat), 16)])


def one_deal(params, idx: int) -> np.ndarray:
    """Deal ``idx`` of the run replayed alone by the run's block function: its kernel counts (one deal)."""
    return np.asarray(block_odds(params, idx, 1))


def tricks_of(counts_one, suit: int, contract: int, rules: BoomkeRules) -> int:
    """The declaring team's tricks on one deal in the playout that values ``contract`` in ``suit``."""
    o = _hist(contract, suit, rules)
    return int(np.argmax(counts_one[o:o + 14]))


def dealt(params, idx: int) -> list[int]:
    """The four hands of deal ``idx`` (uint64 masks by kernel seat, the hand at 0) as the odds kernel deals them."""
    kd, kc, ra, codes, prm = SPEC.kernel_args(params)
    hs, _ = K.odds_tricks(kd, kc, np.int64(idx), np.int64(1), np.uint64(params["hand_mask"]), ra, codes, prm)
    return [int(np.uint64(x)) for x in hs[0].view(np.uint64)]


def hand_text(mask: int) -> str:
    """``S A K 7  H Q J 2  D -  C ...``: the hand by suit, high cards first."""
    cs = cards_of(mask)
    return "  ".join(f"{SUITS[s]} " + (" ".join(RANKS[c % 16] for c in sorted((c for c in cs if c // 16 == s),
                                                                             reverse=True)) or "-")
                     for s in range(4))


def explain_run(cards, seat: int = 0, seed: int = 0, hands: int = 200_000, rules=None, heuristics=None):
    """(run, batch size): the odds run of ``explain`` for one seat, its deals in ``BATCHES`` blocks of equal size."""
    size = batch_size(hands)
    return odds_run(cards, seat, seed, size * BATCHES, rules or BoomkeRules(), heuristics, size), size


def explain(hand, seat: int = 0, seed: int = 0, hands: int = 200_000, rules: BoomkeRules | None = None,
            heuristics=None, opts: RunOptions = RunOptions(), prepared=None) -> dict:
    """The odds of one hand in one seat with the paired margins of its best calls and example deals (docstring)."""
    rules = rules or BoomkeRules()
    cards = parse_hand(hand) if isinstance(hand, str) else list(hand)
    seat = _positions(seat)[0]
    specs = SPEC.parse_seats(heuristics)
    run, size = prepared or explain_run(cards, seat, seed, hands, rules, specs)
    prefixes, keep = keeper()
    r = opts.execute(run, keep)        # as odds_hand executes it, keeping the running sums after each block
    plain = _odds_tables(r.counts, cards, [seat], rules, r.n)
    ch = choices(cards, seat, rules)
    w = weights(ch, seat, rules)
    means = batch_sums(prefixes).astype(np.float64) @ w / size
    calls = plain["calls"].set_index(["trump", "call"])
    pos = plain["positions"].iloc[0]
    rows = []
    for g, lab, c, s in ch:
        if s < 0:
            rows.append({"group": g, "choice": lab, "exp_net": float(pos.pass_net), "net_ci": float(pos.pass_net_ci),
                         "exp_points": float(pos.pass_points), "points_ci": float(pos.pass_points_ci),
                         "p_make": np.nan, "make_lo": np.nan, "make_hi": np.nan, "n": int(pos.n)})
            continue
        x = calls.loc[(SUITS[s], call_name(c))]
        rows.append({"group": g, "choice": lab, "exp_net": float(x.exp_net), "net_ci": float(x.net_ci),
                     "exp_points": float(x.exp_points), "points_ci": float(x.points_ci), "p_make": float(x.p_make),
                     "make_lo": float(x.ci_low), "make_hi": float(x.ci_high), "n": int(x.n)})
    df = pd.DataFrame(rows)
    parts = []
    for g in dict.fromkeys(c[0] for c in ch):
        idx = [j for j, c in enumerate(ch) if c[0] == g]
        order = sorted(idx, key=lambda j: (-df.exp_net.iloc[j], ch[j][2] if ch[j][2] != K.MEETJE else 99, j))
        sub = [ch[j] for j in idx]
        best = idx.index(order[0])
        mg = margins(means[:, idx], [c[1] for c in sub], best,
                     same_as_best(r.counts, w[:, idx], segments(seat), best))
        mg["n"] = r.n
        mg = mg.iloc[[idx.index(j) for j in order]].reset_index(drop=True)
        parts.append({"group": g, "table": df.iloc[order].reset_index(drop=True), "margins": mg,
                      "means": means[:, order],
                      "examples": _examples(run.params, ch, order, w, min(r.n, EXAMPLES), rules)})
    return {"parts": parts, "n": r.n, "batches": BATCHES, "size": size, "seat": seat, "best": plain["best"],
            "hand": " ".join(card_str(c) for c in cards), "cards": cards, "out": opts.out}


def _outcome(one, call, rules, v) -> str:
    _, lab, c, s = call
    if s < 0:
        return f"pass: the others bid on, net {v:+.0f}"
    t = tricks_of(one, s, c, rules)
    if c == K.MEETJE:
        return f"{lab}: the dealer's side takes {t} (net {v:+.0f})"
    if c == K.BOOM and t < 13:
        return f"{lab}: failed, a trick lost (net {v:+.0f})"
    return f"{lab}: {'made' if t >= c else 'failed'}, {t} trick{'' if t == 1 else 's'} (net {v:+.0f})"


def _wins(one, call, rules, v, v2):
    _, _, c, s = call
    if s < 0:
        return True if v > v2 else False if v < v2 else None
    return tricks_of(one, s, c, rules) >= (7 if c == K.MEETJE else c)


def _examples(params, ch, order, w, n, rules):
    """Up to ``SHOW`` deals where the best call of a group wins and where it loses, preferring deals where the
    runner-up came out otherwise."""
    b, r2 = order[0], order[1] if len(order) > 1 else order[0]
    outs = []
    for idx in range(n):
        one = one_deal(params, idx)
        v = one @ w[:, b]
        v2 = one @ w[:, r2]
        outs.append((_wins(one, ch[b], rules, v, v2), v2 != v, idx, one))
    seat = params["positions"][0]
    rows = []
    for kind, idx, one in pick_examples(outs):
        masks = dealt(params, idx)
        by_pos = {(k + seat) % 4: (k, m) for k, m in enumerate(masks)}
        hands = [f"{POSITIONS[p]}{' (this hand)' if k == 0 else ' (partner)' if k == 2 else ''}: {hand_text(m)}"
                 for p, (k, m) in sorted(by_pos.items())]
        vals = [float(one @ w[:, j]) for j in order]
        rows.append({"kind": kind, "deal": idx, "hands": hands, "values": vals, "counts": one,
                     "outcomes": [_outcome(one, ch[j], rules, v) for j, v in zip(order, vals)]})
    return rows


def render(res, top: int = 8) -> str:
    seat = res["seat"]
    lines = [f"Why: Boomke Wies hand {res['hand']}, {POSITIONS[seat]} (seat {seat}). Every call on the same "
             f"{res['n']:,} random deals of the other 39 cards, cut into {res['batches']} batches of "
             f"{res['size']:,}: the margins are paired (the same deals), their 95% intervals by Student's t over the "
             "batches. A call's value is the deal's net points (the hand's side minus the other) by the scoring table, "
             "as odds boomke-wies --hand values it: 'k S' bids k and opens spades (the suit led becomes trumps), the "
             "call assumed to end the auction; pass: the hand passes and the others bid on."]
    for part in res["parts"]:
        t, mg = part["table"], part["margins"]
        lines.append(f"\n{part['group'][0].upper() + part['group'][1:]}" + (
            " (no pass; Meetje only here):" if part["group"] == FORCED else ":"))
        lines.append(show(pd.DataFrame({
            "call": t.choice, "E[net]": [pm(a, b, 3) for a, b in zip(t.exp_net, t.net_ci)],
            "best minus it": margin_cells(mg),
            "P(make)": ["" if np.isnan(p) else pct(p, lo, hi) for p, lo, hi in zip(t.p_make, t.make_lo, t.make_hi)],
            "E[points]": [pm(a, b, 3) for a, b in zip(t.exp_points, t.points_ci)],
            "n": [f"{x:,}" for x in t.n]}).head(top)))
        if len(t) > top:
            lines.append(f"({len(t) - top} more calls, each further behind, in explain_calls.csv)")
        lines.append(verdict(mg) + ".")
        for ex in part["examples"]:
            how = ("" if t.choice.iloc[0] != "pass" else f" (against {t.choice.iloc[1]})")
            lines.append(f"\ndeal {ex['deal']} of this run: {t.choice.iloc[0]} {ex['kind']}{how}. The hands as dealt:")
            lines += [f"  {h}" for h in ex["hands"]]
            lines.append("What each call came to:" if len(ex["outcomes"]) <= top else
                         f"What the first {top} calls came to:")
            lines += [f"  {x}" for x in ex["outcomes"][:top]]
        if not part["examples"]:
            lines.append("(no example: the first deals of the run hold none where the best call wins or loses)")
    return "\n".join(lines)


def explain_command(hand: str, seat, hands, seed, heuristics, rules, opts: RunOptions = RunOptions()):
    """``tricksim odds boomke-wies --hand ... --explain``: runs into the run folder, yields the text to print."""
    if rules.variant == "no_auction":
        odds_hand(hand, seat, hands=1, rules=rules)         # raises its one-line error
    cards = parse_hand(hand)
    seat = _positions(0 if seat is None else seat)[0]
    specs = SPEC.parse_seats(heuristics)
    prepared = explain_run(cards, seat, seed, hands or 200_000, rules, specs)
    opts = with_folder(opts, KEY, "odds_explain", prepared[0])
    res = explain(cards, seat, seed, hands or 200_000, rules, specs, opts, prepared)
    write_table(pd.concat([p["table"] for p in res["parts"]], ignore_index=True), opts.out, "explain_calls")
    write_table(pd.concat([p["margins"].assign(group=p["group"]) for p in res["parts"]], ignore_index=True),
                opts.out, "explain_margins")
    yield render(res)
    yield f"\nresults in {opts.out}"
