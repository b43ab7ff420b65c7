"""sympy derivations for Section 3.4 / Section 4 of the BCDP paper.

* :func:`prop6_concavity` - Appendix A.5: g(x) = log(1 + (e^{delta - x} - 1)/q) is concave on
  [0, delta] for q in (0, 1]; g(0) = log(1 + (e^delta - 1)/q), g(delta) = 0.
* Corollary 1 (eqs. 18-19), derived from eq. (16)-(17) with zeta = 1/2, delta_i = delta (i <= k),
  delta_i = eps > 2 delta (i > k): :func:`corollary1_regime`, :func:`corollary1_c`,
  :func:`corollary1_objective` (the exact eq. (17) sum), :func:`corollary1_printed_bound`.

Derivation (checked by :mod:`proofs_checks` against the general allocation):
  threshold q* = (e^{delta/2} - 1)/(e^eps - 1).
  Regime 1, q <= q*: c_d = eps, c_i = delta - log(1 + q(e^eps - 1)) in [delta/2, delta] for i <= k,
     c_i = eps for i > k.
  Regime 2, q > q*: c_d = log((e^{delta/2} + q - 1)/q), decreasing from eps to delta/2.
     2a, c_d > delta (q < 1/(e^{delta/2} + 1)): c_i = delta/2 for i <= k, c_d for i > k.
     2b, c_d <= delta (q >= 1/(e^{delta/2} + 1)): c_i = c_d for every i (the paper omits this case).
  For c = (a x k, b x (d - k)) the eq. (17) sum is k d / a^2 + (d-k)^2 d / ((d-k) a^2 + d (b-a)^2).
"""

from __future__ import annotations

from typing import Any

import sympy

from bcdp.bayesian.exact_inputs import exact_expr
from bcdp.core.errors import InvalidInputError, ValidityConditionError
from bcdp.core.intervals import compare

x, delta_s, q_s, eps_s = sympy.symbols("x delta q epsilon", positive=True)
d_s, k_s = sympy.symbols("d k", positive=True, integer=True)
a_s, b_s = sympy.symbols("a b", positive=True)


def prop6_concavity() -> dict[str, Any]:
    """g''(x) in closed form and the sign argument (Appendix A.5, proof of Prop. 6).

    Returns the simplified second derivative, its factorisation (q - 1) * u / (u + q - 1)^2 with
    u = e^{delta - x} >= 1 on [0, delta], and the endpoint values.
    """
    g = sympy.log(1 + (sympy.exp(delta_s - x) - 1) / q_s)
    g2 = sympy.simplify(sympy.diff(g, x, 2))
    u = sympy.exp(delta_s - x)
    claimed = (q_s - 1) * u / (u + q_s - 1) ** 2
    return {
        "g": g,
        "second_derivative": g2,
        "factored": claimed,
        "identity_holds": sympy.simplify(g2 - claimed) == 0,
        "g_at_0": sympy.simplify(g.subs(x, 0)),
        "g_at_delta": sympy.simplify(g.subs(x, delta_s)),
        "sign_argument": "u = e^(delta - x) >= 1 on [0, delta] and q in (0, 1], so u + q - 1 >= q > 0 "
                         "and (q - 1) <= 0: g'' <= 0, g is concave; hence g(x) >= (1 - x/delta) g(0).",
    }


def two_level_objective(a, b, d, k) -> sympy.Expr:
    """eq. (17) sum for c = (a repeated k times, b repeated d - k times), a <= b (exact values or
    symbols; floats refused)."""
    a, b = exact_expr(a, "a"), exact_expr(b, "b")
    d, k = exact_expr(d, "d"), exact_expr(k, "k")
    return k * d / a ** 2 + (d - k) ** 2 * d / ((d - k) * a ** 2 + d * (b - a) ** 2)


