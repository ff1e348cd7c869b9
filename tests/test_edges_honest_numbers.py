"""Honest numbers at the edges (issue 23 points 4-8): intervals from the right law where a sample has
no spread, rates and means printed with enough digits that an interval from a non-zero count never
reads as zero width, sweep words that name only what the data tell apart, small omissions (intervals,
withheld gains, partnership wording, the field note), the double-dummy deal count and the heatmap's
asked-for cell."""
import math
import re
from math import comb

import numpy as np
import pandas as pd
import pytest

from tricksim.analysis.output import mean_interval, pct, pct_pm, pm
from tricksim.analysis.stats import hist_mean_interval, two_valued_mean_ci, wilson

HAND = "JH JD AH KH 9S TC"
SAME_BOUNDS = re.compile(r"\[([-+]?[\d.]+(?:e[-+]\d+)?), \1\]")   # "[x, x]": a zero-width interval


# ---------------------------------------------------------------------------
# point 4: E[stakes] of a bid 6 from P(make 6)'s Wilson interval
# ---------------------------------------------------------------------------
def test_bid6_stakes_interval_is_wilson_mapped_and_never_zero_width():
    from tricksim.analysis.boulmous.studies import bid_stakes_ci
    for made, n in ((0, 200), (200, 200), (3, 100)):
        m, lo, hi = bid_stakes_ci(6, made, n)
        p, plo, phi = wilson(made, n)
        assert m == pytest.approx(-3 + 6 * p) and lo == pytest.approx(-3 + 6 * plo) and hi == pytest.approx(-3 + 6 * phi)
        assert hi - lo > 0.05
    assert bid_stakes_ci(4, 0, 200) == (0.0, 0.0, 0.0)      # no payment below 6, by rule: exact


def test_bid6_stakes_interval_covers_the_exact_value():
    """Exact coverage (a sum over every count of the binomial, no sampling) of the stakes interval at 100
    deals, for P(make 6) from rare to common: the Wilson coverage, never the zero-width interval a t
    interval gives whenever no 6 (or every 6) is made: at P = 1% that one misses whenever no 6 is made,
    37% of the runs.  Wilson's own coverage dips to about 90% just below 1/n (one make in 100 deals puts
    its lower bound above a P of 0.1%); averaged over P it holds its 95%."""
    from tricksim.analysis.boulmous.studies import bid_stakes_ci
    n = 100
    covers = []
    for p in np.concatenate([np.geomspace(1e-4, 0.05, 30), np.linspace(0.05, 0.95, 37), [0.99, 0.999]]):
        truth = -3 + 6 * p
        cover = 0.0
        for k in range(n + 1):
            _, lo, hi = bid_stakes_ci(6, k, n)
            if lo - 1e-12 <= truth <= hi + 1e-12:
                cover += comb(n, k) * p ** k * (1 - p) ** (n - k)
        assert cover >= 0.89, (p, cover)
        covers.append(cover)
    assert 0.94 <= np.mean(covers) <= 0.99, np.mean(covers)


def test_odds_prints_the_bid6_stakes_interval(tmp_path):
    from tricksim.analysis.boulmous import odds_hand
    from tricksim.analysis.boulmous.views import render_odds
    res = odds_hand(HAND, hands=200, seed=1)
    six = res["calls"][res["calls"].bid == 6]
    assert (six.stakes_hi > six.stakes_lo).all() and (six.stakes_lo >= -3).all()
    for r in six.itertuples():
        assert r.stakes_hi == pytest.approx(-3 + 6 * r.ci_high)
    text = render_odds(res)
    assert "-3.000 ± 0.000" not in text and "± 0.000" not in text
    assert "-3.000 [-3.000, -2.887]" in text           # P(make 6) = 0 of 200: Wilson [0, 1.88%]
    p, lo, hi, n = hist_mean_interval(np.arange(-1, 4), [0, 200, 0, 0, 0])   # a pass line that never varied
    assert lo < p < hi and n == 200


# ---------------------------------------------------------------------------
# point 5: no zero-width interval from a non-zero count; no "± 0.00" from a non-zero half-width
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("k,n", [(53, 4_000_000), (31, 2_000_000), (9966, 10_000), (996_600, 1_000_000),
                                 (1, 10 ** 9), (10 ** 9 - 1, 10 ** 9), (1, 1000), (999, 1000), (0, 200_000),
                                 (200_000, 200_000)])
