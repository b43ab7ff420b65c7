"""R^Bin_{v,s} / A^Bin (thesis Algs 3.3.1-3.3.2, Thm 3.3.1, eq. (3.10)) against an independent brute force:
dense estimate vectors over every choice of coordinates and flips (Fractions), pairwise LDP ratios,
mpmath at 60 digits for the logarithms, and a seeded chi-square test (alpha = 1e-6) of the sampler."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import mpmath
import numpy as np
import pytest
from bcdp.core.errors import (
    FloatRefusedError,
    InvalidInputError,
    ValidityConditionError,
    WrongTypeError,
)
from bcdp.dme import binary_vector as bv
from scipy import stats

T = F(2)                      # per-message budget v/s = t - 1/t = 3/2, p = 1/(1 + t^2) = 1/5


def oracle(b, d, s, p):
    """Every (coords, flips) outcome with its probability and the dense padded estimate."""
    a = -(-d // s)
    bp = list(b) + [0] * (s * a - d)
    out = []
    for coords in itertools.product(*[range(j * a, (j + 1) * a) for j in range(s)]):
        for flips in itertools.product((0, 1), repeat=s):
            w = F(1, a ** s)
            est = [F(0)] * (s * a)
            for c, g in zip(coords, flips):
                w *= p if g else 1 - p
                sent = bp[c] ^ g
                est[c] += a * (sent - p) / (1 - 2 * p)
            out.append((coords, flips, w, est))
    return out, bp, a


def grid():
    for d in range(1, 6):
        for s in range(1, d + 1):
            yield d, s


def some_inputs(d):
    allb = list(itertools.product((0, 1), repeat=d))
    return allb if d <= 3 else allb[::3] + [(1,) * d]


@pytest.mark.parametrize("d,s", list(grid()))
def test_law_mean_and_mse_against_brute_force(d, s):
    v = s * (T - 1 / T)
    params = bv.binary_vector_params(d, s, v=v)
    p = F(1, 5)
    assert params.p == p and params.a == -(-d // s)
    V = p * (1 - p) / (1 - 2 * p) ** 2
    for b in some_inputs(d):
        outcomes, bp, a = oracle(b, d, s, p)
        law = bv.message_law(b, params)
        assert sum(law.values()) == 1
        # same law: map each oracle outcome to the message it sends
        mine: dict = {}
        for coords, flips, w, est in outcomes:
            key = tuple((c, est[c]) for c in coords)
            mine[key] = mine.get(key, F(0)) + w
        assert law == mine
        mean = [sum(w * est[k] for *_, w, est in outcomes) for k in range(s * a)]
        assert mean == bp                                              # (3.9), padded
        assert bv.client_mean(b, params) == tuple(bp[:d])
        assert bv.client_mean(b, params, truncate=False) == tuple(bp)
        mse_pad = sum(w * sum((e - x) ** 2 for e, x in zip(est, bp)) for *_, w, est in outcomes)
        mse_real = sum(w * sum((e - x) ** 2 for e, x in zip(est[:d], bp[:d])) for *_, w, est in outcomes)
        assert bv.client_mse(b, params, truncate=False) == mse_pad
        assert bv.client_mse(b, params) == mse_real
        assert bv.mse_equality_310(b, params) == mse_pad                # (3.10) equality
        assert bv.mse_truncated(b, params) == mse_real
        assert mse_pad == s * a * a * V + (a - 1) * sum(b)
        # padded-dimension bound of (3.10): equality iff b = 1_d (then ||b||^2 = d = sa) or a = 1
        # (s = d: the sampling term (a-1)||b||^2 vanishes)
        bound_pad = bv.mse_bound_310(s * a, s, v)
        assert mse_pad <= bound_pad
        assert (mse_pad == bound_pad) == (a == 1 or sum(b) == s * a)
        if d % s == 0:
            assert mse_real == mse_pad
            assert (mse_real == bv.mse_bound_310(d, s, v)) == (a == 1 or sum(b) == d)


def test_bound_with_input_dimension_fails_when_s_does_not_divide_d():
    # erratum E-Thesis-3.10-padding: d = 3, s = 2, v/s = 3/2 -> a = 2, p = 1/5
    params = bv.binary_vector_params(3, 2, v=3)
    mse = bv.client_mse((1, 1, 1), params)
    assert mse == F(17, 3)                       # 3*2*(4/9) + (2-1)*3, by the brute force above
    assert mse > bv.mse_bound_310(3, 2, 3) == F(7, 2)
    assert mse <= bv.mse_bound_310(4, 2, 3)


@pytest.mark.parametrize("d,s", [(1, 1), (2, 1), (2, 2), (3, 2), (3, 3), (4, 3), (5, 4)])
def test_ldp_ratio_pairwise_brute_force(d, s):
    p = F(1, 5)
    params = bv.binary_vector_params(d, s, p=p)
    best = F(0)
    inputs = list(itertools.product((0, 1), repeat=d))
    laws = {}
    for b in inputs:
        law: dict = {}
        for coords, flips, w, est in oracle(b, d, s, p)[0]:
            key = tuple((c, est[c]) for c in coords)
            law[key] = law.get(key, F(0)) + w
        laws[b] = law
    for b, c in itertools.permutations(inputs, 2):
        for y, w in laws[b].items():
            best = max(best, w / laws[c][y])
    if d == 1:
        best = max(best, F(1))
    assert bv.ldp_ratio(params) == best == bv.ldp_ratio_closed_form(params)
    a = -(-d // s)
    k = len({c // a for c in range(d)})        # blocks holding a real coordinate
    assert best == ((1 - p) / p) ** k
    # eps = k log 4 < v = s * 3/2 (mpmath, 60 digits); equality never holds
    with mpmath.workdps(60):
        assert k * mpmath.log(4) < s * mpmath.mpf(3) / 2


def test_padding_only_block_is_input_independent():
    params = bv.binary_vector_params(5, 4, p=F(1, 5))
    assert bv.ldp_ratio(params) == 4 ** 3 != 4 ** 4


def test_communication_bits():
    for d in range(1, 40):
        for s in range(1, d + 1):
            a = -(-d // s)
            c = 0
            while 2 ** c < a:
                c += 1
            assert bv.communication_bits(d, s) == s * (c + 1)
    assert bv.communication_bits(8, 2) == 2 * 3
    with pytest.raises(ValidityConditionError):
        bv.communication_bits(3, 4)


def test_aggregator_two_clients_exact():
    d, s, p = 3, 2, F(1, 5)
    params = bv.binary_vector_params(d, s, p=p)
    b1, b2 = (1, 0, 1), (0, 1, 1)
    l1, l2 = bv.message_law(b1, params), bv.message_law(b2, params)
    mean = [F(0)] * d
    mse = F(0)
    target = [F(x + y, 2) for x, y in zip(b1, b2)]
    for (m1, w1), (m2, w2) in itertools.product(l1.items(), l2.items()):
        est = bv.aggregate([m1, m2], params)
        mean = [x + w1 * w2 * e for x, e in zip(mean, est)]
        mse += w1 * w2 * sum((e - t) ** 2 for e, t in zip(est, target))
    assert mean == target
    assert mse == (bv.client_mse(b1, params) + bv.client_mse(b2, params)) / 4


def _code_counts(coords, sent, a, s):
    """Integer code of each sampled row: sum_j (local coordinate * 2 + sent bit) * (2a)^j."""
    local = coords - a * np.arange(s)[None, :]
    return (local * 2 + sent) @ np.array([(2 * a) ** j for j in range(s)])


def _message_code(msg, a, p):
    high = a * (1 - p) / (1 - 2 * p)
    return sum(((c - j * a) * 2 + (1 if y == high else 0)) * (2 * a) ** j for j, (c, y) in enumerate(msg))


@pytest.mark.parametrize("d,s,b", [(3, 2, (1, 0, 1)), (4, 2, (0, 1, 1, 0)), (2, 1, (1, 0))])
def test_sampler_chi_square_against_exact_law(d, s, b):
    rng = np.random.default_rng(331 + d)
    p = F(1, 5)
    params = bv.binary_vector_params(d, s, p=p)
    a = params.a
    n = 100_000
    coords, gamma, y = bv.sample_binary_vector(rng, np.tile(np.array(b), (n, 1)), s, "1/5")
    assert coords.shape == gamma.shape == y.shape == (n, s)
    bp = np.array(list(b) + [0] * (s * a - d))
    sent = np.where(gamma, 1 - bp[coords], bp[coords])
    assert np.allclose(y, a * (sent - float(p)) / (1 - 2 * float(p)))
    assert np.all((coords // a) == np.arange(s)[None, :])          # one coordinate per block
    codes = _code_counts(coords, sent, a, s)
    counts = np.bincount(codes, minlength=(2 * a) ** s)
    law = bv.message_law(b, params)
    probs = np.zeros((2 * a) ** s)
    for msg, w in law.items():
        probs[_message_code(msg, a, p)] += float(w)
    assert abs(probs.sum() - 1) < 1e-12 and (probs > 0).all()
    assert stats.chisquare(counts, n * probs).pvalue > 1e-6          # false-failure rate 1e-6
    # the same counts reject a deliberately wrong law (another input's), so the test can fail
    wrong = np.zeros_like(probs)
    for msg, w in bv.message_law(tuple(1 - x for x in b), params).items():
        wrong[_message_code(msg, a, p)] += float(w)
    assert stats.chisquare(counts, n * wrong).pvalue < 1e-6


def test_aggregate_float_matches_exact_on_a_fixed_message():
    params = bv.binary_vector_params(3, 2, p=F(1, 5))
    coords = np.array([[0, 3], [1, 2]])
    ys = np.array([[2.0, -1.0], [0.5, 4.0]])
    got = bv.aggregate_float(coords, ys, 3, truncate=False)
    msgs = [((0, F(2)), (3, F(-1))), ((1, F(1, 2)), (2, F(4)))]
    assert np.allclose(got, [float(x) for x in bv.aggregate(msgs, params, truncate=False)])
    assert np.allclose(bv.aggregate_float(coords, ys, 3), [1.0, 0.25, 2.0])


def test_validity_and_types():
    bv.binary_vector_params(3, 3, p=0)
    with pytest.raises(ValidityConditionError):
        bv.binary_vector_params(3, 4, p=F(1, 5))
    with pytest.raises(InvalidInputError):
        bv.binary_vector_params(3, 0, p=F(1, 5))
    with pytest.raises(InvalidInputError):
        bv.binary_vector_params(3, 2)
    with pytest.raises(InvalidInputError):
        bv.binary_vector_params(3, 2, v=2)             # v/s = 1: irrational p
    with pytest.raises(FloatRefusedError):
        bv.binary_vector_params(3, 2, v=3.0)
    with pytest.raises(WrongTypeError):
        bv.binary_vector_params(3.0, 2, p=F(1, 5))
    params = bv.binary_vector_params(3, 2, v=3)
    with pytest.raises(InvalidInputError):
        bv.message_law((1, 0), params)
    with pytest.raises(InvalidInputError):
        bv.message_law((1, 0, 2), params)
    with pytest.raises(ValidityConditionError):
        bv.sample_binary_vector(np.random.default_rng(0), np.zeros((2, 3), dtype=int), 4, 0.2)
