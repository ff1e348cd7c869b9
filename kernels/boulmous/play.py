"""One Boulmous deal: the auction, the tricks, the score (``play_deal``), with the sampling player
(kernels/boulmous/pimc.py) in the seats whose code is ``H_PIMC`` when the kernel is given its ``pimc`` argument.
The deal itself (``deal_random``, ``deal_rest``) is in kernels/boulmous/dealing.py, re-exported here."""
import numpy as np
from numba import njit

from ..cards import U0, U1, lowest
# the sampling player: ``play_deal`` calls ``_pimc.pimc_calls`` / ``_pimc.pimc_choose`` for an H_PIMC seat
from . import pimc as _pimc
from .dealing import _rest_of, deal_random, deal_rest  # noqa: F401 (re-exported)
from .players import (H_CAUTIOUS, H_PIMC, NO_SA, P_BID, P_INFER, P_RACE, P_SHARE_TT, P_WORLDS, choose_bid,
                      choose_card, choose_trump)
from .rules import (AUCTION_SINGLE, END_TRICK, MAX_BIDS, R_AUCTION, R_END_CHECK, R_FAILED_KEEPS, R_TARGET, REC_BIDS,
                    REC_CONTRACT, REC_DEALER, REC_HANDS, REC_LEGAL, REC_MADE, REC_NBIDS, REC_NTRICKS, REC_SCORE,
                    REC_STAKES, REC_TAKER, REC_TRICKS, REC_TRUMP, REC_WON, apply_card, legal_mask)
from .solver import TT_BITS, _workspace

# ============================================================================
# the sampling player's seat: its scratch and its bids
# ============================================================================
# ``pimc`` argument of play_deal (None: no seat is the sampling player, and numba prunes every branch that
# reads it, so the kernels that never seat it do not compile it): the tuple ``pimc_scratch(key)`` gives, one
# per thread: (its random key, the deal's index for its streams (int64[1], set before each deal), the solver's
# workspace, the cards played (int64[24]), the call values (int64[5, 5]), per seat its bid for each lowest
# legal bid then its trump for each bid (int64[4, 8]), the codes the auction sees (int64[4]), the sampling player's
# counters (int64[pimc.N_STATS], summed over the thread's deals: decisions, worlds, draws, rejections, fallbacks)).
PS_KEY, PS_DEAL, PS_WS, PS_PLAYED, PS_SUMS, PS_CALLS, PS_BCODES, PS_STATS = range(8)


@njit(cache=True, nogil=True)
def pimc_scratch(key):
    """One thread's ``pimc`` argument for the sampling player's random ``key`` (a kernel calls it only when given
    a key: under ``if pimc is not None``, which numba prunes when it is not)."""
    return (key, np.zeros(1, np.int64), _workspace(TT_BITS), np.zeros(24, np.int64), np.zeros((5, 5), np.int64),
            np.zeros((4, 8), np.int64), np.zeros(4, np.int64), np.zeros(_pimc.N_STATS, np.int64))


# The sampling player allocates its worlds: its calls go through functions compiled with numba's reference counting
# (``_nrt=True``, stated, since a callee inherits ``_nrt=False`` from the deal's functions, which keep it off)
@njit(cache=True, nogil=True, _nrt=True)
def pimc_before_auction(hands, rules, hcodes, hparams, pimc, rec, first):
    """Before the auction: a sampling seat that bids by sampling (``P_BID`` = 1) computes its calls
    (``pimc_calls``: its bid for each lowest legal bid, its trump for each bid); one with ``P_BID`` = 0
    bids and names trumps as ``H_CAUTIOUS`` with its own parameters.  Fills the codes the auction sees.
    A seat with ``infer`` = 1 other than ``first`` (the first to speak; -1 when there is no auction) computes its
    calls at its turn instead (``pimc_bid``), after the calls it heard: the table made here would go unused."""
    bcodes = pimc[PS_BCODES]
    calls = pimc[PS_CALLS]
    for s in range(4):
        bcodes[s] = hcodes[s]
        if hcodes[s] == H_PIMC:
            if hparams[s, P_BID] > 0.5:
                if hparams[s, P_INFER] > 0.5 and first >= 0 and s != first:
                    continue
                _pimc.pimc_calls(np.int64(s), hands[s], rules, np.int64(hparams[s, P_WORLDS]), pimc[PS_KEY],
                                 pimc[PS_DEAL][0], pimc[PS_WS], pimc[PS_SUMS], calls[s, 0:4], calls[s, 4:8],
                                 (rec, hparams, pimc[PS_STATS]), np.int64(0))
            else:
                bcodes[s] = H_CAUTIOUS


