"""Boomke Wies (docs/RULES.md section 2): Belgian partnership whist, bids 7-13, Boom and Meetje.

- ``config``: the rules dataclass and its kernel array, the heuristics registry, calls and scoring;
- ``studies``: the block functions and the studies (odds of one hand, auctions and hand classes over
  random deals, whole matches); ``dd``: open-hand (double-dummy) play beside them (the ``dd`` extra);
- ``trace``: deals as the kernels played them (docs/trace.md);
- ``views``: text tables, plots and the CLI's commands; ``report``: the headline section.

``GAME`` is the game's record (analysis/game.py), listed in analysis/registry.py.
"""
from ...kernels import boomke_wies as K
from ...kernels.cards import RANKS, SUITS, mask_of
from ..common import make_params, parse_cards, parse_heuristic, rules_dict
from ..game import Game, HandOdds, Ladder
from .chart import CHART
from .config import (ALIASES, BIDS, CONTRACT_NAMES, KEY, N_SEATS, POSITIONS, REGISTRY, BoomkeRules, call_name,
                     parse_call, parse_hand, rules_array, score)
from .dd import block_dd_deals, block_dd_hand, dd_deals, dd_hand, dd_solve, ladder_bound, paired_gap
from .equity import block_boomke
from .play import block_odds_play, odds_play, odds_play_run, render_play
from .report import EXAMPLE_HAND, equity_report, headline, trust
from .shipped import tables
from .spec import SPEC
from .studies import (_odds_tables, auction_stats, bench_cases, block_classes, block_deals, block_duplicate,
                      block_matches, block_odds, deals_run, decode_classes, decode_deals, heuristic_open_suit,
                      match_stats, matches_run, odds_classes, odds_hand, odds_run)
from .trace import record_to_dict, trace
from .views import (odds_command, plot_classes, plot_contracts, plot_dd, plot_tricks, render_classes, render_dd,
                    render_deals, render_odds, stakes_command)


GAME = Game.of(
    SPEC,
    blocks={"boomke_wies.deals": block_deals, "boomke_wies.classes": block_classes, "boomke_wies.odds": block_odds,
            "boomke_wies.matches": block_matches, "boomke_wies.dd_deals": block_dd_deals,
            "boomke_wies.dd_hand": block_dd_hand, "boomke_wies.duplicate": block_duplicate,
            "boomke_wies.odds_play": block_odds_play, "boomke_wies.equity_outcomes": block_boomke},
    trace=trace, stakes=stakes_command, bench_cases=bench_cases, bench_hands=2_000_000, headline=headline,
    rules_section="2 (Boomke Wies)",
    warmup=(("odds", "boomke-wies", "--hand", "AS KS QS JS TS 9S 8S AH KH QH AD KD AC", "--hands", "200"),
            ("odds", "boomke-wies", "--hands", "2000"),
            ("odds", "boomke-wies", "--hand", "AS KS QS JS TS 9S 8S AH KH QH AD KD AC", "--play", "heuristic,pimc",
             "--trump", "S", "--hands", "4"),
            ("trace", "boomke-wies", "--hands", "2"),
            ("trace", "boomke-wies", "--hands", "1", "-H", "pimc"),
            ("compare", "boomke-wies", "partner", "naive", "--hands", "200"),
            ("compare", "boomke-wies", "partner", "pimc", "--hands", "4"),
            ("stakes", "boomke-wies", "--games", "10"),
            ("equity", "boomke-wies", "--scores", "7,4", "--deals-left", "4", "--deals", "30000", "--check", "1",
             "--check-games", "10")),
    trust=trust, equity_report=equity_report, tables=tables, chart=CHART,
    ladder=Ladder(entrants=("random", "partner", "naive", "pimc", "pimc:worlds=32,bid_worlds=32"), hands=800,
                  quick=40, bound=ladder_bound),
    hand_odds=HandOdds(deck=tuple(r + s for s in SUITS for r in reversed(RANKS)), size=13, hands=200_000))

# the generic helpers under the names the game's callers know
parse_seats = GAME.parse_seats
heuristic_arrays = GAME.heuristic_arrays
specs_from_json = GAME.specs_from_json

__all__ = ["_odds_tables", "ALIASES", "auction_stats", "bench_cases", "BIDS", "block_classes", "block_dd_deals",
           "block_dd_hand", "block_deals", "block_duplicate", "block_matches", "block_odds", "BoomkeRules",
           "call_name", "CONTRACT_NAMES", "dd_deals", "dd_hand", "dd_solve", "deals_run", "decode_classes",
           "decode_deals", "EXAMPLE_HAND", "GAME", "headline", "heuristic_arrays", "heuristic_open_suit", "K", "KEY",
           "make_params", "mask_of", "match_stats", "matches_run", "N_SEATS", "odds_classes", "odds_command",
           "odds_hand", "odds_play", "odds_play_run", "odds_run", "paired_gap", "parse_call", "parse_cards", "parse_hand", "parse_heuristic",
           "parse_seats", "plot_classes", "plot_contracts", "plot_dd", "plot_tricks", "POSITIONS", "record_to_dict",
           "REGISTRY", "render_classes", "render_dd", "render_deals", "render_odds", "render_play", "rules_array", "rules_dict",
           "score", "specs_from_json", "stakes_command", "trace"]
