"""Boomke Wies: the kernel against the pure-Python referee (every variant flag), exact
dealing odds, worked scoring cases of RULES.md 2.3, thread/chunk invariance, the trace
being the batch kernel's window, matches, duplicate support, odds of a hand, the
double-dummy bound (skipped without endplay) and bad input through the CLI."""
from __future__ import annotations

import functools
import math

import numba
import numpy as np
import pytest

import ref_boomke_wies as ref
from tricksim.analysis import boomke_wies as B
from tricksim.analysis import engine
from tricksim.analysis.common import TricksimError
from tricksim.kernels import boomke_wies as K

pytestmark = pytest.mark.fast   # the fast tier (scripts/test.sh --fast)


@functools.lru_cache(maxsize=32)
def _trace(seed, hands, rules_items, heuristic, first=0):
    return B.trace(seed, hands, B.BoomkeRules(**dict(rules_items)), [heuristic], first=first, with_legal=True)


def trace(seed, hands, rules=None, heuristic="default", first=0):
    return _trace(seed, hands, tuple(sorted((rules or {}).items())), heuristic, first)


def _assert_referee(hands):
    bad = [(d["hand_index"], e) for d in hands for e in ref.check_hand(d)]
    assert not bad, f"{len(bad)} disagreements, first: {bad[:5]}"


# ---------------------------------------------------------------------------
# the referee, hand by hand
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("heuristic", ["default", "random", "naive"])
def test_referee_default_rules(heuristic):
    hands = trace(11, 1500, heuristic=heuristic)
    _assert_referee(hands)
    contracts = {d["contract"] for d in hands}
    assert "meetje" in contracts and 7 in contracts
    if heuristic == "random":
        assert 13 in contracts and any(d["stopped_early"] for d in hands)   # Booms that stop early
        assert any(d["made"] is False for d in hands if isinstance(d["contract"], int) and d["contract"] >= 10)


FLAG_CASES = [
    ({"variant": "no_auction"}, "default"),
    ({"variant": "no_auction"}, "random"),
    ({"dealer_may_bid_8_to_12": True}, "random"),
    ({"meetje_trump": "dealer_names_then_eldest_leads"}, "default"),
    ({"meetje_trump": "dealer_names_then_eldest_leads"}, "random"),
    ({"meetje_shortfall_penalty": True}, "default"),
    ({"defence_scoring": "literal_exactly9"}, "random"),
    ({"shuffle": "none_collect_tricks"}, "default"),
    ({"shuffle": "none_collect_tricks", "deal_packets": "5_4_4"}, "random"),
    ({"shuffle": "none_collect_tricks", "variant": "no_auction"}, "default"),
    ({"deal_packets": "5_4_4"}, "default"),
]


@pytest.mark.parametrize("rules,heuristic", FLAG_CASES)
def test_referee_flags(rules, heuristic):
    hands = trace(5, 400, rules, heuristic)
    _assert_referee(hands)
    # the flag's own branch was exercised
    if rules.get("dealer_may_bid_8_to_12"):
        forced = [d["bids"][-1]["bid"] for d in hands if len(d["bids"]) == 4 and
                  all(b["bid"] is None for b in d["bids"][:3])]
        assert any(isinstance(b, int) and 8 <= b <= 12 for b in forced)
    if rules.get("meetje_trump"):
        assert any(d["contract"] == "meetje" and d["first_leader"] == (d["dealer"] + 1) % 4 for d in hands)
    if rules.get("meetje_shortfall_penalty"):
        assert any(d["contract"] == "meetje" and min(d["score_delta"]) < 0 for d in hands)
    if rules.get("defence_scoring"):
        assert any(d["made"] is False and isinstance(d["contract"], int) and d["contract"] <= 9
                   and max(d["score_delta"]) == 0 for d in hands)          # defenders without 9 tricks: 0
    if rules.get("shuffle"):
        assert all(len(d["pile"]) == 52 and 1 <= d["cut"] <= 51 for d in hands)
    if rules.get("variant") == "no_auction":
        assert all(sum(d["score_delta"]) == 26 for d in hands)


