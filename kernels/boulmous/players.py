"""Boulmous players: the heuristic codes ``H_*``, the declaration of their parameters (``PARAMS``, columns
``P_*``), score-aware bidding's bins,
and every heuristic decision (the hand's estimate, the bid, the trump, the card to play).

The sampling player (``H_PIMC``) plays its cards by kernels/boulmous/pimc.py, in the kernels given their
``pimc`` argument (kernels/boulmous/play.py)."""
import numpy as np
from numba import njit

from ..cards import U0, U1, highest, lowest, nth_card, popcount
from ..rng import below, uniform
from .rules import ABOVE, ACES, CSUIT, KINGS, NT, POWER, RANK4, SUIT16, TABS

# ---- heuristics -------------------------------------------------------------
H_RANDOM, H_CAUTIOUS, H_AGGRESSIVE = 0, 1, 2
H_PIMC = 3  # the sampling player: bids and names trumps by sampling (``bid`` = 1) or as cautious, and plays its
#             cards by kernels/boulmous/pimc.py, when a kernel is given its ``pimc`` argument (kernels/boulmous/play.py)

# ---- heuristic parameters: the one declaration ---------------------------------
# (name, default, lowest, highest, help).  A parameter's column of ``hparams`` (float64[4, N_PARAMS]) is its
# place here, and the decisions read it through the ``P_<NAME>`` constant below; analysis/boulmous/config.py
# builds the heuristics' parameters from this table (a heuristic may take other defaults).
PARAMS = (
    ("margin", 0.5, -3, 3, "bid only when estimated tricks - margin reach the bid"),
    ("bower_weight", 1.0, 0, 2, "tricks counted per bower (J of trumps, J of same colour)"),
    ("trump_weight", 0.6, 0, 2, "tricks counted per other trump"),
    ("ace_weight", 0.8, 0, 2, "tricks counted per side ace"),
    ("king_weight", 0.3, 0, 2, "tricks counted per side king"),
    ("length_bonus", 0.3, 0, 2, "extra tricks per trump beyond two"),
    ("nt_bias", -0.5, -3, 3, "added to the no-trump estimate when choosing trumps"),
    ("boulmous_margin", 0.5, -3, 3, "extra margin before jumping to 6 (boulmous)"),
    ("gang_up", 1, 0, 1, "1: a defender never overtakes another defender who beats the taker"),
    ("draw_trumps", 1, 0, 1, "1: as taker, lead trumps while opponents may hold some (cautious)"),
    ("lead_high", 0, 0, 1, "1: lead the highest card, 0: the lowest (aggressive)"),
    ("bid_prob", 0.3, 0, 1, "chance of bidding (the lowest legal level or above, uniformly) when it may"),
    ("worlds", 32, 1, 4096, "layouts of the unseen cards sampled per card played or per auction (an integer)"),
    ("bid", 1, 0, 1, "1: bid and name trumps by sampling (expected points plus stakes of each call on the same "
                     "worlds); 0: as cautious, with its own parameters"),
    ("race", 1.0, 0, 10, "stop sampling a card decision (from 8 worlds on) once the leading card leads every other "
                         "by more than race standard errors (0: off)"),
    ("score_aware", 0, 0, 2, "in whole games (stakes, compare --games) bid by the equity table at the scores: 1 by "
                             "the chance to win the game, 2 by money (docs/methods/equity.md)"),
    ("infer", 0, 0, 1, "1: after a call heard, keep only worlds whose hands make every call heard under cautious's "
                       "bidding with its own parameters (bids and cards; 0: worlds ignore the auction)"),
    ("share_tt", 1, 0, 1, "1: keep the open-hand solver's transposition table across the worlds, candidates and card "
                          "decisions of a deal (keyed by whole positions: the same decisions, fewer nodes searched); "
                          "0: a fresh table per solve"),
)
COLUMN = {p[0]: i for i, p in enumerate(PARAMS)}
N_PARAMS = len(PARAMS)
P_MARGIN, P_BOWER_WEIGHT, P_TRUMP_WEIGHT = COLUMN["margin"], COLUMN["bower_weight"], COLUMN["trump_weight"]
P_ACE_WEIGHT, P_KING_WEIGHT, P_LENGTH_BONUS = COLUMN["ace_weight"], COLUMN["king_weight"], COLUMN["length_bonus"]
P_NT_BIAS, P_BOULMOUS_MARGIN, P_GANG_UP = COLUMN["nt_bias"], COLUMN["boulmous_margin"], COLUMN["gang_up"]
P_DRAW_TRUMPS, P_LEAD_HIGH, P_BID_PROB = COLUMN["draw_trumps"], COLUMN["lead_high"], COLUMN["bid_prob"]
P_WORLDS, P_BID, P_RACE = COLUMN["worlds"], COLUMN["bid"], COLUMN["race"]   # H_PIMC (kernels/boulmous/pimc.py)
P_SCORE_AWARE = COLUMN["score_aware"]   # 1 / 2: whole games bid by the equity table (analysis/boulmous/equity/saware.py)
P_INFER = COLUMN["infer"]               # H_PIMC: worlds consistent with the auction (kernels/boulmous/pimc.py)
P_SHARE_TT = COLUMN["share_tt"]         # H_PIMC: the solver's table kept across a deal's solves (pimc.py)

