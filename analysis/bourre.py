"""Bourre (RULES.md section 3): rules, heuristics, the pot-growth study, odds of a hand, trace.

Studies (all through ``analysis.engine``):
- ``pot_study``: many independent sessions of consecutive deals (unit: sessions);
  the block function ``bourre.pot`` aggregates inside the kernel (log-binned pot
  histograms per deal, first-passage counts, per-seat net sums and histograms), so
  memory is bounded by the block size, never by the number of deals.
- ``odds_hand``: one hand before the draw, every pass/play + discard choice played on
  the same random deals of the unseen cards (block function ``bourre.odds``).
- ``bourre.duplicate``: the duplicate tournament used by ``tricksim compare bourre``.

A session is a pure function of (seed, session index): deal j of session k uses the
generator states ``seed_state(seed_state(key, k), j)`` of the deal and decision
streams (kernels/bourre.py), so ``trace bourre`` replays exactly what ``pot`` simulated.
"""
from __future__ import annotations

import dataclasses
import math
import resource
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import numpy as np
import pandas as pd

from tricksim.analysis import engine
from tricksim.analysis.common import make_params
from tricksim.analysis.engine import RunOptions
from tricksim.analysis.game import Duplicate, Game
from tricksim.analysis.common import (HeuristicDef, HeuristicSpec, Param, TricksimError, flag,
                             parse_card, parse_cards, parse_heuristic, rules_dict)
from tricksim.analysis.stats import (batch_rate_ci, batch_ratio, hist_mean_ci, hist_quantile_ci,
                                     min_sample_for_quantile, t_crit, wilson)
from tricksim.kernels import bourre as K
from tricksim.kernels.cards import RANKS, SUITS, card_str, cards_of, mask_of
from tricksim.kernels.rng import GAME_BOURRE

KEY = "bourre"
MIN_PLAYERS, MAX_PLAYERS = 2, 8
MAX_FAN = 200                      # at most this many fan-chart points per session (deals are strided beyond)
ODDS_BLOCK = 1 << 14               # deals per engine block of the odds of one hand


def parse_hand(text: str) -> list[int]:
    return parse_cards(text, 5, RANKS, "Bourre hand")


# ---------------------------------------------------------------------------
# rules
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class BourreRules:
    """Every variant flag of RULES.md 3.1 / section 5 with its default."""
    PREFIX = "bourre"
    ante: int = flag(1, rng=(0, 10 ** 12), help="rule 2: chips each player antes")
    dealer_sets_ante: bool = flag(False, help="rule 2: after the first deal the dealer sets the ante (heuristic parameter ante_mult)")
    dealer_antes_for_all: bool = flag(False, help="rule 2: the dealer pays every ante that is owed")
    double_ante: bool = flag(False, help="rule 17: each player who plays adds a second ante")
    trump_card: str = flag("dealer_fifth", ["dealer_fifth", "separate_turnup"], help="rule 3")
    declare_then_draw: bool = flag(False, help="rule 4: everyone declares first, then the players draw")
    max_discard: int = flag(5, rng=(0, 5), help="rule 4: most cards a player may discard")
    max_discard_7plus: int | None = flag(None, rng=(0, 5), help="rule 4: discard limit with 7-8 players (none = off)")
    reshuffle: str = flag("pagat_all_unused", ["pagat_all_unused", "wp_folded_first_then_discards"], help="rule 5")
    all_pass: str = flag("dealer_wins", ["dealer_wins", "carry_over"], help="rule 7")
    must_head_in_suit: bool = flag(True, help="rule 10a: beat the best card of the suit led if able")
    must_trump_when_void: bool = flag(True, help="rule 10b")
    must_overtrump: bool = flag(True, help="rule 10b")
    must_trump_even_if_cannot_win: bool = flag(True, help="rule 10b (false: trump only when the trump would win)")
    void_must_play_highest_trump: bool = flag(False, help="rule 10b [EIGHTY]")
    cinch_rule: str = flag("pagat", ["pagat", "hoyle_lead_highest_with_akq", "akq_in_order", "none"], help="rule 11")
    cinch_knowledge: str = flag("holder", ["holder", "omniscient"], help="rule 11 detection")
    cinch_last_player_exempt: bool = flag(True, help="rule 11 (ii)")
    tie: str = flag("carry_over", ["carry_over", "divide_equally", "tied_only_next_hand"], help="rule 13")
    bourre_penalty: str = flag("pot", help="rule 14: pot | fixed:K (K chips)")
    pot_limit: int | None = flag(None, rng=(1, 1 << 62), help="rule 15: pot limit L (none = off)")
    lo_no: bool = flag(False, help="rule 18: the dealer may call Lo-No on an up-card 2..7")

    def __post_init__(self):
        if not 0 <= self.ante <= 10 ** 12:
            raise TricksimError(f"rule ante must be in 0..{10 ** 12}, got {self.ante}")
        if self.pot_limit is not None and self.pot_limit < 1:
            raise TricksimError(f"rule pot_limit must be at least 1 (or none), got {self.pot_limit}")
        if not 0 <= self.max_discard <= 5:
            raise TricksimError(f"rule max_discard must be in 0..5, got {self.max_discard}")
        if self.max_discard_7plus is not None and not 0 <= self.max_discard_7plus <= 5:
            raise TricksimError(f"rule max_discard_7plus must be in 0..5 (or none), got {self.max_discard_7plus}")
        object.__setattr__(self, "bourre_penalty", _penalty_text(self.bourre_penalty))

    @property
    def penalty_chips(self) -> int:
        """-1 = the pot, else a fixed number of chips."""
        return -1 if self.bourre_penalty == "pot" else int(self.bourre_penalty.split(":")[1])


def _penalty_text(v) -> str:
    t = str(v).strip().lower().replace(" ", "")
    if t == "pot":
        return t
    if t.startswith("fixed:"):
        k = t[6:]
        if k.isdigit() and int(k) <= 10 ** 12:
            return f"fixed:{int(k)}"
    raise TricksimError(f"rule bourre_penalty must be 'pot' or 'fixed:K' with K >= 0 chips, got {v!r}")


def rules_array(r: BourreRules) -> np.ndarray:
    a = np.zeros(K.N_RULES, np.int64)
    a[K.R_ANTE] = r.ante
    a[K.R_DEALER_SETS_ANTE] = int(r.dealer_sets_ante)
    a[K.R_DEALER_ANTES_ALL] = int(r.dealer_antes_for_all)
    a[K.R_DOUBLE_ANTE] = int(r.double_ante)
    a[K.R_TRUMP_CARD] = ["dealer_fifth", "separate_turnup"].index(r.trump_card)
    a[K.R_DECLARE_THEN_DRAW] = int(r.declare_then_draw)
    a[K.R_MAX_DISCARD] = r.max_discard
    a[K.R_MAX_DISCARD_7PLUS] = -1 if r.max_discard_7plus is None else r.max_discard_7plus
    a[K.R_RESHUFFLE] = ["pagat_all_unused", "wp_folded_first_then_discards"].index(r.reshuffle)
    a[K.R_ALL_PASS] = ["dealer_wins", "carry_over"].index(r.all_pass)
    a[K.R_MUST_HEAD] = int(r.must_head_in_suit)
    a[K.R_MUST_TRUMP] = int(r.must_trump_when_void)
    a[K.R_MUST_OVERTRUMP] = int(r.must_overtrump)
    a[K.R_TRUMP_EVEN_IF_CANNOT_WIN] = int(r.must_trump_even_if_cannot_win)
    a[K.R_VOID_HIGHEST_TRUMP] = int(r.void_must_play_highest_trump)
    a[K.R_CINCH_RULE] = ["pagat", "hoyle_lead_highest_with_akq", "akq_in_order", "none"].index(r.cinch_rule)
    a[K.R_CINCH_KNOWLEDGE] = ["holder", "omniscient"].index(r.cinch_knowledge)
    a[K.R_CINCH_LAST_EXEMPT] = int(r.cinch_last_player_exempt)
    a[K.R_TIE] = ["carry_over", "divide_equally", "tied_only_next_hand"].index(r.tie)
    a[K.R_PENALTY] = r.penalty_chips
    a[K.R_POT_LIMIT] = 0 if r.pot_limit is None else r.pot_limit
    a[K.R_LO_NO] = int(r.lo_no)
    return a


def discard_limit(rules: BourreRules, players: int) -> int:
    lim = rules.max_discard
    if players >= 7 and rules.max_discard_7plus is not None:
        lim = min(lim, rules.max_discard_7plus)
    return lim


