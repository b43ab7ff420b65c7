"""The edges of bcdp.core that the mutmut gate (docs/testing.md, "The mutation gate") found untested:
leading zeros and missing keys in the divergence inputs, the parameter an error names, the witness of
an infinite column ratio, the caps of the number policy at exactly the cap, default names in
messages, the JSON form of parameters, directed rounding of mpf infinities and the Fraction branch of
the sympy conversion.

References: brute force over all events S (D_inf = sup_{S: P(S)>0} log P(S)/Q(S), max divergence
of the BCDP paper's definitions and of the partial DP paper, Sec. 2), exact Fractions, digit counts
computed arithmetically (len(str(n))), and the documented contracts quoted in each test.
"""

from __future__ import annotations

import itertools
import json
import math
import sys
from decimal import Decimal
from fractions import Fraction as F

import flint
import mpmath
import numpy as np
import pytest
import sympy

from bcdp.core import intervals
from bcdp.core.divergences import d_infinity, exact_pair, hockey_stick, max_column_ratio
from bcdp.core.errors import FloatRefusedError, InvalidInputError, WrongTypeError
from bcdp.core.numbers import (BRIEF_DIGITS, GUARD_DPS, INFINITY, MAX_DIGITS, MAX_DPS, brief_number,
                               to_float_input, to_fraction)
from bcdp.core.parameters import LogRatioParameter, ProbabilityParameter, ratio_at_most


# -- divergences -------------------------------------------------------------------------------------

def brute_force_dinf_ratio(p, q):
    """max over non-empty events S with P(S) > 0 of P(S)/Q(S) (INFINITY when Q(S) = 0)."""
    best = None
    n = len(p)
    for r in range(1, n + 1):
        for S in itertools.combinations(range(n), r):
            ps, qs = sum(p[i] for i in S), sum(q[i] for i in S)
            if ps == 0:
                continue
            v = INFINITY if qs == 0 else ps / qs
            best = v if best is None or v > best else best
    return best


def test_d_infinity_skips_outputs_with_p_zero_before_the_maximiser():
    # P(y0) = 0 comes first; the max ratio 2 is at y1 (brute force over all 7 events agrees)
    p = (F(0), F(1, 2), F(1, 2))
    q = (F(1, 2), F(1, 4), F(1, 4))
    d = d_infinity(p, q)
    assert d.ratio == brute_force_dinf_ratio(p, q) == F(2)
    assert d.witness == {"output": 1}


def test_mapping_keys_missing_from_q_have_probability_zero():
    # 'b' is not a key of Q: Q('b') = 0 < P('b'), so D_inf is infinite at output 1 ('b')
    d = d_infinity({"a": "1/2", "b": "1/2"}, {"a": 1})
    assert d.ratio == INFINITY == brute_force_dinf_ratio((F(1, 2), F(1, 2)), (F(1), F(0)))
    assert d.witness == {"output": 1}
    p, q = exact_pair({"a": "1/2", "b": "1/2"}, {"a": 1})
    assert p == (F(1, 2), F(1, 2)) and q == (F(1), F(0))


def test_errors_name_the_row_and_entry():
    with pytest.raises(InvalidInputError, match=r"^P\[1\]: cannot read 'x'"):
        exact_pair(["1/2", "x"], ["1/2", "1/2"])
    with pytest.raises(FloatRefusedError, match=r"^Q\[0\]: floats are refused"):
        exact_pair(["1/2", "1/2"], [0.5, "1/2"])
    with pytest.raises(InvalidInputError, match=r"^P sums to 5/6, not 1"):
        exact_pair(["1/2", "1/3"], ["1/2", "1/2"])
    with pytest.raises(InvalidInputError, match=r"^Q sums to 5/6, not 1"):
        exact_pair(["1/2", "1/2"], ["1/2", "1/3"])


def test_check_dps_accepts_up_to_max_dps_plus_guard():
    """The documented range of dps is [50, MAX_DPS + GUARD_DPS] (callers add guard digits)."""
    top = MAX_DPS + GUARD_DPS
    assert hockey_stick(["1/2", "1/2"], ["1/4", "3/4"], 0, dps=top) == mpmath.mpf(1) / 4
    with pytest.raises(InvalidInputError, match=r"^dps must be an integer in \[50, "):
        hockey_stick(["1/2", "1/2"], ["1/4", "3/4"], 0, dps=top + 1)


def test_max_column_ratio_of_no_rows_and_of_one_row():
    """No rows: no pair, ratio 1 (D_inf = 0) and no witness.  One row: the only pair is (row, row),
    ratio 1, witnessed (per the witness rule) by the first column with a positive entry."""
    assert max_column_ratio([], [], ["y0", "y1"]) == (F(1), None)
    ratio, witness = max_column_ratio([[F(0), F(1, 2), F(1, 2)]], ["r"], ["y0", "y1", "y2"])
    assert ratio == F(1)
    assert witness == {"numerator": "r", "denominator": "r", "output": "y1"}


