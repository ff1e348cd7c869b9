"""Boulmous open-hand (double-dummy) solver: the taker against the three defenders as one side.

Issue 12 item 1. Every seat sees every card and plays perfectly; the taker's side is the taker
alone, the defenders' side the three others (a trick taken by any defender counts for the side).
The value of a position is the number of tricks the taker takes from it on (the trick in progress
included) under best play by both sides.

Contract (same encoding as kernels/boulmous.py, whose tables and ``legal_mask`` decide every play,
so every rule flag of ``rules`` applies: must_head, trump_obligation, left_bower_is_trump):
- ``hands``  uint64[4]: the cards each seat still holds (bit ``suit*16+rank``); the solver
  modifies it while searching and restores it before returning;
- ``leader`` the seat that led (or leads) the current trick; ``trick`` int64[4] the cards
  already played to it in play order, ``n_in_trick`` how many (0 = a trick boundary);
  the seats that have played to it hold one card fewer than the others;
- ``t`` trump index 0..3 = S H D C, 4 = no-trump; ``taker`` the taker's seat 0..3;
- ``rules`` int64[N_RULES] as in kernels/boulmous.py;
- ``ws`` uint64[...] the workspace (``new_workspace()``): the search stack and a fixed-size
  transposition table, allocated once by the caller and reused for any number of solves (one per
  thread). Every solve takes a fresh generation number, part of each entry's key, so entries of
  earlier solves never match and nothing is cleared.

Search: ``_search`` answers "can the taker's side take >= target of the remaining tricks?" by a
null-window alpha-beta (an AND/OR search: the taker's turns stop at the first card that makes the
target, the defenders' at the first that defeats it), depth first with an explicit stack.
- Trick boundaries cut off once the target is made (target <= 0) or out of reach (target > tricks
  left), and on quick bounds: the leader's cashable winners (top trumps; top cards of the other
  classes when nobody else holds a trump) and the unbroken top trumps of one hand (each wins the
  trick it falls in).
- One move per run of equivalent cards: a card is skipped when the next higher card still in play
  (in the hands or in the current trick) that it can ever be compared with is held by the same
  seat, is legal now and follows the same class, so the positions after either play are the same
  up to renaming the two cards.
- A transposition table probed at trick boundaries: within one solve the owner of every card is
  fixed, so a boundary position is the set of cards still held plus the leader (26 bits); an
  entry packs (generation, position, lower bound, upper bound) of the position's value, valid for
  any target, merged after every search; one slot per hash, always replaced.
- Move order: a leader tries its top cards first, then the rest, highest first; a follower
  whose side is winning the trick tries the cards that do not take it first (lowest first),
  otherwise the cards that take it (cheapest first). The last trick is scored directly.
The exact value (``solve``) comes from successive null-window searches (bisection on the target)
sharing the table.

Entry points: ``solve``, ``can_make``, ``principal_variation`` (one position), ``solve_batch``
(many, prange), ``random_deals``; ``sim_odds_open`` and ``sim_odds_tricks`` (the odds of one hand
deal by deal, open-hand and under the heuristics: ``tricksim odds boulmous --play``), ``sim_classes_play``
(the hand classes likewise); the sampling player ``pimc_card`` (with ``sample_worlds``), which
kernels/pimc_boulmous.py plays (the odds' pimc column, pimc seats in compare, sweep and trace), and
``pimc_play_batch`` (whole deals, four PIMC seats: ``tricksim bench --solver``).

Numba caches a compiled function keyed on its own file only: the functions imported from
kernels/boulmous.py (``legal_mask``, ``beats``, ``min_power_card``, the tables) are inlined into
the cached code here, so an edit of kernels/boulmous.py does NOT invalidate this module's cache.
kernels/__init__.py therefore keys the whole cache on every kernel source (an edit of any kernel
file drops the cached kernels on the next import). The tests
(tests/test_solver_boulmous.py) compare the solver with a pure-Python minimax built on the
referee's legal moves (tests/ref_boulmous.py), so a stale cache that plays the old rules fails them.
"""
import numpy as np
from numba import njit, prange

from tricksim.kernels.cards import lowest, highest, popcount, U0, U1
from tricksim.kernels.rng import seed_state, below
from tricksim.kernels.boulmous import (
    TABS, POWER, CSUIT, NT, N_RULES, R_LEFT_BOWER_TRUMP, DECK24, legal_mask, beats, min_power_card, max_power_card, deal_random,
    deal_with_fixed, play_deal, no_game, i64, REC_LEN, REC_WON, REC_TRUMP, hand_class, HEURISTIC_TRUMP, NOBODY,
    R_FAILED_KEEPS, apply_card,
)

TT_BITS = 14
CHUNK = 64          # deals per prange step of solve_batch

# The workspace ``ws`` (uint64): [W_GEN] generation counter, [W_BITS] log2 of the table size,
# [W_NODES] nodes searched (a statistic), the search stack (MAX_DEPTH records of NF words), then
# the transposition table.
W_GEN, W_BITS, W_NODES, W_STACK = 0, 1, 2, 3
F_M0, F_M1, F_CARD, F_SEAT, F_LEADER, F_N, F_LED, F_WP, F_WS, F_TMASK, F_TARGET, F_LEFT, F_SLOT, F_TAG, \
    F_MAX = range(15)
NF = 16
MAX_DEPTH = 25
W_TT = W_STACK + MAX_DEPTH * NF


def _build_higher():
    """HIGHER[lb, t, c]: the cards that card c can ever be compared with and that rank above it:
    for a trump, every trump of higher power; otherwise the non-trumps of its follow class
    with higher power."""
    higher = np.zeros((2, 5, 64), np.uint64)
    for lb in range(2):
        for t in range(5):
            deck = int(TABS[lb, t, 5])
            trumps = int(TABS[lb, t, 4])
            for c in range(64):
                if not (deck >> c) & 1:
                    continue
                m = 0
                for d in range(64):
                    if not (deck >> d) & 1 or POWER[lb, t, d] <= POWER[lb, t, c]:
                        continue
                    if (trumps >> c) & 1:
                        if (trumps >> d) & 1:
                            m |= 1 << d
                    elif not (trumps >> d) & 1 and CSUIT[lb, t, d] == CSUIT[lb, t, c]:
                        m |= 1 << d
                higher[lb, t, c] = np.uint64(m)
    return higher


HIGHER = _build_higher()


def new_workspace(bits: int = TT_BITS) -> np.ndarray:
    """A solver workspace with a transposition table of 2**bits entries, for one thread."""
    return _workspace(bits)


@njit(cache=True, nogil=True)
def _workspace(bits):
    ws = np.zeros(W_TT + (1 << bits), np.uint64)
    ws[W_BITS] = np.uint64(bits)
    return ws


