"""Boulmous odds of one hand under the heuristics (``sim_odds``, ``exact_odds``) and by hand class
(``sim_classes``)."""
import numpy as np
from numba import njit, prange

from ..cards import U0, U1, lowest
from ..deal import deal_with_fixed
from ..layout import Layout
from ..rng import seed_state
from .dealing import _rest_of
from .deals import CHUNK
from .play import AUCTION, HEURISTIC_TRUMP, NO_BID, NOBODY, deal_random, i64, no_game, play_deal, six_stakes
from .players import H_RANDOM, NO_SA, best_trump, bid_for, choose_card
from .rules import (AUCTION_SINGLE, CSUIT, DECK24, NT, POWER, R_AUCTION, R_LEFT_BOWER_TRUMP, REC_LEN, REC_SCORE,
                    REC_STAKES, REC_TRICKS, REC_TRUMP, REC_WON, apply_card, beats, legal_mask)
from .solver import _pack24
from ..tally import sum_rows

# sim_odds counts: per trump 0..4 the seat's tricks 0..6 as the taker; when it passes, its points -6..6 and its
# stakes -1..3
ODDS = Layout(("by_trump", (5, 7)), ("pass_points", 13), ("pass_stakes", 5))
O_BY_TRUMP, O_PASS_POINTS, O_PASS_STAKES = ODDS.offsets()
AGG_ODDS = ODDS.size


@njit(cache=True, nogil=True, parallel=True)
def sim_odds(key_deal, key_dec, first, n, fixed, seat, dealer, rules, hcodes, hparams):
    """Monte Carlo odds of one hand: per deal of the other 18 cards, every trump as a
    forced contract of ``seat`` plus the auction in which ``seat`` passes."""
    lb = rules[R_LEFT_BOWER_TRUMP]
    nch = (n + CHUNK - 1) // CHUNK
    part = np.zeros((nch, AGG_ODDS), np.int64)
    rest0 = _rest_of(fixed)
    for ch in prange(nch):
        st = np.zeros(1, np.uint64)
        sd = np.zeros(1, np.uint64)
        rest = np.zeros(18, np.int64)
        hands = np.zeros(4, np.uint64)
        work = np.zeros(4, np.uint64)
        rec = np.zeros(REC_LEN, np.int64)
        nogame = no_game()
        acc = part[ch]
        for i in range(ch * CHUNK, min(n, (ch + 1) * CHUNK)):
            idx = first + i
            seed_state(sd, key_deal, idx)
            rest[:] = rest0
            deal_with_fixed(sd, rest, fixed, seat, hands, i64(6))
            odds_one(hands, work, seat, dealer, rules, hcodes, hparams, st, key_dec, idx,
                     lb, rec, acc, nogame)
    return sum_rows(part)


# inlined into sim_odds: no code library of its own, which would optimise and emit play_deal's whole code once more
# on a cold compile (numba links a callee's code into every library that calls it)
@njit(cache=True, nogil=True, _nrt=False, inline="always")
def odds_one(hands, work, seat, dealer, rules, hcodes, hparams, st, key_dec, idx, lb, rec, acc, nogame):
    for t in range(5):
        seed_state(st, key_dec, idx)
        play_deal(hands, work, dealer, seat, i64(3), i64(t), i64(NOBODY), rules, hcodes, hparams, st, lb, rec, nogame)
        acc[O_BY_TRUMP + t * 7 + rec[REC_WON + seat]] += 1
    seed_state(st, key_dec, idx)
    play_deal(hands, work, dealer, i64(AUCTION), i64(NO_BID), i64(HEURISTIC_TRUMP), seat, rules, hcodes, hparams, st, lb, rec, nogame)
    acc[O_PASS_POINTS + 6 + rec[REC_SCORE + seat]] += 1
    acc[O_PASS_STAKES + 1 + rec[REC_STAKES + seat]] += 1


