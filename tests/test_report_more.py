"""The quick run of the trust, ladder and tuner pages (`tricksim report --quick --only trust --only ladder --only
tune`), made once for the module; in a file of its own so that it, the charts and equity pages' run
(tests/test_report_charts.py) and the headline pages' run (tests/test_report.py) go to different test workers."""
import pytest

from report_pages import CHART_PAGES, MORE_PAGES, check_pages, quick_run


DUPLICATE_FORMS: set = set()
"""The argument types Bourre's tournament kernel (sim_duplicate) was called with during the quick run (a kernel
compiles once per distinct tuple of them)."""


def _recording(run):
    """Bourre's ``studies._dynamic`` (how its tournament block calls sim_duplicate), recording each call's argument
    types in ``DUPLICATE_FORMS``."""
    import numba

    def dynamic(kernel, *args):
        DUPLICATE_FORMS.add(tuple(str(numba.typeof(a)) for a in args))
        return run(kernel, *args)
    return dynamic


@pytest.fixture(scope="module")
def quick_pages(tmp_path_factory):
    """``tricksim report --quick --only S ...`` for ``MORE_PAGES``, through the CLI, in one process."""
    from tricksim.analysis.bourre import studies as bourre_studies
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(bourre_studies, "_dynamic", _recording(bourre_studies._dynamic))
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
