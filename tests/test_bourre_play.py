"""``tricksim odds bourre --play heuristic,open`` (analysis/bourre/play.py, kernels/bourre/odds_play.py).

- the heuristics' rows equal the plain odds study's on the same deals (common random numbers);
- every deal lands in exactly one outcome per kind; rates and the paired gaps agree with the counts;
- the counts do not depend on the thread count;
- the open-hand position built from a deal record (who leads, Lo-No's forced lead, the cards known out,
  the A-K-Q holders, the active seats in order) gives the solver's answer equal to the plain Python search
  (tests/ref_solver_bourre.py) on a position built here, from the record and RULES.md, independently;
- bad --play input: one line, exit 2.
"""
import random

import numba
import numpy as np
import pytest
import ref_solver_bourre as rs

from tricksim.analysis import bourre
from tricksim.analysis.bourre.config import BourreRules, rules_array
from tricksim.analysis.bourre.play import block_odds_play, odds_play, odds_play_run
from tricksim.analysis.common import TricksimError, parse_card
from tricksim import cli
from tricksim.kernels import bourre as K
from tricksim.kernels.bourre import odds_play as O
from tricksim.kernels.bourre import solver as S

HAND, UP = "AH KH AC 4D 2S", "9H"


def test_heuristic_rows_equal_plain_odds_and_rates_add_up():
    res = odds_play(HAND, UP, players=5, seat=2, seed=3, hands=1500)
    plain = bourre.odds_hand(HAND, UP, players=5, seat=2, seed=3, hands=1500)["choices"]
    h = res["choices"][res["choices"].play == "heuristic"].reset_index(drop=True)
    for col in ("p_win", "p_tie", "p_bourre", "p_play", "exp_chips", "n"):
        assert np.allclose(h[col].to_numpy(float), plain[col].to_numpy(float)), col
    o = res["choices"][res["choices"].play == "open"]
    assert (o.p_tie.isna()).all() and (o.n == 1500).all()
    assert ((o.p_win + o.p_bourre) <= o.p_play + 1e-12).all()
    # pass: nothing to solve, both kinds at 0; discarding all five risks bourre under open-hand play
    assert (res["choices"][res["choices"]["mode"] == 0][["p_win", "p_bourre", "exp_chips"]] == 0).all().all()
    last = res["choices"][res["choices"].choice.str.startswith("play, discard 5")]
    assert last[last.play == "open"].p_bourre.iloc[0] >= last[last.play == "heuristic"].p_bourre.iloc[0]
    # the gap is the paired difference of the two rows, with an interval narrower than the unpaired one
    g = res["gaps"].set_index("choice")
    for label, d in res["choices"].groupby("choice", sort=False):
        d = d.set_index("play")
        assert g.loc[label, "gap_win"] == pytest.approx(d.loc["open", "p_win"] - d.loc["heuristic", "p_win"])
        assert g.loc[label, "gap_chips"] == pytest.approx(d.loc["open", "exp_chips"] - d.loc["heuristic", "exp_chips"])
        assert g.loc[label, "gap_chips_ci"] <= d.loc["open", "chips_ci"] + d.loc["heuristic", "chips_ci"] + 1e-12


def test_counts_are_one_outcome_per_deal_and_thread_independent():
    run, choices = odds_play_run(bourre.parse_hand(HAND), parse_card(UP), players=6, seat=1, seed=9, hands=600)
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = block_odds_play(run.params, 100, 600)
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        many = block_odds_play(run.params, 100, 600)
    finally:
        numba.set_num_threads(old)
    assert np.array_equal(one, many)
    for ci in range(len(choices)):
        j = one[ci * O.PLAY_STRIDE:ci * O.PLAY_STRIDE + O.PLAY_CELLS].reshape(K.ODDS_CATS, 9, 9, O.N_OC)
        assert j.sum() == 600
        # passed under the heuristics <=> nothing to solve; a lone player wins in both
        assert j[0].sum() == j[0, :, :, O.OC_OUT].sum() == j[..., O.OC_OUT].sum()
        assert j[2].sum() == j[2, :, :, O.OC_WIN].sum()
    # heuristics only: the open outcome is never filled, the heuristic counts are the same
    p = dict(run.params, play=["heuristic"])
    h = block_odds_play(p, 100, 600)
    for ci in range(len(choices)):
        a = h[ci * O.PLAY_STRIDE:(ci + 1) * O.PLAY_STRIDE]
        b = one[ci * O.PLAY_STRIDE:(ci + 1) * O.PLAY_STRIDE]
        assert a[:O.PLAY_CELLS].reshape(-1, O.N_OC)[:, 1:].sum() == 0
        assert np.array_equal(a[:O.PLAY_CELLS].reshape(-1, O.N_OC).sum(1), b[:O.PLAY_CELLS].reshape(-1, O.N_OC).sum(1))
        assert a[-1] == b[-1]


