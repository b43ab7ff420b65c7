"""bcdp.accounting.subsampling pinned at many points against mpmath (80 digits) evaluations of the
printed formulas of [WBK19, Theorem 9] and [ZW19, Theorem 6] (written out below from the statements,
not from the library's code), including the branches of the min{.} terms, eps_inf in {0, finite, inf},
eps(2) = 0, infinite base values, the precision contract (dps digits) and the documented bad twins
(``variant=``).  Written to kill the survivors of the mutation gate (benchmarks/mutation_gate.py).

Regression: ``zw19_thm6(eps, 1, alpha)`` returned NaN when eps(l) = inf for some l < alpha, although at
gamma = 1 the l < alpha terms carry the factor (1 - gamma)^(alpha - l) = 0 (the docstring: "only the
l = alpha term survives"); mpmath evaluated 0 * e^inf as NaN.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from bcdp.accounting import subsampling as sr
from bcdp.core.errors import InvalidInputError

ORACLE_DPS = 80


def wbk19_printed(eps, g, a, einf, variant="paper"):
    """[WBK19, Thm 9] at ORACLE_DPS digits:
    1/(a-1) log(1 + g^2 C(a,2) min{4(e^{eps(2)} - 1), e^{eps(2)} min{2, (e^{eps_inf} - 1)^2}}
                  + sum_{j=3}^a g^j C(a,j) e^{(j-1) eps(j)} min{2, (e^{eps_inf} - 1)^j}).
    The variants are the bad twins as documented: e^{(j-2) eps(j)}; no j >= 3 terms; g^{j+1}."""
    with mpmath.workdps(ORACLE_DPS):
        g, e = mpmath.mpf(g), {j: mpmath.mpf(eps[j]) for j in range(2, a + 1)}
        if any(mpmath.isinf(v) for v in e.values()):
            return mpmath.inf
        c = mpmath.inf if mpmath.isinf(mpmath.mpf(einf)) else mpmath.e ** mpmath.mpf(einf) - 1

        def cap(j):
            return mpmath.mpf(2) if mpmath.isinf(c) else min(mpmath.mpf(2), c ** j)

        def gp(j):
            return g ** (j + 1) if variant == "gamma_cubed" else g ** j

        x = 1 + gp(2) * mpmath.binomial(a, 2) * min(4 * (mpmath.e ** e[2] - 1), mpmath.e ** e[2] * cap(2))
        if variant != "quadratic_only":
            k = 2 if variant == "exponent_j_minus_2" else 1
            for j in range(3, a + 1):
                x += gp(j) * mpmath.binomial(a, j) * mpmath.e ** ((j - k) * e[j]) * cap(j)
        return mpmath.log(x) / (a - 1)


def zw19_printed(eps, g, a, variant="paper"):
    """[ZW19, Thm 6] at ORACLE_DPS digits:
    1/(a-1) log((1-g)^{a-1}(a g - g + 1) + C(a,2) g^2 (1-g)^{a-2} e^{eps(2)}
                + 3 sum_{l=3}^a C(a,l) g^l (1-g)^{a-l} e^{(l-1) eps(l)}),
    terms whose factor (1-g)^{a-l} is 0 (g = 1, l < a) being absent.  Bad twins: factor 1 in place
    of 3 ("no_factor_3"); no l >= 3 terms ("quadratic_only")."""
    with mpmath.workdps(ORACLE_DPS):
        g = mpmath.mpf(g)
        e = {j: mpmath.mpf(eps[j]) for j in range(2, a + 1)}
        total = (1 - g) ** (a - 1) * (a * g - g + 1)
        last = 2 if variant == "quadratic_only" else a
        for ell in range(2, last + 1):
            w = (1 - g) ** (a - ell)
            if w == 0:
                continue
            c = 1 if ell == 2 or variant == "no_factor_3" else 3
            total += c * mpmath.binomial(a, ell) * g ** ell * w * mpmath.e ** ((ell - 1) * e[ell])
        return mpmath.inf if mpmath.isinf(total) else mpmath.log(total) / (a - 1)


def close(got, ref, rel, floor=1e-15):
    """|got - ref| <= rel |ref| + floor (the floor: float log-space sums that are exactly 0 in the
    printed formula, e.g. ZW19 at alpha = 2 with eps(2) = 0, come out within a few ulps of 1 in the log)."""
    ref = mpmath.mpf(ref)
    if mpmath.isinf(ref):
        return got == math.inf
    return abs(mpmath.mpf(got) - ref) <= rel * abs(ref) + floor


# base curves as float arrays (index j = eps(j); entries 0, 1 unused): a zCDP-like line, a steep
# curve, one with eps(2) = 0
BASES = {
    "line": np.array([0.0, 0.0] + [0.05 * j for j in range(2, 13)]),
    "steep": np.array([0.0, 0.0] + [1.5 + 0.25 * j for j in range(2, 13)]),
    "zero_at_2": np.array([0.0, 0.0, 0.0] + [0.02 * j for j in range(3, 13)]),
}
ORDERS = [2, 3, 5, 8, 12]


@pytest.mark.parametrize("name", sorted(BASES))
@pytest.mark.parametrize("g", [0.01, 0.3, 1.0])
@pytest.mark.parametrize("einf", [0.0, 0.25, 0.5, 2.0, math.inf])
def test_wbk19_float_twin_against_the_printed_formula(name, g, einf):
    """eps_inf = 0.25 and 0.5: (e^eps_inf - 1)^j < 2 (the min picks it, e^{eps(2)} (.)^2 beats
    4(e^{eps(2)} - 1) on the steep curve); 2.0 and inf: the cap 2; 0: every capped term is 0; eps(2) = 0:
    the quadratic term is 0 (log of 0 handled)."""
    base = BASES[name]
    got = sr.wbk19_thm9_float(base, g, ORDERS, eps_inf=einf)
    assert got.shape == (len(ORDERS),)
    for i, a in enumerate(ORDERS):
        ref = wbk19_printed(base, g, a, einf)
        assert close(got[i], ref, 1e-12), (name, g, einf, a, got[i], ref)


def test_wbk19_float_twin_default_eps_inf_is_infinity():
    base = BASES["steep"]
    got = sr.wbk19_thm9_float(base, 0.3, [2, 4])
    for i, a in enumerate([2, 4]):
        assert close(got[i], wbk19_printed(base, 0.3, a, math.inf), 1e-12)


@pytest.mark.parametrize("einf", [0.0, 0.5, math.inf])
def test_wbk19_float_twin_infinite_base_values(einf):
    """An infinite eps(j), j <= alpha, makes the bound +inf (documented; also with eps_inf = 0, where
    the printed formula would read 0 * inf), an infinite value beyond alpha is never read, and each
    order is evaluated on its own (orders listed out of order)."""
    base = np.array([0.0, 0.0, 0.1, math.inf, 0.2, 0.3, math.inf])
    got = sr.wbk19_thm9_float(base, 0.2, [3, 2, 5, 4], eps_inf=einf)
    assert got[0] == math.inf and got[2] == math.inf
    for i in (1, 3):
        a = [3, 2, 5, 4][i]
        if a == 4:
            assert got[i] == math.inf
        else:
            assert close(got[i], wbk19_printed(base, 0.2, a, einf), 1e-12)
    base2 = np.array([0.0, 0.0, math.inf, 0.1, 0.1])
    assert sr.wbk19_thm9_float(base2, 0.2, [2, 3], eps_inf=einf).tolist() == [math.inf, math.inf]
    base3 = np.array([0.0, 0.0, 0.1, 0.2, 0.3, math.inf])    # inf at alpha + 1 only
    got3 = sr.wbk19_thm9_float(base3, 0.2, [4, 3, 2], eps_inf=einf)
    for i, a in enumerate([4, 3, 2]):
        assert close(got3[i], wbk19_printed(base3, 0.2, a, einf), 1e-12)


@pytest.mark.parametrize("bad", [-0.5, -1e-300, math.nan, "nan", True, None, "x"])
def test_wbk19_float_twin_eps_inf_validation_names_the_argument(bad):
    with pytest.raises(InvalidInputError) as err:
        sr.wbk19_thm9_float(BASES["line"], 0.5, [2], eps_inf=bad)
    assert str(err.value).startswith("eps_inf"), str(err.value)


@pytest.mark.parametrize("name", sorted(BASES))
@pytest.mark.parametrize("g", [0.01, 0.3, 0.9])
def test_zw19_float_twin_against_the_printed_formula(name, g):
    base = BASES[name]
    got = sr.zw19_thm6_float(base, g, ORDERS)
    for i, a in enumerate(ORDERS):
        ref = zw19_printed(base, g, a)
        assert close(got[i], ref, 1e-12), (name, g, a, got[i], ref)


def test_zw19_float_twin_infinite_base_values_and_gamma_one():
    base = np.array([0.0, 0.0, 0.1, math.inf, 0.2, 0.3, math.inf])
    got = sr.zw19_thm6_float(base, 0.2, [3, 2, 5, 4])
    assert got[0] == math.inf and got[2] == math.inf and got[3] == math.inf
    assert close(got[1], zw19_printed(base, 0.2, 2), 1e-12)
    base3 = np.array([0.0, 0.0, 0.1, 0.2, 0.3, math.inf])    # inf at alpha + 1 only
    got3 = sr.zw19_thm6_float(base3, 0.2, [4, 3, 2])
    for i, a in enumerate([4, 3, 2]):
        assert close(got3[i], zw19_printed(base3, 0.2, a), 1e-12)
    with pytest.raises(InvalidInputError):          # documented: the float twin needs gamma < 1
        sr.zw19_thm6_float(BASES["line"], 1.0, [3])
    with pytest.raises(InvalidInputError):
        sr.zw19_thm6_float(BASES["line"], "1", [3])


# -- the mpmath transforms -------------------------------------------------------------------------

def _curve(a0, slope):
    return lambda j: mpmath.mpf(a0) + mpmath.mpf(slope) * j


@pytest.mark.parametrize("dps", [30, 60])
def test_mpmath_transforms_hold_dps_digits(dps):
    """The result is the formula to ``dps`` digits (10 guard digits inside): within 10^-(dps-2)
    relative of the 80-digit printed formula (working at fewer digits than dps fails this)."""
    eps = {j: mpmath.mpf(1) / 7 + mpmath.mpf(j) / 13 for j in range(2, 7)}
    for a in (2, 4, 6):
        with mpmath.workdps(ORACLE_DPS):
            rw = wbk19_printed(eps, mpmath.mpf(1) / 3, a, mpmath.mpf(1) / 2)
            rz = zw19_printed(eps, mpmath.mpf(1) / 3, a)
            gw = sr.wbk19_thm9(eps.get, "1/3", a, eps_inf="1/2", dps=dps)
            gz = sr.zw19_thm6(eps.get, "1/3", a, dps=dps)
            tol = mpmath.mpf(10) ** -(dps - 2)
            assert abs(gw - rw) <= tol * rw
            assert abs(gz - rz) <= tol * rz


@pytest.mark.parametrize("variant", sr.WBK19_VARIANTS)
@pytest.mark.parametrize("einf", ["1/2", "inf"])
def test_wbk19_variants_are_the_documented_formulas(variant, einf):
    with mpmath.workdps(ORACLE_DPS):
        eps = {j: mpmath.mpf(j) / 5 for j in range(2, 7)}
        for g, gm in (("1/3", mpmath.mpf(1) / 3), ("1", mpmath.mpf(1))):
            for a in (2, 3, 6):
                got = sr.wbk19_thm9(eps.get, g, a, eps_inf=einf, variant=variant)
                ref = wbk19_printed(eps, gm, a, mpmath.inf if einf == "inf" else mpmath.mpf(1) / 2, variant)
                assert abs(got - ref) <= mpmath.mpf(10) ** -50 * abs(ref), (variant, g, a)


@pytest.mark.parametrize("variant", sr.ZW19_VARIANTS)
def test_zw19_variants_are_the_documented_formulas(variant):
    with mpmath.workdps(ORACLE_DPS):
        eps = {j: mpmath.mpf(j) / 5 for j in range(2, 7)}
        for g, gm in (("1/3", mpmath.mpf(1) / 3), ("9/10", mpmath.mpf(9) / 10)):
            for a in (2, 3, 6):
                got = sr.zw19_thm6(eps.get, g, a, variant=variant)
                ref = zw19_printed(eps, gm, a, variant)
                assert abs(got - ref) <= mpmath.mpf(10) ** -50 * abs(ref), (variant, g, a)


def test_zw19_at_gamma_one_ignores_infinite_values_below_alpha():
    """Regression (NaN before): at gamma = 1 only the l = alpha term is present, so eps(l) = inf for
    l < alpha does not matter: eps(alpha) + log(3)/(alpha - 1) (alpha >= 3); an infinite eps(alpha)
    gives inf; at gamma < 1 any infinite eps(l) gives inf."""
    with mpmath.workdps(ORACLE_DPS):
        for a in (3, 4):
            eps = {j: (mpmath.inf if j < a else mpmath.mpf(1) / 4) for j in range(2, a + 1)}
            got = sr.zw19_thm6(eps.get, 1, a)
            assert abs(got - (mpmath.mpf(1) / 4 + mpmath.log(3) / (a - 1))) <= mpmath.mpf(10) ** -55
            assert sr.zw19_thm6(eps.get, "1/2", a) == mpmath.inf
            eps_top = {j: (mpmath.inf if j == a else mpmath.mpf(0)) for j in range(2, a + 1)}
            assert sr.zw19_thm6(eps_top.get, 1, a) == mpmath.inf
            assert sr.zw19_thm6(eps_top.get, "1/2", a) == mpmath.inf
        assert sr.zw19_thm6(lambda j: mpmath.inf, 1, 2) == mpmath.inf


def test_base_value_errors_name_the_order():
    """check_rdp_value's message names eps(j) for the offending order j (and eps(inf))."""
    def bad_at_3(j):
        return "-1" if j == 3 else "1/10"

    for fn in (sr.wbk19_thm9, sr.zw19_thm6):
        with pytest.raises(InvalidInputError) as err:
            fn(bad_at_3, "1/2", 4)
        assert "eps(3)" in str(err.value), str(err.value)
    with pytest.raises(InvalidInputError) as err:
        sr.wbk19_thm9(lambda j: "1/10", "1/2", 3, eps_inf="-1")
    assert "eps(inf)" in str(err.value), str(err.value)


@pytest.mark.parametrize("dps", [0, -1, 10 ** 9, 2.0, True, "60"])
def test_dps_validation_names_dps(dps):
    for call in (lambda: sr.wbk19_thm9(lambda j: "1/10", "1/2", 3, dps=dps),
                 lambda: sr.zw19_thm6(lambda j: "1/10", "1/2", 3, dps=dps)):
        with pytest.raises(InvalidInputError) as err:
            call()
        assert str(err.value).startswith("dps must be an integer in ["), str(err.value)
