"""Tests for bcdp.shuffle.kary_worst_pair: the worst-pair RDP of shuffled K-ary randomized response
(thesis Ch. 5, Sec. 5.2 (the shuffle model), eq. (5.18) (Poisson-multinomial)).

The reference is an independent brute force over *every* neighbouring pair: every count vector of
the n-1 unchanged users (no sorting, no c_0 >= c_1), every ordered pair of distinct symbols (x, x')
for the differing user, both directions, each law from the exact dataset by
:func:`bcdp.shuffle.finite_laws.shuffled_law` and each divergence by
:func:`bcdp.core.divergences.renyi_divergence`.  K = 2 is compared with the binary certified sup
(:func:`bcdp.shuffle.rr_all_pairs.rr_worst_pair_rdp_ball`).  Exactness: the oracle and the ball take
E = e^{eps0} rational (``exp_eps0``), so they are compared exactly; the float twin takes
math.log(E) (within an ulp of log E) and is compared with a relative tolerance; a ball at a decimal
eps0 >= log E is compared through the monotonicity of the curve in eps0 (K-RR at a smaller eps0 is
K-RR at a larger one followed by a K-RR channel, so every pair's divergence is non-decreasing).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import flint
import mpmath
import pytest
from bcdp.core.divergences import renyi_divergence
from bcdp.core.errors import CertificationError, FloatRefusedError, InvalidInputError
from bcdp.core.intervals import arb_precision
from bcdp.shuffle import kary_worst_pair as kw
from bcdp.shuffle.finite_laws import kary_rr_kernel, shuffled_law
from bcdp.shuffle.rr_all_pairs import rr_worst_pair_rdp_ball

DPS = 40


def _compositions(total, parts):
    if parts == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in _compositions(total - first, parts - 1):
            yield (first,) + rest


def dataset(c, x):
    """The n users: c_s users holding s, then the differing user holding x."""
    return [s for s, cs in enumerate(c) for _ in range(cs)] + [x]


def brute_force_all_pairs(n, K, E, alpha):
    """max over every neighbouring pair and both directions (mpmath, exact laws)."""
    kernel = kary_rr_kernel(K, exp_eps0=E)
    best = None
    for c in _compositions(n - 1, K):
        for x, xp in itertools.permutations(range(K), 2):
            P = shuffled_law(kernel, dataset(c, x))
            Q = shuffled_law(kernel, dataset(c, xp))
            for X, Y in ((P, Q), (Q, P)):
                v = renyi_divergence(X, Y, Fraction(alpha), dps=DPS + 10)
                best = v if best is None or v > best else best
    return best


def pair_value(n, K, E, alpha, c, direction):
    """D_alpha of the reported configuration (differing user 0 in D, 1 in D'), from shuffled_law."""
    kernel = kary_rr_kernel(K, exp_eps0=E)
    P = shuffled_law(kernel, dataset(c, 0))
    Q = shuffled_law(kernel, dataset(c, 1))
    if direction == "DprimeD":
        P, Q = Q, P
    return renyi_divergence(P, Q, Fraction(alpha), dps=DPS + 10)


def mp_ball(x, rel=mpmath.mpf(10) ** -(DPS - 5)):
    """An arb ball around an mpmath value (the oracle is correct to about DPS digits)."""
    with arb_precision(300):
        return flint.arb(mpmath.nstr(x, DPS + 5), float(abs(x) * rel))


CASES = [  # (n, K, E, alpha)
    (7, 3, Fraction(3), "3/2"), (6, 3, Fraction(2), 4), (5, 3, Fraction(20), 2),
    (5, 4, Fraction(3), "3/2"), (4, 4, Fraction(5, 2), 8), (3, 5, Fraction(2), "5/2"),
]


@pytest.fixture(scope="module")
def brute():
    with mpmath.workdps(DPS + 10):
        return {case: brute_force_all_pairs(*case) for case in CASES}


@pytest.mark.parametrize("case", CASES)
def test_exact_oracle_matches_brute_force_over_every_pair(case, brute):
    n, K, E, alpha = case
    v, (c, direction) = kw.kary_worst_pair_exact(n, K, E, alpha, dps=DPS)
    assert abs(v - brute[case]) <= mpmath.mpf(10) ** -(DPS - 3) * brute[case]
    # (c) the reported configuration attains it (recomputed from its datasets by shuffled_law)
    assert len(c) == K and sum(c) == n - 1
    assert abs(pair_value(n, K, E, alpha, c, direction) - brute[case]) <= mpmath.mpf(10) ** -(DPS - 3) * v


@pytest.mark.parametrize("case", CASES)
def test_ball_encloses_brute_force_and_its_pair_attains(case, brute):
    n, K, E, alpha = case
    ball, (c, direction), _ = kw.kary_worst_pair_ball(n, K, exp_eps0=E, alpha=alpha, with_pair=True)
    assert ball.rad() < 1e-25 * abs(ball.mid())
    assert ball.overlaps(mp_ball(brute[case]))
    assert mp_ball(pair_value(n, K, E, alpha, c, direction)).overlaps(ball)


@pytest.mark.parametrize("case", CASES)
def test_float_matches_brute_force_and_its_pair_attains(case, brute):
    n, K, E, alpha = case
    v, (c, direction) = kw.kary_worst_pair_float(n, K, math.log(E), float(Fraction(alpha)))
    assert v == pytest.approx(float(brute[case]), rel=1e-10)
    assert float(pair_value(n, K, E, alpha, c, direction)) == pytest.approx(v, rel=1e-10)


def test_ball_at_a_decimal_eps0_above_log3():
    """eps0 = 1.0986122886681099 > log 3 = 1.09861228866810969...: the sup is non-decreasing in eps0,
    so the ball's upper end is >= the exact value at log 3, and within 1e-15 of it."""
    n, K, alpha = 6, 3, "3/2"
    exact, _ = kw.kary_worst_pair_exact(n, K, 3, alpha, dps=DPS)
    with mpmath.workdps(60):
        assert mpmath.mpf("1.0986122886681099") > mpmath.log(3)
    ball = kw.kary_worst_pair_ball(n, K, "1.0986122886681099", alpha)
    assert ball.upper() >= mp_ball(exact).lower()
    assert abs(ball.mid() - mp_ball(exact).mid()) < 1e-15


@pytest.mark.parametrize("n,eps0,alpha", [(1, "1", "2"), (6, "0.5", "3/2"), (9, "1", "4"), (7, "3", "1.25")])
def test_k2_equals_the_binary_certified_sup(n, eps0, alpha):
    binary = rr_worst_pair_rdp_ball(n, eps0, alpha)
    ball, (c, direction), _ = kw.kary_worst_pair_ball(n, 2, eps0, alpha, with_pair=True)
    assert ball.overlaps(binary) and abs(ball.mid() - binary.mid()) <= 1e-25 * abs(binary.mid())
    v, _ = kw.kary_worst_pair_float(n, 2, float(eps0), float(Fraction(alpha)))
    assert v == pytest.approx(float(binary.mid()), rel=1e-10)


@pytest.mark.parametrize("n,K,eps0,alpha", [(8, 3, 1.0, 4.0), (6, 4, 0.3, 1.5), (5, 3, 4.0, 64.0),
                                            (4, 5, 2.0, 2.0)])
def test_ball_encloses_the_float_value(n, K, eps0, alpha):
    ball = kw.kary_worst_pair_ball(n, K, eps0, alpha)   # floats at their binary value
    v, _ = kw.kary_worst_pair_float(n, K, eps0, alpha)
    tol = 1e-12 * abs(v)                                 # float64 rounding of the float twin
    assert ball.lower() - tol <= v <= ball.upper() + tol


def test_reduced_configurations():
    confs = list(kw.reduced_configurations(5, 4))
    assert len(confs) == len(set(confs))
    assert all(sum(c) == 4 and c[0] >= c[1] and c[2] >= c[3] for c in confs)
    # every count vector is one of them up to swapping 0 <-> 1 and permuting 2..K-1
    canon = {(max(c[:2]), min(c[:2])) + tuple(sorted(c[2:], reverse=True)) for c in _compositions(4, 4)}
    assert canon == set(confs)


def test_eps0_zero_is_zero():
    assert kw.kary_worst_pair_float(5, 3, 0.0, 2.0)[0] == 0.0
    assert kw.kary_worst_pair_ball(5, 3, "0", "2").is_zero()
    assert kw.kary_worst_pair_exact(4, 3, 1, 2)[0] == 0


@pytest.mark.parametrize("call", [
    lambda: kw.kary_worst_pair_exact(4, 1, 3, 2),                  # K < 2
    lambda: kw.kary_worst_pair_exact(0, 3, 3, 2),                  # n < 1
    lambda: kw.kary_worst_pair_exact(4, 3, 3, 1),                  # alpha <= 1
    lambda: kw.kary_worst_pair_exact(4, 3, "1/2", 2),              # E < 1 (eps0 < 0)
    lambda: kw.kary_worst_pair_float(4, 3, -0.1, 2.0),
    lambda: kw.kary_worst_pair_float(4, 3, math.nan, 2.0),
    lambda: kw.kary_worst_pair_float(4, 3, 1.0, 1.0),
    lambda: kw.kary_worst_pair_float(4, 1, 1.0, 2.0),
    lambda: kw.kary_worst_pair_float(0, 3, 1.0, 2.0),
    lambda: kw.kary_worst_pair_float(4, 3, 1.0, math.nan),
    lambda: kw.kary_worst_pair_ball(4, 3, "-1", "2"),
    lambda: kw.kary_worst_pair_ball(4, 3, "1", "1"),
    lambda: kw.kary_worst_pair_ball(4, 3, math.nan, "2"),
    lambda: kw.kary_worst_pair_ball(4, 1, "1", "2"),
    lambda: kw.kary_worst_pair_ball(0, 3, "1", "2"),
    lambda: kw.kary_worst_pair_ball(4, 3, "1", "2", exp_eps0=3),   # both eps0 and exp_eps0
])
def test_bad_inputs(call):
    with pytest.raises(InvalidInputError) as info:
        call()
    assert "\n" not in str(info.value)


def test_exact_refuses_floats():
    with pytest.raises(FloatRefusedError):
        kw.kary_worst_pair_exact(4, 3, 3.0, 2)
    with pytest.raises(FloatRefusedError):
        kw.kary_worst_pair_exact(4, 3, 3, 1.5)


def test_float_underflow_is_charged_not_ignored():
    """Large eps0 (n = 25, eps0 = 30: (1/(E+2))^24 ~ e^-720): cells of M(D) fall below 1e-290; they are
    dropped and charged by a bound (reported, here negligible), and the value still matches the ball."""
    v, _, info = kw.kary_worst_pair_float(25, 3, 30.0, 2.0, return_info=True)
    assert -math.inf < info["max_log_neglected"] < math.log(1e-15)
    ball = kw.kary_worst_pair_ball(25, 3, 30.0, 2.0)
    assert ball.lower() - 1e-12 * v <= v <= ball.upper() + 1e-12 * v


@pytest.mark.parametrize("eps0", [680.0, 700.0])
def test_float_refuses_when_every_cell_underflows(eps0):
    """n = 1, K = 2: the laws are (1/(E+1), E/(E+1)) and its swap; at eps0 >= 680 the small cell is
    below 1e-290 (e^-680 ~ 5e-296), so no cell survives in both laws: a clear CertificationError,
    not a numpy reduction error."""
    assert math.exp(-eps0) < 1e-290
    with pytest.raises(CertificationError, match="underflow"):
        kw.kary_worst_pair_float(1, 2, eps0, 2.0)


@pytest.mark.parametrize("eps0", [700.5, 709.9, 710.0, 1e300])
def test_float_refuses_eps0_beyond_float_range_as_invalid_input(eps0):
    """eps0 > 700 is refused before e^eps0 is formed (math.exp overflows from ~709.78 on)."""
    with pytest.raises(InvalidInputError, match="outside what float64 resolves"):
        kw.kary_worst_pair_float(3, 3, eps0, 2.0)
