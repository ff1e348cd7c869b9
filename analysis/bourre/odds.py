"""Bourre odds of one hand before the draw: every choice (pass, play with 0..limit discards, and the
heuristic's own choice) played on the same random deals of the unseen cards (block function
``bourre.odds``)."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ...kernels import bourre as K
from ...kernels.cards import card_str, cards_of, mask_of
from .. import engine
from ..common import TricksimError, make_params, parse_card
from ..engine import RunOptions
from ..output import plain_table, pm
from ..stats import hist_mean_ci, wilson
from .bins import _pct
from .config import ODDS_BLOCK, BourreRules, _dynamic, discard_limit, has_pimc, parse_hand, pimc_arg
from .ev import run_ev_tables
from .spec import SPEC

CATS = ["passed", "won", "lone win", "tied", "lost with tricks", "bourre"]


def keep_order(cards, trump: int):
    """Cards from the first to discard to the last (the heuristic's ranking: other cards
    by rank, then kings, aces, then trumps by rank)."""
    def value(c):
        s, r = divmod(c, 16)
        if s == trump:
            return 300 + r
        if r == 12:
            return 200
        if r == 11:
            return 100
        return r
    return sorted(cards, key=lambda c: (value(c), c))


def odds_choices(cards, trump, limit, is_dealer, ace_up):
    """[(label, mode, discard mask)]: the heuristic's own choice, pass, play with 0..limit discards."""
    order = keep_order(cards, trump)
    ch = [("heuristic's own choice", -1, 0)]
    if not (is_dealer and ace_up):
        ch.append(("pass", 0, 0))
    for k in range(limit + 1):
        disc = order[:k]
        lab = "play, keep all" if k == 0 else f"play, discard {k}: {' '.join(card_str(c) for c in disc)}"
        ch.append((lab, 1, mask_of(disc)))
    return ch


def block_odds(params, first, n):
    kd, kc, ra, codes, prm = SPEC.kernel_args(params)
    cm = np.array([c[1] for c in params["choices"]], np.int64)
    cdm = np.array([c[2] for c in params["choices"]], np.uint64)
    return _dynamic(K.sim_odds, kd, kc, first, n, params["players"], params["seat"], np.uint64(params["hand_mask"]),
                    params["upcard"], params["pot"], cm, cdm, ra, codes, prm, run_ev_tables(params),
                    *pimc_arg(SPEC.specs_from_json(params["heuristics"])))


