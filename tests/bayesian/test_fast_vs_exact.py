"""Property tests: the float64 fast path (bcdp.bayesian.fast) against the exact engine (bcdp.bayesian.notions).

Instances are exact (Fractions built from hypothesis-drawn integers, with zeros, zero columns,
priors without full support and tiny entries c * 2**-k, k <= 900); the fast path receives their
float64 roundings.  Checked: infinite exactly when the exact value is infinite, finite values equal
within rel 1e-9 + abs 1e-12, every fast witness attains the reported value, the dependence, the
conditional laws, the Neyman-Pearson curve and the validation errors.
"""

from __future__ import annotations

import ast
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from bcdp.bayesian import fast, notions
from bcdp.bayesian.hypothesis_testing import (
    all_tests,
    neyman_pearson_curve,
    smallest_delta_ratio,
)
from bcdp.core.numbers import INFINITY
from bcdp.core.spaces import Mechanism, Prior, ProductDomain
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import small_domain

REL, ABS = 1e-9, 1e-12
SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ------------------------------------------------------------------------------------------------
# helpers
# ------------------------------------------------------------------------------------------------
def ref_log(ratio) -> float:
    """log of an exact ratio (Fraction >= 0 or INFINITY), accurate also near 1 and for huge
    numerators/denominators (LogRatioParameter.float is not: it subtracts two big logs)."""
    if ratio == INFINITY:
        return math.inf
    r = Fraction(ratio)
    if Fraction(1, 2) <= r <= 2:
        return math.log1p(float(r - 1))
    if Fraction(1, 10**300) < r < 10**300:
        return math.log(float(r))
    return math.log(r.numerator) - math.log(r.denominator)


def close(fast_value: float, exact_value: float, rel: float = REL, abs_: float = ABS) -> bool:
    if math.isinf(exact_value) or math.isinf(fast_value):
        return fast_value == exact_value
    return abs(fast_value - exact_value) <= rel * abs(exact_value) + abs_


def exact_ratio_log(num: Fraction, den: Fraction) -> float:
    if den == 0:
        assert num > 0, "witness points at a 0/0 pair"
        return math.inf
    return ref_log(num / den)


def to_float(values) -> np.ndarray:
    return np.array([[float(v) for v in row] for row in values]) if values and \
        isinstance(values[0], (tuple, list)) else np.array([float(v) for v in values])


# ------------------------------------------------------------------------------------------------
# strategies
# ------------------------------------------------------------------------------------------------
@st.composite
def weight(draw, zero: bool = True) -> Fraction:
    """0, a small integer, or c * 2**-k with k up to 900 (a tiny but normal float)."""
    kind = draw(st.sampled_from(["zero", "int", "int", "tiny"] if zero else ["int", "int", "tiny"]))
    if kind == "zero":
        return Fraction(0)
    c = draw(st.integers(1, 20))
    if kind == "int":
        return Fraction(c)
    return Fraction(c, 2 ** draw(st.integers(1, 900)))


@st.composite
def pmf(draw, n: int, allowed: list[bool] | None = None) -> tuple[Fraction, ...]:
    """An exact pmf on n points, zero where ``allowed`` is False, at least one positive entry."""
    allowed = allowed or [True] * n
    ws = [draw(weight()) if ok else Fraction(0) for ok in allowed]
    if sum(ws) == 0:
        j = draw(st.sampled_from([k for k, ok in enumerate(allowed) if ok]))
        ws[j] = Fraction(draw(st.integers(1, 20)))
    total = sum(ws, Fraction(0))
    return tuple(w / total for w in ws)


@st.composite
def instance(draw, max_size: int = 12, max_outputs: int = 5):
    """(Mechanism, Prior) on a random product domain; some kernels have entire zero columns."""
    dom = draw(small_domain(max_size))
    m = draw(st.integers(1, max_outputs))
    zero_cols = draw(st.lists(st.booleans(), min_size=m, max_size=m))
    if all(zero_cols):
        zero_cols[draw(st.integers(0, m - 1))] = False
    allowed = [not z for z in zero_cols]
    rows = tuple(draw(pmf(m, allowed)) for _ in range(dom.size))
    mech = Mechanism(dom, tuple(range(m)), rows)
    prior = Prior(dom, draw(pmf(dom.size)))
    return mech, prior


