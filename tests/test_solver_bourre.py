"""The Bourre open-hand solver (kernels/bourre/solver.py) against a plain Python search.

Oracles (tests/ref_solver_bourre.py), built on the referee's legal moves and trick winners
(tests/ref_bourre.py: rules 9-11 with every play flag, the cinch with its trick-in-progress
correction), so they are independent of the kernels:
- ``guaranteed_tricks`` (exhaustive paranoid minimax) and ``surely_wins``: on 10,150 random
  positions of 2-3 cards per hand at 3-7 players (boundaries and mid-trick), reached by random
  legal play from a whole deal, so tricks won, cards played, the A-K-Q holders and known-out
  cards are those of a real deal; every trump suit and Lo-No; 7 settings of the play flags;
  some deals dealt from 1-3 suits only (many trumps: the cinch is everywhere). Checked:
  ``solve``, ``can_make(k)`` for every k, ``can_win`` and ``analyse``;
- ``can_take`` / ``surely_wins`` (AND/OR searches of the same tree) on 210 whole 5-card deals at
  2-3 players, with the principal variation replayed by the referee (every card legal, me's
  tricks = the value); more principal variations from mid-trick positions at 3-6 players;
- the equivalence claim of the search (a skipped card is worth its run's representative), on
  random cinch-heavy positions and on positions where it must not merge (NOT_EQUIVALENT);
- exact cases (A-K-Q of trumps, a hand that surely goes bourre, RULES.md's trick-in-progress
  cinch example), and solve_batch against analyse with 1 and all threads.
The first test guards against a stale numba cache (see the docstring of
kernels/bourre/solver.py): the legality compiled into the solver's cache must equal the referee's.
Mutations of the solver that these tests do not catch, because the case needs two transposed
positions with different tricks won in one search and a different answer (not met in 10**5
random positions): dropping the tricks won from the table key in the win search, capping them
at 3 instead of 4 for the cinch (won = 4 only happens with one trick left, scored directly).
"""
import dataclasses
import random

import numba
import numpy as np
import pytest

import ref_bourre as ref
import ref_solver_bourre as rs
from tricksim.kernels import bourre as K
from tricksim.kernels.bourre import solver as S

CINCH = ["pagat", "hoyle_lead_highest_with_akq", "akq_in_order", "none"]
RULE_SETS = [
    dict(must_head_in_suit=True, must_trump_when_void=True, must_overtrump=True, must_trump_even_if_cannot_win=True,
         void_must_play_highest_trump=False, cinch_rule="pagat", cinch_knowledge="holder",
         cinch_last_player_exempt=True),                                    # the defaults
    dict(must_head_in_suit=True, must_trump_when_void=True, must_overtrump=True, must_trump_even_if_cannot_win=True,
         void_must_play_highest_trump=False, cinch_rule="pagat", cinch_knowledge="omniscient",
         cinch_last_player_exempt=False),
    dict(must_head_in_suit=False, must_trump_when_void=True, must_overtrump=True, must_trump_even_if_cannot_win=True,
         void_must_play_highest_trump=False, cinch_rule="hoyle_lead_highest_with_akq", cinch_knowledge="holder",
         cinch_last_player_exempt=True),
    dict(must_head_in_suit=True, must_trump_when_void=True, must_overtrump=False, must_trump_even_if_cannot_win=True,
         void_must_play_highest_trump=False, cinch_rule="akq_in_order", cinch_knowledge="holder",
         cinch_last_player_exempt=True),
    dict(must_head_in_suit=True, must_trump_when_void=False, must_overtrump=True, must_trump_even_if_cannot_win=True,
         void_must_play_highest_trump=False, cinch_rule="none", cinch_knowledge="holder",
         cinch_last_player_exempt=True),
    dict(must_head_in_suit=True, must_trump_when_void=True, must_overtrump=True, must_trump_even_if_cannot_win=False,
         void_must_play_highest_trump=True, cinch_rule="pagat", cinch_knowledge="holder",
         cinch_last_player_exempt=True),
    dict(must_head_in_suit=False, must_trump_when_void=True, must_overtrump=False, must_trump_even_if_cannot_win=False,
         void_must_play_highest_trump=False, cinch_rule="pagat", cinch_knowledge="holder",
         cinch_last_player_exempt=False),
]
RULE_IDS = [f"{i}:{r['cinch_rule'][:5]},{r['cinch_knowledge'][:4]},head={int(r['must_head_in_suit'])}"
            for i, r in enumerate(RULE_SETS)]


