"""Bourre kernels (RULES.md section 3): sessions of consecutive deals, pot growth, odds of a hand.

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
"""
import numpy as np
from numba import njit, prange

from tricksim.kernels.cards import U0, U1, SUIT_MASK, DECK52, popcount, lowest, highest, nth_card
from tricksim.kernels.rng import seed_state, below, uniform
from tricksim.kernels.tally import add_outer, add_sum_outer

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

# ---- heuristics -------------------------------------------------------------
H_RANDOM, H_BASIC, H_CINCH, H_EV = 0, 1, 2, 3
H_PIMC = 4   # the sampling player: plays cards (and, with decide > 0, decides play/pass and discards) by
# kernels/pimc_bourre.py; its other decisions as basic
(P_THRESHOLD, P_TRUMP_WEIGHT, P_TRUMP_RANK_WEIGHT, P_ACE_WEIGHT, P_KING_WEIGHT, P_DRAW_WEIGHT,
 P_POT_WEIGHT, P_POSITION_WEIGHT, P_DECLARED_WEIGHT, P_KEEP_KINGS, P_BOURRE_GUARD, P_SURE_WEIGHT,
 P_ANTE_MULT, P_LONO_RANK, P_PLAY_PROB, P_LONO_PROB,
 # ev's training settings (read by analysis/bourre/ev.py, which computes its table; not by the kernel)
 P_TRAIN_SESSIONS, P_TRAIN_DEALS, P_TRAIN_SEED, P_MAX_ITER, P_MIN_SAMPLES,
 # ev: how many cards to draw, 1 = by expected chips (``ev_best``), 0 = basic's discard; the
 # standard errors another draw must gain over basic's
 P_DRAW, P_DRAW_Z,
 # pimc: worlds sampled per card, the race margin (0 = off), how a world is scored, play/pass and discards
 # by sampling (0 = basic's, 1 = by sampling, 2 = by sampling over every discard) (kernels/pimc_bourre.py)
 P_WORLDS, P_RACE, P_EVAL, P_DECIDE) = range(27)
N_PARAMS = 27

