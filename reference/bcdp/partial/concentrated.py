"""Concentrated partial DP: the eps-nabla-CDP and zCDP accountant for finite mechanisms on datasets.

Partial DP paper: Ghazi, Kumar, Manurangsi, Steinke, "Algorithms with More Granular Differential
Privacy Guarantees" (arXiv:2209.04053), Sec. 2: Def. 3 (rho-zCDP, D*(M(x)||M(x')) <= rho for
neighbours x, x' differing in one record) and Sec. 2.1, Def. 6 (eps-nabla-CDP:
D*(M(x)||M(x')) <= (1/2) eps(x_i, x'_i)^2 for x, x' differing only in record i; per-attribute
eps0-nabla0-CDP is eps(x_i, x'_i) = eps0 ||x_i - x'_i||_0).

Every quantity is computed from certified D* enclosures (:func:`bcdp.partial.dstar.d_star`) and
returned as a :class:`bcdp.core.results.Certified` enclosure with the witness pair of datasets;
decisions (:func:`nabla_cdp_holds`) compare enclosures and report a pair as *undecided* when the
two sides are equal or closer than the enclosures' widths, never guessing.  Datasets are encoded,
validated and selected as in :mod:`bcdp.partial.pure` (record-major flat points).

For compatibility the D* function and the divergences are importable from here as well; new code
imports them from :mod:`bcdp.partial.dstar` and :mod:`bcdp.core.divergences`.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Sequence

import mpmath

from bcdp.core.divergences import (  # noqa: F401  (re-exported for the checks; import from core)
    DEFAULT_DPS,
    GUARD_DIGITS,
    d_infinity,
    kl_divergence,
    kl_divergence_exact,
    renyi_divergence,
    renyi_divergence_exact,
    renyi_moment_exact,
)
from bcdp.core.divergences import MIN_DPS as DIVERGENCE_MIN_DPS
from bcdp.core.errors import FloatRefusedError, InvalidInputError
from bcdp.core.intervals import arb_precision, ball, ball_of
from bcdp.core.numbers import INFINITY, MAX_DPS, MAX_PREC_BITS, MIN_PREC_BITS, check_precision, to_fraction
from bcdp.core.results import Certified, decide_le
from bcdp.core.spaces import Mechanism
from bcdp.partial.dstar import DEFAULT_REL_TOL, ball_ends, d_star, d_star_json  # noqa: F401  (re-exported)
from bcdp.partial.pure import (
    agreeing_groups,
    hamming,
    input_indices,
    record_block,
    to_dataset,
)

#: Provenance of the accountant's enclosures.
PROVENANCE_EPS0 = ("eps0 of eps0-nabla0-CDP = max over one-record pairs of sqrt(2 D*)/||x_i - x'_i||_0, "
                   "partial DP paper (arXiv:2209.04053) Sec. 2.1, Def. 6")
PROVENANCE_RHO = ("rho of rho-zCDP under replace-one neighbours = max over one-record pairs of D*, "
                  "partial DP paper (arXiv:2209.04053) Sec. 2, Def. 3")


def _iv_bits(digits: int) -> int:
    """Ball precision (bits) for a working precision of ``digits`` decimal digits (arb balls are about
    a bit wider than the mpmath.iv intervals this was sized for: 12 guard bits more)."""
    return int(digits * 3.33) + 32


# -- neighbouring pairs --------------------------------------------------------------------------------

def one_record_pairs(mech: Mechanism, n: int, d: int, inputs: Sequence | None = None
                     ) -> Iterator[tuple[int, int, int, int]]:
    """Ordered pairs (record i, a, b, Hamming k) of input indices a != b differing only in record
    i (replace-one neighbours, Defs. 1, 3 and 6), k = ||x_i - x'_i||_0 >= 1 the number of attributes
    of that record that differ.  Uses :mod:`bcdp.partial.pure`'s encoding and input selection."""
    idx = input_indices(mech, n, d, inputs)
    pts = mech.domain.points
    for i in range(n):
        for members in agreeing_groups(mech, idx, record_block(i, d)):
            for a, b in itertools.permutations(members, 2):
                yield i, a, b, hamming(pts[a][i * d:(i + 1) * d], pts[b][i * d:(i + 1) * d])


def _pair_witness(mech: Mechanism, n: int, d: int, i: int, a: int, b: int, k: int, res: Certified) -> dict:
    pts = mech.domain.points
    return {"x": to_dataset(pts[a], n, d), "x_prime": to_dataset(pts[b], n, d), "record": i,
            "hamming": k, "d_star": d_star_json(res)}


# -- the accountant (Defs. 3 and 6) ---------------------------------------------------------------------

