"""Bourre (docs/RULES.md section 3): the rules dataclass and its kernel array, the heuristics
registry, parsing, and how a parallel kernel is called.  The game's ``SPEC`` is in spec.py."""
from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np

from ...kernels import bourre as K
from ...kernels.cards import RANKS
from ..common import HeuristicDef, Param, TricksimError, declared, flag, parse_cards
from ..play_kinds import Sampling

KEY = "bourre"
MIN_PLAYERS, MAX_PLAYERS = 2, 8
MAX_FAN = 200                      # at most this many fan-chart points per session (deals are strided beyond)
ODDS_BLOCK = 1 << 14               # deals per engine block of the odds of one hand


def parse_hand(text: str) -> list[int]:
    return parse_cards(text, 5, RANKS, "Bourre hand")


@dataclass(frozen=True)
class BourreRules:
    """Every variant flag of RULES.md 3.1 / section 5 with its default."""
    PREFIX = "bourre"
    ante: int = flag(1, rng=(0, 10 ** 12), help="rule 2: chips each player antes")
    dealer_sets_ante: bool = flag(False, help="rule 2: after the first deal the dealer sets the ante (heuristic parameter ante_mult)")
    dealer_antes_for_all: bool = flag(False, help="rule 2: the dealer pays every ante that is owed")
    double_ante: bool = flag(False, help="rule 17: each player who plays adds a second ante")
    trump_card: str = flag("dealer_fifth", ["dealer_fifth", "separate_turnup"], help="rule 3")
    declare_then_draw: bool = flag(False, help="rule 4: everyone declares first, then the players draw")
    max_discard: int = flag(5, rng=(0, 5), help="rule 4: most cards a player may discard")
    max_discard_7plus: int | None = flag(None, rng=(0, 5), help="rule 4: discard limit with 7-8 players (none = off)")
    reshuffle: str = flag("pagat_all_unused", ["pagat_all_unused", "wp_folded_first_then_discards"], help="rule 5")
    all_pass: str = flag("dealer_wins", ["dealer_wins", "carry_over"], help="rule 7")
    must_head_in_suit: bool = flag(True, help="rule 10a: beat the best card of the suit led if able")
    must_trump_when_void: bool = flag(True, help="rule 10b")
    must_overtrump: bool = flag(True, help="rule 10b")
    must_trump_even_if_cannot_win: bool = flag(True, help="rule 10b (false: trump only when the trump would win)")
    void_must_play_highest_trump: bool = flag(False, help="rule 10b: a void player who must trump plays his highest trump")
    cinch_rule: str = flag("pagat", ["pagat", "hoyle_lead_highest_with_akq", "akq_in_order", "none"], help="rule 11")
    cinch_knowledge: str = flag("holder", ["holder", "omniscient"], help="rule 11 detection")
    cinch_last_player_exempt: bool = flag(True, help="rule 11 (ii)")
    tie: str = flag("carry_over", ["carry_over", "divide_equally", "tied_only_next_hand"], help="rule 13")
    bourre_penalty: str = flag("pot", help="rule 14: pot | fixed:K (K chips)")
    pot_limit: int | None = flag(None, rng=(1, 1 << 62), help="rule 15: pot limit L (none = off)")
    lo_no: bool = flag(False, help="rule 18: the dealer may call Lo-No on an up-card 2..7")

    def __post_init__(self):
        if not 0 <= self.ante <= 10 ** 12:
            raise TricksimError(f"rule ante must be in 0..{10 ** 12}, got {self.ante}")
        if self.pot_limit is not None and self.pot_limit < 1:
            raise TricksimError(f"rule pot_limit must be at least 1 (or none), got {self.pot_limit}")
        if not 0 <= self.max_discard <= 5:
            raise TricksimError(f"rule max_discard must be in 0..5, got {self.max_discard}")
        if self.max_discard_7plus is not None and not 0 <= self.max_discard_7plus <= 5:
            raise TricksimError(f"rule max_discard_7plus must be in 0..5 (or none), got {self.max_discard_7plus}")
        object.__setattr__(self, "bourre_penalty", _penalty_text(self.bourre_penalty))

    @property
    def penalty_chips(self) -> int:
        """-1 = the pot, else a fixed number of chips."""
        return -1 if self.bourre_penalty == "pot" else int(self.bourre_penalty.split(":")[1])


