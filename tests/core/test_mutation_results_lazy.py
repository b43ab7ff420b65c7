"""bcdp.core.results (strict JSON, Certified), bcdp.core.lazy (PEP 562 re-exports) and
bcdp.core.parameters (exact ratio comparisons) pinned at their documented contracts: the tests that
kill the survivors of the mutmut gate (docs/testing.md, "The mutation gate") in these modules.

References are independent: the JSON forms are checked with ``json.dumps(allow_nan=False)`` and
against values written here, mpf strings against mpmath at 60 digits, products of ratios in
Fractions by hand."""

from __future__ import annotations

import json
import math
import sys
import types
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy

from bcdp.core.lazy import lazy_exports
from bcdp.core.numbers import INFINITY
from bcdp.core.parameters import LogRatioParameter, product_of_ratios, ratio_at_most
from bcdp.core.results import Certified, jsonable


# -- jsonable ------------------------------------------------------------------------------------------

def test_jsonable_keeps_none_bools_and_strings_as_they_are():
    assert jsonable(None) is None
    assert jsonable(True) is True and jsonable(False) is False
    assert jsonable("abc") == "abc"
    assert jsonable({"a": None, "b": [None, True]}) == {"a": None, "b": [None, True]}


def test_jsonable_refuses_nan_unless_a_text_is_given_at_every_depth():
    nested = {"f": float("nan"), "m": mpmath.mpf("nan"), "a": np.array([1.5, np.nan]),
              "t": [(2, float("nan"))], "ok": 0.25}
    for bad in (float("nan"), mpmath.mpf("nan"), nested, [nested]):
        with pytest.raises(ValueError, match="^NaN is not a valid result$"):
            jsonable(bad)
    assert jsonable(nested, nan="nan") == {"f": "nan", "m": "nan", "a": [1.5, "nan"], "t": [[2, "nan"]],
                                           "ok": 0.25}
    assert jsonable(Certified(0.5, 0.5, 0.5), nan="x") == Certified(0.5, 0.5, 0.5).to_json()

    class Record:  # any object written through its to_json: the NaN text reaches its fields too
        def to_json(self):
            return {"seen": float("nan"), "deep": [mpmath.mpf("nan")]}
    assert jsonable([Record()], nan="NaN") == [{"seen": "NaN", "deep": ["NaN"]}]
    with pytest.raises(ValueError, match="^NaN is not a valid result$"):
        jsonable(Record())


def test_jsonable_float_and_mpf_infinities_keep_their_sign():
    assert jsonable(math.inf) == "inf" and jsonable(-math.inf) == "-inf"
    assert jsonable(mpmath.mpf("inf")) == "inf" and jsonable(mpmath.mpf("-inf")) == "-inf"
    with pytest.raises(ValueError):
        jsonable(math.nan)
    with pytest.raises(ValueError):
        jsonable(mpmath.mpf("nan"))


def test_jsonable_goes_through_to_json_of_non_certified_results():
    """Objects with a ``to_json`` (here a LogRatioParameter) are written through it, recursively."""
    param = LogRatioParameter(Fraction(4), {"output": (0, 1)})
    got = jsonable({"eps": param})
    # exact = log(ratio) written by sympy; the float is the nearest double
    assert got == {"eps": {"exact": str(sympy.log(4)), "float": math.log(4), "witness": {"output": [0, 1]}}}
    assert jsonable(LogRatioParameter(INFINITY, None)) == {"exact": "oo", "float": "inf", "witness": None}
    json.dumps(got, allow_nan=False)


def test_jsonable_numpy_scalars_are_plain_numbers():
    # (np.float64 is a float subclass and already valid JSON; these are not)
    for value, want in ((np.int64(7), 7), (np.float32(0.25), 0.25),
                        (np.bool_(True), True), (np.array(2.5), 2.5)):
        got = jsonable(value)
        assert got == want and type(got) is type(want), (value, got)
    assert jsonable(np.float64(np.inf)) == "inf" and jsonable(np.float64(-np.inf)) == "-inf"
    with pytest.raises(ValueError):
        jsonable(np.float64(np.nan))


def test_jsonable_numpy_arrays_become_lists():
    """Regression: ``jsonable`` of a numpy array of more than one entry raised ValueError ("can only
    convert an array of size 1 to a Python scalar"): it took ``x.item()`` of every numpy object
    that has an ``item`` method, arrays included, so the ``tolist`` branch was never reached.
    Arrays are the float twins' vector results (``renyi_divergence_float`` over several orders)."""
    assert jsonable(np.array([1.0, np.inf, 0.5])) == [1.0, "inf", 0.5]
    assert jsonable(np.array([[1, 2], [3, 4]])) == [[1, 2], [3, 4]]
    assert jsonable({"orders": np.array([2, 3])}) == {"orders": [2, 3]}
    with pytest.raises(ValueError):
        jsonable(np.array([1.0, np.nan]))


