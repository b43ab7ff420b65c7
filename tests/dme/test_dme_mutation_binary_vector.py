"""Edge cases of bcdp.dme.binary_vector written against the mutation survivors of the dme run.

Independent oracles only: values worked out by hand in the comments, exact boundaries at both sides
(s = d, p = 0, p = 1/2, v = 1, d = MAX_ENUM_DIM), the one-line messages of the argument checks, and
the tie convention of the float sampler's 2RR flip: gamma = (U < p) with U uniform on the 2^-53 grid
of [0, 1) has probability exactly p (U <= p would add 2^-53); the test replays the generator's draws
to put U exactly on p.
"""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest
from bcdp.core.errors import InvalidInputError, ValidityConditionError, WrongTypeError
from bcdp.core.numbers import INFINITY
from bcdp.dme import binary_vector as bv


# -- the exact aggregator -------------------------------------------------------------------------

def test_aggregate_truncates_by_default_and_accepts_one_client():
    # d = 3, s = 2: a = 2, padded dimension 4 (blocks {0, 1} and {2, 3}).
    params = bv.binary_vector_params(3, 2, p=F(1, 4))
    msg = ((1, F(2)), (2, F(-2)))
    assert bv.aggregate([msg], params) == (F(0), F(2), F(-2))
    assert bv.aggregate([msg], params, truncate=True) == (F(0), F(2), F(-2))
    assert bv.aggregate([msg], params, truncate=False) == (F(0), F(2), F(-2), F(0))
    msg2 = ((0, F(2)), (3, F(4)))
    # mean of the two clients: ((0 + 2)/2, (2 + 0)/2, (-2 + 0)/2) and the padded (0 + 4)/2.
    assert bv.aggregate([msg, msg2], params) == (F(1), F(1), F(-1))
    assert bv.aggregate([msg, msg2], params, truncate=False) == (F(1), F(1), F(-1), F(2))
    with pytest.raises(InvalidInputError, match=r"^A\^Bin needs at least one client$"):
        bv.aggregate([], params)


# -- mse_bound_310 ----------------------------------------------------------------------------------

def test_mse_bound_310_names_and_v_boundary():
    with pytest.raises(InvalidInputError, match=r"^dim must be >= 1, got 0$"):
        bv.mse_bound_310(0, 1, 1)
    with pytest.raises(WrongTypeError, match=r"^dim must be an int"):
        bv.mse_bound_310("2", 1, 1)
    with pytest.raises(InvalidInputError, match=r"^s must be >= 1, got 0$"):
        bv.mse_bound_310(2, 0, 1)
    with pytest.raises(InvalidInputError, match=r"^v: "):
        bv.mse_bound_310(2, 1, "abc")
    with pytest.raises(ValidityConditionError, match=r"^v = 0 must be > 0"):
        bv.mse_bound_310(2, 1, 0)
    # v = 1, dim = 2, s = 1: 4 (1 - 1/2 + 1) = 6; v = 1/2: 4 (1 - 1/2 + 4) = 18.
    assert bv.mse_bound_310(2, 1, 1) == F(6)
    assert bv.mse_bound_310(2, 1, F(1, 2)) == F(18)


# -- LDP ratio ------------------------------------------------------------------------------------

def test_ldp_ratio_at_the_enumeration_cap():
    # d = 10 = MAX_ENUM_DIM, s = 1 (one block of a = 10): the message is (c, a y) with c uniform and y
    # the 2RR output of b[c]; P[(c, y) | b] = (1/10) P[2RR(b_c) = y], so the ratio is (1-p)/p = 3 at p = 1/4.
    params = bv.binary_vector_params(bv.MAX_ENUM_DIM, 1, p=F(1, 4))
    assert bv.ldp_ratio(params) == F(3)
    with pytest.raises(InvalidInputError, match=r"over the enumeration cap"):
        bv.ldp_ratio(bv.binary_vector_params(bv.MAX_ENUM_DIM + 1, 1, p=F(1, 4)))


def test_ldp_ratio_closed_form_p_zero_is_infinite():
    # p = 0: 2RR is the identity, outputs of b = 0 and b = 1 are disjoint: the ratio is infinite.
    params = bv.binary_vector_params(2, 1, p=0)
    assert bv.ldp_ratio_closed_form(params) == INFINITY
    # p = 1/3, d = 3, s = 3 (a = 1, k = 3 blocks): ((2/3)/(1/3))^3 = 8.
    assert bv.ldp_ratio_closed_form(bv.binary_vector_params(3, 3, p=F(1, 3))) == F(8)


