"""From coordinate DP and dependence to BCDP: Proposition 4 and Proposition 6 (Appendix A.4-A.5).

Proposition 4.  If M is c-CDP and the prior satisfies eq. (13) with bounds q_i, then
  (1) M is (sum_i c_i)-LDP and delta-BCDP with delta_i = c_i + log(1 + q_i e^{sum_{j != i} c_j} - q_i);
  (2) if M is also eps-LDP, it is delta'-BCDP with delta'_i = min{c_i + log(1 + q_i e^eps - q_i), eps}.
Proposition 6.  With A_delta[i, i] = 1/delta_i and A_delta[i, j] = 1/log(1 + (e^{delta_i} - 1)/q_i)
(j != i), A_delta c <= 1 implies delta_i >= c_i + log(1 + q_i e^{sum_{j != i} c_j} - q_i) for all i.

BCDP paper, arXiv:2410.18404, Sec. 3.4 and App. A.4-A.5.  Exact versions take and return sympy
expressions: inputs are rationals (ints, Fractions, strings such as "1/2") or exact sympy closed
forms (c_i may be logs of rationals, as produced by :func:`bcdp.bayesian.notions.cdp_vector`);
floats are refused (:mod:`bcdp.bayesian.exact_inputs`).  ``*_float`` versions take floats
(:func:`bcdp.core.numbers.to_float_input`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from bcdp.bayesian.exact_inputs import exact_expr, float_vector
from bcdp.core.errors import InvalidInputError
from bcdp.core.intervals import compare
from bcdp.core.numbers import INFINITY, to_float_input, to_fraction, to_probability

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np
    import sympy


def _exact_list(values: Sequence[Any], name: str) -> list[sympy.Expr]:
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
        raise InvalidInputError(f"{name} must be a sequence, got {values!r}")
    return [exact_expr(v, f"{name}[{i}]") for i, v in enumerate(values)]


def _check(c: Sequence[Any], q: Sequence[Any]) -> tuple[list[sympy.Expr], list[sympy.Expr]]:
    import sympy

    cs, qs = _exact_list(c, "c"), _exact_list(q, "q")
    if len(cs) != len(qs):
        raise InvalidInputError(f"c has {len(cs)} entries but q has {len(qs)}")
    for i, v in enumerate(cs):
        if v is not sympy.oo and compare(v, 0) < 0:
            raise InvalidInputError(f"c[{i}] = {v} is negative")
    for i, v in enumerate(qs):
        if compare(v, 0) < 0 or compare(v, 1) > 0:
            raise InvalidInputError(f"q[{i}] = {v} is not in [0, 1]")
    return cs, qs


def prop4_bcdp_bound(c: Sequence[Any], q: Sequence[Any], eps: Any | None = None) -> list[sympy.Expr]:
    """Proposition 4: part (1) when ``eps`` is None, part (2) otherwise (exact, sympy).

    Infinite c entries give infinite bounds (part 1); part 2 caps every bound at eps.
    """
    import sympy

    cs, qs = _check(c, q)
    out = []
    if eps is None:
        for i in range(len(cs)):
            rest = [cs[j] for j in range(len(cs)) if j != i]
            if cs[i] is sympy.oo or (any(r is sympy.oo for r in rest) and qs[i] != 0):
                out.append(sympy.oo)
                continue
            if qs[i] == 0:   # log(1 + 0 e^s - 0) = 0, also for s = oo (sympy reads 0 * oo as nan)
                out.append(cs[i])
                continue
            s = sympy.Add(*rest) if rest else sympy.Integer(0)
            out.append(cs[i] + sympy.log(1 + qs[i] * sympy.exp(s) - qs[i]))
        return out
    e = exact_expr(eps, "eps")
    if compare(e, 0) < 0:
        raise InvalidInputError("eps must be non-negative")
    for i in range(len(cs)):
        if cs[i] is sympy.oo:
            out.append(e)
            continue
        bound = cs[i] + sympy.log(1 + qs[i] * sympy.exp(e) - qs[i])
        out.append(bound if compare(bound, e) <= 0 else e)
    return out


def prop4_ldp_bound(c: Sequence[Any]) -> sympy.Expr:
    """Proposition 4 (1), first claim: a c-CDP mechanism on a product domain is (sum c)-LDP."""
    import sympy

    cs = _exact_list(c, "c")
    return sympy.oo if any(v is sympy.oo for v in cs) else sympy.Add(*cs)


def prop4_bcdp_bound_float(c: Sequence[float], q: Sequence[float], eps: float | None = None) -> np.ndarray:
    """float64 twin of :func:`prop4_bcdp_bound` (log1p/expm1 form: c_i + log1p(q_i expm1(s))).

    Inputs through :func:`bcdp.core.numbers.to_float_input` (floats, ints, Fractions, strings).
    """
    import numpy as np

    c_arr, q_arr = float_vector(c, "c"), float_vector(q, "q")
    if c_arr.shape != q_arr.shape:
        raise InvalidInputError("c and q must have the same shape")
    if np.any(c_arr < 0):
        raise InvalidInputError("c must be non-negative and not NaN")
    if np.any((q_arr < 0) | (q_arr > 1)):
        raise InvalidInputError("q must lie in [0, 1]")
    if eps is None:
        # sum_{j != i} c_j without inf - inf: +inf when another entry is infinite
        inf = np.isinf(c_arr)
        finite = np.where(inf, 0.0, c_arr)
        rest = np.where(inf.sum() - inf > 0, np.inf, finite.sum() - finite)
        with np.errstate(over="ignore", invalid="ignore"):
            # q_i = 0: the log term is log(1) = 0 even when the rest is infinite (not 0 * inf = nan)
            term = np.where(q_arr == 0, 0.0, q_arr * np.expm1(rest))
            return c_arr + np.log1p(term)
    eps = to_float_input(eps, "eps")
    if not eps >= 0:
        raise InvalidInputError("eps must be non-negative")
    return np.minimum(c_arr + np.log1p(q_arr * math.expm1(eps)), eps)


def prop6_matrix(delta: Sequence[Any], q: Sequence[Any]) -> sympy.Matrix:
    """eq. (53): A_delta (exact).  Requires delta_i > 0; q_i = 0 gives off-diagonal 0 (the limit)."""
    import sympy

    ds, qs = _exact_list(delta, "delta"), _exact_list(q, "q")
    n = len(ds)
    if len(qs) != n:
        raise InvalidInputError("delta and q must have the same length")
    for i, v in enumerate(ds):
        if compare(v, 0) <= 0:
            raise InvalidInputError(f"delta[{i}] = {v} must be positive for A_delta")
    rows = []
    for i in range(n):
        row = []
        for j in range(n):
            if i == j:
                row.append(1 / ds[i])
            elif qs[i] == 0:
                row.append(sympy.Integer(0))
            else:
                row.append(1 / sympy.log(1 + (sympy.exp(ds[i]) - 1) / qs[i]))
        rows.append(row)
    return sympy.Matrix(rows)


def prop6_condition_holds(delta: Sequence[Any], q: Sequence[Any], c: Sequence[Any]) -> bool:
    """Certified check of A_delta c <= 1 (every row; c has one entry per coordinate of delta)."""
    import sympy

    A = prop6_matrix(delta, q)
    cs = _exact_list(c, "c")
    if len(cs) != A.rows:
        raise InvalidInputError(f"c has {len(cs)} entries but delta has {A.rows}")
    return all(compare(sum((A[i, j] * cs[j] for j in range(len(cs))), sympy.Integer(0)), 1) <= 0
               for i in range(len(cs)))


def prop4_bound_ratios(c_ratios: Sequence[Any], q: Sequence[Any],
                       ldp_ratio: Any | None = None) -> list:
    """Proposition 4 as exact ratios e^{delta_i} when every c_i = log r_i with r_i rational.

    Part (1): r_i (1 + q_i (prod_{j != i} r_j - 1)); part (2) (``ldp_ratio`` = e^eps given):
    min{r_i (1 + q_i (e^eps - 1)), e^eps}.  Infinite inputs (:data:`bcdp.core.numbers.INFINITY`)
    propagate.  This is what lets the checks compare Prop. 4 with the exact engine in rationals.
    """
    def frac(v, name):
        return INFINITY if v == INFINITY else to_fraction(v, name)

    rs = [frac(v, f"c_ratios[{i}]") for i, v in enumerate(c_ratios)]
    qs = [to_probability(v, f"q[{i}]") for i, v in enumerate(q)]
    if len(rs) != len(qs):
        raise InvalidInputError("c_ratios and q must have the same length")
    for i, r in enumerate(rs):
        if r != INFINITY and r < 1:
            raise InvalidInputError(f"c_ratios[{i}] = {r} < 1 (c_i would be negative)")
    out = []
    if ldp_ratio is None:
        for i, r in enumerate(rs):
            others = [rs[j] for j in range(len(rs)) if j != i]
            if r == INFINITY or (INFINITY in others and qs[i] > 0):
                out.append(INFINITY)
                continue
            prod = Fraction(1)
            for o in others:
                prod *= 1 if o == INFINITY else o  # q_i = 0 here when o is infinite
            out.append(r * (1 + qs[i] * (prod - 1)))
        return out
    e = frac(ldp_ratio, "ldp_ratio")
    if e != INFINITY and e < 1:
        raise InvalidInputError(f"ldp_ratio = {e} < 1 (eps would be negative)")
    for i, r in enumerate(rs):
        if e == INFINITY:
            out.append(INFINITY if r == INFINITY or qs[i] > 0 else r)
        elif r == INFINITY:
            out.append(e)
        else:
            out.append(min(r * (1 + qs[i] * (e - 1)), e))
    return out
