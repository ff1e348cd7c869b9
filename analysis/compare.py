"""Heuristic comparison: duplicate tournaments on the one block engine.

The design (``design``; Boulmous and Bourre): the entrants take the seats in the
repeating pattern 1, 2, ..., k, 1, 2, ... and the design holds every assignment of the
entrants to that pattern (all k! of them, as a set), so every entrant sits in every
seat, and meets every other entrant in every relative seat, equally often, whatever the
order in which the names were given.  These seatings are cut into rounds of k: a round
shifts the entrants cyclically (entrant i+j mod k where the pattern has i), so it puts
every entrant in every seat once.  Every deal (same deal index: the same cards) is
replayed once per seating of one round (k playouts per deal: the luck of the cards
cancels in the paired differences), and the rounds take turns over the deals (Boulmous:
four deals at a time, one per dealer).  Means are stratified by round (every round
weighs the same), so the design is exactly balanced for any number of deals.  Boomke
Wies plays every ordered pair of entrants (a in seats 0 and 2, b in 1 and 3) on every deal.

A game's ``Game.duplicate`` (analysis/game.py) names its block function, returning exact
integer counts: per round the number of deals, and per metric of ``Duplicate.metrics`` the sums
S[h] = sum_d X_h(d), Q[a, b] = sum_d X_a(d) X_b(d) (X_h(d) = the metric summed over
entrant h's seat appearances in deal d), the per-playout cross products P and sums M
(what a design without replays would face); ``appearances`` gives each entrant's seats
per deal.  All of it is exact integer counts, so any thread count,
block size or backend gives the same numbers; and the entrants are put in a canonical
order (sorted by label) before the run, so any order of the names gives the same run,
and tables identical to the last digit.
"""
from __future__ import annotations

import functools
import itertools
import math
from pathlib import Path
from typing import Iterator

import numpy as np
import pandas as pd

from tricksim.analysis import engine
from tricksim.analysis.common import TricksimError, rules_dict
from tricksim.analysis.stats import holm, t_crit, t_two_sided_p

MIN_DEALS = 30        # below this many deals (or 2 deals in some round) no interval, no p-value: "too few deals"


def _game(game):
    from tricksim.analysis.registry import get
    return game if not isinstance(game, str) else get(game)


# ---------------------------------------------------------------------------
# the seating design
# ---------------------------------------------------------------------------
@functools.lru_cache(maxsize=64)
def _design(k: int, n_seats: int):
    base = tuple(s % k for s in range(n_seats))
    orbit = sorted({tuple(p[x] for x in base) for p in itertools.permutations(range(k))})
    rounds, seen = [], set()
    for sig in orbit:
        if sig in seen:
            continue
        rnd = [tuple((x + j) % k for x in sig) for j in range(k)]
        seen.update(rnd)
        rounds.append(rnd)
    return tuple(s for r in rounds for s in r), len(rounds)


def design(k: int, n_seats: int):
    """The balanced seating design of k entrants at ``n_seats`` seats: (ids, nround) with
    ids int64[nround * k, n_seats] = the entrant of each seat, round c in rows c*k..c*k+k-1.
    The rows are every assignment of the entrants to the pattern s -> s mod k (each
    once), grouped in rounds that shift the entrants cyclically, so a round puts every
    entrant in every seat once and the whole design puts every ordered pair of entrants
    in every ordered pair of seats equally often."""
    if k < 2:
        raise TricksimError("compare needs at least two heuristics")
    rows, nround = _design(int(k), int(n_seats))
    return np.array(rows, np.int64), nround


def n_seats(game, params=None) -> int:
    """The seats of a tournament's table (a variable table: ``params['players']``)."""
    game = _game(game)
    return game.check_players((params or {}).get("players")) if game.variable_table else game.seats


