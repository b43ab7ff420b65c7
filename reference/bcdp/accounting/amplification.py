"""Privacy amplification and composition closed forms shared by the thesis chapters (certified).

* :func:`subsampling_amplification` -- thesis Lemma 2.1.1 (amplification by subsampling, [KLN11],
  [Ull17]): a mechanism that is (eps, delta)-DP on k records, run on a uniformly random k-subset of n
  records, is ``(log(1 + q (e^eps - 1)), q delta)``-DP with ``q = k/n`` (the replace-one
  neighbouring relation; Balle, Barthe, Gaboardi, NeurIPS 2018, give the same pair for sampling
  without replacement).
* :func:`advanced_composition` -- thesis Lemma 2.1.2 (strong composition; Dwork-Rothblum-Vadhan
  FOCS 2010, Thm III.3; Dwork-Roth 2014 Thm 3.20).
* :func:`clones_closed_form`, :func:`clones_closed_form_cap` -- the closed form of FMT21 Thm 3.1
  (Feldman, McMillan, Talwar, FOCS 2021, arXiv:2012.12803) = thesis eq. (6.10) (Ch. 6, Sec. 6.5),
  with the domain condition ``eps0 <= log(n / (16 log(2/delta)))`` that eq. (6.10) omits; used by
  the Ch. 5 baselines and the Ch. 4 and Ch. 6 calibrations.
* :func:`clones_closed_form_inverse` -- ``f^{-1}_{n,delta}`` of Alg 6.4.1: the largest local eps0
  in the theorem's range whose shuffle is eps-DP by eq. (6.10).

Inputs are floats (or ints) certified at their exact binary values
(:mod:`bcdp.accounting.certified_floats`); the closed forms are evaluated in arb ball arithmetic
(python-flint, :mod:`bcdp.core.intervals`) and the returned floats are upper ends rounded outward.
"""

from __future__ import annotations

import math
from fractions import Fraction
from numbers import Integral

from bcdp.accounting.certified_floats import (
    IV_PREC,
    check_count,
    check_nonneg,
    check_prob,
    outward_by_one_ulp,
    upper_float,
)
from bcdp.core.errors import InvalidInputError, ValidityConditionError, WrongTypeError
from bcdp.core.intervals import arb_precision, ball_of


def _check_rate(q) -> Fraction | float:
    """A sampling rate q in (0, 1]: a float, an int (only 1) or an exact Fraction k/n."""
    if isinstance(q, bool) or not isinstance(q, (float, Integral, Fraction)):
        raise WrongTypeError(f"q must be a float, an int or a Fraction, got {type(q).__name__}")
    if isinstance(q, float) and not math.isfinite(q):
        raise InvalidInputError(f"q must be in (0, 1], got {q!r}")
    if not (0 < q <= 1):
        raise InvalidInputError(f"q must be in (0, 1], got {q}")
    return q if isinstance(q, (float, Fraction)) else Fraction(int(q))


def subsampling_amplification(eps: float, delta: float, q) -> tuple[float, float]:
    """Thesis Lemma 2.1.1 (Sec. 2.1; [KLN11], [Ull17]): ``(eps', delta') = (log(1 + q(e^eps - 1)), q delta)``.

    If M on k records is (eps, delta)-DP, then M run on a uniformly random k-subset of n records
    (``samp_{n,k}``, without replacement) is (eps', delta')-DP for the replace-one relation, with
    ``q = k/n``.  ``q`` may be an exact Fraction ``k/n`` (a float is taken at its binary value).
    Returns the upper ends of arb enclosures, rounded outward: a valid (eps', delta') pair.
    """
    eps = check_nonneg("eps", eps)
    delta = check_prob("delta", delta, allow_zero=True)
    q = _check_rate(q)
    with arb_precision(IV_PREC):
        Q = ball_of(q)
        e = (Q * ball_of(eps).expm1()).log1p()
        d = Q * ball_of(delta)
    return outward_by_one_ulp(e)[1], (0.0 if delta == 0 else outward_by_one_ulp(d)[1])


