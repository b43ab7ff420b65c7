"""Lower confidence bounds of a black-box audit (bcdp.audit.confidence) against independent oracles.

* The Clopper-Pearson ends against their defining binomial tails, evaluated with mpmath at 50 digits
  (the regularized incomplete beta function): P_L(X >= k) <= alpha/2 and P_U(X <= k) <= alpha/2, and
  tight (moving an end inward by 1e-8 relative breaks the inequality).
* The bounds against the exact parameters of bcdp.bayesian.notions (Fractions) on known kernels:
  never above the truth on the event that every cell is in its interval, and close to it for counts
  proportional to the kernel.
* The false-alarm rate by simulation: for correct claims the verdict "violated" is at most 1 - confidence;
  each simulated rate is tested against a binomial quantile with a false-failure probability of 1e-6.
* The planned sample size by simulation: with draws_to_refute(...) draws, a mechanism wrong by the
  planned margin is refuted at least at the planned power (same 1e-6 false-failure rule).
"""

from __future__ import annotations

import math
from fractions import Fraction as F
from itertools import product

import mpmath
import numpy as np
import pytest
from bcdp.audit.confidence import CountAudit, clopper_pearson, draws_to_refute
from bcdp.bayesian.notions import bcdp_vector, cdp_vector, ldp_epsilon
from bcdp.core.errors import InvalidInputError
from bcdp.core.spaces import Mechanism, Prior, ProductDomain
from scipy.stats import binom

mpmath.mp.dps = 50


def _tail_ge(k: int, n: int, p: float) -> mpmath.mpf:
    """P(X >= k), X ~ Bin(n, p): the regularized incomplete beta I_p(k, n - k + 1)."""
    return mpmath.betainc(k, n - k + 1, 0, mpmath.mpf(p), regularized=True) if k > 0 else mpmath.mpf(1)


def _tail_le(k: int, n: int, p: float) -> mpmath.mpf:
    """P(X <= k) = 1 - I_p(k + 1, n - k)."""
    return 1 - mpmath.betainc(k + 1, n - k, 0, mpmath.mpf(p), regularized=True) if k < n else mpmath.mpf(1)


@pytest.mark.parametrize("k,n,alpha", [(0, 10, 0.05), (1, 10, 0.05), (5, 10, 0.01), (10, 10, 0.05),
                                       (3, 1000, 1e-4), (997, 1000, 1e-4), (500, 1000, 0.2),
                                       (7, 10 ** 6, 1e-6), (1234, 10 ** 7, 1e-3), (1, 10 ** 9, 0.05)])
def test_clopper_pearson_ends_satisfy_their_tail_inequalities_and_are_tight(k, n, alpha):
    lo, hi = (float(v) for v in clopper_pearson(k, n, alpha))
    half = mpmath.mpf(alpha) / 2
    if k > 0:
        assert _tail_ge(k, n, lo) <= half
        assert _tail_ge(k, n, lo * (1 + 1e-8)) > half
    else:
        assert lo == 0.0
    if k < n:
        assert _tail_le(k, n, hi) <= half
        assert _tail_le(k, n, hi * (1 - 1e-8)) > half
    else:
        assert hi == 1.0


def _rr(eps: F | float, k: int = 2) -> list[list[float]]:
    e = math.exp(eps)
    keep = e / (e + k - 1)
    return [[keep if y == x else (1 - keep) / (k - 1) for y in range(k)] for x in range(k)]


def _audit(kernel: np.ndarray, inputs, n: int, rng: np.random.Generator) -> CountAudit:
    counts = np.array([rng.multinomial(n, row) for row in kernel])
    return CountAudit(tuple(inputs), tuple(range(kernel.shape[1])), counts, np.full(len(inputs), n))


def _product_mechanism() -> tuple[Mechanism, list[tuple[int, int]], np.ndarray]:
    """A 2 x 2 product domain, 3 outputs, rational kernel with different per-coordinate leakage."""
    dom = ProductDomain([[0, 1], [0, 1]])
    rows = {(0, 0): [F(1, 2), F(1, 4), F(1, 4)], (0, 1): [F(2, 5), F(1, 5), F(2, 5)],
            (1, 0): [F(1, 5), F(3, 5), F(1, 5)], (1, 1): [F(1, 10), F(3, 5), F(3, 10)]}
    mech = Mechanism(dom, ["a", "b", "c"], [rows[p] for p in dom.points])
    return mech, list(dom.points), np.array([[float(v) for v in rows[p]] for p in dom.points])


