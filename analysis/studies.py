"""The main job: every game's headline studies on built-in defaults, into reports/."""
from __future__ import annotations

import os
import time
from pathlib import Path

from . import __version__
from . import compare as cmp
from .chart import chart_section
from .common import TricksimError, check_out_path
from .compare import render_best, render_crossings
from .engine import RunOptions
from .equity.report import equity_section
from .ladder import ladder_section
from .output import pm, write_table
from .pages import Section, page_file, pair_answer, render_page, write_index
from .registry import GAMES, get
from .stats import pair_row
from .trust import trust_section
from .tune.report import tune_section


def sweep_sentence(best: dict, changes: list[dict], param: str, unit: str) -> str:
    """What a sweep shows, in the words ``tricksim sweep`` prints: the best value named only when the
    paired simultaneous intervals tell it from every other value (else the values that cannot be told
    apart from the largest), and only the zero crossings the data establish."""
    text = render_best(best, param, unit).strip()
    text = text[0].upper() + text[1:]
    if not text.endswith("."):
        text += "."
    z = render_crossings(changes, param)
    return f"{text} {z[0].upper() + z[1:]}."


def field_sentence(field: dict, h2h: dict, a: str, b: str, metric: str = "points") -> str:
    """A pairwise difference in a field of more than two entrants beside the same pair head to head."""

    def diff(res):
        r, sign = pair_row(res["pairs"], a, b, metric)
        return pm(sign * r["diff"], r["ci"], 3, missing="too few deals for an interval")
    others = [x for x in field["labels"] if x not in (a, b)]
    return (f"A pairwise difference depends on the rest of the field: {a} - {b} is {diff(field)} {field['unit']} "
            f"with {', '.join(others)} at the table ({field['n']:,} deals), and {diff(h2h)} head to head "
            f"({h2h['n']:,} deals; 95% intervals). To compare two heuristics, play them head to head.")


def _compare_section(out: Path, quick: bool, progress: bool) -> Section:
    from .plots import leaderboard_plot, sweep_edge_note, sweep_plot

    d = out / "compare"
    d.mkdir(parents=True, exist_ok=True)
    n = 20_000 if quick else 1_000_000
    names = ["cautious", "aggressive", "random"]
    res = cmp.compare("boulmous", names, hands=n, seed=2026,
                      opts=RunOptions(out / "runs" / "boulmous-headline-compare", progress=progress, force=True))
    h2h = cmp.compare("boulmous", names[:2], hands=n // 4, seed=2026,
                      opts=RunOptions(out / "runs" / "boulmous-headline-compare-h2h", progress=progress, force=True))
    write_table(res["leaderboard"], d, "boulmous_leaderboard")
    write_table(res["pairs"], d, "boulmous_pairs")
    leaderboard_plot(res["leaderboard"], "points", res["unit"], d / "boulmous_leaderboard.png", res["n"])
    vals = [-1.0, -0.5, 0.0, 0.5, 1.0, 1.5] if quick else [round(-1.0 + 0.25 * i, 2) for i in range(11)]
    ns = 10_000 if quick else 200_000
    sw = cmp.sweep("boulmous", "cautious", "margin", vals, against="aggressive", hands=ns, seed=2026,
                   opts=RunOptions(out / "runs" / "boulmous-headline-sweep", progress=progress, force=True))
    write_table(sw, d, "boulmous_sweep_margin")
    best = cmp.best_value(sw)
    changes = cmp.sign_changes(sw)
    default = get("boulmous").parse_heuristic("cautious").value("margin")
    edge = sweep_edge_note(sw.value, best["value"])
    sweep_plot(sw, d / "boulmous_sweep_margin.png", "cautious:margin=v against aggressive (Boulmous)", res["unit"],
               best["value"], [c["at"] for c in changes if c["established"]], default=default,
               contenders=best["contenders"])
    md = ["## Comparing heuristics (Boulmous)\n",
          f"Regenerate: `tricksim compare boulmous {' '.join(names)} --hands {n} --seed 2026`\n",
          "```", cmp.render_compare(res), "```\n",
          "![leaderboard](compare/boulmous_leaderboard.png)\n",
          field_sentence(res, h2h, names[0], names[1]) + f" Regenerate: `tricksim compare boulmous {names[0]} "
          f"{names[1]} --hands {n // 4} --seed 2026`\n",
          f"### Sweep: the bidding margin of `cautious` against `aggressive`\n",
          f"Regenerate: `tricksim sweep boulmous cautious --param margin={vals[0]}:{vals[-1]}:{vals[1] - vals[0]:g} "
          f"--against aggressive --hands {ns} --seed 2026`\n",
          f"Each value plays the same {ns:,} deals (rotated through the seats). {sweep_sentence(best, changes, 'margin', res['unit'])} "
          f"The default margin is {default:g}." + (f" Note: {edge}." if edge else "") + "\n",
          "![sweep](compare/boulmous_sweep_margin.png)\n"]
    answers = [("Boulmous: which plays better, `cautious` or `aggressive`?",
                "Head to head, " + pair_answer(h2h["pairs"], names[0], names[1], "points", h2h["unit"])
                + "; by money, " + pair_answer(h2h["pairs"], names[0], names[1], "stakes", "stakes per deal") + "."),
               ("Boulmous: how cautious should the bidding be?",
                f"Against `aggressive`, over {ns:,} deals per value: " + sweep_sentence(best, changes, "margin", res["unit"])
                + f" The default margin is {default:g}.")]
    return Section("\n".join(md), answers)


