"""bcdp.randomness.assouad (thesis Sec. 7.3.1, App. F.1.1, F.3) against oracles written here: the packing
(7.13) by its definition, the Bayes risk as an explicit minimum over all sign-estimators for l1 and as
the posterior-mean risk computed from the joint law for l2^2, TV by a maximum over events, the chi^2
identity of step (c) corrected, and the validity condition delta <= 1/k on both sides."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import pytest

from bcdp.core.errors import InvalidInputError, ValidityConditionError
from bcdp.randomness import assouad, mechanisms, model

Q2 = ((F(3, 4), F(1, 4)), (F(1, 4), F(3, 4)))
Q4 = mechanisms.k_rr(4, 2)


def test_packing_definition_and_boundary():
    assert assouad.packing(4, F(1, 4), (1, -1)) == (F(1, 2), F(0), F(0), F(1, 2))
    for nu in assouad.signs(6):
        p = assouad.packing(6, F(1, 12), nu)
        assert sum(p) == 1 and all(v >= 0 for v in p)
    with pytest.raises(ValidityConditionError):
        assouad.packing(4, F(1, 4) + F(1, 10 ** 9), (1, 1))
    with pytest.raises(ValidityConditionError):
        assouad.packing(4, F(-1, 100), (1, 1))
    for bad in (lambda: assouad.packing(3, F(1, 9), (1,)), lambda: assouad.packing(4, F(1, 8), (1, 0)),
                lambda: assouad.bayes_risk(Q2, 2, F(1, 4), 1, "l3"), lambda: assouad.bayes_risk(Q4, 2, F(1, 4), 1),
                lambda: assouad.chi2_chain(Q4, 4, F(1, 8), 1, (-1, 1), 2), lambda: assouad.product_law(Q4, [F(1, 4)] * 4, 9)):
        with pytest.raises(InvalidInputError):
            bad()


def _joint(q, k, delta, n):
    out = {}
    for nu in assouad.signs(k):
        p = assouad.packing(k, delta, nu)
        m = len(q[0])
        for seq in itertools.product(range(m), repeat=n):
            pr = F(1, len(assouad.signs(k)))
            for y in seq:
                pr *= sum(p[x] * q[x][y] for x in range(k))
            out[(nu, seq)] = pr
    return out


@pytest.mark.parametrize("q,k,n", [(Q2, 2, 1), (Q2, 2, 3), (Q4, 4, 1), (Q4, 4, 2)])
def test_l1_bayes_risk_is_the_best_deterministic_coordinatewise_estimator(q, k, n):
    delta = F(1, 2 * k)
    joint = _joint(q, k, delta, n)
    seqs = sorted({s for _, s in joint})
    # l1 Bayes risk: per coordinate and per output, the best of the two packing values
    best = F(0)
    for i in range(k):
        for s in seqs:
            costs = []
            for guess in (F(1, k) + delta, F(1, k) - delta):
                costs.append(sum(pr * abs(guess - assouad.packing(k, delta, nu)[i])
                                 for (nu, s2), pr in joint.items() if s2 == s))
            best += min(costs)
    assert assouad.bayes_risk(q, k, delta, n, "l1") == best


@pytest.mark.parametrize("q,k,n", [(Q2, 2, 2), (Q4, 4, 2)])
def test_l2_bayes_risk_is_the_posterior_mean_risk(q, k, n):
    delta = F(1, 8)
    joint = _joint(q, k, delta, n)
    total = F(0)
    for s in {s for _, s in joint}:
        post = {nu: pr for (nu, s2), pr in joint.items() if s2 == s}
        mass = sum(post.values())
        mean = [sum(pr * assouad.packing(k, delta, nu)[i] for nu, pr in post.items()) / mass for i in range(k)]
        total += sum(pr * sum((a - b) ** 2 for a, b in zip(mean, assouad.packing(k, delta, nu)))
                     for nu, pr in post.items())
    assert assouad.bayes_risk(q, k, delta, n, "l2") == total
    # a no-data estimator cannot beat it: E ||1/k - p||^2 = k delta^2
    assert total <= k * delta ** 2


def test_tv_is_the_max_over_events():
    a = {(0,): F(1, 2), (1,): F(1, 3), (2,): F(1, 6)}
    b = {(0,): F(1, 4), (1,): F(1, 2), (2,): F(1, 4)}
    events = [set(c) for r in range(4) for c in itertools.combinations(a, r)]
    assert assouad.total_variation(a, b) == max(abs(sum(a[s] for s in e) - sum(b[s] for s in e)) for e in events)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_assouad_chain_on_kRR(n):
    for loss in ("l1", "l2"):
        for delta in (F(1, 4), F(1, 16)):
            bayes = assouad.bayes_risk(Q4, 4, delta, n, loss)
            rhs = assouad.assouad_rhs(Q4, 4, delta, n, loss)
            kl = assouad.lemma731_rhs(Q4, 4, delta, n, loss)
            assert kl.upper <= rhs <= bayes
            assert 0 <= rhs <= assouad.phi(delta, loss) * 2


def test_chi2_step_c_is_four_delta_squared():
    e = F(2)
    q = ((F(2, 3), F(1, 3)), (F(1, 2), F(1, 2)), (F(1, 3), F(2, 3)), (F(1, 2), F(1, 2)))
    delta = F(1, 8)
    c = assouad.chi2_chain(q, 4, delta, 1, (1, 1), e)
    a = model.output_marginal(q, assouad.packing(4, delta, (1, 1)))
    b = model.output_marginal(q, assouad.packing(4, delta, (-1, 1)))
    diff = [u - v for u, v in zip(a, b)]
    assert diff == [2 * delta * (x - y) for x, y in zip(q[0], q[2])]
    assert c["chi2"] == sum(d * d / v for d, v in zip(diff, b)) == c["step_c_exact"] == 4 * c["step_c_printed"]
    assert c["denominator_bound"] and c["chi2"] <= c["step_d_corrected"]


def test_separation_with_signs_pm1_and_the_literal_typo():
    k, delta = 4, F(1, 4)
    nu = (-1, -1)
    p = assouad.packing(k, delta, nu)
    lhs, rhs = assouad.separation_sides(p, k, delta, nu, "l2")
    assert lhs == 0 and rhs == 0
    # the printed sgn (0 for x < 0) never equals -1: the literal (7.14) would give phi(delta) k/2 > 0 = loss
    literal = sum(1 for j in range(k // 2) if (1 if p[j] - F(1, k) >= 0 else 0) != nu[j])
    assert literal == k // 2
