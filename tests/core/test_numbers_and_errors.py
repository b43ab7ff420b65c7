"""bcdp.core.numbers (the one number-input policy) and bcdp.core.errors (the one hierarchy)."""

from __future__ import annotations

import time
from decimal import Decimal
from fractions import Fraction

import pytest
import sympy
from bcdp.core import errors
from bcdp.core.errors import (
    BcdpError,
    CertificationError,
    FloatRefusedError,
    InputFileError,
    InvalidInputError,
    UndecidedComparison,
    ValidityConditionError,
    WrongTypeError,
    exit_code,
)
from bcdp.core.numbers import (
    MAX_DECIMAL_EXPONENT,
    MAX_DIGITS,
    to_float_input,
    to_fraction,
    to_probability,
)


@pytest.mark.parametrize("value,expected", [
    (3, Fraction(3)), (Fraction(2, 7), Fraction(2, 7)), ("1/3", Fraction(1, 3)), (" 0.1 ", Fraction(1, 10)),
    ("1e-300", Fraction(1, 10 ** 300)), (Decimal("2.5"), Fraction(5, 2)), (sympy.Rational(-4, 6), Fraction(-2, 3)),
    (sympy.Integer(5), Fraction(5)),
])
def test_exact_inputs_are_read_as_the_rational_they_spell(value, expected):
    assert to_fraction(value) == expected


@pytest.mark.parametrize("value,cls,message", [
    (0.1, FloatRefusedError, "floats are refused"),
    (True, WrongTypeError, "booleans"),
    ([1], WrongTypeError, "cannot use list"),
    (sympy.sqrt(2), WrongTypeError, "not a rational"),
    ("nan", InvalidInputError, "non-finite"),
    ("inf", InvalidInputError, "non-finite"),
    (Decimal("NaN"), InvalidInputError, "non-finite"),
    ("1/0", InvalidInputError, "cannot read"),
    ("abc", InvalidInputError, "cannot read"),
])
def test_refusals_name_the_problem(value, cls, message):
    with pytest.raises(cls, match=message):
        to_fraction(value, "x")


def test_float_refusal_is_a_type_and_a_value_error():
    # callers that caught TypeError (old FloatRefusedError) or ValueError (bad input) both still work
    with pytest.raises(TypeError):
        to_fraction(0.5)
    with pytest.raises(ValueError):
        to_fraction(0.5)


def test_exponent_cap_both_sides_and_no_hang():
    assert to_fraction(f"1e-{MAX_DECIMAL_EXPONENT}") == Fraction(1, 10 ** MAX_DECIMAL_EXPONENT)
    start = time.perf_counter()
    for bad in (f"1e-{MAX_DECIMAL_EXPONENT + 1}", "1e999999999", Decimal("1e-999999999")):
        with pytest.raises(InvalidInputError, match="beyond the cap"):
            to_fraction(bad)
    assert time.perf_counter() - start < 1.0  # refused before any big-number work


def test_length_cap_both_sides():
    ok = "0." + "1" * (MAX_DIGITS - 10)
    assert to_fraction(ok).denominator == 10 ** (MAX_DIGITS - 10)
    with pytest.raises(InvalidInputError, match="longer than"):
        to_fraction("0." + "1" * MAX_DIGITS)


def test_probability_bounds():
    assert to_probability("0") == 0 and to_probability("1") == 1
    for bad in ("-1/1000000", "1000001/1000000"):
        with pytest.raises(InvalidInputError, match="not a probability"):
            to_probability(bad)


def test_float_twin_policy():
    assert to_float_input(0.5) == 0.5 and to_float_input("1/4") == 0.25 and to_float_input(Fraction(1, 8)) == 0.125
    assert to_float_input("inf", allow_inf=True) == float("inf")
    for bad, cls in ((True, WrongTypeError), (float("nan"), InvalidInputError), ("nan", InvalidInputError),
                     (float("inf"), InvalidInputError), ("x", InvalidInputError), (object(), WrongTypeError)):
        with pytest.raises(cls):
            to_float_input(bad, "x")


