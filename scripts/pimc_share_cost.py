"""Cost of a Boulmous sampling player's decision with and without its shared transposition table (``share_tt``,
docs/methods/sampling.md, "Solves shared across a deal"): on one thread, ``share_tt`` = 0 and 1 interleaved, the
solver nodes and CPU milliseconds per decision for the card decisions (the default worlds and race), the calls
before the auction and whole traced deals, asserting that both make the same decisions
(analysis/boulmous/bench.py ``pimc_share``). Prints the machine's load before and after.

    .venv/bin/python scripts/pimc_share_cost.py [deals] [rounds]
"""
import os
import sys

import pandas as pd

from tricksim.analysis.boulmous.bench import pimc_share


def main():
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    print("load before:", " ".join(f"{x:.2f}" for x in os.getloadavg()), flush=True)
    df = pimc_share(deals=deals, rounds=rounds)
    with pd.option_context("display.width", 200, "display.max_columns", 20):
        print(df.to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    print("load after:", " ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
