"""``optimal_allocation.rounding.round_rel``: x rounded to ``digits`` significant decimal digits, checked
against the decimal module (a context of precision ``digits`` rounds a quotient correctly, half to even
as Python's round() of a Fraction does), on both branches of the scaling (10^k with k >= 0 and k < 0),
negative values, zero, and a Fraction whose float is exactly 1.

Written to kill the survivors of the mutation gate (benchmarks/mutation_gate.py).
"""

from __future__ import annotations

import decimal
from fractions import Fraction as F

import pytest
from bcdp.bayesian.optimal_allocation.rounding import round_rel


def decimal_round(x: F, digits: int) -> F:
    ctx = decimal.Context(prec=digits, rounding=decimal.ROUND_HALF_EVEN, Emin=-10**6, Emax=10**6)
    return F(ctx.divide(decimal.Decimal(x.numerator), decimal.Decimal(x.denominator)))


@pytest.mark.parametrize(("x", "digits"), [
    (F(2, 3), 16),
    (F(-2, 3), 5),
    (F(123456789, 1000), 3),        # 123456.789 -> 123000: k = -3 < 0
    (F(-987654321, 7), 4),          # k < 0, negative
    (F(12345, 100), 3),             # 123.45 -> 123: k = 0
    (F(1, 7 * 10**9), 6),
    (F(10**16 + 6, 10**16) * F(1, 10), 16),   # 0.10000000000000006: float is 0.1; 16 digits -> 0.1
    (F(10**17 + 6, 10**17), 16),    # 1.00000000000000006: float(x) == 1.0
    (F(314159, 1), 2),              # 310000
])
def test_round_rel_matches_decimal_rounding(x, digits):
    assert round_rel(x, digits) == decimal_round(x, digits)


def test_round_rel_defaults_to_16_digits_and_keeps_zero():
    assert round_rel(F(2, 3)) == F(6666666666666667, 10**16)
    assert round_rel(0.1) == F(1, 10)           # the float 0.1 (0.1000000000000000055...) to 16 digits
    assert round_rel(F(0)) == 0 and round_rel(0.0) == 0
    assert round_rel(F(1)) == 1 and round_rel(F(-5, 2), 1) == -2   # half to even


@pytest.mark.parametrize("x", [F(1, 10**400), F(-3, 10**350), F(10**400 + 1), F(2, 3) * 10**320,
                               F(10**18 - 1, 10**17), F(10**17 + 1, 10**18)])
def test_round_rel_outside_float_range_and_next_to_powers_of_ten(x):
    # regression: the scale came from log10(float(x)): 1e-400 rounded to 0, 1e400 raised OverflowError
    assert round_rel(x, 16) == decimal_round(x, 16)
    assert round_rel(x, 3) == decimal_round(x, 3)
