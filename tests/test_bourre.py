"""Bourre (RULES.md section 3): the kernel against the pure-Python referee (tests/ref_bourre.py),
the worked examples of RULES.md as exact tests, chip conservation, exact dealing odds,
invariance to threads and block sizes, overflow, the studies and the CLI's bad input.
"""
import functools
import math

import numba
import numpy as np
import pytest

from tricksim import cli
import ref_bourre as ref
from tricksim.analysis import bourre as B
from tricksim.analysis import engine
from tricksim.analysis.engine import RunOptions
from tricksim.kernels import bourre as K
from tricksim.kernels import rng as RNG

pytestmark = pytest.mark.fast   # the fast tier (scripts/test.sh --fast)

SEED = 11
RANDOM = "random:play_prob=0.7,ante_mult=5,lono_prob=0.9"


def card(t):
    return ref.cid(t)


def mask(text):
    m = 0
    for t in text.split():
        m |= 1 << card(t)
    return np.uint64(m)


def rules_arr(**kw):
    return B.rules_array(B.BourreRules(**kw))


@functools.lru_cache(maxsize=None)
def _traced(seed, players, sessions, deals, rules_items, heuristic):
    rules = B.BourreRules(**dict(rules_items))
    return B.trace(seed, players, sessions, deals, rules, [heuristic], with_legal=True)


def referee(players, sessions, deals, heuristic="random", seed=SEED, **rules):
    """(trace dicts, referee complaints) for sessions 0..sessions-1."""
    tr = _traced(seed, players, sessions, deals, tuple(sorted(rules.items())), heuristic)
    by = {}
    for d in tr:
        by.setdefault(d["session"], []).append(d)
    R = B.rules_dict(B.BourreRules(**rules))
    errs = [e for ds in by.values() for e in ref.check_session(ds, seed, R)]
    return tr, errs


# ---------------------------------------------------------------------------
# random numbers: the kernel draws with kernels/rng.py (no copy), as the referee's port does
# ---------------------------------------------------------------------------
def test_kernel_rng_is_rng_module_and_matches_port():
    assert K.below is RNG.below and K.uniform is RNG.uniform and K.seed_state is RNG.seed_state
    key = RNG.derive_key(SEED, RNG.GAME_BOURRE, RNG.STREAM_DEAL)
    for idx in (0, 1, 12345):
        a = np.zeros(1, np.uint64)
        b = np.zeros(1, np.uint64)
        RNG.seed_state(a, key, idx)
        RNG.seed_state(b, key, idx)
        port = ref.Rng(int(key), idx)
        for n in (52, 47, 3, 1, 2 ** 31 + 5, 13):
            x, y, z = K.below(a, n), RNG.below(b, n), port.below(n)
            assert x == y == z
        assert K.uniform(a) == RNG.uniform(b)


# ---------------------------------------------------------------------------
# the kernel against the referee, deal by deal
# ---------------------------------------------------------------------------
# ev: the smallest training budget (a table per player count, trained in the test; the referee checks the rules of
# what the seats play, not how good the table is)
@pytest.mark.parametrize("heuristic", ["random", "default", "cinch", "loose", "ev:train_sessions=100,train_deals=30"])
@pytest.mark.parametrize("players", [2, 3, 5, 7, 8])
def test_referee_default_rules(heuristic, players):
    tr, errs = referee(players, 6, 30, heuristic)
    assert len(tr) == 180
    assert errs == []


FLAG_CASES = [
    ("dealer_sets_ante", True, lambda d: d["ante"] > 1),
    ("dealer_antes_for_all", True, lambda d: d["antes"][d["dealer"]] > d["ante"]),
    ("double_ante", True, lambda d: any(d.get("second_antes", []))),
    ("trump_card", "separate_turnup", lambda d: "deal" in d and all(d["trump_card"] not in h for h in d["deal"])),
    ("declare_then_draw", True, lambda d: any(x["drawn"] for x in d.get("decisions", []))),
    ("max_discard", 3, lambda d: max((len(x["discard"]) for x in d.get("decisions", [])), default=0) == 3),
    ("max_discard", 0, lambda d: d.get("outcome") in ("winner", "tie")),
    ("max_discard_7plus", 2, lambda d: max((len(x["discard"]) for x in d.get("decisions", [])), default=0) == 2),
    ("reshuffle", "wp_folded_first_then_discards", lambda d: d.get("reshuffles", 0) > 0),
    ("reshuffle", "pagat_all_unused", lambda d: d.get("reshuffles", 0) > 0),
    ("all_pass", "carry_over", lambda d: d.get("outcome") == "all_pass"),
    ("must_head_in_suit", False, lambda d: bool(d.get("tricks"))),
    ("must_trump_when_void", False, lambda d: bool(d.get("tricks"))),
    ("must_overtrump", False, lambda d: bool(d.get("tricks"))),
    ("must_trump_even_if_cannot_win", False, lambda d: bool(d.get("tricks"))),
    ("void_must_play_highest_trump", True, lambda d: bool(d.get("tricks"))),
    ("cinch_rule", "pagat", lambda d: any(any(c) for c in d.get("cinch", []))),
    ("cinch_rule", "hoyle_lead_highest_with_akq", lambda d: any(any(c) for c in d.get("cinch", []))),
    ("cinch_rule", "akq_in_order", lambda d: any(any(c) for c in d.get("cinch", []))),
    ("cinch_rule", "none", lambda d: not any(any(c) for c in d.get("cinch", []))),
    ("cinch_knowledge", "omniscient", lambda d: any(any(c) for c in d.get("cinch", []))),
    ("cinch_last_player_exempt", False, lambda d: any(any(c) for c in d.get("cinch", []))),
    ("tie", "divide_equally", lambda d: d.get("outcome") == "tie" and sum(d["pot_won"]) > 0),
    ("tie", "tied_only_next_hand", lambda d: len(d["in_deal"]) < d["players"]),
    ("bourre_penalty", "fixed:2", lambda d: 2 in d.get("bourre_paid", [])),
    ("pot_limit", 12, lambda d: d.get("pot", 0) > 12 and d.get("outcome") == "winner"),
    ("lo_no", True, lambda d: d.get("lo_no") and bool(d.get("tricks"))),
    ("ante", 3, lambda d: d["ante"] == 3),
]