# ============================================================================
# helpers
# ============================================================================
@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _next_up(c, inplay, t, lb):
    """The lowest-power card above c that c can be compared with and that is still in play,
    -1 if none."""
    up = HIGHER[lb, t, c] & inplay
    if up == U0:
        return -1
    if POWER[lb, t, c] >= 64:
        plain = up & ~TABS[lb, t, 6]
        if plain != U0:
            return lowest(plain)
        if up & TABS[lb, t, 8]:
            return lowest(TABS[lb, t, 8])
        return lowest(TABS[lb, t, 7])
    return lowest(up)


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _reps(legal, inplay, t, lb):
    """One card per run of equivalent legal cards (the highest of each run)."""
    out = U0
    m = legal
    while m != U0:
        c = lowest(m)
        m &= m - U1
        nx = _next_up(c, inplay, t, lb)
        if nx >= 0 and (legal >> np.uint64(nx)) & U1 and CSUIT[lb, t, nx] == CSUIT[lb, t, c]:
            continue
        out |= U1 << np.uint64(c)
    return out


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _pack24(r):
    """The 24 cards of a mask as 24 bits (ranks 9..A are bits 7..12 of each suit field)."""
    return ((r >> np.uint64(7)) & np.uint64(63)) | ((r >> np.uint64(17)) & np.uint64(63 << 6)) \
        | ((r >> np.uint64(27)) & np.uint64(63 << 12)) | ((r >> np.uint64(37)) & np.uint64(63 << 18))


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _slot(tag, size):
    z = tag * np.uint64(0x9E3779B97F4A7C15)
    z ^= z >> np.uint64(29)
    return np.int64(z & np.uint64(size - 1))


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _sure(h, s, t, lb):
    """Tricks seat ``s`` on lead takes for sure by cashing winners: its unbroken sequence of top
    trumps, plus, when nobody else holds a trump (or at no-trump), its unbroken sequence of top
    cards in each other class (a top card wins whatever the others play)."""
    allc = h[0] | h[1] | h[2] | h[3]
    mine = h[s]
    q = 0
    if t != NT:
        tr = allc & TABS[lb, t, 4]
        while tr != U0:
            c = max_power_card(tr, t, lb)
            if (mine >> np.uint64(c)) & U1 == U0:
                break
            q += 1
            tr &= ~(U1 << np.uint64(c))
        if allc & ~mine & TABS[lb, t, 4] != U0:
            return q
    for k in range(4):
        cl = allc & TABS[lb, t, k] & ~TABS[lb, t, 4]
        while cl != U0:
            c = highest(cl)
            if (mine >> np.uint64(c)) & U1 == U0:
                break
            q += 1
            cl &= ~(U1 << np.uint64(c))
    return q


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _top_trumps(h, t, lb):
    """(seat, q): the seat holding the highest trump still in play and the length of its
    unbroken sequence from the top; (-1, 0) if no trump is left. Each of those q cards is the
    highest trump in play when its holder plays it, so it wins that trick."""
    tr = (h[0] | h[1] | h[2] | h[3]) & TABS[lb, t, 4]
    if tr == U0:
        return -1, 0
    c = max_power_card(tr, t, lb)
    p = 0
    for s in range(4):
        if (h[s] >> np.uint64(c)) & U1:
            p = s
    q = 0
    while tr != U0:
        c = max_power_card(tr, t, lb)
        if (h[p] >> np.uint64(c)) & U1 == U0:
            break
        q += 1
        tr &= ~(U1 << np.uint64(c))
    return p, q


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _last_trick(h, leader, t, lb, taker):
    """1 if the taker wins the last trick (every seat holds one card), else 0."""
    c = lowest(h[leader])
    led = CSUIT[lb, t, c]
    wp = POWER[lb, t, c]
    ws = leader
    for k in range(1, 4):
        s = (leader + k) & 3
        d = lowest(h[s])
        if beats(d, led, wp, t, lb):
            wp = POWER[lb, t, d]
            ws = s
    return 1 if ws == taker else 0


# ============================================================================
# the null-window search
# ============================================================================
@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _tt_store(ws, slot, tag, result, target, left):
    """Merge the outcome of a search with ``target`` into the bounds stored at ``slot``."""
    e = ws[slot]
    lo = 0
    hi = left
    if (e >> np.uint64(6)) == tag:
        lo = np.int64((e >> np.uint64(3)) & np.uint64(7))
        hi = np.int64(e & np.uint64(7))
    if result:
        if target > lo:
            lo = target
    elif target - 1 < hi:
        hi = target - 1
    ws[slot] = (tag << np.uint64(6)) | (np.uint64(lo) << np.uint64(3)) | np.uint64(hi)


