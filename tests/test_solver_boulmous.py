"""The Boulmous open-hand solver (kernels/solve_boulmous.py) against plain Python minimax.

Oracles (tests/ref_solver.py), both built on the referee's legal moves and trick winners
(tests/ref_boulmous.py), so they are independent of the kernels:
- ``taker_tricks``: exhaustive minimax, on thousands of random endgames of 2-4 tricks, at trick
  boundaries and in the middle of a trick;
- ``can_take``: the same tree as an AND/OR search (checked against ``taker_tricks`` here), fast
  enough in Python for whole 6-trick deals.
Every trump and no-trump, and several settings of the play flags. The principal variation is
replayed by the referee (legal, and it scores the value). The first test guards against a stale
numba cache (see the docstring of kernels/solve_boulmous.py): the rules as compiled into the
solver's cache must equal kernels/boulmous.py as it is now.
"""
import random

import numba
import numpy as np
import pytest

import ref_boulmous as ref
import ref_solver
from tricksim.kernels import boulmous as kb
from tricksim.kernels import solve_boulmous as S

TRUMPS = ["S", "H", "D", "C", "NT"]
OBLIGATIONS = ["optional", "must_trump", "must_trump_and_overtrump"]
RULE_SETS = [
    dict(left_bower_is_trump=True, must_head=False, trump_obligation="optional"),    # the defaults
    dict(left_bower_is_trump=False, must_head=False, trump_obligation="optional"),
    dict(left_bower_is_trump=True, must_head=True, trump_obligation="optional"),
    dict(left_bower_is_trump=True, must_head=False, trump_obligation="must_trump"),
    dict(left_bower_is_trump=True, must_head=False, trump_obligation="must_trump_and_overtrump"),
    dict(left_bower_is_trump=False, must_head=False, trump_obligation="must_trump"),
    dict(left_bower_is_trump=False, must_head=True, trump_obligation="must_trump_and_overtrump"),
    dict(left_bower_is_trump=True, must_head=True, trump_obligation="must_trump"),
]
RULE_IDS = [f"lbt={int(r['left_bower_is_trump'])},head={int(r['must_head'])},{r['trump_obligation']}"
            for r in RULE_SETS]


def cid(card: str) -> int:
    return ref.SUITS.index(card[1]) * 16 + 7 + ref.RANKS.index(card[0])


