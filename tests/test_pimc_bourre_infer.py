"""The Bourre sampling player's inference (``pimc:infer=1``, kernels/bourre/infer.py): its card-play worlds come with
a history (each other player's hand before the draw) in which every other player, deciding as its model (basic with
pimc's own parameters, written again here in Python), makes its actual play/pass and draws its actual number of
cards; the fallback is taken and counted; ``infer=0`` plays as before; the traces pass the referee."""
import hashlib
import math

import numba
import numpy as np
import pytest

import ref_bourre as ref
from tricksim import cli
from tricksim.analysis import bourre as B
from tricksim.analysis.bourre.bench import inference_counts, pimc_inference
from tricksim.analysis.bourre.studies import duplicate_ev_tables
from tricksim.kernels import bourre as K
from tricksim.kernels.bourre import infer as KI
from tricksim.kernels.bourre import pimc as P
from tricksim.kernels.cards import cards_of

SEED = 5


# ---- the model, written again in Python from kernels/bourre/players.py (basic's declaration) ----------------------
def _rank(c):
    return c & 15


def _estimate(H, trump, lono, ndisc, p):
    if lono:
        v = p["ace_weight"] * sum(_rank(c) <= 1 for c in H) + p["king_weight"] * sum(2 <= _rank(c) <= 3 for c in H)
        return v + p["draw_weight"] * ndisc
    side = {c for c in H if c >> 4 != trump}
    v = p["ace_weight"] * sum(_rank(c) == 12 for c in side) + p["king_weight"] * sum(_rank(c) == 11 for c in side)
    if trump is not None:
        tr = [c for c in H if c >> 4 == trump]
        v += p["trump_weight"] * len(tr) + p["trump_rank_weight"] * sum(_rank(c) for c in tr) / 12.0
    return v + p["draw_weight"] * ndisc


def _discard(H, trump, lono, is_dealer, upcard, limit, p):
    if limit <= 0:
        return set()
    keepable = set(H) - ({upcard} if lono and is_dealer else set())
    if lono:
        disc = {c for c in keepable if _rank(c) >= 4}
        while len(disc) > limit:            # throw the highest first: keep the lowest of them
            disc.remove(min(disc, key=lambda c: (_rank(c), c >> 4)))
        return disc
    keep = {c for c in H if c >> 4 == trump or _rank(c) == 12 or (p["keep_kings"] > 0.5 and _rank(c) == 11)}
    disc = keepable - keep
    while len(disc) > limit:
        disc.remove(max(disc, key=lambda c: (_rank(c), -(c >> 4))))
    return disc


def _model(H, pos, k, nplay, pot, is_dealer, ctx, p):
    """(play, discard) of basic with parameters ``p`` holding ``H`` (a set), the pos-th of k to declare."""
    R, trump, lono, up, sep = ctx["R"], ctx["trump"], ctx["lono"], ctx["up"], ctx["sep"]
    if is_dealer and nplay == 0 and R["all_pass"] == "dealer_wins":
        return True, set()
    disc = _discard(H, trump, lono, is_dealer, up, ctx["limit"], p)
    if pos == k - 1 and nplay == 0:
        play = True
    else:
        thr = p["threshold"] + p["declared_weight"] * nplay
        if k > 1:
            thr += p["position_weight"] * pos / (k - 1.0)
        if p["pot_weight"] != 0.0 and pot > 0:
            thr += p["pot_weight"] * math.log2(pot / ctx["table_ante"])
        play = _estimate(H, trump, lono, len(disc), p) >= thr
    if is_dealer and (lono or (not sep and _rank(up) == 12)):
        play = True
    return play, disc


