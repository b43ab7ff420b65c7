"""Thesis Thm 3.6.4 (central lower bound, cited from [CCK22], [BUV14]) and Remark 3.6.2: the MMS l2 scheme matches it up to logs.

Thm 3.6.4 (Sec. 3.6) is an Omega(.) over all unbiased (eps, delta)-DP b-bit schemes, proved in the
cited papers, not in the thesis: it is *cited*, never decided here.  :func:`thm364_rate` is its
right side with unit constant, (r2^2 d/n^2) max{log(1/delta)/eps^2, n/(d 4^{b/d})} for b > d (3.39),
(r2^2 d/n^2) max{log(1/delta)/eps^2, n/b} for b < d (3.40) (b = d is in neither case: refused).
Its hypotheses eps = O(1) and delta = o(1/n) are asymptotic and not enforced; r2 >= 1 is.

What is decided (Remark 3.6.2): the MMS scheme of Thm 3.6.2 with the parameters of the remark,
(s, m) = (d, b/d) for b > d and (b, 1) for b < d (:func:`rem362_parameters`), has the explicit MSE bound
of the proofs, (3.34) with r_inf of (3.41) (r_inf^2 d^2 = 100 r2^2 d log(nd/beta)), Thm 3.6.1-3.6.2 proof:

    4 r_inf^2 ((4d^2/(3n))(1/s - 1/d) + 5 C d^2 log(1/delta)/(n^2 min{eps^2, eps}) + d/(n 4^m))

(:func:`thm362_explicit_mse`; C = 144 as printed, 432 with the corrected calibration of E-Thesis-3.8,
the default; 5 C = 720 / 2160 is E-Thesis-3.34), and its ratio to the unit-constant rate
(:func:`rem362_ratio`) lies between 400 log(nd/beta) (b > d; 100 log(nd/beta) for b < d) and
:func:`rem362_ratio_bound` = 400 log(nd/beta) (5 C max{1, eps} + 1) for b > d,
400 log(nd/beta) (5 C max{1, eps} + 19/12) for b < d: the ratio is Theta(log(nd/beta)) for
eps = O(1) (Thm 3.6.4's hypothesis; the factor max{1, eps} is the gap between eps^2 and
min{eps^2, eps}).  Caveat: with s = b < d the scheme sends b (ceil(log2 ceil(d/b)) + 1) bits, not b
(:func:`rem362_bits`, Thm 3.6.2's m s (log ceil(d/s) + 1)); at its true bit count b' (when b' < d)
the (3.40) term n/b' is smaller by the factor b'/b, another log.

The communication term: the quantizer alone (Sec. 3.5.1, m bits per coordinate, no privacy) has
worst-case MSE of the mean 4 r_inf^2 d/(n 4^m) (:func:`quantizer_only_worst_mse`, Cor 3.5.1 with
equality at pi = 1/2), against the (3.39) term r2^2/(n 4^{b/d}) at b = m d: ratio 4 r_inf^2 d/r2^2,
i.e. exactly 4 at d = 1 (B_2(r2) = [-r2, r2]) and 400 log(nd/beta) after the rotation (3.41).  That no
b-bit unbiased scheme does better than Omega(n/(d 4^{b/d})) is [CCK22]'s theorem (cited).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import sympy

from bcdp.core.errors import InvalidInputError, ValidityConditionError
from bcdp.core.numbers import to_fraction
from bcdp.dme import binary_vector as bv
from bcdp.dme import quantizer

from ._args import check_int

#: Calibration constant of v^2 = s n min{eps^2, eps}/(C log(1/delta)): 144 printed (3.30), 432 corrected.
PRINTED_CALIBRATION = 144
CORRECTED_CALIBRATION = 432


def _rat(value: Any, name: str, *, low: Fraction = Fraction(0), high: Fraction | None = None) -> sympy.Rational:
    v = to_fraction(value, name)
    if v <= low or (high is not None and v >= high):
        rng = f"({low}, {high})" if high is not None else f"> {low}"
        raise InvalidInputError(f"{name} must be {'in ' if high is not None else ''}{rng}, got {v}")
    return sympy.Rational(v.numerator, v.denominator)


def _r2(r2: Any) -> sympy.Rational:
    r = _rat(r2, "r2")
    if r < 1:
        raise ValidityConditionError(f"r2 = {r} < 1: Thm 3.6.4 assumes r2 >= 1")
    return r


def thm364_rate(n: Any, d: Any, r2: Any, eps: Any, delta: Any, b: Any) -> sympy.Expr:
    """The right side of thesis Thm 3.6.4 with unit constant (cited from [CCK22], [BUV14]):
    (r2^2 d/n^2) max{log(1/delta)/eps^2, n/(d 4^{b/d})} for b > d (3.39),
    (r2^2 d/n^2) max{log(1/delta)/eps^2, n/b} for b < d (3.40); n, d, b >= 1 ints, r2 >= 1,
    eps > 0, delta in (0, 1) exact.  b = d (neither case) raises ValidityConditionError."""
    nn, dd, bb = check_int(n, "n", 1), check_int(d, "d", 1), check_int(b, "b", 1)
    r, e = _r2(r2), _rat(eps, "eps")
    dl = _rat(delta, "delta", high=Fraction(1))
    if bb == dd:
        raise ValidityConditionError(f"b = d = {dd}: Thm 3.6.4 states b > d (3.39) and b < d (3.40) only")
    comm = sympy.Rational(nn, dd) / sympy.Integer(4) ** sympy.Rational(bb, dd) if bb > dd else sympy.Rational(nn, bb)
    return r ** 2 * dd / nn ** 2 * sympy.Max(sympy.log(1 / dl) / e ** 2, comm)


def rem362_parameters(d: Any, b: Any) -> tuple[int, int]:
    """(s, m) of thesis Remark 3.6.2: (d, b/d) for b > d (d must divide b: m is a number of levels),
    (b, 1) for b < d; b = d raises ValidityConditionError (Thm 3.6.4 has no case for it)."""
    dd, bb = check_int(d, "d", 1), check_int(b, "b", 1)
    if bb == dd:
        raise ValidityConditionError(f"b = d = {dd}: Remark 3.6.2 covers b > d and b < d only")
    if bb > dd:
        if bb % dd:
            raise ValidityConditionError(f"m = b/d = {bb}/{dd} must be an integer (levels of Alg 3.5.1)")
        return dd, bb // dd
    return bb, 1


def rem362_bits(d: Any, b: Any) -> int:
    """Bits per client of the Remark 3.6.2 scheme: m s (ceil(log2 ceil(d/s)) + 1) (Thm 3.6.2, with
    :func:`bcdp.dme.binary_vector.communication_bits` per level): b for b > d, b (ceil(log2 ceil(d/b)) + 1)
    for b < d."""
    s, m = rem362_parameters(d, b)
    return m * bv.communication_bits(check_int(d, "d", 1), s)


def clip_radius_squared(r2: Any, d: Any, n: Any, beta: Any) -> sympy.Expr:
    """r_inf^2 = 100 r2^2 log(nd/beta)/d (thesis (3.41), Alg 3.6.1 step 5), exact sympy; beta in (0, 1)."""
    r = _rat(r2, "r2")
    dd, nn = check_int(d, "d", 1), check_int(n, "n", 1)
    bt = _rat(beta, "beta", high=Fraction(1))
    return 100 * r ** 2 * sympy.log(nn * dd / bt) / dd


def thm362_explicit_mse(n: Any, d: Any, r2: Any, eps: Any, delta: Any, beta: Any, s: Any, m: Any,
                        calibration: Any = CORRECTED_CALIBRATION) -> sympy.Expr:
    """The explicit MSE bound of thesis Thm 3.6.2 (3.37) along its proof: (3.34) of Thm 3.5.2 with the
    middle constant 5 C (S_m^3 <= 5; C the calibration constant, 432 by default: E-Thesis-3.8, 3.34)
    at r_inf^2 = 100 r2^2 log(nd/beta)/d ((3.41), holds with probability >= 1 - beta):
    4 r_inf^2 ((4d^2/(3n))(1/s - 1/d) + 5 C d^2 log(1/delta)/(n^2 min{eps^2, eps}) + d/(n 4^m)).
    Needs 1 <= s <= d, m >= 1 and eps <= m s (Thm 3.6.2)."""
    nn, dd = check_int(n, "n", 1), check_int(d, "d", 1)
    ss, mm, cc = check_int(s, "s", 1), check_int(m, "m", 1), check_int(calibration, "calibration", 1)
    e = _rat(eps, "eps")
    dl = _rat(delta, "delta", high=Fraction(1))
    if ss > dd:
        raise ValidityConditionError(f"s = {ss} must be in {{1, ..., d}} (thesis Alg 3.5.1)")
    if e > mm * ss:
        raise ValidityConditionError(f"eps = {e} > m s = {mm * ss}: Thm 3.6.2 needs eps <= m s")
    r_inf2 = clip_radius_squared(r2, dd, nn, beta)
    sampling = sympy.Rational(4 * dd * dd, 3 * nn) * (sympy.Rational(1, ss) - sympy.Rational(1, dd))
    privacy = 5 * cc * dd ** 2 * sympy.log(1 / dl) / (nn ** 2 * sympy.Min(e ** 2, e))
    quant = sympy.Rational(dd, nn * 4 ** mm)
    return 4 * r_inf2 * (sampling + privacy + quant)


def rem362_ratio(n: Any, d: Any, r2: Any, eps: Any, delta: Any, beta: Any, b: Any,
                 calibration: Any = CORRECTED_CALIBRATION) -> sympy.Expr:
    """:func:`thm362_explicit_mse` at Remark 3.6.2's (s, m) divided by :func:`thm364_rate` at b bits."""
    s, m = rem362_parameters(d, b)
    return thm362_explicit_mse(n, d, r2, eps, delta, beta, s, m, calibration) / thm364_rate(n, d, r2, eps, delta, b)