def seating(game, k: int, params=None):
    """The seating design of k entrants at this game's table (``design``), refusing more entrants
    than the game takes."""
    game = _game(game)
    top = game.duplicate.max_entrants
    if top is not None and not 2 <= k <= top:
        raise TricksimError(f"compare takes 2 to {top} heuristics at a time for {game.title}, got {k}")
    return design(k, n_seats(game, params))


def appearances(game, k: int, params=None) -> np.ndarray:
    """Each entrant's seat appearances per deal: ``rounds``, a round puts every entrant in every seat
    once (the table's seats); ``pairs``, every ordered pair of entrants plays the deal (a in seats 0
    and 2, b in 1 and 3): 4(k-1)."""
    game = _game(game)
    if game.duplicate.layout == "pairs":
        return np.full(k, 4.0 * (k - 1))
    seating(game, k, params)
    return np.full(k, float(n_seats(game, params)))


def design_text(game, k: int, n_seats: int) -> str:
    game = _game(game)
    if game.duplicate.layout == "pairs":
        return (f"every deal is played {k * (k - 1)} times on the same cards, once per ordered pair of entrants "
                "(one partnership in seats 0 and 2, the other in 1 and 3): every entrant meets every other from both "
                f"sides; {k * (k - 1)} playouts per deal")
    ids, nround = design(k, n_seats)
    return (f"the entrants take the {n_seats} seats in the repeating pattern 1..{k}, and all {len(ids)} "
            f"assignments of the names to that pattern are played, in {nround} round{'s' if nround > 1 else ''} of {k} "
            "(a round shifts the names one place along the pattern: every entrant in every seat once); every deal is "
            f"replayed on the same cards once per seating of one round ({k} playouts per deal); the rounds take turns "
            f"over the deals{game.duplicate.dealer_note} and weigh the same "
            "(means stratified by round): every entrant meets every other in every relative seat equally often, "
            "whatever the order of the names")


def entrant_specs(game, names, user_defs=None):
    game = _game(game)
    specs = [game.parse_heuristic(h, user_defs) for h in names]
    labels = [s.label for s in specs]
    if len(set(labels)) != len(labels):
        raise TricksimError(f"each heuristic may be named once; got {', '.join(labels)}")
    return specs


def canonical(specs):
    """The entrants in the order the run uses (sorted by label): the order of the names
    given does not change the run."""
    return sorted(specs, key=lambda s: s.label)


def default_extra(game, extra=None):
    """The game's run settings with the defaults filled in (one default for the CLI and the API)."""
    game = _game(game)
    extra = dict(extra or {})
    if game.variable_table:
        extra["players"] = game.check_players(extra.get("players"))
    return extra


def duplicate_params(game, specs, seed, rules, extra=None):
    return {"seed": int(seed), "rules": rules_dict(rules),
            "entrants": [[s.name, dict(s.values), s.label] for s in canonical(specs)],
            **default_extra(game, extra)}


