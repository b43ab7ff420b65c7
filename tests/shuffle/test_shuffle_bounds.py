"""bcdp.shuffle.bounds (thesis Ch. 5 closed forms) and bcdp.shuffle.symbolic.

* Input validation: clear errors, conditions enforced, inf for eps0 = inf, never NaN.
* Independent computations: exact Fraction central moments; the exact oracles of
  bcdp.shuffle.exact; golden values computed independently of this code (mpmath scripts written
  while reading the thesis, at 40+ digits), cited per test by theorem and equation; the float64 path
  against the mpmath path.
* Float policy: the high-precision functions refuse floats, the *_float twins take them and agree
  with the mpmath functions at the float's exact binary value.
* Each bad twin of proofs_checks/_shuffle_common.py is rejected by the computation its check uses.
The slow sweep (random K-ary kernels vs (5.4), hypothesis) runs with -m slow.
"""

from __future__ import annotations

import math
from fractions import Fraction
from math import comb

import mpmath
import numpy as np
import pytest
from bcdp.core.errors import (
    FloatRefusedError,
    InvalidInputError,
    ValidityConditionError,
)
from bcdp.shuffle import bounds as sb
from bcdp.shuffle import symbolic as ss
from hypothesis import given, settings
from hypothesis import strategies as st

DPS = 60


def mp(x) -> mpmath.mpf:
    return mpmath.mpf(x)


# -- validation ----------------------------------------------------------------------------------

@pytest.mark.parametrize("fn", [sb.thm531_upper, sb.cor532_lower, sb.thm533_lower])
@pytest.mark.parametrize("bad", [dict(n=0), dict(eps0="-0.1"), dict(alpha=1), dict(alpha="0.5"),
                                 dict(alpha=mpmath.nan), dict(eps0=mpmath.nan), dict(alpha="5/2"),
                                 dict(n=Fraction(5, 2)), dict(n=2.5), dict(alpha=float("inf")),
                                 dict(alpha="inf"), dict(eps0=-0.1), dict(alpha=float("nan")),
                                 dict(eps0=float("nan")), dict(alpha=2.5), dict(n=True), dict(eps0=None)])
def test_integer_order_bounds_reject_bad_input(fn, bad):
    args = dict(n=100, eps0=1, alpha=3)
    args.update(bad)
    with pytest.raises(sb.InvalidInputError):
        fn(args["n"], args["eps0"], args["alpha"])


@pytest.mark.parametrize("fn", [sb.thm532_upper, sb.efm19_upper])
@pytest.mark.parametrize("alpha", [1, "0.99", Fraction(99, 100), mpmath.mpf("0.99"), mpmath.nan, 0.99,
                                   float("nan")])
def test_real_order_bounds_reject_alpha_le_one(fn, alpha):
    with pytest.raises(sb.InvalidInputError):
        fn(100, 1, alpha)


def test_cor531_condition_enforced():
    # 16 e^{2.5} * 9 = 1754 > 1000: Cor 5.3.1's condition alpha^4 e^{5 eps0} < n/9 fails
    with pytest.raises(sb.ValidityConditionError):
        sb.cor531_upper(1000, "0.5", 2)
    assert sb.cor531_condition(145, 0, 2) and not sb.cor531_condition(144, 0, 2)  # 9 * 16 = 144
    assert sb.cor531_upper(145, 0, 2) == 0


def test_subsampled_input_checks():
    with pytest.raises(sb.InvalidInputError):
        sb.thm541_upper(10, 11, 1, 2)
    with pytest.raises(sb.ValidityConditionError):
        sb.thm544_ternary(1, 1, 2)
    with pytest.raises(sb.ValidityConditionError):
        sb.thm544_ternary(5, 0, 2)
    with pytest.raises(sb.InvalidInputError):
        sb.thm541_upper(10, 5, 1, 2, variant="nope")


