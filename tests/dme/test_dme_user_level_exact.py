"""Exact tests of :mod:`bcdp.dme.user_level` (thesis Sec. 3.7, Algs 3.7.1-3.7.4, Lemma 3.7.1, Thm 3.7.1).

Every oracle is written here from the algorithm boxes: Hadamard entries from the closed form
(-1)^{popcount(i & j)}, the Alg 3.7.1 probabilities 1/2 +- H_k[j, nu](E-1)/(2(E+1)), the range by
explicit vector sums, and the moments and failure probabilities by enumerating every message tuple
with Fractions.  Each test also rejects a deliberately wrong variant.
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import mpmath
import pytest
from bcdp.core.errors import FloatRefusedError, InvalidInputError
from bcdp.dme import user_level as ul


def h(i: int, j: int) -> int:
    return -1 if bin(i & j).count("1") % 2 else 1


def oracle_range_law(nu: int, k: int, E: F) -> dict:
    """Alg 3.7.1 step 6: (j, s) -> (1/k)(1/2 + s H_k[j, nu] (E-1)/(2(E+1)))."""
    return {(j, s): F(1, k) * (F(1, 2) + s * h(j, nu) * (E - 1) / (2 * (E + 1))) for j in range(k) for s in (1, -1)}


def oracle_nu(y: F, B: F, tau: F) -> int:
    """Nearest midpoint by brute force over the bins [-B + 2 j tau, -B + 2 (j+1) tau]; ties -> lower."""
    k = int(B / tau)
    mids = [(-B + 2 * j * tau + -B + 2 * (j + 1) * tau) / 2 for j in range(k)]
    best = min(abs(y - a) for a in mids)
    return min(j for j in range(k) if abs(y - mids[j]) == best)


# -- bins ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("B, tau, k", [(4, 1, 4), (F(3, 2), F(3, 4), 2), (1, 1, 1), (64, 1, 64), (2, F(1, 4), 8)])
def test_number_of_bins_accepts_powers_of_two(B, tau, k):
    assert ul.number_of_bins(B, tau) == k
    mids = ul.bin_midpoints(B, tau)
    assert mids == tuple((-F(B) + 2 * j * F(tau) + -F(B) + 2 * (j + 1) * F(tau)) / 2 for j in range(k))


@pytest.mark.parametrize("B, tau", [(3, 1), (F(5, 2), 1), (6, 1), (128, 1), (0, 1), (1, 0), (1, -1)])
def test_number_of_bins_refuses_non_powers_and_bad_values(B, tau):
    with pytest.raises(InvalidInputError):
        ul.number_of_bins(B, tau)


def test_floats_are_refused():
    with pytest.raises(FloatRefusedError):
        ul.number_of_bins(4.0, 1)
    with pytest.raises(FloatRefusedError):
        ul.range_user_law([0.5], 4, 1, 3)
    with pytest.raises(FloatRefusedError):
        ul.second_stage_law(F(0), 0, 1, 3.0)


def test_nearest_bin_matches_brute_force_with_ties_to_the_lower_bin():
    B, tau = F(4), F(1)
    grid = [F(i, 4) for i in range(-16, 17)]
    assert [ul.nearest_bin(y, B, tau) for y in grid] == [oracle_nu(y, B, tau) for y in grid]
    assert ul.nearest_bin(0, B, tau) == 1  # the boundary 0 between bins 1 and 2 goes to the lower one
    with pytest.raises(InvalidInputError):
        ul.nearest_bin(F(17, 4), B, tau)


def test_user_mean_checks_the_sample_range():
    assert ul.user_mean([1, F(1, 2), -4], 4) == F(-5, 6)
    with pytest.raises(InvalidInputError):
        ul.user_mean([F(9, 2)], 4)
    with pytest.raises(InvalidInputError):
        ul.user_mean([], 4)


# -- stage 1 ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("k, E", [(2, F(2)), (4, F(3)), (8, F(9, 2))])
def test_range_user_law_is_alg371_and_unbiased_for_e_nu(k, E):
    B, tau = F(k), F(1)
    for y in [F(i, 2) for i in range(-2 * k, 2 * k + 1)]:
        nu = oracle_nu(y, B, tau)
        law = ul.range_user_law([y], B, tau, E)
        assert law == oracle_range_law(nu, k, E)
        c = (E + 1) / (E - 1)
        mean = [sum(p * s * c * h(j, a) for (j, s), p in law.items()) for a in range(k)]
        assert mean == [F(int(a == nu)) for a in range(k)]  # App. B.3, (B.2): E[z] = e_nu
        assert law != oracle_range_law(nu, k, E * E)  # the wrong variant


def _grid_datasets(B: F, m: int, step: F):
    points = [-B + i * step for i in range(int(2 * B / step) + 1)]
    return list(itertools.product(points, repeat=m))


@pytest.mark.parametrize("k, E", [(2, F(2)), (4, F(3))])
def test_range_user_is_user_level_eps_ldp_exactly(k, E):
    B, tau = F(k), F(1)
    datasets = _grid_datasets(B, 2, F(1))  # the grid holds every bin boundary (ties) and both ends
    laws = {D: ul.range_user_law(D, B, tau, E) for D in datasets}
    worst = max(ul.max_likelihood_ratio(laws[a], laws[b]) for a in datasets for b in datasets)
    assert worst == E  # attained (two datasets in bins with opposite H entries)
    wrong = {D: ul.range_user_law(D, B, tau, E * E) for D in datasets}  # the law at E^2: rejected
    assert max(ul.max_likelihood_ratio(p, q) for p in wrong.values() for q in wrong.values()) == E * E > E


def test_range_from_messages_is_the_argmax_of_the_average():
    B, tau, E = F(4), F(1), F(3)
    c = (E + 1) / (E - 1)
    for msgs in itertools.product([(0, 1), (1, -1), (2, 1), (3, -1), (3, 1)], repeat=3):
        zbar = [sum(s * c * h(j, a) for j, s in msgs) / 3 for a in range(4)]
        j = min(a for a in range(4) if zbar[a] == max(zbar))
        a_max = -B + (2 * j + 1) * tau
        assert ul.range_from_messages(msgs, B, tau, E) == (a_max - 3 * tau, a_max + 3 * tau)


@pytest.mark.parametrize("ys, E", [
    ((F(1, 2), F(1, 2), F(5, 2)), F(3)),
    ((F(-7, 2), F(-3, 2), F(1, 4), F(2)), F(2)),      # spread over 11/2: failures are likely
    ((F(0), F(1, 2), F(-1, 2), F(1)), F(9)),
])
def test_range_failure_probability_matches_enumeration_of_all_messages(ys, E):
    B, tau, k = F(4), F(1), 4
    c = (E + 1) / (E - 1)
    nus = [oracle_nu(y, B, tau) for y in ys]
    laws = [oracle_range_law(nu, k, E) for nu in nus]
    low = anyt = F(0)
    for msgs in itertools.product(*[list(law) for law in laws]):
        p = F(1)
        for law, m in zip(laws, msgs):
            p *= law[m]
        zbar = [sum(s * c * h(j, a) for j, s in msgs) for a in range(k)]
        tops = [a for a in range(k) if zbar[a] == max(zbar)]
        miss = [any(abs(y - (-B + (2 * a + 1) * tau)) > 3 * tau for y in ys) for a in tops]
        low += p * miss[0]
        anyt += p * any(miss)
    got = ul.range_failure_probability(ys, B, tau, E)
    assert got["lowest_index"] == low and got["any_tie"] == anyt
    assert ul.range_failure_probability(ys, B, tau, E * E)["lowest_index"] != low  # wrong variant differs


def test_range_failure_probability_caps():
    with pytest.raises(InvalidInputError):
        ul.range_failure_probability([0] * 17, 4, 1, 3)
    with pytest.raises(InvalidInputError):
        ul.range_failure_probability([0], 16, 1, 3)
    with pytest.raises(InvalidInputError):
        ul.range_failure_probability([0] * 8, 8, 1, 3)  # C(23, 15) = 490314 > the state cap
    assert 0 < ul.range_failure_probability([0] * 5, 8, 1, 3)["lowest_index"] < 1  # C(20, 15) = 15504
    assert ul.range_failure_probability([0] * 16, 2, 1, 3)["lowest_index"] == 0  # k = 2 never misses


@pytest.mark.parametrize("n, B, tau, Eh, gamma", [(1000, 4, 1, 9, 0), (5000, 8, 1, 3, F(1, 100)),
                                                  (10, 4, 1, 2, 0), (300, 2, 1, F(11, 10), F(1, 2))])
def test_thm371_beta_against_mpmath(n, B, tau, Eh, gamma):
    mpmath.mp.dps = 60
    Ehm = mpmath.mpf(F(Eh).numerator) / F(Eh).denominator
    gm = mpmath.mpf(F(gamma).numerator) / F(gamma).denominator
    oracle = min(mpmath.mpf(1), gm + 2 * mpmath.mpf(B) / tau * mpmath.exp(-n * (Ehm - 1) ** 2 / (200 * (Ehm + 1) ** 2)))
    got = ul.thm371_beta(n, B, tau, Eh, gamma)
    assert abs(mpmath.mpf(str(got.evalf(60))) - oracle) < mpmath.mpf(10) ** -50
    wrong = min(mpmath.mpf(1), gm + mpmath.mpf(B) / tau * mpmath.exp(-n * (Ehm - 1) ** 2 / (200 * (Ehm + 1) ** 2)))
    assert oracle == 1 or abs(wrong - oracle) > mpmath.mpf(10) ** -10


@pytest.mark.parametrize("bad", [dict(E_half=1), dict(gamma=F(3, 2)), dict(gamma=-1), dict(n=0)])
def test_thm371_beta_refuses_bad_parameters(bad):
    args = dict(n=10, B=4, tau=1, E_half=2, gamma=0) | bad
    with pytest.raises(InvalidInputError):
        ul.thm371_beta(**args)
    ul.thm371_beta(n=10, B=4, tau=1, E_half=F(1001, 1000), gamma=1)  # just inside


# -- stage 2 ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("a, b, E", [(F(-3), F(3), F(3)), (F(-1, 2), F(11, 2), F(2)), (F(0), F(6, 5), F(7, 3))])
def test_second_stage_is_unbiased_with_exact_mse(a, b, E):
    c = (E + 1) / (E - 1)
    tau = (b - a) / 6
    for i in range(13):
        y = a + (b - a) * F(i, 12)
        law = ul.second_stage_law(y, a, b, E)
        outs = {s: ul.second_stage_output(s, a, b, E) for s in (1, -1)}
        assert outs == {1: (a + b) / 2 + (b - a) / 2 * c, -1: (a + b) / 2 - (b - a) / 2 * c}
        assert sum(law.values()) == 1 and all(p > 0 for p in law.values())
        assert sum(p * outs[s] for s, p in law.items()) == y
        mse = sum(p * (outs[s] - y) ** 2 for s, p in law.items())
        assert ul.second_stage_mse(y, a, b, E) == mse <= 9 * tau * tau * c * c
    # ratio: at most E, attained at the two ends of [a, b]
    ends = [ul.second_stage_law(a, a, b, E), ul.second_stage_law(b, a, b, E)]
    assert ul.max_likelihood_ratio(ends[1], ends[0]) == E
    with pytest.raises(InvalidInputError):
        ul.second_stage_law(b + 1, a, b, E)


def test_projection_sensitivity_is_b_minus_a_equal_6_tau():
    B, a, b = F(4), F(-2), F(4)  # tau = 1, a range of length 6 tau
    ys = [F(i, 4) for i in range(-16, 17)]
    sens = max(abs(ul.project(y, a, b) - ul.project(z, a, b)) for y in ys for z in ys)
    assert sens == b - a == 6 and sens != 1  # the "sensitivity tau" reading is wrong
    del B


@pytest.mark.parametrize("Eh", [F(2), F(3, 2)])
def test_two_stage_view_is_user_level_eps0_ldp_by_composition(Eh):
    B, tau, a, b = F(4), F(1), F(-2), F(4)
    datasets = _grid_datasets(B, 2, F(1))
    laws = {D: ul.user_view_law(D, B, tau, a, b, Eh) for D in datasets}
    for law in laws.values():
        assert sum(law.values()) == 1
    worst = max(ul.max_likelihood_ratio(laws[p], laws[q]) for p in datasets for q in datasets)
    assert worst == Eh * Eh  # e^{eps0/2} e^{eps0/2} = e^{eps0}, attained
    assert worst > Eh  # one stage alone at eps0/2 would not be the composed level


def test_mean_scalar_error_matches_enumeration_of_all_signs():
    B, a, b, E = F(4), F(-2), F(4), F(3)
    datasets = [(F(1), F(2)), (F(-1), F(0)), (F(4), F(3)), (F(-4), F(-3))]  # the last user is clipped to a
    n = len(datasets)
    xbar = sum(sum(D) for D in datasets) / (n * 2)
    c = (E + 1) / (E - 1)
    o, hh = (a + b) / 2, (b - a) / 2
    yts = [min(b, max(a, sum(D) / 2)) for D in datasets]
    total = F(0)
    for signs in itertools.product((1, -1), repeat=n):
        p = F(1)
        for s, y in zip(signs, yts):
            p *= F(1, 2) + s * (y - o) / (2 * hh * c)
        xhat = sum(o + s * hh * c for s in signs) / n
        total += p * (xhat - xbar) ** 2
    assert ul.mean_scalar_error(datasets, B, a, b, E) == total
    inside = datasets[:3]
    got = ul.mean_scalar_error(inside, B, a, b, E)
    assert got <= 9 * c * c / len(inside)  # (3.51): f/n with f = 9 tau^2 c^2, tau = 1
    assert got == sum(hh * hh * c * c - (y - o) ** 2 for y in yts[:3]) / 9
