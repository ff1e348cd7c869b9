"""Bourre pot tails (analysis/bourre/tail.py): the tail law P' = A.P + B between two wins (``sim_tail``) and
rare tails by multilevel splitting over sessions (``split_sessions``)."""
import numpy as np
from numba import njit, prange

from ..cards import popcount
from ..layout import Layout
from ..rng import seed_state
from .play import next_deal, refuse_ev_without_table
from .rules import (MAXP, OUT_CARRY, OUT_TIE, OVF, R_ANTE, R_PENALTY, R_TIE, REC_BOURRE, REC_OUTCOME, REC_POT_AFTER,
                    REC_POT_STAKE, TIE_DIVIDE)
from .sessions import NB, pot_bin, session_deal, session_scratch, session_start
from ..tally import sum_rows

# ============================================================================
# the tail law (analysis/bourre/tail.py): P' = A.P + B between two wins
# ============================================================================
# per deal: A = the pot-sized bourre payments (penalty = the pot) plus 1 when the pot stays in
# the middle (a carried tie, everyone passed with all_pass = carry_over); B = P' - A.P, P the
# pot carried into the deal and P' the pot after it (B = A x the antes without a pot limit).
TAIL_NA = 10                       # A = 0..9
TAIL_A_GROWS = 2                   # A >= 2: the pot grows (A = 0: it is won; A = 1: it stays, plus B)
TAIL_NBB = 258                     # B = 0..256 exactly; 257 = anything else (negative or larger)
TAIL_BANDS = np.array([0, 10, 100], np.int64)     # pot carried in, in antes: [0,10), [10,100), 100+
TAIL_NBAND = 3


# ``sim_tail``'s int64 vector: joint (A, B) counts; per pot band the A counts; per band and then for every deal
# the sums over sessions of c_a c_b (c = one session's A counts there); the log-binned histogram (NB bins) of the
# pot after every deal; sessions, overflowed sessions
TAIL = Layout(("ab", (TAIL_NA, TAIL_NBB)), ("band", (TAIL_NBAND, TAIL_NA)),
              ("cross", (TAIL_NBAND + 1, TAIL_NA, TAIL_NA)), ("hist", NB), ("sessions", 1), ("overflowed", 1))
TAIL_O_AB, TAIL_O_BAND, TAIL_O_CROSS, TAIL_O_HIST, TAIL_O_SESSIONS, TAIL_O_OVERFLOWED = TAIL.offsets()
TAIL_LEN = TAIL.size


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def tail_a(rec, rules):
    """A of a settled deal (see above)."""
    oc = rec[REC_OUTCOME]
    a = 0
    if oc == OUT_CARRY or (oc == OUT_TIE and rules[R_TIE] != TIE_DIVIDE):
        a = 1
    if rules[R_PENALTY] < 0:
        a += popcount(np.uint64(rec[REC_BOURRE]))
    return a


@njit(cache=True, nogil=True, parallel=True)
def sim_tail(key_deal, key_dec, first, ns, players, D, rules, hcodes, hparams, evt):
    """Sessions first..first+ns-1 exactly as ``sim_sessions`` plays them (``session_deal``);
    per deal the pair (A, B) and the pot after it.  Returns int64[TAIL_LEN], the fields of ``TAIL``."""
    refuse_ev_without_table(hcodes, evt)
    o_ab, o_band, o_cross, o_hist, length = TAIL_O_AB, TAIL_O_BAND, TAIL_O_CROSS, TAIL_O_HIST, TAIL_LEN
    o_sess, o_ovf = TAIL_O_SESSIONS, TAIL_O_OVERFLOWED
    CH = 8
    nch = (ns + CH - 1) // CH
    part = np.zeros((nch, length), np.int64)
    unit = max(rules[R_ANTE], 1)
    for ch in prange(nch):
        hands, pool, sd, st, nets, uw, iw, rec, evrow = session_scratch()
        c = np.zeros((TAIL_NBAND, TAIL_NA), np.int64)
        acc = part[ch]
        for i in range(ch * CH, min(ns, (ch + 1) * CH)):
            sess = first + i
            ks_deal, ks_dec, pot, inmask, exempt = session_start(key_deal, key_dec, sess, players, sd, st, nets)
            for b in range(TAIL_NBAND):
                for a in range(TAIL_NA):
                    c[b, a] = 0
            acc[o_sess] += 1
            for j in range(D):
                if not session_deal(ks_deal, ks_dec, sess, j, players, pot, inmask, exempt, rules, hcodes, hparams, evt,
                                    evrow, rec, hands, pool, sd, st, nets, uw, iw):
                    acc[o_ovf] += 1
                    break
                after = rec[REC_POT_AFTER]
                a = tail_a(rec, rules)
                bnd = 0
                for q in range(1, TAIL_NBAND):
                    if pot >= TAIL_BANDS[q] * unit:
                        bnd = q
                c[bnd, a] += 1
                b = TAIL_NBB - 1
                if pot == 0 or a <= (OVF - 1) // pot:
                    x = after - a * pot
                    if 0 <= x < TAIL_NBB - 1:
                        b = x
                acc[o_ab + a * TAIL_NBB + b] += 1
                acc[o_hist + pot_bin(after)] += 1
                pot = after
                exempt, inmask = next_deal(players, rec, rules)
            for bd in range(TAIL_NBAND + 1):
                for a in range(TAIL_NA):
                    ca = c[bd, a] if bd < TAIL_NBAND else c[:, a].sum()
                    if bd < TAIL_NBAND:
                        acc[o_band + bd * TAIL_NA + a] += ca
                    for a2 in range(TAIL_NA):
                        cb = c[bd, a2] if bd < TAIL_NBAND else c[:, a2].sum()
                        acc[o_cross + (bd * TAIL_NA + a) * TAIL_NA + a2] += ca * cb
    return sum_rows(part)


