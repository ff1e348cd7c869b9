"""Boulmous batch entry points over independent deals: ``sim_deals`` (the counts of a block) and
``trace_deals`` (the records, exactly as ``sim_deals`` plays them)."""
import numpy as np
from numba import njit, prange

from ..layout import Layout
from ..rng import seed_state
from .play import (AUCTION, HEURISTIC_TRUMP, NO_BID, NOBODY, PS_DEAL, PS_STATS, deal_random, i64, no_game,
                   pimc_scratch, play_deal)
from .rules import R_LEFT_BOWER_TRUMP, REC_CONTRACT, REC_LEN, REC_SCORE, REC_TAKER, REC_TRUMP, REC_WON
from ..tally import sum_rows

# ============================================================================
# batch entry points
# ============================================================================
CHUNK = 2048

# sim_deals counts: per taker position 0..3 (from the dealer's left), contract 3..6, trump 0..4 and taker tricks
# 0..6 the deals; the all-pass deals; per seat position the sum of its points and of their squares
DEALS = Layout(("cells", (4, 4, 5, 7)), ("all_pass", 1), ("score_sum", 4), ("score_sq", 4))
D_CELLS, D_ALL_PASS, D_SCORE_SUM, D_SCORE_SQ = DEALS.offsets()
AGG_DEALS = DEALS.size


@njit(cache=True, nogil=True, parallel=True)
def sim_deals(key_deal, key_dec, first, n, rules, hcodes, hparams):
    """Random deals with the auction; dealer = hand_index % 4. Returns int64[AGG_DEALS]."""
    lb = rules[R_LEFT_BOWER_TRUMP]
    nch = (n + CHUNK - 1) // CHUNK
    part = np.zeros((nch, AGG_DEALS), np.int64)
    for ch in prange(nch):
        st = np.zeros(1, np.uint64)
        sd = np.zeros(1, np.uint64)
        deck = np.zeros(24, np.int64)
        hands = np.zeros(4, np.uint64)
        work = np.zeros(4, np.uint64)
        rec = np.zeros(REC_LEN, np.int64)
        nogame = no_game()
        acc = part[ch]
        for i in range(ch * CHUNK, min(n, (ch + 1) * CHUNK)):
            idx = first + i
            seed_state(sd, key_deal, idx)
            seed_state(st, key_dec, idx)
            deal_random(sd, deck, hands)
            dealer = idx % 4
            play_deal(hands, work, dealer, i64(AUCTION), i64(NO_BID), i64(HEURISTIC_TRUMP), i64(NOBODY), rules, hcodes, hparams, st, lb, rec,
                      nogame)
            taker = rec[REC_TAKER]
            if taker < 0:
                acc[D_ALL_PASS] += 1
            else:
                pos = (taker - dealer - 1) % 4
                j = ((pos * 4 + rec[REC_CONTRACT] - 3) * 5 + rec[REC_TRUMP]) * 7 + rec[REC_WON + taker]
                acc[D_CELLS + j] += 1
            for s in range(4):
                pos = (s - dealer - 1) % 4
                sc = rec[REC_SCORE + s]
                acc[D_SCORE_SUM + pos] += sc
                acc[D_SCORE_SQ + pos] += sc * sc
    return sum_rows(part)


@njit(cache=True, nogil=True)
def trace_deals(key_deal, key_dec, first, n, rules, hcodes, hparams, pimc=None, stats=None):
    """The records of hands first..first+n-1 exactly as ``sim_deals`` plays them.  ``pimc``: the sampling
    player's random key when a seat is ``H_PIMC`` (its deal index: the hand's), None (omitted) otherwise; then
    ``stats`` (int64[pimc.N_STATS], optional) receives the sampling player's counters over the deals (added)."""
    lb = rules[R_LEFT_BOWER_TRUMP]
    if pimc is not None:
        pm = pimc_scratch(pimc)
    out = np.zeros((n, REC_LEN), np.int64)
    st = np.zeros(1, np.uint64)
    sd = np.zeros(1, np.uint64)
    deck = np.zeros(24, np.int64)
    hands = np.zeros(4, np.uint64)
    work = np.zeros(4, np.uint64)
    nogame = no_game()
    for i in range(n):
        idx = first + i
        seed_state(sd, key_deal, idx)
        seed_state(st, key_dec, idx)
        deal_random(sd, deck, hands)
        if pimc is None:
            play_deal(hands, work, idx % 4, i64(AUCTION), i64(NO_BID), i64(HEURISTIC_TRUMP), i64(NOBODY), rules, hcodes,
                      hparams, st, lb, out[i], nogame)
        else:
            pm[PS_DEAL][0] = idx
            play_deal(hands, work, idx % 4, i64(AUCTION), i64(NO_BID), i64(HEURISTIC_TRUMP), i64(NOBODY), rules, hcodes,
                      hparams, st, lb, out[i], nogame, None, pm)
    if pimc is not None and stats is not None:
        for j in range(stats.shape[0]):
            stats[j] += pm[PS_STATS][j]
    return out
