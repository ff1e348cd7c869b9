"""Boulmous (docs/RULES.md section 1): the rules dataclass and its kernel array, the heuristics
registry, card and option parsing.  The game's ``SPEC`` is in spec.py."""
from __future__ import annotations

from dataclasses import dataclass
from math import comb

import numba
import numpy as np

from ...kernels import boulmous as K
from ...kernels.rng import GAME_BOULMOUS, STREAM_PIMC, derive_key
from ..common import HeuristicDef, TricksimError, declared, flag, parse_cards, parse_heuristic
from ..play_kinds import Sampling
from ..stats import two_valued_mean_ci

KEY = "boulmous"
DECK_RANKS = "9TJQKA"
TRUMP_NAMES = ["S", "H", "D", "C", "NT"]
N_LAYOUTS = comb(18, 6) * comb(12, 6)  # 17,153,136
BLOCK_DEALS = 1 << 22  # hands per engine block for the random-deal studies (about 1-2 s of work)
ODDS_BLOCK = 1 << 18   # hands per block of the odds of one hand
GAMES_BLOCK = 1 << 14  # whole games per block
DEALER = 3             # seats are numbered from the dealer's left: the odds kernels take the dealer's seat


def exact_counts(hand_mask: int, seat: int, trumps: list[int], with_pass: bool, ra, codes, prm) -> np.ndarray:
    """``K.exact_odds`` over every hand of the next seat (all N_LAYOUTS layouts), its blocks scheduled one at a
    time: on a shared machine a briefly preempted thread no longer leaves the other idle at the end (the counts are
    integers summed per block, whatever the schedule)."""
    old = numba.set_parallel_chunksize(1)
    try:
        return K.exact_odds(np.uint64(hand_mask), seat, DEALER, np.array(trumps, np.int64), with_pass, ra, codes, prm,
                            np.arange(comb(18, 6), dtype=np.int64))
    finally:
        numba.set_parallel_chunksize(old)


def check_hands(hands: int) -> int:
    if hands < 1:
        raise TricksimError(f"the number of hands must be at least 1, got {hands}")
    return hands


@dataclass(frozen=True)
class BoulmousRules:
    """Every variant flag of RULES.md 1.1 with its default."""
    PREFIX = "boulmous"
    auction: str = flag("single_round", ["single_round", "multi_round"], help="rule 5: one round of bidding, or rounds until three players are out")
    left_bower_is_trump: bool = flag(True, help="rule 9: same-colour jack is a trump for every purpose")
    must_head: bool = flag(False, help="rule 12: must beat the best card when following")
    trump_obligation: str = flag("optional", ["optional", "must_trump", "must_trump_and_overtrump"], help="rule 13: whether a void player must trump, and overtrump")
    failed_taker_keeps_tricks: bool = flag(True, help="rule 16: failed taker scores tricks - bid (else -bid)")
    end_check: str = flag("end_of_deal", ["end_of_deal", "after_each_trick"], help="rule 17: when the game can end (after a deal, or after any trick)")
    tie_break: str = flag("play_on", ["play_on", "taker_priority", "shared_win"], help="rule 17: a tie for the top score at the target or above")
    winner_pays_own_boxes: bool = flag(False, help="rule 18: the winner pays each other player a stake per box of his own")
    failed_boulmous_is_box: bool = flag(True, help="rule 18: a failed boulmous (bid 6) also counts as a box")
    target: int = flag(21, rng=(1, 1000), help="rule 17: points to win a game")
    deal_packets: str = flag("3+3", ["3+3", "2+2+2", "1x6", "6"], help="rule 3 (cosmetic: no effect after a uniform shuffle)")