# ---------------------------------------------------------------------------
# tables
# ---------------------------------------------------------------------------
def _split(counts, k, metrics, nround, layout):
    """Per metric: (n_c[R], S[R, k], Q[R, k, k], P[R, k, k], M[R*k, k] or None)."""
    counts = np.asarray(counts, float)
    kk = k * k
    out = []
    if layout == "pairs":        # Boomke Wies: S, Q, P per metric, all deals alike
        w = k + 2 * kk
        for mi in range(len(metrics)):
            blk = counts[mi * w:(mi + 1) * w]
            out.append((None, blk[:k][None], blk[k:k + kk].reshape(1, k, k), blk[k + kk:].reshape(1, k, k), None))
        return out
    per = k + 2 * kk
    wm = nround * per + nround * kk
    n_c = counts[:nround]
    for mi in range(len(metrics)):
        base = nround + mi * wm
        blk = counts[base:base + nround * per].reshape(nround, per)
        M = counts[base + nround * per:base + wm].reshape(nround * k, k)
        out.append((n_c, blk[:, :k], blk[:, k:k + kk].reshape(nround, k, k), blk[:, k + kk:].reshape(nround, k, k), M))
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
                             "variance_reduction": wvar / ntot / var if var > 0 else math.nan,
                             "gain_per_playout": wvar / (ntot * L) / var if var > 0 else math.nan,
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
        r = p[((p.a == x) & (p.b == y)) | ((p.a == y) & (p.b == x))].iloc[0]
        sign = 1 if r.a == x else -1
        return sign * r["diff"], r["ci"], r["p_holm"], r["significant"]

    lines = []
    for x, y in zip(names, names[1:]):
        d, ci, pa, sig = pair(x, y)
        if sig:
            lines.append(f"{x} beats {y} by {d:.3f} ± {ci:.3f} {unit} (unadjusted 95% CI; Holm-adjusted p = {_pfmt(pa)}).")
        else:
            lines.append(f"{x} and {y} are not significantly different ({d:+.3f} ± {ci:.3f} {unit}, unadjusted 95% CI; "
                         f"Holm-adjusted p = {_pfmt(pa)}).")
    if len(names) > 2:
        last = names[-1]
        if all(pair(o, last)[3] and pair(o, last)[0] > 0 for o in names[:-1]):
            lines.append(f"{last} is worst.")
        first = names[0]
        if all(pair(first, o)[3] and pair(first, o)[0] > 0 for o in names[1:]):
            lines.append(f"{first} is best.")
    return " ".join(lines)


MONEY = {"stakes": "stakes per deal"}   # metrics that are money, beside the game's points


def full_verdict(board: pd.DataFrame, pairs: pd.DataFrame, metrics, unit: str) -> str:
    """The verdict on the points and, where the game settles in money (Boulmous stakes), on the money
    too: both rankings are named, and a disagreement between them is said."""
    text = verdict(board, pairs, metrics[0], unit)
    money = [m for m in metrics[1:] if m in MONEY]
    p = pairs[pairs.metric == metrics[0]]
    if not money or (len(p) and p["p"].isna().all()):   # no money, or too few deals for any test
        return text

    def ranking(m):
        b = board[board.metric == m].assign(_l=lambda x: x.heuristic)
        return list(b.sort_values(["mean", "_l"], ascending=[False, True]).heuristic)

    out = f"By {metrics[0]}: {text}"
    for m in money:
        out += f" By money ({MONEY[m]}): {verdict(board, pairs, m, MONEY[m])}"
        if ranking(m) != ranking(metrics[0]):
            out += (f" The rankings differ: by {metrics[0]} {' > '.join(ranking(metrics[0]))}; "
                    f"by money {' > '.join(ranking(m))}.")
    return out


def compare_run(game, names, hands: int | None = None, seed: int = 0, rules=None, user_defs=None, extra=None,
                until_precision: float | None = None, block_size: int | None = None):
    """The run of ``compare``: what names its folder and what it executes.  ``hands``: the game's
    default when None; with ``until_precision`` and the default, the precision decides (the run
    asks for 10^10 deals and stops)."""
    game = _game(game)
    dup = game.duplicate
    specs = names if names and not isinstance(names[0], str) else entrant_specs(game, names, user_defs)
    if len(specs) < 2:
        raise TricksimError("compare needs at least two heuristics")
    hands = hands or dup.hands
    if hands < 1:
        raise TricksimError(f"the number of deals must be at least 1, got {hands}")
    if until_precision is not None and until_precision <= 0:
        raise TricksimError(f"the precision must be a positive half-width, got {until_precision}")
    if until_precision and hands == dup.hands:
        hands = 10 ** 10
    params = duplicate_params(game, specs, seed, rules or game.rules(), extra)
    return engine.Run(dup.study, params, hands, block_size or dup.block, unit="hands")


