"""Explicit accountants for the privacy statements of thesis Ch. 4 (Thms 4.3.1 and 4.4.1).

The thesis states both privacy results in O-notation (eqs. (4.2), (4.9)); their proofs
(Sec. 4.3.1.1, App. C.1 for CLDP-SGD; Sec. 4.4.1.1, App. C.2 for dss-SGD) are chains of explicit
steps, and these functions evaluate the chain with explicit constants:

1. **Shuffle of one round** (App. C.1, (C.2); App. C.2, (C.12)): the shuffle of the ks (or K_t)
   eps0-LDP messages is (eps~, delta~)-DP.  The thesis cites [BBG19d, Cor 5.3.1] with an O(.)
   constant; here eps~ is FMT21 Thm 3.1 (= thesis eq. (6.10), explicit constants,
   :func:`bcdp.accounting.amplification.clones_closed_form`, validity condition
   ``eps0 <= log(ks / (16 log(2/delta~)))`` enforced), or a value supplied by the caller.
2. **Subsampling** (Lemma 2.1.1, re-proved for two-stage sampling in App. C.1.1 / C.1.2):
   ``eps = log(1 + q (e^eps~ - 1))``, ``delta = q delta~`` with q = ks/(mn) when s = 1, and
   ``eps = log(1 + q2 (e^eps~ - 1))``, ``delta = q delta~`` with q2 = s/m when s > 1 (App. C.1.2).
3. **Strong composition** over T rounds (Lemma 2.1.2 = [DR14, Thm 3.20]):
   ``eps_T = sqrt(2 T log(1/delta')) eps + T eps (e^eps - 1)``, ``delta_T = T delta + delta'``,
   with the thesis' split ``delta~ = delta/(2qT)``, ``delta' = delta/2`` (Thm 4.3.1) and
   ``delta~ = delta'/(qbar T)`` (Thm 4.4.1).

dss-SGD (Lemma 4.4.1, App. C.2): K_t ~ Bin(n, q) clients take part.  The proof splits on K_t in a
window [l, u] = [(1-w) qn, (1+w) qn] (the thesis takes w = 1/2); inside, q_k = k/n <= u/n and
eps~(k) <= eps~(l) (FMT21's bound decreases in the number of messages), so one round is
``(log(1 + (u/(nm)) (e^{eps~(l)} - 1)), qbar delta~ + P[K_t not in [l, u]])``-DP.  The constant c'
of ``e^{-c' qn}`` is unspecified in the thesis; this module gives the tail exactly
(:func:`binomial_outside_window`, certified enclosure of the binomial sum), or by the Chernoff
bounds (C.23)-(C.24), ``2 exp(-qn w^2/3)``, and an explicit valid c' for the printed form
(:func:`dss_c_prime`).  Neighbouring relation: replacement of one data point (App. C.1, C.2).

Inputs are floats or ints (certified at their exact binary values, like
:mod:`bcdp.accounting.amplification`); every returned epsilon/delta is an upper end rounded
outward, so it is a valid guarantee for the stated neighbouring relation.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from numbers import Integral, Real
from typing import Any, Mapping

from bcdp.accounting.amplification import (
    advanced_composition,
    clones_closed_form,
    subsampling_amplification,
)
from bcdp.core.errors import InvalidInputError, ValidityConditionError, WrongTypeError
from bcdp.core.intervals import arb_precision, ball_lower, ball_of, ball_upper, float_down, float_up

#: Bits of the arb balls used for the binomial tails and the constant c'.
TAIL_PREC = 128
SHUFFLE_VARIANTS = ("theorem-3.1", "author-code")
TAIL_METHODS = ("exact", "chernoff")


@dataclass(frozen=True)
class FLPrivacy:
    """An (eps, delta)-DP guarantee of T rounds with the intermediate values of the accountant.

    ``epsilon`` and ``delta`` are certified upper ends (the algorithm is (epsilon, delta)-DP);
    ``per_round`` holds (eps, delta) of one round, ``details`` the shuffle eps~, delta~, q, the
    split, and the method."""

    epsilon: float
    delta: float
    per_round: tuple[float, float]
    details: Mapping[str, Any] = field(default_factory=dict, compare=False)

    def __getattr__(self, name: str) -> Any:
        details = self.__dict__.get("details") or {}
        if name in details:
            return details[name]
        raise AttributeError(f"FLPrivacy has no field or detail {name!r}")


def _count(name: str, value: Any, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise WrongTypeError(f"{name} must be an integer, got {value!r}")
    if int(value) < minimum:
        raise InvalidInputError(f"{name} must be >= {minimum}, got {value}")
    return int(value)


def _real(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, Real) or isinstance(value, Fraction):
        raise WrongTypeError(f"{name} must be a float or int, got {type(value).__name__}")
    v = float(value)
    if not math.isfinite(v):
        raise InvalidInputError(f"{name} must be finite, got {value!r}")
    return v


def _prob(name: str, value: Any, *, allow_one: bool = False) -> float:
    v = _real(name, value)
    if not (0 < v < 1 or (allow_one and v == 1)):
        raise InvalidInputError(f"{name} must be in (0, 1{']' if allow_one else ')'}, got {value!r}")
    return v


def _variant(variant: str) -> str:
    if variant not in SHUFFLE_VARIANTS:
        raise InvalidInputError(f"variant must be one of {SHUFFLE_VARIANTS}, got {variant!r}")
    return variant


def _shuffle_eps(eps0: float, messages: int, delta_tilde: float, eps_tilde: Any, variant: str) -> float:
    """eps~ of the shuffle of ``messages`` eps0-LDP reports at delta~ (FMT21 Thm 3.1, or given)."""
    if eps_tilde is not None:
        e = _real("eps_tilde", eps_tilde)
        if e < 0:
            raise InvalidInputError(f"eps_tilde must be >= 0, got {eps_tilde!r}")
        return e
    return clones_closed_form(eps0, messages, delta_tilde, variant=variant, outside="raise")


def cldp_sgd_accountant(eps0: float, n: int, m: int, k: int, T: int, delta: float, *, s: int = 1,
                        eps_tilde: float | None = None, variant: str = "theorem-3.1") -> FLPrivacy:
    """Thm 4.3.1 (privacy, eq. (4.2)) and App. C.1.2 (s > 1) with explicit constants: CLDP-SGD
    (Alg 4.3.1) over T rounds, k of n clients, s of m samples each, is (epsilon, delta_T)-DP with
    delta_T <= delta (up to outward rounding).

    Per round: eps~ = FMT21 Thm 3.1 at ks messages and delta~ = delta/(2qT) (or ``eps_tilde``,
    which the caller asserts is valid for the shuffle of ks reports at that delta~), then
    ``eps = log(1 + q (e^eps~ - 1))`` (s = 1, q = ks/(mn); App. C.1.1) or
    ``log(1 + q2 (e^eps~ - 1))`` (s > 1, q2 = s/m; App. C.1.2), ``delta_round = q delta~``; then
    strong composition (Lemma 2.1.2) with delta' = delta/2.  Validity: FMT21 Thm 3.1 needs
    ``eps0 <= log(ks/(16 log(2/delta~)))`` (ValidityConditionError otherwise; the thesis' own
    condition ``eps0 <= log(qmn/log(1/delta~))/2`` belongs to the O-constant of [BBG19d]).
    Neighbouring: replacement of one data point.
    """
    eps0 = _real("eps0", eps0)
    if eps0 < 0:
        raise InvalidInputError(f"eps0 must be >= 0, got {eps0!r}")
    n, m, k, T, s = (_count(a, v) for a, v in (("n", n), ("m", m), ("k", k), ("T", T), ("s", s)))
    if k > n or s > m:
        raise InvalidInputError(f"need k <= n and s <= m, got k={k}, n={n}, s={s}, m={m}")
    delta = _prob("delta", delta)
    variant = _variant(variant)
    q = Fraction(k * s, m * n)
    q2 = Fraction(s, m)
    delta_tilde = float_down(Fraction(delta) / (2 * q * T))
    delta_prime = float_down(Fraction(delta) / 2)
    et = _shuffle_eps(eps0, k * s, delta_tilde, eps_tilde, variant)
    rate = q if s == 1 else q2
    eps_round = subsampling_amplification(et, delta_tilde, rate)[0]
    delta_round = float_up(q * Fraction(delta_tilde))
    eps_T, delta_T = advanced_composition(eps_round, delta_round, T, delta_prime)
    return FLPrivacy(eps_T, delta_T, (eps_round, delta_round), {
        "eps_tilde": et, "delta_tilde": delta_tilde, "delta_prime": delta_prime, "q": q,
        "amplification_rate": rate, "shuffle": "given" if eps_tilde is not None else f"FMT21 ({variant})",
        "messages_per_round": k * s,
        "method": "Thm 4.3.1 / App. C.1: shuffle (eps~, delta~) -> Lemma 2.1.1 subsampling -> Lemma 2.1.2"})


def dss_window(n: int, q: float, w: float = 0.5) -> tuple[int, int]:
    """The window [l, u] of App. C.2 (C.22): l = max(1, ceil((1-w) q n)), u = min(n, floor((1+w) q n)),
    computed exactly from the binary value of q (0 < w < 1)."""
    n = _count("n", n)
    q = _prob("q", q, allow_one=True)
    w = _prob("w", w)
    mean = Fraction(q) * n
    lo = max(1, math.ceil((1 - Fraction(w)) * mean))
    hi = min(n, math.floor((1 + Fraction(w)) * mean))
    if lo > hi:
        raise ValidityConditionError(f"empty window: (1-w)qn = {float((1 - Fraction(w)) * mean):.6g} "
                                     f"and (1+w)qn = {float((1 + Fraction(w)) * mean):.6g} contain no integer >= 1")
    return lo, hi


def _tail_sum(n: int, qb: Any, start: int, step: int, stop: int) -> Any:
    """Ball enclosing sum of Bin(n, q) pmf over j = start, start+step, ... up to ``stop`` (inclusive),
    summed term by term until the remaining terms are bounded by a geometric series."""
    one = ball_of(1)
    term = _pmf(n, qb, start)
    total = ball_of(0)
    j = start
    while True:
        total += term
        if j == stop:
            return total
        nxt = j + step
        # ratio pmf(nxt)/pmf(j)
        if step < 0:
            r = ball_of(j) * (one - qb) / (ball_of(n - j + 1) * qb)
        else:
            r = ball_of(n - j) * qb / (ball_of(j + 1) * (one - qb))
        new = term * r
        if new.is_zero():                      # q = 0 or 1 at the boundary: every later term is 0
            return total
        if r < one and new < total * ball_of(Fraction(1, 2 ** 80)):
            # every later ratio is <= r (the pmf is log-concave): the rest is <= new / (1 - r)
            rest = new / (one - r)
            return total + ball_of(0).union(rest)
        term, j = new, nxt


def _pmf(n: int, qb: Any, j: int) -> Any:
    import flint

    return flint.arb.bin_uiui(n, j) * qb ** j * (1 - qb) ** (n - j)


def binomial_outside_window(n: int, q: float, lo: int, hi: int) -> tuple[float, float]:
    """Certified enclosure (lower, upper) of P[K < lo] + P[K > hi] for K ~ Bin(n, q) (the exact
    binomial tail that the thesis bounds by e^{-c'qn} in Lemma 4.4.1 / (C.23)-(C.24))."""
    n = _count("n", n)
    q = _prob("q", q, allow_one=True)
    lo, hi = _count("lo", lo, 0), _count("hi", hi, 0)
    if not lo <= hi <= n:
        raise InvalidInputError(f"need lo <= hi <= n, got lo={lo}, hi={hi}, n={n}")
    if q == 1:                                 # K = n surely (the pmf ratios below would divide by 1 - q = 0)
        return (1.0, 1.0) if hi < n else (0.0, 0.0)
    with arb_precision(TAIL_PREC):
        qb = ball_of(q)
        tot = ball_of(0)
        if lo >= 1:
            tot += _tail_sum(n, qb, lo - 1, -1, 0)
        if hi < n:
            tot += _tail_sum(n, qb, hi + 1, +1, n)
        return max(0.0, float_down(ball_lower(tot))), min(1.0, float_up(ball_upper(tot)))


def chernoff_outside_window(n: int, q: float, w: float = 0.5) -> float:
    """(C.23)-(C.24): P[K >= (1+w)qn] + P[K <= (1-w)qn] <= 2 exp(-qn w^2/3) (upper end)."""
    n = _count("n", n)
    q = _prob("q", q, allow_one=True)
    w = _prob("w", w)
    with arb_precision(TAIL_PREC):
        v = 2 * (-(ball_of(q) * n * ball_of(w) ** 2 / 3)).exp()
        return min(1.0, float_up(ball_upper(v)))


def dss_c_prime(eps0: float, n: int, q: float) -> float:
    """An explicit constant c' of Lemma 4.4.1 / (C.27): ``2 e^{eps0} exp(-qn/12) = exp(-c' qn)`` for
    ``c' = 1/12 - (eps0 + log 2)/(qn)`` (returned rounded down: any smaller c' is also valid).
    (C.26) bounds the tail term by 2 e^{eps~(1)} exp(-qn/12) with eps~(1) <= eps0.  Validity:
    c' > 0, i.e. qn > 12 (eps0 + log 2) (ValidityConditionError otherwise); c' < 1 always."""
    eps0 = _real("eps0", eps0)
    if eps0 < 0:
        raise InvalidInputError(f"eps0 must be >= 0, got {eps0!r}")
    n = _count("n", n)
    q = _prob("q", q, allow_one=True)
    with arb_precision(TAIL_PREC):
        c = ball_of(Fraction(1, 12)) - (ball_of(eps0) + ball_of(2).log()) / (ball_of(q) * n)
        if not c > 0:
            raise ValidityConditionError(f"c' = 1/12 - (eps0 + log 2)/(qn) > 0 needs qn > 12(eps0 + log 2); "
                                         f"got qn = {q * n:.6g}, eps0 = {eps0:g}")
        return float_down(ball_lower(c))


def dss_sgd_accountant(eps0: float, n: int, m: int, q: float, T: int, delta_prime: float, *,
                       w: float = 0.5, tail: str = "exact", eps_tilde: float | None = None,
                       variant: str = "theorem-3.1", blocks: int = 1) -> FLPrivacy:
    """Thm 4.4.1 (privacy, eq. (4.9)) / Lemma 4.4.1 with explicit constants: dss-SGD (each of n
    clients joins a round with probability q, uses 1 of its m samples) over T rounds is
    (epsilon, delta_T)-DP with ``delta_T = qbar T delta~ + T tail + delta' = 2 delta' + T tail``
    (qbar = q/m, delta~ = delta'/(qbar T); the thesis writes tail = e^{-c'qn}).

    Per round (App. C.2 with the window [l, u] of :func:`dss_window`): eps~(l) = FMT21 Thm 3.1 at l
    messages and delta~ (validity ``eps0 <= log(l/(16 log(2/delta~)))``, ValidityConditionError
    otherwise; or ``eps_tilde``, asserted valid for every k >= l), ``eps = log(1 + (u/(nm))
    (e^{eps~(l)} - 1))`` (the thesis' (C.28) before its O-step), ``delta_round = qbar delta~ + tail``
    with tail = P[K not in [l, u]] (``tail="exact"``, certified binomial sum) or 2 exp(-qn w^2/3)
    (``"chernoff"``, (C.23)-(C.24)).  Then strong composition (Lemma 2.1.2 [DR14, Thm 3.20]) with
    delta'.  Neighbouring: replacement of one data point.

    ``blocks`` > 1 (not in the thesis; a tighter use of the same step): the window is cut into ``blocks``
    consecutive pieces [k_i, k_{i+1}] and eps = max_i log(1 + (k_{i+1}/(nm)) (e^{eps~(k_i)} - 1)) (same
    monotonicity on each piece; ``blocks = 1`` is the thesis' bound; ``eps_tilde`` needs ``blocks = 1``).
    """
    eps0 = _real("eps0", eps0)
    if eps0 < 0:
        raise InvalidInputError(f"eps0 must be >= 0, got {eps0!r}")
    n, m, T, blocks = (_count(a, v) for a, v in (("n", n), ("m", m), ("T", T), ("blocks", blocks)))
    if blocks > 1 and eps_tilde is not None:
        raise InvalidInputError("eps_tilde is one value for the whole window: use blocks = 1")
    q = _prob("q", q, allow_one=True)
    delta_prime = _prob("delta_prime", delta_prime)
    if tail not in TAIL_METHODS:
        raise InvalidInputError(f"tail must be one of {TAIL_METHODS}, got {tail!r}")
    variant = _variant(variant)
    lo, hi = dss_window(n, q, w)
    qbar = Fraction(q) / m
    delta_tilde = float_down(Fraction(delta_prime) / (qbar * T))
    if not delta_tilde < 1:
        raise ValidityConditionError(f"delta~ = delta'/(qbar T) = {delta_tilde:.6g} must be < 1")
    et = _shuffle_eps(eps0, lo, delta_tilde, eps_tilde, variant)
    rate = Fraction(hi, n * m)
    eps_round = subsampling_amplification(et, delta_tilde, rate)[0]
    if blocks > 1:
        cuts = sorted({lo + (hi - lo) * i // blocks for i in range(blocks + 1)})
        eps_round = max(subsampling_amplification(_shuffle_eps(eps0, a, delta_tilde, None, variant), delta_tilde,
                                                  Fraction(b, n * m))[0]
                        for a, b in zip(cuts, cuts[1:]))
    tail_up = binomial_outside_window(n, q, lo, hi)[1] if tail == "exact" else chernoff_outside_window(n, q, w)
    delta_round = float_up(qbar * Fraction(delta_tilde) + Fraction(tail_up))
    eps_T, delta_T = advanced_composition(eps_round, delta_round, T, delta_prime)
    return FLPrivacy(eps_T, delta_T, (eps_round, delta_round), {
        "eps_tilde": et, "delta_tilde": delta_tilde, "delta_prime": delta_prime, "qbar": qbar,
        "window": (lo, hi), "blocks": blocks, "tail": tail_up, "tail_method": tail, "amplification_rate": rate,
        "shuffle": "given" if eps_tilde is not None else f"FMT21 ({variant})",
        "method": "Thm 4.4.1 / App. C.2: window [l,u] on K_t ~ Bin(n,q), shuffle eps~(l), rate u/(nm), "
                  "tail outside the window, Lemma 2.1.2"})


__all__ = ["FLPrivacy", "SHUFFLE_VARIANTS", "TAIL_METHODS", "binomial_outside_window", "chernoff_outside_window",
           "cldp_sgd_accountant", "dss_c_prime", "dss_sgd_accountant", "dss_window"]
