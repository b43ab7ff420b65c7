"""Lemma 22 of the partial DP paper (arXiv:2209.04053, Sec. 6.2): robust ERM with a smoothed loss.

The smoothed loss l(h, (x, y)) = clip_[0,1]((gamma d - dec(x, y, h)) / ((gamma - gamma') d)) of
the proof of Lemma 22 and the exponential mechanism over a finite hypothesis class H with it: an
exact Fraction kernel (rational weight base), probabilities at >= 50 digits for a rational eps, a
certified per-attribute eps0 over feature changes (eps-sample-nabla0-DP, Sec. 6, the paragraph
before Sec. 6.1) and a float64 numpy sampler.  Datasets are sequences of records
(x_1, ..., x_d, y) in {-1,+1}^{d+1}; the cube objects are :mod:`bcdp.partial.robust_error`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import mpmath
import numpy as np

from bcdp.core.errors import InvalidInputError
from bcdp.core.intervals import arb_precision, ball_of
from bcdp.core.numbers import INFINITY, to_float_input, to_fraction
from bcdp.core.results import Certified
from bcdp.core.spaces import Mechanism
from bcdp.partial.dstar import ball_ends
from bcdp.partial.pure import dataset_domain
from bcdp.partial.robust_error import (
    LABELS,
    Hypothesis,
    Point,
    check_hypothesis,
    decision_distance,
    robustly_wrong,
)

if TYPE_CHECKING:  # pragma: no cover
    import sympy

MP_DIGITS = 50


def _margins(gamma: Any, gamma_prime: Any, d: int) -> tuple[Fraction, Fraction]:
    g, gp = to_fraction(gamma, "gamma"), to_fraction(gamma_prime, "gamma'")
    if gp < 0 or g <= gp:
        raise InvalidInputError(f"need 0 <= gamma' < gamma, got gamma={g}, gamma'={gp}")
    return g * d, gp * d


def smoothed_loss(h: Hypothesis, x: Point, y: int, gamma: Any, gamma_prime: Any) -> Fraction:
    """l(h, (x, y)) = clip_[0,1]((gamma d - dec(x, y, h)) / ((gamma - gamma') d)) (proof of Lemma 22); 0 if no
    point has label != y (dec infinite)."""
    return smoothed_loss_from_distance(decision_distance(x, y, h), gamma, gamma_prime, len(x))


def smoothed_loss_from_distance(dec: int | float, gamma: Any, gamma_prime: Any, d: int) -> Fraction:
    """clip_[0,1]((gamma d - dec) / ((gamma - gamma') d)) for a given dec (``INFINITY`` -> 0)."""
    gd, gpd = _margins(gamma, gamma_prime, d)
    if dec == INFINITY:
        return Fraction(0)
    if isinstance(dec, bool) or not isinstance(dec, int) or dec < 0:
        raise InvalidInputError(f"dec must be a non-negative integer or INFINITY, got {dec!r}")
    return min(Fraction(1), max(Fraction(0), (gd - dec) / (gd - gpd)))


def loss_numerator(h: Hypothesis, x: Point, y: int, gamma: Any, gamma_prime: Any) -> Fraction:
    """(gamma - gamma') d * l(h, (x, y)) = clip_[0, (gamma-gamma')d](gamma d - dec): the loss in units
    of its sensitivity Delta = 1/((gamma - gamma') d)."""
    gd, gpd = _margins(gamma, gamma_prime, len(x))
    return smoothed_loss(h, x, y, gamma, gamma_prime) * (gd - gpd)


def _records(dataset: Sequence[Sequence[int]], d: int) -> list[tuple[Point, int]]:
    out = []
    for k, r in enumerate(dataset):
        r = tuple(r)
        if len(r) != d + 1 or any(v not in LABELS for v in r):
            raise InvalidInputError(f"record {k} = {r!r} is not in {{-1,+1}}^{d} x {{-1,+1}}")
        out.append((r[:d], r[d]))
    if not out:
        raise InvalidInputError("empty dataset")
    return out


def empirical_smoothed_loss(h: Hypothesis, dataset: Sequence, gamma: Any, gamma_prime: Any, d: int) -> Fraction:
    """L(h; S) = mean of l(h, (x, y)) over the records (x_1..x_d, y) of S."""
    recs = _records(dataset, d)
    return sum((smoothed_loss(h, x, y, gamma, gamma_prime) for x, y in recs), Fraction(0)) / len(recs)


def empirical_robust_error(h: Hypothesis, dataset: Sequence, gamma: Any, d: int) -> Fraction:
    """R_gamma(h; S): Def. 19 under the uniform distribution on the records of S."""
    recs = _records(dataset, d)
    return Fraction(sum(robustly_wrong(h, x, y, gamma) for x, y in recs), len(recs))


def loss_lcm(gamma: Any, gamma_prime: Any, d: int) -> int:
    """q = lcm of the denominators of gamma d and gamma' d: q * loss_numerator is an integer."""
    gd, gpd = _margins(gamma, gamma_prime, d)
    return math.lcm(gd.denominator, gpd.denominator)


def _scores(hypotheses: Sequence[Hypothesis], dataset: Sequence, gamma: Any, gamma_prime: Any,
            d: int) -> list[int]:
    """U(h, S) * q: the summed loss numerators in units 1/q (integers)."""
    gd, gpd = _margins(gamma, gamma_prime, d)
    q = loss_lcm(gamma, gamma_prime, d)
    top, width = int(gd * q), int((gd - gpd) * q)  # integers by the choice of q
    recs = _records(dataset, d)
    out = []
    for h in hypotheses:
        u = 0
        for x, y in recs:
            dec = decision_distance(x, y, h)
            if dec != INFINITY:
                u += min(width, max(0, top - q * dec))  # q (gamma-gamma')d l(h,(x,y)), exactly
        out.append(u)
    return out


def exponential_mechanism_exact(hypotheses: Sequence[Hypothesis], d: int, n: int, gamma: Any,
                                gamma_prime: Any, weight_base: Any, factor_two: bool = True) -> Mechanism:
    """Lemma 22's learner as an exact Fraction mechanism on datasets of n records (x, y).

    P[h | S] proportional to exp(-eps |S| L(h; S) / (2 Delta)) with Delta = 1/((gamma-gamma')d)
    [MT07].  Since |S| L / Delta = U(h,S) = sum_i clip(gamma d - dec_i, 0, (gamma-gamma')d) is a
    multiple of 1/q (q = :func:`loss_lcm`), the weight is b^{-q U} with b = e^{eps/(2q)}; giving the
    rational ``weight_base`` b makes the kernel exact, with e^eps = b^{2q}
    (:func:`em_epsilon_ratio`).  ``factor_two=False`` is the bad twin exp(-eps |S| L/Delta)
    (weight b^{-2qU}), which is only 2 eps-DP in general.  Outputs are hypothesis indices."""
    b = to_fraction(weight_base, "weight_base")
    if b < 1:
        raise InvalidInputError(f"weight_base = {b} < 1 (it is e^(eps/(2q)), eps >= 0)")
    if not hypotheses:
        raise InvalidInputError("the hypothesis class is empty")
    for h in hypotheses:
        check_hypothesis(h, d)
    dom = dataset_domain([LABELS] * (d + 1), n)
    mult = 1 if factor_two else 2
    rows = []
    for p in dom.points:
        data = [p[i * (d + 1):(i + 1) * (d + 1)] for i in range(n)]
        sc = _scores(hypotheses, data, gamma, gamma_prime, d)
        lo = min(sc)
        w = [Fraction(1) / b ** (mult * (s - lo)) for s in sc]
        z = sum(w, Fraction(0))
        rows.append(tuple(v / z for v in w))
    return Mechanism(dom, tuple(range(len(hypotheses))), tuple(rows))


def em_epsilon_ratio(weight_base: Any, gamma: Any, gamma_prime: Any, d: int) -> Fraction:
    """e^eps = b^{2q} for the exact exponential mechanism with weight base b."""
    return to_fraction(weight_base, "weight_base") ** (2 * loss_lcm(gamma, gamma_prime, d))


def em_probabilities_mp(hypotheses: Sequence[Hypothesis], dataset: Sequence, gamma: Any,
                        gamma_prime: Any, eps: Any, d: int, digits: int = MP_DIGITS) -> list[mpmath.mpf]:
    """P[h | S] of the exponential mechanism for a rational eps, in mpmath at ``digits`` (>= 50)
    significant digits: exp(-eps U(h,S)/2) normalised (U = |S| L / Delta)."""
    if digits < 50:
        raise InvalidInputError(f"digits = {digits} < 50")
    e = to_fraction(eps, "eps")
    if e < 0:
        raise InvalidInputError(f"eps = {e} < 0")
    q = loss_lcm(gamma, gamma_prime, d)
    sc = _scores(hypotheses, dataset, gamma, gamma_prime, d)
    lo = min(sc)
    with mpmath.workdps(digits + 10):
        c = mpmath.mpf(e.numerator) / e.denominator / (2 * q)
        w = [mpmath.exp(-c * (s - lo)) for s in sc]
        z = mpmath.fsum(w)
        return [v / z for v in w]


def em_log_ratio_exact(hypotheses: Sequence[Hypothesis], data_a: Sequence, data_b: Sequence, index: int,
                       gamma: Any, gamma_prime: Any, eps: Any, d: int) -> sympy.Expr:
    """log(P[h_index | S_a] / P[h_index | S_b]) as a closed sympy expression (exp of rationals)."""
    import sympy

    e = sympy.Rational(str(to_fraction(eps, "eps")))
    q = loss_lcm(gamma, gamma_prime, d)
    sa, sb = _scores(hypotheses, data_a, gamma, gamma_prime, d), _scores(hypotheses, data_b, gamma, gamma_prime, d)
    c = e / (2 * q)
    za = sympy.Add(*[sympy.exp(-c * s) for s in sa])
    zb = sympy.Add(*[sympy.exp(-c * s) for s in sb])
    return -c * (sa[index] - sb[index]) + sympy.log(zb) - sympy.log(za)


#: Provenance of :func:`em_feature_epsilon_certified`.
PROVENANCE_FEATURE_EPS = ("eps0 over feature changes (eps-sample-nabla0-DP, partial DP paper arXiv:2209.04053, "
                          "Sec. 6) of the exponential mechanism of Lemma 22 (Sec. 6.2): max log P_x[h]/P_x'[h]")
#: Ball precision (bits) of the log-ratio enclosures of :func:`em_feature_epsilon_certified`.
IV_BITS = 256


def _log_probabilities_ball(scores: Sequence[int], c: Fraction) -> list[Any]:
    """arb enclosures (at the current arb precision) of
    log P[h | S] = -c (U_h - U_min) - log sum_j exp(-c (U_j - U_min)) (exact scores)."""
    lo = min(scores)
    cc = ball_of(c)
    expo = [-cc * (s - lo) for s in scores]
    z = sum((t.exp() for t in expo[1:]), expo[0].exp())
    logz = z.log()
    return [t - logz for t in expo]


def em_feature_epsilon_certified(hypotheses: Sequence[Hypothesis], d: int, n: int, gamma: Any,
                                 gamma_prime: Any, eps: Any, factor_two: bool = True) -> Certified:
    """Per-attribute eps0 of the exponential mechanism restricted to feature changes
    (eps-sample-nabla0-DP, Sec. 6) for a rational eps, and a certified decision of eps0 <= eps.

    Returns a :class:`~bcdp.core.results.Certified` enclosure [lower, upper] of eps0 = the max over
    feature-neighbouring datasets x, x' and hypotheses h of log P_x[h]/P_x'[h] (every log ratio
    enclosed with arb ball arithmetic at :data:`IV_BITS` bits from the exact integer
    scores), with the maximising ``witness`` {x, x_prime, h} and details ``max_log_ratio`` (the
    60-digit mpmath value), ``bound_holds`` (eps0 <= eps, certified), ``pairs_examined`` and
    ``certified_by_sympy``.  Each log ratio is decided against eps by its enclosure when the
    mpmath value is more than 10^-40 away from eps; closer ones (ties included) are decided exactly
    with :func:`bcdp.core.intervals.compare` on the closed form (:func:`em_log_ratio_exact`), which
    proves a tie or raises :class:`~bcdp.core.errors.UndecidedComparison`: never a guess."""
    import sympy

    from bcdp.core.intervals import compare

    e = to_fraction(eps, "eps")
    mult = 1 if factor_two else 2
    eff = e * mult
    q = loss_lcm(gamma, gamma_prime, d)
    c = eff / (2 * q)
    dom = dataset_domain([LABELS] * (d + 1), n)
    probs, logp = {}, {}
    with arb_precision(IV_BITS):
        eps_ball = ball_of(e)
        for p in dom.points:
            data = [p[i * (d + 1):(i + 1) * (d + 1)] for i in range(n)]
            probs[p] = em_probabilities_mp(hypotheses, data, gamma, gamma_prime, eff, d, digits=MP_DIGITS)
            logp[p] = _log_probabilities_ball(_scores(hypotheses, data, gamma, gamma_prime, d), c)
        best, wit, ok, count, by_sympy = mpmath.mpf(0), None, True, 0, 0
        cert_lo = cert_hi = mpmath.mpf(0)
        with mpmath.workdps(MP_DIGITS + 10):
            eps_mp = mpmath.mpf(e.numerator) / e.denominator
            margin = mpmath.mpf(10) ** -40
            for p in dom.points:
                for i in range(n):
                    for j in range(d):
                        col = i * (d + 1) + j
                        if p[col] != -1:
                            continue
                        p2 = p[:col] + (1,) + p[col + 1:]
                        count += 1
                        for k in range(len(hypotheses)):
                            for a, b in ((p, p2), (p2, p)):
                                v = mpmath.log(probs[a][k] / probs[b][k])
                                enc = logp[a][k] - logp[b][k]
                                lo_e, hi_e = ball_ends(enc)
                                cert_lo, cert_hi = max(cert_lo, lo_e), max(cert_hi, hi_e)
                                if v > best:
                                    best, wit = v, {"x": a, "x_prime": b, "h": k}
                                # arb: enc <= eps iff every point of enc is <= every point of eps
                                if eps_mp - v > margin and enc <= eps_ball:
                                    continue
                                if v - eps_mp > margin and enc > eps_ball:
                                    ok = False
                                    continue
                                by_sympy += 1
                                da = [a[t * (d + 1):(t + 1) * (d + 1)] for t in range(n)]
                                db = [b[t * (d + 1):(t + 1) * (d + 1)] for t in range(n)]
                                expr = em_log_ratio_exact(hypotheses, da, db, k, gamma, gamma_prime, eff, d)
                                if compare(expr, sympy.Rational(e.numerator, e.denominator)) > 0:
                                    ok = False
    return Certified(cert_lo, cert_hi, None, wit, PROVENANCE_FEATURE_EPS,
                     {"max_log_ratio": best, "bound_holds": ok, "pairs_examined": count,
                      "certified_by_sympy": by_sympy, "eps": e})


def sample_exponential_mechanism(scores: Sequence[int], eps: float, q: int, size: int,
                                 rng: np.random.Generator) -> np.ndarray:
    """float64 fast path: ``size`` draws of hypothesis indices with P proportional to
    exp(-eps * score / (2 q)), ``scores`` the integers q U(h, S) (see :func:`em_scores`),
    computed in log space (max-subtracted softmax)."""
    eps = to_float_input(eps, "eps")
    if eps < 0:
        raise InvalidInputError(f"eps must be a finite number >= 0, got {eps!r}")
    if size < 0:
        raise InvalidInputError(f"size = {size} < 0")
    s = np.asarray(scores, dtype=np.float64)
    logits = -float(eps) * s / (2.0 * q)
    logits -= logits.max()
    w = np.exp(logits)
    return rng.choice(len(s), size=size, p=w / w.sum())


def em_scores(hypotheses: Sequence[Hypothesis], dataset: Sequence, gamma: Any, gamma_prime: Any,
              d: int) -> tuple[list[int], int]:
    """(the integers q U(h, S) for each h, q)."""
    return _scores(hypotheses, dataset, gamma, gamma_prime, d), loss_lcm(gamma, gamma_prime, d)
