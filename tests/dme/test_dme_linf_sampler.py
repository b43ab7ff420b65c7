"""The vectorised R^{l_inf} / R^{l2} samplers (thesis Algs 3.5.1-3.5.2, 3.6.1-3.6.2) against exact laws.

Oracles written here: the exact joint law of one client's z_hat (:func:`bcdp.dme.linf.linf_estimate_law`,
an enumeration of all the randomness with Fractions) and its mean / MSE summed in this file; the
rotation w = U x exactly in sympy (d = 4, U = H D/2 rational).  Statistical tests use fixed seeds and
alpha = 1e-6 per assertion: chi-square goodness of fit on the joint law (categories with expected
count < 5 pooled), Hoeffding bounds (range from the law's support, union bound over coordinates)
for the empirical mean and MSE.  Each test also runs a deliberately wrong variant (the missing
2^{-k} level weights of the thesis' MMS proof, a wrong quantizer probability, a forgotten inverse
rotation) through the same check and asserts it is rejected.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
import sympy
from scipy.stats import chi2

from bcdp.core.errors import InvalidInputError, ValidityConditionError, WrongTypeError
from bcdp.dme import l2, linf
from bcdp.dme.quantizer import binary_digits
from bcdp.dme.linf_sampler import l2_linf_mechanism_float, level_ps_float, linf_level_estimates, linf_sample_float

ALPHA = 1e-6


def _law_support(law):
    keys = list(law)
    return keys, np.array([[float(c) for c in k] for k in keys]), np.array([float(law[k]) for k in keys])


def _match(samples: np.ndarray, support: np.ndarray) -> np.ndarray:
    """Index of the support point of each sample row (-1 if none within 1e-9)."""
    dist = np.abs(samples[:, None, :] - support[None, :, :]).max(axis=2)
    idx = dist.argmin(axis=1)
    return np.where(dist[np.arange(len(samples)), idx] < 1e-9, idx, -1)


def chi_square_accepts(samples: np.ndarray, law) -> bool:
    """Goodness of fit of the sample rows to the exact law at level ALPHA (outside support: reject)."""
    _, support, probs = _law_support(law)
    idx = _match(samples, support)
    if (idx < 0).any():
        return False
    counts = np.bincount(idx, minlength=len(probs)).astype(float)
    expected = probs * len(samples)
    big = expected >= 5
    obs = np.append(counts[big], counts[~big].sum())
    exp = np.append(expected[big], expected[~big].sum())
    keep = exp > 0
    if (obs[~keep] > 0).any():
        return False
    stat = float(((obs[keep] - exp[keep]) ** 2 / exp[keep]).sum())
    return chi2.sf(stat, keep.sum() - 1) > ALPHA


def hoeffding(width: float, n: int, k: int = 1) -> float:
    """Two-sided Hoeffding half-width for the mean of n i.i.d. values in an interval of this width, union
    bound over k quantities, total failure probability ALPHA."""
    return width * math.sqrt(math.log(2 * k / ALPHA) / (2 * n))


def _exact_mean_mse(law, z):
    d = len(z)
    mean = [sum((w * k[j] for k, w in law.items()), Fraction(0)) for j in range(d)]
    mse = sum((w * sum(((k[j] - z[j]) ** 2 for j in range(d)), Fraction(0)) for k, w in law.items()), Fraction(0))
    return mean, mse


def mean_mse_accept(samples: np.ndarray, z, law) -> bool:
    """Empirical mean (per coordinate) and MSE within Hoeffding bounds of the law's exact values."""
    _, support, _ = _law_support(law)
    mean, mse = _exact_mean_mse(law, z)
    n, d = samples.shape
    lo, hi = support.min(axis=0), support.max(axis=0)
    zf = np.array([float(c) for c in z])
    sq_max = float(max(sum((k[j] - z[j]) ** 2 for j in range(d)) for k in law))
    ok_mean = np.all(np.abs(samples.mean(axis=0) - np.array([float(c) for c in mean]))
                     <= np.array([hoeffding(h - l, n, d + 1) for l, h in zip(lo, hi)]))
    emp_mse = float(((samples - zf) ** 2).sum(axis=1).mean())
    return bool(ok_mean) and abs(emp_mse - float(mse)) <= hoeffding(sq_max, n, d + 1)


CASES = [  # (z, m, s, ps): z dyadic so that the float input is exact
    ((Fraction(3, 8), Fraction(5, 8)), 2, 1, (Fraction(1, 5), Fraction(1, 10))),
    ((Fraction(1, 8), Fraction(1, 2), Fraction(7, 8)), 3, 2, (Fraction(1, 4), Fraction(1, 5), Fraction(1, 10))),
    ((Fraction(1), Fraction(0)), 2, 2, (Fraction(1, 3), Fraction(0))),
]


