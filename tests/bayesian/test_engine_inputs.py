"""Exact objects: constructors, validation errors, composition and post-processing semantics."""

import math
from decimal import Decimal
from fractions import Fraction as F

import pytest
import sympy
from bcdp import (
    InvalidInputError,
    Mechanism,
    Prior,
    ProductDomain,
    compose,
    post_process,
    post_process_kernel,
    to_fraction,
)
from bcdp.core.errors import FloatRefusedError, InvalidInputError
from bcdp.core.numbers import log_of_ratio


def test_to_fraction_exact_forms():
    assert to_fraction("1/3") == F(1, 3)
    assert to_fraction("0.1") == F(1, 10)
    assert to_fraction("1e-300") == F(1, 10**300)
    assert to_fraction(Decimal("0.25")) == F(1, 4)
    assert to_fraction(sympy.Rational(2, 7)) == F(2, 7)


@pytest.mark.parametrize("bad", [0.1, float("nan"), True])
def test_to_fraction_refuses_floats_and_bools(bad):
    with pytest.raises(TypeError):
        to_fraction(bad)


def test_float_refusal_message_is_specific():
    with pytest.raises(FloatRefusedError, match="floats are refused"):
        Prior.correlated_bits(2, 0.3)


@pytest.mark.parametrize("bad", ["nan", "inf", "1/0", "abc"])
def test_to_fraction_rejects_non_rationals(bad):
    with pytest.raises(ValueError):
        to_fraction(bad)


def test_log_of_ratio_forms():
    assert str(log_of_ratio(F(5))) == "log(5)"
    assert log_of_ratio(F(1)) == 0
    assert log_of_ratio(math.inf) == sympy.oo


def test_domain_from_points_requires_full_product():
    with pytest.raises(InvalidInputError, match="missing"):
        ProductDomain.from_points([(0, 0), (0, 1), (1, 0)])
    with pytest.raises(InvalidInputError, match="repeats"):
        ProductDomain.from_points([(0, 0), (0, 0), (1, 0), (1, 1)])
    with pytest.raises(InvalidInputError, match="coordinates"):
        ProductDomain.from_points([(0, 0), (1,)])


def test_prior_validation():
    dom = ProductDomain.binary(1)
    with pytest.raises(InvalidInputError, match="sums to"):
        Prior(dom, (F(1, 2), F(1, 3)))
    with pytest.raises(InvalidInputError, match="negative"):
        Prior(dom, (F(3, 2), F(-1, 2)))
    with pytest.raises(InvalidInputError, match="entries"):
        Prior(dom, (F(1),))


def test_mechanism_validation_names_the_row():
    dom = ProductDomain.binary(1)
    with pytest.raises(InvalidInputError, match=r"row 1 \(input \[1\]\) sums to 9/10"):
        Mechanism(dom, (0, 1), ((F(1), F(0)), (F(1, 2), F(2, 5))))
    with pytest.raises(InvalidInputError, match="negative"):
        Mechanism(dom, (0, 1), ((F(1), F(0)), (F(3, 2), F(-1, 2))))
    with pytest.raises(InvalidInputError, match="entries"):
        Mechanism(dom, (0, 1), ((F(1), F(0)), (F(1),)))
    with pytest.raises(InvalidInputError, match="rows"):
        Mechanism(dom, (0, 1), ((F(1), F(0)),))


def test_independent_prior_is_product_of_marginals():
    pri = Prior.independent([{0: "1/3", 1: "2/3"}, {"a": "1/4", "b": "1/2", "c": "1/4"}])
    assert pri.domain.shape == (2, 3)
    table = dict(zip(pri.domain.points, pri.pmf))
    assert table[(1, "b")] == F(2, 3) * F(1, 2)
    assert pri.marginal(1) == {"a": F(1, 4), "b": F(1, 2), "c": F(1, 4)}


def test_correlated_bits_matches_eq_60_by_direct_mixture():
    # eq. (60) read as a mixture: with prob q the constant vector (Z,...,Z), else i.i.d. bits.
    q, d = F(3, 10), 3
    pri = Prior.correlated_bits(d, "3/10")
    for x, p in zip(pri.domain.points, pri.pmf):
        constant = q * (F(1, 2) if len(set(x)) == 1 else 0)
        iid = (1 - q) * F(1, 2) ** d
        assert p == constant + iid
    with pytest.raises(InvalidInputError):
        Prior.correlated_bits(2, "3/2")


def test_prior_from_table_fills_missing_points_with_zero():
    dom = ProductDomain.binary(2)
    pri = Prior.from_table({(0, 0): "1/2", (1, 1): "1/2"}, domain=dom)
    assert pri.support() == [0, 3]


def test_compose_is_product_of_rows():
    dom = ProductDomain.binary(1)
    m1 = Mechanism(dom, ("a", "b"), ((F(1, 3), F(2, 3)), (F(1), F(0))))
    m2 = Mechanism(dom, (0, 1), ((F(1, 2), F(1, 2)), (F(1, 4), F(3, 4))))
    c = compose(m1, m2)
    assert c.outputs == (("a", 0), ("a", 1), ("b", 0), ("b", 1))
    assert c.row((0,)) == (F(1, 6), F(1, 6), F(1, 3), F(1, 3))
    assert c.row((1,)) == (F(1, 4), F(3, 4), F(0), F(0))


def test_post_process_merges_outputs():
    dom = ProductDomain.binary(1)
    m = Mechanism(dom, (0, 1, 2), ((F(1, 2), F(1, 4), F(1, 4)), (F(0), F(1, 2), F(1, 2))))
    pp = post_process(m, lambda y: y > 0)
    assert pp.outputs == (False, True)
    assert pp.row((0,)) == (F(1, 2), F(1, 2))
    k = post_process_kernel(m, ("z",), [[1], [1], [1]])
    assert k.row((1,)) == (F(1),)
    with pytest.raises(InvalidInputError, match="sums to"):
        post_process_kernel(m, ("z", "w"), [[1, 0], ["1/2", "1/3"], [0, 1]])


def test_ratio_to_float_log_keeps_relative_precision():
    import mpmath
    from bcdp.core.numbers import ratio_to_float_log

    for r in (F(10**300 + 1, 10**300), F(3 * 10**200 + 7, 10**200), F(1, 3), F(5), F(2**1000 + 1, 2**1000)):
        with mpmath.workdps(400):  # enough digits to resolve 1 + 1e-300
            ref = mpmath.log(mpmath.mpf(r.numerator) / r.denominator)
        assert abs(ratio_to_float_log(r) - float(ref)) <= 2 * abs(float(ref)) * 2.0**-52
