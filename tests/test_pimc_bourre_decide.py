"""The Bourre sampling player's play/pass and discards by sampling (``pimc:decide=1|2``,
kernels/bourre/pimc.py ``pimc_decide``): the referee accepts its traces under the draw-phase variants,
decide=0 replays the player as it was before (decision for decision), its results do not depend on threads or
blocks, it plays what surely wins and passes what surely loses, and bad input is refused in one line."""
import hashlib
import json

import numba
import numpy as np
import pytest

from tricksim import cli
from tricksim.analysis import bourre as B
from tricksim.analysis.common import parse_card
from tricksim.kernels import bourre as K
from tricksim.kernels.bourre import pimc as P
import test_pimc_bourre as TP
from test_pimc_bourre import SEED, _duplicate, referee


D1 = "pimc:worlds=16,decide=1"


@pytest.mark.parametrize("players,rules,spec", [
    (5, {}, [D1]),
    (2, {}, [D1]),
    (5, {"declare_then_draw": True, "double_ante": True}, [D1, "basic", D1, "cinch", "basic"]),
    (7, {"max_discard_7plus": 3, "lo_no": True, "all_pass": "carry_over"}, [D1]),
    (4, {"trump_card": "separate_turnup", "max_discard": 4}, [D1, "basic", "pimc:worlds=4,decide=1", "loose"]),
    (8, {"reshuffle": "wp_folded_first_then_discards"}, ["pimc:worlds=8,decide=1,threshold=0"]),
    (5, {"bourre_penalty": "fixed:3", "tie": "divide_equally"}, ["pimc:worlds=8,decide=2"]),
    # earlier players who choose as basic never would: the rejection gives up and the decision still comes
    (5, {}, ["random", "random", "random", "random", "pimc:worlds=16,decide=1"]),
])
def test_referee_accepts_decide_traces(players, rules, spec):
    tr, errs = referee(players, 3, 10, spec, **rules)
    assert errs == []
    assert sum(len(d.get("tricks", [])) == 5 for d in tr) >= 3      # real play happened


def test_reshuffles_happen_and_are_legal():
    """Eight players who all play and draw five: the stock runs out (rule 5) while pimc decides."""
    tr, errs = referee(8, 2, 6, ["pimc:worlds=4,decide=1,threshold=-5"], max_discard=5)
    assert errs == []
    assert sum(d["reshuffles"] for d in tr) > 0


# decide=0: the traces of the player before decide existed (commit fa7f3d5, generated there with the same cases),
# digested over these fields
FIELDS = ("deal", "decisions", "second_antes", "reshuffles", "hands", "tricks", "outcome", "score_delta", "pot_after")
OLD = [
    (5, {}, ["pimc:worlds=8"], "0a138045e36ca099"),
    (5, {"declare_then_draw": True, "double_ante": True},
     ["pimc:worlds=8,eval=0", "basic", "pimc:worlds=8", "cinch", "basic"], "639abc3ff323a4f1"),
    (7, {"max_discard_7plus": 3, "lo_no": True, "all_pass": "carry_over"}, ["pimc:worlds=8,threshold=1"],
     "f0926250279dd4e8"),
    (4, {"trump_card": "separate_turnup", "max_discard": 4}, ["pimc:worlds=8", "basic", "pimc:worlds=4", "loose"],
     "e2b93d49b572b6ef"),
]


def _digest(trace):
    rows = [[d.get(f) for f in FIELDS] for d in trace]
    return hashlib.sha256(json.dumps(rows, default=int).encode()).hexdigest()[:16]


@pytest.mark.parametrize("players,rules,heur,digest", OLD)
def test_decide_0_replays_the_old_player(players, rules, heur, digest):
    g = B.GAME
    heur = [h + ",decide=0" if h.startswith("pimc") else h for h in heur]
    tr = g.trace(3, players, 3, 8, g.rules_from(rules), g.parse_seats(heur, players))
    assert _digest(tr) == digest


def test_decide_changes_decisions_not_deals():
    a, _ = referee(5, 2, 12, ["pimc:worlds=16,decide=1"])
    b, _ = referee(5, 2, 12, ["pimc:worlds=16,decide=0"])
    assert [d["deal"] for d in a][:1] == [d["deal"] for d in b][:1]
    assert any(x["decisions"] != y["decisions"] for x, y in zip(a, b))


