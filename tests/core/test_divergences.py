"""bcdp.core.divergences against independent evaluations of the definitions: mpmath at 80 digits
written here from the printed formulas, and brute force over all events for the event forms
(D_inf and the hockey-stick divergence are suprema over output sets S)."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction as F

import mpmath
import numpy as np
import pytest
import sympy

from bcdp.core.divergences import (d_infinity, hockey_stick, hockey_stick_exact, hockey_stick_float,
                                   kl_divergence, kl_divergence_exact, kl_divergence_float,
                                   max_column_ratio, renyi_divergence, renyi_divergence_exact,
                                   renyi_divergence_float, renyi_moment_exact)
from bcdp.core.errors import FloatRefusedError, InvalidInputError
from bcdp.core.numbers import INFINITY

RNG = random.Random(424242)


def random_pmf(k: int, zeros: int = 0) -> tuple[F, ...]:
    w = [RNG.randint(1, 30) for _ in range(k)]
    for i in RNG.sample(range(k), zeros):
        w[i] = 0
    s = sum(w)
    return tuple(F(x, s) for x in w)


def mp(x: F) -> mpmath.mpf:
    return mpmath.mpf(x.numerator) / x.denominator


def renyi_reference(P, Q, a) -> mpmath.mpf:
    """1/(a-1) log sum_{P>0} P^a Q^(1-a), straight from the definition, at the current precision."""
    total = mpmath.fsum(mp(p) ** a * mp(q) ** (1 - a) for p, q in zip(P, Q) if p > 0 and (q > 0 or a < 1))
    return mpmath.log(total) / (a - 1)


PAIRS = [(random_pmf(k), random_pmf(k)) for k in (2, 3, 5, 8) for _ in range(3)]


@pytest.mark.parametrize("P,Q", PAIRS)
def test_renyi_every_order_against_the_definition(P, Q):
    with mpmath.workdps(80):
        for order in (F(1, 3), F(1, 2), F(9, 10), 2, F(7, 3), 5, 40):
            ref = renyi_reference(P, Q, mp(F(order)))
            got = renyi_divergence(P, Q, order, dps=60)
            assert abs(got - ref) <= mpmath.mpf(10) ** -55 * (1 + abs(ref)), order
        kl_ref = mpmath.fsum(mp(p) * mpmath.log(mp(p) / mp(q)) for p, q in zip(P, Q) if p > 0)
        assert abs(renyi_divergence(P, Q, 1, dps=60) - kl_ref) <= mpmath.mpf(10) ** -55
        assert abs(kl_divergence(P, Q, dps=60) - kl_ref) <= mpmath.mpf(10) ** -55
        assert abs(sympy.N(kl_divergence_exact(P, Q), 70) - sympy.Float(str(kl_ref), 70)) < sympy.Float("1e-60")
        # D_inf: brute force over every event S with P(S) > 0 (not only single outputs)
        best = max(sum(P[i] for i in S) / sum(Q[i] for i in S)
                   for r in range(1, len(P) + 1) for S in itertools.combinations(range(len(P)), r))
        assert d_infinity(P, Q).ratio == best
        assert abs(renyi_divergence(P, Q, "inf", dps=60) - mpmath.log(mp(best))) <= mpmath.mpf(10) ** -55
        # continuity at order 1 from both sides
        for side in (1, -1):
            near = renyi_divergence(P, Q, 1 + side * mpmath.mpf(10) ** -25, dps=60)
            assert abs(near - kl_ref) <= mpmath.mpf(10) ** -20


@pytest.mark.parametrize("P,Q", PAIRS[:6])
def test_exact_moment_and_exact_divergence(P, Q):
    for a in (2, 3, 6):
        moment = renyi_moment_exact(P, Q, a)
        with mpmath.workdps(80):
            ref = mpmath.fsum(mp(p) ** a * mp(q) ** (1 - a) for p, q in zip(P, Q) if p > 0)
            assert abs(mp(moment) - ref) <= mpmath.mpf(10) ** -70 * ref
            assert abs(sympy.N(renyi_divergence_exact(P, Q, a), 60) - sympy.Float(str(renyi_reference(P, Q, a)), 60)) \
                < sympy.Float("1e-50")


def test_hockey_stick_is_the_event_supremum():
    for P, Q in PAIRS:
        for r in (F(0), F(1), F(3, 2), F(4)):
            sup = max(sum(P[i] for i in S) - r * sum(Q[i] for i in S)
                      for k in range(len(P) + 1) for S in itertools.combinations(range(len(P)), k))
            assert hockey_stick_exact(P, Q, r) == sup
        with mpmath.workdps(70):
            for eps in (F(0), F(1, 2), F(2)):
                sup = max(mpmath.fsum(mp(P[i]) - mpmath.exp(mp(eps)) * mp(Q[i]) for i in S)
                          for k in range(len(P) + 1) for S in itertools.combinations(range(len(P)), k))
                assert abs(hockey_stick(P, Q, eps, dps=60) - sup) <= mpmath.mpf(10) ** -55
        assert abs(hockey_stick_float(P, Q, 0.5) - float(hockey_stick(P, Q, "1/2"))) <= 1e-15


def test_support_rules():
    P, Q = (F(1, 2), F(1, 2), F(0)), (F(1, 2), F(0), F(1, 2))
    for order in (1, 2, F(3, 2), "inf"):
        assert renyi_divergence(P, Q, order) == INFINITY
    assert renyi_moment_exact(P, Q, 2) == INFINITY and d_infinity(P, Q).ratio == INFINITY
    assert kl_divergence_exact(P, Q) == sympy.oo and renyi_divergence_exact(P, Q, 3) == sympy.oo
    with mpmath.workdps(70):  # order < 1: only the common output counts
        ref = mpmath.log(mpmath.mpf(1) / 2) / (mpmath.mpf(1) / 2 - 1)
        assert abs(renyi_divergence(P, Q, F(1, 2)) - ref) <= mpmath.mpf(10) ** -45
    disjoint = ((F(1), F(0)), (F(0), F(1)))
    assert renyi_divergence(*disjoint, F(1, 2)) == INFINITY
    assert renyi_divergence_float(*[[float(x) for x in r] for r in disjoint], 0.5) == np.inf


def test_mappings_align_on_the_union_of_keys():
    P = {"a": F(1, 2), "b": F(1, 2)}
    Q = {"b": F(1, 4), "a": F(1, 4), "c": F(1, 2)}
    assert renyi_moment_exact(P, Q, 2) == F(1, 4) / F(1, 4) + F(1, 4) / F(1, 4)
    assert d_infinity(P, Q).ratio == 2
    with pytest.raises(InvalidInputError, match="both be"):
        renyi_moment_exact(P, (F(1),), 2)


def test_float_twins_against_high_precision_vectorised_over_orders():
    for P, Q in PAIRS:
        orders = np.array([0.5, 0.9, 1.0, 1.5, 2.0, 7.0, 64.0, np.inf])
        got = renyi_divergence_float([float(x) for x in P], [float(x) for x in Q], orders)
        for a, g in zip(orders, got):
            ref = renyi_divergence(P, Q, "inf" if np.isinf(a) else F(a), dps=50)
            assert abs(g - float(ref)) <= 1e-12 * (1 + abs(float(ref)))
        assert abs(kl_divergence_float([float(x) for x in P], [float(x) for x in Q]) - float(kl_divergence(P, Q))) < 1e-13


@pytest.mark.parametrize("bad,cls,msg", [
    (lambda: renyi_divergence((F(1, 2), F(1, 2)), (F(1, 2), F(1, 2)), 1.5), FloatRefusedError, "floats are refused"),
    (lambda: renyi_divergence((0.5, 0.5), (F(1, 2), F(1, 2)), 2), FloatRefusedError, "floats are refused"),
    (lambda: renyi_divergence((F(1, 2), F(1, 2)), (F(1, 2), F(1, 2)), 0), InvalidInputError, "order must be in"),
    (lambda: renyi_moment_exact((F(1, 2), F(1, 2)), (F(1, 2), F(1, 2)), F(5, 2)), InvalidInputError, "integer order"),
    (lambda: renyi_moment_exact((F(1, 2), F(1, 2)), (F(1, 2), F(1, 2)), True), InvalidInputError, "integer order"),
    (lambda: kl_divergence((F(1, 2), F(1, 3)), (F(1, 2), F(1, 2))), InvalidInputError, "not a probability"),
    (lambda: kl_divergence((F(1, 2), F(1, 2)), (F(1),)), InvalidInputError, "shape mismatch"),
    (lambda: kl_divergence((F(1, 2), F(1, 2)), (F(1, 2), F(1, 2)), dps=20), InvalidInputError, "dps"),
    (lambda: hockey_stick_exact((F(1),), (F(1),), -1), InvalidInputError, ">= 0"),
    (lambda: renyi_divergence_float([0.5, 0.5], [0.5, np.nan], 2.0), InvalidInputError, "finite"),
    (lambda: renyi_divergence_float([0.5, 0.5], [0.5, 0.5], [2.0, -1.0]), InvalidInputError, "orders"),
])
def test_bad_inputs(bad, cls, msg):
    with pytest.raises(cls, match=msg):
        bad()


def test_max_column_ratio_value_and_documented_witness_rule():
    rows = [(F(1, 2), F(1, 4), F(1, 4)), (F(1, 4), F(1, 2), F(1, 4)), (F(1, 4), F(1, 4), F(1, 2))]
    # columns 0, 1 and 2 all reach ratio 2: the first column wins, and in it the first rows
    # attaining the column max (row 0) and the column min (row 1, before row 2)
    ratio, w = max_column_ratio(rows, ["a", "b", "c"], ["y0", "y1", "y2"])
    assert ratio == 2 and w == {"numerator": "a", "denominator": "b", "output": "y0"}
    # brute force over row pairs and columns for random kernels
    for _ in range(50):
        k, m = RNG.randint(2, 4), RNG.randint(2, 4)
        kern = [random_pmf(m, zeros=RNG.randint(0, 1)) for _ in range(k)]
        ratio, w = max_column_ratio(kern, list(range(k)), list(range(m)))
        ratios = [INFINITY if kern[b][y] == 0 and kern[a][y] > 0 else kern[a][y] / kern[b][y]
                  for a in range(k) for b in range(k) for y in range(m) if kern[a][y] > 0]
        assert ratio == max(ratios + [F(1)])
        if w is not None and ratio != INFINITY:
            assert kern[w["numerator"]][w["output"]] / kern[w["denominator"]][w["output"]] == ratio


# -- edges found by mutation testing (benchmarks/mutate_core.py) ------------------------------------

def test_common_zero_outputs_contribute_nothing():
    """Outputs with P(y) = Q(y) = 0 are skipped (0/0 is not an infinite ratio), in every form."""
    P, Q = (F(1, 3), F(2, 3), F(0)), (F(1, 2), F(1, 2), F(0))
    # by hand: K_2 = (1/3)^2/(1/2) + (2/3)^2/(1/2) = 10/9; K_3 = (1/27 + 8/27) * 4 = 4/3
    assert renyi_moment_exact(P, Q, 2) == F(10, 9) and renyi_moment_exact(P, Q, 3) == F(4, 3)
    assert d_infinity(P, Q).ratio == F(4, 3)
    same = (F(1, 2), F(1, 2), F(0))
    assert d_infinity(same, same).ratio == 1 and renyi_moment_exact(same, same, 4) == 1
    with mpmath.workdps(70):
        assert abs(renyi_divergence(P, Q, "inf") - mpmath.log(mpmath.mpf(4) / 3)) <= mpmath.mpf(10) ** -45
        assert renyi_divergence(same, same, "inf") == 0


def test_d_infinity_witness_is_the_first_output_attaining_the_max():
    P, Q = (F(1, 2), F(1, 4), F(1, 4)), (F(1, 4), F(1, 8), F(5, 8))     # ratios 2, 2, 2/5
    assert d_infinity(P, Q).ratio == 2 and d_infinity(P, Q).witness == {"output": 0}
    P2, Q2 = (F(1, 8), F(1, 2), F(3, 8)), (F(1, 2), F(1, 4), F(1, 4))   # ratios 1/4, 2, 3/2
    assert d_infinity(P2, Q2).witness == {"output": 1}
    # brute force on random pairs with ties: the witness is the smallest index of a maximal ratio
    for _ in range(60):
        k = RNG.randint(2, 5)
        q = random_pmf(k)
        w = [RNG.choice((1, 2)) * q[i] for i in range(k)]           # ratios in {c, 2c}: many ties
        s = sum(w)
        p = tuple(x / s for x in w)
        ratios = [p[i] / q[i] for i in range(k)]
        assert d_infinity(p, q).ratio == max(ratios)
        assert d_infinity(p, q).witness == {"output": ratios.index(max(ratios))}
