"""The Bourre open-hand solver's shared transposition table (kernels/bourre/solver.py ``analyse_shared``): a second
table in the solver's workspace, after the per-solve one, kept across the solves of one *scope* (the sampling
player's card decision: its worlds and candidates, ``pimc:share_tt=1``, kernels/bourre/pimc.py).

Why a second table. The per-solve table keys a trick-boundary position by the cards still held (with no owner),
the leader and the tricks won: enough within one solve, where every card's owner and the cards played before the
root are fixed, not across the worlds of a decision, where the same cards lie in other hands. An entry of the
shared table is keyed by everything the value of a trick-boundary position depends on besides the solve's
constants (the players, the seat solved for, the trump, Lo-No, a forced lead, the cards known out, the rules: the
scope fixes them: kernels/bourre/pimc_solve.py ``decision_scope``):

- ``k0``: the cards still held and the leader (bits 13..15 of suit 0, which hold no card), as in the per-solve key;
- ``pl0, pl1, pl2``: the owners, as bit planes: ``pl_b`` = the cards of the seats whose index has bit b set, so
  that with ``k0`` every card's holder is exact;
- ``k1``: the tricks won (the per-solve key's ``wk``: 3 bits a seat, only under the pagat cinch or
  when the question is the pot; kernels/bourre/solver.py), the A-K-Q flags of the seats (only under
  cinch_rule = akq_in_order, the only rule that reads them), the goal (tricks or the pot), whether the leader
  must lead the forced card, the trumps played (only under the pagat cinch with holder knowledge, the only rule
  under which a played card's whereabouts changes a legal play: ``cinch_O``, ``_reps``), and the scope's
  generation (``SGEN_BITS`` bits from bit 55); its low 8 bits hold the bounds.

An entry is (k0, k1 | lo << 4 | hi, pl0, pl1, pl2): ``E_WORDS`` words, one slot per hash, always replaced. Its
bounds are bounds on the exact value of that position, true whatever search stored them, so a solve that reads
them returns the same exact value as from an empty table (only the nodes searched differ) and the sampling
player's decisions are the same with or without the table. The workspace's words 13..15 (kernels/tt.py's header,
then the solver's constants up to word 12, its tricks won from word 16) hold the table's switch for the current
solve, its generation and the scope.
"""
import numpy as np
from numba import njit

from ..cards import U0
from ..tt import merge_bounds, renew_generation

W_SON, W_SGEN, W_SCOPE = 13, 14, 15     # the shared table on for this solve; its generation; the current scope
SHARE_BITS = 10                         # 2**SHARE_BITS entries
E_WORDS = 5
SHARE_WORDS = E_WORDS << SHARE_BITS
SGEN_BITS = 9
GOAL_BIT, FORCED_BIT, PT_SHIFT, GEN_SHIFT = 40, 41, 42, 55
MIX = np.uint64(0x9E3779B97F4A7C15)
MIX2 = np.uint64(0xD6E8FEB86659FD93)
MIX3 = np.uint64(0xBF58476D1CE4E5B9)


@njit(cache=True, nogil=True, _nrt=False)
def share_scope(ws, scope, table):
    """Open the shared table's scope ``scope`` (pimc_solve.py ``decision_scope``) in the workspace whose shared
    table starts at word ``table``: when it differs from the current scope, a fresh generation, so that no entry
    of another scope is ever read (after 2**SGEN_BITS - 1 scopes the table is cleared)."""
    if ws[W_SGEN] == U0 or ws[W_SCOPE] != scope:
        renew_generation(ws, W_SGEN, SGEN_BITS, table, table + SHARE_WORDS)
        ws[W_SCOPE] = scope


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def share_k1(ws, wk, akq_key, goal, forced, pt):
    """The shared key's word k1 (module docstring), its bounds bits 0."""
    return (wk << np.uint64(8)) | (np.uint64(akq_key) << np.uint64(32)) \
        | (np.uint64(goal) << np.uint64(GOAL_BIT)) | (np.uint64(1 if forced else 0) << np.uint64(FORCED_BIT)) \
        | (pt << np.uint64(PT_SHIFT)) | (ws[W_SGEN] << np.uint64(GEN_SHIFT))


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _planes(h, players):
    """The owners' bit planes of the hands ``h[0:players]``."""
    p0 = U0
    p1 = U0
    p2 = U0
    for s in range(1, players):
        if s & 1:
            p0 |= h[s]
        if s & 2:
            p1 |= h[s]
        if s & 4:
            p2 |= h[s]
    return p0, p1, p2


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def share_slot(ws, table, k0, k1, h, players):
    """(slot, found, planes): the slot of the position (k0, k1, the owners of ``h``), whether it holds that
    position, and the owners' planes."""
    p0, p1, p2 = _planes(h, players)
    z = (k0 ^ (k1 * MIX2) ^ (p0 * MIX3)) * MIX
    z ^= (p1 ^ (p2 * MIX2)) * MIX3
    z ^= z >> np.uint64(29)
    z *= MIX2
    z ^= z >> np.uint64(32)
    slot = table + E_WORDS * np.int64(z & np.uint64((1 << SHARE_BITS) - 1))
    found = (ws[slot] == k0 and (ws[slot + 1] >> np.uint64(8)) == (k1 >> np.uint64(8)) and ws[slot + 2] == p0
             and ws[slot + 3] == p1 and ws[slot + 4] == p2)
    return slot, found, p0, p1, p2


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def share_store(ws, slot, k0, k1, h, players, res, target, hi0):
    """Merge the outcome of a search with ``target`` into the bounds stored at ``slot`` (``share_slot``'s) for the
    position (k0, k1, the owners of ``h``: the node's own hands, restored when its result is stored)."""
    p0, p1, p2 = _planes(h, players)
    lo = 0
    hi = hi0
    if (ws[slot] == k0 and (ws[slot + 1] >> np.uint64(8)) == (k1 >> np.uint64(8)) and ws[slot + 2] == p0
            and ws[slot + 3] == p1 and ws[slot + 4] == p2):
        lo = np.int64((ws[slot + 1] >> np.uint64(4)) & np.uint64(15))
        hi = np.int64(ws[slot + 1] & np.uint64(15))
    lo, hi = merge_bounds(lo, hi, res, target)
    ws[slot] = k0
    ws[slot + 1] = k1 | (np.uint64(lo) << np.uint64(4)) | np.uint64(hi)
    ws[slot + 2] = p0
    ws[slot + 3] = p1
    ws[slot + 4] = p2
