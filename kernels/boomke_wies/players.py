"""Boomke Wies players: the heuristic codes ``H_*``, the declaration of their parameters (``PARAMS``, columns
``P_*``), the valuation and the
bidding, and the card play."""
import numpy as np
from numba import njit

from ..cards import U0, U1, nth_card
from ..rng import below, uniform
from .rules import (ABOVE, ACES, ADD13, BIT13, BOOM, DECK, F1, F2, F4, F8, KINGS, MEETJE, PASS, QUEENS, RANKSET, SM,
                    SUITSET, bitc, high, low, pop)

# ---- heuristics -------------------------------------------------------------
H_RANDOM, H_PARTNER, H_NAIVE = 0, 1, 2
H_PIMC = 3   # the sampling player (kernels/boomke_wies/pimc.py): calls and cards by sampling worlds, played out by
# partner's rules with its own parameters

# ---- heuristic parameters: the one declaration ---------------------------------
# (name, default, lowest, highest, help).  A parameter's column of ``hparams`` (float64[4, N_PARAMS]) is its place
# here, and the decisions read it through the ``P_<NAME>`` constant below; analysis/boomke_wies/config.py builds
# the heuristics' parameters from this table (a heuristic may take other defaults).
PARAMS = (
    ("margin", 0.0, -3, 5, "bid a level only when the team's estimated tricks minus margin reach it"),
    ("ace", 1.0, 0, 2, "tricks counted per ace"),
    ("king", 0.75, 0, 2, "tricks counted per king with at least one more card of its suit"),
    ("queen", 0.4, 0, 2, "tricks counted per queen with at least two more cards of its suit"),
    ("trump_len", 0.75, 0, 2, "tricks counted per card of the longest suit (the intended trumps) beyond three"),
    ("short", 0.2, 0, 2, "ruffing value per singleton (twice per void) beside four or more trumps"),
    ("partner", 4.0, 0, 7, "tricks credited to a partner who has not spoken"),
    ("partner_passed", 3.4, 0, 7, "tricks credited to a partner who has passed"),
    ("partner_bid", 0.9, 0, 2, "share credited of what a partner's bid b implies (b + margin - partner)"),
    ("seven_margin", 0.5, -3, 6, "forced dealer: bid 7 when the team estimate reaches 7 + this, else Meetje"),
    ("boom_margin", 1.5, -3, 6, "bid Boom when the team estimate reaches 13 + this (always on a certain thirteen, "
                                "see sure_thirteen)"),
    ("overcall_partner", 0, 0, 1, "1: may overbid its own partner"),
    ("draw_trumps", 1, 0, 1, "1: the declaring side leads trumps while an opponent may hold one"),
    ("count", 1, 0, 1, "1: remembers every card played and who showed out; 0: sees only its hand and the trick"),
    ("ruff", 1, 0, 1, "1: trumps a trick the opponents are winning when void; 0: always discards"),
    ("bid_prob", 0.3, 0, 1, "chance of bidding (0-2 above the lowest legal bid) when it may"),
    # pimc (kernels/boomke_wies/pimc.py)
    ("worlds", 256, 1, 4096, "deals of the unseen cards sampled per card decision (an integer)"),
    ("bid_worlds", 128, 1, 4096, "deals of the other hands sampled per call (an integer)"),
    ("infer", 0, 0, 1, "1: keep only worlds whose hands would have made the calls heard (partner's bidding model); "
                       "0 (default): measured as strong and 7 times faster (docs/methods/sampling.md)"),
)
COLUMN = {p[0]: i for i, p in enumerate(PARAMS)}
N_PARAMS = len(PARAMS)
P_MARGIN, P_ACE, P_KING, P_QUEEN = COLUMN["margin"], COLUMN["ace"], COLUMN["king"], COLUMN["queen"]
P_TRUMP_LEN, P_SHORT, P_PARTNER = COLUMN["trump_len"], COLUMN["short"], COLUMN["partner"]
P_PARTNER_PASSED, P_PARTNER_BID = COLUMN["partner_passed"], COLUMN["partner_bid"]
P_SEVEN_MARGIN, P_BOOM_MARGIN = COLUMN["seven_margin"], COLUMN["boom_margin"]
P_OVERCALL_PARTNER = COLUMN["overcall_partner"]
P_DRAW_TRUMPS, P_COUNT, P_RUFF, P_BID_PROB = COLUMN["draw_trumps"], COLUMN["count"], COLUMN["ruff"], COLUMN["bid_prob"]
P_WORLDS, P_BID_WORLDS, P_INFER = COLUMN["worlds"], COLUMN["bid_worlds"], COLUMN["infer"]


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


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def sure_thirteen(hand, hparams, row):
    """True when the hand takes all thirteen tricks whatever the others hold and play (``thirteen_certain``),
    played with the parameters of row ``row`` of ``hparams``: its side cards are sure only with draw_trumps and
    count on. A sure hand holds the ace of every suit it holds (its trumps and its side cards run from their
    aces): that test, a few instructions inline in the caller, turns away nearly every hand (all but about 3 in
    1,000 random hands) before the parameters are read and the full test, a compiled call, is made; the auction
    asks at every call below 13."""
    return aces_of_its_suits(hand) and thirteen_certain(hand, hparams[row, P_DRAW_TRUMPS] > 0.5
                                                        and hparams[row, P_COUNT] > 0.5)


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def aces_of_its_suits(hand):
    """True when the hand holds the ace of every suit it holds (bit 12 of each non-empty 16-bit field)."""
    return ((field_nonzero(hand) >> U1) & ~hand) == U0


@njit(cache=True, nogil=True, _nrt=False)
def thirteen_certain(hand, draws_and_counts):
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
