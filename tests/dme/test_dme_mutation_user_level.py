"""Mutation-gate tests of :mod:`bcdp.dme.user_level` (thesis Sec. 3.7, Algs 3.7.1-3.7.4).

Oracles are independent of the code under test: the Sylvester entries h(i, j) = (-1)^popcount(i & j)
written here, the bin midpoints a_j = -B + (2j + 1) tau and the nearest bin by brute force, the
message law of Alg 3.7.1 ((3.13) with r1 = 1) and the second stage of Alg 3.7.4 worked out in
Fractions.  The float sampler :func:`mean_scalar_float` is checked (i) on its support, exactly: with
one user, x_hat = a_max + s 3 tau c for a bin midpoint a_max and a sign s, and (ii) on its law: the
joint law of (a_max, s) is enumerated exactly for n = 1 (argmax of z_bar = s c H_k(j), ties to the
lower index) and every cell count is compared with an exact two-sided binomial test at level
ALPHA / (number of cells) (union bound: the whole test fails falsely with probability <= ALPHA = 1e-6),
fixed seeds.
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import numpy as np
import pytest
from bcdp.core.errors import FloatRefusedError, InvalidInputError, WrongTypeError
from bcdp.dme import user_level as ul
from scipy.stats import binomtest

ALPHA = 1e-6


def h(i: int, j: int) -> int:
    return -1 if bin(i & j).count("1") % 2 else 1


def mids(B: F, tau: F) -> list[F]:
    return [-B + (2 * j + 1) * tau for j in range(int(B / tau))]


def nearest(y: F, B: F, tau: F) -> int:
    m = mids(B, tau)
    best = min(abs(y - a) for a in m)
    return min(j for j, a in enumerate(m) if abs(y - a) == best)


# -- exact stage: Range^user output, Range_scalar, the second stage ----------------------------------

@pytest.mark.parametrize("k, E", [(2, F(3)), (4, F(2)), (8, F(7, 5))])
def test_range_user_output_is_s_c_times_the_hadamard_column(k, E):
    c = (E + 1) / (E - 1)
    for j in range(k):
        for s in (1, -1):
            assert ul.range_user_output((j, s), k, E) == tuple(s * c * h(j, i) for i in range(k))
    with pytest.raises(InvalidInputError):
        ul.range_user_output((0, 1), k, 1)  # E = e^eps must be > 1


def test_argmax_lowest_breaks_ties_to_the_lowest_index():
    assert ul._argmax_lowest([F(1), F(3), F(3), F(2)]) == 1
    assert ul._argmax_lowest((5, 1, 5)) == 0
    assert ul._argmax_lowest([F(-1), F(-2), F(0)]) == 2


@pytest.mark.parametrize("B, tau", [(F(2), F(1, 2)), (F(16), F(2))])
def test_range_from_messages_has_length_six_tau(B, tau):
    """tau != 1 separates 3 tau from 3 / tau; the message (0, +1) makes every entry of z_bar equal
    (H_k(0) = 1), so a_max is the lowest midpoint."""
    E = F(3)
    k = int(B / tau)
    a0 = -B + tau
    assert ul.range_from_messages([(0, 1)], B, tau, E) == (a0 - 3 * tau, a0 + 3 * tau)
    # (1, -1): z_bar(a) = -c h(1, a), maximal first at a = 1
    a1 = -B + 3 * tau
    assert ul.range_from_messages([(1, -1)], B, tau, E) == (a1 - 3 * tau, a1 + 3 * tau)
    assert k >= 4


def test_range_messages_and_names_in_error_messages():
    with pytest.raises(InvalidInputError, match="a < b"):
        ul.project(F(1), 1, 1)  # a == b is refused (an empty interval of length 0)
    assert ul.project(F(5), 0, F(1, 1000)) == F(1, 1000)
    for bad, name in ((dict(a=0.5, b=1), "a"), (dict(a=0, b=0.5), "b")):
        with pytest.raises(FloatRefusedError) as exc:
            ul.project(F(0), bad["a"], bad["b"])
        assert str(exc.value).startswith(f"{name}: floats are refused")
    with pytest.raises(FloatRefusedError) as exc:
        ul.project(0.25, 0, 1)
    assert str(exc.value).startswith("y: floats are refused")
    for fn in (ul.second_stage_law, ul.second_stage_mse):
        with pytest.raises(FloatRefusedError) as exc:
            fn(0.25, 0, 1, 3)
        assert str(exc.value).startswith("y_tilde: floats are refused")


@pytest.mark.parametrize("a, b, E", [(F(-1), F(2), F(3)), (F(0), F(6), F(5, 2))])
def test_second_stage_output_is_o_plus_s_h_c(a, b, E):
    o, hh, c = (a + b) / 2, (b - a) / 2, (E + 1) / (E - 1)
    assert ul.second_stage_output(1, a, b, E) == o + hh * c
    assert ul.second_stage_output(-1, a, b, E) == o - hh * c


# -- float twin: Mean_scalar ---------------------------------------------------------------------------

B_, TAU_, EH_ = F(2), F(1, 2), F(5, 2)  # k = 4, c = 7/3, h = 3 tau = 3/2


def _joint_law_one_user(y: F, B: F, tau: F, Eh: F) -> dict[tuple[int, int], F]:
    """Exact law of (a_max index, second-stage sign) of Mean_scalar with n = 1 user of mean y."""
    k = int(B / tau)
    c = (Eh + 1) / (Eh - 1)
    nu = nearest(y, B, tau)
    m = mids(B, tau)
    hh = 3 * tau
    law: dict[tuple[int, int], F] = {(a, sign): F(0) for a in range(k) for sign in (1, -1)}
    for j in range(k):
        for s in (1, -1):
            q = F(1, k) * (F(1, 2) + s * F(h(j, nu)) / (2 * c))
            z = [s * h(j, a) for a in range(k)]
            a = min(i for i in range(k) if z[i] == max(z))
            yt = min(m[a] + hh, max(m[a] - hh, y))
            p_plus = F(1, 2) + (yt - m[a]) / (2 * hh * c)
            for sign, ps in ((1, p_plus), (-1, 1 - p_plus)):
                law[(a, sign)] += q * ps
    return law


def _support(B: F, tau: F, Eh: F) -> dict[tuple[int, int], float]:
    c = (Eh + 1) / (Eh - 1)
    return {(a, s): float(mid + s * 3 * tau * c) for a, mid in enumerate(mids(B, tau)) for s in (1, -1)}


def _classify(values: np.ndarray, support: dict) -> list[tuple[int, int]]:
    keys = list(support)
    pts = np.array([support[key] for key in keys])
    idx = np.argmin(np.abs(values[:, None] - pts[None, :]), axis=1)
    assert np.all(np.abs(values - pts[idx]) <= 1e-9), "an output is outside {a_j +- 3 tau c}"
    return [keys[i] for i in idx]


@pytest.mark.parametrize("y, seed", [(F(2), 3731), (F(-2), 3732)])
def test_mean_scalar_float_one_user_joint_law_is_exact(y, seed):
    """n = 1 user with m = 1 sample y (y = +-B: clipped by the far ranges on either side).  The output
    determines (a_max, s); the 8 cells are compared with the exact law by exact binomial tests."""
    law = _joint_law_one_user(y, B_, TAU_, EH_)
    assert len(law) == 8 and sum(law.values()) == 1
    support = _support(B_, TAU_, EH_)
    assert len(set(support.values())) == 8  # distinct points: the output identifies the cell
    rng = np.random.default_rng(seed)
    R = 20_000
    sample = np.array([[float(y)]])
    vals = np.array([ul.mean_scalar_float(sample, float(B_), float(TAU_), float(EH_), rng) for _ in range(R)])
    cells = _classify(vals, support)
    counts = {key: 0 for key in law}
    for cell in cells:
        counts[cell] += 1
    for key, p in law.items():
        if p == 0:
            assert counts[key] == 0, key
        else:
            assert binomtest(counts[key], R, float(p)).pvalue >= ALPHA / len(law), (key, counts[key], R * float(p))


def test_mean_scalar_float_users_signs_are_independent():
    """Two users with the same mean: given a_max, P[s1 != s2] = 2 p (1 - p) with p in
    [1/2 - 1/(2c), 1/2 + 1/(2c)] = [2/7, 5/7] (c = 7/3), so >= 20/49 whatever a_max is; then
    x_hat = a_max exactly (a bin midpoint; the other outputs a_max +- 3 tau c are not midpoints).
    One-sided exact binomial test at level ALPHA."""
    rng = np.random.default_rng(3733)
    R = 2000
    sample = np.array([[0.25], [0.25]])
    vals = np.array([ul.mean_scalar_float(sample, float(B_), float(TAU_), float(EH_), rng) for _ in range(R)])
    m = np.array([float(v) for v in mids(B_, TAU_)])
    middle = int(np.sum(np.min(np.abs(vals[:, None] - m[None, :]), axis=1) <= 1e-9))
    assert binomtest(middle, R, 20 / 49, alternative="less").pvalue >= ALPHA


def test_mean_scalar_float_support_at_small_E_half():
    """E_half = 3/2 (in (1, 2]): every output of one user is a_j +- 3 tau c, c = 5."""
    rng = np.random.default_rng(3734)
    support = _support(F(4), F(1), F(3, 2))
    vals = np.array([ul.mean_scalar_float(np.array([[1.0, 3.0]]), 4, 1, 1.5, rng) for _ in range(200)])
    cells = _classify(vals, support)
    assert len(set(cells)) >= 2


def test_mean_scalar_float_accepts_exact_rationals_like_their_floats():
    rows = [[F(1, 2), F(-3, 4)], [F(2), F(0)]]
    a = ul.mean_scalar_float(rows, 2, F(1, 2), 3, np.random.default_rng(5))
    b = ul.mean_scalar_float(np.array([[0.5, -0.75], [2.0, 0.0]]), 2, 0.5, 3.0, np.random.default_rng(5))
    assert a == b


def test_mean_scalar_float_refuses_bad_samples_and_E_half():
    rng = np.random.default_rng(0)
    with pytest.raises(InvalidInputError, match=r"finite \(n, m\) array"):
        ul.mean_scalar_float(np.array([[0.5, np.nan]]), 4, 1, 3, rng)
    with pytest.raises(InvalidInputError, match=r"finite \(n, m\) array"):
        ul.mean_scalar_float(np.array([0.5, 0.25]), 4, 1, 3, rng)
    with pytest.raises(InvalidInputError, match=r"finite \(n, m\) array"):
        ul.mean_scalar_float(np.zeros((0, 2)), 4, 1, 3, rng)
    with pytest.raises(InvalidInputError, match=r"^E_half must be > 1, got 1.0$"):
        ul.mean_scalar_float(np.array([[0.5]]), 4, 1, 1, rng)
    with pytest.raises(InvalidInputError) as exc:
        ul.mean_scalar_float(np.array([[0.5]]), 4, 1, "e", rng)
    assert str(exc.value).startswith("E_half: ")
    with pytest.raises(WrongTypeError) as exc:
        ul.mean_scalar_float(np.array([[0.5]]), 4, 1, True, rng)
    assert str(exc.value).startswith("E_half: ")
