"""``tricksim trace bourre|boomke-wies -H pimc --explain`` (issue 27): at every decision of a sampling seat the
candidates it weighed, their values over its worlds and the best, which must be what the trace shows it did.

The explained traces are the plain traces (the same records, byte for byte) plus the field ``explain``; the
referees (tests/ref_bourre.py, tests/ref_boomke_wies.py) accept the traces and their legal sets, and an explained
card's candidates are exactly the legal cards at that point; a declaration's or a call's are legal choices of the
seat; every decision of a sampling seat the trace shows is explained, and nothing else."""
import json
import shlex
from itertools import combinations
from pathlib import Path

import pytest

import ref_boomke_wies as ref_bw
import ref_bourre as ref_bo
from tricksim.analysis import boomke_wies as BW
from tricksim.analysis import bourre as B
from tricksim.analysis.explain import world_stats
from tricksim.cli import main

pytestmark = pytest.mark.fast


def _check_candidates(x):
    assert x["best"] == x["played"], x
    assert x["worlds"] > 0 and len(x["candidates"]) >= 2
    labels = [c["choice"] for c in x["candidates"]]
    assert len(set(labels)) == len(labels)
    sums = [c["sum"] for c in x["candidates"]]
    for c in x["candidates"]:
        assert c["lo"] is None or c["lo"] - 1e-9 <= c["mean"] <= c["hi"] + 1e-9
    return labels, sums


def _first_best(keys):
    return max(range(len(keys)), key=lambda i: (keys[i], -i))


# ---- Bourre --------------------------------------------------------------------------------------------------------
def _bourre(seed, players, sessions, deals, seats, **rules):
    r = B.BourreRules(**rules)
    specs = B.GAME.parse_seats([seats[i % len(seats)] for i in range(players)], players)   # the seats in turn
    plain = B.trace(seed, players, sessions, deals, r, specs, with_legal=True)
    expl = B.trace(seed, players, sessions, deals, r, specs, with_legal=True, explain=True)
    assert [{k: v for k, v in d.items() if k != "explain"} for d in expl] == plain
    R = B.rules_dict(r)
    by = {}
    for d in plain:
        by.setdefault(d["session"], []).append(d)
    assert [e for ds in by.values() for e in ref_bo.check_session(ds, seed, R)] == []
    return expl, specs, R


@pytest.mark.parametrize("seed,players,seats,rules", [
    (3, 5, ["pimc:worlds=24"], {}),
    (4, 6, ["pimc:worlds=16,eval=0,decide=2", "basic"], {"must_head_in_suit": True, "must_overtrump": False}),
    (5, 4, ["basic", "pimc:worlds=16,race=0"], {"must_trump_even_if_cannot_win": False, "lo_no": True}),
    (6, 7, ["pimc:worlds=16"], {"void_must_play_highest_trump": True, "cinch_rule": "akq_in_order"}),
])
def test_bourre_explained_best_is_what_was_played(seed, players, seats, rules):
    expl, specs, R = _bourre(seed, players, 2, 6, seats, **rules)
    limit = ref_bo.discard_limit(R, players)
    kinds = {"draw": 0, "card": 0}
    for d in expl:
        pimc = {s for s in range(players) if specs[s].name == "pimc"}
        # the decisions of sampling seats the trace shows, in order: declarations, then cards with 2+ legal
        want_draws, want_cards = [], []
        for i, dec in enumerate(d.get("decisions", [])):
            earlier_play = any(x["play"] for x in d["decisions"][:i])
            if dec["seat"] in pimc and specs[dec["seat"]].value("decide") >= 1 and not (
                    dec["seat"] == d["dealer"] and not earlier_play and R["all_pass"] == "dealer_wins"):
                want_draws.append(dec["seat"])
        for t, tr in enumerate(d.get("tricks", [])):
            for q, c in enumerate(tr["cards"]):
                seat = _seat_of(d, t, q)
                if seat in pimc and len(d["legal"][t][q]) >= 2:
                    want_cards.append((seat, t + 1, c, sorted(d["legal"][t][q])))
        draws = [x for x in d["explain"] if x["kind"] == "draw"]
        cards = [x for x in d["explain"] if x["kind"] == "card"]
        assert [x["kind"] for x in d["explain"]] == ["draw"] * len(draws) + ["card"] * len(cards)
        assert [x["seat"] for x in draws] == want_draws
        assert [(x["seat"], x["trick"], x["played"], sorted(c["choice"] for c in x["candidates"]))
                for x in cards] == want_cards          # exactly the legal cards (the referee's, checked above)
        for x in d["explain"]:
            labels, sums = _check_candidates(x)
            kinds[x["kind"]] += 1
            assert labels[_first_best(sums)] == x["best"]
            worlds = specs[x["seat"]].value("worlds")
            assert x["worlds"] <= worlds and (specs[x["seat"]].value("race") > 0 or x["worlds"] == worlds)
        for x in draws:
            s = x["seat"]
            hand = set(d["deal"][s])
            must = (s == d["dealer"] and R["trump_card"] == "dealer_fifth"
                    and (d["lo_no"] or d["trump_card"][0] == "A"))
            assert ("pass" in labels_of(x)) == (not must)
            plays = [c for c in labels_of(x) if c != "pass"]
            discards = [frozenset(c.split(", discard ")[1].split()) - {"nothing"} for c in plays]
            assert all(len(k) <= limit and k <= hand for k in discards)
            if d["lo_no"] and s == d["dealer"]:
                assert all(d["trump_card"] not in k for k in discards)
            if specs[s].value("decide") >= 2:        # every discard within the limit
                keep = hand - ({d["trump_card"]} if d["lo_no"] and s == d["dealer"] else set())
                assert set(discards) == {frozenset(k) for n in range(limit + 1) for k in combinations(keep, n)}
            else:                                    # one discard per count
                assert sorted(len(k) for k in discards) == list(range(len(discards)))
            pas = [c for c in x["candidates"] if c["choice"] == "pass"]
            assert all(c["sum"] == 0 and c["mean"] == 0 for c in pas)      # a pass is worth 0
    assert kinds["card"] >= 10
    assert kinds["draw"] >= (3 if any(specs[s].value("decide") >= 1 for s in range(players)
                                      if specs[s].name == "pimc") else 0)


