"""Boulmous open-hand (double-dummy) solver: the taker against the three defenders as one side.

Issue 12 item 1. Every seat sees every card and plays perfectly; the taker's side is the taker
alone, the defenders' side the three others (a trick taken by any defender counts for the side).
The value of a position is the number of tricks the taker takes from it on (the trick in progress
included) under best play by both sides.

Contract (same encoding as kernels/boulmous/rules.py, whose tables and ``legal_mask`` decide every play,
so every rule flag of ``rules`` applies: must_head, trump_obligation, left_bower_is_trump):
- ``hands``  uint64[4]: the cards each seat still holds (bit ``suit*16+rank``); the solver
  modifies it while searching and restores it before returning;
- ``leader`` the seat that led (or leads) the current trick; ``trick`` int64[4] the cards
  already played to it in play order, ``n_in_trick`` how many (0 = a trick boundary);
  the seats that have played to it hold one card fewer than the others;
- ``t`` trump index 0..3 = S H D C, 4 = no-trump; ``taker`` the taker's seat 0..3;
- ``rules`` int64[N_RULES] as in kernels/boulmous/rules.py;
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

The sampling player's card decisions use ``solve_shared`` instead (the same value): its table, a second one in
the workspace, is keyed by the whole position (every hand, the leader, the trump, the taker) and kept across the
solves of one scope (``share_scope``, ``scope_of``: one deal of one rule set), so an entry is only ever read for the
very same position; its bounds hold whatever target stored them.

Entry points: ``solve``, ``solve_shared``, ``can_make``, ``principal_variation`` (one position), ``solve_batch``
(many, prange), ``random_deals``.  The odds of one hand open-handed (``sim_odds_open`` and the others) are in
kernels/boulmous/odds_play.py; the sampling player, which solves its sampled worlds here, in
kernels/boulmous/pimc.py.

Numba caches a compiled function keyed on its own file only: the functions imported from
kernels/boulmous/rules.py and players.py (``legal_mask``, ``beats``, ``min_power_card``, the tables) are inlined
into the cached code here, so an edit of those files does NOT invalidate this module's cache.
kernels/__init__.py therefore keys the whole cache on every kernel source (an edit of any kernel
file drops the cached kernels on the next import). The tests
(tests/test_solver_boulmous.py) compare the solver with a pure-Python minimax built on the
referee's legal moves (tests/ref_boulmous.py), so a stale cache that plays the old rules fails them.
"""
import numpy as np
from numba import njit, prange

from ..cards import U0, U1, highest, lowest, popcount
from ..rng import mix64, seed_state
from ..tt import W_BITS, W_GEN, W_HEADER, W_NODES, merge_bounds, new_generation, renew_generation, workspace
from .dealing import deal_random
from .players import max_power_card, min_power_card
from .rules import CSUIT, NT, POWER, R_LEFT_BOWER_TRUMP, TABS, beats, legal_mask

TT_BITS = 14
CHUNK = 64          # deals per prange step of solve_batch

# The workspace ``ws`` (uint64, kernels/tt.py): the shared header; this solver's counters (table probes, probes
# that found their position, entries stored: both tables, summed over the workspace's life) and the shared
# table's generation and scope; the search stack (MAX_DEPTH records of NF words); then the per-solve table (one
# word per entry, 2**bits entries) followed by the shared table (two words per entry, 2**(bits - SHARE_SHRINK)
# entries: a quarter of the slots, half the bytes of the per-solve table, which measured as fast).
W_PROBES, W_HITS, W_STORES, W_SGEN, W_SCOPE = W_HEADER, W_HEADER + 1, W_HEADER + 2, W_HEADER + 3, W_HEADER + 4
W_STACK = W_HEADER + 5
F_M0, F_M1, F_CARD, F_SEAT, F_LEADER, F_N, F_LED, F_WP, F_WS, F_TMASK, F_TARGET, F_LEFT, F_SLOT, F_TAG, \
    F_MAX, F_TAG2 = range(16)
