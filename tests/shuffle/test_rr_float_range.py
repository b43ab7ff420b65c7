"""The measured range of the float64 search of the exact shuffled-2RR RDP, and the certified
enclosure's pair and tiny-eps0 handling (bcdp.shuffle.rr_all_pairs, issue 12).

References: the arb enclosure of every pair (certified, independent of the float recurrence) and
the mpmath brute force over every pair (rr_pair_over_j_mp) at enough digits for tiny eps0.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
from bcdp.core.errors import CertificationError
from bcdp.core.intervals import ball_ends_mpf
from bcdp.shuffle.exact import rr_pair_over_j_mp
from bcdp.shuffle.rr_all_pairs import (
    FLOAT_SEARCH_RANGE,
    FLOAT_SEARCH_REL_ERR,
    float_search_trusted,
    rr_worst_pair_rdp,
    rr_worst_pair_rdp_ball,
)


@pytest.mark.parametrize("eps0,alpha,inside", [
    ("0", 2, True), (0.0, 2, True),
    ("0.001", 2, True), (Fraction(1, 1000), 2, True), (0.001, 2, True),      # float 0.001 is above 1/1000
    ("0.000999999999999", 2, False), ("1e-400", 2, False), (1e-300, 2, False),
    ("10", 2, True), ("10.000000000001", 2, False), (10.000000000000002, 2, False),
    ("1", 1e100, True), ("1", "1e100", True), ("1", 1.0000000000000002e100, False), ("1", "1e101", False),
    ("1", "1.0000000000000000001", True),
])
def test_float_search_range_is_decided_exactly_at_both_sides(eps0, alpha, inside):
    assert float_search_trusted(1000, eps0, alpha) is inside


def test_range_constants():
    r = FLOAT_SEARCH_RANGE
    assert r["eps0_min"] == Fraction(1, 1000) and r["eps0_max"] == 10 and r["alpha_max"] == Fraction(1e100)
    assert FLOAT_SEARCH_REL_ERR == 1e-11


def _rel_err(n: int, eps0: str, alpha: str) -> float:
    value, _ = rr_worst_pair_rdp(n, float(eps0), float(alpha))
    lo, hi = ball_ends_mpf(rr_worst_pair_rdp_ball(n, eps0, alpha))
    mid = (lo + hi) / 2
    return float(abs(mpmath.mpf(value) - mid) / mid)


@pytest.mark.parametrize("eps0", ["0.001", "0.01", "1", "10"])
@pytest.mark.parametrize("alpha", ["1.001", "2", "64", "1e6"])
def test_float_search_inside_the_range_is_within_the_stated_error(eps0, alpha):
    assert _rel_err(300, eps0, alpha) <= FLOAT_SEARCH_REL_ERR


@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")   # the NaN case, on purpose
def test_float_search_outside_the_range_is_wrong_or_fails():
    """Why the range stops where it does: at eps0 = 1e-7 the float search is off by ~5e-9 (500 times
    the stated error), at eps0 = 11.5 (n = 20) it raises, at 1e-100 it produces NaN internally."""
    assert _rel_err(20, "1e-7", "2") > 100 * FLOAT_SEARCH_REL_ERR
    with pytest.raises(CertificationError, match="junction"):
        rr_worst_pair_rdp(20, 11.5, 2.0)
    with pytest.raises(ValueError):
        rr_worst_pair_rdp(20, 1e-100, 2.0)


def test_ball_of_a_tiny_eps0_is_not_the_ball_of_zero():
    """eps0 = 1e-400 is 0.0 as a float; the enclosure must still be of the true, positive value
    (~ alpha eps0^2 / 2: the brute force at 1200 digits, of which ~800 cancel)."""
    ball = rr_worst_pair_rdp_ball(3, "1e-400", "3")
    lo, hi = ball_ends_mpf(ball)
    truth = max(v for row in rr_pair_over_j_mp(3, "1e-400", 3, dps=1200) for v in row)
    with mpmath.workdps(1300):
        tol = truth * mpmath.mpf(10) ** -300       # the reference's own error is ~1e-400 relative
        assert 0 < lo <= truth + tol and truth - tol <= hi and (hi - lo) <= truth * mpmath.mpf(10) ** -15


def test_with_pair_reports_the_unique_maximiser_or_a_tie():
    ball, pair, unique = rr_worst_pair_rdp_ball(12, "1", "2", with_pair=True)
    rows = rr_pair_over_j_mp(12, 1, 2, dps=50)
    best = max(v for row in rows for v in row)
    lo, hi = ball_ends_mpf(ball)
    assert lo <= best <= hi
    assert pair == (0, "DDprime") and unique is True
    # j <= (n-1)/2 (the scan; DpD[j] = DD[n-1-j] by symmetry): the max is attained once there
    with mpmath.workdps(60):
        assert sum(v >= best * (1 - mpmath.mpf(10) ** -40) for row in rows[:6] for v in row) == 1
    _, pair, unique = rr_worst_pair_rdp_ball(12, "0", "2", with_pair=True)     # every pair is 0: a tie
    assert pair == (0, "DDprime") and unique is False
    _, pair, unique = rr_worst_pair_rdp_ball(1, "1", "2", with_pair=True)      # n = 1: j = 0, both directions
    rows = rr_pair_over_j_mp(1, 1, 2, dps=50)
    assert (rows[0][0] > rows[0][1]) == (pair == (0, "DDprime") and unique)