def test_referee_catches_a_wrong_card():
    d = dict(trace(11, 3)[0])
    tricks = [dict(t) for t in d["tricks"]]
    cards = list(tricks[2]["cards"])
    cards[1], cards[2] = cards[2], cards[1]          # two seats swap their cards
    tricks[2]["cards"] = cards
    d["tricks"] = tricks
    assert ref.check_hand(d)


# ---------------------------------------------------------------------------
# worked cases of RULES.md 2.3 and the scoring table
# ---------------------------------------------------------------------------
WORKED = [  # (contract, declarers' tricks, opponents' tricks, declarers, opponents)
    (8, 11, 2, 2, 0),
    (9, 8, 5, -1, 1),
    (7, 3, 10, -1, 2),
    (11, 10, 3, -2, 2),
    (K.BOOM, 3, 1, -5, 5),          # Boom, a trick lost at trick 4: play stopped
    (K.MEETJE, 6, 7, 0, 1),
    (K.MEETJE, 9, 4, 1, 0),
    (7, 13, 0, 3, 0), (12, 12, 1, 2, 0), (K.BOOM, 13, 0, 5, 0), (10, 9, 4, -2, 2),
]


@pytest.mark.parametrize("contract,T,O,ours,theirs", WORKED)
def test_worked_scoring_cases(contract, T, O, ours, theirs):
    r = B.BoomkeRules()
    a, b, made = K.score_contract(contract, T, O, B.rules_array(r))
    assert (a, b) == (ours, theirs)
    assert bool(made) == (ours > 0)
    c = "meetje" if contract == K.MEETJE else contract
    assert ref.score_table(c, T, O, B.rules_dict(r))[:2] == (ours, theirs)


def test_scoring_flags():
    lit = B.rules_array(B.BoomkeRules(defence_scoring="literal_exactly9"))
    assert tuple(K.score_contract(7, 6, 7, lit))[:2] == (-1, 0)     # literal: only exactly 9 scores 1
    assert tuple(K.score_contract(9, 4, 9, lit))[:2] == (-1, 1)
    assert tuple(K.score_contract(7, 2, 11, lit))[:2] == (-1, 2)
    short = B.rules_array(B.BoomkeRules(meetje_shortfall_penalty=True))
    assert tuple(K.score_contract(K.MEETJE, 4, 9, short))[:2] == (-3, 1)
    assert tuple(K.score_contract(K.MEETJE, 7, 6, short))[:2] == (1, 0)


def test_boom_stops_at_the_first_lost_trick():
    r = B.BoomkeRules()
    codes, prm = B.heuristic_arrays(B.parse_seats("default"))
    ra = B.rules_array(r)
    kd, kc = B.GAME.keys(3)
    from tricksim.kernels.rng import seed_state, shuffle
    sd, st = np.zeros(1, np.uint64), np.zeros(1, np.uint64)
    deck, hands, h = np.zeros(52, np.int64), np.zeros(4, np.uint64), np.zeros(4, np.uint64)
    rec = np.zeros(K.REC_LEN, np.int64)
    stops = set()
    for i in range(150):
        seed_state(sd, kd, i)
        seed_state(st, kc, i)
        K.fresh_deck(deck)
        shuffle(sd, deck, 52)
        K.deal_from_deck(deck, 3, 0, hands)
        K.play_deal(hands, 3, 0, K.BOOM, -1, -1, ra, codes, prm, st, rec, h)
        n = rec[K.REC_NTRICKS]
        winners = [rec[K.REC_TRICKS + 6 * t + 5] for t in range(n)]
        lost = [t for t, w in enumerate(winners) if w % 2 == 1]
        assert lost == ([n - 1] if n < 13 else [])
        assert list(rec[K.REC_SCORE:K.REC_SCORE + 4]) == ([5, 0, 5, 0] if n == 13 and not lost else [-5, 5, -5, 5])
        stops.add(n)
    assert 4 in stops


# ---------------------------------------------------------------------------
# exact dealing odds
# ---------------------------------------------------------------------------
def _tol(p, n):
    return 5 * math.sqrt(p * (1 - p) / n)