@st.composite
def dyadic_pmf(draw, n: int, allowed: list[bool] | None = None) -> tuple[Fraction, ...]:
    """An exact pmf whose entries, except one remainder entry, are c * 2**-k (c <= 7) and hence
    exactly representable in float64 -- including subnormals down to 2**-1070, so that ratios
    beyond 2**1022 (float overflow of a quotient) occur.  The remainder is >= 1/8."""
    allowed = allowed or [True] * n
    idx = [k for k, ok in enumerate(allowed) if ok]
    rem = draw(st.sampled_from(idx))
    base = max(1, n - 1).bit_length() + 3
    ws = []
    for k in range(n):
        kind = draw(st.sampled_from(["zero", "big", "mid", "tiny"]))
        if not allowed[k] or k == rem or kind == "zero":
            ws.append(Fraction(0))
            continue
        c = draw(st.integers(1, 7))
        lo, hi = {"big": (base, base + 5), "mid": (base, 900), "tiny": (900, 1070)}[kind]
        ws.append(Fraction(c, 2 ** draw(st.integers(lo, hi))))
    ws[rem] = 1 - sum(ws, Fraction(0))
    assert ws[rem] >= Fraction(1, 8)
    return tuple(ws)


@st.composite
def dyadic_instance(draw, max_size: int = 12, max_outputs: int = 4):
    dom = draw(small_domain(max_size))
    m = draw(st.integers(1, max_outputs))
    allowed = [True] * m
    if m > 1 and draw(st.booleans()):
        allowed[draw(st.integers(0, m - 1))] = False  # an all-zero column
    rows = tuple(draw(dyadic_pmf(m, allowed)) for _ in range(dom.size))
    return Mechanism(dom, tuple(range(m)), rows), Prior(dom, draw(dyadic_pmf(dom.size)))


def floats_of(mech: Mechanism, prior: Prior):
    return to_float(mech.kernel), to_float(prior.pmf), mech.domain.shape


# ------------------------------------------------------------------------------------------------
# LDP, BDP, CDP
# ------------------------------------------------------------------------------------------------
def check_point_witness(K: np.ndarray, f: fast.FastParameter) -> None:
    w = f.witness
    assert set(w) == {"x", "x_prime", "output"}
    num, den = Fraction(float(K[w["x"], w["output"]])), Fraction(float(K[w["x_prime"], w["output"]]))
    assert close(f.value, exact_ratio_log(num, den)), (f, num, den)


@settings(max_examples=150, **SETTINGS)
@given(instance())
def test_ldp_bdp_match_exact(inst):
    mech, prior = inst
    K, p, _ = floats_of(mech, prior)
    for exact, f in ((notions.ldp_epsilon(mech), fast.ldp_epsilon_fast(K)),
                     (notions.bdp_epsilon(mech, prior), fast.bdp_epsilon_fast(K, p))):
        assert not math.isnan(f.value)
        assert close(f.value, ref_log(exact.ratio)), (f, exact)
        check_point_witness(K, f)
    w = fast.bdp_epsilon_fast(K, p).witness
    assert p[w["x"]] > 0 and p[w["x_prime"]] > 0


@settings(max_examples=150, **SETTINGS)
@given(instance())
def test_cdp_matches_exact(inst):
    mech, prior = inst
    K, _, shape = floats_of(mech, prior)
    fv = fast.cdp_vector_fast(K, shape)
    ev = notions.cdp_vector(mech)
    assert len(fv) == len(ev) == len(shape)
    for i, (e, f) in enumerate(zip(ev, fv)):
        assert close(f.value, ref_log(e.ratio)), (i, f, e)
        check_point_witness(K, f)
        a = np.unravel_index(f.witness["x"], shape)
        b = np.unravel_index(f.witness["x_prime"], shape)
        assert all(a[j] == b[j] for j in range(len(shape)) if j != i)


