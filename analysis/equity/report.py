"""The headline section ``equity`` (``tricksim report``): whole games.  Each game with a match equity table
writes its part (``Game.equity_report``: analysis/boulmous/equity/report.py, the table at one score state with
its heatmap, a hand's calls ranked by the chance to win the game and by money, score-aware bidding in whole
games; analysis/boomke_wies/report.py, the match equity at one state).  Every block is the output of a CLI
command, printed with the command that regenerates it."""
from __future__ import annotations

from pathlib import Path

from ..compare.games import compare_games, render_games
from ..engine import RunOptions
from ..pages import Section
from ..registry import GAMES


def equity_section(out: Path, quick: bool = False, progress: bool = False) -> Section:
    """Run the studies into ``out/runs`` and ``out/equity``; the page's section and its short answers."""
    out = Path(out)
    d = out / "equity"
    d.mkdir(parents=True, exist_ok=True)
    runs = out / "runs"

    def opts(name):
        return RunOptions(runs / f"equity-{name}", progress=progress, force=True)

    md = ["## Whole games: match equity and score-aware bidding\n"]
    for g in GAMES:
        if g.equity_report is not None:
            md.append(g.equity_report(d, opts, quick, compare_games, render_games))
    return Section.join(md)
