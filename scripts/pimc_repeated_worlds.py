"""How often a sampling player's worlds repeat within one card decision, Bourré against Boulmous (docs/methods/
sampling.md, "Solves shared across a deal"): a world drawn twice in a decision is the plainest case a table shared
across the worlds answers without searching. Bourré: the card decisions with a choice of 2 sessions of 10 deals at
5 players, every seat pimc (analysis/bourre/studies.py ``pimc_decisions``), 256 worlds each as pimc_card draws them
(kernels/bourre/pimc.py ``sample_worlds``); Boulmous: every turn of 100 deals played by four pimc seats
(pimc_play_batch, 32 worlds), the worlds of each turn (kernels/boulmous/pimc.py ``sample_worlds``). Per trick, the
share of worlds that repeat an earlier world of their decision.

    .venv/bin/python scripts/pimc_repeated_worlds.py
"""
import os

import numpy as np

from tricksim.analysis.boulmous.config import BoulmousRules, pimc_key, rules_array
from tricksim.analysis.boulmous.spec import SPEC
from tricksim.analysis.bourre.studies import pimc_decisions
from tricksim.kernels.boulmous import pimc as PM
from tricksim.kernels.boulmous import solver as S
from tricksim.kernels.bourre import pimc as PB


def report(game, per_trick):
    """One line per trick and one in all: worlds, distinct worlds, the share repeated."""
    for t, (n, u) in sorted(per_trick.items()):
        print(f"{game} trick {t + 1}: worlds {n}, distinct {u}, repeated share {1 - u / n:.3f}")
    n = sum(a for a, _ in per_trick.values())
    u = sum(b for _, b in per_trick.values())
    print(f"{game} all: worlds {n}, distinct {u}, repeated share {1 - u / n:.3f}")


def main():
    print("load", os.getloadavg(), flush=True)
    per_trick = {}
    for i, d in enumerate(pimc_decisions(seed=0, players=5, sessions=2, deals=10)):
        out, ok = PB.sample_worlds(d[0], d[1], d[2], d[4], d[5], d[9], d[10], d[11], d[12], d[13], d[14], d[15],
                                   d[16], d[19], 256, np.uint64(1000 + i))
        a = per_trick.setdefault(d[4], [0, 0])
        a[0] += int(ok.sum())
        a[1] += len({tuple(r) for r, k in zip(out.tolist(), ok) if k})
    report("bourre", per_trick)
    ra = rules_array(BoulmousRules())      # default rules: the left bower is a trump
    kd, _ = SPEC.keys(0)
    key = pimc_key(0)
    nd = 100
    hands = S.random_deals(kd, 0, nd)
    idx = np.arange(nd)
    takers, trumps = idx % 4, idx % 5
    cards = np.zeros((nd, 24), np.int64)
    PM.pimc_play_batch(hands, takers, trumps, np.full(nd, 3, np.int64), ra, 32, PM.GOAL_CONTRACT, key, 0, cards,
                       np.zeros(nd, np.int64), PM.SHARE_TT)
    per_trick = {}
    for i in range(nd):
        h = hands[i].copy()
        leader, ntr, trick = takers[i], 0, []
        for k in range(24):
            s = (leader + ntr) % 4
            out = np.zeros((32, 4), np.uint64)
            PM.sample_worlds(s, h[s], cards[i], k, takers[i], trumps[i], ra, key, i, out)
            a = per_trick.setdefault(k // 4, [0, 0])
            a[0] += 32
            a[1] += len({tuple(r) for r in out.tolist()})
            c = int(cards[i, k])
            h[s] = np.uint64(int(h[s]) ^ (1 << c))
            trick.append(c)
            ntr += 1
            if ntr == 4:
                leader = S._trick_state(np.array(trick, np.int64), 4, leader, trumps[i], 1)[2]
                ntr, trick = 0, []
    report("boulmous", per_trick)
    print("load", os.getloadavg())


if __name__ == "__main__":
    main()
