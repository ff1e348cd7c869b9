"""Match equity tables (issue 16): the value iteration on toy outcome distributions with an exact answer,
properties of a real (small) table, the delta-method interval, and the tables against whole games."""
import numpy as np
import pytest

from tricksim.analysis.boulmous import GAME, BoulmousRules
from tricksim.analysis.boomke_wies.config import BoomkeRules
from tricksim.analysis.common import make_params
from tricksim.analysis.boomke_wies import equity as B
from tricksim.analysis.boulmous.equity import table as E
from tricksim.analysis.boulmous.equity import outcomes as O
from tricksim.analysis.boulmous.equity import studies as S


def toy(rows):
    """A canonical outcome distribution from (prob, delta, taker, box, boulmous payment sign) rows."""
    imm = np.zeros((len(rows), 4))
    for j, r in enumerate(rows):
        if r[4]:
            imm[j, :] = -r[4]
            imm[j, r[2]] = 3 * r[4]
    return {"prob": np.array([r[0] for r in rows]), "delta": np.array([r[1] for r in rows], np.int64),
            "taker": np.array([r[2] for r in rows], np.int64), "box": np.array([r[3] for r in rows], np.int64),
            "imm": imm, "n": 10 ** 6}


def test_geometric_race_exact():
    """Each deal the dealer's left scores 2 (and wins, target 2) with q, else everyone passes: the seat
    k places after the dealer's left wins with q (1-q)^k / (1 - (1-q)^4); money 4 P - 1."""
    q = 0.3
    t = E.build(toy([(q, [2, 0, 0, 0], 0, 0, 0), (1 - q, [0, 0, 0, 0], -1, 0, 0)]), BoulmousRules(target=2), floor=-1)
    for dealer in range(4):
        v = t.state([0, 0, 0, 0], dealer)
        for s in range(4):
            k = (s - dealer - 1) % 4
            exact = q * (1 - q) ** k / (1 - (1 - q) ** 4)
            assert v[s] == pytest.approx(exact, abs=1e-12)
            assert v[4 + s] == pytest.approx(4 * exact - 1, abs=1e-12)


@pytest.mark.parametrize("wpo", [False, True])
def test_boxes_and_boulmous_payments_exact(wpo):
    """Half the deals the seat two after the dealer scores 2 (target 2) with a made boulmous (+3/-1 at
    once); the other half the dealer's left fails a contract (a box, no score change).  Against the sum
    over the deal at which the game ends, with the boxes made before it (rule 18)."""
    rules = BoulmousRules(target=2, winner_pays_own_boxes=wpo)
    t = E.build(toy([(0.5, [0, 2, 0, 0], 1, 0, 1), (0.5, [0, 0, 0, 0], 0, 1, 0)]), rules, floor=-1)
    dealer = 3
    exp = np.zeros(4)
    boxes = np.zeros(4)
    for k in range(200):                 # deal k: dealer (3 + k) % 4; the game ends here with 2^-(k+1)
        d = (dealer + k) % 4
        w = (d + 2) % 4
        pay = np.zeros(4)
        pay[w] += 3                       # the boulmous
        pay -= np.where(np.arange(4) == w, 0, 1)
        for o in range(4):
            if o != w:
                amt = 1 + boxes[o] - (boxes[w] if wpo else 0)
                pay[w] += amt
                pay[o] -= amt
        exp += 0.5 ** (k + 1) * pay
        boxes[(d + 1) % 4] += 1
    v = t.state([0, 0, 0, 0], dealer)
    assert v[4:] == pytest.approx(exp, abs=1e-9)
    assert v[:4].sum() == pytest.approx(1.0, abs=1e-12)


@pytest.fixture(scope="module")
def small():
    """A real table at target 7 from 400,000 measured deals (cautious everywhere)."""
    rules = BoulmousRules(target=7)
    specs = GAME.parse_seats("cautious")
    counts = O.block_boulmous(make_params(3, rules, specs), 0, 400_000)
    return E.build(O.decode_boulmous(counts, rules), rules, floor=-4), specs


def test_table_sums_and_symmetries(small):
    t, _ = small
    V = t.V
    assert np.abs(V[:, :4].sum(axis=1) - 1).max() < 1e-9         # someone wins from every state
    assert np.abs(V[:, 4:].sum(axis=1)).max() < 1e-9             # money is zero-sum
    assert V[:, :4].min() >= -1e-12 and V[:, :4].max() <= 1 + 1e-12
    rng = np.random.default_rng(1)
    for _ in range(20):
        sc = list(rng.integers(-4, 7, 4))
        d = int(rng.integers(0, 4))
        v = t.state(sc, d)
        # the same state seen one seat round: the seats' answers follow them
        rot = [sc[(s + 1) % 4] for s in range(4)]
        w = t.state(rot, (d - 1) % 4)
        assert np.allclose([w[(s - 1) % 4] for s in range(4)], v[:4])
        # more points never hurt: one more point for a seat below 6 raises its chance
        s = int(rng.integers(0, 4))
        if sc[s] < 6:
            up = list(sc)
            up[s] += 1
            assert t.state(up, d)[s] >= v[s] - 1e-9


def test_interval_covers_a_remeasured_table(small):
    """The delta-method half-width is the right size: a table from an independent sample lands within it
    (combined for the two samples) at a mid-game state."""
    t, specs = small
    rules = t.rules
    counts = O.block_boulmous(make_params(4, rules, specs), 0, 400_000)
    t2 = E.build(O.decode_boulmous(counts, rules), rules, floor=-4)
    sc, d = [3, 2, 1, 0], 1
    h = t.interval(sc, d)
    assert 0 < h[0] < 0.01
    diff = np.abs(t.state(sc, d) - t2.state(sc, d))
    assert (diff[:4] <= 1.5 * np.sqrt(2) * h[:4]).all()


