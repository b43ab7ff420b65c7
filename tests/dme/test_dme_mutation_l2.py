"""Mutation-gate tests of the float twins of :mod:`bcdp.dme.l2` (thesis Algs 3.6.1-3.6.2).

Oracles are independent of the code under test: U = H_d D / sqrt(d) built here from the Sylvester
entries h(i, j) = (-1)^popcount(i & j) in Fractions (only the final 1/sqrt(d) in float), the clip
radius r_inf = 10 r2 sqrt(log(d n / beta) / d) evaluated with :mod:`math` from the printed formula,
and laws worked out by hand.  The l_inf step is a parameter of :func:`l2_mechanism_float`; the tests
plug in a deterministic step that records its input w, which exposes the rotation, the clipping and
the shared signs.  Statistical checks use exact binomial tests at level ALPHA = 1e-6 with fixed seeds.
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np
import pytest
from bcdp.core.errors import InvalidInputError, WrongTypeError
from bcdp.dme import l2
from scipy.stats import binomtest

ALPHA = 1e-6


def h(i: int, j: int) -> int:
    return -1 if bin(i & j).count("1") % 2 else 1


def oracle_rotate(x, s) -> list[float]:
    d = len(x)
    return [float(sum(h(i, j) * F(s[j]) * F(x[j]) for j in range(d))) / math.sqrt(d) for i in range(d)]


def oracle_inverse(w, s) -> list[float]:
    """U^T w = D H w / sqrt(d)."""
    d = len(w)
    return [float(F(s[i]) * sum(h(i, j) * F(w[j]) for j in range(d))) / math.sqrt(d) for i in range(d)]


class Recorder:
    """A deterministic l_inf step: returns w unchanged (an unbiased step with zero noise) and keeps it."""

    def __init__(self):
        self.calls = []

    def __call__(self, w, r, rng):
        self.calls.append((np.array(w, copy=True), r))
        return w


# -- rotations ----------------------------------------------------------------------------------------

def test_rotations_of_exact_inputs_are_float64_and_match_the_oracle():
    x = [F(1, 3), F(-1, 2), F(0), F(1, 5)]
    s = [F(1), F(-1), F(-1), F(1)]
    got = l2.rotate_float([x], s)
    assert got.dtype == np.float64 and got.shape == (1, 4)
    assert np.allclose(got[0], oracle_rotate(x, s), rtol=0, atol=1e-15)
    back = l2.inverse_rotate_float([x], s)
    assert back.dtype == np.float64 and back.shape == (1, 4)
    assert np.allclose(back[0], oracle_inverse(x, s), rtol=0, atol=1e-15)


def test_rotations_in_dimension_one():
    assert l2.rotate_float([[3.0]], [-1]).tolist() == [[-3.0]]
    assert l2.inverse_rotate_float([[3.0]], [-1]).tolist() == [[-3.0]]
    assert l2.rotate_float([[-2.5]], [1]).tolist() == [[-2.5]]


def test_rotations_refuse_bad_signs():
    x = [[0.1, 0.2, 0.3, 0.4]]
    with pytest.raises(InvalidInputError):
        l2.rotate_float(x, [1, 2, 1, 1])        # d a power of 2, a sign of modulus 2
    with pytest.raises(InvalidInputError):
        l2.rotate_float(x, [1, -1])             # d a power of 2, signs of the wrong length
    with pytest.raises(InvalidInputError):
        l2.inverse_rotate_float(x, [1])         # would broadcast: refused
    with pytest.raises(InvalidInputError):
        l2.inverse_rotate_float(x, [1, -1])
    with pytest.raises(InvalidInputError):
        l2.rotate_float([[0.1, 0.2, 0.3]], [1, 1, 1])  # d = 3
    with pytest.raises(InvalidInputError):
        l2.inverse_rotate_float([[0.1, 0.2, 0.3]], [1, 1, 1])


# -- the stand-in l_inf step --------------------------------------------------------------------------

def test_two_point_step_outputs_are_plus_minus_r_c_with_the_default_E_3():
    rng = np.random.default_rng(3650)
    r = 1.5
    w = np.array([[-1.5, -0.5, 0.0, 0.7], [1.5, 0.2, -0.2, 0.0]])
    out = l2.two_point_linf_sample_float(w, r, rng)  # default E = 3: c = 2
    assert out.shape == w.shape
    assert set(np.abs(out).ravel().tolist()) == {3.0}
    out5 = l2.two_point_linf_sample_float(w, r, rng, E=5.0)  # c = 6/4
    assert set(np.abs(out5).ravel().tolist()) == {2.25}


def test_two_point_step_law_is_one_half_plus_w_over_2rc():
    """w = r/2, c = 2: P[+] = 1/2 + 1/8 = 5/8 per coordinate (exact binomial test)."""
    rng = np.random.default_rng(3651)
    n, d, r = 25_000, 8, 1.0
    out = l2.two_point_linf_sample_float(np.full((n, d), 0.5), r, rng)
    plus = int(np.sum(out > 0))
    assert binomtest(plus, n * d, 5 / 8).pvalue >= ALPHA


class _ConstantUniforms:
    def __init__(self, u):
        self.u = u

    def random(self, shape):
        return np.full(shape, self.u)


def test_two_point_step_comparison_is_strict():
    """U uniform on [0, 1) has P[U < p] = p, so the + output is taken iff U < p: a draw equal to
    p = 1/2 (w = 0) gives -r c, a draw just below gives +r c."""
    w = np.zeros((1, 2))
    assert l2.two_point_linf_sample_float(w, 1.0, _ConstantUniforms(0.5)).tolist() == [[-2.0, -2.0]]
    below = np.nextafter(0.5, 0.0)
    assert l2.two_point_linf_sample_float(w, 1.0, _ConstantUniforms(below)).tolist() == [[2.0, 2.0]]


# -- the l2 mechanism -----------------------------------------------------------------------------------

def test_l2_mechanism_with_a_noiseless_step_returns_the_mean_of_exact_rows():
    x = [[F(1, 4), F(-1, 8), F(0), F(1, 2)], [F(-1, 4), F(3, 8), F(1, 16), F(0)]]
    s = [1, -1, 1, 1]
    rec = Recorder()
    got = l2.l2_mechanism_float(x, 1, F(1, 10), np.random.default_rng(1), linf_step=rec, signs=s)
    mean = [float((a + b) / 2) for a, b in zip(*x)]
    assert np.allclose(got, mean, rtol=0, atol=1e-15)
    (w, r), = rec.calls
    assert np.allclose(w[0], oracle_rotate(x[0], s), rtol=0, atol=1e-15)  # the given signs are used
    assert np.allclose(w[1], oracle_rotate(x[1], s), rtol=0, atol=1e-15)
    assert r == pytest.approx(10 * math.sqrt(math.log(4 * 2 / 0.1) / 4), rel=1e-15)


def test_l2_mechanism_in_dimension_one():
    rec = Recorder()
    got = l2.l2_mechanism_float(np.array([[0.5]]), 1, 0.5, np.random.default_rng(2), linf_step=rec, signs=[-1])
    assert got.tolist() == [0.5]
    assert rec.calls[0][0].tolist() == [[-0.5]]


@pytest.mark.parametrize("sigma", [1.0, -1.0])
def test_l2_mechanism_clips_both_ends(sigma):
    """d = 2048, n = 1, beta = 0.99: r_inf = 10 sqrt(log(2048/0.99)/2048) = 0.61... < 1.  The row
    x = sigma U^T e_0 = sigma s/sqrt(d) (unit norm) rotates to sigma e_0, clipped to sigma r_inf e_0,
    and the noiseless step returns x_hat = sigma r_inf s/sqrt(d)."""
    d = 2048
    s = np.where(np.random.default_rng(7).random(d) < 0.5, -1.0, 1.0)
    x = sigma * s / math.sqrt(d)
    r = 10 * math.sqrt(math.log(d / 0.99) / d)
    assert r < 0.62
    rec = Recorder()
    got = l2.l2_mechanism_float(x[None, :], 1, 0.99, np.random.default_rng(3), linf_step=rec, signs=s)
    w = rec.calls[0][0][0]
    assert w[0] == pytest.approx(sigma * r, rel=1e-12)
    assert np.max(np.abs(w[1:])) <= 1e-12
    assert np.allclose(got, sigma * r * s / math.sqrt(d), rtol=0, atol=1e-12)


def test_l2_mechanism_draws_uniform_shared_signs_when_none_are_given():
    """With signs=None the rotation uses i.i.d. uniform +-1 signs from rng: the recorded w = U x of
    a row with distinct nonzero entries gives D x = H w / sqrt(d), hence the signs.  Over 100 calls
    (800 signs) the number of +1 is tested against Binomial(800, 1/2) at level ALPHA."""
    x = np.arange(1, 9, dtype=np.float64) / 20  # ||x||_2 = sqrt(204)/20 < 1
    H = np.array([[h(i, j) for j in range(8)] for i in range(8)], dtype=np.float64)
    rng = np.random.default_rng(3652)
    plus = 0
    for _ in range(100):
        rec = Recorder()
        l2.l2_mechanism_float(x[None, :], 1, 0.5, rng, linf_step=rec)
        dx = H @ rec.calls[0][0][0] / math.sqrt(8)
        signs = dx / x
        assert np.allclose(np.abs(signs), 1.0, rtol=0, atol=1e-12)
        plus += int(np.sum(signs > 0))
    assert binomtest(plus, 800, 0.5).pvalue >= ALPHA


def test_l2_mechanism_default_step_runs_without_given_signs():
    rng = np.random.default_rng(3653)
    out = l2.l2_mechanism_float(np.array([[0.6, 0.0], [0.0, -0.8]]), 1, 0.5, rng)
    assert out.shape == (2,) and np.all(np.isfinite(out))


def test_l2_mechanism_ball_check_is_inclusive_up_to_the_relative_tolerance():
    """Rows up to norm r2 (1 + 1e-12) (the float tolerance) are accepted, one ulp more is refused."""
    rec = Recorder()
    t = 1.0 * (1 + 1e-12)
    assert np.linalg.norm([t, 0.0]) == t
    l2.l2_mechanism_float(np.array([[t, 0.0]]), 1, 0.5, np.random.default_rng(4), linf_step=rec, signs=[1, 1])
    t2 = np.nextafter(t, 2.0)
    with pytest.raises(InvalidInputError, match="outside B_2"):
        l2.l2_mechanism_float(np.array([[t2, 0.0]]), 1, 0.5, np.random.default_rng(4), linf_step=rec, signs=[1, 1])
    with pytest.raises(InvalidInputError, match="outside B_2"):
        l2.l2_mechanism_float(np.array([[0.8, 0.7]]), 1, 0.5, np.random.default_rng(4), signs=[1, 1])


def test_l2_mechanism_refuses_bad_inputs_with_its_message():
    rng = np.random.default_rng(0)
    for bad in (np.array([[0.1, np.nan]]), np.array([0.1, 0.2]), np.zeros((0, 2)), np.array([[np.inf, 0.0]])):
        with pytest.raises(InvalidInputError, match=r"^x must be a finite \(n, d\) array$"):
            l2.l2_mechanism_float(bad, 1, 0.5, rng, signs=[1, 1])
    with pytest.raises(InvalidInputError) as exc:
        l2.l2_mechanism_float(np.array([[0.1, 0.2]]), "r", 0.5, rng)
    assert str(exc.value).startswith("r2: ")
    with pytest.raises(WrongTypeError) as exc:
        l2.l2_mechanism_float(np.array([[0.1, 0.2]]), True, 0.5, rng)
    assert str(exc.value).startswith("r2: ")
    with pytest.raises(WrongTypeError):
        l2.l2_mechanism_float(np.array([[0.1, 0.2]]), 1, 0.5, None)
