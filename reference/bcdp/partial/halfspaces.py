"""Partial DP paper (Ghazi, Kumar, Manurangsi, Steinke, arXiv:2209.04053), Section 6: robust
learning of halfspaces -- Lemma 21 (label randomized response), Lemma 23 (integrality step), and the
public face of the Section 6 modules.

* :mod:`bcdp.partial.robust_error`: the cube, halfspaces, dec(x, y, h), the robust error of Def. 19;
* :mod:`bcdp.partial.robust_erm`: Lemma 22's smoothed loss and exponential mechanism (exact,
  >= 50 digits, certified eps0 over feature changes, float64 sampler);
* here: label randomized response (Lemma 21, Sec. 6.1): each label kept with probability
  e^eps/(e^eps + 1), as an exact :class:`~bcdp.core.spaces.Mechanism` on a
  :func:`~bcdp.partial.pure.dataset_domain` whose records are (x_1, ..., x_d, y) (the label is the
  last attribute: "for nabla0DP ... a label is treated as another attribute", App. A.3), its
  composition with a learner, and Lemma 21's risk identity, printed (affine) and corrected (extra
  P_D[C_h]/(e^eps+1), ``docs/errata.md`` E-PDP-Lemma21);
* the integrality step of Lemma 23's proof (claim (4), Sec. 6.3; ``docs/errata.md`` E-PDP-Lemma23).

Records are tuples (x_1, ..., x_d, y) with every entry in {-1, +1}.  Exact functions refuse floats
(:func:`bcdp.core.numbers.to_fraction`).  Every name of the three modules is importable from here.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from bcdp.core.errors import InvalidInputError
from bcdp.core.numbers import INFINITY, to_fraction
from bcdp.core.spaces import Mechanism
from bcdp.partial.pure import dataset_domain, hamming, per_attribute_matrix
from bcdp.partial.robust_erm import (  # noqa: F401  (public face of Section 6)
    MP_DIGITS,
    em_epsilon_ratio,
    em_feature_epsilon_certified,
    em_log_ratio_exact,
    em_probabilities_mp,
    em_scores,
    empirical_robust_error,
    empirical_smoothed_loss,
    exponential_mechanism_exact,
    loss_lcm,
    loss_numerator,
    sample_exponential_mechanism,
    smoothed_loss,
    smoothed_loss_from_distance,
)
from bcdp.partial.robust_error import (  # noqa: F401  (public face of Section 6)
    LABELS,
    SIGN_ZERO_OPTIONS,
    Hypothesis,
    Point,
    ball_mixed,
    check_distribution,
    check_hypothesis,
    cube,
    decision_distance,
    halfspace,
    integer_halfspaces,
    mixed_ball_probability,
    robust_error,
    robust_radius,
    robustly_wrong,
)

if TYPE_CHECKING:  # pragma: no cover
    import sympy


# -- Lemma 21: label randomized response -------------------------------------------------------------

def _ratio(ratio: Any) -> Fraction:
    r = to_fraction(ratio, "e^eps")
    if r < 1:
        raise InvalidInputError(f"e^eps = {r} < 1: eps must be >= 0")
    return r


def rr_keep_probability(ratio: Any) -> Fraction:
    """e^eps / (e^eps + 1) for e^eps = ``ratio`` (exact), the eps-DP binary RR of Lemma 21."""
    r = _ratio(ratio)
    return r / (r + 1)


def rr_label_distribution(dist: Mapping[tuple, Any], ratio: Any, d: int,
                          flip: str = "negate") -> dict[tuple, Fraction]:
    """D'(x, y) = e^eps/(e^eps+1) D(x, y) + 1/(e^eps+1) D(x, flip(y)) (proof of Lemma 21, the
    definition of D').

    ``flip="negate"`` is the correct -y for labels in {-1, +1}; ``flip="printed"`` is the printed
    1 - y, which maps {-1, +1} to {2, 0} (outside the label set), so D(x, 1 - y) = 0 and D' has
    total mass e^eps/(e^eps+1) != 1: it is returned as is (not a distribution) to show it."""
    D = check_distribution(dist, d)
    keep = rr_keep_probability(ratio)
    out: dict[tuple, Fraction] = {}
    for x in cube(d):
        for y in LABELS:
            if flip == "negate":
                other = D.get((x, -y), Fraction(0))
            elif flip == "printed":
                other = D.get((x, 1 - y), Fraction(0))  # never in the support: 1 - y in {0, 2}
            else:
                raise InvalidInputError(f"flip must be 'negate' or 'printed', got {flip!r}")
            v = keep * D.get((x, y), Fraction(0)) + (1 - keep) * other
            if v:
                out[(x, y)] = v
    return out


def lemma21_printed_rr_risk(risk: Any, ratio: Any) -> Fraction:
    """Printed (proof of Lemma 21, "this is exactly equivalent to"):
    R_gamma(h, D') = 1/(e^eps+1) + (e^eps-1)/(e^eps+1) R_gamma(h, D)."""
    r = _ratio(ratio)
    return 1 / (r + 1) + (r - 1) / (r + 1) * to_fraction(risk, "risk")


def lemma21_rr_risk(risk: Any, mixed_probability: Any, ratio: Any) -> Fraction:
    """Corrected Lemma 21 identity (``docs/errata.md`` E-PDP-Lemma21): for D' the RR-label distribution,

    R_gamma(h, D') = 1/(e^eps+1) + (e^eps-1)/(e^eps+1) R_gamma(h, D) + P_D[C_h]/(e^eps+1),

    C_h = {the closed gamma d-ball around x holds both labels}.  Valid for all gamma >= 0 and all
    h; the printed form is the case P_D[C_h] = 0 (e.g. gamma d < 1).  Derivation: for each x,
    1[wrong for y] + 1[wrong for -y] = 1 + 1[C_h(x)] (see :func:`lemma21_symbolic_derivation`)."""
    return lemma21_printed_rr_risk(risk, ratio) + to_fraction(mixed_probability, "P[C]") / (_ratio(ratio) + 1)


def lemma21_symbolic_derivation(h: Hypothesis, d: int, gamma: Any) -> dict[str, sympy.Expr]:
    """R_gamma(h, D') - [corrected form] and - [printed form] in sympy for a *generic* D on
    {-1,+1}^d x {-1,+1} (one symbol per point, constrained only by sum = 1) and symbolic
    E = e^eps.  Returns the two simplified differences (the first must be 0 identically)."""
    import sympy

    check_hypothesis(h, d)
    E = sympy.Symbol("E", positive=True)
    pts = [(x, y) for x in cube(d) for y in LABELS]
    syms = {pt: sympy.Symbol(f"D_{k}", nonnegative=True) for k, pt in enumerate(pts)}
    last = pts[-1]
    syms[last] = 1 - sum(s for pt, s in syms.items() if pt != last)  # sum D = 1
    keep, other = E / (E + 1), 1 / (E + 1)
    r_prime = sum(((keep * syms[(x, y)] + other * syms[(x, -y)]) * int(robustly_wrong(h, x, y, gamma))
                   for (x, y) in pts), sympy.Integer(0))
    risk = sum((syms[(x, y)] * int(robustly_wrong(h, x, y, gamma)) for (x, y) in pts), sympy.Integer(0))
    mixed = sum((syms[(x, y)] * int(ball_mixed(h, x, gamma)) for (x, y) in pts), sympy.Integer(0))
    printed = 1 / (E + 1) + (E - 1) / (E + 1) * risk
    def canon(expr: sympy.Expr) -> sympy.Expr:  # rational in E, linear in D: cancel is exact
        return sympy.factor(sympy.cancel(sympy.together(expr)))

    return {"corrected_minus_actual": canon(printed + mixed / (E + 1) - r_prime),
            "printed_minus_actual": canon(printed - r_prime),
            "mixed_ball_mass": sympy.expand(mixed)}


def label_rr_mechanism(d: int, n: int, ratio: Any) -> Mechanism:
    """Lemma 21's A' first stage on datasets of n records (x_1..x_d, y): the output is the dataset
    with every label independently kept w.p. e^eps/(e^eps+1) (features passed through).  Exact
    Fraction kernel on ``dataset_domain([(-1,1)]*(d+1), n)``."""
    keep = rr_keep_probability(ratio)
    dom = dataset_domain([LABELS] * (d + 1), n)
    outputs = dom.points
    rows = []
    for p in dom.points:
        row = []
        for q in outputs:
            prob = Fraction(1)
            for i in range(n):
                base = i * (d + 1)
                if p[base:base + d] != q[base:base + d]:
                    prob = Fraction(0)
                    break
                prob *= keep if p[base + d] == q[base + d] else 1 - keep
            row.append(prob)
        rows.append(tuple(row))
    return Mechanism(dom, outputs, tuple(rows))


def compose_after_label_rr(learner: Mechanism, d: int, n: int, ratio: Any) -> Mechanism:
    """A'(S) = A(x_1, y~_1, ..., x_n, y~_n) with y~ the RR labels (Lemma 21): the exact mixture
    sum_{S~} P[RR(S) = S~] A(S~)(h).  ``learner`` is a Mechanism on the same dataset domain."""
    rr = label_rr_mechanism(d, n, ratio)
    if learner.domain != rr.domain:
        raise InvalidInputError("the learner must be a Mechanism on dataset_domain([(-1,1)]*(d+1), n)")
    rows = []
    for k in range(rr.domain.size):
        row = [Fraction(0)] * len(learner.outputs)
        for m, prob in enumerate(rr.kernel[k]):
            if prob:
                lrow = learner.kernel[m]  # rr outputs are the domain points in the same order
                for t in range(len(row)):
                    row[t] += prob * lrow[t]
        rows.append(tuple(row))
    return Mechanism(learner.domain, learner.outputs, tuple(rows))


@dataclass(frozen=True)
class SampleLabelEpsilons:
    """Per-attribute ratios split into features (eps-sample-nabla0-DP, Sec. 6, the paragraph before Sec. 6.1) and the label."""

    feature_ratio: Fraction | float  # max over records i and feature attributes j < d
    label_ratio: Fraction | float    # max over records i of the label attribute
    witness_feature: dict | None
    witness_label: dict | None


def sample_and_label_epsilons(mech: Mechanism, d: int, n: int) -> SampleLabelEpsilons:
    """e^{eps} for feature changes (eps-sample-nabla0-DP: one feature of one sample) and for label
    changes, from :func:`bcdp.partial.pure.per_attribute_matrix` (records have d + 1 attributes)."""
    mat = per_attribute_matrix(mech, n, d + 1)
    feat, lab = Fraction(1), Fraction(1)
    wf = wl = None
    for row in mat:
        for j, p in enumerate(row):
            if p.witness is None:
                continue
            if j < d:
                if wf is None or p.ratio > feat:
                    feat, wf = p.ratio, p.witness
            elif wl is None or p.ratio > lab:
                lab, wl = p.ratio, p.witness
    return SampleLabelEpsilons(feat, lab, wf, wl)


# -- Lemma 23: the integrality step --------------------------------------------------------------------

def lemma23_step_holds(w: Sequence[Any], z: Point, nu: Any, radius: int | None = None) -> bool | None:
    """The proof step of Lemma 23 (claim (4) of its proof, Sec. 6.3; ``docs/errata.md``
    E-PDP-Lemma23): with ||w||_1 = 1 and <w, z> < nu there is z' in the
    Hamming ball B_{2 nu d}(z) with <w, z'> < 0.  Returns None if the premise fails, otherwise
    whether such z' exists (brute force; ``radius`` defaults to floor(2 nu d))."""
    ws = [to_fraction(v, "w") for v in w]
    nu_f = to_fraction(nu, "nu")
    if sum(abs(v) for v in ws) != 1:
        raise InvalidInputError("need ||w||_1 = 1")
    d = len(ws)
    if sum(a * b for a, b in zip(ws, z)) >= nu_f:
        return None
    r = math.floor(2 * nu_f * d) if radius is None else radius
    for zp in cube(d):
        if hamming(z, zp) <= r and sum(a * b for a, b in zip(ws, zp)) < 0:
            return True
    return False


def lemma23_minimal_radius(w: Sequence[Any], z: Point) -> int | float:
    """min{||z' - z||_0 : <w, z'> < 0} over the cube (``INFINITY`` only for w = 0): the Hamming
    radius the Lemma 23 step needs at (w, z)."""
    ws = [to_fraction(v, "w") for v in w]
    if len(z) != len(ws):
        raise InvalidInputError("w and z have different lengths")
    best: int | float = INFINITY
    for zp in cube(len(ws)):
        if sum(a * b for a, b in zip(ws, zp)) < 0:
            best = min(best, hamming(z, zp))
    return best
