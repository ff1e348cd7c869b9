"""The shared parts of ``odds <game> --hand ... --explain`` (issue 27): every choice played on the same deals, the
deals cut into ``BATCHES`` engine blocks of equal size; the margin of the best choice over each other is a paired
difference of batch means with a 95% interval by Student's t over the batches (valid whatever the dependence between
the choices on one deal), 'close' when the interval reaches 0.  The games' explain modules supply the per-batch values
of their choices and their example deals; this module holds the batching, the margins and the rendering of the
margin column."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from .common import TricksimError
from .stats import t_crit

BATCHES = 20
EXAMPLES = 400          # the run's first deals searched for examples
SHOW = 2                # examples of each kind


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


def margins(means, labels, best: int) -> pd.DataFrame:
    """The best choice minus each other, per batch (paired), with 95% intervals over the batches."""
    rows = []
    b = means.shape[0]
    for j, lab in enumerate(labels):
        d = means[:, best] - means[:, j]
        m = float(d.mean())
        half = float(t_crit(b - 1) * d.std(ddof=1) / math.sqrt(b)) if b > 1 else math.nan
        rows.append({"choice": lab, "best minus it": m, "lo": m - half, "hi": m + half,
                     "clear": j == best or m - half > 0})
    return pd.DataFrame(rows)


def margin_cells(mg: pd.DataFrame, digits: int = 3) -> list[str]:
    """The 'best minus it' column: 'best' for the first row, else the margin, its interval and 'close'."""
    f = f"+.{digits}f"
    return ["best" if i == 0 else f"{m:{f}} [{lo:{f}}, {hi:{f}}]" + ("" if ok else " close")
            for i, (m, lo, hi, ok) in enumerate(zip(mg["best minus it"], mg.lo, mg.hi, mg.clear))]


def verdict(mg: pd.DataFrame) -> str:
    """'best: X; clearly ahead ...' or the choices it cannot be told apart from."""
    close = [c for c, ok in zip(mg.choice[1:], mg.clear[1:]) if not ok]
    return f"best: {mg.choice.iloc[0]}; " + (f"it cannot be told apart from {', '.join(close)} (close)"
                                            if close else "clearly ahead of every other choice")


def pick_examples(outcomes, k: int = SHOW):
    """From (wins?, differs?, idx, payload) tuples (wins? True/False/None for neither): up to ``SHOW`` deals of each
    kind, those where the runner-up came out otherwise first, then the earliest."""
    wins = sorted((not d, i, p) for w, d, i, p in outcomes if w is True)[:k]
    losses = sorted((not d, i, p) for w, d, i, p in outcomes if w is False)[:k]
    return [("wins", i, p) for _, i, p in wins] + [("loses", i, p) for _, i, p in losses]
