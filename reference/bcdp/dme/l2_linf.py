"""The l2 mechanism with the real l_inf step R^{l_inf}_{v,m,s}, exact, and explicit-constant forms of Thms 3.6.1-3.6.2.

Thesis Sec. 3.6 (Algs 3.6.1-3.6.2) with the l_inf step of Sec. 3.5 (Algs 3.5.1-3.5.2,
:mod:`bcdp.dme.linf`) in place of the two-point stand-in of :mod:`bcdp.dme.l2`:

* one client: w = clip_r(U x), z = (w + r)/(2r), z_hat ~ :func:`bcdp.dme.linf.linf_estimate_law`,
  w_hat = 2 r z_hat - r, x_hat = U^T w_hat (:func:`l2_linf_law`).  Exact whenever every z_j is
  rational (d = 4 with rational x and r; d = 2 with r a rational multiple of sqrt(2)).
* E[x_hat] = U^T clip_r(U x): unbiased iff no coordinate is clipped; the bias is
  U^T (clip_r(U x) - U x) (:func:`l2_linf_bias`).
* E||x_hat - x||^2 = E||w_hat - w||^2 (U orthogonal) = 4 r^2 F(z) + ||clip_r(w) - w||^2, F the exact
  per-client l_inf MSE on the z scale (:func:`bcdp.dme.linf.linf_mse_formula`, thesis (3.10) and
  Lemma 3.5.1); :func:`l2_linf_mse_closed_form` evaluates it for any exact real r (sympy digits), in
  particular at the theorem's r_inf = 10 r2 sqrt(log(nd/beta)/d), which is irrational.
* Explicit constants (thesis Sec. 3.6.1: "plug r_inf into Thm 3.5.1 / Thm 3.5.2"), on the event of
  Thm 3.6.5 (no clipping), s dividing d (E-Thesis-3.10-padding), v = eps0:
  Thm 3.6.1 (3.36): MSE <= 4 r_inf^2 (4d^2/(3ns) + 5 d^2 s/(n eps0^2) + d/(n 4^m))
  = 400 r2^2 log(nd/beta) (d/n) (4/(3s) + 5 s/eps0^2 + 1/(d 4^m)) (:func:`thm361_mse_bound`);
  Thm 3.6.2 (3.37), v^2 = s n min{eps^2, eps}/(C L), L = log(1/delta), C = 144 printed (432 with the
  corrected calibration of E-Thesis-3.8): MSE <= 4 r_inf^2 ((4d^2/(3n))(1/s - 1/d)
  + 5 C d^2 L/(n^2 min{eps^2, eps}) + d/(n 4^m)) (:func:`thm362_mse_bound`; 5 C = 720, not the 5 of
  (3.34), E-Thesis-3.34).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any, Sequence

import numpy as np
import sympy

from bcdp.core.errors import InvalidInputError, WrongTypeError
from bcdp.core.numbers import to_fraction
from bcdp.dme import hadamard, l2, linf

__all__ = [
    "MAX_ESTIMATOR_OUTCOMES", "clipping_event_probability", "l2_linf_bias", "l2_linf_estimator_law",
    "l2_linf_law", "l2_linf_mse", "l2_linf_mse_closed_form", "thm361_mse_bound", "thm362_mse_bound",
    "vector_law_mse",
]

#: Cap on the joint outcomes of :func:`l2_linf_estimator_law` (product of the clients' law sizes).
MAX_ESTIMATOR_OUTCOMES = 100_000

VectorLaw = list[tuple[Any, tuple[sympy.Expr, ...]]]


def _radius(r: Any) -> sympy.Expr:
    if isinstance(r, sympy.Expr) and not isinstance(r, sympy.Rational):
        if not (r.is_real and r.is_positive):
            raise InvalidInputError(f"the clip radius must be a positive real, got {r}")
        return r
    f = to_fraction(r, "r")
    if f <= 0:
        raise InvalidInputError(f"the clip radius must be > 0, got {f}")
    return sympy.Rational(f.numerator, f.denominator)


def _int(value: Any, name: str, low: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise WrongTypeError(f"{name} must be an int, got {type(value).__name__} {value!r}")
    if int(value) < low:
        raise InvalidInputError(f"{name} must be an int >= {low}, got {value}")
    return int(value)


def _rotated_z(x: Sequence[Any], signs: Sequence[int], r: sympy.Expr) -> tuple[tuple, tuple, tuple]:
    """(w = U x, clip_r(w), z = (clip_r(w) + r)/(2r)) exactly (Alg 3.6.1 steps 4-7, Alg 3.5.1 step 1)."""
    w = l2.rotate(x, signs)
    wc = l2.clip(w, r)
    z = tuple(sympy.radsimp(sympy.expand((v + r) / (2 * r))) for v in wc)
    return w, wc, z


def _rational_z(z: tuple) -> tuple[Fraction, ...]:
    out = []
    for j, v in enumerate(z):
        v = sympy.radsimp(sympy.simplify(v)) if not v.is_Rational else v
        if not v.is_Rational:
            raise InvalidInputError(f"z[{j}] = (w[j] + r)/(2r) = {v} is irrational: the exact law needs rational "
                                    "coordinates (choose r with (U x)[j]/r rational)")
        out.append(Fraction(int(v.p), int(v.q)))
    return tuple(out)


def l2_linf_law(x: Sequence[Any], signs: Sequence[int], r: Any, m: Any, s: Any, ps: Sequence[Any]) -> VectorLaw:
    """Exact law of one client's decoded estimate x_hat = U^T (2 r z_hat - r) of Algs 3.6.1-3.6.2 with
    the l_inf step R^{l_inf}_{v,m,s} (Algs 3.5.1-3.5.2, per-level 2RR parameters ``ps``), clip radius
    ``r`` (exact; every (clip_r(U x)[j] + r)/(2r) must be rational), signs D given, n = 1.  A list of
    (Fraction probability, sympy x_hat) pairs."""
    rr = _radius(r)
    _, _, z = _rotated_z(x, signs, rr)
    zq = _rational_z(z)
    U = l2.rotation_matrix(signs)
    law = linf.linf_estimate_law(zq, m, s, ps)
    out: VectorLaw = []
    for zhat, p in law.items():
        what = sympy.Matrix([2 * rr * sympy.Rational(v.numerator, v.denominator) - rr for v in zhat])
        out.append((p, tuple(sympy.radsimp(sympy.expand(e)) for e in U.T * what)))
    return out


def vector_law_mse(law: VectorLaw, x: Sequence[Any]) -> sympy.Expr:
    """sum_outcomes P ||x_hat - x||^2 of a finite vector law, exact (sympy, radicals simplified)."""
    xs = [sympy.sympify(v) if isinstance(v, sympy.Expr) else sympy.Rational(str(to_fraction(v, "x[j]")))
          for v in x]
    total = sum((sympy.Rational(p.numerator, p.denominator) if isinstance(p, Fraction) else p)
                * sum((e - t) ** 2 for e, t in zip(vec, xs)) for p, vec in law)
    return sympy.radsimp(sympy.expand(total))


def l2_linf_mse(x: Sequence[Any], signs: Sequence[int], r: Any, m: Any, s: Any, ps: Sequence[Any]) -> sympy.Expr:
    """E||x_hat - x||^2 of one client, from the exact law :func:`l2_linf_law` (thesis Thm 3.6.1, left side)."""
    return vector_law_mse(l2_linf_law(x, signs, r, m, s, ps), x)


def l2_linf_bias(x: Sequence[Any], signs: Sequence[int], r: Any) -> tuple[sympy.Expr, ...]:
    """E[x_hat] - x = U^T (clip_r(U x) - U x) exactly (the l_inf step is unbiased on [-r, r]^d, thesis
    Thm 3.5.1): zero iff no coordinate is clipped, the event of Thm 3.6.5."""
    rr = _radius(r)
    w, wc, _ = _rotated_z(x, signs, rr)
    return l2.inverse_rotate(tuple(a - b for a, b in zip(wc, w)), signs)


def _sympy_digits(zj: sympy.Expr, m: int) -> tuple[list[int], sympy.Expr]:
    """(b_1..b_{m-1}, pi) of the clamped quantizer (Sec. 3.5.1, E-Thesis-Lemma3.5.1-x1) at an exact real zj."""
    bits, partial = [], sympy.Integer(0)
    for k in range(1, m):
        b = min(1, int(sympy.floor(2 ** k * (zj - partial))))
        bits.append(b)
        partial += sympy.Rational(b, 2 ** k)
    return bits, sympy.expand(2 ** (m - 1) * (zj - partial))


def l2_linf_mse_closed_form(x: Sequence[Any], signs: Sequence[int], r: Any, m: Any, s: Any,
                            ps: Sequence[Any]) -> sympy.Expr:
    """E||x_hat - x||^2 = 4 r^2 F(z) + ||clip_r(U x) - U x||^2 for any exact real r > 0 (sympy), F the
    per-client z-scale MSE of the l_inf step (thesis (3.10) per level, Lemma 3.5.1 for the last coin):
    F = sum_{k<m} 4^{-k} [d a V_k + (a-1)||b^(k)||^2] + 4^{-(m-1)} [d a V_m + (a-1) sum_j pi_j
    + sum_j pi_j (1 - pi_j)], V_k = p_k(1-p_k)/(1-2p_k)^2, a = ceil(d/s).  ``ps`` may be sympy numbers
    (irrational p_k of the MMS calibration)."""
    rr = _radius(r)
    mm = _int(m, "m")
    w, wc, z = _rotated_z(x, signs, rr)
    d = len(z)
    ss = _int(s, "s")
    if ss > d:
        raise InvalidInputError(f"need 1 <= s <= d = {d}, got s = {ss}")
    if len(ps) != mm:
        raise InvalidInputError(f"ps must give one 2RR parameter per level ({mm}), got {len(ps)}")
    a = -(-d // ss)
    V = []
    for k, p in enumerate(ps):
        pe = p if isinstance(p, sympy.Expr) else sympy.Rational(str(to_fraction(p, f"ps[{k}]")))
        if not (pe >= 0 and pe < sympy.Rational(1, 2)):
            raise InvalidInputError(f"ps[{k}] = {pe} must lie in [0, 1/2)")
        V.append(pe * (1 - pe) / (1 - 2 * pe) ** 2)
    digits = [_sympy_digits(zj, mm) for zj in z]
    F = sympy.Integer(0)
    for k in range(mm - 1):
        ones = sum(dg[0][k] for dg in digits)
        F += (d * a * V[k] + (a - 1) * ones) / sympy.Integer(4) ** (k + 1)
    pis = [dg[1] for dg in digits]
    F += (d * a * V[-1] + (a - 1) * sum(pis) + sum(pi * (1 - pi) for pi in pis)) / sympy.Integer(4) ** (mm - 1)
    return sympy.expand(4 * rr ** 2 * F + sum((c - v) ** 2 for c, v in zip(wc, w)))


def l2_linf_estimator_law(xs: Sequence[Sequence[Any]], signs: Sequence[int], r: Any, m: Any, s: Any,
                          ps: Sequence[Any]) -> VectorLaw:
    """Exact law of x_hat = U^T (1/n) sum_i w_hat_i (Alg 3.6.2 with A^{l_inf} the mean of the clients'
    decoded estimates, Alg 3.5.2) for n = len(xs) independent clients with shared signs; at most
    :data:`MAX_ESTIMATOR_OUTCOMES` joint outcomes."""
    if not xs:
        raise InvalidInputError("need at least one client")
    laws = [l2_linf_law(x, signs, r, m, s, ps) for x in xs]
    if math.prod(len(law) for law in laws) > MAX_ESTIMATOR_OUTCOMES:
        raise InvalidInputError(f"more than {MAX_ESTIMATOR_OUTCOMES} joint outcomes")
    n = len(xs)
    out: dict[tuple, Any] = {}
    for combo in itertools.product(*laws):
        p = math.prod((c[0] for c in combo), start=Fraction(1))
        if p == 0:
            continue
        vec = tuple(sympy.radsimp(sympy.expand(sum(c[1][j] for c in combo) / n)) for j in range(len(combo[0][1])))
        out[vec] = out.get(vec, Fraction(0)) + p
    return [(p, v) for v, p in out.items()]


def clipping_event_probability(xs: Sequence[Sequence[Any]], t_squared: Any) -> Fraction:
    """P_D[max_i ||U x_i||_inf^2 <= t^2] exactly over the 2^d uniform shared sign vectors (the event of
    Thm 3.6.5, (3.41), for n = len(xs) clients), x_i rational, d a power of 2 at most
    :data:`bcdp.dme.l2.MAX_SIGN_ENUMERATION`; t^2 rational >= 0."""
    t2 = to_fraction(t_squared, "t_squared")
    if t2 < 0:
        raise InvalidInputError(f"t_squared must be >= 0, got {t2}")
    if not xs:
        raise InvalidInputError("need at least one client")
    rows = [[to_fraction(v, "x[i][j]") for v in x] for x in xs]
    d = len(rows[0])
    if any(len(row) != d for row in rows) or d < 1 or d & (d - 1) or d > l2.MAX_SIGN_ENUMERATION:
        raise InvalidInputError(f"all x_i need one dimension d, a power of 2 at most {l2.MAX_SIGN_ENUMERATION}")
    L = math.lcm(*(v.denominator for row in rows for v in row))
    X = np.array([[int(v * L) for v in row] for row in rows], dtype=np.int64)
    if np.abs(X).max() * d >= 2 ** 31:
        raise InvalidInputError("x has numerators too large for the exact integer enumeration")
    H = np.array(hadamard.sylvester_hadamard(d), dtype=np.int64)
    signs = np.array(list(itertools.product((1, -1), repeat=d)), dtype=np.int64)
    # ||U x_i||_inf^2 = max_j (H D X_i)_j^2 / (d L^2), exactly in integers
    peaks = np.abs(np.einsum("tj,ij,jk->tik", signs, X, H)).reshape(len(signs), -1).max(axis=1)
    ok = sum(1 for v in peaks.tolist() if Fraction(int(v) ** 2, d * L * L) <= t2)
    return Fraction(ok, len(signs))


def _check_bound_inputs(r2: Any, d: Any, n: Any, beta: Any, m: Any, s: Any) -> tuple:
    dd, nn, mm, ss = _int(d, "d"), _int(n, "n"), _int(m, "m"), _int(s, "s")
    if dd & (dd - 1):
        raise InvalidInputError(f"d must be a power of 2 (the Hadamard rotation of Alg 3.6.1), got {dd}")
    if ss > dd or dd % ss:
        raise InvalidInputError(f"s must divide d (E-Thesis-3.10-padding: the bound uses a = d/s), got s = {ss}, d = {dd}")
    r_inf = l2.clip_radius(r2, dd, nn, beta)
    return dd, nn, mm, ss, r_inf


def thm361_mse_bound(r2: Any, d: Any, n: Any, beta: Any, m: Any, s: Any, eps0: Any) -> sympy.Expr:
    """Explicit form of thesis Thm 3.6.1 (3.36) from its proof (Sec. 3.6.1: r_inf = 10 r2 sqrt(log(nd/beta)/d)
    in Thm 3.5.1's (3.31)/(3.20)): 4 r_inf^2 (4d^2/(3ns) + 5 d^2 s/(n eps0^2) + d/(n 4^m)), valid on the
    event max_i ||U x_i||_inf <= r_inf (prob. >= 1 - beta), for v = eps0 > 0, d a power of 2, s | d."""
    dd, nn, mm, ss, r_inf = _check_bound_inputs(r2, d, n, beta, m, s)
    e = to_fraction(eps0, "eps0")
    if e <= 0:
        raise InvalidInputError(f"eps0 must be > 0, got {e}")
    E0 = sympy.Rational(e.numerator, e.denominator)
    R = sympy.Rational
    return 4 * r_inf ** 2 * (R(4 * dd * dd, 3 * nn * ss) + 5 * dd * dd * ss / (nn * E0 ** 2) + R(dd, nn * 4 ** mm))


def thm362_mse_bound(r2: Any, d: Any, n: Any, beta: Any, m: Any, s: Any, eps: Any, delta: Any,
                     calibration_constant: Any = 144) -> sympy.Expr:
    """Explicit form of thesis Thm 3.6.2 (3.37) from its proof (r_inf in Thm 3.5.2's (3.33)-(3.34)) with
    v^2 = s n min{eps^2, eps}/(C log(1/delta)) (C = 144 printed, (3.30); 432 corrected, E-Thesis-3.8):
    4 r_inf^2 ((4d^2/(3n))(1/s - 1/d) + 5 C d^2 log(1/delta)/(n^2 min{eps^2, eps}) + d/(n 4^m)), on the
    event of Thm 3.6.5, d a power of 2, s | d, eps > 0, delta in (0, 1)."""
    dd, nn, mm, ss, r_inf = _check_bound_inputs(r2, d, n, beta, m, s)
    e, dl, C = to_fraction(eps, "eps"), to_fraction(delta, "delta"), to_fraction(calibration_constant, "C")
    if e <= 0 or not 0 < dl < 1 or C <= 0:
        raise InvalidInputError("need eps > 0, delta in (0, 1) and C > 0")
    R = sympy.Rational
    L = sympy.log(1 / R(dl.numerator, dl.denominator))
    mn = min(e * e, e)
    return 4 * r_inf ** 2 * (R(4 * dd * dd, 3 * nn) * (R(1, ss) - R(1, dd))
                             + 5 * R(C.numerator, C.denominator) * dd * dd * L / (nn * nn * R(mn.numerator, mn.denominator))
                             + R(dd, nn * 4 ** mm))
