"""The Boulmous sampling player's inference (``pimc:infer=1``, kernels/boulmous/pimc.py): its worlds make the calls
heard under its model of the other seats (cautious's bidding with pimc's own parameters), the fallback is taken and
counted, ``infer=0`` plays as before, and the traces pass the referee."""
import dataclasses
import hashlib

import numpy as np
import pytest

import ref_boulmous as ref
from tricksim import cli
from tricksim.analysis import compare
from tricksim.analysis.boulmous import GAME, BoulmousRules, trace
from tricksim.analysis.boulmous.config import pimc_key
from tricksim.analysis.engine import RunOptions
from tricksim.kernels import boulmous as K
from tricksim.kernels.boulmous import pimc as PM

PIMC = dict(margin=0.5, bower_weight=1.0, trump_weight=0.6, ace_weight=0.8, king_weight=0.3, length_bonus=0.3,
            nt_bias=-0.5, boulmous_margin=0.5)        # pimc's bidding parameters: cautious's defaults


# ---- the model, written again in Python from docs/methods/sampling.md and kernels/boulmous/players.py ----------
def _estimate(hand: set, t: int, p: dict) -> float:
    """cautious's estimated tricks of ``hand`` (cards suit * 16 + rank, 9..A = 7..12) in trump ``t`` (4 = NT)."""
    if t == 4:
        trumps = set()
        bowers = set()
    else:
        bowers = {16 * t + 9, 16 * (3 - t) + 9}                     # the jack of trumps and of the same colour
        trumps = {16 * t + r for r in range(7, 13)} | bowers
    ntr, nb = len(hand & trumps), len(hand & bowers)
    aces = sum(1 for c in hand - trumps if c % 16 == 12)
    kings = sum(1 for c in hand - trumps if c % 16 == 11)
    v = nb * p["bower_weight"] + (ntr - nb) * p["trump_weight"] + aces * p["ace_weight"] + kings * p["king_weight"]
    if t == 4:
        v += p["nt_bias"]
    elif ntr > 2:
        v += p["length_bonus"] * (ntr - 2)
    return v


def _model_bids(hand: set, high: int, p: dict) -> bool:
    """Whether cautious (parameters ``p``) bids over ``high`` holding ``hand``."""
    lo = 3 if high < 3 else high + 1
    if lo > 6:
        return False
    room = max(_estimate(hand, t, p) for t in range(5)) - p["margin"]
    return room >= 6 + p["boulmous_margin"] - 1e-9 or (room >= lo - 1e-9 and lo < 6)


def _makes_calls(start: list[set], me: int, calls: list[tuple], p: dict) -> bool:
    """Whether the hands as dealt ``start`` make every call (seat, bid or 0) of another seat than ``me``."""
    high = 0
    for s, b in calls:
        if s != me and _model_bids(start[s], high, p) != (b > 0):
            return False
        high = b or high
    return True


def _cards(m) -> set:
    m = int(m)
    return {c for c in range(64) if m >> c & 1}


def _traced(seats, rules=None, seed=5, hands=40):
    kd, kc = GAME.keys(seed)
    ra = GAME.rules_array(rules or BoulmousRules())
    codes, prm = GAME.heuristic_arrays(GAME.parse_seats(seats))
    return ra, codes, prm, K.trace_deals(kd, kc, 0, hands, ra, codes, prm, pimc_key(seed))


def _heard(rec, prm, nplay, nb=None):
    """``pimc_choose``'s ``heard`` argument for the record ``rec`` (its first ``nb`` calls heard)."""
    r = rec.copy()
    if nb is not None:
        r[K.REC_NBIDS] = nb
    return (r, prm, np.zeros(PM.N_STATS, np.int64))


