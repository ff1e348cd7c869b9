"""Tournament and sweep results as text and files, and the commands of the CLI (``compare``,
``sweep``), which run them, write the run folder and yield the text cli.py prints."""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Iterator

import pandas as pd

from .. import __version__, engine
from ..output import plain_table, pm, with_folder, write_table
from .design import _game, default_extra, entrant_specs
from .tables import _pfmt
from .tournament import best_value, compare, compare_run, sign_changes, swept_spec, sweep, sweep_values


def render_best(best: dict, param: str, unit: str) -> str:
    s = f"largest advantage: {param} = {best['value']:g} ({pm(best['advantage'], best['ci'], 3)} {unit})"
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
        s += (f"No single best value: {param} in {{{', '.join(f'{v:g}' for v in sorted(best['contenders']))}}} "
              "cannot be told apart from the largest.")
    return s


def render_crossings(changes: list[dict], param: str) -> str:
    """The zero crossings of a sweep in words: only the established ones are named (see
    ``tournament.sign_changes``); crossings of the point estimates where the advantage cannot be told
    from 0 are said to be so."""
    est = [c for c in changes if c["established"]]
    loose = [c for c in changes if not c["established"]]
    if not changes:
        return "zero crossings: none (the advantage keeps its sign over the range)"
    parts = []
    if est:
        parts.append("zero crossings: " + "; ".join(
            f"the advantage changes sign between {param} = {c['between'][0]:g} and {c['between'][1]:g} (both "
            f"significantly different from 0, Holm), at about {c['at']:.3g}" for c in est))
    else:
        parts.append("zero crossings: none established")
    if loose:
        parts.append(("the point estimates also cross 0 near " if est else "the point estimates cross 0 near ")
                     + ", ".join(f"{c['at']:.3g}" for c in loose)
                     + ", where the advantage cannot be told from 0 (not a zero crossing the data show)")
    return "; ".join(parts)


def _ci_text(m, c, digits=3):
    if m != m:
        return "-"
    if c != c:
        return f"{m:+.{digits}f} (too few deals)"
    return pm(m, c, digits)


def metric_text(board, pairs, metric: str, heading: str, n_label: str = "n deals", digits: int = 3,
                gains: bool = True) -> list:
    """One metric's leaderboard (best first) and pairwise differences as text lines."""
    b = board[board.metric == metric].assign(_l=lambda x: x.heuristic).sort_values(["mean", "_l"],
                                                                                    ascending=[False, True])
    lines = ["\n" + heading,
             plain_table(pd.DataFrame({"heuristic": b.heuristic, metric: [_ci_text(m, c, digits) for m, c in zip(b["mean"], b.ci)],
                           n_label: [f"{x:,}" for x in b.n_deals]}))]
    p = pairs[pairs.metric == metric]
    if len(p):
        cols = {"a": p.a, "b": p.b, "a - b": [_ci_text(d, c, digits) for d, c in zip(p["diff"], p.ci)],
                "p": [_pfmt(x) for x in p.p], "p Holm": [_pfmt(x) for x in p.p_holm], "significant": p.significant}
        no_ci = bool(p.ci.isna().all())
        if gains and not no_ci:
            cols["gain/deal"] = [f"{x:.2f}x" if x == x else "-" for x in p.variance_reduction]
            cols["gain/playout"] = [f"{x:.2f}x" if x == x else "-" for x in p.gain_per_playout]
        lines.append(f"pairwise differences ({metric}; 95% CI and p unadjusted; 'p Holm' and 'significant' "
                     "Holm-adjusted over the pairs at 5%):")
        lines.append(plain_table(pd.DataFrame(cols)))
        if gains and no_ci:
            lines.append("gain/deal and gain/playout withheld: with too few deals for an interval, the variances "
                         "they compare are not estimated either")
    return lines


def field_note(labels, game=None) -> str:
    """With more than two entrants: a pairwise difference is measured in this field (each pair also
    shares the table with the others), so it depends on who else plays; head to head is the way to
    compare two."""
    if len(labels) <= 2:
        return ""
    a, b = labels[0], labels[1]
    return (f"(a pairwise difference here holds in this field of {len(labels)}: every entrant also meets the "
            f"others at the table, so {a} - {b} can change, even in size or sign, when an entrant is added or "
            f"removed; to compare two heuristics, run them head to head: "
            f"tricksim compare {game or 'GAME'} {a} {b})")


