"""The ``tricksim`` command: a thin Typer layer over the study functions of ``analysis/``.

Every user error raises ``tricksim.analysis.common.TricksimError`` (or a typer usage
error) and is printed as one line on stderr with exit code 2, never a traceback.
"""
from __future__ import annotations

import importlib
import math
import sys
from enum import Enum
from pathlib import Path
from types import SimpleNamespace
from typing import Annotated, List, Optional

import typer

from tricksim.analysis.common import TricksimError, check_out_path, check_seed, load_heuristic_file
from tricksim.analysis.registry import GAMES
from tricksim.analysis.registry import get as get_game

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  rich_markup_mode="rich",
                  help="Monte Carlo strategy analyser for Boulmous, Boomke Wies and Bourre.")


# the games, from the registry (analysis/registry.py): a choice of every command that takes a game
Game = Enum("Game", {g.key: g.name for g in GAMES}, type=str)
# the games with whole games and a money settlement (Bourre's sessions: tricksim pot)
StakesGame = Enum("StakesGame", {g.key: g.name for g in GAMES if g.stakes is not None}, type=str)
GAME_NAMES = {g.name: g.title for g in GAMES}


def game_module(game):
    """The game's package (its CLI adapters ``cli_*``)."""
    return importlib.import_module("tricksim.analysis." + get_game(game).key)


# ---- checks run while the command line is parsed: before anything is simulated ----------
def _check_seed(value):
    return None if value is None else check_seed(value)


def _check_precision(value):
    if value is not None and not (value > 0 and math.isfinite(value)):
        raise TricksimError(f"--until-precision must be a positive number (a 95% interval half-width, e.g. 0.005), "
                            f"got {value:g}")
    return value


def _check_out(value):
    if value is not None:
        check_out_path(value, "--out")
    return value


def _check_heuristics_file(value):
    if value is not None:
        load_heuristic_file(value)
    return value


def _check_hand(value):
    if value is not None and not value.strip():
        raise TricksimError("--hand is empty: give the hand's cards, e.g. --hand 'JH JD AH KH 9S TC' "
                            "(leave --hand out for the odds by hand class over random deals)")
    return value


def _version(value: bool):
    if value:
        from tricksim.analysis import __version__
        typer.echo(f"tricksim {__version__}")
        raise typer.Exit()


# ---- the options every simulating command shares ---------------------------
RUN = "Run folder and execution"
BOULMOUS, BOOMKE, BOURRE = "Boulmous only", "Boomke Wies only", "Bourre only"
Seed = Annotated[int, typer.Option("--seed", callback=_check_seed,
                                   help="one seed (0 to 2^64-1) fixes the whole run")]
Heur = Annotated[Optional[List[str]], typer.Option("--heuristic", "-H", help="NAME or NAME:p=v,... ; once for every seat or once per seat")]
HeurFile = Annotated[Optional[Path], typer.Option("--heuristics", callback=_check_heuristics_file,
                                                  help="TOML file of named heuristics (\\[heuristics.NAME] tables with base = ...)")]
Rule = Annotated[Optional[List[str]], typer.Option("--rule", "-r", help="rule variant flag name=value (see 'tricksim rules GAME')")]
Out = Annotated[Optional[Path], typer.Option("--out", callback=_check_out, rich_help_panel=RUN,
                                             help="run folder (default: reports/runs/<game>-<study>-<id>)")]
Threads = Annotated[Optional[int], typer.Option("--threads", rich_help_panel=RUN, help="limit local threads (default: all cores)")]
Sched = Annotated[Optional[str], typer.Option("--scheduler", rich_help_panel=RUN, help="Dask scheduler address, e.g. tcp://host:8786")]
Resume = Annotated[bool, typer.Option("--resume/--no-resume", rich_help_panel=RUN,
                                      help="reuse finished blocks of the same run in the run folder")]
Force = Annotated[bool, typer.Option("--force", rich_help_panel=RUN,
                                     help="replace a run folder that holds a different run (or the tables of a larger one)")]
Prec = Annotated[Optional[float], typer.Option("--until-precision", callback=_check_precision, rich_help_panel=RUN,
                                               help="stop when every 95% interval half-width is at most this (> 0)")]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", rich_help_panel=RUN, help="no progress bar")]
KeepHands = Annotated[bool, typer.Option("--keep-hands", rich_help_panel=BOULMOUS,
                                         help="without --hand: also keep one row per hand (large)")]



def _hands(default: str, help: str = "hands (deals) to simulate"):
    return Annotated[Optional[int], typer.Option("--hands", help=help, show_default=default)]


