"""The Bourre sampling player (kernels/bourre/pimc.py, issue 12): the referee accepts its traces, its worlds
are consistent with everything the play showed (checked with the referee's legality, card by card), its
results do not depend on threads or blocks, worlds=1 and many both play legally and differ, and bad input is
refused in one line."""
import numba
import numpy as np
import pytest

import ref_bourre as ref
from tricksim import cli
from tricksim.analysis import bourre as B
from tricksim.analysis.bourre.studies import duplicate_ev_tables
from tricksim.kernels import bourre as K
from tricksim.kernels.bourre import infer as KI
from tricksim.kernels.bourre import pimc as P
from tricksim.kernels.cards import cards_of

SEED = 5


def referee(players, sessions, deals, heuristic, **rules):
    """The trace of ``heuristic`` (one for every seat, or a list: one per seat) and the referee's objections."""
    heur = list(heuristic) if isinstance(heuristic, (list, tuple)) else [heuristic]
    tr = B.trace(SEED, players, sessions, deals, B.BourreRules(**rules), heur, with_legal=True)
    by = {}
    for d in tr:
        by.setdefault(d["session"], []).append(d)
    R = B.rules_dict(B.BourreRules(**rules))
    return tr, [e for ds in by.values() for e in ref.check_session(ds, SEED, R)]


PIMC = "pimc:worlds=8,threshold=1"          # plays more often than the default: more tricks to check


@pytest.mark.parametrize("players,rules,spec", [
    (2, {}, PIMC), (5, {}, PIMC), (8, {}, PIMC), (5, {}, PIMC + ",eval=1,race=0.2"),
    (5, {"must_overtrump": False, "cinch_rule": "hoyle_lead_highest_with_akq"}, PIMC),
    (6, {"void_must_play_highest_trump": True, "lo_no": True}, PIMC),
    (4, {"must_trump_even_if_cannot_win": False, "must_head_in_suit": False, "trump_card": "separate_turnup"}, PIMC),
    (7, {"cinch_rule": "akq_in_order", "cinch_knowledge": "omniscient"}, PIMC + ",eval=1")])
def test_referee_accepts_pimc_traces(players, rules, spec):
    tr, errs = referee(players, 3, 15, spec, **rules)
    assert errs == []
    assert sum(len(d.get("tricks", [])) == 5 for d in tr) >= 5      # real play happened


def test_pimc_plays_other_cards_than_basic():
    a, _ = referee(5, 2, 12, "pimc:worlds=16")
    b, _ = referee(5, 2, 12, "basic")
    assert [d["deal"] for d in a] == [d["deal"] for d in b]          # the same deals
    assert sum(x.get("tricks") != y.get("tricks") for x, y in zip(a, b)) > 0


# ---------------------------------------------------------------------------
# the sampler against the referee
# ---------------------------------------------------------------------------
def _start_hands(rec, n):
    return {s: set(cards_of(int(rec[K.REC_HANDS + s]))) for s in range(n) if (rec[K.REC_ACTIVE] >> s) & 1}


def _history(rec, n, t, kpos):
    """[(trick, seat, card)] of the cards played before card kpos of trick t, in order."""
    active = [s for s in range(n) if (rec[K.REC_ACTIVE] >> s) & 1]
    dealer = int(rec[K.REC_DEALER])
    clockwise = [(dealer + i) % n for i in range(1, n + 1) if (dealer + i) % n in active]
    out = []
    for tt in range(t + 1):
        base = K.REC_TRICKS + 10 * tt
        i0 = clockwise.index(int(rec[base]))
        for q in range(len(active) if tt < t else kpos):
            out.append((tt, clockwise[(i0 + q) % len(active)], int(rec[base + 1 + q])))
    return clockwise, out


def _referee_accepts(world, me, rec, n, hist, clockwise, R, trump, lono, up, known_out):
    """Would every card of ``hist`` played by another seat have been legal with the world's hands?"""
    hands = {s: set(world[s]) | {c for (_, q, c) in hist if q == s} for s in clockwise}
    ctx = {"rules": R, "trump": trump, "lono": lono, "upcard": up, "won": {s: 0 for s in clockwise}, "played": [],
           "known_out": known_out, "active": clockwise, "n_active": len(clockwise),
           "akq_holders": {s for s in clockwise if trump is not None
                           and {trump * 16 + 10, trump * 16 + 11, trump * 16 + 12} <= hands[s]}}
    trick, seats, cur = [], [], 0
    for (tt, s, c) in hist:
        if tt != cur:
            w = ref.trick_winner(trick, seats, trump, lono)
            ctx["won"][w] += 1
            ctx["played"] += trick
            trick, seats, cur = [], [], tt
        ctx["trick_no"] = tt
        if s != me and c not in ref.legal_plays(s, {q: sorted(h) for q, h in hands.items()}, trick, ctx):
            return False
        hands[s].discard(c)
        trick.append(c)
        seats.append(s)
    return True


