"""The Bourre sampling player's shared solver table (``pimc:share_tt``, kernels/bourre/share.py, pimc_solve.py
``analyse_shared``, ``open_decision``): the open-hand solver's table kept across the worlds and candidates of one
card decision.

- exactness of the keys: in one scope, positions and their relatives (the same cards left with other owners,
  other tricks won, other A-K-Q holders, other trumps played), whole deals and mid-trick positions, under every
  rule set of tests/test_solver_bourre.py: each gets ``analyse``'s answers from a table holding the others'
  entries; the relatives' answers differ often enough for a key that mixed them up to be caught;
- the counts: a position solved again in its scope searches fewer nodes, in a new scope as many as from scratch;
  the generation counter wraps by clearing the table;
- the sampling player's decisions are identical with share_tt = 0 and 1 (card by card on traced decisions, and
  whole seeded traces at 4, 5 and 7 players under several rule sets), for 1 and 2 threads and any blocks, while
  the shared table searches fewer nodes; the referee accepts the traces; ``trace --explain`` gives the same
  values;
- share_tt is on by default; a bad value is refused in one line, exit code 2.
"""
import random

import numba
import numpy as np
import pytest

import ref_bourre as ref
from test_solver_bourre import RULE_SETS, RULE_IDS, kernel_args, random_position, rules_array
from tricksim import cli
from tricksim.analysis import bourre as B
from tricksim.analysis.bourre.bench import pimc_share
from tricksim.analysis.bourre.studies import duplicate_ev_tables
from tricksim.kernels import bourre as K
from tricksim.kernels.bourre import pimc as P
from tricksim.kernels.bourre import pimc_solve as PS
from tricksim.kernels.bourre import share as SH
from tricksim.kernels.bourre import solver as S
from tricksim.kernels.tt import W_NODES

SEED = 5


def _relatives(h, pos, rng):
    """Positions with the constants of (h, pos) (players, seat, trump, Lo-No, known cards), as a scope requires,
    that the per-solve key alone would not tell apart or that differ in what only the shared key holds."""
    n = int(pos[S.POS_N])
    out = []
    for _ in range(3):                      # one card of seat a and one of seat b exchanged
        a, b = rng.sample(range(n), 2)
        ca = [c for c in range(64) if (int(h[a]) >> c) & 1]
        cb = [c for c in range(64) if (int(h[b]) >> c) & 1]
        if ca and cb:
            x, y = rng.choice(ca), rng.choice(cb)
            g = h.copy()
            g[a] = np.uint64(int(h[a]) ^ (1 << x) ^ (1 << y))
            g[b] = np.uint64(int(h[b]) ^ (1 << x) ^ (1 << y))
            out.append(("owners", g, pos.copy()))
    q = rng.randrange(n)                    # another seat's tricks won
    p2 = pos.copy()
    p2[S.POS_WON + q] += 1 if p2[S.POS_WON + q] < 3 else -1
    out.append(("won", h.copy(), p2))
    p3 = pos.copy()                         # another seat held A-K-Q when play began
    p3[S.POS_AKQ] ^= 1 << rng.randrange(n)
    out.append(("akq", h.copy(), p3))
    trump = int(pos[S.POS_TRUMP])
    if trump >= 0:                          # a trump nobody holds: played, or not (unseen)
        held = 0
        for s in range(n):
            held |= int(h[s])
        free = [trump * 16 + r for r in range(13)
                if not (held >> (trump * 16 + r)) & 1 and not (int(pos[S.POS_KNOWN]) >> (trump * 16 + r)) & 1]
        if free:
            p4 = pos.copy()
            p4[S.POS_PLAYED] ^= 1 << rng.choice(free)
            out.append(("played", h.copy(), p4))
    return out


