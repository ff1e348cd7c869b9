"""Boomke Wies batch entry points over independent deals: ``sim_deals``, ``sim_classes`` (by hand class) and
``trace_deals`` (the records, exactly as ``sim_deals`` plays them)."""
import numpy as np
from numba import njit, prange

from ..layout import Layout
from ..rng import seed_state, shuffle
from .play import deal_from_deck, deal_scratch, fresh_deck, full_hand, play_deal, refuse_pimc_seats
from .rules import (ACES, HEURISTIC_TRUMP, JACKS, KINGS, MEETJE, NOBODY, PACKETS_445, QUEENS, R_VARIANT, REC_CONTRACT,
                    REC_DECL, REC_LEN, REC_MADE, REC_SCORE, REC_TEAM, SM, VARIANT_NO_AUCTION, i64, pop)

# ============================================================================
# batch entry points
# ============================================================================
CHUNK = 8192


@njit(cache=True, nogil=True, _nrt=False)
def hand_class(hand):
    """(longest suit length, high-card points 4-3-2-1)."""
    longest = 0
    for s in range(4):
        n = pop(hand & SM[s])
        if n > longest:
            longest = n
    hcp = 4 * pop(hand & ACES) + 3 * pop(hand & KINGS) + 2 * pop(hand & QUEENS) + pop(hand & JACKS)
    return longest, hcp


# sim_deals aggregate (int64 vector):
#   A [contract class 0..7 = 7..13, Meetje][declarer position 0..3][declaring-team tricks 0..13]
#   B [contract class][declarer's longest suit 4..13 -> 0..9][declarer's HCP 0..37][made 0/1]
#   C per position from the dealer's left (4): sum of points, sum of squared points
#   D no-auction: [team-0 tricks 0..13]
N_CC = 8
DEALS = Layout(("by_contract", (N_CC, 4, 14)), ("by_class", (N_CC, 10, 38, 2)), ("score_sum", 4), ("score_sq", 4),
               ("no_auction", 14))
OFF_A, OFF_B, OFF_C, OFF_C_SQ, OFF_D = DEALS.offsets()
AGG_A, AGG_B = DEALS.length("by_contract"), DEALS.length("by_class")
AGG_DEALS = DEALS.size


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def contract_class(contract):
    return 7 if contract == MEETJE else contract - 7


@njit(cache=True, nogil=True, parallel=True)
def sim_deals(key_deal, key_dec, first, n, rules, hcodes, hparams):
    """Random deals with the auction; dealer = hand_index % 4. Returns int64[AGG_DEALS]."""
    nch = (n + CHUNK - 1) // CHUNK
    part = np.zeros((nch, AGG_DEALS), np.int64)
    for ch in prange(nch):
        st, sd, deck, pile, hands, h = deal_scratch()
        rec = np.zeros(REC_LEN, np.int64)
        prev = np.zeros(REC_LEN, np.int64)
        acc = part[ch]
        for i in range(ch * CHUNK, min(n, (ch + 1) * CHUNK)):
            idx = first + i
            seed_state(sd, key_deal, idx)
            seed_state(st, key_dec, idx)
            dealer = idx & 3
            full_hand(sd, st, dealer, rules, hcodes, hparams, deck, pile, hands, h, rec, prev)
            if rules[R_VARIANT] == VARIANT_NO_AUCTION:
                acc[OFF_D + rec[REC_TEAM]] += 1
            else:
                decl = rec[REC_DECL]
                cc = contract_class(rec[REC_CONTRACT])
                pos = (decl - dealer - 1) & 3
                T = rec[REC_TEAM + (decl & 1)]
                acc[OFF_A + (cc * 4 + pos) * 14 + T] += 1
                lg, hcp = hand_class(hands[decl])
                acc[OFF_B + ((cc * 10 + lg - 4) * 38 + hcp) * 2 + rec[REC_MADE]] += 1
            for s in range(4):
                pos = (s - dealer - 1) & 3
                sc = rec[REC_SCORE + s]
                acc[OFF_C + pos] += sc
                acc[OFF_C_SQ + pos] += sc * sc
    out = np.zeros(AGG_DEALS, np.int64)
    for ch in range(nch):
        out += part[ch]
    return out


# sim_classes aggregate: the declaring team's tricks 0..13 by the first speaker's hand class (longest suit 4..13 ->
# 0..9, high-card points 0..37)
CLASSES = Layout(("tricks", (10, 38, 14)),)
CL_TRICKS, = CLASSES.offsets()
AGG_CLASSES = CLASSES.size


@njit(cache=True, nogil=True, parallel=True)
def sim_classes(key_deal, key_dec, first, n, rules, hcodes, hparams):
    """Random deals; the first to speak (seat 0, dealer 3) is made declarer and opens the
    suit its heuristic prefers; counts its team's tricks by its hand class: the field of ``CLASSES``."""
    nch = (n + CHUNK - 1) // CHUNK
    part = np.zeros((nch, AGG_CLASSES), np.int64)
    for ch in prange(nch):
        st, sd, deck, _, hands, h = deal_scratch()
        rec = np.zeros(REC_LEN, np.int64)
        acc = part[ch]
        for i in range(ch * CHUNK, min(n, (ch + 1) * CHUNK)):
            idx = first + i
            seed_state(sd, key_deal, idx)
            seed_state(st, key_dec, idx)
            fresh_deck(deck)
            shuffle(sd, deck, 52)
            deal_from_deck(deck, 3, PACKETS_445, hands)
            play_deal(hands, i64(3), i64(0), i64(7), i64(HEURISTIC_TRUMP), i64(NOBODY), rules, hcodes, hparams, st, rec, h)
            lg, hcp = hand_class(hands[0])
            acc[CL_TRICKS + ((lg - 4) * 38 + hcp) * 14 + rec[REC_TEAM]] += 1
    out = np.zeros(AGG_CLASSES, np.int64)
    for ch in range(nch):
        out += part[ch]
    return out


@njit(cache=True, nogil=True)
def trace_deals(key_deal, key_dec, first, n, rules, hcodes, hparams, pimc=None, xo=None):
    """The records of hands first..first+n-1 exactly as ``sim_deals`` plays them. ``pimc``: the sampling
    player's workspace (kernels/boomke_wies/pimc.py ``workspace()``, its counters add up the decisions) when a
    seat is H_PIMC; None (omitted): no seat is, and the kernel is compiled without the player. ``xo`` (``trace
    --explain``, with ``pimc``): int64[n, X_ROWS, X_LEN] zeros, filled at each decision of a sampling seat with
    the row of its candidates and their values (kernels/explain.py; a card at row i of the deal's cards, call i at
    ``X_CALL_ROW + i``: kernels/boomke_wies/pimc.py); None (omitted): numba prunes its branch and the kernel is
    compiled without the reasons."""
    if pimc is None:
        refuse_pimc_seats(hcodes)
    out = np.zeros((n, REC_LEN), np.int64)
    st, sd, deck, pile, hands, h = deal_scratch()
    prev = np.zeros(REC_LEN, np.int64)
    for i in range(n):
        idx = first + i
        seed_state(sd, key_deal, idx)
        seed_state(st, key_dec, idx)
        if xo is None:
            full_hand(sd, st, idx & 3, rules, hcodes, hparams, deck, pile, hands, h, out[i], prev, pimc)
        else:
            full_hand(sd, st, idx & 3, rules, hcodes, hparams, deck, pile, hands, h, out[i], prev, pimc, xo[i])
    return out