@pytest.mark.parametrize("players,rules", [(5, {}), (7, {"must_overtrump": False}),
                                           (4, {"void_must_play_highest_trump": True}),
                                           (6, {"trump_card": "separate_turnup", "cinch_knowledge": "omniscient"})])
def test_sampled_worlds_agree_with_the_play(players, rules):
    br = B.BourreRules(**rules)
    ra = B.rules_array(br)
    R = B.rules_dict(br)
    specs = B.parse_seats("basic", players)
    codes, prm = B.heuristic_arrays(specs)
    kd, kc = B.GAME.keys(SEED)
    recs, _ = K.trace_sessions(kd, kc, 0, 3, players, 12, ra, codes, prm, None)
    checked = voids = 0
    rng = np.random.default_rng(1)
    for rec in recs.reshape(-1, K.REC_LEN):
        if rec[K.REC_NTRICKS] != 5:
            continue
        n = players
        up = int(rec[K.REC_UPCARD])
        sep = br.trump_card == "separate_turnup"
        lono = bool(rec[K.REC_LONO])
        trump = None if lono else int(rec[K.REC_TRUMP])
        known = {up} if (sep or rec[K.REC_UP_OUT]) else set()
        start = _start_hands(rec, n)
        t, kpos = int(rng.integers(1, 5)), int(rng.integers(0, len(start)))
        clockwise, hist = _history(rec, n, t, kpos)
        base = K.REC_TRICKS + 10 * t
        me = clockwise[(clockwise.index(int(rec[base])) + kpos) % len(clockwise)]
        played = {c for (_, _, c) in hist}
        h = start[me] - played
        pm = sum(1 << c for c in played)
        ko = sum(1 << c for c in known)
        worlds, ok, _ = P.sample_worlds(rec, me, np.uint64(sum(1 << c for c in h)), t, kpos, -1 if lono else trump,
                                        lono, np.uint64(pm), np.uint64(ko), n, int(rec[K.REC_DEALER]), up, sep, ra, 40,
                                        np.uint64(7), prm, int(rec[K.REC_POT_STAKE]), int(rec[K.REC_ANTE_AMT]),
                                        np.zeros(KI.N_STATS, np.int64))
        assert ok.all()
        true = {s: start[s] - played for s in clockwise}
        assert _referee_accepts(true, me, rec, n, hist, clockwise, R, trump, lono, up, known)
        for w in worlds:
            world = {s: set(cards_of(int(w[s]))) for s in clockwise}
            assert world[me] == h
            seen = set()
            for s in clockwise:
                assert len(world[s]) == len(true[s])                       # hand sizes
                assert not world[s] & seen and not world[s] & played and not world[s] & known
                seen |= world[s]
            dealer = int(rec[K.REC_DEALER])
            if up in true.get(dealer, set()) and dealer != me and not sep:
                assert up in world[dealer]                                  # the dealer still holds the up-card
            assert _referee_accepts(world, me, rec, n, hist, clockwise, R, trump, lono, up, known)
        voids += sum(1 for (_, s, c) in hist if s != me and hist and c >> 4 != hist[0][2] >> 4)
        checked += 1
    assert checked >= 10 and voids > 0


# ---------------------------------------------------------------------------
# determinism, worlds, bad input
# ---------------------------------------------------------------------------
def _duplicate(first, n, spec, players=5):
    """The tournament kernel as ``compare`` calls it with a sampling entrant (one entrant at every seat): ev's
    tables (zeros) beside pimc, analysis/bourre/studies.py ``duplicate_ev_tables``."""
    specs = B.parse_seats(spec, players)
    codes, prm = B.heuristic_arrays(specs)
    kd, kc = B.GAME.keys(SEED)
    return K.sim_duplicate(kd, kc, first, n, players, codes[None, :].copy(), prm[None, :, :].copy(),
                           np.zeros((1, players), np.int64), duplicate_ev_tables(specs, B.BourreRules(), players),
                           1, 1, 0, B.rules_array(B.BourreRules()), True)


