"""Where the float64 search of the exact shuffled-2RR RDP can be trusted (thesis Ch. 5).  On demand:

    python benchmarks/measure_rr_float_range.py [--part grid|large|instances|all] [--quick]

Measures the relative error of :func:`bcdp.shuffle.rr_all_pairs.rr_worst_pair_rdp` (float64, the
sup over all neighbouring pairs and both directions) against

* ``grid``: the certified arb enclosure :func:`~bcdp.shuffle.rr_all_pairs.rr_worst_pair_rdp_ball`
  (every pair in ball arithmetic; the error is |float - ball| / ball, the ball's radius is < 1e-20
  relative) for n <= 1000, on a grid of eps0 inside and just outside the range
  :data:`bcdp.shuffle.rr_all_pairs.FLOAT_SEARCH_RANGE` and orders 1.001 .. 1e100;
* ``large``: the mpmath oracle :func:`bcdp.shuffle.rr_pair.rr_pair_rdp_mp` (rigorous window and
  tails, 30 digits) of the pair j = 0, direction DDprime, which the float search reports as the
  maximiser inside the range, for n = 1e4 .. 2e5 (the float search takes up to ~1.5 min per order
  at n = 2e5 on a shared 2-core machine).

* ``instances``: the float64 2RR values that the thesis Ch. 5 claim checks use
  (bcdp.checks.thesis._shuffle_instances.rr_instances): the worst pair for n <= 1000 against the
  arb enclosure, the extreme pair (rr_pair_rdp, both directions) for n = 1e4 .. 1e6 against
  rr_pair_rdp_mp at 30 digits; the largest errors are quoted as RR_WORST_REL_ERR and
  RR_PAIR_REL_ERR there.

Prints one line per point (error, or the exception the float path raises) and, per part, the
largest error inside the range.  The figures are quoted in ``FLOAT_SEARCH_RANGE``'s comment.
Not collected by pytest.
"""

from __future__ import annotations

import argparse
import math
import time
import warnings

import mpmath
from bcdp.core.intervals import ball_ends_mpf
from bcdp.shuffle.rr_all_pairs import (
    FLOAT_SEARCH_RANGE,
    float_search_trusted,
    rr_worst_pair_rdp,
    rr_worst_pair_rdp_ball,
)
from bcdp.shuffle.rr_pair import rr_pair_rdp_mp

GRID_N = (2, 3, 5, 10, 30, 100, 300, 1000)
GRID_EPS = ("1e-100", "1e-15", "1e-10", "1e-6", "1e-4", "3e-4", "1e-3", "2e-3", "1e-2", "0.1", "1", "4", "8",
            "9", "10", "10.5", "11", "11.5", "12", "15", "20", "30")
GRID_ALPHA = ("1.001", "1.5", "2", "8", "64", "1024", "1e6", "1e100", "1e101")
#: n = 1000 costs ~4 s per arb enclosure: the edges only
GRID_1000 = (("1e-4", "1e-3", "1e-2", "1", "10", "10.5", "11"), ("1.001", "2", "64", "1e6", "1e100"))
LARGE = [(n, e, a) for n in (10_000, 100_000, 200_000) for e in ("1e-3", "1e-2", "10") for a in ("1.001", "64")]


def _float(n: int, e: str, a: str):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return rr_worst_pair_rdp(n, float(e), float(a)), None
    except Exception as exc:  # noqa: BLE001  (measured: which exception the float path raises)
        return None, f"{type(exc).__name__}: {str(exc)[:50]}"


def _report(label: str, n: int, e: str, a: str, got, err, ref: mpmath.mpf) -> float | None:
    inside = float_search_trusted(n, e, a)
    tag = "in " if inside else "out"
    if err is not None:
        print(f"{tag} {label} n={n:<7} eps0={e:<6} alpha={a:<6} {err}", flush=True)
        return math.inf if inside else None
    value, pair = got
    rel = float(abs(mpmath.mpf(value) - ref) / ref) if ref != 0 else abs(value)
    print(f"{tag} {label} n={n:<7} eps0={e:<6} alpha={a:<6} rel.err {rel:.2e}  pair {pair}", flush=True)
    return rel if inside else None


def part_grid(quick: bool) -> float:
    worst = 0.0
    ns = GRID_N[:-1] if quick else GRID_N
    for n in ns:
        eps, alphas = GRID_1000 if n >= 1000 else (GRID_EPS, GRID_ALPHA)
        for e in eps:
            for a in alphas:
                got, err = _float(n, e, a)
                ball = rr_worst_pair_rdp_ball(n, e, a)
                lo, hi = ball_ends_mpf(ball)
                rel = _report("arb ", n, e, a, got, err, (lo + hi) / 2)
                if rel is not None:
                    worst = max(worst, rel)
    print(f"grid: largest relative error inside {FLOAT_SEARCH_RANGE}: {worst:.2e}")
    return worst


def part_large(quick: bool) -> float:
    worst = 0.0
    for n, e, a in LARGE:
        if quick and n > 10_000:
            continue
        t = time.perf_counter()
        got, err = _float(n, e, a)
        secs = time.perf_counter() - t
        ref = rr_pair_rdp_mp(n, e, a, "DDprime", dps=30)
        rel = _report(f"mp   ({secs:5.1f} s)", n, e, a, got, err, ref)
        if rel is not None:
            worst = max(worst, rel)
    print(f"large: largest relative error inside {FLOAT_SEARCH_RANGE}: {worst:.2e}")
    return worst


def part_instances(quick: bool) -> tuple[float, float]:
    import numpy as np
    from bcdp.checks.thesis import _shuffle_instances as si
    from bcdp.shuffle.rr_pair import rr_pair_rdp

    worst_w = worst_p = 0.0
    for e in si.RR_EPS:
        for n in si.RR_N_SMALL:
            if quick and n > 100:
                continue
            for a in si.RR_ALPHAS:
                v, _ = rr_worst_pair_rdp(n, float(e), float(a))
                lo, hi = ball_ends_mpf(rr_worst_pair_rdp_ball(n, e, a))
                rel = float(abs(mpmath.mpf(v) - (lo + hi) / 2) / ((lo + hi) / 2))
                worst_w = max(worst_w, rel)
                print(f"worst pair n={n:<7} eps0={e:<4} alpha={a:<3} rel.err {rel:.2e}", flush=True)
        for n in si.RR_N_LARGE:
            if quick and n > 10_000:
                continue
            al = np.array(si.RR_ALPHAS, dtype=float)
            dd = rr_pair_rdp(n, float(e), al, "DDprime")
            dpd = rr_pair_rdp(n, float(e), al, "DprimeD")
            for a, x, y in zip(si.RR_ALPHAS, dd, dpd):
                ref = max(rr_pair_rdp_mp(n, e, a, "DDprime", dps=30), rr_pair_rdp_mp(n, e, a, "DprimeD", dps=30))
                rel = float(abs(mpmath.mpf(max(x, y)) - ref) / ref)
                worst_p = max(worst_p, rel)
                print(f"extreme pair n={n:<7} eps0={e:<4} alpha={a:<3} rel.err {rel:.2e}", flush=True)
    print(f"instances: largest relative error, worst pair (n <= 1000) {worst_w:.2e}, extreme pair {worst_p:.2e}")
    return worst_w, worst_p


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--part", choices=["grid", "large", "instances", "all"], default="all")
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    if args.part in ("grid", "all"):
        part_grid(args.quick)
    if args.part in ("large", "all"):
        part_large(args.quick)
    if args.part in ("instances", "all"):
        part_instances(args.quick)


if __name__ == "__main__":
    main()
