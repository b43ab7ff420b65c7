"""Exact pure partial DP (Ghazi, Kumar, Manurangsi, Steinke, arXiv:2209.04053) for finite mechanisms on datasets.

A dataset is n records of d attributes, attribute j taking values in a finite set X_j.  It is
encoded as a point of the product of n*d coordinates, **record-major**: flat coordinate
``i*d + j`` is attribute j of record i.  A mechanism on datasets is then an ordinary
:class:`bcdp.core.spaces.Mechanism` on that :class:`~bcdp.core.spaces.ProductDomain` (exact Fraction rows),
whose coordinate sets must repeat with period d (every record draws from X_1 x ... x X_d).

The input set is every dataset of the mechanism's domain (the full product, or only the listed
datasets when the domain is a :class:`~bcdp.core.spaces.PointSubset`, as ``bcdp partial audit``
builds it for a subset), or a user-given list ``inputs`` (rows of other datasets are then
ignored).  Neighbouring relations (paper Sec. 2):

* per-attribute (eps0-nabla0-DP, Def. 5 with Lemma 7): datasets differing in exactly one attribute
  of one record;
* replace-one / whole record (Def. 1): datasets differing in (any attributes of) exactly one record;
* general eps-nabla-DP (Def. 4): datasets differing only in record i, with the bound
  e^{eps(x_i, x'_i)} depending on the two records.

Every supremum over events S is a maximum over single outputs by reduction (R1) of
:mod:`bcdp.bayesian.notions` (mediant inequality), and is computed with :func:`bcdp.core.divergences.max_column_ratio`
(0/0 skipped, positive/0 infinite).  Ratios are exact Fractions or ``INFINITY``.  Ties: a maximum over
the pairs of inputs that differ only in some coordinates (an attribute, a record) is searched group by
group, the groups of inputs that agree elsewhere taken in the order of their first input (the domain
order, or the order of ``inputs``), and its witness comes from the first group attaining it (in the
group, by the witness rule of ``max_column_ratio``).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Hashable, Sequence

from bcdp.core.divergences import max_column_ratio
from bcdp.core.errors import FloatRefusedError, InvalidInputError
from bcdp.core.numbers import INFINITY, to_fraction
from bcdp.core.parameters import LogRatioParameter
from bcdp.core.spaces import Mechanism, Point, ProductDomain

Record = tuple
Dataset = tuple  # tuple of n records


# -- encoding ------------------------------------------------------------------------------------

def dataset_domain(attribute_values: Sequence[Sequence[Hashable]], n: int) -> ProductDomain:
    """The product of n*d coordinates (record-major) for n records over X_1 x ... x X_d."""
    if n < 1:
        raise InvalidInputError(f"n must be >= 1 records, got {n}")
    attrs = tuple(tuple(v) for v in attribute_values)
    if not attrs:
        raise InvalidInputError("a record needs at least one attribute")
    return ProductDomain(attrs * n)


def to_point(dataset: Sequence, n: int, d: int) -> Point:
    """A dataset (n records of d values, or already a flat tuple of n*d values) as a flat point."""
    items = tuple(dataset)
    if items and all(isinstance(r, (tuple, list)) for r in items):
        if len(items) == n and all(len(r) == d for r in items):
            return tuple(v for r in items for v in r)
    elif len(items) == n * d:
        return items
    raise InvalidInputError(f"dataset {dataset!r} is neither {n} records of {d} attributes nor "
                            f"{n * d} flat values")


def to_dataset(point: Point, n: int, d: int) -> Dataset:
    """Flat point -> tuple of n records (each a tuple of d values)."""
    return tuple(tuple(point[i * d:(i + 1) * d]) for i in range(n))


def _validate(mech: Mechanism, n: int, d: int) -> None:
    if not isinstance(n, int) or not isinstance(d, int) or n < 1 or d < 1:
        raise InvalidInputError(f"n and d must be positive integers, got n={n!r}, d={d!r}")
    dom = mech.domain
    if dom.d != n * d:
        raise InvalidInputError(f"mechanism domain has {dom.d} coordinates, n*d = {n}*{d} = {n * d}")
    for i in range(1, n):
        for j in range(d):
            if dom.coordinate_values[i * d + j] != dom.coordinate_values[j]:
                raise InvalidInputError(
                    f"attribute {j} of record {i} takes values {list(dom.coordinate_values[i * d + j])}, "
                    f"record 0 uses {list(dom.coordinate_values[j])}: records must share X_1 x ... x X_d")


def input_indices(mech: Mechanism, n: int, d: int, inputs: Sequence | None) -> list[int]:
    """Domain indices of the inputs to compare: every dataset of the domain (``inputs=None``) or the listed ones
    (datasets as n records of d values or flat points; each must be in the domain, listed once).
    Validates the record-major encoding first (records share X_1 x ... x X_d)."""
    _validate(mech, n, d)
    if inputs is None:
        return list(range(mech.domain.size))
    out: list[int] = []
    seen: set[int] = set()
    for k, x in enumerate(inputs):
        p = to_point(x, n, d)
        if p not in mech.domain.index:
            raise InvalidInputError(f"input {k} ({x!r}) is not a dataset of the mechanism's domain")
        idx = mech.domain.index[p]
        if idx in seen:
            raise InvalidInputError(f"input {k} ({x!r}) is listed twice")
        seen.add(idx)
        out.append(idx)
    if not out:
        raise InvalidInputError("the input list is empty")
    return out


def hamming(a: Sequence, b: Sequence) -> int:
    """Number of positions where two equal-length tuples differ."""
    if len(a) != len(b):
        raise InvalidInputError("Hamming distance of tuples of different lengths")
    return sum(u != v for u, v in zip(a, b))


def _witness(mech: Mechanism, w: dict, n: int, d: int, **extra: Any) -> dict:
    return {"x": to_dataset(w["numerator"], n, d), "x_prime": to_dataset(w["denominator"], n, d),
            "R": [w["output"]], **extra}


def agreeing_groups(mech: Mechanism, idx: Sequence[int], block: Sequence[int]) -> list[list[int]]:
    """The inputs of ``idx`` grouped by their values outside the flat coordinates ``block``: two
    inputs are in one group iff they differ at most on ``block`` (e.g. record i's d coordinates:
    replace-one neighbours of Def. 1)."""
    pts = mech.domain.points
    bset = set(block)
    groups: dict[tuple, list[int]] = {}
    for k in idx:
        groups.setdefault(tuple(v for c, v in enumerate(pts[k]) if c not in bset), []).append(k)
    return list(groups.values())


def record_block(i: int, d: int) -> range:
    """Flat coordinates of record i (record-major encoding)."""
    return range(i * d, (i + 1) * d)


def _grouped_max(mech: Mechanism, idx: list[int], block: Sequence[int]) -> tuple[Fraction | float, dict | None]:
    """max ratio over pairs of inputs that agree outside the flat coordinates ``block``."""
    pts = mech.domain.points
    best: Fraction | float = Fraction(1)
    best_w = None
    for members in agreeing_groups(mech, idx, block):
        if len(members) < 2:
            continue
        ratio, w = max_column_ratio([mech.kernel[k] for k in members], [pts[k] for k in members],
                                    mech.outputs)
        if w is not None and (best_w is None or ratio > best):
            best, best_w = ratio, w
            if ratio == INFINITY:
                break
    return best, best_w


# -- per-attribute (eps0-nabla0-DP) ------------------------------------------------------------

def per_attribute_matrix(mech: Mechanism, n: int, d: int, inputs: Sequence | None = None
                         ) -> list[list[LogRatioParameter]]:
    """eps for each (record i, attribute j): max log ratio over input pairs differing exactly in
    attribute j of record i, and all events (by (R1), all single outputs).  For n = 1 on the full
    product this is the coordinate-DP vector c of :func:`bcdp.bayesian.notions.cdp_vector`.
    Witness keys: ``x``, ``x_prime`` (datasets), ``R``, ``record``, ``attribute``."""
    idx = input_indices(mech, n, d, inputs)
    out = []
    for i in range(n):
        row = []
        for j in range(d):
            ratio, w = _grouped_max(mech, idx, [i * d + j])
            row.append(LogRatioParameter(ratio, None if w is None else
                                         _witness(mech, w, n, d, record=i, attribute=j)))
        out.append(row)
    return out


@dataclass(frozen=True)
class PerAttributeResult:
    """eps0 (single-attribute maximum) and the check of the Hamming-scaled condition.

    ``record_scaled_holds``: for all inputs x, x' differing only in one record i,
    ratio <= e^{eps0 * Hamming(x_i, x'_i)} (Def. 5 literally).  ``all_pairs_scaled_holds``: the same
    for all pairs with the Hamming distance of the whole datasets (group privacy).  ``violation`` is
    a witness of the first failure (or ``None``).
    """

    epsilon: LogRatioParameter
    record_scaled_holds: bool
    all_pairs_scaled_holds: bool
    violation: dict | None


def _pair_ratio(mech: Mechanism, a: int, b: int) -> tuple[Fraction | float, dict | None]:
    pts = mech.domain.points
    return max_column_ratio([mech.kernel[a], mech.kernel[b]], [pts[a], pts[b]], mech.outputs)


def _power(ratio: Fraction | float, k: int) -> Fraction | float:
    if k == 0:
        return Fraction(1)
    return INFINITY if ratio == INFINITY else Fraction(ratio) ** k


def _le(a: Fraction | float, b: Fraction | float) -> bool:
    if b == INFINITY:
        return True
    if a == INFINITY:
        return False
    return Fraction(a) <= Fraction(b)


def per_attribute_epsilon(mech: Mechanism, n: int, d: int, inputs: Sequence | None = None
                          ) -> PerAttributeResult:
    """eps0 of eps0-nabla0-DP: max over input pairs differing in exactly one attribute of one record
    (Lemma 7's Hamming-graph neighbours) and outputs of log mu_x(y)/mu_x'(y); witness as in
    :func:`per_attribute_matrix`.

    Then every pair of inputs is checked against the Hamming-scaled condition
    ratio <= e^{eps0 * Hamming(x, x')}.  **On the full product domain the single-attribute maximum
    implies it**: any x, x' are joined by a path of Hamming(x, x') single-attribute changes staying
    in the domain, and D_inf obeys the triangle inequality (ratios multiply along the path; an
    infinite eps0 makes the bound vacuous), which is Lemma 7 and group privacy.  So both flags are
    True there (tested).  **On a user-given input list (or a PointSubset domain) it need not**: the
    intermediate datasets of the path may be missing, and the flags can be False (the violation is
    returned).
    """
    idx = input_indices(mech, n, d, inputs)
    mat = per_attribute_matrix(mech, n, d, inputs)
    constrained = [p for row in mat for p in row if p.witness is not None]
    eps = LogRatioParameter(Fraction(1), None)
    for p in constrained:  # first maximiser (infinite beats everything)
        if eps.witness is None or not _le(p.ratio, eps.ratio):
            eps = p
    pts = mech.domain.points
    rec_ok, all_ok, violation = True, True, None
    for a, b in itertools.combinations(idx, 2):
        k = hamming(pts[a], pts[b])
        ratio, w = _pair_ratio(mech, a, b)
        if w is None or _le(ratio, _power(eps.ratio, k)):
            continue
        xa, xb = to_dataset(pts[a], n, d), to_dataset(pts[b], n, d)
        one_record = sum(ra != rb for ra, rb in zip(xa, xb)) == 1
        all_ok = False
        if one_record:
            rec_ok = False
        if violation is None or (one_record and not violation["one_record"]):
            violation = {**_witness(mech, w, n, d), "hamming": k, "ratio": ratio,
                         "bound": _power(eps.ratio, k), "one_record": one_record}
    return PerAttributeResult(eps, rec_ok, all_ok, violation)


# -- whole record (Def. 1, replace-one) ---------------------------------------------------------

def whole_record_epsilon(mech: Mechanism, n: int, d: int, inputs: Sequence | None = None
                         ) -> LogRatioParameter:
    """Pure DP eps under replace-one neighbouring (Def. 1): max over input pairs differing in any
    attributes of exactly one record, and outputs (R1).  Witness keys: ``x``, ``x_prime``, ``R``,
    ``record`` (the first record attaining the max); ratio 1 and no witness without any pair."""
    idx = input_indices(mech, n, d, inputs)
    best: Fraction | float = Fraction(1)
    best_w = None
    for i in range(n):
        ratio, w = _grouped_max(mech, idx, record_block(i, d))
        if w is not None and (best_w is None or ratio > best):
            best, best_w = ratio, _witness(mech, w, n, d, record=i)
    return LogRatioParameter(best, best_w)


# -- general eps-nabla-DP (Def. 4) ----------------------------------------------------------------

def minimal_nabla_ratios(mech: Mechanism, n: int, d: int, inputs: Sequence | None = None
                         ) -> dict[tuple[Record, Record], tuple[Fraction | float, dict]]:
    """The smallest e^{eps(r, r')} making the mechanism eps-nabla-DP: for each ordered pair of
    distinct records (r, r') occurring as (x_i, x'_i) of inputs differing only in record i, the max
    over such pairs and outputs of mu_x(y)/mu_x'(y) (both directions, so it is symmetric), with a
    witness.  Pairs with no constraint (all 0/0) are absent."""
    idx = input_indices(mech, n, d, inputs)
    pts = mech.domain.points
    out: dict = {}
    for i in range(n):
        for members in agreeing_groups(mech, idx, record_block(i, d)):
            for a, b in itertools.combinations(members, 2):
                ratio, w = _pair_ratio(mech, a, b)
                if w is None:
                    continue
                ra, rb = tuple(pts[a][i * d:(i + 1) * d]), tuple(pts[b][i * d:(i + 1) * d])
                for key in ((ra, rb), (rb, ra)):
                    if key not in out or not _le(ratio, out[key][0]):
                        out[key] = (ratio, _witness(mech, w, n, d, record=i))
    return out


def _bound_ratio(value: Any, where: str) -> Fraction | float:
    if isinstance(value, LogRatioParameter):
        r = value.ratio
    elif value == INFINITY:
        return INFINITY
    elif isinstance(value, float):
        raise FloatRefusedError(f"eps_fn{where} returned a float {value!r}; give e^eps exactly "
                                "(int, Fraction, 'p/q', LogRatioParameter or INFINITY)")
    else:
        r = to_fraction(value, f"eps_fn{where}")
    if r != INFINITY and r < 1:
        raise InvalidInputError(f"eps_fn{where} = {r} < 1: eps must be non-negative")
    return r


@dataclass(frozen=True)
class NablaResult:
    holds: bool
    witness: dict | None  # first violation: x, x_prime, R, record, ratio, bound


def nabla_dp_holds(mech: Mechanism, n: int, d: int,
                   eps_fn: Callable[[Record, Record], Any],
                   inputs: Sequence | None = None) -> NablaResult:
    """Def. 4: for all inputs x, x' differing only in record i and all events S,
    P[M(x) in S] <= e^{eps(x_i, x'_i)} P[M(x') in S].

    ``eps_fn(r, r')`` takes two records (tuples of d values) and returns the bound **as the ratio
    e^{eps}** exactly (int / Fraction / "p/q" >= 1, a :class:`LogRatioParameter`, or ``INFINITY``),
    so the comparison is exact.  It must be symmetric (checked on the pairs used).  By (R1) the
    events reduce to single outputs.  E.g. eps0-nabla0-DP with e^{eps0} = 3 is
    ``lambda r, s: 3 ** hamming(r, s)``.
    """
    profile = minimal_nabla_ratios(mech, n, d, inputs)
    for (ra, rb), (ratio, w) in profile.items():
        bound = _bound_ratio(eps_fn(ra, rb), f"({list(ra)}, {list(rb)})")
        back = _bound_ratio(eps_fn(rb, ra), f"({list(rb)}, {list(ra)})")
        if bound != back:
            raise InvalidInputError(f"eps_fn is not symmetric: eps_fn({list(ra)}, {list(rb)}) = {bound}, "
                                    f"reverse = {back}")
        if not _le(ratio, bound):
            return NablaResult(False, {**w, "ratio": ratio, "bound": bound})
    return NablaResult(True, None)
