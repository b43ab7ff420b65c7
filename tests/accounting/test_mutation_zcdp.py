"""zCDP -> (eps, delta)-DP (bcdp.accounting.conversion.zcdp_to_dp, bun_steinke_epsilon,
census_2020_table; bcdp.accounting.search.zcdp_alpha) pinned against an independent 60-digit
evaluation of the printed conversions of r(alpha) = rho alpha (Bun & Steinke 2016, Def. 1.1):

* Mironov (2017), Prop. 3:  eps(alpha) = rho alpha + L/(alpha - 1),
* Canonne, Kamath & Steinke (2020), Prop. 12:
      eps(alpha) = rho alpha + log(1 - 1/alpha) + (L - log alpha)/(alpha - 1),
* the Asoodeh et al. form:  eps(alpha) = log(1 + (e^{(alpha-1) rho alpha} - 1)/(alpha delta))/(alpha - 1),
* Bun & Steinke (2016), Prop. 1.3:  eps = rho + 2 sqrt(rho L),

with L = log(1/delta), minimised over alpha by a golden-section search in log(alpha - 1) at 60
digits written here (no library code).  Also the documented edges: rho = 0 exactly (eps = 0 at
alpha = inf, for every input type that denotes 0 exactly, and only for those), the cap alpha_max
(validated, binding, not binding), an optimum beyond the float orders, and the 2020 Census figures
of the partial DP paper (Ghazi, Kumar, Manurangsi & Steinke, Sec. 7).  Written to kill the
survivors of the mutation gate (benchmarks/mutation_gate.py)."""

from __future__ import annotations

import math
from fractions import Fraction

import flint
import mpmath as mp
import pytest
from bcdp.accounting import conversion as cv
from bcdp.accounting import search as se
from bcdp.core.errors import InvalidInputError
from minimisers import golden_section_min

DPS = 60


def M(x) -> mp.mpf:
    """An exact input (str, Fraction, int, float) as a 60-digit mpf."""
    q = Fraction(x) if not isinstance(x, str) else Fraction(x)
    return mp.mpf(q.numerator) / q.denominator


def eps_formula(method: str, rho, a, delta):
    """The printed conversion of r(alpha) = rho alpha at order a (mpf arguments)."""
    L = -mp.log(delta)
    if method == "mironov":
        return rho * a + L / (a - 1)
    if method == "cks":
        return rho * a + mp.log1p(-1 / a) + (L - mp.log(a)) / (a - 1)   # log(1 - 1/alpha), no cancellation
    if method == "asoodeh":
        return mp.log(1 + mp.expm1((a - 1) * rho * a) / (a * delta)) / (a - 1)
    raise AssertionError(method)


def oracle_min(method: str, rho, delta):
    """(argmin alpha, min eps) over real alpha > 1 by golden section in s = log(alpha - 1), 60 digits."""
    with mp.workdps(DPS):
        rho, delta = M(rho), M(delta)
        f = lambda s: eps_formula(method, rho, 1 + mp.exp(s), delta)  # noqa: E731
        lo = mp.log(mp.mpf(10) ** -12)
        hi = mp.log(1 / delta - 1) - mp.mpf(10) ** -20 if method == "asoodeh" else mp.log(mp.mpf(10) ** 12)
        s, value = golden_section_min(f, lo, hi, 300)
        return 1 + mp.exp(s), value


def eps_at(method: str, rho, alpha: float, delta):
    with mp.workdps(DPS):
        return eps_formula(method, M(rho), M(alpha), M(delta))


def assert_certified_at_optimum(res, method, rho, delta, rel_alpha):
    a_star, e_min = oracle_min(method, rho, delta)
    assert abs(M(res.alpha_star) - a_star) <= rel_alpha * a_star, (res.alpha_star, a_star)
    exact_here = eps_at(method, rho, res.alpha_star, delta)
    lo, hi = res.enclosure
    assert M(lo) <= exact_here <= M(hi)               # the enclosure holds the value at alpha_star
    assert e_min <= exact_here <= M(res.upper)        # certified: never below the truth
    assert M(res.upper) - e_min <= mp.mpf(10) ** -12 * e_min   # and tight at the optimum


@pytest.mark.parametrize("rho,delta", [("0.5", "1e-6"), ("2.63", "1e-6"), ("1/100", "1e-10"), ("7", "1/3")])
@pytest.mark.parametrize("method,rel", [("cks", 1e-12), ("mironov", 1e-12), ("asoodeh", 1e-5)])
def test_zcdp_to_dp_is_the_60_digit_minimum_over_alpha(rho, delta, method, rel):
    res = cv.zcdp_to_dp(rho, delta, method)
    assert_certified_at_optimum(res, method, rho, delta, rel)
    assert res.alpha_at_search_boundary is False and res.notes == ()


