"""Boulmous match equity kernels (issue 16): per-deal outcome counts, whole games from a given score state,
the value iteration over Boulmous score states and score-aware decisions (analysis/boulmous/equity/).

Boulmous outcome code of one deal: ``((taker * 4 + contract - 3) * 2401 + w0 * 343 + w1 * 49 + w2 * 7 + w3)``
with ``w`` the tricks each seat took, seats *relative to the dealer* (0 = dealer's left .. 3 = dealer);
``PASS_CODE`` when everyone passed: the fields of ``OUTCOME_CODES``.  The scores, boxes and boulmous payments of a deal follow from the code
(rules 15, 16, 18 c-d), so one count vector serves every scoring flag.

The equity table is over *canonical* states: the four scores relative to the dealer (seat 0 = dealer's left,
seat 3 = the dealer), each clamped to ``[F, F + L - 1]``; index ``((y0 * L + y1) * L + y2) * L + y3`` of
``y - F``.  After a deal the next dealer is seat 0, so the next canonical state is the rotation
``z[r] = y'[(r + 1) % 4]`` and seat ``s`` of this state is seat ``(s + 3) % 4`` of the next.
Slots of a state: 0..3 P(seat wins the game), 4..7 the seat's expected money from here (stakes of 1) with no box
made so far (analysis/boulmous/equity/table.py adds the boxes already made).
"""
import numpy as np
from numba import njit, prange

from .. import boulmous as KB
from ..cards import lowest
from ..layout import Layout
from ..rng import seed_state
from ..tally import (WG_ABANDONED, WG_DEALS, WG_LEN, add_outer, add_sum_outer, block_offsets, rounds_offsets,
                     sum_rows)

ODDS_WON = 2401                  # the four seats' tricks: w0 * 343 + w1 * 49 + w2 * 7 + w3
# ``boulmous_outcomes``' vector, per dealer (dealer-major): the count of each outcome code, a code being its field's
# offset plus its place in the field: ``taken`` [taker][contract 3..6][the seats' tricks], seats relative to the
# dealer; ``passed``: the four passed
OUTCOME_CODES = Layout(("taken", (4, 4, ODDS_WON)), ("passed", 1))
OC_TAKEN, PASS_CODE = OUTCOME_CODES.offsets()
N_CODES = OUTCOME_CODES.size
# ... with ``calibrate``: the taker's tricks by the bin of its trick estimate
CALIBRATION = Layout(("tricks", (KB.SA_NBINS, 7)),)
CAL_TRICKS, = CALIBRATION.offsets()
CAL_LEN = CALIBRATION.size
CHUNK = 2048
# a state's value (the table's rows, ``_backup``'s accumulator): per seat P(win the game), then its expected money
VALUE = Layout(("win", 4), ("money", 4))
V_WIN, V_MONEY = VALUE.offsets()
V_LEN = VALUE.size
GROUPS = 16            # partial count vectors per call of the long-vector kernels (memory, not results)
i64 = np.int64


@njit(cache=True, nogil=True)
def _scratch():
    """A Boulmous kernel thread's scratch: (decision state, deal state, deck, hands, hands in play, record)."""
    return (np.zeros(1, np.uint64), np.zeros(1, np.uint64), np.zeros(24, np.int64), np.zeros(4, np.uint64),
            np.zeros(4, np.uint64), np.zeros(KB.REC_LEN, np.int64))


@njit(cache=True, nogil=True)
def _game_scratch():
    """``KB.play_game``'s scratch: (scores, boxes, stakes, boxes out, an empty log)."""
    return (np.zeros(4, np.int64), np.zeros(4, np.int64), np.zeros(4, np.int64), np.zeros(4, np.int64),
            np.zeros((1, KB.LOG_W), np.int64))


