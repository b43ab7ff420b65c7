"""Array curves (bcdp.accounting.curves): the one-pass checks of their orders and values against the
value-by-value rules they stand for, the composed curve's table, and values_at's float output.

Oracles: the documented input rules (an order is a finite real > 1 and an exact order must be exactly
a float, check_alpha; a value is a real >= 0, not NaN, check_real refusing bools, complex and arrays),
with the refusal's class and message; values worked out by hand (T r(alpha) for the T-fold
composition, Mironov 2017 Prop. 1, on dyadic values exact in floats).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from bcdp.accounting.curves import RdpCurve, rdp_curve_from_arrays
from bcdp.core.errors import InvalidInputError


# -- orders ----------------------------------------------------------------------------------------

def test_integer_array_orders_become_floats() -> None:
    curve = rdp_curve_from_arrays(np.array([2, 3], dtype=np.int64), [0.5, 0.75])
    assert curve.orders == (2.0, 3.0) and all(type(a) is float for a in curve.orders)


def test_an_integer_order_that_is_no_float_is_refused() -> None:
    """2^53 + 1 has no float: an exact order must be exactly the float the search uses."""
    with pytest.raises(InvalidInputError, match="not exactly representable as a float"):
        rdp_curve_from_arrays(np.array([2 ** 53 + 1], dtype=np.int64), [0.5])


@pytest.mark.parametrize("order", ["1.1", Fraction(11, 10)])
def test_exact_orders_without_a_float_are_refused(order: Any) -> None:
    with pytest.raises(InvalidInputError, match="not exactly representable as a float"):
        rdp_curve_from_arrays([order], [0.5])
    assert rdp_curve_from_arrays(["1.5", Fraction(5, 2)], [0.5, 1.0]).orders == (1.5, 2.5)


def test_two_dimensional_orders_are_refused() -> None:
    with pytest.raises(InvalidInputError, match="alpha must be a real number, got ndarray"):
        rdp_curve_from_arrays(np.array([[2.0, 3.0]]), [0.5])


# -- values ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("values, kind", [(np.array([True]), "bool"), (np.array([0.5 + 0j]), "complex128"),
                                          (np.array([[0.5]]), "ndarray")])
def test_values_that_are_no_reals_are_refused(values: np.ndarray, kind: str) -> None:
    with pytest.raises(InvalidInputError, match=f"RDP value must be a real number, got {kind}"):
        rdp_curve_from_arrays([2.0], values)


def test_zero_is_a_value_whatever_its_type() -> None:
    for zero in (0, Fraction(0), "0", np.int64(0)):
        curve = rdp_curve_from_arrays([2.0, 3.0], [zero, 1])
        assert curve(2.0) == 0.0 and curve(3.0) == 1.0
    with pytest.raises(InvalidInputError, match=r"RDP value at alpha=2.0 must be >= 0 and not NaN"):
        rdp_curve_from_arrays([2.0], [-1])


# -- composition and values_at ---------------------------------------------------------------------

def test_composed_array_curve_keeps_its_table() -> None:
    curve = rdp_curve_from_arrays([3.0, 2.0], [0.5, 0.25]).compose(3)
    table = curve.sorted_orders_and_values()
    assert table is not None
    assert table[0].tolist() == [2.0, 3.0] and table[1].tolist() == [0.75, 1.5]    # 3 x 0.25, 3 x 0.5
    assert curve.values_at([3.0, 2.0]).tolist() == [1.5, 0.75]
    with pytest.raises(InvalidInputError, match="only defined at its orders; 4.0 is not one"):
        curve.values_at([4.0])


def test_values_at_answers_floats() -> None:
    curve = RdpCurve(value=lambda a: 1, certified=None, label="ints", source="test", orders=(2.0, 3.0),
                     order_values=(1, 2))
    out = curve.values_at([3.0, 2.0])
    assert out.dtype == np.float64 and out.tolist() == [2.0, 1.0]
