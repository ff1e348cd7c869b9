"""Boomke Wies match equity kernels (issue 16, analysis/boomke_wies/equity.py): the per-deal outcome counts
(``boomke_outcomes``) and whole matches from given points (``boomke_matches_from``)."""
import numpy as np
from numba import njit, prange

from .. import boomke_wies as KW
from ..layout import Layout
from ..rng import seed_state
from ..tally import sum_rows

# ---------------------------------------------------------------------------
# Boomke Wies
# ---------------------------------------------------------------------------
BW_SPAN = 19           # a team's points in one deal: -5 .. 13 (13: the no-auction variant)
BW_OFF = 5
# boomke_outcomes counts: per dealer the deals by (team 0's points, team 1's points), each + BW_OFF
OUTCOMES = Layout(("points", (4, BW_SPAN, BW_SPAN)),)
OC_POINTS, = OUTCOMES.offsets()
AGG_OUTCOMES = OUTCOMES.size


@njit(cache=True, nogil=True, parallel=True)
def boomke_outcomes(key_deal, key_dec, first, n, rules, hcodes, hparams):
    """Counts of (team 0 points, team 1 points) of deals first..first+n-1 (dealer = index % 4, the
    deals of ``sim_deals``): the field of ``OUTCOMES``."""
    ch_n = 8192
    nch = (n + ch_n - 1) // ch_n
    part = np.zeros((nch, AGG_OUTCOMES), np.int64)
    for ch in prange(nch):
        st, sd, deck, pile, hands, h = KW.deal_scratch()
        rec = np.zeros(KW.REC_LEN, np.int64)
        prev = np.zeros(KW.REC_LEN, np.int64)
        acc = part[ch]
        for i in range(ch * ch_n, min(n, (ch + 1) * ch_n)):
            idx = first + i
            seed_state(sd, key_deal, idx)
            seed_state(st, key_dec, idx)
            dealer = idx & 3
            KW.full_hand(sd, st, dealer, rules, hcodes, hparams, deck, pile, hands, h, rec, prev)
            a = rec[KW.REC_SCORE] + BW_OFF
            b = rec[KW.REC_SCORE + 1] + BW_OFF
            acc[OC_POINTS + (dealer * BW_SPAN + a) * BW_SPAN + b] += 1
    return sum_rows(part)


# boomke_matches_from counts: per team its matches won; the draws; the sum of (points 0 - points 1) and of its
# square; the deals played
MATCH_FROM = Layout(("wins", 2), ("draws", 1), ("margin", 1), ("margin_sq", 1), ("deals", 1))
MF_WINS, MF_DRAWS, MF_MARGIN, MF_MARGIN_SQ, MF_DEALS = MATCH_FROM.offsets()
AGG_MATCH_FROM = MATCH_FROM.size


@njit(cache=True, nogil=True, parallel=True)
def boomke_matches_from(key_deal, key_dec, first, n, rules, hcodes, hparams, pts0, pts1, deals_left, dealer0):
    """The rest of a fixed-length match (rule 12; kernels/boomke_wies.play_match): ``deals_left`` deals
    from points (pts0, pts1) with ``dealer0`` dealing next, then one extra deal on a tie
    (``tiebreak_extra_deal``).  Match m draws its deals and decisions from the streams seeded at index m
    (independent shuffled deals; ``shuffle = none_collect_tricks`` is refused by analysis/boomke_wies/equity.py)."""
    nch = (n + 255) // 256
    part = np.zeros((nch, AGG_MATCH_FROM), np.int64)
    for ch in prange(nch):
        st, sd, deck, pile, hands, h = KW.deal_scratch()
        rec = np.zeros(KW.REC_LEN, np.int64)
        acc = part[ch]
        pts = np.zeros(2, np.int64)
        norec = np.zeros((0, KW.REC_LEN), np.int64)
        for i in range(ch * 256, min(n, (ch + 1) * 256)):
            idx = first + i
            seed_state(sd, key_deal, idx)
            seed_state(st, key_dec, idx)
            nd, _, _, _ = KW.play_match(sd, st, rules, hcodes, hparams, deck, pile, hands, h, rec, pts, norec,
                                        pts0, pts1, deals_left, dealer0)
            a = pts[0]
            b = pts[1]
            if a > b:
                acc[MF_WINS] += 1
            elif b > a:
                acc[MF_WINS + 1] += 1
            else:
                acc[MF_DRAWS] += 1
            acc[MF_MARGIN] += a - b
            acc[MF_MARGIN_SQ] += (a - b) * (a - b)
            acc[MF_DEALS] += nd
    return sum_rows(part)
