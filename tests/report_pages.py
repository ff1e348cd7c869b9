"""Checks shared by the quick-report test files (tests/test_report.py: the headline pages; test_report_more.py and
test_report_charts.py: the others): each page opens with its questions and short answers, the index links it and
repeats its answers."""
import re
from pathlib import Path

# the pages beyond the main job, in two quick runs of one process each, one per test file (pytest-xdist gives each
# file to one worker): the studies of a run share compiled kernel forms (trust's and the ladder's tournaments with
# the sampling player, the tuner's tournaments), those of the other run none of them (the charts' odds kernels and
# the equity pages' value sweeps), so the split compiles nothing twice
MORE_PAGES = ["trust", "ladder", "tune"]        # tests/test_report_more.py
CHART_PAGES = ["charts", "equity"]              # tests/test_report_charts.py


def quick_run(out: Path, studies: list[str]) -> Path:
    """``tricksim report --quick --only S ...`` for ``studies``, through the CLI, in one process, into ``out``."""
    from tricksim import cli
    args = [a for s in studies for a in ("--only", s)]
    cli.main(["report", "--quick", "--quiet", "--jobs", "1", "--out", str(out), *args])
    return out


def answers(md: str) -> list[str]:
    """The short answers of a page or of the index (the lines between the answers markers)."""
    a, b = md.index("<!-- tricksim:answers -->"), md.index("<!-- tricksim:end answers -->")
    return [x for x in md[a:b].splitlines() if x.startswith("- **")]


def check_pages(folder: Path, studies: list[str]) -> None:
    """Every study of ``studies`` has its page in ``folder``, linked by the index there; the page's answers come
    first, each states a figure and appears verbatim in the index; every image a page shows exists."""
    from tricksim.analysis.pages import page_file
    index = (folder / "README.md").read_text()
    for study in studies:
        page = folder / page_file(study)
        md = page.read_text()
        assert f"]({page_file(study)})" in index, study            # the index links the page
        found = answers(md)
        assert found, f"{study}: no short answers"
        for a in found:                                            # the index repeats the page's answers verbatim
            assert a in index, (study, a)
            assert re.search(r"\d", a), (study, a)                 # an answer states a figure
        assert md.index("## Questions and short answers") < md.index("Regenerate: `tricksim"), study
        for img in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", md):      # every image a page shows exists
            assert (folder / img).exists(), (study, img)
