"""The c-allocation of Theorem 2 (eq. 16) and the MSE objective of eq. (17), exactly (sympy).

BCDP paper, Sec. 4.  Given per-coordinate demands delta (BCDP), an LDP level eps, the dependence
bound q of Assumption 1 and zeta in (0, 1], Theorem 2 runs Mechanism 1 with

    c_d = min{ log((e^{zeta delta~_1} + q - 1)/q), delta~_d },     c_0 = 0,            (16)
    c_i = c_d                                   if c_d <= delta~_i,
    c_i = delta~_i - log(1 + q e^{c_d} - q)     otherwise          (i < d),

where delta~_i = min{delta_i, eps}.  The case split ``c_d <= delta~_i`` is decided exactly
(:func:`bcdp.core.intervals.compare`): at q = 1, zeta = 1 it is a tie (c_d = delta~_1) that a float
computation resolves by a rounding accident either way.

Conventions (documented choices):
* ``delta`` may be given in any order.  The paper assumes it non-decreasing ("without loss of
  generality"); we sort it stably, allocate, and map c back to the caller's order.  ``order``
  records the sorted positions: ``c[order[0]] <= c[order[1]] <= ...``, and Mechanism 1 must see
  the coordinates in that order.
* q = 0 makes the log term +infinity, so c_d = delta~_d and c_i = min{delta~_i, c_d}.
* delta_i > eps is allowed (delta~_i = eps).  zeta must lie in (0, 1]; q in [0, 1]; eps > 0;
  delta_i >= 0 (delta_1 = 0 gives c = 0 and an infinite objective).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bcdp.bayesian.exact_inputs import exact_expr, float_vector, rational
from bcdp.core.errors import (
    InvalidInputError,
    UndecidedComparison,
    ValidityConditionError,
)
from bcdp.core.intervals import compare, to_float
from bcdp.core.numbers import brief_number

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np
    import sympy


def validate_demands(delta: Sequence[Any], eps: Any, q: Any) -> tuple[list[sympy.Rational], sympy.Rational, sympy.Rational]:
    """Exact demands delta_i >= 0, LDP level eps > 0 and dependence bound q in [0, 1] (Theorem 2's
    setting; :mod:`bcdp.bayesian.exact_inputs`: floats refused)."""
    if isinstance(delta, (str, bytes)) or not isinstance(delta, Sequence):
        raise InvalidInputError(f"delta must be a sequence of demands, got {delta!r}")
    if len(delta) == 0:
        raise InvalidInputError("delta must have at least one coordinate")
    d_exact = [rational(v, f"delta[{i}]") for i, v in enumerate(delta)]
    for i, v in enumerate(d_exact):
        if v < 0:
            raise InvalidInputError(f"delta[{i}] = {brief_number(v)} is negative")
    e = rational(eps, "eps")
    if e <= 0:
        raise InvalidInputError(f"eps = {brief_number(e)} must be positive")
    qq = rational(q, "q")
    if not 0 <= qq <= 1:
        raise InvalidInputError(f"q = {brief_number(qq)} must lie in [0, 1]")
    return d_exact, e, qq


def sorted_order(delta: Sequence[sympy.Rational]) -> list[int]:
    """Stable argsort: positions of delta in non-decreasing order."""
    return sorted(range(len(delta)), key=lambda i: (delta[i], i))


@dataclass(frozen=True)
class BudgetAllocation:
    """Budgets c for Mechanism 1, exact; ``c`` in the caller's coordinate order."""

    delta: tuple[sympy.Rational, ...]
    eps: sympy.Rational
    q: sympy.Rational
    zeta: sympy.Expr | None
    method: str
    order: tuple[int, ...]
    c: tuple[sympy.Expr, ...]
    branches: tuple[str, ...] = field(default=())

    @property
    def c_sorted(self) -> tuple[sympy.Expr, ...]:
        return tuple(self.c[i] for i in self.order)

    @property
    def objective(self) -> sympy.Expr:
        return mse_objective(self.c_sorted)

    def to_json(self) -> dict[str, Any]:
        import sympy

        obj = self.objective
        return {
            "method": self.method,
            "delta": [str(v) for v in self.delta], "eps": str(self.eps), "q": str(self.q),
            "zeta": None if self.zeta is None else str(self.zeta),
            "order": list(self.order),
            "c": [{"exact": str(v), "float": json_float(to_float(v))} for v in self.c],
            "branches": list(self.branches),
            "objective": {"exact": str(obj), "float": "inf" if obj is sympy.oo else json_float(to_float(obj))},
        }


def json_float(x: float) -> float | str:
    """A float for strict JSON: infinities (an exact value beyond float64, e.g. the eq. (17)
    objective at tiny budgets) are written as the strings "inf" / "-inf"."""
    if x == float("inf"):
        return "inf"
    if x == float("-inf"):
        return "-inf"
    return x


def theorem2_c_d(delta_tilde_sorted: Sequence[sympy.Expr], q: sympy.Rational, zeta: sympy.Expr) -> tuple[sympy.Expr, str]:
    """c_d of eq. (16) and which term attains the min ('log-term', 'delta_d' or 'tie')."""
    import sympy

    last = delta_tilde_sorted[-1]
    if q == 0:
        return last, "delta_d"
    log_term = sympy.log((sympy.exp(zeta * delta_tilde_sorted[0]) + q - 1) / q)
    sign = _decide(log_term, last, "c_d's min in eq. (16)")
    if sign < 0:
        return log_term, "log-term"
    return last, "delta_d" if sign > 0 else "tie"


