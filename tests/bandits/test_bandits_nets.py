"""zeta-nets (thesis Lemma 6.3.1) and the batch growth q (Alg 6.3.1 step 3): covering/separation by
brute-force distances, span, the printed size bound, validity conditions, bad inputs."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from bcdp.bandits import nets
from bcdp.core.errors import FloatRefusedError, InvalidInputError, ValidityConditionError, WrongTypeError


@pytest.mark.parametrize("d,zeta", [(2, 0.3), (3, 0.4), (3, 1.0)])
def test_float_net_covers_is_separated_and_spans(d, zeta):
    rng = np.random.default_rng(d * 100 + int(zeta * 10))
    x = rng.normal(size=(1500, d))
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    idx = nets.zeta_net_float(x, zeta)
    dist = np.sqrt(((x[:, None, :] - x[idx][None, :, :]) ** 2).sum(-1))
    assert dist.min(axis=1).max() <= zeta
    assert np.linalg.matrix_rank(x[idx]) == d
    assert len(idx) <= (1 + 2 / zeta) ** d + d <= (3 / zeta) ** d + d
    greedy = idx[: len(idx) - d] if len(idx) > d else idx[:1]
    pd = np.sqrt(((x[greedy][:, None] - x[greedy][None]) ** 2).sum(-1)) + np.eye(len(greedy)) * 10
    assert pd.min() > zeta  # the greedy part is zeta-separated


def test_span_completion_on_a_clustered_set():
    # all points near e1 except one: zeta = 1 covers everything with one centre, which does not span
    x = np.array([[1.0, 0.0], [0.99, 0.141], [0.98, -0.199], [0.6, 0.8]])
    idx = nets.zeta_net_float(x, 1.0)
    assert np.linalg.matrix_rank(x[idx]) == 2 and len(idx) == 2
    assert nets.zeta_net_exact([[1, 0], ["3/5", "4/5"]], 3) == [0, 1]


def test_exact_net_covering_by_enumeration():
    pts = [[Fraction(2 * t, t * t + 1), Fraction(t * t - 1, t * t + 1)] for t in [Fraction(k, 3) for k in range(-9, 10)]]
    for zeta in (Fraction(1, 2), Fraction(1, 5)):
        net = nets.zeta_net_exact(pts, zeta)
        for p in pts:
            assert min(sum((a - b) ** 2 for a, b in zip(p, pts[j])) for j in net) <= zeta ** 2
        assert len(net) <= (3 / zeta) ** 2 + 2


def test_size_bound_validity():
    assert nets.net_size_bound(1, 2) == 11 and nets.net_size_bound("1/2", 3) == 219
    with pytest.raises(ValidityConditionError):
        nets.net_size_bound("11/10", 2)


def test_batch_growth_interval_and_boundary():
    with mpmath.workdps(50):
        for T in (2, 5, 100, 10 ** 9):
            q = mpmath.mpf(str(nets.batch_growth(T).evalf(60)))
            assert mpmath.e < q <= mpmath.e ** 2 * (1 + mpmath.mpf(10) ** -40)
            assert abs(nets.batch_growth_float(T) - float(q)) < 1e-12 * float(q)
    assert abs(nets.batch_growth_float(2) - math.e ** 2) < 1e-12
    with pytest.raises(ValidityConditionError):
        nets.batch_growth("199/100")
    with pytest.raises(ValidityConditionError):
        nets.batch_growth_float(1.5)


def test_bad_inputs():
    with pytest.raises(WrongTypeError):
        nets.zeta_net_float([[1.0, 0.0]], 0.5)
    with pytest.raises(InvalidInputError, match="zeta"):
        nets.zeta_net_float(np.eye(2), 0.0)
    with pytest.raises(InvalidInputError, match="finite"):
        nets.zeta_net_float(np.array([[np.inf, 0.0]]), 0.5)
    with pytest.raises(FloatRefusedError):
        nets.zeta_net_exact([[0.5, 0.5]], 1)
    with pytest.raises(InvalidInputError, match="same dimension"):
        nets.zeta_net_exact([[1, 0], [1]], 1)