def _played(rec, n):
    """The first ``n`` cards of the record's tricks, in play order, and their seats."""
    cards, seats = [], []
    for i in range(n):
        b = K.REC_TRICKS + 6 * (i // 4)
        cards.append(int(rec[b + 1 + i % 4]))
        seats.append(int((rec[b] + i % 4) % 4))
    return cards, seats


# ---- worlds ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("auction", ["single_round", "multi_round"])
def test_inferred_worlds_make_the_calls_heard(auction):
    """Seeded deals bid by cautious and aggressive: every world pimc:infer=1 samples, for its calls (no card played)
    and its cards (after 5 and 9 cards), replays the calls heard through the model written again here, holds no
    card seen and gives each seat its count; without inference many worlds do not (the check has teeth)."""
    rules = BoulmousRules(auction=auction)
    seats = ["cautious", "aggressive", "cautious", "cautious"]
    ra, _, _, recs = _traced(seats, rules)
    _, prm = GAME.heuristic_arrays(GAME.parse_seats(["pimc:infer=1"]))
    _, prm0 = GAME.heuristic_arrays(GAME.parse_seats(["pimc"]))
    checked = missed0 = bid_heard = 0
    for i, rec in enumerate(recs):
        taker, nb = int(rec[K.REC_TAKER]), int(rec[K.REC_NBIDS])
        calls = [(int(rec[K.REC_BIDS + 2 * j]), int(rec[K.REC_BIDS + 2 * j + 1])) for j in range(nb)]
        hands = [_cards(rec[K.REC_HANDS + s]) for s in range(4)]
        bid_heard += any(b for _, b in calls)
        for nplay in (0, 5, 9):
            if nplay and taker < 0:
                continue
            played, who = _played(rec, nplay)
            me = who[-1] if nplay else calls[-1][0]        # a seat that has seen every call and these cards
            now = hands[me] - set(played[k] for k in range(nplay) if who[k] == me)
            out = np.zeros((16, 4), np.uint64)
            for p, tally in ((prm, None), (prm0, "plain")):
                heard = _heard(rec, p, nplay)
                pl = np.zeros(24, np.int64)
                pl[:nplay] = played
                total = PM.sample_worlds(np.int64(me), np.uint64(sum(1 << c for c in now)), pl, np.int64(nplay),
                                         np.int64(max(taker, 0)), np.int64(max(rec[K.REC_TRUMP], 0)), ra,
                                         np.uint64(17 + i), np.int64(i), out, heard)
                assert total > 0
                st = dict(zip(PM.STAT_NAMES, heard[2]))
                for w in out:
                    start = [_cards(w[s]) | {played[k] for k in range(nplay) if who[k] == s} for s in range(4)]
                    assert [len(h) for h in start] == [6] * 4 and set().union(*start) == set().union(*hands)
                    assert start[me] == hands[me]
                    ok = _makes_calls(start, me, calls, PIMC)
                    if tally is None:
                        assert ok or st["fallbacks"] > 0
                        checked += ok
                    else:
                        missed0 += not ok
                if tally is None:
                    assert st["inferred_decisions"] == 1 and st["worlds"] == 16
                    assert st["draws"] >= 16 - st["fallbacks"] and st["auction_rejects"] <= st["draws"]
                else:
                    assert st["inferred_decisions"] == 0 and st["draws"] == 0
    assert bid_heard >= 10 and checked > 1000 and missed0 > 200


def test_fallback_taken_and_counted_when_no_world_matches():
    """With margin=3 the model never bids (six cards estimate at most 5.6 tricks), so a bid heard matches no world:
    the first world draws MAX_TRIES layouts, each rejected, and falls back; the decision's later worlds skip the
    check; every world is counted a fallback, and the worlds still respect the cards seen."""
    ra = GAME.rules_array(BoulmousRules())
    _, prm = GAME.heuristic_arrays(GAME.parse_seats(["pimc:infer=1,margin=3"]))
    rec = np.zeros(K.REC_LEN, np.int64)
    rec[K.REC_BIDS:K.REC_BIDS + 4] = [1, 3, 2, 0]         # seat 1 bids 3, seat 2 passes
    rec[K.REC_NBIDS] = 2
    hand = np.uint64((1 << 7) | (1 << 8) | (1 << 23) | (1 << 24) | (1 << 39) | (1 << 40))
    out = np.zeros((10, 4), np.uint64)
    heard = (rec, prm, np.zeros(PM.N_STATS, np.int64))
    assert PM.sample_worlds(np.int64(3), hand, np.zeros(24, np.int64), np.int64(0), np.int64(0), np.int64(0), ra,
                            np.uint64(1), np.int64(0), out, heard) > 0
    st = dict(zip(PM.STAT_NAMES, heard[2]))
    assert st == dict(st, inferred_decisions=1, worlds=10, inferred_worlds=10, draws=PM.MAX_TRIES,
                      auction_rejects=PM.MAX_TRIES, fallbacks=10)
    for w in out:
        assert w[3] == hand and int(w[0] | w[1] | w[2] | w[3]) == int(K.DECK24)
        assert sorted(bin(int(x)).count("1") for x in w) == [6] * 4
    # a pass only (the model passes with margin=3): every world matches at once, no fallback
    rec[K.REC_NBIDS] = 1
    rec[K.REC_BIDS + 1] = 0
    heard = (rec, prm, np.zeros(PM.N_STATS, np.int64))
    PM.sample_worlds(np.int64(3), hand, np.zeros(24, np.int64), np.int64(0), np.int64(0), np.int64(0), ra,
                     np.uint64(1), np.int64(0), out, heard)
    st = dict(zip(PM.STAT_NAMES, heard[2]))
    assert st["fallbacks"] == 0 and st["draws"] == 10 and st["auction_rejects"] == 0


def test_fallback_counted_in_play():
    """A deal played by pimc:infer=1,margin=3 seats beside cautious bidders who bid: its counters show the
    inferred decisions and their fallbacks (trace_deals' ``stats``)."""
    seats = ["pimc:infer=1,margin=3,worlds=8", "cautious", "pimc:infer=1,margin=3,worlds=8", "cautious"]
    _, _, _, recs = _traced(seats, hands=1)
    kd, kc = GAME.keys(5)
    ra = GAME.rules_array(BoulmousRules())
    codes, prm = GAME.heuristic_arrays(GAME.parse_seats(seats))
    stats = np.zeros(PM.N_STATS, np.int64)
    again = K.trace_deals(kd, kc, 0, 30, ra, codes, prm, pimc_key(5), stats)
    st = dict(zip(PM.STAT_NAMES, stats))
    assert np.array_equal(again[:1], recs)
    assert st["inferred_decisions"] > 0 and st["fallbacks"] > 0 and st["auction_rejects"] >= PM.MAX_TRIES
    assert st["fallbacks"] <= st["inferred_worlds"] <= st["worlds"]
    assert st["card_decisions"] + st["call_decisions"] >= st["inferred_decisions"]


# ---- play ---------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("flags", [{}, dict(auction="multi_round", failed_taker_keeps_tricks=False),
                                   dict(left_bower_is_trump=False, must_head=True, trump_obligation="must_trump")])
