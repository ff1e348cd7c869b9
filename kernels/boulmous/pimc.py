"""The Boulmous sampling player (PIMC, issue 12 item 3): ``pimc_card`` / ``pimc_choose`` choose a seat's card
by sampling the layouts of the unseen cards (``sample_worlds``) and solving each open-handed
(kernels/boulmous/solver.py); ``pimc_calls`` bids and names trumps by sampling; ``pimc_play_batch`` and
``pimc_replay`` play whole deals with four such seats (``tricksim bench --solver``).  The kernels that seat it
beside the heuristics take it as their ``pimc`` argument (kernels/boulmous/play.py); the odds and class kernels
that seat it are in kernels/boulmous/pimc_batch.py."""
import numpy as np
from numba import njit, prange

from ..cards import U0, U1, lowest, popcount
from ..rng import below, seed_state
from .players import COLUMN, H_CAUTIOUS, NO_SA, P_INFER, PARAMS, choose_bid, min_power_card
from .rules import DECK24, NT, R_FAILED_KEEPS, R_LEFT_BOWER_TRUMP, REC_BIDS, REC_NBIDS, apply_card, legal_mask
from .solver import TT_BITS, W_NODES, _reps, _trick_state, _workspace, scope_of, share_scope, solve, solve_shared

# ============================================================================
# the sampling player (PIMC): played by kernels/boulmous/play.py (``pimc``) and pimc_batch.py
# ============================================================================
GOAL_TRICKS, GOAL_CONTRACT = 0, 1
SHARE_TT = int(PARAMS[COLUMN["share_tt"]][1])   # the declared default of ``share_tt``: ``share`` of the callers
# from Python, which must pass it (an omitted argument is a compiled form of its own); inside kernels, unless given
RACE_MIN_WORLDS = 8     # pimc_choose's race looks at the lead from this many worlds on
MAX_TRIES = 512         # inference (``infer`` = 1): layouts drawn per world before it falls back
# the counters (int64[N_STATS], the ``stats`` of a ``heard`` argument; kernels/boulmous/play.py keeps them in its
# scratch): decisions by cards and calls, those whose worlds were checked against the auction, worlds, the worlds
# of those decisions, layouts drawn and rejected by the auction check, worlds that fell back
S_CARDS, S_CALLS, S_INFERRED, S_WORLDS, S_INFERRED_WORLDS, S_DRAWS, S_AUCTION_REJECTS, S_FALLBACKS = range(8)
STAT_NAMES = ("card_decisions", "call_decisions", "inferred_decisions", "worlds", "inferred_worlds", "draws",
              "auction_rejects", "fallbacks")
N_STATS = len(STAT_NAMES)


@njit(cache=True, nogil=True)
def _history(played, n_played, taker, t, lb, who, pos, led_of, wp_of):
    """Replays the cards played so far (the taker leads the first trick, rule 10): fills, per
    card, its seat, its place in its trick and the trick's led class and winning power before it.
    Returns (leader of the current trick, cards in it, its led class, winning power, winning seat,
    taker tricks so far)."""
    leader = taker
    n = 0
    led = 0
    wp = -1
    wseat = taker
    won = 0
    held = np.zeros(4, np.uint64)   # apply_card's hands: not tracked here
    for i in range(n_played):
        c = played[i]
        s = (leader + n) & 3
        who[i] = s
        pos[i] = n
        led_of[i] = led             # (for a lead, n == 0: never read)
        wp_of[i] = wp
        led, wp, wseat = apply_card(held, s, c, n, led, wp, wseat, t, lb)
        n, leader, won = _next_card(n, leader, wseat, taker, won)
    return leader, n, led, wp, wseat, won


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _next_card(n, leader, wseat, taker, won):
    """After the ``n``-th card (0 = the lead) of a trick: (cards in the trick, its leader, the taker's tricks);
    a full trick goes to its winner, who leads the next."""
    if n < 3:
        return n + 1, leader, won
    return 0, wseat, won + (1 if wseat == taker else 0)