@pytest.mark.parametrize("name,value,seen", FLAG_CASES, ids=[f"{n}={v}" for n, v, _ in FLAG_CASES])
def test_referee_every_flag(name, value, seen):
    """Every variant flag value: a few hundred random-heuristic deals at 8 players (draws,
    reshuffles, many players per trick) and some default-heuristic deals at 5; the referee
    agrees on every deal and the flag's situation actually occurred."""
    hits = 0
    for heuristic, players, sessions in ((RANDOM, 8, 12), ("default", 5, 4)):
        if name == "all_pass":
            heuristic = "random:play_prob=0.2"
        tr, errs = referee(players, sessions, 25, heuristic, **{name: value})
        assert errs == []
        hits += sum(1 for d in tr if seen(d))
    assert hits > 0, f"{name}={value} never showed in the sample"


def test_referee_akq_holders_and_eight_player_reshuffle():
    """With 8 players everyone playing and discarding, the stock (12 cards) runs out: rule 5."""
    tr, errs = referee(8, 10, 20, "random:play_prob=1")
    assert errs == []
    assert sum(d["reshuffles"] > 0 for d in tr) > 20


def test_referee_catches_a_wrong_kernel_answer():
    tr, _ = referee(7, 1, 10, RANDOM)
    d = next(x for x in tr if x["tricks"])
    bad = dict(d, legal=[row[:] for row in d["legal"]])
    bad["legal"][0] = [row + ["2C"] if "2C" not in row else row[:-1] for row in bad["legal"][0]]
    session = [bad if x is d else x for x in tr]
    assert ref.check_session(session, SEED, B.rules_dict(B.BourreRules()))


# ---------------------------------------------------------------------------
# RULES.md 3.1 rule 10: the legality examples (kernel and referee)
# ---------------------------------------------------------------------------
def kernel_follow(hand, trick, trump, **kw):
    """Legal set of the kernel for a follower: trick = cards played so far."""
    ra = rules_arr(**kw)
    led = card(trick[0]) >> 4
    best = card(trick[0])
    for t in trick[1:]:
        c = card(t)
        if ref.beats(c, best, led, trump, False):
            best = c
    m = int(K.legal_follow(mask(hand), led, best, trump, False, ra))
    return {ref.cstr(c) for c in range(64) if (m >> c) & 1}


def referee_follow(hand, trick, trump, **kw):
    R = B.rules_dict(B.BourreRules(**kw))
    return {ref.cstr(c) for c in ref.follow_legal([card(t) for t in hand.split()], [card(t) for t in trick], trump, False, R)}


SPADES = 0
RULE10 = [
    # pagat's example: spades trumps, Q of hearts led, holding K and 6 of hearts: the K
    ("KH 6H 2C", ["QH"], {}, {"KH"}),
    ("KH 6H 2C", ["QH", "AH"], {}, {"KH", "6H"}),                    # A already down: any heart
    ("KH 6H 2C", ["QH", "3S"], {}, {"KH", "6H"}),                    # trumped: any heart
    ("KH 6H 2C", ["QH"], {"must_head_in_suit": False}, {"KH", "6H"}),
    # void in hearts, holding K and 6 of spades (trumps)
    ("KS 6S 2C", ["QH"], {}, {"KS", "6S"}),                          # may trump with the 6
    ("KS 6S 2C", ["QH", "JS"], {}, {"KS"}),                          # over the J: must overtrump
    ("KS 6S 2C", ["QH", "AS"], {}, {"KS", "6S"}),                    # over the A: any trump
    ("KS 6S 2C", ["QH", "JS"], {"must_overtrump": False}, {"KS", "6S"}),
    ("KS 6S 2C", ["QH", "AS"], {"must_trump_even_if_cannot_win": False}, {"KS", "6S", "2C"}),
    ("KS 6S 2C", ["QH", "JS"], {"must_trump_even_if_cannot_win": False}, {"KS"}),
    ("KS 6S 2C", ["QH"], {"must_trump_when_void": False}, {"KS", "6S", "2C"}),
    ("KS 6S 2C", ["QH"], {"void_must_play_highest_trump": True}, {"KS"}),
    # trumps led: beat the best trump if able
    ("KS 6S 2C", ["QS"], {}, {"KS"}),
    ("KS 6S 2C", ["AS"], {}, {"KS", "6S"}),
    ("2C 3D", ["QH"], {}, {"2C", "3D"}),                             # void in hearts and trumps
]