def advanced_composition(eps: float, delta: float, T: int, delta_prime: float) -> tuple[float, float]:
    """Advanced composition (labelled "DRV10"): ``(eps_tot, delta_tot)`` for T-fold (eps, delta)-DP.

    Source: Dwork, Rothblum, Vadhan, FOCS 2010, Thm III.3; Dwork-Roth 2014 Thm 3.20; thesis
    Lemma 2.1.2: ``eps_tot = sqrt(2 T log(1/delta')) eps + T eps (e^eps - 1)``,
    ``delta_tot = T delta + delta'``.  Evaluated in arb ball arithmetic; outward-rounded upper ends.
    """
    eps = check_nonneg("eps", eps)
    delta = check_prob("delta", delta, allow_zero=True)
    T = check_count("T", T)
    delta_prime = check_prob("delta_prime", delta_prime)
    with arb_precision(IV_PREC):
        e = ball_of(eps)
        val = (2 * T * (1 / ball_of(delta_prime)).log()).sqrt() * e + T * e * (e.exp() - 1)
        d_tot = T * ball_of(delta) + ball_of(delta_prime)
    return outward_by_one_ulp(val)[1], outward_by_one_ulp(d_tot)[1]


#: ``"author-code"``: the expression of apple/ml-shuffling-amplification@993d285
#: ``closedformanalysis`` (reproduces the README's 0.5378040242374512); ``"theorem-3.1"``: the
#: expression printed in FMT21 Thm 3.1 and in thesis eq. (6.10).
CLOSED_FORM_VARIANTS = ("author-code", "theorem-3.1")


def clones_closed_form_cap(n: int, delta: float) -> float:
    """FMT21 Thm 3.1 validity cap ``log(n / (16 log(2/delta)))`` (a float enclosure's lower end).

    The theorem holds for ``eps0 <= cap``; thesis eq. (6.10) omits this condition, and the authors'
    code checks the stricter ``log(n/(16 log(4/delta)))``.
    """
    n = check_count("n", n)
    delta = check_prob("delta", delta)
    with arb_precision(IV_PREC):
        cap = (ball_of(n) / (16 * (2 / ball_of(delta)).log())).log()
    return outward_by_one_ulp(cap)[0]


def clones_closed_form(eps0: float, n: int, delta: float, *, variant: str = "author-code",
                       outside: str = "raise") -> float:
    """FMT21 Thm 3.1 closed-form bound: the shuffle of n eps0-DP local reports is (eps, delta)-DP.

    Source: Feldman, McMillan, Talwar, FOCS 2021 (arXiv:2012.12803), Thm 3.1: for
    ``eps0 <= log(n / (16 log(2/delta)))``,
    ``eps <= log(1 + (e^eps0 - 1)/(e^eps0 + 1) * (8 sqrt(e^eps0 log(4/delta)) / sqrt(n)
    + 8 e^eps0 / n))``  (``variant="theorem-3.1"``; the same expression is thesis eq. (6.10)).

    ``variant="author-code"`` (default) evaluates the expression of the authors' code
    (apple/ml-shuffling-amplification@993d285, ``closedformanalysis``): with
    ``a = 8 sqrt(e^eps0 log(4/delta)/n)``, ``c = 8 e^eps0 / n`` and ``e1 = log(1 + a + c)``,
    ``eps = log(1 + (1 - e^-eps0) / (1 + e^{-eps0-e1}) * (a + c))``.  This is the expression
    behind the README's published 0.5378040242374512 and the values the authors' code prints.
    Since ``1 + e^{-eps0-e1} <= 1 + e^{-eps0}`` it is never smaller than the theorem's expression
    (e.g. 0.10468 vs 0.09387 at n = 1e4, eps0 = 0.5, delta = 1e-6), hence it is the conservative
    choice and a valid bound wherever Thm 3.1 is.

    Validity: ``eps0 <= log(n / (16 log(2/delta)))`` (the theorem's condition; decided with
    ball arithmetic).  Outside it, ``outside="raise"`` raises :class:`ValidityConditionError`
    and ``outside="inf"`` returns ``math.inf`` (no guarantee from this theorem).

    Returns a float that is >= the exact value of the chosen expression (ball evaluation,
    upper end rounded outward).
    """
    eps0 = check_nonneg("eps0", eps0)
    n = check_count("n", n)
    delta = check_prob("delta", delta)
    if variant not in CLOSED_FORM_VARIANTS:
        raise InvalidInputError(f"variant must be one of {CLOSED_FORM_VARIANTS}, got {variant!r}")
    if outside not in ("raise", "inf"):
        raise InvalidInputError(f"outside must be 'raise' or 'inf', got {outside!r}")
    with arb_precision(IV_PREC):
        e0 = ball_of(eps0)
        cap = (ball_of(n) / (16 * (2 / ball_of(delta)).log())).log()
        if not e0 <= cap:  # arb: True only if certain; "refuted" only if e0 > cap is certain
            refuted = e0 > cap
            reason = (f"FMT21 Thm 3.1 needs eps0 <= log(n/(16 log(2/delta))) = {upper_float(cap):.6g}"
                      f" for n={n}, delta={delta:g}; got eps0={eps0:g}"
                      + ("" if refuted else " (comparison undecidable at this precision)"))
            if outside == "inf":
                return math.inf
            raise ValidityConditionError(reason)
        E = e0.exp()
        lg = (4 / ball_of(delta)).log()
        a = 8 * (E * lg).sqrt() / ball_of(n).sqrt()
        c = 8 * E / n
        if variant == "theorem-3.1":
            val = (1 + (E - 1) / (E + 1) * (a + c)).log()
        else:
            e1 = (1 + a + c).log()
            val = (1 + (1 - (-e0).exp()) / (1 + (-e0 - e1).exp()) * (a + c)).log()
    return outward_by_one_ulp(val)[1]


