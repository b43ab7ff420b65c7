"""bcdp.core.spaces at its edges: priors from tables (mappings and lists of pairs, repeated points,
no domain given), independent marginals with zero entries, composition of one mechanism and of
mechanisms on different domains, post-processing kernels, and the inputs each error names.  The
tests that kill the survivors of the mutmut gate (docs/testing.md, "The mutation gate") here.

References: products and sums of Fractions written in each test, by hand."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from bcdp.core.errors import FloatRefusedError, InvalidInputError
from bcdp.core.spaces import Mechanism, Prior, ProductDomain, compose, post_process_kernel


def test_prior_from_a_list_of_pairs_without_a_domain():
    prior = Prior.from_table([((0, "a"), "1/2"), ((0, "b"), "1/4"), ((1, "a"), "1/8"), ((1, "b"), "1/8")])
    assert prior.domain.coordinate_values == ((0, 1), ("a", "b"))
    assert dict(zip(prior.domain.points, prior.pmf)) == {(0, "a"): F(1, 2), (0, "b"): F(1, 4),
                                                         (1, "a"): F(1, 8), (1, "b"): F(1, 8)}
    # the same as a mapping, and from a generator of pairs
    mapping = Prior.from_table({(0, "a"): "1/2", (0, "b"): "1/4", (1, "a"): "1/8", (1, "b"): "1/8"})
    assert mapping == prior
    assert Prior.from_table(iter([((0,), "1/3"), ((1,), "2/3")])).pmf == (F(1, 3), F(2, 3))


def test_prior_from_table_adds_the_probabilities_of_a_repeated_point():
    dom = ProductDomain(((0, 1),))
    # (0,) listed twice: 1/2 + 1/4 = 3/4, and (1,) 1/4
    prior = Prior.from_table([((0,), "1/2"), ((1,), "1/4"), ((0,), "1/4")], domain=dom)
    assert prior.pmf == (F(3, 4), F(1, 4))


def test_prior_from_table_errors_name_the_point():
    dom = ProductDomain(((0, 1),))
    with pytest.raises(FloatRefusedError, match=r"^prior\[\[1\]\]: floats are refused"):
        Prior.from_table({(0,): "1/2", (1,): 0.5}, domain=dom)
    with pytest.raises(InvalidInputError, match=r"^prior\[\[0\]\]: cannot read 'half'"):
        Prior.from_table({(0,): "half", (1,): "1/2"}, domain=dom)


def test_independent_marginals_accept_zero_entries_and_name_bad_ones():
    prior = Prior.independent([{0: 1, 1: 0}, {"a": "1/3", "b": "2/3"}])
    # pi(x) = m0(x0) m1(x1): (0, a) 1/3, (0, b) 2/3, (1, .) 0
    assert dict(zip(prior.domain.points, prior.pmf)) == {(0, "a"): F(1, 3), (0, "b"): F(2, 3),
                                                         (1, "a"): 0, (1, "b"): 0}
    with pytest.raises(FloatRefusedError, match=r"^marginal 1\['b'\]: floats are refused"):
        Prior.independent([{0: 1}, {"a": "1/2", "b": 0.5}])
    with pytest.raises(InvalidInputError, match="marginal 0 has a negative entry"):
        Prior.independent([{0: "3/2", 1: "-1/2"}])
    with pytest.raises(InvalidInputError, match="marginal 0 sums to 3/4, not 1"):
        Prior.independent([{0: "1/2", 1: "1/4"}])


def rr(domain: ProductDomain, keep: F) -> Mechanism:
    """Randomized response on the first coordinate (0/1): report it with probability ``keep``."""
    rows = [(keep, 1 - keep) if p[0] == 0 else (1 - keep, keep) for p in domain.points]
    return Mechanism(domain, ("y0", "y1"), tuple(rows))


def test_compose_of_one_mechanism_and_of_mechanisms_on_different_domains():
    dom = ProductDomain.binary(1)
    m = rr(dom, F(3, 4))
    single = compose(m)
    assert single.outputs == (("y0",), ("y1",)) and single.kernel == m.kernel
    other = rr(ProductDomain.binary(2), F(3, 4))
    for mechanisms in ((m, other), (other, m), (m, m, other)):
        with pytest.raises(InvalidInputError, match="must share the input domain"):
            compose(*mechanisms)
    # two runs: row of input 0 is (3/4, 1/4) x (2/3, 1/3)
    both = compose(m, rr(dom, F(2, 3)))
    assert both.kernel[0] == (F(1, 2), F(1, 4), F(1, 6), F(1, 12))


def test_post_process_kernel_errors_name_the_row_and_entry():
    m = rr(ProductDomain.binary(1), F(3, 4))
    with pytest.raises(FloatRefusedError, match=r"^post-processing kernel row 1, entry 0: floats are refused"):
        post_process_kernel(m, ("z", "w"), [[1, 0], [0.5, "1/2"]])
    with pytest.raises(InvalidInputError, match=r"post-processing kernel row 0, entry 1 is negative"):
        post_process_kernel(m, ("z", "w"), [["3/2", "-1/2"], [0, 1]])
    # K o M: input 0 -> (3/4 * 1/3 + 1/4 * 1, 3/4 * 2/3) = (1/2, 1/2)
    out = post_process_kernel(m, ("z", "w"), [["1/3", "2/3"], [1, 0]])
    assert out.kernel[0] == (F(1, 2), F(1, 2)) and out.kernel[1] == (F(1, 4) * F(1, 3) + F(3, 4), F(1, 6))


def test_from_points_errors_name_the_repeated_and_the_missing_point():
    with pytest.raises(InvalidInputError, match=r"input 2 repeats input 0: \[0, 0\]"):
        ProductDomain.from_points([(0, 0), (0, 1), (0, 0), (1, 1)])
    # the full product is {0, 1} x {0, 1}; (1, 1) is the point not given
    with pytest.raises(InvalidInputError, match=r"3 given, e\.g\. \[1, 1\] is missing"):
        ProductDomain.from_points([(0, 0), (0, 1), (1, 0)])


def test_deterministic_mechanism_outputs_fn_with_probability_one():
    dom = ProductDomain(((0, 1, 2), ("a", "b")))
    m = Mechanism.deterministic(dom, lambda x: x[0] % 2)       # images 0, 0, 1, 1, 0, 0
    assert m.domain == dom and m.outputs == (0, 1)             # order of first appearance
    for point, row in zip(dom.points, m.kernel):
        assert row == ((1, 0) if point[0] % 2 == 0 else (0, 1)), point
    constant = Mechanism.deterministic(dom, lambda x: "c")
    assert constant.outputs == ("c",) and all(row == (1,) for row in constant.kernel)
    ident = Mechanism.deterministic(dom, lambda x: x)
    assert ident.outputs == dom.points
    assert all(ident.kernel[k][j] == (k == j) for k in range(dom.size) for j in range(dom.size))
