"""Mutation kills for bcdp.shuffle.subsampled.thm541_poisson_float (the sound Poisson route (*)).

Independent reference, written here at 60 digits with mpmath:
* the thesis' Thm 5.4.1 (Sec. 5.4, subsampled shuffle, upper bound), from its printed statement
  (1 + 4 C(a,2) g^2 (E-1)^2/(kbar E) + sum_{j=3}^a C(a,j) g^j j Gamma(j/2) (2(E^2-1)^2/(kbar E^2))^{j/2}
  + ((1+g c)^a - 1 - a g c) e^{-(k-1)/(8E)}), kbar = floor((k-1)/(2E)) + 1, c = E - 1/E, g = k/n;
* the documented contract of the float function (its docstring): identity (*) of the module
  docstring summed over t in the window [floor(n g - w sd), ceil(n g + w sd)] clipped to [0, n],
  sd = sqrt(n g (1-g)), w = window_sd or max(15, sqrt(2((max alpha - 1) eps0 + 50))), each moment
  capped at e^{(a-1) eps0}, t = 0 contributing 1, and the Bin(n, g) mass outside the window charged
  e^{(a-1) eps0}.  The cases are chosen where the window and the tail charge matter (a Poisson-like
  regime with a tiny mean, a narrow explicit window), so that the window's ends are pinned."""

import math

import mpmath
import numpy as np
import pytest
from bcdp.core.errors import InvalidInputError
from bcdp.shuffle import subsampled as sr

DPS = 60


def _thm541_moment(n, k, e0, a):
    """exp((a-1) eps_U) of thesis Thm 5.4.1 at (n, k): the printed bracket, at DPS digits."""
    E = mpmath.exp(e0)
    g = mpmath.mpf(k) / n
    c = E - 1 / E
    kbar = mpmath.floor((k - 1) / (2 * E)) + 1
    quad = 4 * mpmath.binomial(a, 2) * g ** 2 * (E - 1) ** 2 / (kbar * E)
    y = 2 * (E ** 2 - 1) ** 2 / (kbar * E ** 2)
    s = mpmath.fsum(mpmath.binomial(a, j) * g ** j * j * mpmath.gamma(mpmath.mpf(j) / 2) * y ** (mpmath.mpf(j) / 2)
                    for j in range(3, a + 1))
    ups = ((1 + g * c) ** a - 1 - a * g * c) * mpmath.exp(-(k - 1) / (8 * E))
    return 1 + quad + s + ups


def _oracle(n, g, e0, alphas, window_sd=None):
    with mpmath.workdps(DPS):
        gm, e = mpmath.mpf(g), mpmath.mpf(e0)
        if window_sd is None:
            window_sd = max(15.0, math.sqrt(2 * ((max(alphas) - 1) * e0 + 50)))
        mean, sd = n * gm, mpmath.sqrt(n * gm * (1 - gm))
        lo = max(0, int(mpmath.floor(mean - window_sd * sd)))
        hi = min(n, int(mpmath.ceil(mean + window_sd * sd)))
        out = []
        for a in alphas:
            cap = mpmath.exp((a - 1) * e)
            inside, mass = mpmath.mpf(0), mpmath.mpf(0)
            for t in range(lo, hi + 1):
                w = mpmath.binomial(n, t) * gm ** t * (1 - gm) ** (n - t)
                mass += w
                inside += w * (1 if t == 0 else min(_thm541_moment(n, t, e, a), cap))
            total = inside + (1 - mass) * cap
            out.append(mpmath.log(total) / (a - 1))
        return out, (lo, hi)


def _check(n, g, e0, alphas, window_sd=None, rtol=1e-9):
    got = sr.thm541_poisson_float(n, g, e0, alphas, window_sd=window_sd)
    ref, _ = _oracle(n, g, e0, list(alphas), window_sd)
    assert got.shape == (len(alphas),)
    for x, r in zip(got, ref):
        assert abs(x - float(r)) <= rtol * float(r), (n, g, e0, alphas, window_sd, x, r)