def _history_agrees(before, world, me, rec, ctx, p, played_by):
    """Whether the world's history (``before[s]``: each other seat's hand before the draw) makes every other
    player's actual choice under the model, with hands that fit the world's hands at the start of play."""
    k = int(rec[K.REC_NDEC])
    a2 = ctx["ante"] if ctx["R"]["double_ante"] else 0
    nplay = 0
    pot = int(rec[K.REC_POT_STAKE]) - a2 * int(rec[K.REC_NACTIVE])
    seen = set()
    for j in range(k):
        s, aplay = int(rec[K.REC_DEC + 4 * j]), bool(rec[K.REC_DEC + 4 * j + 1])
        if s != me:
            H = set(cards_of(int(before[s])))
            if len(H) != 5 or H & seen or H & ctx["mine"]:
                return False
            seen |= H
            isd = s == int(rec[K.REC_DEALER])
            if isd and not ctx["sep"] and ctx["up"] not in H:
                return False
            play, disc = _model(H, j, k, nplay, pot, isd, ctx, p)
            if play != aplay:
                return False
            if aplay:
                drawn = bin(int(rec[K.REC_DEC + 4 * j + 3])).count("1")
                S = set(cards_of(int(world[s]))) | played_by[s]
                kept = H - disc
                if len(disc) != drawn or not kept <= S or disc & S or len(S - kept) != drawn:
                    return False
        if aplay:
            nplay += 1
            pot += a2
    return True


def _keepers_short(world, me, rec, ctx, played_by):
    """A necessary condition of the model (default parameters, no Lo-No): a player who drew d < limit cards kept
    5 - d trumps or aces, so its hand at the start of play holds that many. True when the world breaks it."""
    for j in range(int(rec[K.REC_NDEC])):
        s = int(rec[K.REC_DEC + 4 * j])
        if s == me or not rec[K.REC_DEC + 4 * j + 1]:
            continue
        d = bin(int(rec[K.REC_DEC + 4 * j + 3])).count("1")
        S = set(cards_of(int(world[s]))) | played_by[s]
        if d < ctx["limit"] and sum(c >> 4 == ctx["trump"] or _rank(c) == 12 for c in S) < 5 - d:
            return True
    return False


def _decisions(players, rules, sessions=3, deals=12, seats="basic", seed=SEED):
    """Card decisions of traced deals (played by ``seats``): (rec, me, t, kpos, context) at a random turn of each
    deal with five tricks."""
    br = B.BourreRules(**rules)
    ra = B.rules_array(br)
    R = B.rules_dict(br)
    codes, prm = B.heuristic_arrays(B.parse_seats(seats, players))
    kd, kc = B.GAME.keys(seed)
    recs, _ = K.trace_sessions(kd, kc, 0, sessions, players, deals, ra, codes, prm, None)
    rng = np.random.default_rng(1)
    out = []
    for rec in recs.reshape(-1, K.REC_LEN):
        if rec[K.REC_NTRICKS] != 5:
            continue
        n_act = int(rec[K.REC_NACTIVE])
        t, kpos = int(rng.integers(0, 5)), int(rng.integers(0, n_act))
        if t == 0 and kpos == 0:
            kpos = 1
        dealer = int(rec[K.REC_DEALER])
        active = [s for s in range(players) if (rec[K.REC_ACTIVE] >> s) & 1]
        clockwise = [(dealer + i) % players for i in range(1, players + 1) if (dealer + i) % players in active]
        hist = []
        for tt in range(t + 1):
            base = K.REC_TRICKS + 10 * tt
            i0 = clockwise.index(int(rec[base]))
            for q in range(len(active) if tt < t else kpos):
                hist.append((clockwise[(i0 + q) % len(active)], int(rec[base + 1 + q])))
        base = K.REC_TRICKS + 10 * t
        me = clockwise[(clockwise.index(int(rec[base])) + kpos) % len(active)]
        up = int(rec[K.REC_UPCARD])
        sep = br.trump_card == "separate_turnup"
        lono = bool(rec[K.REC_LONO])
        played = {c for _, c in hist}
        start = set(cards_of(int(rec[K.REC_HANDS + me])))
        mine = set(cards_of(int(rec[K.REC_DEAL + me])))       # its hand as dealt: its discards and kept cards
        ctx = {"R": R, "trump": None if lono else int(rec[K.REC_TRUMP]), "lono": lono, "up": up, "sep": sep,
               "limit": ref.discard_limit(R, players), "table_ante": max(1, int(rec[K.REC_ANTE_AMT])) * players,
               "ante": int(rec[K.REC_ANTE_AMT]), "mine": mine | start,
               "known": {up} if (sep or rec[K.REC_UP_OUT]) else set(),
               "h": start - played, "played": played,
               "played_by": {s: {c for q, c in hist if q == s} for s in range(players)}}
        out.append((rec, me, t, kpos, ctx))
    return ra, out