def rules_array(r: BoulmousRules) -> np.ndarray:
    a = np.zeros(K.N_RULES, np.int64)
    a[K.R_AUCTION] = 0 if r.auction == "single_round" else 1
    a[K.R_LEFT_BOWER_TRUMP] = int(r.left_bower_is_trump)
    a[K.R_MUST_HEAD] = int(r.must_head)
    a[K.R_TRUMP_OBL] = ["optional", "must_trump", "must_trump_and_overtrump"].index(r.trump_obligation)
    a[K.R_FAILED_KEEPS] = int(r.failed_taker_keeps_tricks)
    a[K.R_END_CHECK] = 0 if r.end_check == "end_of_deal" else 1
    a[K.R_TIE_BREAK] = ["play_on", "taker_priority", "shared_win"].index(r.tie_break)
    a[K.R_WINNER_PAYS_OWN] = int(r.winner_pays_own_boxes)
    a[K.R_FAILED_B_IS_BOX] = int(r.failed_boulmous_is_box)
    a[K.R_TARGET] = r.target
    return a


_DEFAULT = {row[0]: row[1] for row in K.PARAMS}   # the kernel's declaration (kernels/boulmous/players.py)
PIMC_WORLDS = _DEFAULT["worlds"]   # default worlds per decision, chosen by measurement (docs/methods/sampling.md)
PIMC_BID = _DEFAULT["bid"]         # default bid: 1 = bid and name trumps by sampling, 0 = as cautious (measured: docs/methods/sampling.md)
PIMC_RACE = _DEFAULT["race"]       # default race margin (0 = off), chosen by measurement (docs/methods/sampling.md)


def _family(margin, bower, trump, ace, king, length, nt, bmargin, gang, draw, lead_high):
    return declared(K.PARAMS, ["margin", "bower_weight", "trump_weight", "ace_weight", "king_weight", "length_bonus",
                               "nt_bias", "boulmous_margin", "gang_up", "draw_trumps", "lead_high", "score_aware"],
                    margin=margin, bower_weight=bower, trump_weight=trump, ace_weight=ace, king_weight=king,
                    length_bonus=length, nt_bias=nt, boulmous_margin=bmargin, gang_up=gang, draw_trumps=draw,
                    lead_high=lead_high, score_aware=0)


REGISTRY = {
    "random": HeuristicDef("random", K.H_RANDOM, declared(K.PARAMS, ["bid_prob"]),
                           "random-legal baseline: random bids, random trump, a uniformly random legal card", deterministic=False),
    "cautious": HeuristicDef("cautious", K.H_CAUTIOUS, _family(0.5, 1.0, 0.6, 0.8, 0.3, 0.3, -0.5, 0.5, 1, 1, 0),
                             "card-counting player: draws trumps as taker, leads sure winners, wins only with cards no unseen card beats"),
    "aggressive": HeuristicDef("aggressive", K.H_AGGRESSIVE, _family(-0.3, 1.0, 0.75, 0.9, 0.45, 0.4, -0.3, 0.0, 0, 0, 1),
                               "optimistic bidder, no card memory: wins a trick with its cheapest winning card whenever it can"),
}
REGISTRY["pimc"] = HeuristicDef(
    "pimc", K.H_PIMC, {**_family(0.5, 1.0, 0.6, 0.8, 0.3, 0.3, -0.5, 0.5, 1, 1, 0),
                       **declared(K.PARAMS, ["worlds", "bid", "race", "infer", "share_tt"])},
    "sampling player: plays each card by sampling worlds consistent with what it has seen and solving each "
    "open-handed (make or defeat the contract first, then tricks); bids and names trumps by sampling (bid=1) or as "
    "cautious with its own parameters (bid=0); infer=1: worlds also consistent with the calls heard")
ALIASES = {"default": "cautious"}
PIMC_ONLY = "compare, sweep and trace"   # the studies whose kernels play a pimc seat (their ``pimc`` argument)


def pimc_key(seed: int):
    """The sampling player's random key of a seed (its own stream: it never moves the deals or the
    heuristics' decisions)."""
    return derive_key(int(seed), GAME_BOULMOUS, STREAM_PIMC)


