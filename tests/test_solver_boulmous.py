"""The Boulmous open-hand solver (kernels/boulmous/solver.py) against plain Python minimax.

Oracles (tests/ref_solver.py), both built on the referee's legal moves and trick winners
(tests/ref_boulmous.py), so they are independent of the kernels:
- ``taker_tricks``: exhaustive minimax, on thousands of random endgames of 2-4 tricks, at trick
  boundaries and in the middle of a trick;
- ``can_take``: the same tree as an AND/OR search (checked against ``taker_tricks`` here), fast
  enough in Python for whole 6-trick deals.
Every trump and no-trump, and several settings of the play flags. The principal variation is
replayed by the referee (legal, and it scores the value). The first test guards against a stale
numba cache (see the docstring of kernels/boulmous/solver.py): the rules as compiled into the
solver's cache must equal kernels/boulmous/rules.py as it is now.

The sampling player (PIMC): its worlds are exactly the layouts the referee finds consistent with
the seat's view, drawn uniformly (chi-square against an enumeration); whole deals played by four
PIMC seats are legal, scored as the referee scores them, and identical for 1 and 2 threads; a
decision is a pure function of the view and the key.
"""
import itertools
import random

import numba
import numpy as np
import pytest

import ref_boulmous as ref
import ref_solver
from tricksim.kernels import boulmous as kb
from tricksim.kernels.boulmous import pimc as PM
from tricksim.kernels.boulmous import solver as S

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
    """legal_mask/beats/tables compiled into the solver's cache equal kernels/boulmous/rules.py's."""
    rng = random.Random(7)
    deck = [cid(c) for c in ref.DECK]
    higher = S._build_higher()      # from kernels/boulmous/rules.py's tables as they are now
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
            "kernels/boulmous/solver.py's numba cache is stale: kernels/boulmous/rules.py changed; "
            "delete kernels/*/__pycache__")


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
        assert ref_solver.taker_tricks_by_search(hands, leader, trump, r, taker, trick) == v


@pytest.mark.parametrize("rules", RULE_SETS, ids=RULE_IDS)
def test_endgames_equal_minimax(rules):
    """Random endgames of 2, 3 and 4 tricks, at trick boundaries and mid-trick, every trump:
    solve == exhaustive minimax, and can_make(k) == (value >= k)."""
    rng = random.Random(100 + RULE_SETS.index(rules))
    ra = rules_array(rules)
    tt = S.new_workspace()
    counts = {2: 1100, 3: 300, 4: 12}     # x 8 rule sets: 11,296 positions
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
    for h, hands, leader, trump, taker, r in _full_deals(150, 2026):
        ra = rules_array(r)
        t = TRUMPS.index(trump)
        got = S.solve(h.copy(), leader, trick, 0, t, taker, ra, tt)
        want = ref_solver.taker_tricks_by_search(hands, leader, trump, r, taker)
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


# ---------------------------------------------------------------------------
# the sampling player (PIMC)
# ---------------------------------------------------------------------------
def _random_history(rng, hands, taker, trump, rules, ncards):
    """Random legal play (referee) of ``ncards`` cards from a whole deal, the taker leading."""
    hands = [list(h) for h in hands]
    leader, trick, seq = taker, [], []
    for _ in range(ncards):
        s = (leader + len(trick)) % 4
        c = rng.choice(sorted(ref.legal_cards(sorted(hands[s]), trick, trump, rules)))
        hands[s].remove(c)
        trick.append(c)
        seq.append(c)
        if len(trick) == 4:
            leader = (leader + ref.trick_winner(trick, trump, rules["left_bower_is_trump"])) % 4
            trick = []
    return hands, seq


def _consistent_layouts(seat, hands_now, seq, taker, trump, rules):
    """Every layout of the cards ``seat`` has not seen that agrees with all it saw: the other
    seats' hand sizes and every card played being legal (referee) with the hands then."""
    unseen = sorted(set(ref.DECK) - set(hands_now[seat]) - set(seq))
    others = [s for s in range(4) if s != seat]
    sizes = [len(hands_now[s]) for s in others]
    out = []
    for a in itertools.combinations(unseen, sizes[0]):
        rest = [c for c in unseen if c not in a]
        for b in itertools.combinations(rest, sizes[1]):
            world = {others[0]: set(a), others[1]: set(b), others[2]: set(rest) - set(b), seat: set(hands_now[seat])}
            # replay: the hand of each seat at the start is its world hand plus what it played
            hands = {s: set(world[s]) for s in range(4)}
            leader, trick, who = taker, [], []
            for c in seq:
                who.append((leader + len(trick)) % 4)
                trick.append(c)
                if len(trick) == 4:
                    leader = (leader + ref.trick_winner(trick, trump, rules["left_bower_is_trump"])) % 4
                    trick = []
            for c, s in zip(seq, who):
                hands[s].add(c)
            ok = True
            leader, trick = taker, []
            for c, s in zip(seq, who):
                if c not in ref.legal_cards(sorted(hands[s]), trick, trump, rules):
                    ok = False
                    break
                hands[s].discard(c)
                trick.append(c)
                if len(trick) == 4:
                    leader = (leader + ref.trick_winner(trick, trump, rules["left_bower_is_trump"])) % 4
                    trick = []
            if ok:
                out.append(tuple(frozenset(world[s]) for s in range(4)))
    return out


