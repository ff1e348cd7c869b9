"""Bourre plots: the pot study's fan chart, largest-pot survival and first-passage curves, and the
sweep's curves side by side (matplotlib, Agg backend)."""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from ...kernels import bourre as K
from ..stats import wilson
from .bins import bin_lo


def _chips_label(v, _pos=None) -> str:
    if v <= 0:
        return ""
    if v >= 1e6:
        return f"10^{math.log10(v):.0f}" if abs(math.log10(v) - round(math.log10(v))) < 1e-9 else f"{v:.1e}"
    return f"{v:,.0f}" if v >= 1 else f"{v:g}"


def _pct_label(v, _pos=None) -> str:
    if v <= 0:
        return ""
    x = 100 * v
    if v < 1e-4:
        return f"1 in 10^{math.log10(1 / v):.0f}" if abs(math.log10(v) - round(math.log10(v))) < 1e-9 else f"{x:.1e}%"
    return f"{x:.0f}%" if x >= 1 else f"{x:.2g}%"


def log_ticks(ax, which: str = "y", percent: bool = False):
    """A log axis whose tick labels never collide: call it once every curve is drawn.  Over more
    than 3 decades one tick per decade (thinned to at most 8), over 1.5 to 3 decades 1-2-5, else
    denser; chips above a million read 10^k, shares below 0.01% '1 in 10^k'."""
    from matplotlib import ticker
    axis = ax.yaxis if which == "y" else ax.xaxis
    lo, hi = ax.get_ylim() if which == "y" else ax.get_xlim()
    decades = math.log10(hi / lo) if lo > 0 and hi > lo else 3.0
    if decades > 3:
        step = max(1, math.ceil(decades / 8))
        first = math.ceil(math.log10(lo)) if lo > 0 else 0
        locs = [10.0 ** e for e in range(first, int(math.floor(math.log10(hi))) + 1, step)]
        axis.set_major_locator(ticker.FixedLocator(locs))
    else:
        subs = (1.0, 2.0, 5.0) if decades > 1.5 else (1.0, 1.5, 2.0, 3.0, 5.0, 7.0) if decades > 0.6 else tuple(range(1, 10))
        axis.set_major_locator(ticker.LogLocator(base=10, subs=subs, numticks=40))
    axis.set_major_formatter(ticker.FuncFormatter(_pct_label if percent else _chips_label))
    axis.set_minor_formatter(ticker.NullFormatter())


def percent_ticks(ax, which: str = "y"):
    """A linear share axis in %, with as many decimals as its tick spacing needs (0.5%, 1.0%, 1.5%)."""
    from matplotlib import ticker
    axis = ax.yaxis if which == "y" else ax.xaxis
    locs = [v for v in axis.get_majorticklocs()]
    step = min((b - a for a, b in zip(locs, locs[1:]) if b > a), default=1.0) * 100
    dec = max(0, -math.floor(math.log10(step) + 1e-9)) if step > 0 else 0
    axis.set_major_locator(ticker.FixedLocator(locs))
    axis.set_major_formatter(ticker.FuncFormatter(lambda v, _p=None: f"{100 * v:.{dec}f}%" if v >= -1e-12 else ""))


def _finite(s):
    """A fan quantile for a log plot: overflowed (inf) and empty values left out, at least 0.5."""
    return s.replace([np.inf, -np.inf], np.nan).clip(lower=0.5)


def plot_pot(res, out: Path):
    from ..plots import plt, style
    fig, axes = plt.subplots(1, 3, figsize=(17, 4.8))
    fan = res["fan"]
    x = fan.deal
    ax = axes[0]
    ax.fill_between(x, _finite(fan.q5), _finite(fan.q95), alpha=0.18, color="C0", label="5-95%")
    ax.fill_between(x, _finite(fan.q25), _finite(fan.q75), alpha=0.35, color="C0", label="25-75%")
    ax.plot(x, _finite(fan.q50), color="C0", lw=2, label="median")
    ax.plot(x, _finite(fan.q99), color="C3", lw=1, ls="--", label="99%")
    ax.set_yscale("log")
    log_ticks(ax, "y")
    ax.set_xlabel("deal of the session")
    ax.set_ylabel("pot contested (chips, log)")
    ax.set_title("Pot at each deal: fan chart")
    ax.legend(fontsize=8)
    ax = axes[1]
    _survival(ax, res, "C0", None)
    log_ticks(ax, "x")
    log_ticks(ax, "y", percent=True)
    ax.set_title("Largest pot of a session")
    ax = axes[2]
    ps = res["pass_hist"]
    n = res["sessions"]
    k = np.arange(1, res["deals"] + 1)
    floor = 0.5 / max(n, 1)         # log scale: below one session in n there is nothing to show
    for i, mult in enumerate((10, 100, 1000)):
        cnt = np.cumsum(ps[i][:res["deals"]])
        p, lo, hi = wilson(cnt, np.full(len(cnt), max(n, 1)))
        kw = style(i, len(k), 3)
        never = "" if cnt[-1] > 0 else f" (never in {n:,} sessions)"
        ax.plot(k, np.where(cnt > 0, p, np.nan), color=f"C{i}", label=f"> {mult}x ante{never}", **kw)
        ax.fill_between(k, np.maximum(lo, floor), np.maximum(hi, floor), color=f"C{i}", alpha=0.15)
    ax.set_yscale("log")
    ax.set_ylim(floor, 1.05)
    log_ticks(ax, "y", percent=True)
    ax.set_xlabel("within k deals")
    ax.set_ylabel("P(pot passes the threshold), log")
    ax.set_title("Chance the pot passes 10x/100x/1000x (95% bands)")
    ax.legend(fontsize=8)
    fig.suptitle(f"Bourre, {res['players']} players, {res['sessions']:,} sessions of {res['deals']} deals "
                 f"(quantiles from log histograms, 8 bins per octave)")
    fig.tight_layout()
    fig.savefig(Path(out) / "pot_growth.png", dpi=100)
    plt.close(fig)


