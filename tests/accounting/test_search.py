"""The search over the Renyi order (bcdp.accounting.search) covers the whole range alpha in (1, inf).

Issue 12: the search covered alpha - 1 in [1e-4, 1e6] only, so for small rho and tiny delta (optimum
near 1 + sqrt(log(1/delta)/rho)) and for large rho (optimum near 1) it returned a boundary order:
``zcdp to-dp --rho 1e-12 --delta 1e-100`` printed CKS eps 2.2e-4 (alpha* = 962289) while Bun-Steinke
gives 3.0e-5, although CKS at its optimum is never above Bun-Steinke.

The reference here is independent of the library: the CKS conversion as printed (Canonne, Kamath &
Steinke 2020, Prop. 12, with r(alpha) = rho alpha),

    eps(alpha) = rho alpha + [log(1/delta) + (alpha - 1) log(1 - 1/alpha) - log(alpha)] / (alpha - 1),

minimised with mpmath at 60 digits by a grid over t = log(alpha - 1) in [-36, 700] followed by a
golden-section search between the neighbours of the best grid point (no use of the library's
analytic root), and the Bun-Steinke closed form rho + 2 sqrt(rho log(1/delta)) (2016, Prop. 1.3).
"""

from __future__ import annotations

import math

import mpmath as mp
import pytest
from bcdp.accounting.conversion import gaussian_rdp, rdp_to_dp, zcdp_rdp, zcdp_to_dp
from bcdp.accounting.search import FLOAT_LIMIT_NOTE, search_alpha
from minimisers import golden_section_min

DPS = 60
RHOS = ("1e-12", "1e-9", "1e-6", "1e-3", "0.1", "1", "10", "1e3")
DELTAS = ("1e-300", "1e-100", "1e-10", "1e-6", "0.01", "0.5")


def cks_printed(rho, delta, alpha):
    """CKS 2020 Prop. 12 as printed, for r(alpha) = rho alpha (mpmath, caller's precision)."""
    return rho * alpha + (-mp.log(delta) + (alpha - 1) * mp.log(1 - 1 / alpha) - mp.log(alpha)) / (alpha - 1)


def cks_minimum(rho: str, delta: str):
    """inf over alpha in (1, inf) of the printed CKS formula (60 digits): grid in t = log(alpha - 1)
    over [-36, 700] (alpha - 1 from 2e-16 to 1e304), then golden section around the best point."""
    with mp.workdps(DPS):
        R, D = mp.mpf(rho), mp.mpf(delta)
        g = lambda t: cks_printed(R, D, 1 + mp.exp(t))  # noqa: E731
        ts = [mp.mpf(-36) + mp.mpf(736) * k / 1472 for k in range(1473)]
        vals = [g(t) for t in ts]
        i = min(range(len(vals)), key=vals.__getitem__)
        t, value = golden_section_min(g, ts[max(i - 1, 0)], ts[min(i + 1, len(ts) - 1)], 200)
        return value, 1 + mp.exp(t)


def bun_steinke(rho: str, delta: str):
    with mp.workdps(DPS):
        R, D = mp.mpf(rho), mp.mpf(delta)
        return R + 2 * mp.sqrt(R * -mp.log(D))


@pytest.mark.parametrize("delta", DELTAS)
@pytest.mark.parametrize("rho", RHOS)
def test_zcdp_cks_is_the_60_digit_infimum_over_all_alpha(rho, delta):
    """zcdp_to_dp(rho, delta, "cks") is >= the 60-digit infimum of the printed formula (certified,
    clamped at 0) and within 1e-9 relative of it (the order is the true minimiser), at rho 1e-12..1e3
    and delta 1e-300..0.5; and never above Bun-Steinke."""
    ref, a_ref = cks_minimum(rho, delta)
    res = zcdp_to_dp(rho, delta, "cks")
    got = mp.mpf(res.epsilon_certified_upper)
    with mp.workdps(DPS):
        floor = max(ref, 0)
        assert got >= floor
        assert got <= floor * (1 + mp.mpf(10) ** -9) + mp.mpf(10) ** -300
        if ref > 0:                                    # the order itself, where eps is not clamped
            assert abs(mp.log(mp.mpf(res.alpha_star) - 1) - mp.log(a_ref - 1)) < 1e-3
        assert got <= bun_steinke(rho, delta) * (1 + mp.mpf(2) ** -50)
    assert res.notes == ()
    assert res.epsilon_certified_upper <= zcdp_to_dp(rho, delta, "bun-steinke").epsilon_certified_upper


