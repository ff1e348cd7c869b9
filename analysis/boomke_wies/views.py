"""Boomke Wies views: the studies' tables as terminal text, their plots, and the commands of the
CLI (``odds``, ``stakes``), which run the studies, write the run folder and yield the text cli.py prints."""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

import numpy as np
import pandas as pd

from ..common import TricksimError
from ..engine import RunOptions
from ..output import PP, no_interval, pct, plain_table, pm, show, with_folder, write_table
from .config import HCP_BUCKETS, KEY, BoomkeRules, _bucket_name, _positions, _trump, no_pimc, parse_hand
from .dd import _endplay, dd_deals, dd_hand
from .play import PLAY_HANDS, check_open_extra, odds_play, odds_play_run, parse_play, render_play
from .spec import SPEC
from .studies import auction_stats, deals_run, match_stats, matches_run, odds_classes, odds_hand, odds_run
from .tables import class_tables, contracts_table, matches_table, points_text


def render_odds(res) -> str:
    lines = [f"Boomke Wies hand {res['hand']}: {res['n']:,} random deals of the other 39 cards; heuristics "
             f"{', '.join(sorted(set(res['heuristics'])))}; every row is the hand's holder declaring and opening "
             "that suit (so making it trumps), partner and opponents playing the heuristics."]
    tr = res["tricks"]
    rows = []
    for r in tr.itertuples():
        rows.append({"trump": r.trump, "E[team tricks]": pm(r.mean_tricks, r.mean_ci, 2, sign=False),
                     **{str(T): f"{100 * getattr(r, f'P{T}'):.1f}" for T in range(4, 14)}})
    lines.append("\nTeam tricks (% of deals with exactly T tricks, T = 4..13; the same in every seat position, "
                 "since once the hand declares the play does not depend on who dealt):")
    lines.append(plain_table(pd.DataFrame(rows)))
    rows = []
    for r in res["calls"].itertuples():
        rows.append({"trump": r.trump, "call": r.call + (" (dealer)" if r.dealer_only else ""),
                     "P(make) [95% CI]": pct(r.p_make, r.ci_low, r.ci_high), "n": f"{r.n:,}",
                     "E[points]": pm(r.exp_points, r.points_ci, 3), "E[net]": pm(r.exp_net, r.net_ci, 3)})
    lines.append("\nCalls (P(make) = team takes at least the bid; Meetje: at least 7; points by the scoring table, "
                 "graded by tricks taken; net = ours minus the opponents'):")
    lines.append(plain_table(pd.DataFrame(rows)))
    rows = []
    for r in res["positions"].itertuples():
        rows.append({"position": r.position_name,
                     "pass: E[net]": pm(r.pass_net, r.pass_net_ci, 3),
                     "heuristic: E[net]": pm(r.heuristic_net, r.heuristic_net_ci, 3),
                     "heuristic: hand declares": pct(r.p_hand_declares, r.hand_declares_lo, r.hand_declares_hi),
                     "partner declares": pct(r.p_partner_declares, r.partner_declares_lo, r.partner_declares_hi)})
    lines.append("\nBy position (pass = the hand passes at its first turn and the others bid on; as dealer after three "
                 "passes it must call, and calls by its heuristic; heuristic = the whole auction by the heuristics):")
    lines.append(plain_table(pd.DataFrame(rows)))
    lines.append("\nBest call per position (highest expected net points; a call is assumed to end the auction):")
    for r in res["best"].itertuples():
        lines.append(f"  {r.position}: {r.best_call} ({pm(r.exp_net, r.net_ci, 3)} net points)")
    lines.append(f"Best trump (opening suit) for a 7 bid: {res['best_trump']}; the heuristic itself opens "
                 f"{res['open_suit']}.")
    return "\n".join(lines)


