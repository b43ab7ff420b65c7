"""Exact RDP of shuffled binary randomized response over *every* neighbouring pair (thesis Ch. 5):
the exact RDP curve of shuffled 2RR, with an attaining pair.

If the other n-1 users hold j ones, the law of their count is pi_j = Bin(n-1-j, p) * Bin(j, q)
(p = 1/(E+1), q = E/(E+1), E = e^{eps0}); the differing user's bit is 0 in D_j and 1 in D'_j, so
M(D_j) = pi_j * Bern(p) and M(D'_j) = pi_j * Bern(q).  :func:`rr_worst_pair_rdp` maximises over
j = 0..n-1 and both directions; see its docstring for the symmetry used (proved) and what was only
observed (the maximiser).  :func:`rr_all_pairs_rdp` is the float64 search (vectorised three-term
recurrence), :func:`rr_pair_over_j_mp` the mpmath brute force it is tested against (small n).
Float paths take floats (:func:`bcdp.shuffle.inputs.float_eps0`); the mpmath brute force takes exact
inputs (floats refused).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

from bcdp.core.errors import CertificationError, InvalidInputError
from bcdp.core.numbers import MAX_DPS, MIN_DPS, check_precision, to_float_input, to_fraction
from bcdp.shuffle.inputs import (
    check_count,
    exact_alpha,
    exact_eps0,
    float_eps0,
    float_orders,
)
from bcdp.shuffle.logspace import bernstein_halfwidth, log1p_exp, log_g, logsumexp_rows

# -- mpmath brute force over j (small n) --------------------------------------------------------------

def _mp_conv(a: list, b: list) -> list:
    out = [mpmath.mpf(0)] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x == 0:
            continue
        for j, y in enumerate(b):
            out[i + j] += x * y
    return out


def renyi_divergence_mp(P: Sequence, Q: Sequence, alpha: mpmath.mpf) -> mpmath.mpf:
    """D_alpha(P || Q) for two pmfs on the same index set given as *mpf values* at the current
    precision (rounded laws that need not sum to exactly 1); inf if P puts mass where Q does not.

    Kept here because :func:`bcdp.core.divergences.renyi_divergence` takes exact rows (summing to
    exactly 1), while the brute force below builds its laws in mpmath for an arbitrary real eps0;
    exact Fraction laws go through :mod:`bcdp.core.divergences` (see
    :func:`bcdp.shuffle.finite_laws.shuffled_rdp_exact`)."""
    s = mpmath.mpf(0)
    for pk, qk in zip(P, Q):
        if pk == 0:
            continue
        if qk == 0:
            return mpmath.inf
        s += pk ** alpha * qk ** (1 - alpha)
    return mpmath.log(s) / (alpha - 1)


def rr_pair_over_j_mp(n: int, eps0: Any, alpha: Any, dps: int = 50) -> list[tuple]:
    """Brute force (mpmath, O(n^3)): for every j = 0..n-1 the pair D_j = (j ones among the other
    n-1 users, differing user 0), D'_j = (same, differing user 1); returns
    [(D_alpha(M(D_j)||M(D'_j)), D_alpha(M(D'_j)||M(D_j))) for j] ("DDprime", "DprimeD").
    Reference for :func:`rr_all_pairs_rdp`; small n only."""
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    n = check_count(n)
    with mpmath.workdps(dps + 20):
        e0 = exact_eps0(eps0, dps + 20)
        a = exact_alpha(alpha, dps + 20)
        E = mpmath.exp(e0)
        p, q = 1 / (E + 1), E / (E + 1)
        N = n - 1
        out = []
        for j in range(n):
            A = [mpmath.binomial(N - j, k) * p ** k * q ** (N - j - k) for k in range(N - j + 1)]
            B = [mpmath.binomial(j, k) * q ** k * p ** (j - k) for k in range(j + 1)]
            pi = _mp_conv(A, B)
            P = _mp_conv(pi, [q, p])
            Q = _mp_conv(pi, [p, q])
            out.append((renyi_divergence_mp(P, Q, a), renyi_divergence_mp(Q, P, a)))
    with mpmath.workdps(dps):
        return [(+x, +y) for x, y in out]


# -- float64 search over j ----------------------------------------------------------------------------

def _log_h1_fast(z: np.ndarray) -> np.ndarray:
    """log(e^z - 1 - z) directly (expm1; log form for z > 30); ~2 eps/|z| relative error."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if z.size == 0 or not np.max(z) > 30.0:
            return np.log(np.maximum(np.expm1(z) - z, 0.0))
        return np.where(z > 30.0, z + np.log1p(-(1.0 + z) * np.exp(-np.maximum(z, 30.0))),
                        np.log(np.maximum(np.expm1(np.minimum(z, 30.0)) - z, 0.0)))


