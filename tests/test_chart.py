"""Strategy charts (issue 27, analysis/chart/ and analysis/bourre/chart.py): the hand classes, the close logic,
the files, and the Bourre chart checked against ``odds bourre --hand`` (the same numbers on the same deals, and
the same decision on fresh hands and deals within the intervals)."""
import math

import numpy as np
import pytest

from tricksim.analysis import chart as CH
from tricksim.analysis.bourre import BourreRules, odds_hand
from tricksim.analysis.bourre import chart as BC
from tricksim.analysis.common import parse_card
from tricksim.analysis.engine import RunOptions
from tricksim.analysis.game import Chart, ChartCell, ChartData
from tricksim.analysis.stats import t_crit
from tricksim.cli import main
from tricksim.kernels.cards import card_str

pytestmark = pytest.mark.fast   # the fast tier (scripts/test.sh --fast)

H = 1   # hearts: the trumps of an up-card of hearts


def cards(text):
    return [parse_card(x) for x in text.split()]


# ---- the hand classes ---------------------------------------------------------------------------
@pytest.mark.parametrize("hand, row", [
    ("AH KH 7C 4D 2S", "2 trumps (A), no side A/K"),
    ("AS KD QH 3C 2C", "1 trump (K/Q), 2+ side A/K"),
    ("AS 9D 5H 3C 2C", "1 trump (J or lower), 1 side A/K"),
    ("JH 9D 5S 3C 2C", "1 trump (J or lower), no side A/K"),
    ("AS KS AD 3C 2C", "no trump, 2+ side A/K"),
    ("QS 9D 5S 3C 2C", "no trump, no side A/K"),
    ("TH 9H 2H AS KC", "3 trumps (J or lower), 1+ side A/K"),
    ("QH 9H 2H 4S 3C", "3 trumps (K/Q), no side A/K"),
    ("KH QH 9H 2H AS", "4-5 trumps, no A"),
    ("AH QH 9H 2H 3H", "4-5 trumps, with the A"),
])
def test_a_hand_falls_in_its_class(hand, row):
    assert BC.classify(cards(hand), H) == row
    assert row in BC.ROWS


def test_rows_run_from_no_trump_to_four_trumps_each_once():
    assert len(BC.ROWS) == len(set(BC.ROWS)) == 29
    assert BC.ROWS[0] == "no trump, no side A/K" and BC.ROWS[-1] == "4-5 trumps, with the A"


