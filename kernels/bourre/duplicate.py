"""Bourre duplicate comparison: the seatings of a balanced design played on the same deal."""
import numpy as np
from numba import njit, prange

from ..cards import U0
from ..rng import seed_state
from ..tally import add_outer, add_sum_outer, block_offsets, rounds_offsets, sum_rows
from .draw import deal_fresh
from .play import play_dealt, refuse_ev_without_table, refuse_pimc_seats
from .players import H_PIMC
from .rules import (IW_LEN, MAXP, NO_SEAT, R_ANTE, R_DEALER_ANTES_ALL, REC_ANTE2, REC_BPAID, REC_LEN, REC_POT_WON,
                    UW_LEN)


# ============================================================================
# duplicate comparison: the seatings of a balanced design on the same deal
# ============================================================================
@njit(cache=True, nogil=True, parallel=True)
def sim_duplicate(key_deal, key_dec, first, nd, players, seat_codes, seat_params, seat_ids, evt, k, nround, pot0,
                  rules, pimc=None):
    """Deal idx (dealer players-1, a fresh deal: pot0 carried over, everyone antes) is played
    once per seating of round c = idx % nround (rows c*k .. c*k+k-1 of ``seat_ids``,
    ``seat_codes``, ``seat_params``: entrant, heuristic code and parameters of each seat;
    a round puts every entrant in every seat once, analysis/compare.py ``design``); every
    playout gets the same cards and draws and its own decision stream (so two random
    entrants are independent draws of the same player).  Returns kernels/tally.py
    ``rounds_layout(k, nround, ("chips",))``: the deals of each round n_c, then per round S_c[h] =
    sum_d X_h(d), Q_c[a, b] = sum_d X_a(d) X_b(d), P_c[a, b] = sum_d sum_r Y_a(d, r)
    Y_b(d, r), then M[r, h] = sum_d Y_h(d, r), where Y_h(d, r) = chips (score_delta) of
    entrant h's seats in playout r and X_h = sum_r Y_h.  ``evt`` the ev tables, entrant h's row h (None when no
    entrant is ev: the kernel compiles without ev): a seat reads its entrant's.  ``pimc`` True when an entrant is the sampling player;
    None (omitted): none is, and the kernel is compiled without it (play_dealt's ``pimc``)."""
    refuse_ev_without_table(seat_codes, evt)
    if pimc is None:
        refuse_pimc_seats(seat_codes)
    o_deals, o_metric, metric_size, o_blocks, o_m = rounds_offsets(k, nround)
    b_s, b_q, b_p, block_size = block_offsets(k)
    m0 = o_metric + o_m                   # M of the one metric, chips
    width = o_metric + metric_size
    CH = 512
    for r in range(seat_codes.shape[0]):
        for s in range(players):
            if seat_codes[r, s] == H_PIMC:
                CH = 4           # a sampling seat: small chunks balance the threads (integer sums: same result)
    nch = (nd + CH - 1) // CH
    part = np.zeros((nch, width), np.int64)
    dealer = players - 1
    ante = rules[R_ANTE]
    allm = (1 << players) - 1
    for ch in prange(nch):
        hands = np.zeros(MAXP, np.uint64)
        pool = np.zeros(52, np.int64)
        sd = np.zeros(1, np.uint64)
        st = np.zeros(1, np.uint64)
        uw = np.zeros(UW_LEN, np.uint64)
        iw = np.zeros(IW_LEN, np.int64)
        rec = np.zeros(REC_LEN, np.int64)
        X = np.zeros(k, np.int64)
        Y = np.zeros(k, np.int64)
        acc = part[ch]
        for i in range(ch * CH, min(nd, (ch + 1) * CH)):
            idx = first + i
            c = idx % nround
            acc[o_deals + c] += 1
            o = o_metric + o_blocks + c * block_size     # the block of round c
            for h in range(k):
                X[h] = 0
            for j in range(k):
                r = c * k + j
                hc = seat_codes[r]          # views (no copy)
                hp = seat_params[r]
                seed_state(sd, key_deal, idx)
                seed_state(st, key_dec, idx)
                seed_state(st, st[0], j)
                upcard, m = deal_fresh(sd, players, dealer, allm, hands, pool, rules, iw)
                pot = pot0 + ante * players
                play_dealt(sd, st, players, dealer, allm, pot, upcard, m, ante, rules, hc, hp, evt, seat_ids[r], hands,
                           pool, rec, NO_SEAT, NO_SEAT, U0, uw, iw, pimc)
                for h in range(k):
                    Y[h] = 0
                for s in range(players):
                    paid = ante
                    if rules[R_DEALER_ANTES_ALL] != 0:
                        paid = ante * players if s == dealer else 0
                    Y[seat_ids[r, s]] += rec[REC_POT_WON + s] - paid - rec[REC_ANTE2 + s] - rec[REC_BPAID + s]
                for a in range(k):
                    X[a] += Y[a]
                    acc[m0 + r * k + a] += Y[a]
                add_outer(acc, o + b_p, Y, k)             # per playout (P of the block)
            add_sum_outer(acc, o + b_s, o + b_q, X, k)    # per deal (S and Q of the block)
    return sum_rows(part)
