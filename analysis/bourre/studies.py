"""Bourre's duplicate tournament block (``tricksim compare bourre``) and benchmark cases."""
from __future__ import annotations

import time

import numpy as np
import pandas as pd

from ...kernels import bourre as K
from ...kernels.bourre import pimc as PB
from ...kernels.bourre import solver as S
from ...kernels.cards import popcount
from ..common import make_params
from ..seating import seating
from .config import DEFAULT_PLAYERS, PIMC_WORLDS, BourreRules, _dynamic, has_pimc, pimc_arg, rules_array
from .ev import EV_FORM, ev_tables
from .pot import agg_layout, block_pot, fan_stride
from .spec import SPEC


def duplicate_ev_tables(specs, rules, players: int, form: bool = False) -> np.ndarray | None:
    """The tournament kernel's ev tables (analysis/bourre/ev.py ``ev_tables``) for the entrants ``specs``: ev's
    tables (zeros when no entrant is ev) whenever an entrant is the sampling player, or ``form`` (``EV_FORM``).
    With the sampling player sim_duplicate then has one compiled form, the one the ladder and the trust page
    compile (an ev entrant beside pimc): the form without ev plays the same deals, the ev test per decision costs
    nothing beside the sampling, and it would be a second compilation of the kernel's largest form."""
    return ev_tables(specs, rules, players, form or has_pimc(specs))


def block_duplicate(params, first, n):
    players = SPEC.check_players(params.get("players", DEFAULT_PLAYERS))
    specs = SPEC.specs_from_json(params["entrants"])
    codes, prm = SPEC.heuristic_arrays(specs)
    k = len(codes)
    ids, nround = seating(SPEC, k, params)
    kd, kc = SPEC.keys(params["seed"])
    # row h: entrant h's table (seat_ids name it); ``EV_FORM`` or a sampling entrant: the tables (zeros) though
    # no entrant is ev (``duplicate_ev_tables``)
    evt = duplicate_ev_tables(specs, SPEC.rules_of(params), players, bool(params.get(EV_FORM)))
    return _dynamic(K.sim_duplicate, kd, kc, first, n, players, np.ascontiguousarray(codes[ids]),
                    np.ascontiguousarray(prm[ids]), ids, evt, k, nround, int(params.get("pot", 0)),
                    rules_array(SPEC.rules_of(params)), *pimc_arg(specs))