OddsHands = _hands("200,000 with --hand (Bourre: 100,000); 2,000,000 without")
TraceHands = _hands("10", "hands (deals) to print (Bourre: --sessions and --deals)")
CompareHands = _hands("Boulmous 1,000,000; Boomke Wies and Bourre 300,000", "deals, each replayed in every rotation")
SweepHands = _hands("Boulmous 250,000; Boomke Wies and Bourre 75,000", "deals per value (the same deals for every value)")
BenchHands = _hands("Boulmous 4,000,000; Boomke Wies and Bourre 2,000,000; --engine 10,000,000; --dask 20,000,000",
                    "hands per case")


@app.callback()
def _root(version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                                help="print the version and exit")] = False):
    """Monte Carlo strategy analyser for Boulmous, Boomke Wies and Bourre."""


def _opts(**kw):
    return SimpleNamespace(**kw)


# which game each game-specific option of ``odds`` belongs to (anything else is refused before running)
ODDS_OPTIONS = {"exact": ("--exact", ("boulmous",)), "keep_hands": ("--keep-hands", ("boulmous",)),
                "trump": ("--trump", ("boulmous", "boomke-wies")), "call": ("--call", ("boomke-wies",)),
                "double_dummy": ("--double-dummy", ("boomke-wies",)), "dd_deals": ("--dd-deals", ("boomke-wies",)),
                "up_card": ("--up-card", ("bourre",)), "players": ("--players", ("bourre",)),
                "pot": ("--pot", ("bourre",))}
NEEDS_HAND = {"seat": "--seat", "trump": "--trump", "call": "--call", "until_precision": "--until-precision",
              "exact": "--exact"}


def _check_odds_options(game: str, given: dict):
    for key, (flag, games) in ODDS_OPTIONS.items():
        if given.get(key) not in (None, False, [], ()) and game not in games:
            owners = " and ".join(GAME_NAMES[g] for g in games)
            raise TricksimError(f"{flag} does not apply to {GAME_NAMES[game]} (it is for {owners})")
    if given.get("hand") is None and game != "bourre":
        for key, flag in NEEDS_HAND.items():
            if given.get(key) not in (None, False, [], ()):
                raise TricksimError(f"{flag} needs --hand")
    if given.get("keep_hands") and given.get("hand") is not None:
        raise TricksimError("--keep-hands applies to the odds by hand class (without --hand)")


@app.command()
def odds(game: Game,
         hand: Annotated[Optional[str], typer.Option("--hand", callback=_check_hand,
                                                     help="the hand to study, e.g. 'JH JD AH KH 9S TC'")] = None,
         seat: Annotated[Optional[int], typer.Option("--seat", help="seat of the hand: Boulmous/Boomke 0 = dealer's left .. 3 = dealer; Bourre 0..players-1 from the dealer's left")] = None,
         exact: Annotated[bool, typer.Option("--exact", rich_help_panel=BOULMOUS,
                                             help="enumerate every layout of the other hands")] = False,
         trump: Annotated[Optional[List[str]], typer.Option("--trump", rich_help_panel="Boulmous and Boomke Wies",
                                                            help="only these trumps (S H D C; Boulmous also NT)")] = None,
         call: Annotated[Optional[List[str]], typer.Option("--call", rich_help_panel=BOOMKE,
                                                           help="only these calls (7..13, boom, meetje)")] = None,
         double_dummy: Annotated[bool, typer.Option("--double-dummy", rich_help_panel=BOOMKE,
                                                    help="add the perfect-play bound")] = False,
         dd_deals: Annotated[Optional[int], typer.Option("--dd-deals", rich_help_panel=BOOMKE,
                                                         help="deals for the double-dummy bound", show_default="1,000 with --hand, 2,000 without")] = None,
         up_card: Annotated[Optional[str], typer.Option("--up-card", rich_help_panel=BOURRE, help="the dealer's face-up card")] = None,
         players: Annotated[Optional[int], typer.Option("--players", rich_help_panel=BOURRE, help="players at the table (2-8)", show_default="7")] = None,
         pot: Annotated[Optional[int], typer.Option("--pot", rich_help_panel=BOURRE, help="pot size before the deal", show_default="0")] = None,
         hands: OddsHands = None, seed: Seed = 0, heuristic: Heur = None, heuristics: HeurFile = None, rule: Rule = None,
         out: Out = None, threads: Threads = None, scheduler: Sched = None, resume: Resume = True, force: Force = False,
         until_precision: Prec = None, quiet: Quiet = False, keep_hands: KeepHands = False):
    """Bid (play) success odds: of one hand with --hand, else by hand class over random deals."""
    opts = _opts(hand=hand, seat=seat, exact=exact, trump=trump, call=call, up_card=up_card, players=players, pot=pot,
                 double_dummy=double_dummy, dd_deals=dd_deals, hands=hands, seed=seed, heuristic=heuristic,
                 heuristics=heuristics, rule=rule, out=out, threads=threads, scheduler=scheduler,
                 resume=resume, force=force, until_precision=until_precision, progress=not quiet,
                 keep_hands=keep_hands)
    _check_odds_options(game.value, vars(opts))
    game_module(game).cli_odds(opts)


