"""The Boomke Wies sampling player (kernels/boomke_wies/pimc.py, issue 28): the referee accepts its traces under
every variant, its worlds never hold a card already seen nor contradict a shown void and are uniform among the
layouts that respect the voids, its inference worlds reproduce the calls heard, its results do not depend on the
threads or the blocks, bad parameters are refused in one line, and compare and odds --play seat it."""
import itertools
import math

import numba
import numpy as np
import pytest

import ref_boomke_wies as ref
from tricksim import cli
from tricksim.analysis import boomke_wies as B
from tricksim.kernels import boomke_wies as K
from tricksim.kernels.boomke_wies import pimc as P
from tricksim.kernels.cards import mask_of

SMALL = "pimc:worlds=6,bid_worlds=6"
SEATS = [SMALL, "partner", SMALL + ",infer=0", "naive"]
HAND = "AS KS QS JS 9S 7S AH KH 4H AD 3D 5C 2C"


def _referee(seed, hands, rules=None, seats=SEATS):
    tr = B.trace(seed, hands, B.BoomkeRules(**(rules or {})), seats, with_legal=True)
    bad = [(d["hand_index"], e) for d in tr for e in ref.check_hand(d)]
    assert not bad, f"{len(bad)} disagreements, first: {bad[:5]}"
    return tr


@pytest.mark.fast
@pytest.mark.parametrize("rules,hands", [
    ({}, 300),
    ({"variant": "no_auction"}, 80),
    ({"meetje_trump": "dealer_names_then_eldest_leads", "meetje_shortfall_penalty": True}, 120),
    ({"dealer_may_bid_8_to_12": True, "defence_scoring": "literal_exactly9"}, 120),
    ({"shuffle": "none_collect_tricks", "deal_packets": "5_4_4"}, 80)])
def test_referee_accepts_pimc_traces(rules, hands):
    tr = _referee(3, hands, rules)
    assert all(len(d["tricks"]) >= 1 for d in tr)
    if not rules:
        contracts = {d["contract"] for d in tr}
        assert "meetje" in contracts and 7 in contracts
        # the sampling seats declare too, and some of them bid above the lowest legal level or Boom
        assert any(d["bidder"] in (0, 2) for d in tr)


@pytest.mark.fast
def test_pimc_plays_and_calls_otherwise_than_partner():
    a = B.trace(4, 120, None, ["pimc:worlds=8,bid_worlds=8", "partner"] * 2)
    b = B.trace(4, 120, None, ["partner"])
    assert [d["deal"] for d in a] == [d["deal"] for d in b]              # the same deals
    assert sum(x["bids"] != y["bids"] for x, y in zip(a, b)) > 5
    assert sum(x["tricks"] != y["tricks"] for x, y in zip(a, b)) > 20


# ---------------------------------------------------------------------------
# the world sampler
# ---------------------------------------------------------------------------
def _cards(mask):
    return {c for c in range(64) if (int(mask) >> c) & 1}


