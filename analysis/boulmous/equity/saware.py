"""Score-aware bidding (issue 16): ``score_aware=1`` makes a Boulmous bidding heuristic (the cautious
family: cautious, aggressive) bid by the equity table in whole games, by the chance to win the game;
``score_aware=2`` the same by the seat's expected money (the table's money slots, rule 18).

The rule.  At the game's scores and dealer, for each bid b = 3..6 the equity table (analysis/boulmous/equity/
table.py) gives the seat's chance to win the game after the deals in which it took b and made it
(W_made), took b and failed (W_fail), and did not take (W_pass), averaged over the table's own measured
deals (``decode_bids``: the deals the seat did not take as they were played; every deal it took replayed
under each bid b, the same tricks, so every bid has made and failed deals; ``KE.bid_pstar``).  Bidding
b pays when its chance of making b reaches p*(b) = (W_pass - W_fail) / (W_made - W_fail); by money the W are
the seat's expected money after those deals (the table's money: the final settlement, the box of the deal
and its boulmous payments), averaged over the same deals, and p*(b) = (M_pass - M_fail) / (M_made - M_fail).
The two p* arrays are cached side by side (``CRITERIA``).  The seat's
chance of making b is read from its own trick estimate (``best_trump``, the value the heuristic bids by)
through a calibration: P(tricks >= b | the estimate's bin of 0.1), measured on deals in which the seat is made the
taker (``KE.boulmous_outcomes`` with ``calibrate``, 4,000,000 deals, cached) and made non-decreasing in the
estimate (pool adjacent violators).  So a bid b needs the lowest bin whose calibrated chance reaches p*(b): the whole-game
kernel (kernels/boulmous.play_game) writes those four bins into a per-game copy of the seat's parameters
before every deal, and ``choose_bid`` compares its estimate's bin with them (the jump to 6 keeps the
heuristic's own rule and needs the bin for 6 as well).

Which table: the one of the score-aware heuristic with ``score_aware=0`` (its base) at all four seats,
for the game's rules (seed 0, 8,000,000 deals, as ``tricksim equity``): a table is built for one heuristic
at every seat, and the base is what the other seats play in a duplicate match against it.  Score-aware
seats with different bases at one table are refused (one table per game kernel).  Money is not computed
under ``tie_break=shared_win``: ``score_aware=2`` is refused there.
"""
from __future__ import annotations

import threading
from dataclasses import replace

import numpy as np

from ....kernels import boulmous as KB
from ....kernels.boulmous import equity as KE
from ... import engine
from ...common import TricksimError, make_params
from ...engine import RunOptions
from ..config import score_aware
from ..spec import SPEC
from . import outcomes as O
from . import studies as S
from . import table as E

CAL_DEALS = 4_000_000       # deals of the calibration (one per seat in turn made taker)
CAL_SEED = 0
TABLE_DEALS = E.DEALS       # deals of the table's outcome distribution (seed 0: the table of ``tricksim equity``)
# score_aware value -> (p*'s cache kind, the field of a state's value (KE.VALUE) the W are read from: P(win), money)
CRITERIA = {1: ("boulmous-bid-pstar", KE.V_WIN), 2: ("boulmous-bid-pstar-money", KE.V_MONEY)}
_MEMO: dict = {}
_LOCK = threading.Lock()


def _game():
    return SPEC


def base_spec(spec):
    """The heuristic ``spec`` with ``score_aware=0`` (label: its name)."""
    vals = tuple((k, 0.0 if k == "score_aware" else v) for k, v in spec.values)
    return replace(spec, values=vals, label=spec.name)