def compare(game, names, hands: int | None = None, seed: int = 0, rules=None, user_defs=None, extra=None,
            opts: engine.RunOptions = engine.RunOptions(), until_precision: float | None = None,
            block_size: int | None = None):
    """Duplicate tournament of the heuristics ``names`` (or HeuristicSpecs).
    Returns {'leaderboard', 'pairs', 'verdict', 'n', 'seconds', 'design', ...}; the
    tables list the entrants in the order given (the run itself does not depend on it)."""
    game = _game(game)
    dup = game.duplicate
    specs = names if names and not isinstance(names[0], str) else entrant_specs(game, names, user_defs)
    k = len(specs)
    rules = rules or game.rules()
    extra = default_extra(game, extra)
    run = compare_run(game, specs, hands, seed, rules, extra=extra, until_precision=until_precision,
                      block_size=block_size)
    params = run.params
    run_labels = [lab for _, _, lab in params["entrants"]]
    labels = [s.label for s in specs]
    app = appearances(game, k, params)
    seats = n_seats(game, params)
    if dup.layout == "pairs":
        kw = {"nround": 1, "playouts": k * (k - 1), "layout": "pairs"}
    else:
        _, nround = seating(game, k, params)
        kw = {"nround": nround, "playouts": k, "layout": "rounds"}
    metrics = list(dup.metrics)
    def precise(acc, n):
        if n < 1000:
            return False
        bd, pr = tables_from_counts(acc, n, k, app, run_labels, metrics, **kw)
        cis = list(bd.ci) + list(pr.ci if len(pr) else [])
        return bool(all(c == c for c in cis) and max(cis) <= until_precision)
    r = opts.execute(run, precise if until_precision else None)
    board, pairs = tables_from_counts(r.counts, r.n, k, app, run_labels, metrics, **kw)
    board, pairs = in_order(board, pairs, labels)
    return {"leaderboard": board, "pairs": pairs, "verdict": full_verdict(board, pairs, metrics, dup.unit),
            "n": r.n, "seconds": r.seconds, "metrics": metrics, "unit": dup.unit, "labels": labels,
            "stopped_early": r.stopped_early, "run": run, "out": opts.out, "design": design_text(game, k, seats),
            "playouts_per_deal": kw["playouts"]}


def sweep_values(text: str):
    """'margin=0:2:0.1' -> ('margin', [0, 0.1, ..., 2]); also 'p=1,2,5'."""
    if "=" not in text:
        raise TricksimError(f"--param expects NAME=start:stop:step or NAME=v1,v2,..., got {text!r}")
    name, spec = text.split("=", 1)
    try:
        if ":" in spec:
            a, b, s = (float(x) for x in spec.split(":"))
            if s <= 0 or b < a:
                raise ValueError
            nval = int(math.floor((b - a) / s + 1e-9)) + 1
            vals = [round(a + i * s, 10) for i in range(nval)]
        else:
            vals = [float(x) for x in spec.split(",")]
    except ValueError:
        raise TricksimError(f"--param {text!r}: expected NAME=start:stop:step with step > 0 and stop >= start") from None
    if len(vals) > 200:
        raise TricksimError(f"--param {text!r} gives {len(vals)} values; at most 200")
    return name.strip(), vals


def sweep(game, name, param, values, against="default", hands=None, seed=0, rules=None, user_defs=None, extra=None,
          opts: engine.RunOptions = engine.RunOptions()):
    """Advantage of ``name:param=v`` over ``against`` for each v (same deals for every v; each value's
    tournament in its own sub-folder of ``opts.out``)."""
    rows = []
    base = name if ":" in name else name + ":"
    for v in values:
        spec = f"{base}{',' if not base.endswith(':') else ''}{param}={v:g}"
        res = compare(game, [spec, against], hands=hands, seed=seed, rules=rules, user_defs=user_defs, extra=extra,
                      opts=opts.sub(f"{param}={v:g}"))
        pr = res["pairs"]
        p0 = pr[pr.metric == res["metrics"][0]].iloc[0]
        rows.append({"param": param, "value": v, "advantage": p0["diff"], "ci": p0["ci"], "df": p0["df"], "p": p0["p"],
                     "n_deals": res["n"]})
    df = pd.DataFrame(rows)
    if len(df) > 1:
        df["p_holm"] = holm(df.p)
    else:
        df["p_holm"] = df.p
    df["significant"] = df.p_holm < 0.05
    return df


