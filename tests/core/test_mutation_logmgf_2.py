"""bcdp.core.divergences.LogMgf pinned against the printed formulas at several arguments.

LogMgf is the log-moment generating function of the privacy loss l_y = log(P(y)/Q(y)) under Q,

    K(lam) = log sum_{P(y)>0} Q(y) e^{lam l_y} = log sum_{P(y)>0} P(y)^lam Q(y)^(1-lam) = (lam-1) D_lam(P||Q)

(Renyi divergence of order lam: partial DP paper, Sec. 2, Def. 2; Mironov 2017, Def. 3), with
K'(1) = KL(P||Q), K' = the mean and K'' = the variance of l under the tilted law
pi_lam(y) = P(y)^lam Q(y)^(1-lam) / sum_y P(y)^lam Q(y)^(1-lam).  The partial DP package certifies
D* = sup_lam D_lam / lam (partial DP paper, Def. 2-3) with it: point/derivs give K, K', K'' and
curvature_bound gives V >= sup_{[a, b]} K''.

The references here are independent of the code: K from the printed sum P^lam Q^(1-lam) at 100
digits, K' and K'' by mpmath's numerical differentiation of that K (not the tilted-moment formulas
the code uses), the tilted law from its definition, and the curvature bound both from the formula
printed in its docstring and, as a property, checked >= K''(lam) on a grid of [a, b].  The tests
kill the survivors of the mutmut gate (docs/testing.md, "The mutation gate") in LogMgf.
"""

from __future__ import annotations

from fractions import Fraction as F

import mpmath
import pytest

from bcdp.core.divergences import LogMgf

# P has a zero where Q does not (that output must be left out); the ratios are all different and
# log Q is largest in absolute value at y = 2.
P = (F(0), F(1, 6), F(1, 3), F(1, 2))
Q = (F(1, 5), F(1, 5), F(1, 8), F(19, 40))
LAMS = (F(1), F(2), F(7, 2), F(10), F(1, 2))
REF_DPS = 100
WORK_DPS = 60
TOL = mpmath.mpf(10) ** -50


def mp(x: F) -> mpmath.mpf:
    return mpmath.mpf(x.numerator) / x.denominator


def K_ref(lam):
    """log sum_{P(y)>0} P(y)^lam Q(y)^(1-lam), the printed formula."""
    return mpmath.log(mpmath.fsum(mp(p) ** lam * mp(q) ** (1 - lam) for p, q in zip(P, Q) if p > 0))


def close(x, y) -> bool:
    return abs(x - y) <= TOL * (1 + abs(y))


def model() -> LogMgf:
    with mpmath.workdps(WORK_DPS):
        return LogMgf(P, Q)


def test_point_and_derivs_match_K_and_its_derivatives_at_several_orders():
    m = model()
    for lam in LAMS:
        with mpmath.workdps(WORK_DPS):
            k0, k1, k2, pi = m.point(mp(lam))
            d = m.derivs(mp(lam))
        with mpmath.workdps(REF_DPS):
            lam_m = mp(lam)
            ref0 = K_ref(lam_m)
            ref1 = mpmath.diff(K_ref, lam_m)
            ref2 = mpmath.diff(K_ref, lam_m, 2)
            weights = [mp(p) ** lam_m * mp(q) ** (1 - lam_m) for p, q in zip(P, Q) if p > 0]
            ref_pi = [w / mpmath.fsum(weights) for w in weights]
            assert close(k0, ref0), (lam, k0, ref0)
            assert close(k1, ref1), (lam, k1, ref1)
            assert close(k2, ref2), (lam, k2, ref2)
            assert len(pi) == len(ref_pi) == 3
            assert all(close(a, b) for a, b in zip(pi, ref_pi)), (lam, pi, ref_pi)
            # derivs is exactly (K, K', K'') of point
            assert len(d) == 3
            assert all(close(a, b) for a, b in zip(d, (ref0, ref1, ref2)))
    # K(1) = 0 and K'(1) = KL (hand check of the oracle itself)
    with mpmath.workdps(REF_DPS):
        assert abs(K_ref(mpmath.mpf(1))) < TOL
        kl = mpmath.fsum(mp(p) * mpmath.log(mp(p) / mp(q)) for p, q in zip(P, Q) if p > 0)
        assert close(mpmath.diff(K_ref, 1), kl)


