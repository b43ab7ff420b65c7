"""Thesis Lemma 4.3.3 ([SZ13] last-iterate SGD bound, Sec. 4.3.1.3) and a 1-d instance to test it on.

**Printed (thesis Lemma 4.3.3, eq. (4.7)).**  F convex on a convex set C of diameter D; projected SGD
theta_{t+1} = Pi_C(theta_t - eta_t g_t) with E[g_t | theta_t] a (sub)gradient of F at theta_t and
E||g_t||^2 <= G^2; with eta_t = D/(G sqrt(t)):

    E[F(theta_T)] - F(theta*) <= 2 D G (2 + log T) / sqrt(T).

Indexing as in [SZ13] (Shamir, Zhang, "Stochastic gradient descent for non-smooth optimization",
ICML 2013, Thm 2, with c = D/G): theta_1 in C arbitrary, updates t = 1, ..., T - 1, theta_T is the
last iterate (T - 1 stochastic gradients).

**Instance (absolute loss).**  f(theta; xi) = |theta - xi| on C = [lo, hi], xi drawn from a finite law
(support, probs); F(theta) = E|theta - xi| is convex and 1-Lipschitz, so G = 1 and D = hi - lo; the
stochastic subgradient is sign(theta - xi) (0 at theta = xi, a valid subgradient), and its mean is
a subgradient of F.  F* = F(median), the minimum over C.

* :func:`lemma433_bound_ball` / :func:`lemma433_bound_float` -- the right side of (4.7), certified
  (arb) / float;
* :func:`abs_loss_objective`, :func:`abs_loss_minimum` -- F and min_C F, exact (Fractions);
* :func:`abs_loss_exact_gap` -- E[F(theta_T)] - F* by enumerating all |support|^(T-1) gradient paths
  at ``dps`` digits (small instances);
* :func:`abs_loss_sgd_float` -- the last iterates of ``runs`` independent SGD runs (numpy, vectorised
  over runs; seeded generator).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Sequence

from bcdp.core.errors import InvalidInputError, WrongTypeError
from bcdp.core.intervals import arb_precision, ball_of
from bcdp.core.numbers import MAX_DPS, MAX_PREC_BITS, MIN_DPS, MIN_PREC_BITS, check_precision, to_fraction, \
    to_float_input

if TYPE_CHECKING:  # pragma: no cover
    import flint
    import mpmath
    import numpy as np

__all__ = ["MAX_PATHS", "abs_loss_exact_gap", "abs_loss_minimum", "abs_loss_objective", "abs_loss_sgd_float",
           "lemma433_bound_ball", "lemma433_bound_float"]

#: Largest number of gradient paths :func:`abs_loss_exact_gap` enumerates.
MAX_PATHS = 200_000


def _horizon(T: Any) -> int:
    if isinstance(T, bool) or not isinstance(T, int):
        raise WrongTypeError(f"T must be a positive integer, got {type(T).__name__} {T!r}")
    if T < 1:
        raise InvalidInputError(f"T must be a positive integer, got {T}")
    return T


def _positive(value: Any, name: str) -> Fraction:
    v = to_fraction(value, name)
    if v <= 0:
        raise InvalidInputError(f"{name} must be > 0, got {v}")
    return v


def lemma433_bound_ball(D: Any, G: Any, T: Any, *, bits: int = 128) -> flint.arb:
    """Certified enclosure of 2 D G (2 + log T)/sqrt(T) (thesis Lemma 4.3.3, (4.7)); D, G > 0 exact,
    T a positive integer."""
    d, g, t = _positive(D, "D"), _positive(G, "G"), _horizon(T)
    bits = check_precision(bits, "bits", MIN_PREC_BITS, MAX_PREC_BITS)
    with arb_precision(bits):
        tb = ball_of(t)
        return 2 * ball_of(d * g) * (2 + tb.log()) / tb.sqrt()


def lemma433_bound_float(D: float, G: float, T: int) -> float:
    """Float twin of :func:`lemma433_bound_ball`."""
    d, g = to_float_input(D, "D"), to_float_input(G, "G")
    if d <= 0 or g <= 0:
        raise InvalidInputError("D and G must be > 0")
    t = _horizon(T)
    return 2 * d * g * (2 + math.log(t)) / math.sqrt(t)


def _law(support: Sequence[Any], probs: Sequence[Any], lo: Any, hi: Any):
    xs = [to_fraction(x, "support point") for x in support]
    ps = [to_fraction(p, "probability") for p in probs]
    if not xs or len(xs) != len(ps):
        raise InvalidInputError("support and probs must be non-empty and of equal length")
    if any(p <= 0 for p in ps) or sum(ps) != 1:
        raise InvalidInputError("probs must be positive and sum to 1 exactly")
    a, b = to_fraction(lo, "lo"), to_fraction(hi, "hi")
    if not a < b:
        raise InvalidInputError(f"the interval [lo, hi] needs lo < hi, got [{a}, {b}]")
    return xs, ps, a, b


def abs_loss_objective(support: Sequence[Any], probs: Sequence[Any], theta: Any) -> Fraction:
    """F(theta) = sum_i p_i |theta - x_i|, exact."""
    th = to_fraction(theta, "theta")
    xs = [to_fraction(x, "support point") for x in support]
    ps = [to_fraction(p, "probability") for p in probs]
    return sum((p * abs(th - x) for x, p in zip(xs, ps)), Fraction(0))


def abs_loss_minimum(support: Sequence[Any], probs: Sequence[Any], lo: Any, hi: Any) -> Fraction:
    """min over [lo, hi] of F: F is piecewise linear, so the minimum is at lo, hi or a support point inside."""
    xs, ps, a, b = _law(support, probs, lo, hi)
    cands = [a, b] + [x for x in xs if a < x < b]
    return min(abs_loss_objective(xs, ps, c) for c in cands)


def abs_loss_exact_gap(support: Sequence[Any], probs: Sequence[Any], lo: Any, hi: Any, T: Any, theta1: Any, *,
                       dps: int = 50) -> mpmath.mpf:
    """E[F(theta_T)] - F* for projected SGD on the absolute loss with eta_t = D/sqrt(t) (G = 1), by
    enumerating every sequence of T - 1 draws (law evolved as a list of (probability, theta) atoms at
    ``dps`` digits; atoms at equal theta are not merged).  At most :data:`MAX_PATHS` paths."""
    import mpmath

    xs, ps, a, b = _law(support, probs, lo, hi)
    t_end = _horizon(T)
    th1 = to_fraction(theta1, "theta1")
    if not a <= th1 <= b:
        raise InvalidInputError(f"theta1 must lie in [{a}, {b}], got {th1}")
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    if len(xs) ** (t_end - 1) > MAX_PATHS:
        raise InvalidInputError(f"{len(xs)}^{t_end - 1} paths exceed the cap {MAX_PATHS}")
    with mpmath.workdps(dps + 10):
        mp = lambda q: mpmath.mpf(q.numerator) / q.denominator  # noqa: E731
        am, bm, dm = mp(a), mp(b), mp(b - a)
        xm, pm = [mp(x) for x in xs], [mp(p) for p in ps]
        atoms = [(mpmath.mpf(1), mp(th1))]
        for t in range(1, t_end):
            eta = dm / mpmath.sqrt(t)
            nxt = []
            for w, th in atoms:
                for x, p in zip(xm, pm):
                    g = (th > x) - (th < x)
                    nxt.append((w * p, min(bm, max(am, th - eta * g))))
            atoms = nxt
        value = mpmath.fsum(w * mpmath.fsum(p * abs(th - x) for x, p in zip(xm, pm)) for w, th in atoms)
        gap = value - mp(abs_loss_minimum(xs, ps, a, b))
    with mpmath.workdps(dps):
        return +gap


def abs_loss_sgd_float(support: Sequence[Any], probs: Sequence[Any], lo: Any, hi: Any, T: Any, theta1: Any,
                       runs: int, rng: np.random.Generator) -> np.ndarray:
    """Last iterates theta_T of ``runs`` independent projected SGD runs on the absolute loss (float64,
    eta_t = D/sqrt(t), G = 1), vectorised over runs; ``rng`` a numpy Generator."""
    import numpy as np

    xs, ps, a, b = _law(support, probs, lo, hi)
    t_end = _horizon(T)
    if isinstance(runs, bool) or not isinstance(runs, int) or runs < 1:
        raise InvalidInputError(f"runs must be a positive integer, got {runs!r}")
    if not isinstance(rng, np.random.Generator):
        raise WrongTypeError("rng must be a numpy Generator (np.random.default_rng(seed))")
    xf = np.array([float(x) for x in xs])
    pf = np.array([float(p) for p in ps])
    theta = np.full(runs, float(to_fraction(theta1, "theta1")))
    d = float(b - a)
    for t in range(1, t_end):
        xi = xf[rng.choice(len(xf), size=runs, p=pf)]
        theta = np.clip(theta - d / math.sqrt(t) * np.sign(theta - xi), float(a), float(b))
    return theta
