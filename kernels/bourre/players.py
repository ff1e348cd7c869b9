"""Bourre players: the heuristic codes ``H_*``, the declaration of their parameters (``PARAMS``, columns
``P_*``), the expected-value player's table layout (its tables travel as their own argument, not in the
parameter matrix), and every heuristic decision (Lo-No, ante, play or pass, discards, the card to play).

The sampling player (``H_PIMC``) lives in kernels/bourre/pimc.py; its other decisions are basic's, here."""
import numpy as np
from numba import njit

from ..cards import DECK52, SUIT_MASK, U0, highest, lowest, nth_card, popcount
from ..rng import below, uniform
from .rules import (ACES, HIGH4, KINGS, LOW01, LOW23, R_ANTE, R_DEALER_ANTES_ALL, R_DOUBLE_ANTE, R_PENALTY,
                    R_POT_LIMIT, R_TIE, RANK_FIELD, TIE_CARRY, above_in_suit, better_in_suit, bitc, max_rank_card,
                    min_rank_card, sure_tricks, tmask)

# ---- heuristics -------------------------------------------------------------
H_RANDOM, H_BASIC, H_CINCH, H_EV = 0, 1, 2, 3
H_PIMC = 4   # the sampling player: plays cards (and, with decide > 0, decides play/pass and discards) by
# kernels/bourre/pimc.py; its other decisions as basic

