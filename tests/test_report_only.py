"""tricksim report --only: only the named studies' pages change; the index is rebuilt from every page."""
import pytest

from tricksim.analysis import studies
from tricksim.analysis.common import TricksimError
from tricksim.analysis.pages import Section, page_file, render_page


def _fake_pages(out):
    """Pages of every study but ``compare``, as an earlier full run would have left them."""
    for s in studies.STUDIES:
        if s != "compare":
            sec = Section(f"## {s.upper()} TITLE\n\n### A table\n\n{s.upper()} TEXT\n",
                          [(f"What about {s}?", f"{s} says 42.")])
            (out / page_file(s)).write_text(render_page(s, sec, 12, f"tricksim report --only {s}", "0.1.0"))


def test_only_updates_its_page_and_keeps_the_others(tmp_path):
    _fake_pages(tmp_path)
    before = {p.name: p.read_text() for p in tmp_path.glob("*.md")}
    studies.run_all(out=tmp_path, quick=True, only=["compare"], progress=False)
    for name, text in before.items():
        assert (tmp_path / name).read_text() == text, name          # the other pages stay byte for byte
    index = (tmp_path / "README.md").read_text()
    for s in studies.STUDIES:
        assert f"]({page_file(s)})" in index, s
    assert "What about bourre?" in index and "bourre says 42." in index   # kept pages' answers, from the pages
    assert "Boulmous: which plays better" in index                      # the new page's answers
    assert index.index("BOULMOUS TITLE") < index.index("BOURRE TITLE") < index.index("Comparing heuristics")
    assert "## A table" in (tmp_path / "boulmous.md").read_text()        # a page's headings one level up


def test_only_refuses_unknown_studies(tmp_path):
    _fake_pages(tmp_path)
    before = {p.name: p.read_text() for p in tmp_path.glob("*.md")}
    with pytest.raises(TricksimError, match="boulmous, boomke-wies, bourre, charts, compare"):
        studies.run_all(out=tmp_path, quick=True, only=["nonsense"], progress=False)
    assert {p.name: p.read_text() for p in tmp_path.glob("*.md")} == before
    assert studies.check_only(["compare,Boomke_Wies", "compare"]) == ["compare", "boomke-wies"]


def test_cli_only_nonsense_is_one_line(tmp_path, capsys):
    from tricksim import cli
    with pytest.raises(SystemExit) as e:
        cli.main(["report", "--out", str(tmp_path), "--only", "nonsense", "--quiet"])
    assert e.value.code == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "nonsense" in err[0] and "compare" in err[0]
    assert not list(tmp_path.glob("*.md"))


def test_the_main_job_runs_the_headline_studies_and_all_adds_the_others():
    assert studies.todo_studies() == studies.HEADLINE == ["boulmous", "boomke-wies", "bourre", "compare"]
    assert studies.todo_studies(every=True) == studies.STUDIES
    assert studies.todo_studies(["ladder,compare"]) == ["compare", "ladder"]      # page order, whatever the order asked


def test_cli_all_with_only_is_one_line(tmp_path, capsys):
    from tricksim import cli
    with pytest.raises(SystemExit) as e:
        cli.main(["report", "--out", str(tmp_path), "--all", "--only", "compare", "--quiet"])
    assert e.value.code == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "--all" in err[0] and "--only" in err[0]
    assert not list(tmp_path.glob("*.md"))
