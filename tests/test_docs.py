"""The front door holds together: every relative link in README.md, docs/ and reports/ resolves, and every
``tricksim ...`` command quoted there is one the CLI accepts (parsed, not run)."""
import re
import shlex
from pathlib import Path

import pytest

from cliparse import parse_cli, root_command

pytestmark = pytest.mark.fast

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md"), *(ROOT / "reports").glob("*.md")])
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
# a placeholder in a quoted command (GAME, STUDY, FILE, ...): such a line shows a form, not a command
PLACEHOLDER = re.compile(r"^[A-Z][A-Z_]{2,}$|\.\.\.|[<>\[\]]")


def _rel(p: Path) -> str:
    return str(p.relative_to(ROOT))


def _strip_code(text: str) -> str:
    return re.sub(r"```.*?```", "", text, flags=re.S)


def links(page: Path):
    for target in LINK.findall(_strip_code(page.read_text())):
        if re.match(r"^[a-z]+:", target) or target.startswith("#"):
            continue                                  # a web address or an anchor in the same page
        yield target.split("#")[0]


def commands(page: Path):
    """The commands a page quotes: lines of fenced code blocks and inline code spans beginning ``tricksim``
    (a ``$ `` prompt and a trailing ``# comment`` dropped)."""
    text = page.read_text()
    found = []
    for block in re.findall(r"```[a-z]*\n(.*?)```", text, flags=re.S):
        for line in block.splitlines():
            line = line.strip().removeprefix("$ ")
            if line.startswith("tricksim "):
                found.append(line)
    for span in re.findall(r"`(tricksim [^`\n]+)`", _strip_code(text)):
        found.append(span)
    found = [part.strip() for c in found for part in re.split(r";\s+|\s+&&\s+", c)
             if part.strip().startswith("tricksim ")]      # a line of several commands: each on its own
    out = []
    for c in found:
        try:
            argv = shlex.split(c, comments=True)[1:]
        except ValueError:
            continue                                  # not a shell line (prose in a span)
        if argv and not any(PLACEHOLDER.search(a) for a in argv):
            out.append((c, argv))
    return out


@pytest.mark.parametrize("page", PAGES, ids=_rel)
def test_every_relative_link_resolves(page):
    missing = [t for t in links(page) if t and not (page.parent / t).exists()]
    assert not missing, f"{_rel(page)} links to missing {missing}"


def names_a_command(argv) -> bool:
    """``argv`` without options names a command (``tricksim stakes``, ``tricksim odds bourre``): each word
    a command, or a sub-command of the group before it, except a last positional argument."""
    cmd = root_command()
    for word in argv:
        if not hasattr(cmd, "commands"):
            return True                              # past the command: its positional arguments
        if word not in cmd.commands:
            return False
        cmd = cmd.commands[word]
    return True


@pytest.mark.parametrize("page", PAGES, ids=_rel)
def test_every_quoted_command_parses(page):
    bad = []
    for c, argv in commands(page):
        if "--help" in argv:
            argv = [a for a in argv if a != "--help"]
            if not argv:
                continue
        if not any(a.startswith("-") for a in argv):  # a command named in prose, not a command line
            if not names_a_command(argv):
                bad.append(f"{c}: no such command")
            continue
        try:
            parse_cli(argv)
        except Exception as e:   # the parser's usage error
            bad.append(f"{c}: {str(e).splitlines()[0] if str(e) else type(e).__name__}")
    assert not bad, f"{_rel(page)}:\n" + "\n".join(bad)


def test_the_checks_would_catch_a_broken_link_and_a_stale_command(tmp_path):
    page = tmp_path / "p.md"
    page.write_text("See [x](nowhere.md) and run `tricksim odds boulmous --no-such-option 3`.\n"
                    "```\ntricksim odds GAME --hands 10    # a form, skipped\n```\n")
    assert list(links(page)) == ["nowhere.md"]
    (c, argv), = commands(page)
    with pytest.raises(Exception, match="no-such-option"):
        parse_cli(argv)
    assert names_a_command(["odds", "bourre"]) and not names_a_command(["odds", "skat"])


def test_the_front_door_is_short():
    """README.md at most 200 lines, reports/README.md at most 150 (issue 26)."""
    assert len((ROOT / "README.md").read_text().splitlines()) <= 200
    assert len((ROOT / "reports" / "README.md").read_text().splitlines()) <= 150
