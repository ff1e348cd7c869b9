"""The headline section ``trust`` (``tricksim report``): how far to trust the odds.  Every odds table of
tricksim is the odds of its heuristics; this section puts them beside good play (the sampling player
``pimc``) and open-hand play on the same deals, so a reader sees how far the heuristics' numbers move.

Each game writes its own part (``Game.trust``: analysis/boulmous/trust.py, analysis/bourre/trust.py; Boomke
Wies says where its heuristic vs double-dummy table is); this module runs them in the registry's order.
"""
from __future__ import annotations

from pathlib import Path

from . import compare as cmp
from .engine import RunOptions
from .pages import Section
from .registry import GAMES


def trust_section(out: Path, quick: bool = False, progress: bool = False) -> Section:
    """Run the studies into ``out/runs`` and ``out/trust``; the page's section and its short answers."""
    out = Path(out)
    d = out / "trust"
    d.mkdir(parents=True, exist_ok=True)
    runs = out / "runs"

    def opts(name):
        return RunOptions(runs / f"trust-{name}", progress=progress, force=True)

    md = ["## How far to trust the odds: heuristics, the sampling player and open-hand play\n",
          "Every other table of this report counts what happens when every seat plays tricksim's heuristics. Here the "
          "same deals are also played by the sampling player `pimc` in every seat (each card chosen by solving "
          "layouts of the unseen cards consistent with what the seat has seen, open-handed, and playing the card "
          "that does best on average) and open-handed (every seat sees every card and plays perfectly: the taker "
          "against the three defenders). Open-hand play is not a bound on the heuristics' result: weak defenders "
          "can let a weak taker make more than perfect ones would. Gaps are paired (the same deals) with 95% "
          "intervals, in percentage points (pp).\n"]

    for g in sorted(GAMES, key=lambda g: g.solver_bench is None):   # the games with a sampling player first
        if g.trust is not None:
            md.append(g.trust(d, opts, quick, cmp.compare, cmp.render_compare))
    return Section.join(md)
