"""The Bourre sampling player (PIMC, issue 12 item 3): ``pimc_card`` chooses a seat's card by sampling layouts of
the unseen cards and scoring every legal card in each; ``pimc_decide`` its play/pass and discard over whole deals.

A seat ``H_PIMC`` makes its Lo-No and ante decisions as ``basic`` with its own parameters; ``play_dealt`` calls
``pimc_card`` when it has two or more legal cards, and ``pimc_decide`` for its play/pass and discard when ``decide``
> 0 (else they are basic's).

**Worlds.** What the seat knows at its turn: its own hand, every card played (by whom), the cards known out to
all (a separate turn-up, the dealer's folded or discarded up-card), the up-card while the dealer still holds it,
its own discards (out of play unless the stock was reshuffled, rule 5: then they may be back in a hand), how many
cards each active player holds, and what the rules made each player reveal. A world gives every other active
player that many unseen cards, uniformly among the layouts in which every card played so far was legal (rules 10
and 11, ``rules.legal_play``). Sampling is exact rejection sampling:

- the *proposal*: the constraints that rule 10 reveals card by card (``_forbid``: voids, no trump, nothing
  above the winning card, as the rule flags make them) give each player a set of cards it may hold; the
  players in turn draw their cards uniformly from what is left of their set; the layout is kept with probability
  prod C(a_q, n_q) / C(b_q, n_q) (a_q = the cards of its set still left when player q drew, b_q = all of its
  set), which makes every layout within the sets equally likely;
- the *check*: the deal so far is replayed from the start of play with the world's hands and the layout is
  kept only if every card played was legal (this adds what the cinch, rule 11, reveals).
A layout that fails is drawn again (at most ``MAX_TRIES`` times per world; then the last layout within the
sets is used: never seen in the tests). With ``infer`` = 1 the worlds also agree with the declarations
(kernels/bourre/infer.py; ``_world``).

**Evaluation.** In each world every legal card is tried, the same worlds for every card; the highest sum wins,
ties going to ``basic``'s own card, which is the first candidate. How a world scores a card is the parameter ``eval``:

- ``eval`` = 1 (the default, ``EVAL_PARANOID``): the seat plays the card, then the open-hand solver
  (kernels/bourre/solver.py ``analyse``, kernels/bourre/pimc_solve.py ``paranoid``) answers for it against all
  the other active players together: it surely wins the pot, it surely takes a trick, or the others can hold it
  to bourre; the card scores 8 x the chips of that outcome plus the tricks the seat is sure of (so the outcome
  comes first and the sure tricks break its ties). A card that ends the deal is scored as a playout scores it.
  With ``share_tt`` = 1 the solves of one decision share the solver's table (pimc_solve.py): the same scores;
- ``eval`` = 0 (``EVAL_ROLLOUT``): the rest of the deal is played out by every active player as ``basic`` plays
  (``_finish``, ``choose_card`` with the seat's own parameters), and the card scores the seat's chips.

Chips are counted as ev values them (``_values``).

**Race.** With ``race`` r > 0, after every ``RACE_EVERY`` (8) worlds the sampling stops once the leading card's
mean score exceeds every other card's by more than r x the spread of the scores (times 8 under ``eval`` = 1).

**Randomness.** Decision ``nlg`` (plays so far in the deal) draws from ``seed_state(st[0] ^ PIMC_SALT, nlg)``,
``st`` the deal's decision stream state, which it reads and never advances: the heuristics' decisions never move,
and every result is a pure function of the seed and the deal's indices, whatever the threads or blocks.
"""
import numpy as np
from numba import njit

from ..cards import DECK52, SUIT_MASK, U0, U1, lowest, nth_card, popcount
from ..explain import KIND_CARD, KIND_DRAW, X_CAND, X_WORLDS, x_add, x_open
from ..rng import below, next_u64, seed_state, shuffle, uniform
from .draw import declare_call as declare
from .draw import draw_declared_call as draw_declared
from .draw import must_play
from .draw import basic_decision_call
from .infer import CHECKED, MAX_INFER_TRIES, N_STATS, declared_ok, infer_start, stats_of, world_state
from .pimc_solve import PIMC_TT_BITS, advance, open_decision, paranoid
from .players import H_BASIC, P_DECIDE, P_EVAL, P_RACE, P_SHARE_TT, P_WORLDS, choose_card, ev_discard, ev_gain
from .rules import (IW_LEN, MAXP, OVF, R_DECLARE_THEN_DRAW, R_MUST_HEAD, R_MUST_OVERTRUMP, R_MUST_TRUMP,
                    R_TRUMP_EVEN_IF_CANNOT_WIN, R_VOID_HIGHEST_TRUMP, REC_ACTIVE, REC_DEAL_IDX, REC_DEALER, REC_DEC,
                    REC_NDEC, REC_NRESHUF, REC_TRICKS, REC_UP_OUT, REC_UPCARD, UW_LEN, above_in_suit,
                    better_in_suit, bitc, fill_pool, legal_play, tmask)
