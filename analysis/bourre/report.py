"""Bourre headline studies of the main job (``tricksim report``): does the pot settle under `basic`,
`loose` and `ev` play, its tail law and rare tails, then the pot growth of `basic` and its sweeps."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from ...kernels import bourre as K
from ..engine import RunOptions
from ..output import markdown_table, pm, write_table
from ..pages import Section
from .config import MAX_FAN, BourreRules
from .ev import prepare_lines, study_ev_form
from .plots import plot_sweep
from .pot import agg_layout, fan_stride, pot_block_size
from .pot import pot_study
from .pot import pot_study as _pot
from .spec import SPEC
from .sweep import pot_sweep
from .tail import tail_study
from .tail_views import k_table, overall_cell, rare_note, rare_table, tail_words, write_tail
from .views import compounds, mean_status, pot_tables, write_pot

SWEEP_NOTES = {
    "players": "Every seat plays `basic`; the ante is 1 per player, so a bigger table starts with a bigger pot.",
    "pot_limit": "A limit L caps what a winner takes (the rest stays) and what a bourré pays (rule 15). It binds only "
                 "in the sessions whose pot passes L (column 'sessions whose pot passed the limit'), and there it "
                 "only leaves a few chips in the middle after a win: `basic` does not weigh the pot, so every deal's "
                 "play and outcome is the same under every limit (same seed), and the largest pot of a session, "
                 "reached before the limit takes effect, moves only when L is well below it (limits of 100 or more, "
                 "above nearly every pot under `basic`, would leave every row as without a limit).",
    "looseness": "Every seat's play threshold is lowered by this much (0 = `basic`, threshold 2.0; a duplicate "
                 "sweep, `tricksim sweep bourre basic --param threshold=0.5:3:0.5 --against basic --players 7`, "
                 "finds 2.0 the best reply to itself): looser tables put more players in, more of them go bourré, "
                 "and the pot's tail grows heavier.",
    "heuristic": "Every seat plays the named heuristic (`ev` with its table computed by fictitious play, or loaded "
                 "from the cache).",
}
TAIL_HEURISTICS = ("basic", "loose", "ev")
PAGE_SWEEPS = (("heuristic", ["basic", "tight", "loose", "ev"]), ("players", [2, 3, 4, 5, 6, 7, 8]),
               ("pot_limit", [None, 50, 20, 10]), ("looseness", [0.0, 0.5, 1.0, 1.5]))
MEAN_WORDS = {"infinite": "infinite (k <= 1)", "maybe": "maybe infinite (k's interval reaches 1)",
              "finite": "finite (k > 1)", "capped": "finite (pot limit)"}


def _cell(p, lo, hi) -> str:
    if p >= 1e-4:
        return f"{100 * p:.2f}% [{100 * lo:.2f}, {100 * hi:.2f}]"
    return f"{p:.1e} [{lo:.1e}, {hi:.1e}]"


def tail_section(d, runs, seed, deals, quick, progress, ev_form: bool = False):
    """Does the pot settle under basic, loose, ev, how heavy is its tail; k; P(pot > 1000x) by splitting
    (markdown lines); ``ev_form``: the page's (``headline``)."""
    n_law = 300 if quick else 8_000
    roots = 40 if quick else 1000
    targets = (100, 1000) if quick else (100, 1000, 10_000)
    rules = BourreRules()
    rows, parts, facts = [], [], []
    for h in TAIL_HEURISTICS:
        specs = SPEC.parse_seats([h], 7)
        for _ in prepare_lines(specs, rules, 7):
            pass
        opts = RunOptions(runs / f"bourre-headline-tail-{h}", progress=progress, force=True)
        pot = _pot(7, deals, n_law, seed, rules, specs, opts, ev_form=ev_form)
        tr = tail_study(7, deals, n_law, seed, rules, specs, opts, targets, roots, ev_form=ev_form)
        write_tail(tr, d / f"tail_{h}", pot)
        kr = tr["k"].iloc[0]
        pot["tail"] = tr
        _, sentence = compounds(pot)
        status = mean_status(pot)[0]
        t = tr["rare"]["table"].set_index("X (x ante)")
        kc = overall_cell(tr)
        row = {"players play": f"`{h}`", "E[A] per deal": f"{kr['E[A]']:.3f}",
               "long-run mean of the pot": MEAN_WORDS[status],
               "tail exponent k [95% CI]": kc}
        for x in targets[:2]:
            r = t.loc[x]
            row[f"P(pot > {x:,}x ante within {deals} deals), splitting"] = _cell(r.p_split, r.lo_split, r.hi_split)
            row[f"{x:,}x: plain sampling, same work"] = _cell(r.p_plain, r.lo_plain, r.hi_plain) + f" ({r.plain_hits} hits)"
        rows.append(row)
        parts.append((h, tr, sentence))
        facts.append((h, kr["E[A]"], status, kc, {x: _cell(t.loc[x].p_split, t.loc[x].lo_split, t.loc[x].hi_split)
                                                  for x in targets[:2]}))
    tab = pd.DataFrame(rows)
    write_table(tab, d, "tail_summary")
    md = ["### Does the pot settle, and how rare are big pots?\n",
          f"Regenerate one row: `tricksim pot --players 7 -H ev --deals {deals} --sessions {n_law} --seed {seed} --tail "
          f"--tail-levels {','.join(str(x) for x in targets)} --tail-roots {roots}` (likewise `-H basic`, `-H loose`).\n",
          "Between two wins the pot follows P' = A·P + B: A counts the pot-sized bourré payments, plus one when a tie "
          "carries the pot over (A = 0: someone won it and nobody went bourré, the pot is reset); B is the antes. As long "
          "as wins reset the pot, its distribution settles after a few deals, whatever E[A]; E[A] >= 1 only makes its "
          "mean grow, through rare runs of bourrés. If the deals' (A, B) were independent, P(pot > x) would fall like "
          "x^-k with k the root of E[A^k] = 1: a 10x larger pot is 10^k times rarer, and k <= 1 (exactly when E[A] >= 1) "
          "makes the long-run mean of the pot, and of every seat's net, infinite. The chance of a pot past 1,000x the ante "
          f"within {deals} deals is estimated by multilevel splitting (a session is copied each time its pot passes a "
          "level, the copies' weights divided accordingly; unbiased, 95% intervals from the spread between independent "
          "root sessions, on the log scale) beside plain sampling of sessions over the same number of deals.\n",
          markdown_table(tab) + "\n"]
    for h, tr, sentence in parts:
        md.append(f"**`{h}`.** {sentence} " + " ".join(tail_words(tr)) + "\n")
        md.append(f"![tail law, {h}](bourre/tail_{h}/tail_law.png)\n")
        md.append(markdown_table(k_table(tr)) + "\n")
        md.append(markdown_table(rare_table(tr["rare"])) + "\n\n" + rare_note(tr["rare"]) + "\n")
    return md, tail_answers(facts, deals, n_law, roots)


