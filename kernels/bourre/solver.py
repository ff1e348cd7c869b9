"""Bourre open-hand solver (issue 12 item 2): what one seat can guarantee against everyone else.

Every seat sees every card. One seat, ``me``, plays to maximise its own result; every other
seat plays to minimise it, as one adversary (a *paranoid* search: the others act as a
coalition, so the answers are guarantees against any play of theirs, cooperative or not).

Definitions (RULES.md section 3, rules 12 and 14):
- **guaranteed tricks** (``solve``): the largest k such that me takes at least k of the
  remaining tricks (the trick in progress included) whatever the others play. For a whole
  deal it is the number of tricks me can guarantee; total tricks = won so far + this value.
- **surely not bourre** (``can_make(..., 1)``, or ``won[me] + solve(...) >= 1``): me surely
  takes at least one trick in the deal (rule 14: an active player with no trick goes bourre).
- **surely wins the pot** (``can_win``): whatever the others play, at the end of the deal me
  holds *strictly* more tricks than every other active player (rule 12: the pot goes to the
  player who takes more tricks than any other; a tie for most is not a win, rule 13). This
  is a separate game (the adversary may give tricks to whichever other seat suits it), not a
  function of the guaranteed tricks: 3 guaranteed tricks of 5 always win, 2 win only if the
  others cannot both hold me to 2 and give another seat 2, 1 only if they cannot leave me alone
  with 1 while one of them takes another. ``can_win`` implies surely not bourre.
The coalition is stronger than real opponents, who each play for themselves: the answers are
what me can be sure of, not what it should expect.

Contract (encoding of kernels/cards.py: card ``suit*16+rank``, hand = uint64 mask):
- ``hands`` uint64[8]: the cards each seat still holds; seats 0..players-1 are the active players
  in clockwise order (renumber the players who play, skipping those who passed), seats players..7 hold
  nothing. The solver modifies ``hands`` while searching and restores it before returning.
- ``pos`` int64[POS_LEN], the rest of the position (``POS_*`` layout below):
  ``POS_N`` active players 2..8; ``POS_ME`` the seat solved for; ``POS_LEADER`` the seat that led (or
  leads) the current trick; ``POS_NTRICK`` the cards already played to it (0 = a trick boundary)
  and ``POS_TRICK + k`` those cards in play order (the seats that played them hold one card less);
  ``POS_TRUMP`` trump suit 0..3, or -1 under Lo-No; ``POS_LONO`` 1 under Lo-No (low cards win);
  ``POS_LEAD`` a card the leader must lead to the current trick (the Lo-No up-card at the first
  trick), -1 if none; ``POS_AKQ`` bit s set if seat s held A-K-Q of trumps when play began
  (cinch_rule = akq_in_order); ``POS_PLAYED`` the mask of the cards played in earlier tricks;
  ``POS_KNOWN`` the mask of cards known by all to be out of play (``known_out`` of
  kernels/bourre/play.py: a discarded face-up card, a separate turn-up); ``POS_WON + s`` the tricks
  seat s has won so far. Cards neither held, played nor known out (the passers' hands, the
  discards, the stock) are unknown to the players: under cinch_knowledge = holder they count in
  the cinch holder's O, exactly as in kernels/bourre/play.py.
- ``rules`` int64[N_RULES] of kernels/bourre/rules.py; the play flags apply: must_head_in_suit,
  must_trump_when_void, must_overtrump, must_trump_even_if_cannot_win,
  void_must_play_highest_trump, cinch_rule (pagat / hoyle / akq_in_order / none),
  cinch_knowledge, cinch_last_player_exempt.
- ``ws`` uint64[...] the workspace (``new_workspace()``): constants of the solve, the search
  stack and a fixed-size transposition table, allocated once and reused for any number of
  solves (one per thread). Every solve takes a fresh generation number, part of every entry's
  key, so entries of earlier solves never match and nothing is cleared.

Legality is ``legal_play`` of kernels/bourre/rules.py, the play loop of ``play_dealt`` as a function.

Search (``_search``): a null-window alpha-beta (an AND/OR search) for one question at a time,
depth first with an explicit stack (numba's cache cannot hold a recursive function reliably).
- GOAL_TRICKS: "does me take >= target of the remaining tricks?"; me's turns stop at the first
  card that reaches the target, the others' at the first that defeats it. ``solve`` bisects on
  the target with searches sharing the table.
- GOAL_WIN: "does me end with strictly the most tricks?".
- At trick boundaries: cut-offs once the target is reached or out of reach, the last trick
  scored directly, and quick bounds: the unbroken top trumps of one hand (each wins the trick it
  is played to); the leader's draw-and-cash (``_draw``: if his trumps above all the others'
  are at least as many as any other hand's trumps, he draws them keeping the lead, then wins
  with every trump and every top card of a side suit). Mid-trick: once me has played and
  another seat is winning the trick, or me is winning it and nobody still to play can beat its
  card, the trick is counted as decided.
- One move per run of equivalent cards: a legal card is skipped when the next higher card of
  its suit that is still out is held by the same seat and is legal too. "Still out" = in a
  hand, in the trick in progress, or (for trumps, cinch_rule = pagat, holder knowledge) not yet
  seen by all, because such a card separates two trumps in the cinch's matching; under the Hoyle
  and A-K-Q cinch forms a trump below the Q never merges with one of Q-K-A (holding a Q-K-A card
  forces trump leads). The two positions are then the same up to renaming the two cards (rules
  9-11 compare ranks only with cards still out), so they have the same value. The tests check
  this claim card by card against the referee, and keep positions where each separator matters.
- A transposition table probed at trick boundaries. Within one solve the owner of every card
  is fixed, so a boundary position is the cards still held, the leader and the tricks won. In
  GOAL_TRICKS the tricks won matter only through the pagat cinch, so they are keyed only with
  cinch_rule = pagat, only for seats still holding a trump (a seat without one never has a
  cinch again), capped at 4 (the cinch test is the same from 4 on); in GOAL_WIN exactly. An entry
  is two words: the cards with the leader in their unused bits, and (generation, tricks won,
  lower and upper bound of the value); one slot per hash, always replaced.
- Move order: a leader tries the cards no other hand can beat in their suit first, highest
  first, then the rest highest first; a follower weakest first, the cards that take the trick
  first when it is winning for the other side, last when it is winning for its own (me against
  the rest). Rules 10-11 mostly leave a follower only winning or only losing cards.

``solve_batch`` runs ``analyse`` (guaranteed tricks, surely not bourre, surely wins) over many
positions on all threads, one workspace per thread. Speed of whole 5-card deals (one random
seat, default rules): ``tricksim bench --solver`` (analysis/bench.py).

Numba caches a compiled function keyed on its own file only, and ``legal_follow``, ``cinch_equiv`` and the other
helpers of kernels/bourre/rules.py are compiled into THIS module's cache: kernels/__init__.py drops every cached
kernel whenever any kernel source changes, and tests/test_solver_bourre.py compares ``legal_play`` as compiled
here, and every solver answer, with the pure-Python referee (tests/ref_bourre.py, tests/ref_solver_bourre.py).
"""
import numba
import numpy as np
from numba import njit, prange

