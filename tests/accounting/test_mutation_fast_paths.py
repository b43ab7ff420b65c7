"""The fast paths of the conversions (issue 14): what the mutation gate showed untested.

* eps_float_array: any reals read as floats, NaN read as +inf, no floating-point warning, and the
  Asoodeh form at its branch point x = (alpha - 1) r = 1 and where alpha delta is below e^-700, each
  against the printed formula in mpmath at 50 digits (Asoodeh et al., the form of OpenDP's
  rdp_epsilon1_on: log(1 + (e^x - 1)/(alpha delta))/(alpha - 1));
* the array path performs no per-order call of the curve (the search and the total-variation rule
  read the curve's table; only the certified orders are evaluated);
* the Asoodeh order filter (alpha delta < 1 with its margin), at an order exactly on the margin;
* the lazy certification of tightest_rdp_to_dp: the order of certification (ascending float eps),
  the stop at a tie with the best certified value, a conversion that does not apply, the record of
  a winner at the end of the orders, the rule's order (the smallest r), and the scalar pre-test.
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from bcdp.accounting.curves import RdpCurve, gaussian_rdp, rdp_curve_from_arrays
from bcdp.accounting.inputs import log_inverse
from bcdp.accounting.search import ASOODEH_MARGIN, BOUNDARY_NOTE, eps_float_array, search_alpha
from bcdp.accounting.tightest import tightest_rdp_to_dp, tv_rule_float
from bcdp.core.errors import InvalidInputError


def _asoodeh(u, r, L):
    with mpmath.workdps(50):
        u, r, L = mpmath.mpf(u), mpmath.mpf(r), mpmath.mpf(L)
        return mpmath.log(1 + mpmath.expm1(u * r) / ((1 + u) * mpmath.exp(-L))) / u


def test_any_reals_are_read_as_floats_and_nan_as_inf():
    u_exact = [1, Fraction(1, 2), 3]
    r_exact = [Fraction(1, 10), 2, Fraction(3, 4)]
    for method in ("mironov", "cks", "asoodeh"):
        got = eps_float_array(u_exact, r_exact, 5.0, method)
        want = eps_float_array(np.array([1.0, 0.5, 3.0]), np.array([0.1, 2.0, 0.75]), 5.0, method)
        assert got.dtype == np.float64 and np.array_equal(got, want)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert eps_float_array([1.0], [math.nan], 5.0, method)[0] == math.inf


def test_no_floating_point_warning_at_the_extremes():
    u = np.array([1e-6, 1.0, 1e6, 1e6, 1.0])
    r = np.array([0.0, 1e308, 1e308, 0.0, math.inf])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for method in ("mironov", "cks", "asoodeh"):
            out = eps_float_array(u, r, 50.0, method)
            assert not np.any(np.isnan(out))


@pytest.mark.parametrize("x", [1.0, math.nextafter(1.0, 0.0), math.nextafter(1.0, 2.0), 0.5, 2.0])
def test_asoodeh_at_its_branch_point(x):
    """u = 1, r = x: the two forms of log(e^x - 1) meet at x = 1."""
    got = eps_float_array([1.0], [x], 10.0, "asoodeh")[0]
    want = _asoodeh(1.0, x, 10.0)
    assert abs(got - float(want)) <= 1e-14 * float(want)


@pytest.mark.parametrize("log_r", [-704.0, -703.0, -700.0, -690.0, -720.0])
def test_asoodeh_where_alpha_delta_is_below_e_minus_700(log_r):
    """L = 705 (delta = e^-705), alpha = 2: alpha delta = 2 e^-705 < e^-700; r = e^log_r makes
    log((e^x - 1)/(alpha delta)) range over [-16, 14], both sides of 0."""
    r = math.exp(log_r)
    got = eps_float_array([1.0], [r], 705.0, "asoodeh")[0]
    want = _asoodeh(1.0, r, 705.0)
    assert abs(got - float(want)) <= 1e-12 * float(want)


class _CountingCurve:
    """An array curve (RdpCurve with its order table) whose float value function counts its calls."""

    def __init__(self, orders, values):
        self.calls = 0
        table = dict(zip(orders, values))

        def value(a):
            self.calls += 1
            return table[a]
        self.curve = RdpCurve(value=value, certified=lambda a: Fraction(table[float(a)]), label="counting",
                              source="test", orders=tuple(orders), order_values=tuple(values))


def test_the_array_path_makes_no_call_per_order():
    orders = [1 + k / 10 for k in range(1, 101)]
    c = _CountingCurve(orders, [0.05 * a for a in orders])
    for method in ("mironov", "cks", "asoodeh"):
        search_alpha(c.curve, "1e-6", method)
    assert c.calls == 0
    res = tightest_rdp_to_dp(c.curve, "1e-6")
    assert c.calls <= len(res.details["certified_candidates"])   # one float value per certification


def test_unsorted_integer_orders_give_a_sorted_table():
    c = RdpCurve(value=lambda a: 0.0, certified=None, label="x", source="y", orders=(5, 2, 3),
                 order_values=(0.5, 0.2, 0.3))
    o, v = c.sorted_orders_and_values()
    assert o.tolist() == [2, 3, 5] and v.tolist() == [0.2, 0.3, 0.5]


def test_asoodeh_order_filter():
    """delta = 1/2: alpha delta < 1 needs alpha < 2 (with the margin 1e-9): order 1.5 is admissible,
    order 2.5 is not (its float eps would be inf)."""
    assert math.isfinite(search_alpha(rdp_curve_from_arrays([1.5], [0.01]), "0.5", "asoodeh")[1])
    with pytest.raises(InvalidInputError, match="no admissible order"):
        search_alpha(rdp_curve_from_arrays([2.5], [0.01]), "0.5", "asoodeh")


def test_asoodeh_order_exactly_on_the_margin_is_admissible():
    """An order whose alpha - 1 equals the search's upper end expm1(L) (1 - margin) exactly (found
    among deltas 1/2, 1/3, ...): it is searched (alpha delta < 1 holds there)."""
    for k in range(2, 400):
        delta = f"1/{k}"
        u_max = math.expm1(log_inverse(delta)) * (1 - ASOODEH_MARGIN)
        a = 1.0 + u_max
        if a - 1.0 == u_max and a * Fraction(1, k) < 1:
            break
    else:
        pytest.skip("no delta 1/k with an exactly representable boundary order")
    res = search_alpha(rdp_curve_from_arrays([a], [0.01]), delta, "asoodeh")
    assert res[0] == a and math.isfinite(res[1])


def test_certification_runs_in_ascending_float_eps_and_stops():
    """Gaussian sigma = 2, delta = 1e-5, at orders 2..64: CKS has the smallest float eps and its
    certified value is below the others' float eps, so it is the only one certified."""
    orders = [float(a) for a in range(2, 65)]
    g = gaussian_rdp(2)
    curve = rdp_curve_from_arrays(orders, [g(a) for a in orders], [Fraction(a) / 8 for a in orders])
    res = tightest_rdp_to_dp(curve, "1e-5")
    floats = res.details["candidates_float"]
    assert floats["cks"] < floats["asoodeh"] and floats["cks"] < floats["mironov"]
    assert res.details["certified_candidates"] == ("cks",)
    assert "tv" not in tightest_rdp_to_dp(curve, "1e-5", certify_all=True).details["certified_candidates"]