def test_infinite_eps0_gives_inf_never_nan():
    inf = float("inf")
    for v in (sb.thm531_upper(10, inf, 3), sb.thm532_upper(10, inf, "2.5"), sb.efm19_upper(10, inf, 2),
              sb.thm533_lower(10, inf, 3), sb.cor532_lower(10, inf, 3), sb.thm541_upper(10, 5, inf, 3),
              sb.thm542_lower(10, 5, inf, 3)):
        assert mpmath.isinf(v) and v > 0
    assert mpmath.isinf(sb.thm532_upper(10, 1, inf))
    for arr in (sb.thm531_upper_float(10, inf, [2, 3]), sb.thm541_upper_float(10, 5, inf, [2])):
        assert np.all(np.isinf(arr))


@pytest.mark.parametrize("n,eps0,alpha", [(10 ** 7, "10", 2), (10 ** 7, "0.01", 256), (2, "8", 64), (1, "0", 5)])
def test_extreme_arguments_finite_or_inf(n, eps0, alpha):
    for v in (sb.thm531_upper(n, eps0, alpha, dps=30), sb.thm532_upper(n, eps0, alpha, dps=30),
              sb.thm533_lower(n, eps0, alpha, dps=30)):
        assert not mpmath.isnan(v) and v >= 0
    assert not np.any(np.isnan(sb.thm531_upper_float(n, float(eps0), [alpha])))


# -- float policy: high-precision functions refuse floats, the *_float twins take them ------------

HIGH_PRECISION_CALLS = [
    ("thm531_upper", lambda e: sb.thm531_upper(100, e, 3)),
    ("thm531_upper_real", lambda e: sb.thm531_upper_real(100, e, "2.5")),
    ("cor531_upper", lambda e: sb.cor531_upper(10 ** 6, e, 2)),
    ("cor531_condition", lambda e: sb.cor531_condition(10 ** 6, e, 2)),
    ("thm532_upper", lambda e: sb.thm532_upper(100, e, 3)),
    ("efm19_upper", lambda e: sb.efm19_upper(100, e, 3)),
    ("thm533_lower", lambda e: sb.thm533_lower(100, e, 3)),
    ("cor532_lower", lambda e: sb.cor532_lower(100, e, 3)),
    ("thm535_special_case", lambda e: sb.thm535_special_case(10, e, 3)),
    ("thm536_special_case", lambda e: sb.thm536_special_case(10, e, 3)),
    ("thm541_upper", lambda e: sb.thm541_upper(100, 10, e, 3)),
    ("thm542_lower", lambda e: sb.thm542_lower(100, 10, e, 3)),
    ("thm544_ternary", lambda e: sb.thm544_ternary(10, e, 3)),
    ("thm546_ternary_special_case", lambda e: sb.thm546_ternary_special_case(10, e, 3)),
    ("nbar", lambda e: sb.nbar(100, e)),
    ("kbar", lambda e: sb.kbar(100, e)),
]


@pytest.mark.parametrize("name,call", HIGH_PRECISION_CALLS, ids=[c[0] for c in HIGH_PRECISION_CALLS])
def test_high_precision_bounds_refuse_float_eps0(name, call):
    with pytest.raises(FloatRefusedError):
        call(0.5)
    # the decimal string, the Fraction and the mpf of the same exact value give the same number
    a, b, c = call("0.5"), call(Fraction(1, 2)), call(mp("0.5"))
    assert a == b == c


@pytest.mark.parametrize("call", [lambda: sb.thm531_upper(100, 1, 3.0), lambda: sb.thm532_upper(100, 1, 2.5),
                                  lambda: sb.binomial_central_moments(10, 0.25, 3),
                                  lambda: sb.interpolate_real_alpha(lambda j: mp(j), 2.5),
                                  lambda: sb.interpolate_real_alpha(lambda j: 0.5, "2.5"),
                                  lambda: sb.lemma541_subsampled(lambda lam: mp(1), 0.5, 3),
                                  lambda: sb.upsilon(3, 0.5),
                                  lambda: sb.thm531_upper(100, 1, 3, chernoff_gamma=0.25),
                                  lambda: sb.thm531_upper(100.0, 1, 3)])
def test_high_precision_bounds_refuse_other_float_arguments(call):
    with pytest.raises(FloatRefusedError):
        call()