def _penalty_text(v) -> str:
    t = str(v).strip().lower().replace(" ", "")
    if t == "pot":
        return t
    if t.startswith("fixed:"):
        k = t[6:]
        if k.isdigit() and int(k) <= 10 ** 12:
            return f"fixed:{int(k)}"
    raise TricksimError(f"rule bourre_penalty must be 'pot' or 'fixed:K' with K >= 0 chips, got {v!r}")


def rules_array(r: BourreRules) -> np.ndarray:
    a = np.zeros(K.N_RULES, np.int64)
    a[K.R_ANTE] = r.ante
    a[K.R_DEALER_SETS_ANTE] = int(r.dealer_sets_ante)
    a[K.R_DEALER_ANTES_ALL] = int(r.dealer_antes_for_all)
    a[K.R_DOUBLE_ANTE] = int(r.double_ante)
    a[K.R_TRUMP_CARD] = ["dealer_fifth", "separate_turnup"].index(r.trump_card)
    a[K.R_DECLARE_THEN_DRAW] = int(r.declare_then_draw)
    a[K.R_MAX_DISCARD] = r.max_discard
    a[K.R_MAX_DISCARD_7PLUS] = -1 if r.max_discard_7plus is None else r.max_discard_7plus
    a[K.R_RESHUFFLE] = ["pagat_all_unused", "wp_folded_first_then_discards"].index(r.reshuffle)
    a[K.R_ALL_PASS] = ["dealer_wins", "carry_over"].index(r.all_pass)
    a[K.R_MUST_HEAD] = int(r.must_head_in_suit)
    a[K.R_MUST_TRUMP] = int(r.must_trump_when_void)
    a[K.R_MUST_OVERTRUMP] = int(r.must_overtrump)
    a[K.R_TRUMP_EVEN_IF_CANNOT_WIN] = int(r.must_trump_even_if_cannot_win)
    a[K.R_VOID_HIGHEST_TRUMP] = int(r.void_must_play_highest_trump)
    a[K.R_CINCH_RULE] = ["pagat", "hoyle_lead_highest_with_akq", "akq_in_order", "none"].index(r.cinch_rule)
    a[K.R_CINCH_KNOWLEDGE] = ["holder", "omniscient"].index(r.cinch_knowledge)
    a[K.R_CINCH_LAST_EXEMPT] = int(r.cinch_last_player_exempt)
    a[K.R_TIE] = ["carry_over", "divide_equally", "tied_only_next_hand"].index(r.tie)
    a[K.R_PENALTY] = r.penalty_chips
    a[K.R_POT_LIMIT] = 0 if r.pot_limit is None else r.pot_limit
    a[K.R_LO_NO] = int(r.lo_no)
    return a


def discard_limit(rules: BourreRules, players: int) -> int:
    lim = rules.max_discard
    if players >= 7 and rules.max_discard_7plus is not None:
        lim = min(lim, rules.max_discard_7plus)
    return lim


def _family(threshold, cinch=False):
    names = ["threshold", "trump_weight", "trump_rank_weight", "ace_weight", "king_weight", "draw_weight", "pot_weight",
             "position_weight", "declared_weight", "keep_kings", "bourre_guard"]
    return declared(K.PARAMS, names + (["sure_weight"] if cinch else []) + ["ante_mult", "lono_rank"],
                    threshold=threshold)


REGISTRY = {
    "random": HeuristicDef("random", K.H_RANDOM,
                           declared(K.PARAMS, ["play_prob", "lono_prob", "ante_mult"]),
                           "random-legal baseline: plays with play_prob, discards a uniform number (within the limit) "
                           "of random cards, plays a uniformly random legal card (forced plays still forced)",
                           deterministic=False),
    "basic": HeuristicDef("basic", K.H_BASIC, _family(2.0),
                          "strength estimate vs a threshold; keeps trumps and aces, draws the rest; leads boss cards, "
                          "wins tricks with the cheapest safe card"),
    "tight": HeuristicDef("tight", K.H_BASIC, _family(2.6), "basic with a higher play threshold (plays less)"),
    "loose": HeuristicDef("loose", K.H_BASIC, _family(1.4), "basic with a lower play threshold (plays more)"),
    "cinch": HeuristicDef("cinch", K.H_CINCH, _family(2.0, cinch=True),
                          "basic plus sure-trick counting (rule 11 matching) in the play/pass decision: "
                          "always plays a cinch"),
}

