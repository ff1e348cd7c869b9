"""Bourre's expected-value player ``ev`` (issue 15 item 1): it obeys the rules (the referee replays
ev sessions, with every rule flag that changes its arithmetic), chips are conserved, its table's
fictitious play converges on a small table and is deterministic, the cache is used on a second
call and keyed by what makes the table, and the CLI runs it (pot, sweep, compare, odds)."""
import numpy as np
import pytest

import ref_bourre as ref
from tricksim import cli
from tricksim.analysis import bourre as B
from tricksim.analysis.bourre import ev
from tricksim.analysis.engine import RunOptions
from tricksim.kernels import bourre as K

SEED = 11
EV = "ev:train_sessions=300,train_deals=30"          # a small training budget: tables in about a second
# The rules' and the chips' tests replay ev's decisions, whatever its table holds: a table of two fictitious-play
# iterations (fitted to basic's play, then to ev's own once) has the same kernels, cells and decisions to check as a
# converged one (up to 13 iterations) at a sixth of the training.
EVR = EV + ",max_iter=1"


@pytest.fixture(autouse=True)
def _cache(tmp_path_factory, monkeypatch):
    """Every test trains into (and reads) a cache of this test session, never the user's."""
    monkeypatch.setenv("TRICKSIM_CACHE", str(tmp_path_factory.getbasetemp() / "ev-cache"))


def _spec(players, text=EV):
    return B.parse_seats(text, players)[0]


# ---------------------------------------------------------------------------
# the decision
# ---------------------------------------------------------------------------
def test_ev_gain_arithmetic():
    r = B.rules_array(B.BourreRules())
    # pot 7: win 0.5 x 7 + tie 0.1 x (the ante a tie saves, 1) - bourre 0.2 x (7 - the ante it replaces)
    assert K.ev_gain(0.5, 0.1, 0.2, 7, 1, r) == pytest.approx(0.5 * 7 + 0.1 * 1 - 0.2 * 6)
    r = B.rules_array(B.BourreRules(pot_limit=20, bourre_penalty="fixed:2", tie="divide_equally"))
    assert K.ev_gain(0.5, 0.1, 0.2, 50, 1, r) == pytest.approx(0.5 * 20 + 0.1 * 10 - 0.2 * (2 - 1))
    r = B.rules_array(B.BourreRules(double_ante=True))
    assert K.ev_gain(0.5, 0.0, 0.2, 10, 1, r) == pytest.approx(0.5 * 11 - 0.2 * 9 - 1)


def _mask(*cards):
    m = 0
    for c in cards:
        m |= 1 << (16 * "SHDC".index(c[1]) + "23456789TJQKA".index(c[0]))
    return np.uint64(m)


def test_ev_cell_layout():
    # kept class 5; 1 declared; position 0 of 7 (first half); pot 7 of antes 7 -> bucket 0
    assert K.ev_cell(5, 0, 7, 1, 7, 7) == ((5 * K.EV_NNP + 1) * K.EV_NPOS + 0) * K.EV_NPOT + 0
    # the dealer, 5 declared (3+), pot 60 of 7 (8+)
    assert K.ev_cell(K.EV_NKC - 1, 6, 7, 5, 60, 7) == (((K.EV_NKC - 1) * K.EV_NNP + 3) * K.EV_NPOS + 2) * \
        K.EV_NPOT + 3
    assert K.ev_cell(0, 4, 7, 0, 27, 7) == ((0 * K.EV_NNP + 0) * K.EV_NPOS + 1) * K.EV_NPOT + 1
    # the kept cards' class (trumps spades = suit 0): 2 trumps (top Q), 1 side ace, 1 side king, 1 other
    kc = K.ev_kept_class(_mask("QS", "3S", "AH", "KD", "7C"), 0, False)
    assert kc == (((2 * K.EV_NTT + 3) * K.EV_NA + 1) * K.EV_NK + 1) * K.EV_NO + 1
    assert K.ev_kept_class(np.uint64(0), 0, False) == 0
    # Lo-No: 2-3s count as aces, 4-5s as kings, no trumps
    assert K.ev_kept_class(_mask("2S", "3H", "5D", "9C"), -1, True) == ((0 * K.EV_NA + 2) * K.EV_NK + 1) * K.EV_NO + 1