def _z_hat(rng, z, m, s, ps, N):
    r = 1.0
    x = np.tile(np.array([2 * float(c) - 1 for c in z]), (N, 1))
    agg, per = linf_sample_float(rng, x, r, m, s, ps=[float(p) for p in ps])
    assert np.allclose(agg, per.mean(axis=0))
    return (per + r) / (2 * r)


@pytest.mark.parametrize("case", range(len(CASES)))
def test_sampler_law_chi_square_and_moments(case):
    z, m, s, ps = CASES[case]
    law = linf.linf_estimate_law(z, m, s, ps)
    rng = np.random.default_rng(1000 + case)
    samples = _z_hat(rng, z, m, s, ps, 40_000)
    assert chi_square_accepts(samples, law)
    assert mean_mse_accept(samples, z, law)
    # the exact mean is z (thesis Thm 3.5.1, unbiased) and the exact MSE is linf_mse_formula
    mean, mse = _exact_mean_mse(law, z)
    assert tuple(mean) == z and mse == linf.linf_mse_formula(z, m, s, ps)


@pytest.mark.parametrize("case", range(len(CASES)))
def test_missing_level_weights_rejected(case):
    """The MMS proof's z_hat = sum_k b_hat^(k) + u_hat 2^{-(m-1)} (no 2^{-k}) fails both tests
    (erratum E-Thesis-MMS-weights).  Exact: every level is unbiased, so its mean is sum_k b_k + pi 2^{-(m-1)},
    which differs from z whenever a digit b_k = 1 (z = 5/8, m = 2: 9/8)."""
    bits, pi = binary_digits(Fraction(5, 8), 2)
    assert sum(bits) + pi / 2 == Fraction(9, 8) and bits[0] / 2 + pi / 2 == Fraction(5, 8)
    z, m, s, ps = CASES[case]
    law = linf.linf_estimate_law(z, m, s, ps)
    rng = np.random.default_rng(2000 + case)
    zz = np.tile(np.array([float(c) for c in z]), (40_000, 1))
    levels = linf_level_estimates(rng, zz, m, s, [float(p) for p in ps])
    wrong = levels[:-1].sum(axis=0) + levels[-1] * 2.0 ** -(m - 1)
    right = np.tensordot([2.0 ** -k for k in range(1, m)] + [2.0 ** -(m - 1)], levels, axes=1)
    assert not chi_square_accepts(wrong, law)
    assert not mean_mse_accept(wrong, z, law)
    assert chi_square_accepts(right, law) and mean_mse_accept(right, z, law)


def test_wrong_quantizer_probability_rejected():
    """Same support, different law: samples at z' = (1/4, 5/8) (last coin 1/2 instead of 3/4) against
    the law at z = (3/8, 5/8): the chi-square test rejects; the right z is accepted above."""
    z, m, s, ps = CASES[0]
    law = linf.linf_estimate_law(z, m, s, ps)
    samples = _z_hat(np.random.default_rng(7), (Fraction(1, 4), Fraction(5, 8)), m, s, ps, 40_000)
    assert _match(samples, _law_support(law)[1]).min() >= 0  # same support
    assert not chi_square_accepts(samples, law)


def test_level_ps_float_matches_exact_split():
    for m, s, v in ((1, 1, 2), (3, 2, 5), (4, 3, 7)):
        exact = linf.level_p(m, s, v)
        got = level_ps_float(m, s, v)
        assert np.allclose(got, [float(sympy.N(p, 30)) for p in exact], rtol=1e-12, atol=0)
    # the large-budget form does not cancel: p ~ 1/w^2 for w = f v/s large
    p = level_ps_float(1, 1, 1e6)[0]
    assert abs(p - 1e-12) <= 1e-12 * 1e-6


def test_validity_boundaries():
    rng = np.random.default_rng(0)
    x = np.array([[1.0, -1.0]])
    linf_sample_float(rng, x, 1, 2, 2, ps=[0.0, 0.4999])  # x = +-r, s = d, p just under 1/2: accepted
    with pytest.raises(ValidityConditionError):
        linf_sample_float(rng, x * (1 + 1e-12), 1, 2, 2, ps=[0.1, 0.1])
    with pytest.raises(ValidityConditionError):
        linf_sample_float(rng, x, 1, 2, 3, ps=[0.1, 0.1])  # s > d
    with pytest.raises(ValidityConditionError):
        linf_sample_float(rng, x, 1, 2, 1, ps=[0.1, 0.5])
    with pytest.raises(InvalidInputError):
        linf_sample_float(rng, x, 1, 2, 1, ps=[0.1, 0.1], v=1.0)
    with pytest.raises(InvalidInputError):
        linf_sample_float(rng, x, 1, 2, 1, ps=[0.1])
    with pytest.raises(ValidityConditionError):
        level_ps_float(2, 1, 0.0)
    level_ps_float(2, 1, 1e-300)
    with pytest.raises(WrongTypeError):
        linf_sample_float(None, x, 1, 2, 1, v=1.0)
    with pytest.raises(WrongTypeError):
        linf_sample_float(rng, x, 1, 2.0, 1, v=1.0)


