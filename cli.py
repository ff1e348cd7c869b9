"""The ``tricksim`` command: a thin Typer layer over the studies of ``analysis/``.

It parses the command line, builds the rules, heuristics and run options, and prints what the
analysis commands yield; ``analysis/`` never prints.  Every game comes from the registry
(``analysis/registry.py``, ``GAMES``): a command that takes the same options in every game takes
the game as an argument; ``odds``, ``trace``, ``compare`` and ``sweep`` are groups with one
sub-command per game, each with only the options that apply to it, so typer itself refuses the
others.  Every user error raises ``tricksim.analysis.common.TricksimError`` (or a typer usage error)
and is printed as one line on stderr with exit code 2, never a traceback.
"""
from __future__ import annotations

import functools
import json
import math
import os
import sys
import time
from contextvars import ContextVar
from enum import Enum
from pathlib import Path
from typing import Annotated, Iterable, List, Optional

import typer

from .analysis import __version__
from .analysis import bench as bench_mod
from .analysis import chart as chart_mod
from .analysis import boomke_wies, boulmous, bourre
from .analysis import compare as cmp
from .analysis import compiling, engine, studies
from .analysis import tables as tables_mod
from .analysis import warmup
from .analysis import web
from .analysis.boomke_wies import explain as boomke_explain
from .analysis.boulmous import trace_explain as boulmous_trace_explain
from .analysis.boomke_wies.equity_views import boomke_command
from .analysis.boulmous.equity.views import boulmous_command
from .analysis.common import (TricksimError, check_out_path, check_seed, exit_now, heuristics_table,
                              load_heuristic_file, rules_text)
from .analysis.compare.games import games_command
from .analysis.engine import RunOptions
from .analysis.output import fit_text, show
from .analysis.progress import Cancelled
from .analysis.registry import GAMES
from .analysis.registry import get as get_game
from .analysis.studies import STUDIES
from .analysis.tune import tune_command


def _plain_flags():
    """A flag takes no value, so its help shows no type.  typer's rich help (0.2x) prints the type of every option,
    "<bool>" beside --quiet, --force or --help too (click's plain help never did); the flags' row shows none."""
    try:
        from typer.core import TyperOption
    except ImportError:  # pragma: no cover - older typer
        return
    shown = getattr(TyperOption, "display_type_rich", None)
    if shown is None or getattr(shown, "plain_flags", False):
        return

    def display_type_rich(self, ctx):
        if getattr(self, "is_flag", False) or getattr(self, "count", False):
            return None
        return shown(self, ctx)

    display_type_rich.plain_flags = True
    TyperOption.display_type_rich = display_type_rich


_plain_flags()

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  rich_markup_mode="rich",
                  help="Monte Carlo strategy analyser for Boulmous, Boomke Wies and Bourre.")


def _group(name: str, help: str) -> typer.Typer:
    """A command with one sub-command per game (``tricksim NAME GAME ...``)."""
    group = typer.Typer(no_args_is_help=True, rich_markup_mode="rich", help=help)
    app.add_typer(group, name=name)
    return group


odds_app = _group("odds", "Bid (play) success odds: of one hand with --hand, else by hand class over random deals.")
trace_app = _group("trace", "Print simulated hands as JSON Lines (docs/trace.md; the only format, so --jsonl is optional), "
                            "from the same kernel as the studies.")
compare_app = _group("compare", "Duplicate tournament: every heuristic in every seat over the same deals.")
chart_app = _group("chart", "Strategy charts a player can carry to the table: the best action per hand class and "
                            "situation, with its margin, 95% interval and n (heatmap PNG, CSV, markdown page).")
sweep_app = _group("sweep", "Vary one parameter against a fixed opponent and plot the advantage with its band.")

# the games, from the registry: the choice of every command that takes a game as an argument
Game = Enum("Game", {g.key: g.name for g in GAMES}, type=str)
# the games with whole games and a money settlement (Bourre's sessions: tricksim pot)
StakesGame = Enum("StakesGame", {g.key: g.name for g in GAMES if g.stakes is not None}, type=str)


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
        typer.echo(f"tricksim {__version__}")
        raise typer.Exit()


def _needs(what: str, **given):
    """Refuse options given without ``what`` (e.g. ``--seat`` without ``--hand``)."""
    for name, value in given.items():
        if value not in (None, False, [], ()):
            raise TricksimError(f"--{name.replace('_', '-')} needs {what}")


# ---- the options every simulating command shares ---------------------------
RUN = "Run folder and execution"
Seed = Annotated[int, typer.Option("--seed", callback=_check_seed,
                                   help="one seed (0 to 2^64-1) fixes the whole run")]
Heur = Annotated[Optional[List[str]], typer.Option("--heuristic", "-H", help="NAME or NAME:p=v,... ; once for every seat or once per seat")]
HeurFile = Annotated[Optional[Path], typer.Option("--heuristics", callback=_check_heuristics_file,
                                                  help="TOML file of named heuristics (\\[heuristics.NAME] tables with base = ...)")]
Rule = Annotated[Optional[List[str]], typer.Option("--rule", "-r", help="rule variant flag name=value (see 'tricksim rules GAME')")]
Out = Annotated[Optional[Path], typer.Option("--out", callback=_check_out, rich_help_panel=RUN,
                                             help="run folder (default: reports/runs/<game>-<study>-<id>)")]
Threads = Annotated[Optional[int], typer.Option("--threads", min=1, rich_help_panel=RUN, help="limit local threads (default: all cores)")]
Sched = Annotated[Optional[str], typer.Option("--scheduler", rich_help_panel=RUN, help="Dask scheduler address, e.g. tcp://host:8786")]
Resume = Annotated[bool, typer.Option("--resume/--no-resume", rich_help_panel=RUN,
                                      help="reuse finished blocks of the same run in the run folder")]
Force = Annotated[bool, typer.Option("--force", rich_help_panel=RUN,
                                     help="replace a run folder that holds a different run (or the tables of a larger one)")]
Prec = Annotated[Optional[float], typer.Option("--until-precision", callback=_check_precision, rich_help_panel=RUN,
                                               help="with --hand: stop early when the 95% interval of every rate "
                                                    "in the table (P(make); Bourre: P(win pot), P(tie), P(bourre)) "
                                                    "has a half-width of at most X, X a fraction: 0.01 = 1 "
                                                    "percentage point (checked after each block; at most --hands)")]
ComparePrec = Annotated[Optional[float], typer.Option(
    "--until-precision", callback=_check_precision, rich_help_panel=RUN,
    help="stop early when every 95% interval (each heuristic's result and each pair's difference) has a "
         "half-width of at most X, in the table's unit (points or chips per deal), e.g. 0.01; without --hands "
         "the precision alone decides when to stop")]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", rich_help_panel=RUN, help="no progress bar")]
