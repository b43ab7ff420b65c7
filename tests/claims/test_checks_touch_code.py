"""Claim checks must touch the code: a check whose verdict survives a broken library function is
checking the paper, not the library (docs/testing.md, "Claim checks must touch the code").

Each test replaces one library function, at the name the check calls, by a deliberately wrong
"bad twin" (monkeypatch, undone after the test) and asserts that the check's verdict turns to
``refuted``.  The correct functions give the expected verdicts (``test_claims.py``); here only the
broken ones are run.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import numpy as np
import pytest
import sympy
from bcdp.claims import check_modules, run_check
from check_verdicts import verdict


@pytest.fixture(autouse=True, scope="module")
def _checks_imported_before_any_patch():
    """Import every check before the first twin is patched in: a check that copied a function at
    import (``from m import f``) then keeps the real one, and its verdict cannot follow the twin."""
    for name in check_modules():
        importlib.import_module(name)


def _verdict(module: str) -> str:
    return verdict(module)


# -- BCDP-Mech2-privacy: the sampler itself ----------------------------------------------------------

def test_mech2_privacy_refutes_a_sampler_that_is_only_2alpha_ldp(monkeypatch):
    """Mechanism 2's sampler run with budget 2 alpha (its coin K has p = e^{2a}/(e^{2a}+1)): it is
    2 alpha-LDP, not alpha-LDP.  The sympy model is untouched; only the sampler is wrong."""
    mechanisms = importlib.import_module("bcdp.bayesian.mechanisms")
    real = mechanisms.duchi_l2

    def twice_the_budget(x, eps, radius, rng, **kwargs):
        return real(x, 2 * eps, radius, rng, **kwargs)

    monkeypatch.setattr(mechanisms, "duchi_l2", twice_the_budget)
    assert _verdict("bcdp.mech2_privacy") == "refuted"


def test_mech2_privacy_refutes_a_sampler_whose_radius_leaks_the_input(monkeypatch):
    """Outputs on a sphere whose radius grows with |v| (each side law is still right): |Z| reveals
    |v|, so no finite alpha holds; the cells (directions only) cannot see it, the radius test does."""
    mechanisms = importlib.import_module("bcdp.bayesian.mechanisms")
    real = mechanisms.duchi_l2

    def leaky(x, eps, radius, rng, **kwargs):
        z = real(x, eps, radius, rng, **kwargs)
        return z * (1 + np.sqrt(np.einsum("ij,ij->i", x, x)) / radius)[:, None]

    monkeypatch.setattr(mechanisms, "duchi_l2", leaky)
    assert _verdict("bcdp.mech2_privacy") == "refuted"


# -- BCDP-eq64: the library's exact error and constant -------------------------------------------

def test_eq64_refutes_a_library_error_with_the_printed_constant(monkeypatch):
    """mse_exact evaluated with the paper's constant B (twice the unbiased one)."""
    theory = importlib.import_module("bcdp.bayesian.mechanisms_theory")
    real = theory.mse_exact
    monkeypatch.setattr(theory, "mse_exact", lambda d, alpha, r, v, constant="unbiased": real(d, alpha, r, v, "paper"))
    assert _verdict("bcdp.erratum_eq64_variance") == "refuted"


def test_eq64_refutes_a_sampler_constant_that_is_not_the_analysed_one(monkeypatch):
    mechanisms = importlib.import_module("bcdp.bayesian.mechanisms")
    real = mechanisms.duchi_l2_constant
    monkeypatch.setattr(mechanisms, "duchi_l2_constant",
                        lambda d, eps, radius, constant="unbiased": real(d, eps, radius, "paper"))
    assert _verdict("bcdp.erratum_eq64_variance") == "refuted"


# -- BCDP-Prop4: part 2, in both forms -------------------------------------------------------------

