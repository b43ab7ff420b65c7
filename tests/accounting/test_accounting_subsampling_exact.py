"""bcdp.accounting.subsampling_exact (thesis Lemma 2.1.1) against independent oracles: the
hypergeometric mixture for symmetric mechanisms, the binomial closed form of the RR count, and the
hockey-stick as a supremum over events (all subsets of outputs), all with Fractions."""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb

import pytest
from bcdp.accounting import subsampling_exact as se
from bcdp.core.errors import FloatRefusedError, InvalidInputError, WrongTypeError


def _rr_law_closed(ones: int, k: int, r: Fraction) -> list[Fraction]:
    """P{count = c}: j of the ones kept (prob r/(1+r)), c - j of the zeros flipped (prob 1/(1+r))."""
    a, b = r / (1 + r), 1 / (1 + r)
    return [sum((comb(ones, j) * a ** j * b ** (ones - j) * comb(k - ones, c - j) * b ** (c - j)
                 * a ** (k - ones - c + j) for j in range(0, min(ones, c) + 1) if c - j <= k - ones),
                Fraction(0)) for c in range(k + 1)]


def _sup_over_events(P, Q, r: Fraction) -> Fraction:
    idx = range(len(P))
    return max(sum((P[i] - r * Q[i] for i in S), Fraction(0))
               for m in range(len(P) + 1) for S in itertools.combinations(idx, m))


@pytest.mark.parametrize("k,r", [(1, Fraction(2)), (3, Fraction(3, 2)), (4, Fraction(5))])
def test_rr_count_rows_match_the_binomial_closed_form(k, r):
    mech = se.rr_count_mechanism(k, r)
    for x, row in mech.rows.items():
        assert list(row) == _rr_law_closed(sum(x), k, r)


def test_two_rr_sum_outputs_are_the_sums_of_alg_221_values():
    p = Fraction(1, 5)
    mech = se.two_rr_sum_mechanism(2, p)
    lo, hi = -p / (1 - 2 * p), (1 - p) / (1 - 2 * p)     # Alg 2.2.1 outputs for gamma = 0, b = 0 / 1
    assert mech.outputs == (2 * lo, lo + hi, 2 * hi)
    # unbiased (thesis Thm 2.4.1): E[sum y] = sum x for every input
    for x, row in mech.rows.items():
        assert sum(v * o for v, o in zip(row, mech.outputs)) == sum(x)


@pytest.mark.parametrize("k,n,ones", [(1, 4, 1), (2, 5, 2), (3, 6, 4), (2, 4, 0)])
def test_subsampled_law_is_the_hypergeometric_mixture(k, n, ones):
    r = Fraction(3)
    mech = se.rr_count_mechanism(k, r)
    D = (1,) * ones + (0,) * (n - ones)
    expected = [sum((Fraction(comb(ones, j) * comb(n - ones, k - j), comb(n, k)) * _rr_law_closed(j, k, r)[c]
                     for j in range(0, min(k, ones) + 1)), Fraction(0)) for c in range(k + 1)]
    assert list(se.subsampled_law(mech, D)) == expected


def test_subsampled_law_keeps_record_order_for_asymmetric_mechanisms():
    mech = se.random_mechanism(3, 2)
    D = (0, 1, 1)
    subsets = [(0, 1), (0, 2), (1, 2)]
    expected = [sum((mech.rows[tuple(D[i] for i in S)][j] for S in subsets), Fraction(0)) / 3 for j in range(3)]
    assert list(se.subsampled_law(mech, D)) == expected


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_privacy_profile_is_the_supremum_over_events_and_pairs(seed):
    mech = se.random_mechanism(seed, 1, (0, 1, 2))
    r = Fraction(5, 4)
    n = 3
    laws = {D: se.subsampled_law(mech, D) for D in itertools.product((0, 1, 2), repeat=n)}
    want = max(_sup_over_events(laws[D], laws[E], r) for D in laws for E in laws
               if sum(a != b for a, b in zip(D, E)) == 1)
    got, wit = se.privacy_profile(mech, r, n)
    assert got == want
    assert _sup_over_events(laws[wit["D"]], laws[wit["D_prime"]], r) == want


