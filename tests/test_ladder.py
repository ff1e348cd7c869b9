"""The report's strength ladder (analysis/ladder.py, ``tricksim report --only ladder``): its rows are exactly the
entrants, best first, each with its deals and an interval around its mean; the step to the next rung is the
tournament's own paired difference; the open-hand row is there and explained; every player a game has is an
entrant.  That a quick run through the CLI writes the page, a CSV and a PNG per game is checked on the quick run of
every page (tests/test_report_more.py, test_quick_ladder_page)."""
import numpy as np
import pandas as pd
import pytest

from tricksim.analysis import compare as C
from tricksim.analysis.engine import RunOptions
from tricksim.analysis.ladder import ladder_markdown, ladder_table, ladder_words
from tricksim.analysis.registry import GAMES, get


def _ladder(tmp_path, names, hands):
    g = get("boulmous")
    res = C.compare(g, names, hands=hands, seed=5, opts=RunOptions(tmp_path / "t", force=True))
    bound = g.ladder.bound(RunOptions(tmp_path / "b", force=True), True, 5)
    return res, bound, ladder_table(res, bound)


def test_rows_are_the_entrants_sorted_by_mean_with_n_and_an_interval(tmp_path):
    names = ["aggressive", "random", "cautious", "cautious:margin=1.5"]
    res, bound, t = _ladder(tmp_path, names, 2_000)
    e = t[t.kind == "entrant"]
    assert sorted(e.player) == sorted(names)                                      # exactly the entrants
    assert list(e["rank"]) == [1, 2, 3, 4]
    assert (np.diff(e["mean"].to_numpy()) <= 0).all()                             # best first
    assert (e.n_deals == 2_000).all() and (e.ci > 0).all()
    assert ((e.lo < e["mean"]) & (e["mean"] < e.hi)).all()
    board = res["leaderboard"][res["leaderboard"].metric == "points"].set_index("heuristic")
    for r in e.itertuples():                                                      # the tournament's own figures
        assert r.mean == board.loc[r.player, "mean"] and r.ci == board.loc[r.player, "ci"]
    m = e["mean"].to_numpy()
    assert np.allclose(e.to_next.to_numpy()[:-1], m[:-1] - m[1:])               # a paired step = the gap of means
    assert np.isnan(e.to_next.iloc[-1])
    pairs = res["pairs"][res["pairs"].metric == "points"]
    for r in e.iloc[:-1].itertuples():                                            # its Holm p is the tournament's
        nxt = e.player.iloc[r.rank]
        row = pairs[((pairs.a == r.player) & (pairs.b == nxt)) | ((pairs.a == nxt) & (pairs.b == r.player))].iloc[0]
        assert r.p_holm == row.p_holm and r.significant == row.significant
    assert e.player.iloc[-1] == "random" and e.significant.iloc[-2]               # random is last, clearly
    assert ladder_words(t).endswith("> `random`")


def test_the_bound_is_present_and_explained(tmp_path):
    res, bound, t = _ladder(tmp_path, ["cautious", "aggressive"], 400)
    b, ref = t[t.kind == "bound"].iloc[0], t[t.kind == "reference"].iloc[0]
    assert pd.isna(b["rank"]) and b.n_deals == bound["n"] > 0 and b.lo < b["mean"] < b.hi
    assert b.to_next == pytest.approx(b["mean"] - ref["mean"], abs=1e-9)         # the paired gap over the reference
    assert 0 < b.to_next_ci < b.ci + ref.ci                                        # pairing narrows it
    for word in ("open-hand", "not a ceiling", "taker"):
        assert word in bound["what"]
    assert bound["command"].startswith("tricksim odds boulmous --play heuristic,open")
    md = ladder_markdown(t, "points per deal")
    assert "| bound | open-hand: the taker at bid 3 |" in md and "| reference |" in md


@pytest.mark.fast
def test_every_player_of_each_game_is_an_entrant():
    for g in GAMES:
        assert g.ladder is not None, g.name
        base = {g.parse_heuristic(x).name for x in g.ladder.entrants}
        assert base == set(g.heuristics), (g.name, base)                          # every heuristic, pimc included
        assert sum(g.parse_heuristic(x).name == "pimc" for x in g.ladder.entrants) == 2   # default and cheaper
        assert len({g.parse_heuristic(x).label for x in g.ladder.entrants}) == len(g.ladder.entrants)
        C.seating(g, len(g.ladder.entrants), g.ladder.extra) if g.duplicate.layout == "rounds" else None
        assert g.ladder.quick >= C.MIN_DEALS


def test_eight_entrants_at_five_seats_do_not_depend_on_threads_or_blocks():
    """The compact design (8 Bourre entrants at 5 seats, 7 rounds): exact counts, so the tables are identical
    whatever the threads and the block size; every entrant sits 5 seats per deal."""
    names = ["random", "basic", "tight", "loose", "cinch", "basic:threshold=1", "tight:threshold=3", "loose:threshold=0"]
    runs = [C.compare("bourre", names, hands=140, seed=3, extra={"players": 5}, block_size=b,
                      opts=RunOptions(threads=t)) for t, b in ((1, 140), (2, 16))]
    assert runs[0]["leaderboard"].equals(runs[1]["leaderboard"]) and runs[0]["pairs"].equals(runs[1]["pairs"])
    board = runs[0]["leaderboard"]
    assert len(board) == 8 and (board.seat_appearances_per_deal == 5).all() and (board.ci > 0).all()
    assert "56 of the 6,720 assignments" in runs[0]["design"]
