"""White-box adapters (bcdp.audit.adapters): exact kernels, float twins, goodness of fit.

Oracles, never numbers the code produced:

* kernel entries: the textbook formulas written out here (Warner 1965 / Wang et al. 2017 Section 4.1
  for randomized response; unary encoding rebuilt as the composition of its k one-bit mechanisms with
  bcdp.core.spaces.compose; the geometric tails as float partial sums of the two-sided geometric pmf;
  binned Laplace from its CDF at 50 digits with mpmath);
* LDP epsilons: bcdp.bayesian.notions.ldp_epsilon of the exact kernel against the closed forms derived
  in each test's docstring;
* goodness of fit: counts drawn with numpy from the kernel (size) or from a kernel with 2 eps (power);
  the pooling rule on hand-computed tables with 2 degrees of freedom, where chi-square's survival
  function is exp(-x / 2).

False-failure rule of the size checks: each run draws counts from the kernel itself, so (as far as
the chi-square approximation holds) P(p-value < 1e-6) <= 1e-6 per run.  A test asks for at least
95 of 100 runs to pass; even if the approximation made the true per-run level 1000 times the nominal
one (1e-3), the number of failing runs exceeds 5 with probability <= 1e-6, because the binomial
quantile binom.isf(1e-6, 100, 1e-3) is 4 <= 5 (checked in test_the_false_failure_rule).  The seeds
are fixed, so the tests are deterministic; the rule says how unlucky a seed would have to be.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from bcdp.audit.adapters import (
    binned_laplace_float,
    geometric,
    geometric_float,
    goodness_of_fit,
    randomized_response,
    randomized_response_float,
    row_p_values,
    unary_encoding,
    unary_encoding_float,
    unary_encoding_outputs,
    unary_encoding_parameters,
)
from bcdp.audit.confidence import CountAudit
from bcdp.audit.sampling import Binning, sample_counts
from bcdp.bayesian.notions import ldp_epsilon
from bcdp.core.errors import FloatRefusedError, InvalidInputError, WrongTypeError
from bcdp.core.spaces import Mechanism, ProductDomain, compose
from scipy.stats import binom, chi2, ncx2

F = Fraction
RUNS = 100
MIN_PASSING = 95
LEVEL = 1e-6


def floats(mechanism: Mechanism) -> np.ndarray:
    return np.array([[float(p) for p in row] for row in mechanism.kernel])


def assert_rows_sum_to_one_exactly(mechanism: Mechanism) -> None:
    for row in mechanism.kernel:
        assert all(isinstance(p, Fraction) for p in row)
        assert sum(row, F(0)) == 1


# --- randomized response ------------------------------------------------------------------------------

@pytest.mark.parametrize("exp_eps, k", [(3, 2), (F(5, 2), 2), (7, 5), (1, 3), ("11/10", 4)])
def test_randomized_response_kernel_and_ldp(exp_eps, k):
    """P(x | x) = e / (e + k - 1), P(y | x) = 1 / (e + k - 1): every column has max e / (e + k - 1)
    and min 1 / (e + k - 1), so the LDP ratio is e = exp_eps."""
    e = F(exp_eps)
    m = randomized_response(exp_eps, k)
    assert m.outputs == tuple(range(k)) and m.domain.points == tuple((x,) for x in range(k))
    for x in range(k):
        assert m.row((x,)) == tuple(e / (e + k - 1) if y == x else 1 / (e + k - 1) for y in range(k))
    assert_rows_sum_to_one_exactly(m)
    assert ldp_epsilon(m).ratio == e


@pytest.mark.parametrize("exp_eps, k", [(3, 2), (F(5, 2), 2), (7, 5), (1, 3), (F(1001, 1000), 4), (10 ** 6, 3)])
def test_randomized_response_float_twin(exp_eps, k):
    twin = randomized_response_float(math.log(exp_eps), k)
    assert twin.shape == (k, k)
    assert np.max(np.abs(twin - floats(randomized_response(exp_eps, k)))) <= 1e-15


def test_randomized_response_float_twin_large_eps():
    assert np.array_equal(randomized_response_float(800.0, 3), np.eye(3))   # e^800 overflows a float
    assert np.array_equal(randomized_response_float(math.inf, 2), np.eye(2))


# --- unary encoding -----------------------------------------------------------------------------------

def bit_mechanism(k: int, i: int, p: Fraction, q: Fraction) -> Mechanism:
    """Bit i of the report: 1 with probability p if v = i, q otherwise (outputs 0, 1)."""
    return Mechanism.from_function(ProductDomain(((tuple(range(k))),)), (0, 1),
                                   lambda x: {1: p if x[0] == i else q, 0: 1 - p if x[0] == i else 1 - q})


@pytest.mark.parametrize("k, p, q", [(2, F(3, 4), F(1, 4)), (3, F(1, 2), F(1, 4)), (4, F(2, 3), F(1, 5)),
                                     (3, F(1), F(0)), (2, F(1, 3), F(1, 3))])
def test_unary_encoding_is_the_composition_of_its_bits(k, p, q):
    m = unary_encoding(k, p, q)
    composed = compose(*(bit_mechanism(k, i, p, q) for i in range(k)))
    assert m.outputs == composed.outputs == unary_encoding_outputs(k)
    assert m.kernel == composed.kernel
    assert_rows_sum_to_one_exactly(m)
    for j, y in enumerate(m.outputs):   # output j is the integer j, most significant bit first
        assert int("".join(map(str, y)), 2) == j


def test_unary_encoding_ldp_closed_forms():
    """For 0 < q < p < 1 and k >= 2, P(y | v) = C(y) f(y_v) with f(1) = p / q, f(0) = (1 - p) / (1 - q);
    a column with both a 1 and a 0 gives the largest ratio f(1) / f(0) = p (1 - q) / (q (1 - p)).
    RAPPOR (q = 1 - p): (p / q)^2 = e^eps; OUE (p = 1/2, q = 1 / (e^eps + 1)): e^eps."""
    # general p, q: (2/3)(4/5) / ((1/5)(1/3)) = 8
    assert ldp_epsilon(unary_encoding(4, F(2, 3), F(1, 5))).ratio == 8
    for s in (F(3), F(3, 2), F(1)):            # RAPPOR with e^{eps/2} = s: p = s / (1 + s), q = 1 / (1 + s)
        p, q = s / (1 + s), 1 / (1 + s)
        assert unary_encoding_parameters("rappor", s ** 2) == (p, q)
        assert ldp_epsilon(unary_encoding(3, p, q)).ratio == (p / q) ** 2 == s ** 2
    for e in (F(3), F(5, 4), F(1)):
        p, q = F(1, 2), 1 / (e + 1)
        assert unary_encoding_parameters("oue", e) == (p, q)
        assert ldp_epsilon(unary_encoding(3, p, q)).ratio == p * (1 - q) / (q * (1 - p)) == e
    assert ldp_epsilon(unary_encoding(2, F(1), F(1, 2))).is_infinite   # p = 1: a 0 bit is impossible for v


@pytest.mark.parametrize("variant, exp_eps, k", [("rappor", 9, 3), ("rappor", F(9, 4), 2), ("oue", 3, 3),
                                                 ("oue", F(5, 4), 4), ("oue", 1, 2), ("rappor", 100, 5)])
def test_unary_encoding_float_twin(variant, exp_eps, k):
    e = F(exp_eps)
    if variant == "rappor":
        s = F(math.isqrt(e.numerator), math.isqrt(e.denominator))
        assert s * s == e
        p, q = s / (1 + s), 1 / (1 + s)
    else:
        p, q = F(1, 2), 1 / (e + 1)
    twin = unary_encoding_float(k, math.log(exp_eps), variant)
    assert twin.shape == (k, 2 ** k)
    assert np.max(np.abs(twin - floats(unary_encoding(k, p, q)))) <= 1e-15


def test_unary_encoding_refuses_large_k_with_the_size():
    with pytest.raises(InvalidInputError, match=r"2\^13 = 8192 outputs"):
        unary_encoding(13, F(1, 2), F(1, 4))
    with pytest.raises(InvalidInputError, match="8192"):
        unary_encoding_float(13, 1.0, "oue")
    assert len(unary_encoding_outputs(12)) == 4096


# --- the geometric mechanism --------------------------------------------------------------------------

@pytest.mark.parametrize("alpha, lo, hi, inputs", [(F(1, 2), -3, 3, [-1, 0, 2]), (F(2, 3), 0, 5, range(6)),
                                                   (F(1, 10), 10, 12, [11]), (F(9, 10), -2, 7, [7, -2, 3])])
def test_geometric_kernel_and_ldp(alpha, lo, hi, inputs):
    """Interior y: (1 - a) / (1 + a) a^|y - x|; ends: the tail masses P(Z <= lo - x), P(Z >= hi - x) of
    the two-sided geometric Z, checked against float partial sums of its pmf.  LDP: every entry is
    c_y a^|y - x| (ends included, as x lies in [lo, hi]), so column y has ratio a^{-(max_x |y - x| -
    min_x |y - x|)} <= a^{-(max input - min input)} (triangle inequality), with equality at y = the
    smallest input: the LDP ratio is alpha^{-(max input - min input)}."""
    inputs = list(inputs)
    m = geometric(alpha, lo, hi, inputs)
    assert m.outputs == tuple(range(lo, hi + 1))
    assert_rows_sum_to_one_exactly(m)
    c = (1 - alpha) / (1 + alpha)
    a = float(alpha)
    pmf = lambda z: (1 - a) / (1 + a) * a ** abs(z)
    for x in inputs:
        row = m.row((x,))
        for j, y in enumerate(range(lo + 1, hi), start=1):
            assert row[j] == c * alpha ** abs(y - x)
        below = math.fsum(pmf(z) for z in range(lo - x - 2000, lo - x + 1))
        above = math.fsum(pmf(z) for z in range(hi - x, hi - x + 2001))
        assert abs(float(row[0]) - below) <= 1e-12 and abs(float(row[-1]) - above) <= 1e-12
    assert ldp_epsilon(m).ratio == alpha ** -(max(inputs) - min(inputs))


@pytest.mark.parametrize("alpha, lo, hi, inputs", [(F(1, 2), -3, 3, [-1, 0, 2]), (F(1, 3), 0, 40, [0, 17, 40]),
                                                   (F(99, 100), -5, 5, range(-5, 6))])
def test_geometric_float_twin(alpha, lo, hi, inputs):
    twin = geometric_float(float(alpha), lo, hi, list(inputs))
    assert np.max(np.abs(twin - floats(geometric(alpha, lo, hi, list(inputs))))) <= 1e-15


# --- binned Laplace -----------------------------------------------------------------------------------

def laplace_cell(x: float, b: float, lo: float, hi: float) -> float:
    """P(x + Laplace(b) in [lo, hi)) from the CDF at 50 digits."""
    with mpmath.workdps(50):
        def cdf(t: float) -> mpmath.mpf:
            if t == -math.inf:
                return mpmath.mpf(0)
            if t == math.inf:
                return mpmath.mpf(1)
            u = (mpmath.mpf(t) - mpmath.mpf(x)) / mpmath.mpf(b)
            return mpmath.exp(u) / 2 if u < 0 else 1 - mpmath.exp(-u) / 2
        return float(cdf(hi) - cdf(lo))


def test_binned_laplace_against_the_cdf():
    inputs, b = [-1.0, 0.0, 0.25, 3.0], 0.7
    edges = [-math.inf, -30.0, -2.0, -0.5, 0.0, 0.1, 1.0, 25.0, math.inf]
    kernel = binned_laplace_float(inputs, b, edges)
    for i, x in enumerate(inputs):
        for j in range(len(edges) - 1):
            want = laplace_cell(x, b, edges[j], edges[j + 1])
            assert abs(kernel[i, j] - want) <= 1e-15 and abs(kernel[i, j] - want) <= 1e-13 * want
        assert abs(math.fsum(kernel[i]) - 1) <= 1e-15
    # the cell (-inf, -30) lies left of every input: ratio e^{(x' - x) / b}, the Laplace bound attained
    assert math.isclose(math.log(kernel[0, 0] / kernel[3, 0]), 4.0 / b, rel_tol=1e-12)
    assert binned_laplace_float([2.0], 1, [-math.inf, math.inf]).tolist() == [[1.0]]


# --- argument checks ----------------------------------------------------------------------------------

@pytest.mark.parametrize("call, error, message", [
    (lambda: randomized_response(2.0), FloatRefusedError, "floats are refused"),
    (lambda: randomized_response(F(1, 2)), InvalidInputError, "at least 1"),
    (lambda: randomized_response(2, 1), InvalidInputError, "k must be an integer >= 2"),
    (lambda: randomized_response(2, True), WrongTypeError, "k must be an integer"),
    (lambda: randomized_response(2, 5000), InvalidInputError, "5000 outputs"),
    (lambda: randomized_response_float(-1.0), InvalidInputError, "non-negative"),
    (lambda: randomized_response_float(float("nan")), InvalidInputError, "NaN"),
    (lambda: unary_encoding(3, 0.5, F(1, 4)), FloatRefusedError, "floats are refused"),
    (lambda: unary_encoding(3, F(3, 2), F(1, 4)), InvalidInputError, "not a probability"),
    (lambda: unary_encoding_float(3, 1.0, "sue"), InvalidInputError, "'rappor' or 'oue'"),
    (lambda: unary_encoding_parameters("rappor", 3), InvalidInputError, "not the square of a rational"),
    (lambda: geometric(F(1), 0, 3, [1]), InvalidInputError, r"\(0, 1\)"),
    (lambda: geometric(0.5, 0, 3, [1]), FloatRefusedError, "floats are refused"),
    (lambda: geometric(F(1, 2), 3, 3, [3]), InvalidInputError, "lo < hi"),
    (lambda: geometric(F(1, 2), 0, 3, [4]), InvalidInputError, r"input 0 must be an integer in \[0, 3\]"),
    (lambda: geometric(F(1, 2), 0, 3, [1, 1]), InvalidInputError, "distinct"),
    (lambda: geometric(F(1, 2), 0, 3, []), InvalidInputError, "empty"),
    (lambda: geometric(F(1, 2), 0, 3, [1.0]), WrongTypeError, "input 0 must be an integer"),
    (lambda: geometric_float(0.0, 0, 3, [1]), InvalidInputError, r"\(0, 1\)"),
    (lambda: binned_laplace_float([0.0], 1.0, [-1.0, 0.0, math.inf]), InvalidInputError, "start at -inf"),
    (lambda: binned_laplace_float([0.0], 0.0, [-math.inf, math.inf]), InvalidInputError, "positive"),
    (lambda: binned_laplace_float([0.0], 1.0, [-math.inf, 1.0, 0.0, math.inf]), InvalidInputError, "increasing"),
])
def test_bad_arguments_are_refused(call, error, message):
    with pytest.raises(error, match=message):
        call()


# --- goodness of fit: the rule on hand-computed tables ---------------------------------------------------

def audit_of(counts, inputs=None) -> CountAudit:
    c = np.array(counts, dtype=np.int64)
    inputs = tuple(range(c.shape[0])) if inputs is None else tuple(inputs)
    return CountAudit(inputs, tuple(range(c.shape[1])), c, c.sum(axis=1))


def test_pooling_of_small_cells_with_the_smallest_cell():
    """Expected 50, 30, 0.1, 0.2, 19.7: the small cells pool to 0.3 < 5 and join the smallest other
    cell (19.7), leaving 3 cells: Pearson's statistic on 2 degrees of freedom, p = exp(-x / 2)."""
    kernel = [[0.5, 0.3, 0.001, 0.002, 0.197]]
    stat = (48 - 50) ** 2 / 50 + (33 - 30) ** 2 / 30 + (19 - 20) ** 2 / 20
    assert math.isclose(goodness_of_fit(audit_of([[48, 33, 1, 0, 18]]), kernel), math.exp(-stat / 2), rel_tol=1e-12)


