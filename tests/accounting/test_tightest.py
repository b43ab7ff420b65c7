"""The tightest certified conversion (bcdp.accounting.tightest): soundness, the total-variation rule,
certified decisions at ties, and the minimum over the conversions.

Oracles, all independent of the code under test:
* the conversions' printed formulas and the Renyi / hockey-stick divergences of two-point
  distributions evaluated with mpmath at 50 digits;
* the Gaussian mechanism's exact privacy profile (Balle & Wang 2018, Thm. 8):
  delta(eps) = Phi(1/(2 s) - eps s) - e^eps Phi(-1/(2 s) - eps s), s = sigma / sensitivity;
* dp_accounting's `compute_epsilon` on the same orders (a peer: the tightest conversion must never be
  looser than it).
"""

from __future__ import annotations

import json
import random
from fractions import Fraction

import mpmath
import pytest
from bcdp.accounting.conversion import rdp_to_dp
from bcdp.accounting.curves import gaussian_rdp, randomized_response_rdp, rdp_curve_from_arrays, zcdp_rdp
from bcdp.accounting.tightest import TIGHTEST_METHODS, tightest_rdp_to_dp, tv_rule_certified
from bcdp.cli import main
from bcdp.core.errors import InvalidInputError

mpmath.mp.dps = 50


def _rational_up(x: mpmath.mpf) -> str:
    """A decimal string >= x (x > 0), 40 significant digits."""
    s = mpmath.nstr(x * (1 + mpmath.mpf(10) ** -38), 40, strip_zeros=False)
    assert mpmath.mpf(s) >= x
    return s


def test_issue_example_single_order_total_variation_rule():
    """alpha = 1.02, r = 1e-4, delta = 0.01: CKS gives about 225, the total-variation rule soundly 0
    (0.01^2 = 1e-4 >= 1 - exp(-1e-4) = 0.99995e-4), as dp_accounting does."""
    from dp_accounting.rdp.rdp_privacy_accountant import compute_epsilon

    curve = rdp_curve_from_arrays([1.02], [1e-4], ["1e-4"])
    res = tightest_rdp_to_dp(curve, "0.01")
    assert res.upper == 0.0 and res.lower == 0.0 and res.details["method"] == "tv"
    a, r, d = mpmath.mpf(1.02), mpmath.mpf("1e-4"), mpmath.mpf("0.01")     # the order is the float 1.02
    cks = r + mpmath.log(1 - 1 / a) + (mpmath.log(1 / d) - mpmath.log(a)) / (a - 1)
    # the rule's 0 stops the certification: CKS keeps only its float value
    assert res.details["candidates"]["cks"] is None and res.details["certified_candidates"] == ("tv",)
    assert abs(res.details["candidates_float"]["cks"] - cks) <= cks * mpmath.mpf(10) ** -12
    full = tightest_rdp_to_dp(curve, "0.01", certify_all=True)
    got = full.details["candidates"]["cks"]
    assert full.upper == 0.0 and set(full.details["certified_candidates"]) == {"tv", "cks", "asoodeh", "mironov"}
    assert got >= cks and got <= cks * (1 + mpmath.mpf(10) ** -12)
    assert compute_epsilon([1.02], [1e-4], 0.01)[0] == 0


@pytest.mark.parametrize("delta", ["0.01", "0.3", "1e-5"])
def test_total_variation_rule_at_its_tie(delta):
    """r = -log(1 - delta^2) + s, s = +-1e-30: the rule holds exactly when s < 0.  At 256 bits both
    sides are decided; at 64 bits the s > 0 side must still be refused (never a guess) and the s < 0
    side may be left undecided (refused)."""
    d = mpmath.mpf(delta)
    tie = -mpmath.log1p(-d * d)
    for shift, holds in ((mpmath.mpf("1e-30"), False), (-mpmath.mpf("1e-30"), True)):
        exact = Fraction(mpmath.nstr(tie + shift, 45))          # within 1e-45 relative of tie + shift
        curve = rdp_curve_from_arrays([1.5], [float(exact)], [exact])
        assert tv_rule_certified(curve, 1.5, delta, prec=256) is holds
        if not holds:
            assert tv_rule_certified(curve, 1.5, delta, prec=64) is False
        res = tightest_rdp_to_dp(curve, delta, prec=256)
        assert (res.details["method"] == "tv") is holds and (res.details["candidates"]["tv"] == 0.0) is holds


def _renyi(p, q, a):
    return mpmath.log(p ** a * q ** (1 - a) + (1 - p) ** a * (1 - q) ** (1 - a)) / (a - 1)


def _hockey(p, q, eps):
    e = mpmath.exp(eps)
    return max(0, p - e * q) + max(0, (1 - p) - e * (1 - q))


