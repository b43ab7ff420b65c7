"""bcdp.dme.quantizer: input contracts (the argument named in the one-line message, the class), the
dimension cap of the enumerated vector MSE at exactly the cap and one past it, the level cap of the sampler
(53 accepted, 54 refused), scalar and list inputs of the sampler, and exact outputs at grid points
x = K/2^{m-1} (where the quantizer is deterministic), all checked against values worked out by hand."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
from bcdp.core.errors import FloatRefusedError, InvalidInputError, ValidityConditionError, WrongTypeError
from bcdp.dme import quantizer as qz
from mutation_support import generator_drawing_zero_first, raised


def test_unit_interval_check_names_x():
    assert raised(ValidityConditionError, qz.binary_digits, F(3, 2), 2) \
        == "x = 3/2 is outside [0, 1], the domain of thesis Lemma 3.5.1"
    assert raised(FloatRefusedError, qz.binary_digits, 0.5, 2).startswith("x: floats are refused")
    assert raised(FloatRefusedError, qz.quantize_mse, 0.5, 2).startswith("x: floats are refused")


def test_one_level_law_has_fraction_keys():
    # m = 1: no digits, x~ = u with u ~ Bern(x): the law {0: 1 - x, 1: x}
    law = qz.quantize_law(F(1, 3), 1)
    assert law == {F(0): F(2, 3), F(1): F(1, 3)}
    assert all(type(k) is F and type(w) is F for k, w in law.items())


def test_vector_mse_dimension_cap_and_names():
    # each coordinate x = 1/3, m = 2: x~ in {0, 1/2} w.p. (1/3, 2/3): E(x~ - x)^2 = 1/27 + 1/54 = 1/18
    assert qz.quantize_vector_mse([F(1, 3)] * 12, 2) == F(12, 18)
    assert raised(InvalidInputError, qz.quantize_vector_mse, [F(1, 3)] * 13, 2) \
        == "z must have 1 to 12 coordinates, got 13"
    assert raised(ValidityConditionError, qz.quantize_vector_mse, [F(1, 2), 2], 2) \
        == "z[j] = 2 is outside [0, 1], the domain of thesis Lemma 3.5.1"
    assert raised(FloatRefusedError, qz.quantize_vector_mse, [F(1, 2), 0.5], 2).startswith("z[j]: floats")


def test_sampler_level_cap_53_accepted_54_refused():
    rng = np.random.default_rng(53)
    x = np.array([0.0, 0.5, 1.0, 3 * 2.0 ** -52])           # grid points of m = 53: deterministic
    assert qz.sample_quantize(rng, x, 53).tolist() == x.tolist()
    assert raised(InvalidInputError, qz.sample_quantize, rng, x, 54) \
        == "m = 54 levels exceed float64 precision (at most 53 in the sampler)"


def test_sampler_scalar_and_list_inputs_at_grid_points():
    rng = np.random.default_rng(11)
    # m = 4: grid 1/8; x = 3/8 is returned exactly whatever u is drawn (pi = 0)
    for x in ("3/8", F(3, 8), 0.375, [F(3, 8), F(1, 2)], ["0.375", "1"]):
        out = qz.sample_quantize(rng, x, 4)
        expect = [0.375, 0.5] if isinstance(x, list) and x[0] == F(3, 8) else ([0.375, 1.0] if isinstance(x, list)
                                                                               else 0.375)
        assert np.asarray(out).tolist() == expect
    assert raised(WrongTypeError, qz.sample_quantize, rng, True, 4).startswith("x: booleans are not numbers")
    assert raised(InvalidInputError, qz.sample_quantize, rng, "abc", 4) == "x: cannot read 'abc' as a number"
    for bad in ([-0.25], [0.5, -0.25], [float("nan")], -0.25):
        assert raised(ValidityConditionError, qz.sample_quantize, rng, bad, 4) \
            == "x must lie in [0, 1], the domain of thesis Lemma 3.5.1"


def test_sampler_is_exact_at_a_grid_point_even_on_a_zero_draw():
    # x = 1/2, m = 3: 2^2 x = 2 = K, pi = 0, so u ~ Bern(0) never fires: the output is 1/2 for U = 0.0 too
    out = qz.sample_quantize(generator_drawing_zero_first(), np.array([0.5, 0.25]), 3)
    assert out.tolist() == [0.5, 0.25]
