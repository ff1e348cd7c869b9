"""One Boulmous deal: the auction, the tricks, the score (``play_deal``), and the deal itself (``deal_random``;
``deal_rest`` around a fixed hand)."""
import numpy as np
from numba import njit

from tricksim.kernels.cards import U0, U1, lowest
from tricksim.kernels.deal import deal_with_fixed
from tricksim.kernels.rng import seed_state, shuffle

from tricksim.kernels.boulmous.rules import (
    AUCTION_SINGLE, CSUIT, DECK24, END_TRICK, MAX_BIDS, POWER, R_AUCTION, R_END_CHECK, R_FAILED_KEEPS, R_TARGET,
    REC_BIDS, REC_CONTRACT, REC_DEALER, REC_HANDS, REC_LEGAL, REC_MADE, REC_NBIDS, REC_NTRICKS, REC_SCORE, REC_STAKES,
    REC_TAKER, REC_TRICKS, REC_TRUMP, REC_WON, beats, legal_mask,
)
from tricksim.kernels.boulmous.players import choose_bid, choose_card, choose_trump


# ============================================================================
# one deal
# ============================================================================
@njit(cache=True, nogil=True, _nrt=False, inline="always")
def apply_card(h, s, c, k, led, win_pow, win_seat, t, lb):
    """Seat ``s`` plays card ``c`` as the ``k``-th card (0 = the lead) of a trick: removes it from ``h[s]``;
    returns the trick's (led class, winning power, winning seat) after it (rule 14)."""
    h[s] &= ~(U1 << np.uint64(c))
    if k == 0:
        return CSUIT[lb, t, c], POWER[lb, t, c], s
    if beats(c, led, win_pow, t, lb):
        return led, POWER[lb, t, c], s
    return led, win_pow, win_seat


@njit(cache=True, nogil=True, _nrt=False)
def auction(hands, dealer, rules, hcodes, hparams, st, lb, rec, forced_pass):
    """Rule 4-6. Returns (taker, contract); taker -1 when all pass.
    ``forced_pass`` = a seat that must pass (-1 for none)."""
    high = 0
    taker = -1
    nb = 0
    if rules[R_AUCTION] == AUCTION_SINGLE:
        for k in range(4):
            s = (dealer + 1 + k) % 4
            b = 0
            if s != forced_pass:
                b = choose_bid(hcodes[s], hparams, s, hands[s], high, st, lb)
            rec[REC_BIDS + 2 * nb] = s
            rec[REC_BIDS + 2 * nb + 1] = b
            nb += 1
            if b > 0:
                high = b
                taker = s
    else:
        out = 0
        nout = 0
        s = (dealer + 1) % 4
        while True:
            if not (out >> s) & 1 and s != taker:
                b = 0
                if s != forced_pass:
                    b = choose_bid(hcodes[s], hparams, s, hands[s], high, st, lb)
                if nb < MAX_BIDS:
                    rec[REC_BIDS + 2 * nb] = s
                    rec[REC_BIDS + 2 * nb + 1] = b
                    nb += 1
                if b > 0:
                    high = b
                    taker = s
                else:
                    out |= 1 << s
                    nout += 1
                if nout == 4 or (nout == 3 and taker >= 0):
                    break
            s = (s + 1) % 4
    rec[REC_NBIDS] = nb
    return taker, high


@njit(cache=True, nogil=True, _nrt=False)
def play_tricks(hands, h, taker, t, rules, hcodes, hparams, st, lb, rec,
                base_scores):
    """Rules 10-14: six tricks, the taker leading. Fills tricks, legal masks and
    ``rec[REC_WON..]``. ``base_scores`` (int64[4]) are the game scores before the
    deal, used only by ``end_check = after_each_trick``; a deal outside a game passes ``no_game()``
    (NO_GAME: [0] below -2**40 disables the check).
    ``h`` (uint64[4]) is scratch for the hands in play. Returns the number of tricks played."""
    for i in range(4):
        h[i] = hands[i]
    played = U0
    leader = taker
    for i in range(4):
        rec[REC_WON + i] = 0
    nplay = 0
    contract = rec[REC_CONTRACT]
    for tr in range(6):
        base = REC_TRICKS + 6 * tr
        rec[base] = leader
        led = 0
        win_pow = -1
        win_seat = leader
        taker_played = False
        for k in range(4):
            s = (leader + k) % 4
            if tr == 5:  # the last card: nothing to choose
                lg = h[s]
                c = lowest(lg)
            else:
                lg = legal_mask(h[s], k, led, win_pow, t, rules, lb)
                c = choose_card(hcodes[s], hparams, s, s, h[s], lg, k, led, win_pow, win_seat,
                                taker_played, taker, t, played, st, lb)
            rec[REC_LEGAL + nplay] = np.int64(lg)
            nplay += 1
            rec[base + 1 + k] = c
            played |= U1 << np.uint64(c)
            led, win_pow, win_seat = apply_card(h, s, c, k, led, win_pow, win_seat, t, lb)
            if s == taker:
                taker_played = True
        rec[base + 5] = win_seat
        rec[REC_WON + win_seat] += 1
        leader = win_seat
        if rules[R_END_CHECK] == END_TRICK and base_scores[0] > -(1 << 40):
            # only a player who crosses the target during this deal stops it (one already
            # at the target when it began does not: ties go on as rule 17 says); a taker
            # counts once his contract is made
            ended = False
            for s in range(4):
                if base_scores[s] >= rules[R_TARGET]:
                    continue
                if s == taker and rec[REC_WON + s] < contract:
                    continue
                if base_scores[s] + rec[REC_WON + s] >= rules[R_TARGET]:
                    ended = True
            if ended:
                return tr + 1
    return 6


