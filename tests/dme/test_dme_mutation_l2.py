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


# -- exact parts: boundaries, values by hand and the names in the one-line messages ----------------------

import sympy  # noqa: E402
from bcdp.core.errors import FloatRefusedError  # noqa: E402


def _starts(exc_info, prefix: str) -> None:
    assert str(exc_info.value).startswith(prefix), str(exc_info.value)


def _same(a, b) -> bool:
    return len(a) == len(b) and all(sympy.simplify(sympy.sympify(u) - sympy.sympify(v)) == 0 for u, v in zip(a, b))


def test_rotation_matrix_signs_checks():
    assert l2.rotation_matrix((1,)) == sympy.Matrix([[1]])
    assert l2.rotation_matrix((-1,)) == sympy.Matrix([[-1]])
    U = l2.rotation_matrix((np.int64(1), np.int64(-1)))
    assert sympy.simplify(U - sympy.Matrix([[1, -1], [1, 1]]) / sympy.sqrt(2)) == sympy.zeros(2, 2)
    assert l2.rotation_matrix([1] * 8).shape == (8, 8)  # exactly the cap
    for bad in ([1] * 16, [], [1, 1, 1], [1] * 6, [1] * 12):
        with pytest.raises(InvalidInputError, match=r"^the dimension d = len\(signs\) must be a power of 2 at most 8, "
                                                    f"got {len(bad)}$"):
            l2.rotation_matrix(bad)
    for bad in ((1, 1.0), (1, True), (1, 0), (1, 2), (1, -2), (1, "1")):
        with pytest.raises(InvalidInputError, match=r"^signs\[1\] must be the integer \+1 or -1"):
            l2.rotation_matrix(bad)
    for bad in ("11", b"11", 1, (s for s in (1, 1))):
        with pytest.raises(WrongTypeError, match="signs must be a sequence"):
            l2.rotation_matrix(bad)


def test_rotate_and_inverse_rotate_by_hand():
    # d = 2, H = [[1, 1], [1, -1]], D = diag(1, -1): U x = (x0 - x1, x0 + x1)/sqrt 2
    r2 = sympy.sqrt(2)
    assert _same(l2.rotate((1, 2), (1, -1)), (-1 / r2, 3 / r2))
    # U^T w = D H w / sqrt 2 = (w0 + w1, -(w0 - w1))/sqrt 2
    assert _same(l2.inverse_rotate((1, 2), (1, -1)), (3 / r2, 1 / r2))
    assert _same(l2.rotate((r2, sympy.Rational(1, 3)), (1, 1)), (r2 / r2 + sympy.Rational(1, 3) / r2,
                                                                (r2 - sympy.Rational(1, 3)) / r2))
    with pytest.raises(InvalidInputError, match=r"^x\[0\] must be a real number"):
        l2.rotate((sympy.I, 0), (1, 1))
    with pytest.raises(FloatRefusedError) as e:
        l2.rotate((F(1), 0.5), (1, 1))
    _starts(e, "x[1]: floats are refused")
    with pytest.raises(FloatRefusedError) as e:
        l2.inverse_rotate((F(1), 0.5), (1, 1))
    _starts(e, "w[1]: floats are refused")
    with pytest.raises(InvalidInputError, match=r"^x must have dimension d = 2, got 3$"):
        l2.rotate((1, 2, 3), (1, 1))
    with pytest.raises(InvalidInputError, match=r"^w must have dimension d = 2, got 1$"):
        l2.inverse_rotate((1,), (1, 1))
    for bad in ("12", 5):
        with pytest.raises(WrongTypeError, match="x must be a sequence"):
            l2.rotate(bad, (1, 1))
        with pytest.raises(WrongTypeError, match="w must be a sequence"):
            l2.inverse_rotate(bad, (1, 1))


