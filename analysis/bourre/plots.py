"""Bourre plots: the pot study's fan chart, largest-pot survival and first-passage curves, and the
sweep's curves side by side (matplotlib, Agg backend)."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from tricksim.analysis.bourre.bins import bin_lo
from tricksim.kernels import bourre as K


def plot_pot(res, out: Path):
    from tricksim.analysis.plots import log_axis, style
    from tricksim.analysis.stats import wilson
    from tricksim.analysis.plots import plt
    fig, axes = plt.subplots(1, 3, figsize=(17, 4.8))
    fan = res["fan"]
    x = fan.deal
    ax = axes[0]
    ax.fill_between(x, fan.q5.clip(lower=0.5), fan.q95.clip(lower=0.5), alpha=0.18, color="C0", label="5-95%")
    ax.fill_between(x, fan.q25.clip(lower=0.5), fan.q75.clip(lower=0.5), alpha=0.35, color="C0", label="25-75%")
    ax.plot(x, fan.q50.clip(lower=0.5), color="C0", lw=2, label="median")
    ax.plot(x, fan.q99.clip(lower=0.5), color="C3", lw=1, ls="--", label="99%")
    ax.set_yscale("log")
    log_axis(ax, "y")
    ax.set_xlabel("deal of the session")
    ax.set_ylabel("pot contested (chips, log)")
    ax.set_title("Pot at each deal: fan chart")
    ax.legend(fontsize=8)
    ax = axes[1]
    _survival(ax, res, "C0", None)
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
    log_axis(ax, "y", percent=True)
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
    from tricksim.analysis.plots import log_axis, style
    # P(max > lo of bin b) for every bin edge
    tail = np.cumsum(mh[::-1])[::-1] / n        # P(max in bin >= b)
    xs = [bin_lo(b) for b in range(K.BIN_OVF)]
    ys = tail[:K.BIN_OVF]
    keep = ys > 0
    kw = style(i, int(keep.sum()), curves) if curves > 1 else {}
    ax.step(np.array(xs)[keep], ys[keep], where="post", color=color, label=label, **kw)
    ax.set_xscale("log")
    ax.set_yscale("log")
    log_axis(ax, "x")
    log_axis(ax, "y", percent=True)
    ax.set_xlabel("chips x (log)")
    ax.set_ylabel("P(largest pot >= x), log")


def plot_sweep(sw, path: Path):
    from tricksim.analysis.plots import log_axis, percent_axis, style
    from tricksim.analysis.plots import plt
    fig, axes = plt.subplots(1, 3, figsize=(17, 4.8))
    m = len(sw["results"])
    for i, res in enumerate(sw["results"]):
        c = f"C{i % 10}"
        fan = res["fan"]
        lab = res["label"] + (f" ({res['overflowed']:,} sessions overflowed 2^62)" if res["overflowed"] else "")
        kw = style(i, len(fan), m)    # own dash and markers: settings with identical curves stay visible
        axes[0].plot(fan.deal, fan.q50.clip(lower=0.5), color=c, lw=2, label=lab, **kw)
        axes[0].fill_between(fan.deal, fan.q5.clip(lower=0.5), fan.q95.clip(lower=0.5), color=c, alpha=0.1)
        axes[0].plot(fan.deal, fan.q99.clip(lower=0.5), color=c, lw=1, ls=kw["ls"], alpha=0.7)
        _survival(axes[1], res, c, res["label"], i, m)
        ps = res["pass_hist"]
        k = np.arange(1, res["deals"] + 1)
        axes[2].plot(k, np.cumsum(ps[1][:res["deals"]]) / max(res["sessions"], 1), color=c, label=res["label"],
                     **style(i, len(k), m))
    axes[0].set_yscale("log")
    log_axis(axes[0], "y")
    percent_axis(axes[2], "y")
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
    fig.savefig(path, dpi=100)
    plt.close(fig)
