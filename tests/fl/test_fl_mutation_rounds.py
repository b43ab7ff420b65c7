"""bcdp.fl.rounds against its surviving mutants (thesis Alg 4.3.1, Lemma 4.3.1, App. C.1, Lemma 4.3.2):
validity boundaries (delta~ in [0, 1], the sample budget C(n,k) C(m,s)^k, k <= n and s <= m of the float
simulation), the exact value of the Lemma 4.3.2 bound, brute-force shuffle profiles of asymmetric
kernels with their witnesses, and the argument named by each one-line message."""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb

import numpy as np
import pytest
from bcdp.core.errors import FloatRefusedError, InvalidInputError, ValidityConditionError, WrongTypeError
from bcdp.fl import rounds
from mutation_support import generator_drawing_zero_first, raised

F = Fraction
# An asymmetric 3-input kernel (rows are not permutations of each other), scalar outputs.
ASYM = {0: {0: F(1, 2), 1: F(1, 3), 2: F(1, 6)}, 1: {0: F(1, 5), 1: F(3, 5), 2: F(1, 5)}, 2: {0: F(1, 10), 1: F(1, 10), 2: F(4, 5)}}
PERFECT = {0: {0: F(1, 2), 1: F(1, 2)}, 1: {0: F(1, 2), 1: F(1, 2)}}


def _hockey(P, Q, r):
    return sum((max(F(0), P.get(o, F(0)) - r * Q.get(o, F(0))) for o in set(P) | set(Q)), F(0))


def _shuffled_law(inputs, kernel):
    """Brute force: every tuple of outputs, sorted (the multiset), with the product probability."""
    out = {}
    for ys in itertools.product(*[list(kernel[x].items()) for x in inputs]):
        o = tuple(sorted((F(y),) for y, _ in ys))
        p = F(1)
        for _, w in ys:
            p *= w
        out[o] = out.get(o, F(0)) + p
    return out


# -- argument checks: the message names the argument ------------------------------------------------

@pytest.mark.parametrize("pos,name", [(0, "n"), (1, "m"), (2, "k"), (3, "s")])
def test_check_sizes_names_the_bad_argument(pos, name):
    args = [2, 2, 1, 1]
    args[pos] = 1.5
    assert raised(WrongTypeError, rounds.check_sizes, *args).startswith(f"{name} must be an integer")
    args[pos] = 0
    assert raised(InvalidInputError, rounds.check_sizes, *args).startswith(f"{name} must be an integer >= 1")


def test_sample_budget_boundary_and_power():
    assert rounds.check_sizes(rounds.MAX_SAMPLES, 1, 1, 1) == (rounds.MAX_SAMPLES, 1, 1, 1)
    raised(InvalidInputError, rounds.check_sizes, rounds.MAX_SAMPLES + 1, 1, 1, 1)
    # C(2,2) C(200,1)^2 = 40000 > 20000 (and C(200,1) * 2 = 400 is not the count of samples)
    assert comb(2, 2) * comb(200, 1) ** 2 > rounds.MAX_SAMPLES
    assert "40000" in raised(InvalidInputError, rounds.check_sizes, 2, 200, 2, 1)


@pytest.mark.parametrize("pos,name", [(2, "k"), (3, "s")])
def test_gradient_law_names_k_and_s(pos, name):
    args = [((0,), (1,)), PERFECT, 1, 1]
    args[pos] = True
    assert raised(WrongTypeError, rounds.gradient_law, *args).startswith(f"{name} must be an integer")


def test_ratio_and_delta_tilde_and_lemma432_names():
    D = ((0,), (1,))
    assert raised(FloatRefusedError, rounds.round_delta, D, D, PERFECT, 1, 1, 1.5).startswith("ratio:")
    assert raised(FloatRefusedError, rounds.lemma431_parameters, 2, 2, 1, 1, 2, 0.5).startswith("delta_tilde:")
    assert raised(FloatRefusedError, rounds.appc12_parameters, 2, 2, 1, 1, 2, 0.5).startswith("delta_tilde:")
    assert raised(FloatRefusedError, rounds.lemma432_bound, 0.5, 1, 2, 2, 1, 1).startswith("L2:")
    assert raised(FloatRefusedError, rounds.lemma432_bound, 1, 0.5, 2, 2, 1, 1).startswith("fp:")
    assert raised(WrongTypeError, rounds.shuffle_profile, PERFECT, 1.5, [1]).startswith("count must be an integer")


