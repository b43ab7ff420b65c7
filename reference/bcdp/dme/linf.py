"""The l_inf mechanism R^{l_inf}_{v,m,s} / A^{l_inf} (thesis Algs 3.5.1-3.5.2, Thm 3.5.1) for tiny d, m, exact; the water-filling split.

Client (thesis Alg 3.5.1): z = (x + r)/(2r) in [0,1]^d; the quantizer's digits b^(1..m-1) and the
last coin u (thesis Sec. 3.5.1, with the x = 1 clamp of :mod:`bcdp.dme.quantizer`); level k is sent
through R^Bin_{v_k,s} (:mod:`bcdp.dme.binary_vector`).  Server (Alg 3.5.2): z_hat = sum_{k<m}
b_hat^(k) 2^{-k} + u_hat 2^{-(m-1)}, x_hat = 2 r z_hat - r.

Budget split ("private water-filling", thesis eq. (3.26)): S_m = sum_{l<m} 4^{-l/3} + 4^{-(m-1)/3},
f_k = 4^{-k/3}/S_m (k < m), f_m = 4^{-(m-1)/3}/S_m, v_k = f_k v; sum_k f_k = 1.  It is the KKT
optimum of min sum_k w_k^2/v_k^2 subject to sum_k v_k = v with level weights w_k = 2^{-k} (k < m),
w_m = 2^{-(m-1)} (derived in sympy by :func:`kkt_split`), and the optimum value is S_m^3/v^2; S_m
increases to S_inf = 1/(4^{1/3} - 1) with S_inf^3 = 4.93396... < 5, the constant of (3.31).

The exact law takes the m per-level 2RR parameters p_k directly (rational), since p_k of v_k = f_k v
is irrational in general; :func:`level_p` gives the exact sympy p_k of the split.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from bcdp.core.errors import InvalidInputError, WrongTypeError

from . import binary_vector as bv
from .quantizer import binary_digits
from .two_rr import check_p, two_rr_variance

__all__ = [
    "MAX_LAW_OUTCOMES", "kkt_split", "level_p", "linf_estimate_law", "linf_mse", "linf_mse_formula",
    "s_infinity_cubed", "split_constant", "water_filling_split",
]

#: Cap on the number of joint outcomes enumerated by :func:`linf_estimate_law`.
MAX_LAW_OUTCOMES = 200_000


def _check_m(m: Any) -> int:
    if isinstance(m, bool) or not isinstance(m, int):
        raise WrongTypeError(f"m must be an int, got {type(m).__name__} {m!r}")
    if not 1 <= m <= 64:
        raise InvalidInputError(f"m must be in [1, 64] (levels of thesis Alg 3.5.1), got {m}")
    return m


def split_constant(m: Any) -> Any:
    """S_m = sum_{l=1}^{m-1} 4^{-l/3} + 4^{-(m-1)/3} (thesis eq. (3.26)), an exact sympy number."""
    import sympy

    mm = _check_m(m)
    four = sympy.Integer(4)
    return sum((four ** sympy.Rational(-l, 3) for l in range(1, mm)), sympy.Integer(0)) + four ** sympy.Rational(-(mm - 1), 3)


def water_filling_split(m: Any) -> tuple[Any, ...]:
    """(f_1, ..., f_m) of thesis eq. (3.26): f_k = 4^{-k/3}/S_m for k < m, f_m = 4^{-(m-1)/3}/S_m (sympy)."""
    import sympy

    mm = _check_m(m)
    S = split_constant(mm)
    four = sympy.Integer(4)
    return tuple(four ** sympy.Rational(-k, 3) / S for k in range(1, mm)) + (four ** sympy.Rational(-(mm - 1), 3) / S,)


def kkt_split(m: Any) -> tuple[Any, ...]:
    """The fractions v_k/v minimising sum_k w_k^2/v_k^2 s.t. sum_k v_k = v (w_k = 2^{-k} for k < m,
    w_m = 2^{-(m-1)}: the level weights of thesis Alg 3.5.2), derived by sympy from the Lagrange
    conditions -2 w_k^2/v_k^3 + lambda = 0 (the objective is strictly convex for v_k > 0)."""
    import sympy

    mm = _check_m(m)
    lam = sympy.symbols("lambda", positive=True)
    weights = [sympy.Rational(1, 2 ** k) for k in range(1, mm)] + [sympy.Rational(1, 2 ** (mm - 1))]
    vs = []
    for w in weights:
        vk = sympy.symbols("v_k", positive=True)
        sol = sympy.solve(sympy.Eq(sympy.diff(w ** 2 / vk ** 2, vk) + lam, 0), vk)
        if len(sol) != 1:
            raise InvalidInputError("the Lagrange condition has no unique positive root")  # pragma: no cover
        vs.append(sol[0])
    total = sum(vs)
    return tuple(sympy.simplify(x / total) for x in vs)


def s_infinity_cubed() -> Any:
    """S_inf^3 = (4^{1/3} - 1)^{-3}, the limit of S_m^3 (thesis (3.31) bounds it by 5), exact sympy."""
    import sympy

    return 1 / (sympy.Integer(4) ** sympy.Rational(1, 3) - 1) ** 3


def level_p(m: Any, s: Any, v: Any) -> tuple[Any, ...]:
    """Exact sympy p_k of level k: Lemma 2.4.1's p for the per-message budget f_k v/s (thesis Alg 3.5.1)."""
    import sympy

    from bcdp.core.numbers import to_fraction

    vv = to_fraction(v, "v")
    out = []
    for f in water_filling_split(m):
        w = sympy.nsimplify(f * sympy.Rational(vv.numerator, vv.denominator) / s)
        p = (1 - sympy.sqrt(w ** 2 / (w ** 2 + 4))) / 2
        out.append(p)
    return tuple(out)


