"""Honest statistics: every rate with its interval and sample size."""
from __future__ import annotations

import math

import numpy as np

Z95 = 1.959963984540054


def wilson(k, n, z=Z95):
    """Wilson score interval for k successes in n trials (arrays allowed)."""
    k = np.asarray(k, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(n > 0, k / n, np.nan)
        den = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / den
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    lo = np.where(k <= 0, 0.0, np.clip(centre - half, 0.0, 1.0))   # the exact Wilson bounds at k = 0 and k = n
    hi = np.where(k >= n, 1.0, np.clip(centre + half, 0.0, 1.0))
    if lo.ndim == 0:
        return p, float(lo), float(hi)
    return p, lo, hi


def mean_ci(s1, s2, n, z=Z95):
    """Mean and normal 95% half-width from the sum and the sum of squares."""
    s1 = np.asarray(s1, dtype=float)
    s2 = np.asarray(s2, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        m = s1 / n
        var = np.maximum(s2 / n - m * m, 0.0) * n / np.maximum(n - 1, 1)
        half = z * np.sqrt(var / n)
    return m, half


def hist_mean_ci(values, counts, z=Z95):
    """Mean and 95% half-width of a variable given as a histogram."""
    values = np.asarray(values, dtype=float)
    counts = np.asarray(counts, dtype=float)
    n = counts.sum()
    if n == 0:
        return math.nan, math.nan, 0
    m = float((values * counts).sum() / n)
    var = float(((values - m) ** 2 * counts).sum() / max(n - 1, 1))
    return m, z * math.sqrt(var / n), int(n)


def normal_two_sided_p(zscore):
    return math.erfc(abs(zscore) / math.sqrt(2))


def holm(pvalues):
    """Holm-Bonferroni adjusted p-values."""
    p = np.asarray(pvalues, dtype=float)
    order = np.argsort(p)
    m = len(p)
    adj = np.empty(m)
    run = 0.0
    for rank, i in enumerate(order):
        run = max(run, min(1.0, (m - rank) * p[i]))
        adj[i] = run
    return adj
