"""Partial DP paper (Ghazi, Kumar, Manurangsi, Steinke, arXiv:2209.04053), Props. 26 and 27: Bayesian and
information-theoretic meaning of eps-nabla0-DP, exactly on finite mechanisms.

Mechanisms are :class:`bcdp.core.spaces.Mechanism` objects on a :func:`bcdp.partial.pure.dataset_domain`
(n records of d attributes, flat coordinate i*d + j); priors are :class:`bcdp.core.spaces.Prior` on the
same domain.  A *cell* is a flat coordinate; X_{i,s} is the tuple of cells (i*d + j for j in s).

**What X_{-i} means (Prop. 26, Sec. 7.1, says "removed or blanked").**  A finite mechanism is defined on
X^n only, so "removed" is not available in general; this module implements *blanking*:

* ``blanking="record"`` (the reading of [KS14]): record i is replaced by a fixed reference record
  ``blank`` (a full record of the domain);
* ``blanking="attributes"``: only the attributes of record i in s are replaced by the matching
  entries of ``blank``.

Under "attributes" the bound of Prop. 26 holds for every prior (the [KS14] argument: the two
datasets differ in |s| attributes of one record, so every likelihood ratio is within e^{+-|s| eps}).
Under "record" it needs independence of record i's s-block from the rest; see
:func:`xor_rr_counterexample` for a prior that is a product of the s-columns and the other columns
(the printed assumption, read column-wise) where the printed bound fails.

TV distances are exact Fractions; mutual information is mpmath at >= 50 digits.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any, Hashable, Sequence

import mpmath

from bcdp.core.errors import InvalidInputError
from bcdp.core.numbers import INFINITY, to_fraction
from bcdp.core.spaces import Mechanism, Prior

MP_DIGITS = 50


def _check(mech: Mechanism, prior: Prior, n: int, d: int) -> None:
    if prior.domain != mech.domain:
        raise InvalidInputError("prior and mechanism live on different domains")
    if mech.domain.d != n * d:
        raise InvalidInputError(f"domain has {mech.domain.d} coordinates, n*d = {n * d}")


def cells_of(i: int, s: Sequence[int], n: int, d: int) -> tuple[int, ...]:
    """Flat coordinates of X_{i,s} (record i, attributes s)."""
    if not 0 <= i < n:
        raise InvalidInputError(f"record index {i} not in [0, {n})")
    if not s or len(set(s)) != len(s) or any(not 0 <= j < d for j in s):
        raise InvalidInputError(f"attribute set {list(s)} must be distinct indices in [0, {d})")
    return tuple(i * d + j for j in s)


def blank_dataset(point: tuple, n: int, d: int, i: int, s: Sequence[int], blank: Sequence[Hashable],
                  blanking: str) -> tuple:
    """X_{-i}: record i of ``point`` replaced by ``blank`` (``"record"``) or only its attributes in
    s replaced by blank[j] (``"attributes"``)."""
    if len(blank) != d:
        raise InvalidInputError(f"blank record has {len(blank)} entries, records have {d}")
    out = list(point)
    if blanking == "record":
        js = range(d)
    elif blanking == "attributes":
        js = s
    else:
        raise InvalidInputError(f"blanking must be 'record' or 'attributes', got {blanking!r}")
    for j in js:
        out[i * d + j] = blank[j]
    return tuple(out)


def posterior_of_cells(mech: Mechanism, prior: Prior, cells: Sequence[int], y: Hashable,
                       transform=None) -> dict[tuple, Fraction] | None:
    """P[X_cells = a | M(T(X)) = y] for X ~ prior (T = ``transform``, identity by default), exactly;
    ``None`` if P[M(T(X)) = y] = 0 (the conditional is undefined)."""
    if y not in mech.outputs:
        raise InvalidInputError(f"{y!r} is not an output of the mechanism")
    m = mech.outputs.index(y)
    joint: dict[tuple, Fraction] = {}
    for p, prob in zip(mech.domain.points, prior.pmf):
        if not prob:
            continue
        src = p if transform is None else transform(p)
        like = mech.kernel[mech.domain.index[src]][m]
        a = tuple(p[c] for c in cells)
        joint[a] = joint.get(a, Fraction(0)) + prob * like
    total = sum(joint.values(), Fraction(0))
    if total == 0:
        return None
    return {a: v / total for a, v in joint.items()}


def total_variation(p: dict, q: dict) -> Fraction:
    """d_TV = (1/2) sum |p - q| of two exact pmfs given as dicts."""
    keys = set(p) | set(q)
    return sum((abs(p.get(k, Fraction(0)) - q.get(k, Fraction(0))) for k in keys), Fraction(0)) / 2


def prop26_tv(mech: Mechanism, prior: Prior, n: int, d: int, i: int, s: Sequence[int], y: Hashable,
              blank: Sequence[Hashable], blanking: str = "record") -> Fraction | None:
    """d_TV(P_{X_{i,s} | M(X) = y}, P_{X_{i,s} | M(X_{-i}) = y}) (Prop. 26, Sec. 7.1), exactly;
    ``None`` when one of the conditionals is undefined."""
    _check(mech, prior, n, d)
    cells = cells_of(i, s, n, d)
    post = posterior_of_cells(mech, prior, cells, y)
    post_blank = posterior_of_cells(mech, prior, cells, y,
                                    lambda p: blank_dataset(p, n, d, i, s, blank, blanking))
    if post is None or post_blank is None:
        return None
    return total_variation(post, post_blank)


def prop26_bound(ratio: Fraction | float, s_size: int) -> Fraction | float:
    """e^{2|s| eps} - 1 for e^eps = ``ratio`` (exact; ``INFINITY`` for an infinite ratio)."""
    if s_size < 1:
        raise InvalidInputError("|s| must be >= 1")
    if ratio == INFINITY:
        return INFINITY
    r = to_fraction(ratio, "e^eps")
    if r < 1:
        raise InvalidInputError(f"e^eps = {r} < 1")
    return r ** (2 * s_size) - 1


def mutual_information(mech: Mechanism, prior: Prior, cells: Sequence[int],
                       digits: int = MP_DIGITS) -> mpmath.mpf:
    """I(X_cells; M(X)) in nats for X ~ prior, from the exact joint, evaluated in mpmath at
    ``digits`` (>= 50) digits: sum P(a, y) log(P(a, y) / (P(a) P(y)))."""
    if digits < 50:
        raise InvalidInputError(f"digits = {digits} < 50")
    joint: dict[tuple, Fraction] = {}
    for p, prob in zip(mech.domain.points, prior.pmf):
        if not prob:
            continue
        a = tuple(p[c] for c in cells)
        for y, like in zip(mech.outputs, mech.kernel[mech.domain.index[p]]):
            if like:
                joint[(a, y)] = joint.get((a, y), Fraction(0)) + prob * like
    pa: dict = {}
    py: dict = {}
    for (a, y), v in joint.items():
        pa[a] = pa.get(a, Fraction(0)) + v
        py[y] = py.get(y, Fraction(0)) + v
    with mpmath.workdps(digits + 10):
        terms = []
        for (a, y), v in joint.items():
            ratio = v / (pa[a] * py[y])  # exact Fraction
            terms.append(mpmath.mpf(v.numerator) / v.denominator
                         * mpmath.log(mpmath.mpf(ratio.numerator) / ratio.denominator))
        return +mpmath.fsum(terms)


def prop27_bounds(ratio: Fraction | float, block_sizes: Sequence[int],
                  digits: int = MP_DIGITS) -> tuple[list[mpmath.mpf], mpmath.mpf]:
    """Prop. 27 (Sec. 7.1): with eps = log ``ratio`` (an eps-nabla0-DP, hence eps-nabla0-CDP, mechanism
    [BS16]), the bounds eps^2 |s_j|^2 / 2 per block and eps^2 sum_j |s_j|^2 / 2 for the record."""
    if ratio == INFINITY:
        return [mpmath.inf] * len(block_sizes), mpmath.inf
    r = to_fraction(ratio, "e^eps")
    with mpmath.workdps(digits + 10):
        eps = mpmath.log(mpmath.mpf(r.numerator) / r.denominator)
        per = [eps ** 2 * k ** 2 / 2 for k in block_sizes]
        return per, eps ** 2 * sum(k ** 2 for k in block_sizes) / 2


def product_prior(n: int, d: int, record_law: dict[tuple, Any]) -> Prior:
    """Prior on n independent records, each drawn from ``record_law`` ({record: prob})."""
    from bcdp.partial.pure import dataset_domain

    law = {tuple(r): to_fraction(p, f"record_law[{r!r}]") for r, p in record_law.items()}
    if sum(law.values(), Fraction(0)) != 1:
        raise InvalidInputError("record law does not sum to 1")
    values = [tuple(dict.fromkeys(r[j] for r in law)) for j in range(d)]
    dom = dataset_domain(values, n)
    pmf = []
    for p in dom.points:
        prob = Fraction(1)
        for i in range(n):
            prob *= law.get(tuple(p[i * d:(i + 1) * d]), Fraction(0))
        pmf.append(prob)
    return Prior(dom, tuple(pmf))


def rr_row(bits: Sequence[int], outs: Sequence[Sequence[int]], keep: Fraction) -> tuple[Fraction, ...]:
    """Kernel row of independent binary randomized response of ``bits`` (each bit reported as is
    with probability ``keep``): for each y in ``outs``, prod_t (keep if bits_t == y_t else 1 - keep)."""
    row = []
    for y in outs:
        prob = Fraction(1)
        for b, yt in zip(bits, y):
            prob *= keep if b == yt else 1 - keep
        row.append(prob)
    return tuple(row)


def xor_rr_counterexample(m: int, ratio: Any) -> dict[str, Fraction]:
    """Prop. 26 with whole-record blanking under a column-product prior: exact closed form.

    n = m + 1 records, d = m + 1 binary attributes, s = {0}, target record i = 0.  Prior: the
    s-column is one uniform bit c copied into every record (X_{t,0} = c), every other attribute is
    known to be 1 (point mass; the paper's own example of a product prior, after Prop. 26).  Mechanism:
    y_t = RR_r(X_{0,t} xor X_{t,0}) independently for t = 1..m (RR keeps w.p. r/(r+1)).  Changing
    one attribute changes one factor, so the mechanism is log(r)-nabla0-DP (parallel composition,
    Lemma 10).  Given y = (1, ..., 1): under M(X) the likelihood ratio of c = 0 vs c = 1 is r^m,
    under M(X_{-0}) (record 0 blanked to all zeros) it is r^{-m}; so

        d_TV = (r^m - 1) / (r^m + 1)   vs   the printed bound r^2 - 1,

    violated e.g. for m = 5, r = 11/10.  Returned exactly (also the two posteriors of c = 1)."""
    r = to_fraction(ratio, "e^eps")
    if r < 1 or m < 1:
        raise InvalidInputError("need e^eps >= 1 and m >= 1")
    keep = r / (r + 1)
    # y_t = 1 for all t; under M(X): X_{0,t} = 1, so y_t = RR(1 xor c) -> P(y | c) = keep^m if c = 0
    like_x = {0: keep ** m, 1: (1 - keep) ** m}
    # under M(X_{-0}): X_{0,t} = 0, y_t = RR(c)
    like_blank = {0: (1 - keep) ** m, 1: keep ** m}
    post = like_x[1] / (like_x[0] + like_x[1])
    post_blank = like_blank[1] / (like_blank[0] + like_blank[1])
    return {"posterior_c1_given_M(X)": post, "posterior_c1_given_M(X_-i)": post_blank,
            "tv": abs(post - post_blank), "bound": prop26_bound(r, 1)}


def xor_rr_instance(m: int, ratio: Any) -> tuple[Mechanism, Prior, int, int]:
    """The :func:`xor_rr_counterexample` instance as an explicit Mechanism and Prior (feasible for
    small m: 2^{(m+1)^2} datasets), for cross-checking the closed form with the generic engine."""
    from bcdp.partial.pure import dataset_domain

    r = to_fraction(ratio, "e^eps")
    keep = r / (r + 1)
    n = d = m + 1
    dom = dataset_domain([(0, 1)] * d, n)
    outs = tuple(itertools.product((0, 1), repeat=m))
    # y_t = RR(X_{0,t} xor X_{t,0})
    rows = [rr_row([p[t] ^ p[t * d] for t in range(1, m + 1)], outs, keep) for p in dom.points]
    mech = Mechanism(dom, outs, tuple(rows))
    pmf = []
    for p in dom.points:
        c = p[0]
        ok = all(p[t * d] == c for t in range(n)) and all(p[t * d + j] == 1 for t in range(n) for j in range(1, d))
        pmf.append(Fraction(1, 2) if ok else Fraction(0))
    return mech, Prior(dom, tuple(pmf)), n, d