Hand = Annotated[Optional[str], typer.Option("--hand", callback=_check_hand,
                                             help="the hand to study, e.g. 'JH JD AH KH 9S TC'")]
Seat4 = Annotated[Optional[int], typer.Option("--seat", min=0, max=3, help="seat of the hand: 0 = dealer's left .. 3 = dealer (default: 0)")]
First = Annotated[int, typer.Option("--first", min=0, help="index of the first hand")]
Jsonl = Annotated[bool, typer.Option("--jsonl", hidden=True, help="accepted for older scripts: JSON Lines is the only format")]
Players = Annotated[Optional[int], typer.Option("--players", min=2, max=8, help="players at the table (2-8)", show_default="7")]


def _hands(default: str, help: str = "hands (deals) to simulate"):
    return Annotated[Optional[int], typer.Option("--hands", min=1, help=help, show_default=default)]


OddsHands = _hands("200,000 with --hand; 2,000,000 without")
TraceHands = Annotated[int, typer.Option("--hands", min=1, help="hands (deals) to print")]
TraceExplain = Annotated[bool, typer.Option("--explain", help="with -H pimc: add to each line the field 'explain': at each decision of a sampling seat (its calls or its play/pass and draw, its cards) its candidates' values over the worlds it sampled (mean, 95% interval, worlds) and the best, which is what it played")]
BenchHands = _hands("Boulmous 4,000,000; Boomke Wies and Bourre 2,000,000; --engine 10,000,000; --dask 20,000,000",
                    "hands per case")


def _opts(out, threads, scheduler, quiet, force, resume) -> RunOptions:
    return RunOptions(out=out, threads=threads, scheduler=scheduler, progress=not quiet, force=force, resume=resume)


def _user_defs(path):
    return load_heuristic_file(path) if path else None


_PAGE_LINES: ContextVar = ContextVar("tricksim_page_lines", default=None)


def _echo(lines: Iterable[str]):
    """Print what an analysis command yields, as it comes (for the web page, ``page_command``: into its list)."""
    sink = _PAGE_LINES.get()
    for text in lines:
        if sink is None:
            typer.echo(text)
        else:
            sink.append(str(text))


@app.callback()
def _root(version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                                help="print the version and exit")] = False):
    """Monte Carlo strategy analyser for Boulmous, Boomke Wies and Bourre."""


# ---- odds: one sub-command per game ------------------------------------------------------------
@odds_app.command("boulmous")
def odds_boulmous(hand: Hand = None, seat: Seat4 = None,
                  exact: Annotated[bool, typer.Option("--exact", help="with --hand: also enumerate every layout of the other hands")] = False,
                  trump: Annotated[Optional[List[str]], typer.Option("--trump", help="with --hand: only these trumps (S H D C NT)")] = None,
                  keep_hands: Annotated[bool, typer.Option("--keep-hands", help="without --hand: also keep one row per hand (large)")] = False,
                  hands: OddsHands = None, seed: Seed = 0, heuristic: Heur = None, heuristics: HeurFile = None,
                  rule: Rule = None, out: Out = None, threads: Threads = None, scheduler: Sched = None,
                  resume: Resume = True, force: Force = False, until_precision: Prec = None, quiet: Quiet = False,
                  play: Annotated[Optional[str], typer.Option("--play", help="kinds of play side by side on the same deals, e.g. heuristic,pimc,open (pimc = the sampling player, pimc:worlds=N; open = open-hand, double-dummy play); with --hand the odds of that hand, else the class table (default 200,000 deals; with pimc 4,000 with --hand, 10,000 without)")] = None,
                  scores: Annotated[Optional[str], typer.Option("--scores", help="with --hand: the four scores (seats 0-3 as --seat numbers them); ranks the calls by the chance to win the game")] = None,
                  explain: Annotated[bool, typer.Option("--explain", help="with --hand: why: every call (pass, each bid 3-6 in each trump and NT) with its paired margin behind the best (95% interval over 20 batches of the same deals; 'close' when it reaches 0) and deals of the run where the best call wins and where it loses, with every hand as dealt")] = False):
    """Boulmous: the bid odds of one hand (--hand; --exact enumerates every layout; --play heuristic,open under each kind of play on the same deals; --explain: why the best call is best), else success by hand class and how auctions end over random deals."""
    if hand is None:
        _needs("--hand", seat=seat, trump=trump, until_precision=until_precision, exact=exact, explain=explain)
    elif keep_hands:
        raise TricksimError("--keep-hands applies to the odds by hand class (without --hand)")
    g = boulmous.GAME
    if explain:
        extra = [o for o, v in (("--exact", exact), ("--play", play), ("--scores", scores), ("--trump", trump),
                                ("--until-precision", until_precision)) if v]
        if extra:
            raise TricksimError("--explain weighs every call of the plain Monte Carlo odds on --hands deals: leave out "
                                + " and ".join(extra))
        _echo(boulmous.explain_command(hand, seat, hands, seed,
                                       g.parse_seats(heuristic, user_defs=_user_defs(heuristics)), g.rules_from(rule),
                                       _opts(out, threads, scheduler, quiet, force, resume)))
        return
    _echo(boulmous.odds_command(hand, seat, exact, trump, keep_hands, hands, seed,
                                g.parse_seats(heuristic, user_defs=_user_defs(heuristics)), g.rules_from(rule),
                                until_precision, _opts(out, threads, scheduler, quiet, force, resume), play, scores))


