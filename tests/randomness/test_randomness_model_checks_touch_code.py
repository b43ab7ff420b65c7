"""The Sec. 7.2-7.3 / App. F claim checks touch the code: each bad twin of a bcdp.randomness function
(patched at the name the check calls, undone after the test) turns the verdict to ``refuted``; the
real functions give the expected verdicts."""

from __future__ import annotations

import importlib
from fractions import Fraction

import pytest
from bcdp.randomness import assouad, mechanisms, model
from check_verdicts import verdict

CHECKS = {"def72_eps_r_ldp": "confirmed", "lemma731_assouad_kl": "confirmed", "lemmaF12_assouad": "confirmed",
          "erratum_eq717_factor4": "erratum", "erratum_table71_rappor": "erratum"}


@pytest.fixture(autouse=True)
def _fresh_cache():
    importlib.import_module("bcdp.checks.thesis._ch7_assouad").table.cache_clear()
    yield
    importlib.import_module("bcdp.checks.thesis._ch7_assouad").table.cache_clear()


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_real_functions_give_the_expected_verdicts(name):
    assert verdict(f"thesis.{name}") == CHECKS[name]


def test_def72_bad_ratio(monkeypatch):
    real = model.ldp_epsilon_ratio
    monkeypatch.setattr(model, "ldp_epsilon_ratio", lambda q: real(q) if real(q) == float("inf") else real(q) ** 2)
    assert verdict("thesis.def72_eps_r_ldp") == "refuted"


def test_def72_bad_key(monkeypatch):
    real = model.key_representation

    def twin(q):
        rep = real(q)
        return model.KeyRepresentation(q=tuple(sorted(rep.q)), f=rep.f, cuts=rep.cuts)
    monkeypatch.setattr(model, "key_representation", twin)
    assert verdict("thesis.def72_eps_r_ldp") == "refuted"


def test_def72_bad_randomness(monkeypatch):
    real = model.mechanism_randomness
    monkeypatch.setattr(model, "mechanism_randomness",
                        lambda q, unit="bits", prec=128: real(q[:1], unit, prec))
    assert verdict("thesis.def72_eps_r_ldp") == "refuted"


def test_lemma731_bad_rhs(monkeypatch):
    real = assouad.lemma731_rhs

    def twin(q, k, delta, n, loss="l2", prec=128):   # phi(delta) k instead of phi(delta) k/2
        c = real(q, k, delta, n, loss, prec)
        return type(c)(lower=c.lower * 2, upper=c.upper * 2, provenance=c.provenance)
    monkeypatch.setattr(assouad, "lemma731_rhs", twin)
    assert verdict("thesis.lemma731_assouad_kl") == "refuted"


def test_f12_bad_bayes(monkeypatch):
    real = assouad.bayes_risk
    monkeypatch.setattr(assouad, "bayes_risk", lambda q, k, d, n, loss="l2": real(q, k, d, n, loss) * Fraction(9, 10))
    assert verdict("thesis.lemmaF12_assouad") == "refuted"


def test_f12_bad_rhs(monkeypatch):
    real = assouad.assouad_rhs
    monkeypatch.setattr(assouad, "assouad_rhs", lambda q, k, d, n, loss="l2": real(q, k, d, n, loss) * 2)
    assert verdict("thesis.lemmaF12_assouad") == "refuted"


def test_eq717_bad_chain(monkeypatch):
    real = assouad.chi2_chain

    def twin(*a, **kw):
        c = dict(real(*a, **kw))
        c["chi2"] = c["step_c_printed"]               # the printed step (c)
        return c
    monkeypatch.setattr(assouad, "chi2_chain", twin)
    assert verdict("thesis.erratum_eq717_factor4") == "refuted"


def test_table71_bad_rappor(monkeypatch):
    real = mechanisms.rappor
    monkeypatch.setattr(mechanisms, "rappor", lambda k, e, e_bit=None: real(k, e, e if e_bit is None else e))
    assert verdict("thesis.erratum_table71_rappor") == "refuted"


def test_table71_bad_levels(monkeypatch):
    real = mechanisms.row_levels
    monkeypatch.setattr(mechanisms, "row_levels", lambda name, k, e, params=None: real(name, k, e * e, params))
    assert verdict("thesis.erratum_table71_rappor") == "refuted"


def test_table71_bad_rr(monkeypatch):
    monkeypatch.setattr(mechanisms, "k_rr", lambda k, e: mechanisms.hadamard_response(k, e) if e >= 2 else None)
    assert verdict("thesis.erratum_table71_rappor") == "refuted"


def test_eq717_bad_feasible_set(monkeypatch):
    # review h7rev1: before, the verdict did not depend on feasible_mechanisms at all (an empty list passed)
    real = model.feasible_mechanisms
    monkeypatch.setattr(model, "feasible_mechanisms",     # off by one in the grid
                        lambda k, m, grid, e, r, unit="bits", prec=128: real(k, m, grid - 1, e, r, unit, prec))
    assert verdict("thesis.erratum_eq717_factor4") == "refuted"


def test_eq717_empty_feasible_set(monkeypatch):
    monkeypatch.setattr(model, "feasible_mechanisms", lambda *a, **kw: [])
    assert verdict("thesis.erratum_eq717_factor4") == "refuted"


def test_table71_bad_hr(monkeypatch):
    # review h7rev1: before, any eps-LDP channel below the HR bound (e.g. k-RR) passed as HR
    monkeypatch.setattr(mechanisms, "hadamard_response", lambda k, e, params=None: mechanisms.k_rr(k, e))
    assert verdict("thesis.erratum_table71_rappor") == "refuted"


def test_eq717_bad_symmetric_kl(monkeypatch):
    # review h7rev1: only the lower end of kl_sym was compared with the oracle (a zero kl_sym passed)
    real = assouad.chi2_chain

    def twin(*a, **kw):
        c = dict(real(*a, **kw))
        c["kl_sym"] = (Fraction(0), Fraction(0))
        return c
    monkeypatch.setattr(assouad, "chi2_chain", twin)
    assert verdict("thesis.erratum_eq717_factor4") == "refuted"
