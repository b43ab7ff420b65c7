"""[EFM19, Cor 9] as quoted in thesis Lemma 2.3.1 part 2 (Sec. 2.3), with its validity conditions, and
the exact (eps, delta) privacy profile of one neighbouring pair of shuffled binary randomized response.

* :func:`efm19_cor9_epsilon` -- thesis Lemma 2.3.1 (2): if R is eps0-LDP with eps0 < 1/2, then for any
  delta in (0, 1/100) and n >= 1000 the shuffle H_n o (R(d_1), ..., R(d_n)) is (eps, delta)-DP with
  eps = 12 eps0 sqrt(log(1/delta)/n).  Each of the three conditions is enforced
  (:class:`~bcdp.core.errors.ValidityConditionError`); eps0 < 0, delta <= 0 or n < 1 are bad input.
* :func:`rr_shuffled_pair_delta` -- binary randomized response R(b) = b w.p. r/(1+r), r = e^{eps0}
  (exact rational), shuffled: the output is the count of 1-reports.  For the replace-one pair
  D = (0, x_2..x_n), D' = (1, x_2..x_n) where ``ones`` of x_2..x_n are 1, the count is Y + S with
  S = Bin(ones, r/(1+r)) + Bin(n-1-ones, 1/(1+r)) and Y ~ R(0) or R(1); the function returns
  max(H_{e^eps}(P||Q), H_{e^eps}(Q||P)) = sum_c max(0, P(c) - e^eps Q(c)) (and the mirror) with mpmath
  at ``dps`` digits from the exact pmfs (cost O(n min(ones + 1, n - ones))).  The privacy profile of the
  shuffled RR is the max of this over ``ones`` in 0..n-1 (every other pair is a relabelling or has
  equal laws); any single ``ones`` gives a lower bound.
"""

from __future__ import annotations

from fractions import Fraction
from numbers import Integral
from typing import Any

from bcdp.core.errors import FloatRefusedError, InvalidInputError, ValidityConditionError, WrongTypeError
from bcdp.core.numbers import MAX_DPS, brief_number, check_precision, to_fraction

#: Thesis Lemma 2.3.1 (2) validity conditions: eps0 < EPS0_BOUND, delta < DELTA_BOUND, n >= N_MIN.
EPS0_BOUND = Fraction(1, 2)
DELTA_BOUND = Fraction(1, 100)
N_MIN = 1000
#: The printed constant.
CONSTANT = 12


