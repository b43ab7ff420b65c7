"""bcdp.bayesian.eq88_matrix against hand computations and a brute-force oracle (eq. (88), App. C.1)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import mpmath
import pytest

from bcdp.bayesian import eq88_matrix as em
from bcdp.core.errors import FloatRefusedError, InvalidInputError, WrongTypeError


def test_single_stage_law_by_hand():
    # t = (1, 0), G = 3 at x = 0: nu = B u, u uniform on {-1, 1}^2, B_2 = 2 (E+1)/((E-1) T_2), T_2 = 1, E = 3
    law = em.copy_law((1, 0), 3)
    B = Fraction(2 * 4, 2)
    assert law == {(s1 * B, s2 * B): Fraction(1, 4) for s1 in (-1, 1) for s2 in (-1, 1)}
    assert em.r_squared((1, 0), 3) == 2 * B * B


def test_n1_at_zero_is_r2():
    # one user at 0 with a single stage: ||A|| = |u||v| = 2 B^2 surely = r^2
    first, second = em.mean_norm((1, 0), 3, [None])
    assert abs(first - 32) < mpmath.mpf(10) ** -40 and abs(second - 32) < mpmath.mpf(10) ** -40


def _svd_norm(M):
    d = int(len(M) ** 0.5)
    with mpmath.workdps(60):
        return max(mpmath.svd_r(mpmath.matrix([[mpmath.mpf(M[i * d + j].numerator) / M[i * d + j].denominator
                                                for j in range(d)] for i in range(d)]), compute_uv=False))


@pytest.mark.parametrize("t,G,xs", [((1, 1), 3, [[1, -1], None]), ((1, 2), 2, [[1, 1], [1, 1]])])
def test_mean_norm_brute_force(t, G, xs):
    per_user = [em.product_law(t, G, x) for x in xs]
    total = mpmath.mpf(0)
    with mpmath.workdps(60):
        for combo in itertools.product(*(u.items() for u in per_user)):
            S = tuple(sum(v) for v in zip(*(A for A, _ in combo)))
            p = Fraction(1)
            for _, q in combo:
                p *= q
            total += mpmath.mpf(p.numerator) / p.denominator * _svd_norm(S)
        first, _ = em.mean_norm(t, G, xs)
        assert abs(first - total / len(xs)) < mpmath.mpf(10) ** -40
        # the Frobenius norm (a wrong twin) differs
        assert abs(first - em.mean_norm(t, G, xs)[1]) > mpmath.mpf(10) ** -3


def test_centring_and_printed_constant():
    assert not any(em.expected_product((1, 1), 3, [1, -1]))
    assert em.expected_product((1, 1), 3, [1, -1], "paper") == (1, -1, -1, 1)


def test_tropp_bound_hand_value_and_order():
    with mpmath.workdps(50):
        val = em.tropp_bound(Fraction(1), Fraction(4), 4)
        hand = mpmath.sqrt(2 * mpmath.e * mpmath.log(4)) + 8 * mpmath.e * mpmath.log(4)
        assert abs(val - hand) < mpmath.mpf(10) ** -40
        xs = [None, [1, 1]]
        v = em.tropp_variance((1, 1), 3, xs)
        L = em.max_norm_square((1, 1), 3, xs)
        assert em.mean_norm((1, 1), 3, xs)[1] <= em.tropp_bound(v, L, 4) / 2 <= em.lemma1_bound(em.r_squared((1, 1), 3), 2, 2)


def test_inputs_refused():
    with pytest.raises(InvalidInputError):
        em.copy_law((0, 1), 3)
    with pytest.raises(WrongTypeError):
        em.copy_law((1.0, 0), 3)
    with pytest.raises(FloatRefusedError):
        em.copy_law((1, 0), 3.0)
    with pytest.raises(InvalidInputError):
        em.copy_law((1, 0), 1)  # G = 1: budget 0
    em.copy_law((1, 0), Fraction(101, 100))  # just above the boundary
    with pytest.raises(InvalidInputError):
        em.copy_law((1, 0), 3, [1, Fraction(1, 2)])
    with pytest.raises(InvalidInputError):
        em.tropp_bound(1, 1, 1)
    with pytest.raises(InvalidInputError):
        em.copy_law((1, 0), 3, None, "printed")