def test_clip_radius_checks_and_value():
    assert sympy.simplify(l2.clip_radius(1, 1, 1, F(1, 2)) - 10 * sympy.sqrt(sympy.log(2))) == 0
    assert sympy.simplify(l2.clip_radius(F(1, 2), np.int64(4), np.int64(3), F(1, 5))
                          - 5 * sympy.sqrt(sympy.log(60) / 4)) == 0
    for name, args in (("d", (1, 0, 1, F(1, 2))), ("d", (1, True, 1, F(1, 2))), ("d", (1, 2.0, 1, F(1, 2))),
                       ("n", (1, 1, 0, F(1, 2))), ("n", (1, 1, False, F(1, 2))), ("n", (1, 1, "2", F(1, 2)))):
        with pytest.raises(InvalidInputError, match=f"^{name} must be an integer >= 1"):
            l2.clip_radius(*args)
    for r2 in (0, -1):
        with pytest.raises(InvalidInputError, match="^r2 must be > 0"):
            l2.clip_radius(r2, 1, 1, F(1, 2))
    with pytest.raises(FloatRefusedError) as e:
        l2.clip_radius(1.0, 1, 1, F(1, 2))
    _starts(e, "r2: floats are refused")
    with pytest.raises(FloatRefusedError) as e:
        l2.clip_radius(1, 1, 1, 0.5)
    _starts(e, "beta: floats are refused")
    l2.clip_radius(1, 1, 1, F(1, 10**9))
    l2.clip_radius(1, 1, 1, 1 - F(1, 10**9))


def test_clip_keeps_the_ends_and_refuses_a_non_positive_radius():
    r = sympy.Rational(1, 2)
    assert l2.clip((F(1, 2), F(-1, 2), F(1, 2) + F(1, 10**9), -F(1, 2) - F(1, 10**9), 0), r) == (r, -r, r, -r, 0)
    assert l2.clip((sympy.sqrt(2),), 2) == (sympy.sqrt(2),)
    assert l2.clip((), 1) == ()
    for bad in (0, -1):
        with pytest.raises(InvalidInputError, match="^the clip radius must be > 0"):
            l2.clip((0,), bad)
    with pytest.raises(FloatRefusedError) as e:
        l2.clip((F(0), 0.5), 1)
    _starts(e, "w[1]: floats are refused")
    with pytest.raises(FloatRefusedError) as e:
        l2.clip((0,), 0.5)
    _starts(e, "r: floats are refused")


def test_two_point_law_by_hand():
    """d = 1, w = 1/4, r = 1/2, E = 3: c = 2, P[+] = 1/2 + (1/4)/(2 (1/2) 2) = 5/8, outputs +-r c = +-1."""
    law = l2.two_point_linf_law((F(1, 4),), F(1, 2), 3)
    assert law == [(sympy.Rational(5, 8), (1,)), (sympy.Rational(3, 8), (-1,))]
    assert l2.two_point_linf_law((F(1, 4),), F(1, 2)) == law  # default E = 3
    # E = 2: c = 3; d = 2, w = (r, -r) at both ends: P = (1/2 + 1/6)(1/2 + 1/6) for (+, -), etc.
    law2 = dict((tuple(v), p) for p, v in l2.two_point_linf_law((1, -1), 1, 2))
    assert law2 == {(3, 3): F(2, 3) * F(1, 3), (3, -3): F(2, 3) ** 2, (-3, 3): F(1, 3) ** 2, (-3, -3): F(1, 3) * F(2, 3)}
    assert len(l2.two_point_linf_law((0,) * 8, 1, 3)) == 256  # d = 8, the cap
    with pytest.raises(InvalidInputError, match="need 1 <= d <= 8, got 9"):
        l2.two_point_linf_law((0,) * 9, 1, 3)
    with pytest.raises(InvalidInputError, match="need 1 <= d <= 8, got 0"):
        l2.two_point_linf_law((), 1, 3)
    with pytest.raises(InvalidInputError, match="^E must be > 1, got 1$"):
        l2.two_point_linf_law((0,), 1, 1)
    tiny = F(1, 10**6)
    l2.two_point_linf_law((0,), 1, 1 + tiny)
    for w in ((1 + tiny,), (-1 - tiny,)):
        with pytest.raises(InvalidInputError, match=r"^w\[0\] = .* is outside \[-r, r\]"):
            l2.two_point_linf_law(w, 1, 3)
    for args, prefix in ((((0,), 1, 3.0), "E: floats"), (((0,), 1.0, 3), "r: floats"), (((F(0), 0.5), 1, 3), "w[1]: floats")):
        with pytest.raises(FloatRefusedError) as e:
            l2.two_point_linf_law(*args)
        _starts(e, prefix)


