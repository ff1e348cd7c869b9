"""The main job (tricksim report) runs end to end on small samples."""
import re


def test_report_quick_writes_every_section(tmp_path):
    from tricksim.analysis import studies
    md_path = studies.run_all(out=tmp_path, quick=True, progress=False)
    md = md_path.read_text()
    assert "## Boulmous" in md and "## Comparing heuristics" in md
    # every image the markdown links to exists, and every section names its command
    for img in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", md):
        assert (tmp_path / img).exists(), img
    assert md.count("Regenerate: `tricksim") >= 4
    for game_dir in ("boulmous", "compare"):
        assert any((tmp_path / game_dir).glob("*.csv"))
