"""Bourre's log-binned chips (kernels/bourre/ ``pot_bin``): exact below 32 chips, then 8 bins per
octave; quantiles of binned pots and seat nets with their 95% order-statistic intervals, and how
chips are written."""
from __future__ import annotations

import math

import numpy as np

from ...kernels import bourre as K
from ..output import pct, pm
from ..quantiles import hist_quantile_ci, min_sample_for_quantile


def bin_lo(b: int) -> int:
    if b < 32:
        return b
    h, f = divmod(b - 32, 8)
    return (8 + f) << (h + 2)


def bin_hi(b: int) -> int:
    """Exclusive upper edge."""
    if b < 32:
        return b + 1
    h, f = divmod(b - 32, 8)
    return (9 + f) << (h + 2)


def bin_mid(b: int) -> float:
    if b < 32:
        return float(b)
    return math.sqrt(bin_lo(b) * (bin_hi(b) - 1))


BIN_MID = np.array([bin_mid(b) for b in range(K.NB - 1)] + [math.inf])


def hist_quantile(h, q):
    """The bin holding the q-quantile of a pot histogram (K.BIN_OVF = overflowed; -1 if empty)."""
    h = np.asarray(h)
    n = h.sum()
    if n == 0:
        return -1
    c = np.cumsum(h)
    return int(np.searchsorted(c, q * n - 1e-9))


def fmt_chips_bin(b: int) -> str:
    if b < 0:
        return "-"
    if b == K.BIN_OVF:
        return "overflow"
    if b < 32:
        return f"{b}"
    lo, hi = bin_lo(b), bin_hi(b) - 1
    return f"{lo:,}-{hi:,}"


NB1 = K.NB - 1
# the signed bins of a seat's net, in increasing order: the negative bins reversed, then the others
SIGNED_MID = np.concatenate([-BIN_MID[:-1][::-1], BIN_MID[:-1]])
SIGNED_LO = np.array([-(bin_hi(b) - 1) for b in range(NB1)][::-1] + [bin_lo(b) for b in range(NB1)], float)
SIGNED_HI = np.array([-bin_lo(b) for b in range(NB1)][::-1] + [bin_hi(b) - 1 for b in range(NB1)], float)
SEAT_QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)


def quantile_with_ci(counts, q, mid, lo_edge, hi_edge):
    """(estimate, low, high) of the q-quantile of a binned variable: the estimate is its bin's
    representative value, the bounds the outer edges of the bins holding the order statistics
    of the 95% distribution-free interval (nan where the sample cannot support a bound)."""
    est, lo, hi = hist_quantile_ci(counts, q)
    if est < 0:
        return math.nan, math.nan, math.nan
    return (float(mid[est]), float(lo_edge[lo]) if lo >= 0 else math.nan,
            float(hi_edge[hi]) if hi >= 0 else math.nan)


def _seat_net_stats(neth_neg, neth_pos, n):
    """Quantiles (with their 95% order-statistic intervals) and a histogram-based variance of a
    seat's net from its signed log histogram."""
    cnt = np.concatenate([neth_neg[:-1][::-1], neth_pos[:-1]])
    qs = {q: quantile_with_ci(cnt, q, SIGNED_MID, SIGNED_LO, SIGNED_HI) for q in SEAT_QUANTILES}
    return qs, SIGNED_MID, cnt


# pot bins as values: representative value, lowest and highest chips of the bin (overflow: inf)
POT_LO = np.array([bin_lo(b) for b in range(NB1)] + [math.inf], float)
POT_HI = np.array([bin_hi(b) - 1 for b in range(NB1)] + [math.inf], float)


def pot_quantile(h, q):
    """(bin of the estimate, low chips, high chips, text) of the q-quantile of a pot histogram,
    with its 95% order-statistic interval; the text says when the sample cannot support it."""
    est, lo, hi = hist_quantile_ci(h, q)
    if est < 0:
        return -1, math.nan, math.nan, "-"
    if lo < 0 or hi < 0:
        return est, math.nan, math.nan, f"needs {min_sample_for_quantile(q):,} sessions"
    return est, POT_LO[lo], POT_HI[hi], f"{_short(POT_LO[lo])} - {_short(POT_HI[hi])}"


def _max_q_text(h, q):
    b, lo, hi, txt = pot_quantile(h, q)
    if b < 0:
        return "-"
    if lo != lo:
        return "n/a (" + txt + ")"
    return f"{fmt_chips_bin(b)} [{txt}]"


def _pct(p, lo=None, hi=None, digits=1):
    return pct(p, lo, hi, digits)


def _pm(m, half, digits=2):
    """``m ± half`` (unsigned) with enough decimals that a non-zero half-width never reads as 0."""
    return pm(m, half, digits, sign=False)


def _q_text(est, lo, hi):
    """A binned quantile with its order-statistic interval; 'n/a' when the sample cannot bound it."""
    if est != est:
        return "-"
    if lo != lo or hi != hi:
        return "n/a (too few)"
    if lo == hi:
        return _chips(est) if abs(est) < 32 else _short(lo)
    return f"{_short(est, '~' if abs(est) >= 32 else '')} [{_short(lo)}, {_short(hi)}]"


def _short(x, prefix=""):
    """Chips, compact above a million (3 significant digits: 27.3M, 1.4B, ...)."""
    if x != x:
        return "?"
    if math.isinf(x):
        return "overflow" if x > 0 else "-overflow"
    for f, s in ((1e18, "E"), (1e15, "P"), (1e12, "T"), (1e9, "B"), (1e6, "M")):
        if abs(x) >= f:
            return f"{prefix}{x / f:.3g}{s}"
    return f"{prefix}{x:,.0f}"


def _chips(x):
    if x != x:
        return "-"
    if math.isinf(x):
        return "overflow" if x > 0 else "-overflow"
    if abs(x) < 32:
        return f"{x:,.0f}"
    return f"~{x:,.0f}"
