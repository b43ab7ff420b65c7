"""Concentrated partial DP (Ghazi, Kumar, Manurangsi, Steinke): Renyi divergences, D* and the
eps-nabla-CDP accountant for finite mechanisms on datasets.

Divergences (paper Def. 2, L210, for finite distributions P, Q given as exact Fraction rows):

* D_lambda(P||Q) = 1/(lambda-1) log E_{Y<-P}[(P(Y)/Q(Y))^{lambda-1}] = 1/(lambda-1) log K_lambda,
  K_lambda = sum_{y: P(y)>0} P(y)^lambda Q(y)^{1-lambda}, for real lambda > 1;
* KL = D_1 = lim_{lambda -> 1+} D_lambda = sum_y P(y) log(P(y)/Q(y));
* D_inf(P||Q) = sup_{S: P(S)>0} log P(S)/Q(S) = max_{y: P(y)>0} log P(y)/Q(y) (mediant inequality);
* D*(P||Q) = sup_{lambda in (1, inf)} D_lambda(P||Q) / lambda.

Zero probabilities: P(y) > 0 = Q(y) makes every D_lambda (lambda >= 1), KL, D_inf and D* infinite
(:data:`bcdp.core.numbers.INFINITY`); outputs with P(y) = 0 contribute nothing (0/0 skipped).

**How D* is computed and certified.**  Write l_y = log(P(y)/Q(y)) on the support of P and
K(lambda) = log sum_y Q(y) e^{lambda l_y} = (lambda - 1) D_lambda.  K is convex (a log-moment
generating function), K(1) = 0 and K'(1) = KL, K'(lambda) <= D_inf.  For rho > 0:

    D* <= rho   <=>   phi_rho(lambda) := K(lambda) - rho lambda (lambda - 1) <= 0 for all lambda > 1.

The maximiser is located by a float scan over lambda - 1 on a geometric grid and a safeguarded
Newton iteration on g'(lambda) = 0 at ``dps`` digits (g = D_lambda / lambda); the lower end of the
enclosure is max(KL, g(lambda_hat)) (both are values of, or limits of, D_lambda/lambda).  The upper
end rho is **certified** by covering (1, inf) with intervals [a, b] on each of which the quadratic
Taylor bound

    phi_rho(lambda) <= phi_rho(a) + phi_rho'(a) t + (V - 2 rho) t^2 / 2,   t = lambda - a,

holds, with V >= sup_{[a,b]} K'' = sup Var_{pi_lambda}(l): the tilted weights Q(y) e^{lambda l_y}
are monotone in lambda, so Var <= sum_y max(w_y(a), w_y(b)) (l_y - c)^2 / sum_y min(w_y(a), w_y(b)).
Intervals whose bound is not <= 0 are bisected.  On [1, b] the bound is divided by t (phi(1) = 0),
so a supremum reached only in the limit lambda -> 1+ (D* = KL, e.g. binary randomized response,
D* = eps tanh(eps/2)) is certified without shrinking intervals to the tolerance.  The tail
[Lambda, inf) is closed by K(lambda) <= K(Lambda) + (lambda - Lambda) D_inf: phi is then a concave
quadratic with phi'(Lambda) <= D_inf - rho (2 Lambda - 1) <= 0.  The search runs with
``dps + 15`` working digits (plus one digit per decade of 1/(2 TV^2) <= 1/KL, so tiny D* keep their
relative precision) and every decision keeps an explicit guard of 10^-(working digits - 8) times the
magnitudes involved.  Then (``interval_verify=True``, the default) the whole certificate -- the lower
end as a value of KL or of D_lambda/lambda, every interval's quadratic bound, the tail -- is
re-evaluated from the exact rows with outward-rounded interval arithmetic (``mpmath.iv``), so the
returned enclosure [lower, upper] does not rely on the rounding estimate; it is accepted when
(upper - lower) <= rel_tol * upper, otherwise the achieved width is reported.

The accountant (Def. 3, Def. 6 L281-L293) uses the dataset encoding, validation and input
selection of :mod:`bcdp.partial.pure` (record-major flat points).
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Iterator, Sequence

import mpmath
import sympy

from bcdp.core.divergences import (
    DEFAULT_DPS,
    GUARD_DIGITS,
    LogMgf,
    Row,
    check_dps,
    d_infinity,
    exact_pair,
    mpf_of_fraction,
)
from bcdp.core.divergences import (  # noqa: F401  (re-exported for the checks; import from core)
    kl_divergence,
    kl_divergence_exact,
    renyi_divergence,
    renyi_divergence_exact,
    renyi_moment_exact,
)
from bcdp.core.errors import CertificationError, FloatRefusedError, InvalidInputError
from bcdp.core.numbers import INFINITY, to_fraction
from bcdp.core.parameters import LogRatioParameter
from bcdp.core.spaces import Mechanism
from bcdp.partial.pure import _input_indices, hamming, to_dataset

DEFAULT_REL_TOL = "1e-30"


# -- D* -------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class DStarResult:
    """D*(P||Q) = sup_{lambda > 1} D_lambda/lambda (Def. 2, L210) with a certified enclosure.

    ``lower <= D* <= upper`` (mpf at ``dps`` digits, or both ``INFINITY``); ``value`` is the best
    attained lower value; ``maximiser`` is lambda_hat (an mpf > 1) or ``None`` when the supremum is
    the limit lambda -> 1+ (then D* = KL, ``at_limit_one`` True); ``kl`` and ``d_inf`` (exact
    ratio) are returned as well; ``intervals`` is the size of the certificate (number of lambda
    intervals on which the quadratic bound was verified); ``achieved_rel_width`` = (upper - lower) /
    upper; ``interval_verified`` is True when the certificate was re-checked in interval arithmetic
    (or the value is exact: infinite, or 0 for P = Q) and None when the re-check was switched off.
    Compare enclosures with
    :func:`certainly_le` etc. inside ``mpmath.workdps(dps)`` or via the string forms.
    """

    lower: Any
    upper: Any
    value: Any
    maximiser: Any
    at_limit_one: bool
    kl: Any
    d_inf: LogRatioParameter
    dps: int
    rel_tol: Any
    achieved_rel_width: Any
    intervals: int
    interval_verified: bool | None = None

    @property
    def is_infinite(self) -> bool:
        return self.lower == INFINITY

    @property
    def width(self) -> Any:
        if self.is_infinite:
            return mpmath.mpf(0)
        with mpmath.workdps(self.dps + GUARD_DIGITS):
            return self.upper - self.lower

    def to_json(self) -> dict[str, Any]:
        def s(x: Any) -> str:
            if x is None:
                return "None"
            if x == INFINITY:
                return "inf"
            return mpmath.nstr(x, 40)
        return {"lower": s(self.lower), "upper": s(self.upper), "maximiser": s(self.maximiser),
                "at_limit_one": self.at_limit_one, "kl": s(self.kl),
                "d_inf_ratio": "inf" if self.d_inf.ratio == INFINITY else str(self.d_inf.ratio),
                "dps": self.dps, "achieved_rel_width": s(self.achieved_rel_width),
                "intervals": self.intervals}


def _rel_tol(rel_tol: Any) -> Fraction:
    """The requested relative width as an exact Fraction in (0, 1) (floats refused)."""
    if isinstance(rel_tol, float):
        raise FloatRefusedError(f"rel_tol: floats are refused (got {rel_tol!r}); pass e.g. '1e-30'")
    tol = to_fraction(rel_tol, "rel_tol")
    if not 0 < tol < 1:
        raise InvalidInputError(f"rel_tol must be in (0, 1), got {tol}")
    return tol


def _float_scan(model: LogMgf, lam_max: float) -> tuple[list[float], list[float]]:
    """g(lambda) = K(lambda)/(lambda(lambda-1)) in float64 on a geometric grid of lambda - 1 from
    1e-4 to lam_max (log-sum-exp; closer to 1 float cancellation dominates).  Only seeds the
    search; never part of the certificate."""
    import numpy as np

    t = np.geomspace(1e-4, lam_max, 240)
    lam = 1 + t
    logq = np.array([float(x) for x in model.logq])
    ell = np.array([float(x) for x in model.ell])
    lw = logq[None, :] + lam[:, None] * ell[None, :]
    m = lw.max(axis=1)
    k = m + np.log(np.exp(lw - m[:, None]).sum(axis=1))
    return list(lam), list(k / (lam * t))


def _g(model: LogMgf, lam: mpmath.mpf) -> mpmath.mpf:
    return model.K(lam) / (lam * (lam - 1))


def _newton(model: LogMgf, lo: mpmath.mpf, hi: mpmath.mpf, start: mpmath.mpf, steps: int = 600) -> mpmath.mpf:
    """Safeguarded Newton for h(lambda) = K' lambda(lambda-1) - K (2 lambda - 1) = 0 (the sign of
    g') on [lo, hi] with h(lo) > 0 > h(hi); h' = K'' lambda(lambda-1) - 2K."""
    def h(lam: mpmath.mpf) -> tuple[mpmath.mpf, mpmath.mpf]:
        k0, k1, k2 = model.derivs(lam)
        return k1 * lam * (lam - 1) - k0 * (2 * lam - 1), k2 * lam * (lam - 1) - 2 * k0
    x = start
    eps = mpmath.mpf(10) ** (-(mpmath.mp.dps - 5))
    prev = None
    for _ in range(steps):
        hv, dh = h(x)
        if hv > 0:
            lo = x
        else:
            hi = x
        if hi - lo <= eps * hi:
            break
        nx = x - hv / dh if dh != 0 else (lo + hi) / 2
        slow = prev is not None and abs(hv) > abs(prev) / 2
        if slow or not lo < nx < hi:  # Newton left the bracket or stalled: bisect
            nx = (lo + hi) / 2
        elif abs(nx - x) <= eps * abs(x):
            x = nx
            break
        prev = hv
        x = nx
    return x


def _h(model: LogMgf, lam: mpmath.mpf) -> mpmath.mpf:
    """sign of g'(lambda): h = K' lambda(lambda-1) - K (2 lambda - 1)."""
    k0, k1, _ = model.derivs(lam)
    return k1 * lam * (lam - 1) - k0 * (2 * lam - 1)


def _local_max(model: LogMgf, x: mpmath.mpf) -> tuple[Any, Any]:
    """Climb from x to a local maximiser of g: bracket a sign change of h (+ then -) by 5% steps of
    lambda - 1 (up or down), then safeguarded Newton.  Returns (None, None) if g increases towards
    lambda -> 1+ (the limit KL is then the candidate)."""
    t = x - 1
    STEP = mpmath.mpf("1.05")
    if _h(model, x) > 0:
        lo = x
        for _ in range(800):
            t *= STEP
            if _h(model, 1 + t) <= 0:
                break
        else:
            return None, None
        hi = 1 + t
        lo = max(lo, 1 + t / STEP)
    else:
        hi = x
        for _ in range(1200):
            t /= STEP
            if _h(model, 1 + t) > 0:
                break
        else:
            return None, None
        lo = 1 + t
        hi = min(hi, 1 + STEP * t)
    if lo - 1 < mpmath.mpf(10) ** (-(mpmath.mp.dps // 3)):
        return None, None  # the climb ran into lambda -> 1+: the limit KL is the candidate
    r = _newton(model, lo, hi, (lo + hi) / 2)
    gr = _g(model, r)
    return (r, gr) if gr > model.kl else (None, None)


@functools.lru_cache(maxsize=20000)
def _d_star_cached(p: Row, q: Row, tol_key: Fraction, dps: int, max_intervals: int,
                   interval_verify: bool) -> DStarResult:
    d_inf = d_infinity(p, q)
    if d_inf.ratio == INFINITY:
        return DStarResult(INFINITY, INFINITY, INFINITY, None, False, INFINITY, d_inf, dps, tol_key,
                           mpmath.mpf(0), 0, True)
    if all(a == b for a, b in zip(p, q) if a > 0):  # l = 0 on supp P, hence P = Q: D* = 0
        z = mpmath.mpf(0)
        return DStarResult(z, z, z, None, True, z, d_inf, dps, tol_key, z, 0, True)
    # small D* get extra working digits: D* >= KL >= 2 TV^2 (Pinsker), TV exact and > 0 here
    tv = sum((abs(a - b) for a, b in zip(p, q)), Fraction(0)) / 2
    with mpmath.workdps(30):
        extra = max(0, int(-mpmath.log10(2 * mpf_of_fraction(tv) ** 2)) + 1)
    wdps = dps + GUARD_DIGITS + extra
    with mpmath.workdps(wdps):
        tol = mpf_of_fraction(tol_key)
        model = LogMgf(p, q)
        kl = model.kl
        unit = mpmath.mpf(10) ** (-(wdps - 8))  # guard: dominates working-precision rounding
        # -- seed: float scan over lambda - 1, then Newton at working precision
        ell_max_f = float(model.ell_max)
        kl_f = max(float(kl), 1e-300)
        lam_max = min(max(4.0, 4.0 * ell_max_f / kl_f + 4.0), 1e12)
        fl_grid, fl_g = _float_scan(model, lam_max)
        best_k = max(range(len(fl_grid)), key=lambda k: fl_g[k])
        lam_hat, lower_val = None, kl
        if fl_g[best_k] > float(kl):
            x, gx = _local_max(model, mpmath.mpf(fl_grid[best_k]))
            if x is not None and gx > kl:
                lam_hat, lower_val = x, gx
        grid = [mpmath.mpf(lam_max)]
        # -- certify an upper end; refine the lower end from any uncertified interval
        for _attempt in range(12):
            err_lower = unit * model.scale * (1 + (0 if lam_hat is None else 1 / (lam_hat * (lam_hat - 1))))
            lower = lower_val - err_lower
            rho = lower_val * (1 + tol / 4) + 2 * err_lower
            cover: list = []
            ok, n_int, suspect = _certify(model, rho, grid, lam_hat, unit, max_intervals, cover)
            if ok:
                break
            if suspect is not None and suspect > 1:
                gs = _g(model, suspect)
                if gs > lower_val:
                    x, gx = _local_max(model, suspect)
                    lam_hat, lower_val = (x, gx) if x is not None and gx >= gs else (suspect, gs)
                    continue
            tol = mpmath.sqrt(tol)  # could not certify this width: accept a wider (still valid) enclosure
            if tol >= mpmath.mpf("0.5"):
                break
        else:
            ok = False
        if not ok:
            raise CertificationError(f"D* of {p} || {q}: no certificate at dps={dps}")
        achieved = (rho - lower) / rho
        verified = _verify_with_intervals(p, q, lower, rho, lam_hat, cover, wdps) if interval_verify else None
        if verified is False:
            raise CertificationError(f"D* of {p} || {q}: the interval-arithmetic re-check of the certificate failed")
        res = DStarResult(lower=lower, upper=rho, value=lower_val, maximiser=lam_hat,
                          at_limit_one=lam_hat is None, kl=kl, d_inf=d_inf, dps=dps,
                          rel_tol=tol_key, achieved_rel_width=achieved, intervals=n_int,
                          interval_verified=verified)
    return res


def _verify_with_intervals(p: Row, q: Row, lower: mpmath.mpf, rho: mpmath.mpf, lam_hat: Any, cover: list,
                           wdps: int) -> bool:
    """Re-check a certificate with outward-rounded interval arithmetic (mpmath.iv at the working
    precision): every inequality the cover relies on is re-evaluated from the exact rows, so the
    enclosure [lower, rho] no longer depends on the guard estimate of rounding errors.

    Checks: (i) lower <= KL or lower <= K(lam_hat)/(lam_hat(lam_hat-1)) (a value of D_lambda/lambda);
    (ii) on each [a, b] of the cover the quadratic bound of phi_rho is <= 0 (upper ends of the
    coefficient intervals; t >= 0 makes the bound monotone in each coefficient); (iii) the tail."""
    iv = mpmath.iv
    old = iv.prec
    iv.prec = int(wdps * 3.33) + 20
    try:
        def ivq(x: Fraction):
            return iv.mpf(x.numerator) / iv.mpf(x.denominator)
        logq, ell = [], []
        for a_, b_ in zip(p, q):
            if a_ > 0:
                lq = iv.log(ivq(b_))
                logq.append(lq)
                ell.append(iv.log(ivq(a_)) - lq)
        R = iv.mpf(rho)
        one = iv.mpf(1)

        def point(lam):
            L = iv.mpf(lam)
            lw = [lq + L * l for lq, l in zip(logq, ell)]
            m = iv.mpf(max(x.b for x in lw))
            w = [iv.exp(x - m) for x in lw]
            z = sum(w[1:], w[0])
            pi = [wi / z for wi in w]
            k1 = sum((pi_ * l for pi_, l in zip(pi[1:], ell[1:])), pi[0] * ell[0])
            return m + iv.log(z), k1, pi

        def curvature(pi, k1, T):
            total = iv.mpf(0)
            for pi_, l in zip(pi, ell):
                e = iv.exp(iv.mpf(T) * (l - k1))
                factor = iv.mpf([max(one.a, e.a), max(one.b, e.b)])
                total += pi_ * (l - k1) ** 2 * factor
            return total

        kl = sum((iv.exp(lq + l) * l for lq, l in zip(logq[1:], ell[1:])), iv.exp(logq[0] + ell[0]) * ell[0])
        low_ok = lower <= kl.a
        if lam_hat is not None:
            k0, _k1, _pi = point(lam_hat)
            L = iv.mpf(lam_hat)
            low_ok = low_ok or lower <= (k0 / (L * (L - 1))).a
        if not low_ok:
            return False
        for item in cover:
            if item[0] == "tail":
                lam = iv.mpf(item[1])
                k0, _k1, _pi = point(item[1])
                ell_max = iv.mpf(max(x.b for x in ell))
                if (k0 - R * lam * (lam - 1)).b > 0 or (ell_max - R * (2 * lam - 1)).b > 0:
                    return False
                continue
            a, b = item
            Ti = iv.mpf(b) - iv.mpf(a)
            if a == 1:
                _k0, k1, pi = point(a)
                v = curvature(pi, k1, Ti.b)
                d1 = kl - R
                worst = max(d1.b, (d1 + (v - 2 * R) * Ti / 2).b)
            else:
                k0, k1, pi = point(a)
                v = curvature(pi, k1, Ti.b)
                A = iv.mpf(a)
                f0 = (k0 - R * A * (A - 1)).b
                f1 = (k1 - R * (2 * A - 1)).b
                curv = (v - 2 * R).b
                F0, F1, C = iv.mpf(f0), iv.mpf(f1), iv.mpf(curv)
                cands = [F0.b, (F0 + F1 * Ti + C * Ti * Ti / 2).b]
                if curv < 0 and f1 > 0 and (F1 / (-C)).a < Ti.b:
                    # the vertex t* = f1/(-curv) may lie in [0, T]: its value bounds the max there
                    cands.append((F0 + F1 * F1 / (2 * (-C))).b)
                worst = max(cands)
            if worst > 0:
                return False
        return True
    finally:
        iv.prec = old


def _certify(model: LogMgf, rho: mpmath.mpf, grid: list, lam_hat: Any, unit: mpmath.mpf,
             max_intervals: int, done: list | None = None) -> tuple[bool, int, Any]:
    """Check phi_rho(lambda) = K(lambda) - rho lambda(lambda-1) <= 0 on (1, inf); returns
    (ok, number of intervals verified, a suspicious lambda or None)."""
    # tail: Lambda with D_inf - rho (2 Lambda - 1) <= 0 and phi(Lambda) <= 0
    tail = max(grid[-1], (model.ell_max / rho + 1) / 2 + 1)
    pts = sorted(set([mpmath.mpf(1)] + list(grid) + ([lam_hat] if lam_hat is not None else []) + [tail]))
    pts = [x for x in pts if x <= tail]
    k_tail = model.K(tail)
    if k_tail - rho * tail * (tail - 1) > -unit * model.scale * tail * tail:
        return False, 0, tail
    if done is not None:
        done.clear()
        done.append(("tail", tail))
    stack = list(zip(pts[:-1], pts[1:]))[::-1]
    n = 0
    cache: dict = {}

    def at(a):
        if a not in cache:
            cache[a] = model.derivs(a)
        return cache[a]
    while stack:
        a, b = stack.pop()
        n += 1
        if n > max_intervals:
            return False, n, (a + b) / 2
        t_max = b - a
        if a == 1:
            k1 = model.kl
            v = model.curvature_bound(a, b)
            d1 = k1 - rho  # phi'(1); phi(1) = 0; bound/t = d1 + (V - 2 rho) t / 2
            worst = max(d1, d1 + (v - 2 * rho) * t_max / 2)
            guard = unit * model.scale * (1 + v + rho)
            ok = worst <= -guard
        else:
            k0, k1, _k2 = at(a)
            v = model.curvature_bound(a, b)
            f0 = k0 - rho * a * (a - 1)
            f1 = k1 - rho * (2 * a - 1)
            curv = v - 2 * rho
            if curv >= 0:
                worst = max(f0, f0 + f1 * t_max + curv * t_max ** 2 / 2)
            else:
                ts = f1 / (-curv)
                if 0 < ts < t_max:
                    worst = f0 + f1 ** 2 / (2 * (-curv))
                else:
                    worst = max(f0, f0 + f1 * t_max + curv * t_max ** 2 / 2)
            guard = unit * model.scale * (1 + abs(k0) + rho * b * b + v * t_max ** 2 + abs(f1) * t_max)
            ok = worst <= -guard
        if ok:
            if done is not None:
                done.append((a, b))
            continue
        if t_max <= unit * b * 1000:
            return False, n, (a + b) / 2
        if a == 1:
            m = 1 + (b - 1) / 16
        elif (b - 1) > 4 * (a - 1):
            m = 1 + mpmath.sqrt((a - 1) * (b - 1))
        else:
            m = (a + b) / 2
        stack.append((m, b))
        stack.append((a, m))
    return True, n, None


def d_star(P: Sequence[Any], Q: Sequence[Any], rel_tol: Any = DEFAULT_REL_TOL, dps: int = DEFAULT_DPS,
           max_intervals: int = 4000, interval_verify: bool = True) -> DStarResult:
    """D*(P||Q) = sup_{lambda in (1, inf)} D_lambda(P||Q)/lambda (GKMS Def. 2, L210; BS16 zCDP is
    D* <= rho) with a certified enclosure of relative width <= ``rel_tol`` (default 1e-30),
    computed at ``dps`` >= 50 digits; see the module docstring for the method.  The supremum may
    be the limit lambda -> 1+ (value KL), an interior maximum, and is never approached as
    lambda -> inf when D_inf is finite (D_lambda/lambda <= D_inf/lambda -> 0).

    ``P``/``Q``: exact probability rows (Fractions, ints, strings; floats refused), same length.
    Infinite (both ends ``INFINITY``) iff P(y) > 0 = Q(y) for some y; 0 iff P = Q.
    Raises :class:`CertificationError` if no certificate is found (never observed; it would need a
    degenerate curvature and is reported rather than guessed)."""
    dps = check_dps(dps)
    p, q = exact_pair(P, Q)
    tol_key = _rel_tol(rel_tol)
    if isinstance(max_intervals, bool) or not isinstance(max_intervals, int) or max_intervals < 10:
        raise InvalidInputError(f"max_intervals must be an integer >= 10, got {max_intervals!r}")
    if not isinstance(interval_verify, bool):
        raise InvalidInputError(f"interval_verify must be True or False, got {interval_verify!r}")
    return _d_star_cached(p, q, tol_key, dps, max_intervals, interval_verify)


# -- certified comparisons of enclosures -------------------------------------------------------------

def _lo(x: Any) -> Any:
    return x.lower if isinstance(x, (DStarResult, Enclosure)) else x


def _hi(x: Any) -> Any:
    return x.upper if isinstance(x, (DStarResult, Enclosure)) else x


@dataclass(frozen=True)
class Enclosure:
    """A certified interval [lower, upper] (mpf or ``INFINITY``) with an optional witness."""

    lower: Any
    upper: Any
    witness: dict | None = field(default=None, compare=False)

    @property
    def is_infinite(self) -> bool:
        return self.lower == INFINITY

    def strings(self, digits: int = 40) -> tuple[str, str]:
        f = (lambda x: "inf" if x == INFINITY else mpmath.nstr(x, digits))
        return f(self.lower), f(self.upper)


def certainly_le(a: Any, b: Any) -> bool:
    """upper(a) <= lower(b): a <= b is certain."""
    with mpmath.workdps(DEFAULT_DPS + GUARD_DIGITS):
        return _hi(a) <= _lo(b)


def certainly_gt(a: Any, b: Any) -> bool:
    """lower(a) > upper(b): a > b is certain."""
    with mpmath.workdps(DEFAULT_DPS + GUARD_DIGITS):
        return _lo(a) > _hi(b)


# -- the accountant on datasets (Def. 3, Def. 6) -------------------------------------------------------

def one_record_pairs(mech: Mechanism, n: int, d: int, inputs: Sequence | None = None
                     ) -> Iterator[tuple[int, int, int, int]]:
    """Ordered pairs (record i, a, b, Hamming k) of input indices a != b differing only in record
    i (replace-one neighbours, Def. 1/3/6), k = ||x_i - x'_i||_0 >= 1 the number of attributes of
    that record that differ.  Uses :mod:`bcdp.partial.pure`'s encoding and input selection."""
    idx = _input_indices(mech, n, d, inputs)
    pts = mech.domain.points
    for i in range(n):
        block = set(range(i * d, (i + 1) * d))
        groups: dict[tuple, list[int]] = {}
        for k in idx:
            groups.setdefault(tuple(v for c, v in enumerate(pts[k]) if c not in block), []).append(k)
        for members in groups.values():
            for a, b in itertools.permutations(members, 2):
                yield i, a, b, hamming(pts[a][i * d:(i + 1) * d], pts[b][i * d:(i + 1) * d])


