"""bcdp.randomness.model (thesis Sec. 7.2, (7.1)-(7.6)) against oracles written here: brute-force ratios
over (y, x, x'), entropies with mpmath at 50 digits, a hand-made multinomial risk, and a second
enumeration of the feasible grid mechanisms (entries enumerated one by one, not by compositions)."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction as F

import mpmath
import pytest

from bcdp.core.errors import FloatRefusedError, InvalidInputError
from bcdp.core.numbers import INFINITY
from bcdp.randomness import model


@pytest.fixture(autouse=True)
def _fifty_digits():
    with mpmath.workdps(50):
        yield


def _mp(x):
    return mpmath.mpf(x.numerator) / x.denominator


def _h(row, unit="bits"):
    with mpmath.workdps(50):
        h = -sum(_mp(p) * mpmath.log(_mp(p)) for p in row if p)
        return h / mpmath.log(2) if unit == "bits" else h


def _ratio_oracle(q):
    best = F(1)
    for x, xp, y in itertools.product(range(len(q)), range(len(q)), range(len(q[0]))):
        if q[xp][y] == 0:
            if q[x][y] > 0:
                return INFINITY
        else:
            best = max(best, q[x][y] / q[xp][y])
    return best


def _random(rng, k, m, zeros=True):
    rows = []
    for _ in range(k):
        w = [rng.randint(0 if zeros else 1, 7) for _ in range(m)]
        w[rng.randrange(m)] += 1
        rows.append([F(v, sum(w)) for v in w])
    return rows


@pytest.mark.parametrize("seed", range(30))
def test_ratio_and_randomness_match_oracles(seed):
    rng = random.Random(seed)
    q = _random(rng, rng.randint(1, 4), rng.randint(1, 5))
    assert model.ldp_epsilon_ratio(q) == _ratio_oracle(q)
    cert = model.mechanism_randomness(q, "nats")
    truth = max(_h(r, "nats") for r in q)
    assert _mp(cert.lower) - mpmath.mpf(10) ** -35 <= truth <= _mp(cert.upper) + mpmath.mpf(10) ** -35
    assert cert.upper - cert.lower < F(1, 10 ** 30)


@pytest.mark.parametrize("seed", range(30))
def test_key_representation_is_exact_and_dominates(seed):
    rng = random.Random(100 + seed)
    k, m = rng.randint(1, 4), rng.randint(1, 5)
    q = _random(rng, k, m)
    rep = model.key_representation(q)
    assert sum(rep.q) == 1 and all(v > 0 for v in rep.q) and len(rep.q) <= k * (m - 1) + 1
    for x in range(k):
        for y in range(m):
            assert sum((rep.q[u] for u in range(len(rep.q)) if rep.f[x][u] == y), F(0)) == q[x][y]
    assert max(_h(r) for r in q) <= _h(rep.q) + mpmath.mpf(10) ** -40


def test_fig72_xor_key():
    e = F(3)
    law = (e / (e + 1), 1 / (e + 1))
    q = [[sum((law[u] for u in (0, 1) if x ^ u == y), F(0)) for y in (0, 1)] for x in (0, 1)]
    assert model.ldp_epsilon_ratio(q) == e
    rep = model.key_representation(q)
    # the common-quantile coupling is not the binary key of Fig. 7.2: cells 1/4, 1/2, 1/4
    assert rep.q == (F(1, 4), F(1, 2), F(1, 4)) and rep.channel(2) == tuple(tuple(r) for r in q)
    assert _h(rep.q) > _h(law)


def test_ldp_decision_with_exact_eps_both_sides_of_log2():
    q = [[F(2, 3), F(1, 3)], [F(1, 3), F(2, 3)]]
    assert model.is_eps_ldp(q, F(6932, 10000)) is True      # log 2 = 0.693147...
    assert model.is_eps_ldp(q, F(6931, 10000)) is False
    assert model.is_eps_ldp(q, e_eps=2) is True and model.is_eps_ldp(q, e_eps=F(199, 100)) is False
    assert model.is_eps_ldp([[1, 0], [0, 1]], 50) is False


def test_eps_r_ldp_both_sides_of_the_entropy_budget():
    q = [[F(1, 4), F(3, 4)], [F(3, 4), F(1, 4)]]
    h = _h(q[0])                                              # 0.811278... bits
    assert model.is_eps_r_ldp(q, r=F(812, 1000), e_eps=3) is True
    assert model.is_eps_r_ldp(q, r=F(811, 1000), e_eps=3) is False
    assert model.is_eps_r_ldp(q, r=F(812, 1000), e_eps=F(29, 10)) is False
    assert float(h) == pytest.approx(0.8112781244591328)
    assert model.is_eps_r_ldp([[1, 0], [1, 0]], r=0, e_eps=1) is True       # H = 0 = R exactly (exact zero ball)
    assert model.is_eps_r_ldp([[F(1, 2), F(1, 2)]], r=1, e_eps=1) is None    # H = 1 bit = R: a tie is not guessed


def _risk_oracle(q, est, p, n, loss):
    """Independent: enumerate the inputs X^n and the outputs Y^n (joint), not the output marginal."""
    k, m = len(q), len(q[0])
    total = F(0)
    for xs in itertools.product(range(k), repeat=n):
        px = F(1)
        for x in xs:
            px *= p[x]
        for ys in itertools.product(range(m), repeat=n):
            pr = px
            for x, y in zip(xs, ys):
                pr *= q[x][y]
            ph = est(ys)
            total += pr * sum((abs(a - b) if loss == "l1" else (a - b) ** 2) for a, b in zip(ph, p))
    return total


@pytest.mark.parametrize("loss", ["l1", "l2"])
@pytest.mark.parametrize("n", [1, 2, 3])
def test_exact_risk_matches_joint_enumeration(loss, n):
    q = [[F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)]]

    def est(ys):  # debiased binary RR frequency
        f = F(sum(1 for y in ys if y == 0), len(ys))
        a = (f - F(1, 4)) * 2
        return [a, 1 - a]

    p = [F(1, 3), F(2, 3)]
    assert model.exact_risk(q, est, p, n, loss) == _risk_oracle(q, est, p, n, loss)
    worst, idx = model.worst_case_risk(q, est, [p, [F(1), F(0)], [F(1, 2), F(1, 2)]], n, loss)
    assert worst == max(_risk_oracle(q, est, pp, n, loss) for pp in [p, [F(1), F(0)], [F(1, 2), F(1, 2)]])


def test_feasible_mechanisms_match_entrywise_enumeration():
    k, m, grid, e, r = 3, 2, 4, F(3), F(9, 10)
    got = set(model.feasible_mechanisms(k, m, grid, e, r))
    vals = [F(i, grid) for i in range(grid + 1)]
    rows = [row for row in itertools.product(vals, repeat=m) if sum(row) == 1 and _h(row) < _mp(r)]
    want = {mat for mat in itertools.product(rows, repeat=k) if _ratio_oracle(mat) != INFINITY and _ratio_oracle(mat) <= e}
    assert got == want and len(want) > 3


@pytest.mark.parametrize("call", [
    lambda: model.mechanism([]),
    lambda: model.mechanism([[F(1, 2), F(1, 3)]]),
    lambda: model.mechanism([[F(1, 2), F(1, 2)], [F(1)]]),
    lambda: model.is_eps_ldp([[1]], 1, e_eps=2),
    lambda: model.is_eps_ldp([[1]]),
    lambda: model.is_eps_ldp([[1]], e_eps=F(1, 2)),
    lambda: model.is_eps_r_ldp([[1]], 1, -1),
    lambda: model.mechanism_randomness([[1]], unit="dits"),
    lambda: model.exact_risk([[1, 0], [0, 1]], lambda s: [1, 0], [1, 0], 0),
    lambda: model.exact_risk([[1, 0], [0, 1]], lambda s: [1, 0], [1, 0], 20),
    lambda: model.exact_risk([[1, 0], [0, 1]], lambda s: [1], [1, 0], 1),
    lambda: model.exact_risk([[1, 0], [0, 1]], lambda s: [1, 0], [1, 0], 1, "linf"),
    lambda: model.feasible_mechanisms(5, 2, 2, 2, 1),
    lambda: model.feasible_mechanisms(2, 2, 2, 2, -1),
    lambda: model.worst_case_risk([[1]], lambda s: [1], [], 1),
])
def test_bad_input_is_refused_with_one_line(call):
    with pytest.raises(InvalidInputError) as info:
        call()
    assert "\n" not in str(info.value)


def test_floats_are_refused():
    with pytest.raises(FloatRefusedError):
        model.ldp_epsilon_ratio([[0.5, 0.5]])
    with pytest.raises(FloatRefusedError):
        model.is_eps_ldp([[1]], 0.5)