# Score-aware bidding: before each deal of a whole game ``play_game`` writes, per seat, the estimate bin each bid
# 3..6 needs at the game's scores into its own scratch ``sab`` (int64[4, 4]), which the auction passes to
# ``choose_bid``; outside a game no bin is asked (NO_SA: every bin passes).
NO_SA = np.zeros(4, np.int64)
SA_VMIN, SA_STEP, SA_NBINS = -4.0, 0.1, 301    # the estimate bins of score-aware bidding: -4.0 .. 26.0
SA_FLOOR = -6          # the equity table's lowest score (analysis/boulmous/equity/table.FLOOR); its highest: target + 5


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
def choose_bid(code, hp, ps, hand, high, st, lb, sab):
    """0 = pass, else a bid in high+1..6 (high = 0 when nobody has bid).  ``sab`` (int64[4]): the estimate bin
    each bid 3..6 needs of a score-aware seat (``play_game``; NO_SA outside a game)."""
    lo = 3 if high < 3 else high + 1
    if lo > 6:
        return 0
    if code == H_RANDOM:
        if uniform(st) < hp[ps, P_BID_PROB]:
            return lo + below(st, 7 - lo)
        return 0
    _, v = best_trump(hand, hp, ps, lb)
    return bid_for(hp, ps, v, lo, sab)


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def bid_for(hp, ps, v, lo, sab):
    """``choose_bid`` of every heuristic but the random one, from the hand's estimate ``v`` (``best_trump``'s
    value) and the lowest legal bid ``lo`` (3..6)."""
    room = v - hp[ps, P_MARGIN]
    if hp[ps, P_SCORE_AWARE] > 0.5:
        # score-aware: a bid needs the estimate bin the game's state asks for (``sa_thresholds``);
        # the jump to boulmous keeps the heuristic's own rule and needs the table's bin for 6 too
        k = sa_bin(v)
        if room >= 6.0 + hp[ps, P_BOULMOUS_MARGIN] - 1e-9 and k >= sab[3]:
            return 6
        if k >= sab[lo - 3]:
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
    """The card a seat plays; deterministic except for H_RANDOM.  Every rule ends in the highest or the lowest
    card of some mask (``pm``, ``high``), picked once at the end: each pick site inlined is a copy of
    ``min_power_card`` in the caller's code, and numba's inline="always" costs the callee's blocks times its
    variables, per level (a single pick site: seconds less of a cold compile of ``play_tricks``)."""
    if code == H_RANDOM:
        return lowest(legal) if popcount(legal) == 1 else nth_card(legal, below(st, popcount(legal)))
    unseen = TABS[lb, t, 5] & ~hand & ~played
    pm = legal
    high = False
    if n_in_trick == 0:
        if code == H_CAUTIOUS:
            if me == taker and t != NT and hp[ps, P_DRAW_TRUMPS] > 0.5:
                mytr = legal & TABS[lb, t, 4]
                if mytr != U0 and (unseen & TABS[lb, t, 4]) != U0:
                    pm = mytr           # draw trumps: the highest
                    high = True
            if not high:
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
                    pm = side if side != U0 else boss     # the highest boss, a side one first
                    high = True
        elif hp[ps, P_LEAD_HIGH] > 0.5:
            high = True
    else:
        winners = legal & ABOVE[lb, t, win_pow]
        # keep only cards that really beat (trump, or the led class)
        real = U0
        m = winners
        while m != U0:
            c = lowest(m)
            m &= m - U1
            if POWER[lb, t, c] >= 64 or CSUIT[lb, t, c] == led:
                real |= U1 << np.uint64(c)
        # no winner, or ganging up (the taker wins or played): the lowest legal card
        if real != U0 and not (hp[ps, P_GANG_UP] > 0.5 and me != taker and win_seat != taker and taker_played):
            if n_in_trick != 3 and code == H_CAUTIOUS:
                # cheapest winner that no unseen card of the same standing can beat; none: the lowest legal card
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
            else:
                pm = real               # the last to play, or not cautious: the lowest winner
    if high:
        return max_power_card(pm, t, lb)
    return min_power_card(pm, t, lb)
