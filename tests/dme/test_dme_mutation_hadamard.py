"""Edge cases of bcdp.dme.hadamard written against the mutation survivors of the dme run.

Independent oracles only: values worked out by hand in the comments (Sylvester rows, c = (E+1)/(E-1)
at E = 3 is exactly 2), the Sylvester matrix built here by numpy's Kronecker product, the one-line
messages of the argument checks, exact boundaries (the float ball slack, the float dimension cap) at
both sides, and the tie convention of the float sampler: P[s = +1] = p_plus is realised as U < p_plus
with U uniform on the 2^-53 grid of [0, 1), which has probability exactly p_plus (U <= p_plus would
add 2^-53); the test replays the generator's draws to put U exactly on p_plus.
"""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest
import sympy
from bcdp.core.errors import InvalidInputError, WrongTypeError
from bcdp.dme import hadamard as hd


# -- l1_hadamard_output: the message checks --------------------------------------------------------

def test_output_message_must_be_a_tuple_of_two():
    # A list [j, s] is not a message (a pair (j, s)), nor is a triple.
    with pytest.raises(WrongTypeError, match=r"^a message is a pair \(j, s\)"):
        hd.l1_hadamard_output([0, 1], 2, 1, 3)
    with pytest.raises(WrongTypeError, match=r"^a message is a pair \(j, s\)"):
        hd.l1_hadamard_output((0, 1, 1), 2, 1, 3)


def test_output_names_j_and_s_in_their_messages():
    with pytest.raises(InvalidInputError, match=r"^j must be an integer >= 0, got -1$"):
        hd.l1_hadamard_output((-1, 1), 2, 1, 3)
    with pytest.raises(WrongTypeError, match=r"^j must be an integer, got str"):
        hd.l1_hadamard_output(("0", 1), 2, 1, 3)
    with pytest.raises(WrongTypeError, match=r"^s must be an integer, got str"):
        hd.l1_hadamard_output((0, "1"), 2, 1, 3)
    # s = -2 fails the integer check (s >= -1) before the +-1 check.
    with pytest.raises(InvalidInputError, match=r"^s must be an integer >= -1, got -2$"):
        hd.l1_hadamard_output((0, -2), 2, 1, 3)
    # s = 0 passes s >= -1 and fails s = +-1.
    with pytest.raises(InvalidInputError, match=r"^message \(j, s\) needs"):
        hd.l1_hadamard_output((0, 0), 2, 1, 3)


def test_output_exact_vector_by_hand():
    # E = 3: c = 4/2 = 2; r1 = 1.  Row 3 of the Sylvester H_4 is (1, -1, -1, 1).
    assert hd.l1_hadamard_output((3, -1), 4, 1, 3) == (F(-2), F(2), F(2), F(-2))
    assert hd.l1_hadamard_output((3, 1), 3, 1, 3) == (F(2), F(-2), F(-2))


# -- names in the messages of d / p -----------------------------------------------------------------

@pytest.mark.parametrize("func, args", [
    (hd.l1_hadamard_mse_bound, (0, 1, 3)),
    (hd.l1_hadamard_worst_ratio, (0, 1, 3)),
    (hd.lp_ball_l1_radius, (0, 1, 2)),
])
def test_d_is_named_in_the_message(func, args):
    with pytest.raises(InvalidInputError, match=r"^d must be an integer >= 1, got 0$"):
        func(*args)


def test_lp_ball_radius_at_d_1_and_p_named():
    # d = 1: B_p(r) = B_1(r) = [-r, r] for every p, so the radius is r itself.
    assert hd.lp_ball_l1_radius(1, 2, 3) == sympy.Integer(2)
    assert hd.lp_ball_l1_radius(1, F(5, 7), F(3, 2)) == sympy.Rational(5, 7)
    # d = 8, p = 3/2: 8^{1/3} r = 2 r (the docstring's example, 8^{1 - 2/3} = 2).
    assert hd.lp_ball_l1_radius(8, 3, F(3, 2)) == sympy.Integer(6)
    with pytest.raises(InvalidInputError, match=r"^p: "):
        hd.lp_ball_l1_radius(2, 1, "not-a-number")


# -- worst ratio: the pair attaining it --------------------------------------------------------------

