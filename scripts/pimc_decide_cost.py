"""Cost of the Bourre sampling player's play/pass and discards by sampling (docs/methods/sampling.md, "The sampling player for
Bourre", decide): whole deals per second on one thread, every seat pimc, 5 players, fresh deals through the
duplicate kernel with one entrant (as ``tricksim bench --solver`` times its pimc case), for decide = 0, the
default (1) and 2; the best of 3 rounds of 400 deals.

    .venv/bin/python scripts/pimc_decide_cost.py
"""
import time

import numba
import numpy as np

from tricksim.analysis import bourre as B
from tricksim.kernels import bourre as K

PLAYERS, DEALS, ROUNDS = 5, 400, 3


def main():
    numba.set_num_threads(1)
    rules = B.BourreRules()
    ra = B.rules_array(rules)
    kd, kc = B.GAME.keys(0)
    ids = np.zeros((1, PLAYERS), np.int64)
    for spec in ["pimc:decide=0", "pimc", "pimc:decide=2"]:
        codes, prm = B.heuristic_arrays(B.parse_seats(spec, PLAYERS))

        def run(first, n):
            K.sim_duplicate(kd, kc, first, n, PLAYERS, codes[None, :].copy(), prm[None, :, :].copy(), ids,
                            np.zeros((0, K.EV_LEN)), 1, 1, 0, ra, True)
        run(0, 4)                     # compiled (or loaded) before the clock starts
        best = float("inf")
        for r in range(ROUNDS):
            t = time.perf_counter()
            run(1000 + r * DEALS, DEALS)
            best = min(best, time.perf_counter() - t)
        print(f"{spec}: {DEALS / best:.0f} whole deals per second on one thread (best of {ROUNDS} rounds of {DEALS})")


if __name__ == "__main__":
    main()