@njit(cache=True, nogil=True)
def _combos(nbits, k):
    """All k-subsets of range(nbits) as int bitmasks, in increasing order (Gosper)."""
    cnt = 1
    for i in range(k):
        cnt = cnt * (nbits - i) // (i + 1)
    out = np.zeros(cnt, np.int64)
    x = (1 << k) - 1
    for i in range(cnt):
        out[i] = x
        c = x & -x
        r = x + c
        x = (((r ^ x) >> 2) // c) | r
    return out


# The memo of the play (``_tricks_body``): between tricks the play to come is a function of the four hands left and the leader
# alone (the cards played are the deck's others; no decision draws at random), so layouts that reach the same hands
# after the same number of tricks take the same tricks from there on.  A direct-mapped table (2 ** MEMO_BITS slots,
# two words a slot) per block of ``exact_odds``, which plays one trump after the other over its hands and empties
# the table between them (the passing deal's keys hold its taker and trump): word 0 the 24-card masks of seats 0 and
# 1, the leader and (bits 50-63) ``kx``, word 1 those of seats 2 and 3 and, in its top bits, the counted seat's
# tricks from that point.  An empty slot (word 0 = 0) matches no state: every seat holds cards after one to four
# tricks.  The sizes were chosen by measurement (the five forced trumps of the whole exact odds, two threads,
# 2026-11-28, one table in use at a time, load 1.5-2.5): 2 ** 13 slots took 6.6 CPU s, 2 ** 14 6.2-6.4, 2 ** 15
# (512 KB) 5.8-6.2, 2 ** 16 5.8-6.3; 16 and 32 blocks ran as 64; a two-way table (the pair of slots of a hash, the
# newest first) ran slower than the direct-mapped one.  (Earlier, with the five trumps' tables in use in turn:
# 2 ** 13 best, 7.7-7.8 CPU s; looking up from the first trick on beat starting after the second.)
MEMO_BITS = 15
MEMO_FIRST = 1      # the first trick after which the hands left are looked up
EXACT_BLOCKS = 64   # exact_odds' blocks of consecutive hands of the next seat, each with its own memo
_M48 = np.uint64((1 << 48) - 1)
_H1 = np.uint64(0x9E3779B97F4A7C15)
_H2 = np.uint64(0xC2B2AE3D27D4EB4F)
_SHIFT = np.uint64(64 - MEMO_BITS)
_S24 = np.uint64(24)
_S48 = np.uint64(48)
_S50 = np.uint64(50)
_S56 = np.uint64(56)


@njit(cache=True, nogil=True)
def tricks_from(h, taker, t, rules, hcodes, hparams, st, lb, won, leader, k0, led, win_pow, win_seat, played):
    """``play_tricks`` outside a game (no end check) and without the sampling player or the record, from the
    ``k0``-th card of the first trick (``leader`` led it; the cards before it already applied: ``h`` the hands
    left, ``led``, ``win_pow``, ``win_seat`` the trick so far, ``played`` the cards played; k0 = 0: the deal's
    start, with 0, -1, leader, U0).  Fills ``won`` (int64[4]): each seat's tricks.  Every card is the one
    ``play_tricks`` plays: ``choose_card`` of the same arguments, except that a seat with a single legal card
    plays it without asking (every return of ``choose_card`` is one of its legal cards; the random heuristic
    does not draw for a single card either).  tests/test_boulmous_exact.py pins it against ``play_deal``.
    ``exact_odds`` plays the same play (``_tricks_body``, inlined) with its memo of the hands left; here it is off."""
    pend = np.ones((5, 3), np.uint64)   # [4, 0] = 1: no memo
    _tricks_body(h, taker, t, rules, hcodes, hparams, st, lb, won, leader, k0, led, win_pow, win_seat, played,
                 np.zeros((1, 2), np.uint64), pend, taker, U0)


# inlined into tricks_from and _play_layouts: a compiled call per layout cost about a tenth of the forced contracts'
# time (the arguments of a numba function are passed field by field)
@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _tricks_body(h, taker, t, rules, hcodes, hparams, st, lb, won, leader, k0, led, win_pow, win_seat, played, tab,
                 pend, who, kx):
    """``tricks_from``'s play, the memo given as its table and scratch (``pend[4, 0]`` = 1: none), counting the
    tricks of seat ``who`` (``tricks_from``: the taker), ``kx`` ORed into the key's first word above the leader (bits
    50-63: what else the play depends on and the table's users differ by; 0 when a table serves one taker and
    trump)."""
    for i in range(4):
        won[i] = 0
    taker_played = k0 > 0 and ((taker - leader) & 3) < k0
    npend = 0
    for tr in range(5):
        if tr > 0:
            if tr >= MEMO_FIRST and pend[4, 0] == U0:
                k1 = _pack24(h[0]) | (_pack24(h[1]) << _S24) | (np.uint64(leader) << _S48) | kx
                k2 = _pack24(h[2]) | (_pack24(h[3]) << _S24)
                slot = ((k1 * _H1) ^ (k2 * _H2)) >> _SHIFT
                if tab[slot, 0] == k1 and (tab[slot, 1] & _M48) == k2:
                    won[who] += np.int64(tab[slot, 1] >> _S56)
                    _memo_store(tab, pend, npend, won[who])
                    return
                pend[npend, 0] = slot
                pend[npend, 1] = k1
                pend[npend, 2] = k2 | (np.uint64(won[who]) << _S56)
                npend += 1
            led = 0
            win_pow = -1
            win_seat = leader
            taker_played = False
        for k in range(k0 if tr == 0 else 0, 4):
            s = (leader + k) & 3
            lg = legal_mask(h[s], k, led, win_pow, t, rules, lb)
            if lg & (lg - U1) == U0:
                c = lowest(lg)
            else:
                c = choose_card(hcodes[s], hparams, s, s, h[s], lg, k, led, win_pow, win_seat,
                                taker_played, taker, t, played, st, lb)
            played |= U1 << np.uint64(c)
            led, win_pow, win_seat = apply_card(h, s, c, k, led, win_pow, win_seat, t, lb)
            if s == taker:
                taker_played = True
        won[win_seat] += 1
        leader = win_seat
    # the last trick: one card each, nothing to choose
    c = lowest(h[leader])
    led, win_pow, win_seat = CSUIT[lb, t, c], POWER[lb, t, c], leader
    for k in range(1, 4):
        s = (leader + k) & 3
        c = lowest(h[s])
        if beats(c, led, win_pow, t, lb):
            win_pow = POWER[lb, t, c]
            win_seat = s
    won[win_seat] += 1
    if npend > 0:
        _memo_store(tab, pend, npend, won[who])


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _memo_store(tab, pend, npend, total):
    """Stores the ``npend`` states missed on the way (slot, key, the taker's tricks then) with the taker's tricks
    from each of them to the end (``total`` in all)."""
    for i in range(npend):
        slot = pend[i, 0]
        tab[slot, 0] = pend[i, 1]
        before = pend[i, 2] >> _S56
        tab[slot, 1] = (pend[i, 2] & _M48) | (np.uint64(total - np.int64(before)) << _S56)


@njit(cache=True, nogil=True, _nrt=False)
def _lead_two(hands, work, dealer, seat, t, rules, hcodes, hparams, st, lb, rec, nogame, pre):
    """The first two cards of a forced contract of ``seat`` in trump ``t``: its lead is a function of its own hand
    alone (``choose_card`` on lead sees the hand and no card played), the next seat's answer of its own hand and the
    lead; so ``play_deal`` on ``hands`` (any split of the two seats after them) plays the two cards of every layout
    with those two hands (the kernel that every odds command compiles anyway: no second copy of the heuristics to
    compile).  Writes ``pre`` = (lead, answer, led class, winning power, winning seat) after them."""
    play_deal(hands, work, dealer, seat, i64(3), t, i64(NOBODY), rules, hcodes, hparams, st, lb, rec, nogame)
    c0 = rec[REC_TRICKS + 1]
    c1 = rec[REC_TRICKS + 2]
    led, win_pow, win_seat = CSUIT[lb, t, c0], POWER[lb, t, c0], seat
    if beats(c1, led, win_pow, t, lb):
        win_pow = POWER[lb, t, c1]
        win_seat = (seat + 1) & 3
    pre[0] = c0
    pre[1] = c1
    pre[2] = led
    pre[3] = win_pow
    pre[4] = win_seat


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _outer_hand(bits, rest, lo6, hi6):
    """The hand of the next seat given by ``bits`` (an 18-bit subset of ``rest``, the other cards in increasing
    order), returned with the mask of the 12 cards left; fills ``lo6[x]`` / ``hi6[x]`` (uint64[64]) with the cards
    of those 12 (in increasing order) whose places 0-5 / 6-11 are the bits of x, so that the 12-bit subset y of
    them is ``lo6[y & 63] | hi6[y >> 6]``."""
    ma = U0
    rest12 = U0
    q = 0
    for i in range(18):
        if (bits >> i) & 1:
            ma |= U1 << np.uint64(rest[i])
        else:
            c = U1 << np.uint64(rest[i])
            rest12 |= c
            if q < 6:
                lo6[1 << q] = c
            else:
                hi6[1 << (q - 6)] = c
            q += 1
    lo6[0] = U0
    hi6[0] = U0
    for x in range(1, 64):
        low = x & -x
        lo6[x] = lo6[low] | lo6[x ^ low]
        hi6[x] = hi6[low] | hi6[x ^ low]
    return ma, rest12


@njit(cache=True, nogil=True, _nrt=False)
def _play_layouts(fixed, ma, lo6, hi6, rest12, cb, seat, t, pre, rules, hcodes, hparams, st, lb, h, won, tab, pend,
                  acc):
    """Every split ``cb`` of the 12 cards ``rest12`` between the two seats after the next one, the next seat
    holding ``ma``: the forced contract of ``seat`` in trump ``t`` played on after its first two cards ``pre``
    (``_lead_two``) by ``tricks_from``'s play (inlined: one compiled call per hand of the next seat, not per
    layout), with the memo ``tab``, ``pend``; counts the taker's tricks into ``acc``."""
    p1 = (seat + 1) & 3
    p2 = (seat + 2) & 3
    p3 = (seat + 3) & 3
    b0 = U1 << np.uint64(pre[0])
    b1 = U1 << np.uint64(pre[1])
    for b in range(cb.shape[0]):
        y = cb[b]
        mb = lo6[y & 63] | hi6[y >> 6]
        h[seat] = fixed & ~b0
        h[p1] = ma & ~b1
        h[p2] = mb
        h[p3] = rest12 & ~mb
        _tricks_body(h, seat, t, rules, hcodes, hparams, st, lb, won, seat, i64(2), pre[2], pre[3], pre[4], b0 | b1,
                     tab, pend, seat, U0)
        acc[O_BY_TRUMP + t * 7 + won[seat]] += 1


@njit(cache=True, nogil=True, _nrt=False)
def _pass_layouts(hands, lo6, hi6, rest12, cb, seat, dealer, rules, hcodes, hparams, st, lb, h, won, work, rec,
                  nogame, tab, pend, ests, acc):
    """The deal in which ``seat`` passes, over every split ``cb`` of the 12 cards ``rest12`` between the two seats
    after the next one (``hands``: ``seat``'s and the next seat's set): the auction and trump ``play_deal`` would
    give, then ``tricks_from``'s play with the memo ``tab``, ``pend`` counting ``seat``'s tricks, the taker and the
    trump in the key (a bid of 6, whose stakes need the taker's tricks, plays without it); counts ``seat``'s points
    and stakes as ``score_deal`` gives them (``seat`` defends: its points are its tricks) into ``acc``."""
    p2 = (seat + 2) & 3
    p3 = (seat + 3) & 3
    off = pend[4, 0]
    # one round of bidding and no seat at random (off = 0): each seat's bid is ``bid_for`` of its hand's
    # estimate, which ``best_trump`` gives with the trump it would name: once per hand, not at each bid and call;
    # any other auction: ``play_deal`` whole, as the plain enumeration plays it
    single = rules[R_AUCTION] == AUCTION_SINGLE and off == U0
    for b in range(cb.shape[0]):
        mb = lo6[cb[b] & 63] | hi6[cb[b] >> 6]
        hands[p2] = mb
        hands[p3] = rest12 & ~mb
        if not single:
            play_deal(hands, work, dealer, i64(AUCTION), i64(NO_BID), i64(HEURISTIC_TRUMP), seat, rules, hcodes,
                      hparams, st, lb, rec, nogame)
            acc[O_PASS_POINTS + 6 + rec[REC_SCORE + seat]] += 1
            acc[O_PASS_STAKES + 1 + rec[REC_STAKES + seat]] += 1
            continue
        for q in range(1 if b == 0 else 2, 4):    # the next seat's hand is the same in every split
            s = (seat + q) & 3
            tq, vq = best_trump(hands[s], hparams, s, lb)
            ests[s, 0] = tq
            ests[s, 1] = vq
        taker = -1
        contract = 0
        for k in range(4):
            s = (dealer + 1 + k) % 4
            lo = 3 if contract < 3 else contract + 1
            if s != seat and lo <= 6:
                bid = bid_for(hparams, s, ests[s, 1], lo, NO_SA)
                if bid > 0:
                    contract = bid
                    taker = s
        if taker < 0:
            acc[O_PASS_POINTS + 6] += 1
            acc[O_PASS_STAKES + 1] += 1
            continue
        t = i64(ests[taker, 0])
        for i in range(4):
            h[i] = hands[i]
        pend[4, 0] = U1 if contract == 6 else off
        kx = (np.uint64(1 + taker + 4 * t)) << _S50
        _tricks_body(h, taker, t, rules, hcodes, hparams, st, lb, won, taker, i64(0), i64(0), i64(-1), taker, U0,
                     tab, pend, seat, kx)
        acc[O_PASS_POINTS + 6 + won[seat]] += 1
        acc[O_PASS_STAKES + 1 + six_stakes(seat, taker, contract, won[taker] >= contract)] += 1
    pend[4, 0] = off


@njit(cache=True, nogil=True, parallel=True)
def exact_odds(fixed, seat, dealer, trumps, with_pass, rules, hcodes, hparams, outer):
    """Every layout of the 18 other cards (C(18,6)*C(12,6) = 17,153,136): the same
    aggregate as ``sim_odds`` (trumps not listed in ``trumps`` stay zero).  The layouts are the hands of the
    next seat ``(seat + 1) % 4`` (``outer``: indices into the 18,564 six-card subsets of the other cards, in
    increasing order; all of them for the whole enumeration, a few in the tests), then every split of the 12
    cards left between the two seats after it.  The forced contracts share, per hand of the next seat, the
    first trick's lead and answer (``_lead_two``), and play on by ``tricks_from``'s play with a memo (the
    states after one to four tricks; kept across the hands of a block, ``EXACT_BLOCKS`` runs of consecutive
    hands of the next seat, which reach many of the same states; a block plays one trump after the other over
    its hands, so one trump's table is in use at a time); the deal in which ``seat`` passes is ``_pass_layouts``'
    (``play_deal``'s auction, trump and play, with the memo)."""
    lb = rules[R_LEFT_BOWER_TRUMP]
    rest = np.zeros(18, np.int64)
    k = 0
    m = DECK24 & ~fixed
    while m != U0:
        rest[k] = lowest(m)
        m &= m - U1
        k += 1
    ca = _combos(18, 6)
    cb = _combos(12, 6)
    nb = cb.shape[0]
    nout = outer.shape[0]
    nblk = EXACT_BLOCKS
    part = np.zeros((nblk, AGG_ODDS), np.int64)
    p1 = (seat + 1) & 3
    p2 = (seat + 2) & 3
    p3 = (seat + 3) & 3
    nt = trumps.shape[0]
    random_seat = False
    for s in range(4):
        if hcodes[s] == H_RANDOM:
            random_seat = True
    for blk in prange(nblk):
        st = np.zeros(1, np.uint64)
        hands = np.zeros(4, np.uint64)
        h = np.zeros(4, np.uint64)
        work = np.zeros(4, np.uint64)
        won = np.zeros(4, np.int64)
        rec = np.zeros(REC_LEN, np.int64)
        nogame = no_game()
        pre = np.zeros(5, np.int64)
        ests = np.zeros((4, 2))     # the passing deal's auction: per seat the trump it names and its estimate
        lo6 = np.zeros(64, np.uint64)
        hi6 = np.zeros(64, np.uint64)
        tab = np.zeros((1 << MEMO_BITS, 2), np.uint64)
        # pending states of one playout (rows 0-3); [4, 0] = 1 turns the memo off (a seat that plays at random)
        pend = np.zeros((5, 3), np.uint64)
        pend[4, 0] = U1 if random_seat else U0
        acc = part[blk]
        j0 = blk * nout // nblk
        j1 = (blk + 1) * nout // nblk
        for ti in range(nt):
            t = trumps[ti]
            if ti > 0:
                tab[:] = U0     # the memo of one trump: its keys do not hold the trump
            for j in range(j0, j1):
                ma, rest12 = _outer_hand(ca[outer[j]], rest, lo6, hi6)
                hands[seat] = fixed
                hands[p1] = ma
                hands[p2] = lo6[cb[0] & 63] | hi6[cb[0] >> 6]
                hands[p3] = rest12 & ~hands[p2]
                _lead_two(hands, work, dealer, seat, t, rules, hcodes, hparams, st, lb, rec, nogame, pre)
                _play_layouts(fixed, ma, lo6, hi6, rest12, cb, seat, t, pre, rules, hcodes, hparams, st, lb, h, won,
                              tab, pend, acc)
        if with_pass:
            tab[:] = U0
            for j in range(j0, j1):
                ma, rest12 = _outer_hand(ca[outer[j]], rest, lo6, hi6)
                hands[seat] = fixed
                hands[p1] = ma
                _pass_layouts(hands, lo6, hi6, rest12, cb, seat, dealer, rules, hcodes, hparams, st, lb, h, won, work,
                              rec, nogame, tab, pend, ests, acc)
    return sum_rows(part)


# sim_classes aggregate: the taker's tricks 0..6 by hand class (trumps 0..7, bowers 0..2, side aces 0..4)
CLASSES = Layout(("tricks", (8, 3, 5, 7)),)
C_TRICKS, = CLASSES.offsets()
AGG_CLASSES = CLASSES.size


@njit(cache=True, nogil=True, _nrt=False)
def hand_class(hand, t, lb):
    ntr = 0
    nbow = 0
    aces = 0
    m = hand
    while m != U0:
        c = lowest(m)
        m &= m - U1
        p = POWER[lb, t, c]
        if p >= 64:
            ntr += 1
            if p >= 64 + 19:
                nbow += 1
        elif (c & 15) == 12:
            aces += 1
    return ntr, nbow, aces


@njit(cache=True, nogil=True, parallel=True)
def sim_classes(key_deal, key_dec, first, n, rules, hcodes, hparams):
    """Random deals; the first to speak takes the contract in the trump its heuristic
    prefers; counts its tricks by hand class (trump count, bowers, side aces): the fields of ``CLASSES``."""
    lb = rules[R_LEFT_BOWER_TRUMP]
    nch = (n + CHUNK - 1) // CHUNK
    part = np.zeros((nch, AGG_CLASSES), np.int64)
    for ch in prange(nch):
        st = np.zeros(1, np.uint64)
        sd = np.zeros(1, np.uint64)
        deck = np.zeros(24, np.int64)
        hands = np.zeros(4, np.uint64)
        work = np.zeros(4, np.uint64)
        rec = np.zeros(REC_LEN, np.int64)
        nogame = no_game()
        acc = part[ch]
        for i in range(ch * CHUNK, min(n, (ch + 1) * CHUNK)):
            idx = first + i
            seed_state(sd, key_deal, idx)
            seed_state(st, key_dec, idx)
            deal_random(sd, deck, hands)
            dealer = i64(3)
            play_deal(hands, work, dealer, i64(0), i64(3), i64(HEURISTIC_TRUMP), i64(NOBODY), rules, hcodes, hparams, st, lb, rec,
                      nogame)
            t = rec[REC_TRUMP]
            if t == NT:
                continue
            ntr, nbow, aces = hand_class(hands[0], t, lb)
            acc[C_TRICKS + ((ntr * 3 + nbow) * 5 + aces) * 7 + rec[REC_WON]] += 1
    return sum_rows(part)