def test_pooling_of_small_cells_that_reach_five_together():
    """Expected 50, 42, 4, 4: the two small cells pool to 8 >= 5 and stay one cell of their own."""
    kernel = [[F(1, 2), F(21, 50), F(1, 25), F(1, 25)]]
    stat = (45 - 50) ** 2 / 50 + (45 - 42) ** 2 / 42 + (10 - 8) ** 2 / 8
    assert math.isclose(goodness_of_fit(audit_of([[45, 45, 3, 7]]), kernel), math.exp(-stat / 2), rel_tol=1e-12)


def test_bonferroni_over_inputs_and_the_cap():
    """Two rows with 3 cells of expected 20 each: p_x = exp(-x_x / 2); the result is 2 min p_x, capped at 1."""
    kernel = [[F(1, 3)] * 3, [F(1, 3)] * 3]
    s0 = (30 - 20) ** 2 / 20 + (15 - 20) ** 2 / 20 + (15 - 20) ** 2 / 20      # 7.5
    s1 = (22 - 20) ** 2 / 20 + (19 - 20) ** 2 / 20 + (19 - 20) ** 2 / 20      # 0.3
    audit = audit_of([[30, 15, 15], [22, 19, 19]])
    assert np.allclose(row_p_values(audit, kernel), [math.exp(-s0 / 2), math.exp(-s1 / 2)], rtol=1e-12, atol=0)
    assert math.isclose(goodness_of_fit(audit, kernel), 2 * math.exp(-s0 / 2), rel_tol=1e-12)
    assert goodness_of_fit(audit_of([[21, 20, 19], [20, 21, 19]]), kernel) == 1.0


