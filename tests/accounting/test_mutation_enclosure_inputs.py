"""Regression tests of two input readers of the certified conversions (bcdp.accounting.inputs.enclose
and check_rho, as used by zcdp_to_dp / bun_steinke_epsilon / certify_at), found while examining the
mutation survivors of bcdp.accounting.conversion.  Oracle: exact Fractions for the ends of the
enclosures, and the printed conversions evaluated in mpmath at 50 digits:

* Bun & Steinke (2016), Prop. 1.3:  eps = rho + 2 sqrt(rho L),
* Canonne, Kamath & Steinke (2020), Prop. 12:  eps = r + log(1 - 1/alpha) + (L - log alpha)/(alpha - 1),
* the Asoodeh et al. form:  eps = log(1 + (e^{(alpha-1) r} - 1)/(alpha delta))/(alpha - 1),

with L = log(1/delta) and r = rho alpha.

These tests need the fixed readers, so they are not used with ``mutation_gate.py --check`` against a
stage built before the fix (the next full run measures them)."""

from __future__ import annotations

from fractions import Fraction

import flint
import mpmath as mp
import pytest
import sympy
from bcdp.accounting import conversion as cv
from bcdp.accounting import inputs as ip
from bcdp.core.errors import InvalidInputError
from bcdp.core.intervals import arb_precision, ball_lower, ball_upper

DPS = 50
CLAMP_NOTE = "rho enclosure reaches below 0"


def M(q: Fraction) -> mp.mpf:
    return mp.mpf(q.numerator) / q.denominator


def bun_steinke(rho: Fraction, delta: Fraction) -> mp.mpf:
    with mp.workdps(DPS):
        return M(rho) + 2 * mp.sqrt(M(rho) * mp.log(1 / M(delta)))


# -- sympy Rationals are exact inputs ---------------------------------------------------------------

SUBNORMAL = Fraction(2, 7 * 10 ** 320)             # its float and the float's repr both lie below it


def test_regression_sympy_rational_is_enclosed_exactly():
    """Regression: enclose(sympy.Rational) enclosed its float (the hull of the float's binary value and
    repr), which may miss the exact value; the checks accept it as exact (exact_value)."""
    assert Fraction(float(SUBNORMAL)) < SUBNORMAL and Fraction(repr(float(SUBNORMAL))) < SUBNORMAL
    for q in (SUBNORMAL, Fraction(1, 11), Fraction(10 ** 40 + 1, 3), Fraction(-5, 7), Fraction(7)):
        x = sympy.Rational(q.numerator, q.denominator)
        with arb_precision(200):
            b = ip.enclose(x, "x")
            assert ball_lower(b) <= q <= ball_upper(b)
            assert ball_upper(b) - ball_lower(b) <= abs(q) * Fraction(1, 2 ** 190)


def test_regression_sympy_rho_certifies_an_upper_bound():
    """Regression: zcdp_to_dp(sympy.Rational(2, 7 10^320), 1e-6, "bun-steinke") certified
    3.97276e-160 while the exact value is 3.97356e-160; now the certified upper end is >= the
    50-digit value and tight, as for the same Fraction."""
    delta = Fraction(1, 10 ** 6)
    truth = bun_steinke(SUBNORMAL, delta)
    for method in ("bun-steinke", "mironov"):
        res = cv.zcdp_to_dp(sympy.Rational(2, 7 * 10 ** 320), delta, method)
        with mp.workdps(DPS):
            assert truth <= mp.mpf(res.upper) <= truth * (1 + mp.mpf(10) ** -12)


def test_regression_sympy_delta_is_enclosed_exactly():
    """delta = 1/11 as a sympy Rational: the Mironov conversion at alpha = 2 of r = 1/2 is certified
    for the exact delta (its float lies above 1/11, so the float's log(1/delta) is too small)."""
    curve = cv.zcdp_rdp(Fraction(1, 4))
    res = cv.certify_at(curve, 2.0, sympy.Rational(1, 11), "mironov")
    with mp.workdps(DPS):
        v = mp.mpf(1) / 2 + mp.log(11)
        assert mp.mpf(res.enclosure[0]) <= v <= mp.mpf(res.upper) <= v * (1 + mp.mpf(10) ** -15)


# -- enclosures of rho reaching below 0 with a negative midpoint --------------------------------------