def test_worst_ratio_d1_value_and_pair():
    # d = 1, r1 = 1, E = 3 (c = 2): law of x = 1 is P(0,+) = 1/2 + 1/4 = 3/4, P(0,-) = 1/4; of x = -1
    # it is 1/4, 3/4.  The sup ratio is 3 = E, attained at (r1 e_1, -r1 e_1) as the module docstring
    # says (the first vertex pair in the enumeration order r1 e_1, -r1 e_1, ...).
    ratio, a, b = hd.l1_hadamard_worst_ratio(1, 1, 3)
    assert ratio == F(3)
    assert (a, b) == ((F(1),), (F(-1),))
    ratio, a, b = hd.l1_hadamard_worst_ratio(2, F(1, 2), 5)
    assert ratio == F(5)
    assert (a, b) == ((F(1, 2), F(0)), (F(-1, 2), F(0)))


# -- the float twins ----------------------------------------------------------------------------------

def _sylvester(D):
    H = np.array([[1.0]])
    while H.shape[0] < D:
        H = np.kron(np.array([[1.0, 1.0], [1.0, -1.0]]), H)
    return H


def test_fwht_rows_against_kron_sylvester_and_input_untouched():
    rng = np.random.default_rng(7)
    x = rng.standard_normal((3, 8))
    keep = x.copy()
    out = hd._fwht_rows(x)
    np.testing.assert_allclose(out, x @ _sylvester(8).T, rtol=0, atol=1e-12)
    assert np.array_equal(x, keep)  # the transform must not overwrite its input
    assert out is not x


def test_float_params_name_r1_and_E_and_refuse_r1_zero():
    with pytest.raises(InvalidInputError, match=r"^r1: "):
        hd.l1_hadamard_aggregate_float([0], [1], 2, "abc", 3)
    with pytest.raises(InvalidInputError, match=r"^E: "):
        hd.l1_hadamard_aggregate_float([0], [1], 2, 1, "abc")
    with pytest.raises(InvalidInputError, match=r"^r1 must be > 0, got 0\.0$"):
        hd.l1_hadamard_aggregate_float([0], [1], 2, 0, 3)
    with pytest.raises(InvalidInputError, match=r"^r1 must be > 0"):
        hd.l1_hadamard_sample_float(np.zeros((2, 2)), 0.0, 3.0, np.random.default_rng(0))


def test_float_inputs_shapes():
    rng = np.random.default_rng(0)
    with pytest.raises(InvalidInputError, match=r"^x must be an \(n, d\) array"):
        hd.l1_hadamard_sample_float(np.zeros((0, 3)), 1, 3, rng)
    with pytest.raises(InvalidInputError, match=r"^x must be an \(n, d\) array"):
        hd.l1_hadamard_sample_float(np.zeros((2, 0)), 1, 3, rng)
    # d = 1 is allowed: D = 1, j = 0 always.
    j, s = hd.l1_hadamard_sample_float(np.zeros((5, 1)), 1, 3, rng)
    assert j.tolist() == [0] * 5 and set(s.tolist()) <= {1, -1}
    assert s.dtype == np.int8 and j.dtype == np.int64


def test_float_inputs_accept_exact_rationals():
    # Entries that numpy can convert to float64 (Fractions) are accepted and equal the float input.
    xf = [[F(1, 2), F(-1, 4)], [F(0), F(1, 8)]]
    a = hd.l1_hadamard_sample_float(xf, 1, 3, np.random.default_rng(11))
    b = hd.l1_hadamard_sample_float([[0.5, -0.25], [0.0, 0.125]], 1, 3, np.random.default_rng(11))
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])


def test_float_dimension_cap_both_sides():
    cap = hd.MAX_FLOAT_DIMENSION
    j, s = hd.l1_hadamard_sample_float(np.zeros((1, cap)), 1, 3, np.random.default_rng(1))
    assert 0 <= int(j[0]) < cap
    with pytest.raises(InvalidInputError, match=r"pads beyond"):
        hd.l1_hadamard_sample_float(np.zeros((1, cap + 1)), 1, 3, np.random.default_rng(1))


def test_ball_slack_exact_boundary():
    r1 = 1.0
    edge = r1 * (1 + 1e-12)
    # A row at exactly r1 (1 + 1e-12) is inside the documented relative slack ...
    j, s = hd.l1_hadamard_sample_float(np.array([[edge]]), r1, 3.0, np.random.default_rng(2))
    assert j.tolist() == [0]
    # ... the next float above it is outside.
    with pytest.raises(InvalidInputError, match=r"^a row is outside B_1\(r1\)"):
        hd.l1_hadamard_sample_float(np.array([[np.nextafter(edge, 2.0)]]), r1, 3.0, np.random.default_rng(2))


