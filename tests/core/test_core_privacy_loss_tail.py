"""bcdp.core.divergences.privacy_loss_tail_exact: P{L > eps} for Y ~ P, against the privacy loss
computed with 50-digit logarithms, its relation to the hockey-stick (thesis Sec. 2.1.1, after
Def. 2.1.2), and bad inputs."""

from __future__ import annotations

import random
from fractions import Fraction

import mpmath
import pytest
from bcdp.core import divergences
from bcdp.core.errors import FloatRefusedError, InvalidInputError


def _law(rng, m):
    cuts = sorted(rng.sample(range(1, 20), m - 1))
    return [Fraction(b - a, 20) for a, b in zip([0] + cuts, cuts + [20])]


def _tail_by_logs(P, Q, r):
    with mpmath.workdps(50):
        le = mpmath.log(mpmath.mpf(r.numerator) / r.denominator) if r > 0 else -mpmath.inf
        out = Fraction(0)
        for p, q in zip(P, Q):
            if p == 0:
                continue
            loss = mpmath.inf if q == 0 else mpmath.log(mpmath.mpf(p.numerator) / p.denominator) - mpmath.log(
                mpmath.mpf(q.numerator) / q.denominator)
            if loss > le:
                out += p
        return out


@pytest.mark.parametrize("seed", range(5))
def test_tail_matches_the_privacy_loss_with_logs_and_bounds_the_hockey_stick(seed):
    rng = random.Random(seed)
    for _ in range(20):
        m = rng.randint(2, 5)
        P, Q = _law(rng, m), _law(rng, m)
        for r in (Fraction(0), Fraction(1), Fraction(7, 5), Fraction(3)):
            t = divergences.privacy_loss_tail_exact(P, Q, r)
            assert t == _tail_by_logs(P, Q, r)
            assert divergences.hockey_stick_exact(P, Q, r) <= t


def test_edges():
    P, Q = [Fraction(1, 2), Fraction(1, 2), 0], [0, Fraction(1, 2), Fraction(1, 2)]
    assert divergences.privacy_loss_tail_exact(P, Q, 10 ** 9) == Fraction(1, 2)   # L = +inf on output 0
    assert divergences.privacy_loss_tail_exact(P, P, 1) == 0
    assert divergences.privacy_loss_tail_exact(P, Q, 0) == 1
    # strict inequality: the output with P = r Q does not count
    assert divergences.privacy_loss_tail_exact([Fraction(2, 3), Fraction(1, 3)], [Fraction(1, 3), Fraction(2, 3)], 2) == 0


@pytest.mark.parametrize("ratio,exc", [(1.5, FloatRefusedError), (-1, InvalidInputError)])
def test_bad_ratio(ratio, exc):
    with pytest.raises(exc) as info:
        divergences.privacy_loss_tail_exact([1, 0], [0, 1], ratio)
    assert "\n" not in str(info.value)