def _pair_witness(mech: Mechanism, n: int, d: int, i: int, a: int, b: int, k: int, res: DStarResult) -> dict:
    pts = mech.domain.points
    return {"x": to_dataset(pts[a], n, d), "x_prime": to_dataset(pts[b], n, d), "record": i,
            "hamming": k, "d_star": res.to_json()}


def _max_over_pairs(mech: Mechanism, n: int, d: int, inputs: Sequence | None, rel_tol: Any, dps: int,
                    scale: Callable[[Any, int], Any]) -> Enclosure:
    """Certified enclosure of the max over :func:`one_record_pairs` of ``scale(D*, k)`` (``scale``
    increasing in D*, applied to both ends of each D* enclosure at ``dps`` + guard digits), with the
    witness pair of the largest lower end; ``INFINITY`` at the first infinite D*; 0 without pairs."""
    best = Enclosure(mpmath.mpf(0), mpmath.mpf(0), None)
    with mpmath.workdps(dps + GUARD_DIGITS):
        for i, a, b, k in one_record_pairs(mech, n, d, inputs):
            res = d_star(mech.kernel[a], mech.kernel[b], rel_tol, dps)
            if res.is_infinite:
                return Enclosure(INFINITY, INFINITY, _pair_witness(mech, n, d, i, a, b, k, res))
            lo, hi = scale(res.lower, k), scale(res.upper, k)
            if best.witness is None or lo > best.lower:
                best = Enclosure(lo, max(hi, best.upper), _pair_witness(mech, n, d, i, a, b, k, res))
            elif hi > best.upper:
                best = Enclosure(best.lower, hi, best.witness)
    return best