@njit(cache=True, nogil=True)
def _consistent(world, seat, played, n_played, who, pos, led_of, wp_of, t, rules, lb):
    """Would every card the other seats played have been legal with the hands of ``world``?"""
    for i in range(n_played):
        s = who[i]
        if s == seat or pos[i] == 0:
            continue
        then = world[s]
        for j in range(i, n_played):
            if who[j] == s:
                then |= U1 << np.uint64(played[j])
        if legal_mask(then, pos[i], led_of[i], wp_of[i], t, rules, lb) & (U1 << np.uint64(played[i])) == U0:
            return False
    return True


@njit(cache=True, nogil=True)
def _sampler(seat, hand, played, n_played, who, pos, led_of, wp_of, t, rules, lb):
    """What the other seats may hold, seen from ``seat``: (others int64[3], their hand sizes
    cap int64[3], elig uint64[3] the unseen cards each may hold, ucards int64[nu] the unseen
    cards, ways int64[nu+1, cap0+1, cap1+1]). A card is ineligible for a seat when holding it
    would have made one of that seat's plays illegal (with the cards known to be in its hand
    then: that play and its later ones); legality only grows more restrictive with more cards,
    so this is exact per card. ways[i, a, b] counts the layouts of ucards[i:] giving a cards to
    others[0], b to others[1] and the rest to others[2], each card to a seat it is eligible for."""
    pm = U0
    for i in range(n_played):
        pm |= U1 << np.uint64(played[i])
    unseen = DECK24 & ~hand & ~pm
    per_seat = np.zeros(4, np.int64)
    for i in range(n_played):
        per_seat[who[i]] += 1
    start = popcount(hand) + per_seat[seat]
    others = np.zeros(3, np.int64)
    cap = np.zeros(3, np.int64)
    elig = np.zeros(3, np.uint64)
    j = 0
    for s in range(4):
        if s != seat:
            others[j] = s
            cap[j] = start - per_seat[s]
            elig[j] = unseen
            j += 1
    for i in range(n_played):
        s = who[i]
        if s == seat or pos[i] == 0:
            continue
        known = U0
        for k in range(i, n_played):
            if who[k] == s:
                known |= U1 << np.uint64(played[k])
        jj = 0 if others[0] == s else (1 if others[1] == s else 2)
        m = elig[jj]
        while m != U0:
            c = lowest(m)
            m &= m - U1
            b = U1 << np.uint64(c)
            if legal_mask(known | b, pos[i], led_of[i], wp_of[i], t, rules, lb) \
                    & (U1 << np.uint64(played[i])) == U0:
                elig[jj] &= ~b
    nu = popcount(unseen)
    ucards = np.zeros(nu, np.int64)
    m = unseen
    for k in range(nu):
        ucards[k] = lowest(m)
        m &= m - U1
    ways = np.zeros((nu + 1, cap[0] + 1, cap[1] + 1), np.int64)
    ways[nu, 0, 0] = 1
    for i in range(nu - 1, -1, -1):
        b0 = U1 << np.uint64(ucards[i])
        for a in range(cap[0] + 1):
            for b in range(cap[1] + 1):
                c3 = nu - i - a - b
                if c3 < 0 or c3 > cap[2]:
                    continue
                w = 0
                if a > 0 and elig[0] & b0:
                    w += ways[i + 1, a - 1, b]
                if b > 0 and elig[1] & b0:
                    w += ways[i + 1, a, b - 1]
                if c3 > 0 and elig[2] & b0:
                    w += ways[i + 1, a, b]
                ways[i, a, b] = w
    return others, cap, elig, ucards, ways


@njit(cache=True, nogil=True)
def _draw(st, world, others, cap, elig, ucards, ways):
    """One layout uniformly among those counted by ``ways[0, cap0, cap1]`` (> 0) into
    ``world`` (the seats of ``others`` only)."""
    for j in range(3):
        world[others[j]] = U0
    a = cap[0]
    b = cap[1]
    for i in range(ucards.shape[0]):
        b0 = U1 << np.uint64(ucards[i])
        r = below(st, ways[i, a, b])
        w0 = ways[i + 1, a - 1, b] if a > 0 and elig[0] & b0 else 0
        if r < w0:
            world[others[0]] |= b0
            a -= 1
            continue
        r -= w0
        w1 = ways[i + 1, a, b - 1] if b > 0 and elig[1] & b0 else 0
        if r < w1:
            world[others[1]] |= b0
            b -= 1
        else:
            world[others[2]] |= b0