def _check_z(z: Sequence[Any]) -> tuple[Fraction, ...]:
    from bcdp.core.numbers import to_fraction

    coords = tuple(to_fraction(x, "z[j]") for x in z)
    if not coords or any(not 0 <= x <= 1 for x in coords):
        raise InvalidInputError("z must be a non-empty vector in [0, 1]^d (thesis Alg 3.5.1, z = (x + r)/(2r))")
    return coords


def linf_estimate_law(z: Sequence[Any], m: Any, s: Any, ps: Sequence[Any]) -> dict[tuple[Fraction, ...], Fraction]:
    """Exact law of z_hat of one client (thesis Algs 3.5.1-3.5.2 with n = 1), by enumerating the last
    coins u, and per level the R^Bin coordinates and 2RR flips (levels independent given u); ``ps`` are
    the m per-level 2RR parameters.  Coordinates beyond d (padding) are dropped."""
    coords = _check_z(z)
    mm = _check_m(m)
    if len(ps) != mm:
        raise InvalidInputError(f"ps must give one 2RR parameter per level ({mm}), got {len(ps)}")
    d = len(coords)
    params = [bv.binary_vector_params(d, s, p=check_p(p, "ps[k]")) for p in ps]
    size = 2 ** d * (2 * params[0].a) ** (params[0].s * mm)
    if size > MAX_LAW_OUTCOMES:
        raise InvalidInputError(f"{size} joint outcomes exceed the cap {MAX_LAW_OUTCOMES}")
    digits = [binary_digits(x, mm) for x in coords]
    levels_fixed = []
    for k in range(mm - 1):
        bits = tuple(dg[0][k] for dg in digits)
        levels_fixed.append(_level_law(bits, params[k], Fraction(1, 2 ** (k + 1))))
    law: dict[tuple[Fraction, ...], Fraction] = {}
    for u in itertools.product((0, 1), repeat=d):
        wu = Fraction(1)
        for uj, (_, pi) in zip(u, digits):
            wu *= pi if uj else 1 - pi
        if wu == 0:
            continue
        dist = {tuple([Fraction(0)] * d): wu}
        for level in levels_fixed + [_level_law(u, params[-1], Fraction(1, 2 ** (mm - 1)))]:
            nxt: dict[tuple[Fraction, ...], Fraction] = {}
            for vec, w in dist.items():
                for est, w2 in level.items():
                    key = tuple(a + b for a, b in zip(vec, est))
                    nxt[key] = nxt.get(key, Fraction(0)) + w * w2
            dist = nxt
        for vec, w in dist.items():
            law[vec] = law.get(vec, Fraction(0)) + w
    return law


def _level_law(bits: tuple[int, ...], params: bv.BinaryVectorParams, weight: Fraction) -> dict:
    out: dict[tuple[Fraction, ...], Fraction] = {}
    for msg, w in bv.message_law(bits, params).items():
        est = tuple(weight * e for e in bv.client_estimate(msg, params))
        out[est] = out.get(est, Fraction(0)) + w
    return out


def linf_mse(z: Sequence[Any], m: Any, s: Any, ps: Sequence[Any]) -> Fraction:
    """E||z_hat - z||^2 of one client from :func:`linf_estimate_law` (thesis Thm 3.5.1, proof of (3.31)
    before the bounds; multiply by 4 r^2 for x_hat)."""
    coords = _check_z(z)
    return sum((w * sum(((e - x) ** 2 for e, x in zip(vec, coords)), Fraction(0))
                for vec, w in linf_estimate_law(coords, m, s, ps).items()), Fraction(0))


def linf_mse_formula(z: Sequence[Any], m: Any, s: Any, ps: Sequence[Any]) -> Fraction:
    """sum_{k<m} 4^{-k}[d a V_k + (a-1)||b^(k)||^2] + 4^{-(m-1)}[d a V_m + (a-1) sum_j pi_j]
    + 4^{-(m-1)} sum_j pi_j (1 - pi_j), V_k = p_k(1-p_k)/(1-2p_k)^2: the exact per-client MSE over the
    d real coordinates (derived here from thesis (3.10) and Lemma 3.5.1; (3.31) bounds it)."""
    coords = _check_z(z)
    mm = _check_m(m)
    d = len(coords)
    a = bv.binary_vector_params(d, s, p=0).a
    digits = [binary_digits(x, mm) for x in coords]
    total = Fraction(0)
    for k in range(mm - 1):
        ones = sum(dg[0][k] for dg in digits)
        total += (d * a * two_rr_variance(ps[k]) + (a - 1) * ones) / Fraction(4) ** (k + 1)
    pis = [dg[1] for dg in digits]
    last = Fraction(1, 4 ** (mm - 1))
    total += last * (d * a * two_rr_variance(ps[-1]) + (a - 1) * sum(pis))
    total += last * sum((pi * (1 - pi) for pi in pis), Fraction(0))
    return total

