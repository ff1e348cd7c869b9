"""Boulmous kernels (RULES.md section 1): auction, trump choice, play, scoring, games to 21.

Contract of every function here:
- cards are ints ``suit*16+rank`` (kernels/cards.py); a hand is a uint64 mask;
- ``rules``  int64[N_RULES]: the variant flags, indexed by the ``R_*`` constants;
- ``lb`` (0/1) is the flag left_bower_is_trump; it selects the module-constant tables
  (module constants, not arguments, so that no reference counting happens in the
  inner loop): per trump index t (0..3 = S H D C, 4 = NT)
  ``TABS[lb, t, k]`` = cards that follow class k (k 0..3), ``TABS[lb, t, 4]`` the
  cards that rank as trumps, 5 the deck, 6 both bowers, 7 the right bower (J of
  trumps), 8 the left bower (J of the same colour); ``POWER[lb, t, c]`` the card's
  power (trumps >= 64); ``CSUIT[lb, t, c]`` its follow class; ``ABOVE[lb, t, p]`` the
  cards whose power exceeds p;
- ``hcodes`` int64[4] heuristic code per seat, ``hparams`` float64[4, N_PARAMS];
- ``rec`` int64[REC_LEN] is the hand record that every playout fills, so the
  trace shows exactly what the batch kernels play.
Seat 0..3 clockwise; the first to speak is ``(dealer + 1) % 4``.
"""
import numpy as np
from numba import njit, prange

from tricksim.kernels.cards import popcount, lowest, highest, nth_card, U0, U1
from tricksim.kernels.rng import seed_state, below, uniform, shuffle
from tricksim.kernels.deal import deal_with_fixed
from tricksim.kernels.tally import add_outer, add_sum_outer

# ---- rule flags -------------------------------------------------------------
R_AUCTION, R_LEFT_BOWER_TRUMP, R_MUST_HEAD, R_TRUMP_OBL, R_FAILED_KEEPS = 0, 1, 2, 3, 4
R_END_CHECK, R_TIE_BREAK, R_WINNER_PAYS_OWN, R_FAILED_B_IS_BOX, R_TARGET = 5, 6, 7, 8, 9
N_RULES = 10
AUCTION_SINGLE, AUCTION_MULTI = 0, 1
OBL_OPTIONAL, OBL_MUST_TRUMP, OBL_MUST_OVERTRUMP = 0, 1, 2
END_DEAL, END_TRICK = 0, 1
TIE_PLAY_ON, TIE_TAKER, TIE_SHARED = 0, 1, 2
NT = 4

# ---- heuristics -------------------------------------------------------------
H_RANDOM, H_CAUTIOUS, H_AGGRESSIVE = 0, 1, 2
H_PIMC = 3  # the sampling player: bids by sampling (choose_bid reads P_SAMPLED_BID..) or as cautious; its play is in
#             kernels/pimc_boulmous.py,
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
#                           (0 = pass) for each lowest legal bid 3..6 (kernels/pimc_boulmous.py fills them)
SA_VMIN, SA_STEP, SA_NBINS = -4.0, 0.1, 301    # the estimate bins of score-aware bidding: -4.0 .. 26.0
SA_FLOOR = -6          # the equity table's lowest score (analysis/equity/boulmous.FLOOR); its highest: target + 5

# ---- hand record ------------------------------------------------------------
REC_DEALER, REC_TAKER, REC_CONTRACT, REC_TRUMP, REC_MADE, REC_NBIDS = 0, 1, 2, 3, 4, 5
REC_BIDS = 6            # MAX_BIDS pairs (seat, bid or 0 = pass)
MAX_BIDS = 16
REC_NTRICKS = REC_BIDS + 2 * MAX_BIDS          # 38
REC_TRICKS = REC_NTRICKS + 1                   # 6 x (leader, c0, c1, c2, c3, winner)
REC_WON = REC_TRICKS + 36                      # 4
REC_SCORE = REC_WON + 4                        # 4
REC_STAKES = REC_SCORE + 4                     # 4
REC_LEGAL = REC_STAKES + 4                     # 24 legal masks, in play order
REC_HANDS = REC_LEGAL + 24                     # 4 hands at the first trick
REC_LEN = REC_HANDS + 4

SUIT16 = np.uint64(0xFFFF)
RANK4 = np.uint64(0x0001000100010001)  # rank 0 in each suit
ACES = np.uint64(0)
KINGS = np.uint64(0)
for _s in range(4):
    ACES |= np.uint64(1) << np.uint64(16 * _s + 12)
    KINGS |= np.uint64(1) << np.uint64(16 * _s + 11)
DECK24 = np.uint64(0)
for _s in range(4):
    DECK24 |= np.uint64(0x1F80) << np.uint64(16 * _s)