def test_bourre_lone_player_keeps_its_cards():
    """Under declare_then_draw a seat that plays alone does not draw (rule 6): the trace shows its play without a
    discard, and its explained best is a play (``alone``)."""
    expl, _, _ = _bourre(4, 2, 3, 8, ["basic:threshold=3", "pimc:worlds=16"], declare_then_draw=True)
    alone = 0
    for d in expl:
        for x in d["explain"]:
            if x.get("alone"):
                dec = next(c for c in d["decisions"] if c["seat"] == x["seat"])
                assert dec["play"] and dec["discard"] == [] and d["outcome"] == "lone"
                assert x["best"].startswith("play") and x["played"] == x["best"]
                alone += 1
            elif x["kind"] == "draw":
                dec = next(c for c in d["decisions"] if c["seat"] == x["seat"])
                assert x["played"] == ("pass" if not dec["play"] else
                                       "play, discard " + (" ".join(dec["discard"]) or "nothing"))
    assert alone >= 3


def labels_of(x):
    return [c["choice"] for c in x["candidates"]]


def _seat_of(d, t, q):
    """The seat that played card q of trick t: clockwise from the leader among the active seats."""
    n = d["players"]
    active = [s for s in range(n) if d["hands"][s]]
    clockwise = [(d["dealer"] + i) % n for i in range(1, n + 1) if (d["dealer"] + i) % n in active]
    i0 = clockwise.index(d["tricks"][t]["leader"])
    return clockwise[(i0 + q) % len(clockwise)]


def test_bourre_values_are_the_sums_over_the_worlds():
    expl, specs, _ = _bourre(3, 5, 1, 4, ["pimc:worlds=24"])
    xs = [x for d in expl for x in d["explain"]]
    assert xs
    for x in xs:
        scale = 0.5 if x["kind"] == "draw" else 1 / 16
        for c in x["candidates"]:
            assert c["mean"] == pytest.approx(c["sum"] * scale / x["worlds"])
            if x["kind"] == "card":
                assert 0 <= c["sure_tricks"] <= 5


# ---- Boomke Wies ---------------------------------------------------------------------------------------------------
def _bw(seed, hands, seats, **rules):
    r = BW.BoomkeRules(**rules)
    specs = BW.GAME.parse_seats([seats[i % len(seats)] for i in range(4)])
    plain = BW.trace(seed, hands, r, specs, with_legal=True)
    expl = BW.trace(seed, hands, r, specs, with_legal=True, explain=True)
    assert [{k: v for k, v in d.items() if k != "explain"} for d in expl] == plain
    assert [e for d in plain for e in ref_bw.check_hand(d)] == []
    return expl, specs


