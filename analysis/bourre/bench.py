"""Bourre's sampling player measured (docs/methods/sampling.md): for its inference (``infer``), the card decisions,
the layouts drawn and rejected by the declaration check, the fallbacks and the CPU time per card decision
(``pimc_inference``; ``python -c "from tricksim.analysis.bourre.bench import pimc_inference; print(pimc_inference())"``).
For its shared solver table (``share_tt``), the solver nodes and CPU time per card decision with 0 and 1
(``pimc_share``, scripts/pimc_share_cost.py).
"""
from __future__ import annotations

import time

import numba
import numpy as np
import pandas as pd

from ...kernels import bourre as K
from ...kernels.bourre import infer as KI
from ...kernels.bourre import pimc as PB
from ...kernels.tt import W_NODES
from .config import DEFAULT_PLAYERS, BourreRules, has_pimc, pimc_arg, rules_array
from .ev import ev_tables
from .pot import check_sessions
from .spec import SPEC
from .studies import pimc_decisions


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


def pimc_share(seed: int = 0, players: int = 5, sessions: int = 4, deals: int = 30, rounds: int = 5,
               stream: int = 1) -> pd.DataFrame:
    """The sampling player's shared solver table (``share_tt``) measured on one thread: the card decisions with a
    choice of sessions played by pimc at every seat (studies.py ``pimc_decisions``), each made again by
    ``pimc_card`` (its default parameters, the decision stream ``stream``) with ``share_tt`` = 0 and 1 in turn (0
    first in even rounds, 1 first in odd ones), ``rounds`` times, from a fresh scratch each time. Asserts that
    both choose the same card in every decision. One row per trick and setting, then one for all the tricks: the
    decisions, the solver nodes per decision, the CPU milliseconds per decision (the process's CPU time of each
    decision, summed over the trick; the median of the rounds) and their ratios to ``share_tt`` = 0."""
    dec = pimc_decisions(seed, players, sessions, deals)
    prm = SPEC.heuristic_arrays(SPEC.parse_seats("pimc", players))[1]
    st = np.array([np.uint64(stream)], np.uint64)
    trick = np.array([d[4] for d in dec])
    got = {0: [], 1: []}

    def run(sh, sub):
        p = prm.copy()
        p[:, K.COLUMN["share_tt"]] = sh
        uw = np.zeros(K.UW_LEN, np.uint64)
        iw = np.zeros(K.IW_LEN, np.int64)
        cards, nodes, cpu = [], [], []
        for d in sub:
            n0 = int(uw[57 + W_NODES])
            t0 = time.process_time()
            cards.append(PB.pimc_card(*d[:20], p, d[20], st, uw, iw))
            cpu.append(time.process_time() - t0)
            nodes.append(int(uw[57 + W_NODES]) - n0)
        return np.array(cards), np.array(nodes), np.array(cpu)

    old = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        for sh in (0, 1):
            run(sh, dec[:1])                        # compiled (or loaded) before the clock starts
        for r in range(rounds):
            for sh in ((0, 1) if r % 2 == 0 else (1, 0)):
                got[sh].append(run(sh, dec))
    finally:
        numba.set_num_threads(old)
    assert all(np.array_equal(g[0], got[0][0][0]) for sh in (0, 1) for g in got[sh]), "share_tt changed a decision"
    rows = []
    for t in [*sorted(set(trick.tolist())), "all"]:
        sel = trick == t if t != "all" else np.ones(len(dec), bool)
        n = int(sel.sum())
        for sh in (0, 1):
            rows.append({"players": players, "trick": t if t == "all" else t + 1, "share_tt": sh, "decisions": n,
                         "nodes per decision": got[sh][0][1][sel].sum() / n,
                         "CPU ms per decision": 1000 * float(np.median([g[2][sel].sum() for g in got[sh]])) / n})
    df = pd.DataFrame(rows)
    base = df[df["share_tt"] == 0].set_index("trick")
    for col, ratio in (("nodes per decision", "nodes ratio"), ("CPU ms per decision", "CPU ratio")):
        df[ratio] = [r[col] / base.loc[r["trick"], col] for _, r in df.iterrows()]
    return df