# ---- heuristic parameters: the one declaration ---------------------------------
# (name, default, lowest, highest, help).  A parameter's column of ``hparams`` (float64[players, N_PARAMS]) is its
# place here, and the decisions read it through the ``P_<NAME>`` constant below; analysis/bourre/config.py
# builds the heuristics' parameters from this table (a heuristic may take other defaults; ev's training settings,
# which the kernels never read, are declared there, without a column).
PARAMS = (
    ("threshold", 2.0, -5, 10, "play when the strength estimate reaches this (lower = looser)"),
    ("trump_weight", 0.55, 0, 2, "strength per trump"),
    ("trump_rank_weight", 0.6, 0, 2, "extra strength per trump x rank/12 (2 = 0, A = 1)"),
    ("ace_weight", 0.7, 0, 2, "strength per side ace (Lo-No: per 2 or 3)"),
    ("king_weight", 0.25, 0, 2, "strength per side king (Lo-No: per 4 or 5)"),
    ("draw_weight", 0.1, 0, 1, "strength per card it would draw"),
    ("pot_weight", 0.0, -2, 2, "threshold += this x log2(pot / (players x ante))"),
    ("position_weight", -0.3, -3, 3, "threshold += this x position (0 = dealer's left .. 1 = dealer)"),
    ("declared_weight", 0.25, -2, 2, "threshold += this per player who already declared play"),
    ("keep_kings", 0, 0, 1, "1: keep side kings when discarding (else only trumps and aces)"),
    ("bourre_guard", 1, 0, 1, "1: with no trick yet, take a trick with its strongest winning card"),
    ("sure_weight", 0.5, 0, 2, "extra strength per sure trick (rule 11 matching); 3 sure tricks always play"),
    ("ante_mult", 1, 1, 100, "dealer_sets_ante: the dealer sets ante x this (random: 1..this)"),
    ("lono_rank", 2, 0, 5, "lo_no: the dealer calls Lo-No on an up-card of rank index <= this (0 = a 2)"),
    ("play_prob", 0.5, 0, 1, "chance of playing"),
    ("lono_prob", 0.5, 0, 1, "chance the dealer calls Lo-No when allowed"),
    # ev: how many cards to draw, 1 = by expected chips (``ev_best``), 0 = basic's discard; the standard errors
    # another draw must gain over basic's
    ("draw", 0, 0, 1, "1: draw the number of cards (0..the limit, keeping the strongest) of the highest expected "
                      "chips; 0 (default, measured as good): basic's discard"),
    ("draw_z", 1.0, 0, 5, "a draw other than basic's must gain this many standard errors (of the table's estimates) "
                          "over it"),
    # pimc (kernels/bourre/pimc.py)
    ("worlds", 256, 1, 4096, "layouts of the unseen cards sampled per card played (an integer)"),
    ("race", 0.1, 0, 1, "stop sampling once one card's mean leads every other's by more than this x the value range "
                        "(0 = off)"),
    ("eval", 1, 0, 1, "how a world scores a card: 1 = the paranoid open-hand solver (the seat against all the "
                      "others: surely wins / surely a trick / can be held to bourre, then its sure tricks); 0 = the "
                      "rest of the deal played out as basic plays, for chips"),
    ("decide", 1, 0, 2, "play/pass and discards: 1 (default) = by sampling (pass, and play discarding the weakest "
                        "0..limit cards, scored on the same deals consistent with the earlier players' choices, by "
                        "playouts of basic players); 2 = the same over every discard within the limit; 0 = basic's "
                        "(an integer)"),
    ("infer", 0, 0, 1, "1: the card play's worlds also agree with every other player's play/pass and number of cards "
                       "drawn, under the model of basic with pimc's parameters; 0 (default): they ignore the "
                       "declarations (an integer)"),
    ("share_tt", 1, 0, 1, "1 (default): the open-hand solver's table kept across the worlds and candidates of a card "
                          "decision (the same decisions, fewer positions searched); 0: each world solved from an empty "
                          "table (an integer)"),
)
COLUMN = {p[0]: i for i, p in enumerate(PARAMS)}
N_PARAMS = len(PARAMS)
P_THRESHOLD, P_TRUMP_WEIGHT = COLUMN["threshold"], COLUMN["trump_weight"]
P_TRUMP_RANK_WEIGHT = COLUMN["trump_rank_weight"]
P_ACE_WEIGHT, P_KING_WEIGHT, P_DRAW_WEIGHT = COLUMN["ace_weight"], COLUMN["king_weight"], COLUMN["draw_weight"]
P_POT_WEIGHT, P_POSITION_WEIGHT = COLUMN["pot_weight"], COLUMN["position_weight"]
P_DECLARED_WEIGHT, P_KEEP_KINGS = COLUMN["declared_weight"], COLUMN["keep_kings"]
P_BOURRE_GUARD = COLUMN["bourre_guard"]
P_SURE_WEIGHT, P_ANTE_MULT, P_LONO_RANK = COLUMN["sure_weight"], COLUMN["ante_mult"], COLUMN["lono_rank"]
P_PLAY_PROB, P_LONO_PROB = COLUMN["play_prob"], COLUMN["lono_prob"]
P_DRAW, P_DRAW_Z = COLUMN["draw"], COLUMN["draw_z"]
P_WORLDS, P_RACE, P_EVAL, P_DECIDE = COLUMN["worlds"], COLUMN["race"], COLUMN["eval"], COLUMN["decide"]
P_INFER, P_SHARE_TT = COLUMN["infer"], COLUMN["share_tt"]

