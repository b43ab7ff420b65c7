"""Edge tests of bcdp.partial.histogram (Thm 15 of the partial DP paper, arXiv:2209.04053, Sec. 5,
proof in App. A.1.3: PrivHeavyHitter (Alg. 2) at d = 4 followed by Laplace counts), written against
the survivors of the mutation gate (benchmarks/mutation_gate.py, package partial).

Independent references only:

* the printed constants of the proof of Thm 15 (lambda = 3/eps, mu = lambda ln(16/nu),
  tau = nu n/2, b2 = 2/eps) and of the correction (lambda = (4/eps)(1 + 16/(16 - nu)),
  b2 = 4/eps; docs/errata.md E-PDP-Thm15), evaluated with mpmath at 60 digits;
* Laplace tails and CDFs by numerical integration of the density e^{-|x|/lambda}/(2 lambda)
  (mpmath.quad at 60 digits);
* the sup over *all* transcripts of Alg. 2 (level-1 candidates {0,1}^2 of both halves, then every
  accept/reject pattern of the level-2 candidates L_12 o L_34) by brute-force enumeration, each
  candidate accepted iff max(f_s, tau_l - mu) + Lap(lambda) > tau_l with fresh noise, plus for an
  accepted level-2 candidate the sup |f_s(x) - f_s(x')|/b2 of the Laplace density ratio of its
  released count.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction as F

import mpmath as mp
import numpy as np
import pytest
from bcdp.core.errors import FloatRefusedError, InvalidInputError
from bcdp.partial import histogram
from bcdp.partial.histogram import (
    _cdf,
    _tail,
    corrected_params,
    counts,
    max_log_ratio,
    p_accept,
    p_reject,
    printed_params,
)

DPS = 60


def _m(q: F) -> mp.mpf:
    return mp.mpf(q.numerator) / q.denominator


# -- constants -----------------------------------------------------------------------------------

@pytest.mark.parametrize("eps,nu,n", [(F(1, 2), F(1, 10), 200), (F(3), F(1, 4), 37)])
def test_printed_and_corrected_constants(eps, nu, n):
    with mp.workdps(DPS):
        e, v = _m(eps), _m(nu)
        lam_p = 3 / e
        printed = (lam_p, lam_p * mp.log(16 / v), v * n / 2, 2 / e)
        lam_c = (4 / e) * (1 + 16 / (16 - v))
        corrected = (lam_c, lam_c * mp.log(16 / v), v * n / 2, 4 / e)
        for got, want in ((printed_params(eps, nu, n), printed), (corrected_params(eps, nu, n), corrected)):
            for g, w in zip((got.lam, got.mu, got.tau, got.b2), want):
                assert abs(g - w) <= abs(w) * mp.mpf(10) ** -35


def test_parameter_errors_name_the_parameter():
    for make in (printed_params, corrected_params):
        with pytest.raises(InvalidInputError, match=r"^eps: cannot read"):
            make("x", F(1, 10), 200)
        with pytest.raises(InvalidInputError, match=r"^nu: cannot read"):
            make(1, "y", 200)
        with pytest.raises(FloatRefusedError, match=r"^eps: floats are refused"):
            make(0.5, F(1, 10), 200)
        with pytest.raises(FloatRefusedError, match=r"^nu: floats are refused"):
            make(1, 0.1, 200)


# -- Laplace tail and CDF --------------------------------------------------------------------------

@pytest.mark.parametrize("lam", [F(1, 2), F(2), F(7, 3)])
@pytest.mark.parametrize("t", [F(-3), F(-1, 2), F(0), F(1, 2), F(1), F(3)])
def test_tail_and_cdf_against_the_integrated_density(t, lam):
    with mp.workdps(DPS):
        L, T = _m(lam), _m(t)
        dens = lambda x: mp.exp(-abs(x) / L) / (2 * L)  # noqa: E731
        # split at 0 (the kink) so quad integrates smooth pieces
        above = mp.quad(dens, [T, mp.inf]) if T >= 0 else mp.quad(dens, [T, 0]) + mp.quad(dens, [0, mp.inf])
        below = mp.quad(dens, [-mp.inf, T]) if T <= 0 else mp.quad(dens, [-mp.inf, 0]) + mp.quad(dens, [0, T])
        tol = mp.mpf(10) ** -30
        assert abs(_tail(T, L) - above) <= tol
        assert abs(_cdf(T, L) - below) <= tol


@pytest.mark.parametrize("f", [0, 3, 10, 25, 26, 40, 200])
def test_accept_and_reject_probabilities(f):
    """Alg. 2: accept iff max(f, tau_l - mu) + Lap(lambda) > tau_l; reject is the complement."""
    p = printed_params(F(1, 2), F(1, 10), 200)
    for tau_l in (p.tau, p.tau + p.mu):
        with mp.workdps(DPS):
            lam = +p.lam
            shifted = max(mp.mpf(f), tau_l - p.mu)  # the noisy count's centre
            dens = lambda x: mp.exp(-abs(x - shifted) / lam) / (2 * lam)  # noqa: E731
            pts = sorted({tau_l, shifted})
            acc = mp.quad(dens, pts + [mp.inf]) if tau_l < shifted else mp.quad(dens, [tau_l, mp.inf])
            rej = mp.quad(dens, [-mp.inf] + pts) if tau_l > shifted else mp.quad(dens, [-mp.inf, tau_l])
            assert abs(p_accept(f, tau_l, p) - acc) <= mp.mpf(10) ** -30
            assert abs(p_reject(f, tau_l, p) - rej) <= mp.mpf(10) ** -30


def test_counts_add_up_the_records_of_each_prefix():
    data = Counter({"0000": 2, "0011": 3, "1100": 5, "1111": 7, "0110": 1})
    assert counts(data, 0, 2) == Counter({"00": 5, "11": 12, "01": 1})
    assert counts(data, 2, 4) == Counter({"00": 7, "11": 10, "10": 1})


# -- the sup over all transcripts ----------------------------------------------------------------------

def _brute_sup(x: Counter, xp: Counter, p, stage2: bool):
    """max over every transcript (L_12, L_34, accepted set of L_12 o L_34) of log P_x/P_x', by
    enumeration (floats, from 60-digit probabilities), and the max for each (L_12, L_34)."""
    def acc(f, tau):
        return p_accept_oracle(f, tau, p)

    def logr(fa, fb, tau, accepted):
        a, b = acc(fa, tau), acc(fb, tau)
        return float(mp.log(a / b)) if accepted else float(mp.log((1 - a) / (1 - b)))
    tau1, tau2 = p.tau, p.tau + p.mu
    lv1 = ("00", "01", "10", "11")
    pre = {}
    for lo, hi in ((0, 2), (2, 4)):
        fx = Counter({s: sum(c for r, c in x.items() if r[lo:hi] == s) for s in lv1})
        fxp = Counter({s: sum(c for r, c in xp.items() if r[lo:hi] == s) for s in lv1})
        for s in lv1:
            pre[lo, s] = (logr(fx[s], fxp[s], tau1, True), logr(fx[s], fxp[s], tau1, False))
    top = {}
    for u in lv1:
        for w in lv1:
            s = u + w
            extra = float(abs(x[s] - xp[s]) / p.b2) if stage2 else 0.0
            top[s] = (logr(x[s], xp[s], tau2, True) + extra, logr(x[s], xp[s], tau2, False))
    best, per = -np.inf, {}
    for l12 in itertools.product((False, True), repeat=4):
        for l34 in itertools.product((False, True), repeat=4):
            base = sum(pre[0, s][0 if a else 1] for s, a in zip(lv1, l12)) + \
                sum(pre[2, s][0 if a else 1] for s, a in zip(lv1, l34))
            cands = [u + w for u, a in zip(lv1, l12) if a for w, b in zip(lv1, l34) if b]
            if cands:
                t = np.array([top[s] for s in cands])  # (k, 2): accept, reject
                mask = (np.arange(2 ** len(cands))[:, None] >> np.arange(len(cands))) & 1
                vals = base + (np.where(mask == 1, t[:, 0], t[:, 1])).sum(axis=1)
                v = vals.max()
            else:
                v = base
            key = (sorted(s for s, a in zip(lv1, l12) if a), sorted(s for s, a in zip(lv1, l34) if a))
            per[tuple(map(tuple, key))] = v
            best = max(best, v)
    return best, per


def p_accept_oracle(f, tau, p):
    """P[max(f, tau - mu) + Lap(lambda) > tau], the Laplace tail written out (60 digits)."""
    with mp.workdps(DPS):
        t = tau - max(mp.mpf(f), tau - p.mu)
        return mp.exp(-t / p.lam) / 2 if t >= 0 else 1 - mp.exp(t / p.lam) / 2


PAIRS = [
    (Counter({"0000": 11, "1011": 189}), Counter({"0000": 10, "1000": 1, "1011": 189})),
    (Counter({"0000": 27, "0101": 20, "1111": 153}), Counter({"0000": 26, "0111": 1, "0101": 20, "1111": 153})),
    (Counter({"0011": 24, "1100": 30, "1011": 146}), Counter({"0011": 24, "1100": 29, "1110": 1, "1011": 146})),
    # not neighbours: equal level-1 counts, different level-2 counts (the function takes any two
    # datasets): here level-2 candidates are kept whose best branch is the reject one
    (Counter({"0000": 30, "1111": 30, "0101": 140}), Counter({"0011": 30, "1100": 30, "0101": 140})),
    (Counter({"0000": 20, "1111": 20, "0101": 160}), Counter({"0011": 20, "1100": 20, "0101": 160})),
]


@pytest.mark.parametrize("pair", range(len(PAIRS)))
@pytest.mark.parametrize("variant", ["printed", "corrected"])
@pytest.mark.parametrize("stage2", [True, False])
def test_max_log_ratio_is_the_sup_over_all_transcripts(pair, variant, stage2):
    x, xp = PAIRS[pair]
    p = (printed_params if variant == "printed" else corrected_params)(1, F(1, 10), 200)
    for a, b in ((x, xp), (xp, x)):
        best, per = _brute_sup(a, b, p, stage2)
        v, arg = max_log_ratio(a, b, p, stage2)
        assert abs(float(v) - best) <= 1e-9 * max(1.0, abs(best))
        assert abs(per[tuple(map(tuple, arg))] - best) <= 1e-9 * max(1.0, abs(best))  # arg attains it
        assert best > 1e-3  # a real privacy loss, not the trivial 0


def test_identical_datasets_give_zero_at_the_first_lists():
    """Every transcript has log-ratio exactly 0: the maximiser is the first pair of lists in the
    enumeration (by increasing size), the empty lists."""
    x = Counter({"0000": 11, "1011": 189})
    v, arg = max_log_ratio(x, Counter(x), printed_params(1, F(1, 10), 200))
    assert v == 0 and arg == ([], [])
    assert histogram.LEVEL1 == ("00", "01", "10", "11")