@njit(cache=True, nogil=True, _nrt=False)
def score_deal(taker, contract, ntricks, rules, rec):
    """Rules 15-16 and 18(c)(d): points and immediate stakes of the deal."""
    for s in range(4):
        rec[REC_SCORE + s] = rec[REC_WON + s]
        rec[REC_STAKES + s] = 0
    if taker < 0:
        rec[REC_MADE] = -1
        return
    won = rec[REC_WON + taker]
    if won >= contract:
        rec[REC_MADE] = 1
        if contract == 6:
            for s in range(4):
                rec[REC_STAKES + s] = 3 if s == taker else -1
    elif ntricks < 6 and contract - won <= 6 - ntricks:
        rec[REC_MADE] = -2  # game ended mid-deal before the contract was decided:
        rec[REC_SCORE + taker] = 0  # neither made nor failed, the taker scores nothing
    else:
        rec[REC_MADE] = 0
        if rules[R_FAILED_KEEPS] != 0:
            rec[REC_SCORE + taker] = won - contract
        else:
            rec[REC_SCORE + taker] = -contract
        if contract == 6:
            for s in range(4):
                rec[REC_STAKES + s] = -3 if s == taker else 1


@njit(cache=True, nogil=True, _nrt=False)
def play_deal(hands, work, dealer, forced_taker, forced_bid, forced_trump, forced_pass, rules,
              hcodes, hparams, st, lb, rec, base_scores):
    """One whole deal. With ``forced_taker >= 0`` the auction is skipped and that
    seat takes ``forced_bid`` with trump ``forced_trump`` (-1 = its heuristic's choice)."""
    rec[REC_DEALER] = dealer
    for s in range(4):
        rec[REC_HANDS + s] = np.int64(hands[s])
    if forced_taker >= 0:
        rec[REC_NBIDS] = 0
        taker = forced_taker
        contract = forced_bid
    else:
        taker, contract = auction(hands, dealer, rules, hcodes, hparams, st, lb, rec,
                                  forced_pass)
    rec[REC_TAKER] = taker
    rec[REC_CONTRACT] = contract
    if taker < 0:
        rec[REC_TRUMP] = -1
        rec[REC_NTRICKS] = 0
        for s in range(4):
            rec[REC_WON + s] = 0
        score_deal(taker, contract, 0, rules, rec)
        return
    if forced_taker >= 0 and forced_trump >= 0:
        t = forced_trump
    else:
        t = choose_trump(hcodes[taker], hparams, taker, hands[taker], st, lb)
    rec[REC_TRUMP] = t
    n = play_tricks(hands, work, taker, t, rules, hcodes, hparams, st, lb, rec,
                    base_scores)
    rec[REC_NTRICKS] = n
    score_deal(taker, contract, n, rules, rec)


@njit(cache=True, nogil=True, _nrt=False)
def deal_random(st, deck, hands):
    """Reset ``deck`` to the sorted 24 cards, shuffle it and give seat k the cards
    deck[6k:6k+6]."""
    m = 0
    for s in range(4):
        for r in range(7, 13):
            deck[m] = s * 16 + r
            m += 1
    shuffle(st, deck, 24)
    for s in range(4):
        m = U0
        for i in range(6):
            m |= U1 << np.uint64(deck[6 * s + i])
        hands[s] = m


NO_GAME = np.array([-(1 << 50), 0, 0, 0], dtype=np.int64)
# Every call of play_deal passes the same argument types (int64 scalars through ``i64``, never
# literal constants; writable arrays, never the read-only module constant NO_GAME): numba compiles
# one specialisation per distinct argument types, so literals and read-only arrays would each
# compile the whole per-deal code again (measured: play_tricks twice, play_deal 7 times, 35 s of a
# cold first run).  ``bench --compile`` shows the entry points' cold cost.
i64 = np.int64
# play_deal's "nothing forced" arguments (pass each through ``i64``):
AUCTION = -1          # forced_taker: nobody is made taker, the auction decides
NO_BID = 0            # forced_bid when the auction decides
HEURISTIC_TRUMP = -1  # forced_trump: the taker's heuristic names trumps
NOBODY = -1           # forced_pass: no seat is made to pass


@njit(cache=True, nogil=True, inline="always")
def no_game():
    """A fresh writable copy of NO_GAME (the deal is not part of a game: no end check)."""
    a = np.zeros(4, np.int64)
    a[0] = NO_GAME[0]
    return a


@njit(cache=True, nogil=True)
def _rest_of(fixed):
    """The 18 cards outside ``fixed``, in increasing order (as kernels/boulmous/odds.sim_odds lists them)."""
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
    kernels/boulmous/odds.sim_odds deals it (``seed_state(key_deal, idx)`` then ``deal_with_fixed``); ``sd`` and
    ``rest`` are scratch."""
    seed_state(sd, key_deal, idx)
    rest[:] = rest0
    deal_with_fixed(sd, rest, fixed, seat, hands, i64(6))
