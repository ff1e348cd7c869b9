"""Bourre's part of the report's ``trust`` section (analysis/trust.py, ``Game.trust``): the headline hand's
decisions under the heuristics, the sampling player's card play and paranoid open-hand play; a duplicate
tournament ``basic`` / ``pimc:decide=0`` / ``pimc`` at 5 players."""
from __future__ import annotations

from ..output import write_table
from ..pages import Section, pair_answer
from .ev import EV_FORM
from .play import odds_play as bourre_play
from .play import render_play as bourre_render

SEED = 2026
PLAY = {"heuristic": "under the heuristics", "pimc": "with the sampling player's card play",
        "open": "open-handed (paranoid)"}
BOURRE_HAND, BOURRE_UP = "AH KH 7C 4D 2S", "9H"
HAND_RUNS: dict = {}
"""The headline hand's odds (``bourre_play``'s results) this process computed for the trust section, by (seed,
deals): the ladder's bound (``ladder_bound``) reads its heuristic and open-hand rows from them when the report
runs both pages in one process.  Those rows are the ones a run without the sampling player gives (the sampling
player plays its own copy of each deal; the same deals, the same counts), so the bound neither plays the deals
again nor compiles the kernel's second form, without ``pimc`` (about 6 CPU s on a cold cache)."""


def trust(d, opts, quick: bool, compare, render_compare) -> Section:
    """The game's part of the ``trust`` section (``Game.trust``, analysis/game.py)."""
    n_bou = 1_000 if quick else 10_000
    n_bcmp = 200 if quick else 4_000   # pimc decides play/pass and discards by sampling too: about 70 deals/s a thread
    md = []
    # 4. Bourre: one hand, heuristics vs the sampling player vs paranoid open-hand play
    bplay = "heuristic,pimc,open"
    br = bourre_play(BOURRE_HAND, BOURRE_UP, players=5, seat=2, seed=SEED, hands=n_bou, play=bplay,
                     opts=opts("bourre-hand"))
    HAND_RUNS[(SEED, n_bou)] = br
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
    # the kernel takes ev's tables (zeros: no entrant is ev) as the ladder's Bourre tournament (ev an entrant) does:
    # the pages compile one form of it, not two (analysis/bourre/ev.py EV_FORM; the same deals and results)
    bc = compare("bourre", bnames, hands=n_bcmp, seed=SEED, extra={"players": 5, EV_FORM: True},
                 opts=opts("bourre-compare"))
    write_table(bc["leaderboard"], d, "bourre_pimc_leaderboard")
    write_table(bc["pairs"], d, "bourre_pimc_pairs")
    md.append("### Bourré: the sampling player in a duplicate tournament\n")
    md.append(f"Regenerate: `tricksim compare bourre {' '.join(bnames)} --players 5 --hands {n_bcmp} --seed {SEED}`\n")
    md.append("Chips per deal and seat at 5 players, the same deals for all with the seats rotated. `pimc` (its "
              "defaults) decides play/pass and its discards by sampling and plays its cards by sampling; "
              "`pimc:decide=0` takes play/pass and discards from `basic` and plays its cards by sampling, which "
              "isolates card play ([the sampling player](../docs/methods/sampling.md)). Every entrant loses chips on average: "
              "each deal is scored alone, so a tied pot and the bourré payments stay in the middle for a next deal "
              "that is not played.\n")
    md.append("```\n" + render_compare(bc) + "\n```\n")
    best = {r.play: r for r in br["best"].itertuples()}
    same = len({r.best for r in best.values()}) == 1
    answers = [(f"Bourré: does better card play change what to do with {BOURRE_HAND} (up-card {BOURRE_UP}, 5 players)?",
                ("No: " if same else "Yes: ") + "; ".join(f"{PLAY[k]}: {r.best} ({r.exp_chips:+.2f} ± {r.chips_ci:.2f} "
                                                          "chips)" for k, r in best.items())
                + f" ({br['n']:,} deals, every choice on the same deals)."),
               ("Bourré: how much is the sampling player worth?",
                pair_answer(bc["pairs"], "pimc", "basic", "chips", "chips per deal") + "; "
                + pair_answer(bc["pairs"], "pimc:decide=0", "basic", "chips", "chips per deal")
                + " (card play alone).")]
    return Section("\n".join(md), answers)


def ladder_bound(opts, quick: bool, seed: int = SEED) -> dict:
    """``Ladder.bound`` (analysis/game.py): paranoid open-hand play of one hand, the closest figure the code has:
    Bourre's open-hand solver values a seat's hand, not random deals.  The headline hand of the ``trust`` section
    (5 players, seat 2), with the choice ``basic`` makes: its chips per deal when it plays the five tricks seeing
    every card with all the others together against it, beside ``basic``'s own card play, paired."""
    hands = 1_000 if quick else 10_000
    br = HAND_RUNS.get((seed, hands))             # the trust section's run of these deals (its pimc rows unread)
    if br is None:
        br = bourre_play(BOURRE_HAND, BOURRE_UP, players=5, seat=2, seed=seed, hands=hands, play="heuristic,open",
                         opts=opts)
    own = br["choices"].choice == "heuristic's own choice"
    rows = br["choices"][own].set_index("play")
    gap = br["gaps"][(br["gaps"].choice == "heuristic's own choice") & (br["gaps"].play == "open")].iloc[0]
    o, h = rows.loc["open"], rows.loc["heuristic"]
    return {"label": f"open-hand (paranoid): {BOURRE_HAND}", "mean": float(o.exp_chips), "ci": float(o.chips_ci),
            "n": int(o.n), "heuristic": "basic", "other_scale": True, "heur_mean": float(h.exp_chips),
            "heur_ci": float(h.chips_ci),
            "gap": float(gap.gap_chips), "gap_ci": float(gap.gap_chips_ci),
            "command": (f"tricksim odds bourre --hand \"{BOURRE_HAND}\" --up-card {BOURRE_UP} --players 5 --seat 2 "
                        f"--play heuristic,open --hands {hands} --seed {seed}"),
            "what": (f"the chips per deal of one seat holding one hand, {BOURRE_HAND} with the up-card {BOURRE_UP} "
                     f"(5 players, the 3rd to speak), over {int(o.n):,} deals of the unseen cards, not an average over "
                     "random hands: Bourré's open-hand solver values a seat's hand, and the code has no open-hand "
                     "figure over random deals. The seat makes the choice `basic` makes, the draw is `basic`'s, and "
                     "the seat then plays the five tricks seeing every card with all the other active players "
                     "together against it: what it can be sure of. It is on another scale than the ladder (a strong "
                     "hand, its first ante already in the pot), and it is neither a ceiling nor a floor: real "
                     "opponents each play for themselves")}