def test_prop4_refutes_a_part2_ratio_form_that_ignores_the_dependence(monkeypatch):
    """Part 2 as min{e^{c_i}, e^eps} (q_i dropped): too small wherever q_i > 0 matters."""
    m = importlib.import_module("bcdp.bayesian.cdp_to_bcdp")
    real = m.prop4_bound_ratios

    def no_q(c_ratios, q, ldp_ratio=None):
        if ldp_ratio is None:
            return real(c_ratios, q)
        return real(c_ratios, [0] * len(q), ldp_ratio)

    monkeypatch.setattr(m, "prop4_bound_ratios", no_q)
    assert _verdict("bcdp.prop4_cdp_to_bcdp") == "refuted"


def test_prop4_refutes_a_sympy_part2_without_the_eps_cap(monkeypatch):
    """The sympy part 2 (what the Thm 2 privacy check applies) returning c_i + log(1 + q_i e^eps - q_i)
    without the min with eps: a valid bound when it is larger, but not the printed one."""
    m = importlib.import_module("bcdp.bayesian.cdp_to_bcdp")
    real = m.prop4_bcdp_bound

    def uncapped(c, q, eps=None):
        if eps is None:
            return real(c, q)
        return [sympy.sympify(ci) + sympy.log(1 + sympy.Rational(str(qi)) * (sympy.exp(eps) - 1))
                for ci, qi in zip(c, q)]

    monkeypatch.setattr(m, "prop4_bcdp_bound", uncapped)
    assert _verdict("bcdp.prop4_cdp_to_bcdp") == "refuted"


# -- THESIS-Rem5.3.4: the comparison is of the library's bounds -----------------------------------

def test_rem534_refutes_when_the_library_bound_is_not_the_printed_one(monkeypatch):
    """(5.4) with n in place of nbar (the other reading of the extraction): smaller than (5.7)
    everywhere it matters, and not the printed formula."""
    bounds = importlib.import_module("bcdp.shuffle.bounds")
    real = bounds.thm531_upper
    monkeypatch.setattr(bounds, "thm531_upper",
                        lambda n, eps0, alpha, **kw: real(n, eps0, alpha, variant="n_unbarred", **kw))
    assert _verdict("thesis.rem534_ub_comparison") == "refuted"


def test_rem534_refutes_when_the_quoted_comparison_does_not_reproduce(monkeypatch):
    """(5.7) computed 1% too large at every point: the library no longer equals the printed formula,
    and the quoted figure 3.16e-3 no longer reproduces."""
    bounds = importlib.import_module("bcdp.shuffle.bounds")
    real = bounds.thm532_upper
    monkeypatch.setattr(bounds, "thm532_upper", lambda n, eps0, alpha, **kw: real(n, eps0, alpha, **kw) * 1.01)
    assert _verdict("thesis.rem534_ub_comparison") == "refuted"


# -- THESIS-Thm5.3.1: nbar of the proof step -------------------------------------------------------

def test_thm531_refutes_a_library_nbar_off_by_one(monkeypatch):
    """nbar = floor((n-1)/(2E)) (the + 1 forgotten, at least 1): the proof step (5.15) would run on
    the wrong number of points.  (The twin rejection alone does not notice: fewer points only make
    the exact special-case moment larger.)"""
    bounds = importlib.import_module("bcdp.shuffle.bounds")
    real = bounds.nbar

    def off_by_one(n, eps0, *, floor=True, **kw):
        value = real(n, eps0, floor=floor, **kw)
        return max(1, value - 1) if floor else value

    monkeypatch.setattr(bounds, "nbar", off_by_one)
    assert _verdict("thesis.thm531_upper") == "refuted"


# -- PDP-Prop8-CDP: the zCDP accountants and the conversion ---------------------------------------

def test_prop8_cdp_refutes_an_accountant_that_doubles_eps0(monkeypatch):
    """per_attribute_cdp_epsilon returning twice the Def. 6 value: Prop. 8 would still "hold" (a
    larger eps0 only loosens d^2 eps0^2/2), but the accountant no longer is the one defined."""
    concentrated = importlib.import_module("bcdp.partial.concentrated")
    results = importlib.import_module("bcdp.core.results")
    real = concentrated.per_attribute_cdp_epsilon

    def doubled(*args, **kwargs):
        res = real(*args, **kwargs)
        if res.is_infinite:
            return res
        return results.Certified(2 * res.lower, 2 * res.upper, None, res.witness, res.provenance)

    monkeypatch.setattr(concentrated, "per_attribute_cdp_epsilon", doubled)
    assert _verdict("partial_dp.prop8_concentrated") == "refuted"


