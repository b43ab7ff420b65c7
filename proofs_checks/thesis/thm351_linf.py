"""Thesis Thm 3.5.1 (3.26), (3.31): the l_inf mechanism is unbiased, the water-filling split is the KKT optimum with S_inf^3 < 5, and the MSE bound holds.

Printed (thesis Sec. 3.5, Algs 3.5.1-3.5.2, Thm 3.5.1 and its proof): v_k = f_k v with f_k =
4^{-k/3}/S_m (k < m), f_m = 4^{-(m-1)/3}/S_m sums to v (3.26); per client (n = 1, z scale, i.e. the
(3.31) bracket) E||z_hat - z||^2 <= 4d^2/(3s) + 5 d^2 s/v^2 + d/4^m, the 5 bounding S_m^3.
Checked: with sympy, sum_k f_k = 1 and f equals the Lagrange (KKT) solution of min sum_k w_k^2/v_k^2
s.t. sum_k v_k = v (w_k the level weights), for m = 1..4; S_m increasing for m <= 30 and S_inf^3 =
(4^{1/3}-1)^{-3} < 5 (mpmath, 50 digits).  Exactly (Fractions), on the library's enumerated law of
z_hat (:mod:`bcdp.dme.linf`) for d in {1, 2}, s dividing d, m in {1, 2} (rational p_k: per-message
budget f_k v/s = 3/2, p_k = 1/5) and a grid of z including the clamp point z_j = 1: E z_hat = z, and
the exact MSE is below the printed (3.31) bracket.  (s not dividing d is the padding erratum of
(3.10), E-Thesis-3.10-padding, inherited by (3.31).)
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import mpmath
import sympy
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.dme import linf

from .._common import keep

CLAIM = ClaimSpec(
    id="THESIS-Thm3.5.1",
    paper="thesis",
    group="dme",
    where="Thm 3.5.1, eqs. (3.26) and (3.31), Sec. 3.5 (Algs 3.5.1-3.5.2)",
    statement="l_inf mechanism: the split f_k sums to 1 and is the KKT optimum, S_m^3 < S_inf^3 < 5; z_hat is unbiased "
              "and E||z_hat - z||^2 <= 4d^2/(3s) + 5d^2 s/v^2 + d/4^m.",
    expected="confirmed",
    also_checked_in=("`tests/dme/test_dme_binary_linf.py`",),
)

Z_GRID = (Fraction(0), Fraction(1, 3), Fraction(1, 2), Fraction(5, 8), Fraction(1))


def check() -> ClaimResult:
    fails: list = []
    rows: list = []
    for m in range(1, 5):
        f = linf.water_filling_split(m)
        if sympy.simplify(sum(f) - 1) != 0:
            keep(fails, {"m": m, "what": "sum f_k != 1"})
        four = sympy.Integer(4)
        S = sum((four ** sympy.Rational(-l, 3) for l in range(1, m)), sympy.Integer(0)) + four ** sympy.Rational(1 - m, 3)
        printed = [four ** sympy.Rational(-k, 3) / S for k in range(1, m)] + [four ** sympy.Rational(1 - m, 3) / S]
        if any(sympy.simplify(a - b) != 0 for a, b in zip(f, printed)):
            keep(fails, {"m": m, "what": "split differs from (3.26)"})
        if any(sympy.simplify(a - b) != 0 for a, b in zip(f, linf.kkt_split(m))):
            keep(fails, {"m": m, "what": "split is not the KKT optimum"})
    with mpmath.workdps(50):
        prev = mpmath.mpf(0)
        for m in range(1, 31):
            s_m = mpmath.mpf(sympy.N(linf.split_constant(m), 60))
            if not s_m > prev:
                keep(fails, {"m": m, "what": "S_m not increasing"})
            prev = s_m
        s_inf3 = mpmath.mpf(sympy.N(linf.s_infinity_cubed(), 60))
        if not (prev ** 3 < s_inf3 < 5 and mpmath.almosteq(s_inf3, (mpmath.cbrt(4) - 1) ** -3, 1e-45)):
            keep(fails, {"what": "S_inf^3 < 5", "S_inf^3": mpmath.nstr(s_inf3, 20)})
    laws = 0
    for d in (1, 2):
        for s in (x for x in (1, 2) if x <= d and d % x == 0):
            for m in (1, 2):
                v = Fraction(3, 2) * s * m            # f_k = 1/m for m <= 2, so f_k v/s = 3/2
                ps = (Fraction(1, 5),) * m
                worst = Fraction(0)
                bracket = Fraction(4 * d * d, 3 * s) + 5 * d * d * s / (v * v) + Fraction(d, 4 ** m)
                for z in itertools.product(Z_GRID, repeat=d):
                    laws += 1
                    law = linf.linf_estimate_law(z, m, s, ps)
                    mean = [sum(w * vec[j] for vec, w in law.items()) for j in range(d)]
                    mse = linf.linf_mse(z, m, s, ps)
                    if mean != list(z):
                        keep(fails, {"z": [str(x) for x in z], "m": m, "s": s, "what": "biased"})
                    if mse > bracket:
                        keep(fails, {"z": [str(x) for x in z], "m": m, "s": s, "mse": str(mse), "bound": str(bracket)})
                    worst = max(worst, mse)
                rows.append({"d": d, "s": s, "m": m, "v": str(v), "max_exact_mse": str(worst),
                             "bound_3.31": str(bracket), "ratio": str(worst / bracket)})
    return CLAIM.result(
        verdict="confirmed" if not fails else "refuted",
        key_figure=f"split = KKT optimum (m <= 4), S_inf^3 = {mpmath.nstr(s_inf3, 8)} < 5; {laws} exact laws unbiased "
                   f"and within (3.31) ({len(fails)} failures)",
        evidence={"failures": fails, "mse_vs_bound": rows,
                  "library": "bcdp.dme.linf (water_filling_split, kkt_split, split_constant, s_infinity_cubed, "
                             "linf_estimate_law, linf_mse)"},
    )