PIMC_COMPARE_HANDS = 20_000   # compare's default deals when an entrant is pimc (about 10 minutes on a loaded 2-core host)
PIMC_COMPARE_BLOCK = 512      # deals per engine block then (a few seconds each)
SAMPLING = Sampling(K.H_PIMC, PIMC_ONLY + " (and as --play pimc in the odds)", PIMC_COMPARE_HANDS, PIMC_COMPARE_BLOCK,
                    integers=("bid", "infer", "share_tt"), hint="choose heuristics among cautious, aggressive, random here")
has_pimc, compare_slow = SAMPLING.has, SAMPLING.compare_slow


SCORE_AWARE_STUDIES = ("stakes",)   # the studies of this package that play whole games with score-aware seats


SCORE_AWARE_VALUES = (0, 1, 2)      # none, by the chance to win the game, by money


def check_score_aware_value(spec) -> float:
    """The seat's ``score_aware`` value, refused (one line) when not 0, 1 or 2."""
    v = dict(spec.values).get("score_aware", 0)
    if v not in SCORE_AWARE_VALUES:
        raise TricksimError(f"heuristic {spec.label!r}: score_aware must be 0, 1 or 2, got {v:g}")
    return v


def deal_compare_check(specs) -> None:
    """``Duplicate.check``: a tournament of single deals refuses score-aware entrants (they need whole games)."""
    for s in specs:
        v = check_score_aware_value(s)
        if v:
            raise TricksimError(f"heuristic {s.label!r}: score_aware={v:g} needs the scores of whole games; compare "
                                "them with --games N (a deal alone has no score)")


def score_aware(specs, study: str | None = None) -> bool:
    """Whether a seat bids score-aware (``score_aware=1`` or ``2``); refuses a value other than 0, 1 or 2, a
    score-aware pimc, and (``study`` given) a study that plays no whole games, where no score exists."""
    found = 0
    for s in specs:
        v = check_score_aware_value(s)
        if v:
            if s.code == K.H_PIMC:
                raise TricksimError(f"heuristic {s.label!r}: score_aware={v:g} applies to cautious and aggressive, "
                                    "not to the sampling player pimc")
            found = found or v
    if found and study is not None and study not in SCORE_AWARE_STUDIES:
        raise TricksimError(f"{study}: score_aware={found:g} needs the scores of whole games; use it in tricksim "
                            "stakes boulmous or tricksim compare boulmous --games")
    return bool(found)


def no_pimc(specs, study: str):
    """``specs`` unchanged, or a one-line refusal when a seat is pimc and ``study`` plays its cards with the
    batch kernels only, or a seat is score-aware and ``study`` plays no whole games (``score_aware``)."""
    score_aware(specs, study)
    return SAMPLING.refuse(specs, study)


def parse_hand(text: str) -> list[int]:
    return parse_cards(text, 6, DECK_RANKS, "Boulmous hand")


def check_seat(seat: int) -> int:
    if not 0 <= seat <= 3:
        raise TricksimError(f"the seat must be 0..3 (0 = dealer's left, 3 = dealer), got {seat}")
    return seat


def _trump(t: str) -> str:
    t = t.strip().upper()
    if t not in TRUMP_NAMES:
        raise TricksimError(f"unknown trump {t!r}: use S, H, D, C or NT")
    return t


def parse_entrants(names, user_defs=None):
    """The heuristic specs of ``names`` (scripts/compare_designs.py; ``compare.entrant_specs`` also
    refuses a name given twice)."""
    return [parse_heuristic(h, REGISTRY, ALIASES, user_defs) for h in names]


def bid_stakes_ci(bid: int, made: int, n: int):
    """The expected boulmous payments of a bid (rule 18 c, d: bid 6 is worth +3 stakes made, -3 failed;
    a lower bid none) with its interval: the Wilson interval of P(make) mapped through the payments,
    so that it stays honest when no 6 (or every 6) was made.  Returns (mean, low, high); a lower bid
    is exactly 0 (low = high = 0: no sampling error)."""
    if bid < 6:
        return 0.0, 0.0, 0.0
    m, lo, hi = two_valued_mean_ci(made, n, -3.0, 3.0)
    return float(m), float(lo), float(hi)
