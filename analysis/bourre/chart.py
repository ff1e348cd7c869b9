"""Bourre's strategy chart (``tricksim chart bourre``, issue 27): play or pass, and how many cards to draw, by
hand class, seat, table size and up-card, measured with the odds kernels of one hand (``odds bourre --hand``).

**A cell** is a hand class (``row_of``: trumps held and the highest, side aces and kings) in one situation: a
table of ``players``, a seat group (``SEATS``: first to declare, middle, last before the dealer, the dealer)
and the up-card's rank (``UPS``).  Its hands are the first ``hands`` hands of its class in a seeded pool of
random hands with an up-card of that rank (``pool``: one pool per up-card group and per holder of the up-card,
keyed by the run's seed alone, so a class has the same hands at every table size and in every non-dealer seat).
Each hand is evaluated as ``odds bourre --hand`` evaluates it: pass, and play changing 0 .. the rules' limit
cards (the weakest first: ``odds.keep_order``), every action on the same ``deals`` random deals of the unseen
cards, with the seed ``hand_seed(seed, cell, k)`` (so ``odds_hand(..., seed=hand_seed(...), hands=deals)``
gives the same numbers).  Under ``play = pimc`` the seat plays its cards as the sampling player (the decisions
and the draw are the action's), as ``odds bourre --hand ... --play heuristic,pimc`` does; the heuristics' values
on the same deals come beside.

**Values** are the chips of the deal from the decision on (``odds.odds_table``'s E[chips]: the pot taken, less
any second ante and bourre payment; pass = 0) over the pot after the antes (``players`` x ante, no pot carried
over): +1 is winning the pot alone, -1 paying a bourre of the pot.
"""
from __future__ import annotations

import hashlib
import json
from collections import Counter

import numpy as np

from ...kernels import bourre as K
from ...kernels.bourre import odds_play as O
from ...kernels.cards import card_str, mask_of
from ...kernels.layout import Layout
from .. import engine
from ..common import TricksimError, check_seed, make_params, spec_json
from ..engine import RunOptions
from ..game import CHART_MIN_HANDS, Chart, ChartCell, ChartData, chart_sizes
from ..play_kinds import chart_play
from .config import BourreRules, _dynamic, discard_limit, pimc_arg
from .ev import ev_tables
from .odds import keep_order, odds_choices
from .play import pimc_spec
from .spec import SPEC

SEATS = ("first", "middle", "last", "dealer")
"""The seat groups: first to declare (the dealer's left), the seats between, the last before the dealer, the dealer."""
UPS = (("2-9", tuple(range(0, 8))), ("10-K", tuple(range(8, 12))), ("A", (12,)))
"""The up-card's rank groups (ranks 0..12 = 2..A); an Ace turned up obliges the dealer to play (rule 4)."""
PLAYERS = (4, 5, 7)
POOL = 1 << 16          # random hands per pool (a class rarer than ~1 in 5,000 has fewer hands than asked)
FULL = (24, 2048)       # hands per cell, deals per hand
QUICK = (4, 512)
PIMC_FULL = (3, 64)     # the sampling player: about 2 s a cell at 4 players on 2 cores (10 minutes a table size)
PIMC_QUICK = (3, 16)
# ``block_chart``'s vector, per hand and action: the deals, the chips of the chart's player, the chips of the
# heuristics on the same deals (with --play pimc; else the same chips again)
ACTION = Layout(("deals", 1), ("chips", 1), ("beside", 1))
A_DEALS, A_CHIPS, A_BESIDE = ACTION.offsets()


def _side(side: int, cap: int) -> str:
    if side == 0:
        return "no side A/K"
    return f"{min(side, cap)}{'+' if side >= cap else ''} side A/K"


def row_of(trumps: int, top: int, side: int) -> str:
    """The chart's row (hand class) of a hand with ``trumps`` trumps, the highest of rank ``top`` (0..12 for 2..A,
    -1 without trumps) and ``side`` aces and kings of other suits.  Three trumps count side A/K as none or some;
    four or five only whether they hold the trump Ace."""
    if trumps == 0:
        return f"no trump, {_side(side, 2)}"
    if trumps >= 4:
        return f"4-5 trumps, {'with the A' if top == 12 else 'no A'}"
    t = "A" if top == 12 else "K/Q" if top >= 10 else "J or lower"
    if trumps == 3:
        return f"3 trumps ({t}), {_side(side, 1)}"
    return f"{trumps} trump{'s' if trumps > 1 else ''} ({t}), {_side(side, 2)}"


