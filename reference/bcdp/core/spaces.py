"""Finite product domains, priors and mechanisms (BCDP paper, Section 2), in exact arithmetic.

* :class:`ProductDomain` is X = X_1 x ... x X_d with its points enumerated in lexicographic order;
  :class:`PointSubset` is some listed points of such a product (the product is not enumerated).
* :class:`Prior` is a pmf pi on X (Fractions summing to exactly one).
* :class:`Mechanism` is a Markov kernel mu from X to a finite output set Y: ``kernel[k][m]`` is
  mu_{x_k}({y_m}), one row per point of the domain, each row a pmf.

Composition of independent runs (:func:`compose`) and post-processing (:func:`post_process`,
:func:`post_process_kernel`) build new mechanisms from old ones (paper, Example 2 and Prop. 5).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Hashable, Iterable, Mapping, Sequence

from bcdp.core.errors import InvalidInputError
from bcdp.core.numbers import brief_number, to_fraction

Point = tuple

#: Largest number of points a :class:`ProductDomain` enumerates (2^20): every point is stored, and
#: the exact engines loop over them, so larger products are refused up front with their size.
MAX_DOMAIN_SIZE = 2 ** 20


def product_size(shape: Sequence[int]) -> int:
    """The number of points of a product with coordinate sets of the given sizes (no enumeration)."""
    size = 1
    for m in shape:
        size *= m
    return size


def check_domain_size(shape: Sequence[int], what: str = "the product domain", cap: int = MAX_DOMAIN_SIZE) -> None:
    """Refuse (:class:`InvalidInputError`, with the size) a product of more than ``cap`` points."""
    size = product_size(shape)
    if size > cap:
        sizes = sorted(set(shape))
        form = (f"{sizes[0]}^{len(shape)}" if len(sizes) == 1 else " x ".join(map(str, shape))
                if len(shape) <= 8 else f"a product of {len(shape)} coordinate sets")
        raise InvalidInputError(f"{what} has {size} points ({form}), beyond the cap of {cap} "
                                f"that exact enumeration handles")


@dataclass(frozen=True)
class ProductDomain:
    """The product X_1 x ... x X_d of finite coordinate sets, points in lexicographic order."""

    coordinate_values: tuple[tuple[Hashable, ...], ...]
    points: tuple[Point, ...] = field(init=False, repr=False)
    index: dict = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        values = tuple(tuple(v) for v in self.coordinate_values)
        if not values:
            raise InvalidInputError("a domain needs at least one coordinate")
        for j, vals in enumerate(values):
            if not vals:
                raise InvalidInputError(f"coordinate {j} has no values")
            if len(set(vals)) != len(vals):
                raise InvalidInputError(f"coordinate {j} lists a value twice: {vals}")
        object.__setattr__(self, "coordinate_values", values)
        check_domain_size([len(v) for v in values])
        pts = tuple(itertools.product(*values))
        object.__setattr__(self, "points", pts)
        object.__setattr__(self, "index", {p: k for k, p in enumerate(pts)})

    @classmethod
    def binary(cls, d: int, values: tuple = (0, 1)) -> "ProductDomain":
        return cls(tuple(tuple(values) for _ in range(d)))

    @classmethod
    def from_points(cls, points: Sequence[Sequence[Hashable]]) -> "ProductDomain":
        """Domain whose coordinate sets are the values seen, in order of first appearance.

        The points must be exactly the full product (each once); otherwise the error names a
        missing or repeated point.
        """
        pts = [tuple(p) for p in points]
        if not pts:
            raise InvalidInputError("no input points given")
        d = len(pts[0])
        for k, p in enumerate(pts):
            if len(p) != d:
                raise InvalidInputError(f"input {k} has {len(p)} coordinates, input 0 has {d}")
        values: list[list] = [[] for _ in range(d)]
        for p in pts:
            for j, v in enumerate(p):
                if v not in values[j]:
                    values[j].append(v)
        dom = cls(tuple(tuple(v) for v in values))
        seen: dict = {}
        for k, p in enumerate(pts):
            if p in seen:
                raise InvalidInputError(f"input {k} repeats input {seen[p]}: {list(p)}")
            seen[p] = k
        if len(pts) != dom.size:
            missing = next(p for p in dom.points if p not in seen)
            raise InvalidInputError(
                f"inputs must form the full product domain of size {dom.size}; "
                f"{len(pts)} given, e.g. {list(missing)} is missing"
            )
        return dom

    @property
    def d(self) -> int:
        return len(self.coordinate_values)

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(len(v) for v in self.coordinate_values)

    @property
    def size(self) -> int:
        return len(self.points)


@dataclass(frozen=True)
class PointSubset:
    """Some points of a product X_1 x ... x X_d, in the order given, without enumerating the product.

    It offers the attributes of :class:`ProductDomain` that the exact engines read
    (``coordinate_values``, ``points``, ``index``, ``d``, ``shape``, ``size``), so a
    :class:`Mechanism` can be given on the listed points only: e.g. the datasets listed in a
    ``bcdp partial audit`` file, which may be a few datasets of a product of 2^30 (only pairs of
    listed points are ever compared, so nothing else is needed).  ``size`` is the number of listed
    points; :attr:`product_size` is the size of the whole product (computed, not enumerated).
    """

    coordinate_values: tuple[tuple[Hashable, ...], ...]
    points: tuple[Point, ...]
    index: dict = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        values = tuple(tuple(v) for v in self.coordinate_values)
        if not values:
            raise InvalidInputError("a domain needs at least one coordinate")
        sets = []
        for j, vals in enumerate(values):
            if not vals:
                raise InvalidInputError(f"coordinate {j} has no values")
            if len(set(vals)) != len(vals):
                raise InvalidInputError(f"coordinate {j} lists a value twice: {vals}")
            sets.append(set(vals))
        pts = tuple(tuple(p) for p in self.points)
        if not pts:
            raise InvalidInputError("no points listed")
        index: dict = {}
        for k, p in enumerate(pts):
            if len(p) != len(values):
                raise InvalidInputError(f"point {k} has {len(p)} coordinates, the product has {len(values)}")
            bad = next((j for j, v in enumerate(p) if v not in sets[j]), None)
            if bad is not None:
                raise InvalidInputError(f"point {k}: coordinate {bad} value {p[bad]!r} is not in its set")
            if p in index:
                raise InvalidInputError(f"point {k} repeats point {index[p]}")
            index[p] = k
        object.__setattr__(self, "coordinate_values", values)
        object.__setattr__(self, "points", pts)
        object.__setattr__(self, "index", index)

    @property
    def d(self) -> int:
        return len(self.coordinate_values)

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(len(v) for v in self.coordinate_values)

    @property
    def size(self) -> int:
        return len(self.points)

    @property
    def product_size(self) -> int:
        """Points of the whole product X_1 x ... x X_d (a number, nothing enumerated)."""
        return product_size(self.shape)


def _exact_row(row: Sequence[Any], what: str) -> tuple[Fraction, ...]:
    out = []
    for m, entry in enumerate(row):
        p = to_fraction(entry, f"{what}, entry {m}")
        if p < 0:
            raise InvalidInputError(f"{what}, entry {m} is negative ({brief_number(p)})")
        out.append(p)
    return tuple(out)


@dataclass(frozen=True)
class Prior:
    """An exact pmf on a :class:`ProductDomain` (``pmf[k]`` = pi(domain.points[k]))."""

    domain: ProductDomain
    pmf: tuple[Fraction, ...]

    def __post_init__(self) -> None:
        pmf = _exact_row(self.pmf, "prior")
        if len(pmf) != self.domain.size:
            raise InvalidInputError(
                f"prior has {len(pmf)} entries but the domain has {self.domain.size} points"
            )
        total = sum(pmf, Fraction(0))
        if total != 1:
            raise InvalidInputError(f"prior sums to {brief_number(total)}, not 1")
        object.__setattr__(self, "pmf", pmf)

    # -- constructors -------------------------------------------------------------------------
    @classmethod
    def from_table(cls, table: Mapping[Sequence, Any] | Iterable[tuple[Sequence, Any]],
                   domain: ProductDomain | None = None) -> "Prior":
        """From ``{point: probability}`` or an iterable of ``(point, probability)`` pairs (missing
        points of ``domain`` get probability 0; a point listed twice gets the sum).  Without
        ``domain``, the domain is :meth:`ProductDomain.from_points` of the listed points."""
        items = list(table.items()) if isinstance(table, Mapping) else list(table)
        if domain is None:
            domain = ProductDomain.from_points([p for p, _ in items])
        pmf = [Fraction(0)] * domain.size
        for p, prob in items:
            key = tuple(p)
            if key not in domain.index:
                raise InvalidInputError(f"prior point {list(key)} is not in the domain")
            pmf[domain.index[key]] += to_fraction(prob, f"prior[{list(key)}]")
        return cls(domain, tuple(pmf))

    @classmethod
    def independent(cls, marginals: Sequence[Mapping[Hashable, Any]]) -> "Prior":
        """Product of independent marginals, each ``{value: probability}`` summing to one."""
        exact = []
        for j, marg in enumerate(marginals):
            m = {v: to_fraction(p, f"marginal {j}[{v!r}]") for v, p in marg.items()}
            if any(p < 0 for p in m.values()):
                raise InvalidInputError(f"marginal {j} has a negative entry")
            if sum(m.values(), Fraction(0)) != 1:
                raise InvalidInputError(f"marginal {j} sums to {brief_number(sum(m.values()))}, not 1")
            exact.append(m)
        domain = ProductDomain(tuple(tuple(m) for m in exact))
        pmf = []
        for p in domain.points:
            prob = Fraction(1)
            for j, v in enumerate(p):
                prob *= exact[j][v]
            pmf.append(prob)
        return cls(domain, tuple(pmf))

    @classmethod
    def uniform(cls, domain: ProductDomain) -> "Prior":
        return cls(domain, tuple(Fraction(1, domain.size) for _ in domain.points))

    @classmethod
    def correlated_bits(cls, d: int, q: Any, values: tuple = (0, 1)) -> "Prior":
        """Appendix B.1, eqs. (59)-(60): with probability q all coordinates equal one Bern(1/2) bit
        Z, otherwise they are i.i.d. Bern(1/2).  ``values`` names the two bit values (the paper's
        experiment uses 2 Bern(1/2) - 1, i.e. ``values=(-1, 1)``).

        pi(x) = q/2 [x constant] + (1 - q)/2^d.
        """
        qf = to_fraction(q, "q")
        if not 0 <= qf <= 1:
            raise InvalidInputError(f"q = {qf} must lie in [0, 1]")
        if d < 1:
            raise InvalidInputError("d must be at least 1")
        domain = ProductDomain.binary(d, values)
        base = (1 - qf) / 2**d
        pmf = tuple(base + (qf / 2 if len(set(p)) == 1 else 0) for p in domain.points)
        return cls(domain, pmf)

    # -- views --------------------------------------------------------------------------------
    def support(self) -> list[int]:
        return [k for k, p in enumerate(self.pmf) if p > 0]

    def marginal(self, i: int) -> dict[Hashable, Fraction]:
        """pi_i(v) = pi(x_i = v) for every value v of coordinate i."""
        out = {v: Fraction(0) for v in self.domain.coordinate_values[i]}
        for p, prob in zip(self.domain.points, self.pmf):
            out[p[i]] += prob
        return out

    def rest_conditional(self, i: int, value: Hashable) -> dict[Point, Fraction]:
        """pi_{x_-i | x_i = value} as ``{x_-i: probability}`` (all x_-i listed); a value of
        probability 0, or not a value of coordinate i, has no conditional (:class:`InvalidInputError`)."""
        marginal = self.marginal(i)
        if value not in marginal:
            raise InvalidInputError(f"{value!r} is not a value of coordinate x_{i}")
        mass = marginal[value]
        if mass == 0:
            raise InvalidInputError(f"pi(x_{i} = {value!r}) = 0: conditional undefined")
        out: dict[Point, Fraction] = {}
        for p, prob in zip(self.domain.points, self.pmf):
            if p[i] == value:
                out[p[:i] + p[i + 1:]] = prob / mass
        return out


@dataclass(frozen=True)
class Mechanism:
    """Markov kernel from a finite product domain (or listed points of one, :class:`PointSubset`)
    to a finite output set, in exact arithmetic."""

    domain: ProductDomain | PointSubset
    outputs: tuple[Hashable, ...]
    kernel: tuple[tuple[Fraction, ...], ...]

    def __post_init__(self) -> None:
        outputs = tuple(self.outputs)
        if not outputs:
            raise InvalidInputError("a mechanism needs at least one output")
        if len(set(outputs)) != len(outputs):
            raise InvalidInputError("outputs must be distinct")
        if len(self.kernel) != self.domain.size:
            raise InvalidInputError(
                f"kernel has {len(self.kernel)} rows but the domain has {self.domain.size} points"
            )
        rows = []
        for k, row in enumerate(self.kernel):
            point = list(self.domain.points[k])
            if len(row) != len(outputs):
                raise InvalidInputError(
                    f"kernel row {k} (input {point}) has {len(row)} entries, "
                    f"there are {len(outputs)} outputs"
                )
            exact = _exact_row(row, f"kernel row {k} (input {point})")
            total = sum(exact, Fraction(0))
            if total != 1:
                raise InvalidInputError(f"kernel row {k} (input {point}) sums to {brief_number(total)}, not 1")
            rows.append(exact)
        object.__setattr__(self, "outputs", outputs)
        object.__setattr__(self, "kernel", tuple(rows))

    @classmethod
    def from_function(cls, domain: ProductDomain, outputs: Sequence[Hashable],
                      law: Callable[[Point], Mapping[Hashable, Any]]) -> "Mechanism":
        """``law(x)`` returns ``{output: probability}`` (unlisted outputs get 0)."""
        outputs = tuple(outputs)
        pos = {y: m for m, y in enumerate(outputs)}
        rows = []
        for x in domain.points:
            row = [Fraction(0)] * len(outputs)
            for y, prob in law(x).items():
                if y not in pos:
                    raise InvalidInputError(f"law({list(x)}) puts mass on unknown output {y!r}")
                row[pos[y]] += to_fraction(prob, f"law({list(x)})[{y!r}]")
            rows.append(tuple(row))
        return cls(domain, outputs, tuple(rows))

    @classmethod
    def deterministic(cls, domain: ProductDomain, fn: Callable[[Point], Hashable]) -> "Mechanism":
        """The mechanism that outputs fn(x) with probability 1; outputs are the images, in order of
        first appearance over ``domain.points``."""
        images = [fn(x) for x in domain.points]
        outputs = tuple(dict.fromkeys(images))
        return cls.from_function(domain, outputs, lambda x: {fn(x): 1})

    def row(self, x: Sequence) -> tuple[Fraction, ...]:
        return self.kernel[self.domain.index[tuple(x)]]


def compose(*mechanisms: Mechanism) -> Mechanism:
    """Independent runs on the same input: output (y_1, ..., y_k), law the product of the rows."""
    if not mechanisms:
        raise InvalidInputError("compose needs at least one mechanism")
    domain = mechanisms[0].domain
    for m in mechanisms[1:]:
        if m.domain != domain:
            raise InvalidInputError("composed mechanisms must share the input domain")
    outputs = tuple(itertools.product(*(m.outputs for m in mechanisms)))
    index_tuples = list(itertools.product(*(range(len(m.outputs)) for m in mechanisms)))
    rows = []
    for k in range(domain.size):
        row = []
        for idx in index_tuples:
            prob = Fraction(1)
            for m, j in zip(mechanisms, idx):
                prob *= m.kernel[k][j]
            row.append(prob)
        rows.append(tuple(row))
    return Mechanism(domain, outputs, tuple(rows))


def post_process(mechanism: Mechanism, fn: Callable[[Hashable], Hashable]) -> Mechanism:
    """K o M for a deterministic map K: Y -> Z (Proposition 5); Z = the image of Y."""
    images = [fn(y) for y in mechanism.outputs]
    z_outputs = tuple(dict.fromkeys(images))
    pos = {z: n for n, z in enumerate(z_outputs)}
    rows = []
    for row in mechanism.kernel:
        new = [Fraction(0)] * len(z_outputs)
        for prob, z in zip(row, images):
            new[pos[z]] += prob
        rows.append(tuple(new))
    return Mechanism(mechanism.domain, z_outputs, tuple(rows))


def post_process_kernel(mechanism: Mechanism, z_outputs: Sequence[Hashable],
                        kernel: Sequence[Sequence[Any]]) -> Mechanism:
    """K o M for a Markov kernel K from Y to Z (``kernel[m][n]`` = K(z_n | y_m))."""
    z_outputs = tuple(z_outputs)
    if len(kernel) != len(mechanism.outputs):
        raise InvalidInputError(
            f"post-processing kernel has {len(kernel)} rows, the mechanism has "
            f"{len(mechanism.outputs)} outputs"
        )
    second = []
    for m, row in enumerate(kernel):
        if len(row) != len(z_outputs):
            raise InvalidInputError(f"post-processing kernel row {m} has {len(row)} entries, "
                                    f"expected {len(z_outputs)}")
        exact = _exact_row(row, f"post-processing kernel row {m}")
        if sum(exact, Fraction(0)) != 1:
            raise InvalidInputError(f"post-processing kernel row {m} sums to {brief_number(sum(exact))}, not 1")
        second.append(exact)
    rows = []
    for row in mechanism.kernel:
        rows.append(tuple(sum((row[m] * second[m][n] for m in range(len(row))), Fraction(0))
                          for n in range(len(z_outputs))))
    return Mechanism(mechanism.domain, z_outputs, tuple(rows))
