"""Score-aware bidding (``score_aware=1`` by P(win), ``2`` by money, analysis/boulmous/equity/saware.py) and the
whole-game duplicate comparison (``compare boulmous --games``, analysis/compare/games.py): the default stays
bit-identical and score_aware=1 unchanged (pinned before score_aware=2), the thresholds on constructed
tables, p* by P(win) and by money against direct computations, p*'s edge cases, the calibration fit, the
games compare's reproducibility and balance, and the bad input."""
import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from tricksim import cli
from tricksim.analysis import engine
from tricksim.analysis.boulmous import GAME
from tricksim.analysis.compare.games import compare_games
from tricksim.analysis.boulmous.equity import table as E
from tricksim.analysis.boulmous.equity import saware as SA
from tricksim.kernels import boulmous as K
from tricksim.kernels.boulmous import equity as KE

SMALL = 9          # a small target: small tables, short games


@pytest.fixture(autouse=True)
def small_samples(monkeypatch, tmp_path_factory):
    """Small outcome samples and calibrations, in a cache of the test session's own."""
    monkeypatch.setattr(SA, "TABLE_DEALS", 400_000)
    monkeypatch.setattr(SA, "CAL_DEALS", 200_000)


def _arrays(heur, target=SMALL):
    rules = GAME.rules_from({"target": target})
    specs = GAME.parse_seats(heur)
    codes, prm = GAME.heuristic_arrays(specs)
    return rules, specs, GAME.rules_array(rules), codes, prm


def _bin(v):
    return int(np.floor((v - K.SA_VMIN) / K.SA_STEP + 1e-6))


def _mimic(margin, bmargin=0.5):
    """The calibration under which a score-aware seat, with p* = 1/2 in every state, bids exactly as the plain
    heuristic with ``margin`` and ``boulmous_margin``: the chance of b jumps from 0 to 1 at the bin of
    b + margin (6: 6 + margin + bmargin, where the plain heuristic jumps)."""
    cal = np.zeros((K.SA_NBINS, 4))
    for b in range(3, 6):
        cal[_bin(b + margin):, b - 3] = 1.0
    cal[_bin(6 + margin + bmargin):, 3] = 1.0
    return cal


def test_score_aware_0_is_the_default_and_identical():
    rules, specs, ra, codes, prm = _arrays(["cautious"], 21)
    _, _, _, codes0, prm0 = _arrays(["cautious:score_aware=0"], 21)
    assert (prm == prm0).all() and prm[:, K.P_SCORE_AWARE].sum() == 0
    kd, kc = GAME.keys(3)
    a = K.sim_games(kd, kc, 0, 2000, ra, codes, prm, *K.no_score_aware())
    # score-aware arrays that a plain seat never reads change nothing
    junk = np.full((2, 10, 4, 4), 0.5, np.float32), np.random.default_rng(0).random((4, K.SA_NBINS, 4))
    b = K.sim_games(kd, kc, 0, 2000, ra, codes, prm, *junk)
    assert (a == b).all()


@pytest.mark.parametrize("crit", [1, 2])
def test_thresholds_mimicking_the_heuristic_reproduce_it(crit):
    """The score-aware path (play_game -> sa_thresholds -> choose_bid) with thresholds at the heuristic's own
    bid levels plays every game exactly as the plain heuristic, by either criterion (p* of the other
    criterion's slot never read)."""
    rules, specs, ra, codes, prm = _arrays(["cautious"])
    L = SMALL + 5 - K.SA_FLOOR + 1
    pstar = np.full((2, L ** 4, 4, 4), 0.5, np.float32)
    pstar[2 - crit] = 2.0
    prm_sa = prm.copy()
    prm_sa[0, K.P_SCORE_AWARE] = crit
    prm_sa[2, K.P_SCORE_AWARE] = crit
    cal = np.zeros((4, K.SA_NBINS, 4))
    cal[0] = cal[2] = _mimic(0.5)
    kd, kc = GAME.keys(5)
    a = K.sim_games(kd, kc, 0, 3000, ra, codes, prm, *K.no_score_aware())
    b = K.sim_games(kd, kc, 0, 3000, ra, codes, prm_sa, pstar, cal)
    assert (a == b).all()
    # and thresholds one bin higher for bid 3 change some games
    cal[0] = _mimic(0.5)
    cal[0, _bin(3.5), 0] = 0.0
    c = K.sim_games(kd, kc, 0, 3000, ra, codes, prm_sa, pstar, cal)
    assert not (a == c).all()


