"""Matplotlib figures (Agg backend: no screen needed).

Matplotlib is loaded on the first figure, not on import (it is a second of every command's start otherwise):
``plt`` and ``ticker`` are this module's attributes on demand (``from ..plots import plt`` inside a function)."""
from __future__ import annotations

import importlib
from pathlib import Path

import numpy as np


def __getattr__(name):
    if name in ("plt", "ticker"):
        import matplotlib
        matplotlib.use("Agg")
        mod = importlib.import_module("matplotlib.pyplot" if name == "plt" else "matplotlib.ticker")
        globals()[name] = mod
        return mod
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _mpl():
    """(pyplot, ticker), loaded on first use."""
    return __getattr__("plt"), __getattr__("ticker")

# distinct line styles and markers: curves that coincide stay visible (markers staggered along them)
LINESTYLES = ["-", "--", "-.", ":"]
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]


def style(i: int, n_points: int = 0, n_curves: int = 1) -> dict:
    """Line style of curve i of a family: its own dash pattern and marker, the markers of the curves
    spread along the x axis so that identical curves do not hide one another."""
    kw = {"ls": LINESTYLES[i % len(LINESTYLES)], "marker": MARKERS[i % len(MARKERS)], "ms": 4}
    if n_points > 8:
        step = max(1, n_points // 8)
        kw["markevery"] = (min(n_points - 1, i * step // max(n_curves, 1)), step)
    return kw


def _plain(v, _pos=None) -> str:
    if v <= 0:
        return ""
    return f"{v:,.0f}" if v >= 1 else f"{v:g}"


def _percent(v, _pos=None) -> str:
    if v <= 0:
        return ""
    x = 100 * v
    return f"{x:.0f}%" if x >= 1 else f"{x:.2g}%"


def log_axis(ax, which: str = "y", percent: bool = False):
    """A log axis labelled with plain numbers (1, 2, 5, 10, 20, ... or 1%, 0.1%, ...), never 2x10^1;
    call it once the data are drawn (a narrow range gets more ticks)."""
    ticker = _mpl()[1]
    axis = ax.yaxis if which == "y" else ax.xaxis
    lo, hi = ax.get_ylim() if which == "y" else ax.get_xlim()
    decades = np.log10(hi / lo) if lo > 0 and hi > lo else 3
    subs = (1.0, 2.0, 5.0) if decades > 1.5 else (1.0, 1.5, 2.0, 3.0, 5.0, 7.0) if decades > 0.6 else tuple(range(1, 10))
    axis.set_major_locator(ticker.LogLocator(base=10, subs=subs))
    axis.set_major_formatter(ticker.FuncFormatter(_percent if percent else _plain))
    axis.set_minor_formatter(ticker.NullFormatter())


def percent_axis(ax, which: str = "y"):
    """A linear probability axis in % (0%, 0.05%, ..., 100%), as precise as its ticks need."""
    ticker = _mpl()[1]
    (ax.yaxis if which == "y" else ax.xaxis).set_major_formatter(
        ticker.FuncFormatter(lambda v, _p=None: "0%" if abs(v) < 1e-12 else _percent(v) if v > 0 else ""))


def heatmap_classes(df, path: Path, n: int, min_n: int = 200):
    """Boulmous: P(make bid) by trumps held x bowers held, one panel per bid; only the trump counts a
    hand can show (cells with fewer than ``min_n`` deals blank)."""
    plt, ticker = _mpl()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    shown = sorted({int(r.trumps) for r in df.itertuples() if r.n >= min_n}) or sorted({int(t) for t in df.trumps})
    trumps = list(range(shown[0], shown[-1] + 1)) if shown else [0]
    fig, axes = plt.subplots(1, 4, figsize=(3.3 * len(trumps) + 4, 4.6), sharey=True)
    for ax, bid in zip(axes, range(3, 7)):
        grid = np.full((3, len(trumps)), np.nan)
        for r in df.itertuples():
            if r.n >= min_n and int(r.trumps) in trumps:
                grid[int(r.bowers), trumps.index(int(r.trumps))] = getattr(r, f"p{bid}")
        im = ax.imshow(grid, origin="lower", cmap="RdYlGn", vmin=0, vmax=1, aspect="auto")
        for b in range(3):
            for j in range(len(trumps)):
                if not np.isnan(grid[b, j]):
                    ax.text(j, b, f"{100 * grid[b, j]:.0f}%", ha="center", va="center", fontsize=8)
        ax.set_title(f"bid {bid}" + (" (boulmous)" if bid == 6 else ""))
        ax.set_xlabel("trumps held (bowers included)")
        ax.set_xticks(range(len(trumps)))
        ax.set_xticklabels(trumps)
        ax.set_yticks([0, 1, 2])
    axes[0].set_ylabel("bowers held")
    cb = fig.colorbar(im, ax=axes, shrink=0.8, label="P(taker makes the bid), %")
    cb.ax.yaxis.set_major_formatter(ticker.PercentFormatter(xmax=1, decimals=0))
    fig.suptitle(f"Boulmous: chance the first to speak makes each bid, in % (cells with < {min_n} deals blank), "
                 f"{n:,} random deals")
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)


MONEY_UNITS = {"stakes": "stakes per deal"}


def leaderboard_plot(board, metric, unit, path: Path, n: int):
    """Mean per deal of each heuristic with its 95% interval: one panel for ``metric`` (the points) and,
    where the board has money too (Boulmous stakes), one for the money, the heuristics in the same
    order in both so that a reversed ranking shows; each panel's best is drawn darker."""
    plt = _mpl()[0]
    metrics = [metric] + [m for m in MONEY_UNITS if m != metric and m in set(board.metric)]
    order = list(board[board.metric == metric].sort_values("mean").heuristic)
    fig, axes = plt.subplots(1, len(metrics), figsize=(6.2 * len(metrics), 0.6 * len(order) + 1.8), squeeze=False)
    for ax, m in zip(axes[0], metrics):
        b = board[board.metric == m].set_index("heuristic").loc[order]
        best = b["mean"].idxmax()
        colors = ["tab:blue" if h == best else "lightsteelblue" for h in b.index]
        ax.barh(b.index, b["mean"], xerr=b.ci, color=colors, capsize=4)
        ax.axvline(0, color="k", lw=0.8)
        ax.set_xlabel(f"mean {unit if m == metric else MONEY_UNITS[m]} (95% CI)")
        ax.set_title(f"by {m}{' (money)' if m in MONEY_UNITS else ''}: best {best}")
    fig.suptitle(f"Duplicate tournament, {n:,} deals" + (" (points and money rank differently)" if len(metrics) > 1
                 and list(board[board.metric == metrics[1]].sort_values("mean").heuristic) != order else ""))
    fig.tight_layout()
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def sweep_edge_note(values, best) -> str:
    """A warning when the best value is the first or last of the range swept ('' otherwise)."""
    vals = sorted(float(v) for v in values)
    if len(vals) < 2 or float(best) not in (vals[0], vals[-1]):
        return ""
    side = "lowest" if float(best) == vals[0] else "highest"
    return (f"the best value {float(best):g} is the {side} one swept: the optimum may lie beyond "
            f"{vals[0] if side == 'lowest' else vals[-1]:g}; widen the range")


def sweep_plot(df, path: Path, title: str, unit: str, best, crossings, default=None, contenders=None):
    """The advantage by parameter value with its 95% band; the best value (with a warning when it is
    at the edge of the range), the heuristic's default value and the zero crossings the data establish
    (``crossings``) marked.  ``contenders``: the values that cannot be told apart from the largest
    advantage (``compare.best_value``); with more than one, the line is labelled "largest", not
    "best", and the contenders are ringed."""
    plt = _mpl()[0]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.plot(df.value, df.advantage, "o-", color="tab:blue", label="advantage")
    ax.fill_between(df.value, df.advantage - df.ci, df.advantage + df.ci, color="tab:blue", alpha=0.2,
                    label="95% CI")
    ax.axhline(0, color="k", lw=0.8)
    edge = sweep_edge_note(df.value, best)
    tied = [float(v) for v in (contenders or []) if float(v) != float(best)]
    word = "best" if not tied else "largest"
    ax.axvline(best, color="tab:green", ls="--", label=f"{word} = {best:g}" + (" (edge of the range)" if edge else ""))
    if tied:
        sel = df[df.value.astype(float).isin([float(best)] + tied)]
        ax.plot(sel.value, sel.advantage, "o", ms=11, mfc="none", mec="tab:green", mew=1.5,
                label="cannot be told apart from the largest")
    if default is not None:
        ax.axvline(default, color="0.35", ls="-.", lw=1.2, label=f"default = {default:g}")
    for x in crossings:
        ax.axvline(x, color="tab:red", ls=":", lw=1)
    if crossings:
        ax.plot([], [], color="tab:red", ls=":", label="zero crossing")
    ax.set_xlabel(df.param.iloc[0])
    ax.set_ylabel(f"advantage ({unit})")
    ax.set_title(title + ("\n" + edge if edge else ""), fontsize=10 if edge else None)
    ax.legend()
    fig.tight_layout()
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def ladder_plot(table, unit: str, path: Path, title: str, bounds: bool = True):
    """A strength ladder (analysis/ladder.py): each entrant's mean with its 95% interval as a horizontal bar, the
    best at the top, and the open-hand figure (the table's ``bound`` row) as a dashed line and the default
    heuristic's play of the same deals (``reference``) as a dotted one, each with its interval shaded and labelled.
    ``bounds`` False: the open-hand figure is on another scale than the rungs (Bourre's: one hand), and drawing it
    on their axis would squash them; a note says where it is."""
    plt = _mpl()[0]
    rungs = table[table.kind == "entrant"].iloc[::-1]
    fig, ax = plt.subplots(figsize=(7.5, 0.5 * len(rungs) + 2.2))
    colors = ["tab:blue" if r == 1 else "lightsteelblue" for r in rungs["rank"]]
    ax.barh(rungs.player, rungs["mean"], xerr=rungs.ci, color=colors, capsize=4)
    ax.axvline(0, color="k", lw=0.8)
    lines = table[table.kind.isin(["bound", "reference"])] if bounds else table.iloc[:0]
    for b in lines.itertuples():
        color, ls = ("tab:red", "--") if b.kind == "bound" else ("dimgray", ":")
        ax.axvline(b.mean, color=color, ls=ls, lw=1.4, label=f"{b.player}: {b.mean:+.2f} ± {b.ci:.2f} ({b.n_deals:,} deals)")
        if b.ci == b.ci:
            ax.axvspan(b.mean - b.ci, b.mean + b.ci, color=color, alpha=0.10)
    if len(lines):
        ax.legend(loc="lower right", fontsize=7, title="not entrants: one side's figure (see the page)",
                  title_fontsize=7)
    if not bounds:
        ax.text(0.99, 0.01, "the open-hand figure is on another scale (one hand): see the page's table",
                transform=ax.transAxes, ha="right", va="bottom", fontsize=7, color="dimgray")
    ax.set_xlabel(f"mean {unit} (95% CI)")
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
