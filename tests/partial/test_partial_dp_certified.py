"""Certified results of the concentrated partial-DP accountant: D* and the accountant return
:class:`bcdp.core.results.Certified` enclosures, and every decision (certified comparisons,
``nabla_cdp_holds``, the audit's Prop. 8 check) answers correctly or "undecided", never guesses.

Oracles are independent of the code under test: the exact value of D* of binary randomized response,
D* = KL = eps tanh(eps/2) (Bun-Steinke 2016; partial DP paper arXiv:2209.04053, Sec. 2, Def. 2),
which for e^eps = r is exactly log(r) (r - 1)/(r + 1), evaluated here with mpmath.mp at 400 bits,
and plain Fraction arithmetic on exact mpf endpoints.
"""

from __future__ import annotations

import json
from fractions import Fraction

import mpmath
import pytest
import sympy
from bcdp import Mechanism
from bcdp.checks.partial_dp._cdp_common import parallel_rr  # builds the input only
from bcdp.cli import main
from bcdp.core.errors import FloatRefusedError, InvalidInputError
from bcdp.core.results import Certified, certainly_gt, certainly_le, certainly_lt, decide_le
from bcdp.partial.concentrated import (
    eps_enclosure,
    nabla_cdp_holds,
    per_attribute_cdp_epsilon,
    whole_record_zcdp,
)
from bcdp.partial.dstar import d_star, d_star_json
from bcdp.partial.pure import dataset_domain, hamming

F = Fraction
BITS = 400


def exact(x: mpmath.mpf) -> Fraction:
    """The exact rational value of a finite mpf (mantissa * 2^exponent)."""
    man, exp = int(x.man), int(x.exp)
    return F(man * 2 ** exp) if exp >= 0 else F(man, 2 ** -exp)


def mp_enclosure(value: mpmath.mpf, rel: str = "1e-110") -> Certified:
    """[value (1 - rel), value (1 + rel)] for a positive mpmath.mp value computed at 400 bits (~120
    digits; mpmath's log, sqrt are accurate to a few ulps there, far inside the 1e-110 margin)."""
    with mpmath.workprec(BITS):
        r = mpmath.mpf(rel)
        return Certified(value * (1 - r), value * (1 + r))


def rr_dstar_enclosure(r: Fraction, scale: Fraction = F(1)) -> Certified:
    """scale * log(r) (r - 1)/(r + 1) (D* of binary RR with e^eps = r), from mpmath.mp at 400 bits
    (an oracle independent of the library's arb balls)."""
    with mpmath.workprec(BITS):
        rr = mpmath.mpf(r.numerator) / r.denominator
        v = mpmath.log(rr) * (rr - 1) / (rr + 1) * (mpmath.mpf(scale.numerator) / scale.denominator)
        return mp_enclosure(v)


def rr_rows(r: Fraction):
    p = r / (r + 1)
    return (p, 1 - p), (1 - p, p)


# -- D* is a Certified enclosure; ties with the exact value stay undecided -----------------------------

@pytest.mark.parametrize("r", [F(3), F(2), F(11, 10), F(1000)])
def test_rr_dstar_encloses_the_exact_value_and_ties_are_undecided(r):
    P, Q = rr_rows(r)
    res = d_star(P, Q)
    assert isinstance(res, Certified) and not res.is_exact and "Def. 2" in res.provenance
    value = rr_dstar_enclosure(r)
    assert value.upper - value.lower < mpmath.mpf(10) ** -100 * value.upper
    # the enclosure contains the exact value, and is 1e-30-relative
    assert res.lower <= value.lower and value.upper <= res.upper
    assert res.width <= mpmath.mpf("1e-30") * res.upper
    # equal true values: every certified comparison refuses to decide
    assert decide_le(res, value) is None and decide_le(value, res) is None
    assert not certainly_le(res, value) and not certainly_gt(res, value) and not certainly_lt(value, res)
    # closer than the enclosure's width: correct or undecided, never the wrong answer (the lower end
    # is the attained value KL up to ~1e-57, the upper end is ~2.5e-31 higher: the width is one-sided)
    for k in (25, 40, 55, 70, 90):
        for s, truth in ((F(1) - F(1, 10 ** k), False), (F(1) + F(1, 10 ** k), True)):
            assert decide_le(res, rr_dstar_enclosure(r, s)) in (truth, None)
    assert decide_le(res, rr_dstar_enclosure(r, F(1) + F(1, 10 ** 40))) is None   # inside [lower, upper]
    assert decide_le(res, rr_dstar_enclosure(r, F(1) - F(1, 10 ** 90))) is None   # below the lower end's error
    # separated by more than the width: decided, correctly
    assert decide_le(res, rr_dstar_enclosure(r, F(1) + F(1, 10 ** 25))) is True
    assert decide_le(res, rr_dstar_enclosure(r, F(1) - F(1, 10 ** 25))) is False
    assert res.at_limit_one and res.maximiser is None and res.witness == {"lambda": "1+"}
    assert res.lower <= res.kl <= res.upper  # D* = KL for binary RR


