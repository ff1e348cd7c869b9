"""The shared kernel helpers of kernels/deal.py and kernels/tally.py against plain numpy."""
import numpy as np
import pytest

from tricksim.kernels.deal import deal_with_fixed
from tricksim.kernels.rng import seed_state
from tricksim.kernels.tally import add_outer, add_sum_outer, sum_rows


def test_add_sum_outer_matches_numpy():
    """S at its offset, Q at its own (here two cells after S's end: nothing written between or after)."""
    rng = np.random.default_rng(5)
    k, off = 3, 4
    o_q = off + k + 2
    acc = np.zeros(o_q + k * k + 2, np.int64)
    want = acc.copy()
    for _ in range(20):
        x = rng.integers(-9, 10, k).astype(np.int64)
        add_sum_outer(acc, off, o_q, x, k)
        want[off:off + k] += x
        want[o_q:o_q + k * k] += np.outer(x, x).ravel()
    assert (acc == want).all() and acc[:off].sum() == 0 and acc[-2:].sum() == 0 and not acc[off + k:o_q].any()
    acc2 = np.zeros(k * k, np.int64)
    add_outer(acc2, 0, np.array([1, -2, 3], np.int64), k)
    assert acc2.reshape(k, k).tolist() == [[1, -2, 3], [-2, 4, -6], [3, -6, 9]]


def test_deal_with_fixed_deals_every_card_once():
    for per_hand, deck in ((6, [c for s in range(4) for c in range(16 * s + 7, 16 * s + 13)]),
                           (13, [c for s in range(4) for c in range(16 * s, 16 * s + 13)])):
        fixed_cards, rest0 = deck[:per_hand], np.array(deck[per_hand:], np.int64)
        fixed = np.uint64(sum(1 << c for c in fixed_cards))
        for seat in range(4):
            st = np.zeros(1, np.uint64)
            seed_state(st, np.uint64(11), seat)
            hands = np.zeros(4, np.uint64)
            deal_with_fixed(st, rest0.copy(), fixed, seat, hands, np.int64(per_hand))
            assert hands[seat] == fixed
            assert [bin(int(h)).count("1") for h in hands] == [per_hand] * 4
            union = 0
            for h in hands:
                assert union & int(h) == 0
                union |= int(h)
            assert union == sum(1 << c for c in deck)


@pytest.mark.fast
def test_sum_rows_is_the_sum_over_the_rows():
    """The block kernels' per-chunk counts summed into the block's (kernels/tally.py ``sum_rows``)."""
    rng = np.random.default_rng(5)
    for shape in ((1, 7), (4, 1), (3, 250), (2, 0)):
        part = rng.integers(-2**40, 2**40, size=shape, dtype=np.int64)
        out = sum_rows(part)
        assert out.dtype == np.int64 and out.shape == (shape[1],)
        assert np.array_equal(out, part.sum(axis=0))
