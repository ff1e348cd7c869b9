"""Boulmous players: the heuristic codes ``H_*`` and parameter columns ``P_*``, score-aware bidding's bins,
and every heuristic decision (the hand's estimate, the bid, the trump, the card to play).

The sampling player (``H_PIMC``) plays its cards by kernels/boulmous/pimc.py, only in the kernels of
kernels/boulmous/pimc_batch.py."""
import numpy as np
from numba import njit

from tricksim.kernels.cards import U0, U1, highest, lowest, nth_card, popcount
from tricksim.kernels.rng import below, uniform

from tricksim.kernels.boulmous.rules import ABOVE, ACES, CSUIT, KINGS, NT, POWER, RANK4, SUIT16, TABS


# ---- heuristics -------------------------------------------------------------
H_RANDOM, H_CAUTIOUS, H_AGGRESSIVE = 0, 1, 2
H_PIMC = 3  # the sampling player: bids by sampling (choose_bid reads P_SAMPLED_BID..) or as cautious; its play is in
#             kernels/boulmous/pimc_batch.py,
#             whose kernels alone take it (the kernels of this module never see it: analysis/ dispatches)
P_MARGIN, P_BOWER_WEIGHT, P_TRUMP_WEIGHT, P_ACE_WEIGHT, P_KING_WEIGHT, P_LENGTH_BONUS = 0, 1, 2, 3, 4, 5
P_NT_BIAS, P_BOULMOUS_MARGIN, P_GANG_UP, P_DRAW_TRUMPS, P_LEAD_HIGH, P_BID_PROB = 6, 7, 8, 9, 10, 11
P_WORLDS = 12          # H_PIMC: worlds sampled per decision
P_BID, P_RACE = 13, 14  # H_PIMC: 1 = bid and name trumps by sampling (0 = as cautious); the race margin (0 = off)
P_SCORE_AWARE = 15     # 1 / 2: in whole games the bids follow the equity table by P(win) / by money
#                        (analysis/equity/saware.py)
P_SA_BIN = 16          # 4 columns, bids 3..6: the estimate bin (``sa_bin``) a bid needs at the game's scores,
#                        written into a per-game copy of hparams by ``play_game`` before each deal
N_PARAMS = 20
P_SAMPLED_BID = N_PARAMS  # H_PIMC bidding by sampling: a per-deal copy of hparams holds, in 4 extra columns, the bid
#                           (0 = pass) for each lowest legal bid 3..6 (kernels/boulmous/pimc_batch.py fills them)
SA_VMIN, SA_STEP, SA_NBINS = -4.0, 0.1, 301    # the estimate bins of score-aware bidding: -4.0 .. 26.0
SA_FLOOR = -6          # the equity table's lowest score (analysis/equity/boulmous.FLOOR); its highest: target + 5


