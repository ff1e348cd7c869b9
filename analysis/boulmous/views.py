"""Boulmous views: the studies' tables as terminal text, and the commands of the CLI (``odds``,
``stakes``), which run the studies, write the run folder and yield the text cli.py prints."""
from __future__ import annotations

from typing import Iterator

import pandas as pd

from .config import KEY, BoulmousRules, check_seat, no_pimc, parse_hand
from .play import (PIMC_CLASS_HANDS, PIMC_HANDS, PLAY_HANDS, PLAY_LABELS, classes_play_run, odds_classes_play,
                   odds_play, odds_play_run, parse_play)
from .spec import SPEC

CLASSES_PLAY_HANDS = 200_000   # default deals of the class table with --play
from ..common import TricksimError
from ..engine import RunOptions
from ..output import PP, mean_interval, pct, plain_table, pm, show, with_folder, write_table
from ..runfolder import check_folder
from .equity.views import odds_scores_command
from .studies import (auction_stats, classes_run, compare_exact, game_stakes, inside_text, odds_classes, odds_hand,
                      odds_run, stakes_run)
from .tables import auction_table, classes_table, exact_vs_mc_table, positions_table, stakes_table


def _stakes(r, exact: bool) -> str:
    """E[stakes] of a call: exact, none for a bid below 6 (no payment by rule), else with its interval
    (from P(make)'s Wilson interval for a bid, so never zero-width when no 6 or every 6 was made)."""
    if exact or r.stakes_lo == r.stakes_hi == r.exp_stakes:
        return pm(r.exp_stakes, None, 3)
    return mean_interval(r.exp_stakes, r.stakes_lo, r.stakes_hi, 3)


def _fmt_calls(df: pd.DataFrame, exact: bool) -> pd.DataFrame:
    rows = []
    for r in df.itertuples():
        rows.append({"trump": r.trump, "bid": r.bid,
                     "P(make)" + (" exact" if exact else " [95% CI]"): pct(r.p_make, None if exact else r.ci_low,
                                                                         None if exact else r.ci_high),
                     "n": f"{r.n:,}", "E[points]": pm(r.exp_points, None if exact else r.points_ci, 2),
                     "E[stakes]": _stakes(r, exact)})
    return pd.DataFrame(rows)


def render_odds(res) -> str:
    lines = [f"Boulmous hand {res['hand']}: the taker's chances ({'exact, every one of ' + format(res['n'], ',') + ' layouts' if res['exact'] else format(res['n'], ',') + ' random deals of the other 18 cards'})",
             plain_table(_fmt_calls(res["calls"], res["exact"]))]
    if len(res["pass"]):
        p = res["pass"].iloc[0]
        lines.append(f"pass (the others bid on; this seat defends): E[points] "
                     f"{pm(p.exp_points, None if res['exact'] else p.points_ci, 2)}, E[stakes] {_stakes(p, res['exact'])}")
    b = res["best"].iloc[0]
    lines.append(f"best call: {b.best_call} (by expected points plus stakes: {b.exp_value:+.2f} = points "
                 f"{b.exp_points:+.2f}, stakes {b.exp_stakes:+.2f})")
    interval = "" if res["exact"] else "; its interval is P(make)'s mapped through them"
    lines.append(f"E[stakes] counts the boulmous payments of this deal (bid 6: +3 made, -3 failed{interval}; a lower "
                 "bid pays none); each failed contract also adds a box (1 stake to the game's winner, not counted "
                 "in E[stakes]): a call's chance of a box is 1 - P(make).")
    return "\n".join(lines)


PLAY_NOTE = ("open-hand: every seat sees every card and plays perfectly (double-dummy), the taker against the three "
             "defenders; it is not a bound on the heuristics' result (heuristic defenders can let a heuristic taker "
             "make more than perfect ones would).")


