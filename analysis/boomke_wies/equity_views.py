"""``tricksim equity boomke-wies``: the text, tables and heatmap of the Boomke Wies match equity."""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

import numpy as np
import pandas as pd

from ..common import TricksimError
from ..engine import RunOptions
from ..output import pct, pct_pm, plain_table, pm, with_folder, write_table
from . import equity as B
from .config import KEY, no_pimc
from .spec import SPEC


def _heat_png(p, rules, dealer_of, path: Path, here):
    """P(team 0 wins) over (points difference, deals left), numbered in % (every other column, and always the
    state asked about, ``here`` = (difference, deals left), which is also framed).  Returns the numbers
    written, as (x, y, text)."""
    from matplotlib import ticker

    from ..plots import plt
    diffs = np.arange(-12, 13)
    lefts = np.arange(1, rules.match_deals + 1)
    m = np.array([[B.recursion(p, int(d), int(n), dealer_of(int(n)), bool(rules.tiebreak_extra_deal))[0]
                   for d in diffs] for n in lefts])
    fig, ax = plt.subplots(figsize=(10, 6.5))
    im = ax.imshow(m, origin="lower", cmap="RdYlGn", vmin=0, vmax=1, aspect="auto",
                   extent=(diffs[0] - 0.5, diffs[-1] + 0.5, lefts[0] - 0.5, lefts[-1] + 0.5))
    shown = here is not None and -12 <= here[0] <= 12 and 1 <= here[1] <= rules.match_deals
    labels = []
    for j, n in enumerate(lefts):
        for i, d in enumerate(diffs):
            if shown and (d, n) == tuple(here):    # the state asked about: always numbered, in bold
                labels.append((int(d), int(n), f"{100 * m[j, i]:.0f}"))
                ax.text(d, n, f"{100 * m[j, i]:.0f}", ha="center", va="center", fontsize=8, fontweight="bold",
                        color="black", bbox=dict(boxstyle="square,pad=0.15", fc="white", ec="none", alpha=0.85),
                        zorder=5)
            elif d % 2 == 0:
                labels.append((int(d), int(n), f"{100 * m[j, i]:.0f}"))
                ax.text(d, n, f"{100 * m[j, i]:.0f}", ha="center", va="center", fontsize=6.5,
                        color="black" if 0.15 < m[j, i] < 0.85 else "white")
    if shown:
        ax.plot([here[0]], [here[1]], marker="s", ms=14, mfc="none", mec="black", mew=2, zorder=6)
    ax.set_xlabel("points of team 0 (seats 0+2) minus team 1 (seats 1+3)")
    ax.set_ylabel("deals left")
    ax.set_title(f"Boomke Wies: chance team 0 wins a {rules.match_deals}-deal match (cells in %; dealer as in a "
                 "match from seat 0; square: the state asked about)", fontsize=10)
    cb = fig.colorbar(im, ax=ax, shrink=0.85, label="P(team 0 wins the match)")
    cb.ax.yaxis.set_major_formatter(ticker.PercentFormatter(xmax=1, decimals=0))
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)
    return labels


def _draw_note(counts, rules) -> str:
    """Why no draw is possible, for a P(draw) of 0 with a [0, 0] interval (the bootstrap redraws only the
    observed deal outcomes, so it cannot bound an outcome that never occurred)."""
    per_deal = np.asarray(B.decode_boomke(counts)[0])     # P(one deal's difference), centred
    level = per_deal[:, (per_deal.shape[1] - 1) // 2].sum() > 0
    if rules.tiebreak_extra_deal and not level:
        return "P(draw) none: no deal ends level (every deal scores for one side), so the extra deal decides every tie"
    return "P(draw) none: no sequence of the measured deal outcomes ends the match level"


def boomke_command(scores: str, deals_left: int, dealer: int | None = None, seed: int = 0, deals: int = B.DEALS,
                   rules=None, heuristics=None, check: int = 0, check_games: int = 20_000,
                   opts: RunOptions = RunOptions()) -> Iterator[str]:
    rules = rules or SPEC.rules()
    B.check_rules(rules)
    a, b = B.check_state(scores, deals_left, rules)
    d = B.default_dealer(rules, deals_left) if dealer is None else int(dealer)
    if not 0 <= d <= 3:
        raise TricksimError(f"--dealer must be a seat 0..3, got {d}")
    specs = no_pimc(SPEC.parse_seats(heuristics), "equity")
    run = B.outcomes_run(seed, deals, rules, specs)
    opts = with_folder(opts, KEY, "equity", run)
    c, src = B.counts(seed, deals, rules, specs, opts, run=run)
    df = B.equity(c, (a, b), deals_left, d, rules, seed=seed)
    write_table(df, opts.out, "equity_state")
    yield (f"Boomke Wies at {a}-{b} with {deals_left} deal{'s' if deals_left != 1 else ''} left of "
           f"{rules.match_deals}, seat {d} deals next, {', '.join(sorted({s.label for s in specs}))}")
    yield plain_table(pd.DataFrame({"team": df.team, "points": df.points,
                        "P(win the match) [95% CI]": [pct(p, lo, hi, 2) for p, lo, hi in
                                                      zip(df.p_win, df.win_lo, df.win_hi)],
                        "P(draw) [95% CI]": [pct(p, lo, hi, 2) if p > 0 or hi > 0 else "none"
                                             for p, lo, hi in zip(df.p_draw, df.draw_lo, df.draw_hi)],
                        "expected final lead": [pm(m, (h - lo) / 2, 2) for m, lo, h in
                                                zip(df.exp_final_diff, df.diff_lo, df.diff_hi)]}))
    if not (df.p_draw > 0).any() and not (df.draw_hi > 0).any():
        yield _draw_note(c, rules)
    yield (f"per-deal points difference by dealer from {int(df.deals_measured[0]):,} deals ({src}); "
           f"intervals: parametric bootstrap ({B.BOOT} redraws of the counts)")
    p, _ = B.decode_boomke(c)
    png = Path(opts.out) / "equity_heatmap.png"
    _heat_png(p, rules, lambda n: B.default_dealer(rules, n), png, (a - b, deals_left))
    yield f"heatmap of P(team 0 wins) over the points difference and the deals left: {png}"
    if check:
        chk = B.check(c, rules, check, check_games, seed, specs)
        write_table(chk, opts.out, "equity_check")
        yield (f"\ncheck: the rest of the match simulated from {check} sampled states ({check_games:,} matches each, "
               f"seed + 1): {int(chk.inside.sum())} of {check} table values inside the 95% interval of the difference")
        yield plain_table(pd.DataFrame({"scores": chk.scores, "deals left": chk.deals_left, "dealer": chk.dealer,
                            "table": [pct_pm(p, h, 2) for p, h in zip(chk.p_table, chk.table_ci)],
                            "simulated [95% CI]": [pct(p, lo, hi, 2) for p, lo, hi in
                                                   zip(chk.p_sim, chk.sim_lo, chk.sim_hi)],
                            "inside": chk.inside}))
    yield f"\nresults in {opts.out}"
