"""``tricksim equity``: the text, tables and heatmap of the match equity studies (yielded, never printed)."""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pandas as pd

from ...common import TricksimError
from ...engine import RunOptions
from ...output import PP, mean_interval, pct, pct_pm, plain_table, pm, with_folder, write_table
from ...stats import wilson
from ..config import KEY, check_seat, parse_hand
from ..spec import SPEC
from . import decide as D
from . import studies as S
from . import table as E


def _heat_png(grid: pd.DataFrame, seats, scores, dealer, target, path: Path, title: str):
    """P(seat a wins) over the scores of seats a and b (the others fixed), numbered in % (every other cell
    on a large grid, and always the state asked about, which is also framed).  Returns the numbers
    written, as (x, y, text)."""
    from ...plots import plt
    a, b = seats
    xs = sorted(grid[f"score{a}"].unique())
    ys = sorted(grid[f"score{b}"].unique())
    m = grid.pivot(index=f"score{b}", columns=f"score{a}", values="p_win").reindex(index=ys, columns=xs).to_numpy()
    fig, ax = plt.subplots(figsize=(9.5, 8))
    im = ax.imshow(m, origin="lower", cmap="RdYlGn", vmin=0, vmax=1, aspect="auto",
                   extent=(xs[0] - 0.5, xs[-1] + 0.5, ys[0] - 0.5, ys[-1] + 0.5))
    here = (scores[a], scores[b])
    labels = []
    for j, y in enumerate(ys):
        for i, x in enumerate(xs):
            v = m[j, i]
            if (x, y) == here:     # the state asked about: always numbered, in bold on a white patch
                labels.append((x, y, f"{100 * v:.0f}"))
                ax.text(x, y, f"{100 * v:.0f}", ha="center", va="center", fontsize=8, fontweight="bold",
                        color="black", bbox=dict(boxstyle="square,pad=0.15", fc="white", ec="none", alpha=0.85),
                        zorder=5)
            elif (x + y) % 2 == 0 or len(xs) <= 12:
                labels.append((x, y, f"{100 * v:.0f}"))
                ax.text(x, y, f"{100 * v:.0f}", ha="center", va="center", fontsize=6.5,
                        color="black" if 0.15 < v < 0.85 else "white")
    ax.plot([here[0]], [here[1]], marker="s", ms=14, mfc="none", mec="black", mew=2, zorder=6)
    ax.set_xlabel(f"score of seat {a}")
    ax.set_ylabel(f"score of seat {b}")
    others = ", ".join(f"seat {s} at {scores[s]}" for s in range(4) if s not in seats)
    ax.set_title(f"{title}\n{others}; seat {dealer} deals next; square: the state asked about; cells in %", fontsize=10)
    cb = fig.colorbar(im, ax=ax, shrink=0.85, label=f"P(seat {a} wins the game)")
    from matplotlib import ticker
    cb.ax.yaxis.set_major_formatter(ticker.PercentFormatter(xmax=1, decimals=0))
    ax.set_xticks(xs[::2] if len(xs) > 12 else xs)
    ax.set_yticks(ys[::2] if len(ys) > 12 else ys)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)
    return labels