def _survival(ax, res, color, label, i=0, curves=1):
    mh = np.asarray(res["max_hist"], float)
    n = mh.sum()
    if n == 0:
        return
    from ..plots import style

    # P(max > lo of bin b) for every bin edge
    tail = np.cumsum(mh[::-1])[::-1] / n        # P(max in bin >= b)
    xs = [bin_lo(b) for b in range(K.BIN_OVF)]
    ys = tail[:K.BIN_OVF]
    keep = ys > 0
    kw = style(i, int(keep.sum()), curves) if curves > 1 else {}
    ax.step(np.array(xs)[keep], ys[keep], where="post", color=color, label=label, **kw)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("chips x (log)")
    ax.set_ylabel("P(largest pot >= x), log")


def sweep_figure(sw):
    """The sweep's three panels (the figure, for ``plot_sweep`` and the tests)."""
    from ..plots import plt, style
    fig, axes = plt.subplots(1, 3, figsize=(17, 4.8))
    m = len(sw["results"])
    for i, res in enumerate(sw["results"]):
        c = f"C{i % 10}"
        fan = res["fan"]
        lab = res["label"] + (f" ({res['overflowed']:,} sessions overflowed 2^62)" if res["overflowed"] else "")
        kw = style(i, len(fan), m)    # own dash and markers: settings with identical curves stay visible
        axes[0].plot(fan.deal, _finite(fan.q50), color=c, lw=2, label=lab, **kw)
        axes[0].fill_between(fan.deal, _finite(fan.q5), _finite(fan.q95), color=c, alpha=0.1)
        axes[0].plot(fan.deal, _finite(fan.q99), color=c, lw=1, ls=kw["ls"], alpha=0.7)
        _survival(axes[1], res, c, res["label"], i, m)
        ps = res["pass_hist"]
        k = np.arange(1, res["deals"] + 1)
        axes[2].plot(k, np.cumsum(ps[1][:res["deals"]]) / max(res["sessions"], 1), color=c, label=res["label"],
                     **style(i, len(k), m))
    axes[0].set_yscale("log")
    log_ticks(axes[0], "y")
    log_ticks(axes[1], "x")
    log_ticks(axes[1], "y", percent=True)
    axes[2].set_ylim(bottom=0)
    percent_ticks(axes[2], "y")
    axes[0].set_xlabel("deal of the session")
    axes[0].set_ylabel("pot contested (chips, log)")
    axes[0].set_title("median (thick), 5-95% (band), 99% (thin)")
    axes[1].set_title("Largest pot of a session: P(>= x)")
    axes[2].set_xlabel("within k deals")
    axes[2].set_ylabel("P(pot passes 100x ante)")
    axes[2].set_title("Chance the pot passes 100x the ante")
    for ax in axes:
        ax.legend(fontsize=7)
    r0 = sw["results"][0]
    fig.suptitle(f"Bourre pot growth, sweep of {sw['name']}: {r0['sessions']:,} sessions of {r0['deals']} deals per setting")
    fig.tight_layout()
    return fig


def plot_sweep(sw, path: Path):
    from ..plots import plt
    fig = sweep_figure(sw)
    fig.savefig(path, dpi=100)
    plt.close(fig)


def _one_in(v, _pos=None):
    """A probability for a card player: 10%, 1%, 0.1%, then 1 in 10,000 ... 1 in 10^12."""
    if v <= 0:
        return ""
    if v >= 1e-3:
        return f"{100 * v:g}%"
    n = 1 / v
    return f"1 in {n:,.0f}" if n < 1e7 else f"1 in 10^{math.log10(n):.0f}"


def _chips_tick(v, _pos=None):
    if v <= 0:
        return ""
    return f"{v:,.0f}" if v < 1e6 else f"10^{math.log10(v):.0f}"


def _law_line(ax, x0, p0, k, xmax, color, label, ls="-"):
    xs = np.geomspace(x0, xmax, 50)
    ax.plot(xs, p0 * (xs / x0) ** (-k), color=color, ls=ls, lw=1.5, label=label)