def test_ev_discard_keeps_the_strongest():
    h = _mask("QS", "3S", "AH", "KD", "7C")          # trumps spades
    order = [K.ev_discard(h, 0, 0, False, False, d) for d in range(6)]
    assert [int(np.uint64(o)).bit_count() for o in order] == [0, 1, 2, 3, 4, 5]
    assert order[1] == _mask("7C") and order[2] == _mask("7C", "KD") and order[3] == _mask("7C", "KD", "AH")
    assert order[4] == _mask("7C", "KD", "AH", "3S")
    # basic's discard (keep trumps and aces) is the d = 2 of that order
    assert K.choose_discard(K.H_BASIC, _basic_row(), 0, h, 0, 0, False, False, 5, np.zeros(1, np.uint64)) == order[2]
    # the Lo-No dealer never throws the up-card (the 3 of hearts)
    up = 16 * 1 + 1
    lo = _mask("3H", "2S", "9D", "KC", "5C")
    assert K.ev_discard(lo, -1, up, True, True, 2) == _mask("KC", "9D")
    assert K.ev_discard(lo, -1, up, True, True, 5) == _mask("KC", "9D", "5C", "2S")


def _basic_row():
    _, prm = B.heuristic_arrays(B.parse_seats("basic", 1))
    return prm


def _table_row(cells, draw=1.0, z=0.0):
    """An ev seat's parameter row (N_PARAMS) and its ev tables (one row, EV_LEN) with data in ``cells`` only:
    {cell: (p_win, p_tie, p_bourre, n)}."""
    spec = _spec(7, "ev:draw=%g,draw_z=%g" % (draw, z))
    _, row = B.heuristic_arrays([spec])
    assert row.shape == (1, K.N_PARAMS)          # parameters only: the table is its own argument
    evt = np.zeros((1, K.EV_LEN))
    t = evt[0].reshape(K.EV_CELLS, K.EV_W)
    t[:, 0] = -1.0
    for c, v in cells.items():
        t[c] = v
    return row, evt