NF = 16
MAX_DEPTH = 25
W_TT = W_STACK + MAX_DEPTH * NF
SHARE_SHRINK = 2    # the shared table has 2**(bits - SHARE_SHRINK) entries of two words
# The shared table (``solve_shared``): an entry is (k0, k1 | lo << 58 | hi << 61), its key the whole position:
# k0 = the cards of seats 0, 1 and the low 16 of seat 2 (24 bits each, ``_pack24``), k1 = the high 8 of seat 2,
# seat 3, the leader, the trump, the taker and the scope's generation (SGEN_BITS bits) from bit 39.
SGEN_BITS = 19
K1_MASK = np.uint64((1 << 58) - 1)


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
    return workspace(W_TT, 1, bits, 2 << max(bits - SHARE_SHRINK, 0))


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
    lo, hi = merge_bounds(lo, hi, result, target)
    ws[slot] = (tag << np.uint64(6)) | (np.uint64(lo) << np.uint64(3)) | np.uint64(hi)


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _store(ws, base, res, shared):
    """The outcome ``res`` of the node whose stack record starts at ``base``, stored in its table (a trick
    boundary's node; the others have no slot)."""
    slot = np.int64(ws[base + F_SLOT])
    if slot >= 0:
        ws[W_STORES] += U1
        if shared:
            _tt_store2(ws, slot, ws[base + F_TAG], ws[base + F_TAG2], res, np.int64(ws[base + F_TARGET]),
                       np.int64(ws[base + F_LEFT]))
        else:
            _tt_store(ws, slot, ws[base + F_TAG], res, np.int64(ws[base + F_TARGET]), np.int64(ws[base + F_LEFT]))


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _key2(h, leader, t, taker, sgen):
    """The shared table's key (k0, k1) of the trick-boundary position: every hand, the leader, the trump, the
    taker, and the scope's generation ``sgen``."""
    p2 = _pack24(h[2])
    k0 = _pack24(h[0]) | (_pack24(h[1]) << np.uint64(24)) | ((p2 & np.uint64(0xFFFF)) << np.uint64(48))
    k1 = (p2 >> np.uint64(16)) | (_pack24(h[3]) << np.uint64(8)) | (np.uint64(leader) << np.uint64(32)) \
        | (np.uint64(t) << np.uint64(34)) | (np.uint64(taker) << np.uint64(37)) | (sgen << np.uint64(39))
    return k0, k1


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _tt_store2(ws, slot, k0, k1, result, target, left):
    """``_tt_store`` in the shared table: merge into the bounds stored at ``slot`` for the key (k0, k1)."""
    lo = 0
    hi = left
    e = ws[slot + 1]
    if ws[slot] == k0 and (e & K1_MASK) == k1:
        lo = np.int64((e >> np.uint64(58)) & np.uint64(7))
        hi = np.int64(e >> np.uint64(61))
    lo, hi = merge_bounds(lo, hi, result, target)
    ws[slot] = k0
    ws[slot + 1] = k1 | (np.uint64(lo) << np.uint64(58)) | (np.uint64(hi) << np.uint64(61))