def _worlds(rec, me, t, kpos, ctx, ra, players, spec, nw=24, key=7):
    _, prm = B.heuristic_arrays(B.parse_seats(spec, players))
    stats = np.zeros(KI.N_STATS, np.int64)
    pm = sum(1 << c for c in ctx["played"])
    ko = sum(1 << c for c in ctx["known"])
    worlds, ok, before = P.sample_worlds(
        rec, me, np.uint64(sum(1 << c for c in ctx["h"])), t, kpos, -1 if ctx["lono"] else ctx["trump"], ctx["lono"],
        np.uint64(pm), np.uint64(ko), players, int(rec[K.REC_DEALER]), ctx["up"], ctx["sep"], ra, nw, np.uint64(key),
        prm, int(rec[K.REC_POT_STAKE]), int(rec[K.REC_ANTE_AMT]), stats)
    return worlds, ok, before, dict(zip(KI.STAT_NAMES, (int(x) for x in stats))), prm


PIMC_PARAMS = {name: default for name, default, *_ in K.PARAMS}


@pytest.mark.parametrize("players,rules", [(5, {}), (4, {"double_ante": True, "must_overtrump": False}),
                                           (6, {"trump_card": "separate_turnup"}),
                                           (5, {"lo_no": True, "declare_then_draw": True})])
def test_inferred_worlds_reproduce_the_declarations(players, rules):
    """Deals played by basic (so the model is exact): every world sampled with infer=1 that did not fall back comes
    with a history in which the Python model makes every other player's play/pass and number of cards drawn, with
    the hands it holds at the start of play; the worlds still agree with the play (the referee); without inference
    some worlds break even a necessary condition of the model (the check has teeth)."""
    ra, decisions = _decisions(players, rules)
    checked = broken0 = 0
    for rec, me, t, kpos, ctx in decisions:
        worlds, ok, before, st, _ = _worlds(rec, me, t, kpos, ctx, ra, players, "pimc:infer=1")
        assert ok.all() and st["card_decisions"] == 1 and st["worlds"] == 24
        assert st["inferred_decisions"] == (0 if rec[K.REC_NRESHUF] else 1)
        assert st["draws"] >= st["inferred_worlds"] - st["fallbacks"] and st["declaration_rejects"] <= st["draws"]
        for w in range(len(worlds)):
            assert set(cards_of(int(worlds[w][me]))) == ctx["h"]
            if st["inferred_decisions"] and not (st["fallbacks"] and not before[w].any()):
                assert _history_agrees(before[w], worlds[w], me, rec, ctx, PIMC_PARAMS, ctx["played_by"])
                checked += 1
        if not ctx["lono"]:
            w0, _, before0, st0, _ = _worlds(rec, me, t, kpos, ctx, ra, players, "pimc")
            assert st0["inferred_decisions"] == 0 and st0["draws"] == 0 and not before0.any()
            broken0 += sum(_keepers_short(w, me, rec, ctx, ctx["played_by"]) for w in w0)
            if st["inferred_decisions"] and not st["fallbacks"]:
                assert not any(_keepers_short(w, me, rec, ctx, ctx["played_by"]) for w in worlds)
    assert checked >= 100
    assert broken0 > 0 or rules.get("lo_no")