@pytest.mark.parametrize("seed,seats,rules", [
    (2, ["pimc:worlds=16,bid_worlds=16", "partner"], {}),
    (3, ["pimc:worlds=12,bid_worlds=24"], {"dealer_may_bid_8_to_12": True,
                                           "meetje_trump": "dealer_names_then_eldest_leads"}),
    (4, ["partner", "pimc:worlds=12,bid_worlds=12,infer=1"], {"shuffle": "none_collect_tricks"}),
    (5, ["pimc:worlds=12"], {"variant": "no_auction"}),
])
def test_boomke_wies_explained_best_is_what_was_played(seed, seats, rules):
    hands = 6
    expl, specs = _bw(seed, hands, seats, **rules)
    kinds = 0
    for d in expl:
        pimc = {s for s in range(4) if specs[s].name == "pimc"}
        calls = [x for x in d["explain"] if x["kind"] == "call"]
        cards = [x for x in d["explain"] if x["kind"] == "card"]
        assert [x["kind"] for x in d["explain"]] == ["call"] * len(calls) + ["card"] * len(cards)
        # every call of a sampling seat is explained, in order, but those with one choice: a certain thirteen's
        # Boom, and a pass over a Boom
        p, high = 0, 0
        for i, b in enumerate(d["bids"]):
            if b["seat"] in pimc:
                if p < len(calls) and calls[p]["seat"] == b["seat"] and calls[p]["played"] == _label(b["bid"]):
                    _check_call(calls[p], d, i, high)
                    p += 1
                else:
                    assert b["bid"] == 13 or (b["bid"] is None and high == 13), (d["hand_index"], i, b)
            if isinstance(b["bid"], int):
                high = b["bid"]
        assert p == len(calls)
        want_cards = [(_bw_seat(d, t, k), t + 1, c, sorted(d["legal"][t][k]))
                      for t, tr in enumerate(d["tricks"]) for k, c in enumerate(tr["cards"])
                      if _bw_seat(d, t, k) in pimc and len(d["legal"][t][k]) >= 2]
        assert [(x["seat"], x["trick"], x["played"], sorted(labels_of(x))) for x in cards] == want_cards
        for x in d["explain"]:
            labels, sums = _check_candidates(x)
            tricks = [c["tricks"] for c in x["candidates"]]
            b = max(range(len(sums)), key=lambda i: (sums[i], tricks[i], -i))
            assert labels[b] == x["best"]
            kinds += 1
    assert kinds >= 20


@pytest.mark.parametrize("rules", [{}, {"dealer_may_bid_8_to_12": True}])
def test_boomke_wies_dealers_forced_choice_is_explained(rules):
    """After three passes the sampling dealer weighs 7 (8 and 9 too when he may bid 8-12), Boom and Meetje."""
    expl, _ = _bw(7, 16, ["partner:margin=5"] * 3 + ["pimc:worlds=8,bid_worlds=8"], **rules)
    forced = 0
    for d in expl:
        if d["dealer"] == 3 and len(d["bids"]) == 4 and all(b["bid"] is None for b in d["bids"][:3]):
            x = [x for x in d["explain"] if x["kind"] == "call"]
            assert len(x) == 1 and x[0]["seat"] == 3 and x[0]["played"] == _label(d["bids"][3]["bid"])
            _check_candidates(x[0])
            _check_call(x[0], d, 3, 0)
            forced += 1
    assert forced >= 2


def _check_call(x, d, i, high):
    """The candidates of call ``i`` are legal calls over the highest bid ``high`` before it (rules 5, 6)."""
    forced = i == 3 and all(b["bid"] is None for b in d["bids"][:3])
    lab = set(labels_of(x))
    if forced:
        top = 9 if d["rules"]["dealer_may_bid_8_to_12"] else 7
        assert lab == {str(v) for v in range(7, top + 1)} | {"boom", "meetje"}
    else:
        lo = 7 if high == 0 else high + 1
        assert lab == {"pass"} | {str(v) for v in range(lo, min(12, lo + 2) + 1)} | ({"boom"} if high < 13 else set())