@njit(cache=True, nogil=True, parallel=True)
def boulmous_outcomes(key_deal, key_dec, first, n, rules, hcodes, hparams, calibrate):
    """Counts of the outcome codes of deals first..first+n-1 (dealer = index % 4, the deals of
    ``sim_deals``): int64[4 * N_CODES], dealer-major, each ``OUTCOME_CODES``.  With ``calibrate`` (score-aware bidding's
    calibration) deal i makes seat i % 4 the taker instead (bid 3, its heuristic's trumps; the tricks
    a taker makes depend on neither the bid nor the dealer) and counts (the bin of its trick estimate
    ``KB.sa_bin(best_trump)``, its tricks): ``CALIBRATION``."""
    lb = rules[KB.R_LEFT_BOWER_TRUMP]
    nch = (n + CHUNK - 1) // CHUNK
    ng = min(nch, GROUPS)            # one partial count vector per group of chunks: the vector is long
    part = np.zeros((ng, CAL_LEN if calibrate else 4 * N_CODES), np.int64)
    for g in prange(ng):
        st, sd, deck, hands, work, rec = _scratch()
        nogame = KB.no_game()
        acc = part[g]
        for ch in range(g, nch, ng):
            for i in range(ch * CHUNK, min(n, (ch + 1) * CHUNK)):
                idx = first + i
                seed_state(sd, key_deal, idx)
                seed_state(st, key_dec, idx)
                KB.deal_random(sd, deck, hands)
                if calibrate:
                    s = idx % 4
                    _, v = KB.best_trump(hands[s], hparams, s, lb)
                    KB.play_deal(hands, work, (s + 3) % 4, s, i64(3), i64(-1), i64(-1), rules, hcodes, hparams, st,
                                 lb, rec, nogame)
                    acc[CAL_TRICKS + KB.sa_bin(v) * 7 + rec[KB.REC_WON + s]] += 1
                    continue
                dealer = idx % 4
                KB.play_deal(hands, work, dealer, i64(-1), i64(0), i64(-1), i64(-1), rules, hcodes, hparams, st, lb,
                             rec, nogame)
                taker = rec[KB.REC_TAKER]
                if taker < 0:
                    code = PASS_CODE
                else:
                    code = OC_TAKEN + ((taker - dealer - 1) % 4 * 4 + rec[KB.REC_CONTRACT] - 3) * ODDS_WON
                    mul = 343
                    for r in range(4):
                        code += rec[KB.REC_WON + (dealer + 1 + r) % 4] * mul
                        mul //= 7
                acc[dealer * N_CODES + code] += 1
    return sum_rows(part)


# games_from aggregate: wins per seat (4), stakes per seat (4), stakes^2 per seat (4), deals, abandoned
# boulmous_games_from counts: per seat its games won, the sum of its stakes and of its squared stakes; the deals
# played; the games abandoned
GAMES_FROM = Layout(("wins", 4), ("stakes", 4), ("stakes_sq", 4), ("deals", 1), ("abandoned", 1))
F_WINS, F_STAKES, F_STAKES_SQ, F_DEALS, F_ABANDONED = GAMES_FROM.offsets()
AGG_FROM = GAMES_FROM.size


@njit(cache=True, nogil=True, parallel=True)
def boulmous_games_from(key_deal, key_dec, first, n, rules, hcodes, hparams, start, dealer0, pstar, cal):
    """Whole games from the scores ``start`` (int64[4], absolute seats) with ``dealer0`` dealing
    next and no box made yet (kernels/boulmous/games.play_game; ``pstar``, ``cal``: its score-aware
    arguments). Game g draws its deals and decisions from the streams seeded at index g.
    Returns int64[AGG_FROM]."""
    lb = rules[KB.R_LEFT_BOWER_TRUMP]
    nch = (n + 63) // 64
    part = np.zeros((nch, AGG_FROM), np.int64)
    for ch in prange(nch):
        st, sd, deck, hands, work, rec = _scratch()
        scores, boxes, stakes, bx_out, nolog = _game_scratch()
        sab = np.zeros((4, 4), np.int64)
        acc = part[ch]
        for i in range(ch * 64, min(n, (ch + 1) * 64)):
            idx = first + i
            seed_state(sd, key_deal, idx)
            seed_state(st, key_dec, idx)
            winners, nd = KB.play_game(sd, st, rules, hcodes, hparams, lb, rec, deck, hands, work, stakes, bx_out,
                                       scores, boxes, nolog, False, start, dealer0, pstar, cal, sab)
            acc[F_DEALS] += nd
            if winners == 0:
                acc[F_ABANDONED] += 1
                continue
            for s in range(4):
                if (winners >> s) & 1:
                    acc[F_WINS + s] += 1
                acc[F_STAKES + s] += stakes[s]
                acc[F_STAKES_SQ + s] += stakes[s] * stakes[s]
    return sum_rows(part)


