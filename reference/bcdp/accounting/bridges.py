"""Bridges to dp_accounting: one accountant for bcdp RDP curves and dp_accounting events.

dp_accounting (Google's ``dp_accounting`` package) composes ``DpEvent`` objects in its
``RdpAccountant`` at a fixed list of orders; the composed RDP vector is public (``accountant.rdp`` at
``accountant.orders``), but there is no event for an arbitrary RDP curve, so a bcdp curve (shuffle,
partial DP, any :class:`~bcdp.accounting.curves.RdpCurve`) cannot be composed *inside* it without
writing a private field.  The bridge goes the other way and composes the events' RDP with the curve
in bcdp (RDP composition adds: Mironov 2017, Prop. 1), then converts with bcdp's certified
conversions:

* :func:`events_rdp_curve` -- the RDP curve of dp_accounting events at given orders (its
  ``RdpAccountant``'s values; dp_accounting's default orders, fractional ones included, by default);
* :func:`compose_with_events` -- (eps, delta) of a bcdp curve composed with dp_accounting events;
* :func:`to_dp_accounting_arrays` -- a bcdp curve as the (orders, rdp) arrays that dp_accounting's
  public ``compute_epsilon`` / ``compute_delta`` take, to continue there.

Soundness.  dp_accounting's values are floats computed by its own formulas; bcdp cannot certify them,
so they are taken as exact upper bounds, and every result says so in its ``assumption`` (the bcdp
curve keeps its certified enclosure).  Both sides must use the same neighbouring relation: the
relation is a required argument and is passed to the ``RdpAccountant``; the bcdp curve must be one for
that relation (the shuffle-model curves of thesis Ch. 5 are for replacing one user's report,
``"replace_one"``).

The OpenDP bridge (a curve as an OpenDP measurement, and back) is :mod:`bcdp.accounting.opendp_bridge`.
"""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction
from typing import Any, Sequence

from bcdp.accounting.curves import RdpCurve, compose, rdp_curve_from_arrays
from bcdp.accounting.inputs import check_alpha
from bcdp.core.errors import InvalidInputError
from bcdp.core.results import Certified

#: the neighbouring relations accepted (dp_accounting's NeighboringRelation members, by name)
RELATIONS = ("add_or_remove_one", "replace_one")
#: the assumption recorded whenever dp_accounting's values enter a result
DP_ACCOUNTING_ASSUMPTION = "dp_accounting's float RDP values of the events taken as exact upper bounds"


def _accountant(orders: Sequence[float] | None, relation: str) -> Any:
    try:
        from dp_accounting import NeighboringRelation
        from dp_accounting.rdp import RdpAccountant
    except ImportError as exc:                     # pragma: no cover - dp_accounting is a test dependency
        raise InvalidInputError("the dp_accounting bridge needs the package dp-accounting") from exc
    if relation not in RELATIONS:
        raise InvalidInputError(f"neighboring_relation must be one of {', '.join(RELATIONS)}, got {relation!r}")
    rel = NeighboringRelation.ADD_OR_REMOVE_ONE if relation == "add_or_remove_one" else NeighboringRelation.REPLACE_ONE
    if orders is not None:
        orders = [check_alpha(a) for a in orders]
        if not orders or len(set(orders)) != len(orders):
            raise InvalidInputError("orders must be a non-empty list of distinct orders > 1")
    return RdpAccountant(orders, rel)


def events_rdp_curve(events: Sequence[Any], neighboring_relation: str,
                     orders: Sequence[float] | None = None) -> RdpCurve:
    """The composed RDP curve of dp_accounting ``events`` (each a ``DpEvent``, or an ``(event, count)``
    pair) at ``orders`` (default: dp_accounting's ``DEFAULT_RDP_ORDERS``), from its ``RdpAccountant``.
    The values are dp_accounting's floats, read exactly and taken as exact upper bounds (the curve's
    assumption says so)."""
    acc = _accountant(orders, neighboring_relation)
    for item in events:
        event, count = item if isinstance(item, tuple) else (item, 1)
        if not acc.supports(event):
            raise InvalidInputError(f"dp_accounting's RdpAccountant does not support {type(event).__name__} "
                                    f"under {neighboring_relation}")
        acc.compose(event, count)
    values = [float(v) for v in acc.rdp]
    if any(not v >= 0 for v in values):
        raise InvalidInputError("dp_accounting returned a negative or NaN RDP value")
    if any(math.isinf(v) for v in values):
        raise InvalidInputError("dp_accounting's RDP of the events is infinite at some order: pass orders "
                                "where it is finite")
    curve = rdp_curve_from_arrays([float(a) for a in acc.orders], values,
                                  certified_values=[Fraction(v) for v in values],
                                  label=f"dp_accounting events ({len(events)})",
                                  source="dp_accounting RdpAccountant")
    return dataclasses.replace(curve, assumption=DP_ACCOUNTING_ASSUMPTION)


def compose_with_events(curve: RdpCurve, events: Sequence[Any], delta: Any, neighboring_relation: str,
                        orders: Sequence[float] | None = None, method: str = "best") -> Certified:
    """(eps, delta) of ``curve`` composed with dp_accounting ``events`` (module docstring), at the orders
    given (default: dp_accounting's default orders where the curve is defined).  ``method``: a
    conversion of :mod:`bcdp.accounting.conversion` or ``"best"`` (:mod:`bcdp.accounting.tightest`)."""
    from bcdp.accounting.conversion import rdp_to_dp

    if not isinstance(curve, RdpCurve):
        raise InvalidInputError(f"curve must be an RdpCurve, got {type(curve).__name__}")
    # defined on the orders the two curves share (the events' ones for a curve known at every order;
    # compose refuses two array curves with none in common), and converted on exactly those
    total = compose(curve, events_rdp_curve(events, neighboring_relation, orders))
    if method == "best":
        from bcdp.accounting.tightest import tightest_rdp_to_dp

        return tightest_rdp_to_dp(total, delta)
    return rdp_to_dp(total, delta, method)


def to_dp_accounting_arrays(curve: RdpCurve, orders: Sequence[float] | None = None) -> tuple[list[float], list[float]]:
    """(orders, rdp) of ``curve`` for dp_accounting's ``compute_epsilon(orders, rdp, delta)`` and
    ``compute_delta``: the certified upper ends rounded up where the curve is certified, its floats
    otherwise (default orders: the curve's own, or dp_accounting's ``DEFAULT_RDP_ORDERS``)."""
    from bcdp.core.intervals import arb_precision, ball_upper, float_up

    if not isinstance(curve, RdpCurve):
        raise InvalidInputError(f"curve must be an RdpCurve, got {type(curve).__name__}")
    if orders is None:
        if curve.orders is not None:
            orders = list(curve.orders)
        else:
            from dp_accounting.rdp.rdp_privacy_accountant import DEFAULT_RDP_ORDERS

            orders = [float(a) for a in DEFAULT_RDP_ORDERS]
    out_orders, out_rdp = [], []
    for a in orders:
        a = check_alpha(a)
        if curve.certified is None:
            value = curve(a)
        else:
            with arb_precision(128):
                ball = curve.enclosure(a)
                value = float_up(ball_upper(ball)) if ball.is_finite() else float("inf")
        out_orders.append(a)
        out_rdp.append(value)
    return out_orders, out_rdp


__all__ = ["DP_ACCOUNTING_ASSUMPTION", "RELATIONS", "compose_with_events", "events_rdp_curve",
           "to_dp_accounting_arrays"]
