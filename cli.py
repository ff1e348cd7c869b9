"""The ``tricksim`` command: a thin Typer layer over the study functions of ``analysis/``.

Every user error raises ``tricksim.analysis.common.TricksimError`` (or a typer usage
error) and is printed as one line on stderr with exit code 2, never a traceback.
"""
from __future__ import annotations

import importlib
import sys
from enum import Enum
from pathlib import Path
from types import SimpleNamespace
from typing import Annotated, List, Optional

import typer

from tricksim.analysis.common import TricksimError

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  rich_markup_mode=None,
                  help="Monte Carlo strategy analyser for Boulmous, Boomke Wies and Bourre.")


class Game(str, Enum):
    boulmous = "boulmous"
    boomke_wies = "boomke-wies"
    bourre = "bourre"


MODULES = {"boulmous": "tricksim.analysis.boulmous", "boomke-wies": "tricksim.analysis.boomke_wies", "bourre": "tricksim.analysis.bourre"}


def game_module(game):
    name = game.value if isinstance(game, Enum) else str(game)
    try:
        return importlib.import_module(MODULES[name])
    except ModuleNotFoundError as e:
        if e.name == MODULES[name]:
            raise TricksimError(f"the game {name!r} is not implemented yet") from None
        raise


# ---- the options every simulating command shares ---------------------------
Hands = Annotated[Optional[int], typer.Option("--hands", help="hands (deals) to simulate")]
Seed = Annotated[int, typer.Option("--seed", help="one seed fixes the whole run")]
Heur = Annotated[Optional[List[str]], typer.Option("--heuristic", "-H", help="NAME or NAME:p=v,... ; once for every seat or once per seat")]
HeurFile = Annotated[Optional[Path], typer.Option("--heuristics", help="TOML file of named heuristics ([heuristics.NAME] base=...)")]
Rule = Annotated[Optional[List[str]], typer.Option("--rule", "-r", help="rule variant flag name=value (see 'tricksim rules GAME')")]
Out = Annotated[Optional[Path], typer.Option("--out", help="run folder (default: reports/runs/<game>-<study>-<id>)")]
Threads = Annotated[Optional[int], typer.Option("--threads", help="limit local threads (default: all cores)")]
Sched = Annotated[Optional[str], typer.Option("--scheduler", help="Dask scheduler address, e.g. tcp://host:8786")]
Resume = Annotated[bool, typer.Option("--resume/--no-resume", help="reuse finished blocks of the same run in the run folder")]
Force = Annotated[bool, typer.Option("--force", help="replace a run folder that holds a different run")]
Prec = Annotated[Optional[float], typer.Option("--until-precision", help="stop when every 95% interval half-width is at most this")]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="no progress bar")]
KeepHands = Annotated[bool, typer.Option("--keep-hands", help="also keep one row per hand (large)")]


def _opts(**kw):
    return SimpleNamespace(**kw)


@app.command()
def odds(game: Game,
         hand: Annotated[Optional[str], typer.Option("--hand", help="the hand to study, e.g. 'JH JD AH KH 9S TC'")] = None,
         seat: Annotated[Optional[int], typer.Option("--seat", help="seat of the hand: Boulmous/Boomke 0 = dealer's left .. 3 = dealer; Bourre 0..players-1 from the dealer's left")] = None,
         exact: Annotated[bool, typer.Option("--exact", help="Boulmous: enumerate every layout of the other hands")] = False,
         trump: Annotated[Optional[List[str]], typer.Option("--trump", help="only these trumps (S H D C NT)")] = None,
         call: Annotated[Optional[List[str]], typer.Option("--call", help="Boomke Wies: only these calls (7..13, boom, meetje)")] = None,
         up_card: Annotated[Optional[str], typer.Option("--up-card", help="Bourre: the dealer's face-up card")] = None,
         players: Annotated[Optional[int], typer.Option("--players", help="Bourre: players at the table (2-8)")] = None,
         pot: Annotated[Optional[int], typer.Option("--pot", help="Bourre: pot size before the deal")] = None,
         double_dummy: Annotated[bool, typer.Option("--double-dummy", help="Boomke Wies: add the perfect-play bound")] = False,
         dd_deals: Annotated[Optional[int], typer.Option("--dd-deals", help="Boomke Wies: deals for the double-dummy bound")] = None,
         hands: Hands = None, seed: Seed = 0, heuristic: Heur = None, heuristics: HeurFile = None, rule: Rule = None,
         out: Out = None, threads: Threads = None, scheduler: Sched = None, resume: Resume = True, force: Force = False,
         until_precision: Prec = None, quiet: Quiet = False, keep_hands: KeepHands = False):
    """Bid (play) success odds: of one hand with --hand, else by hand class over random deals."""
    mod = game_module(game)
    mod.cli_odds(_opts(hand=hand, seat=seat, exact=exact, trump=trump, call=call, up_card=up_card, players=players, pot=pot,
                       double_dummy=double_dummy, dd_deals=dd_deals, hands=hands, seed=seed, heuristic=heuristic,
                       heuristics=heuristics, rule=rule, out=out, threads=threads, scheduler=scheduler,
                       resume=resume, force=force, until_precision=until_precision, progress=not quiet,
                       keep_hands=keep_hands))


