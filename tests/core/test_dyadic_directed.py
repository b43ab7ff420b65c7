"""Directed rounding of dyadic values in integers (:func:`bcdp.core.intervals._dyadic_directed`, the
fast path of :func:`float_up`, :func:`float_down` and :func:`outward_floats`).

Oracle: mpmath's own rounding of m 2^e to 53 bits with rounding mode ceiling / floor
(``mpmath.libmp.normalize``, arbitrary exponent range), converted to a float only where the result
is a normal float (exactly representable there), and the definition (smallest float >= x / largest
float <= x) checked with Fractions and ``math.nextafter``."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import flint
import mpmath
import pytest
from bcdp.core.intervals import _dyadic_directed, arb_precision, float_down, float_up, outward_floats
from mpmath.libmp import from_man_exp, to_float


def mp_directed(m: int, e: int, up: bool) -> float:
    return to_float(from_man_exp(m, e, 53, "c" if up else "f"))


def cases(seed: int, count: int):
    rng = random.Random(seed)
    for _ in range(count):
        bits = rng.choice([1, 2, 52, 53, 54, 55, 60, 64, 100, 200, 400])
        m = rng.getrandbits(bits) | (1 << (bits - 1))
        if rng.random() < 0.3:
            m = (m >> 8) << 8                    # low zero bits: exact after the cut
        m = -m if rng.random() < 0.5 else m
        e = rng.randint(-1000, 1000) - bits
        yield m, e


@pytest.mark.parametrize("up", [True, False])
def test_matches_mpmath_directed_rounding_in_the_normal_range(up):
    checked = 0
    for m, e in cases(2026 + up, 4000):
        top = e + abs(m).bit_length()
        got = _dyadic_directed(m, e, up)
        if -1020 <= top <= 1022:                 # result normal whatever the carry
            assert got == mp_directed(m, e, up), (m, e)
            q = Fraction(m) * Fraction(2) ** e
            assert (Fraction(got) >= q) if up else (Fraction(got) <= q)
            nxt = math.nextafter(got, -math.inf if up else math.inf)
            assert (Fraction(nxt) < q) if up else (Fraction(nxt) > q)
            checked += 1
    assert checked > 3000


@pytest.mark.parametrize("m,e,up,expected", [
    (2 ** 53 - 1, 0, True, float(2 ** 53 - 1)),           # 53 bits: exact, no cut
    (2 ** 54 - 1, 0, True, float(2 ** 54)),               # cut with a carry to 2^53 * 2
    (2 ** 54 - 1, 0, False, float(2 ** 54 - 2)),
    (-(2 ** 54 - 1), 0, True, -float(2 ** 54 - 2)),       # negative: floor is away from zero
    (-(2 ** 54 - 1), 0, False, -float(2 ** 54)),
    (2 ** 54, 0, True, float(2 ** 54)),                   # dropped bits all zero: no increment
    (1, -1022, False, 2.0 ** -1022),                      # the smallest normal float
    ((2 ** 53 - 1), 971, True, 1.7976931348623157e308),   # the largest float
    (0, 5, True, 0.0),
])
def test_boundary_values(m, e, up, expected):
    assert _dyadic_directed(m, e, up) == expected


@pytest.mark.parametrize("m,e,up", [
    (1, -1023, True),                     # subnormal
    (3, -1075, False),
    (2 ** 54 - 1, 970, True),             # rounds up to 2^1024: beyond the range
    (1, 1024, False),
])
def test_outside_the_normal_range_defers_to_the_general_path(m, e, up):
    assert _dyadic_directed(m, e, up) is None
    q = Fraction(m) * Fraction(2) ** e
    f = float_up(q) if up else float_down(q)   # the Fraction path: subnormal or +-inf / max float
    if up:
        assert Fraction(f) >= q if math.isfinite(f) else f == math.inf
    else:
        assert Fraction(f) <= q


def test_float_up_down_of_balls_and_fractions_agree_with_the_oracle():
    rng = random.Random(7)
    with arb_precision(200):
        for _ in range(500):
            x = flint.arb(rng.uniform(-1, 1)) * flint.arb(3).exp() / 7 + flint.arb(rng.randint(-9, 9))
            lo_f, hi_f = outward_floats(x)
            mid, rad = x.mid(), x.rad()
            m1, e1 = (int(v) for v in mid.man_exp())
            m2, e2 = (int(v) for v in rad.man_exp())
            lo_q = Fraction(m1) * Fraction(2) ** e1 - Fraction(m2) * Fraction(2) ** e2
            hi_q = Fraction(m1) * Fraction(2) ** e1 + Fraction(m2) * Fraction(2) ** e2
            assert Fraction(lo_f) <= lo_q < Fraction(math.nextafter(lo_f, math.inf))
            assert Fraction(math.nextafter(hi_f, -math.inf)) < hi_q <= Fraction(hi_f)
            assert float_up(mid) == float_up(Fraction(m1) * Fraction(2) ** e1)
            assert float_up(hi_q) == hi_f
