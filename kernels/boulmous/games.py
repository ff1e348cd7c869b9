"""Whole Boulmous games (rule 17, to the target): ``play_game`` from any start state (scores, dealer),
score-aware bidding's thresholds, the settlement, ``sim_games`` and ``trace_game``."""
import numpy as np
from numba import njit, prange

from ..layout import Layout
from ..rng import seed_state
from .play import AUCTION, HEURISTIC_TRUMP, NO_BID, NOBODY, deal_random, i64, no_game, play_deal
from .players import P_SCORE_AWARE, SA_FLOOR, SA_NBINS
from .rules import (R_FAILED_B_IS_BOX, R_LEFT_BOWER_TRUMP, R_TARGET, R_TIE_BREAK, R_WINNER_PAYS_OWN, REC_CONTRACT,
                    REC_LEN, REC_MADE, REC_SCORE, REC_STAKES, REC_TAKER, TIE_PLAY_ON, TIE_TAKER)
from ..tally import sum_rows

# sim_games counts: per seat the sum of its stakes, its games won, the sum of its squared stakes; the deals
# played, the games abandoned (MAX_DEALS_PER_GAME deals without a winner); per seat the boxes it made
GAMES = Layout(("stakes", 4), ("wins", 4), ("stakes_sq", 4), ("deals", 1), ("abandoned", 1), ("boxes", 4))
G_STAKES, G_WINS, G_STAKES_SQ, G_DEALS, G_ABANDONED, G_BOXES = GAMES.offsets()
AGG_GAMES = GAMES.size
MAX_DEALS_PER_GAME = 1000
LOG_SCORES = REC_LEN
LOG_BOXES = REC_LEN + 4
LOG_STAKES = REC_LEN + 8
LOG_WINNERS = REC_LEN + 12
LOG_W = REC_LEN + 13


@njit(cache=True, nogil=True, _nrt=False)
def sa_thresholds(pstar, cal, scores, dealer, s, target, sab):
    """Score-aware bidding (analysis/boulmous/equity/saware.py): write into ``sab[s, b - 3]`` (int64[4, 4]) the lowest
    estimate bin whose chance of making ``b`` (``cal`` float64[SA_NBINS, 4], non-decreasing in the bin, the
    seat's calibration) reaches the success probability ``pstar`` asks of bid ``b`` at the game's scores and
    dealer (``pstar`` float32[L^4, 4, 4]: canonical state of the equity table, the seat relative to the dealer,
    the bid; scores outside the table's grid count as its floor or ceiling)."""
    L = target + 5 - SA_FLOOR + 1
    idx = 0
    for r in range(4):
        v = scores[(dealer + 1 + r) % 4]
        if v < SA_FLOOR:
            v = SA_FLOOR
        elif v > target + 5:
            v = target + 5
        idx = idx * L + v - SA_FLOOR
    rel = (s - dealer + 3) % 4
    for b in range(4):
        p = np.float64(pstar[idx, rel, b])
        lo = 0
        hi = SA_NBINS
        while lo < hi:
            mid = (lo + hi) // 2
            if cal[mid, b] >= p:
                hi = mid
            else:
                lo = mid + 1
        sab[s, b] = lo


