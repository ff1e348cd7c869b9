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


def _parse_cli(argv):
    """Parse ``argv`` with tricksim's own command line, down to the sub-command, without running it:
    the parser's usage error (unknown option, bad value, missing argument) if the CLI would refuse it."""
    import typer

    from tricksim.cli import app
    cmd = typer.main.get_command(app)
    ctx = cmd.make_context("tricksim", list(argv))
    while hasattr(cmd, "resolve_command"):   # a group: on to its sub-command
        args = [*getattr(ctx, "_protected_args", getattr(ctx, "protected_args", [])), *ctx.args]
        name, sub, rest = cmd.resolve_command(ctx, args)
        ctx = sub.make_context(name, rest, parent=ctx)
        cmd = sub
    return cmd.name, ctx.params


def test_every_regenerate_line_of_the_committed_report_is_a_valid_command():
    """Each "Regenerate: `tricksim ...`" of reports/README.md (the committed headline) is a command the CLI
    accepts, with the sample size and seed the section reports: a renamed or removed option fails here."""
    import shlex
    from pathlib import Path

    md = (Path(__file__).resolve().parent.parent / "reports" / "README.md").read_text()
    cmds = re.findall(r"Regenerate: `(tricksim [^`]+)`", md)
    assert len(cmds) >= 8
    for c in cmds:
        name, params = _parse_cli(shlex.split(c)[1:])
        assert params.get("seed") is not None, c
        assert any(params.get(k) for k in ("hands", "games", "sessions", "matches", "deals")), c


def test_the_cli_parser_check_refuses_a_bad_command():
    """The check above would catch a stale command: an unknown option is refused by the parser."""
    import pytest

    with pytest.raises(Exception) as e:
        _parse_cli(["odds", "boulmous", "--hands", "10", "--no-such-option"])
    assert any(c.__name__ == "UsageError" for c in type(e.value).__mro__) and "--no-such-option" in str(e.value)
    name, params = _parse_cli(["odds", "boulmous", "--hand", "JH JD AH KH 9S TC", "--hands", "10", "--seed", "3"])
    assert params["seed"] == 3 and params["hands"] == 10
