"""Thesis Fig. 3.2(c) table (``dme_fig3_2c``): rows recomputed from independent mpmath oracles, the MMS MSE bound
checked against the exact l_inf variance, and the finding.

Oracles written here: thesis Thm 5.3.1 (5.4) summed over the informative blocks and levels and the
CKS conversion (5.41) at the table's alpha*, in mpmath at 50 digits; the MSE bound from the exact
quantizer digits (:func:`bcdp.dme.quantizer.binary_digits`) and r_inf = 10 r2 sqrt(log(D n/beta)/D)
(Thm 3.6.5) or r2 sqrt(2 log(2 D n/beta)/D) (Hoeffding, from its defining equation 2 n D e^{-r^2 D/2} = beta)
in mpmath; PrivUnit's MSE from the 50-digit incomplete-beta scale at the table's (gamma, p).
"""

from __future__ import annotations

import csv
import io
import random
from fractions import Fraction

import mpmath
import pytest

from bcdp.dme import linf
from bcdp.dme.privunit import privunit_best_float, privunit_variance_mp
from bcdp.dme.quantizer import binary_digits
from bcdp.repro import dme_fig32c as fc
from bcdp.repro.tables import REGISTRY



@pytest.fixture(autouse=True)
def _fifty_digits():
    with mpmath.workdps(50):
        yield


@pytest.fixture(scope="module")
def rows():
    text = REGISTRY["dme_fig3_2c"]().files()["dme_fig3_2c.csv"]
    return [r for r in csv.reader(io.StringIO(text)) if r and not r[0].startswith("#")][1:]


def _g_exact(z: Fraction, m: int) -> Fraction:
    bits, pi = binary_digits(z, m)
    return sum((Fraction(b, 4 ** k) for k, b in enumerate(bits, start=1)), Fraction(0)) + pi / 4 ** (m - 1)


def _thm531(n, e, alpha):
    """Thm 5.3.1 (5.4) in mpmath: log(1 + C(a,2)(E-1)^2/(nb E) + sum_{i>=3} C(a,i) i Gamma(i/2)
    ((E^2-1)^2/(2 E^2 nb))^{i/2} + e^{a eps0 - (n-1)/(8E)})/(a-1), nb = floor((n-1)/(2E)) + 1."""
    E = mpmath.exp(e)
    nb = mpmath.floor((n - 1) / (2 * E)) + 1
    x = (E ** 2 - 1) ** 2 / (2 * E ** 2 * nb)
    s = 1 + mpmath.binomial(alpha, 2) * (E - 1) ** 2 / (nb * E) + mpmath.exp(alpha * e - (n - 1) / (8 * E))
    s += mpmath.fsum(mpmath.binomial(alpha, i) * i * mpmath.gamma(mpmath.mpf(i) / 2) * x ** (mpmath.mpf(i) / 2)
                     for i in range(3, alpha + 1))
    return mpmath.log(s) / (alpha - 1)