def render_compare(res) -> str:
    unit = res["unit"]
    L = res.get("playouts_per_deal")
    lines = [f"Duplicate tournament, {res['n']:,} deals"
             + (f", {L} playouts per deal ({res['n'] * L:,} playouts)" if L else "")]
    if res.get("design"):
        lines.append("design: " + res["design"])
    who = "per partnership" if res.get("layout") == "pairs" else "per seat"
    for metric in res["metrics"]:
        lines += metric_text(res["leaderboard"], res["pairs"], metric,
                             f"leaderboard ({metric}, mean per deal {who}, unadjusted 95% CI):")
    lines.append("\nverdict: " + res["verdict"])
    if res.get("layout") == "pairs":
        lines.append("(per partnership: an entrant plays both seats of one side, and each figure is its side's "
                     "points or tricks per deal, not one player's)")
    note = field_note(res.get("labels") or [], res.get("game"))
    if note:
        lines.append(note)
    lines.append("('gain/deal' = how many times more deals, 'gain/playout' how many times more playouts (compute), a "
                 "design without replays would need for the same interval width: every playout on its own fresh deal, "
                 "the same seatings taken in turn; below 1x the replays cost more than they save. "
                 f"unit: {unit})")
    return "\n".join(lines)


def write_compare(res, out: Path, command: str):
    from ..plots import leaderboard_plot
    write_table(res["leaderboard"], out, "leaderboard")
    write_table(res["pairs"], out, "pairs")
    leaderboard_plot(res["leaderboard"], res["metrics"][0], res["unit"], out / "leaderboard.png", res["n"])
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
    game = _game(game)
    rules = rules or game.rules()
    extra = default_extra(game, {"players": players} if game.variable_table else None)
    specs = entrant_specs(game, names, user_defs)
    run = compare_run(game, specs, hands, seed, rules, extra=extra, until_precision=until_precision)
    opts = with_folder(opts, game.key, "compare", run)
    res = compare(game, specs, hands=hands, seed=seed, rules=rules, extra=extra, opts=opts,
                  until_precision=until_precision, run=run)
    yield render_compare(res)
    write_compare(res, opts.out, res["run"].command)
    yield f"\ntables, plot and report in {opts.out}"


def sweep_command(game, name: str, param: str, against: str = "default", hands: int | None = None, seed: int = 0,
                  rules=None, user_defs=None, players: int | None = None,
                  opts: engine.RunOptions = engine.RunOptions()) -> Iterator[str]:
    """``tricksim sweep GAME NAME --param P=a:b:s``: writes the run folder (table, plot) and yields the
    text to print."""
    from ..plots import sweep_edge_note, sweep_plot
    game = _game(game)
    rules = rules or game.rules()
    extra = default_extra(game, {"players": players} if game.variable_table else None)
    unit = game.duplicate.unit
    param_name, values = sweep_values(param)
    # validate the heuristic and parameter up front
    base = game.parse_heuristic(name, user_defs)
    for v in values:
        game.parse_heuristic(name + ("," if ":" in name else ":") + f"{param_name}={v:g}", user_defs)
    slow = game.duplicate.slow([base, game.parse_heuristic(against, user_defs)]) if game.duplicate.slow else None
    hands = hands or (slow[0] if slow else game.duplicate.hands) // 4
    # the default folder is named after every value's run (heuristics as defined, rules, table, seed, deals)
    runs = [compare_run(game, entrant_specs(game, [swept_spec(name, param_name, v), against], user_defs), hands,
                        seed, rules, extra=extra).run_id for v in values]
    key = hashlib.sha256(repr((game.name, param_name, runs)).encode()).hexdigest()
    opts = with_folder(opts, game.key, "sweep", key)
    df = sweep(game, name, param_name, values, against=against, hands=hands, seed=seed, rules=rules,
               user_defs=user_defs, extra=extra, opts=opts)
    write_table(df, opts.out, "sweep")
    best = best_value(df)
    changes = sign_changes(df)
    default = dict(base.values).get(param_name)   # the value the named heuristic plays without the sweep
    sweep_plot(df, opts.out / "sweep.png", f"{name} vs {against}: advantage by {param_name}", unit,
               best["value"], [c["at"] for c in changes if c["established"]], default=default,
               contenders=best["contenders"])
    yield (f"Sweep of {param_name} for {name} against {against}, {hands:,} duplicate deals per value "
           f"(the same deals for every value)")
    yield plain_table(pd.DataFrame({param_name: df.value,
                        "advantage (unadjusted 95% CI)": [_ci_text(a, c) for a, c in zip(df.advantage, df.ci)],
                        "p Holm": [_pfmt(x) for x in df.p_holm], "significant (Holm)": df.significant}
                       ))
    yield render_best(best, param_name, unit)
    yield render_crossings(changes, param_name)
    if default is not None:
        yield f"{name} plays {param_name} = {default:g} when not swept"
    edge = sweep_edge_note(df.value, best["value"])
    if edge:
        yield f"warning: {edge}"
    yield (f"('advantage' = mean {unit} of {name} with {param_name} = value minus {against}, on the "
           "same deals with the seats rotated; 'p Holm' and 'significant' are Holm-adjusted over the values)")
    yield f"\ntable and plot in {opts.out}"