def test_ev_draws_the_count_of_the_highest_expected_chips():
    """A constructed table: of the draws 0..5 of a hand, the one whose class has the highest
    expected chips (``ev_gain`` at this pot) is chosen, and play follows its sign."""
    r = B.rules_array(B.BourreRules())
    h = _mask("QS", "3S", "AH", "KD", "7C")
    pot, ta, pos, k, nb = 21, 7, 2, 7, 1
    cell = [K.ev_cell(K.ev_kept_class(h & ~np.uint64(K.ev_discard(h, 0, 0, False, False, d)), 0, False), pos, k, nb, pot, ta)
            for d in range(6)]
    assert len(set(cell)) == 6
    probs = {0: (0.20, 0.0, 0.30, 1e9), 1: (0.25, 0.02, 0.25, 1e9), 2: (0.22, 0.0, 0.28, 1e9),
             3: (0.30, 0.05, 0.20, 1e9), 4: (0.10, 0.0, 0.40, 1e9), 5: (0.05, 0.0, 0.5, 1e9)}
    row, evt = _table_row({cell[d]: v for d, v in probs.items()})
    gains = {d: K.ev_gain(v[0], v[1], v[2], pot, 1, r) for d, v in probs.items()}
    best = max(gains, key=gains.get)
    bdisc = np.uint64(K.choose_discard(K.H_EV, row, 0, h, 0, 0, False, False, 5, np.zeros(1, np.uint64)))
    g, disc, c = K.ev_best(row, 0, evt, 0, h, 0, 0, False, False, 5, pos, k, nb, pot, ta, 1, bdisc, r)
    assert best == 3 and c == cell[3] and disc == K.ev_discard(h, 0, 0, False, False, 3)
    assert g == pytest.approx(gains[3]) and all(g >= x for x in gains.values())
    play, d2 = K.decide(K.H_EV, row, 0, evt, 0, h, 0, 0, False, False, 5, np.uint64(0), pos, k, nb, pot, ta, 1, r,
                        np.zeros(1, np.uint64))
    assert play and d2 == disc
    # the rules' limit: max 2 discards -> the best of d = 0..2 (d = 1 here)
    g2, disc2, _ = K.ev_best(row, 0, evt, 0, h, 0, 0, False, False, 2, pos, k, nb, pot, ta, 1,
                             np.uint64(bdisc) & ~_mask("AH"), r)
    assert int(np.uint64(disc2)).bit_count() == max(range(3), key=gains.get) == 1
    # all negative: pass (the best draw is still the one it would make if forced to play)
    neg, nevt = _table_row({cell[d]: (0.0, 0.0, 0.9, 1e9) for d in range(6)})
    play, _ = K.decide(K.H_EV, neg, 0, nevt, 0, h, 0, 0, False, False, 5, np.uint64(0), pos, k, nb, pot, ta, 1, r,
                       np.zeros(1, np.uint64))
    assert not play
    # draw = 0: only basic's discard (d = 2) is weighed, although d = 3 is better
    row0, evt0 = _table_row({cell[d]: v for d, v in probs.items()}, draw=0.0)
    g0, disc0, _ = K.ev_best(row0, 0, evt0, 0, h, 0, 0, False, False, 5, pos, k, nb, pot, ta, 1, bdisc, r)
    assert disc0 == bdisc == K.ev_discard(h, 0, 0, False, False, 2) and g0 == pytest.approx(gains[2])
    # draw_z: with 20 samples d = 3's lead over basic's d = 2 is within one standard error, so the
    # next best (d = 1, well estimated) is drawn; with z = 0 d = 3 again
    few = dict(probs)
    few[3] = (0.30, 0.05, 0.20, 20.0)
    for z, d in ((1.0, 1), (0.0, 3)):
        rowz, evtz = _table_row({cell[d]: v for d, v in few.items()}, z=z)
        _, discz, _ = K.ev_best(rowz, 0, evtz, 0, h, 0, 0, False, False, 5, pos, k, nb, pot, ta, 1, bdisc, r)
        assert discz == K.ev_discard(h, 0, 0, False, False, d)


def test_empty_table_is_basic():
    """Iteration 0 of the fictitious play: ev with no data decides as basic, deal for deal."""
    players = 5
    spec = _spec(players)
    codes, prm = B.heuristic_arrays([spec] * players)
    evt = np.full((players, K.EV_LEN), -1.0)
    bc, bp = B.heuristic_arrays(B.parse_seats("basic", players))
    kd, kc = B.GAME.keys(SEED)
    ra = B.rules_array(B.BourreRules())
    a, _ = K.trace_sessions(kd, kc, 0, 20, players, 20, ra, codes, prm, evt)
    b, _ = K.trace_sessions(kd, kc, 0, 20, players, 20, ra, bc, bp, np.zeros((0, K.EV_LEN)))
    assert np.array_equal(a, b)


# ---------------------------------------------------------------------------
# the rules: the referee replays ev sessions
# ---------------------------------------------------------------------------
def _referee(players, sessions, deals, ev=EV, **flags):
    rules = B.BourreRules(**flags)
    tr = B.trace(SEED, players, sessions, deals, rules, [ev], with_legal=True)
    by = {}
    for d in tr:
        by.setdefault(d["session"], []).append(d)
    R = B.rules_dict(rules)
    return tr, [e for ds in by.values() for e in ref.check_session(ds, SEED, R)]