def build_tables(left_bower_is_trump):
    """Rules 8-9 as tables, for one value of the flag left_bower_is_trump."""
    tabs = np.zeros((5, 10), np.uint64)
    power = np.full((5, 64), -1, np.int64)
    csuit = np.full((5, 64), -1, np.int64)
    above = np.zeros((5, 128), np.uint64)
    deck = [s * 16 + r for s in range(4) for r in range(7, 13)]
    for t in range(5):
        for c in deck:
            s, r = divmod(c, 16)
            p = r
            cs = s
            if t < 4:
                if s == t and r == 9:
                    p = 64 + 20           # J of trumps
                elif s == 3 - t and r == 9:
                    p = 64 + 19           # J of the same colour
                    if left_bower_is_trump:
                        cs = t
                elif s == t:
                    p = 64 + r            # A K Q 10 9 of trumps
            power[t, c] = p
            csuit[t, c] = cs
        for c in deck:
            b = np.uint64(1 << c)
            tabs[t, csuit[t, c]] |= b
            tabs[t, 5] |= b
            if power[t, c] >= 64:
                tabs[t, 4] |= b
            if power[t, c] >= 64 + 19:
                tabs[t, 6] |= b
            if power[t, c] == 64 + 20:
                tabs[t, 7] |= b
            if power[t, c] == 64 + 19:
                tabs[t, 8] |= b
        for p in range(0, 128):
            m = 0
            for c in deck:
                if power[t, c] > p:
                    m |= 1 << c
            above[t, p] = np.uint64(m)
    return tabs, power, csuit, above


_T = [build_tables(False), build_tables(True)]
TABS = np.stack([_T[0][0], _T[1][0]])
POWER = np.stack([_T[0][1], _T[1][1]])
CSUIT = np.stack([_T[0][2], _T[1][2]])
ABOVE = np.stack([_T[0][3], _T[1][3]])


# ============================================================================
# rules
# ============================================================================
@njit(cache=True, nogil=True, _nrt=False, inline="always")
def legal_mask(hand, n_in_trick, led, win_pow, t, rules, lb):
    """Cards of ``hand`` that may be played; ``led`` = follow class of the lead,
    ``win_pow`` = power of the card winning the trick so far (rules 11-13)."""
    if n_in_trick == 0:
        return hand
    follow = hand & TABS[lb, t, led]
    obl = rules[R_TRUMP_OBL]
    if follow != U0:
        if rules[R_MUST_HEAD] != 0 or (obl == OBL_MUST_OVERTRUMP and led == t):
            better = follow & ABOVE[lb, t, win_pow]
            if better != U0:
                return better
        return follow
    if t == NT:
        return hand  # void at no-trump: nothing can beat the trick
    tr = hand & TABS[lb, t, 4]
    if obl == OBL_OPTIONAL:
        # trumping is optional, but must_head obliges a void player to beat the
        # trick (that is, to trump or overtrump) whenever any card of his can
        if rules[R_MUST_HEAD] != 0:
            better = tr & ABOVE[lb, t, win_pow]
            if better != U0:
                return better
        return hand
    if tr == U0:
        return hand
    if obl == OBL_MUST_OVERTRUMP or rules[R_MUST_HEAD] != 0:
        better = tr & ABOVE[lb, t, win_pow]
        if better != U0:
            return better
    return tr


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def beats(c, led, win_pow, t, lb):
    p = POWER[lb, t, c]
    return p > win_pow and (p >= 64 or CSUIT[lb, t, c] == led)


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
    if code == H_PIMC:      # bidding by sampling: decided before the auction (kernels/pimc_boulmous.py)
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


# ============================================================================
# one deal
# ============================================================================
@njit(cache=True, nogil=True, _nrt=False, inline="always")
def apply_card(h, s, c, k, led, win_pow, win_seat, t, lb):
    """Seat ``s`` plays card ``c`` as the ``k``-th card (0 = the lead) of a trick: removes it from ``h[s]``;
    returns the trick's (led class, winning power, winning seat) after it (rule 14)."""
    h[s] &= ~(U1 << np.uint64(c))
    if k == 0:
        return CSUIT[lb, t, c], POWER[lb, t, c], s
    if beats(c, led, win_pow, t, lb):
        return led, POWER[lb, t, c], s
    return led, win_pow, win_seat


@njit(cache=True, nogil=True, _nrt=False)
def auction(hands, dealer, rules, hcodes, hparams, st, lb, rec, forced_pass):
    """Rule 4-6. Returns (taker, contract); taker -1 when all pass.
    ``forced_pass`` = a seat that must pass (-1 for none)."""
    high = 0
    taker = -1
    nb = 0
    if rules[R_AUCTION] == AUCTION_SINGLE:
        for k in range(4):
            s = (dealer + 1 + k) % 4
            b = 0
            if s != forced_pass:
                b = choose_bid(hcodes[s], hparams, s, hands[s], high, st, lb)
            rec[REC_BIDS + 2 * nb] = s
            rec[REC_BIDS + 2 * nb + 1] = b
            nb += 1
            if b > 0:
                high = b
                taker = s
    else:
        out = 0
        nout = 0
        s = (dealer + 1) % 4
        while True:
            if not (out >> s) & 1 and s != taker:
                b = 0
                if s != forced_pass:
                    b = choose_bid(hcodes[s], hparams, s, hands[s], high, st, lb)
                if nb < MAX_BIDS:
                    rec[REC_BIDS + 2 * nb] = s
                    rec[REC_BIDS + 2 * nb + 1] = b
                    nb += 1
                if b > 0:
                    high = b
                    taker = s
                else:
                    out |= 1 << s
                    nout += 1
                if nout == 4 or (nout == 3 and taker >= 0):
                    break
            s = (s + 1) % 4
    rec[REC_NBIDS] = nb
    return taker, high


