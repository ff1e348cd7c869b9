"""Boulmous's strategy chart (``tricksim chart boulmous``, issue 27): the best call, pass or a bid of 3 to 6 in the
hand's long suit or at no trumps, by hand class and seat, measured with the odds of one hand (``odds boulmous
--hand``: the block function ``boulmous.odds``, every trump as the seat's contract and the auction in which the
seat passes, on the same deals).

**A cell** is a hand class (``row_of``: the trumps the hand holds in its long suit, bowers included; the bowers;
the aces of the other suits) in one seat (0 = the dealer's left, first to bid, .. 3 = the dealer).  The long suit
is the suit of the most trumps (the suit's cards and the other jack of its colour); ties go to more bowers, then
the higher cards (``long_suit``).  A cell's hands are the first ``hands`` hands of its class in one seeded pool of
random hands (``pool``: keyed by the run's seed alone, so every seat has the same hands).  Each hand is evaluated
exactly as ``odds_hand(hand, seat, seed=hand_seed(...), hands=deals)`` does, and valued as its ``best_call``
values a call: the expected points of the deal plus its stakes (a bid of 6 made +3, failed -3); pass: the points
and stakes of the seat when it passes and the auction goes on.

Under ``play = pimc`` the bids are valued with the sampling player playing the cards (in every seat, the contract
forced), from the pimc column of ``odds_play(hand, seat, seed=hand_seed(...), hands=deals, play="heuristic,pimc",
trumps=[long suit, "NT"])`` (``odds boulmous --hand ... --play heuristic,pimc``: the same deals); pass keeps the
heuristics' value (the sampling player does not bid in the odds); the heuristics' values of every call come beside.
"""
from __future__ import annotations

import hashlib
import json

import numpy as np

from ...kernels import boulmous as K
from ...kernels.cards import card_str, mask_of
from .. import engine
from ..common import TricksimError, check_seed, make_params
from ..engine import RunOptions
from ..game import CHART_MIN_HANDS, Chart, ChartCell, ChartData, chart_sizes
from ..play_kinds import chart_play
from .config import ODDS_BLOCK, TRUMP_NAMES, BoulmousRules
from .equity.decide import odds_scores
from .equity.pstar import chart_extra
from .play import odds_play, play_worlds
from .spec import SPEC

SEATS = ("first", "second", "third", "dealer")
"""The seats from the dealer's left (0: first to bid) to the dealer (3: the last to bid)."""
BIDS = (3, 4, 5, 6)
ACTIONS = ["pass"] + [f"bid {b}" for b in BIDS] + [f"bid {b} NT" for b in BIDS]
NT = TRUMP_NAMES.index("NT")
POOL = 1 << 18
FULL = (32, 4096)
QUICK = (4, 512)
PIMC_FULL = (3, 64)     # the sampling player (--quick: 154 s for 132 cells on 2 shared cores)
PIMC_QUICK = (3, 16)
PIMC_BLOCK = 16         # deals per block under pimc: a hand's few deals still spread over the threads
RJ, RA = 9, 12          # the jack's and the ace's ranks (kernels/cards.py)