def _game_log(pstar, cal, prm, ra, codes, g):
    kd, kc = GAME.keys(11)
    st, sd = np.zeros(1, np.uint64), np.zeros(1, np.uint64)
    from tricksim.kernels.rng import seed_state
    seed_state(sd, kd, g)
    seed_state(st, kc, g)
    log = np.zeros((K.MAX_DEALS_PER_GAME, K.LOG_W), np.int64)
    z4 = lambda: np.zeros(4, np.int64)          # noqa: E731
    w, nd = K.play_game(sd, st, ra, codes, prm, np.int64(ra[K.R_LEFT_BOWER_TRUMP]), np.zeros(K.REC_LEN, np.int64),
                        np.zeros(24, np.int64), np.zeros(4, np.uint64), np.zeros(4, np.uint64), z4(), z4(), z4(), z4(),
                        log, True, z4(), np.int64(0), pstar, cal, np.zeros((4, 4), np.int64))
    return log[:nd]


@pytest.mark.parametrize("crit", [1, 2])
@pytest.mark.parametrize("p, bids", [(-1.0, "always"), (2.0, "never")])
def test_worthless_and_decisive_states(p, bids, crit):
    """p* = -1 (bidding never worse than passing: the seat bids whenever it may) and p* = 2 (never better:
    it never bids), whatever its hand; the seat reads the p* of its criterion (the other slot says the
    opposite)."""
    rules, specs, ra, codes, prm = _arrays(["cautious"])
    L = SMALL + 5 - K.SA_FLOOR + 1
    pstar = np.full((2, L ** 4, 4, 4), p, np.float32)
    pstar[2 - crit] = 1.0 - p
    prm = prm.copy()
    prm[1, K.P_SCORE_AWARE] = crit
    cal = np.zeros((4, K.SA_NBINS, 4))
    cal[1] = _mimic(0.5)
    spoke = took = 0
    for g in range(40):
        for row in _game_log(pstar, cal, prm, ra, codes, g):
            for j in range(row[K.REC_NBIDS]):
                if row[K.REC_BIDS + 2 * j] == 1:
                    before = [row[K.REC_BIDS + 2 * i + 1] for i in range(j)]
                    if max(before, default=0) < 6:
                        spoke += 1
                        took += row[K.REC_BIDS + 2 * j + 1] > 0
    assert spoke > 100
    assert took == (spoke if bids == "always" else 0)


def test_sa_thresholds_binary_search():
    L = SMALL + 5 - K.SA_FLOOR + 1
    pstar = np.zeros((L ** 4, 4, 4), np.float32)
    scores, dealer, seat = np.array([3, -9, 8, 40], np.int64), 1, 0
    y = [min(max(int(scores[(dealer + 1 + r) % 4]), K.SA_FLOOR), SMALL + 5) for r in range(4)]
    idx = 0
    for v in y:
        idx = idx * L + v - K.SA_FLOOR
    rel = (seat - dealer - 1) % 4
    pstar[idx, rel] = [0.3, -1.0, 2.0, 0.95]
    cal = np.tile(np.linspace(0, 1, K.SA_NBINS)[:, None], (1, 4))
    sab = np.zeros((4, 4), np.int64)
    K.sa_thresholds(pstar, cal, scores, np.int64(dealer), np.int64(seat), np.int64(SMALL), sab)
    want = [int(np.argmax(cal[:, 0] >= np.float32(0.3))), 0, K.SA_NBINS, int(np.argmax(cal[:, 3] >= np.float32(0.95)))]
    assert list(sab[seat]) == want