def test_issue_example_rho_1e_12_delta_1e_100():
    """The reported case: CKS was 2.2488e-4 at alpha* = 962289 (the old grid's edge), above Bun-Steinke
    3.03e-5.  Now the 60-digit infimum (2.917e-5, at alpha* ~ 1.46e7)."""
    ref, a_ref = cks_minimum("1e-12", "1e-100")
    res = zcdp_to_dp("1e-12", "1e-100", "cks")
    assert 1.4e7 < float(a_ref) < 1.5e7 and 1.4e7 < res.alpha_star < 1.5e7
    assert ref <= res.epsilon_certified_upper <= ref * (1 + 1e-12)
    assert res.epsilon_certified_upper < zcdp_to_dp("1e-12", "1e-100", "bun-steinke").epsilon_certified_upper < 2.2e-4


@pytest.mark.parametrize("sigma,delta", [("1e6", "1e-100"), ("1e5", "1e-300"), ("1e-5", "0.5"), ("1e-6", "1e-6")])
def test_generic_search_finds_optima_outside_the_old_grid(sigma, delta):
    """rdp_to_dp on the Gaussian curve alpha / (2 sigma^2) (= zCDP with rho = 1/(2 sigma^2)) by the
    generic search: optima at alpha - 1 ~ 2e7, 6e6 (above the old 1e6) and 1e-5, 5e-6 (below the
    old 1e-4) are found, to 1e-9 of the 60-digit infimum; Mironov reaches the Bun-Steinke closed form."""
    with mp.workdps(DPS):
        rho = mp.nstr(1 / (2 * mp.mpf(sigma) ** 2), 40)
    curve = gaussian_rdp(sigma)
    ref, a_ref = cks_minimum(rho, delta)
    assert not 1e-4 <= float(a_ref - 1) <= 1e6          # the case is outside the old search range
    res = rdp_to_dp(curve, delta, "cks")
    assert ref <= res.epsilon_certified_upper <= ref * (1 + 1e-9)
    assert not res.alpha_at_search_boundary and res.notes == ()
    bs = bun_steinke(rho, delta)
    mir = rdp_to_dp(curve, delta, "mironov").epsilon_certified_upper
    assert bs <= mir <= bs * (1 + 1e-9)


def test_search_at_the_float_limit_says_so():
    """rho = 1e200: the minimiser alpha - 1 ~ 1e-100 is below the first float above 1; the search
    stops at alpha = 1 + 2^-52, a valid (certified) order, and the result carries the float-limit note."""
    res = zcdp_to_dp("1e200", "0.5", "cks")
    assert res.alpha_star == 1 + 2.0 ** -52 and res.alpha_at_search_boundary
    assert res.notes == (FLOAT_LIMIT_NOTE,)
    assert res.epsilon_certified_upper >= 1e200
    a, _, at_b = search_alpha(zcdp_rdp("1e200"), "0.5", "cks")
    assert a == 1 + 2.0 ** -52 and at_b


def test_user_alpha_max_is_respected_and_noted():
    res = rdp_to_dp(zcdp_rdp("1e-12"), "1e-100", "cks", alpha_max=1e6)
    assert res.alpha_star <= 1e6 and res.alpha_at_search_boundary
    assert "widen the range" in res.notes[0]
    assert res.epsilon_certified_upper > zcdp_to_dp("1e-12", "1e-100", "cks").epsilon_certified_upper


@pytest.mark.parametrize("rho,delta", [("1e-300", "1e-300"), ("1e-400", "1e-400")])
def test_zcdp_below_the_float_range(rho, delta):
    """rho below the normal float range: the order 1 + sqrt(L / rho) ~ 1e151 / 1e201 is found and the
    certified value is evaluated without cancellation (log(1 - 1/alpha) at alpha = 1e151 lost every
    digit at 200 bits, giving 1.4e-68 for a value of 3.7e-149); CKS <= Bun-Steinke and >= the
    60-digit value at the printed order."""
    res = zcdp_to_dp(rho, delta, "cks")
    with mp.workdps(500):                       # 1 - 1/alpha at alpha = 1e201 needs > 201 digits
        at = cks_printed(mp.mpf(rho), mp.mpf(delta), mp.mpf(res.alpha_star))
        assert at <= res.epsilon_certified_upper <= at * (1 + mp.mpf(10) ** -12)
        assert res.epsilon_certified_upper < bun_steinke(rho, delta)


def test_rho_zero_is_exactly_zero_for_every_method():
    for method in ("cks", "mironov", "asoodeh", "bun-steinke"):
        res = zcdp_to_dp("0", "1e-400", method)
        assert res.epsilon_certified_upper == 0.0 and math.isinf(res.alpha_star)
