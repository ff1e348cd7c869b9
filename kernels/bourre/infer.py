"""The Bourre sampling player's inference (``pimc:infer=1``, issue 28): its card-play worlds conditioned on what the
declarations revealed (docs/methods/sampling.md, "Inference").

What a seat knows of another player q at its card decision: whether q played or passed, how many cards q drew (the
stock is served face down, but the count is seen), the pot and the players who had declared when q decided, and,
for the dealer, the up-card (face up: he held it before the draw; a dealer who passed or discarded it put it out).
It does not see q's discards, its drawn cards or a passer's folded hand. So a world (the hands ``S_q`` at the start
of play, kernels/bourre/pimc.py ``_sample``, consistent with the play) is completed into a history:

- for each other player who played and drew ``d_q`` cards: which ``d_q`` of ``S_q`` it drew (``R_q``, uniformly
  among its cards other than the dealer's up-card) and which ``d_q`` cards it threw (``D_q``, uniformly from the
  cards the seat cannot place: passers' hands, discards and stock; the dealer's discarded up-card is known);
- for each other player who passed: its five cards, uniformly from what is left (the dealer's up-card his).

The layout is kept (``declared_ok``) only when every other player, deciding as the model (``basic`` with the
sampling seat's own parameters, kernels/bourre/draw.py ``basic_decision_call``) from its hand before the draw
``H_q = (S_q - R_q) + D_q``, in its place of the declaration order with the pot and players declared then, makes
its actual choice: a pass where it passed; a play discarding exactly ``D_q`` where it played (so the number drawn is
the same, and the cards it kept are what it holds now less those it drew). Every complete history consistent with
the play and the declarations is then equally likely, since the proposal draws each one with the same probability
(the uniform prior of a shuffled deck given the counts); rejection keeps that.

A deal whose stock was reshuffled (rule 5: drawn cards may be discards) is not inferred. The counters (``STAT_NAMES``)
live in ``play_dealt``'s scratch ``iw`` (``stats_of``), where the sampling player adds to them.
"""
import numpy as np
from numba import njit

from ..cards import U0, nth_card, popcount
from ..rng import below
from .draw import basic_decision_call
from .players import P_INFER
from .rules import (R_DOUBLE_ANTE, REC_DEC, REC_NACTIVE, REC_NDEC, REC_NRESHUF, REC_UP_OUT, bitc, max_discard)
from .solver import N_OUT, POS_LEN

MAX_INFER_TRIES = 512     # layouts drawn per world before the decision falls back
# the counters: card decisions, those whose worlds were checked against the declarations, worlds, the worlds of
# those decisions, layouts drawn and rejected by the declaration check, worlds that fell back
S_CARDS, S_INFERRED, S_WORLDS, S_INFERRED_WORLDS, S_DRAWS, S_DECL_REJECTS, S_FALLBACKS = range(7)
STAT_NAMES = ("card_decisions", "inferred_decisions", "worlds", "inferred_worlds", "draws", "declaration_rejects",
              "fallbacks")
N_STATS = len(STAT_NAMES)
IW_STATS = 124 + POS_LEN + N_OUT          # their place in iw (kernels/bourre/rules.py IW_LEN)
UNCHECKED, FELL_BACK, CHECKED = 0, 1, 2   # the inference's state in one decision


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def stats_of(iw):
    """The counters' view of ``play_dealt``'s scratch ``iw``."""
    return iw[IW_STATS:IW_STATS + N_STATS]


@njit(cache=True, nogil=True, _nrt=False)
def infer_start(stats, hparams, me_real, rec):
    """A card decision of seat ``me_real`` begins: counted; CHECKED when it infers (``infer`` = 1) and the stock was
    not reshuffled, else UNCHECKED."""
    stats[S_CARDS] += 1
    if hparams[me_real, P_INFER] > 0.5 and rec[REC_NRESHUF] == 0:
        stats[S_INFERRED] += 1
        return CHECKED
    return UNCHECKED