# ------------------------------------------------------------------------------------------------
# BCDP and the conditional laws
# ------------------------------------------------------------------------------------------------
@settings(max_examples=150, **SETTINGS)
@given(instance())
def test_bcdp_matches_exact(inst):
    mech, prior = inst
    K, p, shape = floats_of(mech, prior)
    fv = fast.bcdp_vector_fast(K, p, shape)
    ev = notions.bcdp_vector(mech, prior)
    for i, (e, f) in enumerate(zip(ev, fv)):
        assert close(f.value, ref_log(e.ratio)), (i, f, e)
        w = f.witness
        assert w["coordinate"] == i
        laws = notions.conditional_output_laws(mech, prior, i)
        assert w["value"] in laws and w["value_prime"] in laws
        num, den = laws[w["value"]][w["output"]], laws[w["value_prime"]][w["output"]]
        assert close(f.value, exact_ratio_log(num, den)), (f, num, den)
        if len(laws) == 1:
            assert f.value == 0.0


def exact_log(x: Fraction) -> float:
    return -math.inf if x == 0 else ref_log(x)


@settings(max_examples=100, **SETTINGS)
@given(instance(), st.data())
def test_conditional_laws_match_exact(inst, data):
    mech, prior = inst
    K, p, shape = floats_of(mech, prior)
    i = data.draw(st.integers(0, len(shape) - 1))
    values, logs = fast.conditional_output_laws_fast(K, p, shape, i)
    exact = notions.conditional_output_laws(mech, prior, i)
    assert list(values) == list(exact)
    for r, v in enumerate(values):
        for y, q in enumerate(exact[v]):
            want = exact_log(q)
            if q == 0:
                assert logs[r, y] == -math.inf
            else:  # log-probabilities (possibly < -1000): relative precision of P ~ 1e-12
                assert abs(logs[r, y] - want) <= 1e-12 * abs(want) + 1e-12, (v, y, logs[r, y], want)


@settings(max_examples=120, **SETTINGS)
@given(dyadic_instance())
def test_all_quantities_with_subnormal_entries_and_overflowing_ratios(inst):
    """Entries down to 2**-1070 (subnormal, yet exact in float64): quotients overflow or
    underflow, BCDP sums underflow; every fast value must still match the exact one."""
    mech, prior = inst
    K, p, shape = floats_of(mech, prior)
    pairs = [(notions.ldp_epsilon(mech), fast.ldp_epsilon_fast(K)),
             (notions.bdp_epsilon(mech, prior), fast.bdp_epsilon_fast(K, p))]
    pairs += list(zip(notions.cdp_vector(mech), fast.cdp_vector_fast(K, shape)))
    for e, f in pairs:
        assert close(f.value, ref_log(e.ratio)), (f, e)
        check_point_witness(K, f)
    for i, (e, f) in enumerate(zip(notions.bcdp_vector(mech, prior), fast.bcdp_vector_fast(K, p, shape))):
        assert close(f.value, ref_log(e.ratio)), (i, f, e)
        laws = notions.conditional_output_laws(mech, prior, i)
        w = f.witness
        assert close(f.value, exact_ratio_log(laws[w["value"]][w["output"]],
                                              laws[w["value_prime"]][w["output"]]))
        values, logs = fast.conditional_output_laws_fast(K, p, shape, i)
        assert list(values) == list(laws)
        for r, v in enumerate(values):
            for y, q in enumerate(laws[v]):
                if q == 0:
                    assert logs[r, y] == -math.inf
                else:
                    assert abs(logs[r, y] - exact_log(q)) <= 1e-12 * max(1.0, abs(exact_log(q)))
    for e, f in zip(notions.coordinate_dependence(prior), fast.coordinate_dependence_fast(p, shape)):
        assert close(f.value, float(e.value)), (f, e)


