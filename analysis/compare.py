"""Heuristic comparison: duplicate tournaments on the one block engine.

Every deal (same deal index, so the same cards and the same decision stream) is
replayed with the entrants rotated through the seats (common random numbers,
seat rotation), so the luck of the cards cancels in the paired differences.
A game module provides the block function ``<module>.duplicate`` returning, per
metric of ``DUP_METRICS``, the sums S[h] = sum_d X_h(d) and cross products
Q[a, b] = sum_d X_a(d) X_b(d) (X_h(d) = the metric summed over entrant h's
seat appearances in deal d), and ``dup_appearances(k, params)``.  All of it is
exact integer counts, so any thread count, block size or backend gives the same
numbers.
"""
from __future__ import annotations

import importlib
import math
from pathlib import Path

import numpy as np
import pandas as pd

from tricksim.analysis import engine
from tricksim.analysis.common import TricksimError, parse_heuristic, rules_dict
from tricksim.analysis.stats import Z95, holm, normal_two_sided_p

MODULES = {"boulmous": "tricksim.analysis.boulmous", "boomke-wies": "tricksim.analysis.boomke_wies", "bourre": "tricksim.analysis.bourre"}
STUDY = {"boulmous": "boulmous.duplicate", "boomke-wies": "boomke_wies.duplicate", "bourre": "bourre.duplicate"}
UNIT = {"boulmous": "points per deal", "boomke-wies": "points per deal (per partnership)", "bourre": "chips per deal"}
DEFAULT_HANDS = {"boulmous": 1_000_000, "boomke-wies": 300_000, "bourre": 300_000}
BLOCK = {"boulmous": 1 << 18, "boomke-wies": 1 << 16, "bourre": 1 << 16}


def _module(game):
    try:
        return importlib.import_module(MODULES[game])
    except ModuleNotFoundError:
        raise TricksimError(f"the game {game!r} is not implemented yet") from None


def entrant_specs(game, names, user_defs=None):
    mod = _module(game)
    specs = [parse_heuristic(h, mod.REGISTRY, mod.ALIASES, user_defs) for h in names]
    labels = [s.label for s in specs]
    if len(set(labels)) != len(labels):
        raise TricksimError(f"each heuristic may be named once; got {', '.join(labels)}")
    return specs


def duplicate_params(game, specs, seed, rules, extra=None):
    return {"seed": int(seed), "rules": rules_dict(rules),
            "entrants": [[s.name, dict(s.values), s.label] for s in specs], **(extra or {})}