def test_nothing_to_test_gives_one_and_impossible_counts_give_zero():
    assert goodness_of_fit(audit_of([[3, 0]]), [[0.5, 0.5]]) == 1.0          # all expected < 5: one pooled cell
    assert goodness_of_fit(audit_of([[500, 500, 0]]), [[0.5, 0.5, 0.0]]) == 1.0   # empty cell of probability 0
    assert goodness_of_fit(audit_of([[500, 499, 1], [500, 500, 0]]), [[0.5, 0.5, 0.0]] * 2) == 0.0
    assert goodness_of_fit(audit_of([[5, 5, 1]]), [[F(1, 2), F(1, 2), F(0)]]) == 0.0


@pytest.mark.parametrize("kernel, message", [
    ([[0.5, 0.5]], r"shape \(1, 3\)"),
    ([[0.5, 0.25, 0.25], [0.5, 0.5, 0.0]], r"shape \(1, 3\)"),
    ([[0.5, 0.5 + 2e-9, 0.0]], "not 1 within"),
    ([[F(1, 3), F(1, 3), F(1, 3) + F(1, 10 ** 30)]], "not exactly 1"),
    ([[0.5, 0.75, -0.25]], "negative"),
    ([[0.5, float("nan"), 0.5]], "NaN"),
    ([[True, 0, 0]], "booleans"),
])
def test_bad_kernels_are_refused(kernel, message):
    with pytest.raises(InvalidInputError, match=message):
        goodness_of_fit(audit_of([[4, 3, 3]]), kernel)


