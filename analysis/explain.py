"""The shared parts of ``odds <game> --hand ... --explain`` (issue 27): every choice played on the same deals, the
deals cut into ``BATCHES`` engine blocks of equal size; the margin of the best choice over each other is a paired
difference of batch means with a 95% interval by Student's t over the batches (valid whatever the dependence between
the choices on one deal), 'close' when the interval reaches 0.  The games' explain modules supply the per-batch values
of their choices and their example deals; this module holds the batching, the margins and the rendering of the
margin column.  It also holds the shared parts of ``trace <game> -H pimc --explain``: the one-line refusal without a
sampling seat, and, for Bourre and Boomke Wies, the kernel's rows of reasons (kernels/explain.py) read into the
``explain`` field's candidates (docs/trace.md), each mean with its 95% interval over the worlds."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..kernels import explain as KX
from .common import TricksimError
from .stats import t_crit

BATCHES = 20
EXAMPLES = 400          # the run's first deals searched for examples
SHOW = 2                # examples of each kind
IDENTICAL = "identical on every deal"


def batch_size(hands: int) -> int:
    """Deals per batch: ``hands`` cut into ``BATCHES`` equal blocks (the remainder dropped)."""
    if hands < 2 * BATCHES:
        raise TricksimError(f"--explain cuts the deals into {BATCHES} batches: give --hands {2 * BATCHES} or more")
    return hands // BATCHES


def batch_sums(prefixes) -> np.ndarray:
    """int64[batches, ...]: each batch's own sums, from the engine's running sums after each block (in block order)."""
    return np.diff(np.vstack([np.zeros_like(prefixes[0])] + [np.asarray(p) for p in prefixes]), axis=0)


def keeper():
    """(prefixes, stop): ``stop`` for ``RunOptions.execute`` keeps the running sums after each block."""
    prefixes = []

    def keep(acc, n):
        prefixes.append(np.array(acc))
        return False
    return prefixes, keep


def same_as_best(counts, w, segments, best: int) -> list[bool]:
    """Per choice: is it identical to choice ``best`` on every deal?  A choice's value on one deal is the sum, over
    ``segments`` ((start, length) of histograms each deal hits exactly once), of its column of ``w`` at the cell the
    deal hits.  On the cells the run hit (``counts`` > 0), if the difference of the two columns is one constant per
    segment, the difference is the same number on every deal: the sum of those constants, identical when it is 0.
    (Sound, never a guess: a difference that varies within a segment is not called identical.)"""
    counts = np.asarray(counts)
    out = []
    for j in range(w.shape[1]):
        total, ok = 0.0, True
        for start, length in segments:
            hit = counts[start:start + length] > 0
            d = (w[start:start + length, best] - w[start:start + length, j])[hit]
            if d.size and d.max() != d.min():
                ok = False
                break
            total += float(d[0]) if d.size else 0.0
        out.append(ok and total == 0.0)
    return out


def margins(means, labels, best: int, same=None) -> pd.DataFrame:
    """The best choice minus each other, per batch (paired), with 95% intervals over the batches; ``same``: per
    choice, identical to the best on every deal (then the margin is exactly 0, and says so)."""
    rows = []
    b = means.shape[0]
    for j, lab in enumerate(labels):
        d = means[:, best] - means[:, j]
        m = float(d.mean())
        half = float(t_crit(b - 1) * d.std(ddof=1) / math.sqrt(b)) if b > 1 else math.nan
        rows.append({"choice": lab, "best minus it": m, "lo": m - half, "hi": m + half,
                     "clear": j == best or m - half > 0, "identical": j != best and bool(same is not None and same[j])})
    return pd.DataFrame(rows)


def margin_cells(mg: pd.DataFrame, digits: int = 3) -> list[str]:
    """The 'best minus it' column: 'best' for the first row, 'identical on every deal' for a choice that is, else
    the margin, its interval and 'close'."""
    f = f"+.{digits}f"
    same = mg["identical"] if "identical" in mg else [False] * len(mg)
    return ["best" if i == 0 else IDENTICAL if eq else f"{m:{f}} [{lo:{f}}, {hi:{f}}]" + ("" if ok else " close")
            for i, (m, lo, hi, ok, eq) in enumerate(zip(mg["best minus it"], mg.lo, mg.hi, mg.clear, same))]


def verdict(mg: pd.DataFrame) -> str:
    """'best: X; clearly ahead ...' or the choices it cannot be told apart from, and those identical to it."""
    same = list(mg["identical"][1:]) if "identical" in mg else [False] * (len(mg) - 1)
    close = [c for c, ok, eq in zip(mg.choice[1:], mg.clear[1:], same) if not ok and not eq]
    twins = [c for c, eq in zip(mg.choice[1:], same) if eq]
    return (f"best: {mg.choice.iloc[0]}" + (f" (identical on every deal to {', '.join(twins)})" if twins else "")
            + "; " + (f"it cannot be told apart from {', '.join(close)} (close)" if close
                      else "clearly ahead of every other choice"))


def pick_examples(outcomes, k: int = SHOW):
    """From (wins?, differs?, idx, payload) tuples (wins? True/False/None for neither): up to ``SHOW`` deals of each
    kind, those where the runner-up came out otherwise first, then the earliest."""
    wins = sorted((not d, i, p) for w, d, i, p in outcomes if w is True)[:k]
    losses = sorted((not d, i, p) for w, d, i, p in outcomes if w is False)[:k]
    return [("wins", i, p) for _, i, p in wins] + [("loses", i, p) for _, i, p in losses]


# ---- trace GAME -H pimc --explain: the sampling player's candidates at each of its decisions -----------------------
NEED_SAMPLING = ("--explain shows the sampling player's decisions: seat it with -H pimc (once for every seat, or once "
                 "per seat)")


def need_sampling_seat(found: bool) -> None:
    """``trace --explain`` refuses, in one line, a table with no sampling seat (the three games alike)."""
    if not found:
        raise TricksimError(NEED_SAMPLING)


def world_stats(s1: int, s2: int, n: int, scale: float = 1.0) -> tuple:
    """(mean, lo, hi) of ``scale`` x a value over ``n`` worlds from its sum ``s1`` and sum of squares ``s2`` (exact
    integers): the 95% interval by Student's t over the worlds (independent draws); None, None from one world."""
    s1, s2, n = int(s1), int(s2), int(n)
    if n < 1:
        return None, None, None                          # no world valued (Boomke Wies: every one skipped)
    mean = s1 / n
    if n < 2:
        return mean * scale, None, None
    var = (n * s2 - s1 * s1) / (n * (n - 1))            # the sample variance, its numerator exact
    half = float(t_crit(n - 1) * math.sqrt(max(var, 0.0) / n))
    return mean * scale, (mean - half) * scale, (mean + half) * scale


