"""Boulmous with the sampling player (PIMC, issue 12 item 3): the odds, class and duplicate kernels
where some or all seats choose their cards by ``pimc.pimc_choose``.

Same contract as kernels/boulmous/ (cards, hands, ``rules``, ``hcodes``/``hparams``, ``rec``).
A seat whose code is ``H_PIMC`` plays each card by ``pimc_choose`` with ``hparams[s, P_WORLDS]`` worlds and the
race margin ``hparams[s, P_RACE]``, goal GOAL_CONTRACT (make / defeat the contract first, then the taker's
tricks). With ``hparams[s, P_BID]`` = 1 it bids and names trumps by sampling: before the auction
``pimc.pimc_calls`` computes its bid for each lowest legal bid (written into a per-deal copy of
``hparams``, columns ``P_SAMPLED_BID``.., which ``choose_bid`` reads for code ``H_PIMC``) and its best trump
for each bid; with 0 it bids and chooses trumps as ``H_CAUTIOUS`` does with its own parameters. Every other
seat plays exactly as in kernels/boulmous/play.py (``choose_card``). With no PIMC seat, ``play_deal_mixed`` plays a
deal exactly as ``play_deal`` (the tests check it).

Randomness: deals and heuristic decisions use the same streams as kernels/boulmous/; the PIMC decisions
use their own key ``key_pimc`` (rng.STREAM_PIMC) and a deal index (``pimc_choose`` seeds
``seed_state(seed_state(key, deal_index), cards played)``, ``pimc_calls`` the same with 24 + seat), so every
result is a pure function of the seed and the deal index, whatever the threads or blocks.

This module imports the sampling player (kernels/boulmous/pimc.py) and the solver; the heuristics' modules never
import either.
"""
import numpy as np
from numba import njit, prange

from tricksim.kernels.cards import U1, lowest
from tricksim.kernels.rng import seed_state

from tricksim.kernels.boulmous.rules import (
    NT, R_LEFT_BOWER_TRUMP, REC_CONTRACT, REC_DEALER, REC_HANDS, REC_LEGAL, REC_LEN, REC_NTRICKS, REC_SCORE, REC_STAKES,
    REC_TAKER, REC_TRICKS, REC_TRUMP, REC_WON, legal_mask,
)
from tricksim.kernels.boulmous.players import (
    H_CAUTIOUS, H_PIMC, N_PARAMS, P_BID, P_RACE, P_SAMPLED_BID, P_WORLDS, choose_card, choose_trump,
)
from tricksim.kernels.boulmous.play import (
    NOBODY, _rest_of, apply_card, auction, deal_random, deal_rest, i64, score_deal,
)
from tricksim.kernels.boulmous.solver import TT_BITS, _workspace
from tricksim.kernels.boulmous.pimc import GOAL_CONTRACT, GOAL_TRICKS, pimc_calls, pimc_choose, pimc_deal


PCHUNK = 4   # deals per prange step (a PIMC deal costs ~10 ms: small steps balance the threads)


@njit(cache=True, nogil=True)
def _trump_key(key, t):
    """The PIMC key of trump ``t`` (the odds play one deal per trump: independent streams)."""
    st = np.zeros(1, np.uint64)
    seed_state(st, key, np.int64(1000 + t))
    return st[0]


@njit(cache=True, nogil=True, parallel=True)
def sim_odds_pimc(key_deal, key_pimc, first, n, fixed, seat, rules, trumps, worlds, out):
    """The PIMC side of ``odds_play.sim_odds_open``: deal ``first + i`` of the other 18 cards dealt
    exactly as there (and as kernels/boulmous/odds.sim_odds), ``seat`` holding ``fixed`` as the taker of a forced
    contract in each trump t with ``trumps[t]`` != 0 (int64[5]), four PIMC seats with ``worlds`` worlds, goal
    GOAL_TRICKS. Writes ``out[i, t]`` (int64[n, 5]) = the taker's tricks, -1 for a trump not asked."""
    rest0 = _rest_of(fixed)
    keys = np.zeros(5, np.uint64)
    for t in range(5):
        keys[t] = _trump_key(key_pimc, t)
    nch = (n + PCHUNK - 1) // PCHUNK
    for ch in prange(nch):
        ws = _workspace(TT_BITS)
        sd = np.zeros(1, np.uint64)
        rest = np.zeros(18, np.int64)
        hands = np.zeros(4, np.uint64)
        h = np.zeros(4, np.uint64)
        played = np.zeros(24, np.int64)
        for i in range(ch * PCHUNK, min(n, (ch + 1) * PCHUNK)):
            idx = first + i
            deal_rest(sd, key_deal, idx, rest, rest0, fixed, seat, hands)
            for t in range(5):
                if trumps[t] == 0:
                    out[i, t] = -1
                    continue
                for s in range(4):
                    h[s] = hands[s]
                out[i, t] = pimc_deal(h, seat, np.int64(t), np.int64(3), rules, worlds, GOAL_TRICKS, keys[t], idx,
                                      ws, played, 0.0)