def test_float_row_sums_within_the_tolerance_are_accepted():
    assert goodness_of_fit(audit_of([[50, 50]]), [[0.5, 0.5 + 5e-10]]) > 0.999
    assert goodness_of_fit(audit_of([[50, 50]]), np.array([[0.5, 0.5]])) == 1.0
    assert goodness_of_fit(audit_of([[50, 50]]), [["1/2", "1/2"]]) == 1.0      # exact strings
    with pytest.raises(WrongTypeError, match="CountAudit"):
        goodness_of_fit(np.array([[50, 50]]), [[0.5, 0.5]])


# --- goodness of fit: size and power by simulation ---------------------------------------------------

def test_the_false_failure_rule():
    assert binom.isf(LEVEL, RUNS, 1e-3) <= RUNS - MIN_PASSING


def draw_audit(probs: np.ndarray, n: int, rng: np.random.Generator) -> CountAudit:
    counts = np.array([rng.multinomial(n, row / row.sum()) for row in probs], dtype=np.int64)
    return audit_of(counts)


SIZE_CASES = {
    "rr k=2 float": (randomized_response_float(1.0, 2), 2000),
    "k-rr k=4 exact": (randomized_response(3, 4), 2000),
    "rappor k=3 exact": (unary_encoding(3, F(3, 4), F(1, 4)), 2000),
    "oue k=3 float": (unary_encoding_float(3, 1.0, "oue"), 2000),
    "geometric exact, pooled tails": (geometric(F(1, 2), -6, 6, [-2, 0, 1, 3]), 500),
    "binned laplace float": (binned_laplace_float([0.0, 1.0], 1.0, [-math.inf, -3, -1, 0, 0.5, 1, 2, 4, math.inf]),
                             1000),
}


