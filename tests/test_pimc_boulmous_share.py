"""The Boulmous sampling player's shared transposition table (``pimc:share_tt``, kernels/boulmous/solver.py
``solve_shared``, ``share_scope``): the table kept across the worlds, candidates and decisions of one deal.

- exactness of the keys: in one scope, positions with the same cards left but other owners, another taker or
  another trump, and endgames checked against plain minimax (tests/ref_solver.py), all get ``solve``'s value
  from a table that holds the others' entries;
- the counts: a position solved again in its scope is answered by the table alone (hits, no store), in another
  scope from scratch; the generation counter wraps by clearing the table;
- the sampling player's decisions (cards, whole deals, and traced deals with their sampled calls, several rule
  sets) are identical with share_tt = 0 and 1, for 1 and 2 threads, while the shared table searches fewer nodes;
- share_tt is on by default (it changes no decision);
- a bad ``share_tt`` is refused in one line, exit code 2.
"""
import random

import numba
import numpy as np
import pytest

import ref_boulmous as ref
import ref_solver
from test_solver_boulmous import (RULE_SETS, TRUMPS, _full_deals, _random_history, cid, kernel_args, position,
                                  rules_array)
from tricksim import cli
from tricksim.analysis import compare
from tricksim.analysis.boulmous import GAME, BoulmousRules
from tricksim.analysis.boulmous.config import pimc_key
from tricksim.analysis.engine import RunOptions
from tricksim.kernels import boulmous as K
from tricksim.kernels import tt
from tricksim.kernels.boulmous import pimc as PM
from tricksim.kernels.boulmous import solver as S

TRICK = np.zeros(4, np.int64)


def _counts(ws):
    return int(ws[S.W_NODES]), int(ws[S.W_PROBES]), int(ws[S.W_HITS]), int(ws[S.W_STORES])


def _swap(h, a, b, rng):
    """``h`` with one card of seat a and one of seat b exchanged: the same cards left, other owners."""
    g = h.copy()
    ca = [c for c in range(64) if (int(h[a]) >> c) & 1]
    cb = [c for c in range(64) if (int(h[b]) >> c) & 1]
    x, y = rng.choice(ca), rng.choice(cb)
    g[a] = np.uint64(int(h[a]) ^ (1 << x) ^ (1 << y))
    g[b] = np.uint64(int(h[b]) ^ (1 << x) ^ (1 << y))
    return g


@pytest.mark.parametrize("rules", [RULE_SETS[0], RULE_SETS[6]], ids=["defaults", "lbt=0,head=1,overtrump"])
def test_one_scope_many_positions_each_gets_its_own_value(rules):
    """Whole deals and their relatives (two cards swapped between seats: the same cards left, which the per-solve
    table's key alone would not tell apart; another taker; another trump) solved one after the other in ONE scope
    of one rule set: each value equals a fresh ``solve``; the relatives' values differ often enough for a key that
    mixed them up to be caught; the table is read (hits) and the hands are restored."""
    rng = random.Random(28)
    ra = rules_array(rules)
    ws0, ws1 = S.new_workspace(), S.new_workspace()
    S.share_scope(ws1, np.uint64(S.scope_of(np.uint64(5), 0, ra)))
    deals = S.random_deals(np.uint64(2828), 0, 40)
    differ = checked = 0
    for i in range(deals.shape[0]):
        h, t, taker = deals[i], i % 5, i % 4
        leader = taker if i % 3 else (taker + 1) % 4
        base = S.solve(h.copy(), leader, TRICK, 0, t, taker, ra, ws0)
        variants = [(h, t, taker), (_swap(h, taker, (taker + 1) % 4, rng), t, taker),
                    (_swap(h, (taker + 1) % 4, (taker + 2) % 4, rng), t, taker), (h, t, (taker + 2) % 4),
                    (h, (t + 1) % 5, taker)]
        for g, tv, tk in variants:
            want = S.solve(g.copy(), leader, TRICK, 0, tv, tk, ra, ws0)
            hh = g.copy()
            assert S.solve_shared(hh, leader, TRICK, 0, tv, tk, ra, ws1) == want
            assert np.array_equal(hh, g)
            differ += want != base
            checked += 1
    assert checked == 200 and differ >= 60
    assert ws1[S.W_HITS] > 0 and ws1[S.W_STORES] > 0 and ws1[S.W_SGEN] == 1