from ..cards import SUIT_MASK, U0, U1, highest, lowest, popcount
from ..rng import below, seed_state
from ..tt import W_BITS, W_GEN, W_HEADER, W_NODES, merge_bounds, new_generation, workspace
from . import rules as K
from .rules import (CINCH_AKQ, CINCH_HOYLE, CINCH_PAGAT, KNOW_HOLDER, MAXP, N_RULES, R_CINCH_KNOWLEDGE, R_CINCH_RULE,
                    above_in_suit, beats, bitc, legal_play, tmask)
from .share import SHARE_WORDS, W_SON, share_k1, share_slot, share_store

# ---- the position record ----------------------------------------------------
POS_N, POS_ME, POS_LEADER, POS_NTRICK, POS_TRUMP, POS_LONO, POS_LEAD, POS_AKQ, POS_PLAYED, POS_KNOWN = range(10)
POS_TRICK = 10        # 8 cards of the trick in progress, play order
POS_WON = 18          # 8 tricks won so far
POS_LEN = 26

GOAL_TRICKS, GOAL_WIN = 0, 1
TT_BITS = 18
OUT_TRICKS, OUT_NOT_BOURRE, OUT_WIN = 0, 1, 2     # columns of solve_batch's out
N_OUT = 3

# ---- the workspace ``ws`` (uint64, kernels/tt.py) ------------------------------
# the shared header ([W_GEN] generation, [W_BITS] log2 of the table size, [W_NODES] nodes searched),
# the constants of the current solve, [W_WON + s] the tricks won (live during the search), the
# search stack (MAX_DEPTH records of NF words), then the table (2 words per entry).
(W_N, W_ME, W_TRUMP1, W_LONO, W_AKQ, W_LEAD1, W_P0, W_ALL0, W_KNOWN, W_GOAL) = range(W_HEADER, W_HEADER + 10)
W_WON = 16
W_STACK = 24
(F_M0, F_M1, F_CARD, F_SEAT, F_LEADER, F_N, F_LS1, F_WC1, F_WS, F_TMASK, F_TARGET, F_LEFT, F_SLOT1,
 F_K0, F_K1, F_MAX, F_TW1, F_STRONG) = range(18)
NF = 18
MAX_DEPTH = 8 * 5 + 1
W_TT = W_STACK + MAX_DEPTH * NF
HOLES = np.uint64(0xE000)           # ranks 13..15 of suit 0: no card, they hold the leader in a key
QKA = np.uint64(0x1C00)             # Q K A within a suit field
MIX = np.uint64(0x9E3779B97F4A7C15)
MIX2 = np.uint64(0xD6E8FEB86659FD93)


def new_workspace(bits: int = TT_BITS) -> np.ndarray:
    """A solver workspace with a transposition table of 2**bits entries, for one thread."""
    return _workspace(bits)


@njit(cache=True, nogil=True)
def _workspace(bits):
    return workspace(W_TT, 2, bits, SHARE_WORDS)


