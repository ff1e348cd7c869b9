"""``tricksim odds boulmous --hand ... --play heuristic,open`` (issue 12 item 4) and the best call by expected
points plus stakes (item 6): the same deals under every kind of play, through the run engine."""
import numba
import numpy as np
import pytest

import ref_solver
from tricksim import cli
from tricksim.analysis import boulmous as B
from tricksim.analysis import engine
from tricksim.analysis.boulmous.play import _play_tables
from tricksim.analysis.engine import RunOptions
from tricksim.kernels import boulmous as K
from tricksim.kernels.boulmous import odds_play as OP
from tricksim.kernels.boulmous import solver as S
from tricksim.kernels.cards import card_str, mask_of
from tricksim.kernels.rng import seed_state

HAND = "JH JD AH KH 9S TC"


def _args(seed, seat, hand=HAND, rules=None):
    params = B.make_params(seed, rules or B.BoulmousRules(), B.parse_seats(None),
                           hand_mask=mask_of(B.parse_hand(hand)), seat=seat)
    return params, B.GAME.kernel_args(params)


def test_heuristic_column_is_the_plain_odds():
    """The heuristics' column equals ``odds_hand`` on the same deals (same deal, same decisions), and the
    per-deal kernel sums to sim_odds's counts."""
    n = 3000
    play = B.odds_play(HAND, seat=1, seed=3, hands=n, play="heuristic,open")
    plain = B.odds_hand(HAND, seat=1, seed=3, hands=n)
    h = play["calls"][play["calls"].play == "heuristic"].reset_index(drop=True)
    p = plain["calls"]
    assert list(zip(h.trump, h.bid)) == list(zip(p.trump, p.bid))
    assert np.array_equal(h.p_make.values, p.p_make.values)
    assert np.allclose(h.exp_points.values, p.exp_points.values) and np.allclose(h.exp_stakes.values,
                                                                                 p.exp_stakes.values)
    params, (kd, kc, ra, codes, prm) = _args(3, 1)
    fixed = np.uint64(params["hand_mask"])
    out = np.zeros((n, 5), np.int64)
    OP.sim_odds_tricks(kd, kc, 17, n, fixed, 1, B.config.DEALER, ra, codes, prm, out)
    agg = K.sim_odds(kd, kc, 17, n, fixed, 1, B.config.DEALER, ra, codes, prm)
    assert np.array_equal(np.concatenate([np.bincount(out[:, t], minlength=7) for t in range(5)]), agg[:35])


@pytest.mark.parametrize("seat", [0, 3])
def test_open_column_solves_the_deals_of_the_odds(seat):
    """Deal i of sim_odds_open is deal i of sim_odds (seed_state + deal_with_fixed), the hand's seat the
    taker and on lead; its value is the solver's, and on two deals the Python search's (tests/ref_solver's
    ``taker_tricks_by_search``, the exhaustive minimax's value by tests/test_solver_boulmous.py; spades, then no-trump)."""
    params, (kd, kc, ra, codes, prm) = _args(9, seat)
    fixed = np.uint64(params["hand_mask"])
    n = 40
    out = np.zeros((n, 5), np.int64)
    OP.sim_odds_open(kd, 500, n, fixed, seat, ra, out)
    rest0 = np.array(sorted(c for c in range(64) if (int(K.DECK24) >> c) & 1 and not (int(fixed) >> c) & 1),
                     np.int64)
    ws = S.new_workspace()
    trick = np.zeros(4, np.int64)
    rules = {"left_bower_is_trump": True, "must_head": False, "trump_obligation": "optional"}
    for i in range(n):
        sd = np.zeros(1, np.uint64)
        seed_state(sd, kd, 500 + i)
        rest = rest0.copy()
        hands = np.zeros(4, np.uint64)
        K.deal_with_fixed(sd, rest, fixed, seat, hands, np.int64(6))
        assert hands[seat] == fixed
        for t in range(5):
            assert S.solve(hands.copy(), seat, trick, 0, t, seat, ra, ws) == out[i, t]
        if i < 2:   # the plain minimax is slow in Python (about 12 s a deal), its AND/OR search well under 1 s
            cards = [[card_str(c) for c in range(64) if (int(hands[s]) >> c) & 1] for s in range(4)]
            t, name = [(0, "S"), (4, "NT")][i]
            assert ref_solver.taker_tricks_by_search(cards, seat, name, rules, seat) == out[i, t]


