"""Boulmous odds of one hand deal by deal, open-hand and under the heuristics (``tricksim odds boulmous
--play``): ``sim_odds_open``, ``sim_odds_tricks``, and the hand classes likewise (``sim_classes_play``)."""
import numpy as np
from numba import njit, prange

from ..rng import seed_state
from .odds import hand_class
from .play import HEURISTIC_TRUMP, NOBODY, _rest_of, deal_random, deal_rest, i64, no_game, play_deal
from .rules import NT, R_LEFT_BOWER_TRUMP, REC_LEN, REC_TRUMP, REC_WON
from .solver import CHUNK, TT_BITS, _workspace, solve


@njit(cache=True, nogil=True, parallel=True)
def sim_odds_open(key_deal, first, n, fixed, seat, rules, out):
    """Open-hand odds of one hand (issue 12 item 4): deal ``first + i`` of the other 18 cards,
    dealt exactly as kernels/boulmous/odds.sim_odds deals it (``seed_state(key_deal, idx)`` then
    ``deal_with_fixed``: the same cards in every seat), with ``seat`` holding ``fixed`` as the
    taker of a forced contract in each trump 0..4, leading the first trick (rule 10, as
    ``play_tricks`` does). Writes ``out[i, t]`` (int64[n, 5]) = the taker's tricks under
    open-hand play (every seat sees every card and plays perfectly, ``solve``)."""
    rest0 = _rest_of(fixed)
    nch = (n + CHUNK - 1) // CHUNK
    for ch in prange(nch):
        ws = _workspace(TT_BITS)
        sd = np.zeros(1, np.uint64)
        rest = np.zeros(18, np.int64)
        hands = np.zeros(4, np.uint64)
        trick = np.zeros(4, np.int64)
        for i in range(ch * CHUNK, min(n, (ch + 1) * CHUNK)):
            deal_rest(sd, key_deal, first + i, rest, rest0, fixed, seat, hands)
            for t in range(5):
                out[i, t] = solve(hands, seat, trick, np.int64(0), np.int64(t), seat, rules, ws)


@njit(cache=True, nogil=True, parallel=True)
def sim_odds_tricks(key_deal, key_dec, first, n, fixed, seat, dealer, rules, hcodes, hparams, out):
    """The heuristics' side of ``sim_odds_open``, deal by deal: ``out[i, t]`` = the taker's tricks
    in deal ``first + i`` with trump ``t`` played by the heuristics exactly as
    kernels/boulmous/odds.sim_odds plays it (same deal, same ``seed_state(key_dec, idx)`` before each
    trump), so summing ``out`` into a histogram gives sim_odds's counts ``[0:35]``."""
    lb = rules[R_LEFT_BOWER_TRUMP]
    rest0 = _rest_of(fixed)
    nch = (n + CHUNK - 1) // CHUNK
    for ch in prange(nch):
        st = np.zeros(1, np.uint64)
        sd = np.zeros(1, np.uint64)
        rest = np.zeros(18, np.int64)
        hands = np.zeros(4, np.uint64)
        work = np.zeros(4, np.uint64)
        rec = np.zeros(REC_LEN, np.int64)
        nogame = no_game()
        for i in range(ch * CHUNK, min(n, (ch + 1) * CHUNK)):
            idx = first + i
            deal_rest(sd, key_deal, idx, rest, rest0, fixed, seat, hands)
            for t in range(5):
                seed_state(st, key_dec, idx)
                play_deal(hands, work, dealer, seat, i64(3), i64(t), i64(NOBODY), rules, hcodes, hparams, st, lb, rec,
                          nogame)
                out[i, t] = rec[REC_WON + seat]


@njit(cache=True, nogil=True, parallel=True)
def sim_classes_play(key_deal, key_dec, first, n, rules, hcodes, hparams, with_open, out):
    """The hand-class study deal by deal (kernels/boulmous/odds.sim_classes: the same deal and decisions): the first
    to speak (seat 0, dealer 3) takes bid 3 in the trump its heuristic prefers. ``out[i]`` (int64[n, 3]) = (its
    hand class ``(ntrumps * 3 + bowers) * 5 + side aces``, -1 when it chose no-trump; its tricks under the
    heuristics; its tricks under open-hand play with the same trump, on lead, if ``with_open``, else -1)."""
    lb = rules[R_LEFT_BOWER_TRUMP]
    nch = (n + CHUNK - 1) // CHUNK
    for ch in prange(nch):
        ws = _workspace(TT_BITS)
        st = np.zeros(1, np.uint64)
        sd = np.zeros(1, np.uint64)
        deck = np.zeros(24, np.int64)
        hands = np.zeros(4, np.uint64)
        work = np.zeros(4, np.uint64)
        trick = np.zeros(4, np.int64)
        rec = np.zeros(REC_LEN, np.int64)
        nogame = no_game()
        for i in range(ch * CHUNK, min(n, (ch + 1) * CHUNK)):
            idx = first + i
            seed_state(sd, key_deal, idx)
            seed_state(st, key_dec, idx)
            deal_random(sd, deck, hands)
            play_deal(hands, work, i64(3), i64(0), i64(3), i64(HEURISTIC_TRUMP), i64(NOBODY), rules, hcodes, hparams, st, lb, rec,
                      nogame)
            t = rec[REC_TRUMP]
            out[i, 1] = rec[REC_WON]
            out[i, 2] = -1
            if t == NT:
                out[i, 0] = -1
                continue
            ntr, nbow, aces = hand_class(hands[0], t, lb)
            out[i, 0] = (ntr * 3 + nbow) * 5 + aces
            if with_open:
                out[i, 2] = solve(hands, np.int64(0), trick, np.int64(0), t, np.int64(0), rules, ws)