def pimc_note(worlds) -> str:
    return (f"pimc: every seat (the taker and the three defenders) plays each card by sampling {worlds} layouts of the "
            "cards it cannot see, consistent with all it has seen, and playing the card that scores best on them "
            "open-handed (pimc:worlds=N in --play to change)")


def render_play(res) -> str:
    """The ``--play`` table: P(make) per trump and bid under each kind of play, the gap with a paired interval."""
    kinds = res["play"]
    calls, gaps = res["calls"], res["gaps"]
    rows = []
    for (trump, bid), df in calls.groupby(["trump", "bid"], sort=False):
        row = {"trump": trump, "bid": bid}
        for r in df.itertuples():
            row[f"{PLAY_LABELS[r.play]} [95% CI]"] = pct(r.p_make, r.ci_low, r.ci_high)
        if len(gaps):
            for g in gaps[(gaps.trump == trump) & (gaps.bid == bid)].itertuples():
                row[f"gap {PLAY_LABELS[g.play]} - heuristics"] = pm(100 * g.gap, 100 * g.gap_ci, 1) + " pp"
        rows.append(row)
    seat = res["seat"]
    where = ["the dealer's left", "second to bid", "third to bid", "the dealer"][seat]
    lines = [f"Boulmous hand {res['hand']} in seat {seat} ({where}) "
             f"as the taker of a forced contract in each trump, leading the first trick: P(make) under each kind of "
             f"play, on the same {res['n']:,} random deals of the other 18 cards",
             show(pd.DataFrame(rows), key=2)]
    tr = []
    for trump, df in calls[calls.bid == 3].groupby("trump", sort=False):
        row = {"trump": trump}
        for r in df.itertuples():
            row[f"tricks, {PLAY_LABELS[r.play]}"] = pm(r.mean_tricks, r.tricks_ci, 2, sign=False)
        if len(gaps):
            for g in gaps[(gaps.trump == trump) & (gaps.bid == 3)].itertuples():
                row[f"gap {PLAY_LABELS[g.play]} - heuristics"] = pm(g.tricks_gap, g.tricks_gap_ci, 2)
        tr.append(row)
    lines += ["mean taker tricks [95% CI]:", show(pd.DataFrame(tr))]
    best = ", ".join(f"{PLAY_LABELS[b.play]} {b.best_call} ({b.exp_value:+.2f})" for b in res["best"].itertuples())
    lines.append(f"best call by expected points plus stakes (the boulmous payments: bid 6 +3 made, -3 failed): {best}")
    lines.append("gaps: paired over the same deals (+ = made more often than under the heuristics), with a 95% "
                 f"interval; {PP}.")
    if "pimc" in kinds:
        lines.append(pimc_note(res["worlds"]))
    if "open" in kinds:
        lines.append(PLAY_NOTE)
    return "\n".join(lines)


def render_classes_play(res) -> str:
    """The class table under each kind of play: P(make) per bid, and the gap against the heuristics."""
    df, gaps = res["by_trumps_bowers"], res["gaps"]
    rows = []
    for (ntr, nb), g in df.groupby(["trumps", "bowers"], sort=False):
        row = {"trumps": ntr, "bowers": nb, "n": f"{int(g.n.iloc[0]):,}"}
        for bid in range(3, 7):
            for r in g.itertuples():
                row[f"bid {bid} {PLAY_LABELS[r.play]}"] = pct(getattr(r, f"p{bid}"), getattr(r, f"p{bid}_lo"),
                                                             getattr(r, f"p{bid}_hi"))
            if len(gaps):
                for q in gaps[(gaps.trumps == ntr) & (gaps.bowers == nb) & (gaps.bid == bid)].itertuples():
                    row[f"bid {bid} gap {q.play}"] = pm(100 * q.gap, 100 * q.gap_ci, 1)
        rows.append(row)
    text = (f"Boulmous: chance that the first to speak makes each bid, taking the contract in the trump suit its "
            f"heuristic prefers and leading, under each kind of play on the same {res['n']:,} random deals, by trumps "
            f"held (bowers included) and bowers held (no-trump choices left out); gaps in percentage points, paired, "
            f"95% intervals\n" + show(pd.DataFrame(rows), key=2))
    if "pimc" in res["play"]:
        text += "\n" + pimc_note(res["worlds"])
    if "open" in res["play"]:
        text += "\n" + PLAY_NOTE
    return text