def _cell_value(cat, npl, nt, rules: BourreRules, players, pot0):
    ante = rules.ante
    P = pot0 + players * ante + (npl * ante if rules.double_ante else 0)
    take = P if rules.pot_limit is None else min(P, rules.pot_limit)
    a2 = ante if (rules.double_ante and cat != 0) else 0
    if cat == 0:
        return 0
    if cat in (1, 2):
        return take - a2
    if cat == 3:
        return (take // nt if rules.tie == "divide_equally" else 0) - a2
    if cat == 4:
        return -a2
    pen = take if rules.penalty_chips < 0 else rules.penalty_chips
    return -pen - a2


def odds_table(counts, choices, rules, players, pot0):
    rows = []
    for ci, (label, mode, dm) in enumerate(choices):
        blk = np.asarray(K.ODDS_CHOICE.nth(counts, ci))
        cells = K.ODDS_CHOICE.field(blk, "cells")
        n = int(cells.sum())
        vals, cnts = [], []
        for cat in range(K.ODDS_CATS):
            for npl in range(9):
                for nt in range(9):
                    c = int(cells[cat, npl, nt])
                    if c:
                        vals.append(_cell_value(cat, npl, nt, rules, players, pot0))
                        cnts.append(c)
        total = sum(v * c for v, c in zip(vals, cnts))
        chips = K.ODDS_CHOICE.value(blk, "chips")
        if total != chips:
            raise RuntimeError(f"odds: settlement mismatch for {label!r} ({total} != {chips})")
        m, half, _ = hist_mean_ci(np.array(vals, float), np.array(cnts, float)) if n else (math.nan, math.nan, 0)
        bycat = cells.sum(axis=(1, 2))
        row = {"choice": label, "mode": mode, "discard": " ".join(card_str(c) for c in sorted(cards_of(dm))), "n": n}
        for name, k in (("win", None), ("tie", 3), ("bourre", 5), ("play", None)):
            if name == "win":
                x = int(bycat[1] + bycat[2])
            elif name == "play":
                x = n - int(bycat[0])
            else:
                x = int(bycat[k])
            p, lo, hi = wilson(x, n)
            row[f"p_{name}"] = float(p)
            row[f"{name}_lo"] = float(lo)
            row[f"{name}_hi"] = float(hi)
        row["exp_chips"] = m
        row["chips_ci"] = half
        rows.append(row)
    return pd.DataFrame(rows)


def validate_odds(cards, up, players, seat, pot, rules):
    """The odds study's input checks (one clear line each)."""
    if len(cards) != 5:
        raise TricksimError(f"a Bourre hand must have 5 cards, got {len(cards)}")
    if len(set(cards)) != 5:
        raise TricksimError("duplicate card in Bourre hand")
    if seat is None or not 0 <= seat < players:
        raise TricksimError(f"the seat must be 0..{players - 1} (0 = dealer's left, {players - 1} = dealer), got {seat}")
    if pot is None or pot < 0:
        raise TricksimError(f"the pot must be at least 0 chips, got {pot}")
    is_dealer = seat == players - 1
    if rules.trump_card == "dealer_fifth":
        if is_dealer and up not in cards:
            raise TricksimError(f"the up-card {card_str(up)} is the dealer's fifth card: the dealer's hand must contain it")
        if not is_dealer and up in cards:
            raise TricksimError(f"the up-card {card_str(up)} is in the dealer's hand; it cannot be in the hand of "
                                f"seat {seat}, who is not the dealer")
    elif up in cards:
        raise TricksimError(f"with trump_card = separate_turnup the up-card {card_str(up)} belongs to no one; "
                            "it cannot be in the hand")


def odds_run(cards, up, players: int = 7, seat: int = 0, pot: int = 0, seed: int = 0, hands: int = 100_000,
             rules=None, heuristics=None, block_size: int = ODDS_BLOCK):
    """The run of ``odds_hand`` and its choices: what names its folder and what it executes."""
    rules = rules or BourreRules()
    players = SPEC.check_players(players)
    validate_odds(cards, up, players, seat, pot, rules)
    if hands < 1:
        raise TricksimError(f"the number of deals must be at least 1, got {hands}")
    ace_up = rules.trump_card == "dealer_fifth" and up % 16 == 12
    choices = odds_choices(cards, up // 16, discard_limit(rules, players), seat == players - 1, ace_up)
    specs = SPEC.parse_seats(heuristics, players)
    has_pimc(specs)                     # refuses a non-integer worlds
    params = make_params(seed, rules, specs, players=players, seat=seat,
                         hand_mask=mask_of(cards), upcard=up, pot=pot, choices=[list(c) for c in choices])
    return engine.Run("bourre.odds", params, hands, block_size, unit="hands"), choices


def odds_hand(hand, upcard, players: int = 7, seat: int = 0, pot: int = 0, seed: int = 0, hands: int = 100_000,
              rules=None, heuristics=None, opts: RunOptions = RunOptions(), until_precision: float | None = None,
              block_size: int = ODDS_BLOCK, prepared=None):
    """Chances of one hand before the draw. ``seat`` = position from the dealer's left
    (0 = first to speak, players-1 = the dealer); ``pot`` = chips carried over before
    this deal's antes (everyone antes).  Every choice (pass, play with 0..limit discards,
    and the heuristic's own choice) is played on the same random deals of the unseen
    cards.  Returns {'choices': DataFrame, 'best': ..., 'n', ...}."""
    rules = rules or BourreRules()
    players = SPEC.check_players(players)
    cards = parse_hand(hand) if isinstance(hand, str) else list(hand)
    up = parse_card(upcard) if isinstance(upcard, str) else int(upcard)
    specs = SPEC.parse_seats(heuristics, players)
    run, choices = prepared or odds_run(cards, up, players, seat, pot, seed, hands, rules, specs, block_size)
    stop = None
    if until_precision:
        if until_precision <= 0:
            raise TricksimError(f"the precision must be a positive half-width, got {until_precision}")

        def stop(acc, n):
            df = odds_table(acc, choices, rules, players, pot)
            hw = pd.concat([(df[f"{x}_hi"] - df[f"{x}_lo"]) / 2 for x in ("win", "tie", "bourre")])
            return bool(hw.max() <= until_precision)
    r = opts.execute(run, stop)
    df = odds_table(r.counts, choices, rules, players, pot)
    cand = df[df["mode"] >= 0]
    best = cand.sort_values(["exp_chips", "mode"], ascending=[False, True]).iloc[0]
    return {"choices": df, "best": best, "n": r.n, "seconds": r.seconds, "hand": " ".join(card_str(c) for c in cards),
            "upcard": card_str(up), "players": players, "seat": seat, "pot": pot, "rules": rules, "specs": specs,
            "stake": pot + players * rules.ante}


def seat_words(seat: int, players: int) -> str:
    """Where ``--seat`` sits, in words a player cannot misread (seats speak in turn from the dealer's left)."""
    n = seat + 1
    nth = f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"
    turn = "the dealer, the last to speak" if seat == players - 1 else f"the {nth} to speak"
    return f"seat {seat} ({turn}; seat 0 is the dealer's left)"


def render_odds(res) -> str:
    df = res["choices"]
    pos = seat_words(res["seat"], res["players"])
    lines = [f"Bourre hand {res['hand']}, up-card {res['upcard']}, {res['players']} players, {pos}; "
             f"pot {res['stake']:,} chips after the antes ({res['pot']:,} carried over). "
             f"{res['n']:,} random deals of the unseen cards, every choice played on the same deals."]
    tab = pd.DataFrame({"choice": df.choice,
                        "P(win pot)": [_pct(a, b, c) for a, b, c in zip(df.p_win, df.win_lo, df.win_hi)],
                        "P(tie)": [_pct(a, b, c) for a, b, c in zip(df.p_tie, df.tie_lo, df.tie_hi)],
                        "P(bourre)": [_pct(a, b, c) for a, b, c in zip(df.p_bourre, df.bourre_lo, df.bourre_hi)],
                        "P(plays)": [_pct(a) for a in df.p_play],
                        "E[chips]": [pm(a, b, 2) for a, b in zip(df.exp_chips, df.chips_ci)],
                        "n": df.n.map(lambda x: f"{x:,}")})
    lines.append(plain_table(tab))
    b = res["best"]
    lines.append(f"best decision: {b.choice} (expected chips {b.exp_chips:+.2f} ± {b.chips_ci:.2f})")
    lines.append("E[chips] counts this deal from the decision on: the pot taken, minus any second ante and bourre "
                 "payment (the first ante is already in the pot). A tie's carried-over pot and ante exemption are "
                 "not valued. Pass = 0.")
    return "\n".join(lines)
