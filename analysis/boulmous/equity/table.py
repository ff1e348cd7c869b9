"""Boulmous match equity (issue 16): P(each seat wins the game | the four scores, who deals) and the
expected money, for every score state, by value iteration over the per-deal outcome distribution.

The model.  A deal's outcome (who took, the contract, the tricks of each seat) is measured by the
simulator, seats relative to the dealer, the four dealers pooled (every seat plays the same heuristic,
so the game looks the same from every dealer).  With the score-unaware heuristics the distribution is
the same in every state; rule 17 (``end_check = end_of_deal``: the scores are looked at after each
deal; a tie at the top at the target or above is played on, or goes to the taker, or is shared, flag
``tie_break``) and rule 18 (the winner collects 1 + the boxes of each other player; a boulmous made or
failed pays 1 to or from each other player at once) are applied exactly on the score grid:

- scores below ``floor`` (default -6) count as ``floor`` (a player that far behind is treated as at
  the floor; ``--scores`` below it is refused);
- the states run up to ``target + 5``, the most a deal can add to a score below the target, so a tie at
  the top played on is kept; a tie played on past that (two tied players each scoring again and staying
  tied) is counted as shared evenly between the tied players.

The value of a state is the four win chances and the four expected moneys (no box made yet: the boxes
already made add ``boxes_o x C[s, o]``, see ``money``).  The scores' total never falls under the default
rules (a made contract adds 6, a failed one 6 - bid, a passed deal 0), so one sweep from the highest
total down is exact, the deals that keep the total (all pass, a failed boulmous) solved on each level by
Gauss-Seidel; with ``failed_taker_keeps_tricks = false`` the sweeps repeat until nothing changes.

Intervals: the delta method.  The value of a state is a smooth function of the outcome probabilities;
its derivative along each outcome is the expected number of visits of each later state times the
outcome's effect there (``kernels/equity.influence``), and the multinomial sampling of the n measured
deals gives the variance.
"""
from __future__ import annotations

import time

import numpy as np

from ....kernels.boulmous import equity as KE
from ...common import TricksimError

FLOOR = -6
DEALS = 8_000_000           # deals measured for the outcome distribution (two engine blocks)
BLOCK = 1 << 22
TIES = ["play_on", "taker_priority", "shared_win"]
Z = 1.959963984540054


def check_rules(rules) -> None:
    if rules.end_check != "end_of_deal":
        raise TricksimError("equity tables need end_check=end_of_deal: with after_each_trick a deal's outcome "
                            "depends on the scores")


def parse_scores(scores, n: int, target: int, floor: int | None = None, what: str = "--scores") -> list[int]:
    """``"18,17,9,3"`` (or a list) -> ints: ``n`` of them, each below ``target`` and (``floor``) not
    below the table's floor."""
    if isinstance(scores, str):
        parts = [p.strip() for p in scores.split(",")]
        try:
            vals = [int(p) for p in parts]
        except ValueError:
            raise TricksimError(f"{what} must be {n} integers separated by commas, e.g. "
                                f"{','.join(['0'] * n)}, got {scores!r}") from None
    else:
        vals = [int(v) for v in scores]
    if len(vals) != n:
        raise TricksimError(f"{what} needs {n} scores (one per {'seat' if n == 4 else 'team'}), got {len(vals)}")
    for v in vals:
        if v >= target:
            raise TricksimError(f"{what}: a score of {v} is at or above the target {target} (the game is over)")
        if floor is not None and v < floor:
            raise TricksimError(f"{what}: a score of {v} is below the table's floor {floor}")
    return vals


