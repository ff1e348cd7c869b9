"""Boulmous games to 21 and the money settlement (RULES.md 1.1 rules 17-18), checked
deal by deal by a small referee against the kernel's game trace."""
import numpy as np
import pytest

import ref_boulmous as ref
from tricksim.analysis import boulmous as B
from tricksim.analysis.common import apply_rule_overrides

VARIANTS = [
    [],
    ["tie_break=taker_priority"],
    ["tie_break=shared_win"],
    ["end_check=after_each_trick"],
    ["winner_pays_own_boxes=true"],
    ["failed_boulmous_is_box=false"],
    ["target=8", "tie_break=shared_win"],
    ["target=8", "tie_break=taker_priority", "end_check=after_each_trick"],
    ["failed_taker_keeps_tricks=false", "auction=multi_round"],
]


def deal_points(d, rules):
    """The deal's score_delta (rules 15-16).  A deal stopped by end_check=after_each_trick
    with the contract still open (the taker could still make it and has not) scores the
    taker nothing for it; a contract already made or already beyond reach scores as usual."""
    won = d["tricks_won"]
    if d["taker"] is None:
        return [0, 0, 0, 0]
    left = 6 - len(d["tricks"])
    if won[d["taker"]] < d["contract"] <= won[d["taker"]] + left:
        points = list(won)
        points[d["taker"]] = 0
        return points
    return ref.score(d["taker"], d["contract"], won, rules.failed_taker_keeps_tricks)[1]


def referee_game(deals, rules):
    """Replays one game's deals; returns the list of problems found."""
    problems = []
    scores = [0, 0, 0, 0]
    boxes = [0, 0, 0, 0]
    stakes = [0, 0, 0, 0]
    target = rules.target
    for j, d in enumerate(deals):
        if d["dealer"] != j % 4:
            problems.append(f"deal {j}: dealer {d['dealer']}, expected {j % 4} (the deal passes to the left)")
        ntr = len(d["tricks"])
        if rules.end_check == "after_each_trick" and d["taker"] is not None and ntr < 6:
            # the deal stopped: a player below the target when the deal began reached it at
            # this trick, not before (a taker only once his contract is made)
            def reached(k):
                won = [sum(1 for t in d["tricks"][:k] if t["winner"] == s) for s in range(4)]
                return any(scores[s] < target <= scores[s] + won[s]
                           and not (s == d["taker"] and won[s] < d["contract"]) for s in range(4))
            if not reached(ntr) or any(reached(k) for k in range(1, ntr)):
                problems.append(f"deal {j}: stopped after trick {ntr} without the target being reached there")
        elif d["taker"] is not None and ntr != 6:
            problems.append(f"deal {j}: only {ntr} tricks")
        if d["score_delta"] != deal_points(d, rules):
            problems.append(f"deal {j}: score_delta {d['score_delta']} != {deal_points(d, rules)}")
        if d["taker"] is not None and d["made"] is None and d["tricks_won"][d["taker"]] >= d["contract"]:
            problems.append(f"deal {j}: a made contract reported as undecided")
        for s in range(4):
            scores[s] += d["score_delta"][s]
            stakes[s] += d["stakes_delta"][s]
        if d["made"] is False and (d["contract"] < 6 or rules.failed_boulmous_is_box):
            boxes[d["taker"]] += 1
        if d["scores_after"] != scores:
            problems.append(f"deal {j}: scores {d['scores_after']} != {scores}")
        if d["boxes_after"] != boxes:
            problems.append(f"deal {j}: boxes {d['boxes_after']} != {boxes}")
        top = max(scores)
        winners = []
        if top >= target:
            tied = [s for s in range(4) if scores[s] == top]
            if len(tied) == 1 or rules.tie_break == "shared_win":
                winners = tied
            elif rules.tie_break == "taker_priority" and d["taker"] in tied:
                winners = [d["taker"]]
        last = j == len(deals) - 1
        if winners and not last:
            problems.append(f"deal {j}: the game should have ended with winners {winners}")
        if last:
            if d.get("winners") != winners:
                problems.append(f"last deal {j}: winners {d.get('winners')} != {winners}")
            money = list(stakes)
            for w in winners:
                for o in range(4):
                    if o in winners:
                        continue
                    amt = 1 + boxes[o] - (boxes[w] if rules.winner_pays_own_boxes else 0)
                    money[w] += amt
                    money[o] -= amt
            if d.get("game_stakes") != money:
                problems.append(f"last deal {j}: game stakes {d.get('game_stakes')} != {money}")
            if sum(money) != 0:
                problems.append("money not conserved")
    return problems


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: ",".join(v) or "default")
@pytest.mark.parametrize("heur", ["cautious", "random"])
def test_games_agree_with_referee(variant, heur):
    rules = apply_rule_overrides(B.BoulmousRules(), variant)
    deals = B.trace_games(seed=77, games=60, rules=rules, heuristics=[heur])
    by_game = {}
    for d in deals:
        by_game.setdefault(d["game_index"], []).append(d)
    assert len(by_game) == 60
    problems = []
    for g, ds in by_game.items():
        problems += [f"game {g}: {p}" for p in referee_game(ds, rules)]
    assert not problems, problems[:5]


