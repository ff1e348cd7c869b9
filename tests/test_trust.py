"""The "How far to trust the odds" section's pooling of the class table (analysis/boulmous/trust.py)."""
import math

import pandas as pd

from tricksim.analysis.boulmous.trust import by_bid


def _res():
    rows, gaps = [], []
    for (ntr, nb, n, ph, po, g, h) in ((3, 1, 100, 0.5, 0.6, 0.1, 0.04), (4, 2, 300, 0.9, 0.8, -0.1, 0.02)):
        for kind, p in (("heuristic", ph), ("open", po)):
            row = {"trumps": ntr, "bowers": nb, "play": kind, "n": n}
            for bid in range(3, 7):
                row.update({f"p{bid}": p, f"p{bid}_lo": p, f"p{bid}_hi": p})
            rows.append(row)
        for bid in range(3, 7):
            gaps.append({"trumps": ntr, "bowers": nb, "bid": bid, "play": "open", "gap": g, "gap_ci": h, "n": n})
    return {"by_trumps_bowers": pd.DataFrame(rows), "gaps": pd.DataFrame(gaps), "play": ["heuristic", "open"]}


def test_by_bid_pools_counts_and_stratified_gaps():
    bb = by_bid(_res())
    r = bb.iloc[0]
    p, lo, hi, n = r["heuristic"]
    assert n == 400 and abs(p - (50 + 270) / 400) < 1e-12 and lo < p < hi
    p, _, _, n = r["open"]
    assert n == 400 and abs(p - (60 + 240) / 400) < 1e-12
    gap, half = r["gap open"]
    assert abs(gap - (100 * 0.1 + 300 * -0.1) / 400) < 1e-12
    assert abs(half - math.sqrt((100 * 0.04) ** 2 + (300 * 0.02) ** 2) / 400) < 1e-12
    assert list(bb.bid) == [3, 4, 5, 6]
