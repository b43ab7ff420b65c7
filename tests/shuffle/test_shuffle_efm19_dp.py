"""bcdp.shuffle.efm19_dp: thesis Lemma 2.3.1 part 2 ([EFM19, Cor 9]) with its validity conditions on
both sides of each boundary, and the shuffled binary-RR pair profile against brute-force enumeration
of every report vector (Fractions)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import mpmath
import pytest
import sympy
from bcdp.core.errors import FloatRefusedError, InvalidInputError, ValidityConditionError, WrongTypeError
from bcdp.shuffle import efm19_dp

TINY = mpmath.mpf(10) ** -40


def test_cor9_matches_the_printed_formula_in_sympy():
    for e0, n, d in [("1/4", 1000, "1/1000"), ("49/100", 12345, "1/10000000000"), ("0", 1000, "1/200")]:
        E0, D = sympy.Rational(e0), sympy.Rational(d)
        want = sympy.N(12 * E0 * sympy.sqrt(sympy.log(1 / D) / n), 60)
        with mpmath.workdps(60):
            got = efm19_dp.efm19_cor9_epsilon(e0, n, d, dps=60)
            assert abs(got - mpmath.mpf(str(want))) <= mpmath.mpf(10) ** -55 * (1 + abs(got))


@pytest.mark.parametrize("dps", [15, 20, 50])
def test_cor9_is_rounded_up_never_below_the_formula(dps):
    """A guarantee: at every working precision the returned eps is >= the formula (sympy, 80 digits)
    and within a few units of the last digit of it."""
    for e0, n, d in [("1/4", 1000, "1/1000"), ("49/100", 12345, "1/10000000000"), ("1/3", 1001, "1/700")]:
        want = sympy.N(12 * sympy.Rational(e0) * sympy.sqrt(sympy.log(1 / sympy.Rational(d)) / n), 80)
        got = efm19_dp.efm19_cor9_epsilon(e0, n, d, dps=dps)
        with mpmath.workdps(90):
            w = mpmath.mpf(str(want))
            assert mpmath.mpf(got) >= w
            assert mpmath.mpf(got) - w <= w * mpmath.mpf(10) ** (-dps + 1)


def test_cor9_scales_as_one_over_sqrt_n_and_sqrt_log():
    with mpmath.workdps(50):
        a = efm19_dp.efm19_cor9_epsilon("1/3", 1000, "1/1000")
        assert mpmath.almosteq(efm19_dp.efm19_cor9_epsilon("1/3", 4000, "1/1000"), a / 2, 1e-45)
        assert mpmath.almosteq(efm19_dp.efm19_cor9_epsilon("1/3", 1000, "1/1000000"), a * mpmath.sqrt(2), 1e-45)


@pytest.mark.parametrize("kwargs,raises", [
    ({"eps0": Fraction(1, 2)}, True),
    ({"eps0": Fraction(1, 2) - Fraction(1, 10 ** 30)}, False),
    ({"n": 999}, True),
    ({"n": 1000}, False),
    ({"delta": Fraction(1, 100)}, True),
    ({"delta": Fraction(1, 100) - Fraction(1, 10 ** 30)}, False),
])
def test_cor9_validity_conditions_on_both_sides(kwargs, raises):
    args = {"eps0": Fraction(1, 4), "n": 2000, "delta": Fraction(1, 1000), **kwargs}
    with mpmath.workdps(60):
        if raises:
            with pytest.raises(ValidityConditionError) as info:
                efm19_dp.efm19_cor9_epsilon(**args)
            assert "\n" not in str(info.value) and "Lemma 2.3.1" in str(info.value)
        else:
            assert efm19_dp.efm19_cor9_epsilon(**args) > 0


@pytest.mark.parametrize("call,exc", [
    (lambda: efm19_dp.efm19_cor9_epsilon(0.25, 1000, "1/1000"), FloatRefusedError),
    (lambda: efm19_dp.efm19_cor9_epsilon("1/4", 1000, 0.001), FloatRefusedError),
    (lambda: efm19_dp.efm19_cor9_epsilon("-1/4", 1000, "1/1000"), InvalidInputError),
    (lambda: efm19_dp.efm19_cor9_epsilon("1/4", 1000, 0), InvalidInputError),
    (lambda: efm19_dp.efm19_cor9_epsilon("1/4", 0, "1/1000"), InvalidInputError),
    (lambda: efm19_dp.efm19_cor9_epsilon("1/4", 1000.0, "1/1000"), WrongTypeError),
    (lambda: efm19_dp.efm19_cor9_epsilon("1/4", True, "1/1000"), WrongTypeError),
    (lambda: efm19_dp.efm19_cor9_epsilon(mpmath.inf, 1000, "1/1000"), InvalidInputError),
    (lambda: efm19_dp.rr_shuffled_pair_delta(5, "1", "1/10"), InvalidInputError),
    (lambda: efm19_dp.rr_shuffled_pair_delta(5, "3/2", "-1/10"), InvalidInputError),
    (lambda: efm19_dp.rr_shuffled_pair_delta(5, "3/2", 0.1), FloatRefusedError),
    (lambda: efm19_dp.rr_shuffled_pair_delta(5, "3/2", "1/10", ones=5), InvalidInputError),
    (lambda: efm19_dp.rr_shuffled_pair_delta(0, "3/2", "1/10"), InvalidInputError),
])
def test_bad_inputs_raise_one_line_errors(call, exc):
    with pytest.raises(exc) as info:
        call()
    assert "\n" not in str(info.value)
    if exc is InvalidInputError:
        assert not isinstance(info.value, ValidityConditionError)


def _brute_laws(n, r, ones):
    keep = r / (1 + r)
    laws = []
    for first in (0, 1):
        data = (first,) + (1,) * ones + (0,) * (n - 1 - ones)
        law = [Fraction(0)] * (n + 1)
        for y in itertools.product((0, 1), repeat=n):
            pr = Fraction(1)
            for b, v in zip(data, y):
                pr *= keep if b == v else 1 - keep
            law[sum(y)] += pr
        laws.append(law)
    return laws


def _sup_events(P, Q, ratio):
    return sum((max(Fraction(0), a - ratio * b) for a, b in zip(P, Q)), Fraction(0))


@pytest.mark.parametrize("n,r,ones,ratio", [(1, Fraction(3), 0, Fraction(2)), (6, Fraction(3, 2), 0, Fraction(11, 10)),
                                            (7, Fraction(2), 3, Fraction(5, 4)), (8, Fraction(5, 4), 7, Fraction(1)),
                                            (8, Fraction(4), 2, Fraction(3, 2))])
def test_pair_delta_matches_enumeration_of_reports(n, r, ones, ratio):
    P, Q = _brute_laws(n, r, ones)
    want = max(_sup_events(P, Q, ratio), _sup_events(Q, P, ratio))
    with mpmath.workdps(50):
        got = efm19_dp.rr_shuffled_pair_delta(n, r, mpmath.log(mpmath.mpf(ratio.numerator) / ratio.denominator),
                                              ones=ones)
        assert mpmath.almosteq(got, mpmath.mpf(want.numerator) / want.denominator, 1e-40)


def test_pair_delta_is_zero_at_and_beyond_eps0_and_mirror_symmetric():
    with mpmath.workdps(50):
        r = Fraction(3, 2)
        e0 = mpmath.log(mpmath.mpf(3) / 2)
        assert efm19_dp.rr_shuffled_pair_delta(30, r, e0 * (1 + TINY)) == 0   # likelihood ratio <= e^eps0
        assert efm19_dp.rr_shuffled_pair_delta(30, r, e0 * (1 - mpmath.mpf(10) ** -6)) > 0
        a = efm19_dp.rr_shuffled_pair_delta(30, r, "1/10", ones=4)
        b = efm19_dp.rr_shuffled_pair_delta(30, r, "1/10", ones=25)           # relabel 0 <-> 1
        assert mpmath.almosteq(a, b, 1e-40)