from .share import SHARE_WORDS
from .solver import N_OUT, POS_LEN, QKA, W_TT

PIMC_SALT = np.uint64(0xB0D7E5A3C1F29E47)   # the sampling player's stream, apart from the decision stream
MAX_TRIES = 4096
RACE_EVERY = 8
X_DRAW_ROW = 40            # --explain (kernels/explain.py): card nlg of a deal in row nlg, draw decision i in 40 + i
# 0, -1 and True as typed values: a literal argument compiles a callee once more (_finish, declare)
Z0, M1, YES = np.int64(0), np.int64(-1), np.bool_(True)
EVAL_ROLLOUT, EVAL_PARANOID = 0, 1
assert UW_LEN == 57 + W_TT + 2 * (1 << PIMC_TT_BITS) + SHARE_WORDS + 90 and N_STATS <= 8   # pimc_solve.py
assert IW_LEN == 124 + POS_LEN + N_OUT + 8 + 356          # ... + the inference counters (infer.IW_STATS)
BINOM = np.array([[float(np.prod(np.arange(a - k + 1, a + 1)) / np.prod(np.arange(1, k + 1))) if k <= a else 0.0
                   for k in range(6)] for a in range(53)], np.float64)


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def _play(hh, won, na, s, c, played, leader, kpos, ls, wc, wseat, trump, lono):
    """Seat s plays c (its hand ``hh[s]``); at the end of a trick its winner counts it and leads. Returns the
    new (played, leader, cards in the trick, suit led, winning card, winning seat)."""
    hh[s] &= ~bitc(c)
    played |= bitc(c)
    ls, wc, wseat = advance(c, kpos, ls, wc, wseat, s, trump, lono)
    kpos += 1
    if kpos == na:
        won[wseat] += 1
        return played, wseat, 0, -1, -1, wseat
    return played, leader, kpos, ls, wc, wseat


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def _forbid(c, kpos, ls, wc, trump, lono, rules):
    """The cards a follower cannot have held when he played c (rule 10, ``legal_follow``): only what
    legality implies, so every consistent layout stays possible."""
    if kpos == 0:
        return U0
    cs = c >> 4
    if cs == ls:
        wt = trump >= 0 and (wc >> 4) == trump
        if rules[R_MUST_HEAD] != 0 and (ls == trump or not wt):
            better = better_in_suit(wc, lono)
            if (bitc(c) & better) == U0:
                return better                 # followed without heading: nothing above the winning card
        return U0
    x = SUIT_MASK[ls]                         # did not follow: void in the suit led
    T = tmask(trump)
    if T == U0 or rules[R_MUST_TRUMP] == 0:
        return x
    wt = (wc >> 4) == trump
    even = rules[R_TRUMP_EVEN_IF_CANNOT_WIN] != 0
    high = rules[R_VOID_HIGHEST_TRUMP] != 0
    if cs != trump:                           # neither followed nor trumped
        if wt and not even:
            return x | (T & above_in_suit(wc))
        return x | T
    if wt and c < wc:                         # trumped under the winning trump
        if not even:
            if rules[R_MUST_OVERTRUMP] != 0 or high:
                return x | (T & above_in_suit(wc))
        elif high:
            return x | (T & above_in_suit(c))
        elif rules[R_MUST_OVERTRUMP] != 0:
            return x | (T & above_in_suit(wc))
        return x
    if high:
        return x | (T & above_in_suit(c))
    return x


