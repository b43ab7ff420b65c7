"""Definition 2 of the BCDP paper (Bayesian DP, eps_B) with its witness: by (R1)-(R2) the supremum is
attained on singleton input sets of the prior's support, so a brute force over all ordered pairs of
support points and all outputs gives eps_B, and the witness (``S``, ``S_prime``, ``R``) must attain it.

Written to kill the survivors of the mutation gate (benchmarks/mutation_gate.py).
"""

from __future__ import annotations

from fractions import Fraction as F

from bcdp import Mechanism, Prior, ProductDomain
from bcdp.bayesian import notions
from bcdp.core.numbers import INFINITY


def _brute_force(mech, prior):
    support = [k for k, p in enumerate(prior.pmf) if p > 0]
    best = F(1)
    for a in support:
        for b in support:
            for m in range(len(mech.outputs)):
                pa, pb = mech.kernel[a][m], mech.kernel[b][m]
                if pa > 0 and pb == 0:
                    return INFINITY
                if pb > 0:
                    best = max(best, pa / pb)
    return best


def _check(mech, prior):
    eps = notions.bdp_epsilon(mech, prior)
    assert eps.ratio == _brute_force(mech, prior)
    w = eps.witness
    assert set(w) == {"S", "S_prime", "R"} and len(w["S"]) == len(w["S_prime"]) == len(w["R"]) == 1
    points = [list(p) for p in mech.domain.points]
    a, b = points.index(w["S"][0]), points.index(w["S_prime"][0])
    m = list(mech.outputs).index(w["R"][0])
    assert prior.pmf[a] > 0 and prior.pmf[b] > 0
    pa, pb = mech.kernel[a][m], mech.kernel[b][m]
    assert (pa / pb if pb else INFINITY) == eps.ratio       # the witness attains the supremum
    return w


def test_bdp_epsilon_and_witness_of_randomized_response():
    dom = ProductDomain.binary(1)
    mech = Mechanism(dom, ("y0", "y1"), ((F(3, 4), F(1, 4)), (F(1, 4), F(3, 4))))
    w = _check(mech, Prior.uniform(dom))
    assert w == {"S": [[0]], "S_prime": [[1]], "R": ["y0"]}   # the first output attaining the max


def test_bdp_epsilon_restricted_to_the_support_of_the_prior():
    dom = ProductDomain.binary(2)
    rows = ((F(1, 2), F(1, 2)), (F(1, 5), F(4, 5)), (F(9, 10), F(1, 10)), (F(1), F(0)))
    mech = Mechanism(dom, ("a", "b"), rows)
    # the point with kernel row (1, 0) is outside the support: eps_B is finite (e^eps_B = 8)
    prior = Prior(dom, (F(1, 3), F(1, 3), F(1, 3), F(0)))
    w = _check(mech, prior)
    assert notions.bdp_epsilon(mech, prior).ratio == 8 and w["R"] == ["b"]
    # with full support the output "b" is impossible at (1, 1): infinite, still with a witness
    w_inf = _check(mech, Prior.uniform(dom))
    assert notions.bdp_epsilon(mech, Prior.uniform(dom)).ratio == INFINITY and w_inf["R"] == ["b"]