def test_l2_estimate_law_default_step_and_law_mean_by_hand():
    """d = 1: U = (s), so w = s x, clipped at r; the stand-in at E = 3 and U^T = (s)."""
    x, r = (F(1, 4),), F(1, 2)
    got = {tuple(v): p for p, v in l2.l2_estimate_law(x, (1,), r)}
    assert got == {(1,): sympy.Rational(5, 8), (-1,): sympy.Rational(3, 8)}
    got = {tuple(v): p for p, v in l2.l2_estimate_law(x, (-1,), r)}
    assert got == {(1,): sympy.Rational(5, 8), (-1,): sympy.Rational(3, 8)}  # w = -1/4: P[+] = 3/8, then * -1
    # clipping: x = 1 > r = 1/2 -> w = 1/2, P[+] = 1/2 + 1/4, outputs +-1
    got = {tuple(v): p for p, v in l2.l2_estimate_law((1,), (1,), r)}
    assert got == {(1,): sympy.Rational(3, 4), (-1,): sympy.Rational(1, 4)}
    law = [(sympy.Rational(1, 4), (1, 2)), (sympy.Rational(3, 4), (3, -2))]
    assert l2.law_mean(law) == (sympy.Rational(5, 2), -1)
    assert l2.law_mean([(sympy.Integer(1), (sympy.sqrt(2), 0))]) == (sympy.sqrt(2), 0)


def test_rotated_linf_law_by_hand_and_caps():
    # d = 2, x = (1/2, 1/3): H D x = (1/2 + s/3, 1/2 - s/3), peak 5/6 for both signs: value 25/72
    assert l2.rotated_linf_law((F(1, 2), F(1, 3))) == {F(25, 72): F(1)}
    # d = 4, x = e_0 + e_1: H D x = (1 + s1, 1 - s1, 1 + s1, 1 - s1) up to the sign: peak 2, value 4/4 = 1
    assert l2.rotated_linf_law((1, 1, 0, 0)) == {F(1): F(1)}
    # d = 4, x = (1, 1, 1, 0): H D x = (1 + s1 + s2, 1 - s1 + s2, 1 + s1 - s2, 1 - s1 - s2), one entry is
    # +-3 for every (s1, s2): value 9/4 surely
    assert l2.rotated_linf_law((1, 1, 1, 0)) == {F(9, 4): F(1)}
    # d = 4, x = (1, 1, 1, 1): D x = s; ||H s||^2 = 16 with even entries, so either one entry +-4 (s = +-a row
    # of H: 4 of the 8 sign vectors with s0 = 1) or four entries +-2: values 16/4 and 4/4, each w.p. 1/2
    assert l2.rotated_linf_law((1, 1, 1, 1)) == {F(4): F(1, 2), F(1): F(1, 2)}
    law16 = l2.rotated_linf_law((1,) + (0,) * 15)  # d = 16, the cap: ||U e_0||_inf^2 = 1/16 always
    assert law16 == {F(1, 16): F(1)}
    for bad in ((0,) * 32, (), (0,) * 3, (0,) * 12):
        with pytest.raises(InvalidInputError, match="d must be a power of 2 at most 16"):
            l2.rotated_linf_law(bad)
    assert l2.rotated_linf_law((2 ** 30 - 1, 0)) == {F((2 ** 30 - 1) ** 2, 2): F(1)}
    with pytest.raises(InvalidInputError, match="numerators too large"):
        l2.rotated_linf_law((2 ** 30, 0))
    with pytest.raises(InvalidInputError, match="numerators too large"):
        l2.rotated_linf_law((F(1, 2 ** 30), F(1, 3)))  # L = 3 * 2^30, X = (3, 2^30)
    with pytest.raises(WrongTypeError):
        l2.rotated_linf_law("12")
    with pytest.raises(FloatRefusedError) as e:
        l2.rotated_linf_law((F(0), 0.5))
    _starts(e, "x[1]: floats are refused")