# ---- the expected-value player (H_EV): its probability table --------------
# The play/pass decision and the draw of ``ev`` read P(win), P(tie), P(bourre) of playing from a
# table indexed by a hand class: the class of the cards it keeps (``ev_kept_class``: trumps kept
# 0..5, its highest trump none / 2-9 / T-J / Q-K / A, side aces 0..2+, side kings 0..1+, other side
# cards 0..3+; under Lo-No 2-3s, 4-5s and the rest; the cards drawn are 5 minus those kept),
# players who declared play before it (0..3+), position (first half, second half, dealer), pot /
# (players x ante) (<2, <4, <8, 8+).  For every draw count d the rules allow, ``ev_best`` keeps its
# 5 - d strongest cards (``ev_discard``) and reads the class; it plays the d of the highest
# expected chips when they are positive.  The table is data computed by tricksim
# (analysis/bourre/ev.py, fictitious play with ``sim_ev_train``); it travels in the seat's row of
# ``hparams``, columns EV_BASE .. EV_BASE + EV_LEN - 1 (EV_W per cell: p_win, p_tie, p_bourre,
# samples; p_win < 0 = no data: that draw is not weighed, and with no draw weighed the threshold rule of
# ``basic`` decides), so no kernel signature changes.  An ``hparams`` with an ev seat is
# therefore N_PARAMS + EV_LEN wide (analysis/game.py ``heuristic_arrays``).
EV_NT, EV_NTT, EV_NA, EV_NK, EV_NO = 6, 5, 3, 2, 4
EV_NKC = EV_NT * EV_NTT * EV_NA * EV_NK * EV_NO
EV_NNP, EV_NPOS, EV_NPOT = 4, 3, 4
EV_CELLS = EV_NKC * EV_NNP * EV_NPOS * EV_NPOT
EV_BASE = N_PARAMS
EV_W = 4
EV_LEN = EV_W * EV_CELLS
# training counts per cell (sim_ev_train): samples of playing, won, tied, bourre, decision
# points met in play, of which played
EV_STATS = 6
EV_SAMP, EV_WIN, EV_TIE, EV_BOU, EV_DEC, EV_PLAYED = range(6)

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
# sampling player's (kernels/pimc_bourre.py)
UW_LEN = 16 + 41 + 2810 + 90   # ... + its open-hand solver's workspace (pimc_bourre.PIMC_TT_BITS) + its draw decision's
IW_LEN = 24 + 100 + 26 + 3 + 356


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
# heuristics
# ============================================================================
@njit(cache=True, nogil=True, inline="always", _nrt=False)
def choose_discard(code, hp, me, hand, trump, upcard, is_dealer, lono, limit, st):
    """Cards to discard (rule 4). Keep trumps and aces (and kings with keep_kings),
    draw the rest, at most ``limit`` (the lowest are thrown first)."""
    if limit <= 0:
        return U0
    keepable = hand
    if lono and is_dealer and upcard >= 0:
        keepable = hand & ~bitc(upcard)     # the Lo-No up-card must be led: never discarded
    if code == H_RANDOM:
        d = below(st, limit + 1)
        rem = keepable
        out = U0
        for _ in range(d):
            k = popcount(rem)
            if k == 0:
                break
            c = nth_card(rem, below(st, k))
            out |= bitc(c)
            rem ^= bitc(c)
        return out
    if lono:
        # Lo-No: low cards win; keep 2..5
        disc = keepable & HIGH4
        while popcount(disc) > limit:
            disc ^= bitc(min_rank_card(disc))
        return disc
    keep = tmask(trump) | ACES
    if hp[me, P_KEEP_KINGS] > 0.5:
        keep |= KINGS
    disc = keepable & ~keep
    while popcount(disc) > limit:
        disc ^= bitc(max_rank_card(disc))   # keep the best of the rest
    return disc


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def estimate(hp, me, hand, trump, lono, ndisc):
    """Heuristic hand strength (roughly: expected tricks) before the draw."""
    if lono:
        v = hp[me, P_ACE_WEIGHT] * popcount(hand & LOW01) + hp[me, P_KING_WEIGHT] * popcount(hand & LOW23)
        return v + hp[me, P_DRAW_WEIGHT] * ndisc
    T = tmask(trump)
    side = hand & ~T
    v = hp[me, P_ACE_WEIGHT] * popcount(side & ACES) + hp[me, P_KING_WEIGHT] * popcount(side & KINGS)
    if trump >= 0:
        tf = (hand >> np.uint64(16 * trump)) & RANK_FIELD
        # sum of the trumps' rank indices, branch-free: bit j of every index, weighted 2**j
        rs = (popcount(tf & np.uint64(0x0AAA)) + 2 * popcount(tf & np.uint64(0x0CCC))
              + 4 * popcount(tf & np.uint64(0x10F0)) + 8 * popcount(tf & np.uint64(0x1F00)))
        v += hp[me, P_TRUMP_WEIGHT] * popcount(tf) + hp[me, P_TRUMP_RANK_WEIGHT] * rs * (1.0 / 12.0)
    return v + hp[me, P_DRAW_WEIGHT] * ndisc


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def choose_play(code, hp, me, hand, trump, lono, known_out, pos, k, nplay_before, pot, table_ante, disc, st):
    """Play (True) or pass: a strength estimate against a threshold that moves with the
    pot size, the position and how many have already declared play."""
    if code == H_RANDOM:
        return uniform(st) < hp[me, P_PLAY_PROB]
    if pos == k - 1 and nplay_before == 0:
        return True          # the dealer after all passed: a lone player wins the pot (rule 6)
    est = estimate(hp, me, hand, trump, lono, popcount(disc))
    if code == H_CINCH and trump >= 0 and not lono:
        T = SUIT_MASK[trump]
        O = T & ~hand & ~known_out
        sure = sure_tricks(hand & T, O, trump, 0)
        if sure >= 3:
            return True
        est += hp[me, P_SURE_WEIGHT] * sure
    thr = hp[me, P_THRESHOLD] + hp[me, P_DECLARED_WEIGHT] * nplay_before
    if k > 1:
        thr += hp[me, P_POSITION_WEIGHT] * pos / (k - 1.0)
    if hp[me, P_POT_WEIGHT] != 0.0 and pot > 0 and table_ante > 0:
        thr += hp[me, P_POT_WEIGHT] * np.log2(pot / table_ante)
    return est >= thr


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def ev_kept_class(kept, trump, lono):
    """The class of the cards ev keeps (0..EV_NKC-1): trumps 0..5, the highest trump (0 none,
    1 2-9, 2 T-J, 3 Q-K, 4 A), side aces 0..2+, side kings 0..1+, other side cards 0..3+;
    under Lo-No (no trumps) 2-3s count as aces, 4-5s as kings."""
    nt = 0
    tt = 0
    if lono:
        na = popcount(kept & LOW01)
        nk = popcount(kept & LOW23)
        no = popcount(kept) - na - nk
    else:
        T = tmask(trump)
        tf = kept & T
        nt = popcount(tf)
        if nt > 0:
            r = highest(tf) & 15
            tt = 4 if r == 12 else (3 if r >= 10 else (2 if r >= 8 else 1))
        side = kept & ~T
        na = popcount(side & ACES)
        nk = popcount(side & KINGS)
        no = popcount(side) - na - nk
    if na >= EV_NA:
        na = EV_NA - 1
    if nk >= EV_NK:
        nk = EV_NK - 1
    if no >= EV_NO:
        no = EV_NO - 1
    return (((nt * EV_NTT + tt) * EV_NA + na) * EV_NK + nk) * EV_NO + no


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def ev_cell(kc, pos, k, nplay_before, pot, table_ante):
    """The hand class of an ev decision (the table's cell): the kept cards' class
    (``ev_kept_class``), players who declared play before it (0..3+), position (first half,
    second half, dealer) and the pot over the table's antes (<2, <4, <8, 8+)."""
    npb = nplay_before if nplay_before < EV_NNP else EV_NNP - 1
    if pos == k - 1:
        pb = 2
    elif 2 * pos < k - 1:
        pb = 0
    else:
        pb = 1
    pt = 0
    lim = 2 * table_ante
    while pt < EV_NPOT - 1 and pot >= lim:
        pt += 1
        lim *= 2
    return ((kc * EV_NNP + npb) * EV_NPOS + pb) * EV_NPOT + pt


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def strongest_card(m, trump, lono):
    """ev's order of a hand: its strongest card (non-empty m): the highest trump, else the
    highest card (ties: lowest suit); under Lo-No the lowest card."""
    if lono:
        return min_rank_card(m)
    t = m & tmask(trump)
    if t != U0:
        return max_rank_card(t)
    return max_rank_card(m)


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def ev_discard(hand, trump, upcard, is_dealer, lono, d):
    """Discard d cards, keeping the strongest (``strongest_card``); the Lo-No dealer never
    discards the up-card (rule 18), so fewer when d exceeds what he may throw.  For d up to
    the number ``basic`` throws this is exactly ``basic``'s discard."""
    keepable = hand
    if lono and is_dealer and upcard >= 0:
        keepable = hand & ~bitc(upcard)
    disc = keepable
    while popcount(disc) > d:
        disc ^= bitc(strongest_card(disc, trump, lono))
    return disc


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def ev_gain(pw, pt, pb, pot, ante_amt, rules):
    """Expected chips of playing minus those of passing (0: a passer loses only his ante,
    already paid), given P(win), P(tie), P(bourre) of playing: the winner takes the pot (at
    most the limit, rule 15); a tie carries the pot over and saves the tied player his next
    ante (rule 13; divide_equally / tied_only_next_hand: half the pot, the common 2-2-1 tie);
    a bourre pays the pot (or the fixed penalty, rule 14) less the next ante it replaces
    (rule 2a); double_ante: playing costs the second ante, which the winner takes back."""
    lim = rules[R_POT_LIMIT]
    take = pot if (lim <= 0 or pot <= lim) else lim
    pen = rules[R_PENALTY]
    pay = take if pen < 0 else pen
    save = rules[R_ANTE] if rules[R_DEALER_ANTES_ALL] == 0 else 0
    tv = save if rules[R_TIE] == TIE_CARRY else take * 0.5
    a2 = ante_amt if rules[R_DOUBLE_ANTE] != 0 else 0
    return pw * (take + a2) + pt * tv - pb * (pay - save) - a2


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def ev_gain_var(pw, pt, pb, pot, ante_amt, rules):
    """The variance of one playing's chips (what ``ev_gain`` averages): won, tied, bourre or
    lost with tricks."""
    lim = rules[R_POT_LIMIT]
    take = pot if (lim <= 0 or pot <= lim) else lim
    pen = rules[R_PENALTY]
    pay = take if pen < 0 else pen
    save = rules[R_ANTE] if rules[R_DEALER_ANTES_ALL] == 0 else 0
    tv = save if rules[R_TIE] == TIE_CARRY else take * 0.5
    a2 = ante_amt if rules[R_DOUBLE_ANTE] != 0 else 0
    m1 = ev_gain(pw, pt, pb, pot, ante_amt, rules)
    pl = 1.0 - pw - pt - pb
    m2 = pw * take * take + pt * (tv - a2) ** 2 + pb * (pay - save + a2) ** 2 + pl * a2 * a2
    v = m2 - m1 * m1
    return v if v > 0.0 else 0.0


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def ev_best(hp, me, hand, trump, upcard, is_dealer, lono, limit, pos, k, nplay_before, pot, table_ante, ante_amt,
            bdisc, rules):
    """ev's best draw from its table: for every draw count d = 0..the limit (``max_discard``,
    the cards it may throw), keep the 5 - d strongest cards, read the class of (kept cards,
    ...) and its expected chips (``ev_gain``).  The table's estimates are noisy and the best of
    several noisy estimates is biased upwards, so a draw other than basic's (``bdisc``, itself
    the discard of some d) is scored by its expected chips less ``draw_z`` standard errors of
    its difference from basic's; the highest score wins.  With ``draw`` = 0 only basic's
    discard is weighed.  Returns (the chosen draw's expected chips, its discard, its cell);
    cell -1 = no class with data (the caller decides as basic)."""
    z = hp[me, P_DRAW_Z]
    # basic's draw: the reference
    cb = ev_cell(ev_kept_class(hand & ~bdisc, trump, lono), pos, k, nplay_before, pot, table_ante)
    ob = EV_BASE + EV_W * cb
    best_g = 0.0
    best_s = 0.0
    best_d = U0
    best_c = np.int64(-1)
    ref_v = -1.0
    if hp[me, ob] >= 0.0:
        best_g = ev_gain(hp[me, ob], hp[me, ob + 1], hp[me, ob + 2], pot, ante_amt, rules)
        best_s = best_g
        best_d = bdisc
        best_c = cb
        ref_v = ev_gain_var(hp[me, ob], hp[me, ob + 1], hp[me, ob + 2], pot, ante_amt, rules) / hp[me, ob + 3]
    if hp[me, P_DRAW] < 0.5:
        return best_g, best_d, best_c
    for d in range(limit + 1):
        disc = ev_discard(hand, trump, upcard, is_dealer, lono, d)
        if popcount(disc) < d:
            break                    # the Lo-No dealer may throw no more
        if disc == bdisc:
            continue
        c = ev_cell(ev_kept_class(hand & ~disc, trump, lono), pos, k, nplay_before, pot, table_ante)
        o = EV_BASE + EV_W * c
        pw = hp[me, o]
        if pw < 0.0:
            continue
        g = ev_gain(pw, hp[me, o + 1], hp[me, o + 2], pot, ante_amt, rules)
        sc = g
        if ref_v >= 0.0:
            sc = g - z * np.sqrt(ref_v + ev_gain_var(pw, hp[me, o + 1], hp[me, o + 2], pot, ante_amt, rules)
                                 / hp[me, o + 3])
        if best_c < 0 or sc > best_s:
            best_s = sc
            best_g = g
            best_d = disc
            best_c = c
    return best_g, best_d, best_c


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def decide(code, hp, me, hand, trump, upcard, is_dealer, lono, limit, known_out, pos, k, nplay_before, pot,
           table_ante, ante_amt, rules, st):
    """Every heuristic's discard and play/pass decision, (play, discard): ev the draw and the
    decision of the highest expected chips (``ev_best``: it plays when they are positive, with
    the discard they were computed for); a class without data and the dealer after all passed
    decide as ``basic``; the others ``choose_discard`` then ``choose_play``."""
    disc = choose_discard(code, hp, me, hand, trump, upcard, is_dealer, lono, limit, st)
    if code == H_EV:
        if not (pos == k - 1 and nplay_before == 0):
            g, d2, c = ev_best(hp, me, hand, trump, upcard, is_dealer, lono, limit, pos, k, nplay_before, pot,
                               table_ante, ante_amt, disc, rules)
            if c >= 0:
                return g > 0.0, d2
        code = H_BASIC
    play = choose_play(code, hp, me, hand, trump, lono, known_out, pos, k, nplay_before, pot, table_ante, disc, st)
    return play, disc


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def choose_card(code, hp, me, hand, legal, kpos, na, ls, win_card, trump, lono, played, won_s, st):
    """The card a seat plays among ``legal`` (the rules force much of it)."""
    if popcount(legal) == 1:
        return lowest(legal)
    if code == H_RANDOM:
        return nth_card(legal, below(st, popcount(legal)))
    T = tmask(trump)
    unseen = DECK52 & ~hand & ~played
    if kpos == 0:
        mytr = legal & T
        if mytr != U0:
            ht = highest(mytr)
            if (unseen & above_in_suit(ht)) == U0:
                return ht                      # boss trump: draw trumps
        side = legal & ~T
        if side != U0:
            for s in range(4):
                f = side & SUIT_MASK[s]
                if f == U0:
                    continue
                c = lowest(f) if lono else highest(f)
                if (unseen & better_in_suit(c, lono)) == U0:
                    return c                   # a boss side card
            if lono:
                return max_rank_card(side)
            return min_rank_card(side)
        return lowest(mytr)
    # following: the cards that would take the trick now
    win_is_trump = trump >= 0 and (win_card >> 4) == trump
    if win_is_trump:
        W = legal & T & above_in_suit(win_card)
    else:
        W = legal & better_in_suit(win_card, lono)
        if trump >= 0 and ls != trump:
            W |= legal & T
    if W == U0:
        side = legal & ~T
        if side != U0:
            if lono:
                return max_rank_card(side)
            return min_rank_card(side)
        return lowest(legal)
    # W lies in one suit (the suit led, or trumps)
    if kpos == na - 1:
        return highest(W) if lono else lowest(W)
    behind = na - 1 - kpos
    m = W
    while m != U0:
        c = highest(m) if lono else lowest(m)
        m ^= bitc(c)
        cs = c >> 4
        if (unseen & better_in_suit(c, lono)) != U0:
            continue
        if cs != trump and trump >= 0 and (unseen & T) != U0:
            if popcount(unseen & SUIT_MASK[cs]) < behind:
                continue                       # someone behind may be void and trump it
        return c
    if won_s == 0 and hp[me, P_BOURRE_GUARD] > 0.5:
        return lowest(W) if lono else highest(W)
    return highest(W) if lono else lowest(W)


@njit(cache=True, nogil=True, _nrt=False)
def choose_ante(code, hp, me, ante, st):
    """rule 2 'dealer_sets_ante': the dealer's ante for the deal."""
    mult = max(1, np.int64(hp[me, P_ANTE_MULT] + 0.5))
    if code == H_RANDOM:
        return ante * (1 + below(st, mult))
    return ante * mult


@njit(cache=True, nogil=True, _nrt=False)
def choose_lono(code, hp, me, upcard, st):
    if code == H_RANDOM:
        return uniform(st) < hp[me, P_LONO_PROB]
    return (upcard & 15) <= hp[me, P_LONO_RANK]


# ============================================================================
# one deal
# ============================================================================
@njit(cache=True, nogil=True, inline="always", _nrt=False)
def seat_order(players, dealer, inmask, iw):
    """iw[16:16+k] = the seats of ``inmask`` from the dealer's left, the dealer last; returns k."""
    k = 0
    s = dealer
    for _ in range(players):
        s += 1
        if s == players:
            s = 0
        if (inmask >> s) & 1:
            iw[16 + k] = s
            k += 1
    return k


