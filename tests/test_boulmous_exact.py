"""The exact odds' enumeration (kernels/boulmous/odds.exact_odds) against the plain computation: ``tricks_from``
plays every card ``play_deal`` plays, from the deal's start and from any card of the first trick, and
``exact_odds`` (the first two cards shared per hand of the next seat, the play on by ``tricks_from``, the auction
scored by ``score_deal``) counts what ``play_deal`` gives on every layout of the same hands of the next seat, for
every seat, under rule flags and heuristics that change the play."""
from math import comb, sqrt

import numpy as np
import pytest
from numba import njit

from tricksim.analysis import boulmous as B
from tricksim.analysis.boulmous import BoulmousRules
from tricksim.analysis.boulmous.config import DEALER, parse_hand
from tricksim.analysis.boulmous.spec import SPEC
from tricksim.analysis.common import make_params
from tricksim.kernels import boulmous as K
from tricksim.kernels.boulmous import odds as KO
from tricksim.kernels.boulmous.play import AUCTION, HEURISTIC_TRUMP, NO_BID, NOBODY, i64, no_game, play_deal
from tricksim.kernels.cards import U0, U1, lowest, mask_of

REC_TRICKS, REC_WON, REC_SCORE, REC_STAKES = K.REC_TRICKS, K.REC_WON, K.REC_SCORE, K.REC_STAKES


@njit(cache=True)
def _plain_exact(fixed, seat, dealer, trumps, with_pass, rules, hcodes, hparams, outer):
    """What the enumeration computed before the shared first cards: every layout of ``outer``'s hands of the next
    seat, each call played whole by ``play_deal``."""
    lb = rules[K.R_LEFT_BOWER_TRUMP]
    rest = np.zeros(18, np.int64)
    k = 0
    m = K.DECK24 & ~fixed
    while m != U0:
        rest[k] = lowest(m)
        m &= m - U1
        k += 1
    ca = KO._combos(18, 6)
    cb = KO._combos(12, 6)
    acc = np.zeros(KO.AGG_ODDS, np.int64)
    st = np.zeros(1, np.uint64)
    hands = np.zeros(4, np.uint64)
    work = np.zeros(4, np.uint64)
    rec = np.zeros(K.REC_LEN, np.int64)
    nogame = no_game()
    rest12 = np.zeros(12, np.int64)
    for a in outer:
        ma = U0
        q = 0
        for i in range(18):
            if (ca[a] >> i) & 1:
                ma |= U1 << np.uint64(rest[i])
            else:
                rest12[q] = rest[i]
                q += 1
        for b in range(cb.shape[0]):
            mb = U0
            mc = U0
            for i in range(12):
                if (cb[b] >> i) & 1:
                    mb |= U1 << np.uint64(rest12[i])
                else:
                    mc |= U1 << np.uint64(rest12[i])
            hands[seat] = fixed
            hands[(seat + 1) % 4] = ma
            hands[(seat + 2) % 4] = mb
            hands[(seat + 3) % 4] = mc
            for t in trumps:
                play_deal(hands, work, dealer, seat, i64(3), i64(t), i64(NOBODY), rules, hcodes, hparams, st, lb, rec,
                          nogame)
                acc[KO.O_BY_TRUMP + t * 7 + rec[REC_WON + seat]] += 1
            if with_pass:
                play_deal(hands, work, dealer, i64(AUCTION), i64(NO_BID), i64(HEURISTIC_TRUMP), seat, rules, hcodes,
                          hparams, st, lb, rec, nogame)
                acc[KO.O_PASS_POINTS + 6 + rec[REC_SCORE + seat]] += 1
                acc[KO.O_PASS_STAKES + 1 + rec[REC_STAKES + seat]] += 1
    return acc


@njit(cache=True)
def _tricks_mismatches(deals, rules, hcodes, hparams):
    """Per deal (int64[n, 4] hands), taker and trump: ``play_deal``'s tricks against ``tricks_from``'s from the
    start and from each card 1..3 of the first trick (the cards before it applied as ``play_deal`` played them).
    Returns the number of disagreements and of comparisons."""
    lb = rules[K.R_LEFT_BOWER_TRUMP]
    st = np.zeros(1, np.uint64)
    hands = np.zeros(4, np.uint64)
    work = np.zeros(4, np.uint64)
    h = np.zeros(4, np.uint64)
    won = np.zeros(4, np.int64)
    rec = np.zeros(K.REC_LEN, np.int64)
    nogame = no_game()
    bad = 0
    n = 0
    for d in range(deals.shape[0]):
        for taker in range(4):
            for t in range(5):
                for s in range(4):
                    hands[s] = np.uint64(deals[d, s])
                play_deal(hands, work, i64(3), i64(taker), i64(3), i64(t), i64(NOBODY), rules, hcodes, hparams, st,
                          lb, rec, nogame)
                for k0 in range(4):
                    for s in range(4):
                        h[s] = hands[s]
                    led = i64(0)
                    win_pow = i64(-1)
                    win_seat = i64(taker)
                    played = U0
                    for k in range(k0):
                        c = rec[REC_TRICKS + 1 + k]
                        played |= U1 << np.uint64(c)
                        led, win_pow, win_seat = K.apply_card(h, (taker + k) % 4, c, k, led, win_pow, win_seat, t, lb)
                    KO.tricks_from(h, i64(taker), i64(t), rules, hcodes, hparams, st, lb, won, i64(taker), i64(k0),
                                   i64(led), i64(win_pow), i64(win_seat), played)
                    n += 1
                    for s in range(4):
                        if won[s] != rec[REC_WON + s]:
                            bad += 1
                            break
    return bad, n


