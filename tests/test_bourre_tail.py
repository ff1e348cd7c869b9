"""Bourre's tail law and rare tails (issue 15 items 3-5): the exponent k of E[A^k] = 1 on exact
distributions, its delta-method interval against theory, the (A, B) and splitting kernels against
the pot study's own sessions, the splitting estimator against plain sampling, thread-count
invariance, chips and overflow under the estimator, and the CLI's bad input."""
import math

import numba
import numpy as np
import pytest

from tricksim import cli
from tricksim.analysis import bourre as B
from tricksim.analysis.bourre import tail as T
from tricksim.analysis.bourre import GAME
from tricksim.analysis.common import TricksimError, make_params
from tricksim.kernels import bourre as K

SEED = 15


# ---------------------------------------------------------------------------
# the exponent
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("counts, k", [([1, 0, 1], 1.0),                 # (1/2) 2^k = 1
                                       ([3, 0, 1], 2.0),                 # (1/4) 2^k = 1
                                       ([2, 1, 1], math.log2(3)),        # 1/4 + (1/4) 2^k = 1
                                       ([8, 0, 0, 1], 2.0)])             # (1/9) 3^k = 1
def test_k_solves_the_moment_equation_exactly(counts, k):
    got, case = T.solve_k(counts)
    assert case == "power"
    assert got == pytest.approx(k, rel=1e-12)


def test_k_cases_without_a_power_tail():
    assert T.solve_k([5, 5]) == (math.inf, "light")             # A <= 1: no heavy tail
    k, case = T.solve_k([0, 3, 1])                               # never resets
    assert case == "no_reset" and k != k
    k, case = T.solve_k([0, 0])
    assert case == "empty"


def test_k_interval_matches_the_delta_method_on_iid_deals():
    """Sessions of iid deals with P(A = 0, 1, 2) = (0.5, 0.3, 0.2): the interval's standard error
    is sqrt(N Var g(A)) / (N E[A^k ln A]) with g(a) = a^k - 1, and the interval covers k."""
    p = np.array([0.5, 0.3, 0.2])
    k_true, _ = T.solve_k(p * 1000)
    rng = np.random.default_rng(SEED)
    S, D = 4000, 50
    c = np.stack([rng.multinomial(D, p) for _ in range(S)])
    counts = np.zeros(K.TAIL_NA, np.int64)
    counts[:3] = c.sum(axis=0)
    cross = np.zeros((K.TAIL_NA, K.TAIL_NA), np.int64)
    cross[:3, :3] = c.T @ c
    k, case = T.solve_k(counts)
    lo, hi, se = T.k_interval(counts, cross, S, k)
    g = np.array([-1.0, 1.0 - 1.0, 2.0 ** k_true - 1])
    var_g = float((p * g ** 2).sum())
    se_theory = math.sqrt(S * D * var_g) / (S * D * 0.2 * 2 ** k_true * math.log(2))
    assert se == pytest.approx(se_theory, rel=0.1)
    assert lo < k_true < hi


# ---------------------------------------------------------------------------
# the kernels against the pot study's own sessions
# ---------------------------------------------------------------------------
def _params(heur, players=7, deals=60, rules=None):
    return make_params(SEED, rules or B.BourreRules(), GAME.parse_seats([heur], players), players=players, deals=deals)


def _srows(params, ns):
    kd, kc, ra, codes, prm = GAME.kernel_args(params)
    srows = np.zeros((ns, K.S_LEN), np.int64)
    fans = np.zeros((ns, 1), np.int64)
    K.sim_sessions(kd, kc, 0, ns, params["players"], params["deals"], params["deals"], ra, codes, prm,
                   None, srows, fans)
    return srows