def per_attribute_cdp_epsilon(mech: Mechanism, n: int, d: int, inputs: Sequence | None = None,
                              rel_tol: Any = "1e-20", dps: int = DEFAULT_DPS) -> Enclosure:
    """Smallest eps0 with M eps0-nabla0-CDP (Def. 6, L281-L293): D*(M(x)||M(x')) <= (1/2) eps0^2
    ||x_i - x'_i||_0^2 for all inputs x, x' differing only in record i, i.e.
    eps0 = max over those pairs (both orders) of sqrt(2 D*)/||x_i - x'_i||_0.

    Returns a certified enclosure (mpf at ``dps`` digits; ``INFINITY`` if some D* is infinite) with
    the witness pair of the largest lower end.  No constraint at all (a single input) gives 0."""
    return _max_over_pairs(mech, n, d, inputs, rel_tol, dps, lambda x, k: mpmath.sqrt(2 * x) / k)


def whole_record_zcdp(mech: Mechanism, n: int, d: int, inputs: Sequence | None = None,
                      rel_tol: Any = "1e-20", dps: int = DEFAULT_DPS) -> Enclosure:
    """rho of rho-zCDP under replace-one neighbours (Def. 3, L231; BS16): max over input pairs
    differing in (any attributes of) exactly one record of D*(M(x)||M(x')), certified enclosure
    with the witness pair of the largest lower end."""
    return _max_over_pairs(mech, n, d, inputs, rel_tol, dps, lambda x, k: x)


