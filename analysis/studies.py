"""The main job: every game's headline studies on built-in defaults, into reports/."""
from __future__ import annotations

import importlib
import time
from datetime import datetime, timezone
from pathlib import Path

from tricksim.analysis import __version__

GAMES = [("boulmous", "tricksim.analysis.boulmous"), ("boomke-wies", "tricksim.analysis.boomke_wies"), ("bourre", "tricksim.analysis.bourre")]


def _compare_section(out: Path, quick: bool, progress: bool) -> str:
    from tricksim.analysis import compare as cmp
    from tricksim.analysis.output import write_table
    from tricksim.analysis.plots import leaderboard_plot, sweep_plot

    d = out / "compare"
    d.mkdir(parents=True, exist_ok=True)
    n = 20_000 if quick else 1_000_000
    names = ["cautious", "aggressive", "random"]
    res = cmp.compare("boulmous", names, hands=n, seed=2026, out=out / "runs" / "boulmous-headline-compare",
                      progress=progress, force=True)
    write_table(res["leaderboard"], d, "boulmous_leaderboard")
    write_table(res["pairs"], d, "boulmous_pairs")
    leaderboard_plot(res["leaderboard"], "points", res["unit"], d / "boulmous_leaderboard.png", res["n"])
    vals = [-1.0, -0.5, 0.0, 0.5, 1.0, 1.5] if quick else [round(-1.0 + 0.25 * i, 2) for i in range(11)]
    ns = 10_000 if quick else 200_000
    sw = cmp.sweep("boulmous", "cautious", "margin", vals, against="aggressive", hands=ns, seed=2026,
                   out=out / "runs" / "boulmous-headline-sweep", progress=progress, force=True)
    write_table(sw, d, "boulmous_sweep_margin")
    best = sw.loc[sw.advantage.idxmax()]
    zc = cmp.zero_crossings(sw)
    sweep_plot(sw, d / "boulmous_sweep_margin.png", "cautious:margin=v against aggressive (Boulmous)", res["unit"],
               best.value, zc)
    md = ["## Comparing heuristics (Boulmous)\n",
          f"Regenerate: `tricksim compare boulmous {' '.join(names)} --hands {n} --seed 2026`\n",
          "```", cmp.render_compare(res), "```\n",
          "![leaderboard](compare/boulmous_leaderboard.png)\n",
          f"### Sweep: the bidding margin of `cautious` against `aggressive`\n",
          f"Regenerate: `tricksim sweep boulmous cautious --param margin={vals[0]}:{vals[-1]}:{vals[1] - vals[0]:g} "
          f"--against aggressive --hands {ns} --seed 2026`\n",
          f"Each value plays the same {ns:,} deals (rotated through the seats). Best margin: {best.value:g} "
          f"({best.advantage:+.3f} ± {best.ci:.3f} points per deal); zero crossings: "
          + (", ".join(f"{x:.2f}" for x in zc) if zc else "none") + ".\n",
          "![sweep](compare/boulmous_sweep_margin.png)\n"]
    return "\n".join(md)


def run_all(out: Path = Path("reports"), quick: bool = False, only=None, progress: bool = True) -> Path:
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    sections = []
    timings = []
    for game, modname in GAMES:
        if only and game not in only:
            continue
        try:
            mod = importlib.import_module(modname)
        except ModuleNotFoundError:
            continue
        if not hasattr(mod, "headline"):
            continue
        t0 = time.perf_counter()
        sections.append(mod.headline(out, quick=quick, progress=progress))
        timings.append((game, time.perf_counter() - t0))
    if not only or "compare" in only:
        t0 = time.perf_counter()
        sections.append(_compare_section(out, quick, progress))
        timings.append(("compare", time.perf_counter() - t0))
    head = [f"# tricksim headline reports\n",
            f"Generated {datetime.now(timezone.utc).strftime('%Y-%m-%d %H:%M UTC')} by tricksim {__version__} with "
            f"`tricksim report{' --quick' if quick else ''}` (the README's main-job command runs it). Every rate has "
            "its 95% interval (Wilson) and sample size; every section names the command that regenerates it.\n",
            "Time per study: " + ", ".join(f"{g} {s:.0f} s" for g, s in timings) + ".\n"]
    (out / "README.md").write_text("\n".join(head + sections))
    print(f"headline reports written to {out / 'README.md'}")
    return out / "README.md"