def _pimc_note(hands, pimc_default, default) -> str:
    """What the output says about the sample size when pimc is among the kinds of play."""
    if hands:
        return ""
    return (f"\n(pimc plays every card by sampling, about a thousand times slower than the heuristics: "
            f"{pimc_default:,} deals by default instead of {default:,}; --hands N for more, the intervals show the "
            f"precision)")


def odds_command(hand: str | None = None, seat: int | None = None, exact: bool = False, trumps=None,
                 keep_hands: bool = False, hands: int | None = None, seed: int = 0, heuristics=None, rules=None,
                 until_precision: float | None = None, opts: RunOptions = RunOptions(),
                 play=None, scores: str | None = None) -> Iterator[str]:
    """``tricksim odds boulmous``: the odds of one hand (``hand``; ``exact`` also enumerates every
    layout; ``play``, kinds of play such as ``"heuristic,open"``, the same deals under each), else by
    hand class and how auctions end over random deals.  Writes the run folder (``opts.out``, else a
    default one) and yields the text to print."""
    from ..plots import heatmap_classes

    rules = rules or BoulmousRules()
    specs = no_pimc(SPEC.parse_seats(heuristics), "odds")
    if scores is not None:      # issue 16: the calls by the chance to win the game (analysis/boulmous/equity/)
        if until_precision is not None:
            raise TricksimError("--until-precision does not go with --scores (the calls by the chance to win the "
                                "game): give --hands")
        yield from odds_scores_command(hand, seat, scores, hands, seed, specs, rules, trumps, opts)
        return
    if play is not None:
        kinds = parse_play(play)
        if exact:
            raise TricksimError("--play applies to the Monte Carlo odds, not to --exact (the enumeration plays the "
                                "heuristics only): drop one of them")
        if hand is None and keep_hands:
            raise TricksimError("--keep-hands keeps the auction study's hands, which --play does not run: drop one")
        pimc = "pimc" in kinds
        if hand is None:
            note = _pimc_note(hands, PIMC_CLASS_HANDS, CLASSES_PLAY_HANDS) if pimc else ""
            hands = hands or (PIMC_CLASS_HANDS if pimc else CLASSES_PLAY_HANDS)
            run = classes_play_run(seed, hands, rules, specs, play)
            opts = with_folder(opts, KEY, "classes_play", run)
            res = odds_classes_play(seed, hands, rules, specs, play, opts, run=run)
            write_table(res["by_trumps_bowers"], opts.out, "play_by_trumps_bowers")
            write_table(res["gaps"], opts.out, "play_class_gaps")
            yield render_classes_play(res) + note
            yield f"({res['seconds']:.1f} s)\nresults in {opts.out}"
            return
        if hand is not None:
            cards = parse_hand(hand)
            seat = check_seat(0 if seat is None else seat)
            note = _pimc_note(hands, PIMC_HANDS, PLAY_HANDS) if pimc else ""
            hands = hands or (PIMC_HANDS if pimc else PLAY_HANDS)
            run = odds_play_run(cards, seat, seed, hands, rules, specs, play, trumps=trumps)
            opts = with_folder(opts, KEY, "odds_play", run)
            res = odds_play(cards, seat, seed, hands, rules, specs, play, trumps, opts, until_precision, run=run)
            write_table(res["calls"], opts.out, "play_calls")
            write_table(res["gaps"], opts.out, "play_gaps")
            write_table(res["best"], opts.out, "play_best")
            yield render_play(res) + note
            yield f"({res['seconds']:.1f} s)\nresults in {opts.out}"
            return
    if hand is not None:
        cards = parse_hand(hand)
        seat = check_seat(0 if seat is None else seat)
        hands = hands or 200_000
        run = odds_run(cards, seat, seed, hands, rules, specs)
        opts = with_folder(opts, KEY, "odds", run)
        check_folder(run, opts.out, opts.force)   # before the enumeration, not after it
        if exact:
            if opts.scheduler:
                raise TricksimError("the exact enumeration runs locally: drop the Dask scheduler")
            ex = odds_hand(cards, seat, seed, rules=rules, heuristics=specs, exact=True, trumps=trumps)
        mc = odds_hand(cards, seat, seed, hands, rules, specs, trumps=trumps, opts=opts,
                       until_precision=until_precision, run=run)
        write_table(mc["calls"], opts.out, "odds_calls")
        write_table(mc["pass"], opts.out, "odds_pass")
        if exact:
            yield render_odds(ex)
            yield f"(exact enumeration: {ex['seconds']:.1f} s)\n"
            cmp = compare_exact(mc, ex)
            write_table(ex["calls"], opts.out, "odds_calls_exact")
            write_table(cmp, opts.out, "mc_vs_exact")
            yield f"Monte Carlo ({mc['n']:,} deals) against the exact answer: {inside_text(cmp)}"
            yield show(exact_vs_mc_table(cmp))
        else:
            yield render_odds(mc)
        yield f"\nresults in {opts.out}"
        return
    hands = hands or 2_000_000
    run = classes_run(seed, hands, rules, specs)
    opts = with_folder(opts, KEY, "classes", run)
    res = odds_classes(seed, hands, rules, specs, opts, run=run)
    write_table(res["classes"], opts.out, "classes")
    write_table(res["by_trumps_bowers"], opts.out, "by_trumps_bowers")
    heatmap_classes(res["by_trumps_bowers"], opts.out / "classes_heatmap.png", res["n"])
    yield render_classes(res)
    au = auction_stats(seed, hands, rules, specs, opts.sub("auction"), keep_hands=keep_hands)
    write_table(au["contracts"], opts.out, "auction_contracts")
    write_table(au["positions"], opts.out, "auction_positions")
    yield "\n" + render_auction(au)
    yield (f"\ntables and heatmap in {opts.out}"
           + (f"; one row per hand in {opts.out / 'auction' / 'hands'}" if keep_hands else ""))