STUDIES = [g.name for g in GAMES] + ["charts", "compare", "trust", "ladder", "equity", "tune"]
# the index's headings, each with its studies (pages), in the order of STUDIES
GROUPS = {"The games": [g.name for g in GAMES], "What to do with hands like this": ["charts"],
          "Across the games": ["compare", "trust", "ladder", "equity", "tune"]}


def check_only(only) -> list[str] | None:
    """``--only`` values (repeated or comma-separated) as study names; unknown names are refused."""
    if not only:
        return None
    names = []
    for item in only:
        for x in str(item).split(","):
            x = x.strip().lower().replace("_", "-")
            if not x:
                continue
            if x not in STUDIES:
                raise TricksimError(f"--only {x!r} is not a study; the studies are: {', '.join(STUDIES)}")
            if x not in names:
                names.append(x)
    if not names:
        raise TricksimError(f"--only needs a study name: {', '.join(STUDIES)}")
    return names


def headline_step(study: str, out: Path, quick: bool = False, progress: bool = False) -> Section:
    """Run one headline study (a game's, or a cross-game one) into ``out``; its section."""
    if study == "charts":
        sec = chart_section(out, quick, progress)
    elif study == "compare":
        sec = _compare_section(out, quick, progress)
    elif study == "trust":
        sec = trust_section(out, quick, progress)
    elif study == "ladder":
        sec = ladder_section(out, quick, progress)
    elif study == "equity":
        sec = equity_section(out, quick, progress)
    elif study == "tune":
        sec = tune_section(out, quick, progress)
    else:
        sec = get(study).headline(out, quick=quick, progress=progress)
    return sec


def run_all(out: Path = Path("reports"), quick: bool = False, only=None, progress: bool = True,
            log=None) -> Path:
    """Run the headline studies into ``out``: a page per study (``out/<study>.md``) and the index
    ``out/README.md``.  With ``only``, just those studies run and only their pages are replaced; the index
    is rebuilt from every page present.  ``log(line)`` receives one line as each study starts and ends, and
    the total."""
    only = check_only(only)
    out = Path(out)
    check_out_path(out, "--out")
    out.mkdir(parents=True, exist_ok=True)
    todo = [s for s in STUDIES if not only or s in only]
    say = log or (lambda line: None)
    cmd = "tricksim report" + (" --quick" if quick else "") + "".join(f" --only {x}" for x in (only or []))
    t_all = time.perf_counter()
    for i, study in enumerate(todo, 1):
        say(f"[{i}/{len(todo)}] {study}: running{' (quick)' if quick else ''} ...")
        t0 = time.perf_counter()
        sec = headline_step(study, out, quick=quick, progress=progress)
        seconds = time.perf_counter() - t0
        page = out / page_file(study)
        tmp = page.with_name(page.name + ".tmp")
        tmp.write_text(render_page(study, sec, seconds, "tricksim report" + (" --quick" if quick else "")
                                   + f" --only {study}", __version__))
        os.replace(tmp, page)
        say(f"[{i}/{len(todo)}] {study}: done in {seconds:.0f} s, {page}")
    readme = write_index(out, STUDIES, cmd, __version__, GROUPS)
    say(f"headline reports written to {readme} and its pages in {time.perf_counter() - t_all:.0f} s")
    return readme