def test_sign_tie_convention_U_equal_p_plus_gives_minus():
    # d = 1 (D = 1), r1 = 1, E = 3: c = 2, p_plus = 0.5 + x / 4.  Replay the generator's draws
    # (j first, then U) and choose x with p_plus == U exactly; then U < p_plus fails: s = -1.
    found = 0
    for seed in range(200):
        probe = np.random.default_rng(seed)
        probe.integers(0, 1, size=1)
        u = float(probe.random(1)[0])
        if not 0.25 <= u <= 0.75:
            continue
        x = 4.0 * (u - 0.5)  # exact (Sterbenz, then a power of 2)
        assert 0.5 + x / 4.0 == u
        j, s = hd.l1_hadamard_sample_float(np.array([[x]]), 1.0, 3.0, np.random.default_rng(seed))
        assert j.tolist() == [0] and s.tolist() == [-1]
        # and with p_plus one grid step above U, the sign is +1.
        x_up = 4.0 * (float(np.nextafter(u, 1.0)) - 0.5)
        assert 0.5 + x_up / 4.0 > u
        _, s_up = hd.l1_hadamard_sample_float(np.array([[x_up]]), 1.0, 3.0, np.random.default_rng(seed))
        assert s_up.tolist() == [1]
        found += 1
        if found == 3:
            break
    assert found == 3


def test_aggregate_float_argument_checks():
    with pytest.raises(InvalidInputError, match=r"^j and s must be non-empty 1-d arrays"):
        hd.l1_hadamard_aggregate_float([], [], 2, 1, 3)
    with pytest.raises(InvalidInputError, match=r"^j and s must be non-empty 1-d arrays"):
        hd.l1_hadamard_aggregate_float([0, 1], [1], 2, 1, 3)
    with pytest.raises(InvalidInputError, match=r"^j and s must be non-empty 1-d arrays"):
        hd.l1_hadamard_aggregate_float([[0]], [[1]], 2, 1, 3)
    with pytest.raises(InvalidInputError, match=r"^messages need 0 <= j < 2"):
        hd.l1_hadamard_aggregate_float([-1], [1], 2, 1, 3)
    with pytest.raises(InvalidInputError, match=r"^messages need 0 <= j < 2"):
        hd.l1_hadamard_aggregate_float([2], [1], 2, 1, 3)


def test_aggregate_float_single_message_by_hand():
    # One message (j, s) = (3, -1), d = 4, r1 = 1, E = 3 (c = 2): z = -2 * (1, -1, -1, 1).
    out = hd.l1_hadamard_aggregate_float([3], [-1], 4, 1, 3)
    assert out.tolist() == [-2.0, 2.0, 2.0, -2.0]
    # two messages average: (0, +1) gives 2 * (1, 1, 1); with (3, -1) truncated to d = 3 the mean is
    # ((2 - 2)/2, (2 + 2)/2, (2 + 2)/2) = (0, 2, 2).
    out = hd.l1_hadamard_aggregate_float(np.array([0, 3]), np.array([1, -1], dtype=np.int8), 3, 1, 3)
    assert out.tolist() == [0.0, 2.0, 2.0]


# -- the exact core: argument checks and hand-computed laws -----------------------------------------

def test_padded_dimension_values_and_checks():
    # the smallest power of 2 >= d, by hand.
    for d, D in [(1, 1), (2, 2), (3, 4), (4, 4), (5, 8), (8, 8), (9, 16), (4096, 4096), (4097, 8192)]:
        assert hd.padded_dimension(d) == D
    assert hd.padded_dimension(np.int64(3)) == 4
    with pytest.raises(InvalidInputError, match=r"^d must be an integer >= 1, got 0$"):
        hd.padded_dimension(0)
    with pytest.raises(WrongTypeError, match=r"^d must be an integer, got bool"):
        hd.padded_dimension(True)
    with pytest.raises(WrongTypeError, match=r"^d must be an integer, got float"):
        hd.padded_dimension(2.0)


def test_vector_radius_and_E_checks_name_their_argument():
    with pytest.raises(InvalidInputError, match=r"^x\[1\]: "):
        hd.l1_hadamard_law([0, "abc"], 1, 3)
    with pytest.raises(InvalidInputError, match=r"^x must have dimension >= 1$"):
        hd.l1_hadamard_law([], 1, 3)
    with pytest.raises(WrongTypeError, match=r"^x must be a sequence of exact rationals, got str$"):
        hd.l1_hadamard_law("01", 1, 3)
    with pytest.raises(WrongTypeError, match=r"^x must be a sequence of exact rationals, got int$"):
        hd.l1_hadamard_law(5, 1, 3)
    with pytest.raises(InvalidInputError, match=r"^r1: "):
        hd.l1_hadamard_law([0], "abc", 3)
    for r1 in (0, -1):
        with pytest.raises(InvalidInputError, match=rf"^r1 must be > 0, got {r1}$"):
            hd.l1_hadamard_law([0], r1, 3)
    with pytest.raises(InvalidInputError, match=r"^E: "):
        hd.output_scale("abc")
    for E in (1, F(1, 2), 0):
        with pytest.raises(InvalidInputError, match=r"^E = e\^eps0 must be > 1"):
            hd.output_scale(E)