@njit(cache=True, nogil=True, _nrt=False)
def legal_probe(hands, pos, rules, s):
    """(legal, candidates) for seat ``s`` in the position ``pos`` (seat s to play next, or to
    lead a new trick when pos[POS_NTRICK] = 0): ``legal_play`` as compiled into THIS module's cache,
    and the cards the search tries (one per run of equivalent cards). The tests compare the
    first with the referee (a difference means this module's cache is stale or the rules
    changed) and check that each skipped card is worth the same as its run's representative."""
    players = pos[POS_N]
    k = pos[POS_NTRICK]
    trump = pos[POS_TRUMP]
    lono = pos[POS_LONO] != 0
    played = np.uint64(pos[POS_PLAYED])
    known = np.uint64(pos[POS_KNOWN])
    ls = -1
    wc = -1
    tm = U0
    for q in range(k):
        c = pos[POS_TRICK + q]
        tm |= bitc(c)
        if q == 0:
            ls = c >> 4
            wc = c
        elif beats(c, ls, wc, trump, lono):
            wc = c
    played |= tm
    allh = U0
    for q in range(players):
        allh |= hands[q]
    lg = legal_play(hands, s, k, players, pos[POS_WON + s], played, known, trump, lono, rules, (pos[POS_AKQ] >> s) & 1,
                    pos[POS_LEAD] if k == 0 else -1, ls, wc)
    return lg, _reps(lg, allh | tm, played, known, trump, rules)


# ============================================================================
# search helpers
# ============================================================================
@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _weakest(m, lono):
    """The card of lowest rank in m (highest under Lo-No); ties: lowest suit."""
    r = 16
    c = -1
    x = m
    while x != U0:
        d = lowest(x)
        x &= x - U1
        rr = (15 - (d & 15)) if lono else (d & 15)
        if rr < r:
            r = rr
            c = d
    return c


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _strongest(m, lono):
    """The card of highest rank in m (lowest under Lo-No)."""
    r = -1
    c = -1
    x = m
    while x != U0:
        d = lowest(x)
        x &= x - U1
        rr = (15 - (d & 15)) if lono else (d & 15)
        if rr > r:
            r = rr
            c = d
    return c


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _reps(legal, inplay, played, known, trump, rules):
    """One card per run of equivalent legal cards (the highest of each run): c is dropped when
    the next higher card of its suit that is still out is legal too. ``inplay`` = the cards in
    the hands and in the trick in progress; with cinch_rule = pagat and holder knowledge, the
    trumps nobody has seen played or out also separate runs (they are in the cinch's O); with
    the Hoyle and A-K-Q forms a trump below the Q never merges with one of Q-K-A."""
    crule = rules[R_CINCH_RULE]
    sep = inplay
    if crule == CINCH_PAGAT and trump >= 0 and rules[R_CINCH_KNOWLEDGE] == KNOW_HOLDER:
        sep |= SUIT_MASK[trump] & ~played & ~known
    split_q = (crule == CINCH_HOYLE or crule == CINCH_AKQ) and trump >= 0
    out = U0
    m = legal
    while m != U0:
        c = lowest(m)
        m &= m - U1
        up = above_in_suit(c) & sep
        if up != U0:
            nx = lowest(up)
            if (legal >> np.uint64(nx)) & U1:
                if not (split_q and (c >> 4) == trump and (c & 15) < 10 and (nx & 15) >= 10):
                    continue
        out |= bitc(c)
    return out


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _top_trumps(h, players, trump):
    """(seat, q): the seat holding the highest trump in play and the length of its unbroken
    sequence from the top ((-1, 0) if no trump is in play). Each of those q cards is the
    highest trump out when its holder plays it, so it wins that trick."""
    T = SUIT_MASK[trump]
    allh = U0
    for s in range(players):
        allh |= h[s]
    tr = allh & T
    if tr == U0:
        return -1, 0
    c = highest(tr)
    p = 0
    for s in range(players):
        if (h[s] >> np.uint64(c)) & U1:
            p = s
    q = 0
    while tr != U0:
        c = highest(tr)
        if (h[p] >> np.uint64(c)) & U1 == U0:
            break
        q += 1
        tr ^= bitc(c)
    return p, q


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _draw(h, players, allh, leader, trump, lono):
    """Tricks the leader surely takes by drawing trumps and cashing top cards. Let q be his
    trumps above every trump of the others (his unbroken top sequence). If q covers the longest
    trump holding of the others, he leads trumps from the top (the others must follow suit) until
    they have none, keeping the lead, then every trump of his wins, and so does each top card of
    a side suit (lowest under Lo-No) that he leads in turn, since nobody can trump any more and
    the others only lose cards on the way. Otherwise he is sure of his q top trumps only."""
    mine = h[leader]
    tr = U0
    q = 0
    if trump >= 0:
        T = SUIT_MASK[trump]
        tr = mine & T
        ot = allh & ~mine & T
        if ot != U0:
            q = popcount(tr & ~((bitc(highest(ot)) << U1) - U1))
            for s in range(players):
                if s != leader and popcount(h[s] & T) > q:
                    return q
    side = allh & ~tmask(trump)
    x = popcount(tr)
    for su in range(4):
        cl = side & SUIT_MASK[su]
        while cl != U0:
            c = lowest(cl) if lono else highest(cl)
            if (mine >> np.uint64(c)) & U1 == U0:
                break
            x += 1
            cl ^= bitc(c)
    return x


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _beatable(h, players, leader, n_in, ls, win_card, trump, lono):
    """Can a seat still to play to the trick (after the first n_in) beat ``win_card``?"""
    wt = trump >= 0 and (win_card >> 4) == trump
    if wt:
        better = above_in_suit(win_card)
    else:
        better = (SUIT_MASK[ls] & (bitc(win_card) - U1)) if lono else above_in_suit(win_card)
        better |= tmask(trump)
    for k in range(n_in, players):
        s = leader + k
        if s >= players:
            s -= players
        if h[s] & better != U0:
            return True
    return False


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _slot(k0, k1, bits):
    z = (k0 ^ (k1 * MIX2)) * MIX
    z ^= z >> np.uint64(29)
    z *= MIX2
    z ^= z >> np.uint64(32)
    return np.int64(z & ((U1 << np.uint64(bits)) - U1))


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _tt_store(ws, slot, k0, k1, res, target, hi0):
    """Merge the outcome of a search with ``target`` into the bounds stored at ``slot``."""
    lo = 0
    hi = hi0
    if ws[slot] == k0 and (ws[slot + 1] >> np.uint64(8)) == (k1 >> np.uint64(8)):
        lo = np.int64((ws[slot + 1] >> np.uint64(4)) & np.uint64(15))
        hi = np.int64(ws[slot + 1] & np.uint64(15))
    lo, hi = merge_bounds(lo, hi, res, target)
    ws[slot] = k0
    ws[slot + 1] = k1 | (np.uint64(lo) << np.uint64(4)) | np.uint64(hi)


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _put(ws, base, res, target, hi0, h, players):
    """Store the result ``res`` of the trick-boundary node of stack record ``base`` (``h`` its hands) in its table."""
    slot = np.int64(ws[base + F_SLOT1]) - 1
    if slot >= 0 and ws[W_SON] != U0:
        share_store(ws, slot, ws[base + F_K0], ws[base + F_K1], h, players, res, target, hi0)
    elif slot >= 0:
        _tt_store(ws, slot, ws[base + F_K0], ws[base + F_K1], res, target, hi0)


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _last_trick(h, players, leader, trump, lono):
    """The winner of the last trick (every seat holds one card)."""
    c = lowest(h[leader])
    ls = c >> 4
    wc = c
    w = leader
    s = leader
    for _ in range(1, players):
        s = s + 1 if s + 1 < players else 0
        d = lowest(h[s])
        if beats(d, ls, wc, trump, lono):
            wc = d
            w = s
    return w


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _wins_end(ws, players, me, extra):
    """GOAL_WIN at the end of the deal: me (plus ``extra`` tricks) strictly above every other."""
    mine = np.int64(ws[W_WON + me]) + extra
    for q in range(players):
        if q != me and np.int64(ws[W_WON + q]) >= mine:
            return False
    return True