@pytest.mark.parametrize("rho,delta", [("0.5", "1e-6"), ("2.63", "1e-6"), ("1/100", "1e-10"), ("7", "1/3")])
@pytest.mark.parametrize("method", ["cks", "mironov"])
def test_zcdp_alpha_is_the_60_digit_minimiser(rho, delta, method):
    a, at_b = se.zcdp_alpha(rho, delta, method)
    a_star, _ = oracle_min(method, rho, delta)
    assert abs(M(a) - a_star) <= mp.mpf(10) ** -14 * a_star and at_b is False


def test_zcdp_alpha_refuses_rho_zero_and_names_rho():
    for method in ("cks", "mironov"):
        for rho in ("0", 0, Fraction(0)):
            with pytest.raises(InvalidInputError, match="needs rho > 0"):
                se.zcdp_alpha(rho, "1e-6", method)
        with pytest.raises(InvalidInputError, match="^rho must be a real number"):
            se.zcdp_alpha(True, "1e-6", method)
        with pytest.raises(InvalidInputError, match="^rho must be a real number"):
            se.zcdp_alpha([1], "1e-6", method)


def test_optimum_beyond_the_float_orders_is_the_largest_order_and_noted():
    """Mironov, rho = 1e-700, delta = 1e-6: alpha* - 1 = sqrt(L/rho) ~ 3.7e350 > 1e300 (U_MAX); CKS,
    rho = 1e-1000, delta = 1e-400: alpha* - 1 solves rho u^2 + log(1 + u) = L, u ~ 1e400.  The order
    returned is 1 + 1e300 (the largest searched), at the boundary, with the float-limit note."""
    for method, rho, delta in (("mironov", "1e-700", "1e-6"), ("cks", "1e-1000", "1e-400")):
        a, at_b = se.zcdp_alpha(rho, delta, method)
        assert a == 1e300 and at_b is True
        res = cv.zcdp_to_dp(rho, delta, method)
        assert res.alpha_star == 1e300 and res.alpha_at_search_boundary is True
        assert res.notes == (se.FLOAT_LIMIT_NOTE,)
        assert eps_at(method, rho, 1e300, delta) <= M(res.upper)


# -- rho = 0 exactly ----------------------------------------------------------------------------------

@pytest.mark.parametrize("rho", [0, "0", Fraction(0), 0.0, "0/7", flint.arb(0), mp.mpf(0)])
@pytest.mark.parametrize("method", ["cks", "mironov", "asoodeh"])
def test_rho_exactly_zero_is_eps_zero_at_alpha_infinity(rho, method):
    """Documented: rho = 0 exactly gives eps = 0 for every method (the output laws are equal),
    alpha_star = inf; the result's fields say so."""
    res = cv.zcdp_to_dp(rho, 1e-6, method)
    assert (res.lower, res.upper) == (0.0, 0.0) and res.epsilon_certified_upper == 0.0
    assert res.enclosure == (0.0, 0.0) and res.epsilon_float == 0.0
    assert res.alpha_star == math.inf and res.delta == 1e-6 and res.method == method
    assert res.rdp_at_alpha_star_upper == 0.0 and res.rdp_certified is True
    assert res.curve == f"zCDP(rho={rho})" and res.alpha_at_search_boundary is False
    (note,) = res.notes
    assert note.startswith("rho = 0: the output laws are equal") and note.endswith("as alpha -> inf)")


def test_only_an_exact_zero_is_rho_zero():
    """A ball or interval that is not the exact point 0 is not the rho = 0 case: exact nonzero balls
    and degenerate intervals give the conversion of their value; a ball around 0 containing
    positive values is never reported as eps = 0 (it is refused, or bounded by the value at its
    upper end)."""
    for rho, r in ((flint.arb(1), "1"), (flint.arb("0.5"), "0.5"), (mp.iv.mpf([1, 1]), "1"),
                   (mp.iv.mpf(["0.5", "0.5"]), "0.5")):
        res = cv.zcdp_to_dp(rho, "1e-6", "mironov")
        assert_certified_at_optimum(res, "mironov", r, "1e-6", 1e-12)
    # rho in [0, 1e-20]: the truth at rho = 1e-20 is about 7.4e-10 > 0
    truth = oracle_min("mironov", "1e-20", "1e-6")[1]
    iv = mp.iv.mpf([0, "1e-20"])
    res = cv.zcdp_to_dp(iv, "1e-6", "mironov")
    assert M(res.upper) >= truth and res.notes == ()
    ball = flint.arb(0, "1e-20")
    try:
        res = cv.zcdp_to_dp(ball, "1e-6", "mironov")
    except InvalidInputError:
        pass
    else:
        assert M(res.upper) >= truth