@njit(cache=True, nogil=True, inline="always")
def _world(st, world, seat, hand, others, cap, elig, ucards, ways, played, n_played, who, pos, led_of, wp_of, t,
           rules, lb):
    """Draw one world (``_draw``) consistent with every card played, ``seat`` holding ``hand``."""
    for _try in range(100):     # a safety net: the per-card constraints are exact
        _draw(st, world, others, cap, elig, ucards, ways)
        if _consistent(world, seat, played, n_played, who, pos, led_of, wp_of, t, rules, lb):
            break
    world[seat] = hand


# ============================================================================
# inference (``infer`` = 1): worlds whose hands make the calls heard
# ============================================================================
@njit(cache=True, nogil=True, _nrt=False)
def model_bid(hand, high, hparams, me, lb, st):
    """The call the sampling seat ``me`` expects of another seat holding ``hand`` over the highest bid ``high``:
    ``cautious``'s bidding with ``me``'s own parameters (what pimc itself bids with ``bid=0``); 0 = pass.
    Deterministic (``st`` is not read)."""
    return choose_bid(H_CAUTIOUS, hparams, me, hand, high, st, lb, NO_SA)


@njit(cache=True, nogil=True, _nrt=False)
def heard_ok(start, me, rec, nb, hparams, lb, st):
    """Whether the hands as dealt ``start`` (uint64[4]) make the first ``nb`` calls heard (``rec[REC_BIDS..]``,
    seat and bid, 0 = pass): every call of a seat other than ``me`` is a pass where the model
    (``model_bid``, over the highest bid heard before it) passes, and a bid where the model bids. The kind of
    call rather than its level: the model only bids the lowest legal level or jumps to 6, other players need not."""
    high = 0
    for i in range(nb):
        s = rec[REC_BIDS + 2 * i]
        b = rec[REC_BIDS + 2 * i + 1]
        if s != me and (model_bid(start[s], high, hparams, me, lb, st) > 0) != (b > 0):
            return False
        if b > 0:
            high = b
    return True


@njit(cache=True, nogil=True)
def _heard_world(st, world, seat, hand, others, cap, elig, ucards, ways, played, n_played, who, pos, led_of, wp_of, t,
                 rules, lb, pby, start, rec, nb, hparams, stats):
    """A world (``_world``: consistent with the play) whose hands as dealt (its hands plus ``pby``, the cards each
    seat played) make the calls heard (``heard_ok``), drawn again up to MAX_TRIES times. Returns False when no
    layout did: ``world`` then holds the last one drawn (consistent with the play, not the auction)."""
    for _ in range(MAX_TRIES):
        _world(st, world, seat, hand, others, cap, elig, ucards, ways, played, n_played, who, pos, led_of, wp_of, t,
               rules, lb)
        stats[S_DRAWS] += 1
        for q in range(4):
            start[q] = world[q] | pby[q]
        if heard_ok(start, seat, rec, nb, hparams, lb, st):
            return True
        stats[S_AUCTION_REJECTS] += 1
    return False


CHECKED, FELL_BACK, UNCHECKED = 2, 1, 0     # the inference's state in one decision (``_next_world``)


@njit(cache=True, nogil=True)
def _next_world(st, world, seat, hand, others, cap, elig, ucards, ways, played, n_played, who, pos, led_of, wp_of, t,
                rules, lb, heard, nb, state, pby, start):
    """The decision's next world into ``world``. ``heard`` (None, or (rec, hparams, stats): the calls heard, the
    seats' parameters, the counters) and ``state``: CHECKED draws a world that makes the first ``nb`` calls heard
    (``_heard_world``); when none does in MAX_TRIES layouts, that world is the last layout drawn and the decision
    goes on FELL_BACK: its later worlds are drawn without the check (as with ``infer`` = 0). Every world of a
    FELL_BACK decision, the first included, is counted a fallback. Returns the state for the next world."""
    if heard is not None:
        stats = heard[2]
        stats[S_WORLDS] += 1
        if state != UNCHECKED:
            stats[S_INFERRED_WORLDS] += 1
        if state == CHECKED:
            if _heard_world(st, world, seat, hand, others, cap, elig, ucards, ways, played, n_played, who, pos, led_of,
                            wp_of, t, rules, lb, pby, start, heard[0], nb, heard[1], stats):
                return CHECKED
            stats[S_FALLBACKS] += 1
            return FELL_BACK
        if state == FELL_BACK:
            stats[S_FALLBACKS] += 1
    _world(st, world, seat, hand, others, cap, elig, ucards, ways, played, n_played, who, pos, led_of, wp_of, t, rules,
           lb)
    return state