@njit(cache=True, nogil=True, _nrt=False)
def _search(h, t, lb, rules, taker, leader, n, led, win_pow, win_seat, tmask, target, left, ws):
    """True iff the taker's side can take >= ``target`` of the ``left`` remaining tricks
    (the current one included). ``n`` cards are in the current trick (mask ``tmask``), led
    class ``led``, winning power ``win_pow`` by ``win_seat``. ``h`` is restored on return.

    Depth-first with an explicit stack (one record of NF words per card played, in ``ws``) rather
    than recursion: numba's cache cannot hold a recursive function reliably (numba issues 6061,
    6713). ``mode`` 0 evaluates the node whose state is in the local variables, 1 plays the next
    move of node ``d``, 2 hands the value ``res`` of node ``d`` back to its parent."""
    gen = ws[W_GEN]
    size = np.int64(1) << np.int64(ws[W_BITS])
    d = 0
    mode = 0
    res = False
    while True:
        if mode == 0:
            ws[W_NODES] += U1
            mode = 1
            slot = -1
            tag = U0
            if n == 0:
                if target <= 0:
                    res = True
                    mode = 2
                elif target > left:
                    res = False
                    mode = 2
                elif left == 1:
                    res = _last_trick(h, leader, t, lb, taker) >= target
                    mode = 2
                else:
                    # quick bounds: the leader's cashable winners; the top trumps of one hand
                    # (each wins the trick it falls in, whoever leads)
                    q = _sure(h, leader, t, lb)
                    lo = 0
                    hi = left
                    if leader == taker:
                        lo = q
                    else:
                        hi = left - q
                    if t != NT:
                        p, qp = _top_trumps(h, t, lb)
                        if p == taker:
                            if qp > lo:
                                lo = qp
                        elif p >= 0 and left - qp < hi:
                            hi = left - qp
                    if lo >= target:
                        res = True
                        mode = 2
                    elif hi < target:
                        res = False
                        mode = 2
                if mode == 1 and n == 0:
                    r24 = _pack24(h[0] | h[1] | h[2] | h[3])
                    tag = (gen << np.uint64(26)) | (r24 << np.uint64(2)) | np.uint64(leader)
                    slot = W_TT + _slot(tag, size)
                    e = ws[slot]
                    if (e >> np.uint64(6)) == tag:
                        if np.int64((e >> np.uint64(3)) & np.uint64(7)) >= target:
                            res = True
                            mode = 2
                        elif np.int64(e & np.uint64(7)) < target:
                            res = False
                            mode = 2
            if mode == 1:
                s = (leader + n) & 3
                legal = legal_mask(h[s], n, led, win_pow, t, rules, lb)
                cand = _reps(legal, h[0] | h[1] | h[2] | h[3] | tmask, t, lb)
                maxing = s == taker
                # move ordering: a leader's top cards (nothing higher held by another seat)
                # first; a follower's cards that take the trick from the other side first, or,
                # when its own side is already winning it, the cards that do not
                if n == 0:
                    others = (h[0] | h[1] | h[2] | h[3]) & ~h[s]
                    first = U0
                    m = cand
                    while m != U0:
                        c = lowest(m)
                        m &= m - U1
                        if HIGHER[lb, t, c] & others == U0:
                            first |= U1 << np.uint64(c)
                    second = cand & ~first
                else:
                    win = U0
                    m = cand
                    while m != U0:
                        c = lowest(m)
                        m &= m - U1
                        if beats(c, led, win_pow, t, lb):
                            win |= U1 << np.uint64(c)
                    if (win_seat == taker) == maxing:
                        first = cand & ~win
                        second = win
                    else:
                        first = win
                        second = cand & ~win
                base = W_STACK + d * NF
                ws[base + F_M0] = first
                ws[base + F_M1] = second
                ws[base + F_SEAT] = np.uint64(s)
                ws[base + F_LEADER] = np.uint64(leader)
                ws[base + F_N] = np.uint64(n)
                ws[base + F_LED] = np.uint64(led)
                ws[base + F_WP] = np.uint64(win_pow)
                ws[base + F_WS] = np.uint64(win_seat)
                ws[base + F_TMASK] = tmask
                ws[base + F_TARGET] = np.uint64(target)
                ws[base + F_LEFT] = np.uint64(left)
                ws[base + F_SLOT] = np.uint64(slot)
                ws[base + F_TAG] = tag
                ws[base + F_MAX] = np.uint64(1 if maxing else 0)
        elif mode == 1:
            base = W_STACK + d * NF
            m = ws[base + F_M0]
            if m != U0:
                if ws[base + F_N] == U0:
                    c = max_power_card(m, t, lb)
                else:
                    c = min_power_card(m, t, lb)
                ws[base + F_M0] = m & ~(U1 << np.uint64(c))
            else:
                m = ws[base + F_M1]
                if m == U0:     # every move tried, none reached the node's goal
                    res = ws[base + F_MAX] == U0
                    slot = np.int64(ws[base + F_SLOT])
                    if slot >= 0:
                        _tt_store(ws, slot, ws[base + F_TAG], res, np.int64(ws[base + F_TARGET]),
                                  np.int64(ws[base + F_LEFT]))
                    mode = 2
                    continue
                if ws[base + F_N] == U0:
                    c = max_power_card(m, t, lb)
                else:
                    c = min_power_card(m, t, lb)
                ws[base + F_M1] = m & ~(U1 << np.uint64(c))
            ws[base + F_CARD] = np.uint64(c)
            s = np.int64(ws[base + F_SEAT])
            leader = np.int64(ws[base + F_LEADER])
            n = np.int64(ws[base + F_N])
            led = np.int64(ws[base + F_LED])
            win_pow = np.int64(ws[base + F_WP])
            win_seat = np.int64(ws[base + F_WS])
            tmask = ws[base + F_TMASK]
            target = np.int64(ws[base + F_TARGET])
            left = np.int64(ws[base + F_LEFT])
            b = U1 << np.uint64(c)
            h[s] ^= b
            if n == 0:
                led = CSUIT[lb, t, c]
                win_pow = POWER[lb, t, c]
                win_seat = s
            elif beats(c, led, win_pow, t, lb):
                win_pow = POWER[lb, t, c]
                win_seat = s
            if n == 3:
                if win_seat == taker:
                    target -= 1
                left -= 1
                leader = win_seat
                n = 0
                led = 0
                win_pow = -1
                tmask = U0
            else:
                n += 1
                tmask |= b
            d += 1
            mode = 0
        else:
            if d == 0:
                return res
            d -= 1
            base = W_STACK + d * NF
            h[np.int64(ws[base + F_SEAT])] ^= U1 << ws[base + F_CARD]
            if res == (ws[base + F_MAX] != U0):     # a cut-off: this node's goal is reached
                slot = np.int64(ws[base + F_SLOT])
                if slot >= 0:
                    _tt_store(ws, slot, ws[base + F_TAG], res, np.int64(ws[base + F_TARGET]),
                              np.int64(ws[base + F_LEFT]))
            else:
                mode = 1


# ============================================================================
# entry points (one position)
# ============================================================================
@njit(cache=True, nogil=True, _nrt=False)
def _trick_state(trick, n_in_trick, leader, t, lb):
    """(led class, winning power, winning seat, mask) of a trick in progress."""
    led = np.int64(0)
    wp = np.int64(-1)
    ws = np.int64(leader)
    tm = U0
    for k in range(n_in_trick):
        c = trick[k]
        tm |= U1 << np.uint64(c)
        if k == 0:
            led = CSUIT[lb, t, c]
            wp = POWER[lb, t, c]
        elif beats(c, led, wp, t, lb):
            wp = POWER[lb, t, c]
            ws = (leader + k) & 3
    return led, wp, ws, tm


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _left(hands, leader, n_in_trick):
    """Tricks left, the current one included (the leader has played if n_in_trick > 0)."""
    k = popcount(hands[leader])
    return k + 1 if n_in_trick > 0 else k


@njit(cache=True, nogil=True, _nrt=False)
def _new_gen(ws):
    """A fresh generation: every table entry of an older one is ignored."""
    g = ws[W_GEN] + U1
    if g >= np.uint64(1 << 32):   # after 2**32 solves: clear the table and start over
        for i in range(W_TT, ws.shape[0]):
            ws[i] = U0
        g = U1
    ws[W_GEN] = g


@njit(cache=True, nogil=True, _nrt=False)
def can_make(hands, leader, trick, n_in_trick, t, taker, rules, target, ws):
    """True iff the taker can take at least ``target`` of the remaining tricks (the trick in
    progress included) against any defence."""
    lb = rules[R_LEFT_BOWER_TRUMP]
    led, wp, wseat, tm = _trick_state(trick, n_in_trick, leader, t, lb)
    _new_gen(ws)
    return _search(hands, t, lb, rules, taker, leader, n_in_trick, led, wp, wseat, tm, target,
                   _left(hands, leader, n_in_trick), ws)


