"""The smallest accepted precision (bcdp.core.numbers.MIN_DPS digits) works for the thesis Ch. 5
lower bound of the subsampled shuffle, Thm 5.4.2, whose helpers are called at more digits than the
caller's (the central moments at dps + 10): pinned against the printed statement evaluated here with
mpmath at 60 digits,

    log(1 + C(a,2) g^2 (E-1)^2/(kE) + sum_{j=3}^a C(a,j) g^j ((E^2-1)/(kE))^j E[(m - k/(E+1))^j])/(a-1),

m ~ Bin(k, 1/(E+1)), g = k/n, E = e^eps0 (thesis Sec. 5.4, Thm 5.4.2)."""

from fractions import Fraction

import mpmath
from bcdp.core.numbers import MIN_DPS
from bcdp.shuffle import subsampled_bounds as sb


def _thm542(n, k, eps0, a):
    E = mpmath.exp(mpmath.mpf(eps0.numerator) / eps0.denominator)
    p = 1 / (E + 1)
    g = mpmath.mpf(k) / n
    central = [mpmath.fsum(mpmath.binomial(k, m) * p ** m * (1 - p) ** (k - m) * (m - k * p) ** j for m in range(k + 1))
               for j in range(a + 1)]
    x = mpmath.binomial(a, 2) * g ** 2 * (E - 1) ** 2 / (k * E)
    for j in range(3, a + 1):
        x += mpmath.binomial(a, j) * g ** j * ((E * E - 1) / (k * E)) ** j * central[j]
    return mpmath.log1p(x) / (a - 1)


def test_thm542_lower_at_the_minimum_precision():
    for n, k, eps0, a in [(10, 6, Fraction(1, 2), 4), (300, 250, Fraction(1, 5), 3)]:
        got = sb.thm542_lower(n, k, eps0, a, dps=MIN_DPS)
        with mpmath.workdps(60):
            ref = _thm542(n, k, eps0, a)
            assert abs(got - ref) <= mpmath.mpf(10) ** (3 - MIN_DPS) * ref, (got, ref)
