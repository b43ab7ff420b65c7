"""Propositions 4 and 6 of the BCDP paper (Sec. 3.4, App. A.4-A.5) pinned against independent
computations: mpmath (60 digits) evaluations of the printed statements, written out below,

    Prop. 4 (1):  delta_i = c_i + log(1 + q_i e^{sum_{j != i} c_j} - q_i),
    Prop. 6, eq. (53): A_delta[i, i] = 1/delta_i,  A_delta[i, j] = 1/log(1 + (e^{delta_i} - 1)/q_i)  (j != i),

infinite levels worked out by hand (c_i = oo gives delta_i = oo; c_j = oo for some j != i gives oo
when q_i > 0 and c_i when q_i = 0, the limit of the formula), the tie A_delta c = 1 (the condition is
A_delta c <= 1), and the input policy (the parameter named in the one-line error).

Written to kill the survivors of the mutation gate (benchmarks/mutation_gate.py).  Regressions:
``prop6_condition_holds`` checked a c shorter than delta on its leading coordinates only (True for
``([1, 2], [0, 0], ["1/10"])``); ``prop4_bound_ratios`` accepted q_i outside [0, 1] and an
``ldp_ratio`` below 1; ``prop4_bcdp_bound`` and its float twin gave NaN for a finite c_i with q_i = 0
next to an infinite level (sympy and numpy read 0 * oo as nan; the bound is c_i).
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction as F

import mpmath
import pytest
import sympy
from bcdp.bayesian import cdp_to_bcdp
from bcdp.core.errors import FloatRefusedError, InvalidInputError
from bcdp.core.numbers import INFINITY

ORACLE_DPS = 60
R = sympy.Rational


def prop4_part1_ratio(r, q, i):
    """e^{delta_i} of Prop. 4 (1) at ORACLE_DPS digits, from c_j = log r_j (finite r)."""
    with mpmath.workdps(ORACLE_DPS):
        c = [mpmath.log(mpmath.mpf(x.numerator) / x.denominator) for x in map(F, r)]
        qi = mpmath.mpf(F(q[i]).numerator) / F(q[i]).denominator
        rest = mpmath.fsum(c[j] for j in range(len(c)) if j != i)
        return mpmath.exp(c[i] + mpmath.log(1 + qi * mpmath.exp(rest) - qi))


@pytest.mark.parametrize(("r", "q"), [
    (["2", "3/2", "5"], ["1/2", "1/3", "0"]),
    (["1", "7/3", "4/3", "3"], ["1", "1/10", "9/10", "1/4"]),
])
def test_prop4_part1_ratios_match_the_printed_bound(r, q):
    got = cdp_to_bcdp.prop4_bound_ratios(r, q)
    assert len(got) == len(r) and all(isinstance(v, F) for v in got)
    with mpmath.workdps(ORACLE_DPS):
        for i, g in enumerate(got):
            want = prop4_part1_ratio(r, q, i)
            assert abs(mpmath.mpf(g.numerator) / g.denominator - want) < want * mpmath.mpf(10) ** -50


def test_prop4_part1_infinite_levels():
    # c_1 = oo: delta_1 = oo; delta_2 = c_2 + log(1 + 0 * e^oo - 0) = c_2 at q_2 = 0 (the limit q -> 0)
    assert cdp_to_bcdp.prop4_bound_ratios([INFINITY, 2], ["1/2", 0]) == [INFINITY, F(2)]
    # c_2 = oo with q_1 = 1/2 > 0: delta_1 = oo, and delta_2 = oo
    assert cdp_to_bcdp.prop4_bound_ratios([2, INFINITY], ["1/2", 1]) == [INFINITY, INFINITY]
    # ... also at q_1 = 1 (the largest q), and with a finite neighbour at q = 0 after it
    assert cdp_to_bcdp.prop4_bound_ratios([2, INFINITY, 3], [1, 0, 0]) == [INFINITY, INFINITY, F(3)]


def test_prop4_ratios_input_contract():
    assert cdp_to_bcdp.prop4_bound_ratios([1, 2], ["1/2", "1/2"]) == [F(3, 2), F(2)]  # r = 1 (c = 0) is allowed
    with pytest.raises(InvalidInputError, match=r"^c_ratios\[0\] = 1/2 < 1"):
        cdp_to_bcdp.prop4_bound_ratios(["1/2"], [0])
    with pytest.raises(FloatRefusedError, match=r"^c_ratios\[1\]: floats are refused"):
        cdp_to_bcdp.prop4_bound_ratios([2, 1.5], [0, 0])
    with pytest.raises(FloatRefusedError, match=r"^q\[1\]: floats are refused"):
        cdp_to_bcdp.prop4_bound_ratios([2, 2], [0, 0.5])
    with pytest.raises(FloatRefusedError, match=r"^ldp_ratio: floats are refused"):
        cdp_to_bcdp.prop4_bound_ratios([2], [0], 2.5)


@pytest.mark.parametrize("q", ["-1/2", "3/2"])
def test_prop4_ratios_refuse_q_outside_the_unit_interval(q):
    # regression: q_i = -1/2 with an infinite neighbour gave r_i (1 - 1/2 (1 - 1)) = r_i, q_i = 3/2 a number
    with pytest.raises(InvalidInputError, match=r"^q\[0\]: .* is not a probability in \[0, 1\]"):
        cdp_to_bcdp.prop4_bound_ratios([2, INFINITY], [q, 0])


def test_prop4_ratios_refuse_an_ldp_ratio_below_one():
    # regression: e^eps < 1 is a negative eps (prop4_bcdp_bound refuses eps < 0)
    with pytest.raises(InvalidInputError, match=r"^ldp_ratio = 1/2 < 1"):
        cdp_to_bcdp.prop4_bound_ratios([2], [0], "1/2")
    assert cdp_to_bcdp.prop4_bound_ratios([2], [1], 1) == [F(1)]   # eps = 0 caps everything at e^0


def test_prop4_ldp_bound_is_the_sum_and_infinite_with_an_infinite_level():
    # a symbolic level (no assumptions, as in a derivation): sympy leaves c + oo unevaluated
    c = sympy.Symbol("c")
    assert cdp_to_bcdp.prop4_ldp_bound([sympy.oo, c]) is sympy.oo
    assert cdp_to_bcdp.prop4_ldp_bound([c, "1/2"]) == c + sympy.Rational(1, 2)
    assert cdp_to_bcdp.prop4_ldp_bound([sympy.log(2), "1/2"]) == sympy.log(2) + sympy.Rational(1, 2)
    with pytest.raises(FloatRefusedError, match=r"^c\[1\]: floats are refused"):
        cdp_to_bcdp.prop4_ldp_bound(["1/2", 0.5])


def test_prop6_matrix_matches_eq53():
    delta, q = ["1", "1/2", "2"], ["1/2", "0", "1/3"]
    A = cdp_to_bcdp.prop6_matrix(delta, q)
    assert A.shape == (3, 3)
    with mpmath.workdps(ORACLE_DPS):
        for i in range(3):
            d = mpmath.mpf(F(delta[i]).numerator) / F(delta[i]).denominator
            qi = F(q[i])
            for j in range(3):
                if i == j:
                    want = 1 / d
                elif qi == 0:
                    want = mpmath.mpf(0)   # the limit q_i -> 0 of 1/log(1 + (e^delta - 1)/q_i)
                else:
                    want = 1 / mpmath.log(1 + (mpmath.exp(d) - 1) / (mpmath.mpf(qi.numerator) / qi.denominator))
                assert abs(mpmath.mpf(str(sympy.N(A[i, j], 55))) - want) < mpmath.mpf(10) ** -45
    assert A[1, 0] == 0 and A[1, 2] == 0 and isinstance(A[1, 0], sympy.Integer)


def test_prop6_inputs_are_named():
    with pytest.raises(FloatRefusedError, match=r"^delta\[1\]: floats are refused"):
        cdp_to_bcdp.prop6_matrix(["1", 0.5], ["1/2", "1/2"])
    with pytest.raises(FloatRefusedError, match=r"^q\[0\]: floats are refused"):
        cdp_to_bcdp.prop6_matrix(["1", "1"], [0.5, "1/2"])
    with pytest.raises(FloatRefusedError, match=r"^c\[0\]: floats are refused"):
        cdp_to_bcdp.prop6_condition_holds(["1"], ["1/2"], [0.5])


def test_prop6_condition_is_non_strict_at_the_tie():
    # q = 0: A_delta = diag(1/delta), so c = delta gives A_delta c = (1, 1) exactly: the condition holds
    assert cdp_to_bcdp.prop6_condition_holds(["1", "2"], [0, 0], ["1", "2"])
    assert not cdp_to_bcdp.prop6_condition_holds(["1", "2"], [0, 0], ["1", "201/100"])
    # q = 1: A_delta = [[1, 1], [1/2, 1/2]] (log(1 + (e^delta_i - 1)) = delta_i): c = (1/2, 1/2) gives row 1 = 1
    assert cdp_to_bcdp.prop6_condition_holds(["1", "2"], [1, 1], ["1/2", "1/2"])
    assert not cdp_to_bcdp.prop6_condition_holds(["1", "2"], [1, 1], ["1/2", "51/100"])


def test_prop6_condition_refuses_a_c_of_the_wrong_length():
    # regression: a short c was checked on the leading coordinates only (this was True)
    with pytest.raises(InvalidInputError, match=r"^c has 1 entries but delta has 2"):
        cdp_to_bcdp.prop6_condition_holds(["1", "2"], [0, 0], ["1/10"])
    with pytest.raises(InvalidInputError, match=r"^c has 3 entries but delta has 2"):
        cdp_to_bcdp.prop6_condition_holds(["1", "2"], [0, 0], ["1/10"] * 3)


def prop4_printed(c, q, i, eps=None):
    """Prop. 4 at ORACLE_DPS digits: part (1) c_i + log(1 + q_i e^{sum_{j != i} c_j} - q_i), or part
    (2) min{c_i + log(1 + q_i e^eps - q_i), eps} (finite rational inputs)."""
    with mpmath.workdps(ORACLE_DPS):
        mp = lambda v: mpmath.mpf(F(v).numerator) / F(v).denominator
        cc, qi = [mp(v) for v in c], mp(q[i])
        if eps is None:
            rest = mpmath.fsum(cc[j] for j in range(len(cc)) if j != i)
            return cc[i] + mpmath.log(1 + qi * mpmath.exp(rest) - qi)
        return min(cc[i] + mpmath.log(1 + qi * mpmath.exp(mp(eps)) - qi), mp(eps))


@pytest.mark.parametrize("eps", [None, "1", "3/4"])
def test_prop4_exact_and_float_match_the_printed_bound(eps):
    c, q = ["1/2", "1/4", "1"], ["1/2", "0", "1"]
    exact = cdp_to_bcdp.prop4_bcdp_bound(c, q, eps)
    fl = cdp_to_bcdp.prop4_bcdp_bound_float([float(F(v)) for v in c], [float(F(v)) for v in q],
                                            None if eps is None else float(F(eps)))
    with mpmath.workdps(ORACLE_DPS):
        for i in range(3):
            want = prop4_printed(c, q, i, eps)
            assert abs(mpmath.mpf(str(sympy.N(exact[i], 55))) - want) < mpmath.mpf(10) ** -45
            assert float(fl[i]) == pytest.approx(float(want), rel=1e-14)


def test_prop4_q_zero_next_to_an_infinite_level():
    # c_2 = oo: delta_1 = c_1 + log(1 + 0 e^oo - 0) = c_1 at q_1 = 0 (the limit q -> 0), as
    # prop4_bound_ratios gives; regression: the exact version gave nan (sympy: 0 * oo), the float one nan too
    assert cdp_to_bcdp.prop4_bcdp_bound(["1", sympy.oo], [0, "1/2"]) == [1, sympy.oo]
    assert cdp_to_bcdp.prop4_bcdp_bound(["1", sympy.oo, "1/2"], ["1/2", 1, 0]) == [sympy.oo, sympy.oo, R(1, 2)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert cdp_to_bcdp.prop4_bcdp_bound_float([1.0, math.inf], [0.0, 0.5]).tolist() == [1.0, math.inf]
        assert cdp_to_bcdp.prop4_bcdp_bound_float([math.inf, math.inf], [0.0, 0.0]).tolist() == [math.inf, math.inf]
        # and the infinite entry itself: inf - inf in sum(c) - c gave nan
        assert cdp_to_bcdp.prop4_bcdp_bound_float([1.0, math.inf], [0.5, 0.0]).tolist() == [math.inf, math.inf]


def test_prop4_infinite_levels():
    # c_i = oo gives delta_i = oo; c_j = oo (j != i) with q_i > 0 too
    assert cdp_to_bcdp.prop4_bcdp_bound([sympy.oo, sympy.oo], [0, 0]) == [sympy.oo, sympy.oo]
    assert cdp_to_bcdp.prop4_bcdp_bound([sympy.oo, "1/2"], ["1/2", "1/2"]) == [sympy.oo, sympy.oo]
    assert cdp_to_bcdp.prop4_bcdp_bound(["1/2", sympy.oo], ["1/2", 1]) == [sympy.oo, sympy.oo]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # e^1000 overflows float64: the bound is reported as +inf (an upper bound), without a warning
        assert cdp_to_bcdp.prop4_bcdp_bound_float([1000.0, 1.0], [0.5, 0.5])[1] == math.inf
    # part (2): an infinite c_i is capped at eps; the other coordinates are still computed
    assert cdp_to_bcdp.prop4_bcdp_bound([sympy.oo, "1/2"], ["1/2", 0], 1) == [1, R(1, 2)]
    assert cdp_to_bcdp.prop4_bcdp_bound(["1/2", sympy.oo], [0, "1/2"], 1) == [R(1, 2), 1]


def test_prop4_inputs_are_checked_and_named():
    with pytest.raises(FloatRefusedError, match=r"^c\[0\]: floats are refused"):
        cdp_to_bcdp.prop4_bcdp_bound([0.5], ["1/2"])
    with pytest.raises(FloatRefusedError, match=r"^q\[0\]: floats are refused"):
        cdp_to_bcdp.prop4_bcdp_bound(["1/2"], [0.5])
    with pytest.raises(FloatRefusedError, match=r"^eps: floats are refused"):
        cdp_to_bcdp.prop4_bcdp_bound(["1/2"], ["1/2"], 0.5)
    with pytest.raises(InvalidInputError, match=r"^c must be a sequence"):
        cdp_to_bcdp.prop4_ldp_bound("12")
    with pytest.raises(InvalidInputError, match=r"^c\[1\]: NaN"):
        cdp_to_bcdp.prop4_bcdp_bound_float([0.5, math.nan], [0.5, 0.5])
    with pytest.raises(InvalidInputError, match=r"^q\[0\]: NaN"):
        cdp_to_bcdp.prop4_bcdp_bound_float([0.5], [math.nan])
    with pytest.raises(InvalidInputError, match=r"^eps: NaN"):
        cdp_to_bcdp.prop4_bcdp_bound_float([0.5], [0.5], math.nan)
    with pytest.raises(InvalidInputError, match=r"^c must be non-negative"):
        cdp_to_bcdp.prop4_bcdp_bound_float([-0.5], [0.5])
    # eps = 0 is allowed (part 2 caps every bound at 0)
    assert cdp_to_bcdp.prop4_bcdp_bound_float([0.5], [0.5], 0.0).tolist() == [0.0]


def test_prop4_part2_ratios_match_the_printed_bound():
    # part (2): e^{delta'_i} = min{r_i (1 + q_i (e^eps - 1)), e^eps}; values below and at the cap
    r, q, e = ["2", "3/2", "5"], ["1/4", "0", "1/2"], "4"
    got = cdp_to_bcdp.prop4_bound_ratios(r, q, e)
    with mpmath.workdps(ORACLE_DPS):
        for i, g in enumerate(got):
            c_i = mpmath.log(mpmath.mpf(F(r[i]).numerator) / F(r[i]).denominator)
            eps = mpmath.log(mpmath.mpf(F(e).numerator) / F(e).denominator)
            qi = mpmath.mpf(F(q[i]).numerator) / F(q[i]).denominator
            want = mpmath.exp(min(c_i + mpmath.log(1 + qi * mpmath.exp(eps) - qi), eps))
            assert abs(mpmath.mpf(g.numerator) / g.denominator - want) < want * mpmath.mpf(10) ** -50
    assert got[2] == 4                                    # 5 (1 + 3/2) > 4: capped at e^eps


def test_prop4_part2_ratios_infinite_levels():
    # eps = oo: delta'_i = min{c_i + log(1 + q_i (e^oo - 1)), oo} = oo if q_i > 0 or c_i = oo, else c_i
    assert cdp_to_bcdp.prop4_bound_ratios([2, 3, INFINITY], [0, "1/2", 0], INFINITY) == [F(2), INFINITY, INFINITY]
    # c_i = oo with a finite eps: capped at e^eps; the finite neighbour is computed
    assert cdp_to_bcdp.prop4_bound_ratios([INFINITY, 2], ["1/2", "1/2"], 3) == [F(3), F(3)]
    assert cdp_to_bcdp.prop4_bound_ratios([INFINITY, 2], [0, 0], 3) == [F(3), F(2)]
