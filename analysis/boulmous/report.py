"""Boulmous headline studies of the main job (``tricksim report``)."""
from __future__ import annotations

from pathlib import Path

from ..engine import RunOptions
from ..output import markdown_table, pct, pm, write_table
from ..pages import Section
from ..stats import wilson
from .config import N_LAYOUTS
from .studies import auction_stats, compare_exact, game_stakes, inside_text, odds_classes, odds_hand
from .tables import auction_table, classes_table, exact_vs_mc_table, positions_table, stakes_table
from .views import render_odds

HEADLINE_HAND = "JH JD AH KH 9S TC"


def hand_answer(res: dict) -> tuple[str, str]:
    """The headline hand's best call, its chance to make, and what passing is worth (``res``: ``odds_hand``)."""
    b = res["best"].iloc[0]
    q = f"What should I call with {HEADLINE_HAND}, first to speak?"
    how = "exact, over every layout of the other hands" if res["exact"] else f"{res['n']:,} deals"
    if b.best_call == "pass":
        return q, f"Pass: it is worth {b.exp_value:+.3f} points plus stakes per deal, more than any bid ({how})."
    bid, trump = b.best_call.split()
    r = res["calls"][(res["calls"].trump == trump) & (res["calls"].bid == int(bid))].iloc[0]
    made = pct(r.p_make) if res["exact"] else pct(r.p_make, r.ci_low, r.ci_high)
    pas = res["pass"].iloc[0].exp_points if len(res["pass"]) else float("nan")
    suit = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs", "NT": "no-trump"}.get(trump, trump)
    return q, (f"**{bid} in {suit}**: made {made} ({how}), worth {b.exp_value:+.3f} points plus stakes per deal, "
               f"against {pas:+.3f} for passing.")


def class_answer(res: dict, bid: int = 4, min_deals: int = 1000) -> tuple[str, str]:
    """Which hand classes make ``bid`` more often than not (the interval's lower end above 50%)."""
    t = res["by_trumps_bowers"]
    t = t[t.n >= min_deals]
    p, lo, hi = f"p{bid}", f"p{bid}_lo", f"p{bid}_hi"
    sure = t[t[lo] > 0.5]
    names = [f"{r.trumps} trumps with {r.bowers} bower{'s' if r.bowers != 1 else ''} "
             f"({pct(getattr(r, p), getattr(r, lo), getattr(r, hi))})" for r in sure.itertuples()]
    near = t[(t[lo] <= 0.5) & (t[hi] > 0.3)].sort_values(p, ascending=False).head(2)
    text = (f"A {bid} is made more often than not only with {', '.join(names)}" if names
            else f"No hand class makes a {bid} more often than not")
    if len(near):
        text += "; close behind: " + ", ".join(f"{r.trumps} trumps with {r.bowers} bower{'s' if r.bowers != 1 else ''} "
                                                f"({pct(getattr(r, p), getattr(r, lo), getattr(r, hi))})"
                                                for r in near.itertuples())
    return f"How strong must a hand be to bid {bid}?", text + f" (the first to speak as taker, {res['n']:,} deals; trumps include the bowers)."


def auction_answer(au: dict) -> tuple[str, str]:
    c = au["contracts"].set_index("contract")
    pos = au["positions"]
    three, allpass = c.loc[3], c.loc["all pass"] if "all pass" in c.index else None
    first, last = pos.iloc[0], pos.iloc[-1]
    text = (f"Most auctions stop at 3 ({pct(three.freq, three.freq_lo, three.freq_hi)} of deals, made "
            f"{pct(three.p_made, three.made_lo, three.made_hi)})")
    if allpass is not None:
        text += f"; all four pass on {pct(allpass.freq, allpass.freq_lo, allpass.freq_hi)}"
    text += (f". Speaking first is worth {pm(first.mean_points, first.ci)} points per deal, the dealer's seat "
             f"{pm(last.mean_points, last.ci)}.")
    return "How do auctions end, and does the seat matter?", text


def stakes_answer(gs: dict) -> tuple[str, str]:
    """Whether any seat's share of whole games won differs from a quarter: Wilson intervals at 95%
    simultaneous over the four seats (Bonferroni: each at 98.75%)."""
    s = gs["seats"]
    z = 2.4977    # two-sided 1.25%
    rows = [(r.seat, *wilson(round(r.p_win * r.games), r.games, z)) for r in s.itertuples()]
    off = [seat for seat, _, lo, hi in rows if lo > 0.25 or hi < 0.25]
    text = (f"Over {gs['games']:,} whole games to 21 (seat 0 dealing first) the seats win "
            + ", ".join(pct(r.p_win, r.win_lo, r.win_hi) for r in s.itertuples()) + " of games: "
            + ("no seat's share differs from 25% (tested at 95% simultaneous over the four seats)." if not off else
               "seat(s) " + ", ".join(map(str, off)) + " differ from 25% (tested at 95% simultaneous over the four seats)."))
    return "Over a whole game, does the seat matter?", text


def headline(out, quick: bool = False, progress: bool = False) -> Section:
    """Boulmous headline studies into ``out/boulmous/``; returns the page's section and short answers."""

    from ..plots import heatmap_classes

    out = Path(out)
    d = out / "boulmous"
    d.mkdir(parents=True, exist_ok=True)
    runs = out / "runs"
    n_cls = 50_000 if quick else 4_000_000
    n_odds = 20_000 if quick else 400_000
    n_games = 2_000 if quick else 100_000
    seed = 2026
    md = ["## Boulmous: what to bid, how strong a hand must be, how auctions and games end\n"]
    answers = []

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
    answers.append(hand_answer(ex if ex is not None else mc))

    # 2. random deals by hand class
    res = odds_classes(seed, n_cls, opts=RunOptions(runs / "boulmous-headline-classes", progress=progress, force=True))
    write_table(res["classes"], d, "classes")
    write_table(res["by_trumps_bowers"], d, "by_trumps_bowers")
    heatmap_classes(res["by_trumps_bowers"], d / "classes_heatmap.png", res["n"])
    answers.append(class_answer(res))
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
    answers.append(auction_answer(au))
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
    answers.append(stakes_answer(gs))
    return Section("\n".join(md), answers)