def test_rotation_tail_is_strict_at_the_values():
    x = (1, 1, 1, 1)  # law {4: 1/2, 1: 1/2}
    assert l2.rotation_tail(x, 4) == 0
    assert l2.rotation_tail(x, 4 - F(1, 10**9)) == F(1, 2)
    assert l2.rotation_tail(x, 1) == F(1, 2)
    assert l2.rotation_tail(x, 1 - F(1, 10**9)) == 1
    assert l2.rotation_tail(x, 0) == 1
    assert l2.rotation_tail((0, 0), 0) == 0
    with pytest.raises(InvalidInputError, match="^t_squared must be >= 0"):
        l2.rotation_tail(x, -F(1, 10**9))
    with pytest.raises(FloatRefusedError) as e:
        l2.rotation_tail(x, 0.5)
    _starts(e, "t_squared: floats are refused")


# -- float twins: clip radius, the Walsh-Hadamard transform, the Thm 3.6.5 sampler --------------------------

def test_clip_radius_float_value_and_checks():
    assert l2.clip_radius_float(1, 1, 1, 0.5) == pytest.approx(10 * math.sqrt(math.log(2)), rel=1e-15)
    assert l2.clip_radius_float(0.5, 4, 3, 0.2) == pytest.approx(5 * math.sqrt(math.log(60) / 4), rel=1e-15)
    l2.clip_radius_float(1, 1, 1, 1e-300)
    l2.clip_radius_float(1, 1, 1, np.nextafter(1.0, 0.0))
    for args in ((0, 1, 1, 0.5), (-1, 1, 1, 0.5), (1, 1, 1, 0), (1, 1, 1, 1), (1, 1, 1, -0.5), (1, 1, 1, 1.5),
                 (1, 0, 1, 0.5), (1, 1, 0, 0.5)):
        with pytest.raises(InvalidInputError, match=r"^need r2 > 0, beta in \(0, 1\), d, n >= 1$"):
            l2.clip_radius_float(*args)
    with pytest.raises(InvalidInputError) as e:
        l2.clip_radius_float("x", 1, 1, 0.5)
    _starts(e, "r2: ")
    with pytest.raises(InvalidInputError) as e:
        l2.clip_radius_float(1, 1, 1, "x")
    _starts(e, "beta: ")


def test_rotate_float_matches_the_oracle_up_to_d_16():
    rng = np.random.default_rng(3654)
    for d in (2, 4, 8, 16):
        x = rng.integers(-50, 50, size=(3, d)) / 64.0  # dyadic: exact Fractions below
        s = np.where(rng.random(d) < 0.5, -1, 1)
        got = l2.rotate_float(x, s)
        for i in range(3):
            row = [F(v) for v in x[i]]
            assert np.allclose(got[i], oracle_rotate(row, list(s)), rtol=0, atol=1e-13)
            assert np.allclose(l2.inverse_rotate_float(x[i:i + 1], s)[0], oracle_inverse(row, list(s)), rtol=0,
                               atol=1e-13)


def test_rotation_max_linf_float_deterministic_cases():
    rng = np.random.default_rng(3655)
    assert l2.rotation_max_linf_float(np.array([[0.5], [-2.0]]), rng, 5).tolist() == [2.0] * 5  # d = 1
    got = l2.rotation_max_linf_float(np.array([[1.0, 0.0]]), rng, 7)  # U e_0 = s0 (1, 1)/sqrt 2
    assert got.shape == (7,) and np.allclose(got, 1 / math.sqrt(2), rtol=0, atol=1e-15)
    # x = (1, 1, 0, 0)/4 (d = 4): peak of |H D x| is 2/4 whatever the signs: ||U x||_inf = 1/4
    got = l2.rotation_max_linf_float(np.array([[0.25, 0.25, 0.0, 0.0], [0.0, 0.0, 0.0, 0.125]]), rng, 9)
    assert np.allclose(got, 0.25, rtol=0, atol=1e-15)
    with pytest.raises(WrongTypeError):
        l2.rotation_max_linf_float(np.array([[1.0]]), np.random.RandomState(0), 3)


def test_rotation_max_linf_float_of_exact_rows_is_float64():
    rng = np.random.default_rng(3656)
    got = l2.rotation_max_linf_float([[F(1, 4), F(1, 4), F(0), F(0)]], rng, 3)
    assert got.dtype == np.float64 and got.tolist() == [0.25] * 3
