"""Bourre: the five points RULES.md 3.1 once left open (issue 23, point 10), each pinned to the project's choice.

For every point, seeded sessions are played by the kernel (``trace``, the deals ``pot`` plays) and checked twice by
the referee (tests/ref_bourre.py): under the project's reading it agrees with every deal, and under the other
reading it finds a disagreement, so the deals really exercise the point and the kernel follows the choice (a
kernel that read the rule the other way would fail the first check).  Each test also checks the choice directly on
the deals it found, and crafted positions go through the kernel's own functions where one exists.

1. the dealer of the deal after a tied_only_next_hand deal: seat j mod n deals deal j (RULES.md rule 13);
2. a player who went bourre on the tied deal: his exemption is spent on the tied-only deal (rule 2);
3. double_ante: exempt players who play pay the second ante (rule 17);
4. must_trump_even_if_cannot_win = false with must_overtrump = false: any trump, once he can win (rule 10);
5. trump_card = separate_turnup: the turned-up card never counts as a trump against a cinch (rule 11).
"""
import functools

import numpy as np
import pytest

import ref_bourre as ref
from tricksim.analysis import bourre as B
from tricksim.kernels import bourre as K

SEED = 23
PLAYERS = 7


@functools.lru_cache(maxsize=None)
def _sessions(rules_items, heuristic, sessions, deals, seed=SEED, players=PLAYERS):
    rules = B.BourreRules(**dict(rules_items))
    tr = B.trace(seed, players, sessions, deals, rules, [heuristic], with_legal=True)
    by = {}
    for d in tr:
        by.setdefault(d["session"], []).append(d)
    return list(by.values()), B.rules_dict(rules)


def sessions(heuristic="random:play_prob=0.9", n=40, deals=10, **rules):
    return _sessions(tuple(sorted(rules.items())), heuristic, n, deals)


def referee(ss, R, **reading):
    return [e for ds in ss for e in ref.check_session(ds, SEED, R, reading)]


def consecutive(ss):
    """(deal j, deal j+1, deal j+2) of the same session."""
    for ds in ss:
        for a, b, c in zip(ds, ds[1:], ds[2:]):
            yield a, b, c


def test_every_point_has_an_other_reading():
    assert set(ref.READING) == {"dealer_after_tied_only", "bourre_exemption_over_tied_only",
                                "second_ante_when_exempt", "trump_to_win", "turnup_in_cinch"}
    assert all(len(v) == 2 and v[0] != v[1] for v in ref.READING.values())


# ---- 1 and 2: tie = tied_only_next_hand ---------------------------------------------------------------
TIED_ONLY = dict(tie="tied_only_next_hand")


def tied_only_triples(ss):
    """(tied deal, tied-only deal, the deal after it)."""
    for a, b, c in consecutive(ss):
        if a["outcome"] == "tie" and sorted(b["in_deal"]) == sorted(a["tied"]) and len(b["in_deal"]) < PLAYERS:
            yield a, b, c


def test_1_the_turn_to_deal_follows_the_deal_count():
    ss, R = sessions(**TIED_ONLY)
    assert referee(ss, R) == []
    triples = list(tied_only_triples(ss))
    assert len(triples) >= 5
    shifted = 0
    for a, b, c in triples:
        j = b["deal_in_session"]
        want = j % PLAYERS                          # the seat whose turn it is, or the next tied seat clockwise
        while want not in b["in_deal"]:
            want = (want + 1) % PLAYERS
        assert b["dealer"] == want
        if len(c["in_deal"]) == PLAYERS:
            assert c["dealer"] == (j + 1) % PLAYERS   # whoever dealt the tied-only deal
            shifted += b["dealer"] != j % PLAYERS
    assert shifted >= 1                              # a tied-only deal dealt out of turn was seen
    errs = referee(ss, R, dealer_after_tied_only="from_last_dealer")
    assert errs and "dealer" in errs[0]


def test_2_a_bourre_on_the_tied_deal_spends_his_exemption_on_the_tied_only_deal():
    ss, R = sessions(**TIED_ONLY)
    seen = 0
    for a, b, c in tied_only_triples(ss):
        assert b["antes"] == [0] * PLAYERS and set(a["bourre"]) <= set(b["exempt"])
        if len(c["in_deal"]) < PLAYERS:
            continue                                 # tied again: another tied-only deal
        for s in a["bourre"]:
            assert s not in c["exempt"] and c["antes"][s] == c["ante"]
            seen += 1
    assert seen >= 1
    errs = referee(ss, R, bourre_exemption_over_tied_only="kept")
    assert errs and ("exempt" in errs[0] or "antes" in errs[0])


# ---- 3: double_ante --------------------------------------------------------------------------------
def test_3_exempt_players_who_play_pay_the_second_ante():
    ss, R = sessions(double_ante=True, **TIED_ONLY)
    assert referee(ss, R) == []
    after_bourre = in_tied_only = 0
    for ds in ss:
        for d in ds:
            for x in d["decisions"]:
                s = x["seat"]
                if s in d["exempt"]:
                    assert d["antes"][s] == 0
                    assert d["second_antes"][s] == (d["ante"] if x["play"] else 0)
                    if x["play"]:
                        in_tied_only += len(d["in_deal"]) < PLAYERS
                        after_bourre += len(d["in_deal"]) == PLAYERS
    assert after_bourre >= 1 and in_tied_only >= 1
    errs = referee(ss, R, second_ante_when_exempt="exempt")
    assert errs and "second antes" in errs[0]


