"""Bourre (docs/RULES.md section 3): 2-8 players, draw, strict must-head / must-trump rules, a pot
that grows when players go bourre.

- ``config``: the rules dataclass and its kernel array, the heuristics registry, parsing;
- ``pot``: the pot-growth study over sessions (``bins``: log-binned chips and their quantiles);
  ``sweep``: one pot study per value of a setting; ``odds``: the odds of one hand before the draw;
  ``studies``: the duplicate tournament block and benchmark cases; ``tail``: the pot's tail law and
  its rare tails (multilevel splitting);
- ``ev``: the expected-value player's probability table (fictitious play, cached);
- ``trace``: the deals of sessions as the kernels played them (docs/trace.md);
- ``chart``: the strategy chart's cells (``tricksim chart bourre``: play or pass, and how many to draw);
- ``explain``: why one decision (``odds bourre --hand ... --explain``: paired margins, example deals);
- ``views``: text tables, plots, files and the CLI's commands; ``report``: the headline section.

``GAME`` is the game's record (analysis/game.py), listed in analysis/registry.py.
"""
from ...kernels import bourre as K
from ...kernels.cards import RANKS, SUITS
from ..common import make_params, rules_dict
from ..game import Game, HandOdds, Ladder
from .chart import CHART, block_chart
from .bins import (BIN_MID, NB1, POT_HI, POT_LO, _seat_net_stats, bin_hi, bin_lo, bin_mid, fmt_chips_bin,
                   hist_quantile, pot_quantile, quantile_with_ci)
from .config import (ALIASES, DEFAULT_PLAYERS, KEY, MAX_FAN, MAX_PLAYERS, MIN_PLAYERS, REGISTRY, BourreRules,
                     discard_limit, parse_hand, rules_array)
from .explain import explain_command
from .odds import block_odds, keep_order, odds_choices, odds_hand, odds_run, odds_table, render_odds, validate_odds
from .play import block_odds_play, odds_play, odds_play_run, render_play
from .plots import plot_pot, plot_sweep
from .pot import agg_layout, batch_sums, block_pot, decode_pot, fan_stride, pot_block_size, pot_run, pot_study
from .report import headline
from .shipped import LADDER_PLAYERS, tables
from .spec import SPEC
from .studies import bench_cases, block_duplicate, solver_bench
from .sweep import SWEEPS, parse_sweep, pot_sweep, sweep_label
from .tail import block_tail, rare_tail, solve_k, tail_study
from .trace import record_to_dict, trace
from .trust import ladder_bound, trust
from .views import odds_command, pot_command, pot_tables, render_pot, write_pot


GAME = Game.of(
    SPEC,
    blocks={"bourre.pot": block_pot, "bourre.odds": block_odds, "bourre.odds_play": block_odds_play,
            "bourre.duplicate": block_duplicate, "bourre.tail": block_tail, "bourre.chart": block_chart},
    trace=trace, bench_cases=bench_cases, bench_hands=2_000_000, headline=headline,
    rules_section="3 (Bourre)",
    warmup=(("odds", "bourre", "--hand", "AH KH 7C 4D 2S", "--up-card", "9H", "--hands", "200"),
            ("odds", "bourre", "--hand", "AH KH 7C 4D 2S", "--up-card", "9H", "--play", "heuristic,pimc,open",
             "--hands", "4"),
            ("pot", "--players", "4", "--sessions", "20", "--deals", "10"),
            ("pot", "--players", "4", "--sessions", "200", "--deals", "10", "--tail", "--tail-levels", "10",
             "--tail-roots", "100"),
            ("trace", "bourre", "--players", "4", "--deals", "2"),
            ("trace", "bourre", "--players", "4", "--deals", "1", "-H", "pimc"),
            ("compare", "bourre", "basic", "tight", "--hands", "200"),
            ("compare", "bourre", "basic", "pimc", "--hands", "4", "--players", "4"),
            ("compare", "bourre", "ev:train_sessions=200,train_deals=20", "basic", "--hands", "4", "--players", "4"),
            ("bench", "--solver", "--hands", "4", "--repeats", "1", "--threads", "1"),
            # the kernels compiled with ev's table (the lines above have no ev seat: analysis/bourre/ev.py ev_tables
            # is None then, a kernel compiled without ev); plain ev at the default table size reads the shipped table
            ("odds", "bourre", "--hand", "AH KH 7C 4D 2S", "--up-card", "9H", "-H", "ev", "--hands", "20"),
            ("odds", "bourre", "--hand", "AH KH 7C 4D 2S", "--up-card", "9H", "-H", "ev", "--play",
             "heuristic,pimc,open", "--hands", "4"),
            ("pot", "-H", "ev", "--sessions", "20", "--deals", "10", "--tail", "--tail-levels", "10", "--tail-roots",
             "100"),
            ("trace", "bourre", "-H", "ev", "--deals", "2")),
    solver_bench=solver_bench, trust=trust, tables=tables, chart=CHART,
    ladder=Ladder(entrants=("random", "basic", "tight", "loose", "cinch", "ev", "pimc", "pimc:worlds=32"),
                  hands=3_000, quick=35, bound=ladder_bound, extra={"players": LADDER_PLAYERS}),
    hand_odds=HandOdds(deck=tuple(r + s for s in SUITS for r in reversed(RANKS)), size=5, hands=100_000, options=("up_card", "players", "explain")))

# the generic helpers under the names the game's callers know
parse_seats = GAME.parse_seats
heuristic_arrays = GAME.heuristic_arrays
specs_from_json = GAME.specs_from_json
check_players = GAME.check_players

__all__ = ["_seat_net_stats", "agg_layout", "ALIASES", "batch_sums", "bench_cases", "bin_hi", "bin_lo", "BIN_MID",
           "bin_mid", "block_duplicate", "block_odds", "block_pot", "BourreRules", "check_players", "decode_pot",
           "DEFAULT_PLAYERS", "discard_limit", "explain_command", "fan_stride", "fmt_chips_bin", "GAME", "headline", "heuristic_arrays",
           "hist_quantile", "K", "keep_order", "KEY", "make_params", "MAX_FAN", "MAX_PLAYERS", "MIN_PLAYERS", "NB1",
           "odds_choices", "odds_command", "odds_hand", "odds_play", "odds_play_run", "odds_run", "odds_table", "parse_hand", "parse_seats",
           "parse_sweep", "plot_pot", "plot_sweep", "pot_block_size", "pot_command", "POT_HI", "POT_LO",
           "pot_quantile", "pot_run", "pot_study", "pot_sweep", "pot_tables", "quantile_with_ci", "record_to_dict",
           "REGISTRY", "render_odds", "render_play", "render_pot", "rules_array", "rules_dict", "specs_from_json", "sweep_label",
           "SWEEPS", "block_tail", "rare_tail", "solve_k", "tail_study", "trace", "validate_odds", "write_pot"]