def rules_array(r: dict) -> np.ndarray:
    a = np.zeros(K.N_RULES, np.int64)
    a[K.R_MUST_HEAD] = int(r["must_head_in_suit"])
    a[K.R_MUST_TRUMP] = int(r["must_trump_when_void"])
    a[K.R_MUST_OVERTRUMP] = int(r["must_overtrump"])
    a[K.R_TRUMP_EVEN_IF_CANNOT_WIN] = int(r["must_trump_even_if_cannot_win"])
    a[K.R_VOID_HIGHEST_TRUMP] = int(r["void_must_play_highest_trump"])
    a[K.R_CINCH_RULE] = CINCH.index(r["cinch_rule"])
    a[K.R_CINCH_KNOWLEDGE] = ["holder", "omniscient"].index(r["cinch_knowledge"])
    a[K.R_CINCH_LAST_EXEMPT] = int(r["cinch_last_player_exempt"])
    return a


def kernel_args(p: rs.Position):
    """(hands uint64[8], pos int64[POS_LEN]) of a referee position."""
    h = np.zeros(8, np.uint64)
    for s, cards in enumerate(p.hands):
        h[s] = np.uint64(sum(1 << c for c in cards))
    pos = np.zeros(S.POS_LEN, np.int64)
    pos[S.POS_N] = p.n
    pos[S.POS_ME] = p.me
    pos[S.POS_LEADER] = p.leader
    pos[S.POS_NTRICK] = len(p.trick)
    for k, c in enumerate(p.trick):
        pos[S.POS_TRICK + k] = c
    pos[S.POS_TRUMP] = -1 if p.trump is None else p.trump
    pos[S.POS_LONO] = int(p.trump is None)
    pos[S.POS_LEAD] = -1 if p.lead_card is None else p.lead_card
    pos[S.POS_AKQ] = sum(1 << s for s in p.akq_holders)
    pos[S.POS_PLAYED] = sum(1 << c for c in p.played)
    pos[S.POS_KNOWN] = sum(1 << c for c in p.known_out)
    for s, w in enumerate(p.won):
        pos[S.POS_WON + s] = w
    return h, pos


