"""The Sec. 3.6-3.7 claim checks must touch the code: each bad twin of a :mod:`bcdp.dme.user_level` or
:mod:`bcdp.dme.l2` function (patched at the name the check calls) turns the verdict to ``refuted``
(docs/testing.md, "Claim checks must touch the code"); the real functions give ``confirmed``."""

from __future__ import annotations

import importlib
from fractions import Fraction

import pytest
import sympy
from bcdp.dme import l2, user_level
from check_verdicts import verdict

CHECKS = ("lemma371_user_level", "thm371_user_mean", "thm365_rotation")


@pytest.fixture(autouse=True, scope="module")
def _imported():
    for name in CHECKS:
        importlib.import_module(f"bcdp.checks.thesis.{name}")


def _verdict(name: str) -> str:
    return verdict(f"thesis.{name}")


@pytest.mark.parametrize("name", CHECKS)
def test_real_functions_confirm(name):
    assert _verdict(name) == "confirmed"


def _range_law_at_E_squared(real):
    return lambda D, B, tau, E: real(D, B, tau, Fraction(E) ** 2)


def _failure_halved(real):
    def bad(ys, B, tau, E):
        out = dict(real(ys, B, tau, E))
        out["argmax_outside_occupied"] = out["lowest_index"] / 2
        return out
    return bad


def _view_at_E_squared(real):
    return lambda D, B, tau, a, b, Eh: real(D, B, tau, a, b, Fraction(Eh) ** 2)


def _mse_halved(real):
    return lambda y, a, b, E: real(y, a, b, E) / 2


def _unscaled_rotation(real):
    return lambda signs: real(signs) * sympy.sqrt(len(signs))


def _biased_inverse(real):
    return lambda w, signs: tuple(v + sympy.Rational(1, 7) for v in real(w, signs))


def _tail_doubled(real):
    return lambda x: {k: v for k, v in real(x).items() if k != max(real(x))} | {2 * max(real(x)): real(x)[max(real(x))]}


BAD_TWINS = [
    ("lemma371_user_level", user_level, "range_user_law", _range_law_at_E_squared),
    ("lemma371_user_level", user_level, "range_failure_probability", _failure_halved),
    ("thm371_user_mean", user_level, "user_view_law", _view_at_E_squared),
    ("thm371_user_mean", user_level, "second_stage_mse", _mse_halved),
    ("thm365_rotation", l2, "rotation_matrix", _unscaled_rotation),
    ("thm365_rotation", l2, "inverse_rotate", _biased_inverse),
    ("thm365_rotation", l2, "rotated_linf_law", _tail_doubled),
]


@pytest.mark.parametrize("name, module, attr, make_bad", BAD_TWINS, ids=[f"{b[0]}-{b[2]}" for b in BAD_TWINS])
def test_bad_twins_are_refuted(monkeypatch, name, module, attr, make_bad):
    monkeypatch.setattr(module, attr, make_bad(getattr(module, attr)))
    assert _verdict(name) == "refuted"
