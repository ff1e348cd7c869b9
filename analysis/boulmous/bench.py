"""Boulmous's sampling player measured (docs/methods/sampling.md): for its ``race`` margin, how many card
decisions change and how much solver work a margin saves (``python -c "from tricksim.analysis.boulmous.bench import
pimc_race; print(pimc_race())"``); for its inference (``infer``), the rejections, fallbacks and cost per decision
(``pimc_inference``); for its shared transposition table (``share_tt``), the nodes and CPU time per decision with
and without it (``pimc_share``, scripts/pimc_share_cost.py)."""
from __future__ import annotations

import time

import numba
import numpy as np
import pandas as pd

from ...kernels import boulmous as K
from ...kernels.boulmous import pimc as P
from ...kernels.boulmous import solver as S
from ..common import make_params
from .config import PIMC_RACE, PIMC_WORLDS, BoulmousRules, pimc_key, rules_array
from .spec import SPEC
from .trace import trace


def _contract_deals(seed: int, deals: int, ntrumps: int):
    """The deals ``0..deals-1`` of ``seed`` (its card stream), each a forced contract: the taker deal i mod 4 on
    lead, trump i mod ``ntrumps`` (4: the suits; 5: no-trump too), bid 3. Returns (hands, takers, trumps, bids)."""
    kd, _ = SPEC.keys(seed)
    idx = np.arange(deals, dtype=np.int64)
    return S.random_deals(kd, 0, deals), idx % 4, idx % ntrumps, np.full(deals, 3, np.int64)


def pimc_race(deals: int = 200, worlds: int | None = None, races=(1.0, 1.5, 2.0), seed: int = 0,
              repeats: int = 2, ref_worlds: int = 512) -> pd.DataFrame:
    """The Boulmous sampling player's ``race`` measured (docs/methods/sampling.md): ``deals`` random deals
    played by four pimc seats with ``race`` = 0 (taker deal i mod 4 on lead, trumps S H D C in turn, bid 3, goal the
    contract, default rules: kernels/boulmous/pimc.py pimc_play_batch); every decision with a choice is made again
    from the same view and stream with each margin of ``races`` (pimc_replay). One row per margin (0 first): the
    decisions, the share that play another card than race = 0, and the milliseconds per decision on one thread
    and, as in the worlds table, the share that play the card pimc plays with ``ref_worlds`` worlds (another
    stream: ``pimc_key(seed + 1)``, race 0)
    (the best of ``repeats`` timings of the whole replay; 1 - its ratio to race = 0 is the time saved), and the
    solver nodes searched as a share of race = 0's (the work saved, which the host's load does not blur)."""
    worlds = PIMC_WORLDS if worlds is None else int(worlds)
    ra = rules_array(BoulmousRules())
    key = pimc_key(seed)
    hands, takers, trumps, bids = _contract_deals(seed, deals, 4)
    old = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        cards = np.zeros((deals, 24), np.int64)
        P.pimc_play_batch(hands, takers, trumps, bids, ra, worlds, P.GOAL_CONTRACT, key, 0, cards,
                          np.zeros(deals, np.int64), P.SHARE_TT)
        ref = np.zeros((deals, 24), np.int64)
        P.pimc_replay(hands, takers, trumps, bids, cards, ra, ref_worlds, P.GOAL_CONTRACT, pimc_key(seed + 1), 0, 0.0,
                      ref, np.zeros(deals, np.int64), P.SHARE_TT)
        rows, base = [], None
        for r in (0.0, *races):
            best = None
            for _ in range(repeats):
                out = np.zeros((deals, 24), np.int64)
                nodes = np.zeros(deals, np.int64)
                t0 = time.perf_counter()
                P.pimc_replay(hands, takers, trumps, bids, cards, ra, worlds, P.GOAL_CONTRACT, key, 0, float(r), out,
                              nodes, P.SHARE_TT)
                dt = time.perf_counter() - t0
                best = dt if best is None else min(best, dt)
            mask = out >= 0
            if base is None:
                base = out
                assert np.array_equal(out[mask], cards[mask])   # race 0 replays the play exactly
            nd = int(mask.sum())
            if r == 0.0:
                base_nodes = nodes.sum()
            rows.append({"race": r, "decisions": nd, "changed": float((out[mask] != base[mask]).mean()),
                         f"agree with {ref_worlds} worlds": float((out[mask] == ref[mask]).mean()),
                         "solver nodes": float(nodes.sum() / base_nodes), "ms per decision": 1000 * best / nd})
        return pd.DataFrame(rows)
    finally:
        numba.set_num_threads(old)