@pytest.mark.parametrize("rules", RULE_SETS[:4])
def test_shared_endgames_equal_minimax(rules):
    """Endgames of 2 and 3 tricks, at trick boundaries and mid-trick, in one scope per rule set (the table full
    of the earlier endgames' entries): ``solve_shared`` equals exhaustive minimax."""
    rng = random.Random(900 + RULE_SETS.index(rules))
    ra = rules_array(rules)
    ws = S.new_workspace()
    S.share_scope(ws, np.uint64(S.scope_of(np.uint64(9), RULE_SETS.index(rules), ra)))
    for i in range(500):
        trump = TRUMPS[i % 5]
        hands, leader, trick = position(rng, 2 + i % 2, rules, trump, i % 2 == 1)
        taker = rng.randrange(4)
        want = ref_solver.taker_tricks(hands, leader, trump, rules, taker, trick)
        h, tr = kernel_args(hands, trick)
        assert S.solve_shared(h, leader, tr, len(trick), TRUMPS.index(trump), taker, ra, ws) == want
    assert ws[S.W_HITS] > 0


def test_hit_and_store_counts():
    """A trick-boundary position solved again in its scope: every search of the bisection is answered by the
    table at the root (one node, one probe, one hit each), nothing stored; in a new scope the same work as the
    first time; the per-solve table (``solve``) redoes the whole search every time."""
    h = S.random_deals(np.uint64(4), 0, 1)[0]
    ra = rules_array(RULE_SETS[0])
    ws = S.new_workspace()
    S.share_scope(ws, np.uint64(10))
    v = S.solve_shared(h.copy(), 0, TRICK, 0, 1, 0, ra, ws)
    first = _counts(ws)
    assert first[0] > 100 and first[1] > 0 and first[3] > 0
    assert S.solve_shared(h.copy(), 0, TRICK, 0, 1, 0, ra, ws) == v
    again = [b - a for a, b in zip(first, _counts(ws))]
    assert 1 <= again[0] <= 3 and again[1] == again[2] >= 1 and again[3] == 0
    S.share_scope(ws, np.uint64(10))              # the same scope: still there
    n0 = _counts(ws)
    S.solve_shared(h.copy(), 0, TRICK, 0, 1, 0, ra, ws)
    assert [b - a for a, b in zip(n0, _counts(ws))] == again
    S.share_scope(ws, np.uint64(11))              # another scope: none of the entries is read
    n0 = _counts(ws)
    assert S.solve_shared(h.copy(), 0, TRICK, 0, 1, 0, ra, ws) == v
    assert [b - a for a, b in zip(n0, _counts(ws))] == list(first)
    w0 = S.new_workspace()
    S.solve(h.copy(), 0, TRICK, 0, 1, 0, ra, w0)
    once = _counts(w0)
    S.solve(h.copy(), 0, TRICK, 0, 1, 0, ra, w0)
    assert _counts(w0) == tuple(2 * x for x in once)


