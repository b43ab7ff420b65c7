"""Exact LDP, BDP, coordinate DP, Bayesian coordinate DP and coordinate dependence.

BCDP paper, Definitions 1-4 and eq. (13), on a finite product domain X with a finite output set Y.
Each function returns exact values (:class:`~bcdp.core.parameters.LogRatioParameter` /
:class:`~bcdp.core.parameters.ProbabilityParameter`) with the witness attaining the supremum.

Reduction of the suprema to finite maxima (proved here, tested against the literal definitions in
:mod:`bcdp.bayesian.bruteforce` by enumerating all subsets on small cases):

(R1) Events R.  For non-negative a_y, b_y, sum_{y in R} a_y / sum_{y in R} b_y is at most
     max_{y in R} a_y / b_y (the mediant inequality) when every b_y > 0; and if some y has
     a_y > 0 = b_y the singleton {y} already gives an infinite ratio.  Terms with a_y = b_y = 0
     contribute nothing.  So the supremum over R is attained at a singleton R = {y}.
(R2) Conditioning sets S.  P{M in R | x in S} = sum_{x in S} pi(x) mu_x(R) / pi(S) is a convex
     combination of mu_x(R) over x in S with pi(x) > 0, hence lies between the min and max of
     mu_x(R) over those x.  The ratio of two such combinations is therefore at most
     max_x mu_x(R) / min_{x'} mu_{x'}(R), attained by singletons S = {x}, S' = {x'} in the
     support (Def. 2).  The same argument with P{M in R | x_i = v} in place of mu_x(R) gives
     singletons S_i = {v}, S_i' = {v'} with pi(x_i = v), pi(x_i = v') > 0 (Def. 4).
(R3) Dependence (eq. 13).  pi_{x_-i | x_i in S} is the mixture of pi_{x_-i | x_i = v}, v in S,
     with weights pi_i(v)/pi_i(S).  TV is jointly convex, so the TV between two mixtures is at most
     the largest TV between components: the supremum is attained by singletons.
Zero probabilities: a ratio with a zero denominator and a non-zero numerator is infinite; a 0/0
pair imposes no constraint and is skipped.
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction

from bcdp.core.divergences import max_column_ratio
from bcdp.core.errors import InvalidInputError
from bcdp.core.numbers import INFINITY, to_fraction
from bcdp.core.parameters import LogRatioParameter, ProbabilityParameter
from bcdp.core.spaces import Mechanism, Point, Prior


def _check_pair(mechanism: Mechanism, prior: Prior | None) -> None:
    if prior is not None and prior.domain != mechanism.domain:
        raise InvalidInputError("prior and mechanism are defined on different domains")


def ldp_epsilon(mechanism: Mechanism) -> LogRatioParameter:
    """Definition 1: eps_L = sup_{R, x, x'} log mu_x(R)/mu_{x'}(R) over all inputs x, x' in X.

    By (R1) it is max_{y} log(max_x mu_x(y) / min_x mu_x(y)).  Witness keys: ``x``, ``x_prime``,
    ``R`` (the singleton event).
    """
    ratio, w = max_column_ratio(mechanism.kernel, mechanism.domain.points, mechanism.outputs)
    return LogRatioParameter(ratio, _point_witness(w))


def bdp_epsilon(mechanism: Mechanism, prior: Prior) -> LogRatioParameter:
    """Definition 2: eps_B = sup over R and S, S' with pi(S), pi(S') > 0 of
    log P{M in R | x in S} / P{M in R | x in S'}.

    By (R1)-(R2) it is the LDP epsilon of the kernel restricted to the support of pi.
    Witness keys: ``S``, ``S_prime`` (singleton input sets) and ``R``.
    """
    _check_pair(mechanism, prior)
    support = prior.support()
    rows = [mechanism.kernel[k] for k in support]
    labels = [mechanism.domain.points[k] for k in support]
    ratio, w = max_column_ratio(rows, labels, mechanism.outputs)
    if w is None:
        return LogRatioParameter(ratio, None)
    return LogRatioParameter(ratio, {"S": [list(w["numerator"])], "S_prime": [list(w["denominator"])],
                                     "R": [w["output"]]})


def _point_witness(w: dict | None) -> dict | None:
    if w is None:
        return None
    return {"x": list(w["numerator"]), "x_prime": list(w["denominator"]), "R": [w["output"]]}


def _rest_groups(mechanism_or_prior_domain, i: int) -> dict[Point, list[int]]:
    groups: dict[Point, list[int]] = {}
    for k, p in enumerate(mechanism_or_prior_domain.points):
        groups.setdefault(p[:i] + p[i + 1:], []).append(k)
    return groups


def cdp_vector(mechanism: Mechanism) -> list[LogRatioParameter]:
    """Definition 3: c_i = sup log mu_x(R)/mu_{x'}(R) over x, x' with x_-i = x'_-i and all R.

    By (R1) it is a maximum over singleton R, taken within each group of inputs sharing x_-i.
    Witness keys: ``x``, ``x_prime``, ``R``.
    """
    out = []
    dom = mechanism.domain
    for i in range(dom.d):
        best: Fraction | float = Fraction(1)
        best_w = None
        for _, members in _rest_groups(dom, i).items():
            ratio, w = max_column_ratio([mechanism.kernel[k] for k in members],
                                        [dom.points[k] for k in members], mechanism.outputs)
            if w is not None and (best_w is None or ratio > best):
                best, best_w = ratio, w
                if ratio == INFINITY:
                    break
        out.append(LogRatioParameter(best, _point_witness(best_w)))
    return out


def conditional_output_laws(mechanism: Mechanism, prior: Prior, i: int) -> dict[Hashable, tuple[Fraction, ...]]:
    """eq. (9): P{M(x) = y | x_i = v} for every value v of coordinate i with pi(x_i = v) > 0."""
    _check_pair(mechanism, prior)
    dom = mechanism.domain
    n_out = len(mechanism.outputs)
    sums: dict[Hashable, list[Fraction]] = {}
    mass: dict[Hashable, Fraction] = {}
    for k, (p, prob) in enumerate(zip(dom.points, prior.pmf)):
        if prob == 0:
            continue
        v = p[i]
        acc = sums.setdefault(v, [Fraction(0)] * n_out)
        mass[v] = mass.get(v, Fraction(0)) + prob
        row = mechanism.kernel[k]
        for m in range(n_out):
            if row[m]:
                acc[m] += prob * row[m]
    order = [v for v in dom.coordinate_values[i] if v in sums]
    return {v: tuple(s / mass[v] for s in sums[v]) for v in order}


def bcdp_vector(mechanism: Mechanism, prior: Prior) -> list[LogRatioParameter]:
    """Definition 4: delta_i = sup log P{M in R | x_i in S_i} / P{M in R | x_i in S_i'} over R and
    S_i, S_i' with positive prior mass.

    By (R1)-(R2) it is max over supported values v, v' of coordinate i and outputs y of
    P{M = y | x_i = v} / P{M = y | x_i = v'}.  Witness keys: ``S_i``, ``S_i_prime`` (singletons)
    and ``R``.
    """
    out = []
    for i in range(mechanism.domain.d):
        laws = conditional_output_laws(mechanism, prior, i)
        values = list(laws)
        ratio, w = max_column_ratio([laws[v] for v in values], values, mechanism.outputs)
        wit = None if w is None else {"coordinate": i, "S_i": [w["numerator"]],
                                      "S_i_prime": [w["denominator"]], "R": [w["output"]]}
        out.append(LogRatioParameter(ratio, wit))
    return out


def total_variation(p: dict, q: dict) -> tuple[Fraction, list]:
    """TV(p, q) = sum_z max(p(z) - q(z), 0) and the event {z : p(z) > q(z)} attaining it.

    ``p`` and ``q`` map outcomes to exact probabilities (:func:`bcdp.core.numbers.to_fraction`;
    floats refused); a missing outcome has probability 0.
    """
    p = {z: to_fraction(v, f"p[{z!r}]") for z, v in p.items()}
    q = {z: to_fraction(v, f"q[{z!r}]") for z, v in q.items()}
    keys = list(dict.fromkeys(list(p) + list(q)))
    event = [z for z in keys if p.get(z, 0) > q.get(z, 0)]
    return sum((p.get(z, Fraction(0)) - q.get(z, Fraction(0)) for z in event), Fraction(0)), event


def coordinate_dependence(prior: Prior) -> list[ProbabilityParameter]:
    """eq. (13): q_i = sup_{S_i, S_i'} TV(pi_{x_-i | x_i in S_i}, pi_{x_-i | x_i in S_i'}).

    By (R3) it is the largest TV between the conditionals of x_-i given two supported values of x_i.
    Witness keys: ``S_i``, ``S_i_prime`` and ``event`` (the set of x_-i where the first
    conditional exceeds the second, which attains the TV).  The witness is the first ordered pair of
    distinct supported values (in the order of the coordinate's values) attaining the maximum.  A
    coordinate with one supported value (or d = 1) has q_i = 0.
    """
    out = []
    for i in range(prior.domain.d):
        marg = prior.marginal(i)
        values = [v for v, m in marg.items() if m > 0]
        conds = {v: prior.rest_conditional(i, v) for v in values}
        best = Fraction(0)
        wit = None
        for a in range(len(values)):
            for b in range(len(values)):
                if a == b:
                    continue
                tv, event = total_variation(conds[values[a]], conds[values[b]])
                if wit is None or tv > best:
                    best = tv
                    wit = {"coordinate": i, "S_i": [values[a]], "S_i_prime": [values[b]],
                           "event": [list(z) for z in event]}
        out.append(ProbabilityParameter(best, wit))
    return out