def test_sound_on_two_point_distributions():
    """For P = Bern(p), Q = Bern(q) and the single-order curve r = D_alpha(P || Q) (rounded up), the
    returned (eps, delta) holds for the pair: the hockey-stick divergence E_{e^eps}(P || Q) <= delta.
    Two-point pairs are the worst case of each conversion at a fixed alpha; the draws cover the rule
    "tv" winning (small r, large delta) and the others."""
    rng = random.Random(20261124)
    winners = set()
    for _ in range(120):
        p = mpmath.mpf(rng.uniform(0.02, 0.98))
        q = min(max(p + mpmath.mpf(rng.choice([1, -1]) * 10 ** rng.uniform(-4, -0.5)), mpmath.mpf("0.001")),
                mpmath.mpf("0.999"))
        a = rng.choice([1.01, 1.1, 1.5, 2.0, 4.0, 16.0])
        delta = rng.choice(["0.3", "0.05", "0.01", "1e-3", "1e-6"])
        r = _rational_up(_renyi(p, q, mpmath.mpf(a)))
        res = tightest_rdp_to_dp(rdp_curve_from_arrays([a], [float(r)], [r]), delta)
        winners.add(res.details["method"])
        assert _hockey(p, q, mpmath.mpf(res.upper)) <= mpmath.mpf(delta), (p, q, a, delta, res.details)
    assert {"tv", "cks"} <= winners


@pytest.mark.parametrize("sigma,delta", [(0.5, "1e-5"), (1.0, "1e-6"), (3.0, "1e-3"), (20.0, "0.05"), (300.0, "0.01")])
def test_gaussian_never_below_the_exact_profile(sigma, delta):
    """The Gaussian mechanism's exact delta at the returned eps is at most delta (Balle & Wang 2018)."""
    res = tightest_rdp_to_dp(gaussian_rdp(sigma), delta)
    s, eps = mpmath.mpf(sigma), mpmath.mpf(res.upper)
    exact_delta = mpmath.ncdf(1 / (2 * s) - eps * s) - mpmath.exp(eps) * mpmath.ncdf(-1 / (2 * s) - eps * s)
    assert exact_delta <= mpmath.mpf(delta)


@pytest.mark.parametrize("curve,delta", [(gaussian_rdp(2), "1e-5"), (zcdp_rdp("1e-6"), "0.01"),
                                         (zcdp_rdp("0.5"), "1e-6"), (randomized_response_rdp("0.3"), "1e-4"),
                                         (gaussian_rdp(5).compose(100), "1e-8")])
def test_minimum_of_the_candidates(curve, delta):
    """certify_all=True: every candidate is the conversion's own certified value and the result their
    minimum.  By default: the same result, the candidates certified are the conversions' own values,
    and each one left uncertified has a float eps at least the result (the stopping rule)."""
    want = {}
    for method in ("cks", "asoodeh", "mironov"):
        try:
            want[method] = rdp_to_dp(curve, delta, method).upper
        except InvalidInputError:
            want[method] = None
    full = tightest_rdp_to_dp(curve, delta, certify_all=True)
    cands = full.details["candidates"]
    assert set(cands) == set(TIGHTEST_METHODS)
    assert {m: cands[m] for m in want} == want
    finite = {m: v for m, v in cands.items() if v is not None}
    assert full.upper == min(finite.values()) and cands[full.details["method"]] == full.upper
    res = tightest_rdp_to_dp(curve, delta)
    assert (res.upper, res.details["method"]) == (full.upper, full.details["method"])
    lazy = res.details["candidates"]
    for m in want:
        if m in res.details["certified_candidates"]:
            assert lazy[m] == want[m]
        else:
            assert lazy[m] is None
            assert want[m] is None or res.details["candidates_float"][m] >= res.upper


def test_certification_goes_on_while_a_float_value_is_below_the_best_certified_one():
    """A curve whose certified values (1/2) are far above its float ones (1e-3): the float winner's
    certified eps exceeds the other conversions' float eps, so they are certified too and the result
    is the minimum of the certified values (as with certify_all)."""
    curve = rdp_curve_from_arrays([2.0, 3.0, 8.0], [1e-3, 2e-3, 5e-3], ["1/2", "1/2", "1/2"])
    res = tightest_rdp_to_dp(curve, "1e-3")
    full = tightest_rdp_to_dp(curve, "1e-3", certify_all=True)
    assert len(res.details["certified_candidates"]) >= 2
    assert res.upper == full.upper == min(v for v in full.details["candidates"].values() if v is not None)
    floats = res.details["candidates_float"]
    for m in ("cks", "asoodeh", "mironov"):
        if m not in res.details["certified_candidates"] and floats[m] is not None:
            assert floats[m] >= res.upper


