"""``tricksim odds bourre --hand ... --explain`` (issue 27 item 3, analysis/bourre/explain.py): the paired margins
are the plain odds' on the same deals, their intervals are t over the batches, and the example deals are the run's
own deals, replayed exactly."""

import contextlib

import numpy as np
import pytest

from tricksim.analysis.bourre import BourreRules, odds_hand
from tricksim.analysis.bourre import explain as E
from tricksim.analysis.bourre.odds import block_odds
from tricksim.analysis.common import parse_card
from tricksim.analysis.stats import t_crit
from tricksim.cli import main
from tricksim.kernels import bourre as K
from tricksim.kernels.cards import cards_of, mask_of

pytestmark = pytest.mark.fast   # the fast tier (scripts/test.sh --fast)

HAND, UP = [parse_card(x) for x in "QH 9H 7C 4D 2S".split()], parse_card("3H")

# The example deals are searched among a run's first EXAMPLES (400) deals, each replayed alone: most of an explain's
# time.  Every example the hands of the fixtures below show lies in the first 100 (the same four deals as a search of
# 400), so their runs search 100.
FIRST = 100


@contextlib.contextmanager
def first_deals(n=FIRST):
    with pytest.MonkeyPatch.context() as mp:
        for game in ("bourre", "boulmous", "boomke_wies"):
            mp.setattr(f"tricksim.analysis.{game}.explain.EXAMPLES", n)
        yield


@pytest.fixture(scope="module")
def res():
    with first_deals():
        return E.explain(HAND, UP, players=5, seat=2, seed=4, hands=2000)


def test_the_table_is_the_plain_odds_on_the_same_deals(res):
    plain = odds_hand(HAND, UP, players=5, seat=2, seed=4, hands=2000)["choices"].set_index("choice")
    for r in res["table"].itertuples():
        assert r.exp_chips == pytest.approx(plain.loc[r.choice, "exp_chips"], abs=1e-12)
    assert res["n"] == 2000 and res["size"] == 100


def test_the_margins_are_paired_batch_means_with_t_intervals(res):
    mg, t = res["margins"], res["table"]
    assert mg.choice.iloc[0] == t.choice.iloc[0] and mg["best minus it"].iloc[0] == 0
    for j in range(1, len(mg)):
        # equal batches: the mean of the batch differences is the difference of the means over all deals
        assert mg["best minus it"].iloc[j] == pytest.approx(t.exp_chips.iloc[0] - t.exp_chips.iloc[j], abs=1e-9)
    means = np.array([[1.0, 0.5], [1.2, 0.9], [0.8, 0.6], [1.1, 0.4]])
    m = E.margins(means, ["a", "b"], 0)
    d = means[:, 0] - means[:, 1]
    assert m.hi.iloc[1] - m["best minus it"].iloc[1] == pytest.approx(t_crit(3) * d.std(ddof=1) / 2)
    assert m.clear.iloc[1] and not E.margins(np.array([[1.0, 0.9], [0.8, 1.1], [1.0, 1.0]]), ["a", "b"], 0).clear.iloc[1]


def test_the_example_deals_are_the_runs_deals_replayed():
    run, choices, size = E.explain_run(HAND, UP, 5, 2, 0, 4, 40)
    total = np.asarray(block_odds(run.params, 0, 40)).reshape(len(choices), K.ODDS_STRIDE)
    chips = np.zeros(len(choices), np.int64)
    for idx in range(40):
        for i, (cat, x) in enumerate(E.one_deal(run.params, idx, len(choices))):
            chips[i] += x
            assert 0 <= cat < K.ODDS_CATS
    assert np.array_equal(chips, total[:, K.ODDS_CELLS])     # the single deals add up to the run


def test_a_deal_as_dealt_holds_the_hand_and_the_up_card():
    run, _, _ = E.explain_run(HAND, UP, 5, 2, 0, 4, 40)
    for idx in range(5):
        masks = E.dealt(run.params, idx, BourreRules())
        assert masks[2] == mask_of(HAND) and (masks[4] >> UP) & 1
        cards = [c for m in masks for c in cards_of(m)]
        assert len(cards) == 25 == len(set(cards))