@odds_app.command("boomke-wies")
def odds_boomke_wies(hand: Hand = None, seat: Annotated[Optional[int], typer.Option(
                         "--seat", min=0, max=3, help="seat of the hand: 0 = dealer's left .. 3 = dealer (default: all four)")] = None,
                     trump: Annotated[Optional[List[str]], typer.Option("--trump", help="with --hand: only these trumps (S H D C)")] = None,
                     call: Annotated[Optional[List[str]], typer.Option("--call", help="with --hand: only these calls (7..13, boom, meetje)")] = None,
                     double_dummy: Annotated[bool, typer.Option("--double-dummy", help="add open-hand (double-dummy) play beside the heuristics, on the same deals (the dd extra)")] = False,
                     dd_deals: Annotated[Optional[int], typer.Option(
                         "--dd-deals", min=1, help="deals for the open-hand (double-dummy) column (at most --hands)",
                                                                     show_default="1,000 with --hand, 2,000 without")] = None,
                     hands: OddsHands = None, seed: Seed = 0, heuristic: Heur = None, heuristics: HeurFile = None,
                     rule: Rule = None, out: Out = None, threads: Threads = None, scheduler: Sched = None,
                     resume: Resume = True, force: Force = False, until_precision: Prec = None, quiet: Quiet = False,
                     play: Annotated[Optional[str], typer.Option("--play", help="with --hand: kinds of play side by side on the same deals, e.g. heuristic,open (open = open-hand, double-dummy play: the dd extra; default 1,000 deals)")] = None,
                     explain: Annotated[bool, typer.Option("--explain", help="with --hand: why: every call of the seat (--seat, default 0: pass, 7-12 and Boom opening each suit held; the dealer also 7/Boom/Meetje after three passes) with its paired margin behind the best (95% interval over 20 batches of the same deals; 'close' when it reaches 0) and deals of the run where the best call wins and where it loses, with every hand as dealt")] = False):
    """Boomke Wies: the odds of one hand per trump and call in each seat (--hand), else how auctions end and success by hand class over random deals; --double-dummy adds open-hand (double-dummy) play on the same deals (both sides see all cards and play perfectly: not a bound on the heuristics' result); --hand ... --play heuristic,open: the hand's calls under each kind of play, with the paired gap."""
    if hand is None:
        _needs("--hand", seat=seat, trump=trump, call=call, until_precision=until_precision, explain=explain)
    if not double_dummy:
        _needs("--double-dummy", dd_deals=dd_deals)
    g = boomke_wies.GAME
    if explain:
        extra = [o for o, v in (("--double-dummy", double_dummy), ("--play", play), ("--trump", trump),
                                ("--call", call), ("--until-precision", until_precision)) if v]
        if extra:
            raise TricksimError("--explain weighs every call of the plain Monte Carlo odds on --hands deals: leave out "
                                + " and ".join(extra))
        _echo(boomke_explain.explain_command(hand, seat, hands, seed,
                                             g.parse_seats(heuristic, user_defs=_user_defs(heuristics)),
                                             g.rules_from(rule), _opts(out, threads, scheduler, quiet, force, resume)))
        return
    _echo(boomke_wies.odds_command(hand, seat, trump, call, double_dummy, dd_deals, hands, seed,
                                   g.parse_seats(heuristic, user_defs=_user_defs(heuristics)), g.rules_from(rule),
                                   until_precision, _opts(out, threads, scheduler, quiet, force, resume), play))


@odds_app.command("bourre")
def odds_bourre(hand: Annotated[str, typer.Option("--hand", callback=_check_hand, help="the hand's 5 cards, e.g. 'AH KH 7C 4D 2S'")],
                up_card: Annotated[str, typer.Option("--up-card", help="the dealer's face-up card, which fixes trumps")],
                players: Annotated[int, typer.Option("--players", min=2, max=8, help="players at the table (2-8)")] = bourre.DEFAULT_PLAYERS,
                seat: Annotated[int, typer.Option("--seat", min=0, help="seat of the hand: 0 = dealer's left .. players-1 = dealer")] = 0,
                pot: Annotated[int, typer.Option("--pot", min=0, help="chips in the pot before the deal's antes")] = 0,
                hands: Annotated[Optional[int], typer.Option("--hands", min=1, help="random deals of the unseen cards",
                                                             show_default="100,000")] = None,
                seed: Seed = 0, heuristic: Heur = None, heuristics: HeurFile = None, rule: Rule = None,
                out: Out = None, threads: Threads = None, scheduler: Sched = None, resume: Resume = True,
                force: Force = False, until_precision: Prec = None, quiet: Quiet = False,
                play: Annotated[Optional[str], typer.Option("--play", help="kinds of play side by side on the same deals, e.g. heuristic,pimc,open (pimc = the seat plays its cards as the sampling player, pimc:worlds=N,pimc:race=X; open = paranoid open-hand play of the tricks after the heuristics' draw: every card seen, all the others together against the seat; default 20,000 deals)")] = None,
                explain: Annotated[bool, typer.Option("--explain", help="why: every choice with its paired margin behind the best (95% interval over 20 batches of the same deals; 'close' when it reaches 0) and deals of the run where the best choice wins and where it loses, with the other hands as dealt")] = False):
    """Bourre: the chances of one hand before the draw, every pass / play / discard choice on the same deals (--play heuristic,pimc,open: under the heuristics, the sampling player and paranoid open-hand play; --explain: why the best choice is best)."""
    g = bourre.GAME
    if explain:
        if play is not None or until_precision is not None:
            raise TricksimError("--explain takes the plain odds (the heuristics) on --hands deals: leave out --play "
                                "and --until-precision")
        _echo(bourre.explain_command(hand, up_card, players, seat, pot, hands, seed,
                             g.parse_seats(heuristic, players, _user_defs(heuristics)), g.rules_from(rule),
                             _opts(out, threads, scheduler, quiet, force, resume)))
        return
    _echo(bourre.odds_command(hand, up_card, players, seat, pot, hands, seed,
                              g.parse_seats(heuristic, players, _user_defs(heuristics)), g.rules_from(rule),
                              until_precision, _opts(out, threads, scheduler, quiet, force, resume), play))


# ---- chart: one sub-command per game ----------------------------------------------------------------
ChartQuick = Annotated[bool, typer.Option("--quick", help="a small chart in well under a minute warm (few hands per "
                                                          "cell: most cells close); the sizes are said in the output")]
ChartHands = Annotated[Optional[int], typer.Option("--hands", min=3, help="representative hands per cell (the "
                                                   "intervals are taken over them)", show_default="Bourre and Boomke Wies 24, Boulmous 32; --quick 4 (Boomke Wies 6)")]
ChartDeals = Annotated[Optional[int], typer.Option("--deals", min=1, help="random deals of the unseen cards per hand, "
                                                   "the same deals for every action", show_default="Bourre 2,048, the others 4,096; --quick 512 (Boomke Wies 1,024)")]
ChartThreads = Annotated[Optional[int], typer.Option("--threads", min=1, rich_help_panel=RUN, help="threads of the "
                                                     "kernels (a hand's few deals keep a second thread waiting)",
                                                     show_default="1; --play pimc: all cores")]
ChartOut = Annotated[Optional[Path], typer.Option("--out", callback=_check_out, help="folder of the chart's files",
                                                  show_default="reports/charts")]


def _players_list(text: str) -> list[int]:
    try:
        out = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise TricksimError(f"--players takes table sizes separated by commas, e.g. 4,5,7; got {text!r}") from None
    if not out:
        raise TricksimError("--players is empty: give table sizes, e.g. 4,5,7")
    return out


def _chart_log(quiet: bool):
    return None if quiet else (lambda line: typer.echo(f"tricksim: {line}", err=True))


