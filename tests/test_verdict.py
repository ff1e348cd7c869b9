"""compare's verdict names the points ranking and the money ranking (issue 14, item 8)."""
import pandas as pd

from tricksim.analysis import compare as cmp


def _tables():
    rows, pairs = [], []
    means = {"points": {"cautious": 1.41, "aggressive": 1.38, "random": -0.34},
             "stakes": {"cautious": 0.094, "aggressive": 0.096, "random": -0.19}}
    for m, d in means.items():
        for h, v in d.items():
            rows.append({"metric": m, "heuristic": h, "mean": v, "ci": 0.001, "n_deals": 1_000_000})
        for a, b in (("cautious", "aggressive"), ("cautious", "random"), ("aggressive", "random")):
            pairs.append({"metric": m, "a": a, "b": b, "diff": d[a] - d[b], "ci": 0.0005, "p": 1e-20,
                          "p_holm": 1e-20, "significant": True})
    return pd.DataFrame(rows), pd.DataFrame(pairs)


def test_verdict_names_both_rankings_and_their_disagreement():
    board, pairs = _tables()
    v = cmp.full_verdict(board, pairs, ["points", "stakes"], "points per deal")
    assert v.startswith("By points: cautious beats aggressive")
    assert "By money (stakes per deal): aggressive beats cautious by 0.002" in v
    assert "The rankings differ: by points cautious > aggressive > random; by money aggressive > cautious > random." in v


def test_verdict_without_money_is_the_points_verdict():
    board, pairs = _tables()
    board, pairs = board[board.metric == "points"], pairs[pairs.metric == "points"]
    assert cmp.full_verdict(board, pairs, ["points"], "points per deal") == cmp.verdict(board, pairs, "points",
                                                                                       "points per deal")


def test_leaderboard_plot_has_a_money_panel(tmp_path):
    from tricksim.analysis.plots import leaderboard_plot
    import matplotlib.pyplot as plt
    board, _ = _tables()
    seen = {}
    real = plt.subplots

    def spy(*a, **k):
        fig, axes = real(*a, **k)
        seen["axes"] = axes
        return fig, axes
    plt.subplots = spy
    try:
        leaderboard_plot(board, "points", "points per deal", tmp_path / "l.png", 1_000_000)
    finally:
        plt.subplots = real
    titles = [ax.get_title() for ax in seen["axes"][0]]
    assert titles == ["by points: best cautious", "by stakes (money): best aggressive"]
    assert (tmp_path / "l.png").exists()


def test_p_values_are_written_alike_in_compare_pages_and_tune():
    """compare said "Holm-adjusted p = <1e-16" where tune says "p < 1e-16": one form everywhere."""
    from tricksim.analysis.output import p_text
    from tricksim.analysis.pages import pair_answer
    board, pairs = _tables()
    v = cmp.full_verdict(board, pairs, ["points", "stakes"], "points per deal")
    assert "Holm-adjusted p < 1e-16" in v and "= <" not in v
    assert "Holm-adjusted p < 1e-16" in pair_answer(pairs.assign(n_deals=10_000), "cautious", "random", "points",
                                                    "points per deal")
    assert (p_text(1e-20), p_text(0.0312), p_text(float("nan"))) == ("p < 1e-16", "p = 0.031", "p = -")
    pairs.loc[0, ["p_holm", "significant"]] = [0.2, False]
    assert "Holm-adjusted p = 0.2)" in cmp.verdict(board, pairs, "points", "points per deal")
