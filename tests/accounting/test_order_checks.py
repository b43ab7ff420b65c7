"""Order checks on the fast path: a float order is accepted exactly when 1 < alpha < inf (NaN named),
the same answer as for the exact input of the same value; an array curve answers only at its orders
(membership by value, any order of the list)."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from bcdp.accounting.curves import rdp_curve_from_arrays
from bcdp.accounting.inputs import check_alpha
from bcdp.core.errors import InvalidInputError


@pytest.mark.parametrize("alpha", [1.0, 0.5, -3.0, math.inf, -math.inf, math.nextafter(1.0, 0.0)])
def test_float_orders_outside_are_refused(alpha):
    with pytest.raises(InvalidInputError, match=r"^alpha must be a finite real > 1, got "):
        check_alpha(alpha)


def test_nan_is_named():
    with pytest.raises(InvalidInputError, match=r"^alpha is NaN$"):
        check_alpha(math.nan)


@pytest.mark.parametrize("alpha", [math.nextafter(1.0, 2.0), 1.5, 2.0, 1e300, 1.7976931348623157e308])
def test_float_orders_inside_are_the_same_float_as_their_exact_value(alpha):
    assert check_alpha(alpha) == alpha and check_alpha(Fraction(alpha)) == alpha


def test_array_curve_orders():
    orders = [64.0, 2.0, 1.5, 3.25]
    curve = rdp_curve_from_arrays(orders, [4.0, 0.5, 0.25, 1.0])
    for a, v in zip(orders, [4.0, 0.5, 0.25, 1.0]):
        assert curve(a) == v
    for a in (2.5, 63.999, 65.0):
        with pytest.raises(InvalidInputError, match="only defined at its orders"):
            curve(a)


@pytest.mark.parametrize("value,message", [(math.nan, "returned NaN"), (-0.5, "returned a negative value"),
                                           (-math.inf, "returned a negative value")])
def test_float_curve_values_outside_are_refused(value, message):
    from bcdp.accounting.curves import rdp_curve_from_callable

    with pytest.raises(InvalidInputError, match=message):
        rdp_curve_from_callable(lambda a, v=value: v)(2.0)


def test_numpy_float_values_are_plain_floats():
    import numpy as np
    from bcdp.accounting.curves import rdp_curve_from_callable

    out = rdp_curve_from_callable(lambda a: np.float64(0.25))(2.0)
    assert type(out) is float and out == 0.25
