"""bcdp.randomness.mechanisms (Table 7.1 channels) against independent constructions written here: RAPPOR
as a product of independent flips, BH from the Sylvester recursion, HR sets checked for size and
distinctness, row levels against the channels' rows, randomness against mpmath and keys.two_level_entropy."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction as F

import mpmath
import pytest

from bcdp.core.errors import InvalidInputError
from bcdp.randomness import keys, mechanisms, model


@pytest.fixture(autouse=True)
def _fifty_digits():
    with mpmath.workdps(50):
        yield


def _sylvester(n):
    h = [[1]]
    while len(h) < n:
        h = [r + r for r in h] + [r + [-v for v in r] for r in h]
    return h


@pytest.mark.parametrize("k,e", [(2, F(2)), (3, F(4)), (4, F(9, 4))])
def test_rappor_is_a_product_of_independent_flips(k, e):
    q = mechanisms.rappor(k, e)
    f = 1 / (e + 1)
    for x in range(k):
        for bits in itertools.product((0, 1), repeat=k):
            y = sum(b << i for i, b in enumerate(bits))
            want = F(1)
            for i, b in enumerate(bits):
                want *= (1 - f) if b == (1 if i == x else 0) else f
            assert q[x][y] == want
    assert model.ldp_epsilon_ratio(q) == e * e              # printed RAPPOR is 2 eps-LDP
    assert model.ldp_epsilon_ratio(mechanisms.rappor(k, e * e, e_bit=e)) == e * e


@pytest.mark.parametrize("k", [2, 3, 5, 8])
def test_k_rr_and_bh(k):
    e = F(5, 2)
    assert model.ldp_epsilon_ratio(mechanisms.k_rr(k, e)) == e
    big_k = 1
    while big_k < k:
        big_k *= 2
    h = _sylvester(big_k)
    for group in range(1, big_k):
        q = mechanisms.binary_hadamard(k, e, group)
        for x in range(k):
            assert q[x][1] == (e / (e + 1) if h[x][group] == 1 else 1 / (e + 1))
        if any(h[x][group] == -1 for x in range(k)):
            assert model.ldp_epsilon_ratio(q) == e


@pytest.mark.parametrize("k,e", [(2, F(2)), (5, F(4)), (9, F(3)), (12, F(100))])
def test_hadamard_response_sets_and_randomness(k, e):
    par = mechanisms.hr_parameters(k, e)
    q = mechanisms.hadamard_response(k, e)
    big_k, s = par["K"], par["s"]
    sets = [frozenset(y for y in range(big_k) if q[x][y] > min(q[x])) for x in range(k)]
    assert all(len(c) == s for c in sets) and len(set(sets)) == k
    assert model.ldp_epsilon_ratio(q) == e
    # oracle of the [ASZ19] parameters from the printed formula with floats (e exact powers avoided here)
    b_big = 2 ** (mpmath.ceil(mpmath.log(min(float(e), 2 * k), 2)) - 1)
    assert par["B"] == int(b_big) and par["b"] == 2 ** int(mpmath.ceil(mpmath.log(k / b_big + 1, 2)))
    r = model.mechanism_randomness(q, "nats")
    with mpmath.workdps(50):
        t = s * mpmath.mpf(e.numerator) / e.denominator + big_k - s
        ee = mpmath.mpf(e.numerator) / e.denominator
        want = mpmath.log(t) - s * mpmath.log(ee) * ee / t          # (7.47) with eps = log e
        assert mpmath.mpf(r.lower.numerator) / r.lower.denominator - 1e-30 <= want
        assert want <= mpmath.mpf(r.upper.numerator) / r.upper.denominator + 1e-30


@pytest.mark.parametrize("name", ["RR", "RAPPOR", "BH", "HR"])
def test_row_levels_are_the_rows_multisets(name):
    k, e = 5, F(4)
    par = mechanisms.hr_parameters(k, e)
    chan = {"RR": mechanisms.k_rr(k, e), "RAPPOR": mechanisms.rappor(k, e),
            "BH": mechanisms.binary_hadamard(k, e, 1), "HR": mechanisms.hadamard_response(k, e)}[name]
    levels = mechanisms.row_levels(name, k, e, par)
    for row, lev in zip(chan, levels):
        want = Counter(row)
        got = Counter()
        for v, c in lev:
            got[v] += c
        assert got == want


def test_hr_randomness_equals_two_level_entropy_at_irrational_eps():
    from bcdp.core.intervals import arb_precision, ball_ends, ball_of

    for k, eps in [(4, F(1)), (16, F(2)), (64, F(1, 2))]:
        par = keys.asz19_parameters(k, eps)
        ref = keys.two_level_entropy(par["K"], par["s"], eps, "nats", prec=200)
        with arb_precision(200):
            rows = mechanisms.row_levels("HR", k, ball_of(eps).exp(), par)
            hs = []
            for row in rows:
                h = ball_of(0)
                for value, count in row:
                    h -= count * value * value.log()
                hs.append(h)
            assert all(ball_ends(h) == ball_ends(hs[0]) for h in hs)   # HR is symmetric: equal rows
            lo, hi = ball_ends(hs[0])
        assert lo <= ref.upper and ref.lower <= hi


@pytest.mark.parametrize("call", [
    lambda: mechanisms.k_rr(1, 2), lambda: mechanisms.k_rr(3, F(1, 2)), lambda: mechanisms.rappor(13, 2),
    lambda: mechanisms.binary_hadamard(4, 2, group=4), lambda: mechanisms.binary_hadamard(4, 2, q=F(3, 2)),
    lambda: mechanisms.hr_parameters(4, F(3, 2)), lambda: mechanisms.row_levels("XR", 4, 2),
    lambda: mechanisms.row_levels("HR", 4, 2), lambda: mechanisms.hr_sets(10, 1, 4),
])
def test_bad_input(call):
    with pytest.raises(InvalidInputError) as info:
        call()
    assert "\n" not in str(info.value)
