"""Boomke Wies's strategy chart (``tricksim chart boomke-wies``, issue 27): pass or the bid to make, by the hand's
longest suit and high-card points and the seat, and the dealer's forced call (7, Boom or Meetje) after three
passes; measured with the odds of one hand (``odds boomke-wies --hand``: the block function ``boomke_wies.odds``,
every suit opened as the declarer's trumps and, for every seat, the auction in which the hand passes, on the same
deals).

**A cell** is a hand class (``row_of``: the longest suit's length, the high-card points A=4 K=3 Q=2 J=1) in one
column: a seat (0 = the dealer's left .. 3 = the dealer), or the dealer after three passes (no pass: 7, Boom or
Meetje; 8-12 too under ``dealer_may_bid_8_to_12``).  Its hands are the first ``hands`` hands of the class in one
seeded pool (``pool``); each is evaluated once, as ``odds_hand(hand, seed=hand_seed(...), hands=deals)`` does,
for all four seats, so the columns compare the same hands on the same deals.  A bid is made in the longest suit
(the declarer opens it: rule 7; ties go to the suit with more points, then the higher suit in S H D C order) and
valued as ``odds_hand`` values a call: the expected net points of the deal (ours minus theirs) by the scoring
table, the call assumed to end the auction; pass: the hand's side's net points when it passes and the others bid.

Under ``play = pimc`` the bids (7-12, Boom) are valued with the sampling player playing the hand's seat (the
others the heuristics), from the pimc column of ``odds_play(hand, seed=hand_seed(...), hands=deals,
play="heuristic,pimc", trumps=[long suit])`` (``odds boomke-wies --hand ... --play heuristic,pimc``: the same
deals); pass and Meetje keep the heuristics' values (the sampling player's odds value neither); the heuristics'
values of every call come beside.
"""
from __future__ import annotations

import hashlib
import json

import numpy as np

from ...kernels import boomke_wies as K
from ...kernels.cards import card_str, mask_of
from .. import engine
from ..common import TricksimError, check_seed, make_params
from ..engine import RunOptions
from ..game import CHART_MIN_HANDS, Chart, ChartCell, ChartData, chart_sizes
from ..play_kinds import chart_play
from .config import ODDS_BLOCK, BoomkeRules, call_name, score
from .play import odds_play, pimc_spec
from .spec import SPEC

COLS = ("first", "second", "third", "dealer", "dealer, 3 passes")
CALLS = [7, 8, 9, 10, 11, 12, K.BOOM, K.MEETJE]
ACTIONS = ["pass"] + [f"bid {c}" for c in range(7, 13)] + ["Boom", "Meetje"]
HCP = ((0, 9), (10, 12), (13, 15), (16, 18), (19, 37))
POOL = 1 << 16
FULL = (24, 4096)
QUICK = (6, 1024)
PIMC_FULL = (4, 128)    # the sampling player (--quick: 53 s for 20 rows on 2 shared cores)
PIMC_QUICK = (3, 32)


def row_of(longest: int, hcp: int) -> str:
    """The row of a hand whose longest suit has ``longest`` cards and which holds ``hcp`` high-card points."""
    length = "4-card" if longest <= 4 else "7+ card" if longest >= 7 else f"{longest}-card"
    lo, hi = next(b for b in HCP if b[0] <= hcp <= b[1])
    return f"{length} suit, {lo}-{hi} HCP" if hi < 37 else f"{length} suit, {lo}+ HCP"


ROWS = list(dict.fromkeys(row_of(n, lo) for n in (4, 5, 6, 7) for lo, _ in HCP))


def _points(c) -> int:
    return max(0, c % 16 - 8)          # J (9) = 1 .. A (12) = 4


