"""The headline section ``trust`` (``tricksim report``): how far to trust the odds.  Every odds table of
tricksim is the odds of its heuristics; this section puts them beside good play (the sampling player
``pimc``) and open-hand play on the same deals, so a reader sees how far the heuristics' numbers move.

- Boulmous: the class table under heuristics, pimc and open-hand play on one fixed set of deals: success
  by bid level (over all classes) and by hand class, with the paired gaps; the headline hand's mean tricks
  under each kind of play; and a duplicate tournament ``cautious`` / ``aggressive`` / ``pimc`` (pimc's
  defaults: it bids, names trumps and plays by sampling).
- Bourre: the headline hand's decisions under the heuristics, pimc card play and paranoid open-hand play; a
  duplicate tournament ``basic`` / ``pimc:decide=0`` / ``pimc`` at 5 players.
- Boomke Wies: its heuristic vs double-dummy table is in its own section (it needs the ``dd`` extra).
"""
from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from tricksim.analysis.engine import RunOptions
from tricksim.analysis.output import pm

SEED = 2026
HAND = "JH AH TH AS KC 9D"          # a Boulmous hand whose hearts contract is in doubt
BOURRE_HAND, BOURRE_UP = "AH KH 7C 4D 2S", "9H"
KINDS = ("heuristic", "pimc", "open")


def by_bid(res) -> pd.DataFrame:
    """Success by bid level over all hand classes, per kind of play (Wilson intervals on the summed counts),
    and each kind's paired gap against the heuristics (the classes are disjoint strata: the gap is their
    deal-weighted mean and its half-width the root of the weighted sum of squares)."""
    from tricksim.analysis.stats import wilson
    df, gaps = res["by_trumps_bowers"], res["gaps"]
    rows = []
    for bid in range(3, 7):
        row = {"bid": bid}
        for kind in res["play"]:
            d = df[df.play == kind]
            n = int(d.n.sum())
            k = int(round(float((d[f"p{bid}"] * d.n).sum())))
            p, lo, hi = wilson(k, n)
            row[kind] = (float(p), float(lo), float(hi), n)
        for kind in res["play"]:
            if kind == "heuristic" or not len(gaps):
                continue
            g = gaps[(gaps.bid == bid) & (gaps.play == kind)]
            n = float(g.n.sum())
            row[f"gap {kind}"] = (float((g.gap * g.n).sum() / n), math.sqrt(float(((g.gap_ci * g.n) ** 2).sum())) / n)
        rows.append(row)
    return pd.DataFrame(rows)


def by_bid_table(bb: pd.DataFrame, labels: dict) -> pd.DataFrame:
    from tricksim.analysis.output import pct, pm
    out = {"bid": bb.bid, "deals": [f"{v[3]:,}" for v in bb[next(c for c in bb.columns if c in labels)]]}
    for c in bb.columns:
        if c in labels:
            out[f"{labels[c]} [95% CI]"] = [pct(p, lo, hi) for p, lo, hi, _ in bb[c]]
    for c in bb.columns:
        if c.startswith("gap "):
            out[f"{labels[c[4:]]} - heuristics"] = [pm(100 * g, 100 * h, 1) + " pts" for g, h in bb[c]]
    return pd.DataFrame(out)


def class_table(res, labels: dict, bids=(3, 4), min_deals: int = 200) -> pd.DataFrame:
    """Success by hand class (trumps and bowers held) at ``bids``, per kind of play, with the gaps."""
    from tricksim.analysis.output import pct, pm
    df, gaps = res["by_trumps_bowers"], res["gaps"]
    rows = []
    for (ntr, nb), g in df.groupby(["trumps", "bowers"], sort=True):
        n = int(g.n.iloc[0])
        if n < min_deals:
            continue
        row = {"trumps": ntr, "bowers": nb, "deals": f"{n:,}"}
        for bid in bids:
            for r in g.itertuples():
                row[f"bid {bid}: {labels[r.play]}"] = pct(getattr(r, f"p{bid}"), getattr(r, f"p{bid}_lo"),
                                                          getattr(r, f"p{bid}_hi"))
            for q in gaps[(gaps.trumps == ntr) & (gaps.bowers == nb) & (gaps.bid == bid)].itertuples():
                row[f"bid {bid}: {labels[q.play]} - heur."] = pm(100 * q.gap, 100 * q.gap_ci, 1)
        rows.append(row)
    return pd.DataFrame(rows)


