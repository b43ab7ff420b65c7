"""Contracts of bcdp.randomness.entropy / keys: defaults, units, caps and boundaries, error messages,
provenance and details (the values themselves are tested against mpmath in the sibling modules)."""

from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np
import pytest

from bcdp.core.errors import InvalidInputError
from bcdp.randomness import entropy as E
from bcdp.randomness import keys

LN2 = math.log(2)


@pytest.mark.parametrize("call", [
    lambda p: E.entropy((F(1, 2), F(1, 2)), prec=p),
    lambda p: E.binary_entropy(F(1, 3), prec=p),
    lambda p: E.critical_randomness(1, prec=p),
    lambda p: E.inverse_binary_entropy(F(1, 2), prec=p),
    lambda p: E.entropy_at_most((F(1, 2), F(1, 2)), 1, prec=p),
    lambda p: keys.two_level_entropy(4, 1, 1, prec=p),
    lambda p: keys.min_two_level_entropy(4, 1, prec=p),
    lambda p: keys.asz19_parameters(10, 1, prec=p),
])
def test_precision_is_validated_under_its_own_name(call):
    with pytest.raises(InvalidInputError, match="^prec must be an integer in"):
        call(10)


def test_default_units():
    pmf = (F(1, 3), F(2, 3))
    assert E.entropy(pmf).details == {"unit": "bits"}
    assert E.entropy(pmf).lower == E.entropy(pmf, "bits").lower
    assert E.binary_entropy(F(1, 3)).lower == E.entropy(pmf, "bits").lower
    assert float(E.binary_entropy(F(1, 3), "nats").lower) == pytest.approx(float(E.entropy(pmf, "nats").lower), rel=1e-15)
    assert E.critical_randomness(1).details == {"unit": "bits", "eps": 1}
    assert E.entropy_float([0.5, 0.5]) == pytest.approx(1.0, rel=1e-15)
    assert E.binary_entropy_float(0.5) == pytest.approx(1.0, rel=1e-15)
    assert E.binary_entropy_float(0.5, "nats") == pytest.approx(LN2, rel=1e-15)
    inv = float(E.inverse_binary_entropy_float(0.5))                   # H2(p) = 1/2 bit, p < 1/2 (oracle: H2 itself)
    assert 0 < inv < 0.5 and -inv * math.log2(inv) - (1 - inv) * math.log2(1 - inv) == pytest.approx(0.5, rel=1e-9)
    assert keys.two_level_entropy(4, 0, 1).details == {"k": 4, "s": 0, "eps": 1, "unit": "nats"}
    assert float(keys.two_level_entropy(4, 0, 1).lower) == pytest.approx(math.log(4), rel=1e-15)
    assert float(keys.min_two_level_entropy(4, 0).lower) == pytest.approx(math.log(4), rel=1e-15)


def test_provenance_names_the_source():
    assert "entropy" in E.entropy((F(1),)).provenance
    assert "H2" in E.binary_entropy(F(1, 3)).provenance
    assert "Thm 7.3.1" in E.critical_randomness(1).provenance
    assert "Thm 7.3.1" in E.inverse_binary_entropy(F(1, 2)).provenance
    assert E.inverse_binary_entropy(F(1, 2)).details == {"unit": "bits", "R": F(1, 2)}
    assert "(7.46)" in keys.two_level_entropy(4, 1, 1).provenance
    c = keys.min_two_level_entropy(5, 2, "bits")
    assert "Thm 7.5.1" in c.provenance
    assert c.witness == c.argmin == (1,)
    assert c.details == {"k": 5, "eps": 2, "unit": "bits", "argmin": (1,)}


def test_units_are_applied_everywhere():
    half = (F(1, 2), F(1, 2))  # log 2 = 0.693 nats = 1 bit
    assert E.entropy_at_most(half, F(8, 10), "nats") is True
    assert E.entropy_at_most(half, F(8, 10), "bits") is False
    r = E.inverse_binary_entropy(F(3, 10), "nats")
    h = E.binary_entropy(r.lower, "nats")
    assert h.upper <= F(3, 10)
    assert E.binary_entropy(r.upper, "nats").lower >= F(3, 10)
    assert float(E.inverse_binary_entropy_float(0.3, "nats")) == pytest.approx(float(r.lower), rel=1e-12)
    # nats top is log 2: 0.69 nats is below it, 0.7 above
    assert float(E.inverse_binary_entropy_float(0.69, "nats")) < 0.5
    assert float(E.inverse_binary_entropy_float(0.7, "nats")) == 0.5
    assert float(E.inverse_binary_entropy_float(1.0, "bits")) == 0.5
    bits = keys.min_two_level_entropy(5, 1, "bits")
    nats = keys.min_two_level_entropy(5, 1, "nats")
    assert float(bits.lower) * LN2 == pytest.approx(float(nats.lower), rel=1e-14)


def test_inverse_binary_entropy_enclosures():
    zero = E.inverse_binary_entropy(0)
    assert (zero.lower, zero.upper, zero.exact) == (0, 0, 0)
    top = E.inverse_binary_entropy(1)
    assert (top.lower, top.upper, top.exact) == (F(1, 2), F(1, 2), F(1, 2))
    mid = E.inverse_binary_entropy(F(1, 2))
    assert F(11, 100) <= mid.lower <= mid.upper <= F(111, 1000)
    assert E.binary_entropy(mid.lower).upper <= F(1, 2) <= E.binary_entropy(mid.upper).lower
    with pytest.raises(InvalidInputError, match="^R"):
        E.inverse_binary_entropy("x")
    with pytest.raises(InvalidInputError, match="^R"):
        E.entropy_at_most((F(1),), "x")


