"""A tournament's tables from its block counts: leaderboard and pairwise differences with Student-t
intervals (stratified by round, Satterthwaite degrees of freedom), Holm-adjusted p-values, the
gains of the replays, and the verdict in words."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ...kernels.tally import block_layout, metric_layout, pairs_layout, rounds_layout
from ..output import p_text, pm
from ..stats import holm, pair_row, t_crit, t_two_sided_p

MIN_DEALS = 30        # below this many deals (or 2 deals in some round) no interval, no p-value: "too few deals"


def _split(counts, k, metrics, nround, layout):
    """Per metric: (n_c[R], S[R, k], Q[R, k, k], P[R, k, k], M[R*k, k] or None), unpacked by name from the
    kernel's layout (kernels/tally.py: ``rounds_layout``, or ``pairs_layout`` for ``layout == "pairs"``)."""
    counts = np.asarray(counts, float)
    blk = block_layout(k)
    out = []
    if layout == "pairs":        # Boomke Wies: S, Q, P per metric, all deals alike
        for m in pairs_layout(k, metrics).unpack(counts).values():
            b = blk.unpack(m)
            out.append((None, b["S"][None], b["Q"][None], b["P"][None], None))
        return out
    fields = rounds_layout(k, nround, metrics).unpack(counts)
    n_c = fields["deals"]
    for mi in metrics:
        m = metric_layout(k, nround).unpack(fields[mi])
        rounds = m["blocks"]                                      # [round, block]
        out.append((n_c, rounds[:, blk.slice("S")], rounds[:, blk.slice("Q")].reshape(nround, k, k),
                    rounds[:, blk.slice("P")].reshape(nround, k, k), m["M"]))
    return out


def _satterthwaite(g, n_c):
    """Degrees of freedom of sum_c g_c (g_c = a variance term estimated on n_c - 1 df)."""
    num = g.sum() ** 2
    den = (g ** 2 / np.maximum(n_c - 1, 1)).sum()
    return float(num / den) if den > 0 else float(max(n_c.sum() - len(n_c), 1))


def tables_from_counts(counts, n, k, appearances, labels, metrics, nround=1, playouts=None, layout="rounds"):
    """Leaderboard and pairwise tables (per metric) from the block counts.

    ``appearances`` = each entrant's seats per deal (u), ``playouts`` = playouts per deal
    (L).  Means are stratified by round; intervals are 95% Student-t intervals
    (Satterthwaite df), unadjusted; p-values two-sided t, Holm-adjusted in ``p_holm``.
    ``variance_reduction`` = how many times more deals, and ``gain_per_playout`` how many
    times more playouts (compute), a design without replays would need for the same
    interval width: each playout on its own fresh deal, the same seatings taken in turn
    (stratified), the cheapest honest alternative."""
    u = np.asarray(appearances, float)
    L = float(playouts if playouts is not None else k)
    w = u / L                                      # seats per playout
    boards, pairs = [], []
    for metric, (n_c, S, Q, P, M) in zip(metrics, _split(counts, k, metrics, nround, layout)):
        if n_c is None:
            n_c = np.array([float(n)])
        R = len(n_c)
        ntot = float(n_c.sum())
        ok = ntot >= MIN_DEALS and n_c.min() >= 2
        with np.errstate(invalid="ignore", divide="ignore"):
            mean_c = S / (n_c[:, None] * u[None, :])                                   # [R, k]
            cov_c = (Q / np.outer(u, u)[None] - n_c[:, None, None] * mean_c[:, :, None] * mean_c[:, None, :]) \
                / np.maximum(n_c - 1, 1)[:, None, None]                                # [R, k, k]
        have = n_c > 0
        mean = mean_c[have].mean(axis=0) if have.any() else np.full(k, math.nan)
        for h in range(k):
            g = cov_c[:, h, h] / np.maximum(n_c, 1) / R ** 2
            var = max(float(g.sum()), 0.0)
            if ok:
                df = _satterthwaite(np.maximum(g, 0), n_c)
                half = float(t_crit(df)) * math.sqrt(var)
            else:
                df, half = math.nan, math.nan
            boards.append({"metric": metric, "heuristic": labels[h], "mean": mean[h], "ci": half, "df": df,
                           "n_deals": int(ntot), "seat_appearances_per_deal": u[h]})
        rows = []
        for a in range(k):
            for b in range(a + 1, k):
                d = float(mean[a] - mean[b])
                v_c = np.maximum(cov_c[:, a, a] + cov_c[:, b, b] - 2 * cov_c[:, a, b], 0.0)
                g = v_c / np.maximum(n_c, 1) / R ** 2
                var = float(g.sum())
                # the alternative without replays: per seating s, Z_s = Y_a/w_a - Y_b/w_b on fresh deals
                e2 = (P[:, a, a] / w[a] ** 2 + P[:, b, b] / w[b] ** 2 - 2 * P[:, a, b] / (w[a] * w[b])) \
                    / np.maximum(n_c, 1)                                               # sum over the round's seatings of E Z^2
                if M is not None:
                    z = (M[:, a] / w[a] - M[:, b] / w[b]).reshape(R, -1) / np.maximum(n_c, 1)[:, None]
                    wvar = ((e2 - (z ** 2).sum(axis=1)) * n_c / np.maximum(n_c - 1, 1)).sum() / (R * L)
                else:            # every deal plays every seating: no per-seating means, the unstratified variance
                    wvar = (e2.sum() / L - d * d) * ntot / max(ntot - 1, 1)
                wvar = max(float(wvar), 0.0)
                if not ok:
                    ci, p, df = math.nan, math.nan, math.nan
                elif var > 0:
                    df = _satterthwaite(g, n_c)
                    ci = float(t_crit(df)) * math.sqrt(var)
                    p = t_two_sided_p(d / math.sqrt(var), df)
                else:
                    df, ci, p = float(ntot - R), 0.0, (1.0 if d == 0 else 0.0)
                vd = float((v_c * n_c).sum() / ntot)                                    # per-deal variance, pooled
                rows.append({"metric": metric, "a": labels[a], "b": labels[b], "diff": d, "ci": ci, "df": df, "p": p,
                             "effect_size_dz": d / math.sqrt(vd) if vd > 0 else math.nan,
                             # no gain without an interval: both variances are unreliable below MIN_DEALS
                             "variance_reduction": wvar / ntot / var if ok and var > 0 else math.nan,
                             "gain_per_playout": wvar / (ntot * L) / var if ok and var > 0 else math.nan,
                             "playouts_per_deal": L, "n_deals": int(ntot)})
        if rows:
            adj = holm([r["p"] for r in rows])
            for r, pa in zip(rows, adj):
                r["p_holm"] = pa
                r["significant"] = bool(pa < 0.05)
        pairs.extend(rows)
    return pd.DataFrame(boards), pd.DataFrame(pairs)


