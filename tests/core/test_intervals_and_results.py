"""bcdp.core.intervals (precision context, directed rounding) and bcdp.core.results (Certified,
certified decisions at ties, strict JSON), against exact Fraction arithmetic."""

from __future__ import annotations

import json
import math
import random
import sys
from fractions import Fraction

import mpmath
import pytest
import sympy
from bcdp.core.errors import UndecidedComparison
from bcdp.core.intervals import (
    arb_precision,
    ball,
    ball_lower,
    ball_of,
    ball_upper,
    compare,
    exact_fraction,
    float_down,
    float_up,
    outward_floats,
    to_float,
)
from bcdp.core.results import (
    Certified,
    certainly_gt,
    certainly_le,
    certainly_lt,
    decide_le,
    jsonable,
)


def test_arb_precision_restores_even_on_error():
    import flint

    before = flint.ctx.prec
    with pytest.raises(RuntimeError):
        with arb_precision(300):
            assert flint.ctx.prec == 300
            raise RuntimeError
    assert flint.ctx.prec == before


def _exact(x: mpmath.mpf) -> Fraction:
    """Exact value of an mpf from its (sign, mantissa, exponent) triple, independently of the library."""
    sign, man, exp, _ = x._mpf_
    return (-1 if sign else 1) * Fraction(man) * (Fraction(2) ** exp)


def test_directed_rounding_against_exact_fractions():
    rng = random.Random(20261124)
    with mpmath.workprec(200):
        for _ in range(2000):
            x = mpmath.mpf(rng.randint(-10 ** 40, 10 ** 40)) / rng.randint(1, 10 ** 40) * mpmath.mpf(2) ** rng.randint(-1100, 1000)
            X = _exact(x)
            assert exact_fraction(x) == X
            for value in (x, X):   # an mpf and the same value as a Fraction
                lo, hi = float_down(value), float_up(value)
                if math.isfinite(lo) and math.isfinite(hi):
                    # lo <= x <= hi exactly, and tight: adjacent floats, or equal when x is a float
                    assert Fraction(lo) <= X <= Fraction(hi)
                    assert hi == lo if Fraction(lo) == X else math.nextafter(lo, math.inf) == hi
                else:
                    assert (X > Fraction(sys.float_info.max)) or (X < -Fraction(sys.float_info.max))


def test_directed_rounding_of_big_ints_subnormals_and_overflow():
    n = 2 ** 60 + 1                       # not a float: nearest is 2^60, below n
    assert float_down(n) == 2.0 ** 60 and float_up(n) == math.nextafter(2.0 ** 60, math.inf)
    tiny = Fraction(1, 2 ** 1080)          # below the smallest subnormal 2^-1074
    assert float_down(tiny) == 0.0 and float_up(tiny) == 5e-324
    assert float_down(-tiny) == -5e-324 and float_up(-tiny) == 0.0
    third_sub = Fraction(1, 3 * 2 ** 1060)  # a subnormal-range value
    lo, hi = float_down(third_sub), float_up(third_sub)
    assert Fraction(lo) < third_sub < Fraction(hi) and math.nextafter(lo, 1) == hi
    huge = Fraction(2) ** 1024
    assert float_up(huge) == math.inf and float_down(huge) == sys.float_info.max
    assert float_down(-huge) == -math.inf and float_up(-huge) == -sys.float_info.max
    assert float_up(0) == float_down(0) == 0.0


def test_directed_rounding_where_nearest_goes_the_wrong_way():
    # 1 + 2^-60 rounds to nearest 1.0 (below x): float_up must move up, float_down keep 1.0
    with mpmath.workprec(100):
        x = 1 + mpmath.mpf(2) ** -60
        assert float(x) == 1.0 and float_up(x) == math.nextafter(1.0, 2) and float_down(x) == 1.0
        y = 1 - mpmath.mpf(2) ** -60   # nearest is 1.0, above y
        assert float_down(y) == math.nextafter(1.0, 0) and float_up(y) == 1.0
    assert float_up(mpmath.mpf(2) ** 2000) == math.inf and float_down(-mpmath.mpf(2) ** 2000) == -math.inf


