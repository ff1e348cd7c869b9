"""tricksim report --only: only the named studies' sections of README.md change (issue 14)."""
import pytest

from tricksim.analysis import studies
from tricksim.analysis.common import TricksimError

LEGACY = """# tricksim headline reports

Generated 2026-11-22 13:49 UTC by tricksim 0.1.0 with `tricksim report`.

Time per study: boulmous 19 s, boomke-wies 10 s, bourre 18 s, compare 3 s.

## Boulmous

BOULMOUS TEXT
| a | b |

## Boomke Wies: partnership bid odds

BOOMKE TEXT

## Bourré: how the pot grows

BOURRE TEXT

## Comparing heuristics (Boulmous)

OLD COMPARE TEXT
"""


def test_only_updates_its_section_and_keeps_the_others(tmp_path, capsys):
    readme = tmp_path / "README.md"
    readme.write_text(LEGACY)   # a README written before the section markers
    studies.run_all(out=tmp_path, quick=True, only=["compare"], progress=False)
    md = readme.read_text()
    for kept in ("BOULMOUS TEXT\n| a | b |", "BOOMKE TEXT", "BOURRE TEXT", "## Bourré: how the pot grows"):
        assert kept in md
    assert "OLD COMPARE TEXT" not in md and "## Comparing heuristics (Boulmous)" in md
    assert md.index("BOULMOUS") < md.index("BOOMKE") < md.index("BOURRE") < md.index("## Comparing")
    assert "boulmous 19 s, boomke-wies 10 s, bourre 18 s, compare" in md
    assert "--only compare" in md and "Kept from the previous report: boulmous, boomke-wies, bourre" in md
    # once more, now with the section markers: the kept sections stay byte for byte
    first = md
    studies.run_all(out=tmp_path, quick=True, only=["compare"], progress=False)
    again = readme.read_text()
    cut = lambda s: s[s.index("<!-- tricksim:section boulmous"):s.index("<!-- tricksim:section compare")]
    assert cut(again) == cut(first)


def test_only_refuses_unknown_studies(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text(LEGACY)
    with pytest.raises(TricksimError, match="boulmous, boomke-wies, bourre, compare"):
        studies.run_all(out=tmp_path, quick=True, only=["nonsense"], progress=False)
    assert readme.read_text() == LEGACY
    assert studies.check_only(["compare,Boomke_Wies", "compare"]) == ["compare", "boomke-wies"]


def test_cli_only_nonsense_is_one_line(tmp_path, capsys):
    from tricksim import cli
    (tmp_path / "README.md").write_text(LEGACY)
    with pytest.raises(SystemExit) as e:
        cli.main(["report", "--out", str(tmp_path), "--only", "nonsense", "--quiet"])
    assert e.value.code == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "nonsense" in err[0] and "compare" in err[0]
    assert (tmp_path / "README.md").read_text() == LEGACY
