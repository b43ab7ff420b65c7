"""The Hoeffding clip radius r2 sqrt(2 log(2 n d/beta)/d) (:mod:`bcdp.dme.hoeffding_clip`) against exact
rotation laws (2^d sign vectors, Fractions), a seeded Monte Carlo at d = 1024, n = 1000, and wrong variants.

Oracles written here: the per-coordinate law of w_j = (H_d D x)_j/sqrt(d) by enumerating every sign
vector with Fractions (own Sylvester matrix); the max law of :func:`bcdp.dme.l2.rotated_linf_law`
(itself an enumeration); the defining equation 2 n d exp(-r^2 d/(2 r2^2)) = beta in mpmath at 50 digits;
an exact binomial tail (Fractions, the shared helper of the Lemma 30 check) for the Monte Carlo threshold.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from bcdp.checks.partial_dp.lemma30_heavy_hitter_utility import binomial_upper_quantile
from bcdp.core.errors import FloatRefusedError, InvalidInputError
from bcdp.dme import l2
from bcdp.dme.hoeffding_clip import hoeffding_clip_radius, hoeffding_clip_radius_float


@pytest.fixture(autouse=True)
def _fifty_digits():
    with mpmath.workdps(50):
        yield


def _sylvester(d: int) -> list[list[int]]:
    H = [[1]]
    while len(H) < d:
        H = [row + row for row in H] + [row + [-v for v in row] for row in H]
    return H


def _coordinate_laws(x: list[Fraction]) -> list[dict[Fraction, Fraction]]:
    """For each j, the exact law of w_j^2 = (sum_k H_jk s_k x_k)^2/d over all 2^d sign vectors s."""
    d = len(x)
    H = _sylvester(d)
    laws: list[dict[Fraction, Fraction]] = [{} for _ in range(d)]
    p = Fraction(1, 2 ** d)
    for s in itertools.product((1, -1), repeat=d):
        for j in range(d):
            u = sum((H[j][k] * s[k] * x[k] for k in range(d)), Fraction(0)) ** 2 / d
            laws[j][u] = laws[j].get(u, Fraction(0)) + p
    return laws


def _mp(q: Fraction) -> mpmath.mpf:
    return mpmath.mpf(q.numerator) / q.denominator


def _tail_ge(law: dict[Fraction, Fraction], u: Fraction) -> Fraction:
    return sum((p for v, p in law.items() if v >= u), Fraction(0))


# several x, including the worst known shapes: e_1 scaled (|w_j| = r2/sqrt(d) always) and the flat vector
X_CASES = [
    [Fraction(1)] + [Fraction(0)] * 3,
    [Fraction(1, 2)] * 4,
    [Fraction(3, 5), Fraction(4, 5), Fraction(0), Fraction(0)],
    [Fraction(1, 3), Fraction(-2, 3), Fraction(2, 3), Fraction(0)],
    [Fraction(2)] + [Fraction(0)] * 7,
    [Fraction(1, 2)] * 8,  # norm sqrt(2)
    [Fraction(1, 7), Fraction(2, 7), Fraction(-3, 7), Fraction(1, 7), Fraction(0), Fraction(4, 7), Fraction(-1, 7),
     Fraction(1, 7)],
]


@pytest.mark.parametrize("x", X_CASES, ids=lambda x: f"d{len(x)}")
def test_per_coordinate_tail_below_hoeffding(x):
    """P(|w_j| >= t) <= 2 exp(-t^2 d/(2 ||x||^2)) at every t on the support, every j; the variant without the
    factor 2 in the exponent's denominator fails on e_1 (the wrong variant is rejected)."""
    d = len(x)
    norm2 = sum(v * v for v in x)
    wrong_caught = False
    for law in _coordinate_laws(x):
        assert sum(law.values()) == 1
        for u in law:
            tail = _mp(_tail_ge(law, u))
            assert tail <= 2 * mpmath.exp(-_mp(u) * d / (2 * _mp(norm2))), (x, u)
            wrong_caught |= tail > 2 * mpmath.exp(-_mp(u) * d / _mp(norm2))
    if sum(1 for v in x if v != 0) == 1:  # e_1 scaled: P(|w_j| >= r2/sqrt(d)) = 1 > 2 exp(-1)
        assert wrong_caught


@pytest.mark.parametrize("x", X_CASES + [[Fraction(1, 4)] * 16], ids=lambda x: f"d{len(x)}")
def test_max_tail_and_radius_with_one_client(x):
    """Union over the d coordinates (n = 1): P(max_j |w_j| >= t) <= 2 d exp(-t^2 d/(2||x||^2)) on the support of
    rotated_linf_law, and P(max_j |w_j| > r_inf) <= beta for the radius at n = 1, r2 = ||x||_2 (when rational)."""
    d = len(x)
    norm2 = sum(v * v for v in x)
    law = l2.rotated_linf_law(x)
    for u in law:
        assert _mp(_tail_ge(law, u)) <= 2 * d * mpmath.exp(-_mp(u) * d / (2 * _mp(norm2)))
    r2 = Fraction(math.isqrt(norm2.numerator), math.isqrt(norm2.denominator))
    if r2 * r2 == norm2:
        for beta in (Fraction(1, 2), Fraction(3, 10), Fraction(1, 10), Fraction(1, 20), Fraction(1, 100)):
            r = mpmath.mpf(str(sympy_n(hoeffding_clip_radius(r2, d, 1, beta))))
            assert _mp(sum((p for v, p in law.items() if _mp(v) > r * r), Fraction(0))) <= _mp(beta)