def test_max_column_ratio_skips_zero_columns_and_names_an_infinite_witness():
    rows = [[F(0), F(1, 4), F(3, 4)], [F(0), F(3, 4), F(1, 4)]]
    # column y0 is all zero (skipped); best pair ratio 3 at y1 (s over r), brute force over pairs:
    brute = max(rows[a][m] / rows[b][m] for a in range(2) for b in range(2) for m in (1, 2))
    assert max_column_ratio(rows, ["r", "s"], ["y0", "y1", "y2"]) == (
        brute, {"numerator": "s", "denominator": "r", "output": "y1"})
    assert brute == 3
    rows = [[F(0), F(1, 2), F(1, 2)], [F(0), F(1), F(0)]]
    assert max_column_ratio(rows, ["r", "s"], ["y0", "y1", "y2"]) == (
        INFINITY, {"numerator": "r", "denominator": "s", "output": "y2"})


# -- numbers -----------------------------------------------------------------------------------------

def test_zero_with_a_huge_decimal_exponent_is_zero():
    """The exponent cap guards against huge denominators; 0e-20000 is exactly 0 and is accepted."""
    assert to_fraction("0e-20000") == 0
    assert to_fraction(Decimal("0E+20000")) == 0
    with pytest.raises(InvalidInputError, match=r"^x: exponent of '1e-20000' is beyond the cap"):
        to_fraction("1e-20000", "x")


def test_messages_name_the_value_and_the_parameter():
    with pytest.raises(FloatRefusedError, match=r"^value: floats are refused"):
        to_fraction(1.5)
    with pytest.raises(InvalidInputError, match=r"^x: non-finite value Decimal\('NaN'\)"):
        to_fraction(Decimal("NaN"), "x")
    with pytest.raises(InvalidInputError, match=r"^x: exponent of Decimal\('1E\+99999'\) is beyond"):
        to_fraction(Decimal("1e99999"), "x")
    with pytest.raises(InvalidInputError, match=r"^x: non-finite value 'nan'"):
        to_fraction("nan", "x")
    with pytest.raises(InvalidInputError, match=r"^x: exponent of '1e99999' is beyond"):
        to_fraction("1e99999", "x")
    with pytest.raises(WrongTypeError, match=r"^value: booleans are not numbers"):
        to_float_input(True)


def test_brief_number_writes_exactly_up_to_brief_digits_digits():
    """At most BRIEF_DIGITS (40) digits in numerator and denominator: exact; beyond: 'about ...'."""
    n40 = 2 ** 131                      # the largest power of 2 with 40 digits
    assert len(str(n40)) == BRIEF_DIGITS and len(str(2 * n40)) == BRIEF_DIGITS  # 2^132 has 40 too
    assert brief_number(n40) == str(n40)
    assert brief_number(F(1, n40)) == "1/" + str(n40)
    assert brief_number(F(3, 7)) == "3/7"
    assert len(str(10 ** 40)) == BRIEF_DIGITS + 1
    assert brief_number(10 ** 40) == "about 1e+40"
    assert brief_number(F(1, 10 ** 40)) == "about 1e-40"
    # 50 digits: far beyond any reading of the cap, and the sign of a positive value below 1
    assert brief_number(F(1, 10 ** 50)) == "about 1e-50"
    assert brief_number(-10 ** 50) == "about -1e+50"
    assert brief_number(F(1, 3 * 10 ** 49)) == "about 3.33333e-50"


def _six_digits_half_even(q: F) -> str:
    """Independent oracle: decimal's correctly rounded division at 6 digits, half to even."""
    import decimal

    ctx = decimal.Context(prec=6, rounding=decimal.ROUND_HALF_EVEN, Emax=10 ** 9, Emin=-10 ** 9)
    d = ctx.divide(decimal.Decimal(abs(q.numerator)), decimal.Decimal(q.denominator))
    mantissa, exponent = f"{d:.5e}".split("e")
    return f"about {'-' if q < 0 else ''}{mantissa.rstrip('0').rstrip('.')}e{int(exponent):+d}"