def tail_answers(facts, deals: int, n_law: int, roots: int) -> list:
    """Does the pot settle under each heuristic, and how rare are pots past 100x and 1,000x the ante."""
    words = {"infinite": "has a tail so heavy that its long-run mean is infinite",
             "maybe": "may have an infinite long-run mean (k's interval reaches 1)",
             "finite": "has a light tail and a finite long-run mean", "capped": "is capped by the pot limit"}
    settle = "; ".join(f"under `{h}` the pot {words[status]} (E[A] = {ea:.3f}, tail exponent k = {kc})"
                       for h, ea, status, kc, _ in facts)
    rare = "; ".join(f"`{h}` " + ", ".join(f"{x:,}x: {cell}" for x, cell in cells.items())
                     for h, _, _, _, cells in facts)
    return [("Does the pot stay small, or can it explode?",
             f"At a table of 7, {settle}. A is what one deal multiplies the pot by; a 10x larger pot is 10^k times "
             f"rarer ({n_law:,} sessions of {deals} deals per heuristic)."),
            (f"How rare is a pot past 100x or 1,000x the ante within {deals} deals?",
             f"{rare} (multilevel splitting from {roots:,} root sessions, 95% intervals).")]


def players_answer(tab: pd.DataFrame, deals: int, n: int) -> tuple[str, str]:
    """The largest pot of a session at each table size (the ``players`` sweep's table)."""
    rows = tab[tab.players.astype(int).isin([4, 5, 7, 8])]

    def est(col):
        return [str(v).split(" [")[0] for v in rows[col]]
    med, top = est("median largest pot [95% CI]"), est("99% largest pot [95% CI]")
    sizes = [int(p) for p in rows.players]
    tops = [f"{t} ({p} players)" for t, p in zip(top, sizes) if t[:1].isdigit()]
    return ("How big does the pot get in an evening?",
            f"Under `basic`, the largest pot of a {deals}-deal session (ante 1 per player) has a median of "
            + ", ".join(f"{m} chips at {p} players" for m, p in zip(med, sizes))
            + ("; one session in a hundred sees more than " + ", ".join(tops) if tops else "")
            + f" ({n:,} sessions per table size; intervals in the sweep's table).")


