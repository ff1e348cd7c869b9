"""Bourre sessions of consecutive deals (``sim_sessions``, ``trace_sessions``) and the reduction of a block of
sessions into a study's int64 vector (``reduce_sessions``, the log-binned pots ``pot_bin``)."""
import numpy as np
from numba import njit, prange

from ..cards import U0, highest, popcount
from ..layout import Layout
from ..rng import seed_state
from .draw import deal_fresh
from .play import add_net, next_deal, play_dealt, post_antes, refuse_ev_without_table, refuse_pimc_seats
from .players import choose_ante
from .rules import (IW_LEN, MAXP, NO_SEAT, OVF, R_ANTE, R_DEALER_SETS_ANTE, REC_ACTIVE, REC_ANTE2, REC_ANTE_AMT,
                    REC_ANTES, REC_BOURRE, REC_BPAID, REC_DEAL_IDX, REC_DEALER, REC_EXEMPT, REC_INMASK, REC_LEN,
                    REC_N, REC_NACTIVE, REC_OUTCOME, REC_OVERFLOW, REC_POT_AFTER, REC_POT_BEFORE, REC_POT_STAKE,
                    REC_POT_WON, REC_SCORE, REC_SESSION, UW_LEN)

# ============================================================================
# sessions
# ============================================================================
# per-session summary row
(S_OVF, S_OVF_DEAL, S_MAXPOT, S_PASS10, S_PASS100, S_PASS1000, S_DEALS, S_CONS, S_ENDPOT) = range(9)
S_BOURRE = 9          # 9: deals with 0..8 bourre players
S_ACTIVE = 18         # 9: deals with 0..8 active players
S_OUT = 27            # 4: outcomes (win, tie, lone, carry)
S_NET = 31            # 8: seat nets at the end
S_SWIN = 39           # 8: deals won per seat (pot taken, share included)
S_SBOU = 47           # 8: bourre per seat
S_SPLAY = 55          # 8: deals played per seat
S_LEN = 63
PASS_MULT = np.array([10, 100, 1000], np.int64)


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def session_deal(ks_deal, ks_dec, sess, j, players, pot, inmask, exempt, rules, hcodes, hparams, evt, evrow, rec,
                 hands, pool, sd, st, nets, uw, iw, pimc=None, xo=None):
    """Deal ``j`` of a session in the state (``pot`` carried in, ``inmask`` the seats in the
    deal, ``exempt`` the seats that do not ante, ``nets`` int64[MAXP] the seat nets so far),
    its cards and decisions drawn from ``seed_state(ks_deal, j)`` / ``seed_state(ks_dec, j)``:
    antes (rule 2), the deal, the settlement.  Fills ``rec`` (the pot after it is
    rec[REC_POT_AFTER]; the next deal's exemptions come from ``next_deal``) and adds each
    seat's score to ``nets``.  Returns False (rec[REC_OVERFLOW] = 1) when a pot, payment or
    net would pass OVF.  Every session kernel (``play_session``, ``split_sessions``) plays
    its deals through this one function.  ``xo``: as ``play_dealt``'s."""
    seed_state(sd, ks_deal, j)
    seed_state(st, ks_dec, j)
    dealer = j % players
    while not (inmask >> dealer) & 1:
        dealer = (dealer + 1) % players
    rec[REC_SESSION] = sess
    rec[REC_DEAL_IDX] = j
    rec[REC_N] = players
    rec[REC_DEALER] = dealer
    rec[REC_INMASK] = inmask
    rec[REC_POT_BEFORE] = pot
    rec[REC_EXEMPT] = exempt
    rec[REC_OVERFLOW] = 0
    ok = True
    # ---- antes (rule 2) ----
    ante = rules[R_ANTE]
    amt = ante
    if rules[R_DEALER_SETS_ANTE] != 0 and j > 0:
        amt = choose_ante(hcodes[dealer], hparams, dealer, ante, st)
    rec[REC_ANTE_AMT] = amt
    for s in range(MAXP):
        rec[REC_SCORE + s] = 0
    tot = post_antes(players, inmask, exempt, dealer, amt, rules, rec)
    if tot > OVF - pot:
        ok = False
    else:
        pot += tot
    if ok:
        upcard, m = deal_fresh(sd, players, dealer, inmask, hands, pool, rules, iw)
        ok = play_dealt(sd, st, players, dealer, inmask, pot, upcard, m, amt, rules, hcodes, hparams, evt, evrow,
                        hands, pool, rec, NO_SEAT, NO_SEAT, U0, uw, iw, pimc, xo)
    if ok:
        for s in range(players):
            x = rec[REC_POT_WON + s] - rec[REC_ANTES + s] - rec[REC_ANTE2 + s] - rec[REC_BPAID + s]
            rec[REC_SCORE + s] = x
            if not add_net(nets, s, x):
                ok = False
    if not ok:
        rec[REC_OVERFLOW] = 1
    return ok


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def session_start(key_deal, key_dec, sess, players, sd, st, nets):
    """The start of session ``sess`` in every session kernel: the seat nets at 0; returns its deal and
    decision keys (``session_deal``'s ``ks_deal``, ``ks_dec``), the pot (0), who is in the deal (everyone)
    and who is exempt from the ante (nobody)."""
    seed_state(sd, key_deal, sess)
    seed_state(st, key_dec, sess)
    for s in range(MAXP):
        nets[s] = 0
    return sd[0], st[0], np.int64(0), (1 << players) - 1, 0


