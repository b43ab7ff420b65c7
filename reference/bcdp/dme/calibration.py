"""Shuffled-model privacy calibration of thesis Ch. 3: (3.7)-(3.8), (3.30), Lemma 2.1.5, Lemma 3.3.2, (3.34).

* Lemma 2.1.5 (2.3), proof App. A.1: (alpha, alpha rho)-RDP for all alpha gives (eps, delta)-DP with
  eps <= 3 max{rho L, sqrt(rho L)}, L = log(1/delta) (:func:`lemma215_epsilon`).  The proof's chain
  (A.2) rho + 2 sqrt(rho L) <= rho L + 2 sqrt(rho L) needs L >= 1, i.e. delta <= 1/e; without it the
  lemma is false (the Gaussian mechanism, exactly rho-zCDP, :func:`gaussian_exact_delta`):
  docs/errata.md E-Thesis-Lemma2.1.5.  The hypothesis is enforced (``require_delta_le_inv_e``).
* Thms 3.3.2 / 3.5.2: s shufflers, per-shuffler RDP by Lemma 3.3.2 (3.6) [FMT23, Cor 4.3], valid for
  alpha <= n/(16 eps_msg e^{eps_msg}) (:func:`lemma332_alpha_max`, eps_msg = 2 asinh(v/(2s)) by
  Lemma 2.4.1 with v/s), summed: eps(alpha) <= 48 alpha v^2/(s n) = alpha rho (3.7), (3.29).
* The printed calibration v^2 = s n min{eps^2, eps}/(144 L) (:func:`printed_v2`) makes
  rho L = min{eps^2, eps}/3, so (3.8)/(3.30) give max{eps^2, sqrt(3) eps} (eps <= 1) and
  max{eps, sqrt(3 eps)} (eps > 1): <= eps only for eps >= 3 (docs/errata.md E-Thesis-3.8).  Corrected:
  v^2 = s n min{eps^2, eps}/(432 L) (:func:`corrected_v2`), for which (3.8) gives exactly
  max{eps^2/3, eps/3, sqrt(eps)} clipped: <= eps for every eps > 0 (eps <= 1: eps; eps > 1:
  max{eps/3, sqrt(eps)} <= eps).
* :func:`achieved_epsilon`: what a given v really certifies, through the project's certified
  zCDP -> DP conversion (:func:`bcdp.accounting.conversion.zcdp_to_dp`, CKS) of the curve alpha rho,
  capped at Lemma 3.3.2's alpha range.
* (3.34): substituting v^2 into the term 5 d^2 s/(n v^2) of (3.33) (with S_m^3 <= 5) gives
  720 d^2 L/(n^2 min{eps^2, eps}), not 5 (:func:`eq334_middle_coefficient`; E-Thesis-3.34).

Inputs: s, n ints; eps and delta exact rationals (delta in (0, 1)); L = log(1/delta) is a sympy
expression, so every calibrated quantity is an exact sympy expression, decided at 50 digits.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import mpmath
import sympy

from bcdp.accounting.conversion import zcdp_to_dp
from bcdp.core.errors import InvalidInputError, UndecidedComparison, ValidityConditionError, WrongTypeError
from bcdp.core.numbers import MAX_DPS, MIN_DPS, check_precision, to_fraction
from bcdp.core.results import Certified

#: Decimal digits of the mpmath evaluations that decide comparisons of sympy expressions.
DPS = 50
_MARGIN = mpmath.mpf(10) ** -40


def _int(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise WrongTypeError(f"{name} must be an int >= 1, got {type(value).__name__} {value!r}")
    if value < 1:
        raise InvalidInputError(f"{name} must be an int >= 1, got {value}")
    return value


def _rat(value: Any, name: str) -> sympy.Rational:
    v = to_fraction(value, name)
    if v <= 0:
        raise InvalidInputError(f"{name} must be > 0, got {v}")
    return sympy.Rational(v.numerator, v.denominator)


def _delta(delta: Any) -> sympy.Rational:
    d = to_fraction(delta, "delta")
    if not 0 < d < 1:
        raise InvalidInputError(f"delta must lie in (0, 1), got {d}")
    return sympy.Rational(d.numerator, d.denominator)


def log_inv(delta: Any) -> sympy.Expr:
    """L = log(1/delta), exact (sympy)."""
    return sympy.log(1 / _delta(delta))


def num(expr: Any) -> mpmath.mpf:
    """A sympy expression at :data:`DPS` digits."""
    with mpmath.workdps(DPS + 10):
        return mpmath.mpf(sympy.N(sympy.sympify(expr), DPS + 10))


def decide_le(a: Any, b: Any) -> bool:
    """a <= b for exact sympy reals, decided at 50 digits (equal expressions simplify to True);
    raises UndecidedComparison if |a - b| < 1e-40 without being provably 0."""
    diff = sympy.sympify(b) - sympy.sympify(a)
    with mpmath.workdps(DPS + 10):
        x = num(diff)
    if abs(x) >= _MARGIN:
        return bool(x > 0)
    if sympy.simplify(diff) == 0:
        return True
    raise UndecidedComparison(f"cannot decide {a} <= {b} at {DPS} digits")


# -- Lemma 2.1.5 ----------------------------------------------------------------------------------

def delta_le_inv_e(delta: Any) -> bool:
    """delta <= 1/e, i.e. log(1/delta) >= 1 (the hidden hypothesis of Lemma 2.1.5's proof, (A.2))."""
    return decide_le(1, log_inv(delta))


def lemma215_epsilon(rho: Any, delta: Any, require_delta_le_inv_e: bool = True) -> sympy.Expr:
    """eps = 3 max{rho L, sqrt(rho L)} of thesis Lemma 2.1.5 (2.3), L = log(1/delta), exact.
    The proof (App. A.1, (A.2)) needs delta <= 1/e: ValidityConditionError otherwise, unless
    ``require_delta_le_inv_e=False`` (to evaluate the printed form where it is false)."""
    r = _rat(rho, "rho")
    if require_delta_le_inv_e and not delta_le_inv_e(delta):
        raise ValidityConditionError(f"Lemma 2.1.5 needs delta <= 1/e (log(1/delta) >= 1), got delta = {delta}")
    x = r * log_inv(delta)
    return 3 * sympy.Max(x, sympy.sqrt(x))


def lemma215_chain(rho: Any, delta: Any) -> dict[str, sympy.Expr]:
    """The terms of thesis (A.1)-(A.2) at alpha* = 1 + sqrt(L/rho): the (A.1) value
    rho alpha* + L/(alpha* - 1) + log(1 - 1/alpha*), then rho + 2 sqrt(rho L),
    rho L + 2 sqrt(rho L) and 3 max{rho L, sqrt(rho L)}."""
    r, L = _rat(rho, "rho"), log_inv(delta)
    a = 1 + sympy.sqrt(L / r)
    x = r * L
    return {"alpha_star": a, "A1": r * a + L / (a - 1) + sympy.log(1 - 1 / a),
            "bun_steinke": r + 2 * sympy.sqrt(x), "after_L_ge_1": x + 2 * sympy.sqrt(x),
            "printed": 3 * sympy.Max(x, sympy.sqrt(x))}


def gaussian_exact_delta(rho: Any, eps: Any, dps: int = DPS) -> mpmath.mpf:
    """Exact delta(eps) of the Gaussian mechanism with (sensitivity/sigma)^2 = 2 rho, whose Renyi
    divergence is exactly alpha rho (the extremal mechanism for Lemma 2.1.5's hypothesis):
    Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2), mu = sqrt(2 rho) (Balle & Wang 2018, Thm 8)."""
    r, e = _rat(rho, "rho"), to_fraction(eps, "eps")
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    with mpmath.workdps(dps + 10):
        mu = mpmath.sqrt(2 * mpmath.mpf(r.p) / r.q)
        ee = mpmath.mpf(e.numerator) / e.denominator
        return mpmath.ncdf(-ee / mu + mu / 2) - mpmath.exp(ee) * mpmath.ncdf(-ee / mu - mu / 2)


# -- calibration (3.7)-(3.8), (3.30) ----------------------------------------------------------------

def printed_v2(s: Any, n: Any, eps: Any, delta: Any) -> sympy.Expr:
    """v^2 = s n min{eps^2, eps}/(144 log(1/delta)) of thesis Thm 3.3.2 / Thm 3.5.2 (as printed)."""
    e = _rat(eps, "eps")
    return _int(s, "s") * _int(n, "n") * sympy.Min(e ** 2, e) / (144 * log_inv(delta))


def corrected_v2(s: Any, n: Any, eps: Any, delta: Any) -> sympy.Expr:
    """v^2 = s n min{eps^2, eps}/(432 log(1/delta)): with it (3.8) certifies eps for every eps > 0
    (docs/errata.md E-Thesis-3.8), given delta <= 1/e and Lemma 3.3.2's alpha range."""
    e = _rat(eps, "eps")
    return _int(s, "s") * _int(n, "n") * sympy.Min(e ** 2, e) / (432 * log_inv(delta))


def shuffled_rho(v2: Any, s: Any, n: Any) -> sympy.Expr:
    """rho = 48 v^2/(s n), the RDP slope of s shufflers by Lemma 3.3.2 (thesis (3.7), (3.29))."""
    return 48 * sympy.sympify(v2) / (_int(s, "s") * _int(n, "n"))


def eq38_epsilon(v2: Any, s: Any, n: Any, delta: Any) -> sympy.Expr:
    """3 max{48 v^2 L/(s n), sqrt(48 v^2 L/(s n))} of thesis (3.8) / (3.30)."""
    x = shuffled_rho(v2, s, n) * log_inv(delta)
    return 3 * sympy.Max(x, sympy.sqrt(x))


def message_epsilon(v2: Any, s: Any) -> sympy.Expr:
    """eps_msg = 2 asinh(v/(2 s)) of one 2RR message with parameter v/s (thesis Lemma 2.4.1)."""
    return 2 * sympy.asinh(sympy.sqrt(sympy.sympify(v2)) / (2 * _int(s, "s")))


def lemma332_alpha_max(v2: Any, s: Any, n: Any) -> sympy.Expr:
    """n/(16 eps_msg e^{eps_msg}), the largest order of thesis Lemma 3.3.2 (3.6) [FMT23, Cor 4.3]."""
    em = message_epsilon(v2, s)
    return _int(n, "n") / (16 * em * sympy.exp(em))


def alpha_range_condition(v2: Any, s: Any, n: Any, delta: Any) -> dict[str, Any]:
    """Is alpha* = 1 + sqrt(L/rho) of (A.2) within Lemma 3.3.2's range alpha <= n/(16 eps_msg e^eps_msg)?"""
    rho = shuffled_rho(v2, s, n)
    a_star = 1 + sympy.sqrt(log_inv(delta) / rho)
    a_max = lemma332_alpha_max(v2, s, n)
    return {"alpha_star": a_star, "alpha_max": a_max, "holds": decide_le(a_star, a_max)}


def achieved_epsilon(v2: Any, s: Any, n: Any, delta: Any) -> Certified:
    """The eps certified for v by Lemma 3.3.2 (slope rho = 48 v^2/(s n) on alpha <= alpha_max) and the
    project's certified CKS zCDP -> DP conversion (``zcdp_to_dp(..., alpha_max=...)``).  rho is
    passed as a rational upper bound (60 digits) and alpha_max as a float rounded down, both sound;
    ValidityConditionError when alpha_max <= 1 (Lemma 3.3.2 gives no order), or when alpha_max is so
    close to 1 that the rounded-down cap is <= 1 (no certifiable order above 1)."""
    rho = shuffled_rho(v2, s, n)
    a_max = num(lemma332_alpha_max(v2, s, n))
    if a_max <= 1:
        raise ValidityConditionError(f"Lemma 3.3.2 gives no order alpha > 1: alpha_max = {mpmath.nstr(a_max, 8)}")
    with mpmath.workdps(DPS + 20):
        man, exp = (num(rho) * (1 + mpmath.mpf(10) ** -30)).man_exp
    rho_up = Fraction(man) * Fraction(2) ** exp
    # relative check: rho_up/rho - 1 ~ 1e-30 is decided at any scale of rho (an absolute difference
    # rho_up - rho falls under decide_le's 1e-40 margin once rho < 1e-10)
    if not decide_le(rho / sympy.Rational(rho_up.numerator, rho_up.denominator), 1):
        raise UndecidedComparison("rho upper bound not certified")
    cap = float(a_max * (1 - mpmath.mpf(10) ** -12))
    if cap <= 1:
        raise ValidityConditionError(f"Lemma 3.3.2 gives no certifiable order alpha > 1: alpha_max = "
                                     f"{mpmath.nstr(a_max, 17)}")
    d = to_fraction(delta, "delta")
    return zcdp_to_dp(rho_up, d, "cks", alpha_max=cap)


# -- (3.34) ---------------------------------------------------------------------------------------

def eq334_middle_coefficient() -> sympy.Expr:
    """The coefficient of d^2 log(1/delta)/(n^2 min{eps^2, eps}) obtained by substituting
    v^2 = s n min{eps^2, eps}/(144 log(1/delta)) into the (3.33) term 5 d^2 s/(n v^2) (S_m^3 <= 5):
    720 (thesis (3.34) prints 5)."""
    d, s, n, L, m = sympy.symbols("d s n L m", positive=True)
    term = 5 * d ** 2 * s / (n * (s * n * m / (144 * L)))
    return sympy.simplify(term / (d ** 2 * L / (n ** 2 * m)))


def two_rr_variance_at_v(v2: Any) -> sympy.Expr:
    """p(1-p)/(1-2p)^2 of 2RR (Thm 2.4.1 (2.5)) at p = (1 - sqrt(v^2/(v^2+4)))/2 (Lemma 2.4.1), simplified:
    it is exactly 1/v^2, so the s/v^2 term of (3.33) is not loose."""
    v2s = sympy.sympify(v2)
    p = (1 - sympy.sqrt(v2s / (v2s + 4))) / 2
    return sympy.simplify(p * (1 - p) / (1 - 2 * p) ** 2)
