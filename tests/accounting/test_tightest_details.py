"""The tightest conversion's result record and its search details (bcdp.accounting.tightest).

The record of a win by the total-variation rule has the fields of every conversion result (the keys
of an `rdp_to_dp` result, compared here) with values checked independently: eps 0, enclosure (0, 0),
the order tried, the certified RDP there at least the exact value given, the curve's label and
assumption, the rule's provenance; a win by another conversion carries that conversion's source.  The
orders the rule tries (the given ones, the curve's own, 2..256 for "integer", the real grid) and the
working precision are checked through cases whose answer depends on them; the float pre-test against
a hand-set tie with the documented relative slack 1e-9.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from bcdp.accounting.conversion import SOURCES, rdp_to_dp
from bcdp.accounting.curves import UNCERTIFIED, gaussian_rdp, rdp_curve_from_arrays, rdp_curve_from_callable, zcdp_rdp
from bcdp.accounting.tightest import TV_SOURCE, tightest_rdp_to_dp, tv_rule_certified, tv_rule_float
from bcdp.core.errors import InvalidInputError
from bcdp.core.numbers import MIN_PREC_BITS


def test_record_of_a_total_variation_win():
    curve = rdp_curve_from_arrays([1.5, 3.0], [2e-5, 1.0], ["2e-5", "1"], label="two orders")
    res = tightest_rdp_to_dp(curve, "0.01")
    d = res.details
    assert set(d) == set(rdp_to_dp(curve, "0.01").details) | {"candidates", "candidates_float", "certified_candidates"}
    assert d["certified_candidates"] == ("tv",) and d["candidates_float"]["tv"] == 0.0
    assert (res.lower, res.upper, d["epsilon_certified_upper"], d["epsilon_float"]) == (0.0, 0.0, 0.0, 0.0)
    assert d["method"] == "tv" and d["enclosure"] == (0.0, 0.0) and d["alpha_star"] == 1.5
    assert d["delta"] == "0.01" and d["curve"] == "two orders" and d["rdp_certified"] is True
    assert d["assumption"] == "" and d["alpha_at_search_boundary"] is False and d["notes"] == ()
    assert Fraction(d["rdp_at_alpha_star_upper"]) >= Fraction("2e-5") and d["rdp_at_alpha_star_upper"] < 2.00001e-5
    assert res.provenance == d["source"] == TV_SOURCE and "Bretagnolle" in TV_SOURCE


def test_record_of_an_uncertified_curve_says_so():
    curve = rdp_curve_from_arrays([2.0], [1e-6])
    d = tightest_rdp_to_dp(curve, "0.01").details
    assert d["method"] == "tv" and d["rdp_certified"] is False and d["assumption"] == UNCERTIFIED


@pytest.mark.parametrize("method", ["cks", "mironov"])
def test_record_of_another_winner(method):
    """Gaussian sigma = 2, delta = 1e-5: CKS wins; the record carries its source, and each candidate is
    the conversion's own certified value."""
    res = tightest_rdp_to_dp(gaussian_rdp(2), "1e-5", certify_all=True)
    assert res.details["method"] == "cks" and res.details["source"] == res.provenance == SOURCES["cks"]
    assert res.details["candidates"][method] == rdp_to_dp(gaussian_rdp(2), "1e-5", method).upper
    # CKS is below Mironov at every order, so by default Mironov is never certified
    lazy = tightest_rdp_to_dp(gaussian_rdp(2), "1e-5")
    assert lazy.details["candidates"]["mironov"] is None and "mironov" not in lazy.details["certified_candidates"]


