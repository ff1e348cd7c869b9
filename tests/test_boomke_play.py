"""Boomke Wies: ``odds boomke-wies --hand ... --play heuristic,open`` (analysis/boomke_wies/play.py) and the
bidding heuristic's Boom on a certain thirteen (kernels/boomke_wies/players.sure_thirteen, issue 12 item 6).

- sure_thirteen on hands built from the rule (trumps from the ace at least as many as the trumps missing,
  every side card in a run from its ace) and on near misses; every sure hand, played by the heuristics as
  declarer opening its trumps, takes all thirteen tricks on random deals (the claim "certain" holds for the
  heuristic's own play);
- thirteen spades: Boom and +5 in every position (the dealer: unless an opponent called Boom first);
- the --play table: the heuristics' rows equal the plain odds study's on the same deals, the gap is the paired
  difference, the open-hand column (double-dummy, the dd extra) agrees across thread counts; a missing extra
  and bad --play input are one line and exit 2.
"""
import random
import sys

import numpy as np
import pytest

from tricksim import cli
from tricksim.analysis import boomke_wies as B
from tricksim.analysis.boomke_wies.play import INSTALL, odds_play, play_tables
from tricksim.analysis.common import TricksimError
from tricksim.analysis.engine import RunOptions
from tricksim.kernels import boomke_wies as K

SPADES = "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"
HAND = "AS KS QS JS 9S 7S AH KH 4H AD 3D 5C 2C"


def mask(text):
    return np.uint64(sum(1 << c for c in B.parse_hand(text)))


@pytest.mark.parametrize("hand, draws, sure", [
    (SPADES, False, True),
    ("AS KS QS JS TS 9S 8S AH KH QH AD KD AC", True, True),        # 7 trumps, the top 7; side suits from the ace
    ("AS KS QS JS TS 9S 8S AH KH QH AD KD AC", False, False),       # ... but a player who does not draw trumps
    ("AS KS QS JS TS 9S 2S AH KH QH AD KD AC", True, True),         # 6 from the ace = the 6 trumps missing
    ("AS KS QS JS TS 8S 2S AH KH QH AD KD AC", True, False),        # 5 from the ace < 6 missing
    ("AS KS QS JS TS 9S 8S AH QH JH AD KD AC", True, False),        # a side suit with a gap (K missing)
    ("AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2H", True, False),        # a side two
    ("AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S AH", True, True),
    ("KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AH", True, False),        # the ace of trumps missing
    ("AS KS QS JS TS 9S AH KH QH JH TH 9H AD", True, False),        # six trumps can never be sure
])
def test_sure_thirteen(hand, draws, sure):
    assert K.thirteen_certain(mask(hand), draws) == sure
    assert K.sure_thirteen(mask(hand), params(draws), 0) == sure


def params(draws, count=None):
    """One row of heuristic parameters with draw_trumps and count on or off (count as draw_trumps when not
    given)."""
    hp = np.zeros((1, K.N_PARAMS))
    hp[0, K.P_DRAW_TRUMPS] = float(draws)
    hp[0, K.P_COUNT] = float(draws if count is None else count)
    return hp


def random_sure_hand(rng):
    """A random hand meeting the rule: k >= 7 trumps (the top 13-k at least from the ace), side suits from
    their aces."""
    t = rng.randrange(4)
    k = rng.randint(7, 12)
    run = rng.randint(13 - k, k)
    ranks = list(range(12, 12 - run, -1))                     # the top run
    if k > run:                                                # the rest below the card that ends the run
        ranks += rng.sample(range(0, 12 - run), k - run)
    cards = [t * 16 + r for r in ranks]
    side = [s for s in range(4) if s != t]
    lens = [0, 0, 0]
    for _ in range(13 - k):
        lens[rng.randrange(3)] += 1
    for s, m in zip(side, lens):
        cards += [s * 16 + r for r in range(12, 12 - m, -1)]
    return cards