@njit(cache=True, nogil=True, parallel=True)
def sim_games_duplicate(key_deal, key_dec, first, n, rules, seat_codes, seat_params, seat_ids, k, nround, pstar,
                        cal):
    """Duplicate whole games (analysis/compare/games.py): game g is played once per seating of round
    c = g % nround (rows of ``seat_codes``/``seat_params``/``seat_ids``/``cal`` = the seats' heuristic
    codes, parameters, entrants and score-aware calibrations, float64[rows, 4, SA_NBINS, 4]; ``pstar``:
    ``KB.play_game``'s), seat 0 dealing first; its deals come from the stream seeded at g (deal j of game g:
    the same cards in every seating), playout j's decisions from ``seed_state(seed_state(key_dec, g), j)``.
    Layout (kernels/tally.py): ``rounds_layout(k, nround, ("wins", "stakes"))`` (games won, stakes), then
    ``WHOLE_GAMES`` (the deals played, the games abandoned)."""
    lb = rules[KB.R_LEFT_BOWER_TRUMP]
    o_deals, o_metric, metric_size, o_blocks, o_m = rounds_offsets(k, nround)
    b_s, b_q, b_p, block_size = block_offsets(k)
    o_games = o_metric + 2 * metric_size          # two metrics: games won, then stakes
    width = o_games + WG_LEN
    nch = (n + 63) // 64
    part = np.zeros((nch, width), np.int64)
    for ch in prange(nch):
        st, sd, deck, hands, work, rec = _scratch()
        scores, boxes, stakes, bx_out, nolog = _game_scratch()
        start = np.zeros(4, np.int64)
        sab = np.zeros((4, 4), np.int64)
        xw = np.zeros(k, np.int64)
        xs = np.zeros(k, np.int64)
        yw = np.zeros(k, np.int64)
        ys = np.zeros(k, np.int64)
        acc = part[ch]
        for i in range(ch * 64, min(n, (ch + 1) * 64)):
            g = first + i
            c = g % nround
            acc[o_deals + c] += 1
            o0 = o_metric + o_blocks + c * block_size   # games won: the block of round c
            o1 = o0 + metric_size                       # stakes
            m0 = o_metric + o_m                         # games won: M
            m1 = m0 + metric_size
            xw[:] = 0
            xs[:] = 0
            for j in range(k):
                r = c * k + j
                seed_state(sd, key_deal, g)
                seed_state(st, key_dec, g)
                seed_state(st, st[0], j)
                winners, nd = KB.play_game(sd, st, rules, seat_codes[r], seat_params[r], lb, rec, deck, hands, work,
                                           stakes, bx_out, scores, boxes, nolog, False, start, i64(0), pstar, cal[r],
                                           sab)
                acc[o_games + WG_DEALS] += nd
                if winners == 0:
                    acc[o_games + WG_ABANDONED] += 1
                yw[:] = 0
                ys[:] = 0
                for s in range(4):
                    h = seat_ids[r, s]
                    yw[h] += (winners >> s) & 1
                    ys[h] += stakes[s]
                for a in range(k):
                    xw[a] += yw[a]
                    xs[a] += ys[a]
                    acc[m0 + r * k + a] += yw[a]
                    acc[m1 + r * k + a] += ys[a]
                add_outer(acc, o0 + b_p, yw, k)
                add_outer(acc, o1 + b_p, ys, k)
            add_sum_outer(acc, o0 + b_s, o0 + b_q, xw, k)
            add_sum_outer(acc, o1 + b_s, o1 + b_q, xs, k)
    return sum_rows(part)


