"""Honest statistics: every rate with its interval and sample size.

Means use Student's t (exact for normal data, the normal limit for large samples) and
give no interval below ``MIN_SAMPLE`` observations; quantiles get distribution-free
order-statistic intervals (exact binomial ranks), which hold for any shape, heavy tails
included; rates of dependent trials (deals inside a session) use the variance between
independent batches (sessions)."""
from __future__ import annotations

import functools
import math

import numpy as np

Z95 = 1.959963984540054
MIN_SAMPLE = 10   # below this many observations a mean gets no interval (nan half-width)


# ---------------------------------------------------------------------------
# distributions (no scipy): regularized incomplete beta, Student's t, binomial
# ---------------------------------------------------------------------------
def _betacf(a, b, x):
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 100_000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        de = d * c
        h *= de
        if abs(de - 1.0) < 1e-15:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """Regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    lbt = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(lbt) * _betacf(a, b, x) / a
    return 1.0 - math.exp(lbt) * _betacf(b, a, 1.0 - x) / b


def t_two_sided_p(t: float, df: float) -> float:
    """P(|T| >= |t|) for Student's t with ``df`` degrees of freedom (df = inf: normal)."""
    if t != t or df != df:
        return math.nan
    if math.isinf(t):
        return 0.0
    if math.isinf(df) or df > 1e7:
        return normal_two_sided_p(t)
    return min(1.0, betainc(df / 2.0, 0.5, df / (df + t * t)))


@functools.lru_cache(maxsize=4096)
def _t_crit(df: float, alpha: float) -> float:
    if math.isinf(df) or df > 1e7:
        return _z_crit(alpha)
    lo, hi = 0.0, 10.0
    while t_two_sided_p(hi, df) > alpha:
        hi *= 4.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if t_two_sided_p(mid, df) > alpha:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-13 * hi:
            break
    return 0.5 * (lo + hi)


def _z_crit(alpha: float) -> float:
    if alpha == 0.05:
        return Z95
    lo, hi = 0.0, 40.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if normal_two_sided_p(mid) > alpha:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def t_crit(df, level: float = 0.95):
    """Two-sided critical value of Student's t (nan for df < 1 or nan); arrays allowed."""
    alpha = round(1.0 - level, 12)

    def one(d):
        d = float(d)
        if d != d or d < 1.0:
            return math.nan
        return _t_crit(float(np.round(d, 6)), alpha)
    if np.ndim(df) == 0:
        return one(df)
    return np.array([one(d) for d in np.ravel(df)]).reshape(np.shape(df))


def binom_cdf(k: int, n: int, p: float) -> float:
    """P(B <= k) for B ~ Binomial(n, p)."""
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    if p <= 0.0:
        return 1.0
    if p >= 1.0:
        return 0.0
    return betainc(n - k, k + 1, 1.0 - p)


def normal_two_sided_p(zscore):
    return math.erfc(abs(zscore) / math.sqrt(2))


# ---------------------------------------------------------------------------
# rates
# ---------------------------------------------------------------------------
@functools.lru_cache(maxsize=64)
def _poisson_lower(x: int, tail: float) -> float:
    """The exact lower confidence bound of a Poisson mean after ``x`` events: the lambda with
    P(Poisson(lambda) >= x) = ``tail``."""
    def upper_tail(lam):
        term, cdf = math.exp(-lam), 0.0
        for j in range(x):
            cdf += term
            term *= lam / (j + 1)
        return 1.0 - cdf
    lo, hi = 0.0, float(x)
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if upper_tail(mid) < tail:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


WILSON_SMALL = 3   # counts (of events or of non-events) this small get the Poisson bound where it is wider