@settings(max_examples=10, **SETTINGS)
@given(st.integers(65, 80).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(pmf(3), min_size=2 * n, max_size=2 * n), pmf(2 * n))))
def test_coordinate_with_many_values(data):
    """A coordinate with more than 64 values takes the grouped-sum path instead of BLAS."""
    n, rows, pi = data
    dom = ProductDomain((tuple(range(2)), tuple(range(n))))
    mech, prior = Mechanism(dom, (0, 1, 2), tuple(rows)), Prior(dom, pi)
    K, p, shape = floats_of(mech, prior)
    for e, f in zip(notions.bcdp_vector(mech, prior), fast.bcdp_vector_fast(K, p, shape)):
        assert close(f.value, ref_log(e.ratio)), (f, e)
    for e, f in zip(notions.cdp_vector(mech), fast.cdp_vector_fast(K, shape)):
        assert close(f.value, ref_log(e.ratio)), (f, e)
    for e, f in zip(notions.coordinate_dependence(prior), fast.coordinate_dependence_fast(p, shape)):
        assert close(f.value, float(e.value)), (f, e)


def _check_bcdp_and_laws(mech: Mechanism, prior: Prior, rel: float) -> None:
    K, p, shape = floats_of(mech, prior)
    for e, f in zip(notions.bcdp_vector(mech, prior), fast.bcdp_vector_fast(K, p, shape)):
        assert close(f.value, ref_log(e.ratio), rel=rel, abs_=0.0), (f, e)
    for i in range(len(shape)):
        values, logs = fast.conditional_output_laws_fast(K, p, shape, i)
        exact = notions.conditional_output_laws(mech, prior, i)
        for r, v in enumerate(values):
            for y, q in enumerate(exact[v]):
                if q:  # relative precision of P = absolute precision of log P (and log P < -1000)
                    assert abs(logs[r, y] - exact_log(q)) <= rel * max(1.0, abs(exact_log(q)))
                else:
                    assert logs[r, y] == -math.inf


def test_bcdp_underflowing_products_use_exact_fallback():
    """Terms pi(x) K(x, y) = 2**-1000 * 5 * 2**-700 (~1e-512) are the only mass of a column in a
    group: linear sums underflow to 0, the exact-exponent fallback must recover the ratio
    1 + 2**-20 / 5 to full relative precision."""
    dom = ProductDomain.binary(2)
    t, s = Fraction(1, 2**1000), Fraction(1, 2**700)
    prior = Prior(dom, (Fraction(1, 2) - t, Fraction(1, 2) - t, t, t))
    c = 5 + Fraction(1, 2**20)
    mech = Mechanism(dom, (0, 1, 2), (
        (Fraction(1, 2), Fraction(1, 2), Fraction(0)),
        (Fraction(1, 2), Fraction(1, 2), Fraction(0)),
        (Fraction(1, 2), Fraction(1, 2) - 5 * s, 5 * s),
        (Fraction(1, 2), Fraction(1, 2) - c * s, c * s)))
    e = notions.bcdp_vector(mech, prior)
    assert e[0].is_infinite and ref_log(e[1].ratio) == pytest.approx(math.log1p(2.0**-20 / 5))
    _check_bcdp_and_laws(mech, prior, rel=1e-13)


def test_bcdp_1e200_times_1e200():
    """pi(x) ~ 1e-200 and K(x, y) ~ 1e-200: products ~1e-400, ratio 1 + 2**-30 between the two
    conditional laws (handled by the per-column power-of-two scaling)."""
    dom = ProductDomain.binary(2)
    u = Fraction(1, 2**665)
    prior = Prior(dom, (Fraction(1, 2) - u, Fraction(1, 2) - u, u, u))
    c = 1 + Fraction(1, 2**30)
    mech = Mechanism(dom, (0, 1), ((1, 0), (1, 0), (1 - u, u), (1 - c * u, c * u)))
    assert ref_log(notions.bcdp_vector(mech, prior)[1].ratio) == pytest.approx(2.0**-30)
    _check_bcdp_and_laws(mech, prior, rel=1e-13)