@njit(cache=True, nogil=True)
def _infer_state(heard, seat, nb, stats_slot):
    """The first world's state of a decision (``_next_world``) and its count in the decisions ``stats_slot``:
    CHECKED when the seat infers (``infer`` = 1) and has heard a call (``nb`` > 0), else UNCHECKED."""
    if heard is None:
        return UNCHECKED
    stats = heard[2]
    stats[stats_slot] += 1
    if heard[1][seat, P_INFER] > 0.5 and nb > 0:
        stats[S_INFERRED] += 1
        return CHECKED
    return UNCHECKED


@njit(cache=True, nogil=True)
def _played_by(played, n_played, who, pby):
    """``pby[s]`` (uint64[4]) = the cards seat ``s`` played among ``played[:n_played]`` (seats ``who``)."""
    for s in range(4):
        pby[s] = U0
    for i in range(n_played):
        pby[who[i]] |= U1 << np.uint64(played[i])


@njit(cache=True, nogil=True)
def sample_worlds(seat, hand, played, n_played, taker, t, rules, key, deal_index, out, heard=None):
    """``out.shape[0]`` worlds (uint64[n, 4]) as pimc_card samples them (the same stream):
    uniform among the layouts consistent with what ``seat`` has seen; with ``heard`` ((rec, hparams, stats), as
    ``pimc_choose`` takes it) and the seat's ``infer`` = 1, also with the calls heard, ``rec[REC_NBIDS]`` of them
    (``_next_world``; ``stats`` counts the draws and fallbacks). Returns the number of layouts consistent with
    the play (0: none, ``out`` untouched)."""
    lb = rules[R_LEFT_BOWER_TRUMP]
    who = np.zeros(24, np.int64)
    pos = np.zeros(24, np.int64)
    led_of = np.zeros(24, np.int64)
    wp_of = np.zeros(24, np.int64)
    _history(played, n_played, taker, t, lb, who, pos, led_of, wp_of)
    others, cap, elig, ucards, ways = _sampler(seat, hand, played, n_played, who, pos, led_of, wp_of, t, rules, lb)
    total = ways[0, cap[0], cap[1]]
    if total == 0:
        return 0
    st = np.zeros(1, np.uint64)
    seed_state(st, key, deal_index)
    seed_state(st, st[0], n_played)
    world = np.zeros(4, np.uint64)
    pby = np.zeros(4, np.uint64)
    start = np.zeros(4, np.uint64)
    _played_by(played, n_played, who, pby)
    nb = 0 if heard is None else heard[0][REC_NBIDS]
    state = _infer_state(heard, seat, nb, S_CARDS)
    for w in range(out.shape[0]):
        state = _next_world(st, world, seat, hand, others, cap, elig, ucards, ways, played, n_played, who, pos, led_of,
                            wp_of, t, rules, lb, heard, nb, state, pby, start)
        for s in range(4):
            out[w, s] = world[s]
    return total


@njit(cache=True, nogil=True)
def pimc_card(seat, hand, played, n_played, taker, t, bid, rules, worlds, goal, key, deal_index, ws, share):
    """``pimc_choose`` without the race (every one of the ``worlds`` worlds is solved)."""
    return pimc_choose(seat, hand, played, n_played, taker, t, bid, rules, worlds, goal, key, deal_index, ws, 0.0,
                       None, share)


