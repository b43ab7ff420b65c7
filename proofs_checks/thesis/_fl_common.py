"""Shared oracles of the thesis Ch. 4 accountant checks (not a check: the leading underscore hides it).

Written from the printed statements, independently of :mod:`bcdp.fl.accountants`:

* :func:`fmt21_thm31` -- FMT21 Thm 3.1 as printed in thesis eq. (6.10), mpmath at ``DPS`` digits;
* :func:`strong_composition` -- thesis Lemma 2.1.2 ([DR14, Thm 3.20]) as printed;
* :func:`rr_round_log_pmfs` -- one round of CLDP-SGD with binary randomized response (an eps0-LDP
  randomizer) on the extreme pair D = 0^N, D' = 0^{N-1}1: the server sees the count of ones among
  the M shuffled messages; the differing record is in the batch with probability q, so
  M(D) = Bin(M, p) and M(D') = (1-q) Bin(M, p) + q (Bin(M-1, p) + Bern(1-p)), p = 1/(e^eps0 + 1);
* :func:`pld_lower_eps` -- eps(delta) of the T-fold composition of that pair by dp_accounting's
  privacy-loss-distribution accountant with the *optimistic* discretisation (a float lower estimate
  of the exact eps of this one pair, hence of the true eps of the algorithm with this randomizer;
  both directions).
"""

from __future__ import annotations

import math

import mpmath
import numpy as np

DPS = 50


def fmt21_thm31(eps0, n, delta) -> mpmath.mpf:
    E = mpmath.exp(mpmath.mpf(eps0))
    return mpmath.log(1 + (E - 1) / (E + 1) * (8 * mpmath.sqrt(E * mpmath.log(4 / mpmath.mpf(delta))) / mpmath.sqrt(n)
                                               + 8 * E / n))


def fmt21_cap(n, delta) -> mpmath.mpf:
    return mpmath.log(n / (16 * mpmath.log(2 / mpmath.mpf(delta))))


def strong_composition(eps, T, delta_prime) -> mpmath.mpf:
    eps = mpmath.mpf(eps)
    return mpmath.sqrt(2 * T * mpmath.log(1 / mpmath.mpf(delta_prime))) * eps + T * eps * (mpmath.exp(eps) - 1)


def amplified(eps_tilde, rate) -> mpmath.mpf:
    return mpmath.log(1 + mpmath.mpf(rate) * (mpmath.exp(mpmath.mpf(eps_tilde)) - 1))


def rr_round_log_pmfs(M: int, q: float, eps0: float, floor: float = -90.0) -> tuple[dict, dict]:
    from scipy import stats

    p = 1 / (math.exp(eps0) + 1)
    y = np.arange(M + 1)
    P = stats.binom.logpmf(y, M, p)
    B = np.logaddexp(stats.binom.logpmf(y, M - 1, p) + math.log(p),
                     stats.binom.logpmf(y - 1, M - 1, p) + math.log1p(-p))
    Q = np.logaddexp(P + math.log1p(-q), B + math.log(q))
    keep = np.maximum(P, Q) > floor          # dropping mass from both laws only lowers the estimate
    return ({int(i): float(P[i]) for i in y[keep]}, {int(i): float(Q[i]) for i in y[keep]})


def pld_lower_eps(P: dict, Q: dict, T: int, delta: float, interval: float = 1e-5) -> float:
    from dp_accounting.pld import privacy_loss_distribution as pldm

    out = 0.0
    for a, b in ((P, Q), (Q, P)):
        pld = pldm.from_two_probability_mass_functions(a, b, pessimistic_estimate=False,
                                                       value_discretization_interval=interval)
        out = max(out, pld.self_compose(T).get_epsilon_for_delta(delta))
    return out


def rr_round_hockey_stick(M: int, q, eps0, eps) -> mpmath.mpf:
    """max over both directions of sup_S P(S) - e^eps Q(S) for the binary-RR round pair of
    :func:`rr_round_log_pmfs` (count of ones among M messages), in mpmath at the working precision:
    Bin(M, p) pmf by its ratio recurrence, p = 1/(e^eps0 + 1)."""
    p = 1 / (mpmath.exp(mpmath.mpf(eps0)) + 1)
    q = mpmath.mpf(q)
    b = [mpmath.mpf(0)] * (M + 1)          # Bin(M, p)
    c = [mpmath.mpf(0)] * (M + 1)          # Bin(M-1, p) shifted by Bern(1-p)
    t, r = (1 - p) ** M, p / (1 - p)
    for y in range(M + 1):
        b[y] = t
        t = t * (M - y) / (y + 1) * r
    t = (1 - p) ** (M - 1)
    prev = mpmath.mpf(0)
    for y in range(M):                     # Bin(M-1, p)(y)
        c[y] += t * p
        c[y + 1] += t * (1 - p)
        prev = t
        t = t * (M - 1 - y) / (y + 1) * r
    del prev
    E = mpmath.exp(mpmath.mpf(eps))
    out = mpmath.mpf(0)
    for first, second in ((0, 1), (1, 0)):
        tot = mpmath.mpf(0)
        for y in range(M + 1):
            P = b[y]
            Q = (1 - q) * b[y] + q * c[y]
            a, z = (P, Q) if first == 0 else (Q, P)
            d = a - E * z
            if d > 0:
                tot += d
        out = max(out, tot)
    return out
