"""Adversarial checks of bcdp.audit.confidence: the simultaneous level, the bounds, the witnesses and
the planned draws, each against an oracle that does not go through the module.

* Level of every cell interval (C1): on a 3 x 4 table (so that the number of cells K = 12 differs
  from the number of inputs, 3, and of outputs, 4) every Clopper-Pearson end is checked at 50 digits
  (mpmath's regularized incomplete beta) to satisfy its tail inequality at (1 - confidence) / (2K) and
  to be tight there: an end computed for any other K would fail one of the two checks.
* Bounds (C2)-(C3) and witnesses: the LDP, coordinate-DP and Bayesian coordinate-DP lower bounds of
  a 12-input (3 coordinates) table against a brute force written here over all input pairs, pairs
  differing in one coordinate, and pairs of coordinate values of positive prior mass, from Clopper-
  Pearson ends computed with scipy's beta quantiles (``beta.ppf`` on both sides, where the module
  uses ``isf`` for the upper end).  The prior has zeros, including a coordinate value of zero mass
  (excluded by Def. 4: the conditional law is undefined).  Every witness must name a pair attaining
  the bound in the stated direction (numerator first).
* Planned draws: the probability of the verdict "violated" at the planned n is computed exactly
  (enumeration of the two binomial counts of the witness cell, scipy's binomial pmf and beta
  quantiles); it must be at least the requested power, here 0.99, where the plan for another power
  falls short.
"""

from __future__ import annotations

import math
from itertools import product

import mpmath
import numpy as np
import pytest
from bcdp.audit.confidence import CountAudit, draws_to_refute
from scipy.stats import beta, binom

mpmath.mp.dps = 50


def _tail_ge(k: int, n: int, p: float) -> mpmath.mpf:
    """P(X >= k), X ~ Bin(n, p), as I_p(k, n - k + 1)."""
    return mpmath.betainc(k, n - k + 1, 0, mpmath.mpf(p), regularized=True) if k > 0 else mpmath.mpf(1)


def _tail_le(k: int, n: int, p: float) -> mpmath.mpf:
    """P(X <= k) = 1 - I_p(k + 1, n - k)."""
    return 1 - mpmath.betainc(k + 1, n - k, 0, mpmath.mpf(p), regularized=True) if k < n else mpmath.mpf(1)


def test_every_cell_interval_has_level_one_minus_confidence_over_all_cells():
    counts = np.array([[0, 3, 40, 157], [12, 0, 88, 100], [200, 0, 0, 0]])
    draws = counts.sum(axis=1)
    audit = CountAudit((0, 1, 2), ("a", "b", "c", "d"), counts, draws)
    conf = 0.9
    lo, hi = audit.cell_intervals(conf)
    half = (1 - mpmath.mpf(conf)) / (2 * counts.size)        # K = 12 cells, two-sided
    for (x, y), k in np.ndenumerate(counts):
        n, k = int(draws[x]), int(k)
        if k > 0:
            assert _tail_ge(k, n, float(lo[x, y])) <= half
            assert _tail_ge(k, n, float(lo[x, y]) * (1 + 1e-8)) > half
        else:
            assert lo[x, y] == 0
        if k < n:
            assert _tail_le(k, n, float(hi[x, y])) <= half
            assert _tail_le(k, n, float(hi[x, y]) * (1 - 1e-8)) > half
        else:
            assert hi[x, y] == 1


def _cp_ends(counts: np.ndarray, n: int, level: float) -> tuple[np.ndarray, np.ndarray]:
    lo = np.zeros(counts.shape)
    hi = np.ones(counts.shape)
    for idx, k in np.ndenumerate(counts):
        if k > 0:
            lo[idx] = beta.ppf(level / 2, k, n - k + 1)
        if k < n:
            hi[idx] = beta.ppf(1 - level / 2, k + 1, n - k)
    return lo, hi


def _log(num: float, den: float) -> float:
    return -math.inf if num == 0 else math.log(num) - math.log(den)


@pytest.fixture(scope="module")
def table():
    """12 inputs x_1 in {0, 1}, x_2 in {0, 1, 2}, x_3 in {0, 1}; 3 outputs; counts from a fixed
    random kernel (any counts would do: the oracle is exact for the counts given)."""
    rng = np.random.default_rng(99)
    points = list(product((0, 1), (0, 1, 2), (0, 1)))
    kernel = rng.dirichlet([1.0, 2.0, 3.0], size=len(points))
    n = 3000
    counts = np.array([rng.multinomial(n, row) for row in kernel])
    conf = 0.95
    lo, hi = _cp_ends(counts, n, (1 - conf) / counts.size)
    audit = CountAudit(tuple(points), ("u", "v", "w"), counts, np.full(len(points), n))
    return points, counts, n, conf, lo, hi, audit


def _close_below(got: float, want: float) -> None:
    """The module widens every end outward by 1e-10 relative: its bound is at most the oracle's and
    within 1e-8 of it (log scale)."""
    assert want - 1e-8 <= got <= want + 1e-12, (got, want)


