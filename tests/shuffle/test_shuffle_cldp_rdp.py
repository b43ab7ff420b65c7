"""bcdp.shuffle.cldp_rdp (thesis Thm 5.4.3, eq. (5.41)): against the printed formula evaluated here in
mpmath at 50 digits, monotonicity, the Thm 5.4.2 route below it, bad inputs."""

from __future__ import annotations

import mpmath
import pytest
from bcdp.core.errors import InvalidInputError
from bcdp.shuffle import cldp_rdp


def _thm541(n, k, eps0, a):
    E = mpmath.exp(mpmath.mpf(eps0))
    g = mpmath.mpf(k) / n
    kb = mpmath.floor((k - 1) / (2 * E)) + 1
    c = E - 1 / E
    x = 2 * a * (a - 1) * g ** 2 * (E - 1) ** 2 / (kb * E)
    for j in range(3, a + 1):
        x += mpmath.binomial(a, j) * g ** j * j * mpmath.gamma(mpmath.mpf(j) / 2) * (2 * (E * E - 1) ** 2 / (kb * E * E)) ** (mpmath.mpf(j) / 2)
    x += sum(mpmath.binomial(a, l) * (g * c) ** l for l in range(2, a + 1)) * mpmath.exp(-(k - 1) / (8 * E))
    return mpmath.log1p(x) / (a - 1)


@pytest.mark.parametrize("n,k,eps0,T,delta", [(500, 50, 1.0, 30, 1e-5), (60000, 10000, 1.5, 600, 1e-5),
                                              (2000, 2000, 0.25, 1, 1e-3)])
def test_equals_the_printed_formula(n, k, eps0, T, delta):
    orders = range(2, 41)
    with mpmath.workdps(50):
        want = min(T * _thm541(n, k, eps0, a) + (mpmath.log(1 / mpmath.mpf(delta)) + (a - 1) * mpmath.log1p(-mpmath.mpf(1) / a)
                                                 - mpmath.log(a)) / (a - 1) for a in orders)
        got = cldp_rdp.thm543_epsilon(n, k, eps0, T, delta, orders=orders)
        assert got.upper >= want
        assert abs(mpmath.mpf(got.upper) / want - 1) < 1e-12


def test_above_the_lower_bound_route_and_monotone():
    up = cldp_rdp.thm543_epsilon(500, 50, 1.0, 30, 1e-5, orders=range(2, 17)).upper
    low = cldp_rdp.thm543_epsilon(500, 50, 1.0, 30, 1e-5, bound="thm542", orders=range(2, 17)).upper
    assert low < up
    e = [cldp_rdp.thm543_epsilon(500, 50, 1.0, T, 1e-5, orders=range(2, 33)).upper for T in (1, 10, 100)]
    assert e[0] < e[1] < e[2]


@pytest.mark.parametrize("kwargs", [dict(bound="thm531"), dict(orders=[1, 2]), dict(orders=[]), dict(orders=[2.5]),
                                    dict(T=0), dict(eps0="1"), dict(eps0=float("nan")),
                                    dict(eps0=float("inf"))])
def test_bad_inputs(kwargs):
    args = dict(n=500, k=50, eps0=1.0, T=10, delta=1e-5)
    args.update(kwargs)
    with pytest.raises(InvalidInputError) as e:
        cldp_rdp.thm543_epsilon(args.pop("n"), args.pop("k"), args.pop("eps0"), args.pop("T"), args.pop("delta"), **args)
    assert "\n" not in str(e.value)
