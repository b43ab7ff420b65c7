"""Mutation-targeted tests for bcdp.shuffle.kary_worst_pair (thesis Ch. 5, Sec. 5.2, eq. (5.18)).

Every expected number comes from an independent computation: the exact laws of the two neighbouring
datasets by :func:`bcdp.shuffle.finite_laws.shuffled_law` (with
:func:`bcdp.shuffle.finite_laws.kary_rr_kernel`), divergences by
:func:`bcdp.core.divergences.renyi_divergence` or by mpmath sums at >= 50 digits, or a documented
contract (error type and the name in its message, the returned tuple's shape, the attaining
configuration and its direction label, the underflow charge documented in
:func:`kary_worst_pair_float`).  Targets: the log-sum-exp branch ((alpha-1) eps0 > 700), the
underflow charge (large eps0), direction labels, the eps0 = 0 early return, the info fields, input
validation.
"""

from __future__ import annotations

import itertools
import math
import time
from fractions import Fraction

import mpmath
import pytest
from bcdp.core.divergences import renyi_divergence
from bcdp.core.errors import CertificationError, FloatRefusedError, InvalidInputError, WrongTypeError
from bcdp.shuffle import kary_worst_pair as kw
from bcdp.shuffle.finite_laws import kary_rr_kernel, shuffled_law

DPS = 60
TINY = 1e-290          # the documented underflow threshold of kary_worst_pair_float


def _compositions(total, parts):
    if parts == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in _compositions(total - first, parts - 1):
            yield (first,) + rest


def _canonical(n, K):
    """Count vectors of the n-1 unchanged users up to the documented symmetries (c_0 >= c_1,
    c_2 >= ... >= c_{K-1}); built here from all compositions, not from the module."""
    return sorted({(max(c[:2]), min(c[:2])) + tuple(sorted(c[2:], reverse=True))
                   for c in _compositions(n - 1, K)})


def _laws(K, E, c, x, xp):
    kernel = kary_rr_kernel(K, exp_eps0=E)
    base = [s for s, cs in enumerate(c) for _ in range(cs)]
    return shuffled_law(kernel, base + [x]), shuffled_law(kernel, base + [xp])


def _brute_max(n, K, E, alpha, dps=DPS):
    """max of D_alpha over every neighbouring pair (every composition, every ordered pair of distinct
    symbols, both directions), exact laws."""
    best = None
    for c in _compositions(n - 1, K):
        for x, xp in itertools.permutations(range(K), 2):
            P, Q = _laws(K, E, c, x, xp)
            for X, Y in ((P, Q), (Q, P)):
                v = renyi_divergence(X, Y, Fraction(alpha), dps=dps)
                best = v if best is None or v > best else best
    return best


def _pair_value(n, K, E, alpha, c, direction, dps=DPS):
    """D_alpha of a reported (c, direction): differing user holds 0 in D, 1 in D'."""
    assert len(c) == K and sum(c) == n - 1 and min(c) >= 0
    P, Q = _laws(K, E, c, 0, 1)
    if direction == "DDprime":
        X, Y = P, Q
    elif direction == "DprimeD":
        X, Y = Q, P
    else:
        raise AssertionError(f"undocumented direction label {direction!r}")
    return renyi_divergence(X, Y, Fraction(alpha), dps=dps)


# -- float twin: log-sum-exp branch ((alpha - 1) eps0 > 700), no underflow ---------------------------