def long_suit(cards) -> int:
    """The declarer's trumps: the longest suit, then the one with more points, then the first in S H D C."""
    return max(range(4), key=lambda s: (sum(1 for c in cards if c // 16 == s),
                                        sum(_points(c) for c in cards if c // 16 == s), -s))


def classify(cards) -> str:
    s = long_suit(cards)
    return row_of(sum(1 for c in cards if c // 16 == s), sum(_points(c) for c in cards))


def _seed_of(*key) -> int:
    return int.from_bytes(hashlib.sha256(json.dumps(key).encode()).digest()[:8], "little") >> 1


def hand_seed(seed: int, row: str, k: int) -> int:
    """The seed of the deals of hand ``k`` of a row (``odds_hand(..., seed=hand_seed(...))`` deals the same)."""
    return _seed_of("boomke-chart-deals", seed, row, k)


_POOLS: dict = {}


def pool(seed: int):
    """The seeded random hands: (hands int64[POOL, 13] as kernel card ids, their rows as indices of ``ROWS``)."""
    if seed not in _POOLS:
        rng = np.random.default_rng(_seed_of("boomke-chart-hands", seed))
        pick = np.sort(np.argpartition(rng.random((POOL, 52)), 13, axis=1)[:, :13], axis=1)
        suit, rank = pick // 13, pick % 13
        longest = np.stack([(suit == s).sum(axis=1) for s in range(4)], axis=1).max(axis=1)
        hcp = np.maximum(rank - 8, 0).sum(axis=1)
        rows = np.array([ROWS.index(row_of(int(n), int(p))) for n, p in zip(longest, hcp)], np.int64)
        _POOLS[seed] = (suit * 16 + rank, rows)
    return _POOLS[seed]


def row_hands(seed: int, row: str, hands: int):
    """The row's hands: [(cards, deal seed)], at most ``hands`` (the same in every column)."""
    ph, pr = pool(seed)
    idx = np.flatnonzero(pr == ROWS.index(row))[:hands]
    return [([int(c) for c in ph[i]], hand_seed(seed, row, k)) for k, i in enumerate(idx)]


def values(counts, suit: int, rules: BoomkeRules) -> np.ndarray:
    """float64[5 columns, ACTIONS]: the expected net points of every action in every column from the odds counts
    of one hand (``boomke_wies.odds``, all four seats), as ``studies._odds_tables`` values them; nan where the
    action is not open (Meetje only to the dealer after three passes; then no pass, and 8-12 only under the rule)."""
    o = K.ODDS.unpack(np.asarray(counts))
    calls = []
    for c in CALLS:
        h = o["meetje"][suit] if (c == K.MEETJE and rules.meetje_trump == "dealer_names_then_eldest_leads") \
            else o["declarer"][suit]
        net = np.array([(lambda a, b, _: a - b)(*score(c, t, rules)) for t in range(14)], np.float64)
        calls.append(float((net * h).sum() / h.sum()))
    out = np.full((len(COLS), len(ACTIONS)), np.nan)
    by = o["positions"].reshape(4, K.ODDS_POS_LEN)
    for p in range(4):
        ph = K.ODDS_POSITION.unpack(by[p])["pass_net"]
        out[p, 0] = float((np.arange(-10, 6) * ph).sum() / ph.sum())
        out[p, 1:] = calls
        out[p, ACTIONS.index("Meetje")] = np.nan      # Meetje only after three passes (rule 6): the last column
    forced = [7, K.BOOM, K.MEETJE] + (list(range(8, 13)) if rules.dealer_may_bid_8_to_12 else [])
    for c in forced:
        out[4, 1 + CALLS.index(c)] = calls[CALLS.index(c)]
    return out


def sizes(quick: bool, play: str = "heuristic") -> tuple:
    if str(play).split(":")[0].strip().lower() == "pimc":
        return PIMC_QUICK if quick else PIMC_FULL
    return QUICK if quick else FULL


def check_play(play) -> str:
    """The kind of ``--play`` (heuristic or pimc; pimc's settings checked), or one clear error."""
    kind = chart_play(play)
    if kind == "pimc":
        try:
            pimc_spec(str(play).strip().lower())
        except TricksimError as e:
            raise TricksimError(f"--play {play!r}: {e}") from None
    return kind


def pimc_values(cards, hseed: int, deals: int, rules, play, opts, heuristic: np.ndarray) -> np.ndarray:
    """``values`` of one hand with the sampling player in the hand's seat: each bid's (7-12, Boom) expected net
    points from the pimc column of ``odds boomke-wies --hand ... --play heuristic,pimc`` on the deals of ``hseed``
    (the long suit opened); pass and Meetje as in ``heuristic`` (the heuristics' ``values``)."""
    res = odds_play(cards, seed=hseed, hands=deals, rules=rules, play=["heuristic", str(play).strip().lower()],
                    trumps=["SHDC"[long_suit(cards)]], opts=opts.at(None))
    net = res["calls"][res["calls"].play == "pimc"].set_index("bid").exp_net
    out = heuristic.copy()
    for c in CALLS:
        if c != K.MEETJE:
            a = 1 + CALLS.index(c)
            out[:, a] = np.where(np.isnan(heuristic[:, a]), np.nan, float(net[call_name(c)]))
    return out


def measure(seed: int = 0, hands: int | None = None, deals: int | None = None, play: str = "heuristic",
            rules: BoomkeRules | None = None, opts: RunOptions = RunOptions(), log=None, only=None) -> ChartData:
    """The chart's cells (``Chart.measure``): every class in every column (``only``: the rows it holds)."""
    rules = rules or BoomkeRules()
    seed = check_seed(seed)
    if rules.variant == "no_auction":
        raise TricksimError("a Boomke Wies chart needs the bidding game: the no-auction variant has no calls")
    kind = check_play(play)
    hands, deals = chart_sizes(hands, deals, FULL)
    specs = SPEC.parse_seats(None)
    cells = []
    for row in ROWS:
        if only is not None and row not in only:
            continue
        hs = row_hands(seed, row, hands)
        if len(hs) < CHART_MIN_HANDS:
            continue
        v = []
        for cards, hseed in hs:
            params = make_params(hseed, rules, specs, hand_mask=mask_of(cards), positions=[0, 1, 2, 3])
            r = opts.at(None).execute(engine.Run("boomke_wies.odds", params, deals, ODDS_BLOCK, unit="deals"))
            v.append(values(r.counts, long_suit(cards), rules))
        v = np.array(v)
        beside = None
        if kind == "pimc":
            beside = v
            v = np.array([pimc_values(c, hseed, deals, rules, play, opts, h) for (c, hseed), h in zip(hs, beside)])
        shown = " / ".join(" ".join(card_str(x) for x in c) for c, _ in hs[:2])
        for j, col in enumerate(COLS):
            cells.append(ChartCell(panel="4 players", row=row, col=col, values=v[:, j, :], deals=deals,
                                   key={"seat": col, "class": row, "hands_shown": shown},
                                   beside=None if beside is None else beside[:, j, :]))
    if log:
        log(f"boomke-wies chart: {len(cells)} cells measured")
    who, notes = "the heuristics (partner, the default) in every seat", []
    if kind == "pimc":
        label = pimc_spec(str(play).strip().lower()).label
        who = (f"the sampling player ({label}) playing the hand's seat, the heuristics (partner) in the other seats "
               "and valuing pass and Meetje")
        notes = [f"Under --play pimc: each bid (7-12, Boom) is valued with the sampling player ({label}) playing the "
                 "hand's seat, as odds boomke-wies --hand ... --play heuristic,pimc values it on the same deals; pass "
                 "and Meetje keep the heuristics' values (the sampling player's odds value neither); the "
                 "heuristics' values beside."]
    return ChartData(
        shade=0.5, beside_name="the heuristics (partner)" if kind == "pimc" else "",
        title="Boomke Wies: pass, or the bid to make", player=who,
        unit="net points", actions=ACTIONS, panels=["4 players"],
        rows=[r for r in ROWS if any(c.row == r for c in cells)], cols=list(COLS), cells=cells, name="boomke-wies",
        command=f"tricksim chart boomke-wies --hands {hands} --deals {deals} --seed {seed}"
        + (f" --play {play}" if kind != "heuristic" else ""),
        notes=["Rows: the length of the hand's longest suit and its high-card points (A 4, K 3, Q 2, J 1).",
               "Columns: the seat from the dealer's left (first) to the dealer; 'dealer, 3 passes': the dealer's "
               "forced call when the other three have passed (7, Boom or Meetje"
               + (", or 8-12" if rules.dealer_may_bid_8_to_12 else "") + ").",
               "bid k / Boom: bid and open the longest suit (it becomes trumps); a call is valued as ending the "
               "auction (odds boomke-wies --hand), so the seat moves only what passing is worth (the others bid on; "
               "the dealer's pass is valued over every deal, as odds boomke-wies --hand values it). Meetje: the "
               "dealer's call after three passes only.",
               "Values: the expected net points of the deal (the hand's side minus the other) by the scoring table; "
               "pass: the side's net points when the hand passes and the others bid."] + notes,
        caveat="each call is valued as if it ended the auction (as odds --hand values it), so the seat changes "
               "only what passing is worth")


CHART = Chart(measure=measure, sizes=sizes)
