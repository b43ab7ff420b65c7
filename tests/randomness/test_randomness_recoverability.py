"""bcdp.randomness.recoverability against oracles written here: the joint law of (X, U, Y) enumerated with
Fractions, the shift channel from (F.20), trimming from (F.36), and mpmath (50 digits) mutual information."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction as F

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bcdp.core.errors import FloatRefusedError, InvalidInputError
from bcdp.randomness import recoverability as rec


def _joint_channel(f, q):
    """Q(y|x) from the joint enumeration of (x, u), output-major (a different loop order than the library)."""
    m = 1 + max(max(r) for r in f)
    return tuple(tuple(sum((q[u] for u in range(len(q)) if f[x][u] == y), F(0)) for y in range(m))
                 for x in range(len(f)))


def _recoverable(f, q):
    """Oracle: no (y, u) with q_u > 0 is reached from two inputs."""
    seen = {}
    for x, row in enumerate(f):
        for u, y in enumerate(row):
            if q[u] and seen.setdefault((y, u), x) != x:
                return False
    return True


def _random_instance(rng):
    k, u, m = rng.randint(1, 4), rng.randint(1, 4), rng.randint(1, 5)
    f = tuple(tuple(rng.randrange(m) for _ in range(u)) for _ in range(k))
    w = [rng.randint(0, 4) for _ in range(u)]
    if not sum(w):
        w[0] = 1
    return f, tuple(F(x, sum(w)) for x in w)


def test_channel_and_recoverability_match_the_joint_enumeration():
    rng = random.Random(11)
    for _ in range(400):
        f, q = _random_instance(rng)
        assert rec.induced_channel(f, q) == _joint_channel(f, q)
        assert rec.is_recoverable(f, q) == _recoverable(f, q)


def test_ldp_rec_both_sides_of_the_ratio():
    q = (F(1, 6), F(1, 3), F(1, 2))
    f = rec.shift_mechanism(3)
    assert rec.is_ldp_rec(f, q, 3) and not rec.is_ldp_rec(f, q, F(2999, 1000))
    # recoverable but not private (a zero against a non-zero), and private but not recoverable
    assert rec.ldp_ratio(rec.induced_channel(((0, 1), (1, 2)), (F(1, 2), F(1, 2)))) == float("inf")
    assert not rec.is_ldp_rec(((0, 0), (0, 0)), (F(1, 2), F(1, 2)), 1)
    assert rec.ldp_ratio(rec.induced_channel(((0, 0), (0, 0)), (F(1, 2), F(1, 2)))) == 1


def test_shift_channel_is_f20():
    q = (F(1, 10), F(2, 10), F(3, 10), F(4, 10))
    chan = rec.shift_channel(q)
    for x, y in itertools.product(range(4), repeat=2):
        u = next(u for u in range(4) if (x + u) % 4 == y)  # y = x (+) u
        assert chan[x][y] == q[u]
    assert chan == rec.induced_channel(rec.shift_mechanism(4), q)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 9), min_size=2, max_size=5), st.integers(0, 3))
def test_lemma751_condition_is_the_ldp_rec_decision(weights, delta):
    q = tuple(F(w, sum(weights)) for w in weights)
    ratio = max(q) / min(q)
    for e in (ratio, ratio + F(delta, 7), max(F(1), ratio - F(1, 97))):
        assert rec.lemma751_condition(q, e) == rec.is_ldp_rec(rec.shift_mechanism(len(q)), q, e) == (ratio <= e)


def test_trim_matches_f36_and_keeps_order():
    q = (F(1, 4), F(1, 8), F(1, 2), F(1, 8))
    # the last of the minima goes; q'_j = q_j/(1 - q_min)
    assert rec.trim_least_likely(q) == (F(2, 7), F(1, 7), F(4, 7))
    assert rec.trim_least_likely((F(0), F(1))) == (F(1),)


def test_reduce_column_and_reduce_key():
    q = tuple(F(w, 21) for w in (6, 5, 4, 3, 2, 1))
    out = rec.reduce_column(q, [[5], [1, 2], [0]], 3)
    assert out["q_tilde"] == (F(1, 21), F(9, 21), F(6, 21), F(3, 21), F(2, 21))
    assert out["q_prime"] == (F(9, 18), F(6, 18), F(3, 18))
    with pytest.raises(InvalidInputError, match="disjoint"):
        rec.reduce_column(q, [[0], [0, 1], [2]], 3)
    # a 3-key mechanism on 2 inputs: the reduced key lives on [2] and has ratio <= the mechanism's
    f = ((0, 1, 1), (1, 0, 0))
    q3 = (F(1, 2), F(1, 4), F(1, 4))
    assert rec.is_ldp_rec(f, q3, 1)
    assert rec.reduce_key(f, q3) == (F(1, 2), F(1, 2))
    with pytest.raises(InvalidInputError, match="not recoverable"):
        rec.reduce_key(((0, 0), (0, 1)), (F(1, 2), F(1, 2)))


def _mutual_information(chan, p):
    k, m = len(chan), len(chan[0])
    py = [mpmath.fsum(p[x] * chan[x][y] for x in range(k)) for y in range(m)]
    return mpmath.fsum(p[x] * chan[x][y] * mpmath.log(chan[x][y] / py[y])
                       for x in range(k) for y in range(m) if chan[x][y] > 0)


def test_shift_capacity_is_attained_by_the_uniform_input_and_not_exceeded():
    rng = random.Random(5)
    with mpmath.workdps(50):
        for _ in range(10):
            k = rng.randint(2, 5)
            w = [rng.randint(1, 9) for _ in range(k)]
            q = tuple(F(x, sum(w)) for x in w)
            chan = [[mpmath.mpf(v.numerator) / v.denominator for v in row] for row in rec.shift_channel(q)]
            cap = rec.shift_capacity(q)
            at_uniform = _mutual_information(chan, [mpmath.mpf(1) / k] * k)
            assert mpmath.mpf(cap.lower.numerator) / cap.lower.denominator - mpmath.mpf(10) ** -30 <= at_uniform
            assert at_uniform <= mpmath.mpf(cap.upper.numerator) / cap.upper.denominator + mpmath.mpf(10) ** -30
            for _ in range(5):
                p = [mpmath.mpf(rng.random()) for _ in range(k)]
                p = [v / sum(p) for v in p]
                assert _mutual_information(chan, p) <= at_uniform + mpmath.mpf(10) ** -30
    bits = rec.shift_capacity((F(1, 4), F(3, 4)), "bits")
    # capacity of the shift channel = log2 k - H(q) (uniform input), H2(1/4) = 1/4 log2 4 + 3/4 log2(4/3)
    assert abs(float(bits.lower) - (1 - (0.25 * 2 + 0.75 * math.log2(4 / 3)))) < 1e-15


def test_bad_inputs():
    with pytest.raises(FloatRefusedError):
        rec.is_ldp_rec(rec.shift_mechanism(2), (0.5, 0.5), 2)
    with pytest.raises(FloatRefusedError):
        rec.is_ldp_rec(rec.shift_mechanism(2), (F(1, 2), F(1, 2)), 2.0)
    with pytest.raises(InvalidInputError, match="e_eps"):
        rec.is_ldp_rec(rec.shift_mechanism(2), (F(1, 2), F(1, 2)), F(1, 2))
    with pytest.raises(InvalidInputError, match="sums to"):
        rec.induced_channel(((0, 1),), (F(1, 2), F(1, 3)))
    with pytest.raises(InvalidInputError, match="equal length"):
        rec.induced_channel(((0, 1), (0,)), (F(1, 2), F(1, 2)))
    with pytest.raises(InvalidInputError, match="key columns"):
        rec.induced_channel(((0, 1, 2),), (F(1, 2), F(1, 2)))
    with pytest.raises(InvalidInputError, match="non-negative int"):
        rec.induced_channel(((0, -1),), (F(1, 2), F(1, 2)))
    with pytest.raises(InvalidInputError, match="at least 2"):
        rec.trim_least_likely((F(1),))
    with pytest.raises(InvalidInputError, match="k must be"):
        rec.shift_mechanism(0)
    with pytest.raises(InvalidInputError, match="unit"):
        rec.key_entropy((F(1, 2), F(1, 2)), "hartleys")
