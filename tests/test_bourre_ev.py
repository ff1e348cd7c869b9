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


def test_ev_cell_layout():
    # strength 1.3 -> bucket 5; 1 declared; position 0 of 7 (first half); pot 7 of antes 7 -> bucket 0
    assert K.ev_cell(1.3, 0, 7, 1, 7, 7) == ((5 * K.EV_NNP + 1) * K.EV_NPOS + 0) * K.EV_NPOT + 0
    # the dealer, 5 declared (3+), pot 60 of 7 (8+), strength beyond the last bucket
    assert K.ev_cell(99.0, 6, 7, 5, 60, 7) == (((K.EV_NS - 1) * K.EV_NNP + 3) * K.EV_NPOS + 2) * K.EV_NPOT + 3
    assert K.ev_cell(0.0, 4, 7, 0, 27, 7) == ((0 * K.EV_NNP + 0) * K.EV_NPOS + 1) * K.EV_NPOT + 1


def test_empty_table_is_basic():
    """Iteration 0 of the fictitious play: ev with no data decides as basic, deal for deal."""
    players = 5
    spec = _spec(players)
    codes, prm = B.heuristic_arrays([spec] * players, B.BourreRules(), players)
    prm[:, K.EV_BASE:] = -1.0
    bc, bp = B.heuristic_arrays(B.parse_seats("basic", players))
    kd, kc = B.GAME.keys(SEED)
    ra = B.rules_array(B.BourreRules())
    a, _ = K.trace_sessions(kd, kc, 0, 20, players, 20, ra, codes, prm)
    b, _ = K.trace_sessions(kd, kc, 0, 20, players, 20, ra, bc, bp)
    assert np.array_equal(a, b)


# ---------------------------------------------------------------------------
# the rules: the referee replays ev sessions
# ---------------------------------------------------------------------------
def _referee(players, sessions, deals, **flags):
    rules = B.BourreRules(**flags)
    tr = B.trace(SEED, players, sessions, deals, rules, [EV], with_legal=True)
    by = {}
    for d in tr:
        by.setdefault(d["session"], []).append(d)
    R = B.rules_dict(rules)
    return tr, [e for ds in by.values() for e in ref.check_session(ds, SEED, R)]


@pytest.mark.parametrize("players", [3, 4, 7, 8])
def test_referee_ev_default_rules(players):
    tr, errs = _referee(players, 6, 30)
    assert len(tr) == 180 and errs == []
    assert any(d["outcome"] == "winner" for d in tr)


@pytest.mark.parametrize("flags", [{"double_ante": True}, {"pot_limit": 12}, {"bourre_penalty": "fixed:2"},
                                   {"tie": "divide_equally"}, {"tie": "tied_only_next_hand"},
                                   {"declare_then_draw": True}, {"trump_card": "separate_turnup"},
                                   {"lo_no": True}, {"all_pass": "carry_over"}, {"dealer_sets_ante": True},
                                   {"max_discard": 3, "cinch_rule": "hoyle_lead_highest_with_akq"}],
                         ids=lambda f: ",".join(f"{k}={v}" for k, v in f.items()))
def test_referee_ev_every_rule_it_weighs(flags):
    tr, errs = _referee(5, 4, 25, **flags)
    assert errs == []


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
    res = B.pot_study(6, 40, 1000, SEED, B.BourreRules(**flags), [EV])
    assert res["sessions"] == 1000 and res["overflowed"] == 0 and res["violations"] == 0
    assert res["deals_played"] == 1000 * 40


def test_ev_beside_other_heuristics_in_one_table():
    """Mixed seats: only the ev rows carry a table; chips still conserved."""
    res = B.pot_study(4, 30, 400, SEED, B.BourreRules(), [EV, "basic", "random", EV])
    assert res["violations"] == 0 and res["sessions"] == 400


# ---------------------------------------------------------------------------
# the fictitious play and its cache
# ---------------------------------------------------------------------------
def test_iteration_converges_and_is_deterministic(tmp_path, monkeypatch):
    spec = _spec(4, "ev:train_sessions=500,train_deals=40,max_iter=30")
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
    ok = t1.table[0::3] >= 0
    assert ok.sum() > 20                                      # classes with data
    p = t1.table.reshape(-1, 3)[ok]
    assert ((p >= 0) & (p <= 1)).all() and (p.sum(axis=1) <= 1 + 1e-12).all()
    # the same again from scratch (another cache, nothing in memory): bit for bit
    ev._MEMORY.clear()
    monkeypatch.setenv("TRICKSIM_CACHE", str(tmp_path / "b"))
    t2 = ev.ev_table(rules, 4, spec)
    assert t2.source == "computed" and np.array_equal(t1.table, t2.table) and t1.history[-1]["changed"] == \
        t2.history[-1]["changed"]


def test_second_call_uses_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TRICKSIM_CACHE", str(tmp_path))
    spec = _spec(4, "ev:train_sessions=200,train_deals=20,train_seed=5")
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
            ev.table_key(rules, 4, _spec(4, "ev:train_sessions=200,train_deals=20,train_seed=6"))}
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
    assert c is True and "the pot compounds" in text
    # a fixed penalty never multiplies the pot: only carry-overs count
    c, text = compounds(B.pot_study(7, 40, 300, SEED, B.BourreRules(bourre_penalty="fixed:2"),
                                    heuristics=["loose:threshold=0.4"]))
    assert c is False and "bourre payments and" not in text
