"""The pot's long-run law (issue 15): between two wins the pot follows P' = A.P + B; ``expected_a`` measures
E[A] from the pot study's rates, ``mean_status`` says whether the pot's long-run mean exists (from the tail
study's exponent k when there is one, else from E[A])."""
from __future__ import annotations

from .tail_views import fmt_k


def expected_a(res):
    """(E[A], its 95% half-width, the parts) of the pot study: between two wins the pot follows
    P' = A.P + B (issue 15): A = the bourre payments that equal the pot, plus one when a tie (or an
    all-pass) carries the pot over; B = the antes.  E[A] per deal = bourre players per deal
    (pot-sized penalty) + the carry-over rate, from the study's own rates, with the sum of their
    95% half-widths."""
    rules = res["rules"]
    m, half, _ = res["bourre_mean"]
    o = res["outcomes"]
    ea, ehalf, parts = 0.0, 0.0, []
    if rules.penalty_chips < 0:
        ea, ehalf = m, half
        parts.append(f"{m:.3f} bourre payments")
    carry = [1, 3] if rules.tie != "divide_equally" else [3]      # tie, everyone passed
    for i in carry:
        r = o.iloc[i]
        ea += r.p
        ehalf += max(r.p - r.ci_low, r.ci_high - r.p)
    parts.append(f"a {100 * sum(o.iloc[i].p for i in carry):.1f}% carry-over rate")
    return ea, ehalf, parts


def mean_status(res):
    """Does the pot's long-run mean exist?  Under P' = A.P + B with P(A = 0) > 0, E[A^k] is convex in
    k with E[A^0] = P(A > 0) < 1 and E[A^1] = E[A]: E[A] >= 1 exactly when the tail exponent k <= 1,
    i.e. when the pot's mean (and every seat's mean net) is infinite in the long run; a Monte Carlo
    average then never converges.  With the tail study (``res["tail"]``) its k and interval decide;
    else E[A] and its interval.  Returns (status, why): status "infinite" (k <= 1 for sure),
    "maybe" (the interval reaches k <= 1), "finite", "capped" (a pot limit cuts the law off)."""
    rules = res["rules"]
    if rules.pot_limit:
        return "capped", (f"a pot limit of {rules.pot_limit:,} chips stops the pot from multiplying, so its mean "
                          "is finite")
    tr = res.get("tail")
    if tr is not None:
        kr = tr["k"].iloc[0]
        if kr["case"] == "power":
            ko = tr.get("k_overall") or {"low": kr["k_low"], "high": kr["k_high"]}
            k, lo, hi = kr["k"], ko["low"], ko["high"]
            ktxt = f"k = {fmt_k(k, lo, hi)}"
            if (hi if hi == hi else k) <= 1:
                return "infinite", f"{ktxt} <= 1"
            if (lo if lo == lo else k) <= 1:
                return "maybe", f"{ktxt} reaches 1"
            return "finite", f"{ktxt} > 1"
        if kr["case"] in ("light", "empty", "few"):
            return "finite", "no deal multiplied the pot" if kr["case"] == "light" else "too few deals to tell"
        return "infinite", "the pot never resets"
    ea, ehalf, _ = expected_a(res)
    etxt = f"E[A] = {ea:.3f} ± {ehalf:.3f}"
    if ea - ehalf >= 1:
        return "infinite", f"{etxt} >= 1, so the tail exponent k <= 1"
    if ea + ehalf >= 1:
        return "maybe", f"{etxt} reaches 1, so the tail exponent k may be <= 1"
    return "finite", f"{etxt} < 1, so the tail exponent k > 1"
