"""Boomke Wies kernels (RULES.md section 2): deal, auction, trumps by the first lead, play,
Boom stopping early, the scoring table, whole matches.

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
from numba import njit, prange

from tricksim.kernels.cards import SUIT_MASK, U0, U1, popcount, lowest, highest, nth_card
from tricksim.kernels.rng import seed_state, below, uniform, shuffle
from tricksim.kernels.deal import deal_with_fixed
from tricksim.kernels.tally import add_sum_outer

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
# compiles one specialisation per distinct argument types (see kernels/boulmous.py).
i64 = np.int64
# play_deal's "nothing forced" arguments (pass each through ``i64``):
AUCTION = -1          # forced_decl: nobody is made declarer, the auction decides
NO_BID = 0            # forced_contract when the auction decides
HEURISTIC_TRUMP = -1  # forced_open: the declarer's heuristic chooses the suit it opens (its trumps)
NOBODY = -1           # forced_pass: no seat is made to pass

NO_CONTRACT = 0

# ---- heuristics -------------------------------------------------------------
H_RANDOM, H_PARTNER, H_NAIVE = 0, 1, 2
(P_MARGIN, P_ACE, P_KING, P_QUEEN, P_TRUMP_LEN, P_SHORT, P_PARTNER, P_PARTNER_PASSED,
 P_PARTNER_BID, P_SEVEN_MARGIN, P_BOOM_MARGIN, P_OVERCALL_PARTNER, P_DRAW_TRUMPS, P_COUNT,
 P_RUFF, P_BID_PROB) = range(16)
N_PARAMS = 16

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


# ============================================================================
# heuristics: valuation and bidding
# ============================================================================
@njit(cache=True, nogil=True, _nrt=False)
def best_suit(hand):
    """The suit the partnership heuristics open (and so make trumps): the longest,
    ties to the one with the higher cards."""
    best = 0
    bk = -1
    for s in range(4):
        hs = hand & SM[s]
        k = (pop(hs) << 16) | np.int64(hs >> np.uint64(16 * s))
        if k > bk:
            bk = k
            best = s
    return best


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def field_nonzero(x):
    """Bit 13 of each 16-bit suit field set when that field of ``x`` is non-empty."""
    return (x + ADD13) & BIT13


@njit(cache=True, nogil=True, _nrt=False)
def honour_count(hand):
    """(aces, guarded kings, queens with two more cards in their suit)."""
    gk = pop(((hand & KINGS) << np.uint64(2)) & field_nonzero(hand & ~KINGS))
    oq = hand & ~QUEENS
    oq2 = oq & ~lowest_per_field(oq)
    gq = pop(((hand & QUEENS) << np.uint64(3)) & field_nonzero(oq2))
    return pop(hand & ACES), gk, gq


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def lowest_per_field(x):
    """The lowest card of each suit of ``x`` (x & -x inside every 16-bit field)."""
    r = U0
    for s in range(4):
        f = x & SM[s]
        r |= f & (~f + U1)
    return r


@njit(cache=True, nogil=True, _nrt=False)
def own_tricks(hand, w_ace, w_king, w_queen, w_len, w_short):
    """Tricks the hand expects to take as declarer in its best suit: aces, guarded kings
    and queens, trump length beyond three, and the ruffing value of short side suits
    (a void counts twice a singleton) when it holds four trumps or more."""
    t = best_suit(hand)
    n = pop(hand & SM[t])
    a, k, q = honour_count(hand)
    v = w_ace * a + w_king * k + w_queen * q
    if n > 3:
        short = 0
        for s in range(4):
            m = pop(hand & SM[s])
            short += (m == 0) * 2 + (m == 1)
        v += w_len * (n - 3) + w_short * short
    return v


@njit(cache=True, nogil=True, _nrt=False)
def sure_thirteen(hand, draws_and_counts):
    """True when the hand, declaring and opening its best suit as trumps, takes all thirteen tricks
    whatever the other hands hold and play: its trumps from the ace down number at least the
    trumps it lacks (each round of trumps it leads wins and draws one from every hand that still has
    one), and every side card lies in an unbroken run from its suit's ace (it wins when led once
    trumps are gone). Such a hand has at least seven trumps, so its best suit is its only candidate.
    The side cards are sure only for a player who draws trumps first and remembers what was played
    (``draws_and_counts``: the draw_trumps and count parameters); without them only thirteen trumps
    are sure."""
    t = best_suit(hand)
    tr = (hand >> np.uint64(16 * t)) & np.uint64(0x1FFF)
    k = pop(tr)
    if k == 13:
        return True
    if k < 7 or not draws_and_counts:
        return False
    run = 0
    while run < 13 and (tr >> np.uint64(12 - run)) & U1:
        run += 1
    if run < 13 - k:
        return False
    for s in range(4):
        if s == t:
            continue
        f = (hand >> np.uint64(16 * s)) & np.uint64(0x1FFF)
        m = pop(f)
        if f != (np.uint64(0x1FFF) & ~((U1 << np.uint64(13 - m)) - U1)):
            return False
    return True


@njit(cache=True, nogil=True, _nrt=False)
def random_call(high, forced, allow_8_12, bid_prob, st):
    """The random baseline's call: as the forced dealer a uniform legal call; otherwise,
    with probability ``bid_prob``, a bid 0-2 above the lowest legal one."""
    if forced:
        if allow_8_12:
            k = below(st, 8)
            return MEETJE if k == 7 else 7 + k
        k = below(st, 3)
        return 7 if k == 0 else (BOOM if k == 1 else MEETJE)
    lo = 7 if high == 0 else high + 1
    if lo > 13 or uniform(st) >= bid_prob:
        return PASS
    b = lo + below(st, 3)
    return b if b < 13 else 13


@njit(cache=True, nogil=True, _nrt=False)
def partner_call(team, high, forced, margin, seven_margin, boom_margin):
    """The partnership heuristic's call given its estimate of the team's tricks: Boom
    when ``team >= 13 + boom_margin``; else the lowest legal bid when ``team - margin``
    reaches it; as the forced dealer 7 when ``team >= 7 + seven_margin``, else Meetje."""
    if team >= 13.0 + boom_margin and high < 13:
        return BOOM
    if forced:
        return 7 if team >= 7.0 + seven_margin else MEETJE
    lo = 7 if high == 0 else high + 1
    if lo <= 12 and team - margin >= lo:
        return lo
    return PASS


@njit(cache=True, nogil=True, _nrt=False)
def partner_credit(pbid, ppassed, margin, base, passed_credit, bid_factor):
    """Tricks credited to partner: ``base`` while silent, ``passed_credit`` after a pass,
    and after a bid b, ``bid_factor * (b + margin - base)`` (what partner's own hand must
    hold to have bid b), never below ``base``. A bid says nothing of the suit."""
    if pbid >= 7:
        c = bid_factor * (pbid + margin - base)
        return c if c > base else base
    if ppassed:
        return passed_credit
    return base


# ============================================================================
# heuristics: card play
# ============================================================================
@njit(cache=True, nogil=True, _nrt=False, inline="always")
def smear_fields(x):
    """Every card of ``x``'s suits ranking at or below the suit's highest card of ``x``."""
    x |= (x >> np.uint64(1)) & F1
    x |= (x >> np.uint64(2)) & F2
    x |= (x >> np.uint64(4)) & F4
    x |= (x >> np.uint64(8)) & F8
    return x


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def fold_ranks(x):
    """The 13-bit set of ranks present in any suit of ``x``."""
    return (x | (x >> np.uint64(16)) | (x >> np.uint64(32)) | (x >> np.uint64(48))) & np.uint64(0x1FFF)


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def discard(hand, t):
    """The lowest-ranking card among the lowest cards of the non-trump suits (a trump
    only when nothing else is left; ties to the first suit in S H D C order)."""
    side = hand & ~SM[t] if t >= 0 else hand
    if side == U0:
        side = hand
    lpf = lowest_per_field(side)
    r = low(fold_ranks(lpf))
    return low(lpf & RANKSET[r])


@njit(cache=True, nogil=True, _nrt=False)
def random_card(legal, st):
    """A uniformly random card of ``legal`` (the random-legal baseline)."""
    n = pop(legal)
    return low(legal) if n == 1 else nth_card(legal, below(st, n))


@njit(cache=True, nogil=True, _nrt=False)
def opening_lead(hand, legal):
    """The declarer's first lead, whose suit becomes trumps (rule 7): its best suit, the
    ace if it holds it, else its lowest card. ``legal`` may be narrowed to one suit by
    the odds studies (the hand forced to open that suit)."""
    s = best_suit(legal)
    hs = legal & SM[s]
    if (hs & ACES) != U0:
        return high(hs)
    return low(hs)


# play flags of a seat, from its parameters (bit set = on)
FL_COUNT, FL_DRAW, FL_RUFF = 1, 2, 4


@njit(cache=True, nogil=True, _nrt=False)
def play_flags(hparams, s):
    return ((hparams[s, P_COUNT] > 0.5) * FL_COUNT + (hparams[s, P_DRAW_TRUMPS] > 0.5) * FL_DRAW
            + (hparams[s, P_RUFF] > 0.5) * FL_RUFF)


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def choose_card(flags, me, hand, legal, pos, led, win, win_seat, t, declarer, played, trick, voids):
    """The card a partnership heuristic plays at position ``pos`` (0 = leads) of a trick.

    ``flags`` = FL_* bits of the seat's parameters, ``win``/``win_seat`` = the card now
    winning the trick and its seat, ``played`` = every card played so far (the current
    trick included), ``trick`` = the cards of the current trick, ``voids`` = bit
    ``4*seat + suit`` set when a seat showed out. Scalars only: array arguments cost
    reference counting on every call. Selects rather than branches where it can."""
    count = (flags & FL_COUNT) != 0
    cmask = U0 - np.uint64(count)                    # all ones when counting cards
    seen = (played & cmask) | (trick & ~cmask)       # cards this player remembers
    if pos == 0:
        return lead_card(flags, me, hand, t, declarer, DECK & ~hand & ~seen, voids & np.int64(cmask))
    if (legal & (legal - U1)) == U0:
        return low(legal)
    fs = hand & SM[led]
    # the unseen cards of the suit led that the next player may still hold
    nxt = (me + 1) & 3
    vb = np.uint64((voids >> (4 * nxt + led)) & 1) & np.uint64(count)
    out_s = DECK & SM[led] & ~hand & ~seen & (vb - U1)
    pw = win_seat == (me ^ 2)
    if fs != U0:
        c = low(fs)
        if pos == 1:                                 # second hand low
            return c
        higher = fs & ABOVE[win] & (U0 - np.uint64(not pw))   # never overtake partner
        r = low(higher)                              # 64 when empty
        if pos == 3:
            return r if r < 64 else c
        sure = low(higher & ~smear_fields(out_s))    # cheapest card sure to hold the trick
        top = high(higher)                           # third hand high (-1 when empty)
        return sure if sure < 64 else (top if top >= 0 else c)
    # void in the suit led: let a partner's sure winner stand, else ruff as cheaply as
    # possible (over a ruff if needed), else discard
    if t < 0:
        return discard(hand, t)
    safe = pw and (pos == 3 or ((win >> 4) == led and bitc(win) > out_s))
    tr = hand & SM[t]
    over = tr & ABOVE[win] if (win >> 4) == t else tr
    if safe or over == U0 or (flags & FL_RUFF) == 0:
        return discard(hand, t)
    return low(over)


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def lead_card(flags, me, hand, t, declarer, out, voids):
    """Leading to tricks 2..13: the declaring side draws trumps while an opponent may
    hold one (its cheapest sure winner if it has one, else its lowest trump); then the
    cheapest sure winner of a side suit (no unseen card of its suit ranks higher, and no
    known ruff: while an opponent may hold a trump, a suit is skipped when an opponent
    showed out of it or no card of it is unseen); else the lowest card of the longest
    side suit (ties: S H D C order); a hand of trumps only leads its cheapest sure winner
    or its lowest trump."""
    o1 = (me + 1) & 3
    o3 = (me + 3) & 3
    tm = SM[t]
    tr = hand & tm
    v1 = voids >> (4 * o1)
    v3 = voids >> (4 * o3)
    opp_trumps = (out & tm) != U0 and (((v1 & v3) >> t) & 1) == 0
    boss = hand & ~smear_fields(out)
    side = hand & ~tm
    draw = (tr != U0 and opp_trumps and declarer >= 0 and ((me ^ declarer) & 1) == 0
            and (flags & FL_DRAW) != 0)
    if draw or side == U0:
        top = boss & tm
        return low(top) if top != U0 else low(tr)
    safe = boss & side
    if opp_trumps:
        # a suit is unsafe when an opponent showed out of it or no card of it is unseen
        risky = ((v1 | v3) & 15) | (15 ^ pop_fields4(out))
        safe &= ~SUITSET[risky]
    if safe != U0:
        return low(safe)
    key = 0
    for s in range(4):
        k = (pop(side & SM[s]) << 2) | (3 - s)
        key = max(key, k)
    return low(side & SM[3 - (key & 3)])


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def pop_fields4(x):
    """4-bit set of the suits in which ``x`` has a card."""
    nz = field_nonzero(x) >> np.uint64(13)
    return np.int64((nz | (nz >> np.uint64(15)) | (nz >> np.uint64(30)) | (nz >> np.uint64(45))) & np.uint64(15))


# ============================================================================
# one deal
# ============================================================================
@njit(cache=True, nogil=True, _nrt=False)
def auction(hands, dealer, rules, hcodes, hparams, st, rec, forced_pass):
    """Rules 5-6: the multi-round auction from the dealer's left; a passer is out for
    good; three passes end it; after three opening passes the dealer must call 7, Boom
    or Meetje (any of 7..13 or Meetje with ``dealer_may_bid_8_to_12``). Returns
    (declarer, contract). ``forced_pass`` = a seat that passes whenever it may (-1: none)."""
    high = 0
    holder = -1
    nb = 0
    npass = 0
    passed = 0          # bit s: seat s has passed
    bids = 0            # 4 bits per seat: its last bid
    allow = rules[R_DEALER_8_12] != 0
    s = (dealer + 1) & 3
    while True:
        if not (passed >> s) & 1:
            forced = npass == 3 and holder < 0
            p = s ^ 2
            if s == forced_pass and not forced:
                b = PASS
            elif hcodes[s] == H_RANDOM:
                b = random_call(high, forced, allow, hparams[s, P_BID_PROB], st)
            elif high < 13 and sure_thirteen(hands[s], hparams[s, P_DRAW_TRUMPS] > 0.5 and hparams[s, P_COUNT] > 0.5):
                b = BOOM         # a certain thirteen: Boom (+5) in every position, over partner too
            elif holder == p and hparams[s, P_OVERCALL_PARTNER] < 0.5:
                b = PASS
            else:
                own = own_tricks(hands[s], hparams[s, P_ACE], hparams[s, P_KING], hparams[s, P_QUEEN],
                                 hparams[s, P_TRUMP_LEN], hparams[s, P_SHORT])
                credit = partner_credit((bids >> (4 * p)) & 15, (passed >> p) & 1, hparams[s, P_MARGIN],
                                        hparams[s, P_PARTNER], hparams[s, P_PARTNER_PASSED],
                                        hparams[s, P_PARTNER_BID])
                b = partner_call(own + credit, high, forced, hparams[s, P_MARGIN],
                                 hparams[s, P_SEVEN_MARGIN], hparams[s, P_BOOM_MARGIN])
            if nb < MAX_BIDS:
                rec[REC_BIDS + 2 * nb] = s
                rec[REC_BIDS + 2 * nb + 1] = b
                nb += 1
            if forced:
                rec[REC_NBIDS] = nb
                return s, b
            if b == PASS:
                passed |= 1 << s
                npass += 1
                if npass == 3 and holder >= 0:
                    break
            else:
                high = b
                holder = s
                bids = (bids & ~(15 << (4 * s))) | (b << (4 * s))
        s = (s + 1) & 3
    rec[REC_NBIDS] = nb
    return holder, high


@njit(cache=True, nogil=True, _nrt=False)
def play_tricks(hands, h, leader, t, declarer, contract, open_mask, hcodes, hparams, st, rec):
    """Rules 7, 9, 10: up to 13 tricks from ``leader``; ``t = -1``: the suit of the
    first card led becomes trumps. ``open_mask`` narrows the first lead (odds studies;
    all ones otherwise). A Boom stops at the declaring team's first lost trick.
    Fills tricks, legal masks, tricks won; returns (trumps, tricks played)."""
    flags = 0
    for s in range(4):
        h[s] = hands[s]
        rec[REC_WON + s] = 0
        fl = play_flags(hparams, s)
        if hcodes[s] == H_RANDOM:
            fl = -1
        flags |= (fl & 15) << (4 * s)
    played = U0
    voids = 0
    dteam = declarer & 1
    nplay = 0
    led = 0
    for tr in range(13):
        base = REC_TRICKS + 6 * tr
        rec[base] = leader
        win = -1
        win_seat = leader
        trick = U0
        for k in range(4):
            s = (leader + k) & 3
            hs = h[s]
            lg = legal_mask(hs, k, led)
            if tr == 0 and k == 0 and (hs & open_mask) != U0:
                lg = hs & open_mask
            fl = (flags >> (4 * s)) & 15
            if fl == 15:
                c = random_card(lg, st)
            elif t < 0:
                c = opening_lead(hs, lg)
            elif k == 0:
                c = choose_card(fl, s, hs, lg, k, led, win, win_seat, t, declarer, played, trick,
                                voids)
            else:
                # the simple cases of choose_card, inline: a forced card, second hand low,
                # partner winning or no card that beats, fourth hand winning cheaply
                fs = hs & SM[led]
                hi = fs & ABOVE[win]
                if (lg & (lg - U1)) == U0:
                    c = low(lg)
                elif fs != U0 and (k == 1 or win_seat == (s ^ 2) or hi == U0):
                    c = low(fs)
                elif fs != U0 and k == 3:
                    c = low(hi)
                else:
                    c = choose_card(fl, s, hs, lg, k, led, win, win_seat, t, declarer, played,
                                    trick, voids)
            rec[REC_LEGAL + nplay] = np.int64(lg)
            nplay += 1
            rec[base + 1 + k] = c
            b = U1 << np.uint64(c)
            h[s] = hs & ~b
            played |= b
            trick |= b
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
        rec[base + 5] = win_seat
        rec[REC_WON + win_seat] += 1
        leader = win_seat
        if contract == BOOM and (win_seat & 1) != dteam:
            return t, tr + 1
    return t, 13


@njit(cache=True, nogil=True, _nrt=False)
def play_deal(hands, dealer, forced_decl, forced_contract, forced_open, forced_pass, rules,
              hcodes, hparams, st, rec, h):
    """One whole deal of the bidding game from the hands as dealt: auction (or the forced
    contract), play, scoring; fills ``rec`` (the no-auction variant is ``play_no_auction``). ``forced_decl >= 0`` skips the auction: that seat declares
    ``forced_contract`` (7..13 or MEETJE); ``forced_open`` 0..3 makes it open that suit
    (its trumps; for a Meetje under ``dealer_names_then_eldest_leads`` the suit it names),
    -1 leaves the choice to its heuristic. ``forced_pass``: a seat that passes when it may."""
    rec[REC_DEALER] = dealer
    for s in range(4):
        rec[REC_HANDS + s] = np.int64(hands[s])
    rec[REC_TURNUP] = -1
    eldest = (dealer + 1) & 3
    if forced_decl >= 0:
        rec[REC_NBIDS] = 0
        decl = forced_decl
        contract = forced_contract
    else:
        decl, contract = auction(hands, dealer, rules, hcodes, hparams, st, rec, forced_pass)
    rec[REC_DECL] = decl
    rec[REC_CONTRACT] = contract
    open_mask = ALL_ONES
    if forced_open >= 0:
        open_mask = SM[forced_open]
    if contract == MEETJE and rules[R_MEETJE_TRUMP] == MEETJE_NAMES_ELDEST_LEADS:
        if forced_open >= 0:
            t = forced_open
        elif hcodes[decl] == H_RANDOM:
            t = below(st, 4)
        else:
            t = best_suit(hands[decl])
        leader = eldest
        open_mask = ALL_ONES
    else:
        t = -1
        leader = decl
    rec[REC_LEADER0] = leader
    t, n = play_tricks(hands, h, leader, t, decl, contract, open_mask, hcodes, hparams, st, rec)
    rec[REC_TRUMP] = t
    rec[REC_NTRICKS] = n
    dt = decl & 1
    T = rec[REC_WON + dt] + rec[REC_WON + dt + 2]
    O = rec[REC_WON + 1 - dt] + rec[REC_WON + 3 - dt]
    rec[REC_TEAM + dt] = T
    rec[REC_TEAM + 1 - dt] = O
    a, b, made = score_contract(contract, T, O, rules)
    rec[REC_MADE] = made
    for s in range(4):
        rec[REC_SCORE + s] = a if (s & 1) == dt else b


# ============================================================================
# dealing
# ============================================================================
@njit(cache=True, nogil=True, _nrt=False)
def deal_from_deck(deck, dealer, pattern, hands):
    """Deal ``deck`` (top = deck[0]) clockwise from the dealer's left in packets;
    returns the last card dealt (the dealer's 13th card)."""
    for s in range(4):
        hands[s] = U0
    first = dealer + 1
    for i in range(52):
        s = (first + DEALPOS[pattern, i]) & 3
        hands[s] |= U1 << np.uint64(deck[i])
    return deck[51]


@njit(cache=True, nogil=True, _nrt=False)
def fresh_deck(deck):
    m = 0
    for s in range(4):
        for r in range(13):
            deck[m] = s * 16 + r
            m += 1


@njit(cache=True, nogil=True, _nrt=False)
def collect_pile(prev, pile):
    """The cards of a played deal gathered for the next one without a shuffle: the tricks
    in play order (cards in play order), then any cards left in hand after a Boom stopped
    early (seat 0 to 3, each ascending)."""
    n = 0
    left = U0
    for s in range(4):
        left |= np.uint64(prev[REC_HANDS + s])
    for tr in range(prev[REC_NTRICKS]):
        for k in range(4):
            c = prev[REC_TRICKS + 6 * tr + 1 + k]
            pile[n] = c
            n += 1
            left &= ~(U1 << np.uint64(c))
    for s in range(4):
        m = np.uint64(prev[REC_HANDS + s]) & left
        while m != U0:
            pile[n] = low(m)
            m &= m - U1
            n += 1


@njit(cache=True, nogil=True, _nrt=False)
def deal_pattern(rules):
    if rules[R_VARIANT] == VARIANT_NO_AUCTION:
        return PACKETS_4441
    return rules[R_PACKETS]


@njit(cache=True, nogil=True, _nrt=False)
def cut_and_deal(sd, pile, deck, dealer, pattern, hands, rec):
    """Rule 3 without a shuffle: the player at the dealer's right cuts the pile at a
    uniform position k in 1..51 (the top k cards go under), then the deal."""
    k = 1 + below(sd, 51)
    for i in range(52):
        deck[i] = pile[(i + k) % 52]
    rec[REC_CUT] = k
    for i in range(52):
        rec[REC_PILE + i] = pile[i]
    return deal_from_deck(deck, dealer, pattern, hands)


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def deal_hand(sd, st, idx_dealer, rules, hcodes, hparams, deck, pile, hands, h, rec, prev):
    """The deal of one independent hand: a uniform shuffle, or under
    ``shuffle = none_collect_tricks`` a warm-up deal (uniform shuffle, played with the
    same heuristics by the previous dealer) whose tricks are gathered, cut and dealt.
    Writes the cut, pile and turned-up card into ``rec``."""
    pattern = deal_pattern(rules)
    fresh_deck(deck)
    shuffle(sd, deck, 52)
    rec[REC_CUT] = -1
    if rules[R_SHUFFLE] == SHUFFLE_NONE:
        pdealer = (idx_dealer + 3) & 3
        tc = deal_from_deck(deck, pdealer, pattern, hands)
        play_dealt(hands, pdealer, rules, hcodes, hparams, st, prev, h, tc)
        collect_pile(prev, pile)
        tc = cut_and_deal(sd, pile, deck, idx_dealer, pattern, hands, rec)
    else:
        tc = deal_from_deck(deck, idx_dealer, pattern, hands)
    return tc


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def play_dealt(hands, dealer, rules, hcodes, hparams, st, rec, h, tc):
    """Play a dealt hand under the rules in force (``tc`` = the dealer's last card, the
    no-auction trump indicator)."""
    if rules[R_VARIANT] == VARIANT_NO_AUCTION:
        play_no_auction(hands, dealer, rules, hcodes, hparams, st, rec, h, tc)
    else:
        play_deal(hands, dealer, i64(AUCTION), i64(NO_BID), i64(HEURISTIC_TRUMP), i64(NOBODY), rules, hcodes, hparams, st, rec, h)


@njit(cache=True, nogil=True, _nrt=False)
def play_no_auction(hands, dealer, rules, hcodes, hparams, st, rec, h, tc):
    """Rule 13: trumps = suit of the dealer's turned-up last card, eldest leads,
    +1 per trick to each team."""
    rec[REC_DEALER] = dealer
    for s in range(4):
        rec[REC_HANDS + s] = np.int64(hands[s])
    rec[REC_TURNUP] = tc
    rec[REC_NBIDS] = 0
    rec[REC_DECL] = -1
    rec[REC_CONTRACT] = NO_CONTRACT
    eldest = (dealer + 1) & 3
    rec[REC_LEADER0] = eldest
    t, n = play_tricks(hands, h, eldest, tc >> 4, i64(-1), i64(NO_CONTRACT), ALL_ONES, hcodes, hparams, st, rec)
    rec[REC_TRUMP] = t
    rec[REC_NTRICKS] = n
    t0 = rec[REC_WON] + rec[REC_WON + 2]
    t1 = rec[REC_WON + 1] + rec[REC_WON + 3]
    rec[REC_TEAM] = t0
    rec[REC_TEAM + 1] = t1
    rec[REC_MADE] = -1
    for s in range(4):
        rec[REC_SCORE + s] = t0 if (s & 1) == 0 else t1


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def full_hand(sd, st, dealer, rules, hcodes, hparams, deck, pile, hands, h, rec, prev):
    """Deal and play one independent hand exactly as every batch kernel does."""
    tc = deal_hand(sd, st, dealer, rules, hcodes, hparams, deck, pile, hands, h, rec, prev)
    play_dealt(hands, dealer, rules, hcodes, hparams, st, rec, h, tc)


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
AGG_A = N_CC * 4 * 14
AGG_B = N_CC * 10 * 38 * 2
OFF_B = AGG_A
OFF_C = OFF_B + AGG_B
OFF_D = OFF_C + 8
AGG_DEALS = OFF_D + 14


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def contract_class(contract):
    return 7 if contract == MEETJE else contract - 7


@njit(cache=True, nogil=True, parallel=True)
def sim_deals(key_deal, key_dec, first, n, rules, hcodes, hparams):
    """Random deals with the auction; dealer = hand_index % 4. Returns int64[AGG_DEALS]."""
    nch = (n + CHUNK - 1) // CHUNK
    part = np.zeros((nch, AGG_DEALS), np.int64)
    for ch in prange(nch):
        st = np.zeros(1, np.uint64)
        sd = np.zeros(1, np.uint64)
        deck = np.zeros(52, np.int64)
        pile = np.zeros(52, np.int64)
        hands = np.zeros(4, np.uint64)
        h = np.zeros(4, np.uint64)
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
                acc[(cc * 4 + pos) * 14 + T] += 1
                lg, hcp = hand_class(hands[decl])
                acc[OFF_B + ((cc * 10 + lg - 4) * 38 + hcp) * 2 + rec[REC_MADE]] += 1
            for s in range(4):
                pos = (s - dealer - 1) & 3
                sc = rec[REC_SCORE + s]
                acc[OFF_C + pos] += sc
                acc[OFF_C + 4 + pos] += sc * sc
    out = np.zeros(AGG_DEALS, np.int64)
    for ch in range(nch):
        out += part[ch]
    return out


# sim_classes aggregate: [longest 4..13 -> 0..9][HCP 0..37][team tricks 0..13]
AGG_CLASSES = 10 * 38 * 14


@njit(cache=True, nogil=True, parallel=True)
def sim_classes(key_deal, key_dec, first, n, rules, hcodes, hparams):
    """Random deals; the first to speak (seat 0, dealer 3) is made declarer and opens the
    suit its heuristic prefers; counts its team's tricks by its hand class."""
    nch = (n + CHUNK - 1) // CHUNK
    part = np.zeros((nch, AGG_CLASSES), np.int64)
    for ch in prange(nch):
        st = np.zeros(1, np.uint64)
        sd = np.zeros(1, np.uint64)
        deck = np.zeros(52, np.int64)
        hands = np.zeros(4, np.uint64)
        h = np.zeros(4, np.uint64)
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
            acc[((lg - 4) * 38 + hcp) * 14 + rec[REC_TEAM]] += 1
    out = np.zeros(AGG_CLASSES, np.int64)
    for ch in range(nch):
        out += part[ch]
    return out


# sim_odds aggregate, the hand at seat 0:
#   [open suit 0..3][team tricks 0..13]            forced declarer, contract 7 (56)
#   [named suit 0..3][team tricks 0..13]           Meetje, dealer names, eldest leads (56)
#   per position p 0..3 (dealer = 3 - p), ODDS_POS_LEN = 60 counts:
#     pass: [team points -7..5] (13), [net points -10..5] (16);
#     heuristic: [team points] (13), [net points] (16);
#     heuristic: the hand declares, its partner declares (2)
ODDS_MEETJE = 56
ODDS_POS = 112
ODDS_POS_LEN = 60
AGG_ODDS = ODDS_POS + 4 * ODDS_POS_LEN


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
        acc[s * 14 + rec[REC_TEAM]] += 1
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
        acc[base + 7 + rec[REC_SCORE]] += 1
        acc[base + 13 + 10 + rec[REC_SCORE] - rec[REC_SCORE + 1]] += 1
        seed_state(st, key_dec, idx)
        play_deal(hands, dealer, i64(AUCTION), i64(NO_BID), i64(HEURISTIC_TRUMP), i64(NOBODY), rules, hcodes, hparams, st, rec, h)
        acc[base + 29 + 7 + rec[REC_SCORE]] += 1
        acc[base + 42 + 10 + rec[REC_SCORE] - rec[REC_SCORE + 1]] += 1
        if rec[REC_DECL] == 0:
            acc[base + 58] += 1
        elif rec[REC_DECL] == 2:
            acc[base + 59] += 1


@njit(cache=True, nogil=True)
def odds_tricks(key_deal, key_dec, first, n, fixed, rules, hcodes, hparams):
    """Deals ``first..first+n-1`` of ``sim_odds``: the four hands (int64 view of the
    masks) and the team's tricks for every opening suit (-1 when the hand is void)."""
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
            play_deal(hands, i64(3), i64(0), i64(7), s, i64(NOBODY), rules, hcodes, hparams, st, rec, h)
            tk[i, s] = rec[REC_TEAM]
    return hs, tk


@njit(cache=True, nogil=True)
def trace_deals(key_deal, key_dec, first, n, rules, hcodes, hparams):
    """The records of hands first..first+n-1 exactly as ``sim_deals`` plays them."""
    out = np.zeros((n, REC_LEN), np.int64)
    st = np.zeros(1, np.uint64)
    sd = np.zeros(1, np.uint64)
    deck = np.zeros(52, np.int64)
    pile = np.zeros(52, np.int64)
    hands = np.zeros(4, np.uint64)
    h = np.zeros(4, np.uint64)
    prev = np.zeros(REC_LEN, np.int64)
    for i in range(n):
        idx = first + i
        seed_state(sd, key_deal, idx)
        seed_state(st, key_dec, idx)
        full_hand(sd, st, idx & 3, rules, hcodes, hparams, deck, pile, hands, h, out[i], prev)
    return out


# ============================================================================
# duplicate comparison: every ordered pair of entrants, same deal in each rotation
# ============================================================================
@njit(cache=True, nogil=True, parallel=True)
def sim_duplicate(key_deal, key_dec, first, n, rules, codes, prm):
    """Duplicate comparison of k entrants (``codes`` int64[k], ``prm`` float64[k, N_PARAMS]).
    For every deal and every ordered pair (a, b), a != b, entrant a holds seats 0 and 2
    and b seats 1 and 3 on the same deal (same dealer, decision stream reseeded), so
    each entrant has 4(k-1) seat appearances per deal. Per metric (points, team tricks)
    the vector holds S[k] (sum over deals of X_h, the metric summed over h's seats),
    Q[k*k] (sum of X_a X_b) and P[k*k] (sum over deals and pairings of Y_a Y_b, Y = one
    pairing's sum). Without a shuffle the deal's warm-up is played by entrant 0."""
    k = codes.shape[0]
    W = k + 2 * k * k
    L = 2 * W
    nch = (n + CHUNK - 1) // CHUNK
    part = np.zeros((nch, L), np.int64)
    for ch in prange(nch):
        st = np.zeros(1, np.uint64)
        sd = np.zeros(1, np.uint64)
        deck = np.zeros(52, np.int64)
        pile = np.zeros(52, np.int64)
        hands = np.zeros(4, np.uint64)
        h = np.zeros(4, np.uint64)
        rec = np.zeros(REC_LEN, np.int64)
        prev = np.zeros(REC_LEN, np.int64)
        hc = np.zeros(4, np.int64)
        hp = np.zeros((4, prm.shape[1]), np.float64)
        X = np.zeros((2, k), np.int64)
        acc = part[ch]
        for i in range(ch * CHUNK, min(n, (ch + 1) * CHUNK)):
            idx = first + i
            dealer = idx & 3
            X[:, :] = 0
            for s in range(4):
                hc[s] = codes[0]
                hp[s, :] = prm[0]
            seed_state(sd, key_deal, idx)
            seed_state(st, key_dec, idx)
            tc = deal_hand(sd, st, dealer, rules, hc, hp, deck, pile, hands, h, rec, prev)
            for a in range(k):
                for b in range(k):
                    if a == b:
                        continue
                    for s in range(4):
                        e = a if (s & 1) == 0 else b
                        hc[s] = codes[e]
                        hp[s, :] = prm[e]
                    seed_state(st, key_dec, idx)
                    play_dealt(hands, dealer, rules, hc, hp, st, rec, h, tc)
                    for mt in range(2):
                        if mt == 0:
                            ya = rec[REC_SCORE] + rec[REC_SCORE + 2]
                            yb = rec[REC_SCORE + 1] + rec[REC_SCORE + 3]
                        else:
                            ya = 2 * rec[REC_TEAM]
                            yb = 2 * rec[REC_TEAM + 1]
                        X[mt, a] += ya
                        X[mt, b] += yb
                        off = mt * W + k + k * k
                        acc[off + a * k + a] += ya * ya
                        acc[off + b * k + b] += yb * yb
                        acc[off + a * k + b] += ya * yb
                        acc[off + b * k + a] += ya * yb
            for mt in range(2):
                add_sum_outer(acc, mt * W, X[mt], k)   # per deal (S and Q of the metric's block)
    out = np.zeros(L, np.int64)
    for ch in range(nch):
        out += part[ch]
    return out


# ============================================================================
# whole matches (rule 12)
# ============================================================================
MAX_MATCH_DEALS = 1000
# sim_matches aggregate: team points sum (2), sum of squares (2), wins (2), draws,
# deals played, extra (tie-break) deals, Booms, Meetjes
AGG_MATCHES = 11


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
        st = np.zeros(1, np.uint64)
        sd = np.zeros(1, np.uint64)
        deck = np.zeros(52, np.int64)
        pile = np.zeros(52, np.int64)
        hands = np.zeros(4, np.uint64)
        h = np.zeros(4, np.uint64)
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
            acc[0] += pts[0]
            acc[1] += pts[1]
            acc[2] += pts[0] * pts[0]
            acc[3] += pts[1] * pts[1]
            if pts[0] > pts[1]:
                acc[4] += 1
            elif pts[1] > pts[0]:
                acc[5] += 1
            else:
                acc[6] += 1
            acc[7] += nd
            acc[8] += extra
            acc[9] += booms
            acc[10] += meetjes
    out = np.zeros(AGG_MATCHES, np.int64)
    for ch in range(nch):
        out += part[ch]
    return out


@njit(cache=True, nogil=True)
def trace_match(key_deal, key_dec, m, rules, hcodes, hparams):
    """The records of every deal of match ``m`` exactly as ``sim_matches`` plays it, and
    (deals, extra deals, team-0 points, team-1 points)."""
    st = np.zeros(1, np.uint64)
    sd = np.zeros(1, np.uint64)
    deck = np.zeros(52, np.int64)
    pile = np.zeros(52, np.int64)
    hands = np.zeros(4, np.uint64)
    h = np.zeros(4, np.uint64)
    rec = np.zeros(REC_LEN, np.int64)
    pts = np.zeros(2, np.int64)
    cap = MAX_MATCH_DEALS + 1
    recs = np.zeros((cap, REC_LEN), np.int64)
    seed_state(sd, key_deal, m)
    seed_state(st, key_dec, m)
    nd, extra, booms, meetjes = play_match(sd, st, rules, hcodes, hparams, deck, pile, hands, h, rec, pts, recs,
                                           i64(0), i64(0), rules[R_MATCH_DEALS], i64(0))
    return recs[:nd].copy(), nd, extra, pts[0], pts[1]