@pytest.mark.parametrize("n,K,E,alpha", [
    (3, 3, Fraction(200000), 64),          # 63 * log(2e5) = 769 > 700
    (2, 4, Fraction(200000), 64),
    (3, 2, Fraction(10) ** 6, "201/2"),    # non-integer alpha, 99.5 * 13.8 > 700
    (3, 3, Fraction(3, 2), 2000),          # small eps0, huge alpha: 1999 * 0.405 > 700, and many
    (3, 4, Fraction(3, 2), "4001/2"),      # cells of comparable weight in the log-sum-exp
])
def test_float_logsumexp_branch_matches_brute_force(n, K, E, alpha):
    a = float(Fraction(alpha))
    e0 = math.log(E)
    assert (a - 1) * e0 > 700
    with mpmath.workdps(DPS):
        ref = _brute_max(n, K, E, alpha)
        v, (c, direction), info = kw.kary_worst_pair_float(n, K, e0, a, return_info=True)
        assert v == pytest.approx(float(ref), rel=1e-10)
        assert float(_pair_value(n, K, E, alpha, c, direction)) == pytest.approx(float(ref), rel=1e-10)
    # the smallest cell is lo^n >= 1e-90 here: nothing underflows, nothing is charged
    assert info["max_log_neglected"] == -math.inf


# -- float twin: the documented underflow charge -------------------------------------------------------

def _mp(f):
    return mpmath.mpf(f.numerator) / f.denominator


def _charge_oracle(n, K, E, e0, a):
    """Documented charge, computed from the exact laws with mpmath: cells of M(D) or M(D') <= 1e-290
    are dropped; each moves the sum by at most 2e-290 E^alpha; over every reduced configuration and
    both directions, max of log(2 masked 1e-290) + alpha eps0 - log(x), x = sum over the kept cells of
    w (r^(alpha-1) - 1).  Also returns the exact max divergence."""
    worst = -mpmath.inf
    best = None
    for c in _canonical(n, K):
        P, Q = _laws(K, E, c, 0, 1)
        keys = set(P) | set(Q)
        low = [h for h in keys if P.get(h, 0) <= Fraction(TINY) or Q.get(h, 0) <= Fraction(TINY)]
        # no exact cell within 1% of the threshold (float rounding cannot flip a cell)
        for h in keys:
            for w in (P.get(h, 0), Q.get(h, 0)):
                assert not (Fraction(TINY) / Fraction(101, 100) < w < Fraction(TINY) * Fraction(101, 100))
        kept = [h for h in keys if h not in low]
        for X, Y in ((P, Q), (Q, P)):
            x = mpmath.fsum(_mp(X[h]) * (mpmath.power(_mp(X[h]) / _mp(Y[h]), a - 1) - 1) for h in kept)
            val = renyi_divergence(X, Y, Fraction(a), dps=DPS)
            best = val if best is None or val > best else best
            if low:
                bound = mpmath.log(2 * len(low) * mpmath.mpf(TINY)) + mpmath.mpf(a) * e0
                worst = max(worst, bound - (mpmath.log(x) if x > 0 else -mpmath.inf))
    return worst, best


@pytest.mark.parametrize("n,K,E,a", [
    (3, 3, Fraction(10) ** 100, 2.0),       # lo^3 ~ 1e-300 underflows; expm1 branch
    (3, 3, Fraction(10) ** 100, 4.5),       # log-sum-exp branch with dropped cells
    (3, 3, Fraction(10) ** 100, 1.001),     # x < 1 (small alpha)
    (4, 3, Fraction(10) ** 80, 1.5),        # several dropped cells per configuration
])
def test_float_underflow_charge_matches_documented_bound(n, K, E, a):
    e0 = math.log(E)
    with mpmath.workdps(DPS):
        worst, ref = _charge_oracle(n, K, E, e0, a)
        assert worst > -mpmath.inf                      # cells really are dropped
        assert worst < mpmath.log(1e-15) - 1            # ... and negligible: no error is due
        v, (c, direction), info = kw.kary_worst_pair_float(n, K, e0, a, return_info=True)
        assert info["max_log_neglected"] == pytest.approx(float(worst), rel=1e-9, abs=1e-6)
        assert v == pytest.approx(float(ref), rel=1e-9)
        assert float(_pair_value(n, K, E, Fraction(a), c, direction)) == pytest.approx(float(ref), rel=1e-9)