def rem362_ratio_bound(n: Any, d: Any, eps: Any, beta: Any, b: Any,
                       calibration: Any = CORRECTED_CALIBRATION) -> sympy.Expr:
    """Upper bound on :func:`rem362_ratio` (derived here from (3.34), (3.39)-(3.40)):
    400 log(nd/beta) (5 C max{1, eps} + 1) for b > d (the quantizer term equals the n/(d 4^{b/d}) term)
    and 400 log(nd/beta) (5 C max{1, eps} + 19/12) for b < d (the sampling term is <= 4/3 and the
    quantizer term <= 1/4 of the n/b term); the privacy term is 5 C max{1, eps} times the
    log(1/delta)/eps^2 term."""
    rem362_parameters(d, b)
    e = _rat(eps, "eps")
    cc = check_int(calibration, "calibration", 1)
    log_nd = clip_radius_squared(1, d, n, beta) * check_int(d, "d", 1) / 100
    extra = sympy.Integer(1) if check_int(b, "b", 1) > check_int(d, "d", 1) else sympy.Rational(19, 12)
    return 400 * log_nd * (5 * cc * sympy.Max(1, e) + extra)


def quantizer_only_worst_mse(n: Any, d: Any, m: Any, r_inf: Any) -> Fraction:
    """sup over w_i in [-r_inf, r_inf]^d of the MSE of the mean when each client sends the m-bit
    stochastic quantizer of z = (w + r_inf)/(2 r_inf) per coordinate (thesis Sec. 3.5.1, Cor 3.5.1; no
    privacy), exact: 4 r_inf^2 d E(z~ - z)^2 / n at z = 1 - 2^{-m} (pi = 1/2, where Lemma 3.5.1's
    4^{-(m-1)} pi (1 - pi) <= 4^{-m} is attained); coordinates and clients independent."""
    nn, dd, mm = check_int(n, "n", 1), check_int(d, "d", 1), check_int(m, "m", 1)
    r = to_fraction(r_inf, "r_inf")
    if r <= 0:
        raise InvalidInputError(f"r_inf must be > 0, got {r}")
    return 4 * r * r * dd * quantizer.quantize_mse(1 - Fraction(1, 2 ** mm), mm) / nn
