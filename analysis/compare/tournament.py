"""Running a duplicate tournament (``compare``) and a parameter sweep (``sweep``) on the engine."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from .. import engine
from ..common import TricksimError
from ..stats import holm, t_crit
from .design import _game, appearances, default_extra, design_text, duplicate_params, entrant_specs, n_seats, seating
from .tables import full_verdict, in_order, tables_from_counts


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
    if dup.check is not None:
        dup.check(specs)
    slow = dup.slow(specs) if dup.slow else None
    default = slow[0] if slow else dup.hands
    hands = hands or default
    if hands < 1:
        raise TricksimError(f"the number of deals must be at least 1, got {hands}")
    if until_precision is not None and until_precision <= 0:
        raise TricksimError(f"the precision must be a positive half-width, got {until_precision}")
    if until_precision and hands == default:
        hands = 10 ** 10
    params = duplicate_params(game, specs, seed, rules or game.rules(), extra)
    return engine.Run(dup.study, params, hands, block_size or (slow[1] if slow else dup.block), unit="hands")


def compare(game, names, hands: int | None = None, seed: int = 0, rules=None, user_defs=None, extra=None,
            opts: engine.RunOptions = engine.RunOptions(), until_precision: float | None = None,
            block_size: int | None = None, run=None):
    """Duplicate tournament of the heuristics ``names`` (or HeuristicSpecs).
    Returns {'leaderboard', 'pairs', 'verdict', 'n', 'seconds', 'design', ...}; the
    tables list the entrants in the order given (the run itself does not depend on it)."""
    game = _game(game)
    dup = game.duplicate
    specs = names if names and not isinstance(names[0], str) else entrant_specs(game, names, user_defs)
    k = len(specs)
    rules = rules or game.rules()
    extra = default_extra(game, extra)
    run = run or compare_run(game, specs, hands, seed, rules, extra=extra, until_precision=until_precision,
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
            "playouts_per_deal": kw["playouts"], "layout": dup.layout, "game": game.name}


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


def swept_spec(name: str, param: str, v: float) -> str:
    """The heuristic ``name`` with ``param`` set to ``v`` (``cautious:margin=0.5``, ``x:a=1,margin=0.5``)."""
    base = name if ":" in name else name + ":"
    return f"{base}{'' if base.endswith(':') else ','}{param}={v:g}"


def sweep(game, name, param, values, against="default", hands=None, seed=0, rules=None, user_defs=None, extra=None,
          opts: engine.RunOptions = engine.RunOptions()):
    """Advantage of ``name:param=v`` over ``against`` for each v (same deals for every v; each value's
    tournament in its own sub-folder of ``opts.out``)."""
    rows = []
    for v in values:
        spec = swept_spec(name, param, v)
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


def zero_crossings(df):
    out = []
    v, a = df.value.to_numpy(), df.advantage.to_numpy()
    for i in range(len(a) - 1):
        if a[i] == 0:
            out.append(float(v[i]))
        elif a[i] * a[i + 1] < 0:
            out.append(float(v[i] - a[i] * (v[i + 1] - v[i]) / (a[i + 1] - a[i])))
    return out


def sign_changes(df) -> list[dict]:
    """The zero crossings of a sweep's advantage, each with whether the data establish it.  A crossing
    of the point estimates between two adjacent values is *established* when the nearest values on
    its two sides that differ significantly from 0 (the 'significant' column, Holm-adjusted, else the
    95% interval excluding 0) lie on opposite sides of 0: the sign change then lies between them
    (``between``).  Otherwise the advantage near the crossing cannot be told from 0 and no crossing
    should be named.  Returns dicts {"at", "between", "established"}."""
    v = df.value.to_numpy(float)
    a = df.advantage.to_numpy(float)
    if "significant" in df:
        sig = df.significant.to_numpy(bool)
    else:
        ci = df.ci.to_numpy(float)
        sig = np.abs(a) > np.where(ci == ci, ci, np.inf)
    sgn = np.where(sig, np.sign(a), 0.0)
    out = []
    for x in zero_crossings(df):
        left = [i for i in range(len(v)) if v[i] <= x and sgn[i] != 0]
        right = [i for i in range(len(v)) if v[i] >= x and sgn[i] != 0]
        i = left[-1] if left else None
        j = right[0] if right else None
        ok = i is not None and j is not None and sgn[i] * sgn[j] < 0
        out.append({"at": float(x), "between": (float(v[i]), float(v[j])) if ok else None, "established": bool(ok)})
    return out
