"""Boomke Wies rules (RULES.md section 2): the rule flags, the calls, the hand record, the card tables, the legal
plays and the scoring table.

The kernels of kernels/boomke_wies/ read in the order of a deal: rules (this module), players (the heuristics),
play (dealing, the auction, trumps by the first lead, the tricks, one deal), the batch entry points (deals,
odds, duplicate), whole matches (matches) and match equity (equity).

Contract of every function here:
- cards are ints ``suit*16+rank`` (kernels/cards.py), rank 0..12 = 2..A; a hand is a
  uint64 mask; trumps ``t`` is a suit 0..3 (S H D C), -1 while the first lead is pending;
- ``rules``   int64[N_RULES]: the variant flags, indexed by the ``R_*`` constants
  (built by ``analysis.boomke_wies.rules_array``);
- ``hcodes``  int64[4] heuristic code per seat, ``hparams`` float64[4, N_PARAMS]
  with the ``P_*`` columns;
- ``rec``     int64[REC_LEN]: the hand record every playout fills (``REC_*`` layout),
  so ``trace`` shows exactly what the batch kernels play;
- ``sd`` / ``st``: uint64[1] generator states of the deal stream and of the decision
  stream (kernels/rng.py), seeded per hand (or per match) by the batch entry points.
Seats 0..3 clockwise, partners opposite (teams {0, 2} and {1, 3}); the first to speak
and the first to receive cards is ``(dealer + 1) % 4``.
"""
import numpy as np
from numba import njit

from ..cards import SUIT_MASK, U0, U1, highest, lowest, popcount

# ---- rule flags -------------------------------------------------------------
R_VARIANT, R_DEALER_8_12, R_MEETJE_TRUMP, R_MEETJE_SHORTFALL, R_DEFENCE = 0, 1, 2, 3, 4
R_SHUFFLE, R_PACKETS, R_TARGET, R_TIEBREAK_EXTRA, R_MATCH_DEALS = 5, 6, 7, 8, 9
N_RULES = 10
VARIANT_AUCTION, VARIANT_NO_AUCTION = 0, 1
MEETJE_DEALER_LEADS, MEETJE_NAMES_ELDEST_LEADS = 0, 1
DEFENCE_UPTO9, DEFENCE_LITERAL9 = 0, 1
SHUFFLE_FULL, SHUFFLE_NONE = 0, 1
PACKETS_445, PACKETS_544, PACKETS_4441 = 0, 1, 2

# ---- calls ------------------------------------------------------------------
PASS, MEETJE, BOOM = 0, 1, 13     # a bid is 7..13; 1 = Meetje; 0 = pass (and "no contract")
# Calls of the per-deal functions pass int64 scalars (``i64``), never literal constants: numba
# compiles one specialisation per distinct argument types (see kernels/boulmous/play.py).
i64 = np.int64
# play_deal's "nothing forced" arguments (pass each through ``i64``):
AUCTION = -1          # forced_decl: nobody is made declarer, the auction decides
NO_BID = 0            # forced_contract when the auction decides
HEURISTIC_TRUMP = -1  # forced_open: the declarer's heuristic chooses the suit it opens (its trumps)
NOBODY = -1           # forced_pass: no seat is made to pass

NO_CONTRACT = 0


# ---- hand record ------------------------------------------------------------
REC_DEALER, REC_DECL, REC_CONTRACT, REC_TRUMP, REC_MADE, REC_NBIDS = 0, 1, 2, 3, 4, 5
REC_BIDS = 6                                   # MAX_BIDS pairs (seat, call)
MAX_BIDS = 16
REC_NTRICKS = REC_BIDS + 2 * MAX_BIDS          # 38
REC_TRICKS = REC_NTRICKS + 1                   # 13 x (leader, c0, c1, c2, c3, winner)
REC_WON = REC_TRICKS + 13 * 6                  # 4 tricks per seat
REC_TEAM = REC_WON + 4                         # 2 tricks per team
REC_SCORE = REC_TEAM + 2                       # 4 points per seat
REC_LEGAL = REC_SCORE + 4                      # 52 legal masks, in play order
REC_HANDS = REC_LEGAL + 52                     # 4 hands as dealt (= at the first trick)
REC_CUT = REC_HANDS + 4                        # cut position (no-shuffle deals), else -1
REC_PILE = REC_CUT + 1                         # 52 cards: the collected pile before the cut
REC_TURNUP = REC_PILE + 52                     # no-auction: the dealer's turned-up card
REC_LEADER0 = REC_TURNUP + 1                   # leader of the first trick
REC_LEN = REC_LEADER0 + 1

SM = SUIT_MASK.copy()
DECK = np.uint64(int(SM[0]) | int(SM[1]) | int(SM[2]) | int(SM[3]))
ALL_ONES = np.uint64(0xFFFFFFFFFFFFFFFF)


def _rank_mask(r):
    return np.uint64(sum(1 << (s * 16 + r) for s in range(4)))


ACES, KINGS, QUEENS, JACKS = _rank_mask(12), _rank_mask(11), _rank_mask(10), _rank_mask(9)