@njit(cache=True, nogil=True, _nrt=False)
def _value(hands, leader, trick, n_in_trick, t, taker, rules, ws, lb):
    """Exact value by null-window searches sharing the table (same generation)."""
    led, wp, wseat, tm = _trick_state(trick, n_in_trick, leader, t, lb)
    left = _left(hands, leader, n_in_trick)
    lo = 0
    hi = left
    while lo < hi:      # lo <= value <= hi; each search halves the interval
        k = (lo + hi + 1) >> 1
        if _search(hands, t, lb, rules, taker, leader, n_in_trick, led, wp, wseat, tm, k, left, ws):
            lo = k
        else:
            hi = k - 1
    return lo


@njit(cache=True, nogil=True, _nrt=False)
def solve(hands, leader, trick, n_in_trick, t, taker, rules, ws):
    """Exact number of the remaining tricks (the one in progress included) that the taker
    takes with perfect play by all four seats, seeing all cards."""
    lb = rules[R_LEFT_BOWER_TRUMP]
    _new_gen(ws)
    return _value(hands, leader, trick, n_in_trick, t, taker, rules, ws, lb)


@njit(cache=True, nogil=True, _nrt=False)
def _keeps(h, leader, cur, n, t, taker, rules, ws, lb, need):
    """Does the position after ``cur[:n]`` (n = 1..4 cards of the trick led by ``leader``) have
    exactly the value ``need`` (counting the trick of ``cur``)?"""
    led, wp, wseat, tm = _trick_state(cur, n, leader, t, lb)
    if n == 4:
        k = need - (1 if wseat == taker else 0)
        lf = popcount(h[wseat])
        return _search(h, t, lb, rules, taker, wseat, np.int64(0), np.int64(0), np.int64(-1), wseat, U0, k,
                       lf, ws) \
            and not _search(h, t, lb, rules, taker, wseat, np.int64(0), np.int64(0), np.int64(-1), wseat, U0,
                            k + 1, lf, ws)
    lf = _left(h, leader, n)
    return _search(h, t, lb, rules, taker, leader, n, led, wp, wseat, tm, need, lf, ws) \
        and not _search(h, t, lb, rules, taker, leader, n, led, wp, wseat, tm, need + 1, lf, ws)


@njit(cache=True, nogil=True, _nrt=False)
def principal_variation(hands, leader, trick, n_in_trick, t, taker, rules, ws, cur, out):
    """One optimal line from the position: fills ``out`` (int64[>= cards left]) with the cards
    in play order and returns (value, number of cards). At each turn it plays the lowest-power
    legal card after which the value is unchanged (both sides play perfectly). ``cur``
    int64[4] is scratch; ``hands`` is restored."""
    lb = rules[R_LEFT_BOWER_TRUMP]
    _new_gen(ws)
    v = _value(hands, leader, trick, n_in_trick, t, taker, rules, ws, lb)
    need = v                        # taker tricks still due from the current position
    for k in range(n_in_trick):
        cur[k] = trick[k]
    n = n_in_trick
    ld = leader
    nout = 0
    total = popcount(hands[0]) + popcount(hands[1]) + popcount(hands[2]) + popcount(hands[3])
    for _ in range(total):
        led, wp, wseat, tm = _trick_state(cur, n, ld, t, lb)
        s = (ld + n) & 3
        m = legal_mask(hands[s], n, led, wp, t, rules, lb)
        chosen = -1
        while m != U0 and chosen < 0:
            c = min_power_card(m, t, lb)
            b = U1 << np.uint64(c)
            m &= ~b
            hands[s] ^= b
            cur[n] = c
            if _keeps(hands, ld, cur, n + 1, t, taker, rules, ws, lb, need):
                chosen = c          # keep the card played
            else:
                hands[s] ^= b
        out[nout] = chosen          # some legal card always keeps the value
        nout += 1
        n += 1
        if n == 4:
            led, wp, wseat, tm = _trick_state(cur, 4, ld, t, lb)
            if wseat == taker:
                need -= 1
            ld = wseat
            n = 0
    n = n_in_trick                  # give the cards back: replay the line to find who played what
    ld = leader
    for k in range(n_in_trick):
        cur[k] = trick[k]
    for i in range(nout):
        hands[(ld + n) & 3] |= U1 << np.uint64(out[i])
        cur[n] = out[i]
        n += 1
        if n == 4:
            led, wp, wseat, tm = _trick_state(cur, 4, ld, t, lb)
            ld = wseat
            n = 0
    return v, nout


# ============================================================================
# batch entry points
# ============================================================================
@njit(cache=True, nogil=True, parallel=True)
def solve_batch(hands, leaders, trumps, takers, rules, out):
    """Exact values of many trick-boundary positions: row i of ``hands`` (uint64[n, 4]) with
    leader ``leaders[i]``, trump ``trumps[i]``, taker ``takers[i]`` (int64[n] each); writes
    ``out[i]`` (int64[n]). One workspace per chunk of CHUNK positions."""
    n = hands.shape[0]
    nch = (n + CHUNK - 1) // CHUNK
    for ch in prange(nch):
        ws = _workspace(TT_BITS)
        h = np.zeros(4, np.uint64)
        trick = np.zeros(4, np.int64)
        for i in range(ch * CHUNK, min(n, (ch + 1) * CHUNK)):
            for s in range(4):
                h[s] = hands[i, s]
            out[i] = solve(h, leaders[i], trick, np.int64(0), trumps[i], takers[i], rules, ws)


@njit(cache=True, nogil=True)
def random_deals(key, first, n):
    """uint64[n, 4]: the deals ``first .. first+n-1`` of the stream ``key`` (kernels/rng.py),
    dealt as kernels/boulmous.py deals them."""
    out = np.zeros((n, 4), np.uint64)
    st = np.zeros(1, np.uint64)
    deck = np.zeros(24, np.int64)
    hands = np.zeros(4, np.uint64)
    for i in range(n):
        seed_state(st, key, first + i)
        deal_random(st, deck, hands)
        for s in range(4):
            out[i, s] = hands[s]
    return out


@njit(cache=True, nogil=True)
def _rest_of(fixed):
    """The 18 cards outside ``fixed``, in increasing order (as kernels/boulmous.sim_odds lists them)."""
    rest0 = np.zeros(18, np.int64)
    k = 0
    m = DECK24 & ~fixed
    while m != U0:
        rest0[k] = lowest(m)
        m &= m - U1
        k += 1
    return rest0


@njit(cache=True, nogil=True, inline="always")
def deal_rest(sd, key_deal, idx, rest, rest0, fixed, seat, hands):
    """Deal ``idx`` of the 18 cards ``rest0`` outside ``fixed`` (``seat``'s hand) into ``hands``, exactly as
    kernels/boulmous.sim_odds deals it (``seed_state(key_deal, idx)`` then ``deal_with_fixed``); ``sd`` and
    ``rest`` are scratch."""
    seed_state(sd, key_deal, idx)
    rest[:] = rest0
    deal_with_fixed(sd, rest, fixed, seat, hands, i64(6))