@njit(cache=True, nogil=True, _nrt=False)
def _setup(rec, me_real, h, t, kpos, trump, lono, played, known_out, players, dealer, upcard, sep, rules,
           act, idx, hist, forb, by, fixed, need, won):
    """What seat ``me_real`` knows at its turn (card ``kpos`` of trick ``t``), the active seats renumbered
    clockwise from the dealer's left (``act`` index -> seat, ``idx`` seat -> index): ``hist`` the cards
    played in order, ``forb`` per index the cards it cannot hold (``_forbid``), ``by`` the cards it played,
    ``fixed`` the cards known in its hand (the dealer's up-card), ``need`` its unseen cards, ``won`` its
    tricks. Returns (na, me, cards played, leader of the deal's first trick, the unseen cards)."""
    active = rec[REC_ACTIVE]
    na = 0
    s = dealer
    for q in range(MAXP):
        idx[q] = -1
    for _ in range(players):
        s += 1
        if s == players:
            s = 0
        if (active >> s) & 1:
            act[na] = s
            idx[s] = na
            na += 1
    me = idx[me_real]
    for q in range(MAXP):
        forb[q] = U0
        by[q] = U0
        fixed[q] = U0
        won[q] = 0
    nh = 0
    for tt in range(t + 1):
        base = REC_TRICKS + 10 * tt
        lead = idx[rec[base]]
        m = na if tt < t else kpos
        ls = -1
        wc = -1
        wseat = lead
        for q in range(m):
            c = rec[base + 1 + q]
            sq = (lead + q) % na
            if sq != me:
                forb[sq] |= _forbid(c, q, ls, wc, trump, lono, rules)
            by[sq] |= bitc(c)
            hist[nh] = c
            nh += 1
            ls, wc, wseat = advance(c, q, ls, wc, wseat, sq, trump, lono)
        if tt < t:
            won[wseat] += 1
    lead0 = idx[rec[REC_TRICKS]]
    U = DECK52 & ~h & ~played & ~known_out
    if rec[REC_NRESHUF] == 0:
        for i in range(rec[REC_NDEC]):
            if rec[REC_DEC + 4 * i] == me_real:
                U &= ~np.uint64(rec[REC_DEC + 4 * i + 2])      # its own discards are out of play
    if (not sep and rec[REC_UP_OUT] == 0 and (played & bitc(upcard)) == U0 and dealer != me_real
            and idx[dealer] >= 0):
        fixed[idx[dealer]] = bitc(upcard)                       # the dealer still holds the up-card
        U &= ~bitc(upcard)
    left = 5 - t
    for q in range(na):
        need[q] = 0
        if q != me:
            need[q] = left
    # the players who already played to the current trick hold one card less
    lead = idx[rec[REC_TRICKS + 10 * t]]
    for q in range(kpos):
        need[(lead + q) % na] -= 1
    for q in range(na):
        if q != me:
            need[q] -= popcount(fixed[q])
    return na, me, nh, lead0, U


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def _akq(hh, na, trump):
    """The players (bits by index) who hold Q K A of trumps in the hands ``hh[0:na]`` (rule 11, akq_in_order)."""
    akq = np.int64(0)
    if trump >= 0:
        am = QKA << np.uint64(16 * trump)
        for q in range(na):
            if (hh[q] & am) == am:
                akq |= 1 << q
    return akq


@njit(cache=True, nogil=True, _nrt=False)
def _replay_ok(hh, won, na, me, hist, nh, lead0, trump, lono, upcard, known_out, rules):
    """Would every card of ``hist`` have been legal (``legal_play``) from the hands ``hh`` at the start of
    play (modified: the hands after ``hist``; ``won`` scratch)? The seat's own cards are not checked."""
    akq = _akq(hh, na, trump)
    for q in range(MAXP):
        won[q] = 0
    played = U0
    leader = lead0
    kpos = 0
    ls = -1
    wc = -1
    wseat = leader
    for i in range(nh):
        s = (leader + kpos) % na
        c = hist[i]
        if s != me:
            forced = upcard if (lono and i == 0) else -1
            lg = legal_play(hh, s, kpos, na, won[s], played, known_out, trump, lono, rules, (akq >> s) & 1,
                            forced, ls, wc)
            if (lg & bitc(c)) == U0:
                return False
        played, leader, kpos, ls, wc, wseat = _play(hh, won, na, s, c, played, leader, kpos, ls, wc, wseat, trump,
                                                    lono)
    return True


@njit(cache=True, nogil=True, _nrt=False)
def _sample(rng, world, hh, won, na, me, h, U, forb, fixed, need, by, hist, nh, lead0, trump, lono, upcard, known_out,
            rules):
    """One world: ``world[q]`` the cards index q holds now (``h`` for the seat), uniform among the layouts
    consistent with the play (module docstring). Returns True when it passed every check."""
    for attempt in range(MAX_TRIES):
        avail = U
        ratio = 1.0
        ok = True
        for q in range(na):
            if q == me:
                world[q] = h
                continue
            A = avail & ~forb[q]
            a = popcount(A)
            k = need[q]
            if a < k:
                ok = False
                break
            ratio *= BINOM[a, k] / BINOM[popcount(U & ~forb[q]), k]
            w = U0
            for j in range(k):
                c = nth_card(A, below(rng, a - j))
                A &= ~bitc(c)
                w |= bitc(c)
            avail &= ~w
            world[q] = w | fixed[q]
        if not ok or uniform(rng) >= ratio:
            continue
        for q in range(na):
            hh[q] = world[q] | by[q]
        if _replay_ok(hh, won, na, me, hist, nh, lead0, trump, lono, upcard, known_out, rules):
            return True
        if attempt == MAX_TRIES - 1:
            return False
    return False