@pytest.mark.parametrize("q", [
    F(837061_5 * 10 ** 60 + 1, 10 ** 20),         # just above a tie: rounds up
    F(837061_5 * 10 ** 60 - 1, 10 ** 20),         # just below: rounds down
    F(837061_5 * 10 ** 60, 10 ** 20),             # the tie itself: half to even (8.37062)
    F(837062_5 * 10 ** 60, 10 ** 20),             # the tie with an even 6th digit (8.37062)
    F(999999_5 * 10 ** 60, 10 ** 20),             # 9.999995 -> 1e+(e+1)
    -F(999999_4999 * 10 ** 60, 10 ** 24),         # 9.9999949.. stays below
    F(10 ** 60, 10 ** 41 - 1),                    # just above a power of ten
    F(10 ** 60 - 1, 10 ** 41),                    # just below
    F(1, 7 * 10 ** 70),
])
def test_brief_number_rounds_its_six_digits_correctly(q):
    """Regression: the 6 digits came from the leading 64 bits of numerator and denominator in float,
    and printed 8.37061e+47 for values whose correct rounding is 8.37062e+47."""
    assert brief_number(q) == _six_digits_half_even(q)


def test_brief_number_matches_correct_rounding_on_random_long_rationals():
    import random

    rng = random.Random(20261124)
    for _ in range(300):
        q = F(rng.randrange(1, 10 ** rng.randint(42, 400)), rng.randrange(1, 10 ** rng.randint(1, 400)))
        q *= 10 ** 41 if q.numerator.bit_length() <= 137 else 1
        assert brief_number(q) == _six_digits_half_even(q), q


def test_brief_number_is_exact_at_exactly_the_exact_size():
    """A number of exactly BRIEF_EXACT_BITS bits just above a 6-digit tie: correctly rounded up (the
    leading-bits estimate of the larger numbers prints 5.70445 here)."""
    from bcdp.core.numbers import BRIEF_EXACT_BITS

    n = 5704455 * 10 ** (60205 - 6) + 1
    assert n.bit_length() == BRIEF_EXACT_BITS
    assert brief_number(n) == _six_digits_half_even(F(n)) == "about 5.70446e+60205"


def test_brief_number_estimates_only_beyond_the_exact_size():
    """Numbers of more than BRIEF_EXACT_BITS bits: the leading-bits estimate (still 'about')."""
    from bcdp.core.numbers import BRIEF_EXACT_BITS

    big = 3 ** 130_000                                 # 206,045 bits
    assert big.bit_length() > BRIEF_EXACT_BITS >= (3 ** 126_000).bit_length()
    assert brief_number(3 ** 126_000) == _six_digits_half_even(F(3 ** 126_000))
    for q in (F(big), F(1, big), F(2 ** 150_000 + 1, big), -F(big, 7)):
        # the estimate (leading 64 bits of each in float) is within one unit of the 6th digit
        text, want = brief_number(q), _six_digits_half_even(q)
        assert text.split("e")[1] == want.split("e")[1], (text, want)
        got_m, want_m = (float(t.split("e")[0].removeprefix("about ")) for t in (text, want))
        assert abs(got_m - want_m) <= 1.0001e-5 * abs(want_m), (text, want)


def test_to_float_input_edges():
    # a string of exactly MAX_DIGITS characters is accepted, one more is refused
    assert to_float_input("0" * (MAX_DIGITS - 1) + "7") == 7.0
    with pytest.raises(InvalidInputError, match=r"^v: numeric string longer than"):
        to_float_input("0" * MAX_DIGITS + "7", "v")
    # ints, Fractions beyond the float range: InvalidInputError naming the value, not OverflowError
    with pytest.raises(InvalidInputError, match=r"^value: cannot use 1000"):
        to_float_input(10 ** 400)
    with pytest.raises(InvalidInputError, match=r"^value: cannot use Fraction\(1000"):
        to_float_input(F(10 ** 400))
    # sympy values go through the numeric branch
    assert to_float_input(sympy.Rational(1, 4)) == 0.25
    with pytest.raises(InvalidInputError, match=r"^value: cannot use x as a float"):
        to_float_input(sympy.Symbol("x"))
    # numpy scalars
    assert to_float_input(np.float64(0.375)) == 0.375
    assert to_float_input(np.int64(3)) == 3.0


# -- parameters --------------------------------------------------------------------------------------

def test_probability_parameter_json():
    out = ProbabilityParameter(F(1, 3), {"input": 0}).to_json()
    assert out == {"exact": "1/3", "float": 1 / 3, "witness": {"input": 0}}
    json.dumps(out, allow_nan=False)


def test_infinite_log_ratio_json_is_strict():
    out = LogRatioParameter(INFINITY, {"output": 2}).to_json()
    assert out == {"exact": "oo", "float": "inf", "witness": {"output": 2}}
    json.dumps(out, allow_nan=False)


def test_ratio_at_most_is_inclusive_and_reads_parameters():
    assert ratio_at_most(F(2), F(2))
    assert ratio_at_most(LogRatioParameter(F(2)), LogRatioParameter(F(2)))
    assert ratio_at_most(F(2), LogRatioParameter(F(3)))
    assert not ratio_at_most(LogRatioParameter(F(3)), F(2))
    assert not ratio_at_most(F(3), LogRatioParameter(F(2)))


