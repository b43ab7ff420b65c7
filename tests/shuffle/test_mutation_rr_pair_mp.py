"""Mutation kills for the mpmath oracle bcdp.shuffle.rr_pair.rr_pair_rdp_mp (thesis Sec. 5.3.4, the
shuffled binary randomized-response pair D = 0^n, D' = 0^{n-1}1): the precision loop that raises the
working precision until S - 1 carries dps + 5 correct digits (tiny eps0, where S - 1 ~ eps0^2 cancels
most of the digits of S), the default dps = 60, the dps argument's name, and the widening of the
k-window when the first window's tail bound is too large.

Independent reference: k ~ Bin(n, p), p = 1/(E+1), E = e^eps0 (eps0 an exact decimal), and the
likelihood ratio r(k) = ((n - k)/E + k E)/n (thesis eq. (5.40)); S - 1 = E_k[r^beta] - 1 summed over
every k in mpmath at dps + 40 + 2 log10(1/eps0) digits (so the cancellation in S - 1 leaves dps + 40
correct digits), beta = alpha ("DprimeD", eq. (5.9)) or 1 - alpha ("DDprime");
D_alpha = log1p(S - 1)/(alpha - 1).  Tolerance 10^-(dps-3) relative."""

from fractions import Fraction

import mpmath
import pytest
from bcdp.core.errors import InvalidInputError
from bcdp.shuffle import rr_pair
from bcdp.shuffle.rr_pair import rr_pair_rdp_mp


def oracle(n, eps0, alpha, direction, dps):
    q0 = Fraction(eps0)
    extra = 0 if q0 >= 1 else len(str(q0.denominator)) * 2
    with mpmath.workdps(dps + 40 + extra):
        e0 = mpmath.mpf(q0.numerator) / q0.denominator
        E = mpmath.exp(e0)
        p, q = 1 / (E + 1), E / (E + 1)
        a = mpmath.mpf(Fraction(alpha).numerator) / Fraction(alpha).denominator
        beta = a if direction == "DprimeD" else 1 - a
        terms, b = [], q ** n
        for k in range(n + 1):
            terms.append(b * (((n - k) / E + k * E) / n) ** beta)
            b = b * (n - k) / (k + 1) * p / q
        return mpmath.log1p(mpmath.fsum(terms) - 1) / (a - 1)


def close(got, ref, dps):
    with mpmath.workdps(dps + 40):
        return abs(got - ref) <= mpmath.mpf(10) ** (-(dps - 3)) * abs(ref)


@pytest.mark.parametrize("n, eps0, alpha, direction, dps", [
    (10, "1e-13", 2, "DprimeD", 30),      # S - 1 ~ 1e-27: below the first pass's 10^-12 threshold
    (10, "1e-13", 3, "DDprime", 30),
    (10, "1e-30", 2, "DprimeD", 60),      # S - 1 ~ 1e-61: no correct digit at the first pass
    (7, "1e-45", 4, "DDprime", 20),
])
def test_tiny_eps0_resolves_the_cancellation(n, eps0, alpha, direction, dps):
    got = rr_pair_rdp_mp(n, eps0, alpha, direction, dps=dps)
    assert close(got, oracle(n, eps0, alpha, direction, dps), dps), got


def test_default_dps_is_60():
    got = rr_pair_rdp_mp(20, "1/2", 3)
    assert got == rr_pair_rdp_mp(20, "1/2", 3, dps=60)
    assert close(got, oracle(20, "1/2", 3, "DprimeD", 60), 60)
    assert got != rr_pair_rdp_mp(20, "1/2", 3, dps=61)     # a different rounding: 60 digits exactly


def test_dps_is_named_in_its_error():
    with pytest.raises(InvalidInputError, match="^dps must be an integer in"):
        rr_pair_rdp_mp(10, 1, 2, dps=5)


@pytest.mark.parametrize("n, eps0, alpha, direction", [
    (400, 1, 3, "DprimeD"),
    (400, 1, 3, "DDprime"),
    (300, "1/2", 20, "DDprime"),
    (300, 2, "3/2", "DprimeD"),
])
def test_narrow_first_window_is_widened_until_the_tail_bound_holds(monkeypatch, n, eps0, alpha, direction):
    # the first k-window is mode +- 3 (a Bernstein half-width of 1): its tail bounds are far above
    # 10^-(dps+10) (S - 1), so the window must be widened (and the tails bounded) until they are not
    monkeypatch.setattr(rr_pair, "bernstein_halfwidth", lambda var, L: 1.0)
    got = rr_pair_rdp_mp(n, eps0, alpha, direction, dps=30)
    assert close(got, oracle(n, eps0, alpha, direction, 30), 30), got