@njit(cache=True, nogil=True, parallel=True)
def sim_odds_open(key_deal, first, n, fixed, seat, rules, out):
    """Open-hand odds of one hand (issue 12 item 4): deal ``first + i`` of the other 18 cards,
    dealt exactly as kernels/boulmous.sim_odds deals it (``seed_state(key_deal, idx)`` then
    ``deal_with_fixed``: the same cards in every seat), with ``seat`` holding ``fixed`` as the
    taker of a forced contract in each trump 0..4, leading the first trick (rule 10, as
    ``play_tricks`` does). Writes ``out[i, t]`` (int64[n, 5]) = the taker's tricks under
    open-hand play (every seat sees every card and plays perfectly, ``solve``)."""
    rest0 = _rest_of(fixed)
    nch = (n + CHUNK - 1) // CHUNK
    for ch in prange(nch):
        ws = _workspace(TT_BITS)
        sd = np.zeros(1, np.uint64)
        rest = np.zeros(18, np.int64)
        hands = np.zeros(4, np.uint64)
        trick = np.zeros(4, np.int64)
        for i in range(ch * CHUNK, min(n, (ch + 1) * CHUNK)):
            deal_rest(sd, key_deal, first + i, rest, rest0, fixed, seat, hands)
            for t in range(5):
                out[i, t] = solve(hands, seat, trick, np.int64(0), np.int64(t), seat, rules, ws)


@njit(cache=True, nogil=True, parallel=True)
def sim_odds_tricks(key_deal, key_dec, first, n, fixed, seat, dealer, rules, hcodes, hparams, out):
    """The heuristics' side of ``sim_odds_open``, deal by deal: ``out[i, t]`` = the taker's tricks
    in deal ``first + i`` with trump ``t`` played by the heuristics exactly as
    kernels/boulmous.sim_odds plays it (same deal, same ``seed_state(key_dec, idx)`` before each
    trump), so summing ``out`` into a histogram gives sim_odds's counts ``[0:35]``."""
    lb = rules[R_LEFT_BOWER_TRUMP]
    rest0 = _rest_of(fixed)
    nch = (n + CHUNK - 1) // CHUNK
    for ch in prange(nch):
        st = np.zeros(1, np.uint64)
        sd = np.zeros(1, np.uint64)
        rest = np.zeros(18, np.int64)
        hands = np.zeros(4, np.uint64)
        work = np.zeros(4, np.uint64)
        rec = np.zeros(REC_LEN, np.int64)
        nogame = no_game()
        for i in range(ch * CHUNK, min(n, (ch + 1) * CHUNK)):
            idx = first + i
            deal_rest(sd, key_deal, idx, rest, rest0, fixed, seat, hands)
            for t in range(5):
                seed_state(st, key_dec, idx)
                play_deal(hands, work, dealer, seat, i64(3), i64(t), i64(NOBODY), rules, hcodes, hparams, st, lb, rec,
                          nogame)
                out[i, t] = rec[REC_WON + seat]


@njit(cache=True, nogil=True, parallel=True)
def sim_classes_play(key_deal, key_dec, first, n, rules, hcodes, hparams, with_open, out):
    """The hand-class study deal by deal (kernels/boulmous.sim_classes: the same deal and decisions): the first
    to speak (seat 0, dealer 3) takes bid 3 in the trump its heuristic prefers. ``out[i]`` (int64[n, 3]) = (its
    hand class ``(ntrumps * 3 + bowers) * 5 + side aces``, -1 when it chose no-trump; its tricks under the
    heuristics; its tricks under open-hand play with the same trump, on lead, if ``with_open``, else -1)."""
    lb = rules[R_LEFT_BOWER_TRUMP]
    nch = (n + CHUNK - 1) // CHUNK
    for ch in prange(nch):
        ws = _workspace(TT_BITS)
        st = np.zeros(1, np.uint64)
        sd = np.zeros(1, np.uint64)
        deck = np.zeros(24, np.int64)
        hands = np.zeros(4, np.uint64)
        work = np.zeros(4, np.uint64)
        trick = np.zeros(4, np.int64)
        rec = np.zeros(REC_LEN, np.int64)
        nogame = no_game()
        for i in range(ch * CHUNK, min(n, (ch + 1) * CHUNK)):
            idx = first + i
            seed_state(sd, key_deal, idx)
            seed_state(st, key_dec, idx)
            deal_random(sd, deck, hands)
            play_deal(hands, work, i64(3), i64(0), i64(3), i64(HEURISTIC_TRUMP), i64(NOBODY), rules, hcodes, hparams, st, lb, rec,
                      nogame)
            t = rec[REC_TRUMP]
            out[i, 1] = rec[REC_WON]
            out[i, 2] = -1
            if t == NT:
                out[i, 0] = -1
                continue
            ntr, nbow, aces = hand_class(hands[0], t, lb)
            out[i, 0] = (ntr * 3 + nbow) * 5 + aces
            if with_open:
                out[i, 2] = solve(hands, np.int64(0), trick, np.int64(0), t, np.int64(0), rules, ws)


@njit(cache=True, nogil=True, _nrt=False)
def rules_probe(hand, n_in_trick, led, win_pow, t, rules, c):
    """``legal_mask``, ``beats`` and the tables of kernels/boulmous.py (and HIGHER, built from them)
    as compiled into THIS module's cache. The tests compare them with kernels/boulmous.py called
    directly: a difference means this module's numba cache is stale (clear kernels/__pycache__)."""
    lb = rules[R_LEFT_BOWER_TRUMP]
    return legal_mask(hand, n_in_trick, led, win_pow, t, rules, lb), beats(c, led, win_pow, t, lb), \
        POWER[lb, t, c], CSUIT[lb, t, c], HIGHER[lb, t, c]


# ============================================================================
# the sampling player (PIMC): played by kernels/pimc_boulmous.py
# ============================================================================
GOAL_TRICKS, GOAL_CONTRACT = 0, 1
RACE_MIN_WORLDS = 8     # pimc_choose's race looks at the lead from this many worlds on


@njit(cache=True, nogil=True)
def _history(played, n_played, taker, t, lb, who, pos, led_of, wp_of):
    """Replays the cards played so far (the taker leads the first trick, rule 10): fills, per
    card, its seat, its place in its trick and the trick's led class and winning power before it.
    Returns (leader of the current trick, cards in it, its led class, winning power, winning seat,
    taker tricks so far)."""
    leader = taker
    n = 0
    led = 0
    wp = -1
    wseat = taker
    won = 0
    held = np.zeros(4, np.uint64)   # apply_card's hands: not tracked here
    for i in range(n_played):
        c = played[i]
        s = (leader + n) & 3
        who[i] = s
        pos[i] = n
        led_of[i] = led             # (for a lead, n == 0: never read)
        wp_of[i] = wp
        led, wp, wseat = apply_card(held, s, c, n, led, wp, wseat, t, lb)
        n, leader, won = _next_card(n, leader, wseat, taker, won)
    return leader, n, led, wp, wseat, won


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _next_card(n, leader, wseat, taker, won):
    """After the ``n``-th card (0 = the lead) of a trick: (cards in the trick, its leader, the taker's tricks);
    a full trick goes to its winner, who leads the next."""
    if n < 3:
        return n + 1, leader, won
    return 0, wseat, won + (1 if wseat == taker else 0)