def test_dstar_exact_cases_and_json_layout():
    inf = d_star((F(1, 2), F(1, 2)), (F(1), F(0)))
    assert inf.is_infinite and inf.is_exact and inf.exact == inf.upper
    zero = d_star((F(1, 3), F(2, 3)), (F(1, 3), F(2, 3)))
    assert zero.is_exact and zero.exact == 0 == zero.lower == zero.upper
    # unpacks as an enclosure
    lo, hi = d_star(*rr_rows(F(3)))
    assert lo < hi
    js = d_star_json(d_star(*rr_rows(F(3))))
    assert list(js) == ["lower", "upper", "maximiser", "at_limit_one", "kl", "d_inf_ratio", "dps",
                        "achieved_rel_width", "intervals"]
    assert js["d_inf_ratio"] == "3" and js["maximiser"] == "None" and js["at_limit_one"] is True
    assert d_star_json(inf)["lower"] == "inf" and d_star_json(inf)["d_inf_ratio"] == "inf"
    # 40-digit strings of the certified ends: D* = log(3)/2 lies between them
    with mpmath.workdps(60):
        assert mpmath.mpf(js["lower"]) <= mpmath.log(3) / 2 <= mpmath.mpf(js["upper"])


# -- the accountant's enclosures --------------------------------------------------------------------------

def test_eps0_encloses_sqrt_of_twice_dstar_and_its_tie_is_undecided():
    """One RR bit with e^eps = 3: D* = log(3)/2 exactly, so eps0 = sqrt(2 D*) = sqrt(log 3)."""
    mech = parallel_rr(F(3, 4), 1)
    eps0 = per_attribute_cdp_epsilon(mech, 1, 1)
    assert isinstance(eps0, Certified) and "Def. 6" in eps0.provenance
    assert eps0.witness["hamming"] == 1 and set(eps0.witness) == {"x", "x_prime", "record", "hamming", "d_star"}
    with mpmath.workprec(BITS):
        target = mp_enclosure(mpmath.sqrt(mpmath.log(3)))
    assert eps0.lower <= target.lower and target.upper <= eps0.upper
    assert decide_le(eps0, target) is None
    rho = whole_record_zcdp(mech, 1, 1)
    value = rr_dstar_enclosure(F(3))
    assert rho.lower <= value.lower and value.upper <= rho.upper and "Def. 3" in rho.provenance


def test_no_pairs_is_exactly_zero():
    dom = dataset_domain([(0, 1)], 1)
    mech = Mechanism(dom, (0, 1), ((F(1, 2), F(1, 2)), (F(1, 3), F(2, 3))))
    one = per_attribute_cdp_epsilon(mech, 1, 1, inputs=[(0,)])
    assert one.is_exact and one.exact == 0 == one.upper and one.witness is None
    rho = whole_record_zcdp(mech, 1, 1, inputs=[(1,)])
    assert rho.is_exact and rho.upper == 0


# -- nabla_cdp_holds: correct or undecided, never a guess ---------------------------------------------