def tables_from_counts(counts, n, k, appearances, labels, metrics, n_seats=4):
    """Leaderboard and pairwise tables (per metric) from the S/Q sums."""
    c = np.asarray(appearances, float)
    counts = np.asarray(counts)
    has_p = len(counts) == len(metrics) * (k + 2 * k * k)
    width = (k + 2 * k * k) if has_p else (k + k * k)
    nrot = int(round(c.sum() / n_seats)) if has_p else 1
    boards, pairs = [], []
    for mi, metric in enumerate(metrics):
        blk = np.asarray(counts[mi * width:(mi + 1) * width], float)
        S = blk[:k]
        Q = blk[k:k + k * k].reshape(k, k)
        # per playout (one rotation): what a design without replays (independent deals) would face
        P = blk[k + k * k:].reshape(k, k) if has_p else None
        mean = S / (n * c)
        cc = np.outer(c, c)
        cov = (Q / cc / n - np.outer(mean, mean)) * n / max(n - 1, 1)
        var = np.maximum(np.diag(cov), 0)
        half = Z95 * np.sqrt(var / n)
        for h in range(k):
            boards.append({"metric": metric, "heuristic": labels[h], "mean": mean[h], "ci": half[h], "n_deals": n,
                           "seat_appearances_per_deal": c[h]})
        rows = []
        for a in range(k):
            for b in range(a + 1, k):
                d = mean[a] - mean[b]
                vd = max(cov[a, a] + cov[b, b] - 2 * cov[a, b], 0.0)
                se = math.sqrt(vd / n) if n > 0 else math.nan
                z = d / se if se > 0 else (0.0 if d == 0 else math.copysign(math.inf, d))
                p = normal_two_sided_p(z) if se > 0 else (1.0 if d == 0 else 0.0)
                if P is not None:
                    # one playout per deal, the same seat pattern: D_r = Y_a/u_a - Y_b/u_b, u = c/R
                    u = c / nrot
                    e2 = (P[a, a] / u[a] ** 2 + P[b, b] / u[b] ** 2 - 2 * P[a, b] / (u[a] * u[b])) / (n * nrot)
                    vind = max(e2 - d * d, 0.0)
                else:
                    vind = math.nan
                rows.append({"metric": metric, "a": labels[a], "b": labels[b], "diff": d, "ci": Z95 * se, "p": p,
                             "effect_size_dz": d / math.sqrt(vd) if vd > 0 else math.nan,
                             "variance_reduction": vind / vd if vd > 0 else math.nan,
                             "playout_ratio": vind / vd / nrot if vd > 0 else math.nan, "n_deals": n})
        if rows:
            adj = holm([r["p"] for r in rows])
            for r, pa in zip(rows, adj):
                r["p_holm"] = pa
                r["significant"] = bool(pa < 0.05)
        pairs.extend(rows)
    return pd.DataFrame(boards), pd.DataFrame(pairs)


def verdict(board: pd.DataFrame, pairs: pd.DataFrame, metric: str, unit: str) -> str:
    b = board[board.metric == metric].sort_values("mean", ascending=False)
    p = pairs[pairs.metric == metric]
    names = list(b.heuristic)

    def pair(x, y):
        r = p[((p.a == x) & (p.b == y)) | ((p.a == y) & (p.b == x))].iloc[0]
        sign = 1 if r.a == x else -1
        return sign * r["diff"], r["ci"], r["p_holm"], r["significant"]

    lines = []
    for x, y in zip(names, names[1:]):
        d, ci, pa, sig = pair(x, y)
        if sig:
            lines.append(f"{x} beats {y} by {d:.3f} ± {ci:.3f} {unit} (Holm-adjusted p = {_pfmt(pa)}).")
        else:
            lines.append(f"{x} and {y} are not significantly different ({d:+.3f} ± {ci:.3f} {unit}, adjusted p = {_pfmt(pa)}).")
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