def test_profile_and_ratio_of_m_itself():
    r = Fraction(3)
    mech = se.rr_count_mechanism(2, r)
    assert se.max_privacy_ratio(mech)[0] == r                  # eps-DP, attained at an extreme count
    assert se.privacy_profile(mech, r)[0] == 0
    # below the pure level delta > 0: pair (0,0) vs (1,0) at ratio 1 is the total variation distance
    tv = max(sum(abs(a - b) for a, b in zip(mech.rows[D], mech.rows[E])) / 2
             for D in mech.rows for E in mech.rows if sum(u != v for u, v in zip(D, E)) == 1)
    assert se.privacy_profile(mech, 1)[0] == tv


def test_lemma_211_is_attained_on_one_rr_report():
    # k = 1: M'(D) = (1/n) sum_j RR(d_j); ratio at output 1 between 0..01 and 0..00 is 1 + q(r - 1)
    r, n = Fraction(3), 5
    assert se.max_privacy_ratio(se.rr_count_mechanism(1, r), n)[0] == 1 + Fraction(1, n) * (r - 1)


def test_an_infinite_ratio_is_reported():
    mech = se.finite_mechanism((0, 1), 1, ("a", "b"), {(0,): (1, 0), (1,): (Fraction(1, 2), Fraction(1, 2))})
    assert se.max_privacy_ratio(mech, 2)[0] == float("inf")


def test_random_mechanism_is_seeded_and_valid():
    a, b = se.random_mechanism(7, 2, (0, 1, 2), 4), se.random_mechanism(7, 2, (0, 1, 2), 4)
    assert a == b
    assert all(sum(row) == 1 and min(row) > 0 for row in a.rows.values())
    assert se.random_mechanism(8, 2, (0, 1, 2), 4) != a


@pytest.mark.parametrize("call,exc", [
    (lambda: se.rr_count_mechanism(0, 2), InvalidInputError),
    (lambda: se.rr_count_mechanism(True, 2), WrongTypeError),
    (lambda: se.rr_count_mechanism(2, 2.0), FloatRefusedError),
    (lambda: se.rr_count_mechanism(2, Fraction(1, 2)), InvalidInputError),
    (lambda: se.two_rr_sum_mechanism(2, Fraction(1, 2)), InvalidInputError),
    (lambda: se.two_rr_sum_mechanism(2, 0), InvalidInputError),
    (lambda: se.subsampled_law(se.rr_count_mechanism(3, 2), (0, 1)), InvalidInputError),
    (lambda: se.subsampled_law(se.rr_count_mechanism(1, 2), (0, 2)), InvalidInputError),
    (lambda: se.privacy_profile(se.rr_count_mechanism(2, 2), 2, 1), InvalidInputError),
    (lambda: se.privacy_profile(se.rr_count_mechanism(2, 2), Fraction(1, 2), 3), InvalidInputError),
    (lambda: se.max_privacy_ratio(se.rr_count_mechanism(3, 2), 40), InvalidInputError),
    (lambda: se.finite_mechanism((0, 1), 1, ("a",), {(0,): (1,)}), InvalidInputError),
    (lambda: se.rr_count_mechanism(10 ** 6, 2), InvalidInputError),       # used to run out of time/memory
    (lambda: se.two_rr_sum_mechanism(40, Fraction(1, 4)), InvalidInputError),
    (lambda: se.random_mechanism(0, 30), InvalidInputError),
    (lambda: se.max_privacy_ratio(3), WrongTypeError),                     # were AttributeError tracebacks
    (lambda: se.privacy_profile({"rows": {}}, 2, 3), WrongTypeError),
    (lambda: se.subsampled_law(0.5, (0, 1)), WrongTypeError),
    (lambda: se.subsampled_law(se.rr_count_mechanism(1, 2), 7), WrongTypeError),
    (lambda: se.finite_mechanism((0, 0), 1, ("a",), {(0,): (1,)}), InvalidInputError),
    (lambda: se.finite_mechanism((0, 1), 1, ("a", "b"), {(0,): (1, 0), (1,): (1, 1)}), InvalidInputError),
])
def test_bad_inputs_raise_one_line_errors(call, exc):
    with pytest.raises(exc) as info:
        call()
    assert "\n" not in str(info.value)