def test_the_examples_show_the_best_choice_winning_and_losing(res):
    kinds = [x["kind"] for x in res["examples"]]
    assert kinds.count("wins") == 2 and kinds.count("loses") == 2
    best = res["table"].choice.iloc[0]
    for ex in res["examples"]:
        assert ex["outcomes"][0].startswith(best)
        assert ("won" in ex["outcomes"][0]) == (ex["kind"] == "wins")
        assert len(ex["others"]) == 4
    assert "Why: Bourre hand QH 9H 7C 4D 2S" in E.render(res)


@pytest.mark.parametrize("args, words", [(["--play", "heuristic"], "leave out --play"),
                                         (["--hands", "10"], "20 batches")])
def test_bad_explain_input_is_one_line_and_exit_code_2(args, words, capsys, tmp_path):
    with pytest.raises(SystemExit) as e:
        main(["odds", "bourre", "--hand", "QH 9H 7C 4D 2S", "--up-card", "3H", "--explain", "--quiet",
              "--out", str(tmp_path / "x"), *args])
    err = capsys.readouterr().err
    assert e.value.code == 2 and err.count("\n") == 1 and words in err


# ---- Boulmous (analysis/boulmous/explain.py) -------------------------------------------------------------------
from tricksim.analysis.boulmous import explain as BE          # noqa: E402
from tricksim.analysis.boulmous import odds_hand as bm_odds_hand   # noqa: E402
from tricksim.analysis.boulmous.config import BoulmousRules, parse_hand as bm_parse_hand   # noqa: E402
from tricksim.analysis.boulmous.studies import block_odds as bm_block_odds   # noqa: E402
from tricksim.kernels import boulmous as BK                   # noqa: E402

BM_HAND = "JH QH 9H AS QD TC"   # best 3 H, made about 3 times in 4


@pytest.fixture(scope="module")
def bres():
    with first_deals():
        return BE.explain(BM_HAND, seat=1, seed=3, hands=2000)


def test_boulmous_numbers_are_the_plain_odds_on_the_same_deals(bres):
    plain = bm_odds_hand(BM_HAND, seat=1, seed=3, hands=2000)
    calls = plain["calls"].set_index(["trump", "bid"])
    t = bres["table"].set_index("choice")
    assert len(t) == 21 and bres["n"] == 2000 and bres["size"] == 100
    for (trump, bid), r in calls.iterrows():
        row = t.loc[f"{bid} {trump}"]
        assert row.exp_points == pytest.approx(r.exp_points, abs=1e-12)
        assert row.exp_value == pytest.approx(r.exp_points + r.exp_stakes, abs=1e-12)
        assert row.p_make == pytest.approx(r.p_make, abs=1e-12) and row.n == r.n
    p = plain["pass"].iloc[0]
    assert t.loc["pass"].exp_value == pytest.approx(p.exp_points + p.exp_stakes, abs=1e-12)
    assert bres["best"].best_call.iloc[0] == plain["best"].best_call.iloc[0] == bres["table"].choice.iloc[0]


def test_boulmous_margins_are_paired_batch_means(bres):
    mg, t, means = bres["margins"], bres["table"], bres["means"]
    assert list(mg.choice) == list(t.choice) and mg["best minus it"].iloc[0] == 0
    # the batch values average to the plain values (equal batches), and the margins are their paired differences
    assert np.allclose(means.mean(axis=0), t.exp_value, atol=1e-9)
    for j in range(1, len(mg)):
        d = means[:, 0] - means[:, j]
        assert mg["best minus it"].iloc[j] == pytest.approx(t.exp_value.iloc[0] - t.exp_value.iloc[j], abs=1e-9)
        assert mg.hi.iloc[j] - mg["best minus it"].iloc[j] == pytest.approx(t_crit(19) * d.std(ddof=1) / np.sqrt(20))
        assert mg.clear.iloc[j] == (mg.lo.iloc[j] > 0)


def test_boulmous_single_deals_add_up_to_the_run():
    run, size = BE.explain_run(bm_parse_hand(BM_HAND), 1, 3, 40)
    total = np.asarray(bm_block_odds(run.params, 0, 40), np.float64) @ BE.weights(BoulmousRules())
    per = np.zeros(len(BE.choices()))
    for idx in range(40):
        out = BE.one_deal(run.params, idx)
        per += [BE.deal_value(out, t, b, BoulmousRules()) for _, t, b in BE.choices()]
    assert np.allclose(per, total)


