"""The vectorised and remembered paths of the conversions (issue 14: within a few times
dp_accounting's time): the numpy search of an array curve, the one-pass checks of its orders and
values, and the caches of delta's checks and enclosures.

Oracles: the printed conversion formulas in mpmath at 50 digits (Mironov 2017 Prop. 3; Canonne,
Kamath & Steinke 2020 Prop. 12; the Asoodeh et al. form for alpha delta < 1), and the per-value
checks the fast paths replace (same messages, same accepted inputs).
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from bcdp.accounting.conversion import rdp_to_dp
from bcdp.accounting.curves import RdpCurve, gaussian_rdp, rdp_curve_from_arrays
from bcdp.accounting.inputs import check_delta, enclose, enclose_log_inverse, log_inverse
from bcdp.accounting.search import eps_float_array, search_alpha
from bcdp.core.errors import InvalidInputError
from bcdp.core.intervals import arb_precision, ball_ends


def _printed(method: str, u: mpmath.mpf, r: mpmath.mpf, L: mpmath.mpf) -> mpmath.mpf:
    a = 1 + u
    if mpmath.isinf(r):
        return mpmath.inf
    if method == "mironov":
        return r + L / u
    if method == "cks":
        return r + mpmath.log(1 - 1 / a) + (L - mpmath.log(a)) / u
    delta = mpmath.exp(-L)
    if not a * delta < 1:
        return mpmath.inf
    return mpmath.log(1 + mpmath.expm1(u * r) / (a * delta)) / u


@pytest.mark.parametrize("method", ["mironov", "cks", "asoodeh"])
def test_array_conversion_matches_the_printed_formulas(method):
    """Random orders alpha - 1 in [1e-6, 1e6], values in [0, 1e3] (with 0 and inf), L in [1e-3, 2000]
    (delta down to e^-2000, where alpha delta is below e^-700): relative error <= 1e-9 of the
    50-digit value (the float formulas lose a few digits near alpha = 1), inf exactly where it is."""
    rng = random.Random(14)
    with mpmath.workdps(50):
        for _ in range(40):
            L = 10 ** rng.uniform(-3, math.log10(2000))
            u = np.array([10 ** rng.uniform(-6, 6) for _ in range(30)])
            r = np.array([0.0, math.inf] + [10 ** rng.uniform(-8, 3) for _ in range(28)])
            got = eps_float_array(u, r, L, method)
            for ui, ri, gi in zip(u, r, got):
                want = _printed(method, mpmath.mpf(ui), mpmath.mpf(ri), mpmath.mpf(L))
                if mpmath.isinf(want):
                    assert gi == math.inf, (ui, ri, L)
                elif abs(want) > 1e300:
                    assert gi > 1e299
                else:
                    assert abs(gi - float(want)) <= 1e-9 * max(abs(float(want)), 1e-300) + 1e-300, (ui, ri, L, gi, want)


def test_array_conversion_refuses_an_unknown_method():
    with pytest.raises(InvalidInputError, match="unknown method"):
        eps_float_array(np.array([1.0]), np.array([0.1]), 1.0, "bogus")


def test_search_of_an_array_curve_is_the_best_of_its_orders():
    """The order chosen at the curve's own orders is the argmin of the printed CKS formula over them
    (mpmath), the first on ties; alpha_max and the Asoodeh range leave orders out."""
    orders = [1.5, 2.0, 3.0, 5.0, 9.0, 17.0, 33.0]
    vals = [0.5 * a for a in orders]
    curve = rdp_curve_from_arrays(orders[::-1], vals[::-1])        # given in descending order
    L = mpmath.log(mpmath.mpf(10) ** 6)
    with mpmath.workdps(50):
        best = min(orders, key=lambda a: (_printed("cks", mpmath.mpf(a) - 1, mpmath.mpf(0.5 * a), L), a))
    a, v, at_b = search_alpha(curve, "1e-6", "cks")
    assert a == best and a not in (1.5, 33.0) and not at_b
    flat = rdp_curve_from_arrays([2.0, 3.0], [math.inf, math.inf])
    with pytest.raises(InvalidInputError, match="infinite at every searched order"):
        search_alpha(flat, "0.5", "mironov")
    with pytest.raises(InvalidInputError, match="no admissible order"):
        search_alpha(rdp_curve_from_arrays([3.0], [0.1]), "0.5", "asoodeh")   # 3 * 0.5 >= 1


def test_array_curve_checks_are_the_per_value_checks():
    ok = rdp_curve_from_arrays(np.array([2.0, 3.0]), np.array([0.5, math.inf]))
    assert ok(3.0) == math.inf and ok.order_values == (0.5, math.inf)
    with pytest.raises(InvalidInputError, match="^RDP value is NaN"):
        rdp_curve_from_arrays([2.0, 3.0], np.array([0.5, math.nan]))
    with pytest.raises(InvalidInputError, match="^RDP value at alpha=3.0 must be >= 0"):
        rdp_curve_from_arrays([2.0, 3.0], [0.5, -1e-300])
    with pytest.raises(InvalidInputError, match="alpha must be a finite real > 1"):
        rdp_curve_from_arrays([2.0, 1.0], [0.5, 0.5])
    with pytest.raises(InvalidInputError, match="alpha must be a finite real > 1"):
        rdp_curve_from_arrays(np.array([2.0, math.inf]), [0.5, 0.5])
    with pytest.raises(InvalidInputError, match="alpha"):
        rdp_curve_from_arrays([2.0, math.nan], [0.5, 0.5])
    mixed = rdp_curve_from_arrays([2, Fraction(5, 2)], [Fraction(1, 2), "0.25"])
    assert mixed.orders == (2.0, 2.5) and mixed.order_values == (0.5, 0.25)


def test_values_at_and_the_sorted_table():
    curve = rdp_curve_from_arrays([3.0, 2.0], [0.3, 0.2])
    assert curve.values_at([2.0, 3.0]).tolist() == [0.2, 0.3]
    assert curve.compose(3).values_at([2.0]).tolist() == [3 * 0.2]
    o, v = curve.sorted_orders_and_values()
    assert o.tolist() == [2.0, 3.0] and v.tolist() == [0.2, 0.3]
    o[0] = 99.0                                    # a copy: the curve is not changed
    assert curve.sorted_orders_and_values()[0].tolist() == [2.0, 3.0]
    assert curve.has_order(2.0) and not curve.has_order(2.5) and gaussian_rdp(1).has_order(2.5)
    assert gaussian_rdp(1).sorted_orders_and_values() is None
    with pytest.raises(InvalidInputError, match="only defined at its orders"):
        curve.values_at([2.5])
    with pytest.raises(InvalidInputError, match="order_values needs orders"):
        RdpCurve(value=lambda a: 0.0, certified=None, label="x", source="y", orders=(2.0,), order_values=(1.0, 2.0))
    with pytest.raises(InvalidInputError, match="order_values needs orders"):
        RdpCurve(value=lambda a: 0.0, certified=None, label="x", source="y", order_values=(1.0,))

    def overflowing(a):
        if a > 2:
            raise OverflowError
        return 0.1
    cc = RdpCurve(value=overflowing, certified=None, label="x", source="y")
    assert cc.values_at([2.0, 3.0]).tolist() == [0.1, math.inf]


def test_remembered_delta_is_read_by_its_type_and_precision():
    """The caches key on the input's type and the arb precision: the float 0.1 (the hull of its binary
    value and the decimal) and the string "0.1" (the decimal) give different enclosures, and a
    higher precision a narrower one; the remembered answers equal fresh ones."""
    with arb_precision(200):
        s_lo, s_hi = ball_ends(enclose("0.1", "delta"))
        f_lo, f_hi = ball_ends(enclose(0.1, "delta"))
        assert s_lo <= Fraction(1, 10) <= s_hi and f_lo <= Fraction(0.1) <= f_hi and f_hi >= Fraction(1, 10)
        assert f_hi - f_lo > s_hi - s_lo
        wide = ball_ends(enclose_log_inverse("0.1"))
    with arb_precision(400):
        narrow = ball_ends(enclose_log_inverse("0.1"))
        assert narrow[1] - narrow[0] < wide[1] - wide[0]
        assert narrow[0] <= wide[1] and wide[0] <= narrow[1]
    for d in ("1e-6", 1e-6, Fraction(1, 10 ** 6), "0.999999999999999999999"):
        with mpmath.workdps(40):
            want = -mpmath.log(mpmath.mpf(Fraction(d).numerator) / Fraction(d).denominator)
        assert abs(log_inverse(d) - float(want)) <= 1e-15 * float(want)
        assert log_inverse(d) == log_inverse(d)
    for bad in ("0", "1", 0, 1.0, Fraction(3, 2)):
        for _ in range(2):                          # a refusal is not remembered as an answer
            with pytest.raises(InvalidInputError, match="delta"):
                check_delta(bad)
    assert check_delta("1e-400") == 0.0


def test_fast_search_keeps_the_certified_answer():
    """rdp_to_dp of an array curve tabulated from the Gaussian curve is at least the Gaussian's exact
    profile's epsilon would require: the certified value at the chosen order equals the CKS formula
    evaluated at 50 digits there (rounded up, within 1e-12)."""
    orders = [1 + x / 10.0 for x in range(1, 100)] + [11.0]
    g = gaussian_rdp(1.5).compose(10)
    curve = rdp_curve_from_arrays(orders, [g(a) for a in orders])
    res = rdp_to_dp(curve, "1e-6")
    with mpmath.workdps(50):
        a = mpmath.mpf(res.alpha_star)
        want = _printed("cks", a - 1, mpmath.mpf(g(res.alpha_star)), mpmath.log(mpmath.mpf(10) ** 6))
    assert want <= res.upper <= want * (1 + mpmath.mpf(10) ** -12)
    with mpmath.workdps(50):
        others = [_printed("cks", mpmath.mpf(o) - 1, mpmath.mpf(g(o)), mpmath.log(mpmath.mpf(10) ** 6)) for o in orders]
    assert want == min(others)


def test_a_string_value_is_read_as_the_number_it_spells_or_refused():
    """The per-value path (review finding): "abc" was a bare ValueError from float(); now a one-line
    InvalidInputError, and numeric strings are read exactly ("1/3" -> the float nearest 1/3)."""
    assert rdp_curve_from_arrays([2.0], ["1/3"]).order_values == (float(Fraction(1, 3)),)
    with pytest.raises(InvalidInputError, match="RDP value"):
        rdp_curve_from_arrays([2.0], ["abc"])
    with pytest.raises(InvalidInputError, match="RDP value at alpha=2.0 must be >= 0"):
        rdp_curve_from_arrays([2.0], ["-1"])