# ---------------------------------------------------------------------------
# heuristics
# ---------------------------------------------------------------------------
def _common_params():
    return [Param("ante_mult", 1, 1, 100, "dealer_sets_ante: the dealer sets ante x this (random: 1..this)"),
            Param("lono_rank", 2, 0, 5, "lo_no: the dealer calls Lo-No on an up-card of rank index <= this (0 = a 2)")]


def _family(threshold, cinch=False):
    ps = [
        Param("threshold", threshold, -5, 10, "play when the strength estimate reaches this (lower = looser)"),
        Param("trump_weight", 0.55, 0, 2, "strength per trump"),
        Param("trump_rank_weight", 0.6, 0, 2, "extra strength per trump x rank/12 (2 = 0, A = 1)"),
        Param("ace_weight", 0.7, 0, 2, "strength per side ace (Lo-No: per 2 or 3)"),
        Param("king_weight", 0.25, 0, 2, "strength per side king (Lo-No: per 4 or 5)"),
        Param("draw_weight", 0.1, 0, 1, "strength per card it would draw"),
        Param("pot_weight", 0.0, -2, 2, "threshold += this x log2(pot / (players x ante))"),
        Param("position_weight", -0.3, -3, 3, "threshold += this x position (0 = dealer's left .. 1 = dealer)"),
        Param("declared_weight", 0.25, -2, 2, "threshold += this per player who already declared play"),
        Param("keep_kings", 0, 0, 1, "1: keep side kings when discarding (else only trumps and aces)"),
        Param("bourre_guard", 1, 0, 1, "1: with no trick yet, take a trick with its strongest winning card"),
    ]
    if cinch:
        ps.append(Param("sure_weight", 0.5, 0, 2, "extra strength per sure trick (rule 11 matching); 3 sure tricks always play"))
    return {p.name: p for p in ps + _common_params()}


REGISTRY = {
    "random": HeuristicDef("random", K.H_RANDOM,
                           {p.name: p for p in [Param("play_prob", 0.5, 0, 1, "chance of playing"),
                                                Param("lono_prob", 0.5, 0, 1, "chance the dealer calls Lo-No when allowed"),
                                                Param("ante_mult", 1, 1, 100, "dealer_sets_ante: ante x uniform 1..this")]},
                           "random-legal baseline: plays with play_prob, discards a uniform number (within the limit) "
                           "of random cards, plays a uniformly random legal card (forced plays still forced)",
                           deterministic=False),
    "basic": HeuristicDef("basic", K.H_BASIC, _family(2.0),
                          "strength estimate vs a threshold; keeps trumps and aces, draws the rest; leads boss cards, "
                          "wins tricks with the cheapest safe card"),
    "tight": HeuristicDef("tight", K.H_BASIC, _family(2.6), "basic with a higher play threshold (plays less)"),
    "loose": HeuristicDef("loose", K.H_BASIC, _family(1.4), "basic with a lower play threshold (plays more)"),
    "cinch": HeuristicDef("cinch", K.H_CINCH, _family(2.0, cinch=True),
                          "basic plus sure-trick counting (rule 11 matching) in the play/pass decision: "
                          "always plays a cinch"),
}
ALIASES = {"default": "basic", "cinch-aware": "cinch"}


# ---------------------------------------------------------------------------
# pot bins (kernels/bourre.py pot_bin): exact below 32 chips, then 8 bins per octave
# ---------------------------------------------------------------------------
def bin_lo(b: int) -> int:
    if b < 32:
        return b
    h, f = divmod(b - 32, 8)
    return (8 + f) << (h + 2)


def bin_hi(b: int) -> int:
    """Exclusive upper edge."""
    if b < 32:
        return b + 1
    h, f = divmod(b - 32, 8)
    return (9 + f) << (h + 2)


def bin_mid(b: int) -> float:
    if b < 32:
        return float(b)
    return math.sqrt(bin_lo(b) * (bin_hi(b) - 1))


BIN_MID = np.array([bin_mid(b) for b in range(K.NB - 1)] + [math.inf])


def hist_quantile(h, q):
    """The bin holding the q-quantile of a pot histogram (K.BIN_OVF = overflowed; -1 if empty)."""
    h = np.asarray(h)
    n = h.sum()
    if n == 0:
        return -1
    c = np.cumsum(h)
    return int(np.searchsorted(c, q * n - 1e-9))


def fmt_chips_bin(b: int) -> str:
    if b < 0:
        return "-"
    if b == K.BIN_OVF:
        return "overflow"
    if b < 32:
        return f"{b}"
    lo, hi = bin_lo(b), bin_hi(b) - 1
    return f"{lo:,}-{hi:,}"