def test_infinity_sentinel_and_integral_exact_counts_accepted():
    assert sb.thm531_upper(mp(100), "1", 3) == sb.thm531_upper(100, "1", 3) == sb.thm531_upper("100", 1, 3)
    assert mpmath.isinf(sb.thm531_upper(10, "inf", 3)) and mpmath.isinf(sb.thm531_upper(10, mpmath.inf, 3))


@pytest.mark.parametrize("n,eps0", [(10, 0.5), (1000, 1.0), (10 ** 6, 2.0), (50, 0.0), (10 ** 7, 0.01)])
def test_new_float_twins_match_mpmath(n, eps0):
    """cor531_upper_float, cor532_lower_float and thm533_lower_float against the 60-digit mpmath
    functions at the float's exact value."""
    e = mp(eps0)
    alphas = [2, 3, 5, 9, 16]
    f_cor = sb.cor531_upper_float(n, eps0, alphas, enforce=False)
    f_low = sb.cor532_lower_float(n, eps0, alphas)
    f_533 = sb.thm533_lower_float(n, eps0, alphas)
    for i, a in enumerate(alphas):
        ref = sb.cor531_upper(n, e, a, enforce=False)
        assert f_cor[i] == pytest.approx(float(ref), rel=1e-12, abs=1e-300)
        ref = sb.cor532_lower(n, e, a)
        assert f_low[i] == pytest.approx(float(ref), rel=1e-12, abs=1e-300)
        ref = sb.thm533_lower(n, e, a, dps=50)
        assert f_533[i] == pytest.approx(float(ref), rel=1e-10, abs=1e-300)
        # the enforced twin is +inf exactly where the exact condition fails
        ok = sb.cor531_condition(n, e, a)
        assert (sb.cor531_upper_float(n, eps0, [a])[0] == math.inf) == (not ok)


def test_cor531_float_twin_condition_just_inside_and_outside():
    # eps0 = 0: the condition is 9 alpha^4 < n, decided exactly (144 = 9 * 2^4 is outside)
    assert math.isinf(sb.cor531_upper_float(144, 0.0, [2])[0]) and sb.cor531_upper_float(145, 0.0, [2])[0] == 0
    with pytest.raises(ValidityConditionError):
        sb.cor531_upper(144, 0, 2)
    # eps0 = log(2) in float: alpha = 2 needs n/9 > 16 * e^{5 eps0} ~ 512 -> n > 4608 (+ rounding)
    e = math.log(2)
    assert math.isinf(sb.cor531_upper_float(4600, e, [2])[0]) and not sb.cor531_condition(4600, mp(e), 2)
    assert math.isfinite(sb.cor531_upper_float(4620, e, [2])[0]) and sb.cor531_condition(4620, mp(e), 2)
    assert np.all(np.isinf(sb.cor532_lower_float(10, float("inf"), [2, 3])))
    assert np.all(np.isinf(sb.thm533_lower_float(10, float("inf"), [2, 3])))


def test_float_twins_accept_float_and_string_inputs_and_reject_bad_ones():
    a = sb.thm531_upper_float(1000, 0.5, [2, 3])
    assert np.array_equal(a, sb.thm531_upper_float(1000.0, "0.5", np.array([2.0, 3.0])))
    for bad in (lambda: sb.thm531_upper_float(1000, -0.5, [2]), lambda: sb.thm531_upper_float(1000, float("nan"), [2]),
                lambda: sb.thm531_upper_float(1000, 0.5, [2.5]), lambda: sb.thm531_upper_float(1000.5, 0.5, [2]),
                lambda: sb.thm532_upper_float(1000, 0.5, [1.0]), lambda: sb.cor532_lower_float(10, True, [2])):
        with pytest.raises(InvalidInputError):
            bad()


# -- nbar --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [1, 2, 3, 10, 11, 1001])
def test_nbar_at_eps0_zero_is_exact(n):
    assert sb.nbar(n, 0) == (n - 1) // 2 + 1
    assert sb.nbar(n, 0, floor=False) == mp(n - 1) / 2 + 1


