"""The tuner's text and files: the ``tricksim tune`` command (it runs the search, writes the run folder
and the TOML heuristic, and yields the lines cli.py prints), the TOML file itself."""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Iterator

from .. import engine
from ..common import TricksimError, check_out_path
from ..output import p_text, pm, with_folder, write_table
from .search import plan, tune_steps, tuned_name


def _vals(pl, values: dict) -> str:
    return ", ".join(f"{p.name}={values[p.name]:g}" for p in pl.params)


def toml_text(result: dict, command: str = "") -> str:
    """The tuned heuristic as a TOML heuristics file (``--heuristics FILE``): ``[heuristics.<base>-tuned]``
    with ``base`` and every value that differs from the registry's default of that heuristic, plus
    the tuned ones."""
    pl = result["plan"]
    tuned = pl.candidate(result["best"], tuned_name(pl))
    defaults = {p.name: p.default for p in pl.game.heuristics[pl.base.name].params.values()}
    names = {p.name for p in pl.params}
    lines = [f"# tricksim tune: {pl.game.title}, {pl.base.label} against {pl.against.label}",
             *([f"# command: {command}"] if command else []),
             f"# search: {pl.split_text()}",
             f"# best of the search (trial {result['best_trial']}): {result['best_search']:+.4f} "
             f"{pl.game.duplicate.unit} on the search deals (biased upwards: the best of {pl.trials} scores)"]
    for c in result.get("confirm", []):
        lines.append(f"# confirmation against {c['opponent']}: {pm(c['diff'], c['ci'], 4, missing='too few deals for an interval')} (95%), "
                     f"{p_text(c['p'])}, {c['n']:,} fresh deals: {c['verdict']}")
    lines += ["", f"[heuristics.{tuned.label}]", f'base = "{pl.base.name}"']
    for k, v in tuned.values:
        if k in names or v != defaults.get(k):
            lines.append(f"{k} = {int(v) if float(v).is_integer() else v!r}")
    return "\n".join(lines) + "\n"


def render_confirm(pl, c: dict) -> str:
    unit = pl.game.duplicate.unit
    diff = (f"{c['diff']:+.4f} (too few deals for an interval)" if c["ci"] != c["ci"]
            else f"{pm(c['diff'], c['ci'], 4)} (95%; {p_text(c['p'])})")
    head = f"{tuned_name(pl)} - {c['opponent']}: {diff} {unit}, {c['n']:,} fresh deals: "
    if c["verdict"] == "better":
        return head + "better (the interval lies above 0)"
    if c["verdict"] == "worse":
        return head + "WORSE on fresh deals (the interval lies below 0): the search's gain did not hold"
    return head + ("not shown to be better: the fresh deals cannot tell it from " + c["opponent"]
                   + "; no gain is claimed")


def tune_command(game, base: str, params, against: str | None = None, budget: int = 20_000_000, seed: int = 0,
                 trials: int | None = None, confirm: int | None = None, players: int | None = None, rules=None,
                 user_defs=None, toml_out: Path | None = None,
                 opts: engine.RunOptions = engine.RunOptions()) -> Iterator[str]:
    """``tricksim tune GAME BASE --params ...``: the search (one line per trial), the confirmation, the
    run folder (trials.csv, tune.json, the optuna journal) and the TOML heuristic."""
    pl = plan(game, base, params, against, budget, seed, trials, confirm, players, rules, user_defs)
    if toml_out is not None:
        toml_out = Path(toml_out)
        if toml_out.is_dir():
            raise TricksimError(f"--out {toml_out} is a folder; give the TOML file to write, e.g. tuned.toml")
        check_out_path(toml_out.parent if str(toml_out.parent) else Path("."), "--out's folder")
    opts = with_folder(opts, pl.game.key, "tune", pl.key)
    unit = pl.game.duplicate.unit
    yield (f"Tuning {', '.join(p.name for p in pl.params)} of {pl.base.label} against {pl.against.label} "
           f"({pl.game.title}" + (f", {pl.extra['players']} players" if "players" in pl.extra else "") + ")")
    yield "budget split: " + pl.split_text()
    yield ("ranges: " + ", ".join(f"{p.name} {p.lo:g}..{p.hi:g}" + (" (0/1)" if (p.lo, p.hi) == (0, 1)
                                                                      and p.help.startswith("1:") else "")
                                  for p in pl.params) + f"; optuna TPE sampler, seeded from --seed {pl.seed}")
    t0 = time.perf_counter()
    best = None
    for kind, x in tune_steps(pl, opts):
        if kind == "trial":
            if best is None or x["advantage"] > best["advantage"]:
                best = x
            yield (f"trial {x['trial']}/{pl.trials}: {_vals(pl, x)}  {pm(x['advantage'], x['ci'], 4, missing='no interval')}"
                   f"  (best so far: trial {best['trial']}, {best['advantage']:+.4f})")
        else:
            result = x
    write_table(result["trials"], opts.out, "trials")
    yield (f"\nbest of the search: trial {result['best_trial']}, {_vals(pl, result['best'])}: "
           f"{result['best_search']:+.4f} {unit} on the search deals (the best of {pl.trials} noisy scores "
           "is biased upwards; the confirmation below is the measurement)")
    if result["best_trial"] == 1:
        yield "the search found no set better than the base's own values (trial 1): the tuned heuristic is the base"
    yield f"confirmation on {pl.confirm_deals:,} fresh deals (seed {pl.confirm_seed}, never used in the search):"
    for c in result["confirm"]:
        yield "  " + render_confirm(pl, c)
    target = toml_out if toml_out is not None else Path(opts.out) / "tuned.toml"
    text = toml_text(result, engine.CURRENT_COMMAND)
    try:
        target.write_text(text)
    except OSError as e:
        raise TricksimError(f"--out {target} cannot be written: {e.strerror or e}") from None
    summary = {"config": pl.config(), "best": result["best"], "best_trial": result["best_trial"],
               "best_search": result["best_search"], "confirm": result["confirm"],
               "seconds": round(time.perf_counter() - t0, 1), "toml": str(target)}
    (Path(opts.out) / "result.json").write_text(json.dumps(summary, indent=2, sort_keys=True))
    yield (f"\ntuned heuristic {tuned_name(pl)} written to {target} (use: tricksim compare {pl.game.name} "
           f"{tuned_name(pl)} {pl.against.label} --heuristics {target}); trials in {opts.out}")