# Tables of 4 and 7 are EV's own (the commands' tests below read them too); those of 3 and 8, read by no other test,
# are EVR's: the same kernels and decisions for the referee at a third of the training (see EVR above).
@pytest.mark.parametrize("players, spec", [(3, EVR), (4, EV), (7, EV), (8, EVR)])
def test_referee_ev_default_rules(players, spec):
    tr, errs = _referee(players, 6, 30, spec)
    assert len(tr) == 180 and errs == []
    assert any(d["outcome"] == "winner" for d in tr)


@pytest.mark.parametrize("flags", [{"double_ante": True}, {"pot_limit": 12}, {"bourre_penalty": "fixed:2"},
                                   {"tie": "divide_equally"}, {"tie": "tied_only_next_hand"},
                                   {"declare_then_draw": True}, {"trump_card": "separate_turnup"},
                                   {"lo_no": True}, {"all_pass": "carry_over"}, {"dealer_sets_ante": True},
                                   {"max_discard": 3, "cinch_rule": "hoyle_lead_highest_with_akq"}],
                         ids=lambda f: ",".join(f"{k}={v}" for k, v in f.items()))
def test_referee_ev_every_rule_it_weighs(flags):
    tr, errs = _referee(5, 4, 25, EVR, **flags)
    assert errs == []


EVD = EV + ",draw=1"
EVDR = EVR + ",draw=1"


@pytest.mark.parametrize("players,flags", [(7, {}), (8, {"max_discard_7plus": 3}), (5, {"max_discard": 4}),
                                           (5, {"lo_no": True}), (5, {"declare_then_draw": True}),
                                           (5, {"trump_card": "separate_turnup"}), (7, {"all_pass": "carry_over"}),
                                           (4, {"reshuffle": "wp_folded_first_then_discards"})],
                         ids=lambda x: str(x) if isinstance(x, int) else ",".join(f"{k}={v}" for k, v in x.items()))
def test_referee_ev_draw(players, flags):
    """ev choosing its draw count by expected chips: the referee replays every discard and draw
    (limits, the Lo-No up-card, the reshuffle), and ev does draw counts basic would not."""
    rules = B.BourreRules(**flags)
    tr = B.trace(SEED, players, 5, 30, rules, [EVDR], with_legal=True)
    tb = B.trace(SEED, players, 5, 30, rules, ["basic"])
    by = {}
    for d in tr:
        by.setdefault(d["session"], []).append(d)
    R = B.rules_dict(rules)
    assert [e for ds in by.values() for e in ref.check_session(ds, SEED, R)] == []
    lim = min(R["max_discard"], R["max_discard_7plus"] if players >= 7 and R["max_discard_7plus"] is not None else 9)
    assert all(len(x["discard"]) <= lim for d in tr for x in d["decisions"])
    # some first-deal discards differ from basic's (both see the same first deal)
    first = [(x["discard"], y["discard"]) for d, e in zip(tr, tb) if d["deal_in_session"] == 0
             for x, y in zip(d["decisions"], e["decisions"]) if x["play"] and y["play"]]
    assert first and any(a != b for a, b in first)


def test_ev_decides_differently_from_basic():
    """The table is used: over a few hundred decisions, ev and basic differ somewhere."""
    players = 7
    tr_ev = B.trace(SEED, players, 4, 30, B.BourreRules(), [EV])
    tr_b = B.trace(SEED, players, 4, 30, B.BourreRules(), ["basic"])
    ev_dec = [x["play"] for d in tr_ev[:1] for x in d["decisions"]]
    b_dec = [x["play"] for d in tr_b[:1] for x in d["decisions"]]
    assert len(ev_dec) == len(b_dec) == players
    rate_ev = np.mean([x["play"] for d in tr_ev for x in d["decisions"]])
    rate_b = np.mean([x["play"] for d in tr_b for x in d["decisions"]])
    assert rate_ev != rate_b


