"""The Boomke Wies sampling player (PIMC, issue 28 item 2): ``pimc_card`` chooses a seat's card and ``pimc_call``
its call by sampling deals of the unseen cards and playing each choice out in every one of them.

A seat whose code is ``H_PIMC`` (kernels/boomke_wies/players.py) is played by this module when the kernel is
given its ``pimc`` argument (kernels/boomke_wies/play.py: ``auction`` calls ``pimc_call``, ``play_tricks`` calls
``pimc_card`` whenever the seat has more than one legal card). The Meetje suit named under
``dealer_names_then_eldest_leads`` is the heuristic's (its longest suit).

**Worlds.** What the seat knows at its turn: its own hand, every card played and by whom, the suits each seat
showed out of (rule 9: a seat that did not follow holds none of the suit led), how many cards each seat holds,
and the auction. A world gives every other seat that many unseen cards, uniformly among the layouts that respect
the shown voids, by exact rejection sampling (``_draw``): the three other seats in turn draw their cards
uniformly from what is left of the cards they may hold (a_q of them), and the layout is kept with probability
prod C(a_q, n_q) / C(b_q, n_q), b_q = min(the cards q may hold, the cards left for q and the seats after it),
a bound that does not depend on the layout; every layout within the voids is then equally likely. The seats
draw in an order fixed by public information: the fewest spare cards (cards it may hold minus its count) first.

**Inference (``infer`` = 1).** A world is kept only when the auction it implies matches the one heard: each
earlier call of another seat (partner included: a seat's worlds respect what its partner's calls revealed) is
replayed from that seat's hand in the world (its cards left plus the cards it played) by the ``partner``
heuristic's bidding with the sampling seat's own parameters (``model_call``), and must fall in the same class as
the call heard: pass, Meetje, or a bid (7..13). The class rather than the level, because a seat may bid above the
lowest legal level (a sampling partner does) while the model only ever bids the lowest. At most ``MAX_TRIES``
layouts are drawn per world; then the last layout within the voids is used (a *fallback*, counted); a world
with no layout within the voids after ``MAX_TRIES`` draws is skipped (counted: 1 world in a million measured).

**Evaluation.** In each world every candidate is played out by the ``partner`` heuristic in all four seats with
the sampling seat's own parameters (``_playout``; rule 10: a Boom stops at its first lost trick), and scored by
the net points of the seat's side (its points minus the opponents', rule 11; in the no-auction variant its
tricks minus theirs). The same worlds score every candidate (common random numbers); the highest sum wins,
ties to the most tricks for the side, then to the heuristic's own card (first), then to the lowest card.
A call is played out as: the call, then the rest of the auction by the model (the seat's later calls too),
then the tricks. Candidates: pass, the lowest legal bid and the two above it (up to 12), Boom; the forced
dealer 7 (8 and 9 too under ``dealer_may_bid_8_to_12``), Boom, Meetje. A certain thirteen bids Boom at once
(as the heuristic).

**Randomness.** Card decision ``nplay`` (cards played so far) draws from ``seed_state(st[0] ^ PIMC_SALT,
nplay)``, call ``i`` from index 64 + i, ``st`` the deal's decision stream state, read and never advanced: the
heuristics' decisions never move, and every result is a pure function of the seed and the deal's indices.

**Workspace.** ``pw`` (uint64[PW_LEN], one per thread) holds the generator state (``pw[0]``), the counters
``S_*`` (the kernels' callers may read them: decisions, worlds, draws, rejections, fallbacks) and the scratch
below; the functions allocate nothing.
"""
import numpy as np
from numba import njit

from ..cards import U0, U1, nth_card
from ..explain import KIND_CALL, KIND_CARD, X_CAND, X_WORLDS, x_add, x_open
from ..rng import below, seed_state, uniform
from .players import (P_ACE, P_BID_WORLDS, P_BOOM_MARGIN, P_INFER, P_KING, P_MARGIN,
                      P_OVERCALL_PARTNER, P_PARTNER, P_PARTNER_BID, P_PARTNER_PASSED, P_QUEEN, P_SEVEN_MARGIN,
                      P_SHORT, P_TRUMP_LEN, P_WORLDS, best_suit, choose_card, opening_lead, own_tricks, partner_call,
                      partner_credit, play_flags, sure_thirteen)
