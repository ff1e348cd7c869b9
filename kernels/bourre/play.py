"""One Bourre deal: ``play_dealt`` (the declarations, the draw and the five tricks, kernels/bourre/draw.py and
the players of kernels/bourre/players.py, with the sampling player of kernels/bourre/pimc.py when a seat is
``H_PIMC``), its settlement (``settle``), the antes of the next deal and the seat nets."""
import numpy as np
from numba import njit

from ..cards import SUIT_MASK, U0, U1, highest, lowest, popcount
# the sampling player: ``play_dealt`` calls ``_pimc.pimc_card`` / ``_pimc.pimc_decide`` for an H_PIMC seat
from . import pimc as _pimc
from .draw import declare, draw_declared, must_play, seat_order
from .players import H_EV, H_PIMC, P_DECIDE, choose_card, choose_lono, decide
from .rules import (ALLPASS_DEALER_WINS, CINCH_AKQ, CINCH_HOYLE, CINCH_PAGAT, LONO_MAX_RANK, MAXP, OUT_CARRY,
                    OUT_LONE, OUT_TIE, OUT_WIN, OVF, R_ALL_PASS, R_CINCH_LAST_EXEMPT, R_CINCH_RULE,
                    R_DEALER_ANTES_ALL, R_DECLARE_THEN_DRAW, R_DOUBLE_ANTE, R_LO_NO, R_PENALTY, R_POT_LIMIT, R_TIE,
                    R_TRUMP_CARD, REC_ACTIVE, REC_ANTE2, REC_ANTES, REC_BOURRE, REC_BPAID, REC_CINCH, REC_DEAL,
                    REC_HANDS, REC_LEGAL, REC_LONO, REC_NACTIVE, REC_NDEC, REC_NRESHUF, REC_NTRICKS, REC_OUTCOME,
                    REC_POT_AFTER, REC_POT_STAKE, REC_POT_WON, REC_TIED, REC_TRICKS, REC_TRUMP, REC_UP_OUT,
                    REC_UPCARD, REC_WINNER, REC_WON, TIE_DIVIDE, TIE_TIED_ONLY, TRUMP_SEPARATE, bitc, legal_cards,
                    max_discard, tmask)


