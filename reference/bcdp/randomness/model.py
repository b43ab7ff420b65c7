"""The (eps, R)-LDP model of the thesis Ch. 7, Sec. 7.2, eqs. (7.1)-(7.6), on finite alphabets.

A *finite mechanism* is a ``k x m`` row-stochastic matrix ``Q[x][y] = Q(y|x)`` with exact Fraction
entries (input ``X = [k]``, output ``Y = [m]``, rows indexed from 0 here).  The neighbouring relation is
the local one: every pair of inputs ``x, x'`` (eq. (7.1)).

- :func:`ldp_epsilon_ratio`: the exact ``max_{y, x, x'} Q(y|x)/Q(y|x')`` (``inf`` when a zero meets a
  non-zero in a column), i.e. ``e^eps`` of the smallest eps for which (7.1) holds;
- :func:`is_eps_ldp`: the certified decision of (7.1), for an exact ``eps`` (``e^eps`` enclosed by arb)
  or an exact rational ``e_eps = e^eps``;
- :func:`mechanism_randomness`: ``max_x H(Y|X=x)`` (certified), the randomness of (7.2);
- :func:`is_eps_r_ldp`: the certified decision of (7.2): eps-LDP and ``H(Y|X=x) <= R`` for every x
  (``None`` when undecided);
- :func:`key_representation`: a key ``U`` with law ``q`` and a map ``f(x, u)`` with
  ``Q(y|x) = sum_{u : f(x, u) = y} q_u`` (7.3), by the common-quantile coupling;
- :func:`output_marginal`, :func:`exact_risk`, :func:`worst_case_risk`: the output law (7.4) and the
  exact risk ``E[l(p_hat(Y^n), p)]`` of (7.5)-(7.6) by enumerating ``Y^n`` (loss ``l1`` or ``l2^2``);
- :func:`feasible_mechanisms`: every ``k x m`` mechanism with entries in ``(1/grid) Z`` that is
  certified (eps, R)-LDP, for exact ``e_eps`` (the exact feasible set for small alphabets).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Sequence

from bcdp.core.errors import InvalidInputError
from bcdp.core.intervals import arb_precision, ball_ends, ball_of
from bcdp.core.numbers import INFINITY, MAX_PREC_BITS, MIN_PREC_BITS, brief_number, check_precision, to_fraction
from bcdp.core.results import Certified, decide_le
from bcdp.randomness.entropy import check_unit, entropy_ball, exact_pmf

#: Largest input alphabet, output alphabet, and number of entries of a mechanism accepted here.
MAX_INPUTS = 4096
MAX_OUTPUTS = 1 << 16
MAX_ENTRIES = 1 << 20
#: Largest number of output sequences ``m^n`` :func:`exact_risk` enumerates.
MAX_SEQUENCES = 200_000
#: Largest number of candidate mechanisms :func:`feasible_mechanisms` enumerates.
MAX_CANDIDATES = 2_000_000
LOSSES = ("l1", "l2")

Matrix = tuple[tuple[Fraction, ...], ...]


def _prec(prec: int) -> int:
    return check_precision(prec, "prec", MIN_PREC_BITS, MAX_PREC_BITS)


def mechanism(rows: Sequence[Sequence[Any]]) -> Matrix:
    """``rows`` as an exact mechanism: ``k >= 1`` rows of one length ``m >= 1``, each an exact pmf
    (entries in [0, 1] summing to exactly 1; floats refused)."""
    try:
        k = len(rows)
    except TypeError as exc:
        raise InvalidInputError("a mechanism must be a sequence of rows") from exc
    if k == 0 or k > MAX_INPUTS:
        raise InvalidInputError(f"a mechanism needs 1..{MAX_INPUTS} rows, got {k}")
    out = tuple(exact_pmf(row, f"Q[{x}]") for x, row in enumerate(rows))
    m = len(out[0])
    if any(len(r) != m for r in out):
        raise InvalidInputError("all rows of a mechanism must have the same length")
    if m > MAX_OUTPUTS or k * m > MAX_ENTRIES:
        raise InvalidInputError(f"mechanism too large: {k} x {m}")
    return out


def ldp_epsilon_ratio(q: Sequence[Sequence[Any]]) -> Fraction | float:
    """Exact ``max_{y, x, x'} Q(y|x) / Q(y|x')`` (eq. (7.1)): a Fraction >= 1, or ``INFINITY`` when
    some column has a zero and a non-zero entry."""
    mat = mechanism(q)
    best = Fraction(1)
    for col in zip(*mat):
        hi, lo = max(col), min(col)
        if hi == 0:
            continue
        if lo == 0:
            return INFINITY
        best = max(best, hi / lo)
    return best


def _e_eps(e_eps: Any) -> Fraction:
    e = to_fraction(e_eps, "e_eps")
    if e < 1:
        raise InvalidInputError(f"e_eps = e^eps must be >= 1, got {brief_number(e)}")
    return e


def _eps(eps: Any) -> Fraction:
    e = to_fraction(eps, "eps")
    if e < 0 or e > 10_000:
        raise InvalidInputError(f"eps must be in [0, 10000], got {brief_number(e)}")
    return e


def is_eps_ldp(q: Sequence[Sequence[Any]], eps: Any = None, *, e_eps: Any = None, prec: int = 128) -> bool | None:
    """Certified decision of (7.1) ``sup_y Q(y|x)/Q(y|x') <= e^eps`` for all ``x, x'``.

    Give exactly one of ``eps`` (exact, ``e^eps`` enclosed by arb; ``None`` = undecided, which only a
    ratio equal to ``e^eps`` could cause and ``e^eps`` is irrational for rational ``eps > 0``) or
    ``e_eps`` (an exact rational ``e^eps >= 1``: the decision is exact).
    """
    prec = _prec(prec)
    if (eps is None) == (e_eps is None):
        raise InvalidInputError("give exactly one of eps and e_eps")
    ratio = ldp_epsilon_ratio(q)
    if e_eps is not None:
        return ratio != INFINITY and ratio <= _e_eps(e_eps)
    e = _eps(eps)
    if ratio == INFINITY:
        return False
    with arb_precision(prec):
        return decide_le(ball_of(ratio), ball_of(e).exp())


def _row_balls(mat: Matrix, unit: str, prec: int) -> list[tuple[Fraction, Fraction]]:
    with arb_precision(prec):
        return [ball_ends(entropy_ball(row, unit)) for row in mat]


def mechanism_randomness(q: Sequence[Sequence[Any]], unit: str = "bits", prec: int = 128) -> Certified:
    """Certified ``max_x H(Y|X=x)`` in ``unit`` (the randomness of (7.2)); the witness lists the rows
    that can attain the maximum."""
    prec, unit = _prec(prec), check_unit(unit)
    mat = mechanism(q)
    ends = _row_balls(mat, unit, prec)
    lower = max(lo for lo, _ in ends)
    upper = max(hi for _, hi in ends)
    argmax = tuple(x for x, (_, hi) in enumerate(ends) if hi >= lower)
    return Certified(lower=lower, upper=upper, witness=argmax,
                     provenance="max_x H(Y|X=x), thesis eq. (7.2)", details={"unit": unit, "argmax": argmax})


def is_eps_r_ldp(q: Sequence[Sequence[Any]], eps: Any = None, r: Any = None, unit: str = "bits", *,
                 e_eps: Any = None, prec: int = 128) -> bool | None:
    """Certified decision of (eps, R)-LDP, eq. (7.2): (7.1) and ``H(Y|X=x) <= R`` for every ``x``.
    ``False`` if a part is certainly violated, ``None`` if some part is undecided (a tie), else ``True``.
    ``R >= 0`` is exact and in ``unit``."""
    prec, unit = _prec(prec), check_unit(unit)
    if r is None:
        raise InvalidInputError("R is required")
    rr = to_fraction(r, "R")
    if rr < 0:
        raise InvalidInputError(f"R must be >= 0, got {brief_number(rr)}")
    mat = mechanism(q)
    parts = [is_eps_ldp(mat, eps, e_eps=e_eps, prec=prec)]
    with arb_precision(prec):
        target = ball_of(rr)
        parts += [decide_le(entropy_ball(row, unit), target) for row in mat]
    if any(p is False for p in parts):
        return False
    if any(p is None for p in parts):
        return None
    return True


@dataclass(frozen=True)
class KeyRepresentation:
    """A key law ``q`` on ``U = {0, ..., l-1}`` and ``f[x][u] = y`` with ``Q(y|x) = sum_{f(x,u)=y} q_u``
    (eq. (7.3)); ``cuts`` are the points ``0 = c_0 < ... < c_l = 1`` with ``q_u = c_{u+1} - c_u``."""

    q: tuple[Fraction, ...]
    f: tuple[tuple[int, ...], ...]
    cuts: tuple[Fraction, ...]

    def channel(self, m: int) -> Matrix:
        """The mechanism this representation induces on ``m`` outputs, by (7.3)."""
        rows = []
        for fx in self.f:
            row = [Fraction(0)] * m
            for u, y in enumerate(fx):
                row[y] += self.q[u]
            rows.append(tuple(row))
        return tuple(rows)


def key_representation(q: Sequence[Sequence[Any]]) -> KeyRepresentation:
    """The common-quantile key representation (7.3) of a finite mechanism.

    Cut ``[0, 1)`` at every row's cumulative sums; the key ``U`` is the cell of a uniform point, with
    law ``q_u`` = the cell lengths (``|U| <= k (m - 1) + 1``), and ``f(x, u)`` is the output whose
    interval ``[F_x(y-1), F_x(y))`` in row ``x`` contains cell ``u``.  The representation is verified
    exactly (``InvalidInputError`` never arises for a valid mechanism; an internal mismatch raises
    ``AssertionError``).
    """
    mat = mechanism(q)
    m = len(mat[0])
    cums = []
    points = {Fraction(0), Fraction(1)}
    for row in mat:
        acc, cum = Fraction(0), []
        for p in row:
            acc += p
            cum.append(acc)
        cums.append(cum)
        points.update(cum)
    cuts = tuple(sorted(points))
    law = tuple(b - a for a, b in zip(cuts, cuts[1:]))
    f = []
    for cum in cums:
        fx, y = [], 0
        for start in cuts[:-1]:
            while cum[y] <= start:  # the cell [start, next) lies in [cum[y-1], cum[y]) of this row
                y += 1
            fx.append(y)
        f.append(tuple(fx))
    rep = KeyRepresentation(q=law, f=tuple(f), cuts=cuts)
    if rep.channel(m) != mat:
        raise AssertionError("key representation does not reproduce the mechanism")
    return rep


def output_marginal(q: Sequence[Sequence[Any]], p: Sequence[Any]) -> tuple[Fraction, ...]:
    """``M(y|p) = sum_x Q(y|x) p_x`` (eq. (7.4)), exact."""
    mat = mechanism(q)
    pp = exact_pmf(p, "p")
    if len(pp) != len(mat):
        raise InvalidInputError(f"p has {len(pp)} entries for a mechanism with {len(mat)} inputs")
    return tuple(sum((pp[x] * mat[x][y] for x in range(len(mat))), Fraction(0)) for y in range(len(mat[0])))


def loss_value(p_hat: Sequence[Fraction], p: Sequence[Fraction], loss: str) -> Fraction:
    """``l1 = sum_j |p_hat_j - p_j|`` or ``l2 = sum_j (p_hat_j - p_j)^2`` (the l2^2 loss), exact; the two
    vectors must have the same length."""
    if len(p_hat) != len(p):
        raise InvalidInputError(f"p_hat has {len(p_hat)} entries, p has {len(p)}")
    if loss == "l1":
        return sum((abs(a - b) for a, b in zip(p_hat, p)), Fraction(0))
    if loss == "l2":
        return sum(((a - b) ** 2 for a, b in zip(p_hat, p)), Fraction(0))
    raise InvalidInputError(f"loss must be 'l1' or 'l2', got {loss!r}")


def _n(n: Any) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise InvalidInputError(f"n must be a positive integer, got {brief_number(n) if isinstance(n, int) else repr(n)[:40]}")
    return n


def check_sequences(m: int, n: Any, cap: int) -> int:
    """``n`` (a positive integer) if the ``m^n`` output sequences of length ``n`` stay within ``cap`` (and
    their total length within ``16 cap``), else ``InvalidInputError``; ``m^n`` is never computed for a huge ``n``."""
    n = _n(n)
    count = 1
    for _ in range(n if m > 1 else 0):
        count *= m
        if count > cap:
            break
    if count > cap or count * n > 16 * cap:
        raise InvalidInputError(f"m^n = {m}^{brief_number(n)} output sequences of length n exceed the limit {cap}")
    return n


def exact_risk(q: Sequence[Sequence[Any]], estimator: Callable[[tuple[int, ...]], Sequence[Any]],
               p: Sequence[Any], n: int, loss: str = "l2") -> Fraction:
    """Exact ``E[l(p_hat(Y^n), p)]`` for ``n`` users with the same mechanism ``Q`` and i.i.d. inputs
    ``X_i ~ p`` (eqs. (7.4)-(7.6) before the inf/sup): enumerate all ``m^n`` output sequences
    (at most :data:`MAX_SEQUENCES`); ``estimator`` maps a tuple ``y^n`` to ``k`` exact numbers."""
    mat = mechanism(q)
    if loss not in LOSSES:
        raise InvalidInputError(f"loss must be 'l1' or 'l2', got {loss!r}")
    law = output_marginal(mat, p)
    pp = exact_pmf(p, "p")
    m, k = len(law), len(mat)
    n = check_sequences(m, n, MAX_SEQUENCES)
    total = Fraction(0)
    for seq in itertools.product(range(m), repeat=n):
        prob = Fraction(1)
        for y in seq:
            prob *= law[y]
        if prob == 0:
            continue
        est = estimator(seq)
        try:
            size = len(est)
        except TypeError:
            raise InvalidInputError(f"the estimator must return a sequence of {k} numbers, got {type(est).__name__}") from None
        if size != k:
            raise InvalidInputError(f"the estimator returned {size} entries, expected {k}")
        total += prob * loss_value([to_fraction(v, "p_hat") for v in est], pp, loss)
    return total


def worst_case_risk(q: Sequence[Sequence[Any]], estimator: Callable[[tuple[int, ...]], Sequence[Any]],
                    ps: Sequence[Sequence[Any]], n: int, loss: str = "l2") -> tuple[Fraction, int]:
    """``max`` of :func:`exact_risk` over a finite non-empty set of input laws ``ps`` (a lower bound on
    the ``sup_{p in Delta_k}`` of (7.5)); returns ``(risk, index of the worst p)``."""
    if not ps:
        raise InvalidInputError("ps must be a non-empty sequence of pmfs")
    risks = [exact_risk(q, estimator, p, n, loss) for p in ps]
    worst = max(risks)
    return worst, risks.index(worst)


def _rows_on_grid(m: int, grid: int) -> list[tuple[Fraction, ...]]:
    out = []
    for bars in itertools.combinations(range(grid + m - 1), m - 1):
        parts, prev = [], -1
        for b in bars + (grid + m - 1,):
            parts.append(Fraction(b - prev - 1, grid))
            prev = b
        out.append(tuple(parts))
    return out


def feasible_mechanisms(k: int, m: int, grid: int, e_eps: Any, r: Any, unit: str = "bits",
                        prec: int = 128) -> list[Matrix]:
    """Every ``k x m`` mechanism with entries in ``{0, 1/grid, ..., 1}`` that is certified (eps, R)-LDP
    (7.2) for the exact rational ``e_eps = e^eps`` and exact ``R`` in ``unit`` (rows whose entropy test
    is undecided are left out: the list holds only certified-feasible mechanisms).  ``1 <= k, m <= 4``,
    ``1 <= grid <= 12``; at most :data:`MAX_CANDIDATES` candidates."""
    prec, unit = _prec(prec), check_unit(unit)
    for name, v, hi in (("k", k, 4), ("m", m, 4), ("grid", grid, 12)):
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= hi:
            raise InvalidInputError(f"{name} must be an integer in [1, {hi}], got {v!r}")
    ee = _e_eps(e_eps)
    rr = to_fraction(r, "R")
    if rr < 0:
        raise InvalidInputError(f"R must be >= 0, got {brief_number(rr)}")
    rows = _rows_on_grid(m, grid)
    with arb_precision(prec):
        target = ball_of(rr)
        rows = [row for row in rows if decide_le(entropy_ball(row, unit), target) is True]
    if len(rows) ** k > MAX_CANDIDATES:
        raise InvalidInputError(f"{len(rows)}^{k} candidates exceed {MAX_CANDIDATES}")
    out = []
    for mat in itertools.product(rows, repeat=k):
        ratio = ldp_epsilon_ratio(mat)
        if ratio != INFINITY and ratio <= ee:
            out.append(tuple(mat))
    return out