from .rules import (BOOM, DECK, MAX_BIDS, MEETJE, MEETJE_NAMES_ELDEST_LEADS, NO_CONTRACT, PASS, R_DEALER_8_12,
                    R_MEETJE_TRUMP, REC_BIDS, REC_DEALER, REC_NBIDS, REC_TRICKS, REC_WON, SUITSET, after_call, bitc,
                    legal_mask, low, place, pop, score_contract)

PIMC_SALT = np.uint64(0x6A09E667F3BCC909)   # the sampling player's stream, apart from the decision stream
MAX_TRIES = 512
BID_DECISION = 64                            # call i draws from index BID_DECISION + i
X_CALL_ROW = 52           # --explain (kernels/explain.py): card i of a deal in row i, call i in row X_CALL_ROW + i
X_ROWS = X_CALL_ROW + MAX_BIDS   # a deal's rows: its 52 cards, then its calls (``trace_deals``' ``xo``)
# counters of the workspace
(S_CARDS, S_CALLS, S_WORLDS, S_DRAWS, S_VOID_REJECTS, S_AUCTION_REJECTS, S_FALLBACKS, S_SKIPPED,
 S_PLAYOUTS) = range(1, 10)
STAT_NAMES = ("card_decisions", "call_decisions", "worlds", "draws", "void_rejects", "auction_rejects", "fallbacks",
              "skipped", "playouts")
# scratch of the workspace: 4 hands each (W_*), 16 candidates each (C_*)
W_HANDS, W_HH, W_WON, W_ALLOWED, W_NEED, W_PBY, W_H0, W_FB = 16, 20, 24, 28, 32, 36, 40, 44
C_VAL, C_TRK, C_CAND = 48, 64, 80
PW_LEN = 96
VAL_OFFSET = 16          # net points of one world + this >= 0 (the sums are unsigned)


def workspace():
    """A fresh workspace (``pimc`` argument of the kernels), counters at zero."""
    return np.zeros(PW_LEN, np.uint64)


# ============================================================================
# the bidding model and the auction replay
# ============================================================================
@njit(cache=True, nogil=True, _nrt=False)
def model_call(hand, s, high, holder, passed, bids, forced, hparams, me):
    """The ``partner`` heuristic's call (kernels/boomke_wies/play.py ``auction``) for seat ``s`` holding ``hand``,
    with the parameters of row ``me`` of ``hparams``."""
    if high < 13 and sure_thirteen(hand, hparams, me):
        return BOOM
    p = s ^ 2
    if holder == p and hparams[me, P_OVERCALL_PARTNER] < 0.5:
        return PASS
    own = own_tricks(hand, hparams[me, P_ACE], hparams[me, P_KING], hparams[me, P_QUEEN], hparams[me, P_TRUMP_LEN],
                     hparams[me, P_SHORT])
    credit = partner_credit((bids >> (4 * p)) & 15, (passed >> p) & 1, hparams[me, P_MARGIN], hparams[me, P_PARTNER],
                            hparams[me, P_PARTNER_PASSED], hparams[me, P_PARTNER_BID])
    return partner_call(own + credit, high, forced, hparams[me, P_MARGIN], hparams[me, P_SEVEN_MARGIN],
                        hparams[me, P_BOOM_MARGIN])


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def call_class(b):
    """0 pass, 1 Meetje, 2 a bid (7..13)."""
    return 0 if b == PASS else (1 if b == MEETJE else 2)