def cstr(c: int) -> str:
    return ref.RANKS[c % 16 - 7] + ref.SUITS[c // 16]


def mask(cards) -> np.uint64:
    m = 0
    for c in cards:
        m |= 1 << cid(c)
    return np.uint64(m)


def rules_array(r: dict) -> np.ndarray:
    a = np.zeros(kb.N_RULES, np.int64)
    a[kb.R_LEFT_BOWER_TRUMP] = int(r["left_bower_is_trump"])
    a[kb.R_MUST_HEAD] = int(r["must_head"])
    a[kb.R_TRUMP_OBL] = OBLIGATIONS.index(r["trump_obligation"])
    return a


def position(rng, ntricks, rules, trump, mid_trick):
    """A random position with ``ntricks`` tricks left: 4*ntricks random cards of the deck, a
    random leader and, if ``mid_trick``, 1-3 cards already played to the trick (random legal
    cards)."""
    deck = list(ref.DECK)
    rng.shuffle(deck)
    hands = [deck[ntricks * s:ntricks * (s + 1)] for s in range(4)]
    leader = rng.randrange(4)
    trick = []
    for k in range(rng.randint(1, 3) if mid_trick else 0):
        s = (leader + k) % 4
        c = rng.choice(sorted(ref.legal_cards(sorted(hands[s]), trick, trump, rules)))
        hands[s].remove(c)
        trick.append(c)
    return hands, leader, trick


def kernel_args(hands, trick):
    h = np.array([mask(x) for x in hands], np.uint64)
    tr = np.zeros(4, np.int64)
    for k, c in enumerate(trick):
        tr[k] = cid(c)
    return h, tr


def test_solver_cache_is_not_stale():
    """legal_mask/beats/tables compiled into the solver's cache equal kernels/boulmous.py's."""
    rng = random.Random(7)
    deck = [cid(c) for c in ref.DECK]
    higher = S._build_higher()      # from kernels/boulmous.py's tables as they are now
    for i in range(3000):
        r = RULE_SETS[i % len(RULE_SETS)]
        ra = rules_array(r)
        lb = int(r["left_bower_is_trump"])
        t = i % 5
        hand = np.uint64(sum(1 << c for c in rng.sample(deck, rng.randint(1, 6))))
        n = rng.randrange(4)
        c = rng.choice(deck)
        led = int(kb.CSUIT[lb, t, rng.choice(deck)])
        wp = int(kb.POWER[lb, t, rng.choice(deck)])
        got = S.rules_probe(hand, n, led, wp, t, ra, c)
        want = (kb.legal_mask(hand, n, led, wp, t, ra, lb), kb.beats(c, led, wp, t, lb),
                kb.POWER[lb, t, c], kb.CSUIT[lb, t, c], higher[lb, t, c])
        assert tuple(int(x) for x in got) == tuple(int(x) for x in want), (
            "kernels/solve_boulmous.py's numba cache is stale: kernels/boulmous.py changed; "
            "delete kernels/__pycache__")


def test_can_take_equals_exhaustive_minimax():
    """The AND/OR oracle used for whole deals agrees with the exhaustive minimax."""
    rng = random.Random(11)
    for i in range(240):
        r = RULE_SETS[i % len(RULE_SETS)]
        trump = TRUMPS[i % 5]
        hands, leader, trick = position(rng, 2 + i % 2, r, trump, i % 3 == 0)
        taker = rng.randrange(4)
        v = ref_solver.taker_tricks(hands, leader, trump, r, taker, trick)
        for k in range(0, 4):
            assert ref_solver.can_take(hands, leader, trump, r, taker, k, trick) == (v >= k)


@pytest.mark.parametrize("rules", RULE_SETS, ids=RULE_IDS)
def test_endgames_equal_minimax(rules):
    """Random endgames of 2, 3 and 4 tricks, at trick boundaries and mid-trick, every trump:
    solve == exhaustive minimax, and can_make(k) == (value >= k)."""
    rng = random.Random(100 + RULE_SETS.index(rules))
    ra = rules_array(rules)
    tt = S.new_workspace()
    counts = {2: 250, 3: 130, 4: 8}
    checked = 0
    for ntricks, count in counts.items():
        for i in range(count):
            trump = TRUMPS[i % 5]
            t = TRUMPS.index(trump)
            hands, leader, trick = position(rng, ntricks, rules, trump, i % 2 == 1)
            taker = rng.randrange(4)
            want = ref_solver.taker_tricks(hands, leader, trump, rules, taker, trick)
            h, tr = kernel_args(hands, trick)
            got = S.solve(h, leader, tr, len(trick), t, taker, ra, tt)
            assert got == want, (hands, leader, trick, trump, taker, rules)
            for k in range(ntricks + 2):
                assert S.can_make(h, leader, tr, len(trick), t, taker, ra, k, tt) == (want >= k)
            assert [int(x) for x in h] == [int(mask(x)) for x in hands]      # hands restored
            checked += 1
    assert checked == sum(counts.values())


# Mid-trick endgames in which a card already played to the trick lies between two cards of one
# hand: the two are not equivalent (one beats it, the other does not), so the run must not be
# merged (found by mutating the solver; random endgames rarely hit such a case).
SPLIT_RUNS = [
    ([["9D", "KH", "9C"], ["AD", "TD", "TH"], ["TC", "JS", "QC"], ["9S", "9H"]], 3, ["JD"], "NT", 0, 1),
    ([["9S", "KD"], ["JH", "AD", "AH"], ["QC", "JD", "9C"], ["9H", "AS", "JS"]], 0, ["TC"], "NT", 1, 1),
    ([["9C", "TS"], ["9H", "JH"], ["AD", "AS"], ["AC", "TH", "AH"]], 0, ["KH", "QH", "KD"], "H", 1, 1),
]


@pytest.mark.parametrize("case", SPLIT_RUNS)
def test_cards_in_the_trick_split_runs(case):
    hands, leader, trick, trump, taker, rules_index = case
    r = RULE_SETS[rules_index]
    h, tr = kernel_args(hands, trick)
    want = ref_solver.taker_tricks(hands, leader, trump, r, taker, trick)
    assert S.solve(h, leader, tr, len(trick), TRUMPS.index(trump), taker, rules_array(r), S.new_workspace()) == want


def _full_deals(n, seed):
    """n random whole deals (kernels' dealing), with trump, taker, leader and rules cycling."""
    hands = S.random_deals(np.uint64(seed), 0, n)
    out = []
    for i in range(n):
        r = RULE_SETS[i % len(RULE_SETS)]
        trump = TRUMPS[(i // len(RULE_SETS)) % 5]
        taker = i % 4
        leader = taker if i % 3 else (i // 3) % 4
        out.append((hands[i], [sorted(cstr(c) for c in range(64) if (int(hands[i][s]) >> c) & 1) for s in range(4)],
                    leader, trump, taker, r))
    return out


def test_full_deals_equal_minimax_and_pv_is_legal():
    """Whole 6-trick deals: the solver's value equals the Python search's, and the principal
    variation is a legal line (referee) that gives the taker exactly that many tricks."""
    tt = S.new_workspace()
    out = np.zeros(24, np.int64)
    trick = np.zeros(4, np.int64)
    for h, hands, leader, trump, taker, r in _full_deals(160, 2026):
        ra = rules_array(r)
        t = TRUMPS.index(trump)
        got = S.solve(h.copy(), leader, trick, 0, t, taker, ra, tt)
        want = 0
        while want < 6 and ref_solver.can_take(hands, leader, trump, r, taker, want + 1):
            want += 1
        assert got == want, (hands, leader, trump, taker, r)
        v, n = S.principal_variation(h, leader, trick, 0, t, taker, ra, tt, np.zeros(4, np.int64), out)
        assert v == got and n == 24
        won, problems = ref_solver.replay(hands, leader, trump, r, taker, [cstr(c) for c in out[:n]])
        assert problems == [] and won == v, (problems, won, v)


def test_pv_mid_trick_is_legal():
    """Principal variations from mid-trick endgames are legal and score the value."""
    rng = random.Random(5)
    tt = S.new_workspace()
    out = np.zeros(24, np.int64)
    for i in range(400):
        r = RULE_SETS[i % len(RULE_SETS)]
        trump = TRUMPS[i % 5]
        hands, leader, trick = position(rng, 3, r, trump, True)
        taker = rng.randrange(4)
        h, tr = kernel_args(hands, trick)
        v, n = S.principal_variation(h, leader, tr, len(trick), TRUMPS.index(trump), taker, rules_array(r), tt,
                                     np.zeros(4, np.int64), out)
        assert n == 12 - len(trick)
        won, problems = ref_solver.replay(hands, leader, trump, r, taker, [cstr(c) for c in out[:n]], trick)
        assert problems == [] and won == v


def test_solve_batch_matches_solve_for_any_thread_count():
    deals = S.random_deals(np.uint64(99), 0, 600)
    n = deals.shape[0]
    rng = np.random.default_rng(3)
    leaders = rng.integers(0, 4, n).astype(np.int64)
    trumps = rng.integers(0, 5, n).astype(np.int64)
    takers = rng.integers(0, 4, n).astype(np.int64)
    ra = rules_array(RULE_SETS[6])
    tt = S.new_workspace()
    trick = np.zeros(4, np.int64)
    want = np.array([S.solve(deals[i].copy(), leaders[i], trick, 0, trumps[i], takers[i], ra, tt)
                     for i in range(n)])
    before = numba.get_num_threads()
    try:
        for th in sorted({1, numba.config.NUMBA_NUM_THREADS}):
            numba.set_num_threads(th)
            got = np.full(n, -1, np.int64)
            S.solve_batch(deals, leaders, trumps, takers, ra, got)
            assert np.array_equal(got, want)
    finally:
        numba.set_num_threads(before)
