"""Bourre rules (RULES.md section 3): the rule flags, the deal record, card masks, the cinch and the legal plays.

The kernels of kernels/bourre/ read in the order of a deal: rules (this module), players (the heuristics),
draw (dealing, declarations and the draw), solver (open-hand play), pimc (the sampling player), play (one
deal: ``play_dealt``, settlement, antes), then the batch entry points (sessions, odds, duplicate, ev_train,
tail).

Contract of every function here:
- cards are ints ``suit*16+rank`` (kernels/cards.py, rank 0..12 = 2..A); a hand is a uint64 mask;
- ``rules``   int64[N_RULES]: the variant flags, indexed by the ``R_*`` constants
  (built by ``analysis.bourre.rules_array``);
- ``hcodes``  int64[players] heuristic code per seat, ``hparams`` float64[players, N_PARAMS];
- ``rec``     int64[REC_LEN] is the deal record that every deal fills (``REC_*`` layout
  below), so ``trace`` shows exactly what the batch kernels play;
- chips are int64; any pot, payment or seat net that would pass ``OVF`` = 2**62 stops
  the session as *overflowed* (never wrapped around).
Seats 0..players-1 clockwise; in a session seat ``j % players`` deals deal ``j`` (seat 0 deals first).

Randomness (kernels/rng.py): deal ``j`` of session ``k`` draws its cards from the
deal stream state ``seed_state(seed_state(key_deal, k), j)`` and its random
decisions from ``seed_state(seed_state(key_dec, k), j)``: a session is a pure
function of (seed, session index), and every deal of it can be replayed alone.
Cards are drawn one at a time from a *pool* array: ``j = below(m)``, the card is
``pool[j]``, then ``pool[j] = pool[m-1]`` and ``m -= 1``.  The pool starts as the 52
cards in ascending id order; a reshuffle (rule 5) refills it with the gathered cards
in ascending id order and drawing simply continues.

``legal_cards`` states rules 10 and 11 once: ``play_dealt`` plays by it, and the open-hand solver and the
sampling player by ``legal_play`` (the same function on their renumbered position), and the cinch sees what it sees in a real deal (the cards played in earlier tricks and
in the trick in progress, the known-out cards, the tricks won).
"""
import numpy as np
from numba import njit

from ..cards import SUIT_MASK, U0, U1, highest, lowest, popcount
from ..rng import below

OVF = np.int64(1 << 62)          # chips bound: a pot, payment or net beyond it is an overflow
MAXP = 8

# ---- rule flags -------------------------------------------------------------
(R_ANTE, R_DEALER_SETS_ANTE, R_DEALER_ANTES_ALL, R_DOUBLE_ANTE, R_TRUMP_CARD, R_DECLARE_THEN_DRAW,
 R_MAX_DISCARD, R_MAX_DISCARD_7PLUS, R_RESHUFFLE, R_ALL_PASS, R_MUST_HEAD, R_MUST_TRUMP,
 R_MUST_OVERTRUMP, R_TRUMP_EVEN_IF_CANNOT_WIN, R_VOID_HIGHEST_TRUMP, R_CINCH_RULE, R_CINCH_KNOWLEDGE,
 R_CINCH_LAST_EXEMPT, R_TIE, R_PENALTY, R_POT_LIMIT, R_LO_NO) = range(22)
N_RULES = 22
TRUMP_DEALER_FIFTH, TRUMP_SEPARATE = 0, 1
RESHUF_PAGAT, RESHUF_WP = 0, 1
ALLPASS_DEALER_WINS, ALLPASS_CARRY = 0, 1
CINCH_PAGAT, CINCH_HOYLE, CINCH_AKQ, CINCH_NONE = 0, 1, 2, 3
KNOW_HOLDER, KNOW_OMNISCIENT = 0, 1
TIE_CARRY, TIE_DIVIDE, TIE_TIED_ONLY = 0, 1, 2
# R_PENALTY: -1 = the pot, k >= 0 = a fixed k chips; R_POT_LIMIT: 0 = none; R_MAX_DISCARD_7PLUS: -1 = off
LONO_MAX_RANK = 5                # Lo-No may be called on an up-card 2..7 (rank index <= 5)