def test_jsonable_mpf_is_a_string_of_40_significant_digits():
    with mpmath.workdps(60):
        third = mpmath.mpf(1) / 3
        root2 = mpmath.sqrt(2)
    assert jsonable(third) == "0." + "3" * 40
    # sqrt 2 to 40 significant digits, rounded to nearest, from integer square roots (no mpmath)
    n = math.isqrt(2 * 10 ** 80)                     # floor(sqrt(2) 10^40): 41 digits
    digits = str((n + 5) // 10)                      # 40 digits, rounded
    assert jsonable(root2) == (digits[0] + "." + digits[1:]).rstrip("0")   # nstr strips trailing zeros


def test_jsonable_other_values_are_their_str():
    assert jsonable(sympy.Rational(1, 3)) == "1/3"
    assert jsonable(sympy.log(2)) == "log(2)"
    assert jsonable(Fraction(-2, 6)) == "-1/3"
    assert jsonable(sympy.oo) == "oo"


# -- Certified -----------------------------------------------------------------------------------------

def test_certified_to_json_names_every_field():
    c = Certified(Fraction(1, 3), Fraction(1, 2), exact=Fraction(2, 5), witness={"order": 2},
                  provenance="BCDP paper, Prop. 4", details={"alpha_star": Fraction(3, 2)})
    assert c.to_json() == {"lower": "1/3", "upper": "1/2", "exact": "2/5", "witness": {"order": 2},
                           "provenance": "BCDP paper, Prop. 4", "alpha_star": "3/2"}
    assert jsonable([c]) == [c.to_json()]


def test_with_details_keeps_every_field_and_adds_the_details():
    c = Certified(Fraction(1, 3), Fraction(1, 2), exact=Fraction(2, 5), witness={"order": 2},
                  provenance="PDP paper, Prop. 8", details={"a": 1})
    d = c.with_details(b=2)
    assert (d.lower, d.upper, d.exact, d.witness, d.provenance) == (
        Fraction(1, 3), Fraction(1, 2), Fraction(2, 5), {"order": 2}, "PDP paper, Prop. 8")
    assert dict(d.details) == {"a": 1, "b": 2} and d.b == 2 and d.a == 1
    assert dict(c.details) == {"a": 1}          # the original is unchanged


# -- lazy_exports --------------------------------------------------------------------------------------

@pytest.fixture
def facade():
    """A throw-away module re-exporting ``Fraction`` (from fractions) and ``sqrt``, ``pi`` (from
    math) through :func:`lazy_exports`, called here so that the function under test runs now."""
    name = "bcdp_test_lazy_facade"
    module = types.ModuleType(name)
    module.own_name = 1
    sys.modules[name] = module
    try:
        getattr_, dir_, names = lazy_exports(name, {"fractions": ["Fraction"], "math": ["sqrt", "pi"]})
        module.__getattr__, module.__dir__ = getattr_, dir_
        yield module, getattr_, dir_, names
    finally:
        del sys.modules[name]


def test_lazy_exports_resolves_caches_lists_and_refuses(facade):
    module, getattr_, dir_, names = facade
    assert names == ["Fraction", "pi", "sqrt"]
    assert "sqrt" not in vars(module)
    assert getattr_("sqrt") is math.sqrt
    assert vars(module)["sqrt"] is math.sqrt          # cached in the module's globals
    assert module.Fraction is Fraction and module.pi == math.pi
    listing = dir_()
    assert listing == sorted(listing)
    assert {"own_name", "Fraction", "pi", "sqrt", "__getattr__"} <= set(listing)
    assert dir(module) == listing
    with pytest.raises(AttributeError, match="module 'bcdp_test_lazy_facade' has no attribute 'cos'"):
        getattr_("cos")                               # in math, but not listed


def test_lazy_exports_dir_lists_names_not_yet_imported(facade):
    module, _getattr, dir_, _names = facade
    listing = dir_()
    assert "pi" in listing and "pi" not in vars(module)
    assert "own_name" in listing and "own_name" not in ("Fraction", "pi", "sqrt")


# -- parameters ----------------------------------------------------------------------------------------

def test_ratio_at_most_with_infinite_ratios():
    two = Fraction(2)
    assert ratio_at_most(two, INFINITY) is True
    assert ratio_at_most(INFINITY, INFINITY) is True
    assert ratio_at_most(INFINITY, two) is False
    assert ratio_at_most(LogRatioParameter(INFINITY), LogRatioParameter(Fraction(10 ** 9))) is False
    assert ratio_at_most(Fraction(3, 2), two) is True and ratio_at_most(two, Fraction(3, 2)) is False


def test_product_of_ratios_is_the_exact_product():
    assert product_of_ratios([]) == 1                 # the empty composition: eps = 0
    assert product_of_ratios([LogRatioParameter(Fraction(3, 2))]) == Fraction(3, 2)
    # 3/2 * 4/3 * 5/7 = 10/7 by hand
    got = product_of_ratios([LogRatioParameter(Fraction(3, 2)), LogRatioParameter(Fraction(4, 3)),
                             LogRatioParameter(Fraction(5, 7))])
    assert got == Fraction(10, 7) and isinstance(got, Fraction)
    assert product_of_ratios([LogRatioParameter(Fraction(2)), LogRatioParameter(INFINITY)]) == INFINITY
