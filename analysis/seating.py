"""The seating design of a duplicate tournament (analysis/compare/__init__.py tells the whole design): which
entrant takes which seat in each playout of a deal.  Below the games: their duplicate block functions seat
the entrants with it, and ``compare`` reads it through ``Game.duplicate``."""
from __future__ import annotations

import functools
import itertools
import math

import numpy as np

from .common import TricksimError


FULL_ROUNDS = 120     # the largest full design (every assignment) played; beyond it, the compact design below


def _full_rounds(k: int, n_seats: int) -> int:
    """Rounds of the full design (every assignment of the k names to the pattern), without building it."""
    used = min(k, n_seats)
    return math.perm(k, used) // k


def prime_power(q: int):
    """(p, m) when q = p**m for a prime p, else None."""
    for p in range(2, q + 1):
        if q % p == 0:
            m, r = 0, q
            while r % p == 0:
                r //= p
                m += 1
            return (p, m) if r == 1 else None
    return None


@functools.lru_cache(maxsize=16)
def _field(q: int):
    """(add, mul): the addition and multiplication tables of the field of q = p**m elements, element e being
    the polynomial whose coefficients are e's base-p digits, modulo the first monic irreducible polynomial of
    degree m (found by trying each in turn: the tables are a field iff every non-zero element has an inverse)."""
    p, m = prime_power(q)
    digits = np.array([[(e // p ** i) % p for i in range(m)] for e in range(q)], np.int64)
    weights = p ** np.arange(m)
    add = ((digits[:, None, :] + digits[None, :, :]) % p) @ weights
    for low in range(p ** m if m > 1 else 1):
        mod = [(low // p ** i) % p for i in range(m)]            # x^m = -(mod) ...: the monic polynomial x^m + mod
        mul = np.zeros((q, q), np.int64)
        for a in range(q):
            for b in range(q):
                prod = [0] * (2 * m - 1)
                for i in range(m):
                    for j in range(m):
                        prod[i + j] = (prod[i + j] + digits[a, i] * digits[b, j]) % p
                for d in range(2 * m - 2, m - 1, -1):             # reduce x^d = x^(d-m) * (-mod)
                    c, prod[d] = prod[d], 0
                    for i in range(m):
                        prod[d - m + i] = (prod[d - m + i] - c * mod[i]) % p
                mul[a, b] = int(np.dot(prod[:m], weights))
        if all((mul[a] == 1).any() for a in range(1, q)):
            return add, mul
    raise AssertionError(f"no irreducible polynomial of degree {m} over GF({p})")


@functools.lru_cache(maxsize=64)
def _design(k: int, n_seats: int):
    if _full_rounds(k, n_seats) <= FULL_ROUNDS:
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
    # compact (affine) design over the field of k elements: round b (b != 0), row a puts entrant b*x + a at a
    # seat of pattern position x; a round is every translate a (every entrant in every seat once), and seats of
    # different positions x != y hold the pair (b x + a, b y + a), whose difference b (y - x) takes every
    # non-zero value once over the rounds: every ordered pair of different entrants exactly once
    add, mul = _field(k)
    rows = [tuple(int(add[mul[b, s % k], a]) for s in range(n_seats)) for b in range(1, k) for a in range(k)]
    return tuple(rows), k - 1


def compact(k: int, n_seats: int) -> bool:
    """Whether k entrants at ``n_seats`` seats play the compact design (``design``) rather than every assignment."""
    return _full_rounds(int(k), int(n_seats)) > FULL_ROUNDS


def assignments_text(k: int, n_seats: int) -> str:
    """Which seatings are played, in words, for the design texts of ``compare``."""
    ids, nround = design(k, n_seats)
    if not compact(k, n_seats):
        return f"all {len(ids)} assignments of the names to that pattern are played"
    return (f"{len(ids)} of the {math.perm(k, min(k, n_seats)):,} assignments of the names to that pattern are played "
            f"(the compact design over the field of {k} elements: each ordered pair of different names holds once each "
            "ordered pair of seats that the pattern gives to different names)")


def round_text(k: int, n_seats: int) -> str:
    """What a round of the design does, in words."""
    if compact(k, n_seats) and prime_power(k)[1] > 1:
        return "a round adds one element of that field to every name: every entrant in every seat once"
    return "a round shifts the names one place along the pattern: every entrant in every seat once"


def design(k: int, n_seats: int):
    """The balanced seating design of k entrants at ``n_seats`` seats: (ids, nround) with
    ids int64[nround * k, n_seats] = the entrant of each seat, round c in rows c*k..c*k+k-1.
    A round puts every entrant in every seat once.  For two seats s != t the whole design puts every ordered
    pair of different entrants in (s, t) equally often when s mod k != t mod k; with more seats than entrants,
    seats with s mod k == t mod k are always held by one entrant (every entrant equally often), never by two
    different ones.
    - Full design (when it has at most ``FULL_ROUNDS`` rounds, as every design of up to 4 Boulmous or 6 Bourre
      entrants): the rows are every assignment of the entrants to the pattern s -> s mod k (each once), grouped
      in rounds that shift the entrants cyclically; closed under renaming the entrants.
    - Compact design (more rounds than that, k a prime power: 7 or 8 entrants at 5 Bourre seats would need 360 or
      840 rounds): the affine rows b*x + a over the field of k elements, k - 1 rounds of k; it balances pairs
      (the design's promise above), not larger groups of entrants.
    Other numbers of entrants beyond the full design are refused."""
    if k < 2:
        raise TricksimError("compare needs at least two heuristics")
    if compact(k, n_seats) and prime_power(k) is None:
        ok = [x for x in range(2, k + 2) if not compact(x, n_seats) or prime_power(x)]
        raise TricksimError(f"{k} entrants at {n_seats} seats would need {_full_rounds(k, n_seats):,} rounds of "
                            f"seatings; take {max(x for x in ok if x < k)} or {min(x for x in ok if x > k)} entrants "
                            "(a balanced design of fewer rounds exists for a prime power: 7, 8, 9, 11, ...)")
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
