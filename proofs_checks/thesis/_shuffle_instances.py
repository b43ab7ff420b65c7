"""RDP values of shuffled eps0-LDP mechanisms, shared by the thesis Ch. 5 upper-bound checks.

Not a check.  Every value comes from ``bcdp.shuffle.exact`` (written independently of the bounds).
Two kinds, kept apart:

* ``kary_instances()`` -- **exact** (rel_err 0): seeded random K-ary eps0-LDP kernels (K in {2, 3},
  B in {2, 3, 4} outputs, ``random_ldp_kernel``) and K-ary randomized response
  (``kary_rr_kernel``, K = 3, 4), random datasets of n = 2..7 records with the last record replaced
  (replacement neighbours); exact laws in Fractions, D_alpha in both directions at 60 digits;
  orders 2, 3, 4, 6 and the real orders 3/2, 5/2, 10/3.  Plus, for 3-RR at n = 5, 8 (every
  neighbouring pair up to symmetry), the worst pair, and at n = 25, 60 the pair
  (2^{n-1} 0, 2^{n-1} 1) (other users on a third value), which exceeds every 2RR pair there.
* ``rr_instances()`` -- shuffled 2RR, **float64** values with a measured relative error
  ("rel_err"): the sup over *all* neighbouring pairs and both directions (``rr_worst_pair_rdp``,
  the complete float64 search) for n <= 1000, error <= :data:`RR_WORST_REL_ERR`; and both
  directions of the extreme pair 0^n vs 0^{n-1}1 (``rr_pair_rdp``, float64 log space; observed to
  be the worst pair) for n = 10^4, 10^5, 10^6, error <= :data:`RR_PAIR_REL_ERR`.  The errors were
  measured on exactly these instances against the arb enclosure of every pair and the mpmath
  oracle of the pair (benchmarks/measure_rr_float_range.py, part "instances");
  tests/claims/test_shuffle_instances.py re-measures them.  A check that compares such a value
  with a bound uses the whole interval value (1 +- rel_err): an upper bound is violated only if it
  is below value (1 + rel_err), a twin is refuted only if it is below value (1 - rel_err).

E = e^eps0 is rational (eps0 = log E) for the K-ary instances because the exact laws are Fractions.
"""

from __future__ import annotations

import functools
import itertools
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

from ._shuffle_common import exact_api

#: Bound on the relative error of the float64 sup over all pairs (rr_worst_pair_rdp) on the n <= 1000
#: instances: measured <= 2.7e-14 against the arb enclosure of every pair (all 180 of them;
#: benchmarks/measure_rr_float_range.py, part "instances"; inside the float search's measured range).
RR_WORST_REL_ERR = 1e-12
#: Bound on the relative error of the float64 extreme-pair value (rr_pair_rdp, max of both directions)
#: on the n = 1e4 .. 1e6 instances: measured <= 5.3e-15 against rr_pair_rdp_mp at 30 digits (all 90).
RR_PAIR_REL_ERR = 1e-12

SEED = 5301
E_VALUES = (Fraction(3, 2), Fraction(2), Fraction(3), Fraction(5))
INT_ALPHAS = (2, 3, 4, 6)
REAL_ALPHAS = (Fraction(3, 2), Fraction(5, 2), Fraction(10, 3))


def eps0_of(E: Fraction) -> mpmath.mpf:
    with mpmath.workdps(100):
        return mpmath.log(mpmath.mpf(E.numerator) / E.denominator)


def _from_moment(m: Any, alpha: int) -> mpmath.mpf:
    """log(moment)/(alpha-1) at 60 digits from an exact Fraction moment (inf stays inf)."""
    if m == float("inf"):
        return mpmath.inf
    with mpmath.workdps(80):
        return mpmath.log(mpmath.mpf(m.numerator) / m.denominator) / (alpha - 1)


def _pair_value(se: Any, kernel: list, D: tuple, Dp: tuple, alpha: Any, laws: tuple | None = None) -> mpmath.mpf:
    """max of D_alpha in both directions; integer orders from exact Fraction moments of the
    oracle's laws, real orders through ``shuffled_rdp_exact``."""
    if isinstance(alpha, int):
        P, Q = laws if laws is not None else (se.shuffled_law(kernel, D), se.shuffled_law(kernel, Dp))
        return max(_from_moment(se.renyi_moment_exact(P, Q, alpha), alpha),
                   _from_moment(se.renyi_moment_exact(Q, P, alpha), alpha))
    a = se.shuffled_rdp_exact(kernel, D, Dp, alpha, dps=60, direction="DDprime")
    b = se.shuffled_rdp_exact(kernel, D, Dp, alpha, dps=60, direction="DprimeD")
    return max(a, b)