@njit(cache=True, nogil=True, _nrt=False)
def play_game(sd, st, rules, hcodes, hparams, lb, rec, deck, hands, work,
              out_stakes, out_boxes, scores, boxes, log, do_log, start, dealer0, pstar, cal, sab):
    """Rules 17-18: deals from the scores ``start`` (int64[4]) with ``dealer0`` dealing first, no box made
    yet, until a winner; returns (winner mask bits, deals played), winner mask 0 when abandoned after
    MAX_DEALS_PER_GAME deals. ``scores`` and ``boxes`` (int64[4]) are scratch. With ``do_log`` row j of
    ``log`` (int64[MAX_DEALS_PER_GAME, LOG_W]) receives deal j's record followed by the scores, boxes and
    stakes after it and the winner mask (LOG_* offsets).  Score-aware seats (``P_SCORE_AWARE``): before
    each deal their bid bins are written into ``sab`` (scratch, int64[4, 4], which the auction reads) from ``pstar`` (float32[2, L^4, 4, 4]: criterion ``P_SCORE_AWARE`` - 1, 0 by P(win), 1 by
    money, then ``sa_thresholds``' p*) and their ``cal`` rows (float64[4, SA_NBINS, 4])."""
    sa = False
    for s in range(4):
        out_stakes[s] = 0
        scores[s] = start[s]
        boxes[s] = 0
        if hparams[s, P_SCORE_AWARE] > 0.5:
            sa = True
    target = rules[R_TARGET]
    ndeals = 0
    dealer = dealer0
    while ndeals < MAX_DEALS_PER_GAME:
        deal_random(sd, deck, hands)
        if sa:
            for s in range(4):
                if hparams[s, P_SCORE_AWARE] > 0.5:
                    crit = int(hparams[s, P_SCORE_AWARE] + 0.5) - 1
                    sa_thresholds(pstar[crit], cal[s], scores, dealer, s, target, sab)
        # the game scores are read only under end_check=after_each_trick (play_tricks)
        play_deal(hands, work, dealer, i64(AUCTION), i64(NO_BID), i64(HEURISTIC_TRUMP), i64(NOBODY), rules, hcodes, hparams, st, lb, rec, scores,
                  sab)
        ndeals += 1
        taker = rec[REC_TAKER]
        for s in range(4):
            scores[s] += rec[REC_SCORE + s]
            out_stakes[s] += rec[REC_STAKES + s]
        if taker >= 0 and rec[REC_MADE] == 0:
            if rec[REC_CONTRACT] < 6 or rules[R_FAILED_B_IS_BOX] != 0:
                boxes[taker] += 1
        if do_log:
            row = ndeals - 1
            for j in range(REC_LEN):
                log[row, j] = rec[j]
            for s in range(4):
                log[row, LOG_SCORES + s] = scores[s]
                log[row, LOG_BOXES + s] = boxes[s]
        top = -(1 << 40)
        for s in range(4):
            if scores[s] > top:
                top = scores[s]
        if top >= target:
            winners = 0
            nw = 0
            for s in range(4):
                if scores[s] == top:
                    winners |= 1 << s
                    nw += 1
            if nw > 1:
                tb = rules[R_TIE_BREAK]
                if tb == TIE_PLAY_ON:
                    winners = 0
                elif tb == TIE_TAKER:
                    if taker >= 0 and (winners >> taker) & 1:
                        winners = 1 << taker
                        nw = 1
                    else:
                        winners = 0
            if winners != 0:
                settle(winners, boxes, rules, out_stakes)
                for s in range(4):
                    out_boxes[s] = boxes[s]
                if do_log:
                    log[ndeals - 1, LOG_WINNERS] = winners
                    for s in range(4):
                        log[ndeals - 1, LOG_STAKES + s] = out_stakes[s]
                return winners, ndeals
        dealer = (dealer + 1) % 4
    for s in range(4):
        out_boxes[s] = boxes[s]
    return 0, ndeals


def no_score_aware():
    """``play_game``'s score-aware arguments when no seat is score-aware: (pstar, cal), never read."""
    return np.zeros((2, 1, 4, 4), np.float32), np.zeros((4, SA_NBINS, 4))


@njit(cache=True, nogil=True, _nrt=False)
def settle(winners, boxes, rules, stakes):
    """Rule 18(a)(b): each co-winner collects 1 from each non-winner plus 1 per box
    of that player; with ``winner_pays_own_boxes`` a winner pays 1 per own box to
    each non-winner."""
    for w in range(4):
        if not (winners >> w) & 1:
            continue
        for o in range(4):
            if (winners >> o) & 1:
                continue
            amt = 1 + boxes[o]
            if rules[R_WINNER_PAYS_OWN] != 0:
                amt -= boxes[w]
            stakes[w] += amt
            stakes[o] -= amt