# ---------------------------------------------------------------------------
# value iteration over canonical Boulmous states
# ---------------------------------------------------------------------------
@njit(cache=True, nogil=True, inline="always")
def _encode(z, L, F):
    return (((z[0] - F) * L + (z[1] - F)) * L + (z[2] - F)) * L + (z[3] - F)


@njit(cache=True, nogil=True, inline="always")
def _decode(idx, L, F, y):
    for r in range(3, -1, -1):
        y[r] = idx % L + F
        idx //= L


@njit(cache=True, nogil=True, inline="always")
def _step(y, k, delta, taker, target, F, C, tie_break, yn, z):
    """Apply outcome ``k`` to canonical scores ``y``.  Returns (winner mask or 0, next index or -1,
    tied mask when the game is cut at the ceiling (split evenly), else 0)."""
    top = -(1 << 40)
    for s in range(4):
        yn[s] = y[s] + delta[k, s]
        if yn[s] > top:
            top = yn[s]
    if top >= target:
        w = 0
        nw = 0
        for s in range(4):
            if yn[s] == top:
                w |= 1 << s
                nw += 1
        if nw == 1:
            return w, -1, 0
        if tie_break == 2:
            return w, -1, 0
        if tie_break == 1 and taker[k] >= 0 and (w >> taker[k]) & 1:
            return 1 << taker[k], -1, 0
        if top > C:
            return 0, -1, w            # a tie above the ceiling: shared evenly (see analysis/boulmous/equity/table.py)
    for r in range(4):
        v = yn[(r + 1) % 4]
        if v < F:
            v = F
        z[r] = v
    return 0, _encode(z, C - F + 1, F), 0


@njit(cache=True, nogil=True, inline="always")
def _backup(V, y, k, p, delta, taker, box, imm, target, F, C, tie_break, wpo, settle0, coef, yn, z, acc):
    """Add outcome k's contribution (probability p) to ``acc`` (a ``VALUE``); returns the next index
    when it is a live state (its value already read from V), else -1."""
    w, nxt, cut = _step(y, k, delta, taker, target, F, C, tie_break, yn, z)
    t = taker[k]
    b = box[k]
    for s in range(4):
        acc[V_MONEY + s] += p * imm[k, s]
    if nxt >= 0:
        for s in range(4):
            ps = V[nxt, V_WIN + (s + 3) % 4]
            acc[V_WIN + s] += p * ps
            m = V[nxt, V_MONEY + (s + 3) % 4]
            if b != 0:
                # the box just made is paid at the end: its coefficient from the next state's win chances
                if t != s:
                    m += V[nxt, V_WIN + (s + 3) % 4] + wpo * V[nxt, V_WIN + (t + 3) % 4]
                else:
                    m += -(1.0 - ps) - 3.0 * wpo * ps
            acc[V_MONEY + s] += p * m
        return nxt
    if cut != 0:
        nw = 0
        for s in range(4):
            if (cut >> s) & 1:
                nw += 1
        for u in range(4):
            if not (cut >> u) & 1:
                continue
            wm = 1 << u
            for s in range(4):
                if s == u:
                    acc[V_WIN + s] += p / nw
                mm = settle0[wm, s]
                if b != 0:
                    mm += coef[wm, s, t]
                acc[V_MONEY + s] += p / nw * mm
        return -1
    for s in range(4):
        if (w >> s) & 1:
            acc[V_WIN + s] += p
        mm = settle0[w, s]
        if b != 0:
            mm += coef[w, s, t]
        acc[V_MONEY + s] += p * mm
    return -1