def test_pstar_against_a_direct_computation():
    """``KE.bid_pstar`` against numpy over ``KE.values_after`` at a few states (a table at target 9)."""
    rules, specs, *_ = _arrays(["cautious:score_aware=1"])
    t = SA.table_for(specs, rules)
    p = SA.pstar(t)
    d = SA.decode_bids(t.counts, rules)
    a = t.args()
    for scores, dealer in [([0, 0, 0, 0], 3), ([8, 2, -3, 5], 1), ([7, 8, 8, 0], 0), ([-6, -6, 8, 8], 2)]:
        y = E.canonical(scores, dealer)
        v = KE.values_after(t.V, np.array(y, np.int64), d["delta"], d["taker"], d["box"], d["imm"], *a[5:])
        for r in range(4):
            pas = (d["contract"] == 0) & (d["taker"] != r)
            w_pass = (d["prob"][pas] * v[pas, r]).sum() / d["prob"][pas].sum()
            for b in range(3, 7):
                m = (d["contract"] == b) & (d["taker"] == r) & (d["made"] == 1)
                f = (d["contract"] == b) & (d["taker"] == r) & (d["made"] == 0)
                wm = (d["prob"][m] * v[m, r]).sum() / d["prob"][m].sum()
                wf = (d["prob"][f] * v[f, r]).sum() / d["prob"][f].sum()
                want = -1.0 if wf >= w_pass else (2.0 if wm <= w_pass else (w_pass - wf) / (wm - wf))
                assert p[t.index(scores, dealer), r, b - 3] == pytest.approx(want, abs=1e-6)
    # the leader at 8 of 9 wins with any trick, passing too: a bid asks more of him than of the others
    i = t.index([8, 0, 0, 0], 3)
    assert p[i, 0, 0] > max(p[i, 1, 0], p[i, 2, 0], p[i, 3, 0]) + 0.1


def _settle(w, boxes, wpo):
    """Rule 18 a-b for one winner ``w``: each seat's money (written out here, not the table's code)."""
    m = np.zeros(4)
    for o in range(4):
        if o != w:
            amt = 1 + boxes[o] - wpo * boxes[w]
            m[w] += amt
            m[o] -= amt
    return m


def _money_after(t, d, scores, dealer):
    """float64[n outcomes, 4]: each canonical seat's expected money after each outcome of ``decode_bids``
    from ``scores`` with ``dealer`` dealing, from the table's public values (``Table.state`` with the
    deal's box, rule 17 on the scores, rule 18 written out): independent of ``KE.bid_pstar``."""
    rules = t.rules
    assert rules.tie_break == "play_on"
    wpo = float(rules.winner_pays_own_boxes)
    y = np.array(E.canonical(scores, dealer))
    out = np.zeros((len(d["prob"]), 4))
    for k in range(len(d["prob"])):
        yn = y + d["delta"][k]
        boxes = np.zeros(4, np.int64)
        if d["box"][k]:
            boxes[d["taker"][k]] = 1
        top = yn.max()
        tied = np.nonzero(yn == top)[0]
        if top >= t.target and (len(tied) == 1 or top > t.ceil):
            m = np.mean([_settle(w, boxes, wpo) for w in tied], axis=0)    # a tie above the ceiling: shared
        else:
            ab = [0] * 4
            bx = [0] * 4
            for r in range(4):
                ab[(dealer + 1 + r) % 4] = max(int(yn[r]), t.floor)
                bx[(dealer + 1 + r) % 4] = int(boxes[r])
            v = t.state(ab, (dealer + 1) % 4, bx)
            m = np.array([v[4 + (dealer + 1 + r) % 4] for r in range(4)])
        out[k] = m + d["imm"][k]
    return out


def _pstar_numpy(v_pass, v_made, v_fail):
    if v_fail >= v_pass:
        return -1.0
    if v_made <= v_pass:
        return 2.0
    return (v_pass - v_fail) / (v_made - v_fail)