@pytest.mark.parametrize("holder, up", [(False, 0), (True, 0), (False, 2), (True, 2), (True, 1)])
def test_the_pools_hands_are_deals_of_their_up_card_and_class(holder, up):
    hands, ups, rows = BC.pool(5, holder, up)
    assert (rows >= 0).all()
    for i in range(0, 4000, 7):
        h, u = [int(c) for c in hands[i]], int(ups[i])
        assert len(set(h)) == 5 and all(c % 16 <= 12 and c // 16 < 4 for c in h)
        assert u % 16 in BC.UPS[up][1]
        assert (u in h) == holder                      # the dealer holds the up-card (dealer_fifth), nobody else
        assert BC.ROWS[rows[i]] == BC.classify(h, u // 16)   # the vectorized class is the hand's class


def test_impossible_classes_get_no_hand_and_possible_ones_all_do():
    _, _, rows = BC.pool(0, False, 0)
    assert set(rows) == set(range(len(BC.ROWS)))      # a non-dealer under a low up-card: every class occurs
    _, _, rows = BC.pool(0, True, 2)                   # the dealer with an Ace up holds the trump Ace
    assert {BC.ROWS[r] for r in set(rows)} == {r for r in BC.ROWS if "(A)" in r or "with the A" in r}


def test_a_cells_hands_depend_on_the_seed_and_the_cell_only():
    rules = BourreRules()
    row = "2 trumps (K/Q), 1 side A/K"
    a = BC.cell_hands(3, 4, "first", 1, row, 6, rules)
    b = BC.cell_hands(3, 7, "first", 1, row, 6, rules)
    c = BC.cell_hands(4, 4, "first", 1, row, 6, rules)
    assert [x[0] for x in a] == [x[0] for x in b]     # the same hands at every table size ...
    assert [x[3] for x in a] != [x[3] for x in b]     # ... on their own deals
    assert [x[0] for x in a] != [x[0] for x in c]
    assert all(BC.classify(h, up // 16) == row for h, up, _, _ in a)
    assert [x[2] for x in BC.cell_hands(3, 7, "middle", 1, row, 6, rules)] == [1, 2, 3, 4, 1, 2]
    assert {x[2] for x in BC.cell_hands(3, 7, "dealer", 1, row, 3, rules)} == {6}


# ---- the close logic ------------------------------------------------------------------------------
ACTS = ["pass", "draw 0", "draw 1"]


def test_a_clear_margin_is_not_close_and_its_interval_is_t_over_the_hands():
    v = np.array([[0.0, 0.50, 0.20], [0.0, 0.40, 0.25], [0.0, 0.60, 0.10], [0.0, 0.45, 0.30]])
    s = CH.cell_stats(v, ACTS)
    d = v[:, 1] - v[:, 2]
    half = t_crit(3) * d.std(ddof=1) / 2
    assert s["action"] == "draw 0" and s["runner_up"] == "draw 1" and not s["close"]
    assert s["margin"] == pytest.approx(d.mean()) and s["margin_lo"] == pytest.approx(d.mean() - half)
    assert s["value"] == pytest.approx(0.4875) and s["hands"] == 4
    assert CH.label(s["action"], s["runner_up"], s["close"]) == "draw 0"


def test_margins_that_reach_zero_are_close_and_name_both():
    v = np.array([[0.0, 0.50, 0.45], [0.0, 0.40, 0.47], [0.0, 0.60, 0.52], [0.0, 0.45, 0.50]])
    s = CH.cell_stats(v, ACTS)
    assert s["close"] and s["margin_lo"] <= 0 < s["margin_hi"]
    assert CH.label(s["action"], s["runner_up"], True) == "draw 0 or 1"
    assert CH.label("pass", "draw 0", True) == "pass or draw 0"
    assert CH.label("bid 4 NT", "bid 3 NT", True) == "bid 3 NT or 4 NT"
    assert CH.label("bid 3", "bid 3 NT", True) == "bid 3 or bid 3 NT"


def test_the_margin_is_paired_hand_by_hand():
    # the hands differ a lot, the two actions hardly: unpaired they could not be told apart, paired they can
    base = np.array([-0.8, 0.1, 0.9, -0.3, 0.5])
    v = np.stack([np.zeros(5), base + 0.05, base], axis=1)
    s = CH.cell_stats(v, ACTS)
    assert s["action"] == "draw 0" and not s["close"] and s["margin"] == pytest.approx(0.05)


def test_ties_unavailable_actions_and_too_few_hands():
    v = np.array([[0.0, 0.0, np.nan], [0.0, 0.0, 0.3]])
    s = CH.cell_stats(v, ACTS)
    assert s["action"] == "pass" and s["runner_up"] == "draw 0" and s["close"]   # draw 1 not open to every hand
    one = CH.cell_stats(np.array([[np.nan, 0.2, 0.1]]), ACTS)
    assert one["close"] and math.isnan(one["margin_hi"])                          # one hand: no interval
    only = CH.cell_stats(np.array([[np.nan, 0.2, np.nan], [np.nan, 0.3, np.nan]]), ACTS)
    assert only["action"] == "draw 0" and only["runner_up"] == "" and not only["close"]


# ---- the files, on a chart made up here -------------------------------------------------------------
def _toy(beside=False):
    rng = np.random.default_rng(1)
    cells = []
    for panel in ("4 players", "5 players"):
        for i, row in enumerate(("weak", "strong")):
            for col in ("first | up low", "dealer | up low"):
                v = np.stack([np.zeros(6), rng.normal(0.3 * i - 0.1, 0.2, 6), rng.normal(0.3 * i, 0.2, 6)], axis=1)
                cells.append(ChartCell(panel=panel, row=row, col=col, values=v, deals=100, key={"k": 1},
                                       keep={"draw 1": "x"}, beside=v[:, ::-1].copy() if beside else None))
    return ChartData(title="Toy: what to do", player="nobody", unit="pots", actions=ACTS,
                     panels=["4 players", "5 players"], rows=["weak", "strong"],
                     cols=["first | up low", "dealer | up low"], cells=cells, command="tricksim chart toy",
                     notes=["a note"], beside_name="the other", name="toy")


def test_the_chart_writes_its_table_heatmaps_and_page(tmp_path):
    data = _toy(beside=True)
    df = CH.table(data)
    text, files = CH.write(data, df, tmp_path, CH.sizes_text(df))
    assert [f.name for f in files] == ["toy.csv", "toy-4p.png", "toy-5p.png", "toy.md"]
    assert all(f.stat().st_size > 0 for f in files)
    assert "Regenerate: `tricksim chart toy`" in text and "![Toy: what to do: 4 players](toy-4p.png)" in text
    assert len(df) == 8 and set(df.columns) >= {"action", "runner_up", "close", "margin_lo", "margin_hi", "n",
                                                  "value_lo", "value_hi", "beside_action", "agree",
                                                  "differ_clear"}
    assert (df.n == 600).all() and "8 cells; 6 hands per cell, 100 deals per hand" in CH.sizes_text(df)
    assert f"Close cells ({int(df.close.sum())} of 8)" in text


def test_the_report_section_links_images_relative_to_the_report(tmp_path, monkeypatch):
    data = _toy()

    class Toy:
        name, title = "toy", "Toy"
        rules = staticmethod(lambda: None)
        chart = Chart(measure=lambda **kw: data, sizes=lambda quick, play: (6, 100))
    monkeypatch.setattr(CH, "games", lambda: [Toy])
    sec = CH.chart_section(tmp_path, quick=True, progress=False)
    text = sec.text
    assert [q for q, _ in sec.answers] == ["Toy: when should I pass?", "Toy: how sure is the chart?"]
    assert "![Toy: what to do: 4 players](charts/toy-4p.png)" in text and "Regenerate: `" in text
    assert (tmp_path / "charts" / "toy-5p.png").exists() and (tmp_path / "charts" / "toy.md").exists()
    # a chart's further tables (ChartData.extra: Boulmous's p*) are in the section, the page and the terminal
    import dataclasses
    import pandas as pd
    table = pd.DataFrame({"scores": ["even scores"], "bid": [3], "first": ["29.3% [29.3, 29.3]"]})
    data = dataclasses.replace(data, extra=[("Score thresholds p*", table, ["From even scores, first: bid 3 ..."])])
    text = CH.chart_section(tmp_path, quick=True, progress=False).text
    assert "#### Score thresholds p*" in text and "| even scores | 3 | 29.3% [29.3, 29.3] |" in text
    assert "- From even scores, first: bid 3 ..." in text
    assert "Score thresholds p*" in "\n".join(CH.terminal(data, CH.table(data)))


# ---- the Bourre chart against odds bourre --hand ----------------------------------------------------------
def _odds_values(df) -> dict:
    """The expected chips of each action in an ``odds_hand`` table, by the chart's names."""
    return {"pass" if r.mode == 0 else f"draw {len(r.discard.split())}": r.exp_chips
            for r in df[df["mode"] >= 0].itertuples()}


def _one_cell(seat, up, row, players=4, hands=4, deals=256, seed=11, opts=RunOptions()):
    data = BC.measure(seed=seed, hands=hands, deals=deals, players=[players], only={(seat, up, row)}, opts=opts)
    assert len(data.cells) == 1
    return data, data.cells[0]


@pytest.mark.parametrize("seat, up, row", [("first", "10-K", "2 trumps (A), 1 side A/K"),
                                           ("dealer", "A", "3 trumps (A), no side A/K"),
                                           ("middle", "2-9", "no trump, 1 side A/K")])
def test_a_cells_values_are_the_odds_of_its_hands_on_the_same_deals(seat, up, row):
    data, cell = _one_cell(seat, up, row)
    u = [x for x, _ in BC.UPS].index(up)
    for k, (h, upc, s, hseed) in enumerate(BC.cell_hands(11, 4, seat, u, row, 4, BourreRules())):
        vals = _odds_values(odds_hand(h, upc, players=4, seat=s, seed=hseed, hands=256)["choices"])
        for a, name in enumerate(data.actions):
            if name not in vals:
                assert np.isnan(cell.values[k, a]), (name, "not open to the hand, yet valued")
            else:
                assert cell.values[k, a] == pytest.approx(vals[name] / 4, abs=1e-12), (k, name)
    assert np.isnan(cell.values[:, 0]).all() == (seat == "dealer" and up == "A")   # an Ace up: the dealer plays


def test_a_cell_does_not_depend_on_the_threads():
    one = _one_cell("last", "2-9", "1 trump (K/Q), 1 side A/K", deals=2048, hands=3, opts=RunOptions(threads=1))
    two = _one_cell("last", "2-9", "1 trump (K/Q), 1 side A/K", deals=2048, hands=3, opts=RunOptions(threads=2))
    assert np.array_equal(one[1].values, two[1].values)


def test_rule_variants_reach_the_chart():
    """A turned-up card nobody holds (the dealer may pass under an Ace); a lower discard limit at 7 players (its
    cells lack the draws past it, the other table's keep them)."""
    row = "2 trumps (A), no side A/K"
    sep = BourreRules(trump_card="separate_turnup")
    data = BC.measure(seed=2, hands=3, deals=64, players=[4], rules=sep,
                      only={("dealer", "A", "1 trump (A), no side A/K")})
    assert len(data.cells) == 0                       # nobody holds the Ace turned up: no trump Ace in any hand
    kq = "2 trumps (K/Q), no side A/K"
    data = BC.measure(seed=2, hands=3, deals=64, players=[4], rules=sep, only={("dealer", "A", kq)})
    assert not np.isnan(data.cells[0].values[:, 0]).any()          # pass is open to the dealer
    for cards, up, _, _ in BC.cell_hands(2, 4, "dealer", 2, kq, 3, sep):
        assert up not in cards
    lim = BourreRules(max_discard_7plus=3)
    data = BC.measure(seed=2, hands=3, deals=64, players=[4, 7], rules=lim, only={("first", "10-K", row)})
    four, seven = data.cells
    assert data.actions[-1] == "draw 5" and not np.isnan(four.values).any()
    assert np.isnan(seven.values[:, -2:]).all() and not np.isnan(seven.values[:, :-2]).any()
    assert set(CH.table(data).action) <= set(data.actions)


@pytest.mark.slow   # left out of the fast tier
@pytest.mark.parametrize("seat, up, row", [("first", "2-9", "no trump, no side A/K"),
                                           ("first", "10-K", "1 trump (K/Q), 1 side A/K"),
                                           ("last", "10-K", "2 trumps (A), no side A/K"),
                                           ("dealer", "2-9", "3 trumps (J or lower), 1+ side A/K")])
def test_the_odds_of_fresh_hands_of_a_cell_recommend_its_action_or_it_is_close(seat, up, row):
    """The chart's cell (12 hands, 1,024 deals each) against ``odds bourre --hand`` on 12 other hands of the class
    (another chart seed) and other deals: the action the odds rank first over those hands is the cell's, or the
    cell is close, or the odds cannot tell the cell's action from their own best (their paired 95% interval,
    over the hands, reaches 0)."""
    data, cell = _one_cell(seat, up, row, players=5, hands=12, deals=1024, seed=21)
    s = CH.cell_stats(cell.values, data.actions)
    u = [x for x, _ in BC.UPS].index(up)
    fresh = BC.cell_hands(22, 5, seat, u, row, 12, BourreRules())
    per = []
    for h, upc, st, hseed in fresh:
        vals = _odds_values(odds_hand(h, upc, players=5, seat=st, seed=hseed + 1, hands=2048)["choices"])
        per.append([vals.get(a, np.nan) for a in data.actions])
    per = np.array(per) / 5
    odds = CH.cell_stats(per, data.actions)
    a, b = data.actions.index(s["action"]), data.actions.index(odds["action"])
    d, half = CH.mean_t(per[:, b] - per[:, a])
    print(f"{seat} {up} {row}: chart {CH.label(s['action'], s['runner_up'], s['close'])} "
          f"({s['margin']:+.3f} [{s['margin_lo']:+.3f}, {s['margin_hi']:+.3f}]); odds {odds['action']} "
          f"({d:+.3f} ± {half:.3f} over the chart's); hands {', '.join(' '.join(map(card_str, x[0])) for x in fresh[:2])}")
    assert odds["action"] == s["action"] or s["close"] or d - half <= 0


# ---- the Boulmous chart against odds boulmous --hand --------------------------------------------------------
@pytest.mark.parametrize("hand, row, suit", [
    ("JH JD AH KH 9S TC", "4 trumps, 2 bowers, no side A", "H"),
    ("JD 9D TD AS AC KH", "3 trumps, 1 bower, 2+ side A", "D"),
    ("JS JC AS 9H TD QD", "3 trumps, 2 bowers, no side A", "S"),
    ("JS JC AS TC 9H TD", "3 trumps, 2 bowers, no side A", "S"),      # spades and clubs tie: the higher cards
    ("AH KH QH TH AS AC", "4 trumps, no bower, 2+ side A", "H"),
    ("9S TS 9H TH 9D QC", "2 or fewer trumps, no bower, no side A", "S"),
    ("JH JD AH KH QH TH", "5-6 trumps, 2 bowers, no side A", "H"),
])
def test_a_boulmous_hand_falls_in_its_class(hand, row, suit):
    from tricksim.analysis.boulmous import chart as MC
    from tricksim.analysis.boulmous import parse_hand
    cards = parse_hand(hand)
    assert MC.classify(cards) == row and "SHDC"[MC.long_suit(cards)] == suit and row in MC.ROWS


def test_the_boulmous_pool_classes_its_hands_as_classify_does():
    from tricksim.analysis.boulmous import chart as MC
    hands, rows = MC.pool(9)
    assert len(set(map(tuple, hands[:5000].tolist()))) > 4900 and all(len(set(h)) == 6 for h in hands[:200].tolist())
    assert [MC.ROWS[r] for r in rows[:3000]] == [MC.classify(list(h)) for h in hands[:3000].tolist()]


@pytest.mark.slow   # left out of the fast tier: 10-40 s (the fast tier keeps the tests of its parts)
def test_boulmous_cells_are_the_odds_of_their_hands_on_the_same_deals():
    from tricksim.analysis.boulmous import chart as MC
    from tricksim.analysis.boulmous import odds_hand as bodds
    row = "3 trumps, 1 bower, 1 side A"
    data = MC.measure(seed=5, hands=3, deals=300, only={("second", row), ("dealer", row)})
    assert [c.col for c in data.cells] == ["second", "dealer"] and data.actions[0] == "pass"
    for cell in data.cells:
        hs = MC.cell_hands(5, cell.col, row, 3)
        assert [h[0] for h in hs] == [h[0] for h in MC.cell_hands(5, "first", row, 3)]   # the same hands in every seat
        for k, (cards, seat, hseed) in enumerate(hs):
            assert MC.classify(cards) == row
            res = bodds(cards, seat, seed=hseed, hands=300)
            calls = res["calls"].assign(v=res["calls"].exp_points + res["calls"].exp_stakes)
            suit = "SHDC"[MC.long_suit(cards)]
            p = res["pass"].iloc[0]
            want = [p.exp_points + p.exp_stakes]
            want += [float(calls[(calls.trump == t) & (calls.bid == b)].v.iloc[0]) for t in (suit, "NT")
                     for b in MC.BIDS]
            assert cell.values[k] == pytest.approx(want, abs=1e-12)
            best = max(range(len(want)), key=lambda a: (want[a], -a))
            call = res["best"].best_call.iloc[0]       # odds' own best call is the cell's best action of this hand
            if call != "pass" and call.split()[1] in (suit, "NT"):
                assert data.actions[best] == f"bid {call.split()[0]}" + (" NT" if call.endswith("NT") else "")


@pytest.mark.slow   # left out of the fast tier: needs the Boulmous equity table, built once a session (14 CPU s)
def test_boulmous_score_charts_are_the_game_odds_of_their_hands():
    from tricksim.analysis.boulmous import chart as MC
    from tricksim.analysis.boulmous.equity.decide import odds_scores
    row = "3 trumps, 2 bowers, 1 side A"
    data = MC.measure(seed=5, hands=3, deals=200, only={("third", row)}, scores="need3,opp3")
    assert [c.panel for c in data.cells] == ["I need 3", "the next player needs 3"]
    assert data.value_format == "{:.1%}" and data.name == "boulmous-scores"
    for cell, state, y in zip(data.cells, ("need3", "opp3"), ([0, 0, 18, 0], [0, 0, 0, 18])):
        assert MC.state_scores(state, 2, 21) == y
        for k, (cards, seat, hseed) in enumerate(MC.cell_hands(5, "third", row, 3)):
            p = odds_scores(cards, seat, y, seed=hseed, hands=200)["calls"].set_index("call").p_win_game
            t = "SHDC"[MC.long_suit(cards)]
            want = [p["pass"]] + [p[f"{b} {t}"] for b in MC.BIDS] + [p[f"{b} NT"] for b in MC.BIDS]
            assert cell.values[k] == pytest.approx(want, abs=1e-12)
    assert MC.parse_states("all") == ["even", "need3", "opp3"]
    with pytest.raises(Exception, match="choose among even, need3, opp3"):
        MC.parse_states("even,lead")


@pytest.mark.slow   # left out of the fast tier: needs the Boulmous equity table, built once a session (14 CPU s)
def test_the_score_chart_shows_the_thresholds_p_star():
    from tricksim.analysis.boulmous import chart as MC
    data = MC.measure(seed=5, hands=3, deals=200, only={("third", "3 trumps, 2 bowers, 1 side A")}, scores="need3")
    (head, grid, below), = data.extra
    assert head.startswith("Score thresholds p*") and list(grid.scores) == ["I need 3"] * 4
    assert list(grid.columns) == ["scores", "bid", "first", "second", "third", "dealer"] and list(grid.bid) == [3, 4, 5, 6]
    assert below[0].startswith("From I need 3, first to bid: bid 3 when you make it at least ")
    assert any("W_pass: after passing" in x for x in below)
    page = CH.page(data, CH.table(data), {"I need 3": "x.png"}, "sizes")
    assert "Score thresholds p*" in page and "| I need 3 |" in page


def _pstar_rows(rules, table=None):
    """The chart's p* rows (``PS.thresholds``, one state at a time) of its score states under ``rules``."""
    from tricksim.analysis.boulmous import chart as MC
    from tricksim.analysis.boulmous.equity import pstar as PS
    return PS.thresholds({k: (lambda seat, k=k: MC.state_scores(k, seat, rules.target)) for k in MC.STATES}, rules,
                         table=table)


@pytest.fixture(scope="module")
def pstars():
    from tricksim.analysis.boulmous.config import BoulmousRules
    return _pstar_rows(BoulmousRules())


@pytest.mark.slow   # left out of the fast tier: needs the Boulmous equity table, built once a session (14 CPU s)
def test_p_star_is_a_chance_with_its_interval_from_the_equity_table(pstars):
    df = pstars
    assert len(df) == 3 * 4 * 4 and df.p_star.between(0, 1).all()
    assert ((df.lo <= df.p_star) & (df.p_star <= df.hi)).all() and (df.hi - df.lo < 0.02).all()
    # the definition: at p = p*, bidding (p W_make + (1 - p) W_fail) is worth passing
    assert np.allclose(df.p_star * df.w_make + (1 - df.p_star) * df.w_fail, df.w_pass, atol=1e-12)
    assert (df.w_make > df.w_pass).all() and (df.w_pass > df.w_fail).all()
    # the three sets of deals are the table's deals, split by the seat's contract and tricks
    assert ((df.n_make + df.n_fail + df.n_pass) == 8_000_000).all()
    # needing 3, a made bid wins the game outright: W_make = 1 (a tie at the top aside)
    assert (df[df.state == "need3"].w_make > 0.999).all()
    # a higher bid fails more often with the same tricks, so it needs more: p* rises with the bid needing 3
    need = df[(df.state == "need3") & (df.seat == 0)].p_star.to_numpy()
    assert (np.diff(need) > 0).all()


@pytest.mark.slow   # score-aware bidding's p* of every state of the table to 11: about 9 CPU s without a warm cache
def test_p_star_is_score_aware_biddings_p_star():
    """The chart's p* (one state at a time, ``PS.thresholds``) equals score-aware bidding's (``KE.bid_pstar`` over
    every state of the table) in every row: 3 states x 4 seats x 4 bids.  On the table to 11 (shipped, as the one
    to 21): the same two computations, a grid of 23^4 states to the 21 table's 33^4, so a quarter of the kernel's
    work (about 4 CPU s against 19)."""
    from tricksim.analysis.boulmous.config import BoulmousRules
    from tricksim.analysis.boulmous.equity import saware as SW
    from tricksim.analysis.boulmous.equity import studies as ES
    from tricksim.analysis.boulmous.equity import table as ET
    rules = BoulmousRules(target=11)
    table = ES.boulmous_table(0, ET.DEALS, rules)
    rows = _pstar_rows(rules, table)
    assert len(rows) == 3 * 4 * 4 and rows.p_star.notna().all()
    every = SW.pstar(table, 1)
    for r in rows.itertuples():
        y = [int(x) for x in r.scores.split(",")]
        assert r.p_star == pytest.approx(float(every[table.index(y, 3), r.seat, r.bid - 3]), abs=1e-6)


@pytest.mark.slow   # left out of the fast tier: needs the Boulmous equity table, built once a session (14 CPU s)
@pytest.mark.parametrize("hand, bid_better", [("JH JD AH KH QH TH", True), ("9S TC 9D QC 9H KS", False)])
def test_p_star_agrees_with_the_equity_tables_own_decision(pstars, hand, bid_better):
    """A hand that makes 3 well above p* gains the game by bidding it, one that makes it well below by passing, as
    odds boulmous --hand --scores ranks its calls on its own deals."""
    from tricksim.analysis.boulmous import chart as MC
    from tricksim.analysis.boulmous.config import parse_hand
    from tricksim.analysis.boulmous.equity.decide import odds_scores
    cards = parse_hand(hand)
    t = "SHDC"[MC.long_suit(cards)]
    for state in ("even", "need3"):
        p_star = pstars.set_index(["state", "seat", "bid"]).loc[(state, 0, 3), "p_star"]
        calls = odds_scores(cards, 0, MC.state_scores(state, 0, 21), seed=1, hands=2000)["calls"].set_index("call")
        p_make = calls.loc[f"3 {t}", "p_make"]
        assert (p_make > p_star + 0.2) if bid_better else (p_make < p_star - 0.2)
        assert (calls.loc[f"3 {t}", "p_win_game"] > calls.loc["pass", "p_win_game"]) == bid_better


# ---- the Boomke Wies chart against odds boomke-wies --hand ---------------------------------------------------
@pytest.mark.parametrize("hand, row, suit", [
    ("AS KS QS JS TS 9S 8S AH KH QH AD KD AC", "7+ card suit, 19+ HCP", "S"),
    ("AS KS 4S 3S AH KH 4H 3H 5D 4D 3D 2D 2C", "4-card suit, 13-15 HCP", "S"),   # a tie of length and points
    ("2S 3S 4S 5S 6S 2H 3H 4H 5H 6H AD KD QD", "5-card suit, 0-9 HCP", "S"),
    ("2S 3S 4S 5S 6S KH 3H 4H 5H 6H 2D 3D AC", "5-card suit, 0-9 HCP", "H"),     # a tie of length: more points
])
def test_a_boomke_hand_falls_in_its_class(hand, row, suit):
    from tricksim.analysis.boomke_wies import chart as WC
    from tricksim.analysis.boomke_wies.config import parse_hand
    cards = parse_hand(hand)
    assert WC.classify(cards) == row and "SHDC"[WC.long_suit(cards)] == suit and row in WC.ROWS


def test_boomke_cells_are_the_odds_of_their_hands_for_every_seat():
    from tricksim.analysis.boomke_wies import chart as WC
    from tricksim.analysis.boomke_wies import odds_hand as wodds
    row = "6-card suit, 13-15 HCP"
    data = WC.measure(seed=3, hands=3, deals=200, only={row})
    assert [c.col for c in data.cells] == list(WC.COLS)
    hs = WC.row_hands(3, row, 3)
    for k, (cards, hseed) in enumerate(hs):
        assert WC.classify(cards) == row
        res = wodds(cards, seed=hseed, hands=200)
        suit = "SHDC"[WC.long_suit(cards)]
        calls = res["calls"][res["calls"].trump == suit].set_index("call").exp_net
        for j, col in enumerate(WC.COLS):
            v = dict(zip(data.actions, data.cells[j].values[k]))
            if j < 4:
                assert v["pass"] == pytest.approx(float(res["positions"].pass_net.iloc[j]), abs=1e-12)
            else:
                assert np.isnan(v["pass"]) and np.isnan(v["bid 8"])        # after three passes: 7, Boom, Meetje
            for name, call in [(f"bid {b}", str(b)) for b in range(7, 13)] + [("Boom", "Boom"), ("Meetje", "Meetje")]:
                if np.isnan(v[name]):
                    assert (name == "Meetje" and j < 4) or (j == 4 and name not in ("bid 7", "Boom", "Meetje"))
                else:
                    assert v[name] == pytest.approx(float(calls[call]), abs=1e-12), (col, name)


# ---- bad input: one line, exit code 2 -----------------------------------------------------------------
@pytest.mark.parametrize("args, words", [
    (["--players", "3"], "at least 4 players"),
    (["--players", "4,x"], "table sizes separated by commas"),
    (["--players", "9"], "2 to 8 players"),
    (["--players", "4,4"], "twice"),
    (["--play", "open"], "choose heuristic or pimc"),
    (["--hands", "2"], "--hands"),
    (["--rule", "ante=0"], "ante must be at least 1"),
    (["--deals", "0"], "--deals"),
])
def test_bad_chart_input_is_one_line_and_exit_code_2(args, words, capsys, tmp_path):
    with pytest.raises(SystemExit) as e:
        main(["chart", "bourre", "--quiet", "--out", str(tmp_path / "c"), *args])
    err = capsys.readouterr().err
    assert e.value.code == 2 and err.count("\n") == 1 and err.startswith("tricksim: error:") and words in err


def test_the_boulmous_chart_refuses_too_few_hands_and_an_unknown_player_in_one_line(capsys, tmp_path):
    with pytest.raises(SystemExit) as e:
        main(["chart", "boulmous", "--quiet", "--out", str(tmp_path / "c"), "--hands", "2"])
    assert e.value.code == 2 and "--hands" in capsys.readouterr().err
    from tricksim.analysis.boulmous import chart as MC
    with pytest.raises(Exception, match="choose heuristic or pimc"):
        MC.measure(play="open")


@pytest.mark.parametrize("args, words", [
    (["boulmous", "--scores", "foo"], "--scores: choose among even, need3, opp3"),
    (["boomke-wies", "--rule", "variant=no_auction"], "needs the bidding game"),
    (["skat"], "the games are bourre, boulmous, boomke-wies"),
])
def test_bad_chart_input_of_the_other_games_is_one_line_and_exit_code_2(args, words, capsys, tmp_path):
    with pytest.raises(SystemExit) as e:
        main(["chart", *args, "--quiet", "--out", str(tmp_path / "c")] if args != ["skat"] else ["chart", "skat"])
    err = capsys.readouterr().err
    assert e.value.code == 2 and err.count("\n") == 1 and words in err


# ---- --play pimc: the sampling player's charts of Boulmous and Boomke Wies ----------------------------------
@pytest.mark.slow   # about 20 s (the plain chart's p* table and a pimc odds run per hand)
def test_a_boulmous_pimc_cell_is_the_pimc_odds_of_its_hands_with_the_heuristics_beside():
    """Each bid's value is the pimc column of ``odds boulmous --hand ... --play heuristic,pimc`` on the cell's deals
    (that run's default block, not the chart's); pass and the beside values are the heuristics' chart."""
    from tricksim.analysis.boulmous import chart as MC
    from tricksim.analysis.boulmous import odds_play
    row = "3 trumps, 1 bower, 1 side A"
    data = MC.measure(seed=5, hands=3, deals=16, play="pimc:worlds=8", only={("second", row)})
    plain = MC.measure(seed=5, hands=3, deals=16, only={("second", row)})
    cell, = data.cells
    assert "sampling player (pimc:worlds=8)" in data.player and data.beside_name == "the heuristics (cautious)"
    assert data.command.endswith("--play pimc:worlds=8") and any("--play pimc" in x for x in data.notes)
    assert np.array_equal(cell.beside, plain.cells[0].values)           # the heuristics beside: today's chart
    assert np.array_equal(cell.values[:, 0], cell.beside[:, 0])          # pass: the heuristics' value
    for k, (cards, seat, hseed) in enumerate(MC.cell_hands(5, "second", row, 3)):
        suit = "SHDC"[MC.long_suit(cards)]
        res = odds_play(cards, seat, seed=hseed, hands=16, play="heuristic,pimc:worlds=8", trumps=[suit, "NT"])
        c = res["calls"].assign(v=res["calls"].exp_points + res["calls"].exp_stakes)
        for kind, got in (("pimc", cell.values[k]), ("heuristic", cell.beside[k])):
            want = [float(c[(c.play == kind) & (c.trump == t) & (c.bid == b)].v.iloc[0]) for t in (suit, "NT")
                    for b in MC.BIDS]
            assert got[1:] == pytest.approx(want, abs=1e-12), kind
    assert not np.array_equal(cell.values, cell.beside)                  # the sampling player plays otherwise
    df = CH.table(data)
    assert {"beside_action", "agree", "differ_clear"} <= set(df.columns)


def test_a_boomke_pimc_row_is_the_pimc_odds_of_its_hands_with_the_heuristics_beside():
    from tricksim.analysis.boomke_wies import chart as WC
    from tricksim.analysis.boomke_wies import odds_play
    row = "6-card suit, 13-15 HCP"
    play = "pimc:worlds=16,pimc:bid_worlds=16"
    data = WC.measure(seed=3, hands=3, deals=25, play=play, only={row})
    plain = WC.measure(seed=3, hands=3, deals=25, only={row})
    assert "sampling player (pimc:worlds=16,bid_worlds=16)" in data.player
    assert data.beside_name == "the heuristics (partner)" and data.command.endswith(f"--play {play}")
    for j, cell in enumerate(data.cells):
        assert np.array_equal(cell.beside, plain.cells[j].values, equal_nan=True)
        for a in ("pass", "Meetje"):                                     # the heuristics' values under pimc too
            i = data.actions.index(a)
            assert np.array_equal(cell.values[:, i], cell.beside[:, i], equal_nan=True)
        assert np.array_equal(np.isnan(cell.values), np.isnan(cell.beside))   # the same actions open
    for k, (cards, hseed) in enumerate(WC.row_hands(3, row, 3)):
        suit = "SHDC"[WC.long_suit(cards)]
        res = odds_play(cards, seed=hseed, hands=25, play=f"heuristic,{play}", trumps=[suit])
        c = res["calls"]
        for kind, cell_of in (("pimc", "values"), ("heuristic", "beside")):
            net = c[c.play == kind].set_index("bid").exp_net
            v = dict(zip(data.actions, getattr(data.cells[0], cell_of)[k]))
            for b in range(7, 13):
                assert v[f"bid {b}"] == pytest.approx(float(net[str(b)]), abs=1e-12), (kind, b)
            assert v["Boom"] == pytest.approx(float(net["Boom"]), abs=1e-12)
    assert not np.array_equal(data.cells[0].values, data.cells[0].beside, equal_nan=True)
    for threads in (1, 2):                                               # one seed fixes it, whatever the threads
        again = WC.measure(seed=3, hands=3, deals=25, play=play, only={row}, opts=RunOptions(threads=threads))
        assert all(np.array_equal(a.values, b.values, equal_nan=True) for a, b in zip(again.cells, data.cells))


@pytest.mark.slow   # two whole charts through the command line: about 50 s
@pytest.mark.parametrize("game, who, beside", [
    ("boulmous", "the sampling player (pimc:worlds=4) playing the cards", "the heuristics (cautious) beside it"),
    ("boomke-wies", "the sampling player (pimc:worlds=4", "the heuristics (partner) beside it")])
def test_a_tiny_pimc_chart_runs_says_its_player_and_has_the_heuristics_beside(game, who, beside, capsys, tmp_path):
    import pandas as pd
    main(["chart", game, "--quiet", "--out", str(tmp_path), "--play", "pimc:worlds=4", "--hands", "3", "--deals", "2"])
    out = capsys.readouterr().out
    assert f"Measured with {who}" in out and beside in out and "3 hands per cell, 2 deals per hand" in out
    assert f"Regenerate: tricksim chart {game} --hands 3 --deals 2 --seed 0 --play pimc:worlds=4" in out
    df = pd.read_csv(tmp_path / f"{game}.csv")
    assert df.beside_action.notna().all() and df.agree.dtype == bool and len(df) > 20
    page = (tmp_path / f"{game}.md").read_text()
    assert "Beside it, the heuristics" in page and "on the same deals" in page


BAD_PLAYS = [(g, play, words) for g in ("boulmous", "boomke-wies") for play, words in [
    ("open", "--play: choose heuristic or pimc (pimc:worlds=N ...), got 'open'"),
    ("pimc:worlds=0", "--play 'pimc:worlds=0'"),
    ("pimc:worlds=x", "--play 'pimc:worlds=x'")]]
# a chart is played one way; a sampling player's setting without its ``pimc:`` prefix is refused, not dropped
BAD_PLAYS += [(g, play, words) for g in ("boulmous", "boomke-wies", "bourre") for play, words in [
    ("pimc:worlds=8,bid_worlds=16", "write each setting of the sampling player as pimc:NAME=V, got 'bid_worlds=16'"),
    ("heuristic:worlds=8", "--play: choose heuristic or pimc"),
    ("heuristic,pimc", "--play: choose heuristic or pimc")]]


@pytest.mark.parametrize("game, play, words", BAD_PLAYS)
def test_a_bad_play_of_a_chart_is_one_line_and_exit_code_2(game, play, words, capsys, tmp_path):
    with pytest.raises(SystemExit) as e:
        main(["chart", game, "--quiet", "--out", str(tmp_path / "c"), "--play", play])
    err = capsys.readouterr().err
    assert e.value.code == 2 and err.count("\n") == 1 and err.startswith("tricksim: error:") and words in err


def test_the_score_chart_refuses_the_sampling_player_in_one_line(capsys, tmp_path):
    with pytest.raises(SystemExit) as e:
        main(["chart", "boulmous", "--quiet", "--out", str(tmp_path / "c"), "--scores", "even", "--play", "pimc"])
    err = capsys.readouterr().err
    assert e.value.code == 2 and err.count("\n") == 1 and "leave out --play pimc" in err


def test_the_cells_where_the_player_beside_differs_are_marked_in_the_tables():
    data = _toy(beside=True)
    df = CH.table(data)
    df.loc[0, "agree"] = True                      # one cell where the two agree: no mark
    g = CH.grid(data, df, "4 players")
    marked = {(r.row, r.col): r.chart + ("" if r.agree else " *") for r in df[df.panel == "4 players"].itertuples()}
    for _, r in g.iterrows():
        for col in data.cols:
            assert r[col].removeprefix("~ ") == marked[(r["hand class"], col)]
    assert "name another best action" in "\n".join(CH.terminal(data, df))
    plain = _toy()
    assert "*" not in CH.grid(plain, CH.table(plain), "4 players").to_string()
