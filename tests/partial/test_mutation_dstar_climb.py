"""The climb of the D* maximiser search (bcdp.partial.dstar._local_max; partial DP paper
arXiv:2209.04053, Sec. 2, Def. 2: D* = sup_{lambda > 1} g(lambda), g = D_lambda/lambda) on shapes
of g the earlier tests do not have: two local maxima, a local maximum below the limit KL at
lambda -> 1+, a maximiser within 1e-16 of lambda = 1, and randomized response (g decreasing, D* =
KL) from starts where the working precision runs out near lambda = 1.  Written against the
survivors of the mutation gate (benchmarks/mutation_gate.py, package partial).

Contract (docstring of _local_max): climb from x to a local maximiser of g by 5% steps of
lambda - 1 (up while g increases, down while it decreases), then Newton in the last step's bracket;
return (r, g(r)) when g(r) > KL, and (None, None) when g increases towards lambda -> 1+ or the
local maximum is not above KL.

Oracle: K(lambda) = log sum_y P(y)^lambda Q(y)^(1 - lambda), KL = K'(1) and the sign of
g' = (K' lambda (lambda - 1) - K (2 lambda - 1)) / (lambda (lambda - 1))^2 (quotient rule), with
mpmath at 160 digits; the local maximisers are the roots of the numerator found by mpmath.findroot
between grid points where it changes sign from + to -.
"""

from __future__ import annotations

import functools
from fractions import Fraction as F

import mpmath
import pytest
from bcdp.core.divergences import LogMgf, exact_pair
from bcdp.partial import dstar as dstar_module

ORACLE_DPS = 160

# three outcomes, g with two local maxima (found by a random search, checked below):
TWO_PEAKS = ((F(2, 100), F(30, 100), F(68, 100)), (F(3, 10 ** 5), 1 - F(3, 10 ** 5) - F(51, 1000), F(51, 1000)))
LOW_SECOND = ((F(60, 100), F(39, 100), F(1, 100)), (F(31, 100), 1 - F(31, 100) - F(135, 10 ** 5), F(135, 10 ** 5)))
RR = ((F(3, 4), F(1, 4)), (F(1, 4), F(3, 4)))
# P = (a, 1 - a), Q = (1/4, 3/4) has K''(1)/2 = KL at a = a_c = 0.58854569084177880675...; just below
# a_c, g has its maximum at lambda* = 1 + ~4.25 (a_c - a)
A_C = F(5885456908417788067571347428171583749578, 10 ** 40)
NEAR_ONE = ((A_C - F(1, 10 ** 17), 1 - A_C + F(1, 10 ** 17)), (F(1, 4), F(3, 4)))


@functools.lru_cache(maxsize=None)
def oracle(P, Q):
    """(KL, [(local maximiser, g there)], [local minimisers]) at ORACLE_DPS digits (grid: 10 points
    per decade of lambda - 1 from 1e-20 to 100)."""
    with mpmath.workdps(ORACLE_DPS):
        p = [mpmath.mpf(x.numerator) / x.denominator for x in P]
        q = [mpmath.mpf(x.numerator) / x.denominator for x in Q]

        def K(lam):
            return mpmath.log(mpmath.fsum(a ** lam * b ** (1 - lam) for a, b in zip(p, q)))

        def K1(lam):
            w = [a ** lam * b ** (1 - lam) for a, b in zip(p, q)]
            return mpmath.fsum(x * mpmath.log(a / b) for x, a, b in zip(w, p, q)) / mpmath.fsum(w)

        def h(lam):
            return K1(lam) * lam * (lam - 1) - K(lam) * (2 * lam - 1)
        grid = [1 + mpmath.mpf(10) ** (mpmath.mpf(k) / 10 - 20) for k in range(221)]
        hs = [h(x) for x in grid]
        maxima, minima = [], []
        for a, b, ha, hb in zip(grid, grid[1:], hs, hs[1:]):
            if (ha > 0) != (hb > 0):
                r = mpmath.findroot(h, (a, b), solver="anderson")
                (maxima if ha > 0 else minima).append(r)
        return K1(1), [(r, K(r) / (r * (r - 1))) for r in maxima], minima


def climb(P, Q, x0, dps):
    with mpmath.workdps(dps):
        return dstar_module._local_max(LogMgf(*exact_pair(P, Q)), x0)


