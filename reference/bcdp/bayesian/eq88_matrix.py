"""Eq. (88) beyond d = 1: E||(1/n) sum_i A_i|| exactly for M_mean over the cube channel, against Tropp's explicit bound.

BCDP paper (arXiv:2410.18404), proof of Theorem 3, App. C.1 eqs. (84)-(88).  Algorithm 3 sends two
independent copies nu^(i,1), nu^(i,2) of M_mean(x^(i), c/2) (Mechanism 1, unprojected) and
A_i := (nu^(i,1) - x^(i))(nu^(i,2) - x^(i))^T (eq. (84), here with z = the whole vector).  "Using
Theorem 1 in Tropp [2016], Jensen's inequality, along with [Lemma 1]" the proof bounds
E||(1/n) sum_i A_i|| by O(1) log(d) r^2/sqrt(n) (88).  Tropp's inequality for independent, centred
d1 x d2 random matrices S_k with Z = sum_k S_k (arXiv:1506.04711, the rectangular case; the form
used here, as cited):

    (E||Z||^2)^{1/2} <= sqrt(2 e v(Z) log D) + 4 e (E max_k ||S_k||^2)^{1/2} log D,   D = d1 + d2,
    v(Z) = max{||sum_k E S_k S_k^T||, ||sum_k E S_k^T S_k||}.

With Lemma 1 ((86): v <= n r^4, (87): E max ||A_i||^2 <= n r^4) and Jensen this gives, for d x d
summands, E||(1/n) sum A_i|| <= (sqrt(2 e log 2d) + 4 e log 2d) r^2/sqrt(n) (:func:`lemma1_bound`);
note the dimension is D = 2d (at d = 1 the printed log(d) is 0).

The exact model (a finite channel, so every law is a Fraction).  Mechanism 2 is replaced by the
cube channel of :mod:`bcdp.bayesian.mech2_discrete` (exactly alpha-LDP and unbiased at inputs in
{-1, 1}^m and at 0).  The half budgets of c/2 are b_k/2 = t_k log G (integers t_k >= 0, t_1 >= 1,
rational G > 1), so each stage factor e^{b_k/2} = G^{t_k} is rational and Mechanism 1's weights
w_k = (b_k/2)^2/(d - k + 1) are proportional to t_k^2/(d - k + 1) (the common factor (log G)^2
cancels in nu_i = sum_{k<=i} w_k Y^k_i / sum_{k<=i} w_k; stages with t_k = 0 are skipped).
c = eps 1 is t = (1, 0, ..., 0) with G = e^{eps/2}.  The law of one copy is enumerated
(:func:`copy_law`), A_i's law is the product of two copies, and the law of sum_i A_i is the exact
convolution over users (:func:`sum_law`); the spectral norm of each support point is evaluated
at ``dps`` digits (2 x 2: sigma^2 = (F + sqrt(F^2 - 4 det^2))/2; larger: eigsy of M^T M).

Centring.  E[A_i] = E[nu^1 - x] E[nu^2 - x]^T (independent copies): 0 with the unbiased constant;
with the printed constant (twice it, E-Mech2-B) E[nu] = 2x and E[A_i] = x x^T, so
E||(1/n) sum A_i|| >= ||(1/n) sum x_i x_i^T|| does not decay and (88) fails for large n.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import mpmath

from bcdp.bayesian import mech2_discrete as md
from bcdp.bayesian.lemma1_moments import expected_max
from bcdp.core.errors import InvalidInputError, WrongTypeError
from bcdp.core.numbers import MAX_DPS, MIN_DPS, check_precision, to_fraction

#: Largest dimension d (matrices d x d) handled here.
MAX_DIM = 3
#: Largest support of sum_i A_i enumerated by :func:`sum_law`.
MAX_SUPPORT = 300_000
CONSTANTS = ("unbiased", "paper")

Matrix = tuple[Fraction, ...]  # row-major d x d


def _pattern(t: Sequence[Any], G: Any) -> tuple[tuple[int, ...], Fraction]:
    if isinstance(t, (str, bytes)) or not isinstance(t, Sequence) or not 1 <= len(t) <= MAX_DIM:
        raise InvalidInputError(f"t must be a sequence of 1..{MAX_DIM} stage multiples t_k")
    for k, v in enumerate(t):
        if isinstance(v, bool) or not isinstance(v, int):
            raise WrongTypeError(f"t[{k}] must be an int, got {v!r}")
        if v < 0:
            raise InvalidInputError(f"t[{k}] = {v} must be >= 0 (c non-decreasing)")
    if t[0] < 1:
        raise InvalidInputError("t[0] must be >= 1 (c_1 > 0: coordinate 1 is estimated)")
    g = md.privacy_factor(G, "G")
    return tuple(t), g


def _constant(constant: str) -> int:
    if constant not in CONSTANTS:
        raise InvalidInputError(f"constant must be one of {CONSTANTS}, not {constant!r}")
    return 1 if constant == "unbiased" else 2


def _point(x: Any, d: int) -> tuple[Fraction, ...]:
    if x is None:
        return tuple(Fraction(0) for _ in range(d))
    if isinstance(x, (str, bytes)) or not isinstance(x, Sequence) or len(x) != d:
        raise InvalidInputError(f"x must be a sequence of {d} entries in {{-1, 1}} (or all 0)")
    pts = tuple(to_fraction(v, f"x[{j}]") for j, v in enumerate(x))
    if any(pts) and any(abs(v) != 1 for v in pts):
        raise InvalidInputError("x must be a vertex of {-1, 1}^d or 0 (the cube channel is unbiased only there)")
    return pts


def copy_law(t: Sequence[int], G: Any, x: Any = None, constant: str = "unbiased") -> dict[tuple[Fraction, ...], Fraction]:
    """The exact law of one copy nu = M_mean(x, c/2) (Mechanism 1 over the cube channel, unprojected)
    with half budgets t_k log G (module docstring); ``constant="paper"`` doubles every B (E-Mech2-B)."""
    t, g = _pattern(t, G)
    scale = _constant(constant)
    d = len(t)
    xs = _point(x, d)
    stages = [k for k in range(d) if t[k] > 0]
    w = {k: Fraction(t[k] ** 2, d - k) for k in stages}
    laws = []
    for k in stages:
        B = scale * md.cube_constant(d - k, g ** t[k])
        law = md.cube_law(list(xs[k:]) if any(xs) else [0] * (d - k), g ** t[k])
        laws.append([(tuple(B * u for u in dirn), p) for dirn, p in law.items() if p != 0])
    out: dict[tuple[Fraction, ...], Fraction] = {}
    for combo in itertools.product(*laws):
        prob = Fraction(1)
        for _, p in combo:
            prob *= p
        nu = []
        for i in range(d):
            num = sum((w[k] * y[i - k] for k, (y, _) in zip(stages, combo) if k <= i), Fraction(0))
            nu.append(num / sum((w[k] for k in stages if k <= i), Fraction(0)))
        key = tuple(nu)
        out[key] = out.get(key, Fraction(0)) + prob
    return out


def product_law(t: Sequence[int], G: Any, x: Any = None, constant: str = "unbiased") -> dict[Matrix, Fraction]:
    """The exact law of A = (nu^1 - x)(nu^2 - x)^T, two independent copies (eq. (84))."""
    law = copy_law(t, G, x, constant)
    d = len(t)
    xs = _point(x, d)
    out: dict[Matrix, Fraction] = {}
    for (a, pa), (b, pb) in itertools.product(law.items(), repeat=2):
        key = tuple((a[i] - xs[i]) * (b[j] - xs[j]) for i in range(d) for j in range(d))
        out[key] = out.get(key, Fraction(0)) + pa * pb
    return out


def expected_product(t: Sequence[int], G: Any, x: Any = None, constant: str = "unbiased") -> Matrix:
    """E[A] exactly (0 with the unbiased constant; x x^T with the printed one: module docstring)."""
    law = product_law(t, G, x, constant)
    size = len(next(iter(law)))
    return tuple(sum((m[e] * p for m, p in law.items()), Fraction(0)) for e in range(size))


def _users(xs: Sequence[Any], d: int) -> list[tuple[Fraction, ...]]:
    if isinstance(xs, (str, bytes)) or not isinstance(xs, Sequence) or len(xs) == 0:
        raise InvalidInputError("xs must be a non-empty sequence of users' data vectors")
    return [_point(x, d) for x in xs]


def sum_law(t: Sequence[int], G: Any, xs: Sequence[Any], constant: str = "unbiased") -> dict[Matrix, Fraction]:
    """The exact law of sum_i A_i over independent users (convolution; support capped at
    :data:`MAX_SUPPORT`)."""
    t, _ = _pattern(t, G)
    users = _users(xs, len(t))
    dist: dict[Matrix, Fraction] = {tuple(Fraction(0) for _ in range(len(t) ** 2)): Fraction(1)}
    cache: dict[tuple, dict[Matrix, Fraction]] = {}
    for x in users:
        if x not in cache:
            cache[x] = product_law(t, G, x, constant)
        new: dict[Matrix, Fraction] = {}
        for s, ps in dist.items():
            for a, pa in cache[x].items():
                key = tuple(u + v for u, v in zip(s, a))
                new[key] = new.get(key, Fraction(0)) + ps * pa
        if len(new) > MAX_SUPPORT:
            raise InvalidInputError(f"the sum has more than {MAX_SUPPORT} support points; use fewer users")
        dist = new
    return dist


def _mpf(q: Fraction) -> mpmath.mpf:
    return mpmath.mpf(q.numerator) / q.denominator


def _number(value: Any, name: str) -> mpmath.mpf:
    """An mpf as is; anything else exact through :func:`to_fraction` (floats refused)."""
    if isinstance(value, mpmath.mpf):
        return value
    return _mpf(to_fraction(value, name))


def spectral_norm_squared(M: Matrix) -> mpmath.mpf:
    """||M||^2 = lambda_max(M^T M) of a square Fraction matrix (row-major), at the current mpmath
    precision: closed form for 2 x 2, eigsy otherwise (exact for 1 x 1)."""
    d = math.isqrt(len(M))
    if d * d != len(M):
        raise InvalidInputError("M must be a square matrix in row-major order")
    if d == 1:
        return _mpf(M[0] * M[0])
    if d == 2:
        a, b, c, e = M
        F = a * a + b * b + c * c + e * e
        D = a * e - b * c
        return (_mpf(F) + mpmath.sqrt(_mpf(F * F - 4 * D * D))) / 2
    gram = [[sum((M[k * d + i] * M[k * d + j] for k in range(d)), Fraction(0)) for j in range(d)] for i in range(d)]
    ev = mpmath.eigsy(mpmath.matrix([[_mpf(v) for v in row] for row in gram]), eigvals_only=True)
    return max(max(ev), mpmath.mpf(0))


def mean_norm(t: Sequence[int], G: Any, xs: Sequence[Any], constant: str = "unbiased",
              dps: int = 50) -> tuple[mpmath.mpf, mpmath.mpf]:
    """(E||(1/n) sum_i A_i||, (E||(1/n) sum_i A_i||^2)^{1/2}) from the exact law of the sum, at ``dps``
    digits (the left side of (88) and the left side of Tropp's inequality, divided by n)."""
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    law = sum_law(t, G, xs, constant)
    n = len(xs)
    with mpmath.workdps(dps + 10):
        first = second = mpmath.mpf(0)
        for M, p in law.items():
            sq = spectral_norm_squared(M)
            first += _mpf(p) * mpmath.sqrt(sq)
            second += _mpf(p) * sq
        return +(first / n), +(mpmath.sqrt(second) / n)


def variance_matrices(t: Sequence[int], G: Any, xs: Sequence[Any]) -> tuple[Matrix, Matrix]:
    """(sum_i E[A_i A_i^T], sum_i E[A_i^T A_i]) exactly (Tropp's v(Z); the first is eq. (86)'s matrix)."""
    t, _ = _pattern(t, G)
    d = len(t)
    users = _users(xs, d)
    left = [Fraction(0)] * (d * d)
    right = [Fraction(0)] * (d * d)
    for x in users:
        for A, p in product_law(t, G, x).items():
            for i, j in itertools.product(range(d), repeat=2):
                left[i * d + j] += p * sum((A[i * d + k] * A[j * d + k] for k in range(d)), Fraction(0))
                right[i * d + j] += p * sum((A[k * d + i] * A[k * d + j] for k in range(d)), Fraction(0))
    return tuple(left), tuple(right)


def tropp_variance(t: Sequence[int], G: Any, xs: Sequence[Any], dps: int = 50) -> mpmath.mpf:
    """v(Z) = max{||sum E A A^T||, ||sum E A^T A||} (both symmetric PSD: norm = sqrt of the Gram's)."""
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    left, right = variance_matrices(t, G, xs)
    with mpmath.workdps(dps + 10):
        return max(mpmath.sqrt(spectral_norm_squared(left)), mpmath.sqrt(spectral_norm_squared(right)))


def max_norm_square(t: Sequence[int], G: Any, xs: Sequence[Any]) -> Fraction:
    """E[max_i ||A_i||^2] exactly: ||u v^T||^2 = |u|^2 |v|^2 is rational; P(max <= s) = prod_i P(||A_i||^2 <= s)."""
    t, _ = _pattern(t, G)
    users = _users(xs, len(t))
    laws = []
    for x in users:
        law: dict[Fraction, Fraction] = {}
        for a, pa in copy_law(t, G, x).items():
            ua = sum(((ai - xi) ** 2 for ai, xi in zip(a, x)), Fraction(0))
            for b, pb in copy_law(t, G, x).items():
                vb = sum(((bi - xi) ** 2 for bi, xi in zip(b, x)), Fraction(0))
                law[ua * vb] = law.get(ua * vb, Fraction(0)) + pa * pb
        laws.append(law)
    return expected_max(laws)


def r_squared(t: Sequence[int], G: Any, constant: str = "unbiased") -> Fraction:
    """(85) for the cube model: the max of E|nu - x|^2 over the points the channel allows (x = 0 and
    the vertices), computed, not assumed (for the unbiased constant it is at 0, where every
    variance is largest).  ``constant="paper"``: the same with the printed constant."""
    t, _ = _pattern(t, G)
    d = len(t)
    best = Fraction(0)
    for x in [None] + [list(v) for v in itertools.product((-1, 1), repeat=d)]:
        xs = _point(x, d)
        val = sum((p * sum(((a - b) ** 2 for a, b in zip(nu, xs)), Fraction(0))
                   for nu, p in copy_law(t, G, x, constant).items()), Fraction(0))
        best = max(best, val)
    return best


def tropp_bound(v: Any, max_sq: Any, dims: int, dps: int = 50) -> mpmath.mpf:
    """sqrt(2 e v log D) + 4 e sqrt(max_sq) log D: Tropp's bound on (E||Z||^2)^{1/2}, D = d1 + d2 >= 2."""
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    if isinstance(dims, bool) or not isinstance(dims, int) or dims < 2:
        raise InvalidInputError(f"dims = d1 + d2 = {dims!r} must be an int >= 2")
    with mpmath.workdps(dps + 10):
        vv, mm = _number(v, "v"), _number(max_sq, "max_sq")
        if vv < 0 or mm < 0:
            raise InvalidInputError("v and E max ||S_k||^2 must be non-negative")
        L = mpmath.log(dims)
        return mpmath.sqrt(2 * mpmath.e * vv * L) + 4 * mpmath.e * mpmath.sqrt(mm) * L


def lemma1_bound(r2: Any, n: int, d: int, dps: int = 50) -> mpmath.mpf:
    """(sqrt(2 e log 2d) + 4 e log 2d) r^2/sqrt(n): (88) with Tropp's constant, v and E max ||A_i||^2
    replaced by Lemma 1's n r^4 (module docstring)."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1 or isinstance(d, bool) or not isinstance(d, int) or d < 1:
        raise InvalidInputError("n and d must be positive ints")
    r2f = to_fraction(r2, "r2")
    with mpmath.workdps(check_precision(dps, "dps", MIN_DPS, MAX_DPS) + 10):
        nr4 = _mpf(n * r2f * r2f)
        return tropp_bound(nr4, nr4, 2 * d, dps) / n
