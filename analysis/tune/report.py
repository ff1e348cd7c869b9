"""The headline section ``tune`` (``tricksim report``): one small tune per game, the tuned heuristic
against its own default values, confirmed on fresh deals."""
from __future__ import annotations

from pathlib import Path

from tricksim.analysis.engine import RunOptions

# (game, base, params, extra, budget, confirm): sized so the three searches take about 30 s
CASES = [
    ("boulmous", "cautious", "margin,ace_weight", {}, 3_000_000, 1_000_000),
    ("boomke-wies", "partner", "margin,partner", {}, 600_000, 300_000),
    ("bourre", "basic", "threshold,position_weight", {"players": 7}, 600_000, 300_000),
]
TRIALS, QUICK_TRIALS, SEED = 30, 8, 2026


def tune_section(out: Path, quick: bool = False, progress: bool = False) -> str:
    """Run the tunes into ``out/runs`` and ``out/tune``; the markdown section."""
    from tricksim.analysis.output import markdown_table, write_table
    from tricksim.analysis.registry import get
    from tricksim.analysis.tune.search import tune
    from tricksim.analysis.tune.views import _p, toml_text

    d = out / "tune"
    d.mkdir(parents=True, exist_ok=True)
    rows, cmds = [], []
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
                     "confirmed gain, fresh deals (95%)": f"{c['diff']:+.4f} ± {c['ci']:.4f} (p {_p(c['p'])})",
                     "unit": g.duplicate.unit, "verdict": c["verdict"]
                     + (" (the default itself was best)" if res["best_trial"] == 1 else "")})
        cmds.append(f"tricksim tune {g.name} {base} --params {params} --budget {budget} --trials {trials} "
                    f"--confirm {confirm} --seed {SEED}" + "".join(f" --{k} {v}" for k, v in extra.items()))
    import pandas as pd
    md = ["## Tuned heuristics (tricksim tune)\n",
          "Each game's default heuristic tuned against itself (its own default values): an optuna TPE search over "
          "the parameters' declared ranges, every trial a duplicate match on the same deals; the best set then "
          "plays the default on fresh deals of another seed, never used in the search. Only that confirmation "
          "measures the gain: the search's best score is the best of many noisy scores and biased upwards. "
          "The tuned heuristics are TOML files (`--heuristics tune/<game>_tuned.toml`, the heuristic "
          "`<base>-tuned`); every trial is in `tune/<game>_trials.csv`.\n",
          "Regenerate:\n", "```", *cmds, "```\n",
          markdown_table(pd.DataFrame(rows)), ""]
    return "\n".join(md)
