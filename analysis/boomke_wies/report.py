"""Boomke Wies headline studies of the main job (``tricksim report``)."""
from __future__ import annotations

from pathlib import Path

from ..common import TricksimError
from ..engine import RunOptions
from ..output import markdown_table, no_interval, pct, pm, write_table
from ..pages import Section
from . import equity as EQ
from .dd import _endplay, dd_deals
from .equity_views import boomke_command
from .studies import auction_stats, odds_classes, odds_hand
from .tables import calls_table, class_tables, contracts_table, dd_bid_table, dd_contract_table, points_text
from .views import plot_classes, plot_contracts, plot_dd, plot_tricks

EXAMPLE_HAND = "AS KS QS JS 9S 7S AH KH 4H AD 3D 5C 2C"


def auction_answer(res: dict) -> tuple[str, str]:
    c = res["contracts"]
    c = c[c.declared > 0].sort_values("freq", ascending=False)
    parts = [f"{r.contract}{' tricks' if str(r.contract).isdigit() else ''} on {pct(r.freq, r.freq_lo, r.freq_hi)} of deals (made {pct(r.p_made, r.made_lo, r.made_hi)})"
             for r in c.head(3).itertuples()]
    return "Which contracts are played, and how often are they made?", (
        "With every seat playing `partner`: " + "; ".join(parts) + f" ({res['n']:,} deals).")


def class_answer(cls: dict, bid: int = 9) -> tuple[str, str]:
    """The shortest longest suit, and the fewest high-card points, with which the first to speak's team
    takes ``bid`` tricks more often than not (the interval's lower end above 50%)."""
    p, lo, hi = f"p{bid}", f"p{bid}_lo", f"p{bid}_hi"
    parts = []
    for key, what in (("by_longest", "longest_suit"), ("by_hcp", "hcp")):
        t = cls[key]
        ok = t[t[lo] > 0.5]
        if len(ok):
            r = ok.iloc[0]
            label = f"a {int(r[what])}-card suit" if what == "longest_suit" else f"{r[what]} high-card points"
            parts.append(f"{label} ({pct(r[p], r[lo], r[hi])}, {int(r.n):,} deals)")
    text = (f"The team of the first to speak, declaring its longest suit, takes {bid} tricks more often than not "
            f"from " + " or from ".join(parts) + " upwards" if parts else
            f"No class of longest suit or high-card points takes {bid} tricks more often than not")
    return f"How long a suit, or how many points, for {bid} tricks?", text + " (A4 K3 Q2 J1)."


def hand_answer(oh: dict) -> tuple[str, str]:
    b = oh["best"]
    calls = b.best_call.unique()
    if len(calls) == 1:
        r = b.iloc[0]
        text = f"**{r.best_call}** from every seat ({pm(r.exp_net, r.net_ci)} points net per deal, {oh['n']:,} deals)."
    else:
        text = "; ".join(f"{r.position}: **{r.best_call}** ({pm(r.exp_net, r.net_ci)})" for r in b.itertuples()) + \
            f" ({oh['n']:,} deals)."
    return f"What should I call with {EXAMPLE_HAND}?", text


def dd_answer(dd: dict) -> tuple[str, str]:
    t = dd["by_bid"]
    t = t.set_index(t.bid.astype(str))
    parts = []
    for b in ("7", "10"):
        if b in t.index:
            r = t.loc[b]
            sig = "significant" if abs(r.gap) > r.gap_ci else "not significant"
            parts.append(f"{b} tricks {pct(r.p_heuristic, r.heur_lo, r.heur_hi)} under the heuristics and "
                         f"{pct(r.p_double_dummy, r.dd_lo, r.dd_hi)} open-handed (gap {100 * r.gap:+.1f} ± "
                         f"{100 * r.gap_ci:.1f} percentage points, {sig})")
    return ("How far are the heuristics' odds from perfect (open-hand) play?",
            f"On the same {dd['deals']:,} deals the declaring team reaches " + "; ".join(parts) + ".")


