"""Boulmous dealing odds against exact values (RULES.md section 4), the exact enumeration
against Monte Carlo, and results independent of thread count and block size."""
from fractions import Fraction
from math import comb, factorial, sqrt

import numba
import numpy as np
import pytest

import ref_boulmous as ref
from tricksim.analysis import boulmous as B
from tricksim.analysis import engine
from tricksim.analysis.boulmous import BoulmousRules
from tricksim.kernels import boulmous as KB

P_BOTH_JACKS = Fraction(comb(22, 4), comb(24, 6))       # both jacks of one given colour
P_NO_TRUMP_GROUP = Fraction(comb(17, 6), comb(24, 6))   # none of a suit's 7 trumps (bowers included)
N_LAYOUTS = 17_153_136


def tol(p, n):
    """5 standard errors of a proportion estimated from n draws."""
    return 5 * sqrt(p * (1 - p) / n)


def test_exact_constants():
    assert P_BOTH_JACKS == Fraction(7315, 134596)
    assert round(float(P_BOTH_JACKS), 6) == 0.054348
    assert round(float(P_NO_TRUMP_GROUP), 6) == 0.091949
    assert comb(18, 6) * comb(12, 6) == N_LAYOUTS == B.N_LAYOUTS
    assert factorial(24) // factorial(6) ** 4 == 2_308_743_493_056


N_DEALS = 400_000


def card_mask(cards):
    from tricksim.analysis.common import parse_card
    from tricksim.kernels.cards import mask_of
    return np.uint64(mask_of(parse_card(c) for c in cards))


@pytest.fixture(scope="module")
def kernel_hands():
    """The hands (uint64 masks, shape (N_DEALS, 4)) of kernel deals 0..N_DEALS-1 of seed 2024,
    from the per-hand rows the engine keeps with --keep-hands (the trace kernel)."""
    params = B.make_params(2024, BoulmousRules(), B.parse_seats("random"))
    step = 50_000
    parts = []
    for first in range(0, N_DEALS, step):
        rows = B.hand_rows(params, first, step)
        assert list(rows.hand_index[:3]) == [first, first + 1, first + 2]
        parts.append(np.stack([rows[f"hand{s}"].to_numpy().astype(np.uint64) for s in range(4)], axis=1))
    return np.concatenate(parts)


def test_kernel_hands_are_the_ported_deals(kernel_hands):
    for i in list(range(200)) + [N_DEALS - 1]:
        assert [int(m) for m in kernel_hands[i]] == [int(card_mask(h)) for h in ref.deal(2024, i)]


def test_every_deal_is_a_partition_of_the_deck(kernel_hands):
    deck = card_mask(ref.DECK)
    h = kernel_hands
    assert ((h[:, 0] | h[:, 1] | h[:, 2] | h[:, 3]) == deck).all()
    assert ((h[:, 0] & h[:, 1]) | (h[:, 2] & h[:, 3]) | ((h[:, 0] | h[:, 1]) & (h[:, 2] | h[:, 3])) == 0).all()
    # six cards each (24 cards over four disjoint hands, and no hand of another size)
    counts = np.array([[bin(int(m)).count("1") for m in row] for row in h[:2000]])
    assert (counts == 6).all()


@pytest.mark.parametrize("seat", range(4))
@pytest.mark.parametrize("colour", [("JH", "JD"), ("JS", "JC")], ids=["red", "black"])
def test_both_jacks_of_a_colour(kernel_hands, seat, colour):
    m = card_mask(colour)
    n = len(kernel_hands)
    k = int(((kernel_hands[:, seat] & m) == m).sum())
    p = float(P_BOTH_JACKS)
    assert abs(k / n - p) <= tol(p, n), (k, n)


@pytest.mark.parametrize("seat", range(4))
@pytest.mark.parametrize("trump", "SHDC")
def test_no_card_of_a_trump_group(kernel_hands, seat, trump):
    group = ref.trump_order(trump)
    assert len(set(group)) == 7
    m = card_mask(group)
    n = len(kernel_hands)
    k = int(((kernel_hands[:, seat] & m) == 0).sum())
    p = float(P_NO_TRUMP_GROUP)
    assert abs(k / n - p) <= tol(p, n), (k, n)


# ---------------------------------------------------------------------------
# a hand of the tests below
# ---------------------------------------------------------------------------
HAND = "JH QH TH AS KS 9D"   # makes 3 and 4 often, 5 rarely, 6 never (with the default heuristic)
# (its whole enumeration against Monte Carlo: tests/test_boulmous_exact.py, the file that compiles the kernel)


# ---------------------------------------------------------------------------
# expected points follow rule 16's flag (issue 11)
# ---------------------------------------------------------------------------
def _points(tricks, bid, keeps):
    return tricks if tricks >= bid else (tricks - bid if keeps else -bid)


@pytest.mark.parametrize("exact", [False, True])
def test_odds_points_follow_failed_taker_keeps_tricks(exact):
    """E[points] of each bid from a trick histogram, for both values of
    failed_taker_keeps_tricks (the exact and the Monte Carlo tables share this code)."""
    agg = np.zeros(KB.AGG_ODDS, np.int64)
    hist = [5, 10, 20, 30, 20, 10, 5]                  # hearts: the taker's tricks 0..6
    agg[7:14] = hist
    agg[35 + 6 + 2] = 100                              # passing: 2 tricks every time
    n = sum(hist)
    for keeps in (True, False):
        calls, pas = B._odds_tables(agg, 0, exact, BoulmousRules(failed_taker_keeps_tricks=keeps))
        for r in calls.itertuples():
            want = sum(h * _points(t, r.bid, keeps) for t, h in enumerate(hist)) / n
            assert r.exp_points == pytest.approx(want, abs=1e-12), (keeps, r.bid)
        assert float(pas.exp_points.iloc[0]) == 2.0
    calls, _ = B._odds_tables(agg, 0, exact, BoulmousRules(failed_taker_keeps_tricks=False))
    assert calls[calls.bid == 6].exp_points.iloc[0] == pytest.approx((5 * 6 - 95 * 6) / 100)