@njit(cache=True, nogil=True, _nrt=True)
def pimc_bid(pimc, s, high, hand, rules, hparams, rec, nb):
    """A sampling seat's bid over ``high`` after the ``nb`` calls of ``rec[REC_BIDS..]``: with ``infer`` = 1 and
    ``nb`` > 0 its calls are computed now, from worlds that make the calls heard (``pimc_calls`` given them);
    otherwise they are the ones computed before the auction."""
    if nb > 0 and hparams[s, P_INFER] > 0.5:
        calls = pimc[PS_CALLS]
        _pimc.pimc_calls(np.int64(s), hand, rules, np.int64(hparams[s, P_WORLDS]), pimc[PS_KEY], pimc[PS_DEAL][0],
                         pimc[PS_WS], pimc[PS_SUMS], calls[s, 0:4], calls[s, 4:8], (rec, hparams, pimc[PS_STATS]),
                         np.int64(nb))
    return sampled_bid(pimc, s, high)


@njit(cache=True, nogil=True, _nrt=True)
def pimc_card(s, hand, taker, t, contract, rules, hparams, nplay, pimc, rec):
    """The card a sampling seat ``s`` plays (``pimc_choose``: ``P_WORLDS`` worlds, race margin ``P_RACE``, goal:
    the contract first, then the taker's tricks, the solver's table shared with ``P_SHARE_TT`` = 1), from the cards
    played so far in its scratch and the calls heard in ``rec`` (its worlds make them with ``infer`` = 1)."""
    return _pimc.pimc_choose(s, hand, pimc[PS_PLAYED], nplay, taker, t, contract, rules,
                             np.int64(hparams[s, P_WORLDS]), _pimc.GOAL_CONTRACT, pimc[PS_KEY], pimc[PS_DEAL][0],
                             pimc[PS_WS], hparams[s, P_RACE], (rec, hparams, pimc[PS_STATS]),
                             np.int64(hparams[s, P_SHARE_TT]))


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def sampled_bid(pimc, s, high):
    """A sampling seat's bid over ``high``, from its calls computed before the auction."""
    lo = 3 if high < 3 else high + 1
    if lo > 6:
        return 0
    return pimc[PS_CALLS][s, lo - 3]


# ============================================================================
# one deal
# ============================================================================
@njit(cache=True, nogil=True, _nrt=False)
def auction(hands, dealer, rules, hcodes, hparams, st, lb, rec, forced_pass, sab=None, pimc=None):
    """Rule 4-6. Returns (taker, contract); taker -1 when all pass.
    ``forced_pass`` = a seat that must pass (-1 for none).  ``sab``: the score-aware bins of a whole game
    (``play_game``), None outside one; ``pimc``: the sampling player's scratch (``hcodes`` then the codes the
    auction sees, ``pimc_before_auction``), None when no seat is one."""
    high = 0
    taker = -1
    nb = 0
    if rules[R_AUCTION] == AUCTION_SINGLE:
        for k in range(4):
            s = (dealer + 1 + k) % 4
            b = 0
            if s != forced_pass:
                if pimc is not None and hcodes[s] == H_PIMC:
                    b = pimc_bid(pimc, s, high, hands[s], rules, hparams, rec, nb)
                elif sab is not None:
                    b = choose_bid(hcodes[s], hparams, s, hands[s], high, st, lb, sab[s])
                else:
                    b = choose_bid(hcodes[s], hparams, s, hands[s], high, st, lb, NO_SA)
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
                    if pimc is not None and hcodes[s] == H_PIMC:
                        b = pimc_bid(pimc, s, high, hands[s], rules, hparams, rec, nb)
                    elif sab is not None:
                        b = choose_bid(hcodes[s], hparams, s, hands[s], high, st, lb, sab[s])
                    else:
                        b = choose_bid(hcodes[s], hparams, s, hands[s], high, st, lb, NO_SA)
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
                base_scores, pimc=None):
    """Rules 10-14: six tricks, the taker leading. Fills tricks, legal masks and
    ``rec[REC_WON..]``. ``base_scores`` (int64[4]) are the game scores before the
    deal, used only by ``end_check = after_each_trick``; a deal outside a game passes ``no_game()``
    (NO_GAME: [0] below -2**40 disables the check).
    ``h`` (uint64[4]) is scratch for the hands in play. Returns the number of tricks played.
    With ``pimc`` (``pimc_scratch``) an ``H_PIMC`` seat plays by ``pimc_choose`` (``P_WORLDS`` worlds, race
    margin ``P_RACE``, goal: the contract first, then the taker's tricks)."""
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
                if pimc is not None and hcodes[s] == H_PIMC:
                    c = pimc_card(s, h[s], taker, t, contract, rules, hparams, nplay, pimc, rec)
                else:
                    c = choose_card(hcodes[s], hparams, s, s, h[s], lg, k, led, win_pow, win_seat,
                                    taker_played, taker, t, played, st, lb)
            rec[REC_LEGAL + nplay] = np.int64(lg)
            if pimc is not None:
                pimc[PS_PLAYED][nplay] = c
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


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def six_stakes(s, taker, contract, made):
    """Rule 18(c)(d): seat ``s``'s immediate stakes of a decided contract (``made``: the taker made it): a bid of 6
    pays the taker 3 from each other seat when made, and the taker pays each 1 when failed; a lower bid pays none."""
    if contract != 6:
        return 0
    if s == taker:
        return 3 if made else -3
    return -1 if made else 1


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
        for s in range(4):
            rec[REC_STAKES + s] = six_stakes(s, taker, contract, True)
    elif ntricks < 6 and contract - won <= 6 - ntricks:
        rec[REC_MADE] = -2  # game ended mid-deal before the contract was decided:
        rec[REC_SCORE + taker] = 0  # neither made nor failed, the taker scores nothing
    else:
        rec[REC_MADE] = 0
        if rules[R_FAILED_KEEPS] != 0:
            rec[REC_SCORE + taker] = won - contract
        else:
            rec[REC_SCORE + taker] = -contract
        for s in range(4):
            rec[REC_STAKES + s] = six_stakes(s, taker, contract, False)