@njit(cache=True, nogil=True, parallel=True)
def sim_classes_pimc(key_deal, key_dec, key_pimc, first, n, rules, hcodes, hparams, worlds, out):
    """The PIMC column of the hand-class study (odds_play.sim_classes_play): deal ``first + i`` dealt as
    kernels/boulmous/odds.sim_classes, seat 0 the taker (on lead) of bid 3 in the trump its heuristic chooses (the
    same decision stream ``seed_state(key_dec, idx)``: the same trump), four PIMC seats, goal GOAL_TRICKS.
    ``out[i]`` (int64[n]) = the taker's tricks, -1 when the heuristic chose no-trump (left out of the study)."""
    lb = rules[R_LEFT_BOWER_TRUMP]
    nch = (n + PCHUNK - 1) // PCHUNK
    for ch in prange(nch):
        ws = _workspace(TT_BITS)
        sd = np.zeros(1, np.uint64)
        st = np.zeros(1, np.uint64)
        deck = np.zeros(24, np.int64)
        hands = np.zeros(4, np.uint64)
        played = np.zeros(24, np.int64)
        for i in range(ch * PCHUNK, min(n, (ch + 1) * PCHUNK)):
            idx = first + i
            seed_state(sd, key_deal, idx)
            seed_state(st, key_dec, idx)
            deal_random(sd, deck, hands)
            t = choose_trump(hcodes[0], hparams, 0, hands[0], st, lb)
            if t == NT:
                out[i] = -1
                continue
            out[i] = pimc_deal(hands, np.int64(0), t, np.int64(3), rules, worlds, GOAL_TRICKS, key_pimc, idx, ws,
                               played, 0.0)


# ============================================================================
# mixed tables: PIMC seats beside heuristic seats
# ============================================================================
@njit(cache=True, nogil=True)
def _scratch():
    """One thread's scratch for ``play_deal_mixed``: (ws, st, sd, deck, hands, work, played, hp, bcodes, sums, calls)."""
    return (_workspace(TT_BITS), np.zeros(1, np.uint64), np.zeros(1, np.uint64), np.zeros(24, np.int64),
            np.zeros(4, np.uint64), np.zeros(4, np.uint64), np.zeros(24, np.int64),
            np.zeros((4, N_PARAMS + 4), np.float64), np.zeros(4, np.int64), np.zeros((5, 5), np.int64),
            np.zeros((4, 8), np.int64))


@njit(cache=True, nogil=True)
def play_deal_mixed(hands, work, dealer, rules, hcodes, hparams, st, lb, rec, key_pimc, deal_index, ws, played, hp,
                    bcodes, sums, calls):
    """One whole deal as kernels/boulmous/play.play_deal plays it (no game around it: no end check), except that
    an ``H_PIMC`` seat bids and chooses trumps by sampling (``P_BID`` = 1: ``pimc_calls``) or as
    ``H_CAUTIOUS`` (0), and plays by ``pimc_choose``. Fills ``rec``. Scratch (``_scratch``): ``hp``
    float64[4, N_PARAMS + 4] the per-deal parameters, ``bcodes`` int64[4] the codes the auction sees, ``sums``
    int64[5, 5], ``calls`` int64[4, 8] (per seat: its bid for each lowest legal bid, its trump for each bid)."""
    for s in range(4):
        for j in range(N_PARAMS):
            hp[s, j] = hparams[s, j]
        bcodes[s] = hcodes[s]
        if hcodes[s] == H_PIMC:
            if hparams[s, P_BID] > 0.5:
                pimc_calls(np.int64(s), hands[s], rules, np.int64(hparams[s, P_WORLDS]), key_pimc, deal_index, ws,
                           sums, calls[s, 0:4], calls[s, 4:8])
                for j in range(4):
                    hp[s, P_SAMPLED_BID + j] = calls[s, j]
            else:
                bcodes[s] = H_CAUTIOUS
    rec[REC_DEALER] = dealer
    for s in range(4):
        rec[REC_HANDS + s] = np.int64(hands[s])
    taker, contract = auction(hands, dealer, rules, bcodes, hp, st, lb, rec, i64(NOBODY))
    rec[REC_TAKER] = taker
    rec[REC_CONTRACT] = contract
    if taker < 0:
        rec[REC_TRUMP] = -1
        rec[REC_NTRICKS] = 0
        for s in range(4):
            rec[REC_WON + s] = 0
        score_deal(taker, contract, 0, rules, rec)
        return
    if bcodes[taker] == H_PIMC:
        t = calls[taker, 4 + contract - 3]
    else:
        t = choose_trump(bcodes[taker], hp, taker, hands[taker], st, lb)
    rec[REC_TRUMP] = t
    h = work
    for i in range(4):
        h[i] = hands[i]
        rec[REC_WON + i] = 0
    pm = np.uint64(0)
    leader = taker
    nplay = 0
    for tr in range(6):
        base = REC_TRICKS + 6 * tr
        rec[base] = leader
        led = 0
        win_pow = -1
        win_seat = leader
        taker_played = False
        for k in range(4):
            s = (leader + k) % 4
            if tr == 5:
                lg = h[s]
                c = lowest(lg)
            else:
                lg = legal_mask(h[s], k, led, win_pow, t, rules, lb)
                if hcodes[s] == H_PIMC:
                    c = pimc_choose(s, h[s], played, nplay, taker, t, contract, rules,
                                    np.int64(hparams[s, P_WORLDS]), GOAL_CONTRACT, key_pimc, deal_index, ws,
                                    hparams[s, P_RACE])
                else:
                    c = choose_card(hcodes[s], hp, s, s, h[s], lg, k, led, win_pow, win_seat,
                                    taker_played, taker, t, pm, st, lb)
            rec[REC_LEGAL + nplay] = np.int64(lg)
            played[nplay] = c
            nplay += 1
            rec[base + 1 + k] = c
            pm |= U1 << np.uint64(c)
            led, win_pow, win_seat = apply_card(h, s, c, k, led, win_pow, win_seat, t, lb)
            if s == taker:
                taker_played = True
        rec[base + 5] = win_seat
        rec[REC_WON + win_seat] += 1
        leader = win_seat
    rec[REC_NTRICKS] = 6
    score_deal(taker, contract, 6, rules, rec)


