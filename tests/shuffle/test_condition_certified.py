"""Regression: the validity conditions alpha^4 e^{5 eps0} < n/9 (thesis Cor 5.3.1) and <= n/9 ([GDD21e]
Lemma 3.3.1 as quoted in thesis Sec. 3.3.1) are decided on arb balls
(:func:`bcdp.shuffle.inputs.condition_gap_sign`), not on mpmath values at dps + 20 digits.  The side of
the boundary is worked out here with mpmath at 300 digits."""

from fractions import Fraction

import mpmath
import pytest
from bcdp.core.errors import ValidityConditionError
from bcdp.shuffle import inputs
from bcdp.shuffle import shuffled_bounds as sh
from bcdp.shuffle import subsampled as sr


def _sign(n, a, eps0):
    q = Fraction(eps0)
    with mpmath.workdps(300):
        return mpmath.sign(mpmath.mpf(a) ** 4 * mpmath.exp(5 * mpmath.mpf(q.numerator) / q.denominator) - mpmath.mpf(n) / 9)


@pytest.mark.parametrize("a", [2, 5])
def test_gdd21e_condition_at_n_equal_9_alpha4_and_a_tiny_eps0_is_false(a):
    # the defect: 5^4 e^{5e-110} = 625 (1 + 5e-110) rounds to 625 = 5625/9 at 80 digits, and "<=" accepted it
    n, eps0 = 9 * a**4, "1e-110"
    assert _sign(n, a, eps0) > 0
    assert not sr.gdd21e_condition(n, eps0, a)
    assert not sh.cor531_condition(n, eps0, a)
    with pytest.raises(ValidityConditionError, match="^Lemma 3.3.1 .GDD21e. needs"):
        sr.gdd21e_rdp(n, eps0, a)
    assert sr.gdd21e_condition(n, 0, a) and not sh.cor531_condition(n, 0, a)   # the exact tie at eps0 = 0
    assert sr.gdd21e_condition(n + 1, eps0, a) and sh.cor531_condition(n + 1, eps0, a)


def test_conditions_decided_far_beyond_the_working_precision():
    # eps0 within 10^-150 of the threshold log(n/(9 a^4))/5, on both sides
    n, a = 10**6, 3
    with mpmath.workdps(400):
        thr = mpmath.log(mpmath.mpf(n) / (9 * a**4)) / 5
        below = Fraction(int(mpmath.floor(thr * 10**150)), 10**150)
        above = below + Fraction(1, 10**150)
    assert _sign(n, a, below) < 0 < _sign(n, a, above)
    assert sr.gdd21e_condition(n, below, a) and sh.cor531_condition(n, below, a)
    assert not sr.gdd21e_condition(n, above, a) and not sh.cor531_condition(n, above, a)
    # real orders (Cor 5.3.1's condition is stated for real alpha): 9 (5/2)^4 = 351.5625
    assert sh.cor531_condition(352, "1e-200", Fraction(5, 2)) and not sh.cor531_condition(351, "1e-200", Fraction(5, 2))


def test_sign_certified():
    import flint

    assert inputs.sign_certified(lambda: flint.arb(1) / 3 - flint.arb(1) / 3 + flint.arb(10) ** -100) == 1
    assert inputs.sign_certified(lambda: flint.arb(0)) == 0
    assert inputs.sign_certified(lambda: flint.arb(2).log() - flint.arb(2).sqrt()) == -1
