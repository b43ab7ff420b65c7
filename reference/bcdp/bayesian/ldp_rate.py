"""The remark after Theorem 2 at zeta = 1: M_mean's exact MSE against d^2/(n eps^2) and the eps-LDP rate (sympy, exact).

BCDP paper (arXiv:2410.18404), Sec. 4, remark after Theorem 2: "in the special case where there
is no coordinate-level privacy requirement (delta_i = inf), setting zeta = 1 implies c_1 = ... =
c_d = eps, which yields the error bound O(d^2/(n eps^2)). This matches the eps-LDP lower bound
provided in Duchi et al. [2013a]."

* No coordinate demand.  eq. (16) uses delta_i only through delta~_i = min(delta_i, eps), so
  delta_i = inf is the same as any delta_i >= eps; :func:`no_demand_allocation` passes
  delta_i = eps.  Then c_d = min{log((e^eps + q - 1)/q), eps} = eps for every q in [0, 1]
  ((1 - q)(e^eps - 1) >= 0) and every c_i = c_d = eps.
* The ratio.  With c = eps 1, Mechanism 1 has one stage (b_1 = eps, w_1 = eps^2/d), so by
  :mod:`bcdp.bayesian.mmean_utility` the sup over the data of n * MSE (unprojected) is
  d s(d, eps), s = pi coth(eps/2)^2 (Gamma((d+1)/2)/Gamma(d/2))^2, and
      R(d, eps) := sup n MSE / (d^2/eps^2) = (eps coth(eps/2))^2 * pi (Gamma((d+1)/2)/Gamma(d/2))^2 / d.
  Bounds (:func:`ratio_envelope`): g(d) := pi (Gamma((d+1)/2)/Gamma(d/2))^2/d lies in [1, pi/2)
  (g(1) = 1; Gautschi's Gamma(x + 1/2)/Gamma(x) < sqrt(x) at x = d/2 gives g < pi/2), so
      (eps coth(eps/2))^2 <= R(d, eps) < (pi/2)(eps coth(eps/2))^2,
  with equality on the left at d = 1.  t coth t is increasing (derivative (sinh 2t/2 - t)/sinh^2 t
  > 0), so for 0 < eps <= 1 the sup over d and eps is (pi/2) coth(1/2)^2 ~ 7.356
  (:func:`small_eps_supremum`, approached as d -> oo at eps = 1, not attained), while R >= eps^2
  is unbounded as eps -> oo: the remark's O(d^2/(n eps^2)) holds with a universal constant only
  for eps bounded (E-Thm2-eq17's cause).
* The eps-LDP rate.  Duchi, Jordan and Wainwright (2013a, arXiv:1302.3203) bound the minimax
  squared-l2 risk of locally private mean estimation over the l_inf ball [-1, 1]^d, for
  eps in (0, 1], below by a universal constant times min{d, d^2/(n eps^2)}
  (:func:`ldp_rate`; the form as cited, constants dropped).  M_mean's projected MSE is at most
  min{sup MSE, 4 d} (projection onto the box is 1-Lipschitz and leaves at most 2 per coordinate),
  so :func:`gap_to_ldp_rate` = min{R d^2/(n eps^2), 4 d} / min{d, d^2/(n eps^2)} <= max(R, 4).
"""

from __future__ import annotations

from typing import Any

import sympy

from bcdp.bayesian.allocation import BudgetAllocation, allocate_budgets
from bcdp.bayesian.exact_inputs import rational
from bcdp.bayesian.mmean_utility import _dimension, _users, mse_sup
from bcdp.core.errors import InvalidInputError
from bcdp.core.numbers import brief_number


def _level(eps: Any) -> sympy.Rational:
    e = rational(eps, "eps")
    if e <= 0:
        raise InvalidInputError(f"eps = {brief_number(e)} must be positive")
    return e


def no_demand_allocation(d: int, eps: Any, q: Any = 0) -> BudgetAllocation:
    """Theorem 2's allocation, eq. (16), with zeta = 1 and no coordinate demand (delta_i = inf,
    represented by delta_i = eps: eq. (16) reads only delta~_i = min(delta_i, eps)); exact eps > 0,
    q in [0, 1].  The remark after Theorem 2 says c = (eps, ..., eps) (module docstring)."""
    d = _dimension(d, "d")
    e = _level(eps)
    return allocate_budgets([e] * d, e, q, 1)


def remark_ratio(d: int, eps: Any, q: Any = 0) -> sympy.Expr:
    """R(d, eps) = sup_x n MSE(M_mean) / (d^2/eps^2) at the allocation of
    :func:`no_demand_allocation` (unprojected; :func:`bcdp.bayesian.mmean_utility.mse_sup`), exact."""
    alloc = no_demand_allocation(d, eps, q)
    e = _level(eps)
    return sympy.simplify(mse_sup(list(alloc.c_sorted)) * e ** 2 / d ** 2)


def ratio_envelope(eps: Any) -> tuple[sympy.Expr, sympy.Expr]:
    """((eps coth(eps/2))^2, (pi/2)(eps coth(eps/2))^2): R(d, eps) lies in [low, high) for every
    d >= 1, low attained at d = 1 (module docstring: g(d) in [1, pi/2))."""
    e = _level(eps)
    low = (e * sympy.coth(e / 2)) ** 2
    return low, sympy.pi / 2 * low


def small_eps_supremum() -> sympy.Expr:
    """(pi/2) coth(1/2)^2 = sup{R(d, eps) : d >= 1, 0 < eps <= 1} (not attained; module docstring)."""
    return sympy.pi / 2 * sympy.coth(sympy.Rational(1, 2)) ** 2


def ldp_rate(d: int, eps: Any, n: Any) -> sympy.Rational:
    """min{d, d^2/(n eps^2)}: the order of Duchi et al.'s eps-LDP minimax lower bound for the mean
    over [-1, 1]^d in squared l2 (eps in (0, 1]; the form as cited, universal constant dropped)."""
    d = _dimension(d, "d")
    e = _level(eps)
    nn = _users(n)
    return sympy.Min(sympy.Integer(d), sympy.Integer(d) ** 2 / (nn * e ** 2))


def projected_upper_bound(d: int, eps: Any, n: Any, q: Any = 0) -> sympy.Expr:
    """min{sup MSE, 4 d}: an upper bound on M_mean's projected MSE at c = eps 1 (module docstring)."""
    d = _dimension(d, "d")
    alloc = no_demand_allocation(d, eps, q)
    return sympy.Min(mse_sup(list(alloc.c_sorted), _users(n)), 4 * d)


def gap_to_ldp_rate(d: int, eps: Any, n: Any, q: Any = 0) -> sympy.Expr:
    """:func:`projected_upper_bound` / :func:`ldp_rate`: how far M_mean at zeta = 1 is from the
    eps-LDP rate (at most max(R, 4); <= max((pi/2) coth(1/2)^2, 4) for eps <= 1)."""
    return projected_upper_bound(d, eps, n, q) / ldp_rate(d, eps, n)