@njit(cache=True, nogil=True)
def pimc_choose(seat, hand, played, n_played, taker, t, bid, rules, worlds, goal, key, deal_index, ws, race,
                heard=None, share=SHARE_TT):
    """The card a sampling (PIMC) player in ``seat`` plays, from what it sees: its ``hand``
    (uint64), the cards ``played[:n_played]`` (int64) in play order since the first trick (led
    by the taker), the contract (``taker``, trump ``t``, ``bid``) and the rules.

    It samples ``worlds`` layouts of the unseen cards, uniformly among those consistent with all
    it has seen: the hand sizes, and every card another seat played being legal with that seat's
    hand at the time (which covers the voids shown, with the left bower's class, and what the
    trumping and heading obligations reveal); see ``_sampler``, ``sample_worlds``. Each candidate
    (one card per run of equivalent legal cards) is scored on the same worlds by the solver:
    GOAL_TRICKS the taker's tricks, GOAL_CONTRACT first the number of worlds where the contract
    is made, then the tricks. The taker maximises, a defender minimises; ties go to the
    lowest-ranking card; a single candidate is played without sampling. Randomness: its own
    stream ``seed_state(seed_state(key, deal_index), n_played)``, so a decision is a pure function
    of the view and (key, deal_index). ``ws`` is a solver workspace (new_workspace()).

    The race (``race`` = z > 0, a statistical margin): from RACE_MIN_WORLDS worlds on, after each world the
    sampling stops when the leading candidate (by the rule above, on the worlds so far) leads every other by
    more than z standard errors of their paired per-world differences, L > z * sqrt(sum of d^2), in the
    measure that separates them: the makes (GOAL_CONTRACT) when their totals differ, else the tricks. It is a
    bet that the worlds left would not overturn the lead; how often it changes a decision is measured (docs/methods/sampling.md).
    ``race`` = 0: every world is solved.

    ``heard`` (kernels/boulmous/play.py passes it): None, or (rec, hparams, stats), the deal's record with the
    calls heard (``rec[REC_BIDS..]``, ``rec[REC_NBIDS]`` of them), the seats' parameters and the counters. The
    decision is counted; with the seat's ``infer`` = 1 after at least one call, its worlds also make every call
    heard under the model (``_next_world``), with the fallback stated there.

    ``share`` (the seat's ``share_tt``) = 1: the worlds are solved by ``solve_shared`` in the scope of the deal
    (``key``, ``deal_index``, the rules: ``_open_scope``), whose table is kept across the worlds, the candidates
    and the decisions of the deal; 0: each solve starts from an empty table. The values, hence the decision, are
    the same; only the nodes searched differ."""
    lb = rules[R_LEFT_BOWER_TRUMP]
    who = np.zeros(24, np.int64)
    pos = np.zeros(24, np.int64)
    led_of = np.zeros(24, np.int64)
    wp_of = np.zeros(24, np.int64)
    leader, ntr, led, wp, wseat, won = _history(played, n_played, taker, t, lb, who, pos, led_of, wp_of)
    cur = np.zeros(4, np.int64)
    tmask = U0
    for k in range(ntr):
        cur[k] = played[n_played - ntr + k]
        tmask |= U1 << np.uint64(cur[k])
    pm = U0
    for i in range(n_played):
        pm |= U1 << np.uint64(played[i])
    legal = legal_mask(hand, ntr, led, wp, t, rules, lb)
    cand = _reps(legal, DECK24 & ~pm | tmask, t, lb)
    ncand = popcount(cand)
    if ncand == 1:
        return lowest(cand)
    cards = np.zeros(ncand, np.int64)
    m = cand
    for k in range(ncand):          # lowest-ranking first: ties go to the cheaper card
        c = min_power_card(m, t, lb)
        cards[k] = c
        m &= ~(U1 << np.uint64(c))
    others, cap, elig, ucards, ways = _sampler(seat, hand, played, n_played, who, pos, led_of, wp_of, t, rules, lb)
    if ways[0, cap[0], cap[1]] == 0:
        return cards[0]             # no layout fits (cannot happen in a legal game)
    st = np.zeros(1, np.uint64)
    seed_state(st, key, deal_index)
    seed_state(st, st[0], n_played)
    world = np.zeros(4, np.uint64)
    h = np.zeros(4, np.uint64)
    trick = np.zeros(4, np.int64)
    tricks = np.zeros(ncand, np.int64)
    makes = np.zeros(ncand, np.int64)
    wmul = 7 * worlds if goal == GOAL_CONTRACT else 0   # makes first, then tricks (at most 6 * worlds)
    per = np.zeros((worlds if race > 0.0 else 1, ncand), np.int64)    # per world: 8 * made + tricks
    pby = np.zeros(4, np.uint64)
    start = np.zeros(4, np.uint64)
    _played_by(played, n_played, who, pby)
    nb = 0 if heard is None else heard[0][REC_NBIDS]
    state = _infer_state(heard, seat, nb, S_CARDS)
    _open_scope(ws, share, key, deal_index, rules)
    for w in range(worlds):
        state = _next_world(st, world, seat, hand, others, cap, elig, ucards, ways, played, n_played, who, pos, led_of,
                            wp_of, t, rules, lb, heard, nb, state, pby, start)
        for k in range(ncand):      # the same world for every candidate
            for s in range(4):
                h[s] = world[s]
            for q in range(ntr):
                trick[q] = cur[q]
            c = cards[k]
            h[seat] ^= U1 << np.uint64(c)
            trick[ntr] = c
            if ntr == 3:
                l2, w2, ws2, tm2 = _trick_state(trick, 4, leader, t, lb)
                v = (1 if ws2 == taker else 0) + _solve(h, ws2, trick, np.int64(0), t, taker, rules, ws, share)
            else:
                v = _solve(h, leader, trick, np.int64(ntr + 1), t, taker, rules, ws, share)
            tricks[k] += v
            if won + v >= bid:
                makes[k] += 1
            if race > 0.0:
                per[w, k] = v + (8 if won + v >= bid else 0)
        if race > 0.0 and RACE_MIN_WORLDS <= w + 1 < worlds:
            sgn = 1 if seat == taker else -1
            best = 0
            for k in range(1, ncand):
                if sgn * (wmul * (makes[k] - makes[best]) + tricks[k] - tricks[best]) > 0:
                    best = k
            done = True
            for k in range(ncand):
                if k == best:
                    continue
                by_makes = wmul > 0 and makes[k] != makes[best]
                lead = 0
                ss = 0
                for q in range(w + 1):
                    if by_makes:
                        d = (per[q, best] >> 3) - (per[q, k] >> 3)
                    else:
                        d = (per[q, best] & 7) - (per[q, k] & 7)
                    lead += d
                    ss += d * d
                if sgn * lead <= 0 or lead * lead <= race * race * ss:
                    done = False
                    break
            if done:
                break
    best = 0
    for k in range(1, ncand):
        if goal == GOAL_CONTRACT and makes[k] != makes[best]:
            better = makes[k] > makes[best]
        elif tricks[k] != tricks[best]:
            better = tricks[k] > tricks[best]
        else:
            continue
        if better == (seat == taker):
            best = k
    return cards[best]