def _label(b):
    return "pass" if b is None else ("meetje" if b == "meetje" else ("boom" if b == 13 else str(b)))


def _bw_seat(d, t, k):
    return (d["tricks"][t]["leader"] + k) % 4


# ---- the command line ----------------------------------------------------------------------------------------------
GOLDEN = json.loads((Path(__file__).resolve().parent / "golden" / "pimc_traces.json").read_text())["traces"]


@pytest.mark.parametrize("command", sorted(GOLDEN))
def test_traces_with_a_sampling_seat_are_unchanged(capsys, command):
    """Without --explain, the pimc traces are byte for byte those of the code before it (golden lines printed by
    40e0031); with it, each line is the same plus its field ``explain``."""
    main(shlex.split(command))
    assert capsys.readouterr().out.splitlines() == GOLDEN[command]
    main([*shlex.split(command), "--explain"])
    explained = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [json.dumps({k: v for k, v in d.items() if k != "explain"}, separators=(",", ":"))
            for d in explained] == GOLDEN[command]
    assert all(x["best"] == x["played"] for d in explained for x in d["explain"])
    assert sum(len(d["explain"]) for d in explained) >= 10


@pytest.mark.parametrize("args", [["bourre", "--players", "4", "--deals", "3", "-H", "pimc:worlds=16"],
                                  ["boomke-wies", "--hands", "2", "-H", "pimc:worlds=16,bid_worlds=16"]])
def test_trace_explain_from_the_command_line(capsys, args):
    main(["trace", *args, "--seed", "4"])
    plain = capsys.readouterr().out.splitlines()
    main(["trace", *args, "--seed", "4", "--explain"])
    explained = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    # without the field, each line is the plain trace's, byte for byte
    assert [json.dumps({k: v for k, v in d.items() if k != "explain"}, separators=(",", ":"))
            for d in explained] == plain
    assert all("explain" not in json.loads(x) for x in plain)
    assert sum(len(d["explain"]) for d in explained) > 0
    assert all(x["best"] == x["played"] for d in explained for x in d["explain"])


@pytest.mark.parametrize("game", ["bourre", "boomke-wies"])
def test_explain_without_a_sampling_seat_is_refused(capsys, game):
    with pytest.raises(SystemExit) as e:
        main(["trace", game, "--explain"])
    err = capsys.readouterr().err
    assert e.value.code == 2 and err.count("\n") == 1 and "-H pimc" in err and "Traceback" not in err


def test_explain_holds_a_bounded_number_of_rows(capsys, monkeypatch):
    """Explained traces are played in pieces (Bourre: a session at a time; Boomke Wies: CHUNK hands), with the
    same records and reasons as in one piece; a Bourre session too long to hold is refused in one line."""
    from tricksim.analysis.boomke_wies import trace_explain as BWX
    from tricksim.analysis.bourre import trace_explain as BX
    r, specs = BW.BoomkeRules(), BW.GAME.parse_seats(["pimc:worlds=8,bid_worlds=8"])
    whole = BW.trace(1, 5, r, specs, first=2, explain=True)
    monkeypatch.setattr(BWX, "CHUNK", 2)
    assert BW.trace(1, 5, r, specs, first=2, explain=True) == whole
    with pytest.raises(SystemExit) as e:
        main(["trace", "bourre", "-H", "pimc", "--deals", str(BX.MAX_DEALS + 1), "--explain"])
    err = capsys.readouterr().err
    assert e.value.code == 2 and err.count("\n") == 1 and "--deals" in err


def test_world_stats():
    vals = [3, -1, 4, 1, -5, 9]
    m, lo, hi = world_stats(sum(vals), sum(v * v for v in vals), len(vals), 0.5)
    import statistics
    from tricksim.analysis.stats import t_crit
    half = t_crit(5) * statistics.stdev(vals) / len(vals) ** 0.5
    assert m == pytest.approx(0.5 * statistics.mean(vals))
    assert (lo, hi) == (pytest.approx(0.5 * (statistics.mean(vals) - half)),
                        pytest.approx(0.5 * (statistics.mean(vals) + half)))
    assert world_stats(7, 49, 1) == (7.0, None, None) and world_stats(0, 0, 0) == (None, None, None)
    assert world_stats(0, 0, 4) == (0.0, 0.0, 0.0)