# ---- deal record ------------------------------------------------------------
(REC_SESSION, REC_DEAL_IDX, REC_N, REC_DEALER, REC_INMASK, REC_POT_BEFORE, REC_ANTE_AMT, REC_UPCARD,
 REC_TRUMP, REC_LONO, REC_NDEC, REC_NACTIVE, REC_ACTIVE, REC_NTRICKS, REC_OUTCOME, REC_WINNER,
 REC_TIED, REC_BOURRE, REC_POT_STAKE, REC_POT_AFTER, REC_OVERFLOW, REC_NRESHUF, REC_UP_OUT,
 REC_EXEMPT) = range(24)
REC_ANTES = 24          # 8 first antes paid per seat
REC_ANTE2 = 32          # 8 second antes (double ante)
REC_DEAL = 40           # 8 hands as dealt (masks)
REC_HANDS = 48          # 8 hands at the first trick (0 for passers / seats out of the deal)
REC_WON = 56            # 8 tricks won
REC_POT_WON = 64        # 8 chips taken from the pot
REC_BPAID = 72          # 8 bourre payments
REC_SCORE = 80          # 8 net chips of the deal (score_delta)
REC_DEC = 88            # 8 x (seat, play, discard mask, drawn mask), declaration order
REC_TRICKS = 120        # 5 x (leader, c0..c7, winner), -1 = no card
REC_LEGAL = 170         # 40 legal masks in play order
REC_CINCH = 210         # 40 flags: rule 11 restricted that play (evaluated when more than one card was legal)
REC_LEN = 250
OUT_WIN, OUT_TIE, OUT_LONE, OUT_CARRY = 0, 1, 2, 3
NO_SEAT = np.int64(-1)        # typed (not a literal): every caller shares one compiled play_dealt
# scratch of ``play_dealt`` (kernels run with no allocator): uw[0:16], iw[0:24] its own, the rest the
# sampling player's (kernels/bourre/pimc.py)
UW_LEN = 16 + 41 + 2810 + 5120 + 90   # ... + its open-hand solver's workspace (pimc_solve.PIMC_TT_BITS), its
# shared table (share.SHARE_WORDS) + its draw decision's
IW_LEN = 24 + 100 + 26 + 3 + 8 + 356   # ... + its inference counters (kernels/bourre/infer.py) + its draw decision's


# ============================================================================
# small mask helpers (kernels/cards.py gives popcount/lowest/highest as CPU instructions)
# ============================================================================
RANK_FIELD = np.uint64(0x1FFF)


def _rank_mask(ranks):
    m = 0
    for s in range(4):
        for r in ranks:
            m |= 1 << (16 * s + r)
    return np.uint64(m)


ACES = _rank_mask([12])
KINGS = _rank_mask([11])
LOW01 = _rank_mask([0, 1])
LOW23 = _rank_mask([2, 3])
HIGH4 = _rank_mask(range(4, 13))      # 6..A: what a Lo-No player throws
QKA = np.uint64(0x1C00)               # Q K A within a suit field


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def fold_ranks(m):
    return (m | (m >> np.uint64(16)) | (m >> np.uint64(32)) | (m >> np.uint64(48))) & RANK_FIELD


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def bitc(c):
    return U1 << np.uint64(c)


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def above_in_suit(c):
    """Cards of c's suit ranked above c."""
    return SUIT_MASK[c >> 4] & ~((bitc(c) << U1) - U1)


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def below_in_suit(c):
    """Cards of c's suit ranked below c."""
    return SUIT_MASK[c >> 4] & (bitc(c) - U1)


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def better_in_suit(c, lono):
    """Cards of c's suit that beat c (lower ones under Lo-No)."""
    if lono:
        return below_in_suit(c)
    return above_in_suit(c)


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def tmask(trump):
    if trump < 0:
        return U0
    return SUIT_MASK[trump]


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def min_rank_card(m):
    """Card of lowest rank in non-empty m (ties: lowest suit)."""
    r = lowest(fold_ranks(m))
    return lowest(m & (np.uint64(0x0001000100010001) << np.uint64(r)))


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def max_rank_card(m):
    """Card of highest rank in non-empty m (ties: lowest suit)."""
    r = highest(fold_ranks(m))
    return lowest(m & (np.uint64(0x0001000100010001) << np.uint64(r)))


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def max_discard(players, rules):
    lim = rules[R_MAX_DISCARD]
    if players >= 7 and rules[R_MAX_DISCARD_7PLUS] >= 0 and rules[R_MAX_DISCARD_7PLUS] < lim:
        lim = rules[R_MAX_DISCARD_7PLUS]
    return lim


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def draw_card(sd, pool, m):
    """Remove and return a uniformly drawn card of pool[0:m] (the caller decrements m)."""
    j = below(sd, m)
    c = pool[j]
    pool[j] = pool[m - 1]
    return c


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def fill_pool(pool, mask):
    k = 0
    m = mask
    while m != U0:
        pool[k] = lowest(m)
        m &= m - U1
        k += 1
    return k