# ============================================================================
# the null-window search
# ============================================================================
@njit(cache=True, nogil=True, _nrt=False)
def _search(h, rules, ws, leader, n_in, ls, win_card, win_seat, tmask_, target, left):
    """GOAL_TRICKS: True iff me takes >= ``target`` of the ``left`` remaining tricks (the current
    one included). GOAL_WIN: True iff me ends the deal with strictly the most tricks. The trick
    in progress holds ``n_in`` cards (mask ``tmask_``), suit led ``ls``, won so far by
    ``win_card`` of ``win_seat``. The constants of the solve are in ``ws``; ``h`` and the tricks
    won are restored on return.

    ``mode`` 0 evaluates the node whose state is in the local variables, 1 plays the next move
    of node ``d``, 2 hands the result ``res`` of node ``d`` back to its parent."""
    players = np.int64(ws[W_N])
    me = np.int64(ws[W_ME])
    trump = np.int64(ws[W_TRUMP1]) - 1
    lono = ws[W_LONO] != U0
    akq = np.int64(ws[W_AKQ])
    lead1 = np.int64(ws[W_LEAD1])
    p0 = ws[W_P0]
    all0 = ws[W_ALL0]
    known = ws[W_KNOWN]
    goal = np.int64(ws[W_GOAL])
    bits = np.int64(ws[W_BITS])
    gen = ws[W_GEN]
    crule = rules[R_CINCH_RULE]
    T = tmask(trump)
    won_key = (crule == CINCH_PAGAT and trump >= 0) or goal == GOAL_WIN
    shared = ws[W_SON] != U0        # the shared table (kernels/bourre/share.py) rather than the per-solve one
    table2 = W_TT + (2 << bits)
    akq_key = akq if crule == CINCH_AKQ else 0
    tsh = 16 * trump if (crule == CINCH_PAGAT and trump >= 0 and rules[R_CINCH_KNOWLEDGE] == KNOW_HOLDER) else -1
    hi0 = 1 if goal == GOAL_WIN else 5
    d = 0
    mode = 0
    res = False
    while True:
        if mode == 0:
            ws[W_NODES] += U1
            mode = 1
            slot = -1
            k0 = U0
            k1 = U0
            allh = U0
            for s in range(players):
                allh |= h[s]
            if n_in == 0:
                if goal == GOAL_TRICKS:
                    if target <= 0:
                        res = True
                        mode = 2
                    elif target > left:
                        res = False
                        mode = 2
                if mode == 1:
                    if left == 0:
                        res = _wins_end(ws, players, me, 0)
                        mode = 2
                    elif left == 1:
                        w = _last_trick(h, players, leader, trump, lono)
                        if goal == GOAL_TRICKS:
                            res = (1 if w == me else 0) >= target
                        else:
                            ws[W_WON + w] += U1
                            res = _wins_end(ws, players, me, 0)
                            ws[W_WON + w] -= U1
                        mode = 2
                if mode == 1:
                    # quick bounds on me's tricks from here (lo, hi) and the others' (top)
                    forced = lead1 > 0 and allh == all0
                    lo = 0
                    hi = left
                    p = -1
                    qp = 0
                    if trump >= 0:
                        p, qp = _top_trumps(h, players, trump)
                    cq = 0
                    if not forced:
                        cq = _draw(h, players, allh, leader, trump, lono)
                    if p == me:
                        lo = qp
                    elif p >= 0:
                        hi = left - qp
                    if leader == me:
                        if cq > lo:
                            lo = cq
                    elif left - cq < hi:
                        hi = left - cq
                    if goal == GOAL_TRICKS:
                        if lo >= target:
                            res = True
                            mode = 2
                        elif hi < target:
                            res = False
                            mode = 2
                    else:
                        mine = np.int64(ws[W_WON + me])
                        top = 0          # the most tricks another seat surely ends with
                        most = 0         # the most tricks another seat has now
                        for q in range(players):
                            if q == me:
                                continue
                            wq = np.int64(ws[W_WON + q])
                            if wq > most:
                                most = wq
                            b1 = qp if q == p else 0
                            if q == leader and cq > b1:
                                b1 = cq
                            if wq + b1 > top:
                                top = wq + b1
                        if mine + hi <= top:
                            res = False
                            mode = 2
                        elif mine + lo > most + left - lo:
                            res = True
                            mode = 2
                if mode == 1:
                    wk = U0
                    if won_key:
                        for q in range(players):
                            wq = ws[W_WON + q]
                            if goal == GOAL_TRICKS:
                                if h[q] & T == U0:
                                    wq = U0          # no trump: never a cinch again
                                elif wq > np.uint64(4):
                                    wq = np.uint64(4)    # the cinch test is the same from 4 on
                            wk |= wq << np.uint64(3 * q)
                    k0 = allh | (np.uint64(leader) << np.uint64(13))
                    if shared:
                        pt = ((p0 | (all0 & ~allh)) >> np.uint64(tsh)) & np.uint64(0x1FFF) if tsh >= 0 else U0
                        k1 = share_k1(ws, wk, akq_key, goal, forced, pt)
                        slot, hit, _, _, _ = share_slot(ws, table2, k0, k1, h, players)
                    else:
                        k1 = (gen << np.uint64(32)) | (wk << np.uint64(8))
                        slot = W_TT + 2 * _slot(k0, k1, bits)
                        hit = ws[slot] == k0 and (ws[slot + 1] >> np.uint64(8)) == (k1 >> np.uint64(8))
                    if hit:
                        e = ws[slot + 1]
                        tg = target if goal == GOAL_TRICKS else 1
                        if np.int64((e >> np.uint64(4)) & np.uint64(15)) >= tg:
                            res = True
                            mode = 2
                        elif np.int64(e & np.uint64(15)) < tg:
                            res = False
                            mode = 2
            elif goal == GOAL_TRICKS:
                # the trick in progress is decided for me: lost (me played, another wins it) or
                # won (me wins it and nobody still to play can beat its card)
                dm = me - leader
                if dm < 0:
                    dm += players
                if dm < n_in and win_seat != me:
                    if target > left - 1:
                        res = False
                        mode = 2
                elif win_seat == me and target <= 1:
                    if not _beatable(h, players, leader, n_in, ls, win_card, trump, lono):
                        res = True
                        mode = 2
            if mode == 1:
                s = leader + n_in
                if s >= players:
                    s -= players
                played = p0 | (all0 & ~allh)
                forced_card = lead1 - 1 if (n_in == 0 and allh == all0) else -1
                legal = legal_play(h, s, n_in, players, np.int64(ws[W_WON + s]), played, known, trump, lono, rules,
                                   (akq >> s) & 1, forced_card, ls, win_card)
                cand = _reps(legal, allh | tmask_, played, known, trump, rules)
                maxing = s == me
                if n_in == 0:
                    # a leader's top cards (no higher card of the suit out in another hand) first
                    others = allh & ~h[s]
                    first = U0
                    m = cand
                    while m != U0:
                        c = lowest(m)
                        m &= m - U1
                        if lono:
                            hb = SUIT_MASK[c >> 4] & (bitc(c) - U1)
                        else:
                            hb = above_in_suit(c)
                        if hb & others == U0:
                            first |= bitc(c)
                    second = cand & ~first
                    strong = True
                else:
                    win = U0
                    m = cand
                    while m != U0:
                        c = lowest(m)
                        m &= m - U1
                        if beats(c, ls, win_card, trump, lono):
                            win |= bitc(c)
                    if (win_seat == me) == maxing:
                        first = cand & ~win
                        second = win
                    else:
                        first = win
                        second = cand & ~win
                    strong = False
                base = W_STACK + d * NF
                ws[base + F_M0] = first
                ws[base + F_M1] = second
                ws[base + F_SEAT] = np.uint64(s)
                ws[base + F_LEADER] = np.uint64(leader)
                ws[base + F_N] = np.uint64(n_in)
                ws[base + F_LS1] = np.uint64(ls + 1)
                ws[base + F_WC1] = np.uint64(win_card + 1)
                ws[base + F_WS] = np.uint64(win_seat)
                ws[base + F_TMASK] = tmask_
                ws[base + F_TARGET] = np.uint64(target)
                ws[base + F_LEFT] = np.uint64(left)
                ws[base + F_SLOT1] = np.uint64(slot + 1)
                ws[base + F_K0] = k0
                ws[base + F_K1] = k1
                ws[base + F_MAX] = np.uint64(1 if maxing else 0)
                ws[base + F_STRONG] = np.uint64(1 if strong else 0)
        elif mode == 1:
            base = W_STACK + d * NF
            strong = ws[base + F_STRONG] != U0
            m = ws[base + F_M0]
            if m != U0:
                c = _strongest(m, lono) if strong else _weakest(m, lono)
                ws[base + F_M0] = m & ~bitc(c)
            else:
                m = ws[base + F_M1]
                if m == U0:     # every move tried, none reached the node's goal
                    res = ws[base + F_MAX] == U0
                    _put(ws, base, res, np.int64(ws[base + F_TARGET]) if goal == GOAL_TRICKS else 1, hi0, h, players)
                    mode = 2
                    continue
                c = _strongest(m, lono) if strong else _weakest(m, lono)
                ws[base + F_M1] = m & ~bitc(c)
            ws[base + F_CARD] = np.uint64(c)
            s = np.int64(ws[base + F_SEAT])
            leader = np.int64(ws[base + F_LEADER])
            n_in = np.int64(ws[base + F_N])
            ls = np.int64(ws[base + F_LS1]) - 1
            win_card = np.int64(ws[base + F_WC1]) - 1
            win_seat = np.int64(ws[base + F_WS])
            tmask_ = ws[base + F_TMASK]
            target = np.int64(ws[base + F_TARGET])
            left = np.int64(ws[base + F_LEFT])
            b = bitc(c)
            h[s] ^= b
            if n_in == 0:
                ls = c >> 4
                win_card = c
                win_seat = s
            elif beats(c, ls, win_card, trump, lono):
                win_card = c
                win_seat = s
            if n_in == players - 1:
                ws[W_WON + win_seat] += U1
                ws[base + F_TW1] = np.uint64(win_seat + 1)
                if win_seat == me and goal == GOAL_TRICKS:
                    target -= 1
                left -= 1
                leader = win_seat
                n_in = 0
                ls = -1
                win_card = -1
                tmask_ = U0
            else:
                ws[base + F_TW1] = U0
                n_in += 1
                tmask_ |= b
            d += 1
            mode = 0
        else:
            if d == 0:
                return res
            d -= 1
            base = W_STACK + d * NF
            h[np.int64(ws[base + F_SEAT])] ^= bitc(np.int64(ws[base + F_CARD]))
            tw = np.int64(ws[base + F_TW1])
            if tw > 0:
                ws[W_WON + tw - 1] -= U1
            if res == (ws[base + F_MAX] != U0):     # a cut-off: this node's goal is reached
                _put(ws, base, res, np.int64(ws[base + F_TARGET]) if goal == GOAL_TRICKS else 1, hi0, h, players)
            else:
                mode = 1