def render_auction(au) -> str:
    return (f"How the auctions end over {au['n']:,} random deals (the chosen heuristics in every seat):\n"
            + show(auction_table(au)) + "\nmean points per deal by position:\n" + show(positions_table(au)))


def render_classes(res) -> str:
    return (f"Boulmous: chance that the first to speak makes each bid, taking the contract in the trump suit its "
            f"heuristic prefers, by trumps held (bowers included) and bowers held; {res['n']:,} random deals "
            f"(no-trump choices left out)\n" + show(classes_table(res)))


def stakes_command(games: int = 100_000, seed: int = 0, heuristics=None, rules=None,
                   opts: RunOptions = RunOptions()) -> Iterator[str]:
    """``tricksim stakes boulmous``: whole games with the money settlement; writes the run folder
    and yields the text to print."""
    rules = rules or BoulmousRules()
    specs = no_pimc(SPEC.parse_seats(heuristics), "stakes")
    run = stakes_run(seed, games, rules, specs)
    opts = with_folder(opts, KEY, "stakes", run)
    res = game_stakes(seed, games, rules, specs, opts, run=run)
    write_table(res["seats"], opts.out, "stakes")
    yield (f"Boulmous games to {rules.target} with the money settlement, {res['games']:,} games "
           f"({res['mean_deals']:.1f} deals per game on average, {res['abandoned']} abandoned); seat 0 deals first")
    yield show(stakes_table(res))
    yield f"\nresults in {opts.out}"
