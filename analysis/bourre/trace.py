"""Bourre traces (docs/trace.md): the deals of sessions exactly as ``pot`` plays them."""
from __future__ import annotations

from ...kernels import bourre as K
from ...kernels.cards import SUITS, card_str, cards_of
from ..common import TricksimError, rules_dict
from ..explain import need_sampling_seat
from . import trace_explain as TX
from .config import KEY, BourreRules, has_pimc, pimc_arg, rules_array
from .ev import ev_tables
from .pot import check_sessions
from .spec import SPEC

OUTCOMES = ["winner", "tie", "lone", "all_pass"]


def _cards(mask):
    return [card_str(c) for c in sorted(cards_of(int(mask)))]


def _seats(mask, n):
    return [s for s in range(n) if (int(mask) >> s) & 1]


def record_to_dict(rec, seed, deals, rules, specs, with_legal=False, rules_d=None):
    """One docs/trace.md line from a kernel deal record."""
    rec = rec.tolist() if hasattr(rec, "tolist") else [int(x) for x in rec]
    n = rec[K.REC_N]
    sess, j = rec[K.REC_SESSION], rec[K.REC_DEAL_IDX]
    inm = rec[K.REC_INMASK]
    trump = rec[K.REC_TRUMP]
    up = rec[K.REC_UPCARD]
    d = {"game": KEY, "seed": seed, "hand_index": sess * deals + j, "session": sess, "deal_in_session": j,
         "players": n, "rules": dict(rules_d) if rules_d is not None else rules_dict(rules),
         "heuristics": [s.label for s in specs],
         "dealer": rec[K.REC_DEALER], "in_deal": _seats(inm, n), "exempt": _seats(rec[K.REC_EXEMPT], n),
         "pot_before": rec[K.REC_POT_BEFORE], "ante": rec[K.REC_ANTE_AMT],
         "antes": [rec[K.REC_ANTES + s] for s in range(n)], "overflow": bool(rec[K.REC_OVERFLOW])}
    if rec[K.REC_OVERFLOW] and up == 0 and rec[K.REC_NDEC] == 0:
        return d
    d.update({
        "deal": [_cards(rec[K.REC_DEAL + s]) for s in range(n)],
        "trump_card": card_str(up), "trump": "NT" if trump < 0 else SUITS[trump], "lo_no": bool(rec[K.REC_LONO]),
        "decisions": [{"seat": rec[K.REC_DEC + 4 * i], "play": bool(rec[K.REC_DEC + 4 * i + 1]),
                       "discard": _cards(rec[K.REC_DEC + 4 * i + 2]), "drawn": _cards(rec[K.REC_DEC + 4 * i + 3])}
                      for i in range(rec[K.REC_NDEC])],
        "second_antes": [rec[K.REC_ANTE2 + s] for s in range(n)],
        "reshuffles": rec[K.REC_NRESHUF], "up_card_out": bool(rec[K.REC_UP_OUT]),
        "pot": rec[K.REC_POT_STAKE],
        "hands": [_cards(rec[K.REC_HANDS + s]) for s in range(n)],
    })
    na = rec[K.REC_NACTIVE]
    tricks, legal, cinch = [], [], []
    for t in range(rec[K.REC_NTRICKS]):
        b = K.REC_TRICKS + 10 * t
        tricks.append({"leader": rec[b], "cards": [card_str(c) for c in rec[b + 1:b + 1 + na]], "winner": rec[b + 9]})
        legal.append([_cards(rec[K.REC_LEGAL + na * t + q]) for q in range(na)])
        cinch.append([bool(rec[K.REC_CINCH + na * t + q]) for q in range(na)])
    d.update({
        "tricks": tricks, "tricks_won": [rec[K.REC_WON + s] for s in range(n)],
        "outcome": OUTCOMES[rec[K.REC_OUTCOME]], "winner": rec[K.REC_WINNER] if rec[K.REC_WINNER] >= 0 else None,
        "tied": _seats(rec[K.REC_TIED], n), "bourre": _seats(rec[K.REC_BOURRE], n),
        "pot_won": [rec[K.REC_POT_WON + s] for s in range(n)], "bourre_paid": [rec[K.REC_BPAID + s] for s in range(n)],
        "pot_after": rec[K.REC_POT_AFTER], "score_delta": [rec[K.REC_SCORE + s] for s in range(n)],
    })
    if with_legal:
        d["legal"] = legal
        d["cinch"] = cinch
    return d


def trace(seed: int = 0, players: int = 7, sessions: int = 1, deals: int = 10, rules=None, heuristics=None,
          first: int = 0, with_legal: bool = False, explain: bool = False) -> list[dict]:
    """Deals of sessions first..first+sessions-1, exactly as ``pot`` plays them (one dict per deal;
    a session stops after an overflowed deal); ``explain`` (a seat must be the sampling player): each with its
    field ``explain`` (analysis/bourre/trace_explain.py), from the same sessions played again with the player
    writing its reasons."""
    players = SPEC.check_players(players)
    rules = rules or BourreRules()
    check_sessions(sessions, deals)
    if first < 0:
        raise TricksimError(f"the first session's index must be at least 0, got {first}")
    specs = SPEC.parse_seats(heuristics, players)
    found = has_pimc(specs)             # refuses a non-integer worlds
    if explain:
        need_sampling_seat(found)
        TX.check_deals(deals)
    kd, kc = SPEC.keys(seed)
    codes, prm = SPEC.heuristic_arrays(specs)
    args = (players, deals, rules_array(rules), codes, prm, ev_tables(specs, rules, players), *pimc_arg(specs))
    rd = rules_dict(rules)          # once, copied into each line
    out = []
    # explained: one session at a time (its rows of reasons are held in memory; a session does not depend on another)
    for f, n in ([(first + i, 1) for i in range(sessions)] if explain else [(first, sessions)]):
        xo = (TX.rows(n, deals),) if explain else ()
        recs, srows = K.trace_sessions(kd, kc, f, n, *args, *xo)
        for i in range(n):
            played = int(srows[i, K.S_DEALS]) + int(srows[i, K.S_OVF])
            for j in range(played):
                d = record_to_dict(recs[i, j], seed, deals, rules, specs, with_legal, rd)
                out.append(d | {"explain": TX.explain_deal(d, xo[0][i, j], prm)} if explain else d)
    return out