# ============================================================================
# entry points (one position)
# ============================================================================
@njit(cache=True, nogil=True, _nrt=False)
def _new_gen(ws):
    """A fresh generation: every table entry of an older one is ignored."""
    new_generation(ws, W_TT)


@njit(cache=True, nogil=True, _nrt=False)
def _trick_state(pos, k):
    """(suit led, winning card, winning seat, mask) after the first k cards of pos's trick."""
    players = pos[POS_N]
    leader = pos[POS_LEADER]
    ls = np.int64(-1)
    wc = np.int64(-1)
    wseat = leader
    tm = U0
    for q in range(k):
        c = pos[POS_TRICK + q]
        tm |= bitc(c)
        if q == 0:
            ls = c >> 4
            wc = c
        elif beats(c, ls, wc, pos[POS_TRUMP], pos[POS_LONO] != 0):
            wc = c
            wseat = (leader + q) % players
    return ls, wc, wseat, tm


@njit(cache=True, nogil=True, _nrt=False)
def _setup(hands, pos, ws, goal):
    """A new generation and the constants of a solve from ``pos``; returns the root's trick
    state (suit led, winning card, winning seat, trick mask) and the tricks left."""
    _new_gen(ws)
    players = pos[POS_N]
    k = pos[POS_NTRICK]
    ls, wc, wseat, tm = _trick_state(pos, k)
    allh = U0
    for s in range(MAXP):
        if s < players:
            allh |= hands[s]
    ws[W_N] = np.uint64(players)
    ws[W_ME] = np.uint64(pos[POS_ME])
    ws[W_TRUMP1] = np.uint64(pos[POS_TRUMP] + 1)
    ws[W_LONO] = np.uint64(1 if pos[POS_LONO] != 0 else 0)
    ws[W_AKQ] = np.uint64(pos[POS_AKQ])
    ws[W_LEAD1] = np.uint64(pos[POS_LEAD] + 1 if k == 0 else 0)
    ws[W_P0] = np.uint64(pos[POS_PLAYED]) | tm
    ws[W_ALL0] = allh
    ws[W_KNOWN] = np.uint64(pos[POS_KNOWN])
    ws[W_GOAL] = np.uint64(goal)
    for s in range(MAXP):
        ws[W_WON + s] = np.uint64(pos[POS_WON + s])
    left = popcount(hands[pos[POS_LEADER]]) + (1 if k > 0 else 0)
    return ls, wc, wseat, tm, left


