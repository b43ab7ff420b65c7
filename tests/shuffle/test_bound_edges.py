"""Every validity condition of the thesis Ch. 5 bounds at both sides of its boundary, and the
Thm 5.3.1 tails pinned against the printed formulas evaluated here (issue 12).

Boundaries are placed with mpmath at 50 digits from the printed conditions (thesis Cor 5.3.1,
eq. (5.5): alpha^4 e^{5 eps0} < n/9; [GDD21e] as quoted in thesis Lemma 3.3.1: <= n/9 and eps0 > 0;
Thm 5.4.4: k >= 2 and eps0 > 0); the point just inside must be accepted, the point just outside
refused with the condition named in the message.  A condition loosened or tightened by any
realistic amount (e^{4 eps0} for e^{5 eps0}, n/8, ...) moves the boundary by far more than the
1e-30 offsets used here.
"""

from __future__ import annotations

import mpmath
import pytest
from bcdp.core.errors import InvalidInputError, ValidityConditionError
from bcdp.shuffle import bounds as sb
from bcdp.shuffle.subsampled import gdd21e_rdp

OFFSET = mpmath.mpf(10) ** -30


def eps0_at_boundary(n: int, alpha: int) -> mpmath.mpf:
    """The eps0 with alpha^4 e^{5 eps0} = n/9 (printed condition, solved here at 50 digits)."""
    with mpmath.workdps(50):
        return mpmath.log(mpmath.mpf(n) / (9 * mpmath.mpf(alpha) ** 4)) / 5


def dec(x: mpmath.mpf) -> str:
    return mpmath.nstr(x, 45, min_fixed=-mpmath.inf, max_fixed=mpmath.inf)


@pytest.mark.parametrize("n,alpha", [(10 ** 6, 2), (10 ** 6, 10), (5000, 3), (10 ** 9, 64)])
@pytest.mark.parametrize("bound,condition", [
    (lambda n, e, a: sb.cor531_upper(n, e, a), "alpha^4 e^(5 eps0) < n/9"),
    (lambda n, e, a: gdd21e_rdp(n, e, a), "alpha^4 e^(5 eps0) <= n/9"),
])
def test_alpha4_e5eps0_condition_both_sides(n, alpha, bound, condition):
    with mpmath.workdps(50):
        b = eps0_at_boundary(n, alpha)
        assert b > 0
        inside, outside = dec(b - OFFSET), dec(b + OFFSET)
    assert bound(n, inside, alpha) > 0
    with pytest.raises(ValidityConditionError, match=condition.replace("^", r"\^").replace("(", r"\(")
                       .replace(")", r"\)")):
        bound(n, outside, alpha)


def test_cor531_condition_in_n_at_eps0_zero():
    # eps0 = 0: 9 alpha^4 < n, strict: n = 9 alpha^4 + 1 accepted, n = 9 alpha^4 refused
    for a in (2, 3, 7):
        assert sb.cor531_upper(9 * a ** 4 + 1, 0, a) == 0
        with pytest.raises(ValidityConditionError, match=r"n/9"):
            sb.cor531_upper(9 * a ** 4, 0, a)


def test_gdd21e_needs_positive_eps0():
    with pytest.raises(ValidityConditionError, match="eps0 > 0"):
        gdd21e_rdp(10 ** 6, 0, 2)
    assert gdd21e_rdp(10 ** 6, "1e-30", 2) > 0


def test_thm544_needs_k_at_least_2_and_positive_eps0():
    assert sb.thm544_ternary(2, "0.5", 2) > 0 and sb.thm544_ternary(1000, "1e-30", 3) > 0
    with pytest.raises(ValidityConditionError, match="k >= 2 and eps0 > 0"):
        sb.thm544_ternary(1, "0.5", 2)
    with pytest.raises(ValidityConditionError, match="k >= 2 and eps0 > 0"):
        sb.thm544_ternary(1000, 0, 2)


@pytest.mark.parametrize("fn,inside,outside", [
    (sb.thm531_upper, 2, 1), (sb.cor531_upper, 2, 1), (sb.thm533_lower, 2, 1), (sb.cor532_lower, 2, 1),
    (sb.thm532_upper, "1.000000000000000000001", 1), (sb.efm19_upper, "1.000000000000000000001", 1),
])
def test_order_domain_both_sides(fn, inside, outside):
    assert fn(10 ** 9, "0.1", inside) >= 0
    with pytest.raises(InvalidInputError, match="alpha"):
        fn(10 ** 9, "0.1", outside)


# -- Thm 5.3.1 pinned against the printed formula --------------------------------------------------

def thm531_printed(n: int, eps0: str, a: int, tail: str) -> mpmath.mpf:
    """Thesis eq. (5.4), written out here at 50 digits: nbar = floor((n-1)/(2E)) + 1,
    1/(a-1) log(1 + C(a,2)(E-1)^2/(nbar E) + sum_{i=3}^a C(a,i) i Gamma(i/2) ((E^2-1)^2/(2E^2 nbar))^{i/2} + T)
    with T = e^{eps0 a - (n-1)/(8E)} (printed) or ((E^a + E^{1-a})/(E+1) - 1) e^{-(n-1)/(8E)}
    (refined: the module's tail, E_0 - 1 with E_0 <= (E^a + E^{1-a})/(E+1))."""
    with mpmath.workdps(50):
        e = mpmath.mpf(eps0)
        E = mpmath.exp(e)
        nb = int(mpmath.floor((n - 1) / (2 * E))) + 1
        s = mpmath.binomial(a, 2) * (E - 1) ** 2 / (nb * E)
        for i in range(3, a + 1):
            s += (mpmath.binomial(a, i) * i * mpmath.gamma(mpmath.mpf(i) / 2)
                  * ((E ** 2 - 1) ** 2 / (2 * E ** 2 * nb)) ** (mpmath.mpf(i) / 2))
        if tail == "thesis":
            t = mpmath.exp(e * a - (n - 1) / (8 * E))
        else:
            t = ((E ** a + E ** (1 - a)) / (E + 1) - 1) * mpmath.exp(-(n - 1) / (8 * E))
        return mpmath.log(1 + s + t) / (a - 1)


@pytest.mark.parametrize("tail", ["thesis", "refined"])
@pytest.mark.parametrize("n,eps0,a", [(50, "0.5", 2), (50, "0.5", 5), (20, "1", 3), (200, "0.1", 8),
                                      (1000, "2", 4), (30, "0.05", 2)])
def test_thm531_pinned_at_50_digits(n, eps0, a, tail):
    got = sb.thm531_upper(n, eps0, a, tail=tail, dps=50)
    want = thm531_printed(n, eps0, a, tail)
    with mpmath.workdps(50):
        assert abs(got - want) <= abs(want) * mpmath.mpf(10) ** -40
        # the tail matters at these points: dropping it, or /2 for /(E+1) in the refined one, moves
        # the value by far more than the tolerance
        E = mpmath.exp(mpmath.mpf(eps0))
        if tail == "refined":
            loose = ((E ** a + E ** (1 - a)) / 2 - 1) * mpmath.exp(-(n - 1) / (8 * E))
            tight = ((E ** a + E ** (1 - a)) / (E + 1) - 1) * mpmath.exp(-(n - 1) / (8 * E))
            assert abs(loose - tight) / (a - 1) > abs(want) * mpmath.mpf(10) ** -30