def _ref_rules(r: BourreRules) -> dict:
    return {k: getattr(r, k) for k in ("must_head_in_suit", "must_trump_when_void", "must_overtrump",
                                       "must_trump_even_if_cannot_win", "void_must_play_highest_trump",
                                       "cinch_rule", "cinch_knowledge", "cinch_last_player_exempt")}


def _ref_position(rec, r: BourreRules, me_seat):
    """The position at the first trick, from the record and RULES.md (rules 3-5, 8, 18) only."""
    n, dealer, up = int(rec[K.REC_N]), int(rec[K.REC_DEALER]), int(rec[K.REC_UPCARD])
    active = int(rec[K.REC_ACTIVE])
    order = [(dealer + 1 + q) % n for q in range(n)]                # the dealer's left first, the dealer last
    seats = [s for s in order if (active >> s) & 1]
    hands = [tuple(c for c in range(64) if (int(rec[K.REC_HANDS + s]) >> c) & 1) for s in seats]
    lono = bool(rec[K.REC_LONO])
    trump = None if lono else up // 16
    dealer_hand = hands[seats.index(dealer)] if dealer in seats else ()
    # a separate turn-up belongs to no one; the dealer's up-card is out when he folded or discarded it
    known = {up} if r.trump_card == "separate_turnup" or up not in dealer_hand else set()
    akq = frozenset(i for i, h in enumerate(hands) if trump is not None
                    and {trump * 16 + 10, trump * 16 + 11, trump * 16 + 12} <= set(h))
    return rs.Position(hands=tuple(hands), me=seats.index(me_seat), leader=seats.index(dealer) if lono else 0,
                       trump=trump, rules=_ref_rules(r), won=(0,) * len(seats), known_out=frozenset(known),
                       akq_holders=akq, lead_card=up if lono else None)


@pytest.mark.parametrize("rules", [BourreRules(), BourreRules(lo_no=True), BourreRules(trump_card="separate_turnup",
                                   cinch_rule="akq_in_order", declare_then_draw=True)], ids=["default", "lono", "sep"])
def test_open_position_from_a_deal_equals_the_python_search(rules):
    players = 3
    specs = bourre.parse_seats("loose", players)
    kd, kc = bourre.GAME.keys(5)
    codes, prm = bourre.heuristic_arrays(specs)
    recs, _ = K.trace_sessions(kd, kc, 0, 6, players, 12, rules_array(rules), codes, prm, None)
    ra = rules_array(rules)
    h = np.zeros(8, np.uint64)
    pos = np.zeros(S.POS_LEN, np.int64)
    ws = S.new_workspace()
    o = np.zeros(S.N_OUT, np.int64)
    rng = random.Random(1)
    checked = lono = 0
    for rec in recs.reshape(-1, K.REC_LEN):
        if rec[K.REC_NACTIVE] < 2 or rec[K.REC_NTRICKS] == 0:
            continue
        seats = [s for s in range(players) if (rec[K.REC_ACTIVE] >> s) & 1]
        me = rng.choice(seats)
        sep = rules.trump_card == "separate_turnup"
        got = O.open_outcome(rec, players, int(rec[K.REC_DEALER]), int(rec[K.REC_UPCARD]), sep, me, ra, h, pos, ws, o)
        p = _ref_position(rec, rules, me)
        win = rs.surely_wins(p)
        nb = rs.can_take(p, 1)
        assert got == (O.OC_WIN if win else O.OC_HELD if nb else O.OC_BOURRE), (p, got)
        checked += 1
        lono += bool(rec[K.REC_LONO])
        if checked == 25:
            break
    assert checked == 25 and (lono > 0) == rules.lo_no


def test_open_outcome_without_a_search():
    rec = np.zeros(K.REC_LEN, np.int64)
    h = np.zeros(8, np.uint64)
    pos = np.zeros(S.POS_LEN, np.int64)
    ws = S.new_workspace()
    o = np.zeros(S.N_OUT, np.int64)
    ra = rules_array(BourreRules())
    rec[K.REC_ACTIVE], rec[K.REC_NACTIVE] = 0b010, 1
    assert O.open_outcome(rec, 3, 2, 7, False, 0, ra, h, pos, ws, o) == O.OC_OUT      # passed
    assert O.open_outcome(rec, 3, 2, 7, False, 1, ra, h, pos, ws, o) == O.OC_WIN      # the lone player


def run_cli(argv, capsys):
    code = 0
    try:
        cli.main(argv)
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("play, msg", [("heuristic,dd", "unknown kind of play 'dd'"),
                                        ("pimc:worlds=0", "out of range"), (",", "--play is empty")])
def test_bad_play_is_one_line_exit_2(play, msg, capsys, tmp_path):
    code, out, err = run_cli(["odds", "bourre", "--hand", HAND, "--up-card", UP, "--players", "5", "--play", play,
                              "--hands", "10", "--out", str(tmp_path / "o")], capsys)
    assert code == 2 and msg in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "o").exists()
    with pytest.raises(TricksimError):
        odds_play(HAND, UP, players=5, hands=10, play=play)


