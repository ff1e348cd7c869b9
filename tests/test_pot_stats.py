"""The Bourre pot study's statistics: the population of each rate, session-level intervals
of per-deal rates, quantiles with their intervals, the speed of a resumed run."""
import math

import numpy as np

from tricksim.analysis import bourre as B
from tricksim.analysis.engine import RunOptions
from tricksim.analysis.stats import batch_rate_ci, wilson


def test_overflowed_sessions_rates_count_the_finished_sessions_on_both_sides():
    """ante = 10^12 with random play overflows some sessions (stopped at 2^62): the seats'
    plays, wins and bourre per deal count the finished sessions' deals over those same deals."""
    big = B.pot_study(7, 4000, 100, seed=1, rules=B.BourreRules(ante=10 ** 12), heuristics=["random"])
    assert big["overflowed"] > 0 and big["ok_sessions"] == 100 - big["overflowed"]
    assert big["ok_deals"] == big["ok_sessions"] * 4000 < big["deals_played"]
    small = B.pot_study(7, 4000, 100, seed=1, heuristics=["random"])
    assert small["overflowed"] == 0 and small["ok_deals"] == small["deals_played"] == 400_000
    for s in range(7):
        a, b = big["seats"].iloc[s], small["seats"].iloc[s]
        assert abs(a.play_rate - b.play_rate) < 0.02 and 0.45 < a.play_rate < 0.56
        assert a.deals == big["ok_deals"]
    text = " ".join(B.render_pot(big).split())
    assert f"over the {big['ok_deals']:,} deals of the {big['ok_sessions']:,} finished sessions" in text


def test_per_deal_intervals_use_the_variance_between_sessions():
    """tie = tied_only_next_hand makes consecutive deals dependent: the outcome intervals are
    the batch intervals of the per-session counts (recomputed here from the kernel's rows)."""
    rules = B.BourreRules(tie="tied_only_next_hand")
    sessions, deals = 300, 60
    res = B.pot_study(7, deals, sessions, seed=5, rules=rules)
    params = B.make_params(5, rules, B.parse_seats(None, 7), players=7, deals=deals)
    kd, kc, ra, codes, prm = B.GAME.kernel_args(params)
    srows = np.zeros((sessions, B.K.S_LEN), np.int64)
    fans = np.zeros((sessions, -(-deals // B.fan_stride(deals))), np.int64)
    B.K.sim_sessions(kd, kc, 0, sessions, 7, deals, B.fan_stride(deals), ra, codes, prm, None,
                     srows, fans)
    d = srows[:, B.K.S_DEALS].astype(float)
    for k in range(4):
        x = srows[:, B.K.S_OUT + k].astype(float)
        p, lo, hi, _ = batch_rate_ci(x.sum(), (x * x).sum(), (x * d).sum(), d.sum(), (d * d).sum(), sessions)
        row = res["outcomes"].iloc[k]
        assert row.p == p and row.ci_low == lo and row.ci_high == hi
        if 0 < p < 1:
            _, wlo, whi = wilson(x.sum(), d.sum())
            assert (lo, hi) != (wlo, whi)
    m, half, nd = res["bourre_mean"]
    assert nd == sessions * deals and half > 0
    assert "variance between sessions" in " ".join(B.render_pot(res).split())


def test_quantiles_carry_intervals_and_unsupported_ones_are_not_printed():
    res = B.pot_study(7, 50, 400, seed=2)
    mq = res["max_quantiles"].set_index("quantile")
    assert mq.loc[0.5, "ci_low"] <= mq.loc[0.5, "approx"] <= mq.loc[0.5, "ci_high"]
    assert math.isnan(mq.loc[0.999, "ci_low"]) and mq.loc[0.999, "largest pot (chips)"] == "-"
    assert "needs 3,688 sessions" in mq.loc[0.999, "95% interval (chips)"]
    fan = res["fan"]
    assert (fan.q50_lo <= fan.q50).all() and (fan.q50 <= fan.q50_hi).all()
    seats = res["seats"]
    assert (seats.median_lo <= seats["median"]).all() and (seats["median"] <= seats.median_hi).all()
    assert "net_ci" not in seats.columns                      # no normal interval on heavy-tailed means


def test_a_fully_resumed_run_prints_no_speed(tmp_path):
    a = B.pot_study(5, 20, 300, seed=3, opts=RunOptions(tmp_path / "run"))
    assert a["computed_sessions"] == 300 and a["deals_per_second"] > 0
    b = B.pot_study(5, 20, 300, seed=3, opts=RunOptions(tmp_path / "run"))
    assert b["computed_sessions"] == 0 and math.isnan(b["deals_per_second"])
    assert "every block reused" in B.render_pot(b)
    assert b["deals_played"] == a["deals_played"]