@njit(cache=True, nogil=True)
def _consistent(world, seat, played, n_played, who, pos, led_of, wp_of, t, rules, lb):
    """Would every card the other seats played have been legal with the hands of ``world``?"""
    for i in range(n_played):
        s = who[i]
        if s == seat or pos[i] == 0:
            continue
        then = world[s]
        for j in range(i, n_played):
            if who[j] == s:
                then |= U1 << np.uint64(played[j])
        if legal_mask(then, pos[i], led_of[i], wp_of[i], t, rules, lb) & (U1 << np.uint64(played[i])) == U0:
            return False
    return True


@njit(cache=True, nogil=True)
def _sampler(seat, hand, played, n_played, who, pos, led_of, wp_of, t, rules, lb):
    """What the other seats may hold, seen from ``seat``: (others int64[3], their hand sizes
    cap int64[3], elig uint64[3] the unseen cards each may hold, ucards int64[nu] the unseen
    cards, ways int64[nu+1, cap0+1, cap1+1]). A card is ineligible for a seat when holding it
    would have made one of that seat's plays illegal (with the cards known to be in its hand
    then: that play and its later ones); legality only grows more restrictive with more cards,
    so this is exact per card. ways[i, a, b] counts the layouts of ucards[i:] giving a cards to
    others[0], b to others[1] and the rest to others[2], each card to a seat it is eligible for."""
    pm = U0
    for i in range(n_played):
        pm |= U1 << np.uint64(played[i])
    unseen = DECK24 & ~hand & ~pm
    per_seat = np.zeros(4, np.int64)
    for i in range(n_played):
        per_seat[who[i]] += 1
    start = popcount(hand) + per_seat[seat]
    others = np.zeros(3, np.int64)
    cap = np.zeros(3, np.int64)
    elig = np.zeros(3, np.uint64)
    j = 0
    for s in range(4):
        if s != seat:
            others[j] = s
            cap[j] = start - per_seat[s]
            elig[j] = unseen
            j += 1
    for i in range(n_played):
        s = who[i]
        if s == seat or pos[i] == 0:
            continue
        known = U0
        for k in range(i, n_played):
            if who[k] == s:
                known |= U1 << np.uint64(played[k])
        jj = 0 if others[0] == s else (1 if others[1] == s else 2)
        m = elig[jj]
        while m != U0:
            c = lowest(m)
            m &= m - U1
            b = U1 << np.uint64(c)
            if legal_mask(known | b, pos[i], led_of[i], wp_of[i], t, rules, lb) \
                    & (U1 << np.uint64(played[i])) == U0:
                elig[jj] &= ~b
    nu = popcount(unseen)
    ucards = np.zeros(nu, np.int64)
    m = unseen
    for k in range(nu):
        ucards[k] = lowest(m)
        m &= m - U1
    ways = np.zeros((nu + 1, cap[0] + 1, cap[1] + 1), np.int64)
    ways[nu, 0, 0] = 1
    for i in range(nu - 1, -1, -1):
        b0 = U1 << np.uint64(ucards[i])
        for a in range(cap[0] + 1):
            for b in range(cap[1] + 1):
                c3 = nu - i - a - b
                if c3 < 0 or c3 > cap[2]:
                    continue
                w = 0
                if a > 0 and elig[0] & b0:
                    w += ways[i + 1, a - 1, b]
                if b > 0 and elig[1] & b0:
                    w += ways[i + 1, a, b - 1]
                if c3 > 0 and elig[2] & b0:
                    w += ways[i + 1, a, b]
                ways[i, a, b] = w
    return others, cap, elig, ucards, ways


@njit(cache=True, nogil=True)
def _draw(st, world, others, cap, elig, ucards, ways):
    """One layout uniformly among those counted by ``ways[0, cap0, cap1]`` (> 0) into
    ``world`` (the seats of ``others`` only)."""
    for j in range(3):
        world[others[j]] = U0
    a = cap[0]
    b = cap[1]
    for i in range(ucards.shape[0]):
        b0 = U1 << np.uint64(ucards[i])
        r = below(st, ways[i, a, b])
        w0 = ways[i + 1, a - 1, b] if a > 0 and elig[0] & b0 else 0
        if r < w0:
            world[others[0]] |= b0
            a -= 1
            continue
        r -= w0
        w1 = ways[i + 1, a, b - 1] if b > 0 and elig[1] & b0 else 0
        if r < w1:
            world[others[1]] |= b0
            b -= 1
        else:
            world[others[2]] |= b0


@njit(cache=True, nogil=True, inline="always")
def _world(st, world, seat, hand, others, cap, elig, ucards, ways, played, n_played, who, pos, led_of, wp_of, t,
           rules, lb):
    """Draw one world (``_draw``) consistent with every card played, ``seat`` holding ``hand``."""
    for _try in range(100):     # a safety net: the per-card constraints are exact
        _draw(st, world, others, cap, elig, ucards, ways)
        if _consistent(world, seat, played, n_played, who, pos, led_of, wp_of, t, rules, lb):
            break
    world[seat] = hand


@njit(cache=True, nogil=True)
def sample_worlds(seat, hand, played, n_played, taker, t, rules, key, deal_index, out):
    """``out.shape[0]`` worlds (uint64[n, 4]) as pimc_card samples them (the same stream):
    uniform among the layouts consistent with what ``seat`` has seen. Returns the number of
    consistent layouts (0: none, ``out`` untouched)."""
    lb = rules[R_LEFT_BOWER_TRUMP]
    who = np.zeros(24, np.int64)
    pos = np.zeros(24, np.int64)
    led_of = np.zeros(24, np.int64)
    wp_of = np.zeros(24, np.int64)
    _history(played, n_played, taker, t, lb, who, pos, led_of, wp_of)
    others, cap, elig, ucards, ways = _sampler(seat, hand, played, n_played, who, pos, led_of, wp_of, t, rules, lb)
    total = ways[0, cap[0], cap[1]]
    if total == 0:
        return 0
    st = np.zeros(1, np.uint64)
    seed_state(st, key, deal_index)
    seed_state(st, st[0], n_played)
    world = np.zeros(4, np.uint64)
    for w in range(out.shape[0]):
        _world(st, world, seat, hand, others, cap, elig, ucards, ways, played, n_played, who, pos, led_of, wp_of, t,
               rules, lb)
        for s in range(4):
            out[w, s] = world[s]
    return total


