"""A bridge to OpenDP: a bcdp RDP curve as an OpenDP measurement, and OpenDP Renyi / zCDP curves as
bcdp curves.

OpenDP (0.16) has the privacy measure ``RenyiDivergence`` whose distances are curves alpha -> eps; its
``make_composition`` adds them (RDP composition, Mironov 2017, Prop. 1).  A curve from outside enters
through a user measurement (``opendp.measurements.make_user_measurement``, behind OpenDP's "contrib"
and "honest-but-curious" features, which :func:`to_opendp_measurement` enables):

* :func:`to_opendp_measurement` -- the privacy map sends d_in = 0 to the zero curve and d_in = 1 (one
  neighbouring step of ``neighboring_relation``: ``"replace_one"`` is OpenDP's ``change_one_distance``,
  ``"add_or_remove_one"`` its ``symmetric_distance``) to alpha -> a float upper bound of the curve at
  alpha: the certified upper end rounded up (:func:`bcdp.core.intervals.float_up`) for a certified
  curve, the float value otherwise (the curve's assumption then applies).  A curve known at finitely
  many orders answers at alpha with its value at the smallest order >= alpha, which bounds
  D_alpha because the Renyi divergence is nondecreasing in its order (van Erven & Harremoes 2014,
  IEEE Trans. Inf. Theory 60(7), Thm. 3), and +inf above its largest order.  Larger d_in are refused:
  group privacy does not follow from the curve alone.  The measurement's function is the caller's
  (``function``); by default it refuses to run: the measurement is for accounting, not for release.
* :func:`rdp_curve_from_opendp` -- the curve of an OpenDP measurement (RenyiDivergence, or
  ZeroConcentratedDivergence read as rho alpha) at d_in, tabulated at given orders, as a bcdp curve
  whose float values are taken as exact upper bounds (its assumption says so), to convert with
  bcdp's certified conversions.
"""

from __future__ import annotations

import bisect
import dataclasses
import math
from typing import Any, Callable, Sequence

from bcdp.accounting.curves import RdpCurve, rdp_curve_from_arrays
from bcdp.accounting.inputs import check_alpha
from bcdp.core.errors import InvalidInputError

#: the neighbouring relations and the OpenDP input metric of each (by constructor name)
METRICS = {"replace_one": "change_one_distance", "add_or_remove_one": "symmetric_distance"}
#: the assumption recorded on a curve read from OpenDP
OPENDP_ASSUMPTION = "OpenDP's float RDP values taken as exact upper bounds"
#: default orders at which an OpenDP curve is tabulated (those of dp_accounting's RdpAccountant)
DEFAULT_ORDERS = tuple([1 + x / 10.0 for x in range(1, 100)] + [float(a) for a in range(11, 64)]
                       + [128.0, 256.0, 512.0, 1024.0])


def _opendp() -> Any:
    try:
        import opendp.prelude as dp
    except ImportError as exc:                     # pragma: no cover - opendp is a test dependency
        raise InvalidInputError("the OpenDP bridge needs the package opendp") from exc
    dp.enable_features("contrib", "honest-but-curious")
    return dp


def curve_upper_function(curve: RdpCurve) -> Callable[[float], float]:
    """alpha -> a float upper bound of ``curve`` at alpha (module docstring: rounded-up certified
    upper ends, the next order of an array curve, +inf above its last order)."""
    from bcdp.core.intervals import arb_precision, ball_upper, float_up

    if not isinstance(curve, RdpCurve):
        raise InvalidInputError(f"curve must be an RdpCurve, got {type(curve).__name__}")
    orders = sorted(curve.orders) if curve.orders is not None else None

    def at(order: float) -> float:
        if curve.certified is None:
            return curve(order)
        with arb_precision(128):
            ball = curve.enclosure(order)
            return float_up(ball_upper(ball)) if ball.is_finite() else math.inf

    def upper(alpha: float) -> float:
        a = check_alpha(float(alpha))
        if orders is None:
            return at(a)
        i = bisect.bisect_left(orders, a)
        return at(orders[i]) if i < len(orders) else math.inf
    return upper


def to_opendp_measurement(curve: RdpCurve, neighboring_relation: str, input_domain: Any = None,
                          function: Callable[[Any], Any] | None = None) -> Any:
    """An OpenDP measurement with output measure RenyiDivergence whose privacy map is ``curve``
    (module docstring).  ``input_domain`` defaults to vectors of integers; ``function`` (the
    mechanism) defaults to one that refuses to run."""
    dp = _opendp()
    if neighboring_relation not in METRICS:
        raise InvalidInputError(f"neighboring_relation must be one of {', '.join(METRICS)}, got {neighboring_relation!r}")
    upper = curve_upper_function(curve)
    metric = getattr(dp, METRICS[neighboring_relation])()
    domain = dp.vector_domain(dp.atom_domain(T=int)) if input_domain is None else input_domain

    def privacy_map(d_in: Any) -> Callable[[float], float]:
        if d_in == 0:
            return lambda alpha: 0.0
        if d_in == 1:
            return upper
        raise ValueError(f"bcdp curves bound one neighbouring step (d_in <= 1), got d_in = {d_in!r}")

    def refuse(data: Any) -> Any:
        raise ValueError(f"accounting-only measurement of the bcdp curve {curve.label}: pass function= to release")

    return dp.m.make_user_measurement(domain, metric, dp.renyi_divergence(),
                                      function=refuse if function is None else function, privacy_map=privacy_map)


def rdp_curve_from_opendp(measurement: Any, d_in: Any = 1, orders: Sequence[float] | None = None) -> RdpCurve:
    """The RDP curve of an OpenDP ``measurement`` at ``d_in`` on ``orders`` (default
    :data:`DEFAULT_ORDERS`), as a bcdp array curve with the assumption :data:`OPENDP_ASSUMPTION`.
    Output measures: RenyiDivergence (its curve) and ZeroConcentratedDivergence (rho alpha)."""
    measure = str(measurement.output_measure)
    if not (measure.startswith("RenyiDivergence") or measure.startswith("ZeroConcentratedDivergence")):
        raise InvalidInputError(f"the measurement's output measure is {measure}: RenyiDivergence or "
                                "ZeroConcentratedDivergence is needed")
    orders = [check_alpha(a) for a in (DEFAULT_ORDERS if orders is None else orders)]
    if not orders or len(set(orders)) != len(orders):
        raise InvalidInputError("orders must be a non-empty list of distinct orders > 1")
    out = measurement.map(d_in)
    if measure.startswith("RenyiDivergence"):
        values = [float(out(a)) for a in orders]
    else:
        values = [float(out) * a for a in orders]
    curve = rdp_curve_from_arrays(orders, values, label=f"OpenDP {measure} at d_in = {d_in}", source="OpenDP")
    return dataclasses.replace(curve, assumption=OPENDP_ASSUMPTION)


__all__ = ["DEFAULT_ORDERS", "METRICS", "OPENDP_ASSUMPTION", "curve_upper_function", "rdp_curve_from_opendp",
           "to_opendp_measurement"]