# ---- the expected-value player (H_EV): its probability table --------------
# The play/pass decision and the draw of ``ev`` read P(win), P(tie), P(bourre) of playing from a
# table indexed by a hand class: the class of the cards it keeps (``ev_kept_class``: trumps kept
# 0..5, its highest trump none / 2-9 / T-J / Q-K / A, side aces 0..2+, side kings 0..1+, other side
# cards 0..3+; under Lo-No 2-3s, 4-5s and the rest; the cards drawn are 5 minus those kept),
# players who declared play before it (0..3+), position (first half, second half, dealer), pot /
# (players x ante) (<2, <4, <8, 8+).  For every draw count d the rules allow, ``ev_best`` keeps its
# 5 - d strongest cards (``ev_discard``) and reads the class; it plays the d of the highest
# expected chips when they are positive.  The table is data computed by tricksim
# (analysis/bourre/ev.py, fictitious play with ``sim_ev_train``); it travels as its own kernel argument, the ev
# tables ``evt`` (float64[rows, EV_LEN], one row per ev seat or entrant, None when no seat plays ev
# (``decide`` then compiles without ev; a (0, EV_LEN) array is accepted too); ``play_dealt`` reads seat s's row ``evrow[s]``), never in the parameter matrix: EV_W per cell (p_win,
# p_tie, p_bourre, samples; p_win < 0 = no data: that draw is not weighed, and with no draw weighed the
# threshold rule of ``basic`` decides).
EV_NT, EV_NTT, EV_NA, EV_NK, EV_NO = 6, 5, 3, 2, 4
EV_NKC = EV_NT * EV_NTT * EV_NA * EV_NK * EV_NO
EV_NNP, EV_NPOS, EV_NPOT = 4, 3, 4
EV_CELLS = EV_NKC * EV_NNP * EV_NPOS * EV_NPOT
EV_W = 4
EV_LEN = EV_W * EV_CELLS
# training counts per cell (sim_ev_train): samples of playing, won, tied, bourre, decision
# points met in play, of which played
EV_STATS = 6
EV_SAMP, EV_WIN, EV_TIE, EV_BOU, EV_DEC, EV_PLAYED = range(6)


# ============================================================================
# heuristics
# ============================================================================
@njit(cache=True, nogil=True, inline="always", _nrt=False)
def choose_discard(code, hp, me, hand, trump, upcard, is_dealer, lono, limit, st):
    """Cards to discard (rule 4). Keep trumps and aces (and kings with keep_kings),
    draw the rest, at most ``limit`` (the lowest are thrown first)."""
    if limit <= 0:
        return U0
    keepable = hand
    if lono and is_dealer and upcard >= 0:
        keepable = hand & ~bitc(upcard)     # the Lo-No up-card must be led: never discarded
    if code == H_RANDOM:
        d = below(st, limit + 1)
        rem = keepable
        out = U0
        for _ in range(d):
            k = popcount(rem)
            if k == 0:
                break
            c = nth_card(rem, below(st, k))
            out |= bitc(c)
            rem ^= bitc(c)
        return out
    if lono:
        # Lo-No: low cards win; keep 2..5
        disc = keepable & HIGH4
        while popcount(disc) > limit:
            disc ^= bitc(min_rank_card(disc))
        return disc
    keep = tmask(trump) | ACES
    if hp[me, P_KEEP_KINGS] > 0.5:
        keep |= KINGS
    disc = keepable & ~keep
    while popcount(disc) > limit:
        disc ^= bitc(max_rank_card(disc))   # keep the best of the rest
    return disc


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def estimate(hp, me, hand, trump, lono, ndisc):
    """Heuristic hand strength (roughly: expected tricks) before the draw."""
    if lono:
        v = hp[me, P_ACE_WEIGHT] * popcount(hand & LOW01) + hp[me, P_KING_WEIGHT] * popcount(hand & LOW23)
        return v + hp[me, P_DRAW_WEIGHT] * ndisc
    T = tmask(trump)
    side = hand & ~T
    v = hp[me, P_ACE_WEIGHT] * popcount(side & ACES) + hp[me, P_KING_WEIGHT] * popcount(side & KINGS)
    if trump >= 0:
        tf = (hand >> np.uint64(16 * trump)) & RANK_FIELD
        # sum of the trumps' rank indices, branch-free: bit j of every index, weighted 2**j
        rs = (popcount(tf & np.uint64(0x0AAA)) + 2 * popcount(tf & np.uint64(0x0CCC))
              + 4 * popcount(tf & np.uint64(0x10F0)) + 8 * popcount(tf & np.uint64(0x1F00)))
        v += hp[me, P_TRUMP_WEIGHT] * popcount(tf) + hp[me, P_TRUMP_RANK_WEIGHT] * rs * (1.0 / 12.0)
    return v + hp[me, P_DRAW_WEIGHT] * ndisc


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def choose_play(code, hp, me, hand, trump, lono, known_out, pos, k, nplay_before, pot, table_ante, disc, st):
    """Play (True) or pass: a strength estimate against a threshold that moves with the
    pot size, the position and how many have already declared play."""
    if code == H_RANDOM:
        return uniform(st) < hp[me, P_PLAY_PROB]
    if pos == k - 1 and nplay_before == 0:
        return True          # the dealer after all passed: a lone player wins the pot (rule 6)
    est = estimate(hp, me, hand, trump, lono, popcount(disc))
    if code == H_CINCH and trump >= 0 and not lono:
        T = SUIT_MASK[trump]
        O = T & ~hand & ~known_out
        sure = sure_tricks(hand & T, O, trump, 0)
        if sure >= 3:
            return True
        est += hp[me, P_SURE_WEIGHT] * sure
    thr = hp[me, P_THRESHOLD] + hp[me, P_DECLARED_WEIGHT] * nplay_before
    if k > 1:
        thr += hp[me, P_POSITION_WEIGHT] * pos / (k - 1.0)
    if hp[me, P_POT_WEIGHT] != 0.0 and pot > 0 and table_ante > 0:
        thr += hp[me, P_POT_WEIGHT] * np.log2(pot / table_ante)
    return est >= thr