@pytest.mark.parametrize("hand,trick,flags,want", RULE10)
def test_rule10_examples(hand, trick, flags, want):
    assert kernel_follow(hand, trick, SPADES, **flags) == want
    assert referee_follow(hand, trick, SPADES, **flags) == want


# ---------------------------------------------------------------------------
# RULES.md 3.1 rule 11: the cinch (matching of O onto lower cards of H)
# ---------------------------------------------------------------------------
def trumps(text):
    return [card(t + "S") for t in text.split()]


def kernel_sure(H, O, won=0):
    return K.sure_tricks(np.uint64(sum(1 << c for c in H)), np.uint64(sum(1 << c for c in O)), SPADES, won)


ALL_SPADES = [card(r + "S") for r in ref.RANKS]


@pytest.mark.parametrize("held,unseen_extra,sure", [
    ("A K Q", "", 3),                 # A-K-Q of trumps
    ("K Q T 9 8", "", 3),             # K-Q-10-9-8, A and J unseen: 5 - 2
    ("K Q T", "", 1),                 # K-Q-10, A and J unseen
    ("A K", "", 2),
    ("A 2", "", 1),                   # the 2 falls to any unseen trump
])
def test_cinch_matching_checks(held, unseen_extra, sure):
    H = trumps(held)
    O = [c for c in ALL_SPADES if c not in H]        # every other trump may be against him
    assert kernel_sure(H, O) == sure
    assert len(H) - ref.matching_size(H, O) == sure


def test_cinch_counts_tricks_won_and_played_trumps():
    H = trumps("K Q T")
    O = [c for c in ALL_SPADES if c not in H and c not in trumps("A J")]   # A and J played
    assert kernel_sure(H, O) == 3
    assert kernel_sure(trumps("K"), [c for c in ALL_SPADES if c != card("KS")], won=2) == 2
    assert kernel_sure(trumps("A"), [c for c in ALL_SPADES if c != card("AS")], won=2) == 3   # 'won the first three'


def test_cinch_equivalent_cards():
    def eq(held, O):
        m = int(K.equivalent_top(np.uint64(sum(1 << c for c in trumps(held))), np.uint64(sum(1 << c for c in O))))
        return {ref.cstr(c) for c in range(64) if (m >> c) & 1}
    others = lambda held, gone="": [c for c in ALL_SPADES if c not in trumps(held) and c not in trumps(gone)]
    assert eq("A K", others("A K")) == {"AS", "KS"}                  # K from A-K
    assert eq("K J", others("K J")) == {"KS"}                        # the Q is still out
    assert eq("K J", others("K J", "Q")) == {"KS", "JS"}             # J from K-J once the Q is played
    assert ref.equivalents(trumps("K J"), others("K J", "Q")) == {card("KS"), card("JS")}


HEARTS = 1


def _cinch_in_progress(hand, trick, won, played_before, rules=None, **kw):
    """Seat 0 follows to ``trick`` (seats 1.. played it) with hearts trumps, holding
    ``hand``; ``played_before`` = cards of earlier tricks.  Returns (kernel, referee)
    cinch restriction: the cards he is held to, or None when he has no cinch."""
    R = B.rules_dict(B.BourreRules(**kw))
    ra = rules_arr(**kw)
    hs = [[card(t) for t in hand.split()]] + [[] for _ in range(7)]
    tr = [card(t) for t in trick]
    led = tr[0] >> 4
    best = tr[0]
    for c in tr[1:]:
        if ref.beats(c, best, led, HEARTS, False):
            best = c
    base = ref.follow_legal(hs[0], tr, HEARTS, False, R)
    ctx = {"rules": R, "trump": HEARTS, "lono": False, "upcard": None, "won": {0: won},
           "played": [card(t) for t in played_before.split()], "known_out": [], "active": [0, 1, 2],
           "n_active": 4, "akq_holders": set(), "trick_no": 3}
    lg_ref = ref.legal_plays(0, hs, tr, ctx)
    hands = np.zeros(8, np.uint64)
    hands[0] = mask(hand)
    played = mask(played_before + " " + " ".join(trick))
    lg = np.uint64(sum(1 << c for c in base))
    eq = int(K.cinch_equiv(0, hands, np.int64(7), played, np.uint64(0), HEARTS, ra, won, lg, np.int64(best)))
    held = {c for c in range(64) if (eq >> c) & 1}
    kern = None if not held else {ref.cstr(c) for c in (held & base or held)}
    refset = None if lg_ref == base else {ref.cstr(c) for c in lg_ref}
    return kern, refset


