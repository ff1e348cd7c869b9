"""Bourre views: the pot study's tables as text, its plots and files, and the commands of the CLI
(``pot``, ``odds bourre``), which run the studies, write the run folder and yield the text cli.py prints."""
from __future__ import annotations

import hashlib
import math
from pathlib import Path
from typing import Iterator

import numpy as np
import pandas as pd

from ...kernels import bourre as K
from ..common import TricksimError, parse_card, rules_dict
from ..engine import RunOptions
from ..output import plain_table, show, with_folder, write_table
from ..stats import wilson
from .bins import _chips, _pct, _pm, _q_text, _short, bin_hi, bin_lo
from .config import DEFAULT_PLAYERS, KEY, BourreRules, parse_hand
from .ev import prepare_lines
from .law import expected_a, mean_status
from .odds import odds_hand, odds_run, render_odds
from .play import PLAY_HANDS, odds_play, odds_play_run, parse_play, render_play
from .plots import plot_pot, plot_sweep
from .pot import check_sessions, pot_run, pot_study
from .spec import SPEC
from .sweep import _setting, parse_sweep, pot_sweep
from .tail import check_tail, tail_study
from .tail_views import render_tail, write_tail


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
                                "share of deals [95% CI]": [_pct(a, c, d, 2) for a, c, d in zip(b.p, b.ci_low, b.ci_high)],
                                "deals": [f"{x:,} of {n:,}" for x, n in zip(b["count"], b.deals)]})
    o = res["outcomes"]
    t["outcomes"] = pd.DataFrame({"deal ends with": o.outcome,
                                  "share [95% CI]": [_pct(a, c, d, 2) for a, c, d in zip(o.p, o.ci_low, o.ci_high)],
                                  "deals": [f"{x:,} of {n:,}" for x, n in zip(o["count"], o.deals)]})
    s = res["seats"]
    withheld = means_withheld(res)
    means = {} if withheld else {
        "mean net": s.mean_net.map(lambda x: ("-" if x != x else f"{x:+,.1f}" if abs(x) < 1e6
                                              else ("+" if x > 0 else "") + _short(x))),
        "sd": s.sd_net.map(_short)}
    t["seats"] = pd.DataFrame({"seat": s.seat, "heuristic": s.heuristic, **means,
                               "median [95% CI]": [_q_text(m, lo, hi) for m, lo, hi in zip(s["median"], s.median_lo, s.median_hi)],
                               "5% / 95% [95% CIs]": [f"{_q_text(a, alo, ahi)} / {_q_text(c, clo, chi)}" for a, alo, ahi, c, clo, chi
                                                      in zip(s.p5, s.p5_lo, s.p5_hi, s.p95, s.p95_lo, s.p95_hi)],
                               "P(down > 10x ante)": [_pct(a, c, d) for a, c, d in zip(s.p_down_10x, s.p_down_10x_lo, s.p_down_10x_hi)],
                               "P(down > 100x ante)": [_pct(a, c, d, 2) for a, c, d in zip(s.p_down_100x, s.p_down_100x_lo, s.p_down_100x_hi)],
                               "plays": s.play_rate.map(lambda x: f"{100 * x:.0f}%"),
                               "bourre per deal": s.bourre_per_deal.map(lambda x: f"{x:.3f}")})
    return t


SETTLE_FACTOR = 1.25     # a fan quantile within this factor of its last value (or overlapping it) has settled
SETTLE_SHARE = 0.95      # ... at this share of the fan deals from the settling deal on