def test_float_underflow_that_may_matter_is_refused():
    """n = 2, K = 2, E = 10^287: lo^2 ~ 1e-574 rounds to 0 and is dropped; in the direction M(D')||M(D)
    that cell's true term is ~ hi^2, so the documented charge exceeds 1e-15 of the sum: an error."""
    n, K, E, a = 2, 2, Fraction(10) ** 287, 2.0
    e0 = math.log(E)
    with mpmath.workdps(DPS):
        worst, _ = _charge_oracle(n, K, E, e0, a)
    assert worst > mpmath.log(1e-15) + 1
    with pytest.raises(CertificationError, match="kary_worst_pair_ball"):
        kw.kary_worst_pair_float(n, K, e0, a)


# -- direction labels, the attaining configuration, ties ------------------------------------------------

@pytest.mark.parametrize("n,K,E,alpha", [
    (6, 3, Fraction(3, 2), 2),        # small eps0: the maximiser is (0, 0, n-1), directions tie
    (3, 4, Fraction(3), "3/2"),
    (2, 4, Fraction(21, 20), 2),
    (4, 3, Fraction(400), 64),        # large alpha eps0: (n-1, 0, ..., 0), "DDprime"
    (3, 5, Fraction(2), "5/2"),
])
def test_float_reported_pair_attains_with_a_documented_label(n, K, E, alpha):
    with mpmath.workdps(DPS):
        ref = _brute_max(n, K, E, alpha)
        v, (c, direction) = kw.kary_worst_pair_float(n, K, math.log(E), float(Fraction(alpha)))
        assert direction in ("DDprime", "DprimeD")
        assert c[0] >= c[1] and list(c[2:]) == sorted(c[2:], reverse=True)
        assert v == pytest.approx(float(ref), rel=1e-10)
        assert float(_pair_value(n, K, E, alpha, c, direction)) == pytest.approx(float(ref), rel=1e-10)


@pytest.mark.parametrize("n,K,E,alpha", [(6, 3, Fraction(3, 2), 2), (3, 4, Fraction(3), "3/2"),
                                         (4, 3, Fraction(400), 64), (1, 2, Fraction(3), 2)])
def test_exact_reports_first_attaining_pair_in_scan_order(n, K, E, alpha):
    """Documented: the configuration is the first attaining one in the scan order of
    reduced_configurations, "DDprime" before "DprimeD"."""
    with mpmath.workdps(DPS + 20):
        vals = []
        for c in kw.reduced_configurations(n, K):
            for d in ("DDprime", "DprimeD"):
                vals.append(((c, d), _pair_value(n, K, E, alpha, c, d, dps=DPS + 20)))
        top = max(v for _, v in vals)
        first = next(p for p, v in vals if v >= top * (1 - mpmath.mpf(10) ** -(DPS + 5)))
        v, pair = kw.kary_worst_pair_exact(n, K, E, alpha, dps=DPS)
        assert pair == first
        assert abs(v - top) <= mpmath.mpf(10) ** -(DPS - 3) * top


def test_symmetric_single_user_tie_goes_to_ddprime():
    """n = 1, K = 2: swapping the symbols maps M(D) to M(D'), so both directions are equal; ties go
    to the first ("DDprime") in both the oracle and the float twin."""
    assert kw.kary_worst_pair_exact(1, 2, 3, 2)[1] == ((0, 0), "DDprime")
    assert kw.kary_worst_pair_float(1, 2, 1.0, 2.0)[1] == ((0, 0), "DDprime")


# -- exact oracle: precision and names in messages -------------------------------------------------------

def test_exact_high_dps_is_accurate():
    """dps = 80: the oracle's value agrees with a 100-digit brute force to ~78 digits."""
    n, K, E, alpha = 3, 3, Fraction(3), "3/2"
    with mpmath.workdps(100):
        ref = _brute_max(n, K, E, alpha, dps=100)
    v, _ = kw.kary_worst_pair_exact(n, K, E, alpha, dps=80)
    with mpmath.workdps(100):
        assert abs(v - ref) <= mpmath.mpf(10) ** -77 * ref