@pytest.mark.fast
def test_worlds_respect_seen_cards_counts_and_voids():
    rng = np.random.default_rng(1)
    deck = [s * 16 + r for s in range(4) for r in range(13)]
    for case in range(40):
        order = list(rng.permutation(deck))
        hands = [order[13 * q:13 * q + 13] for q in range(4)]
        me = int(rng.integers(4))
        played = set()
        voids = 0
        need = [13] * 4
        # each seat other than me gave up some cards; some seats show a void in a suit they no longer hold
        for q in range(4):
            k = int(rng.integers(0, 9))
            gone = hands[q][:k]
            played |= set(gone)
            need[q] = 13 - k
            if q != me:
                for s in range(4):
                    if not any(c // 16 == s for c in hands[q][k:]) and rng.random() < 0.7:
                        voids |= 1 << (4 * q + s)
        hand = mask_of(hands[me][13 - need[me]:])
        out = P.sample_worlds(100 + case, me, np.uint64(hand), np.uint64(mask_of(played)),
                              np.array(need, np.int64), voids, 50)
        assert (out[:, 0] >= 0).all()                     # no world skipped
        unseen = set(deck) - played - _cards(hand)
        for row in out:
            w = [_cards(row[q]) for q in range(4)]
            assert w[me] == _cards(hand)
            assert [len(x) for x in w] == need
            assert set().union(*(w[q] for q in range(4) if q != me)) == unseen   # never a card already seen
            for q in range(4):
                for s in range(4):
                    if (voids >> (4 * q + s)) & 1:
                        assert not any(c // 16 == s for c in w[q]), (q, s)       # never against a shown void


@pytest.mark.fast
def test_worlds_are_uniform_within_the_voids():
    """Seven unseen cards, seat 1 void in spades: every layout within the void is equally likely (the exact
    rejection sampler), checked against the enumeration of all of them."""
    me = 0
    hand = mask_of([16 * 3 + r for r in range(10)])                 # ten clubs, the rest is played
    unseen = [0, 1, 2, 16, 17, 32, 33]                             # 2S 3S 4S, 2H 3H, 2D 3D
    played = set(range(64)) - set(unseen) - _cards(hand)
    played = {c for c in played if c % 16 < 13}
    need = [10, 2, 2, 3]
    voids = 1 << (4 * 1 + 0)
    valid = []
    for a in itertools.combinations(unseen, 2):
        if any(c // 16 == 0 for c in a):
            continue
        rest = [c for c in unseen if c not in a]
        for b in itertools.combinations(rest, 2):
            valid.append((frozenset(a), frozenset(b)))
    n = 20_000
    out = P.sample_worlds(7, me, np.uint64(hand), np.uint64(mask_of(played)), np.array(need, np.int64), voids, n)
    counts = {}
    for row in out:
        key = (frozenset(_cards(row[1])), frozenset(_cards(row[2])))
        assert key in set(valid)
        counts[key] = counts.get(key, 0) + 1
    assert len(counts) == len(valid)
    e = n / len(valid)
    chi2 = sum((counts.get(k, 0) - e) ** 2 / e for k in valid)
    df = len(valid) - 1
    assert chi2 < df + 5 * math.sqrt(2 * df), (chi2, df)


@pytest.mark.fast
def test_inference_worlds_reproduce_the_calls_heard():
    """Auctions of four partner players: the worlds a seat samples with infer=1 make, when the kernel's own auction
    is run on them, the calls heard before the seat's turn (their class: pass, Meetje or a bid; the level too for
    nearly all)."""
    tr = B.trace(9, 60, None, ["partner"])
    specs = B.parse_seats(["pimc"] * 4)
    _, prm = B.heuristic_arrays(specs)
    pcodes, pprm = B.heuristic_arrays(B.parse_seats(["partner"] * 4))
    ra = B.rules_array(B.BoomkeRules())
    checked = exact = fallbacks = 0
    cls = (lambda b: 0 if b is None else (1 if b == "meetje" else 2))
    for d in tr:
        bids = d["bids"]
        if len(bids) < 3:
            continue
        m = len(bids) - 1                   # the calls heard before the last one
        me = bids[m]["seat"]
        calls = np.array([[b["seat"], 0 if b["bid"] is None else (K.MEETJE if b["bid"] == "meetje" else b["bid"])]
                          for b in bids[:m]], np.int64)
        hand = np.uint64(mask_of(B.parse_hand(" ".join(d["deal"][me]))))
        worlds, kind = P.sample_auction_worlds(d["hand_index"], me, hand, d["dealer"], calls, prm, 20)
        fallbacks += int((kind == 0).sum())
        st = np.zeros(1, np.uint64)
        rec = np.zeros(K.REC_LEN, np.int64)
        h = np.zeros(4, np.uint64)
        for w, k in zip(worlds, kind):
            if k != 1:
                continue
            hs = w.astype(np.uint64)
            assert int(hs[me]) == int(hand)
            assert sum(bin(int(x)).count("1") for x in hs) == 52 and np.bitwise_or.reduce(hs) == K.DECK
            K.play_deal(hs, np.int64(d["dealer"]), np.int64(-1), np.int64(0), np.int64(-1), np.int64(-1), ra,
                        pcodes, pprm, st, rec, h)
            got = [(int(rec[K.REC_BIDS + 2 * i]), int(rec[K.REC_BIDS + 2 * i + 1])) for i in range(m)]
            heard = [(int(s), int(b)) for s, b in calls]
            assert [(s, cls(None if b == 0 else ("meetje" if b == K.MEETJE else b))) for s, b in got] == \
                [(s, cls(None if b == 0 else ("meetje" if b == K.MEETJE else b))) for s, b in heard]
            checked += 1
            exact += got == heard
    assert checked > 300
    assert exact >= 0.95 * checked
    assert fallbacks <= 0.1 * checked


# ---------------------------------------------------------------------------
# seeds, threads, blocks
# ---------------------------------------------------------------------------
def _duplicate(first, n, entrants=("partner", SMALL)):
    specs = B.parse_seats(list(entrants), len(entrants))
    codes, prm = B.heuristic_arrays(specs)
    kd, kc = B.SPEC.keys(6)
    pw = P.workspace()
    out = K.sim_duplicate(kd, kc, first, n, B.rules_array(B.BoomkeRules()), codes, prm, pw)
    return out, pw


@pytest.mark.fast
def test_seeded_determinism_thread_and_block_invariance():
    a, pa = _duplicate(0, 24)
    b, _ = _duplicate(0, 24)
    assert np.array_equal(a, b)
    c1, _ = _duplicate(0, 10)
    c2, _ = _duplicate(10, 14)
    assert np.array_equal(a, c1 + c2)
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        d, pd_ = _duplicate(0, 24)
    finally:
        numba.set_num_threads(old)
    assert np.array_equal(a, d) and np.array_equal(pa[1:], pd_[1:])
    assert pa[P.S_CARDS] > 0 and pa[P.S_CALLS] > 0 and pa[P.S_WORLDS] > 0
    t1 = B.trace(2, 12, None, SEATS)
    t2 = B.trace(2, 12, None, SEATS)
    parts = B.trace(2, 5, None, SEATS) + B.trace(2, 7, None, SEATS, first=5)
    assert t1 == t2 and [d["tricks"] for d in t1] == [d["tricks"] for d in parts]


@pytest.mark.fast
def test_kernel_refuses_a_pimc_seat_without_its_workspace():
    specs = B.parse_seats(["pimc", "partner"] * 2)
    kd, kc, ra, codes, prm = B.SPEC.kernel_args(B.make_params(0, B.BoomkeRules(), specs))
    with pytest.raises(ValueError, match="sampling player"):
        K.trace_deals(kd, kc, 0, 1, ra, codes, prm)


# ---------------------------------------------------------------------------
# the CLI: bad parameters, compare, odds --play
# ---------------------------------------------------------------------------
BAD = [
    (["compare", "boomke-wies", "partner", "pimc:worlds=2.5", "--hands", "4"], "worlds must be an integer"),
    (["compare", "boomke-wies", "partner", "pimc:bid_worlds=1.5", "--hands", "4"], "bid_worlds must be an integer"),
    (["compare", "boomke-wies", "partner", "pimc:infer=0.5", "--hands", "4"], "infer must be an integer"),
    (["compare", "boomke-wies", "partner", "pimc:worlds=0", "--hands", "4"], "out of range"),
    (["trace", "boomke-wies", "-H", "pimc:infer=2"], "out of range"),
    (["odds", "boomke-wies", "-H", "pimc", "--hands", "10", "-q"], "pimc plays in"),
    (["stakes", "boomke-wies", "-H", "pimc", "--games", "2"], "pimc plays in"),
    (["odds", "boomke-wies", "--hand", HAND, "--play", "heuristic,pimc:worlds=1.5", "-q"], "worlds must be"),
]


@pytest.mark.fast
@pytest.mark.parametrize("argv,needle", BAD)
def test_bad_pimc_parameters_one_line(argv, needle, capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("tricksim: error:") and needle in err, err


@pytest.mark.fast
def test_compare_partner_pimc_is_paired(tmp_path, capsys):
    cli.main(["compare", "boomke-wies", "partner", SMALL, "--hands", "48", "--seed", "3", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert "pairwise differences" in out and "verdict" in out and SMALL in out
    # paired: both entrants play the same 48 deals, each in both seatings
    assert "48" in out and "a - b" in out
    a, _ = _duplicate(0, 48)
    s_partner, s_pimc = a[0], a[1]           # points summed over the same deals, both seatings each
    b, _ = _duplicate(0, 48, (SMALL, "partner"))
    assert (b[0], b[1]) == (s_pimc, s_partner)          # the entrants' order does not matter


@pytest.mark.fast
def test_odds_play_pimc_beside_the_heuristics():
    res = B.odds_play(HAND, seed=1, hands=30, play="heuristic,pimc:worlds=4")
    plain = B.odds_play(HAND, seed=1, hands=30, play="heuristic")
    c = res["calls"]
    assert set(c.play) == {"heuristic", "pimc"} and set(res["gaps"].play) == {"pimc"}
    h = c[c.play == "heuristic"].reset_index(drop=True)
    assert h.equals(plain["calls"].reset_index(drop=True))     # the same deals and the heuristics' play
    assert (c.n == 30).all()


@pytest.mark.slow
def test_referee_accepts_pimc_traces_many():
    tr = _referee(21, 800, None, ["pimc", "partner"] * 2)
    assert sum(d["bidder"] in (0, 2) for d in tr) > 200


@pytest.mark.fast
def test_compare_is_the_same_for_any_thread_count(tmp_path, capsys):
    """Three engine blocks (250 deals each with a pimc entrant) run on one thread and on two: the same tables."""
    spec = "pimc:worlds=4,bid_worlds=4"
    outs = []
    for threads in (1, 2):
        cli.main(["compare", "boomke-wies", "partner", spec, "--hands", "600", "--seed", "8", "--threads",
                  str(threads), "--out", str(tmp_path / f"t{threads}"), "-q"])
        out = capsys.readouterr().out
        outs.append([x for x in out.splitlines() if "in " + str(tmp_path) not in x])
    assert outs[0] == outs[1] and any("pairwise differences" in x for x in outs[0])