@njit(cache=True, nogil=True, _nrt=False)
def replay_auction(pw, base, dealer, hparams, me, rec, ncalls, check, extra):
    """The auction of the hands ``pw[base..base+3]``: calls 0..ncalls-1 are the ones heard (``rec[REC_BIDS..]``);
    with ``check``, returns (-2, 0) as soon as a seat other than ``me`` made a call whose class the model would
    not have made. Then ``extra`` (>= 0) is ``me``'s next call, and the model makes the rest (``me``'s later calls
    too). Returns (declarer, contract)."""
    high = 0
    holder = -1
    npass = 0
    passed = 0
    bids = 0
    i = 0
    s = (dealer + 1) & 3
    while True:
        if not (passed >> s) & 1:
            forced = npass == 3 and holder < 0
            if i < ncalls:
                b = rec[REC_BIDS + 2 * i + 1]
                if check and s != me:
                    m = model_call(pw[base + s], s, high, holder, passed, bids, forced, hparams, me)
                    if call_class(m) != call_class(b):
                        return -2, 0
            elif i == ncalls and extra >= 0:
                b = extra
            else:
                b = model_call(pw[base + s], s, high, holder, passed, bids, forced, hparams, me)
            i += 1
            if forced:
                return s, b
            high, holder, npass, passed, bids, ended = after_call(s, b, high, holder, npass, passed, bids)
            if ended:
                break
        s = (s + 1) & 3
    return holder, high


# ============================================================================
# worlds
# ============================================================================
@njit(cache=True, nogil=True, _nrt=False)
def _draw(pw, me, unseen):
    """One exact rejection step: the seats after ``me`` draw ``pw[W_NEED + q]`` cards each from ``unseen`` within
    ``pw[W_ALLOWED + q]`` into ``pw[W_HANDS + q]``; True when the layout is kept."""
    rem = unseen
    R = pop(unseen)
    acc = 1.0
    # the most constrained seat first (fewest cards it may hold beyond its count): an order fixed by what is
    # public, so the layouts stay equally likely, and the fewest dead ends
    o1 = (me + 1) & 3
    o2 = (me + 2) & 3
    o3 = (me + 3) & 3
    k1 = pop(pw[W_ALLOWED + o1] & unseen) - np.int64(pw[W_NEED + o1])
    k2 = pop(pw[W_ALLOWED + o2] & unseen) - np.int64(pw[W_NEED + o2])
    k3 = pop(pw[W_ALLOWED + o3] & unseen) - np.int64(pw[W_NEED + o3])
    if k2 < k1:
        o1, o2, k1, k2 = o2, o1, k2, k1
    if k3 < k2:
        o2, o3, k2, k3 = o3, o2, k3, k2
        if k2 < k1:
            o1, o2, k1, k2 = o2, o1, k2, k1
    for j in range(3):
        q = o1 if j == 0 else (o2 if j == 1 else o3)
        n = np.int64(pw[W_NEED + q])
        al = pw[W_ALLOWED + q]
        pool = al & rem
        a = pop(pool)
        if a < n:
            return False
        b = min(pop(al & unseen), R)
        x = U0
        for i in range(n):
            acc *= (a - i) / (b - i)
            c = nth_card(pool, below(pw, a - i))
            pool &= ~bitc(c)
            x |= bitc(c)
        pw[W_HANDS + q] = x
        rem &= ~x
        R -= n
    return acc >= 1.0 or uniform(pw) < acc


@njit(cache=True, nogil=True, _nrt=False)
def auction_worlds(pw, me, hand):
    """What seat ``me`` knows at a call, as its worlds' constraints: it holds ``hand``, no card is played yet,
    every other seat holds 13 of the unseen cards, any of them.  Returns the unseen cards."""
    unseen = DECK & ~hand
    for q in range(4):
        pw[W_PBY + q] = U0
        pw[W_NEED + q] = np.uint64(13)
        pw[W_ALLOWED + q] = unseen
    pw[W_HANDS + me] = hand
    return unseen


@njit(cache=True, nogil=True, _nrt=False)
def _world(pw, me, unseen, infer, dealer, hparams, rec, ncalls):
    """One world into ``pw[W_HANDS..]`` (``pw[W_HANDS + me]`` = the seat's hand, set by the caller): 1 drawn (and,
    with ``infer``, matching the auction), 0 a fallback, -1 none (skip it)."""
    got = False
    for _ in range(MAX_TRIES):
        pw[S_DRAWS] += U1
        if not _draw(pw, me, unseen):
            pw[S_VOID_REJECTS] += U1
            continue
        if not infer:
            return 1
        got = True
        for q in range(4):
            pw[W_H0 + q] = pw[W_HANDS + q] | pw[W_PBY + q]
            pw[W_FB + q] = pw[W_HANDS + q]
        d, _c = replay_auction(pw, W_H0, dealer, hparams, me, rec, ncalls, True, -1)
        if d != -2:
            return 1
        pw[S_AUCTION_REJECTS] += U1
    if got:
        for q in range(4):
            pw[W_HANDS + q] = pw[W_FB + q]
        pw[S_FALLBACKS] += U1
        return 0
    pw[S_SKIPPED] += U1
    return -1