def trumps_of(cards, suit: int) -> tuple:
    """(trumps, bowers) of a hand if ``suit`` is trumps: the suit's cards and the jack of its colour's other suit;
    the bowers are the two jacks of the colour."""
    left = sum(1 for c in cards if c == (3 - suit) * 16 + RJ)
    return sum(1 for c in cards if c // 16 == suit) + left, left + sum(1 for c in cards if c == suit * 16 + RJ)


def long_suit(cards) -> int:
    """The suit the rows count trumps in: the most trumps, then the more bowers, then the higher cards."""
    def key(s):
        t, b = trumps_of(cards, s)
        return (t, b, sorted((c % 16 for c in cards if c // 16 == s), reverse=True), -s)
    return max(range(4), key=key)


def row_of(trumps: int, bowers: int, aces: int) -> str:
    """The row of a hand with ``trumps`` trumps in its long suit, ``bowers`` bowers and ``aces`` side aces."""
    t = "2 or fewer trumps" if trumps <= 2 else "5-6 trumps" if trumps >= 5 else f"{trumps} trumps"
    b = "no bower" if bowers == 0 else f"{bowers} bower{'s' if bowers > 1 else ''}"
    a = "no side A" if aces == 0 else "1 side A" if aces == 1 else "2+ side A"
    return f"{t}, {b}, {a}"


ROWS = list(dict.fromkeys(row_of(t, b, a) for t in (2, 3, 4, 5) for b in (0, 1, 2) for a in (0, 1, 2)))


def classify(cards) -> str:
    s = long_suit(cards)
    t, b = trumps_of(cards, s)
    return row_of(t, b, sum(1 for c in cards if c % 16 == RA and c // 16 != s))


def _seed_of(*key) -> int:
    return int.from_bytes(hashlib.sha256(json.dumps(key).encode()).digest()[:8], "little") >> 1


def hand_seed(seed: int, seat: str, row: str, k: int) -> int:
    """The seed of the deals of hand ``k`` of a cell (``odds_hand(..., seed=hand_seed(...))`` deals the same)."""
    return _seed_of("boulmous-chart-deals", seed, seat, row, k)


_POOLS: dict = {}


def pool(seed: int):
    """The seeded random hands: (hands int64[POOL, 6] as kernel card ids, their rows as indices of ``ROWS``)."""
    if seed not in _POOLS:
        rng = np.random.default_rng(_seed_of("boulmous-chart-hands", seed))
        deck = np.array([s * 16 + r for s in range(4) for r in range(7, 13)], np.int64)
        pick = np.sort(np.argpartition(rng.random((POOL, 24)), 6, axis=1)[:, :6], axis=1)
        hands = deck[pick]
        _POOLS[seed] = (hands, rows_of(hands))
    return _POOLS[seed]


def rows_of(hands) -> np.ndarray:
    """``classify`` of many hands (int64[n, 6] kernel card ids) at once: the rows' indices.  The long suit's key
    (trumps, bowers, its cards' ranks, the first suit) as one number: distinct ranks compared from the highest
    down order as the sum of 2^rank does."""
    suit, rank = hands // 16, hands % 16
    key = np.zeros((len(hands), 4), np.int64)
    tb = []
    for s in range(4):
        own, left = (hands == s * 16 + RJ).any(axis=1), (hands == (3 - s) * 16 + RJ).any(axis=1)
        t, b = (suit == s).sum(axis=1) + left, own.astype(np.int64) + left
        key[:, s] = ((t * 3 + b) * (1 << 13) + np.where(suit == s, 1 << rank, 0).sum(axis=1)) * 4 + (3 - s)
        tb.append((t, b))
    best = key.argmax(axis=1)
    t = np.choose(best, [x[0] for x in tb])
    b = np.choose(best, [x[1] for x in tb])
    aces = ((rank == RA) & (suit != best[:, None])).sum(axis=1)
    lut = np.array([[[ROWS.index(row_of(tt, bb, aa)) for aa in range(5)] for bb in range(3)] for tt in range(7)])
    return lut[t, b, aces]


def cell_hands(seed: int, seat: str, row: str, hands: int):
    """The cell's hands: [(cards, seat number, deal seed)], at most ``hands``."""
    ph, pr = pool(seed)
    idx = np.flatnonzero(pr == ROWS.index(row))[:hands]
    return [([int(c) for c in ph[i]], SEATS.index(seat), hand_seed(seed, seat, row, k)) for k, i in enumerate(idx)]


def values(counts, suit: int, rules: BoulmousRules) -> list:
    """The expected points plus stakes of every action of ``ACTIONS`` from the odds counts of one hand (the
    block function ``boulmous.odds``), as ``studies.best_call`` values a call."""
    o = K.ODDS.unpack(np.asarray(counts))
    tricks = np.arange(7)
    out = []
    ph, sh = o["pass_points"], o["pass_stakes"]
    out.append(float((np.arange(-6, 7) * ph).sum() / ph.sum() + (np.arange(-1, 4) * sh).sum() / sh.sum()))
    for t in (suit, NT):
        h = o["by_trump"][t]
        for b in BIDS:
            pts = np.where(tricks >= b, tricks, tricks - b if rules.failed_taker_keeps_tricks else -b)
            stakes = np.where(tricks >= b, 3, -3) if b == 6 else np.zeros(7)
            out.append(float(((pts + stakes) * h).sum() / h.sum()))
    return out


def sizes(quick: bool, play: str = "heuristic") -> tuple:
    if str(play).split(":")[0].strip().lower() == "pimc":
        return PIMC_QUICK if quick else PIMC_FULL
    return QUICK if quick else FULL


def check_play(play) -> str:
    """The kind of ``--play`` (heuristic or pimc; pimc's worlds checked), or one clear error."""
    kind = chart_play(play)
    if kind == "pimc":
        play_worlds(str(play).strip().lower())
    return kind


def pimc_values(cards, seat: int, hseed: int, deals: int, rules, play, opts, pass_value: float) -> list:
    """The values of ``ACTIONS`` for one hand with the sampling player playing the cards: each bid's expected
    points plus stakes from the pimc column of ``odds boulmous --hand ... --play heuristic,pimc`` on the deals of
    ``hseed`` (the long suit and NT), pass the heuristics' value ``pass_value``."""
    t = TRUMP_NAMES[long_suit(cards)]
    w = play_worlds(str(play).strip().lower())
    res = odds_play(cards, seat, seed=hseed, hands=deals, rules=rules, play=["heuristic", f"pimc:worlds={w}"],
                    trumps=[t, "NT"], opts=opts.at(None), block_size=PIMC_BLOCK)
    c = res["calls"][res["calls"].play == "pimc"]
    v = {(r.trump, int(r.bid)): float(r.exp_points + r.exp_stakes) for r in c.itertuples()}
    return [pass_value] + [v[(t, b)] for b in BIDS] + [v[("NT", b)] for b in BIDS]


STATES = {"even": "even scores", "need3": "I need 3", "opp3": "the next player needs 3"}
"""The score states of ``--scores``: the chart by the chance to win the game (the equity table's values)."""


def state_scores(state: str, seat: int, target: int) -> list:
    """The four scores (the odds' seats) of a score state for the hand in ``seat``."""
    y = [0, 0, 0, 0]
    if state == "need3":
        y[seat] = target - 3
    elif state == "opp3":
        y[(seat + 1) % 4] = target - 3
    return y


def parse_states(text) -> list:
    """The score states of ``--scores`` (names separated by commas; ``all``: every one)."""
    names = [x.strip().lower() for x in str(text).split(",") if x.strip()]
    names = list(STATES) if names == ["all"] else names
    bad = [x for x in names if x not in STATES]
    if bad or not names:
        raise TricksimError(f"--scores: choose among {', '.join(STATES)} (or all), got {text!r}")
    return list(dict.fromkeys(names))


def _hand_values(cards, seat: int, hseed: int, deals: int, rules, specs, opts, state):
    """The values of ``ACTIONS`` for one hand: points plus stakes, or (``state``) the chance to win the game."""
    suit = long_suit(cards)
    if state is None:
        params = make_params(hseed, rules, specs, hand_mask=mask_of(cards), seat=seat)
        return values(opts.at(None).execute(engine.Run("boulmous.odds", params, deals, ODDS_BLOCK)).counts, suit,
                      rules)
    res = odds_scores(cards, seat, state_scores(state, seat, rules.target), seed=hseed, hands=deals, rules=rules,
                      heuristics=specs, opts=opts.at(None))
    p = res["calls"].set_index("call").p_win_game
    t = TRUMP_NAMES[suit]
    return [float(p["pass"])] + [float(p[f"{b} {t}"]) for b in BIDS] + [float(p[f"{b} NT"]) for b in BIDS]


def measure(seed: int = 0, hands: int | None = None, deals: int | None = None, play: str = "heuristic",
            rules: BoulmousRules | None = None, opts: RunOptions = RunOptions(), log=None, only=None,
            scores=None) -> ChartData:
    """The chart's cells (``Chart.measure``): every class in every seat (``only``: the (seat, row) pairs it holds);
    with ``scores`` (score states of ``STATES``) one panel per state, valued by the chance to win the game."""
    rules = rules or BoulmousRules()
    seed = check_seed(seed)
    kind = check_play(play)
    if kind == "pimc" and scores is not None:
        raise TricksimError("--scores: the chart by the chance to win the game is measured with the heuristics; "
                            "leave out --play pimc")
    states = parse_states(scores) if scores is not None else [None]
    hands, deals = chart_sizes(hands, deals, FULL)
    specs = SPEC.parse_seats(None)
    cells = []
    for state in states:
        panel = "4 players" if state is None else STATES[state]
        for seat in SEATS:
            for row in ROWS:
                if only is not None and (seat, row) not in only:
                    continue
                hs = cell_hands(seed, seat, row, hands)
                if len(hs) < CHART_MIN_HANDS:
                    continue
                v = [_hand_values(c, s, hseed, deals, rules, specs, opts, state) for c, s, hseed in hs]
                beside = None
                if kind == "pimc":
                    beside = np.array(v)
                    v = [pimc_values(c, s, hseed, deals, rules, play, opts, h[0]) for (c, s, hseed), h in zip(hs, v)]
                cells.append(ChartCell(panel=panel, row=row, col=seat, values=np.array(v), deals=deals,
                                       key={"scores": state or "", "seat": seat, "class": row,
                                            "hands_shown": " / ".join(" ".join(card_str(x) for x in c)
                                                                      for c, _, _ in hs[:2])}, beside=beside))
        if log:
            log(f"boulmous chart, {panel}: {sum(c.panel == panel for c in cells)} cells measured")
    game = scores is not None
    extra = []
    if rules.end_check == "end_of_deal" and (game or rules == BoulmousRules()):   # the default's table is shipped
        shown = states if game else list(STATES)
        extra = [chart_extra({STATES[x]: (lambda seat, x=x: state_scores(x, seat, rules.target)) for x in shown},
                             rules, SEATS, ["first to bid"], specs, opts)]
    who = "the heuristics (cautious, the default) in every seat"
    notes = []
    if kind == "pimc":
        w = play_worlds(str(play).strip().lower())
        who = (f"the sampling player (pimc:worlds={w}) playing the cards in every seat (the contract forced), the "
               "heuristics (cautious) bidding and valuing pass")
        notes = [f"Under --play pimc: each bid is valued with the sampling player (pimc:worlds={w}) playing the "
                 "cards, as odds boulmous --hand ... --play heuristic,pimc values it on the same deals; pass keeps "
                 "the heuristics' value (the sampling player does not bid there); the heuristics' values beside."]
    return ChartData(extra=extra,
        shade=0.02 if game else 0.5, value_format="{:.1%}" if game else "{:+.2f}",
        title="Boulmous: pass, or the bid to make" + (", by the chance to win the game" if game else ""),
        beside_name="the heuristics (cautious)" if kind == "pimc" else "",
        player=who, unit="chance to win" if game else "points",
        actions=ACTIONS, panels=[STATES[x] for x in states] if game else ["4 players"],
        rows=[r for r in ROWS if any(c.row == r for c in cells)], cols=list(SEATS), cells=cells,
        name="boulmous-scores" if game else "boulmous",
        command=f"tricksim chart boulmous --hands {hands} --deals {deals} --seed {seed}"
        + (f" --scores {','.join(states)}" if game else "") + (f" --play {play}" if kind != "heuristic" else ""),
        notes=["Rows: the trumps the hand holds in its long suit (the suit's cards and the other jack of its colour), "
               "the bowers (the two jacks of the trump colour) among them, and the aces of the other suits. The long "
               "suit: the most trumps, then the more bowers, then the higher cards.",
               "Columns: the seat, from the dealer's left (first to bid) to the dealer (last to bid).",
               "bid k = bid k and name the long suit trumps when the auction is won; bid k NT = at no trumps. A bid "
               "is valued as won (the contract played, as odds boulmous --hand plays every contract): the taker "
               "leads whatever his seat, so the seat moves only what passing is worth (the others bid on).",
               ("Values: the hand's chance to win the game after the deal (the equity table of odds boulmous --hand "
                f"--scores, target {rules.target}); panels: the scores before the deal: all at 0; the hand's seat at "
                f"{rules.target - 3}, the others at 0; the next seat (on the hand's left) at {rules.target - 3}, the "
                "others at 0." if game else
                "Values: the expected points of the deal plus its stakes (a boulmous, bid 6, made +3, failed -3); "
                "pass: the seat's points and stakes when it passes and the others bid on.")] + notes,
        caveat="each call is valued as if it ended the auction (as odds --hand values it), so the seat changes "
               "only what passing is worth")


CHART = Chart(measure=measure, sizes=sizes)