def best_value(df, level: float = 0.95) -> dict:
    """The value with the largest advantage, and whether the sample can tell it from the
    others: simultaneous intervals (Bonferroni over the V values, each at 1 - (1-level)/V,
    valid whatever the dependence between values: they play the same deals) bound every
    advantage at once, so they also bound the gap between any two values, including the
    best and the runner-up picked from the data.  ``distinguishable`` = the best value's
    lower bound is above every other value's upper bound; ``contenders`` = the values whose
    upper bound reaches the best value's lower bound (the best among them)."""
    V = len(df)
    if V == 0:
        raise TricksimError("empty sweep")
    adv = df.advantage.to_numpy(float)
    order = np.argsort(-adv, kind="stable")
    i = int(order[0])
    alpha = (1.0 - level) / V
    lo, hi = [], []
    for r in df.itertuples():
        if r.ci != r.ci or r.df != r.df:
            lo.append(math.nan)
            hi.append(math.nan)
            continue
        half = r.ci * (float(t_crit(r.df, 1.0 - alpha)) / float(t_crit(r.df, 0.95)) if r.ci > 0 else 0.0)
        lo.append(r.advantage - half)
        hi.append(r.advantage + half)
    lo, hi = np.array(lo), np.array(hi)
    out = {"value": float(df.value.iloc[i]), "advantage": float(adv[i]), "ci": float(df.ci.iloc[i]),
           "sim_lo": float(lo[i]), "sim_hi": float(hi[i]), "level": level, "n_values": V}
    if V == 1:
        out.update(runner_up=None, gap=math.nan, gap_lo=math.nan, gap_hi=math.nan, distinguishable=None,
                   contenders=[out["value"]])
        return out
    j = int(order[1])
    known = not (np.isnan(lo).any() or np.isnan(hi).any())
    others = [x for x in range(V) if x != i]
    out.update(runner_up=float(df.value.iloc[j]), gap=float(adv[i] - adv[j]),
               gap_lo=float(lo[i] - hi[j]), gap_hi=float(hi[i] - lo[j]),
               distinguishable=bool(known and all(lo[i] > hi[x] for x in others)) if known else None,
               contenders=[float(df.value.iloc[x]) for x in order if x == i or (known and hi[x] >= lo[i])]
               if known else [float(v) for v in df.value])
    return out


def render_best(best: dict, param: str, unit: str) -> str:
    s = f"largest advantage: {param} = {best['value']:g} ({best['advantage']:+.3f} ± {best['ci']:.3f} {unit})"
    if best["runner_up"] is None:
        return s
    if best["distinguishable"] is None:
        return s + "; too few deals to tell the values apart"
    s += (f"; gap to the runner-up ({param} = {best['runner_up']:g}): {best['gap']:+.3f}, "
          f"{100 * best['level']:g}% simultaneous interval [{best['gap_lo']:+.3f}, {best['gap_hi']:+.3f}] "
          f"(Bonferroni over the {best['n_values']} values). ")
    if best["distinguishable"]:
        s += f"Best value: {param} = {best['value']:g} (its interval lies above every other value's)."
    else:
        s += (f"No single best value: {param} in {{{', '.join(f'{v:g}' for v in best['contenders'])}}} "
              "cannot be told apart from the largest.")
    return s


def zero_crossings(df):
    out = []
    v, a = df.value.to_numpy(), df.advantage.to_numpy()
    for i in range(len(a) - 1):
        if a[i] == 0:
            out.append(float(v[i]))
        elif a[i] * a[i + 1] < 0:
            out.append(float(v[i] - a[i] * (v[i + 1] - v[i]) / (a[i + 1] - a[i])))
    return out