def test_same_result_for_any_threads_and_blocks():
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = _duplicate(0, 24, "pimc:worlds=8")
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = _duplicate(0, 24, "pimc:worlds=8")
        split = _duplicate(0, 10, "pimc:worlds=8") + _duplicate(10, 14, "pimc:worlds=8")
    finally:
        numba.set_num_threads(old)
    assert (one == two).all() and (one == split).all()


def test_one_world_and_many_differ_and_race_changes_little():
    a = B.trace(SEED, 5, 2, 12, None, ["pimc:worlds=1"])
    b = B.trace(SEED, 5, 2, 12, None, ["pimc:worlds=64"])
    c = B.trace(SEED, 5, 2, 12, None, ["pimc:worlds=64,race=0.5"])
    assert sum(x.get("tricks") != y.get("tricks") for x, y in zip(a, b)) > 0
    # chips are conserved either way (the referee checks the rest above)
    assert all(sum(d["score_delta"]) + d["pot_after"] - d["pot_before"] == 0 for d in a + b + c)


@pytest.mark.parametrize("args,msg", [
    (["trace", "bourre", "--players", "5", "-H", "pimc:worlds=0"], "worlds"),
    (["trace", "bourre", "--players", "5", "-H", "pimc:worlds=2.5"], "worlds must be an integer"),
    (["odds", "bourre", "--hand", "AH KH 7C 4D 2S", "--up-card", "9H", "--play", "heuristic,magic"],
     "unknown kind of play"),
    (["odds", "bourre", "--hand", "AH KH 7C 4D 2S", "--up-card", "9H", "--play", "pimc:worlds=0"], "worlds"),
    (["pot", "--players", "5", "--sessions", "2", "-H", "pimc"], "the sampling player pimc plays in"),
])
def test_bad_input_one_line_exit_2(args, msg, capsys, tmp_path):
    code = 0
    try:
        cli.main(args + ["--out", str(tmp_path / "o")] if args[0] == "odds" else args)
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    lines = [x for x in err.strip().splitlines() if x.strip()]
    assert len(lines) == 1 and msg in lines[0]


def test_compare_defaults_with_a_pimc_entrant():
    from tricksim.analysis.bourre.config import PIMC_COMPARE_BLOCK, PIMC_COMPARE_HANDS
    slow = B.GAME.duplicate.slow
    assert slow(B.parse_seats(["basic", "pimc"], 2)) == (PIMC_COMPARE_HANDS, PIMC_COMPARE_BLOCK)
    assert slow(B.parse_seats(["basic", "cinch"], 2)) is None


def test_compare_with_a_pimc_entrant_calls_the_tournament_kernel_in_ev_s_form(monkeypatch):
    """``compare bourre`` with the sampling player among the entrants and no ev entrant passes sim_duplicate ev's
    tables (zeros), the form the ladder and the trust page compile (ev beside pimc), not a second form without ev
    (about 14 CPU s cold); without the sampling player it keeps the form without ev (None).  The 10th argument is
    the ev tables, the 14th the sampling player's flag."""
    import numba
    from tricksim.analysis import compare as C
    from tricksim.analysis.bourre import studies
    forms = []

    def dynamic(kernel, *args):
        forms.append(tuple(str(numba.typeof(a)) for a in args))
        return run(kernel, *args)
    run = studies._dynamic
    monkeypatch.setattr(studies, "_dynamic", dynamic)
    res = C.compare("bourre", ["pimc:worlds=2", "basic"], hands=4, seed=SEED, extra={"players": 4})
    assert res["n"] == 4
    assert {(f[8], f[13]) for f in forms} == {("array(float64, 2d, C)", "bool")}, forms
    specs = B.parse_seats(["pimc", "basic", "ev"], 3)
    t = studies.duplicate_ev_tables(specs[:2], B.BourreRules(), 4)
    assert t.shape == (2, K.EV_LEN) and t.dtype == np.float64 and not t.any()
    assert studies.duplicate_ev_tables(B.parse_seats(["basic", "cinch"], 2), B.BourreRules(), 4) is None
    with_ev = studies.duplicate_ev_tables(specs, B.BourreRules(), 7)     # the shipped table of 7 players
    assert not with_ev[:2].any() and with_ev[2].any()       # ev's own table where an entrant is ev
