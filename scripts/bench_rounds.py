"""Is a low two-thread speed-up the kernel or the machine?  Times Bourre (7 players,
default) and Boulmous (default) round after round, 1 thread then 2 threads each, and
prints one line per round.  Slow spells of a shared host show up in both games at the
same moments; a kernel that scaled badly would be low in every round.

    python scripts/bench_rounds.py [ROUNDS]
"""
import sys
import time

import numba

from tricksim.analysis import boulmous, bourre


def main(rounds=25):
    fb = bourre.bench_cases()[0][1]
    fm = boulmous.bench_cases()[0][1]
    for t in (1, numba.config.NUMBA_NUM_THREADS):
        numba.set_num_threads(t)
        fb(0, 20_000), fm(0, 20_000)
    t00 = time.time()
    for it in range(rounds):
        row = []
        for f, n in ((fb, 1_000_000), (fm, 2_000_000)):
            for th in (1, numba.config.NUMBA_NUM_THREADS):
                numba.set_num_threads(th)
                t0 = time.perf_counter()
                done = f(it * n, n)
                row.append(done / (time.perf_counter() - t0))
        print(f"{time.time() - t00:5.1f} s  bourre {row[0] / 1e6:.2f} M/s {row[1] / 1e6:.2f} M/s {row[1] / row[0]:.2f}x"
              f"   boulmous {row[2] / 1e6:.2f} M/s {row[3] / 1e6:.2f} M/s {row[3] / row[2]:.2f}x", flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 25)