# ---------------------------------------------------------------------------
# views and commands (cli.py prints what the commands yield; they write the run folder)
# ---------------------------------------------------------------------------
def _ci_text(m, c, digits=3):
    if m != m:
        return "-"
    if c != c:
        return f"{m:+.{digits}f} (too few deals)"
    return f"{m:+.{digits}f} ± {c:.{digits}f}"


def render_compare(res) -> str:
    unit = res["unit"]
    L = res.get("playouts_per_deal")
    lines = [f"Duplicate tournament, {res['n']:,} deals"
             + (f", {L} playouts per deal ({res['n'] * L:,} playouts)" if L else "")]
    if res.get("design"):
        lines.append("design: " + res["design"])
    for metric in res["metrics"]:
        b = res["leaderboard"]
        b = b[b.metric == metric].assign(_l=lambda x: x.heuristic).sort_values(["mean", "_l"], ascending=[False, True])
        lines.append(f"\nleaderboard ({metric}, mean per deal per seat, unadjusted 95% CI):")
        lines.append(pd.DataFrame({"heuristic": b.heuristic, metric: [_ci_text(m, c) for m, c in zip(b["mean"], b.ci)],
                                   "n deals": [f"{x:,}" for x in b.n_deals]}).to_string(index=False))
        p = res["pairs"]
        p = p[p.metric == metric]
        if len(p):
            lines.append(f"pairwise differences ({metric}; 95% CI and p unadjusted; 'p Holm' and 'significant' "
                         "Holm-adjusted over the pairs at 5%):")
            lines.append(pd.DataFrame({"a": p.a, "b": p.b, "a - b": [_ci_text(d, c) for d, c in zip(p["diff"], p.ci)],
                                       "p": [_pfmt(x) for x in p.p], "p Holm": [_pfmt(x) for x in p.p_holm],
                                       "significant": p.significant,
                                       "gain/deal": [f"{x:.2f}x" if x == x else "-" for x in p.variance_reduction],
                                       "gain/playout": [f"{x:.2f}x" if x == x else "-" for x in p.gain_per_playout]}
                                      ).to_string(index=False))
    lines.append("\nverdict: " + res["verdict"])
    lines.append("('gain/deal' = how many times more deals, 'gain/playout' how many times more playouts (compute), a "
                 "design without replays would need for the same interval width: every playout on its own fresh deal, "
                 "the same seatings taken in turn; below 1x the replays cost more than they save. "
                 f"unit: {unit})")
    return "\n".join(lines)


def write_compare(res, out: Path, command: str):
    from tricksim.analysis.output import write_table
    from tricksim.analysis.plots import leaderboard_plot
    write_table(res["leaderboard"], out, "leaderboard")
    write_table(res["pairs"], out, "pairs")
    leaderboard_plot(res["leaderboard"], res["metrics"][0], res["unit"], out / "leaderboard.png", res["n"])
    from tricksim.analysis import __version__
    run = res["run"]
    p = run.params
    md = [f"# Heuristic comparison\n", f"Regenerate: `{command}`\n",
          f"- tricksim {__version__}, seed {p['seed']}, {res['n']:,} deals ({'stopped at the requested precision' if res['stopped_early'] else 'as requested'})",
          "- heuristics: " + ", ".join(f"`{lab}` = {name} {vals}" for name, vals, lab in p["entrants"]),
          "- rules: " + ", ".join(f"{k}={v}" for k, v in p["rules"].items()),
          f"- design: {res.get('design', '')}.",
          "- intervals: 95% Student-t intervals of the per-deal paired differences, unadjusted; p-values two-sided, "
          "and Holm-adjusted over the pairs for 'significant'.\n",
          "```", render_compare(res), "```", "\n![leaderboard](leaderboard.png)\n"]
    (Path(out) / "report.md").write_text("\n".join(md))


