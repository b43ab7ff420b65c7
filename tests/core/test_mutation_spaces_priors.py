"""bcdp.core.spaces priors at their edges: the correlated-bits prior of the BCDP paper (Appendix B.1,
eqs. (59)-(60)) against its sampling process enumerated outcome by outcome, at q = 0 and q = 1, at
d = 1 and with other bit names; the uniform prior; support, marginals and the conditionals
pi_{x_-i | x_i = v} (the objects of eq. (13)) of a non-product prior; the exact pmf a Prior keeps.
The tests that kill the mutmut survivors of ``Prior`` (docs/testing.md, "The mutation gate").

References: the generative description of the prior enumerated in Fractions, and sums of
probabilities worked out by hand in the comments."""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction as F

import pytest

from bcdp.core.errors import FloatRefusedError, InvalidInputError
from bcdp.core.spaces import Prior, ProductDomain


def correlated_bits_by_sampling(d: int, q: F, values: tuple) -> dict:
    """Appendix B.1: flip a q-coin; on heads draw one fair bit Z and copy it to all d coordinates,
    on tails draw d independent fair bits.  The law of x, outcome by outcome of that process."""
    law: dict = defaultdict(F)
    for z in values:                                          # heads, then Z = z (probability 1/2)
        law[(z,) * d] += q * F(1, 2)
    for bits in itertools.product(values, repeat=d):          # tails, then each bit fair
        prob = 1 - q
        for _ in bits:
            prob *= F(1, 2)
        law[bits] += prob
    return dict(law)


@pytest.mark.parametrize("d, q", [(1, F(1, 3)), (2, F(0)), (2, F(1)), (2, F(1, 3)), (3, F(1, 3)),
                                  (4, F(3, 4))])
@pytest.mark.parametrize("values", [(0, 1), (-1, 1)])
def test_correlated_bits_is_the_law_of_its_sampling_process(d, q, values):
    # q given as a string: the exact reading of to_fraction
    prior = Prior.correlated_bits(d, f"{q.numerator}/{q.denominator}", values=values)
    assert prior.domain.coordinate_values == (values,) * d
    assert dict(zip(prior.domain.points, prior.pmf)) == correlated_bits_by_sampling(d, q, values)


def test_correlated_bits_default_names_the_bits_zero_and_one():
    prior = Prior.correlated_bits(2, F(1, 2))
    # constant points: 1/4 + 1/8 = 3/8; the others (1 - 1/2)/4 = 1/8
    assert prior.domain.points == ((0, 0), (0, 1), (1, 0), (1, 1))
    assert prior.pmf == (F(3, 8), F(1, 8), F(1, 8), F(3, 8))


@pytest.mark.parametrize("q", ["-1/100", "101/100", "3/2", "2", "-1"])
def test_correlated_bits_refuses_q_outside_the_unit_interval(q):
    with pytest.raises(InvalidInputError, match=r"^q = -?\d+(/\d+)? must lie in \[0, 1\]$"):
        Prior.correlated_bits(2, q)


def test_correlated_bits_refuses_d_below_one_and_a_float_q():
    with pytest.raises(InvalidInputError, match=r"^d must be at least 1$"):
        Prior.correlated_bits(0, F(1, 2))
    with pytest.raises(FloatRefusedError, match=r"^q: floats are refused"):
        Prior.correlated_bits(2, 0.5)


def test_uniform_prior_gives_every_point_one_over_the_size():
    dom = ProductDomain(((0, 1, 2), ("a", "b")))
    prior = Prior.uniform(dom)
    assert prior.domain == dom
    assert prior.pmf == (F(1, 6),) * 6
    assert Prior.uniform(ProductDomain((("only",),))).pmf == (F(1),)


def three_bits() -> Prior:
    """pi(x) = (k + 1)/36 for the k-th point of {0,1}^3, k = 4 x_0 + 2 x_1 + x_2 (1 + ... + 8 = 36)."""
    dom = ProductDomain.binary(3)
    return Prior(dom, tuple(F(k + 1, 36) for k in range(8)))