# ============================================================================
# rare tails: multilevel splitting over sessions (analysis/bourre/tail.py)
# ============================================================================
SPLIT_TAG = np.int64(1 << 40)      # stream index namespace of the copies (deal indices are < 2**31)
(SP_DEALS, SP_PARTICLES, SP_VIOL, SP_CAPPED) = range(4)
SP_LEN = 4


@njit(cache=True, nogil=True, parallel=True)
def split_sessions(key_deal, key_dec, first, ns, players, D, rules, hcodes, hparams, evt, levels, R, max_particles, Y,
                   ovw, cnt):
    """Multilevel splitting of the root sessions first..first+ns-1 (each played as in
    ``sim_sessions`` until it splits).  ``levels`` int64[L] increasing chip thresholds: a
    copy whose pot (the larger of the pot contested and the pot after a deal, as the pot
    study's first passages) first passes one or more new levels after deal j, the highest of them
    level l, is split into ``R[l]`` copies (int64[L], 1 = no split) of weight w/R[l] that continue from the saved state (pot, seat nets, deal
    index, who antes, who is in): copy 0 on its own streams, copy c >= 1 on the streams
    ``seed_state(seed_state(k, SPLIT_TAG + level), c)`` of its parent's keys k (deal and
    decision), so every copy is a pure function of (seed, root session, its path of (level,
    copy)).  A copy is split at most once per level; no split once a root has
    ``max_particles`` copies (unbiased either way: the decision depends on the past only).
    Fills per root: Y float64[ns, L] the summed weight of the copies passing each level (an
    unbiased estimate of P(the pot passes levels[i] within D deals); an overflow passes every
    level), ovw float64[ns] the weight that overflowed, cnt int64[ns, SP_LEN] deals played,
    copies, chip-conservation violations, splits refused by the cap.  With every R[l] = 1 the
    roots are exactly ``sim_sessions``'s sessions."""
    refuse_ev_without_table(hcodes, evt)
    L = levels.shape[0]
    smax = 1
    for q in range(L):
        smax += R[q] - 1
    for i in prange(ns):
        hands, pool, sd, st, nets, uw, iw, rec, evrow = session_scratch()
        tk = np.zeros(1, np.uint64)
        s_st = np.zeros((smax, 5), np.int64)        # pot, deal index, exempt, inmask, levels passed
        s_nets = np.zeros((smax, MAXP), np.int64)
        s_key = np.zeros((smax, 2), np.uint64)
        s_w = np.zeros(smax, np.float64)
        sess = first + i
        for q in range(L):
            Y[i, q] = 0.0
        ovw[i] = 0.0
        for q in range(SP_LEN):
            cnt[i, q] = 0
        s_key[0, 0], s_key[0, 1], s_st[0, 0], s_st[0, 3], s_st[0, 2] = session_start(key_deal, key_dec, sess,
                                                                                      players, sd, st, nets)
        s_st[0, 1] = 0
        s_st[0, 4] = 0
        s_w[0] = 1.0
        sp = 1
        cnt[i, SP_PARTICLES] = 1
        while sp > 0:
            sp -= 1
            pot = s_st[sp, 0]
            j = s_st[sp, 1]
            exempt = s_st[sp, 2]
            inmask = s_st[sp, 3]
            lev = s_st[sp, 4]
            kd = s_key[sp, 0]
            kc = s_key[sp, 1]
            w = s_w[sp]
            for s in range(MAXP):
                nets[s] = s_nets[sp, s]
            ovf = False
            while j < D:
                cnt[i, SP_DEALS] += 1
                if not session_deal(kd, kc, sess, j, players, pot, inmask, exempt, rules, hcodes, hparams, evt, evrow,
                                    rec, hands, pool, sd, st, nets, uw, iw):
                    ovf = True
                    ovw[i] += w
                    for q in range(lev, L):
                        Y[i, q] += w
                    break
                stake = rec[REC_POT_STAKE]
                pot = rec[REC_POT_AFTER]
                hi = stake if stake > pot else pot
                exempt, inmask = next_deal(players, rec, rules)
                j += 1
                nl = lev
                while nl < L and hi > levels[nl]:
                    Y[i, nl] += w
                    nl += 1
                if nl > lev:
                    lev = nl
                    r = R[nl - 1]
                    if r > 1 and j < D:
                        if cnt[i, SP_PARTICLES] + r - 1 > max_particles:
                            cnt[i, SP_CAPPED] += 1
                        else:
                            w = w / r
                            for c in range(1, r):
                                seed_state(tk, kd, SPLIT_TAG + lev)
                                seed_state(tk, tk[0], c)
                                s_key[sp, 0] = tk[0]
                                seed_state(tk, kc, SPLIT_TAG + lev)
                                seed_state(tk, tk[0], c)
                                s_key[sp, 1] = tk[0]
                                s_st[sp, 0] = pot
                                s_st[sp, 1] = j
                                s_st[sp, 2] = exempt
                                s_st[sp, 3] = inmask
                                s_st[sp, 4] = lev
                                s_w[sp] = w
                                for s in range(MAXP):
                                    s_nets[sp, s] = nets[s]
                                sp += 1
                            cnt[i, SP_PARTICLES] += r - 1
            if not ovf:
                tot = pot
                for s in range(players):
                    tot += nets[s]
                if tot != 0:
                    cnt[i, SP_VIOL] += 1
