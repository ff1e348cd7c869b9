"""Boomke Wies duplicate comparison: every ordered pair of entrants, the same deal in each rotation."""
import numpy as np
from numba import njit, prange

from ..rng import seed_state
from ..tally import add_sum_outer, block_offsets
from .deals import CHUNK
from .pimc import PW_LEN, S_PLAYOUTS
from .play import deal_hand, deal_scratch, play_dealt, refuse_pimc_seats
from .rules import REC_LEN, REC_SCORE, REC_TEAM


# ============================================================================
# duplicate comparison: every ordered pair of entrants, same deal in each rotation
# ============================================================================
@njit(cache=True, nogil=True, parallel=True)
def sim_duplicate(key_deal, key_dec, first, n, rules, codes, prm, pimc=None):
    """Duplicate comparison of k entrants (``codes`` int64[k], ``prm`` float64[k, N_PARAMS]).
    For every deal and every ordered pair (a, b), a != b, entrant a holds seats 0 and 2
    and b seats 1 and 3 on the same deal (same dealer, decision stream reseeded), so
    each entrant has 4(k-1) seat appearances per deal. The vector is kernels/tally.py ``pairs_layout(k,
    ("points", "team_tricks"))``: per metric S[k] (sum over deals of X_h, the metric summed over h's seats),
    Q[k, k] (sum of X_a X_b) and P[k, k] (sum over deals and pairings of Y_a Y_b, Y = one
    pairing's sum). Without a shuffle the deal's warm-up is played by entrant 0.
    ``pimc``: a workspace (kernels/boomke_wies/pimc.py ``workspace()``) when an entrant is the sampling player:
    each chunk plays with its own, and their counters are added into it; None (omitted): no entrant is, and the
    kernel is compiled without the player."""
    if pimc is None:
        refuse_pimc_seats(codes)
    k = codes.shape[0]
    b_s, b_q, b_p, block_size = block_offsets(k)
    L = 2 * block_size            # two metrics: points, then team tricks
    nch = (n + CHUNK - 1) // CHUNK
    part = np.zeros((nch, L), np.int64)
    counts = np.zeros((nch, S_PLAYOUTS + 1), np.uint64)
    for ch in prange(nch):
        pw = np.zeros(PW_LEN, np.uint64)
        st, sd, deck, pile, hands, h = deal_scratch()
        rec = np.zeros(REC_LEN, np.int64)
        prev = np.zeros(REC_LEN, np.int64)
        hc = np.zeros(4, np.int64)
        hp = np.zeros((4, prm.shape[1]), np.float64)
        X = np.zeros((2, k), np.int64)
        acc = part[ch]
        for i in range(ch * CHUNK, min(n, (ch + 1) * CHUNK)):
            idx = first + i
            dealer = idx & 3
            X[:, :] = 0
            for s in range(4):
                hc[s] = codes[0]
                hp[s, :] = prm[0]
            seed_state(sd, key_deal, idx)
            seed_state(st, key_dec, idx)
            if pimc is None:
                tc = deal_hand(sd, st, dealer, rules, hc, hp, deck, pile, hands, h, rec, prev)
            else:
                tc = deal_hand(sd, st, dealer, rules, hc, hp, deck, pile, hands, h, rec, prev, pw)
            for a in range(k):
                for b in range(k):
                    if a == b:
                        continue
                    for s in range(4):
                        e = a if (s & 1) == 0 else b
                        hc[s] = codes[e]
                        hp[s, :] = prm[e]
                    seed_state(st, key_dec, idx)
                    if pimc is None:
                        play_dealt(hands, dealer, rules, hc, hp, st, rec, h, tc)
                    else:
                        play_dealt(hands, dealer, rules, hc, hp, st, rec, h, tc, pw)
                    for mt in range(2):
                        if mt == 0:
                            ya = rec[REC_SCORE] + rec[REC_SCORE + 2]
                            yb = rec[REC_SCORE + 1] + rec[REC_SCORE + 3]
                        else:
                            ya = 2 * rec[REC_TEAM]
                            yb = 2 * rec[REC_TEAM + 1]
                        X[mt, a] += ya
                        X[mt, b] += yb
                        off = mt * block_size + b_p     # P of the metric's block
                        acc[off + a * k + a] += ya * ya
                        acc[off + b * k + b] += yb * yb
                        acc[off + a * k + b] += ya * yb
                        acc[off + b * k + a] += ya * yb
            for mt in range(2):
                o = mt * block_size
                add_sum_outer(acc, o + b_s, o + b_q, X[mt], k)   # per deal (S and Q of the metric's block)
        counts[ch, :] = pw[:S_PLAYOUTS + 1]
    out = np.zeros(L, np.int64)
    for ch in range(nch):
        out += part[ch]
    if pimc is not None:
        for ch in range(nch):
            for j in range(1, S_PLAYOUTS + 1):
                pimc[j] += counts[ch, j]
    return out
