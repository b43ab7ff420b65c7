"""High-precision (mpmath) twins of the exact engine, for kernels with irrational entries.

:mod:`bcdp.bayesian.notions` works in Fractions.  Mechanisms built from irrational budgets (logs and
exponentials, e.g. Mechanism 1 with the eq. (16) allocation) have kernels that are not rational,
so this module evaluates the same quantities with ``mpmath`` floating point at a caller-chosen
number of decimal digits (``dps``, default 60).  It is a transcription of :mod:`bcdp.bayesian.notions`,
not a new method: every function uses the same finite reductions, proved in that module's
docstring and tested there against the literal definitions:

* (R1) the supremum over events R is attained at a singleton output, so every parameter is a
  maximum over outputs of a ratio of two probabilities;
* (R2) the supremum over conditioning sets is attained at singletons: LDP/BDP compare kernel rows
  (on the prior's support for BDP), BCDP compares the conditional output laws
  P{M = y | x_i = v} of eq. (9) for two supported values v, v';
* for each output column the largest ratio of two rows is (column max) / (column min), so the
  search is linear (:func:`max_column_ratio`: the core implementation run at ``dps`` digits);
  0/0 columns are skipped, a positive max over a zero min is infinite.

Priors stay exact (:class:`bcdp.core.spaces.Prior`, Fractions); their entries are rounded to ``dps``
digits only when they multiply kernel entries.  Coordinate dependence (eq. 13) involves only the
prior and is computed exactly by :func:`bcdp.bayesian.notions.coordinate_dependence`.

Accuracy.  All sums are of non-negative terms, so every computed probability has relative error
at most about (number of operations) * 10^-dps, and every log-ratio an absolute error of the same
order; ``tests/bayesian/test_highprec.py`` checks agreement with the Fraction engine to 50 digits at
dps = 60 on random rational instances (zeros and 2^-k entries included).  Ties between different
entries may be broken differently from the exact engine (values agree, witnesses may differ).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import mpmath

from bcdp.bayesian.exact_inputs import exact_expr
from bcdp.core.divergences import max_column_ratio as core_max_column_ratio
from bcdp.core.errors import CertificationError, InvalidInputError
from bcdp.core.intervals import arb_precision, ball, exact_mpf
from bcdp.core.numbers import GUARD_DPS, INFINITY, MAX_DPS, MIN_DPS, check_precision, to_fraction
from bcdp.core.spaces import Mechanism, Prior, ProductDomain

DEFAULT_DPS = 60


# -- scalars -------------------------------------------------------------------------------------

def mpf_of(value: Any, dps: int = DEFAULT_DPS) -> mpmath.mpf:
    """``value`` rounded to ``dps`` digits.

    mpf values are rounded to ``dps``; exact numbers (ints, Fractions, sympy Rationals, strings such
    as ``"1/3"`` or ``"0.2"``; floats refused, :mod:`bcdp.bayesian.exact_inputs`) are rounded once;
    exact sympy closed forms (rationals, exp, log, Min, Max) go through a certified arb ball
    (:func:`bcdp.core.intervals.ball`) at about 3.4 dps + 64 bits, whose width is
    checked to be below 10^-(dps+5) relative (:class:`~bcdp.core.errors.CertificationError` if not).
    """
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS + GUARD_DPS)
    if isinstance(value, mpmath.mpf):
        with mpmath.workdps(dps):
            return +value
    if not type(value).__module__.startswith("sympy"):
        frac: Fraction | None = to_fraction(value, "value")
    else:
        import sympy

        expr = exact_expr(value, "value")
        if expr is sympy.oo:
            return mpmath.inf
        frac = Fraction(int(expr.p), int(expr.q)) if isinstance(expr, sympy.Rational) else None
    if frac is not None:
        with mpmath.workdps(dps):
            return mpmath.mpf(frac.numerator) / frac.denominator
    bits = int(dps * 3.33) + 64
    with arb_precision(bits):
        enc = ball(expr, bits)
        if not enc.is_finite():
            raise CertificationError(f"enclosure of {expr} is not finite at {bits} bits")
        lo, hi = exact_mpf(enc.lower()), exact_mpf(enc.upper())  # ends rounded outward at `bits`
    with mpmath.workprec(bits):
        mid = (lo + hi) / 2
        width = hi - lo
        if not width <= mpmath.mpf(10) ** (-(dps + 5)) * max(1, abs(mid)):
            raise CertificationError(f"enclosure of {expr} too wide at {bits} bits: {width}")
    with mpmath.workdps(dps):
        return +mid


def log_of(ratio: mpmath.mpf, dps: int = DEFAULT_DPS) -> mpmath.mpf:
    """log of a ratio >= 1 (infinite stays infinite)."""
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS + GUARD_DPS)
    if ratio == mpmath.inf:
        return mpmath.inf
    with mpmath.workdps(dps):
        return mpmath.log(ratio)


def nstr(value: mpmath.mpf, digits: int = 20) -> str:
    """A decimal string with ``digits`` significant digits ("inf" for infinity)."""
    if value == mpmath.inf:
        return "inf"
    return mpmath.nstr(value, digits, min_fixed=-5, max_fixed=5)


# -- mechanisms ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class HPMechanism:
    """A Markov kernel with mpmath entries: ``kernel[k][m]`` = mu_{x_k}({y_m}) at ``dps`` digits.

    Rows are checked non-negative and to sum to one within 10^-(dps-10).
    """

    domain: ProductDomain
    outputs: tuple[Hashable, ...]
    kernel: tuple[tuple[mpmath.mpf, ...], ...]
    dps: int = DEFAULT_DPS
    meta: dict = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "dps", check_precision(self.dps, "dps", MIN_DPS, MAX_DPS + GUARD_DPS))
        outputs = tuple(self.outputs)
        if not outputs or len(set(outputs)) != len(outputs):
            raise InvalidInputError("outputs must be non-empty and distinct")
        if len(self.kernel) != self.domain.size:
            raise InvalidInputError(f"kernel has {len(self.kernel)} rows, domain has {self.domain.size}")
        tol = mpmath.mpf(10) ** (-(self.dps - 10))
        with mpmath.workdps(self.dps):
            for k, row in enumerate(self.kernel):
                if len(row) != len(outputs):
                    raise InvalidInputError(f"kernel row {k} has {len(row)} entries, {len(outputs)} outputs")
                if any(p < 0 for p in row):
                    raise InvalidInputError(f"kernel row {k} has a negative entry")
                if abs(mpmath.fsum(row) - 1) > tol:
                    raise InvalidInputError(f"kernel row {k} sums to {mpmath.fsum(row)}, not 1")
        object.__setattr__(self, "outputs", outputs)

    @classmethod
    def from_exact(cls, mechanism: Mechanism, dps: int = DEFAULT_DPS) -> HPMechanism:
        dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS + GUARD_DPS)
        rows = tuple(tuple(mpf_of(p, dps) for p in row) for row in mechanism.kernel)
        return cls(mechanism.domain, mechanism.outputs, rows, dps)

    def row(self, x: Sequence) -> tuple[mpmath.mpf, ...]:
        return self.kernel[self.domain.index[tuple(x)]]


@dataclass(frozen=True)
class HPLogRatio:
    """A parameter log(ratio) with ``ratio`` an mpf >= 1 or ``mpmath.inf``, and its witness."""

    ratio: Any
    witness: dict | None = field(default=None, compare=False)
    dps: int = DEFAULT_DPS

    def __post_init__(self) -> None:
        object.__setattr__(self, "dps", check_precision(self.dps, "dps", MIN_DPS, MAX_DPS + GUARD_DPS))

    @property
    def is_infinite(self) -> bool:
        return self.ratio == mpmath.inf

    @property
    def value(self) -> mpmath.mpf:
        return log_of(self.ratio, self.dps)

    def to_json(self, digits: int = 20) -> dict[str, Any]:
        return {"value": nstr(self.value, digits), "witness": self.witness}


def _check_pair(mechanism: HPMechanism, prior: Prior | None) -> None:
    if prior is not None and prior.domain != mechanism.domain:
        raise InvalidInputError("prior and mechanism are defined on different domains")


# -- the reductions (mirror of bcdp.bayesian.notions) -----------------------------------------------------

def max_column_ratio(rows: Sequence[Sequence[mpmath.mpf]], labels: Sequence[Hashable],
                     outputs: Sequence[Hashable], dps: int = DEFAULT_DPS) -> tuple[Any, dict | None]:
    """:func:`bcdp.core.divergences.max_column_ratio` on mpmath rows, at ``dps`` digits.

    Max over row pairs and columns of rows[a][y] / rows[b][y], as (column max) / (column min) per
    column; 0/0 skipped, positive/0 infinite; same witness format and tie-breaking (first column,
    first row) as the exact engine.  The core function is generic in the number type (it only
    compares entries and divides once per column), so there is one implementation; this adapter
    sets the working precision and maps its two exact-only results to mpmath: the infinite
    sentinel becomes ``mpmath.inf`` and the empty maximum (no witness) ``mpf(1)``.
    """
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS + GUARD_DPS)
    with mpmath.workdps(dps):
        ratio, witness = core_max_column_ratio(rows, labels, outputs)
    if ratio == INFINITY:
        return mpmath.inf, witness
    if witness is None:
        return mpmath.mpf(1), None
    return ratio, witness


def _point_witness(w: dict | None) -> dict | None:
    if w is None:
        return None
    return {"x": list(w["numerator"]), "x_prime": list(w["denominator"]), "R": [w["output"]]}


def ldp_epsilon(mechanism: HPMechanism) -> HPLogRatio:
    """Definition 1 via (R1): max_y log(max_x mu_x(y) / min_x mu_x(y)) (mirror of notions)."""
    ratio, w = max_column_ratio(mechanism.kernel, mechanism.domain.points, mechanism.outputs, mechanism.dps)
    return HPLogRatio(ratio, _point_witness(w), mechanism.dps)


def bdp_epsilon(mechanism: HPMechanism, prior: Prior) -> HPLogRatio:
    """Definition 2 via (R1)-(R2): the LDP epsilon of the kernel restricted to supp(pi)."""
    _check_pair(mechanism, prior)
    support = prior.support()
    ratio, w = max_column_ratio([mechanism.kernel[k] for k in support],
                                [mechanism.domain.points[k] for k in support],
                                mechanism.outputs, mechanism.dps)
    if w is None:
        return HPLogRatio(ratio, None, mechanism.dps)
    return HPLogRatio(ratio, {"S": [list(w["numerator"])], "S_prime": [list(w["denominator"])],
                              "R": [w["output"]]}, mechanism.dps)


def cdp_vector(mechanism: HPMechanism) -> list[HPLogRatio]:
    """Definition 3 via (R1): per coordinate i, the max column ratio within each group of inputs
    sharing x_-i (mirror of notions)."""
    out = []
    dom = mechanism.domain
    for i in range(dom.d):
        groups: dict = {}
        for k, p in enumerate(dom.points):
            groups.setdefault(p[:i] + p[i + 1:], []).append(k)
        best: Any = mpmath.mpf(1)
        best_w = None
        for members in groups.values():
            ratio, w = max_column_ratio([mechanism.kernel[k] for k in members],
                                        [dom.points[k] for k in members], mechanism.outputs, mechanism.dps)
            if w is not None and (best_w is None or ratio > best):
                best, best_w = ratio, w
                if ratio == mpmath.inf:
                    break
        out.append(HPLogRatio(best, _point_witness(best_w), mechanism.dps))
    return out


def conditional_output_laws(mechanism: HPMechanism, prior: Prior, i: int) -> dict[Hashable, tuple]:
    """eq. (9): P{M(x) = y | x_i = v} for every value v with pi(x_i = v) > 0 (mirror of notions).

    The same sum as notions, sum_x [pi(x) / pi(x_i = v)] mu_x(y) over x with x_i = v, with each
    weight formed exactly (Fractions) and rounded once, and the sum taken by ``mpmath.fdot``."""
    _check_pair(mechanism, prior)
    dom = mechanism.domain
    dps = mechanism.dps
    n_out = len(mechanism.outputs)
    members: dict[Hashable, list[int]] = {}
    mass: dict[Hashable, Fraction] = {}
    for k, (p, prob) in enumerate(zip(dom.points, prior.pmf)):
        if prob == 0:
            continue
        members.setdefault(p[i], []).append(k)
        mass[p[i]] = mass.get(p[i], Fraction(0)) + prob
    order = [v for v in dom.coordinate_values[i] if v in members]
    out = {}
    with mpmath.workdps(dps):
        for v in order:
            ks = members[v]
            weights = [mpf_of(prior.pmf[k] / mass[v], dps) for k in ks]
            rows = [mechanism.kernel[k] for k in ks]
            out[v] = tuple(mpmath.fdot(weights, [r[m] for r in rows]) for m in range(n_out))
    return out


def bcdp_vector(mechanism: HPMechanism, prior: Prior) -> list[HPLogRatio]:
    """Definition 4 via (R1)-(R2): per coordinate, the max column ratio of the conditional output
    laws over supported values (mirror of notions; same witness keys)."""
    out = []
    for i in range(mechanism.domain.d):
        laws = conditional_output_laws(mechanism, prior, i)
        values = list(laws)
        ratio, w = max_column_ratio([laws[v] for v in values], values, mechanism.outputs, mechanism.dps)
        wit = None if w is None else {"coordinate": i, "S_i": [w["numerator"]],
                                      "S_i_prime": [w["denominator"]], "R": [w["output"]]}
        out.append(HPLogRatio(ratio, wit, mechanism.dps))
    return out
