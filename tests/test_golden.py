"""Golden traces: a few seeded hands per game and key rule variant, exactly as ``tricksim trace``
prints them, pinned in tests/golden/<game>.jsonl and compared exactly.  A change of play (a rule, a
heuristic, the dealing) shows as a failing case here and as a diff of the golden file once
regenerated; review that diff before committing it.

Regenerate (after a deliberate change of play):

    .venv/bin/python tests/test_golden.py
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.fast   # the fast tier (scripts/test.sh --fast)

GOLDEN = Path(__file__).resolve().parent / "golden"


def _cases():
    """{game key: [(case, trace records)]}: what each golden file holds, in order."""
    from tricksim.analysis import boomke_wies, boulmous, bourre

    def bm(seed, hands, heuristic="default", **rules):
        g = boulmous.GAME
        return g.trace(seed, hands, g.rules_from(rules), g.parse_seats(heuristic))

    def bw(seed, hands, heuristic="default", **rules):
        g = boomke_wies.GAME
        return g.trace(seed, hands, g.rules_from(rules), g.parse_seats(heuristic))

    def bo(seed, players, sessions, deals, heuristic="default", **rules):
        g = bourre.GAME
        return g.trace(seed, players, sessions, deals, g.rules_from(rules), g.parse_seats(heuristic, players))

    return {
        "boulmous": [
            ("default rules, cautious", lambda: bm(1, 4)),
            ("random, must_head, must_trump_and_overtrump", lambda: bm(2, 3, "random", must_head=True,
                                                                       trump_obligation="must_trump_and_overtrump")),
            ("aggressive, left bower not a trump, multi-round auction",
             lambda: bm(3, 3, "aggressive", left_bower_is_trump=False, auction="multi_round")),
            ("a whole game to 21", lambda: boulmous.trace_games(4, 1)),
        ],
        "boomke_wies": [
            ("default rules, partner", lambda: bw(1, 3)),
            ("naive, dealer may bid 8-12, Meetje trump named", lambda: bw(2, 3, "naive", dealer_may_bid_8_to_12=True,
                                                                         meetje_trump="dealer_names_then_eldest_leads")),
            ("random, no auction", lambda: bw(3, 2, "random", variant="no_auction")),
            ("no shuffle: tricks collected, cut and dealt", lambda: bw(4, 2, shuffle="none_collect_tricks")),
        ],
        "bourre": [
            ("7 players, basic, a session of 4 deals", lambda: bo(1, 7, 1, 4)),
            ("4 players, random, two sessions", lambda: bo(2, 4, 2, 2, "random")),
            ("5 players, cinch, Lo-No, double ante", lambda: bo(3, 5, 1, 4, "cinch", lo_no=True, double_ante=True)),
            ("8 players, tie divided, pot limit 20", lambda: bo(4, 8, 1, 3, tie="divide_equally", pot_limit=20)),
        ],
    }


def _lines(records, case):
    return [json.dumps({"case": case, **d}, separators=(",", ":")) for d in records]


def regenerate():
    GOLDEN.mkdir(exist_ok=True)
    for key, cases in _cases().items():
        lines = [line for case, make in cases for line in _lines(make(), case)]
        (GOLDEN / f"{key}.jsonl").write_text("\n".join(lines) + "\n")
        print(f"{GOLDEN / (key + '.jsonl')}: {len(lines)} records")


@pytest.mark.parametrize("key", ["boulmous", "boomke_wies", "bourre"])
def test_traces_match_the_golden_files(key):
    cases = _cases()[key]
    pinned = (GOLDEN / f"{key}.jsonl").read_text().splitlines()
    now = [line for case, make in cases for line in _lines(make(), case)]
    for i, (a, b) in enumerate(zip(pinned, now)):
        if a != b:
            da, db = json.loads(a), json.loads(b)
            keys = [k for k in sorted(set(da) | set(db)) if da.get(k) != db.get(k)]
            pytest.fail(f"{key}.jsonl line {i + 1} ({da.get('case')}, hand {da.get('hand_index')}) differs in "
                        f"{', '.join(keys)}: a change of play? (regenerate: python tests/test_golden.py)")
    assert len(pinned) == len(now), f"{key}.jsonl holds {len(pinned)} records, the traces give {len(now)}"


def test_every_game_has_golden_traces():
    from tricksim.analysis.registry import GAMES
    assert {g.key for g in GAMES} == set(_cases()) == {p.stem for p in GOLDEN.glob("*.jsonl")}


if __name__ == "__main__":
    sys.exit(regenerate())
