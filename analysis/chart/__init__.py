"""Strategy charts (``tricksim chart GAME``, issue 27): what to do with hands like this, cell by cell.

A cross-game feature: each game that has a chart gives a ``Chart`` hook (analysis/game.py ``Game.chart``) whose
``measure`` returns the cells (``ChartData``: per cell, every action's value for each of its hands, the actions
on the same deals); this package turns them into the decisions with their intervals and "close" cells
(``core``), the heatmaps, tables and page (``views``), the command's text (``chart_command``) and the report's
section (``chart_section``).
"""
from __future__ import annotations

import dataclasses
import time
from pathlib import Path
from typing import Iterator

from ..common import TricksimError, check_out_path
from ..engine import RunOptions
from ..pages import Section
from ..registry import GAMES
from .core import cell_stats, label, mean_t, sizes_text, table
from .views import close_list, extra_markdown, grid, heatmap, page, terminal, write

DEFAULT_OUT = Path("reports") / "charts"


def games() -> list:
    """The games that have a chart, in registry order."""
    return [g for g in GAMES if g.chart is not None]


def make(game, out: Path, quick: bool = False, hands: int | None = None, deals: int | None = None, seed: int = 0,
         play: str = "heuristic", rules=None, opts: RunOptions = RunOptions(), log=None, **options):
    """Measure ``game``'s chart and write it into ``out``: (ChartData, table, page text, files, seconds).  The
    heuristics' kernels run on one thread unless ``opts.threads`` says otherwise: a hand's few deals are one or two
    of a kernel's chunks, and a second thread mostly waits at the kernel's end (measured on a shared 2-core machine:
    twice as fast on one thread at 2,048 deals a hand, four times at 256); the sampling player's chunks are small
    (16 deals), so it keeps every thread."""
    if game.chart is None:
        raise TricksimError(f"{game.title} has no strategy chart yet; the games with one: "
                            f"{', '.join(g.name for g in games())}")
    check_out_path(out, "--out")
    h, d = game.chart.sizes(quick, play)
    for name, v in (("--hands", hands), ("--deals", deals)):
        if v is not None and v < 1:
            raise TricksimError(f"{name} must be at least 1, got {v}")
    if opts.threads is None and str(play).split(":")[0].strip().lower() != "pimc":
        opts = dataclasses.replace(opts, threads=1)
    t0 = time.perf_counter()
    data = game.chart.measure(seed=seed, hands=hands or h, deals=deals or d, play=play,
                              rules=rules or game.rules(), opts=opts, log=log, **options)
    if quick and "--quick" not in data.command:
        data.command = data.command.replace(f" --hands {hands or h} --deals {deals or d}", " --quick")
    df = table(data)
    text, files = write(data, df, out, sizes_text(df))
    return data, df, text, files, time.perf_counter() - t0


def chart_command(game, out: Path | None = None, quick: bool = False, hands: int | None = None,
                  deals: int | None = None, seed: int = 0, play: str = "heuristic", rules=None,
                  opts: RunOptions = RunOptions(), log=None, **options) -> Iterator[str]:
    """``tricksim chart GAME``: measure, write the files, yield the text to print."""
    out = Path(out) if out is not None else DEFAULT_OUT
    data, df, _, files, secs = make(game, out, quick, hands, deals, seed, play, rules, opts, log, **options)
    yield f"{data.title}. Measured with {data.player}."
    yield f"{sizes_text(df)}; values in {data.unit}."
    yield from terminal(data, df)
    close = close_list(df)
    yield f"\nclose cells: {len(close)} of {len(df)} (the best two cannot be told apart; both named)"
    if "agree" in df:
        yield (f"{data.beside_name} beside it on the same deals: the same best action in {int(df.agree.sum())} of "
               f"{len(df)} cells; a clear difference (neither close) in {int(df.differ_clear.sum())}")
    yield f"\n({secs:.1f} s) files: " + ", ".join(str(f) for f in files)
    yield f"Regenerate: {data.command}"


def _names(xs, most: int = 4) -> str:
    xs = list(xs)
    return "; ".join(xs[:most]) + (f"; and {len(xs) - most} more" if len(xs) > most else "")


def chart_answers(data, df) -> list:
    """What a game's chart says, in words from its cells: the classes whose every cell of one panel (the
    middle one: a typical table) is a pass, those that never pass, and how many cells are close."""
    panel = data.panels[len(data.panels) // 2]
    d = df[df.panel == panel]
    by = d.groupby("row", sort=False)
    always = [c for c, g in by if (g.action == "pass").all() and not g.close.any()]
    never = [c for c, g in by if not (g.action == "pass").any() and not (g.runner_up[g.close] == "pass").any()]
    game = data.title.split(":")[0]
    pas = (f"At {panel}, pass from every seat with: {_names(always)}" if always else
           f"At {panel}, no class passes from every seat")
    pas += f"; never pass with: {_names(never)}" if never else ""
    close = df[df.close]
    common = close.chart.value_counts().head(3)
    return [(f"{game}: when should I pass?", pas + f" ({sizes_text(df)}" + (f"; {data.caveat}" if data.caveat else "")
             + ")."),
            (f"{game}: how sure is the chart?",
             f"{len(df) - len(close)} of {len(df)} cells have one best action; {len(close)} are close (the best two "
             "cannot be told apart)" + (", most often " + ", ".join(f"'{k}' ({v})" for k, v in common.items())
                                        if len(common) else "") + ".")]


def chart_section(out: Path, quick: bool, progress: bool) -> Section:
    """The report's charts (``tricksim report --only charts``): every game's chart into ``out/charts/`` (its CSV,
    heatmaps and printable page); the markdown section: per game what it decides, who plays, the sizes, a
    ``Regenerate:`` line, the heatmaps (paths relative to ``out``) and the close cells' count (the page lists them)."""
    out = Path(out)
    parts = ["## Strategy charts", "",
             "What to do with hands like this, cell by cell: the action of the highest expected value over a "
             "class's hands, every action on the same deals; a cell whose best two cannot be told apart (the 95% "
             "interval of their paired margin reaches 0) is hatched and names both. Each page has the legend, the "
             "tables in words and the close cells.", ""]
    answers = []
    for g in games():
        data, df, _, files, secs = make(g, out / "charts", quick, opts=RunOptions(progress=progress))
        rel = [f.relative_to(out).as_posix() for f in files]
        parts += [f"### {data.title}", "", f"Measured with {data.player}. {sizes_text(df)}; {secs:.0f} s.", "",
                  f"Regenerate: `{data.command} --out {(out / 'charts').as_posix()}`", ""]
        parts += [f"![{data.title}: {p}]({f})" for p, f in zip(data.panels, rel[1:-1])]
        parts += ["", f"Close cells: {int(df.close.sum())} of {len(df)}. The page to print: [{rel[-1]}]({rel[-1]}); "
                      f"every cell with its intervals and n: `{rel[0]}`.", ""]
        parts += extra_markdown(data, "####")
        answers += chart_answers(data, df)
    return Section("\n".join(parts), answers)


__all__ = ["cell_stats", "chart_command", "chart_section", "close_list", "DEFAULT_OUT", "games", "grid", "heatmap",
           "label", "make", "mean_t", "page", "sizes_text", "table", "terminal", "write"]