def render_dd(res, kind: str) -> str:
    tab = res["table"] if kind == "hand" else res["by_contract"]
    key = "trump" if kind == "hand" else "contract"
    rows = []
    for r in tab.itertuples():
        rows.append({key: getattr(r, key), "bid": r.bid, "n": f"{r.n:,}",
                     "heuristic [95% CI]": pct(r.p_heuristic, r.heur_lo, r.heur_hi),
                     "double dummy [95% CI]": pct(r.p_double_dummy, r.dd_lo, r.dd_hi),
                     "gap DD - heur.": pm(100 * r.gap, 100 * r.gap_ci, 1) + " pp"})
    rate = res["deals_per_s"]
    if rate == rate:
        speed = f"{rate:,.1f} deals per second here ({res['seconds']:.0f} s"
        if kind == "hand":
            speed += f"; {res['solves_per_s']:,.1f} solves per second, one per opening suit"
        speed += ")"
    else:
        speed = "every block reused from the run folder"
    of = res.get("of")
    where = (f"on the first {res['deals']:,} of the {of:,} deals above" if of is not None and of != res["deals"]
             else f"on the same {res['deals']:,} deals" if of is not None else f"on {res['deals']:,} deals")
    if res.get("requested") is not None and res["requested"] > res["deals"]:
        where += f" ({res['requested']:,} asked for: no more than the deals dealt)"
    head = f"Open-hand (double-dummy) play (DDS via endplay) {where}: {speed}"
    lines = [head, plain_table(pd.DataFrame(rows))]
    below = tab[tab.dd_below_heuristic] if len(tab) else tab
    if len(below):
        lines.append(f"Note: in {len(below)} row(s) the double-dummy success is below the heuristic's by more than the "
                     "gap's interval (the heuristic defenders err more often than the heuristic declarer).")
    if kind == "deals":
        lines.append("\nAll deals, the declaring team taking at least b tricks:")
        rows = []
        for r in res["by_bid"].itertuples():
            rows.append({"b": r.bid, "heuristic": pct(r.p_heuristic, r.heur_lo, r.heur_hi),
                         "double dummy": pct(r.p_double_dummy, r.dd_lo, r.dd_hi),
                         "gap": pm(100 * r.gap, 100 * r.gap_ci, 1) + " pp"})
        lines.append(plain_table(pd.DataFrame(rows)))
        (mh, hh), (md, hd), (mg, hg) = res["mean_heuristic"], res["mean_dd"], res["mean_gap"]
        few = no_interval(res["deals"])
        lines.append(f"Mean declaring-team tricks: heuristic {pm(mh, hh, 2, sign=False, missing=few)}, double dummy "
                     f"{pm(md, hd, 2, sign=False, missing=few)}, gap {pm(mg, hg, 2, missing=few)}.")
    lines.append("(open-hand, double-dummy play: both sides see all cards and play perfectly. It is not a bound on the "
                 "heuristics' result: against heuristic defenders a heuristic declarer can do better.)")
    lines.append("('gap' = double-dummy minus heuristic success on the same deals, with its paired 95% interval; "
                 f"{PP})")
    return "\n".join(lines)


def _yerr(p, lo, hi):
    """Error bars from an interval (never negative: Wilson bounds at 0 or 1 can round)."""
    p = np.asarray(p, float)
    return [np.maximum(p - np.asarray(lo, float), 0), np.maximum(np.asarray(hi, float) - p, 0)]


def plot_tricks(res, path: Path):
    from ..plots import plt
    fig, ax = plt.subplots(figsize=(8, 4.2))
    T = np.arange(14)
    tr = res["tricks"]
    w = 0.8 / max(len(tr), 1)
    for i, r in enumerate(tr.itertuples()):
        ax.bar(T + (i - (len(tr) - 1) / 2) * w, [getattr(r, f"P{t}") for t in T], width=w, label=f"opens {r.trump}")
    ax.axvline(6.5, color="grey", lw=0.8, ls="--")
    ax.set_xticks(T)
    ax.set_xlabel("tricks taken by the hand's team")
    ax.set_ylabel("share of deals")
    ax.set_title(f"{res['hand']} as declarer, {res['n']:,} random deals", fontsize=9)
    ax.legend(fontsize=8)
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)