def compare(game: str, names, hands: int | None = None, seed: int = 0, rules=None, user_defs=None, extra=None,
            out=None, threads=None, scheduler=None, progress=False, force=False, resume=True,
            until_precision: float | None = None, block_size: int | None = None):
    """Duplicate tournament of the heuristics ``names`` (or HeuristicSpecs).
    Returns {'leaderboard', 'pairs', 'verdict', 'n', 'seconds', ...}."""
    mod = _module(game)
    specs = names if names and not isinstance(names[0], str) else entrant_specs(game, names, user_defs)
    k = len(specs)
    if k < 2:
        raise TricksimError("compare needs at least two heuristics")
    rules = rules or mod.RULES_CLASS()
    hands = hands or DEFAULT_HANDS[game]
    if hands < 1:
        raise TricksimError(f"--hands must be at least 1, got {hands}")
    params = duplicate_params(game, specs, seed, rules, extra)
    app = mod.dup_appearances(k, params)
    n_seats = int(params.get("players", getattr(mod, "N_SEATS", 4)))
    labels = [s.label for s in specs]
    metrics = list(mod.DUP_METRICS)
    stop = None
    if until_precision:
        if until_precision <= 0:
            raise TricksimError(f"--until-precision must be positive, got {until_precision}")

        def stop(acc, n):
            if n < 1000:
                return False
            bd, pr = tables_from_counts(acc, n, k, app, labels, metrics, n_seats)
            return bool(bd.ci.max() <= until_precision and (pr.ci.max() if len(pr) else 0) <= until_precision)
        if not hands or hands == DEFAULT_HANDS[game]:
            hands = 10 ** 10  # the precision decides
    run = engine.Run(STUDY[game], params, hands, block_size or BLOCK[game], unit="hands")
    r = engine.execute(run, out, threads=threads, scheduler=scheduler, progress=progress, stop=stop, force=force,
                       resume=resume)
    board, pairs = tables_from_counts(r.counts, r.n, k, app, labels, metrics, n_seats)
    return {"leaderboard": board, "pairs": pairs, "verdict": full_verdict(board, pairs, metrics, UNIT[game]),
            "n": r.n, "seconds": r.seconds, "metrics": metrics, "unit": UNIT[game], "labels": labels,
            "stopped_early": r.stopped_early, "run": run, "out": out}


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
          out=None, progress=False, **kw):
    """Advantage of ``name:param=v`` over ``against`` for each v (same deals for every v)."""
    rows = []
    base = name if ":" in name else name + ":"
    for v in values:
        spec = f"{base}{',' if not base.endswith(':') else ''}{param}={v:g}"
        res = compare(game, [spec, against], hands=hands, seed=seed, rules=rules, user_defs=user_defs, extra=extra,
                      out=(Path(out) / f"{param}={v:g}") if out else None, progress=progress, **kw)
        pr = res["pairs"]
        p0 = pr[pr.metric == res["metrics"][0]].iloc[0]
        rows.append({"param": param, "value": v, "advantage": p0["diff"], "ci": p0["ci"], "p": p0["p"],
                     "n_deals": res["n"]})
    df = pd.DataFrame(rows)
    if len(df) > 1:
        df["p_holm"] = holm(df.p)
    else:
        df["p_holm"] = df.p
    df["significant"] = df.p_holm < 0.05
    return df


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
# CLI adapters
# ---------------------------------------------------------------------------
def _common(opts):
    from tricksim.analysis.cliutil import positive, rules_from, user_defs
    mod = _module(opts.game)
    positive(opts.hands, "--hands")
    rules = rules_from(opts, mod.RULES_CLASS)
    extra = {}
    if opts.game == "bourre":
        players = opts.players or 7
        if not 2 <= players <= 8:
            raise TricksimError(f"Bourre needs 2 to 8 players, got {players}")
        extra["players"] = players
    elif opts.players is not None:
        raise TricksimError("--players applies to Bourre only")
    return mod, rules, user_defs(opts), extra


def render_compare(res) -> str:
    from tricksim.analysis.output import pm
    unit = res["unit"]
    lines = [f"Duplicate tournament, {res['n']:,} deals, each replayed with the heuristics rotated through the seats"]
    for metric in res["metrics"]:
        b = res["leaderboard"]
        b = b[b.metric == metric].sort_values("mean", ascending=False)
        lines.append(f"\nleaderboard ({metric}, mean per deal per seat, 95% CI):")
        lines.append(pd.DataFrame({"heuristic": b.heuristic, metric: [pm(m, c) for m, c in zip(b["mean"], b.ci)],
                                   "n deals": [f"{x:,}" for x in b.n_deals]}).to_string(index=False))
        p = res["pairs"]
        p = p[p.metric == metric]
        if len(p):
            lines.append(f"pairwise differences ({metric}; p-values Holm-adjusted):")
            lines.append(pd.DataFrame({"a": p.a, "b": p.b, "a - b": [pm(d, c) for d, c in zip(p["diff"], p.ci)],
                                       "p": [_pfmt(x) for x in p.p], "p adj": [_pfmt(x) for x in p.p_holm],
                                       "significant": p.significant,
                                       "var. reduction": [f"{x:.1f}x" if x == x else "-" for x in p.variance_reduction]}
                                      ).to_string(index=False))
    lines.append("\nverdict: " + res["verdict"])
    lines.append("('var. reduction' = how many times more deals a design without replays, one playout per deal, would need "
                 f"for the same interval width; unit: {unit})")
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
          "- design: every deal is replayed with the heuristics rotated through the seats (the same cards each time); "
          "intervals are 95% normal intervals of the per-deal paired differences; p-values are Holm-adjusted.\n",
          "```", render_compare(res), "```", "\n![leaderboard](leaderboard.png)\n"]
    (Path(out) / "report.md").write_text("\n".join(md))


