"""Issue 23, Bourre words and plots: the pot's first sentence (settles, how heavy the tail, never
'compounds'), means withheld when k <= 1, k per pot band with n and an interval that includes the
bands' spread, the Kesten note, the pot-limit sweep's binding column, no zero-width interval from
a non-zero count, and sweep plots whose tick labels are non-empty, distinct and do not overlap."""
import math

import numpy as np
import pandas as pd
import pytest

from tricksim.analysis import bourre as B
from tricksim.analysis.bourre import tail as T
from tricksim.analysis.bourre.bins import _pct, _pm
from tricksim.analysis.bourre.tail_views import band_words, k_table, kesten_note, tail_words
from tricksim.analysis.bourre.views import compounds, mean_status, pot_tables, render_pot
from tricksim.analysis.engine import RunOptions
from tricksim.analysis.stats import wilson

SEED = 11


@pytest.fixture(scope="module")
def loose():
    return B.pot_study(7, 120, 300, SEED, heuristics=["loose"])


def test_loose_pot_settles_and_its_means_are_withheld(loose):
    big, text = compounds(loose)
    assert big is True                                     # E[A] >= 1 ...
    assert "compounds" not in text                         # ... never read as 'the pot compounds'
    assert "the pot's distribution settles within ~" in text and "0th percentile" in text    # 90th or 99th
    assert "mean is infinite" in text and "withheld" in text
    assert mean_status(loose)[0] == "infinite"
    seats = pot_tables(loose)["seats"]
    assert "mean net" not in seats.columns and "sd" not in seats.columns and "median [95% CI]" in seats.columns
    out = render_pot(loose)
    assert "mean net " not in out and "mean nets are withheld" in out


def test_basic_pot_keeps_its_means_and_settles():
    res = B.pot_study(7, 60, 200, SEED, heuristics=["basic"])
    big, text = compounds(res)
    assert big is False and "does not compound" in text and "settles within ~" in text
    assert mean_status(res)[0] == "finite" and "mean net" in pot_tables(res)["seats"].columns


def test_the_tail_decides_with_k_and_the_kesten_note(loose):
    res = dict(loose)
    tr = {"k": pd.DataFrame([
        {"deals": "every deal", "n": 10_000, "P(A=0)": 0.3, "P(A>=2)": 0.1, "E[A]": 1.1, "k": 0.81, "k_low": 0.78,
         "k_high": 0.84, "case": "power"},
        {"deals": "pot carried in < 10x ante", "n": 8_000, "P(A=0)": 0.3, "P(A>=2)": 0.1, "E[A]": 1.1, "k": 0.8,
         "k_low": 0.77, "k_high": 0.83, "case": "power"},
        {"deals": "pot carried in 10x-100x ante", "n": 1_900, "P(A=0)": 0.3, "P(A>=2)": 0.1, "E[A]": 1.1, "k": 0.95,
         "k_low": 0.85, "k_high": 1.05, "case": "power"},
        {"deals": "pot carried in >= 100x ante", "n": 59, "P(A=0)": 0.3, "P(A>=2)": 0.1, "E[A]": 1.1, "k": math.nan,
         "k_low": math.nan, "k_high": math.nan, "case": "few"}])}
    tr["k_overall"] = T.k_overall(tr["k"])
    assert tr["k_overall"]["low"] == pytest.approx(0.78) and tr["k_overall"]["high"] == pytest.approx(0.95)
    assert tr["k_overall"]["governing_n"] == 59
    w = band_words(tr)
    assert "(8,000 deals)" in w and "(1,900 deals)" in w and "only 59 deals" in w
    assert "with 59 deals: too few for an estimate" in w and "[0.78, 0.95]" in w
    kt = k_table(tr)
    assert kt.iloc[-1]["tail exponent k [95% CI]"] == "0.81 [0.78, 0.95]"
    res["tail"] = tr
    assert mean_status(res)[0] == "infinite" and "k = 0.81 [0.78, 0.95]" in mean_status(res)[1]
    # the overall interval reaching past 1: the mean may be infinite, still withheld
    tr2 = dict(tr)
    tr2["k_overall"] = dict(tr["k_overall"], high=1.2)
    res["tail"] = tr2
    assert mean_status(res)[0] == "maybe"
    assert kesten_note(B.BourreRules(tie="tied_only_next_hand")) and "Kesten" in kesten_note(
        B.BourreRules(tie="tied_only_next_hand"))
    assert kesten_note(B.BourreRules()) == ""


def test_tail_words_name_bands_and_kesten_under_tied_only_next_hand():
    rules = B.BourreRules(tie="tied_only_next_hand")
    tr = T.tail_study(5, 40, 200, SEED, rules, B.GAME.parse_seats(["loose"], 5), targets=(30, 100), roots=30)
    text = " ".join(tail_words(tr))
    if tr["k"].iloc[0].case == "power":
        assert "not exactly the Kesten equation" in text and "deals)" in text
    assert "compounds" not in text


@pytest.mark.parametrize("k, n", [(5, 400_000), (53, 4_000_000), (1, 2_000), (399_995, 400_000)])
def test_non_zero_counts_never_print_a_zero_width_interval(k, n):
    p, lo, hi = wilson(k, n)
    txt = _pct(p, lo, hi, 2)
    a, b = txt.split("[")[1].rstrip("]").split(", ")
    assert a != b and float(txt.split("%")[0]) > 0, txt
    assert _pm(2.27, 0.0021, 2) == "2.2700 ± 0.0021"


def test_pot_limit_sweep_says_where_the_limit_binds(tmp_path):
    sw = B.pot_sweep("pot_limit", [None, 1000, 20], 7, 60, 150, SEED, opts=RunOptions(tmp_path, progress=False))
    col = sw["table"]["sessions whose pot passed the limit"]
    assert col.iloc[0] == "-"
    assert col.iloc[1].startswith("0 of 150")                  # never reached: rows identical, and it says so
    assert not col.iloc[2].startswith("0 ")
    assert "pot compounds" not in sw["table"].columns


def _tick_texts(ax, which):
    axis = ax.yaxis if which == "y" else ax.xaxis
    lo, hi = sorted(ax.get_ylim() if which == "y" else ax.get_xlim())
    return [(t.get_text(), t) for t, loc in zip(axis.get_ticklabels(), axis.get_majorticklocs())
            if lo <= loc <= hi]


@pytest.mark.parametrize("name, values", [("players", [2, 3, 4, 5, 6, 7, 8]), ("heuristic", ["basic", "tight", "loose"]),
                                          ("looseness", [0.0, 0.5, 1.0, 1.5])])
def test_sweep_plot_tick_labels_are_readable(name, values, tmp_path):
    from tricksim.analysis.bourre.plots import sweep_figure
    from tricksim.analysis.plots import plt
    sw = B.pot_sweep(name, values, 7, 60, 120, SEED, opts=RunOptions(tmp_path, progress=False))
    fig = sweep_figure(sw)
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    try:
        for ax in fig.axes:
            for which in ("x", "y"):
                ticks = _tick_texts(ax, which)
                texts = [t for t, _ in ticks if t]
                assert len(texts) >= 2, (name, ax.get_title(), which, ticks)
                assert len(set(texts)) == len(texts), (name, ax.get_title(), which, texts)
                boxes = [lab.get_window_extent(r) for t, lab in ticks if t]
                for a, b in zip(boxes, boxes[1:]):
                    assert not a.overlaps(b), (name, ax.get_title(), which, texts)
    finally:
        plt.close(fig)