def wilson(k, n, z=Z95):
    """Wilson score interval for k successes in n trials (arrays allowed), with the modification of
    Brown, Cai and DasGupta (2001) for the Poisson regime: for 1 <= k <= 3 the lower bound is at most
    the exact Poisson lower bound over n (and the upper bound for 1 <= n - k <= 3 at least one minus
    it); plain Wilson's coverage dips to about 84% where n p is near 0.1-0.5 (one event puts its lower
    bound above p)."""
    k = np.asarray(k, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(n > 0, k / n, np.nan)
        den = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / den
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    lo = np.where(k <= 0, 0.0, np.clip(centre - half, 0.0, 1.0))   # the exact Wilson bounds at k = 0 and k = n
    hi = np.where(k >= n, 1.0, np.clip(centre + half, 0.0, 1.0))
    tail = 0.5 * math.erfc(float(z) / math.sqrt(2.0))
    with np.errstate(invalid="ignore", divide="ignore"):
        for x in range(1, WILSON_SMALL + 1):
            b = _poisson_lower(x, tail) / n
            lo = np.where(k == x, np.minimum(lo, b), lo)
            hi = np.where(n - k == x, np.maximum(hi, 1.0 - b), hi)
    if lo.ndim == 0:
        return p, float(lo), float(hi)
    return p, lo, hi


def clopper_pearson(k: int, n: int, level: float = 0.95) -> tuple[float, float]:
    """The exact (Clopper-Pearson) interval of a binomial proportion k / n."""
    a = (1 - level) / 2

    def solve(f):
        lo, hi = 0.0, 1.0
        for _ in range(80):
            mid = 0.5 * (lo + hi)
            if f(mid):
                hi = mid
            else:
                lo = mid
        return 0.5 * (lo + hi)
    low = 0.0 if k <= 0 else solve(lambda p: 1 - binom_cdf(k - 1, n, p) >= a)
    high = 1.0 if k >= n else solve(lambda p: binom_cdf(k, n, p) <= a)
    return low, high


def two_valued_mean_ci(k, n, fail: float, success: float, z=Z95):
    """Mean and interval of a quantity worth ``success`` on the k of n trials where an event
    happened and ``fail`` on the others (e.g. the stakes of a bid made or failed): an affine
    function of the event's indicator, so its interval is the event's Wilson interval mapped
    through it (never a zero-width interval at k = 0 or k = n, as a t interval would give).
    Returns (mean, low, high); nan for n = 0."""
    p, lo, hi = wilson(k, n, z)
    f = lambda x: fail + (success - fail) * x
    a, b = f(lo), f(hi)
    return f(p), min(a, b), max(a, b)


def batch_ratio(sx, sxx, sxd, sd, sdd, nb):
    """A per-unit rate or mean r = sum x / sum d over ``nb`` independent batches (e.g. the
    deals of sessions: x = a session's count or sum, d = its deals), with the batch
    (linearization) variance of the ratio estimator, valid however the units inside a
    batch depend on each other.  ``sx``, ``sxx``, ``sxd`` = sums over batches of x, x^2,
    x*d; ``sd``, ``sdd`` = of d, d^2.  Returns (r, variance of r, degrees of freedom)."""
    sx, sxx, sxd = (np.asarray(v, float) for v in (sx, sxx, sxd))
    sd, sdd, nb = float(sd), float(sdd), float(nb)
    if nb < 2 or sd <= 0:
        return sx / sd if sd > 0 else sx * math.nan, sx * math.nan, math.nan
    r = sx / sd
    dbar = sd / nb
    ss = np.maximum(sxx - 2 * r * sxd + r * r * sdd, 0.0)       # sum of (x_i - r d_i)^2
    return r, ss / (nb * (nb - 1) * dbar * dbar), nb - 1


def batch_rate_ci(sx, sxx, sxd, sd, sdd, nb, level=0.95):
    """Interval of a rate of dependent trials from batch sums (see ``batch_ratio``): the
    Wilson interval at the effective sample size p(1-p)/var (Kish's design effect) with
    Student's t (nb - 1 df) in place of z, so that it behaves near 0 and 1 like Wilson and
    its width follows the batch variance.
    Returns (p, lo, hi, design_effect)."""
    p, var, df = batch_ratio(sx, sxx, sxd, sd, sdd, nb)
    p, var = float(p), float(var)
    z = float(t_crit(df, level)) if df == df else _z_crit(round(1.0 - level, 12))   # t: the variance has nb - 1 df
    if p != p:
        return p, math.nan, math.nan, math.nan
    if var != var:
        return p, math.nan, math.nan, math.nan
    if 0.0 < p < 1.0 and var > 0:
        neff = p * (1 - p) / var
        deff = float(sd) / neff
    else:   # no event (or only events): nothing to estimate the dependence from
        neff, deff = float(sd), math.nan
    _, lo, hi = wilson(p * neff, neff, z)
    return p, lo, hi, deff


# ---------------------------------------------------------------------------
# means
# ---------------------------------------------------------------------------
def mean_ci(s1, s2, n, z=None, min_n=MIN_SAMPLE):
    """Mean and 95% half-width (Student's t, df = n - 1) from the sum and the sum of
    squares; the half-width is nan below ``min_n`` observations (never a +- 0 at n = 1)."""
    s1 = np.asarray(s1, dtype=float)
    s2 = np.asarray(s2, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        m = s1 / n
        var = np.maximum(s2 / n - m * m, 0.0) * n / np.maximum(n - 1, 1)
        crit = t_crit(n - 1) if z is None else z
        half = crit * np.sqrt(var / n)
        half = np.where(n >= max(min_n, 2), half, np.nan)
    if np.ndim(half) == 0:
        half = float(half)
    return m, half


def hist_mean_ci(values, counts, z=None, min_n=MIN_SAMPLE):
    """Mean and 95% half-width (Student's t) of a variable given as a histogram; nan
    half-width below ``min_n`` observations."""
    values = np.asarray(values, dtype=float)
    counts = np.asarray(counts, dtype=float)
    n = counts.sum()
    if n == 0:
        return math.nan, math.nan, 0
    m = float((values * counts).sum() / n)
    if n < max(min_n, 2):
        return m, math.nan, int(n)
    var = float(((values - m) ** 2 * counts).sum() / (n - 1))
    crit = t_crit(n - 1) if z is None else z
    return m, crit * math.sqrt(var / n), int(n)


def paired_hist_means(x, y, joint, z=None, min_n=MIN_SAMPLE):
    """Two variables measured on the same observations, from their joint histogram ``joint`` (the count of
    observations in each cell): ``x`` and ``y`` are their values in each cell, arrays broadcast to the joint's shape
    (``pts[:, None]``: a value per row; ``pts[None, :]``: per column).  Returns ``hist_mean_ci`` (mean, 95%
    half-width, n) of x, of y and of the paired difference x - y, each summed over the joint's cells."""
    shape = np.shape(joint)
    c = np.asarray(joint).ravel()
    xv = np.broadcast_to(np.asarray(x, dtype=float), shape).ravel()
    yv = np.broadcast_to(np.asarray(y, dtype=float), shape).ravel()
    return hist_mean_ci(xv, c, z, min_n), hist_mean_ci(yv, c, z, min_n), hist_mean_ci(xv - yv, c, z, min_n)


def hist_mean_interval(values, counts, z=None, min_n=MIN_SAMPLE):
    """Mean and (low, high) 95% interval of a bounded variable given as a histogram over all the
    values it can take: Student's t (as ``hist_mean_ci``), except that a sample which never varied
    (every observation the same value m, where a t interval has width 0) gets the bound that
    follows from the Wilson interval of the share q of other values (0 of n seen): the mean lies
    between m + (min - m) q and m + (max - m) q.  Bounds nan below ``min_n`` observations.
    Returns (mean, low, high, n)."""
    values = np.asarray(values, dtype=float)
    counts = np.asarray(counts, dtype=float)
    m, half, n = hist_mean_ci(values, counts, z, min_n)
    if n == 0 or half != half:
        return m, math.nan, math.nan, n
    if half == 0.0:
        lo, hi = unseen_bounds(m, values.min(), values.max(), n)
        return m, lo, hi, n
    return m, m - half, m + half, n


def unseen_bounds(m, vmin, vmax, n):
    """(low, high) of a mean ``m`` from ``n`` observations that never varied: outcomes the sample did
    not see (a share q of at most the Wilson upper bound for 0 in n) could move it anywhere in
    [vmin, vmax], so it lies between m + (vmin - m) q and m + (vmax - m) q (arrays allowed)."""
    _, _, q = wilson(0, n)
    m = np.asarray(m, dtype=float)
    return m + (np.minimum(vmin, m) - m) * q, m + (np.maximum(vmax, m) - m) * q


# ---------------------------------------------------------------------------
# quantiles: order-statistic intervals
# ---------------------------------------------------------------------------
def holm(pvalues):
    """Holm-Bonferroni adjusted p-values (nan p-values stay nan and do not count)."""
    p = np.asarray(pvalues, dtype=float)
    adj = np.full(len(p), math.nan)
    ok = np.flatnonzero(p == p)
    m = len(ok)
    order = ok[np.argsort(p[ok], kind="stable")]
    run = 0.0
    for rank, i in enumerate(order):
        run = max(run, min(1.0, (m - rank) * p[i]))
        adj[i] = run
    return adj


def pair_row(pairs, a: str, b: str, metric: str | None = None):
    """The row of a pairwise-difference table (columns ``metric``, ``a``, ``b``, ``diff``, ...) that compares
    ``a`` and ``b`` in either order, and the sign that turns its ``diff`` into ``a - b``."""
    p = pairs if metric is None else pairs[pairs.metric == metric]
    r = p[((p.a == a) & (p.b == b)) | ((p.a == b) & (p.b == a))].iloc[0]
    return r, (1.0 if r.a == a else -1.0)
