"""bcdp.accounting.curves and the closed-form conversions of bcdp.accounting.conversion, pinned against
independent computations: exact Fractions for the Gaussian, zCDP and composed curves, mpmath (80 digits)
of the printed formulas for randomized response (Mironov 2017, Table II), the CKS / Mironov conversions
and Bun & Steinke (2016) Prop. 1.3; the documented fields of the results (alpha_star, epsilon_float,
delta, rdp_certified, curve, assumption, orders) and the argument names in error messages.  Written to
kill the survivors of the mutation gate (benchmarks/mutation_gate.py)."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest
from bcdp.accounting import conversion as cv
from bcdp.accounting import curves as cu
from bcdp.core.errors import InvalidInputError
from bcdp.core.intervals import arb_precision, ball_lower, ball_upper

PREC = 200


def ends(ball):
    """Exact (Fraction) ends of an arb ball."""
    return ball_lower(ball), ball_upper(ball)


def encloses_tightly(ball, exact: Fraction, rel=Fraction(1, 10 ** 50)):
    lo, hi = ends(ball)
    return lo <= exact <= hi and hi - lo <= rel * max(abs(exact), Fraction(1, 10 ** 300))


def mpq(q: Fraction) -> mpmath.mpf:
    return mpmath.mpf(q.numerator) / q.denominator


# -- Gaussian, zCDP: exact rationals -----------------------------------------------------------------

@pytest.mark.parametrize("sigma,delta_", [("1", "1"), ("0.7", "1"), ("3/2", "2"), ("1e-3", "0.5"), (Fraction(5), 3)])
def test_gaussian_rdp_is_alpha_delta_squared_over_two_sigma_squared(sigma, delta_):
    curve = cu.gaussian_rdp(sigma, delta_)
    s, d = Fraction(sigma), Fraction(delta_)
    for a in (1.5, 2.0, 7.25, 1000.0):
        exact = Fraction(a) * d * d / (2 * s * s)
        assert abs(Fraction(curve(a)) - exact) <= exact * Fraction(1, 10 ** 15)
        with arb_precision(PREC):
            assert encloses_tightly(curve.enclosure(a), exact)


def test_gaussian_rdp_default_sensitivity_is_one():
    assert cu.gaussian_rdp("2")(3.0) == 3 / 8
    with arb_precision(PREC):
        assert encloses_tightly(cu.gaussian_rdp("2").enclosure(3.0), Fraction(3, 8))


@pytest.mark.parametrize("kw,name", [(dict(sigma="0"), "sigma"), (dict(sigma="-1"), "sigma"),
                                     (dict(sigma=math.inf), "sigma"), (dict(sigma="1", sensitivity="0"), "sensitivity"),
                                     (dict(sigma="1", sensitivity=0.0), "sensitivity"),
                                     (dict(sigma="1", sensitivity=-2), "sensitivity"),
                                     (dict(sigma="1", sensitivity=math.inf), "sensitivity"),
                                     (dict(sigma="x"), "sigma"), (dict(sigma="1", sensitivity="x"), "sensitivity")])
def test_gaussian_rdp_refuses_non_positive_parameters_naming_them(kw, name):
    with pytest.raises(InvalidInputError) as err:
        cu.gaussian_rdp(**kw)
    assert str(err.value).startswith(name), str(err.value)


@pytest.mark.parametrize("rho", ["0", "1/3", "0.125", "2", Fraction(7, 9), "1e-300"])
def test_zcdp_rdp_is_rho_alpha(rho):
    curve = cu.zcdp_rdp(rho)
    r = Fraction(rho)
    for a in (1.5, 2.0, 33.0):
        exact = r * Fraction(a)
        assert abs(Fraction(curve(a)) - exact) <= exact * Fraction(1, 10 ** 15)
        with arb_precision(PREC):
            lo, hi = ends(curve.enclosure(a))
            assert lo <= exact <= hi and hi - lo <= exact * Fraction(1, 10 ** 50)
    assert curve.label == f"zCDP(rho={rho})" and curve.is_certified and curve.orders is None


# -- randomized response: mpmath of the printed formula -------------------------------------------

def rr_printed(p, a):
    """log(p^a (1-p)^(1-a) + (1-p)^a p^(1-a)) / (a - 1) (Mironov 2017, Table II), 80 digits."""
    with mpmath.workdps(80):
        p, a = mpq(p), mpmath.mpf(a)
        q = 1 - p
        return mpmath.log(p ** a * q ** (1 - a) + q ** a * p ** (1 - a)) / (a - 1)


@pytest.mark.parametrize("p", ["0.1", "0.25", "0.6", "1/3", "0.999"])
def test_randomized_response_rdp_against_the_printed_formula(p):
    curve = cu.randomized_response_rdp(p)
    for a in (1.25, 2.0, 5.5, 40.0):
        ref = rr_printed(Fraction(p), a)
        assert abs(curve(a) - ref) <= 1e-13 * ref
        with arb_precision(PREC):
            lo, hi = ends(curve.enclosure(a))
        with mpmath.workdps(80):
            assert mpq(lo) <= ref <= mpq(hi) and mpq(hi) - mpq(lo) <= mpmath.mpf(10) ** -40 * ref
    assert curve.label == f"RR(p={p})"


@pytest.mark.parametrize("p", ["0", "1", "-0.1", "1.5", 0.0, 1.0])
def test_randomized_response_rdp_refuses_p_outside_the_open_unit_interval(p):
    with pytest.raises(InvalidInputError):
        cu.randomized_response_rdp(p)


# -- composition -------------------------------------------------------------------------------------

def test_compose_sums_values_and_enclosures():
    g, z = cu.gaussian_rdp("2"), cu.zcdp_rdp("1/10")
    both = cu.compose(g, z, g)
    for a in (1.5, 4.0, 10.0):
        exact = 2 * Fraction(a) / 8 + Fraction(a) / 10
        assert abs(Fraction(both(a)) - exact) <= exact * Fraction(1, 10 ** 15)
        with arb_precision(PREC):
            assert encloses_tightly(both.enclosure(a), exact)
    assert both.is_certified and both.orders is None and both.assumption == ""
    assert both.label == f"{g.label} + {z.label} + {g.label}"
    single = cu.compose(z)
    with arb_precision(PREC):
        assert encloses_tightly(single.enclosure(3.0), Fraction(3, 10))


def test_compose_with_an_uncertified_curve_is_uncertified_and_says_so():
    user = cu.rdp_curve_from_callable(lambda a: 0.5 * a)
    both = cu.compose(cu.zcdp_rdp("1/4"), user)
    assert not both.is_certified and both.certified is None
    assert both.assumption == cu.UNCERTIFIED
    assert both(2.0) == 1.5
    with arb_precision(PREC):                       # the float is then used as an exact upper bound
        assert ends(both.enclosure(2.0)) == (Fraction(3, 2), Fraction(3, 2))


def test_compose_assumptions_are_joined_sorted_and_deduplicated():
    def curve(text):
        return cu.RdpCurve(value=lambda a: 0.0, certified=None, label=text, source="s", assumption=text)
    assert cu.compose(curve("b"), curve("a"), curve("b"), curve("")).assumption == "a; b"


def test_compose_of_array_curves_is_defined_on_the_common_orders():
    a1 = cu.rdp_curve_from_arrays([2, 3, 4], [0.1, 0.2, 0.3], ["1/10", "1/5", "3/10"])
    a2 = cu.rdp_curve_from_arrays([4, 3, 5], [1.0, 2.0, 3.0], [1, 2, 3])
    both = cu.compose(a1, a2, cu.zcdp_rdp("1/2"))
    assert both.orders == (3.0, 4.0)
    assert both(3.0) == 0.2 + 2.0 + 1.5
    with arb_precision(PREC):
        assert encloses_tightly(both.enclosure(4.0), Fraction(3, 10) + 1 + 2)
    with pytest.raises(InvalidInputError):
        both(2.0)
    with pytest.raises(InvalidInputError):         # no common order
        cu.compose(a1, cu.rdp_curve_from_arrays([5], [0.1]))
    assert cu.compose(cu.zcdp_rdp("1"), a1).orders == (2.0, 3.0, 4.0)


def test_homogeneous_compose_keeps_orders_and_assumption():
    arr = cu.rdp_curve_from_arrays([2, 8], [0.25, 1.0])
    t3 = arr.compose(3)
    assert t3.orders == (2.0, 8.0) and t3.assumption == cu.UNCERTIFIED and t3(8.0) == 3.0
    z = cu.zcdp_rdp("1/8").compose(4)
    assert z.orders is None and z.assumption == ""
    with arb_precision(PREC):
        assert encloses_tightly(z.enclosure(3.0), Fraction(3, 2))


def test_rdp_curve_from_callable_records_the_assumption_only_without_certified():
    plain = cu.rdp_curve_from_callable(lambda a: 2.0 * a, label="L", source="S")
    assert plain.assumption == cu.UNCERTIFIED and plain.certified is None and plain.orders is None
    assert (plain.label, plain.source) == ("L", "S") and plain(3.0) == 6.0
    cert = cu.rdp_curve_from_callable(lambda a: 2.0 * a, certified=lambda a: 2 * mpmath.mpf(a))
    assert cert.assumption == "" and cert.is_certified
    with arb_precision(PREC):
        assert ends(cert.enclosure(3.0)) == (6, 6)
    default = cu.rdp_curve_from_callable(lambda a: a)
    assert (default.label, default.source) == ("user curve", "user supplied")
    for bad in (dict(value=3), dict(value=lambda a: a, certified=3)):
        with pytest.raises(InvalidInputError):
            cu.rdp_curve_from_callable(**bad)


# -- conversions -----------------------------------------------------------------------------------

def cks_printed(a, r, delta):
    """CKS (Canonne, Kamath & Steinke 2020, Prop. 12 form): r + log(1 - 1/a) - (log delta + log a)/(a - 1)."""
    with mpmath.workdps(80):
        a, r, d = mpmath.mpf(a), mpmath.mpf(r), mpmath.mpf(delta)
        return r + mpmath.log(1 - 1 / a) - (mpmath.log(d) + mpmath.log(a)) / (a - 1)


@pytest.mark.parametrize("a,r,delta", [(2.0, 0.5, "1e-5"), (10.0, 1.25, "1e-6"), (33.5, 0.01, "0.001")])
def test_epsilon_at_default_method_is_cks(a, r, delta):
    with mpmath.workdps(80):
        ref = cks_printed(a, r, mpq(Fraction(delta)))
    assert abs(cv.epsilon_at(a, r, delta) - ref) <= 1e-13 * ref
    with mpmath.workdps(80):
        mir = mpmath.mpf(r) + mpmath.log(mpq(1 / Fraction(delta))) / (mpmath.mpf(a) - 1)
    assert abs(cv.epsilon_at(a, r, delta, "mironov") - mir) <= 1e-13 * mir
    assert cv.epsilon_at(a, str(r), delta) == cv.epsilon_at(a, Fraction(r), delta) == cv.epsilon_at(a, r, delta)


@pytest.mark.parametrize("rdp", ["x", True, None, float("nan"), -0.5, "-1e-400", "-1/2"])
def test_epsilon_at_rdp_validation_names_rdp(rdp):
    """Regression: a non-numeric string reached float() (ValueError, not InvalidInputError), and
    "-1e-400" (float -0.0) was accepted."""
    with pytest.raises(InvalidInputError) as err:
        cv.epsilon_at(2.0, rdp, "1e-5")
    assert str(err.value).startswith("rdp"), str(err.value)


@pytest.mark.parametrize("rho,delta", [("0.5", "1e-5"), ("1/100", "1e-9"), ("3", "0.25"), ("1e-4", "1e-6")])
def test_bun_steinke_against_the_printed_closed_form(rho, delta):
    """Bun & Steinke (2016), Prop. 1.3: eps = rho + 2 sqrt(rho log(1/delta)); alpha_star = 1 +
    sqrt(log(1/delta)/rho) is where the Mironov conversion rho a + log(1/delta)/(a - 1) attains it."""
    res = cv.bun_steinke_epsilon(rho, delta)
    with mpmath.workdps(80):
        r, L = mpq(Fraction(rho)), -mpmath.log(mpq(Fraction(delta)))
        eps = r + 2 * mpmath.sqrt(r * L)
        a_star = 1 + mpmath.sqrt(L / r)
        assert abs(r * a_star + L / (a_star - 1) - eps) <= mpmath.mpf(10) ** -70 * eps   # the oracle agrees with itself
        assert res.lower <= eps <= res.upper and res.upper - eps <= 1e-15 * eps
        lo, hi = res.enclosure
        assert lo <= eps <= hi
        assert abs(res.alpha_star - a_star) <= 1e-15 * a_star
        assert abs(res.epsilon_float - eps) <= 1e-14 * eps
    assert res.delta == delta and res.method == "bun-steinke"
    assert res.rdp_certified is True and res.rdp_at_alpha_star_upper is None
    assert res.curve == f"zCDP(rho={rho})"


def test_bun_steinke_at_rho_zero():
    res = cv.bun_steinke_epsilon("0", "1e-5")
    assert res.upper == 0 and res.lower == 0 and res.alpha_star == math.inf and res.epsilon_float == 0


@pytest.mark.parametrize("rho,delta,name", [("-1", "1e-5", "rho"), (math.inf, "1e-5", "rho"), ("x", "1e-5", "rho"),
                                            ("1", "0", "delta"), ("1", "1", "delta"), ("1", "x", "delta")])
def test_bun_steinke_validation_names_the_argument(rho, delta, name):
    with pytest.raises(InvalidInputError) as err:
        cv.bun_steinke_epsilon(rho, delta)
    assert name in str(err.value), str(err.value)


@pytest.mark.parametrize("method", ["cks", "mironov", "asoodeh", "bun-steinke"])
def test_zcdp_to_dp_passes_the_precision(method):
    """``prec`` is the arb precision of the certification: at the minimum 53 bits the float enclosure
    is wider than 2 ulps (and contains the 200-bit one), at the default 200 bits it is at most 1 ulp."""
    coarse = cv.zcdp_to_dp("1/2", "1e-5", method, prec=53)
    fine = cv.zcdp_to_dp("1/2", "1e-5", method)
    lo_c, hi_c = coarse.enclosure
    lo_f, hi_f = fine.enclosure
    assert lo_c <= lo_f <= hi_f <= hi_c
    assert hi_c - lo_c > 2 * math.ulp(hi_c) and hi_f - lo_f <= math.ulp(hi_f)


@pytest.mark.parametrize("make,name", [(lambda w: cu.gaussian_rdp(w), "sigma"), (lambda w: cu.gaussian_rdp(1, w), "sensitivity"),
                                       (lambda w: cu.randomized_response_rdp(w), "p")])
def test_unbounded_ball_parameters_are_refused_naming_them(make, name):
    """A ball of infinite radius (midpoint 1/2: it passes the float screen) is refused, at the latest
    when the certified value is enclosed, with an error naming the parameter."""
    import flint

    wide = flint.arb(0.5, flint.arb.pos_inf())
    with pytest.raises(InvalidInputError) as err:
        with arb_precision(PREC):
            make(wide).enclosure(2.0)
    assert str(err.value).startswith(f"{name} must be finite"), str(err.value)


@pytest.mark.parametrize("rho", ["3e-320", "1.7e-315", "7e-310", "1e-300", "1e-400", "5e-324"])
def test_zcdp_rdp_search_value_is_the_nearest_float_of_rho_alpha_below_the_normal_range(rho):
    """rho * alpha from the exact rho (not the product of two roundings): the nearest float of the
    exact rational, also for subnormal results (float(rho) * alpha is off by one unit there)."""
    curve = cu.zcdp_rdp(rho)
    for a in (1.5, 2.0, 3.3, 7.1, 1e5):
        assert curve(a) == float(Fraction(rho) * Fraction(a))


@pytest.mark.parametrize("p", ["1e-400", "1e-30", "0.99999999999999999999", Fraction(1, 10 ** 50)])
def test_randomized_response_rdp_beyond_float_resolution(p):
    """p whose float is 0.0 or 1.0 (or loses 1 - p): log p and log(1 - p) from the exact value."""
    curve = cu.randomized_response_rdp(p)
    for a in (1.5, 2.0, 9.0):
        ref = rr_printed(Fraction(p), a)
        assert abs(curve(a) - ref) <= 1e-13 * ref
