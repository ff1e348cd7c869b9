"""Boulmous duplicate comparison: the seatings of a balanced design played on the same deal."""
import numpy as np
from numba import njit, prange

from ..rng import seed_state
from ..tally import add_outer, add_sum_outer, block_offsets, rounds_offsets, sum_rows
from .deals import CHUNK
from .play import (AUCTION, HEURISTIC_TRUMP, NO_BID, NOBODY, PS_DEAL, deal_random, i64, no_game, pimc_scratch,
                   play_deal)
from .rules import R_LEFT_BOWER_TRUMP, REC_LEN, REC_SCORE, REC_STAKES

PCHUNK = 4   # deals per prange step with a sampling seat (a PIMC deal costs ~10 ms: small steps balance the threads)


# sim_duplicate aggregate (analysis/compare/design.py ``design``): the seatings ``seat_ids`` come in
# ``nround`` rounds of k rows; round c = rows c*k .. c*k+k-1 puts every entrant in every seat
# once.  Deal idx plays the k seatings of round c = (idx // 4) % nround on the same cards
# (dealer idx % 4, so every round meets every dealer equally often).  Layout: kernels/tally.py
# ``rounds_layout(k, nround, ("points", "stakes"))``: the deals of each round, then per metric its
# blocks S_c, Q_c, P_c (one per round c), then M.
# X_h(d) = sum over the deal's k playouts and seats s with seat_ids[r, s] == h of the metric;
# Y_h(d, r) = the same sum for one playout r; S_c = sum_d X_h, Q_c[a, b] = sum_d X_a X_b,
# P_c[a, b] = sum_{d, r} Y_a Y_b over the deals of round c, M[r, h] = sum_d Y_h(d, r)
# (P and M measure what a design without replays, one playout per deal, would face).
@njit(cache=True, nogil=True, parallel=True)
def sim_duplicate(key_deal, key_dec, first, n, rules, seat_codes, seat_params, seat_ids, k, nround, pimc=None):
    """Duplicate tournament: every deal is replayed once per seating of its round (row of
    ``seat_codes``/``seat_params``/``seat_ids`` = heuristic code, parameters and entrant
    of each seat) with the same cards; playout j of deal idx draws its decisions from
    ``seed_state(seed_state(key_dec, idx), j)``.  ``pimc``: the sampling player's random key when a seat is
    ``H_PIMC`` (playout j of deal idx: its deal index ``idx * 4 + j``), None (omitted) otherwise."""
    lb = rules[R_LEFT_BOWER_TRUMP]
    o_deals, o_metric, metric_size, o_blocks, o_m = rounds_offsets(k, nround)
    b_s, b_q, b_p, block_size = block_offsets(k)
    width = o_metric + 2 * metric_size                # two metrics: points, then stakes
    chunk = CHUNK
    if pimc is not None:
        chunk = PCHUNK
    nch = (n + chunk - 1) // chunk
    part = np.zeros((nch, width), np.int64)
    for ch in prange(nch):
        if pimc is not None:
            pm = pimc_scratch(pimc)
        st = np.zeros(1, np.uint64)
        sd = np.zeros(1, np.uint64)
        deck = np.zeros(24, np.int64)
        hands = np.zeros(4, np.uint64)
        work = np.zeros(4, np.uint64)
        rec = np.zeros(REC_LEN, np.int64)
        nogame = no_game()
        xp = np.zeros(k, np.int64)
        xs = np.zeros(k, np.int64)
        yp = np.zeros(k, np.int64)
        ys = np.zeros(k, np.int64)
        acc = part[ch]
        for i in range(ch * chunk, min(n, (ch + 1) * chunk)):
            idx = first + i
            seed_state(sd, key_deal, idx)
            deal_random(sd, deck, hands)
            dealer = idx % 4
            c = (idx // 4) % nround
            acc[o_deals + c] += 1
            o0 = o_metric + o_blocks + c * block_size   # points block of round c
            o1 = o0 + metric_size                       # stakes block of round c
            m0 = o_metric + o_m                         # points M
            m1 = m0 + metric_size                       # stakes M
            xp[:] = 0
            xs[:] = 0
            for j in range(k):
                r = c * k + j
                # the same cards for every seating; a fresh decision stream per playout, so
                # that two random heuristics are independent draws of the same player
                seed_state(st, key_dec, idx)
                seed_state(st, st[0], j)
                if pimc is None:
                    play_deal(hands, work, dealer, i64(AUCTION), i64(NO_BID), i64(HEURISTIC_TRUMP), i64(NOBODY), rules,
                              seat_codes[r], seat_params[r], st, lb, rec, nogame)
                else:
                    pm[PS_DEAL][0] = idx * 4 + j
                    play_deal(hands, work, dealer, i64(AUCTION), i64(NO_BID), i64(HEURISTIC_TRUMP), i64(NOBODY), rules,
                              seat_codes[r], seat_params[r], st, lb, rec, nogame, None, pm)
                yp[:] = 0
                ys[:] = 0
                for s in range(4):
                    h = seat_ids[r, s]
                    yp[h] += rec[REC_SCORE + s]
                    ys[h] += rec[REC_STAKES + s]
                for a in range(k):
                    xp[a] += yp[a]
                    xs[a] += ys[a]
                    acc[m0 + r * k + a] += yp[a]
                    acc[m1 + r * k + a] += ys[a]
                add_outer(acc, o0 + b_p, yp, k)   # per playout (P of the block)
                add_outer(acc, o1 + b_p, ys, k)
            add_sum_outer(acc, o0 + b_s, o0 + b_q, xp, k)   # per deal (S and Q of the block)
            add_sum_outer(acc, o1 + b_s, o1 + b_q, xs, k)
    return sum_rows(part)
