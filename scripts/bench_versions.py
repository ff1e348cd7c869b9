"""The speed of play of two checkouts, interleaved on one machine (issue 24: the new layout against an older
commit): each round runs ``tricksim bench GAME --threads 1 --hands H --repeats 1`` in one checkout, then in the
other (the order alternates by round, so a slow spell of a shared machine hits both alike), and the table gives
per case the best and the median hands per second of each side and their ratio, with the load average.

    python scripts/bench_versions.py /path/to/old /path/to/new --rounds 5 --hands 2000000

Each checkout needs its own ``.venv`` (``bash scripts/setup.sh``); its kernels are compiled (or loaded from its
cache) by a first, untimed round of small runs."""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
from pathlib import Path

GAMES = ("bourre", "boomke-wies", "boulmous")


def bench(checkout: Path, game: str, hands: int) -> dict[str, float]:
    """hands per second per case of one ``tricksim bench`` run (one thread, one repeat)."""
    exe = checkout / ".venv" / "bin" / "tricksim"
    out = subprocess.run([str(exe), "bench", game, "--threads", "1", "--hands", str(hands), "--repeats", "1"],
                         capture_output=True, text=True, check=True, cwd=checkout).stdout
    rates = {}
    for line in out.splitlines():        # game, case (words), hands, hands/s: read from both ends
        tok = line.split()
        if len(tok) >= 4 and tok[0] == game and tok[-1].replace(",", "").isdigit():
            rates[" ".join(tok[1:-2])] = float(tok[-1].replace(",", ""))
    if not rates:
        raise SystemExit(f"no rates read from {checkout} {game}:\n{out}")
    return rates


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old", type=Path)
    ap.add_argument("new", type=Path)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--hands", type=int, default=2_000_000)
    ap.add_argument("--games", nargs="*", default=list(GAMES))
    a = ap.parse_args()
    sides = {"old": a.old.resolve(), "new": a.new.resolve()}
    for game in a.games:                       # compile or load every case once, untimed
        for path in sides.values():
            bench(path, game, 20_000)
    load0 = os.getloadavg()
    rates = {}                                 # (game, case, side) -> [hands/s per round]
    for r in range(a.rounds):
        for game in a.games:
            order = ("old", "new") if r % 2 == 0 else ("new", "old")
            for side in order:
                for case, v in bench(sides[side], game, a.hands).items():
                    rates.setdefault((game, case, side), []).append(v)
    load1 = os.getloadavg()
    print(f"{a.rounds} interleaved rounds, {a.hands:,} hands a case, 1 thread; old = {sides['old']}, "
          f"new = {sides['new']}; load average {load0[0]:.2f} at the start, {load1[0]:.2f} at the end")
    print(f"{'game':12} {'case':30} {'old best':>10} {'new best':>10} {'new/old':>8} {'old median':>11} "
          f"{'new median':>11} {'new/old':>8}")
    for (game, case, side) in sorted(rates):
        if side != "old" or (game, case, "new") not in rates:
            continue
        o, n = rates[(game, case, "old")], rates[(game, case, "new")]
        print(f"{game:12} {case:30} {max(o):>10,.0f} {max(n):>10,.0f} {max(n) / max(o):>8.3f} "
              f"{statistics.median(o):>11,.0f} {statistics.median(n):>11,.0f} "
              f"{statistics.median(n) / statistics.median(o):>8.3f}")


if __name__ == "__main__":
    main()