def test_outward_floats_contain_a_100_digit_reference():
    with mpmath.workdps(100):
        refs = {sympy.log(3): mpmath.log(3), sympy.exp(sympy.Rational(1, 7)): mpmath.exp(mpmath.mpf(1) / 7),
                sympy.log(2) / 3 - sympy.Rational(1, 5): mpmath.log(2) / 3 - mpmath.mpf(1) / 5}
        for expr, ref in refs.items():
            for prec in (53, 120):
                enc = ball(expr, prec)
                lo, hi = outward_floats(enc)
                elo, ehi = ball_lower(enc), ball_upper(enc)
                assert mpmath.mpf(elo.numerator) / elo.denominator <= ref <= mpmath.mpf(ehi.numerator) / ehi.denominator
                assert mpmath.mpf(lo) <= ref <= mpmath.mpf(hi)


def test_arb_balls_enclose_where_mpmath_iv_does_not():
    """exp/log1p/expm1 of tiny exact arguments (mpmath 1.3's iv.exp returns a point excluding the
    true value here): the arb ball must contain a 100-digit reference."""
    import flint

    with mpmath.workdps(100):
        for k in (53, 60, 70, 1000):
            x = -Fraction(1, 2 ** k)
            ref = mpmath.exp(mpmath.mpf(x.numerator) / x.denominator)
            for prec in (53, 120):
                with arb_precision(prec):
                    b = ball_of(x).exp()
                assert mpmath.mpf(ball_lower(b).numerator) / ball_lower(b).denominator <= ref
                assert ref <= mpmath.mpf(ball_upper(b).numerator) / ball_upper(b).denominator
        with arb_precision(53):
            assert isinstance(ball_of(Fraction(1, 3)), flint.arb) and ball_of(Fraction(3, 8)).is_exact()
            assert ball_of(mpmath.mpf(2) ** -3000).is_exact() and ball_of(2 ** 200 + 1).is_exact()


def test_ball_of_closed_forms_contains_reference():
    with mpmath.workdps(100):
        cases = {sympy.log(3) - sympy.Rational(11, 10): mpmath.log(3) - mpmath.mpf(11) / 10,
                 sympy.Min(sympy.log(2), sympy.Rational(7, 10)): mpmath.log(2),
                 sympy.Max(sympy.log(2), sympy.Rational(7, 10)): mpmath.mpf(7) / 10,
                 sympy.Rational(2, 3) ** sympy.Rational(1, 3): (mpmath.mpf(2) / 3) ** (mpmath.mpf(1) / 3),
                 sympy.E ** 2 / 7: mpmath.e ** 2 / 7}
        for expr, ref in cases.items():
            b = ball(expr, 120)
            lo, hi = ball_lower(b), ball_upper(b)
            assert mpmath.mpf(lo.numerator) / lo.denominator <= ref <= mpmath.mpf(hi.numerator) / hi.denominator
            assert abs(to_float(expr) - float(ref)) <= 1e-16 * abs(float(ref))


def test_compare_decides_ties_and_near_ties():
    two_log2 = 2 * sympy.log(2)
    assert compare(two_log2, sympy.log(4)) == 0                          # a proven tie
    tiny = sympy.Rational(1, 10 ** 200)
    assert compare(sympy.log(4) + tiny, two_log2) == 1                   # closer than 53 bits, decided
    assert compare(two_log2, sympy.log(4) + tiny) == -1
    with pytest.raises(TypeError):
        compare(0.5, 1)


def test_compare_refuses_to_guess_beyond_its_precision():
    # a difference of 1e-400 is below the 1000-bit enclosure and not symbolically zero: must raise
    with pytest.raises(UndecidedComparison):
        compare(sympy.log(4) + sympy.Rational(1, 10 ** 400), 2 * sympy.log(2))


def test_certified_type():
    c = Certified(Fraction(1, 3), Fraction(1, 2), witness={"x": 1}, provenance="test",
                  details={"alpha_star": 7})
    lo, hi = c
    assert (lo, hi) == (Fraction(1, 3), Fraction(1, 2)) and c.width == Fraction(1, 6)
    assert c.alpha_star == 7 and not c.is_exact and not c.is_infinite
    with pytest.raises(AttributeError):
        c.missing
    assert Certified(math.inf, math.inf).is_infinite and Certified(math.inf, math.inf).width == 0
    assert Certified(1, 1).is_exact and c.with_details(k=2).k == 2 and c.with_details(k=2).alpha_star == 7


