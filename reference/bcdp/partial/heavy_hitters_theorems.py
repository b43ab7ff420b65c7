"""Utility and sample complexity of PrivHeavyHitter (partial DP paper, arXiv:2209.04053): Lemma 30
(App. A.1.2), Theorem 15 (Sec. 5; proof in App. A.1.3) and the lower bound Theorem 16 (Sec. 5.3;
proof in App. A.2).

* Lemma 30: the union bound on missing a string, the exact inclusion law E|L_I|, P[s in L_I]
  (:func:`inclusion_law`) and the lemma's conditions;
* Theorem 15: the two-stage histogram's constants, "printed" and "corrected"
  (``docs/errata.md`` E-PDP-Thm15), its sample size and a valid failure bound
  (E-PDP-Thm15-utility), the rounding remark of Sec. 5 (E-PDP-E6);
* Theorem 16: the packing argument, exactly in sympy (E-PDP-Thm16).

mpmath at :data:`~bcdp.partial.heavy_hitters_algorithm.DPS` digits, Python floats refused; sympy is
imported only by the functions that return sympy values.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import mpmath as mp

from bcdp.core.errors import InvalidInputError, ValidityConditionError
from bcdp.core.numbers import to_fraction
from bcdp.partial.heavy_hitters_algorithm import (
    DPS,
    HHParams,
    accept_probability,
    as_counter,
    reject_probability,
    restriction_counts,
    to_mpf,
    tree_levels,
)

if TYPE_CHECKING:  # pragma: no cover
    import sympy


# -- Lemma 30 ----------------------------------------------------------------------------------------------

def miss_probability_union_bound(data: Any, s: str, p: HHParams, d: int) -> mp.mpf:
    """Upper bound on P[s not in L_[d]] (the chain of part 1 of the proof of Lemma 30, App. A.1.2): s
    is missed only if some restriction s|_I is rejected at its node I, so
    P[miss] <= sum_I P[reject s|_I | candidate]."""
    x = as_counter(data, d)
    with mp.workdps(DPS):
        total = mp.mpf(0)
        for level, nodes in enumerate(tree_levels(d), start=1):
            for lo, hi in nodes:
                total += reject_probability(restriction_counts(x, lo, hi)[s[lo:hi]], level, p)
        return total


@dataclass(frozen=True)
class InclusionLaw:
    """Exact E|L_I| and P[s in L_I] (for the strings s that occur in the data) of every node."""

    expected_size: dict
    inclusion: dict


def inclusion_law(data: Any, p: HHParams, d: int) -> InclusionLaw:
    """Exact E|L_I| and P[s in L_I] by the factorised law (mpmath, DPS digits).

    The subtrees of I_left and I_right use disjoint noise, so P[s in L_I] = P[s_l in L_l] P[s_r in L_r]
    p(I, s).  Every string with count f <= tau_l - mu has the same accept probability
    q_l := p(I, 0) (every string absent from the data has count 0), hence
    E|L_I| = q_l E|L_l| E|L_r| + sum_{s in data|_I} P[s_l in L_l] P[s_r in L_r] (p(I, s) - q_l).
    (When tau_l >= mu, q_l = S(mu) = e^{-mu/lambda}/2, the floor of eq. (9) in the proof of Lemma 30.)"""
    x = as_counter(data, d)
    with mp.workdps(DPS):
        size = {(j, j + 1): mp.mpf(2) for j in range(d)}
        incl = {(j, j + 1): {"0": mp.mpf(1), "1": mp.mpf(1)} for j in range(d)}
        for level, nodes in enumerate(tree_levels(d), start=1):
            for lo, hi in nodes:
                mid = (lo + hi) // 2
                q0 = accept_probability(0, level, p)
                f = restriction_counts(x, lo, hi)
                e = q0 * size[lo, mid] * size[mid, hi]
                inc = {}
                for s, c in f.items():
                    both = incl[lo, mid][s[: mid - lo]] * incl[mid, hi][s[mid - lo:]]
                    pa = accept_probability(c, level, p)
                    inc[s] = both * pa
                    e += both * (pa - q0)
                size[lo, hi], incl[lo, hi] = e, inc
        return InclusionLaw(size, incl)


def lemma30_conditions(d: int, n: int, lam: Any, mu: Any, nu: Any, eta: Any) -> dict:
    """Lemma 30 (App. A.1.2): eta, nu in (0, 0.1], tau = 0.5 nu n, tau >= 8 mu log2 d + 8 lambda ln(d/(eta nu)),
    mu >= lambda ln(16/nu).  Returns the quantities and whether each condition holds (mpmath)."""
    with mp.workdps(DPS):
        lam, mu, nu, eta = to_mpf(lam, "lambda"), to_mpf(mu, "mu"), to_mpf(nu, "nu"), to_mpf(eta, "eta")
        tau = nu * n / 2
        need_tau = 8 * mu * mp.log(d, 2) + 8 * lam * mp.log(d / (eta * nu))
        return {"tau": tau, "tau_needed": need_tau,
                "nu_eta_ok": 0 < nu <= mp.mpf(1) / 10 and 0 < eta <= mp.mpf(1) / 10,
                "tau_ok": tau >= need_tau, "mu_ok": mu >= lam * mp.log(16 / nu)}


# -- Theorem 15 -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Thm15Params:
    """Stage-1 (Algorithm 2) parameters and stage-2 Laplace scale b2 of the two-stage histogram."""

    stage1: HHParams
    b2: mp.mpf
    variant: str


def thm15_params(eps: Any, nu: Any, n: int, variant: str) -> Thm15Params:
    """Theorem 15 constants (its proof, App. A.1.3).

    variant "printed":   lambda = 3/eps, mu = lambda ln(16/nu), tau = nu n/2, stage 2 Lap(2/eps)
                          (claimed 0.5 eps + 0.5 eps; false: ``docs/errata.md`` E-PDP-Thm15).
    variant "corrected": lambda = (4/eps)(1 + 16/(16 - nu)) (Lemma 28 gives exactly eps/2 at
                          mu = lambda ln(16/nu), since e^{-mu/lambda} = nu/16), same mu/tau, stage 2
                          Lap(4/eps) (l1-sensitivity of the counts is 2 under nabla0, so eps/2)."""
    eps_q, nu_q = to_fraction(eps, "eps"), to_fraction(nu, "nu")
    if eps_q <= 0 or not (0 < nu_q < 1):
        raise InvalidInputError("need eps > 0 and nu in (0, 1)")
    with mp.workdps(DPS):
        e, v = to_mpf(eps_q), to_mpf(nu_q)
        if variant == "printed":
            lam, b2 = 3 / e, 2 / e
        elif variant == "corrected":
            lam, b2 = (4 / e) * (1 + 16 / (16 - v)), 4 / e
        else:
            raise InvalidInputError("variant must be 'printed' or 'corrected'")
        return Thm15Params(HHParams(lam, lam * mp.log(16 / v), v * n / 2), b2, variant)


def thm15_sample_size(d: int, eps: Any, nu: Any, eta: Any, variant: str = "printed") -> mp.mpf:
    """Sample size of Thm 15 (mpmath, DPS digits; log2 for the tree depth, ln elsewhere).

    "printed" (App. A.1.3, the sample-size bound): n >= (16 mu log2 d + 16 lambda ln(d/(eta nu)))/nu
    + 100 ln(1/(eta nu))/(nu eps) with lambda = 3/eps, mu = lambda ln(16/nu).
    "corrected": the first term with the corrected lambda = (4/eps)(1 + 16/(16 - nu)) (so that
    tau = nu n/2 meets Lemma 30), plus b2 ln(16/(nu eta))/nu with b2 = 4/eps, which makes the stage-2
    failure bound of :func:`thm15_failure_bound` at most eta/2 (``docs/errata.md`` E-PDP-Thm15-utility)."""
    tree_levels(d)
    tp = thm15_params(eps, nu, 1, variant)
    with mp.workdps(DPS):
        e, v, h = to_mpf(eps, "eps"), to_mpf(nu, "nu"), to_mpf(eta, "eta")
        lam, mu = tp.stage1.lam, tp.stage1.mu
        first = (16 * mu * mp.log(d, 2) + 16 * lam * mp.log(d / (h * v))) / v
        if variant == "printed":
            return first + 100 * mp.log(1 / (h * v)) / (v * e)
        return first + tp.b2 * mp.log(16 / (v * h)) / v


def thm15_failure_bound(d: int, eps: Any, nu: Any, eta: Any, n: int, variant: str) -> mp.mpf:
    """Upper bound on P[max_y |f_hat_y - f_y| > nu n] for the two-stage histogram (repairing the Markov
    step of App. A.1.3, ``docs/errata.md`` E-PDP-Thm15-utility).

    The proof (App. A.1.3) uses Markov to get |L| <= 32/nu "with probability 1 - 0.25 eta"; Markov
    only gives probability 3/4.  Valid chain: failure needs (i) a heavy string (f >= 2 tau = nu n)
    missing from L -- probability <= eta/2 by Lemma 30 -- or (ii) some s in L with |Lap(b2)| > nu n;
    stage-2 noise is independent of L, so P[(ii)] <= E|L| e^{-nu n/b2} <= (8/nu) e^{-nu n/b2}
    (Lemma 30).  Strings outside L with f <= nu n get f_hat = 0, within nu n.  Requires the Lemma 30
    conditions at tau = nu n/2 (raises otherwise)."""
    tp = thm15_params(eps, nu, n, variant)
    cond = lemma30_conditions(d, n, tp.stage1.lam, tp.stage1.mu, nu, eta)
    if not (cond["tau_ok"] and cond["mu_ok"] and cond["nu_eta_ok"]):
        raise ValidityConditionError("Lemma 30 (App. A.1.2) conditions fail at this n: the bound does not apply")
    with mp.workdps(DPS):
        v, h = to_mpf(nu, "nu"), to_mpf(eta, "eta")
        return h / 2 + (8 / v) * mp.exp(-v * n / tp.b2)


def rounding_success_probability(scale: Any) -> sympy.Expr:
    """P[|Lap(b)| < 1/2] = 1 - e^{-1/(2b)} exactly (sympy): rounding f + Lap(b) recovers f (Sec. 5, the
    rounding remark after Def. 14; ``docs/errata.md`` E-PDP-E6)."""
    import sympy

    b = sympy.Rational(*to_fraction(scale, "b").as_integer_ratio())
    if b <= 0:
        raise InvalidInputError("scale must be > 0")
    z = sympy.Symbol("z", real=True)
    density = sympy.exp(-sympy.Abs(z) / b) / (2 * b)
    return sympy.simplify(2 * sympy.integrate(density.subs(sympy.Abs(z), z), (z, 0, sympy.Rational(1, 2))))


def laplace_histogram_epsilon(scale: Any, relation: str) -> Fraction:
    """Exact pure-DP eps of f + Lap(b) per count: l1 sensitivity / b, with sensitivity 1 under add/remove
    and 2 under replace-one (Def. 1) or nabla0 (one attribute change moves one record between two
    cells).  ``docs/errata.md`` E-PDP-E6 and E-PDP-Thm15."""
    b = to_fraction(scale, "b")
    if b <= 0:
        raise InvalidInputError("scale must be > 0")
    sens = {"add-remove": 1, "replace-one": 2, "nabla0": 2}
    if relation not in sens:
        raise InvalidInputError(f"relation must be one of {sorted(sens)}")
    return Fraction(sens[relation]) / b


# -- Theorem 16 (lower bound by packing) ---------------------------------------------------------

def _rat(value: Any, name: str) -> sympy.Rational:
    import sympy

    q = to_fraction(value, name)
    return sympy.Rational(q.numerator, q.denominator)


def thm16_packing_min_n(d: int, eps: Any, nu: Any, success: Any = "1/10", distance: str = "corrected") -> int:
    """Smallest n that the packing argument of Thm 16 (its proof, App. A.2) does NOT rule out.

    Datasets x^(0) = all zeros and x^(i) = ceil(3 nu n) copies of 1_i (rest zeros), i in [d]; the
    solution sets S^(i) are disjoint (f_hat_{1_i} >= 2 nu n vs <= nu n: "cannot hold simultaneously",
    ``docs/errata.md`` E-PDP-Thm16); x^(0) and x^(i) are ceil(3 nu n) attribute changes apart, so group privacy gives
    1 >= sum_i P[A(x^(0)) in S^(i)] >= d e^{-eps k} * success with k = ceil(3 nu n) ("corrected") or the
    printed k = ceil(2 nu n) ("printed").  The argument rules out n iff d * success * e^{-eps k} > 1;
    the returned n is the least n with d * success * e^{-eps k(n)} <= 1, i.e. the lower bound the
    proof yields is n >= that value.  Exact: k(n) >= K := ceil(ln(d success)/eps) (sympy decides the
    ceiling), and ceil(c nu n) >= K iff c nu n > K - 1."""
    import sympy

    e, v, s = _rat(eps, "eps"), _rat(nu, "nu"), _rat(success, "success")
    if e <= 0 or not (0 < v < 1) or not (0 < s <= 1) or d < 1:
        raise InvalidInputError("need eps > 0, nu in (0, 1), success in (0, 1], d >= 1")
    factor = {"corrected": 3, "printed": 2}[distance]
    # need k(n) >= K := ceil(ln(d s)/eps)  (d s e^{-eps k} <= 1  iff  k >= ln(d s)/eps)
    K = int(sympy.ceiling(sympy.log(d * s) / e))
    if K <= 0:
        return 1
    # ceil(factor nu n) >= K  iff  factor nu n > K - 1
    n = int(sympy.floor((K - 1) / (factor * v))) + 1
    assert sympy.ceiling(factor * v * n) >= K and (n == 1 or sympy.ceiling(factor * v * (n - 1)) < K)
    return n


def thm16_printed_bound(d: int, eps: Any, nu: Any) -> sympy.Expr:
    """The printed conclusion n >= 0.05 ln d / (eps nu) (App. A.2, last step), as an exact sympy number."""
    import sympy

    return sympy.Rational(1, 20) * sympy.log(d) / (_rat(eps, "eps") * _rat(nu, "nu"))


def thm16_printed_step(d: int, eps: Any, nu_n: Any) -> tuple[sympy.Expr, sympy.Expr]:
    """The printed step (A.2): 0.1 d e^{-eps ceil(2 nu n)} >= d^{0.1} e^{-2 eps nu n} under d >= 10 e^{1.1 eps}.
    Returns (lhs, rhs) exactly; the step is claimed lhs >= rhs."""
    import sympy

    e, m = _rat(eps, "eps"), _rat(nu_n, "nu n")
    lhs = sympy.Rational(1, 10) * d * sympy.exp(-e * sympy.ceiling(2 * m))
    rhs = sympy.Integer(d) ** sympy.Rational(1, 10) * sympy.exp(-2 * e * m)
    return lhs, rhs


def packing_success_bound(d: int, eps: Any, nu: Any, n: int) -> sympy.Expr:
    """Packing inequality for tiny d, n: if an eps-nabla0DP algorithm succeeds with probability >= p on
    each of x^(0), ..., x^(d), then 1 >= P[A(x^0) in S^0] + sum_i P[A(x^0) in S^i] >= p (1 + d e^{-eps k}),
    k = ceil(3 nu n), so p <= 1/(1 + d e^{-eps k}) (exact sympy)."""
    import sympy

    e, v = _rat(eps, "eps"), _rat(nu, "nu")
    if n < 1 or d < 1:
        raise InvalidInputError("need n, d >= 1")
    k = sympy.ceiling(3 * v * n)
    return 1 / (1 + d * sympy.exp(-e * k))