@chart_app.command("bourre")
def chart_bourre(players: Annotated[str, typer.Option("--players", help="table sizes, one panel each (4-8)")] = "4,5,7",
                 quick: ChartQuick = False, hands: ChartHands = None, deals: ChartDeals = None, seed: Seed = 0,
                 play: Annotated[str, typer.Option("--play", help="who plays the seat's cards: heuristic (every seat "
                                                   "basic) or pimc (the sampling player plays the seat's cards, "
                                                   "pimc:worlds=N; slow: 3 hands x 64 deals a cell by default, "
                                                   "about 10 minutes a table size), with the heuristics beside on "
                                                   "the same deals")] = "heuristic",
                 rule: Rule = None, out: ChartOut = None, threads: ChartThreads = None, quiet: Quiet = False):
    """Bourre: play or pass, and how many cards to draw (the weakest first), by hand class (rows: trumps held and
    the highest, side aces and kings), seat (first to declare, middle, last before the dealer, dealer) and the
    up-card's rank (columns), one panel per table size. A cell's hands are drawn at random within its class
    (seeded: --seed fixes the chart); each is evaluated as 'odds bourre --hand' does, every action on the same
    deals; the cell shows the action of the highest mean, its expected chips per chip in the pot (+1 = the pot
    won alone, -1 = a bourre paid), and its margin over the next best with a 95% interval over the hands. A cell
    whose interval reaches 0 is 'close' (hatched, '~'): both actions are named. Writes bourre.csv, one heatmap
    per table size (bourre-7p.png ...) and bourre.md (a page to print) into --out."""
    _echo(chart_mod.chart_command(bourre.GAME, out, quick, hands, deals, seed, play, bourre.GAME.rules_from(rule),
                                  RunOptions(threads=threads), _chart_log(quiet), players=_players_list(players)))


@chart_app.command("boulmous")
def chart_boulmous(quick: ChartQuick = False, hands: ChartHands = None,
                   deals: ChartDeals = None, seed: Seed = 0,
                   scores: Annotated[Optional[str], typer.Option("--scores", help="instead: the calls by the chance "
                                     "to win the game (the equity table, as odds boulmous --hand --scores), one panel "
                                     "per score state: even (0 each), need3 (I need 3 to win), opp3 (the next player "
                                     "needs 3), or all; e.g. --scores even,need3,opp3")] = None,
                   play: Annotated[str, typer.Option("--play", help="who plays the cards: heuristic (every seat "
                                                     "cautious) or pimc (the sampling player plays the cards, "
                                                     "pimc:worlds=N; slow: 3 hands x 64 deals a cell by default, "
                                                     "about 9 minutes on 2 cores; --quick 3 x 16 about 3), with the "
                                                     "heuristics beside on the same deals")] = "heuristic",
                   rule: Rule = None, out: ChartOut = None, threads: ChartThreads = None, quiet: Quiet = False):
    """Boulmous: pass, or the bid to make (3 to 6, in the hand's long suit or at no trumps), by hand class (rows:
    trumps in the long suit with the bowers, the bowers, side aces) and seat (columns: first to bid .. dealer).
    A cell's hands are drawn at random within its class (seeded: --seed fixes the chart); each is evaluated as
    'odds boulmous --hand' does, every call on the same deals; the cell shows the call of the highest mean (the
    deal's points plus stakes), its margin over the next best with a 95% interval over the hands, and n. A cell
    whose interval reaches 0 is 'close' (hatched, '~'): both calls are named. Writes boulmous.csv,
    boulmous-4p.png and boulmous.md into --out (with --scores: boulmous-scores.*, one image per score state).
    (Defaults: 32 hands x 4,096 deals per cell; --quick 4 x 512; --play pimc 3 x 64, --quick 3 x 16.)"""
    _echo(chart_mod.chart_command(boulmous.GAME, out, quick, hands, deals, seed, play,
                                  boulmous.GAME.rules_from(rule), RunOptions(threads=threads), _chart_log(quiet),
                                  scores=scores))


@chart_app.command("boomke-wies")
def chart_boomke_wies(quick: ChartQuick = False, hands: ChartHands = None, deals: ChartDeals = None, seed: Seed = 0,
                      play: Annotated[str, typer.Option("--play", help="who plays the seat's cards: heuristic (every "
                                                        "seat partner) or pimc (the sampling player plays the seat's "
                                                        "cards, pimc:worlds=N; slow: 4 hands x 128 deals a row by "
                                                        "default, about 5 minutes on 2 cores; --quick 3 x 32 about 1), with "
                                                        "the heuristics beside on the same deals")] = "heuristic",
                      rule: Rule = None, out: ChartOut = None, threads: ChartThreads = None, quiet: Quiet = False):
    """Boomke Wies: pass, or the bid to make (7-12, Boom, the dealer's Meetje), by hand class (rows: the longest
    suit's length, high-card points) and seat (columns: first to bid .. dealer, and the dealer's forced call after
    three passes: 7, Boom or Meetje). A row's hands are drawn at random within its class (seeded: --seed fixes the
    chart) and evaluated once, as 'odds boomke-wies --hand' does, for every seat on the same deals; the cell shows
    the call of the highest expected net points, its margin over the next best with a 95% interval over the hands,
    and n. A cell whose interval reaches 0 is 'close' (hatched, '~'): both calls are named. Writes
    boomke-wies.csv, boomke-wies-4p.png and boomke-wies.md into --out. (Defaults: 24 hands x 4,096 deals per
    row; --quick 6 x 1,024; --play pimc 4 x 128, --quick 3 x 32.)"""
    _echo(chart_mod.chart_command(boomke_wies.GAME, out, quick, hands, deals, seed, play,
                                  boomke_wies.GAME.rules_from(rule), RunOptions(threads=threads), _chart_log(quiet)))


# ---- trace: one sub-command per game -------------------------------------------------------------
def _jsonl(records):
    for d in records:
        sys.stdout.write(json.dumps(d, separators=(",", ":")) + "\n")


@trace_app.command("boulmous")
def trace_boulmous(hands: TraceHands = 10, seed: Seed = 0, heuristic: Heur = None, heuristics: HeurFile = None,
                   rule: Rule = None, jsonl: Jsonl = False, first: First = 0, explain: TraceExplain = False):
    """Boulmous: hands first..first+hands-1, one JSON line each."""
    g = boulmous.GAME
    rules, specs = g.rules_from(rule), g.parse_seats(heuristic, user_defs=_user_defs(heuristics))
    if explain:
        _jsonl(boulmous_trace_explain.with_explain(g.trace(seed, hands, rules, specs, first=first), seed, rules,
                                                   specs))
        return
    _jsonl(g.trace(seed, hands, rules, specs, first=first))


@trace_app.command("boomke-wies")
def trace_boomke_wies(hands: TraceHands = 10, seed: Seed = 0, heuristic: Heur = None, heuristics: HeurFile = None,
                      rule: Rule = None, jsonl: Jsonl = False, first: First = 0, explain: TraceExplain = False):
    """Boomke Wies: deals first..first+hands-1, one JSON line each."""
    g = boomke_wies.GAME
    _jsonl(g.trace(seed, hands, g.rules_from(rule), g.parse_seats(heuristic, user_defs=_user_defs(heuristics)),
                   first=first, explain=explain))


