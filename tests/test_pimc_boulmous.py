"""The Boulmous sampling player wired in (issue 12): the ``pimc`` column of ``odds boulmous --play``
(kernels/boulmous/pimc_batch.py), ``pimc`` as an entrant of ``compare`` and a seat of ``trace`` (the kernels'
optional ``pimc`` argument, kernels/boulmous/play.py).

- given the ``pimc`` argument with no PIMC seat, the kernels play exactly as without it (same records, same
  duplicate counts), so a PIMC seat is the only thing that changes a deal; one deal is played by one function
  (no second copy of the deal for mixed tables);
- the referee (tests/ref_boulmous.py) accepts every deal a PIMC seat plays, beside heuristics and alone;
- the pimc column and a tournament with a pimc entrant are identical for 1 and 2 threads and any block
  size, and leave the other columns (common random numbers) unchanged.
Small samples and few worlds: the whole file runs in well under a minute once compiled.
"""
import dataclasses

import numpy as np
import pytest

import ref_boulmous as ref
from tricksim import cli
from tricksim.analysis import compare
from tricksim.analysis.boulmous import GAME, BoulmousRules, odds_classes_play, odds_play, trace
from tricksim.analysis.boulmous.config import pimc_key
from tricksim.analysis.compare import seating
from tricksim.analysis.engine import RunOptions
from tricksim.kernels import boulmous as K
from tricksim.kernels.boulmous import pimc as PM
from tricksim.kernels.boulmous import pimc_batch as P

HAND = "JH JD AH KH 9S TC"


def test_the_pimc_argument_without_a_pimc_seat_plays_as_without_it():
    specs = [GAME.parse_heuristic(h) for h in ("cautious", "aggressive", "random")]
    codes, prm = GAME.heuristic_arrays(specs)
    ids, nround = seating(GAME, 3, {})
    kd, kc = GAME.keys(5)
    ra = GAME.rules_array(BoulmousRules())
    args = (np.ascontiguousarray(codes[ids]), np.ascontiguousarray(prm[ids]), ids, 3, nround)
    plain = K.sim_duplicate(kd, kc, 0, 96, ra, *args)
    mixed = K.sim_duplicate(kd, kc, 0, 96, ra, *args, pimc_key(5))
    assert plain.sum() != 0 and np.array_equal(plain, mixed)
    c4, p4 = GAME.heuristic_arrays(GAME.parse_seats(["cautious", "random", "aggressive", "random"]))
    assert np.array_equal(K.trace_deals(kd, kc, 0, 40, ra, c4, p4), K.trace_deals(kd, kc, 0, 40, ra, c4, p4, pimc_key(5)))


def test_one_deal_function_for_every_table():
    """The mixed-table copies of the deal are gone: the sampling player is the optional ``pimc`` argument of
    the one ``play_deal`` (as Bourre's ``play_dealt`` takes it), and its bids travel in its own scratch, not in
    the parameter matrix."""
    import inspect
    for gone in ("play_deal_mixed", "trace_mixed", "sim_duplicate_mixed", "_scratch"):
        assert not hasattr(P, gone)
    for fn in (K.play_deal, K.play_tricks, K.auction, K.trace_deals, K.sim_duplicate):
        sig = inspect.signature(fn.py_func)
        assert sig.parameters["pimc"].default is None
    assert not hasattr(K, "P_SAMPLED_BID") and not hasattr(K, "P_SA_BIN") and K.N_PARAMS == len(K.PARAMS)


@pytest.mark.parametrize("flags", [{}, dict(left_bower_is_trump=False, must_head=True, trump_obligation="must_trump"),
                                   dict(trump_obligation="must_trump_and_overtrump", failed_taker_keeps_tricks=False)])
def test_referee_accepts_pimc_play(flags):
    rules = BoulmousRules(**flags)
    seats = [["pimc:worlds=8,bid=0", "cautious", "pimc:worlds=8,bid=0", "aggressive"], ["pimc:worlds=4"]]
    played = 0
    for hs in seats:
        ds = trace(seed=3, hands=12, rules=rules, heuristics=hs, with_legal=True)
        for d in ds:
            assert ref.check_hand(d, dataclasses.asdict(rules)) == []
            played += bool(d["tricks"])
    assert played >= 6
    # a PIMC seat changes the play (else the wiring would be inert)
    plain = trace(seed=3, hands=12, rules=rules, heuristics=["cautious", "cautious", "cautious", "aggressive"])
    mixed = trace(seed=3, hands=12, rules=rules, heuristics=seats[0])
    assert [d["bids"] for d in plain] == [d["bids"] for d in mixed]      # pimc:bid=0 bids as cautious
    assert [d["tricks"] for d in plain] != [d["tricks"] for d in mixed]


