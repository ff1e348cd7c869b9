"""The quick run of the strategy charts and whole-game equity pages (`tricksim report --quick --only charts --only
equity`), made once for the module; in a file of its own (tests/report_pages.py ``CHART_PAGES``): it shares no
compiled kernel form with the trust, ladder and tuner pages' run (tests/test_report_more.py), so the two go to
different test workers at no extra compiling."""
import pytest

from report_pages import CHART_PAGES, check_pages, quick_run


@pytest.fixture(scope="module")
def quick_pages(tmp_path_factory):
    """``tricksim report --quick --only charts --only equity``, through the CLI, in one process."""
    return quick_run(tmp_path_factory.mktemp("quick-charts"), CHART_PAGES)


def test_report_quick_writes_the_chart_and_equity_pages_and_their_index(quick_pages):
    check_pages(quick_pages, CHART_PAGES)
    from tricksim.analysis.chart import games
    for g in games():                               # each game's chart: its cells' table and its printable page
        assert (quick_pages / "charts" / f"{g.name}.csv").exists() and (quick_pages / "charts" / f"{g.name}.md").exists()
    assert (quick_pages / "equity" / "boulmous_heatmap.png").exists()