# ------------------------------------------------------------------------------------------------
# dependence
# ------------------------------------------------------------------------------------------------
def tv(p: dict, q: dict) -> Fraction:
    return sum((max(p[z] - q[z], Fraction(0)) for z in p), Fraction(0))


@settings(max_examples=150, **SETTINGS)
@given(instance(max_size=18))
def test_dependence_matches_exact(inst):
    _, prior = inst
    p, shape = to_float(prior.pmf), prior.domain.shape
    fv = fast.coordinate_dependence_fast(p, shape)
    ev = notions.coordinate_dependence(prior)
    for i, (e, f) in enumerate(zip(ev, fv)):
        assert close(f.value, float(e.value)), (i, f, e)
        if f.witness is None:
            assert e.witness is None and f.value == 0.0
            continue
        w = f.witness
        assert w["coordinate"] == i and w["value"] != w["value_prime"]
        exact_tv = tv(prior.rest_conditional(i, w["value"]), prior.rest_conditional(i, w["value_prime"]))
        assert close(f.value, float(exact_tv))


# ------------------------------------------------------------------------------------------------
# hypothesis testing
# ------------------------------------------------------------------------------------------------
def dedupe(curve):
    out = []
    for pt in curve:
        if not out or pt != out[-1]:
            out.append(pt)
    return out


@settings(max_examples=150, **SETTINGS)
@given(st.integers(1, 8).flatmap(lambda n: st.tuples(pmf(n), pmf(n))))
def test_neyman_pearson_and_smallest_delta(laws):
    p0, p1 = laws
    exact = dedupe(neyman_pearson_curve(p0, p1))
    alpha, beta = fast.neyman_pearson_curve_fast(to_float(p0), to_float(p1))
    assert len(alpha) == len(exact), (list(zip(alpha, beta)), exact)
    for (a, b), fa, fb in zip(exact, alpha, beta):
        assert abs(fa - float(a)) <= 1e-12 and abs(fb - float(b)) <= 1e-12
    assert np.all(np.diff(alpha) >= 0) and np.all(np.diff(beta) <= 0)
    f = fast.smallest_delta_fast(to_float(p0), to_float(p1))
    e = smallest_delta_ratio(all_tests(p0, p1))
    assert close(f.value, ref_log(e)), (f, e)
    y = f.witness["output"]
    assert close(f.value, max(0.0, exact_ratio_log(p1[y], p0[y])))


def test_neyman_pearson_simple():
    alpha, beta = fast.neyman_pearson_curve_fast([0.5, 0.5, 0.0], [0.25, 0.25, 0.5])
    assert alpha.tolist() == [0.0, 0.0, 1.0] and beta.tolist() == [1.0, 0.5, 0.0]


# ------------------------------------------------------------------------------------------------
# validation
# ------------------------------------------------------------------------------------------------
GOOD_K = [[0.5, 0.5], [0.25, 0.75]]


@pytest.mark.parametrize("kernel, message", [
    ([[0.5, float("nan")], [0.5, 0.5]], r"entry \[0, 1\] is not finite"),
    ([[0.5, 0.5], [float("inf"), 0.0]], r"entry \[1, 0\] is not finite"),
    ([[1.5, -0.5], [0.5, 0.5]], r"entry \[0, 1\] is negative"),
    ([[0.5, 0.5], [0.5, 0.6]], r"row 1 sums to"),
    ([0.5, 0.5], r"2-D"),
    (np.zeros((0, 3)), r"at least one input"),
])
def test_validate_kernel_errors(kernel, message):
    with pytest.raises(ValueError, match=message):
        fast.validate_kernel(kernel)
    with pytest.raises(ValueError, match=message):
        fast.ldp_epsilon_fast(kernel)


@pytest.mark.parametrize("prior, message", [
    ([0.5, 0.6], r"prior sums to"),
    ([1.5, -0.5], r"prior entry 1 is negative"),
    ([float("nan"), 1.0], r"prior entry 0 is not finite"),
    ([1.0], r"prior has 1 entries but the kernel has 2 rows"),
    ([[0.5, 0.5]], r"1-D"),
])
def test_validate_prior_errors(prior, message):
    with pytest.raises(ValueError, match=message):
        fast.bdp_epsilon_fast(GOOD_K, prior)


