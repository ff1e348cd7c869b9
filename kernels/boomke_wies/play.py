"""One Boomke Wies deal: the auction, the tricks (Boom stopping early), ``play_deal``, the no-auction variant,
and the dealing (a shuffle, or the tricks collected, cut and dealt in packets) of an independent hand."""
import numpy as np
from numba import njit

from ..cards import U0, U1
from ..rng import below, shuffle
# the sampling player: ``auction`` calls ``_pimc.pimc_call``, ``play_tricks`` ``_pimc.pimc_card`` for an H_PIMC seat
from . import pimc as _pimc
from .players import (H_PIMC, H_RANDOM, P_ACE, P_BID_PROB, P_BOOM_MARGIN, P_KING, P_MARGIN,
                      P_OVERCALL_PARTNER, P_PARTNER, P_PARTNER_BID, P_PARTNER_PASSED, P_QUEEN, P_SEVEN_MARGIN,
                      P_SHORT, P_TRUMP_LEN, best_suit, choose_card, opening_lead, own_tricks, partner_call,
                      partner_credit, play_flags, random_call, random_card, sure_thirteen)
from .rules import (ABOVE, ALL_ONES, AUCTION, BOOM, DEALPOS, HEURISTIC_TRUMP, MAX_BIDS, MEETJE,
                    MEETJE_NAMES_ELDEST_LEADS, NO_BID, NO_CONTRACT, NOBODY, PACKETS_4441, PASS, R_DEALER_8_12,
                    R_MEETJE_TRUMP, R_PACKETS, R_SHUFFLE, R_VARIANT, REC_BIDS, REC_CONTRACT, REC_CUT, REC_DEALER,
                    REC_DECL, REC_HANDS, REC_LEADER0, REC_LEGAL, REC_MADE, REC_NBIDS, REC_NTRICKS, REC_PILE,
                    REC_SCORE, REC_TEAM, REC_TRICKS, REC_TRUMP, REC_TURNUP, REC_WON, SHUFFLE_NONE, SM,
                    VARIANT_NO_AUCTION, after_call, i64, legal_mask, low, place, score_contract)


# ============================================================================
# one deal
# ============================================================================
@njit(cache=True, nogil=True, _nrt=False)
def auction(hands, dealer, rules, hcodes, hparams, st, rec, forced_pass, pimc=None, xo=None):
    """Rules 5-6: the multi-round auction from the dealer's left; a passer is out for
    good; three passes end it; after three opening passes the dealer must call 7, Boom
    or Meetje (any of 7..13 or Meetje with ``dealer_may_bid_8_to_12``). Returns
    (declarer, contract). ``forced_pass`` = a seat that passes whenever it may (-1: none).
    ``pimc``: the sampling player's workspace (kernels/boomke_wies/pimc.py) when an H_PIMC
    seat may sit; None (omitted): numba prunes its branch and does not compile the player. ``xo`` (trace
    --explain, with ``pimc``): the deal's rows of the sampling player's reasons (kernels/explain.py)."""
    high = np.int64(0)  # an int64 from the start: a literal 0 would compile random_call and partner_call twice
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
            elif pimc is not None and hcodes[s] == H_PIMC:
                b = _pimc.pimc_call(pimc, hands, s, dealer, high, holder, forced, nb, rec, rules, hparams, st, xo)
            elif high < 13 and sure_thirteen(hands[s], hparams, s):
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
            high, holder, npass, passed, bids, ended = after_call(s, b, high, holder, npass, passed, bids)
            if ended:
                break
        s = (s + 1) & 3
    rec[REC_NBIDS] = nb
    return holder, high


@njit(cache=True, nogil=True, _nrt=False)
def play_tricks(hands, h, leader, t, declarer, contract, open_mask, hcodes, hparams, st, rec, rules, pimc=None,
                xo=None):
    """Rules 7, 9, 10: up to 13 tricks from ``leader``; ``t = -1``: the suit of the
    first card led becomes trumps. ``open_mask`` narrows the first lead (odds studies;
    all ones otherwise). A Boom stops at the declaring team's first lost trick.
    Fills tricks, legal masks, tricks won; returns (trumps, tricks played). ``pimc`` as
    ``auction``'s (an H_PIMC seat with more than one legal card plays ``_pimc.pimc_card``), ``xo`` too."""
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
            if pimc is not None and hcodes[s] == H_PIMC and (lg & (lg - U1)) != U0:
                c = _pimc.pimc_card(pimc, h, s, lg, k, led, win, win_seat, t, declarer, contract, played, trick,
                                    voids, tr, nplay, rec, hparams, rules, st, c, xo)
            rec[REC_LEGAL + nplay] = np.int64(lg)
            nplay += 1
            rec[base + 1 + k] = c
            b = U1 << np.uint64(c)
            h[s] = hs & ~b
            played |= b
            trick |= b
            led, win, win_seat, t, voids = place(c, s, k, led, win, win_seat, t, voids)
        rec[base + 5] = win_seat
        rec[REC_WON + win_seat] += 1
        leader = win_seat
        if contract == BOOM and (win_seat & 1) != dteam:
            return t, tr + 1
    return t, 13