def test_money_pstar_against_numpy_from_the_table():
    """p* by money (``score_aware=2``): M_made, M_fail, M_pass averaged over the same deals as P(win)'s, the
    money after each deal read from ``Table.state`` (the box of the deal added as a box already made)."""
    rules, specs, *_ = _arrays(["cautious:score_aware=2"])
    t = SA.table_for(specs, rules)
    p = SA.pstar(t, 2)
    assert p.dtype == np.float32 and p.shape == SA.pstar(t, 1).shape
    assert not (p == SA.pstar(t, 1)).all()
    d = SA.decode_bids(t.counts, rules)
    prob = d["prob"]
    seen = set()
    for scores, dealer in [([0, 0, 0, 0], 3), ([8, 2, -3, 5], 1), ([7, 8, 8, 0], 0), ([-6, -6, 8, 8], 2),
                           ([3, 5, 1, 6], 2)]:
        v = _money_after(t, d, scores, dealer)
        for r in range(4):
            pas = (d["contract"] == 0) & (d["taker"] != r)
            m_pass = (prob[pas] * v[pas, r]).sum() / prob[pas].sum()
            for b in range(3, 7):
                m = (d["contract"] == b) & (d["taker"] == r) & (d["made"] == 1)
                f = (d["contract"] == b) & (d["taker"] == r) & (d["made"] == 0)
                m_made = (prob[m] * v[m, r]).sum() / prob[m].sum()
                m_fail = (prob[f] * v[f, r]).sum() / prob[f].sum()
                want = _pstar_numpy(m_pass, m_made, m_fail)
                seen.add(want if want in (-1.0, 2.0) else 0.5)
                assert p[t.index(scores, dealer), r, b - 3] == pytest.approx(want, abs=1e-5)
    assert 0.5 in seen
    # cached beside p* by P(win), under its own key
    from tricksim.analysis.boulmous.equity import outcomes as O
    keys = [O.cache_key(kind, t.rules, [], table=t.key) for kind, _ in SA.CRITERIA.values()]
    assert keys[0] != keys[1]
    assert (O.load(keys[1])["pstar"] == p).all() and (O.load(keys[0])["pstar"] == SA.pstar(t, 1)).all()


@pytest.mark.parametrize("made, fail, want", [
    (2.0, -1.0, 1 / 3),        # the formula
    (-1.0, -0.5, 2.0),         # made <= fail < pass: never bid
    (-0.5, -0.5, 2.0),         # made == fail < pass: never bid
    (-1.0, 0.5, -1.0),         # fail >= pass (and made < fail): always bid
    (0.5, 0.0, -1.0),          # fail == pass: always bid
])
def test_pstar_edge_cases(made, fail, want):
    """``KE.bid_pstar`` on a constructed distribution (a table of zeros; every deal leaves the scores as they
    are): seat 0 (dealer's left) takes 3 and makes it with money ``made`` or fails with ``fail``; passing is
    worth 0.  Bids without such deals in the sample: 2 (never)."""
    rules = GAME.rules_from({"target": SMALL})
    F, C = K.SA_FLOOR, SMALL + 5
    L = C - F + 1
    V = np.zeros((L ** 4, 8))
    prob = np.array([0.5, 0.25, 0.25])
    delta = np.zeros((3, 4), np.int64)
    taker = np.array([-1, 0, 0], np.int64)
    contract = np.array([0, 3, 3], np.int64)
    made_ = np.array([0, 1, 0], np.int64)
    box = np.array([0, 0, 1], np.int64)
    imm = np.zeros((3, 4))
    imm[1, 0] = made
    imm[2, 0] = fail + 1.0          # the failed deal's box costs 1 when nobody can win (P(win) 0 everywhere)
    settle0, coef = E.settlement(rules)
    args = (V, prob, delta, taker, contract, made_, box, imm, np.int64(SMALL), np.int64(F), np.int64(C), np.int64(0),
            0.0, settle0, coef)
    i = ((0 - F) * L + (0 - F)) * L * L + (0 - F) * L + (0 - F)
    p = KE.bid_pstar(*args, 4)
    assert p[i, 0, 0] == pytest.approx(want, abs=1e-7)
    assert (p[i, 0, 1:] == 2.0).all() and (p[i, 1:, :] == 2.0).all()
    w = KE.bid_pstar(*args, 0)          # by P(win): all zero, failing is as good as passing
    assert w[i, 0, 0] == -1.0


def test_decode_bids_keeps_every_deal():
    rules, specs, *_ = _arrays(["cautious:score_aware=1"])
    t = SA.table_for(specs, rules)
    d = SA.decode_bids(t.counts, rules)
    played = d["contract"] == 0
    assert d["prob"][played].sum() == pytest.approx(1.0)
    for b in range(3, 7):
        sel = d["contract"] == b
        # every deal some seat took appears once per bid
        assert d["prob"][sel].sum() == pytest.approx(d["prob"][played & (d["taker"] >= 0)].sum())
    fail = (d["contract"] == 4) & (d["made"] == 0)
    assert (d["box"][fail] == 1).all()


