"""Bourre ev training (analysis/bourre/ev.py): one iteration of the fictitious play that computes the
expected-value player's table."""
import numpy as np
from numba import njit, prange

from ..cards import U0
from ..layout import Layout
from ..rng import below, seed_state
from .draw import deal_fresh
from .play import next_deal, play_dealt, post_antes, refuse_ev_without_table
from .players import (EV_CELLS, EV_DEC, EV_PLAYED, EV_SAMP, EV_STATS, EV_WIN, P_DRAW, choose_ante, decide, ev_cell,
                      ev_discard, ev_kept_class)
from .rules import (IW_LEN, MAXP, NO_SEAT, OUT_LONE, OUT_TIE, OUT_WIN, OVF, R_ANTE, R_DEALER_SETS_ANTE, R_DOUBLE_ANTE,
                    R_TRUMP_CARD, REC_BOURRE, REC_DEAL, REC_DEALER, REC_DEC, REC_LEN, REC_LONO, REC_NDEC, REC_OUTCOME,
                    REC_POT_AFTER, REC_TIED, REC_TRUMP, REC_WINNER, TRUMP_SEPARATE, UW_LEN, bitc, max_discard)
from ..tally import sum_rows

# ============================================================================
# ev training (analysis/bourre/ev.py): one iteration of the fictitious play
# ============================================================================
# ``sim_ev_train``'s int64 vector: per cell its EV_STATS counts, then the decisions met and those the previous
# players make otherwise
EV_TRAIN = Layout(("cells", (EV_CELLS, EV_STATS)), ("decisions", 1), ("changed", 1))
ET_CELLS, ET_DECISIONS, ET_CHANGED = EV_TRAIN.offsets()
EV_TRAIN_LEN = EV_TRAIN.size


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def ev_outcome(rec, s):
    """What playing brought seat s (who played): 0 won (a lone win too), 1 tied, 2 bourre,
    3 lost with tricks."""
    oc = rec[REC_OUTCOME]
    if (oc == OUT_WIN or oc == OUT_LONE) and rec[REC_WINNER] == s:
        return 0
    if oc == OUT_TIE and (rec[REC_TIED] >> s) & 1:
        return 1
    if (rec[REC_BOURRE] >> s) & 1:
        return 2
    return 3


@njit(cache=True, nogil=True, _nrt=False)
def _train_sessions(acc, i0, i1, key_deal, key_dec, key_x, first, players, D, rules, hcodes, hparams, evt, pevt, sep,
                    limit, allm, hands, h0, pool, p0, sd, st, sx, uw, iw, rec, rec2, cells, nbs, discs, evrow):
    """Sessions first+i0 .. first+i1-1 of ``sim_ev_train`` counted into ``acc`` (one chunk; its own function, not
    the prange body, so that numba types and compiles the deal loop once rather than again in the parallel
    kernel's outlined body)."""
    for i in range(i0, i1):
        sess = first + i
        seed_state(sd, key_deal, sess)
        ks_deal = sd[0]
        seed_state(st, key_dec, sess)
        ks_dec = st[0]
        seed_state(sx, key_x, sess)
        ks_x = sx[0]
        inmask = allm
        exempt = np.int64(0)
        pot = np.int64(0)
        ante = rules[R_ANTE]
        for j in range(D):
            seed_state(sd, ks_deal, j)
            seed_state(st, ks_dec, j)
            seed_state(sx, ks_x, j)
            dealer = j % players
            while not (inmask >> dealer) & 1:
                dealer = (dealer + 1) % players
            rec[REC_DEALER] = dealer
            rec2[REC_DEALER] = dealer
            amt = ante
            if rules[R_DEALER_SETS_ANTE] != 0 and j > 0:
                amt = choose_ante(hcodes[dealer], hparams, dealer, ante, st)
            tot = post_antes(players, inmask, exempt, dealer, amt, rules, rec)
            if tot > OVF - pot:
                break
            pot += tot
            upcard, m = deal_fresh(sd, players, dealer, inmask, hands, pool, rules, iw)
            for s in range(MAXP):
                h0[s] = hands[s]
            for q in range(m):
                p0[q] = pool[q]
            sd0 = sd[0]
            st0 = st[0]
            if not play_dealt(sd, st, players, dealer, inmask, pot, upcard, m, amt, rules, hcodes, hparams, evt, evrow,
                              hands, pool, rec, NO_SEAT, NO_SEAT, U0, uw, iw):
                break
            # the decisions as play_dealt met them (declaration order, dealt hands)
            k = rec[REC_NDEC]
            trump = rec[REC_TRUMP]
            lono = rec[REC_LONO] != 0
            ko = bitc(upcard) if sep else U0
            table_ante = max(1, amt) * players
            a2 = amt if rules[R_DOUBLE_ANTE] != 0 else 0
            ace_up = not sep and (upcard & 15) == 12
            nb = 0
            for q in range(k):
                s = rec[REC_DEC + 4 * q]
                pl = rec[REC_DEC + 4 * q + 1] != 0
                cells[q] = -1
                is_dealer = s == dealer
                if not (is_dealer and (lono or ace_up or nb == 0)):
                    h = np.uint64(rec[REC_DEAL + s])
                    potq = pot + a2 * nb
                    cur, disc = decide(hcodes[s], hparams, s, evt, s, h, trump, upcard, is_dealer, lono, limit, ko, q,
                                       k, nb, potq, table_ante, amt, rules, st)
                    c = ev_cell(ev_kept_class(h & ~disc, trump, lono), q, k, nb, potq, table_ante)
                    cells[q] = c
                    discs[q] = disc
                    nbs[q] = nb
                    acc[ET_CELLS + c * EV_STATS + EV_DEC] += 1
                    if pl:
                        acc[ET_CELLS + c * EV_STATS + EV_PLAYED] += 1
                    prev, pdisc = decide(hcodes[s], hparams, s, pevt, s, h, trump, upcard, is_dealer, lono, limit, ko,
                                         q, k, nb, potq, table_ante, amt, rules, st)
                    acc[ET_DECISIONS] += 1
                    if prev != pl or (pl and pdisc != disc):
                        acc[ET_CHANGED] += 1
                if pl:
                    nb += 1
            q = below(sx, k)
            if cells[q] >= 0:
                s = rec[REC_DEC + 4 * q]
                h = np.uint64(rec[REC_DEAL + s])
                potq = pot + a2 * nbs[q]
                for ps in range(2):
                    dsel = discs[q]          # 0: its own discard
                    if ps == 1:              # 1: explore a draw count drawn uniformly (if not its own)
                        if hparams[s, P_DRAW] < 0.5:
                            break
                        dsel = ev_discard(h, trump, upcard, s == dealer, lono, below(sx, limit + 1))
                        if dsel == discs[q]:
                            break
                    c = ev_cell(ev_kept_class(h & ~dsel, trump, lono), q, k, nbs[q], potq, table_ante)
                    o = -1
                    if rec[REC_DEC + 4 * q + 1] != 0 and dsel == discs[q]:
                        o = ev_outcome(rec, s)
                    else:            # replayed from the same cards, stock and decision stream
                        for t in range(MAXP):
                            hands[t] = h0[t]
                        for t in range(m):
                            pool[t] = p0[t]
                        sd[0] = sd0
                        st[0] = st0
                        if play_dealt(sd, st, players, dealer, inmask, pot, upcard, m, amt, rules, hcodes, hparams, evt,
                                      evrow, hands, pool, rec2, s, np.int64(1), dsel, uw, iw):
                            o = ev_outcome(rec2, s)
                    if o >= 0:
                        acc[ET_CELLS + c * EV_STATS + EV_SAMP] += 1
                        if o < 3:
                            acc[ET_CELLS + c * EV_STATS + EV_WIN + o] += 1
            pot = rec[REC_POT_AFTER]
            exempt, inmask = next_deal(players, rec, rules)