@njit(cache=True, nogil=True, parallel=True)
def value_sweep(V, order, starts, prob, delta, taker, box, imm, target, F, C, tie_break, wpo, settle0, coef,
                same_cap, tol, max_inner):
    """One sweep over the levels (sums of canonical scores), highest first: each state's value from
    the outcomes (``prob``/``delta``/``taker``/``box``/``imm``, canonical seats), those that stay on the
    level solved by Gauss-Seidel.  ``order``: state indices by level, ``starts``: level boundaries.
    Returns (largest change of a value, transitions to a lower level, same-level overflow)."""
    L = C - F + 1
    nk = prob.shape[0]
    big = 0.0
    n_down = 0
    n_over = 0
    for lv in range(starts.shape[0] - 1):
        a = starts[lv]
        m = starts[lv + 1] - a
        y0 = np.zeros(4, np.int64)
        _decode(order[a], L, F, y0)
        level = y0[0] + y0[1] + y0[2] + y0[3]
        ext = np.zeros((m, V_LEN))
        s_idx = np.full((m, same_cap), -1, np.int64)
        s_k = np.zeros((m, same_cap), np.int64)
        downs = np.zeros(m, np.int64)
        overs = np.zeros(m, np.int64)
        nch = (m + 255) // 256
        for c in prange(nch):
            y = np.zeros(4, np.int64)
            yn = np.zeros(4, np.int64)
            z = np.zeros(4, np.int64)
            tmp = np.zeros(V_LEN)
            for j in range(c * 256, min(m, (c + 1) * 256)):
                for q in range(V_LEN):
                    tmp[q] = 0.0
                _decode(order[a + j], L, F, y)
                ns = 0
                for k in range(nk):
                    w, nxt, cut = _step(y, k, delta, taker, target, F, C, tie_break, yn, z)
                    if nxt >= 0 and z[0] + z[1] + z[2] + z[3] == level:
                        if ns < same_cap:
                            s_idx[j, ns] = nxt
                            s_k[j, ns] = k
                            ns += 1
                            for s in range(4):
                                tmp[V_MONEY + s] += prob[k] * imm[k, s]
                            continue
                        overs[j] += 1
                    if nxt >= 0 and z[0] + z[1] + z[2] + z[3] < level:
                        downs[j] += 1
                    _backup(V, y, k, prob[k], delta, taker, box, imm, target, F, C, tie_break, wpo, settle0,
                            coef, yn, z, tmp)
                for q in range(V_LEN):
                    ext[j, q] = tmp[q]
        n_down += downs.sum()
        n_over += overs.sum()
        # the level's own transitions (everyone passes, a failed boulmous): Gauss-Seidel
        y = np.zeros(4, np.int64)
        acc = np.zeros(V_LEN)
        for it in range(max_inner):
            ch = 0.0
            for j in range(m):
                i = order[a + j]
                for q in range(V_LEN):
                    acc[q] = ext[j, q]
                for u in range(same_cap):
                    nxt = s_idx[j, u]
                    if nxt < 0:
                        break
                    k = s_k[j, u]
                    p = prob[k]
                    t = taker[k]
                    for s in range(4):
                        ps = V[nxt, V_WIN + (s + 3) % 4]
                        acc[V_WIN + s] += p * ps
                        mv = V[nxt, V_MONEY + (s + 3) % 4]
                        if box[k] != 0:
                            if t != s:
                                mv += ps + wpo * V[nxt, V_WIN + (t + 3) % 4]
                            else:
                                mv += -(1.0 - ps) - 3.0 * wpo * ps
                        acc[V_MONEY + s] += p * mv
                for q in range(V_LEN):
                    d = abs(acc[q] - V[i, q])
                    if d > ch:
                        ch = d
                    V[i, q] = acc[q]
            if ch > big:
                big = ch
            if ch <= tol:
                break
    return big, n_down, n_over


MU_MIN = 1e-12         # states visited less than this (expected visits) are left out of the influence


