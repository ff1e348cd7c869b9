"""Bourre odds of one hand under the heuristics and under paranoid open-hand play, on the same deals
(issue 12 item 4: ``tricksim odds bourre --play heuristic,open``).

Deal ``first + i`` is dealt around the fixed hand exactly as kernels/bourre/odds.sim_odds deals it
(``deal_around``), and every choice of ``cmode``/``cdisc`` is played by ``play_dealt`` from the same deal
and the same decision stream (``odds_playout``): the heuristics' column of a choice equals sim_odds's counts
of that choice. The pimc column plays the choice once more from the same deal and decision stream with the
seat the sampling player (kernels/bourre/pimc.py) and the others as before: the decisions before the first
trick and the draw are the same (pimc decides them as basic, and the choice forces the seat's), only the
card play differs.

The open-hand column keeps everything up to the first trick as the heuristics played it (the Lo-No
call, every pass/play decision, every discard and every card drawn: the draw is hidden information
that open-hand play cannot improve on without a model of the stock), then asks the open-hand solver
(kernels/bourre/solver.analyse) about the five tricks from the hands after the draw: every player sees
every card, the seat plays as well as possible and ALL the other active players play together against
it (a paranoid search). Its outcome for the seat:

- ``OC_OUT`` 0: the seat passed (nothing to solve);
- ``OC_WIN`` 1: it surely wins the pot (strictly the most tricks whatever the others play), or it is
  the lone player;
- ``OC_HELD`` 2: it surely takes a trick, but the others together can keep it from winning;
- ``OC_BOURRE`` 3: the others together can keep it without a trick (bourre).

``open_position`` builds the solver's position from a deal record (rec of play_dealt): the active
seats renumbered clockwise from the dealer's left, the first active seat leading (the dealer under
Lo-No, with the up-card as his forced first lead), the cards known out to all (a separate turn-up,
the dealer's folded or discarded up-card), the A-K-Q holders.
"""
import numpy as np
from numba import njit, prange

from ..cards import U0
from ..layout import Layout
from .odds import ODDS_CATS, deal_around, odds_playout
from .play import refuse_ev_without_table, refuse_pimc_seats
from .rules import (IW_LEN, MAXP, R_ANTE, R_TRUMP_CARD, REC_ACTIVE, REC_HANDS, REC_LEN, REC_LONO, REC_NACTIVE,
                    REC_TRUMP, REC_UP_OUT, TRUMP_SEPARATE, UW_LEN, bitc)
from .solver import (N_OUT, OUT_NOT_BOURRE, OUT_WIN, POS_AKQ, POS_KNOWN, POS_LEAD, POS_LEADER, POS_LEN, POS_LONO,
                     POS_ME, POS_N, POS_TRUMP, QKA, TT_BITS, W_BITS, W_TT, analyse)
from ..tally import sum_rows

OC_OUT, OC_WIN, OC_HELD, OC_BOURRE = 0, 1, 2, 3
N_OC = 4
# ``sim_odds_play``'s vector: one ``PLAY_CHOICE`` per choice (PLAY_STRIDE apart): the joint cells (heuristic
# category, active players, tied players, open outcome), then the heuristics' chips (settlement check); then one
# ``PIMC_CHOICE`` per choice (PIMC_STRIDE apart): the pimc column's cells (category, active, tied) as sim_odds's,
# its chips, and the paired sums of pimc minus heuristics: P(win) and P(bourre) differences and their squares,
# chips and their squares
PLAY_CHOICE = Layout(("cells", (ODDS_CATS, 9, 9, N_OC)), ("chips", 1))
PL_CELLS, PL_CHIPS = PLAY_CHOICE.offsets()
PLAY_CELLS = PLAY_CHOICE.length("cells")
PLAY_STRIDE = PLAY_CHOICE.size
PIMC_CHOICE = Layout(("cells", (ODDS_CATS, 9, 9)), ("chips", 1), ("dwin", 1), ("dwin2", 1), ("dbou", 1),
                     ("dbou2", 1), ("dchips", 1), ("dchips2", 1))
PM_CELLS, PM_CHIPS, PM_DWIN, PM_DWIN2, PM_DBOU, PM_DBOU2, PM_DCHIPS, PM_DCHIPS2 = PIMC_CHOICE.offsets()
PIMC_STRIDE = PIMC_CHOICE.size


@njit(cache=True, nogil=True, _nrt=False)
def open_position(rec, players, dealer, upcard, sep, me_seat, h, pos):
    """Fill ``h`` (uint64[8]) and ``pos`` (int64[POS_LEN]) with the position at the first trick of
    the deal in ``rec`` for seat ``me_seat``; returns the outcome when no search is needed
    (OC_OUT: the seat passed; OC_WIN: it is the lone player) and -1 when the solver is to be asked."""
    active = rec[REC_ACTIVE]
    if not (active >> me_seat) & 1:
        return OC_OUT
    if rec[REC_NACTIVE] < 2:
        return OC_WIN
    for q in range(MAXP):
        h[q] = U0
    for q in range(POS_LEN):
        pos[q] = 0
    lono = rec[REC_LONO] != 0
    trump = rec[REC_TRUMP]
    k = 0
    s = dealer
    for _ in range(players):               # clockwise from the dealer's left, the dealer last
        s += 1
        if s == players:
            s = 0
        if (active >> s) & 1:
            h[k] = np.uint64(rec[REC_HANDS + s])
            if s == me_seat:
                pos[POS_ME] = k
            if lono and s == dealer:
                pos[POS_LEADER] = k
            if trump >= 0:
                akq = QKA << np.uint64(16 * trump)
                if (h[k] & akq) == akq:
                    pos[POS_AKQ] |= 1 << k
            k += 1
    pos[POS_N] = k
    if not lono:
        pos[POS_LEADER] = 0
    pos[POS_TRUMP] = -1 if lono else trump
    pos[POS_LONO] = 1 if lono else 0
    pos[POS_LEAD] = upcard if lono else -1
    if sep or rec[REC_UP_OUT] != 0:
        pos[POS_KNOWN] = np.int64(bitc(upcard))
    return -1