@pytest.mark.parametrize("digits", [1, 2])
def test_rate_bounds_differ_visibly(k, n, digits):
    p, lo, hi = wilson(k, n)
    s = pct(p, lo, hi, digits)
    assert not SAME_BOUNDS.search(s), s
    m = re.match(r"([\d.e+-]+)% \[([\d.e+-]+), ([\d.e+-]+)\]", s)
    est, a, b = (float(x) for x in m.groups())
    if 0 < k < n:
        assert est > 0 and a > 0 and b < 100 and est < 100, s     # a non-zero count never reads 0% or 100%
        assert a < est < b, s


def test_reported_cases_read_with_distinct_bounds():
    assert pct(*wilson(53, 4_000_000), 2) == "0.0013% [0.0010, 0.0017]"
    assert pct(*wilson(996_600, 1_000_000), 2) == "99.66% [99.65, 99.67]"
    assert pct(0.00003) == "0.003%"                     # an exact non-zero rate is not "0.0%"
    assert pct(0.5, math.nan, math.nan) == "50.0% [no interval]"


def test_means_keep_a_nonzero_half_width_visible():
    assert pm(2.27, 0.0021, 2, sign=False) == "2.2700 ± 0.0021"
    assert pm(8.4, 0.0012, 2, sign=False) == "8.4000 ± 0.0012"
    assert pm(8.4, 0.19, 2, sign=False) == "8.40 ± 0.19"          # enough digits already: as asked
    assert pm(0.0, 0.0) == "+0.000 ± 0.000"            # a sample that never varied keeps its ± 0
    assert pm(1.5, math.nan, 2, missing="no interval: n = 3 < 10") == "+1.50 (no interval: n = 3 < 10)"
    assert pct_pm(0.9966, 0.00001) == "99.6600% ± 0.0010"
    assert mean_interval(-3, -3, -2.99999) == "-3.00000 [-3.00000, -2.99999]"
    for h in (1e-3, 1e-5, 4e-4, 0.0049):
        assert not re.search(r"± 0\.0+$", pm(1.0, h, 2)), pm(1.0, h, 2)


def test_printed_tables_have_no_zero_width_interval(tmp_path, capsys):
    from tricksim import cli
    for i, argv in enumerate((["odds", "boomke-wies", "--hands", "3000"], ["odds", "boulmous", "--hands", "4000"],
                              ["odds", "boulmous", "--hand", HAND, "--hands", "200", "--seed", "1"])):
        cli.main(argv + ["--quiet", "--out", str(tmp_path / f"r{i}")])
        out = capsys.readouterr().out
        assert not SAME_BOUNDS.search(out), SAME_BOUNDS.search(out).group(0)
        assert "nan" not in out


# ---------------------------------------------------------------------------
# point 6: the sweep's words
# ---------------------------------------------------------------------------
def _sweep(adv, ci, sig):
    return pd.DataFrame({"param": "margin", "value": [-1.0, -0.75, -0.5, -0.25, 0.0], "advantage": adv,
                         "ci": ci, "df": [1e5] * 5, "significant": sig})


def test_sweep_sentence_names_no_best_it_cannot_tell_apart():
    from tricksim.analysis import compare as C
    from tricksim.analysis.studies import sweep_sentence
    df = _sweep([-0.047, 0.114, 0.224, 0.287, 0.285], [0.005] * 5, [True] * 5)
    text = sweep_sentence(C.best_value(df), C.sign_changes(df), "margin", "points per deal")
    assert "No single best value" in text and "{-0.25, 0}" in text and "Best value" not in text
    assert "changes sign between margin = -1 and -0.75" in text
    df = _sweep([-0.047, 0.114, 0.224, 0.387, 0.285], [0.005] * 5, [True] * 5)
    text = sweep_sentence(C.best_value(df), C.sign_changes(df), "margin", "points per deal")
    assert "Best value: margin = -0.25" in text


def test_zero_crossing_named_only_when_both_sides_exclude_zero():
    from tricksim.analysis import compare as C
    df = _sweep([-0.01, 0.02, 0.3, 0.3, 0.3], [0.03, 0.03, 0.03, 0.03, 0.03], [False, False, True, True, True])
    ch = C.sign_changes(df)
    assert len(ch) == 1 and not ch[0]["established"]
    text = C.render_crossings(ch, "margin")
    assert "none established" in text and "cannot be told from 0" in text
    df = _sweep([-0.2, -0.01, 0.3, 0.3, 0.3], [0.03] * 5, [True, False, True, True, True])
    ch = C.sign_changes(df)
    assert ch[0]["established"] and ch[0]["between"] == (-1.0, -0.5)