def at(root, factor, dps):
    """The start 1 + (root - 1) factor at dps digits."""
    with mpmath.workdps(dps):
        return 1 + (+root - 1) * mpmath.mpf(factor)


def close(r, gr, want, dps):
    lam, value = want
    with mpmath.workdps(ORACLE_DPS):
        return abs(r - lam) <= lam * mpmath.mpf(10) ** -(dps - 6) and abs(gr - value) <= value * mpmath.mpf(10) ** -(dps - 6)


@pytest.mark.parametrize("dps", [50, 60])
def test_two_peaks_each_start_climbs_to_the_peak_uphill_from_it(dps):
    kl, peaks, valleys = oracle(*TWO_PEAKS)
    assert len(peaks) == 2 and len(valleys) == 1 and all(v > kl for _, v in peaks)
    (l1, _), (l2, _) = peaks
    # below the first peak, between it and the valley (g decreasing), between the valley and the
    # second peak (g increasing), above the second peak; the first peak is at 1.16, the valley at 1.65:
    # a bracket reaching above lambda = 2 would hold the second peak's rising side
    starts = [(l1, "0.3", 0), (l1, "0.97", 0), (l1, "1.2", 0), (valleys[0], "1.1", 1), (l2, "0.97", 1), (l2, "3", 1)]
    for root, factor, want in starts:
        r, gr = climb(*TWO_PEAKS, at(root, factor, dps), dps)
        assert r is not None and close(r, gr, peaks[want], dps), (factor, want)


@pytest.mark.parametrize("dps", [50, 60])
def test_a_peak_below_kl_is_no_candidate_and_the_first_peak_is_found(dps):
    kl, peaks, valleys = oracle(*LOW_SECOND)
    assert len(peaks) == 2 and len(valleys) == 1
    (l1, v1), (l2, v2) = peaks
    assert v1 > kl > v2  # the first peak at 1.03, the valley at 3.5, the second peak at 5.5
    for factor in ["0.97", "1.03", "3"]:
        r, gr = climb(*LOW_SECOND, at(l1, factor, dps), dps)
        assert r is not None and close(r, gr, peaks[0], dps), factor
    for factor in ["0.97", "1.03", "3"]:
        assert climb(*LOW_SECOND, at(l2, factor, dps), dps) == (None, None), factor


@pytest.mark.parametrize("factor", ["0.5", "0.97", "1.03", "2"])
def test_a_maximiser_within_1e_16_of_one_is_found_at_60_digits(factor):
    """lambda* - 1 = 4.3e-17: h = O((lambda - 1)^2) loses about 3 log10(1/(lambda* - 1)) = 49 of the
    working digits near the root, which still places lambda* to 1e-6 of lambda* - 1 and g(lambda*)
    (1.5e-34 relative above KL) to 1e-40 at 60 digits."""
    kl, peaks, _ = oracle(*NEAR_ONE)
    assert len(peaks) == 1
    lam, value = peaks[0]
    with mpmath.workdps(ORACLE_DPS):
        assert mpmath.mpf("1e-17") < lam - 1 < mpmath.mpf("1e-16") and value - kl > kl * mpmath.mpf("1e-34")
    r, gr = climb(*NEAR_ONE, at(lam, factor, 60), 60)
    assert r is not None
    with mpmath.workdps(ORACLE_DPS):
        assert abs(r - lam) <= (lam - 1) * mpmath.mpf("1e-6")
        assert abs(gr - value) <= value * mpmath.mpf("1e-40") and gr > kl


@pytest.mark.parametrize("dps,start", [(50, "1.001"), (50, "2.01"), (50, "2.1"), (60, "1.000001"), (60, "1.001")])
def test_randomized_response_has_no_maximiser_from_starts_where_rounding_meets_one(dps, start):
    """g decreases on (1, inf) (D* = KL = eps tanh(eps/2), the limit lambda -> 1+), checked on the
    oracle's grid; the climb down runs to lambda - 1 ~ 1e-26, where the working precision no longer
    gives the sign of h, and must still report the limit."""
    kl, peaks, valleys = oracle(*RR)
    assert peaks == [] and valleys == []
    with mpmath.workdps(dps):
        assert climb(*RR, mpmath.mpf(start), dps) == (None, None)