@njit(cache=True, nogil=True, parallel=True)
def trace_mixed(key_deal, key_dec, key_pimc, first, n, rules, hcodes, hparams):
    """The records of hands first..first+n-1 as kernels/boulmous/deals.trace_deals deals and plays them (dealer
    ``idx % 4``), PIMC seats as ``play_deal_mixed`` plays them (deal index ``idx``)."""
    lb = rules[R_LEFT_BOWER_TRUMP]
    out = np.zeros((n, REC_LEN), np.int64)
    for i in prange(n):
        ws, st, sd, deck, hands, work, played, hp, bcodes, sums, calls = _scratch()
        idx = first + i
        seed_state(sd, key_deal, idx)
        seed_state(st, key_dec, idx)
        deal_random(sd, deck, hands)
        play_deal_mixed(hands, work, idx % 4, rules, hcodes, hparams, st, lb, out[i], key_pimc, idx, ws, played, hp,
                        bcodes, sums, calls)
    return out


@njit(cache=True, nogil=True, parallel=True)
def sim_duplicate_mixed(key_deal, key_dec, key_pimc, first, n, rules, seat_codes, seat_params, seat_ids, k, nround):
    """kernels/boulmous/duplicate.sim_duplicate (same layout of counts, same deals, seatings and decision streams) with
    ``play_deal_mixed``: PIMC seats play by sampling; playout j of deal idx uses the PIMC deal index
    ``idx * 4 + j``."""
    lb = rules[R_LEFT_BOWER_TRUMP]
    kk = k * k
    per_round = k + 2 * kk
    wm = nround * per_round + nround * k * k
    width = nround + 2 * wm
    nch = (n + PCHUNK - 1) // PCHUNK
    part = np.zeros((nch, width), np.int64)
    for ch in prange(nch):
        ws, st, sd, deck, hands, work, played, hp, bcodes, sums, calls = _scratch()
        rec = np.zeros(REC_LEN, np.int64)
        xp = np.zeros(k, np.int64)
        xs = np.zeros(k, np.int64)
        yp = np.zeros(k, np.int64)
        ys = np.zeros(k, np.int64)
        acc = part[ch]
        for i in range(ch * PCHUNK, min(n, (ch + 1) * PCHUNK)):
            idx = first + i
            seed_state(sd, key_deal, idx)
            deal_random(sd, deck, hands)
            dealer = idx % 4
            c = (idx // 4) % nround
            acc[c] += 1
            o0 = nround + c * per_round
            o1 = o0 + wm
            m0 = nround + nround * per_round
            m1 = m0 + wm
            xp[:] = 0
            xs[:] = 0
            for j in range(k):
                r = c * k + j
                seed_state(st, key_dec, idx)
                seed_state(st, st[0], j)
                play_deal_mixed(hands, work, dealer, rules, seat_codes[r], seat_params[r], st, lb, rec, key_pimc,
                                idx * 4 + j, ws, played, hp, bcodes, sums, calls)
                yp[:] = 0
                ys[:] = 0
                for s in range(4):
                    hh = seat_ids[r, s]
                    yp[hh] += rec[REC_SCORE + s]
                    ys[hh] += rec[REC_STAKES + s]
                for a in range(k):
                    xp[a] += yp[a]
                    xs[a] += ys[a]
                    acc[m0 + r * k + a] += yp[a]
                    acc[m1 + r * k + a] += ys[a]
                    for b in range(k):
                        acc[o0 + k + kk + a * k + b] += yp[a] * yp[b]
                        acc[o1 + k + kk + a * k + b] += ys[a] * ys[b]
            for a in range(k):
                acc[o0 + a] += xp[a]
                acc[o1 + a] += xs[a]
                for b in range(k):
                    acc[o0 + k + a * k + b] += xp[a] * xp[b]
                    acc[o1 + k + a * k + b] += xs[a] * xs[b]
    return part.sum(axis=0)