def _max_over_pairs(mech: Mechanism, n: int, d: int, inputs: Sequence | None, rel_tol: Any, dps: int,
                    ends: Callable[[Certified, int], tuple[Any, Any]], provenance: str) -> Certified:
    """Certified enclosure of the max over :func:`one_record_pairs` of an increasing function of D*
    (``ends(D*, k)`` = certified (lower, upper) of the function over the D* enclosure), with the
    witness pair of the largest lower end (the first such pair in the order of
    :func:`one_record_pairs`); ``INFINITY`` at the first infinite D*; exactly 0 without pairs."""
    best_lo, best_hi, best_w = mpmath.mpf(0), mpmath.mpf(0), None
    with mpmath.workdps(dps + GUARD_DIGITS):
        for i, a, b, k in one_record_pairs(mech, n, d, inputs):
            res = d_star(mech.kernel[a], mech.kernel[b], rel_tol, dps)
            if res.is_infinite:
                return Certified(INFINITY, INFINITY, INFINITY, _pair_witness(mech, n, d, i, a, b, k, res),
                                 provenance)
            lo, hi = ends(res, k)
            if best_w is None or lo > best_lo:
                best_lo, best_hi, best_w = lo, max(hi, best_hi), _pair_witness(mech, n, d, i, a, b, k, res)
            elif hi > best_hi:
                best_hi = hi
    return Certified(best_lo, best_hi, mpmath.mpf(0) if best_w is None else None, best_w, provenance)


def per_attribute_cdp_epsilon(mech: Mechanism, n: int, d: int, inputs: Sequence | None = None,
                              rel_tol: Any = "1e-20", dps: int = DEFAULT_DPS) -> Certified:
    """Smallest eps0 with M eps0-nabla0-CDP (Sec. 2.1, Def. 6): D*(M(x)||M(x')) <= (1/2) eps0^2
    ||x_i - x'_i||_0^2 for all inputs x, x' differing only in record i, i.e.
    eps0 = max over those pairs (both orders) of sqrt(2 D*)/||x_i - x'_i||_0.

    Returns a certified enclosure (mpf; ``INFINITY`` if some D* is infinite; sqrt(2 D*)/k of the
    D* ends rounded outward with arb ball arithmetic at about dps + 15 digits) with the witness pair
    of the largest lower end (the first such pair of :func:`one_record_pairs`)
    (keys ``x``, ``x_prime``, ``record``, ``hamming``, ``d_star``).  No constraint at all (a single
    input) gives exactly 0 and no witness."""
    dps = check_precision(dps, "dps", DIVERGENCE_MIN_DPS, MAX_DPS)
    bits = _iv_bits(dps + GUARD_DIGITS)

    def ends(res: Certified, k: int) -> tuple[Any, Any]:
        with arb_precision(bits):
            return (ball_ends((2 * ball_of(res.lower)).sqrt() / k)[0],
                    ball_ends((2 * ball_of(res.upper)).sqrt() / k)[1])
    return _max_over_pairs(mech, n, d, inputs, rel_tol, dps, ends, PROVENANCE_EPS0)


def whole_record_zcdp(mech: Mechanism, n: int, d: int, inputs: Sequence | None = None,
                      rel_tol: Any = "1e-20", dps: int = DEFAULT_DPS) -> Certified:
    """rho of rho-zCDP under replace-one neighbours (Sec. 2, Def. 3; Bun and Steinke 2016): max
    over input pairs differing in (any attributes of) exactly one record of D*(M(x)||M(x')),
    certified enclosure with the witness pair of the largest lower end."""
    dps = check_precision(dps, "dps", DIVERGENCE_MIN_DPS, MAX_DPS)
    return _max_over_pairs(mech, n, d, inputs, rel_tol, dps, lambda res, k: (res.lower, res.upper),
                           PROVENANCE_RHO)


# -- the decision of Def. 6 ------------------------------------------------------------------------------

@dataclass(frozen=True)
class NablaCDPResult:
    """Outcome of :func:`nabla_cdp_holds`.  ``holds``: no pair violates and none is undecided;
    ``violation``: the first certified violation (D*.lower > upper end of eps^2/2); ``undecided``:
    pairs whose D* enclosure overlaps the enclosure of eps^2/2 even at the finest tolerance
    (equality, or a difference below ~1e-(dps-15) relative)."""

    holds: bool
    violation: dict | None
    undecided: list = field(default_factory=list)
    pairs_checked: int = 0


def _is_sympy(value: Any) -> bool:
    return type(value).__module__.startswith("sympy")