@njit(cache=True, nogil=True, _nrt=False)
def play_dealt(sd, st, players, dealer, inmask, pot, upcard, m, ante_amt, rules, hcodes, hparams, evt, evrow, hands,
               pool, rec, fseat, fmode, fdisc, uw, iw, pimc=None, xo=None):
    """Rules 4-15 on dealt hands: Lo-No call, pass/play and draw, the lone player,
    five tricks, settlement.  ``pot`` = the pot after this deal's antes.  Forced
    decision for the odds study and ev's training: seat ``fseat`` passes (fmode 0) or
    plays and discards ``fdisc`` (fmode 1); fmode -1 = its heuristic decides.
    ``evt`` the ev tables (float64[rows, EV_LEN], kernels/bourre/players.py; None when no seat is ev: then numba
    prunes ev's decisions, as ``pimc``'s), ``evrow`` int64[players] the row of each seat's (read only for an ev
    seat).  Scratch: ``uw`` uint64[UW_LEN], ``iw`` int64[IW_LEN] (no allocation
    per deal).
    Fills rec; returns False when a chip amount would pass OVF (overflow).  ``pimc`` None (omitted): no seat is the
    sampling player, and numba prunes its branches, so the kernels that never seat it (pot, tail, ev training)
    do not compile it (minutes cold); True where a pimc seat may sit (compare, trace, odds).  ``xo`` (trace
    --explain; with ``pimc``): the sampling player's reasons, ``xo[rec[REC_DEAL_IDX]]`` (kernels/explain.py)."""
    sep = rules[R_TRUMP_CARD] == TRUMP_SEPARATE
    trump = upcard >> 4
    lono = False
    if rules[R_LO_NO] != 0 and not sep and (upcard & 15) <= LONO_MAX_RANK:
        lono = choose_lono(hcodes[dealer], hparams, dealer, upcard, st)
    if lono:
        trump = -1
    rec[REC_UPCARD] = upcard
    rec[REC_TRUMP] = trump
    rec[REC_LONO] = 1 if lono else 0
    rec[REC_NRESHUF] = 0
    for s in range(MAXP):
        rec[REC_DEAL + s] = np.int64(hands[s])
        rec[REC_ANTE2 + s] = 0
        rec[REC_HANDS + s] = 0
        rec[REC_WON + s] = 0
        rec[REC_POT_WON + s] = 0
        rec[REC_BPAID + s] = 0
    known_out = bitc(upcard) if sep else U0   # a separate turn-up is seen by all
    up_in_dealer = not sep
    # declaration order: the in-deal seats from the dealer's left, dealer last (iw[16:24])
    k = seat_order(players, dealer, inmask, iw)
    limit = max_discard(players, rules)
    table_ante = max(1, ante_amt) * players
    uw[0] = U0          # folded hands not yet gathered
    uw[1] = U0          # discards not yet gathered
    akqm = U0
    if trump >= 0:
        akqm = np.uint64(0x1C00) << np.uint64(16 * trump)     # Q K A of trumps
    # int64 from the start, not the literal 0: numba types a call while the loop's variables are still literals, and
    # would compile pimc_decide (and the sampling player's callees) once more for them
    active = np.int64(0)
    nplay = np.int64(0)
    declare_first = rules[R_DECLARE_THEN_DRAW] != 0
    a2 = ante_amt if rules[R_DOUBLE_ANTE] != 0 else 0
    order = iw[16:24]
    for i in range(k):
        s = order[i]
        is_dealer = s == dealer
        h = hands[s]
        if s == fseat and fmode >= 0 and not (is_dealer and nplay == 0 and rules[R_ALL_PASS] == ALLPASS_DEALER_WINS):
            play = fmode >= 1
            disc = fdisc
            if must_play(is_dealer, lono, sep, upcard):
                play = True
        elif (pimc is not None and hcodes[s] == H_PIMC and hparams[s, P_DECIDE] > 0.5
              and not (is_dealer and nplay == 0 and rules[R_ALL_PASS] == ALLPASS_DEALER_WINS)):
            play, disc = _pimc.pimc_decide(rec, s, i, k, order, dealer, h, active, nplay, pot, a2, known_out,
                                           up_in_dealer, trump, lono, sep, upcard, limit, table_ante, ante_amt, rules,
                                           hparams, st, uw, iw, xo)
        elif is_dealer and nplay == 0 and rules[R_ALL_PASS] == ALLPASS_DEALER_WINS:
            play, disc = True, U0    # after all passed he plays (rule 7), keeping his cards: he wins alone (rule 6)
        else:
            # the seat's heuristic (ev: with its table, row evrow[s] of evt), called here and not through a wrapper:
            # numba's inline="always" copies the whole expanded decision at each level it is inlined through
            play, disc = decide(hcodes[s], hparams, s, evt, evrow[s], h, trump, upcard, is_dealer, lono, limit,
                                known_out, i, k, nplay, pot, table_ante, ante_amt, rules, st)
            if must_play(is_dealer, lono, sep, upcard):
                play = True
        ok, m, pot, active, nplay, known_out, up_in_dealer = declare(sd, pool, m, hands, s, i, play, disc, is_dealer,
                                                                     nplay, active, pot, a2, known_out, up_in_dealer,
                                                                     declare_first, sep, upcard, lono, uw, rules, rec)
        if not ok:
            return False
    if declare_first and nplay >= 2:
        m, known_out, up_in_dealer = draw_declared(sd, pool, m, hands, order, k, active, dealer, sep, upcard, known_out,
                                                   up_in_dealer, uw, rules, rec)
    rec[REC_NDEC] = k
    rec[REC_ACTIVE] = active
    rec[REC_NACTIVE] = nplay
    rec[REC_POT_STAKE] = pot
    rec[REC_UP_OUT] = 1 if (not sep and not up_in_dealer) else 0
    for s in range(MAXP):
        if (active >> s) & 1:
            rec[REC_HANDS + s] = np.int64(hands[s])
    rec[REC_NTRICKS] = 0
    rec[REC_TIED] = 0
    rec[REC_BOURRE] = 0
    rec[REC_WINNER] = -1
    lim = rules[R_POT_LIMIT]
    take = pot if (lim <= 0 or pot <= lim) else lim
    if nplay == 0:
        rec[REC_OUTCOME] = OUT_CARRY
        rec[REC_POT_AFTER] = pot
        return True
    if nplay == 1:
        w = lowest(np.uint64(active))
        rec[REC_OUTCOME] = OUT_LONE
        rec[REC_WINNER] = w
        rec[REC_POT_WON + w] = take
        rec[REC_POT_AFTER] = pot - take
        return True
    # ---- the play (rules 8-11); iw[0:8] = next active seat ----
    first = -1
    prev = -1
    for i in range(k):
        s = iw[16 + i]
        if (active >> s) & 1:
            if first < 0:
                first = s
            else:
                iw[prev] = s
            prev = s
    iw[prev] = first
    leader = dealer if lono else first
    na = nplay
    # the rules' per-deal constants of legal_cards, read once a deal: the cinch rule, the trump suit's mask and the
    # seats that hold A-K-Q of trumps (bits) as play begins
    crule = rules[R_CINCH_RULE]
    T = tmask(trump)
    akq = np.int64(0)
    if crule == CINCH_AKQ and trump >= 0:
        for s in range(MAXP):
            if (active >> s) & 1 and (hands[s] & akqm) == akqm:
                akq |= 1 << s
    played = U0
    nlg = np.int64(0)         # int64 from the start (pimc_card's arguments: one compiled form)
    for t in range(5):
        base = REC_TRICKS + 10 * t
        rec[base] = leader
        for q in range(na, 8):
            rec[base + 1 + q] = -1
        ls = np.int64(-1)
        win_card = np.int64(-1)
        win_seat = leader
        s = leader
        for kpos in range(na):
            h = hands[s]
            lg, cinch_applied = legal_cards(hands, s, kpos, na, active, rec[REC_WON + s], played, known_out, trump, T,
                                            crule, lono, rules, (akq >> s) & 1, upcard if (lono and t == 0) else -1,
                                            ls, win_card)
            if pimc is not None and hcodes[s] == H_PIMC and (lg & (lg - U1)) != U0:
                c = _pimc.pimc_card(rec, s, h, lg, t, kpos, ls, win_card, win_seat, trump, lono, played, known_out,
                                    players, dealer, upcard, sep, pot, ante_amt, rules, hparams, nlg, st, uw, iw, xo)
            else:
                c = choose_card(hcodes[s], hparams, s, h, lg, kpos, na, ls, win_card, trump, lono, played,
                                rec[REC_WON + s], st)
            rec[REC_LEGAL + nlg] = np.int64(lg)
            rec[REC_CINCH + nlg] = cinch_applied
            nlg += 1
            rec[base + 1 + kpos] = c
            b = bitc(c)
            hands[s] = h & ~b
            played |= b
            if kpos == 0:
                ls = c >> 4
                win_card = c
                win_seat = s
            else:
                cs = c >> 4
                wt = trump >= 0 and (win_card >> 4) == trump
                if trump >= 0 and cs == trump:
                    if not wt or c > win_card:
                        win_card = c
                        win_seat = s
                elif cs == ls and not wt:
                    if (c < win_card) if lono else (c > win_card):
                        win_card = c
                        win_seat = s
            s = iw[s]
        rec[base + 9] = win_seat
        rec[REC_WON + win_seat] += 1
        leader = win_seat
    rec[REC_NTRICKS] = 5
    return settle(pot, active, rec, rules)