def test_exact_default_dps_is_60():
    n, K, E, alpha = 3, 3, Fraction(3), "3/2"
    v_default, p_default = kw.kary_worst_pair_exact(n, K, E, alpha)
    v60, p60 = kw.kary_worst_pair_exact(n, K, E, alpha, dps=60)
    assert p_default == p60
    with mpmath.workdps(100):
        assert v_default == v60


def test_exact_messages_name_the_argument():
    with pytest.raises(InvalidInputError, match=r"^dps must be"):
        kw.kary_worst_pair_exact(3, 3, 3, 2, dps=10)
    with pytest.raises(WrongTypeError, match=r"^dps must be"):
        kw.kary_worst_pair_exact(3, 3, 3, 2, dps=60.0)
    with pytest.raises(FloatRefusedError, match=r"^exp_eps0: "):
        kw.kary_worst_pair_exact(3, 3, 3.0, 2)
    with pytest.raises(FloatRefusedError, match=r"^alpha: "):
        kw.kary_worst_pair_exact(3, 3, 3, 2.0)


# -- float twin: eps0 = 0, return shape, info, validation -----------------------------------------------

@pytest.mark.parametrize("n,K", [(1, 2), (4, 3), (3, 4), (2, 5)])
def test_float_eps0_zero_returns_first_configuration(n, K):
    """eps0 = 0: every pair is 0, a tie; the first configuration of the scan, (n-1, 0, ..., 0),
    "DDprime", is reported; return_info adds an info dict with the elapsed seconds."""
    first = (n - 1,) + (0,) * (K - 1)
    out = kw.kary_worst_pair_float(n, K, 0.0, 2.0)
    assert out == (0.0, (first, "DDprime"))
    t0 = time.perf_counter()
    out = kw.kary_worst_pair_float(n, K, 0.0, 2.0, return_info=True)
    elapsed = time.perf_counter() - t0
    assert len(out) == 3 and out[:2] == (0.0, (first, "DDprime"))
    assert 0.0 <= out[2]["seconds"] <= elapsed


@pytest.mark.parametrize("n,K", [(1, 3), (2, 2), (5, 3), (6, 3), (4, 4), (3, 5)])
def test_float_info_counts_every_reduced_configuration(n, K):
    t0 = time.perf_counter()
    out = kw.kary_worst_pair_float(n, K, 1.0, 2.0, return_info=True)
    elapsed = time.perf_counter() - t0
    assert len(out) == 3
    info = out[2]
    assert info["configurations"] == len(_canonical(n, K))
    assert 0.0 <= info["seconds"] <= elapsed
    assert info["max_log_neglected"] == -math.inf     # eps0 = 1: no cell near 1e-290
    assert len(kw.kary_worst_pair_float(n, K, 1.0, 2.0)) == 2


def test_float_accepts_integral_float_n():
    assert kw.kary_worst_pair_float(4.0, 3, 1.0, 2.0) == kw.kary_worst_pair_float(4, 3, 1.0, 2.0)


@pytest.mark.parametrize("eps0,pattern", [
    (math.inf, r"^eps0 must be finite"),
    (1e-17, r"use kary_worst_pair_ball"),     # e^eps0 rounds to 1
    (700.5, r"use kary_worst_pair_ball"),     # beyond the documented float range (> 700)
])
def test_float_refuses_eps0_it_cannot_resolve(eps0, pattern):
    with pytest.raises(InvalidInputError, match=pattern):
        kw.kary_worst_pair_float(3, 3, eps0, 2.0)


def test_float_refuses_infinite_alpha():
    with pytest.raises(InvalidInputError, match="alpha must be finite"):
        kw.kary_worst_pair_float(3, 3, 1.0, math.inf)