def test_shared_generation_wraps_by_clearing_the_table():
    ws = S.new_workspace(4)
    assert ws.shape == (S.W_TT + 16 + 2 * (16 >> S.SHARE_SHRINK),)
    ws[S.W_TT:] = np.uint64(7)
    S.share_scope(ws, np.uint64(1))
    assert ws[S.W_SGEN] == 1 and (ws[S.W_TT:] == 7).all()      # nothing cleared on the way up
    ws[S.W_SGEN] = np.uint64((1 << S.SGEN_BITS) - 1)
    S.share_scope(ws, np.uint64(2))
    assert ws[S.W_SGEN] == 1 and (ws[S.W_TT + 16:] == 0).all() and (ws[S.W_TT:S.W_TT + 16] == 7).all()
    assert ws[tt.W_GEN] == 0                                    # the per-solve generation is its own
    ra0, ra1 = rules_array(RULE_SETS[0]), rules_array(RULE_SETS[1])
    assert S.scope_of(np.uint64(3), 5, ra0) != S.scope_of(np.uint64(3), 5, ra1)
    assert S.scope_of(np.uint64(3), 5, ra0) != S.scope_of(np.uint64(3), 6, ra0)
    assert S.scope_of(np.uint64(3), 5, ra0) == S.scope_of(np.uint64(3), 5, ra0.copy())


def test_card_decisions_identical_with_and_without_sharing():
    """Seeded views of many deals (random legal histories of 0-21 cards, every rule set, both goals): the card
    pimc_card chooses with share=1 (one workspace for all, several decisions per deal index) equals share=0's,
    and the shared workspace searched fewer nodes in all."""
    rng = random.Random(2028)
    ws0, ws1 = S.new_workspace(), S.new_workspace()
    n = 0
    for k, (h, hands, _leader, trump, taker, r) in enumerate(_full_deals(48, 4242)):
        ra = rules_array(r)
        for j in range(3):
            now, seq = _random_history(rng, hands, taker, trump, r, min(21, 7 * j + rng.randint(0, 6)))
            played = np.zeros(24, np.int64)
            for i, c in enumerate(seq):
                played[i] = cid(c)
            leader, trick = taker, []
            for c in seq:
                trick.append(c)
                if len(trick) == 4:
                    leader = (leader + ref.trick_winner(trick, trump, r["left_bower_is_trump"])) % 4
                    trick = []
            seat = (leader + len(trick)) % 4
            args = (seat, np.uint64(sum(1 << cid(c) for c in now[seat])), played, len(seq), taker,
                    TRUMPS.index(trump), 3 + k % 4, ra, 12, k % 2, np.uint64(3), k)
            assert PM.pimc_card(*args, ws0, 0) == PM.pimc_card(*args, ws1, 1)
            n += 1
    assert n == 144 and ws1[S.W_NODES] < ws0[S.W_NODES]


def test_whole_deals_identical_for_both_settings_and_any_thread_count():
    """pimc_play_batch and the race replay (pimc_replay): the same cards and tricks with share 0 and 1, for 1
    and 2 threads; the shared table searches fewer nodes on the same decisions."""
    for k, r in enumerate(RULE_SETS[:3]):
        ra = rules_array(r)
        n = 6
        hands = S.random_deals(np.uint64(60 + k), 0, n)
        idx = np.arange(n, dtype=np.int64)
        args = (hands, idx % 4, idx % 5, np.full(n, 3 + k, np.int64))
        runs = {}
        before = numba.get_num_threads()
        try:
            for th in sorted({1, numba.config.NUMBA_NUM_THREADS}):
                numba.set_num_threads(th)
                for share in (0, 1):
                    cards, won = np.zeros((n, 24), np.int64), np.zeros(n, np.int64)
                    PM.pimc_play_batch(*args, ra, 8, PM.GOAL_CONTRACT, np.uint64(k), 0, cards, won, share)
                    out, nodes = np.zeros((n, 24), np.int64), np.zeros(n, np.int64)
                    PM.pimc_replay(*args, cards, ra, 8, PM.GOAL_CONTRACT, np.uint64(k), 0, 1.0, out, nodes, share)
                    runs[th, share] = (cards, won, out, nodes)
        finally:
            numba.set_num_threads(before)
        ref_run = runs[1, 0]
        for key, run in runs.items():
            for a, b in zip(run[:3], ref_run[:3]):
                assert np.array_equal(a, b), key
            assert np.array_equal(run[3], runs[1, key[1]][3])      # the nodes: per deal, whatever the threads
        assert runs[1, 1][3].sum() < runs[1, 0][3].sum()