def random_position(rng, n, cards_left, rules, lono=False, mid_trick=False, stack=True, suits=4):
    """A position with ``cards_left`` cards per hand reached by random legal play (referee) from a
    whole random 5-card deal at n players: tricks won, cards played, the A-K-Q holders, a
    known-out trump (a discarded up-card) and, under Lo-No, the up-card led first are those of a
    real deal. With ``stack``, sometimes one hand gets extra trumps (the cinch then happens).
    ``mid_trick``: 1..n-1 cards are already played to the trick in progress. ``suits`` < 4: the
    hands are dealt from that many suits only, trumps first (many trumps: cinches everywhere)."""
    suits = max(suits, -(-5 * n // 13))
    trump = None if lono else rng.randrange(4)
    order = [trump] + [x for x in range(4) if x != trump] if trump is not None else list(range(4))
    deck = [c for c in ref.ALL_CARDS if ref.suit(c) in order[:suits]]
    rng.shuffle(deck)
    hands = [deck[5 * s:5 * s + 5] for s in range(n)]
    rest = deck[5 * n:] + [c for c in ref.ALL_CARDS if ref.suit(c) not in order[:suits]]
    if trump is not None and stack and rng.random() < 0.5:
        b = rng.randrange(n)
        for c in [c for c in rest if ref.suit(c) == trump][:rng.randint(1, 3)]:
            side = [x for x in hands[b] if ref.suit(x) != trump]
            if side:
                x = rng.choice(side)
                hands[b][hands[b].index(x)] = c
                rest[rest.index(c)] = x
    known = set()
    if trump is not None and rng.random() < 0.5:
        tr = [c for c in rest if ref.suit(c) == trump]
        if tr:
            known.add(rng.choice(tr))
    leader = rng.randrange(n)
    lead_card = min(hands[leader], key=ref.rank) if lono else None
    akq = frozenset(s for s in range(n) if trump is not None
                    and {trump * 16 + 10, trump * 16 + 11, trump * 16 + 12} <= set(hands[s]))
    p = rs.Position(hands=tuple(tuple(h) for h in hands), me=0, leader=leader, trump=trump, rules=rules,
                    won=(0,) * n, known_out=frozenset(known), akq_holders=akq, lead_card=lead_card)
    hs = tuple(frozenset(h) for h in hands)
    won = (0,) * n
    trick = ()
    first = lono
    steps = (5 - cards_left) * n + (rng.randint(1, n - 1) if mid_trick else 0)
    for _ in range(steps):
        seat, lg = rs.legal(p, hs, leader, trick, won, first)
        c = rng.choice(sorted(lg))
        hs = tuple(h - {c} if i == seat else h for i, h in enumerate(hs))
        trick = trick + (c,)
        if len(trick) == n:
            leader, won = rs._after_trick(p, hs, leader, trick, won)
            trick, first = (), False
    played = frozenset(set().union(*p.hands) - set().union(*hs) - set(trick))
    return rs.Position(hands=tuple(tuple(sorted(h)) for h in hs), me=rng.randrange(n), leader=leader,
                       trump=trump, rules=rules, trick=trick, won=won, played=played, known_out=frozenset(known),
                       akq_holders=akq, lead_card=lead_card if first else None)


def test_solver_cache_is_not_stale_and_legality_is_the_referees():
    """legal_play as compiled into the solver's cache (legal_follow, cinch_equiv of
    kernels/bourre/rules.py inlined) gives the referee's legal set, for every seat to play, on random
    positions of every rule set; the cinch restricts some of them (so its code is exercised)."""
    rng = random.Random(7)
    cinched = 0
    for i in range(6000):
        r = RULE_SETS[i % len(RULE_SETS)]
        n = rng.randint(2, 8)
        p = random_position(rng, n, rng.randint(1, 5), r, lono=i % 11 == 0, mid_trick=i % 2 == 1, suits=1 + i % 4)
        h, pos = kernel_args(p)
        hs = tuple(frozenset(x) for x in p.hands)
        seat, lg = rs.legal(p, hs, p.leader, p.trick, p.won, p.lead_card is not None)
        got, _cand = S.legal_probe(h, pos, rules_array(r), seat)
        assert {c for c in range(64) if (int(got) >> c) & 1} == set(lg), (
            "kernels/bourre/solver.py's numba cache is stale (kernels/bourre/rules.py changed; delete "
            f"kernels/*/__pycache__) or its legality differs from the referee: {p}")
        if r["cinch_rule"] != "none":
            plain = rs.Position(**{**p.__dict__, "rules": {**r, "cinch_rule": "none"}})
            cinched += set(lg) != set(rs.legal(plain, hs, p.leader, p.trick, p.won, p.lead_card is not None)[1])
    assert cinched >= 100, cinched


def _child(p, seat, c):
    """The referee position after ``seat`` plays ``c``."""
    hands = tuple(tuple(x for x in h if x != c) if i == seat else h for i, h in enumerate(p.hands))
    return dataclasses.replace(p, hands=hands, trick=tuple(p.trick) + (c,))


def _run_top(c, lg, p):
    """The highest card of c's run: follow the next higher card of the suit still in the hands or
    the trick while it is legal (the kernel's representative)."""
    out = set().union(*map(set, p.hands)) | set(p.trick)
    while True:
        up = [x for x in out if ref.suit(x) == ref.suit(c) and x > c]
        if not up or min(up) not in lg:
            return c
        c = min(up)


# Positions where two legal cards of one hand, with no card between them in the hands or the
# trick, are NOT worth the same, so the search must try both (found by searching random
# positions): an unseen trump between them changes a later cinch (rule 11 matching), or, under
# the Hoyle form, keeping the Q instead of the J forces a later trump lead.
# (position, rule set, seat to play, lower card, higher card)
NOT_EQUIVALENT = [
    (dict(hands=((27, 38, 41), (10, 25, 28), (1, 2, 5), (4, 6, 9)), me=2, leader=3, trump=0, won=(0, 0, 0, 2),
          played=frozenset({0, 33, 3, 39, 40, 11, 12, 43})), 0, 3, 6, 9),
    (dict(hands=((2, 5, 6), (34, 39, 42), (9, 36, 43)), me=1, leader=1, trump=2, won=(0, 2, 0),
          played=frozenset({32, 35, 4, 38, 7, 40}), known_out=frozenset({44})), 6, 1, 39, 42),
    (dict(hands=((20, 25, 26), (12, 17), (22, 42), (16, 21)), me=3, leader=1, trump=1, trick=(32, 35, 19),
          won=(0, 1, 1, 0), played=frozenset({34, 37, 38, 6, 7, 9, 40, 23})), 2, 0, 25, 26),
    (dict(hands=((1, 41), (20, 24), (37, 39), (9, 10, 21)), me=1, leader=0, trump=0, trick=(44, 26, 40),
          won=(1, 1, 0, 0), played=frozenset({34, 3, 5, 6, 8, 12, 25, 27})), 2, 3, 9, 10),
]


def test_skipped_cards_are_worth_their_representative():
    """The equivalence claim of the search: every legal card it skips (legal_probe's candidates)
    leaves a position worth exactly what its run's representative leaves (referee minimax,
    guaranteed tricks and surely winning), on random cinch-heavy positions (few suits, many
    trumps) of every rule set; and cards that are not equivalent (NOT_EQUIVALENT) are not merged."""
    rng = random.Random(17)
    skipped = 0
    for i in range(900):
        r = RULE_SETS[i % len(RULE_SETS)]
        n = 3 + i % 3
        p = random_position(rng, n, 2 + (i // 3) % 2 if n < 5 else 2, r, lono=i % 17 == 0,
                            mid_trick=i % 2 == 1, suits=1 + i % 3)
        h, pos = kernel_args(p)
        seat = (p.leader + len(p.trick)) % n
        lg, cand = (int(x) for x in S.legal_probe(h, pos, rules_array(r), seat))
        legal = {x for x in range(64) if (lg >> x) & 1}
        for c in legal - {x for x in range(64) if (cand >> x) & 1}:
            top = _run_top(c, legal, p)
            assert (cand >> top) & 1 and top != c
            a, b = _child(p, seat, c), _child(p, seat, top)
            assert rs.guaranteed_tricks(a) == rs.guaranteed_tricks(b), (p, c, top)
            assert rs.surely_wins(a) == rs.surely_wins(b), (p, c, top)
            skipped += 1
    assert skipped >= 200, skipped
    for kw, rules_index, seat, lo, hi in NOT_EQUIVALENT:
        r = RULE_SETS[rules_index]
        p = rs.Position(rules=r, **kw)
        h, pos = kernel_args(p)
        lg, cand = (int(x) for x in S.legal_probe(h, pos, rules_array(r), seat))
        assert (lg >> lo) & 1 and (lg >> hi) & 1 and (cand >> lo) & 1 and (cand >> hi) & 1
        a, b = _child(p, seat, lo), _child(p, seat, hi)
        assert rs.guaranteed_tricks(a) != rs.guaranteed_tricks(b)


def _check_position(p, ws, check_targets=True):
    r = p.rules
    ra = rules_array(r)
    h, pos = kernel_args(p)
    h0 = h.copy()
    want = rs.guaranteed_tricks(p)
    got = S.solve(h, pos, ra, ws)
    assert got == want, (p, got, want)
    if check_targets:
        left = len(p.hands[p.leader]) + (1 if p.trick else 0)
        for k in range(left + 2):
            assert S.can_make(h, pos, ra, k, ws) == (want >= k), (p, k)
    wins = rs.surely_wins(p)
    assert S.can_win(h, pos, ra, ws) == wins, p
    res = np.zeros(S.N_OUT, np.int64)
    S.analyse(h, pos, ra, ws, res)
    total = p.won[p.me] + want
    assert list(res) == [total, int(total >= 1), int(wins)], (p, res)
    assert np.array_equal(h, h0)          # hands restored
    return want


@pytest.mark.parametrize("rules", RULE_SETS, ids=RULE_IDS)
def test_positions_equal_minimax(rules):
    """Random positions of 2-3 cards per hand at 3-7 players (boundaries and mid-trick, every trump
    and Lo-No): solve == exhaustive minimax, can_make(k) == (value >= k), can_win == the Python
    search's surely_wins."""
    rng = random.Random(100 + RULE_SETS.index(rules))
    ws = S.new_workspace()
    counts = {(2, 3): 300, (2, 4): 300, (2, 5): 250, (2, 6): 200, (2, 7): 150, (3, 3): 180, (3, 4): 70}
    values = []
    for (k, n), count in counts.items():
        for i in range(count):
            p = random_position(rng, n, k, rules, lono=i % 9 == 4, mid_trick=i % 2 == 1, suits=4 - i % 3)
            values.append(_check_position(p, ws, check_targets=i % 3 == 0))
    assert len(values) == sum(counts.values()) and len(set(values)) >= 3     # not all alike


def test_full_deals_small_tables_and_pv_is_legal():
    """Whole 5-card deals at 2 and 3 players (every rule set, every trump, Lo-No with its forced
    first lead): the solver equals the Python AND/OR searches for the guaranteed tricks, surely
    not bourre and surely winning; the principal variation is a legal line (referee) that gives
    me exactly the value."""
    rng = random.Random(2026)
    ws = S.new_workspace()
    out = np.zeros(40, np.int64)
    res = np.zeros(S.N_OUT, np.int64)
    for i in range(210):
        r = RULE_SETS[i % len(RULE_SETS)]
        n = 2 if i % 3 else 3
        p = random_position(rng, n, 5, r, lono=i % 10 == 7)
        ra = rules_array(r)
        h, pos = kernel_args(p)
        got = S.solve(h, pos, ra, ws)
        want = 0
        while want < 5 and rs.can_take(p, want + 1):
            want += 1
        assert got == want, p
        S.analyse(h, pos, ra, ws, res)
        assert res[S.OUT_TRICKS] == want and res[S.OUT_NOT_BOURRE] == (want >= 1)
        assert res[S.OUT_WIN] == rs.surely_wins(p), p
        v, m = S.principal_variation(h, pos, ra, ws, out)
        assert v == want and m == 5 * n
        mine, problems = rs.replay(p, [int(c) for c in out[:m]])
        assert problems == [] and mine == v, (problems, mine, v, p)


def test_pv_mid_trick_is_legal():
    """Principal variations from random mid-trick positions (3-6 players) are legal and score the
    value."""
    rng = random.Random(5)
    ws = S.new_workspace()
    out = np.zeros(40, np.int64)
    for i in range(300):
        r = RULE_SETS[i % len(RULE_SETS)]
        n = 3 + i % 4
        p = random_position(rng, n, 2 + i % 2, r, lono=i % 13 == 0, mid_trick=True)
        h, pos = kernel_args(p)
        h0 = h.copy()
        v, m = S.principal_variation(h, pos, rules_array(r), ws, out)
        assert np.array_equal(h, h0)
        assert m == sum(len(x) for x in p.hands)
        mine, problems = rs.replay(p, [int(c) for c in out[:m]])
        assert problems == [] and mine == v, (problems, mine, v, p)


def test_exact_cases():
    """Hands whose answers are known: A-K-Q of trumps take 3 tricks and win the pot at any table
    (the others share at most 2); a hand of five low non-trumps against a trump-rich table can
    go bourre; the RULES.md cinch example (trick in progress) from the solver's side."""
    ra = rules_array(RULE_SETS[0])
    ws = S.new_workspace()
    c = ref.cid
    rng = random.Random(3)
    for n in (2, 5, 7):
        for _ in range(10):
            mine = [c("AH"), c("KH"), c("QH"), c("2S"), c("3D")]
            deck = [x for x in ref.ALL_CARDS if x not in mine]
            rng.shuffle(deck)
            hands = (tuple(mine),) + tuple(tuple(deck[5 * s:5 * s + 5]) for s in range(n - 1))
            p = rs.Position(hands=hands, me=0, leader=rng.randrange(n), trump=1, rules=RULE_SETS[0], won=(0,) * n)
            h, pos = kernel_args(p)
            assert S.solve(h, pos, ra, ws) >= 3
            assert S.can_win(h, pos, ra, ws)
    # me: 2C 3C 4C 5C 6C, spades trump, the others hold every higher club and the top spades
    hands = ((c("2C"), c("3C"), c("4C"), c("5C"), c("6C")),
             (c("AC"), c("KC"), c("QC"), c("JC"), c("TC")),
             (c("AS"), c("KS"), c("QS"), c("JS"), c("TS")))
    p = rs.Position(hands=hands, me=0, leader=0, trump=0, rules=RULE_SETS[0], won=(0, 0, 0))
    h, pos = kernel_args(p)
    assert S.solve(h, pos, ra, ws) == 0 and not S.can_make(h, pos, ra, 1, ws)
    # RULES.md 3.1 rule 11, the trick in progress: hearts trump, K played earlier, Q in a passed
    # hand (unknown to me, so in O; the low hearts are seen out); me has won 2 tricks and holds
    # J 4 of hearts; the A is led and me is not last to play. Sure tricks 2 + 2 - 1 = 3 without
    # the correction (the J would be forced under the A), 2 with it: both hearts are legal.
    hands = ((c("JH"), c("4H")), (c("5S"), c("6S")), (c("7S"),))
    p = rs.Position(hands=hands, me=0, leader=2, trump=1, rules=RULE_SETS[0], trick=(c("AH"),), won=(2, 0, 1),
                    played=frozenset(map(c, "KH 2S 3S 8S 9S TS JS 2D 3D".split())),
                    known_out=frozenset(map(c, "2H 3H 5H 6H 7H 8H 9H TH".split())))
    h, pos = kernel_args(p)
    assert int(S.legal_probe(h, pos, ra, 0)[0]) == (1 << c("JH")) | (1 << c("4H"))
    assert S.solve(h, pos, ra, ws) == 1 == rs.guaranteed_tricks(p)
    assert S.can_win(h, pos, ra, ws) and rs.surely_wins(p)
    # rule 11 (ii) and cinch_last_player_exempt: A 4 of hearts (trumps), 2 tricks won, only the Q
    # unseen: a cinch (2 + 2 - 1). Last to play to a 3 of hearts, he may play either card when the
    # last player is exempt (the default), only the A otherwise.
    hands = ((c("5S"),), (c("6S"),), (c("AH"), c("4H")))
    hearts = "5H 6H 7H 8H 9H TH JH KH".split()
    for exempt, want in ((True, {c("AH"), c("4H")}), (False, {c("AH")})):
        r = {**RULE_SETS[0], "cinch_last_player_exempt": exempt}
        p = rs.Position(hands=hands, me=2, leader=0, trump=1, rules=r, trick=(c("3H"), c("2H")), won=(1, 0, 2),
                        played=frozenset(map(c, hearts + ["7S"])))
        h, pos = kernel_args(p)
        lg = int(S.legal_probe(h, pos, rules_array(r), 2)[0])
        assert {x for x in range(64) if (lg >> x) & 1} == want == rs.legal(p, tuple(map(frozenset, hands)), 0,
                                                                           p.trick, p.won, False)[1]


def test_solve_batch_matches_analyse_for_any_thread_count():
    """solve_batch over whole deals at 5 and 7 players equals analyse deal by deal, with 1 thread
    and with all threads."""
    ra = rules_array(RULE_SETS[0])
    ws = S.new_workspace()
    one = np.zeros(S.N_OUT, np.int64)
    for n in (5, 7):
        hands, pos = S.random_deals(np.uint64(42), 0, 120, n)
        want = np.zeros((hands.shape[0], S.N_OUT), np.int64)
        for i in range(hands.shape[0]):
            S.analyse(hands[i].copy(), pos[i], ra, ws, one)
            want[i] = one
        assert 0 < want[:, S.OUT_NOT_BOURRE].sum() < hands.shape[0]
        before = numba.get_num_threads()
        try:
            for th in sorted({1, numba.config.NUMBA_NUM_THREADS}):
                numba.set_num_threads(th)
                got = np.full_like(want, -1)
                S.solve_batch(hands, pos, ra, got)
                assert np.array_equal(got, want)
        finally:
            numba.set_num_threads(before)