@njit(cache=True, nogil=True)
def pimc_card(seat, hand, played, n_played, taker, t, bid, rules, worlds, goal, key, deal_index, ws):
    """``pimc_choose`` without the race (every one of the ``worlds`` worlds is solved)."""
    return pimc_choose(seat, hand, played, n_played, taker, t, bid, rules, worlds, goal, key, deal_index, ws, 0.0)


@njit(cache=True, nogil=True)
def pimc_choose(seat, hand, played, n_played, taker, t, bid, rules, worlds, goal, key, deal_index, ws, race):
    """The card a sampling (PIMC) player in ``seat`` plays, from what it sees: its ``hand``
    (uint64), the cards ``played[:n_played]`` (int64) in play order since the first trick (led
    by the taker), the contract (``taker``, trump ``t``, ``bid``) and the rules.

    It samples ``worlds`` layouts of the unseen cards, uniformly among those consistent with all
    it has seen: the hand sizes, and every card another seat played being legal with that seat's
    hand at the time (which covers the voids shown, with the left bower's class, and what the
    trumping and heading obligations reveal); see ``_sampler``, ``sample_worlds``. Each candidate
    (one card per run of equivalent legal cards) is scored on the same worlds by the solver:
    GOAL_TRICKS the taker's tricks, GOAL_CONTRACT first the number of worlds where the contract
    is made, then the tricks. The taker maximises, a defender minimises; ties go to the
    lowest-ranking card; a single candidate is played without sampling. Randomness: its own
    stream ``seed_state(seed_state(key, deal_index), n_played)``, so a decision is a pure function
    of the view and (key, deal_index). ``ws`` is a solver workspace (new_workspace()).

    The race (``race`` = z > 0, a statistical margin): from RACE_MIN_WORLDS worlds on, after each world the
    sampling stops when the leading candidate (by the rule above, on the worlds so far) leads every other by
    more than z standard errors of their paired per-world differences, L > z * sqrt(sum of d^2), in the
    measure that separates them: the makes (GOAL_CONTRACT) when their totals differ, else the tricks. It is a
    bet that the worlds left would not overturn the lead; how often it changes a decision is measured (README).
    ``race`` = 0: every world is solved."""
    lb = rules[R_LEFT_BOWER_TRUMP]
    who = np.zeros(24, np.int64)
    pos = np.zeros(24, np.int64)
    led_of = np.zeros(24, np.int64)
    wp_of = np.zeros(24, np.int64)
    leader, ntr, led, wp, wseat, won = _history(played, n_played, taker, t, lb, who, pos, led_of, wp_of)
    cur = np.zeros(4, np.int64)
    tmask = U0
    for k in range(ntr):
        cur[k] = played[n_played - ntr + k]
        tmask |= U1 << np.uint64(cur[k])
    pm = U0
    for i in range(n_played):
        pm |= U1 << np.uint64(played[i])
    legal = legal_mask(hand, ntr, led, wp, t, rules, lb)
    cand = _reps(legal, DECK24 & ~pm | tmask, t, lb)
    ncand = popcount(cand)
    if ncand == 1:
        return lowest(cand)
    cards = np.zeros(ncand, np.int64)
    m = cand
    for k in range(ncand):          # lowest-ranking first: ties go to the cheaper card
        c = min_power_card(m, t, lb)
        cards[k] = c
        m &= ~(U1 << np.uint64(c))
    others, cap, elig, ucards, ways = _sampler(seat, hand, played, n_played, who, pos, led_of, wp_of, t, rules, lb)
    if ways[0, cap[0], cap[1]] == 0:
        return cards[0]             # no layout fits (cannot happen in a legal game)
    st = np.zeros(1, np.uint64)
    seed_state(st, key, deal_index)
    seed_state(st, st[0], n_played)
    world = np.zeros(4, np.uint64)
    h = np.zeros(4, np.uint64)
    trick = np.zeros(4, np.int64)
    tricks = np.zeros(ncand, np.int64)
    makes = np.zeros(ncand, np.int64)
    wmul = 7 * worlds if goal == GOAL_CONTRACT else 0   # makes first, then tricks (at most 6 * worlds)
    per = np.zeros((worlds if race > 0.0 else 1, ncand), np.int64)    # per world: 8 * made + tricks
    for w in range(worlds):
        _world(st, world, seat, hand, others, cap, elig, ucards, ways, played, n_played, who, pos, led_of, wp_of, t,
               rules, lb)
        for k in range(ncand):      # the same world for every candidate
            for s in range(4):
                h[s] = world[s]
            for q in range(ntr):
                trick[q] = cur[q]
            c = cards[k]
            h[seat] ^= U1 << np.uint64(c)
            trick[ntr] = c
            if ntr == 3:
                l2, w2, ws2, tm2 = _trick_state(trick, 4, leader, t, lb)
                v = (1 if ws2 == taker else 0) + solve(h, ws2, trick, np.int64(0), t, taker, rules, ws)
            else:
                v = solve(h, leader, trick, np.int64(ntr + 1), t, taker, rules, ws)
            tricks[k] += v
            if won + v >= bid:
                makes[k] += 1
            if race > 0.0:
                per[w, k] = v + (8 if won + v >= bid else 0)
        if race > 0.0 and RACE_MIN_WORLDS <= w + 1 < worlds:
            sgn = 1 if seat == taker else -1
            best = 0
            for k in range(1, ncand):
                if sgn * (wmul * (makes[k] - makes[best]) + tricks[k] - tricks[best]) > 0:
                    best = k
            done = True
            for k in range(ncand):
                if k == best:
                    continue
                by_makes = wmul > 0 and makes[k] != makes[best]
                lead = 0
                ss = 0
                for q in range(w + 1):
                    if by_makes:
                        d = (per[q, best] >> 3) - (per[q, k] >> 3)
                    else:
                        d = (per[q, best] & 7) - (per[q, k] & 7)
                    lead += d
                    ss += d * d
                if sgn * lead <= 0 or lead * lead <= race * race * ss:
                    done = False
                    break
            if done:
                break
    best = 0
    for k in range(1, ncand):
        if goal == GOAL_CONTRACT and makes[k] != makes[best]:
            better = makes[k] > makes[best]
        elif tricks[k] != tricks[best]:
            better = tricks[k] > tricks[best]
        else:
            continue
        if better == (seat == taker):
            best = k
    return cards[best]


