"""The certified conversions on arb balls (bcdp.accounting.inputs / curves / conversion).

Every reference is computed here with mpmath at 60 digits from the printed formulas (Mironov 2017
Prop. 3; Canonne, Kamath & Steinke 2020 Prop. 12 = thesis eq. (5.41); the Asoodeh et al. form of
OpenDP's ``rdp_epsilon1_on``; Bun & Steinke 2016 Prop. 1.3; Mironov 2017 Table II for the curves),
independently of the module.  Each certified ball must contain the reference (to the reference's own
error) and each outward float pair must contain it exactly.  The cases include the tiny arguments
where mpmath 1.3's ``iv.exp`` / ``iv.expm1`` / ``iv.log1p`` return enclosures that exclude the truth
(mpmath issue #1181): delta = 1 - 1e-15, rho = 1e-30, r = 1e-30 ... 1e-60, alpha = 1 + 2^-20.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath as mp
import pytest
from bcdp.accounting import conversion as rc
from bcdp.accounting.curves import gaussian_rdp, randomized_response_rdp, zcdp_rdp
from bcdp.accounting.inputs import CERT_PREC, check_delta, enclose
from bcdp.core.errors import InvalidInputError
from bcdp.core.intervals import arb_precision, ball_lower, ball_of, ball_upper

DPS = 60


def Q(q: Fraction) -> mp.mpf:
    """An exact Fraction as an mpf at the current (60-digit) precision."""
    return mp.mpf(q.numerator) / q.denominator


def ref_eps(method: str, a, r, d) -> mp.mpf:
    """The unclamped conversion at order a, written from the printed formulas (60 digits), in forms
    without cancellation: log(1/d) = -log(d), 1 - 1/a = (a - 1)/a (a - 1 is exact for a float a),
    log(1 + x) = log1p(x)."""
    if method == "mironov":
        return r - mp.log(d) / (a - 1)
    if method == "cks":
        return r + (-mp.log(d) + (a - 1) * mp.log((a - 1) / a) - mp.log(a)) / (a - 1)
    return mp.log1p(mp.expm1((a - 1) * r) / (a * d)) / (a - 1)         # asoodeh


def assert_ball_contains(ball, ref: mp.mpf) -> None:
    """lower <= ref <= upper, up to the 60-digit reference's own error (1e-57 relative)."""
    tol = mp.mpf(10) ** -57 * (abs(ref) + mp.mpf(10) ** -300)
    assert Q(ball_lower(ball)) - tol <= ref <= Q(ball_upper(ball)) + tol, (ball, ref)


def assert_floats_contain(lo: float, hi: float, ref: mp.mpf) -> None:
    assert mp.mpf(lo) <= ref <= mp.mpf(hi), (lo, hi, ref)


# alpha (float), r (decimal string, exact), delta (decimal string, exact)
CASES = [
    (3.0, "0.25", "1e-6"),
    (64.0, "0.0123", "1e-8"),
    (1 + 2.0 ** -20, "0.5", "1e-10"),              # alpha close to 1: log(1 - 1/alpha) is large
    (2.5, "1e-30", "1e-6"),                         # tiny r: (alpha-1) r ~ 1e-30 in expm1
    (2.5, "1e-46", "1e-6"),                         # (alpha-1) r ~ 2^-152: mpmath's 200-bit iv.exp fails there
    (2.5, "1e-60", "1e-6"),
    (10.0, "0.3", "0.999999999999999"),             # delta = 1 - 1e-15: log(1/delta) ~ 1e-15
    (1e5, "1e-9", "1e-12"),
]


@pytest.mark.parametrize("method", rc.METHODS)
@pytest.mark.parametrize("a,r,d", CASES)
def test_certify_at_encloses_60_digit_reference(method, a, r, d):
    if method == "asoodeh" and not a * float(d) < 1:
        with pytest.raises(InvalidInputError):
            rc.certify_at(rc.rdp_curve_from_arrays([a], [float(r)], certified_values=[r]), a, d, method)
        return
    with mp.workdps(DPS):
        ref = ref_eps(method, mp.mpf(a), mp.mpf(r), mp.mpf(d))
        # the ball the conversion computes (exact order, exact decimal r and delta)
        with arb_precision(CERT_PREC):
            E = rc._eps_interval(ball_of(a), enclose(r), enclose(d), d, method)
            assert_ball_contains(E, ref)
        curve = rc.rdp_curve_from_arrays([a], [float(r)], certified_values=[r])
        res = rc.certify_at(curve, a, d, method)
        assert_floats_contain(*res.enclosure, ref)
        assert mp.mpf(res.upper) >= max(ref, 0)
        # the float upper end is the smallest float >= the ball's upper end: within 2 ulps of ref
        assert mp.mpf(res.upper) <= max(ref, 0) * (1 + mp.mpf(2) ** -51) + mp.mpf(10) ** -300