def test_referee_accepts_inferring_pimc_traces(flags):
    rules = BoulmousRules(**flags)
    seats = ["pimc:infer=1,worlds=8", "cautious", "pimc:infer=1,worlds=8", "aggressive"]
    ds = trace(seed=7, hands=16, rules=rules, heuristics=seats, with_legal=True)
    for d in ds:
        assert ref.check_hand(d, dataclasses.asdict(rules)) == []
    # inference changes calls or cards against infer=0 on the same deals (the wiring is live), and the first
    # speaker, who has heard nothing, calls as before
    d0 = trace(seed=7, hands=16, rules=rules, heuristics=[s.replace("infer=1", "infer=0") for s in seats])
    assert [(d["bids"], d["tricks"]) for d in d0] != [(d["bids"], d["tricks"]) for d in ds]
    assert [d["bids"][0] for d in d0] == [d["bids"][0] for d in ds]


def test_inference_deterministic_across_threads_and_blocks():
    names = ["pimc:worlds=4", "pimc:infer=1,worlds=4"]
    a = compare.compare("boulmous", names, hands=16, seed=3, block_size=16, opts=RunOptions(threads=1))
    b = compare.compare("boulmous", names, hands=16, seed=3, block_size=5, opts=RunOptions(threads=2))
    assert a["leaderboard"].equals(b["leaderboard"]) and a["pairs"].equals(b["pairs"])
    seats = ["pimc:infer=1,worlds=4", "aggressive", "pimc:infer=1,worlds=4", "cautious"]
    _, _, _, whole = _traced(seats, seed=4, hands=12)
    kd, kc = GAME.keys(4)
    ra = GAME.rules_array(BoulmousRules())
    codes, prm = GAME.heuristic_arrays(GAME.parse_seats(seats))
    parts = np.vstack([K.trace_deals(kd, kc, f, 4, ra, codes, prm, pimc_key(4)) for f in (0, 4, 8)])
    assert np.array_equal(whole, parts)


def test_infer_zero_plays_as_before(tmp_path):
    """``infer=0`` (the default) is today's player: the compare tables of this command hash as they did before
    the parameter existed (checked against the code at 40e0031), and ``pimc:infer=0`` is ``pimc``."""
    out = tmp_path / "cmp"
    cli.main(["compare", "boulmous", "pimc", "cautious", "--hands", "200", "--seed", "3", "-q", "--out", str(out)])
    md5 = {f: hashlib.md5((out / f).read_bytes()).hexdigest() for f in ("leaderboard.csv", "pairs.csv")}
    assert md5 == {"leaderboard.csv": "f9a7e43d0d8247e402479cf866793930", "pairs.csv": "4dac53a8efa6124d02a20713fa2fa6f0"}
    a = trace(seed=2, hands=6, heuristics=["pimc", "cautious", "pimc", "aggressive"])
    b = trace(seed=2, hands=6, heuristics=["pimc:infer=0", "cautious", "pimc:infer=0", "aggressive"])
    assert [(d["bids"], d["tricks"]) for d in a] == [(d["bids"], d["tricks"]) for d in b]


@pytest.mark.parametrize("args, msg", [(["-H", "pimc:infer=2"], "out of range"),
                                       (["-H", "pimc:infer=0.5"], "infer must be an integer"),
                                       (["-H", "pimc:infer=1", "--explain"], "infer=1")])
def test_bad_infer_one_line_exit_2(args, msg, capsys):
    code = 0
    try:
        cli.main(["trace", "boulmous", *args, "--hands", "1"])
    except SystemExit as e:
        code = e.code
    err = capsys.readouterr().err
    assert code == 2 and msg in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