def compare_command(game, names, hands: int | None = None, seed: int = 0, rules=None, user_defs=None,
                    players: int | None = None, until_precision: float | None = None,
                    opts: engine.RunOptions = engine.RunOptions()) -> Iterator[str]:
    """``tricksim compare GAME NAMES...``: writes the run folder (tables, plot, report.md) and yields
    the text to print."""
    from tricksim.analysis.output import with_folder
    game = _game(game)
    rules = rules or game.rules()
    extra = default_extra(game, {"players": players} if game.variable_table else None)
    specs = entrant_specs(game, names, user_defs)
    opts = with_folder(opts, game.key, "compare", compare_run(game, specs, hands, seed, rules, extra=extra,
                                                              until_precision=until_precision))
    res = compare(game, specs, hands=hands, seed=seed, rules=rules, extra=extra, opts=opts,
                  until_precision=until_precision)
    yield render_compare(res)
    write_compare(res, opts.out, res["run"].command)
    yield f"\ntables, plot and report in {opts.out}"


def sweep_command(game, name: str, param: str, against: str = "default", hands: int | None = None, seed: int = 0,
                  rules=None, user_defs=None, players: int | None = None,
                  opts: engine.RunOptions = engine.RunOptions()) -> Iterator[str]:
    """``tricksim sweep GAME NAME --param P=a:b:s``: writes the run folder (table, plot) and yields the
    text to print."""
    from tricksim.analysis.output import with_folder, write_table
    from tricksim.analysis.plots import sweep_edge_note, sweep_plot
    game = _game(game)
    rules = rules or game.rules()
    extra = default_extra(game, {"players": players} if game.variable_table else None)
    unit = game.duplicate.unit
    param_name, values = sweep_values(param)
    # validate the heuristic and parameter up front
    base = game.parse_heuristic(name, user_defs)
    for v in values:
        game.parse_heuristic(name + ("," if ":" in name else ":") + f"{param_name}={v:g}", user_defs)
    game.parse_heuristic(against, user_defs)
    hands = hands or game.duplicate.hands // 4
    import hashlib
    key = hashlib.sha256(repr((game.name, base.label, param, against, seed, hands)).encode()).hexdigest()
    opts = with_folder(opts, game.key, "sweep", key)
    df = sweep(game, name, param_name, values, against=against, hands=hands, seed=seed, rules=rules,
               user_defs=user_defs, extra=extra, opts=opts)
    write_table(df, opts.out, "sweep")
    best = best_value(df)
    zc = zero_crossings(df)
    default = dict(base.values).get(param_name)   # the value the named heuristic plays without the sweep
    sweep_plot(df, opts.out / "sweep.png", f"{name} vs {against}: advantage by {param_name}", unit,
               best["value"], zc, default=default)
    yield (f"Sweep of {param_name} for {name} against {against}, {hands:,} duplicate deals per value "
           f"(the same deals for every value)")
    yield pd.DataFrame({param_name: df.value,
                        "advantage (unadjusted 95% CI)": [_ci_text(a, c) for a, c in zip(df.advantage, df.ci)],
                        "p Holm": [_pfmt(x) for x in df.p_holm], "significant (Holm)": df.significant}
                       ).to_string(index=False)
    yield render_best(best, param_name, unit)
    yield "zero crossings: " + (", ".join(f"{x:.3g}" for x in zc) if zc else "none")
    if default is not None:
        yield f"{name} plays {param_name} = {default:g} when not swept"
    edge = sweep_edge_note(df.value, best["value"])
    if edge:
        yield f"warning: {edge}"
    yield (f"('advantage' = mean {unit} of {name} with {param_name} = value minus {against}, on the "
           "same deals with the seats rotated; 'p Holm' and 'significant' are Holm-adjusted over the values)")
    yield f"\ntable and plot in {opts.out}"


def _pfmt(p):
    if p != p:
        return "-"
    return "<1e-16" if p < 1e-16 else f"{p:.2g}"