@njit(cache=True, nogil=True, _nrt=False)
def ev_kept_class(kept, trump, lono):
    """The class of the cards ev keeps (0..EV_NKC-1): trumps 0..5, the highest trump (0 none,
    1 2-9, 2 T-J, 3 Q-K, 4 A), side aces 0..2+, side kings 0..1+, other side cards 0..3+;
    under Lo-No (no trumps) 2-3s count as aces, 4-5s as kings."""
    nt = 0
    tt = 0
    if lono:
        na = popcount(kept & LOW01)
        nk = popcount(kept & LOW23)
        no = popcount(kept) - na - nk
    else:
        T = tmask(trump)
        tf = kept & T
        nt = popcount(tf)
        if nt > 0:
            r = highest(tf) & 15
            tt = 4 if r == 12 else (3 if r >= 10 else (2 if r >= 8 else 1))
        side = kept & ~T
        na = popcount(side & ACES)
        nk = popcount(side & KINGS)
        no = popcount(side) - na - nk
    if na >= EV_NA:
        na = EV_NA - 1
    if nk >= EV_NK:
        nk = EV_NK - 1
    if no >= EV_NO:
        no = EV_NO - 1
    return (((nt * EV_NTT + tt) * EV_NA + na) * EV_NK + nk) * EV_NO + no


@njit(cache=True, nogil=True, _nrt=False)
def ev_cell(kc, pos, k, nplay_before, pot, table_ante):
    """The hand class of an ev decision (the table's cell): the kept cards' class
    (``ev_kept_class``), players who declared play before it (0..3+), position (first half,
    second half, dealer) and the pot over the table's antes (<2, <4, <8, 8+)."""
    npb = nplay_before if nplay_before < EV_NNP else EV_NNP - 1
    if pos == k - 1:
        pb = 2
    elif 2 * pos < k - 1:
        pb = 0
    else:
        pb = 1
    pt = 0
    lim = 2 * table_ante
    while pt < EV_NPOT - 1 and pot >= lim:
        pt += 1
        lim *= 2
    return ((kc * EV_NNP + npb) * EV_NPOS + pb) * EV_NPOT + pt


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def strongest_card(m, trump, lono):
    """ev's order of a hand: its strongest card (non-empty m): the highest trump, else the
    highest card (ties: lowest suit); under Lo-No the lowest card."""
    if lono:
        return min_rank_card(m)
    t = m & tmask(trump)
    if t != U0:
        return max_rank_card(t)
    return max_rank_card(m)