@pytest.mark.parametrize("name", sorted(SIZE_CASES))
def test_counts_drawn_from_the_kernel_fit_it(name):
    kernel, n = SIZE_CASES[name]
    probs = floats(kernel) if isinstance(kernel, Mechanism) else kernel
    rng = np.random.default_rng(20240613)
    passing = sum(goodness_of_fit(draw_audit(probs, n, rng), kernel) >= LEVEL for _ in range(RUNS))
    assert passing >= MIN_PASSING, f"{name}: {passing} of {RUNS} runs passed"


#: (name, kernel tested, kernel drawn from with 2 eps, draws per input)
POWER_CASES = {
    "rr k=2, eps 1 vs 2": (randomized_response_float(1.0, 2), randomized_response_float(2.0, 2), 2000),
    "k-rr k=4, e^eps 3 vs 9": (randomized_response(3, 4), randomized_response(9, 4), 1000),
    "rappor k=3, e^eps 9 vs 81": (unary_encoding(3, F(3, 4), F(1, 4)), unary_encoding(3, F(9, 10), F(1, 10)), 2000),
    "oue k=3, eps 1 vs 2": (unary_encoding_float(3, 1.0, "oue"), unary_encoding_float(3, 2.0, "oue"), 2000),
}


@pytest.mark.parametrize("name", sorted(POWER_CASES))
def test_counts_drawn_with_twice_the_epsilon_are_rejected(name):
    """Stated draws n: every cell of the tested kernel has expected count >= 5 (no pooling), so each
    row's Pearson statistic is asymptotically noncentral chi-square with k - 1 degrees of freedom and
    noncentrality n sum_y (p1 - p0)^2 / p0; the probability that even the most separated row stays
    below the Bonferroni threshold is checked below 1e-6, and all 100 runs must reject."""
    tested, drawn, n = POWER_CASES[name]
    p0 = floats(tested) if isinstance(tested, Mechanism) else tested
    p1 = floats(drawn) if isinstance(drawn, Mechanism) else drawn
    rows, cells = p0.shape
    assert n * p0.min() >= 5
    threshold = chi2.isf(LEVEL / rows, cells - 1)
    lam = max(n * float(np.sum((p1[i] - p0[i]) ** 2 / p0[i])) for i in range(rows))
    assert ncx2.cdf(threshold, cells - 1, lam) < 1e-6
    rng = np.random.default_rng(7)
    rejected = sum(goodness_of_fit(draw_audit(p1, n, rng), tested) < LEVEL for _ in range(RUNS))
    assert rejected == RUNS