# ---------------------------------------------------------------------------
# the pot study (unit: sessions)
# ---------------------------------------------------------------------------
def fan_stride(deals: int) -> int:
    return max(1, -(-deals // MAX_FAN))


def agg_layout(n_fan: int, deals: int) -> dict:
    """Offsets of the study's int64 vector (the order of kernels.bourre.reduce_sessions's args)."""
    off = {}
    k = 0
    for name, size in (("fan", n_fan * K.NB), ("max", K.NB), ("endpot", K.NB), ("pass", 3 * (deals + 1)),
                       ("bourre", 9), ("active", 9), ("out", 4),
                       ("misc", 6),                 # sessions, overflowed, violations, deals, sum overflow deal, ok sessions
                       ("seat", K.MAXP * 10),       # net hi, net lo, down > X (5), wins, bourres, deals played
                       ("neth", K.MAXP * 2 * K.NB)):
        off[name] = (k, size)
        k += size
    off["len"] = k
    return off


def pot_block_size(deals: int) -> int:
    """Sessions per block: about 800k deals, at most 4096 sessions."""
    return int(max(1, min(4096, 800_000 // max(deals, 1))))


def _dynamic(kernel, *args):
    """Run a prange kernel with dynamic scheduling (chunks of 4 iterations): on a shared
    machine a briefly preempted thread no longer leaves the other idle at the end.  The
    results do not depend on the schedule (per-session rows / per-chunk integer counts)."""
    import numba
    old = numba.set_parallel_chunksize(4)
    try:
        return kernel(*args)
    finally:
        numba.set_parallel_chunksize(old)


def _pot_vector(params, first, n):
    kd, kc, ra, codes, prm = GAME.kernel_args(params)
    players, deals = params["players"], params["deals"]
    stride = fan_stride(deals)
    n_fan = -(-deals // stride)
    srows = np.zeros((n, K.S_LEN), np.int64)
    fans = np.zeros((n, n_fan), np.int64)
    _dynamic(K.sim_sessions, kd, kc, first, n, players, deals, stride, ra, codes, prm, srows, fans)
    lay = agg_layout(n_fan, deals)
    o = {k: v[0] for k, v in lay.items() if k != "len"}
    v = K.reduce_sessions(srows, fans, players, deals, o["fan"], o["max"], o["endpot"], o["pass"], o["bourre"],
                          o["active"], o["out"], o["misc"], o["seat"], o["neth"], lay["len"], max(GAME.rules_of(params).ante, 1))
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


NB1 = K.NB - 1
# the signed bins of a seat's net, in increasing order: the negative bins reversed, then the others
SIGNED_MID = np.concatenate([-BIN_MID[:-1][::-1], BIN_MID[:-1]])
SIGNED_LO = np.array([-(bin_hi(b) - 1) for b in range(NB1)][::-1] + [bin_lo(b) for b in range(NB1)], float)
SIGNED_HI = np.array([-bin_lo(b) for b in range(NB1)][::-1] + [bin_hi(b) - 1 for b in range(NB1)], float)
SEAT_QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)


def quantile_with_ci(counts, q, mid, lo_edge, hi_edge):
    """(estimate, low, high) of the q-quantile of a binned variable: the estimate is its bin's
    representative value, the bounds the outer edges of the bins holding the order statistics
    of the 95% distribution-free interval (nan where the sample cannot support a bound)."""
    est, lo, hi = hist_quantile_ci(counts, q)
    if est < 0:
        return math.nan, math.nan, math.nan
    return (float(mid[est]), float(lo_edge[lo]) if lo >= 0 else math.nan,
            float(hi_edge[hi]) if hi >= 0 else math.nan)


def _seat_net_stats(neth_neg, neth_pos, n):
    """Quantiles (with their 95% order-statistic intervals) and a histogram-based variance of a
    seat's net from its signed log histogram."""
    cnt = np.concatenate([neth_neg[:-1][::-1], neth_pos[:-1]])
    qs = {q: quantile_with_ci(cnt, q, SIGNED_MID, SIGNED_LO, SIGNED_HI) for q in SEAT_QUANTILES}
    return qs, SIGNED_MID, cnt


# pot bins as values: representative value, lowest and highest chips of the bin (overflow: inf)
POT_LO = np.array([bin_lo(b) for b in range(NB1)] + [math.inf], float)
POT_HI = np.array([bin_hi(b) - 1 for b in range(NB1)] + [math.inf], float)


def pot_quantile(h, q):
    """(bin of the estimate, low chips, high chips, text) of the q-quantile of a pot histogram,
    with its 95% order-statistic interval; the text says when the sample cannot support it."""
    est, lo, hi = hist_quantile_ci(h, q)
    n = int(np.asarray(h).sum())
    if est < 0:
        return -1, math.nan, math.nan, "-"
    if lo < 0 or hi < 0:
        return est, math.nan, math.nan, f"needs {min_sample_for_quantile(q):,} sessions"
    return est, POT_LO[lo], POT_HI[hi], f"{_short(POT_LO[lo])} - {_short(POT_HI[hi])}"


def _max_q_text(h, q):
    b, lo, hi, txt = pot_quantile(h, q)
    if b < 0:
        return "-"
    if lo != lo:
        return "n/a (" + txt + ")"
    return f"{fmt_chips_bin(b)} [{txt}]"




def decode_pot(counts, players, deals, ante, specs, rules):
    """The tables of a pot study from its int64 vector."""
    stride = fan_stride(deals)
    n_fan = -(-deals // stride)
    lay = agg_layout(n_fan, deals)
    g = {k: counts[v[0]:v[0] + v[1]] for k, v in lay.items() if k != "len"}
    sessions, ovf, viol, ndeals, sum_ovf_deal, ok = [int(x) for x in g["misc"]]
    unit = max(ante, 1)
    bt = np.asarray(counts[lay["len"]:lay["len"] + BATCH_LEN], float)
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
        bro.append({"bourre_players": k, "p": float(p), "ci_low": float(lo), "ci_high": float(hi), "deals": nd})
    res["bourre"] = pd.DataFrame(bro)
    am, ahalf = mean(ah, 4 + 9 + 1)
    res["active_mean"] = (am, ahalf, nd)
    res["active_hist"] = ah
    orows = []
    for name, k in (("a unique winner takes the pot", 0), ("a tie (split pot)", 1), ("a lone player takes the pot", 2),
                    ("everyone passed (carried over)", 3)):
        p, lo, hi = rate(int(oc[k]), k)
        orows.append({"outcome": name, "p": float(p), "ci_low": float(lo), "ci_high": float(hi), "deals": nd})
    res["outcomes"] = pd.DataFrame(orows)
    # seats
    seat = g["seat"].reshape(K.MAXP, 10)
    neth = g["neth"].reshape(K.MAXP, 2, K.NB)
    srows = []
    downs = (10, 100, 1000, 10000, 1000000)
    for s in range(players):
        hi_, lo_ = int(seat[s, 0]), int(seat[s, 1])
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
            p, lo, hi = wilson(int(seat[s, 2 + i]), ok)
            row[f"p_down_{x}x"] = float(p)
            row[f"p_down_{x}x_lo"] = float(lo)
            row[f"p_down_{x}x_hi"] = float(hi)
        # counted over the finished (not overflowed) sessions' deals, on both sides of the ratio
        played = int(seat[s, 9])
        row["play_rate"] = played / ok_deals if ok_deals else math.nan
        row["wins_per_deal"] = int(seat[s, 7]) / ok_deals if ok_deals else math.nan
        row["bourre_per_deal"] = int(seat[s, 8]) / ok_deals if ok_deals else math.nan
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
            heuristics=None, block_size: int | None = None) -> engine.Run:
    """The run of ``pot_study``: what names its folder and what it executes."""
    players = check_players(players)
    check_sessions(sessions, deals)
    params = make_params(seed, rules or BourreRules(), parse_seats(heuristics, players), players=players, deals=deals)
    return engine.Run("bourre.pot", params, sessions, block_size or pot_block_size(deals), unit="sessions")


def pot_study(players: int = 7, deals: int = 200, sessions: int = 100_000, seed: int = 0, rules=None,
              heuristics=None, opts: RunOptions = RunOptions(), block_size: int | None = None):
    """Sessions of ``deals`` consecutive deals at a table of ``players``; returns a dict of
    DataFrames (fan, max_quantiles, pass, bourre, outcomes, seats) and counts."""
    players = check_players(players)
    rules = rules or BourreRules()
    specs = parse_seats(heuristics, players)
    run = pot_run(players, deals, sessions, seed, rules, specs, block_size)
    r = opts.execute(run)
    res = decode_pot(r.counts, players, deals, rules.ante, specs, rules)
    # a resumed run reuses finished blocks: count only the sessions computed now in the speed
    bs = block_size or pot_block_size(deals)
    reused = min(r.n, r.reused * bs) if r.reused < r.blocks else r.n
    computed = r.n - reused
    res.update({"seconds": r.seconds, "seed": seed, "rules": rules, "specs": specs, "run": run,
                "computed_sessions": computed,
                "deals_per_second": (res["deals_played"] * computed / r.n / r.seconds
                                     if r.seconds > 0 and computed > 0 and r.n else math.nan),
                "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024})
    return res


def _pct(p, lo=None, hi=None, digits=1):
    from tricksim.analysis.output import pct
    return pct(p, lo, hi, digits)


def pot_tables(res) -> dict:
    """Formatted tables (strings) for the terminal and the markdown report."""
    t = {}
    fan = res["fan"]
    pick = sorted({1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, res["deals"]} & set(fan.deal))
    f = fan[fan.deal.isin(pick)]
    def qcell(col):
        return [_q_text(r[col], r[col + "_lo"], r[col + "_hi"]) for _, r in f.iterrows()]
    t["fan"] = pd.DataFrame({"deal": f.deal, "median": qcell("q50"), "25%": qcell("q25"), "75%": qcell("q75"),
                             "90%": qcell("q90"), "99%": qcell("q99"), "sessions": f.n.map(lambda x: f"{x:,}")})
    mq = res["max_quantiles"]
    t["max"] = pd.DataFrame({"quantile": [f"{100 * q:g}%" for q in mq["quantile"]],
                             "largest pot (chips)": mq["largest pot (chips)"],
                             "95% interval": mq["95% interval (chips)"]})
    ps = res["pass"]
    wide = {}
    for mult in (10, 100, 1000):
        sub = ps[ps.mult == mult]
        wide[f"> {mult}x ante"] = [_pct(a, b, c, 2) for a, b, c in zip(sub.p, sub.ci_low, sub.ci_high)]
    t["pass"] = pd.DataFrame({"within k deals": sorted(set(ps.within_deals)), **wide})
    b = res["bourre"]
    t["bourre"] = pd.DataFrame({"players bourre in a deal": b.bourre_players,
                                "share of deals [95% CI]": [_pct(a, c, d, 2) for a, c, d in zip(b.p, b.ci_low, b.ci_high)]})
    o = res["outcomes"]
    t["outcomes"] = pd.DataFrame({"deal ends with": o.outcome,
                                  "share [95% CI]": [_pct(a, c, d, 2) for a, c, d in zip(o.p, o.ci_low, o.ci_high)]})
    s = res["seats"]
    t["seats"] = pd.DataFrame({"seat": s.seat, "heuristic": s.heuristic,
                               "mean net": s.mean_net.map(lambda x: ("-" if x != x else f"{x:+,.1f}" if abs(x) < 1e6
                                                                     else ("+" if x > 0 else "") + _short(x))),
                               "sd": s.sd_net.map(_short),
                               "median [95% CI]": [_q_text(m, lo, hi) for m, lo, hi in zip(s["median"], s.median_lo, s.median_hi)],
                               "5% / 95% [95% CIs]": [f"{_q_text(a, alo, ahi)} / {_q_text(c, clo, chi)}" for a, alo, ahi, c, clo, chi
                                                      in zip(s.p5, s.p5_lo, s.p5_hi, s.p95, s.p95_lo, s.p95_hi)],
                               "P(down > 10x ante)": [_pct(a, c, d) for a, c, d in zip(s.p_down_10x, s.p_down_10x_lo, s.p_down_10x_hi)],
                               "P(down > 100x ante)": [_pct(a, c, d, 2) for a, c, d in zip(s.p_down_100x, s.p_down_100x_lo, s.p_down_100x_hi)],
                               "plays": s.play_rate.map(lambda x: f"{100 * x:.0f}%"),
                               "bourre per deal": s.bourre_per_deal.map(lambda x: f"{x:.3f}")})
    return t


def _q_text(est, lo, hi):
    """A binned quantile with its order-statistic interval; 'n/a' when the sample cannot bound it."""
    if est != est:
        return "-"
    if lo != lo or hi != hi:
        return "n/a (too few)"
    if lo == hi:
        return _chips(est) if abs(est) < 32 else _short(lo)
    return f"{_short(est, '~' if abs(est) >= 32 else '')} [{_short(lo)}, {_short(hi)}]"


def _short(x, prefix=""):
    """Chips, compact above a million (3 significant digits: 27.3M, 1.4B, ...)."""
    if x != x:
        return "?"
    if math.isinf(x):
        return "overflow" if x > 0 else "-overflow"
    for f, s in ((1e18, "E"), (1e15, "P"), (1e12, "T"), (1e9, "B"), (1e6, "M")):
        if abs(x) >= f:
            return f"{prefix}{x / f:.3g}{s}"
    return f"{prefix}{x:,.0f}"


def _chips(x):
    if x != x:
        return "-"
    if math.isinf(x):
        return "overflow" if x > 0 else "-overflow"
    if abs(x) < 32:
        return f"{x:,.0f}"
    return f"~{x:,.0f}"


def render_pot(res) -> str:
    from tricksim.analysis.output import show
    t = pot_tables(res)
    m, half, nd = res["bourre_mean"]
    am, ahalf, _ = res["active_mean"]
    lines = [f"Bourre pot growth: {res['sessions']:,} sessions of {res['deals']} deals, {res['players']} players "
             f"({', '.join(sorted({s.label for s in res['specs']}))}), ante {res['ante']}, seed {res['seed']}",
             _speed_line(res)]
    if res["overflowed"]:
        p, lo, hi = wilson(res["overflowed"], res["sessions"])
        lines.append(f"OVERFLOW: {res['overflowed']:,} sessions ({_pct(p, lo, hi, 3)}) pushed a pot, payment or net past "
                     f"2^62 chips (first at deal {res['mean_overflow_deal'] + 1:.0f} on average); they were stopped there "
                     "and count as 'overflow' (above every finite value) in the pot tables, and are left out of the seat nets.")
    else:
        lines.append("No session overflowed (every pot, payment and net stayed below 2^62 chips).")
    if res["violations"]:
        lines.append(f"CHIP CONSERVATION VIOLATED in {res['violations']} sessions: this is a bug, please report it.")
    else:
        lines.append(f"Chips conserved in all {res['ok_sessions']:,} finished sessions (sum of seat nets + pot = 0).")
    lines += ["", "Pot contested at deal k (carry-over + antes), quantiles over sessions (log bins, 8 per octave, exact below 32):",
              t["fan"].to_string(index=False), "", "Largest pot of a session (most chips in the middle at any time):",
              t["max"].to_string(index=False), "", "Chance the pot passes X within k deals [95% CI]:",
              t["pass"].to_string(index=False), "",
              f"Players going bourre per deal: mean {m:.3f} ± {half:.3f} ({nd:,} deals); players who play: "
              f"mean {am:.2f} ± {ahalf:.2f}", t["bourre"].to_string(index=False), "", t["outcomes"].to_string(index=False),
              "", "Each seat's net chips at the end of a session (seat 0 deals first):", show(t["seats"], key=2)]
    lines.append(f"(Per-deal rates and means are over all {res['deals_played']:,} deals played (overflowed sessions up "
                 "to their overflow); their 95% intervals use the variance between sessions, since deals inside a "
                 "session depend on each other (the pot, ties, exemptions). The seats' plays, wins and bourre per deal "
                 f"are over the {res['ok_deals']:,} deals of the {res['ok_sessions']:,} finished sessions. Every quantile "
                 "carries its 95% order-statistic interval (distribution-free, bin edges; 'n/a' where the sample "
                 "cannot bound it); session nets are heavy-tailed, so their means are given without an interval.)")
    return "\n".join(lines)


def _speed_line(res) -> str:
    if res.get("computed_sessions", res["sessions"]) == 0:
        return (f"{res['deals_played']:,} deals, every block reused from the run folder (nothing computed now, "
                f"{res['seconds']:.1f} s)")
    part = ("" if res.get("computed_sessions", res["sessions"]) == res["sessions"] else
            f", {res['computed_sessions']:,} of the {res['sessions']:,} sessions computed now, the rest reused")
    return (f"{res['deals_played']:,} deals in {res['seconds']:.1f} s ({res['deals_per_second']:,.0f} deals/s computed"
            f"{part})")


def write_pot(res, out: Path):
    from tricksim.analysis.output import write_table
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    for k in ("fan", "max_quantiles", "pass", "bourre", "outcomes", "seats"):
        write_table(res[k], out, f"pot_{k}")
    hist = pd.DataFrame({"bin": np.arange(K.NB), "lo": [bin_lo(b) if b < K.BIN_OVF else None for b in range(K.NB)],
                         "hi_exclusive": [bin_hi(b) if b < K.BIN_OVF else None for b in range(K.NB)],
                         "largest_pot_sessions": res["max_hist"], "end_pot_sessions": res["endpot_hist"]})
    write_table(hist[(hist.largest_pot_sessions > 0) | (hist.end_pot_sessions > 0)], out, "pot_histograms")
    plot_pot(res, out)


# ---------------------------------------------------------------------------
# plots
# ---------------------------------------------------------------------------
def plot_pot(res, out: Path):
    from tricksim.analysis.plots import log_axis, style
    from tricksim.analysis.stats import wilson
    from tricksim.analysis.plots import plt
    fig, axes = plt.subplots(1, 3, figsize=(17, 4.8))
    fan = res["fan"]
    x = fan.deal
    ax = axes[0]
    ax.fill_between(x, fan.q5.clip(lower=0.5), fan.q95.clip(lower=0.5), alpha=0.18, color="C0", label="5-95%")
    ax.fill_between(x, fan.q25.clip(lower=0.5), fan.q75.clip(lower=0.5), alpha=0.35, color="C0", label="25-75%")
    ax.plot(x, fan.q50.clip(lower=0.5), color="C0", lw=2, label="median")
    ax.plot(x, fan.q99.clip(lower=0.5), color="C3", lw=1, ls="--", label="99%")
    ax.set_yscale("log")
    log_axis(ax, "y")
    ax.set_xlabel("deal of the session")
    ax.set_ylabel("pot contested (chips, log)")
    ax.set_title("Pot at each deal: fan chart")
    ax.legend(fontsize=8)
    ax = axes[1]
    _survival(ax, res, "C0", None)
    ax.set_title("Largest pot of a session")
    ax = axes[2]
    ps = res["pass_hist"]
    n = res["sessions"]
    k = np.arange(1, res["deals"] + 1)
    floor = 0.5 / max(n, 1)         # log scale: below one session in n there is nothing to show
    for i, mult in enumerate((10, 100, 1000)):
        cnt = np.cumsum(ps[i][:res["deals"]])
        p, lo, hi = wilson(cnt, np.full(len(cnt), max(n, 1)))
        kw = style(i, len(k), 3)
        never = "" if cnt[-1] > 0 else f" (never in {n:,} sessions)"
        ax.plot(k, np.where(cnt > 0, p, np.nan), color=f"C{i}", label=f"> {mult}x ante{never}", **kw)
        ax.fill_between(k, np.maximum(lo, floor), np.maximum(hi, floor), color=f"C{i}", alpha=0.15)
    ax.set_yscale("log")
    ax.set_ylim(floor, 1.05)
    log_axis(ax, "y", percent=True)
    ax.set_xlabel("within k deals")
    ax.set_ylabel("P(pot passes the threshold), log")
    ax.set_title("Chance the pot passes 10x/100x/1000x (95% bands)")
    ax.legend(fontsize=8)
    fig.suptitle(f"Bourre, {res['players']} players, {res['sessions']:,} sessions of {res['deals']} deals "
                 f"(quantiles from log histograms, 8 bins per octave)")
    fig.tight_layout()
    fig.savefig(Path(out) / "pot_growth.png", dpi=100)
    plt.close(fig)


def _survival(ax, res, color, label, i=0, curves=1):
    mh = np.asarray(res["max_hist"], float)
    n = mh.sum()
    if n == 0:
        return
    from tricksim.analysis.plots import log_axis, style
    # P(max > lo of bin b) for every bin edge
    tail = np.cumsum(mh[::-1])[::-1] / n        # P(max in bin >= b)
    xs = [bin_lo(b) for b in range(K.BIN_OVF)]
    ys = tail[:K.BIN_OVF]
    keep = ys > 0
    kw = style(i, int(keep.sum()), curves) if curves > 1 else {}
    ax.step(np.array(xs)[keep], ys[keep], where="post", color=color, label=label, **kw)
    ax.set_xscale("log")
    ax.set_yscale("log")
    log_axis(ax, "x")
    log_axis(ax, "y", percent=True)
    ax.set_xlabel("chips x (log)")
    ax.set_ylabel("P(largest pot >= x), log")


# ---------------------------------------------------------------------------
# sweeps
# ---------------------------------------------------------------------------
SWEEPS = {
    "players": [2, 3, 4, 5, 6, 7, 8],
    "pot_limit": [None, 100, 50, 20],
    "double_ante": [False, True],
    "tie": ["carry_over", "divide_equally", "tied_only_next_hand"],
    "max_discard": [5, 4, 3],
    "looseness": [-0.5, 0.0, 0.5, 1.0],
}


def parse_sweep(text: str):
    name, _, vals = text.partition("=")
    name = name.strip().lower().replace("-", "_")
    if name not in SWEEPS:
        raise TricksimError(f"--sweep must be one of {' | '.join(SWEEPS)} (optionally =v1,v2,...), got {text!r}")
    if not vals.strip():
        return name, list(SWEEPS[name])
    out = []
    for v in vals.split(","):
        v = v.strip().lower()
        try:
            if name == "players":
                x = check_players(int(v))
            elif name == "pot_limit":
                x = None if v in ("none", "off") else int(v)
                if x is not None and x < 1:
                    raise TricksimError(f"--sweep pot_limit values must be at least 1 (or none), got {v}")
            elif name == "double_ante":
                if v not in ("true", "false", "1", "0"):
                    raise ValueError
                x = v in ("true", "1")
            elif name == "tie":
                if v not in SWEEPS["tie"]:
                    raise TricksimError(f"--sweep tie values must be in {' | '.join(SWEEPS['tie'])}, got {v!r}")
                x = v
            elif name == "max_discard":
                x = int(v)
                if not 0 <= x <= 5:
                    raise TricksimError(f"--sweep max_discard values must be 0..5, got {x}")
            else:
                x = float(v)
        except TricksimError:
            raise
        except ValueError:
            raise TricksimError(f"bad value {v!r} for --sweep {name}") from None
        out.append(x)
    return name, out


def sweep_label(name, v) -> str:
    if name == "pot_limit":
        return "no limit" if v is None else f"limit {v}"
    if name == "looseness":
        return f"looseness {v:+g}"
    return f"{name} {v}"


def _setting(name, v, players, rules, heuristic, user_defs):
    if name == "players":
        players = v
    elif name == "looseness":
        pass
    else:
        rules = dataclasses.replace(rules, **{name: v})
    specs = parse_seats(heuristic, players, user_defs)
    if name == "looseness":
        new = []
        for s in specs:
            vals = dict(s.values)
            if "threshold" in vals:
                hd = REGISTRY[s.name]
                t = max(hd.params["threshold"].lo, min(hd.params["threshold"].hi, vals["threshold"] - v))
                vals["threshold"] = t
                s = HeuristicSpec(s.name, s.code, tuple(sorted(vals.items())), f"{s.label} (threshold {t:g})", s.deterministic)
            new.append(s)
        specs = new
    return players, rules, specs


def pot_sweep(name, values, players=7, deals=200, sessions=20_000, seed=0, rules=None, heuristic=None, user_defs=None,
              opts: RunOptions = RunOptions()):
    """One pot study per value of the swept setting (same seed: common random numbers); each in its
    own sub-folder of ``opts.out``."""
    rules = rules or BourreRules()
    results = []
    for v in values:
        p, r, specs = _setting(name, v, players, rules, heuristic, user_defs)
        res = pot_study(p, deals, sessions, seed, r, specs, opts.sub("sweep-" + sweep_label(name, v).replace(" ", "_")))
        res["label"] = sweep_label(name, v)
        results.append(res)
    rows = []
    for res in results:
        mh = res["max_hist"]
        ps = res["pass"]
        fin = ps[ps.within_deals == res["deals"]]
        m, half, nd = res["bourre_mean"]
        o = res["outcomes"]
        row = {"setting": res["label"], "players": res["players"], "sessions": res["sessions"],
               **{f"{name} largest pot [95% CI]": _max_q_text(mh, q)
                  for name, q in (("median", 0.5), ("90%", 0.9), ("99%", 0.99))}}
        for mult in (10, 100, 1000):
            r_ = fin[fin.mult == mult].iloc[0]
            row[f"P(>{mult}x)"] = _pct(r_.p, r_.ci_low, r_.ci_high, 2)
            row[f"p{mult}"] = r_.p
        row["bourre per deal"] = f"{m:.3f} ± {half:.3f}"
        t = o.iloc[1]
        row["tie rate"] = _pct(t.p, t.ci_low, t.ci_high, 2)
        row["overflowed"] = res["overflowed"]
        rows.append(row)
    return {"name": name, "values": values, "results": results, "table": pd.DataFrame(rows)}


def plot_sweep(sw, path: Path):
    from tricksim.analysis.plots import log_axis, percent_axis, style
    from tricksim.analysis.plots import plt
    fig, axes = plt.subplots(1, 3, figsize=(17, 4.8))
    m = len(sw["results"])
    for i, res in enumerate(sw["results"]):
        c = f"C{i % 10}"
        fan = res["fan"]
        lab = res["label"] + (f" ({res['overflowed']:,} sessions overflowed 2^62)" if res["overflowed"] else "")
        kw = style(i, len(fan), m)    # own dash and markers: settings with identical curves stay visible
        axes[0].plot(fan.deal, fan.q50.clip(lower=0.5), color=c, lw=2, label=lab, **kw)
        axes[0].fill_between(fan.deal, fan.q5.clip(lower=0.5), fan.q95.clip(lower=0.5), color=c, alpha=0.1)
        axes[0].plot(fan.deal, fan.q99.clip(lower=0.5), color=c, lw=1, ls=kw["ls"], alpha=0.7)
        _survival(axes[1], res, c, res["label"], i, m)
        ps = res["pass_hist"]
        k = np.arange(1, res["deals"] + 1)
        axes[2].plot(k, np.cumsum(ps[1][:res["deals"]]) / max(res["sessions"], 1), color=c, label=res["label"],
                     **style(i, len(k), m))
    axes[0].set_yscale("log")
    log_axis(axes[0], "y")
    percent_axis(axes[2], "y")
    axes[0].set_xlabel("deal of the session")
    axes[0].set_ylabel("pot contested (chips, log)")
    axes[0].set_title("median (thick), 5-95% (band), 99% (thin)")
    axes[1].set_title("Largest pot of a session: P(>= x)")
    axes[2].set_xlabel("within k deals")
    axes[2].set_ylabel("P(pot passes 100x ante)")
    axes[2].set_title("Chance the pot passes 100x the ante")
    for ax in axes:
        ax.legend(fontsize=7)
    r0 = sw["results"][0]
    fig.suptitle(f"Bourre pot growth, sweep of {sw['name']}: {r0['sessions']:,} sessions of {r0['deals']} deals per setting")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


# ---------------------------------------------------------------------------
# trace
# ---------------------------------------------------------------------------
OUTCOMES = ["winner", "tie", "lone", "all_pass"]


def _cards(mask):
    return [card_str(c) for c in sorted(cards_of(int(mask)))]


def _seats(mask, n):
    return [s for s in range(n) if (int(mask) >> s) & 1]


def record_to_dict(rec, seed, deals, rules, specs, with_legal=False):
    """One TRACE.md line from a kernel deal record."""
    rec = [int(x) for x in rec]
    n = rec[K.REC_N]
    sess, j = rec[K.REC_SESSION], rec[K.REC_DEAL_IDX]
    inm = rec[K.REC_INMASK]
    trump = rec[K.REC_TRUMP]
    up = rec[K.REC_UPCARD]
    d = {"game": KEY, "seed": seed, "hand_index": sess * deals + j, "session": sess, "deal_in_session": j,
         "players": n, "rules": rules_dict(rules), "heuristics": [s.label for s in specs],
         "dealer": rec[K.REC_DEALER], "in_deal": _seats(inm, n), "exempt": _seats(rec[K.REC_EXEMPT], n),
         "pot_before": rec[K.REC_POT_BEFORE], "ante": rec[K.REC_ANTE_AMT],
         "antes": [rec[K.REC_ANTES + s] for s in range(n)], "overflow": bool(rec[K.REC_OVERFLOW])}
    if rec[K.REC_OVERFLOW] and up == 0 and rec[K.REC_NDEC] == 0:
        return d
    d.update({
        "deal": [_cards(rec[K.REC_DEAL + s]) for s in range(n)],
        "trump_card": card_str(up), "trump": "NT" if trump < 0 else SUITS[trump], "lo_no": bool(rec[K.REC_LONO]),
        "decisions": [{"seat": rec[K.REC_DEC + 4 * i], "play": bool(rec[K.REC_DEC + 4 * i + 1]),
                       "discard": _cards(rec[K.REC_DEC + 4 * i + 2]), "drawn": _cards(rec[K.REC_DEC + 4 * i + 3])}
                      for i in range(rec[K.REC_NDEC])],
        "second_antes": [rec[K.REC_ANTE2 + s] for s in range(n)],
        "reshuffles": rec[K.REC_NRESHUF], "up_card_out": bool(rec[K.REC_UP_OUT]),
        "pot": rec[K.REC_POT_STAKE],
        "hands": [_cards(rec[K.REC_HANDS + s]) for s in range(n)],
    })
    na = rec[K.REC_NACTIVE]
    tricks, legal, cinch = [], [], []
    for t in range(rec[K.REC_NTRICKS]):
        b = K.REC_TRICKS + 10 * t
        tricks.append({"leader": rec[b], "cards": [card_str(c) for c in rec[b + 1:b + 1 + na]], "winner": rec[b + 9]})
        legal.append([_cards(rec[K.REC_LEGAL + na * t + q]) for q in range(na)])
        cinch.append([bool(rec[K.REC_CINCH + na * t + q]) for q in range(na)])
    d.update({
        "tricks": tricks, "tricks_won": [rec[K.REC_WON + s] for s in range(n)],
        "outcome": OUTCOMES[rec[K.REC_OUTCOME]], "winner": rec[K.REC_WINNER] if rec[K.REC_WINNER] >= 0 else None,
        "tied": _seats(rec[K.REC_TIED], n), "bourre": _seats(rec[K.REC_BOURRE], n),
        "pot_won": [rec[K.REC_POT_WON + s] for s in range(n)], "bourre_paid": [rec[K.REC_BPAID + s] for s in range(n)],
        "pot_after": rec[K.REC_POT_AFTER], "score_delta": [rec[K.REC_SCORE + s] for s in range(n)],
    })
    if with_legal:
        d["legal"] = legal
        d["cinch"] = cinch
    return d


def trace(seed: int = 0, players: int = 7, sessions: int = 1, deals: int = 10, rules=None, heuristics=None,
          first: int = 0, with_legal: bool = False) -> list[dict]:
    """Deals of sessions first..first+sessions-1, exactly as ``pot`` plays them (one dict per deal;
    a session stops after an overflowed deal)."""
    players = check_players(players)
    rules = rules or BourreRules()
    check_sessions(sessions, deals)
    if first < 0:
        raise TricksimError(f"the first session's index must be at least 0, got {first}")
    specs = parse_seats(heuristics, players)
    kd, kc = GAME.keys(seed)
    codes, prm = heuristic_arrays(specs)
    recs, srows = K.trace_sessions(kd, kc, first, sessions, players, deals, rules_array(rules), codes, prm)
    out = []
    for i in range(sessions):
        played = int(srows[i, K.S_DEALS]) + int(srows[i, K.S_OVF])
        for j in range(played):
            out.append(record_to_dict(recs[i, j], seed, deals, rules, specs, with_legal))
    return out


# ---------------------------------------------------------------------------
# odds of one hand before the draw
# ---------------------------------------------------------------------------
CATS = ["passed", "won", "lone win", "tied", "lost with tricks", "bourre"]


def keep_order(cards, trump: int):
    """Cards from the first to discard to the last (the heuristic's ranking: other cards
    by rank, then kings, aces, then trumps by rank)."""
    def value(c):
        s, r = divmod(c, 16)
        if s == trump:
            return 300 + r
        if r == 12:
            return 200
        if r == 11:
            return 100
        return r
    return sorted(cards, key=lambda c: (value(c), c))


def odds_choices(cards, trump, limit, is_dealer, ace_up):
    """[(label, mode, discard mask)]: the heuristic's own choice, pass, play with 0..limit discards."""
    order = keep_order(cards, trump)
    ch = [("heuristic's own choice", -1, 0)]
    if not (is_dealer and ace_up):
        ch.append(("pass", 0, 0))
    for k in range(limit + 1):
        disc = order[:k]
        lab = "play, keep all" if k == 0 else f"play, discard {k}: {' '.join(card_str(c) for c in disc)}"
        ch.append((lab, 1, mask_of(disc)))
    return ch


def block_odds(params, first, n):
    kd, kc, ra, codes, prm = GAME.kernel_args(params)
    cm = np.array([c[1] for c in params["choices"]], np.int64)
    cdm = np.array([c[2] for c in params["choices"]], np.uint64)
    return _dynamic(K.sim_odds, kd, kc, first, n, params["players"], params["seat"], np.uint64(params["hand_mask"]),
                    params["upcard"], params["pot"], cm, cdm, ra, codes, prm)


def _cell_value(cat, npl, nt, rules: BourreRules, players, pot0):
    ante = rules.ante
    P = pot0 + players * ante + (npl * ante if rules.double_ante else 0)
    take = P if rules.pot_limit is None else min(P, rules.pot_limit)
    a2 = ante if (rules.double_ante and cat != 0) else 0
    if cat == 0:
        return 0
    if cat in (1, 2):
        return take - a2
    if cat == 3:
        return (take // nt if rules.tie == "divide_equally" else 0) - a2
    if cat == 4:
        return -a2
    pen = take if rules.penalty_chips < 0 else rules.penalty_chips
    return -pen - a2


def odds_table(counts, choices, rules, players, pot0):
    rows = []
    for ci, (label, mode, dm) in enumerate(choices):
        blk = np.asarray(counts[ci * K.ODDS_STRIDE:(ci + 1) * K.ODDS_STRIDE])
        cells = blk[:K.ODDS_CELLS].reshape(K.ODDS_CATS, 9, 9)
        n = int(cells.sum())
        vals, cnts = [], []
        for cat in range(K.ODDS_CATS):
            for npl in range(9):
                for nt in range(9):
                    c = int(cells[cat, npl, nt])
                    if c:
                        vals.append(_cell_value(cat, npl, nt, rules, players, pot0))
                        cnts.append(c)
        total = sum(v * c for v, c in zip(vals, cnts))
        if total != int(blk[K.ODDS_CELLS]):
            raise RuntimeError(f"odds: settlement mismatch for {label!r} ({total} != {int(blk[K.ODDS_CELLS])})")
        m, half, _ = hist_mean_ci(np.array(vals, float), np.array(cnts, float)) if n else (math.nan, math.nan, 0)
        bycat = cells.sum(axis=(1, 2))
        row = {"choice": label, "mode": mode, "discard": " ".join(card_str(c) for c in sorted(cards_of(dm))), "n": n}
        for name, k in (("win", None), ("tie", 3), ("bourre", 5), ("play", None)):
            if name == "win":
                x = int(bycat[1] + bycat[2])
            elif name == "play":
                x = n - int(bycat[0])
            else:
                x = int(bycat[k])
            p, lo, hi = wilson(x, n)
            row[f"p_{name}"] = float(p)
            row[f"{name}_lo"] = float(lo)
            row[f"{name}_hi"] = float(hi)
        row["exp_chips"] = m
        row["chips_ci"] = half
        rows.append(row)
    return pd.DataFrame(rows)


def validate_odds(cards, up, players, seat, pot, rules):
    """The odds study's input checks (one clear line each)."""
    if len(cards) != 5:
        raise TricksimError(f"a Bourre hand must have 5 cards, got {len(cards)}")
    if len(set(cards)) != 5:
        raise TricksimError("duplicate card in Bourre hand")
    if seat is None or not 0 <= seat < players:
        raise TricksimError(f"the seat must be 0..{players - 1} (0 = dealer's left, {players - 1} = dealer), got {seat}")
    if pot is None or pot < 0:
        raise TricksimError(f"the pot must be at least 0 chips, got {pot}")
    is_dealer = seat == players - 1
    if rules.trump_card == "dealer_fifth":
        if is_dealer and up not in cards:
            raise TricksimError(f"the up-card {card_str(up)} is the dealer's fifth card: the dealer's hand must contain it")
        if not is_dealer and up in cards:
            raise TricksimError(f"the up-card {card_str(up)} is in the dealer's hand; it cannot be in the hand of "
                                f"seat {seat}, who is not the dealer")
    elif up in cards:
        raise TricksimError(f"with trump_card = separate_turnup the up-card {card_str(up)} belongs to no one; "
                            "it cannot be in the hand")


def odds_run(cards, up, players: int = 7, seat: int = 0, pot: int = 0, seed: int = 0, hands: int = 100_000,
             rules=None, heuristics=None, block_size: int = ODDS_BLOCK):
    """The run of ``odds_hand`` and its choices: what names its folder and what it executes."""
    rules = rules or BourreRules()
    players = check_players(players)
    validate_odds(cards, up, players, seat, pot, rules)
    if hands < 1:
        raise TricksimError(f"the number of deals must be at least 1, got {hands}")
    ace_up = rules.trump_card == "dealer_fifth" and up % 16 == 12
    choices = odds_choices(cards, up // 16, discard_limit(rules, players), seat == players - 1, ace_up)
    params = make_params(seed, rules, parse_seats(heuristics, players), players=players, seat=seat,
                         hand_mask=mask_of(cards), upcard=up, pot=pot, choices=[list(c) for c in choices])
    return engine.Run("bourre.odds", params, hands, block_size, unit="hands"), choices


def odds_hand(hand, upcard, players: int = 7, seat: int = 0, pot: int = 0, seed: int = 0, hands: int = 100_000,
              rules=None, heuristics=None, opts: RunOptions = RunOptions(), until_precision: float | None = None,
              block_size: int = ODDS_BLOCK):
    """Chances of one hand before the draw. ``seat`` = position from the dealer's left
    (0 = first to speak, players-1 = the dealer); ``pot`` = chips carried over before
    this deal's antes (everyone antes).  Every choice (pass, play with 0..limit discards,
    and the heuristic's own choice) is played on the same random deals of the unseen
    cards.  Returns {'choices': DataFrame, 'best': ..., 'n', ...}."""
    rules = rules or BourreRules()
    players = check_players(players)
    cards = parse_hand(hand) if isinstance(hand, str) else list(hand)
    up = parse_card(upcard) if isinstance(upcard, str) else int(upcard)
    specs = parse_seats(heuristics, players)
    run, choices = odds_run(cards, up, players, seat, pot, seed, hands, rules, specs, block_size)
    stop = None
    if until_precision:
        if until_precision <= 0:
            raise TricksimError(f"the precision must be a positive half-width, got {until_precision}")

        def stop(acc, n):
            df = odds_table(acc, choices, rules, players, pot)
            hw = pd.concat([(df[f"{x}_hi"] - df[f"{x}_lo"]) / 2 for x in ("win", "tie", "bourre")])
            return bool(hw.max() <= until_precision)
    r = opts.execute(run, stop)
    df = odds_table(r.counts, choices, rules, players, pot)
    cand = df[df["mode"] >= 0]
    best = cand.sort_values(["exp_chips", "mode"], ascending=[False, True]).iloc[0]
    return {"choices": df, "best": best, "n": r.n, "seconds": r.seconds, "hand": " ".join(card_str(c) for c in cards),
            "upcard": card_str(up), "players": players, "seat": seat, "pot": pot, "rules": rules, "specs": specs,
            "stake": pot + players * rules.ante}


def render_odds(res) -> str:
    from tricksim.analysis.output import pm
    df = res["choices"]
    pos = "the dealer" if res["seat"] == res["players"] - 1 else f"position {res['seat']} from the dealer's left"
    lines = [f"Bourre hand {res['hand']}, up-card {res['upcard']}, {res['players']} players, {pos}; "
             f"pot {res['stake']:,} chips after the antes ({res['pot']:,} carried over). "
             f"{res['n']:,} random deals of the unseen cards, every choice played on the same deals."]
    tab = pd.DataFrame({"choice": df.choice,
                        "P(win pot)": [_pct(a, b, c) for a, b, c in zip(df.p_win, df.win_lo, df.win_hi)],
                        "P(tie)": [_pct(a, b, c) for a, b, c in zip(df.p_tie, df.tie_lo, df.tie_hi)],
                        "P(bourre)": [_pct(a, b, c) for a, b, c in zip(df.p_bourre, df.bourre_lo, df.bourre_hi)],
                        "P(plays)": [_pct(a) for a in df.p_play],
                        "E[chips]": [pm(a, b, 2) for a, b in zip(df.exp_chips, df.chips_ci)],
                        "n": df.n.map(lambda x: f"{x:,}")})
    lines.append(tab.to_string(index=False))
    b = res["best"]
    lines.append(f"best decision: {b.choice} (expected chips {b.exp_chips:+.2f} ± {b.chips_ci:.2f})")
    lines.append("E[chips] counts this deal from the decision on: the pot taken, minus any second ante and bourre "
                 "payment (the first ante is already in the pot). A tie's carried-over pot and ante exemption are "
                 "not valued. Pass = 0.")
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# duplicate tournaments (analysis/compare.py)
# ---------------------------------------------------------------------------
DEFAULT_PLAYERS = 7          # the table size of every Bourre study when none is given (CLI and API alike)
def block_duplicate(params, first, n):
    from tricksim.analysis.compare import seating
    players = check_players(params.get("players", DEFAULT_PLAYERS))
    codes, prm = GAME.heuristic_arrays(GAME.specs_from_json(params["entrants"]))
    k = len(codes)
    ids, nround = seating(GAME, k, params)
    kd, kc = GAME.keys(params["seed"])
    return _dynamic(K.sim_duplicate, kd, kc, first, n, players, np.ascontiguousarray(codes[ids]),
                    np.ascontiguousarray(prm[ids]), ids, k, nround, int(params.get("pot", 0)),
                    rules_array(GAME.rules_of(params)))


# ---------------------------------------------------------------------------
# CLI adapters
# ---------------------------------------------------------------------------
def pot_command(players: int = 7, deals: int = 200, sessions: int = 100_000, seed: int = 0, heuristic=None,
                user_defs=None, rules=None, sweep: str | None = None, opts: RunOptions = RunOptions()) -> Iterator[str]:
    """``tricksim pot``: the pot-growth study, or with ``sweep`` (``NAME`` or ``NAME=v1,v2,...``) one
    study per value of a setting.  ``heuristic``: names (with ``user_defs``), resolved per setting.
    Writes the run folder and yields the text to print."""
    from tricksim.analysis.output import show, with_folder, write_table
    rules = rules or BourreRules()
    players = check_players(players)
    check_sessions(sessions, deals)
    if sweep:
        name, values = parse_sweep(sweep)
        for v in values:             # validate every setting before running any
            _setting(name, v, players, rules, heuristic, user_defs)
        import hashlib
        key = hashlib.sha256(repr((name, values, players, deals, sessions, seed, rules_dict(rules),
                                   heuristic)).encode()).hexdigest()
        opts = with_folder(opts, KEY, "pot-sweep", key)
        sw = pot_sweep(name, values, players, deals, sessions, seed, rules, heuristic, user_defs, opts)
        write_table(sw["table"], opts.out, f"sweep_{name}")
        plot_sweep(sw, opts.out / f"sweep_{name}.png")
        yield f"Bourre pot growth, sweep of {name}: {sessions:,} sessions of {deals} deals per setting, seed {seed}"
        yield show(sw["table"].drop(columns=[c for c in sw["table"].columns if c.startswith("p") and c[1:].isdigit()]))
        yield f"\ntables and plots in {opts.out}"
        return
    specs = parse_seats(heuristic, players, user_defs)
    opts = with_folder(opts, KEY, "pot", pot_run(players, deals, sessions, seed, rules, specs))
    res = pot_study(players, deals, sessions, seed, rules, specs, opts)
    write_pot(res, opts.out)
    yield render_pot(res)
    yield f"\npeak memory (RSS) of this process: {res['peak_rss_mb']:,.0f} MB; tables and plots in {opts.out}"


def odds_command(hand: str, up_card: str, players: int = DEFAULT_PLAYERS, seat: int = 0, pot: int = 0,
                 hands: int | None = None, seed: int = 0, heuristics=None, rules=None,
                 until_precision: float | None = None, opts: RunOptions = RunOptions()) -> Iterator[str]:
    """``tricksim odds bourre``: the chances of one hand before the draw, every choice played on the same
    deals; writes the run folder and yields the text to print."""
    from tricksim.analysis.output import with_folder, write_table
    rules = rules or BourreRules()
    players = check_players(players)
    cards = parse_hand(hand)
    up = parse_card(up_card)
    specs = parse_seats(heuristics, players)
    hands = hands or 100_000
    run, _ = odds_run(cards, up, players, seat, pot, seed, hands, rules, specs)
    opts = with_folder(opts, KEY, "odds", run)
    res = odds_hand(cards, up, players, seat, pot, seed, hands, rules, specs, opts=opts,
                    until_precision=until_precision)
    write_table(res["choices"], opts.out, "odds_choices")
    yield render_odds(res)
    yield f"\nresults in {opts.out}"


# ---------------------------------------------------------------------------
# benchmark
# ---------------------------------------------------------------------------
def bench_cases(seed=0):
    """Complete deals (antes, deal, pass/play, draw, five tricks, settlement) inside sessions
    of 200 deals, through the pot study's block function."""
    cases = []
    for label, players, h in [("7 players, default (basic)", 7, "default"), ("7 players, cinch", 7, "cinch"),
                              ("7 players, random", 7, "random"), ("4 players, default", 4, "default"),
                              ("8 players, default", 8, "default")]:
        specs = parse_seats(h, players)
        params = make_params(seed, BourreRules(), specs, players=players, deals=200)

        def fn(first, n, params=params):
            ns = max(1, n // 200)
            v = block_pot(params, first // 200, ns)
            lay = agg_layout(-(-200 // fan_stride(200)), 200)
            return int(v[lay["misc"][0] + 3])
        cases.append((label, fn))
    return cases


# ---------------------------------------------------------------------------
# the headline report (tricksim report)
# ---------------------------------------------------------------------------
SWEEP_NOTES = {
    "players": "Every seat plays `basic`; the ante is 1 per player, so a bigger table starts with a bigger pot.",
    "pot_limit": "A limit L caps what a winner takes (the rest stays) and what a bourré pays (rule 15).",
    "looseness": "Every seat's play threshold is lowered by this much (0 = `basic`, threshold 2.0; a duplicate "
                 "sweep, `tricksim sweep bourre basic --param threshold=0.5:3:0.5 --against basic --players 7`, "
                 "finds 2.0 the best reply to itself): looser tables put more players in, more of them go bourré, "
                 "and the pot compounds.",
}


def headline(out, quick: bool = False, progress: bool = False) -> str:
    """The pot-growth study (fan chart, tables) and sweeps of the player count and the pot
    limit, into ``out/bourre/``; returns the markdown section."""
    from tricksim.analysis.output import markdown_table, write_table
    out = Path(out)
    d = out / "bourre"
    d.mkdir(parents=True, exist_ok=True)
    runs = out / "runs"
    seed = 2026
    deals = 50 if quick else 200
    n_main = 500 if quick else 100_000
    n_sweep = 200 if quick else 5_000
    md = ["## Bourré: how the pot grows\n"]
    res = pot_study(7, deals, n_main, seed, opts=RunOptions(runs / "bourre-headline-pot", progress=progress, force=True))
    write_pot(res, d)
    t = pot_tables(res)
    md.append(f"Regenerate: `tricksim pot --players 7 --deals {deals} --sessions {n_main} --seed {seed}`\n")
    md.append(f"{n_main:,} independent sessions of {deals} consecutive deals at a table of 7, every seat playing the "
              f"default heuristic (`basic`), default rules (ante 1, pot-sized bourré, tied pot carried over, no limit); "
              f"{res['deals_played']:,} deals in {res['seconds']:.0f} s. Seat 0 deals first; the deal passes left. "
              "Pot quantiles come from log-scale histograms (exact below 32 chips, then 8 bins per octave, so a "
              "quantile is known to within about 9%), and every quantile carries its 95% order-statistic interval (bin edges; "
              "none is printed where the sessions cannot bound it); every rate has its 95% interval and sample size "
              "(per-deal rates: from the variance between sessions, as deals inside a session depend on each other); "
              "session nets are heavy-tailed, so the seats show means without an interval beside medians with one. "
              + ("No session overflowed 2^62 chips. " if not res["overflowed"] else
                 f"{res['overflowed']:,} sessions overflowed 2^62 chips and were stopped (counted above every finite pot). ")
              + ("Chips were conserved in every session (seat nets + pot = 0).\n" if not res["violations"] else
                 f"**Chip conservation failed in {res['violations']} sessions.**\n"))
    md.append("![fan chart](bourre/pot_growth.png)\n")
    md.append("**Pot contested at deal k** (carry-over plus antes):\n\n" + markdown_table(t["fan"]) + "\n")
    md.append("**Largest pot of a session** (most chips in the middle at any moment):\n\n" + markdown_table(t["max"]) + "\n")
    md.append(f"**Chance the pot passes 10x / 100x / 1000x the ante within k deals** ({res['sessions']:,} sessions):\n\n"
              + markdown_table(t["pass"]) + "\n")
    m, half, nd = res["bourre_mean"]
    am, ahalf, _ = res["active_mean"]
    md.append(f"**Per deal** ({nd:,} deals): {am:.2f} ± {ahalf:.2f} players play, {m:.3f} ± {half:.3f} go bourré.\n\n"
              + markdown_table(t["bourre"]) + "\n\n" + markdown_table(t["outcomes"]) + "\n")
    md.append("**Each seat's net chips after the session:**\n\n" + markdown_table(t["seats"]) + "\n")
    # sweeps
    for name, values in (("players", [2, 3, 4, 5, 6, 7, 8]), ("pot_limit", [None, 100, 50, 20]),
                         ("looseness", [0.0, 0.5, 1.0, 1.5])):
        sw = pot_sweep(name, values, 7, deals, n_sweep, seed,
                       opts=RunOptions(runs / f"bourre-headline-sweep-{name}", progress=progress, force=True))
        tab = sw["table"].drop(columns=[c for c in sw["table"].columns if c.startswith("p") and c[1:].isdigit()])
        write_table(tab, d, f"sweep_{name}")
        plot_sweep(sw, d / f"sweep_{name}.png")
        vals = ",".join("none" if v is None else str(v) for v in values)
        md.append(f"### Sweep: {name.replace('_', ' ')}\n")
        md.append(f"Regenerate: `tricksim pot --players 7 --deals {deals} --sessions {n_sweep} --seed {seed} "
                  f"--sweep {name}={vals}`\n")
        md.append(f"{n_sweep:,} sessions of {deals} deals per setting, the same seed for every setting. "
                  + SWEEP_NOTES[name] + "\n")
        md.append(f"![sweep {name}](bourre/sweep_{name}.png)\n\n" + markdown_table(tab) + "\n")
    lay = agg_layout(-(-deals // fan_stride(deals)), deals)
    bs = pot_block_size(deals)
    md.append(f"Memory is bounded by the block size, not by the number of deals: the kernel aggregates each block of "
              f"{bs:,} sessions into one int64 vector of {lay['len']:,} counts ({lay['len'] * 8 / 2 ** 20:.1f} MB: "
              "log-binned histograms of the pot at each deal, first-passage counts, per-seat sums and histograms), "
              f"using {bs * (K.S_LEN + min(deals, MAX_FAN)) * 8 / 2 ** 20:.0f} MB of per-session scratch while it runs; "
              "no row per deal is ever stored. The whole 100,000 x 200 run peaks at about 300 MB of resident memory "
              "(most of it the Python, NumPy, pandas and Numba runtime).\n")
    return "\n".join(md)


# ---------------------------------------------------------------------------
# the game record (analysis/game.py)
# ---------------------------------------------------------------------------
GAME = Game(
    name="bourre", key=KEY, title="Bourre", rules=BourreRules, rules_array=rules_array, kernel=K,
    rng_id=GAME_BOURRE, heuristics=REGISTRY, aliases=ALIASES, seats=DEFAULT_PLAYERS,
    seat_range=(MIN_PLAYERS, MAX_PLAYERS),
    blocks={"bourre.pot": block_pot, "bourre.odds": block_odds, "bourre.duplicate": block_duplicate},
    duplicate=Duplicate(study="bourre.duplicate", metrics=("chips",), unit="chips per deal", hands=300_000,
                        block=1 << 16, layout="rounds", max_entrants=6),
    trace=trace, bench_cases=bench_cases, bench_hands=2_000_000, headline=headline,
    heading="## Bourr", rules_section="3 (Bourre)")

parse_seats = GAME.parse_seats
heuristic_arrays = GAME.heuristic_arrays
specs_from_json = GAME.specs_from_json
check_players = GAME.check_players