def headline(out, quick: bool = False, progress: bool = False) -> Section:
    """Boomke Wies headline studies into ``out/boomke_wies/``: how auctions end, success by
    hand class, the example hand's bid odds, and heuristic vs double-dummy success."""
    out = Path(out)
    d = out / "boomke_wies"
    d.mkdir(parents=True, exist_ok=True)
    runs = out / "runs"
    seed = 2026
    n_deals = 20_000 if quick else 2_000_000
    n_hand = 5_000 if quick else 200_000
    n_dd = 20 if quick else 200
    answers = []
    md = ["## Boomke Wies: partnership bid odds, with open-hand (double-dummy) play beside them\n",
          "Default rules (docs/RULES.md section 2), every seat playing the default heuristic `partner`, seed "
          f"{seed}. Every rate has its 95% Wilson interval and sample size.\n"]
    # 1. auctions
    res = auction_stats(seed, n_deals, opts=RunOptions(runs / "boomke_wies-headline-deals", progress=progress, force=True))
    write_table(res["contracts"], d, "contracts")
    write_table(res["by_class"], d, "contracts_by_class")
    write_table(res["points"], d, "points_by_position")
    plot_contracts(res["contracts"], d / "contracts.png", res["n"])
    md.append("### How auctions end\n")
    md.append(f"Regenerate: `tricksim odds boomke-wies --hands {n_deals} --seed {seed}`\n")
    md.append(f"{res['n']:,} random deals, dealer = deal index mod 4, {res['seconds']:.1f} s.\n\n" + markdown_table(contracts_table(res)) + "\n")
    md.append("Mean points per deal by seat position: " + points_text(res) + ".\n")
    md.append("![contracts](boomke_wies/contracts.png)\n")
    answers.append(auction_answer(res))
    # 2. classes
    cls = odds_classes(seed, n_deals, opts=RunOptions(runs / "boomke_wies-headline-classes", progress=progress, force=True))
    for k in ("by_longest", "by_hcp", "grid"):
        write_table(cls[k], d, f"classes_{k}")
    plot_classes(cls["grid"], d / "classes.png", cls["n"])
    md.append("### Success by hand class\n")
    md.append(f"Regenerate: `tricksim odds boomke-wies --hands {n_deals} --seed {seed}` (the same command)\n")
    md.append(f"The first to speak declares and opens its longest suit (so makes it trumps); {cls['n']:,} random "
              "deals; the chance its team takes at least b tricks, by its longest suit and by its high-card points "
              "(A4 K3 Q2 J1).\n")
    for tab in class_tables(cls, bids=(7, 9, 10, 13)).values():
        md.append(markdown_table(tab) + "\n")
    md.append("![classes](boomke_wies/classes.png)\n")
    answers.append(class_answer(cls))
    # 3. the example hand
    oh = odds_hand(EXAMPLE_HAND, None, seed, n_hand, opts=RunOptions(runs / "boomke_wies-headline-hand", progress=progress, force=True))
    for k in ("tricks", "calls", "positions", "best"):
        write_table(oh[k], d, f"hand_{k}")
    plot_tricks(oh, d / "hand_tricks.png")
    md.append("### One hand: " + EXAMPLE_HAND + "\n")
    md.append(f"Regenerate: `tricksim odds boomke-wies --hand \"{EXAMPLE_HAND}\" --hands {n_hand} --seed {seed}`\n")
    md.append(f"{oh['n']:,} random deals of the other 39 cards; the hand's holder declares and opens each suit.\n\n"
              + markdown_table(calls_table(oh, calls=["7", "9", "10", "Boom", "Meetje"])) + "\n")
    md.append("Best call by position: " + "; ".join(f"{r.position}: **{r.best_call}** ({pm(r.exp_net, r.net_ci)} net)"
                                                    for r in oh["best"].itertuples())
              + f". The heuristic opens {oh['open_suit']}.\n")
    md.append("![hand](boomke_wies/hand_tricks.png)\n")
    answers.insert(0, hand_answer(oh))
    # 4. double dummy
    md.append("### Heuristic play beside open-hand (double-dummy) play\n")
    try:
        _endplay()
        have_dd = True
    except TricksimError as e:
        have_dd = False
        md.append(f"Skipped: {e}.\n")
    if have_dd:
        dd = dd_deals(seed, n_dd, opts=RunOptions(runs / "boomke_wies-headline-dd", progress=progress, force=True))
        write_table(dd["by_contract"], d, "double_dummy_by_contract")
        write_table(dd["by_bid"], d, "double_dummy_by_bid")
        plot_dd(dd["by_bid"], d / "double_dummy.png", dd["deals"], "Declaring team: heuristic vs double dummy")
        md.append(f"Regenerate: `tricksim odds boomke-wies --hands {n_deals} --seed {seed} --double-dummy "
                  f"--dd-deals {n_dd}`\n")
        md.append(f"The first {dd['deals']:,} deals of the auction study solved double dummy (DDS via endplay; same "
                  "declarer, same trumps, the declarer obliged to open the trump suit), "
                  f"{dd['deals_per_s']:.1f} deals per second on this machine. Gap = DD − heuristic success on the "
                  "same deals, in percentage points (pp), with a paired 95% interval. Open-hand play means both sides see "
                  "all cards and play perfectly; it is not a bound on the heuristics' result (against heuristic "
                  "defenders a heuristic declarer can do better, so a gap can be negative).\n")
        md.append(markdown_table(dd_bid_table(dd)) + "\n")
        md.append("By contract (made = the declaring team reaches its bid; Meetje: 7):\n\n"
                  + markdown_table(dd_contract_table(dd)) + "\n")
        (mh, hh), (mdd, hd), (mg, hg) = dd["mean_heuristic"], dd["mean_dd"], dd["mean_gap"]
        few = no_interval(dd["deals"])
        md.append(f"Mean declaring-team tricks: heuristic {pm(mh, hh, 2, sign=False, missing=few)}, double dummy "
                  f"{pm(mdd, hd, 2, sign=False, missing=few)} (gap {pm(mg, hg, 2, missing=few)}).\n")
        below = [f"{r.contract} / {r.bid}" for df in (dd["by_bid"], dd["by_contract"]) for r in df.itertuples()
                 if r.dd_below_heuristic]
        md.append("Sanity: " + ("in no row is the double-dummy success below the heuristic declaring side's by more "
                                "than the gap's 95% interval." if not below else
                                "the double-dummy success is below the heuristic's by more than the interval in "
                                + ", ".join(below) + " (heuristic defenders err more than the heuristic declarer).")
                  + "\n")
        md.append("![double dummy](boomke_wies/double_dummy.png)\n")
        answers.append(dd_answer(dd))
    return Section("\n".join(md), answers)