@pytest.mark.parametrize("rules", RULE_SETS, ids=RULE_IDS)
def test_sampled_worlds_are_uniform_among_consistent_layouts(rules):
    """sample_worlds counts exactly the layouts the referee finds consistent with the seat's view
    (voids, trumping and heading obligations), and draws them uniformly (chi-square)."""
    rng = random.Random(300 + RULE_SETS.index(rules))
    ra = rules_array(rules)
    deals = _full_deals(5, 4000 + RULE_SETS.index(rules))
    for case, (h, hands, _leader, _trump, taker, _r) in enumerate(deals):
        trump = TRUMPS[case]
        ncards = rng.randint(12, 18)
        now, seq = _random_history(rng, hands, taker, trump, rules, ncards)
        seat = rng.randrange(4)
        layouts = _consistent_layouts(seat, now, seq, taker, trump, rules)
        played = np.zeros(24, np.int64)
        for i, c in enumerate(seq):
            played[i] = cid(c)
        n = 20 * len(layouts)
        out = np.zeros((n, 4), np.uint64)
        total = PM.sample_worlds(seat, mask(now[seat]), played, len(seq), taker, TRUMPS.index(trump), ra,
                                np.uint64(17), case, out)
        assert total == len(layouts)
        # a world is its four hands' card masks (a mask names one set of cards and no other)
        index = {tuple(int(mask(w[s])) for s in range(4)): i for i, w in enumerate(layouts)}
        counts = np.zeros(len(layouts))
        for row in out.tolist():
            w = tuple(row)
            assert w in index, "a sampled world is inconsistent with the seat's view"
            counts[index[w]] += 1
        if len(layouts) > 1:
            expect = n / len(layouts)
            chi2 = float(((counts - expect) ** 2 / expect).sum())
            dof = len(layouts) - 1
            assert chi2 < dof + 6 * (2 * dof) ** 0.5, (chi2, dof)


def test_pimc_plays_legal_deterministic_deals():
    """Whole deals with four PIMC seats: every card legal for the referee, the taker's tricks as
    the referee counts them, and the same cards for the same key with 1 or 2 threads."""
    trick = []
    for k, r in enumerate(RULE_SETS):
        deals = _full_deals(3, 500 + k)
        n = len(deals)
        hands = np.array([d[0] for d in deals], np.uint64)
        takers = np.array([d[4] for d in deals], np.int64)
        trumps = np.array([TRUMPS.index(TRUMPS[(k + i) % 5]) for i in range(n)], np.int64)
        bids = np.array([3 + i % 4 for i in range(n)], np.int64)
        runs = []
        before = numba.get_num_threads()
        try:
            for th in sorted({1, numba.config.NUMBA_NUM_THREADS}):
                numba.set_num_threads(th)
                cards = np.zeros((n, 24), np.int64)
                won = np.zeros(n, np.int64)
                PM.pimc_play_batch(hands, takers, trumps, bids, rules_array(r), 6, k % 2, np.uint64(k), 0, cards, won,
                                   PM.SHARE_TT)
                runs.append((cards, won))
        finally:
            numba.set_num_threads(before)
        for cards, won in runs[1:]:
            assert np.array_equal(cards, runs[0][0]) and np.array_equal(won, runs[0][1])
        cards, won = runs[0]
        for i, d in enumerate(deals):
            got, problems = ref_solver.replay(d[1], takers[i], TRUMPS[trumps[i]], r, takers[i],
                                              [cstr(c) for c in cards[i]], trick)
            assert problems == [] and got == won[i], problems


def test_pimc_card_is_a_pure_function_of_view_and_key():
    r = RULE_SETS[0]
    ra = rules_array(r)
    rng = random.Random(8)
    for h, hands, _leader, trump, taker, _r in _full_deals(12, 77):
        now, seq = _random_history(rng, hands, taker, trump, r, rng.randint(0, 20))
        leader_seat = None
        played = np.zeros(24, np.int64)
        for i, c in enumerate(seq):
            played[i] = cid(c)
        # the seat to play: replay the tricks
        leader, trick = taker, []
        for c in seq:
            trick.append(c)
            if len(trick) == 4:
                leader = (leader + ref.trick_winner(trick, trump, True)) % 4
                trick = []
        seat = (leader + len(trick)) % 4
        args = (seat, mask(now[seat]), played, len(seq), taker, TRUMPS.index(trump), 4, ra, 16, 1,
                np.uint64(3), 11)
        a = PM.pimc_card(*args, S.new_workspace(), PM.SHARE_TT)
        b = PM.pimc_card(*args, S.new_workspace(), PM.SHARE_TT)
        ws = S.new_workspace()
        S.solve(h.copy(), taker, np.zeros(4, np.int64), 0, 1, taker, ra, ws)      # a used workspace
        c = PM.pimc_card(*args, ws, PM.SHARE_TT)
        assert a == b == c
        assert cstr(a) in ref.legal_cards(sorted(now[seat]), trick, trump, r)