# ============================================================================
# heuristics
# ============================================================================
@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _fold(m):
    """The ranks present in any suit of m, as one 16-bit field."""
    return (m | (m >> np.uint64(16)) | (m >> np.uint64(32)) | (m >> np.uint64(48))) & SUIT16


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def min_power_card(mask, t, lb):
    """The lowest-ranking card of a non-empty mask (non-trumps first; ties: lowest id)."""
    nt = mask & ~TABS[lb, t, 4]
    if nt != U0:
        r = lowest(_fold(nt))
        return lowest(nt & (RANK4 << np.uint64(r)))
    x = mask & ~TABS[lb, t, 6]
    if x != U0:
        return lowest(x)
    if mask & TABS[lb, t, 8]:
        return lowest(TABS[lb, t, 8])
    return lowest(TABS[lb, t, 7])


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def max_power_card(mask, t, lb):
    """The highest-ranking card of a mask, -1 if empty (ties: lowest id)."""
    tr = mask & TABS[lb, t, 4]
    if tr != U0:
        if tr & TABS[lb, t, 7]:
            return lowest(TABS[lb, t, 7])
        if tr & TABS[lb, t, 8]:
            return lowest(TABS[lb, t, 8])
        return highest(tr)
    if mask == U0:
        return -1
    r = highest(_fold(mask))
    return lowest(mask & (RANK4 << np.uint64(r)))


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def max_power(mask, t, lb):
    c = max_power_card(mask, t, lb)
    if c < 0:
        return -1
    return POWER[lb, t, c]


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def estimate(hand, t, hp, ps, lb):
    """Estimated tricks of ``hand`` with trump index ``t`` (4 = NT)."""
    tr = TABS[lb, t, 4]
    ntr = popcount(hand & tr)
    nb = popcount(hand & TABS[lb, t, 6])
    aces = popcount(hand & ACES & ~tr)
    kings = popcount(hand & KINGS & ~tr)
    v = nb * hp[ps, P_BOWER_WEIGHT] + (ntr - nb) * hp[ps, P_TRUMP_WEIGHT] + aces * hp[ps, P_ACE_WEIGHT] \
        + kings * hp[ps, P_KING_WEIGHT]
    if t == NT:
        v += hp[ps, P_NT_BIAS]
    elif ntr > 2:
        v += hp[ps, P_LENGTH_BONUS] * (ntr - 2)
    return v


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def best_trump(hand, hp, ps, lb):
    best_t = 0
    best_v = -1e300
    for t in range(5):
        v = estimate(hand, t, hp, ps, lb)
        if v > best_v:
            best_v = v
            best_t = t
    return best_t, best_v


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def sa_bin(v):
    """The bin of a trick estimate ``v`` (``best_trump``'s value): SA_VMIN + k * SA_STEP <= v, clamped."""
    k = int(np.floor((v - SA_VMIN) / SA_STEP + 1e-6))
    if k < 0:
        return 0
    if k >= SA_NBINS:
        return SA_NBINS - 1
    return k


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def choose_bid(code, hp, ps, hand, high, st, lb):
    """0 = pass, else a bid in high+1..6 (high = 0 when nobody has bid)."""
    lo = 3 if high < 3 else high + 1
    if lo > 6:
        return 0
    if code == H_PIMC:      # bidding by sampling: decided before the auction (kernels/boulmous/pimc_batch.py)
        return np.int64(hp[ps, P_SAMPLED_BID + lo - 3])
    if code == H_RANDOM:
        if uniform(st) < hp[ps, P_BID_PROB]:
            return lo + below(st, 7 - lo)
        return 0
    _, v = best_trump(hand, hp, ps, lb)
    room = v - hp[ps, P_MARGIN]
    if hp[ps, P_SCORE_AWARE] > 0.5:
        # score-aware: a bid needs the estimate bin the game's state asks for (``sa_thresholds``);
        # the jump to boulmous keeps the heuristic's own rule and needs the table's bin for 6 too
        k = sa_bin(v)
        if room >= 6.0 + hp[ps, P_BOULMOUS_MARGIN] - 1e-9 and k >= hp[ps, P_SA_BIN + 3]:
            return 6
        if k >= hp[ps, P_SA_BIN + lo - 3]:
            return lo
        return 0
    if room >= 6.0 + hp[ps, P_BOULMOUS_MARGIN] - 1e-9:
        return 6
    if room >= lo - 1e-9 and lo < 6:
        return lo
    return 0


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def choose_trump(code, hp, ps, hand, st, lb):
    if code == H_RANDOM:
        return below(st, 5)
    t, _ = best_trump(hand, hp, ps, lb)
    return t


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def choose_card(code, hp, ps, me, hand, legal, n_in_trick, led, win_pow, win_seat,
                taker_played, taker, t, played, st, lb):
    """The card a seat plays; deterministic except for H_RANDOM."""
    if code == H_RANDOM:
        return lowest(legal) if popcount(legal) == 1 else nth_card(legal, below(st, popcount(legal)))
    unseen = TABS[lb, t, 5] & ~hand & ~played
    if n_in_trick == 0:
        if code == H_CAUTIOUS:
            if me == taker and t != NT and hp[ps, P_DRAW_TRUMPS] > 0.5:
                mytr = legal & TABS[lb, t, 4]
                if mytr != U0 and (unseen & TABS[lb, t, 4]) != U0:
                    return max_power_card(mytr, t, lb)
            # a boss: no unseen card of its class ranks higher
            boss = U0
            m = legal
            while m != U0:
                c = lowest(m)
                m &= m - U1
                k = CSUIT[lb, t, c]
                if max_power(unseen & TABS[lb, t, k], t, lb) < POWER[lb, t, c]:
                    boss |= U1 << np.uint64(c)
            if boss != U0:
                side = boss & ~TABS[lb, t, 4]
                if side != U0:
                    return max_power_card(side, t, lb)
                return max_power_card(boss, t, lb)
            return min_power_card(legal, t, lb)
        if hp[ps, P_LEAD_HIGH] > 0.5:
            return max_power_card(legal, t, lb)
        return min_power_card(legal, t, lb)
    winners = legal & ABOVE[lb, t, win_pow]
    # keep only cards that really beat (trump, or the led class)
    real = U0
    m = winners
    while m != U0:
        c = lowest(m)
        m &= m - U1
        if POWER[lb, t, c] >= 64 or CSUIT[lb, t, c] == led:
            real |= U1 << np.uint64(c)
    if real == U0:
        return min_power_card(legal, t, lb)
    if hp[ps, P_GANG_UP] > 0.5 and me != taker and win_seat != taker and taker_played:
        return min_power_card(legal, t, lb)
    if n_in_trick == 3:
        return min_power_card(real, t, lb)
    if code == H_CAUTIOUS:
        # cheapest winner that no unseen card of the same standing can beat
        m = real
        best = -1
        bp = 1 << 30
        while m != U0:
            c = lowest(m)
            m &= m - U1
            p = POWER[lb, t, c]
            if p >= 64:
                danger = max_power(unseen & TABS[lb, t, 4], t, lb)
            else:
                danger = max_power(unseen & TABS[lb, t, led], t, lb)
                if t != NT and (unseen & TABS[lb, t, 4]) != U0 and popcount(unseen & TABS[lb, t, led]) < 2:
                    danger = 1 << 20  # someone void may ruff
            if p > danger and p < bp:
                bp = p
                best = c
        if best >= 0:
            return best
        return min_power_card(legal, t, lb)
    return min_power_card(real, t, lb)