def test_fallback_taken_and_counted_when_no_world_matches():
    """With threshold=10 the model never plays (except a dealer who must), so a non-dealer who played matches no
    world: the first world draws MAX_INFER_TRIES layouts, each rejected, and falls back; the decision's later worlds
    skip the check; every world counts as a fallback, and the worlds still agree with the play."""
    ra, decisions = _decisions(5, {})
    done = 0
    for rec, me, t, kpos, ctx in decisions:
        others = [int(rec[K.REC_DEC + 4 * j]) for j in range(int(rec[K.REC_NDEC])) if rec[K.REC_DEC + 4 * j + 1]]
        if not any(s not in (me, int(rec[K.REC_DEALER])) for s in others):
            continue
        worlds, ok, before, st, _ = _worlds(rec, me, t, kpos, ctx, ra, 5, "pimc:infer=1,threshold=10", nw=10)
        assert st == dict(card_decisions=1, inferred_decisions=1, worlds=10, inferred_worlds=10,
                          draws=KI.MAX_INFER_TRIES, declaration_rejects=KI.MAX_INFER_TRIES, fallbacks=10)
        assert ok.all() and not before.any()
        done += 1
        if done == 3:
            break
    assert done == 3


def test_fallback_counted_in_play():
    """Sessions played by pimc:infer=1,threshold=10 seats beside basic: the counters show the inferred decisions and
    their fallbacks, and counting does not change the play (the records are the trace's)."""
    seats = ["pimc:infer=1,threshold=10,worlds=8", "basic"]
    heur = [seats[i % 2] for i in range(5)]
    st, cpu, recs = inference_counts(SEED, 5, 2, 6, None, heur)
    assert st["inferred_decisions"] > 0 and st["fallbacks"] > 0 and st["declaration_rejects"] >= KI.MAX_INFER_TRIES
    assert st["fallbacks"] <= st["inferred_worlds"] <= st["worlds"] and cpu > 0
    kd, kc = B.GAME.keys(SEED)
    codes, prm = B.heuristic_arrays(B.parse_seats(heur, 5))
    again, _ = K.trace_sessions(kd, kc, 0, 2, 5, 6, B.rules_array(B.BourreRules()), codes, prm,
                                None, True)
    assert np.array_equal(again, recs)
    table = pimc_inference(seed=SEED, players=5, sessions=1, deals=4)
    assert table["inferred"].iloc[0] == 0 and table["inferred"].iloc[1] > 0
    assert (table["card decisions"] > 0).all()


# ---- play -----------------------------------------------------------------------------------------------------------
def _referee(players, seats, **rules):
    """The trace of ``seats`` (in turn round the table) and the referee's objections."""
    heur = [seats[i % len(seats)] for i in range(players)]
    tr = B.trace(SEED, players, 2, 10, B.BourreRules(**rules), heur, with_legal=True)
    by = {}
    for d in tr:
        by.setdefault(d["session"], []).append(d)
    R = B.rules_dict(B.BourreRules(**rules))
    return tr, [e for ds in by.values() for e in ref.check_session(ds, SEED, R)]


@pytest.mark.parametrize("players,rules", [(5, {}), (4, {"must_head_in_suit": False, "double_ante": True}),
                                           (7, {"lo_no": True, "declare_then_draw": True}),
                                           (6, {"trump_card": "separate_turnup", "cinch_rule": "akq_in_order"})])
def test_referee_accepts_inferring_pimc_traces(players, rules):
    seats = ["pimc:infer=1,worlds=8,threshold=1", "basic"]
    tr, errs = _referee(players, seats, **rules)
    assert errs == []
    assert sum(len(d.get("tricks", [])) == 5 for d in tr) >= 5


