"""The printed bounds of Sec. 7.3 as implemented in bcdp.randomness.hadamard, against the printed
formulas evaluated independently with mpmath at 50 digits: tau of Thm 7.3.1 (7.8) in both regimes,
eta of Lemma 7.3.4 (7.32) / Thm 7.3.2 (7.10), the corrected order, (7.27)'s one-probabilities; and
recoverability.key_entropy against the Shannon sum in both units (mutation-gate gaps of session 11)."""

from __future__ import annotations

from fractions import Fraction as F

import mpmath
import pytest

from bcdp.core.errors import InvalidInputError, ValidityConditionError
from bcdp.randomness import hadamard, recoverability

CASES = [(4, 10 ** 8, F(27, 10), F(1, 1000)), (16, 5000, F(2), F(1, 7)), (2, 1, F(3, 2), F(1, 2)),
         (1000, 150000, F(11, 4), F(3, 10))]


def _mp(x):
    x = F(x)
    return mpmath.mpf(x.numerator) / x.denominator


def _close(got, want):
    return abs(_mp(got) - want) <= mpmath.mpf(10) ** -40 * abs(want)


@pytest.mark.parametrize("k,n,E,pr", CASES)
def test_printed_tau_eta_and_corrected_order(k, n, E, pr):
    with mpmath.workdps(50):
        e, p, kk, nn = _mp(E), _mp(pr), mpmath.mpf(k), mpmath.mpf(n)
        tau_high = kk * (e + 1) ** 2 / (16 * nn * e * (e - 1) ** 2)       # (7.8), R >= H2
        tau_low = kk * e / (16 * nn * p ** 2 * (e - 1) ** 2)              # (7.8), R < H2
        eta = 2 * kk * e ** 2 / (nn * p ** 2 * (e - 1) ** 2)              # (7.32) at q = p_R
        corrected = 8 * kk * e ** 2 / (nn * p * (e - 1) ** 2)
        assert _close(hadamard.thm731_tau(k, n, E), tau_high)
        assert _close(hadamard.thm731_tau(k, n, E, pr), tau_low)
        assert _close(hadamard.lemma734_bound(k, n, pr, E), eta)
        assert _close(hadamard.thm732_eta(k, n, E, pr), eta)
        assert _close(hadamard.corrected_upper(k, n, pr, E), corrected)


def test_one_probability_is_7_27():
    assert hadamard.one_probability(True, F(1, 3), F(2)) == F(1, 3)
    assert hadamard.one_probability(False, F(1, 3), F(2)) == F(1, 6)


@pytest.mark.parametrize("call", [lambda n: hadamard.thm731_tau(4, n, 2), lambda n: hadamard.lemma734_bound(4, n, F(1, 2), 2),
                                  lambda n: hadamard.corrected_upper(4, n, F(1, 2), 2)])
def test_n_is_checked_by_name_with_one_allowed(call):
    assert call(1) > 0
    with pytest.raises(InvalidInputError, match="^n "):
        call(0)


def test_corrected_order_needs_p_r_at_most_half():
    hadamard.corrected_upper(4, 10, F(1, 2), 2)
    with pytest.raises(ValidityConditionError):
        hadamard.corrected_upper(4, 10, F(51, 100), 2)


@pytest.mark.parametrize("q", [(F(1, 2), F(1, 2)), (F(1, 10), F(2, 10), F(7, 10)), (F(1),)])
def test_key_entropy_in_both_units(q):
    with mpmath.workdps(50):
        nats = -mpmath.fsum(_mp(p) * mpmath.log(_mp(p)) for p in q if p)
        for unit, want in ((None, nats), ("nats", nats), ("bits", nats / mpmath.log(2))):
            got = recoverability.key_entropy(q) if unit is None else recoverability.key_entropy(q, unit)
            assert _mp(got.lower) - mpmath.mpf(10) ** -30 <= want <= _mp(got.upper) + mpmath.mpf(10) ** -30
            assert got.upper - got.lower < F(1, 10 ** 30)
            assert got.details == {"unit": unit or "nats"}
    with pytest.raises(InvalidInputError, match=r"^q"):
        recoverability.key_entropy((F(1, 2),))
    with pytest.raises(InvalidInputError, match="^prec must be an integer in"):
        recoverability.key_entropy(q, prec=10)
