"""Timing of the float64 fast path and of the exact (Fraction) engine.  Run on demand:

    python benchmarks/bench_engine.py [--repeat 3] [--stress] [--seed 0]

* fast path (:mod:`bcdp.bayesian.fast`): a random 4096 x 4096 kernel (d = 12 binary coordinates, 4096
  outputs) and a random full-support prior; target: all five quantities < 2 s in total.
* exact path (:mod:`bcdp.bayesian.notions`): a random Fraction kernel and prior from
  :mod:`bcdp.bayesian.random_instances` on 256 inputs (d = 8 binary) and 256 outputs; target: < 10 s.
* ``--stress`` also times the fast path on adversarial 4096 x 4096 inputs (sparse, deterministic,
  tiny columns, and sums that underflow and need the exact-exponent fallback).

Also prints the largest disagreement between the fast and the exact values on the 256 x 256
instance.  Not a test module (pytest does not collect it).
"""

from __future__ import annotations

import argparse
import math
import random
import time
from fractions import Fraction

import numpy as np
from bcdp.bayesian import fast, notions
from bcdp.bayesian import random_instances as ri
from bcdp.core.numbers import ratio_to_float_log
from bcdp.core.spaces import ProductDomain

QUANTITIES = ("LDP", "BDP", "CDP", "BCDP", "dependence")


def precise_log(ratio) -> float:
    """log of an exact ratio; near 1 via log1p (LogRatioParameter.float subtracts two big logs
    and is only accurate to ~1e-13 absolute there)."""
    if ratio != math.inf and ratio <= 2:
        return math.log1p(float(Fraction(ratio) - 1))
    return ratio_to_float_log(ratio)


def fast_calls(K: np.ndarray, p: np.ndarray, shape: tuple[int, ...]):
    return {
        "LDP": lambda: fast.ldp_epsilon_fast(K),
        "BDP": lambda: fast.bdp_epsilon_fast(K, p),
        "CDP": lambda: fast.cdp_vector_fast(K, shape),
        "BCDP": lambda: fast.bcdp_vector_fast(K, p, shape),
        "dependence": lambda: fast.coordinate_dependence_fast(p, shape),
    }


def time_calls(calls: dict, repeat: int) -> tuple[dict, dict, dict]:
    """First (cold) time, best time over ``repeat`` runs, and the results, per quantity."""
    first, best, results = {}, {}, {}
    for name, fn in calls.items():
        times = []
        for _ in range(max(1, repeat)):
            t0 = time.perf_counter()
            results[name] = fn()
            times.append(time.perf_counter() - t0)
        first[name], best[name] = times[0], min(times)
    return first, best, results


def random_fast_instance(rng: np.random.Generator, n_inputs: int, n_outputs: int):
    K = rng.random((n_inputs, n_outputs))
    K /= K.sum(axis=1, keepdims=True)
    p = rng.random(n_inputs)
    p /= p.sum()
    return K, p