@pytest.mark.parametrize("pos,name", [(3, "k"), (4, "s"), (5, "size")])
def test_sample_gradients_float_names(pos, name):
    args = [np.random.default_rng(0), ((0,), (1,)), PERFECT, 1, 1, 3]
    args[pos] = 2.0
    assert raised(WrongTypeError, rounds.sample_gradients_float, *args).startswith(f"{name} must be an integer")


# -- validity of delta~ in [0, 1] -------------------------------------------------------------------

def test_delta_tilde_one_is_accepted_and_above_one_refused():
    # n = 3, m = 2, k = 1, s = 1: q = 1/6; e^eps~ = 3 -> e^eps = 1 + (1/6)*2 = 4/3, delta = 1/6
    assert rounds.lemma431_parameters(3, 2, 1, 1, 3, 1) == (F(4, 3), F(1, 6))
    # App. C.1.2, s = 2, m = 2: q2 = 1, q = 1/3: e^eps = 3, delta = 1/3
    assert rounds.appc12_parameters(3, 2, 1, 2, 3, 1) == (F(3), F(1, 3))
    for fn, s in ((rounds.lemma431_parameters, 1), (rounds.appc12_parameters, 2)):
        assert "delta_tilde" in raised(InvalidInputError, fn, 3, 2, 1, s, 3, F(3, 2))
        assert "delta_tilde" in raised(InvalidInputError, fn, 3, 2, 1, s, 3, 2)


# -- Lemma 4.3.2: L^2 (1 + f_p / (ks)) ----------------------------------------------------------------

def test_lemma432_bound_values_and_sign_checks():
    # k = 2, s = 1: ks = 2
    assert rounds.lemma432_bound(0, 5, 3, 2, 2, 1) == 0
    assert rounds.lemma432_bound(F(1, 2), 0, 3, 2, 2, 1) == F(1, 2)
    assert rounds.lemma432_bound(F(1, 2), 3, 3, 2, 2, 1) == F(1, 2) * (1 + F(3, 2))
    assert "L2" in raised(InvalidInputError, rounds.lemma432_bound, -1, 1, 3, 2, 2, 1)
    assert "fp" in raised(InvalidInputError, rounds.lemma432_bound, 1, -1, 3, 2, 2, 1)


# -- the sampling law: default record d_11 (client 0, record 0), exact Fractions ----------------------

def test_inclusion_defaults_are_client_0_record_0():
    # n = m = 1: the only record d_11 is always used
    assert rounds.inclusion_probability(1, 1, 1, 1) == 1
    # m = 2, s = 2: both records of the only client co-occur surely
    assert rounds.co_occurrence_probability(1, 2, 1, 2) == 1
    # a client that does not exist is never used; the result is still an exact Fraction
    p = rounds.inclusion_probability(2, 2, 1, 1, client=5)
    c = rounds.co_occurrence_probability(2, 2, 1, 2, client=5)
    assert p == 0 and c == 0 and type(p) is F and type(c) is F


# -- shuffle_profile against brute force, with its witness -------------------------------------------

@pytest.mark.parametrize("count", [1, 2, 3])
def test_shuffle_profile_asymmetric_kernel_brute_force(count):
    ratios = [F(1), F(3, 2), F(4)]
    got = rounds.shuffle_profile(ASYM, count, ratios)
    for r in ratios:
        best = F(0)
        for rest in itertools.product(range(3), repeat=count - 1):
            for x, y in itertools.permutations(range(3), 2):
                best = max(best, _hockey(_shuffled_law(list(rest) + [x], ASYM), _shuffled_law(list(rest) + [y], ASYM), r))
        assert got[r]["delta"] == best
        x, y = got[r]["pair"]
        rest = [int(v[0]) for v in got[r]["rest"]]
        assert x != y
        assert _hockey(_shuffled_law(rest + [int(x[0])], ASYM), _shuffled_law(rest + [int(y[0])], ASYM), r) == best