def test_certify_all_must_be_a_bool():
    with pytest.raises(InvalidInputError, match="certify_all"):
        tightest_rdp_to_dp(gaussian_rdp(2), "1e-5", certify_all="yes")


def test_never_looser_than_dp_accounting_on_its_orders():
    """dp_accounting's default orders (fractional included): for Gaussian and RR curves tabulated there,
    the certified tightest eps is at most dp_accounting's float eps (up to its rounding, 1e-9 rel)."""
    from dp_accounting.rdp.rdp_privacy_accountant import compute_epsilon

    orders = [1 + x / 10.0 for x in range(1, 100)] + list(range(11, 64)) + [128, 256, 512]
    for curve, delta in ((gaussian_rdp(1.5).compose(10), 1e-6), (randomized_response_rdp("0.2"), 1e-3),
                         (zcdp_rdp("1e-5"), 0.02)):
        values = [curve(a) for a in orders]
        eps_peer, _ = compute_epsilon(orders, values, delta)
        arr = rdp_curve_from_arrays(orders, values)
        ours = tightest_rdp_to_dp(arr, repr(delta)).upper
        assert ours <= eps_peer * (1 + 1e-9) + 1e-15


def test_bad_input():
    with pytest.raises(InvalidInputError):
        tightest_rdp_to_dp(lambda a: a, "0.1")
    for bad in ("0", "1", "-0.5", "nan"):
        with pytest.raises(InvalidInputError):
            tightest_rdp_to_dp(gaussian_rdp(1), bad)


def test_cli_best(capsys):
    assert main(["rdp", "to-dp", "--n", "1000", "--eps0", "1", "--delta", "1e-6", "--bound", "thm5.3.1",
                 "--method", "best", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    finite = [v for v in out["candidates"].values() if v is not None]
    assert out["method"] == "best" and out["epsilon"] == min(finite)
    assert out["candidates"][out["conversion"]] == out["epsilon"]
    assert main(["rdp", "to-dp", "--n", "1000", "--eps0", "1", "--delta", "1e-6", "--bound", "thm5.3.1",
                 "--method", "cks", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["epsilon"] == out["candidates"]["cks"]
    assert main(["rdp", "to-dp", "--n", "100000", "--eps0", "0.01", "--delta", "0.01", "--bound", "thm5.3.1",
                 "--method", "best"]) == 0
    assert capsys.readouterr().out.strip().endswith("epsilon <= 0.0 (alpha* = 2.0, tv)")


def test_total_variation_rule_on_the_orders_asked_for():
    """zCDP rho = 1e-5, delta = 0.01: 1 - exp(-rho alpha) <= 1e-4 needs alpha <= 10.0005.  With orders
    [2, 64] the rule applies at 2; with [64] it does not (1 - exp(-6.4e-4) > 1e-4), nor with
    alpha_max below the grid's first order; order 10 applies, order 10.001 does not."""
    curve = zcdp_rdp("1e-5")
    assert tightest_rdp_to_dp(curve, "0.01", orders=[2.0, 64.0]).details["candidates"]["tv"] == 0.0
    assert tightest_rdp_to_dp(curve, "0.01", orders=[64.0]).details["candidates"]["tv"] is None
    assert tightest_rdp_to_dp(curve, "0.01", orders=[10.0]).details["candidates"]["tv"] == 0.0
    assert tightest_rdp_to_dp(curve, "0.01", orders=[10.001]).details["candidates"]["tv"] is None
    # rho = 4e-5: the rule holds up to alpha = 2.500125, so of the integer orders only 2
    assert tightest_rdp_to_dp(zcdp_rdp("4e-5"), "0.01", orders="integer", alpha_max=20).details["alpha_star"] == 2.0
    assert tightest_rdp_to_dp(curve, "0.01", orders=[2.0, 64.0], alpha_max=1.5).details["candidates"]["tv"] is None
    assert tightest_rdp_to_dp(curve, "0.01").details["alpha_star"] <= 10.0005


def test_total_variation_rule_tries_the_next_order_when_one_fails_certification():
    """An array curve whose float value at 1.5 is the smallest but whose certified value there is large:
    the rule is refused at 1.5 by the certified test and applies at 3 (certified 2e-5 <= -log(1 - 1e-4))."""
    curve = rdp_curve_from_arrays([1.5, 3.0], [1e-5, 2e-5], ["1", "2e-5"])
    res = tightest_rdp_to_dp(curve, "0.01")
    assert res.details["method"] == "tv" and res.details["alpha_star"] == 3.0