@njit(cache=True, nogil=True, _nrt=False)
def open_outcome(rec, players, dealer, upcard, sep, me_seat, rules, h, pos, ws, o):
    """The seat's outcome under paranoid open-hand play from the hands after the draw (OC_*)."""
    oc = open_position(rec, players, dealer, upcard, sep, me_seat, h, pos)
    if oc >= 0:
        return oc
    analyse(h, pos, rules, ws, o)
    if o[OUT_WIN] != 0:
        return OC_WIN
    return OC_HELD if o[OUT_NOT_BOURRE] != 0 else OC_BOURRE


@njit(cache=True, nogil=True, parallel=True)
def sim_odds_play(key_deal, key_dec, first, nsamp, players, seat, fixed, upcard, pot0, cmode, cdisc, rules, hcodes,
                  hparams, evt, do_open, pcodes, pparams, do_pimc, pimc=None):
    """Deals ``first .. first+nsamp-1`` as kernels/bourre/odds.sim_odds deals and plays them, every choice
    on the same deal; with ``do_open`` also the seat's open-hand outcome (OC_*) after the same draw; with
    ``do_pimc`` the same choice played again from the same deal and decision stream with the heuristics
    ``pcodes``/``pparams`` (the seat the sampling player, the others as in ``hcodes``); ``evt`` the ev tables of
    both (seat s's row s, as sim_odds's).
    Returns int64[nc * (PLAY_STRIDE + PIMC_STRIDE)]: per choice the joint count of cell
    ``((heuristic category * 9 + active players) * 9 + tied players) * N_OC + open outcome`` (the
    categories of sim_odds; open outcome 0 when ``do_open`` is off), then the heuristics' chips; then per
    choice the pimc playout's cells ``(category * 9 + active players) * 9 + tied players``, its chips and the
    paired sums (PM_*) of pimc minus heuristics (zero when ``do_pimc`` is off).

    ``do_open`` and ``do_pimc`` are True or None (off): numba prunes the branches of an argument that is None,
    so the kernel compiled without one of them does not compile the open-hand solver or the sampling player
    (minutes cold); ``pimc`` True when a seat of ``hcodes`` is the sampling player (play_dealt's ``pimc``)."""
    refuse_ev_without_table(hcodes, evt)
    if pimc is None:
        refuse_pimc_seats(hcodes)
    nc = cmode.shape[0]
    CH = 16
    nch = (nsamp + CH - 1) // CH
    o_p = nc * PLAY_STRIDE
    part = np.zeros((nch, nc * (PLAY_STRIDE + PIMC_STRIDE)), np.int64)
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
        sh = np.zeros(MAXP, np.uint64)
        spos = np.zeros(POS_LEN, np.int64)
        o = np.zeros(N_OUT, np.int64)
        ws = np.zeros(W_TT + 2 * (1 << TT_BITS) if do_open is not None else W_TT + 2, np.uint64)
        ws[W_BITS] = np.uint64(TT_BITS if do_open is not None else 0)
        acc = part[ch]
        for i in range(ch * CH, min(nsamp, (ch + 1) * CH)):
            idx = first + i
            m = deal_around(sd, key_deal, idx, players, dealer, seat, fixed, upcard, sep, h0, p0, iw)
            sd0 = sd[0]
            pot = pot0 + ante * players
            for ci in range(nc):
                cat, npl, nt, x = odds_playout(sd, sd0, st, key_dec, idx, players, dealer, seat, h0, p0, m, hands, pool,
                                               pot, upcard, ante, rules, hcodes, hparams, evt, evrow, rec,
                                               cmode[ci], cdisc[ci], uw, iw, pimc)
                oc = 0
                if do_open is not None:
                    oc = open_outcome(rec, players, dealer, upcard, sep, seat, rules, sh, spos, ws, o)
                acc[ci * PLAY_STRIDE + PL_CELLS + ((cat * 9 + npl) * 9 + nt) * N_OC + oc] += 1
                acc[ci * PLAY_STRIDE + PL_CHIPS] += x
                if do_pimc is not None:
                    pc, pn, pt, px = odds_playout(sd, sd0, st, key_dec, idx, players, dealer, seat, h0, p0, m, hands,
                                                  pool, pot, upcard, ante, rules, pcodes, pparams, evt, evrow, rec,
                                                  cmode[ci], cdisc[ci], uw, iw, do_pimc)
                    b = o_p + ci * PIMC_STRIDE
                    acc[b + PM_CELLS + (pc * 9 + pn) * 9 + pt] += 1
                    acc[b + PM_CHIPS] += px
                    dw = (1 if (pc == 1 or pc == 2) else 0) - (1 if (cat == 1 or cat == 2) else 0)
                    db = (1 if pc == 5 else 0) - (1 if cat == 5 else 0)
                    acc[b + PM_DWIN] += dw
                    acc[b + PM_DWIN2] += dw * dw
                    acc[b + PM_DBOU] += db
                    acc[b + PM_DBOU2] += db * db
                    acc[b + PM_DCHIPS] += px - x
                    acc[b + PM_DCHIPS2] += (px - x) * (px - x)
    return sum_rows(part)