@njit(cache=True, nogil=True, _nrt=False)
def _open_scope(ws, share, key, deal_index, rules):
    """With ``share`` = 1, the solver's shared table in the scope of deal ``deal_index`` of ``key`` under
    ``rules`` (solver.share_scope: a fresh generation when the workspace was in another scope)."""
    if share:
        share_scope(ws, scope_of(key, deal_index, rules))


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _solve(h, leader, trick, n_in_trick, t, taker, rules, ws, share):
    """``solve_shared`` (``share`` = 1, in the scope opened) or ``solve``: the same value."""
    if share:
        return solve_shared(h, leader, trick, n_in_trick, t, taker, rules, ws)
    return solve(h, leader, trick, n_in_trick, t, taker, rules, ws)


@njit(cache=True, nogil=True)
def pimc_deal(h, taker, t, bid, rules, worlds, goal, key, deal_index, ws, played, race, share=SHARE_TT):
    """One deal played out by four PIMC seats (the taker leads, rule 10): ``h`` (uint64[4], emptied) the
    hands, ``played`` (int64[24]) receives the cards in play order. Returns the taker's tricks. ``share``: as
    ``pimc_choose``'s (the table kept across the deal's decisions)."""
    lb = rules[R_LEFT_BOWER_TRUMP]
    leader, nt, led, wp, wseat, won = taker, 0, 0, -1, taker, 0      # the taker leads the first trick
    for k in range(24):
        s = (leader + nt) & 3
        c = pimc_choose(s, h[s], played, k, taker, t, bid, rules, worlds, goal, key, deal_index, ws, race, None,
                        share)
        played[k] = c
        led, wp, wseat = apply_card(h, s, c, nt, led, wp, wseat, t, lb)
        nt, leader, won = _next_card(nt, leader, wseat, taker, won)
    return won


