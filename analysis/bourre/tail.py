"""Bourre's tail law and its rare tails (issue 15, ``tricksim pot --tail``).

Between two wins the pot follows P' = A.P + B (A = the pot-sized bourre payments, plus one when
the pot stays in the middle; B = P' - A.P, the antes times A without a pot limit).  If (A, B) were
independent from deal to deal, the pot's stationary law would have a power tail P(pot > x) ~ C
x^-k with k > 0 the root of E[A^k] = 1 (Kesten-Goldie), provided P(A = 0) > 0 (a win resets the
pot) and P(A >= 2) > 0 (a bourre can multiply it).  ``bourre.tail`` measures (A, B) per deal over
the same sessions as the pot study; ``solve_k`` and ``k_interval`` give k with a delta-method
interval from the variance between sessions (deals inside a session depend on each other).

``rare_tail`` estimates P(the pot passes X within D deals) where plain Monte Carlo sees nothing:
multilevel splitting over sessions (kernels/bourre/ ``split_sessions``): unbiased, with a 95%
interval from the spread between independent root sessions, widened on the high side when few
roots carry the estimate (``estimate``); a root is a pure function of (seed,
root index), every copy of its own path, so the result is the same on any thread count."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ...kernels import bourre as K
from .. import engine
from ..common import TricksimError, make_params
from ..engine import RunOptions
from ..stats import clopper_pearson, t_crit, wilson
from .bins import bin_hi
from .config import _dynamic
from .ev import run_ev_tables, with_ev_form
from .spec import SPEC

DEFAULT_TARGETS = (100, 1000, 10_000, 100_000, 1_000_000)   # X / ante reported by --tail
GRID_LOW = 10             # the splitting levels: 10, 20, 40, ... x the ante, plus the targets
MAX_TARGET = 1 << 50
MIN_BAND_DEALS = 100      # a pot band with fewer deals gets no exponent
MAX_PARTICLES = 4000      # copies per root session: past it a root stops splitting (still unbiased)


# ---------------------------------------------------------------------------
# the tail exponent
# ---------------------------------------------------------------------------
def moment(p, k: float) -> float:
    """E[A^k] for a distribution ``p`` over A = 0, 1, 2, ... (0^k = 0 for k > 0)."""
    a = np.arange(len(p), dtype=float)
    return float(sum(pa * a_ ** k for a_, pa in zip(a[1:], p[1:])))


def solve_k(counts) -> tuple[float, str]:
    """(k, case) with E[A^k] = 1 for the A counts ``counts`` (index = A).  case: "power" (a root
    k > 0), "light" (A never passes 1: no heavy tail, k = inf), "no_reset" (A is never 0: the
    pot never goes back, k = nan), "empty" (no deal); ``decode_tail`` adds "few" (a pot band with
    under MIN_BAND_DEALS deals)."""
    c = np.asarray(counts, float)
    tot = c.sum()
    if tot <= 0:
        return math.nan, "empty"
    if c[0] == 0:
        return math.nan, "no_reset"
    if c[K.TAIL_A_GROWS:].sum() == 0:
        return math.inf, "light"
    p = c / tot
    lo, hi = 0.0, 1.0
    while moment(p, hi) < 1.0:          # E[A^k] - 1 < 0 near 0 (P(A=0) > 0), convex, -> inf
        lo, hi = hi, hi * 2
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if moment(p, mid) < 1.0:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-14 * hi:
            break
    return 0.5 * (lo + hi), "power"


def k_interval(counts, cross, sessions: int, k: float) -> tuple[float, float, float]:
    """(low, high, standard error) of k: k solves sum_s Z_s(k) = 0 with Z_s = sum_a c_sa (a^k - 1)
    (c_s = session s's A counts), so Var(k) ~ sum_s Z_s^2 / (sum_a N_a a^k ln a)^2, with sum_s
    Z_s^2 = g' Q g from ``cross`` = Q = sum_s c_s c_s'."""
    if not (k == k and 0 < k < math.inf) or sessions < 2:
        return math.nan, math.nan, math.nan
    c = np.asarray(counts, float)
    a = np.arange(len(c), dtype=float)
    g = np.where(a > 0, a ** k, 0.0) - 1.0
    jac = float(sum(c[i] * a[i] ** k * math.log(a[i]) for i in range(2, len(c))))
    var = float(g @ np.asarray(cross, float).reshape(len(c), len(c)) @ g)
    se = math.sqrt(max(var, 0.0)) / jac
    z = float(t_crit(sessions - 1))
    return max(k - z * se, 0.0), k + z * se, se


# ---------------------------------------------------------------------------
# the (A, B) study: engine blocks over sessions
# ---------------------------------------------------------------------------
def block_tail(params, first, n):
    kd, kc, ra, codes, prm = SPEC.kernel_args(params)
    return _dynamic(K.sim_tail, kd, kc, first, n, params["players"], params["deals"], ra, codes, prm,
                    run_ev_tables(params))


def tail_run(params, sessions: int) -> engine.Run:
    bs = int(max(1, min(4096, 800_000 // max(params["deals"], 1))))
    return engine.Run("bourre.tail", params, sessions, bs, unit="sessions")


BAND_NAMES = ("every deal", "pot carried in < 10x ante", "pot carried in 10x-100x ante", "pot carried in >= 100x ante")


def decode_tail(v, ante: int) -> dict:
    """The (A, B) table, k per pot band and the survival of the pot after a deal."""
    v = np.asarray(v, np.int64)
    f = K.TAIL.unpack(v)
    ab, band, hist = f["ab"], f["band"], f["hist"]
    cross = f["cross"]                                  # its last band: every deal
    sessions, ovf = K.TAIL.value(v, "sessions"), K.TAIL.value(v, "overflowed")
    deals = int(ab.sum())
    rows = []
    bvals = np.arange(K.TAIL_NBB - 1)
    for a in range(K.TAIL_NA):
        n_a = int(ab[a].sum())
        if n_a == 0 and a > 2:
            continue
        p, lo, hi = wilson(n_a, deals) if deals else (math.nan,) * 3
        exact = ab[a, :-1]
        rows.append({"A": a, "deals": n_a, "p": float(p), "ci_low": float(lo), "ci_high": float(hi),
                     "mean_B": float((exact * bvals).sum() / exact.sum()) if exact.sum() else math.nan,
                     "B_other": int(ab[a, -1])})
    ks = []
    for i, name in enumerate(BAND_NAMES):
        cnt = band.sum(axis=0) if i == 0 else band[i - 1]
        cr = cross[-1] if i == 0 else cross[i - 1]
        nd = int(cnt.sum())
        k, case = solve_k(cnt) if nd >= MIN_BAND_DEALS or i == 0 else (math.nan, "few")
        lo, hi, se = k_interval(cnt, cr, sessions, k) if case == "power" else (math.nan,) * 3
        ks.append({"deals": name, "n": nd, "P(A=0)": cnt[0] / nd if nd else math.nan,
                   "P(A>=2)": cnt[K.TAIL_A_GROWS:].sum() / nd if nd else math.nan,
                   "E[A]": float((np.arange(K.TAIL_NA) * cnt).sum() / nd) if nd else math.nan,
                   "k": k, "k_low": lo, "k_high": hi, "case": case})
    surv = []
    total = int(hist.sum())
    above = total
    for b in range(K.NB - 1):
        above -= int(hist[b])
        if b >= 1 and above > 0:
            p, lo, hi = wilson(above, total)
            surv.append({"x": bin_hi(b) - 1, "x_hi": bin_hi(b), "p": float(p), "ci_low": float(lo),
                         "ci_high": float(hi), "count": above})
    kdf = pd.DataFrame(ks)
    return {"ab": pd.DataFrame(rows), "k": kdf, "k_overall": k_overall(kdf), "survival": pd.DataFrame(surv),
            "sessions": sessions, "overflowed": ovf, "deals": deals, "ab_counts": ab, "ante": ante}


def k_overall(kdf) -> dict:
    """The exponent with an interval that includes the spread between pot bands: A depends on the
    pot (the players weigh it), so the pooled delta-method interval (the spread of the deals around
    one k) is too precise when the bands' own estimates differ by more.  low / high = the union of
    the pooled interval and the estimates of the bands with at least MIN_BAND_DEALS deals; the band
    that governs the largest pots is the last one (pot carried in >= 100x ante): its n, and its k
    when it has enough deals."""
    pooled = kdf.iloc[0]
    bands = kdf.iloc[1:]
    gov = bands.iloc[-1]
    out = {"k": pooled.k, "low": pooled.k_low, "high": pooled.k_high, "pooled_low": pooled.k_low,
           "pooled_high": pooled.k_high, "bands_used": 0, "governing": gov.deals, "governing_n": int(gov.n),
           "governing_k": gov.k if gov.case == "power" else math.nan, "governing_case": gov.case}
    if pooled.case != "power":
        return out
    est = [r.k for _, r in bands.iterrows() if r.case == "power" and r.n >= MIN_BAND_DEALS and 0 < r.k < math.inf]
    if est:
        lo = pooled.k_low if pooled.k_low == pooled.k_low else pooled.k
        hi = pooled.k_high if pooled.k_high == pooled.k_high else pooled.k
        out.update({"low": min([lo] + est), "high": max([hi] + est), "bands_used": len(est)})
    return out


# ---------------------------------------------------------------------------
# rare tails: multilevel splitting
# ---------------------------------------------------------------------------
def parse_targets(text) -> tuple:
    """``--tail-levels 1000,10000``: multiples of the ante, increasing integers >= 2."""
    if text is None or text == "":
        return DEFAULT_TARGETS
    vals = []
    for part in str(text).split(","):
        part = part.strip().lower().replace("_", "").rstrip("x")
        try:
            v = int(float(part)) if part and float(part) == int(float(part)) else None
        except (ValueError, OverflowError):
            v = None
        if v is None or not 2 <= v <= MAX_TARGET:
            raise TricksimError(f"--tail-levels takes multiples of the ante, integers from 2 to 2^50 separated by "
                                f"commas (e.g. 1000,10000), got {part!r}")
        vals.append(v)
    if any(b <= a for a, b in zip(vals, vals[1:])):
        raise TricksimError(f"--tail-levels must increase, got {text}")
    return tuple(vals)


def check_tail(tail: bool, levels, roots, sweep) -> tuple:
    """The targets of ``--tail`` (validated before anything runs)."""
    if not tail:
        if levels is not None or roots is not None:
            raise TricksimError("--tail-levels and --tail-roots go with --tail")
        return DEFAULT_TARGETS
    if sweep:
        raise TricksimError("--tail studies one setting: leave out --sweep")
    if roots is not None and roots < 2:
        raise TricksimError(f"--tail-roots must be at least 2 (an interval needs two roots), got {roots}")
    return parse_targets(levels)


def split_grid(targets, unit: int) -> np.ndarray:
    """The splitting levels (chips): 10, 20, 40, ... x the ante up to the largest target, plus the targets."""
    g = set()
    x = GRID_LOW
    while x < max(targets):
        g.add(x)
        x *= 2
    g.update(targets)
    return np.array(sorted(v * unit for v in g), np.int64)


PILOT_ROOTS = 200
PILOT_FIRST = 1 << 40     # the pilot's root sessions: an index range no study uses
PILOT_CAP = 400
R_MAX = 64


def plan_split(params, levels, k: float, rounds: int = 3, pilot: int = PILOT_ROOTS) -> np.ndarray:
    """Copies per level R[i] (applied when a copy passes level i, to reach level i+1): about
    1 / P(level i+1 | level i), so about one copy per root reaches each level.  Measured by
    pilot rounds of splitting on their own root sessions (``pilot`` per round; deterministic: a
    function of the seed); where the pilot does not reach, the tail law's (l_i+1 / l_i)^k.  Any choice keeps
    the estimator unbiased; a good one keeps its variance low."""
    L = len(levels)
    lev = np.asarray(levels, float)
    kk = k if (k == k and 0 < k < math.inf) else (8.0 if k == math.inf else 1.0)
    law = np.ones(L, np.int64)
    law[:-1] = np.clip(np.round((lev[1:] / lev[:-1]) ** kk), 1, R_MAX)
    R = law.copy()
    for rnd in range(rounds):
        Y, _, _ = run_split(params, pilot, levels, R, PILOT_CAP, first=PILOT_FIRST + rnd * PILOT_ROOTS)
        P = Y.mean(axis=0)
        reach = (Y > 0).sum(axis=0)
        new = law.copy()
        for i in range(L - 1):
            if reach[i + 1] >= 10 and P[i + 1] > 0:
                new[i] = int(np.clip(round(P[i] / P[i + 1]), 1, R_MAX))
            elif reach[i] >= 10:
                new[i] = max(law[i], min(R_MAX, 4 * R[i]))
        if np.array_equal(new, R):
            break
        R = new
    return R


def run_split(params, roots: int, levels, R, max_particles: int = MAX_PARTICLES, first: int = 0):
    """``split_sessions`` over roots first..first+roots-1 with R[i] copies at level i (an int:
    the same at every level): (Y[roots, L], overflow weight, counts)."""
    kd, kc, ra, codes, prm = SPEC.kernel_args(params)
    L = len(levels)
    Y = np.zeros((roots, L))
    ow = np.zeros(roots)
    cnt = np.zeros((roots, K.SP_LEN), np.int64)
    R = np.broadcast_to(np.asarray(R, np.int64), (L,)).copy()
    _dynamic(K.split_sessions, kd, kc, np.int64(first), np.int64(roots), np.int64(params["players"]),
             np.int64(params["deals"]), ra, codes, prm, run_ev_tables(params), np.asarray(levels, np.int64), R,
             np.int64(max_particles), Y, ow, cnt)
    return Y, ow, cnt


FEW_ROOTS = 20           # a level reached by fewer roots: its estimate rests on too few roots to trust


def estimate(Y, plain: bool):
    """(p, low, high) of the mean of Y over independent roots.  Plain sessions (Y = 0/1): Wilson.
    Splitting: Y is right-skewed (most roots never reach, a few carry many copies), so a normal
    interval from the spread between roots misses mostly below when few roots reach (the sample
    has not seen the rare roots with many copies).  The interval is on the log scale, p / f to p * g:
    the low end from the spread between the n roots (f = exp(t_{n-1} se / p)); the high end with the
    t quantile at half the effective number of roots n_eff = (sum Y)^2 / sum Y^2 (g = exp(t_{df}
    se / p), df = max(n_eff / 2 - 1, 1)), which widens it when a few roots carry the estimate; it
    is capped by the exact binomial upper bound on the share of roots that reached (every Y <= 1,
    so p <= P(Y > 0)).  When no root reached: 0 and that binomial upper bound; when the roots did
    not vary (se = 0, e.g. all reached with the same weight): the binomial interval of the share
    of roots reaching, scaled by the mean weight of those that reached (never a zero-width
    interval).  Over 400 groups of 100 roots of a small configuration this covered the pooled
    value in 91-98% of the groups at levels reached by 3-12 roots a group, where the plain spread
    interval covered 69-91%, nearly all its misses below (tests/test_bourre_edges.py)."""
    Y = np.asarray(Y, float)
    n = len(Y)
    s = float(Y.sum())
    if plain:
        p, lo, hi = wilson(int(round(s)), n)
        return float(p), float(lo), float(hi)
    r = int((Y > 0).sum())
    blo, bhi = clopper_pearson(r, n)
    if s == 0:
        return 0.0, 0.0, bhi
    m = s / n
    se = float(Y.std(ddof=1)) / math.sqrt(n) if n > 1 else math.nan
    if not se > 0:
        q = r / n
        return m, m * blo / q, min(m * bhi / q, 1.0)
    neff = s * s / float((Y * Y).sum())
    lo = m / math.exp(float(t_crit(n - 1)) * se / m)
    hi = m * math.exp(float(t_crit(max(neff / 2 - 1, 1.0))) * se / m)
    return m, lo, min(hi, bhi, 1.0)


def rare_tail(params, roots: int, targets=DEFAULT_TARGETS, k: float = math.nan, R=None,
              max_particles: int = MAX_PARTICLES) -> dict:
    """P(the pot passes X within D deals) for X in ``targets`` (x the ante) by splitting over
    ``roots`` root sessions (R: copies per level, default ``plan_split`` guided by the tail
    exponent ``k``), and by plain sessions over the same budget of deals."""
    unit = max(SPEC.rules_of(params).ante, 1)
    levels = split_grid(targets, unit)
    if R is None:
        R = plan_split(params, levels, k, pilot=min(PILOT_ROOTS, max(20, roots)))
    Y, ow, cnt = run_split(params, roots, levels, R, max_particles)
    budget = int(cnt[:, K.SP_DEALS].sum())
    n_plain = max(1, -(-budget // params["deals"]))
    Yp, owp, cntp = run_split(params, n_plain, levels, 1, 1)
    rows = []
    for t in targets:
        i = int(np.searchsorted(levels, t * unit))
        p, lo, hi = estimate(Y[:, i], False)
        pp, plo, phi = estimate(Yp[:, i], True)
        rows.append({"X (x ante)": t, "chips": t * unit, "p_split": p, "lo_split": lo, "hi_split": hi,
                     "roots_reaching": int((Y[:, i] > 0).sum()), "p_plain": pp, "lo_plain": plo, "hi_plain": phi,
                     "plain_hits": int(round(Yp[:, i].sum())),
                     "overlap": bool(lo <= phi and plo <= hi)})
    return {"table": pd.DataFrame(rows), "roots": roots, "R": np.broadcast_to(R, levels.shape), "levels": levels, "budget": budget,
            "plain_sessions": n_plain, "copies": int(cnt[:, K.SP_PARTICLES].sum()),
            "capped_roots": int((cnt[:, K.SP_CAPPED] > 0).sum()),
            "violations": int(cnt[:, K.SP_VIOL].sum() + cntp[:, K.SP_VIOL].sum()),
            "overflow": (float(ow.mean()), float(owp.mean())), "deals": params["deals"]}


# ---------------------------------------------------------------------------
# the study
# ---------------------------------------------------------------------------
def tail_study(players, deals, sessions, seed, rules, specs, opts: RunOptions = RunOptions(), targets=DEFAULT_TARGETS,
               roots: int | None = None, ev_form: bool = False) -> dict:
    """The (A, B) law over ``sessions`` sessions (engine blocks, resumable), k, and the rare tails
    by splitting over ``roots`` root sessions (default: sessions / 10, at least 100); ``ev_form``: its study's
    (analysis/bourre/ev.py ``study_ev_form``)."""
    params = with_ev_form(make_params(seed, rules, specs, players=players, deals=deals), ev_form)
    r = opts.sub("tail").execute(tail_run(params, sessions))
    res = decode_tail(r.counts, rules.ante)
    res["rare"] = rare_tail(params, roots or max(100, sessions // 10), targets, float(res["k"].iloc[0]["k"]))
    res.update({"players": players, "deals_per_session": deals, "rules": rules, "specs": specs, "seed": seed})
    return res
