"""The l2-ball mechanism R^{l2}: random rotation, clipping, an l_inf step, inverse rotation (thesis Algs 3.6.1-3.6.2).

Thesis Ch. 3, Sec. 3.6 (rotation of [SFK17]; Thm 3.6.5 from [LSA21]).  Exact parts in sympy /
Fractions, float twins in numpy.

* Rotation (Alg 3.6.1, step 3): U = H_d D / sqrt(d), H_d the Sylvester matrix (d a power of 2) and
  D = diag(signs), signs i.i.d. uniform +-1, shared by all clients (public randomness).  U is
  orthogonal: U^T U = D H^T H D / d = D (d I) D / d = I (:func:`rotation_matrix` is exact in sympy).
  Step 4 prints "w_i <- W x_i"; W is U (docs/errata.md, notes on Secs. 3.6-3.7).
* Clip radius (Alg 3.6.1, step 5; Thm 3.6.5 / (3.41)): r_inf = 10 r2 sqrt(log(dn/beta)/d).
* Clipping (step 7): w[j] <- min{r_inf, max{w[j], -r_inf}}.
* l_inf step (step 8, Alg 3.6.2): any unbiased randomizer for [-r_inf, r_inf]^d whose aggregator is
  the mean of per-client decoded estimates (true of A^{l_inf}).  It is a parameter here (the thesis'
  R^{l_inf}_{v,m,s} lives in another module): an exact step maps (w, r) to a law, a list of
  (probability, w_hat) pairs; a float step maps an (n, d) array, r and a Generator to the (n, d)
  decoded estimates.  The stand-in of this module (:func:`two_point_linf_law`,
  :func:`two_point_linf_sample_float`) randomizes every coordinate independently to
  +-r c, c = (E+1)/(E-1), with P[+] = 1/2 + w[j]/(2 r c): unbiased on [-r, r]^d (each coordinate is
  E-LDP, the vector is E^d-LDP by composition; it is a test double, not the thesis mechanism).
* Server (Alg 3.6.2): x_hat = U^{-1} w_hat_bar = U^T w_hat_bar.  When no coordinate is clipped,
  E[x_hat] = U^T U x = x (Thm 3.6.1 / 3.6.2: unbiased with probability >= 1 - beta).
* Thm 3.6.5 (3.41): P_D[max_i ||U x_i||_inf <= r_inf] >= 1 - beta.  :func:`rotated_linf_law` is the
  exact law over the 2^d sign vectors of ||U x||_inf^2 (a rational: (H D x)_j^2 / d).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any, Callable, Sequence

import numpy as np
import sympy

from bcdp.core.errors import InvalidInputError, WrongTypeError
from bcdp.core.numbers import to_float_input, to_fraction
from bcdp.dme import hadamard

#: Largest d of the sympy rotation and of the exact estimate law (2^d outcomes of the stand-in).
MAX_EXACT_DIMENSION = 8
#: Largest d of :func:`rotated_linf_law` (2^{d-1} sign vectors up to the global sign).
MAX_SIGN_ENUMERATION = 16

ExactLinfStep = Callable[[Sequence[sympy.Expr], sympy.Expr], list]
FloatLinfStep = Callable[[np.ndarray, float, np.random.Generator], np.ndarray]


# -- inputs -------------------------------------------------------------------------------------------

def _check_signs(signs: Any, cap: int) -> tuple[int, ...]:
    if isinstance(signs, (str, bytes)) or not hasattr(signs, "__len__"):
        raise WrongTypeError(f"signs must be a sequence of +-1, got {type(signs).__name__}")
    out = []
    for i, s in enumerate(signs):
        if isinstance(s, bool) or not isinstance(s, (int, np.integer)) or int(s) not in (1, -1):
            raise InvalidInputError(f"signs[{i}] must be the integer +1 or -1, got {s!r}")
        out.append(int(s))
    d = len(out)
    if d < 1 or d & (d - 1) or d > cap:
        raise InvalidInputError(f"the dimension d = len(signs) must be a power of 2 at most {cap}, got {d}")
    return tuple(out)


def _sym(v: Any, name: str) -> sympy.Expr:
    if isinstance(v, sympy.Expr) and not isinstance(v, sympy.Rational):
        if not v.is_real:
            raise InvalidInputError(f"{name} must be a real number, got {v}")
        return v
    f = to_fraction(v, name)
    return sympy.Rational(f.numerator, f.denominator)


def _sym_vector(x: Sequence[Any], d: int, name: str = "x") -> tuple[sympy.Expr, ...]:
    if isinstance(x, (str, bytes)) or not hasattr(x, "__len__"):
        raise WrongTypeError(f"{name} must be a sequence of exact numbers")
    if len(x) != d:
        raise InvalidInputError(f"{name} must have dimension d = {d}, got {len(x)}")
    return tuple(_sym(v, f"{name}[{i}]") for i, v in enumerate(x))


# -- rotation -----------------------------------------------------------------------------------------

def rotation_matrix(signs: Sequence[int]) -> sympy.Matrix:
    """U = H_d D / sqrt(d) exactly (thesis Alg 3.6.1, step 3), D = diag(signs), d = len(signs) a power
    of 2 at most :data:`MAX_EXACT_DIMENSION`."""
    s = _check_signs(signs, MAX_EXACT_DIMENSION)
    d = len(s)
    H = sympy.Matrix(hadamard.sylvester_hadamard(d))
    return H * sympy.diag(*s) / sympy.sqrt(d)


def rotate(x: Sequence[Any], signs: Sequence[int]) -> tuple[sympy.Expr, ...]:
    """w = U x (Alg 3.6.1, step 4), exact sympy entries."""
    U = rotation_matrix(signs)
    v = sympy.Matrix(_sym_vector(x, U.shape[0]))
    return tuple(sympy.radsimp(sympy.expand(e)) for e in U * v)


def inverse_rotate(w: Sequence[Any], signs: Sequence[int]) -> tuple[sympy.Expr, ...]:
    """x = U^{-1} w = U^T w (Alg 3.6.2), exact."""
    U = rotation_matrix(signs)
    v = sympy.Matrix(_sym_vector(w, U.shape[0], "w"))
    return tuple(sympy.radsimp(sympy.expand(e)) for e in U.T * v)


def clip_radius(r2: Any, d: Any, n: Any, beta: Any) -> sympy.Expr:
    """r_inf = 10 r2 sqrt(log(dn/beta)/d) (Alg 3.6.1 step 5, Thm 3.6.5 (3.41)); r2 > 0, d, n >= 1
    integers, beta in (0, 1) exact.  A sympy number."""
    r2f = to_fraction(r2, "r2")
    beta = to_fraction(beta, "beta")
    for name, v in (("d", d), ("n", n)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or int(v) < 1:
            raise InvalidInputError(f"{name} must be an integer >= 1, got {v!r}")
    if r2f <= 0:
        raise InvalidInputError(f"r2 must be > 0, got {r2f}")
    if not 0 < beta < 1:
        raise InvalidInputError(f"beta must be in (0, 1) (Thm 3.6.5), got {beta}")
    R = sympy.Rational
    return 10 * R(r2f.numerator, r2f.denominator) * sympy.sqrt(
        sympy.log(int(d) * int(n) / R(beta.numerator, beta.denominator)) / int(d))


def clip(w: Sequence[Any], r: Any) -> tuple[sympy.Expr, ...]:
    """w[j] <- min{r, max{w[j], -r}} (Alg 3.6.1, step 7), exact (sympy decides the comparisons)."""
    r = _sym(r, "r")
    if not r > 0:
        raise InvalidInputError(f"the clip radius must be > 0, got {r}")
    out = []
    for i, v in enumerate(w):
        v = _sym(v, f"w[{i}]")
        out.append(r if v > r else (-r if v < -r else v))
    return tuple(out)


# -- the stand-in l_inf step --------------------------------------------------------------------------

def two_point_linf_law(w: Sequence[Any], r: Any, E: Any = 3) -> list[tuple[sympy.Expr, tuple[sympy.Expr, ...]]]:
    """Exact law of the stand-in l_inf step: coordinate j independently -> +-r c with
    P[+] = 1/2 + w[j]/(2 r c), c = (E+1)/(E-1) (Alg 3.4.1 at d = 1, coordinate-wise).  w in
    [-r, r]^d (else InvalidInputError), d <= :data:`MAX_EXACT_DIMENSION`; 2^d (probability, w_hat) pairs."""
    r = _sym(r, "r")
    E = to_fraction(E, "E")
    if E <= 1:
        raise InvalidInputError(f"E must be > 1, got {E}")
    if not 1 <= len(w) <= MAX_EXACT_DIMENSION:
        raise InvalidInputError(f"need 1 <= d <= {MAX_EXACT_DIMENSION}, got {len(w)}")
    c = sympy.Rational((E + 1).numerator * (E - 1).denominator, (E + 1).denominator * (E - 1).numerator)
    ws = [_sym(v, f"w[{i}]") for i, v in enumerate(w)]
    for i, v in enumerate(ws):
        if v > r or v < -r:
            raise InvalidInputError(f"w[{i}] = {v} is outside [-r, r]: clip first (Alg 3.6.1, step 7)")
    law = []
    for pattern in itertools.product((1, -1), repeat=len(ws)):
        p = sympy.Integer(1)
        for s, v in zip(pattern, ws):
            p *= sympy.Rational(1, 2) + s * v / (2 * r * c)
        law.append((p, tuple(s * r * c for s in pattern)))
    return law


def l2_estimate_law(x: Sequence[Any], signs: Sequence[int], r: Any,
                    linf_law: ExactLinfStep | None = None) -> list[tuple[sympy.Expr, tuple[sympy.Expr, ...]]]:
    """Exact law of one client's decoded estimate U^T w_hat (Algs 3.6.1-3.6.2 with n = 1): rotate, clip
    at r, the l_inf step ``linf_law(w, r)`` (default the stand-in at E = 3), rotate back."""
    step = linf_law if linf_law is not None else (lambda w, rr: two_point_linf_law(w, rr, 3))
    w = clip(rotate(x, signs), r)
    return [(p, inverse_rotate(v, signs)) for p, v in step(w, _sym(r, "r"))]


def law_mean(law: list[tuple[sympy.Expr, tuple[sympy.Expr, ...]]]) -> tuple[sympy.Expr, ...]:
    """sum p v of a finite vector law, simplified exactly."""
    d = len(law[0][1])
    return tuple(sympy.radsimp(sympy.expand(sum(p * v[i] for p, v in law))) for i in range(d))


def rotated_linf_law(x: Sequence[Any]) -> dict[Fraction, Fraction]:
    """Exact law of ||U x||_inf^2 = max_j (H_d D x)_j^2 / d over the 2^d uniform sign vectors D (Thm 3.6.5);
    x rational of dimension d a power of 2 at most :data:`MAX_SIGN_ENUMERATION`.  D and -D give the
    same value, so 2^{d-1} vectors are enumerated."""
    if isinstance(x, (str, bytes)) or not hasattr(x, "__len__"):
        raise WrongTypeError("x must be a sequence of exact rationals")
    xs = [to_fraction(v, f"x[{i}]") for i, v in enumerate(x)]
    d = len(xs)
    if d < 1 or d & (d - 1) or d > MAX_SIGN_ENUMERATION:
        raise InvalidInputError(f"d must be a power of 2 at most {MAX_SIGN_ENUMERATION}, got {d}")
    # exact in integers: x = X / L with X integral, (H D x)_j^2 / d = (H D X)_j^2 / (d L^2)
    L = 1
    for v in xs:
        L = L * v.denominator // math.gcd(L, v.denominator)
    X = [int(v * L) for v in xs]
    if max(abs(v) for v in X) * d >= 2 ** 31:
        raise InvalidInputError("x has numerators too large for the exact integer enumeration")
    tails = np.array(list(itertools.product((1, -1), repeat=d - 1)), dtype=np.int64).reshape(2 ** (d - 1), d - 1)
    signs = np.hstack([np.ones((tails.shape[0], 1), dtype=np.int64), tails])
    H = np.array(hadamard.sylvester_hadamard(d), dtype=np.int64)
    peaks = np.abs((signs * np.array(X, dtype=np.int64)) @ H).max(axis=1)
    values, counts = np.unique(peaks, return_counts=True)
    total = signs.shape[0]
    return {Fraction(int(v) ** 2, d * L * L): Fraction(int(c), total) for v, c in zip(values, counts)}


def rotation_tail(x: Sequence[Any], t_squared: Any) -> Fraction:
    """P_D[||U x||_inf^2 > t^2] exactly (t^2 rational >= 0), from :func:`rotated_linf_law`."""
    t2 = to_fraction(t_squared, "t_squared")
    if t2 < 0:
        raise InvalidInputError(f"t_squared must be >= 0, got {t2}")
    return sum((p for v, p in rotated_linf_law(x).items() if v > t2), Fraction(0))


# -- float twins -----------------------------------------------------------------------------------------

def clip_radius_float(r2: Any, d: Any, n: Any, beta: Any) -> float:
    """r_inf = 10 r2 sqrt(log(dn/beta)/d) in float64 (Alg 3.6.1, step 5)."""
    r2f, bf = to_float_input(r2, "r2"), to_float_input(beta, "beta")
    if not r2f > 0 or not 0 < bf < 1 or int(d) < 1 or int(n) < 1:
        raise InvalidInputError("need r2 > 0, beta in (0, 1), d, n >= 1")
    return 10 * r2f * float(np.sqrt(np.log(int(d) * int(n) / bf) / int(d)))


def _rows_and_signs(x: Any, signs: Any) -> tuple[np.ndarray, np.ndarray, int]:
    """(rows, signs, d) as float64 for the rotations: an (n, d) array and a +-1 vector of length d, a power of 2."""
    arr = np.atleast_2d(np.asarray(x, dtype=np.float64))
    s = np.asarray(signs, dtype=np.float64)
    d = arr.shape[1]
    if s.shape != (d,) or d & (d - 1) or not np.all(np.abs(s) == 1):
        raise InvalidInputError("signs must be a +-1 vector whose length d (a power of 2) is the row length")
    return arr, s, d


def rotate_float(x: Any, signs: Any) -> np.ndarray:
    """U x_i for every row of an (n, d) array (fast Walsh-Hadamard transform, O(n d log d))."""
    arr, s, d = _rows_and_signs(x, signs)
    return _fwht(arr * s) / np.sqrt(d)


def _fwht(a: np.ndarray) -> np.ndarray:
    n, d = a.shape
    out = a.copy()
    h = 1
    while h < d:
        blocks = out.reshape(n, d // (2 * h), 2, h)
        top, bot = blocks[:, :, 0, :].copy(), blocks[:, :, 1, :].copy()
        blocks[:, :, 0, :] = top + bot
        blocks[:, :, 1, :] = top - bot
        h *= 2
    return out


def inverse_rotate_float(w: Any, signs: Any) -> np.ndarray:
    """U^T w_i = D H w_i / sqrt(d) for every row (H symmetric)."""
    arr, s, d = _rows_and_signs(w, signs)
    return _fwht(arr) * s / np.sqrt(d)


def two_point_linf_sample_float(w: np.ndarray, r: float, rng: np.random.Generator, E: float = 3.0) -> np.ndarray:
    """Decoded estimates of the stand-in l_inf step for an (n, d) array in [-r, r]^d (vectorised)."""
    c = (E + 1.0) / (E - 1.0)
    p = 0.5 + np.asarray(w) / (2.0 * r * c)
    return np.where(rng.random(p.shape) < p, r * c, -r * c)


def l2_mechanism_float(x: Any, r2: Any, beta: Any, rng: np.random.Generator,
                       linf_step: FloatLinfStep | None = None, signs: Any = None) -> np.ndarray:
    """x_hat of Algs 3.6.1-3.6.2 for the n rows of ``x`` (in B_2(r2), d a power of 2), float64:
    shared signs (drawn from ``rng`` unless given), w_i = U x_i, clipping at r_inf =
    :func:`clip_radius_float`, the l_inf step (default the stand-in), x_hat = U^T (mean of w_hat_i)."""
    if not isinstance(rng, np.random.Generator):
        raise WrongTypeError("rng must be a numpy.random.Generator")
    arr = np.asarray(x, dtype=np.float64)
    if arr.ndim != 2 or arr.size == 0 or not np.all(np.isfinite(arr)):
        raise InvalidInputError("x must be a finite (n, d) array")
    n, d = arr.shape
    r2f = to_float_input(r2, "r2")
    if np.any(np.linalg.norm(arr, axis=1) > r2f * (1 + 1e-12)):
        raise InvalidInputError("a row is outside B_2(r2) (thesis Alg 3.6.1 input)")
    s = rng.choice(np.array([-1.0, 1.0]), size=d) if signs is None else np.asarray(signs, dtype=np.float64)
    r = clip_radius_float(r2, d, n, beta)
    w = np.clip(rotate_float(arr, s), -r, r)
    step = linf_step if linf_step is not None else two_point_linf_sample_float
    w_hat = step(w, r, rng)
    return inverse_rotate_float(w_hat.mean(axis=0, keepdims=True), s)[0]


def rotation_max_linf_float(x: Any, rng: np.random.Generator, trials: int) -> np.ndarray:
    """max_i ||U x_i||_inf for ``trials`` independent shared sign vectors (Thm 3.6.5), vectorised."""
    if not isinstance(rng, np.random.Generator):
        raise WrongTypeError("rng must be a numpy.random.Generator")
    arr = np.asarray(x, dtype=np.float64)
    n, d = arr.shape
    signs = rng.choice(np.array([-1.0, 1.0]), size=(trials, 1, d))
    rotated = _fwht((arr[None, :, :] * signs).reshape(trials * n, d)) / np.sqrt(d)
    return np.abs(rotated).reshape(trials, n * d).max(axis=1)
