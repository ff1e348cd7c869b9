"""Boulmous odds with the sampling player (PIMC, issue 12 item 3): the odds and class kernels whose four seats
choose their cards by ``pimc.pimc_deal``.

The kernels where sampling seats sit beside heuristic seats (``trace_deals``, ``sim_duplicate``) take the
sampling player as their optional ``pimc`` argument (kernels/boulmous/play.py ``play_deal``): one deal is
played by one function, whoever sits at the table.

Randomness: deals and heuristic decisions use the same streams as kernels/boulmous/; the PIMC decisions
use their own key ``key_pimc`` (rng.STREAM_PIMC) and a deal index (``pimc_choose`` seeds
``seed_state(seed_state(key, deal_index), cards played)``, ``pimc_calls`` the same with 24 + seat), so every
result is a pure function of the seed and the deal index, whatever the threads or blocks.
"""
import numpy as np
from numba import njit, prange

from ..rng import seed_state
from .dealing import _rest_of, deal_random, deal_rest
from .pimc import GOAL_TRICKS, pimc_deal
from .players import choose_trump
from .rules import NT, R_LEFT_BOWER_TRUMP
from .solver import TT_BITS, _workspace

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