def kernel_rows(xd) -> list[dict]:
    """The decisions written into one deal's rows ``xd`` (int64[rows, X_LEN], kernels/explain.py), in row order:
    ``{"row", "kind" (KIND_*), "seat", "worlds", "cand", "sum", "sq", "aux"}`` (the last four per candidate)."""
    out = []
    for r in np.flatnonzero(np.asarray(xd)[:, KX.X_KIND]):
        x = [int(v) for v in xd[r]]
        nc = x[KX.X_NC]
        out.append({"row": int(r), "kind": x[KX.X_KIND], "seat": x[KX.X_SEAT], "worlds": x[KX.X_WORLDS],
                    "cand": x[KX.X_CAND:KX.X_CAND + nc], "sum": x[KX.X_SUM:KX.X_SUM + nc],
                    "sq": x[KX.X_SQ:KX.X_SQ + nc], "aux": x[KX.X_AUX:KX.X_AUX + nc]})
    return out


def first_best(keys) -> int:
    """The sampling players' rule: the first candidate of the highest key (a sum, or a tuple of sums)."""
    best = 0
    for i, k in enumerate(keys):
        if k > keys[best]:
            best = i
    return best


def candidates(row: dict, labels, scale: float, aux: str | None = None, aux_scale: float = 1.0) -> list[dict]:
    """A kernel row's candidates as the ``explain`` field shows them: choice, the kernel's integer ``sum``, and
    ``mean``, ``lo``, ``hi`` of ``scale`` x the value over the row's worlds (``world_stats``); ``aux``: the name
    under which to show the tie-break's mean (times ``aux_scale``)."""
    n = row["worlds"]
    out = []
    for i, lab in enumerate(labels):
        m, lo, hi = world_stats(row["sum"][i], row["sq"][i], n, scale)
        c = {"choice": lab, "sum": row["sum"][i], "mean": m, "lo": lo, "hi": hi}
        if aux:
            c[aux] = row["aux"][i] * aux_scale / n if n else None
        out.append(c)
    return out
