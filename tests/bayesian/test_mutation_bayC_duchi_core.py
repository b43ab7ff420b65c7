"""Mechanism 2 (Duchi et al.'s l2 sampler, BCDP paper Sec. 4) row by row, with scripted random draws.

The sampler draws, per row v_j, K ~ Bernoulli(e^a/(e^a+1)) and S ~ Bernoulli(1/2 + |v_j|/(2r)) by
inversion of ``rng.random`` (U uniform on the 2^-53 grid of [0, 1): K = [U < p]), then a Gaussian g_j,
and returns Z_j = B u_j with u_j = +-g_j/|g_j| in the hemisphere {z : (2K-1)(2S-1) z^T v_j > 0}
(docstring of ``_duchi_l2_core``); for v_j = 0 the sign is +1 and |Z_j| = B.

A scripted generator (``random`` and ``standard_normal`` return chosen values) fixes U and g, so the
side of Z_j is predicted by hand: Z_j^T v_j > 0 iff K == S.  The Bernoulli thresholds are worked
out independently: 1/2 + |v|/(2r) = 3/4 exactly for |v| = r/2 (so U = 3/4 must give S = 0: P(U < 3/4)
= 3/4 exactly on the grid), and e^a/(e^a+1) in mpmath at 60 digits, U taken as the doubles just
below and just above it.  B is evaluated in mpmath from its closed form
r (e^a+1)/(e^a-1) sqrt(pi) Gamma((d+1)/2)/Gamma(d/2).  Input checks: integer arrays whose squares
or absolute values overflow their dtype must be measured as floats (|(-128, 0)| = 128), the radius
slack of 1e-12 (relative) is tested at exactly the slack and one float beyond, and the refused row
is named by its index.

Written to kill survivors of the mutation gate (benchmarks/mutation_gate.py).
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from bcdp.bayesian import mechanisms
from bcdp.core.errors import InvalidInputError


class ScriptedRng:
    """Duck-typed generator: ``random(n)`` returns the next scripted uniform block, ``standard_normal``
    the scripted Gaussian block (checked against the requested shape)."""

    def __init__(self, uniforms, normals):
        self.uniforms = [np.asarray(u, dtype=float) for u in uniforms]
        self.normals = np.asarray(normals, dtype=float)
        self.calls = []

    def random(self, n):
        u = self.uniforms.pop(0)
        assert u.shape == (n,)
        self.calls.append("random")
        return u.copy()

    def standard_normal(self, shape):
        assert tuple(shape) == self.normals.shape
        self.calls.append("standard_normal")
        return self.normals.copy()


def _b_unbiased(d, a, r):
    with mpmath.workdps(60):
        a = mpmath.mpf(a)
        return float(mpmath.mpf(r) * (mpmath.exp(a) + 1) / (mpmath.exp(a) - 1) * mpmath.sqrt(mpmath.pi)
                     * mpmath.gamma(mpmath.mpf(d + 1) / 2) / mpmath.gamma(mpmath.mpf(d) / 2))


def _side(z, v):
    return float(np.dot(z, v))


# -- the S draw: threshold exactly 3/4 -----------------------------------------------------------

def test_s_draw_at_exactly_three_quarters_is_zero():
    # v = (1/2, 0), r = 1: P(S = 1) = 1/2 + 1/4 = 3/4.  K: U = 0 < p -> K = 1.
    v = np.array([[0.5, 0.0]])
    g = [[0.6, 0.8]]                                  # g^T v = 0.3 > 0
    # U_S = 3/4: S = 0, K != S -> Z on the side z^T v < 0
    z = mechanisms.duchi_l2(v, 1.0, 1.0, ScriptedRng([[0.0], [0.75]], g))
    assert _side(z[0], v[0]) < 0
    # U_S just below 3/4: S = 1 = K -> z^T v > 0
    z = mechanisms.duchi_l2(v, 1.0, 1.0, ScriptedRng([[0.0], [np.nextafter(0.75, 0.0)]], g))
    assert _side(z[0], v[0]) > 0
    # |Z| = B either way (g has norm 1 here)
    assert float(np.linalg.norm(z[0])) == pytest.approx(_b_unbiased(2, 1.0, 1.0), rel=1e-13)


def test_s_draw_of_a_row_on_the_sphere_is_always_one():
    # |v| = r: P(S = 1) = 1; U_S = largest double below 1 still gives S = 1
    v = np.array([[0.0, 2.0]])
    g = [[1.0, -3.0]]                                 # g^T v = -6 < 0: reflected
    z = mechanisms.duchi_l2(v, 1.0, 2.0, ScriptedRng([[0.0], [np.nextafter(1.0, 0.0)]], g))
    assert _side(z[0], v[0]) > 0


# -- the K draw: threshold e^a/(e^a+1) ------------------------------------------------------------

def test_k_draw_inverts_the_keep_probability():
    a = 0.75
    with mpmath.workdps(60):
        p = mpmath.exp(mpmath.mpf(a)) / (mpmath.exp(mpmath.mpf(a)) + 1)   # 0.6791786991753930...
        below = float(p)
        if mpmath.mpf(below) > p:
            below = float(np.nextafter(below, 0.0))
        above = float(np.nextafter(below, 1.0))
        assert mpmath.mpf(below) < p < mpmath.mpf(above)
        # p sits 0.986 of a grid step above `below`: any evaluation of the threshold accurate to
        # better than 0.98 of a grid step rounds it to `above`
        assert (p - mpmath.mpf(below)) / (mpmath.mpf(above) - mpmath.mpf(below)) > 0.95
    v = np.array([[0.0, 1.0]])                        # r = 2: P(S=1) = 3/4; U_S = 0 -> S = 1
    g = [[0.5, 2.0]]                                  # g^T v = 2 > 0
    z = mechanisms.duchi_l2(v, a, 2.0, ScriptedRng([[below], [0.0]], g))
    assert _side(z[0], v[0]) > 0                      # U < p: K = 1 = S
    z = mechanisms.duchi_l2(v, a, 2.0, ScriptedRng([[above], [0.0]], g))
    assert _side(z[0], v[0]) < 0                      # U > p: K = 0 != S


# -- rows of norm 1 are not special; zero rows have sign +1 and |Z| = B ------------------------------

def test_row_of_norm_one_follows_its_hemisphere():
    # v = (1, 0), r = 2: P(S = 1) = 3/4; U_K = 0 -> K = 1; U_S = 0.9 -> S = 0: K != S -> z^T v < 0
    v = np.array([[1.0, 0.0], [0.0, -1.0]])
    g = [[0.3, -1.2], [2.0, 0.5]]                     # g^T v = 0.3 and -0.5
    z = mechanisms.duchi_l2(v, 1.0, 2.0, ScriptedRng([[0.0, 0.0], [0.9, 0.9]], g))
    assert _side(z[0], v[0]) < 0
    assert _side(z[1], v[1]) < 0
    s = mechanisms.duchi_l2_sum(v, 1.0, 2.0, ScriptedRng([[0.0, 0.0], [0.9, 0.9]], g))
    assert s.tolist() == pytest.approx((z[0] + z[1]).tolist(), rel=1e-15)


def test_zero_row_lands_on_the_sphere_of_radius_b():
    b = _b_unbiased(3, 1.5, 2.0)
    rng = np.random.default_rng(7)
    x = np.zeros((50, 3))
    z = mechanisms.duchi_l2(x, 1.5, 2.0, rng)
    assert np.linalg.norm(z, axis=1) == pytest.approx(np.full(50, b), rel=1e-13)
    # scripted: K != S for a zero row still gives sign +1: Z = B g/|g|
    g = [[3.0, 0.0, 4.0]]
    z = mechanisms.duchi_l2(np.zeros((1, 3)), 1.5, 2.0, ScriptedRng([[0.99], [0.0]], g))
    assert z[0].tolist() == pytest.approx([b * 0.6, 0.0, b * 0.8], rel=1e-13)
    s = mechanisms.duchi_l2_sum(np.zeros((2, 3)), 1.5, 2.0,
                                ScriptedRng([[0.99, 0.0], [0.0, 0.99]], [[3.0, 0.0, 4.0], [0.0, 5.0, 0.0]]))
    assert s.tolist() == pytest.approx([b * 0.6, b, b * 0.8], rel=1e-13)


# -- input checks ------------------------------------------------------------------------------------

def test_radius_slack_boundary():
    # a row of norm exactly r (1 + 1e-12) is accepted (sqrt(x^2) = |x| in binary floating point);
    # the next float is refused
    r = 1.0
    edge = r * (1 + 1e-12)
    z = mechanisms.duchi_l2(np.array([[edge]]), 1.0, r, np.random.default_rng(1))
    assert abs(float(z[0, 0])) == pytest.approx(_b_unbiased(1, 1.0, r), rel=1e-13)
    with pytest.raises(InvalidInputError, match=r"^row 0 has l2 norm"):
        mechanisms.duchi_l2(np.array([[np.nextafter(edge, 2.0)]]), 1.0, r, np.random.default_rng(1))


def test_refused_row_is_named_by_its_index():
    x = np.array([[0.1, 0.0], [0.0, 0.2], [3.0, 4.0], [9.0, 0.0]])
    with pytest.raises(InvalidInputError, match=r"^row 2 has l2 norm 5\.0 > radius 1\.0$"):
        mechanisms.duchi_l2(x, 1.0, 1.0, np.random.default_rng(0))
    with pytest.raises(InvalidInputError, match=r"^row 2 has l2 norm 5\.0 > radius 1\.0$"):
        mechanisms.duchi_l2_sum(x, 1.0, 1.0, np.random.default_rng(0))


def test_integer_rows_are_measured_as_floats():
    # int8: (-128)^2 wraps to 0 in int8 arithmetic; the norm of (-128, 0) is 128 > 1
    x = np.array([[0, 1], [-128, 0]], dtype=np.int8)
    with pytest.raises(InvalidInputError, match=r"^row 1 has l2 norm 128\.0 > radius 1"):
        mechanisms.duchi_l2(x, 1.0, 1.0, np.random.default_rng(0))
    # int64: 3e9^2 + 4e9^2 = 2.5e19 overflows int64; the norm is 5e9 > 4.9e9
    x = np.array([[3_000_000_000, 4_000_000_000]], dtype=np.int64)
    with pytest.raises(InvalidInputError, match=r"^row 0 has l2 norm 5000000000\.0 > radius"):
        mechanisms.duchi_l2(x, 1.0, 4.9e9, np.random.default_rng(0))
    # Python ints beyond int64 are read as floats too
    with pytest.raises(InvalidInputError, match=r"^row 0 has l2 norm 1e\+30 > radius"):
        mechanisms.duchi_l2([[10 ** 30, 0]], 1.0, 1.0, np.random.default_rng(0))


def test_m_mean_box_check_on_integer_input():
    # |-128| = 128 > 1 although np.abs wraps it to -128 in int8; c = (0) runs no stage at all
    x = np.array([[-128]], dtype=np.int8)
    with pytest.raises(InvalidInputError, match=r"^x must lie in \[-1, 1\]\^d$"):
        mechanisms.m_mean(x, [0.0], np.random.default_rng(0))
    x = np.array([[np.iinfo(np.int64).min, 0]], dtype=np.int64)
    with pytest.raises(InvalidInputError, match=r"^x must lie in \[-1, 1\]\^d$"):
        mechanisms.m_mean(x, [0.0, 0.0], np.random.default_rng(0))
    # integer input inside the box is fine: no stage runs, the estimate is 0
    assert mechanisms.m_mean(np.array([[1, -1]], dtype=np.int8), [0.0, 0.0],
                             np.random.default_rng(0)).tolist() == [[0.0, 0.0]]