# --- goodness of fit on counts of bcdp.audit.sampling ------------------------------------------------

def krr_sampler(eps: float, k: int):
    keep = math.exp(eps) / (math.exp(eps) + k - 1)

    def fn(x, rng, size):
        shift = rng.integers(1, k, size)                       # another value, uniformly
        return np.where(rng.random(size) < keep, x, (x + shift) % k)
    return fn


def oue_sampler_as_integers(eps: float, k: int):
    q = 1 / (math.exp(eps) + 1)

    def fn(x, rng, size):
        bits = rng.random((size, k)) < q
        bits[:, x] = rng.random(size) < 0.5
        return bits.astype(np.int64) @ (1 << np.arange(k - 1, -1, -1))   # most significant bit first
    return fn


def test_sampled_randomized_response_fits_its_kernel_and_not_twice_its_epsilon():
    audit = sample_counts(krr_sampler(1.0, 3), [0, 1, 2], Binning(labels=(0, 1, 2)), 20000, seed=5)
    assert goodness_of_fit(audit, randomized_response_float(1.0, 3)) >= LEVEL
    assert goodness_of_fit(audit, randomized_response_float(2.0, 3)) < LEVEL
    binary = sample_counts(krr_sampler(math.log(3), 2), [0, 1], Binning(labels=(0, 1)), 20000, seed=6)
    assert goodness_of_fit(binary, randomized_response(3, 2)) >= LEVEL
    assert goodness_of_fit(binary, randomized_response(9, 2)) < LEVEL


def test_sampled_oue_and_laplace_fit_their_kernels():
    k = 3
    audit = sample_counts(oue_sampler_as_integers(1.0, k), list(range(k)), Binning(labels=tuple(range(2 ** k))),
                          20000, seed=8)
    assert goodness_of_fit(audit, unary_encoding_float(k, 1.0, "oue")) >= LEVEL
    assert goodness_of_fit(audit, unary_encoding_float(k, 1.0, "rappor")) < LEVEL
    edges = (-math.inf, -2.0, -0.5, 0.0, 0.5, 1.0, 3.0, math.inf)
    lap = sample_counts(lambda x, rng, size: x + rng.laplace(0.0, 1.0, size), [0.0, 1.0], Binning(edges=edges),
                        20000, seed=9)
    assert goodness_of_fit(lap, binned_laplace_float([0.0, 1.0], 1.0, edges)) >= LEVEL
    assert goodness_of_fit(lap, binned_laplace_float([0.0, 1.0], 0.5, edges)) < LEVEL
