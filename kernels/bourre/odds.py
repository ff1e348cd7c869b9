"""Bourre odds of one hand before the draw under the heuristics (``sim_odds``): the hand is fixed at its seat,
the unseen cards dealt around it (``deal_around``), and every choice (pass, or play with a discard) is played
out by ``play_dealt`` from the same deal and decision stream (``odds_playout``)."""
import numpy as np
from numba import njit, prange

from ..cards import DECK52, U0, popcount
from ..layout import Layout
from ..rng import seed_state
from .draw import seat_order
from .play import play_dealt, refuse_ev_without_table, refuse_pimc_seats
from .rules import (IW_LEN, MAXP, OUT_LONE, OUT_WIN, R_ANTE, R_TRUMP_CARD, REC_ACTIVE, REC_ANTE2, REC_BOURRE,
                    REC_BPAID, REC_LEN, REC_NACTIVE, REC_OUTCOME, REC_POT_WON, REC_TIED, REC_WINNER, TRUMP_SEPARATE,
                    UW_LEN, bitc, draw_card, fill_pool)
from ..tally import sum_rows

# ============================================================================
# odds of one hand before the draw
# ============================================================================
ODDS_CATS = 6              # 0 passed, 1 won, 2 lone win, 3 tied, 4 lost with tricks, 5 bourre
# ``sim_odds``'s vector holds one ``ODDS_CHOICE`` per choice, ODDS_STRIDE apart: the cells [category 0..5][players
# who played 0..8][tied 0..8], then the exact sum of the seat's chips
ODDS_CHOICE = Layout(("cells", (ODDS_CATS, 9, 9)), ("chips", 1))
OC_CELLS, OC_CHIPS = ODDS_CHOICE.offsets()
ODDS_CELLS = ODDS_CHOICE.length("cells")
ODDS_STRIDE = ODDS_CHOICE.size


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
    """Deal ``idx`` of the odds of one hand (``sim_odds``, kernels/bourre/odds_play.py): ``seat`` holds ``fixed``,
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
             hparams, evt, pimc=None):
    """Random deals of the unseen cards around ``fixed`` (seat ``seat``, dealer players-1,
    everyone antes); every choice of cmode/cdisc is played on the same deal (common
    random numbers: the same stock and the same decision stream).  Returns
    int64[nc * ODDS_STRIDE].  ``evt`` the ev tables (seat s's row s; None when no seat is ev: the kernel
    compiles without ev).
    ``pimc`` True when a seat of ``hcodes`` is the sampling player; None (omitted): none is, and the kernel is
    compiled without it (play_dealt's ``pimc``)."""
    refuse_ev_without_table(hcodes, evt)
    if pimc is None:
        refuse_pimc_seats(hcodes)
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
        evrow = np.arange(MAXP)
        acc = part[ch]
        for i in range(ch * CH, min(nsamp, (ch + 1) * CH)):
            idx = first + i
            m = deal_around(sd, key_deal, idx, players, dealer, seat, fixed, upcard, sep, h0, p0, iw)
            sd0 = sd[0]
            for ci in range(nc):
                cat, npl, nt, x = odds_playout(sd, sd0, st, key_dec, idx, players, dealer, seat, h0, p0, m, hands, pool,
                                               pot0 + ante * players, upcard, ante, rules, hcodes, hparams, evt,
                                               evrow, rec, cmode[ci], cdisc[ci], uw, iw, pimc)
                acc[ci * ODDS_STRIDE + OC_CELLS + (cat * 9 + npl) * 9 + nt] += 1
                acc[ci * ODDS_STRIDE + OC_CHIPS] += x
    return sum_rows(part)


# inlined into the batch kernels: not a code library of its own, which would optimise and emit play_dealt's whole
# code once more on a cold compile (numba links a callee's code into every library that calls it)
@njit(cache=True, nogil=True, _nrt=False, inline="always")
def odds_playout(sd, sd0, st, key_dec, idx, players, dealer, seat, h0, p0, m, hands, pool, pot, upcard, ante, rules,
                 hcodes, hparams, evt, evrow, rec, mode, disc, uw, iw, pimc=None):
    """One choice (``mode``, ``disc``) played on deal ``idx`` of the odds as ``deal_around`` dealt it (the
    hands ``h0``, the stock ``p0[:m]``, the draw stream state ``sd0``), from the deal's decision stream.
    Returns the seat's (category, players active, players tied, chips) (``odds_outcome``); ``pimc`` as
    play_dealt's."""
    for s in range(MAXP):
        hands[s] = h0[s]
    for q in range(m):
        pool[q] = p0[q]
    sd[0] = sd0
    seed_state(st, key_dec, idx)
    play_dealt(sd, st, players, dealer, (1 << players) - 1, pot, upcard, m, ante, rules, hcodes, hparams, evt, evrow,
               hands, pool, rec, seat, mode, np.uint64(disc), uw, iw, pimc)
    cat = odds_outcome(rec, seat)
    nt = popcount(np.uint64(rec[REC_TIED])) if cat == 3 else 0
    return cat, rec[REC_NACTIVE], nt, rec[REC_POT_WON + seat] - rec[REC_ANTE2 + seat] - rec[REC_BPAID + seat]
