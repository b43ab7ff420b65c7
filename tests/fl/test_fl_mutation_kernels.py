"""bcdp.fl.kernels against its surviving mutants (thesis Sec. 4.3 conditions (i)-(iv), Alg 4.3.1 line 1):
grad F as the plain average, f_p with a given L^2, the LDP ratio below 2, normalisation of a kernel
(zero and duplicate entries, the entry budget on both sides), the shape checks of kernels and datasets,
and the argument named by each one-line message."""

from __future__ import annotations

from fractions import Fraction

from bcdp.core.errors import FloatRefusedError, InvalidInputError
from bcdp.fl import kernels
from mutation_support import raised

F = Fraction
KER = {0: {0: F(1, 2), 1: F(1, 2)}, 1: {0: F(1, 4), 1: F(3, 4)}}


def test_dataset_mean_is_the_average_of_all_records():
    assert kernels.dataset_mean(((0, 1), (1, 1)), KER) == (F(3, 4),)
    vk = {(0, 2): {(0, 2): 1}, (1, 0): {(1, 0): 1}}
    got = kernels.dataset_mean((((0, 2),), ((1, 0),), ((1, 0),)), vk)
    assert got == (F(2, 3), F(2, 3)) and all(type(c) is F for c in got)


def test_kernel_fp_with_given_l2_and_its_checks():
    # MSE(0) = 1/2 * 1 = 1/2; MSE(1) = 1/4 * 1 = 1/4; f_p = 1/2 / L^2
    assert kernels.kernel_fp(KER) == F(1, 2)       # default L^2 = max ||x||^2 = 1
    assert kernels.kernel_fp(KER, 4) == F(1, 8)
    assert kernels.kernel_fp(KER, "1/3") == F(3, 2)
    assert raised(FloatRefusedError, kernels.kernel_fp, KER, 0.5).startswith("L2:")
    raised(InvalidInputError, kernels.kernel_fp, KER, 0)
    raised(InvalidInputError, kernels.kernel_fp, KER, -1)


def test_ldp_ratio_below_two():
    ker = {0: {0: F(1, 2), 1: F(1, 2)}, 1: {0: F(3, 5), 1: F(2, 5)}}
    # max((3/5)/(1/2), (1/2)/(2/5)) = max(6/5, 5/4) = 5/4
    assert kernels.kernel_ldp_ratio(ker) == F(5, 4)
    assert kernels.kernel_ldp_ratio({0: {0: 1}, 1: {0: 1}}) == 1


def test_normalisation_drops_zero_entries_and_merges_equal_outputs():
    k = kernels.check_kernel({0: {0: 0, 1: 1}, 1: {0: F(1, 2), "0": F(1, 4), "2/2": F(1, 4)}})
    assert k == {(F(0),): {(F(1),): F(1)}, (F(1),): {(F(0),): F(3, 4), (F(1),): F(1, 4)}}


def test_entry_budget_both_sides():
    n = kernels.MAX_KERNEL_ENTRIES
    assert n == 64 * 64
    big = {x: {y: F(1, 64) for y in range(64)} for x in range(64)}
    assert len(kernels.check_kernel(big)) == 64
    over = {0: {y: F(1, n + 1) for y in range(n + 1)}}
    assert str(n + 1) in raised(InvalidInputError, kernels.check_kernel, over)


def test_shape_checks():
    assert raised(InvalidInputError, kernels.check_kernel, [1]).startswith("kernel must be a non-empty mapping")
    assert raised(InvalidInputError, kernels.check_kernel, {0: [1]}).startswith("kernel row of input 0")
    k = kernels.check_kernel(KER)
    assert raised(InvalidInputError, kernels.check_dataset, "ab", k).startswith("dataset must be")
    assert raised(InvalidInputError, kernels.check_dataset, {(0,)}, k).startswith("dataset must be")
    assert raised(InvalidInputError, kernels.check_dataset, ("a",), k).startswith("client 0 must be")
    assert raised(InvalidInputError, kernels.check_dataset, ({0},), k).startswith("client 0 must be")


def test_argument_names():
    assert raised(FloatRefusedError, kernels.as_vector, 1.5).startswith("gradient:")
    assert raised(FloatRefusedError, kernels.as_vector, [0, 1.5]).startswith("gradient:")
    assert raised(FloatRefusedError, kernels.as_vector, 1.5, "foo").startswith("foo:")
    assert raised(FloatRefusedError, kernels.as_vector, [1.5], "foo").startswith("foo:")
    assert raised(FloatRefusedError, kernels.check_kernel, {1.5: {0: 1}}).startswith("kernel input:")
    assert raised(FloatRefusedError, kernels.check_kernel, {0: {1.5: 1}}).startswith("kernel output:")
    assert raised(FloatRefusedError, kernels.check_kernel, {0: {0: 1.0}}).startswith("kernel probability:")