def test_perfectly_private_kernel_reports_no_witness():
    prof = rounds.shuffle_profile(PERFECT, 2, [1, 2])
    for r in (F(1), F(2)):
        assert prof[r] == {"delta": 0, "rest": None, "pair": None}
    rp = rounds.round_profile(PERFECT, 2, 1, 1, 1, [1, 2])
    for r in (F(1), F(2)):
        assert rp[r] == {"delta": 0, "dataset": None, "neighbour": None}


# -- round_profile against brute force over every dataset and neighbour -------------------------------

def _round_law(D, kernel, k, s):
    n, m = len(D), len(D[0])
    out = {}
    w = F(1, comb(n, k) * comb(m, s) ** k)
    for U in itertools.combinations(range(n), k):
        for Ss in itertools.product(list(itertools.combinations(range(m), s)), repeat=k):
            inputs = [D[i][j] for i, S in zip(U, Ss) for j in S]
            for o, p in _shuffled_law(inputs, kernel).items():
                out[o] = out.get(o, F(0)) + w * p
    return out


@pytest.mark.parametrize("n,m,k,s", [(2, 1, 1, 1), (1, 2, 1, 1), (2, 2, 1, 1)])
def test_round_profile_asymmetric_kernel_brute_force(n, m, k, s):
    ratios = [F(1), F(2)]
    got = rounds.round_profile(ASYM, n, m, k, s, ratios)
    cells = [(i, j) for i in range(n) for j in range(m)]
    best = {r: F(0) for r in ratios}
    for vals in itertools.product(range(3), repeat=n * m):
        D = tuple(tuple(vals[i * m + j] for j in range(m)) for i in range(n))
        P = _round_law(D, ASYM, k, s)
        for (i, j) in cells:
            for v in range(3):
                if v == D[i][j]:
                    continue
                E = [list(c) for c in D]
                E[i][j] = v
                Q = _round_law(tuple(tuple(c) for c in E), ASYM, k, s)
                for r in ratios:
                    best[r] = max(best[r], _hockey(P, Q, r))
    for r in ratios:
        assert got[r]["delta"] == best[r]


# -- the float simulation ------------------------------------------------------------------------------

def test_float_simulation_accepts_k_equal_n_and_s_equal_m_vector_kernel():
    # deterministic 2-d kernel, an output missing from a row: with k = n and s = m, g_t is the mean of all data
    ker = {(0, 0): {(0, 0): 1}, (1, 2): {(1, 2): 1}}
    D = (((0, 0), (1, 2)), ((1, 2), (1, 2)))
    g = rounds.sample_gradients_float(np.random.default_rng(1), D, ker, 2, 2, 4)
    assert g.shape == (4, 2)
    assert np.all(g == np.array([0.75, 1.5]))
    with pytest.raises(ValidityConditionError):
        rounds.sample_gradients_float(np.random.default_rng(1), D, ker, 3, 2, 4)
    with pytest.raises(ValidityConditionError):
        rounds.sample_gradients_float(np.random.default_rng(1), D, ker, 2, 3, 4)


def test_float_simulation_third_output_frequency():
    # one input, three outputs with P = 1/5, 1/5, 3/5; 4000 draws of g_t (k = s = 1) are the messages.
    # P[count of output 2 outside 2400 +- 200] < 1e-6 (Hoeffding: 2 exp(-2 * 200^2 / 4000) = 4e-9).
    ker = {0: {0: F(1, 5), 1: F(1, 5), 2: F(3, 5)}}
    g = rounds.sample_gradients_float(np.random.default_rng(7), ((0,),), ker, 1, 1, 4000)
    counts = [int(np.sum(g[:, 0] == v)) for v in (0, 1, 2)]
    assert abs(counts[2] - 2400) <= 200 and abs(counts[0] - 800) <= 200 and abs(counts[1] - 800) <= 200


def test_float_simulation_zero_probability_output_is_never_drawn_at_u_zero():
    # n = m = k = s = size = 1: two uniform draws (client and record permutations), then u; step the
    # generator back two draws so that u is exactly 0.0. Output 0 has probability 0: u = 0 must not pick it.
    rng = generator_drawing_zero_first()
    rng.bit_generator.advance(2 ** 128 - 2)
    ker = {0: {0: 0, 5: 1}}
    g = rounds.sample_gradients_float(rng, ((0,),), ker, 1, 1, 1)
    assert g[0, 0] == 5.0