# -- the l2 mechanism with the real l_inf step ----------------------------------------------------------

SIGNS = (1, -1, 1, 1)
X = (Fraction(1, 4), Fraction(0), Fraction(1, 8), Fraction(-1, 8))
R_INF = Fraction(1, 2)  # >= ||x||_2 = 0.306..., so no coordinate of U x is clipped


def _rotated_z():
    w = l2.rotate(X, SIGNS)  # exact sympy; rational since sqrt(4) = 2
    ws = [Fraction(int(sympy.numer(e)), int(sympy.denom(e))) for e in w]
    assert all(abs(c) <= R_INF for c in ws)
    return ws, tuple((c + R_INF) / (2 * R_INF) for c in ws)


def _l2_accepts(per_client: np.ndarray, target: np.ndarray, law, zs) -> bool:
    """Unbiasedness and MSE of x_hat_i vs x from the rotated l_inf law: ||x_hat_i - x|| = ||w_hat_i - w||
    (U orthogonal), so its law is 2 r_inf ||z_hat - z||; coordinates of x_hat_i - x are bounded by it."""
    n, d = per_client.shape
    _, mse_z = _exact_mean_mse(law, zs)
    scale = float(2 * R_INF)
    sq_max = scale ** 2 * float(max(sum((k[j] - zs[j]) ** 2 for j in range(d)) for k in law))
    err = per_client - target
    ok_mean = np.all(np.abs(err.mean(axis=0)) <= hoeffding(2 * math.sqrt(sq_max), n, d + 1))
    ok_mse = abs(float((err ** 2).sum(axis=1).mean()) - scale ** 2 * float(mse_z)) <= hoeffding(sq_max, n, d + 1)
    return bool(ok_mean) and ok_mse


def test_l2_linf_mechanism_unbiased_with_rotated_linf_mse():
    m, s, ps = 2, 2, (Fraction(1, 5), Fraction(1, 10))
    _, zs = _rotated_z()
    law = linf.linf_estimate_law(zs, m, s, ps)
    N = 60_000
    x = np.tile(np.array([float(c) for c in X]), (N, 1))
    rng = np.random.default_rng(31)
    agg, per = l2_linf_mechanism_float(rng, x, 0.5, m, s, ps=[float(p) for p in ps], r_inf=0.5, signs=SIGNS)
    assert np.allclose(agg, per.mean(axis=0))
    assert _l2_accepts(per, x, law, zs)
    # thesis Sec. 3.6: MSE(l2) = 4 r_inf^2 MSE(l_inf on z = (Ux + r)/(2r)), the exact formula
    assert linf.linf_mse_formula(zs, m, s, ps) == _exact_mean_mse(law, zs)[1]
    # wrong variant: forgetting the inverse rotation (returning w_hat) is rejected by the same check
    w = l2.rotate_float(x, np.array(SIGNS, dtype=float))
    _, w_hat = linf_sample_float(np.random.default_rng(32), w, 0.5, m, s, ps=[float(p) for p in ps])
    assert not _l2_accepts(w_hat, x, law, zs)


def test_l2_linf_mechanism_default_radius_and_inputs():
    rng = np.random.default_rng(5)
    x = np.zeros((3, 4))
    x[0, 0] = 1.0
    l2_linf_mechanism_float(rng, x, 1, 2, 2, v=2.0, beta=0.5)
    with pytest.raises(InvalidInputError):
        l2_linf_mechanism_float(rng, x, 1, 2, 2, v=2.0, beta=1.0)  # beta outside (0, 1)
    with pytest.raises(InvalidInputError):
        l2_linf_mechanism_float(rng, x, 1, 2, 2, v=2.0)  # neither beta nor r_inf
    with pytest.raises(ValidityConditionError):
        l2_linf_mechanism_float(rng, x * 1.001, 1, 2, 2, v=2.0, beta=0.5)  # outside B_2(r2)
    with pytest.raises(InvalidInputError):
        l2_linf_mechanism_float(rng, np.zeros((2, 3)), 1, 2, 2, v=2.0, beta=0.5)  # d not a power of 2
    # an explicit radius 1/4 below |(U e_1)_j| = 1/2: clipping applies, every coordinate is cut to +-1/4
    big = np.zeros((3, 4))
    big[:, 0] = 1.0  # U e_1 = +-1/2 in every coordinate
    sg = np.ones(4)
    agg, per = l2_linf_mechanism_float(rng, big, 1, 1, 4, ps=[0.0], r_inf=0.25, signs=sg)
    # p = 0, s = d = 4, m = 1: the l_inf step returns the quantizer's u in {0,1} exactly, so w_hat in {-r, r}
    w_hat = l2.rotate_float(per, sg)
    assert np.allclose(np.abs(w_hat), 0.25)
