"""Closed forms for Mechanism 2 (Duchi et al.'s l2 channel), derived in sympy.

* :func:`hemisphere_mean_factor` - m_d = E|u_1| for u uniform on the unit sphere S^{d-1}:
  Gamma(d/2) / (sqrt(pi) Gamma((d+1)/2)).  Derivation: u_1 has density proportional to
  (1 - t^2)^{(d-3)/2} on [-1, 1] (d >= 2), so m_d = int_0^1 t (1-t^2)^a dt / int_0^1 (1-t^2)^a dt
  with a = (d-3)/2, i.e. (1/(2(a+1))) / (B(1/2, a+1)/2); d = 1 is the two-point sphere, m_1 = 1.
* :func:`mean_factor` - E[Z | v] = factor * v, factor = B m_d tanh(a/2) / r: 1 for the unbiased
  constant, 2 for the paper's printed one, for every d (symbolic in d).
* :func:`mse_exact` - E|Z - v|^2 = B^2 - 2 factor |v|^2 + |v|^2 (|Z| = B surely).
* :func:`privacy_ratio` - the output density of Z at direction z is proportional to
  p A + (1 - p)(1 - A) with p = e^a/(e^a+1) and A = P{(2S-1) z^T v > 0 | v} in [0, 1], so the
  ratio of densities for two inputs is at most max/min = p/(1-p) = e^a (independent of B).
"""

from __future__ import annotations

import sympy

from bcdp.bayesian.exact_inputs import exact_expr
from bcdp.core.errors import InvalidInputError
from bcdp.core.numbers import MAX_DPS, MIN_DPS, check_precision

CONSTANTS = ("unbiased", "paper")

d_s = sympy.Symbol("d", positive=True)
a_s = sympy.Symbol("a", positive=True)  # exponent (d-3)/2 or the privacy level alpha
alpha_s, r_s = sympy.symbols("alpha r", positive=True)
t_s = sympy.Symbol("t", positive=True)


def hemisphere_mean_factor(d) -> sympy.Expr:
    """m_d = E|u_1|, u uniform on S^{d-1} (exact for integer d >= 1, symbolic otherwise)."""
    d = exact_expr(d, "d")
    return sympy.gamma(sympy.Rational(1, 2) * d) / (sympy.sqrt(sympy.pi) * sympy.gamma((d + 1) / sympy.Integer(2)))


def hemisphere_mean_by_integration(d: int, dps: int = 40):
    """m_d by 40-digit quadrature of the marginal density of u_1, proportional to
    (1 - t^2)^{(d-3)/2} on [0, 1] (independent of the Gamma formula); d = 1: the two-point sphere."""
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    import mpmath

    if d == 1:
        return mpmath.mpf(1)
    with mpmath.workdps(dps):
        # t = sin(theta) removes the endpoint singularity: (1-t^2)^{(d-3)/2} dt = cos^{d-2} dtheta
        w = lambda th: mpmath.cos(th) ** (d - 2)
        return mpmath.quad(lambda th: mpmath.sin(th) * w(th), [0, mpmath.pi / 2]) / mpmath.quad(w, [0, mpmath.pi / 2])


def beta_identity_residual() -> sympy.Expr:
    """The general-d step: (1/(2(a+1))) / (B(1/2, a+1)/2) - Gamma(a+3/2)/(sqrt(pi) Gamma(a+2)).

    Simplifies to 0 for symbolic a > -1; with a = (d-3)/2 the right side is the Gamma formula.
    """
    a = a_s
    lhs = (1 / (2 * (a + 1))) / (sympy.gamma(sympy.Rational(1, 2)) * sympy.gamma(a + 1)
                                 / sympy.gamma(a + sympy.Rational(3, 2)) / 2)
    rhs = sympy.gamma(a + sympy.Rational(3, 2)) / (sympy.sqrt(sympy.pi) * sympy.gamma(a + 2))
    return sympy.gammasimp(lhs - rhs)


def _args(d, alpha, r) -> tuple[sympy.Expr, sympy.Expr, sympy.Expr]:
    return exact_expr(d, "d"), exact_expr(alpha, "alpha"), exact_expr(r, "r")


def _check_constant(constant: str) -> str:
    if constant not in CONSTANTS:
        raise InvalidInputError(f"constant must be one of {CONSTANTS}, not {constant!r}")
    return constant


def constant_unbiased(d=d_s, alpha=alpha_s, r=r_s) -> sympy.Expr:
    """Mechanism 2's B that makes the channel unbiased (Sec. 4; exact values or symbols)."""
    d, alpha, r = _args(d, alpha, r)
    return r * (sympy.exp(alpha) + 1) / (sympy.exp(alpha) - 1) * sympy.sqrt(sympy.pi) \
        * sympy.gamma((d + 1) / sympy.Integer(2)) / sympy.gamma(d / sympy.Integer(2))


def constant_paper(d=d_s, alpha=alpha_s, r=r_s) -> sympy.Expr:
    """Mechanism 2's B as printed: sqrt(pi) d r (e^a+1)/(e^a-1) Gamma((d+1)/2)/Gamma(d/2+1)."""
    d, alpha, r = _args(d, alpha, r)
    return sympy.sqrt(sympy.pi) * d * r * (sympy.exp(alpha) + 1) / (sympy.exp(alpha) - 1) \
        * sympy.gamma((d + 1) / sympy.Integer(2)) / sympy.gamma(d / sympy.Integer(2) + 1)


def mean_factor(constant: str, d=d_s) -> sympy.Expr:
    """E[Z | v] / v: B m_d (e^a-1)/(e^a+1) / r, simplified (1 unbiased, 2 paper)."""
    _check_constant(constant)
    d = exact_expr(d, "d")
    B = constant_unbiased(d) if constant == "unbiased" else constant_paper(d)
    expr = B * hemisphere_mean_factor(d) * (sympy.exp(alpha_s) - 1) / (sympy.exp(alpha_s) + 1) / r_s
    return sympy.gammasimp(sympy.simplify(expr))


def mse_exact(d: int, alpha, r, v_norm_sq, constant: str = "unbiased") -> sympy.Expr:
    """E|Z - v|^2 = B^2 - 2 (factor - 1/2) |v|^2 ... = B^2 - (2 factor - 1) |v|^2 (exact inputs)."""
    _check_constant(constant)
    v_norm_sq = exact_expr(v_norm_sq, "v_norm_sq")
    B = (constant_unbiased if constant == "unbiased" else constant_paper)(sympy.Integer(d), alpha, r)
    f = mean_factor(constant, sympy.Integer(d))
    return sympy.simplify(B ** 2 - (2 * f - 1) * v_norm_sq)


def privacy_ratio() -> sympy.Expr:
    """sup over A, A' in [0, 1] of (p A + (1-p)(1-A)) / (p A' + (1-p)(1-A')), p = e^a/(e^a+1).

    The numerator is affine in A (max at A = 1: p, since p >= 1/2) and the denominator affine in
    A' (min at A' = 0: 1 - p); the ratio p/(1-p) simplifies to e^alpha.
    """
    p = sympy.exp(alpha_s) / (sympy.exp(alpha_s) + 1)
    A, Ap = sympy.symbols("A A_prime", nonnegative=True)
    num = p * A + (1 - p) * (1 - A)
    den = p * Ap + (1 - p) * (1 - Ap)
    # affine in A / A': extremes at the endpoints
    best = max((num.subs(A, x) / den.subs(Ap, y) for x in (0, 1) for y in (0, 1)),
               key=lambda e: float(e.subs(alpha_s, 1)))
    return sympy.simplify(best)