def test_void_probability_exact():
    p = 0.051066   # RULES.md section 4: P(a given 13-card hand has a void)
    exact = sum((-1) ** (k + 1) * math.comb(4, k) * math.comb(52 - 13 * k, 13) for k in range(1, 5)) / math.comb(52, 13)
    assert abs(exact - p) < 1e-6
    kd, kc, ra, codes, prm = B.GAME.kernel_args(B.make_params(21, B.BoomkeRules(), B.parse_seats("default")))
    recs = K.trace_deals(kd, kc, 0, 40_000, ra, codes, prm)      # the deals every study plays
    n = 0
    voids = 0
    for rec in recs:
        for s in range(4):
            m = int(rec[K.REC_HANDS + s])
            n += 1
            voids += any((m >> (16 * su)) & 0x1FFF == 0 for su in range(4))
    assert abs(voids / n - p) < _tol(p, n)


def _longest_suit_exact():
    dist = {}
    for a in range(14):
        for b in range(14 - a):
            for c in range(14 - a - b):
                d = 13 - a - b - c
                w = math.comb(13, a) * math.comb(13, b) * math.comb(13, c) * math.comb(13, d)
                m = max(a, b, c, d)
                dist[m] = dist.get(m, 0) + w
    tot = math.comb(52, 13)
    return {k: v / tot for k, v in dist.items()}


def test_hand_class_distribution_exact():
    n = 200_000
    run = engine.Run("boomke_wies.classes", B.make_params(7, B.BoomkeRules(), B.parse_seats("default")), n, 1 << 16)
    counts = engine.execute(run, progress=False).counts
    res = B.decode_classes(counts, n)
    exact = _longest_suit_exact()
    for r in res["by_longest"].itertuples():
        p = exact[r.longest_suit]
        assert abs(r.n / n - p) < _tol(p, n), (r.longest_suit, r.n / n, p)
    assert sum(res["by_longest"].n) == n
    # the mean of a hand's high-card points is exactly 10 (40 points shared by 4 hands)
    hcp = np.asarray(counts).reshape(10, 38, 14).sum(axis=(0, 2))
    mean = (hcp * np.arange(38)).sum() / n
    sd = math.sqrt((hcp * (np.arange(38) - mean) ** 2).sum() / n)
    assert abs(mean - 10) < 5 * sd / math.sqrt(n)


# ---------------------------------------------------------------------------
# the trace is the batch kernel's window; threads and blocks change nothing
# ---------------------------------------------------------------------------
def _agg_from_trace(hands):
    A = np.zeros((K.N_CC, 4, 14), np.int64)
    pts = np.zeros(4, np.int64)
    for d in hands:
        c = d["contract"]
        cc = 7 if c == "meetje" else c - 7
        pos = (d["bidder"] - d["dealer"] - 1) % 4
        A[cc, pos, d["team_tricks"][d["bidder"] % 2]] += 1
        for s in range(4):
            pts[(s - d["dealer"] - 1) % 4] += d["score_delta"][s]
    return A, pts


@pytest.mark.parametrize("rules", [{}, {"shuffle": "none_collect_tricks"}])
def test_trace_is_the_batch_kernel(rules):
    r = B.BoomkeRules(**rules)
    params = B.make_params(4, r, B.parse_seats("default"))
    agg = B.block_deals(params, 100, 1000)
    A, pts = _agg_from_trace(trace(4, 1000, rules, "default", first=100))
    assert np.array_equal(agg[:K.AGG_A].reshape(K.N_CC, 4, 14), A)
    assert np.array_equal(agg[K.OFF_C:K.OFF_C + 4], pts)


@pytest.mark.slow   # left out of the fast tier
def test_thread_and_block_invariance():
    params = B.make_params(9, B.BoomkeRules(), B.parse_seats("random"))
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = B.block_deals(params, 0, 40_000)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = B.block_deals(params, 0, 40_000)
    finally:
        numba.set_num_threads(old)
    assert np.array_equal(one, two)
    runs = [engine.execute(engine.Run("boomke_wies.deals", params, 40_000, bs), progress=False).counts
            for bs in (1 << 12, 15_000, 40_000)]
    assert all(np.array_equal(runs[0], x) for x in runs[1:]) and np.array_equal(runs[0], one)
    p2 = B.make_params(9, B.BoomkeRules(), B.parse_seats("default"), hand_mask=1 << 12 | 0xFFF0000, positions=[0, 3])
    a = engine.execute(engine.Run("boomke_wies.odds", p2, 6000, 1000), progress=False).counts
    b = engine.execute(engine.Run("boomke_wies.odds", p2, 6000, 6000), progress=False).counts
    assert np.array_equal(a, b)


