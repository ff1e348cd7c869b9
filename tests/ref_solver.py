"""A plain exhaustive minimax for Boulmous open-hand play: the oracle of kernels/boulmous/solver.py.

Every legal card of every seat is tried at every turn (no pruning, no equivalent-card
shortcuts); the taker maximises his tricks, the three defenders minimise them. Legality and trick
winners come from the referee (tests/ref_boulmous.py: ``legal_cards``, ``trick_winner``), which
is written from RULES.md independently of the kernels. Results are memoised on (cards still held,
leader) at the start of each trick (a position in the middle of a trick is reached by one order of play only,
so remembering it would save nothing), which changes nothing but the running time.

Cards are docs/trace.md strings ("JH"), trumps "S" "H" "D" "C" or "NT", rules a dict with the
referee's keys ``left_bower_is_trump``, ``must_head``, ``trump_obligation``.
"""
from __future__ import annotations

from functools import lru_cache

import ref_boulmous as ref


def taker_tricks(hands, leader: int, trump: str, rules: dict, taker: int, trick=()) -> int:
    """Tricks the taker takes from this position on (the trick in progress included) when all
    four seats see all cards and play perfectly. ``hands``: four lists of the cards still held;
    ``trick``: the cards already played to the current trick, led by ``leader``."""
    lbt = rules["left_bower_is_trump"]
    memo = {}       # (cards held, leader) at the start of a trick -> its value

    def value(hands: tuple, leader: int, trick: tuple) -> int:
        if len(trick) == 4:
            winner = (leader + ref.trick_winner(list(trick), trump, lbt)) % 4
            return (winner == taker) + value(hands, winner, ())
        seat = (leader + len(trick)) % 4
        if not hands[seat]:
            return 0
        if not trick and (hands, leader) in memo:
            return memo[hands, leader]
        results = []
        for c in ref.legal_cards(sorted(hands[seat]), list(trick), trump, rules):
            results.append(value(hands[:seat] + (hands[seat] - {c},) + hands[seat + 1:], leader, trick + (c,)))
        best = max(results) if seat == taker else min(results)
        if not trick:
            memo[hands, leader] = best
        return best

    return value(tuple(frozenset(h) for h in hands), leader, tuple(trick))


def replay(hands, leader: int, trump: str, rules: dict, taker: int, cards, trick=()) -> tuple[int, list]:
    """Plays ``cards`` in order from the position; returns (taker tricks, problems): every card
    must be held by the seat to play and be legal for the referee."""
    lbt = rules["left_bower_is_trump"]
    hands = [set(h) for h in hands]
    trick = list(trick)
    won = 0
    problems = []
    for c in cards:
        seat = (leader + len(trick)) % 4
        if c not in hands[seat]:
            problems.append(f"seat {seat} plays {c}, not in {sorted(hands[seat])}")
            return won, problems
        legal = ref.legal_cards(sorted(hands[seat]), trick, trump, rules)
        if c not in legal:
            problems.append(f"seat {seat} plays {c}, illegal (legal {sorted(legal)}, trick {trick}, trump {trump})")
        hands[seat].discard(c)
        trick.append(c)
        if len(trick) == 4:
            leader = (leader + ref.trick_winner(trick, trump, lbt)) % 4
            won += leader == taker
            trick = []
    if any(hands) or trick:
        problems.append(f"the line stops with cards left: {hands}, trick {trick}")
    return won, problems


def can_take(hands, leader: int, trump: str, rules: dict, taker: int, target: int, trick=()) -> bool:
    """Can the taker take at least ``target`` of the remaining tricks? The same game tree as
    ``taker_tricks``, searched as an AND/OR tree: ``any`` stops at the first card of the taker
    that reaches the target, ``all`` at the first defender card that prevents it."""
    return _searcher(trump, rules, taker)(tuple(frozenset(h) for h in hands), leader, tuple(trick), target)


def taker_tricks_by_search(hands, leader: int, trump: str, rules: dict, taker: int, trick=()) -> int:
    """``taker_tricks`` as the largest target that ``can_take`` reaches (one memo for all targets)."""
    can = _searcher(trump, rules, taker)
    start = tuple(frozenset(h) for h in hands)
    value = 0
    while value < len(hands[(leader + len(trick)) % 4]) and can(start, leader, tuple(trick), value + 1):
        value += 1
    return value


def _searcher(trump: str, rules: dict, taker: int):
    lbt = rules["left_bower_is_trump"]

    @lru_cache(maxsize=None)
    def winner_index(trick: tuple) -> int:      # the referee's answers, remembered
        return ref.trick_winner(list(trick), trump, lbt)

    @lru_cache(maxsize=None)
    def legal(hand: frozenset, trick: tuple) -> list:
        return sorted(ref.legal_cards(sorted(hand), list(trick), trump, rules))

    # What is known of each position at the start of a trick (cards held, leader), for every target at once:
    # [lo, hi] = target lo is reachable, target hi is not (so is every target <= lo, and none >= hi). Mid-trick
    # positions are not remembered: they hardly ever recur, and remembering them costs more than it saves.
    known = {}

    def can(hands: tuple, leader: int, trick: tuple, target: int) -> bool:
        if len(trick) == 4:
            winner = (leader + winner_index(trick)) % 4
            return can(hands, winner, (), target - (winner == taker))
        seat = (leader + len(trick)) % 4
        if target <= 0:
            return True
        if target > len(hands[seat]):          # the seat to play holds one card per trick left
            return False
        bounds = None
        if not trick:
            bounds = known.setdefault((hands, leader), [0, len(hands[seat]) + 1])
            if target <= bounds[0]:
                return True
            if target >= bounds[1]:
                return False
        children = (can(hands[:seat] + (hands[seat] - {c},) + hands[seat + 1:], leader, trick + (c,), target)
                    for c in legal(hands[seat], trick))
        ok = any(children) if seat == taker else all(children)
        if bounds is not None:
            bounds[0 if ok else 1] = target
        return ok

    return can
