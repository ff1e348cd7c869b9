"""Boomke Wies (docs/RULES.md section 2): the rules dataclass and its kernel array, the partnership
heuristics registry, calls, hands and the scoring table on the Python side.  The game's ``SPEC``
is in spec.py."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...kernels import boomke_wies as K
from ...kernels.boomke_wies import pimc as KP
from ...kernels.cards import RANKS, SUITS
from ..common import HeuristicDef, TricksimError, declared, flag, parse_cards
from ..play_kinds import Sampling

KEY = "boomke_wies"
N_SEATS = 4
BIDS = list(range(7, 14))
CONTRACT_NAMES = ["7", "8", "9", "10", "11", "12", "Boom", "Meetje"]   # contract class 0..7
POSITIONS = ["1st (dealer's left)", "2nd", "3rd", "dealer"]
HCP_BUCKETS = [(0, 7), (8, 10), (11, 13), (14, 16), (17, 19), (20, 37)]
ODDS_BLOCK = 1 << 16      # deals per engine block: the odds of one hand
DEALS_BLOCK = 1 << 20     # random deals (auctions, hand classes)
MATCHES_BLOCK = 1 << 13   # whole matches


@dataclass(frozen=True)
class BoomkeRules:
    """Every variant flag of RULES.md 2.1 / 2.2 / section 5 with its default."""
    PREFIX = "boomke_wies"
    variant: str = flag("auction", ["auction", "no_auction"], help="rule 13: no_auction = classic whist, trumps turned up")
    dealer_may_bid_8_to_12: bool = flag(False, help="rule 6: after three passes the dealer may also bid 8-12")
    meetje_trump: str = flag("dealer_leads_trump", ["dealer_leads_trump", "dealer_names_then_eldest_leads"],
                             help="rule 8: how trumps are fixed in Meetje, and who leads")
    meetje_shortfall_penalty: bool = flag(False, help="2.2: in Meetje the dealer's team scores -(7-T) when T < 7")
    defence_scoring: str = flag("upto9_1_else_2", ["upto9_1_else_2", "literal_exactly9"],
                                help="2.2: defenders of a failed 7-9 score 1 (<= 9 tricks) or 2; literal: 1 only for exactly 9")
    shuffle: str = flag("full", ["full", "none_collect_tricks"],
                        help="rule 3: none_collect_tricks = the played tricks are gathered, cut and dealt")
    deal_packets: str = flag("4_4_5", ["4_4_5", "5_4_4"],
                             help="rule 3: packets (matter only without a shuffle; no_auction deals 4-4-4-1)")
    target_score: int | None = flag(None, rng=(1, 1000), help="rule 12: a match ends when a team reaches it (none = off)")
    tiebreak_extra_deal: bool = flag(True, help="rule 12: a match tied at the end gets one extra deal")
    match_deals: int = flag(16, rng=(1, 1000), help="rule 12: deals per match (without a target score)")


def rules_array(r: BoomkeRules) -> np.ndarray:
    a = np.zeros(K.N_RULES, np.int64)
    a[K.R_VARIANT] = ["auction", "no_auction"].index(r.variant)
    a[K.R_DEALER_8_12] = int(r.dealer_may_bid_8_to_12)
    a[K.R_MEETJE_TRUMP] = ["dealer_leads_trump", "dealer_names_then_eldest_leads"].index(r.meetje_trump)
    a[K.R_MEETJE_SHORTFALL] = int(r.meetje_shortfall_penalty)
    a[K.R_DEFENCE] = ["upto9_1_else_2", "literal_exactly9"].index(r.defence_scoring)
    a[K.R_SHUFFLE] = ["full", "none_collect_tricks"].index(r.shuffle)
    a[K.R_PACKETS] = ["4_4_5", "5_4_4"].index(r.deal_packets)
    a[K.R_TARGET] = 0 if r.target_score is None else int(r.target_score)
    a[K.R_TIEBREAK_EXTRA] = int(r.tiebreak_extra_deal)
    a[K.R_MATCH_DEALS] = int(r.match_deals)
    return a


def _family(margin=0.0, ace=1.0, king=0.75, queen=0.4, trump_len=0.75, short=0.2, partner=4.0, partner_passed=3.4,
            partner_bid=0.9, seven_margin=0.5, boom_margin=1.5, overcall_partner=0, draw_trumps=1, count=1, ruff=1):
    return declared(K.PARAMS, ["margin", "ace", "king", "queen", "trump_len", "short", "partner", "partner_passed",
                               "partner_bid", "seven_margin", "boom_margin", "overcall_partner", "draw_trumps",
                               "count", "ruff"],
                    margin=margin, ace=ace, king=king, queen=queen, trump_len=trump_len, short=short, partner=partner,
                    partner_passed=partner_passed, partner_bid=partner_bid, seven_margin=seven_margin,
                    boom_margin=boom_margin, overcall_partner=overcall_partner, draw_trumps=draw_trumps, count=count,
                    ruff=ruff)


REGISTRY = {
    "random": HeuristicDef("random", K.H_RANDOM,
                           declared(K.PARAMS, ["bid_prob"]),
                           "random-legal baseline: random calls, a uniformly random legal card (the opening lead too)",
                           deterministic=False),
    "partner": HeuristicDef("partner", K.H_PARTNER, _family(),
                            "partnership player: values its hand, credits partner by what partner's calls show, "
                            "opens its longest suit as trumps, draws trumps, second hand low, third hand high, never "
                            "overtakes a winning partner, ruffs cheaply, counts cards"),
    "naive": HeuristicDef("naive", K.H_NAIVE, _family(partner_passed=4.0, partner_bid=0.0, overcall_partner=1,
                                                      draw_trumps=0, count=0),
                          "the same valuation without memory and without partner inference: credits partner a fixed "
                          "4 tricks whatever he called, may overbid him, does not draw trumps, remembers no card"),
}
REGISTRY["pimc"] = HeuristicDef(
    "pimc", K.H_PIMC, {**_family(), **declared(K.PARAMS, ["worlds", "bid_worlds", "infer"])},
    "sampling player: each call and each card by sampling deals of the unseen cards consistent with the cards "
    "played, the voids shown and (infer=1) the calls heard, partner's included, under partner's bidding; every "
    "choice played out in each by partner's rules with its own parameters, scored by its side's net points "
    "(kernels/boomke_wies/pimc.py)")
ALIASES = {"default": "partner"}
PIMC_ONLY = "compare, trace and odds --play pimc"   # the studies that seat the sampling player
PIMC_COMPARE_HANDS = 4_000    # compare's default deals when an entrant is pimc (docs/methods/sampling.md)
PIMC_COMPARE_BLOCK = 250      # deals per engine block then
SAMPLING = Sampling(K.H_PIMC, PIMC_ONLY, PIMC_COMPARE_HANDS, PIMC_COMPARE_BLOCK, integers=("bid_worlds", "infer"))
has_pimc, compare_slow, no_pimc = SAMPLING.has, SAMPLING.compare_slow, SAMPLING.refuse


def pimc_arg(specs) -> tuple:
    """The kernels' optional ``pimc`` argument: ``(workspace,)`` when a seat is the sampling player, else ``()``
    (omitted: the kernel is compiled without the player)."""
    return (KP.workspace(),) if has_pimc(specs) else ()


def parse_hand(text: str) -> list[int]:
    return parse_cards(text, 13, RANKS, "Boomke Wies hand")


def parse_call(text) -> int:
    """'7'..'13', 'boom' (= 13) or 'meetje' -> the kernel's call code."""
    t = str(text).strip().lower()
    if t == "boom":
        return K.BOOM
    if t == "meetje":
        return K.MEETJE
    if t.isdigit() and 7 <= int(t) <= 13:
        return int(t)
    raise TricksimError(f"unknown call {text!r}: use a bid 7..13, 'boom' or 'meetje'")


