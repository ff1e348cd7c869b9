"""Bourre's duplicate tournament block (``tricksim compare bourre``) and benchmark cases."""
from __future__ import annotations

import numpy as np

from tricksim.analysis.bourre.config import DEFAULT_PLAYERS, GAME, BourreRules, _dynamic, rules_array
from tricksim.analysis.bourre.pot import agg_layout, block_pot, fan_stride
from tricksim.analysis.common import make_params
from tricksim.kernels import bourre as K


def block_duplicate(params, first, n):
    from tricksim.analysis.compare import seating
    players = GAME.check_players(params.get("players", DEFAULT_PLAYERS))
    codes, prm = GAME.heuristic_arrays(GAME.specs_from_json(params["entrants"]), GAME.rules_of(params), players)
    k = len(codes)
    ids, nround = seating(GAME, k, params)
    kd, kc = GAME.keys(params["seed"])
    return _dynamic(K.sim_duplicate, kd, kc, first, n, players, np.ascontiguousarray(codes[ids]),
                    np.ascontiguousarray(prm[ids]), ids, k, nround, int(params.get("pot", 0)),
                    rules_array(GAME.rules_of(params)))


def bench_cases(seed=0):
    """Complete deals (antes, deal, pass/play, draw, five tricks, settlement) inside sessions
    of 200 deals, through the pot study's block function."""
    cases = []
    for label, players, h in [("7 players, default (basic)", 7, "default"), ("7 players, cinch", 7, "cinch"),
                              ("7 players, random", 7, "random"), ("4 players, default", 4, "default"),
                              ("8 players, default", 8, "default")]:
        specs = GAME.parse_seats(h, players)
        params = make_params(seed, BourreRules(), specs, players=players, deals=200)

        def fn(first, n, params=params):
            ns = max(1, n // 200)
            v = block_pot(params, first // 200, ns)
            lay = agg_layout(-(-200 // fan_stride(200)), 200)
            return int(v[lay["misc"][0] + 3])
        cases.append((label, fn))
    return cases


SOLVER_CAPS = {5: 20_000, 7: 2_000}   # whole deals per round: the 7-player search is about 15x slower


def solver_bench_cases(seed=0):
    """Benchmark cases of the Bourre open-hand solver (``tricksim bench --solver``): whole 5-card deals after
    the draw, one random seat per deal, its guaranteed tricks, "surely not bourre" and "surely wins"
    (kernels/solve_bourre.solve_batch), default rules, at 5 and 7 players (deals per round capped per table
    size: the search grows steeply with the players)."""
    from tricksim.kernels import solve_bourre as S
    rules = S.default_rules()
    kd, _ = GAME.keys(seed)
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


def pimc_bench_cases(seed=0):
    """The sampling player's case of ``tricksim bench --solver`` (issue 12's bar: at least 2 whole deals per
    second per core): fresh deals at 5 players (antes, deal, pass/play, draw, five tricks, settlement), every
    seat ``pimc`` at its default settings, through the duplicate kernel with one entrant."""
    specs = GAME.parse_seats("pimc", PIMC_BENCH_PLAYERS)
    codes, prm = GAME.heuristic_arrays(specs, BourreRules(), PIMC_BENCH_PLAYERS)
    kd, kc = GAME.keys(seed)
    ra = rules_array(BourreRules())
    ids = np.zeros((1, PIMC_BENCH_PLAYERS), np.int64)

    def fn(first, n):
        K.sim_duplicate(kd, kc, first, n, PIMC_BENCH_PLAYERS, codes[None, :].copy(), prm[None, :, :].copy(), ids,
                        1, 1, 0, ra)
        return n
    return [(f"sampling player pimc, whole deal, {PIMC_BENCH_PLAYERS} players (every seat)", fn)]
