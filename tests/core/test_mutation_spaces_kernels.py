"""bcdp.core.spaces domains and kernels at their edges: the size cap of exact enumeration at exactly
the cap and one past it (and the message forms naming the product), deterministic post-processing
K o M (BCDP paper, Prop. 5) that merges outputs, ``Mechanism.from_function`` and ``Mechanism.row``,
the inputs each kernel error names, and the tuples and Fractions the dataclasses keep of list and
string inputs.  The tests that kill the mutmut survivors of these functions (docs/testing.md, "The
mutation gate").

References: sizes as powers computed in the test, sums of kernel entries worked out by hand."""

from __future__ import annotations

import re
from fractions import Fraction as F

import pytest

from bcdp.core.errors import FloatRefusedError, InvalidInputError
from bcdp.core.spaces import (MAX_DOMAIN_SIZE, Mechanism, PointSubset, ProductDomain, check_domain_size,
                              post_process)


def test_the_domain_cap_is_inclusive():
    assert MAX_DOMAIN_SIZE == 2 ** 20
    assert check_domain_size([2] * 20) is None                 # exactly the cap: accepted
    assert check_domain_size([2, 3], cap=6) is None
    with pytest.raises(InvalidInputError, match=r"beyond the cap of 5 "):
        check_domain_size([2, 3], cap=5)                       # one past the cap


def test_the_size_message_names_the_product():
    size = 2 ** 21
    with pytest.raises(InvalidInputError,
                       match=rf"^the product domain has {size} points \(2\^21\), beyond the cap of "
                             rf"{2 ** 20} that exact enumeration handles$"):
        check_domain_size([2] * 21)
    cases = [
        ([5], "the output set", r"5 points \(5\^1\)"),                    # one size: s^n
        ([3, 3, 3], "X", r"27 points \(3\^3\)"),
        ([3, 4], "X", r"12 points \(3 x 4\)"),                             # mixed sizes: listed
        ([4, 3, 3], "X", r"36 points \(4 x 3 x 3\)"),
        ([2] * 7 + [3], "X", r"384 points \(2 x 2 x 2 x 2 x 2 x 2 x 2 x 3\)"),   # 8 sets: still listed
        ([2] * 8 + [3], "X", r"768 points \(a product of 9 coordinate sets\)"),  # 9: counted
    ]
    for shape, what, form in cases:
        with pytest.raises(InvalidInputError, match=rf"^{re.escape(what)} has {form}, beyond the cap of 4 "):
            check_domain_size(shape, what, cap=4)


def test_domain_and_point_subset_keep_tuples_of_list_inputs():
    dom = ProductDomain(([0, 1], ["a", "b"]))
    assert dom.coordinate_values == ((0, 1), ("a", "b"))
    assert hash(dom) == hash(ProductDomain(((0, 1), ("a", "b"))))
    sub = PointSubset([[0, 1], ["a", "b"]], [[1, "a"], [0, "b"]])
    assert sub.coordinate_values == ((0, 1), ("a", "b"))
    assert sub.points == ((1, "a"), (0, "b"))
    assert sub.index == {(1, "a"): 0, (0, "b"): 1}


def four_outputs() -> Mechanism:
    dom = ProductDomain.binary(1)
    return Mechanism(dom, (0, 1, 2, 3), ((F(1, 2), F(1, 4), F(1, 8), F(1, 8)),
                                         (F(1, 10), F(2, 10), F(3, 10), F(4, 10))))


def test_post_process_merges_the_outputs_a_map_sends_together():
    m = four_outputs()
    parity = post_process(m, lambda y: "odd" if y % 2 else "even")
    assert parity.domain == m.domain and parity.outputs == ("even", "odd")
    # even = y in {0, 2}: 1/2 + 1/8 = 5/8 and 1/10 + 3/10 = 2/5
    assert parity.kernel == ((F(5, 8), F(3, 8)), (F(2, 5), F(3, 5)))
    # outputs in order of first appearance, not sorted: {0, 1} -> "b", {2, 3} -> "a"
    halves = post_process(m, lambda y: "b" if y < 2 else "a")
    assert halves.outputs == ("b", "a")
    assert halves.kernel == ((F(3, 4), F(1, 4)), (F(3, 10), F(7, 10)))
    # an injective map keeps the kernel; a constant map gives the point mass
    assert post_process(m, lambda y: -y).kernel == m.kernel
    constant = post_process(m, lambda y: "z")
    assert constant.outputs == ("z",) and constant.kernel == ((F(1),), (F(1),))


def test_from_function_reads_exact_laws_and_names_a_float():
    dom = ProductDomain(((0, 1),))
    m = Mechanism.from_function(dom, ["y", "n"], lambda x: {"y": "1/3", "n": F(2, 3)} if x == (0,) else {"n": 1})
    assert m.outputs == ("y", "n") and m.kernel == ((F(1, 3), F(2, 3)), (F(0), F(1)))
    with pytest.raises(FloatRefusedError, match=r"^law\(\[1\]\)\['n'\]: floats are refused"):
        Mechanism.from_function(dom, ["y", "n"], lambda x: {"y": "1/2", "n": 0.5 if x == (1,) else "1/2"})


def test_row_is_the_kernel_row_of_the_point_given_as_any_sequence():
    m = four_outputs()
    assert m.row((1,)) == (F(1, 10), F(2, 10), F(3, 10), F(4, 10))
    assert m.row([0]) == (F(1, 2), F(1, 4), F(1, 8), F(1, 8))


def test_a_mechanism_keeps_tuples_of_fractions_and_names_the_input_of_a_bad_row():
    dom = ProductDomain(((0, 1), ("a",)))
    m = Mechanism(dom, ["u", "v"], [["1/2", "1/2"], [1, 0]])
    assert m.outputs == ("u", "v") and m.kernel == ((F(1, 2), F(1, 2)), (F(1), F(0)))
    assert type(m.kernel) is tuple and all(type(r) is tuple for r in m.kernel)
    assert all(type(p) is F for r in m.kernel for p in r)
    with pytest.raises(FloatRefusedError, match=r"^kernel row 1 \(input \[1, 'a'\]\), entry 0: floats are refused"):
        Mechanism(dom, ("u", "v"), ((F(1), F(0)), (0.5, "1/2")))
    with pytest.raises(InvalidInputError, match=r"^kernel row 1 \(input \[1, 'a'\]\) has 1 entries, there are 2"):
        Mechanism(dom, ("u", "v"), ((F(1), F(0)), (F(1),)))
    with pytest.raises(InvalidInputError, match=r"^kernel row 0 \(input \[0, 'a'\]\) sums to 3/4, not 1$"):
        Mechanism(dom, ("u", "v"), ((F(1, 2), F(1, 4)), (F(1), F(0))))