def test_cli_table(tmp_path, capsys):
    code, out, err = run_cli(["odds", "bourre", "--hand", HAND, "--up-card", UP, "--players", "4", "--seat", "1",
                              "--play", "open,heuristic", "--hands", "300", "--out", str(tmp_path / "o"), "--quiet"],
                             capsys)
    assert code == 0, err
    assert "open-hand (paranoid)" in out and "ALL the other active players together against it" in out
    assert "gap, open-hand (paranoid) minus heuristics" in out and "300 random deals" in out
    assert any((tmp_path / "o").glob("play_choices*")) and any((tmp_path / "o").glob("play_gaps*"))


def test_open_position_fields():
    """Seats 1, 2 and 4 of 5 play (dealer 4): the solver's seats 0, 1, 2 in that order; seat 1 leads; the
    dealer, who discarded the up-card (a trump), shows it out; the A-K-Q holder flagged. Under Lo-No
    the dealer leads the up-card."""
    up = 16 + 7                                                            # 9H
    rec = np.zeros(K.REC_LEN, np.int64)
    rec[K.REC_ACTIVE], rec[K.REC_NACTIVE], rec[K.REC_TRUMP], rec[K.REC_UP_OUT] = 0b10110, 3, 1, 1
    held = {1: [16 + 10, 16 + 11, 16 + 12, 0, 1], 2: [2, 3, 4, 5, 6], 4: [32, 33, 34, 35, 36]}
    for s, cards in held.items():
        rec[K.REC_HANDS + s] = sum(1 << c for c in cards)
    h = np.zeros(8, np.uint64)
    pos = np.zeros(S.POS_LEN, np.int64)
    assert O.open_position(rec, 5, 4, up, False, 2, h, pos) == -1
    assert [int(x) for x in h[:3]] == [int(rec[K.REC_HANDS + s]) for s in (1, 2, 4)] and not h[3:].any()
    assert (pos[S.POS_N], pos[S.POS_ME], pos[S.POS_LEADER], pos[S.POS_TRUMP], pos[S.POS_LONO], pos[S.POS_LEAD]) == (3, 1, 0, 1, 0, -1)
    assert pos[S.POS_KNOWN] == 1 << up and pos[S.POS_AKQ] == 0b001
    rec[K.REC_UP_OUT] = 0
    O.open_position(rec, 5, 4, up, False, 4, h, pos)
    assert pos[S.POS_KNOWN] == 0 and pos[S.POS_ME] == 2
    O.open_position(rec, 5, 4, up, True, 4, h, pos)                        # a separate turn-up: seen by all
    assert pos[S.POS_KNOWN] == 1 << up
    rec[K.REC_LONO], rec[K.REC_TRUMP] = 1, -1
    rec[K.REC_HANDS + 4] = sum(1 << c for c in [up, 33, 34, 35, 36])
    O.open_position(rec, 5, 4, up, False, 1, h, pos)
    assert (pos[S.POS_LEADER], pos[S.POS_TRUMP], pos[S.POS_LONO], pos[S.POS_LEAD], pos[S.POS_AKQ]) == (2, -1, 1, up, 0)


def test_resume_and_block_size_do_not_change_the_counts(tmp_path):
    """Through the run engine: a second execution reuses every block of the run folder; other block sizes
    give the same counts (every deal a pure function of the seed and its index)."""
    from tricksim.analysis.engine import RunOptions
    cards, up = bourre.parse_hand(HAND), parse_card(UP)
    run, _ = odds_play_run(cards, up, players=4, seat=0, seed=4, hands=300, block_size=100)
    opts = RunOptions(out=tmp_path / "r", progress=False)
    a = opts.execute(run)
    b = opts.execute(run)
    assert b.reused == 3 and np.array_equal(a.counts, b.counts)
    run2, _ = odds_play_run(cards, up, players=4, seat=0, seed=4, hands=300, block_size=300)
    assert np.array_equal(RunOptions(progress=False).execute(run2).counts, a.counts)


def test_the_python_api_keeps_the_sampling_players_settings_and_checks_them_before_running(monkeypatch):
    """``odds_play(..., play="heuristic,pimc:worlds=N")`` runs the sampling player with N worlds (its settings once
    fell away between the kinds and the run, so the default was played under the label asked for), and a bad
    setting is refused before any kernel compiles or runs."""
    from tricksim.analysis.engine import RunOptions
    ran = []

    def execute(self, run):
        ran.append(run)
        raise RuntimeError("stop before the kernel")

    monkeypatch.setattr(RunOptions, "execute", execute)
    with pytest.raises(RuntimeError, match="stop before the kernel"):
        odds_play(HAND, UP, players=5, hands=10, play="heuristic,pimc:worlds=7")
    assert ran[0].params["pimc"][0] == "pimc" and ran[0].params["pimc"][1]["worlds"] == 7
    with pytest.raises(TricksimError, match="out of range"):
        odds_play(HAND, UP, players=5, hands=10, play="pimc:worlds=0")
    assert len(ran) == 1