@njit(cache=True, nogil=True, _nrt=False)
def _world(chk, rng, world, hh, won, na, me, h, U, forb, fixed, need, by, hist, nh, lead0, trump, lono, upcard,
           known_out, rules, idx, rec, players, dealer, sep, pot, ante_amt, hparams, me_real, st, stats, pre):
    """One world (``_sample``); in state ``chk`` CHECKED (``infer`` = 1) drawn again until the declarations agree
    (kernels/bourre/infer.py; ``pre`` scratch). Returns (the next state, whether it passed the play's check)."""
    ok = False
    for _ in range(MAX_INFER_TRIES if chk == CHECKED else 1):
        ok = _sample(rng, world, hh, won, na, me, h, U, forb, fixed, need, by, hist, nh, lead0, trump, lono, upcard,
                     known_out, rules)
        if chk != CHECKED or declared_ok(rng, world, by, U, na, me, idx, rec, players, dealer, trump, upcard, lono,
                                         sep, pot, ante_amt, rules, hparams, me_real, st, stats, pre):
            return world_state(stats, chk, True), ok
    return world_state(stats, chk, False), ok


@njit(cache=True, nogil=True, _nrt=False)
def _finish(hh, na, me, cand, leader, kpos, ls, wc, wseat, played, won, known_out, trump, lono, rules, akq,
            hparams, prow, st):
    """Seat ``me`` plays ``cand`` now, then every seat plays as ``basic`` (``hparams[prow]``) to the end of
    the deal; ``hh`` (the hands now) and ``won`` are modified. Returns the seat's outcome: 0 won the pot,
    1 tied for most tricks, 2 bourre, 3 lost with tricks."""
    c = cand
    while True:
        s = (leader + kpos) % na
        if hh[s] == U0:
            break
        if c < 0:
            lg = legal_play(hh, s, kpos, na, won[s], played, known_out, trump, lono, rules, (akq >> s) & 1, -1,
                            ls, wc)
            c = choose_card(H_BASIC, hparams, prow, hh[s], lg, kpos, na, ls, wc, trump, lono, played, won[s], st)
        played, leader, kpos, ls, wc, wseat = _play(hh, won, na, s, c, played, leader, kpos, ls, wc, wseat, trump,
                                                    lono)
        c = -1
    best = 0
    nbest = 0
    for q in range(na):
        if won[q] > best:
            best = won[q]
            nbest = 1
        elif won[q] == best:
            nbest += 1
    if won[me] == 0:
        return 2
    if won[me] == best:
        return 0 if nbest == 1 else 1
    return 3