# -- communication_bits ---------------------------------------------------------------------------

def test_communication_bits_names():
    with pytest.raises(InvalidInputError, match=r"^d must be >= 1, got 0$"):
        bv.communication_bits(0, 1)
    with pytest.raises(InvalidInputError, match=r"^s must be >= 1, got 0$"):
        bv.communication_bits(1, 0)
    with pytest.raises(WrongTypeError, match=r"^s must be an int"):
        bv.communication_bits(4, 1.0)
    # d = 5, s = 2: a = 3, ceil(log2 3) = 2 index bits + 1: 2 * 3 = 6.
    assert bv.communication_bits(5, 2) == 6


# -- sample_binary_vector -------------------------------------------------------------------------

def test_sampler_input_array_checks():
    rng = np.random.default_rng(0)
    msg = r"^B must be an \(n, d\) integer array of 0s and 1s$"
    with pytest.raises(InvalidInputError, match=msg):
        bv.sample_binary_vector(rng, np.array([[0, 2]]), 1, 0.25)
    with pytest.raises(InvalidInputError, match=msg):
        bv.sample_binary_vector(rng, np.array([[0.0, 1.0]]), 1, 0.25)
    with pytest.raises(InvalidInputError, match=msg):
        bv.sample_binary_vector(rng, np.array([0, 1]), 1, 0.25)
    with pytest.raises(InvalidInputError, match=msg):
        bv.sample_binary_vector(rng, np.array([[True, False]]), 1, 0.25)


def test_sampler_s_and_p_checks():
    rng = np.random.default_rng(0)
    B = np.array([[1, 0]])
    with pytest.raises(InvalidInputError, match=r"^s must be >= 1, got 0$"):
        bv.sample_binary_vector(rng, B, 0, 0.25)
    with pytest.raises(ValidityConditionError, match=r"^s = 3 must be in"):
        bv.sample_binary_vector(rng, B, 3, 0.25)
    with pytest.raises(InvalidInputError, match=r"^p: "):
        bv.sample_binary_vector(rng, B, 1, "abc")
    for bad in (0.5, 0.7, -0.1):
        with pytest.raises(ValidityConditionError, match=r"is outside \[0, 1/2\)"):
            bv.sample_binary_vector(rng, B, 1, bad)


def test_sampler_s_equal_d_and_p_zero_is_deterministic():
    # s = d = 2 (a = 1): coordinates are 0 and 1; p = 0: no flip, y = 1 * (b - 0)/1 = b.
    B = np.array([[1, 0], [0, 1], [1, 1]])
    coords, gamma, y = bv.sample_binary_vector(np.random.default_rng(3), B, 2, 0.0)
    assert coords.tolist() == [[0, 1]] * 3
    assert not gamma.any()
    assert y.tolist() == [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]


def test_sampler_flip_tie_convention_U_equal_p_is_no_flip():
    # d = 1, s = 1 (a = 1).  Replay the draws (coordinates, then U) and take p = U exactly: U < p fails,
    # so no flip: y = (0 - p)/(1 - 2p) for b = 0.
    found = 0
    for seed in range(200):
        probe = np.random.default_rng(seed)
        probe.integers(0, 1, size=(1, 1))
        u = float(probe.random((1, 1))[0, 0])
        if not 0 < u < 0.5:
            continue
        coords, gamma, y = bv.sample_binary_vector(np.random.default_rng(seed), np.array([[0]]), 1, u)
        assert coords.tolist() == [[0]]
        assert gamma.tolist() == [[False]]
        assert y[0, 0] == (0 - u) / (1 - 2 * u)
        # one grid step above U the coordinate flips.
        _, gamma_up, _ = bv.sample_binary_vector(np.random.default_rng(seed), np.array([[0]]), 1,
                                                 float(np.nextafter(u, 1.0)))
        assert gamma_up.tolist() == [[True]]
        found += 1
        if found == 3:
            break
    assert found == 3


# -- aggregate_float ------------------------------------------------------------------------------

def test_aggregate_float_checks_and_minlength():
    with pytest.raises(InvalidInputError, match=r"^coords and y must be \(n, s\) arrays of the same shape$"):
        bv.aggregate_float(np.array([[0, 1]]), np.array([[1.0]]), 2)
    with pytest.raises(InvalidInputError, match=r"^coords and y must be \(n, s\) arrays of the same shape$"):
        bv.aggregate_float(np.array([0, 1]), np.array([1.0, 1.0]), 2)
    with pytest.raises(InvalidInputError, match=r"^d must be >= 1, got 0$"):
        bv.aggregate_float(np.array([[0]]), np.array([[1.0]]), 0)
    # one client, s = 1, d = 3: only coordinate 0 is hit, the estimate still has d = 3 entries.
    assert bv.aggregate_float(np.array([[0]]), np.array([[1.5]]), 3).tolist() == [1.5, 0.0, 0.0]
    # truncate=False: s = 2, d = 3, padded dimension 4, coordinates 1 and 2 hit.
    out = bv.aggregate_float(np.array([[1, 2]]), np.array([[2.0, -2.0]]), 3, truncate=False)
    assert out.tolist() == [0.0, 2.0, -2.0, 0.0]