def test_nabla_cdp_tie_is_undecided():
    """eps(r, r') = sqrt(log 3) ||r - r'||_0 on one RR bit with e^eps = 3: eps^2/2 = log(3)/2 = D*
    exactly, so neither "holds" nor a violation may be reported."""
    mech = parallel_rr(F(3, 4), 1)
    res = nabla_cdp_holds(mech, 1, 1, lambda r, s: sympy.sqrt(sympy.log(3)) * hamming(r, s))
    assert not res.holds and res.violation is None and len(res.undecided) == 2 and res.pairs_checked == 2
    with mpmath.workdps(60):
        assert abs(mpmath.mpf(res.undecided[0]["bound"]) - mpmath.log(3) / 2) < mpmath.mpf("1e-38")


@pytest.mark.parametrize("shift", [F(1, 10 ** 45), F(1, 10 ** 60)])
def test_nabla_cdp_closer_than_the_width_is_never_wrong(shift):
    """eps^2/2 = (1 + shift) D* (true answer: holds) and (1 - shift) D* (true answer: violated), with
    shift far below the finest D* width (1e-35 relative at dps = 50): the answer may be undecided, but
    never the wrong one."""
    mech = parallel_rr(F(3, 4), 1)
    root = sympy.sqrt(sympy.log(3))
    above = nabla_cdp_holds(mech, 1, 1, lambda r, s: root * sympy.sqrt(1 + sympy.Rational(shift)) * hamming(r, s))
    assert above.violation is None
    below = nabla_cdp_holds(mech, 1, 1, lambda r, s: root * sympy.sqrt(1 - sympy.Rational(shift)) * hamming(r, s))
    assert not below.holds and (below.violation is not None or below.undecided)
    assert not above.holds and above.undecided  # (1 + shift) D* lies inside the D* enclosure


def test_nabla_cdp_decides_when_separated():
    mech = parallel_rr(F(3, 4), 1)
    root = sympy.sqrt(sympy.log(3))
    ok = nabla_cdp_holds(mech, 1, 1, lambda r, s: root * sympy.Rational(1001, 1000) * hamming(r, s))
    assert ok.holds and not ok.undecided
    bad = nabla_cdp_holds(mech, 1, 1, lambda r, s: root * sympy.Rational(999, 1000) * hamming(r, s))
    assert not bad.holds and bad.violation is not None and bad.violation["hamming"] == 1


def test_eps_enclosure_inputs():
    bits = 236
    lo, hi = eps_enclosure(F(1, 3), "", bits)
    assert exact(lo) <= F(1, 3) <= exact(hi) and exact(hi) - exact(lo) < F(1, 2 ** 200)
    assert eps_enclosure(mpmath.mpf("0.25"), "", bits) == (mpmath.mpf("0.25"), mpmath.mpf("0.25"))
    assert eps_enclosure(sympy.oo, "", bits) == float("inf")
    lo, hi = eps_enclosure(sympy.sqrt(sympy.log(3)), "", bits)
    with mpmath.workdps(80):
        v = mpmath.sqrt(mpmath.log(3))
        assert lo <= v <= hi and hi - lo < mpmath.mpf(10) ** -60
    lo, hi = eps_enclosure(sympy.pi, "", bits)  # not a ball() form: evalf with a widened margin
    with mpmath.workdps(80):
        assert lo <= mpmath.pi <= hi
    with pytest.raises(FloatRefusedError):
        eps_enclosure(0.5, "", bits)
    with pytest.raises(InvalidInputError, match="non-negative"):
        eps_enclosure(F(-1, 3), "", bits)
    with pytest.raises(InvalidInputError, match="real"):
        eps_enclosure(sympy.I, "", bits)


def test_symmetric_forms_are_accepted_and_asymmetry_refused():
    mech = parallel_rr(F(3, 4), 2)
    # log(4) and 2 log(2) are the same number written differently
    res = nabla_cdp_holds(mech, 1, 2, lambda r, s: (sympy.log(4) if r < s else 2 * sympy.log(2)) * hamming(r, s),
                          dps=50)
    assert res.holds
    with pytest.raises(InvalidInputError, match="not symmetric"):
        nabla_cdp_holds(mech, 1, 2, lambda r, s: (sympy.log(4) if r < s else sympy.log(5)) * hamming(r, s))


# -- the audit's Prop. 8 decision ---------------------------------------------------------------------------