def plot_tail(res, path: Path, pot=None):
    """Left: how often the pot after a deal exceeds x (simulated, 95% band) beside the law's slope
    -k; right: the chance the session's largest pot passes x (plain sampling, splitting with 95%
    intervals) beside the same slope."""
    from matplotlib import ticker

    from ..plots import plt
    kr = res["k"].iloc[0]
    k, klo, khi = kr["k"], kr["k_low"], kr["k_high"]
    power = kr["case"] == "power"
    fig, axes = plt.subplots(1, 2, figsize=(14, 5.4))
    ax = axes[0]
    s = res["survival"]
    if len(s):
        ax.step(s.x_hi, s.p, where="post", color="C0", lw=2, label="simulated: share of deals with a bigger pot")
        ax.fill_between(s.x_hi, s.ci_low.clip(lower=1e-300), s.ci_high, step="post", color="C0", alpha=0.2)
        if power:
            cand = s[s["count"] >= min(1000, max(30, int(s["count"].iloc[0]) // 100))]
            a = cand.iloc[-1] if len(cand) else s.iloc[0]
            xmax = float(s.x_hi.iloc[-1]) * 4
            _law_line(ax, a.x_hi, a.p, k, xmax, "C3", f"tail law: slope -{k:.2f} (E[A^k] = 1)")
            if klo == klo:
                _law_line(ax, a.x_hi, a.p, klo, xmax, "C3", f"95% interval of k: {klo:.2f} to {khi:.2f}", ":")
                _law_line(ax, a.x_hi, a.p, khi, xmax, "C3", None, ":")
        ax.set_ylim(max(0.3 * float(s.p.iloc[-1]), 1e-12), 1.2)
    ax.set_title("Pot left in the middle after a deal")
    ax.set_xlabel("pot x (chips, log scale)")
    ax.set_ylabel("share of deals with a pot bigger than x")
    ax = axes[1]
    t = res["rare"]["table"]
    if pot is not None:
        mh = np.asarray(pot["max_hist"], float)
        n = mh.sum()
        tail = np.cumsum(mh[::-1])[::-1] / max(n, 1)
        xs = np.array([bin_lo(b) for b in range(K.BIN_OVF)], float)
        keep = (tail[:K.BIN_OVF] > 0) & (xs > 0)
        ax.step(xs[keep], tail[:K.BIN_OVF][keep], where="post", color="C0", lw=2,
                label=f"plain sampling, {int(n):,} sessions")
    pos = t.p_split > 0
    yerr = np.array([(t.p_split - t.lo_split)[pos], (t.hi_split - t.p_split)[pos]])
    ax.errorbar(t.chips[pos], t.p_split[pos], yerr=yerr, fmt="o", color="C2", capsize=4, ms=7,
                label=f"splitting, {res['rare']['roots']:,} root sessions (95% CI)")
    hit = t.p_plain > 0
    ax.errorbar(t.chips[hit], t.p_plain[hit], yerr=np.array([(t.p_plain - t.lo_plain)[hit], (t.hi_plain - t.p_plain)[hit]]),
                fmt="s", color="C1", capsize=3, ms=5, mfc="none",
                label=f"plain sampling, same work ({res['rare']['plain_sessions']:,} sessions)")
    for x in t.chips[~hit]:
        ax.annotate("plain: 0", (x, float(t.p_split[t.chips == x].iloc[0]) if (t.p_split[t.chips == x] > 0).any() else 1e-6),
                    textcoords="offset points", xytext=(6, -14), fontsize=8, color="C1")
    if power and pos.any():
        i0 = int(np.flatnonzero(pos.to_numpy())[0])
        _law_line(ax, float(t.chips.iloc[i0]), float(t.p_split.iloc[i0]), k, float(t.chips.max()) * 2, "C3",
                  f"tail law: slope -{k:.2f}")
    ax.set_title(f"Largest pot of a {res['deals_per_session']}-deal session")
    ax.set_xlabel("pot x (chips, log scale)")
    ax.set_ylabel(f"chance the pot passes x within {res['deals_per_session']} deals")
    for a in axes:
        a.set_xscale("log")
        a.set_yscale("log")
        a.set_ylim(top=1.5)
        a.yaxis.set_major_locator(ticker.LogLocator(base=10, numticks=12))
        a.yaxis.set_major_formatter(ticker.FuncFormatter(_one_in))
        a.yaxis.set_minor_formatter(ticker.NullFormatter())
        a.xaxis.set_major_formatter(ticker.FuncFormatter(_chips_tick))
        a.grid(True, which="major", alpha=0.3)
        a.legend(fontsize=8, loc="lower left")
    labels = ", ".join(sorted({sp.label for sp in res["specs"]}))
    fig.suptitle(f"Bourre, {res['players']} players ({labels}): how rare are big pots? The straight red line is the "
                 "power law the per-deal multipliers predict")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
