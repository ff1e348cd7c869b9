"""The game interface: everything a game gives the rest of tricksim, in one record.

Two floors, so that nothing loops: a game's ``GameSpec`` (its rules, heuristics, kernel and the generic
helpers every game shares: seat heuristics, the kernel's heuristic arrays, the random keys, the kernel
arguments of a run, written once here) is built below its studies, in ``analysis/<game>/spec.py``, and its
modules use it from there; its ``Game`` record (``analysis/<game>/__init__.py``: ``GAME = Game.of(SPEC, ...)``)
adds the studies, views and the optional hooks for what only some games offer (whole games, equity, solver
benches, trust sections).  ``analysis/registry.py`` lists the records once (``GAMES``); the CLI and the
cross-game features iterate it and read these members; no game imports the registry, another game or a
cross-game feature.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from types import ModuleType
from typing import Callable, Mapping

import numpy as np

from ..kernels.rng import STREAM_DEAL, STREAM_DECIDE, derive_key
from .common import HeuristicSpec, TricksimError, apply_rule_overrides, parse_heuristic
from .engine import register


@dataclass(frozen=True)
class Duplicate:
    """How ``tricksim compare`` plays a game (analysis/compare.py): a duplicate tournament whose
    block function returns exact integer counts (see the compare module's docstring)."""

    study: str
    """The block function of the tournament (a key of ``Game.blocks``)."""
    metrics: tuple
    """The metrics the block counts, in its order; the first is the one the verdict ranks by."""
    unit: str
    """The first metric's unit, as the tables and plots say it ("points per deal")."""
    hands: int
    """Deals when none are given (CLI and Python alike)."""
    block: int
    """Deals per engine block."""
    layout: str = "rounds"
    """``rounds``: the balanced seating design of ``compare.design``, k playouts per deal;
    ``pairs``: every ordered pair of entrants as the two partnerships (seats 0+2 and 1+3),
    k(k-1) playouts per deal."""
    max_entrants: int | None = None
    """The most heuristics one tournament takes (None: no limit of the game's own)."""
    dealer_note: str = ""
    """How the rounds take turns over the deals, for the design text ("" when nothing to say)."""
    slow: Callable | None = None
    """``slow(specs)`` -> (deals, deals per block) when these entrants need other defaults than ``hands``
    and ``block`` (a slow player such as Boulmous's ``pimc``), else None; None: never."""
    check: Callable | None = None
    """``check(specs)`` raises ``TricksimError`` for entrants a tournament of single deals cannot play (Boulmous:
    score-aware bidding needs whole games); None: every entrant plays."""


@dataclass(frozen=True)
class Ladder:
    """The game's rung of the report's strength ladder (``tricksim report --only ladder``, analysis/ladder.py):
    every player it has in one duplicate tournament of ``compare``, and an open-hand figure beside it."""

    entrants: tuple
    """The heuristic specs of the tournament: every heuristic of the game and the sampling player's settings
    worth showing."""
    hands: int
    """Deals of the report's tournament (sized so the whole page takes about 10 minutes on 2 cores)."""
    quick: int
    """Deals with ``--quick`` (tests)."""
    bound: Callable
    """``bound(opts, quick, seed) -> dict``: the open-hand figure on the game's default heuristic's deals, in the
    ladder's unit, with its 95% interval and sample size, the same deals under the default heuristic's own card
    play and the paired gap, what the figure is and is not (``what``), its table row label and the command that
    regenerates it."""
    extra: dict = dataclasses.field(default_factory=dict)
    """Run settings of the tournament (Bourre: ``players``)."""


@dataclass(frozen=True)
class WholeGames:
    """How ``tricksim compare GAME NAMES --games N`` plays whole games (analysis/compare/games.py): a duplicate
    tournament of games to the target, counted by its block function (wins and stakes per entrant)."""

    study: str
    """The block function of the tournament (a key of ``Game.blocks``)."""
    games: int
    """Games when none are given."""
    block: int
    """Games per engine block."""
    check: Callable
    """``check(specs)`` raises ``TricksimError`` for entrants that cannot play whole games."""
    prepare: Callable
    """``prepare(rows, rules, opts)``: what the seatings ``rows`` (lists of specs) need before the blocks run
    (Boulmous: the score-aware seats' equity table and calibration), computed once."""


@dataclass
class ChartCell:
    """One cell of a strategy chart (``tricksim chart GAME``, analysis/chart/): a hand class in one situation,
    measured on a fixed, seeded set of representative hands of the class, every action of a hand on the same
    deals of the unseen cards (paired)."""

    panel: str
    """The panel (figure) of the cell, e.g. ``7 players``."""
    row: str
    """The hand class, as the chart's rows say it."""
    col: str
    """The situation (seat, up-card ...), as the chart's columns say it."""
    values: np.ndarray
    """float64[hands, actions]: each hand's mean value of each action of ``ChartData.actions`` over its deals (the
    same deals for every action of the hand); nan where the action is not open to that hand."""
    deals: int
    """Deals of the unseen cards per hand."""
    key: dict = field(default_factory=dict)
    """The cell's coordinates as columns of the chart's table (e.g. players, seat, up-card, trumps)."""
    keep: dict = field(default_factory=dict)
    """Action -> what the hands of the cell keep with it, in words (e.g. ``2 trumps + A``); optional."""
    beside: np.ndarray | None = None
    """Like ``values``, under another player on the same deals (the heuristics beside a sampling player)."""


@dataclass
class ChartData:
    """A game's measured strategy chart: its cells and how to present them (analysis/chart/)."""

    title: str
    """What the chart decides, e.g. ``Bourre: play or pass, and how many cards to draw``."""
    player: str
    """Which player the values are measured under (the heuristics or the sampling player), in words."""
    unit: str
    """The values' unit, e.g. ``pots`` (chips per chip in the pot after the antes)."""
    actions: list
    """Every action of the chart, in the colours' order (e.g. ``pass``, ``draw 0`` .. ``draw 5``)."""
    panels: list
    rows: list
    cols: list
    cells: list
    """``ChartCell``s (a cell with no hand of its class is left out: the class cannot occur there)."""
    command: str
    """The command line that makes this chart again (``tricksim chart ...``)."""
    notes: list = field(default_factory=list)
    """Lines of the page's legend: what the rows, columns and actions mean."""
    beside_name: str = ""
    """Who ``ChartCell.beside`` measures ("" when no cell has it)."""
    name: str = "chart"
    """The stem of the files (``bourre`` -> ``bourre.csv``, ``bourre-7p.png``)."""
    caveat: str = ""
    """What the values assume that a reader of the chart's short answers must keep in mind ("" if nothing)."""
    shade: float = 0.25
    """A margin of this many units (or more) over the next-best action gives a heatmap cell its full colour."""
    value_format: str = "{:+.2f}"
    """How the heatmap and tables write a value (``{:.1%}`` for a chance)."""
    extra: list = field(default_factory=list)
    """Further small tables shown under the chart (terminal, page and report): (heading, DataFrame, lines below)."""


@dataclass(frozen=True)
class Chart:
    """How ``tricksim chart GAME`` measures the game's strategy chart (analysis/chart/ shapes, tests and draws it)."""

    measure: Callable
    """``measure(seed, hands, deals, play, rules, opts, log, **game_options) -> ChartData``; ``log(line)`` reports
    progress; ``opts`` the run options of the engine's runs (not persisted)."""
    sizes: Callable
    """``sizes(quick, play) -> (hands per cell, deals per hand)``: the defaults of a full and a quick chart (under
    the kind of play ``play``: a sampling player is slower)."""


CHART_MIN_HANDS = 3
"""A chart cell needs at least this many hands of its class: its intervals are taken over the hands."""


def chart_sizes(hands: int | None, deals: int | None, full: tuple) -> tuple:
    """A chart's hands per cell and deals per hand: the ones asked for, else the game's full sizes ``full``;
    too few hands for an interval over them are refused."""
    hands, deals = hands or full[0], deals or full[1]
    if hands < CHART_MIN_HANDS:
        raise TricksimError(f"--hands must be at least {CHART_MIN_HANDS} (the interval is taken over the hands)")
    return hands, deals


@dataclass(frozen=True)
class HandOdds:
    """What the web page (``tricksim serve``, analysis/web/) needs of a game to let a player pick a hand: the deck,
    the hand's size and the game's own fields.  The page runs the CLI's ``odds GAME --hand ...`` command line itself
    (``cli.page_command``), so it prints the numbers the command prints for the same seed."""

    deck: tuple
    """Every card of the deck as a hand writes it (``JH``), suit by suit: the page's card buttons."""
    size: int
    """Cards in a hand."""
    hands: int
    """Deals when none are given (the CLI's default)."""
    options: tuple = ()
    """The game's own fields of the page among ``up_card``, ``players`` and ``explain`` (Bourre: all three)."""


@dataclass(frozen=True, kw_only=True)
class GameSpec:
    """What a game is, below its studies: its rules, heuristics and kernel, and the helpers every game shares
    (parsing seats, the kernel's heuristic arrays, the random keys, the kernel arguments of a run).  Each game
    builds one in its own package (``analysis/<game>/spec.py``: ``SPEC = GameSpec(...)``) and its modules use it
    from there; its ``Game`` record (below) extends it with the studies, views and hooks."""

    name: str
    """The CLI's spelling, e.g. ``boomke-wies`` (``tricksim odds boomke-wies``)."""
    key: str
    """The identifier, e.g. ``boomke_wies``: the package (``analysis/boomke_wies/``), the prefix of
    its block functions (``boomke_wies.deals``), the ``"game"`` of its traces, run-folder names."""
    title: str
    """The game's name in prose ("Boomke Wies")."""
    rules: type
    """The frozen rules dataclass: every variant flag of docs/RULES.md with its default (and
    ``PREFIX`` = ``key``, accepted before a flag's name in ``--rule``: ``boomke_wies.variant`` or
    ``boomke-wies.variant``)."""
    rules_array: Callable
    """``rules_array(rules) -> int64[kernel.N_RULES]``: the rules as the kernel reads them."""
    kernel: ModuleType
    """The game's kernel package (kernels/<game>/): ``N_PARAMS`` and the columns of the heuristic parameter
    matrix (``PARAMS``, ``COLUMN``: the one declaration of the heuristics' parameters) are read from it."""
    rng_id: int
    """The game's id in the random keys (kernels/rng.py ``GAME_*``)."""
    heuristics: Mapping
    """The heuristic registry: name -> ``HeuristicDef`` (kernel code, parameters, help)."""
    aliases: Mapping
    """Other names of heuristics (``default`` at least): alias -> registry name."""
    seats: int
    """The number of seats when none is given (Bourre: its default table size)."""
    seat_range: tuple
    """The table sizes the game plays, (lowest, highest); a fixed table has lowest == highest."""
    duplicate: Duplicate
    """How ``tricksim compare`` and ``tricksim sweep`` play it."""

    # ---- the helpers every game shares ----------------------------------------------------------
    def parse_heuristic(self, text: str, user_defs=None) -> HeuristicSpec:
        """``NAME`` or ``NAME:param=value,...`` among this game's heuristics (or ``user_defs``)."""
        return parse_heuristic(text, self.heuristics, self.aliases, user_defs)

    def parse_seats(self, heuristic=None, seats: int | None = None, user_defs=None) -> list:
        """The heuristic of each of ``seats`` seats (default ``self.seats``): one spec for every
        seat, or one per seat; names or ``HeuristicSpec``s."""
        seats = self.seats if seats is None else int(seats)
        if heuristic is None:
            heuristic = ["default"]
        if isinstance(heuristic, (str, HeuristicSpec)):
            heuristic = [heuristic]
        specs = [h if isinstance(h, HeuristicSpec) else self.parse_heuristic(h, user_defs) for h in heuristic]
        if len(specs) == 1:
            specs = specs * seats
        if len(specs) != seats:
            raise TricksimError(f"give one heuristic for all seats or {seats} (one per seat), got {len(specs)}")
        return specs

    def specs_from_json(self, js) -> list:
        """The heuristic specs of a run's parameters (``common.spec_json`` inverted)."""
        out = []
        for name, values, label in js:
            hd = self.heuristics[name]
            out.append(HeuristicSpec(name, hd.code, tuple(sorted(values.items())), label, hd.deterministic))
        return out

    def heuristic_arrays(self, specs) -> tuple:
        """Per-seat heuristic codes int64[seats] and parameters float64[seats, kernel.N_PARAMS], each named
        parameter at its column in the kernel's declaration (``kernel.COLUMN``): parameters only, nothing else
        (a table a heuristic reads, such as Bourre's ``ev``, is its own kernel argument); the matrix depends on
        the specs alone."""
        codes = np.array([s.code for s in specs], np.int64)
        prm = np.zeros((len(specs), self.kernel.N_PARAMS), np.float64)
        column = self.kernel.COLUMN     # the kernel's declaration: name -> column (kernels/<game>/players.py)
        for i, s in enumerate(specs):
            for name, v in s.values:
                if name in column:      # (a setting the kernels never read, e.g. ev's training, has no column)
                    prm[i, column[name]] = v
        return codes, prm

    def keys(self, seed: int) -> tuple:
        """The random keys of a seed: (deal stream, decision stream)."""
        return derive_key(seed, self.rng_id, STREAM_DEAL), derive_key(seed, self.rng_id, STREAM_DECIDE)

    def kernel_args(self, params: dict) -> tuple:
        """The kernel's arguments of a run's parameters: (deal key, decision key, rules array,
        heuristic codes, heuristic parameters)."""
        kd, kc = self.keys(params["seed"])
        rules = self.rules(**params["rules"])
        specs = self.specs_from_json(params["heuristics"])
        codes, prm = self.heuristic_arrays(specs)
        return kd, kc, self.rules_array(rules), codes, prm

    def rules_from(self, overrides=None):
        """The default rules with ``overrides`` (``['name=value', ...]`` or a dict) applied."""
        return apply_rule_overrides(self.rules(), overrides)

    def rules_of(self, params: dict):
        """The rules object of a run's parameters."""
        return self.rules(**params["rules"])

    def check_players(self, players=None) -> int:
        """A table size this game plays (None: the default, ``seats``)."""
        if players is None:
            return self.seats
        lo, hi = self.seat_range
        if not lo <= players <= hi:
            raise TricksimError(f"a {self.title} table has {lo} to {hi} players, got {players}")
        return int(players)

    @property
    def variable_table(self) -> bool:
        """True when the number of players is a choice (Bourre: 2..8)."""
        return self.seat_range[0] != self.seat_range[1]



@dataclass(frozen=True, kw_only=True)
class Game(GameSpec):
    """One trick-taking game: its ``GameSpec`` (rules, heuristics, kernel), and its studies and reports.
    Built in the game's package ``__init__`` (``GAME = Game.of(SPEC, ...)``); listed in analysis/registry.py."""

    blocks: Mapping
    """The block functions it registers with the engine when the record is built: study name ->
    ``f(params, first, n)`` returning int64 counts (``engine.find_block``; a Dask worker is sent the function)."""
    trace: Callable
    """``trace(seed, ...) -> list[dict]``: hands exactly as the kernels played them (docs/trace.md); its
    other arguments are the game's own (Bourre: players, sessions, deals), like its ``trace``
    sub-command in cli.py."""
    bench_cases: Callable
    """``bench_cases(seed) -> [(label, fn)]``, ``fn(first, n)`` playing n hands through a block
    function and returning the hands played (``tricksim bench``)."""
    bench_hands: int
    """Hands per benchmark case when none are given."""
    headline: Callable
    """``headline(out, quick, progress) -> Section``: the game's headline studies into ``out``; its page
    of the reports, ``reports/<game>.md``, with its questions and short answers (``tricksim report``,
    analysis/pages.py)."""
    rules_section: str
    """The game's section of docs/RULES.md, e.g. ``2 (Boomke Wies)``."""
    stakes: Callable | None = None
    """``stakes(games, seed, heuristics, rules, opts) -> Iterator[str]``: the ``tricksim stakes``
    command (whole games with the money settlement: it runs the study, writes the run folder and
    yields the text to print); None when the game has no such study (Bourre: ``tricksim pot``)."""
    hand_rows: Mapping = field(default_factory=dict)
    """Per-hand rows of a block for ``--keep-hands``: study name -> ``f(params, first, n) -> DataFrame``."""
    whole_games: WholeGames | None = None
    """How ``compare --games`` plays whole games; None when the game has no such tournament."""
    solver_bench: Callable | None = None
    """``solver_bench(seed) -> [(label, fn)]``: the open-hand solver's and the sampling player's benchmark cases
    (``tricksim bench --solver``), like ``bench_cases``; None when the game has neither."""
    trust: Callable | None = None
    """``trust(d, opts, quick, compare, render_compare) -> str``: the game's part of the report's ``trust``
    section (its odds under heuristics, the sampling player and open-hand play), its tables written into ``d``,
    each run with ``opts(name)``; ``compare``/``render_compare`` are the duplicate tournament and its text
    (analysis/compare/), handed down so the game needs no cross-game import.  None: nothing to say."""
    equity_report: Callable | None = None
    """``equity_report(d, opts, quick, compare_games, render_games) -> str``: the game's part of the report's
    ``equity`` section (its match equity; ``compare_games``/``render_games``: the whole-game tournament of
    analysis/compare/games.py, handed down likewise); None when the game has no equity table."""

    chart: Chart | None = None
    """How ``tricksim chart`` measures the game's strategy chart (analysis/chart/); None: the game has none."""
    tables: Callable | None = None
    """``tables() -> [cache.Shipped]``: the tables the game ships in analysis/data/ (the ones the main job reads,
    and a small canary of each kind), for ``tricksim tables`` (analysis/tables.py); None: it ships none."""
    hand_odds: HandOdds | None = None
    """How the web page studies one hand (analysis/web/); None: the page has no hand picker for the game."""
    ladder: Ladder | None = None
    """The game's part of the report's strength ladder; None: the game is left out of it."""
    warmup: tuple = ()
    """Command lines (``tricksim`` left out) that call every batch kernel of the game, with tiny sizes: what
    ``tricksim warmup`` runs to compile them ahead of use (analysis/warmup.py)."""

    def __post_init__(self):
        register(self.blocks, self.hand_rows)

    @classmethod
    def of(cls, spec: GameSpec, **members) -> "Game":
        """The whole record of a game: its ``spec`` and the rest of the members."""
        return cls(**{f.name: getattr(spec, f.name) for f in dataclasses.fields(GameSpec)}, **members)

