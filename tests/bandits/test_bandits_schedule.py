"""bcdp.bandits.schedule against oracles written here: 80-digit mpmath of the printed q = (2T)^{1/ln T}
and ceil(pi q^i) (thesis Alg 6.3.1 steps 3-7), floor(ln T) by brute force on e^k, and the horizon
bookkeeping by direct accumulation."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bcdp.bandits import schedule
from bcdp.core.errors import FloatRefusedError, InvalidInputError, ValidityConditionError, WrongTypeError


def _floor_ln_oracle(T: int) -> int:
    k = 0
    with mpmath.workdps(80):
        while mpmath.e ** (k + 1) <= T:
            k += 1
    return k


@pytest.mark.parametrize("T", [8, 20, 21, 54, 55, 148, 149, 403, 404, 1096, 1097, 2980, 2981, 10 ** 6, 10 ** 12])
def test_number_of_batches_is_floor_ln_minus_one(T):
    assert schedule.number_of_batches(T) == _floor_ln_oracle(T) - 1


def test_horizon_validity_boundary():
    assert schedule.number_of_batches(8) == 1  # ln 8 = 2.079...
    with pytest.raises(ValidityConditionError):
        schedule.number_of_batches(7)  # ln 7 < 2: no batch
    with pytest.raises(WrongTypeError):
        schedule.number_of_batches(8.0)
    with pytest.raises(WrongTypeError):
        schedule.number_of_batches(True)


@settings(max_examples=40, deadline=None)
@given(T=st.integers(8, 10 ** 9), num=st.lists(st.integers(1, 50), min_size=1, max_size=4), data=st.data())
def test_pull_counts_match_the_80_digit_ceiling(T, num, data):
    pis = [Fraction(n, sum(num)) for n in num]
    L = _floor_ln_oracle(T) - 1
    i = data.draw(st.integers(1, L))
    with mpmath.workdps(80):
        q = mpmath.power(2 * T, 1 / mpmath.log(T))
        vals = [mpmath.mpf(p.numerator) / p.denominator * q ** i for p in pis]
        assert all(abs(v - mpmath.nint(v)) > mpmath.mpf(10) ** -60 for v in vals)
        expected = tuple(int(mpmath.ceil(v)) for v in vals)
    assert schedule.pull_counts(pis, i, T) == expected


def test_q_float_is_in_the_footnote_range_and_matches_mpmath():
    for T in (8, 100, 10 ** 4, 10 ** 8):
        q = schedule.q_float(T)
        with mpmath.workdps(50):
            exact = mpmath.power(2 * T, 1 / mpmath.log(T))
            assert mpmath.e < exact <= mpmath.e ** 2
        assert abs(q - float(exact)) <= 1e-14 * q


def test_pull_counts_bad_inputs():
    with pytest.raises(FloatRefusedError):
        schedule.pull_counts([0.5, 0.5], 1, 100)
    with pytest.raises(InvalidInputError, match="sum to 1"):
        schedule.pull_counts([Fraction(1, 2), Fraction(1, 3)], 1, 100)
    with pytest.raises(InvalidInputError, match="batch index"):
        schedule.pull_counts([1], 4, 100)  # L(100) = 3
    with pytest.raises(InvalidInputError, match="batch index"):
        schedule.pull_counts([1], 0, 100)
    assert schedule.pull_counts([Fraction(0), Fraction(1)], 3, 100)[0] == 0
    msg = None
    try:
        schedule.pull_counts([Fraction(-1), Fraction(2)], 1, 100)
    except InvalidInputError as exc:
        msg = str(exc)
    assert msg is not None and "\n" not in msg


@settings(max_examples=60, deadline=None)
@given(T=st.integers(8, 5000), planned=st.lists(st.integers(0, 3000), max_size=8))
def test_horizon_plan_spends_exactly_T(T, planned):
    plan = schedule.horizon_plan(T, planned)
    assert sum(plan.batch_lengths) + plan.commit_rounds == T
    # oracle: accumulate the full batches while they fit
    left, full = T, []
    for n in planned:
        if n > left or left == 0:
            break
        full.append(n)
        left -= n
    cut = len(full) < len(planned) and left > 0
    assert plan.truncated == cut
    assert plan.batch_lengths[:len(full)] == tuple(full)
    assert plan.commit_rounds == (0 if cut else left)