def test_certified_decisions_at_and_near_ties():
    a = Certified(Fraction(1), Fraction(1))                      # exactly 1
    b = Certified(Fraction(1), Fraction(1))
    assert decide_le(a, b) is True and certainly_le(a, b) and not certainly_lt(a, b)
    # true values equal (1) but enclosures of width > 0: undecided, never a guess
    w = Fraction(1, 10 ** 30)
    a2, b2 = Certified(1 - w, 1 + w), Certified(1 - w, 1 + w)
    assert decide_le(a2, b2) is None and not certainly_le(a2, b2) and not certainly_gt(a2, b2)
    # true values 1 and 1 + w/2 (closer than the width): undecided
    assert decide_le(Certified(1 - w, 1 + w), Certified(1 + w / 2 - w, 1 + w / 2 + w)) is None
    # separated: decided both ways
    assert decide_le(Certified(0, 1), Certified(2, 3)) is True
    assert decide_le(Certified(2, 3), Certified(0, 1)) is False
    # comparing lower ends only (a classic bug) would say True here; the right answer is undecided
    assert decide_le(Certified(0, 10), Certified(1, 2)) is None


def test_jsonable_is_strict():
    out = jsonable({"a": math.inf, "b": Fraction(1, 3), "c": (1, -math.inf), "d": mpmath.mpf(2) ** 3000,
                    "e": Certified(0, math.inf, details={"k": Fraction(2, 5)})})
    text = json.dumps(out, allow_nan=False)
    assert json.loads(text)["a"] == "inf" and json.loads(text)["e"]["upper"] == "inf"
    assert json.loads(text)["e"]["k"] == "2/5" and json.loads(text)["c"] == [1, "-inf"]
    for bad in (math.nan, mpmath.mpf("nan")):
        with pytest.raises(ValueError):
            jsonable(bad)


def test_ball_ends_are_exact_at_any_precision():
    """mid -/+ rad exactly, also outside an arb_precision block (arb's lower()/upper() would round to
    53 bits there); the mpf form equals the Fraction form."""
    from bcdp.core.intervals import ball_ends, ball_ends_mpf

    with arb_precision(400):
        b = ball_of(Fraction(1, 3))
    lo, hi = ball_ends(b)                       # called at the default 53 bits
    assert lo < Fraction(1, 3) < hi and hi - lo < Fraction(1, 2 ** 390)
    mlo, mhi = ball_ends_mpf(b)
    assert _exact(mlo) == lo and _exact(mhi) == hi
    import flint
    assert ball_ends_mpf(flint.arb.pos_inf())[1] == mpmath.inf


def test_ball_power_of_a_ball_containing_zero():
    import flint

    from bcdp.core.intervals import ball_ends, ball_power

    with arb_precision(53):
        b = ball_of(Fraction(-1, 4)).union(ball_of(Fraction(1, 2)))   # contains [-1/4, 1/2]
        for n in (2, 3, 4):
            lo, hi = ball_ends(ball_power(b, n))
            for x in (Fraction(-1, 4), Fraction(0), Fraction(1, 8), Fraction(1, 2)):
                assert lo <= x ** n <= hi                   # every point's power is enclosed
        assert not ball_power(b, 2).is_nan()
        lo, hi = ball_ends(ball_power(flint.arb(3), -2))
        assert lo <= Fraction(1, 9) <= hi
    assert compare(sympy.Rational(-1, 2) ** 2, sympy.Rational(1, 4)) == 0


# -- edges found by mutation testing (benchmarks/mutate_core.py) ------------------------------------

def test_directed_rounding_of_exact_floats_is_the_identity():
    """A value that is already a float rounds to itself both ways (as float, Fraction and mpf)."""
    rng = random.Random(7)
    values = [0.5, -0.75, 1.0, 3.0, 2.0 ** 60, 5e-324, -5e-324, sys.float_info.max, -sys.float_info.max,
              2.0 ** -1022, 0.1]
    values += [rng.uniform(-1, 1) * 2.0 ** rng.randint(-1070, 1020) for _ in range(300)]
    with mpmath.workprec(60):
        for f in values:
            for v in (f, Fraction(f), mpmath.mpf(f)):
                assert float_up(v) == f and float_down(v) == f, (f, type(v))


