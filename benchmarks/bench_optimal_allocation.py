"""On-demand benchmark (not collected by pytest): the best allocation in the Fig. 3 setting.

BCDP paper, App. B (Fig. 3): d = 10, delta = (0.2, 0.2, 2, ..., 2), eps = 2.  For each q we print the
certified optimum of the eq. (17) objective (objective at the returned rational point), the
certified lower bound, the relative gap, the Theorem 2 objective for zeta = 1/2 and
zeta = (1 + q)/2, the min-delta-LDP baseline, c_1 and c_d of the optimum, and the wall time.

    python3 benchmarks/bench_optimal_allocation.py [--tol 1e-9]
"""

from __future__ import annotations

import argparse
import time
from fractions import Fraction

from bcdp.bayesian.allocation import allocate_budgets, min_delta_baseline
from bcdp.bayesian.optimal_allocation import optimal_allocation
from bcdp.core.intervals import to_float

DELTA = ["0.2", "0.2"] + ["2"] * 8
EPS = "2"
QS = ["0", "0.01", "0.05", "0.1", "0.2", "0.3", "0.5", "0.7", "0.9", "1"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tol", type=float, default=1e-9)
    args = parser.parse_args()
    header = (f"{'q':>5} {'optimum':>13} {'lower bound':>13} {'gap':>9} {'zeta=1/2':>11} "
              f"{'zeta=(1+q)/2':>12} {'min-delta':>10} {'c_1':>8} {'c_d':>8} {'nodes':>6} {'time s':>7}")
    print(f"Fig. 3 setting: delta = (0.2, 0.2, 2 x 8), eps = {EPS}, tol = {args.tol:g}")
    print(header)
    total = 0.0
    for q in QS:
        start = time.perf_counter()
        res = optimal_allocation(DELTA, EPS, q, tol=args.tol)
        elapsed = time.perf_counter() - start
        total += elapsed
        half = to_float(allocate_budgets(DELTA, EPS, q, Fraction(1, 2)).objective)
        paper = to_float(allocate_budgets(DELTA, EPS, q, (1 + Fraction(q)) / 2).objective)
        base = to_float(min_delta_baseline(DELTA, EPS, q).objective)
        c = res.allocation.c_sorted
        print(f"{q:>5} {to_float(res.objective_upper):>13.6f} {to_float(res.lower_bound):>13.6f} "
              f"{float(res.gap):>9.2e} {half:>11.3f} {paper:>12.3f} {base:>10.1f} "
              f"{to_float(c[0]):>8.5f} {to_float(c[-1]):>8.5f} {res.stats.get('nodes', 0):>6} "
              f"{elapsed:>7.2f}")
    print(f"total time: {total:.2f} s")


if __name__ == "__main__":
    main()