@app.command()
def trace(game: Game, hands: TraceHands = None, seed: Seed = 0, heuristic: Heur = None, heuristics: HeurFile = None,
          rule: Rule = None,
          jsonl: Annotated[bool, typer.Option("--jsonl", hidden=True,
                                              help="accepted for older scripts: JSON Lines is the only format")] = False,
          first: Annotated[int, typer.Option("--first", help="index of the first hand (Bourre: of the first session)")] = 0,
          players: Annotated[Optional[int], typer.Option("--players", rich_help_panel=BOURRE, help="players (2-8)", show_default="7")] = None,
          sessions: Annotated[Optional[int], typer.Option("--sessions", rich_help_panel=BOURRE, help="sessions", show_default="1")] = None,
          deals: Annotated[Optional[int], typer.Option("--deals", rich_help_panel=BOURRE, help="deals per session", show_default="10")] = None):
    """Print simulated hands as JSON Lines (TRACE.md; the only format, so --jsonl is optional),
    from the same kernel as the studies."""
    import json

    mod = game_module(game)
    for d in mod.cli_trace(_opts(hands=hands, seed=seed, heuristic=heuristic, heuristics=heuristics, rule=rule,
                                 first=first, players=players, sessions=sessions, deals=deals)):
        sys.stdout.write(json.dumps(d, separators=(",", ":")) + "\n")


@app.command("heuristics")
def heuristics_cmd(game: Game):
    """List the heuristics of a game with their parameters, defaults and ranges."""
    from tricksim.analysis.common import heuristics_table
    from tricksim.analysis.output import show

    g = get_game(game)
    df = heuristics_table(g.heuristics, g.aliases)
    typer.echo(show(df, wrap=("meaning",)))
    typer.echo("\nUse NAME or NAME:param=value,... e.g. --heuristic 'cautious:margin=0.2'")


@app.command()
def rules(game: Game):
    """List the rule variant flags of a game (docs/RULES.md) with their defaults."""
    import dataclasses
    import textwrap

    g = get_game(game)
    cls = g.rules
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
        typer.echo(f"{cls.PREFIX}.{f.name} = {f.default}    [{kind}]")
        if f.metadata.get("help"):
            typer.echo(textwrap.fill(f.metadata["help"], width=118, initial_indent="    ", subsequent_indent="    "))
    typer.echo(f"\nSee docs/RULES.md in the tricksim repository, section {g.rules_section}, for the full rules.")


@app.command()
def stakes(game: Annotated[StakesGame, typer.Argument(help="boulmous or boomke-wies (Bourre's sessions: tricksim pot)")],
           games: Annotated[Optional[int], typer.Option("--games", "--hands", help="whole games (Boomke Wies: matches) to play; --hands is the same option",
                                                        show_default="100,000")] = None,
           seed: Seed = 0, heuristic: Heur = None, heuristics: HeurFile = None, rule: Rule = None,
           out: Out = None, threads: Threads = None, scheduler: Sched = None, resume: Resume = True,
           force: Force = False, quiet: Quiet = False):
    """Whole games with the money settlement: expected stakes per seat."""
    mod = game_module(game)
    mod.cli_stakes(_opts(games=100_000 if games is None else games, seed=seed, heuristic=heuristic,
                         heuristics=heuristics, rule=rule, out=out, threads=threads, scheduler=scheduler,
                         resume=resume, force=force, progress=not quiet))