def test_threads_blocks_and_resume_do_not_change_counts(tmp_path):
    """Through the engine: 1 or 2 threads, two block sizes, a resumed run: the same exact counts, equal to
    one direct call of the block function."""
    run1 = B.odds_play_run(B.parse_hand(HAND), 0, 5, 1500, None, None, "open,heuristic", block_size=500)
    run2 = B.odds_play_run(B.parse_hand(HAND), 0, 5, 1500, None, None, "heuristic,open", block_size=1024)
    assert run1.params["play"] == ["heuristic", "open"]
    old = numba.get_num_threads()
    try:
        a = RunOptions(threads=1).execute(run1)
        b = RunOptions(threads=numba.config.NUMBA_NUM_THREADS).execute(run1)
    finally:
        numba.set_num_threads(old)
    c = engine.execute(run2, None, progress=False)
    direct = B.block_odds_play(run1.params, 0, 1500)
    assert np.array_equal(a.counts, b.counts) and np.array_equal(a.counts, c.counts)
    assert np.array_equal(a.counts, direct) and a.counts.sum() == 5 * 1500
    out = tmp_path / "run"
    first = RunOptions(out=out).execute(run1)
    again = RunOptions(out=out).execute(run1)
    assert again.reused == again.blocks == 3 and np.array_equal(first.counts, again.counts)
    assert np.array_equal(first.counts, a.counts)


def test_gap_is_the_paired_difference_of_the_same_deals():
    """The decoded tables against a direct computation from the per-deal tricks."""
    params, (kd, kc, ra, codes, prm) = _args(11, 0)
    params["play"] = ["heuristic", "open"]
    n = 2000
    fixed = np.uint64(params["hand_mask"])
    h = np.zeros((n, 5), np.int64)
    o = np.zeros((n, 5), np.int64)
    OP.sim_odds_tricks(kd, kc, 0, n, fixed, 0, B.config.DEALER, ra, codes, prm, h)
    OP.sim_odds_open(kd, 0, n, fixed, 0, ra, o)
    calls, gaps = _play_tables(B.block_odds_play(params, 0, n), ["heuristic", "open"], B.BoulmousRules())
    for t, name in enumerate(B.TRUMP_NAMES):
        for bid in range(3, 7):
            c = calls[(calls.trump == name) & (calls.bid == bid)].set_index("play")
            assert c.p_make["heuristic"] == pytest.approx((h[:, t] >= bid).mean())
            assert c.p_make["open"] == pytest.approx((o[:, t] >= bid).mean())
            g = gaps[(gaps.trump == name) & (gaps.bid == bid)].iloc[0]
            d = (o[:, t] >= bid).astype(float) - (h[:, t] >= bid)
            assert g.gap == pytest.approx(d.mean())
            if d.std() > 0:
                assert g.gap_ci == pytest.approx(1.96 * d.std(ddof=1) / np.sqrt(n), rel=0.01)
            assert g.tricks_gap == pytest.approx((o[:, t] - h[:, t]).mean())


def run_cli(argv, capsys):
    code = 0
    try:
        cli.main(argv)
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_play_table(capsys, tmp_path):
    code, out, err = run_cli(["odds", "boulmous", "--hand", HAND, "--play", "heuristic,open", "--hands", "600",
                              "--trump", "H", "--trump", "D", "--quiet", "--out", str(tmp_path / "r")], capsys)
    assert code == 0, err
    assert "heuristics [95% CI]" in out and "open-hand [95% CI]" in out and "gap open-hand - heuristics" in out
    assert "not a bound" in out and "expected points plus stakes" in out
    assert (tmp_path / "r" / "play_calls.csv").exists() and (tmp_path / "r" / "play_gaps.csv").exists()


