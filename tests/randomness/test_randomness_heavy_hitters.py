"""bcdp.randomness.heavy_hitters: the exact l_inf heavy-hitter risk (thesis Sec. 7.2) against a brute-force
oracle written here (every input tuple x^n and every output tuple y^n, the estimator inverted by sympy),
and the time marginals of the T-sample scheme (Sec. 7.6)."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction as F

import pytest
import sympy

from bcdp.core.errors import FloatRefusedError, InvalidInputError, ValidityConditionError
from bcdp.randomness import heavy_hitters as HH
from bcdp.randomness import sequences as S


def _oracle_risk(Q, n):
    k, m = len(Q), len(Q[0])
    Minv = sympy.Matrix([[sympy.Rational(Q[j][i].numerator, Q[j][i].denominator) for j in range(k)]
                         for i in range(m)]).inv()
    M = [[F(int(sympy.fraction(v)[0]), int(sympy.fraction(v)[1])) for v in Minv.row(i)] for i in range(k)]
    worst = F(0)
    for xs in itertools.product(range(k), repeat=n):  # every input tuple, not only histograms
        f = [F(xs.count(a), n) for a in range(k)]
        risk = F(0)
        for ys in itertools.product(range(m), repeat=n):
            p = F(1)
            for x, y in zip(xs, ys):
                p *= Q[x][y]
            if p:
                h = [F(ys.count(y), n) for y in range(m)]
                est = [sum(a * b for a, b in zip(row, h)) for row in M]
                risk += p * max(abs(a - b) for a, b in zip(est, f))
        worst = max(worst, risk)
    return worst


@pytest.mark.parametrize("k,E,n", [(2, F(3), 1), (2, F(3), 3), (2, F(3, 2), 4), (3, F(2), 2), (3, F(5), 3)])
def test_linf_risk_matches_brute_force(k, E, n):
    q = S.labelling_law((0,) * (k - 1) + (1,), E)
    Q = S.mechanism(q, k, 1)
    assert HH.linf_risk(Q, n)["risk"] == _oracle_risk(Q, n)


def test_linf_risk_random_channels():
    rng = random.Random(4)
    for _ in range(5):
        Q = []
        for _ in range(2):
            a = F(rng.randint(1, 9), 10)
            Q.append([a, 1 - a])
        if Q[0][0] == Q[1][0]:
            continue
        assert HH.linf_risk(Q, 3)["risk"] == _oracle_risk(Q, 3)


def test_single_user_hand_value():
    # q = (1/4, 3/4): M = [[-1/2, 3/2], [3/2, -1/2]]; worst input 1: 3/4 * 1/2 + 1/4 * 3/2 = 3/4
    Q = [[F(1, 4), F(3, 4)], [F(3, 4), F(1, 4)]]
    assert HH.unbiased_estimator(Q) == [[F(-1, 2), F(3, 2)], [F(3, 2), F(-1, 2)]]
    assert HH.linf_risk(Q, 1)["risk"] == F(3, 4)


@pytest.mark.parametrize("k,T", [(2, 2), (3, 2), (2, 3)])
def test_time_marginals_of_the_additive_scheme_are_single_sample_channels(k, T):
    """Y(t) = f^{-1}(U)(t) (-) x(t): its law depends on x(t) only, with the key's t-th marginal; for a
    product key it is the single-sample (F.24) channel, so each time's heavy-hitter risk is the
    single-sample risk."""
    E = F(3)
    q1 = S.labelling_law((0,) * (k - 1) + (1,), E)
    q = tuple(_prod(q1[v] for v in x) for x in itertools.product(range(k), repeat=T))
    QT = S.mechanism(q, k, T)
    for t in range(T):
        single = HH.time_marginal(QT, k, T, t)["single"]
        assert single == [list(r) for r in S.mechanism(q1, k, 1)]
    # a non-product vertex key: still a single-sample channel per time, with the key's marginal law
    c = next(c for c in S.vertex_labellings(k, T) if not S.is_product_labelling(c, k, T))
    qn = S.labelling_law(c, E)
    marg0 = [sum(p for x, p in zip(itertools.product(range(k), repeat=T), qn) if x[0] == a) for a in range(k)]
    assert HH.time_marginal(S.mechanism(qn, k, T), k, T, 0)["single"] == [list(r) for r in S.mechanism(marg0, k, 1)]


def test_time_marginal_detects_dependence_on_other_times():
    # Y(0) = x(1): the first output copies the second sample
    dbs = list(itertools.product(range(2), repeat=2))
    Q = [[F(int(y == (x[1], 0))) for y in dbs] for x in dbs]
    assert HH.time_marginal(Q, 2, 2, 0)["single"] is None


def test_bad_inputs():
    with pytest.raises(ValidityConditionError):
        HH.unbiased_estimator([[F(1, 2), F(1, 2)], [F(1, 2), F(1, 2)]])
    with pytest.raises(InvalidInputError, match="square"):
        HH.unbiased_estimator([[F(1, 2), F(1, 2), 0], [F(1, 2), F(1, 2), 0]])
    with pytest.raises(FloatRefusedError):
        HH.linf_risk([[0.5, 0.5], [0.25, 0.75]], 2)
    with pytest.raises(InvalidInputError, match="sum"):
        HH.linf_risk([[F(1, 2), F(1, 3)], [F(1, 4), F(3, 4)]], 2)
    with pytest.raises(InvalidInputError, match="n must"):
        HH.linf_risk([[F(1, 4), F(3, 4)], [F(3, 4), F(1, 4)]], 0)
    with pytest.raises(InvalidInputError, match="t must"):
        HH.time_marginal([[F(1, 4)] * 4] * 4, 2, 2, 2)


def _prod(values):
    out = F(1)
    for v in values:
        out *= v
    return out


def test_work_cap_refuses_instead_of_hanging():
    """Review h7rev3: k = 6 inputs/outputs with n = 12 users (allowed by the separate caps on n and the alphabet)
    means C(17, 5)^2 ~ 3.8e7 histogram pairs, hours of exact arithmetic; it must be refused at once, in one line,
    while the small cases stay allowed."""
    import time

    k, e = 6, F(3)
    ch = [[(e if x == y else 1) / (e + k - 1) for y in range(k)] for x in range(k)]
    t = time.perf_counter()
    with pytest.raises(InvalidInputError) as info:
        HH.linf_risk(ch, 12)
    assert time.perf_counter() - t < 1 and "\n" not in str(info.value)
    assert HH.linf_risk(ch, 2)["risk"] > 0  # 21 x 21 histogram pairs: allowed
    two = [[F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)]]
    assert HH.linf_risk(two, 12)["risk"] > 0  # 13 x 13: allowed