def in_order(board, pairs, labels):
    """The tables with the entrants in the order ``labels`` (pairs a < b in that order; a
    pair given the other way round has its difference negated, exactly)."""
    pos = {x: i for i, x in enumerate(labels)}
    mpos = {m: i for i, m in enumerate(dict.fromkeys(board.metric))}
    b = (board.assign(_m=board.metric.map(mpos), _o=board.heuristic.map(pos))
         .sort_values(["_m", "_o"], kind="stable").drop(columns=["_m", "_o"]).reset_index(drop=True))
    p = pairs.copy()
    if len(p):
        flip = (p.a.map(pos) > p.b.map(pos)).to_numpy()
        a, bb = p.a.to_numpy().copy(), p.b.to_numpy().copy()
        p["a"] = np.where(flip, bb, a)
        p["b"] = np.where(flip, a, bb)
        for col in ("diff", "effect_size_dz"):
            p[col] = np.where(flip, -p[col].to_numpy(), p[col].to_numpy())
        p = (p.assign(_m=p.metric.map(mpos), _a=p.a.map(pos), _b=p.b.map(pos))
             .sort_values(["_m", "_a", "_b"], kind="stable").drop(columns=["_m", "_a", "_b"]).reset_index(drop=True))
    return b, p


def verdict(board: pd.DataFrame, pairs: pd.DataFrame, metric: str, unit: str) -> str:
    b = board[board.metric == metric].copy()
    b["_l"] = b.heuristic
    b = b.sort_values(["mean", "_l"], ascending=[False, True])         # ties: by label, never by the order given
    p = pairs[pairs.metric == metric]
    names = list(b.heuristic)
    n = int(b.n_deals.iloc[0]) if len(b) else 0
    if len(p) and p["p"].isna().all():
        return f"too few deals ({n:,}) for an interval or a test (at least {MIN_DEALS}, and 2 in every round of the design)."

    def pair(x, y):
        r, sign = pair_row(p, x, y)
        return sign * r["diff"], r["ci"], r["p_holm"], r["significant"]

    lines = []
    for x, y in zip(names, names[1:]):
        d, ci, pa, sig = pair(x, y)
        if sig:
            lines.append(f"{x} beats {y} by {pm(d, ci, 3, sign=False)} {unit} (unadjusted 95% CI; Holm-adjusted {p_text(pa)}).")
        else:
            lines.append(f"{x} and {y} are not significantly different ({pm(d, ci, 3)} {unit}, unadjusted 95% CI; "
                         f"Holm-adjusted {p_text(pa)}).")
    if len(names) > 2:
        last = names[-1]
        if all(pair(o, last)[3] and pair(o, last)[0] > 0 for o in names[:-1]):
            lines.append(f"{last} is worst.")
        first = names[0]
        if all(pair(first, o)[3] and pair(first, o)[0] > 0 for o in names[1:]):
            lines.append(f"{first} is best.")
    return " ".join(lines)


MONEY = {"stakes": "stakes per deal"}   # metrics that are money, beside the game's points


def full_verdict(board: pd.DataFrame, pairs: pd.DataFrame, metrics, unit: str, money_units=None) -> str:
    """The verdict on the points and, where the game settles in money (Boulmous stakes), on the money
    too: both rankings are named, and a disagreement between them is said (``money_units``: the money
    metrics' units when not ``MONEY``'s, e.g. per game)."""
    units = money_units or MONEY
    text = verdict(board, pairs, metrics[0], unit)
    money = [m for m in metrics[1:] if m in units]
    p = pairs[pairs.metric == metrics[0]]
    if not money or (len(p) and p["p"].isna().all()):   # no money, or too few deals for any test
        return text

    def ranking(m):
        b = board[board.metric == m].assign(_l=lambda x: x.heuristic)
        return list(b.sort_values(["mean", "_l"], ascending=[False, True]).heuristic)

    out = f"By {metrics[0]}: {text}"
    for m in money:
        out += f" By money ({units[m]}): {verdict(board, pairs, m, units[m])}"
        if ranking(m) != ranking(metrics[0]):
            out += (f" The rankings differ: by {metrics[0]} {' > '.join(ranking(metrics[0]))}; "
                    f"by money {' > '.join(ranking(m))}.")
    return out


def _pfmt(p):
    """A p-value in a table cell under a "p" header: ``0.031``-like, ``<1e-16``, ``-`` when none."""
    if p != p:
        return "-"
    return "<1e-16" if p < 1e-16 else f"{p:.2g}"
