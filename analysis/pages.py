"""The headline reports as pages: one markdown page per study (``reports/<study>.md``) that opens with its
questions and short answers, and an index (``reports/README.md``) that gathers those answers and links the
pages.  A study returns a :class:`Section`: its markdown and its answers, each computed from the study's own
tables, so the index never states a figure that its page does not."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from .output import p_text, pm
from .stats import pair_row

_PAGE = re.compile(r"^<!-- tricksim:page (\S+) seconds=(\S+) generated=(\S+) -->$")
_ANSWERS, _END_ANSWERS = "<!-- tricksim:answers -->", "<!-- tricksim:end answers -->"


@dataclass
class Section:
    """A study's markdown (``text``, beginning with its ``## `` title) and its short answers: a list of
    ``(question, answer)`` in plain words, each answer quoting figures of the tables below it."""
    text: str
    answers: list = field(default_factory=list)

    @staticmethod
    def join(parts) -> "Section":
        """Strings and sections one after another: their texts joined, their answers in order."""
        texts, answers = [], []
        for p in parts:
            if isinstance(p, Section):
                texts.append(p.text)
                answers += p.answers
            elif p:
                texts.append(p)
        return Section("\n".join(texts), answers)


def page_file(study: str) -> str:
    """The page's file name in ``reports/``: ``boomke-wies`` -> ``boomke_wies.md``."""
    return study.replace("-", "_") + ".md"


def _promote(body: str) -> str:
    """Headings one level up (``###`` -> ``##``), outside fenced code."""
    out, fenced = [], False
    for line in body.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        if not fenced and line.startswith("###"):
            line = line[1:]
        out.append(line)
    return "\n".join(out)


def answers_md(answers) -> str:
    return "\n".join(f"- **{q}** {a}" for q, a in answers)


def render_page(study: str, section: Section, seconds: float, cmd: str, version: str) -> str:
    """The page of one study: title, how it was made, the questions and short answers, then its tables."""
    lines = section.text.strip().splitlines()
    if not lines or not lines[0].startswith("## "):
        raise ValueError(f"the {study} section must begin with a '## ' title")
    title, body = lines[0][3:].strip(), "\n".join(lines[1:]).strip()
    when = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%MZ")
    head = [f"<!-- tricksim:page {study} seconds={seconds:.0f} generated={when} -->",
            f"# {title}\n",
            f"[All reports](README.md). Generated {when.replace('T', ' ').replace('Z', ' UTC')} by tricksim {version} "
            f"with `{cmd}` in {seconds:.0f} s. Every rate has its 95% interval and sample size; every table names the "
            "command that regenerates it.\n",
            "## Questions and short answers\n", _ANSWERS, answers_md(section.answers), _END_ANSWERS, ""]
    return "\n".join(head) + "\n" + _promote(body).rstrip() + "\n"


@dataclass
class PageInfo:
    study: str
    title: str
    seconds: float
    generated: str
    answers: str


def read_page(path: Path) -> PageInfo | None:
    """What the index needs of a written page (None if ``path`` is not a tricksim page)."""
    if not path.exists():
        return None
    lines = path.read_text().splitlines()
    m = _PAGE.match(lines[0]) if lines else None
    if not m:
        return None
    title = next((x[2:] for x in lines if x.startswith("# ")), m.group(1))
    try:
        a, b = lines.index(_ANSWERS), lines.index(_END_ANSWERS)
        answers = "\n".join(lines[a + 1:b])
    except ValueError:
        answers = ""
    return PageInfo(m.group(1), title, float(m.group(2)), m.group(3), answers)


INTRO = ("What tricksim's simulations say about the three games, one page per question. The short answers "
         "below are copied from the pages, where each figure stands beside its table, its 95% interval, its "
         "sample size and the command that regenerates it. Unless a page says otherwise every seat plays "
         "tricksim's default heuristic under the default rules of [docs/RULES.md](../docs/RULES.md); a rate is "
         "the share of simulated deals, `± x` and `[lo, hi]` are 95% intervals.")


def write_index(out: Path, studies: list[str], cmd: str, version: str, groups: dict) -> Path:
    """``out/README.md``: for each written page (in ``studies`` order, under the headings of ``groups``: a
    heading -> its studies), its title linked, its short answers, how long it took and when."""
    pages = {s: read_page(out / page_file(s)) for s in studies}
    lines = ["# tricksim headline reports\n", INTRO + "\n",
             f"Regenerate the headline pages (the three games and comparing heuristics): `tricksim report` (the main "
             f"job, `bash scripts/report.sh`, runs it); every page: `tricksim report --all`; one page: "
             f"`tricksim report --only STUDY`. This index was written by `{cmd}` with tricksim {version}.\n"]
    for heading, members in groups.items():
        present = [s for s in members if pages.get(s)]
        if not present:
            continue
        lines.append(f"## {heading}\n")
        for s in present:
            p = pages[s]
            lines.append(f"### [{p.title}]({page_file(s)})\n")
            if p.answers.strip():
                lines.append(p.answers.strip() + "\n")
            lines.append(f"_`tricksim report --only {s}`: {p.seconds:.0f} s, "
                         f"{p.generated.replace('T', ' ').replace('Z', ' UTC')}._\n")
    path = out / "README.md"
    tmp = path.with_name("README.md.tmp")
    tmp.write_text("\n".join(lines))
    os.replace(tmp, path)
    return path


def pair_answer(pairs, a: str, b: str, metric: str, unit: str) -> str:
    """One pair of a duplicate tournament in words: ``a - b`` with its 95% interval, the deals, and which is
    better (Holm-adjusted at 5%) or that the two cannot be told apart."""
    r, sign = pair_row(pairs, a, b, metric)
    d = sign * float(r["diff"])
    n = int(r.n_deals)
    text = f"{a} - {b} = {pm(d, float(r.ci), 3, missing='too few deals for an interval')} {unit} ({n:,} deals"
    if r.p_holm != r.p_holm:
        return text + ")"
    if bool(r.significant):
        return text + f", Holm-adjusted {p_text(r.p_holm)}): {a if d > 0 else b} is better"
    return text + f", Holm-adjusted {p_text(r.p_holm)}): not significantly different"
