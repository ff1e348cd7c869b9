"""A plain exhaustive search for Bourre open-hand play: the oracle of kernels/bourre/solver.py.

One seat, ``me``, maximises; all the other seats minimise (one adversary, every card seen).
Every legal card of every seat is tried at every turn (no pruning, no equivalent-card
shortcuts). Legality and trick winners come from the referee (tests/ref_bourre.py:
``legal_plays``, ``trick_winner``), written from RULES.md independently of the kernels; the
referee's context (tricks won, cards played, known-out cards, the A-K-Q holders, the Lo-No
up-card at the first trick) is rebuilt at every turn. Results are memoised on the state at the start of each
trick (cards held, leader, tricks won), which changes nothing but the running time.

A position is a ``Position``: seats 0..n-1 are the active players clockwise; cards are ints
``suit*16+rank`` (ref_bourre.cid); ``trump`` a suit 0..3 or None under Lo-No.

- ``guaranteed_tricks(p)``: the most of the remaining tricks (the one in progress included)
  ``me`` takes whatever the others play;
- ``can_take(p, target)``: the same tree as an AND/OR search (stops at the first card that
  decides), fast enough in Python for whole deals at small tables;
- ``surely_wins(p)``: ``me`` ends the deal with strictly more tricks than every other seat
  (tricks won before the position counted), whatever the others play;
- ``replay(p, cards)``: plays a line, checking every card with the referee.
"""
from __future__ import annotations

from dataclasses import dataclass
import ref_bourre as ref


@dataclass(frozen=True)
class Position:
    hands: tuple                 # n tuples of the cards each active seat holds
    me: int
    leader: int                  # the seat that led (or leads) the trick in progress
    trump: int | None            # None: Lo-No (no trumps, low cards win)
    rules: dict                  # the referee's rule keys (ref_bourre.legal_plays)
    trick: tuple = ()            # cards already played to the trick in progress
    won: tuple = ()              # tricks won so far per seat (empty: none)
    played: frozenset = frozenset()      # cards played in earlier tricks
    known_out: frozenset = frozenset()   # cards seen out of play by all
    akq_holders: frozenset = frozenset()  # seats holding A-K-Q of trumps when play began
    lead_card: int | None = None  # Lo-No: the up-card the leader must lead (first trick only)

    @property
    def n(self) -> int:
        return len(self.hands)


def _ctx(p: Position, won, played, first_trick):
    return {"rules": p.rules, "trump": p.trump, "lono": p.trump is None, "upcard": p.lead_card,
            "won": list(won), "played": list(played), "known_out": set(p.known_out),
            "active": list(range(p.n)), "n_active": p.n, "akq_holders": set(p.akq_holders),
            "trick_no": 0 if first_trick else 1}


def _start(p: Position):
    won = tuple(p.won) if p.won else (0,) * p.n
    hands = tuple(frozenset(h) for h in p.hands)
    return hands, won


def legal(p: Position, hands, leader, trick, won, first_trick):
    """The referee's legal cards for the seat to play, in the state reached from ``p``."""
    seat = (leader + len(trick)) % p.n
    played = set(p.played) | set(p.trick) | (set().union(*p.hands) - set().union(*hands))
    lists = [sorted(h) for h in hands]
    return seat, ref.legal_plays(seat, lists, list(trick), _ctx(p, won, played, first_trick))


def _after_trick(p: Position, hands, leader, trick, won):
    seats = [(leader + k) % p.n for k in range(p.n)]
    w = ref.trick_winner(list(trick), seats, p.trump, p.trump is None)
    won = tuple(x + (1 if s == w else 0) for s, x in enumerate(won))
    return w, won


def _remembered_at_trick_start(search):
    """``search`` memoised on its arguments at the start of a trick only (an empty ``trick``, the third argument):
    a position in the middle of a trick is reached by one order of play only, so remembering it would save nothing."""
    memo = {}

    def remembered(hands, leader, trick, *rest):
        if trick:
            return search(hands, leader, trick, *rest)
        key = (hands, leader) + rest
        if key not in memo:
            memo[key] = search(hands, leader, trick, *rest)
        return memo[key]

    return remembered