def sympy_n(expr) -> str:
    return str(expr.evalf(50))


def test_radius_without_union_bound_fails_exactly_at_d16():
    """The wrong variant r2 sqrt(2 log(2/beta)/d) (no union bound over the coordinates) clips the flat
    x = (1/4, ..., 1/4) at d = 16 with probability > beta (exact law), while the Hoeffding radius does not."""
    x = [Fraction(1, 4)] * 16
    law = l2.rotated_linf_law(x)
    for beta in (Fraction(3, 10), Fraction(1, 10), Fraction(1, 20)):
        wrong = 2 * mpmath.log(2 / _mp(beta)) / 16
        right = mpmath.mpf(sympy_n(hoeffding_clip_radius(1, 16, 1, beta))) ** 2
        assert _mp(sum((p for v, p in law.items() if _mp(v) > wrong), Fraction(0))) > _mp(beta)
        assert _mp(sum((p for v, p in law.items() if _mp(v) > right), Fraction(0))) <= _mp(beta)


def test_radius_solves_the_union_bound_equation_and_is_7x_below_thm365():
    """2 n d exp(-r^2 d/(2 r2^2)) = beta (the defining equation), float twin within 1e-14, ~6.94x below
    Thm 3.6.5's 10 r2 sqrt(log(dn/beta)/d) at d = 1024, n = 1000, beta = 1/100."""
    for r2, d, n, beta in ((1, 1024, 1000, "1/100"), (Fraction(3, 2), 512, 1000, "1/100"), (2, 4, 1, "1/2")):
        r = mpmath.mpf(sympy_n(hoeffding_clip_radius(r2, d, n, beta)))
        b, rr = _mp(Fraction(beta)), _mp(Fraction(r2))
        assert abs(2 * n * d * mpmath.exp(-r * r * d / (2 * rr * rr)) - b) <= b * mpmath.mpf(10) ** -40
        assert abs(hoeffding_clip_radius_float(r2, d, n, beta) - r) <= 1e-14 * r
    ratio = mpmath.mpf(sympy_n(l2.clip_radius(1, 1024, 1000, "1/100") / hoeffding_clip_radius(1, 1024, 1000, "1/100")))
    assert 6.9 < ratio < 7.0


def test_validity_conditions_both_sides():
    assert hoeffding_clip_radius(1, 1, 1, "1/1000000") > 0
    assert hoeffding_clip_radius("1/1000", 2, 3, "999999/1000000") > 0
    with pytest.raises(FloatRefusedError):
        hoeffding_clip_radius(1.0, 4, 1, "1/2")
    with pytest.raises(FloatRefusedError):
        hoeffding_clip_radius(1, 4, 1, 0.5)
    for bad in ((1, 4, 1, 0), (1, 4, 1, 1), (0, 4, 1, "1/2"), ("-1", 4, 1, "1/2"), (1, 0, 1, "1/2"),
                (1, 4, 0, "1/2"), (1, True, 1, "1/2"), (1, 4, 2.0, "1/2")):
        with pytest.raises(InvalidInputError):
            hoeffding_clip_radius(*bad)
        with pytest.raises(InvalidInputError):
            hoeffding_clip_radius_float(*bad)
    assert hoeffding_clip_radius_float(1, 4, 1, 1e-12) > 0


def test_monte_carlo_clip_frequency_at_d1024_n1000():
    """Seeded: n = 1000 clients uniform on the unit sphere of R^1024, T = 40 shared rotations.  If P[clip] <= beta
    = 1/100, the number of clipping rotations exceeds k (exact binomial quantile) with probability <= 1e-6 (the
    false-failure rate).  The wrong radius without the union bound clips in (nearly) every trial."""
    rng = np.random.default_rng(20240611)
    n, d, trials = 1000, 1024, 40
    x = rng.standard_normal((n, d))
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    peaks = np.concatenate([l2.rotation_max_linf_float(x, rng, 4) for _ in range(trials // 4)])
    k = binomial_upper_quantile(trials, Fraction(1, 100), Fraction(1, 10 ** 6))
    r = hoeffding_clip_radius_float(1, d, n, "1/100")
    assert int((peaks > r).sum()) <= k
    wrong = math.sqrt(2 * math.log(2 / 0.01) / d)
    assert int((peaks > wrong).sum()) > k