def test_variants_reach_their_cases():
    """The referee runs above do meet ties, boxes and early stops."""
    r = apply_rule_overrides(B.BoulmousRules(), ["target=8", "tie_break=shared_win"])
    deals = B.trace_games(seed=77, games=200, rules=r, heuristics=["random"])
    last = [d for d in deals if "winners" in d]
    assert any(len(d["winners"]) > 1 for d in last), "no shared win met"
    r = apply_rule_overrides(B.BoulmousRules(), ["target=8", "end_check=after_each_trick"])
    deals = B.trace_games(seed=77, games=200, rules=r, heuristics=["random"])
    assert any(len(d["tricks"]) < 6 and d["taker"] is not None for d in deals), "no early stop met"
    assert any(max(d["boxes_after"]) > 0 for d in last), "no box met"


def test_game_trace_matches_the_batch_kernel():
    rules = B.BoulmousRules()
    specs = B.parse_seats("aggressive")
    params = B.make_params(5, rules, specs)
    n = 40
    agg = B.block_games(params, 0, n)
    deals = B.trace_games(seed=5, games=n, rules=rules, heuristics=specs)
    last = [d for d in deals if "winners" in d]
    stakes = np.sum([d["game_stakes"] for d in last], axis=0)
    wins = np.zeros(4, int)
    for d in last:
        for w in d["winners"]:
            wins[w] += 1
    assert agg[:4].tolist() == stakes.tolist()
    assert agg[4:8].tolist() == wins.tolist()
    assert agg[12] == len(deals)


def test_after_each_trick_reproduction():
    """Issue 11: game 125 of seed 3.  After deal 18 seats 0 and 1 have 20; in deal 19
    (seat 0 takes 3) seat 1 reaches 21 at the second trick and the deal stops with seat
    0's contract open (1 trick).  The open contract scores nothing, so seat 1 wins there.
    Before the fix seat 0 was credited his trick (21 all, play on) and in deal 20 the two
    seats already at 21 stopped the deal after its first trick, the taker winning the
    game with 1 trick of a 3-bid."""
    rules = B.BoulmousRules(end_check="after_each_trick")
    deals = B.trace_games(seed=3, first=125, games=1, rules=rules)
    assert referee_game(deals, rules) == []
    d = deals[19]
    assert deals[18]["scores_after"][:2] == [20, 20]
    assert d["taker"] == 0 and d["contract"] == 3 and len(d["tricks"]) == 2 and d["made"] is None
    assert d["tricks_won"][:2] == [1, 1] and d["score_delta"][:2] == [0, 1]
    assert len(deals) == 20 and d["scores_after"] == [20, 21, 16, 13] and d["winners"] == [1]


def test_after_each_trick_games_agree_with_referee():
    """The 1,500 games of seed 3 (7 of them went wrong before the fix): the referee agrees
    on every deal, early stops with an open contract occur, and no deal ever begins with a
    player at the target.  (A deal stops at the first trick that takes a player across
    the target, and a trick moves one player, so a tie at the target cannot arise.)"""
    rules = B.BoulmousRules(end_check="after_each_trick")
    deals = B.trace_games(seed=3, games=1500, rules=rules)
    games = {}
    for d in deals:
        games.setdefault(d["game_index"], []).append(d)
    assert len(games) == 1500
    problems = [f"game {g}: {p}" for g, ds in games.items() for p in referee_game(ds, rules)]
    assert not problems, problems[:5]
    at_target = open_stops = 0
    for ds in games.values():
        before = [0, 0, 0, 0]
        for d in ds:
            at_target += max(before) >= rules.target
            open_stops += d["taker"] is not None and len(d["tricks"]) < 6 and d["made"] is None
            before = d["scores_after"]
        assert len(ds[-1]["winners"]) == 1
    assert at_target == 0 and open_stops > 0