# ---------------------------------------------------------------------------
# point 7: small omissions
# ---------------------------------------------------------------------------
def test_compare_withholds_gains_with_its_interval_and_says_partnership(tmp_path, capsys):
    from tricksim import cli
    cli.main(["compare", "boomke-wies", "partner", "naive", "random", "--hands", "3", "-q",
              "--out", str(tmp_path / "c")])
    out = " ".join(capsys.readouterr().out.split())
    assert not re.search(r"\d\.\d\dx", out)                   # no gain ratio without an interval
    assert "gain/deal and gain/playout withheld" in out
    assert "mean per deal per partnership" in out and "per deal per seat" not in out
    assert "head to head" in out and "tricksim compare boomke-wies partner naive" in out
    pairs = pd.read_csv(tmp_path / "c" / "pairs.csv")
    assert pairs.variance_reduction.isna().all() and pairs.gain_per_playout.isna().all()
    cli.main(["compare", "boulmous", "cautious", "aggressive", "--hands", "400", "-q", "--out", str(tmp_path / "d")])
    out = " ".join(capsys.readouterr().out.split())
    assert "per deal per seat" in out and "head to head" not in out and re.search(r"\d\.\d\dx", out)


def test_boxes_per_game_have_an_interval(tmp_path):
    from tricksim.analysis.boulmous import game_stakes
    from tricksim.analysis.boulmous.tables import stakes_table
    from tricksim.analysis.engine import RunOptions
    res = game_stakes(seed=3, games=400, opts=RunOptions(progress=False))
    s = res["seats"]
    assert (s.boxes_ci > 0).all() and np.isfinite(s.boxes_ci).all() and (s.boxes_ci < s.boxes_per_game).all()
    assert s.box_batches.iloc[0] >= 32
    col = stakes_table(res)["boxes per game [95% CI]"]
    assert col.str.contains("±").all()


def test_boomke_equity_draw_has_an_interval(tmp_path, monkeypatch):
    from tricksim.analysis.boomke_wies.config import BoomkeRules
    from tricksim.analysis.boomke_wies import equity as B
    monkeypatch.setenv("TRICKSIM_CACHE", str(tmp_path))
    rules = BoomkeRules(tiebreak_extra_deal=False)
    c, _ = B.counts(1, 20_000, rules)
    e = B.equity(c, (7, 7), 2, 0, rules, boot=40)
    assert (e.draw_lo < e.p_draw).all() and (e.p_draw < e.draw_hi).all()


# ---------------------------------------------------------------------------
# point 8: the double-dummy count and words; the heatmap's asked-for cell
# ---------------------------------------------------------------------------
def test_double_dummy_never_solves_more_deals_than_dealt():
    from tricksim.analysis.boomke_wies.views import DD_DEALS, dd_count
    assert dd_count(None, DD_DEALS, 100) == 100
    assert dd_count(500, DD_DEALS, 2_000_000) == 500 and dd_count(None, DD_DEALS, 2_000_000) == 2000


def test_double_dummy_words_state_the_real_count_and_print_no_nan(tmp_path, capsys):
    pytest.importorskip("endplay")
    from tricksim import cli
    cli.main(["odds", "boomke-wies", "--double-dummy", "--hands", "8", "-q", "--out", str(tmp_path / "dd")])
    out = " ".join(capsys.readouterr().out.split())
    assert "on the same 8 deals (2,000 asked for" in out and "2,000 of the same" not in out
    assert "nan" not in out and "no interval: n = 8 < 10" in out
    by_bid = pd.read_csv(tmp_path / "dd" / "double_dummy_by_bid.csv")
    assert int(by_bid.n.iloc[0]) == 8


def test_heatmaps_number_the_asked_for_cell(tmp_path):
    from tricksim.analysis.boomke_wies.config import BoomkeRules
    from tricksim.analysis.boomke_wies import equity_views as BV
    from tricksim.analysis.boulmous.equity import views as V
    xs = list(range(0, 20))
    grid = pd.DataFrame([{"score0": x, "score1": y, "p_win": (x + 1) / (x + y + 2)} for x in xs for y in xs])
    labels = V._heat_png(grid, (0, 1), [5, 8, 3, 3], 0, 21, tmp_path / "h.png", "t")   # 5 + 8 odd: skipped before
    assert (5, 8, f"{100 * 6 / 15:.0f}") in labels
    H = 18
    p = np.zeros((4, 2 * H + 1))
    p[:, H + 1], p[:, H - 1] = 0.6, 0.4
    rules = BoomkeRules()
    labels = BV._heat_png(p, rules, lambda n: 0, tmp_path / "b.png", (3, 5))               # odd difference
    assert any(x == 3 and y == 5 for x, y, _ in labels)