@njit(cache=True, nogil=True, _nrt=False)
def world_state(stats, state, ok):
    """After a world drawn in ``state`` (``ok``: it passed the declaration check, or was not checked): counted; the
    state of the decision's next world. A CHECKED world that found no layout in MAX_INFER_TRIES is the last layout
    drawn (consistent with the play, not the declarations) and the decision goes on FELL_BACK: its later worlds are
    drawn without the check; every world of a FELL_BACK decision, that one included, counts as a fallback."""
    stats[S_WORLDS] += 1
    if state == UNCHECKED:
        return state
    stats[S_INFERRED_WORLDS] += 1
    if state == CHECKED and ok:
        return state
    stats[S_FALLBACKS] += 1
    return FELL_BACK


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def _pick(rng, avail, n):
    """``n`` cards drawn uniformly from ``avail`` (U0 when fewer than n remain, with ok False)."""
    a = popcount(avail)
    if a < n:
        return U0, False
    out = U0
    for j in range(n):
        c = nth_card(avail, below(rng, a - j))
        avail &= ~bitc(c)
        out |= bitc(c)
    return out, True


@njit(cache=True, nogil=True, _nrt=False)
def declared_ok(rng, world, by, U, na, me, idx, rec, players, dealer, trump, upcard, lono, sep, pot, ante_amt, rules,
                hparams, me_real, st, stats, pre):
    """The declaration check of one world (module docstring): ``world[q] | by[q]`` the hands at the start of play of
    the active players (indices ``idx[seat]``), ``U`` the cards the seat cannot see, ``pot`` the pot at stake
    (after the second antes). Draws the history's unseen parts from ``rng`` (``pre[seat]``: each other player's hand
    before the draw, as far as the check went) and returns whether every other player would have made its actual
    choice under the model."""
    stats[S_DRAWS] += 1
    k = rec[REC_NDEC]
    a2 = ante_amt if rules[R_DOUBLE_ANTE] != 0 else 0
    limit = max_discard(players, rules)
    table_ante = max(1, ante_amt) * players
    up = bitc(upcard)
    ko = up if sep else U0               # known out while the players declare (the dealer declares last)
    free = U                             # the cards the seat cannot place: passers', discards, stock
    for q in range(na):
        if q != me:
            free &= ~world[q]
    nplay = np.int64(0)
    pot_j = pot - a2 * rec[REC_NACTIVE]  # the pot before the second antes
    for j in range(k):
        s = rec[REC_DEC + 4 * j]
        aplay = rec[REC_DEC + 4 * j + 1] != 0
        if s != me_real:
            isd = s == dealer
            if aplay:
                d = popcount(np.uint64(rec[REC_DEC + 4 * j + 3]))     # the number of cards it drew
                S = world[idx[s]] | by[idx[s]]
                mine = up if (isd and not sep) else U0                # the up-card was dealt to the dealer
                known = up if (isd and not sep and rec[REC_UP_OUT] != 0) else U0   # he threw it, face up
                R, ok = _pick(rng, S & ~mine, d)
                D, ok2 = _pick(rng, free, d - popcount(known))
                if not (ok and ok2):
                    stats[S_DECL_REJECTS] += 1
                    return False
                free &= ~D
                H = (S & ~R) | D | known
                pre[s] = H
                play, disc = basic_decision_call(hparams, me_real, isd, H, trump, upcard, lono, sep, limit, ko, j, k,
                                                 nplay, pot_j, table_ante, ante_amt, rules, st)
                if lono and isd:
                    disc &= ~up
                if not play or disc != (D | known):
                    stats[S_DECL_REJECTS] += 1
                    return False
            else:
                fixed = up if (isd and not sep) else U0
                P, ok = _pick(rng, free, 5 - popcount(fixed))
                if not ok:
                    stats[S_DECL_REJECTS] += 1
                    return False
                free &= ~P
                pre[s] = P | fixed
                play, _ = basic_decision_call(hparams, me_real, isd, P | fixed, trump, upcard, lono, sep, limit, ko,
                                              j, k, nplay, pot_j, table_ante, ante_amt, rules, st)
                if play:
                    stats[S_DECL_REJECTS] += 1
                    return False
        if aplay:
            nplay += 1
            pot_j += a2
    return True