# ---------------------------------------------------------------------------
# matches (rule 12)
# ---------------------------------------------------------------------------
MATCH_CASES = [
    ({}, "default"),
    ({"match_deals": 3}, "random"),
    ({"target_score": 6}, "default"),
    ({"shuffle": "none_collect_tricks", "match_deals": 6}, "random"),
    ({"variant": "no_auction", "match_deals": 4, "tiebreak_extra_deal": False}, "default"),
    ({"variant": "no_auction", "shuffle": "none_collect_tricks", "match_deals": 5}, "random"),
]


@pytest.mark.parametrize("rules,heuristic", MATCH_CASES)
def test_matches_against_referee(rules, heuristic):
    r = B.BoomkeRules(**rules)
    specs = B.parse_seats(heuristic)
    params = B.make_params(13, r, specs)
    kd, kc, ra, codes, prm = B.GAME.kernel_args(params)
    tot = np.zeros(K.AGG_MATCHES, np.int64)
    extras = 0
    for m in range(40):
        recs, nd, extra, p0, p1 = K.trace_match(kd, kc, m, ra, codes, prm)
        deals = [B.record_to_dict(recs[j], 13, j, r, specs, with_legal=True) for j in range(nd)]
        errs = ref.check_match(deals, 13, m, B.rules_dict(r), extra, [p0, p1])
        assert not errs, (m, errs[:5])
        tot[0] += p0
        tot[1] += p1
        tot[7] += nd
        extras += extra
    agg = B.block_matches(params, 0, 40)
    assert agg[0] == tot[0] and agg[1] == tot[1] and agg[7] == tot[7] and agg[8] == extras


# ---------------------------------------------------------------------------
# odds of one hand, duplicate, bench
# ---------------------------------------------------------------------------
HAND = "AS KS QS JS 9S 7S AH KH 4H AD 3D 5C 2C"


def test_odds_hand_tables_are_consistent():
    res = B.odds_hand(HAND, None, seed=3, hands=3000)
    calls = res["calls"]
    assert set(calls.trump) == {"S", "H", "D", "C"}
    for t, g in calls[calls.call != "Meetje"].groupby("trump"):
        p = list(g.sort_values("call", key=lambda c: c.map(lambda x: 13 if x == "Boom" else int(x))).p_make)
        assert all(a >= b for a, b in zip(p, p[1:]))                     # harder bids succeed less often
        assert (g.ci_low <= g.p_make).all() and (g.p_make <= g.ci_high).all() and (g.n == 3000).all()
    # the same deals replayed by odds_tricks (the double-dummy basis) give the same counts
    kd, kc, ra, codes, prm = B.GAME.kernel_args(B.make_params(3, B.BoomkeRules(), B.parse_seats("default")))
    hs, tk = K.odds_tricks(kd, kc, 0, 3000, np.uint64(B.mask_of(B.parse_hand(HAND))), ra, codes, prm)
    for s in range(4):
        want = np.bincount(tk[:, s], minlength=14)
        assert np.array_equal(res["counts"][s * 14:(s + 1) * 14], want)
    sp = res["tricks"].set_index("trump").loc["S"]
    assert sp.mean_tricks > res["tricks"].set_index("trump").loc["C"].mean_tricks   # six spades beat two clubs
    assert res["open_suit"] == "S" and res["best_trump"] == "S"
    assert len(res["positions"]) == 4 and len(res["best"]) == 4
    text = B.render_odds(res)
    assert "Best call per position" in text
    # trick counts are never negative: no plus sign on them
    lines = text.splitlines()
    head = next(i for i, x in enumerate(lines) if "E[team tricks]" in x)
    rows = [x.split() for x in lines[head + 1:head + 5]]
    assert [r[0] for r in rows] == ["S", "H", "D", "C"] and not any(r[1].startswith("+") for r in rows)


