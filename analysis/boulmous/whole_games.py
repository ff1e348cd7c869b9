"""Boulmous whole games in a duplicate tournament (``tricksim compare boulmous NAMES --games N``; the tournament
and its tables: analysis/compare/games.py): the block function, the entrants it refuses and what its seats
need before the blocks run (score-aware seats bid by the equity table, analysis/boulmous/equity/saware.py)."""
from __future__ import annotations

import numpy as np

from ...kernels.boulmous import equity as KE
from ..common import TricksimError
from ..game import WholeGames
from ..seating import seating
from .config import has_pimc, score_aware
from .equity.saware import seating_arrays
from .spec import SPEC

STUDY = "boulmous.games_duplicate"


def check(specs) -> None:
    """The entrants whole games can seat: no sampling player, score-aware values checked."""
    if has_pimc(specs):
        raise TricksimError("compare --games: the sampling player pimc does not play whole games; choose among "
                            "cautious, aggressive, random")
    score_aware(specs)


def block_games_duplicate(params, first, n):
    run_specs = SPEC.specs_from_json(params["entrants"])
    ids, nround = seating(SPEC, len(run_specs), params)
    rows = [[run_specs[i] for i in row] for row in ids]
    rules = SPEC.rules_of(params)
    codes, prm = SPEC.heuristic_arrays(run_specs)
    pstar, cal = seating_arrays(rows, rules)
    kd, kc = SPEC.keys(params["seed"])
    return KE.sim_games_duplicate(kd, kc, first, n, SPEC.rules_array(rules), np.ascontiguousarray(codes[ids]),
                                  np.ascontiguousarray(prm[ids]), ids, len(run_specs), nround, pstar, cal)


WHOLE_GAMES = WholeGames(study=STUDY, games=20_000, block=1024, check=check, prepare=seating_arrays)