def test_ace_up_dealer_always_plays():
    tr, errs = referee(5, 6, 10, ["pimc:worlds=8,decide=1,threshold=10"])
    assert errs == []
    aces = [d for d in tr if d["trump_card"][0] == "A" and d["decisions"]]
    assert aces
    for d in aces:
        dec = [x for x in d["decisions"] if x["seat"] == d["dealer"]]
        assert dec and dec[0]["play"]


def test_same_result_for_any_threads_and_blocks():
    spec = "pimc:worlds=8,decide=1"
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
    assert (one != _duplicate(0, 16, "pimc:worlds=8,decide=0")).any()


# ---------------------------------------------------------------------------
# decisions with a certain answer, asked of pimc_decide directly
# ---------------------------------------------------------------------------
def _decide(hand, up, spec, players=5, pos=0, pot=None, **rules):
    """pimc_decide for the seat declaring ``pos``-th (no one declared before it, so ``pos`` = 0 unless the
    earlier seats passed), the dealer players - 1; returns (play, discarded cards)."""
    R = B.BourreRules(**rules)
    ra = B.rules_array(R)
    specs = B.parse_seats([spec], players)
    _, prm = B.heuristic_arrays(specs)
    dealer = players - 1
    order = np.zeros(8, np.int64)
    order[:players] = np.arange(players)
    rec = np.zeros(K.REC_LEN, np.int64)
    for j in range(pos):                       # the earlier seats passed
        rec[K.REC_DEC + 4 * j] = j
    me = pos
    h = np.uint64(sum(1 << c for c in B.parse_hand(hand)))
    upc = parse_card(up)
    pot = players * R.ante if pot is None else pot
    st = np.array([12345], np.uint64)
    uw = np.zeros(K.UW_LEN, np.uint64)
    iw = np.zeros(K.IW_LEN, np.int64)
    play, disc = P.pimc_decide(rec, np.int64(me), np.int64(pos), np.int64(players), order, np.int64(dealer), h,
                               np.int64(0), np.int64(0), np.int64(pot), np.int64(0), np.uint64(0), True,
                               np.int64(upc >> 4), False, False, np.int64(upc), np.int64(B.discard_limit(R, players)),
                               np.int64(max(1, R.ante) * players), np.int64(R.ante), ra, prm, st, uw, iw)
    return bool(play), [c for c in range(64) if (int(disc) >> c) & 1]


def test_surely_winning_hand_plays_where_basic_passes():
    # A K Q of trumps take three tricks whatever the others hold: the pot, for sure; threshold=10: basic passes
    play, disc = _decide("AH KH QH 2C 3D", "9H", "pimc:worlds=32,decide=1,threshold=10")
    assert play
    play0, _ = _decide("AH KH QH 2C 3D", "9H", "pimc:worlds=32,decide=1,threshold=10", pot=10 ** 9)
    assert play0


def test_hopeless_hand_at_a_big_pot_passes_where_basic_plays():
    # no trump, nothing high, the first to speak at 5 players, bourre costs the pot of 200: passing (0) is better
    # than any play; threshold=-5: basic plays
    play, _ = _decide("2C 3D 4S 5C 7D", "9H", "pimc:worlds=64,decide=1,threshold=-5", pot=200, max_discard=0)
    assert not play


def test_lone_dealer_after_all_passed_plays():
    # carry_over: the dealer may pass, but after all passed he takes the pot alone (rule 6)
    play, _ = _decide("2C 3D 4S 5C 7D", "9H", "pimc:worlds=16,decide=2,threshold=10", pos=4, pot=50,
                      all_pass="carry_over")
    assert play


def test_dealer_with_ace_up_never_passes():
    # carry_over: the dealer could pass after all passed, but not with an Ace up-card (rule 4)
    play, _ = _decide("AH 2C 3D 4S 5C", "AH", "pimc:worlds=16,decide=1,threshold=10", pos=4, pot=10 ** 6,
                      max_discard=0, all_pass="carry_over")
    assert play


@pytest.mark.parametrize("args,msg", [
    (["trace", "bourre", "--players", "5", "-H", "pimc:decide=3"], "decide"),
    (["trace", "bourre", "--players", "5", "-H", "pimc:decide=0.5"], "decide must be an integer"),
    (["compare", "bourre", "basic", "pimc:decide=-1", "--players", "5", "--hands", "10"], "decide"),
])
def test_bad_decide_one_line_exit_2(args, msg, capsys, tmp_path):
    TP.test_bad_input_one_line_exit_2(args, msg, capsys, tmp_path)