@pytest.mark.parametrize("method", ["cks", "mironov", "asoodeh", "bun-steinke"])
def test_regression_enclosures_around_zero_are_bounded_at_their_upper_end(method):
    """Regression: an arb ball or iv interval whose midpoint is not positive (rho in [-u, u] or
    [0, u], u > 0; rho >= 0 is required, so [0, u] is what it admits) was refused with "zcdp_alpha
    needs rho > 0" (cks, mironov, asoodeh) or certified as eps = inf (bun-steinke, the square root of
    a ball reaching below 0); the exact interval [0, 0] was refused instead of being rho = 0.  Now each
    is bounded by the conversion at the upper end u: the 60-digit minimum at rho = u is <= the
    certified value, which is finite and (but for asoodeh's search) tight."""
    u = "1e-10"
    truth = (M(u) + 2 * mp.sqrt(M(u) * mp.log(10 ** 6)) if method == "bun-steinke"
             else oracle_min(method, u, "1e-6")[1])
    for rho in (flint.arb(0, u), mp.iv.mpf(["-1e-10", u]), mp.iv.mpf([0, u])):
        res = cv.zcdp_to_dp(rho, "1e-6", method)
        # the arb ball's radius is rounded up (30-bit magnitudes): its upper end is u (1 + 2^-29) at most
        assert truth <= M(res.upper) <= truth * (1 + mp.mpf(10) ** (-3 if method == "asoodeh" else -8)), rho
        if rho.__class__.__name__ == "arb" or rho.a < 0:  # reaches below 0: the lower end is the value at 0
            assert res.lower == 0.0 and res.notes[-1].startswith("rho enclosure reaches below 0")
        assert res.curve == f"zCDP(rho={rho})"
    zero = cv.zcdp_to_dp(mp.iv.mpf([0, 0]), "1e-6", method)
    assert (zero.lower, zero.upper) == (0.0, 0.0) and zero.alpha_star == math.inf


def test_regression_mpf_rho_below_the_float_range_is_not_zero():
    """Regression: zcdp_to_dp(mpmath.mpf("1e-400"), ...) certified eps = 0 with the "rho = 0" note for
    cks, mironov and asoodeh (the mpf was tested as zero by its float, 0.0); the exact Mironov value at
    its optimum is 2 sqrt(rho log(1/delta)) ~ 7.4e-200 (the Bun & Steinke closed form)."""
    rho = mp.mpf("1e-400")                         # the mpf (53 bits) next to 10^-400
    with mp.workdps(DPS):
        bs = 2 * mp.sqrt(rho * mp.log(10 ** 6)) + rho
    for method in ("cks", "mironov", "asoodeh"):
        res = cv.zcdp_to_dp(rho, "1e-6", method)
        assert res.notes == () or res.notes == (se.FLOAT_LIMIT_NOTE,)
        assert res.alpha_star < math.inf and res.curve != "zCDP(rho=0)"
    mir = cv.zcdp_to_dp(rho, "1e-6", "mironov")
    assert bs <= M(mir.upper) <= bs * (1 + mp.mpf(10) ** -14)
    assert abs(M(cv.bun_steinke_epsilon(rho, "1e-6").alpha_star) / (1 + mp.sqrt(mp.log(10 ** 6) / rho)) - 1) < 1e-14


# -- alpha_max ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("bad", [1, 1.0, "1", 0.5, -3, math.inf, math.nan])
@pytest.mark.parametrize("method", ["cks", "mironov", "asoodeh"])
def test_alpha_max_must_be_a_finite_real_above_one(bad, method):
    with pytest.raises(InvalidInputError, match="^alpha_max must be a finite real > 1"):
        cv.zcdp_to_dp("0.5", "1e-6", method, alpha_max=bad)


@pytest.mark.parametrize("method", ["cks", "mironov", "asoodeh"])
@pytest.mark.parametrize("cap", [1.5, 1.25, "1.75"])
def test_a_binding_alpha_max_is_the_order_used_and_noted(method, cap):
    """rho = 0.5, delta = 1e-6: the optimum is near alpha = 6.3; the conversion is convex in alpha,
    so under a cap below it the best allowed order is the cap itself."""
    res = cv.zcdp_to_dp("0.5", "1e-6", method, alpha_max=cap)
    a = float(cap)
    if method == "asoodeh":                        # the float search gets within its tolerance of the cap
        assert a * (1 - 1e-9) <= res.alpha_star <= a
    else:
        assert res.alpha_star == a
    assert res.alpha_at_search_boundary is True and res.notes == (se.BOUNDARY_NOTE,)
    exact_here = eps_at(method, "0.5", res.alpha_star, "1e-6")
    assert exact_here <= M(res.upper) <= exact_here * (1 + mp.mpf(10) ** -14)
    assert M(res.upper) > oracle_min(method, "0.5", "1e-6")[1] * (1 + mp.mpf(10) ** -3)


