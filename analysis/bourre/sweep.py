"""Bourre pot sweeps: one pot study per value of a setting (table size, a rule, the heuristics'
looseness, the heuristic of every seat), on the same seed (common random numbers), and their plot."""
from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from ...kernels import bourre as K
from ..common import HeuristicSpec, TricksimError
from ..engine import RunOptions
from .bins import _max_q_text, _pct, _pm, bin_hi, bin_lo
from .config import REGISTRY, BourreRules, no_pimc
from .ev import study_ev_form
from .law import expected_a, mean_status
from .pot import pot_study
from .spec import SPEC

SWEEPS = {
    "players": [2, 3, 4, 5, 6, 7, 8],
    "pot_limit": [None, 50, 20, 10],
    "double_ante": [False, True],
    "tie": ["carry_over", "divide_equally", "tied_only_next_hand"],
    "max_discard": [5, 4, 3],
    "looseness": [-0.5, 0.0, 0.5, 1.0],
    "heuristic": ["basic", "tight", "loose", "ev"],
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
                x = SPEC.check_players(int(v))
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
            elif name == "heuristic":
                x = SPEC.parse_heuristic(v).label          # validated here, parsed again per setting
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
    if name == "heuristic":
        return str(v)
    return f"{name} {v}"


def _setting(name, v, players, rules, heuristic, user_defs):
    if name == "players":
        players = v
    elif name == "looseness":
        pass
    elif name == "heuristic":
        heuristic = v
    else:
        rules = dataclasses.replace(rules, **{name: v})
    specs = no_pimc(SPEC.parse_seats(heuristic, players, user_defs), "pot --sweep")
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


def sweep_settings(name, values, players, rules, heuristic=None, user_defs=None, ev_form: bool = False):
    """Each value's (players, rules, seats), and the sweep's form: whether its runs pass the kernels ev's tables
    (analysis/bourre/ev.py ``study_ev_form``: when a setting has an ev seat, or ``ev_form``, a larger study's)."""
    settings = [_setting(name, v, players, rules, heuristic, user_defs) for v in values]
    return settings, ev_form or study_ev_form(*(specs for _, _, specs in settings))


MEAN_WORDS = {"infinite": "infinite (E[A] >= 1)", "maybe": "maybe infinite (E[A]'s interval reaches 1)",
              "finite": "finite (E[A] < 1)", "capped": "finite (pot limit)"}


def limit_reached(res) -> str:
    """How many sessions had a pot above the limit (where a limit can bind: a winner takes at most L, a
    bourre pays at most L), from the largest-pot histogram; a bin that straddles L gives a range."""
    lim = res["rules"].pot_limit
    if not lim:
        return "-"
    mh = np.asarray(res["max_hist"])
    n = int(mh.sum())
    sure = int(sum(c for b, c in enumerate(mh) if b == K.BIN_OVF or bin_lo(b) > lim))
    maybe = int(sum(c for b, c in enumerate(mh) if b != K.BIN_OVF and bin_lo(b) <= lim < bin_hi(b) - 1))
    if not n:
        return "-"
    if not maybe:
        return f"{sure:,} of {n:,} ({100 * sure / n:.1f}%)"
    return f"{sure:,}-{sure + maybe:,} of {n:,} ({100 * sure / n:.1f}-{100 * (sure + maybe) / n:.1f}%)"


def pot_sweep(name, values, players=7, deals=200, sessions=20_000, seed=0, rules=None, heuristic=None, user_defs=None,
              opts: RunOptions = RunOptions(), ev_form: bool = False):
    """One pot study per value of the swept setting (same seed: common random numbers); each in its
    own sub-folder of ``opts.out``.  Every setting's kernels take ev's tables when one setting has an ev seat
    (or ``ev_form``, a larger study's: analysis/bourre/ev.py ``study_ev_form``)."""
    rules = rules or BourreRules()
    settings, form = sweep_settings(name, values, players, rules, heuristic, user_defs, ev_form)
    results = []
    for v, (p, r, specs) in zip(values, settings):
        res = pot_study(p, deals, sessions, seed, r, specs, opts.sub("sweep-" + sweep_label(name, v).replace(" ", "_")),
                        ev_form=form)
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
        row["bourre per deal"] = _pm(m, half, 3)
        t = o.iloc[1]
        row["tie rate"] = _pct(t.p, t.ci_low, t.ci_high, 2)
        row["overflowed"] = res["overflowed"]
        if name == "pot_limit":
            row["sessions whose pot passed the limit"] = limit_reached(res)
        ea, ehalf, _ = expected_a(res)
        row["E[A] per deal"] = f"{ea:.3f} ± {ehalf:.3f}"
        row["long-run mean pot"] = MEAN_WORDS[mean_status(res)[0]]
        rows.append(row)
    return {"name": name, "values": values, "results": results, "table": pd.DataFrame(rows)}