@njit(cache=True, nogil=True, parallel=True)
def influence(V, order, starts, level_of, pos_in_level, x0, prob, delta, taker, box, imm, target, F, C, tie_break,
              wpo, settle0, coef, same_cap, max_inner):
    """Delta method: the derivative of the 8 values of state ``x0`` with respect to each outcome's
    probability, centred (sum over the visits of the game from x0, by the rotation r of the seats,
    of the occupancy times (the outcome's backed-up value minus the state's value)).  Returns
    float64[n outcomes, V_LEN] (``VALUE``) in x0's seats."""
    L = C - F + 1
    nk = prob.shape[0]
    NS = V.shape[0]
    mu = np.zeros((NS, 4))
    mu[x0, 0] = 1.0
    IF = np.zeros((nk, V_LEN))
    G = 16
    IFg = np.zeros((G, nk, V_LEN))
    y = np.zeros(4, np.int64)
    yn = np.zeros(4, np.int64)
    z = np.zeros(4, np.int64)
    tmp = np.zeros(V_LEN)
    lv0 = level_of[x0]
    for lv in range(lv0, -1, -1):                       # levels are stored highest first
        a = starts[lv]
        m = starts[lv + 1] - a
        _decode(order[a], L, F, y)
        level = y[0] + y[1] + y[2] + y[3]
        # the inflow from the lower levels is final: spread it over the level's own transitions (Jacobi),
        # listing a state's same-level transitions the first time it is reached
        inflow = np.zeros((m, 4))
        for j in range(m):
            for r in range(4):
                inflow[j, r] = mu[order[a + j], r]
        s_j = np.full((m, same_cap), -2, np.int64)
        s_k = np.zeros((m, same_cap), np.int64)
        cur = inflow.copy()
        for it in range(max_inner):
            nxtmu = inflow.copy()
            for j in range(m):
                if cur[j, 0] == 0.0 and cur[j, 1] == 0.0 and cur[j, 2] == 0.0 and cur[j, 3] == 0.0:
                    continue
                if s_j[j, 0] == -2:
                    s_j[j, 0] = -1
                    _decode(order[a + j], L, F, y)
                    ns = 0
                    for k in range(nk):
                        w, nxt, cut = _step(y, k, delta, taker, target, F, C, tie_break, yn, z)
                        if nxt >= 0 and z[0] + z[1] + z[2] + z[3] == level and ns < same_cap:
                            s_j[j, ns] = pos_in_level[nxt]
                            s_k[j, ns] = k
                            ns += 1
                            if ns < same_cap:
                                s_j[j, ns] = -1
                for u in range(same_cap):
                    jj = s_j[j, u]
                    if jj < 0:
                        break
                    pk = prob[s_k[j, u]]
                    for r in range(4):
                        nxtmu[jj, (r + 1) % 4] += pk * cur[j, r]
            d = 0.0
            for j in range(m):
                for r in range(4):
                    d = max(d, abs(nxtmu[j, r] - cur[j, r]))
            cur = nxtmu
            if d < 1e-13:
                break
        for j in range(m):
            i = order[a + j]
            for r in range(4):
                mu[i, r] = cur[j, r]
        # accumulate the influence (in parallel, by groups of states), then push the occupancy up
        for g in prange(G):
            yg = np.zeros(4, np.int64)
            yng = np.zeros(4, np.int64)
            zg = np.zeros(4, np.int64)
            tg = np.zeros(V_LEN)
            dg = np.zeros(V_LEN)
            for j in range(g, m, G):
                i = order[a + j]
                if max(cur[j, 0], cur[j, 1], cur[j, 2], cur[j, 3]) < MU_MIN:
                    continue
                _decode(i, L, F, yg)
                for k in range(nk):
                    for q in range(V_LEN):
                        tg[q] = 0.0
                    _backup(V, yg, k, 1.0, delta, taker, box, imm, target, F, C, tie_break, wpo, settle0, coef,
                            yng, zg, tg)
                    for q in range(V_LEN):
                        dg[q] = tg[q] - V[i, q]
                    for r in range(4):
                        mr = cur[j, r]
                        if mr == 0.0:
                            continue
                        for s in range(4):
                            cs = (s + r) % 4          # x0's seat s sits at canonical seat s + r here
                            IFg[g, k, V_WIN + s] += mr * dg[V_WIN + cs]
                            IFg[g, k, V_MONEY + s] += mr * dg[V_MONEY + cs]
        for j in range(m):
            if max(cur[j, 0], cur[j, 1], cur[j, 2], cur[j, 3]) < MU_MIN:
                continue
            _decode(order[a + j], L, F, y)
            for k in range(nk):
                w, nxt, cut = _step(y, k, delta, taker, target, F, C, tie_break, yn, z)
                if nxt >= 0 and z[0] + z[1] + z[2] + z[3] != level:
                    for r in range(4):
                        mu[nxt, (r + 1) % 4] += prob[k] * cur[j, r]
    for g in range(G):
        IF += IFg[g]
    return IF