def test_boulmous_a_deal_as_dealt_holds_the_hand():
    run, _ = BE.explain_run(bm_parse_hand(BM_HAND), 1, 3, 40)
    for idx in range(5):
        masks = BE.dealt(run.params, idx)
        assert masks[1] == mask_of(bm_parse_hand(BM_HAND))
        cards = [c for m in masks for c in cards_of(m)]
        assert len(cards) == 24 == len(set(cards))


def test_boulmous_examples_are_consistent(bres):
    kinds = [x["kind"] for x in bres["examples"]]
    assert kinds.count("wins") == 2 and kinds.count("loses") == 2
    best = bres["table"].choice.iloc[0]
    run, _ = BE.explain_run(bm_parse_hand(BM_HAND), 1, 3, 2000)
    for ex in bres["examples"]:
        assert ex["outcomes"][0].startswith(best) and len(ex["hands"]) == 4
        v = ex["values"][0]
        assert best != "pass" and ("made" in ex["outcomes"][0]) == (ex["kind"] == "wins") == (v > 0)
        # replaying the shown deal gives the stated values
        out = BE.one_deal(run.params, ex["deal"])
        ch = {c[0]: c for c in BE.choices()}
        assert [BE.deal_value(out, *ch[c][1:], BoulmousRules()) for c in bres["table"].choice] == ex["values"]
        shown = {h.split(": ")[0].split(" (")[0]: h.split(": ")[1] for h in ex["hands"]}
        assert shown[BE.SEATS[1]] == BE.hand_text(mask_of(bm_parse_hand(BM_HAND)))
    assert "Why: Boulmous hand" in BE.render(bres)


@pytest.mark.parametrize("args, words", [(["--exact"], "leave out --exact"), (["--play", "open"], "leave out --play"),
                                         (["--trump", "H"], "leave out --trump"), (["--hands", "10"], "20 batches")])
def test_bad_boulmous_explain_input_is_one_line_and_exit_code_2(args, words, capsys, tmp_path):
    with pytest.raises(SystemExit) as e:
        main(["odds", "boulmous", "--hand", BM_HAND, "--explain", "--quiet", "--out", str(tmp_path / "x"), *args])
    err = capsys.readouterr().err
    assert e.value.code == 2 and err.count("\n") == 1 and words in err


def test_boulmous_explain_needs_a_hand(capsys):
    with pytest.raises(SystemExit) as e:
        main(["odds", "boulmous", "--explain"])
    err = capsys.readouterr().err
    assert e.value.code == 2 and err.count("\n") == 1 and "--explain needs --hand" in err


def test_boulmous_passing_wins_and_loses_against_the_runner_up():
    with first_deals():
        res = BE.explain("JH AH 9H KS QD TC", seat=1, seed=3, hands=2000)
    assert res["table"].choice.iloc[0] == "pass"
    for ex in res["examples"]:
        assert (ex["values"][0] > ex["values"][1]) == (ex["kind"] == "wins")
        assert (ex["values"][0] < ex["values"][1]) == (ex["kind"] == "loses")
    assert "(against " in BE.render(res)


@pytest.mark.slow   # left out of the fast tier: 10-40 s (the fast tier keeps the tests of its parts)
def test_boulmous_explain_from_the_command_line(capsys, tmp_path):
    main(["odds", "boulmous", "--hand", BM_HAND, "--seat", "1", "--explain", "--hands", "400", "--quiet",
          "--out", str(tmp_path / "x")])
    out = capsys.readouterr().out
    assert "Why: Boulmous hand" in out and "best minus it" in out and "the best call" in out
    assert (tmp_path / "x" / "explain_calls.csv").exists() and (tmp_path / "x" / "explain_margins.csv").exists()


