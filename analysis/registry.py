"""The games tricksim plays: one line per game (its package builds its ``Game`` record,
analysis/game.py).  The CLI and the cross-game features (``compare``, ``tune``, ``bench``, ``trust``, the
report) and the tests iterate ``GAMES``; no game imports this module."""
from __future__ import annotations

from . import boomke_wies, boulmous, bourre
from .common import TricksimError
from .game import Game

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