def test_calibration_fit():
    assert list(SA.pava(np.array([0.1, 0.5, 0.3, 0.9]), np.array([1.0, 1.0, 3.0, 1.0]))) == \
        pytest.approx([0.1, 0.35, 0.35, 0.9])
    counts = np.zeros((K.SA_NBINS, 7), np.int64)
    counts[40, 2], counts[40, 4] = 3, 1            # bin 40: P(>= 3) = 1/4
    counts[50, 1], counts[50, 3] = 1, 1            # bin 50: 1/2
    counts[45, 6] = 1                              # bin 45: 1, pooled with bin 50 to 2/3
    fit = SA.fit_calibration(counts.ravel())
    assert fit[39, 0] == 0 and fit[40, 0] == pytest.approx(0.25) and fit[44, 0] == pytest.approx(0.25)
    assert fit[45, 0] == pytest.approx(2 / 3) and fit[50, 0] == pytest.approx(2 / 3) and fit[-1, 0] == pytest.approx(2 / 3)
    assert (np.diff(fit, axis=0) >= 0).all()
    # 6 tricks: bin 45 (1 of 1) and bin 50 (0 of 2) pooled
    assert fit[40, 3] == 0 and fit[45, 3] == pytest.approx(1 / 3) and fit[50, 3] == pytest.approx(1 / 3)


def test_calibration_measured_is_monotone_and_sensible():
    rules, specs, *_ = _arrays(["cautious:score_aware=1"])
    cal = SA.calibration(specs[0], rules)
    assert (np.diff(cal, axis=0) >= -1e-15).all()
    assert (cal[:, 0] >= cal[:, 1]).all() and (cal[:, 1] >= cal[:, 3]).all()     # making 3 is easier than 4, 6
    assert cal[_bin(1.0), 0] < 0.2 and cal[_bin(5.0), 0] > 0.8


def test_calibration_runs_in_its_own_folder(tmp_path):
    """The calibration's engine run writes below the caller's run folder, never over its manifest."""
    rules, specs, *_ = _arrays(["cautious:score_aware=1"], 10)
    SA.calibration(specs[0], rules, engine.RunOptions(out=tmp_path / "run"))
    assert (tmp_path / "run" / "bid_calibration" / "manifest.json").exists()
    assert not (tmp_path / "run" / "manifest.json").exists()


def _games(names, n, **kw):
    return compare_games(GAME, names, n, seed=4, rules=GAME.rules_from({"target": SMALL}), **kw)


@pytest.mark.parametrize("names", [["cautious", "cautious:score_aware=1", "aggressive"],
                                   ["cautious", "cautious:score_aware=1", "cautious:score_aware=2"]])
def test_games_compare_reproducible_across_threads_and_blocks(names, tmp_path):
    """Identical tables through the engine for 1 or 2 threads, blocks of 64 or 256 and any order of the names,
    score_aware=2 beside score_aware=1 at one table too (where the two play different games)."""
    a = _games(names, 300, block_size=64, opts=engine.RunOptions(out=tmp_path / "a", threads=1))
    b = _games(names, 300, block_size=256, opts=engine.RunOptions(out=tmp_path / "b"))
    c = _games(list(reversed(names)), 300, block_size=100)
    key = ["metric", "heuristic"]
    for col in ("mean", "ci"):
        assert (a["leaderboard"][col].to_numpy() == b["leaderboard"][col].to_numpy()).all()
        cc = c["leaderboard"].set_index(key).loc[list(a["leaderboard"].set_index(key).index)]
        assert (a["leaderboard"][col].to_numpy() == cc[col].to_numpy()).all()
    assert (a["pairs"]["diff"].to_numpy() == b["pairs"]["diff"].to_numpy()).all()
    assert a["abandoned"] == 0 and a["mean_deals"] > 2
    if "cautious:score_aware=2" in names:
        st = a["leaderboard"].set_index(key)["mean"]
        assert st[("stakes", "cautious:score_aware=1")] != st[("stakes", "cautious:score_aware=2")]


