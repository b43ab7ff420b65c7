"""How bcdp.accounting.curves reads what a curve returns: ``as_interval`` (an arb ball kept as it is,
an infinite ball kept, an ``mpmath.iv`` interval enclosed by its exact endpoints or, when unbounded,
by a ball with no finite upper bound, other values enclosed and refused under the name "certified RDP
value"), the type check of ``RdpCurve.__call__`` on the float values of a curve, and the order search
of ``zcdp_rdp`` at the upper end of an enclosure of rho.

Oracles: the exact endpoints of the inputs (dyadic numbers and Fractions written in the test),
compared with the exact ends of the balls returned (bcdp.core.intervals, the trusted core) or with
python-flint's own containment test (``arb.contains``), and, for the zCDP conversion of an
enclosure, the Asoodeh et al. form of the conversion (as printed in the docstring of
bcdp.accounting.conversion) of r(alpha) = rho alpha at the enclosure's upper end, minimised over
alpha by a 60-digit golden-section search written in tests/minimisers.py.  Written to kill survivors
of the mutation gate (benchmarks/mutation_gate.py)."""

from __future__ import annotations

import math
from fractions import Fraction

import flint
import mpmath as mp
import pytest
from bcdp.accounting import conversion as cv
from bcdp.accounting import curves as cu
from bcdp.core.errors import InvalidInputError
from bcdp.core.intervals import arb_precision, ball_lower, ball_upper
from minimisers import golden_section_min

PREC = 200
DPS = 60


def encloses(ball, lo: Fraction, hi: Fraction, slack: Fraction) -> bool:
    """The ball's exact ends bracket [lo, hi] within ``slack`` (arb radii are 30-bit magnitudes,
    rounded up)."""
    b_lo, b_hi = ball_lower(ball), ball_upper(ball)
    return lo - slack <= b_lo <= lo and hi <= b_hi <= hi + slack


# -- as_interval: balls -------------------------------------------------------------------------------

def test_an_infinite_ball_is_kept_and_certifies_eps_infinity():
    """Docstring: "An infinite ball (certified RDP = +inf) is kept."  A user curve whose certified
    value is +inf (or a ball of infinite radius) gives an infinite enclosure and eps = inf."""
    for inf_ball in (flint.arb.pos_inf(), flint.arb(0, flint.arb.pos_inf())):
        with arb_precision(PREC):
            out = cu.as_interval(inf_ball)
        assert out is inf_ball
        curve = cu.rdp_curve_from_callable(lambda a: 1.0, certified=lambda a, b=inf_ball: b)
        with arb_precision(PREC):
            assert not curve.enclosure(2.0).is_finite()
        res = cv.certify_at(curve, 2.0, "1e-6", "cks")
        assert res.upper == math.inf and res.details["rdp_at_alpha_star_upper"] == math.inf


def test_a_finite_ball_is_kept_as_it_is():
    ball = flint.arb(0.375, 2.0 ** -20)
    with arb_precision(PREC):
        assert cu.as_interval(ball) is ball


# -- as_interval: mpmath.iv intervals -----------------------------------------------------------------

@pytest.mark.parametrize("lo,hi", [(Fraction(1, 4), Fraction(3, 8)), (Fraction(0), Fraction(5, 2)),
                                   (Fraction(7, 2 ** 40), Fraction(7, 2 ** 40))])
def test_a_bounded_iv_interval_is_enclosed_by_its_exact_endpoints(lo, hi):
    iv = mp.iv.mpf([mp.mpf(lo.numerator) / lo.denominator, mp.mpf(hi.numerator) / hi.denominator])
    with arb_precision(PREC):
        out = cu.as_interval(iv)
    assert out.is_finite() and encloses(out, lo, hi, Fraction(1, 2 ** 28) * max(hi, Fraction(1)))


@pytest.mark.parametrize("ends,inside", [(("1", "+inf"), [1, 2, 10 ** 100]),
                                         (("0.25", "+inf"), [Fraction(1, 4), 7, 2 ** 400]),
                                         (("-inf", "3"), [-(10 ** 50), 0, 3])])
def test_an_unbounded_iv_interval_has_no_finite_upper_bound(ends, inside):
    """Docstring: "an unbounded interval: no finite upper bound".  The ball returned is not finite
    and still encloses every finite value the interval denotes (it must not be 0, nor the point
    +inf); the certified eps of a curve returning it is +inf."""
    iv = mp.iv.mpf(list(ends))
    with arb_precision(PREC):
        out = cu.as_interval(iv)
    assert not out.is_finite() and not out.is_nan()
    for x in inside:
        q = Fraction(x)
        assert out.contains(flint.arb(q.numerator) / q.denominator), x
    curve = cu.rdp_curve_from_callable(lambda a: 1.0, certified=lambda a, v=iv: v)
    assert cv.certify_at(curve, 3.0, "1e-5", "mironov").upper == math.inf