def test_aggregate_float_accepts_exact_values():
    # y given as exact Fractions (e.g. from the exact law) is read as float64.
    out = bv.aggregate_float(np.array([[0], [1]]), [[F(3, 2)], [F(-1, 2)]], 2)
    assert out.tolist() == [0.75, -0.25]


# -- parameters, padding and the exact law, by hand ---------------------------------------------------

def test_params_checks_name_their_argument():
    with pytest.raises(InvalidInputError, match=r"^d must be >= 1, got 0$"):
        bv.binary_vector_params(0, 1, p=0)
    with pytest.raises(WrongTypeError, match=r"^d must be an int, got bool"):
        bv.binary_vector_params(True, 1, p=0)
    with pytest.raises(InvalidInputError, match=r"^s must be >= 1, got 0$"):
        bv.binary_vector_params(2, 0, p=0)
    with pytest.raises(WrongTypeError, match=r"^s must be an int, got float"):
        bv.binary_vector_params(2, 1.0, p=0)
    with pytest.raises(ValidityConditionError, match=r"^s = 3 must be in \{1, \.\.\., d\} = \{1, \.\.\., 2\}"):
        bv.binary_vector_params(2, 3, p=0)
    with pytest.raises(InvalidInputError, match=r"^give exactly one of v"):
        bv.binary_vector_params(2, 1)
    with pytest.raises(InvalidInputError, match=r"^give exactly one of v"):
        bv.binary_vector_params(2, 1, v=1, p=0)
    with pytest.raises(InvalidInputError, match=r"^v: "):
        bv.binary_vector_params(2, 1, v="abc")
    for v in (0, -1):
        with pytest.raises(ValidityConditionError, match=rf"^v = {v} must be > 0"):
            bv.binary_vector_params(2, 1, v=v)
    with pytest.raises(InvalidInputError, match=r"^p: "):
        bv.binary_vector_params(2, 1, p="abc")
    with pytest.raises(ValidityConditionError, match=r"^p = 1/2 is outside"):
        bv.binary_vector_params(2, 1, p=F(1, 2))
    # v = 1: 1 + 4 = 5 is not a rational square, p is irrational.
    with pytest.raises(InvalidInputError, match=r"^p of v/s = 1 is irrational"):
        bv.binary_vector_params(2, 1, v=1)


def test_params_from_the_budget_by_hand():
    # v/s = t - 1/t gives p = 1/(1 + t^2): v = 3, s = 2 is v/s = 3/2 (t = 2), p = 1/5;
    # v = 3/2, s = 1 the same; v = 15/4, s = 1 is t = 4, p = 1/17.
    for d, s, v, p in [(2, 2, 3, F(1, 5)), (3, 1, F(3, 2), F(1, 5)), (1, 1, F(15, 4), F(1, 17))]:
        params = bv.binary_vector_params(d, s, v=v)
        assert (params.d, params.s, params.p, params.v) == (d, s, p, F(v))
    params = bv.binary_vector_params(5, 2, p=F(1, 3))
    assert (params.d, params.s, params.p, params.v, params.a, params.padded_dim) == (5, 2, F(1, 3), None, 3, 6)
    # s = d is allowed (a = 1).
    assert bv.binary_vector_params(3, 3, p=0).a == 1


def test_pad_and_bit_checks():
    params = bv.binary_vector_params(3, 2, p=0)  # a = 2, padded 4
    assert bv.pad([1, 0, 1], params) == (1, 0, 1, 0)
    assert bv.pad((np.int64(1), 1, 1), bv.binary_vector_params(3, 3, p=0)) == (1, 1, 1)
    with pytest.raises(WrongTypeError, match=r"^b must be a sequence of bits$"):
        bv.pad("101", params)
    with pytest.raises(WrongTypeError, match=r"^b must be a sequence of bits$"):
        bv.pad(5, params)
    with pytest.raises(WrongTypeError, match=r"^b\[i\] must be the int 0 or 1"):
        bv.pad([1, 0, True], params)
    with pytest.raises(InvalidInputError, match=r"^b has 2 coordinates, expected d = 3$"):
        bv.pad([1, 0], params)