def test_money_aware_seat_reads_the_money_pstar():
    """A score_aware=2 seat plays exactly as a score_aware=1 seat given the money p* in the P(win) slot."""
    rules, specs, ra, codes, prm = _arrays(["cautious:score_aware=2", "cautious", "aggressive", "cautious"])
    p, cal = SA.game_arrays(specs, rules)
    t = SA.table_for(specs, rules)
    assert p.shape[0] == 2 and (p[1] == SA.pstar(t, 2)).all() and not p[0].any()
    kd, kc = GAME.keys(7)
    a = K.sim_games(kd, kc, 0, 1000, ra, codes, prm, p, cal)
    prm1 = prm.copy()
    prm1[0, K.P_SCORE_AWARE] = 1.0
    b = K.sim_games(kd, kc, 0, 1000, ra, codes, prm1, np.ascontiguousarray(p[::-1]), cal)
    assert (a == b).all()
    p1 = np.stack([SA.pstar(t, 1), SA.pstar(t, 2)])
    c = K.sim_games(kd, kc, 0, 1000, ra, codes, prm1, p1, cal)
    assert not (a == c).all()


def test_score_aware_0_and_1_unchanged():
    """Results pinned on the commit before score_aware=2 (e8f6301, tests/golden/score_aware.json): plain
    whole games, p* by P(win) and the calibration (sha256 of their bytes), whole games with a score_aware=1
    seat, and the whole-game compare's counts with one."""
    from tricksim.analysis.compare import games as G
    from tricksim.analysis.compare.design import entrant_specs
    gold = json.loads((Path(__file__).parent / "golden" / "score_aware.json").read_text())
    rules21, specs, ra, codes, prm = _arrays(["cautious"], 21)
    kd, kc = GAME.keys(3)
    assert K.sim_games(kd, kc, 0, 2000, ra, codes, prm, *K.no_score_aware()).tolist() == gold["sa0_sim_games"]
    rules, specs, ra, codes, prm = _arrays(["cautious:score_aware=1", "cautious", "aggressive", "cautious"])
    p, cal = SA.game_arrays(specs, rules)
    sha = lambda x: hashlib.sha256(np.ascontiguousarray(x).tobytes()).hexdigest()   # noqa: E731
    assert sha(p[0]) == gold["sa1_pstar_sha"] and sha(cal) == gold["sa1_cal_sha"]
    kd, kc = GAME.keys(7)
    assert K.sim_games(kd, kc, 0, 1000, ra, codes, prm, p, cal).tolist() == gold["sa1_sim_games"]
    run = G.games_run(GAME, entrant_specs(GAME, ["cautious", "cautious:score_aware=1", "aggressive"], None), 300, 4,
                      rules)
    from tricksim.analysis.boulmous.whole_games import block_games_duplicate
    assert block_games_duplicate(run.params, 0, 300).tolist() == gold["sa1_games_duplicate"]


def test_games_rotation_is_balanced():
    """Two copies of one deterministic heuristic: every seating plays the same games, so each entrant wins
    exactly a quarter of the games per seat and the money sums to zero, with no difference at all."""
    res = _games(["cautious", "cautious:margin=0.5"], 200)
    b = res["leaderboard"]
    wins = b[b.metric == "wins"]["mean"].to_numpy()
    assert wins[0] == wins[1]
    stakes = b[b.metric == "stakes"]["mean"].to_numpy()
    assert stakes[0] == stakes[1] == 0
    p = res["pairs"]
    assert (p["diff"] == 0).all()


def test_games_compare_counts_against_sim_games():
    """One seating of the games compare is ``sim_games`` with that seating (the same games: deals from the
    game's stream, the decisions of seating 0 from stream 0 of the game's decision key)."""
    rules, specs, ra, codes, prm = _arrays(["cautious", "aggressive", "cautious", "aggressive"])
    kd, kc = GAME.keys(8)
    ids = np.array([[0, 1, 0, 1], [1, 0, 1, 0]], np.int64)
    c2, p2 = GAME.heuristic_arrays([specs[0], specs[1]])
    pstar, cal = K.no_score_aware()
    cals = np.zeros((2, 4, K.SA_NBINS, 4))
    out = KE.sim_games_duplicate(kd, kc, 0, 500, ra, np.ascontiguousarray(c2[ids]), np.ascontiguousarray(p2[ids]),
                                 ids, 2, 1, pstar, cals)
    a = K.sim_games(kd, kc, 0, 500, ra, codes, prm, pstar, cal)
    # cautious and aggressive draw nothing from the decision stream: seating 0 plays sim_games' games;
    # layout (k = 2, one round): n_c, then per metric S (2), Q (4), P (4), M (2 x 2)
    assert out[0] == 500
    assert (out[11], out[12]) == (a[4] + a[6], a[5] + a[7])          # games won, seating 0, per entrant
    assert (out[25], out[26]) == (a[0] + a[2], a[1] + a[3])          # stakes
    assert (out[13], out[14]) == (out[1] - out[11], out[2] - out[12])  # seating 1 = the sums less seating 0's


