"""The duplicate tournament design: balanced seatings, any order of the names, paired
statistics, tiny samples, error rates, sweeps."""
import itertools
import math

import numpy as np
import pandas as pd
import pytest

from tricksim.analysis import compare as C
from tricksim.analysis.common import TricksimError


@pytest.mark.parametrize("n_seats, ks", [(4, (2, 3, 4)), (2, (2, 3, 4)), (5, (2, 3, 4, 5)), (7, (3, 4, 6)),
                                         (8, (2, 5))])
def test_design_is_balanced_in_every_seat_and_every_relative_seat(n_seats, ks):
    for k in ks:
        ids, nround = C.design(k, n_seats)
        assert ids.shape == (nround * k, n_seats)
        assert len({tuple(r) for r in ids}) == len(ids)                 # every seating once
        for c in range(nround):                                          # a round: every entrant in every seat once
            rnd = ids[c * k:(c + 1) * k]
            for s in range(n_seats):
                assert sorted(rnd[:, s]) == list(range(k))
        # the design: seats s, t with s mod k != t mod k hold every ordered pair of different entrants equally
        # often (never one entrant in both); with more seats than entrants, seats with s mod k == t mod k are
        # always held by one entrant, every entrant equally often (so not every pair of entrants sits there)
        for s, t in itertools.permutations(range(n_seats), 2):
            cnt = np.zeros((k, k), int)
            for row in ids:
                cnt[row[s], row[t]] += 1
            off, diag = cnt[~np.eye(k, dtype=bool)], np.diag(cnt)
            if s % k != t % k:
                assert set(off) == {len(ids) // (k * (k - 1))} and set(diag) == {0}, (k, n_seats, s, t, cnt)
            else:
                assert set(off) == {0} and set(diag) == {len(ids) // k}, (k, n_seats, s, t, cnt)
        # closed under renaming the entrants: the order of the names cannot matter
        rows = {tuple(r) for r in ids}
        for perm in itertools.permutations(range(k)):
            assert {tuple(perm[x] for x in r) for r in rows} == rows
    assert C.design(3, 4)[0].shape == (6, 4) and C.design(4, 4)[0].shape == (24, 4)



@pytest.mark.fast
@pytest.mark.parametrize("k, n_seats", [(7, 5), (7, 8), (8, 4), (8, 5), (8, 7), (8, 8), (9, 5)])
def test_compact_design_is_balanced_for_prime_power_entrants(k, n_seats):
    """Beyond 120 rounds of the full design, k a prime power: k - 1 rounds of k (the affine design over the field of
    k elements), each round every entrant in every seat once, every ordered pair of different entrants exactly once
    in every ordered pair of seats of different pattern positions."""
    from tricksim.analysis.seating import compact
    assert compact(k, n_seats)
    ids, nround = C.design(k, n_seats)
    assert nround == k - 1 and ids.shape == (k * (k - 1), n_seats)
    assert len({tuple(r) for r in ids}) == len(ids)
    for c in range(nround):
        rnd = ids[c * k:(c + 1) * k]
        for s in range(n_seats):
            assert sorted(rnd[:, s]) == list(range(k))
    for s, t in itertools.permutations(range(n_seats), 2):
        cnt = np.zeros((k, k), int)
        for row in ids:
            cnt[row[s], row[t]] += 1
        if s % k != t % k:
            assert (cnt == 1 - np.eye(k, dtype=int)).all(), (s, t)
        else:
            assert (cnt == np.eye(k, dtype=int) * (k - 1)).all(), (s, t)


@pytest.mark.fast
def test_full_design_is_kept_up_to_120_rounds_and_other_counts_are_refused():
    """Every design accepted before (up to 4 Boulmous, 6 Bourre entrants) is the full one, unchanged; 10
    entrants at 5 seats (3,024 rounds, not a prime power) are refused in one line naming counts that work."""
    assert C.design(6, 5)[0].shape == (720, 5) and C.design(4, 4)[0].shape == (24, 4)
    assert C.design(5, 4)[0].shape == (120, 4) and C.design(7, 4)[0].shape == (840, 4)
    with pytest.raises(TricksimError, match="10 entrants at 5 seats would need 3,024 rounds.*take 9 or 11"):
        C.design(10, 5)
    with pytest.raises(TricksimError, match="2 to 8 heuristics"):
        C.seating("bourre", 9, {"players": 5})

def _normalised(res):
    """Leaderboard and pairs with rows sorted by names, each pair as (smaller, larger) name."""
    b = res["leaderboard"].sort_values(["metric", "heuristic"]).reset_index(drop=True)
    p = res["pairs"].copy()
    flip = (p.a > p.b).to_numpy()
    a, bb = p.a.to_numpy().copy(), p.b.to_numpy().copy()
    p["a"], p["b"] = np.where(flip, bb, a), np.where(flip, a, bb)
    for col in ("diff", "effect_size_dz"):
        p[col] = np.where(flip, -p[col].to_numpy(), p[col].to_numpy())
    return b, p.sort_values(["metric", "a", "b"]).reset_index(drop=True)


@pytest.mark.parametrize("game, names, extra, hands", [
    ("boulmous", ["cautious", "aggressive", "random"], None, 3000),
    ("boulmous", ["cautious", "aggressive", "random", "default:margin=1"], None, 2000),
    ("bourre", ["basic", "cinch", "random"], {"players": 5}, 1000),
    ("bourre", ["basic", "cinch", "random", "basic:threshold=1.5"], {"players": 7}, 600),
])
def test_any_order_of_the_names_gives_identical_tables(game, names, extra, hands):
    """Every permutation of the names: the same leaderboard and pairs to the last digit
    (random entrants included), and the same verdict."""
    ref = None
    for order in itertools.permutations(names):
        res = C.compare(game, list(order), hands=hands, seed=7, extra=extra)
        assert list(res["leaderboard"].heuristic.unique()) == list(order)   # the tables follow the order given
        b, p = _normalised(res)
        if ref is None:
            ref = (b, p, res["verdict"])
            assert p["ci"].notna().all() and (p["diff"] != 0).any()
            continue
        pd.testing.assert_frame_equal(b, ref[0], check_exact=True)
        pd.testing.assert_frame_equal(p, ref[1], check_exact=True)
        assert res["verdict"] == ref[2]


def test_bourre_compare_from_python_uses_the_cli_default_table():
    from tricksim.analysis import bourre as B
    assert C.default_extra("bourre") == {"players": B.DEFAULT_PLAYERS}
    a = C.compare("bourre", ["basic", "random"], hands=600, seed=3)
    b = C.compare("bourre", ["basic", "random"], hands=600, seed=3, extra={"players": B.DEFAULT_PLAYERS})
    assert a["run"].params["players"] == B.DEFAULT_PLAYERS == 7
    assert a["run"].run_id == b["run"].run_id
    pd.testing.assert_frame_equal(a["pairs"], b["pairs"], check_exact=True)
    assert list(C.appearances(B.GAME, 2)) == [7.0, 7.0]


def test_tiny_samples_give_no_interval_and_say_so():
    res = C.compare("boulmous", ["cautious", "random"], hands=1, seed=1)
    p = res["pairs"]
    assert p.ci.isna().all() and p.p.isna().all() and not p.significant.any()
    assert res["leaderboard"].ci.isna().all()
    assert res["verdict"].startswith("too few deals")
    text = C.render_compare(res)
    assert "too few deals" in text and "± 0.000" not in text
    res = C.compare("boulmous", ["cautious", "random"], hands=C.MIN_DEALS - 1, seed=1)
    assert res["pairs"].ci.isna().all()
    res = C.compare("boulmous", ["cautious", "random"], hands=C.MIN_DEALS, seed=1)
    p = res["pairs"]
    assert p.ci.notna().all() and (p.df < C.MIN_DEALS).all()       # Student's t on few deals
    from tricksim.analysis.stats import t_crit
    r = res["pairs"].iloc[0]
    assert r["ci"] > 0 and t_crit(r["df"]) > 2.0


def test_gain_per_playout_is_reported_beside_the_gain_per_deal():
    res = C.compare("boulmous", ["cautious", "aggressive", "random"], hands=20_000, seed=3)
    p = res["pairs"]
    assert (p.playouts_per_deal == 3).all() and res["playouts_per_deal"] == 3
    assert p.gain_per_playout.to_numpy() == pytest.approx(p.variance_reduction.to_numpy() / 3, rel=1e-12)
    text = C.render_compare(res)
    assert "gain/playout" in text and "60,000 playouts" in text and "unadjusted" in text and "Holm" in text
    assert "6 assignments" in res["design"]


def test_random_is_found_worse_than_default():
    res = C.compare("boulmous", ["default", "random"], hands=20_000, seed=11)
    p = res["pairs"]
    pts = p[p.metric == "points"].iloc[0]
    assert pts["a"] == "default" and pts["diff"] > 0 and pts["significant"]
    assert "default beats random" in res["verdict"]


def test_swapping_the_order_mirrors_the_result_exactly():
    a = C.compare("boulmous", ["cautious", "aggressive"], hands=20_000, seed=4)
    b = C.compare("boulmous", ["aggressive", "cautious"], hands=20_000, seed=4)
    pa = a["pairs"].set_index("metric")
    pb = b["pairs"].set_index("metric")
    for m in ("points", "stakes"):
        assert pa.loc[m, "diff"] == pytest.approx(-pb.loc[m, "diff"], abs=1e-12)
        assert pa.loc[m, "ci"] == pytest.approx(pb.loc[m, "ci"], rel=1e-12)
    la = a["leaderboard"].set_index(["metric", "heuristic"])["mean"]
    lb = b["leaderboard"].set_index(["metric", "heuristic"])["mean"]
    assert la.sort_index().to_numpy() == pytest.approx(lb.sort_index().to_numpy(), abs=1e-12)


def test_identical_deterministic_heuristics_tie_exactly():
    res = C.compare("boulmous", ["cautious", "default"], hands=5_000, seed=2)
    p = res["pairs"]
    assert (p["diff"] == 0).all() and not p.significant.any()


def test_self_comparison_false_positive_rate_is_near_five_percent():
    """random vs random (the same heuristic under two names) over many seeds: the
    share of 'significant' differences at the 5% level must be consistent with 5%."""
    hits = 0
    seeds = 120
    for seed in range(seeds):
        res = C.compare("boulmous", ["random", "random:bid_prob=0.3"], hands=1_000, seed=1000 + seed,
                        block_size=1_000)
        pts = res["pairs"][res["pairs"].metric == "points"].iloc[0]
        hits += pts["p"] < 0.05
    # Binomial(120, 0.05): mean 6, P(X <= 0) = 0.002, P(X >= 15) = 0.002
    assert 1 <= hits <= 14, hits


def test_duplicate_design_reduces_variance():
    res = C.compare("boulmous", ["cautious", "aggressive"], hands=50_000, seed=3)
    p = res["pairs"].set_index("metric")
    assert p.loc["points", "variance_reduction"] > 2.0


def test_until_precision_stops_when_intervals_are_narrow():
    res = C.compare("boulmous", ["cautious", "random"], seed=5, until_precision=0.05, block_size=4096)
    assert res["stopped_early"]
    b = res["leaderboard"]
    assert b[b.metric == "points"].ci.max() <= 0.05
    assert res["pairs"][res["pairs"].metric == "points"].ci.max() <= 0.05


def test_sweep_values_and_zero_crossings():
    name, vals = C.sweep_values("margin=0:1:0.25")
    assert name == "margin" and vals == [0, 0.25, 0.5, 0.75, 1.0]
    with pytest.raises(TricksimError):
        C.sweep_values("margin=1:0:0.1")
    import pandas as pd
    df = pd.DataFrame({"value": [0.0, 1.0, 2.0], "advantage": [-1.0, 1.0, 3.0]})
    assert C.zero_crossings(df) == [0.5]


def test_sweep_runs_the_same_deals_for_every_value():
    df = C.sweep("boulmous", "cautious", "margin", [0.5, 0.5], against="aggressive", hands=5_000, seed=9)
    assert df.advantage.iloc[0] == df.advantage.iloc[1]


def test_unknown_entrant_and_duplicates_are_errors():
    with pytest.raises(TricksimError, match="unknown heuristic"):
        C.compare("boulmous", ["cautious", "nosuch"], hands=1000)
    with pytest.raises(TricksimError, match="once"):
        C.compare("boulmous", ["cautious", "cautious"], hands=1000)
    with pytest.raises(TricksimError, match="at least two"):
        C.compare("boulmous", ["cautious"], hands=1000)


def test_cli_compare_and_sweep_write_outputs(tmp_path, capsys):
    from tricksim.cli import main
    main(["compare", "boulmous", "cautious", "aggressive:margin=0.5", "random", "--hands", "8000", "-q",
          "--out", str(tmp_path / "c")])
    out = " ".join(capsys.readouterr().out.split())         # prose lines may be wrapped
    assert "verdict:" in out and "random is worst" in out
    for f in ("leaderboard.csv", "pairs.csv", "leaderboard.png", "report.md", "manifest.json"):
        assert (tmp_path / "c" / f).exists(), f
    main(["sweep", "boulmous", "cautious", "--param", "margin=0:1:0.5", "--against", "aggressive", "--hands",
          "4000", "-q", "--out", str(tmp_path / "s")])
    out = " ".join(capsys.readouterr().out.split())
    assert "largest advantage" in out and "runner-up" in out
    assert (tmp_path / "s" / "sweep.png").exists() and (tmp_path / "s" / "sweep.csv").exists()


def test_heuristics_from_toml(tmp_path, capsys):
    from tricksim.cli import main
    f = tmp_path / "h.toml"
    f.write_text('[heuristics.bold]\nbase = "cautious"\nmargin = -0.4\n')
    main(["compare", "boulmous", "bold", "cautious", "--heuristics", str(f), "--hands", "4000", "-q",
          "--out", str(tmp_path / "c")])
    assert "bold" in capsys.readouterr().out


def test_best_value_of_a_sweep_is_tested_against_the_others():
    df = pd.DataFrame({"value": [0.0, 0.5, 1.0], "advantage": [0.10, 0.30, 0.12], "ci": [0.02, 0.02, 0.02],
                       "df": [1e4] * 3})
    b = C.best_value(df)
    assert b["value"] == 0.5 and b["runner_up"] == 1.0 and b["distinguishable"]
    assert b["gap"] == pytest.approx(0.18) and b["gap_lo"] > 0
    assert "Best value" in C.render_best(b, "margin", "points per deal")
    df["advantage"] = [0.10, 0.30, 0.29]
    b = C.best_value(df)
    assert not b["distinguishable"] and b["contenders"] == [0.5, 1.0] and b["gap_lo"] < 0 < b["gap_hi"]
    assert "No single best value" in C.render_best(b, "margin", "points per deal")
    # the simultaneous interval is wider than each value's own 95% interval
    assert b["sim_hi"] - b["sim_lo"] > 2 * 0.02


def test_sweep_default_folder_is_named_after_the_whole_run(tmp_path, monkeypatch, capsys):
    """The default folder of a sweep was keyed on the game, heuristic, --param, --against, seed and deals only:
    the same sweep under another rule (or a heuristics file that changed) was refused as 'a different run'."""
    from tricksim.cli import main
    monkeypatch.chdir(tmp_path)
    f = tmp_path / "h.toml"
    f.write_text('[heuristics.bold]\nbase = "aggressive"\nmargin = -0.4\n')
    argv = ["sweep", "boulmous", "cautious", "--param", "margin=0:0.5:0.5", "--against", "bold", "--heuristics",
            str(f), "--hands", "400", "-q"]
    runs = tmp_path / "reports" / "runs"

    def folders():
        return {p.name for p in runs.iterdir()}
    main(argv)
    one = folders()
    main(argv)                                                  # the same sweep: the same folder, reused
    assert folders() == one and len(one) == 1
    main(argv + ["--rule", "must_head=true"])                   # another rule: another run, another folder
    two = folders()
    assert len(two) == 2
    f.write_text('[heuristics.bold]\nbase = "aggressive"\nmargin = -0.2\n')
    main(argv)                                                  # the file's heuristic changed: another run
    assert len(folders()) == 3 and two < folders()
    assert "holds a different run" not in capsys.readouterr().err