def test_traced_deals_and_compare_identical_with_and_without_sharing():
    """Four pimc seats (bidding by sampling, and with inference) traced with share_tt 0 and 1: the same
    records; a tournament with a pimc entrant: the same figures for 1 and 2 threads and any block size."""
    kd, kc = GAME.keys(6)
    ra = GAME.rules_array(BoulmousRules())
    for extra in ("worlds=6", "worlds=6,infer=1"):
        recs = []
        for share in (0, 1):
            c4, p4 = GAME.heuristic_arrays(GAME.parse_seats([f"pimc:{extra},share_tt={share}"]))
            recs.append(K.trace_deals(kd, kc, 0, 10, ra, c4, p4, pimc_key(6)))
        assert np.array_equal(recs[0], recs[1])
    res = []
    for share, block, threads in ((0, 24, 1), (1, 24, 1), (1, 5, 2)):
        names = ["cautious", f"pimc:worlds=4,share_tt={share}"]
        res.append(compare.compare("boulmous", names, hands=24, seed=1, block_size=block,
                                   opts=RunOptions(threads=threads)))
    cols = [c for c in res[0]["leaderboard"].columns if c != "heuristic"]
    for r in res[1:]:
        assert res[0]["leaderboard"][cols].equals(r["leaderboard"][cols])
    assert res[1]["leaderboard"].equals(res[2]["leaderboard"]) and res[1]["pairs"].equals(res[2]["pairs"])


def test_share_tt_is_on_by_default():
    spec = GAME.parse_heuristic("pimc")
    assert spec.value("share_tt") == 1 and PM.SHARE_TT == 1
    _, prm = GAME.heuristic_arrays([spec])
    assert prm[0, K.COLUMN["share_tt"]] == 1


def test_the_commands_pass_share_to_the_batch_kernels():
    """Every call of ``pimc_play_batch`` and ``pimc_replay`` in analysis/ and scripts/ passes ``share``, their last
    argument: an omitted argument is a compiled form of its own (Numba types it ``omitted(default=1)``, not
    int64), so a command that passed it in one call and omitted it in another compiled the kernel twice.  The
    kernels (and ``pimc_card``) declare no default for it, so an omission fails at once wherever it is called from;
    this reads the calls of the code no test runs (scripts/) too."""
    import ast
    import inspect
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent
    want = {name: len(inspect.signature(getattr(PM, name).py_func).parameters)
            for name in ("pimc_play_batch", "pimc_replay")}
    calls = []
    for f in sorted([*(root / "analysis").rglob("*.py"), *(root / "scripts").glob("*.py")]):
        for node in ast.walk(ast.parse(f.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) in want:
                calls.append((f.name, node.lineno, node.func.attr, len(node.args) + len(node.keywords)))
    assert len(calls) >= 8, calls
    assert [c for c in calls if c[3] != want[c[2]]] == [], want
    for name in (*want, "pimc_card"):
        last = list(inspect.signature(getattr(PM, name).py_func).parameters.values())[-1]
        assert last.name == "share" and last.default is inspect.Parameter.empty, name


@pytest.mark.parametrize("spec, msg", [("pimc:share_tt=2", "out of range"), ("pimc:share_tt=-1", "out of range"),
                                       ("pimc:share_tt=0.5", "share_tt must be an integer"),
                                       ("pimc:share_tt=yes", "must be a number")])
def test_bad_share_tt_one_line_exit_2(spec, msg, capsys):
    code = 0
    try:
        cli.main(["trace", "boulmous", "-H", spec, "--hands", "1"])
    except SystemExit as e:
        code = e.code
    err = capsys.readouterr().err
    assert code == 2 and msg in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