@njit(cache=True, nogil=True, _nrt=False)
def ev_discard(hand, trump, upcard, is_dealer, lono, d):
    """Discard d cards, keeping the strongest (``strongest_card``); the Lo-No dealer never
    discards the up-card (rule 18), so fewer when d exceeds what he may throw.  For d up to
    the number ``basic`` throws this is exactly ``basic``'s discard."""
    keepable = hand
    if lono and is_dealer and upcard >= 0:
        keepable = hand & ~bitc(upcard)
    disc = keepable
    while popcount(disc) > d:
        disc ^= bitc(strongest_card(disc, trump, lono))
    return disc


@njit(cache=True, nogil=True, _nrt=False)
def ev_gain(pw, pt, pb, pot, ante_amt, rules):
    """Expected chips of playing minus those of passing (0: a passer loses only his ante,
    already paid), given P(win), P(tie), P(bourre) of playing: the winner takes the pot (at
    most the limit, rule 15); a tie carries the pot over and saves the tied player his next
    ante (rule 13; divide_equally / tied_only_next_hand: half the pot, the common 2-2-1 tie);
    a bourre pays the pot (or the fixed penalty, rule 14) less the next ante it replaces
    (rule 2a); double_ante: playing costs the second ante, which the winner takes back."""
    lim = rules[R_POT_LIMIT]
    take = pot if (lim <= 0 or pot <= lim) else lim
    pen = rules[R_PENALTY]
    pay = take if pen < 0 else pen
    save = rules[R_ANTE] if rules[R_DEALER_ANTES_ALL] == 0 else 0
    tv = save if rules[R_TIE] == TIE_CARRY else take * 0.5
    a2 = ante_amt if rules[R_DOUBLE_ANTE] != 0 else 0
    return pw * (take + a2) + pt * tv - pb * (pay - save) - a2


@njit(cache=True, nogil=True, _nrt=False)
def ev_gain_var(pw, pt, pb, pot, ante_amt, rules):
    """The variance of one playing's chips (what ``ev_gain`` averages): won, tied, bourre or
    lost with tricks."""
    lim = rules[R_POT_LIMIT]
    take = pot if (lim <= 0 or pot <= lim) else lim
    pen = rules[R_PENALTY]
    pay = take if pen < 0 else pen
    save = rules[R_ANTE] if rules[R_DEALER_ANTES_ALL] == 0 else 0
    tv = save if rules[R_TIE] == TIE_CARRY else take * 0.5
    a2 = ante_amt if rules[R_DOUBLE_ANTE] != 0 else 0
    m1 = ev_gain(pw, pt, pb, pot, ante_amt, rules)
    pl = 1.0 - pw - pt - pb
    m2 = pw * take * take + pt * (tv - a2) ** 2 + pb * (pay - save + a2) ** 2 + pl * a2 * a2
    v = m2 - m1 * m1
    return v if v > 0.0 else 0.0