@njit(cache=True, nogil=True, _nrt=False)
def _search(h, t, lb, rules, taker, leader, n, led, win_pow, win_seat, tmask, target, left, ws, shared):
    """True iff the taker's side can take >= ``target`` of the ``left`` remaining tricks
    (the current one included). ``n`` cards are in the current trick (mask ``tmask``), led
    class ``led``, winning power ``win_pow`` by ``win_seat``. ``h`` is restored on return.

    Depth-first with an explicit stack (one record of NF words per card played, in ``ws``) rather
    than recursion: numba's cache cannot hold a recursive function reliably (numba issues 6061,
    6713). ``mode`` 0 evaluates the node whose state is in the local variables, 1 plays the next
    move of node ``d``, 2 hands the value ``res`` of node ``d`` back to its parent.

    ``shared``: probe and store in the shared table (keys: the whole position, in the scope's generation) rather
    than the per-solve one (keys: the cards still held and the leader, in this solve's generation)."""
    gen = ws[W_GEN]
    sgen = ws[W_SGEN]
    size = np.int64(1) << np.int64(ws[W_BITS])
    table2 = W_TT + size
    sbits = ws[W_BITS] - np.uint64(SHARE_SHRINK) if ws[W_BITS] > np.uint64(SHARE_SHRINK) else U0
    d = 0
    mode = 0
    res = False
    while True:
        if mode == 0:
            ws[W_NODES] += U1
            mode = 1
            slot = -1
            tag = U0
            tag2 = U0
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
                    ws[W_PROBES] += U1
                    found = False
                    elo = 0
                    ehi = 0
                    if shared:
                        tag, tag2 = _key2(h, leader, t, taker, sgen)
                        slot = table2 + 2 * np.int64(((tag * np.uint64(0x9E3779B97F4A7C15) + tag2 * np.uint64(
                            0xBF58476D1CE4E5B9)) >> (np.uint64(63) - sbits)) >> U1)
                        e = ws[slot + 1]
                        if ws[slot] == tag and (e & K1_MASK) == tag2:
                            found = True
                            elo = np.int64((e >> np.uint64(58)) & np.uint64(7))
                            ehi = np.int64(e >> np.uint64(61))
                    else:
                        r24 = _pack24(h[0] | h[1] | h[2] | h[3])
                        tag = (gen << np.uint64(26)) | (r24 << np.uint64(2)) | np.uint64(leader)
                        tag2 = U0
                        slot = W_TT + _slot(tag, size)
                        e = ws[slot]
                        if (e >> np.uint64(6)) == tag:
                            found = True
                            elo = np.int64((e >> np.uint64(3)) & np.uint64(7))
                            ehi = np.int64(e & np.uint64(7))
                    if found:
                        ws[W_HITS] += U1
                        if elo >= target:
                            res = True
                            mode = 2
                        elif ehi < target:
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
                ws[base + F_TAG2] = tag2
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
                    _store(ws, base, res, shared)
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
                _store(ws, base, res, shared)
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
    new_generation(ws, W_TT)


@njit(cache=True, nogil=True, _nrt=False)
def can_make(hands, leader, trick, n_in_trick, t, taker, rules, target, ws):
    """True iff the taker can take at least ``target`` of the remaining tricks (the trick in
    progress included) against any defence."""
    lb = rules[R_LEFT_BOWER_TRUMP]
    led, wp, wseat, tm = _trick_state(trick, n_in_trick, leader, t, lb)
    _new_gen(ws)
    return _search(hands, t, lb, rules, taker, leader, n_in_trick, led, wp, wseat, tm, target,
                   _left(hands, leader, n_in_trick), ws, False)


@njit(cache=True, nogil=True, _nrt=False)
def _value(hands, leader, trick, n_in_trick, t, taker, rules, ws, lb, shared):
    """Exact value by null-window searches sharing the table (same generation; ``shared``: the shared table)."""
    led, wp, wseat, tm = _trick_state(trick, n_in_trick, leader, t, lb)
    left = _left(hands, leader, n_in_trick)
    lo = 0
    hi = left
    while lo < hi:      # lo <= value <= hi; each search halves the interval
        k = (lo + hi + 1) >> 1
        if _search(hands, t, lb, rules, taker, leader, n_in_trick, led, wp, wseat, tm, k, left, ws, shared):
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
    return _value(hands, leader, trick, n_in_trick, t, taker, rules, ws, lb, False)


@njit(cache=True, nogil=True, _nrt=False)
def share_scope(ws, scope):
    """Open the shared table's scope ``scope`` (a uint64 naming, e.g., one deal: its random key, its index and the
    rules, ``scope_of``): when it differs from the workspace's current scope, a fresh generation of the shared
    table, so that no entry of another scope is ever read; within one scope every ``solve_shared`` reads and
    extends the same table."""
    if ws[W_SGEN] == U0 or ws[W_SCOPE] != scope:
        renew_generation(ws, W_SGEN, SGEN_BITS, W_TT + (np.int64(1) << np.int64(ws[W_BITS])), ws.shape[0])
        ws[W_SCOPE] = scope


