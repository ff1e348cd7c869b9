"""Bourre dealing, declarations and the draw (RULES.md section 3, rules 3-8): the seat order, a fresh deal,
serving cards from the pool, each seat's play/pass and discard decision applied, the draw of the declared
players; and the non-inlined forms of the declaration steps that the sampling player (kernels/bourre/pimc.py)
replays in its worlds."""
import numpy as np
from numba import njit

from ..cards import U0, popcount
from .players import H_BASIC, decide_heuristic
from .rules import (ALLPASS_DEALER_WINS, MAXP, OVF, R_ALL_PASS, R_RESHUFFLE, R_TRUMP_CARD, REC_ANTE2, REC_DEALER,
                    REC_DEC, REC_NRESHUF, REC_UPCARD, RESHUF_WP, TRUMP_DEALER_FIFTH, TRUMP_SEPARATE, bitc, draw_card,
                    fill_pool)


# ============================================================================
# one deal
# ============================================================================
@njit(cache=True, nogil=True, inline="always", _nrt=False)
def seat_order(players, dealer, inmask, iw):
    """iw[16:16+k] = the seats of ``inmask`` from the dealer's left, the dealer last; returns k."""
    k = np.int64(0)     # int64 from the start: play_dealt passes k on (a literal 0 compiles the callees once more)
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


# Compiled once, not inlined: the sampling player's declaration (kernels/bourre/pimc.py) replays these for every
# earlier and later seat of each world; inlining them at each of its call sites made a cold compile of the
# session kernels take minutes.  ``play_dealt`` keeps the inlined forms (they are on its hot path).
@njit(cache=True, nogil=True, _nrt=False)
def basic_decision_call(hp, row, is_dealer, h, trump, upcard, lono, sep, limit, known_out, i, k, nplay, pot,
                        table_ante, ante_amt, rules, st):
    """``play_dealt``'s decision of a seat deciding as ``basic`` with the parameters ``hp[row]`` (the sampling
    player's replays of the other seats): no ev table is read."""
    if is_dealer and nplay == 0 and rules[R_ALL_PASS] == ALLPASS_DEALER_WINS:
        return True, U0
    play, disc = decide_heuristic(H_BASIC, hp, row, h, trump, upcard, is_dealer, lono, limit, known_out, i, k, nplay,
                                  pot, table_ante, ante_amt, st)
    if must_play(is_dealer, lono, sep, upcard):
        play = True
    return play, disc


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
