"""The exact MSE of M_mean over Mechanism 2 against Theorem 2's bound, eq. (17) (sympy, exact).

BCDP paper (arXiv:2410.18404), Mechanism 1 (M_mean), Mechanism 2 (Duchi et al.'s l2 channel with
the unbiased constant, see E-Mech2-B), Theorem 2 eq. (17) and its proof, App. B.2 eqs. (64)-(69).

Derivation (every step exact).  Stage k (k = 1..d) releases Y^k = M_LDP(x_{k:d}, b_k, sqrt(m_k))
with b_k = c_k - c_{k-1}, m_k = d - k + 1.  With the unbiased constant B_k, |Y^k| = B_k surely and
E[Y^k] = x_{k:d}; Y^k / B_k is uniform on a hemisphere of S^{m_k - 1}, and u u^T is invariant under
u -> -u (which maps one hemisphere onto the other), so E[Y^k Y^k^T] = (B_k^2 / m_k) I, i.e.

    Var(Y^k_j | x) = s_k - x_j^2,   s_k := B_k^2 / m_k = pi coth(b_k/2)^2 (Gamma((m_k+1)/2)/Gamma(m_k/2))^2.

The stages are independent, so the weighted estimate nu_i = sum_{k<=i} w_k Y^k / sum_{k<=i} w_k
(w_k = b_k^2/m_k; stages with b_k = 0 have weight 0 and are skipped) is unbiased with

    Var(nu_i | x) = sum_{k<=i} w_k^2 (s_k - x_i^2) / (sum_{k<=i} w_k)^2.                 (*)

For n independent users the unprojected mean has MSE (1/n^2) sum_j sum_i Var(nu_i | x^(j)); its
supremum over the data is at x = 0: (1/n) V(c) with V(c) = sum_i sum_k w_k^2 s_k / (sum w_k)^2.
Eq. (17) bounds the projected MSE by ~ (1/n) S(c) ^ d with S(c) the sum of
:func:`bcdp.bayesian.allocation.mse_objective`.  The ratio V(c)/S(c) is not bounded by a universal
constant: for c = (eps, ..., eps) (Theorem 2's allocation when every delta_i >= eps and zeta = 1)
it is d pi coth(eps/2)^2 (Gamma((d+1)/2)/Gamma(d/2))^2 eps^2 / d^2 ~ (pi/2) eps^2 coth(eps/2)^2.

Corrected bound (E-Thm2-eq17).  Gautschi's inequality Gamma(x+1/2)/Gamma(x) < sqrt(x) gives
s_k < (pi/2) m_k coth(b_k/2)^2, and coth(t) <= 1 + 1/t gives coth(b/2)^2 <= (b + 2)^2 / b^2, so
s_k < (pi/2) (b_k + 2)^2 / w_k and by (*)
    Var(nu_i) <= (pi/2) (2 + max_k b_k)^2 / sum_{k<=i} w_k,
hence  E|xbar - Pi(mean)|^2 <= min{ (pi/2) (2 + b_max)^2 S(c) / n, 4 d }  (projection onto the box
is 1-Lipschitz and leaves at most 2 per coordinate), with b_max <= c_d <= eps: eq. (17) holds with
the constant (pi/2)(2 + eps)^2, i.e. up to a universal constant times (1 v eps^2), not a universal one.

Projected lower bound (the counterexample survives the projection and the cap at d): for
c = (eps, ..., eps) and every x^(j) = 0, the per-coordinate mean nubar_i has E nubar_i = 0,
E nubar_i^2 = s/n and E nubar_i^4 = (n mu_4 + 3 n (n-1) s^2)/n^4 with mu_4 = E Y_j^4 =
3 B^4/(d(d+2)) (the sphere's E u_j^4 = 3/(d(d+2)), again invariant under u -> -u); as
min(t^2, 1) >= t^2 - t^4, the projected MSE is at least d (s/n - E nubar_i^4).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sympy

from bcdp.bayesian import mechanisms_theory
from bcdp.bayesian.allocation import mse_objective
from bcdp.bayesian.exact_inputs import exact_expr, rational
from bcdp.core.errors import InvalidInputError
from bcdp.core.intervals import compare
from bcdp.core.numbers import MAX_DPS, MIN_DPS, brief_number, check_precision


def _dimension(m: Any, name: str = "m") -> int:
    if isinstance(m, bool) or not isinstance(m, int):
        raise InvalidInputError(f"{name} must be a positive int, got {m!r}")
    if m < 1:
        raise InvalidInputError(f"{name} = {m} must be at least 1")
    return m


def stage_second_moment(m: int, b: Any) -> sympy.Expr:
    """s = E[(Y_j)^2] = B^2/m of Mechanism 2 (unbiased constant) on R^m at budget b > 0, radius
    sqrt(m): pi coth(b/2)^2 (Gamma((m+1)/2)/Gamma(m/2))^2 (module docstring; B from
    :func:`bcdp.bayesian.mechanisms_theory.constant_unbiased`).  Exact b (floats refused)."""
    m = _dimension(m)
    bb = exact_expr(b, "b")
    if compare(bb, 0) <= 0:
        raise InvalidInputError(f"the stage budget b = {bb} must be positive (Mechanism 2 needs alpha > 0)")
    B = mechanisms_theory.constant_unbiased(sympy.Integer(m), bb, sympy.sqrt(m))
    return sympy.simplify(B ** 2 / m)


def _budgets(c_sorted: Sequence[Any]) -> list[sympy.Expr]:
    """b_k = c_k - c_{k-1} (c_0 = 0), each certified >= 0 (0 if a proven tie)."""
    if isinstance(c_sorted, (str, bytes)) or not isinstance(c_sorted, Sequence) or len(c_sorted) == 0:
        raise InvalidInputError("c_sorted must be a non-empty sequence of budgets")
    out, prev = [], sympy.Integer(0)
    for k, ck in enumerate(c_sorted, start=1):
        ck = exact_expr(ck, f"c[{k - 1}]")
        diff = ck - prev
        sign = compare(diff, 0)
        if sign < 0:
            raise InvalidInputError(f"c is not non-decreasing at stage {k} (c_0 = 0)")
        out.append(sympy.Integer(0) if sign == 0 else diff)
        prev = ck
    if out[0] == 0:
        raise InvalidInputError("c_1 = 0: coordinate 1 is never estimated (eq. (17) sum infinite)")
    return out


def _point(x: Sequence[Any] | None, d: int) -> list[sympy.Rational]:
    if x is None:
        return [sympy.Integer(0)] * d
    if isinstance(x, (str, bytes)) or not isinstance(x, Sequence) or len(x) != d:
        raise InvalidInputError(f"x must be a sequence of {d} exact values in [-1, 1]")
    pts = [rational(v, f"x[{i}]") for i, v in enumerate(x)]
    for i, v in enumerate(pts):
        if not -1 <= v <= 1:
            raise InvalidInputError(f"x[{i}] = {brief_number(v)} is outside [-1, 1] (Sec. 4: x in [-1, 1]^d)")
    return pts


def coordinate_variances(c_sorted: Sequence[Any], x: Sequence[Any] | None = None) -> list[sympy.Expr]:
    """Var(nu_i | x), i = 1..d, of M_mean over Mechanism 2, eq. (*) of the module docstring
    (Mechanism 1's weights w_k = b_k^2/(d-k+1), eq. (65)).  ``c_sorted`` non-decreasing with
    c_1 > 0 (exact); ``x`` in [-1, 1]^d in sorted coordinate order (exact; default 0, the sup)."""
    b = _budgets(c_sorted)
    d = len(b)
    xs = _point(x, d)
    w = [bk ** 2 / (d - k) for k, bk in enumerate(b)]
    s = [stage_second_moment(d - k, bk) if bk != 0 else sympy.Integer(0) for k, bk in enumerate(b)]
    out = []
    for i in range(d):
        num = sum((w[k] ** 2 * (s[k] - xs[i] ** 2) for k in range(i + 1) if b[k] != 0), sympy.Integer(0))
        den = sum((w[k] for k in range(i + 1)), sympy.Integer(0))
        out.append(num / den ** 2)
    return out


def _users(n: Any) -> sympy.Rational:
    nn = rational(n, "n")
    if nn < 1 or nn != int(nn):
        raise InvalidInputError(f"n = {brief_number(nn)} must be a positive integer number of users")
    return nn


def mse_exact(c_sorted: Sequence[Any], xs: Sequence[Sequence[Any]]) -> sympy.Expr:
    """E|xbar - (1/n) sum_j M_mean(x^(j), c)|^2 without the projection, exact:
    (1/n^2) sum_j sum_i Var(nu_i | x^(j)) (users independent; Thm 2's setting, eq. (17))."""
    if isinstance(xs, (str, bytes)) or not isinstance(xs, Sequence) or len(xs) == 0:
        raise InvalidInputError("xs must be a non-empty sequence of users' data vectors")
    n = len(xs)
    total = sum((sum(coordinate_variances(c_sorted, x), sympy.Integer(0)) for x in xs), sympy.Integer(0))
    return total / n ** 2


def mse_sup(c_sorted: Sequence[Any], n: Any = 1) -> sympy.Expr:
    """sup over the data of the unprojected MSE: (1/n) V(c), attained at x^(j) = 0 (Var(nu_i | x)
    is decreasing in x_i^2)."""
    return sum(coordinate_variances(c_sorted), sympy.Integer(0)) / _users(n)


def eq17_ratio(c_sorted: Sequence[Any]) -> sympy.Expr:
    """V(c)/S(c): the sup of n * MSE (unprojected) over the eq. (17) sum (independent of n)."""
    return mse_sup(c_sorted) / mse_objective(list(c_sorted))


def corrected_constant(c_sorted: Sequence[Any]) -> sympy.Expr:
    """(pi/2)(2 + max_k b_k)^2: the constant with which eq. (17) holds (E-Thm2-eq17)."""
    b = _budgets(c_sorted)
    return sympy.pi / 2 * (2 + sympy.Max(*b)) ** 2


def corrected_bound(c_sorted: Sequence[Any], n: Any) -> sympy.Expr:
    """E-Thm2-eq17's corrected eq. (17): min{(pi/2)(2 + b_max)^2 S(c)/n, 4d} (module docstring)."""
    nn = _users(n)
    return sympy.Min(corrected_constant(c_sorted) * mse_objective(list(c_sorted)) / nn, 4 * len(c_sorted))


def uniform_projected_lower_bound(d: int, eps: Any, n: Any) -> sympy.Expr:
    """Lower bound on the projected MSE E|xbar - Pi(mean)|^2 for c = (eps, ..., eps), every
    x^(j) = 0 (module docstring): d (s/n - (n mu_4 + 3 n (n-1) s^2)/n^4), s = B^2/d,
    mu_4 = 3 B^4/(d(d+2))."""
    d = _dimension(d, "d")
    nn = _users(n)
    s = stage_second_moment(d, eps)
    mu4 = 3 * (d * s) ** 2 / (d * (d + 2))
    fourth = (nn * mu4 + 3 * nn * (nn - 1) * s ** 2) / nn ** 4
    return d * (s / nn - fourth)


def evaluate(expr: sympy.Expr, dps: int = 50):
    """An exact expression of this module as an mpmath mpf at ``dps`` digits (sympy's evalf)."""
    import mpmath

    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    with mpmath.workdps(dps):
        return mpmath.mpf(sympy.N(expr, dps + 10)._to_mpmath(mpmath.mp.prec))
