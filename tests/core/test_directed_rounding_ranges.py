"""float_up / float_down / outward_floats of exact values outside the normal float range: subnormal
results and results beyond the largest float take the general (Fraction) path after the integer fast
path declines; the answers are checked against the definition (smallest float >= x / largest float
<= x) with Fractions and ``math.nextafter``."""

from __future__ import annotations

import math
import sys
from fractions import Fraction

import flint
import pytest
from bcdp.core.intervals import arb_precision, float_down, float_up, outward_floats

BIG = sys.float_info.max


def up_ok(f: float, q: Fraction) -> bool:
    """f is the smallest float >= q (+inf when q exceeds the largest float)."""
    if f == math.inf:
        return q > Fraction(BIG)
    below = math.nextafter(f, -math.inf)
    return Fraction(f) >= q and (below == -math.inf or Fraction(below) < q)


def down_ok(f: float, q: Fraction) -> bool:
    """f is the largest float <= q (-inf when q is below the most negative float)."""
    if f == -math.inf:
        return q < -Fraction(BIG)
    above = math.nextafter(f, math.inf)
    return Fraction(f) <= q and (above == math.inf or Fraction(above) > q)


@pytest.mark.parametrize("m,e", [(3, -1075), (12345, -1090), (-7, -1080), (2 ** 60 + 1, -1130),
                                 (2 ** 53 + 1, 971), (-(2 ** 60 + 3), 970), (1, 1024), (5, -1200)])
def test_exact_arb_points_outside_the_normal_range(m, e):
    with arb_precision(200):
        x = flint.arb((m, e))                         # exact: the dyadic point m 2^e
        assert x.is_exact()
        q = Fraction(m) * Fraction(2) ** e
        up, down = float_up(x), float_down(x)
        assert isinstance(up, float) and isinstance(down, float)
        assert up_ok(up, q) and down_ok(down, q)
        assert float_up(q) == up and float_down(q) == down
        lo, hi = outward_floats(x)
        assert (lo, hi) == (down, up)


@pytest.mark.parametrize("mid_m,mid_e,rad_m,rad_e", [(3, -1075, 1, -1080), (5, 1021, 1, 1000),
                                                     (-5, 1021, 1, 1019), (7, -1100, 3, -1102),
                                                     (1, 0, 1, -1090), (3, 1022, 1, 1023),
                                                     (1, -1022, 1, -1023), (-3, 1022, 1, 1023)])
def test_balls_with_an_end_outside_the_normal_range(mid_m, mid_e, rad_m, rad_e):
    """The oracle is the ball's exact ends (midpoint and radius as arb reports them, read exactly with
    man_exp): outward_floats must round each end outward to the adjacent float."""
    with arb_precision(300):
        mid = flint.arb((mid_m, mid_e))
        x = flint.arb(mid, flint.arb((rad_m, rad_e)))
        m1, e1 = (int(v) for v in x.mid().man_exp())
        m2, e2 = (int(v) for v in x.rad().man_exp())
        centre, radius = Fraction(m1) * Fraction(2) ** e1, Fraction(m2) * Fraction(2) ** e2
        assert radius >= Fraction(rad_m) * Fraction(2) ** rad_e
        lo, hi = outward_floats(x)
        assert down_ok(lo, centre - radius) and up_ok(hi, centre + radius)


@pytest.mark.parametrize("den", [1, 2, 3, 5, 6, 7, 10, 12, 15, 16, 1024, 3 * 2 ** 60, 2 ** 70 - 1])
@pytest.mark.parametrize("num", [1, -1, 7, 2 ** 80 + 3, -(3 ** 50)])
def test_fractions_of_every_kind_of_denominator(num, den):
    """Dyadic denominators take the integer fast path, the others the Fraction path: both must give the
    adjacent floats of the exact value."""
    q = Fraction(num, den)
    assert up_ok(float_up(q), q) and down_ok(float_down(q), q)
