"""User-level LDP scalar mean estimation: Range_scalar and Mean_scalar (thesis Sec. 3.7, Algs 3.7.1-3.7.4).

Thesis Ch. 3, Sec. 3.7 (after [LSA21]); exact in Fractions.  n users, user i holds m samples
x^(i)_j in [-B, B] and sends messages about y_i = (1/m) sum_j x^(i)_j (Def 3.7.1, Remark 3.7.2:
user-level LDP = the whole local dataset is one record).

* Bins (Alg 3.7.2, step 2): k = B/tau intervals of width 2 tau with midpoints
  a_j = -B + (2j - 1) tau, j = 1..k (here 0-based: a_j = -B + (2j + 1) tau).  k must be an integer
  and a power of 2 (the Hadamard step: implicit in the thesis, enforced here).
* Range^user_scalar (Alg 3.7.1): nu = argmin_j |y - a_j| (ties -> the lower index, which keeps
  every closed interval of length 2 tau inside two adjacent bins), then the message of the l1
  Hadamard mechanism R^{l1} (Alg 3.4.1) on e_nu with r1 = 1 and E = e^{eps}: the box's
  P[+] = 1/2 + (sqrt(k) m(j)/2)(E-1)/(E+1) is (3.13) with <H_k(j), e_nu> = sqrt(k) m(j) = H_k[j, nu].
  Reused from :mod:`bcdp.dme.hadamard`.
* Range_scalar (Alg 3.7.2): z_bar = (1/n) sum_i z_i, a_max = argmax_a z_bar(a) (ties -> the lower
  index) and R = [a_max - 3 tau, a_max + 3 tau] (an interval of length b - a = 6 tau; the thesis
  says "sensitivity tau" in one place and 6 tau elsewhere: |Pi y - Pi y'| <= b - a = 6 tau, attained).
* Mean^user_scalar (Alg 3.7.4): z = R(Pi_[a,b] y).  The thesis allows any unbiased eps-LDP R on an
  interval of length 6 tau; the one implemented is the l1 Hadamard mechanism at d = 1 on the centred
  input: with o = (a+b)/2, h = (b-a)/2 = 3 tau and c = (E+1)/(E-1), z = o + s h c with
  P[s = +1] = 1/2 + (y~ - o)/(2 h c).  Unbiased, likelihood ratio <= E, E|z - y~|^2 = h^2 c^2 - (y~ - o)^2
  <= 9 tau^2 c^2 = f(tau, eps) of Thm 3.7.1.
* Mean_scalar (Alg 3.7.3): Range_scalar at eps0/2, then Mean^user_scalar at eps0/2; the exact
  functions take E_half = e^{eps0/2} (rational), so the composed per-user view has ratio <= E_half^2.
* Thm 3.7.1 / Lemma 3.7.1 (3.49): beta = min{1, gamma + (2B/tau) exp(-n (E_h - 1)^2/(200 (E_h + 1)^2))},
  E_h = e^{eps0/2}; :func:`thm371_beta` is this expression (a sympy number), and
  :func:`range_failure_probability` the exact P[some y_i outside R] for fixed user means.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Sequence

import numpy as np
import sympy

from bcdp.core.errors import InvalidInputError, WrongTypeError
from bcdp.core.numbers import to_float_input, to_fraction
from bcdp.dme import hadamard

#: Largest k of the exact functions.
MAX_EXACT_BINS = 64
#: Caps of :func:`range_failure_probability` (the law of the aggregate w in Z^k is enumerated).
MAX_FAILURE_BINS = 8
MAX_FAILURE_USERS = 16
#: Cap on C(n + 2k - 1, 2k - 1), the number of message multisets (a bound on the states of w).
MAX_FAILURE_STATES = 250_000

Message = tuple[int, int]


# -- inputs ---------------------------------------------------------------------------------------

def _positive(value: Any, name: str) -> Fraction:
    v = to_fraction(value, name)
    if v <= 0:
        raise InvalidInputError(f"{name} must be > 0, got {v}")
    return v


def _check_E(E: Any, name: str = "E") -> Fraction:
    E = to_fraction(E, name)
    if E <= 1:
        raise InvalidInputError(f"{name} = e^eps must be > 1 (eps > 0, thesis Sec. 3.7), got {E}")
    return E


def number_of_bins(B: Any, tau: Any) -> int:
    """k = B/tau of Alg 3.7.2, step 2; it must be an integer power of 2 (the Hadamard step of Alg 3.7.1)
    at most :data:`MAX_EXACT_BINS`.  B, tau > 0 exact rationals."""
    B, tau = _positive(B, "B"), _positive(tau, "tau")
    k = B / tau
    if k.denominator != 1 or k.numerator & (k.numerator - 1):
        raise InvalidInputError(f"k = B/tau must be an integer power of 2 (thesis Alg 3.7.2 with the Hadamard "
                                f"step of Alg 3.7.1), got B/tau = {k}")
    if k > MAX_EXACT_BINS:
        raise InvalidInputError(f"k = B/tau = {k} is above the exact cap {MAX_EXACT_BINS}")
    return int(k)


def bin_midpoints(B: Any, tau: Any) -> tuple[Fraction, ...]:
    """a_j = -B + (2j - 1) tau for j = 1..k (thesis Alg 3.7.2, step 2), returned 0-based."""
    k = number_of_bins(B, tau)
    B, tau = to_fraction(B), to_fraction(tau)
    return tuple(-B + (2 * j + 1) * tau for j in range(k))


def user_mean(samples: Sequence[Any], B: Any) -> Fraction:
    """y = (1/m) sum_j x_j (Alg 3.7.1 step 2, Alg 3.7.4); every x_j in [-B, B] (Sec. 3.7), m >= 1."""
    if isinstance(samples, (str, bytes)) or not hasattr(samples, "__len__"):
        raise WrongTypeError(f"samples must be a sequence of exact rationals, got {type(samples).__name__}")
    B = _positive(B, "B")
    xs = [to_fraction(v, f"x[{j}]") for j, v in enumerate(samples)]
    if not xs:
        raise InvalidInputError("a user needs m >= 1 samples")
    for j, v in enumerate(xs):
        if abs(v) > B:
            raise InvalidInputError(f"x[{j}] = {v} is outside [-B, B] = [-{B}, {B}] (thesis Sec. 3.7)")
    return sum(xs, Fraction(0)) / len(xs)


def nearest_bin(y: Any, B: Any, tau: Any) -> int:
    """nu = argmin_j |y - a_j| (Alg 3.7.1, step 3), 0-based, ties to the lower index; y in [-B, B]."""
    mids = bin_midpoints(B, tau)
    y = to_fraction(y, "y")
    if abs(y) > to_fraction(B):
        raise InvalidInputError(f"y = {y} is outside [-B, B]")
    dists = [abs(y - a) for a in mids]
    return dists.index(min(dists))


# -- stage 1: Range ---------------------------------------------------------------------------------

def range_user_law(samples: Sequence[Any], B: Any, tau: Any, E: Any) -> dict[Message, Fraction]:
    """Exact law of the message (j, s) of Range^user_scalar (Alg 3.7.1) at E = e^{eps}: the l1 Hadamard
    law (Alg 3.4.1, (3.13)) of e_nu with r1 = 1, nu the nearest bin of the user mean."""
    k = number_of_bins(B, tau)
    nu = nearest_bin(user_mean(samples, B), B, tau)
    return hadamard.l1_hadamard_law(tuple(Fraction(int(i == nu)) for i in range(k)), 1, _check_E(E))


def range_user_output(message: Message, k: Any, E: Any) -> tuple[Fraction, ...]:
    """z = s H_k(j) (E+1)/(E-1) in R^k of the message (j, s) (Alg 3.7.1, step 6)."""
    return hadamard.l1_hadamard_output(message, k, 1, _check_E(E))


def range_from_messages(messages: Sequence[Message], B: Any, tau: Any, E: Any) -> tuple[Fraction, Fraction]:
    """Alg 3.7.2 steps 6-8: z_bar = (1/n) sum z_i, a_max = argmax z_bar (ties -> lower index) and
    R = [a_max - 3 tau, a_max + 3 tau], returned as (a, b)."""
    k = number_of_bins(B, tau)
    zbar = hadamard.l1_hadamard_aggregate(messages, k, 1, _check_E(E))
    j = zbar.index(max(zbar))
    a_max, tau = bin_midpoints(B, tau)[j], to_fraction(tau)
    return a_max - 3 * tau, a_max + 3 * tau


def _argmax_lowest(v: Sequence[Any]) -> int:
    best = max(v)
    return list(v).index(best)


def range_failure_probability(ys: Sequence[Any], B: Any, tau: Any, E: Any) -> dict[str, Fraction]:
    """Exact P[some y_i is outside R = Range_scalar] for fixed user means y_1..y_n (Alg 3.7.2 at E = e^{eps}).

    The aggregate is z_bar = (c/n) H_k w with w[j] = sum of the signs of the messages with column j,
    so the law of w in Z^k (a convolution over the n users, enumerated exactly) gives the law of
    a_max.  Returns ``{"lowest_index": P with ties to the lower index (the library's rule),
    "any_tie": P that some maximiser of z_bar gives a range missing a y_i (the pessimistic rule),
    "argmax_outside_occupied": P that a_max (lower index) is not a bin holding some y_i}``.
    k <= :data:`MAX_FAILURE_BINS`, n <= :data:`MAX_FAILURE_USERS` and C(n + 2k - 1, 2k - 1) <=
    :data:`MAX_FAILURE_STATES`."""
    k = number_of_bins(B, tau)
    if k > MAX_FAILURE_BINS:
        raise InvalidInputError(f"k = {k} is above the cap {MAX_FAILURE_BINS} of the exact failure law")
    if not 1 <= len(ys) <= MAX_FAILURE_USERS:
        raise InvalidInputError(f"need 1 <= n <= {MAX_FAILURE_USERS} users, got {len(ys)}")
    if math.comb(len(ys) + 2 * k - 1, 2 * k - 1) > MAX_FAILURE_STATES:
        raise InvalidInputError(f"n = {len(ys)} users with k = {k} bins exceed the exact state cap "
                                f"C(n + 2k - 1, 2k - 1) <= {MAX_FAILURE_STATES}")
    E = _check_E(E)
    tauf = to_fraction(tau)
    yv = [to_fraction(y, f"y[{i}]") for i, y in enumerate(ys)]
    nus = [nearest_bin(y, B, tau) for y in yv]
    H = hadamard.sylvester_hadamard(k)
    mids = bin_midpoints(B, tau)
    dist: dict[tuple[int, ...], Fraction] = {tuple([0] * k): Fraction(1)}
    for nu in nus:
        law = hadamard.l1_hadamard_law(tuple(Fraction(int(i == nu)) for i in range(k)), 1, E)
        new: dict[tuple[int, ...], Fraction] = {}
        for w, p in dist.items():
            for (j, s), q in law.items():
                w2 = list(w)
                w2[j] += s
                key = tuple(w2)
                new[key] = new.get(key, Fraction(0)) + p * q
        dist = new
    occupied = set(nus)

    def misses(j: int) -> bool:
        return any(abs(y - mids[j]) > 3 * tauf for y in yv)

    low = tie = outside = Fraction(0)
    for w, p in dist.items():
        zb = [sum(H[j][a] * w[j] for j in range(k)) for a in range(k)]  # (n/c) z_bar(a)
        top = max(zb)
        winners = [a for a in range(k) if zb[a] == top]
        if misses(winners[0]):
            low += p
        if any(misses(a) for a in winners):
            tie += p
        if winners[0] not in occupied:
            outside += p
    return {"lowest_index": low, "any_tie": tie, "argmax_outside_occupied": outside}


def thm371_beta(n: Any, B: Any, tau: Any, E_half: Any, gamma: Any = 0) -> sympy.Expr:
    """beta = min{1, gamma + (2B/tau) exp(-n (E_h - 1)^2 / (200 (E_h + 1)^2))} of Thm 3.7.1 / Lemma 3.7.1
    (3.49), E_h = e^{eps0/2} > 1 rational, gamma in [0, 1]; an exact sympy number."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or int(n) < 1:
        raise InvalidInputError(f"n must be an integer >= 1, got {n!r}")
    B, tau, Eh = _positive(B, "B"), _positive(tau, "tau"), _check_E(E_half, "E_half")
    gamma = to_fraction(gamma, "gamma")
    if not 0 <= gamma <= 1:
        raise InvalidInputError(f"gamma must be in [0, 1], got {gamma}")
    R = sympy.Rational
    ratio = R((Eh - 1).numerator, (Eh - 1).denominator) / R((Eh + 1).numerator, (Eh + 1).denominator)
    inner = R(gamma.numerator, gamma.denominator) + 2 * R(B.numerator, B.denominator) / R(
        tau.numerator, tau.denominator) * sympy.exp(-int(n) * ratio ** 2 / 200)
    return sympy.Min(1, inner)


# -- stage 2: Mean ----------------------------------------------------------------------------------

def _check_range(a: Any, b: Any) -> tuple[Fraction, Fraction]:
    a, b = to_fraction(a, "a"), to_fraction(b, "b")
    if not a < b:
        raise InvalidInputError(f"the range [a, b] needs a < b, got [{a}, {b}]")
    return a, b


def project(y: Any, a: Any, b: Any) -> Fraction:
    """Pi_[a,b] y = min{b, max{a, y}} (Alg 3.7.4)."""
    a, b = _check_range(a, b)
    return min(b, max(a, to_fraction(y, "y")))


def second_stage_law(y_tilde: Any, a: Any, b: Any, E: Any) -> dict[int, Fraction]:
    """Law of the sign s of the second-stage randomizer R on [a, b] (Alg 3.7.4, concrete R): the l1
    Hadamard mechanism at d = 1 (Alg 3.4.1) on y~ - o with r1 = h, o = (a+b)/2, h = (b-a)/2.
    y~ must lie in [a, b]."""
    a, b = _check_range(a, b)
    y = to_fraction(y_tilde, "y_tilde")
    if not a <= y <= b:
        raise InvalidInputError(f"y_tilde = {y} is outside [a, b] = [{a}, {b}]: project it first")
    law = hadamard.l1_hadamard_law((y - (a + b) / 2,), (b - a) / 2, _check_E(E))
    return {s: p for (_, s), p in law.items()}


def second_stage_output(s: int, a: Any, b: Any, E: Any) -> Fraction:
    """z = o + s h (E+1)/(E-1) for the sign s (o = (a+b)/2, h = (b-a)/2)."""
    a, b = _check_range(a, b)
    return (a + b) / 2 + hadamard.l1_hadamard_output((0, s), 1, (b - a) / 2, _check_E(E))[0]


def second_stage_mse(y_tilde: Any, a: Any, b: Any, E: Any) -> Fraction:
    """E|R(y~) - y~|^2 = h^2 c^2 - (y~ - o)^2 <= h^2 c^2 (Lemma 3.4.1(2) at d = 1); with b - a = 6 tau
    the bound 9 tau^2 c^2 is the f(tau, eps) of Thm 3.7.1 for this R."""
    a, b = _check_range(a, b)
    y = to_fraction(y_tilde, "y_tilde")
    second_stage_law(y, a, b, E)
    return hadamard.l1_hadamard_mse((y - (a + b) / 2,), (b - a) / 2, E)


def mean_user_law(samples: Sequence[Any], B: Any, a: Any, b: Any, E: Any) -> dict[int, Fraction]:
    """Law of the sign of Mean^user_scalar(D, [a, b], eps) (Alg 3.7.4): R(Pi_[a,b] y)."""
    return second_stage_law(project(user_mean(samples, B), a, b), a, b, E)


def user_view_law(samples: Sequence[Any], B: Any, tau: Any, a: Any, b: Any,
                  E_half: Any) -> dict[tuple[Message, int], Fraction]:
    """Law of one user's two messages in Mean_scalar (Alg 3.7.3) given the public range [a, b]:
    the product of Range^user at E_half = e^{eps0/2} and Mean^user at E_half (the randomness of
    the two stages is independent)."""
    first = range_user_law(samples, B, tau, E_half)
    second = mean_user_law(samples, B, a, b, E_half)
    return {(m, s): p * q for m, p in first.items() for s, q in second.items()}


def max_likelihood_ratio(law_p: dict, law_q: dict) -> Fraction:
    """max over outputs of P[o] / Q[o] (both laws with the same full support)."""
    if set(law_p) != set(law_q) or any(v <= 0 for v in law_q.values()):
        raise InvalidInputError("the two laws need the same support with positive probabilities")
    return max(law_p[o] / law_q[o] for o in law_p)


def mean_scalar_error(datasets: Sequence[Sequence[Any]], B: Any, a: Any, b: Any, E: Any) -> Fraction:
    """Exact E|x_bar - x_hat|^2 of Mean_scalar given the range [a, b] (Alg 3.7.3, (3.48), (3.51)):
    (1/n^2) sum_i E|R(y~_i) - y~_i|^2 + (mean_i y~_i - x_bar)^2, x_bar = (1/(nm)) sum_ij x^(i)_j
    (all users with the same m).  When every y_i is in [a, b] the bias term is 0 and this is the
    (3.51) term, <= f/n."""
    if not datasets:
        raise InvalidInputError("need at least one user")
    sizes = {len(D) for D in datasets}
    if len(sizes) != 1:
        raise InvalidInputError(f"every user needs the same m, got {sorted(sizes)}")
    ys = [user_mean(D, B) for D in datasets]
    yt = [project(y, a, b) for y in ys]
    n = len(ys)
    var = sum((second_stage_mse(v, a, b, E) for v in yt), Fraction(0)) / (n * n)
    bias = sum(yt, Fraction(0)) / n - sum(ys, Fraction(0)) / n
    return var + bias * bias


# -- float twins --------------------------------------------------------------------------------------

def _float_bins(B: Any, tau: Any) -> tuple[float, float, int]:
    Bf, tf = to_float_input(B, "B"), to_float_input(tau, "tau")
    if not (Bf > 0 and tf > 0):
        raise InvalidInputError("B and tau must be > 0")
    k = Bf / tf
    ki = int(round(k))
    if abs(k - ki) > 1e-9 * k or ki < 1 or ki & (ki - 1):
        raise InvalidInputError(f"k = B/tau must be an integer power of 2, got {k!r}")
    return Bf, tf, ki


def nearest_bin_float(y: Any, B: Any, tau: Any) -> np.ndarray:
    """nu_i for an array of user means (Alg 3.7.1 step 3; ties to the lower index): ceil((y+B)/(2 tau)) - 1
    clipped to 0..k-1."""
    Bf, tf, k = _float_bins(B, tau)
    y = np.asarray(y, dtype=np.float64)
    return np.clip(np.ceil((y + Bf) / (2 * tf)) - 1, 0, k - 1).astype(np.int64)


def range_failure_rate_float(y: Any, B: Any, tau: Any, E: Any, rng: np.random.Generator,
                             trials: int) -> int:
    """Number of ``trials`` independent runs of Range_scalar (Alg 3.7.2 at E = e^{eps}) on the fixed means
    ``y`` (n,) whose range [a_max - 3 tau, a_max + 3 tau] misses some y_i (vectorised over trials x users)."""
    if not isinstance(rng, np.random.Generator):
        raise WrongTypeError("rng must be a numpy.random.Generator")
    Bf, tf, k = _float_bins(B, tau)
    Ef = to_float_input(E, "E")
    if not Ef > 1:
        raise InvalidInputError(f"E must be > 1, got {Ef}")
    c = (Ef + 1) / (Ef - 1)
    y = np.asarray(y, dtype=np.float64)
    nu = nearest_bin_float(y, B, tau)
    H = np.array(hadamard.sylvester_hadamard(k), dtype=np.float64)
    mids = -Bf + (2 * np.arange(k) + 1) * tf
    bad_bin = np.array([np.any(np.abs(y - mids[j]) > 3 * tf * (1 + 1e-12)) for j in range(k)])
    fails, n = 0, y.size
    chunk = max(1, 2_000_000 // max(n, 1))
    done = 0
    while done < trials:
        t = min(chunk, trials - done)
        j = rng.integers(0, k, size=(t, n))
        p_plus = 0.5 + H[j, nu[None, :]] / (2 * c)
        s = np.where(rng.random((t, n)) < p_plus, 1.0, -1.0)
        rows = np.repeat(np.arange(t) * k, n).reshape(t, n)
        w = np.bincount((rows + j).ravel(), weights=s.ravel(), minlength=t * k).reshape(t, k)
        a_max = np.argmax(w @ H, axis=1)  # lowest index on ties, as the exact rule
        fails += int(bad_bin[a_max].sum())
        done += t
    return fails


def mean_scalar_float(samples: Any, B: Any, tau: Any, E_half: Any, rng: np.random.Generator) -> float:
    """One run of Mean_scalar (Alg 3.7.3) on an (n, m) array of samples in [-B, B], float64: Range_scalar
    at E_half = e^{eps0/2} (Hadamard messages via :func:`bcdp.dme.hadamard.l1_hadamard_sample_float`)
    then the d = 1 second stage at E_half on [a, b]; returns x_hat."""
    if not isinstance(rng, np.random.Generator):
        raise WrongTypeError("rng must be a numpy.random.Generator")
    Bf, tf, k = _float_bins(B, tau)
    x = np.asarray(samples, dtype=np.float64)
    if x.ndim != 2 or x.size == 0 or not np.all(np.isfinite(x)) or np.any(np.abs(x) > Bf):
        raise InvalidInputError("samples must be a finite (n, m) array with entries in [-B, B]")
    Ef = to_float_input(E_half, "E_half")
    if not Ef > 1:
        raise InvalidInputError(f"E_half must be > 1, got {Ef}")
    y = x.mean(axis=1)
    onehot = np.eye(k)[nearest_bin_float(y, B, tau)]
    j, s = hadamard.l1_hadamard_sample_float(onehot, 1, Ef, rng)
    zbar = hadamard.l1_hadamard_aggregate_float(j, s, k, 1, Ef)
    a_max = -Bf + (2 * int(np.argmax(zbar)) + 1) * tf
    lo, hi = a_max - 3 * tf, a_max + 3 * tf
    o, h, c = (lo + hi) / 2, (hi - lo) / 2, (Ef + 1) / (Ef - 1)
    yt = np.clip(y, lo, hi)
    sign = np.where(rng.random(y.size) < 0.5 + (yt - o) / (2 * h * c), 1.0, -1.0)
    return float(np.mean(o + sign * h * c))