# ============================================================================
# playouts
# ============================================================================
@njit(cache=True, nogil=True, _nrt=False)
def _playout(pw, leader, k, led, win, win_seat, t, decl, contract, played, trick, voids, ntr, fl, first):
    """Play the deal out from trick ``ntr``, ``k`` cards into it, by the ``partner`` heuristic in every seat (play
    flags ``fl``): hands ``pw[W_HH..]``, tricks won ``pw[W_WON..]``; ``first`` >= 0: the next card (the
    candidate). ``t`` < 0: the first card led makes trumps (rule 7)."""
    while ntr < 13:
        while k < 4:
            s = (leader + k) & 3
            hs = pw[W_HH + s]
            if first >= 0:
                c = first
                first = -1
            else:
                lg = legal_mask(hs, k, led)
                if t < 0:
                    c = opening_lead(hs, lg)
                else:
                    c = choose_card(fl, s, hs, lg, k, led, win, win_seat, t, decl, played, trick, voids)
            b = bitc(c)
            pw[W_HH + s] = hs & ~b
            played |= b
            trick |= b
            led, win, win_seat, t, voids = place(c, s, k, led, win, win_seat, t, voids)
            k += 1
        pw[W_WON + win_seat] += U1
        if contract == BOOM and (win_seat & 1) != (decl & 1):
            return
        leader = win_seat
        k = 0
        trick = U0
        ntr += 1


@njit(cache=True, nogil=True, _nrt=False)
def side_value(pw, me, decl, contract, rules):
    """(net points of ``me``'s side, its tricks) after a playout (no-auction variant: its tricks minus theirs)."""
    m = me & 1
    mine = np.int64(pw[W_WON + m] + pw[W_WON + m + 2])
    theirs = np.int64(pw[W_WON + 1 - m] + pw[W_WON + 3 - m])
    if contract == NO_CONTRACT:
        return mine - theirs, mine
    if (decl & 1) == m:
        a, b, _ = score_contract(contract, mine, theirs, rules)
        return a - b, mine
    a, b, _ = score_contract(contract, theirs, mine, rules)
    return b - a, mine


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _best(pw, nc):
    """The candidate with the highest value sum, then tricks; ties to the earlier one."""
    best = 0
    for ci in range(1, nc):
        if (pw[C_VAL + ci] > pw[C_VAL + best]
                or (pw[C_VAL + ci] == pw[C_VAL + best] and pw[C_TRK + ci] > pw[C_TRK + best])):
            best = ci
    return np.int64(pw[C_CAND + best])