class Table:
    """The equity table of one (rules, heuristic, outcome sample): ``V`` float64[L^4, 8] over canonical
    states (kernels/boulmous/equity.py), the outcome distribution ``dist`` (outcomes.decode_boulmous), the grid
    ``floor``, ``ceil``, ``target``, and the level structure used by the sweeps and the intervals."""

    def __init__(self, V, dist, rules, floor, seconds=0.0, sweeps=0, source="computed"):
        self.V, self.dist, self.rules = V, dist, rules
        self.floor, self.target = floor, rules.target
        self.ceil = rules.target + 5
        self.L = self.ceil - floor + 1
        self.seconds, self.sweeps, self.source = seconds, sweeps, source
        self.money_ok = rules.tie_break != "shared_win"
        self.order, self.starts, self.level_of, self.pos = levels(self.L, floor)
        self.same = int((dist["delta"].sum(axis=1) == 0).sum()) + 4   # room for a state's same-level outcomes

    def args(self):
        d = self.dist
        settle0, coef = settlement(self.rules)
        return (d["prob"], d["delta"], d["taker"], d["box"], d["imm"], int(self.target), int(self.floor),
                int(self.ceil), TIES.index(self.rules.tie_break), float(self.rules.winner_pays_own_boxes),
                settle0, coef)

    def index(self, scores, dealer: int) -> int:
        y = canonical(scores, dealer)
        return int(sum((v - self.floor) * self.L ** (3 - r) for r, v in enumerate(y)))

    def state(self, scores, dealer: int, boxes=(0, 0, 0, 0)) -> np.ndarray:
        """float64[KE.V_LEN] (``KE.VALUE``): P(win) of seats 0..3 then their expected money, absolute seats."""
        v = self.V[self.index(scores, dealer)]
        rel = [(s - dealer - 1) % 4 for s in range(4)]
        p = KE.VALUE.field(v, "win")[rel]
        m = KE.VALUE.field(v, "money")[rel]
        if any(boxes):
            m = m + money_from_boxes(p, boxes, self.rules)
        if not self.money_ok:
            m[:] = np.nan
        return np.concatenate([p, m])

    def interval(self, scores, dealer: int) -> np.ndarray:
        """95% half-widths of ``state`` (delta method over the sampled outcome distribution)."""
        x0 = self.index(scores, dealer)
        IF = KE.influence(self.V, self.order, self.starts, self.level_of, self.pos, x0, *self.args(), self.same, 10_000)
        p = self.dist["prob"]
        mean = p @ IF
        var = (p @ (IF * IF) - mean * mean) / self.dist["n"]
        half = Z * np.sqrt(np.maximum(var, 0.0))
        rel = [(s - dealer - 1) % 4 for s in range(4)]
        out = np.concatenate([KE.VALUE.field(half, "win")[rel], KE.VALUE.field(half, "money")[rel]])
        if not self.money_ok:
            out[KE.VALUE.slice("money")] = np.nan
        return out


def canonical(scores, dealer: int) -> list[int]:
    """Scores relative to the dealer (0 = dealer's left .. 3 = dealer)."""
    return [int(scores[(dealer + 1 + r) % 4]) for r in range(4)]


def levels(L: int, floor: int):
    """States by the total of their scores, highest first: (order, level starts, level index of each
    state, position of each state in its level)."""
    g = np.arange(L) + floor
    tot = (g[:, None, None, None] + g[None, :, None, None] + g[None, None, :, None] + g[None, None, None, :]).ravel()
    order = np.argsort(-tot, kind="stable").astype(np.int64)
    st = tot[order]
    starts = np.concatenate([[0], np.nonzero(np.diff(st))[0] + 1, [len(st)]]).astype(np.int64)
    level_of = np.empty(len(tot), np.int64)
    pos = np.empty(len(tot), np.int64)
    for lv in range(len(starts) - 1):
        idx = order[starts[lv]:starts[lv + 1]]
        level_of[idx] = lv
        pos[idx] = np.arange(len(idx))
    return order, starts, level_of, pos


def settlement(rules):
    """Rule 18 a-b at the end of a game won by the seats of mask W (no box made before the deal):
    ``settle0[W, s]`` the seat's money, ``coef[W, s, o]`` what one box of seat o adds to it."""
    wpo = float(rules.winner_pays_own_boxes)
    settle0 = np.zeros((16, 4))
    coef = np.zeros((16, 4, 4))
    for W in range(1, 16):
        win = [(W >> s) & 1 for s in range(4)]
        for w in range(4):
            if not win[w]:
                continue
            for o in range(4):
                if win[o]:
                    continue
                settle0[W, w] += 1
                settle0[W, o] -= 1
                coef[W, w, o] += 1          # o's box: paid to w
                coef[W, o, o] -= 1
                coef[W, w, w] -= wpo        # w's own box, with winner_pays_own_boxes
                coef[W, o, w] += wpo
    return settle0, coef


def money_from_boxes(p, boxes, rules):
    """What the boxes already made add to each seat's expected money (one winner, P(win) ``p``)."""
    wpo = float(rules.winner_pays_own_boxes)
    add = np.zeros(4)
    for s in range(4):
        for o in range(4):
            b = boxes[o]
            if o != s:
                add[s] += b * (p[s] + wpo * p[o])
            else:
                add[s] += b * (-(1 - p[s]) - 3 * wpo * p[s])
    return add


def build(dist: dict, rules, floor: int = FLOOR, tol: float = 1e-12, max_sweeps: int = 60) -> Table:
    """Value iteration (see the module's docstring); ``dist`` from outcomes.decode_boulmous."""
    check_rules(rules)
    t0 = time.perf_counter()
    tab = Table(None, dist, rules, floor)
    V = np.zeros((tab.L ** 4, KE.V_LEN))
    sweeps = 0
    while True:
        big, n_down, n_over = KE.value_sweep(V, tab.order, tab.starts, *tab.args(), tab.same, tol, 10_000)
        sweeps += 1
        if (n_down == 0 and n_over == 0) or big <= 1e-10 or sweeps >= max_sweeps:
            break
    tab.V, tab.seconds, tab.sweeps = V, time.perf_counter() - t0, sweeps
    return tab