# ev's training settings: read by analysis/bourre/ev.py (which computes its table), never by the kernels, so declared
# here, with no kernel column
EV_SETTINGS = [
    Param("train_sessions", 20000, 100, 10 ** 6, "ev table: sessions simulated per fictitious-play iteration"),
    Param("train_deals", 100, 10, 1000, "ev table: deals per training session"),
    Param("train_seed", 0, 0, 10 ** 9, "ev table: the training seed (the table is a pure function of it, the rules, "
                                       "the table size and these settings)"),
    Param("max_iter", 12, 1, 50, "ev table: most fictitious-play iterations"),
    Param("min_samples", 50, 1, 10 ** 6, "ev table: samples a hand class needs (fewer: decide as basic)"),
]


def _ev_family():
    return {**_family(2.0), **{p.name: p for p in EV_SETTINGS}, **declared(K.PARAMS, ["draw", "draw_z"])}


REGISTRY["ev"] = HeuristicDef(
    "ev", K.H_EV, _ev_family(),
    "expected-value player: (draw=1: draws the number of cards and) plays when P(win) x pot + P(tie) x tie value - "
    "P(bourre) x bourre cost is highest and > 0, the probabilities per hand class (strength of the kept cards, "
    "cards drawn, players declared before it, position, pot) from a table tricksim computes by fictitious play "
    "(analysis/bourre/ev.py, cached); draw=0 (default): basic's discard; card play as basic")
_DEFAULT = {row[0]: row[1] for row in K.PARAMS}   # the kernel's declaration (kernels/bourre/players.py)
PIMC_WORLDS = _DEFAULT["worlds"]   # default worlds per card, chosen by measurement (README "The sampling player for Bourre")
PIMC_RACE = _DEFAULT["race"]       # default race margin (0 = off), chosen by measurement (same section)
PIMC_EVAL = _DEFAULT["eval"]       # default scoring of a world: the paranoid solver, measured better than playouts
PIMC_DECIDE = _DEFAULT["decide"]   # default play/pass and discards: by sampling, measured better than basic's
REGISTRY["pimc"] = HeuristicDef(
    "pimc", K.H_PIMC,
    {**_family(2.0), **declared(K.PARAMS, ["worlds", "race", "eval", "decide", "infer", "share_tt"])},
    "sampling player: play/pass and discards by sampling deals consistent with the earlier declarations (decide=0: "
    "as basic, its own parameters); plays each card by sampling worlds "
    "consistent with what it has seen and scoring every legal card in each by the chips of the open-hand "
    "solver's sure outcome (eval=1) or of a playout by basic players (eval=0); infer=1: card-play worlds also "
    "consistent with every other player's play/pass and cards drawn (kernels/bourre/pimc.py)")
PIMC_ONLY = "compare, trace and odds (and odds --play pimc)"   # the studies that play a pimc seat
PIMC_COMPARE_HANDS = 10_000   # compare's default deals when an entrant is pimc (README: about 9 minutes on 2 cores
                              # for 3 entrants with decide=1, the default)
PIMC_COMPARE_BLOCK = 1_024    # deals per engine block then (several seconds each)
SAMPLING = Sampling(K.H_PIMC, PIMC_ONLY, PIMC_COMPARE_HANDS, PIMC_COMPARE_BLOCK, integers=("decide", "infer", "share_tt"))
has_pimc, compare_slow, no_pimc = SAMPLING.has, SAMPLING.compare_slow, SAMPLING.refuse


def pimc_arg(specs) -> tuple:
    """The batch kernels' optional ``pimc`` argument: ``(True,)`` when a seat is the sampling player, else ``()``
    (omitted: the kernel is compiled without the sampling player, minutes cold; omitted rather than None, so
    that every kernel shares one compiled ``play_dealt``)."""
    return (True,) if has_pimc(specs) else ()


ALIASES = {"default": "basic", "cinch-aware": "cinch", "expected-value": "ev"}


def _dynamic(kernel, *args):
    """Run a prange kernel with dynamic scheduling (chunks of 4 iterations): on a shared
    machine a briefly preempted thread no longer leaves the other idle at the end.  The
    results do not depend on the schedule (per-session rows / per-chunk integer counts)."""
    old = numba.set_parallel_chunksize(4)
    try:
        return kernel(*args)
    finally:
        numba.set_parallel_chunksize(old)


DEFAULT_PLAYERS = 7          # the table size of every Bourre study when none is given (CLI and API alike)
