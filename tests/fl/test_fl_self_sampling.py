"""bcdp.fl.self_sampling (thesis Sec. 4.4: dss-SGD, Claim 4.4.1, Lemma 4.4.2, App. C.3-C.4): exact
round laws against brute force (tests/fl_oracles.py), Pr[K_t = 0], unbiasedness given K_t > 0, the
printed (4.12) against (C.36), validity of q on both sides, bad inputs."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import pytest
from bcdp.core.errors import FloatRefusedError, InvalidInputError, ValidityConditionError
from bcdp.fl import self_sampling as ss
from fl_oracles import average, dss_outcomes, rr_kernel, sq

KER = rr_kernel(Fraction(1, 4))


@pytest.mark.parametrize("n,q", [(1, Fraction(1, 2)), (4, Fraction(1, 3)), (6, Fraction(9, 10)), (3, Fraction(1))])
def test_participation_law_by_counting_subsets(n, q):
    oracle = {k: Fraction(0) for k in range(n + 1)}
    for bits in itertools.product((0, 1), repeat=n):
        oracle[sum(bits)] += q ** sum(bits) * (1 - q) ** (n - sum(bits))
    assert ss.participation_law(n, q) == oracle
    p0 = ss.empty_probability(n, q)
    assert p0 == (1 - q) ** n and p0 <= math.exp(-float(q) * n) * (1 + 1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_round_matches_brute_force(seed):
    rng = random.Random(seed)
    n, m = rng.choice([(2, 2), (3, 2), (4, 1), (3, 3)])
    q = Fraction(rng.randint(1, 9), 10)
    D = tuple(tuple(rng.choice((-1, 1)) for _ in range(m)) for _ in range(n))
    mass, first, second = Fraction(0), Fraction(0), Fraction(0)
    for K, msgs, w in dss_outcomes(D, KER, q):
        if K:
            g = average(msgs)
            mass, first, second = mass + w, first + w * g[0], second + w * sq(g)
    grad = Fraction(sum(x for c in D for x in c), n * m)
    assert mass == 1 - (1 - q) ** n
    assert ss.mean_with_skip(D, KER, q) == (first,) == ((1 - (1 - q) ** n) * grad,)
    assert ss.mean_given_participation(D, KER, q) == (grad,)
    assert ss.second_moment(D, KER, q) == second
    fp = 1 / (1 - 2 * Fraction(1, 4)) ** 2 - 1
    assert second <= ss.c36_bound(1, fp, q, n) == 1 + 2 * fp / (q * n)


def test_printed_4_12_fails_by_more_than_one():
    """All gradients 1, p = 9/20 (f_p = 99), n = 6, m = 1, q = 1/2: E||g||^2 > L^2(1 + f_p/(qn)) + 1."""
    p = Fraction(9, 20)
    ker = rr_kernel(p)
    fp = 1 / (1 - 2 * p) ** 2 - 1
    assert fp == 99
    D = ((1,),) * 6
    E = sum((w * sq(average(msgs)) for K, msgs, w in dss_outcomes(D, ker, Fraction(1, 2)) if K), Fraction(0))
    assert ss.second_moment(D, ker, Fraction(1, 2)) == E
    assert ss.lemma442_printed_bound(1, fp, Fraction(1, 2), 6, 1) == 34
    assert E > 34 + 1
    assert E <= ss.c36_bound(1, fp, Fraction(1, 2), 6)


@pytest.mark.parametrize("q, ok", [(Fraction(1), True), (Fraction(1, 1000), True), (Fraction(0), False),
                                   (Fraction(11, 10), False), (Fraction(-1, 2), False)])
def test_q_validity_both_sides(q, ok):
    if ok:
        assert ss.check_q(q) == q
    else:
        with pytest.raises(ValidityConditionError):
            ss.check_q(q)


def test_bad_inputs():
    with pytest.raises(FloatRefusedError):
        ss.participation_law(3, 0.5)
    with pytest.raises(InvalidInputError) as info:
        ss.gradient_law(((1,),) * 11, KER, Fraction(1, 2))
    assert "\n" not in str(info.value)
    with pytest.raises(InvalidInputError):
        ss.c36_bound(-1, 1, Fraction(1, 2), 3)
    with pytest.raises(InvalidInputError):
        ss.gradient_law(((2,),), KER, Fraction(1, 2))


def test_output_law_matches_brute_force_and_profile_dominates_a_pair():
    D, D2, q = ((1, -1), (1, 1)), ((-1, -1), (1, 1)), Fraction(1, 3)
    from fl_oracles import hockey

    def brute(data):
        out: dict = {}
        for _, msgs, w in dss_outcomes(data, KER, q):
            key = tuple(sorted(msgs))
            out[key] = out.get(key, Fraction(0)) + w
        return out
    P, Q = brute(D), brute(D2)
    assert ss.output_law(D, KER, q) == P and P[()] == (1 - q) ** 2
    prof = ss.round_profile(KER, 2, 2, q, [Fraction(1), Fraction(3, 2)])
    for r in (Fraction(1), Fraction(3, 2)):
        assert max(hockey(P, Q, r), hockey(Q, P, r)) <= prof[r]["delta"]
    assert prof[Fraction(1)]["delta"] > 0
    with pytest.raises(InvalidInputError):
        ss.round_profile(KER, 2, 2, q, [Fraction(1, 2)])