def eps_enclosure(value: Any, where: str, bits: int) -> tuple[Any, Any] | float:
    """Certified enclosure (lo, hi) (exact mpf ends) of a value of ``eps_fn`` (eps, not e^eps), or
    ``INFINITY``.  Exact rationals (int, Fraction, 'p/q') and mpf (an exact binary number) give
    outward-rounded or point enclosures; sympy expressions built from rationals, +, *, powers, exp
    and log are enclosed by :func:`bcdp.core.intervals.ball` (arb), other real sympy numbers by
    sympy's error-controlled ``evalf`` widened by 10^-(digits - 10) relative.  Floats are refused;
    a value certainly below 0 is refused."""
    bits = check_precision(bits, "bits", MIN_PREC_BITS, MAX_PREC_BITS)
    if value == INFINITY:
        return INFINITY
    if isinstance(value, float):
        raise FloatRefusedError(f"eps_fn{where} returned a float {value!r}; give eps exactly "
                                "(int, Fraction, 'p/q', a sympy expression such as log(3), or an mpf)")
    if isinstance(value, mpmath.mpf):
        if not mpmath.isfinite(value):
            raise InvalidInputError(f"eps_fn{where} = {value} must be a finite non-negative number (or INFINITY)")
        lo = hi = value
    elif _is_sympy(value):
        import sympy

        if value == sympy.oo:
            return INFINITY
        if not isinstance(value, sympy.Basic) or not value.is_real or not value.is_finite:
            raise InvalidInputError(f"eps_fn{where} = {value} is not a finite real number")
        try:
            lo, hi = ball_ends(ball(value, bits))
        except TypeError:  # a form ball() does not know: evalf with a widened margin
            digits = int(bits / 3.33)
            with mpmath.workdps(digits + 10):
                v = mpmath.mpf(sympy.N(value, digits + 10))
                margin = abs(v) * mpmath.mpf(10) ** (-(digits - 10))
                lo, hi = v - margin, v + margin
    else:
        q = to_fraction(value, f"eps_fn{where}")
        with arb_precision(bits):
            lo, hi = ball_ends(ball_of(q))
    if hi < 0:
        raise InvalidInputError(f"eps_fn{where} = {mpmath.nstr(hi, 20)} must be a finite non-negative "
                                "number (or INFINITY)")
    return lo, hi


def _half_square(enc: tuple[Any, Any], bits: int) -> Certified:
    """Certified enclosure of eps^2/2 for eps in the enclosure ``enc`` (monotone for eps >= 0)."""
    with arb_precision(bits):
        lo, hi = ball_of(enc[0]), ball_of(enc[1])
        if lo >= 0:
            return Certified(ball_ends(lo * lo / 2)[0], ball_ends(hi * hi / 2)[1], provenance="eps^2/2, Def. 6")
        e = lo.union(hi)  # an end below 0 (an evalf margin around eps = 0): the square of the hull
        return Certified(ball_ends(e * e / 2)[0], ball_ends(e * e / 2)[1], provenance="eps^2/2, Def. 6")


def nabla_cdp_holds(mech: Mechanism, n: int, d: int, eps_fn: Callable[[tuple, tuple], Any],
                    inputs: Sequence | None = None, dps: int = DEFAULT_DPS) -> NablaCDPResult:
    """Sec. 2.1, Def. 6: M is eps-nabla-CDP iff D*(M(x)||M(x')) <= (1/2) eps(x_i, x'_i)^2 for all
    inputs x, x' differing only in record i.  ``eps_fn(r, r')`` takes two records (tuples of d
    values) and returns eps (symmetric, >= 0; exact rational, sympy expression, mpf or
    ``INFINITY``; see :func:`eps_enclosure`).

    Decisions compare the certified D* enclosure with a certified enclosure of eps^2/2
    (:func:`bcdp.core.results.decide_le`), refined down to 1e-(dps-15) relative width when the
    comparison is close; a pair whose two sides cannot be separated (equal values, or closer than
    the widths) is listed as *undecided* and makes ``holds`` False without a violation: never a
    guess in either direction."""
    dps = check_precision(dps, "dps", DIVERGENCE_MIN_DPS, MAX_DPS)
    bits = _iv_bits(dps + GUARD_DIGITS)
    pts = mech.domain.points
    undecided: list = []
    count = 0
    with mpmath.workdps(dps + GUARD_DIGITS):
        for i, a, b, k in one_record_pairs(mech, n, d, inputs):
            ra, rb = tuple(pts[a][i * d:(i + 1) * d]), tuple(pts[b][i * d:(i + 1) * d])
            e = eps_enclosure(eps_fn(ra, rb), f"({list(ra)}, {list(rb)})", bits)
            back = eps_enclosure(eps_fn(rb, ra), f"({list(rb)}, {list(ra)})", bits)
            if (e == INFINITY) != (back == INFINITY) or (
                    e != INFINITY and (e[1] < back[0] or back[1] < e[0])):
                def show(x: Any) -> str:
                    return "inf" if x == INFINITY else mpmath.nstr((x[0] + x[1]) / 2, 20)
                raise InvalidInputError(f"eps_fn is not symmetric on {list(ra)}, {list(rb)}: "
                                        f"{show(e)} vs {show(back)}")
            count += 1
            if e == INFINITY:
                continue
            bound = _half_square(e, bits)
            shown = mpmath.nstr((bound.lower + bound.upper) / 2, 40)
            decision = None
            for tol in ("1e-20", f"1e-{dps - 15}"):
                res = d_star(mech.kernel[a], mech.kernel[b], tol, dps)
                decision = decide_le(res, bound)
                if decision is not None:
                    break
            if decision is True:
                continue
            w = _pair_witness(mech, n, d, i, a, b, k, res)
            w["bound"] = shown
            if decision is False:
                return NablaCDPResult(False, w, undecided, count)
            undecided.append(w)
    return NablaCDPResult(not undecided, None, undecided, count)


__all__ = ["NablaCDPResult", "PROVENANCE_EPS0", "PROVENANCE_RHO", "d_star", "eps_enclosure",
           "nabla_cdp_holds", "one_record_pairs", "per_attribute_cdp_epsilon", "whole_record_zcdp"]
