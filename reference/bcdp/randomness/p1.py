"""Problem P1 of thesis Sec. 7.3.1 (eqs. (7.20)-(7.21)) solved with certified precision.

P1 (thesis Sec. 7.3.1, proof of Lemma 7.3.2): over two pmfs ``a = Q(.|j)``, ``b = Q(.|j+k/2)`` on
``m`` outputs, maximise ``V(a, b) = sum_l (a_l - b_l)^2 / (a_l + b_l)`` (7.20) subject to (7.21):
``H(a) <= R``, ``H(b) <= R`` and ``e^-eps <= a_l / b_l <= e^eps`` for every output ``l`` (two rows
of an (eps, R)-LDP channel, eq. (7.2); ``0/0`` terms are 0, and ``a_l = 0`` forces ``b_l = 0``).

- :func:`p1_value` (exact) / :func:`p1_value_float`; :func:`p1_feasible` (certified decision).
- :func:`p1_solve`: a certified ENCLOSURE ``[lower, upper]`` of the optimum ``V*(m, eps, R)``:
  ``lower`` is ``V`` at an exactly rational point proved feasible (:func:`p1_feasible_point`: a float
  SLSQP multistart with tightened constraints, rationalised, then certified); ``upper`` is the best of
  the proven bounds below.
- :func:`classical_bound` ``2 c^2`` with ``c = (e^eps - 1)/(e^eps + 1)``, any R, any m.  Proof:
  ``r_l = (a_l - b_l)/(a_l + b_l)`` has ``|r_l| <= c`` by the ratio constraint, so
  ``V = sum_l (a_l + b_l) r_l^2 <= c sum_l |a_l - b_l| = 2c TV(a, b) <= 2 c^2`` (``TV <= c`` under
  the ratio constraint).  Binary randomized response attains it when ``R >= H2(e^eps/(e^eps+1))``.
- :func:`p1_dual_upper`: weak Lagrangian duality.  For free ``lambda_a, lambda_b`` and
  ``mu_a, mu_b >= 0`` and every feasible ``(a, b)`` (entropies in nats, ``R'`` = R in nats),
  ``V <= lambda_a + lambda_b + (mu_a + mu_b) R' + sum_l psi(a_l, b_l)`` with
  ``psi(x, y) = (x-y)^2/(x+y) - lambda_a x - lambda_b y + mu_a x ln x + mu_b y ln y``.  ``psi`` is
  CONVEX (a perspective, linear terms, ``mu x ln x`` with ``mu >= 0``), so its supremum over a convex
  polygon is its largest value at a vertex: no branch-and-bound is needed.  The cone
  ``e^-eps <= x/y <= e^eps`` is enlarged to the rational cone of ``E_hi >= e^eps`` (a superset, so
  the bound stays valid) and its vertices are exact Fractions; ``psi`` is evaluated there in arb
  balls.  When ``R < H2(e^eps/(e^eps+1))`` is certified, the outputs are split (see the corrected
  lemma below): one output lies in ``[1-p_R, 1]^2`` and the others in ``[0, p_R]^2``; that square
  is further cut into ``splits^2`` cells (primal branching: the bound is the largest cell bound, the
  other outputs then lie in ``[0, 1-x0] x [0, 1-y0]``; ``depth = 2`` also cuts the second output's
  square).  Multipliers come from a float linear program per cell (the dual is piecewise linear in
  them over fixed vertices).
- :func:`p1_binary_upper` (m = 2 only, a second route): for ``R < H2`` both rows of a binary
  channel have their large symbol on the same output, and ``V(a, b) = V((1-a, a), (1-b, b))`` is
  convex in ``(a_1, b_1) in [0, p_R]^2`` intersected with the cone, so the optimum is at a vertex:
  ``(p_R, p_R e^-eps)`` (the thesis' optimiser (7.22) is right; its value (7.23) is not).
- :func:`printed_lemma732_bound`: the printed right side of (7.19)/(7.23).
- :func:`corrected_lemma732_bound` (Corrected Lemma 7.3.2, case 2; see docs/errata.md): for
  ``R < H2(e^eps/(e^eps+1))`` and any m,
  ``V* <= V_bar = 2 p_R c^2 + p_R^2 / (2 (1 - p_R))``.  Proof.  Let ``a_1 = max_l a_l``.  Then
  ``H(a) >= -log a_1`` (min-entropy), and ``R < H2(.) <= 1`` bit, so ``a_1 > 1/2``; and
  ``H(a) >= H2(a_1)`` (grouping), so ``H2(a_1) <= R`` gives ``1 - a_1 <= p_R``.  Likewise
  ``b_{l'} >= 1 - p_R`` at its largest output ``l'``.  If ``l' != l`` then
  ``a_l / b_l >= (1 - p_R)/p_R > e^eps`` (as ``p_R < 1/(e^eps + 1)``), infeasible; so ``l' = l = 1``.
  With ``s = 1 - a_1``, ``t = 1 - b_1`` in ``[0, p_R]``: the output-1 term is
  ``(s - t)^2/(2 - s - t) <= p_R^2/(2 - p_R) <= p_R^2/(2(1 - p_R))``, and the other outputs give
  ``sum_{l>=2} (a_l + b_l) r_l^2 <= c^2 (s + t) <= 2 p_R c^2``.
- :func:`fisher_trace`: ``Tr I_Y(p)`` of App. F.1, eq. (F.9)-(F.10), for an exact channel and a
  point ``p`` of the sub-family ``P`` (``p_{j+k/2} = 2/k - p_j``, ``1/k <= p_j <= 2/k``).

Units: ``R`` is in ``unit`` ("bits" as in Sec. 7.3, or "nats"); ``p_R = H2^{-1}(R)`` in the same
unit (:mod:`bcdp.randomness.entropy`).  ``eps`` is an exact rational ``> 0`` (``e^eps`` is
irrational; it is handled as an arb ball).  Neighbouring relation: any two inputs ``j, j+k/2`` (the
LDP constraint (7.1) bounds every pair of rows).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Sequence

import numpy as np

from bcdp.core.errors import CertificationError, InvalidInputError, ValidityConditionError
from bcdp.core.intervals import arb_precision, ball_ends, ball_of
from bcdp.core.numbers import MAX_PREC_BITS, MIN_PREC_BITS, brief_number, check_precision, to_fraction
from bcdp.core.results import Certified, decide_le
from bcdp.randomness import entropy as ent

#: Output sizes P1 is solved for here.
MAX_OUTPUTS = 8
#: Largest eps accepted (e^eps must stay a manageable ball).
MAX_EPS = 50
#: Most random starts of the float search (each an SLSQP run: about 0.05 s at m = 8).
MAX_STARTS = 100
#: Most primal branches of the dual route (``splits^(2 depth)``, one float LP each: about 2 ms).
MAX_BRANCHES = 4096
#: Slack (relative) by which the float solver tightens the constraints before rationalising.
_SLACK = 1e-7


# -- inputs -----------------------------------------------------------------------------------------

def _prec(prec: int) -> int:
    return check_precision(prec, "prec", MIN_PREC_BITS, MAX_PREC_BITS)


def _eps(eps: Any) -> Fraction:
    e = to_fraction(eps, "eps")
    if not 0 < e <= MAX_EPS:
        raise InvalidInputError(f"eps must be in (0, {MAX_EPS}], got {brief_number(e)}")
    return e


def _r(r: Any) -> Fraction:
    rr = to_fraction(r, "R")
    if rr < 0:
        raise InvalidInputError(f"R must be >= 0, got {brief_number(rr)}")
    return rr


def _m(m: Any) -> int:
    if isinstance(m, bool) or not isinstance(m, int) or not 1 <= m <= MAX_OUTPUTS:
        raise InvalidInputError(f"m must be an int in 1..{MAX_OUTPUTS}, got {m!r}")
    return m


def _pair(a: Sequence[Any], b: Sequence[Any]) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
    pa, pb = ent.exact_pmf(a, "a"), ent.exact_pmf(b, "b")
    if len(pa) != len(pb):
        raise InvalidInputError(f"a and b must have the same length, got {len(pa)} and {len(pb)}")
    return pa, pb


# -- objective and feasibility ----------------------------------------------------------------------

def p1_value(a: Sequence[Any], b: Sequence[Any]) -> Fraction:
    """Exact ``V(a, b) = sum_l (a_l - b_l)^2/(a_l + b_l)`` (eq. (7.20); ``0/0`` terms are 0)."""
    pa, pb = _pair(a, b)
    return sum(((x - y) ** 2 / (x + y) for x, y in zip(pa, pb) if x + y), Fraction(0))


def p1_value_float(a: Any, b: Any) -> Any:
    """Float twin of :func:`p1_value`, vectorised over the last axis."""
    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    s = x + y
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(s > 0, (x - y) ** 2 / np.where(s > 0, s, 1.0), 0.0).sum(axis=-1)


def p1_feasible(a: Sequence[Any], b: Sequence[Any], eps: Any, r: Any, unit: str = "bits",
                prec: int = 128) -> bool | None:
    """Certified decision that ``(a, b)`` satisfies (7.21): ``H(a), H(b) <= R`` (in ``unit``) and
    ``e^-eps <= a_l/b_l <= e^eps``.  ``None`` when an enclosure cannot decide (e.g. a tie)."""
    prec = _prec(prec)
    pa, pb = _pair(a, b)
    e, rr = _eps(eps), _r(r)
    verdicts = [ent.entropy_at_most(pa, rr, unit, prec), ent.entropy_at_most(pb, rr, unit, prec)]
    with arb_precision(prec):
        big = ball_of(e).exp()
        for x, y in zip(pa, pb):
            if (x == 0) != (y == 0):
                return False
            if x:
                hi, lo = max(x, y), min(x, y)
                verdicts.append(True if hi == lo else decide_le(ball_of(hi / lo), big))
    if False in verdicts:
        return False
    return None if None in verdicts else True


# -- closed-form bounds ------------------------------------------------------------------------------

def _c2_ball(e: Fraction) -> Any:
    big = ball_of(e).exp()
    return ((big - 1) / (big + 1)) ** 2


def _cert(ball: Any, provenance: str, **details: Any) -> Certified:
    lo, hi = ball_ends(ball)
    return Certified(lower=lo, upper=hi, provenance=provenance, details=details)


def below_critical(eps: Any, r: Any, unit: str = "bits", prec: int = 128) -> bool | None:
    """Certified ``R < H2(e^eps/(e^eps+1))`` (the low-randomness case of Lemma 7.3.2); None = tie."""
    crit = ent.critical_randomness(_eps(eps), unit, _prec(prec))
    rr = _r(r)
    if rr < crit.lower:
        return True
    if rr > crit.upper:
        return False
    return None


def classical_bound(eps: Any, prec: int = 128) -> Certified:
    """Certified ``2 c^2 = 2 (e^eps - 1)^2/(e^eps + 1)^2``: the first case of (7.19), an upper bound
    on P1 for every R and m (proof in the module docstring)."""
    e = _eps(eps)
    with arb_precision(_prec(prec)):
        return _cert(2 * _c2_ball(e), "2(e^eps-1)^2/(e^eps+1)^2, thesis (7.19) case 1", eps=e)


def printed_lemma732_bound(eps: Any, r: Any, unit: str = "bits", prec: int = 128) -> Certified:
    """The printed right side of thesis Lemma 7.3.2, eq. (7.19)/(7.23): ``2 c^2`` if
    ``R >= H2(e^eps/(e^eps+1))``, else ``2 p_R^2 (e^eps - 1)^2 / e^{2 eps}`` (FALSE in that case,
    see docs/errata.md).  ValidityConditionError when the case cannot be decided."""
    e, rr, prec = _eps(eps), _r(r), _prec(prec)
    low = below_critical(e, rr, unit, prec)
    if low is None:
        raise ValidityConditionError("R is too close to H2(e^eps/(e^eps+1)) to pick the case of (7.19)")
    if not low:
        return classical_bound(e, prec).with_details(case="R >= H2")
    p = ent.inverse_binary_entropy(rr, unit, prec)
    with arb_precision(prec):
        big = ball_of(e).exp()
        lo = 2 * ball_of(p.lower) ** 2 * (big - 1) ** 2 / big ** 2
        hi = 2 * ball_of(p.upper) ** 2 * (big - 1) ** 2 / big ** 2
        return Certified(lower=ball_ends(lo)[0], upper=ball_ends(hi)[1],
                         provenance="printed 2 p_R^2 (e^eps-1)^2/e^(2eps), thesis (7.19) case 2",
                         details={"case": "R < H2", "eps": e, "R": rr, "unit": unit})


def corrected_lemma732_bound(eps: Any, r: Any, unit: str = "bits", prec: int = 128) -> Certified:
    """Corrected Lemma 7.3.2, case 2 (docs/errata.md, E-Thesis-Lemma7.3.2): for
    ``R < H2(e^eps/(e^eps+1))`` and every output size, ``V* <= 2 p_R c^2 + p_R^2/(2(1 - p_R))``
    (proof in the module docstring).  ValidityConditionError unless ``R < H2`` is certified."""
    e, rr, prec = _eps(eps), _r(r), _prec(prec)
    if below_critical(e, rr, unit, prec) is not True:
        raise ValidityConditionError("the corrected Lemma 7.3.2 bound needs R < H2(e^eps/(e^eps+1))")
    p = ent.inverse_binary_entropy(rr, unit, prec)
    with arb_precision(prec):
        c2 = _c2_ball(e)
        ends = [2 * ball_of(q) * c2 + ball_of(q) ** 2 / (2 * (1 - ball_of(q))) for q in (p.lower, p.upper)]
        return Certified(lower=ball_ends(ends[0])[0], upper=ball_ends(ends[1])[1],
                         provenance="corrected Lemma 7.3.2 case 2: 2 p_R c^2 + p_R^2/(2(1-p_R))",
                         details={"eps": e, "R": rr, "unit": unit})


# -- polygon vertices (exact) -----------------------------------------------------------------------

def _clip(poly: list[tuple[Fraction, Fraction]], f: Any) -> list[tuple[Fraction, Fraction]]:
    """Sutherland-Hodgman: the part of a convex polygon where the affine ``f >= 0`` (exact)."""
    out = []
    for i, p in enumerate(poly):
        q = poly[(i + 1) % len(poly)]
        fp, fq = f(p), f(q)
        if fp >= 0:
            out.append(p)
        if fp * fq < 0:
            t = fp / (fp - fq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return list(dict.fromkeys(out))


def cone_box_vertices(x0: Fraction, x1: Fraction, y0: Fraction, y1: Fraction,
                      e_hi: Fraction) -> list[tuple[Fraction, Fraction]]:
    """Exact vertices of ``[x0, x1] x [y0, y1]`` intersected with ``{x <= e_hi y, y <= e_hi x}``."""
    poly = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    poly = _clip(poly, lambda p: e_hi * p[1] - p[0])
    return _clip(poly, lambda p: e_hi * p[0] - p[1]) if poly else []


def _e_hi(e: Fraction, prec: int) -> Fraction:
    with arb_precision(prec):
        return ball_ends(ball_of(e).exp())[1]


# -- second route for m = 2 --------------------------------------------------------------------------

def p1_binary_upper(eps: Any, r: Any, unit: str = "bits", prec: int = 128) -> Certified:
    """Certified upper bound on the m = 2 optimum of P1 for ``R < H2(e^eps/(e^eps+1))`` by the
    vertex argument (module docstring): ``max V`` over the exact vertices of
    ``[0, p_hi]^2 x cone(E_hi)`` (a superset of the feasible set, folded by symmetry).  The vertex
    attaining it is reported as ``argmax``.  ValidityConditionError unless ``R < H2`` is certified."""
    e, rr, prec = _eps(eps), _r(r), _prec(prec)
    if below_critical(e, rr, unit, prec) is not True:
        raise ValidityConditionError("the binary vertex route needs R < H2(e^eps/(e^eps+1))")
    p_hi = ent.inverse_binary_entropy(rr, unit, prec).upper
    verts = cone_box_vertices(Fraction(0), p_hi, Fraction(0), p_hi, _e_hi(e, prec))
    vals = [(p1_value((x, 1 - x), (y, 1 - y)), (x, y)) for x, y in verts]
    best, arg = max(vals)
    return Certified(lower=Fraction(0), upper=best, provenance="P1, m = 2: convex V, vertex enumeration",
                     details={"argmax": arg, "vertices": len(verts)})


# -- Lagrangian dual route ---------------------------------------------------------------------------

def _branches(m: int, e: Fraction, rr: Fraction, unit: str, prec: int, splits: int,
              depth: int) -> list[list[tuple[list, int]]]:
    """Branches of the dual bound, each a list of (vertices, multiplicity) per-output domains.  For
    certified ``R < H2`` the large output's square ``[1-p_R, 1]^2`` is cut into ``splits x splits``
    cells; in a cell with lower corner ``(x0, y0)`` the other outputs lie in
    ``[0, s_a] x [0, s_b]``, ``s_a = min(p_R, 1-x0)``, ``s_b = min(p_R, 1-y0)`` (they share the mass
    ``1 - a_1 <= min(p_R, 1 - x0)``).  With ``depth = 2`` (and m >= 3) output 2 is, after relabelling,
    the small output with the largest ``a``; its square is cut too, and for a cell with lower corner
    ``(u0, v0)`` and right end ``u1`` the remaining outputs lie in
    ``[0, min(u1, s_a - u0)] x [0, s_b - v0]``."""
    e_hi = _e_hi(e, prec)
    one, zero = Fraction(1), Fraction(0)
    if below_critical(e, rr, unit, prec) is not True:
        return [[(cone_box_vertices(zero, one, zero, one, e_hi), m)]]
    p_hi = ent.inverse_binary_entropy(rr, unit, prec).upper
    grid = [Fraction(i, splits) for i in range(splits + 1)]
    out = []
    for i in range(splits):
        for j in range(splits):
            x0, x1 = 1 - p_hi + p_hi * grid[i], 1 - p_hi + p_hi * grid[i + 1]
            y0, y1 = 1 - p_hi + p_hi * grid[j], 1 - p_hi + p_hi * grid[j + 1]
            big = cone_box_vertices(x0, x1, y0, y1, e_hi)
            if not big:
                continue
            sa, sb = min(p_hi, 1 - x0), min(p_hi, 1 - y0)
            if depth == 1 or m < 3:
                out.append([(big, 1), (cone_box_vertices(zero, sa, zero, sb, e_hi), m - 1)])
                continue
            for k in range(splits):
                for n in range(splits):
                    u0, u1, v0, v1 = sa * grid[k], sa * grid[k + 1], sb * grid[n], sb * grid[n + 1]
                    second = cone_box_vertices(u0, u1, v0, v1, e_hi)
                    if second:
                        rest = cone_box_vertices(zero, min(u1, sa - u0), zero, sb - v0, e_hi)
                        out.append([(big, 1), (second, 1), (rest, m - 2)])
    return out


def _xlogx_float(x: float) -> float:
    return x * math.log(x) if x > 0 else 0.0


def _phi_float(x: float, y: float) -> float:
    return (x - y) ** 2 / (x + y) if x + y > 0 else 0.0


def _lp_multipliers(domains: list[tuple[list, int]], r_nats: float) -> tuple[Fraction, ...]:
    """Float LP for the multipliers (lambda_a, lambda_b, mu_a, mu_b) minimising the dual bound."""
    from scipy.optimize import linprog

    groups = [d for d in domains if d[1] > 0]
    nvar = 4 + len(groups)
    cost = [1.0, 1.0, r_nats, r_nats] + [float(mult) for _, mult in groups]
    rows, rhs = [], []
    for gi, (verts, _) in enumerate(groups):
        for vx, vy in verts:
            x, y = float(vx), float(vy)
            row = [-x, -y, _xlogx_float(x), _xlogx_float(y)] + [0.0] * len(groups)
            row[4 + gi] = -1.0
            rows.append(row)
            rhs.append(-_phi_float(x, y))
    bounds = [(-1e6, 1e6)] * 2 + [(0, 1e6)] * 2 + [(None, None)] * len(groups)
    res = linprog(cost, A_ub=np.array(rows), b_ub=np.array(rhs), bounds=bounds, method="highs")
    if not res.success or nvar != len(res.x):
        return (Fraction(0),) * 4
    lam_a, lam_b, mu_a, mu_b = (float(v) for v in res.x[:4])
    return (Fraction(lam_a), Fraction(lam_b), Fraction(max(mu_a, 0.0)), Fraction(max(mu_b, 0.0)))


def _psi_ball(x: Fraction, y: Fraction, mult: tuple[Fraction, ...]) -> Any:
    lam_a, lam_b, mu_a, mu_b = mult
    val = ball_of((x - y) ** 2 / (x + y) if x + y else 0) - ball_of(lam_a * x + lam_b * y)
    for mu, z in ((mu_a, x), (mu_b, y)):
        if mu and z and z != 1:
            zb = ball_of(z)
            val += ball_of(mu) * zb * zb.log()
    return val


def p1_dual_upper(m: int, eps: Any, r: Any, unit: str = "bits", prec: int = 128,
                  multipliers: Sequence[Any] | None = None, splits: int = 4, depth: int = 1) -> Certified:
    """Certified upper bound on the optimum of P1 with ``m`` outputs by weak Lagrangian duality
    (module docstring); ``multipliers = (lambda_a, lambda_b, mu_a, mu_b)`` exact (``mu >= 0``), or
    None to choose them per branch by a float LP.  The bound is valid for any multipliers.  For
    certified ``R < H2`` the largest output's square is cut into ``splits^2`` cells (a primal branch
    each; the bound is the largest branch bound), which tightens the relaxation; ``depth = 2`` also
    cuts the square of the second output (``splits^4`` branches: slower, tighter for m >= 3).  At most
    ``MAX_BRANCHES`` = 4096 branches (``splits <= 64`` at depth 1, ``<= 8`` at depth 2): InvalidInputError beyond."""
    m, e, rr, prec = _m(m), _eps(eps), _r(r), _prec(prec)
    if unit not in ent.UNITS:
        raise InvalidInputError(f"unit must be 'bits' or 'nats', got {unit!r}")
    if isinstance(splits, bool) or not isinstance(splits, int) or not 1 <= splits <= 64:
        raise InvalidInputError(f"splits must be an int in 1..64, got {splits!r}")
    if depth not in (1, 2) or isinstance(depth, bool):
        raise InvalidInputError(f"depth must be 1 or 2, got {depth!r}")
    if splits ** (2 * depth) > MAX_BRANCHES:
        raise InvalidInputError(f"splits^(2 depth) = {splits ** (2 * depth)} branches exceed {MAX_BRANCHES}; "
                                "lower splits or depth")
    fixed = None
    if multipliers is not None:
        if len(multipliers) != 4:
            raise InvalidInputError("multipliers must be (lambda_a, lambda_b, mu_a, mu_b)")
        fixed = tuple(to_fraction(v, "multiplier") for v in multipliers)
        if fixed[2] < 0 or fixed[3] < 0:
            raise InvalidInputError("mu_a and mu_b must be >= 0")
    r_nats = float(rr) * (math.log(2) if unit == "bits" else 1.0)
    upper, used = None, []
    for domains in _branches(m, e, rr, unit, prec, splits, depth):
        mult = fixed if fixed is not None else _lp_multipliers(domains, r_nats)
        with arb_precision(prec):
            r_ball = ball_of(rr) * (ball_of(2).log() if unit == "bits" else 1)
            total = ball_of(mult[0] + mult[1]) + ball_of(mult[2] + mult[3]) * r_ball
            for verts, mult_count in domains:
                if mult_count and verts:
                    g = max(ball_ends(_psi_ball(x, y, mult))[1] for x, y in verts)
                    total += ball_of(mult_count * g)
            bound = ball_ends(total)[1]
        if upper is None or bound > upper:
            upper, used = bound, mult
    return Certified(lower=Fraction(0), upper=upper,
                     provenance="P1 (7.20)-(7.21): weak Lagrangian duality, convex psi at exact vertices",
                     details={"multipliers": used, "splits": splits, "depth": depth})


# -- feasible points (lower bounds) -------------------------------------------------------------------

def _float_starts(m: int, e_f: float, p_f: float, rng: np.random.Generator, n: int) -> list:
    starts = []
    u, v = p_f * 0.8, p_f * 0.8 / e_f
    if m >= 3:  # the swap structure of the m >= 3 optima found numerically
        a = np.r_[1 - u - v, u, v, np.zeros(m - 3)]
        b = np.r_[1 - u - v, v, u, np.zeros(m - 3)]
        starts.append(np.r_[a, b])
    a = np.r_[1 - u, u, np.zeros(m - 2)] if m >= 2 else np.ones(1)
    b = np.r_[1 - u / e_f, u / e_f, np.zeros(m - 2)] if m >= 2 else np.ones(1)
    starts.append(np.r_[a, b])
    if m >= 2:  # binary randomized response (the optimum when R >= H2)
        rr_row = np.r_[e_f / (e_f + 1), 1 / (e_f + 1), np.zeros(m - 2)]
        starts.append(np.r_[rr_row, rr_row[[1, 0] + list(range(2, m))]])
    conc = np.full(m, 0.3)
    starts += [np.r_[rng.dirichlet(conc), rng.dirichlet(conc)] for _ in range(n)]
    return starts


def _slsqp(m: int, e_f: float, r_nats: float, z0: np.ndarray) -> np.ndarray:
    from scipy.optimize import minimize

    def neg(z: np.ndarray) -> float:
        return -float(p1_value_float(z[:m], z[m:]))

    def h(p: np.ndarray) -> float:
        q = np.clip(p, 1e-300, 1.0)
        return float(-(q * np.log(q)).sum())

    cons = [{"type": "eq", "fun": lambda z: z[:m].sum() - 1},
            {"type": "eq", "fun": lambda z: z[m:].sum() - 1},
            {"type": "ineq", "fun": lambda z: r_nats - h(z[:m])},
            {"type": "ineq", "fun": lambda z: r_nats - h(z[m:])},
            {"type": "ineq", "fun": lambda z: e_f * z[m:] - z[:m]},
            {"type": "ineq", "fun": lambda z: e_f * z[:m] - z[m:]}]
    res = minimize(neg, z0, method="SLSQP", bounds=[(0.0, 1.0)] * (2 * m), constraints=cons,
                   options={"maxiter": 200, "ftol": 1e-13})
    return np.asarray(res.x, dtype=float)


def _rationalise(z: np.ndarray, m: int, e_lo: Fraction) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
    """Round a float point to Fractions: outputs where both rows are tiny become 0, ``b`` is clamped
    into ``[a_l/e_lo, a_l e_lo]`` off the largest output, and each row's largest entry absorbs the
    rounding so that both rows sum to 1 exactly."""
    tiny = (z[:m] < 1e-8) & (z[m:] < 1e-8)
    rows = []
    for row in (z[:m], z[m:]):
        q = [Fraction(0) if tiny[i] else Fraction(float(row[i])).limit_denominator(10 ** 15)
             for i in range(m)]
        rows.append(q)
    top_a, top_b = int(np.argmax(z[:m])), int(np.argmax(z[m:]))
    a, b = rows
    a[top_a] = 1 - (sum(a) - a[top_a])
    for i in range(m):
        if i != top_b:
            b[i] = min(max(b[i], a[i] / e_lo), a[i] * e_lo)
    b[top_b] = 1 - (sum(b) - b[top_b])
    return tuple(a), tuple(b)


def p1_feasible_point(m: int, eps: Any, r: Any, unit: str = "bits", starts: int = 6, seed: int = 0,
                      prec: int = 128) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
    """An exactly rational point ``(a, b)`` proved feasible for P1 (:func:`p1_feasible` is True),
    with a large ``V``: SLSQP from structured and ``starts`` seeded random starting points on the
    problem with constraints tightened by a relative slack, then rationalised and certified.  Falls
    back to ``a = b = (1, 0, ...)`` (value 0)."""
    m, e, rr, prec = _m(m), _eps(eps), _r(r), _prec(prec)
    if isinstance(starts, bool) or not isinstance(starts, int) or not 0 <= starts <= MAX_STARTS:
        raise InvalidInputError(f"starts must be an int in 0..{MAX_STARTS}, got {starts!r}")
    unit_log = math.log(2) if unit == "bits" else 1.0
    e_f = math.exp(float(e)) * (1 - _SLACK)
    r_nats = max(float(rr) * unit_log * (1 - _SLACK) - 1e-10, 0.0)
    p_f = float(ent.inverse_binary_entropy_float(float(rr), unit))
    rng = np.random.default_rng(seed)
    fallback = (tuple([Fraction(1)] + [Fraction(0)] * (m - 1)),) * 2
    if m == 1:
        return fallback
    cands = [_slsqp(m, e_f, r_nats, z0) for z0 in _float_starts(m, math.exp(float(e)), p_f, rng, starts)]
    best = (Fraction(0), fallback)
    for z in cands:
        a, b = _rationalise(np.clip(z, 0.0, 1.0), m, Fraction(e_f))
        if min(a) < 0 or min(b) < 0:
            continue
        value = p1_value(a, b)
        if value > best[0] and p1_feasible(a, b, e, rr, unit, prec):
            best = (value, (a, b))
    return best[1]


# -- the enclosure -----------------------------------------------------------------------------------

def p1_solve(m: int, eps: Any, r: Any, unit: str = "bits", starts: int = 6, seed: int = 0,
             prec: int = 128, depth: int = 1) -> Certified:
    """Certified enclosure ``lower <= V*(m, eps, R) <= upper`` of the optimum of P1 (7.20)-(7.21).

    ``lower`` = exact ``V`` at :func:`p1_feasible_point` (the point is the ``witness``);
    ``upper`` = min of :func:`classical_bound`, :func:`p1_dual_upper` and, for m = 2 and
    ``R < H2``, :func:`p1_binary_upper`.  Each route's bound is in ``details["routes"]``.
    ``depth = 2`` makes the dual route branch on two outputs (tighter for m >= 3, ~10x slower).
    The corrected Lemma 7.3.2 bound is NOT used here (it is checked against this enclosure)."""
    m, e, rr, prec = _m(m), _eps(eps), _r(r), _prec(prec)
    a, b = p1_feasible_point(m, e, rr, unit, starts, seed, prec)
    lower = p1_value(a, b)
    routes = {"classical": classical_bound(e, prec).upper,
              "dual": p1_dual_upper(m, e, rr, unit, prec, depth=depth).upper}
    if m == 2 and below_critical(e, rr, unit, prec) is True:
        routes["binary"] = p1_binary_upper(e, rr, unit, prec).upper
    if m == 1:
        routes["m1"] = Fraction(0)
    upper = min(routes.values())
    if upper < lower:  # impossible unless a bound is wrong: refuse rather than return nonsense
        raise CertificationError("P1 enclosure inverted: an upper bound is below a feasible value")
    return Certified(lower=lower, upper=upper, witness={"a": a, "b": b},
                     provenance="problem P1, thesis Sec. 7.3.1 eqs. (7.20)-(7.21)",
                     details={"routes": routes, "m": m, "eps": e, "R": rr, "unit": unit})


# -- Fisher information of App. F.1 -------------------------------------------------------------------

def fisher_trace(channel: Sequence[Sequence[Any]], p: Sequence[Any]) -> Fraction:
    """Exact ``Tr I_Y(p) = sum_{j <= k/2} sum_y (Q(y|j) - Q(y|j+k/2))^2 / M(y|p)`` (App. F.1,
    eqs. (F.8)-(F.10)) for a channel ``channel[x][y] = Q(y|x)`` with an even number ``k`` of rows
    and ``p`` in the sub-family ``P``: ``1/k <= p_j <= 2/k`` and ``p_{j+k/2} = 2/k - p_j``."""
    rows = [ent.exact_pmf(r, f"channel[{i}]") for i, r in enumerate(channel)]
    k = len(rows)
    if k < 2 or k % 2 or len({len(r) for r in rows}) != 1:
        raise InvalidInputError("channel must have an even number >= 2 of rows of equal length")
    pp = ent.exact_pmf(p, "p")
    if len(pp) != k:
        raise InvalidInputError(f"p must have {k} entries, got {len(pp)}")
    half = k // 2
    for j in range(half):
        if not Fraction(1, k) <= pp[j] <= Fraction(2, k) or pp[j + half] != Fraction(2, k) - pp[j]:
            raise ValidityConditionError("p is not in the sub-family P of App. F.1")
    total = Fraction(0)
    for y in range(len(rows[0])):
        marg = sum(rows[x][y] * pp[x] for x in range(k))
        num = sum((rows[j][y] - rows[j + half][y]) ** 2 for j in range(half))
        if marg:
            total += num / marg
    return total