@njit(cache=True, nogil=True, _nrt=False)
def pimc_card(rec, me_real, h, lg, t, kpos, ls, win_card, win_seat, trump, lono, played, known_out, players, dealer,
              upcard, sep, pot, ante_amt, rules, hparams, nlg, st, uw, iw, xo=None):
    """The card seat ``me_real`` plays among ``lg`` (two or more legal cards), card ``kpos`` of trick ``t``,
    in ``play_dealt``'s state (``rec`` holds the deal so far; ``played`` every card played, the trick in
    progress included; ``pot`` the pot at stake); scratch ``uw[16:]``, ``iw[24:]`` (``_scratch``). Module
    docstring: worlds, evaluation, race, randomness. ``xo`` (--explain): its candidates' values into row ``nlg``
    of ``xo[deal index]`` (kernels/explain.py)."""
    nw = np.int64(hparams[me_real, P_WORLDS])
    if nw < 1:
        nw = 1
    race = hparams[me_real, P_RACE]
    act, idx, hist, need, won0, won, cand, sums, val, forb, by, fixed, world, hh, rng = _scratch(uw, iw)
    na, me, nh, lead0, U = _setup(rec, me_real, h, t, kpos, trump, lono, played, known_out, players, dealer, upcard,
                                  sep, rules, act, idx, hist, forb, by, fixed, need, won0)
    para = hparams[me_real, P_EVAL] > 0.5
    share = para and hparams[me_real, P_SHARE_TT] > 0.5
    ws = uw[57:]
    pos = iw[124:124 + POS_LEN]
    o3 = iw[124 + POS_LEN:124 + POS_LEN + N_OUT]
    tcards = hist[nh - kpos:nh]
    # the candidates, basic's own card first (it keeps ties)
    hc = choose_card(H_BASIC, hparams, me_real, h, lg, kpos, na, ls, win_card, trump, lono, played, won0[me], st)
    cand[0] = hc
    nc = 1
    m = lg & ~bitc(hc)
    while m != U0:
        cand[nc] = lowest(m)
        m &= m - U1
        nc += 1
    # twice the chips of each outcome (a divided pot's half is a whole number then)
    span = _values(val, pot, ante_amt, rules)
    for ci in range(nc):
        sums[ci] = 0
    if xo is not None:
        x_open(xo[rec[REC_DEAL_IDX], nlg], KIND_CARD, me_real, nc)
        for ci in range(nc):
            xo[rec[REC_DEAL_IDX], nlg, X_CAND + ci] = cand[ci]
    seed_state(rng, st[0] ^ PIMC_SALT, nlg)
    if share:
        open_decision(ws, st[0], nlg, me_real, na, me, trump, lono, known_out, rules)
    lead = idx[rec[REC_TRICKS + 10 * t]]
    wsi = idx[win_seat]
    stats = stats_of(iw)
    chk = infer_start(stats, hparams, me_real, rec)
    for w in range(nw):
        chk, _ = _world(chk, rng, world, hh, won, na, me, h, U, forb, fixed, need, by, hist, nh, lead0, trump, lono,
                        upcard, known_out, rules, idx, rec, players, dealer, sep, pot, ante_amt, hparams, me_real, st,
                        stats, uw[UW_LEN - 90:])     # pre: the draw decision's scratch, free here
        akq = np.int64(0)   # int64 from the start: a literal 0 would compile _finish and paranoid once more
        if trump >= 0:
            am = QKA << np.uint64(16 * trump)
            for q in range(na):
                if ((world[q] | by[q]) & am) == am:
                    akq |= 1 << q
        for ci in range(nc):
            for q in range(na):
                hh[q] = world[q]
                won[q] = won0[q]
            if para:
                oc, tk = paranoid(hh, won, na, me, cand[ci], lead, kpos, ls, win_card, wsi, tcards, played,
                                  known_out, trump, lono, akq, rules, ws, pos, o3, share)
                if oc < 0:                    # the deal ended: score it as a playout does
                    oc = _finish(hh, na, me, M1, lead, Z0, M1, M1, lead, played, won, known_out, trump, lono, rules,
                                 akq, hparams, me_real, st)
                sums[ci] += 8 * val[oc] + tk      # the outcome first, then the guaranteed tricks
                if xo is not None:
                    x_add(xo[rec[REC_DEAL_IDX], nlg], ci, 8 * val[oc] + tk, tk)
            else:
                oc = _finish(hh, na, me, cand[ci], lead, kpos, ls, win_card, wsi, played, won, known_out, trump,
                             lono, rules, akq, hparams, me_real, st)
                sums[ci] += val[oc]
                if xo is not None:
                    x_add(xo[rec[REC_DEAL_IDX], nlg], ci, val[oc], 0)
        if xo is not None:
            xo[rec[REC_DEAL_IDX], nlg, X_WORLDS] += 1
        if _race_stop(sums, nc, w, nw, race, span * (8 if para else 1)):
            break
    return cand[_best(sums, nc)]


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def _values(val, pot, ante_amt, rules):
    """``val[0:4]`` twice the chips (``ev_gain``: a divided pot's half is a whole number then) of winning the pot
    ``pot``, tying, going bourre and losing with tricks; returns their spread."""
    val[0] = np.int64(2.0 * ev_gain(1.0, 0.0, 0.0, pot, ante_amt, rules))
    val[1] = np.int64(2.0 * ev_gain(0.0, 1.0, 0.0, pot, ante_amt, rules))
    val[2] = np.int64(2.0 * ev_gain(0.0, 0.0, 1.0, pot, ante_amt, rules))
    val[3] = np.int64(2.0 * ev_gain(0.0, 0.0, 0.0, pot, ante_amt, rules))
    return max(val[0], val[1], val[2], val[3]) - min(val[0], val[1], val[2], val[3])


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def _race_stop(sums, nc, w, nw, race, scale):
    """The race (module docstring): after world w, whether to stop: every ``RACE_EVERY`` worlds, once the
    leading candidate's sum exceeds every other's by more than race x ``scale`` (the values' spread) per world."""
    if race <= 0.0 or (w + 1) % RACE_EVERY != 0 or w + 1 >= nw:
        return False
    b = _best(sums, nc)
    gap = OVF
    for ci in range(nc):
        if ci != b and sums[b] - sums[ci] < gap:
            gap = sums[b] - sums[ci]
    return gap > race * scale * (w + 1)


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def _best(sums, nc):
    """The first candidate of the highest sum."""
    b = 0
    for ci in range(1, nc):
        if sums[ci] > sums[b]:
            b = ci
    return b


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def _scratch(uw, iw):
    """The sampling player's views of ``play_dealt``'s scratch (bourre.UW_LEN, bourre.IW_LEN)."""
    return (iw[24:32], iw[32:40], iw[40:80], iw[80:88], iw[88:96], iw[96:104], iw[104:112], iw[112:120],
            iw[120:124], uw[16:24], uw[24:32], uw[32:40], uw[40:48], uw[48:56], uw[56:57])


