"""The Ch. 5 baselines on arb balls (bcdp.accounting.certified_floats / clones / composition).

Every reference is computed here with mpmath at 60 digits from the printed formulas (FMT21 Thm 3.1
and the authors' ``closedformanalysis`` expression; KOV15 closed form; Dwork-Rothblum-Vadhan
advanced composition; the hockey-stick of T-fold randomized response as a direct binomial sum; the
FMT21 Thm 3.2 clone pair by brute-force enumeration), independently of the module.  The cases
include eps0 = 1e-20 and 2^-66, where mpmath 1.3's 160-bit ``iv.exp`` returns an enclosure that
excludes the truth (mpmath issue #1181), and the former rounding of the certified floats
(``outward_by_one_ulp``: an mpmath ``float()`` of each end, i.e. truncation toward zero, then one ulp
outward) is checked against mpmath itself.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import mpmath as mp
import pytest
from bcdp.checks.thesis.baseline_clones_and_kov import bf_clone_pair, hockey
from bcdp.core.intervals import arb_precision, ball_of
from bcdp.accounting.certified_floats import IV_PREC, exact_ends, outward_by_one_ulp
from bcdp.accounting.amplification import advanced_composition, clones_closed_form, clones_closed_form_cap
from bcdp.shuffle.clones import clone_pair_delta
from bcdp.shuffle.composition import kov_closed_form, kov_delta

DPS = 60
TINY = 1e-20
ULPS4 = mp.mpf(2) ** -50          # four ulps, relative


def ref_closed_form(eps0: float, n: int, delta: float, variant: str) -> mp.mpf:
    """FMT21 Thm 3.1 (variant "theorem-3.1") or the authors' expression ("author-code"), 60 digits;
    e^eps0 - 1 and 1 - e^-eps0 through expm1 so that a tiny eps0 loses nothing."""
    with mp.workdps(DPS):
        e0, d = mp.mpf(eps0), mp.mpf(delta)
        E = mp.exp(e0)
        a = 8 * mp.sqrt(E * mp.log(4 / d) / n)
        c = 8 * E / n
        if variant == "theorem-3.1":
            return mp.log1p(mp.expm1(e0) / (E + 1) * (a + c))
        e1 = mp.log1p(a + c)
        return mp.log1p(-mp.expm1(-e0) / (1 + mp.exp(-e0 - e1)) * (a + c))


@pytest.mark.parametrize("variant", ["author-code", "theorem-3.1"])
@pytest.mark.parametrize("eps0,n,delta", [(0.5, 10**4, 1e-6), (4.0, 10**5, 1e-6), (TINY, 10**4, 1e-6),
                                          (2.0 ** -66, 10**6, 1e-8), (1.0, 10**7, 1e-12)])
def test_closed_form_is_a_tight_upper_bound(variant, eps0, n, delta):
    ref = ref_closed_form(eps0, n, delta, variant)
    got = clones_closed_form(eps0, n, delta, variant=variant)
    with mp.workdps(DPS):
        assert ref <= mp.mpf(got) <= ref * (1 + ULPS4)


@pytest.mark.parametrize("n,delta", [(10**4, 1e-6), (10**6, 1e-8), (200, 0.5)])
def test_closed_form_cap_is_a_tight_lower_bound(n, delta):
    with mp.workdps(DPS):
        cap = mp.log(n / (16 * mp.log(2 / mp.mpf(delta))))
        got = mp.mpf(clones_closed_form_cap(n, delta))
        assert cap - abs(cap) * ULPS4 <= got <= cap


@pytest.mark.parametrize("eps,delta,T,dt", [(0.05, 1e-10, 1000, 1e-6), (TINY, 0.0, 10**5, 1e-9),
                                            (2.0 ** -66, 1e-12, 7, 0.5), (1.0, 1e-6, 3, 1.0)])
def test_kov_closed_form_and_advanced_composition_are_upper_bounds(eps, delta, T, dt):
    ub, d_tot = kov_closed_form(eps, delta, T, dt)
    ac_eps, ac_delta = advanced_composition(eps, delta, T, min(dt, 0.5))
    with mp.workdps(DPS):
        e, d, t = mp.mpf(eps), mp.mpf(delta), mp.mpf(dt)
        base = T * e * mp.expm1(e) / (mp.exp(e) + 1)
        kov = min(T * e, base + e * mp.sqrt(2 * T * mp.log(mp.e + mp.sqrt(T * e * e) / t)),
                  base + e * mp.sqrt(2 * T * -mp.log(t)))
        kov_d = 1 - (1 - d) ** T * (1 - t)
        assert kov <= mp.mpf(ub) <= kov * (1 + ULPS4)
        assert kov_d <= mp.mpf(d_tot) and (mp.mpf(d_tot) <= kov_d * (1 + ULPS4) or d_tot == 1.0)
        dp = mp.mpf(min(dt, 0.5))
        adv = mp.sqrt(2 * T * -mp.log(dp)) * e + T * e * mp.expm1(e)
        assert adv <= mp.mpf(ac_eps) <= adv * (1 + ULPS4)
        assert T * d + dp <= mp.mpf(ac_delta) <= (T * d + dp) * (1 + ULPS4)


def ref_kov_delta(eps: float, delta: float, T: int, eps_total: float) -> mp.mpf:
    """1 - (1-delta)^T (1 - delta_RR), delta_RR the hockey-stick of T-fold eps-RR at e^{eps_total}:
    sum over l flips of C(T,l) q^l (1-q)^{T-l} max(0, 1 - e^{eps_total - (T-2l) eps}), q = 1/(1+e^eps)."""
    with mp.workdps(DPS):
        e, et = mp.mpf(eps), mp.mpf(eps_total)
        q = 1 / (1 + mp.exp(e))
        rr = mp.fsum(mp.binomial(T, k) * q ** k * (1 - q) ** (T - k) * max(0, -mp.expm1(et - (T - 2 * k) * e))
                     for k in range(T + 1))
        return 1 - (1 - mp.mpf(delta)) ** T * (1 - rr)


@pytest.mark.parametrize("eps,delta,T,eps_total", [(0.3, 1e-8, 30, 1.0), (0.3, 0.0, 30, 0.0), (TINY, 0.0, 40, 0.0),
                                                   (2.0 ** -66, 1e-9, 12, 2.0 ** -64), (1.0, 1e-3, 5, 2.5)])
def test_kov_delta_encloses_the_binomial_sum(eps, delta, T, eps_total):
    ref = ref_kov_delta(eps, delta, T, eps_total)
    res = kov_delta(eps, delta, T, eps_total)
    with mp.workdps(DPS):
        assert mp.mpf(res.lower) <= ref <= mp.mpf(res.upper)
        assert mp.mpf(res.upper) - mp.mpf(res.lower) <= ULPS4 * ref + mp.mpf(10) ** -300


@pytest.mark.parametrize("eps0,n", [(TINY, 6), (2.0 ** -66, 20), (0.7, 12)])
def test_clone_pair_delta_encloses_brute_force_at_tiny_eps0(eps0, n):
    with mp.workdps(DPS):
        P, Q = bf_clone_pair(n, eps0)
        for eps in (0.0, eps0 / 2):
            exact = hockey(P, Q, mp.exp(mp.mpf(eps)))
            lo, hi = clone_pair_delta(eps0, n, eps)
            assert mp.mpf(lo) <= exact <= mp.mpf(hi)


def test_outward_by_one_ulp_reproduces_the_former_mpmath_rounding():
    """For exact balls the ends are known exactly; mpmath's float() of the same 160-bit point (the
    former rule) must give the same floats, and the floats must enclose the value."""
    rng = random.Random(1181)
    iv = mp.iv
    saved = iv.prec
    iv.prec = IV_PREC
    try:
        for _ in range(400):
            q = Fraction(rng.getrandbits(120) | 1, 1 << rng.randrange(100, 260)) * rng.choice((1, -1))
            with arb_precision(IV_PREC):
                b = ball_of(q)
            assert b.is_exact() and exact_ends(b) == (q, q)
            point = iv.mpf(q.numerator) / q.denominator          # exact: 120-bit mantissa <= 160 bits
            old = (math.nextafter(float(point.a), -math.inf), math.nextafter(float(point.b), math.inf))
            new = outward_by_one_ulp(b)
            assert new == old
            assert Fraction(new[0]) <= q <= Fraction(new[1])
    finally:
        iv.prec = saved