def test_unsplit_roots_are_the_pot_studys_sessions():
    """With no split the splitting kernel plays exactly sim_sessions's sessions: the first
    passages of 10x/100x/1000x agree session by session; sim_tail sees the same deals."""
    params = _params("loose", deals=60)
    ns = 120
    srows = _srows(params, ns)
    levels = np.array([10, 100, 1000], np.int64)
    Y, ow, cnt = T.run_split(params, ns, levels, 1, 1)
    for p in range(3):
        passed = srows[:, K.S_PASS10 + p] < params["deals"]
        assert np.array_equal(Y[:, p] == 1.0, passed)
        assert np.all((Y[:, p] == 0) | (Y[:, p] == 1))
    assert cnt[:, K.SP_DEALS].sum() == srows[:, K.S_DEALS].sum()
    v = T.block_tail(params, 0, ns)
    assert v[K.TAIL_O_AB:K.TAIL_O_BAND].sum() == srows[:, K.S_DEALS].sum()
    assert v[K.TAIL_O_BAND:K.TAIL_O_CROSS].sum() == srows[:, K.S_DEALS].sum()
    # A = carried (tie, everyone passed) + bourre players, deal by deal
    bou = (srows[:, K.S_BOURRE:K.S_BOURRE + 9] * np.arange(9)).sum()
    carry = srows[:, K.S_OUT + K.OUT_TIE].sum() + srows[:, K.S_OUT + K.OUT_CARRY].sum()
    ab = v[K.TAIL_O_AB:K.TAIL_O_BAND].reshape(K.TAIL_NA, K.TAIL_NBB)
    assert (ab.sum(axis=1) * np.arange(K.TAIL_NA)).sum() == bou + carry
    # without a pot limit B = A x the antes: never outside 0..256 here
    assert ab[:, -1].sum() == 0 and ab[0, 1:].sum() == 0


def test_splitting_agrees_with_plain_sampling_and_is_thread_independent():
    """P(pot > 100x ante within 60 deals) under basic (about 1e-3): the splitting estimate over
    600 roots and plain sampling over 40,000 sessions agree within 4 standard errors and their 95%
    intervals overlap; the split copies give the same numbers on 1 and 2 threads."""
    params = _params("basic", deals=60)
    levels = T.split_grid((100,), 1)          # 10, 20, 40, 80, 100 chips
    R = np.array([1, 3, 8, 8, 1], np.int64)
    R[-1] = 1
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        Y1, ow1, c1 = T.run_split(params, 600, levels, R)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        Y2, ow2, c2 = T.run_split(params, 600, levels, R)
    finally:
        numba.set_num_threads(old)
    assert np.array_equal(Y1, Y2) and np.array_equal(c1, c2)
    assert c1[:, K.SP_PARTICLES].sum() > 600                      # it did split
    i = int(np.searchsorted(levels, 100))
    ps, lo, hi = T.estimate(Y1[:, i], False)
    Yp, _, _ = T.run_split(params, 40_000, levels, 1, 1, first=10_000)
    pp, plo, phi = T.estimate(Yp[:, i], True)
    assert 2e-4 < pp < 5e-3
    se_s = Y1[:, i].std(ddof=1) / math.sqrt(len(Y1))
    se_p = math.sqrt(pp * (1 - pp) / len(Yp))
    assert abs(ps - pp) < 4 * math.hypot(se_s, se_p), (ps, pp)
    assert lo <= phi and plo <= hi


def test_rare_tail_sees_what_plain_sampling_cannot_and_conserves_chips():
    """Over the same work plain sampling finds no pot past 1000x the ante, splitting gives a
    non-zero estimate and interval; the pilot-planned split factors are reproducible from the seed."""
    params = _params("basic", deals=100)
    r = T.rare_tail(params, 150, targets=(100, 1000), k=5.0)
    t = r["table"].set_index("X (x ante)")
    assert t.loc[1000, "plain_hits"] == 0 and t.loc[1000, "p_plain"] == 0
    assert 0 < t.loc[1000, "p_split"] < 1e-5 and t.loc[1000, "hi_split"] > 0 and t.loc[1000, "roots_reaching"] > 0
    assert r["violations"] == 0 and r["overflow"] == (0.0, 0.0)
    assert t.overlap.all()
    assert np.array_equal(T.plan_split(params, r["levels"], 5.0, pilot=150), r["R"])


@pytest.mark.parametrize("rules", [B.BourreRules(pot_limit=40, double_ante=True),
                                   B.BourreRules(tie="tied_only_next_hand", dealer_antes_for_all=True, all_pass="carry_over"),
                                   B.BourreRules(tie="divide_equally", bourre_penalty="fixed:5")])
def test_chips_conserved_in_every_copy_under_variants(rules):
    params = _params("loose", players=5, deals=40, rules=rules)
    levels = T.split_grid((100,), 1)
    Y, ow, cnt = T.run_split(params, 40, levels, 2, 200)
    assert cnt[:, K.SP_VIOL].sum() == 0
    assert cnt[:, K.SP_PARTICLES].sum() > 40


