"""bcdp.randomness.multilevel (thesis Sec. 7.4, Thm 7.4.1, Lemma 7.4.1, App. F.4) against independent oracles:
sympy of the printed (7.36), brute-force loops over the cascade (7.37)-(7.38), 50-digit mpmath of the
printed randomness sums, and seeded binomial bounds with a stated false-failure rate."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy
from bcdp.core.errors import FloatRefusedError, InvalidInputError, ValidityConditionError
from bcdp.randomness import multilevel as ml

F = Fraction


def _sympy_q(ratios):
    """(7.36) in sympy from the printed z_j = 1/(e^eps_j + 1), e^eps_j = E_j."""
    z = [1 / (sympy.Rational(e.numerator, e.denominator) + 1) for e in ratios]
    return [z[0]] + [sympy.simplify((z[j] - z[j - 1]) / (1 - 2 * z[j - 1])) for j in range(1, len(z))]


def _random_ratios(rng, d):
    vals = set()
    while len(vals) < d:
        vals.add(1 + F(rng.randint(1, 300), rng.randint(1, 40)))
    return tuple(sorted(vals, reverse=True))


def test_key_probabilities_match_sympy_of_the_printed_formula():
    rng = random.Random(1)
    for d in (1, 2, 3, 5, 8):
        ratios = _random_ratios(rng, d)
        q = ml.key_probabilities(ratios)
        assert [sympy.Rational(x.numerator, x.denominator) for x in q] == _sympy_q(ratios)
        assert all(0 < x < F(1, 2) for x in q)


def test_validity_condition_strictly_decreasing_both_sides():
    assert ml.key_probabilities((F(3), F(3) - F(1, 10 ** 9)))[1] > 0  # just inside
    with pytest.raises(ValidityConditionError, match="eps_1 > ... > eps_d"):
        ml.key_probabilities((3, 3))  # on the boundary
    with pytest.raises(ValidityConditionError, match="exceeds"):
        ml.key_probabilities((2, 3))
    with pytest.raises(ValidityConditionError, match="exceeds"):
        ml.key_probabilities((2, 3), merge_equal=True)
    with pytest.raises(ValidityConditionError):
        ml.check_eps((1, 1))
    assert ml.check_eps((1, 1), merge_equal=True) == (1, 1)


def test_equal_levels_merge_to_a_zero_key_and_an_identical_view():
    q = ml.key_probabilities((F(5), F(2), F(2)), merge_equal=True)
    assert q[2] == 0 and q[1] == ml.key_probabilities((F(5), F(2)))[1]
    v2 = ml.analyst_view_law((F(5), F(2), F(2)), 2, merge_equal=True)
    v3 = ml.analyst_view_law((F(5), F(2), F(2)), 3, merge_equal=True)
    assert ml.view_ldp_ratio(v2) == ml.view_ldp_ratio(v3) == 2
    merged = ml.total_randomness((1, 1), merge_equal=True)
    single = ml.total_randomness((1,))
    assert merged.lower <= single.upper and single.lower <= merged.upper


def test_eps_positive_validity_both_sides():
    with pytest.raises(ValidityConditionError, match="eps_j > 0"):
        ml.key_probabilities((3, 1))
    assert ml.key_probabilities((3, 1 + F(1, 10 ** 12)))[1] > 0
    with pytest.raises(ValidityConditionError, match="eps_j > 0"):
        ml.key_probabilities((3, F(1, 2)))
    with pytest.raises(ValidityConditionError, match="eps_j > 0"):
        ml.total_randomness((1, 0))
    assert ml.total_randomness((1, F(1, 10 ** 6))).lower > 0


@pytest.mark.parametrize("bad, exc", [((0, ), InvalidInputError), ((-2,), InvalidInputError), ((), InvalidInputError),
                                      ((3.0, 2), FloatRefusedError), ("32", InvalidInputError), (5, InvalidInputError)])
def test_bad_ratios_are_refused_with_one_line_messages(bad, exc):
    with pytest.raises(exc) as info:
        ml.key_probabilities(bad)
    assert "\n" not in str(info.value)


def test_bad_eps_scheme_unit_and_parametrization():
    with pytest.raises(InvalidInputError):
        ml.total_randomness((-1,))
    with pytest.raises(FloatRefusedError):
        ml.total_randomness((1.0,))
    with pytest.raises(InvalidInputError, match="scheme"):
        ml.total_randomness((1,), scheme="best")
    with pytest.raises(InvalidInputError, match="unit"):
        ml.total_randomness((1,), unit="bit")
    with pytest.raises(InvalidInputError, match="parametrization"):
        ml.total_randomness((1,), parametrization="E")
    with pytest.raises(InvalidInputError):
        ml.key_probabilities_float([1.0, float("nan")])
    with pytest.raises(ValidityConditionError):
        ml.key_probabilities_float([0.5, 1.0])


def test_cascade_outputs_against_loops():
    rng = np.random.default_rng(3)
    d, n = 5, 64
    b = rng.integers(0, 2, n)
    u = rng.integers(0, 2, (n, d))
    y, keys_l = ml.cascade_outputs(b, u)
    for i in range(n):
        y1 = 1 if (b[i] == 1 and u[i, 0] == 0) or (b[i] == 0 and u[i, 0] == 1) else 0
        acc = y1
        for j in range(d):
            if j:
                acc ^= int(u[i, j])
            assert y[i, j] == acc
            tail = 0
            for k in range(j + 1, d):
                tail ^= int(u[i, k])
            assert keys_l[i, j] == tail
            assert y[i, d - 1] ^ keys_l[i, j] == y[i, j]


def test_cascade_outputs_refuses_bad_shapes_and_non_bits():
    with pytest.raises(InvalidInputError):
        ml.cascade_outputs([0, 1], [[0, 1]])
    with pytest.raises(InvalidInputError):
        ml.cascade_outputs([0], [[2]])


def test_enumeration_cap_and_normalisation():
    ratios = tuple(F(100 - 5 * j) for j in range(12))
    law = ml.cascade_conditional_law(ratios)
    assert sum(law[0].values()) == 1 and sum(law[1].values()) == 1
    assert ml.level_output_law(ratios, 12) == (F(45, 46), F(1, 46))
    with pytest.raises(InvalidInputError, match="1..12"):
        ml.key_law(tuple(F(100 - 5 * j) for j in range(13)))
    with pytest.raises(InvalidInputError, match="analysts"):
        ml.analyst_view_law(ratios, 13)
    with pytest.raises(InvalidInputError, match="analysts"):
        ml.analyst_view_law(ratios, True)


def test_view_ratio_is_infinite_when_one_input_class_cannot_produce_an_outcome():
    assert ml.view_ldp_ratio({1: {(1, ()): F(1)}, 0: {(0, ()): F(1)}}) == math.inf


def _mp_sums(eps):
    def h2(p):
        return -(p * mpmath.log(p) + (1 - p) * mpmath.log(1 - p))
    z = [1 / (mpmath.exp(mpmath.mpf(e.numerator) / e.denominator) + 1) for e in eps]
    q = [z[0]] + [(z[j] - z[j - 1]) / (1 - 2 * z[j - 1]) for j in range(1, len(z))]
    return sum(h2(x) for x in z), sum(h2(x) for x in q)


@pytest.mark.parametrize("eps", [(F(1),), (F(1), F(99, 100)), (F(2), F(9, 5), F(17, 10), F(1, 10)), (F(7), F(1, 1000))])
@pytest.mark.parametrize("unit", ["bits", "nats"])
def test_total_randomness_encloses_mpmath_and_the_float_twin_agrees(eps, unit):
    with mpmath.workdps(50):
        t, p = _mp_sums(eps)
        scale = mpmath.log(2) if unit == "bits" else 1
        for scheme, val in (("trivial", t / scale), ("proposed", p / scale)):
            c = ml.total_randomness(eps, scheme, unit)
            assert mpmath.mpf(c.lower.numerator) / c.lower.denominator <= val
            assert val <= mpmath.mpf(c.upper.numerator) / c.upper.denominator
            assert c.upper - c.lower < F(1, 10 ** 30)
            f = ml.total_randomness_float([float(e) for e in eps], scheme, unit)
            assert abs(float(f) - float(val)) <= 1e-12 * float(val)


def test_e_eps_parametrisation_matches_mpmath_of_log_ratios():
    ratios = (F(5), F(3), F(3, 2))
    with mpmath.workdps(50):
        z = [1 / (mpmath.mpf(e.numerator) / e.denominator + 1) for e in ratios]
        q = [z[0]] + [(z[j] - z[j - 1]) / (1 - 2 * z[j - 1]) for j in range(1, 3)]
        want = sum(-(x * mpmath.log(x) + (1 - x) * mpmath.log(1 - x)) for x in q) / mpmath.log(2)
        c = ml.total_randomness(ratios, parametrization="e_eps")
        assert mpmath.mpf(c.lower.numerator) / c.lower.denominator <= want <= mpmath.mpf(c.upper.numerator) / c.upper.denominator


def test_certified_q_enclose_mpmath_and_stay_below_z():
    eps = (F(3), F(1), F(1, 2))
    cert = ml.key_probabilities_certified(eps)
    with mpmath.workdps(50):
        z = [1 / (mpmath.exp(mpmath.mpf(e.numerator) / e.denominator) + 1) for e in eps]
        q = [z[0]] + [(z[j] - z[j - 1]) / (1 - 2 * z[j - 1]) for j in range(1, 3)]
        for j, (c, v, zz) in enumerate(zip(cert, q, z)):
            lo = mpmath.mpf(c.lower.numerator) / c.lower.denominator
            hi = mpmath.mpf(c.upper.numerator) / c.upper.denominator
            assert lo <= v <= hi
            assert hi < zz if j else lo <= zz <= hi  # q_1 = z_1; q_j < z_j (Remark 7.4.1)


def test_sampler_matches_lemma_741_within_a_binomial_bound():
    """n = 200000 users per input class; each of 2 x 3 frequencies is within 5.5 standard deviations of
    (7.40) (two-sided normal tail 4e-8 each; total false-failure rate below 3e-7)."""
    eps = [1.5, 1.0, 0.25]
    rng = np.random.default_rng(20261125)
    n = 200_000
    for b in (0, 1):
        y_d, keys_l = ml.sample_cascade_float(np.full(n, b), eps, rng)
        for j, e in enumerate(eps):
            freq = float(np.mean(y_d ^ keys_l[:, j]))
            p = math.exp(e) / (math.exp(e) + 1) if b else 1 / (math.exp(e) + 1)
            assert abs(freq - p) <= 5.5 * math.sqrt(p * (1 - p) / n)


def _exact_hr_risk(p, n, e):
    """E||p_hat - p||^2 of the single-level binary Hadamard response (7.27)-(7.31) with q = E/(E+1), n/K
    users per group: p_hat(B_l) = (E+1)/(E-1) (s_hat_l - 1/(E+1)) is unbiased with variance
    ((E+1)/(E-1))^2 s_l (1 - s_l) K/n, s_l = p(B_l) E/(E+1) + (1 - p(B_l))/(E+1) (7.29), the groups are
    independent and p_hat - p = (2/K) H_K (p_hat(B) - p(B)) (7.31), whose columns have squared norm K:
    risk = (4/K) sum_l Var p_hat(B_l)."""
    k = len(p)
    h = np.array([[1]])
    while h.shape[0] < k:
        h = np.block([[h, h], [h, -h]])
    p_b = (h @ p + 1) / 2  # (7.30)
    s = p_b * e / (e + 1) + (1 - p_b) / (e + 1)
    var = ((e + 1) / (e - 1)) ** 2 * s * (1 - s) * k / n
    return 4 / k * float(var.sum())


@pytest.mark.slow
def test_multilevel_hr_risk_per_analyst_matches_the_single_level_exact_risk():
    """Two analysts (eps = 2, 1/2), K = 4, n = 2000 users, 3000 seeded repetitions: each analyst's mean
    squared l2 error is within 5 standard errors of the single-level exact risk at its own eps (normal
    approximation of the mean of 3000 i.i.d. errors; false-failure rate about 6e-7 per analyst), and
    below the bound (7.32) with q = e^eps/(e^eps+1)."""
    p = np.array([0.5, 0.3, 0.15, 0.05])
    eps = [2.0, 0.5]
    k, n, reps = 4, 2000, 3000
    rng = np.random.default_rng(74)
    errs = np.empty((reps, 2))
    for r in range(reps):
        x = rng.choice(k, size=n, p=p)
        est = ml.estimate_all_levels_float(x, k, eps, rng)
        errs[r] = ((est - p) ** 2).sum(axis=1)
    for j, e in enumerate(eps):
        big = math.exp(e)
        exact = _exact_hr_risk(p, n, big)
        mean, se = errs[:, j].mean(), errs[:, j].std(ddof=1) / math.sqrt(reps)
        assert abs(mean - exact) <= 5 * se, (j, mean, exact, se)
        q = big / (big + 1)
        assert exact <= 2 * k * big ** 2 / (n * q ** 2 * (big - 1) ** 2)  # (7.32)
    assert errs[:, 0].mean() < errs[:, 1].mean()


def test_estimator_refuses_bad_inputs():
    rng = np.random.default_rng(0)
    with pytest.raises(InvalidInputError):
        ml.estimate_all_levels_float([0, 1, 2], 3, [1.0], rng)
    with pytest.raises(InvalidInputError):
        ml.estimate_all_levels_float([0, 1, 2, 4], 4, [1.0], rng)


def test_exhaustive_small_law_by_hand():
    """d = 2, E = (3, 2): q = (1/4, 1/6); the four key outcomes by hand."""
    law = ml.cascade_conditional_law((3, 2))
    q1, q2 = F(1, 4), F(1, 6)
    want = {1: {}, 0: {}}
    for u1, u2 in itertools.product((0, 1), repeat=2):
        pr = (q1 if u1 else 1 - q1) * (q2 if u2 else 1 - q2)
        for b in (0, 1):
            key = ((b ^ u1) ^ u2, (u2, 0))
            want[b][key] = want[b].get(key, 0) + pr
    assert law == want


def test_level_caps_both_sides():
    MAXL = ml.MAX_LEVELS
    ok = tuple(F(2) + F(MAXL - j, MAXL) for j in range(MAXL))
    assert len(ml.key_probabilities(ok)) == MAXL
    with pytest.raises(InvalidInputError, match="1..1000"):
        ml.key_probabilities(ok + (F(3, 2),))
    assert ml.total_randomness((10_000,), "trivial").lower > 0
    with pytest.raises(InvalidInputError, match="10000"):
        ml.total_randomness((10_001,))


def test_trivial_scheme_in_ratio_parametrisation_matches_mpmath():
    ratios = (F(7), F(3), F(5, 4))
    with mpmath.workdps(50):
        want = sum(-(x * mpmath.log(x) + (1 - x) * mpmath.log(1 - x))
                   for x in (1 / (mpmath.mpf(e.numerator) / e.denominator + 1) for e in ratios))
        for unit, scale in (("nats", 1), ("bits", mpmath.log(2))):
            c = ml.total_randomness(ratios, "trivial", unit, parametrization="e_eps")
            lo = mpmath.mpf(c.lower.numerator) / c.lower.denominator
            hi = mpmath.mpf(c.upper.numerator) / c.upper.denominator
            assert lo <= want / scale <= hi and hi - lo < mpmath.mpf(10) ** -30


def test_float_twins_agree_with_the_exact_values_and_merge():
    eps = [2.0, 1.25, 0.5, 0.125]
    q = ml.key_probabilities_float(eps)
    with mpmath.workdps(40):
        z = [1 / (mpmath.exp(e) + 1) for e in eps]
        want = [z[0]] + [(z[j] - z[j - 1]) / (1 - 2 * z[j - 1]) for j in range(1, 4)]
    assert np.allclose(q, [float(w) for w in want], rtol=1e-13, atol=0)
    grid = ml.key_probabilities_float([[1.0, 0.5], [3.0, 3.0]])
    assert grid.shape == (2, 2) and grid[1, 1] == 0.0 and abs(grid[1, 0] - 1 / (math.exp(3) + 1)) < 1e-16
    merged = ml.total_randomness_float([1.0, 1.0])
    single = ml.total_randomness_float([1.0])
    assert abs(merged - single) < 1e-15
    assert abs(ml.total_randomness_float([1.0, 1.0], "trivial") - 2 * single) < 1e-14
    with pytest.raises(InvalidInputError):
        ml.key_probabilities_float([1.0, 0.0])
    with pytest.raises(InvalidInputError):
        ml.key_probabilities_float(1.0)
    with pytest.raises(InvalidInputError, match="scheme"):
        ml.total_randomness_float([1.0], "other")


def test_estimator_without_flips_is_the_exact_transform_of_the_group_frequencies():
    """eps = 40: a key is 1 with probability about 4e-18, so with n d = 4e4 keys no flip occurs except with
    probability below 2e-13; then analyst j's estimate is (1/K) H (2 p_hat(B) - 1) with
    p_hat(B_l) = (E+1)/(E-1) (fraction of group l with x in B_l - 1/(E+1)), computed here from x alone."""
    k, n = 8, 8 * 2500
    rng = np.random.default_rng(5)
    x = rng.integers(0, k, n)
    eps = [40.0, 39.0]
    est = ml.estimate_all_levels_float(x, k, eps, np.random.default_rng(6))
    h = np.array([[1]])
    while h.shape[0] < k:
        h = np.block([[h, h], [h, -h]])
    for j, e in enumerate(eps):
        big = math.exp(e)
        frac = np.array([np.mean(h[x[l::k], l] == 1) for l in range(k)])
        p_b = (big + 1) / (big - 1) * (frac - 1 / (big + 1))
        want = h @ (2 * p_b - 1) / k
        assert np.allclose(est[j], want, rtol=0, atol=1e-12)
    emp = np.bincount(x, minlength=k) / n
    assert np.abs(est[0] - emp).max() < 0.05  # sanity: close to the empirical law


def test_estimator_is_unbiased_within_a_stated_bound():
    """200 seeded runs, K = 4, n = 4000, eps = (1.5, 0.75): each coordinate's mean estimate is within 5
    standard errors of p (normal approximation; false-failure rate below 5e-6 for the 8 coordinates)."""
    p = np.array([0.4, 0.3, 0.2, 0.1])
    rng = np.random.default_rng(11)
    est = np.array([ml.estimate_all_levels_float(rng.choice(4, 4000, p=p), 4, [1.5, 0.75], rng) for _ in range(200)])
    mean, se = est.mean(axis=0), est.std(axis=0, ddof=1) / math.sqrt(200)
    assert np.all(np.abs(mean - p) <= 5 * se)
    assert np.all(se[0] < se[1])  # the more private analyst is noisier


def test_float_twins_do_not_overflow_at_large_eps():
    """Review h7rev3: eps = 800 overflowed np.exp (RuntimeWarning); z_j = 1/(e^eps_j + 1) must be computed without
    overflow.  Oracle: mpmath at 50 digits of (7.36) from the printed formula."""
    import warnings

    import mpmath
    import numpy as np
    from bcdp.randomness import multilevel as ml

    eps = [800.0, 700.0, 1.0]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        q = ml.key_probabilities_float(eps)
        r = ml.total_randomness_float(eps)
    with mpmath.workdps(50):
        z = [1 / (mpmath.exp(mpmath.mpf(e)) + 1) for e in eps]
        want = [z[0]] + [(z[j] - z[j - 1]) / (1 - 2 * z[j - 1]) for j in (1, 2)]
    assert np.all(np.isfinite(q)) and np.isfinite(r)
    for got, w in zip(q, want):
        assert abs(got - float(w)) <= 1e-12 * float(w)


def test_estimator_float_twin_large_eps_and_k_cap():
    """Review h7rev3: at eps_1 = 800 (e^eps overflows a float) the analyst with that level sees Y^1 = 1{X in B}
    almost surely, so the estimate must be finite (it was NaN); K above the cap is refused in one line, not by
    allocating a K x K matrix."""
    import numpy as np
    from bcdp.core.errors import InvalidInputError
    from bcdp.randomness import multilevel as ml

    k_pad = 4
    x = np.repeat(np.arange(k_pad), 8 * k_pad)  # n = 128 users, 32 per symbol
    est = ml.estimate_all_levels_float(x, k_pad, [800.0, 1.0], np.random.default_rng(7))
    assert np.all(np.isfinite(est))
    # with no noise at level 1 the estimate of each frequency is exact up to the group split: |p_hat - 1/4| small
    assert np.all(np.abs(est[0] - 0.25) <= 0.25)
    with pytest.raises(InvalidInputError) as info:
        ml.estimate_all_levels_float(np.zeros(2 ** 16, dtype=int), 2 ** 16, [2.0], np.random.default_rng(0))
    assert "\n" not in str(info.value)