# ---------------------------------------------------------------------------
# bad input: one line, exit 2
# ---------------------------------------------------------------------------
HAND = "JH QH TH AS KS 9D"
BAD = [
    (["stakes", "boulmous", "-H", "cautious:score_aware=3", "--games", "10"], "score_aware"),
    (["stakes", "boulmous", "-H", "cautious:score_aware=0.5", "--games", "10"], "score_aware must be 0, 1 or 2"),
    (["stakes", "boulmous", "-H", "cautious:score_aware=1.5", "--games", "10"], "score_aware must be 0, 1 or 2"),
    (["compare", "boulmous", "cautious", "cautious:score_aware=1.5", "--games", "10"], "must be 0, 1 or 2"),
    (["compare", "boulmous", "cautious", "cautious:score_aware=0.5", "--hands", "10"], "must be 0, 1 or 2"),
    (["stakes", "boulmous", "-H", "cautious:score_aware=2", "--games", "10", "-r", "tie_break=shared_win"],
     "not computed under tie_break=shared_win"),
    (["compare", "boulmous", "cautious", "cautious:score_aware=2", "--games", "10", "-r", "tie_break=shared_win"],
     "not computed under tie_break=shared_win"),
    (["odds", "boulmous", "--hand", HAND, "-H", "cautious:score_aware=2", "--hands", "100"], "whole games"),
    (["compare", "boulmous", "cautious", "cautious:score_aware=2", "--hands", "100"], "--games"),
    (["compare", "boulmous", "pimc:score_aware=2", "cautious", "--games", "10"], "pimc"),
    (["trace", "boulmous", "--hands", "1", "-H", "cautious:score_aware=2"], "whole games"),
    (["stakes", "boulmous", "-H", "random:score_aware=1", "--games", "10"], "unknown parameter 'score_aware'"),
    (["odds", "boulmous", "--hand", HAND, "-H", "cautious:score_aware=1", "--hands", "100"], "whole games"),
    (["compare", "boulmous", "cautious", "cautious:score_aware=1", "--hands", "100"], "--games"),
    (["sweep", "boulmous", "cautious:score_aware=1", "--param", "margin=0:1:0.5"], "whole games"),
    (["compare", "boulmous", "pimc", "cautious", "--games", "10"], "pimc"),
    (["compare", "boulmous", "pimc:score_aware=1", "cautious", "--games", "10"], "pimc"),
    (["compare", "boomke-wies", "partner", "naive", "--games", "10"], "no such option: --games"),
    (["compare", "boulmous", "cautious", "aggressive", "--games", "10", "--hands", "10"], "not both"),
    (["compare", "boulmous", "cautious", "cautious:score_aware=1", "--games", "10", "-r",
      "end_check=after_each_trick"], "end_check=end_of_deal"),
    (["equity", "boulmous", "--scores", "1,2,3,4", "-H", "cautious:score_aware=1"], "whole games"),
    (["trace", "boulmous", "--hands", "1", "-H", "cautious:score_aware=1"], "whole games"),
    (["odds", "boulmous", "--hand", HAND, "--scores", "-7,0,0,0"], "below the table's floor -6"),
]


@pytest.mark.parametrize("argv, fragment", BAD)
def test_bad_input(argv, fragment, capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(engine, "execute", lambda *a, **k: (_ for _ in ()).throw(AssertionError("ran")))
    if argv[0] in ("odds", "stakes", "compare", "sweep"):
        argv = argv + ["--out", str(tmp_path / "run")]
    code = 0
    try:
        cli.main(argv + ["-q"] if argv[0] != "trace" else argv)
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert code == 2 and len(lines) == 1 and "Traceback" not in err, (out, err)
    assert fragment.lower() in lines[0].lower(), lines[0]
