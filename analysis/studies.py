"""The main job: the headline studies on built-in defaults, into reports/, and every other study page on demand."""
from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
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
from .pages import Section, page_file, pair_answer, read_page, render_page, write_index
from .progress import stderr_console
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
# the main job (`tricksim report`): the three questions the tool is for (a hand's bid odds in each game, how the
# Bourre pot grows, which heuristic wins); the other pages answer further questions and run with --all or --only
HEADLINE = [g.name for g in GAMES] + ["compare"]
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


def todo_studies(only=None, every: bool = False) -> list[str]:
    """The studies a ``report`` runs, in page order: ``only``'s, else every study (``every``), else the headline
    ones."""
    only = check_only(only)
    return [s for s in STUDIES if (s in only if only else (every or s in HEADLINE))]


def write_study_page(study: str, out: Path, quick: bool = False, progress: bool = False) -> float:
    """Run one study and write its page ``out/<study>.md`` (atomically: an interrupted run leaves the old page);
    the seconds it took."""
    t0 = time.perf_counter()
    sec = headline_step(study, out, quick=quick, progress=progress)
    seconds = time.perf_counter() - t0
    page = out / page_file(study)
    tmp = page.with_name(page.name + ".tmp")
    tmp.write_text(render_page(study, sec, seconds, "tricksim report" + (" --quick" if quick else "")
                               + f" --only {study}", __version__))
    os.replace(tmp, page)
    return seconds


# a study in a process of its own (``report --jobs N``): its page, or its one-line error and exit code 2; what it
# says on stderr (a kernel compiling and how long it took) reaches the parent line by line; no progress bars (the
# parent's status line says which studies are running, and for how long)
_CHILD = r"""
import sys
from pathlib import Path
from tricksim.analysis import compiling
from tricksim.analysis.common import TricksimError, exit_now
from tricksim.analysis.studies import write_study_page
compiling.install()
try:
    write_study_page(sys.argv[1], Path(sys.argv[2]), quick=sys.argv[3] == "1")
except TricksimError as e:
    print(f"tricksim: error: {e}", file=sys.stderr)
    exit_now(2)
except KeyboardInterrupt:
    exit_now(130)
exit_now(0)
"""


def _longest_first(todo: list[str], out: Path) -> list[str]:
    """``todo`` ordered by the time each page took when it was last written in ``out`` (longest first, so that
    processes side by side end together); a study without a page counts as the longest."""
    def last(s):
        info = read_page(out / page_file(s))
        return info.seconds if info else float("inf")
    return sorted(todo, key=last, reverse=True)


def _pump(study: str, stream, lines: queue.Queue) -> None:
    for line in iter(stream.readline, ""):
        lines.put((study, line.rstrip("\n")))
    stream.close()


def _said(study: str, line: str, say) -> None:
    if line.strip():
        say(f"{study}: {line.strip().removeprefix('tricksim: ')}")


def _drain(lines: queue.Queue, say) -> None:
    while not lines.empty():
        _said(*lines.get(), say)


class _Status:
    """On a terminal, one line under the log that says which studies are running and for how long."""

    def __init__(self, enabled: bool):
        self.status = None
        if enabled and sys.stderr.isatty():
            self.status = stderr_console().status("")
            self.status.start()

    def show(self, running: dict) -> None:
        if self.status is not None:
            now = time.perf_counter()
            self.status.update("running: " + ", ".join(f"{s} ({now - t0:.0f} s)" for s, (_, t0, _) in running.items()))

    def say(self, say, line: str) -> None:
        if self.status is not None:
            self.status.console.print(f"tricksim: {line}", highlight=False, markup=False)
        else:
            say(line)

    def stop(self) -> None:
        if self.status is not None:
            self.status.stop()


