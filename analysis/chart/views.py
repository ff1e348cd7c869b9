"""A strategy chart as a player reads it: the heatmap (one PNG per panel), the terminal tables, the CSV and the
markdown page (analysis/chart/core.py computes the cells)."""
from __future__ import annotations

import math
import re
import textwrap
from pathlib import Path

import numpy as np
import pandas as pd

from ..game import ChartData
from ..output import markdown_table, show

SEP = " | "
"""Column labels ``group | label`` are drawn in two levels (e.g. the seat above the up-card)."""


PALETTE = ["#1f77b4", "#2ca02c", "#ff7f0e", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#bcbd22", "#17becf"]
"""The actions' colours after pass (grey): distinct hues that stay apart when pale."""


def colours(actions) -> dict:
    """Action -> RGB: pass grey, the others ``PALETTE`` in the actions' order (repeated past nine)."""
    rest = [a for a in actions if a != "pass"]
    out = {"pass": (0.55, 0.55, 0.55)}
    for i, a in enumerate(rest):
        h = PALETTE[i % len(PALETTE)]
        out[a] = tuple(int(h[k:k + 2], 16) / 255 for k in (1, 3, 5))
    return out


def heatmap(data: ChartData, df: pd.DataFrame, panel: str, path: Path) -> Path:
    """The chart of one panel: rows x columns, each cell the action's colour, paler the smaller its margin over the
    next best (full colour at ``ChartData.shade``), hatched when close (both named), the value below the action."""
    from ..plots import plt
    from matplotlib.patches import Patch, Rectangle
    d = df[df.panel == panel]
    rows = [r for r in data.rows if r in set(d.row)]
    cols = data.cols
    col_of = {c: j for j, c in enumerate(cols)}
    row_of = {r: i for i, r in enumerate(rows)}
    pal = colours(data.actions)
    fig_w, fig_h = 3.4 + 1.08 * len(cols), 2.3 + 0.34 * len(rows)
    fig, ax = plt.subplots(figsize=(fig_w, fig_h))
    for r in d.itertuples():
        i, j = row_of[r.row], col_of[r.col]
        shade = 0.0 if r.close or not math.isfinite(r.margin) else min(1.0, max(0.0, r.margin) / data.shade)
        rgb = np.array(pal[r.action])
        face = 1 - (0.3 + 0.7 * shade) * (1 - rgb)
        ax.add_patch(Rectangle((j, i), 1, 1, facecolor=face, edgecolor="white", lw=1.0,
                               hatch="////" if r.close else None))
        lum = 0.299 * face[0] + 0.587 * face[1] + 0.114 * face[2]
        ink = "white" if lum < 0.5 else "black"
        words = r.chart if len(r.chart) <= 16 else r.chart.replace(" or ", "/")
        ax.text(j + 0.5, i + 0.42, words, ha="center", va="center", fontsize=7.2, color=ink,
                fontweight="bold" if not r.close else "normal",
                bbox=dict(boxstyle="square,pad=0.05", fc=face, ec="none") if r.close else None)
        ax.text(j + 0.5, i + 0.78, data.value_format.format(r.value), ha="center", va="center", fontsize=6, color=ink)
    ax.set_xlim(0, len(cols))
    ax.set_ylim(len(rows), 0)
    ax.set_yticks(np.arange(len(rows)) + 0.5)
    ax.set_yticklabels(rows, fontsize=8)
    ax.set_xticks(np.arange(len(cols)) + 0.5)
    ax.set_xticklabels([c.split(SEP)[-1] for c in cols], fontsize=8)
    ax.tick_params(length=0)
    groups = [c.split(SEP)[0] if SEP in c else "" for c in cols]
    start = 0
    for j in range(1, len(cols) + 1):
        if j == len(cols) or groups[j] != groups[start]:
            if groups[start]:
                ax.text((start + j) / 2, -0.35, groups[start], ha="center", va="bottom", fontsize=10, fontweight="bold")
            if j < len(cols):
                ax.axvline(j, color="black", lw=1.6)
            start = j
    for spine in ax.spines.values():
        spine.set_visible(False)
    handles = [Patch(facecolor=pal[a], label=a) for a in data.actions if a in set(d.action)]
    handles.append(Patch(facecolor="white", edgecolor="grey", hatch="////", label="close: the best two (named) "
                                                                                    "cannot be told apart"))
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.03), ncol=min(len(handles), 5),
              fontsize=8, frameon=False)
    n = f"{int(d.hands.max())} hands x {int(d.deals.max()):,} deals per cell"
    sub = (f"{data.player}; {n}. Number: the action's expected value ({data.unit}); paler: a smaller margin over "
           f"the next best (full colour at {data.shade:g})")
    ax.set_title(f"{data.title}: {panel}\n" + "\n".join(textwrap.wrap(sub, int(11 * fig_w))), fontsize=9, pad=24)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)
    return path


def panel_file(data: ChartData, panel: str) -> str:
    """The heatmap's file name: ``bourre-7p.png`` for ``7 players``, else the panel's words (``even-scores``)."""
    m = re.fullmatch(r"(\d+) players", panel)
    return f"{data.name}-{m.group(1)}p.png" if m else f"{data.name}-{re.sub('[^a-z0-9]+', '-', panel.lower()).strip('-')}.png"