def test_inference_changes_the_play_and_infer_0_is_pimc():
    seats = ["pimc:worlds=16", "basic"]
    a, _ = _referee(5, seats)
    b, _ = _referee(5, ["pimc:worlds=16,infer=0", "basic"])
    c, _ = _referee(5, ["pimc:worlds=16,infer=1", "basic"])
    play = [(d["decisions"], d.get("tricks"), d["score_delta"]) for d in a]
    assert play == [(d["decisions"], d.get("tricks"), d["score_delta"]) for d in b]   # the labels differ
    assert [d["deal"] for d in a] == [d["deal"] for d in c]          # the same deals
    assert any(x.get("tricks") != y.get("tricks") for x, y in zip(a, c))


def _duplicate(first, n, spec, players=5):
    """The tournament kernel as ``compare`` calls it with a sampling entrant (one entrant at every seat): ev's
    tables (zeros) beside pimc, analysis/bourre/studies.py ``duplicate_ev_tables``."""
    specs = B.parse_seats(spec, players)
    codes, prm = B.heuristic_arrays(specs)
    kd, kc = B.GAME.keys(SEED)
    return K.sim_duplicate(kd, kc, first, n, players, codes[None, :].copy(), prm[None, :, :].copy(),
                           np.zeros((1, players), np.int64), duplicate_ev_tables(specs, B.BourreRules(), players),
                           1, 1, 0, B.rules_array(B.BourreRules()), True)


def test_inference_same_result_for_any_threads_and_blocks():
    spec = ["pimc:worlds=8,infer=1", "basic", "pimc:worlds=8,infer=1", "basic", "basic"]
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = _duplicate(0, 16, spec)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = _duplicate(0, 16, spec)
        split = _duplicate(0, 7, spec) + _duplicate(7, 9, spec)
    finally:
        numba.set_num_threads(old)
    assert (one == two).all() and (one == split).all()


REFERENCE = {"leaderboard.csv": "ced1a120079bcdd1fcdda6e9a590a3cdec0763a82c001c9351db07ece969072e",
             "pairs.csv": "23c46ad88359549081754a9e2938d1324963f7697ddb2b3faae2104798ef844c"}


def test_infer_zero_plays_as_before(tmp_path):
    """``infer=0`` (the default) is the player before the parameter: the compare tables of this command hash as they
    did at a7e0dc0 (each run with an empty cache)."""
    out = tmp_path / "cmp"
    cli.main(["compare", "bourre", "pimc", "basic", "--hands", "200", "--seed", "3", "-q", "--out", str(out)])
    sha = {f: hashlib.sha256((out / f).read_bytes()).hexdigest() for f in ("leaderboard.csv", "pairs.csv")}
    assert sha == REFERENCE


@pytest.mark.parametrize("args, msg", [(["-H", "pimc:infer=2"], "out of range"),
                                       (["-H", "pimc:infer=0.5"], "infer must be an integer")])
def test_bad_infer_one_line_exit_2(args, msg, capsys):
    code = 0
    try:
        cli.main(["trace", "bourre", "--players", "4", *args, "--deals", "1"])
    except SystemExit as e:
        code = e.code
    err = capsys.readouterr().err
    assert code == 2 and msg in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_explain_supports_an_inferring_seat():
    """``trace --explain`` with an infer=1 seat: the same kernel writes its reasons while it plays, so the trace is
    the plain trace's and every explained decision's best is the card or declaration played."""
    seats = B.parse_seats(["pimc:infer=1,worlds=16", "basic", "basic", "basic"], 4)
    plain = B.trace(SEED, 4, 1, 6, None, seats)
    expl = B.trace(SEED, 4, 1, 6, None, seats, explain=True)
    assert [{k: v for k, v in d.items() if k != "explain"} for d in expl] == plain
    xs = [x for d in expl for x in d["explain"]]
    assert sum(x["kind"] == "card" for x in xs) >= 3
    assert all(x["best"] == x["played"] for x in xs)