def test_nbar_matches_fraction_floor_for_rational_exponentials():
    # E = 2 via eps0 = log 2 at 100 digits: floor((n-1)/4) + 1
    with mpmath.workdps(100):
        e = mpmath.log(2)
    for n in range(1, 60):
        assert sb.nbar(n, e) == (n - 1) // 4 + 1
    assert sb.nbar(5, e, chernoff_gamma=Fraction(1, 4)) == math.floor(Fraction(3, 4) * 4 / 2) + 1


# -- central moments -----------------------------------------------------------------------------

def exact_central_moments(n: int, p: Fraction, r_max: int) -> list[Fraction]:
    mean = n * p
    out = [Fraction(0)] * (r_max + 1)
    for k in range(n + 1):
        w = comb(n, k) * p ** k * (1 - p) ** (n - k)
        for r in range(r_max + 1):
            out[r] += w * (k - mean) ** r
    return out


@pytest.mark.parametrize("method", ["direct", "cumulant"])
@pytest.mark.parametrize("n,p", [(1, Fraction(1, 3)), (5, Fraction(1, 3)), (40, Fraction(2, 7)), (250, Fraction(1, 6)),
                                 (30, Fraction(1, 2))])
def test_binomial_central_moments_equal_fractions(method, n, p):
    r_max = 24
    exact = exact_central_moments(n, p, r_max)
    with mpmath.workdps(DPS):
        got = sb.binomial_central_moments(n, p, r_max, method=method)
        ex = [mp(x.numerator) / x.denominator for x in exact]
        for r in range(r_max):
            # absolute error against E|k - np|^r (Cauchy-Schwarz scale sqrt(mu_{r-1} mu_{r+1}) for odd r)
            scale = ex[r] if r % 2 == 0 else mpmath.sqrt(ex[r - 1] * ex[r + 1])
            assert abs(got[r] - ex[r]) <= mp(10) ** -50 * max(scale, mp(10) ** -300)


# -- float path ----------------------------------------------------------------------------------