def boulmous_command(scores: str, dealer: int = 0, seed: int = 0, deals: int = E.DEALS, rules=None,
                     heuristics=None, boxes: str | None = None, heat: str = "0,1", check: int = 0,
                     check_games: int = 20_000, opts: RunOptions = RunOptions()) -> Iterator[str]:
    """``tricksim equity boulmous``: each seat's chance to win the game (and money) from one score state,
    the heatmap over two seats' scores, optionally the check against simulated whole games."""
    rules = rules or SPEC.rules()
    E.check_rules(rules)
    sc = E.parse_scores(scores, 4, rules.target, E.FLOOR)
    bx = [0, 0, 0, 0] if boxes is None else E.parse_scores(boxes, 4, 10 ** 9, 0, "--boxes")
    if not 0 <= dealer <= 3:
        raise TricksimError(f"--dealer must be a seat 0..3, got {dealer}")
    hs = E.parse_scores(heat, 2, 4, 0, "--heatmap")
    if hs[0] == hs[1]:
        raise TricksimError("--heatmap needs two different seats, e.g. 0,1")
    specs = SPEC.parse_seats(heuristics)
    S.same_heuristic(specs)
    run = S.outcomes_run(seed, deals, rules, specs)
    opts = with_folder(opts, KEY, "equity", run)
    t = S.boulmous_table(seed, deals, rules, specs, opts, run=run)
    df = S.state_frame(t, sc, dealer, bx)
    write_table(df, opts.out, "equity_state")
    how = {"computed": "measured and built now", "built": "built now from the cached outcome counts",
           "disk": "loaded from the cache", "memory": "in memory",
           "shipped": "built now from the outcome counts shipped with tricksim"}[t.source]
    yield (f"Boulmous at {','.join(map(str, sc))} (seats 0-3), seat {dealer} deals next, game to {rules.target}, "
           f"{specs[0].label} in every seat" + (f", boxes so far {','.join(map(str, bx))}" if any(bx) else ""))
    yield plain_table(pd.DataFrame({"seat": df.seat, "score": df.score, "deals": ["yes" if d else "" for d in df.deals],
                        "P(win the game) [95% CI]": [pct(p, lo, hi, 2) for p, lo, hi in
                                                     zip(df.p_win, df.win_lo, df.win_hi)],
                        "expected money (stakes)": [pm(m, h) for m, h in zip(df.money, df.money_ci)]}
                       ))
    if not t.money_ok:
        yield "(money: not computed under tie_break=shared_win)"
    yield (f"table: {t.L ** 4:,} states (each score {t.floor}..{t.ceil}, every dealer by rotation), "
           f"{len(t.dist['prob'])} distinct deal outcomes from {t.dist['n']:,} deals, value iteration "
           f"{t.seconds:.1f} s ({t.sweeps} sweep{'s' if t.sweeps > 1 else ''}), {how}; intervals: delta method "
           "over the sampled outcome distribution")
    grid = S.heat_grid(t, sc, dealer, hs)
    write_table(grid, opts.out, "equity_heatmap")
    png = Path(opts.out) / "equity_heatmap.png"
    _heat_png(grid, hs, sc, dealer, rules.target,
              png, f"Boulmous: chance seat {hs[0]} wins the game to {rules.target} ({specs[0].label})")
    yield f"heatmap of P(seat {hs[0]} wins) over the scores of seats {hs[0]} and {hs[1]}: {png}"
    if check:
        chk = S.check_boulmous(t, check, check_games, seed, specs)
        write_table(chk, opts.out, "equity_check")
        k = int(chk.inside.sum())
        yield (f"\ncheck: whole games simulated from {check} sampled states ({check_games:,} games each, seed + 1): "
               f"{k} of {check} table values inside the 95% interval of the difference")
        yield plain_table(pd.DataFrame({"scores": chk.scores, "dealer": chk.dealer, "seat": chk.seat,
                            "table": [pct_pm(p, h, 2) for p, h in zip(chk.p_table, chk.table_ci)],
                            "simulated [95% CI]": [pct(p, lo, hi, 2) for p, lo, hi in
                                                   zip(chk.p_sim, chk.sim_lo, chk.sim_hi)],
                            "inside": chk.inside}))
    yield f"\nresults in {opts.out}"


def odds_scores_command(hand: str | None, seat: int | None, scores: str, hands: int | None = None, seed: int = 0,
                        heuristics=None, rules=None, trumps=None, opts: RunOptions = RunOptions()) -> Iterator[str]:
    """``tricksim odds boulmous --hand ... --scores ...``: the hand's calls ranked by the chance to win the game."""
    if hand is None:
        raise TricksimError("--scores needs --hand: it ranks one hand's calls by the chance to win the game")
    rules = rules or SPEC.rules()
    E.check_rules(rules)
    cards = parse_hand(hand)
    seat = check_seat(0 if seat is None else seat)
    sc = E.parse_scores(scores, 4, rules.target, E.FLOOR)
    specs = SPEC.parse_seats(heuristics)
    S.same_heuristic(specs)
    hands = hands or 200_000
    run = D.odds_run(cards, seat, seed, hands, rules, specs)
    opts = with_folder(opts, KEY, "odds_scores", run)
    res = D.odds_scores(cards, seat, sc, seed, hands, rules, specs, trumps, opts, run=run)
    df = res["calls"]
    write_table(df, opts.out, "odds_scores")
    yield (f"Boulmous hand {hand.upper()} in seat {seat} (0 = dealer's left, 3 = dealer) at scores "
           f"{','.join(map(str, sc))} (same seats), game to {rules.target}, {specs[0].label} in every seat, "
           f"{res['n']:,} deals")
    yield (f"before the deal (hand unknown) seat {seat} wins the game with {pct(res['before'], digits=2)}, "
           f"expected money {res['money_before']:+.3f}")
    top = df.head(12)
    yield plain_table(pd.DataFrame({"call": top.call, "P(make) [95% CI]": [pct(*wilson(round(p * n), n)) if p == p else ""
                                                               for p, n in zip(top.p_make, top.n)],
                        "P(win the game) [95% CI]": [pct(p, lo, hi, 2) for p, lo, hi in
                                                     zip(top.p_win_game, top.win_lo, top.win_hi)],
                        "change": [f"{100 * c:+.2f} pp" for c in top.change],
                        "expected money [95% CI]": [mean_interval(m, lo, hi) for m, lo, hi in
                                                    zip(top.money, top.money_lo, top.money_hi)]}))
    best = df.iloc[0]
    bym = df.sort_values(["money", "bid"], ascending=[False, True]).iloc[0]
    yield (f"best call by the chance to win the game: {best.call}; by money: {bym.call}"
           + (f" ({len(df) - len(top)} more calls in the table)" if len(df) > len(top) else ""))
    t = res["table"]
    yield (f"(equity table: {t.dist['n']:,} measured deals, {t.source}; intervals from the hand's deals only: the "
           f"table's own error is common to every call); change: P(win the game) minus before the deal, {PP}\nresults in {opts.out}")
