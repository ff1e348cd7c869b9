"""The games tricksim plays: one line per game (its package builds its ``Game`` record,
analysis/game.py).  The CLI, ``compare``, ``bench``, the report, the engine (block functions
by study name, e.g. on a Dask worker) and the tests iterate ``GAMES``."""
from __future__ import annotations

from tricksim.analysis import boomke_wies, boulmous, bourre
from tricksim.analysis.common import TricksimError
from tricksim.analysis.game import Game

GAMES: tuple[Game, ...] = (
    boulmous.GAME,
    boomke_wies.GAME,
    bourre.GAME,
)


def names() -> list[str]:
    """The games' CLI names, in registry order."""
    return [g.name for g in GAMES]


def get(name: str) -> Game:
    """The game of a name: its CLI name (``boomke-wies``) or its key (``boomke_wies``)."""
    text = str(getattr(name, "value", name)).strip().lower()
    for g in GAMES:
        if text in (g.name, g.key):
            return g
    raise TricksimError(f"unknown game {name!r}; the games are: {', '.join(names())}")


def block_function(study: str):
    """The block function registered under ``study`` (``<game key>.<name>``) by its game."""
    for g in GAMES:
        if study in g.blocks:
            return g.blocks[study]
    raise TricksimError(f"unknown study {study!r}")


def hand_rows_function(study: str):
    """The per-hand rows of ``study`` (``--keep-hands``), or None where a game keeps none."""
    for g in GAMES:
        if study in g.hand_rows:
            return g.hand_rows[study]
    return None