@njit(cache=True, nogil=True, _nrt=False)
def can_make(hands, pos, rules, target, ws):
    """True iff seat pos[POS_ME] surely takes at least ``target`` of the remaining tricks (the
    trick in progress included) whatever the others play. ``target`` 1 from a whole deal (or
    with no trick won yet): surely not bourre."""
    ls, wc, wseat, tm, left = _setup(hands, pos, ws, np.int64(GOAL_TRICKS))
    return _search(hands, rules, ws, pos[POS_LEADER], pos[POS_NTRICK], ls, wc, wseat, tm, np.int64(target), left)


@njit(cache=True, nogil=True, _nrt=False)
def can_win(hands, pos, rules, ws):
    """True iff seat pos[POS_ME] surely ends the deal with strictly more tricks than every other
    active player (counting pos[POS_WON..]), whatever they play: it surely wins the pot (rule 12)."""
    ls, wc, wseat, tm, left = _setup(hands, pos, ws, np.int64(GOAL_WIN))
    return _search(hands, rules, ws, pos[POS_LEADER], pos[POS_NTRICK], ls, wc, wseat, tm, np.int64(1), left)


@njit(cache=True, nogil=True, _nrt=False)
def _value(hands, rules, ws, leader, n_in, ls, wc, wseat, tm, left):
    """Guaranteed tricks by null-window searches sharing the table (same generation)."""
    lo = 0
    hi = left
    while lo < hi:      # lo <= value <= hi; each search halves the interval
        k = (lo + hi + 1) >> 1
        if _search(hands, rules, ws, leader, n_in, ls, wc, wseat, tm, k, left):
            lo = k
        else:
            hi = k - 1
    return lo