@njit(cache=True, nogil=True, _nrt=False)
def scope_of(key, index, rules):
    """A scope of the shared table: a hash of a random ``key``, an ``index`` (a deal's) and every rule flag."""
    z = mix64(key ^ mix64(np.uint64(index) + np.uint64(0x9E3779B97F4A7C15)))
    for i in range(rules.shape[0]):
        z = mix64(z ^ np.uint64(rules[i]))
    return z


@njit(cache=True, nogil=True, _nrt=False)
def solve_shared(hands, leader, trick, n_in_trick, t, taker, rules, ws):
    """``solve``, reading and extending the shared table of the workspace's current scope (``share_scope``): its
    keys are whole positions (every hand, the leader, the trump, the taker), its entries bounds on a position's
    exact value, so an entry stored by any solve of the scope is true wherever it is read; the value returned is
    ``solve``'s, only the nodes searched differ. Within one scope the rules must not change (``scope_of`` folds
    them into the scope)."""
    lb = rules[R_LEFT_BOWER_TRUMP]
    return _value(hands, leader, trick, n_in_trick, t, taker, rules, ws, lb, True)


@njit(cache=True, nogil=True, _nrt=False)
def _keeps(h, leader, cur, n, t, taker, rules, ws, lb, need):
    """Does the position after ``cur[:n]`` (n = 1..4 cards of the trick led by ``leader``) have
    exactly the value ``need`` (counting the trick of ``cur``)?"""
    led, wp, wseat, tm = _trick_state(cur, n, leader, t, lb)
    if n == 4:
        k = need - (1 if wseat == taker else 0)
        lf = popcount(h[wseat])
        return _search(h, t, lb, rules, taker, wseat, np.int64(0), np.int64(0), np.int64(-1), wseat, U0, k,
                       lf, ws, False) \
            and not _search(h, t, lb, rules, taker, wseat, np.int64(0), np.int64(0), np.int64(-1), wseat, U0,
                            k + 1, lf, ws, False)
    lf = _left(h, leader, n)
    return _search(h, t, lb, rules, taker, leader, n, led, wp, wseat, tm, need, lf, ws, False) \
        and not _search(h, t, lb, rules, taker, leader, n, led, wp, wseat, tm, need + 1, lf, ws, False)


@njit(cache=True, nogil=True, _nrt=False)
def principal_variation(hands, leader, trick, n_in_trick, t, taker, rules, ws, cur, out):
    """One optimal line from the position: fills ``out`` (int64[>= cards left]) with the cards
    in play order and returns (value, number of cards). At each turn it plays the lowest-power
    legal card after which the value is unchanged (both sides play perfectly). ``cur``
    int64[4] is scratch; ``hands`` is restored."""
    lb = rules[R_LEFT_BOWER_TRUMP]
    _new_gen(ws)
    v = _value(hands, leader, trick, n_in_trick, t, taker, rules, ws, lb, False)
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
    dealt as kernels/boulmous/play.py deals them."""
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


@njit(cache=True, nogil=True, _nrt=False)
def rules_probe(hand, n_in_trick, led, win_pow, t, rules, c):
    """``legal_mask``, ``beats`` and the tables of kernels/boulmous/rules.py (and HIGHER, built from them)
    as compiled into THIS module's cache. The tests compare them with kernels/boulmous/rules.py called
    directly: a difference means this module's numba cache is stale (clear kernels/boulmous/__pycache__)."""
    lb = rules[R_LEFT_BOWER_TRUMP]
    return legal_mask(hand, n_in_trick, led, win_pow, t, rules, lb), beats(c, led, win_pow, t, lb), \
        POWER[lb, t, c], CSUIT[lb, t, c], HIGHER[lb, t, c]
