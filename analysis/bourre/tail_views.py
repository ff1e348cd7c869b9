"""The tail law's words, tables, plot and files (``tricksim pot --tail`` and the headline report)."""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from ..output import plain_table, write_table
from .bins import _pct
from .plots import plot_tail
from .tail import FEW_ROOTS, MIN_BAND_DEALS


def _p(p, lo, hi) -> str:
    """A probability with its interval, in % above 0.01%, else as '1 in N'."""
    if not p == p:
        return "-"
    if p >= 1e-4 or p == 0:
        d = 2 if p >= 1e-3 or p == 0 else 4
        return _pct(p, lo, hi, d)
    return f"{p:.2e} [{lo:.1e}, {hi:.1e}]"


def local_slopes(rare) -> list[dict]:
    """Between consecutive targets X1 < X2 with splitting estimates > 0, each reached by at least
    FEW_ROOTS roots (fewer are too few to trust): the log-log slope
    ln(p1 / p2) / ln(X2 / X1) of the largest pot's survival, with a delta-method 95% interval
    (the two estimates' relative errors combined; their roots are the same, so this is rough)."""
    t = rare["table"]
    out = []
    for (_, a), (_, b) in zip(t.iterrows(), t.iloc[1:].iterrows()):
        if a.p_split > 0 and b.p_split > 0 and min(a.roots_reaching, b.roots_reaching) >= FEW_ROOTS:
            s = math.log(a.p_split / b.p_split) / math.log(b["X (x ante)"] / a["X (x ante)"])
            ra = (a.hi_split - a.lo_split) / 2 / a.p_split
            rb = (b.hi_split - b.lo_split) / 2 / b.p_split
            half = math.hypot(ra, rb) / math.log(b["X (x ante)"] / a["X (x ante)"])
            out.append({"from": int(a["X (x ante)"]), "to": int(b["X (x ante)"]), "slope": s, "half": half,
                        "saturated": a.p_split > 0.5})
    return out


def survival_slope(surv: pd.DataFrame, unit: int):
    """Least-squares slope of ln P(pot after a deal > x) on ln x over the bins with 0.2% >= P and
    at least 30 deals above x: (slope, x from, x to, bins) or None."""
    s = surv[(surv.p <= 0.002) & (surv["count"] >= 30) & (surv.x >= 10 * unit)]
    if len(s) < 3:
        return None
    lx, lp = np.log(s.x_hi.to_numpy(float)), np.log(s.p.to_numpy(float))
    slope = float(np.polyfit(lx, lp, 1)[0])
    return slope, int(s.x_hi.iloc[0]), int(s.x_hi.iloc[-1]), len(s)


def tail_words(res) -> list[str]:
    """The tail law's findings in sentences."""
    kr = res["k"].iloc[0]
    rules = res["rules"]
    unit = max(res["ante"], 1)
    k, lo, hi = kr["k"], kr["k_low"], kr["k_high"]
    w = [f"Tail law (P' = A.P + B between wins; {kr['n']:,} deals of {res['sessions']:,} sessions): a deal resets the "
         f"pot (A = 0) {100 * kr['P(A=0)']:.1f}% of the time and multiplies it by 2 or more (A >= 2) "
         f"{100 * kr['P(A>=2)']:.2f}% of the time; E[A] = {kr['E[A]']:.3f}."]
    if kr["case"] == "light":
        w.append("No heavy tail: no deal multiplied the pot by 2 or more (A never passed 1: no pot-sized bourre), "
                 "so between wins the pot only gathers antes and its tail falls off exponentially, not as a power.")
    elif kr["case"] == "no_reset":
        w.append("The pot never resets (no deal ended with A = 0): it keeps what it has and no stationary law exists; "
                 "it grows for the whole session.")
    elif kr["case"] == "power":
        ko = res.get("k_overall") or {"low": lo, "high": hi}
        olo, ohi = ko["low"], ko["high"]
        heavy = (ohi if ohi == ohi else k)
        grow = ("its tail is so heavy that its mean is infinite (k <= 1): averages of the pot or of the seats' net "
                "winnings do not converge" if heavy <= 1
                else "its mean may be infinite (the interval of k reaches 1): averages of the pot or of the seats' net "
                     "winnings may not converge" if (olo if olo == olo else k) <= 1
                else "its mean is finite but its spread is infinite (1 < k < 2)" if heavy < 2
                else "its tail is a power law: every 10x larger pot is 10^k times rarer")
        w.append(f"E[A^k] = 1 at k = {fmt_k(k, lo, hi)} pooled over every deal (95%, delta method over "
                 f"sessions){kesten_note(rules)}: the law predicts P(pot > x) ~ C x^-{k:.2f}; {grow}.")
        w.append(band_words(res))
        bands = res["k"].iloc[1:]
        bands = bands[bands.case == "power"]
        ss = survival_slope(res["survival"], unit)
        if ss:
            s, x0, x1, nb = ss
            rel = abs(-s - k) / k
            why = ("the law is asymptotic and at these sizes the antes B are still a large part of the pot"
                   + ("; the players' decisions also depend on the pot, so A is not the same at every size"
                      if len(bands) > 1 and bands.k_low.max() > bands.k_high.min() else ""))
            w.append(f"The simulated pot after a deal falls with slope {s:.2f} between {x0:,} and {x1:,} chips "
                     f"(least squares over {nb} log bins) against -{k:.2f} from the law: "
                     + ("they agree (within 10%)." if rel <= 0.1 else f"they differ by {100 * rel:.0f}% ({why})."))
        for sl in local_slopes(res["rare"]):
            w.append(f"The session's largest pot (splitting) falls with slope -{sl['slope']:.2f} ± {sl['half']:.2f} "
                     f"from {sl['from']:,}x to {sl['to']:,}x the ante against -{k:.2f} from the law"
                     + (f" (most sessions pass {sl['from']:,}x: there the session's length, not the law, shapes the "
                        "curve)." if sl["saturated"] else "."))
    if rules.pot_limit:
        w.append(f"A pot limit of {rules.pot_limit:,} chips cuts the law off: past it a winner takes {rules.pot_limit:,} "
                 "and a bourre pays at most that, so the pot grows by a fixed amount per bourre, not by a factor, and "
                 "the curve falls away from the power law above about the limit.")
    surv = res["survival"]
    if len(surv):
        w.append(f"The finite sample cuts the simulated curve off at {int(surv.x_hi.iloc[-1]):,} chips (the largest "
                 f"pot of {kr['n']:,} deals); the {res['deals_per_session']}-deal session bounds how long a run of "
                 "bourres can last, and the splitting estimates follow the tail where plain sampling sees nothing.")
    return w