def test_float_twins_vectorise_and_validate():
    rows = np.array([[0.5, 0.5], [1.0, 0.0], [0.25, 0.75]])
    expected = [1.0, 0.0, -(0.25 * math.log2(0.25) + 0.75 * math.log2(0.75))]
    np.testing.assert_allclose(E.entropy_float(rows), expected, rtol=1e-15)
    assert E.entropy_float([F(1, 2), F(1, 2)]) == pytest.approx(1.0)  # exact inputs accepted by float twins
    np.testing.assert_allclose(E.binary_entropy_float([F(1, 2), F(1, 4)]), expected[::2], rtol=1e-15)
    np.testing.assert_allclose(E.inverse_binary_entropy_float([F(1), F(0)]), [0.5, 0.0])
    for bad in ([1.5, -0.5], [-0.5, 1.0], [0.5, 1.5], [np.inf, 0]):
        with pytest.raises(InvalidInputError):
            E.entropy_float(bad)
    for bad in ([-0.1], [np.nan], [-np.inf]):
        with pytest.raises(InvalidInputError):
            E.inverse_binary_entropy_float(bad)


def test_pmf_checks_and_support_cap(monkeypatch):
    with pytest.raises(InvalidInputError, match=r"^pmf must have"):
        E.entropy([])
    with pytest.raises(InvalidInputError, match=r"^pmf\[1\]"):
        E.entropy([F(1, 2), "x"])
    with pytest.raises(InvalidInputError, match="^pmf sums"):
        E.entropy([F(1, 2)])
    with pytest.raises(InvalidInputError, match="^pmf must be a sequence"):
        E.entropy(5)
    monkeypatch.setattr(E, "MAX_SUPPORT", 4)
    assert E.entropy([F(1, 4)] * 4).lower > F(199, 100)
    with pytest.raises(InvalidInputError, match="1..4 entries"):
        E.entropy([F(1, 5)] * 5)


def test_eps_caps():
    tiny = E.critical_randomness(10_000)
    assert 0 < tiny.lower <= tiny.upper < F(1, 10 ** 100)
    with pytest.raises(InvalidInputError):
        E.critical_randomness(10_001)
    with pytest.raises(InvalidInputError, match="^eps"):
        E.critical_randomness("x")
    assert keys.two_level_entropy(2, 1, keys.MAX_EPS).upper < F(1, 10 ** 30)
    with pytest.raises(InvalidInputError):
        keys.two_level_entropy(2, 1, keys.MAX_EPS + 1)
    with pytest.raises(InvalidInputError):
        keys.two_level_entropy(2, 1, -1)
    with pytest.raises(InvalidInputError, match="^eps"):
        keys.two_level_entropy(2, 1, "x")


def test_k_and_s_checks(monkeypatch):
    assert keys.two_level_entropy(1, 0, 1).upper < F(1, 10 ** 30)  # one symbol: zero entropy
    assert keys.two_level_entropy(1, 1, 1).upper < F(1, 10 ** 30)
    for bad in (True, 2.0, "3"):
        with pytest.raises(InvalidInputError, match="^k must be an integer"):
            keys.two_level_entropy(bad, 0, 1)
    for bad in (True, 1.0, -1):
        with pytest.raises(InvalidInputError, match="^s must be"):
            keys.two_level_entropy(3, bad, 1)
    monkeypatch.setattr(keys, "MAX_K", 6)
    assert keys.min_two_level_entropy(6, 1).argmin
    with pytest.raises(InvalidInputError, match=r"\[2, 6\]"):
        keys.min_two_level_entropy(7, 1)
    with pytest.raises(InvalidInputError, match=r"\[2, 6\]"):
        keys.asz19_parameters(1, 1)


def test_names_details_and_provenance_text():
    with pytest.raises(InvalidInputError, match="^p: "):
        E.binary_entropy(2)
    assert E.binary_entropy(F(1, 3), "nats").details == {"unit": "nats"}
    assert E.binary_entropy(F(1, 3)).provenance.startswith("binary entropy H2")
    assert E.critical_randomness(1).provenance.startswith("H2(e^eps/(e^eps+1))")
    assert E.inverse_binary_entropy(F(1, 2)).provenance.startswith("p_R = H2^{-1}(R)")
    assert keys.two_level_entropy(4, 1, 1).provenance.startswith("H(U^s_min)")
    from bcdp.core.intervals import arb_precision, ball_ends

    with arb_precision(128):
        lo, hi = ball_ends(E.entropy_ball((F(1, 2), F(1, 2))))  # default unit: bits
    assert lo <= 1 <= hi < F(11, 10)
    np.testing.assert_array_equal(E.inverse_binary_entropy_float([1.0, 1.5, 5.0]), [0.5, 0.5, 0.5])
    np.testing.assert_array_equal(E.inverse_binary_entropy_float([math.log(2), 0.7], "nats"), [0.5, 0.5])