def _analyse(h, pos, ra, ws, shared):
    res = np.zeros(S.N_OUT, np.int64)
    g = h.copy()
    if shared:
        PS.analyse_shared(g, pos, ra, ws, res)
    else:
        S.analyse(g, pos, ra, ws, res)
    assert np.array_equal(g, h)             # hands restored
    return tuple(int(x) for x in res)


@pytest.mark.parametrize("rules", RULE_SETS, ids=RULE_IDS)
def test_one_scope_many_positions_each_gets_its_own_answers(rules):
    """Families of positions (whole deals, boundaries and mid-trick at 3-7 players) with their relatives, each
    family solved twice over in ONE scope of the shared table: every answer equals ``analyse``'s from an empty
    table; the relatives' answers differ from their family's first often enough to catch a key that mixed them."""
    rng = random.Random(28 + RULE_SETS.index(rules))
    ra = rules_array(rules)
    ws0, ws1 = S.new_workspace(), S.new_workspace()
    differ = {}
    n_checked = 0
    for i in range(60):
        n = 3 + i % 5
        k = 5 if i % 6 == 0 else 2 + i % 3
        p = random_position(rng, n, k, rules, lono=i % 9 == 4, mid_trick=i % 2 == 1, suits=4 - i % 3)
        h, pos = kernel_args(p)
        fam = [("base", h, pos)] + _relatives(h, pos, rng)
        PS.open_decision(ws1, np.uint64(i), i, 0, n, int(pos[S.POS_ME]), int(pos[S.POS_TRUMP]),
                         bool(pos[S.POS_LONO]), np.uint64(pos[S.POS_KNOWN]), ra)
        want = [_analyse(g, q, ra, ws0, False) for _, g, q in fam]
        for rnd in range(2):
            for j in (range(len(fam)) if rnd == 0 else reversed(range(len(fam)))):
                kind, g, q = fam[j]
                assert _analyse(g, q, ra, ws1, True) == want[j], (p, kind, rnd)
                n_checked += 1
        for j, (kind, _, _) in enumerate(fam[1:], 1):
            d = differ.setdefault(kind, [0, 0])
            d[0] += want[j] != want[0]
            d[1] += 1
    assert n_checked >= 60 * 2 * 5
    assert differ["owners"][0] >= 10, differ        # a key without the owners would be caught
    assert differ["won"][0] + differ["akq"][0] + differ.get("played", [0])[0] >= 1, differ


def test_pagat_holder_played_trumps_and_akq_change_answers():
    """The parts of the shared key that only some rules read do change answers under those rules (so they must be
    keyed): a trump played or unseen under the pagat cinch with holder knowledge, the A-K-Q holders under
    akq_in_order, the tricks won under pagat; each relative is still answered exactly in a shared scope."""
    rng = random.Random(5)
    found = {"played": 0, "akq": 0, "won": 0}
    for rules, kinds in ((RULE_SETS[0], ("played", "won")), (RULE_SETS[3], ("akq",))):
        ra = rules_array(rules)
        ws0, ws1 = S.new_workspace(), S.new_workspace()
        for i in range(400):
            n = 3 + i % 3
            p = random_position(rng, n, 3 + i % 2, rules, mid_trick=i % 2 == 1, suits=1 + i % 2)
            h, pos = kernel_args(p)
            PS.open_decision(ws1, np.uint64(i), 0, 0, n, int(pos[S.POS_ME]), int(pos[S.POS_TRUMP]),
                             bool(pos[S.POS_LONO]), np.uint64(pos[S.POS_KNOWN]), ra)
            base = _analyse(h, pos, ra, ws0, False)
            assert _analyse(h, pos, ra, ws1, True) == base
            for kind, g, q in _relatives(h, pos, rng):
                if kind in kinds:
                    want = _analyse(g, q, ra, ws0, False)
                    assert _analyse(g, q, ra, ws1, True) == want, (p, kind)
                    found[kind] += want != base
    assert all(v >= 1 for v in found.values()), found


