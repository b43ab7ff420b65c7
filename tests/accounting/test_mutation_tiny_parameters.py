"""Regression tests of two defects found while examining survivors of the mutation gate
(benchmarks/mutation_gate.py) of bcdp.accounting, both at parameters beyond the float range:

* the float Asoodeh form (search.eps_float, used by the order search, epsilon_at and the
  ``epsilon_float`` detail of certify_at) divided by exp(log(alpha delta)), which underflows to 0.0
  for alpha delta < e^-745: delta = 1e-400 raised ZeroDivisionError from epsilon_at and certify_at
  (for (alpha - 1) r < 1), and rdp_to_dp over a list of orders reported "the conversion is infinite
  at every searched order" (also ``bcdp rdp to-dp --delta 1e-400 --method asoodeh``);
* zcdp_rdp of an ``mpmath.mpf`` rho below the float range (mpf("1e-400"), a positive value whose
  float is 0.0) had the search value 0.0 at every order, so that rdp_to_dp with Mironov searched up
  to alpha = 1 + 1e300 and certified eps = 1e-100 instead of 7.4e-200 (the string "1e-400" was
  right).

Oracles: the printed conversions evaluated with mpmath at 50 digits from the exact inputs -- the
Asoodeh et al. form log(1 + (e^{(alpha - 1) r} - 1)/(alpha delta))/(alpha - 1) as printed in
bcdp.accounting.conversion, with delta = e^{-L} for a float L; Bun & Steinke (2016), Prop. 1.3,
rho + 2 sqrt(rho log(1/delta)), the infimum over alpha of the Mironov conversion of rho alpha -- and
the exact binary value of an mpf (its mantissa and exponent) times alpha, rounded once to a float.
These tests fail on the code before the fixes, so they are not used with ``--check``."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath as mp
import pytest
from bcdp.accounting import conversion as cv
from bcdp.accounting import search as se
from bcdp.accounting.curves import zcdp_rdp

DPS = 50


def asoodeh_at(u, r, ad):
    """log(1 + (e^{u r} - 1)/(alpha delta))/u at 50 digits (mpf arguments)."""
    return mp.log1p(mp.expm1(u * r) / ad) / u


def exact_of_mpf(x: mp.mpf) -> Fraction:
    man, exp = x.man_exp
    return Fraction(man) * 2 ** exp if exp >= 0 else Fraction(man, 2 ** -exp)


# -- the float Asoodeh form for alpha delta below e^-700 ----------------------------------------------------

@pytest.mark.parametrize("u,r,L", [
    (1.0, 0.5, 921.0340371976183),        # delta ~ 1e-400, (alpha - 1) r = 0.5
    (1e-3, 2.0, 800.0),
    (100.0, 1e-3, 750.0),
    (1.0, 1e-307, 705.0),                 # (e^x - 1)/(alpha delta) ~ 0.08: log(1 + e^t) with t < 0
    (1.0, 5e-306, 705.0),                 # t ~ 1
    (1.0, 5e-320, 705.0),                 # a subnormal (alpha - 1) r
    (1.0, 0.25, 700.0),                   # log(alpha delta) ~ -699.3: the direct form
    (1.0, 0.25, 701.5),                   # ~ -700.8: the other form, continuous with it
    (3.0, 0.3, 745.5), (3.0, 0.3, 1e4),
])
def test_regression_asoodeh_float_eps_for_alpha_delta_below_e_minus_700(u, r, L):
    got = se.eps_float(u, r, L, "asoodeh")
    with mp.workdps(DPS):
        U = mp.mpf(u)
        ref = asoodeh_at(U, mp.mpf(r), (1 + U) * mp.exp(-mp.mpf(L)))
    assert math.isfinite(got) and abs(got - ref) <= 1e-12 * ref, (got, ref)


@pytest.mark.parametrize("u,r,L", [(1.0, 1e-300, 0.7), (1.0, 1e-200, 5.0), (3.0, 1e-100, 2.0), (10.0, 1e-20, 3.0)])
def test_the_direct_asoodeh_form_keeps_its_accuracy_above_e_minus_700(u, r, L):
    """Above alpha delta = e^-700 the form log1p(expm1(x)/(alpha delta))/u is kept: for a tiny
    x = (alpha - 1) r it is within a few ulps of the printed value (1e-15 relative), where log(1 + e^t)
    with t = log(e^x - 1) - log(alpha delta) (t ~ -690: an absolute error ~1e-13) would lose ~1e-14."""
    got = se.eps_float(u, r, L, "asoodeh")
    with mp.workdps(DPS):
        U = mp.mpf(u)
        ref = asoodeh_at(U, mp.mpf(r), (1 + U) * mp.exp(-mp.mpf(L)))
    assert abs(got - ref) <= 1e-15 * ref, (got, ref)


def printed_asoodeh(rho: str, alpha: float, delta: str):
    with mp.workdps(DPS):
        A, D = mp.mpf(alpha), mp.mpf(Fraction(delta).numerator) / Fraction(delta).denominator
        R = mp.mpf(Fraction(rho).numerator) / Fraction(rho).denominator
        return asoodeh_at(A - 1, R * A, A * D)


def test_regression_asoodeh_at_delta_1e_minus_400_through_the_public_functions():
    """epsilon_at and certify_at at alpha = 2, r = 0.2 (zCDP rho = 0.1) and delta = 1e-400; rdp_to_dp
    over the orders (2, 3): the best order is 3 ((alpha - 1) r = 0.6 < 1 there)."""
    ref = printed_asoodeh("0.1", 2.0, "1e-400")
    assert abs(cv.epsilon_at(2.0, 0.2, "1e-400", "asoodeh") - ref) <= 1e-13 * ref
    res = cv.certify_at(zcdp_rdp("0.1"), 2.0, "1e-400", "asoodeh")
    lo, hi = res.enclosure
    assert mp.mpf(lo) <= ref <= mp.mpf(hi) <= mp.mpf(res.upper) and res.upper <= ref * (1 + 1e-14)
    assert abs(res.details["epsilon_float"] - ref) <= 1e-13 * ref
    vals = {a: printed_asoodeh("0.1", a, "1e-400") for a in (2.0, 3.0)}
    res = cv.rdp_to_dp(zcdp_rdp("0.1"), "1e-400", "asoodeh", orders=[2.0, 3.0])
    assert res.alpha_star == min(vals, key=vals.get) == 3.0
    assert vals[3.0] <= mp.mpf(res.upper) <= vals[3.0] * (1 + mp.mpf(10) ** -14)


# -- zcdp_rdp of an mpf rho below the float range ---------------------------------------------------------

@pytest.mark.parametrize("text", ["1e-400", "3e-330", "2.5e-310"])
def test_regression_mpf_rho_below_the_float_range_has_its_search_value(text):
    rho = mp.mpf(text)
    assert float(rho) == 0.0 or float(rho) < 1e-300
    curve = zcdp_rdp(rho)
    for a in (2.0, 1e250, 3.7e200, 1e300):
        assert curve(a) == float(exact_of_mpf(rho) * Fraction(a)), a


def test_regression_mpf_rho_below_the_float_range_is_converted_at_its_optimum():
    """Mironov over the real orders: the optimum 1 + sqrt(L/rho) ~ 3.7e200 is interior; eps is
    Bun & Steinke's rho + 2 sqrt(rho L) (not rho (1 + 1e300) + L/1e300 ~ 1e-100 at the last order)."""
    rho = mp.mpf("1e-400")
    res = cv.rdp_to_dp(zcdp_rdp(rho), "1e-6", "mironov")
    with mp.workdps(DPS):
        q = exact_of_mpf(rho)
        R = mp.mpf(q.numerator) / q.denominator
        L = mp.log(10 ** 6)
        truth, a_star = R + 2 * mp.sqrt(R * L), 1 + mp.sqrt(L / R)
    assert truth <= mp.mpf(res.upper) <= truth * (1 + mp.mpf(10) ** -9)
    assert abs(mp.mpf(res.alpha_star) - a_star) <= mp.mpf(10) ** -4 * a_star
    assert res.alpha_at_search_boundary is False and res.notes == ()