@njit(cache=True, nogil=True, _nrt=False)
def play_deal(hands, dealer, forced_decl, forced_contract, forced_open, forced_pass, rules,
              hcodes, hparams, st, rec, h, pimc=None, xo=None):
    """One whole deal of the bidding game from the hands as dealt: auction (or the forced
    contract), play, scoring; fills ``rec`` (the no-auction variant is ``play_no_auction``). ``forced_decl >= 0`` skips the auction: that seat declares
    ``forced_contract`` (7..13 or MEETJE); ``forced_open`` 0..3 makes it open that suit
    (its trumps; for a Meetje under ``dealer_names_then_eldest_leads`` the suit it names),
    -1 leaves the choice to its heuristic. ``forced_pass``: a seat that passes when it may.
    ``pimc``: the sampling player's workspace, as ``auction``'s, ``xo`` too."""
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
        decl, contract = auction(hands, dealer, rules, hcodes, hparams, st, rec, forced_pass, pimc, xo)
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
    t, n = play_tricks(hands, h, leader, t, decl, contract, open_mask, hcodes, hparams, st, rec, rules, pimc, xo)
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


@njit(cache=True, nogil=True)
def deal_scratch():
    """The scratch every kernel that deals and plays independent hands allocates alike, per thread: (decision
    state, deal state, deck, pile of the collected tricks, hands as dealt, hands in play)."""
    return (np.zeros(1, np.uint64), np.zeros(1, np.uint64), np.zeros(52, np.int64), np.zeros(52, np.int64),
            np.zeros(4, np.uint64), np.zeros(4, np.uint64))


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
def deal_hand(sd, st, idx_dealer, rules, hcodes, hparams, deck, pile, hands, h, rec, prev, pimc=None):
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
        play_dealt(hands, pdealer, rules, hcodes, hparams, st, prev, h, tc, pimc)
        collect_pile(prev, pile)
        tc = cut_and_deal(sd, pile, deck, idx_dealer, pattern, hands, rec)
    else:
        tc = deal_from_deck(deck, idx_dealer, pattern, hands)
    return tc


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def play_dealt(hands, dealer, rules, hcodes, hparams, st, rec, h, tc, pimc=None, xo=None):
    """Play a dealt hand under the rules in force (``tc`` = the dealer's last card, the
    no-auction trump indicator; ``pimc`` and ``xo`` as ``auction``'s)."""
    if rules[R_VARIANT] == VARIANT_NO_AUCTION:
        play_no_auction(hands, dealer, rules, hcodes, hparams, st, rec, h, tc, pimc, xo)
    else:
        play_deal(hands, dealer, i64(AUCTION), i64(NO_BID), i64(HEURISTIC_TRUMP), i64(NOBODY), rules, hcodes, hparams, st,
                  rec, h, pimc, xo)


@njit(cache=True, nogil=True, _nrt=False)
def play_no_auction(hands, dealer, rules, hcodes, hparams, st, rec, h, tc, pimc=None, xo=None):
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
    t, n = play_tricks(hands, h, eldest, tc >> 4, i64(-1), i64(NO_CONTRACT), ALL_ONES, hcodes, hparams, st, rec, rules,
                       pimc, xo)
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
def full_hand(sd, st, dealer, rules, hcodes, hparams, deck, pile, hands, h, rec, prev, pimc=None, xo=None):
    """Deal and play one independent hand exactly as every batch kernel does (``pimc`` as ``auction``'s; ``xo``
    too, for the hand itself, not the warm-up deal of ``shuffle = none_collect_tricks``)."""
    tc = deal_hand(sd, st, dealer, rules, hcodes, hparams, deck, pile, hands, h, rec, prev, pimc)
    play_dealt(hands, dealer, rules, hcodes, hparams, st, rec, h, tc, pimc, xo)


@njit(cache=True, nogil=True)
def refuse_pimc_seats(codes):
    """Raise when a seat of ``codes`` (any shape) is the sampling player: a batch kernel called without its ``pimc``
    argument (omitted or None) is compiled without the sampling player and would play such a seat as partner."""
    for c in codes.ravel():
        if c == H_PIMC:
            raise ValueError("a seat is the sampling player (pimc): pass the kernel's pimc argument (a workspace)")