@functools.lru_cache(maxsize=1)
def kary_instances() -> tuple[dict, ...]:
    se = exact_api()
    rng = np.random.default_rng(SEED)
    out = []
    alphas = INT_ALPHAS + REAL_ALPHAS
    for E in E_VALUES:
        for K, B in ((2, 2), (2, 3), (3, 3), (3, 4)):
            for _ in range(2):
                kernel = se.random_ldp_kernel(rng, K, exp_eps0=E, n_outputs=B)
                n = int(rng.integers(2, 8))
                D = tuple(int(x) for x in rng.integers(0, K, size=n))
                new = (D[-1] + 1 + int(rng.integers(0, K - 1))) % K
                Dp = D[:-1] + (new,)
                laws = (se.shuffled_law(kernel, D), se.shuffled_law(kernel, Dp))
                vals = {a: _pair_value(se, kernel, D, Dp, a, laws) for a in alphas}
                out.append({"family": f"random K={K} B={B}", "E": E, "n": n, "D": D, "Dprime": Dp,
                            "kernel": [[str(x) for x in row] for row in kernel], "exact": vals})
        for K in (3, 4):
            kernel = se.kary_rr_kernel(K, exp_eps0=E)
            n = int(rng.integers(2, 8))
            D = tuple(int(x) for x in rng.integers(0, K, size=n))
            Dp = D[:-1] + ((D[-1] + 1) % K,)
            laws = (se.shuffled_law(kernel, D), se.shuffled_law(kernel, Dp))
            out.append({"family": f"{K}-RR", "E": E, "n": n, "D": D, "Dprime": Dp, "kernel": f"{K}-RR",
                        "exact": {a: _pair_value(se, kernel, D, Dp, a, laws) for a in alphas}})
    # worst pairs of 3-RR: every pair (counts of the other n-1 records, ordered (d_n, d'_n))
    for E in (Fraction(2), Fraction(3)):
        kernel = se.kary_rr_kernel(3, exp_eps0=E)
        for n in (5, 8):
            best = {a: (mpmath.mpf(0), None) for a in INT_ALPHAS}
            for counts in itertools.product(range(n), repeat=2):
                if sum(counts) > n - 1:
                    continue
                others = (0,) * counts[0] + (1,) * counts[1] + (2,) * (n - 1 - sum(counts))
                laws = {x: se.shuffled_law(kernel, others + (x,)) for x in range(3)}
                for x, y in ((0, 1), (0, 2), (1, 2)):  # both directions are taken in _pair_value
                    D, Dp = others + (x,), others + (y,)
                    for a in INT_ALPHAS:
                        v = _pair_value(se, kernel, D, Dp, a, (laws[x], laws[y]))
                        if v > best[a][0]:
                            best[a] = (v, (D, Dp))
            out.append({"family": "3-RR worst pair (all pairs)", "E": E, "n": n, "kernel": "3-RR",
                        "D": best[2][1][0], "Dprime": best[2][1][1],
                        "exact": {a: best[a][0] for a in INT_ALPHAS}})
        for n in (25, 60):
            # the other users hold a third value: for 3-RR this pair beats every 2RR pair at n = 25, 60
            D, Dp = (2,) * (n - 1) + (0,), (2,) * (n - 1) + (1,)
            laws = (se.shuffled_law(kernel, D), se.shuffled_law(kernel, Dp))
            out.append({"family": "3-RR third-value pair", "E": E, "n": n, "kernel": "3-RR", "D": f"2^{n - 1} 0",
                        "Dprime": f"2^{n - 1} 1",
                        "exact": {a: _pair_value(se, kernel, D, Dp, a, laws) for a in (2, 3, 4)}})
    return tuple(out)


RR_EPS = ("0.1", "0.5", "1", "2", "3")
RR_N_SMALL = (2, 5, 10, 30, 100, 1000)
RR_N_LARGE = (10000, 100000, 1000000)
RR_ALPHAS = (2, 4, 8, 16, 32, 64)


@functools.lru_cache(maxsize=1)
def rr_instances() -> tuple[dict, ...]:
    """2RR: {'eps0': str, 'n': int, 'alpha': int, 'value': mpf (a float64), 'rel_err': float,
    'how': str}: the true RDP is within value (1 +- rel_err)."""
    se = exact_api()
    out = []
    for e in RR_EPS:
        for n in RR_N_SMALL:
            for a in RR_ALPHAS:
                v, pair = se.rr_worst_pair_rdp(n, float(e), float(a))
                out.append({"eps0": e, "n": n, "alpha": a, "value": mpmath.mpf(v), "rel_err": RR_WORST_REL_ERR,
                            "how": f"worst pair {pair} (float64, rel. error <= {RR_WORST_REL_ERR:g})"})
        for n in RR_N_LARGE:
            dd = se.rr_pair_rdp(n, float(e), np.array(RR_ALPHAS, dtype=float), "DDprime")
            dpd = se.rr_pair_rdp(n, float(e), np.array(RR_ALPHAS, dtype=float), "DprimeD")
            for a, x, y in zip(RR_ALPHAS, dd, dpd):
                out.append({"eps0": e, "n": n, "alpha": a, "value": mpmath.mpf(max(x, y)), "rel_err": RR_PAIR_REL_ERR,
                            "how": f"extreme pair, both directions (float64 log-space, rel. error <= "
                                   f"{RR_PAIR_REL_ERR:g})"})
    return tuple(out)


def instance_rows() -> list[tuple]:
    """Every instance as (label, eps0, n, alpha, value, rel_err), alpha as an mpf: the exact K-ary
    instances (all their orders, rel_err 0) followed by the float64 2RR instances (the true value is
    within value (1 +- rel_err)); shared by the upper-bound checks."""
    rows = []
    for inst in kary_instances():
        e = eps0_of(inst["E"])
        for a, v in inst["exact"].items():
            am = mpmath.mpf(a) if isinstance(a, int) else mpmath.mpf(a.numerator) / a.denominator
            rows.append((f"{inst['family']} E={inst['E']} n={inst['n']}", e, inst["n"], am, v, 0.0))
    for inst in rr_instances():
        rows.append((f"2RR eps0={inst['eps0']} n={inst['n']}", mpmath.mpf(inst["eps0"]), inst["n"],
                     mpmath.mpf(inst["alpha"]), inst["value"], inst["rel_err"]))
    return rows
