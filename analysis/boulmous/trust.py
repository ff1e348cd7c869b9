"""Boulmous's part of the report's ``trust`` section (analysis/trust.py, ``Game.trust``): the class table under
heuristics, the sampling player ``pimc`` and open-hand play on one fixed set of deals (success by bid level
over all classes and by hand class, with the paired gaps); the headline hand's mean tricks under each kind of
play; and a duplicate tournament ``cautious`` / ``aggressive`` / ``pimc`` (pimc's defaults: it bids, names
trumps and plays by sampling)."""
from __future__ import annotations

import math

import pandas as pd

from ..output import markdown_table, pct, pm, write_table
from ..pages import Section, pair_answer
from ..plots import leaderboard_plot
from ..stats import paired_hist_means, wilson
from .config import BoulmousRules
from .play import N_CLASSES, PLAY_LABELS, _points, classes_play_run, odds_classes_play, odds_play
from .views import pimc_note

SEED = 2026
HAND = "JH AH TH AS KC 9D"          # a Boulmous hand whose hearts contract is in doubt
KINDS = ("heuristic", "pimc", "open")


def by_bid(res) -> pd.DataFrame:
    """Success by bid level over all hand classes, per kind of play (Wilson intervals on the summed counts),
    and each kind's paired gap against the heuristics (the classes are disjoint strata: the gap is their
    deal-weighted mean and its half-width the root of the weighted sum of squares)."""
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
    out = {"bid": bb.bid, "deals": [f"{v[3]:,}" for v in bb[next(c for c in bb.columns if c in labels)]]}
    for c in bb.columns:
        if c in labels:
            out[f"{labels[c]} [95% CI]"] = [pct(p, lo, hi) for p, lo, hi, _ in bb[c]]
    for c in bb.columns:
        if c.startswith("gap "):
            out[f"{labels[c[4:]]} - heuristics"] = [pm(100 * g, 100 * h, 1) + " pp" for g, h in bb[c]]
    return pd.DataFrame(out)


def class_table(res, labels: dict, bids=(3, 4), min_deals: int = 200) -> pd.DataFrame:
    """Success by hand class (trumps and bowers held) at ``bids``, per kind of play, with the gaps."""
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


def trust(d, opts, quick: bool, compare, render_compare) -> Section:
    """The game's part of the ``trust`` section (``Game.trust``, analysis/game.py)."""
    n_cls = 300 if quick else 3_000
    n_hand = 200 if quick else 2_000
    n_cmp = 60 if quick else 400    # pimc now also bids by sampling (about 4x the time a deal): 400 keeps the run short
    play = ",".join(KINDS)
    md = []
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
            words.append(f"{PLAY_LABELS[kind]} minus heuristics {pm(100 * gap, 100 * half, 1)} pp ("
                         + ("significant at 5%" if abs(gap) > half else "not significant at 5%") + ")")
    answers = [("Boulmous: do the odds tables hold when the cards are played better?",
                f"At bid 3, over {res['n']:,} deals of every hand class: " + "; ".join(words) + " (pp = percentage points "
                "of success; positive: the heuristics' odds understate better play).")]
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
    cr = compare("boulmous", names, hands=n_cmp, seed=SEED, opts=opts("boulmous-compare"))
    write_table(cr["leaderboard"], d, "boulmous_pimc_leaderboard")
    write_table(cr["pairs"], d, "boulmous_pimc_pairs")
    leaderboard_plot(cr["leaderboard"], "points", cr["unit"], d / "boulmous_pimc_leaderboard.png", cr["n"])
    md.append("### Boulmous: the sampling player in a duplicate tournament\n")
    md.append(f"Regenerate: `tricksim compare boulmous {' '.join(names)} --hands {n_cmp} --seed {SEED}`\n")
    md.append("`pimc` (its defaults) bids and names trumps by sampling (the call of the highest expected points plus "
              "stakes on layouts of the unseen cards solved open-handed, if above passing) and plays its cards by "
              "sampling, so its edge over `cautious` is what bidding and card play together are worth; `pimc:bid=0` "
              "bids as `cautious` does, which isolates card play ([the sampling player](../docs/methods/sampling.md)).\n")
    md.append("```\n" + render_compare(cr) + "\n```\n")
    md.append("![pimc leaderboard](trust/boulmous_pimc_leaderboard.png)\n")
    answers.append(("Boulmous: how much is the sampling player worth?",
                    pair_answer(cr["pairs"], "pimc", "cautious", "points", "points per deal")
                    + "; it bids, names trumps and plays by sampling."))
    return Section("\n".join(md), answers)


def ladder_bound(opts, quick: bool, seed: int = SEED) -> dict:
    """``Ladder.bound`` (analysis/game.py): open-hand play of the class study's contracts.  On the first deals of
    the seed (the ladder's cards), the first to speak takes bid 3 in the trump ``cautious`` prefers (no-trump
    choices left out) and leads; its points per deal (rule 16: its tricks, or tricks minus 3 when it fails) when
    every seat then plays open-handed (the taker against the three defenders together), beside ``cautious``'s own
    card play of the same contracts, paired."""
    hands = 2_000 if quick else 20_000
    run = classes_play_run(seed, hands, None, None, ("heuristic", "open"))
    r = opts.execute(run)
    kinds = run.params["play"]                                  # axis k-1-j of the joint holds kind j
    joint = r.counts.reshape((N_CLASSES,) + (7,) * len(kinds)).sum(axis=0)
    if kinds.index("open") < kinds.index("heuristic"):
        joint = joint.T                                         # rows: open-hand tricks, columns: the heuristics'
    pts = _points(3, BoulmousRules()).astype(float)             # the default rules, as the run
    (mo, ho, n), (mh, hh, _), (mg, hg, _) = paired_hist_means(pts[:, None], pts[None, :], joint)
    return {"label": "open-hand: the taker at bid 3", "mean": mo, "ci": ho, "n": n, "heuristic": "cautious",
            "heur_mean": mh, "heur_ci": hh, "gap": mg, "gap_ci": hg,
            "command": f"tricksim odds boulmous --play heuristic,open --hands {hands} --seed {seed}",
            "what": ("the points per deal of one seat, the taker, not a seat's average: on the first "
                     f"{hands:,} deals of the seed (the ladder's cards, {n:,} after leaving out the no-trump choices), "
                     "the first to speak takes bid 3 in the trump `cautious` prefers and leads, and every seat then "
                     "plays open-handed, seeing all cards: the taker perfectly against the three defenders playing "
                     "perfectly together (kernels/boulmous/solver.py). It is what the cards are worth to a taker "
                     "in that contract under perfect card play, not a ceiling on any entrant: no entrant can see "
                     "the cards, an entrant also scores as a defender and in contracts it chose, and weak "
                     "defenders can let a taker make more than perfect ones would")}