def test_pimc_column_deterministic_and_common_random_numbers():
    kw = dict(seat=1, seed=2, hands=24, trumps=["H", "NT"])
    a = odds_play(HAND, play="heuristic,pimc:worlds=6,open", block_size=24, opts=RunOptions(threads=1), **kw)
    b = odds_play(HAND, play="heuristic,pimc:worlds=6,open", block_size=7, opts=RunOptions(threads=2), **kw)
    assert a["calls"].equals(b["calls"]) and a["gaps"].equals(b["gaps"])
    calls = a["calls"]
    assert set(calls.play) == {"heuristic", "pimc", "open"} and set(calls.trump) == {"H", "NT"}
    assert (calls.n == 24).all() and calls.p_make.between(0, 1).all()
    pimc = calls[calls.play == "pimc"]
    assert (pimc.mean_tricks.between(0, 6)).all()
    # the other columns are those of the same deals without pimc
    c = odds_play(HAND, play="heuristic,open", **kw)["calls"]
    for kind in ("heuristic", "open"):
        x = calls[calls.play == kind].reset_index(drop=True)
        y = c[(c.play == kind) & c.trump.isin(["H", "NT"])].reset_index(drop=True)
        assert x.equals(y)
    # more worlds: another column (the parameter reaches the kernel)
    d = odds_play(HAND, play="heuristic,pimc:worlds=1", **kw)["calls"]
    assert not d[d.play == "pimc"].mean_tricks.reset_index(drop=True).equals(
        pimc.mean_tricks.reset_index(drop=True))


def test_pimc_class_column_deterministic():
    a = odds_classes_play(seed=4, hands=48, play="heuristic,pimc:worlds=4", block_size=48, opts=RunOptions(threads=1))
    b = odds_classes_play(seed=4, hands=48, play="heuristic,pimc:worlds=4", block_size=10, opts=RunOptions(threads=2))
    assert a["by_trumps_bowers"].equals(b["by_trumps_bowers"]) and a["gaps"].equals(b["gaps"])
    h = odds_classes_play(seed=4, hands=48, play="heuristic")["by_trumps_bowers"]
    x = a["by_trumps_bowers"]
    assert x[x.play == "heuristic"].reset_index(drop=True).equals(h.reset_index(drop=True))


def test_compare_with_a_pimc_entrant_deterministic():
    names = ["cautious", "pimc:worlds=4"]
    a = compare.compare("boulmous", names, hands=24, seed=1, block_size=24, opts=RunOptions(threads=1))
    b = compare.compare("boulmous", names, hands=24, seed=1, block_size=5, opts=RunOptions(threads=2))
    assert a["leaderboard"].equals(b["leaderboard"]) and a["pairs"].equals(b["pairs"])
    assert a["n"] == 24
    run = compare.compare_run("boulmous", names)
    assert run.total == 20_000 and run.block_size == 512      # pimc's own defaults (Duplicate.slow)


def test_cli_play_pimc_accepted(capsys, tmp_path):
    code = 0
    try:
        cli.main(["odds", "boulmous", "--hand", HAND, "--play", "heuristic,pimc:worlds=4", "--trump", "H",
                  "--hands", "16", "--quiet", "--out", str(tmp_path / "o")])
    except SystemExit as e:
        code = e.code
    out = capsys.readouterr().out
    assert code == 0
    assert "pimc [95% CI]" in out and "gap pimc - heuristics" in out and "sampling 4 layouts" in out


# ---------------------------------------------------------------------------------------------------------------
# bidding and trump choice by sampling (pimc:bid=1), the race, bad input
# ---------------------------------------------------------------------------------------------------------------
from tricksim.analysis.boulmous.config import parse_hand          # noqa: E402
from tricksim.kernels.boulmous import solver as S                  # noqa: E402


def _mask(text):
    m = 0
    for c in parse_hand(text):
        m |= 1 << c
    return np.uint64(m)


def _calls(hand, rules=None, worlds=32, seat=0, key=7):
    ra = GAME.rules_array(rules or BoulmousRules())
    sums, bids, trumps = np.zeros((5, 5), np.int64), np.zeros(4, np.int64), np.zeros(4, np.int64)
    PM.pimc_calls(seat, _mask(hand), ra, worlds, np.uint64(key), 0, S.new_workspace(), sums, bids, trumps)
    return sums, bids, trumps


def test_sampled_calls_sure_boulmous_and_hopeless_hand():
    # JH JD AH KH QH TH with hearts: six sure tricks whatever the layout -> boulmous (6) at every level, hearts
    sums, bids, trumps = _calls("JH JD AH KH QH TH")
    assert list(bids) == [6, 6, 6, 6] and trumps[3] == 1
    assert sums[0, 1] == 6 * 32 and sums[3, 1] == (6 + 3) * 32      # points, and the boulmous stakes +3
    # nothing above a ten and no jack: no call beats passing
    sums, bids, _ = _calls("9S TS 9C TC 9D QD")
    assert list(bids) == [0, 0, 0, 0]
    assert sums[0].max() < sums[4, 0]
    # the values follow rule 16: without failed_taker_keeps_tricks a failed bid scores -bid
    s_keep, _, _ = _calls("JH JD AH KH 9S TC")
    s_lose, _, _ = _calls("JH JD AH KH 9S TC", BoulmousRules(failed_taker_keeps_tricks=False))
    assert (s_lose[:4] <= s_keep[:4]).all() and (s_lose[:4] < s_keep[:4]).any()
    assert np.array_equal(s_keep[4], s_lose[4])