# ============================================================================
# decisions
# ============================================================================
@njit(cache=True, nogil=True, _nrt=False)
def pimc_card(pw, h, me, lg, k, led, win, win_seat, t, decl, contract, played, trick, voids, ntr, nplay, rec,
              hparams, rules, st, hcard, xo=None):
    """The card seat ``me`` plays (``lg`` its legal cards, more than one) as the ``k``-th of trick ``ntr``; the
    trick state as ``play_tricks`` holds it, ``hcard`` the heuristic's own card (first among equals). ``xo``
    (--explain): the candidates' values into its row ``nplay`` (kernels/explain.py)."""
    pw[S_CARDS] += U1
    nw = np.int64(hparams[me, P_WORLDS])
    ncalls = rec[REC_NBIDS]
    infer = hparams[me, P_INFER] > 0.5 and contract != NO_CONTRACT and ncalls > 0
    fl = play_flags(hparams, me)
    leader = (me - k) & 3
    seed_state(pw, st[0] ^ PIMC_SALT, nplay)
    # candidates: the heuristic's card first, then the others ascending
    pw[C_CAND] = np.uint64(hcard)
    nc = 1
    m = lg & ~bitc(hcard)
    while m != U0:
        pw[C_CAND + nc] = np.uint64(low(m))
        m &= m - U1
        nc += 1
    for ci in range(nc):
        pw[C_VAL + ci] = U0
        pw[C_TRK + ci] = U0
    if xo is not None:
        x_open(xo[nplay], KIND_CARD, me, nc)
        for ci in range(nc):
            xo[nplay, X_CAND + ci] = np.int64(pw[C_CAND + ci])
    # what the seat knows: the cards each seat played, the voids shown, how many cards each holds
    for q in range(4):
        pw[W_PBY + q] = U0
    for i in range(nplay):
        b = REC_TRICKS + 6 * (i >> 2)
        pw[W_PBY + ((rec[b] + (i & 3)) & 3)] |= bitc(rec[b + 1 + (i & 3)])
    unseen = DECK & ~h[me] & ~played
    for q in range(4):
        pw[W_NEED + q] = np.uint64(pop(h[q]))
        pw[W_ALLOWED + q] = unseen & ~SUITSET[(voids >> (4 * q)) & 15]
    pw[W_HANDS + me] = h[me]
    dealer = rec[REC_DEALER]
    for _ in range(nw):
        if _world(pw, me, unseen, infer, dealer, hparams, rec, ncalls) < 0:
            continue
        pw[S_WORLDS] += U1
        for ci in range(nc):
            for q in range(4):
                pw[W_HH + q] = pw[W_HANDS + q]
                pw[W_WON + q] = np.uint64(rec[REC_WON + q])
            _playout(pw, leader, k, led, win, win_seat, t, decl, contract, played, trick, voids, ntr, fl,
                     np.int64(pw[C_CAND + ci]))
            v, tk = side_value(pw, me, decl, contract, rules)
            pw[C_VAL + ci] += np.uint64(v + VAL_OFFSET)
            pw[C_TRK + ci] += np.uint64(tk)
            if xo is not None:
                x_add(xo[nplay], ci, v, tk)
        if xo is not None:
            xo[nplay, X_WORLDS] += 1
        pw[S_PLAYOUTS] += np.uint64(nc)
    return _best(pw, nc)


@njit(cache=True, nogil=True, _nrt=False)
def pimc_call(pw, hands, me, dealer, high, holder, forced, nb, rec, rules, hparams, st, xo=None):
    """Seat ``me``'s call in the auction (``high`` the highest bid so far, ``holder`` its seat, ``forced`` the
    dealer after three passes, ``nb`` the calls heard, in ``rec[REC_BIDS..]``). ``xo`` (--explain): the
    candidates' values into its row ``X_CALL_ROW + nb`` (kernels/explain.py)."""
    hand = hands[me]
    if high < 13 and sure_thirteen(hand, hparams, me):
        return BOOM
    nc = 0
    if forced:
        top = 9 if rules[R_DEALER_8_12] != 0 else 7
        for b in range(7, top + 1):
            pw[C_CAND + nc] = np.uint64(b)
            nc += 1
        pw[C_CAND + nc] = np.uint64(BOOM)
        pw[C_CAND + nc + 1] = np.uint64(MEETJE)
        nc += 2
    else:
        pw[C_CAND] = np.uint64(PASS)
        nc = 1
        lo = 7 if high == 0 else high + 1
        for b in range(lo, min(12, lo + 2) + 1):
            pw[C_CAND + nc] = np.uint64(b)
            nc += 1
        if high < 13:
            pw[C_CAND + nc] = np.uint64(BOOM)
            nc += 1
    if nc == 1:
        return PASS
    pw[S_CALLS] += U1
    for ci in range(nc):
        pw[C_VAL + ci] = U0
        pw[C_TRK + ci] = U0
    if xo is not None:
        x_open(xo[X_CALL_ROW + nb], KIND_CALL, me, nc)
        for ci in range(nc):
            xo[X_CALL_ROW + nb, X_CAND + ci] = np.int64(pw[C_CAND + ci])
    nw = np.int64(hparams[me, P_BID_WORLDS])
    infer = hparams[me, P_INFER] > 0.5 and nb > 0
    fl = play_flags(hparams, me)
    seed_state(pw, st[0] ^ PIMC_SALT, BID_DECISION + nb)
    unseen = auction_worlds(pw, me, hand)
    eldest = (dealer + 1) & 3
    for _ in range(nw):
        if _world(pw, me, unseen, infer, dealer, hparams, rec, nb) < 0:
            continue
        pw[S_WORLDS] += U1
        for ci in range(nc):
            d, contract = replay_auction(pw, W_HANDS, dealer, hparams, me, rec, nb, False, np.int64(pw[C_CAND + ci]))
            for q in range(4):
                pw[W_HH + q] = pw[W_HANDS + q]
                pw[W_WON + q] = U0
            t = -1
            leader = d
            if contract == MEETJE and rules[R_MEETJE_TRUMP] == MEETJE_NAMES_ELDEST_LEADS:
                t = best_suit(pw[W_HANDS + d])
                leader = eldest
            _playout(pw, leader, 0, 0, -1, leader, t, d, contract, U0, U0, 0, 0, fl, -1)
            v, tk = side_value(pw, me, d, contract, rules)
            pw[C_VAL + ci] += np.uint64(v + VAL_OFFSET)
            pw[C_TRK + ci] += np.uint64(tk)
            if xo is not None:
                x_add(xo[X_CALL_ROW + nb], ci, v, tk)
        if xo is not None:
            xo[X_CALL_ROW + nb, X_WORLDS] += 1
        pw[S_PLAYOUTS] += np.uint64(nc)
    return _best(pw, nc)