# ---------------------------------------------------------------------------
# chips
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("flags", [{}, {"double_ante": True, "pot_limit": 30}, {"tie": "divide_equally"},
                                   {"bourre_penalty": "fixed:2", "tie": "tied_only_next_hand"}],
                         ids=lambda f: ",".join(f"{k}={v}" for k, v in f.items()) or "defaults")
def test_chips_conserved_under_ev(flags):
    res = B.pot_study(6, 40, 1000, SEED, B.BourreRules(**flags), [EVR])
    assert res["sessions"] == 1000 and res["overflowed"] == 0 and res["violations"] == 0
    assert res["deals_played"] == 1000 * 40


def test_chips_conserved_under_ev_draw():
    res = B.pot_study(7, 40, 600, SEED, B.BourreRules(), [EVDR])
    assert res["sessions"] == 600 and res["overflowed"] == 0 and res["violations"] == 0


def test_ev_draw_table_is_the_same_on_any_thread_count(tmp_path, monkeypatch):
    """Every iteration is one training kernel run fed the table before it: two iterations (the first fitted to
    basic's play, the second to ev's own with the first's table carried over, as every later one is) compare the
    same kernel and its carried-over table on 1 and all threads."""
    import numba
    spec = _spec(5, EVD + ",max_iter=1")
    old = numba.get_num_threads()
    tabs = []
    try:
        for th in (1, old):
            ev._MEMORY.clear()
            monkeypatch.setenv("TRICKSIM_CACHE", str(tmp_path / str(th)))
            numba.set_num_threads(th)
            tabs.append(ev.ev_table(B.BourreRules(), 5, spec))
    finally:
        numba.set_num_threads(old)
    assert tabs[0].source == tabs[1].source == "computed" and len(tabs[0].history) == 2   # both iterations ran
    assert np.array_equal(tabs[0].table, tabs[1].table) and np.array_equal(tabs[0].counts, tabs[1].counts)


def test_ev_beside_other_heuristics_in_one_table():
    """Mixed seats: only the ev rows carry a table; chips still conserved."""
    res = B.pot_study(4, 30, 400, SEED, B.BourreRules(), [EV, "basic", "random", EV])
    assert res["violations"] == 0 and res["sessions"] == 400


# ---------------------------------------------------------------------------
# the fictitious play and its cache
# ---------------------------------------------------------------------------
def test_iteration_converges_and_is_deterministic(tmp_path, monkeypatch):
    spec = _spec(4, "ev:train_sessions=500,train_deals=40,max_iter=30,draw=0")   # draw=1: noisier, see docs/methods/ev.md
    rules = B.BourreRules()
    monkeypatch.setenv("TRICKSIM_CACHE", str(tmp_path / "a"))
    hist = []
    gen = ev.prepare(rules, 4, spec)
    try:
        while True:
            hist.append(next(gen))
    except StopIteration as e:
        t1 = e.value
    assert t1.source == "computed" and t1.converged
    assert [h["iteration"] for h in hist] == list(range(len(hist)))
    assert hist[-1]["changed"] < ev.TOL and all(h["changed"] >= ev.TOL for h in hist[1:-1])
    assert t1.path.exists() and t1.path.parent == tmp_path / "a" / "bourre-ev"
    ok = t1.table[0::K.EV_W] >= 0
    assert ok.sum() > 20                                      # classes with data
    p = t1.table.reshape(-1, K.EV_W)[ok][:, :3]
    assert ((p >= 0) & (p <= 1)).all() and (p.sum(axis=1) <= 1 + 1e-12).all()
    # the same again from scratch (another cache, nothing in memory): bit for bit
    ev._MEMORY.clear()
    monkeypatch.setenv("TRICKSIM_CACHE", str(tmp_path / "b"))
    t2 = ev.ev_table(rules, 4, spec)
    assert t2.source == "computed" and np.array_equal(t1.table, t2.table) and t1.history[-1]["changed"] == \
        t2.history[-1]["changed"]


