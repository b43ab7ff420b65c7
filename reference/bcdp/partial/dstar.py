"""D*(P||Q) = sup_{lambda > 1} D_lambda(P||Q)/lambda with a certified enclosure.

Partial DP paper: Ghazi, Kumar, Manurangsi, Steinke, "Algorithms with More Granular Differential
Privacy Guarantees" (arXiv:2209.04053), Sec. 2, Def. 2 (D*), Def. 3 (rho-zCDP is D* <= rho, after
Bun and Steinke 2016) and Def. 6 (eps-nabla-CDP).  The Renyi divergences themselves are
:mod:`bcdp.core.divergences`; this module computes and certifies their supremum D*.

Zero probabilities: P(y) > 0 = Q(y) makes D* infinite (:data:`bcdp.core.numbers.INFINITY`); outputs
with P(y) = 0 contribute nothing (0/0 skipped); P = Q gives D* = 0 exactly.

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
re-evaluated from the exact rows with arb ball arithmetic (:mod:`bcdp.core.intervals`, every
operation proved to enclose its exact result), so the returned enclosure [lower, upper] does not rely
on the rounding estimate; it is accepted when (upper - lower) <= rel_tol * upper, otherwise the
achieved width is reported.

The result is a :class:`bcdp.core.results.Certified`; :func:`d_star_json` writes its JSON layout.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Any, Sequence

import mpmath

from bcdp.core.divergences import (
    DEFAULT_DPS,
    GUARD_DIGITS,
    LogMgf,
    Row,
    d_infinity,
    exact_pair,
    mpf_of_fraction,
)
from bcdp.core.divergences import MIN_DPS as DIVERGENCE_MIN_DPS
from bcdp.core.errors import CertificationError, FloatRefusedError, InvalidInputError
from bcdp.core.intervals import arb_precision, ball_of
from bcdp.core.intervals import ball_ends_mpf as ball_ends
from bcdp.core.numbers import INFINITY, MAX_DPS, check_precision, to_fraction
from bcdp.core.results import Certified

DEFAULT_REL_TOL = "1e-30"

#: Provenance of every D* enclosure.
PROVENANCE = ("D*(P||Q) = sup_{lambda>1} D_lambda(P||Q)/lambda, partial DP paper (arXiv:2209.04053) "
              "Sec. 2, Def. 2; quadratic-bound certificate re-checked with arb ball arithmetic")


#: Bits the certificate re-check works with beyond the search's working precision (decimal digits
#: times 3.33): 20 in the mpmath.iv version, 12 more since arb balls are about a bit wider.
RECHECK_GUARD_BITS = 32


def recheck_bits(wdps: int) -> int:
    """Working precision (bits) of the arb re-check for a search at ``wdps`` decimal digits."""
    return int(wdps * 3.33) + RECHECK_GUARD_BITS


def _dstar_result(lower: Any, upper: Any, exact: Any, *, value: Any, maximiser: Any, at_limit_one: bool,
                  kl: Any, d_inf: Any, dps: int, rel_tol: Fraction, achieved_rel_width: Any, intervals: int,
                  interval_verified: bool | None) -> Certified:
    """A D* enclosure as a :class:`Certified`.

    ``lower <= D* <= upper`` (mpf at ``dps`` digits, or both ``INFINITY``); ``exact`` is set when the
    value is known exactly (``INFINITY``, or 0 for P = Q).  Details (readable as attributes):
    ``value`` the best attained lower value; ``maximiser`` lambda_hat (an mpf > 1) or ``None`` when
    the supremum is the limit lambda -> 1+ (then D* = KL and ``at_limit_one`` is True); ``kl``;
    ``d_inf`` (exact ratio, a LogRatioParameter); ``dps``; ``rel_tol`` (requested, exact);
    ``achieved_rel_width`` = (upper - lower) / upper; ``intervals`` the number of lambda intervals
    the certification examined: those of the certificate, on which the quadratic bound was verified,
    and those bisected on the way (so more than the certificate holds when any was bisected);
    ``interval_verified``
    True when the certificate was re-checked in interval arithmetic (or the value is exact) and
    None when the re-check was switched off.  ``witness``: the order attaining the supremum,
    ``{"lambda": lambda_hat}`` or ``{"lambda": "1+"}`` (the limit), None for an exact value.
    """
    if exact is not None:
        witness = None
    else:
        witness = {"lambda": "1+" if maximiser is None else maximiser}
    return Certified(lower, upper, exact, witness, PROVENANCE,
                     {"value": value, "maximiser": maximiser, "at_limit_one": at_limit_one, "kl": kl,
                      "d_inf": d_inf, "dps": dps, "rel_tol": rel_tol,
                      "achieved_rel_width": achieved_rel_width, "intervals": intervals,
                      "interval_verified": interval_verified})


def d_star_json(res: Certified) -> dict[str, Any]:
    """The JSON layout of a D* enclosure (as printed in witnesses of the accountant):
    lower, upper, maximiser, kl, achieved_rel_width as 40-digit strings ("inf", "None"),
    at_limit_one, d_inf_ratio (exact), dps, intervals."""
    def s(x: Any) -> str:
        if x is None:
            return "None"
        if x == INFINITY:
            return "inf"
        return mpmath.nstr(x, 40)
    return {"lower": s(res.lower), "upper": s(res.upper), "maximiser": s(res.maximiser),
            "at_limit_one": res.at_limit_one, "kl": s(res.kl),
            "d_inf_ratio": "inf" if res.d_inf.ratio == INFINITY else str(res.d_inf.ratio),
            "dps": res.dps, "achieved_rel_width": s(res.achieved_rel_width),
            "intervals": res.intervals}


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
        if lo <= nx <= hi and abs(nx - x) <= eps * abs(x):  # converged; tested before the stall test,
            x = nx                                          # since at the rounding floor |h| stops
            break                                           # shrinking (h = 0 makes x an end)
        slow = prev is not None and abs(hv) > abs(prev) / 2
        if slow or not lo < nx < hi:  # Newton left the bracket or stalled: bisect
            nx = (lo + hi) / 2
        prev = hv
        x = nx
    return x


def _h(model: LogMgf, lam: mpmath.mpf) -> mpmath.mpf:
    """sign of g'(lambda): h = K' lambda(lambda-1) - K (2 lambda - 1)."""
    k0, k1, _ = model.derivs(lam)
    return k1 * lam * (lam - 1) - k0 * (2 * lam - 1)


def _local_max(model: LogMgf, x: mpmath.mpf) -> tuple[Any, Any]:
    """Climb from x to a local maximiser of g: bracket a sign change of h (+ then -) by 5% steps of
    lambda - 1 (up or down), then safeguarded Newton.  Returns (r, g(r)) for the local maximiser r
    when g(r) > KL, and (None, None) if g increases towards lambda -> 1+ or the local maximum is not
    above KL (the limit KL is then the candidate)."""
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
                   interval_verify: bool) -> Certified:
    d_inf = d_infinity(p, q)
    if d_inf.ratio == INFINITY:
        return _dstar_result(INFINITY, INFINITY, INFINITY, value=INFINITY, maximiser=None, at_limit_one=False,
                             kl=INFINITY, d_inf=d_inf, dps=dps, rel_tol=tol_key,
                             achieved_rel_width=mpmath.mpf(0), intervals=0, interval_verified=True)
    if all(a == b for a, b in zip(p, q) if a > 0):  # l = 0 on supp P, hence P = Q: D* = 0
        z = mpmath.mpf(0)
        return _dstar_result(z, z, z, value=z, maximiser=None, at_limit_one=True, kl=z, d_inf=d_inf, dps=dps,
                             rel_tol=tol_key, achieved_rel_width=z, intervals=0, interval_verified=True)
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
        res = _dstar_result(lower, rho, None, value=lower_val, maximiser=lam_hat,
                            at_limit_one=lam_hat is None, kl=kl, d_inf=d_inf, dps=dps,
                            rel_tol=tol_key, achieved_rel_width=achieved, intervals=n_int,
                            interval_verified=verified)
    return res


def _verify_with_intervals(p: Row, q: Row, lower: mpmath.mpf, rho: mpmath.mpf, lam_hat: Any, cover: list,
                           wdps: int) -> bool:
    """Re-check a certificate with arb balls (:mod:`bcdp.core.intervals`, python-flint; every
    operation encloses the exact result) at the working precision plus :data:`RECHECK_GUARD_BITS`:
    every inequality the cover relies on is re-evaluated from the exact rows, so the enclosure
    [lower, rho] no longer depends on the guard estimate of rounding errors.

    Checks: (i) lower <= KL or lower <= K(lam_hat)/(lam_hat(lam_hat-1)) (a value of D_lambda/lambda);
    (ii) on each [a, b] of the cover the quadratic bound of phi_rho is <= 0 (upper ends of the
    coefficient balls; t >= 0 makes the bound monotone in each coefficient); (iii) the tail.
    Each decision uses arb's semantics: ``x <= y`` is True only when every point of x is <= every
    point of y, so a ball straddling a threshold always fails the check."""
    with arb_precision(recheck_bits(wdps)) as arb:
        one = arb(1)
        logq, ell = [], []
        for a_, b_ in zip(p, q):
            if a_ > 0:
                lq = ball_of(b_).log()
                logq.append(lq)
                ell.append(ball_of(a_).log() - lq)
        R = ball_of(rho)

        def top(xs: list) -> Any:
            """The largest upper end of the balls xs (an exact point)."""
            out = xs[0].upper()
            for x in xs[1:]:
                out = out.max(x.upper())
            return out

        def point(lam: Any) -> tuple[Any, Any, list]:
            L = ball_of(lam)
            lw = [lq + L * l for lq, l in zip(logq, ell)]
            m = top(lw)  # any shift is exact algebra; the largest upper end keeps exp(x - m) <= 1
            w = [(x - m).exp() for x in lw]
            z = sum(w[1:], w[0])
            pi = [wi / z for wi in w]
            k1 = sum((pi_ * l for pi_, l in zip(pi[1:], ell[1:])), pi[0] * ell[0])
            return m + z.log(), k1, pi

        def curvature(pi: list, k1: Any, T: Any) -> Any:
            total = arb(0)
            for pi_, l in zip(pi, ell):
                dl = l - k1
                factor = (T * dl).exp().max(one)  # max(1, e^{T (l - k1)}), pointwise
                total += pi_ * (dl * dl) * factor  # not dl ** 2: python-flint 0.9 gives nan when dl contains 0
            return total

        kl = sum(((lq + l).exp() * l for lq, l in zip(logq[1:], ell[1:])), (logq[0] + ell[0]).exp() * ell[0])
        low = ball_of(lower)
        low_ok = bool(low <= kl)
        if not low_ok and lam_hat is not None:
            k0, _k1, _pi = point(lam_hat)
            L = ball_of(lam_hat)
            low_ok = bool(low <= k0 / (L * (L - 1)))
        if not low_ok:
            return False
        for item in cover:
            if item[0] == "tail":
                lam = ball_of(item[1])
                k0, _k1, _pi = point(item[1])
                if not (k0 - R * lam * (lam - 1) <= 0 and top(ell) - R * (2 * lam - 1) <= 0):
                    return False
                continue
            a, b = item
            Ti = ball_of(b) - ball_of(a)
            T = Ti.upper()
            if a == 1:
                _k0, k1, pi = point(a)
                v = curvature(pi, k1, T)
                d1 = kl - R
                cands = [d1, d1 + (v - 2 * R) * Ti / 2]
            else:
                k0, k1, pi = point(a)
                v = curvature(pi, k1, T)
                A = ball_of(a)
                F0 = (k0 - R * A * (A - 1)).upper()  # exact points: upper ends of the coefficients
                F1 = (k1 - R * (2 * A - 1)).upper()
                C = (v - 2 * R).upper()
                cands = [F0, F0 + F1 * Ti + C * Ti * Ti / 2]
                if C < 0 and F1 > 0 and not (F1 / (-C) >= T):
                    # the vertex t* = f1/(-curv) may lie in [0, T]: its value bounds the max there
                    cands.append(F0 + F1 * F1 / (2 * (-C)))
            if not all(c <= 0 for c in cands):
                return False
        return True


def _certify(model: LogMgf, rho: mpmath.mpf, grid: list, lam_hat: Any, unit: mpmath.mpf,
             max_intervals: int, done: list | None = None) -> tuple[bool, int, Any]:
    """Check phi_rho(lambda) = K(lambda) - rho lambda(lambda-1) <= 0 on (1, inf); returns
    (ok, number of intervals examined, a suspicious lambda or None).

    The initial intervals are cut at 1, the points of ``grid``, ``lam_hat`` (if not None) and the
    tail point Lambda >= grid[-1], and examined from lambda = 1 upward; an interval whose bound is
    not certified <= 0 is bisected (its halves come next).  The count includes the bisected
    intervals; examining more than ``max_intervals`` stops the search.
    The suspicious lambda is Lambda when the tail check fails (then no interval is examined),
    otherwise the midpoint of the interval on which the search stopped.  ``done`` (a list, or None)
    receives the certificate: ("tail", Lambda), then each interval (a, b) whose bound was certified."""
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
           max_intervals: int = 4000, interval_verify: bool = True) -> Certified:
    """D*(P||Q) = sup_{lambda in (1, inf)} D_lambda(P||Q)/lambda (partial DP paper, arXiv:2209.04053,
    Sec. 2, Def. 2; rho-zCDP of Bun and Steinke 2016 is D* <= rho) as a
    :class:`~bcdp.core.results.Certified` enclosure of relative width <= ``rel_tol`` (default
    1e-30), computed at ``dps`` >= 50 digits; see the module docstring for the method.  The supremum may
    be the limit lambda -> 1+ (value KL), an interior maximum, and is never approached as
    lambda -> inf when D_inf is finite (D_lambda/lambda <= D_inf/lambda -> 0).

    ``P``/``Q``: exact probability rows (Fractions, ints, strings; floats refused), same length.
    Infinite (both ends ``INFINITY``) iff P(y) > 0 = Q(y) for some y; 0 iff P = Q.
    Raises :class:`CertificationError` if no certificate is found (never observed; it would need a
    degenerate curvature and is reported rather than guessed)."""
    dps = check_precision(dps, "dps", DIVERGENCE_MIN_DPS, MAX_DPS)
    p, q = exact_pair(P, Q)
    tol_key = _rel_tol(rel_tol)
    if isinstance(max_intervals, bool) or not isinstance(max_intervals, int) or max_intervals < 10:
        raise InvalidInputError(f"max_intervals must be an integer >= 10, got {max_intervals!r}")
    if not isinstance(interval_verify, bool):
        raise InvalidInputError(f"interval_verify must be True or False, got {interval_verify!r}")
    return _d_star_cached(p, q, tol_key, dps, max_intervals, interval_verify)


__all__ = ["DEFAULT_REL_TOL", "PROVENANCE", "ball_ends", "d_star", "d_star_json"]
