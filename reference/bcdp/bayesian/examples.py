"""The worked examples of the BCDP paper as exact objects.

* :func:`example1_mechanism` - Example 1 (Sec. 3.3): x1, x2 i.i.d. Bern(1/2), Y = {0, 1},
  P{M(x) = 1 | x} = a at (x1, x2) = (0, 0), b at (1, 0), 0 at (0, 1), c at (1, 1) (the table's
  columns are x1, its rows x2).
* :func:`example2_mechanism` - Example 2 (Sec. 3.5, eq. 14): x in {0,1}^3 i.i.d. Bern(1/2),
  M(x) = (x1 xor x2, x3) or (x2, x1 xor x3), each with probability 1/2.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from bcdp.core.numbers import to_probability
from bcdp.core.spaces import Mechanism, Prior, ProductDomain


def example1_mechanism(a: Any, b: Any, c: Any) -> tuple[Mechanism, Prior]:
    """Example 1 with parameters a, b, c (exact) and its uniform prior on {0,1}^2."""
    pa, pb, pc = (to_probability(v, n) for v, n in ((a, "a"), (b, "b"), (c, "c")))
    dom = ProductDomain.binary(2)
    p_one = {(0, 0): pa, (1, 0): pb, (0, 1): Fraction(0), (1, 1): pc}
    mech = Mechanism.from_function(dom, (0, 1), lambda x: {1: p_one[x], 0: 1 - p_one[x]})
    return mech, Prior.uniform(dom)


def example2_mechanism() -> tuple[Mechanism, Prior]:
    """Example 2, eq. (14), with its uniform prior on {0,1}^3."""
    dom = ProductDomain.binary(3)
    outputs = tuple((u, v) for u in (0, 1) for v in (0, 1))

    def law(x: tuple) -> dict:
        first, second = (x[0] ^ x[1], x[2]), (x[1], x[0] ^ x[2])
        out: dict = {}
        for y in (first, second):
            out[y] = out.get(y, Fraction(0)) + Fraction(1, 2)
        return out

    return Mechanism.from_function(dom, outputs, law), Prior.uniform(dom)


def independent_randomized_response(keep_probabilities: list[Any]) -> Mechanism:
    """Randomized response applied to each bit of x in {0,1}^d independently: y_j = x_j with
    probability keep_probabilities[j], else 1 - x_j.  Output set {0,1}^d.  Its CDP vector is
    c_j = log(k_j / (1 - k_j)) for k_j >= 1/2 (used for Prop. 4's redundant-copies family)."""
    keeps = [to_probability(k, f"keep_probabilities[{j}]") for j, k in enumerate(keep_probabilities)]
    dom = ProductDomain.binary(len(keeps))

    def law(x: tuple) -> dict:
        out = {}
        for y in dom.points:
            p = Fraction(1)
            for j, kp in enumerate(keeps):
                p *= kp if y[j] == x[j] else 1 - kp
            out[y] = p
        return out

    return Mechanism.from_function(dom, dom.points, law)