def test_table_against_whole_games(small):
    t, specs = small
    chk = S.check_boulmous(t, states=10, games=20_000, seed=5, heuristics=specs)
    assert len(chk) == 10 and chk.inside.sum() >= 8
    assert (np.abs(chk.money_table - chk.money_sim) < 0.08).all()


def test_boomke_recursion_exact():
    H = KE_H = 18
    p = np.zeros((4, 2 * KE_H + 1))
    p[:, H + 1], p[:, H - 1] = 0.6, 0.4
    r = BoomkeRules()
    # two deals from a tie: +2 (0.36) wins, 0 (0.48) goes to one extra deal (0.6)
    assert B.recursion(p, 0, 2, 0, True)[0] == pytest.approx(0.36 + 0.48 * 0.6, abs=1e-12)
    assert B.recursion(p, 0, 2, 0, False)[1] == pytest.approx(0.48, abs=1e-12)      # no extra deal: a draw
    assert B.recursion(p, 3, 2, 0, True)[0] == pytest.approx(1.0, abs=1e-12)
    assert B.recursion(p, 0, 2, 0, False)[3] == pytest.approx(2 * 0.2, abs=1e-12)   # E[final difference]
    assert B.default_dealer(r, 16) == 0 and B.default_dealer(r, 5) == 3


def test_boomke_against_match_ends(tmp_path, monkeypatch):
    monkeypatch.setenv("TRICKSIM_CACHE", str(tmp_path))
    rules = BoomkeRules()
    c, src = B.counts(1, 200_000, rules)
    assert src == "measured" and B.counts(1, 200_000, rules)[1] == "cache"
    e = B.equity(c, (7, 4), 5, 3, rules, boot=50)
    assert e.p_win.sum() + e.p_draw[0] == pytest.approx(1.0, abs=1e-9)
    assert e.p_win[0] > e.p_win[1]
    chk = B.check(c, rules, states=5, games=3000, seed=2, boot=30)
    assert chk.inside.sum() >= 4


def test_odds_by_game_chance(tmp_path, monkeypatch):
    """The calls of a hand by the chance to win the game: the same deals as ``odds_hand`` (same P(make)),
    a call that cannot fail from one point short of the target wins the game for sure (and collects the
    three stakes), a failing boulmous is worth less money than a sure win."""
    from tricksim.analysis.boulmous import odds_hand, parse_hand
    from tricksim.analysis.engine import RunOptions
    from tricksim.analysis.boulmous.equity import decide as D
    monkeypatch.setenv("TRICKSIM_CACHE", str(tmp_path))
    rules = BoulmousRules(target=7)
    hand = "JH JD AH KH 9S TC"
    res = D.odds_scores(parse_hand(hand),
                        0, [6, 5, 2, 1], seed=2, hands=4000, rules=rules, heuristics="cautious",
                        opts=RunOptions(progress=False), table_deals=200_000)
    df = res["calls"].set_index("call")
    ref = odds_hand(hand, seat=0, seed=2, hands=4000, rules=rules, heuristics="cautious")["calls"]
    for r in ref.itertuples():
        assert df.loc[f"{r.bid} {r.trump}", "p_make"] == pytest.approx(r.p_make, abs=1e-12)
    assert df.loc["3 H", "p_win_game"] == pytest.approx(1.0) and df.index[0] in ("3 H", "4 H")
    assert df.loc["3 H", "money"] == pytest.approx(3.0)
    assert (df.p_win_game.between(0, 1)).all() and df.loc["6 D", "money"] < df.loc["3 H", "money"]
    assert res["before"] < 1 and df.loc["3 H", "change"] == pytest.approx(1 - res["before"])
    # every deal of the sample won the game: the interval still admits an outcome the sample did not see
    # (at most about 3 in 4,000 deals), so it is never [100%, 100%] nor a money interval of zero width
    r = df.loc["3 H"]
    assert r.win_ci == pytest.approx(0, abs=1e-8) and r.win_hi == pytest.approx(1.0) and 0.998 < r.win_lo < 1.0
    assert r.money_lo < 3.0 and r.money_hi == pytest.approx(3.0, abs=1e-12)   # never above the 3 stakes it can win
    assert (df.money_lo <= df.money).all() and (df.money <= df.money_hi).all()
    assert (df.win_lo >= 0).all() and (df.win_hi <= 1).all()
    from tricksim.analysis.output import mean_interval, pct
    assert pct(r.p_win_game, r.win_lo, r.win_hi, 2) != "100.00% [100.00, 100.00]"
    assert mean_interval(r.money, r.money_lo, r.money_hi).split(" [")[1].split(", ")[0] != "+3.000"


def test_boomke_draw_impossible_is_said_in_words(tmp_path, monkeypatch):
    """With the extra deal and no deal that ends level, a draw cannot happen: the table says 'none' and
    why, never a 0.00% [0.00, 0.00] the bootstrap cannot bound."""
    from tricksim.analysis.engine import RunOptions
    from tricksim.analysis.boomke_wies.equity_views import boomke_command
    monkeypatch.setenv("TRICKSIM_CACHE", str(tmp_path))
    out = "\n".join(str(x) for x in boomke_command("7,4", 5, deals=20_000, seed=3,
                                                   opts=RunOptions(tmp_path / "run", progress=False)))
    assert "0.00% [0.00, 0.00]" not in out
    assert "none" in out and "the extra deal decides every tie" in out