def _run_side_by_side(todo: list[str], out: Path, quick: bool, jobs: int, say, progress: bool) -> None:
    """Each study in a process of its own, ``jobs`` at a time (Numba compiles on one core per process, so two
    pages compile side by side); a page is written when its study ends, as with one process.  What a study says
    (a kernel compiling and how long it took) is printed with its name; on a terminal a status line says which
    studies are running.  Once a study fails
    (its one-line error is printed) no other starts, those running finish, and it raises."""
    waiting, running, n = _longest_first(todo, out), {}, len(todo)
    lines: queue.Queue = queue.Queue()
    status = _Status(progress)
    failed = None
    try:
        while waiting or running:
            while waiting and len(running) < jobs and failed is None:
                study = waiting.pop(0)
                status.say(say, f"[{todo.index(study) + 1}/{n}] {study}: running{' (quick)' if quick else ''} ...")
                proc = subprocess.Popen([sys.executable, "-c", _CHILD, study, str(out), "1" if quick else "0"],
                                        stderr=subprocess.PIPE, text=True, bufsize=1)
                pump = threading.Thread(target=_pump, args=(study, proc.stderr, lines), daemon=True)
                pump.start()
                running[study] = (proc, time.perf_counter(), pump)
            if not running:
                break
            try:
                study, line = lines.get(timeout=0.5)
                _said(study, line, lambda line: status.say(say, line))
                continue
            except queue.Empty:
                pass
            status.show(running)
            for study, (proc, _, pump) in list(running.items()):
                rc = proc.poll()
                if rc is None:
                    continue
                pump.join(timeout=5)
                _drain(lines, lambda line: status.say(say, line))     # its last lines before its end
                del running[study]
                i = todo.index(study) + 1
                if rc == 0:
                    info = read_page(out / page_file(study))
                    status.say(say, f"[{i}/{n}] {study}: done in {info.seconds:.0f} s, {out / page_file(study)}")
                elif rc == 130:
                    raise KeyboardInterrupt
                elif failed is None:
                    failed = study
            if failed is not None and not running:
                raise TricksimError(f"the {failed} study failed (its error is above); pages already written are kept")
    finally:
        status.stop()
        for proc, _, _ in running.values():
            proc.terminate()
        for proc, _, _ in running.values():
            proc.wait()
        _drain(lines, say)


def default_jobs() -> int:
    """Processes side by side for ``report``: one per core, at most four (each page's kernels use every core)."""
    return max(1, min(os.cpu_count() or 1, 4))


def run_all(out: Path = Path("reports"), quick: bool = False, only=None, progress: bool = True,
            log=None, every: bool = False, jobs: int = 1) -> Path:
    """Run the headline studies (``HEADLINE``; every study with ``every``, ``only``'s with ``only``) into ``out``:
    a page per study (``out/<study>.md``) and the index ``out/README.md``, rebuilt from every page present (the
    pages of studies not run are kept).  ``jobs`` > 1 runs the studies in that many processes side by side (the
    pages are the same).  ``log(line)`` receives one line as each study starts and ends, and the total."""
    todo = todo_studies(only, every)
    out = Path(out)
    check_out_path(out, "--out")
    out.mkdir(parents=True, exist_ok=True)
    say = log or (lambda line: None)
    cmd = ("tricksim report" + (" --quick" if quick else "") + (" --all" if every and not only else "")
           + "".join(f" --only {x}" for x in (check_only(only) or [])))
    t_all = time.perf_counter()
    if jobs > 1 and len(todo) > 1:
        _run_side_by_side(todo, out, quick, jobs, say, progress)
    else:
        for i, study in enumerate(todo, 1):
            say(f"[{i}/{len(todo)}] {study}: running{' (quick)' if quick else ''} ...")
            seconds = write_study_page(study, out, quick=quick, progress=progress)
            say(f"[{i}/{len(todo)}] {study}: done in {seconds:.0f} s, {out / page_file(study)}")
    readme = write_index(out, STUDIES, cmd, __version__, GROUPS)
    say(f"reports written to {readme} and {len(todo)} page{'s' if len(todo) != 1 else ''} in "
        f"{time.perf_counter() - t_all:.0f} s")
    return readme