@njit(cache=True, nogil=True)
def session_scratch():
    """One thread's scratch for ``session_deal``: hands, pool, sd, st, nets, uw, iw, rec, and ``evrow`` (seat s
    reads row s of the ev tables: in a session the tables are the seats')."""
    return (np.zeros(MAXP, np.uint64), np.zeros(52, np.int64), np.zeros(1, np.uint64), np.zeros(1, np.uint64),
            np.zeros(MAXP, np.int64), np.zeros(UW_LEN, np.uint64), np.zeros(IW_LEN, np.int64),
            np.zeros(REC_LEN, np.int64), np.arange(MAXP))


@njit(cache=True, nogil=True, _nrt=False)
def play_session(key_deal, key_dec, sess, players, D, rules, hcodes, hparams, evt, evrow, recs, record, srow, fanrow,
                 stride, hands, pool, sd, st, nets, uw, iw, pimc=None, xo=None):
    """Deals 0..D-1 of session ``sess``: antes (rule 2), the deal, the settlement, the
    pot carried on.  Fills the summary row ``srow`` (int64[S_LEN]) and the pot contested
    (carry-over + antes + second antes) at each fan point (``fanrow``,
    int64[ceil(D/stride)], deal min(D-1, (f+1)*stride-1); -1 = overflowed).  With
    ``record`` the deal records go to recs[j], else all to recs[0].  ``xo``: as ``play_dealt``'s."""
    for q in range(S_LEN):
        srow[q] = 0
    nfan = fanrow.shape[0]
    for f in range(nfan):
        fanrow[f] = -1
    ks_deal, ks_dec, pot, inmask, exempt = session_start(key_deal, key_dec, sess, players, sd, st, nets)
    ante = rules[R_ANTE]
    unit = max(ante, 1)
    srow[S_PASS10] = D
    srow[S_PASS100] = D
    srow[S_PASS1000] = D
    maxpot = np.int64(0)
    for j in range(D):
        rec = recs[j] if record else recs[0]
        if not session_deal(ks_deal, ks_dec, sess, j, players, pot, inmask, exempt, rules, hcodes, hparams, evt, evrow,
                            rec, hands, pool, sd, st, nets, uw, iw, pimc, xo):
            srow[S_OVF] = 1
            srow[S_OVF_DEAL] = j
            for p in range(3):
                if srow[S_PASS10 + p] == D:
                    srow[S_PASS10 + p] = j
            break
        stake = rec[REC_POT_STAKE]
        pot = rec[REC_POT_AFTER]
        srow[S_DEALS] += 1
        # statistics of the deal
        hi = stake if stake > pot else pot
        if hi > maxpot:
            maxpot = hi
        for p in range(3):
            if srow[S_PASS10 + p] == D and hi > PASS_MULT[p] * unit:
                srow[S_PASS10 + p] = j
        if (j + 1) % stride == 0 or j == D - 1:
            fanrow[j // stride] = stake
        srow[S_BOURRE + popcount(np.uint64(rec[REC_BOURRE]))] += 1
        srow[S_ACTIVE + rec[REC_NACTIVE]] += 1
        srow[S_OUT + rec[REC_OUTCOME]] += 1
        act = rec[REC_ACTIVE]
        for s in range(players):
            if (act >> s) & 1:
                srow[S_SPLAY + s] += 1
            if rec[REC_POT_WON + s] > 0:
                srow[S_SWIN + s] += 1
            if (rec[REC_BOURRE] >> s) & 1:
                srow[S_SBOU + s] += 1
        # exemptions and who contests the next deal (rules 2, 13)
        exempt, inmask = next_deal(players, rec, rules)
    srow[S_MAXPOT] = maxpot
    srow[S_ENDPOT] = pot
    tot = pot
    for s in range(players):
        srow[S_NET + s] = nets[s]
        tot += nets[s]
    if srow[S_OVF] == 0 and tot != 0:
        srow[S_CONS] = 1
    return srow[S_OVF] == 0


@njit(cache=True, nogil=True, parallel=True)
def sim_sessions(key_deal, key_dec, first, ns, players, D, stride, rules, hcodes, hparams, evt, srows, fans):
    """Sessions first..first+ns-1; fills srows[ns, S_LEN] and fans[ns, nfan].  ``evt`` the ev tables (seat s's
    row s; None when no seat is ev: the kernel compiles without ev)."""
    refuse_ev_without_table(hcodes, evt)
    CH = 8
    nch = (ns + CH - 1) // CH
    for ch in prange(nch):
        hands, pool, sd, st, nets, uw, iw, rec, evrow = session_scratch()
        recs = rec.reshape((1, REC_LEN))
        for i in range(ch * CH, min(ns, (ch + 1) * CH)):
            play_session(key_deal, key_dec, first + i, players, D, rules, hcodes, hparams, evt, evrow, recs, False,
                         srows[i], fans[i], stride, hands, pool, sd, st, nets, uw, iw)


@njit(cache=True, nogil=True)
def trace_sessions(key_deal, key_dec, first, ns, players, D, rules, hcodes, hparams, evt, pimc=None, xo=None):
    """The deal records of sessions first..first+ns-1 exactly as ``sim_sessions`` plays
    them: int64[ns, D, REC_LEN] (deals after an overflow stay zero) and the summary rows.  ``evt`` as
    ``sim_sessions``'s.  ``pimc`` True when a seat is the sampling player; None (omitted): none is, and the
    kernel is compiled without it.  ``xo`` (``trace --explain``, with ``pimc``): int64[ns, D, X_ROWS, X_LEN]
    zeros, filled with the sampling player's reasons at each of its decisions (kernels/explain.py; the rows of
    a deal: kernels/bourre/pimc.py ``X_DRAW_ROW``); None (omitted): compiled without them."""
    refuse_ev_without_table(hcodes, evt)
    if pimc is None:
        refuse_pimc_seats(hcodes)
    out = np.zeros((ns, D, REC_LEN), np.int64)
    srows = np.zeros((ns, S_LEN), np.int64)
    fan = np.zeros(D, np.int64)
    hands = np.zeros(MAXP, np.uint64)
    pool = np.zeros(52, np.int64)
    sd = np.zeros(1, np.uint64)
    st = np.zeros(1, np.uint64)
    nets = np.zeros(MAXP, np.int64)
    uw = np.zeros(UW_LEN, np.uint64)
    iw = np.zeros(IW_LEN, np.int64)
    evrow = np.arange(MAXP)
    for i in range(ns):
        if xo is None:
            play_session(key_deal, key_dec, first + i, players, D, rules, hcodes, hparams, evt, evrow, out[i], True,
                         srows[i], fan, 1, hands, pool, sd, st, nets, uw, iw, pimc)
        else:
            play_session(key_deal, key_dec, first + i, players, D, rules, hcodes, hparams, evt, evrow, out[i], True,
                         srows[i], fan, 1, hands, pool, sd, st, nets, uw, iw, pimc, xo[i])
    return out, srows


# ---- reduction of a block of sessions into the study's int64 vector ---------
NB = 497                          # pot bins: exact 0..31, then 8 per octave up to 2**62; 496 = overflow
BIN_OVF = NB - 1
DOWN_MULT = np.array([10, 100, 1000, 10000, 1000000], np.int64)


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def pot_bin(p):
    if p < 32:
        return p if p > 0 else 0
    h = highest(np.uint64(p))
    return 32 + (h - 5) * 8 + ((p >> (h - 3)) & 7)


# ---- the pot study's count vector (``reduce_sessions``) ----------------------
# Its fields, in this order (``pot_layout``: their lengths depend on the study's fan points and deals): the pot
# contested at each fan point (log bins), the largest pot of a session, the pot at its end, the first passage of
# 10x/100x/1000x the ante (per deal 0..D, D = never), the deals with 0..8 bourre players and 0..8 active players,
# the outcomes, ``misc`` and per seat ``seat`` (below), then per seat the histograms of its session net (down, up).
POT_FIELDS = ("fan", "max", "endpot", "pass", "bourre", "active", "out", "misc", "seat", "neth")
PO_FAN, PO_MAX, PO_END, PO_PASS, PO_BOU, PO_ACT, PO_OUT, PO_MISC, PO_SEAT, PO_NETH = range(len(POT_FIELDS))
MISC = Layout(("sessions", 1), ("overflowed", 1), ("violations", 1), ("deals", 1), ("sum_overflow_deal", 1),
              ("ok_sessions", 1))
MI_SESSIONS, MI_OVERFLOWED, MI_VIOLATIONS, MI_DEALS, MI_OVF_DEAL, MI_OK = MISC.offsets()
# per seat, over the finished sessions: its net (high and low 32 bits), sessions down more than 10/100/1000/10^4/
# 10^6 antes, deals won, deals bourre, deals played
SEAT = Layout(("net_hi", 1), ("net_lo", 1), ("down", 5), ("wins", 1), ("bourres", 1), ("played", 1))
SE_NET_HI, SE_NET_LO, SE_DOWN, SE_WINS, SE_BOURRES, SE_PLAYED = SEAT.offsets()
SEAT_LEN = SEAT.size


def pot_layout(n_fan: int, deals: int) -> Layout:
    """The pot study's count vector for ``n_fan`` fan points and sessions of ``deals`` deals (POT_FIELDS)."""
    return Layout(("fan", (n_fan, NB)), ("max", NB), ("endpot", NB), ("pass", (3, deals + 1)), ("bourre", 9),
                  ("active", 9), ("out", 4), ("misc", MISC.size), ("seat", (MAXP, SEAT_LEN)), ("neth", (MAXP, 2, NB)))


@njit(cache=True, nogil=True)
def reduce_sessions(srows, fans, players, D, off, length, unit):
    """A block of sessions (``srows`` their summary rows, ``fans`` their fan points) as the pot study's count
    vector: ``off`` (int64[len(POT_FIELDS)]) the offsets of ``pot_layout``'s fields, ``length`` its size."""
    o_fan, o_max, o_end, o_pass, o_bou = off[PO_FAN], off[PO_MAX], off[PO_END], off[PO_PASS], off[PO_BOU]
    o_act, o_out, o_misc, o_seat, o_neth = off[PO_ACT], off[PO_OUT], off[PO_MISC], off[PO_SEAT], off[PO_NETH]
    out = np.zeros(length, np.int64)
    ns = srows.shape[0]
    nfan = fans.shape[1]
    for i in range(ns):
        r = srows[i]
        ovf = r[S_OVF] != 0
        for f in range(nfan):
            v = fans[i, f]
            b = BIN_OVF if v < 0 else pot_bin(v)
            out[o_fan + f * NB + b] += 1
        out[o_max + (BIN_OVF if ovf else pot_bin(r[S_MAXPOT]))] += 1
        out[o_end + (BIN_OVF if ovf else pot_bin(r[S_ENDPOT]))] += 1
        for p in range(3):
            out[o_pass + p * (D + 1) + r[S_PASS10 + p]] += 1
        for q in range(9):
            out[o_bou + q] += r[S_BOURRE + q]
            out[o_act + q] += r[S_ACTIVE + q]
        for q in range(4):
            out[o_out + q] += r[S_OUT + q]
        out[o_misc + MI_SESSIONS] += 1
        out[o_misc + MI_DEALS] += r[S_DEALS]
        if ovf:
            out[o_misc + MI_OVERFLOWED] += 1
            out[o_misc + MI_OVF_DEAL] += r[S_OVF_DEAL]
            continue
        out[o_misc + MI_OK] += 1
        out[o_misc + MI_VIOLATIONS] += r[S_CONS]
        for s in range(players):
            x = r[S_NET + s]
            so = o_seat + SEAT_LEN * s
            out[so + SE_NET_HI] += x >> 32
            out[so + SE_NET_LO] += x & 0xFFFFFFFF
            for p in range(5):
                if x < -DOWN_MULT[p] * unit:
                    out[so + SE_DOWN + p] += 1
            out[so + SE_WINS] += r[S_SWIN + s]
            out[so + SE_BOURRES] += r[S_SBOU + s]
            out[so + SE_PLAYED] += r[S_SPLAY + s]
            if x < 0:
                out[o_neth + (2 * s) * NB + pot_bin(-x)] += 1
            else:
                out[o_neth + (2 * s + 1) * NB + pot_bin(x)] += 1
    return out
