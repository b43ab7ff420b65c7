"""Partial DP paper (Ghazi, Kumar, Manurangsi, Steinke), Section 6: robust learning of halfspaces.

Exact finite objects for Lemmas 21-23 (paper ``partial_dp.txt`` L1914-L2317):

* halfspaces h_w(x) = sign(<w, x>) on the cube {-1,+1}^d (L1917), with the convention for
  sign(0) an explicit option (``sign_zero``: ``"plus"``, ``"minus"`` or ``"refuse"``; the paper
  leaves it unspecified);
* the gamma-robust error R_gamma(h, D) of Def. 19 (L1929; the ball ||x' - x||_0 <= gamma d is
  closed and x' ranges over {-1,+1}^d, not the printed {0,1}^d, erratum E16);
* label randomized response (Lemma 21, L2007): each label kept with probability
  e^eps/(e^eps + 1), as an exact :class:`~bcdp.core.spaces.Mechanism` on a
  :func:`~bcdp.partial.pure.dataset_domain` whose records are (x_1, ..., x_d, y) (the label is the
  last attribute: "for nabla0DP the label is another attribute", L4031), and its composition with
  a learner;
* Lemma 21's risk identity, printed (affine) and corrected (extra P_D[C_h]/(e^eps+1), erratum E12);
* the smoothed loss of Lemma 22 (L2074) and the exponential mechanism over a finite class H with
  it, exact (Fraction kernel for a rational weight base; mpmath >= 50 digits with certified
  comparisons for rational eps) and a float64 numpy sampler;
* the integrality step of Lemma 23's proof (L2160-L2175, erratum E14).

Records are tuples (x_1, ..., x_d, y) with every entry in {-1, +1}.  Exact functions refuse floats
(:func:`bcdp.core.numbers.to_fraction`).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping, Sequence

import mpmath
import numpy as np
import sympy

from bcdp.core.errors import InvalidInputError
from bcdp.core.numbers import INFINITY, to_fraction
from bcdp.core.spaces import Mechanism
from bcdp.partial.pure import dataset_domain, per_attribute_matrix

LABELS = (-1, 1)
SIGN_ZERO_OPTIONS = ("plus", "minus", "refuse")
MP_DIGITS = 50

Point = tuple
Hypothesis = Mapping[Point, int]  # cube point -> label in {-1, +1}


# -- cube, halfspaces, distances ----------------------------------------------------------------

def cube(d: int) -> list[Point]:
    """All points of {-1,+1}^d in lexicographic order."""
    if not isinstance(d, int) or isinstance(d, bool) or d < 1:
        raise InvalidInputError(f"d must be a positive integer, got {d!r}")
    return list(itertools.product(LABELS, repeat=d))


def hamming(a: Sequence, b: Sequence) -> int:
    if len(a) != len(b):
        raise InvalidInputError(f"points of different lengths {len(a)} and {len(b)}")
    return sum(u != v for u, v in zip(a, b))


def halfspace(w: Sequence[Any], sign_zero: str = "plus") -> dict[Point, int]:
    """h_w(x) = sign(<w, x>) on {-1,+1}^d (paper L1917), as a table point -> label.

    ``sign_zero`` says what sign(0) is: ``"plus"`` (+1), ``"minus"`` (-1) or ``"refuse"`` (raise if
    some cube point has <w, x> = 0).  ``w`` is exact (ints / Fractions / strings; floats refused)."""
    if sign_zero not in SIGN_ZERO_OPTIONS:
        raise InvalidInputError(f"sign_zero must be one of {SIGN_ZERO_OPTIONS}, got {sign_zero!r}")
    ws = [to_fraction(v, f"w[{j}]") for j, v in enumerate(w)]
    table = {}
    for x in cube(len(ws)):
        s = sum((wj * xj for wj, xj in zip(ws, x)), Fraction(0))
        if s == 0:
            if sign_zero == "refuse":
                raise InvalidInputError(f"<w, x> = 0 at x = {list(x)} and sign_zero='refuse'")
            table[x] = 1 if sign_zero == "plus" else -1
        else:
            table[x] = 1 if s > 0 else -1
    return table


def integer_halfspaces(d: int, bound: int, sign_zero: str = "plus") -> list[tuple[tuple[int, ...], dict]]:
    """(w, h_w) for the integer w in [-bound, bound]^d (w != 0), one w per distinct labelling
    (the first in lexicographic order)."""
    seen: dict[tuple, tuple] = {}
    for w in itertools.product(range(-bound, bound + 1), repeat=d):
        if not any(w):
            continue
        try:
            h = halfspace(w, sign_zero)
        except InvalidInputError:
            continue
        key = tuple(h[x] for x in cube(d))
        seen.setdefault(key, (w, h))
    return list(seen.values())


def _check_hypothesis(h: Hypothesis, d: int) -> None:
    for x in cube(d):
        if h.get(x) not in LABELS:
            raise InvalidInputError(f"hypothesis has no label in {{-1, +1}} at x = {list(x)}")


def _radius(gamma: Any, d: int, name: str = "gamma") -> Fraction:
    g = to_fraction(gamma, name)
    if g < 0:
        raise InvalidInputError(f"{name} = {g} must be >= 0")
    return g * d


def decision_distance(x: Point, y: int, h: Hypothesis) -> int | float:
    """dec(x, y, h) = min_{z : h(z) != y} ||x - z||_0 (Lemma 22, L2086), by brute force over the
    cube; ``INFINITY`` if h labels every point y."""
    if y not in LABELS:
        raise InvalidInputError(f"label {y!r} not in {{-1, +1}}")
    dists = [hamming(x, z) for z, lab in h.items() if lab != y]
    return min(dists) if dists else INFINITY


def robustly_wrong(h: Hypothesis, x: Point, y: int, gamma: Any) -> bool:
    """Def. 19's event: some x' with ||x' - x||_0 <= gamma d (closed ball) has h(x') != y."""
    dec = decision_distance(x, y, h)
    return dec != INFINITY and dec <= _radius(gamma, len(x))


def ball_mixed(h: Hypothesis, x: Point, gamma: Any) -> bool:
    """C_h (erratum E12): the closed gamma d-ball around x contains points of both labels."""
    r = _radius(gamma, len(x))
    labels = {lab for z, lab in h.items() if hamming(x, z) <= r}
    return len(labels) == 2


def _check_distribution(dist: Mapping[tuple, Any], d: int) -> dict[tuple, Fraction]:
    out: dict[tuple, Fraction] = {}
    for key, p in dist.items():
        x, y = key
        if len(x) != d or any(v not in LABELS for v in x) or y not in LABELS:
            raise InvalidInputError(f"support point {key!r} is not in {{-1,+1}}^{d} x {{-1,+1}}")
        q = to_fraction(p, f"D[{key!r}]")
        if q < 0:
            raise InvalidInputError(f"D[{key!r}] = {q} < 0")
        out[(tuple(x), y)] = out.get((tuple(x), y), Fraction(0)) + q
    total = sum(out.values(), Fraction(0))
    if total != 1:
        raise InvalidInputError(f"the distribution sums to {total}, not 1")
    return out


def robust_error(h: Hypothesis, dist: Mapping[tuple, Any], gamma: Any, d: int) -> Fraction:
    """R_gamma(h, D) of Def. 19 (L1929) for a finite D given as {(x, y): probability}, exactly."""
    _check_hypothesis(h, d)
    D = _check_distribution(dist, d)
    return sum((p for (x, y), p in D.items() if robustly_wrong(h, x, y, gamma)), Fraction(0))


def mixed_ball_probability(h: Hypothesis, dist: Mapping[tuple, Any], gamma: Any, d: int) -> Fraction:
    """P_{(x,y) <- D}[C_h(x)] (erratum E12)."""
    D = _check_distribution(dist, d)
    return sum((p for (x, _), p in D.items() if ball_mixed(h, x, gamma)), Fraction(0))


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
    """D'(x, y) = e^eps/(e^eps+1) D(x, y) + 1/(e^eps+1) D(x, flip(y)) (Lemma 21 proof, L2030).

    ``flip="negate"`` is the correct -y for labels in {-1, +1}; ``flip="printed"`` is the printed
    1 - y, which maps {-1, +1} to {2, 0} (outside the label set), so D(x, 1 - y) = 0 and D' has
    total mass e^eps/(e^eps+1) != 1: it is returned as is (not a distribution) to show it."""
    D = _check_distribution(dist, d)
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
    """Printed (L2045): R_gamma(h, D') = 1/(e^eps+1) + (e^eps-1)/(e^eps+1) R_gamma(h, D)."""
    r = _ratio(ratio)
    return 1 / (r + 1) + (r - 1) / (r + 1) * to_fraction(risk, "risk")


def lemma21_rr_risk(risk: Any, mixed_probability: Any, ratio: Any) -> Fraction:
    """Corrected Lemma 21 identity (erratum E12): for D' the RR-label distribution,

    R_gamma(h, D') = 1/(e^eps+1) + (e^eps-1)/(e^eps+1) R_gamma(h, D) + P_D[C_h]/(e^eps+1),

    C_h = {the closed gamma d-ball around x holds both labels}.  Valid for all gamma >= 0 and all
    h; the printed form is the case P_D[C_h] = 0 (e.g. gamma d < 1).  Derivation: for each x,
    1[wrong for y] + 1[wrong for -y] = 1 + 1[C_h(x)] (see :func:`lemma21_symbolic_derivation`)."""
    return lemma21_printed_rr_risk(risk, ratio) + to_fraction(mixed_probability, "P[C]") / (_ratio(ratio) + 1)


def lemma21_symbolic_derivation(h: Hypothesis, d: int, gamma: Any) -> dict[str, sympy.Expr]:
    """R_gamma(h, D') - [corrected form] and - [printed form] in sympy for a *generic* D on
    {-1,+1}^d x {-1,+1} (one symbol per point, constrained only by sum = 1) and symbolic
    E = e^eps.  Returns the two simplified differences (the first must be 0 identically)."""
    _check_hypothesis(h, d)
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
    """Per-attribute ratios split into features (sample-nabla0-DP, L1987) and the label."""

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


# -- Lemma 22: smoothed loss and exponential mechanism ---------------------------------------------

def _margins(gamma: Any, gamma_prime: Any, d: int) -> tuple[Fraction, Fraction]:
    g, gp = to_fraction(gamma, "gamma"), to_fraction(gamma_prime, "gamma'")
    if gp < 0 or g <= gp:
        raise InvalidInputError(f"need 0 <= gamma' < gamma, got gamma={g}, gamma'={gp}")
    return g * d, gp * d


def smoothed_loss(h: Hypothesis, x: Point, y: int, gamma: Any, gamma_prime: Any) -> Fraction:
    """l(h, (x, y)) = clip_[0,1]((gamma d - dec(x, y, h)) / ((gamma - gamma') d)) (L2090); 0 if no
    point has label != y (dec infinite)."""
    return smoothed_loss_from_distance(decision_distance(x, y, h), gamma, gamma_prime, len(x))


def smoothed_loss_from_distance(dec: int | float, gamma: Any, gamma_prime: Any, d: int) -> Fraction:
    """clip_[0,1]((gamma d - dec) / ((gamma - gamma') d)) for a given dec (``INFINITY`` -> 0)."""
    gd, gpd = _margins(gamma, gamma_prime, d)
    if dec == INFINITY:
        return Fraction(0)
    if isinstance(dec, bool) or not isinstance(dec, int) or dec < 0:
        raise InvalidInputError(f"dec must be a non-negative integer or INFINITY, got {dec!r}")
    return min(Fraction(1), max(Fraction(0), (gd - dec) / (gd - gpd)))


def loss_numerator(h: Hypothesis, x: Point, y: int, gamma: Any, gamma_prime: Any) -> Fraction:
    """(gamma - gamma') d * l(h, (x, y)) = clip_[0, (gamma-gamma')d](gamma d - dec): the loss in units
    of its sensitivity Delta = 1/((gamma - gamma') d)."""
    gd, gpd = _margins(gamma, gamma_prime, len(x))
    return smoothed_loss(h, x, y, gamma, gamma_prime) * (gd - gpd)


def _records(dataset: Sequence[Sequence[int]], d: int) -> list[tuple[Point, int]]:
    out = []
    for k, r in enumerate(dataset):
        r = tuple(r)
        if len(r) != d + 1 or any(v not in LABELS for v in r):
            raise InvalidInputError(f"record {k} = {r!r} is not in {{-1,+1}}^{d} x {{-1,+1}}")
        out.append((r[:d], r[d]))
    if not out:
        raise InvalidInputError("empty dataset")
    return out


def empirical_smoothed_loss(h: Hypothesis, dataset: Sequence, gamma: Any, gamma_prime: Any, d: int) -> Fraction:
    """L(h; S) = mean of l(h, (x, y)) over the records (x_1..x_d, y) of S."""
    recs = _records(dataset, d)
    return sum((smoothed_loss(h, x, y, gamma, gamma_prime) for x, y in recs), Fraction(0)) / len(recs)


def empirical_robust_error(h: Hypothesis, dataset: Sequence, gamma: Any, d: int) -> Fraction:
    """R_gamma(h; S): Def. 19 under the uniform distribution on the records of S."""
    recs = _records(dataset, d)
    return Fraction(sum(robustly_wrong(h, x, y, gamma) for x, y in recs), len(recs))


def loss_lcm(gamma: Any, gamma_prime: Any, d: int) -> int:
    """q = lcm of the denominators of gamma d and gamma' d: q * loss_numerator is an integer."""
    gd, gpd = _margins(gamma, gamma_prime, d)
    return math.lcm(gd.denominator, gpd.denominator)


def _scores(hypotheses: Sequence[Hypothesis], dataset: Sequence, gamma: Any, gamma_prime: Any,
            d: int) -> list[int]:
    """U(h, S) * q: the summed loss numerators in units 1/q (integers)."""
    gd, gpd = _margins(gamma, gamma_prime, d)
    q = loss_lcm(gamma, gamma_prime, d)
    top, width = int(gd * q), int((gd - gpd) * q)  # integers by the choice of q
    recs = _records(dataset, d)
    out = []
    for h in hypotheses:
        u = 0
        for x, y in recs:
            dec = decision_distance(x, y, h)
            if dec != INFINITY:
                u += min(width, max(0, top - q * dec))  # q (gamma-gamma')d l(h,(x,y)), exactly
        out.append(u)
    return out


def exponential_mechanism_exact(hypotheses: Sequence[Hypothesis], d: int, n: int, gamma: Any,
                                gamma_prime: Any, weight_base: Any, factor_two: bool = True) -> Mechanism:
    """Lemma 22's learner as an exact Fraction mechanism on datasets of n records (x, y).

    P[h | S] proportional to exp(-eps |S| L(h; S) / (2 Delta)) with Delta = 1/((gamma-gamma')d)
    [MT07].  Since |S| L / Delta = U(h,S) = sum_i clip(gamma d - dec_i, 0, (gamma-gamma')d) is a
    multiple of 1/q (q = :func:`loss_lcm`), the weight is b^{-q U} with b = e^{eps/(2q)}; giving the
    rational ``weight_base`` b makes the kernel exact, with e^eps = b^{2q}
    (:func:`em_epsilon_ratio`).  ``factor_two=False`` is the bad twin exp(-eps |S| L/Delta)
    (weight b^{-2qU}), which is only 2 eps-DP in general.  Outputs are hypothesis indices."""
    b = to_fraction(weight_base, "weight_base")
    if b < 1:
        raise InvalidInputError(f"weight_base = {b} < 1 (it is e^(eps/(2q)), eps >= 0)")
    if not hypotheses:
        raise InvalidInputError("the hypothesis class is empty")
    for h in hypotheses:
        _check_hypothesis(h, d)
    dom = dataset_domain([LABELS] * (d + 1), n)
    mult = 1 if factor_two else 2
    rows = []
    for p in dom.points:
        data = [p[i * (d + 1):(i + 1) * (d + 1)] for i in range(n)]
        sc = _scores(hypotheses, data, gamma, gamma_prime, d)
        lo = min(sc)
        w = [Fraction(1) / b ** (mult * (s - lo)) for s in sc]
        z = sum(w, Fraction(0))
        rows.append(tuple(v / z for v in w))
    return Mechanism(dom, tuple(range(len(hypotheses))), tuple(rows))


def em_epsilon_ratio(weight_base: Any, gamma: Any, gamma_prime: Any, d: int) -> Fraction:
    """e^eps = b^{2q} for the exact exponential mechanism with weight base b."""
    return to_fraction(weight_base, "weight_base") ** (2 * loss_lcm(gamma, gamma_prime, d))


def em_probabilities_mp(hypotheses: Sequence[Hypothesis], dataset: Sequence, gamma: Any,
                        gamma_prime: Any, eps: Any, d: int, digits: int = MP_DIGITS) -> list[mpmath.mpf]:
    """P[h | S] of the exponential mechanism for a rational eps, in mpmath at ``digits`` (>= 50)
    significant digits: exp(-eps U(h,S)/2) normalised (U = |S| L / Delta)."""
    if digits < 50:
        raise InvalidInputError(f"digits = {digits} < 50")
    e = to_fraction(eps, "eps")
    if e < 0:
        raise InvalidInputError(f"eps = {e} < 0")
    q = loss_lcm(gamma, gamma_prime, d)
    sc = _scores(hypotheses, dataset, gamma, gamma_prime, d)
    lo = min(sc)
    with mpmath.workdps(digits + 10):
        c = mpmath.mpf(e.numerator) / e.denominator / (2 * q)
        w = [mpmath.exp(-c * (s - lo)) for s in sc]
        z = mpmath.fsum(w)
        return [v / z for v in w]


def em_log_ratio_exact(hypotheses: Sequence[Hypothesis], data_a: Sequence, data_b: Sequence, index: int,
                       gamma: Any, gamma_prime: Any, eps: Any, d: int) -> sympy.Expr:
    """log(P[h_index | S_a] / P[h_index | S_b]) as a closed sympy expression (exp of rationals)."""
    e = sympy.Rational(str(to_fraction(eps, "eps")))
    q = loss_lcm(gamma, gamma_prime, d)
    sa, sb = _scores(hypotheses, data_a, gamma, gamma_prime, d), _scores(hypotheses, data_b, gamma, gamma_prime, d)
    c = e / (2 * q)
    za = sympy.Add(*[sympy.exp(-c * s) for s in sa])
    zb = sympy.Add(*[sympy.exp(-c * s) for s in sb])
    return -c * (sa[index] - sb[index]) + sympy.log(zb) - sympy.log(za)


@dataclass(frozen=True)
class CertifiedFeatureEpsilon:
    max_log_ratio: mpmath.mpf       # max over feature neighbours and h, at MP_DIGITS digits
    witness: dict | None
    bound_holds: bool               # certified max <= eps
    pairs_examined: int
    certified_by_sympy: int         # comparisons too close for the mpmath margin


def em_feature_epsilon_certified(hypotheses: Sequence[Hypothesis], d: int, n: int, gamma: Any,
                                 gamma_prime: Any, eps: Any, factor_two: bool = True) -> CertifiedFeatureEpsilon:
    """Per-attribute eps0 of the exponential mechanism restricted to feature changes
    (eps-sample-nabla0-DP, L1987) for a rational eps, and a certified decision of eps0 <= eps.

    Log ratios are computed in mpmath at 60 digits; any with |eps - value| < 10^-40 is re-decided
    exactly with :func:`bcdp.core.intervals.compare` on the closed form (:func:`em_log_ratio_exact`)."""
    from bcdp.core.intervals import compare

    e = to_fraction(eps, "eps")
    mult = 1 if factor_two else 2
    eff = e * mult
    dom = dataset_domain([LABELS] * (d + 1), n)
    probs = {}
    for p in dom.points:
        data = [p[i * (d + 1):(i + 1) * (d + 1)] for i in range(n)]
        probs[p] = em_probabilities_mp(hypotheses, data, gamma, gamma_prime, eff, d, digits=MP_DIGITS)
    best, wit, ok, count, by_sympy = mpmath.mpf(0), None, True, 0, 0
    with mpmath.workdps(MP_DIGITS + 10):
        eps_mp = mpmath.mpf(e.numerator) / e.denominator
        margin = mpmath.mpf(10) ** -40
        for p in dom.points:
            for i in range(n):
                for j in range(d):
                    c = i * (d + 1) + j
                    if p[c] != -1:
                        continue
                    p2 = p[:c] + (1,) + p[c + 1:]
                    count += 1
                    for k in range(len(hypotheses)):
                        for a, b in ((p, p2), (p2, p)):
                            v = mpmath.log(probs[a][k] / probs[b][k])
                            if v > best:
                                best, wit = v, {"x": a, "x_prime": b, "h": k}
                            if eps_mp - v > margin:
                                continue
                            if v - eps_mp > margin:
                                ok = False
                                continue
                            by_sympy += 1
                            da = [a[t * (d + 1):(t + 1) * (d + 1)] for t in range(n)]
                            db = [b[t * (d + 1):(t + 1) * (d + 1)] for t in range(n)]
                            expr = em_log_ratio_exact(hypotheses, da, db, k, gamma, gamma_prime, eff, d)
                            if compare(expr, sympy.Rational(e.numerator, e.denominator)) > 0:
                                ok = False
    return CertifiedFeatureEpsilon(best, wit, ok, count, by_sympy)


def sample_exponential_mechanism(scores: Sequence[int], eps: float, q: int, size: int,
                                 rng: np.random.Generator) -> np.ndarray:
    """float64 fast path: ``size`` draws of hypothesis indices with P proportional to
    exp(-eps * score / (2 q)), ``scores`` the integers q U(h, S) (see :func:`em_scores`),
    computed in log space (max-subtracted softmax)."""
    if not (isinstance(eps, (float, int)) and math.isfinite(eps) and eps >= 0):
        raise InvalidInputError(f"eps must be a finite number >= 0, got {eps!r}")
    if size < 0:
        raise InvalidInputError(f"size = {size} < 0")
    s = np.asarray(scores, dtype=np.float64)
    logits = -float(eps) * s / (2.0 * q)
    logits -= logits.max()
    w = np.exp(logits)
    return rng.choice(len(s), size=size, p=w / w.sum())


def em_scores(hypotheses: Sequence[Hypothesis], dataset: Sequence, gamma: Any, gamma_prime: Any,
              d: int) -> tuple[list[int], int]:
    """(the integers q U(h, S) for each h, q)."""
    return _scores(hypotheses, dataset, gamma, gamma_prime, d), loss_lcm(gamma, gamma_prime, d)


# -- Lemma 23: the integrality step --------------------------------------------------------------------

def lemma23_step_holds(w: Sequence[Any], z: Point, nu: Any, radius: int | None = None) -> bool | None:
    """The proof step of Lemma 23 (L2170): with ||w||_1 = 1 and <w, z> < nu there is z' in the
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
