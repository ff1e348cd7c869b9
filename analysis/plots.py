"""Matplotlib figures (Agg backend: no screen needed)."""
from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def heatmap_classes(df, path: Path, n: int):
    """Boulmous: P(make bid) by trumps held x bowers held, one panel per bid."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig, axes = plt.subplots(1, 4, figsize=(16, 4.6), sharey=True)
    trumps = list(range(8))
    for ax, bid in zip(axes, range(3, 7)):
        grid = np.full((3, 8), np.nan)
        cnt = np.zeros((3, 8), int)
        for r in df.itertuples():
            grid[r.bowers, r.trumps] = getattr(r, f"p{bid}")
            cnt[r.bowers, r.trumps] = r.n
        grid[cnt < 200] = np.nan  # too few deals to show
        im = ax.imshow(grid, origin="lower", cmap="RdYlGn", vmin=0, vmax=1, aspect="auto")
        for b in range(3):
            for t in trumps:
                if not np.isnan(grid[b, t]):
                    ax.text(t, b, f"{100 * grid[b, t]:.0f}", ha="center", va="center", fontsize=8)
        ax.set_title(f"bid {bid}" + (" (boulmous)" if bid == 6 else ""))
        ax.set_xlabel("trumps held (bowers included)")
        ax.set_xticks(trumps)
        ax.set_yticks([0, 1, 2])
    axes[0].set_ylabel("bowers held")
    fig.colorbar(im, ax=axes, shrink=0.8, label="P(taker makes the bid)")
    fig.suptitle(f"Boulmous: chance the first to speak makes each bid (% , cells with <200 deals blank), {n:,} random deals")
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)


MONEY_UNITS = {"stakes": "stakes per deal"}


def leaderboard_plot(board, metric, unit, path: Path, n: int):
    """Mean per deal of each heuristic with its 95% interval: one panel for ``metric`` (the points) and,
    where the board has money too (Boulmous stakes), one for the money, the heuristics in the same
    order in both so that a reversed ranking shows; each panel's best is drawn darker."""
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


def sweep_plot(df, path: Path, title: str, unit: str, best, crossings):
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.plot(df.value, df.advantage, "o-", color="tab:blue", label="advantage")
    ax.fill_between(df.value, df.advantage - df.ci, df.advantage + df.ci, color="tab:blue", alpha=0.2,
                    label="95% CI")
    ax.axhline(0, color="k", lw=0.8)
    ax.axvline(best, color="tab:green", ls="--", label=f"best = {best:g}")
    for x in crossings:
        ax.axvline(x, color="tab:red", ls=":", lw=1)
    if crossings:
        ax.plot([], [], color="tab:red", ls=":", label="zero crossing")
    ax.set_xlabel(df.param.iloc[0])
    ax.set_ylabel(f"advantage ({unit})")
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