def stress_instances(rng: np.random.Generator, N: int, m: int):
    p = rng.random(N)
    p /= p.sum()
    K = rng.random((N, m))
    K[K < 0.5] = 0
    yield "sparse (50% zeros)", K / K.sum(axis=1, keepdims=True), p
    K = np.zeros((N, m))
    K[np.arange(N), rng.integers(0, m, N)] = 1.0
    yield "deterministic", K, p
    K = rng.random((N, m))
    K[:, : m // 2] *= 1e-300
    yield "tiny columns (1e-300)", K / K.sum(axis=1, keepdims=True), p
    # half the rows put mass ~1e-304 on half the columns, the prior gives them ~1e-300:
    # products ~1e-604 are the only mass of those columns in one group -> exact fallback
    K = rng.random((N, m))
    K /= K.sum(axis=1, keepdims=True)
    h = N // 2
    K[:h, : m // 2] *= 1e-300
    K[:h, m // 2:] *= (1 - K[:h, : m // 2].sum(axis=1, keepdims=True)) / K[:h, m // 2:].sum(axis=1, keepdims=True)
    p2 = p.copy()
    p2[:h] *= 1e-300
    yield "underflow fallback", K, p2 / p2.sum()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3, help="fast-path runs per quantity (best kept)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--stress", action="store_true", help="also time adversarial fast inputs")
    args = ap.parse_args()

    # ---- fast path ----------------------------------------------------------------------------
    d_fast, shape = 12, (2,) * 12
    nrng = np.random.default_rng(args.seed)
    K, p = random_fast_instance(nrng, 2 ** d_fast, 2 ** d_fast)
    f_first, f_best, _ = time_calls(fast_calls(K, p, shape), args.repeat)

    # ---- exact path ---------------------------------------------------------------------------
    rng = random.Random(args.seed)
    dom = ProductDomain.binary(8)
    t0 = time.perf_counter()
    mech = ri.random_mechanism(rng, dom, 256)
    prior = ri.random_prior(rng, dom)
    build = time.perf_counter() - t0
    exact_calls = {
        "LDP": lambda: notions.ldp_epsilon(mech),
        "BDP": lambda: notions.bdp_epsilon(mech, prior),
        "CDP": lambda: notions.cdp_vector(mech),
        "BCDP": lambda: notions.bcdp_vector(mech, prior),
        "dependence": lambda: notions.coordinate_dependence(prior),
    }
    e_time, _, e_res = time_calls(exact_calls, 1)

    # ---- table ----------------------------------------------------------------------------------
    print(f"fast:  {2 ** d_fast} inputs (d={d_fast} binary) x {2 ** d_fast} outputs, float64; "
          f"cold = first call, best of {args.repeat}")
    print("exact: 256 inputs (d=8 binary) x 256 outputs, Fractions "
          f"(instance built in {build:.2f} s, not counted)")
    print(f"{'quantity':<12}{'fast cold [s]':>15}{'fast best [s]':>15}{'exact [s]':>12}")
    for q in QUANTITIES:
        print(f"{q:<12}{f_first[q]:>15.3f}{f_best[q]:>15.3f}{e_time[q]:>12.3f}")
    tf1, tfb, te = sum(f_first.values()), sum(f_best.values()), sum(e_time.values())
    print(f"{'total':<12}{tf1:>15.3f}{tfb:>15.3f}{te:>12.3f}")
    print(f"targets: fast total < 2 s: {'met' if tf1 < 2 else 'MISSED'} (cold); "
          f"exact total < 10 s: {'met' if te < 10 else 'MISSED'}")

    # ---- agreement on the exact instance --------------------------------------------------------
    Kx = np.array([[float(v) for v in row] for row in mech.kernel])
    px = np.array([float(v) for v in prior.pmf])
    _, _, f_res = time_calls(fast_calls(Kx, px, dom.shape), 1)
    worst = 0.0
    for q in QUANTITIES:
        ev = e_res[q] if isinstance(e_res[q], list) else [e_res[q]]
        fv = f_res[q] if isinstance(f_res[q], list) else [f_res[q]]
        for e, f in zip(ev, fv):
            ref = float(e.value) if q == "dependence" else precise_log(e.ratio)
            if math.isinf(ref) or math.isinf(f.value):
                worst = max(worst, 0.0 if ref == f.value else math.inf)
            else:
                worst = max(worst, abs(ref - f.value) / max(1.0, abs(ref)))
    print(f"fast vs exact on the 256 x 256 instance: max relative difference {worst:.2e}")

    if args.stress:
        print("\nstress (fast path, 4096 x 4096, one cold run each) [s]:")
        print(f"{'input':<24}" + "".join(f"{q:>11}" for q in QUANTITIES) + f"{'total':>9}")
        for label, Ks, ps in stress_instances(nrng, 2 ** d_fast, 2 ** d_fast):
            first, _, _ = time_calls(fast_calls(Ks, ps, shape), 1)
            print(f"{label:<24}" + "".join(f"{first[q]:>11.3f}" for q in QUANTITIES)
                  + f"{sum(first.values()):>9.3f}")


if __name__ == "__main__":
    main()