# ---- identical calls (analysis/explain.py same_as_best) -----------------------------------------------------------
def test_same_as_best_is_proved_from_the_histograms_only():
    from tricksim.analysis.explain import same_as_best
    # two histograms (cells 0-2 and 3-5), each hit once per deal; columns = calls, call 0 the best
    w = np.array([[1, 1, 2, 2], [2, 2, 3, 3], [3, 9, 4, 4], [0, 0, 0, 1], [5, 5, 4, 6], [0, 0, 0, 0]], float)
    seg = [(0, 3), (3, 3)]
    counts = np.array([4, 6, 0, 0, 10, 0])        # cells 2, 3 and 5 never hit
    # call 1 differs only on cell 2; call 2 by -1 on the first histogram and +1 on the second (the same on every
    # deal); call 3 by -1 and -1 (a constant -2: not identical)
    assert same_as_best(counts, w, seg, 0) == [True, True, True, False]
    counts[2] = 1                                  # now a deal hits the cell where calls 0 and 1 differ
    assert same_as_best(counts, w, seg, 0) == [True, False, True, False]
    counts[3] = 1                                  # and one where call 2's difference is not -1 on the second
    assert same_as_best(counts, w, seg, 0) == [True, False, False, False]


@pytest.mark.slow   # left out of the fast tier: 10-40 s (the fast tier keeps the tests of its parts)
def test_identical_calls_say_so_in_all_three_games():
    # Boulmous: 3 H and 4 H always made with the same tricks
    r = BE.explain("JH JD AH KH 9S 9C", seat=0, seed=1, hands=400)
    mg = r["margins"].set_index("choice")
    assert r["table"].choice.iloc[0] == "3 H" and mg.loc["4 H", "identical"] and not mg.loc["3 D", "identical"]
    assert mg.loc["4 H", "best minus it"] == 0
    text = BE.render(r)
    assert "identical on every deal" in text and "+0.000 [+0.000, +0.000]" not in text
    # a pair whose margin is 0 in the mean but varies deal by deal is never called identical
    for row in r["margins"].itertuples():
        if row.identical:
            assert np.all(r["means"][:, 0] == r["means"][:, list(r["margins"].choice).index(row.choice)])
    # Bourre: only one pass, no two draws the same: nothing identical, and the column never claims it
    res_b = E.explain(HAND, UP, players=5, seat=2, seed=4, hands=400)
    assert not res_b["margins"].identical.any()


# ---- Boomke Wies (analysis/boomke_wies/explain.py) ---------------------------------------------------------------
from tricksim.analysis.boomke_wies import BoomkeRules as BWRules, odds_hand as bw_odds_hand   # noqa: E402
from tricksim.analysis.boomke_wies import explain as WE       # noqa: E402
from tricksim.analysis.boomke_wies.config import parse_hand as bw_parse_hand   # noqa: E402
from tricksim.analysis.boomke_wies.studies import block_odds as bw_block_odds   # noqa: E402
from tricksim.kernels import boomke_wies as WK                # noqa: E402

BW_HAND = "AS 7S 4S 2S KH 9H 5H QD 8D 3D JC 6C 2C"      # a flat hand: passing is best
BW_STRONG = "AS KS QS JS TS 9S 8S AH KH QH AD KD 2C"    # 7 to 12 in spades always made: identical


@pytest.fixture(scope="module")
def wres():
    with first_deals():
        return {seat: WE.explain(BW_HAND, seat=seat, seed=5, hands=2000) for seat in (1, 3)}


@pytest.mark.parametrize("seat", [1, 3])
def test_boomke_values_are_the_plain_odds_on_the_same_deals(wres, seat):
    res = wres[seat]
    plain = bw_odds_hand(BW_HAND, seat=seat, seed=5, hands=2000)
    calls = plain["calls"].set_index(["trump", "call"])
    main_ = res["parts"][0]["table"].set_index("choice")
    assert res["n"] == 2000 and res["size"] == 100 and len(main_) == 1 + 4 * 7
    assert "Meetje S" not in main_.index
    for (trump, call), r in calls.iterrows():
        if call == "Meetje":
            continue
        x = main_.loc[f"{call} {trump}"]
        assert x.exp_net == pytest.approx(r.exp_net, abs=1e-12) and x.p_make == pytest.approx(r.p_make, abs=1e-12)
        assert x.net_ci == pytest.approx(r.net_ci, abs=1e-12) and x.n == r.n
    pos = plain["positions"].iloc[0]
    assert main_.loc["pass", "exp_net"] == pytest.approx(pos.pass_net, abs=1e-12)
    if seat == 3:       # the dealer's forced call after three passes: 7, Boom, Meetje in each suit, no pass
        forced = res["parts"][1]["table"].set_index("choice")
        assert sorted(forced.index) == sorted(f"{c} {s}" for s in "SHDC" for c in ("7", "Boom", "Meetje"))
        for s in "SHDC":
            assert forced.loc[f"Meetje {s}", "exp_net"] == pytest.approx(calls.loc[(s, "Meetje"), "exp_net"], abs=1e-12)
    else:
        assert len(res["parts"]) == 1
    # the best call at its turn is plain odds' best when that is not Meetje
    if "Meetje" not in plain["best"].best_call.iloc[0]:
        assert plain["best"].best_call.iloc[0].split(",")[0] == res["parts"][0]["table"].choice.iloc[0].split(" ")[0]


