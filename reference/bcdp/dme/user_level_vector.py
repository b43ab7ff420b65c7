"""User-level LDP vector mean estimation: a random rotation, then the scalar Algs 3.7.2-3.7.4 per coordinate (thesis Remark 3.7.4).

Thesis Ch. 3, Sec. 3.7.1, Remark 3.7.4 (after [LSA21]): the user means y_1..y_n in R^d are
concentrated in l2 with radius tau; the rotation U = H_d D / sqrt(d) of Alg 3.6.1 (shared signs D,
:func:`bcdp.dme.l2.rotation_matrix`) bounds them in l_inf with radius O(tau sqrt(log(dn/beta)/d))
(Thm 3.6.5, (3.41)), and the scalar Range_scalar (Alg 3.7.2) and Mean^user_scalar (Alg 3.7.4) run on
each rotated coordinate; the server returns x_hat = U^T z_bar.

* **Budget split (decided here; the remark gives none).**  Every user sends 2 d messages (Range and
  Mean for each of the d coordinates); by basic composition the user-level LDP parameter is the sum
  of the 2 d per-message parameters.  The default split is eps0/(2d) per coordinate and per stage
  (eps0/d per coordinate).  The exact functions take E_c = e^{eps0/(2d)} rational, so that
  e^{eps0} = E_c^{2d} (:func:`vector_budget`); the float functions take eps0.
* **Coordinates after rotation.**  w_i = U y_i; each coordinate runs the scalar algorithm with
  bound B_c (every |w_ic| <= B_c is required; ||U y||_inf <= sqrt(d) max_j |y_j|, so B_c = sqrt(d) B
  always works) and concentration radius tau_c (B_c/tau_c an integer power of 2, as in
  :func:`bcdp.dme.user_level.number_of_bins`).  The good event is max_i ||U (y_i - y0)||_inf <= tau_c for
  a centre y0 (:func:`rotation_concentration_probability`, exact over the 2^d sign vectors) and the
  scalar ranges holding every w~_ic.
* **Privacy.**  The per-user law of the Range messages is the product over coordinates of the laws of
  Alg 3.7.1 (:func:`vector_range_user_law`); its likelihood ratio is the product of the coordinate
  ratios, at most E_c^d (attained when every coordinate bin differs).
* **Error on the good event** (U orthogonal): E||x_bar - x_hat||^2 = sum_c [(1/n^2) sum_i
  (h_c^2 C^2 - (w~_ic - o_c)^2) + (mean_i w~_ic - mean_i w_ic)^2], C = (E_c+1)/(E_c-1), o_c, h_c the
  centre and half-length of the coordinate range; when every w_ic is in its range it is unbiased and
  <= 9 d tau_c^2 C^2 / n (:func:`vector_error_bound`).  With tau_c^2 = Theta(tau^2 log/d) this is
  Theta(tau^2 log (d/eps0)^2 / n) for eps0 <= d: a factor Theta(d) above the natural analogue
  tau^2 d log/(n min{eps0^2, eps0}) of the scalar Thm 3.7.1 (a consequence of the split, recorded in
  THESIS-Rem3.7.4).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any, Sequence

import numpy as np
import sympy

from bcdp.core.errors import InvalidInputError, WrongTypeError
from bcdp.core.numbers import to_float_input, to_fraction
from bcdp.dme import hadamard, l2, user_level

#: Largest d of the exact functions (the second-stage law has 2^d outcomes per user).
MAX_EXACT_DIMENSION = 8
#: Cap on the number of outcomes of the exact product law of the Range messages, (2k)^d.
MAX_RANGE_OUTCOMES = 4096

VectorMessage = tuple[tuple[int, int], ...]
Range = tuple[Any, Any]


# -- inputs -------------------------------------------------------------------------------------------

def _check_E(E_coord: Any) -> Fraction:
    E = to_fraction(E_coord, "E_coord")
    if E <= 1:
        raise InvalidInputError(f"E_coord = e^(eps0/(2d)) must be > 1, got {E}")
    return E


def _check_d(d: Any, cap: int = MAX_EXACT_DIMENSION) -> int:
    if isinstance(d, bool) or not isinstance(d, (int, np.integer)):
        raise WrongTypeError(f"d must be an integer, got {d!r}")
    d = int(d)
    if d < 1 or d & (d - 1) or d > cap:
        raise InvalidInputError(f"d must be a power of 2 at most {cap} (the rotation H_d D / sqrt(d)), got {d}")
    return d


def _real(v: Any, name: str) -> sympy.Expr:
    if isinstance(v, sympy.Expr) and not isinstance(v, sympy.Rational):
        if not (v.is_real and v.is_finite):
            raise InvalidInputError(f"{name} must be a finite real number, got {v}")
        return v
    f = to_fraction(v, name)
    return sympy.Rational(f.numerator, f.denominator)


def _vector(x: Any, name: str) -> tuple[sympy.Expr, ...]:
    if isinstance(x, (str, bytes)) or not hasattr(x, "__len__"):
        raise WrongTypeError(f"{name} must be a sequence of exact numbers")
    return tuple(_real(v, f"{name}[{j}]") for j, v in enumerate(x))


def _rat(f: Fraction) -> sympy.Rational:
    return sympy.Rational(f.numerator, f.denominator)


# -- budget and rotation -----------------------------------------------------------------------------

def vector_budget(E_coord: Any, d: Any) -> Fraction:
    """e^{eps0} = E_c^{2d} of the whole vector pipeline (Remark 3.7.4 with the split of this module): 2 stages
    (Algs 3.7.2 and 3.7.4) x d coordinates, each at E_c = e^{eps0/(2d)}, composed (basic composition)."""
    return _check_E(E_coord) ** (2 * _check_d(d, 1 << 20))


def rotated_means(ys: Sequence[Sequence[Any]], signs: Sequence[int]) -> list[tuple[sympy.Expr, ...]]:
    """w_i = U y_i with U = H_d D / sqrt(d) (Alg 3.6.1 step 3, Remark 3.7.4's encoding step), exact."""
    return [l2.rotate(y, signs) for y in ys]


def coordinate_bin(w: Any, B_c: Any, tau_c: Any) -> int:
    """nu = argmin_j |w - a_j| (Alg 3.7.1 step 3) for one rotated coordinate w in [-B_c, B_c] (w may be an
    exact irrational sympy number), 0-based, ties to the lower index: ceil((w + B_c)/(2 tau_c)) - 1 clipped
    to 0..k-1, k = B_c/tau_c."""
    k = user_level.number_of_bins(B_c, tau_c)
    B, tau = _rat(to_fraction(B_c)), _rat(to_fraction(tau_c))
    w = _real(w, "w")
    if bool(abs(w) > B):
        raise InvalidInputError(f"the rotated coordinate {w} is outside [-B_c, B_c] = [-{B}, {B}]")
    return min(k - 1, max(0, int(sympy.ceiling((w + B) / (2 * tau))) - 1))


def rotation_concentration_probability(ys: Sequence[Sequence[Any]], y0: Sequence[Any], tau_c: Any) -> Fraction:
    """P_D[max_i ||U (y_i - y0)||_inf <= tau_c] exactly over the 2^d uniform sign vectors D (the encoding step
    of Remark 3.7.4, Thm 3.6.5); rational y_i, y0, tau_c > 0, d a power of 2 at most :data:`MAX_EXACT_DIMENSION`.
    Uses (U x)_j^2 = (H_d D x)_j^2 / d, a rational."""
    t = to_fraction(tau_c, "tau_c")
    if t <= 0:
        raise InvalidInputError(f"tau_c must be > 0, got {t}")
    c0 = [to_fraction(v, f"y0[{j}]") for j, v in enumerate(y0)]
    d = _check_d(len(c0))
    diffs = []
    for i, y in enumerate(ys):
        yi = [to_fraction(v, f"y[{i}][{j}]") for j, v in enumerate(y)]
        if len(yi) != d:
            raise InvalidInputError(f"y[{i}] has dimension {len(yi)}, y0 has {d}")
        diffs.append([a - b for a, b in zip(yi, c0)])
    if not diffs:
        raise InvalidInputError("need at least one user")
    H = hadamard.sylvester_hadamard(d)
    good = 0
    for signs in itertools.product((1, -1), repeat=d):
        if all((sum(H[r][j] * signs[j] * x[j] for j in range(d))) ** 2 <= d * t * t
               for x in diffs for r in range(d)):
            good += 1
    return Fraction(good, 2 ** d)


# -- stage 1: Range per coordinate ----------------------------------------------------------------------

def vector_range_user_law(w: Sequence[Any], B_c: Any, tau_c: Any, E_coord: Any) -> dict[VectorMessage, Fraction]:
    """Exact law of one user's d Range messages ((j_1, s_1), ..., (j_d, s_d)) (Remark 3.7.4: Alg 3.7.1 on each
    rotated coordinate w_c at E_c, independent randomness): the product of the l1 Hadamard laws (Alg 3.4.1,
    (3.13)) of e_{nu_c}.  (2k)^d <= :data:`MAX_RANGE_OUTCOMES` outcomes."""
    wv = _vector(w, "w")
    d = _check_d(len(wv))
    E = _check_E(E_coord)
    k = user_level.number_of_bins(B_c, tau_c)
    if (2 * k) ** d > MAX_RANGE_OUTCOMES:
        raise InvalidInputError(f"(2k)^d = {(2 * k) ** d} outcomes exceed the cap {MAX_RANGE_OUTCOMES}")
    laws = []
    for v in wv:
        nu = coordinate_bin(v, B_c, tau_c)
        laws.append(hadamard.l1_hadamard_law(tuple(Fraction(int(i == nu)) for i in range(k)), 1, E))
    out: dict[VectorMessage, Fraction] = {}
    for combo in itertools.product(*(list(law.items()) for law in laws)):
        p = Fraction(1)
        for _, q in combo:
            p *= q
        out[tuple(m for m, _ in combo)] = p
    return out


def vector_range_from_messages(messages: Sequence[VectorMessage], B_c: Any, tau_c: Any,
                               E_coord: Any) -> tuple[tuple[Fraction, Fraction], ...]:
    """Alg 3.7.2 steps 6-8 on each coordinate: the d ranges [a_c, b_c] = [a_max,c - 3 tau_c, a_max,c + 3 tau_c]."""
    if not messages:
        raise InvalidInputError("need at least one user's messages")
    d = _check_d(len(messages[0]))
    if any(len(m) != d for m in messages):
        raise InvalidInputError("every user must send d messages")
    return tuple(user_level.range_from_messages([m[c] for m in messages], B_c, tau_c, E_coord) for c in range(d))


# -- stage 2: Mean per coordinate -----------------------------------------------------------------------

def _check_ranges(ranges: Sequence[Range], d: int) -> list[tuple[sympy.Expr, sympy.Expr]]:
    if len(ranges) != d:
        raise InvalidInputError(f"need d = {d} ranges, got {len(ranges)}")
    out = []
    for c, (a, b) in enumerate(ranges):
        a, b = _real(a, f"a[{c}]"), _real(b, f"b[{c}]")
        if not bool(a < b):
            raise InvalidInputError(f"range {c} needs a < b, got [{a}, {b}]")
        out.append((a, b))
    return out


def project_coordinates(w: Sequence[Any], ranges: Sequence[Range]) -> tuple[sympy.Expr, ...]:
    """w~_c = Pi_[a_c, b_c] w_c (Alg 3.7.4 on each rotated coordinate), exact."""
    wv = _vector(w, "w")
    rs = _check_ranges(ranges, len(wv))
    return tuple(b if bool(v > b) else (a if bool(v < a) else v) for v, (a, b) in zip(wv, rs))


def vector_second_stage_law(w_tilde: Sequence[Any], ranges: Sequence[Range],
                            E_coord: Any) -> list[tuple[sympy.Expr, tuple[sympy.Expr, ...]]]:
    """Exact law of one user's decoded second-stage vector z (in rotated coordinates): coordinate c
    independently o_c + s h_c C with P[s = +1] = 1/2 + (w~_c - o_c)/(2 h_c C) (the d = 1 Hadamard R of
    Alg 3.7.4 at E_c, :func:`bcdp.dme.user_level.second_stage_law`), C = (E_c+1)/(E_c-1).  2^d pairs
    (probability, z); w~ must lie in the ranges."""
    wv = _vector(w_tilde, "w_tilde")
    d = _check_d(len(wv))
    rs = _check_ranges(ranges, d)
    E = _rat(_check_E(E_coord))
    C = (E + 1) / (E - 1)
    half = sympy.Rational(1, 2)
    for c, (v, (a, b)) in enumerate(zip(wv, rs)):
        if bool(v < a) or bool(v > b):
            raise InvalidInputError(f"w_tilde[{c}] = {v} is outside [{a}, {b}]: project it first")
    law = []
    for pattern in itertools.product((1, -1), repeat=d):
        p, z = sympy.Integer(1), []
        for s, v, (a, b) in zip(pattern, wv, rs):
            o, h = (a + b) / 2, (b - a) / 2
            p *= half + s * (v - o) / (2 * h * C)
            z.append(o + s * h * C)
        law.append((p, tuple(z)))
    return law


def vector_mean_error(ys: Sequence[Sequence[Any]], signs: Sequence[int], ranges: Sequence[Range],
                      E_coord: Any) -> sympy.Expr:
    """Exact E||y_bar - x_hat||^2 of the vector Mean stage given the ranges (Remark 3.7.4 with Alg 3.7.4 per
    coordinate): x_hat = U^T (1/n) sum_i z_i; by orthogonality of U it is sum_c [(1/n^2) sum_i
    (h_c^2 C^2 - (w~_ic - o_c)^2) + (mean_i w~_ic - mean_i w_ic)^2] (the scalar (3.51) per coordinate plus the
    clipping bias).  y_bar is the mean of the user means (= x_bar of (3.48) when every user has m samples)."""
    if not ys:
        raise InvalidInputError("need at least one user")
    ws = rotated_means(ys, signs)
    d = len(ws[0])
    rs = _check_ranges(ranges, d)
    E = _rat(_check_E(E_coord))
    C = (E + 1) / (E - 1)
    n = len(ws)
    wt = [project_coordinates(w, ranges) for w in ws]
    total = sympy.Integer(0)
    for c, (a, b) in enumerate(rs):
        o, h = (a + b) / 2, (b - a) / 2
        var = sum((h * h * C * C - (v[c] - o) ** 2 for v in wt), sympy.Integer(0)) / n ** 2
        bias = sum((v[c] for v in wt), sympy.Integer(0)) / n - sum((v[c] for v in ws), sympy.Integer(0)) / n
        total += var + bias ** 2
    return sympy.radsimp(sympy.expand(total))


def vector_error_bound(d: Any, n: Any, tau_c: Any, E_coord: Any) -> Fraction:
    """9 d tau_c^2 C^2 / n, C = (E_c+1)/(E_c-1): the bound on E||y_bar - x_hat||^2 on the good event (every
    rotated coordinate in its range of length 6 tau_c; Thm 3.7.1's f(tau_c, .)/n summed over d coordinates)."""
    d = _check_d(d, 1 << 20)
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or int(n) < 1:
        raise InvalidInputError(f"n must be an integer >= 1, got {n!r}")
    t = to_fraction(tau_c, "tau_c")
    if t <= 0:
        raise InvalidInputError(f"tau_c must be > 0, got {t}")
    E = _check_E(E_coord)
    C = (E + 1) / (E - 1)
    return 9 * d * t * t * C * C / int(n)


# -- float twins ----------------------------------------------------------------------------------------

def split_E_coord_float(eps0: Any, d: Any) -> float:
    """E_c = e^{eps0/(2d)}, the per-coordinate per-stage ratio of the default split (float64)."""
    e = to_float_input(eps0, "eps0")
    if not e > 0:
        raise InvalidInputError(f"eps0 must be > 0, got {e}")
    return math.exp(e / (2 * _check_d(d, 1 << 20)))


def _float_setup(B_c: Any, tau_c: Any, E_coord: Any) -> tuple[float, float, int, float]:
    Bf, tf, k = _float_bins(B_c, tau_c)
    Ef = to_float_input(E_coord, "E_coord")
    if not Ef > 1:
        raise InvalidInputError(f"E_coord must be > 1, got {Ef}")
    return Bf, tf, k, (Ef + 1) / (Ef - 1)


def _float_bins(B_c: Any, tau_c: Any) -> tuple[float, float, int]:
    Bf, tf = to_float_input(B_c, "B_c"), to_float_input(tau_c, "tau_c")
    if not (Bf > 0 and tf > 0):
        raise InvalidInputError("B_c and tau_c must be > 0")
    ki = int(round(Bf / tf))
    if abs(Bf / tf - ki) > 1e-9 * ki or ki < 1 or ki & (ki - 1):
        raise InvalidInputError(f"k = B_c/tau_c must be an integer power of 2, got {Bf / tf!r}")
    return Bf, tf, ki


def _check_rng(rng: Any) -> None:
    if not isinstance(rng, np.random.Generator):
        raise WrongTypeError("rng must be a numpy.random.Generator")


def vector_range_messages_float(w: Any, B_c: Any, tau_c: Any, E_coord: Any,
                                rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """The Range messages (j, s), two (n, d) arrays, of n users with rotated means w (n, d) in [-B_c, B_c]^d
    (Alg 3.7.1 on every coordinate at E_c), vectorised: j uniform on 0..k-1, P[s = +1] = 1/2 + H_k[j, nu]/(2C)."""
    _check_rng(rng)
    Bf, tf, k, C = _float_setup(B_c, tau_c, E_coord)
    arr = np.asarray(w, dtype=np.float64)
    if arr.ndim != 2 or arr.size == 0 or not np.all(np.isfinite(arr)) or np.any(np.abs(arr) > Bf * (1 + 1e-12)):
        raise InvalidInputError("w must be a finite (n, d) array with entries in [-B_c, B_c]")
    nu = np.clip(np.ceil((arr + Bf) / (2 * tf)) - 1, 0, k - 1).astype(np.int64)
    H = np.array(hadamard.sylvester_hadamard(k), dtype=np.float64)
    j = rng.integers(0, k, size=arr.shape)
    s = np.where(rng.random(arr.shape) < 0.5 + H[j, nu] / (2 * C), 1, -1).astype(np.int8)
    return j, s


def vector_range_float(j: np.ndarray, s: np.ndarray, B_c: Any, tau_c: Any, E_coord: Any) -> tuple[np.ndarray, np.ndarray]:
    """Alg 3.7.2 steps 6-8 per coordinate from (n, d) message arrays: (lo, hi), each (d,), lo = a_max - 3 tau_c."""
    Bf, tf, k, _ = _float_setup(B_c, tau_c, E_coord)
    j, s = np.asarray(j, dtype=np.int64), np.asarray(s, dtype=np.float64)
    n, d = j.shape
    H = np.array(hadamard.sylvester_hadamard(k), dtype=np.float64)
    counts = np.bincount((np.arange(d)[None, :] * k + j).ravel(), weights=s.ravel(), minlength=d * k).reshape(d, k)
    a_max = -Bf + (2 * np.argmax(counts @ H, axis=1) + 1) * tf  # lowest index on ties
    return a_max - 3 * tf, a_max + 3 * tf


def mean_vector_float(y: Any, signs: Any, B_c: Any, tau_c: Any, E_coord: Any, rng: np.random.Generator,
                      ranges: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """One run of the vector pipeline of Remark 3.7.4 on user means y (n, d), float64: w = U y
    (:func:`bcdp.dme.l2.rotate_float`), Range per coordinate (unless ``ranges`` = (lo, hi) is given), the
    second stage per coordinate at E_c, x_hat = U^T mean_i z_i (:func:`bcdp.dme.l2.inverse_rotate_float`)."""
    _check_rng(rng)
    Bf, tf, k, C = _float_setup(B_c, tau_c, E_coord)
    w = l2.rotate_float(y, signs)
    if ranges is None:
        j, s = vector_range_messages_float(w, B_c, tau_c, E_coord, rng)
        lo, hi = vector_range_float(j, s, B_c, tau_c, E_coord)
    else:
        lo, hi = (np.asarray(r, dtype=np.float64) for r in ranges)
    o, h = (lo + hi) / 2, (hi - lo) / 2
    wt = np.clip(w, lo, hi)
    z = o + np.where(rng.random(w.shape) < 0.5 + (wt - o) / (2 * h * C), 1.0, -1.0) * h * C
    return l2.inverse_rotate_float(z.mean(axis=0, keepdims=True), signs)[0]
