"""Boulmous's part of the report's ``equity`` section (analysis/equity/report.py, ``Game.equity_report``): the
match equity table at one score state with its heatmap, a hand's calls ranked by the chance to win the game and
by money, and score-aware bidding against the default in whole games (``compare --games``)."""
from __future__ import annotations

import shutil

import pandas as pd

from ...output import pct, write_table
from ...pages import Section, pair_answer
from ..spec import SPEC
from . import table as E
from .views import boulmous_command, odds_scores_command

SEED = 2026
SCORES, DEALER = "18,17,9,3", 2          # the question: "should I bid boulmous at 18-17-9-3?"
HAND, HAND_SEAT = "JH JD AH KH 9S TC", 0


def _block(lines):
    return "```\n" + "\n".join(x for x in lines if not x.lstrip().startswith("results in ")
                                and not x.startswith("heatmap of")).strip() + "\n```\n"


def equity_report(d, opts, quick: bool, compare_games, render_games) -> Section:
    """The game's part of the ``equity`` section (``Game.equity_report``, analysis/game.py)."""
    runs = d.parent / "runs"
    n_games = 5_000 if quick else 200_000
    n_odds = 20_000 if quick else 200_000
    # the quick (smoke) run plays to 11 from 8-7-4-1: the table's states grow as the fourth power of the target
    rules = SPEC.rules_from(["target=11"]) if quick else SPEC.rules()
    scores = "8,7,4,1" if quick else SCORES
    rflag = " --rule target=11" if quick else ""
    block = _block
    md = ["A Boulmous game is a race to 21 (to 11 in the quick run) and the right bid depends on the score. The equity table gives each "
          "seat's chance to win the game (and its expected money, in stakes) from any score state, built by value "
          "iteration over 8,000,000 measured deals with `cautious` in every seat ([match equity](../docs/methods/equity.md)); the "
          "intervals are the table's sampling error. The first run builds and caches the table "
          "(`$TRICKSIM_CACHE`, default `~/.cache/tricksim`).\n"]

    # 1. one state and its heatmap
    md.append(f"### Boulmous: who wins from {scores.replace(',', '-')}?\n")
    md.append(f"Regenerate: `tricksim equity boulmous --scores {scores} --dealer {DEALER} --deals {E.DEALS} --seed 0"
              f"{rflag}`\n")
    lines = list(boulmous_command(scores, DEALER, rules=rules, opts=opts("boulmous")))
    md.append(block(lines))
    answers = []
    state = opts("boulmous").out / "equity_state.csv"
    if state.exists():
        st = pd.read_csv(state)
        answers.append((f"Boulmous: who wins from {scores.replace(',', '-')} (seat {DEALER} dealing next)?",
                        ", ".join(f"seat {r.seat} at {r.score}: {pct(r.p_win, r.win_lo, r.win_hi, 2)}"
                                  for r in st.itertuples())
                        + f" of games won (game to {rules.target}, `cautious` in every seat, the equity table)."))
    png = runs / "equity-boulmous" / "equity_heatmap.png"
    if png.exists():
        shutil.copyfile(png, d / "boulmous_heatmap.png")
        sc = scores.split(",")
        md.append(f"The chance that seat 0 wins over the scores of seats 0 and 1 (seats 2 and 3 at {sc[2]} and "
                  f"{sc[3]}):\n")
        md.append("![equity heatmap](equity/boulmous_heatmap.png)\n")

    # 2. a hand's calls by the game
    md.append("### Boulmous: one hand's calls ranked by the chance to win the game\n")
    for sc in ("0,0,0,0", scores):
        md.append(f"Regenerate: `tricksim odds boulmous --hand \"{HAND}\" --seat {HAND_SEAT} --scores {sc} "
                  f"--hands {n_odds} --seed 0{rflag}`\n")
        md.append(block(odds_scores_command(HAND, HAND_SEAT, sc, n_odds, rules=rules,
                                            opts=opts(f"odds-{sc.replace(',', '-')}"))))
    md.append("The same deals give every call's P(make); each call is valued by the table at the scores after the "
              "deal. At level scores a call is worth what it adds to the chance of reaching 21 first; near the end "
              "the same hand may be worth more passing (or more bidding), and money (the boxes) can rank the calls "
              "differently from the game.\n")

    # 3. score-aware bidding in whole games
    names = ["cautious", "cautious:score_aware=1", "cautious:score_aware=2"]
    res = compare_games("boulmous", names, n_games, seed=SEED, rules=rules, opts=opts("compare-games"))
    write_table(res["leaderboard"], d, "score_aware_leaderboard")
    write_table(res["pairs"], d, "score_aware_pairs")
    md.append("### Boulmous: what score-aware bidding is worth in whole games\n")
    md.append(f"Regenerate: `tricksim compare boulmous {' '.join(names)} --games {n_games} --seed {SEED}{rflag}`\n")
    md.append("`score_aware=1` bids b when its calibrated chance of making b reaches the break-even of the game "
              "table at the current scores (by the chance to win the game); `score_aware=2` does the same by the "
              "table's expected money. Whole games to 21, every entrant in every seat, the same deals for all "
              "seatings (common random numbers); games won per seat (par 25%) and stakes per game per seat.\n")
    md.append("```\n" + render_games(res) + "\n```\n")
    answers.append(("Boulmous: is it worth bidding by the score?",
                    pair_answer(res["pairs"], names[1], names[0], "wins", "in the share of games won per seat") + "; bidding by money: "
                    + pair_answer(res["pairs"], names[2], names[0], "wins", "in the share of games won per seat") + "."))
    return Section("\n".join(md), answers)
