"""The shuffled calibration eps0^(i) = max(eps, f^{-1}_{n,delta}(eps)) of bcdp.bandits.elimination against
a 50-digit mpmath oracle of the printed eq. (6.10) (thesis Alg 6.4.1 step 8) and FMT21's domain cap."""

from __future__ import annotations

import mpmath
import pytest

from bcdp.bandits import elimination as el
from bcdp.core.errors import InvalidInputError


def f(eps0, n, delta):
    with mpmath.workdps(50):
        E = mpmath.exp(mpmath.mpf(eps0))
        L = mpmath.log(4 / mpmath.mpf(delta))
        return mpmath.log(1 + (E - 1) / (E + 1) * (8 * mpmath.sqrt(E * L) / mpmath.sqrt(n) + 8 * E / n))


def cap(n, delta):
    with mpmath.workdps(50):
        return mpmath.log(n / (16 * mpmath.log(2 / mpmath.mpf(delta))))


@pytest.mark.parametrize("n", [10 ** 3, 10 ** 4, 10 ** 5, 10 ** 6])
@pytest.mark.parametrize("eps", [0.01, 0.1, 0.5, 1.0])
def test_amplified_eps0_is_certified_and_nearly_largest(n, eps):
    delta = 1e-6
    e0 = el.shuffled_local_epsilon_float(eps, n, delta)
    assert e0 >= eps
    if e0 > eps:
        assert e0 <= cap(n, delta)
        assert f(e0, n, delta) <= eps
        assert e0 >= float(cap(n, delta)) - 1e-9 or f(e0 + 1e-6, n, delta) > eps


def test_domain_boundary_of_fmt():
    """16 log(2/delta) = 232.2... at delta = 1e-6: the cap log(n/232.2) is < 0 for n = 232 and > 0 for
    n = 233.  Below, no amplification: eps0 = eps."""
    delta = 1e-6
    assert cap(232, delta) < 0 < cap(233, delta)
    assert el.shuffled_local_epsilon_float(0.5, 232, delta) == 0.5
    assert el.shuffled_local_epsilon_float(0.5, 5, delta) == 0.5


def test_large_eps_uses_the_local_level():
    """For eps above what the capped FMT bound can give, eps0 = eps (f(cap) > eps is impossible to use)."""
    assert el.shuffled_local_epsilon_float(8.0, 10 ** 4, 1e-6) == 8.0


@pytest.mark.parametrize("args", [(0.0, 100, 1e-6), (-1.0, 100, 1e-6), (1.0, 100, 0.0), (1.0, 100, 1.0),
                                  (1.0, 0, 1e-6)])
def test_bad_inputs(args):
    with pytest.raises(InvalidInputError) as info:
        el.shuffled_local_epsilon_float(*args)
    assert "\n" not in str(info.value)