def _without(hands, seat, c):
    return hands[:seat] + (hands[seat] - {c},) + hands[seat + 1:]


def guaranteed_tricks(p: Position) -> int:
    """Exhaustive minimax: me maximises its tricks from here on, the others minimise them."""
    @_remembered_at_trick_start
    def value(hands, leader, trick, won, first_trick):
        if len(trick) == p.n:
            w, won2 = _after_trick(p, hands, leader, trick, won)
            return (w == p.me) + value(hands, w, (), won2, False)
        seat = (leader + len(trick)) % p.n
        if not hands[seat]:
            return 0
        _, cards = legal(p, hands, leader, trick, won, first_trick)
        results = []
        for c in cards:
            results.append(value(_without(hands, seat, c), leader, trick + (c,), won, first_trick))
        return max(results) if seat == p.me else min(results)

    hands, won = _start(p)
    return value(hands, p.leader, tuple(p.trick), won, p.lead_card is not None)


def can_take(p: Position, target: int) -> bool:
    """Does me surely take >= target of the remaining tricks? (AND/OR form of the same tree.)"""
    @_remembered_at_trick_start
    def can(hands, leader, trick, won, first_trick, target):
        if len(trick) == p.n:
            w, won2 = _after_trick(p, hands, leader, trick, won)
            return can(hands, w, (), won2, False, target - (w == p.me))
        if target <= 0:
            return True
        seat = (leader + len(trick)) % p.n
        if not hands[seat]:
            return False
        _, cards = legal(p, hands, leader, trick, won, first_trick)
        children = (can(_without(hands, seat, c), leader, trick + (c,), won, first_trick, target) for c in sorted(cards))
        return any(children) if seat == p.me else all(children)

    hands, won = _start(p)
    return can(hands, p.leader, tuple(p.trick), won, p.lead_card is not None, target)


def surely_wins(p: Position) -> bool:
    """Does me surely end the deal with strictly more tricks than every other seat?"""
    @_remembered_at_trick_start
    def win(hands, leader, trick, won, first_trick):
        if len(trick) == p.n:
            w, won2 = _after_trick(p, hands, leader, trick, won)
            return win(hands, w, (), won2, False)
        seat = (leader + len(trick)) % p.n
        if not hands[seat]:
            return all(won[p.me] > won[q] for q in range(p.n) if q != p.me)
        _, cards = legal(p, hands, leader, trick, won, first_trick)
        children = (win(_without(hands, seat, c), leader, trick + (c,), won, first_trick) for c in sorted(cards))
        return any(children) if seat == p.me else all(children)

    hands, won = _start(p)
    return win(hands, p.leader, tuple(p.trick), won, p.lead_card is not None)


def replay(p: Position, cards) -> tuple[int, list]:
    """Plays ``cards`` in order from the position; returns (me's tricks in the line, problems):
    every card must be held by the seat to play and be legal for the referee."""
    hands, won = _start(p)
    leader, trick, first = p.leader, tuple(p.trick), p.lead_card is not None
    mine = 0
    problems = []
    for c in cards:
        seat, lg = legal(p, hands, leader, trick, won, first)
        if c not in hands[seat]:
            problems.append(f"seat {seat} plays {ref.cstr(c)}, not in {sorted(map(ref.cstr, hands[seat]))}")
            return mine, problems
        if c not in lg:
            problems.append(f"seat {seat} plays {ref.cstr(c)}, illegal (legal {sorted(map(ref.cstr, lg))})")
        hands = tuple(h - {c} if i == seat else h for i, h in enumerate(hands))
        trick = trick + (c,)
        if len(trick) == p.n:
            w, won = _after_trick(p, hands, leader, trick, won)
            mine += w == p.me
            leader, trick, first = w, (), False
    if any(hands) or trick:
        problems.append(f"the line stops with cards left: {hands}, trick {trick}")
    return mine, problems