def test_sure_thirteen_quick_test_changes_no_answer():
    """sure_thirteen's inline test (the ace of every suit held) only saves the full test's call: on sure hands
    built from the rule, their near misses (one card swapped) and random hands it answers as thirteen_certain,
    the full test, does; and it turns away nearly every random hand."""
    rng = random.Random(5)
    deck = [s * 16 + r for s in range(4) for r in range(13)]
    sure = [random_sure_hand(rng) for _ in range(300)]
    near = []
    for cards in sure:
        out = rng.choice(cards)
        near.append([c for c in cards if c != out] + [rng.choice([c for c in deck if c not in cards])])
    rand = [rng.sample(deck, 13) for _ in range(3000)]
    for cards in sure + near + rand:
        m = np.uint64(sum(1 << c for c in cards))
        aces = all(s * 16 + 12 in cards for s in {c // 16 for c in cards})
        assert K.aces_of_its_suits(m) == aces, cards
        for draws, count in ((False, False), (True, False), (False, True), (True, True)):
            assert K.sure_thirteen(m, params(draws, count), 0) == K.thirteen_certain(m, draws and count), cards
    assert all(K.sure_thirteen(np.uint64(sum(1 << c for c in cards)), params(True), 0) for cards in sure)
    assert sum(K.aces_of_its_suits(np.uint64(sum(1 << c for c in cards))) for cards in rand) < 30


def test_every_sure_hand_takes_thirteen_under_the_heuristics():
    rng = random.Random(12)
    specs = B.parse_seats("partner")
    kd, kc, ra, codes, prm = B.GAME.kernel_args(B.make_params(4, B.BoomkeRules(), specs))
    for _ in range(25):
        cards = random_sure_hand(rng)
        m = np.uint64(sum(1 << c for c in cards))
        assert K.sure_thirteen(m, params(True), 0)
        t = K.best_suit(m)
        _, tk = K.odds_tricks(kd, kc, 0, 150, m, ra, codes, prm)
        assert (tk[:, t] == 13).all(), cards


def test_thirteen_spades_call_boom_in_every_position():
    res = B.odds_hand(SPADES, seed=2, hands=3000)
    pos = res["positions"].set_index("position")
    assert (pos.heuristic_net[[0, 1, 2]] == 5).all() and (pos.p_hand_declares[[0, 1, 2]] == 1).all()
    assert pos.p_hand_declares[3] >= 0.999 and pos.heuristic_net[3] >= 4.98    # an opponent's Boom may come first
    assert all(b.startswith("Boom") for b in res["best"].best_call)
    # a hand one short of certain (no ace of trumps) keeps the estimate's call
    res = B.odds_hand("KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AH", seed=2, hands=500)
    assert (res["positions"].heuristic_net < 5).all()


def test_play_heuristic_rows_equal_plain_odds():
    res = odds_play(HAND, seed=5, hands=400, play="heuristic")
    plain = B.odds_hand(HAND, seed=5, hands=400)["calls"]
    plain = plain[plain.call != "Meetje"].reset_index(drop=True)
    got = res["calls"].reset_index(drop=True)
    assert list(got.trump + got.bid) == list(plain.trump + plain.call)
    for col in ("p_make", "exp_points", "exp_net", "n"):
        assert np.allclose(got[col].to_numpy(float), plain[col].to_numpy(float)), col
    assert res["gaps"].empty
    # the mean tricks are counts: printed without a sign
    from tricksim.analysis.boomke_wies.play import render_play
    lines = render_play(res).splitlines()
    head = next(x for x in lines if "E[tricks]" in x)
    assert head.split()[-2:] == ["E[tricks]", "n"]
    rows = [x.split() for x in lines[lines.index(head) + 1:] if x.strip() and x.split()[0] in "SHDC"]
    assert rows and all(r[-3] == "±" and r[-6] == "±" for r in rows)      # ... E[net] ± h  E[tricks] ± h  n
    assert not any(r[-4].startswith("+") for r in rows) and all(r[-7][0] in "+-" for r in rows)


def test_gap_is_paired_difference():
    rng = np.random.default_rng(0)
    counts = np.zeros(4 * 14 * 14, np.int64)
    counts[(0 * 14 + 9) * 14:(0 * 14 + 10) * 14] = rng.integers(0, 30, 14)      # spades: heuristic 9 tricks
    counts[(1 * 14 + 11) * 14 + 8] = 40                                          # hearts: 11 vs 8
    calls, gaps = play_tables(counts, ["heuristic", "open"], B.BoomkeRules())
    for (t, b), g in gaps.groupby(["trump", "bid"]):
        c = calls[(calls.trump == t) & (calls.bid == b)].set_index("play")
        assert g.gap.iloc[0] == pytest.approx(c.p_make["open"] - c.p_make["heuristic"])
        assert g.net_gap.iloc[0] == pytest.approx(c.exp_net["open"] - c.exp_net["heuristic"])
    h = gaps[(gaps.trump == "H") & (gaps.bid == "10")].iloc[0]
    assert (h.gap, h.only_kind, h.only_heuristic, h.tricks_gap) == (-1.0, 0, 40, -3.0)


def test_open_column_same_for_any_thread_count(tmp_path):
    pytest.importorskip("endplay")
    a = odds_play(SPADES, seed=1, hands=6, opts=RunOptions(threads=1))
    b = odds_play(SPADES, seed=1, hands=6, opts=RunOptions(threads=2))
    assert a["calls"].equals(b["calls"]) and a["gaps"].equals(b["gaps"])
    o = a["calls"][a["calls"].play == "open"]
    assert (o.p_make == 1).all() and (o.n == 6).all()                         # thirteen spades: all 13 open-hand


def run_cli(argv, capsys):
    code = 0
    try:
        cli.main(argv)
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


def test_missing_extra_is_one_line(monkeypatch, capsys, tmp_path):
    monkeypatch.setitem(sys.modules, "endplay.dds.solve", None)      # import fails as without the extra
    code, out, err = run_cli(["odds", "boomke-wies", "--hand", HAND, "--play", "heuristic,open", "--hands", "5",
                              "--out", str(tmp_path / "o")], capsys)
    assert code == 2 and err.strip() == f"tricksim: error: {INSTALL}"
    code, out, err = run_cli(["odds", "boomke-wies", "--hand", HAND, "--play", "heuristic", "--hands", "50",
                              "--trump", "S", "--out", str(tmp_path / "h"), "--quiet"], capsys)
    assert code == 0 and "heuristics" in out and "open-hand" not in out.split("\n", 2)[2]


@pytest.mark.parametrize("argv, msg", [
    (["--hand", HAND, "--play", "pimc:worlds=0"], "out of range"),
    (["--hand", HAND, "--play", "heuristic,best"], "unknown kind of play 'best'"),
    (["--play", "heuristic"], "--play needs --hand"),
    (["--hand", HAND, "--play", "open", "--seat", "1"], "--seat does not go with --play"),
])
def test_bad_play_input(argv, msg, capsys, tmp_path):
    code, out, err = run_cli(["odds", "boomke-wies"] + argv + ["--hands", "5", "--out", str(tmp_path / "o")], capsys)
    assert code == 2 and msg in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("play", ["pimc:worlds=2.5", "open,dd", ""])
def test_bad_play_api(play):
    with pytest.raises(TricksimError):
        odds_play(HAND, hands=5, play=play)