def settling(res):
    """When the pot's distribution settles, from the fan chart: the first fan deal that agrees with
    the last deal, as do 95% of the fan deals after it, where two deals agree when each of the
    median, the 90% and (where the sessions bound it) the 99% quantile of the pot contested is
    within a factor 1.25 of the other's or their 95% order-statistic intervals overlap.  Returns a
    dict (deal, the quantiles there and at the last deal, settled: that deal lies in the first half
    of the session) or None (no fan)."""
    fan = res["fan"].reset_index(drop=True)
    if not len(fan):
        return None
    last = fan.iloc[-1]
    qs = ["q50", "q90"] + (["q99"] if last.q99_lo == last.q99_lo and last.q99 == last.q99 else [])

    def near(r, q):
        a, b = r[q], last[q]
        if not (a == a and b == b) or a <= 0 or b <= 0 or math.isinf(a) or math.isinf(b):
            return a == b
        if max(a, b) / min(a, b) <= SETTLE_FACTOR:
            return True
        lo, hi = r[q + "_lo"], r[q + "_hi"]
        return lo == lo and hi == hi and lo <= last[q + "_hi"] and last[q + "_lo"] <= hi
    ok = np.array([all(near(r, q) for q in qs) for _, r in fan.iterrows()])
    share = np.cumsum(ok[::-1])[::-1] / np.arange(len(ok), 0, -1)
    i = int(np.flatnonzero(ok & (share >= SETTLE_SHARE))[0])
    r = fan.iloc[i]
    top = qs[-1]
    return {"deal": int(r.deal), "last_deal": int(last.deal), "median": r.q50, "median_last": last.q50,
            "first_deal": int(fan.deal.iloc[0]), "median_first": fan.q50.iloc[0],
            "top": top, "top_at": r[top], "top_last": last[top],
            "settled": int(r.deal) <= max(1, res["deals"] // 2) and len(fan) > 1}


def means_withheld(res) -> bool:
    return mean_status(res)[0] in ("infinite", "maybe")


def compounds(res):
    """(E[A] >= 1: True / False, the answer in sentences): whether the pot's distribution settles
    (from the fan chart's quantiles at an early and the last deal) and how heavy its tail is.  E[A]
    >= 1 does not make the pot 'compound': a win without a bourre resets it, so its distribution
    settles; only its mean grows, through rare runs of bourres, and is infinite in the long run
    (k <= 1)."""
    labels = sorted({s.label for s in res["specs"]})
    who = (f"expected-value play ({', '.join(labels)})" if all(s.name == "ev" for s in res["specs"])
           else f"{', '.join(labels)} play")
    ea, ehalf, parts = expected_a(res)
    st = settling(res)
    if st is None:
        fan_txt = "the pot's distribution is not charted"
    else:
        top = {"q50": "median", "q90": "90th percentile", "q99": "99th percentile"}[st["top"]]
        if st["settled"]:
            fan_txt = (f"the pot's distribution settles within ~{st['deal']} deals (median {_chips(st['median'])}, "
                       f"{top} {_chips(st['top_at'])} at deal {st['deal']} and {_chips(st['top_last'])} at deal "
                       f"{st['last_deal']})")
        else:
            fan_txt = (f"the pot's distribution still changes late in the {res['deals']}-deal session (median "
                       f"{_chips(st['median_first'])} at deal {st['first_deal']}, {_chips(st['median_last'])} at deal "
                       f"{st['last_deal']}; {top} {_chips(st['top_last'])} at the end)")
    tr = res.get("tail")
    if tr is not None and tr["k"].iloc[0]["case"] == "power":
        fan_txt += f"; a win without a bourre resets the pot on {100 * tr['k'].iloc[0]['P(A=0)']:.0f}% of deals"
    status, why = mean_status(res)
    ea_txt = f"E[A] = {ea:.3f} ± {ehalf:.3f} per deal ({' and '.join(parts)})"
    if status == "infinite":
        tail_txt = (f"Its tail is so heavy ({why}) that its mean is infinite: averages of the pot or of the seats' "
                    "net winnings do not converge and are withheld (medians and quantiles are given instead).")
    elif status == "maybe":
        tail_txt = (f"Its tail may be so heavy that its mean is infinite ({why}): averages of the pot or of the "
                    "seats' net winnings may not converge and are withheld (medians and quantiles are given instead).")
    elif status == "capped":
        tail_txt = f"Its tail is cut off: {why}."
    else:
        tail_txt = f"Its tail is lighter ({why}): its mean is finite."
    if ea >= 1:
        return True, (f"Under {who} {fan_txt}. The pot is multiplied per deal by A (the pot-sized bourre payments, "
                      f"plus 1 when it carries over) with {ea_txt}: only its mean grows from deal to deal, through "
                      f"rare runs of bourres. {tail_txt}")
    return False, (f"Under {who} the pot does not compound: it is multiplied per deal by A (the pot-sized bourre "
                   f"payments, plus 1 when it carries over) with {ea_txt} < 1, so between wins it falls back; "
                   f"{fan_txt}. {tail_txt}")


def render_pot(res) -> str:
    t = pot_tables(res)
    m, half, nd = res["bourre_mean"]
    am, ahalf, _ = res["active_mean"]
    lines = [compounds(res)[1], f"Bourre pot growth: {res['sessions']:,} sessions of {res['deals']} deals, {res['players']} players "
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
              plain_table(t["fan"]), "", "Largest pot of a session (most chips in the middle at any time):",
              plain_table(t["max"]), "", "Chance the pot passes X within k deals [95% CI]:",
              plain_table(t["pass"]), "",
              f"Players going bourre per deal: mean {_pm(m, half, 3)} ({nd:,} deals); players who play: "
              f"mean {_pm(am, ahalf, 2)}", plain_table(t["bourre"]), "", plain_table(t["outcomes"]),
              "", "Each seat's net chips at the end of a session (seat 0 deals first):", show(t["seats"], key=2)]
    lines.append(f"(Per-deal rates and means are over all {res['deals_played']:,} deals played (overflowed sessions up "
                 "to their overflow); their 95% intervals use the variance between sessions, since deals inside a "
                 "session depend on each other (the pot, ties, exemptions). The seats' plays, wins and bourre per deal "
                 f"are over the {res['ok_deals']:,} deals of the {res['ok_sessions']:,} finished sessions. Every quantile "
                 "carries its 95% order-statistic interval (distribution-free, bin edges; 'n/a' where the sample "
                 "cannot bound it); "
                 + ("session nets are heavy-tailed, so their means are given without an interval.)" if not
                    means_withheld(res) else
                    f"the seats' mean nets are withheld: {mean_status(res)[1]}, so the long-run mean of the pot and "
                    "of every seat's net is infinite and a sample average does not settle, however many sessions; "
                    "medians and quantiles do.)"))
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
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    for k in ("fan", "max_quantiles", "pass", "bourre", "outcomes"):
        write_table(res[k], out, f"pot_{k}")
    # a mean that does not exist (k <= 1) is not written either
    write_table(res["seats"].drop(columns=["mean_net", "sd_net"]) if means_withheld(res) else res["seats"], out,
                "pot_seats")
    hist = pd.DataFrame({"bin": np.arange(K.NB), "lo": [bin_lo(b) if b < K.BIN_OVF else None for b in range(K.NB)],
                         "hi_exclusive": [bin_hi(b) if b < K.BIN_OVF else None for b in range(K.NB)],
                         "largest_pot_sessions": res["max_hist"], "end_pot_sessions": res["endpot_hist"]})
    write_table(hist[(hist.largest_pot_sessions > 0) | (hist.end_pot_sessions > 0)], out, "pot_histograms")
    plot_pot(res, out)


def pot_command(players: int = 7, deals: int = 200, sessions: int = 100_000, seed: int = 0, heuristic=None,
                user_defs=None, rules=None, sweep: str | None = None, opts: RunOptions = RunOptions(),
                tail: bool = False, tail_levels: str | None = None, tail_roots: int | None = None) -> Iterator[str]:
    """``tricksim pot``: the pot-growth study, or with ``sweep`` (``NAME`` or ``NAME=v1,v2,...``) one
    study per value of a setting.  ``heuristic``: names (with ``user_defs``), resolved per setting.
    With ``tail`` also the tail law and the rare tails (``tail_levels``: X / ante, ``tail_roots``:
    root sessions of the splitting).  Writes the run folder and yields the text to print."""
    rules = rules or BourreRules()
    players = SPEC.check_players(players)
    check_sessions(sessions, deals)
    targets = check_tail(tail, tail_levels, tail_roots, sweep)
    if sweep:
        name, values = parse_sweep(sweep)
        for v in values:             # validate every setting before running any
            _setting(name, v, players, rules, heuristic, user_defs)
        key = hashlib.sha256(repr((name, values, players, deals, sessions, seed, rules_dict(rules),
                                   heuristic)).encode()).hexdigest()
        opts = with_folder(opts, KEY, "pot-sweep", key)
        for v in values:             # ev's tables first (computed, or loaded from the cache), with their iterations
            p_, r_, specs_ = _setting(name, v, players, rules, heuristic, user_defs)
            yield from prepare_lines(specs_, r_, p_)
        sw = pot_sweep(name, values, players, deals, sessions, seed, rules, heuristic, user_defs, opts)
        write_table(sw["table"], opts.out, f"sweep_{name}")
        plot_sweep(sw, opts.out / f"sweep_{name}.png")
        yield f"Bourre pot growth, sweep of {name}: {sessions:,} sessions of {deals} deals per setting, seed {seed}"
        yield show(sw["table"].drop(columns=[c for c in sw["table"].columns if c.startswith("p") and c[1:].isdigit()]))
        yield f"\ntables and plots in {opts.out}"
        return
    specs = SPEC.parse_seats(heuristic, players, user_defs)
    yield from prepare_lines(specs, rules, players)
    run = pot_run(players, deals, sessions, seed, rules, specs)
    opts = with_folder(opts, KEY, "pot", run)
    res = pot_study(opts=opts, run=run)
    tr = None
    if tail:                 # the tail law first: its k decides whether the seats' means exist
        tr = tail_study(players, deals, sessions, seed, rules, specs, opts, targets,
                        tail_roots or max(100, min(2000, sessions // 100)))
        res["tail"] = tr
    write_pot(res, opts.out)
    yield render_pot(res)
    if tr is not None:
        write_tail(tr, opts.out, res)
        yield render_tail(tr)
    yield f"\npeak memory (RSS) of this process: {res['peak_rss_mb']:,.0f} MB; tables and plots in {opts.out}"


def odds_command(hand: str, up_card: str, players: int = DEFAULT_PLAYERS, seat: int = 0, pot: int = 0,
                 hands: int | None = None, seed: int = 0, heuristics=None, rules=None,
                 until_precision: float | None = None, opts: RunOptions = RunOptions(),
                 play: str | None = None) -> Iterator[str]:
    """``tricksim odds bourre``: the chances of one hand before the draw, every choice played on the same
    deals (``play``: under each kind of play, e.g. "heuristic,open"); writes the run folder and yields the
    text to print."""
    rules = rules or BourreRules()
    players = SPEC.check_players(players)
    cards = parse_hand(hand)
    up = parse_card(up_card)
    specs = SPEC.parse_seats(heuristics, players)
    yield from prepare_lines(specs, rules, players)
    if play is not None:
        kinds = parse_play(play)
        if until_precision is not None:
            raise TricksimError("--until-precision is not available with --play: give --hands")
        hands = hands or PLAY_HANDS
        prepared = odds_play_run(cards, up, players, seat, pot, seed, hands, rules, specs, play)
        opts = with_folder(opts, KEY, "odds_play", prepared[0])
        res = odds_play(cards, up, players, seat, pot, seed, hands, rules, specs, play, opts, prepared=prepared)
        write_table(res["choices"], opts.out, "play_choices")
        write_table(res["gaps"], opts.out, "play_gaps")
        write_table(res["best"], opts.out, "play_best")
        yield render_play(res)
        yield f"({res['seconds']:.1f} s)\nresults in {opts.out}"
        return
    hands = hands or 100_000
    prepared = odds_run(cards, up, players, seat, pot, seed, hands, rules, specs)
    opts = with_folder(opts, KEY, "odds", prepared[0])
    res = odds_hand(cards, up, players, seat, pot, seed, hands, rules, specs, opts=opts,
                    until_precision=until_precision, prepared=prepared)
    write_table(res["choices"], opts.out, "odds_choices")
    yield render_odds(res)
    yield f"\nresults in {opts.out}"
