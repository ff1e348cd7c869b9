"""Boomke Wies match equity (issue 16): P(each team wins the match | points, deals left, who deals).

A match (docs/RULES.md 2.1 rule 12, the default) is ``match_deals`` deals, dealer 0 first and then to the
left; the higher total wins; a match tied at the end gets one extra deal (``tiebreak_extra_deal``), and a
tie after it is a draw.  Only the difference of the points matters, so the recursion runs over it: with
``p_d`` the measured distribution of one deal's difference (team 0 - team 1) when seat d deals,

    V(D, 0, d) = win / draw / loss by the sign of D (D = 0: one extra deal, then the sign),
    V(D, n, d) = sum_x p_d(x) V(D + x, n - 1, d + 1).

Intervals: a parametric bootstrap (the per-dealer counts redrawn from their multinomial, the recursion
rerun; it takes milliseconds).  Refused: a target score (``target_score``: a match to a score, not
implemented here) and ``shuffle = none_collect_tricks`` (deals are not independent).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...kernels.boomke_wies import equity as KE
from .. import engine
from ..cache import code_hash, kernel_files, key_of, load, load_shipped, save
from ..common import TricksimError, make_params, rules_dict, spec_json
from ..engine import RunOptions
from ..stats import wilson
from .config import no_pimc
from .spec import SPEC

DEALS = 4_000_000
BLOCK = 1 << 21
BOOT = 400


CODE = code_hash([*kernel_files("boomke_wies"), "analysis/boomke_wies/equity.py"])
"""The code that makes the cached per-deal counts (analysis/cache.py: ``$TRICKSIM_CACHE/equity/``)."""


def block_boomke(params, first, n):
    kd, kc, ra, codes, prm = SPEC.kernel_args(params)
    return KE.boomke_outcomes(kd, kc, first, n, ra, codes, prm)




def decode_boomke(counts: np.ndarray) -> tuple[np.ndarray, int]:
    """Per dealer the distribution of the points difference (team 0 - team 1) of one deal:
    (float64[4, 2 * D + 1] with D = KE.BW_SPAN - 1 + ... centred at index D, deals measured)."""
    c = KE.OUTCOMES.field(np.asarray(counts, np.int64).ravel(), "points")   # [dealer, team 0's points, team 1's]
    D = KE.BW_SPAN - 1
    out = np.zeros((4, 2 * D + 1))
    for a in range(KE.BW_SPAN):
        for b in range(KE.BW_SPAN):
            out[:, a - b + D] += c[:, a, b]
    tot = out.sum(axis=1, keepdims=True)
    if (tot == 0).any():
        raise TricksimError("no deal was measured for some dealer")
    return out / tot, int(c.sum())


def check_rules(rules) -> None:
    if rules.target_score is not None:
        raise TricksimError("equity for a match to a target score (target_score) is not computed: only the "
                            "fixed-length match (match_deals)")
    if rules.shuffle != "full":
        raise TricksimError("equity needs independent deals: shuffle=none_collect_tricks links each deal to the last")


def default_dealer(rules, deals_left: int) -> int:
    return (rules.match_deals - deals_left) % 4


def recursion(p: np.ndarray, diff: int, deals_left: int, dealer: int, extra: bool) -> np.ndarray:
    """(P(team 0 wins), P(draw), P(team 1 wins), E[final difference]) from the difference ``diff``;
    ``p`` float64[4, 2H+1], the difference of one deal centred at H."""
    H = (p.shape[1] - 1) // 2
    steps = deals_left + 1
    R = abs(diff) + H * steps + 1
    D = np.arange(-R, R + 1)
    sign = np.sign(D)
    win, draw, loss = (sign > 0).astype(float), (sign == 0).astype(float), (sign < 0).astype(float)
    val = D.astype(float)
    last_dealer = (dealer + deals_left) % 4

    def step(v, d):
        out = np.zeros_like(v)
        for j, q in enumerate(p[d]):
            if q == 0.0:
                continue
            x = j - H
            lo, hi = max(0, -x), min(len(v), len(v) - x)
            out[lo:hi] += q * v[lo + x:hi + x]
        return out
    if extra:   # a tie at the end: one more deal by the next dealer
        tie = [step(f, last_dealer) for f in (win, draw, loss, val)]
        z = D == 0
        win, draw, loss, val = [np.where(z, t, f) for t, f in zip(tie, (win, draw, loss, val))]
    vs = [win, draw, loss, val]
    for n in range(deals_left, 0, -1):
        d = (dealer + n - 1) % 4
        vs = [step(v, d) for v in vs]
    return np.array([v[diff + R] for v in vs])


def outcomes_run(seed, deals, rules, specs) -> engine.Run:
    g = SPEC
    return engine.Run("boomke_wies.equity_outcomes", make_params(seed, rules or g.rules(), g.parse_seats(specs)),
                      deals, BLOCK)


def config(seed: int, deals: int, rules, specs) -> dict:
    """What makes the per-deal counts, but the code (the key of a shipped table)."""
    return {"kind": "boomke-outcomes", "rules": rules_dict(rules), "heuristics": spec_json(specs), "seed": seed,
            "deals": deals}


def counts(seed: int = 0, deals: int = DEALS, rules=None, heuristics=None, opts: RunOptions = RunOptions(), run=None):
    """The per-deal counts (cached in $TRICKSIM_CACHE/equity, analysis/cache.py, or shipped in analysis/data/)
    and where they came from."""
    g = SPEC
    rules = rules or g.rules()
    check_rules(rules)
    specs = no_pimc(g.parse_seats(heuristics), "equity")
    if deals < 1:
        raise TricksimError(f"--deals must be at least 1, got {deals}")
    cfg = config(seed, deals, rules, specs)
    key = key_of(**cfg, code=CODE)
    z = load("equity", key)
    if z is not None:
        return z["counts"], "cache"
    found = load_shipped("equity", cfg)          # analysis/data/: the main job's counts, shipped with tricksim
    if found is not None:
        return found[0]["counts"], "shipped with tricksim"
    c = opts.execute(run or outcomes_run(seed, deals, rules, specs)).counts
    save("equity", key, counts=c)
    return c, "measured"


def check_state(scores, deals_left: int, rules) -> tuple[int, int]:
    try:
        vals = [int(v) for v in (scores.split(",") if isinstance(scores, str) else scores)]
    except ValueError:
        raise TricksimError(f"--scores must be 2 integers separated by commas, e.g. 7,4, got {scores!r}") from None
    if len(vals) != 2:
        raise TricksimError(f"--scores needs 2 scores (one per team), got {len(vals)}")
    if not 0 <= deals_left <= rules.match_deals:
        raise TricksimError(f"--deals-left must be 0..{rules.match_deals} (match_deals), got {deals_left}")
    return vals[0], vals[1]


def equity(c, scores, deals_left: int, dealer: int, rules, boot: int = BOOT, seed: int = 0) -> pd.DataFrame:
    """Per team: P(win) and P(draw) with their bootstrap intervals, the expected final difference (team 0 -
    team 1)."""
    a, b = scores
    p, n = decode_boomke(c)
    v = recursion(p, a - b, deals_left, dealer, bool(rules.tiebreak_extra_deal))
    cc = KE.OUTCOMES.field(np.asarray(c, np.int64), "points")
    rng = np.random.default_rng([seed, 16, 2])
    bs = []
    for _ in range(boot):
        r = np.stack([rng.multinomial(int(cc[d].sum()), cc[d].ravel() / cc[d].sum()) for d in range(4)])
        pb, _ = decode_boomke(r)
        bs.append(recursion(pb, a - b, deals_left, dealer, bool(rules.tiebreak_extra_deal)))
    bs = np.array(bs)
    lo, hi = np.percentile(bs, [2.5, 97.5], axis=0)
    return pd.DataFrame({"team": ["0 (seats 0+2)", "1 (seats 1+3)"], "points": [a, b],
                         "p_win": [v[0], v[2]], "win_lo": [lo[0], lo[2]], "win_hi": [hi[0], hi[2]],
                         "p_draw": [v[1], v[1]], "draw_lo": [lo[1], lo[1]], "draw_hi": [hi[1], hi[1]],
                         "exp_final_diff": [v[3], -v[3]],
                         "diff_lo": [lo[3], -hi[3]], "diff_hi": [hi[3], -lo[3]], "deals_measured": n})


def check(c, rules, states: int = 20, games: int = 20_000, seed: int = 0, heuristics=None,
          boot: int = 200) -> pd.DataFrame:
    """The rest of the match simulated from sampled states (points 0..2 x deals played each, deals left
    1..match_deals, the dealer of a match), on the streams of seed + 1, against the recursion: team 0's
    P(win), inside when the difference is within 1.96 combined standard errors."""
    g = SPEC
    specs = no_pimc(g.parse_seats(heuristics), "equity")
    kd, kc = g.keys((seed + 1) % 2 ** 64)
    codes, prm = g.heuristic_arrays(specs)
    ra = g.rules_array(rules)
    rng = np.random.default_rng([seed, 16, 3])
    rows = []
    for i in range(states):
        left = int(rng.integers(1, rules.match_deals + 1))
        played = rules.match_deals - left
        a, b = (int(x) for x in rng.integers(0, 2 * played + 1, 2))
        d = default_dealer(rules, left)
        r = KE.boomke_matches_from(kd, kc, np.int64(i * games), np.int64(games), ra, codes, prm, np.int64(a),
                                   np.int64(b), np.int64(left), np.int64(d))
        e = equity(c, (a, b), left, d, rules, boot, seed)
        pt = float(e.p_win[0])
        ht = float(e.win_hi[0] - e.win_lo[0]) / 2
        p, lo, hi = wilson(int(KE.MATCH_FROM.unpack(r)["wins"][0]), games)
        se = np.sqrt(max(float(p) * (1 - float(p)), 1.0 / games) / games + (ht / 1.96) ** 2)
        rows.append({"scores": f"{a},{b}", "deals_left": left, "dealer": d, "p_table": pt, "table_ci": ht,
                     "p_sim": float(p), "sim_lo": float(lo), "sim_hi": float(hi), "games": games,
                     "inside": abs(pt - float(p)) <= 1.96 * se})
    return pd.DataFrame(rows)