def test_boomke_margins_are_paired_batch_means(wres):
    for part in wres[3]["parts"]:
        mg, t, means = part["margins"], part["table"], part["means"]
        assert list(mg.choice) == list(t.choice) and mg["best minus it"].iloc[0] == 0
        assert np.allclose(means.mean(axis=0), t.exp_net, atol=1e-9)
        for j in range(1, len(mg)):
            d = means[:, 0] - means[:, j]
            assert mg["best minus it"].iloc[j] == pytest.approx(t.exp_net.iloc[0] - t.exp_net.iloc[j], abs=1e-9)
            assert mg.hi.iloc[j] - mg["best minus it"].iloc[j] == pytest.approx(t_crit(19) * d.std(ddof=1) / np.sqrt(20))
            assert mg.clear.iloc[j] == (mg.lo.iloc[j] > 0)


def test_boomke_single_deals_add_up_to_the_run_and_are_dealt_as_shown():
    rules = BWRules()
    cards = bw_parse_hand(BW_HAND)
    run, _ = WE.explain_run(cards, 2, 5, 40)
    total = np.zeros(WK.AGG_ODDS, np.int64)
    for idx in range(40):
        one = WE.one_deal(run.params, idx)
        total += one
        masks = WE.dealt(run.params, idx)
        assert masks[0] == mask_of(cards)
        assert len({c for m in masks for c in cards_of(m)}) == 52
        # the shown deal is the deal played: the kernel's own trick count for each opening suit on those hands
        kd, kc, ra, codes, prm = WE.SPEC.kernel_args(run.params)
        _, tk = WK.odds_tricks(kd, kc, idx, 1, np.uint64(mask_of(cards)), ra, codes, prm)
        assert [WE.tricks_of(one, s, 7, rules) for s in range(4)] == list(tk[0])
    assert np.array_equal(total, np.asarray(bw_block_odds(run.params, 0, 40)))


def test_boomke_examples_are_the_runs_deals(wres):
    rules = BWRules()
    for seat, res in wres.items():
        part = res["parts"][0]
        best = part["table"].choice.iloc[0]
        assert best == "pass"
        kinds = [x["kind"] for x in part["examples"]]
        assert kinds.count("wins") == 2 and kinds.count("loses") == 2
        run, _ = WE.explain_run(bw_parse_hand(BW_HAND), seat, 5, 2000)
        ch = {c[1]: c for c in WE.choices(bw_parse_hand(BW_HAND), seat, rules) if c[0] == part["group"]}
        w = WE.weights(list(ch.values()), seat, rules)
        for ex in part["examples"]:
            one = WE.one_deal(run.params, ex["deal"])
            vals = [float(one @ w[:, list(ch).index(c)]) for c in part["table"].choice]
            assert vals == ex["values"]
            assert (vals[0] > vals[1]) == (ex["kind"] == "wins") and (vals[0] < vals[1]) == (ex["kind"] == "loses")
            assert len(ex["hands"]) == 4 and sum("(this hand)" in h for h in ex["hands"]) == 1
            assert ex["hands"][seat].startswith(WE.POSITIONS[seat]) and "(this hand)" in ex["hands"][seat]
    text = WE.render(wres[3])
    assert "Why: Boomke Wies hand" in text and "after three passes" in text