# ============================================================================
# the cinch (rule 11)
# ============================================================================
@njit(cache=True, nogil=True, inline="always", _nrt=False)
def cinch_matching(h, o):
    """Rule 11 detection on 13-bit rank fields: ``h`` the holder's trumps, ``o`` the
    trumps that may be against him.  Highest cards of O first, each takes the highest
    still unmatched card of H below it.  Returns m, the matching size."""
    m = 0
    avail = h
    oo = o
    while oo != U0 and avail != U0:
        b = highest(oo)
        if b <= lowest(avail):
            break                      # this and every lower card of O beats nothing left
        oo ^= bitc(b)
        cand = avail & (bitc(b) - U1)
        avail ^= bitc(highest(cand))
        m += 1
    return m


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def sure_tricks(H, O, trump, won):
    """Tricks won + |H| - m (rule 11); H and O are full card masks."""
    sh = np.uint64(16 * trump)
    h = (H >> sh) & np.uint64(0x1FFF)
    o = (O >> sh) & np.uint64(0x1FFF)
    return won + popcount(h) - cinch_matching(h, o)


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def equivalent_top(H, O):
    """Rule 11 (iii): the holder's highest trump and every trump of his that follows it
    down with no card of O in between (all in the trump suit)."""
    top = highest(H)
    eq = bitc(top)
    cur = top
    rest = H ^ bitc(top)
    while rest != U0:
        nx = highest(rest)
        between = (bitc(cur) - U1) & ~((bitc(nx) << U1) - U1)
        if (O & between) != U0:
            break
        eq |= bitc(nx)
        rest ^= bitc(nx)
        cur = nx
    return eq


# ============================================================================
# legal plays (rules 10, 11)
# ============================================================================
@njit(cache=True, nogil=True, inline="always", _nrt=False)
def legal_follow(hand, ls, win_card, trump, lono, rules):
    """Rule 10 (a)-(c) for a player who is not leading. ``win_card`` is the card
    currently winning the trick."""
    L = SUIT_MASK[ls]
    f = hand & L
    win_is_trump = trump >= 0 and (win_card >> 4) == trump
    if f != U0:
        if ls == trump or not win_is_trump:
            if rules[R_MUST_HEAD] != 0:
                # win_card is the highest card of the suit led (or the highest trump when trumps were led)
                better = f & better_in_suit(win_card, lono)
                if better != U0:
                    return better
        return f
    T = tmask(trump)
    tr = hand & T
    if tr == U0 or rules[R_MUST_TRUMP] == 0:
        return hand
    if win_is_trump:
        over = tr & above_in_suit(win_card)
        if rules[R_TRUMP_EVEN_IF_CANNOT_WIN] != 0:
            base = over if (rules[R_MUST_OVERTRUMP] != 0 and over != U0) else tr
        else:
            if over == U0:
                return hand        # cannot win with a trump: no obligation
            base = over if rules[R_MUST_OVERTRUMP] != 0 else tr
    else:
        base = tr
    if rules[R_VOID_HIGHEST_TRUMP] != 0:
        return bitc(highest(tr))
    return base


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def cinch_O(s, hands, active, played, known_out, trump, rules):
    """The trumps that may still be against seat s (rule 11 DEFAULT detection, or the
    omniscient variant: the trumps really held by the other active players)."""
    T = SUIT_MASK[trump]
    if rules[R_CINCH_KNOWLEDGE] == KNOW_OMNISCIENT:
        o = U0
        for q in range(MAXP):
            if q != s and (active >> q) & 1:
                o |= hands[q]
        return o & T
    return T & ~hands[s] & ~played & ~known_out


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def cinch_equiv(s, hands, active, played, known_out, trump, rules, won, lg, win_card):
    """Rule 11: U0 when seat s has no cinch, else the trumps he must choose from (his
    highest trump and its equivalents, rule 11 iii).  ``lg`` = his legal cards under
    rule 10, ``win_card`` = the card winning the trick in progress (-1 when he leads).
    The trick in progress: when a trump above every trump of his is winning it and
    rule 10 leaves him only trumps, one of them goes to a lost trick (sure - 1).
    Inlined at its one call site."""
    T = SUIT_MASK[trump]
    H = hands[s] & T
    O = cinch_O(s, hands, active, played, known_out, trump, rules)
    sure = sure_tricks(H, O, trump, won)
    if (win_card >= 0 and (win_card >> 4) == trump and H != U0 and win_card > highest(H)
            and (lg & ~T) == U0):
        sure -= 1
    if sure >= 3:
        return equivalent_top(H, O)
    return U0