def test_overflow_under_splitting_is_reported_and_passes_every_level():
    rules = B.BourreRules(ante=10 ** 12)
    params = make_params(SEED, rules, GAME.parse_seats(["random:play_prob=1"], 8), players=8, deals=60)
    levels = np.array([10, 100, 1000], np.int64) * 10 ** 12
    Y, ow, cnt = T.run_split(params, 30, levels, 2, 100)
    assert ow.sum() > 0
    over = ow > 0
    assert np.all(Y[over, -1] >= ow[over] - 1e-12)
    assert cnt[:, K.SP_VIOL].sum() == 0


# ---------------------------------------------------------------------------
# the CLI
# ---------------------------------------------------------------------------
def _cli(argv, capsys):
    code = 0
    try:
        cli.main(argv)
    except SystemExit as e:
        code = e.code
    return code, *capsys.readouterr()


@pytest.mark.parametrize("extra, fragment", [
    (["--tail", "--tail-levels", "abc"], "--tail-levels"),
    (["--tail", "--tail-levels", "1000,100"], "must increase"),
    (["--tail", "--tail-levels", "1"], "--tail-levels"),
    (["--tail", "--tail-roots", "1"], "--tail-roots"),
    (["--tail", "--sweep", "players=3,4"], "--sweep"),
    (["--tail-levels", "1000"], "go with --tail"),
])
def test_bad_tail_input_is_one_line_and_exit_2(extra, fragment, capsys, tmp_path, monkeypatch):
    from tricksim.analysis import engine

    def refuse(*a, **k):
        raise AssertionError("a simulation started before the bad input was refused")
    monkeypatch.setattr(engine, "execute", refuse)
    code, out, err = _cli(["pot", "--players", "7", "--out", str(tmp_path / "run")] + extra, capsys)
    assert code == 2, (out, err)
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("tricksim: error: ") and "Traceback" not in err
    assert fragment.lower() in lines[0].lower()


def test_pot_tail_command_writes_tables_and_plot(capsys, tmp_path):
    code, out, err = _cli(["pot", "--players", "5", "--sessions", "300", "--deals", "40", "-H", "basic", "--tail",
                           "--tail-levels", "30,100", "--tail-roots", "40", "--seed", "3", "--out", str(tmp_path / "r")],
                          capsys)
    assert code == 0, err
    assert "THE TAIL LAW" in out and "tail exponent k" in out and "splitting [95% CI]" in out
    for f in ("tail_ab.csv", "tail_k.csv", "tail_survival.csv", "tail_rare.csv", "tail_law.png"):
        assert (tmp_path / "r" / f).exists(), f


def test_a_study_with_an_ev_seat_passes_ev_s_tables_to_every_run():
    """A study with an ev seat in one run passes the kernels ev's tables (zeros) in its runs without one
    (analysis/bourre/ev.py ``study_ev_form``): one compiled form per study; a study without ev keeps the form
    without ev's decisions (the first ``tricksim pot`` compiles no ev player)."""
    from tricksim.analysis.bourre.ev import EV_FORM, run_ev_tables, study_ev_form, with_ev_form
    from tricksim.analysis.bourre.sweep import sweep_settings
    basic, ev = GAME.parse_seats("basic", 7), GAME.parse_seats(["basic", "ev"] + ["basic"] * 5, 7)
    assert study_ev_form(basic, ev) and not study_ev_form(basic, basic)
    alone = B.pot_run(5, 2, 1, 3, heuristics=["basic"]).params
    assert EV_FORM not in alone and run_ev_tables(alone) is None
    marked = B.pot_run(5, 2, 1, 3, heuristics=["basic"], ev_form=True).params
    t = run_ev_tables(marked)
    assert marked[EV_FORM] and t.shape == (5, K.EV_LEN) and t.dtype == np.float64 and t.flags.c_contiguous
    assert not t.any()                   # no seat reads a table: the same deals as without one
    with_ev = make_params(3, B.BourreRules(), ev, players=7, deals=2)     # ev's shipped table: nothing to train
    assert with_ev_form(with_ev, True) == with_ev              # a run with an ev seat keeps its parameters (run id)
    assert run_ev_tables(with_ev).shape == (7, K.EV_LEN)
    rules = B.BourreRules()
    assert sweep_settings("heuristic", ["basic", "ev"], 5, rules)[1]
    assert not sweep_settings("heuristic", ["basic", "tight"], 5, rules)[1]
    assert not sweep_settings("players", [3, 4], 5, rules)[1]
    assert sweep_settings("players", [3, 4], 5, rules, ev_form=True)[1]