def test_prop8_cdp_refutes_a_bun_steinke_conversion_without_its_factor_2(monkeypatch):
    """eps~ = rho + sqrt(rho log(1/delta)) (the 2 dropped): not the conversion the printed delta~ inverts."""
    conversion = importlib.import_module("bcdp.accounting.conversion")
    results = importlib.import_module("bcdp.core.results")
    import mpmath

    def no_factor_2(rho, delta, prec=None):
        value = mpmath.mpf(rho) + mpmath.sqrt(mpmath.mpf(rho) * mpmath.log(1 / mpmath.mpf(delta)))
        return results.Certified(value, value)

    monkeypatch.setattr(conversion, "bun_steinke_epsilon", no_factor_2)
    assert _verdict("partial_dp.prop8_concentrated") == "refuted"


# -- PDP-Thm12-MWEM: the selection law of Algorithm 1 ---------------------------------------------

def test_thm12_refutes_a_selection_law_at_half_the_temperature(monkeypatch):
    """The exponential mechanism of Alg. 1 step 5 with eps_T/2: still private, but not the law whose
    D* the check certifies (nor the one Thm 12's accounting is about)."""
    mwem = importlib.import_module("bcdp.partial.mwem")
    real = mwem.exponential_mechanism_probabilities
    monkeypatch.setattr(mwem, "exponential_mechanism_probabilities",
                        lambda scores, eps_t, n: real(scores, eps_t / 2, n))
    assert _verdict("partial_dp.thm12_mwem") == "refuted"


# -- THESIS-Cor5.3.2 and THESIS-eq5.40: the moments and laws the library uses ---------------------

def test_cor532_refutes_library_moments_that_lose_the_odd_orders(monkeypatch):
    """binomial_central_moments with every odd moment set to 0 (the claim would hold trivially)."""
    bounds = importlib.import_module("bcdp.shuffle.bounds")
    real = bounds.binomial_central_moments

    def even_only(n, p, r_max, **kwargs):
        mu = real(n, p, r_max, **kwargs)
        return [v if r % 2 == 0 else 0 * v for r, v in enumerate(mu)]

    monkeypatch.setattr(bounds, "binomial_central_moments", even_only)
    assert _verdict("thesis.cor532_lower") == "refuted"


def test_eq540_refutes_library_laws_with_the_records_swapped(monkeypatch):
    """shuffled_law computing the law of the complemented dataset (ones and zeros swapped)."""
    exact = importlib.import_module("bcdp.shuffle.exact")
    real = exact.shuffled_law
    monkeypatch.setattr(exact, "shuffled_law", lambda kernel, data: real(kernel, [1 - v for v in data]))
    assert _verdict("thesis.erratum_eq540") == "refuted"


# -- the paper-only checks are declared, and listed in docs/testing.md ------------------------------

def test_paper_only_checks_are_listed_in_docs_testing():
    """docs/testing.md, "Claim checks must touch the code", lists exactly the checks that declare
    that no library function implements their claim (they use ``PAPER_ONLY`` of _common)."""
    root = Path(__file__).resolve().parents[2]
    text = (root / "docs" / "testing.md").read_text(encoding="utf-8")
    section = text.split("## Claim checks must touch the code", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"^\* `(proofs_checks/[\w/]+\.py)`", section, re.M))
    declaring = {f"proofs_checks/{name.removeprefix('bcdp.checks.').replace('.', '/')}.py"
                 for name in check_modules()
                 if "PAPER_ONLY" in Path(importlib.import_module(name).__file__).read_text(encoding="utf-8")}
    assert listed and listed == declaring
    common = importlib.import_module("bcdp.checks._common")
    for path in sorted(declaring):
        module = "bcdp.checks." + path.removeprefix("proofs_checks/").removesuffix(".py").replace("/", ".")
        evidence = run_check(module).evidence
        assert evidence["library"].startswith(common.PAPER_ONLY), module
