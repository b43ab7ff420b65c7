"""bcdp.bayesian.highprec (mpmath twins of the exact engine) and bcdp.bayesian.mmean_finite against exact Fractions.

* On random rational instances (zeros and 2^-k entries included) every value of the mpmath engine
  at 60 digits equals the Fraction engine's exact value to 50 digits, infinities included, and
  every reported witness attains its value.
* The M_mean builder is compared entry by entry with an independent Fraction construction
  (compose of per-stage mechanisms) when every stage budget is the log of a rational, for both
  channels and a non-identity coordinate order; the high-precision parameters then equal the exact
  engine's on the exact kernel.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import mpmath
import pytest
import sympy
from bcdp import (
    Mechanism,
    Prior,
    ProductDomain,
    bcdp_vector,
    bdp_epsilon,
    cdp_vector,
    compose,
    conditional_output_laws,
    ldp_epsilon,
)
from bcdp.bayesian import highprec as hp
from bcdp.bayesian.allocation import allocate_budgets
from bcdp.bayesian.mmean_finite import (
    mmean_for_allocation,
    mmean_joint_kernel,
    stage_budgets,
)
from bcdp.bayesian.random_instances import random_instance
from bcdp.core.numbers import INFINITY
from hypothesis import given, settings
from strategies import instance

DPS = 60
TOL = mpmath.mpf(10) ** -50


def exact_log(ratio) -> mpmath.mpf:
    if ratio == INFINITY:
        return mpmath.inf
    r = Fraction(ratio)
    with mpmath.workdps(120):
        return mpmath.log(mpmath.mpf(r.numerator) / r.denominator)


def close(hp_value, exact_ratio) -> bool:
    ex = exact_log(exact_ratio)
    if ex == mpmath.inf or hp_value == mpmath.inf:
        return ex == hp_value
    with mpmath.workdps(120):
        return abs(hp_value - ex) <= TOL * max(1, abs(ex))


def assert_engines_agree(mech: Mechanism, prior: Prior) -> None:
    h = hp.HPMechanism.from_exact(mech, DPS)
    assert close(hp.ldp_epsilon(h).value, ldp_epsilon(mech).ratio)
    assert close(hp.bdp_epsilon(h, prior).value, bdp_epsilon(mech, prior).ratio)
    for a, b in zip(hp.cdp_vector(h), cdp_vector(mech)):
        assert close(a.value, b.ratio)
    for a, b in zip(hp.bcdp_vector(h, prior), bcdp_vector(mech, prior)):
        assert close(a.value, b.ratio)
    for i in range(mech.domain.d):
        laws_h = hp.conditional_output_laws(h, prior, i)
        laws_e = conditional_output_laws(mech, prior, i)
        assert list(laws_h) == list(laws_e)
        for v in laws_e:
            for ph, pe in zip(laws_h[v], laws_e[v]):
                with mpmath.workdps(120):
                    assert abs(ph - hp.mpf_of(pe, 120)) <= TOL * abs(hp.mpf_of(pe, 120))


def test_engines_agree_on_seeded_random_instances():
    rng = random.Random(606)
    for _ in range(150):
        mech, prior = random_instance(rng, max_size=12, max_outputs=4, zero_prob=0.15, tiny_prob=0.1)
        assert_engines_agree(mech, prior)


@settings(max_examples=80, deadline=None)
@given(instance(max_size=8, max_outputs=4))
def test_engines_agree_hypothesis(inst):
    assert_engines_agree(*inst)


def _ratio_at(num, den, outputs, region):
    idx = [outputs.index(y) for y in region]
    with mpmath.workdps(DPS):
        a, b = mpmath.fsum(num[m] for m in idx), mpmath.fsum(den[m] for m in idx)
        return mpmath.inf if b == 0 else a / b


@settings(max_examples=60, deadline=None)
@given(instance(max_size=8, max_outputs=4))
def test_witnesses_attain_values(inst):
    mech, prior = inst
    h = hp.HPMechanism.from_exact(mech, DPS)
    ldp = hp.ldp_epsilon(h)
    if ldp.witness is not None:
        assert _ratio_at(h.row(ldp.witness["x"]), h.row(ldp.witness["x_prime"]), h.outputs,
                         ldp.witness["R"]) == ldp.ratio
    for i, delta in enumerate(hp.bcdp_vector(h, prior)):
        if delta.witness is None:
            assert delta.ratio == 1
            continue
        laws = hp.conditional_output_laws(h, prior, i)
        (v,), (vp,) = delta.witness["S_i"], delta.witness["S_i_prime"]
        assert _ratio_at(laws[v], laws[vp], h.outputs, delta.witness["R"]) == delta.ratio


def test_mpf_of_is_certified_against_sympy_evalf():
    for expr in (sympy.log(sympy.Rational(7, 3)), sympy.exp(sympy.Rational(-2, 5)) + sympy.log(3),
                 sympy.Min(sympy.Rational(1, 5), sympy.log(2)),
                 sympy.log((sympy.exp(sympy.Rational(1, 10)) + sympy.Rational(3, 10) - 1) / sympy.Rational(3, 10))):
        with mpmath.workdps(80):
            ref = mpmath.mpf(str(sympy.N(expr, 90)))
            assert abs(hp.mpf_of(expr, DPS) - ref) <= mpmath.mpf(10) ** -58
    with mpmath.workdps(DPS):
        assert hp.mpf_of(Fraction(1, 3), DPS) == mpmath.mpf(1) / 3


def test_mpf_of_matches_a_60_digit_mp_reference_on_tiny_arguments():
    """mpf_of goes through an arb ball; arguments where mpmath 1.3's interval exp/log returned
    enclosures excluding the truth (tiny exponents) included.  Reference: mpmath.mp at 80 digits."""
    tiny = sympy.Rational(1, 2 ** 53)
    cases = [(sympy.exp(-tiny), lambda: mpmath.exp(-mpmath.mpf(2) ** -53)),
             (sympy.log(1 + tiny), lambda: mpmath.log1p(mpmath.mpf(2) ** -53)),
             (sympy.exp(sympy.Rational(1, 10 ** 30)) - 1, lambda: mpmath.expm1(mpmath.mpf(10) ** -30)),
             (sympy.log(sympy.Rational(7, 3)) * sympy.exp(sympy.Rational(-1, 7)),
              lambda: mpmath.log(mpmath.mpf(7) / 3) * mpmath.exp(-mpmath.mpf(1) / 7))]
    for expr, reference in cases:
        with mpmath.workdps(80):
            ref = reference()
            got = hp.mpf_of(expr, DPS)
            assert abs(got - ref) <= mpmath.mpf(10) ** -59 * max(1, abs(ref))  # mpf_of's contract


def test_stage_budgets_exact_ties_and_monotonicity():
    b = stage_budgets([sympy.log(2), sympy.log(4) - sympy.log(2), sympy.log(6)], DPS)
    assert b[1] == 0  # log 4 - log 2 - log 2 is a proven tie: exactly zero
    with mpmath.workdps(DPS):
        assert abs(b[2] - mpmath.log(3)) < mpmath.mpf(10) ** -55
    with pytest.raises(ValueError):
        stage_budgets([sympy.log(3), sympy.log(2)], DPS)


# -- M_mean against an independent Fraction construction ---------------------------------------

def exact_mmean(ratios, d, channel, order, values=(0, 1)) -> Mechanism:
    """Mechanism 1's joint release with stage k's e^{b_k} = ratios[k] (rr), or e^{b_k/m} =
    ratios[k] (coordinate_rr, m = d - k), built stage by stage in Fractions and composed."""
    dom = ProductDomain.binary(d, values)
    stages = []
    for k in range(d):
        m = d - k
        pts = list(itertools.product(values, repeat=m))
        r = Fraction(ratios[k])

        def law(x, k=k, m=m, pts=pts, r=r):
            s = tuple(x[order[t]] for t in range(d))[k:]
            if channel == "rr":
                den = r + 2 ** m - 1
                return {y: (r if y == s else 1) / den for y in pts}
            out = {}
            for y in pts:
                p = Fraction(1)
                for a, b in zip(s, y):
                    p *= (r if a == b else 1) / (1 + r)
                out[y] = p
            return out

        stages.append(Mechanism.from_function(dom, pts, law))
    return compose(*stages)


@pytest.mark.parametrize("channel", ["rr", "coordinate_rr"])
@pytest.mark.parametrize("d,order,ratios", [
    (3, (0, 1, 2), ("3/2", "1", "2")),
    (3, (2, 0, 1), ("2", "5/4", "1")),
    (4, (1, 3, 0, 2), ("3/2", "1", "4/3", "2")),
])
def test_mmean_kernel_matches_exact_composition(channel, d, order, ratios):
    c = sympy.Integer(0)
    c_sorted = []
    for k, r in enumerate(ratios):
        b = sympy.log(sympy.Rational(r)) * (d - k if channel == "coordinate_rr" else 1)
        c = c + b
        c_sorted.append(c)
    h = mmean_joint_kernel(c_sorted, d, channel, DPS, order=order)
    ex = exact_mmean(ratios, d, channel, order)
    assert h.outputs == ex.outputs
    with mpmath.workdps(120):
        for row_h, row_e in zip(h.kernel, ex.kernel):
            for a, b in zip(row_h, row_e):
                bb = hp.mpf_of(b, 120)
                assert abs(a - bb) <= TOL * bb
    prior = Prior.correlated_bits(d, Fraction(3, 10))
    for a, b in zip(hp.bcdp_vector(h, prior), bcdp_vector(ex, prior)):
        assert close(a.value, b.ratio)
    assert close(hp.ldp_epsilon(h).value, ldp_epsilon(ex).ratio)
    if d == 3:
        for a, b in zip(hp.cdp_vector(h), cdp_vector(ex)):
            assert close(a.value, b.ratio)


@pytest.mark.parametrize("channel", ["rr", "coordinate_rr"])
def test_mmean_ldp_is_c_d_and_rr_cdp_is_c_in_original_order(channel):
    alloc = allocate_budgets(["1", "0.3", "0.6"], "0.8", "1/10", "1/2")
    assert list(alloc.order) == [1, 2, 0]
    h = mmean_for_allocation(alloc, channel=channel)
    with mpmath.workdps(DPS):
        assert abs(hp.ldp_epsilon(h).value - hp.mpf_of(alloc.c_sorted[-1], DPS)) < TOL
        cdp = [v.value for v in hp.cdp_vector(h)]
        c = [hp.mpf_of(v, DPS) for v in alloc.c]
        if channel == "rr":  # coordinate i is seen by stages 1..pos(i): budget c_i exactly
            assert all(abs(a - b) < TOL for a, b in zip(cdp, c))
        else:
            assert all(a <= b + TOL for a, b in zip(cdp, c))


def test_check_module_runs_and_confirms():
    from bcdp.checks.bcdp.thm2_privacy_enumeration import evaluate
    rec = evaluate(3, "rr", Prior.correlated_bits(3, 1, values=(-1, 1)), ["0.2", "0.2", "2"], "2",
                   Fraction(1), Fraction(1), (-1, 1))
    assert rec["ties"] == [0, 1] and rec["ties_exact_at_120dps"] and not rec["violation"]


# -- max_column_ratio: the core implementation at dps digits, against a literal pair search -------


def _literal_max_ratio(rows):
    """max over ordered row pairs (a, b) and columns m of rows[a][m] / rows[b][m] (0/0 skipped,
    positive/0 infinite) and the first column attaining it, by enumerating every pair; (1, None)
    when no pair has a positive entry."""
    best, col = None, None
    for m in range(len(rows[0])):
        ratios = []
        for a, b in itertools.permutations(range(len(rows)), 2):
            num, den = rows[a][m], rows[b][m]
            if num > 0 and den == 0:
                return mpmath.inf, m
            if den > 0:
                ratios.append(num / den)
        if ratios and max(ratios) > 0 and (best is None or max(ratios) > best):
            best, col = max(ratios), m
    return (mpmath.mpf(1), None) if best is None else (best, col)


def test_max_column_ratio_adapter_against_pair_search():
    rng = random.Random(5)
    with mpmath.workdps(DPS):
        for _ in range(200):
            n_rows, n_cols = rng.randint(1, 4), rng.randint(1, 4)
            rows = [[mpmath.mpf(rng.choice([0, 0, 1, 2, 3, 7])) / rng.choice([1, 3, 2 ** 100]) for _ in range(n_cols)]
                    for _ in range(n_rows)]
            labels = [f"r{k}" for k in range(n_rows)]
            outputs = [f"y{m}" for m in range(n_cols)]
            ratio, w = hp.max_column_ratio(rows, labels, outputs, DPS)
            ref, col = _literal_max_ratio(rows)
            if n_rows == 1 or col is None:   # no pair constrains anything: ratio 1
                assert ratio == 1 and isinstance(ratio, mpmath.mpf)
                continue
            assert ratio == ref, (rows, ratio, ref)
            assert w["output"] == outputs[col]
            a, b = labels.index(w["numerator"]), labels.index(w["denominator"])
            num, den = rows[a][col], rows[b][col]
            assert (den == 0 and num > 0) if ratio == mpmath.inf else num / den == ratio
