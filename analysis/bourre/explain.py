"""``tricksim odds bourre --hand ... --explain`` (issue 27 item 3): why one decision before the draw.

Every choice (pass, play keeping all, play changing the 1 .. limit weakest cards) is played on the same random
deals, as ``odds_hand`` plays them (the same run: its table is the plain odds' on the same deals).  The run's
deals are cut into ``BATCHES`` engine blocks of equal size; each block's per-choice mean chips come from the engine's
block-ordered running sums, so the margin of the best choice over every other is a paired difference per batch,
with a 95% interval by Student's t over the batches (batch means of the same deals: valid whatever the dependence
between the choices on one deal).  Then a few of the run's own deals (its first ``EXAMPLES`` deals, each replayed
alone by the same block function, so exactly as in the run) where the best choice wins the pot and where it loses,
with every other hand of the deal as dealt and what each choice came to.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...kernels import bourre as K
from ...kernels.bourre import odds as KO
from ...kernels.cards import card_str, cards_of, mask_of
from ..common import parse_card
from ..engine import RunOptions
from ..explain import BATCHES, EXAMPLES, SHOW, batch_size, batch_sums, keeper, margin_cells, margins, verdict
from ..output import pm, show, with_folder, write_table
from .config import KEY, BourreRules, parse_hand
from .odds import CATS, block_odds, odds_run, odds_table
from .spec import SPEC


def batch_means(prefixes, sizes, nc: int) -> np.ndarray:
    """float64[batches, choices]: each batch's mean chips per choice, from the running sums after each block."""
    sums = batch_sums(prefixes)
    chips = sums.reshape(len(sums), nc, K.ODDS_STRIDE)[:, :, K.OC_CHIPS].astype(np.float64)
    return chips / np.asarray(sizes, np.float64)[:, None]


def same_as_best(counts, nc: int, cand, best: int) -> list[bool]:
    """Per candidate: identical to the best on every deal?  Only when provable from the counts: every deal of both
    came out in the same single outcome cell (category, players in, tricks) with the same chips in total, and so
    the same chips on every deal (a deal's chips are a function of its cell at a fixed pot)."""
    c = np.asarray(counts).reshape(nc, K.ODDS_STRIDE)

    def one_cell(i):
        hit = np.flatnonzero(c[i, :K.ODDS_CELLS])
        return int(hit[0]) if len(hit) == 1 else None
    b = cand[best]
    return [j != best and one_cell(cand[j]) is not None and one_cell(cand[j]) == one_cell(b)
            and c[cand[j], K.ODDS_CELLS] == c[b, K.ODDS_CELLS] for j in range(len(cand))]


def one_deal(params, idx: int, nc: int):
    """Deal ``idx`` of the run replayed alone: per choice (category, chips)."""
    c = np.asarray(block_odds(params, idx, 1)).reshape(nc, K.ODDS_STRIDE)
    cells = [K.ODDS_CHOICE.field(r, "cells") for r in c]      # [category, players, tied]: one deal's only cell
    return [(int(np.unravel_index(np.argmax(x), x.shape)[0]), K.ODDS_CHOICE.value(r, "chips")) for x, r in zip(cells, c)]


def dealt(params, idx: int, rules: BourreRules) -> list:
    """The hands of deal ``idx`` as dealt (before the draw): uint64 masks per seat."""
    kd, _ = SPEC.keys(params["seed"])
    h0 = np.zeros(K.MAXP, np.uint64)
    KO.deal_around(np.zeros(1, np.uint64), kd, np.int64(idx), np.int64(params["players"]),
                   np.int64(params["players"] - 1), np.int64(params["seat"]), np.uint64(params["hand_mask"]),
                   np.int64(params["upcard"]), rules.trump_card == "separate_turnup", h0, np.zeros(52, np.int64),
                   np.zeros(K.IW_LEN, np.int64))
    return [int(x) for x in h0[:params["players"]]]


def _seat_name(s: int, players: int) -> str:
    return "dealer" if s == players - 1 else f"seat {s}"


def explain_run(cards, up, players: int = 7, seat: int = 0, pot: int = 0, seed: int = 0, hands: int = 100_000,
                rules: BourreRules | None = None, heuristics=None):
    """(run, choices, batch size): the odds run of ``explain``, its deals in ``BATCHES`` blocks of equal size."""
    size = batch_size(hands)
    run, choices = odds_run(cards, up, players, seat, pot, seed, size * BATCHES, rules or BourreRules(), heuristics,
                            size)
    return run, choices, size