@app.command()
def bench(games: Annotated[Optional[List[Game]], typer.Argument(help="games (default: all implemented)")] = None,
          hands: BenchHands = None, seed: Seed = 0,
          threads: Annotated[Optional[List[int]], typer.Option("--threads", help="thread counts to time (default 1 and all)")] = None,
          engine: Annotated[bool, typer.Option("--engine", help="instead: the run engine's overhead on a Boulmous run")] = False,
          repeats: Annotated[int, typer.Option("--repeats", min=1, help="interleaved rounds per case (the best is reported)")] = 5,
          dask: Annotated[bool, typer.Option("--dask", help="instead: Dask LocalCluster (2 workers) against the local backend")] = False,
          compile_: Annotated[bool, typer.Option("--compile", help="instead: seconds per kernel entry point on a first run, cold (empty Numba cache) and cached, per headline study")] = False):
    """Hands per second of each game and heuristic, one thread and all threads."""
    from tricksim.analysis import bench as bench_mod
    from tricksim.analysis.output import show

    if hands is not None and hands < 1:
        raise TricksimError(f"--hands must be at least 1, got {hands}")
    if compile_:
        df = bench_mod.compile_times([g.value for g in games] if games else None)
    elif engine:
        df = bench_mod.engine_overhead(hands or 10_000_000, seed)
    elif dask:
        df = bench_mod.dask_throughput(hands or 20_000_000, seed)
    else:
        df = bench_mod.run(games=[g.value for g in games] if games else None, hands=hands, seed=seed, threads=threads,
                           repeats=repeats)
    typer.echo(show(df))


@app.command()
def compare(game: Game,
            names: Annotated[List[str], typer.Argument(help="heuristics to compare (NAME or NAME:p=v,...)")],
            hands: CompareHands = None, seed: Seed = 0, heuristics: HeurFile = None, rule: Rule = None,
            players: Annotated[Optional[int], typer.Option("--players", rich_help_panel=BOURRE, help="table size", show_default="7")] = None,
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
          hands: SweepHands = None, seed: Seed = 0, heuristics: HeurFile = None, rule: Rule = None,
          players: Annotated[Optional[int], typer.Option("--players", rich_help_panel=BOURRE, help="table size", show_default="7")] = None,
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
def report(out: Annotated[Path, typer.Option("--out", callback=_check_out, help="where the headline reports go")] = Path("reports"),
           quick: Annotated[bool, typer.Option("--quick", help="small sample sizes (a smoke run)")] = False,
           only: Annotated[Optional[List[str]], typer.Option(
               "--only", help="only these studies, updating their sections of README.md and keeping the others: "
                              "boulmous, boomke-wies, bourre, compare (repeat the option or separate with commas)")] = None,
           quiet: Quiet = False):
    """The main job: run the headline studies on built-in defaults into reports/."""
    from tricksim.analysis import studies

    studies.run_all(out=out, quick=quick, only=studies.check_only(only), progress=not quiet,
                    log=lambda line: typer.echo(f"tricksim: {line}", err=True))


def _usage_errors():
    """typer's usage-error class: vendored (typer >= 0.22) or click's (older typer, which depends on click)."""
    try:
        from typer._click.exceptions import UsageError
    except ImportError:  # pragma: no cover - older typer
        from click.exceptions import UsageError
    return (UsageError,)


USAGE_ERRORS = _usage_errors()


ABORTS = (KeyboardInterrupt, typer.Abort)  # typer.Abort is click's Abort on older typer



class _FitStdout:
    """stdout for the commands' printed results: prose lines longer than 120 columns are wrapped
    (``output.fit_text``); tables are built to fit by ``output.show``."""

    def __init__(self, stream):
        self.stream = stream
        self.buf = ""

    def write(self, s):
        if not isinstance(s, str):
            return self.stream.write(s)
        from tricksim.analysis.output import fit_text
        self.buf += s
        if "\n" in self.buf:
            head, self.buf = self.buf.rsplit("\n", 1)
            self.stream.write(fit_text(head) + "\n")
        return len(s)

    def flush(self):
        self.stream.flush()

    def finish(self):
        if self.buf:
            from tricksim.analysis.output import fit_text
            self.stream.write(fit_text(self.buf))
            self.buf = ""
        self.stream.flush()

    def __getattr__(self, name):
        return getattr(self.stream, name)


def main(argv=None):
    """Console entry point: one-line errors, exit code 2."""
    args = list(sys.argv[1:] if argv is None else argv)
    command = next((a for a in args if not a.startswith("-")), None)
    fit = None
    if command not in (None, "trace"):   # JSON Lines stay one record per line
        fit = sys.stdout = _FitStdout(sys.stdout)
    try:
        _main(argv)
    finally:
        if fit is not None and sys.stdout is fit:
            sys.stdout = fit.stream
            fit.finish()


def _main(argv):
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
    except OSError as e:   # a file or folder the run cannot use: one line, not a traceback
        where = f": {e.filename}" if getattr(e, "filename", None) else ""
        sys.stderr.write(f"tricksim: error: {e.strerror or e}{where}\n")
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