def test_sampled_calls_table_is_consistent():
    """The bid for each lowest legal level is the best call from that level up, when it beats passing."""
    for hand in ("JH JD AH KH 9S TC", "AS AH AD AC KS KH", "JS JC AS 9H TD KC"):
        sums, bids, trumps = _calls(hand, worlds=16)
        v = [sums[b, trumps[b]] for b in range(4)]
        assert all(sums[b, trumps[b]] == sums[b].max() for b in range(4))
        for lo in range(4):
            best = max(range(lo, 4), key=lambda b: (v[b], -b))
            assert bids[lo] == (best + 3 if v[best] > sums[4, 0] else 0)


@pytest.mark.parametrize("flags", [{}, dict(auction="multi_round", failed_taker_keeps_tricks=False),
                                   dict(left_bower_is_trump=False, trump_obligation="must_trump")])
def test_referee_accepts_sampled_bids(flags):
    rules = BoulmousRules(**flags)
    seats = ["pimc:bid=1,worlds=6", "cautious", "pimc:bid=1,worlds=6", "aggressive"]
    ds = trace(seed=11, hands=16, rules=rules, heuristics=seats, with_legal=True)
    bids = []
    for d in ds:
        assert ref.check_hand(d, dataclasses.asdict(rules)) == []
        bids += [b["bid"] for b in d["bids"] if b["seat"] in (0, 2) and b["bid"]]
    assert bids and all(3 <= b <= 6 for b in bids)
    # bid=1 changes the auction against bid=0 on the same deals (the wiring is live)
    seats0 = [s.replace("bid=1", "bid=0") for s in seats]
    d0 = trace(seed=11, hands=16, rules=rules, heuristics=seats0)
    assert [d["bids"] for d in d0] != [d["bids"] for d in ds]


def test_sampled_bidding_deterministic_across_threads_and_blocks():
    names = ["cautious", "pimc:bid=1,worlds=4"]
    a = compare.compare("boulmous", names, hands=24, seed=3, block_size=24, opts=RunOptions(threads=1))
    b = compare.compare("boulmous", names, hands=24, seed=3, block_size=5, opts=RunOptions(threads=2))
    assert a["leaderboard"].equals(b["leaderboard"]) and a["pairs"].equals(b["pairs"])
    kd, kc = GAME.keys(4)
    ra = GAME.rules_array(BoulmousRules())
    c4, p4 = GAME.heuristic_arrays(GAME.parse_seats(["pimc:bid=1,worlds=4", "random", "pimc:bid=1,worlds=4",
                                                     "cautious"]))
    whole = K.trace_deals(kd, kc, 0, 12, ra, c4, p4, pimc_key(4))
    parts = np.vstack([K.trace_deals(kd, kc, f, 4, ra, c4, p4, pimc_key(4)) for f in (0, 4, 8)])
    assert np.array_equal(whole, parts)


def test_race_zero_replays_the_play_and_a_margin_changes_few_decisions():
    kd, _ = GAME.keys(2)
    ra = GAME.rules_array(BoulmousRules())
    n = 8
    hands = S.random_deals(kd, 0, n)
    idx = np.arange(n, dtype=np.int64)
    args = (hands, idx % 4, idx % 5, np.full(n, 3, np.int64))
    cards, won = np.zeros((n, 24), np.int64), np.zeros(n, np.int64)
    PM.pimc_play_batch(*args, ra, 12, PM.GOAL_CONTRACT, np.uint64(5), 0, cards, won, PM.SHARE_TT)
    outs, nodes = {}, {}
    for race in (0.0, 1.0, 10.0):
        outs[race], nodes[race] = np.zeros((n, 24), np.int64), np.zeros(n, np.int64)
        PM.pimc_replay(*args, cards, ra, 12, PM.GOAL_CONTRACT, np.uint64(5), 0, race, outs[race], nodes[race],
                       PM.SHARE_TT)
    m = outs[0.0] >= 0
    assert m.sum() > 50 and np.array_equal(outs[0.0][m], cards[m])      # race 0: the old play, card for card
    assert np.array_equal(outs[10.0], outs[0.0])                        # a margin never reached: no change
    assert nodes[1.0].sum() < nodes[0.0].sum()                          # the race stops early...
    assert (outs[1.0][m] != cards[m]).mean() < 0.1                      # ...and changes few decisions
    assert ((outs[1.0] >= 0) == m).all()


@pytest.mark.parametrize("spec, msg", [("pimc:race=-1", "out of range"), ("pimc:race=11", "out of range"),
                                       ("pimc:bid=2", "out of range"), ("pimc:bid=0.5", "bid must be an integer"),
                                       ("pimc:bid=sample", "must be a number")])
def test_bad_pimc_parameters_one_line_exit_2(spec, msg, capsys):
    code = 0
    try:
        cli.main(["trace", "boulmous", "-H", spec, "--hands", "1"])
    except SystemExit as e:
        code = e.code
    err = capsys.readouterr().err
    assert code == 2 and msg in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
