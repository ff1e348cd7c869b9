"""Boulmous headline studies of the main job (``tricksim report``)."""
from __future__ import annotations

from pathlib import Path

from ..engine import RunOptions
from ..output import markdown_table, write_table
from .config import N_LAYOUTS
from .studies import auction_stats, compare_exact, game_stakes, inside_text, odds_classes, odds_hand
from .tables import auction_table, classes_table, exact_vs_mc_table, positions_table, stakes_table
from .views import render_odds

HEADLINE_HAND = "JH JD AH KH 9S TC"


def headline(out, quick: bool = False, progress: bool = False) -> str:
    """Boulmous headline studies into ``out/boulmous/``; returns the markdown section."""

    from ..plots import heatmap_classes

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
    cmd = (f'tricksim odds boulmous --hand "{HEADLINE_HAND}" --hands {n_odds} --seed {seed}'
           + ("".join(f" --trump {t}" for t in trumps) if trumps else " --exact"))
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
        md.append(markdown_table(exact_vs_mc_table(cmpdf)) + "\n")
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
    md.append(markdown_table(classes_table(res, min_deals=1000)) + "\n")
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
    md.append(markdown_table(auction_table(au)) + "\n")
    md.append(markdown_table(positions_table(au)) + "\n")

    # 4. whole games with money
    gs = game_stakes(seed, n_games, opts=RunOptions(runs / "boulmous-headline-stakes", progress=progress, force=True))
    write_table(gs["seats"], d, "game_stakes")
    md.append("### Whole games to 21 with the money settlement\n")
    md.append(f"Regenerate: `tricksim stakes boulmous --games {n_games} --seed {seed}`\n")
    md.append(f"{gs['games']:,} games, {gs['mean_deals']:.1f} deals per game on average; seat 0 deals first. "
              "Stakes: the winner collects 1 from each other player plus 1 per box (failed contract) each made; "
              "a boulmous moves 1 per opponent at once.\n")
    md.append(markdown_table(stakes_table(gs)) + "\n")
    return "\n".join(md)
