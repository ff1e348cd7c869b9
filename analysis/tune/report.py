"""The headline section ``tune`` (``tricksim report``): one small tune per game, the tuned heuristic
against its own default values, confirmed on fresh deals."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..compare import compare
from ..engine import RunOptions
from ..output import markdown_table, p_text, pm, write_table
from ..pages import Section
from ..registry import get
from .search import tune, tuned_name
from .views import toml_text

# (game, base, params, extra, budget, confirm): sized so the three searches take about 30 s
CASES = [
    ("boulmous", "cautious", "margin,ace_weight", {}, 3_000_000, 1_000_000),
    ("boomke-wies", "partner", "margin,partner", {}, 600_000, 300_000),
    ("bourre", "basic", "threshold,position_weight", {"players": 7}, 600_000, 300_000),
]
TRIALS, QUICK_TRIALS, SEED = 30, 8, 2026
VERDICT_WORDS = {"better": "better than the defaults", "worse": "worse than the defaults",
                 "not distinguishable": "not distinguishable from the defaults"}
PIMC_DEALS, QUICK_PIMC_DEALS = 2_000, 120    # the tuned Boulmous heuristic against pimc (about 100 deals/s on 2 cores)


def pimc_match(g, res, out: Path, quick: bool, progress: bool) -> dict:
    """The tuned Boulmous heuristic (``res``: its tune) against the sampling player ``pimc`` (its default
    worlds) in a duplicate match (``compare``) on fresh deals of the section's seed."""
    pl = res["plan"]
    tuned = pl.candidate(res["best"], tuned_name(pl))
    pimc = g.parse_heuristic("pimc")
    deals = QUICK_PIMC_DEALS if quick else PIMC_DEALS
    r = compare(g, [tuned, pimc], hands=deals, seed=SEED, rules=pl.rules,
                opts=RunOptions(out / "runs" / f"{g.key}-headline-tune-pimc", progress=progress, force=True))
    p = r["pairs"]
    row = p[p.metric == r["metrics"][0]].iloc[0]
    sign = 1.0 if row.a == tuned.label else -1.0
    return {"tuned": tuned.label, "diff": sign * float(row["diff"]), "ci": float(row.ci), "p": float(row.p),
            "n": int(r["n"]), "seconds": r["seconds"], "unit": r["unit"],
            "command": f"tricksim compare boulmous {tuned.label} pimc --heuristics {Path(out) / 'tune' / (g.key + '_tuned.toml')} "
                       f"--hands {deals} --seed {SEED}"}


def tune_section(out: Path, quick: bool = False, progress: bool = False) -> Section:
    """Run the tunes into ``out/runs`` and ``out/tune``; the page's section and its short answers."""

    d = out / "tune"
    d.mkdir(parents=True, exist_ok=True)
    rows, cmds, vs_pimc = [], [], None
    for game, base, params, extra, budget, confirm in CASES:
        g = get(game)
        if quick:
            budget, confirm = budget // 20, confirm // 20
        trials = QUICK_TRIALS if quick else TRIALS
        res = tune(g, base, params, budget=budget, seed=SEED, trials=trials, confirm=confirm,
                   opts=RunOptions(out / "runs" / f"{g.key}-headline-tune", progress=progress, force=True), **extra)
        pl = res["plan"]
        write_table(res["trials"], d, f"{g.key}_trials")
        (d / f"{g.key}_tuned.toml").write_text(toml_text(res))
        c = res["confirm"][0]
        rows.append({"game": g.title + (f" ({extra['players']} players)" if extra else ""),
                     "tuned": ", ".join(f"{p.name} {pl.base.value(p.name):g} → {res['best'][p.name]:g}"
                                        for p in pl.params),
                     "search (best of the trials)": f"{res['best_search']:+.4f}",
                     "confirmed gain, fresh deals (95%)": f"{pm(c['diff'], c['ci'], 4, missing='too few deals for an interval')} ({p_text(c['p'])})",
                     "unit": g.duplicate.unit, "verdict": c["verdict"]
                     + (" (the default itself was best)" if res["best_trial"] == 1 else "")})
        cmds.append(f"tricksim tune {g.name} {base} --params {params} --budget {budget} --trials {trials} "
                    f"--confirm {confirm} --seed {SEED}" + "".join(f" --{k} {v}" for k, v in extra.items()))
        if g.key == "boulmous":
            vs_pimc = pimc_match(g, res, out, quick, progress)
    md = ["## Tuned heuristics (tricksim tune)\n",
          "Each game's default heuristic tuned against itself (its own default values): an optuna TPE search over "
          "the parameters' declared ranges, every trial a duplicate match on the same deals; the best set then "
          "plays the default on fresh deals of another seed, never used in the search. Only that confirmation "
          "measures the gain: the search's best score is the best of many noisy scores and biased upwards. "
          "The tuned heuristics are TOML files (`--heuristics tune/<game>_tuned.toml`, the heuristic "
          "`<base>-tuned`); every trial is in `tune/<game>_trials.csv`.\n",
          "Regenerate:\n", "```", *cmds, "```\n",
          markdown_table(pd.DataFrame(rows)), ""]
    answers = [("Can the default heuristics be tuned to play better?",
                "; ".join(f"{r['game']}: the defaults were the best of the trials" if "default itself" in r["verdict"]
                          else f"{r['game']}: {r['tuned']}, {VERDICT_WORDS.get(r['verdict'], r['verdict'])} "
                               f"({r['confirmed gain, fresh deals (95%)']} {r['unit']})" for r in rows)
                + " (each tuned heuristic against its own defaults on fresh deals).")]
    if vs_pimc is not None:
        v = vs_pimc
        if v["ci"] != v["ci"]:
            word = "too few deals for an interval"
        elif v["diff"] - v["ci"] > 0:
            word = f"{v['tuned']} is better than pimc"
        elif v["diff"] + v["ci"] < 0:
            word = f"pimc is better than {v['tuned']}"
        else:
            word = "the difference is not significant"
        md += [f"**The tuned Boulmous heuristic against the sampling player `pimc`** (its default worlds; a duplicate "
               f"match, every deal replayed with the seats rotated, {v['n']:,} deals of seed {SEED}, "
               f"{v['seconds']:.0f} s): {v['tuned']} - pimc = {pm(v['diff'], v['ci'], 4, missing='too few deals for an interval')} {v['unit']} "
               f"(95%, {p_text(v['p'])}): {word}. Regenerate: `{v['command']}`.", ""]
        answers.append(("Does a tuned heuristic catch up with the sampling player?",
                        f"No: {v['tuned']} - pimc = {pm(v['diff'], v['ci'], 4, missing='too few deals for an interval')} "
                        f"{v['unit']} ({v['n']:,} deals): {word}." if v["diff"] + v["ci"] < 0 else
                        f"{v['tuned']} - pimc = {pm(v['diff'], v['ci'], 4, missing='too few deals for an interval')} "
                        f"{v['unit']} ({v['n']:,} deals): {word}."))
    return Section("\n".join(md), answers)