@njit(cache=True, nogil=True, _nrt=False)
def ev_best(hp, me, evt, er, hand, trump, upcard, is_dealer, lono, limit, pos, k, nplay_before, pot, table_ante,
            ante_amt, bdisc, rules):
    """ev's best draw from its table: for every draw count d = 0..the limit (``max_discard``,
    the cards it may throw), keep the 5 - d strongest cards, read the class of (kept cards,
    ...) in its table (row ``er`` of the ev tables ``evt``) and its expected chips (``ev_gain``).  The table's estimates are noisy and the best of
    several noisy estimates is biased upwards, so a draw other than basic's (``bdisc``, itself
    the discard of some d) is scored by its expected chips less ``draw_z`` standard errors of
    its difference from basic's; the highest score wins.  With ``draw`` = 0 only basic's
    discard is weighed.  Returns (the chosen draw's expected chips, its discard, its cell);
    cell -1 = no class with data (the caller decides as basic)."""
    z = hp[me, P_DRAW_Z]
    # basic's draw: the reference
    cb = ev_cell(ev_kept_class(hand & ~bdisc, trump, lono), pos, k, nplay_before, pot, table_ante)
    ob = EV_W * cb
    best_g = 0.0
    best_s = 0.0
    best_d = U0
    best_c = np.int64(-1)
    ref_v = -1.0
    if evt[er, ob] >= 0.0:
        best_g = ev_gain(evt[er, ob], evt[er, ob + 1], evt[er, ob + 2], pot, ante_amt, rules)
        best_s = best_g
        best_d = bdisc
        best_c = cb
        ref_v = ev_gain_var(evt[er, ob], evt[er, ob + 1], evt[er, ob + 2], pot, ante_amt, rules) / evt[er, ob + 3]
    if hp[me, P_DRAW] < 0.5:
        return best_g, best_d, best_c
    for d in range(limit + 1):
        disc = ev_discard(hand, trump, upcard, is_dealer, lono, d)
        if popcount(disc) < d:
            break                    # the Lo-No dealer may throw no more
        if disc == bdisc:
            continue
        c = ev_cell(ev_kept_class(hand & ~disc, trump, lono), pos, k, nplay_before, pot, table_ante)
        o = EV_W * c
        pw = evt[er, o]
        if pw < 0.0:
            continue
        g = ev_gain(pw, evt[er, o + 1], evt[er, o + 2], pot, ante_amt, rules)
        sc = g
        if ref_v >= 0.0:
            sc = g - z * np.sqrt(ref_v + ev_gain_var(pw, evt[er, o + 1], evt[er, o + 2], pot, ante_amt, rules)
                                 / evt[er, o + 3])
        if best_c < 0 or sc > best_s:
            best_s = sc
            best_g = g
            best_d = disc
            best_c = c
    return best_g, best_d, best_c


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def decide_heuristic(code, hp, me, hand, trump, upcard, is_dealer, lono, limit, known_out, pos, k, nplay_before, pot,
                     table_ante, ante_amt, st):
    """The discard and play/pass decision, (play, discard), of every heuristic that reads no table:
    ``choose_discard`` then ``choose_play`` (ev's decision without data, ``decide_ev``, is basic's)."""
    disc = choose_discard(code, hp, me, hand, trump, upcard, is_dealer, lono, limit, st)
    play = choose_play(code, hp, me, hand, trump, lono, known_out, pos, k, nplay_before, pot, table_ante, disc, st)
    return play, disc


