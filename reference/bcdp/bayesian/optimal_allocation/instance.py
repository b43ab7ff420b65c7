"""The instance of the optimal-allocation problem and its pieces in t (steps 2 and 3 of the method).

BCDP paper (arXiv:2410.18404), Sec. 4, Theorem 2 and eqs. (16)-(17); method and proofs in
:mod:`bcdp.bayesian.optimal_allocation`.  :class:`Instance` holds the distinct levels of delta~ and
L(t) = log(1 + q (e^t - 1)) in float form (for the search) and in interval form (certificates);
:class:`Piece` is the reduced problem on one piece t in [l_j, l_{j+1}] with its root box and the
outward-rounded box propagation.

Rigorous arithmetic uses the one interval backend :mod:`bcdp.core.intervals` (arb balls of
python-flint at :func:`~bcdp.core.intervals.arb_precision`, exact endpoints, directed rounding to
floats); the helpers below only convert between Fractions and arb balls.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

from bcdp.core.intervals import (
    arb_precision,
    ball_ends,
    ball_of,
    float_down,
    float_up,
)

#: The largest number of extra bits :func:`cancellation_bits` asks for.
MAX_EXTRA_BITS = 4000


def cancellation_bits(x: Any) -> int:
    """Extra working bits for the cancellation in e^x - 1 when 0 < |x| << 1.

    About log2(1/|x|) bits are lost there; the enclosures stay valid without them, only wider.
    """
    ax = abs(float(x))
    if 0 < ax < 1:
        return min(MAX_EXTRA_BITS, -math.frexp(ax)[1])
    if ax == 0 and x != 0:  # below the float range
        return MAX_EXTRA_BITS
    return 0


def ball_rational(x: Fraction | float) -> Any:
    """An arb ball (at the current arb precision) enclosing the exact value x (a float is exact)."""
    return ball_of(x if isinstance(x, float) else Fraction(x))


def mpf_fraction(x: mpmath.mpf) -> Fraction:
    """The exact value of a finite mpf as a Fraction (ArithmeticError for inf/nan)."""
    if not mpmath.isfinite(x):
        raise ArithmeticError("non-finite interval endpoint")
    man, exp = x.man_exp  # |x| = man * 2**exp (man_exp drops the sign)
    out = Fraction(man) * Fraction(2) ** exp
    return -out if x < 0 else out


def lower_fraction(enc: Any) -> Fraction:
    """The exact lower endpoint mid - rad of an arb ball, as a Fraction (at any arb precision)."""
    return ball_ends(enc)[0]


def upper_fraction(enc: Any) -> Fraction:
    """The exact upper endpoint mid + rad of an arb ball, as a Fraction (at any arb precision)."""
    return ball_ends(enc)[1]


def fraction_float_down(x: Fraction) -> float:
    """The largest float <= x (exact directed rounding, :func:`bcdp.core.intervals.float_down`)."""
    return float_down(Fraction(x))


def fraction_float_up(x: Fraction) -> float:
    """The smallest float >= x (exact directed rounding, :func:`bcdp.core.intervals.float_up`)."""
    return float_up(Fraction(x))


class Instance:
    """Sorted capped demands delta~ grouped into levels l_1 < ... < l_m (counts n_g), and the dependence q."""

    def __init__(self, tilde_sorted: list[Fraction], q: Fraction):
        self.d = len(tilde_sorted)
        self.q = q
        self.qf = float(q)
        levels: list[Fraction] = []
        counts: list[int] = []
        for v in tilde_sorted:
            if levels and levels[-1] == v:
                counts[-1] += 1
            else:
                levels.append(v)
                counts.append(1)
        self.levels, self.counts = levels, counts
        self.m = len(levels)

    # float versions (search only; overflow-safe for large t)
    def L(self, t: float) -> float:
        q = self.qf
        if q <= 0:
            return 0.0
        if q >= 1:
            return t
        if t > 30:
            return t + math.log(q + (1 - q) * math.exp(-t))
        return math.log1p(q * math.expm1(t))

    def Lp(self, t: float) -> float:
        q = self.qf
        if q <= 0:
            return 0.0
        if q >= 1:
            return 1.0
        em = math.exp(-t)
        return q / (q + (1 - q) * em)

    def Lpp(self, t: float) -> float:
        q = self.qf
        if q <= 0 or q >= 1:
            return 0.0
        em = math.exp(-t)
        return q * (1 - q) * em / (q + (1 - q) * em) ** 2

    def Linv(self, v: float) -> float:
        """L^{-1}(v) = log(1 + (e^v - 1)/q) (inf if q underflows to 0)."""
        q = self.qf
        if q <= 0:
            return math.inf
        if q >= 1:
            return v
        if v > 30:
            return v + math.log(-math.expm1(-v) / q + math.exp(-v))
        return math.log1p(math.expm1(v) / q)

    # ball versions (certificates), at the current arb precision
    def ball_L(self, t: Any) -> Any:
        if self.q == 0:
            return ball_of(0)
        if self.q == 1:
            return t
        return (1 + ball_rational(self.q) * (t.exp() - 1)).log()

    def ball_Linv(self, v: Any) -> Any:
        """L^{-1}(v) = log(1 + (e^v - 1)/q) for q > 0."""
        if self.q == 1:
            return v
        return (1 + (v.exp() - 1) / ball_rational(self.q)).log()

    def clip_up(self, level: Fraction, t_lo: float) -> float:
        """A float >= level - L(t_lo)."""
        with arb_precision(64 + cancellation_bits(t_lo)):
            return float_up(upper_fraction(ball_rational(level) - self.ball_L(ball_of(t_lo))))

    def tmax_up(self, level: Fraction, lo: float) -> float:
        """A float >= L^{-1}(level - lo) (q > 0, level >= lo)."""
        v = Fraction(level) - Fraction(lo)
        with arb_precision(64 + cancellation_bits(v)):
            return float_up(upper_fraction(self.ball_Linv(ball_rational(v))))

    def cut_offset(self, t_lo: float, t_hi: float, a: Fraction) -> Fraction:
        """A rational m <= min_{t in [t_lo, t_hi]} (L(t) - a t)  (tangent at the midpoint)."""
        if self.q == 1 and a == 1:
            return Fraction(0)
        t0 = (Fraction(t_lo) + Fraction(t_hi)) / 2
        w = (Fraction(t_hi) - Fraction(t_lo)) / 2
        with arb_precision(96 + cancellation_bits(t0)):
            ti = ball_rational(t0)
            qi = ball_rational(self.q)
            et = ti.exp()
            Lp = qi * et / (1 + qi * (et - 1))
            diff = Lp - ball_rational(a)
            slack = max(abs(lower_fraction(diff)), abs(upper_fraction(diff))) * w
            return lower_fraction(self.ball_L(ti) - ball_rational(a) * ball_rational(t0)) - slack


class Piece:
    """Piece j >= 1: variables z = (x_1..x_j, t); see the module docstring, step 2."""

    def __init__(self, inst: Instance, j: int):
        self.inst, self.j, self.p = inst, j, j + 1
        n = list(inst.counts[:j]) + [sum(inst.counts[j:])]
        self.n_int = n
        self.N_int = [sum(n[g:]) for g in range(self.p)]
        self.n = np.array(n, dtype=float)
        self.N = np.array(self.N_int, dtype=float)
        self.ell = list(inst.levels[:j])                   # exact bounds l_g, g < j
        self.ellf = [float(v) for v in self.ell]
        self.t_lo_exact = inst.levels[j - 1]
        self.t_hi_exact = inst.levels[j]
        self.has_cuts = inst.q > 0

    # -- float objective on the reduced problem
    def F(self, z: np.ndarray) -> float:
        D = np.diff(z, prepend=0.0)
        S = np.cumsum(D * D / self.N)
        if np.any(S <= 0):
            return math.inf
        return float(np.sum(self.n / S))

    def root_box(self) -> tuple[list[float], list[float]] | None:
        inst = self.inst
        t_lo = fraction_float_down(self.t_lo_exact)
        t_hi = fraction_float_up(self.t_hi_exact)
        if inst.q == 0 and self.j == inst.m - 1:
            t_lo = fraction_float_down(self.t_hi_exact)     # q = 0: t = l_m (dominance, step 2)
        lo = [0.0] * self.p
        hi = [fraction_float_up(v) for v in self.ell] + [t_hi]
        lo[-1] = t_lo
        return self.propagate(lo, hi)

    def propagate(self, lo: list[float], hi: list[float]):
        """Shrink the box to contain the same feasible points (outward-rounded); None if empty."""
        inst, p, j = self.inst, self.p, self.j
        lo, hi = list(lo), list(hi)
        for _ in range(3):
            for g in range(p - 2, -1, -1):
                hi[g] = min(hi[g], hi[g + 1])
            lo[0] = max(lo[0], 0.0)
            for g in range(1, p):
                lo[g] = max(lo[g], lo[g - 1])
            t_lo = lo[-1]
            if inst.q > 0:
                Lf = inst.L(t_lo)
                for g in range(j):
                    approx = self.ellf[g] - Lf
                    if approx < hi[g] - 1e-12 * abs(approx):        # float pre-check only
                        hi[g] = min(hi[g], inst.clip_up(self.ell[g], t_lo))
                for g in range(j):
                    if Fraction(lo[g]) > self.ell[g]:
                        return None
                    approx = inst.Linv(self.ellf[g] - lo[g])
                    if approx < hi[-1] - 1e-12 * abs(approx):
                        hi[-1] = min(hi[-1], inst.tmax_up(self.ell[g], lo[g]))
            if any(lo[k] > hi[k] for k in range(p)):
                return None
        return lo, hi