def ball(lo: Fraction, hi: Fraction):
    """The arb ball [lo, hi] for dyadic ends whose half-width is 1/8: 1/3 at 2 bits is [1/8, 3/8],
    shifted exactly; midpoint and radius checked in flint."""
    assert hi - lo == Fraction(1, 4)
    with flint.ctx.workprec(2):
        base = flint.arb(1) / 3
    shift = lo - Fraction(1, 8)
    b = base + flint.arb(shift.numerator) / shift.denominator
    mid = (lo + hi) / 2
    assert b.mid() == flint.arb(mid.numerator) / mid.denominator and b.rad() == flint.arb(1) / 8
    return b


@pytest.mark.parametrize("method", ["bun-steinke", "mironov", "cks", "asoodeh"])
def test_regression_negative_midpoint_enclosure_is_bounded_at_its_upper_end(method):
    """Regression: an enclosure reaching below 0 with a negative midpoint ([-1/8 - 1/16, 1/16] as an
    arb ball, [-3/10, 1/10] as an iv interval) was refused by check_rho ("rho must be a finite real
    >= 0") although it is not certainly negative; it admits [0, u] and is bounded at u like the
    enclosures with midpoint >= 0: lower end 0, the clamp note, and the value at u."""
    delta = Fraction(1, 10 ** 6)
    for rho, u in ((ball(Fraction(-3, 16), Fraction(1, 16)), Fraction(1, 16)),
                   (mp.iv.mpf(["-0.3", "0.1"]), None)):
        assert ip.check_rho(rho) == 0.0
        res = cv.zcdp_to_dp(rho, delta, method)
        assert res.lower == 0.0 and res.details["enclosure"] == (0.0, res.upper)
        assert res.notes[-1].startswith(CLAMP_NOTE) and res.curve == f"zCDP(rho={rho})"
        if u is None:       # the interval's exact upper end, read into a ball (its radius has 30 bits)
            u = ip.enclosure_upper(rho)
            assert Fraction(1, 10) <= u <= Fraction(1, 10) * (1 + Fraction(1, 10 ** 8))
        with mp.workdps(DPS):
            if method in ("bun-steinke", "mironov"):   # both attain rho + 2 sqrt(rho L) at rho = u
                assert bun_steinke(u, delta) <= mp.mpf(res.upper) <= bun_steinke(u, delta) * (1 + mp.mpf(10) ** -12)
            else:                                   # the printed conversion at the order it reports, r = u alpha
                a, r, L = mp.mpf(res.alpha_star), M(u) * mp.mpf(res.alpha_star), mp.log(1 / M(delta))
                v = (r + mp.log1p(-1 / a) + (L - mp.log(a)) / (a - 1) if method == "cks"
                     else mp.log1p(mp.expm1((a - 1) * r) / (a * M(delta))) / (a - 1))
                assert v <= mp.mpf(res.upper) <= v * (1 + mp.mpf(10) ** -14)


@pytest.mark.parametrize("method", ["mironov", "cks", "asoodeh"])
def test_regression_enclosure_with_upper_end_zero_is_rho_zero(method):
    """An enclosure whose upper end is exactly 0 ([-1/4, 0]) admits only rho = 0 (rho >= 0 is
    required): the result is the documented rho = 0 result (eps = 0 at alpha = inf, the rho = 0 note
    alone), not a clamp to its upper end; certainly negative enclosures are still refused."""
    delta = Fraction(1, 10 ** 6)
    rho = ball(Fraction(-1, 4), Fraction(0))
    res = cv.zcdp_to_dp(rho, delta, method)
    assert (res.lower, res.upper, res.details["enclosure"]) == (0.0, 0.0, (0.0, 0.0))
    assert res.alpha_star == float("inf") and res.curve == f"zCDP(rho={rho})"
    assert res.notes == cv.zcdp_to_dp(0, delta, method).notes and len(res.notes) == 1
    assert not res.notes[0].startswith(CLAMP_NOTE)
    for bad in (ball(Fraction(-3, 8), Fraction(-1, 8)), mp.iv.mpf(["-0.3", "-0.1"])):
        with pytest.raises(InvalidInputError, match="^rho must be a finite real >= 0"):
            cv.zcdp_to_dp(bad, delta, method)