def decode_bids(counts: np.ndarray, rules) -> dict:
    """The outcomes ``KE.bid_pstar`` reads, from the equity table's raw outcome counts (seats relative to
    the dealer): the measured deals as they were (``contract`` 0: for the seats that did not take, the
    deals after which they passed), and for every deal a seat took, the same tricks under each bid
    b = 3..6 (``contract`` b, ``made`` when its tricks reach b: the score change of rule 16, the box and
    the boulmous payments of that bid), so every bid has its made and failed deals, whichever bids the
    table's heuristic made."""
    c = np.asarray(counts, np.int64).reshape(4, KE.N_CODES).sum(axis=0)
    n = int(c.sum())
    rows = {}

    def add(key, m):
        rows[key] = rows.get(key, 0) + m

    for code in np.nonzero(c)[0]:
        code, m = int(code), int(c[code])
        if code == KE.PASS_CODE:
            add((0, 0, 0, 0, -1, 0, 0, 0, 0), m)
            continue
        taker, contract, won = O.split_code(code)
        for b in [0, 3, 4, 5, 6]:                   # 0: the deal as it was played
            delta, box, b6, made = O.deal_effect(won, taker, b or contract, rules)
            add((*delta, taker, box, b6, b, int(made and b > 0)), m)
    keys = list(rows)
    cnt = np.array([rows[k] for k in keys], np.float64)
    col = lambda i: np.array([k[i] for k in keys], np.int64)   # noqa: E731
    return {"prob": cnt / n, "delta": np.array([k[:4] for k in keys], np.int64), "taker": col(4), "box": col(5),
            "imm": O.boulmous_payments(keys), "contract": col(7), "made": col(8), "n": n}


def pstar(table: E.Table, crit: int = 1) -> np.ndarray:
    """float32[L^4, 4, 4]: p*(b) per canonical state, seat relative to the dealer and bid 3..6
    (``KE.bid_pstar``) by the chance to win the game (``crit`` 1) or by money (2), computed once per
    table and criterion (kept in memory with the table, cached under $TRICKSIM_CACHE/equity)."""
    kind, slot = CRITERIA[crit]
    memo = table.__dict__.setdefault("_pstar", {})
    p = memo.get(crit)
    if p is None:
        if table.floor != KB.SA_FLOOR:
            raise TricksimError(f"score-aware bidding reads tables with the floor {KB.SA_FLOOR}, got {table.floor}")
        if slot == KE.V_MONEY:
            check_money(table.rules)
        key = O.cache_key(kind, table.rules, [], table=table.key)
        z = O.load(key)
        if z is not None:
            p = z["pstar"]
        else:
            d = decode_bids(table.counts, table.rules)
            a = table.args()
            p = KE.bid_pstar(table.V, d["prob"], d["delta"], d["taker"], d["contract"], d["made"], d["box"],
                             d["imm"], *a[5:], slot)
            O.save(key, pstar=p)
        memo[crit] = p
    return p


def fit_calibration(counts: np.ndarray) -> np.ndarray:
    """float64[SA_NBINS, 4]: P(tricks >= b | estimate bin), b = 3..6, from the counts int64[SA_NBINS * 7],
    non-decreasing in the bin (weighted pool adjacent violators over the bins with deals; an empty bin
    takes the fitted value of the nearest bin with deals below it, 0 below the first)."""
    c = np.asarray(counts, np.float64).reshape(KB.SA_NBINS, 7)
    n = c.sum(axis=1)
    out = np.zeros((KB.SA_NBINS, 4))
    have = np.nonzero(n > 0)[0]
    if len(have) == 0:
        return out
    for b in range(3, 7):
        p = c[have, b:].sum(axis=1) / n[have]
        fit = pava(p, n[have])
        full = np.zeros(KB.SA_NBINS)
        full[have] = fit
        last = 0.0
        for i in range(KB.SA_NBINS):
            if n[i] > 0:
                last = full[i]
            full[i] = last
        out[:, b - 3] = full
    return out


def pava(y: np.ndarray, w: np.ndarray) -> np.ndarray:
    """The non-decreasing sequence closest to ``y`` in weighted least squares."""
    vals, wts, lens = [], [], []
    for yi, wi in zip(y, w):
        vals.append(float(yi))
        wts.append(float(wi))
        lens.append(1)
        while len(vals) > 1 and vals[-2] > vals[-1]:
            v = (vals[-2] * wts[-2] + vals[-1] * wts[-1]) / (wts[-2] + wts[-1])
            wts[-2] += wts[-1]
            lens[-2] += lens[-1]
            vals[-2] = v
            vals.pop(), wts.pop(), lens.pop()
    return np.repeat(vals, lens)


