"""``tricksim odds boulmous --hand ... --explain`` (issue 27): why one call.

Every call (pass, and each bid 3 .. 6 in each trump and at no trumps) is played on the same random deals, as
``odds_hand`` plays them (the same run: its numbers are the plain odds' on the same deals).  A call's value is the
deal's points plus stakes (``best_call``).  The deals are cut into ``BATCHES`` engine blocks of equal size; each
block's per-call value is a linear function of the kernel's per-block histograms, so the margin of the best call
over every other is a paired difference of batch means with a t interval over the batches (analysis/explain.py).
Then a few of the run's own deals (its first ``EXAMPLES``, each replayed alone by the same block function, so
exactly as in the run) where the best call wins (a bid made; passing: more than the runner-up call) and where it loses, with
every seat's cards as dealt and what each call came to.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...kernels import boulmous as K
from ...kernels.boulmous.dealing import _rest_of, deal_rest
from ...kernels.cards import card_str, cards_of
from ..engine import RunOptions
from ..explain import (BATCHES, EXAMPLES, batch_size, batch_sums, keeper, margin_cells, margins, pick_examples,
                       same_as_best, verdict)
from ..output import pm, show, with_folder, write_table
from .config import KEY, TRUMP_NAMES, BoulmousRules, check_seat, no_pimc, parse_hand
from .spec import SPEC
from .studies import _odds_tables, best_call, block_odds, odds_run

O_BY_TRUMP, O_PASS_POINTS, O_PASS_STAKES = K.ODDS.offsets()
# the kernel's histograms, each hit once per deal (for ``same_as_best``)
SEGMENTS = [(O_BY_TRUMP + 7 * t, 7) for t in range(5)] + [(O_PASS_POINTS, 13), (O_PASS_STAKES, 5)]
SEATS = ["first to bid", "second to bid", "third to bid", "the dealer"]


def choices() -> list[tuple[str, int, int]]:
    """(label, trump, bid) of every call: pass (-1, 0), then each trump's bids 3 .. 6."""
    return [("pass", -1, 0)] + [(f"{b} {TRUMP_NAMES[t]}", t, b) for t in range(5) for b in range(3, 7)]


def bid_points(tricks: int, bid: int, rules: BoulmousRules) -> int:
    """The taker's points (rule 16): the tricks when made, else tricks - bid (or -bid)."""
    return tricks if tricks >= bid else (tricks - bid if rules.failed_taker_keeps_tricks else -bid)


def bid_stakes(tricks: int, bid: int) -> int:
    """The boulmous payments of a bid (rule 18 c, d): bid 6 made +3, failed -3; a lower bid none."""
    return 0 if bid < 6 else (3 if tricks >= bid else -3)


def weights(rules: BoulmousRules) -> np.ndarray:
    """float64[kernel cells, calls]: a call's summed value (points plus stakes) is the kernel's sums times its column."""
    ch = choices()
    w = np.zeros((K.ODDS.size, len(ch)))
    for j, (_, t, b) in enumerate(ch):
        if t < 0:
            w[O_PASS_POINTS:O_PASS_POINTS + 13, j] = np.arange(-6, 7)
            w[O_PASS_STAKES:O_PASS_STAKES + 5, j] = np.arange(-1, 4)
        else:
            w[O_BY_TRUMP + 7 * t:O_BY_TRUMP + 7 * t + 7, j] = [bid_points(k, b, rules) + bid_stakes(k, b)
                                                                for k in range(7)]
    return w


def one_deal(params, idx: int) -> dict:
    """Deal ``idx`` of the run replayed alone: the taker's tricks per trump, and passing's points and stakes."""
    o = K.ODDS.unpack(np.asarray(block_odds(params, idx, 1)))
    return {"tricks": [int(np.argmax(o["by_trump"][t])) for t in range(5)],
            "pass_points": int(np.argmax(o["pass_points"])) - 6, "pass_stakes": int(np.argmax(o["pass_stakes"])) - 1}


def deal_value(out: dict, t: int, b: int, rules: BoulmousRules) -> int:
    if t < 0:
        return out["pass_points"] + out["pass_stakes"]
    k = out["tricks"][t]
    return bid_points(k, b, rules) + bid_stakes(k, b)


