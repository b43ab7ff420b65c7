"""Certified enclosures (arb balls) of the subsampled shuffle model's RDP bounds (thesis Ch. 5, Sec. 5.4):
fixed-size subsampling through Thm 5.4.1 and Poisson subsampling through the mixture identity (*)
of :mod:`bcdp.shuffle.subsampled`.

* :func:`thm541_ball` -- thesis Thm 5.4.1 (variant "thesis", the printed statement; k of n records
  sampled without replacement, replacement neighbours, integer alpha >= 2):

      eps(alpha) <= log(M_k(alpha)) / (alpha - 1),
      M_k = 1 + 4 C(alpha,2) gamma^2 (E-1)^2/(kbar E)
              + sum_{j=3}^alpha C(alpha,j) gamma^j j Gamma(j/2) (2 (E^2-1)^2/(kbar E^2))^{j/2}
              + (sum_{l=2}^alpha C(alpha,l) (gamma c)^l) e^{-(k-1)/(8E)},

  gamma = k/n, c = E - 1/E, kbar = floor((k-1)/(2E)) + 1, E = e^{eps0} (the Upsilon tail summed term
  by term, no cancellation).  The same formula as :func:`bcdp.shuffle.subsampled_bounds.thm541_upper`
  (mpmath), evaluated in ball arithmetic.
* :func:`poisson_thm541_ball` -- Poisson subsampling with rate gamma (replacement neighbours, the
  sample size visible): eps(alpha) <= log(1 + sum_t Bin(n, gamma)(t) (min(M_t, C) - 1)) / (alpha - 1)
  with M_0 = 1 and C = e^{(alpha-1) eps0} (the t-of-n subsampled shuffle of eps0-LDP reports is
  eps0-DP, so every moment is at most C).  The sum runs over a window of t around n gamma; the mass
  outside it is bounded by Bernstein's inequality, P(|T - n gamma| >= s) per side
  <= exp(-s^2 / (2 (n gamma (1-gamma) + s/3))), and charged C - 1, so the window only costs
  tightness.  Weights: Bin(n, gamma)(lo) from log-gamma functions, then the ratio recurrence, all
  in balls.

Both return a ball that is proved to contain (or, for the Poisson window, to lie above) the bound at
the exact eps0 (and gamma) given; precision is doubled from :data:`PREC` bits while a floor is
undecided or the radius exceeds :data:`REL` of the value, up to :data:`MAX_PREC`.
"""

from __future__ import annotations

import math
from typing import Any

import mpmath

from bcdp.core.errors import CertificationError, InvalidInputError, UndecidedComparison
from bcdp.shuffle.inputs import check_alpha, check_count, check_eps0, check_nk

#: First working precision (bits).
PREC = 200
#: Largest working precision tried (bits).
MAX_PREC = 3200
#: Target relative radius of the returned ball.
REL = 1e-30
#: Window half-width of the Poisson mixture, in log-probability: the outside mass times C is at most
#: about e^-WINDOW_MARGIN of the excess (Bernstein).
WINDOW_MARGIN = 60.0
#: Largest window (number of sample sizes t) the Poisson mixture is evaluated on (about 2 s per
#: certified order at alpha = 64); callers refuse larger ones.
POISSON_WINDOW_MAX = 20_000


def _kbar(k: int, E: Any) -> int:
    """kbar = floor((k-1)/(2E)) + 1 from the ball E (UndecidedComparison if it straddles an integer)."""
    fl = ((k - 1) / (2 * E)).floor().unique_fmpz()
    if fl is None:
        raise UndecidedComparison("undecided at this precision")
    return int(fl) + 1


def _thm541_excess(n: int, k: int, e0: Any, E: Any, a: int) -> Any:
    """M_k(alpha) - 1 of the module docstring (a ball)."""
    import flint

    from bcdp.core.intervals import ball_power

    kb = _kbar(k, E)
    g = flint.arb(k) / n
    c = E - 1 / E
    binom = a * (a - 1) // 2
    out = 4 * binom * g * g * e0.expm1() ** 2 / (kb * E)
    root = (2 * (2 * e0).expm1() ** 2 / (kb * E * E)).sqrt()
    gc = g * c
    tail = binom * gc * gc
    for j in range(3, a + 1):
        binom = binom * (a - j + 1) // j            # C(a, j), exact integers
        out += flint.arb(binom * j) * (flint.arb(j) / 2).gamma() * ball_power(g * root, j)
        tail += binom * ball_power(gc, j)
    return out + tail * (-flint.arb(k - 1) / (8 * E)).exp()


def _certified(evaluate: Any, what: str) -> Any:
    """Run ``evaluate()`` (a ball) at PREC, 2 PREC, ... bits until its radius is below REL of its value."""
    from bcdp.core.intervals import arb_precision

    prec = PREC
    while True:
        with arb_precision(prec):
            try:
                out = evaluate()
            except UndecidedComparison:
                out = None
        if out is not None and out.is_finite() and (out.rad() <= abs(out.mid()) * REL or out.rad() == 0):
            return out
        if prec >= MAX_PREC:
            if out is not None and out.is_finite():
                return out
            raise CertificationError(f"{what}: no finite enclosure within {MAX_PREC} bits")
        prec *= 2