def plot_classes(grid: pd.DataFrame, path: Path, n: int, bids=(7, 9, 10)):
    from ..plots import plt
    fig, axes = plt.subplots(1, len(bids), figsize=(5 * len(bids), 4.2), sharey=True)
    hcps = [_bucket_name(i) for i in range(len(HCP_BUCKETS))]
    # only the suit lengths with a cell to show (no row that is always blank)
    lens = sorted({r.longest_suit for r in grid.itertuples() if r.n >= 200}) or sorted(grid.longest_suit.unique())
    for ax, b in zip(axes, bids):
        g = np.full((len(lens), len(hcps)), np.nan)
        for r in grid.itertuples():
            if r.n >= 200 and r.longest_suit in lens:
                g[lens.index(r.longest_suit), hcps.index(r.hcp)] = getattr(r, f"p{b}")
        im = ax.imshow(g, origin="lower", cmap="RdYlGn", vmin=0, vmax=1, aspect="auto")
        for i in range(len(lens)):
            for j in range(len(hcps)):
                if not np.isnan(g[i, j]):
                    ax.text(j, i, f"{100 * g[i, j]:.0f}%", ha="center", va="center", fontsize=7)
        ax.set_xticks(range(len(hcps)))
        ax.set_xticklabels(hcps)
        ax.set_yticks(range(len(lens)))
        ax.set_yticklabels(lens)
        ax.set_xlabel("declarer's high-card points")
        ax.set_title(f"team takes {b}+ tricks" + (" (Boom)" if b == 13 else ""))
    axes[0].set_ylabel("declarer's longest suit")
    cb = fig.colorbar(im, ax=axes, shrink=0.8, label="P(success), %")
    from matplotlib import ticker
    cb.ax.yaxis.set_major_formatter(ticker.PercentFormatter(xmax=1, decimals=0))
    fig.suptitle(f"Boomke Wies: the first to speak declares in its longest suit, chance of success in % ({n:,} random "
                 "deals; cells with < 200 deals blank)", fontsize=9)
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)


def plot_contracts(contracts: pd.DataFrame, path: Path, n: int):
    from ..plots import plt
    fig, ax = plt.subplots(1, 2, figsize=(11, 3.8))
    x = np.arange(len(contracts))
    f = contracts.freq.to_numpy()
    ax[0].bar(x, f, yerr=_yerr(f, contracts.freq_lo, contracts.freq_hi), color="#4c72b0")
    ax[0].set_xticks(x)
    ax[0].set_xticklabels(contracts.contract)
    ax[0].set_ylabel("share of auctions")
    ax[0].set_title("final contract")
    p = contracts.p_made.to_numpy()
    ok = ~np.isnan(p)
    ax[1].bar(x[ok], p[ok], yerr=_yerr(p[ok], contracts.made_lo[ok], contracts.made_hi[ok]), color="#55a868")
    ax[1].set_xticks(x)
    ax[1].set_xticklabels(contracts.contract)
    ax[1].set_ylim(0, 1)
    ax[1].set_title("declaring team makes it (Meetje: takes 7+)")
    fig.suptitle(f"Boomke Wies auctions over {n:,} random deals (95% intervals)", fontsize=9)
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)


def plot_dd(by_bid: pd.DataFrame, path: Path, n: int, title: str):
    from ..plots import plt
    fig, ax = plt.subplots(figsize=(7, 4))
    x = np.arange(len(by_bid))
    for off, col, lab, lo, hi in ((-0.2, "p_heuristic", "heuristic play", "heur_lo", "heur_hi"),
                                  (0.2, "p_double_dummy", "double dummy", "dd_lo", "dd_hi")):
        v = by_bid[col].to_numpy()
        ax.bar(x + off, v, width=0.4, yerr=_yerr(v, by_bid[lo], by_bid[hi]), label=lab)
    ax.set_xticks(x)
    ax.set_xticklabels(by_bid.bid)
    ax.set_ylim(0, 1)
    ax.set_xlabel("tricks needed")
    ax.set_ylabel("P(declaring team takes them)")
    ax.set_title(f"{title} ({n:,} deals, 95% intervals)", fontsize=9)
    ax.legend()
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)


