"""Boulmous rules (RULES.md section 1): the rule flags, the hand record, the card tables, the legal plays and
a card's effect on its trick (``apply_card``).

The kernels of kernels/boulmous/ read in the order of a deal: rules (this module), players (the heuristics and
the declaration of their parameters), dealing (the deal itself), play (the auction, the tricks, the score of one
deal, with the sampling player in its seats when given its ``pimc`` argument), the batch entry points (deals,
odds, games, duplicate), the open-hand solver, odds_play (odds with open-hand play), the sampling player (pimc)
and its odds kernels (pimc_batch), equity (match equity).

Contract of every function here:
- cards are ints ``suit*16+rank`` (kernels/cards.py); a hand is a uint64 mask;
- ``rules``  int64[N_RULES]: the variant flags, indexed by the ``R_*`` constants;
- ``lb`` (0/1) is the flag left_bower_is_trump; it selects the module-constant tables
  (module constants, not arguments, so that no reference counting happens in the
  inner loop): per trump index t (0..3 = S H D C, 4 = NT)
  ``TABS[lb, t, k]`` = cards that follow class k (k 0..3), ``TABS[lb, t, 4]`` the
  cards that rank as trumps, 5 the deck, 6 both bowers, 7 the right bower (J of
  trumps), 8 the left bower (J of the same colour); ``POWER[lb, t, c]`` the card's
  power (trumps >= 64); ``CSUIT[lb, t, c]`` its follow class; ``ABOVE[lb, t, p]`` the
  cards whose power exceeds p;
- ``hcodes`` int64[4] heuristic code per seat, ``hparams`` float64[4, N_PARAMS] (players.PARAMS, the columns);
- ``rec`` int64[REC_LEN] is the hand record that every playout fills, so the
  trace shows exactly what the batch kernels play.
Seat 0..3 clockwise; the first to speak is ``(dealer + 1) % 4``.
"""
import numpy as np
from numba import njit

from ..cards import U0, U1

# ---- rule flags -------------------------------------------------------------
R_AUCTION, R_LEFT_BOWER_TRUMP, R_MUST_HEAD, R_TRUMP_OBL, R_FAILED_KEEPS = 0, 1, 2, 3, 4
R_END_CHECK, R_TIE_BREAK, R_WINNER_PAYS_OWN, R_FAILED_B_IS_BOX, R_TARGET = 5, 6, 7, 8, 9
N_RULES = 10
AUCTION_SINGLE, AUCTION_MULTI = 0, 1
OBL_OPTIONAL, OBL_MUST_TRUMP, OBL_MUST_OVERTRUMP = 0, 1, 2
END_DEAL, END_TRICK = 0, 1
TIE_PLAY_ON, TIE_TAKER, TIE_SHARED = 0, 1, 2
NT = 4


# ---- hand record ------------------------------------------------------------
REC_DEALER, REC_TAKER, REC_CONTRACT, REC_TRUMP, REC_MADE, REC_NBIDS = 0, 1, 2, 3, 4, 5
REC_BIDS = 6            # MAX_BIDS pairs (seat, bid or 0 = pass)
MAX_BIDS = 16
REC_NTRICKS = REC_BIDS + 2 * MAX_BIDS          # 38
REC_TRICKS = REC_NTRICKS + 1                   # 6 x (leader, c0, c1, c2, c3, winner)
REC_WON = REC_TRICKS + 36                      # 4
REC_SCORE = REC_WON + 4                        # 4
REC_STAKES = REC_SCORE + 4                     # 4
REC_LEGAL = REC_STAKES + 4                     # 24 legal masks, in play order
REC_HANDS = REC_LEGAL + 24                     # 4 hands at the first trick
REC_LEN = REC_HANDS + 4

SUIT16 = np.uint64(0xFFFF)
RANK4 = np.uint64(0x0001000100010001)  # rank 0 in each suit
ACES = np.uint64(0)
KINGS = np.uint64(0)
for _s in range(4):
    ACES |= np.uint64(1) << np.uint64(16 * _s + 12)
    KINGS |= np.uint64(1) << np.uint64(16 * _s + 11)
