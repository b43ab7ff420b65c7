"""Lemma 1 (eqs. (85)-(87)) and the r^2 step of the rate (22): exact second moments of M_mean at c/2.

BCDP paper (arXiv:2410.18404), Sec. 5, Theorem 3 eq. (22); App. C.1 eqs. (83)-(89); App. C.2.
Algorithm 3 sends two independent copies x^(i,1), x^(i,2) of M_mean(x^(i), c/2) (Mechanism 1 over
Mechanism 2, unprojected); z is the feature block of x (its first ``features`` coordinates; the
label is last).  A_i := (z^(i,1) - z^(i))(z^(i,2) - z^(i))^T (eq. (84)) and

    r^2 := sup_{x in [-1,1]^d} E[|M_mean(x, c/2) - x|^2 | x]                              (85)
    || sum_i E[A_i A_i^T] || <= n r^4,      E[max_i ||A_i||^2] <= n r^4.                   (86), (87)

Exact second moments.  Stage k of M_mean releases Y^k with E[Y^k] = x_{k:d} (unbiased constant,
E-Mech2-B) and E[Y^k Y^k^T] = s_k I (:mod:`bcdp.bayesian.mmean_utility`: s_k = B_k^2/m_k for the
sphere; s_k = B_{m_k}^2 for the cube discretisation of :mod:`bcdp.bayesian.mech2_discrete`), so
Cov(Y^k) = s_k I - x_{k:d} x_{k:d}^T and, the stages being independent,

    Cov(nu_i, nu_j | x) = sum_{k <= min(i,j)} w_k^2 (s_k [i = j] - x_i x_j) / (W_i W_j),   (*)

w_k = b_k^2/(d-k+1), W_i = sum_{k<=i} w_k (stages with b_k = 0 skipped).  With u = z^1 - z and
v = z^2 - z independent, mean 0, covariance Sigma_z (the feature block of (*)):
E[A_i A_i^T] = E|v|^2 E[u u^T] = tr(Sigma_z) Sigma_z and E||A_i||^2 = E|u|^2 E|v|^2 = tr(Sigma_z)^2
(||u v^T|| = |u| |v|).  (85)'s sup is at x = 0 (every variance in (*) decreases in x_i^2), so
r^2 = tr Cov(nu | 0) at c/2 = :func:`bcdp.bayesian.mmean_utility.mse_sup` of c/2.

The r^2 step of (22).  After (88) the proof reads "r^2 = O(1) sum_i 1/(sum_{k<=i} (c_k-c_{k-1})^2/(d-k+1))"
= O(1) S(c).  Exactly, r^2 = V(c/2) with V of E-Thm2-eq17, so r^2/S(c) = 4 V(c/2)/S(c/2) (S is
homogeneous of degree -2) is unbounded in eps; the constant that holds is
r^2 <= 2 pi (2 + b_max/2)^2 S(c), b_max = max_k (c_k - c_{k-1}) (E-Thm2-eq17's (pi/2)(2 + b)^2 at c/2).

The scalar case of (88) (one coordinate, d = 1, Mechanism 2 exact: Z = +-B, :func:`scalar_mean_abs`):
E|(1/n) sum_i A_i| is enumerated exactly; Jensen gives E|.| <= sqrt(sum_i E A_i^2)/n <= r^2/sqrt(n)
when E[A_i] = 0 (unbiased constant); with the printed constant E[A_i] = x_i^2 and the rate fails.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import mpmath
import sympy

from bcdp.bayesian import mech2_discrete as md
from bcdp.bayesian import mmean_utility as mu
from bcdp.bayesian.allocation import mse_objective
from bcdp.bayesian.exact_inputs import exact_expr, rational
from bcdp.core.errors import InvalidInputError
from bcdp.core.intervals import compare
from bcdp.core.numbers import MAX_DPS, MIN_DPS, check_precision, to_fraction

CHANNELS = ("mechanism2", "cube")
#: Largest support of the sum of the A_i enumerated by :func:`scalar_mean_abs`.
MAX_SUPPORT = 200_000


def _channel(channel: str) -> str:
    if channel not in CHANNELS:
        raise InvalidInputError(f"channel must be one of {CHANNELS}, not {channel!r}")
    return channel


def stage_factor(b: Any) -> sympy.Rational:
    """e^b as an exact rational (the cube channel needs E = e^b rational; b = log E given exactly)."""
    val = sympy.simplify(sympy.exp(exact_expr(b, "b")))
    if not val.is_Rational:
        raise InvalidInputError(f"e^b = {val} is not rational: the cube channel is exact only for b = log(rational)")
    return val


@functools.lru_cache(maxsize=4096)
def stage_moment(m: int, b: Any, channel: str = "mechanism2") -> sympy.Expr:
    """s = E[(Y_j)^2] of one stage at budget b > 0 on R^m (eq. (*) of the module docstring):
    B^2/m for Mechanism 2 (sphere, :func:`bcdp.bayesian.mmean_utility.stage_second_moment`), B_m^2 for
    the cube discretisation (:func:`bcdp.bayesian.mech2_discrete.cube_constant`, e^b rational).
    Cached (sympy's simplify of the Gamma ratio dominates the cost)."""
    if _channel(channel) == "mechanism2":
        return mu.stage_second_moment(m, b)
    f = stage_factor(b)
    B = md.cube_constant(m, Fraction(int(f.p), int(f.q)))
    return sympy.Rational(B.numerator, B.denominator) ** 2


def halve(c_sorted: Sequence[Any]) -> list[sympy.Expr]:
    """c/2 exactly (Algorithm 3 runs each copy of M_mean at c/2)."""
    if isinstance(c_sorted, (str, bytes)) or not isinstance(c_sorted, Sequence) or len(c_sorted) == 0:
        raise InvalidInputError("c_sorted must be a non-empty sequence of budgets")
    return [exact_expr(v, f"c[{k}]") / 2 for k, v in enumerate(c_sorted)]


def _point(x: Sequence[Any] | None, d: int, channel: str) -> list[sympy.Rational]:
    if x is None:
        return [sympy.Integer(0)] * d
    if isinstance(x, (str, bytes)) or not isinstance(x, Sequence) or len(x) != d:
        raise InvalidInputError(f"x must be a sequence of {d} exact values in [-1, 1]")
    pts = [rational(v, f"x[{i}]") for i, v in enumerate(x)]
    if any(not -1 <= v <= 1 for v in pts):
        raise InvalidInputError("x is outside [-1, 1]^d (Assumption 2)")
    if channel == "cube" and any(v != 0 for v in pts) and any(abs(v) != 1 for v in pts):
        raise InvalidInputError("the cube channel is unbiased only at x in {-1, 1}^d or x = 0")
    return pts


def covariance_matrix(c_sorted: Sequence[Any], x: Sequence[Any] | None = None,
                      channel: str = "mechanism2") -> sympy.Matrix:
    """Cov(nu | x) of M_mean(x, c) (unprojected), eq. (*) of the module docstring, exact.
    ``c_sorted`` non-decreasing, c_1 > 0; ``x`` in [-1, 1]^d (default 0); for ``channel="cube"``
    x in {-1, 1}^d or 0 and every e^{b_k} rational."""
    _channel(channel)
    b = _budgets(c_sorted)
    d = len(b)
    xs = _point(x, d, channel)
    w = [bk ** 2 / (d - k) for k, bk in enumerate(b)]
    s = [stage_moment(d - k, bk, channel) if bk != 0 else sympy.Integer(0) for k, bk in enumerate(b)]
    W = [sum(w[: i + 1], sympy.Integer(0)) for i in range(d)]
    M = sympy.zeros(d, d)
    for i in range(d):
        for j in range(i, d):
            top = sum(((w[k] ** 2) * ((s[k] if i == j else 0) - xs[i] * xs[j])
                       for k in range(min(i, j) + 1) if b[k] != 0), sympy.Integer(0))
            M[i, j] = M[j, i] = top / (W[i] * W[j])
    return M


def _budgets(c_sorted: Sequence[Any]) -> list[sympy.Expr]:
    """b_k = c_k - c_{k-1} (c_0 = 0), certified >= 0, b_1 > 0."""
    if isinstance(c_sorted, (str, bytes)) or not isinstance(c_sorted, Sequence) or len(c_sorted) == 0:
        raise InvalidInputError("c_sorted must be a non-empty sequence of budgets")
    out, prev = [], sympy.Integer(0)
    for k, ck in enumerate(c_sorted, start=1):
        ck = exact_expr(ck, f"c[{k - 1}]")
        sign = compare(ck - prev, 0)
        if sign < 0:
            raise InvalidInputError(f"c is not non-decreasing at stage {k} (c_0 = 0)")
        out.append(sympy.Integer(0) if sign == 0 else ck - prev)
        prev = ck
    if out[0] == 0:
        raise InvalidInputError("c_1 = 0: coordinate 1 is never estimated")
    return out


def _features(features: int | None, d: int) -> int:
    f = d if features is None else features
    if isinstance(f, bool) or not isinstance(f, int) or not 1 <= f <= d:
        raise InvalidInputError(f"features = {features!r} must be an int in [1, d = {d}]")
    return f


def r_squared(c_sorted: Sequence[Any], channel: str = "mechanism2") -> sympy.Expr:
    """(85): r^2 = sup_x E|M_mean(x, c/2) - x|^2 = tr Cov(nu | 0) at c/2 (module docstring)."""
    return covariance_matrix(halve(c_sorted), None, channel).trace()


def eq86_matrix(c_sorted: Sequence[Any], xs: Sequence[Sequence[Any]], features: int | None = None,
                channel: str = "mechanism2") -> sympy.Matrix:
    """sum_i E[A_i A_i^T] = sum_i tr(Sigma_z(x_i)) Sigma_z(x_i), Sigma_z the ``features`` x
    ``features`` block of Cov(nu | x_i) at c/2 (eq. (90); default: the whole vector)."""
    if isinstance(xs, (str, bytes)) or not isinstance(xs, Sequence) or len(xs) == 0:
        raise InvalidInputError("xs must be a non-empty sequence of users' data vectors")
    half = halve(c_sorted)
    f = _features(features, len(half))
    total = sympy.zeros(f, f)
    for x in xs:
        S = covariance_matrix(half, x, channel)[:f, :f]
        total += S.trace() * S
    return total


def eq87_sum(c_sorted: Sequence[Any], xs: Sequence[Sequence[Any]], features: int | None = None,
             channel: str = "mechanism2") -> sympy.Expr:
    """sum_i E||A_i||^2 = sum_i tr(Sigma_z(x_i))^2 exactly (rank one: ||u v^T|| = |u| |v|); the
    middle term of eq. (92), an upper bound on E[max_i ||A_i||^2]."""
    if isinstance(xs, (str, bytes)) or not isinstance(xs, Sequence) or len(xs) == 0:
        raise InvalidInputError("xs must be a non-empty sequence of users' data vectors")
    half = halve(c_sorted)
    f = _features(features, len(half))
    return sum((covariance_matrix(half, x, channel)[:f, :f].trace() ** 2 for x in xs), sympy.Integer(0))


def spectral_norm(M: sympy.Matrix, dps: int = 50) -> mpmath.mpf:
    """||M|| (largest |eigenvalue|) of a symmetric exact matrix at ``dps`` digits (mpmath eigsy)."""
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    with mpmath.workdps(dps + 10):
        A = mpmath.matrix([[mu.evaluate(M[i, j], dps + 10) for j in range(M.cols)] for i in range(M.rows)])
        ev = mpmath.eigsy(A, eigvals_only=True)
        return max(abs(v) for v in ev)


def _user_values(x: Any, B: Fraction, mean_factor: int) -> dict[Fraction, Fraction]:
    """Law of A = (Y1 - x)(Y2 - x) for one user, Y = +-B with E[Y] = mean_factor * x, exact."""
    xx = to_fraction(x, "x")
    if not -1 <= xx <= 1:
        raise InvalidInputError(f"x = {xx} is outside [-1, 1]")
    p_plus = Fraction(1, 2) + mean_factor * xx / (2 * B)
    law1 = {B: p_plus, -B: 1 - p_plus}
    out: dict[Fraction, Fraction] = {}
    for y1, p1 in law1.items():
        for y2, p2 in law1.items():
            a = (y1 - xx) * (y2 - xx)
            out[a] = out.get(a, Fraction(0)) + p1 * p2
    return out


def scalar_law(E: Any, constant: str = "unbiased") -> tuple[Fraction, int]:
    """(B, mean factor) of Mechanism 2 at d = 1 with stage factor E = e^{c_1/2}: the unbiased
    B = (E + 1)/(E - 1) (mean x) or the printed one, twice that (mean 2x, E-Mech2-B)."""
    B = md.two_point_constant(E)
    if constant == "unbiased":
        return B, 1
    if constant == "paper":
        return 2 * B, 2
    raise InvalidInputError(f"constant must be 'unbiased' or 'paper', not {constant!r}")


def scalar_mean_abs(E: Any, xs: Sequence[Any], constant: str = "unbiased") -> Fraction:
    """E|(1/n) sum_i A_i| exactly for d = 1 (A_i = (Y^(i,1) - x_i)(Y^(i,2) - x_i), Y = +-B from
    :func:`bcdp.bayesian.mech2_discrete.two_point_law` at factor E = e^{c_1/2}), by convolving the
    users' exact laws (support capped at :data:`MAX_SUPPORT`)."""
    if isinstance(xs, (str, bytes)) or not isinstance(xs, Sequence) or len(xs) == 0:
        raise InvalidInputError("xs must be a non-empty sequence of data values")
    B, factor = scalar_law(E, constant)
    dist: dict[Fraction, Fraction] = {Fraction(0): Fraction(1)}
    for x in xs:
        law = _user_values(x, B, factor)
        new: dict[Fraction, Fraction] = {}
        for s, ps in dist.items():
            for a, pa in law.items():
                new[s + a] = new.get(s + a, Fraction(0)) + ps * pa
        if len(new) > MAX_SUPPORT:
            raise InvalidInputError(f"the sum has more than {MAX_SUPPORT} support points; use fewer users")
        dist = new
    n = len(xs)
    return sum((abs(s) * p for s, p in dist.items()), Fraction(0)) / n


def scalar_max_square(E: Any, xs: Sequence[Any], constant: str = "unbiased") -> Fraction:
    """E[max_i A_i^2] exactly for d = 1 (the left side of eq. (87); A_i as in
    :func:`scalar_mean_abs`): P(max_i A_i^2 <= t) = prod_i P(A_i^2 <= t) over the finitely many values t."""
    if isinstance(xs, (str, bytes)) or not isinstance(xs, Sequence) or len(xs) == 0:
        raise InvalidInputError("xs must be a non-empty sequence of data values")
    B, factor = scalar_law(E, constant)
    laws = []
    for x in xs:
        sq: dict[Fraction, Fraction] = {}
        for a, p in _user_values(x, B, factor).items():
            sq[a * a] = sq.get(a * a, Fraction(0)) + p
        laws.append(sq)
    return expected_max(laws)


def scalar_r_squared(E: Any, constant: str = "unbiased") -> Fraction:
    """(85) at d = 1: sup_{|x| <= 1} E(Y - x)^2 = sup (B^2 - (2 f - 1) x^2) = B^2 (f = 1 or 2)."""
    B, _ = scalar_law(E, constant)
    return B * B


def corrected_r2_constant(c_sorted: Sequence[Any]) -> sympy.Expr:
    """2 pi (2 + b_max/2)^2: r^2 <= this times S(c) (module docstring; E-Thm3-r2)."""
    b = _budgets(c_sorted)
    return 2 * sympy.pi * (2 + sympy.Max(*b) / 2) ** 2


def r2_ratio(c_sorted: Sequence[Any]) -> sympy.Expr:
    """r^2 / S(c): (85) over the sum the proof of Thm. 3 equates it with up to O(1)."""
    return r_squared(c_sorted) / mse_objective(list(c_sorted))


def expected_max(laws: Sequence[dict[Fraction, Fraction]]) -> Fraction:
    """E[max_i X_i] exactly for independent X_i with finite laws {value: probability} (Fractions):
    P(max <= s) = prod_i P(X_i <= s) over the finitely many values s (the step of eq. (87))."""
    total, below = Fraction(0), Fraction(0)
    for s in sorted({v for law in laws for v in law}):
        cdf = Fraction(1)
        for law in laws:
            cdf *= sum((p for v, p in law.items() if v <= s), Fraction(0))
        total += s * (cdf - below)
        below = cdf
    return total