ROWS = list(dict.fromkeys(row_of(t, top, s) for t in range(6) for top in ((-1,) if t == 0 else (9, 11, 12))
                          for s in range(5)))
"""Every row, from the weakest class to the strongest."""
_LUT = np.array([[[ROWS.index(row_of(t, top - 1, s)) if (t == 0) == (top == 0) else -1 for s in range(6)]
                  for top in range(14)] for t in range(6)], np.int64)


def classify(cards, trump: int) -> str:
    """The row of a hand (kernel card ids) with trumps ``trump``."""
    tr = [c % 16 for c in cards if c // 16 == trump]
    side = sum(1 for c in cards if c // 16 != trump and c % 16 >= 11)
    return row_of(len(tr), max(tr, default=-1), side)


def _seed_of(*key) -> int:
    """A 63-bit seed of a key (the run's seed and a cell's coordinates)."""
    return int.from_bytes(hashlib.sha256(json.dumps(key).encode()).digest()[:8], "little") >> 1


def hand_seed(seed: int, players: int, seat: str, up: str, row: str, k: int) -> int:
    """The seed of the deals of hand ``k`` of a cell (``odds_hand(..., seed=hand_seed(...))`` deals the same)."""
    return _seed_of("bourre-chart-deals", seed, players, seat, up, row, k)


_POOLS: dict = {}


def pool(seed: int, holder: bool, up: int):
    """The seeded random hands of up-card group ``up`` (an index of ``UPS``): (hands int64[POOL, 5] as kernel card
    ids, up-cards int64[POOL], rows int64[POOL] as indices of ``ROWS``).  ``holder``: the hand holds the up-card
    (the dealer under trump_card = dealer_fifth), else the up-card is out of the hand."""
    key = (seed, holder, up)
    if key not in _POOLS:
        rng = np.random.default_rng(_seed_of("bourre-chart-hands", seed, holder, up))
        ur = rng.choice(np.array(UPS[up][1]), POOL)
        us = rng.integers(0, 4, POOL)
        u52 = us * 13 + ur
        keys = rng.random((POOL, 52))
        keys[np.arange(POOL), u52] = 2.0
        k = 4 if holder else 5
        pick = np.sort(np.argpartition(keys, k, axis=1)[:, :k], axis=1)
        h52 = np.concatenate([u52[:, None], pick], axis=1) if holder else pick
        suit, rank = h52 // 13, h52 % 13
        is_t = suit == us[:, None]
        top = np.where(is_t, rank, -1).max(axis=1)
        side = (~is_t & (rank >= 11)).sum(axis=1)
        _POOLS[key] = (suit * 16 + rank, us * 16 + ur, _LUT[is_t.sum(axis=1), top + 1, side])
    return _POOLS[key]


def seat_of(group: str, players: int, k: int) -> int:
    """The seat of hand ``k`` of a seat group (the middle group takes its seats in turn)."""
    return {"first": 0, "last": players - 2, "dealer": players - 1}.get(group, 1 + k % max(1, players - 3))


def actions(limit: int) -> list:
    return ["pass"] + [f"draw {k}" for k in range(limit + 1)]


def kept_words(cards, trump: int, k: int) -> str:
    """What a hand keeps when it changes its ``k`` weakest cards, in words (``2 trumps + A``)."""
    kept = keep_order(cards, trump)[k:]
    t = sum(1 for c in kept if c // 16 == trump)
    aces = sum(1 for c in kept if c // 16 != trump and c % 16 == 12)
    kings = sum(1 for c in kept if c // 16 != trump and c % 16 == 11)
    low = len(kept) - t - aces - kings
    parts = ([f"{t} trump{'s' if t > 1 else ''}"] if t else []) + ["A"] * aces + ["K"] * kings
    parts += [f"{low} low"] if low else []
    return " + ".join(parts) if parts else "nothing"


def _choices(cards, up, players, seat, rules):
    ace_up = rules.trump_card == "dealer_fifth" and up % 16 == 12
    return [c for c in odds_choices(cards, up // 16, discard_limit(rules, players), seat == players - 1, ace_up)
            if c[1] >= 0]


def block_chart(params, first, n):
    """Deals ``first .. first+n-1`` of the chart's run: hand ``first // deals`` of ``params['hands']`` on its own
    deals (its seed), every action; int64[hands * actions * ACTION.size]: per hand and action the fields of
    ``ACTION`` (deals, chips of the chart's player, chips of the heuristics) in the hand's slot."""
    d, players = params["deals"], params["players"]
    h = first // d
    if (first + n - 1) // d != h:
        raise RuntimeError("bourre.chart: a block spans two hands")
    seat, mask, up, hseed = params["hands"][h]
    cards = [c for c in range(64) if mask >> c & 1]
    rules = SPEC.rules_of(params)
    choices = _choices(cards, up, players, seat, rules)
    kd, kc = SPEC.keys(hseed)
    ra = SPEC.rules_array(rules)
    specs = SPEC.specs_from_json(params["heuristics"])
    codes, prm = SPEC.heuristic_arrays(specs)
    cm = np.array([c[1] for c in choices], np.int64)
    cdm = np.array([c[2] for c in choices], np.uint64)
    na = discard_limit(rules, players) + 2
    out = np.zeros(len(params["hands"]) * na * ACTION.size, np.int64)
    args = (kd, kc, first - h * d, n, players, seat, np.uint64(mask), up, 0, cm, cdm, ra, codes, prm,
            ev_tables(specs, rules, players))
    if params["play"] == "heuristic":
        c = _dynamic(K.sim_odds, *args, *pimc_arg(specs))
    else:
        specs[seat] = SPEC.specs_from_json([params["pimc"]])[0]
        pc, pp = SPEC.heuristic_arrays(specs)
        c = _dynamic(O.sim_odds_play, *args, None, pc, pp, True, *pimc_arg(SPEC.specs_from_json(params["heuristics"])))
    for ci, (_, mode, dm) in enumerate(choices):
        a = 0 if mode == 0 else 1 + bin(dm).count("1")
        b = (h * na + a) * ACTION.size
        if params["play"] == "heuristic":
            blk = K.ODDS_CHOICE.nth(c, ci)
            chips = K.ODDS_CHOICE.value(blk, "chips")
            played, beside = K.ODDS_CHOICE.field(blk, "cells").sum(), chips
        else:
            pm = O.PIMC_CHOICE.nth(c, ci, base=len(choices) * O.PLAY_STRIDE)
            played, chips = O.PIMC_CHOICE.field(pm, "cells").sum(), O.PIMC_CHOICE.value(pm, "chips")
            beside = O.PLAY_CHOICE.value(O.PLAY_CHOICE.nth(c, ci), "chips")
        out[b + A_DEALS], out[b + A_CHIPS], out[b + A_BESIDE] = played, chips, beside
    return out


def sizes(quick: bool, play: str = "heuristic") -> tuple:
    if str(play).split(":")[0].strip().lower() == "pimc":
        return PIMC_QUICK if quick else PIMC_FULL
    return QUICK if quick else FULL


def cell_hands(seed: int, players: int, seat: str, up: int, row: str, hands: int, rules: BourreRules):
    """The cell's hands: [(cards, up-card, seat, deal seed)], at most ``hands`` (fewer when the class is rare)."""
    holder = seat == "dealer" and rules.trump_card == "dealer_fifth"
    ph, pu, pr = pool(seed, holder, up)
    idx = np.flatnonzero(pr == ROWS.index(row))[:hands]
    return [([int(c) for c in ph[i]], int(pu[i]), seat_of(seat, players, k),
             hand_seed(seed, players, seat, UPS[up][0], row, k)) for k, i in enumerate(idx)]


def _check(players, play, rules):
    for p in players:
        SPEC.check_players(p)
        if p < 4:
            raise TricksimError(f"a Bourre chart needs at least 4 players (its seats: first, middle, last, dealer), "
                                f"got {p}")
    if len(set(players)) != len(players):
        raise TricksimError(f"--players lists a table size twice: {','.join(map(str, players))}")
    if rules.ante < 1:
        raise TricksimError("a Bourre chart counts chips per pot: the rule ante must be at least 1")
    kind = chart_play(play)
    return kind


def measure(seed: int = 0, hands: int | None = None, deals: int | None = None, play: str = "heuristic",
            rules: BourreRules | None = None, opts: RunOptions = RunOptions(), log=None,
            players=PLAYERS, only=None) -> ChartData:
    """The chart's cells (``Chart.measure``): every class, seat group and up-card group at each table size
    (``only``: just the cells whose (seat group, up-card group, row) it holds)."""
    rules = rules or BourreRules()
    seed = check_seed(seed)
    players = [int(p) for p in players]
    kind = _check(players, play, rules)
    hands, deals = chart_sizes(hands, deals, FULL)
    extra = {"pimc": spec_json([pimc_spec(play)])[0]} if kind == "pimc" else {}
    who = (f"the sampling player ({SPEC.specs_from_json([extra['pimc']])[0].label}) playing the seat's cards, the "
           "heuristics (basic) in the other seats" if kind == "pimc" else "the heuristics (basic) in every seat")
    cells = []
    for p in players:
        limit = discard_limit(rules, p)
        names = actions(limit)
        specs = SPEC.parse_seats(None, p)
        for seat in SEATS:
            for u, (up_name, _) in enumerate(UPS):
                for row in ROWS:
                    if only is not None and (seat, up_name, row) not in only:
                        continue
                    hs = cell_hands(seed, p, seat, u, row, hands, rules)
                    if len(hs) < CHART_MIN_HANDS:
                        continue
                    cells.append(_measure_cell(hs, p, seat, up_name, row, names, kind, extra, deals, rules, specs,
                                               seed, opts))
        if log:
            log(f"bourre chart, {p} players: {sum(c.key['players'] == p for c in cells)} cells measured")
    all_actions = actions(max(discard_limit(rules, p) for p in players))
    for c in cells:                     # a table whose limit is lower: its missing actions are nan
        if c.values.shape[1] < len(all_actions):
            pad = np.full((c.values.shape[0], len(all_actions) - c.values.shape[1]), np.nan)
            c.values = np.hstack([c.values, pad])
            c.beside = None if c.beside is None else np.hstack([c.beside, pad])
    cmd = (f"tricksim chart bourre --players {','.join(map(str, players))} --hands {hands} --deals {deals} "
           f"--seed {seed}" + (f" --play {play}" if kind != "heuristic" else ""))
    return ChartData(
        title="Bourre: play or pass, and how many cards to draw", player=who, unit="pots",
        actions=all_actions, panels=[f"{p} players" for p in players],
        rows=[r for r in ROWS if any(c.row == r for c in cells)],
        cols=[f"{s} | up {u}" for s in SEATS for u, _ in UPS], cells=cells, command=cmd, name="bourre",
        beside_name="the heuristics (basic)" if kind == "pimc" else "",
        notes=["Rows: the hand's trumps (the suit of the up-card) and the highest of them; side A/K = aces and kings "
               "of the other suits.",
               "Columns: the seat (first = the dealer's left, first to declare; middle; last = the last before the "
               "dealer; the dealer) and the rank of the dealer's up-card"
               + (" (the dealer's fifth card: in the dealer's row it is one of his trumps)."
                  if rules.trump_card == "dealer_fifth" else " (turned up after the deal; nobody's card)."),
               "draw k = play and change k cards, the weakest first: low side cards, then side kings, side aces, "
               "then trumps from the lowest; draw 0 = play the five cards dealt.",
               f"Values: the chips of the deal from the decision on, per chip in the pot after the antes (players x "
               f"{rules.ante}, nothing carried over): +1 = the pot won alone, -1 = a bourre of the pot paid; pass = 0.",
               "An Ace turned up obliges the dealer to play: that column has no pass." if rules.trump_card ==
               "dealer_fifth" else "The dealer may pass like anyone (the turned-up card is nobody's)."])


def _measure_cell(hs, players, seat, up_name, row, names, kind, extra, deals, rules, specs, seed, opts):
    rows = [[s, mask_of(c), up, hseed] for c, up, s, hseed in hs]
    params = make_params(seed, rules, specs, players=players, play=kind, deals=deals, hands=rows, **extra)
    r = opts.at(None).execute(engine.Run("bourre.chart", params, len(hs) * deals, deals, unit="deals"))
    v = np.asarray(r.counts, np.float64).reshape(len(hs), len(names), ACTION.size)
    played, chips, other = v[..., A_DEALS], v[..., A_CHIPS], v[..., A_BESIDE]
    pot = players * rules.ante
    with np.errstate(invalid="ignore", divide="ignore"):
        values = np.where(played > 0, chips / played / pot, np.nan)
        beside = np.where(played > 0, other / played / pot, np.nan)
    keep = {a: Counter(kept_words(c, up // 16, int(a.split()[1])) for c, up, _, _ in hs).most_common(1)[0][0]
            for a in names if a != "pass"}
    return ChartCell(panel=f"{players} players", row=row, col=f"{seat} | up {up_name}", values=values, deals=deals,
                     key={"players": players, "seat": seat, "up": up_name, "class": row,
                          "hands_shown": " / ".join(" ".join(card_str(x) for x in c) + f" up {card_str(up)}"
                                                    for c, up, _, _ in hs[:2])},
                     keep=keep, beside=beside if kind == "pimc" else None)


CHART = Chart(measure=measure, sizes=sizes)