def test_alpha_max_and_precision_reach_every_conversion():
    """alpha_max = 3 caps the order of the winner (the unconstrained CKS optimum for sigma = 2,
    delta = 1e-5 is near 3.85); at 53 bits the certified enclosure is the 53-bit one of rdp_to_dp,
    wider than at the default precision."""
    res = tightest_rdp_to_dp(gaussian_rdp(2), "1e-5", alpha_max=3.0)
    assert res.details["alpha_star"] <= 3.0
    assert res.upper == rdp_to_dp(gaussian_rdp(2), "1e-5", "cks", alpha_max=3.0).upper
    low = tightest_rdp_to_dp(gaussian_rdp(2), "1e-5", prec=MIN_PREC_BITS)
    want = rdp_to_dp(gaussian_rdp(2), "1e-5", "cks", prec=MIN_PREC_BITS)
    assert low.details["enclosure"] == want.details["enclosure"] != rdp_to_dp(gaussian_rdp(2), "1e-5").details["enclosure"]


def test_precision_reaches_the_rule():
    """r = -log(1 - delta^2) - 1e-30: the rule holds, but 64 bits cannot decide it; 256 bits can."""
    import mpmath

    with mpmath.workdps(50):
        r = Fraction(mpmath.nstr(-mpmath.log1p(-mpmath.mpf("1e-4")) - mpmath.mpf("1e-30"), 45))
    curve = rdp_curve_from_arrays([1.5], [float(r)], [r])
    assert tightest_rdp_to_dp(curve, "0.01", prec=64).details["candidates"]["tv"] is None
    assert tightest_rdp_to_dp(curve, "0.01", prec=256).details["candidates"]["tv"] == 0.0


def test_a_conversion_that_cannot_answer_is_an_error():
    curve = rdp_curve_from_arrays([2.0, 3.0], [math.inf, math.inf])
    with pytest.raises(InvalidInputError, match="infinite at every searched order"):
        tightest_rdp_to_dp(curve, "1e-5")


def test_rule_refuses_an_infinite_rdp_and_names_a_bad_delta():
    """An uncertified curve whose float value is inf: its enclosure is not finite, the rule must not
    apply (delta = 0.5 would pass any finite comparison with a NaN-free ball of 0)."""
    assert tv_rule_certified(rdp_curve_from_callable(lambda a: math.inf), 2.0, "0.5") is False
    with pytest.raises(InvalidInputError, match="delta"):
        tv_rule_certified(zcdp_rdp("1e-6"), 2.0, "abc")


def test_integer_grid_is_2_to_256_and_alpha_max_is_inclusive():
    """A curve that is tiny only at one order: the rule applies when that order is tried."""
    def only_at(order):
        return rdp_curve_from_callable(lambda a: 1e-6 if a == order else 1.0,
                                       certified=lambda a: "1e-6" if a == order else 1)
    assert tightest_rdp_to_dp(only_at(256.0), "0.01", orders="integer", alpha_max=300).details["method"] == "tv"
    assert tightest_rdp_to_dp(only_at(257.0), "0.01", orders="integer", alpha_max=300).details["candidates"]["tv"] \
        is None
    assert tightest_rdp_to_dp(only_at(2.0), "0.01", orders=[2.0, 3.0], alpha_max=2.0).details["method"] == "tv"


def test_orders_where_the_curve_fails_are_skipped():
    """A curve that overflows below alpha = 1.5 (the first real-grid orders) still gets the rule above."""
    def value(a):
        if a < 1.5:
            raise OverflowError("no value here")
        return 1e-6
    res = tightest_rdp_to_dp(rdp_curve_from_callable(value, certified=lambda a: "1e-6"), "0.01", alpha_max=100)
    assert res.details["method"] == "tv" and res.details["alpha_star"] >= 1.5


def test_float_pre_test_at_its_slack():
    """delta^2 (1 + 1e-9) + expm1(-r) >= 0, written out at the three sides of the slack."""
    d = 0.01
    assert tv_rule_float(-math.log1p(-d * d * (1 - 1e-6)), d)          # clearly holds
    assert tv_rule_float(-math.log1p(-d * d * (1 + 0.5e-9)), d)        # within the slack
    assert not tv_rule_float(-math.log1p(-d * d * (1 + 2e-9)), d)      # beyond it
    assert not tv_rule_float(1.0, d) and tv_rule_float(0.0, d)
