"""Distribution-free confidence intervals for quantiles (order statistics, binomial ranks): of a sample and of
a histogram (the Bourre pot's quantiles, analysis/bourre/bins.py)."""
from __future__ import annotations

import functools
import math

import numpy as np

from .stats import binom_cdf


def _binom_quantile(n: int, q: float, target: float) -> int:
    """Smallest j in 0..n with P(B <= j) >= target, B ~ Binomial(n, q)."""
    if n <= 0:
        return 0
    mu, sd = n * q, math.sqrt(max(n * q * (1 - q), 1e-12))
    lo, hi = -1, n      # P(B <= lo) < target <= P(B <= hi)
    # a bracket from the normal approximation, widened until it holds
    g = int(mu + sd * (-8)), int(mu + sd * 8) + 1
    a, b = max(-1, g[0]), min(n, g[1])
    if a >= 0 and binom_cdf(a, n, q) < target:
        lo = a
    if b < n and binom_cdf(b, n, q) >= target:
        hi = b
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if binom_cdf(mid, n, q) >= target:
            hi = mid
        else:
            lo = mid
    return hi


@functools.lru_cache(maxsize=65536)
def quantile_ranks(n: int, q: float, level: float = 0.95):
    """1-based ranks (l, u) of the order statistics whose interval [X_(l), X_(u)] holds
    the q-quantile with probability at least ``level`` for any continuous distribution
    (equal tails: P(B < l) <= alpha/2 and P(B >= u) <= alpha/2, B ~ Binomial(n, q)
    counting the observations below the quantile).  l = 0 means no lower bound and
    u = n + 1 no upper bound: the sample cannot support that quantile."""
    n = int(n)
    if n < 1:
        return 0, 1
    a2 = (1.0 - level) / 2.0
    # l = the largest l with P(B <= l - 1) <= a2, i.e. l - 1 = (smallest j with cdf(j) > a2) - 1
    j = _binom_quantile(n, q, a2)
    if binom_cdf(j, n, q) <= a2:      # cdf(j) == a2 exactly: j itself may still be below
        j += 1
    lrank = j                          # P(B <= j - 1) <= a2 < P(B <= j)
    # u = the smallest u with P(B >= u) <= a2, i.e. P(B <= u - 1) >= 1 - a2
    u = _binom_quantile(n, q, 1.0 - a2) + 1
    return int(lrank), int(u)


def min_sample_for_quantile(q: float, level: float = 0.95) -> int:
    """Smallest sample with both order-statistic bounds of the q-quantile (q^n and (1-q)^n
    at most (1 - level)/2)."""
    a2 = (1.0 - level) / 2.0
    return int(math.ceil(math.log(a2) / math.log(max(q, 1.0 - q)) - 1e-9))


def quantile_ci(x, q, level=0.95):
    """Point estimate (the ceil(nq)-th order statistic) and the order-statistic interval of
    the q-quantile of the sample ``x``; bounds are nan where the sample cannot support them."""
    x = np.sort(np.asarray(x, float))
    n = len(x)
    if n == 0:
        return math.nan, math.nan, math.nan
    est = x[min(n - 1, max(0, math.ceil(n * q) - 1))]
    lr, ur = quantile_ranks(n, float(q), float(level))
    lo = x[lr - 1] if lr >= 1 else math.nan
    hi = x[ur - 1] if ur <= n else math.nan
    return float(est), float(lo), float(hi)


def hist_quantile_ci(counts, q, level=0.95):
    """The same for a variable given as counts over ordered bins: the bins holding the
    point estimate and the two order statistics (-1 where the sample cannot support the
    bound; all -1 for an empty histogram).  The interval from the lower edge of the first
    to the upper edge of the last holds the quantile with at least the same probability."""
    c = np.cumsum(np.asarray(counts, np.int64))
    n = int(c[-1]) if len(c) else 0
    if n == 0:
        return -1, -1, -1
    est = int(np.searchsorted(c, max(1, math.ceil(n * q - 1e-9)), side="left"))
    lr, ur = quantile_ranks(n, float(q), float(level))
    lo = int(np.searchsorted(c, lr, side="left")) if lr >= 1 else -1
    hi = int(np.searchsorted(c, ur, side="left")) if ur <= n else -1
    return est, lo, hi