def test_output_scale_by_hand():
    # c = (E+1)/(E-1): E = 2 gives 3, E = 3 gives 2, E = 5/3 gives (8/3)/(2/3) = 4.
    assert hd.output_scale(2) == F(3)
    assert hd.output_scale(3) == F(2)
    assert hd.output_scale(F(5, 3)) == F(4)


def test_exact_dimension_cap_both_sides():
    cap = hd.MAX_EXACT_DIMENSION
    coeffs = hd.hadamard_coefficients([0] * (cap - 1) + [1])
    # <H(j), e_{cap-1}> = (-1)^{popcount(j & (cap-1))} = (-1)^{popcount(j)}.
    assert len(coeffs) == cap
    assert coeffs[:4] == (F(1), F(-1), F(-1), F(1))
    with pytest.raises(InvalidInputError, match=r"^x: dimension 4097 pads beyond the exact cap 4096$"):
        hd.hadamard_coefficients([0] * (cap + 1))


def test_hadamard_coefficients_against_kron_sylvester():
    x = [F(1, 3), F(-2, 5), F(0), F(7, 11), F(1, 2)]  # d = 5 pads to D = 8
    H = _sylvester(8).astype(int)
    expect = tuple(sum(F(int(H[j, i])) * (x[i] if i < 5 else 0) for i in range(8)) for j in range(8))
    assert hd.hadamard_coefficients(x) == expect
    assert hd.sylvester_hadamard(8) == tuple(tuple(int(v) for v in row) for row in H)
    assert hd.sylvester_hadamard(1) == ((1,),)
    assert hd.sylvester_hadamard(2) == ((1, 1), (1, -1))
    for bad in (3, 6, 2 * hd.MAX_EXACT_DIMENSION):
        with pytest.raises(InvalidInputError, match=r"^d must be a power of 2 at most 4096"):
            hd.sylvester_hadamard(bad)
    with pytest.raises(InvalidInputError, match=r"^d must be an integer >= 1, got 0$"):
        hd.sylvester_hadamard(0)


def test_law_by_hand_and_the_ball_boundary():
    # d = 1, x = 1/2, r1 = 1, E = 3 (c = 2): P(0, +) = 1/2 + (1/2)/4 = 5/8.
    assert hd.l1_hadamard_law([F(1, 2)], 1, 3) == {(0, 1): F(5, 8), (0, -1): F(3, 8)}
    # d = 2, x = (1/2, 1/4): t = (3/4, 1/4); P(j, s) = (1/2 + s t_j / 4)/2.
    assert hd.l1_hadamard_law([F(1, 2), F(1, 4)], 1, 3) == {
        (0, 1): F(11, 32), (0, -1): F(5, 32), (1, 1): F(9, 32), (1, -1): F(7, 32)}
    # ||x||_1 = r1 exactly is inside the ball; just outside it is refused.
    law = hd.l1_hadamard_law([F(1, 2), F(-1, 2)], 1, 3)
    assert law[(1, 1)] == F(3, 8) and law[(1, -1)] == F(1, 8) and law[(0, 1)] == F(1, 4)
    with pytest.raises(InvalidInputError, match=r"^x is outside the l1 ball B_1\(r1\): \|\|x\|\|_1 = 1 > r1 = 99/100"):
        hd.l1_hadamard_law([F(1, 2), F(-1, 2)], F(99, 100), 3)


def test_sylvester_at_the_exact_cap():
    # d = 4096 = MAX_EXACT_DIMENSION is accepted (8192 is refused above); entries against the closed
    # form H[i][j] = (-1)^{popcount(i & j)} of the Sylvester recursion.
    cap = hd.MAX_EXACT_DIMENSION
    H = hd.sylvester_hadamard(cap)
    assert len(H) == cap and all(len(H[i]) == cap for i in (0, 1, cap - 1))
    for i, j in [(0, 0), (1, 4095), (4095, 4095), (2048, 2049), (1234, 3071), (4095, 1)]:
        assert H[i][j] == (-1) ** bin(i & j).count("1")
    del H