def render_deals(res) -> str:
    return (f"How auctions end over {res['n']:,} random deals (dealer = deal index mod 4):\n"
            + show(contracts_table(res)) + "\nMean points per deal by seat position: " + points_text(res))


def render_classes(res) -> str:
    return "\n".join([f"The first to speak declares in the suit its heuristic opens ({res['n']:,} random deals): "
                      "chance its team takes at least b tricks"] + [show(t) for t in class_tables(res).values()])


DD_HAND_DEALS = 1_000   # double-dummy deals of --hand ... --double-dummy when --dd-deals is not given
DD_DEALS = 2_000        # and of --double-dummy over random deals


def dd_count(requested: int | None, default: int, dealt: int) -> int:
    """How many deals to solve double dummy: those asked for (``--dd-deals``, else ``default``), never
    more than the deals the heuristics played (``--hands``): the double-dummy column is on the same deals."""
    return max(1, min(requested or default, int(dealt)))


def odds_command(hand: str | None = None, seat: int | None = None, trumps=None, calls=None,
                 double_dummy: bool = False, n_dd: int | None = None, hands: int | None = None, seed: int = 0,
                 heuristics=None, rules=None, until_precision: float | None = None,
                 opts: RunOptions = RunOptions(), play: str | None = None) -> Iterator[str]:
    """``tricksim odds boomke-wies``: the odds of one hand (``hand``), else how auctions end and
    success by hand class over random deals; ``double_dummy`` adds open-hand (double-dummy) play on the
    first ``n_dd`` deals; ``play`` (with ``hand``): the hand's calls under each kind of play on the same deals.
    Writes the run folder and yields the text to print."""

    rules = rules or BoomkeRules()
    specs = no_pimc(SPEC.parse_seats(heuristics), "odds")
    if play is not None:
        yield from _play_command(hand, seat, trumps, calls, double_dummy, hands, seed, specs, rules,
                                 until_precision, opts, play)
        return
    if hand is not None:
        cards = parse_hand(hand)
        _positions(seat)
        for t in trumps or ():
            _trump(t)
        if rules.variant == "no_auction":
            raise TricksimError("the odds of a hand need the bidding game: the no-auction variant has no calls")
        if double_dummy:
            _endplay()
        hands = hands or 200_000
        run = odds_run(cards, seat, seed, hands, rules, specs)
        opts = with_folder(opts, KEY, "odds", run)
        res = odds_hand(cards, seat, seed, hands, rules, specs, trumps=trumps, calls=calls or None, opts=opts,
                        until_precision=until_precision, run=run)
        for k in ("tricks", "calls", "positions", "best"):
            write_table(res[k], opts.out, k)
        plot_tricks(res, opts.out / "tricks.png")
        yield render_odds(res)
        if double_dummy:
            n = dd_count(n_dd, DD_HAND_DEALS, res["n"])
            dd = dd_hand(cards, seed, n, rules, specs, opts=opts.sub("double_dummy"))
            dd.update(of=res["n"], requested=n_dd or DD_HAND_DEALS)
            if trumps:
                dd["table"] = dd["table"][dd["table"].trump.isin([t.strip().upper() for t in trumps])]
            write_table(dd["table"], opts.out, "double_dummy")
            yield ""
            yield render_dd(dd, "hand")
        yield f"\nresults in {opts.out}"
        return
    hands = hands or 2_000_000
    run = deals_run(seed, hands, rules, specs)
    opts = with_folder(opts, KEY, "deals", run)
    if double_dummy and rules.variant == "no_auction":
        raise TricksimError("open-hand (double-dummy) play applies to the bidding game, not to the no-auction variant")
    if double_dummy:
        _endplay()
    res = auction_stats(seed, hands, rules, specs, opts.sub("auction"), run=run)
    for k in ("contracts", "declarer_positions", "points", "by_class"):
        write_table(res[k], opts.out, k)
    if rules.variant == "no_auction":
        m, half = res["no_auction_mean"]
        write_table(res["no_auction"], opts.out, "team_tricks")
        yield (f"No-auction Boomke Wies (classic whist, trumps turned up), {res['n']:,} random deals: seats 0+2 take "
               f"{pm(m, half, 3, sign=False)} tricks per deal.")
        yield f"\nresults in {opts.out}"
        return
    plot_contracts(res["contracts"], opts.out / "contracts.png", res["n"])
    cls = odds_classes(seed, hands, rules, specs, opts.sub("classes"))
    for k in ("by_longest", "by_hcp", "grid"):
        write_table(cls[k], opts.out, f"classes_{k}")
    plot_classes(cls["grid"], opts.out / "classes.png", cls["n"])
    yield render_deals(res)
    yield ""
    yield render_classes(cls)
    if double_dummy:
        dd = dd_deals(seed, dd_count(n_dd, DD_DEALS, res["n"]), rules, specs, opts=opts.sub("double_dummy"))
        dd.update(of=res["n"], requested=n_dd or DD_DEALS)
        write_table(dd["by_contract"], opts.out, "double_dummy_by_contract")
        write_table(dd["by_bid"], opts.out, "double_dummy_by_bid")
        plot_dd(dd["by_bid"], opts.out / "double_dummy.png", dd["deals"],
                "Boomke Wies declarers: heuristic vs double dummy")
        yield ""
        yield render_dd(dd, "deals")
    yield f"\ntables and plots in {opts.out}"


