"""Thm 15 of the partial DP paper (arXiv:2209.04053, Sec. 5, proof in App. A.1.3): the two-stage histogram (PrivHeavyHitter + Laplace counts), d = 4.

Stage 1 (Alg. 2, d = 4): leaves L_{1} = ... = L_{4} = {0,1}; level 1 (tau_1 = tau) nodes {1,2}, {3,4}
test the 4 candidates {0,1}o{0,1}; level 2 (tau_2 = tau + mu) node [4] tests L_{12} o L_{34}.  A
candidate s at level l is accepted iff max(f_s, tau_l - mu) + Lap(lambda) > tau_l (fresh noise).
Stage 2: for every s in the final list, release f_s + Lap(b2).

The transcript probability factorises over candidates, so for a pair of neighbouring datasets the
largest log-ratio over *all* outputs (transcript and released counts) is exact:

  max over (L_12, L_34) of  sum_{level-1 candidates} log(ratio of their accept/reject probability)
      + sum_{s in L_12 o L_34} max( log P_acc(x)/P_acc(x') + |f_s(x) - f_s(x')| / b2,  log P_rej(x)/P_rej(x') )

(the Laplace density ratio sup is |Delta f|/b2, attained on a set of positive measure).  Evaluated
with mpmath at 40 digits; reject probabilities are computed as Laplace CDFs directly (computing
1 - P[accept] lost ~27 digits when the accept probability is 1 - e^{-63}/2).  Printed constants (proof A.1.3): lambda = 3/eps, mu = lambda log(16/nu),
tau = nu n/2, b2 = 2/eps; the correction (``docs/errata.md`` E-PDP-Thm15): lambda = (4/eps)(1 + 16/(16 - nu)) (Lemma 28 at
eps/2) and b2 = 4/eps.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass
from typing import Any

import mpmath as mp

from bcdp.partial.heavy_hitters_algorithm import to_mpf

# Values are computed at the caller's mpmath precision: callers set it (the Thm 15 check and the tests
# work under ``mp.workdps(DPS)``); importing this module changes no global state.

LEVEL1 = ("00", "01", "10", "11")


@dataclass(frozen=True)
class Params:
    lam: mp.mpf
    mu: mp.mpf
    tau: mp.mpf
    b2: mp.mpf


def _exact_params(eps: Any, nu: Any) -> tuple[mp.mpf, mp.mpf]:
    """eps and nu as mpmath numbers; Python floats are refused (pass ints, Fractions, strings, mpf)."""
    return to_mpf(eps, "eps"), to_mpf(nu, "nu")


def printed_params(eps, nu, n) -> Params:
    """Constants printed in the proof of Thm 15 (App. A.1.3)."""
    eps, nu = _exact_params(eps, nu)
    lam = 3 / eps
    return Params(lam, lam * mp.log(16 / nu), nu * n / 2, 2 / eps)


def corrected_params(eps, nu, n) -> Params:
    """Corrected constants (``docs/errata.md`` E-PDP-Thm15): Lemma 28 at eps/2, stage 2 Lap(4/eps)."""
    eps, nu = _exact_params(eps, nu)
    lam = (4 / eps) * (1 + 16 / (16 - nu))
    return Params(lam, lam * mp.log(16 / nu), nu * n / 2, 4 / eps)


def lemma28_eps(p: Params):
    """Lemma 28's privacy bound (2/lambda)(1 + 1/(1 - e^{-mu/lambda})) for stage 1."""
    return (2 / p.lam) * (1 + 1 / (1 - mp.exp(-p.mu / p.lam)))


def _tail(t, lam):
    """P[Lap(lam) > t]."""
    return mp.exp(-t / lam) / 2 if t >= 0 else 1 - mp.exp(t / lam) / 2


def p_accept(f, tau_l, p: Params):
    return _tail(tau_l - max(mp.mpf(f), tau_l - p.mu), p.lam)


def _cdf(t, lam):
    """P[Lap(lam) <= t], computed directly (1 - _tail(t) would cancel catastrophically for t << 0)."""
    return 1 - mp.exp(-t / lam) / 2 if t >= 0 else mp.exp(t / lam) / 2


def p_reject(f, tau_l, p: Params):
    """1 - p_accept without cancellation."""
    return _cdf(tau_l - max(mp.mpf(f), tau_l - p.mu), p.lam)


def counts(data: Counter, lo: int, hi: int) -> Counter:
    out: Counter = Counter()
    for rec, c in data.items():
        out[rec[lo:hi]] += c
    return out


def max_log_ratio(x: Counter, xp: Counter, p: Params, stage2: bool = True):
    """Exact sup over all outputs of log P_x / P_x' (records are 4-character bit strings), with the
    maximising level-1 lists (L_12, L_34): the first in the enumeration by increasing list size."""
    tau1, tau2 = p.tau, p.tau + p.mu
    f12, g12, f34, g34 = counts(x, 0, 2), counts(xp, 0, 2), counts(x, 2, 4), counts(xp, 2, 4)
    acc1 = {}
    for side, (f, g) in (("12", (f12, g12)), ("34", (f34, g34))):
        for s in LEVEL1:
            a, b = p_accept(f[s], tau1, p), p_accept(g[s], tau1, p)
            acc1[side, s] = (mp.log(a / b), mp.log(p_reject(f[s], tau1, p) / p_reject(g[s], tau1, p)))
    level2 = {}
    for s in (u + v for u in LEVEL1 for v in LEVEL1):
        a, b = p_accept(x[s], tau2, p), p_accept(xp[s], tau2, p)
        extra = abs(x[s] - xp[s]) / p.b2 if stage2 else 0
        level2[s] = max(mp.log(a / b) + extra, mp.log(p_reject(x[s], tau2, p) / p_reject(xp[s], tau2, p)))
    best, arg = -mp.inf, None
    subsets = [frozenset(c) for r in range(5) for c in itertools.combinations(LEVEL1, r)]
    for l12 in subsets:
        v12 = sum(acc1["12", s][0] if s in l12 else acc1["12", s][1] for s in LEVEL1)
        for l34 in subsets:
            v = v12 + sum(acc1["34", s][0] if s in l34 else acc1["34", s][1] for s in LEVEL1)
            v += sum(level2[u + w] for u in l12 for w in l34)
            if v > best:
                best, arg = v, (sorted(l12), sorted(l34))
    return best, arg