def test_a_scope_reused_searches_less_a_new_one_as_much():
    rng = random.Random(3)
    ra = rules_array(RULE_SETS[0])
    p = random_position(rng, 5, 4, RULE_SETS[0])
    h, pos = kernel_args(p)
    ws0, ws1 = S.new_workspace(), S.new_workspace()

    def nodes(ws, shared):
        before = int(ws[W_NODES])
        _analyse(h, pos, ra, ws, shared)
        return int(ws[W_NODES]) - before

    args = (5, int(pos[S.POS_ME]), int(pos[S.POS_TRUMP]), False, np.uint64(pos[S.POS_KNOWN]), ra)
    fresh = nodes(ws0, False)
    PS.open_decision(ws1, np.uint64(1), 0, 0, *args)
    assert nodes(ws1, True) == fresh            # an empty table: the same search
    again = nodes(ws1, True)
    assert again < fresh
    PS.open_decision(ws1, np.uint64(1), 0, 0, *args)          # the same scope: kept
    assert nodes(ws1, True) == again
    PS.open_decision(ws1, np.uint64(2), 0, 0, *args)          # another scope: from scratch
    assert nodes(ws1, True) == fresh
    assert int(ws1[SH.W_SON]) == 0                             # the table is on only during a shared solve


def test_generation_wraps_by_clearing_the_table():
    ws = S.new_workspace(4)
    table = S.W_TT + (2 << 4)
    ws[table:table + SH.SHARE_WORDS] = np.uint64(7)
    for i in range((1 << SH.SGEN_BITS) - 1):
        SH.share_scope(ws, np.uint64(i + 1), table)
    assert int(ws[SH.W_SGEN]) == (1 << SH.SGEN_BITS) - 1 and (ws[table:table + SH.SHARE_WORDS] == 7).all()
    SH.share_scope(ws, np.uint64(10 ** 6), table)
    assert int(ws[SH.W_SGEN]) == 1 and not ws[table:table + SH.SHARE_WORDS].any()
    assert len(ws) == table + SH.SHARE_WORDS


# ---- the sampling player ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [4, 7])
def test_card_decisions_identical_and_cheaper(players):
    """Every card decision with a choice of pimc sessions, made again with share_tt 0 and 1 (``pimc_share``
    asserts the same card each time): fewer nodes with the table shared."""
    df = pimc_share(seed=2, players=players, sessions=1, deals=4, rounds=1)
    every = df[df["trick"] == "all"]
    assert list(every["share_tt"]) == [0, 1] and every["decisions"].iloc[0] >= 20
    assert every["nodes per decision"].iloc[1] < every["nodes per decision"].iloc[0]
    per_trick = df[df["trick"] != "all"].groupby("share_tt")["decisions"].sum()
    assert list(per_trick) == [every["decisions"].iloc[0]] * 2       # the tricks' rows add up to all


def _trace(players, seats, rules):
    heur = [seats[i % len(seats)] for i in range(players)]
    return B.trace(SEED, players, 2, 6, B.BourreRules(**rules), heur, with_legal=True)


RULES = [(4, {}), (5, {"cinch_rule": "akq_in_order", "trump_card": "separate_turnup"}),
         (7, {"lo_no": True, "declare_then_draw": True}), (5, {"cinch_knowledge": "omniscient"}),
         (4, {"cinch_rule": "hoyle_lead_highest_with_akq", "must_head_in_suit": False})]


