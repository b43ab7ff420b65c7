"""Alg 6.4.1 calibration (bcdp.bandits.shuffled): eps0 = f^{-1}_{n,delta}(eps) of eq. (6.10) against an
mpmath inversion of the printed formula at 60 digits; the FMT21 cap on both sides; bad inputs."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
from bcdp.bandits import shuffled
from bcdp.core.errors import InvalidInputError, ValidityConditionError


def f610(x, n, d):
    ex = mpmath.e ** x
    return mpmath.log(1 + (ex - 1) / (ex + 1) * (8 * mpmath.sqrt(ex * mpmath.log(4 / d)) / mpmath.sqrt(n) + 8 * ex / n))


@pytest.mark.parametrize("eps,n,delta", [(0.2, 5000, 1e-6), (0.8, 20000, 1e-7), (0.05, 10 ** 6, 1e-9)])
def test_inverse_matches_mpmath_root(eps, n, delta):
    with mpmath.workdps(60):
        root = mpmath.findroot(lambda x: f610(x, n, mpmath.mpf(delta)) - mpmath.mpf(eps), mpmath.mpf(1))
        cap = mpmath.log(n / (16 * mpmath.log(2 / mpmath.mpf(delta))))
        assert root < cap
        e0 = shuffled.shuffled_local_budget(eps, n, delta)
        assert mpmath.mpf(e0) <= root and root - e0 < 1e-10
        assert f610(mpmath.mpf(e0), n, mpmath.mpf(delta)) <= mpmath.mpf(eps)


def test_cap_is_returned_above_f_of_cap():
    n, delta = 10 ** 4, 1e-6
    with mpmath.workdps(60):
        cap = mpmath.log(n / (16 * mpmath.log(2 / mpmath.mpf(delta))))
        fcap = f610(cap, n, mpmath.mpf(delta))
    below = shuffled.shuffled_local_budget(float(fcap) * (1 - 1e-6), n, delta)
    at_or_above = shuffled.shuffled_local_budget(float(fcap) * (1 + 1e-6), n, delta)
    assert below < float(cap) and abs(at_or_above - float(cap)) < 1e-14 and at_or_above <= cap
    cal = shuffled.shuffled_batch_calibration(5.0, delta, [n])
    assert cal.capped == (True,) and cal.guarantee[0] < 1.1


def test_validity_boundary_of_the_cap():
    # 16 log(2/delta) at delta = 1e-6 is 232.14...: n = 232 is outside FMT21 Thm 3.1, 233 inside
    assert 232 < 16 * mpmath.log(2e6) < 233
    with pytest.raises(ValidityConditionError):
        shuffled.shuffled_local_budget(0.5, 232, 1e-6)
    assert 0 < shuffled.shuffled_local_budget(0.5, 233, 1e-6) <= float(mpmath.log(233 / (16 * mpmath.log(2e6))))


def test_batch_calibration_scales_and_parallel_composition():
    cal = shuffled.shuffled_batch_calibration(0.5, 1e-6, [1000, 10 ** 4, 10 ** 5])
    assert all(abs(s * e - 2.0) < 1e-12 for s, e in zip(cal.scales, cal.eps0))
    # the noise scale is a guarantee: never below Delta/eps0 (exact comparison of the floats' values)
    assert all(Fraction(s) * Fraction(e) >= 2 for s, e in zip(cal.scales, cal.eps0))
    assert cal.eps0[0] < cal.eps0[1] < cal.eps0[2]  # larger batches amplify more
    assert cal.guarantee == (max(cal.batch_eps), 1e-6) and cal.guarantee[0] <= 0.5
    printed = shuffled.shuffled_batch_calibration(0.5, 1e-6, [1000], sensitivity=1)
    assert abs(printed.scales[0] * printed.eps0[0] - 1.0) < 1e-12


def test_bad_inputs():
    with pytest.raises(InvalidInputError):
        shuffled.shuffled_batch_calibration(0.5, 1e-6, [])
    with pytest.raises(InvalidInputError, match="eps must be > 0"):
        shuffled.shuffled_batch_calibration(0.0, 1e-6, [1000])
    with pytest.raises(InvalidInputError, match="sensitivity"):
        shuffled.shuffled_batch_calibration(0.5, 1e-6, [1000], sensitivity=-1)
    with pytest.raises(InvalidInputError):
        shuffled.shuffled_local_budget(0.5, 1000, 2.0)
