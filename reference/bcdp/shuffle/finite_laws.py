"""Exact laws of the shuffle model for general finite eps0-LDP randomizers, small n (thesis Ch. 5).

Setting (thesis Sec. 5.2, eq. (5.1)-(5.2)).  Each of n users applies the same eps0-LDP randomizer R
to its record; the shuffler outputs the multiset of reports, i.e. the histogram h in A^n_B
(eq. (5.2)); its law is the Poisson-multinomial F(P) of eq. (5.18).

* :func:`shuffled_law` -- exact Fractions, Poisson-multinomial by convolution;
* :func:`subsampled_shuffled_law` -- thesis (5.3): uniform k-of-n without replacement, and Poisson
  sampling as used for Figure 5.5;
* :func:`shuffled_rdp_exact`, :func:`subsampled_shuffled_rdp_exact` -- Renyi divergences of those
  laws (:func:`bcdp.core.divergences.renyi_divergence`; the exact moment is
  :func:`bcdp.core.divergences.renyi_moment_exact`);
* kernels :func:`kary_rr_kernel`, :func:`random_ldp_kernel`, and :func:`exact_exp_eps0`.

Kernel entries are exact (floats refused, :func:`bcdp.core.numbers.to_fraction`); eps0 is given as
the log of a rational (``sympy.log(3)``, ``"log(3/2)"``) or through ``exp_eps0`` = e^{eps0}.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from numbers import Integral
from typing import Any, Iterable, Sequence

import mpmath

from bcdp.core.errors import FloatRefusedError, InvalidInputError, WrongTypeError
from bcdp.core.numbers import INFINITY, MAX_DPS, MIN_DPS, check_precision, to_fraction
from bcdp.shuffle.inputs import (
    check_direction,
    exact_alpha,
    parse_closed_form,
)

Histogram = tuple


def exact_exp_eps0(eps0: Any = None, *, exp_eps0: Any = None) -> Fraction:
    """E = e^{eps0} as an exact Fraction.  Give either ``eps0`` as the log of a rational
    (``sympy.log(3)``, the string ``"log(3)"``, or 0) or ``exp_eps0`` = E itself (rational >= 1)."""
    if (eps0 is None) == (exp_eps0 is None):
        raise InvalidInputError("give exactly one of eps0 (log of a rational) and exp_eps0")
    if exp_eps0 is not None:
        E = to_fraction(exp_eps0, "exp_eps0")
    else:
        import sympy

        if isinstance(eps0, float):
            raise FloatRefusedError("eps0: floats are refused; pass sympy.log(r) or 'log(r)'")
        expr = parse_closed_form(eps0, "eps0") if isinstance(eps0, str) else sympy.sympify(eps0)
        if expr.has(sympy.nan):
            raise InvalidInputError("eps0 is NaN")
        val = sympy.simplify(sympy.exp(expr))
        if not isinstance(val, sympy.Rational):
            raise InvalidInputError(f"eps0 = {eps0} is not the log of a rational number (e^eps0 = {val}); "
                             "pass e.g. sympy.log(3) or 'log(3/2)', or exp_eps0=Fraction(3)")
        E = Fraction(int(val.p), int(val.q))
    if E < 1:
        raise InvalidInputError(f"eps0 must be >= 0 (e^eps0 = {E} < 1)")
    return E


def _check_kernel(kernel: Sequence[Sequence[Any]]) -> tuple[tuple[Fraction, ...], ...]:
    rows = tuple(tuple(to_fraction(x, "kernel entry") for x in row) for row in kernel)
    if not rows:
        raise InvalidInputError("kernel has no rows")
    B = len(rows[0])
    if B == 0:
        raise InvalidInputError("kernel has no outputs")
    for v, row in enumerate(rows):
        if len(row) != B:
            raise InvalidInputError(f"kernel row {v} has {len(row)} entries, row 0 has {B}")
        if any(x < 0 for x in row):
            raise InvalidInputError(f"kernel row {v} has a negative entry")
        if sum(row) != 1:
            raise InvalidInputError(f"kernel row {v} sums to {sum(row)}, not 1")
    return rows


def _check_dataset(dataset: Sequence[int], n_inputs: int, name: str = "dataset") -> tuple[int, ...]:
    out = []
    for x in dataset:
        if isinstance(x, bool) or not isinstance(x, Integral):
            raise WrongTypeError(f"{name}: records are input indices (ints), got {x!r}")
        if not 0 <= int(x) < n_inputs:
            raise InvalidInputError(f"{name}: record {x} is not an input index 0..{n_inputs - 1}")
        out.append(int(x))
    return tuple(out)


def _compositions(total: int, parts: int) -> Iterable[tuple[int, ...]]:
    if parts == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in _compositions(total - first, parts - 1):
            yield (first,) + rest


def _multinomial_law(row: tuple[Fraction, ...], count: int) -> dict[Histogram, Fraction]:
    """Law of the histogram of ``count`` i.i.d. draws from ``row`` (exact)."""
    law: dict[Histogram, Fraction] = {}
    fact = math.factorial
    for h in _compositions(count, len(row)):
        coef = fact(count)
        pr = Fraction(1)
        for hj, pj in zip(h, row):
            coef //= fact(hj)
            if hj:
                pr *= pj ** hj
        if pr:
            law[h] = coef * pr
    return law


def _convolve_laws(a: dict[Histogram, Fraction], b: dict[Histogram, Fraction]) -> dict:
    out: dict[Histogram, Fraction] = {}
    for ha, pa in a.items():
        for hb, pb in b.items():
            h = tuple(x + y for x, y in zip(ha, hb))
            out[h] = out.get(h, Fraction(0)) + pa * pb
    return out


def shuffled_law(kernel: Sequence[Sequence[Any]], dataset: Sequence[int]) -> dict[Histogram, Fraction]:
    """Exact law of the shuffled output (the histogram h in A^n_B, thesis (5.2)) of ``dataset``:
    the Poisson-multinomial F(P) of thesis (5.18).  ``kernel[v][y]`` = P(R(v) = y) (Fractions;
    floats refused); ``dataset`` = sequence of input indices.  Computed by grouping equal records
    (a multinomial per input value) and convolving the groups.  Histograms of probability 0 are
    omitted; an empty dataset gives {(0,...,0): 1}."""
    rows = _check_kernel(kernel)
    data = _check_dataset(dataset, len(rows))
    B = len(rows[0])
    law: dict[Histogram, Fraction] = {(0,) * B: Fraction(1)}
    for v in sorted(set(data)):
        law = _convolve_laws(law, _multinomial_law(rows[v], data.count(v)))
    return law


def subsampled_shuffled_law(kernel: Sequence[Sequence[Any]], dataset: Sequence[int],
                            scheme: str = "uniform", rate_or_k: Any = None) -> dict[Histogram, Fraction]:
    """Exact law of the subsampled shuffled output.

    ``scheme="uniform"`` (thesis (5.3), Section 5.4, Theorems 5.4.1-5.4.2): a uniformly random
    subset of exactly k = ``rate_or_k`` of the n records (without replacement) is randomized and
    shuffled; the output is the histogram of the k reports (sums to k).  gamma = k/n.
    ``scheme="poisson"`` (Figure 5.5, "Poisson sub-sampling"): each record is included
    independently with probability gamma = ``rate_or_k`` (exact rational in [0, 1]); the output is
    the histogram of the included reports (its total, the sample size, is visible).  Computed as
    the shuffled law of the kernel extended by a "not sampled" output (dropped afterwards).
    The uniform law is the multivariate-hypergeometric mixture over which records are sampled."""
    rows = _check_kernel(kernel)
    data = _check_dataset(dataset, len(rows))
    n = len(data)
    B = len(rows[0])
    if scheme == "poisson":
        g = to_fraction(rate_or_k, "rate")
        if not 0 <= g <= 1:
            raise InvalidInputError(f"Poisson rate must be in [0, 1], got {g}")
        ext = [tuple(g * x for x in row) + (1 - g,) for row in rows]
        law_ext = shuffled_law(ext, data)
        out: dict[Histogram, Fraction] = {}
        for h, pr in law_ext.items():
            out[h[:B]] = out.get(h[:B], Fraction(0)) + pr
        return out
    if scheme == "uniform":
        if isinstance(rate_or_k, bool) or not isinstance(rate_or_k, Integral):
            raise WrongTypeError(f"uniform subsampling takes the sample size k (int), got {rate_or_k!r}")
        k = int(rate_or_k)
        if not 0 <= k <= n:
            raise InvalidInputError(f"sample size k must be in 0..{n}, got {k}")
        values = sorted(set(data))
        counts = [data.count(v) for v in values]
        total = math.comb(n, k)
        out = {}
        for s in itertools.product(*[range(c + 1) for c in counts]):
            if sum(s) != k:
                continue
            w = Fraction(math.prod(math.comb(c, si) for c, si in zip(counts, s)), total)
            sub = [v for v, si in zip(values, s) for _ in range(si)]
            for h, pr in shuffled_law(rows, sub).items():
                out[h] = out.get(h, Fraction(0)) + w * pr
        return out
    raise InvalidInputError(f"scheme must be 'uniform' or 'poisson', got {scheme!r}")


def _renyi_of_laws(P: dict, Q: dict, alpha: Any, dps: int) -> mpmath.mpf:
    """D_alpha(P || Q) of two exact laws (dicts of Fractions) at ``dps`` digits, by
    :func:`bcdp.core.divergences.renyi_divergence` (evaluated with at least its minimum of 50 digits
    and rounded to ``dps``); mpmath.inf when P is not absolutely continuous w.r.t. Q."""
    from bcdp.core.divergences import MIN_DPS as DIVERGENCE_MIN_DPS
    from bcdp.core.divergences import renyi_divergence

    a = exact_alpha(alpha, dps + 20)
    value = renyi_divergence(P, Q, a, dps=max(dps, DIVERGENCE_MIN_DPS) + 10)
    if value == INFINITY or mpmath.isinf(value):
        return mpmath.inf
    with mpmath.workdps(dps):
        return +value


def shuffled_rdp_exact(kernel: Sequence[Sequence[Any]], D: Sequence[int], Dprime: Sequence[int],
                       alpha: Any, dps: int = 60, direction: str = "DDprime") -> mpmath.mpf:
    """Exact RDP of the shuffled mechanism for one pair of datasets (mpmath at ``dps`` digits, from
    the exact Fraction laws of :func:`shuffled_law`).  ``direction="DDprime"`` (default):
    D_alpha(M(D) || M(D')); ``"DprimeD"``: D_alpha(M(D') || M(D)).  Any real alpha > 1 (exact).
    Returns mpmath.inf when the first law is not absolutely continuous w.r.t. the second."""
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    check_direction(direction)
    if len(D) != len(Dprime):
        raise InvalidInputError("D and D' must have the same size (replacement neighbours)")
    P, Q = shuffled_law(kernel, D), shuffled_law(kernel, Dprime)
    if direction == "DprimeD":
        P, Q = Q, P
    return _renyi_of_laws(P, Q, alpha, dps)


def subsampled_shuffled_rdp_exact(kernel: Sequence[Sequence[Any]], D: Sequence[int],
                                  Dprime: Sequence[int], alpha: Any, scheme: str, rate_or_k: Any,
                                  dps: int = 60, direction: str = "DDprime") -> mpmath.mpf:
    """As :func:`shuffled_rdp_exact` for :func:`subsampled_shuffled_law` (same directions)."""
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    check_direction(direction)
    if len(D) != len(Dprime):
        raise InvalidInputError("D and D' must have the same size (replacement neighbours)")
    P = subsampled_shuffled_law(kernel, D, scheme, rate_or_k)
    Q = subsampled_shuffled_law(kernel, Dprime, scheme, rate_or_k)
    if direction == "DprimeD":
        P, Q = Q, P
    return _renyi_of_laws(P, Q, alpha, dps)


def kary_rr_kernel(K: int, eps0: Any = None, *, exp_eps0: Any = None) -> list[list[Fraction]]:
    """K-ary randomized response: P(y = x) = E/(E + K - 1), P(y = x') = 1/(E + K - 1), exact
    Fractions (E = e^{eps0} must be rational: eps0 = log(rational), or give exp_eps0).  K = 2 is
    the 2RR of this module (report the true bit w.p. E/(E+1))."""
    if isinstance(K, bool) or not isinstance(K, Integral) or K < 2:
        raise InvalidInputError(f"K must be an int >= 2, got {K!r}")
    E = exact_exp_eps0(eps0, exp_eps0=exp_eps0)
    Z = E + K - 1
    return [[E / Z if y == x else 1 / Z for y in range(K)] for x in range(K)]


def _rand_fraction(rng: Any, denom: int = 64) -> Fraction:
    return Fraction(int(rng.integers(0, denom + 1)), denom)


def random_ldp_kernel(rng: Any, K: int, eps0: Any = None, *, exp_eps0: Any = None,
                      n_outputs: int | None = None) -> list[list[Fraction]]:
    """A random eps0-LDP kernel with K inputs and ``n_outputs`` (default K) outputs, exact
    Fractions: every column satisfies max/min <= E = e^{eps0} (E rational: eps0 = log(rational),
    or give exp_eps0).  ``rng`` is a numpy Generator.

    Construction: a random positive base a_y with s = sum a in [1/E, 1]; every row is
    r_v(y) = a_y (1 + (E-1) phi_v(y)) with phi_v in [0,1]^B rescaled so that sum r_v = 1.  Then
    a_y <= r_v(y) <= E a_y, so any two rows have ratio <= E; the scale of phi is random, so the
    bound is often nearly attained."""
    if isinstance(K, bool) or not isinstance(K, Integral) or K < 1:
        raise InvalidInputError(f"K must be an int >= 1, got {K!r}")
    B = K if n_outputs is None else int(n_outputs)
    if B < 1:
        raise InvalidInputError("n_outputs must be >= 1")
    E = exact_exp_eps0(eps0, exp_eps0=exp_eps0)
    raw = [Fraction(int(rng.integers(1, 65)), 64) for _ in range(B)]
    if E == 1:
        tot = sum(raw)
        row = [x / tot for x in raw]
        return [list(row) for _ in range(K)]
    u = _rand_fraction(rng)
    s = 1 / E + (1 - 1 / E) * u
    tot = sum(raw)
    base = [s * x / tot for x in raw]
    target = (1 - s) / (E - 1)          # need sum_y base_y phi_y = target, 0 <= target <= s
    rows = []
    for _ in range(K):
        phi = [_rand_fraction(rng) for _ in range(B)]
        acc = sum(b * f for b, f in zip(base, phi))
        if acc > target:
            phi = [f * target / acc for f in phi]
        elif acc < target:
            lam = (s - target) / (s - acc)
            phi = [1 - (1 - f) * lam for f in phi]
        row = [b * (1 + (E - 1) * f) for b, f in zip(base, phi)]
        if sum(row) != 1:  # the construction makes every row sum to 1 exactly
            raise RuntimeError("random_ldp_kernel: internal error, a row does not sum to 1")
        rows.append(row)
    return rows


__all__ = [
    "exact_exp_eps0", "kary_rr_kernel", "random_ldp_kernel", "shuffled_law", "shuffled_rdp_exact",
    "subsampled_shuffled_law", "subsampled_shuffled_rdp_exact",
]
