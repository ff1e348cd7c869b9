"""``tricksim trace boomke-wies -H pimc --explain`` (issue 27): the sampling player's reasons at each of its decisions.

The traced deals are played again by ``trace_deals`` (kernels/boomke_wies/deals.py) given its optional argument
``xo``, exactly as the trace plays them (the same kernel, seeds and decision stream), with the sampling player
(kernels/boomke_wies/pimc.py) writing, at
each of its decisions with two or more candidates, what it weighed (kernels/explain.py), so the best shown is the call
or card it made (tests/test_trace_explain.py):

- **calls** (``pimc_call``): pass, the lowest legal bid and the two above it (up to 12), Boom; the dealer forced
  after three passes: 7 (8 and 9 too under ``dealer_may_bid_8_to_12``), Boom, Meetje. In each of ``bid_worlds``
  deals of the unseen cards the call is made, the rest of the auction by the model and the tricks played out by
  partner's rules in every seat;
- **cards** (``pimc_card``): the legal cards, each played out in each of ``worlds`` layouts of the unseen cards
  that respect the voids shown.

A candidate is worth, per world, the net points of the seat's side (rule 11; in the no-auction variant its tricks
minus theirs): ``mean`` over the worlds with its 95% interval (Student's t over the worlds), the side's mean tricks
(the tie-break), and the worlds valued. The best: the highest sum, then the most tricks, ties to the earlier.
"""
from __future__ import annotations

import numpy as np

from ...kernels import boomke_wies as K
from ...kernels import explain as KX
from ...kernels.boomke_wies.pimc import X_CALL_ROW, X_ROWS
from ...kernels.cards import card_str
from ..explain import candidates, first_best, kernel_rows

CHUNK = 500             # hands played again at once (their rows of reasons: 89 kB a hand; hands are independent)
CALL_VALUE = ("the net points of the seat's side, the call made, the rest of the auction by the model and the tricks "
              "by partner's rules in every seat, per world")
CARD_VALUE = "the net points of the seat's side, the deal played out by partner's rules in every seat, per world"


def reason_rows(n: int) -> np.ndarray:
    """``trace_deals``' optional argument ``xo`` for ``n`` deals: int64[n, X_ROWS, X_LEN] zeros (a deal's 52 cards,
    then its calls), which the sampling player fills with its reasons."""
    return np.zeros((n, X_ROWS, KX.X_LEN), np.int64)


def call_label(b) -> str:
    """A call as ``explain`` names it: pass, 7..12, boom, meetje (the trace's ``bid``: null, 7..13, "meetje")."""
    if b is None or b == K.PASS:
        return "pass"
    if b in ("meetje", K.MEETJE):
        return "meetje"
    return "boom" if b == K.BOOM else str(b)


def explain_deal(d: dict, xd) -> list[dict]:
    """The sampling seats' decisions in the traced deal ``d`` (a docs/trace.md dict) from its kernel rows ``xd``:
    the calls, then the cards, in the order they were made."""
    out = []
    rows = kernel_rows(xd)
    for r in [r for r in rows if r["kind"] == KX.KIND_CALL] + [r for r in rows if r["kind"] == KX.KIND_CARD]:
        if r["kind"] == KX.KIND_CALL:
            labels = [call_label(c) for c in r["cand"]]
            x = {"kind": "call", "seat": r["seat"], "worlds": r["worlds"]}
            played, value = call_label(d["bids"][r["row"] - X_CALL_ROW]["bid"]), CALL_VALUE
        else:
            i = r["row"]
            labels = [card_str(c) for c in r["cand"]]
            x = {"kind": "card", "seat": r["seat"], "trick": i // 4 + 1, "worlds": r["worlds"]}
            played, value = d["tricks"][i // 4]["cards"][i % 4], CARD_VALUE
        best = first_best(list(zip(r["sum"], r["aux"])))
        x.update({"candidates": candidates(r, labels, 1.0, "tricks"), "best": labels[best], "played": played,
                  "value": value})
        out.append(x)
    return out

