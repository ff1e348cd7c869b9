"""Boomke Wies odds of one hand: ``sim_odds`` (every contract and position) and ``odds_tricks``."""
import numpy as np
from numba import njit, prange

from ..cards import U0, U1
from ..deal import deal_with_fixed
from ..layout import Layout
from ..rng import seed_state
from .deals import CHUNK
from .play import play_deal, refuse_pimc_seats
from .rules import (AUCTION, DECK, HEURISTIC_TRUMP, MEETJE, MEETJE_NAMES_ELDEST_LEADS, NO_BID, NOBODY, R_MEETJE_TRUMP,
                    REC_DECL, REC_LEN, REC_SCORE, REC_TEAM, SM, i64, low)

# sim_odds aggregate, the hand at seat 0:
#   [open suit 0..3][team tricks 0..13]            forced declarer, contract 7 (56)
#   [named suit 0..3][team tricks 0..13]           Meetje, dealer names, eldest leads (56)
#   per position p 0..3 (dealer = 3 - p), ODDS_POS_LEN = 60 counts:
#     pass: [team points -7..5] (13), [net points -10..5] (16);
#     heuristic: [team points] (13), [net points] (16);
#     heuristic: the hand declares, its partner declares (2)
ODDS = Layout(("declarer", (4, 14)), ("meetje", (4, 14)), ("positions", 4 * 60))
ODDS_DECLARER, ODDS_MEETJE, ODDS_POS = ODDS.offsets()
AGG_ODDS = ODDS.size
# one position's counts, from ODDS_POS + p * ODDS_POS_LEN
ODDS_POSITION = Layout(("pass_points", 13), ("pass_net", 16), ("heur_points", 13), ("heur_net", 16),
                       ("declares", 1), ("partner_declares", 1))
OP_PASS_POINTS, OP_PASS_NET, OP_HEUR_POINTS, OP_HEUR_NET, OP_DECLARES, OP_PARTNER_DECLARES = ODDS_POSITION.offsets()
ODDS_POS_LEN = ODDS_POSITION.size
assert ODDS.length("positions") == 4 * ODDS_POS_LEN


@njit(cache=True, nogil=True, parallel=True)
def sim_odds(key_deal, key_dec, first, n, fixed, positions, rules, hcodes, hparams):
    """Monte Carlo odds of one hand (seat 0) over random deals of the other 39 cards:
    every opening suit it holds as a forced declarer; Meetje under the eldest-leads
    variant; and per position in ``positions`` the auction in which it passes and the
    auction in which it bids by its heuristic."""
    nch = (n + CHUNK - 1) // CHUNK
    part = np.zeros((nch, AGG_ODDS), np.int64)
    rest0 = np.zeros(39, np.int64)
    k = 0
    m = DECK & ~fixed
    while m != U0:
        rest0[k] = low(m)
        m &= m - U1
        k += 1
    for ch in prange(nch):
        st = np.zeros(1, np.uint64)
        sd = np.zeros(1, np.uint64)
        rest = np.zeros(39, np.int64)
        hands = np.zeros(4, np.uint64)
        h = np.zeros(4, np.uint64)
        rec = np.zeros(REC_LEN, np.int64)
        acc = part[ch]
        for i in range(ch * CHUNK, min(n, (ch + 1) * CHUNK)):
            idx = first + i
            seed_state(sd, key_deal, idx)
            for j in range(39):
                rest[j] = rest0[j]
            deal_with_fixed(sd, rest, fixed, 0, hands, i64(13))
            odds_one(hands, fixed, positions, rules, hcodes, hparams, st, key_dec, idx, rec, h, acc)
    out = np.zeros(AGG_ODDS, np.int64)
    for ch in range(nch):
        out += part[ch]
    return out