def test_second_call_uses_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TRICKSIM_CACHE", str(tmp_path))
    spec = _spec(4, "ev:train_sessions=200,train_deals=20,train_seed=5,max_iter=2")
    rules = B.BourreRules()
    t1 = ev.ev_table(rules, 4, spec)
    assert t1.source == "computed"

    def boom(*a, **k):
        raise AssertionError("trained again")
    monkeypatch.setattr(K, "sim_ev_train", boom)
    assert ev.ev_table(rules, 4, spec).source == "memory"
    ev._MEMORY.clear()
    t3 = ev.ev_table(rules, 4, spec)
    assert t3.source == "disk" and np.array_equal(t1.table, t3.table)
    assert [h["decisions"] for h in t3.history] == [h["decisions"] for h in t1.history]
    lines = list(ev.prepare_lines([spec], rules, 4))
    assert len(lines) == 1 and "loaded from the cache" in lines[0]
    # the key: rules, table size, ev's parameters, the code
    keys = {ev.table_key(rules, 4, spec), ev.table_key(rules, 5, spec),
            ev.table_key(B.BourreRules(tie="divide_equally"), 4, spec),
            ev.table_key(rules, 4, _spec(4, "ev:train_sessions=200,train_deals=20,train_seed=6,max_iter=2"))}
    assert len(keys) == 4
    # a corrupt file is recomputed, not trusted
    ev._MEMORY.clear()
    t1.path.write_bytes(b"not an npz")
    monkeypatch.undo()
    monkeypatch.setenv("TRICKSIM_CACHE", str(tmp_path))
    assert ev.ev_table(rules, 4, spec).source == "computed"


# ---------------------------------------------------------------------------
# the commands
# ---------------------------------------------------------------------------
def test_cli_pot_ev_and_heuristic_sweep(capsys, tmp_path):
    try:
        cli.main(["pot", "--players", "4", "-H", EV, "--sessions", "60", "--deals", "20", "--out",
                  str(tmp_path / "p"), "--quiet"])
    except SystemExit as e:
        assert e.code in (0, None)
    out = capsys.readouterr().out
    assert "ev table" in out and "Chips conserved" in out
    sw = B.pot_sweep("heuristic", ["basic", EV], 4, 20, 60, SEED, opts=RunOptions(tmp_path / "sw", progress=False))
    assert list(sw["table"].setting) == ["basic", EV]
    assert B.parse_sweep("heuristic") == ("heuristic", ["basic", "tight", "loose", "ev"])


def test_compare_and_odds_with_ev():
    from tricksim.analysis import compare
    res = compare.compare("bourre", [EV, "basic"], hands=2000, seed=SEED, extra={"players": 4})
    assert res["n"] == 2000 and len(res["pairs"]) == 1
    o = B.odds_hand("AH KH 7C 4D 2S", "9H", players=4, seat=1, pot=0, seed=SEED, hands=1000, heuristics=[EV])
    assert (o["choices"].n == 1000).all()


def test_compounding_sentence():
    from tricksim.analysis.bourre.views import compounds, render_pot
    res = B.pot_study(7, 40, 300, SEED, heuristics=[EV])
    c, text = compounds(res)
    assert c is False and text.startswith(f"Under expected-value play ({EV}) the pot does not compound")
    assert render_pot(res).splitlines()[0] == text
    c, text = compounds(B.pot_study(7, 40, 300, SEED, heuristics=["loose:threshold=0.4"]))
    assert c is True and "mean is infinite" in text and "compounds" not in text
    # a fixed penalty never multiplies the pot: only carry-overs count
    c, text = compounds(B.pot_study(7, 40, 300, SEED, B.BourreRules(bourre_penalty="fixed:2"),
                                    heuristics=["loose:threshold=0.4"]))
    assert c is False and "bourre payments and" not in text