@njit(cache=True, nogil=True, _nrt=False)
def play_tricks(hands, h, taker, t, rules, hcodes, hparams, st, lb, rec,
                base_scores):
    """Rules 10-14: six tricks, the taker leading. Fills tricks, legal masks and
    ``rec[REC_WON..]``. ``base_scores`` (int64[4]) are the game scores before the
    deal, used only by ``end_check = after_each_trick``; a deal outside a game passes ``no_game()``
    (NO_GAME: [0] below -2**40 disables the check).
    ``h`` (uint64[4]) is scratch for the hands in play. Returns the number of tricks played."""
    for i in range(4):
        h[i] = hands[i]
    played = U0
    leader = taker
    for i in range(4):
        rec[REC_WON + i] = 0
    nplay = 0
    contract = rec[REC_CONTRACT]
    for tr in range(6):
        base = REC_TRICKS + 6 * tr
        rec[base] = leader
        led = 0
        win_pow = -1
        win_seat = leader
        taker_played = False
        for k in range(4):
            s = (leader + k) % 4
            if tr == 5:  # the last card: nothing to choose
                lg = h[s]
                c = lowest(lg)
            else:
                lg = legal_mask(h[s], k, led, win_pow, t, rules, lb)
                c = choose_card(hcodes[s], hparams, s, s, h[s], lg, k, led, win_pow, win_seat,
                                taker_played, taker, t, played, st, lb)
            rec[REC_LEGAL + nplay] = np.int64(lg)
            nplay += 1
            rec[base + 1 + k] = c
            played |= U1 << np.uint64(c)
            led, win_pow, win_seat = apply_card(h, s, c, k, led, win_pow, win_seat, t, lb)
            if s == taker:
                taker_played = True
        rec[base + 5] = win_seat
        rec[REC_WON + win_seat] += 1
        leader = win_seat
        if rules[R_END_CHECK] == END_TRICK and base_scores[0] > -(1 << 40):
            # only a player who crosses the target during this deal stops it (one already
            # at the target when it began does not: ties go on as rule 17 says); a taker
            # counts once his contract is made
            ended = False
            for s in range(4):
                if base_scores[s] >= rules[R_TARGET]:
                    continue
                if s == taker and rec[REC_WON + s] < contract:
                    continue
                if base_scores[s] + rec[REC_WON + s] >= rules[R_TARGET]:
                    ended = True
            if ended:
                return tr + 1
    return 6


@njit(cache=True, nogil=True, _nrt=False)
def score_deal(taker, contract, ntricks, rules, rec):
    """Rules 15-16 and 18(c)(d): points and immediate stakes of the deal."""
    for s in range(4):
        rec[REC_SCORE + s] = rec[REC_WON + s]
        rec[REC_STAKES + s] = 0
    if taker < 0:
        rec[REC_MADE] = -1
        return
    won = rec[REC_WON + taker]
    if won >= contract:
        rec[REC_MADE] = 1
        if contract == 6:
            for s in range(4):
                rec[REC_STAKES + s] = 3 if s == taker else -1
    elif ntricks < 6 and contract - won <= 6 - ntricks:
        rec[REC_MADE] = -2  # game ended mid-deal before the contract was decided:
        rec[REC_SCORE + taker] = 0  # neither made nor failed, the taker scores nothing
    else:
        rec[REC_MADE] = 0
        if rules[R_FAILED_KEEPS] != 0:
            rec[REC_SCORE + taker] = won - contract
        else:
            rec[REC_SCORE + taker] = -contract
        if contract == 6:
            for s in range(4):
                rec[REC_STAKES + s] = -3 if s == taker else 1


@njit(cache=True, nogil=True, _nrt=False)
def play_deal(hands, work, dealer, forced_taker, forced_bid, forced_trump, forced_pass, rules,
              hcodes, hparams, st, lb, rec, base_scores):
    """One whole deal. With ``forced_taker >= 0`` the auction is skipped and that
    seat takes ``forced_bid`` with trump ``forced_trump`` (-1 = its heuristic's choice)."""
    rec[REC_DEALER] = dealer
    for s in range(4):
        rec[REC_HANDS + s] = np.int64(hands[s])
    if forced_taker >= 0:
        rec[REC_NBIDS] = 0
        taker = forced_taker
        contract = forced_bid
    else:
        taker, contract = auction(hands, dealer, rules, hcodes, hparams, st, lb, rec,
                                  forced_pass)
    rec[REC_TAKER] = taker
    rec[REC_CONTRACT] = contract
    if taker < 0:
        rec[REC_TRUMP] = -1
        rec[REC_NTRICKS] = 0
        for s in range(4):
            rec[REC_WON + s] = 0
        score_deal(taker, contract, 0, rules, rec)
        return
    if forced_taker >= 0 and forced_trump >= 0:
        t = forced_trump
    else:
        t = choose_trump(hcodes[taker], hparams, taker, hands[taker], st, lb)
    rec[REC_TRUMP] = t
    n = play_tricks(hands, work, taker, t, rules, hcodes, hparams, st, lb, rec,
                    base_scores)
    rec[REC_NTRICKS] = n
    score_deal(taker, contract, n, rules, rec)


@njit(cache=True, nogil=True, _nrt=False)
def deal_random(st, deck, hands):
    """Reset ``deck`` to the sorted 24 cards, shuffle it and give seat k the cards
    deck[6k:6k+6]."""
    m = 0
    for s in range(4):
        for r in range(7, 13):
            deck[m] = s * 16 + r
            m += 1
    shuffle(st, deck, 24)
    for s in range(4):
        m = U0
        for i in range(6):
            m |= U1 << np.uint64(deck[6 * s + i])
        hands[s] = m