@njit(cache=True, nogil=True)
def pimc_deal(h, taker, t, bid, rules, worlds, goal, key, deal_index, ws, played, race):
    """One deal played out by four PIMC seats (the taker leads, rule 10): ``h`` (uint64[4], emptied) the
    hands, ``played`` (int64[24]) receives the cards in play order. Returns the taker's tricks."""
    lb = rules[R_LEFT_BOWER_TRUMP]
    leader, nt, led, wp, wseat, won = taker, 0, 0, -1, taker, 0      # the taker leads the first trick
    for k in range(24):
        s = (leader + nt) & 3
        c = pimc_choose(s, h[s], played, k, taker, t, bid, rules, worlds, goal, key, deal_index, ws, race)
        played[k] = c
        led, wp, wseat = apply_card(h, s, c, nt, led, wp, wseat, t, lb)
        nt, leader, won = _next_card(nt, leader, wseat, taker, won)
    return won


@njit(cache=True, nogil=True, parallel=True)
def pimc_play_batch(hands, takers, trumps, bids, rules, worlds, goal, key, first, out_cards, out_won):
    """Whole deals with every seat a PIMC player (no race): deal i (row of ``hands`` uint64[n, 4], taker
    ``takers[i]`` on lead, trump ``trumps[i]``, ``bids[i]``) fills ``out_cards[i]`` (int64[24], play
    order) and ``out_won[i]`` (the taker's tricks). Decisions of deal i use deal_index first + i."""
    n = hands.shape[0]
    for i in prange(n):
        ws = _workspace(TT_BITS)
        h = np.zeros(4, np.uint64)
        for s in range(4):
            h[s] = hands[i, s]
        out_won[i] = pimc_deal(h, takers[i], trumps[i], bids[i], rules, worlds, goal, key, first + i, ws,
                               out_cards[i], 0.0)


# ============================================================================
# bidding and trump choice by sampling (issue 12 item 3)
# ============================================================================
CALL_STREAM = 24    # pimc_calls of seat s draws from seed_state(seed_state(key, deal_index), CALL_STREAM + s)


@njit(cache=True, nogil=True)
def pimc_calls(seat, hand, rules, worlds, key, deal_index, ws, sums, bids, trumps):
    """The calls of a sampling (PIMC) player in ``seat`` holding ``hand`` (uint64), before the auction.

    It samples ``worlds`` layouts of the 18 cards it cannot see, uniformly (the earlier bids are not used:
    the decision table below is computed before the auction), and solves each open-handed with the seat as
    the taker, on lead (rule 10), for each trump 0..4 (S H D C NT): its tricks T. A call (bid b, trump t)
    is worth, summed over the worlds, its points (rule 16: T if T >= b, else T - b, or -b without
    failed_taker_keeps_tricks) plus, for b = 6 (boulmous, rule 18), the stakes (+3 made, -3 failed);
    ``sums`` (int64[5, 5]) receives them, rows b - 3 for the bids 3..6, and row 4 the value of passing in
    column 0: the seat's tricks in the suit trump worst for it, summed over the worlds (a stand-in for its
    tricks as a defender against a taker who names his own suit; the same solves, no more).
    ``trumps`` (int64[4]) receives the best trump of each bid (ties: the lower index), ``bids`` (int64[4])
    the bid for each lowest legal bid lo = 3..6: the bid b in lo..6 of the highest value (ties: the lower
    bid), or 0 (pass) when that value does not exceed passing. Randomness: ``seed_state(seed_state(key,
    deal_index), CALL_STREAM + seat)``, apart from the card decisions' streams."""
    lb = rules[R_LEFT_BOWER_TRUMP]
    who = np.zeros(1, np.int64)
    played = np.zeros(1, np.int64)
    others, cap, elig, ucards, ways = _sampler(seat, hand, played, 0, who, who, who, who, NT, rules, lb)
    st = np.zeros(1, np.uint64)
    seed_state(st, key, deal_index)
    seed_state(st, st[0], CALL_STREAM + seat)
    world = np.zeros(4, np.uint64)
    trick = np.zeros(4, np.int64)
    sums[:, :] = 0
    keeps = rules[R_FAILED_KEEPS] != 0
    for _w in range(worlds):
        _draw(st, world, others, cap, elig, ucards, ways)
        world[seat] = hand
        worst = 6
        for t in range(5):
            v = solve(world, seat, trick, np.int64(0), np.int64(t), seat, rules, ws)
            if t < 4 and v < worst:
                worst = v
            for b in range(3, 7):
                if v >= b:
                    p = v
                else:
                    p = v - b if keeps else -b
                if b == 6:
                    p += 3 if v == 6 else -3
                sums[b - 3, t] += p
        sums[4, 0] += worst
    for b in range(4):
        trumps[b] = 0
        for t in range(1, 5):
            if sums[b, t] > sums[b, trumps[b]]:
                trumps[b] = t
    for lo in range(4):
        best = lo
        for b in range(lo + 1, 4):
            if sums[b, trumps[b]] > sums[best, trumps[best]]:
                best = b
        bids[lo] = best + 3 if sums[best, trumps[best]] > sums[4, 0] else 0


@njit(cache=True, nogil=True, parallel=True)
def pimc_replay(hands, takers, trumps, bids, cards, rules, worlds, goal, key, first, race, out, nodes):
    """The race measurement (README): along the play ``cards[i]`` (int64[n, 24], e.g. from ``pimc_play_batch``)
    of deal i (as in ``pimc_play_batch``), each decision with a choice made again by ``pimc_choose`` with margin
    ``race`` from the same view and stream: ``out[i, k]`` = its card, -1 where the seat had one candidate;
    ``nodes[i]`` the solver nodes searched for deal i's decisions (the work, whatever the load)."""
    n = hands.shape[0]
    for i in prange(n):
        ws = _workspace(TT_BITS)
        h = np.zeros(4, np.uint64)
        for s in range(4):
            h[s] = hands[i, s]
        taker = takers[i]
        t = trumps[i]
        lb = rules[R_LEFT_BOWER_TRUMP]
        played = cards[i]
        leader, nt, led, wp, wseat, won = taker, 0, 0, -1, taker, 0
        for k in range(24):
            s = (leader + nt) & 3
            cand = _reps(legal_mask(h[s], nt, led, wp, t, rules, lb), h[0] | h[1] | h[2] | h[3] | _tmask(played, k, nt),
                         t, lb)
            out[i, k] = -1
            if popcount(cand) > 1:
                out[i, k] = pimc_choose(s, h[s], played, k, taker, t, bids[i], rules, worlds, goal, key, first + i, ws,
                                        race)
            led, wp, wseat = apply_card(h, s, played[k], nt, led, wp, wseat, t, lb)
            nt, leader, won = _next_card(nt, leader, wseat, taker, won)
        nodes[i] = np.int64(ws[W_NODES])


@njit(cache=True, nogil=True, inline="always")
def _tmask(played, k, nt):
    """The cards of the trick in progress: the last ``nt`` of ``played[:k]``."""
    m = U0
    for j in range(k - nt, k):
        m |= U1 << np.uint64(played[j])
    return m
