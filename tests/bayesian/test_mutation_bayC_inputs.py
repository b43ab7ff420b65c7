"""Input checks of the BCDP allocation and sampler entry points: each refused input is refused with the
error class of ``bcdp.core.errors`` and a message that names the offending argument (or entry) the
way the caller wrote it, and each validity condition is tested on both sides of its boundary.

Independent: the expected argument names are the parameter names of the public signatures
(``validate_demands(delta, eps, q)``, ``stage_weights(c_sorted)`` whose entries the docstring calls
c_k, ``duchi_l2_constant(d, eps, radius)``, ``stage_budgets(c_sorted)`` whose error messages call
it ``c``); the accepted values are worked out by hand in comments.  The number-policy prefix
``<name>: floats are refused`` / ``<name>: booleans are not numbers`` is the documented contract of
:func:`bcdp.core.numbers.to_fraction` / :func:`bcdp.core.numbers.to_float_input`.

Written to kill survivors of the mutation gate (benchmarks/mutation_gate.py).
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np
import pytest
import sympy
from bcdp.bayesian import allocation, mechanisms
from bcdp.core.errors import FloatRefusedError, InvalidInputError, WrongTypeError


# -- allocation.validate_demands -------------------------------------------------------------------

def test_validate_demands_accepts_exact_inputs():
    d, e, q = allocation.validate_demands([F(1, 2), 0, "3/4"], "1/3", 1)
    assert d == [sympy.Rational(1, 2), 0, sympy.Rational(3, 4)]
    assert e == sympy.Rational(1, 3) and q == 1


@pytest.mark.parametrize("delta", ["12", b"12", {1, 2}, (v for v in (1, 2)), 5])
def test_validate_demands_refuses_a_non_sequence_delta(delta):
    # a string is a Sequence of characters ("12" -> 1, 2 would be read as two demands): refused
    with pytest.raises(InvalidInputError, match=r"^delta must be a sequence of demands, got "):
        allocation.validate_demands(delta, 1, 0)


def test_validate_demands_names_the_float_entry_of_delta():
    with pytest.raises(FloatRefusedError, match=r"^delta\[1\]: floats are refused"):
        allocation.validate_demands([1, 0.5, 2], 1, 0)
    with pytest.raises(WrongTypeError, match=r"^delta\[0\]: booleans are not numbers"):
        allocation.validate_demands([True], 1, 0)


def test_validate_demands_names_eps_and_q():
    with pytest.raises(FloatRefusedError, match=r"^eps: floats are refused"):
        allocation.validate_demands([1], 0.5, 0)
    with pytest.raises(InvalidInputError, match=r"^eps: cannot read 'x'"):
        allocation.validate_demands([1], "x", 0)
    with pytest.raises(FloatRefusedError, match=r"^q: floats are refused"):
        allocation.validate_demands([1], 1, 0.5)
    with pytest.raises(InvalidInputError, match=r"^q: cannot read 'x'"):
        allocation.validate_demands([1], 1, "x")


# -- allocation.stage_weights ----------------------------------------------------------------------

def test_stage_weights_names_the_entry_of_c():
    # entry k-1 of c_sorted is c_k; the message names it by its position in the caller's list
    with pytest.raises(FloatRefusedError, match=r"^c\[1\]: floats are refused"):
        allocation.stage_weights([1, 0.5, 2])
    with pytest.raises(FloatRefusedError, match=r"^c\[0\]: floats are refused"):
        allocation.stage_weights([0.5, 1])
    with pytest.raises(FloatRefusedError, match=r"^c\[2\]: .*contains a sympy Float"):
        allocation.stage_weights([1, 2, sympy.Float(3)])


def test_stage_weights_closed_form():
    # w_k = (c_k - c_{k-1})^2 / (d - k + 1), d = 3, c = (1, 3, 4): 1/3, 4/2, 1/1
    assert allocation.stage_weights([1, 3, 4]) == [sympy.Rational(1, 3), 2, 1]


# -- mechanisms._check_eps through duchi_l2_constant -------------------------------------------------

def test_duchi_constant_refuses_infinite_eps_with_the_channel_message():
    # eps = inf is read (allow_inf) and then refused by the channel's own condition
    with pytest.raises(InvalidInputError, match=r"^the channel needs a finite budget eps > 0 \(got inf\)$"):
        mechanisms.duchi_l2_constant(2, math.inf, 1.0)
    with pytest.raises(InvalidInputError, match=r"^the channel needs a finite budget eps > 0 \(got inf\)$"):
        mechanisms.duchi_l2_constant(2, "inf", 1.0)
    with pytest.raises(InvalidInputError, match=r"^the channel needs a finite budget eps > 0 \(got -inf\)$"):
        mechanisms.duchi_l2_constant(2, -math.inf, 1.0)
    with pytest.raises(InvalidInputError, match=r"^the channel needs a finite budget eps > 0 \(got 0.0\)$"):
        mechanisms.duchi_l2_constant(2, 0, 1.0)


def test_duchi_constant_names_eps_and_radius():
    with pytest.raises(WrongTypeError, match=r"^eps: booleans are not numbers"):
        mechanisms.duchi_l2_constant(2, True, 1.0)
    with pytest.raises(InvalidInputError, match=r"^eps: cannot read 'abc'"):
        mechanisms.duchi_l2_constant(2, "abc", 1.0)
    with pytest.raises(WrongTypeError, match=r"^radius: booleans are not numbers"):
        mechanisms.duchi_l2_constant(2, 1.0, True)
    with pytest.raises(InvalidInputError, match=r"^radius: cannot read 'abc'"):
        mechanisms.duchi_l2_constant(2, 1.0, "abc")
    with pytest.raises(InvalidInputError, match=r"^radius must be finite, got inf"):
        mechanisms.duchi_l2_constant(2, 1.0, math.inf)


def test_duchi_constant_at_d_1():
    # d = 1: B = r (e^a + 1)/(e^a - 1) sqrt(pi) Gamma(1)/Gamma(1/2) = r coth(a/2); a = 2 log 3 -> e^a = 9
    assert mechanisms.duchi_l2_constant(1, 2 * math.log(3), 2.0) == pytest.approx(2.0 * 10 / 8, rel=1e-14)


# -- mechanisms.stage_budgets ------------------------------------------------------------------------

def test_stage_budgets_names_c():
    with pytest.raises(InvalidInputError, match=r"^c must be a sequence of numbers, got a string"):
        mechanisms.stage_budgets("12")
    with pytest.raises(InvalidInputError, match=r"^c\[1\]: cannot read 'x'"):
        mechanisms.stage_budgets([1.0, "x"])
    with pytest.raises(WrongTypeError, match=r"^c must be a sequence of numbers, got int"):
        mechanisms.stage_budgets(3)


@pytest.mark.parametrize("c", [[0.0, math.inf], [math.inf], [-1.0], [-1.0, 2.0], [0.0, -0.5]])
def test_stage_budgets_refuses_infinite_or_negative_budgets(c):
    # each refused for being infinite or negative (not for being decreasing: [-1, 2] increases)
    with pytest.raises(InvalidInputError, match=r"^c must be finite and non-negative$"):
        mechanisms.stage_budgets(c)


def test_stage_budgets_decrease_tolerance_boundary():
    # a decrease of exactly 1e-12 is rounding noise (accepted, the stage budget clipped to 0);
    # the next float beyond it is refused
    got = mechanisms.stage_budgets([1e-12, 0.0])
    assert got.tolist() == [1e-12, 0.0]
    beyond = float(np.nextafter(1e-12, 1.0))
    with pytest.raises(InvalidInputError, match=r"^c must be non-decreasing"):
        mechanisms.stage_budgets([beyond, 0.0])
    # and a plain increasing vector gives its increments: (1, 3, 3.5) -> 1, 2, 0.5
    assert mechanisms.stage_budgets([1.0, 3.0, 3.5]).tolist() == [1.0, 2.0, 0.5]