# ---------------------------------------------------------------------------
# score-aware decisions: the joint outcome of one hand's calls, and the value after a deal
# ---------------------------------------------------------------------------
# ``boulmous_odds_joint``'s vector: per trump (5) the counts of the four seats' tricks, then the outcome codes of
# the auction in which the seat passes
ODDS_JOINT = Layout(("by_trump", (5, ODDS_WON)), ("pass", N_CODES))
OJ_BY_TRUMP, OJ_PASS = ODDS_JOINT.offsets()
AGG_ODDS_JOINT = ODDS_JOINT.size


@njit(cache=True, nogil=True, parallel=True)
def boulmous_odds_joint(key_deal, key_dec, first, n, fixed, seat, dealer, rules, hcodes, hparams):
    """As kernels/boulmous/odds.sim_odds (the same deals and decisions), but the tricks of every seat: per trump
    the counts of the four seats' tricks with ``seat`` forced taker, then the outcome codes (as
    ``boulmous_outcomes``, seats relative to the dealer) of the auction in which ``seat`` passes: the fields of
    ``ODDS_JOINT``."""
    lb = rules[KB.R_LEFT_BOWER_TRUMP]
    nch = (n + CHUNK - 1) // CHUNK
    ng = min(nch, GROUPS)
    part = np.zeros((ng, AGG_ODDS_JOINT), np.int64)
    rest0 = np.zeros(18, np.int64)
    k = 0
    m = KB.DECK24 & ~fixed
    while m != np.uint64(0):
        rest0[k] = lowest(m)
        m &= m - np.uint64(1)
        k += 1
    for g in prange(ng):
        st = np.zeros(1, np.uint64)
        sd = np.zeros(1, np.uint64)
        rest = np.zeros(18, np.int64)
        hands = np.zeros(4, np.uint64)
        work = np.zeros(4, np.uint64)
        rec = np.zeros(KB.REC_LEN, np.int64)
        nogame = KB.no_game()
        acc = part[g]
        for ch in range(g, nch, ng):
            for i in range(ch * CHUNK, min(n, (ch + 1) * CHUNK)):
                idx = first + i
                seed_state(sd, key_deal, idx)
                rest[:] = rest0
                KB.deal_with_fixed(sd, rest, fixed, seat, hands, i64(6))
                for t in range(5):
                    seed_state(st, key_dec, idx)
                    KB.play_deal(hands, work, dealer, seat, i64(3), i64(t), i64(-1), rules, hcodes, hparams, st, lb,
                                 rec, nogame)
                    code = 0
                    mul = 343
                    for r in range(4):
                        code += rec[KB.REC_WON + (dealer + 1 + r) % 4] * mul
                        mul //= 7
                    acc[OJ_BY_TRUMP + t * ODDS_WON + code] += 1
                seed_state(st, key_dec, idx)
                KB.play_deal(hands, work, dealer, i64(-1), i64(0), i64(-1), seat, rules, hcodes, hparams, st, lb, rec,
                             nogame)
                taker = rec[KB.REC_TAKER]
                if taker < 0:
                    code = PASS_CODE
                else:
                    code = OC_TAKEN + ((taker - dealer - 1) % 4 * 4 + rec[KB.REC_CONTRACT] - 3) * ODDS_WON
                    mul = 343
                    for r in range(4):
                        code += rec[KB.REC_WON + (dealer + 1 + r) % 4] * mul
                        mul //= 7
                acc[OJ_PASS + code] += 1
    return sum_rows(part)