NO_GAME = np.array([-(1 << 50), 0, 0, 0], dtype=np.int64)
# Every call of play_deal passes the same argument types (int64 scalars through ``i64``, never
# literal constants; writable arrays, never the read-only module constant NO_GAME): numba compiles
# one specialisation per distinct argument types, so literals and read-only arrays would each
# compile the whole per-deal code again (measured: play_tricks twice, play_deal 7 times, 35 s of a
# cold first run).  ``bench --compile`` shows the entry points' cold cost.
i64 = np.int64
# play_deal's "nothing forced" arguments (pass each through ``i64``):
AUCTION = -1          # forced_taker: nobody is made taker, the auction decides
NO_BID = 0            # forced_bid when the auction decides
HEURISTIC_TRUMP = -1  # forced_trump: the taker's heuristic names trumps
NOBODY = -1           # forced_pass: no seat is made to pass


@njit(cache=True, nogil=True, inline="always")
def no_game():
    """A fresh writable copy of NO_GAME (the deal is not part of a game: no end check)."""
    a = np.zeros(4, np.int64)
    a[0] = NO_GAME[0]
    return a

# ============================================================================
# batch entry points
# ============================================================================
CHUNK = 2048

# sim_deals aggregate layout (int64 vector)
#   [pos 0..3][contract 3..6 -> 0..3][trump 0..4][taker tricks 0..6]  (4*4*5*7 = 560)
#   + all-pass count, + sum of score per position (4), + sum of squared score (4)
AGG_DEALS = 560 + 1 + 8


@njit(cache=True, nogil=True, parallel=True)
def sim_deals(key_deal, key_dec, first, n, rules, hcodes, hparams):
    """Random deals with the auction; dealer = hand_index % 4. Returns int64[AGG_DEALS]."""
    lb = rules[R_LEFT_BOWER_TRUMP]
    nch = (n + CHUNK - 1) // CHUNK
    part = np.zeros((nch, AGG_DEALS), np.int64)
    for ch in prange(nch):
        st = np.zeros(1, np.uint64)
        sd = np.zeros(1, np.uint64)
        deck = np.zeros(24, np.int64)
        hands = np.zeros(4, np.uint64)
        work = np.zeros(4, np.uint64)
        rec = np.zeros(REC_LEN, np.int64)
        nogame = no_game()
        acc = part[ch]
        for i in range(ch * CHUNK, min(n, (ch + 1) * CHUNK)):
            idx = first + i
            seed_state(sd, key_deal, idx)
            seed_state(st, key_dec, idx)
            deal_random(sd, deck, hands)
            dealer = idx % 4
            play_deal(hands, work, dealer, i64(AUCTION), i64(NO_BID), i64(HEURISTIC_TRUMP), i64(NOBODY), rules, hcodes, hparams, st, lb, rec,
                      nogame)
            taker = rec[REC_TAKER]
            if taker < 0:
                acc[560] += 1
            else:
                pos = (taker - dealer - 1) % 4
                j = ((pos * 4 + rec[REC_CONTRACT] - 3) * 5 + rec[REC_TRUMP]) * 7 + rec[REC_WON + taker]
                acc[j] += 1
            for s in range(4):
                pos = (s - dealer - 1) % 4
                sc = rec[REC_SCORE + s]
                acc[561 + pos] += sc
                acc[565 + pos] += sc * sc
    return part.sum(axis=0)


# sim_odds aggregate: [trump 0..4][taker tricks 0..6] (35)
#  + pass scenario: [seat points -6..6 -> 0..12] (13) + [seat stakes -1..3 -> 0..4] (5)
AGG_ODDS = 35 + 13 + 5


@njit(cache=True, nogil=True, parallel=True)
def sim_odds(key_deal, key_dec, first, n, fixed, seat, dealer, rules, hcodes, hparams):
    """Monte Carlo odds of one hand: per deal of the other 18 cards, every trump as a
    forced contract of ``seat`` plus the auction in which ``seat`` passes."""
    lb = rules[R_LEFT_BOWER_TRUMP]
    nch = (n + CHUNK - 1) // CHUNK
    part = np.zeros((nch, AGG_ODDS), np.int64)
    rest0 = np.zeros(18, np.int64)
    k = 0
    m = DECK24 & ~fixed
    while m != U0:
        rest0[k] = lowest(m)
        m &= m - U1
        k += 1
    for ch in prange(nch):
        st = np.zeros(1, np.uint64)
        sd = np.zeros(1, np.uint64)
        rest = np.zeros(18, np.int64)
        hands = np.zeros(4, np.uint64)
        work = np.zeros(4, np.uint64)
        rec = np.zeros(REC_LEN, np.int64)
        nogame = no_game()
        acc = part[ch]
        for i in range(ch * CHUNK, min(n, (ch + 1) * CHUNK)):
            idx = first + i
            seed_state(sd, key_deal, idx)
            rest[:] = rest0
            deal_with_fixed(sd, rest, fixed, seat, hands, i64(6))
            odds_one(hands, work, seat, dealer, rules, hcodes, hparams, st, key_dec, idx,
                     lb, rec, acc, nogame)
    return part.sum(axis=0)