@njit(cache=True, nogil=True, parallel=True)
def pimc_play_batch(hands, takers, trumps, bids, rules, worlds, goal, key, first, out_cards, out_won, share):
    """Whole deals with every seat a PIMC player (no race): deal i (row of ``hands`` uint64[n, 4], taker
    ``takers[i]`` on lead, trump ``trumps[i]``, ``bids[i]``) fills ``out_cards[i]`` (int64[24], play
    order) and ``out_won[i]`` (the taker's tricks). Decisions of deal i use deal_index first + i; ``share`` as
    ``pimc_choose``'s."""
    n = hands.shape[0]
    for i in prange(n):
        ws = _workspace(TT_BITS)
        h = np.zeros(4, np.uint64)
        for s in range(4):
            h[s] = hands[i, s]
        out_won[i] = pimc_deal(h, takers[i], trumps[i], bids[i], rules, worlds, goal, key, first + i, ws,
                               out_cards[i], 0.0, share)


# ============================================================================
# bidding and trump choice by sampling (issue 12 item 3)
# ============================================================================
CALL_STREAM = 24    # pimc_calls of seat s draws from seed_state(seed_state(key, deal_index), CALL_STREAM + s)
INFER_CALL_STREAM = 32  # with inference, after nb calls heard: INFER_CALL_STREAM + nb (nb <= MAX_BIDS = 16)


@njit(cache=True, nogil=True)
def pimc_calls(seat, hand, rules, worlds, key, deal_index, ws, sums, bids, trumps, heard=None, nb=0):
    """The calls of a sampling (PIMC) player in ``seat`` holding ``hand`` (uint64), before the auction.

    It samples ``worlds`` layouts of the 18 cards it cannot see, uniformly (the earlier bids are not used:
    the decision table below is computed before the auction), and solves each open-handed with the seat as
    the taker, on lead (rule 10), for each trump 0..4 (S H D C NT): its tricks T. A call (bid b, trump t)
    is worth, summed over the worlds, its points (rule 16: T if T >= b, else T - b, or -b without
    failed_taker_keeps_tricks) plus, for b = 6 (boulmous, rule 18), the stakes (+3 made, -3 failed);
    ``sums`` (int64[5, 5]) receives them, rows b - 3 for the bids 3..6, and row 4 the value of passing in
    column 0: the seat's tricks in the suit trump worst for it, summed over the worlds (a stand-in for its
    tricks as a defender against a taker who names his own suit; the same solves, no more).
    ``trumps`` (int64[4]) receives the best trump of each bid (ties: the lower index), ``bids`` (int64[4])
    the bid for each lowest legal bid lo = 3..6: the bid b in lo..6 of the highest value (ties: the lower
    bid), or 0 (pass) when that value does not exceed passing. Randomness: ``seed_state(seed_state(key,
    deal_index), CALL_STREAM + seat)``, apart from the card decisions' streams.

    ``heard`` (None, or (rec, hparams, stats) as ``pimc_choose`` takes it) and ``nb``: the seat speaks after the
    ``nb`` calls of ``rec[REC_BIDS..]`` (kernels/boulmous/play.py ``pimc_bid``). The decision is counted; with the
    seat's ``infer`` = 1 and ``nb`` > 0 its worlds make every call heard (``_next_world``), drawn from
    ``seed_state(seed_state(key, deal_index), INFER_CALL_STREAM + nb)`` (each of its turns its own stream).
    Its solves keep the per-solve table whatever ``share_tt``: each solves one world in one trump, and no position
    recurs among them (measured: docs/methods/sampling.md, "Solves shared across a deal")."""
    lb = rules[R_LEFT_BOWER_TRUMP]
    who = np.zeros(1, np.int64)
    played = np.zeros(1, np.int64)
    others, cap, elig, ucards, ways = _sampler(seat, hand, played, 0, who, who, who, who, NT, rules, lb)
    state = _infer_state(heard, seat, nb, S_CALLS)
    st = np.zeros(1, np.uint64)
    seed_state(st, key, deal_index)
    seed_state(st, st[0], INFER_CALL_STREAM + nb if state == CHECKED else CALL_STREAM + seat)
    world = np.zeros(4, np.uint64)
    pby = np.zeros(4, np.uint64)
    start = np.zeros(4, np.uint64)
    trick = np.zeros(4, np.int64)
    sums[:, :] = 0
    keeps = rules[R_FAILED_KEEPS] != 0
    for _w in range(worlds):
        state = _next_world(st, world, seat, hand, others, cap, elig, ucards, ways, played, 0, who, who, who, who,
                            NT, rules, lb, heard, nb, state, pby, start)
        worst = 6
        for t in range(5):
            v = solve(world, seat, trick, np.int64(0), np.int64(t), seat, rules, ws)
            if t < 4 and v < worst:
                worst = v
            for b in range(3, 7):
                if v >= b:
                    p = v
                else:
                    p = v - b if keeps else -b
                if b == 6:
                    p += 3 if v == 6 else -3
                sums[b - 3, t] += p
        sums[4, 0] += worst
    for b in range(4):
        trumps[b] = 0
        for t in range(1, 5):
            if sums[b, t] > sums[b, trumps[b]]:
                trumps[b] = t
    for lo in range(4):
        best = lo
        for b in range(lo + 1, 4):
            if sums[b, trumps[b]] > sums[best, trumps[best]]:
                best = b
        bids[lo] = best + 3 if sums[best, trumps[best]] > sums[4, 0] else 0