def _log_g_fast(beta: float, x: np.ndarray) -> np.ndarray:
    """Cheap log((1+x)^beta - 1 - beta x): the two non-negative pieces of :func:`~bcdp.shuffle.logspace.log_g` evaluated
    directly (no series).  Measured relative error <= 2e-14/|x| per term, independent of beta
    (<= 1e-11 on sums dominated by |x| ~ 1/sqrt(n) at n = 1e7).  Used for the scan over j; the candidate
    maximisers are re-evaluated with :func:`~bcdp.shuffle.logspace.log_g`."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        u = np.log1p(x)
        if beta > 0:
            phi = np.log(np.maximum((1 + x) * u - x, 0.0))
            return np.logaddexp(math.log(beta - 1) + phi, u + _log_h1_fast((beta - 1) * u))
        h2 = np.log(np.maximum(x - u, 0.0))
        return np.logaddexp(_log_h1_fast(beta * u), math.log(-beta) + h2)


def _all_pairs_chunk(N: int, p: float, q: float, e0: float, a: float, jj: np.ndarray, t: float,
                     info: dict, accurate: bool = False,
                     bracket_steps: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """log(H - 1) for both directions (DDprime, DprimeD), for the pairs j in ``jj`` (ascending,
    all <= N/2).  See :func:`rr_all_pairs_rdp`.

    Recurrence.  pi_j = Bin(a, p) * Bin(b, q) (a = N - j, b = j) has generating function
    G = (q + p z)^a (p + q z)^b, and G'(z) (q+pz)(p+qz) = G(z) (a p (p+qz) + b q (q+pz)).  Comparing
    coefficients, with g_k = pi_j(k) and c_k = a p^2 + b q^2 - (p^2 + q^2) k:

        p q (k+1) g_{k+1} = c_k g_k + p q (N - k + 1) g_{k-1}.

    Forward, w_k = g_k/g_{k-1}:   w_{k+1} = (c_k + pq(N-k+1)/w_k) / (pq(k+1))   (all terms >= 0 while
    c_k >= 0, i.e. k <= k* = (a p^2 + b q^2)/(p^2 + q^2)).  Backward, v_k = g_k/g_{k+1}:
    v_{k-1} = (pq(k+1)/v_k - c_k) / (pq(N-k+1))   (all terms >= 0 while k >= k*).  Exact starts:
    w_0 = +inf (g_{-1} = 0), v_N = +inf (g_{N+1} = 0).  Each step is a decreasing map of the
    previous ratio, so starting M steps before the window from the bracket [c_{k-1}/(pq k), +inf]
    (resp. [-c_{k+1}/(pq(N-k)), +inf]) gives lower and upper ratios enclosing the true one at every
    later step; the enclosure must be < 4e-15 relative when the window is reached (it only
    tightens inside the positive region), otherwise the exact start is used.  Forward and
    backward ratios overlap at g_{m+1}/g_m, m = floor(k*), and must agree
    (info['max_junction_mismatch'])."""
    jc = jj.size
    s2 = p * p + q * q
    pq = p * q
    A = N - jj
    Bc = jj
    c0 = A * p * p + Bc * q * q
    kstar = c0 / s2
    m = np.clip(np.floor(kstar), 0, N).astype(np.int64)         # non-decreasing in j
    mean = A * p + Bc * q
    klo = np.maximum(0, np.floor(mean - t)).astype(np.int64)
    khi = np.minimum(N, np.ceil(mean + t)).astype(np.int64)
    Wj = khi - klo + 1
    Wc = int(Wj.max())
    K0 = int(klo.min())
    K1 = int(khi.max())
    buf = np.full((K1 - K0 + 2, jc), np.nan)    # buf[K - K0, j] = log pi_j(K)/pi_j(K-1)
    M = bracket_steps if bracket_steps is not None else max(200, Wc // 4)
    tol = 4e-15

    # ---------------- forward over K in [f_lo, f_hi]
    need_f = m >= klo + 1
    junc_f = None
    if need_f.any():
        f_lo = int(klo[need_f].min()) + 1
        f_hi = min(K1 + 1, int(m[need_f].max()) + 1)
        starts = [max(0, f_lo - 1 - M), 0] if f_lo - 1 - M > 0 else [0]
        for ks in starts:
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                lo = np.full(jc, np.inf) if ks == 0 else np.maximum(c0 - s2 * (ks - 1), 0.0) / (pq * ks)
                hi = np.full(jc, np.inf)
                single = ks == 0
                failed = False
                for k in range(ks, f_hi):
                    ck = c0 - s2 * k
                    d = pq * (N - k + 1)
                    e = 1.0 / (pq * (k + 1))
                    if single:
                        lo = (ck + d / lo) * e
                    else:
                        lo, hi = (ck + d / hi) * e, (ck + d / lo) * e
                    K = k + 1
                    if K == f_lo and not single:
                        if np.any((hi - lo)[need_f] > tol * lo[need_f]):
                            failed = True
                            break
                        single = True
                    if K >= f_lo:
                        buf[K - K0] = np.log(lo)
            if not failed:
                info["bracket_starts" if ks > 0 else "exact_starts"] += 1
                break
        idx = np.clip(m + 1 - K0, 0, buf.shape[0] - 1)
        junc_f = buf[idx, np.arange(jc)].copy()

    # ---------------- backward over K in [b_bot, b_top]: writes log pi(K)/pi(K-1) = -log v_{K-1}
    first = np.maximum(m + 1, klo + 1)
    need_b = first <= khi
    if need_b.any():
        b_top = int(khi[need_b].max())
        b_bot = int(first[need_b].min())
        # j with m_j + 1 <= K form a prefix of the chunk (m is non-decreasing in j)
        starts = [min(N, b_top + M), N] if b_top + M < N else [N]
        for ke in starts:
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                lo = np.full(jc, np.inf) if ke == N else np.maximum(-(c0 - s2 * (ke + 1)), 0.0) / (pq * (N - ke))
                hi = np.full(jc, np.inf)
                single = ke == N
                failed = False
                for k in range(ke, b_bot - 1, -1):
                    ck = c0 - s2 * k
                    e = 1.0 / (pq * (N - k + 1))
                    u = pq * (k + 1)
                    if single:
                        lo = (u / lo - ck) * e
                    else:
                        lo, hi = (u / hi - ck) * e, (u / lo - ck) * e
                    if k == b_top and not single:
                        if np.any((hi - lo)[need_b] > tol * lo[need_b]):
                            failed = True
                            break
                        single = True
                    if k <= b_top + 1:
                        cut = int(np.searchsorted(m, k - 1, side="right"))   # m_j <= k-1
                        if cut:
                            buf[k - K0, :cut] = -np.log(lo[:cut])
            if not failed:
                info["bracket_starts" if ke < N else "exact_starts"] += 1
                break
        if junc_f is not None:
            idx = np.clip(m + 1 - K0, 0, buf.shape[0] - 1)
            junc_b = buf[idx, np.arange(jc)]
            both = need_f & need_b & (m + 1 >= klo + 1) & (m + 1 <= khi)
            if both.any():
                mis = float(np.max(np.abs(junc_f[both] - junc_b[both])))
                info["max_junction_mismatch"] = max(info["max_junction_mismatch"], mis)
                if not mis <= 1e-8:
                    raise CertificationError(f"forward/backward recurrences disagree at the junction ({mis})")

    # ---------------- terms
    lq, lp = math.log(q), math.log(p)
    qmp = q - p
    x0, xN = -qmp / q, qmp / p
    out_dpd = np.empty(jc)
    out_dd = np.empty(jc)
    lg_fn = log_g if accurate else _log_g_fast
    step = max(1, int(2_000_000 // Wc))
    cols = np.arange(Wc)
    for r0 in range(0, jc, step):
        rs = np.arange(r0, min(jc, r0 + step))
        Kmat = klo[rs, None] + cols[None, :]
        valid = cols[None, :] < Wj[rs, None]
        Rm = buf[np.clip(Kmat - K0, 0, buf.shape[0] - 1), rs[:, None]]
        Rm[:, 0] = 0.0
        Rm[~valid] = -np.inf
        lpi = np.cumsum(Rm, axis=1)
        lpi -= logsumexp_rows(lpi)[:, None]
        d = Rm[:, 1:]                         # log pi(k)/pi(k-1), k = klo+1 .. klo+Wc-1
        v = valid[:, 1:]
        lP = np.logaddexp(lq + lpi[:, 1:], lp + lpi[:, :-1])
        with np.errstate(invalid="ignore", over="ignore"):
            ad = np.where(v, np.abs(d), 0.0)
            ed = np.exp(-ad)
            em = np.expm1(-ad)                # t - 1 if d >= 0, else (1 - t)/t
            x = np.where(d >= 0, qmp * em / (q + p * ed), -qmp * em / (q * ed + p))
        x = np.where(v, x, 0.0)
        # boundary outputs: k = 0 if klo = 0 (P(0) = q pi(0)); k = N+1 if khi = N (P = p pi(N))
        b0 = np.where(klo[rs] == 0, lq + lpi[:, 0], -np.inf)
        bN = np.where(khi[rs] == N, lp + lpi[np.arange(rs.size), Wj[rs] - 1], -np.inf)
        for beta, out in ((a, out_dpd), (1.0 - a, out_dd)):
            lg = lg_fn(np.float64(beta), x)
            terms = np.where(v, lP + lg, -np.inf)
            lg0 = float(log_g(np.float64(beta), np.array([x0]))[0])
            lgN = float(log_g(np.float64(beta), np.array([xN]))[0])
            allt = np.concatenate([terms, (b0 + lg0)[:, None], (bN + lgN)[:, None]], axis=1)
            out[rs] = logsumexp_rows(allt)
    return out_dd, out_dpd


def rr_all_pairs_rdp(n: int, eps0: float, alpha: float, *, chunk_elems: int = 40_000_000,
                     accurate: bool = False, return_info: bool = False):
    """Float64 RDP of every neighbouring 2RR pair: arrays DD[j], DpD[j], j = 0..n-1, with
    DD[j] = D_alpha(M(D_j) || M(D'_j)) and DpD[j] = D_alpha(M(D'_j) || M(D_j)), where the other
    n-1 users hold j ones and the differing user holds 0 in D_j, 1 in D'_j (so j = 0 is the
    thesis' pair 0^n vs 0^{n-1}1 and DpD[0] is (5.9)).

    Symmetry (proved): flipping every bit maps D_j to D'_{n-1-j} and the output k to n - k (a
    bijection), so DpD[j] = DD[n-1-j].  Hence only j <= (n-1)/2 are computed, both directions at
    once (same base measure M(D_j)).

    Method per j: pi_j = Bin(n-1-j, p) * Bin(j, q) is built on the k-window [mean_j - t, mean_j + t]
    (Bernstein half-width t; the variance (n-1)pq is the same for all j) by the positive
    three-term recurrence of :func:`_all_pairs_chunk` (forward below k*_j, backward above, no
    subtraction; bracketed starts), vectorised over j.  Then M(D_j)(k) = q pi(k) + p pi(k-1) and
    x = M(D'_j)/M(D_j) - 1 = (q-p)(t-1)/(q+pt), t = pi(k-1)/pi(k); log(E[(1+x)^beta] - 1) is a
    log-sum-exp of log M(D_j) + log g_beta(x), beta = alpha (DprimeD) or 1 - alpha (DDprime).
    Neglected tails are bounded by 2 e^{-L} (E^alpha + alpha E) and checked against every sum.

    The scan over j uses the cheap :func:`_log_g_fast` (relative error <= 2e-14/|x| per term) unless
    ``accurate=True``; j = 0 and every j within 1e-9 (relative) of a direction's maximum are then
    recomputed with the accurate :func:`~bcdp.shuffle.logspace.log_g`."""
    n = check_count(n)
    e0 = float_eps0(eps0, allow_inf=False)
    a = float(float_orders(alpha, finite=True)[0])
    t0 = time.perf_counter()
    info = {"max_junction_mismatch": 0.0, "exact_starts": 0, "bracket_starts": 0, "refined": []}
    if e0 == 0:
        z = np.zeros(n)
        info["seconds"] = 0.0
        return (z, z.copy(), info) if return_info else (z, z.copy())
    # the float64 parameters degenerate at both ends: p = q (e^eps0 rounds to 1) made every excess 0
    # and log 0 = -inf the window width (NaN); q = 1 (eps0 above about 36.7) broke the recurrence the
    # same way, and e^eps0 overflows at 709.8.  Refused, pointing to what handles them.
    if 1.0 / (1.0 + math.exp(-e0)) == 1.0 or math.exp(e0) == 1.0:
        side = "e^eps0 rounds to 1 (eps0 below about 1.1e-16)" if e0 < 1 else \
            "1/(1 + e^-eps0) rounds to 1 (eps0 above about 36.7)"
        raise InvalidInputError(f"eps0 = {e0!r}: {side} in float64, beyond what the float64 search over all "
                                f"pairs resolves; the certified enclosure (rr_worst_pair_rdp_ball, "
                                f"`bcdp rdp to-dp --exact`) or a bound handles it")
    E = math.exp(e0)
    p = 1.0 / (1.0 + E)
    q = 1.0 / (1.0 + 1.0 / E)
    N = n - 1
    J = N // 2 + 1  # j = 0..floor(N/2)
    js = np.arange(J, dtype=float)
    var = N * p * q
    chi = a * (a - 1) / 2 * math.expm1(e0) ** 2 / (E * n)
    L = a * e0 + 40.0 + max(0.0, -math.log(max(chi * 1e-4, 1e-300)))

    def run(jvals: np.ndarray, L: float, accurate_flag: bool) -> tuple[np.ndarray, np.ndarray, float]:
        out_dd = np.empty(jvals.size)
        out_dpd = np.empty(jvals.size)
        t = bernstein_halfwidth(var, L) + 2 if N > 0 else 0.0
        W = 2 * t + 4
        qp = q - p
        C = float(chunk_elems)
        jc = int((-W + math.sqrt(W * W + 4 * qp * C)) / (2 * qp)) if qp > 0 else int(C / W)
        jc = max(1, min(jvals.size, jc))
        for j0 in range(0, jvals.size, jc):
            dd, dpd = _all_pairs_chunk(N, p, q, e0, a, jvals[j0:j0 + jc], t, info, accurate_flag)
            out_dd[j0:j0 + jc] = dd
            out_dpd[j0:j0 + jc] = dpd
        return out_dd, out_dpd, t

    log_neg_base = math.log(2) + float(np.logaddexp(a * e0, math.log(a) + e0))
    for _ in range(10):
        logX_dd, logX_dpd, t = run(js, L, accurate)
        if N == 0:
            break
        worst = float(np.max(log_neg_base - L - np.minimum(logX_dd, logX_dpd)))
        if worst <= -36.0:
            break
        L += worst + 40.0
    else:
        raise CertificationError("rr_all_pairs_rdp: window did not converge")
    if not accurate and N > 0:
        cands = {0}
        for arr in (logX_dd, logX_dpd):
            mx = float(np.max(arr))
            cands.update(int(i) for i in np.nonzero(arr >= mx + math.log1p(-1e-8))[0][:8])
        cj = np.array(sorted(cands), dtype=float)
        rdd, rdpd, _ = run(cj, L, True)
        logX_dd[cj.astype(int)] = rdd
        logX_dpd[cj.astype(int)] = rdpd
        info["refined"] = [int(c) for c in cj]
    rdp_dd = log1p_exp(logX_dd) / (a - 1)
    rdp_dpd = log1p_exp(logX_dpd) / (a - 1)
    full_dd = np.empty(n)
    full_dpd = np.empty(n)
    full_dd[:J] = rdp_dd
    full_dpd[:J] = rdp_dpd
    rest = np.arange(J, n)          # symmetry: DpD[j] = DD[N - j], DD[j] = DpD[N - j]
    full_dd[rest] = rdp_dpd[N - rest]
    full_dpd[rest] = rdp_dd[N - rest]
    info["seconds"] = time.perf_counter() - t0
    info["window_halfwidth"] = t
    if return_info:
        return full_dd, full_dpd, info
    return full_dd, full_dpd


def rr_worst_pair_rdp(n: int, eps0: float, alpha: float) -> tuple[float, tuple[int, str]]:
    """The exact RDP curve of shuffled 2RR at one alpha: sup over all neighbouring pairs and both
    directions, with an attaining pair.  Returns (epsilon, (j, direction)): j = number of ones
    among the n-1 users that do not change, direction as in :data:`DIRECTIONS` with D = D_j
    (differing user 0) and D' = D'_j (differing user 1).  Float64.

    Reduction of the search (proved): (i) by symmetry of the users only the count j of ones among
    the others matters, and since the output is the count of ones, a dataset and its one-record
    neighbour are (j, 0 -> 1) for some j (a 1 -> 0 change is the same pair read in the other
    direction); (ii) flipping every bit maps (D_j, D'_j) to (D'_{n-1-j}, D_{n-1-j}) and the output
    k to n-k, so DprimeD(j) = DDprime(n-1-j).  So j <= (n-1)/2, both directions, covers all pairs.
    No further reduction is used: the search over j is complete (:func:`rr_all_pairs_rdp`,
    vectorised log-space recurrence), and ties go to the smallest j, "DDprime" first.

    Observed, not proved (tests/shuffle/test_shuffle_exact.py, brute force in mpmath over all j for
    n <= 45 and the float search up to n = 1e5): j -> exp((alpha-1) DDprime(j)) is convex, so the
    maximum over j and both directions is at an end; it is attained at j = 0, "DDprime", i.e.
    D_alpha(M(0^n) || M(0^{n-1}1)) — the reverse of the thesis' lower-bound direction (5.9).  The convexity step, phi(Bp*Bp) + phi(Bq*Bq) >= 2 phi(Bp*Bq) for
    phi(mu) = H(sigma*mu), fails for some non-log-concave sigma, so a proof would have to use the
    log-concavity of the Poisson-binomial law of the other users.

    Runtime: O(n * window) with window ~ 2 sqrt(2 n p q (alpha eps0 + 60)); at n = 1e5,
    7-31 s of CPU time for alpha in [2, 256] (benchmarks/bench_shuffle_exact.py)."""
    dd, dpd = rr_all_pairs_rdp(n, eps0, alpha)
    return argmax_pair(dd, dpd)


# -- where the float64 search is trusted (measured) -------------------------------------------------

#: The range of (eps0, alpha, n) on which the float64 search :func:`rr_worst_pair_rdp` was measured
#: against the certified enclosure :func:`rr_worst_pair_rdp_ball` (n <= 1000) and the mpmath oracle
#: :func:`bcdp.shuffle.rr_pair.rr_pair_rdp_mp` of the maximising pair (n = 1e4 .. 2e5):
#: benchmarks/measure_rr_float_range.py.  eps0 = 0 is exact (every pair is 0).  Outside it the float
#: search is wrong or fails: its relative error grows like ~2e-16/eps0 for small eps0 (4e-9 at
#: eps0 = 1e-7, 20% at 1e-15, NaN below ~1e-20: the log-space recurrence loses q - p), and from
#: eps0 ~ 11 (n >= 5) its forward and backward recurrences no longer meet (p = 1/(E+1) underflows
#: the bracket tolerance); orders above ~1e154 overflow alpha (alpha - 1).
#: alpha_max is the exact value of the float 1e100 (the order measured), so "1e100" typed as a float
#: or as an exact decimal is inside.
FLOAT_SEARCH_RANGE = {"eps0_min": Fraction(1, 1000), "eps0_max": Fraction(10), "alpha_max": Fraction(1e100),
                      "n_max_measured": 200_000}
#: A bound on the relative error of :func:`rr_worst_pair_rdp` inside :data:`FLOAT_SEARCH_RANGE`, from
#: the measurement: <= 4.3e-13 for n <= 1000 (arb, 9 orders from 1.001 to 1e100, eps0 from 0.001 to
#: 10), growing with n at the small-eps0 end: 1.9e-12 (n = 1e4), 4.6e-12 (1e5), 6.3e-12 (2e5), all
#: at eps0 = 0.001, alpha = 1.001 (<= 1.8e-13 from eps0 = 0.01 on).  The argmax pair there is
#: whatever j the rounding favours (j = 5955 at n = 2e5, the maximiser is j = 0).
FLOAT_SEARCH_REL_ERR = 1e-11


def float_search_trusted(n: int, eps0: Any, alpha: Any) -> bool:
    """True if (eps0, alpha) lies in :data:`FLOAT_SEARCH_RANGE` (decided exactly: strings and
    Fractions at their exact value, floats at their binary value).  n is not restricted here: the
    range was measured up to ``n_max_measured`` (callers say so beyond it)."""
    e = _exact(eps0, "eps0")
    a = _exact(alpha, "alpha")
    r = FLOAT_SEARCH_RANGE
    return (e == 0 or r["eps0_min"] <= e <= r["eps0_max"]) and 1 < a <= r["alpha_max"]


def _exact(x: Any, name: str) -> Fraction:
    if isinstance(x, float):
        if not math.isfinite(x):
            raise InvalidInputError(f"{name} must be finite, got {x!r}")
        return Fraction(x)
    return to_fraction(str(x) if isinstance(x, str) else x, name)


def rr_worst_vs_lower_pair(n: int, eps0: float, alpha: float) -> dict:
    """Worst pair vs the thesis' lower-bound pair (D = 0^n, D' = 0^{n-1}1, direction "DprimeD",
    eq. (5.9)): a dict with 'worst', 'worst_pair', 'lower_pair' (= (5.9)), 'lower_pair_reverse'
    (same datasets, "DDprime"), 'difference' = worst - lower_pair, 'ratio' = worst / lower_pair,
    'seconds' (search time)."""
    dd, dpd, info = rr_all_pairs_rdp(n, eps0, alpha, return_info=True)
    worst, pair = argmax_pair(dd, dpd)
    low = float(dpd[0])
    return {"worst": worst, "worst_pair": pair, "lower_pair": low,
            "lower_pair_reverse": float(dd[0]), "difference": worst - low,
            "ratio": worst / low if low > 0 else math.inf, "seconds": info["seconds"],
            "info": info}


# -- certified sup over j (arb balls) -------------------------------------------------------------------

#: Largest arb working precision tried by :func:`rr_worst_pair_rdp_ball` before giving up.
MAX_CERT_PREC = 8192


def certified_cost(n: int, orders: int) -> int:
    """Work units of :func:`rr_worst_pair_rdp_ball` over ``orders`` orders: one unit per output
    coefficient of one pair, about (n/2 + 1)(n + 1) per order (about 3 microseconds each)."""
    return (n // 2 + 1) * (n + 1) * orders


def _pair_balls(n: int, E, a) -> list:
    """[((j, direction), arb ball of D_alpha)] for every j <= (n-1)/2 and both directions (see
    :func:`rr_worst_pair_rdp_ball`), at the arb precision set by the caller."""
    import flint

    one = flint.arb(1)
    p = one / (E + 1)
    q = E / (E + 1)
    zero_user = flint.arb_poly([q, p])   # generating polynomial of one report of a 0-holder
    one_user = flint.arb_poly([p, q])    # ... of a 1-holder
    N = n - 1
    out = []
    for j in range(N // 2 + 1):
        pi = zero_user ** (N - j) * one_user ** j
        P = (pi * zero_user).coeffs()    # M(D_j): differing user holds 0
        Q = (pi * one_user).coeffs()     # M(D'_j): differing user holds 1
        lP = [x.log() for x in P]
        lQ = [x.log() for x in Q]
        am1 = a - 1
        for direction, la, lb in (("DDprime", lP, lQ), ("DprimeD", lQ, lP)):   # D_a(P||Q), D_a(Q||P)
            s = flint.arb(0)
            for x, y in zip(la, lb):
                s += (x + am1 * (x - y)).exp()     # = a x + (1 - a) y; alpha's radius meets only x - y
            out.append(((j, direction), s.log() / am1))
    return out


def _sup_and_pair(balls: list) -> tuple:
    """(ball of the max, first pair in scan order that can attain it, whether it is the only one)."""
    best = balls[0][1]
    for _, b in balls[1:]:
        best = best.max(b)
    if not best.is_finite():
        return best, balls[0][0], False
    # a pair can attain the max unless its upper end is certainly below the max's lower end
    can = [pair for pair, b in balls if not b < best.lower()]
    return best, can[0], len(can) == 1


def rr_worst_pair_rdp_ball(n: int, eps0: Any, alpha: Any, *, rel: float = 1e-20, with_pair: bool = False):
    """Certified enclosure (an arb ball, python-flint) of the exact RDP of shuffled 2RR at order
    alpha: max over all neighbouring pairs and both directions, the quantity
    :func:`rr_worst_pair_rdp` computes in float64 (thesis Ch. 5, Sec. 5.2 setting; the reduction to
    j <= (n-1)/2 and both directions is the proved part of :func:`rr_worst_pair_rdp`'s docstring).

    Every pair is evaluated (the maximiser is *not* assumed to be j = 0): the laws are products of
    the arb polynomials (q + p x) and (p + q x), p = 1/(E+1), q = E/(E+1), E = e^{eps0}, and
    D_alpha(P || Q) = log(sum_k exp(alpha log P_k + (1 - alpha) log Q_k)) / (alpha - 1), all in ball
    arithmetic, so the ball contains the true value for the exact eps0 and alpha given (strings are
    read as the decimals they spell, floats at their exact binary value).  The working precision
    starts at 128 bits plus about 2.2 log2(1/eps0) for eps0 < 1 (rounded up to 128 * 2^k) and is
    doubled until the radius is below ``rel`` times the midpoint (tiny eps0 cancels
    about 2 log2(1/eps0) bits in the sum), until a doubling no longer shrinks it 1000-fold (the
    width then comes from the inputs, e.g. a float alpha: the hull of its binary value and its
    decimal), or until :data:`MAX_CERT_PREC` is reached; the wider ball is still an enclosure; a ball that is not finite raises
    :class:`~bcdp.core.errors.CertificationError`.  Cost: :func:`certified_cost`.

    ``with_pair=True`` returns (ball, (j, direction), unique): the first pair in the scan order
    (j ascending, "DDprime" first) whose ball reaches the lower end of the max, and whether it is
    the only such pair (then it is proved to attain the sup; exact ties, e.g. every pair at
    eps0 = 0, leave it False)."""
    import flint

    from bcdp.accounting.inputs import enclose
    from bcdp.core.intervals import arb_precision

    from bcdp.accounting.inputs import exact_value

    n = check_count(n)
    # decided on the exact value of an exact input, not on its float: eps0 = "1e-400" is not 0
    q0, qa = exact_value(eps0, "eps0"), exact_value(alpha, "alpha")
    if q0 is not None and q0 < 0:
        raise InvalidInputError(f"eps0 must be >= 0, got {eps0!r}")
    float_eps0(eps0, allow_inf=False)            # the checks (NaN, negative, inf)
    if not (qa > 1 if qa is not None else to_float_input(alpha, "alpha") > 1):
        raise InvalidInputError(f"alpha must be > 1, got {alpha!r}")
    e_exact = _exact(eps0, "eps0")               # 1e-400 is not 0 (its float is)
    prec = 128
    if 0 < e_exact < 1:                          # start near the precision the cancellation needs
        bits_lost = 2.2 * (e_exact.denominator.bit_length() - e_exact.numerator.bit_length() + 1)
        while prec < 128 + bits_lost:
            prec *= 2
    last_rad = None
    while True:
        with arb_precision(prec):
            e0 = enclose(eps0, "eps0")
            A = enclose(alpha, "alpha")
            if e_exact == 0:
                out, pair, unique = flint.arb(0), (0, "DDprime"), False   # every pair is 0: a tie
            else:
                out, pair, unique = _sup_and_pair(_pair_balls(n, e0.exp(), A))
        ok = out.is_finite() and (out.rad() <= abs(out.mid()) * rel or out.rad() == 0)
        # a radius that doubling the precision does not shrink 1000-fold comes from the inputs (a
        # float alpha is the hull of its binary value and its decimal): more bits cannot help
        stuck = out.is_finite() and last_rad is not None and out.rad() * 1000 > last_rad
        if ok or stuck or (out.is_finite() and prec >= MAX_CERT_PREC):
            return (out, pair, unique) if with_pair else out
        last_rad = out.rad() if out.is_finite() else None
        if prec >= MAX_CERT_PREC:
            raise CertificationError(f"no finite enclosure of the exact shuffled-RR RDP at n={n}, eps0={eps0}, "
                                     f"alpha={alpha} within {MAX_CERT_PREC} bits")
        prec *= 2


def argmax_pair(dd: np.ndarray, dpd: np.ndarray) -> tuple[float, tuple[int, str]]:
    i_dd = int(np.argmax(dd))
    i_dpd = int(np.argmax(dpd))
    if dd[i_dd] >= dpd[i_dpd]:
        return float(dd[i_dd]), (i_dd, "DDprime")
    return float(dpd[i_dpd]), (i_dpd, "DprimeD")


__all__ = ["FLOAT_SEARCH_RANGE", "FLOAT_SEARCH_REL_ERR", "MAX_CERT_PREC", "argmax_pair", "certified_cost",
           "float_search_trusted", "renyi_divergence_mp", "rr_all_pairs_rdp", "rr_pair_over_j_mp", "rr_worst_pair_rdp",
           "rr_worst_pair_rdp_ball", "rr_worst_vs_lower_pair"]
