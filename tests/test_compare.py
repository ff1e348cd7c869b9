"""The duplicate tournament design: paired statistics, rotation, error rates."""
import numpy as np
import pytest

from tricksim.analysis import compare as C
from tricksim.analysis.common import TricksimError


def test_rotations_put_every_entrant_in_every_seat_equally():
    from tricksim.analysis.boulmous import dup_rotations
    for k in (2, 3, 4):
        ids = dup_rotations(k)
        for h in range(k):
            per_seat = (ids == h).sum(axis=0)
            assert len(set(per_seat)) == 1, (k, h, per_seat)


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
    out = capsys.readouterr().out
    assert "verdict:" in out and "random is worst" in out
    for f in ("leaderboard.csv", "pairs.csv", "leaderboard.png", "report.md", "manifest.json"):
        assert (tmp_path / "c" / f).exists(), f
    main(["sweep", "boulmous", "cautious", "--param", "margin=0:1:0.5", "--against", "aggressive", "--hands",
          "4000", "-q", "--out", str(tmp_path / "s")])
    out = capsys.readouterr().out
    assert "best value" in out
    assert (tmp_path / "s" / "sweep.png").exists() and (tmp_path / "s" / "sweep.csv").exists()


def test_heuristics_from_toml(tmp_path, capsys):
    from tricksim.cli import main
    f = tmp_path / "h.toml"
    f.write_text('[heuristics.bold]\nbase = "cautious"\nmargin = -0.4\n')
    main(["compare", "boulmous", "bold", "cautious", "--heuristics", str(f), "--hands", "4000", "-q",
          "--out", str(tmp_path / "c")])
    assert "bold" in capsys.readouterr().out