# rule flags and heuristics that change the play or the auction
CASES = [
    ({}, None),
    ({"must_head": True, "trump_obligation": "must_trump_and_overtrump"}, None),
    ({"left_bower_is_trump": False, "trump_obligation": "must_trump", "failed_taker_keeps_tricks": False}, None),
    ({"auction": "multi_round"}, ["aggressive"]),
    ({"must_head": True}, ["cautious:gang_up=0,draw_trumps=0", "aggressive:lead_high=1", "cautious:margin=-1",
                           "aggressive"]),
]


def _args(rules, heur):
    params = make_params(0, BoulmousRules(**rules), SPEC.parse_seats(heur))
    _, _, ra, codes, prm = SPEC.kernel_args(params)
    return ra, codes, prm


@pytest.mark.parametrize("rules,heur", CASES)
def test_tricks_from_plays_every_card_as_play_deal(rules, heur):
    ra, codes, prm = _args(rules, heur)
    rng = np.random.default_rng(7)
    deals = np.zeros((300, 4), np.int64)
    cards = [s * 16 + r for s in range(4) for r in range(7, 13)]
    for d in range(deals.shape[0]):
        p = rng.permutation(cards)
        for s in range(4):
            deals[d, s] = mask_of([int(c) for c in p[6 * s:6 * s + 6]])
    bad, n = _tricks_mismatches(deals, ra, codes, prm)
    assert n == 300 * 4 * 5 * 4
    assert bad == 0


HANDS = ["JH JD AH KH 9S TC", "9S TS 9C TC 9D QD", "JS JC AS KD QH TH"]


@pytest.mark.parametrize("seat", range(4))
@pytest.mark.parametrize("case", range(len(CASES)))
def test_exact_odds_counts_what_the_plain_enumeration_counts(seat, case):
    """Five hands of the next seat (the first and last in the enumeration's order and three at random), all 924
    layouts of the two seats after it each: the same counts, call by call."""
    rules, heur = CASES[case]
    ra, codes, prm = _args(rules, heur)
    hand = HANDS[(seat + case) % len(HANDS)]
    fixed = np.uint64(mask_of(parse_hand(hand)))
    rng = np.random.default_rng(100 * seat + case)
    outer = np.array(sorted({0, comb(18, 6) - 1, *rng.integers(0, comb(18, 6), 3).tolist()}), np.int64)
    trumps = np.arange(5, dtype=np.int64)
    for with_pass in (True, False):
        fast = K.exact_odds(fixed, seat, DEALER, trumps, with_pass, ra, codes, prm, outer)
        plain = _plain_exact(fixed, seat, DEALER, trumps, with_pass, ra, codes, prm, outer)
        assert fast.sum() == len(outer) * 924 * (5 + 2 * with_pass)
        assert np.array_equal(fast, plain)
    # a subset of the trumps leaves the others at zero and counts the listed ones alike
    sub = np.array([4, 1], np.int64)
    fast = K.exact_odds(fixed, seat, DEALER, sub, True, ra, codes, prm, outer[:2])
    assert np.array_equal(fast, _plain_exact(fixed, seat, DEALER, sub, True, ra, codes, prm, outer[:2]))


@pytest.mark.parametrize("case", [0, 4])
def test_exact_odds_memo_across_hands_of_a_block(case):
    """``exact_odds`` keeps each trump's memo of the hands left (``_tricks_body``'s table) across the consecutive
    hands of the next seat in one of its EXACT_BLOCKS blocks: 3 * EXACT_BLOCKS consecutive hands (three to a block,
    so states stored for one hand are found again for the next) count what the plain enumeration counts."""
    rules, heur = CASES[case]
    ra, codes, prm = _args(rules, heur)
    fixed = np.uint64(mask_of(parse_hand(HANDS[case % len(HANDS)])))
    outer = np.arange(9000, 9000 + 3 * KO.EXACT_BLOCKS, dtype=np.int64)
    trumps = np.arange(5, dtype=np.int64)
    fast = K.exact_odds(fixed, 0, DEALER, trumps, False, ra, codes, prm, outer)
    assert fast.sum() == len(outer) * 924 * 5
    assert np.array_equal(fast, _plain_exact(fixed, 0, DEALER, trumps, False, ra, codes, prm, outer))