@njit(cache=True, nogil=True, _nrt=False)
def play_deal(hands, work, dealer, forced_taker, forced_bid, forced_trump, forced_pass, rules,
              hcodes, hparams, st, lb, rec, base_scores, sab=None, pimc=None):
    """One whole deal. With ``forced_taker >= 0`` the auction is skipped and that
    seat takes ``forced_bid`` with trump ``forced_trump`` (-1 = its heuristic's choice).
    ``sab`` (int64[4, 4]): score-aware bidding's bins in a whole game (``play_game``), None outside one.
    ``pimc`` (``pimc_scratch``, its deal index set): ``H_PIMC`` seats bid, name trumps and play by sampling;
    None (omitted) when no seat is the sampling player."""
    rec[REC_DEALER] = dealer
    for s in range(4):
        rec[REC_HANDS + s] = np.int64(hands[s])
    if pimc is not None:
        pimc_before_auction(hands, rules, hcodes, hparams, pimc, rec, (dealer + 1) % 4 if forced_taker < 0 else -1)
    if forced_taker >= 0:
        rec[REC_NBIDS] = 0
        taker = forced_taker
        contract = forced_bid
    elif pimc is not None:
        taker, contract = auction(hands, dealer, rules, pimc[PS_BCODES], hparams, st, lb, rec, forced_pass, sab,
                                  pimc)
    else:
        taker, contract = auction(hands, dealer, rules, hcodes, hparams, st, lb, rec, forced_pass, sab)
    rec[REC_TAKER] = taker
    rec[REC_CONTRACT] = contract
    if taker < 0:
        rec[REC_TRUMP] = -1
        rec[REC_NTRICKS] = 0
        for s in range(4):
            rec[REC_WON + s] = 0
        score_deal(taker, contract, np.int64(0), rules, rec)   # int64, as below: one compiled form
        return
    if forced_taker >= 0 and forced_trump >= 0:
        t = forced_trump
    elif pimc is not None and pimc[PS_BCODES][taker] == H_PIMC:
        t = pimc[PS_CALLS][taker, 4 + contract - 3]
    elif pimc is not None:
        t = choose_trump(pimc[PS_BCODES][taker], hparams, taker, hands[taker], st, lb)
    else:
        t = choose_trump(hcodes[taker], hparams, taker, hands[taker], st, lb)
    rec[REC_TRUMP] = t
    n = play_tricks(hands, work, taker, t, rules, hcodes, hparams, st, lb, rec,
                    base_scores, pimc)
    rec[REC_NTRICKS] = n
    score_deal(taker, contract, n, rules, rec)


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
