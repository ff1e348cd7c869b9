"""Per-playout efficiency of two balanced duplicate designs for 3 Boulmous
entrants: (A) rounds of 3 seatings per deal (the design used), (B) all 6 seatings per deal.
Efficiency = variance of a no-replay design with the same number of playouts / variance of
the design, for the points difference of each pair.  Deal i is dealt as in the compare kernel (dealer i % 4); design A plays round
i % 2 on it, B both rounds.  Usage (docs/methods/duplicate.md):

    .venv/bin/python scripts/compare_designs.py 400000 2026
"""
import sys
import numpy as np
from numba import njit, prange

from tricksim.kernels import boulmous as K
from tricksim.kernels.rng import seed_state, derive_key, GAME_BOULMOUS, STREAM_DEAL, STREAM_DECIDE
from tricksim.analysis.boulmous import heuristic_arrays, parse_entrants, rules_array, BoulmousRules
from tricksim.analysis.compare import design


@njit(parallel=True)
def play_all(kd, kc, n, rules, codes, prm, ids, k):
    m = ids.shape[0]
    Y = np.zeros((n, m, k), np.float64)     # per deal, per seating: each entrant's points (sum over its seats)
    lb = rules[K.R_LEFT_BOWER_TRUMP]
    for i in prange(n):
        st = np.zeros(1, np.uint64)
        sd = np.zeros(1, np.uint64)
        deck = np.zeros(24, np.int64)
        hands = np.zeros(4, np.uint64)
        work = np.zeros(4, np.uint64)
        rec = np.zeros(K.REC_LEN, np.int64)
        hc = np.empty(4, np.int64)
        hp = np.empty((4, prm.shape[1]))
        seed_state(sd, kd, i)
        K.deal_random(sd, deck, hands)
        for r in range(m):
            seed_state(st, kc, i)
            seed_state(st, st[0], r)
            for s in range(4):
                hc[s] = codes[ids[r, s]]
                hp[s] = prm[ids[r, s]]
            K.play_deal(hands, work, i % 4, -1, 0, -1, -1, rules, hc, hp, st, lb, rec, K.NO_GAME)
            for s in range(4):
                Y[i, r, ids[r, s]] += rec[K.REC_SCORE + s]
    return Y


def main(n, seed):
    specs = parse_entrants(["aggressive", "cautious", "random"])
    codes, prm = heuristic_arrays(specs)
    ids, R = design(3, 4)                     # 6 seatings, rounds rows 0-2 and 3-5
    Y = play_all(derive_key(seed, GAME_BOULMOUS, STREAM_DEAL), derive_key(seed, GAME_BOULMOUS, STREAM_DECIDE),
                 n, rules_array(BoulmousRules()), codes, prm, ids, 3)
    u = 4.0                                   # seats per round per entrant
    names = [s.label for s in specs]
    for a, b in ((1, 0), (1, 2), (0, 2)):
        # no replays: one playout per fresh deal, seatings in turn (stratified): per-playout variance
        Z = Y[:, :, a] / (u / 3) - Y[:, :, b] / (u / 3)
        wbar = Z.var(axis=0, ddof=1).mean()
        # (A) rounds: deal d plays round d % 2 (3 playouts); stratified by round
        half = n // 2
        DA = [(Y[c::2, 3 * c:3 * c + 3, a].sum(1) - Y[c::2, 3 * c:3 * c + 3, b].sum(1)) / u for c in range(2)]
        varA = sum(d.var(ddof=1) / len(d) for d in DA) / 4          # with n deals, 3n playouts
        # (B) all six per deal (6 playouts), two rounds averaged
        DB = (Y[:, :, a].sum(1) - Y[:, :, b].sum(1)) / (2 * u)
        varB = DB[:half].var(ddof=1) / half                           # n/2 deals = 3n playouts, same compute as A
        alt = wbar / (3 * n)                                          # no replays, 3n playouts
        print(f"{names[a]} - {names[b]}: per-playout gain (A) rounds of 3: {alt / varA:.2f}x, "
              f"(B) all 6 per deal: {alt / varB:.2f}x")


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]))
