"""Certified enclosures of the thesis Ch. 5 upper bounds (bcdp.shuffle.bound_balls, issue 12).

Reference: the printed formulas (thesis Thm 5.3.1 (5.4), Cor 5.3.1 (5.5), Remark 5.3.2 (5.6),
Thm 5.3.2 (5.7), [EFM19] (5.8)), written again in mpmath in ``tests/shuffle_references.py``,
independently of the library.  Every ball must contain
the reference (up to the reference's own error, <= 1e-50 relative) and be tight (radius <= 1e-25
relative).
"""

from __future__ import annotations

import mpmath
import pytest
from bcdp.core.errors import InvalidInputError, ValidityConditionError
from bcdp.core.intervals import ball_ends_mpf
from bcdp.shuffle import bounds as sb
from bcdp.shuffle.bound_balls import upper_bound_ball
from hypothesis import given, settings
from hypothesis import strategies as st
from shuffle_references import (
    DPS,
    cond_5_5,
    ref_5_4,
    ref_5_5,
    ref_5_6,
    ref_5_7,
    ref_5_8,
)

REF_ERR = mpmath.mpf(10) ** -50

EPS0 = ["0", "1e-110", "1e-30", "1e-7", "0.001", "0.01", "1/3", "0.5", "1", "2.5", "3", "10", "40"]
NS = st.one_of(st.integers(1, 10 ** 6), st.integers(10 ** 6, 10 ** 15), st.sampled_from([10 ** 40, 10 ** 100]))


def assert_encloses(ball, ref: mpmath.mpf) -> None:
    lo, hi = ball_ends_mpf(ball)
    with mpmath.workdps(DPS + 10):
        assert lo <= ref * (1 + REF_ERR), (lo, ref)
        assert ref * (1 - REF_ERR) <= hi, (hi, ref)
        assert hi - lo <= abs(ref) * mpmath.mpf(10) ** -25, (lo, hi, ref)


@settings(max_examples=60, deadline=None)
@given(n=NS, eps0=st.sampled_from(EPS0), a=st.integers(2, 200))
def test_thm531_ball_encloses_printed_formula(n, eps0, a):
    assert_encloses(upper_bound_ball("thm531_upper", n, eps0, a), ref_5_4(n, eps0, a))


@settings(max_examples=40, deadline=None)
@given(n=NS, eps0=st.sampled_from(EPS0), alpha=st.sampled_from(["1.5", "2.25", "7/3", "10.5", "63.9"]))
def test_thm531_real_order_ball_encloses_interpolation(n, eps0, alpha):
    assert_encloses(upper_bound_ball("thm531_upper", n, eps0, alpha), ref_5_6(n, eps0, alpha))


@settings(max_examples=60, deadline=None)
@given(n=NS, eps0=st.sampled_from(EPS0), a=st.integers(2, 64))
def test_cor531_ball_encloses_printed_formula_or_refuses(n, eps0, a):
    if cond_5_5(n, eps0, a):
        assert_encloses(upper_bound_ball("cor531_upper", n, eps0, a), ref_5_5(n, eps0, a))
    else:
        with pytest.raises(ValidityConditionError, match="alpha\\^4 e\\^\\(5 eps0\\) < n/9"):
            upper_bound_ball("cor531_upper", n, eps0, a)


@settings(max_examples=60, deadline=None)
@given(n=NS, eps0=st.sampled_from(EPS0), alpha=st.sampled_from(["1.001", "1.5", "2", "3.75", "64", "1000", "1e6"]))
def test_thm532_and_efm19_balls_enclose_printed_formulas(n, eps0, alpha):
    assert_encloses(upper_bound_ball("thm532_upper", n, eps0, alpha), ref_5_7(n, eps0, alpha))
    ball = upper_bound_ball("efm19_upper", n, eps0, alpha)
    if eps0 == "0":
        assert ball.is_exact() and ball.is_zero()
    else:
        assert_encloses(ball, ref_5_8(n, eps0, alpha))


def test_tiny_eps0_where_the_mpmath_bound_loses_every_digit():
    """n = 1e100, eps0 = 1e-110: (5.4) is ~2e-320 (the C(2,2)(E-1)^2/(nbar E) term), a subnormal
    float.  The 70-digit mpmath evaluation of the library rounds E - 1 to 0 and returns only the
    tail e^{2 eps0 - (n-1)/(8E)} ~ 10^(-5e98), and the old `to-dp` enclosure of the float value,
    [v (1 - 1e-12), v (1 + 1e-12)], would then have excluded the true value; the ball contains it."""
    n, eps0 = 10 ** 100, "1e-110"
    ref = ref_5_4(n, eps0, 2)
    assert mpmath.mpf("1.9e-320") < ref < mpmath.mpf("2.1e-320")
    assert_encloses(upper_bound_ball("thm531_upper", n, eps0, 2), ref)
    v = float(sb.thm531_upper(n, eps0, 2))             # the value the old code enclosed
    assert not v * (1 - 1e-12) <= ref <= v * (1 + 1e-12)


def test_subnormal_bound_where_float_rounding_exceeds_the_old_margin():
    """(5.8) at n = 1e100, eps0 = 1e-110, alpha = 3: 6e-320 (subnormal), rounded to a float with a
    relative error ~1e-4 > 1e-12: the old +-1e-12 hull around the float misses the 60-digit value
    of the printed formula even though the mpmath value itself is right here."""
    n, eps0 = 10 ** 100, "1e-110"
    ref = ref_5_8(n, eps0, "3")
    v = float(sb.efm19_upper(n, eps0, 3))
    assert not v * (1 - 1e-12) <= ref <= v * (1 + 1e-12)
    assert_encloses(upper_bound_ball("efm19_upper", n, eps0, 3), ref)


def test_infinite_eps0_and_bad_input():
    assert upper_bound_ball("thm531_upper", 10, "inf", 2) is None
    with pytest.raises(InvalidInputError):
        upper_bound_ball("cor531_upper", 10 ** 6, "1", "2.5")      # integer orders only
    with pytest.raises(InvalidInputError):
        upper_bound_ball("thm533_lower", 10, "1", 2)               # not an upper bound
    with pytest.raises(InvalidInputError):
        upper_bound_ball("efm19_upper", 10, "1", 1)
    with pytest.raises(InvalidInputError):
        upper_bound_ball("efm19_upper", 10, 0.5, 2)                # floats refused
