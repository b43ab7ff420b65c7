"""bcdp.accounting.search on its documented edges: the Asoodeh form is +inf outside alpha delta < 1
(eps_float, epsilon_at), the candidates of an explicit list of orders (all of them for Mironov and
CKS; for Asoodeh only those with alpha delta < 1), ``at_boundary`` of a list (True only at its
first or last usable order), eps clamped at 0, the default top INTEGER_ALPHA_MAX of
``orders="integer"``, and a centre that decides which of two valleys of a curve is searched.

Oracles: the printed conversions evaluated with mpmath at 50 digits from the exact inputs
(Mironov 2017, Prop. 3: r + L/(alpha - 1); Canonne, Kamath & Steinke 2020, Prop. 12:
r + log(1 - 1/alpha) + (L - log alpha)/(alpha - 1); the Asoodeh et al. form as printed in
bcdp.accounting.conversion: log(1 + (e^{(alpha - 1) r} - 1)/(alpha delta))/(alpha - 1) for
alpha delta < 1), with L = log(1/delta) and r = rho alpha; the best order of a list is the argmin
of those values; the local minimum of the two-valley curve is at log10(alpha - 1) = 1 in closed
form.  Written to kill survivors of the mutation gate (benchmarks/mutation_gate.py)."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath as mp
import pytest
from bcdp.accounting import conversion as cv
from bcdp.accounting import search as se
from bcdp.accounting.curves import rdp_curve_from_arrays, rdp_curve_from_callable, zcdp_rdp

DPS = 50


def M(x) -> mp.mpf:
    q = Fraction(x)
    return mp.mpf(q.numerator) / q.denominator


def printed(method: str, r, alpha, delta):
    """The printed conversion at order alpha of the RDP value r (exact inputs, 50 digits); None for
    Asoodeh outside alpha delta < 1."""
    with mp.workdps(DPS):
        r, A, D = M(r), M(alpha), M(delta)
        L = -mp.log(D)
        if method == "mironov":
            return r + L / (A - 1)
        if method == "cks":
            return r + mp.log(1 - 1 / A) + (L - mp.log(A)) / (A - 1)
        if A * D >= 1:
            return None
        return mp.log(1 + mp.expm1((A - 1) * r) / (A * D)) / (A - 1)


def zcdp_value(rho: str, alpha: float) -> Fraction:
    return Fraction(rho) * Fraction(alpha)


# -- the Asoodeh form outside alpha delta < 1 --------------------------------------------------------------

@pytest.mark.parametrize("u", [1.0, 9.0, 0.5, 1e-3, 123.25])
@pytest.mark.parametrize("r", [0.3, 5.0])
def test_asoodeh_at_alpha_delta_equal_to_one_is_infinite(u, r):
    """eps_float: "+inf for Asoodeh outside alpha delta < 1".  With L = log(1 + u) (the same float
    the function computes), alpha delta = 1 in floats: outside.  One float further (L up by one
    unit), alpha delta < 1: the printed form, finite (it tends to r as alpha delta -> 1)."""
    L = math.log1p(u)
    assert se.eps_float(u, r, L, "asoodeh") == math.inf
    L_in = math.nextafter(L, math.inf)
    got = se.eps_float(u, r, L_in, "asoodeh")
    with mp.workdps(DPS):
        U = mp.mpf(u)
        ad = (1 + U) * mp.exp(-mp.mpf(L_in))           # alpha delta, delta = e^{-L} for the float L
        ref = mp.log(1 + mp.expm1(U * r) / ad) / U
    assert ad < 1 and abs(got - ref) <= 1e-12 * ref


def test_epsilon_at_is_infinite_for_asoodeh_when_alpha_delta_is_one():
    """epsilon_at: "+inf for asoodeh when alpha delta >= 1"; alpha = 2, delta = 1/2 (log 2 is the
    same float whether taken as log1p(1) or from the exact delta)."""
    with mp.workdps(DPS):
        assert math.log1p(1.0) == float(mp.log(2))
    assert cv.epsilon_at(2.0, 0.3, "1/2", "asoodeh") == math.inf
    assert cv.epsilon_at(2.0, 0.3, "0.6", "asoodeh") == math.inf
    got = cv.epsilon_at(2.0, 0.3, "0.4", "asoodeh")
    assert abs(got - printed("asoodeh", "0.3", 2.0, "0.4")) <= 1e-13 * got


# -- explicit lists of orders ---------------------------------------------------------------------------

def best_of(method, rho, orders, delta):
    """(best order, its eps, at_boundary) over the usable orders of a list, from the printed values."""
    vals = {a: printed(method, zcdp_value(rho, a), a, delta) for a in orders}
    usable = sorted(a for a in orders if vals[a] is not None)
    a = min(usable, key=lambda o: vals[o])
    i = usable.index(a)
    return a, vals[a], i in (0, len(usable) - 1) and len(usable) > 1


@pytest.mark.parametrize("orders", [[2.0, 3.0, 10.5, 1000.0], [1000.0, 3.0, 2.0, 10.5], [2.0, 3.0, 10.5]])
def test_asoodeh_uses_only_the_listed_orders_with_alpha_delta_below_one(orders):
    """delta = 0.1: 2 and 3 are usable, 10.5 (alpha - 1 = 9.5, within one of the edge 1/delta - 1 = 9)
    and 1000 are not.  For rho alpha, rho = 0.01, the form decreases from 2 to 3: the best order is
    3, the last usable one, hence at the boundary of the list."""
    a_ref, v_ref, at_ref = best_of("asoodeh", "0.01", orders, "0.1")
    assert (a_ref, at_ref) == (3.0, True)
    for curve in (zcdp_rdp("0.01"), rdp_curve_from_arrays(orders, [0.01 * a for a in orders])):
        a, v, at_b = se.search_alpha(curve, "0.1", "asoodeh", orders=orders)
        assert (a, at_b) == (a_ref, at_ref) and abs(v - v_ref) <= 1e-13 * v_ref


def test_mironov_and_cks_use_every_listed_order_also_beyond_the_default_range():
    """Only Asoodeh restricts a list (to alpha delta < 1).  rho = 1e-700: the optima lie beyond
    1 + 1e300 (the default real-order range).  Mironov: the best listed order is the largest, 1e302.
    CKS: its value there is negative (log alpha > L), least at 1e301; eps is clamped at 0."""
    orders = [2.0, 1e301, 1e302]
    a_ref, v_ref, at_ref = best_of("mironov", "1e-700", orders, "1e-6")
    assert (a_ref, at_ref) == (1e302, True)
    a, v, at_b = se.search_alpha(zcdp_rdp("1e-700"), "1e-6", "mironov", orders=orders)
    assert (a, at_b) == (a_ref, at_ref) and abs(v - v_ref) <= 1e-13 * v_ref
    a_ref, v_ref, at_ref = best_of("cks", "1e-700", orders, "1e-6")
    assert (a_ref, at_ref) == (1e301, False) and v_ref < 0
    assert se.search_alpha(zcdp_rdp("1e-700"), "1e-6", "cks", orders=orders) == (a_ref, 0.0, at_ref)


@pytest.mark.parametrize("rho,where", [("100", "first"), ("3.45", "inside"), ("0.01", "last")])
def test_at_boundary_of_a_list_is_true_at_its_first_and_last_order_only(rho, where):
    """Mironov optimum of rho alpha at 1 + sqrt(L/rho), L = log 1e6 ~ 13.8: ~1.37, ~3.0, ~38.2; over
    the list (2, 3, 4) the best order is the first, the middle and the last one."""
    orders = [2.0, 3.0, 4.0]
    a_ref, v_ref, at_ref = best_of("mironov", rho, orders, "1e-6")
    assert a_ref == {"first": 2.0, "inside": 3.0, "last": 4.0}[where] and at_ref is (where != "inside")
    a, v, at_b = se.search_alpha(zcdp_rdp(rho), "1e-6", "mironov", orders=orders)
    assert (a, at_b) == (a_ref, at_ref) and abs(v - v_ref) <= 1e-13 * v_ref
    assert se.search_alpha(zcdp_rdp(rho), "1e-6", "mironov", orders=[3.0])[2] is False   # one order: no edge


def test_eps_of_a_list_is_clamped_at_zero_and_only_there():
    """An eps below 1 is returned as it is; a negative CKS value (rho = 1e-9, delta = 1/2,
    alpha = 100) is returned as 0."""
    a, v, _ = se.search_alpha(zcdp_rdp("0.001"), "0.1", "mironov", orders=[2.0, 3.0, 50.0])
    v_ref = printed("mironov", zcdp_value("0.001", 50.0), 50.0, "0.1")
    assert a == 50.0 and v_ref < 1 and abs(v - v_ref) <= 1e-13 * v_ref
    assert printed("cks", zcdp_value("1e-9", 100.0), 100.0, "1/2") < 0
    assert se.search_alpha(zcdp_rdp("1e-9"), "1/2", "cks", orders=[100.0])[1] == 0.0


def test_integer_orders_default_to_two_through_integer_alpha_max(monkeypatch):
    """orders="integer" without alpha_max: 2, 3, ..., INTEGER_ALPHA_MAX (the documented default), not
    up to the largest real order.  Both module constants are made small here (the top 40, the real
    range 1e4) so that the two readings differ cheaply: rho = 1e-4, delta = 1e-6 has its Mironov
    optimum at ~372, so the best order of 2..40 is 40, at the boundary."""
    monkeypatch.setattr(se, "INTEGER_ALPHA_MAX", 40)
    monkeypatch.setattr(se, "U_MAX", 1e4)
    a_ref, v_ref, at_ref = best_of("mironov", "1e-4", [float(k) for k in range(2, 41)], "1e-6")
    assert (a_ref, at_ref) == (40.0, True)
    a, v, at_b = se.search_alpha(zcdp_rdp("1e-4"), "1e-6", "mironov", "integer")
    assert (a, at_b) == (a_ref, at_ref) and abs(v - v_ref) <= 1e-13 * v_ref


# -- the centre decides which valley is searched --------------------------------------------------------

def two_valleys(a):
    """r(alpha) with its global minimum 0 at alpha - 1 = 1e-10 and a local minimum 1/2 at
    alpha - 1 = 10 (log10(alpha - 1) = 1, where (t + 10)^2 (t - 1)^2 has a double root)."""
    t = math.log10(a - 1.0)
    return (t + 10) ** 2 * (t - 1) ** 2 / 1000 + (0.0 if t < -5 else 0.5)


def test_a_centre_in_the_local_valley_searches_that_valley():
    """search_alpha: ``center`` centres the initial window (instead of the default one); the window
    around alpha - 1 = 10 holds the local valley and the search refines it, while the global one,
    eleven decades away, is not searched (a centre that is ignored, or a window that is the whole
    range, would find it)."""
    curve = rdp_curve_from_callable(two_valleys)
    delta = "0.999999999999999999999"               # L ~ 1e-21: eps is r(alpha) + ~1e-22 here
    a, v, at_b = se.search_alpha(curve, delta, "mironov", center=10.0)
    assert abs(a - 11.0) <= 1e-5 * 11.0 and abs(v - 0.5) <= 1e-12 and at_b is False
    a, v, at_b = se.search_alpha(curve, delta, "mironov", center=1e-10)   # the other valley, for contrast
    assert abs((a - 1) / 1e-10 - 1) < 1e-3 and v < 1e-9