@njit(cache=True, nogil=True)
def values_after(V, y, delta, taker, box, imm, target, F, C, tie_break, wpo, settle0, coef):
    """The values (``VALUE``, canonical seats of ``y``) after each outcome k from canonical scores ``y``, the
    boulmous payments included: float64[n outcomes, V_LEN]."""
    nk = delta.shape[0]
    out = np.zeros((nk, V_LEN))
    yn = np.zeros(4, np.int64)
    z = np.zeros(4, np.int64)
    tmp = np.zeros(V_LEN)
    for k in range(nk):
        for q in range(V_LEN):
            tmp[q] = 0.0
        _backup(V, y, k, 1.0, delta, taker, box, imm, target, F, C, tie_break, wpo, settle0, coef, yn, z, tmp)
        for q in range(V_LEN):
            out[k, q] = tmp[q]
    return out


@njit(cache=True, nogil=True, parallel=True)
def bid_pstar(V, prob, delta, taker, contract, made, box, imm, target, F, C, tie_break, wpo, settle0, coef, slot):
    """Score-aware bidding: per canonical state, seat (relative to the dealer) and bid b = 3..6 the chance of
    making b above which bidding b is worth more than passing: with W_made, W_fail the seat's value after
    the deals in which it took b and made or failed (the outcomes of ``contract`` b, taker the seat), W_pass
    after those it did not take (the outcomes of ``contract`` 0 with another taker or none),
    p* = (W_pass - W_fail) / (W_made - W_fail); -1 when bidding is never worse (W_fail >= W_pass), 2 when it
    is never better (W_made <= W_pass, or no such deal in the sample); so W_made <= W_fail gives -1 or 2.
    The value is the state's field at offset ``slot`` + seat: ``V_WIN``, P(win the game); ``V_MONEY``, the expected
    money (``_backup``: the boulmous payments and the box of the deal included).  Returns float32[L^4, 4, 4]."""
    L = C - F + 1
    NS = L * L * L * L
    nk = prob.shape[0]
    out = np.zeros((NS, 4, 4), np.float32)
    nch = (NS + 255) // 256
    for c in prange(nch):
        y = np.zeros(4, np.int64)
        yn = np.zeros(4, np.int64)
        z = np.zeros(4, np.int64)
        tmp = np.zeros(V_LEN)
        wm = np.zeros((4, 4))
        nm = np.zeros((4, 4))
        wf = np.zeros((4, 4))
        nf = np.zeros((4, 4))
        wp = np.zeros(4)
        npass = np.zeros(4)
        for i in range(c * 256, min(NS, (c + 1) * 256)):
            _decode(i, L, F, y)
            wm[:] = 0.0
            nm[:] = 0.0
            wf[:] = 0.0
            nf[:] = 0.0
            wp[:] = 0.0
            npass[:] = 0.0
            for k in range(nk):
                for q in range(V_LEN):
                    tmp[q] = 0.0
                _backup(V, y, k, 1.0, delta, taker, box, imm, target, F, C, tie_break, wpo, settle0, coef, yn, z,
                        tmp)
                p = prob[k]
                t = taker[k]
                if contract[k] == 0:
                    for r in range(4):
                        if r != t:
                            wp[r] += p * tmp[slot + r]
                            npass[r] += p
                else:
                    b = contract[k] - 3
                    if made[k] != 0:
                        wm[t, b] += p * tmp[slot + t]
                        nm[t, b] += p
                    else:
                        wf[t, b] += p * tmp[slot + t]
                        nf[t, b] += p
            for r in range(4):
                w_pass = wp[r] / npass[r] if npass[r] > 0 else 0.0
                for b in range(4):
                    if nm[r, b] == 0.0 or nf[r, b] == 0.0:
                        out[i, r, b] = 2.0
                        continue
                    w_m = wm[r, b] / nm[r, b]
                    w_f = wf[r, b] / nf[r, b]
                    if w_f >= w_pass:
                        out[i, r, b] = -1.0
                    elif w_m <= w_pass:
                        out[i, r, b] = 2.0
                    else:
                        out[i, r, b] = (w_pass - w_f) / (w_m - w_f)
    return out
