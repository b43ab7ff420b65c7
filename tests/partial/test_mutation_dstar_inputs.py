"""Input contract of bcdp.partial.dstar.d_star (D* = sup_{lambda > 1} D_lambda/lambda, partial DP
paper arXiv:2209.04053, Sec. 2, Def. 2): ``rel_tol`` read exactly and in (0, 1), ``max_intervals``
an integer >= 10, on both sides of each boundary; written against the survivors of the mutation
gate (benchmarks/mutation_gate.py, package partial).

Oracle for the accepted values: binary randomized response with keep-probability 3/4, whose D* is
the limit lambda -> 1+, i.e. KL = eps tanh(eps/2) with eps = log 3 (the closed form printed in the
module docstring), evaluated with mpmath at 100 digits.
"""

from __future__ import annotations

from fractions import Fraction as F

import mpmath
import pytest
from bcdp.core.errors import InvalidInputError
from bcdp.partial.dstar import d_star

P, Q = (F(3, 4), F(1, 4)), (F(1, 4), F(3, 4))


def closed_form():
    with mpmath.workdps(100):
        eps = mpmath.log(3)
        return eps * mpmath.tanh(eps / 2)


def encloses(res, tol):
    with mpmath.workdps(100):
        v = closed_form()
        return res.lower <= v <= res.upper and res.upper - res.lower <= mpmath.mpf(tol.numerator) / tol.denominator * res.upper


@pytest.mark.parametrize("bad", ["abc", "", "1/0"])
def test_an_unreadable_rel_tol_is_refused_by_name(bad):
    with pytest.raises(InvalidInputError, match=r"^rel_tol: cannot read "):
        d_star(P, Q, rel_tol=bad)


@pytest.mark.parametrize("bad", ["0", "-1e-30", "1", "3/2", "2", "7"])
def test_rel_tol_outside_the_open_unit_interval_is_refused(bad):
    with pytest.raises(InvalidInputError, match=r"^rel_tol must be in \(0, 1\)"):
        d_star(P, Q, rel_tol=bad)


@pytest.mark.parametrize("tol", [F(1, 10 ** 40), F(999, 1000)])
def test_rel_tol_just_inside_the_interval_is_met(tol):
    res = d_star(P, Q, rel_tol=tol, dps=60)
    assert encloses(res, tol)
    assert res.rel_tol == tol


@pytest.mark.parametrize("bad", [9, 0, -5, True, 20.0, "20", None])
def test_max_intervals_must_be_an_integer_of_at_least_ten(bad):
    with pytest.raises(InvalidInputError, match=r"^max_intervals must be an integer >= 10"):
        d_star(P, Q, max_intervals=bad)


@pytest.mark.parametrize("ok", [10, 11])
def test_max_intervals_ten_is_accepted(ok):
    # the limit case lambda -> 1+ of binary randomized response is certified with a few intervals
    res = d_star(P, Q, max_intervals=ok)
    assert encloses(res, F(1, 10 ** 30))
    assert res.at_limit_one and res.intervals <= ok