@njit(cache=True, nogil=True)
def sample_worlds(rec, me_real, h, t, kpos, trump, lono, played, known_out, players, dealer, upcard, sep, rules, nw,
                  key, hparams, pot, ante_amt, stats):
    """``nw`` worlds as ``pimc_card`` samples them at that turn (for the tests; ``hparams``, ``pot``, ``ante_amt`` as
    its own, ``stats`` int64[N_STATS] the counters): int64[nw, 8] the cards each seat (real seat numbers) holds in
    the world, the seat its own hand, passers 0; bool[nw] whether the world passed the play's check; and int64[nw, 8]
    each other seat's hand before the draw in the world's history (``infer`` = 1, unless it fell back; else 0)."""
    uw = np.zeros(UW_LEN, np.uint64)
    iw = np.zeros(IW_LEN, np.int64)
    act, idx, hist, need, won0, won, cand, sums, val, forb, by, fixed, world, hh, rng = _scratch(uw, iw)
    na, me, nh, lead0, U = _setup(rec, me_real, h, t, kpos, trump, lono, played, known_out, players, dealer, upcard,
                                  sep, rules, act, idx, hist, forb, by, fixed, need, won0)
    out = np.zeros((nw, MAXP), np.int64)
    before = np.zeros((nw, MAXP), np.int64)
    ok = np.zeros(nw, np.bool_)
    seed_state(rng, key, 0)
    chk = infer_start(stats, hparams, me_real, rec)
    for w in range(nw):
        chk, ok[w] = _world(chk, rng, world, hh, won, na, me, h, U, forb, fixed, need, by, hist, nh, lead0, trump,
                            lono, upcard, known_out, rules, idx, rec, players, dealer, sep, pot, ante_amt, hparams,
                            me_real, uw[:1], stats, uw[UW_LEN - 90:])
        for q in range(na):
            out[w, act[q]] = np.int64(world[q])
        for q in range(MAXP):
            before[w, q] = np.int64(uw[UW_LEN - 90 + q]) if chk == CHECKED else 0
    return out, ok, before


# ---------------------------------------------------------------------------
# play/pass and discards by sampling (decide > 0): the candidates are pass (unless the dealer must play) and
# play with a discard; in a world (``pimc_decide``: a whole deal consistent with the earlier declarations)
# the seat's candidate is applied with ``declare`` (kernels/bourre/draw.py), the later seats decide and the draw
# is served as in play_dealt, and basic players play the deal out (``_finish``: a playout values the deal for
# chips with the others playing for themselves, where the paranoid solver is pessimistic; it was not tried here).
# ---------------------------------------------------------------------------
PIMC_DECIDE_SALT = np.uint64(0x6A09E667F3BCC909)   # the draw decisions' stream, apart from the card decisions'
MAX_CAND = 40             # pass, basic's choice and at most 32 discards (decide = 2, five cards, limit 5)
DECIDE_EXHAUSTIVE = 1.5   # decide above this: every discard within the limit; else one per count (ev_discard)


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def _dscratch(uw, iw):
    """The draw decision's views of ``play_dealt``'s scratch (the last 90 of uw, 356 of iw): the world's hands at
    the seat's turn and as played, its piles (``declare``'s uw[0:16]) at the seat's turn and as played, the
    candidates' discards, the world stream, the stock's stream; the unseen cards shuffled, the stock as played,
    a record for ``declare``, the candidates' sums and play flags, the stock at the seat's turn."""
    o = UW_LEN - 90
    p = IW_LEN - 356
    return (uw[o:o + 8], uw[o + 8:o + 16], uw[o + 16:o + 32], uw[o + 32:o + 48], uw[o + 48:o + 88],
            uw[o + 88:o + 89], uw[o + 89:o + 90],
            iw[p:p + 52], iw[p + 52:p + 104], iw[p + 104:p + 224], iw[p + 224:p + 264], iw[p + 264:p + 304],
            iw[p + 304:p + 356])


@njit(cache=True, nogil=True, inline="always", _nrt=False)
def _add_cand(cplay, cdisc, nc, play, disc):
    """Append the candidate (play, disc) unless it is there already (a pass is one candidate); returns nc."""
    for ci in range(nc):
        if cplay[ci] == (1 if play else 0) and (not play or cdisc[ci] == disc):
            return nc
    cplay[nc] = 1 if play else 0
    cdisc[nc] = disc if play else U0
    return nc + 1


