"""The quick run of the trust, ladder and tuner pages (`tricksim report --quick --only trust --only ladder --only
tune`), made once for the module; in a file of its own so that it, the charts and equity pages' run
(tests/test_report_charts.py) and the headline pages' run (tests/test_report.py) go to different test workers."""
import pytest

from report_pages import CHART_PAGES, MORE_PAGES, check_pages, quick_run


DUPLICATE_FORMS: set = set()
"""The argument types Bourre's tournament kernel (sim_duplicate) was called with during the quick run (a kernel
compiles once per distinct tuple of them)."""


ODDS_PLAY_FORMS: set = set()
"""The argument types Bourre's one-hand odds kernel (sim_odds_play: the trust page's hand, the ladder's bound) was
called with during the quick run."""


def _recording(run, forms: set):
    """A Bourre module's ``_dynamic`` (how it calls its prange kernels), recording each call's argument types in
    ``forms``."""
    import numba

    def dynamic(kernel, *args):
        forms.add(tuple(str(numba.typeof(a)) for a in args))
        return run(kernel, *args)
    return dynamic


@pytest.fixture(scope="module")
def quick_pages(tmp_path_factory):
    """``tricksim report --quick --only S ...`` for ``MORE_PAGES``, through the CLI, in one process."""
    import importlib
    bourre_studies = importlib.import_module("tricksim.analysis.bourre.studies")
    bourre_play = importlib.import_module("tricksim.analysis.bourre.play")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(bourre_studies, "_dynamic", _recording(bourre_studies._dynamic, DUPLICATE_FORMS))
        mp.setattr(bourre_play, "_dynamic", _recording(bourre_play._dynamic, ODDS_PLAY_FORMS))
        return quick_run(tmp_path_factory.mktemp("quick-more"), MORE_PAGES)


def test_the_three_quick_runs_cover_every_study():
    from tricksim.analysis import studies
    runs = studies.HEADLINE + MORE_PAGES + CHART_PAGES
    assert len(runs) == len(set(runs)) and sorted(runs) == sorted(studies.STUDIES)


def test_report_quick_writes_the_other_pages_and_their_index(quick_pages):
    check_pages(quick_pages, MORE_PAGES)


def test_quick_ladder_page(quick_pages):
    """The strength ladder's page (analysis/ladder.py) of the quick run: a CSV and a PNG per game, the rows exactly
    the entrants, the bound and reference rows, an interval around every mean, the command that regenerates it."""
    import pandas as pd
    from tricksim.analysis.registry import GAMES
    tmp_path = quick_pages
    page = (tmp_path / "ladder.md").read_text()
    for g in GAMES:
        assert f"### {g.title}\n" not in page and f"## {g.title}\n" in page      # headings promoted
        assert (tmp_path / "ladder" / f"{g.key}.csv").exists() and (tmp_path / "ladder" / f"{g.key}.png").exists()
        t = pd.read_csv(tmp_path / "ladder" / f"{g.key}.csv")
        assert sorted(t[t.kind == "entrant"].player) == sorted(g.parse_heuristic(x).label for x in g.ladder.entrants)
        assert set(t.kind) == {"entrant", "bound", "reference"}
        assert (t.ci > 0).all() and (t.lo <= t["mean"]).all() and (t["mean"] <= t.hi).all()
        assert f"Regenerate: `tricksim compare {g.name} " in page
    assert page.count("**The bound row**") == 3
    assert "which player is strongest?" in (tmp_path / "README.md").read_text()


def test_trust_and_the_ladder_call_bourre_s_tournament_kernel_in_one_form(quick_pages):
    """The trust page's Bourre tournament (basic, pimc:decide=0, pimc: no ev entrant) passes the kernel ev's tables
    (zeros), as the ladder's (ev an entrant) must (analysis/bourre/ev.py ``EV_FORM``): with the sampling player
    among the entrants, sim_duplicate compiles once for the two pages, not a second time without ev (about 12 CPU
    s on a cold cache).  Argument 8 is the ev tables, a 14th the sampling player's flag."""
    pimc = {f for f in DUPLICATE_FORMS if len(f) == 14}
    assert len(pimc) == 1, pimc
    assert next(iter(pimc))[8] == "array(float64, 2d, C)", pimc


def test_the_ladder_s_bourre_bound_is_the_trust_page_s_run_of_the_same_deals(quick_pages):
    """The ladder's Bourre bound plays the trust page's hand on the same deals (seed, 1,000 deals quick): it reads
    the trust section's heuristic and open-hand rows (analysis/bourre/trust.py ``HAND_RUNS``) instead of playing
    the deals again with a second form of sim_odds_play (without the sampling player: about 6 CPU s cold).  One
    form in the quick run, the sampling player's (argument 18 its flag); the ladder's bound and reference rows
    are the trust page's open-hand and heuristic rows of the heuristic's own choice, its gap the open-hand one."""
    import pandas as pd
    assert len(ODDS_PLAY_FORMS) == 1, ODDS_PLAY_FORMS
    assert next(iter(ODDS_PLAY_FORMS))[18] == "bool", ODDS_PLAY_FORMS
    choices = pd.read_csv(quick_pages / "trust" / "bourre_hand_choices.csv")
    gaps = pd.read_csv(quick_pages / "trust" / "bourre_hand_gaps.csv")
    own = choices[choices.choice == "heuristic's own choice"].set_index("play")
    assert set(own.index) == {"heuristic", "pimc", "open"}
    gap = gaps[(gaps.choice == "heuristic's own choice") & (gaps.play == "open")].iloc[0]
    assert gap.gap_chips != gaps[(gaps.choice == "heuristic's own choice") & (gaps.play == "pimc")].iloc[0].gap_chips
    lad = pd.read_csv(quick_pages / "ladder" / "bourre.csv")
    bound, ref = lad[lad.kind == "bound"].iloc[0], lad[lad.kind == "reference"].iloc[0]
    for row, kind in ((bound, "open"), (ref, "heuristic")):
        assert row["mean"] == pytest.approx(own.loc[kind, "exp_chips"], rel=1e-5), kind
        assert row["ci"] == pytest.approx(own.loc[kind, "chips_ci"], rel=1e-5), kind
        assert row.n_deals == own.loc[kind, "n"] == 1_000, kind
    assert bound.to_next == pytest.approx(gap.gap_chips, rel=1e-5)
    assert bound.to_next_ci == pytest.approx(gap.gap_chips_ci, rel=1e-5)