def test_duplicate_symmetry_and_layout():
    same = f"partner:margin={B.REGISTRY['partner'].params['margin'].default}"     # partner itself, another label
    specs = [B.parse_heuristic(x, B.REGISTRY, B.ALIASES) for x in ("partner", same, "random")]
    params = {"seed": 1, "rules": B.rules_dict(B.BoomkeRules()),
              "entrants": [[s.name, dict(s.values), s.label] for s in specs]}
    v = B.block_duplicate(params, 0, 500)
    k = 3
    W = k + 2 * k * k
    assert len(v) == len(B.GAME.duplicate.metrics) * W
    S = v[:k]
    Q = v[k:k + k * k].reshape(k, k)
    assert S[0] == S[1] and Q[0, 0] == Q[1, 1]
    assert S[0] > S[2]                                   # the heuristic beats random play
    assert np.array_equal(Q, Q.T)
    T = v[W:W + k]
    # every pairing: 2 x 13 team tricks per deal, fewer only when a Boom stopped early
    assert 0.8 * 500 * 26 * k * (k - 1) < T.sum() <= 500 * 26 * k * (k - 1)
    from tricksim.analysis import compare
    assert list(compare.appearances(B.GAME, 3)) == [8.0, 8.0, 8.0]


def test_bench_cases_play_deals():
    cases = B.bench_cases(0)
    assert [lab.split(",")[1].split()[2] for lab, _ in cases] == ["partner", "naive", "random"]
    assert all(fn(0, 2000) == 2000 for _, fn in cases)


# ---------------------------------------------------------------------------
# the double-dummy bound (optional extra)
# ---------------------------------------------------------------------------
def test_double_dummy_solver():
    pytest.importorskip("endplay")
    from tricksim.kernels.cards import mask_of as mo

    def hand(cards):
        return mo([B.parse_cards(c, 1)[0] for c in cards.split()])
    spades = "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"
    hearts, diamonds, clubs = (" ".join(r + s for r in "23456789TJQKA") for s in "HDC")
    hands = [hand(spades), hand(hearts), hand(diamonds), hand(clubs)]
    assert B.dd_solve([(hands, 0, 0, 0)]) == [13]
    # East leads: with spades trumps North ruffs everything
    assert B.dd_solve([(hands, 1, 0, -1)]) == [0]
    # the forced opening suit matters: North holds the top hearts and a small trump;
    # opening the trump suit loses the lead for good
    n = hand("AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2S")
    e = hand("AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2H")
    rest = [c for c in B.parse_cards(" ".join(r + s for s in "DC" for r in "23456789TJQKA"), 26)]
    s_, w = mo(rest[:13]), mo(rest[13:])
    both = [n, e, s_, w]
    free, forced = B.dd_solve([(both, 0, 1, -1), (both, 0, 0, 0)])
    assert forced < free


def test_double_dummy_bound_on_a_hand():
    pytest.importorskip("endplay")
    res = B.dd_hand(HAND, seed=3, deals=12)
    t = res["table"]
    assert set(t.trump) == {"S", "H", "D", "C"} and (t.n == 12).all()
    # the heuristic column is the odds study's result on the same deals
    kd, kc, ra, codes, prm = B.GAME.kernel_args(B.make_params(3, B.BoomkeRules(), B.parse_seats("default")))
    _, tk = K.odds_tricks(kd, kc, 0, 12, np.uint64(B.mask_of(B.parse_hand(HAND))), ra, codes, prm)
    for s, su in enumerate("SHDC"):
        row = t[(t.trump == su) & (t.bid == "7")].iloc[0]
        assert row.p_heuristic == pytest.approx((tk[:, s] >= 7).mean())
    assert res["joint"].sum() == 48


def test_double_dummy_missing_extra_is_one_line(monkeypatch, capsys):
    import builtins
    from tricksim import cli
    real = builtins.__import__

    def fake(name, *a, **kw):
        if name.startswith("endplay"):
            raise ImportError(name)
        return real(name, *a, **kw)
    monkeypatch.setattr(builtins, "__import__", fake)
    with pytest.raises(SystemExit) as e:
        cli.main(["odds", "boomke-wies", "--hand", HAND, "--double-dummy", "--hands", "100", "-q"])
    assert e.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "dd" in err and "endplay" in err