def bench_cases(seed=0):
    """Complete deals (antes, deal, pass/play, draw, five tricks, settlement) inside sessions
    of 200 deals, through the pot study's block function."""
    cases = []
    for label, players, h in [("7 players, default (basic)", 7, "default"), ("7 players, cinch", 7, "cinch"),
                              ("7 players, random", 7, "random"), ("4 players, default", 4, "default"),
                              ("8 players, default", 8, "default")]:
        specs = SPEC.parse_seats(h, players)
        params = make_params(seed, BourreRules(), specs, players=players, deals=200)

        def fn(first, n, params=params):
            ns = max(1, n // 200)
            v = block_pot(params, first // 200, ns)
            lay = agg_layout(-(-200 // fan_stride(200)), 200)
            return int(v[lay.offset("misc") + K.MI_DEALS])
        cases.append((label, fn))
    return cases


SOLVER_CAPS = {5: 20_000, 7: 2_000}   # whole deals per round: the 7-player search is about 15x slower


def solver_bench_cases(seed=0):
    """Benchmark cases of the Bourre open-hand solver (``tricksim bench --solver``): whole 5-card deals after
    the draw, one random seat per deal, its guaranteed tricks, "surely not bourre" and "surely wins"
    (kernels/bourre/solver.py solve_batch), default rules, at 5 and 7 players (deals per round capped per table
    size: the search grows steeply with the players)."""
    rules = S.default_rules()
    kd, _ = SPEC.keys(seed)
    cases = []
    for players, cap in SOLVER_CAPS.items():
        def fn(first, n, players=players, cap=cap):
            m = min(n, cap)
            hands, pos = S.random_deals(kd, first, m, players)
            out = np.zeros((m, S.N_OUT), np.int64)
            S.solve_batch(hands, pos, rules, out)
            return m
        cases.append((f"open-hand solve, whole deal, {players} players (one seat)", fn))
    return cases


PIMC_BENCH_PLAYERS = 5
PIMC_BENCH_CAP = 2_000      # whole deals per round at most (a few seconds)


def pimc_bench_cases(seed=0):
    """The sampling player's case of ``tricksim bench --solver`` (issue 12's bar: at least 2 whole deals per
    second per core): fresh deals at 5 players (antes, deal, pass/play, draw, five tricks, settlement), every
    seat ``pimc`` at its default settings, through the duplicate kernel with one entrant (at most
    ``PIMC_BENCH_CAP`` deals per round)."""
    specs = SPEC.parse_seats("pimc", PIMC_BENCH_PLAYERS)
    codes, prm = SPEC.heuristic_arrays(specs)
    kd, kc = SPEC.keys(seed)
    ra = rules_array(BourreRules())
    ids = np.zeros((1, PIMC_BENCH_PLAYERS), np.int64)

    def fn(first, n):
        m = min(n, PIMC_BENCH_CAP)
        K.sim_duplicate(kd, kc, first, m, PIMC_BENCH_PLAYERS, codes[None, :].copy(), prm[None, :, :].copy(), ids,
                        duplicate_ev_tables(specs, BourreRules(), PIMC_BENCH_PLAYERS), 1, 1, 0, ra, True)
        return m
    return [(f"sampling player pimc, whole deal, {PIMC_BENCH_PLAYERS} players (every seat)", fn)]


def pimc_decisions(seed=0, players=5, sessions=4, deals=30, spec="pimc"):
    """The card decisions with a choice (two or more legal cards) of every seat in sessions played by ``spec``
    at every seat (``trace_sessions``): per decision the arguments ``pimc_card`` takes, rebuilt from the deal
    record (the record holds the deal so far at that point: ``pimc_card`` reads no later trick)."""
    rules = BourreRules()
    ra = rules_array(rules)
    specs = SPEC.parse_seats(spec, players)
    codes, prm = SPEC.heuristic_arrays(specs)
    kd, kc = SPEC.keys(seed)
    recs, _ = K.trace_sessions(kd, kc, 0, sessions, players, deals, ra, codes, prm, ev_tables(specs, rules, players),
                               *pimc_arg(specs))
    out = []
    for rec in recs.reshape(-1, K.REC_LEN):
        if rec[K.REC_NTRICKS] != 5:
            continue
        act = int(rec[K.REC_ACTIVE])
        na = bin(act).count("1")
        dealer = int(rec[K.REC_DEALER])
        clockwise = [(dealer + i) % players for i in range(1, players + 1) if (act >> ((dealer + i) % players)) & 1]
        hands = {s: int(rec[K.REC_HANDS + s]) for s in clockwise}
        trump, lono, up = int(rec[K.REC_TRUMP]), bool(rec[K.REC_LONO]), int(rec[K.REC_UPCARD])
        known = (1 << up) if rec[K.REC_UP_OUT] else 0
        played = 0
        nlg = 0
        for t in range(5):
            base = K.REC_TRICKS + 10 * t
            i0 = clockwise.index(int(rec[base]))
            ls = wc = ws = -1
            for q in range(na):
                s = clockwise[(i0 + q) % na]
                c = int(rec[base + 1 + q])
                lg = int(rec[K.REC_LEGAL + nlg])
                if popcount(np.uint64(lg)) > 1:
                    out.append((rec, s, np.uint64(hands[s]), np.uint64(lg), t, q, ls, wc, ws, trump, lono,
                                np.uint64(played), np.uint64(known), players, dealer, up, False,
                                int(rec[K.REC_POT_STAKE]), rules.ante, ra, nlg))
                hands[s] &= ~(1 << c)
                played |= 1 << c
                if q == 0:
                    ls, wc, ws = c >> 4, c, s
                elif S.beats(c, ls, wc, trump, lono):
                    wc, ws = c, s
                nlg += 1
    return out


def pimc_agreement(worlds=(4, 8, 16, 32, 64, 128, 256), ref=1024, races=(0.05, 0.1, 0.2, 0.3), race_worlds=None,
                   seed=0, players=5, sessions=4, deals=30):
    """How often pimc with W worlds plays the card pimc with ``ref`` worlds plays (another random stream), and
    the time per decision, over the decisions of ``pimc_decisions``; then for ``race_worlds`` worlds (default
    the registry's) each race margin: the decisions it changes (same stream, race off) and the time. Returns
    a DataFrame (one row per setting)."""


    dec = pimc_decisions(seed, players, sessions, deals)
    prm = SPEC.heuristic_arrays(SPEC.parse_seats("pimc", players))[1]
    uw = np.zeros(K.UW_LEN, np.uint64)
    iw = np.zeros(K.IW_LEN, np.int64)

    def choose(w, race, stream):
        p = prm.copy()
        p[:, K.P_WORLDS] = w
        p[:, K.P_RACE] = race
        st = np.array([np.uint64(stream)], np.uint64)
        t0 = time.perf_counter()
        cards = [PB.pimc_card(*d[:20], p, d[20], st, uw, iw) for d in dec]
        return cards, (time.perf_counter() - t0) / max(1, len(dec)) * 1000

    choose(1, 0.0, 1)                                   # compile
    base, _ = choose(ref, 0.0, 2)
    rows = []
    for w in worlds:
        c, ms = choose(w, 0.0, 1)
        rows.append({"worlds": w, "race": 0.0, "versus": f"{ref} worlds", "decisions": len(dec),
                     "agreement": float(np.mean([a == b for a, b in zip(c, base)])), "ms per decision": ms})
    rw = race_worlds or PIMC_WORLDS
    c0, _ = choose(rw, 0.0, 1)
    for r in races:
        c, ms = choose(rw, r, 1)
        rows.append({"worlds": rw, "race": r, "versus": f"{rw} worlds, race 0", "decisions": len(dec),
                     "agreement": float(np.mean([a == b for a, b in zip(c, c0)])), "ms per decision": ms})
    return pd.DataFrame(rows)


def solver_bench(seed=0):
    """``Game.solver_bench``: the open-hand solver's cases, then the sampling player's (``tricksim bench --solver``)."""
    return solver_bench_cases(seed) + pimc_bench_cases(seed)
