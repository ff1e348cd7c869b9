"""``tricksim odds bourre --hand ... --explain`` (issue 27 item 3, analysis/bourre/explain.py): the paired margins
are the plain odds' on the same deals, their intervals are t over the batches, and the example deals are the run's
own deals, replayed exactly."""

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


@pytest.fixture(scope="module")
def res():
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
    res = BE.explain("JH AH 9H KS QD TC", seat=1, seed=3, hands=2000)
    assert res["table"].choice.iloc[0] == "pass"
    for ex in res["examples"]:
        assert (ex["values"][0] > ex["values"][1]) == (ex["kind"] == "wins")
        assert (ex["values"][0] < ex["values"][1]) == (ex["kind"] == "loses")
    assert "(against " in BE.render(res)


def test_boulmous_explain_from_the_command_line(capsys, tmp_path):
    main(["odds", "boulmous", "--hand", BM_HAND, "--seat", "1", "--explain", "--hands", "400", "--quiet",
          "--out", str(tmp_path / "x")])
    out = capsys.readouterr().out
    assert "Why: Boulmous hand" in out and "best minus it" in out and "the best call" in out
    assert (tmp_path / "x" / "explain_calls.csv").exists() and (tmp_path / "x" / "explain_margins.csv").exists()