def tricks_table(res, labels: dict) -> pd.DataFrame:
    """The headline hand's mean tricks per trump under each kind of play, and the paired gaps."""
    calls, gaps = res["calls"], res["gaps"]
    rows = []
    for trump, df in calls[calls.bid == 3].groupby("trump", sort=False):
        row = {"trump": trump}
        for r in df.itertuples():
            row[f"tricks, {labels[r.play]}"] = pm(r.mean_tricks, r.tricks_ci, 2, sign=False)
        for g in gaps[(gaps.trump == trump) & (gaps.bid == 3)].itertuples():
            row[f"{labels[g.play]} - heuristics"] = pm(g.tricks_gap, g.tricks_gap_ci, 2)
        rows.append(row)
    return pd.DataFrame(rows)


def trust_section(out: Path, quick: bool = False, progress: bool = False) -> str:
    """Run the studies into ``out/runs`` and ``out/trust``; the markdown section."""
    from tricksim.analysis import compare as cmp
    from tricksim.analysis.boulmous.play import PLAY_LABELS, odds_classes_play, odds_play
    from tricksim.analysis.boulmous.views import pimc_note
    from tricksim.analysis.bourre.play import odds_play as bourre_play
    from tricksim.analysis.bourre.play import render_play as bourre_render
    from tricksim.analysis.output import markdown_table, write_table
    from tricksim.analysis.plots import leaderboard_plot

    out = Path(out)
    d = out / "trust"
    d.mkdir(parents=True, exist_ok=True)
    runs = out / "runs"
    n_cls = 300 if quick else 3_000
    n_hand = 200 if quick else 2_000
    n_cmp = 60 if quick else 400    # pimc now also bids by sampling (about 4x the time a deal): 400 keeps the run short
    n_bou = 1_000 if quick else 10_000
    n_bcmp = 200 if quick else 4_000   # pimc decides play/pass and discards by sampling too: about 70 deals/s a thread
    play = ",".join(KINDS)

    def opts(name):
        return RunOptions(runs / f"trust-{name}", progress=progress, force=True)

    md = ["## How far to trust the odds: heuristics, the sampling player and open-hand play\n",
          "Every other table of this report counts what happens when every seat plays tricksim's heuristics. Here the "
          "same deals are also played by the sampling player `pimc` in every seat (each card chosen by solving "
          "layouts of the unseen cards consistent with what the seat has seen, open-handed, and playing the card "
          "that does best on average) and open-handed (every seat sees every card and plays perfectly: the taker "
          "against the three defenders). Open-hand play is not a bound on the heuristics' result: weak defenders "
          "can let a weak taker make more than perfect ones would. Gaps are paired (the same deals) with 95% "
          "intervals, in percentage points.\n"]

    # 1. Boulmous classes
    res = odds_classes_play(SEED, n_cls, play=play, opts=opts("boulmous-classes"))
    write_table(res["by_trumps_bowers"], d, "boulmous_classes")
    write_table(res["gaps"], d, "boulmous_class_gaps")
    bb = by_bid(res)
    md.append("### Boulmous: success by bid level and by hand class\n")
    md.append(f"Regenerate: `tricksim odds boulmous --play {play} --hands {n_cls} --seed {SEED}`\n")
    md.append(f"{res['n']:,} random deals; the first to speak takes each bid in the trump suit its heuristic prefers "
              f"(no-trump choices left out) and leads; its tricks under each kind of play. {pimc_note(res['worlds'])}\n")
    md.append(markdown_table(by_bid_table(bb, PLAY_LABELS)) + "\n")
    md.append("By hand class (trumps held, bowers included, and bowers held; classes of at least 200 deals), bids 3 "
              "and 4 (all bids in `trust/boulmous_classes.csv`):\n")
    md.append(markdown_table(class_table(res, PLAY_LABELS, min_deals=20 if quick else 200)) + "\n")
    g3 = bb.iloc[0]
    words = []
    for kind in ("pimc", "open"):
        if f"gap {kind}" in bb.columns:
            gap, half = g3[f"gap {kind}"]
            words.append(f"{PLAY_LABELS[kind]} minus heuristics {pm(100 * gap, 100 * half, 1)} points ("
                         + ("significant at 5%" if abs(gap) > half else "not significant at 5%") + ")")
    md.append("Reading, at bid 3 over all classes: " + "; ".join(words) + ". A positive gap means the heuristics' odds understate what "
              "better card play makes of the same cards; a negative one that they flatter it.\n")

    # 2. the headline hand's tricks
    oh = odds_play(HAND, 0, SEED, n_hand, play=play, trumps=["H"], opts=opts("boulmous-hand"))
    write_table(oh["calls"], d, "boulmous_hand_calls")
    write_table(oh["gaps"], d, "boulmous_hand_gaps")
    md.append(f"### Boulmous: one hand, {HAND}, hearts trumps\n")
    md.append(f"Regenerate: `tricksim odds boulmous --hand \"{HAND}\" --play {play} --trump H --hands {n_hand} "
              f"--seed {SEED}`\n")
    md.append(f"{oh['n']:,} random deals of the other 18 cards; the hand is the taker and leads. Mean tricks under "
              "each kind of play, and the paired gaps:\n")
    md.append(markdown_table(tricks_table(oh, PLAY_LABELS)) + "\n")

    # 3. a duplicate tournament with pimc
    names = ["cautious", "aggressive", "pimc"]
    cr = cmp.compare("boulmous", names, hands=n_cmp, seed=SEED, opts=opts("boulmous-compare"))
    write_table(cr["leaderboard"], d, "boulmous_pimc_leaderboard")
    write_table(cr["pairs"], d, "boulmous_pimc_pairs")
    leaderboard_plot(cr["leaderboard"], "points", cr["unit"], d / "boulmous_pimc_leaderboard.png", cr["n"])
    md.append("### Boulmous: the sampling player in a duplicate tournament\n")
    md.append(f"Regenerate: `tricksim compare boulmous {' '.join(names)} --hands {n_cmp} --seed {SEED}`\n")
    md.append("`pimc` (its defaults) bids and names trumps by sampling (the call of the highest expected points plus "
              "stakes on layouts of the unseen cards solved open-handed, if above passing) and plays its cards by "
              "sampling, so its edge over `cautious` is what bidding and card play together are worth; `pimc:bid=0` "
              "bids as `cautious` does, which isolates card play (README, \"The sampling player\").\n")
    md.append("```\n" + cmp.render_compare(cr) + "\n```\n")
    md.append("![pimc leaderboard](trust/boulmous_pimc_leaderboard.png)\n")

    # 4. Bourre: one hand, heuristics vs the sampling player vs paranoid open-hand play
    bplay = "heuristic,pimc,open"
    br = bourre_play(BOURRE_HAND, BOURRE_UP, players=5, seat=2, seed=SEED, hands=n_bou, play=bplay,
                     opts=opts("bourre-hand"))
    write_table(br["choices"], d, "bourre_hand_choices")
    write_table(br["gaps"], d, "bourre_hand_gaps")
    md.append("### Bourré: one hand under the heuristics, the sampling player and paranoid open-hand play\n")
    md.append(f"Regenerate: `tricksim odds bourre --hand \"{BOURRE_HAND}\" --up-card {BOURRE_UP} --players 5 --seat 2 "
              f"--play {bplay} --hands {n_bou} --seed {SEED}`\n")
    md.append("For each of the seat's choices (pass, or play after a discard), the same deals played three ways: every "
              "seat as its heuristic (`basic`); this seat's cards played by `pimc` (each card chosen on sampled "
              "layouts of the unseen cards, solved open-handed for what the seat is sure of against all the others; "
              "the choice of each row is given, the other seats as in the first column); and paranoid "
              "open-hand play (the seat sees every card and the others gang up on it: what it can guarantee).\n")
    md.append("```\n" + bourre_render(br) + "\n```\n")

    # 5. Bourre: a duplicate tournament with pimc
    bnames = ["basic", "pimc:decide=0", "pimc"]
    bc = cmp.compare("bourre", bnames, hands=n_bcmp, seed=SEED, extra={"players": 5}, opts=opts("bourre-compare"))
    write_table(bc["leaderboard"], d, "bourre_pimc_leaderboard")
    write_table(bc["pairs"], d, "bourre_pimc_pairs")
    md.append("### Bourré: the sampling player in a duplicate tournament\n")
    md.append(f"Regenerate: `tricksim compare bourre {' '.join(bnames)} --players 5 --hands {n_bcmp} --seed {SEED}`\n")
    md.append("Chips per deal and seat at 5 players, the same deals for all with the seats rotated. `pimc` (its "
              "defaults) decides play/pass and its discards by sampling and plays its cards by sampling; "
              "`pimc:decide=0` takes play/pass and discards from `basic` and plays its cards by sampling, which "
              "isolates card play (README, \"The sampling player for Bourré\"). Every entrant loses chips on average: "
              "each deal is scored alone, so a tied pot and the bourré payments stay in the middle for a next deal "
              "that is not played.\n")
    md.append("```\n" + cmp.render_compare(bc) + "\n```\n")
    md.append("### Boomke Wies\n")
    md.append("Heuristic play beside open-hand (double-dummy) play, by bid and by contract, is in the Boomke Wies "
              "section above (`tricksim odds boomke-wies --double-dummy`; one hand: `tricksim odds boomke-wies "
              "--hand ... --play heuristic,open`): there both partnerships see all 52 cards and play perfectly. "
              "Boomke Wies has no sampling player yet.\n")
    return "\n".join(md)