@njit(cache=True, nogil=True, _nrt=False)
def _world_value(me_real, i0, k, order, dealer, wh, wd, wpool, m, wsd, wrec, disc, active, nplay, pot, a2,
                 known_out, up_in_dealer, trump, lono, sep, upcard, limit, table_ante, ante_amt, rules, hparams, st,
                 hh, won, val):
    """In a world (hands ``wh``, piles ``wd``, stock ``wpool[0:m]`` drawn with ``wsd``; all modified) the seat
    ``me_real``, declaring i0-th, plays discarding ``disc``; the later seats decide as ``basic`` with its own
    parameters (``basic_decision_call``), the draw is served as ``play_dealt`` serves it, then every player plays the
    deal out as basic (``_finish``). Returns twice the seat's chips (``_values``, at the pot then at stake)."""
    is_dealer = me_real == dealer
    declare_first = rules[R_DECLARE_THEN_DRAW] != 0
    ok, m, pot, active, nplay, known_out, up_in_dealer = declare(wsd, wpool, m, wh, me_real, i0, YES, disc,
                                                                 is_dealer, nplay, active, pot, a2, known_out,
                                                                 up_in_dealer, declare_first, sep, upcard, lono, wd,
                                                                 rules, wrec)
    for j in range(i0 + 1, k):
        s = order[j]
        isd = s == dealer
        play, dj = basic_decision_call(hparams, me_real, isd, wh[s], trump, upcard, lono, sep, limit, known_out, j, k,
                                       nplay, pot, table_ante, ante_amt, rules, st)
        ok, m, pot, active, nplay, known_out, up_in_dealer = declare(wsd, wpool, m, wh, s, j, play, dj, isd, nplay,
                                                                     active, pot, a2, known_out, up_in_dealer,
                                                                     declare_first, sep, upcard, lono, wd, rules,
                                                                     wrec)
    if declare_first and nplay >= 2:
        m, known_out, up_in_dealer = draw_declared(wsd, wpool, m, wh, order, k, active, dealer, sep, upcard,
                                                   known_out, up_in_dealer, wd, rules, wrec)
    _values(val, pot, ante_amt, rules)
    if nplay == 1:
        return val[0]                    # it alone plays: it takes the pot (rule 6)
    na = np.int64(0)        # int64 from the start: a literal 0 would compile _finish once more
    me = np.int64(0)
    for j in range(k):
        s = order[j]
        if (active >> s) & 1:
            hh[na] = wh[s]
            if s == me_real:
                me = na
            na += 1
    for q in range(MAXP):
        won[q] = 0
    akq = _akq(hh, na, trump)
    leader = na - 1 if lono else 0       # the dealer (last in order) leads the up-card under Lo-No
    oc = _finish(hh, na, me, upcard if lono else M1, leader, Z0, M1, M1, leader, U0, won, known_out, trump, lono,
                 rules, akq, hparams, me_real, st)
    return val[oc]