@njit(cache=True, nogil=True, _nrt=False)
def odds_one(hands, fixed, positions, rules, hcodes, hparams, st, key_dec, idx, rec, h, acc):
    for s in range(4):
        if (fixed & SM[s]) == U0:
            continue
        seed_state(st, key_dec, idx)
        play_deal(hands, i64(3), i64(0), i64(7), s, i64(NOBODY), rules, hcodes, hparams, st, rec, h)
        acc[ODDS_DECLARER + s * 14 + rec[REC_TEAM]] += 1
        if rules[R_MEETJE_TRUMP] == MEETJE_NAMES_ELDEST_LEADS and positions[3]:
            seed_state(st, key_dec, idx)
            play_deal(hands, i64(0), i64(0), i64(MEETJE), s, i64(NOBODY), rules, hcodes, hparams, st, rec, h)
            acc[ODDS_MEETJE + s * 14 + rec[REC_TEAM]] += 1
    for p in range(4):
        if not positions[p]:
            continue
        dealer = (3 - p) & 3
        base = ODDS_POS + p * ODDS_POS_LEN
        seed_state(st, key_dec, idx)
        play_deal(hands, dealer, i64(AUCTION), i64(NO_BID), i64(HEURISTIC_TRUMP), i64(0), rules, hcodes, hparams, st, rec, h)
        acc[base + OP_PASS_POINTS + 7 + rec[REC_SCORE]] += 1
        acc[base + OP_PASS_NET + 10 + rec[REC_SCORE] - rec[REC_SCORE + 1]] += 1
        seed_state(st, key_dec, idx)
        play_deal(hands, dealer, i64(AUCTION), i64(NO_BID), i64(HEURISTIC_TRUMP), i64(NOBODY), rules, hcodes, hparams, st, rec, h)
        acc[base + OP_HEUR_POINTS + 7 + rec[REC_SCORE]] += 1
        acc[base + OP_HEUR_NET + 10 + rec[REC_SCORE] - rec[REC_SCORE + 1]] += 1
        if rec[REC_DECL] == 0:
            acc[base + OP_DECLARES] += 1
        elif rec[REC_DECL] == 2:
            acc[base + OP_PARTNER_DECLARES] += 1


@njit(cache=True, nogil=True)
def odds_tricks(key_deal, key_dec, first, n, fixed, rules, hcodes, hparams, pimc=None):
    """Deals ``first..first+n-1`` of ``sim_odds``: the four hands (int64 view of the
    masks) and the team's tricks for every opening suit (-1 when the hand is void).
    ``pimc``: the sampling player's workspace when a seat is H_PIMC (None: none is)."""
    if pimc is None:
        refuse_pimc_seats(hcodes)
    hs = np.zeros((n, 4), np.int64)
    tk = np.full((n, 4), -1, np.int64)
    rest0 = np.zeros(39, np.int64)
    k = 0
    m = DECK & ~fixed
    while m != U0:
        rest0[k] = low(m)
        m &= m - U1
        k += 1
    st = np.zeros(1, np.uint64)
    sd = np.zeros(1, np.uint64)
    rest = np.zeros(39, np.int64)
    hands = np.zeros(4, np.uint64)
    h = np.zeros(4, np.uint64)
    rec = np.zeros(REC_LEN, np.int64)
    for i in range(n):
        idx = first + i
        seed_state(sd, key_deal, idx)
        for j in range(39):
            rest[j] = rest0[j]
        deal_with_fixed(sd, rest, fixed, 0, hands, i64(13))
        for s in range(4):
            hs[i, s] = np.int64(hands[s])
            if (fixed & SM[s]) == U0:
                continue
            seed_state(st, key_dec, idx)
            if pimc is None:
                play_deal(hands, i64(3), i64(0), i64(7), s, i64(NOBODY), rules, hcodes, hparams, st, rec, h)
            else:
                play_deal(hands, i64(3), i64(0), i64(7), s, i64(NOBODY), rules, hcodes, hparams, st, rec, h, pimc)
            tk[i, s] = rec[REC_TEAM]
    return hs, tk
