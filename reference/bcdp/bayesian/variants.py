"""Formula variants found in the wild, kept as explicit, documented alternatives ("bad twins").

They exist so that checks can show how, and by how much, they differ from the paper's formulas.

* :func:`allocation_public_code_float` - the c-allocation as described for the BCDP authors'
  public code (syomantak/BCDP-CodeBase @0914cd4, ``trial.py``, the Fig. 3 experiment of App. B.1):
  float64 arithmetic and a strict ``c_d < delta~_i`` where eq. (16)
  has ``c_d <= delta~_i``; delta is capped at eps first (``delta[i] = min(delta[i], eps)`` in
  ``bdp_improved_vk``), as in eq. (16).  At q = 1, zeta = 1 the exact split is a
  tie; float64 computes c_d = 0.19999999999999984 < 0.2 and so returns the paper's c_1 = 0.2 only
  by a rounding accident (exact arithmetic with the strict test gives c_1 = 0).
* :func:`allocation_exact_strict` - eq. (16) with the strict test, in exact arithmetic.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import sympy

from bcdp.bayesian.allocation import BudgetAllocation, sorted_order, validate_demands
from bcdp.bayesian.exact_inputs import exact_expr, float_vector
from bcdp.core.intervals import compare
from bcdp.core.numbers import to_float_input


def allocation_public_code_float(delta: Sequence[float], eps: float, q: float, zeta: float) -> list[float]:
    """float64, strict-< variant (sorted delta assumed, as in the public code, which first caps
    ``delta[i] = min(delta[i], eps)``, i.e. delta~ of eq. (16)).  Inputs through
    :func:`bcdp.core.numbers.to_float_input`.  ``zeta`` is a parameter here; the public code fixes
    it to (1 + q)/2."""
    e = to_float_input(eps, "eps")
    d = [min(float(v), e) for v in float_vector(delta, "delta")]
    q = to_float_input(q, "q")
    zeta = to_float_input(zeta, "zeta")
    if q == 0:
        c_d = d[-1]
    else:
        c_d = min(d[-1], math.log((math.exp(zeta * d[0]) + q - 1) / q))
    return [c_d if (c_d < di or i == len(d) - 1) else di - math.log(1 - q + q * math.exp(c_d))
            for i, di in enumerate(d)]


def allocation_exact_strict(delta: Sequence[Any], eps: Any, q: Any, zeta: Any) -> BudgetAllocation:
    """eq. (16) with ``c_d < delta~_i`` (strict) in exact arithmetic (exact inputs; floats refused)."""
    d_exact, e, qq = validate_demands(delta, eps, q)
    z = exact_expr(zeta, "zeta")
    order = sorted_order(d_exact)
    tilde = [sympy.Min(d_exact[i], e) for i in order]
    if qq == 0:
        c_d = tilde[-1]
    else:
        log_term = sympy.log((sympy.exp(z * tilde[0]) + qq - 1) / qq)
        c_d = log_term if compare(log_term, tilde[-1]) < 0 else tilde[-1]
    c_sorted = [c_d if (pos == len(tilde) - 1 or compare(c_d, dt) < 0)
                else dt - sympy.log(1 + qq * sympy.exp(c_d) - qq)
                for pos, dt in enumerate(tilde)]
    c = [sympy.Integer(0)] * len(order)
    for pos, i in enumerate(order):
        c[i] = c_sorted[pos]
    return BudgetAllocation(tuple(d_exact), e, qq, z, "theorem2-strict", tuple(order), tuple(c))