@njit(cache=True, nogil=True, _nrt=False)
def pimc_decide(rec, me_real, i0, k, order, dealer, h, active, nplay, pot, a2, known_out, up_in_dealer, trump,
                lono, sep, upcard, limit, table_ante, ante_amt, rules, hparams, st, uw, iw, xo=None):
    """The (play, discard) of seat ``me_real`` with hand ``h``, the i0-th of ``order[0:k]`` to declare, in
    ``play_dealt``'s state (``rec`` holds the earlier declarations). The candidates (basic's choice first, which
    keeps ties; pass unless it must play; play discarding the weakest d cards, ``ev_discard``, for each d within
    the limit, or every discard with decide = 2) are scored on the same worlds (``_world_value``; a pass is worth
    0: its ante is sunk, as ``ev_gain`` counts). A world is a deal of the cards it does not see (the others'
    five cards, the dealer's up-card his, then the stock), uniform among the deals in which the earlier players,
    deciding as basic with its parameters and drawing from that stock, made their actual choices (play or pass
    and, in the default order, how many cards they drew); exact rejection sampling, at most ``MAX_TRIES``
    layouts a world; when a world finds none (earlier players who do not decide as basic can make choices basic
    nearly never makes) that world and the rest of the decision's take their first layout with the actual
    play/pass choices forced. Decision i0 draws from ``seed_state(st[0] ^ PIMC_DECIDE_SALT, i0)``. ``xo`` (--explain):
    the candidates' values into row ``X_DRAW_ROW + i0`` of ``xo[deal index]`` (kernels/explain.py)."""
    is_dealer = me_real == dealer
    wh0, wh, wd0, wd, cdisc, wrng, wsd, pool0, wpool, wrec, sums, cplay, wst = _dscratch(uw, iw)
    act, idx, hist, need, won0, won, cand, sums0, val, forb, by, fixed, world, hh, rng = _scratch(uw, iw)
    bplay, bdisc = basic_decision_call(hparams, me_real, is_dealer, h, trump, upcard, lono, sep, limit, known_out,
                                       i0, k, nplay, pot, table_ante, ante_amt, rules, st)
    nc = _add_cand(cplay, cdisc, 0, bplay, bdisc)
    if not must_play(is_dealer, lono, sep, upcard):
        nc = _add_cand(cplay, cdisc, nc, False, U0)
    keep = h & ~bitc(upcard) if (lono and is_dealer) else h
    if hparams[me_real, P_DECIDE] > DECIDE_EXHAUSTIVE:
        sub = keep
        while True:                      # every subset of the keepable cards, within the limit
            if popcount(sub) <= limit:
                nc = _add_cand(cplay, cdisc, nc, True, sub)
            if sub == U0:
                break
            sub = (sub - U1) & keep
    else:
        for d in range(limit + 1):
            dd = ev_discard(h, trump, upcard, is_dealer, lono, d)
            if popcount(dd) < d:
                break
            nc = _add_cand(cplay, cdisc, nc, True, dd)
    if nc == 1:
        return cplay[0] != 0, cdisc[0]
    nw = np.int64(hparams[me_real, P_WORLDS])
    if nw < 1:
        nw = 1
    race = hparams[me_real, P_RACE]
    _values(val, pot, ante_amt, rules)
    span = max(val[0], val[1], val[2], val[3], 0) - min(val[0], val[1], val[2], val[3], 0)   # a pass: 0
    for ci in range(nc):
        sums[ci] = 0
    if xo is not None:
        x_open(xo[rec[REC_DEAL_IDX], X_DRAW_ROW + i0], KIND_DRAW, me_real, nc)
        for ci in range(nc):
            xo[rec[REC_DEAL_IDX], X_DRAW_ROW + i0, X_CAND + ci] = np.int64(cdisc[ci]) if cplay[ci] != 0 else -1
    for q in range(REC_DEC):
        wrec[q] = 0
    wrec[REC_UPCARD] = upcard
    wrec[REC_DEALER] = dealer
    # the unseen cards and how many each place holds
    declare_first = rules[R_DECLARE_THEN_DRAW] != 0
    U = DECK52 & ~h
    if sep or not is_dealer:
        U &= ~bitc(upcard)               # seen by all: the turn-up, or the dealer's up-card
    nU = fill_pool(pool0, U)
    pot0 = pot - a2 * nplay              # the pot before the earlier players' second antes
    ko0 = bitc(upcard) if sep else U0
    seed_state(wrng, st[0] ^ PIMC_DECIDE_SALT, i0)
    tries = MAX_TRIES
    for w in range(nw):
        for attempt in range(tries):
            # the deal: the others' hands uniformly from the unseen cards, the stock the rest
            shuffle(wrng, pool0, nU)
            off = 0
            for j in range(k):
                s = order[j]
                if s == me_real:
                    wh0[s] = h
                    continue
                x = bitc(upcard) if (s == dealer and not sep) else U0
                for _ in range(5 - popcount(x)):
                    x |= bitc(pool0[off])
                    off += 1
                wh0[s] = x
            ms = nU - off
            for q in range(ms):
                wst[q] = pool0[off + q]
            for q in range(16):
                wd0[q] = U0
            wsd[0] = next_u64(wrng)
            # the earlier players declare as basic: the layout is kept only if each made its actual choice
            # (play or pass and, in the default order, how many cards it drew)
            wact = np.int64(0)      # int64 from the start: a literal 0 would compile declare, the decision and
            wnp = np.int64(0)       # _world_value once more
            wpot = pot0
            wko = ko0
            wup = not sep
            ok = True
            for j in range(i0):
                s = order[j]
                play, dj = basic_decision_call(hparams, me_real, s == dealer, wh0[s], trump, upcard, lono, sep, limit,
                                               wko, j, k, wnp, wpot, table_ante, ante_amt, rules, st)
                aplay = rec[REC_DEC + 4 * j + 1] != 0
                if play != aplay or (play and not declare_first
                                     and popcount(dj) != popcount(np.uint64(rec[REC_DEC + 4 * j + 2]))):
                    ok = False
                    if attempt < tries - 1:
                        break
                    play = aplay         # the last layout, with the actual choices (and basic's discards)
                _, ms, wpot, wact, wnp, wko, wup = declare(wsd, wst, ms, wh0, s, j, play, dj, s == dealer, wnp, wact,
                                                           wpot, a2, wko, wup, declare_first, sep, upcard, lono, wd0,
                                                           rules, wrec)
            if ok:
                break
            if attempt == tries - 1:
                tries = 1                # the earlier choices are (nearly) impossible for basic: no more rejection
                break
        sd0 = wsd[0]
        for ci in range(nc):
            if cplay[ci] == 0:
                continue                 # a pass is worth 0
            for q in range(MAXP):
                wh[q] = wh0[q]
            for q in range(16):
                wd[q] = wd0[q]
            for q in range(ms):
                wpool[q] = wst[q]
            wsd[0] = sd0
            v = _world_value(me_real, i0, k, order, dealer, wh, wd, wpool, ms, wsd, wrec, cdisc[ci], wact, wnp,
                             wpot, a2, wko, wup, trump, lono, sep, upcard, limit, table_ante, ante_amt, rules,
                             hparams, st, hh, won, val)
            sums[ci] += v
            if xo is not None:
                x_add(xo[rec[REC_DEAL_IDX], X_DRAW_ROW + i0], ci, v, 0)
        if xo is not None:
            xo[rec[REC_DEAL_IDX], X_DRAW_ROW + i0, X_WORLDS] += 1
        if _race_stop(sums, nc, w, nw, race, span):
            break
    b = _best(sums, nc)
    return cplay[b] != 0, cdisc[b]