@njit(cache=True)
def _splits(bits, rest):
    """``_outer_hand`` of the 18-bit subset ``bits`` of ``rest``: the next seat's hand, the 12 cards left and the
    second seat's hand of every split ``_combos(12, 6)`` (built from ``lo6`` / ``hi6`` as ``exact_odds`` builds it)."""
    lo6 = np.zeros(64, np.uint64)
    hi6 = np.zeros(64, np.uint64)
    ma, rest12 = KO._outer_hand(bits, rest, lo6, hi6)
    cb = KO._combos(12, 6)
    out = np.zeros(cb.shape[0], np.uint64)
    for b in range(cb.shape[0]):
        out[b] = lo6[cb[b] & 63] | hi6[cb[b] >> 6]
    return ma, rest12, out


@pytest.mark.parametrize("a", [0, 1, 4321, comb(18, 6) - 1])
def test_outer_hand_splits_give_every_layout_once(a):
    """The layouts of one hand of the next seat, as ``exact_odds`` enumerates them: its six cards are the subset's,
    and the 924 hands of the seat after it are the 924 distinct six-card subsets of the other 12 (so with the third
    seat's, their complements, every layout once: none dropped, none counted twice)."""
    fixed = mask_of(parse_hand(HANDS[0]))
    rest = np.array([c for c in range(64) if (K.DECK24 >> c) & 1 and not (fixed >> c) & 1], np.int64)
    bits = int(KO._combos(18, 6)[a])
    ma, rest12, hands2 = _splits(bits, rest)
    want_a = sum(1 << int(rest[i]) for i in range(18) if (bits >> i) & 1)
    assert int(ma) == want_a and bin(want_a).count("1") == 6
    assert int(rest12) == sum(1 << int(c) for c in rest) - want_a
    assert len({int(x) for x in hands2}) == comb(12, 6)
    assert all(bin(int(x)).count("1") == 6 and int(x) & ~int(rest12) == 0 for x in hands2)


def test_exact_odds_passing_deal_with_score_aware_and_unequal_seats():
    """The deal in which the seat passes, its auction from each seat's estimate (``bid_for``): seats whose bidding
    parameters differ (a score-aware one bids by the bins, NO_SA outside a game) count what ``play_deal`` gives."""
    ra, codes, prm = _args({}, ["cautious:score_aware=1", "cautious:margin=-1", "aggressive:margin=1.5",
                                "cautious:score_aware=2,margin=0"])
    fixed = np.uint64(mask_of(parse_hand(HANDS[1])))
    outer = np.array([0, 777, 9000, comb(18, 6) - 1], np.int64)
    sub = np.array([2], np.int64)
    for seat in range(4):
        fast = K.exact_odds(fixed, seat, DEALER, sub, True, ra, codes, prm, outer)
        assert fast.sum() == len(outer) * 924 * 3
        assert np.array_equal(fast, _plain_exact(fixed, seat, DEALER, sub, True, ra, codes, prm, outer))


# ---------------------------------------------------------------------------
# the whole enumeration against Monte Carlo
# ---------------------------------------------------------------------------
def tol(p, n):
    """5 standard errors of a proportion estimated from n draws."""
    return 5 * sqrt(p * (1 - p) / n)


HAND = "JH QH TH AS KS 9D"   # makes 3 and 4 often, 5 rarely, 6 never (with the default heuristic)


@pytest.mark.slow
def test_exact_enumeration_against_monte_carlo():
    """The whole enumeration of one hand (hearts) against 100,000 random deals: each bid's P(make) within 5
    standard errors, expected points within 5 of theirs.  Here, beside the other tests of ``exact_odds``, so that one
    test worker compiles the kernel (two workers compiling it at once each spent 6 CPU s on it)."""
    ex = B.odds_hand(HAND, exact=True, trumps=["H"])
    calls = ex["calls"]
    assert ex["exact"] and ex["n"] == B.N_LAYOUTS == comb(18, 6) * comb(12, 6)
    assert list(calls.trump) == ["H"] * 4 and list(calls.bid) == [3, 4, 5, 6]
    assert (calls.n == B.N_LAYOUTS).all()
    assert int(ex["pass"].n.iloc[0]) == B.N_LAYOUTS
    p_exact = [float(p) for p in calls.p_make]
    assert p_exact == sorted(p_exact, reverse=True)
    assert 0 < p_exact[2] < p_exact[1] < p_exact[0] < 1   # not a degenerate hand

    n = 100_000
    mc = B.odds_hand(HAND, hands=n, trumps=["H"])
    assert mc["n"] == n and not mc["exact"]
    for pe, pm in zip(p_exact, mc["calls"].p_make):
        assert abs(float(pm) - pe) <= tol(pe, n) + 1e-12, (pm, pe)
    # expected points: within 5 standard errors (the 95% half-width is 1.96 of them)
    for e, m, half in zip(calls.exp_points, mc["calls"].exp_points, mc["calls"].points_ci):
        assert abs(float(m) - float(e)) <= 5 / 1.96 * float(half) + 1e-12
    pe, pmc = ex["pass"].iloc[0], mc["pass"].iloc[0]
    assert abs(pmc.exp_points - pe.exp_points) <= 5 / 1.96 * pmc.points_ci