def test_boomke_identical_bids_and_a_bid_made_wins():
    res = WE.explain(BW_STRONG, seat=0, seed=1, hands=400)
    part = res["parts"][0]
    mg = part["margins"].set_index("choice")
    assert part["table"].choice.iloc[0] == "7 S"
    assert all(mg.loc[f"{b} S", "identical"] for b in range(8, 13)) and not mg.loc["Boom S", "identical"]
    for ex in part["examples"]:
        assert ("made" in ex["outcomes"][0]) == (ex["kind"] == "wins")
    assert "best: 7 S (identical on every deal to 8 S, 9 S, 10 S, 11 S, 12 S)" in WE.render(res)


@pytest.mark.parametrize("args, words", [(["--call", "7"], "leave out --call"), (["--double-dummy"], "--double-dummy"),
                                         (["--trump", "S"], "leave out --trump"), (["--hands", "10"], "20 batches"),
                                         (["--rule", "variant=no_auction"], "no-auction")])
def test_bad_boomke_explain_input_is_one_line_and_exit_code_2(args, words, capsys, tmp_path):
    with pytest.raises(SystemExit) as e:
        main(["odds", "boomke-wies", "--hand", BW_HAND, "--explain", "--quiet", "--out", str(tmp_path / "x"), *args])
    err = capsys.readouterr().err
    assert e.value.code == 2 and err.count("\n") == 1 and words in err


@pytest.mark.slow   # left out of the fast tier: 10-40 s (the fast tier keeps the tests of its parts)
def test_boomke_explain_from_the_command_line(capsys, tmp_path):
    with pytest.raises(SystemExit) as e:
        main(["odds", "boomke-wies", "--explain"])
    assert e.value.code == 2 and "--explain needs --hand" in capsys.readouterr().err
    main(["odds", "boomke-wies", "--hand", BW_HAND, "--seat", "3", "--explain", "--hands", "400", "--quiet",
          "--out", str(tmp_path / "x")])
    out = capsys.readouterr().out
    assert "Why: Boomke Wies hand" in out and "best minus it" in out and "after three passes" in out
    assert (tmp_path / "x" / "explain_calls.csv").exists() and (tmp_path / "x" / "explain_margins.csv").exists()


# ---- trace boulmous -H pimc --explain (analysis/boulmous/trace_explain.py) -----------------------------------------
import importlib   # noqa: E402
import json        # noqa: E402

from tricksim.analysis.boulmous import trace_explain as TX   # noqa: E402
from tricksim.analysis.boulmous.config import pimc_key       # noqa: E402
from tricksim.analysis.boulmous.spec import SPEC as BSPEC     # noqa: E402
from tricksim.kernels.boulmous import pimc as BKP             # noqa: E402
from tricksim.kernels.boulmous import solver as BKS           # noqa: E402
from tricksim.kernels.boulmous.players import P_WORLDS        # noqa: E402
from tricksim.analysis.common import make_params              # noqa: E402

BTRACE = importlib.import_module("tricksim.analysis.boulmous.trace")


@pytest.mark.parametrize("seats", [["pimc"], ["pimc:race=0", "cautious", "pimc:worlds=8", "aggressive"],
                                   ["pimc:bid=0"]])
def test_the_sampling_players_shown_best_is_what_it_played(seats):
    rules, specs = BoulmousRules(), BSPEC.parse_seats(seats)
    recs = TX.with_explain(BTRACE.trace(11, 30, rules, specs), 11, rules, specs)
    prm = BSPEC.kernel_args(make_params_bm(rules, seats))[4]
    kinds = {"call": 0, "card": 0}
    raced = 0
    for d in recs:
        for x in d["explain"]:
            kinds[x["kind"]] += 1
            assert x["best"] == x["played"], (d["hand_index"], x)
            assert len(x["candidates"]) >= 2 and x["worlds"] >= 1
            for c in x["candidates"]:
                assert c["lo"] is None or c["lo"] <= c["mean"] <= c["hi"]
            raced += x["kind"] == "card" and x["worlds"] < prm[x["seat"], P_WORLDS]
    assert kinds["card"] > 100 and (kinds["call"] > 0) == (seats != ["pimc:bid=0"])
    # the default player races (stops sampling once the leader is clear): some decisions use fewer worlds
    assert (raced > 0) == (seats[0] != "pimc:race=0")


