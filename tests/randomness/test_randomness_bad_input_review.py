"""Bad inputs of bcdp.randomness.{model, assouad, mechanisms} found in review h7rev1: each is refused with a
one-line bcdp.core.errors exception, quickly (no hang on huge sizes, no raw TypeError/ValueError)."""

from __future__ import annotations

import time
from fractions import Fraction as F

import pytest

from bcdp.core.errors import InvalidInputError
from bcdp.randomness import assouad, mechanisms, model

KRR = mechanisms.k_rr(4, 2)
COIN = [[F(1, 2), F(1, 2)]]


@pytest.mark.parametrize("call", [
    lambda: assouad.product_law(COIN, [1], -1),
    lambda: assouad.product_law(COIN, [1], 0),
    lambda: assouad.product_law(COIN, [1], F(3, 2)),
    lambda: assouad.product_law(COIN, [1], True),
    lambda: assouad.product_law([[1]], [1], 10 ** 7),           # one output, but a sequence of length 10^7
    lambda: model.exact_risk(COIN, lambda s: [1], [1], 10 ** 9),  # 2^(10^9) must not be computed
    lambda: model.exact_risk([[1]], lambda s: [1], [1], 10 ** 7),
    lambda: model.exact_risk([[1]], lambda s: None, [1], 1),
    lambda: model.exact_risk([[1]], lambda s: 5, [1], 1),
    lambda: assouad.bayes_risk([[int(i == j) for j in range(8)] for i in range(8)], 8, F(1, 16), 4),  # took 9 s
    lambda: assouad.assouad_rhs(KRR, 4, F(1, 8), 10 ** 9),
    lambda: assouad.signs(10 ** 9),                               # would enumerate 2^(5 10^8) sign vectors
    lambda: assouad.signs(5),
    lambda: assouad.phi(0.5, "l2"),
    lambda: assouad.total_variation([F(1)], [F(1)]),
    lambda: model.loss_value([F(1)], [F(1, 2), F(1, 2)], "l1"),  # zip used to drop the extra entry silently
    lambda: assouad.mixture_pair(KRR, 4, 0, 1, "1"),
    lambda: assouad.mixture_pair(KRR, 4, 0, 1, True),
    lambda: assouad.chi2_chain(KRR, 4, F(1, 8), "1", (1, 1), 2),
    lambda: assouad.chi2_chain(KRR, 4, F(1, 8), 1, None, 2),
    lambda: assouad.chi2_chain(KRR, 4, F(1, 8), 1, (1, 2), 2),
    lambda: mechanisms.k_rr(4096, 2),                            # 16.7M Fractions: took 81 s
    lambda: mechanisms.hadamard_response(4096, 2),               # 33.5M Fractions: took 205 s
    lambda: mechanisms.hadamard_response(4, 2, {"B": 0, "b": 4}),
    lambda: mechanisms.hadamard_response(4, 2, {"B": "x", "b": 4}),
    lambda: mechanisms.hadamard_response(4, 2, {"B": 1}),
    lambda: mechanisms.hadamard_response(4, 2, {"B": 10 ** 6, "b": 2 ** 20}),
    lambda: mechanisms.hadamard_response(4, 2, {"B": 1, "b": 6}),   # b must be a power of 2
    lambda: mechanisms.row_levels("HR", 4, F(2), {"B": 0, "b": 4}),
    lambda: mechanisms.row_levels("HR", 4, F(2), {"B": 1.5, "b": 4}),
])
def test_refused_quickly_with_one_line(call):
    start = time.perf_counter()
    with pytest.raises(InvalidInputError) as info:
        call()
    assert "\n" not in str(info.value)
    assert time.perf_counter() - start < 2


def test_valid_neighbours_still_work():
    # the same functions just inside the new limits (independent expectations)
    assert assouad.product_law([[1]], [1], 3) == {(0, 0, 0): F(1)}
    assert model.exact_risk([[1]], lambda s: [1], [1], 1000) == 0
    q = mechanisms.k_rr(512, 2)
    assert len(q) == 512 and q[0][0] == F(2, 513) and q[0][1] == F(1, 513)
    hr = mechanisms.hadamard_response(4, 2, {"B": 1, "b": 8})
    assert len(hr) == 4 and all(len(r) == 8 and r.count(F(2, 12)) == 4 for r in hr)


def test_binary_hadamard_q_boundary():
    """(7.27) is eps-LDP iff (1 - q/e)/(1 - q) <= e, i.e. q <= e/(e+1) (review h7rev1: larger q was accepted
    and gave a channel that is not eps-LDP).  Oracle: the brute-force column ratio of the 2-output rows."""
    from bcdp.core.errors import ValidityConditionError
    e = F(3)
    top = e / (e + 1)
    rows = mechanisms.binary_hadamard(4, e, 1, top)
    ratio = max(max(r[c] for r in rows) / min(r[c] for r in rows) for c in (0, 1))
    assert ratio == e
    assert mechanisms.binary_hadamard(4, e, 1, F(1, 10))[0] == (F(9, 10), F(1, 10))
    with pytest.raises(ValidityConditionError) as info:
        mechanisms.binary_hadamard(4, e, 1, top + F(1, 10 ** 9))
    assert "\n" not in str(info.value)
