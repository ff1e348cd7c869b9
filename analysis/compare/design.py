"""The seating design of a duplicate tournament (see the package's docstring), from each game's
``Game.duplicate`` (analysis/game.py)."""
from __future__ import annotations

import functools
import itertools

import numpy as np

from tricksim.analysis.common import TricksimError, rules_dict


def _game(game):
    from tricksim.analysis.registry import get
    return game if not isinstance(game, str) else get(game)


@functools.lru_cache(maxsize=64)
def _design(k: int, n_seats: int):
    base = tuple(s % k for s in range(n_seats))
    orbit = sorted({tuple(p[x] for x in base) for p in itertools.permutations(range(k))})
    rounds, seen = [], set()
    for sig in orbit:
        if sig in seen:
            continue
        rnd = [tuple((x + j) % k for x in sig) for j in range(k)]
        seen.update(rnd)
        rounds.append(rnd)
    return tuple(s for r in rounds for s in r), len(rounds)


def design(k: int, n_seats: int):
    """The balanced seating design of k entrants at ``n_seats`` seats: (ids, nround) with
    ids int64[nround * k, n_seats] = the entrant of each seat, round c in rows c*k..c*k+k-1.
    The rows are every assignment of the entrants to the pattern s -> s mod k (each
    once), grouped in rounds that shift the entrants cyclically, so a round puts every
    entrant in every seat once and the whole design puts every ordered pair of entrants
    in every ordered pair of seats equally often."""
    if k < 2:
        raise TricksimError("compare needs at least two heuristics")
    rows, nround = _design(int(k), int(n_seats))
    return np.array(rows, np.int64), nround


def n_seats(game, params=None) -> int:
    """The seats of a tournament's table (a variable table: ``params['players']``)."""
    game = _game(game)
    return game.check_players((params or {}).get("players")) if game.variable_table else game.seats


def seating(game, k: int, params=None):
    """The seating design of k entrants at this game's table (``design``), refusing more entrants
    than the game takes."""
    game = _game(game)
    top = game.duplicate.max_entrants
    if top is not None and not 2 <= k <= top:
        raise TricksimError(f"compare takes 2 to {top} heuristics at a time for {game.title}, got {k}")
    return design(k, n_seats(game, params))


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
    return (f"the entrants take the {n_seats} seats in the repeating pattern 1..{k}, and all {len(ids)} "
            f"assignments of the names to that pattern are played, in {nround} round{'s' if nround > 1 else ''} of {k} "
            "(a round shifts the names one place along the pattern: every entrant in every seat once); every deal is "
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