@app.command()
def trace(game: Game, hands: Hands = None, seed: Seed = 0, heuristic: Heur = None, heuristics: HeurFile = None,
          rule: Rule = None,
          jsonl: Annotated[bool, typer.Option("--jsonl", help="JSON Lines output (TRACE.md); the only format")] = True,
          first: Annotated[int, typer.Option("--first", help="index of the first hand (Bourre: of the first session)")] = 0,
          players: Annotated[Optional[int], typer.Option("--players", help="Bourre: players (2-8)")] = None,
          sessions: Annotated[Optional[int], typer.Option("--sessions", help="Bourre: sessions")] = None,
          deals: Annotated[Optional[int], typer.Option("--deals", help="Bourre: deals per session")] = None):
    """Print simulated hands as JSON Lines (TRACE.md), from the same kernel as the studies."""
    import json

    mod = game_module(game)
    for d in mod.cli_trace(_opts(hands=hands, seed=seed, heuristic=heuristic, heuristics=heuristics, rule=rule,
                                 first=first, players=players, sessions=sessions, deals=deals)):
        sys.stdout.write(json.dumps(d, separators=(",", ":")) + "\n")


@app.command("heuristics")
def heuristics_cmd(game: Game):
    """List the heuristics of a game with their parameters, defaults and ranges."""
    from tricksim.analysis.common import heuristics_table

    mod = game_module(game)
    df = heuristics_table(mod.REGISTRY, mod.ALIASES)
    typer.echo(df.to_string(index=False))
    typer.echo("\nUse NAME or NAME:param=value,... e.g. --heuristic 'cautious:margin=0.2'")


@app.command()
def rules(game: Game):
    """List the rule variant flags of a game (RULES.md) with their defaults."""
    import dataclasses

    mod = game_module(game)
    cls = mod.RULES_CLASS
    for f in dataclasses.fields(cls):
        ch = f.metadata.get("choices")
        rng = f.metadata.get("range")
        if ch:
            kind = " | ".join(ch)
        elif isinstance(f.default, bool):
            kind = "true | false"
        elif rng:
            kind = f"{rng[0]}..{rng[1]}"
        elif isinstance(f.default, str):
            kind = "text"
        else:
            kind = "int"
        typer.echo(f"{cls.PREFIX}.{f.name} = {f.default}    [{kind}]  {f.metadata.get('help', '')}")


@app.command()
def stakes(game: Game,
           games: Annotated[int, typer.Option("--games", help="whole games to play")] = 100_000,
           seed: Seed = 0, heuristic: Heur = None, heuristics: HeurFile = None, rule: Rule = None,
           out: Out = None, threads: Threads = None, scheduler: Sched = None, resume: Resume = True,
           force: Force = False, quiet: Quiet = False):
    """Whole games with the money settlement: expected stakes per seat."""
    mod = game_module(game)
    if not hasattr(mod, "cli_stakes"):
        raise TricksimError(f"'stakes' is not defined for {game.value}")
    mod.cli_stakes(_opts(games=games, seed=seed, heuristic=heuristic, heuristics=heuristics, rule=rule, out=out,
                         threads=threads, scheduler=scheduler, resume=resume, force=force, progress=not quiet))


@app.command()
def bench(games: Annotated[Optional[List[Game]], typer.Argument(help="games (default: all implemented)")] = None,
          hands: Hands = None, seed: Seed = 0,
          threads: Annotated[Optional[List[int]], typer.Option("--threads", help="thread counts to time (default 1 and all)")] = None,
          engine: Annotated[bool, typer.Option("--engine", help="instead: the run engine's overhead on a Boulmous run (default 10M hands)")] = False,
          repeats: Annotated[int, typer.Option("--repeats", min=1, help="interleaved rounds per case (the best is reported)")] = 5,
          dask: Annotated[bool, typer.Option("--dask", help="instead: Dask LocalCluster (2 workers) against the local backend (default 20M hands)")] = False):
    """Hands per second of each game and heuristic, one thread and all threads."""
    from tricksim.analysis import bench as bench_mod

    if engine:
        df = bench_mod.engine_overhead(hands or 10_000_000, seed)
    elif dask:
        df = bench_mod.dask_throughput(hands or 20_000_000, seed)
    else:
        df = bench_mod.run(games=[g.value for g in games] if games else None, hands=hands, seed=seed, threads=threads,
                           repeats=repeats)
    typer.echo(df.to_string(index=False))