# ============================================================================
# the legal plays (rules 10, 11), once: play_dealt, the solver and the sampling player all call them
# ============================================================================
@njit(cache=True, nogil=True, _nrt=False, inline="always")
def legal_cards(hands, s, kpos, nplay, active, won_s, played, known_out, trump, T, crule, lono, rules, akq_s, forced,
                ls, win_card):
    """Rules 10 and 11, the one statement of them: the cards seat ``s`` may play, and 1 when a cinch form
    narrowed them (0 otherwise).  ``kpos`` = cards already in the trick (0 = he leads), ``nplay`` the
    players in the play and ``active`` their seats (a bit mask), ``won_s`` his tricks so far, ``played``
    every card played in the deal (earlier tricks and the trick in progress), ``known_out`` the cards seen
    out of play, ``T`` the trump suit's mask (``tmask(trump)``) and ``crule`` the cinch rule
    (``rules[R_CINCH_RULE]``), both read once a deal by the caller, ``akq_s`` whether he held A-K-Q of trumps
    when play began, ``forced`` a card he must lead (-1 none: the up-card under Lo-No), ``ls`` the suit led and
    ``win_card`` the card winning the trick (both -1 when he leads).  ``play_dealt`` (kernels/bourre/play.py)
    plays by it; the open-hand solver and the sampling player reach it through ``legal_play``."""
    h = hands[s]
    pagat = False
    cinch = 0
    if kpos == 0:
        lg = h
        if forced >= 0:
            lg = bitc(forced)
        elif trump >= 0 and (h & T) != U0:
            akqm = QKA << np.uint64(16 * trump)
            if crule == CINCH_PAGAT:
                pagat = True
            elif crule == CINCH_HOYLE:
                if (h & akqm) != U0:
                    lg = bitc(highest(h & T))
                    cinch = 1
            elif crule == CINCH_AKQ and akq_s:
                mine = h & akqm
                if mine != U0:
                    lg = bitc(highest(mine))
                    cinch = 1
    else:
        lg = legal_follow(h, ls, win_card, trump, lono, rules)
        # (a single legal card is always his highest trump when the cinch applies)
        pagat = (crule == CINCH_PAGAT and trump >= 0 and (lg & (lg - U1)) != U0 and (h & T) != U0
                 and (ls == trump or (h & SUIT_MASK[ls]) == U0)
                 and not (rules[R_CINCH_LAST_EXEMPT] != 0 and kpos == nplay - 1))
    if pagat and won_s + popcount(h & T) >= 3:
        eq = cinch_equiv(s, hands, active, played, known_out, trump, rules, won_s, lg, win_card)
        if eq != U0:
            x = lg & eq
            lg = x if x != U0 else eq
            cinch = 1
    return lg, cinch


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def legal_play(hands, s, kpos, players, won_s, played, known_out, trump, lono, rules, akq_s, forced, ls, win_card):
    """``legal_cards`` on a position whose players in the play are seats 0..players-1 (the solver's and the
    sampling player's numbering): the cards seat ``s`` may play."""
    lg, _ = legal_cards(hands, s, kpos, players, (1 << players) - 1, won_s, played, known_out, trump, tmask(trump),
                        rules[R_CINCH_RULE], lono, rules, akq_s, forced, ls, win_card)
    return lg


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def beats(c, ls, win_card, trump, lono):
    """Rule 9: does card c take the trick from ``win_card`` (suit led ``ls``)?"""
    cs = c >> 4
    wt = trump >= 0 and (win_card >> 4) == trump
    if trump >= 0 and cs == trump:
        return (not wt) or c > win_card
    if cs == ls and not wt:
        return c < win_card if lono else c > win_card
    return False