def test_six_top_trumps_are_called_six():
    """Item 6: a sure boulmous is called 6 (the +3 stakes break the tie on points), by the plain odds and by
    every kind of play."""
    hand = "JH JD AH KH QH TH"
    res = B.odds_hand(hand, hands=500, seed=1, trumps=["H"])
    assert res["best"].best_call.iloc[0] == "6 H"
    assert res["best"].exp_value.iloc[0] == pytest.approx(9.0)
    play = B.odds_play(hand, hands=300, seed=1, trumps=["H", "S"])
    assert list(play["best"].best_call) == ["6 H", "6 H"]
    assert play["best"].exp_value.tolist() == [9.0, 9.0]


def test_open_hand_is_never_called_a_bound():
    """Issue 12 item 5: open-hand (double-dummy) play is both sides playing perfectly, not a bound on the
    heuristics' result: no printed or reported text calls it one."""
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent
    files = [root / "cli.py", root / "README.md", *sorted((root / "docs").rglob("*.md")),
             *sorted((root / "reports").glob("*.md")), *sorted((root / "analysis").rglob("*.py"))]
    for f in files:
        text = f.read_text().lower().replace("\n", " ")
        for phrase in ("perfect-play bound", "double-dummy bound", "double dummy bound"):
            assert phrase not in text, (f, phrase)
    from tricksim.analysis.boulmous.views import PLAY_NOTE
    assert "not a bound" in PLAY_NOTE


def test_bench_solver(capsys):
    """``tricksim bench --solver``: whole-deal open-hand solves per second, 1 thread and all threads."""
    (label, fn), = B.solver_bench_cases(0)
    assert fn(0, 70) == 70
    code, out, err = run_cli(["bench", "--solver", "--hands", "20", "--repeats", "1"], capsys)   # the command, not a timing
    assert code == 0, err
    assert "open-hand solve, whole deal" in out and "deals/s 1 thread" in out
    code, out, err = run_cli(["bench", "--solver", "--threads", "99"], capsys)
    assert code == 2 and "--threads 99" in err


def test_class_table_under_each_kind_of_play():
    """``tricksim odds boulmous --play heuristic,open`` without --hand: the heuristics' rows are odds_classes's
    on the same deals; 1 or 2 threads and two block sizes give the same counts; the open-hand tricks are the
    solver's for the heuristic's trump, the first to speak on lead."""
    n = 4000
    res = B.odds_classes_play(seed=2, hands=n, play="open,heuristic", block_size=1500)
    plain = B.odds_classes(seed=2, hands=n)["by_trumps_bowers"]
    h = res["by_trumps_bowers"]
    h = h[h.play == "heuristic"].reset_index(drop=True)
    for col in ("trumps", "bowers", "n", "p3", "p4", "p5", "p6"):
        assert np.array_equal(h[col].values, plain[col].values), col
    assert set(res["gaps"].play) == {"open"}
    run = B.classes_play_run(2, n, play="heuristic,open", block_size=1000)
    old = numba.get_num_threads()
    try:
        a = RunOptions(threads=1).execute(run)
        b = RunOptions(threads=numba.config.NUMBA_NUM_THREADS).execute(run)
    finally:
        numba.set_num_threads(old)
    assert np.array_equal(a.counts, b.counts)
    assert np.array_equal(a.counts, B.block_classes_play(run.params, 0, n))
    params = run.params
    kd, kc, ra, codes, prm = B.GAME.kernel_args(params)
    out = np.zeros((30, 3), np.int64)
    OP.sim_classes_play(kd, kc, 0, 30, ra, codes, prm, True, out)
    deals = S.random_deals(kd, 0, 30)
    ws = S.new_workspace()
    for i in range(30):
        if out[i, 0] < 0:
            continue
        # the trump is the heuristic's choice: one of the four suits gives the class and the solver's value
        vals = [S.solve(deals[i].copy(), 0, np.zeros(4, np.int64), 0, t, 0, ra, ws) for t in range(4)]
        assert out[i, 2] in vals


def test_cli_class_table_with_play(capsys, tmp_path):
    code, out, err = run_cli(["odds", "boulmous", "--play", "heuristic,open", "--hands", "2000", "--quiet",
                              "--out", str(tmp_path / "r")], capsys)
    assert code == 0, err
    assert "bid 3 heuristics" in out and "bid 3 open-hand" in out and "not a bound" in out
    assert (tmp_path / "r" / "play_by_trumps_bowers.csv").exists()
