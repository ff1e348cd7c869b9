"""What the commands print fits 120 columns (issue 14): tables through ``output.show``, prose
wrapped by the CLI; plus the table helpers themselves."""
import pandas as pd
import pytest

from tricksim import cli
from tricksim.analysis.output import WIDTH, fit_text, pm, show

HEADLINE = {
    "odds-hand": ["odds", "boulmous", "--hand", "JH JD AH KH 9S TC", "--hands", "20000"],
    "odds-exact": ["odds", "boulmous", "--hand", "JH JD AH KH 9S TC", "--hands", "20000", "--exact", "--trump", "H"],
    "odds-classes": ["odds", "boulmous", "--hands", "20000"],
    "stakes": ["stakes", "boulmous", "--games", "500"],
    "heuristics-boulmous": ["heuristics", "boulmous"],
    "heuristics-boomke": ["heuristics", "boomke-wies"],
    "heuristics-bourre": ["heuristics", "bourre"],
    "rules-boulmous": ["rules", "boulmous"],
    "rules-boomke": ["rules", "boomke-wies"],
    "rules-bourre": ["rules", "bourre"],
    "compare": ["compare", "boulmous", "cautious", "aggressive", "random", "--hands", "5000"],
    "sweep": ["sweep", "boulmous", "cautious", "--param", "margin=0:1:0.5", "--against", "aggressive", "--hands", "2000"],
    "odds-boomke-hand": ["odds", "boomke-wies", "--hand", "AS KS QS JS 9S 7S AH KH 4H AD 3D 5C 2C", "--hands", "3000"],
    "odds-boomke": ["odds", "boomke-wies", "--hands", "3000"],
    "stakes-boomke": ["stakes", "boomke-wies", "--games", "100"],
    "compare-boomke": ["compare", "boomke-wies", "partner", "naive", "random", "--hands", "2000"],
    "pot": ["pot", "--players", "7", "--deals", "20", "--sessions", "1000"],
    "pot-sweep": ["pot", "--players", "7", "--deals", "10", "--sessions", "300", "--sweep", "pot_limit"],
    "odds-bourre": ["odds", "bourre", "--hand", "AH KH 7C 4D 2S", "--up-card", "9H", "--players", "5", "--seat", "2",
                    "--hands", "3000"],
    "bench": ["bench", "bourre", "--hands", "1000", "--repeats", "1", "--threads", "1"],
}
TAKES_OUT = ("odds", "stakes", "compare", "sweep", "pot")


@pytest.mark.parametrize("name", list(HEADLINE))
def test_printed_tables_fit_120_columns(name, tmp_path, capsys):
    argv = HEADLINE[name]
    if argv[0] in TAKES_OUT:
        argv = argv + ["--quiet", "--out", str(tmp_path / "run")]
    try:
        cli.main(argv)
    except SystemExit as e:
        assert e.code == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    assert out.strip()
    wide = [line for line in out.splitlines() if len(line) > WIDTH]
    assert not wide, f"{len(wide)} lines wider than {WIDTH}, e.g. {len(wide[0])}: {wide[0]}"


def test_show_aligns_wraps_and_folds():
    df = pd.DataFrame({"heuristic": ["cautious", "random"], "n": ["1,000", "20"], "x": [1.5, None],
                       "meaning": ["word " * 40, "short"]})
    text = show(df, wrap=("meaning",), width=60)
    lines = text.splitlines()
    assert max(map(len, lines)) <= 60 and len(lines) > 3
    assert lines[0].startswith("heuristic  ") and lines[1].startswith("cautious ")  # text left-aligned
    # number-like text right-aligned under its header; an empty cell stays blank (no NaN)
    first = next(x for x in lines if x.startswith("random"))
    assert lines[1].index("1,000") + 5 == first.index("20") + 2 == lines[0].index(" n ") + 2
    assert "NaN" not in text and "nan" not in text
    wide = pd.DataFrame({"seat": [0, 1], **{f"column {i}": ["x" * 30, "y"] for i in range(6)}})
    folded = show(wide, width=80)
    parts = folded.split("\n\n")
    assert len(parts) > 1 and all(p.startswith("seat") for p in parts)
    assert max(len(x) for x in folded.splitlines()) <= 80


def test_fit_text_wraps_prose_not_tables():
    prose = "word " * 50
    row = "a" * 70 + "  " + "b" * 70
    out = fit_text(prose.strip() + "\n" + row)
    lines = out.splitlines()
    assert all(len(x) <= WIDTH for x in lines[:-1]) and lines[-1] == row


def test_pm_keeps_the_interval_of_a_constant_sample():
    assert pm(0.0, 0.0) == "+0.000 ± 0.000"          # sampled, never varied: still ±
    assert pm(1.25, None, 2) == "+1.25"               # exact: no interval
    assert pm(float("nan"), 0.1) == "-"


def test_percentage_points_have_one_name_pp_said_once_in_the_footer():
    """Gaps of rates were printed as "pts", "points" or "pp": one name, pp, and every module that prints it
    also says what it means ("pp = percentage points", ``output.PP``, or "percentage points (pp)" in a report)."""
    import re
    from pathlib import Path
    from tricksim.analysis import output
    root = Path(output.__file__).parent
    assert output.PP == "pp = percentage points"
    def says(src):
        return any(w in src for w in ("PP", "pp = percentage points", "percentage points (pp)"))

    printing = []
    for path in sorted(root.rglob("*.py")):
        src = path.read_text()
        assert not re.search(r'\spts"', src), f"{path.name} prints 'pts' for percentage points"
        assert not re.search(r'\} points \(', src), f"{path.name} prints 'points' for percentage points"
        if re.search(r'" pp"|\} pp\b', src):
            printing.append(path.name)
            # said here, or by the modules of the same game that print this one's tables
            users = [p.read_text() for p in path.parent.glob("*.py") if f"from .{path.stem} import" in p.read_text()]
            assert says(src) or (users and all(says(u) for u in users)), \
                f"{path.name} prints pp without saying what it is"
    assert len(printing) >= 6
