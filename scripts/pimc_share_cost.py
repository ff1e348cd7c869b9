"""Cost of a sampling player's decision with and without its shared transposition table (``share_tt``,
docs/methods/sampling.md, "Solves shared across a deal" and, for Bourré, "Solves shared across a decision"): on one
thread, ``share_tt`` = 0 and 1 interleaved, the solver nodes and CPU milliseconds per decision, asserting that both
make the same decisions. Prints the machine's load before and after.

Boulmous (analysis/boulmous/bench.py ``pimc_share``): the card decisions (the default worlds and race), the calls
before the auction and whole traced deals.
Bourré (analysis/bourre/bench.py ``pimc_share``): every card decision with a choice of pimc sessions at each number
of players, per trick and in all.

    .venv/bin/python scripts/pimc_share_cost.py [deals] [rounds]
    .venv/bin/python scripts/pimc_share_cost.py bourre [players,...] [sessions] [deals] [rounds]
"""
import os
import sys

import pandas as pd

from tricksim.analysis.bourre import bench as bourre_bench
from tricksim.analysis.boulmous.bench import pimc_share


def main():
    print("load before:", " ".join(f"{x:.2f}" for x in os.getloadavg()), flush=True)
    if len(sys.argv) > 1 and sys.argv[1] == "bourre":
        players = [int(x) for x in sys.argv[2].split(",")] if len(sys.argv) > 2 else [4, 5, 7]
        sessions = int(sys.argv[3]) if len(sys.argv) > 3 else 4
        deals = int(sys.argv[4]) if len(sys.argv) > 4 else 30
        rounds = int(sys.argv[5]) if len(sys.argv) > 5 else 5
        dfs = []
        for n in players:
            dfs.append(bourre_bench.pimc_share(players=n, sessions=sessions, deals=deals, rounds=rounds))
            print("load:", " ".join(f"{x:.2f}" for x in os.getloadavg()), flush=True)
        df = pd.concat(dfs, ignore_index=True)
    else:
        deals = int(sys.argv[1]) if len(sys.argv) > 1 else 100
        rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
        df = pimc_share(deals=deals, rounds=rounds)
    with pd.option_context("display.width", 200, "display.max_columns", 20):
        print(df.to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    print("load after:", " ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