def test_a_float_eps_equal_to_the_best_certified_value_is_not_certified():
    """delta = 1/2 and r = 1e-9 at order 2: the rule certifies eps = 0, and CKS's float eps is also
    0 (negative before the clamp): equal to the best, so it is not certified."""
    curve = rdp_curve_from_arrays([2.0], [1e-9], ["1e-9"])
    res = tightest_rdp_to_dp(curve, "0.5")
    assert res.details["candidates_float"]["cks"] == 0.0
    assert res.details["certified_candidates"] == ("tv",) and res.details["candidates"]["cks"] is None


def test_a_conversion_that_does_not_apply_does_not_stop_the_others():
    """Order 3 with delta = 1/2: Asoodeh needs alpha delta < 1 and does not apply; Mironov is still
    searched (and CKS wins)."""
    curve = rdp_curve_from_arrays([3.0], [0.5], ["1/2"])
    res = tightest_rdp_to_dp(curve, "0.5", certify_all=True)
    assert res.details["candidates_float"]["asoodeh"] is None and res.details["candidates"]["asoodeh"] is None
    assert res.details["candidates_float"]["mironov"] is not None and res.details["candidates"]["mironov"] is not None


def test_a_winner_at_the_last_order_carries_the_boundary_note():
    """r(alpha) = 1e-3 alpha at orders 2..5, delta = 1e-10: CKS's best order is beyond 5, so the
    winner sits at the last order and says so."""
    orders = [2.0, 3.0, 4.0, 5.0]
    curve = rdp_curve_from_arrays(orders, [1e-3 * a for a in orders], [Fraction(a) / 1000 for a in orders])
    res = tightest_rdp_to_dp(curve, "1e-10")
    assert res.details["alpha_star"] == 5.0 and res.details["alpha_at_search_boundary"] is True
    assert res.details["notes"] == (BOUNDARY_NOTE,)


def test_the_rule_is_tried_at_the_smallest_r_first_and_only_at_the_orders_given():
    """A non-monotone array curve: r = 2e-5 at order 2 and 1e-5 at order 3 (both pass the rule at
    delta = 0.01): the rule's order is 3.  With orders=[2.0] it is 2, and with a curve where only
    order 3 passes, orders=[2.0] leaves the rule out."""
    curve = rdp_curve_from_arrays([2.0, 3.0], [2e-5, 1e-5], ["2e-5", "1e-5"])
    assert tightest_rdp_to_dp(curve, "0.01").details["alpha_star"] == 3.0
    assert tightest_rdp_to_dp(curve, "0.01", orders=[2.0]).details["alpha_star"] == 2.0
    only3 = rdp_curve_from_arrays([2.0, 3.0], [1.0, 1e-5], ["1", "1e-5"])
    assert tightest_rdp_to_dp(only3, "0.01", orders=[2.0]).details["candidates"]["tv"] is None


def test_scalar_pre_test_returns_a_bool():
    assert tv_rule_float(1e-6, 0.01) is True and tv_rule_float(1.0, 0.01) is False
    assert tv_rule_float(np.array([1e-6, 1.0]), 0.01).tolist() == [True, False]