@njit(cache=True, nogil=True, _nrt=False)
def decide_ev(hp, me, evt, er, hand, trump, upcard, is_dealer, lono, limit, known_out, pos, k, nplay_before, pot,
              table_ante, ante_amt, rules, st):
    """ev's discard and play/pass decision, (play, discard): the draw and the decision of the highest expected
    chips (``ev_best`` on row ``er`` of the ev tables ``evt``: it plays when they are positive, with the discard
    they were computed for); a class without data and the dealer after all passed decide as ``basic``.
    Compiled once and called, not inlined: the table's search stays off the path of the other heuristics'
    decisions in ``play_dealt``."""
    disc = choose_discard(H_EV, hp, me, hand, trump, upcard, is_dealer, lono, limit, st)
    if not (pos == k - 1 and nplay_before == 0):
        g, d2, c = ev_best(hp, me, evt, er, hand, trump, upcard, is_dealer, lono, limit, pos, k, nplay_before, pot,
                           table_ante, ante_amt, disc, rules)
        if c >= 0:
            return g > 0.0, d2
    play = choose_play(H_BASIC, hp, me, hand, trump, lono, known_out, pos, k, nplay_before, pot, table_ante, disc,
                       st)
    return play, disc


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def decide(code, hp, me, evt, er, hand, trump, upcard, is_dealer, lono, limit, known_out, pos, k, nplay_before, pot,
           table_ante, ante_amt, rules, st):
    """Every heuristic's discard and play/pass decision, (play, discard): ev's from its table (row ``er`` of
    ``evt``, ``decide_ev``), the others' as ``decide_heuristic``.  ``evt`` None: no seat is ev, and numba prunes
    ev's branch (the kernels of a table without ev do not compile ev's table search, nor test for it per decision)."""
    if evt is not None and code == H_EV:
        return decide_ev(hp, me, evt, er, hand, trump, upcard, is_dealer, lono, limit, known_out, pos, k,
                         nplay_before, pot, table_ante, ante_amt, rules, st)
    # decide_heuristic's two calls, written out: numba's inline="always" deep-copies a callee's whole expanded IR at
    # every level it is inlined through (cost: its blocks times its variables), and this one level less is a second
    # less of every cold compile of play_dealt
    disc = choose_discard(code, hp, me, hand, trump, upcard, is_dealer, lono, limit, st)
    play = choose_play(code, hp, me, hand, trump, lono, known_out, pos, k, nplay_before, pot, table_ante, disc, st)
    return play, disc


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def choose_card(code, hp, me, hand, legal, kpos, na, ls, win_card, trump, lono, played, won_s, st):
    """The card a seat plays among ``legal`` (the rules force much of it)."""
    if popcount(legal) == 1:
        return lowest(legal)
    if code == H_RANDOM:
        return nth_card(legal, below(st, popcount(legal)))
    T = tmask(trump)
    unseen = DECK52 & ~hand & ~played
    if kpos == 0:
        mytr = legal & T
        if mytr != U0:
            ht = highest(mytr)
            if (unseen & above_in_suit(ht)) == U0:
                return ht                      # boss trump: draw trumps
        side = legal & ~T
        if side != U0:
            for s in range(4):
                f = side & SUIT_MASK[s]
                if f == U0:
                    continue
                c = lowest(f) if lono else highest(f)
                if (unseen & better_in_suit(c, lono)) == U0:
                    return c                   # a boss side card
            if lono:
                return max_rank_card(side)
            return min_rank_card(side)
        return lowest(mytr)
    # following: the cards that would take the trick now
    win_is_trump = trump >= 0 and (win_card >> 4) == trump
    if win_is_trump:
        W = legal & T & above_in_suit(win_card)
    else:
        W = legal & better_in_suit(win_card, lono)
        if trump >= 0 and ls != trump:
            W |= legal & T
    if W == U0:
        side = legal & ~T
        if side != U0:
            if lono:
                return max_rank_card(side)
            return min_rank_card(side)
        return lowest(legal)
    # W lies in one suit (the suit led, or trumps)
    if kpos == na - 1:
        return highest(W) if lono else lowest(W)
    behind = na - 1 - kpos
    m = W
    while m != U0:
        c = highest(m) if lono else lowest(m)
        m ^= bitc(c)
        cs = c >> 4
        if (unseen & better_in_suit(c, lono)) != U0:
            continue
        if cs != trump and trump >= 0 and (unseen & T) != U0:
            if popcount(unseen & SUIT_MASK[cs]) < behind:
                continue                       # someone behind may be void and trump it
        return c
    if won_s == 0 and hp[me, P_BOURRE_GUARD] > 0.5:
        return lowest(W) if lono else highest(W)
    return highest(W) if lono else lowest(W)


@njit(cache=True, nogil=True, _nrt=False)
def choose_ante(code, hp, me, ante, st):
    """rule 2 'dealer_sets_ante': the dealer's ante for the deal."""
    mult = max(1, np.int64(hp[me, P_ANTE_MULT] + 0.5))
    if code == H_RANDOM:
        return ante * (1 + below(st, mult))
    return ante * mult


@njit(cache=True, nogil=True, _nrt=False)
def choose_lono(code, hp, me, upcard, st):
    if code == H_RANDOM:
        return uniform(st) < hp[me, P_LONO_PROB]
    return (upcard & 15) <= hp[me, P_LONO_RANK]