# -- intervals ---------------------------------------------------------------------------------------

def test_directed_rounding_of_mpf_infinities():
    assert intervals.float_up(mpmath.mpf("inf")) == math.inf
    assert intervals.float_down(mpmath.mpf("inf")) == math.inf
    assert intervals.float_up(mpmath.mpf("-inf")) == -math.inf
    assert intervals.float_down(mpmath.mpf("-inf")) == -math.inf


def test_as_sympy_and_compare_of_fractions():
    assert intervals.as_sympy(F(2, 3)) == sympy.Rational(2, 3)
    assert intervals.compare(F(1, 3), F(1, 2)) == -1
    # a difference that is structurally the number 1: sign 1, not a tie
    assert intervals.compare(F(3, 2), F(1, 2)) == 1
    assert intervals.compare(2, 1) == 1
    assert intervals.compare(F(1, 2), sympy.Rational(1, 2)) == 0


def test_exact_fraction_refuses_inexact_and_infinite_balls():
    with intervals.arb_precision(53):
        third = flint.arb(1) / 3
    with pytest.raises(InvalidInputError, match="not an exact finite point"):
        intervals.exact_fraction(third)
    with pytest.raises(InvalidInputError, match="not an exact finite point"):
        intervals.exact_fraction(flint.arb.pos_inf())
    assert intervals.exact_fraction(flint.arb(3) / 4) == F(3, 4)


def test_ball_of_ints_floats_and_infinities():
    for x in (3, -7, 2 ** 200 + 1):
        b = intervals.ball_of(x)
        assert b.is_exact() and intervals.exact_fraction(b) == x
    b = intervals.ball_of(0.1)
    assert b.is_exact() and intervals.exact_fraction(b) == F(0.1)
    for x, sign in ((math.inf, 1), (-math.inf, -1), (mpmath.mpf("inf"), 1), (mpmath.mpf("-inf"), -1)):
        b = intervals.ball_of(x)
        assert not b.is_finite()
        # pos_inf > every real, neg_inf < every real (certified comparisons of arb)
        assert (b > 10 ** 300) if sign > 0 else (b < -10 ** 300)


def test_ball_sums_and_integer_powers_are_enclosed():
    # (1/3 + 1/6)^3 * 2^-2 = 1/32, and (x)^-2 with x = 1/3 + 2/3 = 1
    e = sympy.Add(sympy.Rational(1, 3), sympy.Rational(1, 6), evaluate=False)
    b = intervals.ball(sympy.Pow(e, 3, evaluate=False) * sympy.Pow(2, -2, evaluate=False))
    lo, hi = intervals.ball_ends(b)
    assert lo <= F(1, 32) <= hi and hi - lo < F(1, 10 ** 14)
    b = intervals.ball(sympy.Pow(sympy.Add(sympy.Rational(1, 3), sympy.Rational(2, 3), evaluate=False),
                                 -2, evaluate=False))
    lo, hi = intervals.ball_ends(b)
    assert lo <= 1 <= hi and hi - lo < F(1, 10 ** 14)


def test_ball_of_dyadic_fractions_and_wide_mpf_are_exact_at_any_precision():
    """Regression: ball_of promises exact balls for dyadic Fractions and mpf; it multiplied the
    numerator by 2^-k in arb at the working precision, which rounded every numerator wider than that
    precision (Fraction(2^200 + 1, 2) at 53 bits came back as a ball of radius ~2^147).  Reference:
    the exact value itself (exact_fraction of the ball, an exact conversion)."""
    with mpmath.workdps(100):
        wide_mpf = mpmath.mpf(1) / 3               # 336-bit mantissa
        wide_int_mpf = mpmath.mpf(2 ** 200 + 1)     # an integer-valued mpf (denominator 1)
    cases = [F(2 ** 200 + 1, 2), F(-(2 ** 100 + 1), 2 ** 70), F(2 ** 200 + 1), F(3, 4), F(0),
             sympy.Integer(2 ** 200 + 1), sympy.Rational(2 ** 90 + 1, 2 ** 9), wide_mpf, wide_int_mpf]
    for prec in (53, 120):
        with intervals.arb_precision(prec):
            for x in cases:
                b = intervals.ball_of(x)
                assert b.is_exact(), (prec, x, b)
                exact = x if isinstance(x, F) else (F(int(x.p), int(x.q)) if isinstance(x, sympy.Rational)
                                                     else intervals.exact_fraction(x))
                assert intervals.exact_fraction(b) == exact
    # a non-dyadic rational is one outward rounding: an enclosure, not a point
    with intervals.arb_precision(53):
        b = intervals.ball_of(F(1, 3))
    lo, hi = intervals.ball_ends(b)
    assert not b.is_exact() and lo < F(1, 3) < hi
