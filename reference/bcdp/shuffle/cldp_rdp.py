"""Thesis Thm 5.4.3 (privacy of CLDP-SGD via RDP): eps = min_alpha T eps(alpha) + [log(1/delta) +
(alpha-1) log(1 - 1/alpha) - log alpha]/(alpha-1) (eq. (5.41)), eps(alpha) the subsampled-shuffle RDP.

k of n clients per round (gamma = k/n, uniform without replacement), one eps0-LDP report each, shuffled;
T rounds (RDP composition, Lemma 2.1.4), then the conversion (5.41) (= CKS20 Prop. 12,
:func:`bcdp.accounting.conversion.rdp_to_dp` with ``method="cks"``, certified at the optimal order).
Neighbouring: replacement of one record.  ``bound="thm541"`` (default) uses the upper bound of
Thm 5.4.1 (float64 :func:`bcdp.shuffle.float_bounds.thm541_upper_float` for the search over alpha,
arb enclosures :func:`bcdp.shuffle.subsampled_balls.thm541_ball` for the certified value) -- the
accountant of Thm 5.4.3;
``bound="thm542"`` uses the lower bound of Thm 5.4.2 (:func:`bcdp.shuffle.subsampled_bounds.thm542_lower`,
30 digits): the best value the RDP route could ever give for these parameters (not a lower bound on
the DP epsilon), so ``thm541 >= thm542`` is a consistency check of the accountant.
Orders: integers (Thm 5.4.1 needs integer alpha >= 2), by default 2..256 and {300, 400, 512, 768, 1024}
(the grid of :mod:`bcdp.repro.shuffle_figures`).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Sequence

import numpy as np

from bcdp.accounting.conversion import rdp_to_dp
from bcdp.accounting.curves import rdp_curve_from_arrays
from bcdp.accounting.search import first_index_reaching
from bcdp.core.errors import InvalidInputError
from bcdp.core.results import Certified

DEFAULT_ORDERS = tuple(range(2, 257)) + (300, 400, 512, 768, 1024)
BOUNDS = ("thm541", "thm542")


def _orders(orders: Sequence[int] | None) -> np.ndarray:
    o = DEFAULT_ORDERS if orders is None else tuple(orders)
    if not o or any(isinstance(a, bool) or not isinstance(a, (int, np.integer)) or a < 2 for a in o):
        raise InvalidInputError("orders must be a non-empty sequence of integers >= 2")
    return np.array(sorted(set(int(a) for a in o)), dtype=np.int64)


def subsampled_rdp_curve(n: int, k: int, eps0: float, *, bound: str = "thm541",
                         orders: Sequence[int] | None = None, certified: bool = True):
    """The per-round RDP curve of the k-of-n subsampled shuffle at integer orders (Thm 5.4.1 upper or
    Thm 5.4.2 lower bound) as an :class:`bcdp.accounting.curves.RdpCurve`.  ``certified=False`` (Thm
    5.4.1 only) skips the arb enclosures: the float64 values are then taken as exact upper bounds (the
    curve's ``assumption`` says so; they can be ~1e-15 relative below the exact bound)."""
    if bound not in BOUNDS:
        raise InvalidInputError(f"bound must be one of {BOUNDS}, got {bound!r}")
    o = _orders(orders)
    if isinstance(eps0, bool) or not isinstance(eps0, (int, float)):
        raise InvalidInputError(f"eps0 must be a float or int, got {type(eps0).__name__}")
    if not math.isfinite(eps0):
        raise InvalidInputError(f"eps0 must be finite, got {eps0!r}")
    e = Fraction(eps0)                      # the exact binary value of the float
    if bound == "thm541":
        from bcdp.shuffle.float_bounds import thm541_upper_float
        from bcdp.shuffle.subsampled_balls import thm541_ball

        vals = thm541_upper_float(n, k, eps0, o)
        if not certified:
            return rdp_curve_from_arrays([float(a) for a in o], [float(v) for v in vals],
                                         label=f"Thm 5.4.1 float64 (n={n}, k={k}, eps0={eps0})",
                                         source="thesis Thm 5.4.1")
        balls = [thm541_ball(n, k, e, int(a)) for a in o]
        return rdp_curve_from_arrays([float(a) for a in o], [float(v) for v in vals], certified_values=balls,
                                     label=f"Thm 5.4.1 (n={n}, k={k}, eps0={eps0})", source="thesis Thm 5.4.1")
    from bcdp.shuffle.subsampled_bounds import thm542_lower

    vals = [thm542_lower(n, k, e, int(a), dps=30) for a in o]
    return rdp_curve_from_arrays([float(a) for a in o], [float(v) for v in vals], certified_values=vals,
                                 label=f"Thm 5.4.2 (n={n}, k={k}, eps0={eps0})", source="thesis Thm 5.4.2")


def thm543_epsilon(n: int, k: int, eps0: float, T: int, delta: Any, *, bound: str = "thm541",
                   orders: Sequence[int] | None = None, certified: bool = True) -> Certified:
    """Thesis Thm 5.4.3, eq. (5.41): the central eps of T rounds of CLDP-SGD (k of n clients, eps0-LDP
    reports, shuffled) at ``delta``, certified at the optimal integer order (details: ``alpha_star``).
    ``bound``: module docstring; ``certified``: :func:`subsampled_rdp_curve`."""
    if isinstance(T, bool) or not isinstance(T, (int, np.integer)) or T < 1:
        raise InvalidInputError(f"T must be an integer >= 1, got {T!r}")
    curve = subsampled_rdp_curve(n, k, eps0, bound=bound, orders=orders, certified=certified).compose(int(T))
    return rdp_to_dp(curve, delta, method="cks", orders=[float(a) for a in _orders(orders)])


def first_units_reaching(n: int, k: int, eps0: float, delta: Any, target: float, max_units: int,
                         rounds_per_unit: int = 1) -> int | None:
    """The smallest number of units u in 1..max_units (u x ``rounds_per_unit`` rounds, e.g. epochs) at
    which Thm 5.4.3's eps (float64 curve, :func:`thm543_epsilon` with ``certified=False``) is >= target;
    None if it is still below at max_units (:func:`~bcdp.accounting.search.first_index_reaching`: eps increases with T)."""
    curve = subsampled_rdp_curve(n, k, eps0, certified=False)
    o = [float(a) for a in DEFAULT_ORDERS]

    def eps(u: int) -> float:
        return rdp_to_dp(curve.compose(u * rounds_per_unit), delta, method="cks", orders=o).upper

    return first_index_reaching(eps, target, max_units)


__all__ = ["BOUNDS", "DEFAULT_ORDERS", "first_units_reaching", "subsampled_rdp_curve", "thm543_epsilon"]
