"""From coordinate DP and dependence to BCDP: Proposition 4 and Proposition 6 (Appendix A.4-A.5).

Proposition 4.  If M is c-CDP and the prior satisfies eq. (13) with bounds q_i, then
  (1) M is (sum_i c_i)-LDP and delta-BCDP with delta_i = c_i + log(1 + q_i e^{sum_{j != i} c_j} - q_i);
  (2) if M is also eps-LDP, it is delta'-BCDP with delta'_i = min{c_i + log(1 + q_i e^eps - q_i), eps}.
Proposition 6.  With A_delta[i, i] = 1/delta_i and A_delta[i, j] = 1/log(1 + (e^{delta_i} - 1)/q_i)
(j != i), A_delta c <= 1 implies delta_i >= c_i + log(1 + q_i e^{sum_{j != i} c_j} - q_i) for all i.

Exact versions take and return sympy expressions (c_i may be logs of rationals, as produced by
:func:`bcdp.bayesian.notions.cdp_vector`); ``*_float`` versions take floats.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np
import sympy

from bcdp.core.intervals import as_sympy, compare


def _check(c: Sequence[Any], q: Sequence[Any]) -> tuple[list[sympy.Expr], list[sympy.Expr]]:
    cs, qs = [as_sympy(v) for v in c], [as_sympy(v) for v in q]
    if len(cs) != len(qs):
        raise ValueError(f"c has {len(cs)} entries but q has {len(qs)}")
    for i, v in enumerate(cs):
        if v is not sympy.oo and compare(v, 0) < 0:
            raise ValueError(f"c[{i}] = {v} is negative")
    for i, v in enumerate(qs):
        if compare(v, 0) < 0 or compare(v, 1) > 0:
            raise ValueError(f"q[{i}] = {v} is not in [0, 1]")
    return cs, qs


def prop4_bcdp_bound(c: Sequence[Any], q: Sequence[Any], eps: Any | None = None) -> list[sympy.Expr]:
    """Proposition 4: part (1) when ``eps`` is None, part (2) otherwise (exact, sympy).

    Infinite c entries give infinite bounds (part 1); part 2 caps every bound at eps.
    """
    cs, qs = _check(c, q)
    out = []
    if eps is None:
        for i in range(len(cs)):
            rest = [cs[j] for j in range(len(cs)) if j != i]
            if cs[i] is sympy.oo or (any(r is sympy.oo for r in rest) and qs[i] != 0):
                out.append(sympy.oo)
                continue
            s = sympy.Add(*rest) if rest else sympy.Integer(0)
            out.append(cs[i] + sympy.log(1 + qs[i] * sympy.exp(s) - qs[i]))
        return out
    e = as_sympy(eps)
    if compare(e, 0) < 0:
        raise ValueError("eps must be non-negative")
    for i in range(len(cs)):
        if cs[i] is sympy.oo:
            out.append(e)
            continue
        bound = cs[i] + sympy.log(1 + qs[i] * sympy.exp(e) - qs[i])
        out.append(bound if compare(bound, e) <= 0 else e)
    return out


def prop4_ldp_bound(c: Sequence[Any]) -> sympy.Expr:
    """Proposition 4 (1), first claim: a c-CDP mechanism on a product domain is (sum c)-LDP."""
    cs = [as_sympy(v) for v in c]
    return sympy.oo if any(v is sympy.oo for v in cs) else sympy.Add(*cs)


def prop4_bcdp_bound_float(c: Sequence[float], q: Sequence[float], eps: float | None = None) -> np.ndarray:
    """float64 twin of :func:`prop4_bcdp_bound` (log1p/expm1 form: c_i + log1p(q_i expm1(s)))."""
    c_arr, q_arr = np.asarray(c, dtype=float), np.asarray(q, dtype=float)
    if c_arr.shape != q_arr.shape:
        raise ValueError("c and q must have the same shape")
    if np.any(np.isnan(c_arr)) or np.any(c_arr < 0):
        raise ValueError("c must be non-negative and not NaN")
    if np.any(np.isnan(q_arr)) or np.any((q_arr < 0) | (q_arr > 1)):
        raise ValueError("q must lie in [0, 1]")
    if eps is None:
        rest = c_arr.sum() - c_arr
        with np.errstate(over="ignore"):
            return c_arr + np.log1p(q_arr * np.expm1(rest))
    if not eps >= 0:
        raise ValueError("eps must be non-negative")
    return np.minimum(c_arr + np.log1p(q_arr * math.expm1(eps)), eps)


def prop6_matrix(delta: Sequence[Any], q: Sequence[Any]) -> sympy.Matrix:
    """eq. (53): A_delta (exact).  Requires delta_i > 0; q_i = 0 gives off-diagonal 0 (the limit)."""
    ds, qs = [as_sympy(v) for v in delta], [as_sympy(v) for v in q]
    n = len(ds)
    if len(qs) != n:
        raise ValueError("delta and q must have the same length")
    for i, v in enumerate(ds):
        if compare(v, 0) <= 0:
            raise ValueError(f"delta[{i}] = {v} must be positive for A_delta")
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
    """Certified check of A_delta c <= 1 (every row)."""
    A = prop6_matrix(delta, q)
    cs = [as_sympy(v) for v in c]
    return all(compare(sum((A[i, j] * cs[j] for j in range(len(cs))), sympy.Integer(0)), 1) <= 0
               for i in range(len(cs)))


def prop4_bound_ratios(c_ratios: Sequence[Any], q: Sequence[Any],
                       ldp_ratio: Any | None = None) -> list:
    """Proposition 4 as exact ratios e^{delta_i} when every c_i = log r_i with r_i rational.

    Part (1): r_i (1 + q_i (prod_{j != i} r_j - 1)); part (2) (``ldp_ratio`` = e^eps given):
    min{r_i (1 + q_i (e^eps - 1)), e^eps}.  Infinite inputs (:data:`bcdp.core.numbers.INFINITY`)
    propagate.  This is what lets the checks compare Prop. 4 with the exact engine in rationals.
    """
    from fractions import Fraction

    from bcdp.core.numbers import INFINITY, to_fraction

    def frac(v, name):
        return INFINITY if v == INFINITY else to_fraction(v, name)

    rs = [frac(v, f"c_ratios[{i}]") for i, v in enumerate(c_ratios)]
    qs = [to_fraction(v, f"q[{i}]") for i, v in enumerate(q)]
    if len(rs) != len(qs):
        raise ValueError("c_ratios and q must have the same length")
    for i, r in enumerate(rs):
        if r != INFINITY and r < 1:
            raise ValueError(f"c_ratios[{i}] = {r} < 1 (c_i would be negative)")
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
    for i, r in enumerate(rs):
        if e == INFINITY:
            out.append(INFINITY if r == INFINITY or qs[i] > 0 else r)
        elif r == INFINITY:
            out.append(e)
        else:
            out.append(min(r * (1 + qs[i] * (e - 1)), e))
    return out
