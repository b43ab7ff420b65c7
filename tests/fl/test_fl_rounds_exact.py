"""bcdp.fl.rounds and bcdp.fl.kernels (thesis Alg 4.3.1, Sec. 4.3, Lemma 4.3.2): exact laws of one
CLDP-SGD round against brute force (tests/fl_oracles.py), sampling probabilities against the
combinatorial formulas, validity conditions on both sides, bad inputs."""

from __future__ import annotations

import random
from fractions import Fraction
from math import comb

import pytest
from bcdp.core.errors import FloatRefusedError, InvalidInputError, ValidityConditionError
from bcdp.fl import kernels, rounds
from fl_oracles import average, cldp_outcomes, law, rr_kernel, sq, vec

KER = rr_kernel(Fraction(1, 4))
KER3 = rr_kernel(Fraction(1, 10), (-1, 0, 1))


@pytest.mark.parametrize("n,m,k,s", [(3, 2, 2, 1), (4, 3, 2, 2), (2, 3, 2, 3), (3, 3, 1, 2), (1, 1, 1, 1)])
def test_inclusion_and_co_occurrence_match_the_combinatorial_formulas(n, m, k, s):
    q = Fraction(comb(n - 1, k - 1), comb(n, k)) * Fraction(comb(m - 1, s - 1), comb(m, s))
    assert q == Fraction(k * s, m * n)
    for i in range(n):
        for j in range(m):
            assert rounds.inclusion_probability(n, m, k, s, i, j) == q
    if m >= 2:
        co = Fraction(k, n) * Fraction(comb(m - 2, s - 2) if s >= 2 else 0, comb(m, s))
        assert rounds.co_occurrence_probability(n, m, k, s) == co
        assert (co == 0) == (s == 1)


def test_sample_law_sums_to_one_and_has_every_sample_once():
    samples = list(rounds.sample_law(4, 3, 2, 2))
    assert len(samples) == comb(4, 2) * comb(3, 2) ** 2 == len({s for s, _ in samples})
    assert sum(w for _, w in samples) == 1


def _random_dataset(rng, domain, n, m):
    return tuple(tuple(rng.choice(domain) for _ in range(m)) for _ in range(n))


@pytest.mark.parametrize("seed", range(6))
def test_output_law_mean_and_second_moment_match_brute_force(seed):
    rng = random.Random(seed)
    ker = KER3 if seed % 2 else KER
    n, m = rng.choice([(2, 2), (3, 2), (2, 3)])
    k, s = rng.randint(1, n), rng.randint(1, m)
    D = _random_dataset(rng, sorted(ker), n, m)
    oracle = law(cldp_outcomes(D, ker, k, s))
    assert rounds.output_law(D, ker, k, s) == oracle
    grad = tuple(sum(Fraction(x) for c in D for x in c) / (n * m) for _ in (0,))
    assert rounds.gradient_mean(D, ker, k, s) == grad
    g_law = law((average(o), w) for o, w in oracle.items())
    assert rounds.gradient_law(D, ker, k, s) == g_law
    E = rounds.second_moment(D, ker, k, s)
    assert E == sum(sq(g) * w for g, w in g_law.items())
    # Lemma 4.3.2 (4.6) with L = 1 (gradients in [-1, 1]) and f_p = max MSE of the kernel
    fp = max(sum((vec(y)[0] - x) ** 2 * w for y, w in r.items()) for x, r in ker.items())
    assert kernels.kernel_fp(ker) == fp
    assert E <= rounds.lemma432_bound(1, fp, n, m, k, s) == 1 + fp / (k * s)


def test_second_moment_is_sampling_part_plus_noise_over_ks():
    """E||g||^2 = E||avg of the sampled gradients||^2 + (avg MSE over sampled records)/(ks)."""
    D = ((1, -1), (-1, 1), (1, 1))
    k, s = 2, 1
    p = Fraction(1, 10)
    mse = 1 / (1 - 2 * p) ** 2 - 1  # E y^2 - x^2: outputs +-1/(1-2p), x^2 = 1
    clean = law(cldp_outcomes(D, {Fraction(x): {Fraction(x): Fraction(1)} for x in (-1, 1)}, k, s))
    sampling = sum(sq(average(o)) * w for o, w in clean.items())
    assert rounds.second_moment(D, rr_kernel(p), k, s) == sampling + mse / (k * s)