@njit(cache=True, nogil=True)
def sample_worlds(seed, me, hand, played, need, voids, n):
    """``n`` worlds of the card play's sampler (no inference) for seat ``me`` holding ``hand`` after the cards
    ``played``, the seats holding ``need`` (int64[4]) cards and the voids ``voids`` (bit 4 * seat + suit): rows of
    the four hands (int64 view), -1 rows for skipped worlds. For the tests."""
    pw = np.zeros(PW_LEN, np.uint64)
    out = np.full((n, 4), -1, np.int64)
    seed_state(pw, np.uint64(seed), 0)
    unseen = DECK & ~hand & ~played
    rec = np.zeros(1, np.int64)
    hp = np.zeros((4, 1), np.float64)
    for q in range(4):
        pw[W_NEED + q] = np.uint64(need[q])
        pw[W_ALLOWED + q] = unseen & ~SUITSET[(voids >> (4 * q)) & 15]
    pw[W_HANDS + me] = hand
    for i in range(n):
        if _world(pw, me, unseen, False, 0, hp, rec, 0) < 0:
            continue
        for q in range(4):
            out[i, q] = np.int64(pw[W_HANDS + q])
    return out


@njit(cache=True, nogil=True)
def sample_auction_worlds(seed, me, hand, dealer, calls, hparams, n):
    """``n`` worlds of the bidding sampler with inference for seat ``me`` holding ``hand`` after the calls
    ``calls`` (int64[m, 2]: seat, call) of an auction dealt by ``dealer``: (hands int64[n, 4], kind int64[n]:
    1 matched, 0 fallback). For the tests."""
    pw = np.zeros(PW_LEN, np.uint64)
    out = np.zeros((n, 4), np.int64)
    kind = np.zeros(n, np.int64)
    seed_state(pw, np.uint64(seed), 0)
    rec = np.zeros(REC_BIDS + 2 * calls.shape[0] + 1, np.int64)
    for i in range(calls.shape[0]):
        rec[REC_BIDS + 2 * i] = calls[i, 0]
        rec[REC_BIDS + 2 * i + 1] = calls[i, 1]
    unseen = auction_worlds(pw, me, hand)
    for i in range(n):
        kind[i] = _world(pw, me, unseen, True, dealer, hparams, rec, calls.shape[0])
        for q in range(4):
            out[i, q] = np.int64(pw[W_HANDS + q])
    return out, kind
