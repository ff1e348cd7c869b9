"""Bourre's pot-growth study (unit: sessions): many independent sessions of consecutive deals; the
block function ``bourre.pot`` aggregates inside the kernel (log-binned pot histograms per deal,
first-passage counts, per-seat net sums and histograms), so memory is bounded by the block size,
never by the number of deals.  A session is a pure function of (seed, session index): deal j of
session k uses the generator states ``seed_state(seed_state(key, k), j)`` of the deal and
decision streams (kernels/bourre/), so ``trace bourre`` replays exactly what ``pot`` simulated."""
from __future__ import annotations

import math
import resource

import numpy as np
import pandas as pd

from ...kernels import bourre as K
from .. import engine
from ..common import TricksimError, make_params
from ..engine import RunOptions
from ..stats import batch_rate_ci, batch_ratio, hist_mean_ci, t_crit, wilson
from .bins import BIN_MID, SEAT_QUANTILES, _seat_net_stats, fmt_chips_bin, pot_quantile
from .config import MAX_FAN, BourreRules, _dynamic, no_pimc
from .ev import run_ev_tables, with_ev_form
from .spec import SPEC


def fan_stride(deals: int) -> int:
    return max(1, -(-deals // MAX_FAN))


def agg_layout(n_fan: int, deals: int):
    """The study's count vector (a ``kernels.layout.Layout``, declared by the kernel that writes it:
    kernels/bourre/sessions.py ``pot_layout``)."""
    return K.pot_layout(n_fan, deals)


def pot_block_size(deals: int) -> int:
    """Sessions per block: about 800k deals, at most 4096 sessions."""
    return int(max(1, min(4096, 800_000 // max(deals, 1))))


def _pot_vector(params, first, n):
    kd, kc, ra, codes, prm = SPEC.kernel_args(params)
    players, deals = params["players"], params["deals"]
    stride = fan_stride(deals)
    n_fan = -(-deals // stride)
    srows = np.zeros((n, K.S_LEN), np.int64)
    fans = np.zeros((n, n_fan), np.int64)
    _dynamic(K.sim_sessions, kd, kc, first, n, players, deals, stride, ra, codes, prm, run_ev_tables(params), srows,
             fans)
    lay = agg_layout(n_fan, deals)
    v = K.reduce_sessions(srows, fans, players, deals, np.array([lay.offset(f) for f in K.POT_FIELDS], np.int64),
                          lay.size, max(SPEC.rules_of(params).ante, 1))
    return np.concatenate([v, batch_sums(srows)])


# per-session sums for session-level (batch) variances of the per-deal rates: deals inside a
# session depend on each other (the pot, tie=tied_only_next_hand, bourre exemptions, pot-aware
# heuristics), sessions do not.  x = per session: outcomes (4), deals with 0..8 bourre players
# (9), bourre players, active players; d = its deals.
BATCH_X = 4 + 9 + 2
BATCH_LEN = 2 + 2 * BATCH_X      # sum d^2, deals of the finished sessions, sum x^2 (X), sum x*d (X)


def batch_sums(srows):
    s = np.asarray(srows, np.int64)
    d = s[:, K.S_DEALS]
    x = np.concatenate([s[:, K.S_OUT:K.S_OUT + 4], s[:, K.S_BOURRE:K.S_BOURRE + 9],
                        (s[:, K.S_BOURRE:K.S_BOURRE + 9] * np.arange(9)).sum(axis=1, keepdims=True),
                        (s[:, K.S_ACTIVE:K.S_ACTIVE + 9] * np.arange(9)).sum(axis=1, keepdims=True)], axis=1)
    fin = s[:, K.S_OVF] == 0
    return np.concatenate([[(d * d).sum(), d[fin].sum()], (x * x).sum(axis=0), (x * d[:, None]).sum(axis=0)]
                          ).astype(np.int64)


def block_pot(params, first, n):
    return _pot_vector(params, first, n)


def decode_pot(counts, players, deals, ante, specs, rules):
    """The tables of a pot study from its int64 vector."""
    stride = fan_stride(deals)
    n_fan = -(-deals // stride)
    lay = agg_layout(n_fan, deals)
    g = lay.unpack(counts)
    misc = K.MISC.unpack(g["misc"])
    sessions, ovf, viol, ndeals, sum_ovf_deal, ok = (int(misc[f][0]) for f in K.MISC.names())
    unit = max(ante, 1)
    bt = np.asarray(lay.rest(counts)[:BATCH_LEN], float)     # batch_sums, appended after the kernel's counts
    have_batch = len(bt) == BATCH_LEN
    ok_deals = int(bt[1]) if have_batch else ok * deals

    def rate(x, idx):
        """A per-deal rate with its session-level interval (Wilson at the effective size)."""
        if have_batch:
            p, lo, hi, _ = batch_rate_ci(x, bt[2 + idx], bt[2 + BATCH_X + idx], ndeals, bt[0], sessions)
            return p, lo, hi
        return wilson(x, ndeals)

    def mean(x, idx):
        if not have_batch:
            m, half, _ = hist_mean_ci(np.arange(9), x)
            return m, half
        sx = float((np.arange(9) * x).sum())
        m, var, dfree = batch_ratio(sx, bt[2 + idx], bt[2 + BATCH_X + idx], ndeals, bt[0], sessions)
        return float(m), float(t_crit(dfree)) * math.sqrt(float(var)) if dfree == dfree else math.nan
    res = {"players": players, "deals": deals, "sessions": sessions, "overflowed": ovf, "violations": viol,
           "deals_played": ndeals, "ok_sessions": ok, "ante": ante, "stride": stride,
           "mean_overflow_deal": sum_ovf_deal / ovf if ovf else math.nan}
    # fan chart: pot contested at each fan point
    fan = g["fan"].reshape(n_fan, K.NB)
    qs = [0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99]
    rows = []
    for f in range(n_fan):
        row = {"deal": min(deals, (f + 1) * stride)}
        h = fan[f]
        for q in qs:
            b, lo, hi, _ = pot_quantile(h, q)
            row[f"q{int(q * 100)}"] = BIN_MID[b] if b >= 0 else math.nan
            row[f"q{int(q * 100)}_lo"] = lo
            row[f"q{int(q * 100)}_hi"] = hi
        row["n"] = int(h.sum())
        row["overflowed"] = int(h[K.BIN_OVF])
        rows.append(row)
    res["fan"] = pd.DataFrame(rows)
    # largest pot of a session
    mh = g["max"]
    res["max_hist"] = mh
    mrows = []
    for q in (0.5, 0.9, 0.99, 0.999):
        b, lo, hi, txt = pot_quantile(mh, q)
        supported = lo == lo
        mrows.append({"quantile": q, "largest pot (chips)": fmt_chips_bin(b) if supported else "-",
                      "95% interval (chips)": txt, "approx": BIN_MID[b] if b >= 0 and supported else math.nan,
                      "ci_low": lo, "ci_high": hi})
    res["max_quantiles"] = pd.DataFrame(mrows)
    # first passage of 10x, 100x, 1000x the ante
    ps = g["pass"].reshape(3, deals + 1)
    res["pass_hist"] = ps
    ks = sorted({k for k in (1, 5, 10, 20, 50, 100, 200, 500, 1000, deals) if k <= deals})
    prow = []
    for i, mult in enumerate((10, 100, 1000)):
        cum = np.cumsum(ps[i][:deals])
        for k in ks:
            x = int(cum[k - 1])
            p, lo, hi = wilson(x, sessions)
            prow.append({"threshold": f"{mult}x ante ({mult * unit:,} chips)", "mult": mult, "within_deals": k,
                         "p": float(p), "ci_low": float(lo), "ci_high": float(hi), "sessions": sessions})
    res["pass"] = pd.DataFrame(prow)
    # per deal: bourre players, active players, outcomes
    bh = g["bourre"]
    ah = g["active"]
    oc = g["out"]
    nd = int(oc.sum())
    m, half = mean(bh, 4 + 9)
    res["bourre_mean"] = (m, half, nd)
    bro = []
    for k in range(9):
        if bh[k] == 0 and k > 2:
            continue
        p, lo, hi = rate(int(bh[k]), 4 + k)
        bro.append({"bourre_players": k, "p": float(p), "ci_low": float(lo), "ci_high": float(hi), "count": int(bh[k]),
                    "deals": nd})
    res["bourre"] = pd.DataFrame(bro)
    am, ahalf = mean(ah, 4 + 9 + 1)
    res["active_mean"] = (am, ahalf, nd)
    res["active_hist"] = ah
    orows = []
    for name, k in (("a unique winner takes the pot", 0), ("a tie (split pot)", 1), ("a lone player takes the pot", 2),
                    ("everyone passed (carried over)", 3)):
        p, lo, hi = rate(int(oc[k]), k)
        orows.append({"outcome": name, "p": float(p), "ci_low": float(lo), "ci_high": float(hi), "count": int(oc[k]),
                      "deals": nd})
    res["outcomes"] = pd.DataFrame(orows)
    # seats
    seat = g["seat"]
    neth = g["neth"].reshape(K.MAXP, 2, K.NB)
    srows = []
    downs = (10, 100, 1000, 10000, 1000000)
    for s in range(players):
        hi_, lo_ = int(seat[s, K.SE_NET_HI]), int(seat[s, K.SE_NET_LO])
        total = (hi_ << 32) + lo_
        mean = total / ok if ok else math.nan
        qsd, vals, cnt = _seat_net_stats(neth[s, 0], neth[s, 1], ok)
        var = float((cnt * (vals - mean) ** 2).sum() / max(ok - 1, 1)) if ok else math.nan
        # no interval on the mean: session nets are heavy-tailed (a few huge pots), and normal
        # intervals on such means do not hold; the median and quantiles carry order-statistic ones
        row = {"seat": s, "heuristic": specs[s].label, "mean_net": mean, "sd_net": math.sqrt(var) if ok else math.nan}
        for q, name in zip(SEAT_QUANTILES, ("p5", "p25", "median", "p75", "p95")):
            row[name], row[name + "_lo"], row[name + "_hi"] = qsd[q]
        for i, x in enumerate(downs[:3]):
            p, lo, hi = wilson(int(seat[s, K.SE_DOWN + i]), ok)
            row[f"p_down_{x}x"] = float(p)
            row[f"p_down_{x}x_lo"] = float(lo)
            row[f"p_down_{x}x_hi"] = float(hi)
        # counted over the finished (not overflowed) sessions' deals, on both sides of the ratio
        played = int(seat[s, K.SE_PLAYED])
        row["play_rate"] = played / ok_deals if ok_deals else math.nan
        row["wins_per_deal"] = int(seat[s, K.SE_WINS]) / ok_deals if ok_deals else math.nan
        row["bourre_per_deal"] = int(seat[s, K.SE_BOURRES]) / ok_deals if ok_deals else math.nan
        row["sessions"] = ok
        row["deals"] = ok_deals
        srows.append(row)
    res["seats"] = pd.DataFrame(srows)
    res["endpot_hist"] = g["endpot"]
    res["ok_deals"] = ok_deals
    res["batch_intervals"] = have_batch
    return res


def check_sessions(sessions: int, deals: int):
    if sessions < 1 or deals < 1:
        raise TricksimError(f"the numbers of sessions and of deals per session must be at least 1, got {sessions} "
                            f"and {deals}")


def pot_run(players: int = 7, deals: int = 200, sessions: int = 100_000, seed: int = 0, rules=None,
            heuristics=None, block_size: int | None = None, ev_form: bool = False) -> engine.Run:
    """The run of ``pot_study``: what names its folder and what it executes (``ev_form``: its study's,
    analysis/bourre/ev.py ``study_ev_form``)."""
    players = SPEC.check_players(players)
    check_sessions(sessions, deals)
    params = with_ev_form(make_params(seed, rules or BourreRules(), no_pimc(SPEC.parse_seats(heuristics, players),
                                                                            "pot"), players=players, deals=deals),
                          ev_form)
    return engine.Run("bourre.pot", params, sessions, block_size or pot_block_size(deals), unit="sessions")


def pot_study(players: int = 7, deals: int = 200, sessions: int = 100_000, seed: int = 0, rules=None,
              heuristics=None, opts: RunOptions = RunOptions(), block_size: int | None = None, run=None,
              ev_form: bool = False):
    """Sessions of ``deals`` consecutive deals at a table of ``players``; returns a dict of
    DataFrames (fan, max_quantiles, pass, bourre, outcomes, seats) and counts.  ``run``: the study's run when
    the caller built it already (``pot_run``, which checks the arguments once); its parameters are the study's.
    ``ev_form``: pass the kernels ev's tables though no seat is ev, as the other runs of a study with an ev seat do
    (analysis/bourre/ev.py ``study_ev_form``: one compiled form per study; the same sessions)."""
    run = run or pot_run(players, deals, sessions, seed, rules, heuristics, block_size, ev_form)
    p = run.params
    players, deals, seed = p["players"], p["deals"], p["seed"]
    rules, specs = SPEC.rules_of(p), SPEC.specs_from_json(p["heuristics"])
    r = opts.execute(run)
    res = decode_pot(r.counts, players, deals, rules.ante, specs, rules)
    # a resumed run reuses finished blocks: count only the sessions computed now in the speed
    bs = run.block_size
    reused = min(r.n, r.reused * bs) if r.reused < r.blocks else r.n
    computed = r.n - reused
    res.update({"seconds": r.seconds, "seed": seed, "rules": rules, "specs": specs, "run": run,
                "computed_sessions": computed,
                "deals_per_second": (res["deals_played"] * computed / r.n / r.seconds
                                     if r.seconds > 0 and computed > 0 and r.n else math.nan),
                "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024})
    return res