@pytest.mark.parametrize("rho,d", [("2.63", "1e-6"), ("1e-30", "1e-6"), ("0.5", "0.999999999999999"),
                                   ("10", "1e-20"), ("0", "1e-6")])
def test_bun_steinke_encloses_60_digit_reference(rho, d):
    with mp.workdps(DPS):
        R, D = mp.mpf(rho), mp.mpf(d)
        ref = R + 2 * mp.sqrt(R * -mp.log(D))
        res = rc.zcdp_to_dp(rho, d, "bun-steinke")
        assert_floats_contain(*res.enclosure, ref)
        assert mp.mpf(res.upper) >= ref


@pytest.mark.parametrize("method", ["cks", "mironov", "asoodeh"])
@pytest.mark.parametrize("rho,d", [("1e-30", "1e-6"), ("0.5", "0.999999999999999"), ("1.02", "1e-6")])
def test_zcdp_conversions_enclose_reference_at_alpha_star(method, rho, d):
    res = rc.zcdp_to_dp(rho, d, method)
    a = res.alpha_star
    with mp.workdps(DPS):
        ref = ref_eps(method, mp.mpf(a), mp.mpf(rho) * mp.mpf(a), mp.mpf(d))
        assert_floats_contain(*res.enclosure, ref)
        assert mp.mpf(res.upper) >= max(ref, 0)


def test_curve_enclosures_contain_60_digit_references():
    with mp.workdps(DPS), arb_precision(CERT_PREC):
        for a in (1 + 2.0 ** -30, 2.0, 7.5, 1e4):
            A = mp.mpf(a)
            # Gaussian: alpha Delta^2 / (2 sigma^2), decimal parameters read exactly
            assert_ball_contains(gaussian_rdp("0.7", "1.3").enclosure(a),
                                 A * mp.mpf("1.3") ** 2 / (2 * mp.mpf("0.7") ** 2))
            # randomized response with flip probability p (Mironov 2017 Table II)
            p = mp.mpf("0.2")
            rr = mp.log(p ** A * (1 - p) ** (1 - A) + (1 - p) ** A * p ** (1 - A)) / (A - 1)
            assert_ball_contains(randomized_response_rdp("0.2").enclosure(a), rr)
            assert_ball_contains(randomized_response_rdp("0.2").compose(1000).enclosure(a), 1000 * rr)
            # zCDP with a tiny rho
            assert_ball_contains(zcdp_rdp("1e-30").enclosure(a), mp.mpf("1e-30") * A)


def test_enclose_reads_every_input_form():
    with mp.workdps(DPS), arb_precision(CERT_PREC):
        # a float covers its exact binary value and the decimal its repr shows
        b = enclose(0.1)
        assert ball_lower(b) <= Fraction(1, 10) <= ball_upper(b)
        assert ball_lower(b) <= Fraction(0.1) <= ball_upper(b)
        assert ball_upper(b) - ball_lower(b) < Fraction(1, 10 ** 17)
        # strings and Fractions are exact rationals, ints and mpf exact points
        assert ball_lower(enclose("1/3")) <= Fraction(1, 3) <= ball_upper(enclose("1/3"))
        assert enclose(7).is_exact() and enclose(mp.mpf("0.375")).is_exact()
        d = enclose("0.999999999999999")
        assert ball_lower(d) <= Fraction("0.999999999999999") <= ball_upper(d) < 1
        # a legacy mpmath.iv interval is enclosed by its exact endpoints
        iv_in = mp.iv.mpf(["0.25", "0.5"])
        out = enclose(iv_in)
        ends = (mp.mpf(v).man_exp for v in (iv_in.a, iv_in.b))
        lo, hi = (Fraction(int(m)) * Fraction(2) ** int(e) for m, e in ends)
        assert lo <= Fraction(1, 4) and Fraction(1, 2) <= hi
        assert ball_lower(out) <= lo and hi <= ball_upper(out)
        # an arb ball is taken as it is
        ball = ball_of(3) / 7
        assert enclose(ball) is ball
    for bad in ("inf", "nan", "abc"):
        with pytest.raises(InvalidInputError), arb_precision(CERT_PREC):
            enclose(bad)


def test_check_delta_is_decided_on_the_ball():
    assert check_delta("0.999999999999999") == float("0.999999999999999")
    assert check_delta(Fraction(1, 10 ** 30)) == 1e-30
    for bad in ("1", "0", Fraction(-1, 10), 1.5):
        with pytest.raises(InvalidInputError):
            check_delta(bad)
    # a float just below 1 whose decimal repr is below 1 as well
    assert check_delta(1 - 2.0 ** -53) == 1 - 2.0 ** -53