# per-16-bit-field helpers (suit fields of a hand mask)
F1 = np.uint64(0x7FFF7FFF7FFF7FFF)
F2 = np.uint64(0x3FFF3FFF3FFF3FFF)
F4 = np.uint64(0x0FFF0FFF0FFF0FFF)
F8 = np.uint64(0x00FF00FF00FF00FF)
ADD13 = np.uint64(0x1FFF1FFF1FFF1FFF)
BIT13 = np.uint64(0x2000200020002000)
# RANKSET[r]: the four cards of rank r
RANKSET = np.array([sum(1 << (_s * 16 + _r) for _s in range(4)) for _r in range(16)], np.uint64)
# SUITSET[b]: the union of the suit masks of the suits in the 4-bit set b
SUITSET = np.zeros(16, np.uint64)
for _b in range(16):
    SUITSET[_b] = np.uint64(sum(int(SM[_s]) for _s in range(4) if (_b >> _s) & 1))

# ABOVE[c]: the cards of c's suit that outrank c
ABOVE = np.zeros(64, np.uint64)
for _c in range(64):
    _s, _r = divmod(_c, 16)
    if _r < 13:
        ABOVE[_c] = np.uint64(sum(1 << (_s * 16 + q) for q in range(_r + 1, 13)))

# DEALPOS[pattern, i]: the i-th card dealt goes to the player (dealer + 1 + DEALPOS) % 4
_PATTERNS = [(4, 4, 5), (5, 4, 4), (4, 4, 4, 1)]
DEALPOS = np.zeros((3, 52), np.int64)
for _p, _pk in enumerate(_PATTERNS):
    _i = 0
    for _size in _pk:
        for _who in range(4):
            for _ in range(_size):
                DEALPOS[_p, _i] = _who
                _i += 1


# ============================================================================
# bit helpers (kernels/cards.py: the CPU's popcnt / tzcnt / lzcnt)
# ============================================================================
pop = popcount      # number of cards in a mask
low = lowest        # lowest card of a non-empty mask (64 for an empty one)
high = highest      # highest card of a non-empty mask (-1 for an empty one)


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def bitc(c):
    return U1 << np.uint64(c)


# ============================================================================
# rules
# ============================================================================
@njit(cache=True, nogil=True, _nrt=False, inline="always")
def legal_mask(hand, n_in_trick, led):
    """Rule 9: follow suit if able, else any card."""
    if n_in_trick == 0:
        return hand
    f = hand & SM[led]
    if f != U0:
        return f
    return hand


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def beats(c, win, t):
    """Does card ``c`` beat the card ``win`` now winning the trick (rule 9)?"""
    sc = c >> 4
    sw = win >> 4
    if sc == sw:
        return c > win
    return sc == t


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def place(c, s, k, led, win, win_seat, t, voids):
    """Seat ``s`` plays card ``c`` as the trick's card ``k`` (0 = the lead): the suit led, the card winning the
    trick and its seat (rule 9), trumps (``t`` < 0: the first card led makes them, rule 7) and the voids shown
    (bit ``4*s + suit``: ``s`` did not follow ``suit``).  Returns (led, win, win_seat, t, voids)."""
    if k == 0:
        led = c >> 4
        win = c
        win_seat = s
        if t < 0:
            t = led
    else:
        if (c >> 4) != led:
            voids |= 1 << (4 * s + led)
        if beats(c, win, t):
            win = c
            win_seat = s
    return led, win, win_seat, t, voids


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def after_call(s, b, high, holder, npass, passed, bids):
    """Rules 5-6: what seat ``s``'s call ``b`` does to the auction (the forced dealer's call, which ends it, is the
    caller's): a pass puts ``s`` out for good (bit ``s`` of ``passed``), and the third pass after a bid ends the
    auction; a bid is the new highest (``high``, held by ``holder``; ``bids``: 4 bits per seat, its last bid).
    Returns (high, holder, npass, passed, bids, ended)."""
    if b == PASS:
        passed |= 1 << s
        npass += 1
        return high, holder, npass, passed, bids, npass == 3 and holder >= 0
    return b, s, npass, passed, (bids & ~(15 << (4 * s))) | (b << (4 * s)), False


@njit(cache=True, nogil=True, _nrt=False)
def score_contract(contract, T, O, rules):
    """Rule 11 (and 2.2 flags): (declaring team's points, opponents' points, made)
    for a contract (7..13 or MEETJE) when the declaring team took ``T`` tricks and
    the opponents ``O`` (``T + O < 13`` only when a Boom stopped early)."""
    if contract == MEETJE:
        if T >= 7:
            return 1, 0, 1
        if rules[R_MEETJE_SHORTFALL] != 0:
            return -(7 - T), 1, 0
        return 0, 1, 0
    if contract == BOOM:
        if T == 13:
            return 5, 0, 1
        return -5, 5, 0
    if T >= contract:
        if T <= 9:
            return 1, 0, 1
        if T <= 12:
            return 2, 0, 1
        return 3, 0, 1
    if contract <= 9:
        if rules[R_DEFENCE] == DEFENCE_UPTO9:
            return -1, (1 if O <= 9 else 2), 0
        if O == 9:
            return -1, 1, 0
        if O >= 10:
            return -1, 2, 0
        return -1, 0, 0
    return -2, 2, 0