@njit(cache=True, nogil=True, _nrt=False)
def odds_one(hands, work, seat, dealer, rules, hcodes, hparams, st, key_dec, idx, lb, rec, acc, nogame):
    for t in range(5):
        seed_state(st, key_dec, idx)
        play_deal(hands, work, dealer, seat, i64(3), i64(t), i64(NOBODY), rules, hcodes, hparams, st, lb, rec, nogame)
        acc[t * 7 + rec[REC_WON + seat]] += 1
    seed_state(st, key_dec, idx)
    play_deal(hands, work, dealer, i64(AUCTION), i64(NO_BID), i64(HEURISTIC_TRUMP), seat, rules, hcodes, hparams, st, lb, rec, nogame)
    acc[35 + 6 + rec[REC_SCORE + seat]] += 1
    acc[48 + 1 + rec[REC_STAKES + seat]] += 1


@njit(cache=True, nogil=True)
def _combos(nbits, k):
    """All k-subsets of range(nbits) as int bitmasks, in increasing order (Gosper)."""
    cnt = 1
    for i in range(k):
        cnt = cnt * (nbits - i) // (i + 1)
    out = np.zeros(cnt, np.int64)
    x = (1 << k) - 1
    for i in range(cnt):
        out[i] = x
        c = x & -x
        r = x + c
        x = (((r ^ x) >> 2) // c) | r
    return out


@njit(cache=True, nogil=True, parallel=True)
def exact_odds(fixed, seat, dealer, trumps, with_pass, rules, hcodes, hparams):
    """Every layout of the 18 other cards (C(18,6)*C(12,6) = 17,153,136): the same
    aggregate as ``sim_odds`` (trumps not listed in ``trumps`` stay zero)."""
    lb = rules[R_LEFT_BOWER_TRUMP]
    rest = np.zeros(18, np.int64)
    k = 0
    m = DECK24 & ~fixed
    while m != U0:
        rest[k] = lowest(m)
        m &= m - U1
        k += 1
    ca = _combos(18, 6)
    cb = _combos(12, 6)
    na = ca.shape[0]
    nblk = 64
    part = np.zeros((nblk, AGG_ODDS), np.int64)
    others = np.zeros(3, np.int64)
    j = 0
    for s in range(4):
        if s != seat:
            others[j] = s
            j += 1
    for blk in prange(nblk):
        st = np.zeros(1, np.uint64)
        hands = np.zeros(4, np.uint64)
        work = np.zeros(4, np.uint64)
        rec = np.zeros(REC_LEN, np.int64)
        nogame = no_game()
        rest12 = np.zeros(12, np.int64)
        acc = part[blk]
        for a in range(blk, na, nblk):
            ma = U0
            q = 0
            for i in range(18):
                if (ca[a] >> i) & 1:
                    ma |= U1 << np.uint64(rest[i])
                else:
                    rest12[q] = rest[i]
                    q += 1
            for b in range(cb.shape[0]):
                mb = U0
                mc = U0
                for i in range(12):
                    if (cb[b] >> i) & 1:
                        mb |= U1 << np.uint64(rest12[i])
                    else:
                        mc |= U1 << np.uint64(rest12[i])
                hands[seat] = fixed
                hands[others[0]] = ma
                hands[others[1]] = mb
                hands[others[2]] = mc
                for ti in range(trumps.shape[0]):
                    t = trumps[ti]
                    play_deal(hands, work, dealer, seat, i64(3), i64(t), i64(NOBODY), rules, hcodes, hparams, st, lb, rec,
                              nogame)
                    acc[t * 7 + rec[REC_WON + seat]] += 1
                if with_pass:
                    play_deal(hands, work, dealer, i64(AUCTION), i64(NO_BID), i64(HEURISTIC_TRUMP), seat, rules, hcodes, hparams, st, lb,
                              rec, nogame)
                    acc[35 + 6 + rec[REC_SCORE + seat]] += 1
                    acc[48 + 1 + rec[REC_STAKES + seat]] += 1
    return part.sum(axis=0)


# sim_classes aggregate: [trumps 0..7][bowers 0..2][side aces 0..4][taker tricks 0..6]
AGG_CLASSES = 8 * 3 * 5 * 7


@njit(cache=True, nogil=True, _nrt=False)
def hand_class(hand, t, lb):
    ntr = 0
    nbow = 0
    aces = 0
    m = hand
    while m != U0:
        c = lowest(m)
        m &= m - U1
        p = POWER[lb, t, c]
        if p >= 64:
            ntr += 1
            if p >= 64 + 19:
                nbow += 1
        elif (c & 15) == 12:
            aces += 1
    return ntr, nbow, aces


@njit(cache=True, nogil=True, parallel=True)
def sim_classes(key_deal, key_dec, first, n, rules, hcodes, hparams):
    """Random deals; the first to speak takes the contract in the trump its heuristic
    prefers; counts its tricks by hand class (trump count, bowers, side aces)."""
    lb = rules[R_LEFT_BOWER_TRUMP]
    nch = (n + CHUNK - 1) // CHUNK
    part = np.zeros((nch, AGG_CLASSES), np.int64)
    for ch in prange(nch):
        st = np.zeros(1, np.uint64)
        sd = np.zeros(1, np.uint64)
        deck = np.zeros(24, np.int64)
        hands = np.zeros(4, np.uint64)
        work = np.zeros(4, np.uint64)
        rec = np.zeros(REC_LEN, np.int64)
        nogame = no_game()
        acc = part[ch]
        for i in range(ch * CHUNK, min(n, (ch + 1) * CHUNK)):
            idx = first + i
            seed_state(sd, key_deal, idx)
            seed_state(st, key_dec, idx)
            deal_random(sd, deck, hands)
            dealer = i64(3)
            play_deal(hands, work, dealer, i64(0), i64(3), i64(HEURISTIC_TRUMP), i64(NOBODY), rules, hcodes, hparams, st, lb, rec,
                      nogame)
            t = rec[REC_TRUMP]
            if t == NT:
                continue
            ntr, nbow, aces = hand_class(hands[0], t, lb)
            acc[((ntr * 3 + nbow) * 5 + aces) * 7 + rec[REC_WON]] += 1
    return part.sum(axis=0)


# sim_games aggregate per game: [stakes per seat (4)], [wins per seat (4)],
# [sum stakes^2 per seat (4)], deals played, abandoned games, boxes per seat (4)
AGG_GAMES = 4 + 4 + 4 + 1 + 1 + 4
MAX_DEALS_PER_GAME = 1000
LOG_SCORES = REC_LEN
LOG_BOXES = REC_LEN + 4
LOG_STAKES = REC_LEN + 8
LOG_WINNERS = REC_LEN + 12
LOG_W = REC_LEN + 13


@njit(cache=True, nogil=True, _nrt=False)
def sa_thresholds(pstar, cal, scores, dealer, s, target, hpw):
    """Score-aware bidding (analysis/equity/saware.py): write into ``hpw[s, P_SA_BIN + b - 3]`` the lowest
    estimate bin whose chance of making ``b`` (``cal`` float64[SA_NBINS, 4], non-decreasing in the bin, the
    seat's calibration) reaches the success probability ``pstar`` asks of bid ``b`` at the game's scores and
    dealer (``pstar`` float32[L^4, 4, 4]: canonical state of the equity table, the seat relative to the dealer,
    the bid; scores outside the table's grid count as its floor or ceiling)."""
    L = target + 5 - SA_FLOOR + 1
    idx = 0
    for r in range(4):
        v = scores[(dealer + 1 + r) % 4]
        if v < SA_FLOOR:
            v = SA_FLOOR
        elif v > target + 5:
            v = target + 5
        idx = idx * L + v - SA_FLOOR
    rel = (s - dealer + 3) % 4
    for b in range(4):
        p = np.float64(pstar[idx, rel, b])
        lo = 0
        hi = SA_NBINS
        while lo < hi:
            mid = (lo + hi) // 2
            if cal[mid, b] >= p:
                hi = mid
            else:
                lo = mid + 1
        hpw[s, P_SA_BIN + b] = lo


@njit(cache=True, nogil=True, _nrt=False)
def play_game(sd, st, rules, hcodes, hparams, lb, rec, deck, hands, work,
              out_stakes, out_boxes, scores, boxes, log, do_log, start, dealer0, pstar, cal, hpw):
    """Rules 17-18: deals from the scores ``start`` (int64[4]) with ``dealer0`` dealing first, no box made
    yet, until a winner; returns (winner mask bits, deals played), winner mask 0 when abandoned after
    MAX_DEALS_PER_GAME deals. ``scores`` and ``boxes`` (int64[4]) are scratch. With ``do_log`` row j of
    ``log`` (int64[MAX_DEALS_PER_GAME, LOG_W]) receives deal j's record followed by the scores, boxes and
    stakes after it and the winner mask (LOG_* offsets).  Score-aware seats (``P_SCORE_AWARE``): before
    each deal their bid bins are written into ``hpw`` (scratch, the shape of ``hparams``, which the deals
    are played with) from ``pstar`` (float32[2, L^4, 4, 4]: criterion ``P_SCORE_AWARE`` - 1, 0 by P(win), 1 by
    money, then ``sa_thresholds``' p*) and their ``cal`` rows (float64[4, SA_NBINS, 4])."""
    sa = False
    for s in range(4):
        out_stakes[s] = 0
        scores[s] = start[s]
        boxes[s] = 0
        for j in range(hparams.shape[1]):
            hpw[s, j] = hparams[s, j]
        if hparams[s, P_SCORE_AWARE] > 0.5:
            sa = True
    target = rules[R_TARGET]
    ndeals = 0
    dealer = dealer0
    while ndeals < MAX_DEALS_PER_GAME:
        deal_random(sd, deck, hands)
        if sa:
            for s in range(4):
                if hparams[s, P_SCORE_AWARE] > 0.5:
                    crit = int(hparams[s, P_SCORE_AWARE] + 0.5) - 1
                    sa_thresholds(pstar[crit], cal[s], scores, dealer, s, target, hpw)
        # the game scores are read only under end_check=after_each_trick (play_tricks)
        play_deal(hands, work, dealer, i64(AUCTION), i64(NO_BID), i64(HEURISTIC_TRUMP), i64(NOBODY), rules, hcodes, hpw, st, lb, rec, scores)
        ndeals += 1
        taker = rec[REC_TAKER]
        for s in range(4):
            scores[s] += rec[REC_SCORE + s]
            out_stakes[s] += rec[REC_STAKES + s]
        if taker >= 0 and rec[REC_MADE] == 0:
            if rec[REC_CONTRACT] < 6 or rules[R_FAILED_B_IS_BOX] != 0:
                boxes[taker] += 1
        if do_log:
            row = ndeals - 1
            for j in range(REC_LEN):
                log[row, j] = rec[j]
            for s in range(4):
                log[row, LOG_SCORES + s] = scores[s]
                log[row, LOG_BOXES + s] = boxes[s]
        top = -(1 << 40)
        for s in range(4):
            if scores[s] > top:
                top = scores[s]
        if top >= target:
            winners = 0
            nw = 0
            for s in range(4):
                if scores[s] == top:
                    winners |= 1 << s
                    nw += 1
            if nw > 1:
                tb = rules[R_TIE_BREAK]
                if tb == TIE_PLAY_ON:
                    winners = 0
                elif tb == TIE_TAKER:
                    if taker >= 0 and (winners >> taker) & 1:
                        winners = 1 << taker
                        nw = 1
                    else:
                        winners = 0
            if winners != 0:
                settle(winners, boxes, rules, out_stakes)
                for s in range(4):
                    out_boxes[s] = boxes[s]
                if do_log:
                    log[ndeals - 1, LOG_WINNERS] = winners
                    for s in range(4):
                        log[ndeals - 1, LOG_STAKES + s] = out_stakes[s]
                return winners, ndeals
        dealer = (dealer + 1) % 4
    for s in range(4):
        out_boxes[s] = boxes[s]
    return 0, ndeals


def no_score_aware():
    """``play_game``'s score-aware arguments when no seat is score-aware: (pstar, cal), never read."""
    return np.zeros((2, 1, 4, 4), np.float32), np.zeros((4, SA_NBINS, 4))


@njit(cache=True, nogil=True, _nrt=False)
def settle(winners, boxes, rules, stakes):
    """Rule 18(a)(b): each co-winner collects 1 from each non-winner plus 1 per box
    of that player; with ``winner_pays_own_boxes`` a winner pays 1 per own box to
    each non-winner."""
    for w in range(4):
        if not (winners >> w) & 1:
            continue
        for o in range(4):
            if (winners >> o) & 1:
                continue
            amt = 1 + boxes[o]
            if rules[R_WINNER_PAYS_OWN] != 0:
                amt -= boxes[w]
            stakes[w] += amt
            stakes[o] -= amt


@njit(cache=True, nogil=True, parallel=True)
def sim_games(key_deal, key_dec, first, n, rules, hcodes, hparams, pstar, cal):
    """Whole games to the target (seat 0 deals first; ``pstar``, ``cal``: ``play_game``'s score-aware
    arguments, ``no_score_aware()`` when no seat is). Returns int64[AGG_GAMES]."""
    lb = rules[R_LEFT_BOWER_TRUMP]
    nch = (n + 63) // 64
    part = np.zeros((nch, AGG_GAMES), np.int64)
    for ch in prange(nch):
        st = np.zeros(1, np.uint64)
        sd = np.zeros(1, np.uint64)
        deck = np.zeros(24, np.int64)
        hands = np.zeros(4, np.uint64)
        work = np.zeros(4, np.uint64)
        rec = np.zeros(REC_LEN, np.int64)
        nogame = no_game()
        stakes = np.zeros(4, np.int64)
        boxes = np.zeros(4, np.int64)
        sc_tmp = np.zeros(4, np.int64)
        bx_tmp = np.zeros(4, np.int64)
        nolog = np.zeros((1, LOG_W), np.int64)
        start = np.zeros(4, np.int64)
        hpw = np.zeros(hparams.shape)
        acc = part[ch]
        for i in range(ch * 64, min(n, (ch + 1) * 64)):
            idx = first + i
            seed_state(sd, key_deal, idx)
            seed_state(st, key_dec, idx)
            winners, nd = play_game(sd, st, rules, hcodes, hparams, lb,
                                    rec, deck, hands, work, stakes, boxes, sc_tmp, bx_tmp, nolog, False, start,
                                    i64(0), pstar, cal, hpw)
            acc[12] += nd
            if winners == 0:
                acc[13] += 1
                continue
            for s in range(4):
                acc[s] += stakes[s]
                acc[8 + s] += stakes[s] * stakes[s]
                if (winners >> s) & 1:
                    acc[4 + s] += 1
                acc[14 + s] += boxes[s]
    return part.sum(axis=0)


@njit(cache=True, nogil=True)
def trace_game(key_deal, key_dec, g, rules, hcodes, hparams):
    """Game ``g`` exactly as ``sim_games`` plays it: (log rows of its deals, winner mask)."""
    lb = rules[R_LEFT_BOWER_TRUMP]
    st = np.zeros(1, np.uint64)
    sd = np.zeros(1, np.uint64)
    deck = np.zeros(24, np.int64)
    hands = np.zeros(4, np.uint64)
    work = np.zeros(4, np.uint64)
    rec = np.zeros(REC_LEN, np.int64)
    nogame = no_game()
    stakes = np.zeros(4, np.int64)
    boxes = np.zeros(4, np.int64)
    sc_tmp = np.zeros(4, np.int64)
    bx_tmp = np.zeros(4, np.int64)
    log = np.zeros((MAX_DEALS_PER_GAME, LOG_W), np.int64)
    start = np.zeros(4, np.int64)
    hpw = np.zeros(hparams.shape)
    pstar = np.zeros((2, 1, 4, 4), np.float32)   # trace refuses score-aware seats (analysis/boulmous/config.no_pimc)
    cal = np.zeros((4, SA_NBINS, 4))
    seed_state(sd, key_deal, g)
    seed_state(st, key_dec, g)
    winners, nd = play_game(sd, st, rules, hcodes, hparams, lb, rec, deck, hands, work, stakes, boxes,
                            sc_tmp, bx_tmp, log, True, start, i64(0), pstar, cal, hpw)
    return log[:nd].copy(), winners


@njit(cache=True, nogil=True)
def trace_deals(key_deal, key_dec, first, n, rules, hcodes, hparams):
    """The records of hands first..first+n-1 exactly as ``sim_deals`` plays them."""
    lb = rules[R_LEFT_BOWER_TRUMP]
    out = np.zeros((n, REC_LEN), np.int64)
    st = np.zeros(1, np.uint64)
    sd = np.zeros(1, np.uint64)
    deck = np.zeros(24, np.int64)
    hands = np.zeros(4, np.uint64)
    work = np.zeros(4, np.uint64)
    nogame = no_game()
    for i in range(n):
        idx = first + i
        seed_state(sd, key_deal, idx)
        seed_state(st, key_dec, idx)
        deal_random(sd, deck, hands)
        play_deal(hands, work, idx % 4, i64(AUCTION), i64(NO_BID), i64(HEURISTIC_TRUMP), i64(NOBODY), rules, hcodes, hparams, st, lb, out[i],
                  nogame)
    return out


# sim_duplicate aggregate (analysis/compare.py, ``design``): the seatings ``seat_ids`` come in
# ``nround`` rounds of k rows; round c = rows c*k .. c*k+k-1 puts every entrant in every seat
# once.  Deal idx plays the k seatings of round c = (idx // 4) % nround on the same cards
# (dealer idx % 4, so every round meets every dealer equally often).  Layout:
#   [n_c (nround)] then per metric (points, stakes):
#     per round c: S_c (k), Q_c (k*k), P_c (k*k);  then M (nround*k rows x k)
# X_h(d) = sum over the deal's k playouts and seats s with seat_ids[r, s] == h of the metric;
# Y_h(d, r) = the same sum for one playout r; S_c = sum_d X_h, Q_c[a, b] = sum_d X_a X_b,
# P_c[a, b] = sum_{d, r} Y_a Y_b over the deals of round c, M[r, h] = sum_d Y_h(d, r)
# (P and M measure what a design without replays, one playout per deal, would face).
@njit(cache=True, nogil=True, parallel=True)
def sim_duplicate(key_deal, key_dec, first, n, rules, seat_codes, seat_params, seat_ids, k, nround):
    """Duplicate tournament: every deal is replayed once per seating of its round (row of
    ``seat_codes``/``seat_params``/``seat_ids`` = heuristic code, parameters and entrant
    of each seat) with the same cards; playout j of deal idx draws its decisions from
    ``seed_state(seed_state(key_dec, idx), j)``."""
    lb = rules[R_LEFT_BOWER_TRUMP]
    kk = k * k
    per_round = k + 2 * kk
    wm = nround * per_round + nround * k * k
    width = nround + 2 * wm
    nch = (n + CHUNK - 1) // CHUNK
    part = np.zeros((nch, width), np.int64)
    for ch in prange(nch):
        st = np.zeros(1, np.uint64)
        sd = np.zeros(1, np.uint64)
        deck = np.zeros(24, np.int64)
        hands = np.zeros(4, np.uint64)
        work = np.zeros(4, np.uint64)
        rec = np.zeros(REC_LEN, np.int64)
        nogame = no_game()
        xp = np.zeros(k, np.int64)
        xs = np.zeros(k, np.int64)
        yp = np.zeros(k, np.int64)
        ys = np.zeros(k, np.int64)
        acc = part[ch]
        for i in range(ch * CHUNK, min(n, (ch + 1) * CHUNK)):
            idx = first + i
            seed_state(sd, key_deal, idx)
            deal_random(sd, deck, hands)
            dealer = idx % 4
            c = (idx // 4) % nround
            acc[c] += 1
            o0 = nround + c * per_round           # points block of round c
            o1 = o0 + wm                          # stakes block of round c
            m0 = nround + nround * per_round      # points M
            m1 = m0 + wm                          # stakes M
            xp[:] = 0
            xs[:] = 0
            for j in range(k):
                r = c * k + j
                # the same cards for every seating; a fresh decision stream per playout, so
                # that two random heuristics are independent draws of the same player
                seed_state(st, key_dec, idx)
                seed_state(st, st[0], j)
                play_deal(hands, work, dealer, i64(AUCTION), i64(NO_BID), i64(HEURISTIC_TRUMP), i64(NOBODY), rules, seat_codes[r],
                          seat_params[r], st, lb, rec, nogame)
                yp[:] = 0
                ys[:] = 0
                for s in range(4):
                    h = seat_ids[r, s]
                    yp[h] += rec[REC_SCORE + s]
                    ys[h] += rec[REC_STAKES + s]
                for a in range(k):
                    xp[a] += yp[a]
                    xs[a] += ys[a]
                    acc[m0 + r * k + a] += yp[a]
                    acc[m1 + r * k + a] += ys[a]
                add_outer(acc, o0 + k + kk, yp, k)   # per playout (P of the block)
                add_outer(acc, o1 + k + kk, ys, k)
            add_sum_outer(acc, o0, xp, k)              # per deal (S and Q of the block)
            add_sum_outer(acc, o1, xs, k)
    return part.sum(axis=0)