def dealt(params, idx: int) -> list[int]:
    """The four hands of deal ``idx`` (uint64 masks by seat from the dealer's left), as the odds kernel deals it."""
    kd = SPEC.kernel_args(params)[0]
    fixed = np.uint64(params["hand_mask"])
    hands = np.zeros(4, np.uint64)
    deal_rest(np.zeros(1, np.uint64), kd, np.int64(idx), np.zeros(18, np.int64), _rest_of(fixed), fixed,
              np.int64(params["seat"]), hands)
    return [int(x) for x in hands]


def hand_text(mask: int) -> str:
    return " ".join(card_str(c) for c in sorted(cards_of(mask), key=lambda c: (c // 16, -c)))


def explain_run(cards, seat: int = 0, seed: int = 0, hands: int = 200_000, rules=None, heuristics=None):
    """(run, batch size): the odds run of ``explain``, its deals in ``BATCHES`` blocks of equal size."""
    size = batch_size(hands)
    return odds_run(cards, seat, seed, size * BATCHES, rules or BoulmousRules(), heuristics, size), size


def explain(hand, seat: int = 0, seed: int = 0, hands: int = 200_000, rules: BoulmousRules | None = None,
            heuristics=None, opts: RunOptions = RunOptions(), prepared=None) -> dict:
    """The odds of one hand with the paired margins of its best call and example deals (module docstring)."""
    rules = rules or BoulmousRules()
    cards = parse_hand(hand) if isinstance(hand, str) else list(hand)
    check_seat(seat)
    specs = no_pimc(SPEC.parse_seats(heuristics), "odds")
    run, size = prepared or explain_run(cards, seat, seed, hands, rules, specs)
    prefixes, keep = keeper()
    r = opts.execute(run, keep)       # as odds_hand executes it, keeping the running sums after each block
    calls, pas = _odds_tables(r.counts, seat, False, rules)
    call, val, pts, stakes = best_call(calls, pas)
    plain = {"calls": calls, "pass": pas, "n": r.n, "hand": " ".join(card_str(c) for c in cards),
             "best": pd.DataFrame([{"best_call": call, "exp_value": val, "exp_points": pts, "exp_stakes": stakes}])}
    ch = choices()
    w = weights(rules)
    means = batch_sums(prefixes).astype(np.float64) @ w / size
    rows = []
    calls = plain["calls"].set_index(["trump", "bid"])
    for j, (lab, t, b) in enumerate(ch):
        src = plain["pass"].iloc[0] if t < 0 else calls.loc[(TRUMP_NAMES[t], b)]
        m = means[:, j]
        half = float(margins(np.c_[m, np.zeros_like(m)], ["x", "0"], 0)["hi"].iloc[1] - m.mean())
        rows.append({"choice": lab, "exp_value": float(src.exp_points + src.exp_stakes), "value_ci": half,
                     "exp_points": float(src.exp_points), "points_ci": float(src.points_ci),
                     "exp_stakes": float(src.exp_stakes), "p_make": np.nan if t < 0 else float(src.p_make),
                     "n": int(src.n)})
    df = pd.DataFrame(rows)
    order = sorted(range(len(ch)), key=lambda j: (-df.exp_value.iloc[j], ch[j][2], j))
    mg = margins(means, [c[0] for c in ch], order[0], same_as_best(r.counts, w, SEGMENTS, order[0]))
    mg["n"] = plain["n"]
    examples = _examples(run.params, ch, order, min(plain["n"], EXAMPLES), rules)
    return {"table": df.iloc[order].reset_index(drop=True), "margins": mg.iloc[order].reset_index(drop=True),
            "examples": examples, "n": plain["n"], "batches": BATCHES, "size": size, "seat": seat,
            "hand": plain["hand"], "best": plain["best"], "means": means[:, order], "out": opts.out}


def _outcome(out, t, b, rules) -> str:
    v = deal_value(out, t, b, rules)
    if t < 0:
        return f"pass: {out['pass_points']:+d} points, {out['pass_stakes']:+d} stakes (value {v:+d})"
    k = out["tricks"][t]
    return f"{b} {TRUMP_NAMES[t]}: {'made' if k >= b else 'failed'}, {k} trick{'' if k == 1 else 's'} (value {v:+d})"


def _examples(params, ch, order, n, rules):
    """Up to ``SHOW`` deals where the best call wins (a bid made; passing: more than the runner-up call came to) and
    where it loses (a bid failed; passing: less), preferring deals where the runner-up came out otherwise."""
    (_, bt, bb), (_, st, sb) = ch[order[0]], ch[order[1]]
    outs = []
    for idx in range(n):
        out = one_deal(params, idx)
        v, v2 = deal_value(out, bt, bb, rules), deal_value(out, st, sb, rules)
        # a bid wins when made; passing wins when it comes to more than the runner-up call on the deal
        win = (out["tricks"][bt] >= bb) if bt >= 0 else (True if v > v2 else False if v < v2 else None)
        outs.append((win, v2 != v, idx, out))
    rows = []
    for kind, idx, out in pick_examples(outs):
        masks = dealt(params, idx)
        rows.append({"kind": kind, "deal": idx, "hands": [f"{SEATS[s]}{' (this hand)' if s == params['seat'] else ''}"
                                                          f": {hand_text(m)}" for s, m in enumerate(masks)],
                     "values": [deal_value(out, *ch[j][1:], rules) for j in order],
                     "outcomes": [_outcome(out, *ch[j][1:], rules) for j in order]})
    return rows


def render(res, top: int = 8) -> str:
    lines = [f"Why: Boulmous hand {res['hand']}, {SEATS[res['seat']]} (seat {res['seat']}). Every call on the same "
             f"{res['n']:,} random deals of the other 18 cards, cut into {res['batches']} batches of "
             f"{res['size']:,}: the margins are paired (the same deals), their 95% intervals by Student's t over the "
             "batches. A call's value is the deal's points plus stakes, as odds boulmous --hand (E[value] ± is its "
             "95% half-width over the batches)."]
    t, mg = res["table"], res["margins"]
    lines.append(show(pd.DataFrame({
        "call": t.choice, "E[value]": [pm(a, b, 2) for a, b in zip(t.exp_value, t.value_ci)],
        "best minus it": margin_cells(mg), "E[points]": [pm(a, b, 2) for a, b in zip(t.exp_points, t.points_ci)],
        "E[stakes]": [f"{x:+.2f}" for x in t.exp_stakes],
        "P(make)": ["" if np.isnan(p) else f"{100 * p:.1f}%" for p in t.p_make],
        "n": [f"{x:,}" for x in t.n]}).head(top)))
    if len(t) > top:
        lines.append(f"({len(t) - top} more calls, each further behind, in explain_calls.csv)")
    lines.append(verdict(mg) + ".")
    for ex in res["examples"]:
        how = ((" (made)" if ex["kind"] == "wins" else " (failed)") if t.choice.iloc[0] != "pass" else
               f" (against {t.choice.iloc[1]})")
        lines.append(f"\ndeal {ex['deal']} of this run: the best call {ex['kind']}{how}. The hands as dealt:")
        lines += [f"  {h}" for h in ex["hands"]]
        lines.append("What each call came to:" if len(ex["outcomes"]) <= top else
                     f"What the first {top} calls came to:")
        lines += [f"  {x}" for x in ex["outcomes"][:top]]
    if not res["examples"]:
        lines.append("\n(no example: the first deals of the run hold none where the best call wins or loses)")
    return "\n".join(lines)


def explain_command(hand: str, seat, hands, seed, heuristics, rules, opts: RunOptions = RunOptions()):
    """``tricksim odds boulmous --hand ... --explain``: runs into the run folder, yields the text to print."""
    cards = parse_hand(hand)
    seat = check_seat(0 if seat is None else seat)
    specs = no_pimc(SPEC.parse_seats(heuristics), "odds")
    prepared = explain_run(cards, seat, seed, hands or 200_000, rules, specs)
    opts = with_folder(opts, KEY, "odds_explain", prepared[0])
    res = explain(cards, seat, seed, hands or 200_000, rules, specs, opts, prepared)
    write_table(res["table"], opts.out, "explain_calls")
    write_table(res["margins"], opts.out, "explain_margins")
    yield render(res)
    yield f"\nresults in {opts.out}"
