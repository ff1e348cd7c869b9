"""The seating design of a duplicate tournament (see the package's docstring), from each game's
``Game.duplicate`` (analysis/game.py)."""
from __future__ import annotations

import numpy as np

from ..common import TricksimError, rules_dict
from ..registry import get
from ..seating import assignments_text, design, round_text
from ..seating import n_seats as _n_seats
from ..seating import seating as _seating


def _game(game):
    return game if not isinstance(game, str) else get(game)


def n_seats(game, params=None) -> int:
    """The seats of a tournament's table (a game or its name; analysis/seating.py)."""
    return _n_seats(_game(game), params)


def seating(game, k: int, params=None):
    """The seating design of k entrants at this game's table (a game or its name; analysis/seating.py)."""
    return _seating(_game(game), k, params)


def appearances(game, k: int, params=None) -> np.ndarray:
    """Each entrant's seat appearances per deal: ``rounds``, a round puts every entrant in every seat
    once (the table's seats); ``pairs``, every ordered pair of entrants plays the deal (a in seats 0
    and 2, b in 1 and 3): 4(k-1)."""
    game = _game(game)
    if game.duplicate.layout == "pairs":
        return np.full(k, 4.0 * (k - 1))
    seating(game, k, params)
    return np.full(k, float(n_seats(game, params)))


def design_text(game, k: int, n_seats: int) -> str:
    game = _game(game)
    if game.duplicate.layout == "pairs":
        return (f"every deal is played {k * (k - 1)} times on the same cards, once per ordered pair of entrants "
                "(one partnership in seats 0 and 2, the other in 1 and 3): every entrant meets every other from both "
                f"sides; {k * (k - 1)} playouts per deal")
    ids, nround = design(k, n_seats)
    return (f"the entrants take the {n_seats} seats in the repeating pattern 1..{k}, and "
            f"{assignments_text(k, n_seats)}, in {nround} round{'s' if nround > 1 else ''} of {k} "
            f"({round_text(k, n_seats)}); every deal is "
            f"replayed on the same cards once per seating of one round ({k} playouts per deal); the rounds take turns "
            f"over the deals{game.duplicate.dealer_note} and weigh the same "
            "(means stratified by round): every entrant meets every other in every relative seat equally often, "
            "whatever the order of the names")


def entrant_specs(game, names, user_defs=None):
    game = _game(game)
    specs = [game.parse_heuristic(h, user_defs) for h in names]
    labels = [s.label for s in specs]
    if len(set(labels)) != len(labels):
        raise TricksimError(f"each heuristic may be named once; got {', '.join(labels)}")
    return specs


def canonical(specs):
    """The entrants in the order the run uses (sorted by label): the order of the names
    given does not change the run."""
    return sorted(specs, key=lambda s: s.label)


def default_extra(game, extra=None):
    """The game's run settings with the defaults filled in (one default for the CLI and the API)."""
    game = _game(game)
    extra = dict(extra or {})
    if game.variable_table:
        extra["players"] = game.check_players(extra.get("players"))
    return extra


def duplicate_params(game, specs, seed, rules, extra=None):
    return {"seed": int(seed), "rules": rules_dict(rules),
            "entrants": [[s.name, dict(s.values), s.label] for s in canonical(specs)],
            **default_extra(game, extra)}
