"""A strategy chart's statistics, the same for every game: per cell the best action, its value, its margin over the
next best with a 95% interval, and whether the two can be told apart ("close").

A cell's hands are a random sample of its class (``ChartCell.values``: one row per hand, one column per action,
each hand's mean over its own deals, every action of a hand on the same deals).  The class mean of an action is
the mean over the hands; the interval of a mean or of a paired difference is Student's t over the hands (the
per-hand values are independent and identically distributed: the variance between hands holds the deals' noise
too), so it is valid whatever the number of deals.  The best action is the one of the highest mean (ties: the
earlier action of ``ChartData.actions``), the runner-up the next; the margin is their paired difference, hand by
hand.  A cell is **close** when the margin's 95% interval reaches 0: the data cannot tell the two apart.  (The two
are picked by the same data, so the margin leans high: close is the honest side of that.)
"""
from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pandas as pd

from ..game import ChartData
from ..stats import t_crit


def mean_t(x) -> tuple:
    """(mean, 95% half-width) of the independent values ``x`` by Student's t (half-width nan under 2 values)."""
    x = np.asarray(x, np.float64)
    m = float(x.mean())
    if len(x) < 2:
        return m, math.nan
    return m, float(t_crit(len(x) - 1) * x.std(ddof=1) / math.sqrt(len(x)))


def cell_stats(values, actions) -> dict:
    """The decision of one cell: ``values`` float64[hands, actions] (nan: the action is not open to that hand; an
    action counts only when open to every hand), ``actions`` their names.  Returns action, value and its interval,
    runner-up, margin and its interval, close, and every open action's mean (``means``)."""
    v = np.asarray(values, np.float64)
    open_ = [a for a in range(v.shape[1]) if not np.isnan(v[:, a]).any()]
    if not open_:
        raise ValueError("a chart cell with no action open to all its hands")
    means = {actions[a]: float(v[:, a].mean()) for a in open_}
    order = sorted(open_, key=lambda a: (-v[:, a].mean(), a))
    best = order[0]
    m, half = mean_t(v[:, best])
    out = {"action": actions[best], "value": m, "value_lo": m - half, "value_hi": m + half, "hands": v.shape[0],
           "means": means}
    if len(order) == 1:
        return dict(out, runner_up="", margin=math.nan, margin_lo=math.nan, margin_hi=math.nan, close=False)
    d, dh = mean_t(v[:, best] - v[:, order[1]])
    close = not (d - dh > 0)           # an interval reaching 0 (or none: too few hands) cannot tell them apart
    return dict(out, runner_up=actions[order[1]], margin=d, margin_lo=d - dh, margin_hi=d + dh, close=close)


def label(action: str, runner_up: str, close: bool) -> str:
    """The cell's words: the action, or for a close cell both (``draw 2 or 3``, ``bid 3 NT or 4 NT``, ``pass or
    draw 0``): two names that differ in one word share what comes before it."""
    if not close:
        return action
    a, b = action.split(" "), runner_up.split(" ")
    diff = [i for i in range(len(a)) if len(a) == len(b) and a[i] != b[i]]
    if len(a) > 1 and len(diff) == 1:
        i = diff[0]
        (x, xs), (y, ys) = sorted([(a[i], a), (b[i], b)])
        return " ".join(xs[:i] + [f"{x} or {y}"]) if i == len(a) - 1 else f"{' '.join(xs)} or {' '.join(ys[i:])}"
    return f"{action} or {runner_up}"


def table(data: ChartData) -> pd.DataFrame:
    """One row per cell: its coordinates, the decision (``cell_stats``), n, what it keeps, every action's mean;
    with a second player beside (``ChartCell.beside``), that player's decision, whether the two choose the same
    action (``agree``) and whether they differ with neither cell close (``differ_clear``)."""
    rows = []
    for c in data.cells:
        s = cell_stats(c.values, data.actions)
        hands = int(c.values.shape[0])
        r = {"panel": c.panel, "row": c.row, "col": c.col, **c.key, "action": s["action"],
             "runner_up": s["runner_up"], "close": bool(s["close"]),
             "chart": label(s["action"], s["runner_up"], s["close"]), "value": s["value"], "value_lo": s["value_lo"],
             "value_hi": s["value_hi"], "margin": s["margin"], "margin_lo": s["margin_lo"],
             "margin_hi": s["margin_hi"], "hands": hands, "deals": int(c.deals), "n": hands * int(c.deals),
             "keep": c.keep.get(s["action"], "")}
        for a in data.actions:
            r[f"mean {a}"] = s["means"].get(a, math.nan)
        if c.beside is not None:
            b = cell_stats(c.beside, data.actions)
            r.update({"beside_action": b["action"], "beside_close": bool(b["close"]),
                      "beside_chart": label(b["action"], b["runner_up"], b["close"]), "beside_value": b["value"],
                      "agree": b["action"] == s["action"],
                      "differ_clear": b["action"] != s["action"] and not (s["close"] or b["close"])})
        rows.append(r)
    return pd.DataFrame(rows)


def sizes_text(df: pd.DataFrame) -> str:
    """The sizes of a chart's cells in words: hands per cell and deals per hand, the least n."""
    hands = Counter(int(h) for h in df.hands)
    deals = sorted({int(d) for d in df.deals})
    most = hands.most_common(1)[0][0]
    few = sum(c for h, c in hands.items() if h < most)
    return (f"{len(df)} cells; {most} hands per cell" + (f" ({few} rare classes fewer, at least {min(hands)})"
                                                          if few else "")
            + f", {', '.join(f'{d:,}' for d in deals)} deals per hand: n = {int(df.n.min()):,}"
            + (f" to {int(df.n.max()):,}" if df.n.max() > df.n.min() else "") + " deals per action and cell")