def test_odds_hand_reproduction_failed_taker_keeps_tricks_false():
    """Issue 11: tricksim odds boulmous --hand "JH JD AH KH 9S TC" --trump H --rule
    failed_taker_keeps_tricks=false printed E[points] -1.99 for bid 6 (never made): -6 is right."""
    hand = "JH JD AH KH 9S TC"
    rules = BoulmousRules(failed_taker_keeps_tricks=False)
    res = B.odds_hand(hand, hands=20_000, trumps=["H"], rules=rules, with_pass=False)
    c = res["calls"].set_index("bid")
    assert c.p_make[6] == 0 and c.exp_points[6] == -6.0
    keep = B.odds_hand(hand, hands=20_000, trumps=["H"], with_pass=False)["calls"].set_index("bid")
    assert keep.p_make.tolist() == c.p_make.tolist()             # the same playouts
    for bid in (3, 4, 5, 6):
        assert c.exp_points[bid] <= keep.exp_points[bid]
    assert c.exp_points[5] < keep.exp_points[5] - 3               # a failed 5 keeps its 4 tricks no more
    params = B.make_params(0, rules, B.parse_seats(None), hand_mask=int(card_mask(hand.split())), seat=0)
    h = B.block_odds(params, 0, 20_000)[7:14]
    for bid in (3, 4, 5, 6):
        assert c.exp_points[bid] == pytest.approx(sum(k * _points(t, bid, False) for t, k in enumerate(h)) / h.sum())


# ---------------------------------------------------------------------------
# thread count and block size cannot change a result
# ---------------------------------------------------------------------------
def _with_threads(k, fn):
    old = numba.get_num_threads()
    numba.set_num_threads(k)
    try:
        return fn()
    finally:
        numba.set_num_threads(old)


needs_two_threads = pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="numba has one thread")


@needs_two_threads
@pytest.mark.parametrize("heuristic, flags", [("random", {}), ("cautious", {"auction": "multi_round"}),
                                              ("aggressive", {"left_bower_is_trump": False,
                                                              "trump_obligation": "must_trump_and_overtrump"})])
def test_deals_identical_with_1_and_2_threads(heuristic, flags):
    params = B.make_params(5, BoulmousRules(**flags), B.parse_seats(heuristic))
    n = 20_011
    one = _with_threads(1, lambda: B.block_deals(params, 0, n))
    two = _with_threads(2, lambda: B.block_deals(params, 0, n))
    assert one.dtype == two.dtype == np.int64
    assert one.sum() > 0
    assert np.array_equal(one, two)
    # and a block starting elsewhere is the same hands whatever the threads
    a = _with_threads(1, lambda: B.block_deals(params, 7_000, 5_000))
    b = _with_threads(2, lambda: B.block_deals(params, 7_000, 5_000))
    assert np.array_equal(a, b)


@needs_two_threads
def test_odds_and_games_identical_with_1_and_2_threads():
    specs = B.parse_seats("aggressive")
    params = B.make_params(9, BoulmousRules(), specs, hand_mask=int(card_mask(HAND.split())), seat=1)
    one = _with_threads(1, lambda: B.block_odds(params, 0, 9_000))
    two = _with_threads(2, lambda: B.block_odds(params, 0, 9_000))
    assert np.array_equal(one, two)
    params = B.make_params(9, BoulmousRules(), specs)
    one = _with_threads(1, lambda: B.block_games(params, 0, 300))
    two = _with_threads(2, lambda: B.block_games(params, 0, 300))
    assert np.array_equal(one, two)


@pytest.mark.parametrize("study", ["boulmous.deals", "boulmous.classes"])
def test_block_size_does_not_change_the_result(study):
    params = B.make_params(17, BoulmousRules(), B.parse_seats("random"))
    n = 12_345
    small = engine.execute(engine.Run(study, params, n, 1_000), None, progress=False)
    large = engine.execute(engine.Run(study, params, n, 4_096), None, progress=False)
    assert small.n == large.n == n
    assert small.blocks == 13 and large.blocks == 4
    assert np.array_equal(small.counts, large.counts)
    # and the same as one call of the block function over all the hands
    assert np.array_equal(small.counts, engine.find_block(study)(params, 0, n))


@pytest.mark.parametrize("exact", [False, True])
def test_odds_footer_names_only_what_the_table_shows(exact):
    """The footer of ``odds boulmous --hand`` promised a P(box) column the table does not have and, with
    --exact, an interval the exact table does not print."""
    import pandas as pd
    from tricksim.analysis.boulmous.views import render_odds
    agg = np.zeros(KB.AGG_ODDS, np.int64)
    agg[7:14] = [5, 10, 20, 30, 20, 10, 5]
    agg[35 + 6 + 2] = 100
    calls, pas = B._odds_tables(agg, 0, exact, BoulmousRules())
    call, val, pts, stakes = B.best_call(calls, pas)
    best = pd.DataFrame([{"best_call": call, "exp_value": val, "exp_points": pts, "exp_stakes": stakes}])
    text = render_odds({"hand": HAND, "exact": exact, "n": 100, "calls": calls, "pass": pas, "best": best})
    assert "P(box)" not in text and "1 - P(make)" in text
    table = text.splitlines()[1]
    assert ("P(make) exact" in table) == exact and ("[95% CI]" in table) != exact
    assert ("interval" in text.splitlines()[-1]) != exact
