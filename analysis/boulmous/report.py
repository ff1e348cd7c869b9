"""Boulmous headline studies of the main job (``tricksim report``)."""
from __future__ import annotations

import pandas as pd

from tricksim.analysis.boulmous.config import N_LAYOUTS
from tricksim.analysis.boulmous.studies import auction_stats, compare_exact, game_stakes, inside_text, odds_classes, odds_hand
from tricksim.analysis.boulmous.views import render_odds
from tricksim.analysis.engine import RunOptions


HEADLINE_HAND = "JH JD AH KH 9S TC"


def headline(out, quick: bool = False, progress: bool = False) -> str:
    """Boulmous headline studies into ``out/boulmous/``; returns the markdown section."""
    from pathlib import Path

    from tricksim.analysis.output import markdown_table, pct, pm, write_table
    from tricksim.analysis.plots import heatmap_classes

    out = Path(out)
    d = out / "boulmous"
    d.mkdir(parents=True, exist_ok=True)
    runs = out / "runs"
    n_cls = 50_000 if quick else 4_000_000
    n_odds = 20_000 if quick else 400_000
    n_games = 2_000 if quick else 100_000
    seed = 2026
    md = ["## Boulmous\n"]

    # 1. one hand, exact and Monte Carlo
    trumps = ["H", "NT"] if quick else None
    mc = odds_hand(HEADLINE_HAND, 0, seed, n_odds, trumps=trumps, opts=RunOptions(runs / "boulmous-headline-odds", progress=progress, force=True))
    ex = None if quick else odds_hand(HEADLINE_HAND, 0, seed, exact=True)
    write_table(mc["calls"], d, "hand_odds_mc")
    cmd = f'tricksim odds boulmous --hand "{HEADLINE_HAND}" --hands {n_odds} --seed {seed}' + ("" if quick else " --exact")
    md.append(f"### Bid odds of one hand: {HEADLINE_HAND}, first to speak\n")
    md.append(f"Regenerate: `{cmd}`\n")
    md.append("All four seats play the default heuristic (`cautious`); the hand's holder takes the contract "
              "at each level with each trump; the other 18 cards are dealt at random. ")
    if ex is not None:
        write_table(ex["calls"], d, "hand_odds_exact")
        cmpdf = compare_exact(mc, ex)
        write_table(cmpdf, d, "hand_odds_mc_vs_exact")
        md.append(f"The exact column enumerates all {N_LAYOUTS:,} layouts of the other hands "
                  f"({ex['seconds']:.0f} s); the Monte Carlo column uses {mc['n']:,} random deals. "
                  f"{inside_text(cmpdf)}.\n")
        tab = pd.DataFrame({"trump": cmpdf.trump, "bid": cmpdf.bid,
                            "P(make) exact": [pct(x, digits=2) for x in cmpdf.p_make_exact],
                            "Monte Carlo [95% CI]": [pct(a, b, c) for a, b, c in zip(cmpdf.p_make_mc, cmpdf.ci_low, cmpdf.ci_high)],
                            "inside CI": cmpdf.inside_ci, "E[points] exact": cmpdf.exp_points_exact.round(3)})
        md.append(markdown_table(tab) + "\n")
        p = ex["pass"].iloc[0]
        b = ex["best"].iloc[0]
        md.append(f"Passing instead (the others bid on, this seat defends): expected points {p.exp_points:+.3f} "
                  f"(exact). **Best call: {b.best_call}** (by expected points plus stakes: {b.exp_value:+.3f}; "
                  f"points {b.exp_points:+.3f}, stakes {b.exp_stakes:+.3f}).\n")
    else:
        md.append("\n```\n" + render_odds(mc) + "\n```\n")

    # 2. random deals by hand class
    res = odds_classes(seed, n_cls, opts=RunOptions(runs / "boulmous-headline-classes", progress=progress, force=True))
    write_table(res["classes"], d, "classes")
    write_table(res["by_trumps_bowers"], d, "by_trumps_bowers")
    heatmap_classes(res["by_trumps_bowers"], d / "classes_heatmap.png", res["n"])
    md.append("### How often a contract is made, by hand class\n")
    md.append(f"Regenerate: `tricksim odds boulmous --hands {n_cls} --seed {seed}`\n")
    md.append(f"{res['n']:,} random deals. The first to speak is made taker at every level with the trump suit its "
              "heuristic prefers (no-trump choices, a minority, are left out) and the table counts how often the "
              "tricks it then takes reach each bid. Trumps held include the bowers.\n")
    md.append("![Boulmous success by hand class](boulmous/classes_heatmap.png)\n")
    bt = res["by_trumps_bowers"]
    bt = bt[bt.n >= 1000]
    md.append(markdown_table(pd.DataFrame({"trumps": bt.trumps, "bowers": bt.bowers, "deals": [f"{x:,}" for x in bt.n],
                                **{f"bid {b}": [pct(getattr(r, f"p{b}"), getattr(r, f"p{b}_lo"), getattr(r, f"p{b}_hi"))
                                                for r in bt.itertuples()] for b in range(3, 7)}})) + "\n")
    md.append("(Classes with fewer than 1,000 deals omitted here; all are in `boulmous/by_trumps_bowers.csv`, "
              "and by side aces too in `boulmous/classes.csv`. Rows with one or two trumps are a selected few: the "
              "heuristic names such a short trump suit only when its side cards are strong, which is why one "
              "trump can do better than two.)\n")

    # 3. auctions
    au = auction_stats(seed, n_cls, opts=RunOptions(runs / "boulmous-headline-auction", progress=progress, force=True))
    write_table(au["contracts"], d, "auction_contracts")
    write_table(au["positions"], d, "auction_positions")
    md.append("### How auctions end (all seats `cautious`)\n")
    md.append(f"Regenerate: `tricksim odds boulmous --hands {n_cls} --seed {seed}` (printed after the class table).\n")
    c = au["contracts"]
    md.append(markdown_table(pd.DataFrame({"contract": c.contract, "frequency": [pct(a, b, e, 2) for a, b, e in zip(c.freq, c.freq_lo, c.freq_hi)],
                                "made": [pct(a, b, e) if a == a else "-" for a, b, e in zip(c.p_made, c.made_lo, c.made_hi)],
                                "deals": [f"{x:,}" for x in c.n_deals]})) + "\n")
    pos = au["positions"]
    md.append(markdown_table(pd.DataFrame({"position": pos.position, "mean points per deal": [pm(a, b) for a, b in zip(pos.mean_points, pos.ci)]})) + "\n")

    # 4. whole games with money
    gs = game_stakes(seed, n_games, opts=RunOptions(runs / "boulmous-headline-stakes", progress=progress, force=True))
    write_table(gs["seats"], d, "game_stakes")
    s = gs["seats"]
    md.append("### Whole games to 21 with the money settlement\n")
    md.append(f"Regenerate: `tricksim stakes boulmous --games {n_games} --seed {seed}`\n")
    md.append(f"{gs['games']:,} games, {gs['mean_deals']:.1f} deals per game on average; seat 0 deals first. "
              "Stakes: the winner collects 1 from each other player plus 1 per box (failed contract) each made; "
              "a boulmous moves 1 per opponent at once.\n")
    md.append(markdown_table(pd.DataFrame({"seat": s.seat, "stakes per game": [pm(a, b) for a, b in zip(s.mean_stakes, s.stakes_ci)],
                                "P(win)": [pct(a, b, e) for a, b, e in zip(s.p_win, s.win_lo, s.win_hi)],
                                "boxes per game": s.boxes_per_game.round(3)})) + "\n")
    return "\n".join(md)