# ---- 4: must_trump_even_if_cannot_win = false, must_overtrump = false ----------------------------------
LOOSE = dict(must_trump_even_if_cannot_win=False, must_overtrump=False)


def kernel_follow(hand, trick, trump, **flags):
    ra = B.rules_array(B.BourreRules(**flags))
    led = ref.cid(trick[0]) >> 4
    best = ref.cid(trick[0])
    for t in trick[1:]:
        if ref.beats(ref.cid(t), best, led, trump, False):
            best = ref.cid(t)
    m = int(K.legal_follow(np.uint64(sum(1 << ref.cid(c) for c in hand.split())), led, best, trump, False, ra))
    return {ref.cstr(c) for c in range(64) if (m >> c) & 1}


@pytest.mark.parametrize("trick, want", [
    (["QH", "JS"], {"KS", "6S"}),          # he can overtrump the J: he must trump, with either trump
    (["QH", "AS"], {"KS", "6S", "2C"}),    # no trump of his can win: no obligation
    (["QH"], {"KS", "6S"}),                # not yet trumped: any trump wins, so he must trump
])
def test_4_crafted_any_trump_once_he_can_win(trick, want):
    hand = "KS 6S 2C"                       # spades trumps, void in hearts
    assert kernel_follow(hand, trick, 0, **LOOSE) == want
    R = B.rules_dict(B.BourreRules(**LOOSE))
    got = {ref.cstr(c) for c in ref.follow_legal([ref.cid(c) for c in hand.split()], [ref.cid(c) for c in trick],
                                                 0, False, R)}
    assert got == want
    # the other combinations stay distinct: must_overtrump = true asks for the winning trump
    if trick == ["QH", "JS"]:
        assert kernel_follow(hand, trick, 0, must_trump_even_if_cannot_win=False) == {"KS"}


def test_4_in_played_deals():
    ss, R = sessions(n=60, **LOOSE)
    assert referee(ss, R) == []
    seen = 0
    for ds in ss:
        for d in ds:
            if len(d["tricks"]) != 5 or d["trump"] == "NT":
                continue
            trump = "SHDC".index(d["trump"])
            hands = {s: {ref.cid(c) for c in h} for s, h in enumerate(d["hands"])}
            for t, tr in enumerate(d["tricks"]):
                cards = [ref.cid(c) for c in tr["cards"]]
                led = cards[0] >> 4
                seats = []
                for q, c in enumerate(cards):
                    seat = next(x for x in range(PLAYERS) if c in hands[x])
                    seats.append(seat)
                    best = cards[0]
                    for x in cards[1:q]:
                        if ref.beats(x, best, led, trump, False):
                            best = x
                    h = hands[seat]
                    trumps = {x for x in h if x >> 4 == trump}
                    if q > 0 and led != trump and not any(x >> 4 == led for x in h) and best >> 4 == trump:
                        over = {x for x in trumps if x > best}
                        if over and over != trumps:         # he can win, and also holds a losing trump
                            assert {ref.cid(x) for x in d["legal"][t][q]} == trumps
                            seen += 1
                for seat, c in zip(seats, cards):
                    hands[seat].discard(c)
    assert seen >= 3
    errs = referee(ss, R, trump_to_win="winning_trump")
    assert errs and "legal" in errs[0]


# ---- 5: trump_card = separate_turnup in the cinch test ----------------------------------------------
def test_5_crafted_the_turnup_is_not_a_trump_against_the_cinch():
    """Spades trumps, the Q of spades turned up (separate_turnup); a player holds A-K-J of spades and leads.
    The Q is out of play, so nothing can take his J: a cinch, and he must lead his highest trump (A, or K or J,
    equal to it now).  Were the Q counted against him, his J could fall to it: 2 sure tricks, no cinch."""
    rules = B.rules_array(B.BourreRules(trump_card="separate_turnup"))
    hands = np.zeros(K.MAXP, np.uint64)
    hands[0] = np.uint64(sum(1 << ref.cid(c) for c in ("AS", "KS", "JS", "4H", "5D")))
    hands[1] = np.uint64(sum(1 << ref.cid(c) for c in ("2S", "3H", "6D", "7C", "8C")))
    active = 0b11
    q = np.uint64(1 << ref.cid("QS"))
    lg = hands[0]
    out = K.cinch_equiv(0, hands, active, np.uint64(0), q, 0, rules, 0, lg, -1)
    assert {ref.cstr(c) for c in range(64) if (int(out) >> c) & 1} == {"AS", "KS", "JS"}
    assert int(K.cinch_equiv(0, hands, active, np.uint64(0), np.uint64(0), 0, rules, 0, lg, -1)) == 0


def test_5_in_played_deals():
    ss, R = sessions(heuristic="random:play_prob=0.9", n=60, trump_card="separate_turnup")
    assert referee(ss, R) == []
    errs = referee(ss, R, turnup_in_cinch="in_o")
    assert len(errs) >= 2 and all("legal" in e for e in errs)
