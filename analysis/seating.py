"""The seating design of a duplicate tournament (analysis/compare/__init__.py tells the whole design): which
entrant takes which seat in each playout of a deal.  Below the games: their duplicate block functions seat
the entrants with it, and ``compare`` reads it through ``Game.duplicate``."""
from __future__ import annotations

import functools
import itertools

import numpy as np

from .common import TricksimError


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
    entrant in every seat once.  For two seats s != t the whole design puts every ordered
    pair of different entrants in (s, t) equally often when s mod k != t mod k; with more
    seats than entrants, seats with s mod k == t mod k are always held by one entrant (every
    entrant equally often), never by two different ones."""
    if k < 2:
        raise TricksimError("compare needs at least two heuristics")
    rows, nround = _design(int(k), int(n_seats))
    return np.array(rows, np.int64), nround


def n_seats(game, params=None) -> int:
    """The seats of a tournament's table (a variable table: ``params['players']``)."""
    return game.check_players((params or {}).get("players")) if game.variable_table else game.seats


def seating(game, k: int, params=None):
    """The seating design of k entrants at this game's table (``design``), refusing more entrants
    than the game takes."""
    top = game.duplicate.max_entrants
    if top is not None and not 2 <= k <= top:
        raise TricksimError(f"compare takes 2 to {top} heuristics at a time for {game.title}, got {k}")
    return design(k, n_seats(game, params))