@pytest.mark.parametrize("players,rules", RULES)
def test_traces_identical_and_referee_accepts(players, rules):
    """Seeded traces with pimc seats (and inference) at share_tt 0 and 1: the same deals, decisions and tricks
    (only the seats' labels differ); the referee accepts the share_tt = 1 traces."""
    for extra in ("worlds=12", "worlds=8,infer=1"):
        a = _trace(players, [f"pimc:{extra},share_tt=0", "basic", f"pimc:{extra},share_tt=0"], rules)
        b = _trace(players, [f"pimc:{extra},share_tt=1", "basic", f"pimc:{extra},share_tt=1"], rules)
        strip = [[{k: v for k, v in d.items() if k != "heuristics"} for d in t] for t in (a, b)]
        assert strip[0] == strip[1]
        assert sum(len(d.get("tricks", [])) == 5 for d in b) >= 3
    by = {}
    for d in b:
        by.setdefault(d["session"], []).append(d)
    R = B.rules_dict(B.BourreRules(**rules))
    assert [e for ds in by.values() for e in ref.check_session(ds, SEED, R)] == []


def _duplicate(first, n, spec, players=5):
    """The tournament kernel as ``compare`` calls it with a sampling entrant (one entrant at every seat): ev's
    tables (zeros) beside pimc, analysis/bourre/studies.py ``duplicate_ev_tables``."""
    specs = B.parse_seats(spec, players)
    codes, prm = B.heuristic_arrays(specs)
    kd, kc = B.GAME.keys(SEED)
    return K.sim_duplicate(kd, kc, first, n, players, codes[None, :].copy(), prm[None, :, :].copy(),
                           np.zeros((1, players), np.int64), duplicate_ev_tables(specs, B.BourreRules(), players),
                           1, 1, 0, B.rules_array(B.BourreRules()), True)


def test_same_result_for_any_threads_and_blocks_and_as_without_sharing():
    on = ["pimc:worlds=8,share_tt=1", "basic", "pimc:worlds=8,share_tt=1", "basic", "basic"]
    off = [s.replace("share_tt=1", "share_tt=0") for s in on]
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = _duplicate(0, 16, on)
        base = _duplicate(0, 16, off)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = _duplicate(0, 16, on)
        split = _duplicate(0, 7, on) + _duplicate(7, 9, on)
    finally:
        numba.set_num_threads(old)
    assert (one == two).all() and (one == split).all() and (one == base).all()


def test_explain_with_a_sharing_seat():
    """``trace --explain`` with a share_tt = 1 seat: the trace is the plain trace's, every explained decision's best
    is the card played, and the candidates' values are those of share_tt = 0."""
    res = []
    for share in (0, 1):
        seats = B.parse_seats([f"pimc:worlds=16,share_tt={share}", "basic", "basic", "basic"], 4)
        plain = B.trace(SEED, 4, 1, 6, None, seats)
        expl = B.trace(SEED, 4, 1, 6, None, seats, explain=True)
        assert [{k: v for k, v in d.items() if k != "explain"} for d in expl] == plain
        xs = [x for d in expl for x in d["explain"]]
        assert sum(x["kind"] == "card" for x in xs) >= 3 and all(x["best"] == x["played"] for x in xs)
        res.append(xs)
    assert res[0] == res[1]


@pytest.mark.parametrize("spec, msg", [("pimc:share_tt=2", "out of range"), ("pimc:share_tt=-1", "out of range"),
                                       ("pimc:share_tt=0.5", "share_tt must be an integer"),
                                       ("pimc:share_tt=yes", "must be a number")])
def test_bad_share_tt_one_line_exit_2(spec, msg, capsys):
    code = 0
    try:
        cli.main(["trace", "bourre", "--players", "4", "-H", spec, "--deals", "1"])
    except SystemExit as e:
        code = e.code
    err = capsys.readouterr().err
    assert code == 2 and msg in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_share_tt_is_on_by_default():
    """Declared once (kernels/bourre/players.py PARAMS), on by default: it changes no decision."""
    col = K.COLUMN["share_tt"]
    assert P.P_SHARE_TT == col and K.PARAMS[col][1] == 1
    _, prm = B.heuristic_arrays(B.parse_seats(["pimc"], 4))
    assert (prm[:, col] == 1).all()
    _, prm = B.heuristic_arrays(B.parse_seats(["pimc:share_tt=0"], 4))
    assert (prm[:, col] == 0).all()