def explain(hand, upcard, players: int = 7, seat: int = 0, pot: int = 0, seed: int = 0, hands: int = 100_000,
            rules: BourreRules | None = None, heuristics=None, opts: RunOptions = RunOptions(), prepared=None) -> dict:
    """The odds of one hand with the paired margins of its best choice and example deals (module docstring)."""
    rules = rules or BourreRules()
    run, choices, size = prepared or explain_run(hand, upcard, players, seat, pot, seed, hands, rules, heuristics)
    prefixes, keep = keeper()
    r = opts.execute(run, keep)
    df = odds_table(r.counts, choices, rules, players, pot)
    cand = [i for i, c in enumerate(choices) if c[1] >= 0]
    means = batch_means(prefixes, [size] * BATCHES, len(choices))[:, cand]
    labels = [choices[i][0] for i in cand]
    order = sorted(range(len(cand)), key=lambda j: (-df.exp_chips.iloc[cand[j]], cand[j]))
    mg = margins(means, labels, order[0], same_as_best(r.counts, len(choices), cand, order[0]))
    mg["n"] = r.n
    mg = mg.iloc[order].reset_index(drop=True)
    examples = _examples(run.params, choices, cand, order, min(r.n, EXAMPLES), rules)
    return {"table": df.iloc[[cand[j] for j in order]].reset_index(drop=True), "margins": mg, "examples": examples,
            "n": r.n, "batches": BATCHES, "size": size, "players": players, "seat": seat, "rules": rules,
            "hand": " ".join(card_str(c) for c in hand), "upcard": card_str(upcard), "out": r.out}


def _examples(params, choices, cand, order, n, rules):
    """Up to ``SHOW`` deals where the best choice wins the pot and ``SHOW`` where it loses (bourre first), among
    the run's first ``n`` deals, preferring deals where the runner-up came out otherwise."""
    best, second = cand[order[0]], cand[order[1]] if len(order) > 1 else cand[order[0]]
    wins, losses = [], []
    for idx in range(n):
        out = one_deal(params, idx, len(choices))
        cat, chips = out[best]
        differs = out[second][1] != chips
        if cat in (1, 2):
            wins.append((not differs, idx, out))
        elif cat in (4, 5):
            losses.append((cat != 5, not differs, idx, out))
    picked = [("wins", x[1], x[2]) for x in sorted(wins)[:SHOW]] + [("loses", x[2], x[3]) for x in sorted(losses)[:SHOW]]
    rows = []
    for kind, idx, out in picked:
        masks = dealt(params, idx, rules)
        others = [f"{_seat_name(s, params['players'])}: {' '.join(card_str(c) for c in sorted(cards_of(m), key=lambda c: (c // 16, -c)))}"
                  for s, m in enumerate(masks) if s != params["seat"]]
        what = [f"{choices[i][0]}: {CATS[out[i][0]]} ({out[i][1]:+d} chips)" for i in [cand[j] for j in order]]
        rows.append({"kind": kind, "deal": idx, "others": others, "outcomes": what})
    return rows


def render(res) -> str:
    pos = "the dealer" if res["seat"] == res["players"] - 1 else f"position {res['seat']} from the dealer's left"
    mg = res["margins"]
    lines = [f"Why: Bourre hand {res['hand']}, up-card {res['upcard']}, {res['players']} players, {pos}. Every "
             f"choice on the same {res['n']:,} random deals, cut into {res['batches']} batches of {res['size']:,}: "
             "the margins are paired (the same deals), their 95% intervals by Student's t over the batches."]
    t = res["table"]
    lines.append(show(pd.DataFrame({
        "choice": t.choice, "E[chips]": [pm(a, b, 2) for a, b in zip(t.exp_chips, t.chips_ci)],
        "best minus it": margin_cells(mg),
        "P(win pot)": [f"{100 * p:.1f}%" for p in t.p_win], "P(bourre)": [f"{100 * p:.1f}%" for p in t.p_bourre],
        "n": [f"{x:,}" for x in t.n]})))
    lines.append(verdict(mg) + ". E[chips] counts this deal from the decision on (pass = 0), as odds bourre --hand.")
    for ex in res["examples"]:
        lines.append(f"\ndeal {ex['deal']} of this run: the best choice {ex['kind']}. The others were dealt "
                     f"{'; '.join(ex['others'])}. What each choice came to:")
        lines += [f"  {x}" for x in ex["outcomes"]]
    if not res["examples"]:
        lines.append("\n(no example: the first deals of the run hold none where the best choice wins or loses)")
    return "\n".join(lines)


def explain_command(hand: str, up_card: str, players, seat, pot, hands, seed, heuristics, rules,
                    opts: RunOptions = RunOptions()):
    """``tricksim odds bourre --hand ... --explain``: runs into the run folder, yields the text to print."""
    cards, up = parse_hand(hand), parse_card(up_card)
    specs = SPEC.parse_seats(heuristics, SPEC.check_players(players))
    prepared = explain_run(cards, up, players, seat, pot, seed, hands or 100_000, rules, specs)
    opts = with_folder(opts, KEY, "odds_explain", prepared[0])
    res = explain(cards, up, players, seat, pot, seed, hands or 100_000, rules, specs, opts, prepared)
    write_table(res["table"], opts.out, "explain_choices")
    write_table(res["margins"], opts.out, "explain_margins")
    yield render(res)
    yield f"\nresults in {opts.out}"