@trace_app.command("bourre")
def trace_bourre(players: Annotated[int, typer.Option("--players", min=2, max=8, help="players (2-8)")] = bourre.DEFAULT_PLAYERS,
                 sessions: Annotated[int, typer.Option("--sessions", min=1, help="sessions")] = 1,
                 deals: Annotated[int, typer.Option("--deals", min=1, help="deals per session")] = 10,
                 seed: Seed = 0, heuristic: Heur = None, heuristics: HeurFile = None, rule: Rule = None,
                 jsonl: Jsonl = False,
                 first: Annotated[int, typer.Option("--first", min=0, help="index of the first session")] = 0,
                 explain: TraceExplain = False):
    """Bourre: the deals of sessions first..first+sessions-1 exactly as ``pot`` plays them, one JSON line each."""
    g = bourre.GAME
    _jsonl(g.trace(seed, players, sessions, deals, g.rules_from(rule),
                   g.parse_seats(heuristic, players, _user_defs(heuristics)), first=first, explain=explain))


# ---- commands that take the game as an argument ----------------------------------------------
@app.command("heuristics")
def heuristics_cmd(game: Game):
    """List the heuristics of a game with their parameters, defaults and ranges."""

    g = get_game(game)
    typer.echo(show(heuristics_table(g.heuristics, g.aliases), wrap=("meaning",)))
    typer.echo("\nUse NAME or NAME:param=value,... e.g. --heuristic 'cautious:margin=0.2'")


@app.command()
def rules(game: Game,
          full: Annotated[bool, typer.Option("--full", help="print the game's whole section of the rules "
                                                            "(docs/RULES.md, shipped with tricksim)")] = False):
    """List the rule variant flags of a game with their defaults; --full prints the game's rules."""

    g = get_game(game)
    if full:
        typer.echo(rules_section(g.rules_section))
        return
    typer.echo(rules_text(g.rules))
    typer.echo(f"\nThe full rules: tricksim rules {g.name} --full (docs/RULES.md section {g.rules_section}, "
               f"installed with tricksim).")


RULES_MD = Path(__file__).resolve().parent / "docs" / "RULES.md"   # a checkout's docs/, or the installed package's


def rules_section(section: str) -> str:
    """The text of docs/RULES.md section ``section`` (e.g. ``3 (Bourre)``): from its ``## 3.`` heading to the
    next heading of the same level."""
    number = section.split()[0]
    try:
        lines = RULES_MD.read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise TricksimError(f"cannot read the rules: {RULES_MD}: {e.strerror or e} (an incomplete install?)") from None
    start = next((i for i, x in enumerate(lines) if x.startswith(f"## {number}.")), None)
    if start is None:
        raise TricksimError(f"docs/RULES.md has no section {section}")
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    while end > start and lines[end - 1].strip() in ("", "---"):
        end -= 1
    return "\n".join(lines[start:end])


@app.command()
def stakes(game: Annotated[StakesGame, typer.Argument(help="boulmous or boomke-wies (Bourre's sessions: tricksim pot)")],
           games: Annotated[Optional[int], typer.Option("--games", "--hands", min=1, help="whole games (Boomke Wies: matches) to play; --hands is the same option",
                                                        show_default="100,000")] = None,
           seed: Seed = 0, heuristic: Heur = None, heuristics: HeurFile = None, rule: Rule = None,
           out: Out = None, threads: Threads = None, scheduler: Sched = None, resume: Resume = True,
           force: Force = False, quiet: Quiet = False):
    """Whole games with the money settlement: expected stakes per seat."""
    g = get_game(game)
    _echo(g.stakes(100_000 if games is None else games, seed,
                   g.parse_seats(heuristic, user_defs=_user_defs(heuristics)), g.rules_from(rule),
                   _opts(out, threads, scheduler, quiet, force, resume)))


# ---- equity: match equity tables (issue 16) ----------------------------------------------------
equity_app = _group("equity", "Match equity: each side's chance to win the game (match) from a score state.")
Deals = Annotated[int, typer.Option("--deals", min=1, help="deals measured for the per-deal outcome distribution (cached)")]


@equity_app.command("boulmous")
def equity_boulmous(scores: Annotated[str, typer.Option("--scores", help="the four scores, seats 0-3, e.g. 18,17,9,3")],
                    dealer: Annotated[int, typer.Option("--dealer", min=0, max=3, help="the seat that deals next")] = 0,
                    target: Annotated[Optional[int], typer.Option("--target", help="points that win the game (the rule flag target)")] = None,
                    boxes: Annotated[Optional[str], typer.Option("--boxes", help="boxes made so far per seat, e.g. 0,1,0,0 (money only)")] = None,
                    heatmap: Annotated[str, typer.Option("--heatmap", help="the two seats whose scores the heatmap varies")] = "0,1",
                    check: Annotated[int, typer.Option("--check", min=0, help="also simulate whole games from this many sampled states")] = 0,
                    check_games: Annotated[int, typer.Option("--check-games", min=1, help="games per checked state")] = 20_000,
                    deals: Deals = 8_000_000, seed: Seed = 0, heuristic: Heur = None, heuristics: HeurFile = None,
                    rule: Rule = None, out: Out = None, threads: Threads = None, scheduler: Sched = None,
                    resume: Resume = True, force: Force = False, quiet: Quiet = False):
    """Boulmous: P(each seat wins the game) and expected money from the scores and who deals (value iteration
    over the measured per-deal outcomes), with a heatmap over two seats' scores."""
    g = boulmous.GAME
    rules = g.rules_from(list(rule or []) + ([f"target={target}"] if target is not None else []))
    _echo(boulmous_command(scores, dealer, seed, deals, rules, g.parse_seats(heuristic, user_defs=_user_defs(heuristics)),
                           boxes, heatmap, check, check_games, _opts(out, threads, scheduler, quiet, force, resume)))


@equity_app.command("boomke-wies")
def equity_boomke_wies(scores: Annotated[str, typer.Option("--scores", help="the two teams' points (seats 0+2, 1+3), e.g. 7,4")],
                       deals_left: Annotated[int, typer.Option("--deals-left", min=0, help="deals left in the match")],
                       dealer: Annotated[Optional[int], typer.Option("--dealer", min=0, max=3, help="the seat that deals next (default: as in a match from seat 0)")] = None,
                       check: Annotated[int, typer.Option("--check", min=0, help="also simulate the rest of the match from this many sampled states")] = 0,
                       check_games: Annotated[int, typer.Option("--check-games", min=1, help="matches per checked state")] = 20_000,
                       deals: Deals = 4_000_000, seed: Seed = 0, heuristic: Heur = None, heuristics: HeurFile = None,
                       rule: Rule = None, out: Out = None, threads: Threads = None, scheduler: Sched = None,
                       resume: Resume = True, force: Force = False, quiet: Quiet = False):
    """Boomke Wies: P(each team wins the match) from the points and the deals left (a recursion over the
    measured per-deal points distribution)."""
    g = boomke_wies.GAME
    _echo(boomke_command(scores, deals_left, dealer, seed, deals, g.rules_from(rule),
                         g.parse_seats(heuristic, user_defs=_user_defs(heuristics)), check, check_games,
                         _opts(out, threads, scheduler, quiet, force, resume)))


