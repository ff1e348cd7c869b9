"""Boulmous traces (docs/trace.md): hands and whole games exactly as the kernels played them."""
from __future__ import annotations

from ...kernels import boulmous as K
from ...kernels.cards import card_str, cards_of
from ..common import make_params, rules_dict
from .config import KEY, TRUMP_NAMES, BoulmousRules, check_hands, has_pimc, no_pimc, pimc_key, score_aware
from .spec import SPEC

_NAME = {c: card_str(c) for c in (16 * s + r for s in range(4) for r in range(13))}   # card_str, looked up


def record_to_dict(rec, seed, index, rules, specs, with_legal=False, rules_d=None):
    """One docs/trace.md line from a kernel hand record (``rules_d``: ``rules_dict(rules)``, when the caller made it
    once for many records; each line gets its own copy)."""
    rec = rec.tolist() if hasattr(rec, "tolist") else [int(x) for x in rec]
    taker = rec[K.REC_TAKER]
    hands = [sorted(cards_of(rec[K.REC_HANDS + s])) for s in range(4)]
    nb = rec[K.REC_NBIDS]
    bids = [{"seat": rec[K.REC_BIDS + 2 * i], "bid": rec[K.REC_BIDS + 2 * i + 1] or None} for i in range(nb)]
    tricks = []
    legal = []
    for t in range(rec[K.REC_NTRICKS]):
        b = K.REC_TRICKS + 6 * t
        tricks.append({"leader": rec[b], "cards": [_NAME[c] for c in rec[b + 1:b + 5]], "winner": rec[b + 5]})
        legal.append([[_NAME[c] for c in sorted(cards_of(rec[K.REC_LEGAL + 4 * t + k]))] for k in range(4)])
    made = rec[K.REC_MADE]
    d = {
        "game": KEY, "seed": seed, "hand_index": index,
        "rules": dict(rules_d) if rules_d is not None else rules_dict(rules),
        "heuristics": [s.label for s in specs], "dealer": rec[K.REC_DEALER],
        "deal": [[_NAME[c] for c in h] for h in hands], "bids": bids,
        "taker": taker if taker >= 0 else None, "contract": rec[K.REC_CONTRACT] if taker >= 0 else None,
        "trump": TRUMP_NAMES[rec[K.REC_TRUMP]] if taker >= 0 else None,
        "hands": [[_NAME[c] for c in h] for h in hands], "tricks": tricks,
        "tricks_won": [rec[K.REC_WON + s] for s in range(4)],
        "made": None if made < 0 else bool(made),
        "score_delta": [rec[K.REC_SCORE + s] for s in range(4)],
        "stakes_delta": [rec[K.REC_STAKES + s] for s in range(4)],
    }
    if with_legal:
        d["legal"] = legal
    return d


def trace(seed: int = 0, hands: int = 10, rules: BoulmousRules | None = None, heuristics=None,
          first: int = 0, with_legal: bool = False) -> list[dict]:
    """Hands ``first..first+hands-1`` of the run with this seed, as docs/trace.md dicts."""
    rules = rules or BoulmousRules()
    specs = SPEC.parse_seats(heuristics)
    score_aware(specs, "trace")
    check_hands(hands)
    params = make_params(seed, rules, specs)
    kd, kc, ra, codes, prm = SPEC.kernel_args(params)
    if has_pimc(specs):     # the sampling player beside the heuristics (kernels/boulmous/play.py ``pimc``)
        recs = K.trace_deals(kd, kc, first, hands, ra, codes, prm, pimc_key(seed))
    else:
        recs = K.trace_deals(kd, kc, first, hands, ra, codes, prm)
    rd = rules_dict(rules)
    return [record_to_dict(recs[i], seed, first + i, rules, specs, with_legal, rd) for i in range(hands)]


def trace_games(seed: int = 0, games: int = 1, rules: BoulmousRules | None = None, heuristics=None,
                first: int = 0) -> list[dict]:
    """Whole games ``first..first+games-1`` exactly as ``game_stakes`` plays them: one
    docs/trace.md dict per deal, plus ``game_index``, ``deal_in_game``, ``scores_after``,
    ``boxes_after`` and, on a game's last deal, ``winners`` and ``game_stakes`` (the
    money of the whole game, settlement included)."""
    rules = rules or BoulmousRules()
    specs = no_pimc(SPEC.parse_seats(heuristics), "trace of whole games")
    params = make_params(seed, rules, specs)
    kd, kc, ra, codes, prm = SPEC.kernel_args(params)
    rd = rules_dict(rules)
    out = []
    for g in range(first, first + games):
        log, winners = K.trace_game(kd, kc, g, ra, codes, prm)
        for j in range(log.shape[0]):
            d = record_to_dict(log[j, :K.REC_LEN], seed, j, rules, specs, rules_d=rd)
            d["game_index"] = g
            d["deal_in_game"] = j
            d["scores_after"] = [int(x) for x in log[j, K.LOG_SCORES:K.LOG_SCORES + 4]]
            d["boxes_after"] = [int(x) for x in log[j, K.LOG_BOXES:K.LOG_BOXES + 4]]
            if j == log.shape[0] - 1:
                d["winners"] = [s for s in range(4) if (int(winners) >> s) & 1]
                d["game_stakes"] = [int(x) for x in log[j, K.LOG_STAKES:K.LOG_STAKES + 4]]
            out.append(d)
    return out