@app.command()
def compare(game: Game,
            names: Annotated[List[str], typer.Argument(help="heuristics to compare (NAME or NAME:p=v,...)")],
            hands: Hands = None, seed: Seed = 0, heuristics: HeurFile = None, rule: Rule = None,
            players: Annotated[Optional[int], typer.Option("--players", help="Bourre: table size")] = None,
            out: Out = None, threads: Threads = None, scheduler: Sched = None, resume: Resume = True,
            force: Force = False, until_precision: Prec = None, quiet: Quiet = False):
    """Duplicate tournament: every heuristic in every seat over the same deals."""
    from tricksim.analysis import compare as cmp

    cmp.cli_compare(_opts(game=game.value, names=names, hands=hands, seed=seed, heuristics=heuristics, rule=rule,
                          players=players, out=out, threads=threads, scheduler=scheduler, resume=resume, force=force,
                          until_precision=until_precision, progress=not quiet))


@app.command()
def sweep(game: Game,
          name: Annotated[str, typer.Argument(help="the heuristic whose parameter varies")],
          param: Annotated[str, typer.Option("--param", help="NAME=start:stop:step")],
          against: Annotated[str, typer.Option("--against", help="the fixed opponent heuristic")] = "default",
          hands: Hands = None, seed: Seed = 0, heuristics: HeurFile = None, rule: Rule = None,
          players: Annotated[Optional[int], typer.Option("--players", help="Bourre: table size")] = None,
          out: Out = None, threads: Threads = None, scheduler: Sched = None, resume: Resume = True,
          force: Force = False, quiet: Quiet = False):
    """Vary one parameter against a fixed opponent and plot the advantage with its band."""
    from tricksim.analysis import compare as cmp

    cmp.cli_sweep(_opts(game=game.value, name=name, param=param, against=against, hands=hands, seed=seed,
                        heuristics=heuristics, rule=rule, players=players, out=out, threads=threads,
                        scheduler=scheduler, resume=resume, force=force, progress=not quiet))


@app.command()
def pot(players: Annotated[int, typer.Option("--players", help="players at the table (2-8)")] = 7,
        deals: Annotated[int, typer.Option("--deals", help="deals per session")] = 200,
        sessions: Annotated[int, typer.Option("--sessions", help="independent sessions")] = 100_000,
        seed: Seed = 0, heuristic: Heur = None, heuristics: HeurFile = None, rule: Rule = None,
        sweep: Annotated[Optional[str], typer.Option("--sweep", help="players | pot_limit | double_ante | tie | max_discard | looseness, optionally =v1,v2,...")] = None,
        out: Out = None, threads: Threads = None, scheduler: Sched = None, resume: Resume = True,
        force: Force = False, quiet: Quiet = False):
    """Bourre: how the pot grows over sessions of consecutive deals."""
    mod = game_module("bourre")
    mod.cli_pot(_opts(players=players, deals=deals, sessions=sessions, seed=seed, heuristic=heuristic,
                      heuristics=heuristics, rule=rule, sweep=sweep, out=out, threads=threads, scheduler=scheduler,
                      resume=resume, force=force, progress=not quiet))


@app.command()
def report(out: Annotated[Path, typer.Option("--out", help="where the headline reports go")] = Path("reports"),
           quick: Annotated[bool, typer.Option("--quick", help="small sample sizes (a smoke run)")] = False,
           only: Annotated[Optional[List[str]], typer.Option("--only", help="only these studies")] = None,
           quiet: Quiet = False):
    """The main job: run the headline studies on built-in defaults into reports/."""
    from tricksim.analysis import studies

    studies.run_all(out=out, quick=quick, only=only, progress=not quiet)


def _usage_errors():
    """typer's usage-error class: vendored (typer >= 0.22) or click's (older typer, which depends on click)."""
    try:
        from typer._click.exceptions import UsageError
    except ImportError:  # pragma: no cover - older typer
        from click.exceptions import UsageError
    return (UsageError,)


USAGE_ERRORS = _usage_errors()


ABORTS = (KeyboardInterrupt, typer.Abort)  # typer.Abort is click's Abort on older typer



def main(argv=None):
    """Console entry point: one-line errors, exit code 2."""
    from tricksim.analysis import engine
    engine.set_command(list(sys.argv[1:] if argv is None else argv))
    try:
        rv = app(args=argv, prog_name="tricksim", standalone_mode=False)
    except USAGE_ERRORS as e:
        if type(e).__name__ == "NoArgsIsHelpError":
            app(args=["--help"], prog_name="tricksim", standalone_mode=False)
            raise SystemExit(0)
        msg = e.format_message().replace("\n", " ")
        sys.stderr.write(f"tricksim: error: {msg}\n")
        raise SystemExit(2)
    except TricksimError as e:
        sys.stderr.write(f"tricksim: error: {e}\n")
        raise SystemExit(2)
    except ABORTS:
        sys.stderr.write("tricksim: interrupted; finished blocks are kept: run the same command again to resume\n")
        raise SystemExit(130)
    if isinstance(rv, int) and rv:
        if rv == 130:  # typer turns Ctrl-C into exit code 130 when standalone_mode is off
            sys.stderr.write("tricksim: interrupted; finished blocks are kept: run the same command again to resume\n")
        raise SystemExit(rv)


if __name__ == "__main__":
    main()