@dataclass(frozen=True)
class NablaCDPResult:
    """Outcome of :func:`nabla_cdp_holds`.  ``holds``: no pair violates and none is undecided;
    ``violation``: the first certified violation (D*.lower > eps^2/2 upper); ``undecided``: pairs
    whose D* enclosure straddles eps^2/2 even at the finest tolerance (equality up to ~1e-(dps-15))."""

    holds: bool
    violation: dict | None
    undecided: list = field(default_factory=list)
    pairs_checked: int = 0


def _eps_value(value: Any, where: str) -> Any:
    """eps (not e^eps) as an mpf: exact rational, sympy real expression, mpf or INFINITY."""
    if value == INFINITY or value == sympy.oo:
        return INFINITY
    if isinstance(value, float):
        raise FloatRefusedError(f"eps_fn{where} returned a float {value!r}; give eps exactly "
                                "(int, Fraction, 'p/q', a sympy expression such as log(3), or an mpf)")
    if isinstance(value, mpmath.mpf):
        v = value
    elif isinstance(value, sympy.Basic):
        if not value.is_real:
            raise InvalidInputError(f"eps_fn{where} = {value} is not a real number")
        v = mpmath.mpf(sympy.N(value, mpmath.mp.dps + 5))
    else:
        v = mpf_of_fraction(to_fraction(value, f"eps_fn{where}"))
    if v < 0 or not mpmath.isfinite(v):
        raise InvalidInputError(f"eps_fn{where} = {v} must be a finite non-negative number (or INFINITY)")
    return v