def test_point_is_cached_per_argument():
    """The docstring promises a cache: the same argument gives back the same tuple object, a
    different argument a different one."""
    m = model()
    with mpmath.workdps(WORK_DPS):
        first = m.point(mpmath.mpf(3))
        assert first is not None
        assert m.point(mpmath.mpf(3)) is first
        assert m.point(mpmath.mpf(4)) is not first


def test_attributes_kl_ell_range_and_scale():
    """kl = sum P log(P/Q), ell_max / ell_min = max / min log(P/Q) over supp P, scale = 1 + max|l_y| +
    max|log Q(y)| over supp P (as documented in the class); the output with P(y) = 0 (Q(y) = 1/5) is
    left out everywhere."""
    m = model()
    with mpmath.workdps(REF_DPS):
        ell = [mpmath.log(mp(p) / mp(q)) for p, q in zip(P, Q) if p > 0]
        logq = [mpmath.log(mp(q)) for p, q in zip(P, Q) if p > 0]
        kl = mpmath.fsum(mp(p) * mpmath.log(mp(p) / mp(q)) for p, q in zip(P, Q) if p > 0)
        assert close(m.kl, kl)
        assert close(m.ell_max, mpmath.log(mpmath.mpf(8) / 3))   # y = 2: (1/3)/(1/8)
        assert close(m.ell_min, mpmath.log(mpmath.mpf(5) / 6))   # y = 1: (1/6)/(1/5)
        assert close(m.ell_max, max(ell)) and close(m.ell_min, min(ell))
        assert close(m.scale, 1 + max(abs(x) for x in ell) + max(abs(x) for x in logq))
        assert len(m.ell) == len(m.logq) == 3


def curvature_ref(a, b):
    """V = sum_y pi_a(y) (l_y - c)^2 max(1, e^{(b-a)(l_y - c)}), c = K'(a) (the docstring's formula),
    with pi_a from its definition and c by numerical differentiation of K."""
    c = mpmath.diff(K_ref, a)
    pairs = [(mp(p), mp(q)) for p, q in zip(P, Q) if p > 0]
    weights = [p ** a * q ** (1 - a) for p, q in pairs]
    z = mpmath.fsum(weights)
    return mpmath.fsum(w / z * (mpmath.log(p / q) - c) ** 2 * max(1, mpmath.exp((b - a) * (mpmath.log(p / q) - c)))
                       for w, (p, q) in zip(weights, pairs))


@pytest.mark.parametrize("a, b", [(F(2), F(3)), (F(1), F(5, 2)), (F(7, 2), F(10)), (F(1, 2), F(1))])
def test_curvature_bound_is_the_printed_bound_and_bounds_K2_on_the_interval(a, b):
    m = model()
    with mpmath.workdps(WORK_DPS):
        v = m.curvature_bound(mp(a), mp(b))
    with mpmath.workdps(REF_DPS):
        am, bm = mp(a), mp(b)
        assert close(v, curvature_ref(am, bm)), (a, b, v)
        # the property it exists for: V >= K''(lam) on [a, b] (11 points, ends included)
        for k in range(11):
            lam = am + (bm - am) * k / 10
            assert v >= mpmath.diff(K_ref, lam, 2) - TOL
        # b > a and some l_y exceeds K'(a), so the factor e^{(b-a)(l_y-c)} > 1 makes V > K''(a)
        assert v > mpmath.diff(K_ref, am, 2)
