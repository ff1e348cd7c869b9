"""Bourre's sampling player measured (docs/methods/sampling.md): for its inference (``infer``), the card decisions,
the layouts drawn and rejected by the declaration check, the fallbacks and the CPU time per card decision
(``pimc_inference``; ``python -c "from tricksim.analysis.bourre.bench import pimc_inference; print(pimc_inference())"``).
"""
from __future__ import annotations

import time

import numpy as np
import pandas as pd

from ...kernels import bourre as K
from ...kernels.bourre import infer as KI
from .config import DEFAULT_PLAYERS, BourreRules, has_pimc, pimc_arg, rules_array
from .ev import ev_tables
from .pot import check_sessions
from .spec import SPEC


def inference_counts(seed: int = 1, players: int = DEFAULT_PLAYERS, sessions: int = 4, deals: int = 25, rules=None,
                     heuristics=None, first: int = 0) -> tuple[dict, float, np.ndarray]:
    """Sessions ``first..first+sessions-1`` played as ``trace`` plays them (the same records), one session at a
    time on this thread (kernels/bourre/sessions.py ``play_session``), with the sampling player's counters
    (kernels/bourre/infer.py ``STAT_NAMES``, summed over the sessions). Returns (the counters, the process's CPU
    seconds of the play, the records int64[sessions, deals, REC_LEN])."""
    players = SPEC.check_players(players)
    rules = rules or BourreRules()
    check_sessions(sessions, deals)
    specs = SPEC.parse_seats(heuristics, players)
    has_pimc(specs)                                  # refuses a non-integer worlds, decide or infer
    kd, kc = SPEC.keys(seed)
    codes, prm = SPEC.heuristic_arrays(specs)
    ra, evt = rules_array(rules), ev_tables(specs, rules, players)
    hands, pool, sd, st, nets, uw, iw, _, evrow = K.session_scratch()
    recs = np.zeros((sessions, deals, K.REC_LEN), np.int64)
    srow = np.zeros(K.S_LEN, np.int64)
    fan = np.zeros(deals, np.int64)
    t0 = time.process_time()
    for i in range(sessions):
        K.play_session(kd, kc, first + i, players, deals, ra, codes, prm, evt, evrow, recs[i], True, srow, fan, 1,
                       hands, pool, sd, st, nets, uw, iw, *pimc_arg(specs))
    cpu = time.process_time() - t0
    return dict(zip(KI.STAT_NAMES, (int(x) for x in iw[KI.IW_STATS:KI.IW_STATS + KI.N_STATS]))), cpu, recs


def pimc_inference(seed: int = 1, players: int = 5, sessions: int = 4, deals: int = 25,
                   seatings=(("pimc", "basic"), ("pimc:infer=1", "basic")), rules=None,
                   repeats: int = 1) -> pd.DataFrame:
    """The sampling player's inference (``infer``) measured: the same sessions played for each seating (its
    heuristics in turn round the table) on one thread (``inference_counts``). One row per seating: the card
    decisions of its sampling seats, those whose worlds were checked against the declarations, the layouts drawn
    per world of those, the share of those layouts the declaration check rejected, the worlds that fell back (share
    of all worlds), and the process's CPU seconds (the best of ``repeats``) of the whole play (the declarations,
    the other seats and the dealing included), per card decision."""
    rows = []
    for seats in seatings:
        heur = [seats[i % len(seats)] for i in range(players)]
        inference_counts(seed, players, 1, 1, rules, heur)          # compiles
        best = None
        for _ in range(repeats):
            c, cpu, _ = inference_counts(seed, players, sessions, deals, rules, heur)
            best = cpu if best is None else min(best, cpu)
        dec, iw = c["card_decisions"], c["inferred_worlds"]
        rows.append({"seats": " ".join(heur), "deals": sessions * deals, "card decisions": dec,
                     "inferred": c["inferred_decisions"], "worlds": c["worlds"],
                     "layouts per inferred world": c["draws"] / iw if iw else float("nan"),
                     "declaration rejections": c["declaration_rejects"] / c["draws"] if c["draws"] else float("nan"),
                     "fallback worlds": c["fallbacks"] / c["worlds"] if c["worlds"] else float("nan"),
                     "CPU s": best, "CPU ms per card decision": 1000 * best / dec if dec else float("nan")})
    return pd.DataFrame(rows)