def test_two_dimensional_kernel():
    base = rr_kernel(Fraction(1, 4))
    ker = {(a, b): {(y1, y2): w1 * w2 for y1, w1 in base[a].items() for y2, w2 in base[b].items()}
           for a in base for b in base}
    D = (((1, 1), (1, -1)), ((-1, -1), (1, 1)))
    assert rounds.output_law(D, ker, 1, 1) == law(cldp_outcomes(D, ker, 1, 1))
    assert rounds.gradient_mean(D, ker, 2, 1) == (Fraction(1, 2), Fraction(0))
    assert kernels.kernel_ldp_ratio(ker) == 9


def test_kernel_summaries():
    p = Fraction(1, 4)
    assert kernels.kernel_ldp_ratio(KER) == (1 - p) / p
    for x in (-1, 1):
        assert kernels.kernel_mean(KER, x) == (Fraction(x),)
        assert kernels.kernel_mse(KER, x) == 1 / (1 - 2 * p) ** 2 - 1
    assert kernels.kernel_ldp_ratio({0: {0: 1}, 1: {1: 1}}) == float("inf")


@pytest.mark.parametrize("n,m,k,s,ok", [(3, 2, 3, 1, True), (3, 2, 4, 1, False), (3, 2, 1, 2, True), (3, 2, 1, 3, False)])
def test_sizes_validity_both_sides(n, m, k, s, ok):
    if ok:
        assert rounds.check_sizes(n, m, k, s) == (n, m, k, s)
    else:
        with pytest.raises(ValidityConditionError):
            rounds.check_sizes(n, m, k, s)


@pytest.mark.parametrize("bad, exc", [
    ({1: {Fraction(1): 0.5, Fraction(-1): Fraction(1, 2)}}, FloatRefusedError),
    ({1: {1: Fraction(1, 3), -1: Fraction(1, 3)}}, InvalidInputError),
    ({1: {1: Fraction(3, 2), -1: Fraction(-1, 2)}}, InvalidInputError),
    ({}, InvalidInputError),
    ({1: {(1, 1): 1}}, InvalidInputError),
])
def test_bad_kernels(bad, exc):
    with pytest.raises(exc) as info:
        kernels.check_kernel(bad)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("bad", [((1, 1), (1,)), ((1, 2),), (), ((),), (("a", 1),)])
def test_bad_datasets(bad):
    with pytest.raises(InvalidInputError) as info:
        rounds.output_law(bad, KER, 1, 1)
    assert "\n" not in str(info.value)


def test_bad_counts():
    with pytest.raises(InvalidInputError):
        rounds.check_sizes(0, 1, 1, 1)
    with pytest.raises(InvalidInputError):
        rounds.check_sizes(True, 1, 1, 1)
    with pytest.raises(InvalidInputError):
        rounds.check_sizes(2.0, 1, 1, 1)
    with pytest.raises(InvalidInputError):
        rounds.check_sizes(12, 4, 6, 2)  # too many samples


def test_float_sampler_matches_the_exact_law():
    """200000 seeded draws; each atom's empirical frequency is within 5 standard errors of the exact
    probability (false-failure rate < 1e-5 per atom by the normal tail), and the sample mean of g_t
    within 5 standard errors of grad F."""
    import numpy as np

    D, k, s = ((1, -1, 1), (-1, -1, 1), (1, 1, 1)), 2, 2
    exact = rounds.gradient_law(D, KER3, k, s)
    N = 200_000
    g = rounds.sample_gradients_float(np.random.default_rng(20261125), D, KER3, k, s, N)[:, 0]
    for value, prob in exact.items():
        freq = np.mean(np.isclose(g, float(value[0])))
        sd = (float(prob) * (1 - float(prob)) / N) ** 0.5
        assert abs(freq - float(prob)) <= 5 * sd + 1e-12
    var = float(sum(w * v[0] ** 2 for v, w in exact.items()) - rounds.gradient_mean(D, KER3, k, s)[0] ** 2)
    assert abs(g.mean() - float(rounds.gradient_mean(D, KER3, k, s)[0])) <= 5 * (var / N) ** 0.5


def test_float_sampler_bad_inputs():
    import numpy as np

    with pytest.raises(InvalidInputError):
        rounds.sample_gradients_float(0, ((1,),), KER, 1, 1, 10)
    with pytest.raises(ValidityConditionError):
        rounds.sample_gradients_float(np.random.default_rng(1), ((1,),), KER, 2, 1, 10)