def _decide(a: sympy.Expr, b: sympy.Expr, what: str) -> int:
    """:func:`compare` with a short message when interval arithmetic cannot separate a and b."""
    try:
        return compare(a, b)
    except UndecidedComparison as exc:
        raise UndecidedComparison(
            f"cannot decide {what}: the two sides agree beyond 1000-bit interval precision "
            f"(tiny demands such as eps or delta_i near 1e-300 are beyond the exact engine's range)") from exc


def allocate_budgets(delta: Sequence[Any], eps: Any, q: Any, zeta: Any) -> BudgetAllocation:
    """Theorem 2, eq. (16): the budgets c (see the module docstring for conventions).

    Inputs are exact (:mod:`bcdp.bayesian.exact_inputs`; floats are refused with
    :class:`~bcdp.core.errors.FloatRefusedError`).
    """
    import sympy

    d_exact, e, qq = validate_demands(delta, eps, q)
    z = rational(zeta, "zeta")
    if not 0 < z <= 1:
        raise ValidityConditionError(f"zeta = {brief_number(z)} must lie in (0, 1] (Theorem 2, eq. (16))")
    order = sorted_order(d_exact)
    tilde = [sympy.Min(d_exact[i], e) for i in order]
    c_d, cd_branch = theorem2_c_d(tilde, qq, z)
    c_sorted: list[sympy.Expr] = []
    branches_sorted: list[str] = []
    for pos, dt in enumerate(tilde):
        if pos == len(tilde) - 1:
            c_sorted.append(c_d)
            branches_sorted.append(f"c_d ({cd_branch})")
        elif _decide(c_d, dt, f"the case split c_d <= delta~_{pos + 1} of eq. (16)") <= 0:
            c_sorted.append(c_d)
            branches_sorted.append("c_d <= delta~_i")
        else:
            c_sorted.append(dt - sympy.log(1 + qq * sympy.exp(c_d) - qq))
            branches_sorted.append("c_d > delta~_i")
    c = [sympy.Integer(0)] * len(order)
    branches = [""] * len(order)
    for pos, i in enumerate(order):
        c[i] = c_sorted[pos]
        branches[i] = branches_sorted[pos]
    return BudgetAllocation(tuple(d_exact), e, qq, z, "theorem2", tuple(order), tuple(c), tuple(branches))


def min_delta_baseline(delta: Sequence[Any], eps: Any, q: Any = 0) -> BudgetAllocation:
    """The (min_i delta_i)-LDP baseline of Sec. 3.2 / App. B.1: c_i = min(min delta, eps) for all i."""
    import sympy

    d_exact, e, qq = validate_demands(delta, eps, q)
    order = sorted_order(d_exact)
    level = sympy.Min(min(d_exact), e)
    return BudgetAllocation(tuple(d_exact), e, qq, None, "min-delta-ldp", tuple(order),
                            tuple(level for _ in d_exact), tuple("baseline" for _ in d_exact))


def stage_weights(c_sorted: Sequence[Any]) -> list[sympy.Expr]:
    """Mechanism 1's w_k = (c_k - c_{k-1})^2 / (d - k + 1), k = 1..d, with c_0 = 0 (c exact:
    rationals or closed forms, :func:`bcdp.bayesian.exact_inputs.exact_expr`)."""
    import sympy

    d = len(c_sorted)
    prev = sympy.Integer(0)
    out = []
    for k, ck in enumerate(c_sorted, start=1):
        ck = exact_expr(ck, f"c[{k - 1}]")
        out.append((ck - prev) ** 2 / (d - k + 1))
        prev = ck
    return out


def mse_objective(c_sorted: Sequence[Any]) -> sympy.Expr:
    """The sum in eq. (17): sum_i 1 / sum_{k<=i} (c_k - c_{k-1})^2/(d-k+1) (oo if a sum is 0).

    Without the hidden constant, the 1/n factor and the cap at d; see :func:`mse_bound_eq17`.
    """
    import sympy

    total = sympy.Integer(0)
    partial = sympy.Integer(0)
    for w in stage_weights(c_sorted):
        partial = partial + w
        if compare(partial, 0) == 0:
            return sympy.oo
        total = total + 1 / partial
    return total


def mse_bound_eq17(c_sorted: Sequence[Any], n: Any) -> sympy.Expr:
    """eq. (17)/(69) without its constant: min{(1/n) * mse_objective(c), d}."""
    import sympy

    nn = rational(n, "n")
    if nn <= 0:
        raise InvalidInputError("n must be positive")
    obj = mse_objective(c_sorted)
    d = len(c_sorted)
    if obj is sympy.oo:
        return sympy.Integer(d)
    return obj / nn if compare(obj / nn, d) <= 0 else sympy.Integer(d)


def mse_objective_float(c_sorted: Sequence[float] | np.ndarray) -> float:
    """float64 twin of :func:`mse_objective` (for optimisation loops; inputs through
    :func:`bcdp.core.numbers.to_float_input`)."""
    import numpy as np

    c = float_vector(c_sorted, "c_sorted")
    d = c.size
    inc = np.diff(np.concatenate(([0.0], c)))
    partial = np.cumsum(inc ** 2 / (d - np.arange(d)))
    if np.any(partial <= 0):
        return float("inf")
    return float(np.sum(1.0 / partial))
