"""PrivUnit2 of [BDF18] (the SMS baseline of thesis Fig. 3.2(c)): exact scale and variance (mpmath), float twins, sampler, best split.

[BDF18] = Bhowmick, Duchi, Freudiger, Kapoor, Rogers, "Protection against reconstruction and its
applications in private federated learning", arXiv:1812.00984, Sec. 4.1, Algorithm 1 (PrivUnit2)
and its Theorem 1 / Appendix: on a unit vector u in S^{d-1}, with gamma in [0, 1) and p in [1/2, 1),
draw V uniform on the cap {v in S^{d-1}: <v, u> >= gamma} with probability p, else uniform on the
rest of the sphere, and output Z = V/m with

    m = (1 - gamma^2)^alpha / (2^{d-2} (d - 1)) * [p/(B(alpha, alpha) - B(tau; alpha, alpha))
        - (1 - p)/B(tau; alpha, alpha)],  alpha = (d-1)/2, tau = (1 + gamma)/2,

B(x; a, b) the (unnormalised) incomplete beta function.  Then E[Z] = u (m = E<V, u>), and since
||V|| = 1 the variance is exactly E||Z - u||^2 = 1/m^2 - 1 (times r2^2 for inputs of norm r2).

Privacy (derived here from the two densities; [BDF18] Thm 1 states bounds): with
q = P[<V, u> >= gamma] = I_{(1-gamma)/2}(alpha, alpha) for V uniform (the cap mass; (T+1)/2 ~
Beta(alpha, alpha) for T = <V, u>), the density ratio is p/(1-p) * (1-q)/q at worst (an output in
the cap of u, outside the cap of u'), so PrivUnit2 is eps-LDP exactly for
eps = log(p/(1-p)) + log((1-q)/q) (gamma >= 0, p >= 1/2: both logs >= 0).  The split of a total
eps between the two logs is tuned numerically (as [AFT22] "optimized PrivUnit" does):
:func:`privunit_best_float`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from bcdp.core.errors import InvalidInputError, ValidityConditionError, WrongTypeError
from bcdp.core.numbers import MAX_DPS, MIN_DPS, check_precision, to_float_input, to_fraction

__all__ = [
    "privunit_best_float", "privunit_cap_mass_mp", "privunit_epsilon_float", "privunit_mse_float",
    "privunit_sample_float", "privunit_scale_float", "privunit_scale_mp", "privunit_variance_mp",
]


def _check_d(d: Any) -> int:
    if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or int(d) < 2:
        raise InvalidInputError(f"d must be an integer >= 2 (PrivUnit2 acts on S^(d-1)), got {d!r}")
    return int(d)


def _check_gp(gamma: Any, p: Any, exact: bool) -> tuple[Any, Any]:
    g = to_fraction(gamma, "gamma") if exact else to_float_input(gamma, "gamma")
    q = to_fraction(p, "p") if exact else to_float_input(p, "p")
    if not 0 <= g < 1:
        raise ValidityConditionError(f"gamma = {g} must be in [0, 1) ([BDF18] Alg. 1)")
    if not (q * 2 >= 1 and q < 1):
        raise ValidityConditionError(f"p = {q} must be in [1/2, 1) ([BDF18] Alg. 1)")
    return g, q


def privunit_cap_mass_mp(d: Any, gamma: Any, dps: int = 50) -> Any:
    """q = P[<V, u> >= gamma] = I_{(1-gamma)/2}(alpha, alpha) for V uniform on S^{d-1} (mpmath, dps digits)."""
    import mpmath

    dd = _check_d(d)
    g, _ = _check_gp(gamma, "1/2", True)
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    with mpmath.workdps(dps + 10):
        a = mpmath.mpf(dd - 1) / 2
        x = (1 - mpmath.mpf(g.numerator) / g.denominator) / 2
        return +mpmath.betainc(a, a, 0, x, regularized=True)


def privunit_scale_mp(d: Any, gamma: Any, p: Any, dps: int = 50) -> Any:
    """The scale m of [BDF18] Alg. 1 as printed (incomplete beta functions), mpmath at ``dps`` digits;
    gamma, p exact (floats refused).  m > 0 iff p exceeds the cap mass q (else eps = 0 and no scale
    makes Z unbiased): refused otherwise."""
    import mpmath

    dd = _check_d(d)
    g, q = _check_gp(gamma, p, True)
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    with mpmath.workdps(dps + 10):
        a = mpmath.mpf(dd - 1) / 2
        gm = mpmath.mpf(g.numerator) / g.denominator
        pm = mpmath.mpf(q.numerator) / q.denominator
        tau = (1 + gm) / 2
        full = mpmath.beta(a, a)
        part = mpmath.betainc(a, a, 0, tau)
        pref = (1 - gm ** 2) ** a / (mpmath.mpf(2) ** (dd - 2) * (dd - 1))
        m = pref * (pm / (full - part) - (1 - pm) / part)
        if m <= 0:
            raise ValidityConditionError(f"m = {mpmath.nstr(m, 5)} <= 0: p must exceed the cap mass (eps > 0)")
        return +m


def privunit_variance_mp(d: Any, gamma: Any, p: Any, dps: int = 50) -> Any:
    """E||Z - u||^2 = 1/m^2 - 1 for a unit input ([BDF18] Alg. 1; ||V|| = 1 and E[Z] = u)."""
    import mpmath

    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    m = privunit_scale_mp(d, gamma, p, dps)
    with mpmath.workdps(dps + 10):
        return +(1 / m ** 2 - 1)


def _log_cap(a: float, gamma: float) -> float:
    from scipy.special import betainc

    return math.log(betainc(a, a, (1 - gamma) / 2))


def privunit_scale_float(d: Any, gamma: Any, p: Any) -> float:
    """Float64 twin of :func:`privunit_scale_mp` in log space: m = [p/q - (1-p)/(1-q)] (1-gamma^2)^alpha /
    ((d-1) B(1/2, alpha)), q the cap mass (equal to the printed form since B(alpha, alpha) =
    2^{2-d} B(1/2, alpha))."""
    from scipy.special import betainc, betaln

    dd = _check_d(d)
    g, q = _check_gp(gamma, p, False)
    a = (dd - 1) / 2
    cap = float(betainc(a, a, (1 - g) / 2))
    if not q - cap > 1e-12:  # float64: the cap mass at gamma = 0 may round just below 1/2
        raise ValidityConditionError(f"p = {q} must exceed the cap mass {cap} by > 1e-12 (eps > 0, m > 0)")
    log_pref = a * math.log1p(-g * g) - math.log(dd - 1) - float(betaln(0.5, a))
    m = math.exp(log_pref) * (q / cap - (1 - q) / (1 - cap))
    if not m > 0:
        raise ValidityConditionError(f"m = {m} <= 0: p must exceed the cap mass (eps > 0)")
    return m


def privunit_mse_float(d: Any, gamma: Any, p: Any, r2: Any = 1.0) -> float:
    """r2^2 (1/m^2 - 1): E||Z - x||^2 of PrivUnit2 on ||x|| = r2 (input scaled to the sphere)."""
    m = privunit_scale_float(d, gamma, p)
    return to_float_input(r2, "r2") ** 2 * (1 / (m * m) - 1)


def privunit_epsilon_float(d: Any, gamma: Any, p: Any) -> float:
    """The exact LDP level log(p/(1-p)) + log((1-q)/q) of PrivUnit2 (derived in the module docstring)."""
    dd = _check_d(d)
    g, q = _check_gp(gamma, p, False)
    a = (dd - 1) / 2
    lc = _log_cap(a, g)
    return math.log(q / (1 - q)) + math.log(-math.expm1(lc)) - lc


def _split(d: int, eps: float, lam: float) -> tuple[float, float]:
    """(gamma, p) spending lam*eps on p and (1-lam)*eps on the cap: q = 1/(1 + e^{(1-lam) eps})."""
    from scipy.special import betaincinv

    a = (d - 1) / 2
    e0, e1 = lam * eps, (1 - lam) * eps
    p = 1 / (1 + math.exp(-e0))
    q = 1 / (1 + math.exp(e1))
    gamma = 1 - 2 * float(betaincinv(a, a, q))
    return max(gamma, 0.0), p


def privunit_best_float(d: Any, eps: Any, grid: int = 64) -> dict[str, float]:
    """The smallest variance 1/m^2 - 1 of an eps-LDP PrivUnit2 over the split of eps between p and gamma
    (grid of ``grid`` values of lam in (0, 1), then a bounded scalar refinement); returns
    {'mse', 'lam', 'gamma', 'p', 'eps_exact'} for a unit input."""
    from scipy.optimize import minimize_scalar

    dd = _check_d(d)
    e = to_float_input(eps, "eps")
    if not e > 0:
        raise ValidityConditionError(f"eps = {e} must be > 0")

    def var(lam: float) -> float:
        g, p = _split(dd, e, lam)
        if p < 0.5 or p >= 1 or g >= 1:
            return math.inf
        m = privunit_scale_float(dd, g, p)
        return 1 / (m * m) - 1

    lams = (np.arange(grid) + 0.5) / grid
    vals = [var(float(x)) for x in lams]
    i = int(np.argmin(vals))
    lo, hi = float(lams[max(i - 1, 0)]), float(lams[min(i + 1, grid - 1)])
    res = minimize_scalar(var, bounds=(lo, hi), method="bounded", options={"xatol": 1e-10})
    lam = float(res.x) if res.fun <= vals[i] else float(lams[i])
    g, p = _split(dd, e, lam)
    return {"mse": var(lam), "lam": lam, "gamma": g, "p": p, "eps_exact": privunit_epsilon_float(dd, g, p)}


def privunit_sample_float(rng: np.random.Generator, u: Any, gamma: Any, p: Any) -> np.ndarray:
    """PrivUnit2 ([BDF18] Alg. 1) on the n unit rows of u, vectorised: T = <V, u> from its conditional
    law (inverse CDF of (T+1)/2 ~ Beta(alpha, alpha) on the cap or its complement), V = T u +
    sqrt(1 - T^2) xi with xi uniform on the unit sphere of u's orthogonal complement; returns Z = V/m."""
    from scipy.special import betainc, betaincinv

    if not isinstance(rng, np.random.Generator):
        raise WrongTypeError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    U = np.asarray(u, dtype=float)
    if U.ndim != 2 or U.size == 0 or not np.allclose(np.linalg.norm(U, axis=1), 1.0, atol=1e-9):
        raise InvalidInputError("u must be an (n, d) array of unit rows")
    n, d = U.shape
    g, q = _check_gp(gamma, p, False)
    _check_d(d)
    a = (d - 1) / 2
    cap = float(betainc(a, a, (1 - g) / 2))
    in_cap = rng.random(n) < q
    w = rng.random(n)
    level = np.where(in_cap, w * cap, cap + w * (1 - cap))  # P[T >= t] = I_{(1-t)/2}(alpha, alpha)
    T = 1 - 2 * betaincinv(a, a, level)
    G = rng.standard_normal((n, d))
    G -= (G * U).sum(axis=1, keepdims=True) * U
    xi = G / np.linalg.norm(G, axis=1, keepdims=True)
    V = T[:, None] * U + np.sqrt(np.clip(1 - T * T, 0, None))[:, None] * xi
    return V / privunit_scale_float(d, g, q)