def calibration(spec, rules, opts: RunOptions = RunOptions()) -> np.ndarray:
    """The fitted calibration (``fit_calibration``) of the heuristic ``spec`` (its estimate's parameters, its
    play at all four seats), measured once and cached under $TRICKSIM_CACHE/equity (or shipped, analysis/data/)."""
    g = _game()
    specs = [base_spec(spec)] * 4
    key = O.cache_key("boulmous-bid-calibration", rules, specs, seed=CAL_SEED, deals=CAL_DEALS)
    with _LOCK:
        if key in _MEMO:
            return _MEMO[key]
    z = O.load(key) or O.shipped("boulmous-bid-calibration", rules, specs, seed=CAL_SEED, deals=CAL_DEALS)
    if z is not None:
        counts = z["counts"]
    else:
        run = engine.Run("boulmous.equity_calibration", make_params(CAL_SEED, rules, specs), CAL_DEALS, E.BLOCK)
        counts = opts.sub("bid_calibration").execute(run).counts     # its own folder, not the caller's run's
        O.save(key, counts=counts)
    fit = fit_calibration(counts)
    with _LOCK:
        _MEMO[key] = fit
    return fit


def block_calibration(params, first, n):
    kd, kc, ra, codes, prm = _game().kernel_args(params)
    return KE.boulmous_outcomes(kd, kc, first, n, ra, codes, prm, True)


def criterion(spec) -> int:
    """The seat's score-aware criterion: 0 (none), 1 (by P(win)) or 2 (by money)."""
    return int(dict(spec.values).get("score_aware", 0))


def check_money(rules) -> None:
    """Refuse bidding by money where the table has none (``tie_break=shared_win``)."""
    if rules.tie_break == "shared_win":
        raise TricksimError("score_aware=2 bids by money, which is not computed under tie_break=shared_win; "
                            "use score_aware=1 or another tie_break")


def table_for(specs, rules, opts: RunOptions = RunOptions()) -> E.Table:
    """The equity table the score-aware seats of ``specs`` bid by (their base heuristic at all seats)."""
    E.check_rules(rules)
    aware = [s for s in specs if criterion(s)]
    if any(criterion(s) == 2 for s in aware):
        check_money(rules)
    bases = {(base_spec(s).name, base_spec(s).values) for s in aware}
    if len(bases) > 1:
        raise TricksimError("score-aware seats at one table must share one base heuristic (one equity table); "
                            f"got {len(bases)} different ones")
    return S.boulmous_table(0, TABLE_DEALS, rules, [base_spec(aware[0])] * 4, opts.sub("equity_table"))


def seating_arrays(rows, rules, opts: RunOptions = RunOptions()):
    """``play_game``'s score-aware arguments for the seatings ``rows`` (lists of 4 specs): (pstar
    float32[2, L^4, 4, 4], cal float64[len(rows), 4, SA_NBINS, 4]); pstar[c - 1] is p* of criterion c
    (``pstar``), filled for the criteria the seats use (the other stays zero, never read), and
    ``KB.no_score_aware()``'s when no seat is score-aware."""
    flat = [s for r in rows for s in r]
    cal = np.zeros((len(rows), 4, KB.SA_NBINS, 4))
    if not score_aware(flat):
        return KB.no_score_aware()[0], cal
    table = table_for(flat, rules, opts)
    used = sorted({criterion(s) for s in flat} - {0})
    p = np.zeros((2,) + pstar(table, used[0]).shape, np.float32)
    for c in used:
        p[c - 1] = pstar(table, c)
    for i, r in enumerate(rows):
        for s, spec in enumerate(r):
            if criterion(spec):
                cal[i, s] = calibration(spec, rules, opts)
    return p, cal


def game_arrays(specs, rules, opts: RunOptions = RunOptions()):
    """``play_game``'s score-aware arguments for one seating (4 specs): (pstar, cal float64[4, SA_NBINS, 4])."""
    p, cal = seating_arrays([list(specs)], rules, opts)
    return p, cal[0]