def test_bounds_are_below_the_exact_parameters_and_converge():
    mech, points, kernel = _product_mechanism()
    prior_pmf = [F(1, 2), F(1, 6), F(1, 6), F(1, 6)]
    prior = Prior(mech.domain, prior_pmf)
    exact_ldp = math.log(ldp_epsilon(mech).ratio)
    exact_cdp = [math.log(v.ratio) for v in cdp_vector(mech)]
    exact_bcdp = [math.log(v.ratio) for v in bcdp_vector(mech, prior)]
    # counts exactly proportional to the kernel (n = 10^8 draws per input): the bounds approach the truth
    n = 10 ** 8
    counts = np.array([[int(v * n) for v in row] for row in mech.kernel])
    audit = CountAudit(tuple(points), ("a", "b", "c"), counts, counts.sum(axis=1))
    got_ldp = audit.ldp(0.95)
    assert exact_ldp - 0.01 < got_ldp.lower_bound <= exact_ldp
    assert got_ldp.estimate == pytest.approx(exact_ldp, rel=1e-7)
    for got, want in zip(audit.cdp(0.95), exact_cdp):
        assert want - 0.01 < got.lower_bound <= want and got.estimate == pytest.approx(want, rel=1e-7)
    for got, want in zip(audit.bcdp([float(v) for v in prior_pmf], 0.95), exact_bcdp):
        assert want - 0.01 < got.lower_bound <= want and got.estimate == pytest.approx(want, rel=1e-7)
    # witnesses name a pair attaining the exact parameter
    w = got_ldp.witness
    assert math.log(float(mech.kernel[points.index(tuple(w["x"]))][["a", "b", "c"].index(w["R"][0])]
                          / mech.kernel[points.index(tuple(w["x_prime"]))][["a", "b", "c"].index(w["R"][0])])) \
        == pytest.approx(exact_ldp)


def test_false_alarm_rate_at_most_one_minus_confidence():
    """Correct claims (the exact parameters) on RR(1) and the product mechanism: 300 audits each at
    2000 draws per input and confidence 0.8; "violated" must occur at most at rate 0.2 (test rule:
    count <= the 1 - 1e-6 quantile of Bin(300, 0.2))."""
    rng = np.random.default_rng(20261124)
    runs, conf = 300, 0.8
    limit = binom.ppf(1 - 1e-6, runs, 1 - conf)
    rr = np.array(_rr(1.0))
    alarms = sum(_audit(rr, [0, 1], 2000, rng).ldp(conf).verdict(1.0) == "violated" for _ in range(runs))
    assert alarms <= limit
    mech, points, kernel = _product_mechanism()
    claims = [math.log(v.ratio) for v in cdp_vector(mech)]
    alarms = 0
    for _ in range(runs):
        bounds = _audit(kernel, points, 2000, rng).cdp(conf)
        alarms += any(b.verdict(c) == "violated" for b, c in zip(bounds, claims))
    assert alarms <= limit


def test_planned_draws_refute_a_broken_mechanism_at_the_planned_power():
    """RR whose keep probability uses 2 eps (true LDP 2 eps) claimed eps-LDP: with the planned number
    of draws the audit says "violated" in at least 90% of 200 runs (count >= the 1e-6 quantile of
    Bin(200, 0.9)); with a tenth of them, it usually does not (the plan is not wildly loose)."""
    eps, conf = 0.5, 0.95
    kernel = np.array(_rr(2 * eps))
    n = draws_to_refute(kernel[0, 0], kernel[1, 0], eps, conf, cells=4, power=0.9)
    rng = np.random.default_rng(7)
    hits = sum(_audit(kernel, [0, 1], n, rng).ldp(conf).verdict(eps) == "violated" for _ in range(200))
    assert hits >= binom.ppf(1e-6, 200, 0.9)
    few = sum(_audit(kernel, [0, 1], n // 10, rng).ldp(conf).verdict(eps) == "violated" for _ in range(200))
    assert few < hits


def test_zero_cells_give_infinite_estimates_and_finite_bounds():
    counts = np.array([[10, 0], [5, 5]])
    audit = CountAudit((0, 1), ("u", "v"), counts, np.array([10, 10]))
    b = audit.ldp(0.9)
    assert b.estimate == math.inf and math.isfinite(b.lower_bound) and b.lower_bound >= 0


@pytest.mark.parametrize("bad", [0, 1, 1.5, -0.1, float("nan"), True, "0.9"])
def test_confidence_outside_the_open_unit_interval_is_refused(bad):
    audit = CountAudit((0, 1), ("u", "v"), np.array([[1, 1], [1, 1]]), np.array([2, 2]))
    with pytest.raises(InvalidInputError):
        audit.ldp(bad)


def test_inconsistent_counts_and_priors_are_refused():
    with pytest.raises(InvalidInputError):
        CountAudit((0, 1), ("u",), np.array([[1, 1], [1, 1]]), np.array([2, 2]))
    with pytest.raises(InvalidInputError):
        CountAudit((0, 1), ("u", "v"), np.array([[1, 1], [1, 1]]), np.array([2, 3]))
    audit = CountAudit(((0, 0), (0, 1)), ("u", "v"), np.array([[1, 1], [1, 1]]), np.array([2, 2]))
    for prior in ([0.5, 0.6], [1.0], [-0.5, 1.5], [float("nan"), 1.0]):
        with pytest.raises(InvalidInputError):
            audit.bcdp(prior, 0.9)
    with pytest.raises(InvalidInputError):
        draws_to_refute(0.5, 0.5, 0.1, 0.9, cells=4)