def clones_closed_form_inverse(eps: float, n: int, delta: float, *, variant: str = "theorem-3.1") -> float:
    """``f^{-1}_{n,delta}(eps)`` of thesis Alg 6.4.1 (Sec. 6.5), with ``f`` = eq. (6.10) (FMT21 Thm 3.1).

    The local budget eps0 of Alg 6.4.1 is the largest eps0 whose shuffle of n reports is
    (eps, delta)-DP by eq. (6.10).  ``f`` is increasing in eps0 and defined (as a guarantee) only on
    ``[0, cap]`` with ``cap = log(n / (16 log(2/delta)))`` (:func:`clones_closed_form_cap`), a
    condition eq. (6.10) omits; so the result never exceeds the cap, and equals it when
    ``f(cap) <= eps``.  Otherwise it is found by bisection on floats with the certified upper
    evaluation of :func:`clones_closed_form`: the returned eps0 is proved to satisfy
    ``f(eps0) <= eps``, and the next bisection point above it is not (it is within one float of the
    exact inverse unless f's enclosure is wider than that).  ``variant`` as in
    :func:`clones_closed_form`.  Raises :class:`ValidityConditionError` when the cap is negative
    (n too small for the theorem at this delta).
    """
    eps = check_nonneg("eps", eps)
    n = check_count("n", n)
    delta = check_prob("delta", delta)
    if variant not in CLOSED_FORM_VARIANTS:
        raise InvalidInputError(f"variant must be one of {CLOSED_FORM_VARIANTS}, got {variant!r}")
    cap = clones_closed_form_cap(n, delta)
    if cap < 0:
        raise ValidityConditionError(f"FMT21 Thm 3.1 gives no eps0 >= 0 for n={n}, delta={delta:g}: "
                                     f"log(n/(16 log(2/delta))) = {cap:.6g} < 0")
    if clones_closed_form(cap, n, delta, variant=variant) <= eps:
        return cap
    lo, hi = 0.0, cap
    while True:
        mid = lo + (hi - lo) / 2
        if mid <= lo or mid >= hi:
            return lo
        if clones_closed_form(mid, n, delta, variant=variant) <= eps:
            lo = mid
        else:
            hi = mid


__all__ = ["CLOSED_FORM_VARIANTS", "advanced_composition", "clones_closed_form", "clones_closed_form_cap",
           "clones_closed_form_inverse", "subsampling_amplification"]