def test_audit_prop8_tie_is_null(tmp_path, capsys):
    """With d = 1 attribute, per-attribute and whole-record pairs coincide (k = 1), so
    rho = d^2 eps0^2 / 2 exactly (Prop. 8 tight): the certified decision must be null (undecided)."""
    doc = {"n": 1, "datasets": [[[0]], [[1]]], "outputs": [0, 1], "kernel": [["3/4", "1/4"], ["1/4", "3/4"]]}
    path = tmp_path / "rr.json"
    path.write_text(json.dumps(doc))
    assert main(["partial", "audit", str(path), "--json", "--concentrated"]) == 0
    c = json.loads(capsys.readouterr().out)["concentrated"]
    assert c["prop8_holds"] is None
    with mpmath.workdps(50):
        lo, hi = mpmath.mpf(c["whole_record_rho"]["lower"]), mpmath.mpf(c["whole_record_rho"]["upper"])
        assert lo <= mpmath.log(3) / 2 <= hi


def test_half_square_and_eps0_ends_enclose_60_digit_references():
    """The arb enclosures of bcdp.partial.concentrated against mpmath.mp at 80 digits (the enclosures
    are about 70 digits wide, so a 60-digit reference would be too coarse): eps^2/2 over the
    enclosure of eps = sqrt(log 3) (= log(3)/2), over an enclosure straddling 0 (contains 0 and
    1e-30^2/2), and the eps0 of one RR bit with e^eps = 7 (sqrt(2 D*) = sqrt(2 log(7) 6/8))."""
    from bcdp.partial.concentrated import _half_square

    bits = 236
    with mpmath.workdps(80):
        half = _half_square(eps_enclosure(sympy.sqrt(sympy.log(3)), "", bits), bits)
        ref = mpmath.log(3) / 2
        assert half.lower <= ref <= half.upper and half.upper - half.lower < mpmath.mpf(10) ** -60
        tiny = mpmath.mpf("1e-30")
        hull = _half_square((-tiny, tiny), bits)
        assert hull.lower <= 0 <= tiny ** 2 / 2 <= hull.upper
        eps0 = per_attribute_cdp_epsilon(parallel_rr(F(7, 8), 1), 1, 1)
        ref = mpmath.sqrt(2 * mpmath.log(7) * mpmath.mpf(6) / 8)
        assert eps0.lower <= ref <= eps0.upper and eps0.upper - eps0.lower < mpmath.mpf("1e-19") * ref


def test_audit_prop8_bound_against_a_60_digit_reference(tmp_path, capsys):
    """Two attributes, each released by RR with e^eps = 3 (one record): D* = log(3)/2 per changed
    attribute (additive over the two independent bits), so eps0 = sqrt(log 3) (k = 1 pairs; k = 2
    pairs give sqrt(2 log 3)/2, smaller), rho = log 3 and Prop. 8's bound d^2 eps0^2 / 2 = 2 log 3.
    The audit's arb-computed bound and enclosures against mpmath.mp at 60 digits."""
    pts = [(a, b) for a in (0, 1) for b in (0, 1)]
    rr = {True: F(3, 4), False: F(1, 4)}
    kernel = [[str(rr[x[0] == y[0]] * rr[x[1] == y[1]]) for y in pts] for x in pts]
    doc = {"n": 1, "datasets": [[list(x)] for x in pts], "outputs": list(range(4)), "kernel": kernel}
    path = tmp_path / "rr2.json"
    path.write_text(json.dumps(doc))
    assert main(["partial", "audit", str(path), "--json", "--concentrated"]) == 0
    c = json.loads(capsys.readouterr().out)["concentrated"]
    with mpmath.workdps(60):
        log3 = mpmath.log(3)
        # an upper end from the eps0 enclosure (1e-20 relative), printed to 30 digits (nearest)
        bound = mpmath.mpf(c["prop8_rho_bound_upper"])
        assert 2 * log3 <= bound * (1 + mpmath.mpf("1e-29")) and bound <= 2 * log3 * (1 + mpmath.mpf("1e-19"))
        e = c["per_attribute_epsilon0"]
        assert mpmath.mpf(e["lower"]) <= mpmath.sqrt(log3) <= mpmath.mpf(e["upper"])
        r = c["whole_record_rho"]
        assert mpmath.mpf(r["lower"]) <= log3 <= mpmath.mpf(r["upper"])
    assert c["prop8_holds"] is True