@app.command()
def bench(games: Annotated[Optional[List[Game]], typer.Argument(help="games (default: all)")] = None,
          hands: BenchHands = None, seed: Seed = 0,
          threads: Annotated[Optional[List[int]], typer.Option("--threads", help="thread counts to time (default 1 and all)")] = None,
          engine: Annotated[bool, typer.Option("--engine", help="instead: the run engine's overhead on a Boulmous run")] = False,
          repeats: Annotated[int, typer.Option("--repeats", min=1, help="interleaved rounds per case (the best is reported)")] = 5,
          dask: Annotated[bool, typer.Option("--dask", help="instead: Dask LocalCluster (2 workers) against the local backend")] = False,
          solver: Annotated[bool, typer.Option("--solver", help="instead: whole-deal open-hand solves per second (Boulmous, Bourre at 5 and 7 players; --hands: deals per round, default 20,000, Bourre 7 players at most 2,000) and PIMC deals per second (Boulmous at most 100 a round, Bourre at 5 players at most 2,000)")] = False,
          compile_: Annotated[bool, typer.Option("--compile", help="instead: CPU seconds of every warm-up command (together they call every batch kernel) on an empty Numba cache and on the cache it filled, with the entry points each compiles")] = False):
    """Hands per second of each game and heuristic, one thread and all threads."""

    names = [get_game(g).name for g in games] if games else None
    if compile_:
        df = bench_mod.compile_times(names)
        typer.echo(f"(load average {os.getloadavg()[0]:.2f} at the end)")
    elif solver:
        df = bench_mod.solver(hands, seed, threads, repeats)
    elif engine:
        df = bench_mod.engine_overhead(hands or 10_000_000, seed)
    elif dask:
        df = bench_mod.dask_throughput(hands or 20_000_000, seed)
    else:
        df = bench_mod.run(games=names, hands=hands, seed=seed, threads=threads, repeats=repeats)
    typer.echo(show(df))


@app.command("warmup")
def warmup_cmd(games: Annotated[Optional[List[Game]], typer.Argument(help="games (default: all)")] = None,
               jobs: Annotated[Optional[int], typer.Option("--jobs", "-j", min=1, help="processes side by side (Numba compiles on one core per process)", show_default="the cores")] = None,
               check: Annotated[bool, typer.Option("--check", help="only say whether the kernels are compiled for this machine, and if not why (exit code 1 when cold)")] = False,
               quiet: Quiet = False):
    """Compile every command's kernels ahead of use (a first run then starts at once); --check says whether they are."""
    if check:
        warm, lines = warmup.check_lines()
        _echo(lines)
        raise typer.Exit(0 if warm else 1)
    chosen = [get_game(g) for g in games] if games else list(GAMES)
    t0 = time.perf_counter()
    done = warmup.run(chosen, jobs=jobs, progress=not quiet)
    _echo(warmup.summary(done, time.perf_counter() - t0))
    if any(t.error for t in done):
        raise typer.Exit(1)


# ---- compare and sweep: one sub-command per game, --players where the table size is a choice --------
CompareHands = Annotated[Optional[int], typer.Option("--hands", min=1, help="deals, each replayed in every rotation")]
SweepHands = Annotated[Optional[int], typer.Option("--hands", min=1, help="deals per value (the same deals for every value)")]
Names = Annotated[List[str], typer.Argument(help="heuristics to compare (NAME or NAME:p=v,...)")]
SweepName = Annotated[str, typer.Argument(help="the heuristic whose parameter varies")]
Param = Annotated[str, typer.Option("--param", help="NAME=start:stop:step")]
Against = Annotated[str, typer.Option("--against", help="the fixed opponent heuristic")]
CompareGames = Annotated[Optional[int], typer.Option("--games", min=1, help="Boulmous: whole games to the target "
                                                     "instead of deals (games won and stakes per game; "
                                                     "score_aware=1 or 2)")]


def _compare_commands(g):
    """``tricksim compare GAME`` and ``tricksim sweep GAME`` for one game of the registry."""

    hands_default = f"{g.duplicate.hands:,}"
    sweep_default = f"{g.duplicate.hands // 4:,}"
    if g.variable_table:
        def compare_cmd(names: Names, hands: CompareHands = None, seed: Seed = 0, heuristics: HeurFile = None,
                        rule: Rule = None, players: Players = None, out: Out = None, threads: Threads = None,
                        scheduler: Sched = None, resume: Resume = True, force: Force = False,
                        until_precision: ComparePrec = None, quiet: Quiet = False):
            _echo(cmp.compare_command(g, names, hands, seed, g.rules_from(rule), _user_defs(heuristics), players,
                                      until_precision, _opts(out, threads, scheduler, quiet, force, resume)))

        def sweep_cmd(name: SweepName, param: Param, against: Against = "default", hands: SweepHands = None,
                      seed: Seed = 0, heuristics: HeurFile = None, rule: Rule = None, players: Players = None,
                      out: Out = None, threads: Threads = None, scheduler: Sched = None, resume: Resume = True,
                      force: Force = False, quiet: Quiet = False):
            _echo(cmp.sweep_command(g, name, param, against, hands, seed, g.rules_from(rule), _user_defs(heuristics),
                                    players, _opts(out, threads, scheduler, quiet, force, resume)))
    else:
        if g.whole_games is None:     # no whole-game compare: no --games either
            def compare_cmd(names: Names, hands: CompareHands = None, seed: Seed = 0, heuristics: HeurFile = None,
                            rule: Rule = None, out: Out = None, threads: Threads = None, scheduler: Sched = None,
                            resume: Resume = True, force: Force = False, until_precision: ComparePrec = None,
                            quiet: Quiet = False):
                _echo(cmp.compare_command(g, names, hands, seed, g.rules_from(rule), _user_defs(heuristics), None,
                                          until_precision, _opts(out, threads, scheduler, quiet, force, resume)))
        else:
            def compare_cmd(names: Names, hands: CompareHands = None, seed: Seed = 0, heuristics: HeurFile = None,
                            rule: Rule = None, out: Out = None, threads: Threads = None, scheduler: Sched = None,
                            resume: Resume = True, force: Force = False, until_precision: ComparePrec = None,
                            quiet: Quiet = False, games: CompareGames = None):
                if games is not None:
                    if hands is not None or until_precision is not None:
                        raise TricksimError("--games plays whole games: give --games or --hands "
                                            "(and --until-precision), not both")
                    _echo(games_command(g, names, games, seed, g.rules_from(rule), _user_defs(heuristics),
                                        _opts(out, threads, scheduler, quiet, force, resume)))
                    return
                _echo(cmp.compare_command(g, names, hands, seed, g.rules_from(rule), _user_defs(heuristics), None,
                                          until_precision, _opts(out, threads, scheduler, quiet, force, resume)))

        def sweep_cmd(name: SweepName, param: Param, against: Against = "default", hands: SweepHands = None,
                      seed: Seed = 0, heuristics: HeurFile = None, rule: Rule = None, out: Out = None,
                      threads: Threads = None, scheduler: Sched = None, resume: Resume = True, force: Force = False,
                      quiet: Quiet = False):
            _echo(cmp.sweep_command(g, name, param, against, hands, seed, g.rules_from(rule), _user_defs(heuristics),
                                    None, _opts(out, threads, scheduler, quiet, force, resume)))
    compare_app.command(g.name, help=f"{g.title}: a duplicate tournament of the heuristics NAMES "
                                     f"({hands_default} deals unless --hands).")(compare_cmd)
    sweep_app.command(g.name, help=f"{g.title}: the advantage of NAME with --param's values over --against "
                                   f"({sweep_default} deals per value unless --hands).")(sweep_cmd)