def test_poisson_float_tiny_mean_default_window_charges_the_far_tail():
    # n g = 1: sd ~ 1, the default window is [0, 16]; P(T > 16) is charged e^{(a-1) eps0}, which at
    # eps0 = 5, a = 6 (cap e^25) dominates the moment: the window's upper end is pinned
    _check(200, 0.005, 5.0, [2, 6])
    _check(200, 0.005, 1.0, [3])
    # n g = 0.1, sd = 0.316: 15 sd gives the window [0, 5], 16 sd would give [0, 6]; P(T = 6) ~ 1e-9
    # charged e^{(a-1) eps0} instead of the Thm 5.4.1 moment is visible at a = 2
    _check(1000, 1e-4, 3.0, [2, 6])


def test_poisson_float_default_window_grows_with_the_largest_order():
    # (max a - 1) eps0 = 80 > 62.5: the default window is sqrt(2 (80 + 50)) = 16.12 sd, not 15
    _check(300, 1 / 300, 4.0, [2, 21])
    _check(300, 0.01, 4.0, [21, 3])
    _check(100, 0.02, 3.0, [2, 30])
    # max a = 36, eps0 = 2: w = sqrt(2 (70 + 50)) = 15.49 sd, window [0, 5] at n g = 0.1 (sqrt(2 (70 + 51))
    # would reach 6)
    _check(1000, 1e-4, 2.0, [2, 36])


def test_poisson_float_narrow_explicit_window_lower_end_and_cap():
    # window_sd = 1 around n g = 30: lo > 0, the mass below the window is charged too
    _check(60, 0.5, 1.0, [2, 3, 6], window_sd=1.0)
    # lo = 1 exactly: the mass at t = 0 is charged (window [1, ...])
    _check(40, 0.1, 2.0, [2, 4], window_sd=1.5)
    # large gamma and eps0: the Thm 5.4.1 moment exceeds the cap e^{(a-1) eps0} for large t
    _check(60, 0.9, 3.0, [2, 6], window_sd=100)


def test_poisson_float_edges_eps0_zero_and_infinite_and_float_n():
    z = sr.thm541_poisson_float(50, 0.3, 0.0, [2, 3, 4])
    assert z.shape == (3,) and np.all(z == 0.0)
    inf = sr.thm541_poisson_float(50, 0.3, math.inf, [2, 5])
    assert inf.shape == (2,) and np.all(np.isposinf(inf))
    # the float twin takes an integral float count (documented float policy of the twins)
    assert np.array_equal(sr.thm541_poisson_float(60.0, 0.25, 1.0, [2, 3]),
                          sr.thm541_poisson_float(60, 0.25, 1.0, [2, 3]))
    with pytest.raises(InvalidInputError):
        sr.thm541_poisson_float(60.5, 0.25, 1.0, [2])


def test_regression_poisson_float_excess_not_lost_to_rounding_of_the_binomial_weights():
    # Defect (fixed): the mixture sum_t Bin(t) M_t was summed in log space, so the rounding of scipy's
    # Bin(n, gamma) weights (at n = 10^6, gamma = 1e-6 they sum to 1 - 7e-11) swamped an excess of
    # ~3e-11 and the "bound" came out as 0.0 (and 0.16% low at eps0 = 5), below the Thm 5.4.1
    # mixture it claims to bound.  Now 1 + sum_t Bin(t) (M_t - 1) with the 1 added exactly.
    got = sr.thm541_poisson_float(10**6, 1e-6, 1.0, [3])[0]
    ref, _ = _oracle(10**6, 1e-6, 1.0, [3])
    assert got > 0.0
    assert abs(got - float(ref[0])) <= 1e-9 * float(ref[0])
    _check(10**6, 1e-6, 5.0, [2, 6])