def trust(d, opts, quick: bool, compare, render_compare) -> str:
    """The game's part of the report's ``trust`` section (``Game.trust``): where its heuristic vs open-hand
    table is, and where its sampling player is measured (nothing is run here)."""
    return ("### Boomke Wies\n\n"
            "Heuristic play beside open-hand (double-dummy) play, by bid and by contract, is in the Boomke Wies "
            "section above (`tricksim odds boomke-wies --double-dummy`; one hand: `tricksim odds boomke-wies "
            "--hand ... --play heuristic,open`): there both partnerships see all 52 cards and play perfectly. "
            "Its sampling player `pimc` (calls and cards by sampled deals played out by partner's rules) is "
            "measured against `partner` in docs/methods/sampling.md (`tricksim compare boomke-wies partner pimc`).\n")


BOOMKE_SCORES, BOOMKE_LEFT = "7,4", 5


def equity_report(d, opts, quick: bool, compare_games, render_games) -> str:
    """The game's part of the report's ``equity`` section (``Game.equity_report``): the match equity at one state."""
    lines = [x for x in boomke_command(BOOMKE_SCORES, BOOMKE_LEFT, opts=opts("boomke"))
             if not x.lstrip().startswith("results in ") and not x.startswith("heatmap of")]
    return ("### Boomke Wies: the match\n\n"
            f"Regenerate: `tricksim equity boomke-wies --scores {BOOMKE_SCORES} --deals-left {BOOMKE_LEFT} "
            f"--deals {EQ.DEALS} --seed 0`\n\n"
            "```\n" + "\n".join(lines).strip() + "\n```\n")