def fmt_k(k, lo=math.nan, hi=math.nan) -> str:
    """k [low, high] with 2 decimals, more (up to 5) when the interval would print with zero width."""
    if k != k:
        return "-"
    if lo != lo or hi != hi:
        return f"{k:.2f}"
    d = 2
    while d < 5 and hi > lo and f"{lo:.{d}f}" == f"{hi:.{d}f}":
        d += 1
    return f"{k:.{d}f} [{lo:.{d}f}, {hi:.{d}f}]"


def kesten_note(rules) -> str:
    """Beside k when the deals' multipliers are serially dependent."""
    if getattr(rules, "tie", None) == "tied_only_next_hand":
        return (" (tie=tied_only_next_hand: a tie is followed by a deal only the tied players play, so the per-deal "
                "multipliers are serially dependent and E[A^k] = 1 is not exactly the Kesten equation; k is an "
                "approximation)")
    return ""


def _band_name(name: str) -> str:
    return name.replace("pot carried in ", "pots carried in at ")


def band_words(res) -> str:
    """k per pot band with each band's n, the band that governs the tail, and the interval that
    includes the spread between bands."""
    kdf = res["k"]
    ko = res["k_overall"]
    parts = []
    for _, r in kdf.iloc[1:].iterrows():
        if r.case == "power":
            parts.append(f"{fmt_k(r.k, r.k_low, r.k_high)} for {_band_name(r.deals)} ({r.n:,} deals)")
        elif r.case == "few":
            parts.append(f"no estimate for {_band_name(r.deals)} (only {r.n:,} deals, under {MIN_BAND_DEALS})")
        elif r.case == "light":
            parts.append(f"no power tail for {_band_name(r.deals)} ({r.n:,} deals, no A >= 2)")
        else:
            parts.append(f"none for {_band_name(r.deals)} ({r.n:,} deals)")
    gov = (f"The largest pots follow the band of {_band_name(ko['governing'])}, with {ko['governing_n']:,} deals: "
           + (f"k = {ko['governing_k']:.2f} there." if ko["governing_k"] == ko["governing_k"] else
              "too few for an estimate, so the pooled k is an extrapolation there."))
    overall = (f"With the spread between bands, k = {fmt_k(kdf.iloc[0].k, ko['low'], ko['high'])} (the pooled interval "
               f"joined with the estimates of the {ko['bands_used']} band(s) with at least {MIN_BAND_DEALS} deals)."
               if ko["bands_used"] else "")
    pw = kdf.iloc[1:]
    pw = pw[(pw.case == "power") & (pw.k_low == pw.k_low)]
    agree = len(pw) < 2 or pw.k_low.max() <= pw.k_high.min()
    head = ("k per pot band (the bands agree): " if agree else
            "A depends on the pot (the players weigh it), so k differs between pot bands: ")
    return head + "; ".join(parts) + ". " + gov + (
        " " + overall if overall else "")