def call_name(code: int) -> str:
    if code == K.MEETJE:
        return "Meetje"
    if code == K.BOOM:
        return "Boom"
    return str(code)


def score(contract: int, T: int, rules: BoomkeRules, O: int | None = None):
    """(declaring team's points, opponents' points, made) by the scoring table (rule 11)."""
    O = 13 - T if O is None else O
    return K.score_contract(contract, T, O, rules_array(rules))


def _trump(t: str) -> int:
    u = t.strip().upper()
    if u not in ("S", "H", "D", "C"):
        raise TricksimError(f"unknown trump {t!r}: Boomke Wies trumps are a suit (S, H, D or C), made by the first lead")
    return SUITS.index(u)


def _positions(seat):
    if seat is None:
        return [0, 1, 2, 3]
    if not 0 <= int(seat) <= 3:
        raise TricksimError(f"the seat must be 0..3 (0 = dealer's left, 3 = dealer), got {seat}")
    return [int(seat)]


def check_hands(hands: int) -> int:
    if hands < 1:
        raise TricksimError(f"the number of deals must be at least 1, got {hands}")
    return hands


def _hcp_bucket(h):
    for i, (lo, hi) in enumerate(HCP_BUCKETS):
        if lo <= h <= hi:
            return i
    return len(HCP_BUCKETS) - 1


def _bucket_name(i):
    lo, hi = HCP_BUCKETS[i]
    return f"{lo}-{hi}" if hi < 37 else f"{lo}+"