def test_shape_and_law_errors():
    with pytest.raises(ValueError, match=r"shape \(3,\) describes 3 inputs"):
        fast.cdp_vector_fast(GOOD_K, (3,))
    with pytest.raises(ValueError, match=r"at least one value"):
        fast.bcdp_vector_fast(GOOD_K, [0.5, 0.5], (2, 0))
    with pytest.raises(ValueError, match=r"describes 4 inputs"):
        fast.coordinate_dependence_fast([0.5, 0.5], (2, 2))
    with pytest.raises(ValueError, match=r"coordinate 1 out of range"):
        fast.conditional_output_laws_fast(GOOD_K, [0.5, 0.5], (2,), 1)
    with pytest.raises(ValueError, match=r"same outputs"):
        fast.neyman_pearson_curve_fast([0.5, 0.5], [1.0])
    with pytest.raises(ValueError, match=r"alt_law sums to"):
        fast.smallest_delta_fast([0.5, 0.5], [0.5, 0.6])


def test_fast_edge_values():
    # zero column, an infinite ratio, 0/0 skipped, negative zero tolerated
    K = np.array([[0.5, 0.5, 0.0], [1.0, -0.0, 0.0]])
    f = fast.ldp_epsilon_fast(K)
    assert f.value == math.inf and f.witness == {"x": 0, "x_prime": 1, "output": 1}
    # a coordinate with one supported value has BCDP and dependence 0
    p = np.array([0.0, 1.0])
    assert fast.bcdp_vector_fast(K, p, (2,))[0].value == 0.0
    assert fast.coordinate_dependence_fast(p, (2,))[0] == fast.FastParameter(0.0, None)
    assert fast.bdp_epsilon_fast(K, p).value == 0.0


# ------------------------------------------------------------------------------------------------
# independence of the two engines
# ------------------------------------------------------------------------------------------------
EXACT_MODULES = ("core/numbers", "core/spaces", "core/parameters", "bayesian/notions",
                 "bayesian/hypothesis_testing", "bayesian/bruteforce", "bayesian/random_instances")


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = ("." * node.level) + (node.module or "")
            names.add(base)
            names.update(f"{base}.{a.name}" for a in node.names)
    return names


FAST_MAY_IMPORT = ("bcdp.core.numbers", "bcdp.core.errors")  # the input policy and the errors only


def _bcdp_imports(path: Path) -> set[str]:
    """The bcdp modules a file imports (relative imports resolved against bcdp.bayesian.fast)."""
    out = set()
    for name in _imports(path):
        if name.startswith("."):
            return {name}  # flagged: the fast path uses absolute imports only
        if name.startswith("bcdp"):
            out.add(name)
    return out


def test_exact_modules_never_import_fast():
    pkg = Path(fast.__file__).parents[2]  # .../bcdp (fast is the package bcdp/bayesian/fast)
    assert (pkg / "bayesian" / "fast" / "__init__.py").is_file()
    for mod in EXACT_MODULES:
        imported = _imports(pkg / f"{mod}.py")
        assert not any("fast" in name for name in imported), (mod, imported)
    # the fast path, module by module, imports from bcdp only its own modules and the input policy
    fast_files = sorted((pkg / "bayesian" / "fast").glob("*.py"))
    assert len(fast_files) >= 6, fast_files
    for path in fast_files:
        for name in _bcdp_imports(path):
            own = name.startswith("bcdp.bayesian.fast.")
            assert own or name.startswith(FAST_MAY_IMPORT), (path.name, name)
    # and the two allowed core modules import nothing else of bcdp (so the closure is small)
    for mod in ("core/numbers", "core/errors"):
        assert all(n.startswith("bcdp.core.errors") for n in _bcdp_imports(pkg / f"{mod}.py")), mod