def _brute_law(b, d, s, p):
    """The law of the message set by hand: block j picks c uniform in its a coordinates, keeps the bit
    with prob 1 - p and flips it with prob p, and sends a (sent - p)/(1 - 2p)."""
    import itertools
    a = -(-d // s)
    bp = list(b) + [0] * (s * a - d)
    law = {}
    for cs in itertools.product(range(a), repeat=s):
        for flips in itertools.product((0, 1), repeat=s):
            w = F(1)
            msg = []
            for j in range(s):
                c = j * a + cs[j]
                w *= F(1, a) * (p if flips[j] else 1 - p)
                sent = 1 - bp[c] if flips[j] else bp[c]
                msg.append((c, a * (sent - p) / (1 - 2 * p)))
            law[tuple(msg)] = law.get(tuple(msg), F(0)) + w
    return law


def test_message_law_against_brute_force_and_cap():
    for b, d, s, p in [((1, 0), 2, 1, F(1, 4)), ((1, 0, 1), 3, 2, F(1, 3)), ((0, 1, 1, 0, 1), 5, 2, F(1, 5))]:
        params = bv.binary_vector_params(d, s, p=p)
        assert bv.message_law(b, params) == _brute_law(b, d, s, p)
    # by hand, b = (1, 0), s = 1, p = 1/4 (a = 2): y = 2 (sent - 1/4)/(1/2) is 3 or -1.
    law = bv.message_law((1, 0), bv.binary_vector_params(2, 1, p=F(1, 4)))
    assert law == {((0, F(3)),): F(3, 8), ((0, F(-1)),): F(1, 8), ((1, F(3)),): F(1, 8), ((1, F(-1)),): F(3, 8)}
    # the cap: d = 10 is enumerated, d = 11 is refused.
    assert sum(bv.message_law((1,) * 10, bv.binary_vector_params(10, 1, p=F(1, 4))).values()) == 1
    with pytest.raises(InvalidInputError, match=r"^d = 11 is over the enumeration cap 10$"):
        bv.message_law((1,) * 11, bv.binary_vector_params(11, 1, p=F(1, 4)))


def test_client_estimate_and_mse_against_brute_force():
    d, s, p = 3, 2, F(1, 3)  # a = 2, padded 4; the padded coordinate 3 gets nonzero estimates
    params = bv.binary_vector_params(d, s, p=p)
    msg = ((1, F(4)), (3, F(-2)))
    assert bv.client_estimate(msg, params) == (F(0), F(4), F(0))
    assert bv.client_estimate(msg, params, truncate=False) == (F(0), F(4), F(0), F(-2))
    assert bv.client_estimate(((0, F(1)), (2, F(5))), params) == (F(1), F(0), F(5))
    for b in [(1, 0, 1), (0, 0, 0), (1, 1, 1)]:
        law = _brute_law(b, d, s, p)
        target = list(b) + [0]
        for truncate, dim in ((True, 3), (False, 4)):
            expect = F(0)
            for msg, w in law.items():
                est = [F(0)] * 4
                for c, y in msg:
                    est[c] += y
                expect += w * sum((est[i] - target[i]) ** 2 for i in range(dim))
            assert bv.client_mse(b, params, truncate=truncate) == expect
            if truncate:
                assert bv.client_mse(b, params) == expect  # truncate=True is the default


def test_ldp_ratio_against_brute_force():
    import itertools
    for d, s, p in [(3, 2, F(1, 3)), (2, 2, F(1, 4)), (3, 1, F(2, 5))]:
        laws = [_brute_law(b, d, s, p) for b in itertools.product((0, 1), repeat=d)]
        outs = set().union(*laws)
        expect = max(max(L.get(y, F(0)) for L in laws) / min(L.get(y, F(0)) for L in laws) for y in outs)
        assert bv.ldp_ratio(bv.binary_vector_params(d, s, p=p)) == expect
    # (3, 2, 1/3): a = 2, both blocks hold a real coordinate: ((2/3)/(1/3))^2 = 4.
    assert bv.ldp_ratio(bv.binary_vector_params(3, 2, p=F(1, 3))) == F(4)
    # p = 0: the outputs of b = 0 and b = 1 are disjoint, the ratio is infinite.
    assert bv.ldp_ratio(bv.binary_vector_params(1, 1, p=0)) == INFINITY
    assert bv.ldp_ratio(bv.binary_vector_params(2, 1, p=0)) == INFINITY