@pytest.mark.parametrize("n,eps0", [(10, 0.5), (1000, 1.0), (10 ** 6, 2.0), (50, 0.0)])
def test_float_twins_match_mpmath(n, eps0):
    # the twins take the float eps0; the mpmath functions refuse floats and get its exact binary value
    alphas = [2, 3, 7, 16, 64]
    e = mp(eps0)
    f531 = sb.thm531_upper_float(n, eps0, alphas)
    for a, v in zip(alphas, f531):
        assert v == pytest.approx(float(sb.thm531_upper(n, e, a)), rel=1e-11, abs=1e-300)
    f532 = sb.thm532_upper_float(n, eps0, [1.5, 2, 7.7])
    for a, v in zip([1.5, 2, 7.7], f532):
        assert v == pytest.approx(float(sb.thm532_upper(n, e, mp(a))), rel=1e-11)
    assert sb.efm19_upper_float(n, eps0, [3])[0] == pytest.approx(float(sb.efm19_upper(n, e, 3)), rel=1e-12)
    if eps0 > 0:
        for variant in ("thesis", "girgis_code", "koskela"):
            k = max(1, n // 10)
            fl = sb.thm541_upper_float(n, k, eps0, alphas, variant=variant)
            for a, v in zip(alphas, fl):
                assert v == pytest.approx(float(sb.thm541_upper(n, k, e, a, variant=variant)), rel=1e-10)


def test_cap_is_min_with_eps0():
    v = sb.thm531_upper(3, 1, 5)
    assert v > 1 and sb.thm531_upper(3, 1, 5, cap=True) == 1
    small = sb.thm531_upper(10 ** 5, 1, 2)
    assert sb.thm531_upper(10 ** 5, 1, 2, cap=True) == small
    assert np.all(sb.thm531_upper_float(3, 1.0, [5, 6], cap=True) == 1.0)


# -- golden values computed independently by the thesis notes ------------------------------------

L2 = "0.693147180559945309417232121458176568075500134360255254120680009493393621969694715605863326996418687"


@pytest.mark.parametrize("n,alpha,lower,ub1,ub2", [
    # e^{eps0} = 2, independent mpmath values: (5.9), (5.4), (5.7)
    (3, 2, "0.154150679827258", "1.6154175", "4.0626498"),
    (3, 3, "0.21190712338818", "1.272076", "4.5004354"),
    (3, 5, "0.300471824458729", "1.1517906", "6.25"),
    (40, 2, "0.0124225199985572", "0.33612654", "0.610494"),
    (40, 3, "0.0184822820964752", "0.333749", "0.57507004"),
    (40, 5, "0.030310067169775", "0.42982795", "0.67665601"),
])
def test_golden_values_thesis_notes_e2(n, alpha, lower, ub1, ub2):
    e = mp(L2)
    assert float(sb.thm533_lower(n, e, alpha)) == pytest.approx(float(lower), rel=1e-13)
    assert float(sb.thm531_upper(n, e, alpha)) == pytest.approx(float(ub1), rel=5e-7)
    assert float(sb.thm532_upper(n, e, alpha)) == pytest.approx(float(ub2), rel=5e-7)


@pytest.mark.parametrize("eps0,alpha,fwd,ub1,cor,ub2,efm", [
    # n = 1000, independent mpmath values (dps 40): (5.9), (5.4), (5.5), (5.7), (5.8)
    ("0.5", 2, 2.55219e-4, 8.42061e-4, 1.68194e-3, 5.55563e-3, 1.24384e-2),
    ("1", 16, 8.59782e-3, 0.133117, 5.88406e-2, 0.273854, 5.15842),
    ("2", 32, 7.98751e-2, 1.51936, 0.142147, 19.8291, 7787.70),
])
def test_golden_values_thesis_notes_n1000(eps0, alpha, fwd, ub1, cor, ub2, efm):
    e = mp(eps0)
    assert float(sb.thm533_lower(1000, e, alpha)) == pytest.approx(fwd, rel=1e-5)
    assert float(sb.thm531_upper(1000, e, alpha)) == pytest.approx(ub1, rel=1e-5)
    assert float(sb.cor531_upper(1000, e, alpha, enforce=False)) == pytest.approx(cor, rel=1e-5)
    assert float(sb.thm532_upper(1000, e, alpha)) == pytest.approx(ub2, rel=1e-5)
    assert float(sb.efm19_upper(1000, e, alpha)) == pytest.approx(efm, rel=1e-5)


@pytest.mark.parametrize("n,k,eps0,alpha,lower,upper", [
    # independent mpmath values (Thm 5.4.2 = exact, Thm 5.4.1)
    (10, 4, 1, 5, 0.102945931364, 1.29761),
    (20, 5, "0.5", 3, 0.00478338031212, 0.133555),
    (12, 12, 1, 2, 0.0866486304129, 1.75431),
])
def test_golden_values_subsampled(n, k, eps0, alpha, lower, upper):
    assert float(sb.thm542_lower(n, k, mp(eps0), alpha)) == pytest.approx(lower, rel=1e-10)
    assert float(sb.thm541_upper(n, k, mp(eps0), alpha)) == pytest.approx(upper, rel=5e-6)


def test_girgis_code_variant_matches_anchor_values():
    # the thesis author's privacy_computation.py (commit 11511d4) at eps0 = 1, n = 6e4, q = 1/6:
    # lambda = 2 -> 8.3386e-5, lambda = 20 -> 1.1943e-3; thesis formula 6.5587e-5, 1.0200e-3
    # (values computed independently of this code)
    n, k = 60000, 10000
    assert float(sb.thm541_upper(n, k, 1, 2, variant="girgis_code")) == pytest.approx(8.3386e-5, rel=1e-4)
    assert float(sb.thm541_upper(n, k, 1, 20, variant="girgis_code")) == pytest.approx(1.1943e-3, rel=1e-4)
    assert float(sb.thm541_upper(n, k, 1, 2)) == pytest.approx(6.5587e-5, rel=1e-4)
    assert float(sb.thm541_upper(n, k, 1, 20)) == pytest.approx(1.0200e-3, rel=1e-4)


# -- structure -----------------------------------------------------------------------------------

def test_interpolation_5_6():
    f = lambda j: sb.thm531_upper(200, 1, j)
    assert sb.interpolate_real_alpha(f, 4) == f(4)
    a = mp("3.25")
    with mpmath.workdps(DPS):
        want = (mp("0.75") * 2 * f(3) + mp("0.25") * 3 * f(4)) / (a - 1)
        assert abs(sb.interpolate_real_alpha(f, a) - want) < mp(10) ** -55
        # 1 < alpha < 2: only the ceil term, (alpha - 1) eps(2) / (alpha - 1) = eps(2)
        assert abs(sb.interpolate_real_alpha(f, mp("1.5")) - f(2)) < mp(10) ** -55


def test_thm541_equals_lemma541_of_543():
    with mpmath.workdps(DPS):
        for n, k, e, a in ((100, 7, mp("0.3"), 6), (10 ** 4, 500, mp(2), 9)):
            direct = sb.thm541_upper(n, k, e, a)
            via = sb.lemma541_subsampled(lambda lam: sb.thm544_ternary(k, e, lam), Fraction(k, n), a)
            assert abs(direct / via - 1) < mp(10) ** -50


def test_refined_tail_and_chernoff_gamma():
    # refined tail <= printed tail; gamma = 1/2 is the default
    for n, e, a in ((200, "0.3", 4), (5000, "1", 16)):
        assert sb.thm531_upper(n, mp(e), a, tail="refined") <= sb.thm531_upper(n, mp(e), a)
        assert sb.thm531_upper(n, mp(e), a, chernoff_gamma=Fraction(1, 2)) == sb.thm531_upper(n, mp(e), a)
    assert sb.thm531_upper(10 ** 9, 1, 2, chernoff_gamma=Fraction(1, 100)) < sb.thm531_upper(10 ** 9, 1, 2)


def test_symbolic_identities():
    r = ss.ratio_identity_540()
    assert r["residual_correct"] == 0 and r["residual_printed"] != 0
    c = ss.chi_square_lemma535()
    assert c["vertex_residual"] == 0 and c["rr_residual"] == 0
    u = ss.upsilon_identity(12)
    assert all(v == 0 for v in u["per_alpha_residuals"].values())
    assert all(v == 0 for v in u["lemma541_of_543_minus_thm541"].values())
    b = ss.bernoulli_central_moments_nonnegative(21)
    assert all(v == 0 for v in b["odd_moment_residuals"].values()) and all(b["factor_identity"].values())
    assert ss.claim_d11(25)["violations"] == []


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 300), e=st.sampled_from(["0", "0.05", "0.3", "1", "2.5"]), a=st.integers(2, 12))
def test_bound_chain(n, e, a):
    """(5.10) <= (5.9) <= (5.4) and (5.9) <= (5.7), (5.8); (5.4) is non-increasing in n."""
    with mpmath.workdps(DPS):
        e = mp(e)
        lo10, lo9 = sb.cor532_lower(n, e, a), sb.thm533_lower(n, e, a)
        assert lo10 <= lo9 * (1 + mp(10) ** -45)
        assert lo9 <= sb.thm531_upper(n, e, a) and lo9 <= sb.thm532_upper(n, e, a) and lo9 <= sb.efm19_upper(n, e, a) + mp(10) ** -50
        assert sb.thm531_upper(n + 1, e, a) <= sb.thm531_upper(n, e, a)