@pytest.mark.parametrize("method", ["cks", "mironov"])
def test_a_cap_at_or_above_the_optimum_does_not_bind(method):
    free = cv.zcdp_to_dp("0.5", "1e-6", method)
    for cap in (free.alpha_star, free.alpha_star * 2, 1e6):
        res = cv.zcdp_to_dp("0.5", "1e-6", method, alpha_max=cap)
        assert res.alpha_star == free.alpha_star and res.upper == free.upper
        assert res.alpha_at_search_boundary is False and res.notes == ()


# -- Bun & Steinke ----------------------------------------------------------------------------------

@pytest.mark.parametrize("rho,delta", [("0.5", "1e-6"), ("2.63", "1e-6"), ("1/100", "1e-10"), ("7", "1/3")])
def test_bun_steinke_is_the_closed_form_and_its_mironov_order(rho, delta):
    res = cv.bun_steinke_epsilon(rho, delta)
    with mp.workdps(DPS):
        L = -mp.log(M(delta))
        exact = M(rho) + 2 * mp.sqrt(M(rho) * L)
        alpha = 1 + mp.sqrt(L / M(rho))
    assert M(res.enclosure[0]) <= exact <= M(res.upper) <= exact * (1 + mp.mpf(10) ** -15)
    assert abs(M(res.alpha_star) - alpha) <= mp.mpf(10) ** -15 * alpha
    assert res.notes == () and res.rdp_certified is True and res.curve == f"zCDP(rho={rho})"
    assert cv.zcdp_to_dp(rho, delta, "bun-steinke").upper == res.upper


# -- 2020 Census (partial DP paper, Sec. 7) -------------------------------------------------------------

def test_census_2020_table_reproduces_the_published_figures():
    """Ghazi, Kumar, Manurangsi & Steinke (arXiv:2209.04053), Sec. 7: rho = 2.63 -> eps = 13.79 and
    rho = 1.02 -> eps = 7.856 at delta = 1e-6 (printed "13.8" and "7.85"); Bun & Steinke gives 14.69
    and 8.53.  Every entry is a certified upper value of its conversion, tight at the 60-digit optimum
    (delta = 1e-6 is read as the decimal and as its double: both are enclosed)."""
    rows = cv.census_2020_table()
    assert [(r["rho"], r["delta"], r["printed"]) for r in rows] == [(2.63, 1e-6, "13.8"), (1.02, 1e-6, "7.85")]
    published = {2.63: (13.79, 14.69), 1.02: (7.856, 8.53)}
    for row in rows:
        cks_pub, bs_pub = published[row["rho"]]
        assert round(row["cks"], 3 if row["rho"] == 1.02 else 2) == cks_pub
        assert round(row["bun-steinke"], 2) == bs_pub
        for m in ("cks", "mironov", "asoodeh"):
            for d in ("1e-6", 1e-6):                   # the decimal and the double
                a_star, e_min = oracle_min(m, row["rho"], d)
                assert e_min <= M(row[m]) <= e_min * (1 + mp.mpf(10) ** -12), (m, d)
            assert abs(M(row[f"{m}_alpha"]) - a_star) <= mp.mpf(10) ** -5 * a_star
        with mp.workdps(DPS):
            L = -mp.log(M("1e-6"))
            bs = M(row["rho"]) + 2 * mp.sqrt(M(row["rho"]) * L)
            assert bs <= M(row["bun-steinke"]) <= bs * (1 + mp.mpf(10) ** -14)
            assert abs(M(row["bun-steinke_alpha"]) - (1 + mp.sqrt(L / M(row["rho"])))) < mp.mpf(10) ** -12
        assert row["cks"] < row["asoodeh"] < row["mironov"] <= row["bun-steinke"]


def test_census_2020_table_certifies_at_the_requested_precision():
    """prec reaches every conversion: at 53 bits every entry is still an upper value of the exact
    conversion, and no tighter than at 200 bits (the 200-bit entries are within an ulp or two)."""
    low, high = cv.census_2020_table(prec=53), cv.census_2020_table(prec=200)
    wider = 0
    for r53, r200 in zip(low, high):
        for m in cv.ZCDP_METHODS:
            assert r53[m] >= r200[m]
            wider += r53[m] > r200[m]
            assert r53[f"{m}_alpha"] == r200[f"{m}_alpha"]
    assert wider >= 1
    with pytest.raises(InvalidInputError):
        cv.census_2020_table(prec=52)