def test_cinch_trick_in_progress_rules_example():
    """RULES.md rule 11, 'The trick in progress' (issue 11): hearts trump, K played
    earlier, Q unseen (the other unseen hearts are the 3 and 2), he has won 2 tricks and
    holds J-4; the A is led.  O = {Q, 3, 2} matches only the Q onto the J: sure was
    2 + 2 - 1 = 3, a cinch forcing the J under the A.  The A trick is lost whatever he
    plays: sure = 3 - 1 = 2, no cinch, the 4 may go."""
    gone = "KH TH 9H 8H 7H 6H 5H"
    assert _cinch_in_progress("JH 4H", ["AH"], 2, gone) == (None, None)
    # 4 tricks won, the 9 unseen too: 4 + 2 - 2 - 1 = 3 is still a cinch, his highest trump
    assert _cinch_in_progress("JH 4H", ["AH"], 4, "KH TH 8H 7H 6H 5H") == ({"JH"}, {"JH"})
    # void in a side suit led and ruffed by the A: rule 10 makes him trump, same count
    assert _cinch_in_progress("JH 4H 2C", ["5S", "AH"], 2, gone) == (None, None)
    # a trump he can beat is winning: no trick is lost yet (O = {Q, 9, 2}: 3 + 2 - 2 = 3)
    assert _cinch_in_progress("JH 4H", ["3H"], 3, "KH AH TH 8H 7H 6H 5H") == ({"JH"}, {"JH"})
    # not made to trump (must_trump_even_if_cannot_win=false): he could throw the 2C, so no
    # trick is counted lost; the cinch (2 + 2 - 1 = 3) holds him to his top trumps (J = 4 here)
    assert _cinch_in_progress("JH 4H 2C", ["5S", "AH"], 2, gone, must_trump_even_if_cannot_win=False) \
        == ({"JH", "4H"}, {"JH", "4H"})


def test_cinch_trick_in_progress_reproduction():
    """Issue 11's reproduction (trace bourre --players 7 --seed 11 --first 14, second deal):
    seat 0 (2 tricks, J-4 of hearts) follows the led A of hearts.  Before the fix the
    cinch forced the J under the A, the 4 lost the last trick and the pot was tied."""
    tr = B.trace(11, 7, 1, 2, first=14, with_legal=True)
    d = tr[1]
    assert d["trump"] == "H" and d["tricks_won"][0] == 3
    t3 = d["tricks"][3]
    assert t3["cards"][0] == "AH" and t3["leader"] == 3
    assert set(d["legal"][3][1]) == {"4H", "JH"} and not d["cinch"][3][1]
    assert t3["cards"][1] == "4H"
    assert d["outcome"] == "winner" and d["winner"] == 0 and d["pot_won"][0] == 7
    assert ref.check_session(tr, 11, B.rules_dict(B.BourreRules())) == []


def test_cinch_aware_player_always_plays_a_cinch():
    spec = B.parse_seats("cinch:threshold=10", 1)
    codes, prm = B.heuristic_arrays(spec)
    st = np.zeros(1, np.uint64)
    hand = mask("AS KS QS 2H 3D")
    assert K.choose_play(codes[0], prm, 0, hand, SPADES, False, np.uint64(0), 0, 5, 0, 5, 5, np.uint64(0), st)
    assert not K.choose_play(codes[0], prm, 0, mask("AS 9S 7H 2H 3D"), SPADES, False, np.uint64(0), 0, 5, 0, 5, 5,
                             np.uint64(0), st)


# ---------------------------------------------------------------------------
# RULES.md 3.2: the pot arithmetic examples, exactly, on the kernel's settlement
# ---------------------------------------------------------------------------
def settle(pot, tricks, **kw):
    """tricks: {seat: tricks} of the players who played."""
    rec = np.zeros(K.REC_LEN, np.int64)
    active = 0
    for s, t in tricks.items():
        rec[K.REC_WON + s] = t
        active |= 1 << s
    assert K.settle(pot, active, rec, rules_arr(**kw))
    return rec


def antes(n, prev, dealer=0, amt=1, **kw):
    ra = rules_arr(**kw)
    exempt, inmask = K.next_deal(n, prev, ra)
    rec = np.zeros(K.REC_LEN, np.int64)
    tot = K.post_antes(n, inmask, exempt, dealer, amt, ra, rec)
    return tot, [int(x) for x in rec[K.REC_ANTES:K.REC_ANTES + n]]