# -- bad twins (each rejected by the computation its check uses) ----------------------------------

def test_bad_twins_rejected():
    from bcdp.checks.thesis import _shuffle_common as tw
    from bcdp.shuffle import exact as se

    with mpmath.workdps(DPS):
        e2 = mp(2)
        # 531_n_unbarred: below the exact 2RR value (n = 1000, eps0 = 2, alpha = 2)
        assert se.rr_pair_rdp_mp(1000, 2, 2, "DDprime") > tw.twin_531_n_unbarred(1000, e2, 2)
        # 531_no_floor: proof step (5.15) -- exact special-case moment at alpha = 2 on nbar points
        e = mpmath.log(mp(3) / 2)
        nb, nb_free = sb.nbar(30, e), sb.nbar(30, e, floor=False)
        assert nb_free > nb
        exact = mpmath.exp(se.rr_pair_rdp_mp(nb, e, 2, "DprimeD"))
        assert abs(exact / sb.thm535_special_case(nb, e, 2) - 1) < mp(10) ** -50
        assert exact > tw.twin_535_at(nb_free, e, 2)
        # 533_swapped / 533_nbar
        assert abs(sb.thm533_lower(10, Fraction(1), 3) - se.rr_pair_rdp_mp(10, 1, 3, "DDprime")) > mp(10) ** -10
        assert tw.twin_533_nbar(100, mp(1), 64) > 1
        # 540_printed, 541_dropped_alpha
        assert ss.ratio_identity_540()["residual_printed"] != 0
        assert all(v != 0 for v in ss.upsilon_identity(5)["dropped_alpha_factor_residuals"].values())
        # 542_kbar / 542_swapped (n = k = 12, E = 2, alpha = 8)
        rr = se.kary_rr_kernel(2, exp_eps0=Fraction(2))
        D, Dp = (0,) * 12, (0,) * 11 + (1,)
        fwd = se.subsampled_shuffled_rdp_exact(rr, D, Dp, 8, "uniform", 12, direction="DprimeD")
        rev = se.subsampled_shuffled_rdp_exact(rr, D, Dp, 8, "uniform", 12, direction="DDprime")
        lb = sb.thm542_lower(12, 12, mpmath.log(2), 8)
        assert abs(lb / fwd - 1) < mp(10) ** -45 and abs(lb / rev - 1) > mp(10) ** -5
        assert tw.twin_542_kbar(12, 12, mpmath.log(2), 8) > mpmath.log(2)
    assert set(tw.TWINS) == {"531_no_floor", "531_n_unbarred", "533_swapped", "533_nbar", "540_printed",
                             "541_no_floor", "541_dropped_alpha", "542_kbar", "542_swapped"}


