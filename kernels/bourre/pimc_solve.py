"""The Bourre sampling player's open-hand evaluation (``eval`` = 1, kernels/bourre/pimc.py): a world's candidate
card scored by the solver (kernels/bourre/solver.py ``analyse``), and the solver's table shared across the worlds
and candidates of one card decision (``share_tt`` = 1; kernels/bourre/share.py).

**Solves shared across a decision.** With ``share_tt`` = 0 each solve starts from an empty table (a fresh
generation of the per-solve table). With ``share_tt`` = 1 the decision opens a scope of the shared table
(``open_decision``: a hash of the decision's random stream, its index in the deal, the seat, the solve's
constants and the rules) and every solve of the decision (``analyse_shared``) reads and extends it. Its keys are
whole positions (every card's holder, the leader, and what the rules let the tricks won, the A-K-Q flags and the
trumps played change), its entries bounds on their exact values, so the answers, hence the decisions, are the
same; only the nodes searched differ.
"""
import numpy as np
from numba import njit

from ..cards import U0, U1
from ..rng import mix64
from .rules import beats, bitc
from .share import W_SON, share_scope
from .solver import (POS_AKQ, POS_KNOWN, POS_LEAD, POS_LEADER, POS_LEN, POS_LONO, POS_ME, POS_N, POS_NTRICK,
                     POS_PLAYED, POS_TRICK, POS_TRUMP, POS_WON, OUT_NOT_BOURRE, OUT_TRICKS, OUT_WIN, W_BITS, W_TT,
                     analyse)

PIMC_TT_BITS = 10          # the open-hand solver's table in play_dealt's scratch (eval = paranoid)
SCOPE_SALT = np.uint64(0x243F6A8885A308D3)


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def advance(c, kpos, ls, wc, wseat, s, trump, lono):
    """The trick state (suit led, winning card, winning seat) after seat s plays c as card kpos."""
    if kpos == 0:
        return c >> 4, c, s
    if beats(c, ls, wc, trump, lono):
        return ls, c, s
    return ls, wc, wseat


@njit(cache=True, nogil=True, _nrt=False)
def analyse_shared(hands, pos, rules, ws, out):
    """``analyse`` reading and extending the shared table of the workspace's current scope (``open_decision``;
    within one scope the players, the seat solved for, the trump, Lo-No, the forced lead, the cards known out and
    the rules stay the same): the same answers. The table is on only during this call."""
    ws[W_SON] = U1
    analyse(hands, pos, rules, ws, out)
    ws[W_SON] = U0


@njit(cache=True, nogil=True, _nrt=False)
def decision_scope(key, index, seat, na, me, trump, lono, known_out, rules):
    """A scope of the shared table: a hash of a random ``key``, an ``index`` (a decision's), the seat, the solve's
    constants (the players, the seat's index among them, the trump, Lo-No, the cards known out; no forced lead
    in the card play) and every rule flag."""
    z = mix64(key ^ SCOPE_SALT ^ mix64(np.uint64(index) + np.uint64(0x9E3779B97F4A7C15)))
    z = mix64(z ^ np.uint64(seat) ^ (np.uint64(na) << np.uint64(8)) ^ (np.uint64(me) << np.uint64(16))
              ^ (np.uint64(trump + 1) << np.uint64(24)) ^ (np.uint64(1 if lono else 0) << np.uint64(32)))
    z = mix64(z ^ known_out)
    for i in range(rules.shape[0]):
        z = mix64(z ^ np.uint64(rules[i]))
    return z


@njit(cache=True, nogil=True, _nrt=False)
def open_decision(ws, key, index, seat, na, me, trump, lono, known_out, rules):
    """The scope of one card decision opened in the workspace ``ws`` (a fresh generation of its shared table unless
    the same decision's scope is already open)."""
    ws[W_BITS] = np.uint64(PIMC_TT_BITS)
    share_scope(ws, decision_scope(key, index, seat, na, me, trump, lono, known_out, rules),
                W_TT + (2 << PIMC_TT_BITS))


@njit(cache=True, nogil=True, _nrt=False)
def paranoid(hh, won, na, me, cand, lead, kpos, ls, wc, wseat, tcards, played, known_out, trump, lono, akq, rules,
             ws, pos, o, share):
    """``eval`` = paranoid: after the seat plays ``cand`` in the world ``hh`` (modified), the open-hand solver's
    answer for it against all the others together (kernels/bourre/solver.analyse): 0 it surely wins the pot,
    3 it surely takes a trick, 2 the others can keep it without one; and its guaranteed tricks. ``share``: the
    solve reads and extends the decision's shared table (``open_decision`` first)."""
    tm = U0
    for q in range(kpos):
        tm |= bitc(tcards[q])
    done = played & ~tm
    for q in range(POS_LEN):
        pos[q] = 0
    hh[me] &= ~bitc(cand)
    ls, wc, wseat = advance(cand, kpos, ls, wc, wseat, me, trump, lono)
    if kpos + 1 == na:                        # the candidate ends the trick
        won[wseat] += 1
        done |= tm | bitc(cand)
        lead = wseat
        if hh[lead] == U0:                    # the last trick: the deal is over
            return -1, 0
    else:
        for q in range(kpos):
            pos[POS_TRICK + q] = tcards[q]
        pos[POS_TRICK + kpos] = cand
        pos[POS_NTRICK] = kpos + 1
    pos[POS_N] = na
    pos[POS_ME] = me
    pos[POS_LEADER] = lead
    pos[POS_TRUMP] = trump
    pos[POS_LONO] = 1 if lono else 0
    pos[POS_LEAD] = -1
    pos[POS_AKQ] = akq
    pos[POS_PLAYED] = np.int64(done)
    pos[POS_KNOWN] = np.int64(known_out)
    for q in range(na):
        pos[POS_WON + q] = won[q]
    ws[W_BITS] = np.uint64(PIMC_TT_BITS)
    if share:
        analyse_shared(hh, pos, rules, ws, o)
    else:
        analyse(hh, pos, rules, ws, o)
    if o[OUT_WIN] != 0:
        return 0, o[OUT_TRICKS]
    return (3 if o[OUT_NOT_BOURRE] != 0 else 2), o[OUT_TRICKS]