def test_hierarchy_and_exit_codes():
    for cls in (InvalidInputError, FloatRefusedError, WrongTypeError, ValidityConditionError, InputFileError):
        assert issubclass(cls, InvalidInputError) and issubclass(cls, ValueError)
        assert exit_code(cls("m")) == errors.EXIT_BAD_INPUT == 2
    assert issubclass(FloatRefusedError, TypeError) and issubclass(WrongTypeError, TypeError)
    assert issubclass(UndecidedComparison, CertificationError) and issubclass(CertificationError, ArithmeticError)
    assert all(issubclass(c, BcdpError) for c in (InvalidInputError, CertificationError))
    assert exit_code(ZeroDivisionError()) == errors.EXIT_INTERNAL_ERROR == 3
    assert exit_code(KeyError("k")) == 3
    assert (errors.EXIT_OK, errors.EXIT_CHECK_FAILED) == (0, 1)


def test_no_other_exception_classes_in_the_library():
    """One hierarchy in one module: no other module of bcdp defines an Exception subclass."""
    import ast
    from pathlib import Path

    import bcdp

    root = Path(bcdp.__file__).parent
    offenders = []
    for path in root.rglob("*.py"):
        if path.name == "errors.py" and path.parent.name == "core":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef):
                bases = {getattr(b, "id", getattr(b, "attr", "")) for b in node.bases}
                if bases & {"Exception", "ValueError", "TypeError", "ArithmeticError", "RuntimeError"} or \
                        any(b.endswith("Error") for b in bases):
                    offenders.append(f"{path.relative_to(root)}:{node.name}")
    assert offenders == []


# -- edges found by mutation testing (benchmarks/mutate_core.py) ------------------------------------

def _repunit(n: int) -> int:
    """11...1 with n ones, computed arithmetically (no int(str) of a huge string)."""
    return (10 ** n - 1) // 9


def test_caps_are_inclusive_at_exactly_the_cap():
    # a string of exactly MAX_DIGITS characters, and a decimal of exactly MAX_DIGITS digits, are read
    text = "0." + "1" * (MAX_DIGITS - 2)
    assert len(text) == MAX_DIGITS
    assert to_fraction(text) == Fraction(_repunit(MAX_DIGITS - 2), 10 ** (MAX_DIGITS - 2))
    assert to_fraction(" " + text + " ") == Fraction(_repunit(MAX_DIGITS - 2), 10 ** (MAX_DIGITS - 2))
    assert to_fraction(Decimal("1" * MAX_DIGITS)) == Fraction(_repunit(MAX_DIGITS))
    # one character / one digit more is refused
    with pytest.raises(InvalidInputError, match="longer than"):
        to_fraction("0." + "1" * (MAX_DIGITS - 1))
    with pytest.raises(InvalidInputError, match="more than"):
        to_fraction(Decimal("1" * (MAX_DIGITS + 1)))


@pytest.mark.parametrize("value", [2.0, -0.0, 1e300])
def test_integral_floats_are_refused_too(value):
    with pytest.raises(FloatRefusedError):
        to_fraction(value)


def test_ratio_to_float_log_is_one_ulp_accurate_and_refuses_non_positive():
    import math

    import mpmath
    from bcdp.core.numbers import INFINITY, log_of_ratio, ratio_to_float_log

    cases = [Fraction(3), Fraction(1, 7), 1 + Fraction(1, 10 ** 30), 1 - Fraction(1, 10 ** 25),
             Fraction(10 ** 40 + 1, 10 ** 40), Fraction(2 ** 80 + 3, 2 ** 80 - 5), Fraction(10 ** 200, 3)]
    for r in cases:
        with mpmath.workdps(80):
            ref = mpmath.log(mpmath.mpf(r.numerator) / r.denominator)
            got = ratio_to_float_log(r)
            assert abs(mpmath.mpf(got) - ref) <= math.ulp(float(ref)), r
            # the exact sympy form is the log of the same ratio, not of its inverse
            assert abs(mpmath.mpf(str(sympy.N(log_of_ratio(r), 70))) - ref) <= mpmath.mpf(10) ** -60 * (1 + abs(ref))
    assert ratio_to_float_log(INFINITY) == math.inf and log_of_ratio(INFINITY) == sympy.oo
    for bad in (Fraction(0), Fraction(-1, 2)):
        with pytest.raises(InvalidInputError, match="non-positive"):
            ratio_to_float_log(bad)