def nabla_cdp_holds(mech: Mechanism, n: int, d: int, eps_fn: Callable[[tuple, tuple], Any],
                    inputs: Sequence | None = None, dps: int = DEFAULT_DPS) -> NablaCDPResult:
    """Def. 6 (L281): M is eps-nabla-CDP iff D*(M(x)||M(x')) <= (1/2) eps(x_i, x'_i)^2 for all
    inputs x, x' differing only in record i.  ``eps_fn(r, r')`` takes two records (tuples of d
    values) and returns eps (symmetric, >= 0; exact rational, sympy expression, mpf or
    ``INFINITY``).  Decisions use certified D* enclosures, refined down to 1e-(dps-15) relative
    width when the comparison is close."""
    dps = check_dps(dps)
    pts = mech.domain.points
    undecided: list = []
    count = 0
    with mpmath.workdps(dps + GUARD_DIGITS):
        for i, a, b, k in one_record_pairs(mech, n, d, inputs):
            ra, rb = tuple(pts[a][i * d:(i + 1) * d]), tuple(pts[b][i * d:(i + 1) * d])
            e, back = _eps_value(eps_fn(ra, rb), f"({list(ra)}, {list(rb)})"), \
                _eps_value(eps_fn(rb, ra), f"({list(rb)}, {list(ra)})")
            if e != back:
                raise InvalidInputError(f"eps_fn is not symmetric on {list(ra)}, {list(rb)}: {e} vs {back}")
            count += 1
            if e == INFINITY:
                continue
            bound = e * e / 2
            decided = False
            for tol in ("1e-20", f"1e-{dps - 15}"):
                res = d_star(mech.kernel[a], mech.kernel[b], tol, dps)
                if res.upper != INFINITY and res.upper <= bound:
                    decided = True
                    break
                if res.lower == INFINITY or res.lower > bound:
                    w = _pair_witness(mech, n, d, i, a, b, k, res)
                    w["bound"] = mpmath.nstr(bound, 40)
                    return NablaCDPResult(False, w, undecided, count)
            if not decided:
                w = _pair_witness(mech, n, d, i, a, b, k, res)
                w["bound"] = mpmath.nstr(bound, 40)
                undecided.append(w)
    return NablaCDPResult(not undecided, None, undecided, count)
