"""The headline section ``ladder`` (``tricksim report --only ladder``): a strength ladder per game.  Every
player a game has (``Game.ladder``: its heuristics and the sampling player's settings worth showing) plays one
balanced duplicate tournament of ``compare`` (analysis/compare/), ranked by its mean per deal and seat (per
partnership in Boomke Wies) with the 95% interval and the deals, and each rung's paired difference to the next
one with the tournament's Holm-adjusted p-value; beside it the game's open-hand figure (``Ladder.bound``), with
what it is and is not."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from . import compare as cmp
from .engine import RunOptions
from .output import markdown_table, p_text, pm, write_table
from .pages import Section
from .registry import GAMES
from .stats import pair_row

SEED = 2026


def ladder_table(res, bound: dict | None = None) -> pd.DataFrame:
    """One tournament's ladder (``compare``'s result): its entrants best first (ties by label, as the verdict),
    each with its mean per deal of the first metric, 95% half-width ``ci`` and bounds, deals, and the paired
    difference to the next rung (``to_next``, its half-width, the tournament's Holm-adjusted p over all its pairs
    and whether it is significant at 5%); then the open-hand figure as a row of kind ``bound`` (no rank)."""
    metric = res["metrics"][0]
    b = res["leaderboard"]
    b = b[b.metric == metric].assign(_l=lambda x: x.heuristic).sort_values(["mean", "_l"], ascending=[False, True])
    rows = []
    names = list(b.heuristic)
    for i, r in enumerate(b.itertuples()):
        row = {"kind": "entrant", "rank": i + 1, "player": r.heuristic, "mean": r.mean, "ci": r.ci,
               "lo": r.mean - r.ci, "hi": r.mean + r.ci, "n_deals": int(r.n_deals),
               "to_next": float("nan"), "to_next_ci": float("nan"), "p_holm": float("nan"), "significant": None}
        if i + 1 < len(names):
            p, sign = pair_row(res["pairs"], r.heuristic, names[i + 1], metric)
            row.update(to_next=sign * float(p["diff"]), to_next_ci=float(p["ci"]), p_holm=float(p["p_holm"]),
                       significant=bool(p["significant"]))
        rows.append(row)
    if bound is not None:       # the open-hand figure, then the default heuristic's own play of the same deals
        for kind, label, m, h, step, step_ci in (
                ("bound", bound["label"], bound["mean"], bound["ci"], bound["gap"], bound["gap_ci"]),
                ("reference", f"the same deals, {bound['heuristic']}'s card play", bound["heur_mean"], bound["heur_ci"],
                 float("nan"), float("nan"))):
            rows.append({"kind": kind, "rank": None, "player": label, "mean": m, "ci": h, "lo": m - h, "hi": m + h,
                         "n_deals": int(bound["n"]), "to_next": step, "to_next_ci": step_ci, "p_holm": float("nan"),
                         "significant": None})
    df = pd.DataFrame(rows)
    df["rank"] = df["rank"].astype("Int64")
    return df


def ladder_markdown(table: pd.DataFrame, unit: str) -> str:
    """The ladder as a markdown table: rank, player, mean [95% CI], deals, the step to the next rung (the bound's:
    its paired gap over the reference row)."""
    cells = []
    for r in table.itertuples():
        step = "-"
        if r.kind == "entrant" and r.to_next == r.to_next:
            step = (f"{pm(r.to_next, r.to_next_ci, 3)} (Holm {p_text(r.p_holm)}, "
                    f"{'significant' if r.significant else 'not significant'})")
        elif r.kind == "bound":
            step = f"{pm(r.to_next, r.to_next_ci, 3)} (the row below, paired)"
        cells.append({"rank": r.rank if r.kind == "entrant" else r.kind, "player": f"`{r.player}`" if r.kind == "entrant"
                      else r.player, f"{unit} [95% CI]": f"{pm(r.mean, r.ci, 3)} [{r.lo:+.3f}, {r.hi:+.3f}]",
                      "n deals": f"{r.n_deals:,}", "minus the next rung (paired, 95% CI)": step})
    return markdown_table(pd.DataFrame(cells))


def ladder_words(table: pd.DataFrame) -> str:
    """The ranking in one line: ``>`` a significant step to the next rung, ``≈`` one the deals cannot tell."""
    e = table[table.kind == "entrant"]
    out = ""
    for r in e.itertuples():
        out += f"`{r.player}`"
        if r.to_next == r.to_next:
            out += " > " if r.significant else " ≈ "
    return out


def game_ladder(g, d: Path, runs: Path, quick: bool, progress: bool):
    """One game's part: (markdown, answer)."""
    lad = g.ladder
    names = list(lad.entrants)
    n = lad.quick if quick else lad.hands
    res = cmp.compare(g, names, hands=n, seed=SEED, extra=dict(lad.extra),
                      opts=RunOptions(runs / f"ladder-{g.key}", progress=progress, force=True))
    bound = lad.bound(RunOptions(runs / f"ladder-{g.key}-open", progress=progress, force=True), quick, SEED)
    table = ladder_table(res, bound)
    unit = res["unit"]
    write_table(table, d, g.key, parquet=False)
    from .plots import ladder_plot
    ladder_plot(table, unit, d / f"{g.key}.png", f"{g.title}: every player, {res['n']:,} duplicate deals, seed {SEED}",
                bounds=not bound.get("other_scale", False))
    who = "(an entrant holds both seats of one side)" if res["layout"] == "pairs" else "per seat"
    who_md = f"{unit}, {who[1:-1]}" if res["layout"] == "pairs" else f"{unit} {who}"
    players = "".join(f" --players {v}" for k, v in lad.extra.items() if k == "players")
    top, default = table.iloc[0], bound["heuristic"]          # the bound's heuristic is the game's default
    md = [f"### {g.title}\n",
          f"Regenerate: `tricksim compare {g.name} {' '.join(names)}{players} --hands {n} --seed {SEED}`\n",
          f"{res['n']:,} deals, {res['playouts_per_deal']} playouts of each; {who_md}. Design: {res['design']}.\n",
          ladder_markdown(table, unit) + "\n",
          f"![{g.title} ladder](ladder/{g.key}.png)\n",
          f"Ranking: {ladder_words(table)} ('>': the step to the next rung is significant, Holm-adjusted over the "
          f"tournament's {len(names) * (len(names) - 1) // 2} pairs at 5%; '≈': these deals cannot tell the two "
          "apart). A step holds in this field: each pair also meets the others at the table.\n",
          f"**The bound row** ({bound['label']}: {pm(bound['mean'], bound['ci'], 3)}, {bound['n']:,} deals) is "
          f"{bound['what']}. The reference row below it is `{bound['heuristic']}`'s own card play of the same "
          f"contracts on the same deals, {pm(bound['heur_mean'], bound['heur_ci'], 3)}: open-hand minus "
          f"`{bound['heuristic']}` = {pm(bound['gap'], bound['gap_ci'], 3)} (paired, 95% CI). It is this gap, not the "
          "level of the bound, that says how much better card play could make of the same contracts. "
          f"Regenerate: `{bound['command']}`\n"]
    answer = (f"{g.title}: which player is strongest?",
              f"{ladder_words(table)} ({who_md}; {res['n']:,} duplicate deals; '>' significant, Holm 5%). "
              f"Top: `{top.player}` {pm(top['mean'], top.ci, 3)}; the default `{default}` "
              f"{pm(*table[table.player == default][['mean', 'ci']].iloc[0], 3)}.")
    return "\n".join(md), answer