def stakes_command(games: int = 100_000, seed: int = 0, heuristics=None, rules=None,
                   opts: RunOptions = RunOptions()) -> Iterator[str]:
    """``tricksim stakes boomke-wies``: whole matches (rule 12), team points; writes the run folder
    and yields the text to print."""
    rules = rules or BoomkeRules()
    specs = no_pimc(SPEC.parse_seats(heuristics), "stakes")
    run = matches_run(seed, games, rules, specs)
    opts = with_folder(opts, KEY, "matches", run)
    res = match_stats(seed, games, rules, specs, opts, run=run)
    write_table(res["teams"], opts.out, "matches")
    length = (f"to {rules.target_score} points" if rules.target_score else f"of {rules.match_deals} deals")
    yield (f"Boomke Wies matches {length}, {res['matches']:,} matches ({res['mean_deals']:.2f} deals per match, "
           f"{res['extra_deals']:,} tie-break deals; {res['booms_per_match']:.3f} Booms and "
           f"{res['meetjes_per_match']:.3f} Meetjes per match); seat 0 deals first")
    yield show(matches_table(res))
    yield f"\nresults in {opts.out}"


def _play_command(hand, seat, trumps, calls, double_dummy, hands, seed, specs, rules, until_precision, opts, play):
    """``odds boomke-wies --hand ... --play heuristic,open``."""
    kinds = parse_play(play)
    if hand is None:
        raise TricksimError("--play needs --hand for Boomke Wies (over random deals: --double-dummy)")
    for name, v in (("--seat", seat), ("--call", calls), ("--double-dummy", double_dummy or None),
                    ("--until-precision", until_precision)):
        if v is not None:
            raise TricksimError(f"{name} does not go with --play (the hand declares every suit it holds; "
                                "--trump narrows the suits)")
    cards = parse_hand(hand)
    for t in trumps or ():
        _trump(t)
    if "open" in kinds:
        check_open_extra()
    hands = hands or PLAY_HANDS
    run = odds_play_run(cards, seed, hands, rules, specs, play, trumps=trumps)
    opts = with_folder(opts, KEY, "odds_play", run)
    res = odds_play(cards, seed, hands, rules, specs, play, trumps, opts, run=run)
    for k in ("calls", "gaps", "best"):
        write_table(res[k], opts.out, f"play_{k}")
    yield render_play(res)
    yield f"({res['seconds']:.1f} s)\nresults in {opts.out}"