@njit(cache=True, nogil=True, parallel=True)
def sim_games(key_deal, key_dec, first, n, rules, hcodes, hparams, pstar, cal):
    """Whole games to the target (seat 0 deals first; ``pstar``, ``cal``: ``play_game``'s score-aware
    arguments, ``no_score_aware()`` when no seat is). Returns int64[AGG_GAMES]."""
    lb = rules[R_LEFT_BOWER_TRUMP]
    nch = (n + 63) // 64
    part = np.zeros((nch, AGG_GAMES), np.int64)
    for ch in prange(nch):
        st = np.zeros(1, np.uint64)
        sd = np.zeros(1, np.uint64)
        deck = np.zeros(24, np.int64)
        hands = np.zeros(4, np.uint64)
        work = np.zeros(4, np.uint64)
        rec = np.zeros(REC_LEN, np.int64)
        nogame = no_game()
        stakes = np.zeros(4, np.int64)
        boxes = np.zeros(4, np.int64)
        sc_tmp = np.zeros(4, np.int64)
        bx_tmp = np.zeros(4, np.int64)
        nolog = np.zeros((1, LOG_W), np.int64)
        start = np.zeros(4, np.int64)
        sab = np.zeros((4, 4), np.int64)
        acc = part[ch]
        for i in range(ch * 64, min(n, (ch + 1) * 64)):
            idx = first + i
            seed_state(sd, key_deal, idx)
            seed_state(st, key_dec, idx)
            winners, nd = play_game(sd, st, rules, hcodes, hparams, lb,
                                    rec, deck, hands, work, stakes, boxes, sc_tmp, bx_tmp, nolog, False, start,
                                    i64(0), pstar, cal, sab)
            acc[G_DEALS] += nd
            if winners == 0:
                acc[G_ABANDONED] += 1
                continue
            for s in range(4):
                acc[G_STAKES + s] += stakes[s]
                acc[G_STAKES_SQ + s] += stakes[s] * stakes[s]
                if (winners >> s) & 1:
                    acc[G_WINS + s] += 1
                acc[G_BOXES + s] += boxes[s]
    return sum_rows(part)


@njit(cache=True, nogil=True)
def trace_game(key_deal, key_dec, g, rules, hcodes, hparams):
    """Game ``g`` exactly as ``sim_games`` plays it: (log rows of its deals, winner mask)."""
    lb = rules[R_LEFT_BOWER_TRUMP]
    st = np.zeros(1, np.uint64)
    sd = np.zeros(1, np.uint64)
    deck = np.zeros(24, np.int64)
    hands = np.zeros(4, np.uint64)
    work = np.zeros(4, np.uint64)
    rec = np.zeros(REC_LEN, np.int64)
    nogame = no_game()
    stakes = np.zeros(4, np.int64)
    boxes = np.zeros(4, np.int64)
    sc_tmp = np.zeros(4, np.int64)
    bx_tmp = np.zeros(4, np.int64)
    log = np.zeros((MAX_DEALS_PER_GAME, LOG_W), np.int64)
    start = np.zeros(4, np.int64)
    sab = np.zeros((4, 4), np.int64)
    pstar = np.zeros((2, 1, 4, 4), np.float32)   # trace refuses score-aware seats (analysis/boulmous/config.no_pimc)
    cal = np.zeros((4, SA_NBINS, 4))
    seed_state(sd, key_deal, g)
    seed_state(st, key_dec, g)
    winners, nd = play_game(sd, st, rules, hcodes, hparams, lb, rec, deck, hands, work, stakes, boxes,
                            sc_tmp, bx_tmp, log, True, start, i64(0), pstar, cal, sab)
    return log[:nd].copy(), winners
