"""Boulmous (docs/RULES.md section 1): French, 24 cards, four players each for himself, bids of 3-6
tricks, euchre-like bowers.

- ``config``: the rules dataclass and its kernel array, the heuristics registry, parsing;
- ``studies``: the block functions and the studies (odds of one hand, exact odds, hand classes,
  auctions, whole games with the money settlement); ``play``: the odds of one hand under several
  kinds of play (heuristics, open-hand) on the same deals;
- ``trace``: hands and games as the kernels played them (docs/trace.md);
- ``chart``: the strategy chart's cells (``tricksim chart boulmous``: pass or the bid to make);
- ``explain``: why one call (``odds boulmous --hand ... --explain``: paired margins, example deals);
- ``views``: text tables and the CLI's commands; ``report``: the headline section.

``GAME`` is the game's record (analysis/game.py), listed in analysis/registry.py.
"""
from ...kernels import boulmous as K
from ...kernels.cards import SUITS
from ..common import make_params
from ..game import Game, HandOdds, Ladder
from .chart import CHART
from .config import (ALIASES, BLOCK_DEALS, DECK_RANKS, KEY, N_LAYOUTS, REGISTRY, TRUMP_NAMES, BoulmousRules,
                     check_seat, parse_entrants, parse_hand, rules_array)
from .equity import decide as equity_decide
from .equity import outcomes as equity_outcomes
from .equity import saware as equity_saware
from .equity import shipped as equity_shipped
from .equity.report import equity_report
from .play import (PLAY_KINDS, block_classes_play, block_odds_play, classes_play_run, odds_classes_play, odds_play,
                   odds_play_run, parse_play)
from .report import HEADLINE_HAND, headline
from .spec import SPEC
from .studies import (_odds_tables, auction_stats, bench_cases, best_call, block_classes, block_deals,
                      block_duplicate, block_games, block_odds, classes_run, compare_exact, game_stakes, hand_rows,
                      inside_text, odds_classes, odds_hand, odds_run, solver_bench, solver_bench_cases, stakes_run)
from .trace import record_to_dict, trace, trace_games
from .trust import ladder_bound, trust
from .explain import explain_command
from .views import odds_command, render_auction, render_classes, render_odds, stakes_command
from .whole_games import WHOLE_GAMES, block_games_duplicate


GAME = Game.of(
    SPEC,
    blocks={"boulmous.deals": block_deals, "boulmous.odds": block_odds, "boulmous.classes": block_classes,
            "boulmous.games": block_games, "boulmous.duplicate": block_duplicate,
            "boulmous.odds_play": block_odds_play, "boulmous.classes_play": block_classes_play,
            "boulmous.equity_outcomes": equity_outcomes.block_boulmous,
            "boulmous.equity_odds": equity_decide.block_odds,
            "boulmous.equity_calibration": equity_saware.block_calibration,
            WHOLE_GAMES.study: block_games_duplicate},
    hand_rows={"boulmous.deals": hand_rows},
    trace=trace, stakes=stakes_command, bench_cases=bench_cases, bench_hands=4_000_000, headline=headline,
    rules_section="1 (Boulmous)", whole_games=WHOLE_GAMES,
    warmup=(("odds", "boulmous", "--hand", "JH JD AH KH 9S TC", "--hands", "200"),
            ("odds", "boulmous", "--hand", "JH JD AH KH 9S TC", "--exact", "--trump", "NT", "--hands", "200"),
            ("odds", "boulmous", "--hands", "2000"),
            ("odds", "boulmous", "--hand", "JH JD AH KH 9S TC", "--play", "heuristic,pimc,open", "--hands", "8"),
            ("odds", "boulmous", "--play", "heuristic,pimc,open", "--hands", "8"),
            ("trace", "boulmous", "--hands", "2"),
            ("trace", "boulmous", "--hands", "1", "-H", "pimc", "--explain"),   # --explain: its solver calls too
            ("compare", "boulmous", "cautious", "aggressive", "--hands", "400"),
            ("compare", "boulmous", "cautious", "pimc", "--hands", "4"),
            ("stakes", "boulmous", "--games", "20"),
            ("compare", "boulmous", "cautious", "aggressive", "--games", "20"),
            ("equity", "boulmous", "--scores", "18,17,9,3", "--deals", "30000", "--check", "1", "--check-games", "10"),
            ("odds", "boulmous", "--hand", "JH JD AH KH 9S TC", "--scores", "18,17,9,3", "--hands", "200"),
            ("compare", "boulmous", "cautious", "cautious:score_aware=1", "--games", "4", "--rule", "target=11")),
    solver_bench=solver_bench, trust=trust, chart=CHART,
    ladder=Ladder(entrants=("random", "cautious", "aggressive", "pimc", "pimc:worlds=8"), hands=2_000, quick=96,
                  bound=ladder_bound),
    equity_report=equity_report, tables=equity_shipped.tables,
    hand_odds=HandOdds(deck=tuple(r + s for s in SUITS for r in reversed(DECK_RANKS)), size=6, hands=200_000))

# the generic helpers under the names the game's callers know
parse_seats = GAME.parse_seats
heuristic_arrays = GAME.heuristic_arrays
specs_from_json = GAME.specs_from_json

__all__ = ["_odds_tables", "ALIASES", "auction_stats", "bench_cases", "best_call", "block_classes", "BLOCK_DEALS",
           "block_deals", "block_duplicate", "block_games", "block_odds", "block_odds_play", "block_classes_play", "classes_play_run", "odds_classes_play", "BoulmousRules", "check_seat",
           "classes_run", "compare_exact", "DECK_RANKS", "GAME", "game_stakes", "hand_rows", "headline",
           "HEADLINE_HAND", "heuristic_arrays", "inside_text", "K", "KEY", "make_params", "N_LAYOUTS",
           "explain_command", "odds_classes", "odds_command", "odds_hand", "odds_play", "odds_play_run", "odds_run", "parse_play",
           "PLAY_KINDS", "parse_entrants", "parse_hand", "parse_seats",
           "record_to_dict", "REGISTRY", "solver_bench_cases", "render_auction", "render_classes", "render_odds", "rules_array",
           "specs_from_json", "stakes_command", "stakes_run", "trace", "trace_games", "TRUMP_NAMES"]