# -- slow sweep ----------------------------------------------------------------------------------

@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10 ** 6), E=st.sampled_from([Fraction(5, 4), Fraction(2), Fraction(4), Fraction(7)]),
       K=st.integers(2, 4), B=st.integers(2, 4), n=st.integers(1, 8), a=st.integers(2, 8))
def test_random_kary_kernels_below_thm531_and_thm532(seed, E, K, B, n, a):
    from bcdp.shuffle import exact as se

    rng = np.random.default_rng(seed)
    kernel = se.random_ldp_kernel(rng, K, exp_eps0=E, n_outputs=B)
    D = tuple(int(x) for x in rng.integers(0, K, size=n))
    Dp = D[:-1] + ((D[-1] + 1) % K,)
    with mpmath.workdps(DPS):
        e = mpmath.log(mp(E.numerator) / E.denominator)
        ex = max(se.shuffled_rdp_exact(kernel, D, Dp, a, direction=d) for d in ("DDprime", "DprimeD"))
        assert ex <= sb.thm531_upper(n, e, a)
        assert ex <= sb.thm532_upper(n, e, a)
        assert ex <= sb.efm19_upper(n, e, a)
        assert ex <= e * (1 + mp(10) ** -40)  # the eps0 cap is valid


@pytest.mark.parametrize("n,eps0", [(3251, "1e-110"), (3251, "1e-30"), (10**40 + 1, "1e-60"), (3, "1e-300"),
                                    (3251, "0"), (3252, "0"), (1001, "0.5")])
def test_nbar_floor_is_decided_exactly_near_integers(n, eps0):
    """nbar = floor((n-1)/(2 e^eps0)) + 1 (thesis Thm 5.3.1) when (n-1)/(2E) is an integer minus a
    hair: the floor was decided on mpmath values "equal at 80 digits" and nbar(3251, "1e-110") came out
    1626.  Oracle: mpmath at 400 digits, with the hair (n-1)/2 * eps0 far above 10^-400 relative."""
    from bcdp.shuffle.shuffled_bounds import nbar

    with mpmath.workdps(400):
        x = mpmath.mpf(n - 1) / 2 / mpmath.exp(mpmath.mpf(eps0))
        fl = int(mpmath.floor(x))
        assert abs(x - mpmath.nint(x)) > mpmath.mpf(10) ** -300 or x == mpmath.nint(x)
    assert nbar(n, eps0) == fl + 1