@njit(cache=True, nogil=True, _nrt=False)
def solve(hands, pos, rules, ws):
    """The most of the remaining tricks (the one in progress included) that seat pos[POS_ME]
    takes whatever the others play (all cards seen)."""
    ls, wc, wseat, tm, left = _setup(hands, pos, ws, np.int64(GOAL_TRICKS))
    return _value(hands, rules, ws, pos[POS_LEADER], pos[POS_NTRICK], ls, wc, wseat, tm, left)


@njit(cache=True, nogil=True, _nrt=False)
def principal_variation(hands, pos, rules, ws, out):
    """One line of play that keeps the guaranteed value: fills ``out`` (int64[>= cards left])
    with the cards in play order and returns (value, number of cards). At each turn the seat to
    play chooses its weakest legal card after which me's guaranteed tricks from the whole
    position stay equal to the value (me never gives any up, the others never let it gain).
    ``hands`` is restored; the tricks won in the line are counted in ws[W_WON..]."""
    ls0, wc0, ws0, tm0, left0 = _setup(hands, pos, ws, np.int64(GOAL_TRICKS))
    v = _value(hands, rules, ws, pos[POS_LEADER], pos[POS_NTRICK], ls0, wc0, ws0, tm0, left0)
    players = pos[POS_N]
    me = pos[POS_ME]
    trump = pos[POS_TRUMP]
    lono = pos[POS_LONO] != 0
    need = v                        # me's tricks still due from the current position
    leader = pos[POS_LEADER]
    n_in = pos[POS_NTRICK]
    ls, wc, wseat, tm, left = ls0, wc0, ws0, tm0, left0
    total = 0
    for s in range(players):
        total += popcount(hands[s])
    nout = 0
    p0 = ws[W_P0]
    all0 = ws[W_ALL0]
    known = ws[W_KNOWN]
    lead1 = np.int64(ws[W_LEAD1])
    for _ in range(total):
        s = (leader + n_in) % players
        allh = U0
        for q in range(players):
            allh |= hands[q]
        played = p0 | (all0 & ~allh)
        forced = lead1 - 1 if (n_in == 0 and allh == all0) else -1
        m = legal_play(hands, s, n_in, players, np.int64(ws[W_WON + s]), played, known, trump, lono, rules,
                       (pos[POS_AKQ] >> s) & 1, forced, ls, wc)
        chosen = -1
        while m != U0 and chosen < 0:
            c = _weakest(m, lono)
            b = bitc(c)
            m &= ~b
            hands[s] ^= b
            # the state after c
            nls, nwc, nws = ls, wc, wseat
            if n_in == 0:
                nls, nwc, nws = c >> 4, c, s
            elif beats(c, ls, wc, trump, lono):
                nwc, nws = c, s
            if n_in == players - 1:
                got = 1 if nws == me else 0
                ws[W_WON + nws] += U1
                k = need - got
                z, m1 = np.int64(0), np.int64(-1)     # typed as the other calls' (one compiled _search)
                ok = _search(hands, rules, ws, nws, z, m1, m1, nws, U0, k, left - 1) and \
                    not _search(hands, rules, ws, nws, z, m1, m1, nws, U0, k + 1, left - 1)
                if ok:
                    chosen = c
                    need = k
                    leader, n_in, ls, wc, wseat, tm, left = nws, 0, -1, -1, nws, U0, left - 1
                else:
                    ws[W_WON + nws] -= U1
            else:
                ok = _search(hands, rules, ws, leader, n_in + 1, nls, nwc, nws, tm | b, need, left) and \
                    not _search(hands, rules, ws, leader, n_in + 1, nls, nwc, nws, tm | b, need + 1, left)
                if ok:
                    chosen = c
                    n_in += 1
                    ls, wc, wseat, tm = nls, nwc, nws, tm | b
            if chosen < 0:
                hands[s] ^= b
        out[nout] = chosen          # some legal card always keeps the value
        nout += 1
    # give the cards back: replay the line to find who played what
    leader = pos[POS_LEADER]
    n_in = pos[POS_NTRICK]
    ls, wc = ls0, wc0
    wseat = ws0
    for i in range(nout):
        c = out[i]
        s = (leader + n_in) % players
        hands[s] |= bitc(c)
        if n_in == 0:
            ls, wc, wseat = c >> 4, c, s
        elif beats(c, ls, wc, trump, lono):
            wc, wseat = c, s
        n_in += 1
        if n_in == players:
            leader = wseat
            n_in = 0
    return v, nout


