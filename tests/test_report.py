"""The main job (tricksim report) runs end to end on small samples: a page per study, each opening with its
questions and short answers, and an index that gathers the answers and links the pages.  The quick run of the
headline pages (``tricksim report --quick``, the main job) is made once for the module (``quick_pages``): the pages
written side by side (``--jobs 2``) are checked against it.  The other pages' quick run is checked in
tests/test_report_more.py, a file of its own so that the two runs go to different test workers."""
import re
import shlex
from pathlib import Path

import pytest

from cliparse import parse_cli
from report_pages import check_pages

REPORTS = Path(__file__).resolve().parent.parent / "reports"
BOURRE_FORMS: dict = {}
"""The argument types each Bourre session kernel was called with during the quick run (``quick_pages``)."""


def _recording(module):
    """``module._dynamic`` (how Bourre's pot and tail studies call their kernels), recording each call's argument
    types in ``BOURRE_FORMS`` (a kernel compiles once per distinct tuple of them)."""
    import numba
    run = module._dynamic

    def dynamic(kernel, *args):
        BOURRE_FORMS.setdefault(kernel.py_func.__name__, set()).add(tuple(str(numba.typeof(a)) for a in args))
        return run(kernel, *args)
    return dynamic


@pytest.fixture(scope="module")
def quick_pages(tmp_path_factory):
    """``tricksim report --quick`` through the CLI, in one process: the headline pages and their index, written
    once for the tests of this module (the folder is theirs to read, not to change)."""
    from tricksim import cli
    from tricksim.analysis.bourre import pot, tail
    out = tmp_path_factory.mktemp("quick-pages")
    with pytest.MonkeyPatch.context() as mp:
        for module in (pot, tail):
            mp.setattr(module, "_dynamic", _recording(module))
        cli.main(["report", "--quick", "--quiet", "--jobs", "1", "--out", str(out)])
    return out


def test_report_quick_writes_the_headline_pages_and_their_index(quick_pages):
    from tricksim.analysis import studies
    check_pages(quick_pages, studies.HEADLINE)
    for game_dir in ("boulmous", "compare"):
        assert any((quick_pages / game_dir).glob("*.csv"))


def test_the_bourre_page_calls_each_session_kernel_in_one_form(quick_pages):
    """ev plays in some runs of the Bourre page (tails, the heuristic sweep), so every run passes the kernels ev's
    tables (analysis/bourre/ev.py ``study_ev_form``): each kernel compiles once for the page, not a second time
    without ev (about 45 CPU s on a cold cache)."""
    assert {"sim_sessions", "sim_tail", "split_sessions"} <= set(BOURRE_FORMS), BOURRE_FORMS.keys()
    for name, forms in BOURRE_FORMS.items():
        assert len(forms) == 1, (name, forms)
        assert "array(float64, 2d, C)" in next(iter(forms)), (name, forms)     # ev's tables, not None


def test_the_committed_index_links_every_page_in_at_most_150_lines():
    from tricksim.analysis import studies
    from tricksim.analysis.pages import page_file
    index = (REPORTS / "README.md").read_text()
    for study in studies.STUDIES:
        assert f"]({page_file(study)})" in index, study
    assert len(index.splitlines()) <= 150


def test_pages_written_side_by_side_equal_those_of_one_process(quick_pages, tmp_path):
    """--jobs 2 runs each study in a process of its own: the pages are those of one process (the quick run above)
    but for the lines that give the time taken; the index, rebuilt from every page present, too."""
    import shutil
    from tricksim.analysis import studies
    one, two = quick_pages, tmp_path / "two"
    shutil.copytree(one, two, ignore=shutil.ignore_patterns("boulmous.md", "compare.md", "README.md"))
    lines = []
    studies.run_all(out=two, quick=True, only=["boulmous,compare"], progress=False, jobs=2, log=lines.append)
    assert sum("running" in x for x in lines) == 2 and sum("done in" in x for x in lines) == 2, lines
    timing = ("<!-- tricksim:page", "Generated ", "This index was written")
    cmds = ("`tricksim report --quick`", "`tricksim report --quick --only boulmous --only compare`")
    for name in ("boulmous.md", "compare.md", "README.md"):     # the index names the command that wrote it
        a, b = ((d / name).read_text().replace(cmds[0], "`CMD`").replace(cmds[1], "`CMD`").splitlines()
                for d in (one, two))
        assert len(a) == len(b) > 10, name
        diff = [(x, y) for x, y in zip(a, b) if x != y]
        assert all(x.startswith(timing) or " s." in x or " s," in x for x, _ in diff), (name, diff[:3])
    assert sorted(p.name for p in two.glob("*.md")) == sorted(p.name for p in one.glob("*.md"))


def test_answers_say_what_the_tables_say():
    """The short answers are computed from the tables: the committed Boulmous class table gives the classes
    that make a 4 more often than not, and a class falls out of the answer when its interval reaches 50%."""
    import pandas as pd
    from tricksim.analysis.boulmous.report import class_answer
    t = pd.read_csv(REPORTS / "boulmous" / "by_trumps_bowers.csv")
    q, a = class_answer({"by_trumps_bowers": t, "n": 1})
    assert "4 trumps with 2 bowers" in a and "3 trumps with 2 bowers" in a.split("close behind")[1]
    t.loc[(t.trumps == 4) & (t.bowers == 2), "p4_lo"] = 0.49
    assert "4 trumps with 2 bowers" not in class_answer({"by_trumps_bowers": t, "n": 1})[1].split("close behind")[0]


def _committed_commands():
    cmds = []
    for page in sorted(REPORTS.glob("*.md")):
        cmds += [(page.name, c) for c in re.findall(r"Regenerate: `(tricksim [^`]+)`", page.read_text())]
    return cmds


def test_every_regenerate_line_of_the_committed_reports_is_a_valid_command():
    """Each "Regenerate: `tricksim ...`" of the committed pages is a command the CLI accepts, with the sample
    size and seed the section reports: a renamed or removed option fails here."""
    cmds = _committed_commands()
    assert len(cmds) >= 8
    for page, c in cmds:
        name, params = parse_cli(shlex.split(c)[1:])
        assert params.get("seed") is not None, (page, c)
        assert any(params.get(k) for k in ("hands", "games", "sessions", "matches", "deals")), (page, c)


def test_the_cli_parser_check_refuses_a_bad_command():
    """The check above would catch a stale command: an unknown option is refused by the parser."""
    with pytest.raises(Exception) as e:
        parse_cli(["odds", "boulmous", "--hands", "10", "--no-such-option"])
    assert any(c.__name__ == "UsageError" for c in type(e.value).__mro__) and "--no-such-option" in str(e.value)
    name, params = parse_cli(["odds", "boulmous", "--hand", "JH JD AH KH 9S TC", "--hands", "10", "--seed", "3"])
    assert params["seed"] == 3 and params["hands"] == 10