def rare_table(rare) -> pd.DataFrame:
    t = rare["table"]
    return pd.DataFrame({
        "pot passes": [f"{x:,}x ante ({c:,} chips)" for x, c in zip(t["X (x ante)"], t.chips)],
        "splitting [95% CI]": [_p(a, b, c) for a, b, c in zip(t.p_split, t.lo_split, t.hi_split)],
        "roots reaching": [f"{r:,}" + (" (too few to trust)" if r < FEW_ROOTS else "") for r in t.roots_reaching],
        "plain sampling [95% CI]": [_p(a, b, c) for a, b, c in zip(t.p_plain, t.lo_plain, t.hi_plain)],
        "plain hits": t.plain_hits,
        "intervals overlap": t.overlap.map({True: "yes", False: "NO"})})


def ab_table(res) -> pd.DataFrame:
    ab = res["ab"]
    return pd.DataFrame({"A (pot multiplied by)": ab.A,
                         "share of deals [95% CI]": [_pct(a, b, c, 3) for a, b, c in zip(ab.p, ab.ci_low, ab.ci_high)],
                         "deals": ab.deals.map(lambda x: f"{x:,}"),
                         "mean B (chips)": ab.mean_B.map(lambda x: "-" if x != x else f"{x:.2f}")})


def k_table(res) -> pd.DataFrame:
    k = res["k"]

    def cell(r):
        if r.case == "power":
            return fmt_k(r.k, r.k_low, r.k_high)
        return {"light": "none (no A >= 2)", "no_reset": "none (never resets)", "empty": "-",
                "few": "- (too few deals)"}[r.case]
    t = pd.DataFrame({"deals": k.deals.replace({"every deal": "every deal (pooled)"}), "n": k.n.map(lambda x: f"{x:,}"),
                      "P(A=0)": k["P(A=0)"].map(lambda x: "-" if x != x else f"{x:.4f}"),
                      "P(A>=2)": k["P(A>=2)"].map(lambda x: "-" if x != x else f"{x:.4f}"),
                      "E[A]": k["E[A]"].map(lambda x: "-" if x != x else f"{x:.3f}"),
                      "tail exponent k [95% CI]": [cell(r) for _, r in k.iterrows()]})
    ko = res.get("k_overall")
    if ko and ko["bands_used"] and k.iloc[0].case == "power":
        t.loc[len(t)] = ["overall, with the spread between bands", t.n.iloc[0], "", "", "", overall_cell(res)]
    return t


def overall_cell(res) -> str:
    """k with the interval that includes the spread between bands (the headline's cell)."""
    kr = res["k"].iloc[0]
    ko = res.get("k_overall")
    if kr.case != "power" or not ko or ko["low"] != ko["low"]:
        return k_table(res)["tail exponent k [95% CI]"].iloc[0] if kr.case != "power" or not ko else f"{kr.k:.2f}"
    return fmt_k(kr.k, ko["low"], ko["high"])


def rare_note(rare) -> str:
    R = ", ".join(f"{int(l):,}:{int(r)}" for l, r in zip(rare["levels"], rare["R"]) if r > 1)
    return (f"Splitting: {rare['roots']:,} root sessions of {rare['deals']} deals, each copy split at the levels "
            f"(chips:copies) {R or 'none'}; {rare['copies']:,} copies, {rare['budget']:,} deals in all "
            f"({rare['capped_roots']:,} roots stopped splitting at the cap). Plain sampling: "
            f"{rare['plain_sessions']:,} sessions, the same number of deals. "
            + ("Chips conserved in every copy. " if not rare["violations"] else
               f"CHIP CONSERVATION VIOLATED in {rare['violations']} copies: a bug. ")
            + ("" if (rare["table"].roots_reaching >= FEW_ROOTS).all() else
               f"Levels reached by fewer than {FEW_ROOTS} roots are too few to trust: a few roots carry the estimate "
               "there and the sample may have missed the rare roots with many copies, so the estimate tends to be low; "
               "its interval is widened upward accordingly (t at half the effective number of roots, capped by the "
               "exact binomial bound on the share of roots reaching), and more roots (--tail-roots) tighten it. ")
            + ("No copy overflowed 2^62 chips." if not any(rare["overflow"]) else
               f"Overflowed 2^62 chips (counted past every level): splitting {rare['overflow'][0]:.2e}, plain "
               f"{rare['overflow'][1]:.2e} of the sessions."))


def render_tail(res) -> str:
    return "\n".join(["", "THE TAIL LAW", *tail_words(res), "", "Per deal, the pot goes from P to A.P + B:",
                      plain_table(ab_table(res)), "", plain_table(k_table(res)),
                      *([kesten_note(res["rules"]).strip(" ()")] if kesten_note(res["rules"]) else []), "",
                      f"Chance the pot passes X within {res['deals_per_session']} deals:",
                      plain_table(rare_table(res["rare"])), rare_note(res["rare"])])


def write_tail(res, out: Path, pot=None):
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    write_table(res["ab"], out, "tail_ab")
    write_table(res["k"], out, "tail_k")
    write_table(res["survival"], out, "tail_survival")
    write_table(res["rare"]["table"], out, "tail_rare")
    plot_tail(res, out / "tail_law.png", pot)