def pimc_inference(deals: int = 200, seed: int = 1, seatings=(("pimc", "cautious", "pimc", "aggressive"),
                                                              ("pimc:infer=1", "cautious", "pimc:infer=1", "aggressive")),
                   rules: BoulmousRules | None = None, repeats: int = 2) -> pd.DataFrame:
    """The sampling player's inference (``infer``) measured: the deals ``0..deals-1`` of ``seed`` traced on one
    thread (kernels/boulmous/deals.py ``trace_deals``) for each seating, with its counters
    (kernels/boulmous/pimc.py ``STAT_NAMES``). One row per seating: the pimc decisions (cards and calls), those
    whose worlds were checked against the auction, the layouts drawn per world of those, the share of the layouts
    the auction check rejected, the worlds that fell back (share of all worlds), and the CPU milliseconds per
    decision (the process's CPU time, which a shared host blurs less than wall time: the best of ``repeats`` timings
    of the whole trace, the other seats and the dealing included)."""
    rules = rules or BoulmousRules()
    old = numba.get_num_threads()
    numba.set_num_threads(1)
    rows = []
    try:
        for seats in seatings:
            trace(seed=seed, hands=1, rules=rules, heuristics=list(seats))      # checks the seats, compiles
            kd, kc, ra, codes, prm = SPEC.kernel_args(make_params(seed, rules, SPEC.parse_seats(list(seats))))
            best = None
            for _ in range(repeats):
                stats = np.zeros(P.N_STATS, np.int64)
                t0 = time.process_time()
                K.trace_deals(kd, kc, 0, deals, ra, codes, prm, pimc_key(seed), stats)
                dt = time.process_time() - t0
                best = dt if best is None else min(best, dt)
            c = dict(zip(P.STAT_NAMES, (int(x) for x in stats)))
            dec = c["card_decisions"] + c["call_decisions"]
            rows.append({"seats": " ".join(seats), "deals": deals, "decisions": dec, "cards": c["card_decisions"],
                         "calls": c["call_decisions"], "inferred": c["inferred_decisions"], "worlds": c["worlds"],
                         "layouts per inferred world": (c["draws"] / c["inferred_worlds"] if c["inferred_worlds"]
                                                        else float("nan")),
                         "auction rejections": c["auction_rejects"] / c["draws"] if c["draws"] else float("nan"),
                         "fallback worlds": c["fallbacks"] / c["worlds"] if c["worlds"] else float("nan"),
                         "CPU ms per decision": 1000 * best / dec if dec else float("nan")})
        return pd.DataFrame(rows)
    finally:
        numba.set_num_threads(old)