@njit(cache=True, nogil=True, parallel=True)
def sim_ev_train(key_deal, key_dec, key_x, first, ns, players, D, rules, hcodes, hparams, evt, pevt):
    """Sessions first..first+ns-1 of D deals (as ``play_session`` plays them: antes, the
    pot carried on) played by ``hcodes``/``hparams`` (ev seat s with row s of the ev tables ``evt``).  In every deal each real play/pass
    decision (not the dealer's forced ones) is counted in its class (EV_DEC, EV_PLAYED), and
    whether the previous players (the same seats with the previous tables ``pevt``) would have decided otherwise (play
    or pass, or the discard of a play); one decision point drawn on the stream ``key_x`` is
    sampled twice: the outcome of playing with its own discard, and (``draw`` = 1) of playing
    with a draw count drawn uniformly (same stream) from those the rules allow, keeping its
    strongest cards (``ev_discard``), when that is another discard; each the real outcome if
    that is what the seat did, else the deal replayed from the same cards, stock and decision
    stream with that seat playing that discard (the counterfactual, as the odds study plays a
    choice); counted in the class of (kept cards, ...).  Returns int64[EV_TRAIN_LEN]
    (the fields of ``EV_TRAIN``); the chunks of sessions (at most 32, their sizes from ns alone) make it the same
    on any thread count."""
    refuse_ev_without_table(hcodes, evt)
    CH = max(8, (ns + 31) // 32)
    nch = (ns + CH - 1) // CH
    width = EV_TRAIN_LEN
    part = np.zeros((nch, width), np.int64)
    sep = rules[R_TRUMP_CARD] == TRUMP_SEPARATE
    limit = max_discard(players, rules)
    allm = (1 << players) - 1
    for ch in prange(nch):
        hands = np.zeros(MAXP, np.uint64)
        h0 = np.zeros(MAXP, np.uint64)
        pool = np.zeros(52, np.int64)
        p0 = np.zeros(52, np.int64)
        sd = np.zeros(1, np.uint64)
        st = np.zeros(1, np.uint64)
        sx = np.zeros(1, np.uint64)
        uw = np.zeros(UW_LEN, np.uint64)
        iw = np.zeros(IW_LEN, np.int64)
        rec = np.zeros(REC_LEN, np.int64)
        rec2 = np.zeros(REC_LEN, np.int64)
        cells = np.zeros(MAXP, np.int64)
        nbs = np.zeros(MAXP, np.int64)
        discs = np.zeros(MAXP, np.uint64)
        evrow = np.arange(MAXP)
        _train_sessions(part[ch], ch * CH, min(ns, (ch + 1) * CH), key_deal, key_dec, key_x, first, players, D, rules,
                        hcodes, hparams, evt, pevt, sep, limit, allm, hands, h0, pool, p0, sd, st, sx, uw, iw, rec,
                        rec2, cells, nbs, discs, evrow)
    return sum_rows(part)
