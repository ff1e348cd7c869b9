"""Whole Boomke Wies matches (rule 12): ``play_match`` from any points and dealer, ``sim_matches`` and
``trace_match``."""
import numpy as np
from numba import njit, prange

from ..layout import Layout
from ..rng import seed_state, shuffle
from .play import (collect_pile, cut_and_deal, deal_from_deck, deal_pattern, deal_scratch, fresh_deck,
                   play_dealt)
from .rules import (BOOM, MEETJE, R_MATCH_DEALS, R_SHUFFLE, R_TARGET, R_TIEBREAK_EXTRA, R_VARIANT, REC_CONTRACT,
                    REC_CUT, REC_LEN, REC_SCORE, SHUFFLE_NONE, VARIANT_NO_AUCTION, i64)

# ============================================================================
# whole matches (rule 12)
# ============================================================================
MAX_MATCH_DEALS = 1000
# sim_matches counts: per team the sum of its points and of their squares, its matches won; the draws, the deals
# played, the extra (tie-break) deals, the Booms, the Meetjes
MATCHES = Layout(("points", 2), ("points_sq", 2), ("wins", 2), ("draws", 1), ("deals", 1), ("extra_deals", 1),
                 ("booms", 1), ("meetjes", 1))
M_POINTS, M_POINTS_SQ, M_WINS, M_DRAWS, M_DEALS, M_EXTRA_DEALS, M_BOOMS, M_MEETJES = MATCHES.offsets()
AGG_MATCHES = MATCHES.size


@njit(cache=True, nogil=True, _nrt=False)
def play_match(sd, st, rules, hcodes, hparams, deck, pile, hands, h, rec, pts, recs, pts0, pts1, ndeals, dealer0):
    """One match, or the rest of one (``recs``: the records of its deals are copied into its rows, as far as
    it has rows; a 0-row array records nothing): from the points (``pts0``, ``pts1``) with ``dealer0``
    dealing first, then to the left, ``ndeals`` deals (a whole match: ``match_deals`` from 0, 0 and dealer 0)
    or, with a target score, until a team has reached it at the end of a deal; a tie at the end
    gets one extra deal (``tiebreak_extra_deal``). Without a shuffle each deal is the
    previous deal's tricks gathered, cut and dealt. Returns (deals, extra deals, booms,
    meetjes); team points in ``pts``."""
    pts[0] = pts0
    pts[1] = pts1
    pattern = deal_pattern(rules)
    target = rules[R_TARGET]
    dealer = dealer0
    nd = 0
    extra = 0
    booms = 0
    meetjes = 0
    have_prev = False
    while True:
        if target > 0:
            done = nd > 0 and (pts[0] >= target or pts[1] >= target)
        else:
            done = nd >= ndeals
        if done or nd >= MAX_MATCH_DEALS:
            if pts[0] == pts[1] and rules[R_TIEBREAK_EXTRA] != 0 and extra == 0 and nd < MAX_MATCH_DEALS:
                extra = 1
            else:
                break
        if rules[R_SHUFFLE] == SHUFFLE_NONE and have_prev:
            collect_pile(rec, pile)
            tc = cut_and_deal(sd, pile, deck, dealer, pattern, hands, rec)
        else:
            fresh_deck(deck)
            shuffle(sd, deck, 52)
            tc = deal_from_deck(deck, dealer, pattern, hands)
            rec[REC_CUT] = -1
        play_dealt(hands, dealer, rules, hcodes, hparams, st, rec, h, tc)
        if rules[R_VARIANT] != VARIANT_NO_AUCTION:
            if rec[REC_CONTRACT] == BOOM:
                booms += 1
            elif rec[REC_CONTRACT] == MEETJE:
                meetjes += 1
        have_prev = True
        if nd < recs.shape[0]:
            for j in range(REC_LEN):
                recs[nd, j] = rec[j]
        pts[0] += rec[REC_SCORE]
        pts[1] += rec[REC_SCORE + 1]
        nd += 1
        dealer = (dealer + 1) & 3
    return nd, extra, booms, meetjes


@njit(cache=True, nogil=True, parallel=True)
def sim_matches(key_deal, key_dec, first, n, rules, hcodes, hparams):
    """Whole matches; match m draws every deal from the streams seeded at index m."""
    mch = 256
    nch = (n + mch - 1) // mch
    part = np.zeros((nch, AGG_MATCHES), np.int64)
    for ch in prange(nch):
        st, sd, deck, pile, hands, h = deal_scratch()
        rec = np.zeros(REC_LEN, np.int64)
        pts = np.zeros(2, np.int64)
        norec = np.zeros((0, REC_LEN), np.int64)
        acc = part[ch]
        for i in range(ch * mch, min(n, (ch + 1) * mch)):
            idx = first + i
            seed_state(sd, key_deal, idx)
            seed_state(st, key_dec, idx)
            nd, extra, booms, meetjes = play_match(sd, st, rules, hcodes, hparams, deck, pile, hands, h,
                                                   rec, pts, norec, i64(0), i64(0), rules[R_MATCH_DEALS], i64(0))
            acc[M_POINTS] += pts[0]
            acc[M_POINTS + 1] += pts[1]
            acc[M_POINTS_SQ] += pts[0] * pts[0]
            acc[M_POINTS_SQ + 1] += pts[1] * pts[1]
            if pts[0] > pts[1]:
                acc[M_WINS] += 1
            elif pts[1] > pts[0]:
                acc[M_WINS + 1] += 1
            else:
                acc[M_DRAWS] += 1
            acc[M_DEALS] += nd
            acc[M_EXTRA_DEALS] += extra
            acc[M_BOOMS] += booms
            acc[M_MEETJES] += meetjes
    out = np.zeros(AGG_MATCHES, np.int64)
    for ch in range(nch):
        out += part[ch]
    return out


@njit(cache=True, nogil=True)
def trace_match(key_deal, key_dec, m, rules, hcodes, hparams):
    """The records of every deal of match ``m`` exactly as ``sim_matches`` plays it, and
    (deals, extra deals, team-0 points, team-1 points)."""
    st, sd, deck, pile, hands, h = deal_scratch()
    rec = np.zeros(REC_LEN, np.int64)
    pts = np.zeros(2, np.int64)
    cap = MAX_MATCH_DEALS + 1
    recs = np.zeros((cap, REC_LEN), np.int64)
    seed_state(sd, key_deal, m)
    seed_state(st, key_dec, m)
    nd, extra, booms, meetjes = play_match(sd, st, rules, hcodes, hparams, deck, pile, hands, h, rec, pts, recs,
                                           i64(0), i64(0), rules[R_MATCH_DEALS], i64(0))
    return recs[:nd].copy(), nd, extra, pts[0], pts[1]
