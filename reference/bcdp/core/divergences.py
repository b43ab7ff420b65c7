"""Discrete divergences, once for the whole library: Renyi of every order, KL, max divergence and the
hockey-stick divergence, in exact, high-precision and float forms.

For finite distributions P, Q on the same outputs (sequences aligned by position, or mappings
outcome -> probability aligned on the union of their keys):

* Renyi, order a in (0, 1) U (1, inf) (Renyi 1961; Mironov 2017, Def. 3; partial DP paper, Def. 2):
  D_a(P||Q) = 1/(a-1) log K_a,   K_a = sum_{y: P(y)>0} P(y)^a Q(y)^{1-a};
* order 1: KL(P||Q) = sum_{P(y)>0} P(y) log(P(y)/Q(y)) = lim_{a -> 1} D_a;
* order inf: D_inf(P||Q) = max_{P(y)>0} log P(y)/Q(y) = sup_{S: P(S)>0} log P(S)/Q(S) (mediant
  inequality: events reduce to single outputs);
* hockey-stick: H_r(P||Q) = sum_y max(0, P(y) - r Q(y)) = sup_S P(S) - r Q(S), r = e^eps >= 0
  ((eps, delta)-DP between P and Q holds iff H_{e^eps}(P||Q) <= delta).

Support: P(y) > 0 = Q(y) makes D_a (a >= 1), KL and D_inf infinite (:data:`INFINITY`); for a in
(0, 1), D_a is finite unless the supports are disjoint.  Outputs with P(y) = 0 contribute nothing.

Forms:

* exact (inputs through :func:`bcdp.core.numbers.to_fraction`, floats refused): the rational moment
  :func:`renyi_moment_exact` (integer order >= 2), :func:`renyi_divergence_exact` and
  :func:`kl_divergence_exact` (sympy expressions), :func:`d_infinity` (exact ratio with witness),
  :func:`hockey_stick_exact` (Fraction, for a rational r), :func:`privacy_loss_tail_exact` (the
  probability P{P(Y) > r Q(Y)}, Y ~ P), :func:`max_column_ratio` (max divergence over a set of rows,
  with witness);
* high precision (mpmath at ``dps`` >= 50 digits, from the exact rows): :func:`renyi_divergence`
  (every order in (0, inf], 1 and inf included), :func:`kl_divergence`, :func:`hockey_stick`;
* float64 (numpy, named ``*_float``; approximations, property-tested against the forms above):
  :func:`renyi_divergence_float` (vectorised over orders), :func:`kl_divergence_float`,
  :func:`hockey_stick_float` (vectorised over eps).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from numbers import Integral
from typing import TYPE_CHECKING, Any, Hashable, Sequence

from bcdp.core.errors import FloatRefusedError, InvalidInputError
from bcdp.core.numbers import GUARD_DPS, INFINITY, MAX_DPS, brief_number, check_precision, to_fraction
from bcdp.core.parameters import LogRatioParameter

if TYPE_CHECKING:  # pragma: no cover
    import mpmath
    import numpy as np
    import sympy

#: Default and smallest working precision (decimal digits) of the high-precision forms.
DEFAULT_DPS = 50
MIN_DPS = 50
#: Extra working digits used inside the high-precision forms.
GUARD_DIGITS = 15

Row = tuple[Fraction, ...]
Law = Sequence[Any] | Mapping[Hashable, Any]


# -- inputs ------------------------------------------------------------------------------------------

def exact_row(values: Sequence[Any], name: str) -> Row:
    """An exact probability row: entries through :func:`to_fraction`, non-negative, summing to 1."""
    if isinstance(values, (str, bytes)):
        raise InvalidInputError(f"{name} must be a sequence of probabilities, got a string")
    row = tuple(to_fraction(v, f"{name}[{k}]") for k, v in enumerate(values))
    if not row:
        raise InvalidInputError(f"{name} is empty")
    for k, v in enumerate(row):
        if v < 0:
            raise InvalidInputError(f"{name}[{k}] = {brief_number(v)} is negative")
    total = sum(row, Fraction(0))
    if total != 1:
        raise InvalidInputError(f"{name} sums to {brief_number(total)}, not 1 (not a probability distribution)")
    return row


def exact_pair(P: Law, Q: Law) -> tuple[Row, Row]:
    """Two exact rows on the same outputs (mappings are aligned on the union of their keys)."""
    if isinstance(P, Mapping) or isinstance(Q, Mapping):
        if not (isinstance(P, Mapping) and isinstance(Q, Mapping)):
            raise InvalidInputError("P and Q must both be sequences or both be mappings")
        keys = list(P) + [k for k in Q if k not in P]
        P = [P.get(k, 0) for k in keys]
        Q = [Q.get(k, 0) for k in keys]
    p, q = exact_row(P, "P"), exact_row(Q, "Q")
    if len(p) != len(q):
        raise InvalidInputError(f"P has {len(p)} outcomes and Q has {len(q)}: shape mismatch")
    return p, q


def _check_dps(dps: Any) -> int:
    """The working precision of the high-precision forms: an int in [:data:`MIN_DPS`,
    MAX_DPS + GUARD_DPS] (:func:`bcdp.core.numbers.check_precision`; callers add guard digits)."""
    return check_precision(dps, "dps", MIN_DPS, MAX_DPS + GUARD_DPS)


def infinite_support(p: Row, q: Row) -> bool:
    """True when some output has P(y) > 0 = Q(y) (D_a for a >= 1, KL and D_inf are infinite)."""
    return any(a > 0 and b == 0 for a, b in zip(p, q))


def mpf_of_fraction(x: Fraction) -> mpmath.mpf:
    """x at the current mpmath precision (one rounding)."""
    import mpmath
    return mpmath.mpf(x.numerator) / x.denominator


def _integer_order(order: Any, name: str = "order") -> int:
    if isinstance(order, bool) or not isinstance(order, Integral) or order < 2:
        raise InvalidInputError(f"the exact moment needs an integer {name} >= 2, got {order!r}")
    return int(order)


def _order(order: Any) -> Fraction | mpmath.mpf | float:
    """A Renyi order in (0, inf]: an exact Fraction, an mpf, or INFINITY ("inf"); floats refused."""
    import mpmath
    if isinstance(order, float) and order != INFINITY:
        raise FloatRefusedError(f"order: floats are refused (got {order!r}); pass an int, a Fraction, "
                                "a string such as '3/2', 'inf' or an mpmath.mpf")
    if order == INFINITY or (isinstance(order, str) and order.strip().lower() in ("inf", "oo")):
        return INFINITY
    if isinstance(order, mpmath.mpf):
        if not mpmath.isfinite(order) or order <= 0:
            raise InvalidInputError(f"the Renyi order must be in (0, inf], got {order}")
        return order
    value = to_fraction(order, "order")
    if value <= 0:
        raise InvalidInputError(f"the Renyi order must be in (0, inf], got {value}")
    return value


# -- exact forms -------------------------------------------------------------------------------------

def renyi_moment_exact(P: Law, Q: Law, order: int) -> Fraction | float:
    """K_a = sum_{P(y)>0} P(y)^a / Q(y)^(a-1) = E_{Y<-P}[(P(Y)/Q(Y))^{a-1}] exactly, for an integer
    order a >= 2 (so that D_a = log(K_a)/(a-1)); :data:`INFINITY` if P(y) > 0 = Q(y)."""
    a = _integer_order(order)
    p, q = exact_pair(P, Q)
    if infinite_support(p, q):
        return INFINITY
    return sum((x ** a / y ** (a - 1) for x, y in zip(p, q) if x > 0), Fraction(0))


def renyi_divergence_exact(P: Law, Q: Law, order: int) -> sympy.Expr:
    """D_a(P||Q) = log(K_a)/(a-1) as an exact sympy expression (integer a >= 2); ``sympy.oo`` when
    infinite."""
    import sympy

    m = renyi_moment_exact(P, Q, order)
    if m == INFINITY:
        return sympy.oo
    return sympy.log(sympy.Rational(m.numerator, m.denominator)) / (int(order) - 1)


def kl_divergence_exact(P: Law, Q: Law) -> sympy.Expr:
    """KL(P||Q) = sum_{P(y)>0} P(y) log(P(y)/Q(y)) as an exact sympy expression; ``sympy.oo`` if
    P(y) > 0 = Q(y)."""
    import sympy

    p, q = exact_pair(P, Q)
    if infinite_support(p, q):
        return sympy.oo

    def rat(x: Fraction) -> sympy.Rational:
        return sympy.Rational(x.numerator, x.denominator)
    return sympy.Add(*[rat(a) * sympy.log(rat(a / b)) for a, b in zip(p, q) if a > 0])


def d_infinity(P: Law, Q: Law) -> LogRatioParameter:
    """D_inf(P||Q) = max_{P(y)>0} log P(y)/Q(y) exactly, as a :class:`LogRatioParameter` (ratio a
    Fraction or :data:`INFINITY`) with witness ``{"output": index}`` (first output attaining it).
    P = Q gives ratio 1 (D_inf = 0); the ratio is always >= 1 (both rows sum to 1)."""
    p, q = exact_pair(P, Q)
    best: Fraction | float = Fraction(0)
    arg = None
    for k, (a, b) in enumerate(zip(p, q)):
        if a == 0:
            continue
        r = INFINITY if b == 0 else a / b
        if arg is None or r > best:
            best, arg = r, k
            if r == INFINITY:
                break
    return LogRatioParameter(best, {"output": arg})


def hockey_stick_exact(P: Law, Q: Law, ratio: Any) -> Fraction:
    """H_r(P||Q) = sum_y max(0, P(y) - r Q(y)) exactly, for an exact r = e^eps >= 0."""
    r = to_fraction(ratio, "ratio")
    if r < 0:
        raise InvalidInputError(f"ratio = e^eps must be >= 0, got {r}")
    p, q = exact_pair(P, Q)
    return sum((max(Fraction(0), a - r * b) for a, b in zip(p, q)), Fraction(0))


def privacy_loss_tail_exact(P: Law, Q: Law, ratio: Any) -> Fraction:
    """P{L > eps} exactly, L = log(P(Y)/Q(Y)) the privacy loss of Y ~ P and r = e^eps >= 0 exact: the
    P-mass of the outputs with P(y) > r Q(y) (Q(y) = 0 < P(y) counts: L = +inf).  "P{L > eps} <= delta"
    implies H_r(P||Q) <= delta (H_r <= this tail), not conversely (thesis Sec. 2.1.1, after Def. 2.1.2)."""
    r = to_fraction(ratio, "ratio")
    if r < 0:
        raise InvalidInputError(f"ratio = e^eps must be >= 0, got {r}")
    p, q = exact_pair(P, Q)
    return sum((a for a, b in zip(p, q) if a > r * b), Fraction(0))


def max_column_ratio(rows: Sequence[Sequence[Fraction]], labels: Sequence[Hashable],
                     outputs: Sequence[Hashable]) -> tuple[Fraction | float, dict | None]:
    """max over row pairs (a, b) and columns y of rows[a][y] / rows[b][y] (0/0 skipped): the largest
    e^{D_inf} between any two of the rows (exact Fractions).

    For each column the largest ratio is (column max) / (column min), so the search is linear in
    the number of entries.  Returns the ratio (:data:`INFINITY` if some column has a positive max
    and a zero min) and the witness ``{"numerator": label_a, "denominator": label_b, "output": y}``.
    Witness rule: the first column attaining the maximum, and in it the first row attaining the
    column max and the first row attaining the column min.
    """
    best: Fraction | float = Fraction(1)
    witness: dict | None = None
    n_rows = len(rows)
    if n_rows == 0:
        return best, None
    for m, y in enumerate(outputs):
        col = [r[m] for r in rows]
        hi_idx = max(range(n_rows), key=col.__getitem__)
        hi = col[hi_idx]
        if hi == 0:
            continue
        lo_idx = min(range(n_rows), key=col.__getitem__)
        lo = col[lo_idx]
        if lo == 0:
            return INFINITY, {"numerator": labels[hi_idx], "denominator": labels[lo_idx], "output": y}
        ratio = hi / lo
        if witness is None or ratio > best:
            best = ratio
            witness = {"numerator": labels[hi_idx], "denominator": labels[lo_idx], "output": y}
    return best, witness


# -- high precision ----------------------------------------------------------------------------------

class LogMgf:
    """K(a) = log sum_{P(y)>0} Q(y) exp(a l_y), l_y = log(P(y)/Q(y)), and its first two derivatives,
    at the current mpmath precision (so D_a = K(a)/(a-1), KL = K'(1)).  Requires supp P in supp Q.

    Attributes (over supp P): ``logq`` = log Q(y), ``ell`` = l_y, ``kl`` = KL(P||Q), ``ell_max`` /
    ``ell_min`` = max / min l_y, and ``scale`` = 1 + max |l_y| + max |log Q(y)|, the size of the
    terms, which callers multiply by the unit roundoff for their rounding guards."""

    def __init__(self, p: Row, q: Row):
        import mpmath
        self.logq = []
        self.ell = []
        for a, b in zip(p, q):
            if a > 0:
                lq = mpmath.log(b.numerator) - mpmath.log(b.denominator)
                lp = mpmath.log(a.numerator) - mpmath.log(a.denominator)
                self.logq.append(lq)
                self.ell.append(lp - lq)
        self.kl = mpmath.fsum(mpmath.exp(lq + l) * l for lq, l in zip(self.logq, self.ell))
        self.ell_max = max(self.ell)
        self.ell_min = min(self.ell)
        self.scale = 1 + max(abs(x) for x in self.ell) + max(abs(x) for x in self.logq)
        self._cache: dict = {}

    def log_weights(self, lam: mpmath.mpf) -> list[mpmath.mpf]:
        return [lq + lam * l for lq, l in zip(self.logq, self.ell)]

    def K(self, lam: mpmath.mpf) -> mpmath.mpf:
        import mpmath
        lw = self.log_weights(lam)
        m = max(lw)
        return m + mpmath.log(sum(mpmath.exp(x - m) for x in lw))

    def point(self, lam: mpmath.mpf) -> tuple:
        """(K, K', K'', normalised tilted weights pi_lam) at lam (cached)."""
        import mpmath
        hit = self._cache.get(lam)
        if hit is not None:
            return hit
        lw = self.log_weights(lam)
        m = max(lw)
        w = [mpmath.exp(x - m) for x in lw]
        z = sum(w)
        pi = [wi / z for wi in w]
        k1 = sum(p * l for p, l in zip(pi, self.ell))
        k2 = sum(p * (l - k1) ** 2 for p, l in zip(pi, self.ell))
        out = (m + mpmath.log(z), k1, k2, pi)
        self._cache[lam] = out
        return out

    def derivs(self, lam: mpmath.mpf) -> tuple[mpmath.mpf, mpmath.mpf, mpmath.mpf]:
        """K, K', K'' at lam."""
        return self.point(lam)[:3]

    def curvature_bound(self, a: mpmath.mpf, b: mpmath.mpf) -> mpmath.mpf:
        """V >= sup_{lambda in [a, b]} K''(lambda).  With pi_a the tilted law at a and t = lambda - a:
        K''(lambda) = Var_lambda(l) <= E_lambda[(l - c)^2] = E_a[(l - c)^2 e^{t l}] / E_a[e^{t l}], and
        E_a[e^{t l}] = e^{K(a+t) - K(a)} >= e^{t K'(a)} (convexity of K), so with c = K'(a)
        V = sum_y pi_a(y) (l_y - c)^2 max(1, e^{(b-a)(l_y - c)})."""
        import mpmath
        _k0, k1, _k2, pi = self.point(a)
        t = b - a
        return sum(p * (l - k1) ** 2 * (mpmath.exp(t * (l - k1)) if l > k1 else 1)
                   for p, l in zip(pi, self.ell))


def _digits_near_one(a: Fraction | mpmath.mpf) -> int:
    """Decimal digits lost to cancellation near order 1 (a != 1): K(a) = O(a - 1) and a - 1 are
    computed from terms of size 1, so |a - 1| = 10^-k costs k digits; the working precision is
    raised by at least that many, up to 2 (absorbed by the guard digits): ``mpmath.mag(x)`` is
    an m with |x| <= 2^m, at most 2 too large, and log10 2 < 1/3, so -m // 3 >= log10(1/|a - 1|) - 2."""
    import mpmath
    return max(0, -int(mpmath.mag(a - 1)) // 3)


def renyi_divergence(P: Law, Q: Law, order: Any, dps: int = DEFAULT_DPS) -> mpmath.mpf | float:
    """D_a(P||Q) with mpmath at ``dps`` digits (>= 50), for every order a in (0, inf].

    a = 1 gives KL, a = inf (``INFINITY`` or ``"inf"``) gives D_inf; other orders are evaluated as
    1/(a-1) log sum_y exp(log Q(y) + a l_y) (log-sum-exp: extreme ratios such as 2^-200 do not
    underflow), with the working precision raised by the digits lost to cancellation when the order
    is near 1 (:func:`_digits_near_one`).  Returns :data:`INFINITY` when infinite.  Orders are exact
    (int, Fraction, string) or mpf; floats are refused.
    """
    import mpmath
    dps = _check_dps(dps)
    p, q = exact_pair(P, Q)
    a = _order(order)
    if a == 1:
        return kl_divergence(p, q, dps)
    if a == INFINITY:
        ratio = d_infinity(p, q).ratio
        if ratio == INFINITY:
            return INFINITY
        with mpmath.workdps(dps):
            return mpmath.log(mpf_of_fraction(ratio))
    if a > 1 and infinite_support(p, q):
        return INFINITY
    with mpmath.workdps(dps + GUARD_DIGITS + _digits_near_one(a)):
        a_m = a if isinstance(a, mpmath.mpf) else mpf_of_fraction(a)
        if a_m > 1:
            value = LogMgf(p, q).K(a_m) / (a_m - 1)
        else:  # 0 < a < 1: only outputs charged by both laws contribute
            terms = [(mpmath.log(mpf_of_fraction(x)), mpmath.log(mpf_of_fraction(y)))
                     for x, y in zip(p, q) if x > 0 and y > 0]
            if not terms:
                return INFINITY
            lw = [a_m * lx + (1 - a_m) * ly for lx, ly in terms]
            m = max(lw)
            value = (m + mpmath.log(mpmath.fsum(mpmath.exp(x - m) for x in lw))) / (a_m - 1)
    with mpmath.workdps(dps):
        return +value


def kl_divergence(P: Law, Q: Law, dps: int = DEFAULT_DPS) -> mpmath.mpf | float:
    """KL(P||Q) with mpmath at ``dps`` digits; :data:`INFINITY` if P(y) > 0 = Q(y)."""
    import mpmath
    dps = _check_dps(dps)
    p, q = exact_pair(P, Q)
    if infinite_support(p, q):
        return INFINITY
    with mpmath.workdps(dps + GUARD_DIGITS):
        value = LogMgf(p, q).kl
    with mpmath.workdps(dps):
        return +value


def hockey_stick(P: Law, Q: Law, eps: Any, dps: int = DEFAULT_DPS) -> mpmath.mpf:
    """H_{e^eps}(P||Q) = sum_y max(0, P(y) - e^eps Q(y)) with mpmath at ``dps`` digits, for an exact
    eps >= 0 (int, Fraction, string) or an mpf."""
    import mpmath
    dps = _check_dps(dps)
    p, q = exact_pair(P, Q)
    if isinstance(eps, float):
        raise FloatRefusedError(f"eps: floats are refused (got {eps!r}); pass a string such as '0.5'")
    with mpmath.workdps(dps + GUARD_DIGITS):
        e = eps if isinstance(eps, mpmath.mpf) else mpf_of_fraction(to_fraction(eps, "eps"))
        if not mpmath.isfinite(e) or e < 0:
            raise InvalidInputError(f"eps must be a finite real >= 0, got {eps!r}")
        r = mpmath.exp(e)
        value = mpmath.fsum(max(mpmath.mpf(0), mpf_of_fraction(a) - r * mpf_of_fraction(b))
                            for a, b in zip(p, q))
    with mpmath.workdps(dps):
        return +value


# -- float64 twins -----------------------------------------------------------------------------------

def _float_pair(P: Any, Q: Any) -> tuple[np.ndarray, np.ndarray]:
    import numpy as np

    p = np.asarray(P, dtype=float)
    q = np.asarray(Q, dtype=float)
    if p.ndim != 1 or p.shape != q.shape or p.size == 0:
        raise InvalidInputError(f"P and Q must be non-empty 1-d arrays of one shape, got {p.shape}, {q.shape}")
    if not (np.all(np.isfinite(p)) and np.all(np.isfinite(q))) or (p < 0).any() or (q < 0).any():
        raise InvalidInputError("P and Q must be finite and non-negative")
    return p, q


def renyi_divergence_float(P: Any, Q: Any, orders: Any) -> np.ndarray | float:
    """Float64 twin of :func:`renyi_divergence`, vectorised over ``orders`` (array of reals in
    (0, inf]; 1 gives KL, inf gives D_inf): log-sum-exp over outputs, no Python loop over orders."""
    import numpy as np
    from scipy.special import logsumexp

    p, q = _float_pair(P, Q)
    a = np.atleast_1d(np.asarray(orders, dtype=float))
    if np.isnan(a).any() or (a <= 0).any():
        raise InvalidInputError("Renyi orders must be in (0, inf]")
    sp, both = p > 0, (p > 0) & (q > 0)
    out = np.empty(a.shape)
    mism = bool((sp & (q == 0)).any())
    with np.errstate(divide="ignore"):
        lp, lq = np.log(p[both]), np.log(q[both])
    one, inf = a == 1, np.isinf(a)
    gt, lt = (a > 1) & ~one & ~inf, a < 1
    if mism:
        out[one | inf | gt] = np.inf
    else:
        out[one] = float(np.sum(p[both] * (lp - lq)))
        out[inf] = float(np.max(lp - lq))
        if gt.any():
            out[gt] = logsumexp(np.outer(a[gt], lp) + np.outer(1 - a[gt], lq), axis=1) / (a[gt] - 1)
    if lt.any():
        out[lt] = (logsumexp(np.outer(a[lt], lp) + np.outer(1 - a[lt], lq), axis=1) / (a[lt] - 1)
                   if both.any() else np.inf)
    return out if np.ndim(orders) else float(out[0])


def kl_divergence_float(P: Any, Q: Any) -> float:
    """Float64 twin of :func:`kl_divergence`."""
    return float(renyi_divergence_float(P, Q, 1.0))


def hockey_stick_float(P: Any, Q: Any, eps: Any) -> np.ndarray | float:
    """Float64 twin of :func:`hockey_stick`, vectorised over ``eps`` (array of reals >= 0)."""
    import numpy as np

    p, q = _float_pair(P, Q)
    e = np.atleast_1d(np.asarray(eps, dtype=float))
    if np.isnan(e).any() or (e < 0).any():
        raise InvalidInputError("eps must be >= 0")
    out = np.maximum(0.0, p[None, :] - np.exp(e)[:, None] * q[None, :]).sum(axis=1)
    return out if np.ndim(eps) else float(out[0])


__all__ = [
    "DEFAULT_DPS", "GUARD_DIGITS", "LogMgf", "MIN_DPS", "d_infinity", "exact_pair",
    "exact_row", "hockey_stick", "hockey_stick_exact", "hockey_stick_float", "infinite_support",
    "kl_divergence", "kl_divergence_exact", "kl_divergence_float", "max_column_ratio",
    "mpf_of_fraction", "renyi_divergence", "renyi_divergence_exact", "renyi_divergence_float",
    "renyi_moment_exact",
]