DECK24 = np.uint64(0)
for _s in range(4):
    DECK24 |= np.uint64(0x1F80) << np.uint64(16 * _s)


def build_tables(left_bower_is_trump):
    """Rules 8-9 as tables, for one value of the flag left_bower_is_trump."""
    tabs = np.zeros((5, 10), np.uint64)
    power = np.full((5, 64), -1, np.int64)
    csuit = np.full((5, 64), -1, np.int64)
    above = np.zeros((5, 128), np.uint64)
    deck = [s * 16 + r for s in range(4) for r in range(7, 13)]
    for t in range(5):
        for c in deck:
            s, r = divmod(c, 16)
            p = r
            cs = s
            if t < 4:
                if s == t and r == 9:
                    p = 64 + 20           # J of trumps
                elif s == 3 - t and r == 9:
                    p = 64 + 19           # J of the same colour
                    if left_bower_is_trump:
                        cs = t
                elif s == t:
                    p = 64 + r            # A K Q 10 9 of trumps
            power[t, c] = p
            csuit[t, c] = cs
        for c in deck:
            b = np.uint64(1 << c)
            tabs[t, csuit[t, c]] |= b
            tabs[t, 5] |= b
            if power[t, c] >= 64:
                tabs[t, 4] |= b
            if power[t, c] >= 64 + 19:
                tabs[t, 6] |= b
            if power[t, c] == 64 + 20:
                tabs[t, 7] |= b
            if power[t, c] == 64 + 19:
                tabs[t, 8] |= b
        for p in range(0, 128):
            m = 0
            for c in deck:
                if power[t, c] > p:
                    m |= 1 << c
            above[t, p] = np.uint64(m)
    return tabs, power, csuit, above


_T = [build_tables(False), build_tables(True)]
TABS = np.stack([_T[0][0], _T[1][0]])
POWER = np.stack([_T[0][1], _T[1][1]])
CSUIT = np.stack([_T[0][2], _T[1][2]])
ABOVE = np.stack([_T[0][3], _T[1][3]])


# ============================================================================
# rules
# ============================================================================
@njit(cache=True, nogil=True, _nrt=False, inline="always")
def legal_mask(hand, n_in_trick, led, win_pow, t, rules, lb):
    """Cards of ``hand`` that may be played; ``led`` = follow class of the lead,
    ``win_pow`` = power of the card winning the trick so far (rules 11-13)."""
    if n_in_trick == 0:
        return hand
    follow = hand & TABS[lb, t, led]
    obl = rules[R_TRUMP_OBL]
    if follow != U0:
        if rules[R_MUST_HEAD] != 0 or (obl == OBL_MUST_OVERTRUMP and led == t):
            better = follow & ABOVE[lb, t, win_pow]
            if better != U0:
                return better
        return follow
    if t == NT:
        return hand  # void at no-trump: nothing can beat the trick
    tr = hand & TABS[lb, t, 4]
    if obl == OBL_OPTIONAL:
        # trumping is optional, but must_head obliges a void player to beat the
        # trick (that is, to trump or overtrump) whenever any card of his can
        if rules[R_MUST_HEAD] != 0:
            better = tr & ABOVE[lb, t, win_pow]
            if better != U0:
                return better
        return hand
    if tr == U0:
        return hand
    if obl == OBL_MUST_OVERTRUMP or rules[R_MUST_HEAD] != 0:
        better = tr & ABOVE[lb, t, win_pow]
        if better != U0:
            return better
    return tr


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def beats(c, led, win_pow, t, lb):
    p = POWER[lb, t, c]
    return p > win_pow and (p >= 64 or CSUIT[lb, t, c] == led)


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def apply_card(h, s, c, k, led, win_pow, win_seat, t, lb):
    """Seat ``s`` plays card ``c`` as the ``k``-th card (0 = the lead) of a trick: removes it from ``h[s]``;
    returns the trick's (led class, winning power, winning seat) after it (rule 14)."""
    h[s] &= ~(U1 << np.uint64(c))
    if k == 0:
        return CSUIT[lb, t, c], POWER[lb, t, c], s
    if beats(c, led, win_pow, t, lb):
        return led, POWER[lb, t, c], s
    return led, win_pow, win_seat