# -- as_interval: exact numbers, and what is refused ----------------------------------------------------

@pytest.mark.parametrize("value,exact", [(3, Fraction(3)), (Fraction(1, 3), Fraction(1, 3)), ("0.1", Fraction(1, 10)),
                                         (mp.mpf(0.375), Fraction(3, 8))])
def test_exact_certified_values_are_enclosed_tightly(value, exact):
    with arb_precision(PREC):
        out = cu.as_interval(value)
    assert out.is_finite() and encloses(out, exact, exact, exact * Fraction(1, 2 ** 180))


@pytest.mark.parametrize("bad", [None, "abc", "inf", mp.inf, math.nan, [1.0], True])
def test_a_certified_value_that_is_not_a_finite_real_is_refused_naming_it(bad):
    """The error names what was wrong: the certified RDP value returned by the curve (as
    rdp_curve_from_arrays names its certified values)."""
    with pytest.raises(InvalidInputError) as err:
        with arb_precision(PREC):
            cu.as_interval(bad)
    assert str(err.value).startswith("certified RDP value"), str(err.value)
    curve = cu.rdp_curve_from_callable(lambda a: 1.0, certified=lambda a, b=bad: b)
    with pytest.raises(InvalidInputError) as err:
        cv.certify_at(curve, 2.0, "1e-6", "cks")
    assert str(err.value).startswith("certified RDP value"), str(err.value)


# -- RdpCurve.__call__: the float value must be a real number ------------------------------------------

@pytest.mark.parametrize("bad", [True, False, "0.5", None, [0.5], 0.5 + 0j])
def test_a_curve_value_that_is_not_a_real_number_is_refused(bad):
    curve = cu.rdp_curve_from_callable(lambda a, b=bad: b, label="odd")
    with pytest.raises(InvalidInputError, match=rf"^RDP curve returned {type(bad).__name__} at alpha=2.0$"):
        curve(2.0)


@pytest.mark.parametrize("value,expected", [(3, 3.0), (Fraction(1, 4), 0.25), (mp.mpf("0.5"), 0.5), (0.75, 0.75)])
def test_real_curve_values_are_returned_as_floats(value, expected):
    out = cu.rdp_curve_from_callable(lambda a, v=value: v)(2.0)
    assert type(out) is float and out == expected


# -- zcdp_rdp: the search value of an enclosure of rho -------------------------------------------------

def asoodeh(rho, a, delta):
    """log(1 + (e^{(alpha-1) rho alpha} - 1)/(alpha delta))/(alpha - 1) (mpf arguments)."""
    return mp.log(1 + mp.expm1((a - 1) * rho * a) / (a * delta)) / (a - 1)


def asoodeh_min(rho: Fraction, delta: Fraction):
    """inf over alpha in (1, 1/delta) of the Asoodeh form of rho alpha, 60-digit golden section in
    s = log(alpha - 1)."""
    with mp.workdps(DPS):
        R, D = mp.mpf(rho.numerator) / rho.denominator, mp.mpf(delta.numerator) / delta.denominator
        f = lambda s: asoodeh(R, 1 + mp.exp(s), D)  # noqa: E731
        return golden_section_min(f, mp.log(mp.mpf(10) ** -8), mp.log(1 / D - 1) - mp.mpf(10) ** -20, 300)[1]


def test_the_search_value_of_an_enclosure_of_rho_is_taken_at_its_upper_end():
    """The certified value of the zCDP curve of an enclosure is taken over the whole enclosure, i.e.
    at its upper end; the float search value is taken there too (rho alpha at the upper end, not at
    the midpoint), so the order chosen for the Asoodeh form is the one of the upper end and the
    certified eps is its minimum over alpha.  The ball [1/2, 3/2] (arb rounds its radius up, by at
    most 2^-28 relative) and the interval [1/2, 3/2]."""
    truth = asoodeh_min(Fraction(3, 2), Fraction(1, 10 ** 6))
    for rho in (flint.arb(1, 0.5), mp.iv.mpf(["0.5", "1.5"])):
        curve = cu.zcdp_rdp(rho)
        for a in (1.5, 2.0, 7.25, 1000.0):
            assert 1.5 * a <= curve(a) <= 1.5 * a * (1 + 2.0 ** -28), (rho, a)
        res = cv.zcdp_to_dp(rho, "1e-6", "asoodeh")
        assert truth <= mp.mpf(res.upper) <= truth * (1 + mp.mpf(10) ** -6), (rho, res.upper, truth)
