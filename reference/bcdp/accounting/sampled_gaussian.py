"""Exact Renyi DP of the Poisson-subsampled Gaussian mechanism (SGM) [MTZ19].

[MTZ19] Mironov, Talwar, Zhang, "Renyi differential privacy of the sampled Gaussian mechanism",
arXiv:1908.10530 (2019).  The paper is not among the project sources: the statements below are the
published ones as recalled by the implementer, and every one is cross-checked in the tests against
an independent computation (dp_accounting's RDP accountant, and a 50-digit quadrature of the Renyi
divergence of the mixture, written in the test from the definition).

**Mechanism and neighbours.**  SGM_{q,sigma}(D) = f(S) + N(0, sigma^2 I), S a Poisson(q) subsample
of D (each record kept independently with probability q), f of L2 sensitivity 1 (for sensitivity Delta
pass the noise multiplier sigma/Delta).  Neighbours: **add/remove one record**.  The worst pair reduces
to one dimension: mu_0 = N(0, sigma^2) and mu = (1 - q) N(0, sigma^2) + q N(1, sigma^2) [MTZ19,
Sec. 3], and the RDP of order alpha is max{D_alpha(mu || mu_0), D_alpha(mu_0 || mu)}, the first being
the larger ([MTZ19, Sec. 3]; theorem number not re-checked here -- the tests confirm the ordering
numerically at 50 digits on a few points).

**Integer orders (exact finite sum, [MTZ19, Sec. 3.3]).**  For an integer alpha >= 2

    A_alpha = sum_{k=0}^{alpha} C(alpha, k) (1 - q)^{alpha - k} q^k exp((k^2 - k) / (2 sigma^2)),
    eps(alpha) = log(A_alpha) / (alpha - 1).

(Expand (mu/mu_0)^alpha = ((1-q) + q e^{(2x-1)/(2 sigma^2)})^alpha binomially and integrate each
term against mu_0: E_{mu_0}[e^{k(2x-1)/(2 sigma^2)}] = e^{(k^2-k)/(2 sigma^2)}.)

* :func:`sgm_rdp_ball` / :func:`sgm_rdp_ball_var` -- a certified arb enclosure (python-flint, via
  :mod:`bcdp.core.intervals`) of eps(alpha) for exact q in [0, 1], exact sigma > 0 (or exact variance
  sigma^2 > 0) and integer alpha >= 2; :func:`sgm_rdp_bounds` gives its exact Fraction ends;
* :func:`sgm_rdp_float` -- vectorised float64 log-space twin over an array of integer orders;
* :func:`sgm_rdp_mp` -- real alpha > 1 by mpmath quadrature of the divergence at ``dps`` digits
  (either direction), the high-precision twin for non-integer orders;
* :func:`mtz19_bound` and :func:`mtz19_regime` (:func:`mtz19_regime_var`) -- the closed form 2 q^2 alpha / sigma^2 and the
  conditions under which [MTZ19, Sec. 3.3] states that it bounds eps(alpha): q <= 1/5, sigma >= 4,
  1 < alpha <= sigma^2 L / 2 - 2 log sigma and
  alpha <= (sigma^2 L^2 / 2 - log 5 - 2 log sigma) / (L + log(q alpha) + 1/(2 sigma^2)), with
  L = log(1 + 1/(q (alpha - 1))).  (Recalled statement; the claim check
  ``thesis.erratum_thm451_adaped`` verifies it with certified arithmetic on a grid of its regime.)

Sampling without replacement (fixed-size subsets, replace-one neighbours) is a different relation;
its general bound is [WBK19, Thm 9] in :mod:`bcdp.accounting.subsampling`.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Sequence

from bcdp.core.errors import CertificationError, InvalidInputError, WrongTypeError
from bcdp.core.intervals import arb_precision, ball_ends, ball_of
from bcdp.core.numbers import MAX_DPS, MAX_PREC_BITS, MIN_DPS, MIN_PREC_BITS, check_precision, to_fraction, \
    to_float_input, to_probability

if TYPE_CHECKING:  # pragma: no cover
    import flint
    import mpmath
    import numpy as np

__all__ = ["MAX_ORDER", "mtz19_bound", "mtz19_regime", "mtz19_regime_var", "sgm_rdp_ball", "sgm_rdp_ball_var", "sgm_rdp_bounds",
           "sgm_rdp_float", "sgm_rdp_mp"]

#: Largest integer order accepted (the sum has alpha + 1 terms).
MAX_ORDER = 100_000


def _order(alpha: Any) -> int:
    """An integer order alpha >= 2 (exact: floats, bools and non-integers refused)."""
    if isinstance(alpha, bool) or not isinstance(alpha, int):
        raise WrongTypeError(f"alpha must be an integer >= 2, got {type(alpha).__name__} {alpha!r}")
    if not 2 <= alpha <= MAX_ORDER:
        raise InvalidInputError(f"alpha must be an integer in [2, {MAX_ORDER}], got {alpha}")
    return alpha


def _positive(value: Any, name: str) -> Fraction:
    v = to_fraction(value, name)
    if v <= 0:
        raise InvalidInputError(f"{name} must be > 0, got {v}")
    return v


def sgm_rdp_ball_var(q: Any, variance: Any, alpha: Any, *, bits: int = 128) -> flint.arb:
    """Certified enclosure of eps(alpha) = log(A_alpha)/(alpha - 1) of SGM with Poisson rate ``q`` and
    noise variance ``variance`` = sigma^2 (sensitivity 1, add/remove neighbours), integer
    ``alpha`` >= 2 ([MTZ19, Sec. 3.3]; formula in the module docstring).  Exact inputs only (int,
    Fraction, sympy Rational, decimal string); q in [0, 1], variance > 0.  Arithmetic in arb at
    ``bits`` bits; the ball encloses the true value."""
    p = to_probability(q, "q")
    v = _positive(variance, "variance")
    a = _order(alpha)
    bits = check_precision(bits, "bits", MIN_PREC_BITS, MAX_PREC_BITS)
    if p == 0:
        with arb_precision(bits) as arb:
            return arb(0)
    with arb_precision(bits) as arb:
        total = arb(0)
        inv2v = ball_of(Fraction(1) / (2 * v))
        for k in range(a + 1):
            if p == 1 and k < a:
                continue
            weight = ball_of(Fraction(math.comb(a, k)) * (1 - p) ** (a - k) * p ** k)
            total += weight * (inv2v * (k * k - k)).exp()
        out = total.log() / (a - 1)
    if not out.is_finite():
        raise CertificationError(f"no finite enclosure of the SGM RDP at {bits} bits (q={p}, variance={v}, alpha={a})")
    return out


def sgm_rdp_ball(q: Any, sigma: Any, alpha: Any, *, bits: int = 128) -> flint.arb:
    """:func:`sgm_rdp_ball_var` with the noise multiplier ``sigma`` > 0 (exact) instead of its square."""
    s = _positive(sigma, "sigma")
    return sgm_rdp_ball_var(q, s * s, alpha, bits=bits)


def sgm_rdp_bounds(q: Any, sigma: Any, alpha: Any, *, bits: int = 128) -> tuple[Fraction, Fraction]:
    """Exact rational ends (lower, upper) of the certified enclosure :func:`sgm_rdp_ball`."""
    return ball_ends(sgm_rdp_ball(q, sigma, alpha, bits=bits))


def sgm_rdp_float(q: Any, sigma: Any, alphas: Sequence[int] | np.ndarray) -> np.ndarray:
    """Float64 twin of :func:`sgm_rdp_ball` over an array of integer orders >= 2, vectorised: a
    log-sum-exp over the (order, k) grid of log C(alpha,k) + (alpha-k) log(1-q) + k log q
    + (k^2-k)/(2 sigma^2).  Not certified (rounding of a few ulps times alpha)."""
    import numpy as np
    from scipy.special import gammaln, logsumexp

    g = to_float_input(q, "q")
    s = to_float_input(sigma, "sigma")
    if not 0 <= g <= 1:
        raise InvalidInputError(f"q must lie in [0, 1], got {q!r}")
    if s <= 0:
        raise InvalidInputError(f"sigma must be > 0, got {sigma!r}")
    arr = np.asarray(alphas)
    if arr.size == 0 or arr.dtype.kind not in "iu":
        raise InvalidInputError("alphas must be a non-empty array of integers >= 2")
    if arr.min() < 2 or arr.max() > MAX_ORDER:
        raise InvalidInputError(f"alphas must be integers in [2, {MAX_ORDER}]")
    if g == 0:
        return np.zeros(arr.shape)
    a = arr.reshape(-1, 1).astype(float)
    k = np.arange(int(arr.max()) + 1, dtype=float).reshape(1, -1)
    inside = k <= a
    with np.errstate(divide="ignore", invalid="ignore"):
        lq = math.log(g)
        lh = math.log1p(-g) if g < 1 else -math.inf
        head = np.where(a - k == 0, 0.0, (a - k) * lh)
        terms = (gammaln(a + 1) - gammaln(k + 1) - gammaln(np.maximum(a - k, 0) + 1) + head + k * lq
                 + (k * k - k) / (2 * s * s))
    terms = np.where(inside, terms, -np.inf)
    out = logsumexp(terms, axis=1) / (a[:, 0] - 1)
    return np.maximum(out, 0.0).reshape(arr.shape)


def sgm_rdp_mp(q: Any, sigma: Any, alpha: Any, *, direction: str = "mixture_first", dps: int = 50) -> mpmath.mpf:
    """Renyi divergence of order real ``alpha`` > 1 between the SGM pair, by mpmath quadrature at
    ``dps`` digits: ``"mixture_first"`` = D_alpha(mu || mu_0) (the SGM's RDP, [MTZ19, Sec. 3]) or
    ``"gaussian_first"`` = D_alpha(mu_0 || mu); 1/(alpha-1) log of the integral of
    mu_0(x) ((1-q) + q e^{(2x-1)/(2 sigma^2)})^beta with beta = alpha or 1 - alpha.  Inputs exact
    (floats refused), q in [0, 1], sigma > 0.  Quadrature: the error estimate is not a certificate
    (use :func:`sgm_rdp_ball` at integer orders)."""
    import mpmath

    p = to_probability(q, "q")
    s = _positive(sigma, "sigma")
    a = to_fraction(alpha, "alpha")
    if a <= 1:
        raise InvalidInputError(f"alpha must be > 1, got {a}")
    if direction not in ("mixture_first", "gaussian_first"):
        raise InvalidInputError(f"direction must be 'mixture_first' or 'gaussian_first', got {direction!r}")
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    with mpmath.workdps(dps + 15):
        qm = mpmath.mpf(p.numerator) / p.denominator
        sm = mpmath.mpf(s.numerator) / s.denominator
        am = mpmath.mpf(a.numerator) / a.denominator
        beta = am if direction == "mixture_first" else 1 - am
        var = sm * sm

        def f(x):
            ratio = (1 - qm) + qm * mpmath.exp((2 * x - 1) / (2 * var))
            return mpmath.npdf(x, 0, sm) * ratio ** beta

        top = am if direction == "mixture_first" else mpmath.mpf(0)
        pts = sorted({-10 * sm, mpmath.mpf(0), mpmath.mpf(1) / 2, mpmath.mpf(1), top, top + 10 * sm})
        integral = mpmath.quad(f, [-mpmath.inf] + pts + [mpmath.inf])
        val = mpmath.log(integral) / (am - 1)
    with mpmath.workdps(dps):
        return +val


def mtz19_bound(q: Any, sigma: Any, alpha: Any) -> Fraction:
    """The closed form 2 q^2 alpha / sigma^2 of [MTZ19, Sec. 3.3] (exact; valid as an RDP bound only
    under :func:`mtz19_regime`)."""
    p = to_probability(q, "q")
    s = _positive(sigma, "sigma")
    a = to_fraction(alpha, "alpha")
    if a <= 1:
        raise InvalidInputError(f"alpha must be > 1, got {a}")
    return 2 * p * p * a / (s * s)


def mtz19_regime(q: Any, sigma: Any, alpha: Any) -> bool:
    """Whether (q, sigma, alpha) satisfies the conditions of [MTZ19, Sec. 3.3] (module docstring):
    q <= 1/5, sigma >= 4 and the two upper limits on alpha.  Exact inputs; the two transcendental
    inequalities are decided with arb balls at 200 bits (an undecided one counts as not satisfied)."""
    s = _positive(sigma, "sigma")
    return mtz19_regime_var(q, s * s, alpha)


def mtz19_regime_var(q: Any, variance: Any, alpha: Any) -> bool:
    """:func:`mtz19_regime` with the exact variance sigma^2 > 0 instead of sigma."""
    p = to_probability(q, "q")
    v = _positive(variance, "variance")
    a = to_fraction(alpha, "alpha")
    if a <= 1:
        raise InvalidInputError(f"alpha must be > 1, got {a}")
    if p == 0 or p > Fraction(1, 5) or v < 16:
        return False
    with arb_precision(200) as arb:
        ab, vb = ball_of(a), ball_of(v)
        log_s = vb.log() / 2
        el = (1 + 1 / (ball_of(p) * (ab - 1))).log()
        first = vb * el / 2 - 2 * log_s - ab
        denom = el + (ball_of(p) * ab).log() + 1 / (2 * vb)
        second = vb * el * el / 2 - arb(5).log() - 2 * log_s - ab * denom
        return bool(first >= 0 and denom > 0 and second >= 0)
