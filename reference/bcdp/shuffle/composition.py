"""Composition baselines of thesis Ch. 5 (Figs 5.4-5.7), certified: KOV15 optimal composition, its
closed form, advanced composition, and the thesis' composed baseline "clones + KOV15".

* **KOV15 optimal composition** -- P. Kairouz, S. Oh, P. Viswanath, "The Composition Theorem for
  Differential Privacy", ICML 2015 (arXiv:1311.0776): the k-fold adaptive composition of
  (eps, delta)-DP mechanisms is exactly as private as the k-fold product of the 4-point
  (eps, delta) randomized-response pair, so it is ``((k - 2i) eps, 1 - (1 - delta)^k (1 - delta_i))``-DP
  with ``delta_i = sum_{l=0}^{i-1} C(k,l) (e^{(k-l)eps} - e^{(k-2i+l)eps}) / (1 + e^eps)^k``, and
  this is tight.  (We cite the *statement*: it is Thm 3.3 of the ICML'15 proceedings as we read it;
  the theorem numbering differs between versions of the paper.)  :func:`kov_delta` evaluates the
  privacy profile of that pair at any eps_total (the formula above is its value at the grid points
  ``(k - 2i) eps``); :func:`kov_optimal_composition` inverts it.  Labelled simpler bounds:
  :func:`kov_closed_form` (KOV15's closed-form corollary, min of three terms) and
  :func:`~bcdp.accounting.amplification.advanced_composition` (Dwork-Rothblum-Vadhan FOCS 2010,
  Thm III.3; Dwork-Roth 2014 Thm 3.20 = thesis Lemma 2.1.2; in :mod:`bcdp.accounting.amplification`).
* :func:`clones_kov_composition` -- the thesis' composed baseline "Clones [FMT20] + strong
  composition [KOV15]" (Figs 5.4, 5.6, 5.7): FMT21 per round (:mod:`bcdp.shuffle.clones`), KOV15
  across rounds, delta split chosen on a grid.

Inputs are floats (certified at their exact binary values; :mod:`bcdp.accounting.certified_floats`).
Closed forms are evaluated in arb ball arithmetic (python-flint, :mod:`bcdp.core.intervals`) with
outward-rounded float results;
:func:`kov_optimal_composition` finds the root in mpmath (``mpmath.workprec(200)``) and certifies the
bracket with :func:`kov_delta`'s enclosures: ``delta(upper) <= delta_target`` and
``delta(lower) > delta_target`` are both proved.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath

from bcdp.core.errors import CertificationError, InvalidInputError
from bcdp.core.intervals import arb_precision, ball_of
from bcdp.core.results import Certified
from bcdp.accounting.certified_floats import (
    IV_PREC,
    check_count,
    check_nonneg,
    check_prob,
    delta_enclosure,
    epsilon_bracket,
    outward_by_one_ulp,
    upper_float,
    zero_to_upper,
)
from bcdp.accounting.amplification import CLOSED_FORM_VARIANTS, clones_closed_form
from bcdp.shuffle.clones import clones_numerical

_KOV_DELTA = "KOV15 optimal composition: privacy profile of the T-fold (eps, delta)-RR pair, arb balls"


# -- KOV15 optimal composition ----------------------------------------------------------------------

def _kov_range(eps: float, T: int, tail_tol: float) -> tuple[int, int]:
    """Index range of Bin(T, q), q = 1/(1+e^eps), whose complement has mass << tail_tol."""
    q = 1.0 / (1.0 + math.exp(eps))
    mu = T * q
    sd = math.sqrt(T * q * (1 - q))
    K = math.sqrt(2 * math.log(1 / tail_tol)) + 3
    return max(0, int(math.floor(mu - K * sd - 2))), min(T, int(math.ceil(mu + K * sd + K * K + 2)))


def _kov_rr_delta_ball(eps: float, T: int, eps_total: float, tail_tol: float):
    """Arb ball enclosure of the hockey-stick of the T-fold eps-RR pair at e^{eps_total}.

    P_l = C(T,l) q^l (1-q)^{T-l}, q = 1/(1+e^eps) (l = number of flips), privacy loss
    lambda_l = (T - 2l) eps; delta_RR = sum_{lambda_l > eps'} P_l (1 - e^{eps' - lambda_l}).
    Terms outside [l0, l1] are bounded by geometric tails of the P_l (ratios are monotone).
    """
    for _ in range(20):
        l0, l1 = _kov_range(eps, T, tail_tol)
        with arb_precision(IV_PREC):
            e = ball_of(eps)
            q = 1 / (1 + e.exp())
            P = (ball_of(T + 1).lgamma() - ball_of(l0 + 1).lgamma()
                 - ball_of(T - l0 + 1).lgamma() + l0 * q.log() + (T - l0) * (1 - q).log()).exp()
            ratio = (-e).exp()  # P_{l+1}/P_l = (T-l)/(l+1) e^{-eps}
            f = (ball_of(eps_total) - (T - 2 * l0) * e).exp()  # e^{eps' - lambda_l}
            g2 = (2 * e).exp()
            total = ball_of(0)
            ok = True
            left = ball_of(0)
            if l0 > 0:  # sum_{l < l0} P_l <= P_l0 r/(1-r), r = P_{l0-1}/P_l0 (ratios shrink leftwards)
                r = ball_of(l0) * e.exp() / (T - l0 + 1)
                ok = r < 1  # arb comparisons are certified: True only if the whole ball is below 1
                if ok:
                    left = zero_to_upper(P * r / (1 - r))
            stopped = False  # True once 1 - e^{eps' - lambda_l} <= 0 (and for all larger l)
            P_l = P
            for l in range(l0, l1 + 1):
                fac = 1 - f
                if fac <= 0:  # the whole ball is <= 0
                    stopped = True
                    break
                if not fac >= 0:  # the ball reaches below 0: the true factor is in [0, upper end]
                    fac = zero_to_upper(fac)
                total = total + P * fac
                P_l = P
                if l < l1:
                    P = P * (T - l) / (l + 1) * ratio
                    f = f * g2
            right = ball_of(0)
            if not stopped and l1 < T:  # sum_{l > l1} P_l <= P_l1 r/(1-r), r = P_{l1+1}/P_l1
                r = ball_of(T - l1) * ratio / (l1 + 1)
                ok = ok and (r < 1)
                if r < 1:
                    right = zero_to_upper(P_l * r / (1 - r))
            if ok and left <= tail_tol and right <= tail_tol:
                return total + left + right
        tail_tol /= 1e10
    raise CertificationError("could not bound the binomial tails of the RR composition")


def kov_delta(eps: float, delta: float, T: int, eps_total: float) -> Certified:
    """Certified enclosure of the exact delta of the T-fold composition of (eps, delta)-DP at eps_total.

    Source: KOV15 (ICML 2015, arXiv:1311.0776), optimal composition theorem: the worst case of the
    T-fold adaptive composition of (eps, delta)-DP mechanisms is the T-fold product of the 4-point
    pair ``P~0 = (delta, (1-delta) e^eps/(1+e^eps), (1-delta)/(1+e^eps), 0)``,
    ``P~1 = (0, (1-delta)/(1+e^eps), (1-delta) e^eps/(1+e^eps), delta)``, whose profile is
    ``delta_T(eps') = 1 - (1-delta)^T (1 - delta_RR(eps'))`` with
    ``delta_RR(eps') = sum_l C(T,l) max(0, e^{(T-l)eps} - e^{eps'} e^{l eps}) / (1+e^eps)^T``
    (the hockey-stick of T-fold binary randomized response).  At ``eps' = (T - 2i) eps`` this is
    KOV's ``1 - (1-delta)^T (1 - delta_i)``.  For ``eps_total >= T eps``, ``delta_RR = 0``.

    Certified: arb ball arithmetic, binomial mass outside the summed range bounded by geometric
    tails.
    """
    eps = check_nonneg("eps", eps)
    delta = check_prob("delta", delta, allow_zero=True)
    T = check_count("T", T)
    eps_total = check_nonneg("eps_total", eps_total)
    with arb_precision(IV_PREC):
        beyond = ball_of(eps_total) >= T * ball_of(eps)  # then delta_RR = 0 exactly
    rr = 0 if beyond else _kov_rr_delta_ball(eps, T, eps_total, 1e-40)
    with arb_precision(IV_PREC):
        tot = 1 - (1 - ball_of(delta)) ** T * (1 - rr)
    lo, hi = outward_by_one_ulp(tot)
    return delta_enclosure(max(lo, 0.0), min(hi, 1.0), _KOV_DELTA)


def _kov_solve_mp(eps: float, T: int, target_rr, tail_tol: float):
    """Smallest eps' >= 0 with delta_RR(eps') <= target_rr, in mpmath at the caller's precision.

    delta_RR is piecewise of the form A - e^{eps'} B between consecutive losses lambda_l =
    (T-2l) eps, so the root is found segment-wise and solved in closed form.
    """
    mp = mpmath.mp
    e = mp.mpf(eps)
    if eps == 0:
        return mp.mpf(0)
    q = 1 / (1 + mp.exp(e))
    l0, l1 = _kov_range(eps, T, tail_tol)
    half = (T + 1) // 2  # the first l with lambda_l = (T - 2l) eps <= 0
    l1 = max(l1, half)  # the scan below stops at l = half at the latest
    P = mp.exp(mp.loggamma(T + 1) - mp.loggamma(l0 + 1) - mp.loggamma(T - l0 + 1)
               + l0 * mp.log(q) + (T - l0) * mp.log(1 - q))
    ratio = mp.exp(-e)
    A = mp.mpf(0)  # sum_{l0 <= l < j} P_l
    B = mp.mpf(0)  # sum_{l0 <= l < j} P_l e^{-lambda_l}
    em = mp.exp(-(T - 2 * l0) * e)
    g2 = mp.exp(2 * e)
    # V(j) = delta_RR(lambda_j) = A_j - e^{lambda_j} B_j is increasing in j; find the segment.
    l = l0
    while True:
        lam = (T - 2 * l) * e
        if lam <= 0:  # the answer is in [0, lambda_{l-1}]: evaluate at eps' = 0
            V0 = A - B
            if V0 <= target_rr:
                return mp.mpf(0)
            return mp.log((A - target_rr) / B)
        V = A - mp.exp(lam) * B
        if V > target_rr:  # root in (lambda_l, lambda_{l-1}]: included terms are l' < l
            return mp.log((A - target_rr) / B)
        if l > l1:
            raise CertificationError("KOV search left the summed range")
        A += P
        B += P * em
        P = P * (T - l) / (l + 1) * ratio
        em *= g2
        l += 1


def kov_optimal_composition(eps: float, delta: float, T: int, delta_target: float) -> Certified:
    """Smallest eps_total with ``delta_T(eps_total) <= delta_target`` (KOV15 optimal composition).

    Source: KOV15 (ICML 2015, arXiv:1311.0776), optimal (tight) composition theorem for T-fold
    composition of (eps, delta)-DP mechanisms; profile as in :func:`kov_delta`.  Feasible iff
    ``delta_target >= 1 - (1 - delta)^T`` (decided on arb balls, exactly in Fractions when they
    cannot decide); otherwise returns an infinite bracket with the reason.  At equality the target
    is reached exactly where ``delta_RR`` vanishes, ``eps_total >= T eps``.

    The root is computed in mpmath (200 bits) segment by segment (on each segment between
    consecutive privacy losses the profile is ``A - e^{eps'} B``, solved in closed form), then
    certified: ``delta_T(upper) <= delta_target`` and ``delta_T(lower) > delta_target`` are proved
    with :func:`kov_delta`'s ball enclosures.
    """
    eps = check_nonneg("eps", eps)
    delta = check_prob("delta", delta, allow_zero=True)
    T = check_count("T", T)
    delta_target = check_prob("delta_target", delta_target)
    method = "KOV15 optimal composition (exact profile of T-fold (eps,delta)-RR), mpmath root + arb certification"
    with arb_precision(IV_PREC):
        floor_delta = 1 - (1 - ball_of(delta)) ** T
        above = ball_of(delta_target) > floor_delta  # certified (arb)
        below = ball_of(delta_target) < floor_delta
    tie = False
    if not (above or below):  # the ball cannot decide (e.g. an exact tie): decide exactly
        exact_floor = 1 - (1 - Fraction(delta)) ** T
        below = Fraction(delta_target) < exact_floor
        tie = Fraction(delta_target) == exact_floor
    if below:
        return epsilon_bracket(math.inf, math.inf, delta_target, math.inf, math.inf, method,
                              note=f"infeasible: delta_target must be >= 1-(1-delta)^T = {upper_float(floor_delta):.6g}")

    def delta_upper(x: float) -> float:
        """Certified upper end of delta_T(x); at a tie, exactly delta_target once delta_RR(x) = 0."""
        if tie and Fraction(x) >= T * Fraction(eps):
            return delta_target
        return kov_delta(eps, delta, T, x).upper

    with mpmath.workprec(200):
        mp = mpmath.mp
        # target_rr <= 0 at 200 bits (a target below ~1e-60, or within 2^-200 of the floor): solved as 0,
        # i.e. eps_total = T eps, where delta_RR vanishes; the certification below decides
        target_rr = mp.mpf(0) if tie else max(mp.mpf(0), 1 - (1 - mp.mpf(delta_target)) / (1 - mp.mpf(delta)) ** T)
        root = _kov_solve_mp(eps, T, target_rr, max(min(1e-40, 1e-20 * float(target_rr)), 1e-300))
        root_f = float(root)
    if root_f <= 0:
        d0_upper = delta_upper(0.0)
        if d0_upper <= delta_target:
            return epsilon_bracket(0.0, 0.0, delta_target, d0_upper, kov_delta(eps, delta, T, 0.0).lower, method)
    step = max(abs(root_f) * 1e-15, 5e-324)
    up_step = lo_step = step
    for _ in range(40):
        upper = root_f + up_step
        lower = max(0.0, root_f - lo_step)
        d_up = delta_upper(upper)
        ok_up = d_up <= delta_target
        d_lo = kov_delta(eps, delta, T, lower).lower
        ok_lo = d_lo > delta_target or lower == 0.0  # lower = 0 is a trivial lower end
        if ok_up and ok_lo:
            return epsilon_bracket(lower, upper, delta_target, d_up, d_lo, method,
                                  details={"mp_root": mpmath.nstr(root, 30)})
        if not ok_up:
            up_step *= 4
        if not ok_lo:
            lo_step *= 4
    raise CertificationError(f"could not certify the KOV root for eps={eps}, delta={delta}, T={T}")


def kov_closed_form(eps: float, delta: float, T: int, delta_tilde: float) -> tuple[float, float]:
    """KOV15 closed-form composition bound (labelled "KOV15 closed form"): ``(eps_tot, delta_tot)``.

    Source: KOV15 (ICML 2015, arXiv:1311.0776), closed-form corollary of the optimal composition
    theorem: for any ``delta_tilde in (0, 1]`` the T-fold composition of (eps, delta)-DP
    mechanisms is ``(eps_tot, 1 - (1-delta)^T (1 - delta_tilde))``-DP with
    ``eps_tot = min{T eps, T eps (e^eps-1)/(e^eps+1) + eps sqrt(2T log(e + sqrt(T eps^2)/delta_tilde)),
    T eps (e^eps-1)/(e^eps+1) + eps sqrt(2T log(1/delta_tilde))}``.
    Evaluated in arb ball arithmetic; returns outward-rounded upper ends.
    """
    eps = check_nonneg("eps", eps)
    delta = check_prob("delta", delta, allow_zero=True)
    T = check_count("T", T)
    if not (0 < delta_tilde <= 1):
        raise InvalidInputError(f"delta_tilde must be in (0, 1], got {delta_tilde!r}")
    with arb_precision(IV_PREC):
        e = ball_of(eps)
        dt = ball_of(delta_tilde)
        E = e.exp()
        base = T * e * (E - 1) / (E + 1)
        a = T * e
        b = base + e * (2 * T * (ball_of(1).exp() + (T * e * e).sqrt() / dt).log()).sqrt()
        c = base + e * (2 * T * (1 / dt).log()).sqrt()
        d_tot = 1 - (1 - ball_of(delta)) ** T * (1 - dt)
        ub = min(outward_by_one_ulp(a)[1], outward_by_one_ulp(b)[1], outward_by_one_ulp(c)[1])
    return ub, min(outward_by_one_ulp(d_tot)[1], 1.0)


# -- the thesis' composed baseline -------------------------------------------------------------------

def clones_kov_composition(eps0: float, n: int, T: int, delta: float, *,
                           per_round: str = "numerical", split_grid=(0.1, 0.3, 0.5, 0.7, 0.9)
                           ) -> Certified:
    """Thesis Figs 5.4-5.7 baseline "Clones [FMT20] + strong composition [KOV15]", certified.

    Each of the T rounds is a shuffle of n eps0-DP reports, (eps~, delta~)-DP by FMT21 with
    ``delta~ = x delta / T``; the T rounds are composed with KOV15's optimal composition at total
    ``delta`` (KOV: ``1 - (1 - delta~)^T (1 - delta_RR) <= delta``).  The split ``x`` is chosen
    from ``split_grid`` (the thesis does not state its split; it is optimised here on a grid; the first of equally good splits is kept).  ``per_round``: ``"numerical"`` (:func:`clones_numerical`, certified upper end;
    the thesis text says its FMT baseline was "computed numerically"), ``"author-code"`` or
    ``"theorem-3.1"`` (:func:`clones_closed_form`; split points outside Thm 3.1's range are
    skipped).  Returns the KOV bracket of the best split, with ``details`` recording the split,
    the per-round eps~ and every split tried.  ``upper`` is a certified guarantee; ``lower`` is the
    lower end of the KOV bracket *for that per-round eps~* (not a lower bound on the privacy of
    the shuffled protocol).
    """
    eps0 = check_nonneg("eps0", eps0)
    n = check_count("n", n)
    T = check_count("T", T)
    delta = check_prob("delta", delta)
    if per_round not in ("numerical",) + CLOSED_FORM_VARIANTS:
        raise InvalidInputError(f"per_round must be 'numerical' or one of {CLOSED_FORM_VARIANTS}")
    grid = [float(x) for x in split_grid]
    if not grid or any(not (0 < x < 1) for x in grid):
        raise InvalidInputError("split_grid must be a non-empty sequence of numbers in (0, 1)")
    best = None
    tried = []
    for x in grid:
        dt = x * delta / T
        if per_round == "numerical":
            et = clones_numerical(eps0, n, dt).upper
        else:
            et = clones_closed_form(eps0, n, dt, variant=per_round, outside="inf")
            if et == math.inf:
                tried.append({"x": x, "per_round_eps": "outside Thm 3.1 range"})
                continue
        b = kov_optimal_composition(et, dt, T, delta)
        tried.append({"x": x, "per_round_eps": et, "eps_total": b.upper})
        if best is None or b.upper < best[0].upper:
            best = (b, x, et)
    if best is None:
        return epsilon_bracket(math.inf, math.inf, delta, math.inf, math.inf,
                              f"FMT21 ({per_round}) + KOV15", note="no split point in the validity range",
                              details={"tried": tried})
    b, x, et = best
    return epsilon_bracket(b.lower, b.upper, delta, b.delta_at_upper, b.delta_at_lower,
                          f"FMT21 ({per_round}) per round + KOV15 optimal composition",
                          details={"split_x": x, "per_round_eps": et, "per_round_delta": x * delta / T,
                                   "tried": tried})


__all__ = ["clones_kov_composition", "kov_closed_form", "kov_delta",
           "kov_optimal_composition"]