def test_enclosure_of_a_ball_is_outward():
    """enclosure() (arb ball -> floats) must contain a 100-digit reference: each of these values is
    irrational, so round-to-nearest ends would exclude it on one side."""
    from bcdp.core.intervals import enclosure

    with mpmath.workdps(100):
        refs = {sympy.log(3): mpmath.log(3), sympy.exp(sympy.Rational(1, 7)): mpmath.exp(mpmath.mpf(1) / 7),
                sympy.log(2) / 3 - sympy.Rational(1, 5): mpmath.log(2) / 3 - mpmath.mpf(1) / 5,
                sympy.E: mpmath.e, -sympy.log(10): -mpmath.log(10)}
        for expr, ref in refs.items():
            for prec in (53, 120):
                lo, hi = enclosure(expr, prec)
                assert mpmath.mpf(lo) <= ref <= mpmath.mpf(hi), (expr, prec)
                assert math.nextafter(lo, math.inf) >= hi or prec == 53   # tight at 120 bits


def test_unevaluated_min_and_max_are_evaluated_as_min_and_max():
    # sympy collapses Min(log 2, 7/10) to log 2 by itself; evaluate=False reaches the interval code
    with mpmath.workdps(60):
        # values: log 2 = 0.693..., 7/10, log(3/2) = 0.405...
        for cls, ref in ((sympy.Min, mpmath.log(mpmath.mpf(3) / 2)), (sympy.Max, mpmath.mpf(7) / 10)):
            expr = cls(sympy.log(2), sympy.Rational(7, 10), sympy.log(sympy.Rational(3, 2)), evaluate=False)
            b = ball(expr, 120)
            lo, hi = ball_lower(b), ball_upper(b)
            assert mpmath.mpf(lo.numerator) / lo.denominator <= ref <= mpmath.mpf(hi.numerator) / hi.denominator


def test_ball_power_zero_exponent_is_one():
    from bcdp.core.intervals import ball_ends, ball_power

    with arb_precision(53):
        for b in (ball_of(Fraction(1, 3)), ball_of(Fraction(-1, 4)).union(ball_of(Fraction(1, 2))), ball_of(0)):
            assert ball_ends(ball_power(b, 0)) == (1, 1)


def test_compare_of_a_tie_whose_enclosure_is_exactly_zero():
    """2 * (1/2) kept unevaluated: the difference with 1 is not structurally 0 but its enclosure is
    the exact point 0, which is neither > 0 nor < 0: the answer must be the proven tie 0."""
    two_halves = sympy.Mul(2, sympy.Rational(1, 2), evaluate=False)
    assert compare(two_halves, 1) == 0 and compare(1, two_halves) == 0
    assert compare(sympy.exp(0, evaluate=False), 1) == 0 and compare(1, sympy.exp(0, evaluate=False)) == 0


def test_leq_is_certified_less_or_equal():
    from bcdp.core.intervals import leq

    assert leq(2 * sympy.log(2), sympy.log(4))                              # a tie: <= holds
    assert leq(sympy.Rational(1, 3), sympy.Rational(1, 2)) and not leq(sympy.Rational(1, 2), sympy.Rational(1, 3))
    assert leq(sympy.log(3), sympy.Rational(11, 10)) and not leq(sympy.Rational(11, 10), sympy.log(3))


def test_certainly_gt_is_strict_and_is_infinite_reads_the_lower_end():
    one = Certified(Fraction(1), Fraction(1))
    assert not certainly_gt(one, one) and not certainly_gt(1, 1)
    assert not certainly_gt(Certified(1, 2), Certified(0, 1))               # touching enclosures
    assert certainly_gt(Certified(2, 3), Certified(0, 1)) and decide_le(one, Certified(0, Fraction(1, 2))) is False
    assert not Certified(0, math.inf).is_infinite                           # unbounded above, not infinite
    assert Certified(0, math.inf).width == math.inf


def test_jsonable_mpmath_infinities():
    out = jsonable({"p": mpmath.inf, "m": -mpmath.inf, "x": [mpmath.mpf(1) / 4]})
    assert json.loads(json.dumps(out, allow_nan=False)) == {"p": "inf", "m": "-inf", "x": ["0.25"]}
