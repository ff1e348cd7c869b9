"""Boomke Wies traces (docs/trace.md): deals exactly as the kernels played them."""
from __future__ import annotations

from ...kernels import boomke_wies as K
from ...kernels.cards import SUITS, card_str, cards_of
from ..common import TricksimError, make_params, rules_dict
from ..explain import need_sampling_seat
from . import trace_explain as TX
from .config import KEY, BoomkeRules, check_hands, has_pimc, pimc_arg
from .spec import SPEC


def _cards(mask):
    return [card_str(c) for c in sorted(cards_of(int(mask) & ((1 << 64) - 1)))]


def record_to_dict(rec, seed, index, rules, specs, with_legal=False, rules_d=None):
    """One docs/trace.md line from a kernel hand record."""
    rec = rec.tolist() if hasattr(rec, "tolist") else [int(x) for x in rec]
    hands = [_cards(rec[K.REC_HANDS + s]) for s in range(4)]
    nb = rec[K.REC_NBIDS]
    bids = []
    for i in range(nb):
        b = rec[K.REC_BIDS + 2 * i + 1]
        bids.append({"seat": rec[K.REC_BIDS + 2 * i],
                     "bid": None if b == K.PASS else ("meetje" if b == K.MEETJE else b)})
    tricks, legal = [], []
    for t in range(rec[K.REC_NTRICKS]):
        b = K.REC_TRICKS + 6 * t
        tricks.append({"leader": rec[b], "cards": [card_str(c) for c in rec[b + 1:b + 5]], "winner": rec[b + 5]})
        legal.append([_cards(rec[K.REC_LEGAL + 4 * t + k]) for k in range(4)])
    no_auction = rules.variant == "no_auction"
    decl = rec[K.REC_DECL]
    contract = rec[K.REC_CONTRACT]
    d = {
        "game": KEY, "seed": seed, "hand_index": index,
        "rules": dict(rules_d) if rules_d is not None else rules_dict(rules),
        "heuristics": [s.label for s in specs], "dealer": rec[K.REC_DEALER],
        "deal": hands, "teams": [[0, 2], [1, 3]], "bids": bids,
        "bidder": None if no_auction else decl,
        "contract": None if no_auction else ("meetje" if contract == K.MEETJE else contract),
        "trump": SUITS[rec[K.REC_TRUMP]],
        "first_leader": rec[K.REC_LEADER0],
        "hands": hands, "tricks": tricks,
        "tricks_won": [rec[K.REC_WON + s] for s in range(4)],
        "team_tricks": [rec[K.REC_TEAM], rec[K.REC_TEAM + 1]],
        "made": None if no_auction else bool(rec[K.REC_MADE]),
        "score_delta": [rec[K.REC_SCORE + s] for s in range(4)],
        "stopped_early": rec[K.REC_NTRICKS] < 13,
    }
    if no_auction:
        d["turn_up"] = card_str(rec[K.REC_TURNUP])
    if rules.shuffle == "none_collect_tricks":
        d["pile"] = [card_str(c) for c in rec[K.REC_PILE:K.REC_PILE + 52]]
        d["cut"] = rec[K.REC_CUT]
    if with_legal:
        d["legal"] = legal
    return d


def trace(seed: int = 0, hands: int = 10, rules: BoomkeRules | None = None, heuristics=None,
          first: int = 0, with_legal: bool = False, explain: bool = False) -> list[dict]:
    """Hands ``first..first+hands-1`` of the deal studies with this seed, as docs/trace.md dicts; ``explain``
    (a seat must be the sampling player): each with its field ``explain`` (analysis/boomke_wies/trace_explain.py),
    from the same deals played again (``trace_deals`` given ``xo``) with the player writing its reasons."""
    rules = rules or BoomkeRules()
    specs = SPEC.parse_seats(heuristics)
    check_hands(hands)
    if first < 0:
        raise TricksimError(f"the first deal's index must be at least 0, got {first}")
    kd, kc, ra, codes, prm = SPEC.kernel_args(make_params(seed, rules, specs))
    rd = rules_dict(rules)          # once, copied into each line
    if explain:
        need_sampling_seat(has_pimc(specs))
        out = []
        for f in range(first, first + hands, TX.CHUNK):        # the rows of reasons of CHUNK hands at a time
            n = min(TX.CHUNK, first + hands - f)
            xo = TX.reason_rows(n)
            recs = K.trace_deals(kd, kc, f, n, ra, codes, prm, *pimc_arg(specs), xo)
            for i in range(n):
                d = record_to_dict(recs[i], seed, f + i, rules, specs, with_legal, rd)
                out.append(d | {"explain": TX.explain_deal(d, xo[i])})
        return out
    recs = K.trace_deals(kd, kc, first, hands, ra, codes, prm, *pimc_arg(specs))
    return [record_to_dict(recs[i], seed, first + i, rules, specs, with_legal, rd) for i in range(hands)]