@njit(cache=True, nogil=True, _nrt=False)
def analyse(hands, pos, rules, ws, out):
    """For seat pos[POS_ME]: out[OUT_TRICKS] = tricks surely taken in the whole deal (tricks won
    so far + guaranteed remaining), out[OUT_NOT_BOURRE] = 1 if it surely takes a trick,
    out[OUT_WIN] = 1 if it surely wins the pot (strictly most tricks)."""
    v = solve(hands, pos, rules, ws)
    me = pos[POS_ME]
    tot = pos[POS_WON + me] + v
    out[OUT_TRICKS] = tot
    out[OUT_NOT_BOURRE] = 1 if tot >= 1 else 0
    most = 0                        # the most tricks another seat has now
    for q in range(pos[POS_N]):
        if q != me and pos[POS_WON + q] > most:
            most = pos[POS_WON + q]
    left = popcount(hands[pos[POS_LEADER]]) + (1 if pos[POS_NTRICK] > 0 else 0)
    if tot <= most:
        out[OUT_WIN] = 0            # another seat already has as many as me can be sure of
    elif tot > most + left - v:
        out[OUT_WIN] = 1            # nobody can catch up, even with every trick me does not take
    else:
        out[OUT_WIN] = 1 if can_win(hands, pos, rules, ws) else 0


# ============================================================================
# batch entry points
# ============================================================================
def solve_batch(hands, pos, rules, out):
    """``analyse`` for many positions: row i of ``hands`` (uint64[m, 8]) and ``pos``
    (int64[m, POS_LEN]) fill ``out[i]`` (int64[m, N_OUT]: tricks, not bourre, win), on
    numba.get_num_threads() threads. The values are exact, so they do not depend on the thread
    count or on which positions shared a table."""
    m = hands.shape[0]
    if hands.shape != (m, MAXP) or pos.shape != (m, POS_LEN) or out.shape != (m, N_OUT):
        raise ValueError("solve_batch: hands (m, 8), pos (m, POS_LEN) and out (m, N_OUT) expected")
    _solve_batch(hands, pos, rules, out, max(1, min(numba.get_num_threads(), m)))


@njit(cache=True, nogil=True, parallel=True)
def _solve_batch(hands, pos, rules, out, nt):
    """Thread t of ``nt`` takes positions t, t+nt, t+2nt, ... (deal costs have a long tail, so
    interleaving balances them) with one workspace of 2**TT_BITS entries."""
    m = hands.shape[0]
    for t in prange(nt):
        ws = workspace(W_TT, 2, TT_BITS)
        h = np.zeros(MAXP, np.uint64)
        o = np.zeros(N_OUT, np.int64)
        for i in range(t, m, nt):
            for s in range(MAXP):
                h[s] = hands[i, s]
            analyse(h, pos[i], rules, ws, o)
            for j in range(N_OUT):
                out[i, j] = o[j]


@njit(cache=True, nogil=True)
def random_deals(key, first, m, players):
    """Whole 5-card deals at ``players`` players: (hands uint64[m, 8], pos int64[m, POS_LEN]) for deals
    ``first .. first+m-1`` of the stream ``key``. Deal i: 5n cards drawn uniformly from the 52,
    trump suit, leader and me drawn uniformly, nothing played or known out; the A-K-Q flags set
    from the hands (used only under cinch_rule = akq_in_order)."""
    hands = np.zeros((m, MAXP), np.uint64)
    pos = np.zeros((m, POS_LEN), np.int64)
    st = np.zeros(1, np.uint64)
    deck = np.zeros(52, np.int64)
    for i in range(m):
        seed_state(st, key, first + i)
        for j in range(52):
            deck[j] = (j // 13) * 16 + j % 13
        k = 52
        for s in range(players):
            for _ in range(5):
                j = below(st, k)
                hands[i, s] |= bitc(deck[j])
                deck[j] = deck[k - 1]
                k -= 1
        t = below(st, 4)
        pos[i, POS_N] = players
        pos[i, POS_TRUMP] = t
        pos[i, POS_LEADER] = below(st, players)
        pos[i, POS_ME] = below(st, players)
        pos[i, POS_LEAD] = -1
        akqm = QKA << np.uint64(16 * t)
        for s in range(players):
            if (hands[i, s] & akqm) == akqm:
                pos[i, POS_AKQ] |= 1 << s
    return hands, pos


# ============================================================================
# measurement (plain Python)
# ============================================================================
def default_rules() -> np.ndarray:
    """The RULES.md DEFAULT play flags (the rest of the array is irrelevant to the solver)."""
    r = np.zeros(N_RULES, np.int64)
    r[K.R_MUST_HEAD] = 1
    r[K.R_MUST_TRUMP] = 1
    r[K.R_MUST_OVERTRUMP] = 1
    r[K.R_TRUMP_EVEN_IF_CANNOT_WIN] = 1
    r[K.R_VOID_HIGHEST_TRUMP] = 0
    r[K.R_CINCH_RULE] = CINCH_PAGAT
    r[K.R_CINCH_KNOWLEDGE] = KNOW_HOLDER
    r[K.R_CINCH_LAST_EXEMPT] = 1
    return r
