"""``floor_rel(x, digits)`` of the optimal-allocation rounding: "a rational <= x with about ``digits``
significant decimal digits", i.e. x rounded down to its leading ``digits`` decimal digits.

Independent: the expected values are the decimal truncations worked out by hand in comments (for
x >= 10^digits the result is an integer multiple of a power of ten, e.g. 123456789 -> 123000000 at
3 digits); the exact checks (Fraction type, result <= x, x - result < one unit of the last kept
digit) are computed here in integer arithmetic.  Also a positive x too small for a double (float(x)
= 0), which must still give a rational <= x rather than a math error.

Written to kill survivors of the mutation gate (benchmarks/mutation_gate.py).
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from bcdp.bayesian.optimal_allocation.rounding import floor_rel


@pytest.mark.parametrize("x, digits, want", [
    (F(123456789), 3, F(123000000)),                  # 1.23456789e8 -> 1.23e8
    (F(10 ** 30 + 7), 3, F(10 ** 30)),                 # 1.00...07e30 -> 1.00e30 (exactly 10^30)
    (F(987654321987654321987654321), 5, F(98765 * 10 ** 22)),
    (F(999999), 2, F(990000)),
    (F(123456789, 1000), 3, F(123000)),               # 123456.789 -> 123000
    (F(10 ** 40 - 1, 3), 17, F(33333333333333333 * 10 ** 23)),   # 3.33..e39
])
def test_floor_rel_large_values_keep_leading_digits(x, digits, want):
    got = floor_rel(x, digits)
    assert type(got) is F
    assert got == want
    assert got <= x


@pytest.mark.parametrize("x, digits, want", [
    (F(1, 3), 4, F(3333, 10000)),                     # 0.33333.. -> 0.3333
    (F(22, 7), 3, F(314, 100)),                       # 3.142857.. -> 3.14
    (F(5), 1, F(5)),                                  # k = 0: a one-digit integer stays
    (F(57, 10), 1, F(5)),                             # 5.7 at 1 digit: k = 0 -> 5
])
def test_floor_rel_small_values(x, digits, want):
    got = floor_rel(x, digits)
    assert type(got) is F and got == want and got <= x


def test_floor_rel_within_one_unit_of_the_last_digit():
    for n in (7, 12345, 10 ** 18 + 1, 3 ** 80, 2 ** 200 - 1):
        x = F(n)
        e = len(str(n)) - 1                            # floor(log10 n)
        for digits in (1, 2, 5, 17):
            unit = 10 ** max(e - digits + 1, 0)
            got = floor_rel(x, digits)
            assert type(got) is F and got.denominator == 1
            assert got <= x and x - got < unit and got.numerator % unit == 0


def test_floor_rel_below_double_range_and_non_positive():
    tiny = F(1, 10 ** 400)                            # float(tiny) == 0.0
    got = floor_rel(tiny, 17)
    assert got == 0 and got <= tiny and type(got) is F
    assert floor_rel(F(0), 5) == 0
    assert floor_rel(F(-7, 3), 5) == F(-7, 3)         # non-positive x is returned as it is
