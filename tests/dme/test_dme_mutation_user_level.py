"""Mutation-gate tests of :mod:`bcdp.dme.user_level` (thesis Sec. 3.7, Algs 3.7.1-3.7.4).

Oracles are independent of the code under test: the Sylvester entries h(i, j) = (-1)^popcount(i & j)
written here, the bin midpoints a_j = -B + (2j + 1) tau and the nearest bin by brute force, the
message law of Alg 3.7.1 ((3.13) with r1 = 1) and the second stage of Alg 3.7.4 worked out in
Fractions.  The float sampler :func:`mean_scalar_float` is checked (i) on its support, exactly: with
one user, x_hat = a_max + s 3 tau c for a bin midpoint a_max and a sign s, and (ii) on its law: the
joint law of (a_max, s) is enumerated exactly for n = 1 (argmax of z_bar = s c H_k(j), ties to the
lower index) and every cell count is compared with an exact two-sided binomial test at level
ALPHA / (number of cells) (union bound: the whole test fails falsely with probability <= ALPHA = 1e-6),
fixed seeds.
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import numpy as np
import pytest
from bcdp.core.errors import FloatRefusedError, InvalidInputError, WrongTypeError
from bcdp.dme import user_level as ul
from scipy.stats import binomtest

ALPHA = 1e-6


def h(i: int, j: int) -> int:
    return -1 if bin(i & j).count("1") % 2 else 1


def mids(B: F, tau: F) -> list[F]:
    return [-B + (2 * j + 1) * tau for j in range(int(B / tau))]


def nearest(y: F, B: F, tau: F) -> int:
    m = mids(B, tau)
    best = min(abs(y - a) for a in m)
    return min(j for j, a in enumerate(m) if abs(y - a) == best)


# -- exact stage: Range^user output, Range_scalar, the second stage ----------------------------------

@pytest.mark.parametrize("k, E", [(2, F(3)), (4, F(2)), (8, F(7, 5))])
def test_range_user_output_is_s_c_times_the_hadamard_column(k, E):
    c = (E + 1) / (E - 1)
    for j in range(k):
        for s in (1, -1):
            assert ul.range_user_output((j, s), k, E) == tuple(s * c * h(j, i) for i in range(k))
    with pytest.raises(InvalidInputError):
        ul.range_user_output((0, 1), k, 1)  # E = e^eps must be > 1


def test_argmax_lowest_breaks_ties_to_the_lowest_index():
    assert ul._argmax_lowest([F(1), F(3), F(3), F(2)]) == 1
    assert ul._argmax_lowest((5, 1, 5)) == 0
    assert ul._argmax_lowest([F(-1), F(-2), F(0)]) == 2


@pytest.mark.parametrize("B, tau", [(F(2), F(1, 2)), (F(16), F(2))])
def test_range_from_messages_has_length_six_tau(B, tau):
    """tau != 1 separates 3 tau from 3 / tau; the message (0, +1) makes every entry of z_bar equal
    (H_k(0) = 1), so a_max is the lowest midpoint."""
    E = F(3)
    k = int(B / tau)
    a0 = -B + tau
    assert ul.range_from_messages([(0, 1)], B, tau, E) == (a0 - 3 * tau, a0 + 3 * tau)
    # (1, -1): z_bar(a) = -c h(1, a), maximal first at a = 1
    a1 = -B + 3 * tau
    assert ul.range_from_messages([(1, -1)], B, tau, E) == (a1 - 3 * tau, a1 + 3 * tau)
    assert k >= 4


def test_range_messages_and_names_in_error_messages():
    with pytest.raises(InvalidInputError, match="a < b"):
        ul.project(F(1), 1, 1)  # a == b is refused (an empty interval of length 0)
    assert ul.project(F(5), 0, F(1, 1000)) == F(1, 1000)
    for bad, name in ((dict(a=0.5, b=1), "a"), (dict(a=0, b=0.5), "b")):
        with pytest.raises(FloatRefusedError) as exc:
            ul.project(F(0), bad["a"], bad["b"])
        assert str(exc.value).startswith(f"{name}: floats are refused")
    with pytest.raises(FloatRefusedError) as exc:
        ul.project(0.25, 0, 1)
    assert str(exc.value).startswith("y: floats are refused")
    for fn in (ul.second_stage_law, ul.second_stage_mse):
        with pytest.raises(FloatRefusedError) as exc:
            fn(0.25, 0, 1, 3)
        assert str(exc.value).startswith("y_tilde: floats are refused")


@pytest.mark.parametrize("a, b, E", [(F(-1), F(2), F(3)), (F(0), F(6), F(5, 2))])
def test_second_stage_output_is_o_plus_s_h_c(a, b, E):
    o, hh, c = (a + b) / 2, (b - a) / 2, (E + 1) / (E - 1)
    assert ul.second_stage_output(1, a, b, E) == o + hh * c
    assert ul.second_stage_output(-1, a, b, E) == o - hh * c


# -- float twin: Mean_scalar ---------------------------------------------------------------------------

B_, TAU_, EH_ = F(2), F(1, 2), F(5, 2)  # k = 4, c = 7/3, h = 3 tau = 3/2


def _joint_law_one_user(y: F, B: F, tau: F, Eh: F) -> dict[tuple[int, int], F]:
    """Exact law of (a_max index, second-stage sign) of Mean_scalar with n = 1 user of mean y."""
    k = int(B / tau)
    c = (Eh + 1) / (Eh - 1)
    nu = nearest(y, B, tau)
    m = mids(B, tau)
    hh = 3 * tau
    law: dict[tuple[int, int], F] = {(a, sign): F(0) for a in range(k) for sign in (1, -1)}
    for j in range(k):
        for s in (1, -1):
            q = F(1, k) * (F(1, 2) + s * F(h(j, nu)) / (2 * c))
            z = [s * h(j, a) for a in range(k)]
            a = min(i for i in range(k) if z[i] == max(z))
            yt = min(m[a] + hh, max(m[a] - hh, y))
            p_plus = F(1, 2) + (yt - m[a]) / (2 * hh * c)
            for sign, ps in ((1, p_plus), (-1, 1 - p_plus)):
                law[(a, sign)] += q * ps
    return law


def _support(B: F, tau: F, Eh: F) -> dict[tuple[int, int], float]:
    c = (Eh + 1) / (Eh - 1)
    return {(a, s): float(mid + s * 3 * tau * c) for a, mid in enumerate(mids(B, tau)) for s in (1, -1)}


def _classify(values: np.ndarray, support: dict) -> list[tuple[int, int]]:
    keys = list(support)
    pts = np.array([support[key] for key in keys])
    idx = np.argmin(np.abs(values[:, None] - pts[None, :]), axis=1)
    assert np.all(np.abs(values - pts[idx]) <= 1e-9), "an output is outside {a_j +- 3 tau c}"
    return [keys[i] for i in idx]


@pytest.mark.parametrize("y, seed", [(F(2), 3731), (F(-2), 3732)])
def test_mean_scalar_float_one_user_joint_law_is_exact(y, seed):
    """n = 1 user with m = 1 sample y (y = +-B: clipped by the far ranges on either side).  The output
    determines (a_max, s); the 8 cells are compared with the exact law by exact binomial tests."""
    law = _joint_law_one_user(y, B_, TAU_, EH_)
    assert len(law) == 8 and sum(law.values()) == 1
    support = _support(B_, TAU_, EH_)
    assert len(set(support.values())) == 8  # distinct points: the output identifies the cell
    rng = np.random.default_rng(seed)
    R = 20_000
    sample = np.array([[float(y)]])
    vals = np.array([ul.mean_scalar_float(sample, float(B_), float(TAU_), float(EH_), rng) for _ in range(R)])
    cells = _classify(vals, support)
    counts = {key: 0 for key in law}
    for cell in cells:
        counts[cell] += 1
    for key, p in law.items():
        if p == 0:
            assert counts[key] == 0, key
        else:
            assert binomtest(counts[key], R, float(p)).pvalue >= ALPHA / len(law), (key, counts[key], R * float(p))


def test_mean_scalar_float_users_signs_are_independent():
    """Two users with the same mean: given a_max, P[s1 != s2] = 2 p (1 - p) with p in
    [1/2 - 1/(2c), 1/2 + 1/(2c)] = [2/7, 5/7] (c = 7/3), so >= 20/49 whatever a_max is; then
    x_hat = a_max exactly (a bin midpoint; the other outputs a_max +- 3 tau c are not midpoints).
    One-sided exact binomial test at level ALPHA."""
    rng = np.random.default_rng(3733)
    R = 2000
    sample = np.array([[0.25], [0.25]])
    vals = np.array([ul.mean_scalar_float(sample, float(B_), float(TAU_), float(EH_), rng) for _ in range(R)])
    m = np.array([float(v) for v in mids(B_, TAU_)])
    middle = int(np.sum(np.min(np.abs(vals[:, None] - m[None, :]), axis=1) <= 1e-9))
    assert binomtest(middle, R, 20 / 49, alternative="less").pvalue >= ALPHA


def test_mean_scalar_float_support_at_small_E_half():
    """E_half = 3/2 (in (1, 2]): every output of one user is a_j +- 3 tau c, c = 5."""
    rng = np.random.default_rng(3734)
    support = _support(F(4), F(1), F(3, 2))
    vals = np.array([ul.mean_scalar_float(np.array([[1.0, 3.0]]), 4, 1, 1.5, rng) for _ in range(200)])
    cells = _classify(vals, support)
    assert len(set(cells)) >= 2


def test_mean_scalar_float_accepts_exact_rationals_like_their_floats():
    rows = [[F(1, 2), F(-3, 4)], [F(2), F(0)]]
    a = ul.mean_scalar_float(rows, 2, F(1, 2), 3, np.random.default_rng(5))
    b = ul.mean_scalar_float(np.array([[0.5, -0.75], [2.0, 0.0]]), 2, 0.5, 3.0, np.random.default_rng(5))
    assert a == b


def test_mean_scalar_float_refuses_bad_samples_and_E_half():
    rng = np.random.default_rng(0)
    with pytest.raises(InvalidInputError, match=r"finite \(n, m\) array"):
        ul.mean_scalar_float(np.array([[0.5, np.nan]]), 4, 1, 3, rng)
    with pytest.raises(InvalidInputError, match=r"finite \(n, m\) array"):
        ul.mean_scalar_float(np.array([0.5, 0.25]), 4, 1, 3, rng)
    with pytest.raises(InvalidInputError, match=r"finite \(n, m\) array"):
        ul.mean_scalar_float(np.zeros((0, 2)), 4, 1, 3, rng)
    with pytest.raises(InvalidInputError, match=r"^E_half must be > 1, got 1.0$"):
        ul.mean_scalar_float(np.array([[0.5]]), 4, 1, 1, rng)
    with pytest.raises(InvalidInputError) as exc:
        ul.mean_scalar_float(np.array([[0.5]]), 4, 1, "e", rng)
    assert str(exc.value).startswith("E_half: ")
    with pytest.raises(WrongTypeError) as exc:
        ul.mean_scalar_float(np.array([[0.5]]), 4, 1, True, rng)
    assert str(exc.value).startswith("E_half: ")


# -- input checks: boundaries and the names in the one-line messages -------------------------------------

def _starts(exc_info, prefix: str) -> None:
    assert str(exc_info.value).startswith(prefix), str(exc_info.value)


def test_exact_inputs_name_the_offending_argument():
    with pytest.raises(FloatRefusedError) as e:
        ul.number_of_bins(4.0, 1)
    _starts(e, "B: floats are refused")
    with pytest.raises(FloatRefusedError) as e:
        ul.number_of_bins(4, 1.0)
    _starts(e, "tau: floats are refused")
    with pytest.raises(FloatRefusedError) as e:
        ul.user_mean([F(1), 0.5], 4)
    _starts(e, "x[1]: floats are refused")
    with pytest.raises(FloatRefusedError) as e:
        ul.nearest_bin(0.5, 4, 1)
    _starts(e, "y: floats are refused")
    with pytest.raises(FloatRefusedError) as e:
        ul.range_failure_probability([F(0), 0.5], 4, 1, 3)
    _starts(e, "y[1]: floats are refused")
    with pytest.raises(FloatRefusedError) as e:
        ul.range_user_output((0, 1), 4, 3.0)
    _starts(e, "E: floats are refused")
    with pytest.raises(FloatRefusedError) as e:
        ul.thm371_beta(10, 4, 1, 3.0)
    _starts(e, "E_half: floats are refused")
    with pytest.raises(FloatRefusedError) as e:
        ul.thm371_beta(10, 4, 1, 3, gamma=0.5)
    _starts(e, "gamma: floats are refused")
    with pytest.raises(InvalidInputError) as e:
        ul.number_of_bins(0, 1)
    _starts(e, "B must be > 0, got 0")
    with pytest.raises(InvalidInputError) as e:
        ul.number_of_bins(1, -1)
    _starts(e, "tau must be > 0, got -1")
    with pytest.raises(InvalidInputError) as e:
        ul.range_user_output((0, 1), 4, 1)
    _starts(e, "E = e^eps must be > 1")
    with pytest.raises(InvalidInputError) as e:
        ul.thm371_beta(10, 4, 1, 1)
    _starts(e, "E_half = e^eps must be > 1")


def test_exact_boundaries():
    tiny = F(1, 10**9)
    assert ul.number_of_bins(tiny, tiny) == 1            # k = 1 (B = tau), any positive scale
    assert ul.number_of_bins(64, 1) == 64                # exactly the cap
    assert ul.number_of_bins(F(1, 2), F(1, 128)) == 64
    for B, tau in ((128, 1), (3, 1), (F(9, 2), 1), (1, 2), (6, 1), (12, 1)):
        with pytest.raises(InvalidInputError):
            ul.number_of_bins(B, tau)
    assert ul.bin_midpoints(2, F(1, 2)) == (F(-3, 2), F(-1, 2), F(1, 2), F(3, 2))
    assert ul.bin_midpoints(1, 1) == (F(0),)
    assert ul.range_user_output((0, 1), 1, 1 + tiny) == ((2 + tiny) / tiny,)  # E just above 1
    # samples at +-B are inside, just beyond is refused; non-sequences are refused by type
    assert ul.user_mean([F(-4), F(4), F(4)], 4) == F(4, 3)
    with pytest.raises(InvalidInputError, match=r"^x\[1\] = 4000000001/1000000000 is outside"):
        ul.user_mean([F(0), 4 + F(1, 10**9)], 4)
    with pytest.raises(InvalidInputError, match="m >= 1"):
        ul.user_mean([], 4)
    for bad in ("12", b"12", 3):
        with pytest.raises(WrongTypeError):
            ul.user_mean(bad, 4)
    with pytest.raises(InvalidInputError):
        ul.user_mean([1], 0)
    assert ul.nearest_bin(4, 4, 1) == 3 and ul.nearest_bin(-4, 4, 1) == 0
    with pytest.raises(InvalidInputError, match="outside"):
        ul.nearest_bin(-4 - tiny, 4, 1)
    assert ul.nearest_bin(F(1, 2), 2, F(1, 2)) == 2 and ul.nearest_bin(0, 2, F(1, 2)) == 1  # tie -> lower


def test_range_user_law_is_the_hadamard_law_of_the_nearest_bin():
    """P[(j, s)] = (1/k)(1/2 + s h(j, nu)/(2c)) with nu the nearest bin of the user mean (by hand)."""
    B, tau, E = F(2), F(1, 2), F(5, 2)
    c = (E + 1) / (E - 1)
    for samples in ([F(2)], [F(-2), F(1)], [F(0)], [F(1, 4), F(1, 2)]):
        y = sum(samples, F(0)) / len(samples)
        nu = nearest(y, B, tau)
        expected = {(j, s): F(1, 4) * (F(1, 2) + s * F(h(j, nu)) / (2 * c)) for j in range(4) for s in (1, -1)}
        assert ul.range_user_law(samples, B, tau, E) == expected
    with pytest.raises(InvalidInputError):
        ul.range_user_law([F(0)], B, tau, 1)


def test_failure_probability_caps_at_their_exact_values():
    # n = 16 users is the cap (k = 2: C(19, 3) = 969 states); users at -2 and 2 are never missed at k = 2
    assert ul.range_failure_probability([F(-2)] * 8 + [F(2)] * 8, 2, 1, 3)["any_tie"] == 0
    with pytest.raises(InvalidInputError):
        ul.range_failure_probability([F(0)] * 17, 2, 1, 3)
    with pytest.raises(InvalidInputError):
        ul.range_failure_probability([], 2, 1, 3)
    assert ul.range_failure_probability([F(1)], 1, 1, 3) == {"lowest_index": 0, "any_tie": 0,
                                                             "argmax_outside_occupied": 0}  # k = 1
    with pytest.raises(InvalidInputError):
        ul.range_failure_probability([F(0)], 4, 1, 1)


def test_one_user_failure_probability_by_hand():
    """One user at y = B = 2 (tau = 1/2, k = 4, nu = 3): the range of a_max misses y only for
    a_max in {0, 1} (a_0 + 3 tau = 0 and a_1 + 3 tau = 1 are < 2).  With c = (E+1)/(E-1), the message
    (j, s) has P = (1/4)(1/2 + s h(j, 3)/(2c)); s = +1 gives a_max = 0; s = -1 gives a_max = 0 for
    j = 0, 1 for j in {1, 3} and 2 for j = 2."""
    E = F(3)
    c = (E + 1) / (E - 1)
    P = {(j, s): F(1, 4) * (F(1, 2) + s * F(h(j, 3)) / (2 * c)) for j in range(4) for s in (1, -1)}
    miss = sum(P[(j, 1)] for j in range(4)) + P[(0, -1)] + P[(1, -1)] + P[(3, -1)]
    got = ul.range_failure_probability([F(2)], 2, F(1, 2), E)
    assert got["lowest_index"] == miss == got["any_tie"]
    assert got["argmax_outside_occupied"] == 1 - 0  # a_max is never bin 3 with one user


def test_thm371_beta_parameter_boundaries():
    assert ul.thm371_beta(1, 4, 1, 2, gamma=0) is not None
    assert ul.thm371_beta(np.int64(5), 4, 1, 2, gamma=1) == 1
    for n in (0, True, 2.0, "3", -1):
        with pytest.raises(InvalidInputError, match="n must be an integer >= 1"):
            ul.thm371_beta(n, 4, 1, 2)
    for g in (F(-1, 10**9), 1 + F(1, 10**9)):
        with pytest.raises(InvalidInputError, match=r"gamma must be in \[0, 1\]"):
            ul.thm371_beta(10, 4, 1, 2, gamma=g)
    with pytest.raises(InvalidInputError, match="B must be > 0"):
        ul.thm371_beta(10, 0, 1, 2)
    with pytest.raises(InvalidInputError, match="tau must be > 0"):
        ul.thm371_beta(10, 4, 0, 2)


def test_max_likelihood_ratio_by_hand():
    p = {"a": F(1, 2), "b": F(1, 4), "c": F(1, 4)}
    q = {"a": F(1, 8), "b": F(1, 2), "c": F(3, 8)}
    assert ul.max_likelihood_ratio(p, q) == 4
    assert ul.max_likelihood_ratio(q, p) == 2
    assert ul.max_likelihood_ratio({"a": F(0), "b": F(1)}, {"a": F(1, 2), "b": F(1, 2)}) == 2
    with pytest.raises(InvalidInputError, match="same support"):
        ul.max_likelihood_ratio({"a": F(1, 2), "b": F(1, 2)}, {"a": F(1), "b": F(0)})
    with pytest.raises(InvalidInputError, match="same support"):
        ul.max_likelihood_ratio({"a": F(1)}, {"b": F(1)})
    with pytest.raises(InvalidInputError, match="same support"):
        ul.max_likelihood_ratio({"a": F(1), "b": F(0)}, {"a": F(1)})


# -- float twins: input checks ---------------------------------------------------------------------------

def test_float_bins_boundaries():
    assert ul.nearest_bin_float([-1.0, 1.0], 1.0, 1.0).tolist() == [0, 0]      # k = 1
    # k = B/tau within 1e-9 k of a power of 2 is accepted (4 + 2e-9: off by 5e-10 k), 4 + 2e-8 is not
    assert ul.nearest_bin_float([3.5], 4 + 2e-9, 1.0).tolist() == [3]
    with pytest.raises(InvalidInputError, match="integer power of 2"):
        ul.nearest_bin_float([0.0], 4 + 2e-8, 1.0)
    for B, tau in ((3.0, 1.0), (6.0, 1.0), (0.3, 1.0), (1e-10, 1.0)):
        with pytest.raises(InvalidInputError, match="integer power of 2"):
            ul.nearest_bin_float([0.0], B, tau)
    for B, tau in ((0.0, 1.0), (4.0, 0.0), (-4.0, 1.0), (4.0, -1.0), (-4.0, -1.0)):
        with pytest.raises(InvalidInputError, match="^B and tau must be > 0$"):
            ul.nearest_bin_float([0.0], B, tau)
    with pytest.raises(InvalidInputError) as e:
        ul.nearest_bin_float([0.0], "four", 1.0)
    _starts(e, "B: ")
    with pytest.raises(InvalidInputError) as e:
        ul.nearest_bin_float([0.0], 4.0, "one")
    _starts(e, "tau: ")


def test_range_failure_rate_float_input_checks():
    rng = np.random.default_rng(0)
    with pytest.raises(InvalidInputError, match=r"^E must be > 1, got 1.0$"):
        ul.range_failure_rate_float([0.0], 4, 1, 1, rng, 10)
    with pytest.raises(InvalidInputError) as e:
        ul.range_failure_rate_float([0.0], 4, 1, "e", rng, 10)
    _starts(e, "E: ")
    with pytest.raises(WrongTypeError, match="numpy.random.Generator"):
        ul.range_failure_rate_float([0.0], 4, 1, 3, np.random.RandomState(0), 10)
    assert ul.range_failure_rate_float([0.0], 4, 1, 3, rng, 0) == 0
    # k = 2 (B = 2, tau = 1): every range [a -+ 3] covers [-2, 2], so no run fails
    assert ul.range_failure_rate_float([-2.0, 2.0, 0.5], 2, 1, 1.5, rng, 1000) == 0


class _ConstantUniformGenerator(np.random.Generator):
    """A Generator whose uniforms are all the constant u (integers stay random)."""

    def __init__(self, u, seed):
        super().__init__(np.random.PCG64(seed))
        self.u = u

    def random(self, size=None, dtype=np.float64, out=None):
        return np.full(size, self.u)


def test_mean_scalar_float_second_stage_comparison_is_strict():
    """U uniform on [0, 1) has P[U < p] = p, so s = +1 iff U < p.  One user at y = a_0 = -3/2 (B = 2,
    tau = 1/2, nu = 0): with every uniform = 1/2, the first-stage sign is + (P[+] = 1/2 + 1/(2c) > 1/2
    since h(j, 0) = 1), so a_max = a_0 = y, the second-stage P[+] is exactly 1/2 and the draw 1/2 gives
    s = -1: x_hat = a_0 - 3 tau c = -3/2 - 7/2 = -5.  A draw just below 1/2 gives +: -3/2 + 7/2 = 2."""
    sample = np.array([[-1.5]])
    for seed in range(3):
        assert ul.mean_scalar_float(sample, 2, 0.5, 2.5, _ConstantUniformGenerator(0.5, seed)) == -5.0
        below = _ConstantUniformGenerator(np.nextafter(0.5, 0.0), seed)
        assert ul.mean_scalar_float(sample, 2, 0.5, 2.5, below) == 2.0


@pytest.mark.parametrize("ys, E", [
    ((F(2), F(-1, 2), F(3, 4)), F(3)),
    ((F(-2), F(-2), F(1, 2)), F(5, 2)),
    ((F(0), F(3, 2)), F(9)),
])
def test_range_failure_probability_all_three_events_by_enumeration_at_tau_one_half(ys, E):
    """B = 2, tau = 1/2 (k = 4, ranges of length 3): all (2k)^n message tuples enumerated with the
    law (1/k)(1/2 + s h(j, nu)/(2c)); a range misses y when |y - a| > 3 tau."""
    B, tau, k = F(2), F(1, 2), 4
    c = (E + 1) / (E - 1)
    m = mids(B, tau)
    nus = [nearest(y, B, tau) for y in ys]
    msgs_all = [(j, s) for j in range(k) for s in (1, -1)]
    low = anyt = outside = F(0)
    for msgs in itertools.product(msgs_all, repeat=len(ys)):
        p = F(1)
        for nu, (j, s) in zip(nus, msgs):
            p *= F(1, k) * (F(1, 2) + s * F(h(j, nu)) / (2 * c))
        zbar = [sum(s * c * h(j, a) for j, s in msgs) / len(ys) for a in range(k)]
        tops = [a for a in range(k) if zbar[a] == max(zbar)]
        miss = [any(abs(y - m[a]) > 3 * tau for y in ys) for a in tops]
        low += p * miss[0]
        anyt += p * any(miss)
        outside += p * (tops[0] not in nus)
    got = ul.range_failure_probability(list(ys), B, tau, E)
    assert got == {"lowest_index": low, "any_tie": anyt, "argmax_outside_occupied": outside}


def test_thm371_beta_against_mpmath_with_tau_not_one():
    import mpmath
    mpmath.mp.dps = 60
    for n, B, tau, Eh, gamma in ((20000, F(3), F(1, 4), F(7, 3), F(1, 7)), (5000, F(1, 2), F(1, 8), F(5), F(0))):
        Ehm = mpmath.mpf(Eh.numerator) / Eh.denominator
        oracle = min(mpmath.mpf(1), mpmath.mpf(gamma.numerator) / gamma.denominator
                     + 2 * (mpmath.mpf(B.numerator) / B.denominator) / (mpmath.mpf(tau.numerator) / tau.denominator)
                     * mpmath.exp(-n * (Ehm - 1) ** 2 / (200 * (Ehm + 1) ** 2)))
        got = mpmath.mpf(str(ul.thm371_beta(n, B, tau, Eh, gamma).evalf(60)))
        assert oracle < 1
        assert abs(got - oracle) < mpmath.mpf(10) ** -50


def test_range_failure_rate_float_at_tau_one_half_matches_the_exact_probability():
    """B = 2, tau = 1/2 (k = 4): the exact P of the lowest-index rule (checked by enumeration above)
    against the rate over T runs, Hoeffding 2 exp(-2 T t^2) = ALPHA."""
    ys, E = (F(2), F(-1, 2), F(3, 4)), F(3)
    exact = float(ul.range_failure_probability(list(ys), 2, F(1, 2), E)["lowest_index"])
    T = 100_000
    t = (np.log(2 / ALPHA) / (2 * T)) ** 0.5
    assert 0.1 < exact < 0.9 and t < 0.01
    fails = ul.range_failure_rate_float([float(y) for y in ys], 2.0, 0.5, 3.0, np.random.default_rng(3735), T)
    assert abs(fails / T - exact) <= t


def test_range_failure_rate_float_sign_comparison_is_strict():
    """Every uniform = 3/4 = P[+] of a message whose Hadamard entry h(j, nu) is +1 (E = 3, c = 2):
    U < p is false, so every sign is -1 (P[U < p] = p for U uniform on [0, 1)).  One user at y = -4
    (B = 4, tau = 1, nu = 0): a_max is 0, 1, 2, 1 for j = 0, 1, 2, 3 (the first a with h(j, a) = -1,
    0 for j = 0), and only a_max = 2 (|-4 - 1| > 3) misses y: fails ~ Binomial(T, 1/4) (exact test at
    level ALPHA).  Signs taken + on the tie would give a_max = 0 and no failure."""
    T = 400
    g = _ConstantUniformGenerator(0.75, 3736)
    fails = ul.range_failure_rate_float([-4.0], 4, 1, 3.0, g, T)
    assert binomtest(fails, T, 0.25).pvalue >= ALPHA


def test_thm371_beta_default_gamma_is_zero():
    import mpmath
    mpmath.mp.dps = 60
    Ehm = mpmath.mpf(7) / 3
    oracle = 24 * mpmath.exp(-20000 * (Ehm - 1) ** 2 / (200 * (Ehm + 1) ** 2))  # 2B/tau = 24, gamma = 0
    got = mpmath.mpf(str(ul.thm371_beta(20000, 3, F(1, 4), F(7, 3)).evalf(60)))
    assert oracle < mpmath.mpf(10) ** -5
    assert abs(got - oracle) < mpmath.mpf(10) ** -60