A, Bs, C, D, E, F, G = range(7)


def test_rules_32_bourre_payments_and_next_ante():
    # 7 players, ante 1, pot 7: A wins with 3 tricks, B and C go bourre (D took 2)
    r = settle(7, {A: 3, Bs: 0, C: 0, D: 2})
    assert r[K.REC_OUTCOME] == K.OUT_WIN and r[K.REC_WINNER] == A
    assert r[K.REC_POT_WON + A] == 7
    assert [r[K.REC_BPAID + s] for s in (Bs, C)] == [7, 7]
    assert r[K.REC_POT_AFTER] == 14
    tot, paid = antes(7, r, dealer=1)
    assert paid == [1, 0, 0, 1, 1, 1, 1]                     # A, D, E, F, G ante; B and C exempt
    assert r[K.REC_POT_AFTER] + tot == 19


def test_rules_32_tie_carries_over_and_tied_players_are_exempt():
    r = settle(19, {D: 2, E: 2, F: 1})
    assert r[K.REC_OUTCOME] == K.OUT_TIE
    assert r[K.REC_POT_AFTER] == 19 and not any(r[K.REC_POT_WON:K.REC_POT_WON + 7]) and r[K.REC_BOURRE] == 0
    tot, paid = antes(7, r)
    assert paid == [1, 1, 1, 0, 0, 1, 1]                     # everyone except D and E
    assert 19 + tot == 24


def test_rules_32_pot_limit():
    r = settle(24, {A: 5, Bs: 0}, pot_limit=20)
    assert r[K.REC_POT_WON + A] == 20                        # the winner takes 20, 4 stays
    assert r[K.REC_BPAID + Bs] == 20                          # a bourre pays only 20
    assert r[K.REC_POT_AFTER] == 4 + 20


def test_rules_32_double_ante_in_real_deals():
    """Double ante, 5 players, 3 play: pot 5 + 3 = 8, each bourre pays 8 (first deals of sessions)."""
    r = settle(8, {A: 5, Bs: 0, C: 0}, double_ante=True)
    assert [r[K.REC_BPAID + s] for s in (Bs, C)] == [8, 8]
    tr, errs = referee(5, 40, 1, "random:play_prob=0.6", double_ante=True)
    assert errs == []
    seen = [d for d in tr if sum(x["play"] for x in d["decisions"]) == 3]
    assert seen and all(d["pot"] == 8 and d["second_antes"].count(1) == 3 for d in seen)
    assert any(8 in d["bourre_paid"] for d in seen)


def test_divided_tie_and_fixed_penalty():
    r = settle(19, {D: 2, E: 2, F: 1}, tie="divide_equally")
    assert r[K.REC_POT_WON + D] == r[K.REC_POT_WON + E] == 9 and r[K.REC_POT_AFTER] == 1
    r = settle(19, {A: 3, Bs: 0, C: 2}, bourre_penalty="fixed:2")
    assert r[K.REC_BPAID + Bs] == 2 and r[K.REC_POT_AFTER] == 2


def test_divided_tie_pays_out_so_tied_players_ante():
    """Issue 11: with tie=divide_equally the pot is paid out, so the tied players lose the
    rule 2b exemption (it exists because a tied pot stays in the middle)."""
    r = settle(19, {D: 2, E: 2, F: 1}, tie="divide_equally")
    tot, paid = antes(7, r, tie="divide_equally")
    assert paid == [1] * 7 and tot == 7
    r = settle(19, {D: 2, E: 2, F: 1, G: 0}, tie="divide_equally")      # G went bourre: still exempt
    assert antes(7, r, tie="divide_equally")[1] == [1, 1, 1, 1, 1, 1, 0]
    r = settle(19, {D: 2, E: 2, F: 1}, tie="tied_only_next_hand")       # nobody antes a tied-only deal
    assert antes(7, r, tie="tied_only_next_hand")[1] == [0] * 7


def test_divided_tie_session_antes():
    """In real sessions: after every divided tie the tied players ante the next deal, and
    the referee agrees deal by deal."""
    tr, errs = referee(7, 12, 40, "default", tie="divide_equally")
    assert errs == []
    seen = 0
    for d, nxt in zip(tr, tr[1:]):
        if d["session"] != nxt["session"] or d["outcome"] != "tie":
            continue
        assert sum(d["pot_won"]) > 0
        for s in d["tied"]:
            assert s not in nxt["exempt"] and nxt["antes"][s] == nxt["ante"]
            seen += 1
    assert seen > 0


