"""On-demand benchmarks for issue 5 (not collected by pytest).

    python3 benchmarks/bench_mechanisms.py            # Mechanism 2 throughput + a 100-trial Fig. 3 slice
    python3 benchmarks/bench_mechanisms.py --full     # the full Fig. 3 run (10 q x 1000 trials)

Prints samples/second of Mechanism 2 at d = 10 (rows of the (n, d) output per second) and the
wall time of the Fig. 3 experiment with 2 worker processes.  Figures depend on machine load:
run on an idle machine.
"""

from __future__ import annotations

import sys
import tempfile
import time

import numpy as np
from bcdp.bayesian.mechanisms import duchi_l2, duchi_l2_sum
from bcdp.repro.fig3 import run_fig3


def bench_mech2(d: int = 10, n: int = 100_000, reps: int = 20) -> None:
    rng = np.random.default_rng(0)
    x = np.where(rng.random((n, d)) < 0.5, 1.0, -1.0)
    for name, fn in (("duchi_l2 (rows)", duchi_l2), ("duchi_l2_sum", duchi_l2_sum)):
        fn(x, 1.0, np.sqrt(d), rng)
        t = time.perf_counter()
        for _ in range(reps):
            fn(x, 1.0, np.sqrt(d), rng)
        dt = (time.perf_counter() - t) / reps
        print(f"{name:>18}: d = {d}, n = {n}: {dt * 1e3:7.2f} ms per call, {n / dt / 1e6:6.2f} M samples/s")


def bench_fig3(trials: int) -> None:
    t = time.perf_counter()
    run_fig3(trials=trials, seed=0, workers=2, progress=False)
    dt = time.perf_counter() - t
    print(f"Fig. 3: 10 q x {trials} trials (n = 10000, 3 methods): {dt:.1f} s "
          f"({10 * trials / dt:.0f} trials/s; about {10 * trials * 10_000 / dt / 1e6:.1f} M user-trials/s)")


if __name__ == "__main__":
    bench_mech2()
    bench_fig3(1000 if "--full" in sys.argv else 100)
