"""Whole-game duplicate comparison (``tricksim compare boulmous NAMES --games N``, issue 16): what a
heuristic is worth in games won and in money per game.

Game g is played to the target once per seating of its round (the ``design`` of the package: rounds of
k seatings, every entrant in every seat once per round; round c = g mod the number of rounds), seat 0
dealing first, the deals of game g drawn from one stream (deal j of game g has the same cards in every
seating, however the games differ), the decisions of seating j from their own stream
(kernels/equity.sim_games_duplicate).  Per entrant: the games won per seat it holds (par: 1/4) and the
stakes per game per seat (rule 18), with the compare tables' intervals (stratified by round, Student-t,
paired differences on the same games, Holm over the pairs).  Score-aware seats (``score_aware=1`` or ``2``)
bid by the equity table, by the chance to win the game or by money (analysis/boulmous/equity/saware.py)."""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

import numpy as np

from ...kernels.tally import WHOLE_GAMES, rounds_layout
from .. import engine
from ..common import TricksimError
from ..output import with_folder, write_table
from ..registry import GAMES
from ..seating import assignments_text
from .design import _game, appearances, design, duplicate_params, entrant_specs, n_seats, seating
from .tables import full_verdict, in_order, tables_from_counts
from .views import metric_text

METRICS = ("wins", "stakes")
UNIT = "games won per seat"
MONEY_UNIT = "stakes per game per seat"


def _check_game(game):
    game = _game(game)
    if game.whole_games is None:
        which = " or ".join(g.title for g in GAMES if g.whole_games is not None)
        raise TricksimError(f"compare --games plays whole {which} games; {game.title} has no whole-game compare")
    return game


def _seat_specs(game, specs, params):
    """The canonical entrants of the run and, per seating row, the seats' specs."""
    run_specs = game.specs_from_json(params["entrants"])
    ids, nround = seating(game, len(run_specs), params)
    return run_specs, ids, nround, [[run_specs[i] for i in row] for row in ids]


def games_run(game, specs, games: int | None = None, seed: int = 0, rules=None, block_size: int | None = None):
    game = _check_game(game)
    wg = game.whole_games
    if len(specs) < 2:
        raise TricksimError("compare needs at least two heuristics")
    wg.check(specs)
    games = wg.games if games is None else games
    if games < 1:
        raise TricksimError(f"the number of games must be at least 1, got {games}")
    params = duplicate_params(game, specs, seed, rules or game.rules())
    return engine.Run(wg.study, params, games, block_size or wg.block, unit="games")


def compare_games(game, names, games: int | None = None, seed: int = 0, rules=None, user_defs=None,
                  opts: engine.RunOptions = engine.RunOptions(), block_size: int | None = None, run=None):
    """Whole games of the heuristics ``names`` (or specs) on the same deal streams, seats rotated.  Returns
    {'leaderboard', 'pairs' (metrics 'wins' and 'stakes'), 'verdict', 'n' (games), 'mean_deals',
    'abandoned', 'seconds', 'design', 'run', ...}; the tables list the entrants in the order given."""
    game = _check_game(game)
    specs = names if names and not isinstance(names[0], str) else entrant_specs(game, names, user_defs)
    rules = rules or game.rules()
    run = run or games_run(game, specs, games, seed, rules, block_size)
    run_specs, ids, nround, rows = _seat_specs(game, specs, run.params)
    game.whole_games.prepare(rows, rules, opts)   # e.g. the score-aware seats' table and calibration, once
    k = len(specs)
    r = opts.execute(run)
    labels = [s.label for s in specs]
    run_labels = [s.label for s in run_specs]
    board, pairs = tables_from_counts(r.counts, r.n, k, appearances(game, k, run.params), run_labels, list(METRICS),
                                      nround=nround, playouts=k, layout="rounds")
    board, pairs = in_order(board, pairs, labels)
    end = rounds_layout(k, nround, METRICS).rest(np.asarray(r.counts))     # then WHOLE_GAMES (kernels/tally.py)
    playouts = r.n * k
    return {"leaderboard": board, "pairs": pairs, "n": r.n, "seconds": r.seconds, "labels": labels,
            "verdict": full_verdict(board, pairs, list(METRICS), UNIT, {"stakes": MONEY_UNIT}),
            "mean_deals": WHOLE_GAMES.value(end, "deals") / max(playouts, 1),
            "abandoned": WHOLE_GAMES.value(end, "abandoned"), "run": run, "out": opts.out,
            "design": games_design(k, n_seats(game, run.params)),
            "metrics": list(METRICS), "unit": UNIT, "playouts_per_game": k}


def games_design(k: int, seats: int) -> str:
    ids, nround = design(k, seats)
    return (f"the entrants take the {seats} seats in the repeating pattern 1..{k}, and {assignments_text(k, seats)}, in {nround} round{'s' if nround > 1 else ''} of {k} (every entrant "
            f"in every seat once per round); game g is played once per seating of "
            + (f"round g mod {nround}" if nround > 1 else "the round") +
            f" ({k} games per game index), seat 0 dealing first, deal j of game g with the same cards in every seating")


def render_games(res) -> str:
    lines = [f"Duplicate whole games to the target, {res['n']:,} games, each played once per seating of its round "
             f"({res['playouts_per_game']} seatings: {res['n'] * res['playouts_per_game']:,} games played, "
             f"{res['mean_deals']:.2f} deals each on average, {res['abandoned']} abandoned)",
             "design: " + res["design"]]
    names = {"wins": "games won per seat (par 0.25; an entrant's share of the games = this x its seats)",
             "stakes": "stakes per game per seat (rule 18)"}
    for m in res["metrics"]:
        lines += metric_text(res["leaderboard"], res["pairs"], m, f"{names[m]}, unadjusted 95% CI:", "n games", 4,
                             gains=False)
    lines.append("\nverdict: " + res["verdict"])
    return "\n".join(lines)


def games_command(game, names, games: int | None = None, seed: int = 0, rules=None, user_defs=None,
                  opts: engine.RunOptions = engine.RunOptions()) -> Iterator[str]:
    """``tricksim compare boulmous NAMES --games N``: writes the run folder and yields the text to print."""
    game = _check_game(game)
    rules = rules or game.rules()
    specs = entrant_specs(game, names, user_defs)
    run = games_run(game, specs, games, seed, rules)
    opts = with_folder(opts, game.key, "compare-games", run)
    res = compare_games(game, specs, games, seed, rules, opts=opts, run=run)
    text = render_games(res)
    yield text
    write_table(res["leaderboard"], opts.out, "leaderboard")
    write_table(res["pairs"], opts.out, "pairs")
    (Path(opts.out) / "report.md").write_text(f"# Whole-game comparison\n\nRegenerate: `{res['run'].command}`\n\n"
                                              f"```\n{text}\n```\n")
    yield f"\ntables and report in {opts.out}"
