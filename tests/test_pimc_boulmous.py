"""The Boulmous sampling player wired in (kernels/pimc_boulmous.py, issue 12): the ``pimc`` column of
``odds boulmous --play``, ``pimc`` as an entrant of ``compare`` and a seat of ``trace``.

- the mixed kernels with no PIMC seat play exactly as kernels/boulmous.py (same records, same duplicate
  counts), so a PIMC seat is the only thing that changes a deal;
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
from tricksim.kernels import pimc_boulmous as P

HAND = "JH JD AH KH 9S TC"


def test_mixed_kernels_without_pimc_play_as_the_plain_kernels():
    specs = [GAME.parse_heuristic(h) for h in ("cautious", "aggressive", "random")]
    codes, prm = GAME.heuristic_arrays(specs)
    ids, nround = seating(GAME, 3, {})
    kd, kc = GAME.keys(5)
    ra = GAME.rules_array(BoulmousRules())
    args = (np.ascontiguousarray(codes[ids]), np.ascontiguousarray(prm[ids]), ids, 3, nround)
    plain = K.sim_duplicate(kd, kc, 0, 96, ra, *args)
    mixed = P.sim_duplicate_mixed(kd, kc, pimc_key(5), 0, 96, ra, *args)
    assert plain.sum() != 0 and np.array_equal(plain, mixed)
    c4, p4 = GAME.heuristic_arrays(GAME.parse_seats(["cautious", "random", "aggressive", "random"]))
    assert np.array_equal(K.trace_deals(kd, kc, 0, 40, ra, c4, p4), P.trace_mixed(kd, kc, pimc_key(5), 0, 40, ra, c4, p4))


@pytest.mark.parametrize("flags", [{}, dict(left_bower_is_trump=False, must_head=True, trump_obligation="must_trump"),
                                   dict(trump_obligation="must_trump_and_overtrump", failed_taker_keeps_tricks=False)])
def test_referee_accepts_pimc_play(flags):
    rules = BoulmousRules(**flags)
    seats = [["pimc:worlds=8", "cautious", "pimc:worlds=8", "aggressive"], ["pimc:worlds=4"]]
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
    assert [d["bids"] for d in plain] == [d["bids"] for d in mixed]      # pimc bids as cautious
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