def thm541_ball(n: int, k: int, eps0: Any, alpha: Any) -> Any:
    """Arb ball of thesis Thm 5.4.1 (module docstring) at integer alpha >= 2, or None at eps0 = inf.
    Exact inputs (floats refused, :mod:`bcdp.shuffle.inputs`); 1 <= k <= n."""
    import flint

    from bcdp.accounting.inputs import enclose

    n, k = check_nk(n, k)
    e = check_eps0(eps0)
    a = int(check_alpha(alpha, integer=True))
    if mpmath.isinf(e):
        return None
    if e == 0:
        return flint.arb(0)

    def evaluate() -> Any:
        e0 = enclose(eps0, "eps0")
        return _thm541_excess(n, k, e0, e0.exp(), a).log1p() / (a - 1)
    return _certified(evaluate, f"Thm 5.4.1 at n={n}, k={k}, eps0={eps0}, alpha={a}")


def poisson_window(n: int, gamma: float, order: int, eps0: float) -> tuple[int, int]:
    """The t-window [lo, hi] of :func:`poisson_thm541_ball`: n gamma +- the Bernstein half-width at
    log-probability (order - 1) eps0 + :data:`WINDOW_MARGIN` (floats; any window is sound)."""
    from bcdp.shuffle.logspace import bernstein_halfwidth

    mean, var = n * gamma, n * gamma * (1 - gamma)
    s = bernstein_halfwidth(var, (order - 1) * eps0 + WINDOW_MARGIN) + 1
    return max(0, int(math.floor(mean - s))), min(n, int(math.ceil(mean + s)))


def poisson_thm541_ball(n: int, gamma: Any, eps0: Any, alpha: Any) -> Any:
    """Arb ball above the Poisson-subsampled shuffle bound of the module docstring at integer
    alpha >= 2 (rate gamma in (0, 1], n users), or None at eps0 = inf.  Exact inputs."""
    import flint

    from bcdp.accounting.inputs import check_rate, enclose

    n = check_count(n)
    e = check_eps0(eps0)
    a = int(check_alpha(alpha, integer=True))
    g_mp = check_rate(gamma)
    if mpmath.isinf(e):
        return None
    if e == 0:
        return flint.arb(0)
    lo, hi = poisson_window(n, float(g_mp), a, float(e))
    if hi - lo + 1 > POISSON_WINDOW_MAX:
        raise InvalidInputError(f"the Poisson mixture at n = {n}, gamma = {gamma} spans {hi - lo + 1} sample sizes "
                                f"(more than {POISSON_WINDOW_MAX})")

    def evaluate() -> Any:
        e0 = enclose(eps0, "eps0")
        G = enclose(gamma, "gamma")
        E = e0.exp()
        cap_excess = ((a - 1) * e0).expm1()
        one_minus = 1 - G
        ratio = G / one_minus if not G == 1 else None
        # Bin(n, G)(lo), then w_{t+1} = w_t (n - t)/(t + 1) * G/(1 - G)
        if ratio is None:                          # gamma = 1: all the mass at t = n
            w = flint.arb(1) if lo <= n <= hi else flint.arb(0)
            weights = {n: w}
        else:
            logw = (flint.arb(n + 1).lgamma() - flint.arb(lo + 1).lgamma() - flint.arb(n - lo + 1).lgamma()
                    + lo * G.log() + (n - lo) * (-G).log1p())
            w = logw.exp()
            weights = {}
            for t in range(lo, hi + 1):
                weights[t] = w
                w = w * (n - t) / (t + 1) * ratio
        excess = flint.arb(0)
        for t, w in weights.items():
            if t == 0:
                continue                           # moment 1: no excess
            m = _thm541_excess(n, t, e0, E, a)
            excess += w * m.min(cap_excess)
        mean = n * G
        var = mean * one_minus
        outside = flint.arb(0)
        for s, present in ((mean - (lo - 1), lo > 0), ((hi + 1) - mean, hi < n)):
            if present and ratio is not None:     # (gamma = 1: T = n surely, nothing outside)
                outside += (-(s * s) / (2 * (var + s / 3))).exp() if s > 0 else flint.arb(1)
        return (excess + outside * cap_excess).log1p() / (a - 1)
    return _certified(evaluate, f"Poisson-subsampled Thm 5.4.1 at n={n}, gamma={gamma}, eps0={eps0}, alpha={a}")


def check_subsampling(sample_size: Any, poisson_rate: Any, n: int) -> None:
    """At most one of the two subsampling parameters; a sample size at most n."""
    if sample_size is not None and poisson_rate is not None:
        raise InvalidInputError("give a sample size (fixed-size subsampling) or a Poisson rate, not both")
    if sample_size is not None:
        check_nk(n, sample_size)


__all__ = ["MAX_PREC", "POISSON_WINDOW_MAX", "PREC", "REL", "WINDOW_MARGIN", "check_subsampling", "poisson_thm541_ball",
           "poisson_window", "thm541_ball"]