for _g in GAMES:
    _compare_commands(_g)


@app.command()
def pot(players: Annotated[int, typer.Option("--players", min=2, max=8, help="players at the table (2-8)")] = bourre.DEFAULT_PLAYERS,
        deals: Annotated[int, typer.Option("--deals", min=1, help="deals per session")] = 200,
        sessions: Annotated[int, typer.Option("--sessions", min=1, help="independent sessions")] = 100_000,
        seed: Seed = 0, heuristic: Heur = None, heuristics: HeurFile = None, rule: Rule = None,
        sweep: Annotated[Optional[str], typer.Option("--sweep", help="players | pot_limit | double_ante | tie | max_discard | looseness | heuristic, optionally =v1,v2,...")] = None,
        tail: Annotated[bool, typer.Option("--tail", help="also the tail law (P' = A.P + B, k with E[A^k] = 1) and P(pot > X) by multilevel splitting")] = False,
        tail_levels: Annotated[Optional[str], typer.Option("--tail-levels", help="with --tail: X / ante, e.g. 1000,10000 (default 100,...,1000000)")] = None,
        tail_roots: Annotated[Optional[int], typer.Option("--tail-roots", help="with --tail: root sessions of the splitting (default sessions/100, 100-2000)")] = None,
        out: Out = None, threads: Threads = None, scheduler: Sched = None, resume: Resume = True,
        force: Force = False, quiet: Quiet = False):
    """Bourre: how the pot grows over sessions of consecutive deals."""
    _echo(bourre.pot_command(players, deals, sessions, seed, heuristic, _user_defs(heuristics),
                             bourre.GAME.rules_from(rule), sweep, _opts(out, threads, scheduler, quiet, force, resume),
                             tail, tail_levels, tail_roots))


@app.command()
def tune(game: Game, base: Annotated[str, typer.Argument(help="the heuristic to tune (NAME or NAME:p=v,...)")],
         params: Annotated[str, typer.Option("--params", help="the parameters to tune, e.g. margin,ace_weight "
                                                               "(see 'tricksim heuristics GAME' for their ranges)")],
         against: Annotated[Optional[str], typer.Option("--against", help="the opponent of every trial",
                                                        show_default="BASE with its own values")] = None,
         budget: Annotated[int, typer.Option("--budget", help="deals played by the whole search")] = 20_000_000,
         trials: Annotated[Optional[int], typer.Option("--trials", help="trials (default 20 + 20 per parameter, "
                                                                        "at most 200; at least 10,000 deals each)")] = None,
         confirm: Annotated[Optional[int], typer.Option("--confirm", help="fresh deals of the confirmation",
                                                        show_default="a quarter of --budget")] = None,
         seed: Seed = 0, players: Players = None, heuristics: HeurFile = None, rule: Rule = None,
         out: Annotated[Optional[Path], typer.Option("--out", help="the TOML heuristics file to write",
                                                     show_default="RUN/tuned.toml")] = None,
         run: Annotated[Optional[Path], typer.Option("--run", callback=_check_out, rich_help_panel=RUN,
                                                     help="run folder: trial history (resume), tables "
                                                          "(default: reports/runs/<game>-tune-<id>)")] = None,
         threads: Threads = None, scheduler: Sched = None, resume: Resume = True, force: Force = False,
         quiet: Quiet = False):
    """Search a heuristic's parameters (optuna) by duplicate matches on the same deals; confirm on fresh deals."""

    g = get_game(game)
    lines = tune_command(g, base, params, against, budget, seed, trials, confirm, players, g.rules_from(rule),
                         _user_defs(heuristics), out, _opts(run, threads, scheduler, quiet, force, resume))
    _echo(x for x in lines if not (quiet and x.startswith("trial ")))


@app.command()
def tables(regenerate: Annotated[bool, typer.Option("--regenerate", help="make them all again with the code of today "
                                                     "(minutes: mostly compiling the training kernels)")] = False,
           canaries: Annotated[bool, typer.Option("--canaries", help="with --regenerate: only the small canaries")] = False):
    """The tables shipped with tricksim (analysis/data/): their configuration, checksum and whether they are current."""
    if regenerate:
        _echo(tables_mod.regenerate(canaries_only=canaries))
    typer.echo(show(tables_mod.status(), wrap=("configuration",)))
    typer.echo(f"in {tables_mod.DATA}")


@app.command()
def report(out: Annotated[Path, typer.Option("--out", callback=_check_out, help="where the reports go")] = Path("reports"),
           quick: Annotated[bool, typer.Option("--quick", help="small sample sizes (a smoke run)")] = False,
           every: Annotated[bool, typer.Option("--all", help="every study's page, not only the headline ones: "
                                                              f"{', '.join(studies.STUDIES)}")] = False,
           only: Annotated[Optional[List[str]], typer.Option(
               "--only", help="only these studies, rewriting their pages and the index and keeping the other pages: "
                              f"{', '.join(studies.STUDIES)} (repeat the option or separate with commas)")] = None,
           jobs: Annotated[Optional[int], typer.Option("--jobs", min=1, max=64, help="studies run side by side in this "
                                                       "many processes (default: one per core, at most 4)")] = None,
           quiet: Quiet = False):
    """The main job: run the headline studies on built-in defaults into reports/ (boulmous, boomke-wies, bourre,
    compare: each game's bid odds, Bourre's pot, which heuristic wins); --all adds every other study's page."""

    if every and only:
        raise TricksimError("--all and --only do not go together: --all runs every study, --only the ones named")
    studies.run_all(out=out, quick=quick, only=studies.check_only(only), progress=not quiet, every=every,
                    jobs=studies.default_jobs() if jobs is None else jobs,
                    log=lambda line: typer.echo(f"tricksim: {line}", err=True))