def test_marginals_of_a_non_product_prior():
    prior = three_bits()
    # x_0 = 0: k = 0..3, 1+2+3+4 = 10;  x_1 = 0: k = 0,1,4,5, 1+2+5+6 = 14;  x_2 = 0: k even, 1+3+5+7 = 16
    assert prior.marginal(0) == {0: F(10, 36), 1: F(26, 36)}
    assert prior.marginal(1) == {0: F(14, 36), 1: F(22, 36)}
    assert prior.marginal(2) == {0: F(16, 36), 1: F(20, 36)}
    # a value of zero mass is listed with 0
    skewed = Prior(ProductDomain(((0, 1, 2),)), (F(1, 4), F(0), F(3, 4)))
    assert skewed.marginal(0) == {0: F(1, 4), 1: F(0), 2: F(3, 4)}


def test_rest_conditionals_drop_exactly_coordinate_i():
    prior = three_bits()
    # x_0 = 0: weights 1, 2, 3, 4 of (x_1, x_2) = 00, 01, 10, 11, over 10
    assert prior.rest_conditional(0, 0) == {(0, 0): F(1, 10), (0, 1): F(2, 10), (1, 0): F(3, 10),
                                            (1, 1): F(4, 10)}
    # x_1 = 1: k = 2, 3, 6, 7, weights 3, 4, 7, 8 of (x_0, x_2) = 00, 01, 10, 11, over 22
    assert prior.rest_conditional(1, 1) == {(0, 0): F(3, 22), (0, 1): F(4, 22), (1, 0): F(7, 22),
                                            (1, 1): F(8, 22)}
    # x_2 = 1: k odd, weights 2, 4, 6, 8 of (x_0, x_1) = 00, 01, 10, 11, over 20
    assert prior.rest_conditional(2, 1) == {(0, 0): F(2, 20), (0, 1): F(4, 20), (1, 0): F(6, 20),
                                            (1, 1): F(8, 20)}


def test_rest_conditional_given_a_certain_value_and_given_an_impossible_one():
    prior = Prior(ProductDomain.binary(2), (F(1, 2), F(1, 2), F(0), F(0)))
    # x_0 = 0 has mass 1: the conditional is the prior itself on x_1
    assert prior.rest_conditional(0, 0) == {(0,): F(1, 2), (1,): F(1, 2)}
    with pytest.raises(InvalidInputError, match=r"^pi\(x_0 = 1\) = 0: conditional undefined$"):
        prior.rest_conditional(0, 1)


def test_rest_conditional_of_a_zero_mass_value_is_an_invalid_input_error():
    """Regression: it raised a bare ValueError, outside the error contract of bcdp.core.errors
    (every deliberate error a BcdpError, exit 2 from the command line)."""
    prior = Prior(ProductDomain.binary(1), (F(1), F(0)))
    with pytest.raises(InvalidInputError):
        prior.rest_conditional(0, 1)


def test_rest_conditional_of_a_value_outside_the_coordinate_set_is_an_invalid_input_error():
    """Regression: a value that coordinate i never takes raised a bare KeyError."""
    prior = Prior(ProductDomain.binary(2), (F(1, 4),) * 4)
    with pytest.raises(InvalidInputError, match=r"^2 is not a value of coordinate x_1$"):
        prior.rest_conditional(1, 2)
    assert prior.rest_conditional(1, 1) == {(0,): F(1, 2), (1,): F(1, 2)}


def test_support_lists_exactly_the_points_of_positive_mass():
    prior = Prior(ProductDomain.binary(2), (F(1, 2), F(0), F(1, 2), F(0)))
    assert prior.support() == [0, 2]
    assert Prior(ProductDomain.binary(1), (F(0), F(1))).support() == [1]
    assert three_bits().support() == list(range(8))


def test_a_prior_keeps_its_pmf_as_a_tuple_of_fractions_and_names_bad_entries():
    dom = ProductDomain.binary(1)
    prior = Prior(dom, ["1/4", "3/4"])
    assert prior.pmf == (F(1, 4), F(3, 4)) and type(prior.pmf) is tuple
    assert all(type(p) is F for p in prior.pmf)
    with pytest.raises(FloatRefusedError, match=r"^prior, entry 1: floats are refused"):
        Prior(dom, (F(1, 2), 0.5))
    with pytest.raises(InvalidInputError, match=r"^prior, entry 0 is negative \(-1/2\)$"):
        Prior(dom, ("-1/2", "3/2"))
