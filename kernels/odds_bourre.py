"""Bourre odds of one hand under the heuristics and under paranoid open-hand play, on the same deals
(issue 12 item 4: ``tricksim odds bourre --play heuristic,open``).

Deal ``first + i`` is dealt around the fixed hand exactly as kernels/bourre.sim_odds deals it, and
every choice of ``cmode``/``cdisc`` is played by ``play_dealt`` from the same deal and the same
decision stream: the heuristics' column of a choice equals sim_odds's counts of that choice.

The open-hand column keeps everything up to the first trick as the heuristics played it (the Lo-No
call, every pass/play decision, every discard and every card drawn: the draw is hidden information
that open-hand play cannot improve on without a model of the stock), then asks the open-hand solver
(kernels/solve_bourre.analyse) about the five tricks from the hands after the draw: every player sees
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

from tricksim.kernels.cards import U0
from tricksim.kernels.rng import seed_state
from tricksim.kernels.bourre import (
    MAXP, REC_LEN, REC_ACTIVE, REC_NACTIVE, REC_HANDS, REC_LONO, REC_TRUMP, REC_UP_OUT, REC_TIED, REC_POT_WON,
    REC_ANTE2, REC_BPAID, R_TRUMP_CARD, R_ANTE, TRUMP_SEPARATE, DECK52, bitc, fill_pool, draw_card, seat_order,
    play_dealt, odds_outcome, ODDS_CELLS, UW_LEN, IW_LEN,
)
from tricksim.kernels.cards import popcount
from tricksim.kernels.solve_bourre import (
    POS_LEN, P_N, P_ME, P_LEADER, P_TRUMP, P_LONO, P_LEAD, P_AKQ, P_KNOWN, N_OUT, OUT_NOT_BOURRE, OUT_WIN, W_TT,
    W_BITS, TT_BITS, QKA, analyse,
)

OC_OUT, OC_WIN, OC_HELD, OC_BOURRE = 0, 1, 2, 3
N_OC = 4
PLAY_CELLS = ODDS_CELLS * N_OC      # (heuristic category, active players, tied players, open outcome)
PLAY_STRIDE = PLAY_CELLS + 1        # + the heuristics' chips (settlement check)


@njit(cache=True, nogil=True, _nrt=False)
def open_position(rec, n, dealer, upcard, sep, me_seat, h, pos):
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
    for _ in range(n):               # clockwise from the dealer's left, the dealer last
        s += 1
        if s == n:
            s = 0
        if (active >> s) & 1:
            h[k] = np.uint64(rec[REC_HANDS + s])
            if s == me_seat:
                pos[P_ME] = k
            if lono and s == dealer:
                pos[P_LEADER] = k
            if trump >= 0:
                akq = QKA << np.uint64(16 * trump)
                if (h[k] & akq) == akq:
                    pos[P_AKQ] |= 1 << k
            k += 1
    pos[P_N] = k
    if not lono:
        pos[P_LEADER] = 0
    pos[P_TRUMP] = -1 if lono else trump
    pos[P_LONO] = 1 if lono else 0
    pos[P_LEAD] = upcard if lono else -1
    if sep or rec[REC_UP_OUT] != 0:
        pos[P_KNOWN] = np.int64(bitc(upcard))
    return -1


@njit(cache=True, nogil=True, _nrt=False)
def open_outcome(rec, n, dealer, upcard, sep, me_seat, rules, h, pos, ws, o):
    """The seat's outcome under paranoid open-hand play from the hands after the draw (OC_*)."""
    oc = open_position(rec, n, dealer, upcard, sep, me_seat, h, pos)
    if oc >= 0:
        return oc
    analyse(h, pos, rules, ws, o)
    if o[OUT_WIN] != 0:
        return OC_WIN
    return OC_HELD if o[OUT_NOT_BOURRE] != 0 else OC_BOURRE


@njit(cache=True, nogil=True, parallel=True)
def sim_odds_play(key_deal, key_dec, first, nsamp, n, seat, fixed, upcard, pot0, cmode, cdisc, rules, hcodes,
                  hparams, do_open):
    """Deals ``first .. first+nsamp-1`` as kernels/bourre.sim_odds deals and plays them, every choice
    on the same deal; with ``do_open`` also the seat's open-hand outcome (OC_*) after the same draw.
    Returns int64[nc * PLAY_STRIDE]: per choice the joint count of cell
    ``((heuristic category * 9 + active players) * 9 + tied players) * N_OC + open outcome`` (the
    categories of sim_odds; open outcome 0 when ``do_open`` is off), then the heuristics' chips."""
    nc = cmode.shape[0]
    CH = 16
    nch = (nsamp + CH - 1) // CH
    part = np.zeros((nch, nc * PLAY_STRIDE), np.int64)
    dealer = n - 1
    sep = rules[R_TRUMP_CARD] == TRUMP_SEPARATE
    ante = rules[R_ANTE]
    known = fixed | bitc(upcard)
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
        sh = np.zeros(MAXP, np.uint64)
        spos = np.zeros(POS_LEN, np.int64)
        o = np.zeros(N_OUT, np.int64)
        ws = np.zeros(W_TT + 2 * (1 << TT_BITS) if do_open else W_TT + 2, np.uint64)
        ws[W_BITS] = np.uint64(TT_BITS if do_open else 0)
        acc = part[ch]
        for i in range(ch * CH, min(nsamp, (ch + 1) * CH)):
            idx = first + i
            seed_state(sd, key_deal, idx)
            m = fill_pool(p0, DECK52 & ~known)
            for s in range(MAXP):
                h0[s] = U0
            h0[seat] = fixed
            seat_order(n, dealer, (1 << n) - 1, iw)
            for r in range(5):
                for q in range(n):
                    s = iw[16 + q]
                    if s == seat:
                        continue
                    if s == dealer and r == 4 and not sep:
                        h0[s] |= bitc(upcard)
                        continue
                    c = draw_card(sd, p0, m)
                    m -= 1
                    h0[s] |= bitc(c)
            sd0 = sd[0]
            for ci in range(nc):
                for s in range(MAXP):
                    hands[s] = h0[s]
                for q in range(m):
                    pool[q] = p0[q]
                sd[0] = sd0
                seed_state(st, key_dec, idx)
                pot = pot0 + ante * n
                play_dealt(sd, st, n, dealer, (1 << n) - 1, pot, upcard, m, ante, rules, hcodes, hparams,
                           hands, pool, rec, seat, cmode[ci], np.uint64(cdisc[ci]), uw, iw)
                cat = odds_outcome(rec, seat)
                npl = rec[REC_NACTIVE]
                nt = popcount(np.uint64(rec[REC_TIED])) if cat == 3 else 0
                oc = 0
                if do_open:
                    oc = open_outcome(rec, n, dealer, upcard, sep, seat, rules, sh, spos, ws, o)
                acc[ci * PLAY_STRIDE + ((cat * 9 + npl) * 9 + nt) * N_OC + oc] += 1
                x = rec[REC_POT_WON + seat] - rec[REC_ANTE2 + seat] - rec[REC_BPAID + seat]
                acc[ci * PLAY_STRIDE + PLAY_CELLS] += x
    return part.sum(axis=0)