DECK_IDS = np.array([(q // 13) * 16 + q % 13 for q in range(52)], np.int64)


@njit(cache=True, nogil=True, _nrt=False)
def deal_fresh(sd, players, dealer, inmask, hands, pool, rules, iw):
    """Rule 3: from the sorted 52-card pool, one card at a time from the dealer's
    left, five rounds; the dealer's 5th card is the up-card (or, with
    separate_turnup, the next card is turned up and belongs to no one).
    Returns (upcard, cards left in the pool)."""
    for q in range(52):
        pool[q] = DECK_IDS[q]
    for s in range(MAXP):
        hands[s] = U0
    k = seat_order(players, dealer, inmask, iw)
    m = 52
    up = -1
    for r in range(5):
        for i in range(k):
            s = iw[16 + i]
            c = draw_card(sd, pool, m)
            m -= 1
            hands[s] |= bitc(c)
            up = c
    if rules[R_TRUMP_CARD] == TRUMP_SEPARATE:
        up = draw_card(sd, pool, m)
        m -= 1
    return up, m


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def serve(sd, pool, m, hands, s, need, dead, rules, rec):
    """Deal ``need`` replacement cards to seat s from the stock, reshuffling when it
    runs out (rule 5).  ``dead`` = [folded hands, discards] not yet gathered (uint64[2]);
    the discards of the player now being served are not in it yet.
    Returns (drawn mask, cards left)."""
    drawn = U0
    for _ in range(need):
        if m == 0:
            if rules[R_RESHUFFLE] == RESHUF_WP and dead[0] != U0:
                m = fill_pool(pool, dead[0])
                dead[0] = U0
            else:
                m = fill_pool(pool, dead[0] | dead[1])
                dead[0] = U0
                dead[1] = U0
            rec[REC_NRESHUF] += 1
            if m == 0:
                break   # cannot happen with 52 cards (see RULES.md 3.1 rule 5 note in analysis)
        c = draw_card(sd, pool, m)
        m -= 1
        drawn |= bitc(c)
    hands[s] |= drawn
    return drawn, m


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def discard_and_draw(sd, pool, m, hands, s, disc, uw, rules, rec, at):
    """Seat s discards ``disc`` and is served; the discards join the gathered pile
    afterwards (rule 5: never the discards of the player being served), except a
    discarded face-up up-card, which stays out.  Returns the cards left in the stock."""
    hands[s] &= ~disc
    drawn, m = serve(sd, pool, m, hands, s, popcount(disc), uw, rules, rec)
    rec[at + 2] = np.int64(disc)
    rec[at + 3] = np.int64(drawn)
    if rec[REC_UPCARD] >= 0 and s == rec[REC_DEALER] and rules[R_TRUMP_CARD] == TRUMP_DEALER_FIFTH:
        disc &= ~bitc(rec[REC_UPCARD])
    uw[1] |= disc
    return m


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def must_play(is_dealer, lono, sep, upcard):
    """Rule 4: an Ace up-card forces the dealer to play (rule 18: so does Lo-No)."""
    return is_dealer and (lono or (not sep and (upcard & 15) == 12))


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def seat_decision(code, hp, row, is_dealer, h, trump, upcard, lono, sep, limit, known_out, i, k, nplay, pot,
                  table_ante, ante_amt, rules, st):
    """The (play, discard) of the seat that declares i-th of k with hand ``h``, as heuristic ``code`` decides with
    the parameters ``hp[row]`` (``decide``), the dealer's forced plays applied: after all passed he plays under
    all_pass = dealer_wins (rule 7, keeping his cards: he wins alone, rule 6), and ``must_play``."""
    if is_dealer and nplay == 0 and rules[R_ALL_PASS] == ALLPASS_DEALER_WINS:
        return True, U0
    play, disc = decide(code, hp, row, h, trump, upcard, is_dealer, lono, limit, known_out, i, k, nplay, pot,
                        table_ante, ante_amt, rules, st)
    if must_play(is_dealer, lono, sep, upcard):
        play = True
    return play, disc


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def declare(sd, pool, m, hands, s, i, play, disc, is_dealer, nplay, active, pot, a2, known_out, up_in_dealer,
            declare_first, sep, upcard, lono, uw, rules, rec):
    """Seat s, the i-th to declare (rule 4), plays discarding ``disc`` or passes: its entry in ``rec``, the second
    ante (rule 17), its draw in the default order (under declare_then_draw ``draw_declared`` serves it later; a
    dealer who alone plays keeps his cards), its folded hand when it passes (the dealer's up-card then stays out).
    ``uw[0:2]`` the cards not yet gathered (``serve``), ``uw[8 + s]`` its planned discard.
    Returns (no overflow, cards left, pot, active mask, players, cards known out, the dealer holds the up-card)."""
    if lono and is_dealer:
        disc &= ~bitc(upcard)
    uw[8 + s] = disc         # the planned discard (drawn now, or after all declared)
    rec[REC_DEC + 4 * i] = s
    rec[REC_DEC + 4 * i + 2] = 0
    rec[REC_DEC + 4 * i + 3] = 0
    if play:
        rec[REC_DEC + 4 * i + 1] = 1
        active |= 1 << s
        nplay += 1
        if a2 > 0:
            if a2 > OVF - pot:
                return False, m, pot, active, nplay, known_out, up_in_dealer
            pot += a2
            rec[REC_ANTE2 + s] = a2
        lone_known = is_dealer and nplay == 1
        if not declare_first and not lone_known and disc != U0:
            m = discard_and_draw(sd, pool, m, hands, s, disc, uw, rules, rec, REC_DEC + 4 * i)
            if is_dealer and not sep and (disc & bitc(upcard)) != U0:
                known_out |= bitc(upcard)        # the face-up card stays out (rule 4, 5)
                up_in_dealer = False
    else:
        rec[REC_DEC + 4 * i + 1] = 0
        fold = hands[s]
        if is_dealer and not sep:
            fold &= ~bitc(upcard)
            known_out |= bitc(upcard)
            up_in_dealer = False
        uw[0] |= fold
    return True, m, pot, active, nplay, known_out, up_in_dealer


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def draw_declared(sd, pool, m, hands, order, k, active, dealer, sep, upcard, known_out, up_in_dealer, uw, rules, rec):
    """declare_then_draw (rule 4): after all declared, the players (``active``) discard their planned cards
    (``uw[8 + s]``) and are served in the declaration order ``order[0:k]``.
    Returns (cards left, cards known out, the dealer holds the up-card)."""
    for i in range(k):
        s = order[i]
        disc = uw[8 + s]
        if (active >> s) & 1 and disc != U0:
            m = discard_and_draw(sd, pool, m, hands, s, disc, uw, rules, rec, REC_DEC + 4 * i)
            if s == dealer and not sep and (disc & bitc(upcard)) != U0:
                known_out |= bitc(upcard)
                up_in_dealer = False
    return m, known_out, up_in_dealer


# Compiled once, not inlined: the sampling player's declaration (kernels/pimc_bourre.py) replays these for every
# earlier and later seat of each world; inlining them at each of its call sites made a cold compile of the
# session kernels take minutes.  ``play_dealt`` keeps the inlined forms (they are on its hot path).
@njit(cache=True, nogil=True, _nrt=False)
def seat_decision_call(code, hp, row, is_dealer, h, trump, upcard, lono, sep, limit, known_out, i, k, nplay, pot,
                       table_ante, ante_amt, rules, st):
    return seat_decision(code, hp, row, is_dealer, h, trump, upcard, lono, sep, limit, known_out, i, k, nplay, pot,
                         table_ante, ante_amt, rules, st)


@njit(cache=True, nogil=True, _nrt=False)
def declare_call(sd, pool, m, hands, s, i, play, disc, is_dealer, nplay, active, pot, a2, known_out, up_in_dealer,
                 declare_first, sep, upcard, lono, uw, rules, rec):
    return declare(sd, pool, m, hands, s, i, play, disc, is_dealer, nplay, active, pot, a2, known_out, up_in_dealer,
                   declare_first, sep, upcard, lono, uw, rules, rec)


@njit(cache=True, nogil=True, _nrt=False)
def draw_declared_call(sd, pool, m, hands, order, k, active, dealer, sep, upcard, known_out, up_in_dealer, uw,
                       rules, rec):
    return draw_declared(sd, pool, m, hands, order, k, active, dealer, sep, upcard, known_out, up_in_dealer, uw,
                         rules, rec)


@njit(cache=True, nogil=True, _nrt=False)
def play_dealt(sd, st, players, dealer, inmask, pot, upcard, m, ante_amt, rules, hcodes, hparams, hands, pool,
               rec, fseat, fmode, fdisc, uw, iw, pimc=None):
    """Rules 4-15 on dealt hands: Lo-No call, pass/play and draw, the lone player,
    five tricks, settlement.  ``pot`` = the pot after this deal's antes.  Forced
    decision for the odds study and ev's training: seat ``fseat`` passes (fmode 0) or
    plays and discards ``fdisc`` (fmode 1); fmode -1 = its heuristic decides.
    Scratch: ``uw`` uint64[UW_LEN], ``iw`` int64[IW_LEN] (no allocation per deal).
    Fills rec; returns False when a chip amount would pass OVF (overflow).  ``pimc`` None (omitted): no seat is the
    sampling player, and numba prunes its branches, so the kernels that never seat it (pot, tail, ev training)
    do not compile it (minutes cold); True where a pimc seat may sit (compare, trace, odds)."""
    sep = rules[R_TRUMP_CARD] == TRUMP_SEPARATE
    trump = upcard >> 4
    lono = False
    if rules[R_LO_NO] != 0 and not sep and (upcard & 15) <= LONO_MAX_RANK:
        lono = choose_lono(hcodes[dealer], hparams, dealer, upcard, st)
    if lono:
        trump = -1
    rec[REC_UPCARD] = upcard
    rec[REC_TRUMP] = trump
    rec[REC_LONO] = 1 if lono else 0
    rec[REC_NRESHUF] = 0
    for s in range(MAXP):
        rec[REC_DEAL + s] = np.int64(hands[s])
        rec[REC_ANTE2 + s] = 0
        rec[REC_HANDS + s] = 0
        rec[REC_WON + s] = 0
        rec[REC_POT_WON + s] = 0
        rec[REC_BPAID + s] = 0
    known_out = bitc(upcard) if sep else U0   # a separate turn-up is seen by all
    up_in_dealer = not sep
    # declaration order: the in-deal seats from the dealer's left, dealer last (iw[16:24])
    k = seat_order(players, dealer, inmask, iw)
    limit = max_discard(players, rules)
    table_ante = max(1, ante_amt) * players
    uw[0] = U0          # folded hands not yet gathered
    uw[1] = U0          # discards not yet gathered
    akqm = U0
    if trump >= 0:
        akqm = np.uint64(0x1C00) << np.uint64(16 * trump)     # Q K A of trumps
    active = 0
    nplay = 0
    declare_first = rules[R_DECLARE_THEN_DRAW] != 0
    a2 = ante_amt if rules[R_DOUBLE_ANTE] != 0 else 0
    order = iw[16:24]
    for i in range(k):
        s = order[i]
        is_dealer = s == dealer
        h = hands[s]
        if s == fseat and fmode >= 0 and not (is_dealer and nplay == 0 and rules[R_ALL_PASS] == ALLPASS_DEALER_WINS):
            play = fmode >= 1
            disc = fdisc
            if must_play(is_dealer, lono, sep, upcard):
                play = True
        elif (pimc is not None and hcodes[s] == H_PIMC and hparams[s, P_DECIDE] > 0.5
              and not (is_dealer and nplay == 0 and rules[R_ALL_PASS] == ALLPASS_DEALER_WINS)):
            play, disc = _pimc.pimc_decide(rec, s, i, k, order, dealer, h, active, nplay, pot, a2, known_out,
                                           up_in_dealer, trump, lono, sep, upcard, limit, table_ante, ante_amt, rules,
                                           hparams, st, uw, iw)
        else:
            play, disc = seat_decision(hcodes[s], hparams, s, is_dealer, h, trump, upcard, lono, sep, limit, known_out,
                                       i, k, nplay, pot, table_ante, ante_amt, rules, st)
        ok, m, pot, active, nplay, known_out, up_in_dealer = declare(sd, pool, m, hands, s, i, play, disc, is_dealer,
                                                                     nplay, active, pot, a2, known_out, up_in_dealer,
                                                                     declare_first, sep, upcard, lono, uw, rules, rec)
        if not ok:
            return False
    if declare_first and nplay >= 2:
        m, known_out, up_in_dealer = draw_declared(sd, pool, m, hands, order, k, active, dealer, sep, upcard, known_out,
                                                   up_in_dealer, uw, rules, rec)
    rec[REC_NDEC] = k
    rec[REC_ACTIVE] = active
    rec[REC_NACTIVE] = nplay
    rec[REC_POT_STAKE] = pot
    rec[REC_UP_OUT] = 1 if (not sep and not up_in_dealer) else 0
    for s in range(MAXP):
        if (active >> s) & 1:
            rec[REC_HANDS + s] = np.int64(hands[s])
    rec[REC_NTRICKS] = 0
    rec[REC_TIED] = 0
    rec[REC_BOURRE] = 0
    rec[REC_WINNER] = -1
    lim = rules[R_POT_LIMIT]
    take = pot if (lim <= 0 or pot <= lim) else lim
    if nplay == 0:
        rec[REC_OUTCOME] = OUT_CARRY
        rec[REC_POT_AFTER] = pot
        return True
    if nplay == 1:
        w = lowest(np.uint64(active))
        rec[REC_OUTCOME] = OUT_LONE
        rec[REC_WINNER] = w
        rec[REC_POT_WON + w] = take
        rec[REC_POT_AFTER] = pot - take
        return True
    # ---- the play (rules 8-11); iw[0:8] = next active seat, iw[8:16] = A-K-Q holders ----
    first = -1
    prev = -1
    for i in range(k):
        s = iw[16 + i]
        if (active >> s) & 1:
            if first < 0:
                first = s
            else:
                iw[prev] = s
            prev = s
    iw[prev] = first
    leader = dealer if lono else first
    na = nplay
    T = tmask(trump)
    crule = rules[R_CINCH_RULE]
    if crule == CINCH_AKQ and trump >= 0:
        for s in range(MAXP):
            iw[8 + s] = 1 if ((active >> s) & 1 and (hands[s] & akqm) == akqm) else 0
    played = U0
    exempt_last = rules[R_CINCH_LAST_EXEMPT] != 0
    nlg = 0
    for t in range(5):
        base = REC_TRICKS + 10 * t
        rec[base] = leader
        for q in range(na, 8):
            rec[base + 1 + q] = -1
        ls = -1
        win_card = -1
        win_seat = leader
        s = leader
        for kpos in range(na):
            h = hands[s]
            cinch_applied = 0
            pagat = False          # is rule 11 (pagat) to be checked for this play?
            if kpos == 0:
                lg = h
                if lono and t == 0:
                    lg = bitc(upcard)
                elif trump >= 0 and (h & T) != U0:
                    if crule == CINCH_PAGAT:
                        pagat = True
                    elif crule == CINCH_HOYLE:
                        if (h & akqm) != U0:
                            lg = bitc(highest(h & T))
                            cinch_applied = 1
                    elif crule == CINCH_AKQ and iw[8 + s] != 0:
                        mine = h & akqm
                        if mine != U0:
                            lg = bitc(highest(mine))
                            cinch_applied = 1
            else:
                lg = legal_follow(h, ls, win_card, trump, lono, rules)
                # (a single legal card is always his highest trump when the cinch applies)
                pagat = (crule == CINCH_PAGAT and trump >= 0 and (lg & (lg - U1)) != U0 and (h & T) != U0
                         and (ls == trump or (h & SUIT_MASK[ls]) == U0)
                         and not (exempt_last and kpos == na - 1))
            if pagat and rec[REC_WON + s] + popcount(h & T) >= 3:
                eq = cinch_equiv(s, hands, active, played, known_out, trump, rules, rec[REC_WON + s], lg,
                                 win_card)
                if eq != U0:
                    x = lg & eq
                    lg = x if x != U0 else eq
                    cinch_applied = 1
            if pimc is not None and hcodes[s] == H_PIMC and (lg & (lg - U1)) != U0:
                c = _pimc.pimc_card(rec, s, h, lg, t, kpos, ls, win_card, win_seat, trump, lono, played, known_out,
                                    players, dealer, upcard, sep, pot, ante_amt, rules, hparams, nlg, st, uw, iw)
            else:
                c = choose_card(hcodes[s], hparams, s, h, lg, kpos, na, ls, win_card, trump, lono, played,
                                rec[REC_WON + s], st)
            rec[REC_LEGAL + nlg] = np.int64(lg)
            rec[REC_CINCH + nlg] = cinch_applied
            nlg += 1
            rec[base + 1 + kpos] = c
            b = bitc(c)
            hands[s] = h & ~b
            played |= b
            if kpos == 0:
                ls = c >> 4
                win_card = c
                win_seat = s
            else:
                cs = c >> 4
                wt = trump >= 0 and (win_card >> 4) == trump
                if trump >= 0 and cs == trump:
                    if not wt or c > win_card:
                        win_card = c
                        win_seat = s
                elif cs == ls and not wt:
                    if (c < win_card) if lono else (c > win_card):
                        win_card = c
                        win_seat = s
            s = iw[s]
        rec[base + 9] = win_seat
        rec[REC_WON + win_seat] += 1
        leader = win_seat
    rec[REC_NTRICKS] = 5
    return settle(pot, active, rec, rules)


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def settle(pot, active, rec, rules):
    """Rules 12-15 after five tricks: ``pot`` = the pot at stake (carry-over + antes +
    second antes), ``active`` = mask of the players who played, tricks in rec[REC_WON..].
    Fills outcome, winner, tied, pot_won, bourre payments and pot_after; returns False
    when the pot would pass OVF."""
    lim = rules[R_POT_LIMIT]
    take = pot if (lim <= 0 or pot <= lim) else lim
    best = -1
    for s in range(MAXP):
        if (active >> s) & 1 and rec[REC_WON + s] > best:
            best = rec[REC_WON + s]
    tied = 0
    nt = 0
    for s in range(MAXP):
        rec[REC_POT_WON + s] = 0
        rec[REC_BPAID + s] = 0
        if (active >> s) & 1 and rec[REC_WON + s] == best:
            tied |= 1 << s
            nt += 1
    after = pot
    rec[REC_TIED] = 0
    rec[REC_WINNER] = -1
    if nt == 1:
        w = lowest(np.uint64(tied))
        rec[REC_OUTCOME] = OUT_WIN
        rec[REC_WINNER] = w
        rec[REC_POT_WON + w] = take
        after -= take
    else:
        rec[REC_OUTCOME] = OUT_TIE
        rec[REC_TIED] = tied
        if rules[R_TIE] == TIE_DIVIDE:
            share = take // nt
            for s in range(MAXP):
                if (tied >> s) & 1:
                    rec[REC_POT_WON + s] = share
                    after -= share
    pen = rules[R_PENALTY]
    pay = take if pen < 0 else pen
    bmask = 0
    for s in range(MAXP):
        if (active >> s) & 1 and rec[REC_WON + s] == 0:
            bmask |= 1 << s
            rec[REC_BPAID + s] = pay
            if pay > OVF - after:
                return False
            after += pay
    rec[REC_BOURRE] = bmask
    rec[REC_POT_AFTER] = after
    return True


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def post_antes(players, inmask, exempt, dealer, amt, rules, rec):
    """Rule 2: everyone antes ``amt`` except the exempt seats (bourre or tied in the
    previous deal); the dealer pays them all with dealer_antes_for_all; nobody antes a
    tied_only_next_hand deal (``inmask`` not everyone).  Fills rec[REC_ANTES..];
    returns the chips added to the pot."""
    owed = 0
    for s in range(MAXP):
        rec[REC_ANTES + s] = 0
    if inmask == (1 << players) - 1:
        for s in range(players):
            if not (exempt >> s) & 1:
                owed += 1
                if rules[R_DEALER_ANTES_ALL] == 0:
                    rec[REC_ANTES + s] = amt
        if rules[R_DEALER_ANTES_ALL] != 0:
            rec[REC_ANTES + dealer] = amt * owed
    return amt * owed


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def next_deal(players, rec, rules):
    """Rules 2(a)(b), 13: (exempt mask, in-deal mask) of the next deal after this record.
    The tied players' exemption holds while the pot stays in the middle; a divided pot
    is paid out (divide_equally), so they ante like everyone else."""
    exempt = rec[REC_BOURRE]
    inmask = (1 << players) - 1
    if rec[REC_OUTCOME] == OUT_TIE:
        if rules[R_TIE] != TIE_DIVIDE:
            exempt |= rec[REC_TIED]
        if rules[R_TIE] == TIE_TIED_ONLY:
            inmask = rec[REC_TIED]
    return exempt, inmask


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def add_net(nets, s, x):
    """nets[s] += x unless it would pass +-OVF (then False)."""
    v = nets[s]
    if x > 0 and v > OVF - x:
        return False
    if x < 0 and v < -OVF - x:
        return False
    nets[s] = v + x
    return True


# ============================================================================
# sessions
# ============================================================================
# per-session summary row
(S_OVF, S_OVF_DEAL, S_MAXPOT, S_PASS10, S_PASS100, S_PASS1000, S_DEALS, S_CONS, S_ENDPOT) = range(9)
S_BOURRE = 9          # 9: deals with 0..8 bourre players
S_ACTIVE = 18         # 9: deals with 0..8 active players
S_OUT = 27            # 4: outcomes (win, tie, lone, carry)
S_NET = 31            # 8: seat nets at the end
S_SWIN = 39           # 8: deals won per seat (pot taken, share included)
S_SBOU = 47           # 8: bourre per seat
S_SPLAY = 55          # 8: deals played per seat
S_LEN = 63
PASS_MULT = np.array([10, 100, 1000], np.int64)


@njit(cache=True, nogil=True, _nrt=False)
def session_deal(ks_deal, ks_dec, sess, j, players, pot, inmask, exempt, rules, hcodes, hparams, rec, hands, pool, sd,
                 st, nets, uw, iw, pimc=None):
    """Deal ``j`` of a session in the state (``pot`` carried in, ``inmask`` the seats in the
    deal, ``exempt`` the seats that do not ante, ``nets`` int64[MAXP] the seat nets so far),
    its cards and decisions drawn from ``seed_state(ks_deal, j)`` / ``seed_state(ks_dec, j)``:
    antes (rule 2), the deal, the settlement.  Fills ``rec`` (the pot after it is
    rec[REC_POT_AFTER]; the next deal's exemptions come from ``next_deal``) and adds each
    seat's score to ``nets``.  Returns False (rec[REC_OVERFLOW] = 1) when a pot, payment or
    net would pass OVF.  Every session kernel (``play_session``, ``split_sessions``) plays
    its deals through this one function."""
    seed_state(sd, ks_deal, j)
    seed_state(st, ks_dec, j)
    dealer = j % players
    while not (inmask >> dealer) & 1:
        dealer = (dealer + 1) % players
    rec[REC_SESSION] = sess
    rec[REC_DEAL_IDX] = j
    rec[REC_N] = players
    rec[REC_DEALER] = dealer
    rec[REC_INMASK] = inmask
    rec[REC_POT_BEFORE] = pot
    rec[REC_EXEMPT] = exempt
    rec[REC_OVERFLOW] = 0
    ok = True
    # ---- antes (rule 2) ----
    ante = rules[R_ANTE]
    amt = ante
    if rules[R_DEALER_SETS_ANTE] != 0 and j > 0:
        amt = choose_ante(hcodes[dealer], hparams, dealer, ante, st)
    rec[REC_ANTE_AMT] = amt
    for s in range(MAXP):
        rec[REC_SCORE + s] = 0
    tot = post_antes(players, inmask, exempt, dealer, amt, rules, rec)
    if tot > OVF - pot:
        ok = False
    else:
        pot += tot
    if ok:
        upcard, m = deal_fresh(sd, players, dealer, inmask, hands, pool, rules, iw)
        ok = play_dealt(sd, st, players, dealer, inmask, pot, upcard, m, amt, rules, hcodes, hparams, hands,
                        pool, rec, NO_SEAT, NO_SEAT, U0, uw, iw, pimc)
    if ok:
        for s in range(players):
            x = rec[REC_POT_WON + s] - rec[REC_ANTES + s] - rec[REC_ANTE2 + s] - rec[REC_BPAID + s]
            rec[REC_SCORE + s] = x
            if not add_net(nets, s, x):
                ok = False
    if not ok:
        rec[REC_OVERFLOW] = 1
    return ok


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def session_start(key_deal, key_dec, sess, players, sd, st, nets):
    """The start of session ``sess`` in every session kernel: the seat nets at 0; returns its deal and
    decision keys (``session_deal``'s ``ks_deal``, ``ks_dec``), the pot (0), who is in the deal (everyone)
    and who is exempt from the ante (nobody)."""
    seed_state(sd, key_deal, sess)
    seed_state(st, key_dec, sess)
    for s in range(MAXP):
        nets[s] = 0
    return sd[0], st[0], np.int64(0), (1 << players) - 1, 0


@njit(cache=True, nogil=True)
def session_scratch():
    """One thread's scratch for ``session_deal``: hands, pool, sd, st, nets, uw, iw, rec."""
    return (np.zeros(MAXP, np.uint64), np.zeros(52, np.int64), np.zeros(1, np.uint64), np.zeros(1, np.uint64),
            np.zeros(MAXP, np.int64), np.zeros(UW_LEN, np.uint64), np.zeros(IW_LEN, np.int64),
            np.zeros(REC_LEN, np.int64))


@njit(cache=True, nogil=True, _nrt=False)
def play_session(key_deal, key_dec, sess, players, D, rules, hcodes, hparams, recs, record, srow, fanrow,
                 stride, hands, pool, sd, st, nets, uw, iw, pimc=None):
    """Deals 0..D-1 of session ``sess``: antes (rule 2), the deal, the settlement, the
    pot carried on.  Fills the summary row ``srow`` (int64[S_LEN]) and the pot contested
    (carry-over + antes + second antes) at each fan point (``fanrow``,
    int64[ceil(D/stride)], deal min(D-1, (f+1)*stride-1); -1 = overflowed).  With
    ``record`` the deal records go to recs[j], else all to recs[0]."""
    for q in range(S_LEN):
        srow[q] = 0
    nfan = fanrow.shape[0]
    for f in range(nfan):
        fanrow[f] = -1
    ks_deal, ks_dec, pot, inmask, exempt = session_start(key_deal, key_dec, sess, players, sd, st, nets)
    ante = rules[R_ANTE]
    unit = max(ante, 1)
    srow[S_PASS10] = D
    srow[S_PASS100] = D
    srow[S_PASS1000] = D
    maxpot = np.int64(0)
    for j in range(D):
        rec = recs[j] if record else recs[0]
        if not session_deal(ks_deal, ks_dec, sess, j, players, pot, inmask, exempt, rules, hcodes, hparams, rec, hands,
                            pool, sd, st, nets, uw, iw, pimc):
            srow[S_OVF] = 1
            srow[S_OVF_DEAL] = j
            for p in range(3):
                if srow[S_PASS10 + p] == D:
                    srow[S_PASS10 + p] = j
            break
        stake = rec[REC_POT_STAKE]
        pot = rec[REC_POT_AFTER]
        srow[S_DEALS] += 1
        # statistics of the deal
        hi = stake if stake > pot else pot
        if hi > maxpot:
            maxpot = hi
        for p in range(3):
            if srow[S_PASS10 + p] == D and hi > PASS_MULT[p] * unit:
                srow[S_PASS10 + p] = j
        if (j + 1) % stride == 0 or j == D - 1:
            fanrow[j // stride] = stake
        srow[S_BOURRE + popcount(np.uint64(rec[REC_BOURRE]))] += 1
        srow[S_ACTIVE + rec[REC_NACTIVE]] += 1
        srow[S_OUT + rec[REC_OUTCOME]] += 1
        act = rec[REC_ACTIVE]
        for s in range(players):
            if (act >> s) & 1:
                srow[S_SPLAY + s] += 1
            if rec[REC_POT_WON + s] > 0:
                srow[S_SWIN + s] += 1
            if (rec[REC_BOURRE] >> s) & 1:
                srow[S_SBOU + s] += 1
        # exemptions and who contests the next deal (rules 2, 13)
        exempt, inmask = next_deal(players, rec, rules)
    srow[S_MAXPOT] = maxpot
    srow[S_ENDPOT] = pot
    tot = pot
    for s in range(players):
        srow[S_NET + s] = nets[s]
        tot += nets[s]
    if srow[S_OVF] == 0 and tot != 0:
        srow[S_CONS] = 1
    return srow[S_OVF] == 0


@njit(cache=True, nogil=True, parallel=True)
def sim_sessions(key_deal, key_dec, first, ns, players, D, stride, rules, hcodes, hparams, srows, fans):
    """Sessions first..first+ns-1; fills srows[ns, S_LEN] and fans[ns, nfan]."""
    CH = 8
    nch = (ns + CH - 1) // CH
    for ch in prange(nch):
        hands, pool, sd, st, nets, uw, iw, rec = session_scratch()
        recs = rec.reshape((1, REC_LEN))
        for i in range(ch * CH, min(ns, (ch + 1) * CH)):
            play_session(key_deal, key_dec, first + i, players, D, rules, hcodes, hparams, recs, False, srows[i],
                         fans[i], stride, hands, pool, sd, st, nets, uw, iw)


@njit(cache=True, nogil=True)
def trace_sessions(key_deal, key_dec, first, ns, players, D, rules, hcodes, hparams):
    """The deal records of sessions first..first+ns-1 exactly as ``sim_sessions`` plays
    them: int64[ns, D, REC_LEN] (deals after an overflow stay zero) and the summary rows."""
    out = np.zeros((ns, D, REC_LEN), np.int64)
    srows = np.zeros((ns, S_LEN), np.int64)
    fan = np.zeros(D, np.int64)
    hands = np.zeros(MAXP, np.uint64)
    pool = np.zeros(52, np.int64)
    sd = np.zeros(1, np.uint64)
    st = np.zeros(1, np.uint64)
    nets = np.zeros(MAXP, np.int64)
    uw = np.zeros(UW_LEN, np.uint64)
    iw = np.zeros(IW_LEN, np.int64)
    for i in range(ns):
        play_session(key_deal, key_dec, first + i, players, D, rules, hcodes, hparams, out[i], True, srows[i], fan,
                     1, hands, pool, sd, st, nets, uw, iw, True)
    return out, srows


# ---- reduction of a block of sessions into the study's int64 vector ---------
NB = 497                          # pot bins: exact 0..31, then 8 per octave up to 2**62; 496 = overflow
BIN_OVF = NB - 1
DOWN_MULT = np.array([10, 100, 1000, 10000, 1000000], np.int64)


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def pot_bin(p):
    if p < 32:
        return p if p > 0 else 0
    h = highest(np.uint64(p))
    return 32 + (h - 5) * 8 + ((p >> (h - 3)) & 7)


@njit(cache=True, nogil=True)
def reduce_sessions(srows, fans, players, D, o_fan, o_max, o_end, o_pass, o_bou, o_act, o_out, o_misc, o_seat,
                    o_neth, length, unit):
    out = np.zeros(length, np.int64)
    ns = srows.shape[0]
    nfan = fans.shape[1]
    for i in range(ns):
        r = srows[i]
        ovf = r[S_OVF] != 0
        for f in range(nfan):
            v = fans[i, f]
            b = BIN_OVF if v < 0 else pot_bin(v)
            out[o_fan + f * NB + b] += 1
        out[o_max + (BIN_OVF if ovf else pot_bin(r[S_MAXPOT]))] += 1
        out[o_end + (BIN_OVF if ovf else pot_bin(r[S_ENDPOT]))] += 1
        for p in range(3):
            out[o_pass + p * (D + 1) + r[S_PASS10 + p]] += 1
        for q in range(9):
            out[o_bou + q] += r[S_BOURRE + q]
            out[o_act + q] += r[S_ACTIVE + q]
        for q in range(4):
            out[o_out + q] += r[S_OUT + q]
        out[o_misc] += 1
        out[o_misc + 3] += r[S_DEALS]
        if ovf:
            out[o_misc + 1] += 1
            out[o_misc + 4] += r[S_OVF_DEAL]
            continue
        out[o_misc + 5] += 1
        out[o_misc + 2] += r[S_CONS]
        for s in range(players):
            x = r[S_NET + s]
            so = o_seat + 10 * s
            out[so] += x >> 32
            out[so + 1] += x & 0xFFFFFFFF
            for p in range(5):
                if x < -DOWN_MULT[p] * unit:
                    out[so + 2 + p] += 1
            out[so + 7] += r[S_SWIN + s]
            out[so + 8] += r[S_SBOU + s]
            out[so + 9] += r[S_SPLAY + s]
            if x < 0:
                out[o_neth + (2 * s) * NB + pot_bin(-x)] += 1
            else:
                out[o_neth + (2 * s + 1) * NB + pot_bin(x)] += 1
    return out


# ============================================================================
# odds of one hand before the draw
# ============================================================================
# per choice: cells [category 0..5][players who played 0..8][tied 0..8] + exact sum of chips
ODDS_CATS = 6              # 0 passed, 1 won, 2 lone win, 3 tied, 4 lost with tricks, 5 bourre
ODDS_CELLS = ODDS_CATS * 9 * 9
ODDS_STRIDE = ODDS_CELLS + 1


@njit(cache=True, nogil=True, _nrt=False)
def odds_outcome(rec, seat):
    act = rec[REC_ACTIVE]
    if not (act >> seat) & 1:
        return 0
    oc = rec[REC_OUTCOME]
    if oc == OUT_LONE:
        return 2
    if (rec[REC_BOURRE] >> seat) & 1:
        return 5
    if oc == OUT_WIN:
        return 1 if rec[REC_WINNER] == seat else 4
    if (rec[REC_TIED] >> seat) & 1:
        return 3
    return 4


@njit(cache=True, nogil=True, _nrt=False)
def deal_around(sd, key_deal, idx, players, dealer, seat, fixed, upcard, sep, h0, p0, iw):
    """Deal ``idx`` of the odds of one hand (``sim_odds``, kernels/odds_bourre.py): ``seat`` holds ``fixed``,
    the dealer the up-card as his 5th card (a separate turn-up belongs to no one), the other cards drawn one at
    a time from the dealer's left out of the pool of the unseen cards (the stream ``seed_state(key_deal,
    idx)`` left in ``sd`` for the draw).  Fills ``h0`` (uint64[8]) and ``p0`` (the stock); returns its size."""
    seed_state(sd, key_deal, idx)
    m = fill_pool(p0, DECK52 & ~(fixed | bitc(upcard)))
    for s in range(MAXP):
        h0[s] = U0
    h0[seat] = fixed
    seat_order(players, dealer, (1 << players) - 1, iw)
    for r in range(5):
        for q in range(players):
            s = iw[16 + q]
            if s == seat:
                continue
            if s == dealer and r == 4 and not sep:
                h0[s] |= bitc(upcard)
                continue
            c = draw_card(sd, p0, m)
            m -= 1
            h0[s] |= bitc(c)
    return m


@njit(cache=True, nogil=True, parallel=True)
def sim_odds(key_deal, key_dec, first, nsamp, players, seat, fixed, upcard, pot0, cmode, cdisc, rules, hcodes,
             hparams):
    """Random deals of the unseen cards around ``fixed`` (seat ``seat``, dealer players-1,
    everyone antes); every choice of cmode/cdisc is played on the same deal (common
    random numbers: the same stock and the same decision stream).  Returns
    int64[nc * ODDS_STRIDE]."""
    nc = cmode.shape[0]
    CH = 1024
    nch = (nsamp + CH - 1) // CH
    part = np.zeros((nch, nc * ODDS_STRIDE), np.int64)
    dealer = players - 1
    sep = rules[R_TRUMP_CARD] == TRUMP_SEPARATE
    ante = rules[R_ANTE]
    for ch in prange(nch):
        hands = np.zeros(MAXP, np.uint64)
        h0 = np.zeros(MAXP, np.uint64)
        pool = np.zeros(52, np.int64)
        p0 = np.zeros(52, np.int64)
        sd = np.zeros(1, np.uint64)
        st = np.zeros(1, np.uint64)
        uw = np.zeros(UW_LEN, np.uint64)
        iw = np.zeros(IW_LEN, np.int64)
        rec = np.zeros(REC_LEN, np.int64)
        acc = part[ch]
        for i in range(ch * CH, min(nsamp, (ch + 1) * CH)):
            idx = first + i
            m = deal_around(sd, key_deal, idx, players, dealer, seat, fixed, upcard, sep, h0, p0, iw)
            sd0 = sd[0]
            for ci in range(nc):
                cat, npl, nt, x = odds_playout(sd, sd0, st, key_dec, idx, players, dealer, seat, h0, p0, m, hands, pool,
                                               pot0 + ante * players, upcard, ante, rules, hcodes, hparams, rec,
                                               cmode[ci], cdisc[ci], uw, iw)
                acc[ci * ODDS_STRIDE + (cat * 9 + npl) * 9 + nt] += 1
                acc[ci * ODDS_STRIDE + ODDS_CELLS] += x
    return part.sum(axis=0)


@njit(cache=True, nogil=True, _nrt=False)
def odds_playout(sd, sd0, st, key_dec, idx, players, dealer, seat, h0, p0, m, hands, pool, pot, upcard, ante, rules,
                 hcodes, hparams, rec, mode, disc, uw, iw):
    """One choice (``mode``, ``disc``) played on deal ``idx`` of the odds as ``deal_around`` dealt it (the
    hands ``h0``, the stock ``p0[:m]``, the draw stream state ``sd0``), from the deal's decision stream.
    Returns the seat's (category, players active, players tied, chips) (``odds_outcome``)."""
    for s in range(MAXP):
        hands[s] = h0[s]
    for q in range(m):
        pool[q] = p0[q]
    sd[0] = sd0
    seed_state(st, key_dec, idx)
    play_dealt(sd, st, players, dealer, (1 << players) - 1, pot, upcard, m, ante, rules, hcodes, hparams, hands,
               pool, rec, seat, mode, np.uint64(disc), uw, iw, True)
    cat = odds_outcome(rec, seat)
    nt = popcount(np.uint64(rec[REC_TIED])) if cat == 3 else 0
    return cat, rec[REC_NACTIVE], nt, rec[REC_POT_WON + seat] - rec[REC_ANTE2 + seat] - rec[REC_BPAID + seat]


# ============================================================================
# duplicate comparison: the seatings of a balanced design on the same deal
# ============================================================================
@njit(cache=True, nogil=True, parallel=True)
def sim_duplicate(key_deal, key_dec, first, nd, players, seat_codes, seat_params, seat_ids, k, nround, pot0, rules):
    """Deal idx (dealer players-1, a fresh deal: pot0 carried over, everyone antes) is played
    once per seating of round c = idx % nround (rows c*k .. c*k+k-1 of ``seat_ids``,
    ``seat_codes``, ``seat_params``: entrant, heuristic code and parameters of each seat;
    a round puts every entrant in every seat once, analysis/compare.py ``design``); every
    playout gets the same cards and draws and its own decision stream (so two random
    entrants are independent draws of the same player).  Returns int64[nround + nround *
    (k + 2*k*k) + nround*k*k]: the deals of each round n_c, then per round S_c[h] =
    sum_d X_h(d), Q_c[a, b] = sum_d X_a(d) X_b(d), P_c[a, b] = sum_d sum_r Y_a(d, r)
    Y_b(d, r), then M[r, h] = sum_d Y_h(d, r), where Y_h(d, r) = chips (score_delta) of
    entrant h's seats in playout r and X_h = sum_r Y_h."""
    kk = k * k
    per_round = k + 2 * kk
    m0 = nround + nround * per_round
    width = m0 + nround * kk
    CH = 512
    for r in range(seat_codes.shape[0]):
        for s in range(players):
            if seat_codes[r, s] == H_PIMC:
                CH = 4           # a sampling seat: small chunks balance the threads (integer sums: same result)
    nch = (nd + CH - 1) // CH
    part = np.zeros((nch, width), np.int64)
    dealer = players - 1
    ante = rules[R_ANTE]
    allm = (1 << players) - 1
    for ch in prange(nch):
        hands = np.zeros(MAXP, np.uint64)
        pool = np.zeros(52, np.int64)
        sd = np.zeros(1, np.uint64)
        st = np.zeros(1, np.uint64)
        uw = np.zeros(UW_LEN, np.uint64)
        iw = np.zeros(IW_LEN, np.int64)
        rec = np.zeros(REC_LEN, np.int64)
        X = np.zeros(k, np.int64)
        Y = np.zeros(k, np.int64)
        acc = part[ch]
        for i in range(ch * CH, min(nd, (ch + 1) * CH)):
            idx = first + i
            c = idx % nround
            acc[c] += 1
            o = nround + c * per_round
            for h in range(k):
                X[h] = 0
            for j in range(k):
                r = c * k + j
                hc = seat_codes[r]          # views (an ev seat's row is N_PARAMS + EV_LEN wide: no copy)
                hp = seat_params[r]
                seed_state(sd, key_deal, idx)
                seed_state(st, key_dec, idx)
                seed_state(st, st[0], j)
                upcard, m = deal_fresh(sd, players, dealer, allm, hands, pool, rules, iw)
                pot = pot0 + ante * players
                play_dealt(sd, st, players, dealer, allm, pot, upcard, m, ante, rules, hc, hp, hands, pool,
                           rec, NO_SEAT, NO_SEAT, U0, uw, iw, True)
                for h in range(k):
                    Y[h] = 0
                for s in range(players):
                    paid = ante
                    if rules[R_DEALER_ANTES_ALL] != 0:
                        paid = ante * players if s == dealer else 0
                    Y[seat_ids[r, s]] += rec[REC_POT_WON + s] - paid - rec[REC_ANTE2 + s] - rec[REC_BPAID + s]
                for a in range(k):
                    X[a] += Y[a]
                    acc[m0 + r * k + a] += Y[a]
                add_outer(acc, o + k + kk, Y, k)   # per playout (P of the block)
            add_sum_outer(acc, o, X, k)            # per deal (S and Q of the block)
    return part.sum(axis=0)


# ============================================================================
# ev training (analysis/bourre/ev.py): one iteration of the fictitious play
# ============================================================================
EV_GLOBAL = 2          # after the cells' counts: decisions met, decisions the previous players make otherwise


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def ev_outcome(rec, s):
    """What playing brought seat s (who played): 0 won (a lone win too), 1 tied, 2 bourre,
    3 lost with tricks."""
    oc = rec[REC_OUTCOME]
    if (oc == OUT_WIN or oc == OUT_LONE) and rec[REC_WINNER] == s:
        return 0
    if oc == OUT_TIE and (rec[REC_TIED] >> s) & 1:
        return 1
    if (rec[REC_BOURRE] >> s) & 1:
        return 2
    return 3


@njit(cache=True, nogil=True, parallel=True)
def sim_ev_train(key_deal, key_dec, key_x, first, ns, players, D, rules, hcodes, hparams, pparams):
    """Sessions first..first+ns-1 of D deals (as ``play_session`` plays them: antes, the
    pot carried on) played by ``hcodes``/``hparams``.  In every deal each real play/pass
    decision (not the dealer's forced ones) is counted in its class (EV_DEC, EV_PLAYED), and
    whether the previous players (``pparams``, same codes) would have decided otherwise (play
    or pass, or the discard of a play); one decision point drawn on the stream ``key_x`` is
    sampled twice: the outcome of playing with its own discard, and (``draw`` = 1) of playing
    with a draw count drawn uniformly (same stream) from those the rules allow, keeping its
    strongest cards (``ev_discard``), when that is another discard; each the real outcome if
    that is what the seat did, else the deal replayed from the same cards, stock and decision
    stream with that seat playing that discard (the counterfactual, as the odds study plays a
    choice); counted in the class of (kept cards, ...).  Returns int64[EV_CELLS * EV_STATS + EV_GLOBAL]; the chunks of sessions (at most 32,
    their sizes from ns alone) make it the same on any thread count."""
    CH = max(8, (ns + 31) // 32)
    nch = (ns + CH - 1) // CH
    width = EV_CELLS * EV_STATS + EV_GLOBAL
    part = np.zeros((nch, width), np.int64)
    sep = rules[R_TRUMP_CARD] == TRUMP_SEPARATE
    limit = max_discard(players, rules)
    allm = (1 << players) - 1
    g0 = EV_CELLS * EV_STATS
    for ch in prange(nch):
        hands = np.zeros(MAXP, np.uint64)
        h0 = np.zeros(MAXP, np.uint64)
        pool = np.zeros(52, np.int64)
        p0 = np.zeros(52, np.int64)
        sd = np.zeros(1, np.uint64)
        st = np.zeros(1, np.uint64)
        sx = np.zeros(1, np.uint64)
        uw = np.zeros(UW_LEN, np.uint64)
        iw = np.zeros(IW_LEN, np.int64)
        rec = np.zeros(REC_LEN, np.int64)
        rec2 = np.zeros(REC_LEN, np.int64)
        cells = np.zeros(MAXP, np.int64)
        nbs = np.zeros(MAXP, np.int64)
        discs = np.zeros(MAXP, np.uint64)
        acc = part[ch]
        for i in range(ch * CH, min(ns, (ch + 1) * CH)):
            sess = first + i
            seed_state(sd, key_deal, sess)
            ks_deal = sd[0]
            seed_state(st, key_dec, sess)
            ks_dec = st[0]
            seed_state(sx, key_x, sess)
            ks_x = sx[0]
            inmask = allm
            exempt = 0
            pot = np.int64(0)
            ante = rules[R_ANTE]
            for j in range(D):
                seed_state(sd, ks_deal, j)
                seed_state(st, ks_dec, j)
                seed_state(sx, ks_x, j)
                dealer = j % players
                while not (inmask >> dealer) & 1:
                    dealer = (dealer + 1) % players
                rec[REC_DEALER] = dealer
                rec2[REC_DEALER] = dealer
                amt = ante
                if rules[R_DEALER_SETS_ANTE] != 0 and j > 0:
                    amt = choose_ante(hcodes[dealer], hparams, dealer, ante, st)
                tot = post_antes(players, inmask, exempt, dealer, amt, rules, rec)
                if tot > OVF - pot:
                    break
                pot += tot
                upcard, m = deal_fresh(sd, players, dealer, inmask, hands, pool, rules, iw)
                for s in range(MAXP):
                    h0[s] = hands[s]
                for q in range(m):
                    p0[q] = pool[q]
                sd0 = sd[0]
                st0 = st[0]
                if not play_dealt(sd, st, players, dealer, inmask, pot, upcard, m, amt, rules, hcodes, hparams, hands,
                                  pool, rec, NO_SEAT, NO_SEAT, U0, uw, iw):
                    break
                # the decisions as play_dealt met them (declaration order, dealt hands)
                k = rec[REC_NDEC]
                trump = rec[REC_TRUMP]
                lono = rec[REC_LONO] != 0
                ko = bitc(upcard) if sep else U0
                table_ante = max(1, amt) * players
                a2 = amt if rules[R_DOUBLE_ANTE] != 0 else 0
                ace_up = not sep and (upcard & 15) == 12
                nb = 0
                for q in range(k):
                    s = rec[REC_DEC + 4 * q]
                    pl = rec[REC_DEC + 4 * q + 1] != 0
                    cells[q] = -1
                    is_dealer = s == dealer
                    if not (is_dealer and (lono or ace_up or nb == 0)):
                        h = np.uint64(rec[REC_DEAL + s])
                        potq = pot + a2 * nb
                        cur, disc = decide(hcodes[s], hparams, s, h, trump, upcard, is_dealer, lono, limit, ko, q, k,
                                           nb, potq, table_ante, amt, rules, st)
                        c = ev_cell(ev_kept_class(h & ~disc, trump, lono), q, k, nb, potq, table_ante)
                        cells[q] = c
                        discs[q] = disc
                        nbs[q] = nb
                        acc[c * EV_STATS + EV_DEC] += 1
                        if pl:
                            acc[c * EV_STATS + EV_PLAYED] += 1
                        prev, pdisc = decide(hcodes[s], pparams, s, h, trump, upcard, is_dealer, lono, limit, ko, q,
                                             k, nb, potq, table_ante, amt, rules, st)
                        acc[g0] += 1
                        if prev != pl or (pl and pdisc != disc):
                            acc[g0 + 1] += 1
                    if pl:
                        nb += 1
                q = below(sx, k)
                if cells[q] >= 0:
                    s = rec[REC_DEC + 4 * q]
                    h = np.uint64(rec[REC_DEAL + s])
                    potq = pot + a2 * nbs[q]
                    for ps in range(2):
                        dsel = discs[q]          # 0: its own discard
                        if ps == 1:              # 1: explore a draw count drawn uniformly (if not its own)
                            if hparams[s, P_DRAW] < 0.5:
                                break
                            dsel = ev_discard(h, trump, upcard, s == dealer, lono, below(sx, limit + 1))
                            if dsel == discs[q]:
                                break
                        c = ev_cell(ev_kept_class(h & ~dsel, trump, lono), q, k, nbs[q], potq, table_ante)
                        o = -1
                        if rec[REC_DEC + 4 * q + 1] != 0 and dsel == discs[q]:
                            o = ev_outcome(rec, s)
                        else:            # replayed from the same cards, stock and decision stream
                            for t in range(MAXP):
                                hands[t] = h0[t]
                            for t in range(m):
                                pool[t] = p0[t]
                            sd[0] = sd0
                            st[0] = st0
                            if play_dealt(sd, st, players, dealer, inmask, pot, upcard, m, amt, rules, hcodes, hparams,
                                          hands, pool, rec2, s, np.int64(1), dsel, uw, iw):
                                o = ev_outcome(rec2, s)
                        if o >= 0:
                            acc[c * EV_STATS + EV_SAMP] += 1
                            if o < 3:
                                acc[c * EV_STATS + EV_WIN + o] += 1
                pot = rec[REC_POT_AFTER]
                exempt, inmask = next_deal(players, rec, rules)
    return part.sum(axis=0)


# ============================================================================
# the tail law (analysis/bourre/tail.py): P' = A.P + B between two wins
# ============================================================================
# per deal: A = the pot-sized bourre payments (penalty = the pot) plus 1 when the pot stays in
# the middle (a carried tie, everyone passed with all_pass = carry_over); B = P' - A.P, P the
# pot carried into the deal and P' the pot after it (B = A x the antes without a pot limit).
TAIL_NA = 10                       # A = 0..9
TAIL_NBB = 258                     # B = 0..256 exactly; 257 = anything else (negative or larger)
TAIL_BANDS = np.array([0, 10, 100], np.int64)     # pot carried in, in antes: [0,10), [10,100), 100+
TAIL_NBAND = 3


# offsets of ``sim_tail``'s int64 vector: joint (A, B) counts; per pot band the A counts; per band
# and then for every deal the sums over sessions of c_a c_b (c = one session's A counts there); the log-binned histogram
# (NB bins) of the pot after every deal; sessions, overflowed sessions
TAIL_O_AB = 0
TAIL_O_BAND = TAIL_O_AB + TAIL_NA * TAIL_NBB
TAIL_O_CROSS = TAIL_O_BAND + TAIL_NBAND * TAIL_NA
TAIL_O_HIST = TAIL_O_CROSS + (TAIL_NBAND + 1) * TAIL_NA * TAIL_NA
TAIL_O_MISC = TAIL_O_HIST + NB
TAIL_LEN = TAIL_O_MISC + 2


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def tail_a(rec, rules):
    """A of a settled deal (see above)."""
    oc = rec[REC_OUTCOME]
    a = 0
    if oc == OUT_CARRY or (oc == OUT_TIE and rules[R_TIE] != TIE_DIVIDE):
        a = 1
    if rules[R_PENALTY] < 0:
        a += popcount(np.uint64(rec[REC_BOURRE]))
    return a


@njit(cache=True, nogil=True, parallel=True)
def sim_tail(key_deal, key_dec, first, ns, players, D, rules, hcodes, hparams):
    """Sessions first..first+ns-1 exactly as ``sim_sessions`` plays them (``session_deal``);
    per deal the pair (A, B) and the pot after it.  Returns int64[TAIL_LEN] (TAIL_O_* offsets)."""
    o_ab, o_band, o_cross, o_hist, o_misc, length = TAIL_O_AB, TAIL_O_BAND, TAIL_O_CROSS, TAIL_O_HIST, TAIL_O_MISC, TAIL_LEN
    CH = 8
    nch = (ns + CH - 1) // CH
    part = np.zeros((nch, length), np.int64)
    unit = max(rules[R_ANTE], 1)
    for ch in prange(nch):
        hands, pool, sd, st, nets, uw, iw, rec = session_scratch()
        c = np.zeros((TAIL_NBAND, TAIL_NA), np.int64)
        acc = part[ch]
        for i in range(ch * CH, min(ns, (ch + 1) * CH)):
            sess = first + i
            ks_deal, ks_dec, pot, inmask, exempt = session_start(key_deal, key_dec, sess, players, sd, st, nets)
            for b in range(TAIL_NBAND):
                for a in range(TAIL_NA):
                    c[b, a] = 0
            acc[o_misc] += 1
            for j in range(D):
                if not session_deal(ks_deal, ks_dec, sess, j, players, pot, inmask, exempt, rules, hcodes, hparams, rec,
                                    hands, pool, sd, st, nets, uw, iw):
                    acc[o_misc + 1] += 1
                    break
                after = rec[REC_POT_AFTER]
                a = tail_a(rec, rules)
                bnd = 0
                for q in range(1, TAIL_NBAND):
                    if pot >= TAIL_BANDS[q] * unit:
                        bnd = q
                c[bnd, a] += 1
                b = TAIL_NBB - 1
                if pot == 0 or a <= (OVF - 1) // pot:
                    x = after - a * pot
                    if 0 <= x < TAIL_NBB - 1:
                        b = x
                acc[o_ab + a * TAIL_NBB + b] += 1
                acc[o_hist + pot_bin(after)] += 1
                pot = after
                exempt, inmask = next_deal(players, rec, rules)
            for bd in range(TAIL_NBAND + 1):
                for a in range(TAIL_NA):
                    ca = c[bd, a] if bd < TAIL_NBAND else c[:, a].sum()
                    if bd < TAIL_NBAND:
                        acc[o_band + bd * TAIL_NA + a] += ca
                    for a2 in range(TAIL_NA):
                        cb = c[bd, a2] if bd < TAIL_NBAND else c[:, a2].sum()
                        acc[o_cross + (bd * TAIL_NA + a) * TAIL_NA + a2] += ca * cb
    return part.sum(axis=0)


# ============================================================================
# rare tails: multilevel splitting over sessions (analysis/bourre/tail.py)
# ============================================================================
SPLIT_TAG = np.int64(1 << 40)      # stream index namespace of the copies (deal indices are < 2**31)
(SP_DEALS, SP_PARTICLES, SP_VIOL, SP_CAPPED) = range(4)
SP_LEN = 4


@njit(cache=True, nogil=True, parallel=True)
def split_sessions(key_deal, key_dec, first, ns, players, D, rules, hcodes, hparams, levels, R, max_particles, Y, ovw,
                   cnt):
    """Multilevel splitting of the root sessions first..first+ns-1 (each played as in
    ``sim_sessions`` until it splits).  ``levels`` int64[L] increasing chip thresholds: a
    copy whose pot (the larger of the pot contested and the pot after a deal, as the pot
    study's first passages) first passes one or more new levels after deal j, the highest of them
    level l, is split into ``R[l]`` copies (int64[L], 1 = no split) of weight w/R[l] that continue from the saved state (pot, seat nets, deal
    index, who antes, who is in): copy 0 on its own streams, copy c >= 1 on the streams
    ``seed_state(seed_state(k, SPLIT_TAG + level), c)`` of its parent's keys k (deal and
    decision), so every copy is a pure function of (seed, root session, its path of (level,
    copy)).  A copy is split at most once per level; no split once a root has
    ``max_particles`` copies (unbiased either way: the decision depends on the past only).
    Fills per root: Y float64[ns, L] the summed weight of the copies passing each level (an
    unbiased estimate of P(the pot passes levels[i] within D deals); an overflow passes every
    level), ovw float64[ns] the weight that overflowed, cnt int64[ns, SP_LEN] deals played,
    copies, chip-conservation violations, splits refused by the cap.  With every R[l] = 1 the
    roots are exactly ``sim_sessions``'s sessions."""
    L = levels.shape[0]
    smax = 1
    for q in range(L):
        smax += R[q] - 1
    for i in prange(ns):
        hands, pool, sd, st, nets, uw, iw, rec = session_scratch()
        tk = np.zeros(1, np.uint64)
        s_st = np.zeros((smax, 5), np.int64)        # pot, deal index, exempt, inmask, levels passed
        s_nets = np.zeros((smax, MAXP), np.int64)
        s_key = np.zeros((smax, 2), np.uint64)
        s_w = np.zeros(smax, np.float64)
        sess = first + i
        for q in range(L):
            Y[i, q] = 0.0
        ovw[i] = 0.0
        for q in range(SP_LEN):
            cnt[i, q] = 0
        s_key[0, 0], s_key[0, 1], s_st[0, 0], s_st[0, 3], s_st[0, 2] = session_start(key_deal, key_dec, sess,
                                                                                      players, sd, st, nets)
        s_st[0, 1] = 0
        s_st[0, 4] = 0
        s_w[0] = 1.0
        sp = 1
        cnt[i, SP_PARTICLES] = 1
        while sp > 0:
            sp -= 1
            pot = s_st[sp, 0]
            j = s_st[sp, 1]
            exempt = s_st[sp, 2]
            inmask = s_st[sp, 3]
            lev = s_st[sp, 4]
            kd = s_key[sp, 0]
            kc = s_key[sp, 1]
            w = s_w[sp]
            for s in range(MAXP):
                nets[s] = s_nets[sp, s]
            ovf = False
            while j < D:
                cnt[i, SP_DEALS] += 1
                if not session_deal(kd, kc, sess, j, players, pot, inmask, exempt, rules, hcodes, hparams, rec, hands,
                                    pool, sd, st, nets, uw, iw):
                    ovf = True
                    ovw[i] += w
                    for q in range(lev, L):
                        Y[i, q] += w
                    break
                stake = rec[REC_POT_STAKE]
                pot = rec[REC_POT_AFTER]
                hi = stake if stake > pot else pot
                exempt, inmask = next_deal(players, rec, rules)
                j += 1
                nl = lev
                while nl < L and hi > levels[nl]:
                    Y[i, nl] += w
                    nl += 1
                if nl > lev:
                    lev = nl
                    r = R[nl - 1]
                    if r > 1 and j < D:
                        if cnt[i, SP_PARTICLES] + r - 1 > max_particles:
                            cnt[i, SP_CAPPED] += 1
                        else:
                            w = w / r
                            for c in range(1, r):
                                seed_state(tk, kd, SPLIT_TAG + lev)
                                seed_state(tk, tk[0], c)
                                s_key[sp, 0] = tk[0]
                                seed_state(tk, kc, SPLIT_TAG + lev)
                                seed_state(tk, tk[0], c)
                                s_key[sp, 1] = tk[0]
                                s_st[sp, 0] = pot
                                s_st[sp, 1] = j
                                s_st[sp, 2] = exempt
                                s_st[sp, 3] = inmask
                                s_st[sp, 4] = lev
                                s_w[sp] = w
                                for s in range(MAXP):
                                    s_nets[sp, s] = nets[s]
                                sp += 1
                            cnt[i, SP_PARTICLES] += r - 1
            if not ovf:
                tot = pot
                for s in range(players):
                    tot += nets[s]
                if tot != 0:
                    cnt[i, SP_VIOL] += 1


# the sampling player's card play (bottom import: kernels/pimc_bourre.py imports this module's names;
# ``play_dealt`` reaches it as ``_pimc.pimc_card`` when it is compiled, after both modules are loaded)
from tricksim.kernels import pimc_bourre as _pimc  # noqa: E402
