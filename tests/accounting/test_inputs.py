"""Argument checks of the accountants (bcdp.accounting.inputs): validity is decided on the exact value
of an exact input, never on its rounded float (issue 12).

Before: check_delta("1e-400") and check_delta("0.99999999999999999999") refused valid deltas (their
floats are 0.0 and 1.0), check_rho("-1e-400") and float_rate("1.00000000000000000001") accepted
invalid values (floats -0.0 and 1.0), and randomized_response_rdp("1e-400") refused a valid p.
"""

from __future__ import annotations

import time
from fractions import Fraction

import mpmath as mp
import pytest
from bcdp.accounting.conversion import randomized_response_rdp, rdp_to_dp
from bcdp.accounting.inputs import (
    CERT_PREC,
    check_delta,
    check_rho,
    enclose,
    enclose_log_inverse,
    float_rate,
    log_inverse,
)
from bcdp.core.errors import InvalidInputError
from bcdp.core.intervals import arb_precision, ball_lower, ball_upper


@pytest.mark.parametrize("delta", ["1e-400", "0.99999999999999999999", Fraction(1, 10 ** 400), "1e-10000",
                                   5e-324, 1 - 2.0 ** -53])
def test_valid_deltas_beyond_float_resolution(delta):
    check_delta(delta)


@pytest.mark.parametrize("delta", ["0", "1", "-1e-400", "1.00000000000000000001", Fraction(10 ** 400 + 1, 10 ** 400),
                                   0.0, 1.0, "1e-10001", "nan", "inf"])
def test_invalid_deltas_refused(delta):
    with pytest.raises(InvalidInputError):
        check_delta(delta)


@pytest.mark.parametrize("delta", ["1e-400", "0.99999999999999999999", "1e-6", "0.5", "1/3", 0.999999999999999])
def test_log_inverse_and_its_enclosure_against_mpmath(delta):
    """log(1/delta): the search float to 1e-15 relative, the ball containing the 80-digit value
    (mpmath from the exact decimal; the float 0.999999999999999 is read as the hull of its binary
    value and its decimal, so both logs must be inside)."""
    with mp.workdps(80):
        if isinstance(delta, float):
            refs = [-mp.log(mp.mpf(delta)), -mp.log(mp.mpf(repr(delta)))]
        else:
            q = Fraction(delta)
            refs = [-mp.log(mp.mpf(q.numerator) / q.denominator)]
        assert abs(log_inverse(delta) - refs[0]) <= 1e-15 * refs[0]
        with arb_precision(CERT_PREC):
            ball = enclose_log_inverse(delta)
            lo, hi = ball_lower(ball), ball_upper(ball)
        for ref in refs:
            assert mp.mpf(lo.numerator) / lo.denominator <= ref <= mp.mpf(hi.numerator) / hi.denominator
        if not isinstance(delta, float):                # tight (1 - 1e-20 straddled 0 via 1/delta)
            assert hi - lo <= Fraction(1, 2 ** 150) * hi


def test_rho_decided_exactly():
    with pytest.raises(InvalidInputError):
        check_rho("-1e-400")                            # float -0.0 passed "r < 0" before
    assert check_rho("1e-400") == 0.0                   # valid; its search float underflows
    with pytest.raises(InvalidInputError, match="cap"):
        check_rho("1e301")


def test_gamma_of_float_twins_decided_exactly():
    with pytest.raises(InvalidInputError):
        float_rate("1.00000000000000000001")            # its float 1.0 passed "g <= 1" before
    assert float_rate("1") == 1.0


def test_string_enclosure_respects_the_size_caps():
    """enclose("1e-100000000") built a 10^8-digit denominator (Fraction(text)); to_fraction refuses it
    at once (exponent cap 10^4)."""
    t = time.perf_counter()
    with pytest.raises(InvalidInputError), arb_precision(CERT_PREC):
        enclose("1e-100000000")
    assert time.perf_counter() - t < 1


def test_randomized_response_with_p_below_the_float_range():
    """p = 1e-400 is a valid flip probability (its float is 0.0).  The certified CKS eps at the
    reported order is >= the conversion of the RR curve (Mironov 2017 Table II) recomputed here at
    60 digits, and within 1e-9 of it."""
    res = rdp_to_dp(randomized_response_rdp("1e-400"), "1e-6", "cks", orders=[2, 3, 5, 9])
    with mp.workdps(60):
        p, a, d = mp.mpf("1e-400"), mp.mpf(res.alpha_star), mp.mpf("1e-6")
        r = mp.log(p ** a * (1 - p) ** (1 - a) + (1 - p) ** a * p ** (1 - a)) / (a - 1)
        ref = r + (-mp.log(d) + (a - 1) * mp.log(1 - 1 / a) - mp.log(a)) / (a - 1)
        assert ref <= res.epsilon_certified_upper <= ref * (1 + mp.mpf(10) ** -9)