def test_mms_rows_against_mpmath(rows):
    mms = [r for r in rows if r[1].startswith("MMS")]
    assert len(mms) == len(fc.FIG32C_D) * len(fc.FIG32C_S) * (len(fc.FIG32C_V) * 2 + len(fc.FIG32C_V_HOEFFDING))
    assert sum("Hoeffding" in r[1] for r in mms[::3] + [mms[-1]]) >= 10
    n, delta, beta, m = 1000, mpmath.mpf("1e-5"), mpmath.mpf("0.01"), fc.FIG32C_M
    S3 = mpmath.mpf(sum(mpmath.mpf(4) ** (-mpmath.mpf(l) / 3) for l in range(1, m)) + mpmath.mpf(4) ** (-mpmath.mpf(m - 1) / 3)) ** 3
    fs = [mpmath.mpf(4) ** (-mpmath.mpf(k) / 3) for k in range(1, m)] + [mpmath.mpf(4) ** (-mpmath.mpf(m - 1) / 3)]
    fs = [f / sum(fs) for f in fs]
    for r in mms[::3] + [mms[-1]]:
        d, D, s, v, alpha = int(r[0]), int(r[2]), int(r[3]), mpmath.mpf(r[4]), int(float(r[6]))
        assert D == 2 ** (d - 1).bit_length() and D >= d
        a = -(-D // s)
        blocks = -(-D // a)
        rdp = blocks * mpmath.fsum(_thm531(n, 2 * mpmath.asinh(f * v / (2 * s)), alpha) for f in fs)
        eps = rdp + (mpmath.log(1 / delta) + (alpha - 1) * mpmath.log(1 - mpmath.mpf(1) / alpha)
                     - mpmath.log(alpha)) / (alpha - 1)
        assert abs(float(r[5]) - eps) <= 1e-9 * eps, r
        if "Thm 3.6.5" in r[1]:
            r_inf = 10 * mpmath.sqrt(mpmath.log(D * n / beta) / D)
        elif "Hoeffding" in r[1]:  # solve 2 n D exp(-r^2 D/2) = beta for r (r2 = 1)
            r_inf = mpmath.findroot(lambda t: mpmath.log(2 * n * D * mpmath.exp(-t * t * D / 2) / beta), 0.2)
            assert r_inf < 1 and "P[clip] <= beta" in r[11]
        else:
            r_inf = mpmath.mpf(1)
        assert abs(float(r[7]) - r_inf) <= 1e-12 * r_inf
        zmax = min(mpmath.mpf(1) / 2 + 1 / (2 * r_inf), mpmath.mpf(1))
        # g at zmax from the exact digits of a rational just above zmax's float (g is right-continuous)
        g = _g_exact(Fraction(float(zmax)), m)
        bound = 4 * r_inf ** 2 * D * (a * s ** 2 * S3 / v ** 2 + (a - 1) * mpmath.mpf(g.numerator) / g.denominator
                                      + mpmath.mpf(4) ** -m) / n
        assert abs(float(r[8]) - bound) <= 1e-9 * bound, r


def test_sms_rows_against_privunit_mp(rows):
    sms = [r for r in rows if r[1].startswith("SMS")]
    assert len(sms) == 2 * len(fc.FIG32C_PRIVUNIT_EPS0)
    for r in sms[::4]:
        d, e0 = int(r[0]), float(r[4])
        best = privunit_best_float(d, e0)
        exact = privunit_variance_mp(d, repr(best["gamma"]), repr(best["p"])) / 1000
        assert abs(float(r[8]) - exact) <= 1e-8 * exact
        assert float(r[5]) <= e0 * (1 + 1e-12)  # amplification by shuffling never hurts


def test_finding_mms_never_beats_sms(rows):
    checked = 0
    for r in rows:
        if r[1].startswith("MMS") and r[9] != "nan":
            ratio = float(r[10])
            assert abs(ratio - float(r[8]) / float(r[9])) <= 1e-12 * ratio
            assert ratio > (2.5 if "Hoeffding" in r[1] else 50), r
            checked += 1
    assert checked == sum(r[1].startswith("MMS") for r in rows)  # the SMS grid covers every MMS eps
    # the Hoeffding radius divides Thm 3.6.5's MSE bound by ~7^2 at the same (d, s, v), and the smallest
    # Hoeffding ratio (2.97, d = 1000, s = 250, v = 400) is the grid's best but still > 1
    by_key = {(r[0], r[3], r[4], "Hoeffding" in r[1]): r for r in rows if "Thm 3.6.5" in r[1] or "Hoeffding" in r[1]}
    for (d, s, v, hoeff), r in by_key.items():
        if not hoeff and (d, s, v, True) in by_key:
            assert 40 < float(r[8]) / float(by_key[(d, s, v, True)][8]) < 60
    best = min((float(r[10]), r[0], r[3], r[4]) for r in rows if "Hoeffding" in r[1])
    assert best[1:] == ("1000", "250", "400.0") and 2.9 < best[0] < 3.0
    notes = REGISTRY["dme_fig3_2c"]().notes
    assert any("d = 1000" in t and "d = 300" in t for t in notes)
    assert any("MMS beats SMS nowhere" in t and "Hoeffding r_inf: 2.97" in t for t in notes)


def test_sampling_weight_monotone_and_bound_dominates_exact_variance():
    m = 3
    grid = [Fraction(i, 64) for i in range(65)]
    gs = [_g_exact(z, m) for z in grid]
    assert all(x <= y for x, y in zip(gs, gs[1:]))  # g nondecreasing on [0, 1] (dyadic grid incl. jumps)
    for z in grid + [Fraction(1, 3), Fraction(5, 7)]:
        assert abs(fc.sampling_weight(float(z), m) - float(_g_exact(z, m))) <= 1e-15
    # the exact per-client l_inf MSE (linf_mse_formula) = privacy + (a-1) sum g + 4^{-(m-1)} sum pi(1-pi)
    D, s, ps = 4, 2, (Fraction(1, 5), Fraction(1, 7), Fraction(1, 9))
    a = 2
    V = [p * (1 - p) / (1 - 2 * p) ** 2 for p in ps]
    privacy = D * a * (sum(V[k - 1] / 4 ** k for k in range(1, m)) + V[-1] / 4 ** (m - 1))
    rng = random.Random(5)
    delta = Fraction(3, 10)  # z_j in [1/2 - delta, 1/2 + delta], as |w_j| <= r2 = 2 delta r_inf
    worst = Fraction(0)
    for _ in range(200):
        z = tuple(Fraction(1, 2) + Fraction(rng.randint(-300, 300), 1000) for _ in range(D))
        exact = linf.linf_mse_formula(z, m, s, ps)
        pis = [binary_digits(c, m)[1] for c in z]
        assert exact == privacy + (a - 1) * sum(_g_exact(c, m) for c in z) + sum(p * (1 - p) for p in pis) / 4 ** (m - 1)
        bound = privacy + (a - 1) * D * _g_exact(Fraction(1, 2) + delta, m) + Fraction(D, 4 ** m)
        assert exact <= bound
        worst = max(worst, exact)
    # wrong variant: the bound with g(1/2) (as if w = 0) is exceeded by a feasible z
    z = (Fraction(1, 2) + delta,) * D
    wrong = privacy + (a - 1) * D * _g_exact(Fraction(1, 2), m) + Fraction(D, 4 ** m)
    assert linf.linf_mse_formula(z, m, s, ps) > wrong
    # the mechanism's float bound with these pieces equals the exact one (V_k = s^2/(f_k v)^2 for
    # Lemma 2.4.1's p: p(1-p)/(1-2p)^2 = 1/w^2)
    for w in (Fraction(1, 2), Fraction(3), Fraction(20)):
        wm = mpmath.mpf(w.numerator) / w.denominator
        pm = (1 - wm / mpmath.sqrt(wm ** 2 + 4)) / 2
        assert abs(pm * (1 - pm) / (1 - 2 * pm) ** 2 - 1 / wm ** 2) <= mpmath.mpf(10) ** -40


def test_bound_with_capped_g_dominates_exact_variance_on_the_whole_cube():
    """The Hoeffding rows cap z_j at 1 (|w_j| <= r_inf < r2 given no clipping): the exact per-client l_inf MSE
    for any z in [0, 1]^D is <= privacy + (a-1) D g(1) + D 4^{-m}; the wrong cap g(1/2 + r_inf/(2 r2)) < g(1)
    (as if |w_j| <= r_inf^2/r2) is exceeded by z = (1, ..., 1)."""
    m, D, s, ps = 3, 4, 2, (Fraction(1, 5), Fraction(1, 7), Fraction(1, 9))
    a = 2
    V = [p * (1 - p) / (1 - 2 * p) ** 2 for p in ps]
    privacy = D * a * (sum(V[k - 1] / 4 ** k for k in range(1, m)) + V[-1] / 4 ** (m - 1))
    bound = privacy + (a - 1) * D * _g_exact(Fraction(1), m) + Fraction(D, 4 ** m)
    rng = random.Random(7)
    for _ in range(100):
        z = tuple(Fraction(rng.randint(0, 1000), 1000) for _ in range(D))
        assert linf.linf_mse_formula(z, m, s, ps) <= bound
    ones = (Fraction(1),) * D
    wrong = privacy + (a - 1) * D * _g_exact(Fraction(3, 4), m) + Fraction(D, 4 ** m)
    assert linf.linf_mse_formula(ones, m, s, ps) > wrong
