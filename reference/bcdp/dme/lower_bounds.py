"""LDP lower bounds of thesis Ch. 3 (Thms 3.4.3, 3.6.3, Lemma 3.6.1): proof steps, explicit constants, gaps.

An Omega(.) statement over all mechanisms cannot be decided on finite instances; this module makes
exact what the proofs make explicit:

* (3.17), proof of Thm 3.4.3: a law q on the basis vectors {e_1..e_d} has mean mu_q = q
  (:func:`basis_law_mean`), and e_i lies in B_1 inside B_p, so the simplex problem lower-bounds the
  l_p problem.
* (3.43), proof of Thm 3.6.3, step (b): 2||u||^2 + 2||v||^2 - ||u + v||^2 = ||u - v||^2 >= 0
  (:func:`parallelogram_gap`), whence E||xbar - xhat||^2 >= E||mu - xhat||^2 / 2 - E||xbar - mu||^2.
* (3.44): for a product Bernoulli law on {0, d^{-1/p}}^d with coordinate means theta_j,
  E||(1/n) sum x_i - mu_q||^2 = d^{-2/p} sum_j theta_j (1 - theta_j) / n <= d^{1-2/p}/(4n) <= d^{1-2/p}/n
  (:func:`bernoulli_mean_error`, :func:`bernoulli_mean_error_bound`), exact in sympy.
* Thm 3.4.3 cites Thm 7.3.1 (Ch. 7, case R >= H2, no randomness constraint), proved via Assouad in
  Sec. 7.3.1, (7.24)-(7.26), which print r >= k (E+1)^2 / (32 n E (E-1)^2) with the packing step
  delta^2 = (E+1)^2/(8 n E (E-1)^2).  That route drops a factor 4 in (7.17) (docs/errata.md
  E-Thesis-Eq7.17: M^nu - M^{nu-2e_j} = 2 delta (Q(.|j) - Q(.|j+k/2))); redone with the corrected
  KL <= 8 delta^2 E V it gives delta^2 = (E+1)^2/(32 n E (E-1)^2) and r >= k (E+1)^2 / (128 n E (E-1)^2),
  valid when delta^2 <= 1/k^2 (:func:`ch7_simplex_lower_bound`, ``reading="corrected"``, the default;
  ``reading="printed"`` keeps the printed constant for comparison).  The proof of
  Thm 3.4.3 stops at E||mu_q - xhat||^2; the MSE of Ch. 3 is against the empirical mean, which needs
  the step (b)-(c) of (3.43) with E||xbar - mu_q||^2 <= 1/n on basis vectors.  Hence the explicit
  bound (:func:`thm343_explicit_lower_bound`), with k = 2 floor(d/2) and radius r:
  sup MSE >= r^2 ( k (E+1)^2 / (256 n E (E-1)^2) - 1/n ).
* Thm 3.6.3 step (e): with Lemma 3.6.1's unspecified constant c the chain gives
  (c/2) d^{1-2/p} min{1, d/(n m)} - d^{1-2/p}/n, m = min{eps0, eps0^2} (:func:`thm363_chain_bound`);
  :func:`thm363_step_e_holds` decides exactly when it is >= c' d^{1-2/p} min{1, d/(n m)}.
* The printed (3.16)/(3.38) claim the uncapped rate for every eps0 > 0; an unbiased eps0-LDP
  mechanism with variance O(E^{-2/3}) (:func:`grid_rr_law`, stochastic rounding to a grid of K + 1
  points followed by (K+1)-ary randomized response, debiased) beats C/(n eps0) for large eps0 at
  d = 1 for every fixed C (docs/errata.md E-Thesis-Thm3.6.3e).
* :func:`gap_table`: exact worst-case MSE of each scheme / explicit lower bound, as rows, for the l1
  Hadamard scheme (:func:`hadamard_worst_mse`), R^Bin with s = 1 (:func:`binary_vector_worst_mse`,
  (3.10) at b = 1_d) and R^{l_inf} with the water-filling split (:func:`linf_worst_mse` at
  :func:`linf_worst_input`).  All are compared with the explicit Thm 3.4.3 bound, whose hard inputs
  r e_1..r e_k lie in every scheme's domain; Lemma 3.6.1 / Thm 3.6.3 at p = inf would give the
  matching d^2 rate for R^Bin and R^{l_inf} but has no explicit constant (App. B.1 cites [DR19]).

The privacy level enters as the rational E = e^{eps0} > 1 where the bound is a rational function of
E (Ch. 7), and as a rational eps0 where min{eps0, eps0^2} appears (Thm 3.6.3).
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Any, Callable, Mapping, Sequence

import sympy

from bcdp.core.errors import InvalidInputError, ValidityConditionError
from bcdp.core.numbers import to_fraction
from bcdp.dme import binary_vector as bv
from bcdp.dme import linf
from bcdp.dme.hadamard import l1_hadamard_mse

from ._args import check_E as _E
from ._args import check_int as _int

#: Largest K of the exact grid-RR law (it has K + 1 outputs).
MAX_GRID = 10 ** 4


def _pos(value: Any, name: str) -> Fraction:
    v = to_fraction(value, name)
    if v <= 0:
        raise InvalidInputError(f"{name} must be > 0, got {v}")
    return v


def _p_exponent(p: Any, minimum: int) -> sympy.Expr:
    """p as an exact sympy number >= minimum, or sympy.oo for "inf"."""
    if isinstance(p, str) and p.strip() in ("inf", "oo"):
        return sympy.oo
    v = to_fraction(p, "p")
    if v < minimum:
        raise InvalidInputError(f"p must be >= {minimum} (or 'inf'), got {v}")
    return sympy.Rational(v.numerator, v.denominator)


def _inv_p(p: sympy.Expr) -> sympy.Expr:
    return sympy.Integer(0) if p is sympy.oo else 1 / p


# -- proof steps ----------------------------------------------------------------------------------

def basis_law_mean(q: Sequence[Any]) -> tuple[Fraction, ...]:
    """mu_q = sum_i q_i e_i for a law q on {e_1..e_d} (thesis (3.17), proof of Thm 3.4.3): the mean
    of U ~ q computed as the q-weighted sum of the basis vectors; q must be a pmf (entries >= 0,
    sum 1)."""
    qs = [to_fraction(v, "q_i") for v in q]
    if not qs or any(v < 0 for v in qs) or sum(qs) != 1:
        raise InvalidInputError("q must be a non-empty pmf (entries >= 0 summing to 1)")
    d = len(qs)
    mean = [Fraction(0)] * d
    for i, qi in enumerate(qs):
        for j in range(d):
            mean[j] += qi * (1 if i == j else 0)
    return tuple(mean)


def parallelogram_gap(u: Sequence[Any], v: Sequence[Any]) -> Fraction:
    """2||u||^2 + 2||v||^2 - ||u + v||^2, exactly (thesis (3.43) step (b)); it equals ||u - v||^2 >= 0."""
    us = [to_fraction(x, "u_i") for x in u]
    vs = [to_fraction(x, "v_i") for x in v]
    if len(us) != len(vs) or not us:
        raise InvalidInputError("u and v must be non-empty vectors of one length")
    sq = lambda w: sum(x * x for x in w)  # noqa: E731
    return 2 * sq(us) + 2 * sq(vs) - sq([a + b for a, b in zip(us, vs)])


def bernoulli_mean_error(thetas: Sequence[Any], p: Any, n: Any) -> sympy.Expr:
    """E||(1/n) sum_i x_i - mu_q||^2 for n i.i.d. draws of the product Bernoulli law on
    {0, d^{-1/p}}^d with coordinate means theta_j (thesis (3.44), P^Bern_{p,d} of Lemma 3.6.1):
    d^{-2/p} sum_j theta_j (1 - theta_j) / n, exact in sympy; p >= 2 or "inf"."""
    th = [to_fraction(t, "theta_j") for t in thetas]
    if not th or any(t < 0 or t > 1 for t in th):
        raise InvalidInputError("thetas must be a non-empty list of probabilities in [0, 1]")
    pp = _p_exponent(p, 2)
    nn = _int(n, "n", 1)
    d = len(th)
    var = sum(t * (1 - t) for t in th)
    return sympy.nsimplify(sympy.Integer(d) ** (-2 * _inv_p(pp))) * sympy.Rational(var.numerator,
                                                                                    var.denominator) / nn


def bernoulli_mean_error_bound(d: Any, p: Any, n: Any) -> sympy.Expr:
    """The bound d^{1-2/p}/n of thesis (3.44) (p >= 2 or "inf")."""
    dd, nn = _int(d, "d", 1), _int(n, "n", 1)
    return sympy.Integer(dd) ** (1 - 2 * _inv_p(_p_exponent(p, 2))) / nn


# -- explicit constants ---------------------------------------------------------------------------

#: Denominator constant of the packing step delta^2 = (E+1)^2 / (C n E (E-1)^2): 8 as printed in (7.24),
#: 32 after the factor 4 of E-Thesis-Eq7.17 (the KL of (7.17) is <= 8 delta^2 E V, not 2 delta^2 E V).
ASSOUAD_DELTA_CONSTANT = {"printed": 8, "corrected": 32}


def _reading(reading: str) -> int:
    if reading not in ASSOUAD_DELTA_CONSTANT:
        raise InvalidInputError(f"reading must be 'corrected' or 'printed', got {reading!r}")
    return ASSOUAD_DELTA_CONSTANT[reading]


def ch7_packing_delta_squared(k: Any, n: Any, E: Any, reading: str = "corrected") -> Fraction:
    """delta^2 = (E+1)^2 / (C n E (E-1)^2), the Assouad packing step of thesis (7.24)-(7.26) that makes
    (n/2) KL = 1/4: C = 32 with the corrected (7.17) (E-Thesis-Eq7.17), C = 8 as printed."""
    const = _reading(reading)
    _int(k, "k", 2)
    nn, e = _int(n, "n", 1), _E(E)
    return (e + 1) ** 2 / (const * nn * e * (e - 1) ** 2)


def ch7_simplex_lower_bound(k: Any, n: Any, E: Any, reading: str = "corrected") -> Fraction:
    """inf_Q inf_phat sup_{q in Delta_k} E||phat - q||^2 >= phi(delta) (k/2)(1 - 1/2) = delta^2 k / 4:
    thesis Thm 7.3.1 (case R >= H2, no randomness constraint) along its Assouad proof, (7.24)-(7.26).
    ``reading="corrected"`` (default, proven): k (E+1)^2 / (128 n E (E-1)^2), with the factor 4 that
    (7.17) drops (E-Thesis-Eq7.17); ``reading="printed"``: the printed k (E+1)^2 / (32 n E (E-1)^2),
    whose proof is not valid as printed.  Valid for k even >= 2 and n with delta^2 <= 1/k^2 (the packing
    p_j = 1/k +- delta must be a pmf: 0 <= delta <= 1/k, Sec. 7.3.1 (7.13)); else ValidityConditionError."""
    kk = _int(k, "k", 2)
    if kk % 2:
        raise ValidityConditionError(f"k must be even (the packing pairs j with j + k/2), got {kk}")
    d2 = ch7_packing_delta_squared(kk, n, E, reading)
    if d2 * kk * kk > 1:
        raise ValidityConditionError(f"packing step delta^2 = {d2} > 1/k^2: n too small for (7.13)")
    return d2 * kk / 4


def thm343_explicit_lower_bound(n: Any, d: Any, r: Any, E: Any) -> Fraction:
    """Explicit form of thesis Thm 3.4.3 (3.16) along its proof ((3.17) + Thm 7.3.1 via (7.26)) with
    the empirical-mean step (3.43)(b)-(c): for every eps0-LDP scheme on B_p(r), p in [1, 2),
    sup_{x_i} E||xbar - xhat||^2 >= r^2 (L7/2 - 1/n), L7 = ch7_simplex_lower_bound(k, n, E) with the
    corrected Assouad constant (E-Thesis-Eq7.17), i.e. r^2 (k (E+1)^2 / (256 n E (E-1)^2) - 1/n),
    k = 2 floor(d/2) (laws on the first k basis vectors; d >= 2).  May be <= 0 (vacuous)."""
    dd = _int(d, "d", 2)
    rr = _pos(r, "r")
    lb7 = ch7_simplex_lower_bound(2 * (dd // 2), n, E)
    return rr * rr * (lb7 / 2 - Fraction(1, n))


def thm363_chain_bound(c: Any, n: Any, d: Any, p: Any, eps0: Any) -> sympy.Expr:
    """The right side of thesis (3.43) after step (d): (c/2) d^{1-2/p} min{1, d/(n m)} - d^{1-2/p}/n,
    m = min{eps0, eps0^2}, c the unspecified constant of Lemma 3.6.1 (3.42); exact in sympy."""
    cc, e0 = _pos(c, "c"), _pos(eps0, "eps0")
    dd, nn = _int(d, "d", 1), _int(n, "n", 1)
    m = min(e0, e0 * e0)
    scale = sympy.Integer(dd) ** (1 - 2 * _inv_p(_p_exponent(p, 2)))
    cap = min(Fraction(1), dd / (nn * m))
    return scale * (sympy.Rational(cc.numerator, cc.denominator) / 2 * sympy.Rational(cap.numerator, cap.denominator)
                    - sympy.Rational(1, nn))


def thm363_step_e_holds(c: Any, c_prime: Any, n: Any, d: Any, eps0: Any) -> bool:
    """Step (e) of thesis (3.43) with explicit constants: is the chain bound >= c' d^{1-2/p} min{1, d/(n m)}?
    Exactly iff (c/2 - c') min{1, d/(n m)} >= 1/n (the factor d^{1-2/p} > 0 cancels); so for n m >= d
    it needs m <= (c/2 - c') d (the text's assumption min{eps0, eps0^2} <= O(d)), for n m < d it
    needs n >= 1/(c/2 - c')."""
    cc, cp, e0 = _pos(c, "c"), _pos(c_prime, "c_prime"), _pos(eps0, "eps0")
    dd, nn = _int(d, "d", 1), _int(n, "n", 1)
    m = min(e0, e0 * e0)
    return (cc / 2 - cp) * min(Fraction(1), dd / (nn * m)) >= Fraction(1, nn)


# -- the large-eps0 counterexample ----------------------------------------------------------------

def grid_rr_law(x: Any, E: Any, K: Any) -> dict[Fraction, Fraction]:
    """Exact law of the estimate of an unbiased E-LDP scalar mechanism on [-1, 1] (counterexample to
    the uncapped (3.16)/(3.38) at d = 1, docs/errata.md E-Thesis-Thm3.6.3e): round x stochastically
    (unbiased) to the grid g_i = -1 + 2i/K, i = 0..K; report the rounded point w.p. E/(E+K), each
    other grid point w.p. 1/(E+K) ((K+1)-ary randomized response, likelihood ratio <= E); output
    (E+K)/(E-1) y (unbiased since the grid sums to 0).  Returns {estimate: probability}."""
    xx, e, kk = to_fraction(x, "x"), _E(E), _int(K, "K", 1)
    if kk > MAX_GRID:
        raise InvalidInputError(f"K must be <= {MAX_GRID}, got {kk}")
    if abs(xx) > 1:
        raise InvalidInputError(f"x must lie in [-1, 1], got {xx}")
    pos = (xx + 1) * kk / 2                 # position on the grid, in [0, K]
    lo = min(int(pos), kk - 1)
    w_hi = pos - lo                         # P[round up]
    rounded = {lo: 1 - w_hi, lo + 1: w_hi}
    scale = (e + kk) / (e - 1)
    law: dict[Fraction, Fraction] = {}
    for i in range(kk + 1):
        prob = sum(w * (e if g == i else 1) for g, w in rounded.items()) / (e + kk)
        est = scale * (Fraction(-1) + Fraction(2 * i, kk))
        law[est] = law.get(est, Fraction(0)) + prob
    return law


def grid_rr_sup_variance_bound(E: Any, K: Any) -> Fraction:
    """An upper bound on sup_{x in [-1,1]} Var of :func:`grid_rr_law`:
    (K+1)/(E-1) + (E+K)/((E-1) K^2) + (E+K) Q/(E-1)^2 with Q = sum_i g_i^2 = (K+1)(K+2)/(3K)
    (variance = a E[g^2] + b - x^2 with a = (E+K)/(E-1), E[g^2] <= x^2 + 1/K^2)."""
    e, kk = _E(E), _int(K, "K", 1)
    q = Fraction((kk + 1) * (kk + 2), 3 * kk)
    return Fraction(kk + 1) / (e - 1) + (e + kk) / ((e - 1) * kk * kk) + (e + kk) * q / (e - 1) ** 2


# -- gap table ------------------------------------------------------------------------------------

def hadamard_worst_mse(n: Any, d: Any, r: Any, E: Any) -> Fraction:
    """sup over x_i in B_1(r) of the exact MSE of A^{l1} (thesis Thm 3.4.1 exact form): attained at
    x_i = 0, r^2 d c^2 / n: (1/n^2) sum_i of the per-client exact error
    :func:`bcdp.dme.hadamard.l1_hadamard_mse` at x = 0 (the clients are independent)."""
    nn, dd = _int(n, "n", 1), _int(d, "d", 1)
    return l1_hadamard_mse([0] * dd, r, E) / nn


def _rational_root(x: Fraction, k: int) -> Fraction | None:
    num, num_exact = sympy.integer_nthroot(x.numerator, k)
    den, den_exact = sympy.integer_nthroot(x.denominator, k)
    return Fraction(int(num), int(den)) if num_exact and den_exact else None


def binary_vector_worst_mse(n: Any, d: Any, r: Any, E: Any, s: Any = 1) -> Fraction:
    """sup over b_i in {0, r}^d of the exact MSE of the mean under R^Bin_{v,s} / A^Bin (thesis Algs
    3.3.1-3.3.2) with the 2RR parameter p = 1/(1 + E^{1/s}) in every message: each message has ratio
    (1-p)/p = E^{1/s} (which must be rational), so the client is E-LDP by the composition of Thm 3.3.1
    (exactly E when s divides d; s = 1 is the thesis' s = max{1, eps0} for eps0 <= 1).  Per client the
    truncated form of (3.10) gives d a V + (a-1)||b||^2 (:func:`bcdp.dme.binary_vector.mse_truncated`),
    largest at b = 1_d; times r^2 (inputs scaled by r), divided by n (independent unbiased clients)."""
    nn, dd, ss = _int(n, "n", 1), _int(d, "d", 1), _int(s, "s", 1)
    rr, e = _pos(r, "r"), _E(E)
    if ss > dd:
        raise ValidityConditionError(f"s = {ss} must be in {{1, ..., d}} (thesis Alg 3.3.1)")
    rho = _rational_root(e, ss)
    if rho is None:
        raise InvalidInputError(f"E^(1/s) = {e}^(1/{ss}) must be rational (the 2RR parameter is 1/(1 + E^(1/s)))")
    params = bv.binary_vector_params(dd, ss, p=1 / (1 + rho))
    return rr * rr * bv.mse_truncated((1,) * dd, params) / nn


def linf_worst_input(d: Any, m: Any, s: Any) -> tuple[Fraction, ...]:
    """A z in [0, 1]^d maximising the exact per-client MSE of R^{l_inf}_{v,m,s} (thesis Algs 3.5.1-3.5.2;
    :func:`bcdp.dme.linf.linf_mse_formula`).  Its input-dependent part is a sum over coordinates of
    (a-1)[sum_{k<m} 4^{-k} b_k + 4^{-(m-1)} pi] + 4^{-(m-1)} pi (1 - pi), a = ceil(d/s): largest with every
    digit b_k = 1 (z in [1 - 2^{-(m-1)}, 1]) and pi maximising a pi - pi^2 on [0, 1], i.e. pi = 1 (z = 1)
    when a >= 2 and pi = 1/2 (z = 1 - 2^{-m}) when a = 1 (s = d)."""
    dd, mm, ss = _int(d, "d", 1), _int(m, "m", 1), _int(s, "s", 1)
    if ss > dd:
        raise ValidityConditionError(f"s = {ss} must be in {{1, ..., d}} (thesis Alg 3.5.1)")
    a = -(-dd // ss)
    return (Fraction(1) if a >= 2 else 1 - Fraction(1, 2 ** mm),) * dd


def linf_worst_mse(n: Any, d: Any, r: Any, E: Any, m: Any = 1, s: Any = 1) -> sympy.Expr:
    """sup over x_i in [-r, r]^d of the exact MSE of the mean under R^{l_inf}_{v,m,s} / A^{l_inf} (thesis
    Algs 3.5.1-3.5.2) with total budget v = log E (the client is v-LDP: Thm 3.5.1, sum_k v_k = v) and the
    water-filling split v_k = f_k v of (3.26), exact in sympy:
    4 r^2 (Q(z*) + d a sum_k w_k^2 s^2/(f_k v)^2)/n, with Q the input-dependent part of
    :func:`bcdp.dme.linf.linf_mse_formula` (its value at all p_k = 0) at :func:`linf_worst_input`, level
    weights w_k^2 = 4^{-k} (k < m), 4^{-(m-1)} (k = m), and V_k = s^2/v_k^2 the 2RR variance at Lemma
    2.4.1's p for v_k/s (:func:`bcdp.dme.calibration.two_rr_variance_at_v`)."""
    nn, dd, mm, ss = _int(n, "n", 1), _int(d, "d", 1), _int(m, "m", 1), _int(s, "s", 1)
    rr, e = _pos(r, "r"), _E(E)
    z = linf_worst_input(dd, mm, ss)
    a = -(-dd // ss)
    quant = linf.linf_mse_formula(z, mm, ss, [0] * mm)
    v = sympy.log(sympy.Rational(e.numerator, e.denominator))
    weights = [sympy.Rational(1, 4 ** k) for k in range(1, mm)] + [sympy.Rational(1, 4 ** (mm - 1))]
    privacy = dd * a * sum(w * ss ** 2 / (f * v) ** 2 for w, f in zip(weights, linf.water_filling_split(mm)))
    return 4 * sympy.Rational(rr.numerator, rr.denominator) ** 2 * (
        sympy.Rational(quant.numerator, quant.denominator) + privacy) / nn


#: Schemes of the gap table: name -> exact worst-case MSE of the mean (callable (n, d, r, E)).  Every
#: input domain contains r e_1, ..., r e_d (B_1(r), {0, r}^d, [-r, r]^d), the inputs of the bound.
SCHEMES: dict[str, Callable[[Any, Any, Any, Any], Any]] = {
    "l1-hadamard": hadamard_worst_mse,
    "binary-vector s=1": binary_vector_worst_mse,
    "linf m=1 s=1": functools.partial(linf_worst_mse, m=1, s=1),
    "linf m=3 s=1 water-filling": functools.partial(linf_worst_mse, m=3, s=1),
}


def gap_table(grid: Sequence[tuple[Any, Any, Any, Any]],
              schemes: Mapping[str, Callable[[Any, Any, Any, Any], Fraction]] | None = None) -> list[dict[str, Any]]:
    """Rows (scheme, n, d, r, E, mse, lower_bound, ratio) over ``grid`` = [(n, d, r, E), ...]:
    exact worst-case MSE / :func:`thm343_explicit_lower_bound`; ratio None where the bound is
    vacuous (<= 0).  Grid points outside the validity of (7.26) raise ValidityConditionError.

    The bound is the explicit one for every scheme: its hard inputs are r e_1, ..., r e_k, in each
    scheme's domain.  Lemma 3.6.1 / Thm 3.6.3 (p = inf: P^Bern_{inf,d} is exactly the laws on {0,1}^d,
    the rate d^2/(n min{eps0, eps0^2}) of R^Bin and R^{l_inf}) has no explicit constant (App. B.1 cites
    [DR19, Cor 3]), so the l_inf and binary-vector rows are compared with the simplex bound (rate
    d/(n eps0^2)) and their ratios grow with d.  mse and ratio are sympy numbers for the l_inf rows
    (log E is irrational)."""
    rows = []
    for n, d, r, E in grid:
        lb = thm343_explicit_lower_bound(n, d, r, E)
        for name, fn in (schemes or SCHEMES).items():
            mse = fn(n, d, r, E)
            rows.append({"scheme": name, "n": n, "d": d, "r": to_fraction(r, "r"), "E": _E(E), "mse": mse,
                         "lower_bound": lb, "ratio": mse / lb if lb > 0 else None})
    return rows
