"""``tricksim trace bourre -H pimc --explain`` (issue 27): the sampling player's reasons at each of its decisions.

The traced sessions are played again by ``trace_sessions`` given its ``xo`` argument (kernels/bourre/sessions.py),
exactly as the trace plays them (the same seeds, the same decision stream: each decision of the sampling player
seeds from the deal's decision stream without advancing it), with the player (kernels/bourre/pimc.py) writing, at
each of its decisions with two or more candidates, what it weighed (kernels/explain.py), so the best shown is what
it did (tests/test_trace_explain.py):

- **play/pass and the draw** (``pimc_decide``, ``decide`` >= 1): pass (unless it must play) and play discarding
  the weakest 0..limit cards (``decide`` = 2: every discard within the limit), each valued in the same deals of the
  cards it does not see (consistent with the earlier players' choices) by a playout of basic players, for the
  seat's chips from here; a pass is worth 0 (its ante is sunk);
- **cards** (``pimc_card``): the legal cards (rules 10, 11), each valued in the same layouts of the unseen cards
  (consistent with the play so far; with ``infer`` = 1 also with the declarations). ``eval`` = 1: the chips of the
  outcome the seat can force against all the others (the open-hand solver), plus 1/16 chip per trick it is sure of
  (the tie-break); ``eval`` = 0: the chips of a playout of basic players.

Each candidate: ``mean`` over the worlds with its 95% interval (Student's t over the worlds), the kernel's integer
``sum`` (twice the chips; cards under ``eval`` = 1: 16 x the value) and the worlds valued, fewer than ``worlds``
when the race stopped early. The best: the first candidate of the highest sum (the first is basic's own choice).
"""
from __future__ import annotations

import numpy as np

from ...kernels import bourre as K
from ...kernels import explain as KX
from ...kernels.bourre.pimc import X_DRAW_ROW
from ...kernels.bourre.players import P_EVAL
from ...kernels.cards import card_str, cards_of
from ..common import TricksimError
from ..explain import candidates, first_best, kernel_rows

X_ROWS = X_DRAW_ROW + K.MAXP          # a deal's rows: its cards (at most 40), then its declarations
DRAW_VALUE = ("the seat's chips from here (pass: 0, its ante sunk), the deal played out by basic players, "
              "per world")
PARANOID_VALUE = ("the chips of the outcome the seat can force whatever the others hold (the open-hand solver: "
                  "wins the pot, takes a trick or can be held to bourre), plus 1/16 chip per trick it is sure of, "
                  "per world")
ROLLOUT_VALUE = "the seat's chips, the deal played out by basic players, per world"


MAX_DEALS = 2_000                      # deals of a session explained (its rows: 63 kB a deal)


def check_deals(deals: int) -> None:
    """--explain holds the rows of every deal of a session in memory: at most ``MAX_DEALS`` deals a session."""
    if deals > MAX_DEALS:
        raise TricksimError(f"--explain keeps every decision of a session in memory: give --deals {MAX_DEALS:,} "
                            f"or fewer (more sessions instead), got {deals:,}")


def rows(sessions: int, deals: int) -> np.ndarray:
    """The ``xo`` argument of ``trace_sessions``: zeros, int64[sessions, deals, X_ROWS, X_LEN]."""
    return np.zeros((sessions, deals, X_ROWS, KX.X_LEN), np.int64)


def draw_label(play: bool, discard) -> str:
    """A declaration as ``explain`` names it: pass, or play discarding the cards named (or nothing)."""
    return f"play, discard {' '.join(discard)}" if play and discard else ("play, discard nothing" if play else "pass")


def explain_deal(d: dict, xd, prm) -> list[dict]:
    """The sampling seats' decisions in the traced deal ``d`` (a docs/trace.md dict) from its kernel rows ``xd``
    (``prm`` the seats' parameters): the declarations, then the cards, in the order they were made."""
    out = []
    rs = kernel_rows(xd)
    for r in [r for r in rs if r["kind"] == KX.KIND_DRAW] + [r for r in rs if r["kind"] == KX.KIND_CARD]:
        if r["kind"] == KX.KIND_DRAW:
            labels = [draw_label(c >= 0, [card_str(x) for x in sorted(cards_of(c))] if c >= 0 else [])
                      for c in r["cand"]]
            dec = d["decisions"][r["row"] - X_DRAW_ROW]
            x = {"kind": "draw", "seat": r["seat"], "worlds": r["worlds"],
                 "candidates": candidates(r, labels, 0.5)}
            played, value = draw_label(dec["play"], dec["discard"]), DRAW_VALUE
        else:
            i, na = r["row"], len(d["tricks"][0]["cards"])
            labels = [card_str(c) for c in r["cand"]]
            paranoid = prm[r["seat"], P_EVAL] > 0.5
            x = {"kind": "card", "seat": r["seat"], "trick": i // na + 1, "worlds": r["worlds"],
                 "candidates": candidates(r, labels, 1 / 16, "sure_tricks") if paranoid
                 else candidates(r, labels, 0.5)}
            played, value = d["tricks"][i // na]["cards"][i % na], PARANOID_VALUE if paranoid else ROLLOUT_VALUE
        best = labels[first_best(r["sum"])]
        if x["kind"] == "draw" and _kept_cards(d, dec) and best != "pass":
            x["alone"] = True         # it played alone and kept its cards (rule 6): the trace shows no discard
            played = best
        x.update({"best": best, "played": played, "value": value})
        out.append(x)
    return out


def _kept_cards(d: dict, dec: dict) -> bool:
    """Did the seat of declaration ``dec`` play alone and so keep its cards (rule 6: no draw)? In the default order
    the dealer, when nobody before him played; under declare_then_draw, whoever plays alone."""
    return dec["play"] and d["outcome"] == "lone" and (d["rules"]["declare_then_draw"] or dec["seat"] == d["dealer"])