# ---------------------------------------------------------------------------
# exact dealing odds (RULES.md section 4)
# ---------------------------------------------------------------------------
def test_exact_dealing_odds():
    n_players, sessions, deals = 5, 1000, 40
    spec = B.parse_seats("random:play_prob=0", n_players)
    codes, prm = B.heuristic_arrays(spec)
    kd, kc = B.GAME.keys(SEED)
    recs, _ = K.trace_sessions(kd, kc, 0, sessions, n_players, deals, rules_arr(), codes, prm, None)
    recs = recs.reshape(-1, K.REC_LEN)
    n = len(recs)
    up = recs[:, K.REC_UPCARD]
    p = 1 / 13                                               # the up-card is an Ace: the dealer must play
    assert abs((up % 16 == 12).mean() - p) < 5 * math.sqrt(p * (1 - p) / n)
    first = (recs[:, K.REC_DEALER] + 1) % n_players
    hand = recs[np.arange(n), K.REC_DEAL + first].astype(np.uint64)
    tmask = np.array([int(K.SUIT_MASK[s]) for s in range(4)], np.uint64)[up // 16]
    p = math.comb(39, 5) / math.comb(51, 5)                  # 0.245101: no trump among a non-dealer's 5
    assert abs(((hand & tmask) == 0).mean() - p) < 5 * math.sqrt(p * (1 - p) / n)
    assert abs(p - 0.245101) < 1e-6


@pytest.mark.parametrize("sep", [False, True])
def test_stock_left_after_the_deal(sep):
    ra = rules_arr(trump_card="separate_turnup" if sep else "dealer_fifth")
    for n in range(2, 9):
        sd = np.zeros(1, np.uint64)
        RNG.seed_state(sd, np.uint64(7), n)
        hands = np.zeros(8, np.uint64)
        up, m = K.deal_fresh(sd, n, 0, (1 << n) - 1, hands, np.zeros(52, np.int64), ra, np.zeros(24, np.int64))
        assert m == 52 - 5 * n - (1 if sep else 0)           # 42, 37, ..., 12
        assert sum(bin(int(h)).count("1") for h in hands) == 5 * n
        assert ((int(hands[0]) >> up) & 1) == (0 if sep else 1)   # dealer 0 holds the up-card


# ---------------------------------------------------------------------------
# the pot study: conservation, trace = pot, invariance, overflow
# ---------------------------------------------------------------------------
CONSERVATION = [{}, {"tie": "divide_equally"}, {"tie": "tied_only_next_hand"}, {"pot_limit": 20},
                {"double_ante": True, "bourre_penalty": "fixed:2"}, {"dealer_antes_for_all": True, "dealer_sets_ante": True},
                {"all_pass": "carry_over", "lo_no": True}]


@pytest.mark.parametrize("flags", CONSERVATION, ids=[",".join(f"{k}={v}" for k, v in f.items()) or "defaults" for f in CONSERVATION])
def test_chips_conserved_over_thousands_of_sessions(flags):
    res = B.pot_study(6, 40, 2000, SEED, B.BourreRules(**flags), ["random:play_prob=0.6,ante_mult=3"])
    assert res["sessions"] == 2000 and res["overflowed"] == 0
    assert res["violations"] == 0                              # sum of seat nets + pot = 0 in every session
    assert res["deals_played"] == 2000 * 40


def _srows(params, first, ns):
    kd, kc, ra, codes, prm = B.GAME.kernel_args(params)
    d = params["deals"]
    srows = np.zeros((ns, K.S_LEN), np.int64)
    fans = np.zeros((ns, d), np.int64)
    K.sim_sessions(kd, kc, first, ns, params["players"], d, 1, ra, codes, prm, None, srows, fans)
    return srows, fans


def test_trace_reproduces_what_pot_simulated():
    players, deals, first, ns = 7, 30, 5, 12
    specs = B.parse_seats("default", players)
    params = B.make_params(SEED, B.BourreRules(), specs, players=players, deals=deals)
    srows, fans = _srows(params, first, ns)
    tr = B.trace(SEED, players, ns, deals, heuristics=specs, first=first)
    assert len(tr) == ns * deals
    for i in range(ns):
        ds = [d for d in tr if d["session"] == first + i]
        nets = [sum(d["score_delta"][s] for d in ds) for s in range(players)]
        assert nets == list(srows[i, K.S_NET:K.S_NET + players])
        assert [d["pot"] for d in ds] == list(fans[i])
        assert max(max(d["pot"], d["pot_after"]) for d in ds) == srows[i, K.S_MAXPOT]
        bh = np.bincount([len(d["bourre"]) for d in ds], minlength=9)
        assert list(bh) == list(srows[i, K.S_BOURRE:K.S_BOURRE + 9])


@pytest.mark.slow   # left out of the fast tier
def test_same_counts_with_1_and_2_threads_and_any_block_size(tmp_path):
    specs = B.parse_seats(RANDOM, 6)
    params = B.make_params(SEED, B.BourreRules(), specs, players=6, deals=25)
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = B.block_pot(params, 0, 300)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = B.block_pot(params, 0, 300)
    finally:
        numba.set_num_threads(old)
    assert np.array_equal(one, two)
    runs = [engine.execute(engine.Run("bourre.pot", params, 300, bs, unit="sessions"), None, progress=False).counts
            for bs in (300, 64, 37)]
    assert all(np.array_equal(one, r) for r in runs)
    # odds: threads and blocks
    o = dict(players=5, seat=2, pot=0, seed=SEED, heuristics=["default"])
    a = B.odds_hand("AH KH 7C 4D 2S", "9H", hands=3000, block_size=3000, opts=RunOptions(threads=1), **o)["choices"]
    b = B.odds_hand("AH KH 7C 4D 2S", "9H", hands=3000, block_size=700, **o)["choices"]
    assert a.equals(b)


def test_overflow_is_reported_never_wrapped():
    rules = B.BourreRules(ante=10 ** 12)
    res = B.pot_study(8, 60, 30, SEED, rules, ["random:play_prob=1"])
    assert res["overflowed"] > 0
    assert res["violations"] == 0
    assert "OVERFLOW" in B.render_pot(res)
    assert res["fan"].overflowed.iloc[-1] == res["overflowed"]
    tr = B.trace(SEED, 8, 3, 60, rules, ["random:play_prob=1"])
    last = [d for d in tr if d["overflow"]]
    assert last, "no traced session overflowed"
    for d in tr:
        assert 0 <= d["pot_before"] <= 2 ** 62
        if not d["overflow"]:
            assert 0 <= d["pot_after"] <= 2 ** 62 and d["pot"] <= 2 ** 62
    for s in {d["session"] for d in last}:
        ds = [d for d in tr if d["session"] == s]
        assert ds[-1]["overflow"] and not any(d["overflow"] for d in ds[:-1])


def test_pot_study_tables_and_sweep(tmp_path):
    res = B.pot_study(5, 30, 300, SEED, heuristics=["default"])
    assert res["sessions"] == 300 and res["violations"] == 0
    fan = res["fan"]
    assert list(fan.deal) == list(range(1, 31)) and (fan.q50 <= fan.q90).all()
    p = res["pass"]
    assert (p.ci_low <= p.p + 1e-12).all() and (p.p <= p.ci_high + 1e-12).all() and (p.sessions == 300).all()
    o = res["outcomes"]
    assert abs(o.p.sum() - 1) < 1e-9
    assert res["deals_played"] == 9000
    B.write_pot(res, tmp_path)
    assert (tmp_path / "pot_growth.png").exists() and (tmp_path / "pot_seats.csv").exists()
    sw = B.pot_sweep("pot_limit", [None, 10], 5, 30, 200, SEED, opts=RunOptions(tmp_path / "sw"))
    t = sw["table"]
    assert list(t.setting) == ["no limit", "limit 10"]
    # a limit can only shrink the largest pot's tail
    assert sw["results"][1]["pass"].p.iloc[-1] <= sw["results"][0]["pass"].p.iloc[-1] + 1e-12


def test_odds_hand_choices():
    res = B.odds_hand("AH KH 7C 4D 2S", "9H", players=5, seat=2, pot=0, seed=SEED, hands=4000)
    df = res["choices"]
    assert list(df.choice[:3]) == ["heuristic's own choice", "pass", "play, keep all"]
    assert len(df) == 2 + 1 + 5
    pas = df[df.choice == "pass"].iloc[0]
    assert pas.p_win == 0 and pas.exp_chips == 0 and pas.n == 4000
    assert (df.n == 4000).all()
    assert res["best"].choice != "pass"
    # --seat in words a player cannot misread as "the second seat" (seat 0 speaks first)
    from tricksim.analysis.bourre.odds import render_odds
    head = render_odds(res).splitlines()[0]
    assert "seat 2 (the 3rd to speak; seat 0 is the dealer's left)" in head and "position" not in head
    # the dealer with an Ace up-card cannot pass
    res = B.odds_hand("AS KH 7C 4D 2S", "AS", players=4, seat=3, seed=SEED, hands=500)
    assert "pass" not in set(res["choices"].choice)
    assert "seat 3 (the dealer, the last to speak; seat 0 is the dealer's left)" in render_odds(res)


def test_duplicate_identical_entrants_tie_exactly():
    from tricksim.analysis import compare
    res = compare.compare("bourre", ["basic", "basic:threshold=2"], hands=400, seed=SEED, extra={"players": 5})
    board = res["leaderboard"]
    assert board["mean"].iloc[0] == board["mean"].iloc[1]
    assert list(compare.appearances(B.GAME, 3, {"players": 6})) == [6.0, 6.0, 6.0]
    res = compare.compare("bourre", ["basic", "random"], hands=2000, seed=SEED, extra={"players": 5})
    assert res["n"] == 2000 and len(res["pairs"]) == 1


def test_bench_cases_play_complete_deals():
    cases = B.bench_cases(0)
    assert any("7 players" in label for label, _ in cases)
    label, fn = cases[0]
    assert fn(0, 400) == 400


# ---------------------------------------------------------------------------
# the CLI: bad input is one line and exit code 2; a few successful runs
# ---------------------------------------------------------------------------
def run_cli(argv, capsys):
    try:
        cli.main(argv)
        code = 0
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


HAND = ["--hand", "AH KH 7C 4D 2S", "--up-card", "9H"]
ODDS = ["odds", "bourre", "--hands", "200", "--quiet"]
BAD = [
    # typer refuses values outside an option's range and options of another game
    (["pot", "--players", "1", "--sessions", "10", "--deals", "5"], "invalid value for '--players'"),
    (["pot", "--players", "9", "--sessions", "10", "--deals", "5"], "invalid value for '--players'"),
    (ODDS + HAND + ["--players", "9"], "invalid value for '--players'"),
    (["trace", "bourre", "--players", "1"], "invalid value for '--players'"),
    (ODDS + ["--hand", "AH KH 7C 4D", "--up-card", "9H"], "5 cards, got 4"),
    (ODDS + ["--hand", "AH KH 7C 4D 2S 3S", "--up-card", "9H"], "5 cards, got 6"),
    (ODDS + ["--hand", "AH KH 7C 4D 9H", "--up-card", "9H", "--players", "5", "--seat", "2"], "cannot be in the hand"),
    (ODDS + ["--hand", "AH KH 7C 4D 2S", "--up-card", "9H", "--players", "5", "--seat", "4"], "must contain it"),
    (ODDS + ["--hand", "AH AH 7C 4D 2S", "--up-card", "9H"], "duplicate card 'AH'"),
    (ODDS + ["--hand", "AH KH 7C 4D ZS", "--up-card", "9H"], "malformed card 'ZS'"),
    (ODDS + HAND + ["--seat", "7", "--players", "5"], "seat must be 0..4"),
    (ODDS + HAND + ["--pot", "-3"], "invalid value for '--pot'"),
    (ODDS + ["--hand", "AH KH 7C 4D 2S"], "missing option '--up-card'"),
    (ODDS + HAND + ["--exact"], "no such option: --exact"),
    (["pot", "--sessions", "10", "--deals", "5", "--rule", "ante=-1"], "rule ante must be in"),
    (["pot", "--sessions", "10", "--deals", "5", "--rule", "pot_limit=-5"], "rule pot_limit must be in"),
    (["pot", "--sessions", "10", "--deals", "5", "--rule", "bourre_penalty=fixed:x"], "bourre_penalty"),
    (["pot", "--sessions", "10", "--deals", "5", "--sweep", "colour"], "--sweep must be one of"),
    (["pot", "--sessions", "10", "--deals", "5", "--sweep", "pot_limit=-2"], "at least 1"),
    (["pot", "--sessions", "0"], "invalid value for '--sessions'"),
    (["pot", "--deals", "0", "--sessions", "5"], "invalid value for '--deals'"),
    (["pot", "--sessions", "10", "--deals", "5", "-H", "default", "-H", "random"], "one per seat"),
    (["trace", "bourre", "--hands", "3"], "no such option: --hands"),
]


@pytest.mark.parametrize("argv,fragment", BAD, ids=[" ".join(a[:1] + a[-2:]) for a, _ in BAD])
def test_bad_input_one_line_exit_2(argv, fragment, capsys, tmp_path):
    code, out, err = run_cli(argv + (["--out", str(tmp_path / "o")] if argv[0] in ("pot", "odds") else []), capsys)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and fragment.lower() in lines[0].lower(), err
    assert "Traceback" not in err


def test_cli_trace_pot_odds(capsys, tmp_path):
    import json
    code, out, err = run_cli(["trace", "bourre", "--players", "4", "--seed", "3", "--sessions", "2", "--deals", "3",
                              "--jsonl"], capsys)
    assert code == 0
    lines = [json.loads(x) for x in out.strip().splitlines()]
    assert len(lines) == 6 and lines[0]["game"] == "bourre"
    for key in ("session", "deal_in_session", "players", "dealer", "pot_before", "antes", "deal", "trump_card",
                "trump", "decisions", "tricks", "tricks_won", "bourre", "pot_won", "bourre_paid", "pot_after",
                "score_delta", "hands", "rules", "heuristics", "seed", "hand_index"):
        assert key in lines[0]
    code, out, err = run_cli(["pot", "--players", "4", "--deals", "20", "--sessions", "100", "--quiet",
                              "--out", str(tmp_path / "p")], capsys)
    assert code == 0 and "Chips conserved" in out and (tmp_path / "p" / "pot_growth.png").exists()
    code, out, err = run_cli(["pot", "--players", "4", "--deals", "20", "--sessions", "50", "--quiet",
                              "--sweep", "players=3,4", "--out", str(tmp_path / "s")], capsys)
    assert code == 0 and (tmp_path / "s" / "sweep_players.png").exists()
    code, out, err = run_cli(ODDS + HAND + ["--players", "5", "--seat", "2", "--out", str(tmp_path / "o")], capsys)
    assert code == 0 and "best decision" in out