def pimc_share(deals: int = 100, seed: int = 0, worlds: int | None = None, race: float | None = None,
               rounds: int = 3) -> pd.DataFrame:
    """The sampling player's shared table (``share_tt``) measured on one thread, ``share_tt`` = 0 and 1 in turn
    (0 first in even rounds, 1 first in odd ones), ``rounds`` times, on ``deals`` random deals (taker deal i mod 4
    on lead, trump i mod 5, bid 3, default rules):
    - ``cards``: every card decision with a choice along the play of four pimc seats (pimc_play_batch), made again
      by pimc_replay (``worlds``, margin ``race``: the defaults unless given);
    - ``play``: the deals played out by four pimc seats without race, the contract forced (pimc_play_batch, as
      ``odds --play pimc`` and ``bench --solver`` play them: card decisions only);
    - ``deals``: the deals traced with four ``pimc`` seats (trace_deals, ``share_tt`` set on every seat: the
      auction, the play and the dealing; its nodes are not counted).
    Asserts that both settings make the same decisions (the same cards, the same records). The calls
    (pimc_calls) solve with the per-solve table whatever ``share_tt``. One row per kind and setting: the decisions,
    the solver nodes per decision, the CPU milliseconds per decision (the process's CPU time: the median of the
    rounds) and their ratios to ``share_tt`` = 0."""
    worlds = PIMC_WORLDS if worlds is None else int(worlds)
    race = PIMC_RACE if race is None else float(race)
    rules = BoulmousRules()
    ra = rules_array(rules)
    key = pimc_key(seed)
    hands, takers, trumps, bids = _contract_deals(seed, deals, 5)
    old = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        cards = np.zeros((deals, 24), np.int64)
        P.pimc_play_batch(hands, takers, trumps, bids, ra, worlds, P.GOAL_CONTRACT, key, 0, cards,
                          np.zeros(deals, np.int64), P.SHARE_TT)
        traced = {sh: make_params(seed, rules, SPEC.parse_seats([f"pimc:share_tt={sh}"])) for sh in (0, 1)}
        for sh in (0, 1):       # compiled (or loaded) before the clock starts
            trace(seed=seed, hands=1, rules=rules, heuristics=[f"pimc:share_tt={sh}"])
            P.pimc_replay(hands[:1], takers[:1], trumps[:1], bids[:1], cards[:1], ra, worlds, P.GOAL_CONTRACT, key, 0,
                          race, np.zeros((1, 24), np.int64), np.zeros(1, np.int64), sh)
            P.pimc_play_batch(hands[:1], takers[:1], trumps[:1], bids[:1], ra, worlds, P.GOAL_CONTRACT, key, 0,
                              np.zeros((1, 24), np.int64), np.zeros(1, np.int64), sh)
        got = {}
        for r in range(rounds):
            for sh in ((0, 1) if r % 2 == 0 else (1, 0)):
                out = np.zeros((deals, 24), np.int64)
                nodes = np.zeros(deals, np.int64)
                t0 = time.process_time()
                P.pimc_replay(hands, takers, trumps, bids, cards, ra, worlds, P.GOAL_CONTRACT, key, 0, race, out,
                              nodes, sh)
                _record(got, "cards", sh, time.process_time() - t0, int(nodes.sum()), int((out >= 0).sum()), out)
                pc = np.zeros((deals, 24), np.int64)
                t0 = time.process_time()
                P.pimc_play_batch(hands, takers, trumps, bids, ra, worlds, P.GOAL_CONTRACT, key, 0, pc,
                                  np.zeros(deals, np.int64), sh)
                _record(got, "play", sh, time.process_time() - t0, -1, 24 * deals, pc)
                kd2, kc2, ra2, codes, prm = SPEC.kernel_args(traced[sh])
                stats = np.zeros(P.N_STATS, np.int64)
                t0 = time.process_time()
                recs = K.trace_deals(kd2, kc2, 0, deals, ra2, codes, prm, key, stats)
                _record(got, "deals", sh, time.process_time() - t0, -1,
                        int(stats[P.S_CARDS] + stats[P.S_CALLS]), recs)
        rows = []
        for kind in ("cards", "play", "deals"):
            for sh in (0, 1):
                g = got[kind, sh]
                assert np.array_equal(g["result"], got[kind, 0]["result"]), f"{kind}: share_tt changed a decision"
                ms = 1000 * float(np.median(g["cpu"])) / g["decisions"]
                npd = g["nodes"] / g["decisions"] if g["nodes"] >= 0 else float("nan")
                rows.append({"kind": kind, "share_tt": sh, "decisions": g["decisions"], "nodes per decision": npd,
                             "CPU ms per decision": ms, "CPU s per round": [round(x, 2) for x in g["cpu"]]})
        df = pd.DataFrame(rows)
        base = df[df["share_tt"] == 0].set_index("kind")
        for col, ratio in (("nodes per decision", "nodes ratio"), ("CPU ms per decision", "CPU ratio")):
            df[ratio] = [r[col] / base.loc[r["kind"], col] for _, r in df.iterrows()]
        return df
    finally:
        numba.set_num_threads(old)


def _record(got, kind, share, cpu, nodes, decisions, result):
    """One round's measurement of ``kind`` with ``share``: its CPU seconds appended; nodes, decisions and the
    decisions made (``result``) kept, the same in every round."""
    g = got.setdefault((kind, share), {"cpu": []})
    g["cpu"].append(cpu)
    g.update(nodes=nodes, decisions=decisions, result=np.array(result, copy=True))
