"""Edge cases of bcdp.dme.linf written against the mutation survivors of the dme run.

Independent oracles only: S_m summed in mpmath at 60 digits from eq. (3.26) as printed, Lemma 2.4.1's
p worked out by hand (v/s = t - 1/t gives p = 1/(1 + t^2): v/s = 3/2 is t = 2, p = 1/5), the
outcome count of the joint law (2^d last coins times, per level, s messages of a coordinate among a
and a sign: (2a)^{s m}), the cap of m at both sides, and the one-line messages of the checks.
"""

from __future__ import annotations

from fractions import Fraction as F

import mpmath
import pytest
import sympy
from bcdp.core.errors import InvalidInputError, ValidityConditionError, WrongTypeError
from bcdp.dme import linf


def _S_m_mpmath(m: int) -> mpmath.mpf:
    with mpmath.workdps(60):
        four = mpmath.mpf(4)
        return mpmath.fsum(four ** (-mpmath.mpf(l) / 3) for l in range(1, m)) + four ** (-mpmath.mpf(m - 1) / 3)


def test_m_type_is_checked():
    for bad in (True, 2.0, "2"):
        with pytest.raises(WrongTypeError, match=r"^m must be an int"):
            linf.split_constant(bad)


def test_m_cap_both_sides():
    S64 = linf.split_constant(64)
    with mpmath.workdps(60):
        assert abs(mpmath.mpf(sympy.N(S64, 60)) - _S_m_mpmath(64)) < mpmath.mpf(10) ** -50
    for bad in (65, 0):
        with pytest.raises(InvalidInputError, match=r"^m must be in \[1, 64\]"):
            linf.split_constant(bad)


def test_level_p_by_hand():
    # m = 1: S_1 = 4^0 = 1 and f_1 = 1, so level 1 gets the whole budget: per message v/s.
    # v = 3, s = 2: v/s = 3/2 = 2 - 1/2 (t = 2), p = 1/(1 + 4) = 1/5.
    assert linf.level_p(1, 2, 3) == (sympy.Rational(1, 5),)
    # v = 3/2, s = 1: the same per-message budget, p = 1/5 (the denominator of v matters).
    assert linf.level_p(1, 1, F(3, 2)) == (sympy.Rational(1, 5),)
    # v = 15/4, s = 1: 15/4 = 4 - 1/4 (t = 4), p = 1/17.
    assert linf.level_p(1, 1, "15/4") == (sympy.Rational(1, 17),)
    with pytest.raises(InvalidInputError, match=r"^v: "):
        linf.level_p(1, 1, "abc")


def test_z_outside_unit_cube_is_refused_by_the_z_check():
    for z in ([F(3, 2)], [2], [F(-1, 4)]):
        with pytest.raises(InvalidInputError, match=r"^z must be a non-empty vector in \[0, 1\]\^d"):
            linf.linf_mse(z, 1, 1, [0])


def test_estimate_law_names_the_level_parameter():
    with pytest.raises(ValidityConditionError, match=r"^ps\[k\] = 1/2 is outside \[0, 1/2\)"):
        linf.linf_estimate_law([0], 1, 1, [F(1, 2)])
    with pytest.raises(InvalidInputError, match=r"^ps\[k\]: "):
        linf.linf_estimate_law([0], 1, 1, ["abc"])


def test_estimate_law_outcome_count_in_the_cap_message():
    # d = 40, s = 1 (a = 40), m = 3: 2^40 coin vectors times (2 * 40)^{1 * 3} level outcomes.
    d, a, s, m = 40, 40, 1, 3
    count = 2 ** d
    for _ in range(s * m):
        count *= 2 * a
    assert count == 1099511627776 * 512000
    with pytest.raises(InvalidInputError, match=rf"^{count} joint outcomes exceed the cap {linf.MAX_LAW_OUTCOMES}$"):
        linf.linf_estimate_law([0] * d, m, s, [0, 0, 0])


def test_estimate_law_small_case_is_a_law_centred_on_z():
    # d = 2, s = 1 (a = 2), m = 5: 2^2 * 4^5 = 4096 outcomes, under the cap; with z on the grid
    # of the quantizer (z = 1/2 = 0.1 in binary) the law sums to 1 and is centred on z.
    law = linf.linf_estimate_law([F(1, 2), F(0)], 5, 1, [F(1, 4)] * 5)
    assert sum(law.values()) == 1
    mean = [sum(w * v[i] for v, w in law.items()) for i in range(2)]
    assert mean == [F(1, 2), F(0)]