def _int(value: Any, name: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise WrongTypeError(f"{name} must be an integer, got {type(value).__name__} {value!r}")
    if int(value) < minimum:
        raise InvalidInputError(f"{name} must be an integer >= {minimum}, got {int(value)}")
    return int(value)


def _real(value: Any, name: str):
    """An exact rational (as an mpf at the current precision) or an mpmath mpf; floats refused."""
    import mpmath
    if isinstance(value, float):
        raise FloatRefusedError(f"{name}: floats are refused (got {value!r}); pass a Fraction, a string "
                                "such as '1/4' or an mpmath.mpf")
    if isinstance(value, mpmath.mpf):
        if not mpmath.isfinite(value):
            raise InvalidInputError(f"{name} must be finite, got {value}")
        return +value
    x = to_fraction(value, name)
    return mpmath.mpf(x.numerator) / x.denominator


def efm19_cor9_epsilon(eps0: Any, n: int, delta: Any, dps: int = 50):
    """Thesis Lemma 2.3.1 part 2 ([EFM19, Cor 9]): eps = 12 eps0 sqrt(log(1/delta)/n), an mpf at ``dps``
    digits rounded up (>= the formula at the given eps0, delta, which are taken exactly).  Validity:
    0 <= eps0 < 1/2, 0 < delta < 1/100, n >= 1000 (replace-one neighbours, R any eps0-LDP randomizer,
    shuffler H_n uniform)."""
    import mpmath
    dps = check_precision(dps, "dps", 15, MAX_DPS)
    n = _int(n, "n", 1)
    if n < N_MIN:
        raise ValidityConditionError(f"Lemma 2.3.1 (2) needs n >= {N_MIN}, got n = {n}")
    with mpmath.workdps(dps + 10):
        e0 = _real(eps0, "eps0")
        d = _real(delta, "delta")
        if e0 < 0:
            raise InvalidInputError(f"eps0 must be >= 0, got {mpmath.nstr(e0, 10)}")
        if e0 >= mpmath.mpf(1) / 2:
            raise ValidityConditionError(f"Lemma 2.3.1 (2) needs eps0 < 1/2, got eps0 = {mpmath.nstr(e0, 10)}")
        if d <= 0:
            raise InvalidInputError(f"delta must be > 0, got {mpmath.nstr(d, 10)}")
        if d >= mpmath.mpf(1) / 100:
            raise ValidityConditionError(f"Lemma 2.3.1 (2) needs delta < 1/100, got delta = {mpmath.nstr(d, 10)}")
        value = CONSTANT * e0 * mpmath.sqrt(mpmath.log(1 / d) / n)
    with mpmath.workdps(dps):
        out = +value
    with mpmath.workdps(dps + 10):
        below = out < value
    if below:                       # a guarantee: round up, never to nearest below the formula
        with mpmath.workdps(dps):
            out = out + abs(out) * 2 * mpmath.eps
    return out


def _binom_pmf(N: int, p, one):
    """Bin(N, p) pmf as a list of mpf (multiplicative recurrence, exact inputs, no underflow in mpmath)."""
    out = [(one - p) ** N]
    ratio = p / (one - p)
    for c in range(N):
        out.append(out[-1] * (N - c) / (c + 1) * ratio)
    return out


def _convolve(a: list, b: list) -> list:
    if len(a) < len(b):
        a, b = b, a
    out = [a[0] * 0] * (len(a) + len(b) - 1)
    for j, bj in enumerate(b):
        for i, ai in enumerate(a):
            out[i + j] += ai * bj
    return out


def rr_shuffled_pair_delta(n: int, ratio0: Any, eps: Any, ones: int = 0, dps: int = 50):
    """max(H_{e^eps}(P||Q), H_{e^eps}(Q||P)) for the counts of shuffled binary RR (ratio r = e^{eps0}
    > 1 exact) on D = (0, x) and D' = (1, x), ``ones`` of the n - 1 common records x equal to 1
    (module docstring); ``eps`` >= 0 exact or mpf.  An mpf at ``dps`` digits."""
    import mpmath
    dps = check_precision(dps, "dps", 15, MAX_DPS)
    n = _int(n, "n", 1)
    ones = _int(ones, "ones", 0)
    if ones > n - 1:
        raise InvalidInputError(f"ones must be <= n - 1 = {n - 1}, got {ones}")
    r = to_fraction(ratio0, "ratio0")
    if r <= 1:
        raise InvalidInputError(f"ratio0 = e^eps0 must be > 1, got {brief_number(r)}")
    with mpmath.workdps(dps + 20):
        e = _real(eps, "eps")
        if e < 0:
            raise InvalidInputError(f"eps must be >= 0, got {mpmath.nstr(e, 10)}")
        one = mpmath.mpf(1)
        keep = mpmath.mpf(r.numerator) / (r.numerator + r.denominator)       # r / (1 + r)
        S = _convolve(_binom_pmf(ones, keep, one), _binom_pmf(n - 1 - ones, one - keep, one))
        zero = mpmath.mpf(0)
        P = [(S[c] if c < len(S) else zero) * keep + (S[c - 1] if c >= 1 else zero) * (one - keep)
             for c in range(n + 1)]                                       # first record 0
        Q = [(S[c] if c < len(S) else zero) * (one - keep) + (S[c - 1] if c >= 1 else zero) * keep
             for c in range(n + 1)]                                       # first record 1
        E = mpmath.exp(e)
        h1 = mpmath.fsum(max(zero, a - E * b) for a, b in zip(P, Q))
        h2 = mpmath.fsum(max(zero, b - E * a) for a, b in zip(P, Q))
        value = max(h1, h2)
    with mpmath.workdps(dps):
        return +value