def corollary1_threshold(delta: Any, eps: Any) -> sympy.Expr:
    """q* = (e^{delta/2} - 1)/(e^eps - 1), the boundary between regimes 1 and 2 (exact inputs)."""
    return (sympy.exp(exact_expr(delta, "delta") / 2) - 1) / (sympy.exp(exact_expr(eps, "eps")) - 1)


def corollary1_regime(delta: Any, eps: Any, q: Any) -> str:
    """'1' (q <= q*), '2a' (q > q*, c_d > delta) or '2b' (q > q*, c_d <= delta); certified."""
    dl, e, qq = exact_expr(delta, "delta"), exact_expr(eps, "eps"), exact_expr(q, "q")
    if compare(e, 2 * dl) <= 0:
        raise ValidityConditionError("Corollary 1 (Sec. 4, eqs. 18-19) requires eps > 2 delta")
    if compare(qq, corollary1_threshold(dl, e)) <= 0:
        return "1"
    c_d = sympy.log((sympy.exp(dl / 2) + qq - 1) / qq)
    return "2a" if compare(c_d, dl) > 0 else "2b"


def corollary1_c(delta: Any, eps: Any, q: Any, d: int, k: int) -> tuple[sympy.Expr, sympy.Expr, str]:
    """(c_1 = ... = c_k, c_{k+1} = ... = c_d, regime) from the derivation in the module docstring."""
    if not 1 <= k < d:
        raise InvalidInputError("Corollary 1 needs integers 1 <= k < d")
    dl, e, qq = exact_expr(delta, "delta"), exact_expr(eps, "eps"), exact_expr(q, "q")
    regime = corollary1_regime(dl, e, qq)
    if regime == "1":
        return dl - sympy.log(1 + qq * (sympy.exp(e) - 1)), e, regime
    c_d = sympy.log((sympy.exp(dl / 2) + qq - 1) / qq)
    return (dl / 2 if regime == "2a" else c_d), c_d, regime


def corollary1_objective(delta: Any, eps: Any, q: Any, d: int, k: int) -> sympy.Expr:
    """The exact eq. (17) sum at the Corollary 1 allocation."""
    a, b, _ = corollary1_c(delta, eps, q, d, k)
    return two_level_objective(a, b, d, k)


def corollary1_printed_bound(delta: Any, eps: Any, q: Any, d: int, k: int) -> sympy.Expr:
    """The bracket of eq. (18) (regime 1) or eq. (19) (otherwise), as printed, without O(1)."""
    dl, e, qq = exact_expr(delta, "delta"), exact_expr(eps, "eps"), exact_expr(q, "q")
    if corollary1_regime(dl, e, qq) == "1":
        return d * k / dl ** 2 + (d - k) ** 2 / e ** 2
    c_d = sympy.log((sympy.exp(dl / 2) + qq - 1) / qq)
    return d * k / dl ** 2 + (d - k) ** 2 / (sympy.Rational(d - k, d) * dl ** 2 + (c_d - dl / 2) ** 2)


def corollary1_derived_bound_2a(delta: Any, q: Any, d: int, k: int) -> sympy.Expr:
    """What the derivation gives in regime 2a (compare eq. 19's denominator (d-k)/d delta^2)."""
    dl, qq = exact_expr(delta, "delta"), exact_expr(q, "q")
    c_d = sympy.log((sympy.exp(dl / 2) + qq - 1) / qq)
    return 4 * d * k / dl ** 2 + (d - k) ** 2 / (sympy.Rational(d - k, 4 * d) * dl ** 2 + (c_d - dl / 2) ** 2)


def two_level_objective_symbolic() -> sympy.Expr:
    """The two-level eq. (17) sum derived from the definition with symbols (for the docs/checks)."""
    # stage weights: k=1 increment a (weight 1/d), k = k+1 increment b - a (weight 1/(d-k))
    s_low = a_s ** 2 / d_s
    s_high = s_low + (b_s - a_s) ** 2 / (d_s - k_s)
    return sympy.simplify(k_s / s_low + (d_s - k_s) / s_high)
