"""Benchmark of bcdp.shuffle.exact (exact RDP of shuffled 2RR, thesis Chapter 5).  On demand:

    python benchmarks/bench_shuffle_exact.py [--quick] [--skip-worst] [--skip-grid]

1. Target: rr_pair_rdp at n = 1e6 for all integer alpha in [2, 256] (both directions) in < 1 s
   of CPU time (wall time is also printed; on a shared machine it can be larger),
   for eps0 in {0.01, 1, 10}.
2. Agreement grid: rr_pair_rdp vs the mpmath oracle rr_pair_rdp_mp (dps 30, windowed sum with a
   rigorous tail bound) on n in {2, 10, 1e3, 1e5, 1e7}, eps0 in {0.01, 0.1, 1, 4, 10},
   alpha in {1.01, 1.5, 2, 8, 64, 256}, both directions; target max relative error < 1e-10.
   (--quick drops n = 1e7.)
3. Worst pair over all neighbouring pairs (rr_worst_vs_lower_pair) at n = 1e5: runtime, the
   attaining pair, and the difference to the thesis' lower-bound pair (5.9).
Not collected by pytest.
"""

from __future__ import annotations

import argparse
import time
from fractions import Fraction

import numpy as np
from bcdp.shuffle import exact as se


def bench_target() -> None:
    alphas = np.arange(2, 257, dtype=float)
    print("1. rr_pair_rdp, n = 1e6, alpha = 2..256 (255 values)")
    for eps0 in (0.01, 1.0, 10.0):
        for d in se.DIRECTIONS:
            se.rr_pair_rdp(10 ** 6, eps0, alphas[:2], d)
            t, c = time.perf_counter(), time.process_time()
            v = se.rr_pair_rdp(10 ** 6, eps0, alphas, d)
            el, cpu = time.perf_counter() - t, time.process_time() - c
            print(f"   eps0 = {eps0:5}  {d:8}  wall {el:6.3f} s  cpu {cpu:6.3f} s   eps(2) = {v[0]:.6e}"
                  f"  eps(256) = {v[-1]:.6e}   {'OK' if cpu < 1 else 'SLOW'}")


def bench_grid(quick: bool) -> None:
    ns = [2, 10, 1000, 10 ** 5] + ([] if quick else [10 ** 7])
    eps0s = ["0.01", "0.1", "1", "4", "10"]
    alphas = [Fraction(101, 100), Fraction(3, 2), Fraction(2), Fraction(8), Fraction(64), Fraction(256)]
    print("2. agreement rr_pair_rdp vs rr_pair_rdp_mp (dps 30)")
    worst = (0.0, None)
    t0 = time.perf_counter()
    for n in ns:
        tn = time.perf_counter()
        wn = 0.0
        for e in eps0s:
            for d in se.DIRECTIONS:
                fl = se.rr_pair_rdp(n, float(Fraction(e)), [float(a) for a in alphas], d)
                for a, f in zip(alphas, fl):
                    ref = float(se.rr_pair_rdp_mp(n, e, a, d, dps=30))
                    rel = abs(f - ref) / ref
                    wn = max(wn, rel)
                    if rel > worst[0]:
                        worst = (rel, (n, e, str(a), d))
        print(f"   n = {n:>8}: max rel err {wn:.2e}   ({time.perf_counter() - tn:.1f} s incl. oracle)")
    print(f"   overall max rel err {worst[0]:.2e} at {worst[1]}   "
          f"{'OK' if worst[0] < 1e-10 else 'FAIL'}   ({time.perf_counter() - t0:.1f} s)")


def bench_worst(n: int) -> None:
    print(f"3. worst pair over all j and both directions, n = {n}")
    for eps0, alpha in [(1.0, 2.0), (1.0, 32.0), (4.0, 8.0), (0.1, 2.0), (1.0, 256.0)]:
        c = time.process_time()
        r = se.rr_worst_vs_lower_pair(n, eps0, alpha)
        cpu = time.process_time() - c
        print(f"   eps0 = {eps0:4}  alpha = {alpha:5}  worst = {r['worst']:.10e} at {r['worst_pair']}"
              f"  (5.9) pair = {r['lower_pair']:.10e}  diff = {r['difference']:.3e}"
              f"  ratio = {r['ratio']:.6f}  wall {r['seconds']:.1f} s  cpu {cpu:.1f} s")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="skip n = 1e7 in the agreement grid")
    ap.add_argument("--skip-worst", action="store_true")
    ap.add_argument("--skip-grid", action="store_true")
    ap.add_argument("--worst-n", type=int, default=10 ** 5)
    args = ap.parse_args()
    bench_target()
    if not args.skip_grid:
        bench_grid(args.quick)
    if not args.skip_worst:
        bench_worst(args.worst_n)


if __name__ == "__main__":
    main()