@njit(cache=True, nogil=True, inline="always")
def refuse_ev_without_table(codes, evt):
    """Raise when a seat of ``codes`` (any shape) is ``ev`` and the ev tables ``evt`` hold no row (None, or a
    (0, EV_LEN) array): None compiles the kernel without ev (``decide``), and an empty array has no row to read."""
    if evt is not None:
        if evt.shape[0] > 0:
            return
    for c in codes.ravel():
        if c == H_EV:
            raise ValueError("a seat is ev: pass its table in the ev tables (analysis/bourre/ev.py ev_tables)")


@njit(cache=True, nogil=True)
def refuse_pimc_seats(codes):
    """Raise when a seat of ``codes`` (any shape) is the sampling player: a batch kernel called without its
    ``pimc`` argument (omitted or None) is compiled without the sampling player and would play such a seat as
    basic."""
    for c in codes.ravel():
        if c == H_PIMC:
            raise ValueError("a seat is the sampling player (pimc): pass the kernel's pimc argument (True)")


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def settle(pot, active, rec, rules):
    """Rules 12-15 after five tricks: ``pot`` = the pot at stake (carry-over + antes +
    second antes), ``active`` = mask of the players who played, tricks in rec[REC_WON..].
    Fills outcome, winner, tied, pot_won, bourre payments and pot_after; returns False
    when the pot would pass OVF."""
    lim = rules[R_POT_LIMIT]
    take = pot if (lim <= 0 or pot <= lim) else lim
    best = -1
    for s in range(MAXP):
        if (active >> s) & 1 and rec[REC_WON + s] > best:
            best = rec[REC_WON + s]
    tied = 0
    nt = 0
    for s in range(MAXP):
        rec[REC_POT_WON + s] = 0
        rec[REC_BPAID + s] = 0
        if (active >> s) & 1 and rec[REC_WON + s] == best:
            tied |= 1 << s
            nt += 1
    after = pot
    rec[REC_TIED] = 0
    rec[REC_WINNER] = -1
    if nt == 1:
        w = lowest(np.uint64(tied))
        rec[REC_OUTCOME] = OUT_WIN
        rec[REC_WINNER] = w
        rec[REC_POT_WON + w] = take
        after -= take
    else:
        rec[REC_OUTCOME] = OUT_TIE
        rec[REC_TIED] = tied
        if rules[R_TIE] == TIE_DIVIDE:
            share = take // nt
            for s in range(MAXP):
                if (tied >> s) & 1:
                    rec[REC_POT_WON + s] = share
                    after -= share
    pen = rules[R_PENALTY]
    pay = take if pen < 0 else pen
    bmask = 0
    for s in range(MAXP):
        if (active >> s) & 1 and rec[REC_WON + s] == 0:
            bmask |= 1 << s
            rec[REC_BPAID + s] = pay
            if pay > OVF - after:
                return False
            after += pay
    rec[REC_BOURRE] = bmask
    rec[REC_POT_AFTER] = after
    return True


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def post_antes(players, inmask, exempt, dealer, amt, rules, rec):
    """Rule 2: everyone antes ``amt`` except the exempt seats (bourre or tied in the
    previous deal); the dealer pays them all with dealer_antes_for_all; nobody antes a
    tied_only_next_hand deal (``inmask`` not everyone).  Fills rec[REC_ANTES..];
    returns the chips added to the pot."""
    owed = 0
    for s in range(MAXP):
        rec[REC_ANTES + s] = 0
    if inmask == (1 << players) - 1:
        for s in range(players):
            if not (exempt >> s) & 1:
                owed += 1
                if rules[R_DEALER_ANTES_ALL] == 0:
                    rec[REC_ANTES + s] = amt
        if rules[R_DEALER_ANTES_ALL] != 0:
            rec[REC_ANTES + dealer] = amt * owed
    return amt * owed


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def next_deal(players, rec, rules):
    """Rules 2(a)(b), 13: (exempt mask, in-deal mask) of the next deal after this record.
    The tied players' exemption holds while the pot stays in the middle; a divided pot
    is paid out (divide_equally), so they ante like everyone else."""
    exempt = rec[REC_BOURRE]
    inmask = (1 << players) - 1
    if rec[REC_OUTCOME] == OUT_TIE:
        if rules[R_TIE] != TIE_DIVIDE:
            exempt |= rec[REC_TIED]
        if rules[R_TIE] == TIE_TIED_ONLY:
            inmask = rec[REC_TIED]
    return exempt, inmask


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def add_net(nets, s, x):
    """nets[s] += x unless it would pass +-OVF (then False)."""
    v = nets[s]
    if x > 0 and v > OVF - x:
        return False
    if x < 0 and v < -OVF - x:
        return False
    nets[s] = v + x
    return True