def cli_compare(opts):
    from tricksim.analysis.cliutil import engine_kw, out_dir
    mod, rules, udefs, extra = _common(opts)
    specs = entrant_specs(opts.game, opts.names, udefs)
    params = duplicate_params(opts.game, specs, opts.seed, rules, extra)
    hands = opts.hands or DEFAULT_HANDS[opts.game]
    out = out_dir(opts, opts.game.replace("-", "_"), "compare",
                  engine.Run(STUDY[opts.game], params, hands, BLOCK[opts.game]).run_id)
    res = compare(opts.game, specs, hands=opts.hands, seed=opts.seed, rules=rules, extra=extra, out=out,
                  until_precision=opts.until_precision, **engine_kw(opts))
    print(render_compare(res))
    write_compare(res, out, res["run"].command)
    print(f"\ntables, plot and report in {out}")


def cli_sweep(opts):
    from tricksim.analysis.cliutil import engine_kw, out_dir
    from tricksim.analysis.output import pm, write_table
    from tricksim.analysis.plots import sweep_plot
    mod, rules, udefs, extra = _common(opts)
    param, values = sweep_values(opts.param)
    # validate the heuristic and parameter up front
    base = parse_heuristic(opts.name, mod.REGISTRY, mod.ALIASES, udefs)
    test = opts.name + ("," if ":" in opts.name else ":") + f"{param}={values[0]:g}"
    for v in values:
        parse_heuristic(opts.name + ("," if ":" in opts.name else ":") + f"{param}={v:g}", mod.REGISTRY, mod.ALIASES, udefs)
    parse_heuristic(opts.against, mod.REGISTRY, mod.ALIASES, udefs)
    hands = opts.hands or DEFAULT_HANDS[opts.game] // 4
    import hashlib
    key = hashlib.sha256(repr((opts.game, base.label, opts.param, opts.against, opts.seed, hands)).encode()).hexdigest()
    out = out_dir(opts, opts.game.replace("-", "_"), "sweep", key)
    df = sweep(opts.game, opts.name, param, values, against=opts.against, hands=hands, seed=opts.seed, rules=rules,
               user_defs=udefs, extra=extra, out=out, **engine_kw(opts))
    write_table(df, out, "sweep")
    best = df.loc[df.advantage.idxmax()]
    zc = zero_crossings(df)
    sweep_plot(df, out / "sweep.png", f"{opts.name} vs {opts.against}: advantage by {param}", UNIT[opts.game],
               best.value, zc)
    print(f"Sweep of {param} for {opts.name} against {opts.against}, {hands:,} duplicate deals per value "
          f"(the same deals for every value)")
    print(pd.DataFrame({param: df.value, "advantage": [pm(a, c) for a, c in zip(df.advantage, df.ci)],
                        "p adj": [f"{x:.2g}" for x in df.p_holm], "significant": df.significant}).to_string(index=False))
    print(f"best value: {param} = {best.value:g} ({best.advantage:+.3f} ± {best.ci:.3f} {UNIT[opts.game]})")
    print("zero crossings: " + (", ".join(f"{x:.3g}" for x in zc) if zc else "none"))
    print(f"\ntable and plot in {out}")


def _pfmt(p):
    return "<1e-16" if p < 1e-16 else f"{p:.2g}"