def ladder_section(out: Path, quick: bool = False, progress: bool = False) -> Section:
    """Run every game's ladder into ``out/runs`` and ``out/ladder``; the page's section and its answers."""
    out = Path(out)
    d = out / "ladder"
    d.mkdir(parents=True, exist_ok=True)
    md = ["## The strength ladder: every player of each game in one duplicate tournament\n",
          "For each game, every player tricksim has (its heuristics, the sampling player `pimc` at its defaults and "
          "at a cheaper setting, and Bourré's `ev`) plays one balanced duplicate tournament: the same deals for "
          "every player, the seats rotated so that each sits everywhere and meets every other in every relative "
          "seat equally often ([the design](../docs/methods/duplicate.md)). Each rung is the player's mean per deal "
          "with its 95% interval and the deals played; the last column is the paired difference to the next rung "
          "with its Holm-adjusted p-value. Each table ends with the game's open-hand figure (**bound**), the "
          "closest the code computes to what perfect card play is worth: read what each one is before comparing "
          "it with the rungs, it is not an entrant's score and not a ceiling on one. CSV and PNG per game in "
          "`ladder/`.\n"]
    answers = []
    for g in GAMES:
        if g.ladder is None:
            continue
        text, answer = game_ladder(g, d, out / "runs", quick, progress)
        md.append(text)
        answers.append(answer)
    return Section("\n".join(md), answers)