def grid(data: ChartData, df: pd.DataFrame, panel: str, col_group: str | None = None, marks: bool = True,
         keep: bool = False):
    """A panel as a table of words (rows x columns): the action, ``~`` before a close cell's two; with ``keep``,
    what a clear cell's action keeps (``draw 3 (keep 2 trumps)``); with a second player beside (``agree``), ``*``
    after a cell whose best action the two name differently."""
    d = df[df.panel == panel]
    cols = [c for c in data.cols if col_group is None or c.split(SEP)[0] == col_group]
    out = pd.DataFrame({"hand class": [r for r in data.rows if r in set(d.row)]})

    def word(r):
        kept = f" (keep {r.keep})" if keep and not r.close and isinstance(r.keep, str) and r.keep else ""
        differ = " *" if marks and not getattr(r, "agree", True) else ""
        return ("~ " if (r.close and marks) else "") + r.chart + kept + differ
    for c in cols:
        words = {r.row: word(r) for r in d[d.col == c].itertuples()}
        out[c.split(SEP)[-1] if col_group else c] = [words.get(r, "") for r in out["hand class"]]
    return out


def extra_markdown(data: ChartData, heading: str) -> list:
    """The chart's further tables (``ChartData.extra``) as markdown: heading, table, lines."""
    out = []
    for head, table_, below in data.extra:
        out += [f"{heading} {head}", "", markdown_table(table_), ""] + [f"- {x}" for x in below] + [""]
    return out


def terminal(data: ChartData, df: pd.DataFrame) -> list:
    """The chart for the terminal: per panel and column group, the rows' actions."""
    lines = []
    groups = list(dict.fromkeys(c.split(SEP)[0] for c in data.cols)) if all(SEP in c for c in data.cols) else [None]
    for panel in data.panels:
        for g in groups:
            lines.append(f"\n{data.title}: {panel}" + (f", {g}" if g else "") + " (~ close: the best two named"
                         + (f"; * {data.beside_name} name another best action" if "agree" in df else "") + ")")
            lines.append(show(grid(data, df, panel, g)))
    for head, table_, below in data.extra:
        lines += [f"\n{head}", show(table_)] + list(below)
    return lines


def close_list(df: pd.DataFrame) -> pd.DataFrame:
    c = df[df.close]
    return pd.DataFrame({"panel": c.panel, "situation": c.col.str.replace(SEP, ", ", regex=False), "hand class": c.row, "best two": c.chart,
                         "margin": [f"{m:+.3f} [{lo:+.3f}, {hi:+.3f}]" for m, lo, hi in
                                    zip(c.margin, c.margin_lo, c.margin_hi)], "n": c.n.map(lambda x: f"{x:,}")})


def page(data: ChartData, df: pd.DataFrame, images: dict, sizes: str, heading: str = "#") -> str:
    """The markdown page: what the chart says, its legend and sizes, per panel the image and the table of words,
    the close cells, the line that makes it again.  ``images``: panel -> path as the page links it."""
    lines = [f"{heading} {data.title}", "", f"Measured with {data.player}. {sizes}.", "",
             f"Regenerate: `{data.command}`", ""]
    lines += [f"- {x}" for x in data.notes]
    lines += ["- Each cell: the action of the highest expected value over the class's hands, that value in "
              f"{data.unit} with its 95% interval, its margin over the next-best action (paired: the same deals, "
              "hand by hand) with its 95% interval (Student's t over the hands), n = hands x deals.",
              "- **close** (hatched; `~` in the tables): the margin's interval reaches 0, so the best two cannot "
              "be told apart; both are named, either is as good as the data can say.", ""]
    if "agree" in df:
        dis = df[~df.agree]
        lines += [f"Beside it, {data.beside_name} on the same deals: the same best action in {len(df) - len(dis)} of "
                  f"{len(df)} cells; different in {len(dis)}, {int(df.differ_clear.sum())} of them with neither cell "
                  "close (a clear difference):", ""]
        if len(dis):
            lines += [markdown_table(pd.DataFrame({"panel": dis.panel, "situation": dis.col.str.replace(SEP, ", "), "hand class": dis.row,
                                                   "chart": dis.chart, "beside": dis.beside_chart,
                                                   "clear": dis.differ_clear.map({True: "yes", False: "no"})})), ""]
    for panel in data.panels:
        lines += [f"{heading}# {panel}", "", f"![{data.title}: {panel}]({images[panel]})", ""]
        lines += [markdown_table(grid(data, df, panel, keep=True).rename(columns=lambda c: c.replace(SEP, ", "))), ""]
        if "agree" in df:
            lines += [f"`*`: {data.beside_name} name another best action (listed above).", ""]
    lines += extra_markdown(data, heading + "#")
    close = close_list(df)
    lines += [f"{heading}# Close cells ({len(close)} of {len(df)})", ""]
    lines += [markdown_table(close) if len(close) else "None.", ""]
    return "\n".join(lines)


def write(data: ChartData, df: pd.DataFrame, out: Path, sizes: str, heading: str = "#", rel: Path | None = None):
    """The CSV, the heatmaps and the page into ``out``; returns (page text, [files]).  Image links are relative
    to ``rel`` (default ``out``)."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    files = [out / f"{data.name}.csv"]
    df.to_csv(files[0], index=False, float_format="%.6g")
    images = {}
    for panel in data.panels:
        p = heatmap(data, df, panel, out / panel_file(data, panel))
        files.append(p)
        images[panel] = p.relative_to(rel).as_posix() if rel is not None else p.name
    text = page(data, df, images, sizes, heading)
    md = out / f"{data.name}.md"
    md.write_text(text + "\n", encoding="utf-8")
    files.append(md)
    return text, files
