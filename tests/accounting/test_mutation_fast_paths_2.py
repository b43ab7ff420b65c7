"""Two edges of the array paths: Asoodeh's conversion at alpha delta = 1 exactly (in floats) is outside
its range, +inf (the form needs alpha delta < 1: Asoodeh et al., as in OpenDP's rdp_epsilon1_on); and a
value that is not a number is refused naming "RDP value" (the argument's name, as every reader does)."""

from __future__ import annotations

import math

import pytest
from bcdp.accounting.curves import rdp_curve_from_arrays
from bcdp.accounting.search import eps_float_array
from bcdp.core.errors import InvalidInputError


def test_asoodeh_at_alpha_delta_exactly_one_is_outside_its_range():
    L = math.log1p(1.0)                  # delta = e^-L, alpha = 2: log(alpha) = L exactly in floats
    assert eps_float_array([1.0], [0.1], L, "asoodeh")[0] == math.inf
    assert math.isfinite(eps_float_array([1.0], [0.1], math.nextafter(L, 10.0), "asoodeh")[0])


def test_a_value_that_is_not_a_number_is_refused_by_name():
    with pytest.raises(InvalidInputError, match=r"^RDP value: cannot read 'abc'"):
        rdp_curve_from_arrays([2.0], ["abc"])
