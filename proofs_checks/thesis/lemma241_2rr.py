"""Thesis Thm 2.4.1 and Lemma 2.4.1: 2RR is unbiased with MSE (2.5), and Lemma 2.4.1's p gives eps0 = 2 asinh(v/2) < v.

Printed (thesis Sec. 2.4): for p in [0, 1/2), 2RR (Alg 2.2.1) is eps0-LDP with eps0 = log((1-p)/p),
unbiased, with MSE p(1-p)/(1-2p)^2 (2.5); for v > 0, p = (1 - sqrt(v^2/(v^2+4)))/2 gives eps0 <= v.
The check evaluates the library (:mod:`bcdp.dme.two_rr`) and compares with oracles written here: the
printed p simplified by sympy, the printed (2.5) and (1-p)/p, and log((1-p)/p) against v at 60 digits
(mpmath).  Budgets: v = t - 1/t for t in {101/100, 5/4, 3/2, 2, 3, 10} (p rational = 1/(1+t^2)) and
v in {1/3, 1, 5, 20} (p irrational, sympy).  Finding: eps0 = 2 asinh(v/2) is strictly below v for
every v > 0 (asinh x < x), so the lemma's "eps0 <= v" is never an equality; the library also
certifies e^{eps0} < e^v with exact rational bounds.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import sympy
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.dme import two_rr

from .._common import keep

CLAIM = ClaimSpec(
    id="THESIS-Lemma2.4.1",
    paper="thesis",
    group="dme",
    where="Thm 2.4.1, eq. (2.5) and Lemma 2.4.1, Sec. 2.4 (Alg 2.2.1)",
    statement="2RR is unbiased with MSE p(1-p)/(1-2p)^2 and LDP ratio (1-p)/p; Lemma 2.4.1's p gives eps0 <= v "
              "(exactly 2 asinh(v/2), strictly < v).",
    expected="confirmed",
    also_checked_in=("`tests/dme/test_dme_binary_two_rr.py`",),
)

RATIONAL_T = (Fraction(101, 100), Fraction(5, 4), Fraction(3, 2), Fraction(2), Fraction(3), Fraction(10))
IRRATIONAL_V = (Fraction(1, 3), Fraction(1), Fraction(5), Fraction(20))


def _mp(x: Fraction) -> mpmath.mpf:
    return mpmath.mpf(x.numerator) / x.denominator


def check() -> ClaimResult:
    fails: list = []
    rows: list = []
    budgets = 0
    with mpmath.workdps(60):
        for t in RATIONAL_T:
            v = t - 1 / t
            budgets += 1
            sv = sympy.Rational(v.numerator, v.denominator)
            printed = sympy.nsimplify(sympy.simplify((1 - sympy.sqrt(sv ** 2 / (sv ** 2 + 4))) / 2))
            p = two_rr.budget_p(v)
            if not isinstance(p, Fraction) or sympy.Rational(p.numerator, p.denominator) != printed:
                keep(fails, {"v": str(v), "what": "p", "library": str(p), "printed": str(printed)})
                continue
            for b in (0, 1):
                if two_rr.two_rr_mean(b, p) != b:
                    keep(fails, {"v": str(v), "b": b, "what": "unbiased"})
                if two_rr.two_rr_mse(b, p) != p * (1 - p) / (1 - 2 * p) ** 2:
                    keep(fails, {"v": str(v), "b": b, "what": "(2.5)"})
            ratio = two_rr.two_rr_ldp_ratio(p)
            if ratio != (1 - p) / p:
                keep(fails, {"v": str(v), "what": "LDP ratio", "library": str(ratio)})
            eps0 = mpmath.log(_mp((1 - p) / p))
            closed = mpmath.mpf(sympy.N(two_rr.budget_epsilon(v), 70))
            cert = two_rr.certify_epsilon_below_budget(v)
            strict = eps0 < _mp(v) and cert["certified"]
            if not (mpmath.almosteq(eps0, closed, 1e-55) and strict):
                keep(fails, {"v": str(v), "what": "eps0 = 2 asinh(v/2) < v"})
            rows.append({"t": str(t), "v": str(v), "p": str(p), "e^eps0": str(ratio),
                         "eps0": mpmath.nstr(eps0, 20), "v - eps0": mpmath.nstr(_mp(v) - eps0, 12)})
        for v in IRRATIONAL_V:
            budgets += 1
            p = two_rr.budget_p(v)
            vm = _mp(v)
            pm = (1 - mpmath.sqrt(vm ** 2 / (vm ** 2 + 4))) / 2
            if isinstance(p, Fraction) or not mpmath.almosteq(mpmath.mpf(sympy.N(p, 70)), pm, 1e-55):
                keep(fails, {"v": str(v), "what": "sympy p"})
            eps0 = mpmath.log((1 - pm) / pm)
            if not (eps0 < vm and two_rr.certify_epsilon_below_budget(v)["certified"]
                    and mpmath.almosteq(eps0, mpmath.mpf(sympy.N(two_rr.budget_epsilon(v), 70)), 1e-55)):
                keep(fails, {"v": str(v), "what": "eps0 = 2 asinh(v/2) < v"})
            rows.append({"v": str(v), "p": str(p), "eps0": mpmath.nstr(eps0, 20),
                         "v - eps0": mpmath.nstr(vm - eps0, 12)})
    return CLAIM.result(
        verdict="confirmed" if not fails else "refuted",
        key_figure=f"{budgets} budgets: unbiased, (2.5) exact, e^eps0 = (1-p)/p; eps0 = 2 asinh(v/2) < v at all "
                   f"({len(fails)} failures)",
        evidence={"budgets": rows, "failures": fails,
                  "finding": "eps0 <= v is strict for every v > 0 (2 asinh(v/2) < v); with v = t - 1/t, p = 1/(1+t^2) "
                             "and e^eps0 = t^2",
                  "library": "bcdp.dme.two_rr (budget_p, two_rr_mean, two_rr_mse, two_rr_ldp_ratio, budget_epsilon, "
                             "certify_epsilon_below_budget)"},
    )