def headline(out, quick: bool = False, progress: bool = False) -> Section:
    """The pot-growth study (fan chart, tables) and sweeps of the player count and the pot
    limit, into ``out/bourre/``; returns the markdown section."""
    out = Path(out)
    d = out / "bourre"
    d.mkdir(parents=True, exist_ok=True)
    runs = out / "runs"
    seed = 2026
    deals = 50 if quick else 200
    n_main = 500 if quick else 50_000
    n_sweep = 200 if quick else 3_000
    md = ["## Bourré: does the pot settle, and how rare are big pots\n"]
    # one form of the kernels for the whole page: ev's tables in every run when ev plays in one (ev.py study_ev_form)
    ev_form = study_ev_form(*(SPEC.parse_seats([h], 7) for h in (*TAIL_HEURISTICS, *dict(PAGE_SWEEPS)["heuristic"])))
    tail_md, answers = tail_section(d, runs, seed, deals, quick, progress, ev_form)
    md += tail_md
    md.append("### The pot under `basic`: fan chart, largest pot, first passages\n")
    res = pot_study(7, deals, n_main, seed, opts=RunOptions(runs / "bourre-headline-pot", progress=progress, force=True),
                    ev_form=ev_form)
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
    md.append(f"**Per deal** ({nd:,} deals): {pm(am, ahalf, 2, sign=False)} players play, {pm(m, half, 3, sign=False)} go bourré.\n\n"
              + markdown_table(t["bourre"]) + "\n\n" + markdown_table(t["outcomes"]) + "\n")
    md.append("**Each seat's net chips after the session:**\n\n" + markdown_table(t["seats"]) + "\n")
    # sweeps
    for name, values in PAGE_SWEEPS:
        sw = pot_sweep(name, values, 7, deals, n_sweep, seed,
                       opts=RunOptions(runs / f"bourre-headline-sweep-{name}", progress=progress, force=True),
                       ev_form=ev_form)
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
        if name == "players":
            answers.append(players_answer(tab, deals, n_sweep))
    lay = agg_layout(-(-deals // fan_stride(deals)), deals)
    bs = pot_block_size(deals)
    md.append(f"Memory is bounded by the block size, not by the number of deals: the kernel aggregates each block of "
              f"{bs:,} sessions into one int64 vector of {lay.size:,} counts ({lay.size * 8 / 2 ** 20:.1f} MB: "
              "log-binned histograms of the pot at each deal, first-passage counts, per-seat sums and histograms), "
              f"using {bs * (K.S_LEN + min(deals, MAX_FAN)) * 8 / 2 ** 20:.0f} MB of per-session scratch while it runs; "
              "no row per deal is ever stored. A 100,000 x 200 run peaks at about 300 MB of resident memory "
              "(most of it the Python, NumPy, pandas and Numba runtime).\n")
    return Section("\n".join(md), answers)