def test_the_call_values_are_the_kernels_sums():
    rules = BoulmousRules()
    _, _, ra, _, _ = BSPEC.kernel_args(make_params_bm(rules))
    key = pimc_key(5)
    for deal, seat, hand in [(0, 1, "JH JD AH KH 9S 9C"), (7, 3, "9S TC 9D QC 9H KS")]:
        h = np.uint64(mask_of(bm_parse_hand(hand)))
        per = TX.call_values(seat, h, ra, 16, key, deal)
        sums, bids, trumps = np.zeros((5, 5), np.int64), np.zeros(4, np.int64), np.zeros(4, np.int64)
        BKP.pimc_calls(np.int64(seat), h, ra, np.int64(16), key, np.int64(deal), BKS._workspace(BKS.TT_BITS), sums,
                       bids, trumps)
        assert np.array_equal(per.sum(axis=0)[:4], sums[:4]) and per.sum(axis=0)[4, 0] == sums[4, 0]
        x = TX.explain_call(seat, h, 0, int(bids[0]), ra, 16, key, deal)
        assert x["best"] == x["played"] and x["worlds"] == 16


def make_params_bm(rules, seats=("pimc",)):
    return make_params(5, rules, BSPEC.parse_seats(list(seats)))


def test_trace_explain_from_the_command_line(capsys):
    main(["trace", "boulmous", "-H", "pimc", "--hands", "2", "--seed", "4"])
    plain = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    main(["trace", "boulmous", "-H", "pimc", "--hands", "2", "--seed", "4", "--explain"])
    explained = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert all("explain" not in d for d in plain) and len(explained) == 2
    assert [{k: v for k, v in d.items() if k != "explain"} for d in explained] == plain
    assert all(x["best"] == x["played"] for d in explained for x in d["explain"])
    with pytest.raises(SystemExit) as e:
        main(["trace", "boulmous", "--hands", "1", "--explain"])
    err = capsys.readouterr().err
    assert e.value.code == 2 and err.count("\n") == 1 and "-H pimc" in err


@pytest.mark.slow   # left out of the fast tier: 10-40 s (the fast tier keeps the tests of its parts)
def test_the_identity_proofs_segments_are_hit_once_per_deal():
    """``same_as_best`` is sound only if each segment is a histogram every deal hits exactly once (or never)."""
    run, _ = BE.explain_run(bm_parse_hand(BM_HAND), 1, 3, 40)
    c = np.asarray(bm_block_odds(run.params, 0, 40))
    assert [int(c[s:s + n].sum()) for s, n in BE.SEGMENTS] == [40] * len(BE.SEGMENTS)
    for rule in ("dealer_leads_trump", "dealer_names_then_eldest_leads"):
        rules = BWRules(meetje_trump=rule)
        run, _ = WE.explain_run(bw_parse_hand(BW_HAND), 3, 5, 40, rules)
        c = np.asarray(bw_block_odds(run.params, 0, 40))
        assert {int(c[s:s + n].sum()) for s, n in WE.segments(3)} <= {0, 40}
        # under the eldest-leads variant Meetje has its own playout, and its values are that histogram's
        res = WE.explain(BW_HAND, seat=3, seed=5, hands=400, rules=rules)
        plain = bw_odds_hand(BW_HAND, seat=3, seed=5, hands=400, rules=rules)["calls"].set_index(["trump", "call"])
        forced = res["parts"][1]["table"].set_index("choice")
        for s in "SHDC":
            assert forced.loc[f"Meetje {s}", "exp_net"] == pytest.approx(plain.loc[(s, "Meetje"), "exp_net"], abs=1e-12)


def test_the_dealers_forced_calls_follow_the_rule():
    cards = bw_parse_hand(BW_HAND)
    forced = [c[1] for c in WE.choices(cards, 3, BWRules()) if c[0] == WE.FORCED]
    assert "7 S" in forced and "Boom S" in forced and "Meetje S" in forced and "8 S" not in forced
    forced = [c[1] for c in WE.choices(cards, 3, BWRules(dealer_may_bid_8_to_12=True)) if c[0] == WE.FORCED]
    assert all(f"{b} S" in forced for b in range(8, 13))
    assert all(c[0] == WE.MAIN for c in WE.choices(cards, 2, BWRules()))
    assert not any("Meetje" in c[1] for c in WE.choices(cards, 3, BWRules()) if c[0] == WE.MAIN)