@app.command()
def serve(port: Annotated[int, typer.Option("--port", min=1, max=65535, help="the port of the page")] = web.DEFAULT_PORT,
          host: Annotated[str, typer.Option("--host", help="the interface to listen on (beyond 127.0.0.1: other "
                                                            "machines reach the page; a warning says so)")] = "127.0.0.1"):
    """A local web page: pick a hand, see its odds per call (the same numbers as 'odds GAME --hand' for the same
    seed), the strategy charts and the reports' plots (the web extra: pip install '.\\[web]' in the checkout)."""
    lacking = web.missing()
    if lacking:
        raise TricksimError(f"tricksim serve needs the web extra ({', '.join(lacking)} not installed): "
                            f"{web.INSTALL}")
    warning = web.check_host(host)
    if warning:
        typer.echo(f"tricksim: {warning}", err=True)
    typer.echo(f"tricksim: serving on http://{'[' + host + ']' if ':' in host else host}:{port}/ (Ctrl-C stops it)",
               err=True)
    web.serve(host, port, command=page_command)


@functools.lru_cache(maxsize=1)
def command_tree():
    """The click commands typer builds from ``app`` (groups' ``.commands`` by name), built once: typer builds the
    whole tree again at every ``app(...)`` call (about 35 ms: every command line, every request of the web page,
    every command a test runs or parses)."""
    return typer.main.get_command(app)


def _run_app(argv):
    """``app(args=argv, prog_name="tricksim", standalone_mode=False)`` on the tree built once.  Typer's call also
    marks an escaping exception for its pretty traceback, which this app switches off
    (``pretty_exceptions_enable=False``), so the call is otherwise the same."""
    return command_tree().main(args=argv, prog_name="tricksim", standalone_mode=False)


def page_command(argv: list[str]) -> list[str]:
    """Run one command line (``["odds", "bourre", "--hand", ...]``) for the web page, in the calling thread: the
    lines it would print, or ``TricksimError`` with the very line the command prints for a user error."""
    lines: list[str] = []
    token = _PAGE_LINES.set(lines)
    try:
        engine.set_command(argv)
        rv = _run_app(list(argv))
    except ABORTS:             # the page's Cancel (progress.Cancelled), which typer may turn into its Abort
        raise Cancelled("cancelled; finished blocks are kept") from None
    except USAGE_ERRORS as e:
        raise TricksimError(_unknown_command(e) or e.format_message().replace("\n", " ")) from None
    except OSError as e:
        raise TricksimError(_os_error(e)) from None
    finally:
        _PAGE_LINES.reset(token)
    if rv == 130:              # typer's code for an interrupted command when standalone_mode is off
        raise Cancelled("cancelled; finished blocks are kept")
    return lines


def _os_error(e: OSError) -> str:
    """The one line of a file or folder the run cannot use."""
    where = f": {e.filename}" if getattr(e, "filename", None) else ""
    return f"{e.strerror or e}{where}"


def _usage_errors():
    """typer's usage-error class: vendored (typer >= 0.22) or click's (older typer, which depends on click)."""
    try:
        from typer._click.exceptions import UsageError
    except ImportError:  # pragma: no cover - older typer
        from click.exceptions import UsageError
    return (UsageError,)


USAGE_ERRORS = _usage_errors()


def _unknown_command(e) -> str | None:
    """The one-line message for a command or game that does not exist, naming the valid ones
    (``tricksim odds skat``: the games of ``odds``; ``tricksim play``: the commands); None for other errors."""
    ctx = getattr(e, "ctx", None)
    group = getattr(ctx, "command", None)
    msg = e.format_message()
    if group is not None and group.name == "pot" and msg.startswith("Got unexpected extra argument"):
        return f"{msg.rstrip('.')}: tricksim pot plays Bourre sessions and takes no game (tricksim pot --help)"
    if group is None or not hasattr(group, "list_commands") or not msg.startswith("No such command"):
        return None
    names = [n for n in group.list_commands(ctx) if not getattr(group.get_command(ctx, n), "hidden", False)]
    asked = msg[len("No such command "):].rstrip(".")
    if ctx.parent is None:
        return f"no command {asked}; the commands are {', '.join(names)} (tricksim --help)"
    path = ctx.command_path or f"tricksim {ctx.info_name}"
    return f"no game {asked} for '{path}'; the games are {', '.join(names)}"


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
        self.buf += s
        if "\n" in self.buf:
            head, self.buf = self.buf.rsplit("\n", 1)
            self.stream.write(fit_text(head) + "\n")
        return len(s)

    def flush(self):
        self.stream.flush()

    def finish(self):
        if self.buf:
            self.stream.write(fit_text(self.buf))
            self.buf = ""
        self.stream.flush()

    def __getattr__(self, name):
        return getattr(self.stream, name)


def main(argv=None):
    """Console entry point: one-line errors, exit code 2."""
    args = list(sys.argv[1:] if argv is None else argv)
    if argv is None:          # the command line (not a caller's main([...])): a kernel compiling on first use
        compiling.install()   # says so on stderr, never in silence
    command = next((a for a in args if not a.startswith("-")), None)
    fit = None
    # JSON Lines stay one record per line; the rules' Markdown keeps its tables' rows whole
    if command not in (None, "trace") and not (command == "rules" and "--full" in args):
        fit = sys.stdout = _FitStdout(sys.stdout)
    try:
        _main(argv)
    except SystemExit as e:
        if argv is not None:
            raise
        code = e.code
    else:
        code = 0
    finally:
        if fit is not None and sys.stdout is fit:
            sys.stdout = fit.stream
            fit.finish()
    if argv is None:          # the command line: the process ends here, without the interpreter's teardown
        exit_now(code)


def _main(argv):
    engine.set_command(list(sys.argv[1:] if argv is None else argv))
    try:
        rv = _run_app(argv)
    except USAGE_ERRORS as e:
        if type(e).__name__ == "NoArgsIsHelpError":   # typer has printed the help of the command (or group)
            raise SystemExit(0)
        msg = _unknown_command(e) or e.format_message().replace("\n", " ")
        sys.stderr.write(f"tricksim: error: {msg}\n")
        raise SystemExit(2)
    except TricksimError as e:
        sys.stderr.write(f"tricksim: error: {e}\n")
        raise SystemExit(2)
    except OSError as e:   # a file or folder the run cannot use: one line, not a traceback
        sys.stderr.write(f"tricksim: error: {_os_error(e)}\n")
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