# ---------------------------------------------------------------------------
# bad input through the CLI: one line on stderr, exit code 2
# ---------------------------------------------------------------------------
BAD = [
    (["odds", "boomke-wies", "--hand", HAND + " 3C"], "13 cards"),
    (["odds", "boomke-wies", "--hand", "AS KS QS JS 9S 7S AH KH 4H AD 3D 5C"], "13 cards"),
    (["odds", "boomke-wies", "--hand", "AS AS QS JS 9S 7S AH KH 4H AD 3D 5C 2C"], "duplicate"),
    (["odds", "boomke-wies", "--hand", "AS KS QS JS 9S 7S AH KH 4H AD 3D 5C 1C"], "malformed"),
    (["odds", "boomke-wies", "--hand", HAND, "--seat", "4"], "--seat"),
    (["odds", "boomke-wies", "--hand", HAND, "--trump", "NT"], "trump"),
    (["odds", "boomke-wies", "--hand", HAND, "--exact"], "--exact"),
    (["odds", "boomke-wies", "--hand", HAND, "--up-card", "AS"], "--up-card"),
    (["odds", "boomke-wies", "--hand", HAND, "--hands", "0"], "--hands"),
    (["odds", "boomke-wies", "--dd-deals", "10"], "--double-dummy"),
    (["odds", "boomke-wies", "--rule", "meetje_trump=dealer_guesses"], "meetje_trump"),
    (["odds", "boomke-wies", "--rule", "boomke-wies.match_deals=0"], "match_deals"),
    (["odds", "boomke-wies", "--rule", "no_such_rule=1"], "unknown rule"),
    (["odds", "boomke-wies", "-H", "partner:bogus=1"], "unknown parameter"),
    (["odds", "boomke-wies", "-H", "partner:margin=9"], "out of range"),
    (["odds", "boomke-wies", "-H", "psychic"], "unknown heuristic"),
    (["trace", "boomke-wies", "--players", "5"], "--players"),
    (["trace", "boomke-wies", "--hands", "0"], "--hands"),
    (["odds", "boomke-wies", "--hand", HAND, "--rule", "variant=no_auction"], "no-auction"),
]


@pytest.mark.parametrize("argv,needle", BAD)
def test_cli_bad_input(argv, needle, capsys):
    from tricksim import cli
    with pytest.raises(SystemExit) as e:
        cli.main(argv + ["-q"] if argv[0] == "odds" else argv)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("tricksim: error:") and needle in err, err


def test_unknown_call():
    with pytest.raises(TricksimError, match="unknown call"):
        B.parse_call("14")
    with pytest.raises(TricksimError, match="unknown call"):
        B.parse_call("grand slam")
    assert [B.parse_call(x) for x in ("7", "boom", "Meetje", "13")] == [7, K.BOOM, K.MEETJE, 13]
    with pytest.raises(TricksimError, match="unknown call"):
        B.odds_hand(HAND, 0, hands=10, calls=["6"])


def test_cli_trace_lines(capsys):
    import json
    from tricksim import cli
    cli.main(["trace", "boomke-wies", "--hands", "3", "--seed", "2"])
    lines = capsys.readouterr().out.strip().split("\n")
    assert len(lines) == 3
    d = json.loads(lines[1])
    for key in ("game", "seed", "hand_index", "rules", "heuristics", "dealer", "deal", "teams", "bids", "bidder",
                "contract", "trump", "tricks", "tricks_won", "team_tricks", "made", "score_delta", "hands"):
        assert key in d
    assert d["game"] == "boomke_wies" and d["hand_index"] == 1 and not ref.check_hand(d)


# ---------------------------------------------------------------------------
# the headline report (tricksim report --quick)
# ---------------------------------------------------------------------------
@pytest.mark.slow   # left out of the fast tier: 10-40 s (the fast tier keeps the tests of its parts)
def test_headline_quick(tmp_path):
    sec = B.headline(tmp_path, quick=True, progress=False)
    md = sec.text
    assert sec.answers and all(q.endswith("?") for q, _ in sec.answers)
    d = tmp_path / "boomke_wies"
    for f in ("contracts.csv", "contracts.png", "classes.png", "classes_by_longest.csv", "hand_calls.csv",
              "hand_tricks.png"):
        assert (d / f).exists(), f
    assert "tricksim odds boomke-wies" in md and "](boomke_wies/contracts.png)" in md
    try:
        import endplay  # noqa: F401
        assert (d / "double_dummy_by_bid.csv").exists() and "double dummy" in md
    except ImportError:
        assert "Skipped" in md