@njit(cache=True, nogil=True, parallel=True)
def pimc_replay(hands, takers, trumps, bids, cards, rules, worlds, goal, key, first, race, out, nodes, share):
    """The race measurement (docs/methods/sampling.md): along the play ``cards[i]`` (int64[n, 24], e.g. from ``pimc_play_batch``)
    of deal i (as in ``pimc_play_batch``), each decision with a choice made again by ``pimc_choose`` with margin
    ``race`` from the same view and stream: ``out[i, k]`` = its card, -1 where the seat had one candidate;
    ``nodes[i]`` the solver nodes searched for deal i's decisions (the work, whatever the load); ``share`` as
    ``pimc_choose``'s."""
    n = hands.shape[0]
    for i in prange(n):
        ws = _workspace(TT_BITS)
        h = np.zeros(4, np.uint64)
        for s in range(4):
            h[s] = hands[i, s]
        taker = takers[i]
        t = trumps[i]
        lb = rules[R_LEFT_BOWER_TRUMP]
        played = cards[i]
        leader, nt, led, wp, wseat, won = taker, 0, 0, -1, taker, 0
        for k in range(24):
            s = (leader + nt) & 3
            cand = _reps(legal_mask(h[s], nt, led, wp, t, rules, lb), h[0] | h[1] | h[2] | h[3] | _tmask(played, k, nt),
                         t, lb)
            out[i, k] = -1
            if popcount(cand) > 1:
                out[i, k] = pimc_choose(s, h[s], played, k, taker, t, bids[i], rules, worlds, goal, key, first + i, ws,
                                        race, None, share)
            led, wp, wseat = apply_card(h, s, played[k], nt, led, wp, wseat, t, lb)
            nt, leader, won = _next_card(nt, leader, wseat, taker, won)
        nodes[i] = np.int64(ws[W_NODES])


@njit(cache=True, nogil=True, inline="always")
def _tmask(played, k, nt):
    """The cards of the trick in progress: the last ``nt`` of ``played[:k]``."""
    m = U0
    for j in range(k - nt, k):
        m |= U1 << np.uint64(played[j])
    return m