def test_ldp_bound_and_witness_against_brute_force(table):
    points, _counts, _n, conf, lo, hi, audit = table
    want = max(0.0, max(_log(lo[a, y], hi[b, y]) for a in range(len(points)) for b in range(len(points))
                        for y in range(3) if a != b))
    got = audit.ldp(conf)
    _close_below(got.lower_bound, want)
    assert want > 0.3                                           # a non-trivial case
    w = got.witness
    a, b, y = points.index(tuple(w["x"])), points.index(tuple(w["x_prime"])), ("u", "v", "w").index(w["R"][0])
    _close_below(got.lower_bound, _log(lo[a, y], hi[b, y]))


def test_cdp_bounds_and_witnesses_against_brute_force(table):
    points, _counts, _n, conf, lo, hi, audit = table
    got = audit.cdp(conf)
    assert len(got) == 3
    for i in range(3):
        pairs = [(a, b) for a in range(len(points)) for b in range(len(points))
                 if points[a][i] != points[b][i]
                 and all(points[a][j] == points[b][j] for j in range(3) if j != i)]
        want = max(0.0, max(_log(lo[a, y], hi[b, y]) for a, b in pairs for y in range(3)))
        _close_below(got[i].lower_bound, want)
        w = got[i].witness
        if want > 0:
            a, b = points.index(tuple(w["x"])), points.index(tuple(w["x_prime"]))
            assert (a, b) in pairs
            _close_below(got[i].lower_bound, _log(lo[a, ("u", "v", "w").index(w["R"][0])],
                                                  hi[b, ("u", "v", "w").index(w["R"][0])]))
    # coordinate DP is at most LDP, and here strictly below it for some coordinate
    assert max(b.lower_bound for b in got) <= audit.ldp(conf).lower_bound
    assert min(b.lower_bound for b in got) < audit.ldp(conf).lower_bound - 0.05


def test_bcdp_bounds_and_witnesses_against_brute_force(table):
    points, _counts, _n, conf, lo, hi, audit = table
    rng = np.random.default_rng(5)
    prior = rng.random(len(points))
    prior[[0, 7]] = 0.0                                   # two points outside the support
    prior[[p[1] == 2 for p in points]] = 0.0              # x_2 = 2 has prior mass 0: not a value of Def. 4
    prior /= prior.sum()
    got = audit.bcdp(list(prior), conf)
    assert len(got) == 3
    for i in range(3):
        values = sorted({p[i] for k, p in enumerate(points) if prior[k] > 0})

        def law(v, ends, i=i):
            members = [k for k, p in enumerate(points) if p[i] == v]
            mass = sum(prior[k] for k in members)
            return [sum(prior[k] * ends[k, y] for k in members) / mass for y in range(3)]

        bounds = {(v, w, y): _log(law(v, lo)[y], law(w, hi)[y]) for v in values for w in values if v != w
                  for y in range(3)}
        want = max(0.0, max(bounds.values()))
        _close_below(got[i].lower_bound, want)
        w = got[i].witness
        if want > 0:
            assert w["coordinate"] == i and len(w["S_i"]) == len(w["S_i_prime"]) == 1
            key = (w["S_i"][0], w["S_i_prime"][0], ("u", "v", "w").index(w["R"][0]))
            assert key in bounds
            _close_below(got[i].lower_bound, bounds[key])
    assert got[1].lower_bound > 0                       # the zero-mass value did not silence coordinate 2


def _violated_probability_lower(n: int, p: float, q: float, claim: float, level: float) -> float:
    """P(log(CP_lower(k_num) / CP_upper(k_den)) > claim), k_num ~ Bin(n, p), k_den ~ Bin(n, q): a lower
    bound on the probability that the audit says "violated" (its bound is a maximum over cells)."""
    k = np.arange(n + 1)
    lo = np.where(k > 0, beta.ppf(level / 2, np.maximum(k, 1), n - k + 1), 0.0)
    hi = np.where(k < n, beta.ppf(1 - level / 2, k + 1, np.maximum(n - k, 1)), 1.0)
    ok = (lo[:, None] > 0) & (np.log(np.maximum(lo[:, None], 1e-300)) - np.log(hi[None, :]) > claim)
    return float(binom.pmf(k, n, p) @ ok @ binom.pmf(k, n, q))


@pytest.mark.parametrize("p,q,claim,conf,cells", [(0.5, 0.1, 1.0, 0.95, 4), (0.88, 0.12, 1.0, 0.95, 4),
                                                  (0.5, 0.1, 1.0, 0.9, 6)])
def test_planned_draws_meet_a_high_power_exactly(p, q, claim, conf, cells):
    """Power 0.99: the exact probability of "violated" (witness cell alone) at the planned n is >= 0.99.
    (A plan made for power 0.9 has an exact power near 0.985 on these cases: a plan ignoring the power
    fails this.)"""
    n = draws_to_refute(p, q, claim, conf, cells, power=0.99)
    assert _violated_probability_lower(n, p, q, claim, (1 - conf) / cells) >= 0.99
