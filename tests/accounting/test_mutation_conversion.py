"""The certified conversions of bcdp.accounting.conversion (certify_at, the result fields of _result,
the enclosure ends, zcdp_to_dp / bun_steinke_epsilon on rho enclosures, the precision argument)
against their documented contracts, with an independent oracle written here: the printed conversions
evaluated in mpmath at 50 digits,

* Mironov (2017), Prop. 3:  eps(alpha) = r + L/(alpha - 1),
* Canonne, Kamath & Steinke (2020), Prop. 12:  eps(alpha) = r + log(1 - 1/alpha) + (L - log alpha)/(alpha - 1),
* the Asoodeh et al. form:  eps(alpha) = log(1 + (e^{(alpha-1) r} - 1)/(alpha delta))/(alpha - 1),
* Bun & Steinke (2016), Prop. 1.3:  eps = rho + 2 sqrt(rho L),

with L = log(1/delta) and r = rho alpha for zCDP, and exact Fractions for the float roundings
(smallest float >= x).  Rho enclosures are arb balls with exactly known ends, built by exact arb
arithmetic and checked in the test (midpoint and radius compared in flint).  Written to kill the
survivors of the mutation gate (benchmarks/mutation_gate.py)."""

from __future__ import annotations

import math
from fractions import Fraction

import flint
import mpmath as mp
import pytest
from bcdp.accounting import conversion as cv
from bcdp.accounting import search as se
from bcdp.core.errors import InvalidInputError, WrongTypeError

DPS = 50
CLAMP_NOTE = "rho enclosure reaches below 0"


def M(x) -> mp.mpf:
    """An exact number (str, Fraction, int, float) as an mpf at the current (50-digit) precision."""
    q = Fraction(x)
    return mp.mpf(q.numerator) / q.denominator


def formula(method: str, r, a, delta):
    """The printed conversion at order a for RDP value r (mpf arguments, 50 digits)."""
    L = -mp.log(delta)
    if method == "mironov":
        return r + L / (a - 1)
    if method == "cks":
        return r + mp.log1p(-1 / a) + (L - mp.log(a)) / (a - 1)
    if method == "asoodeh":
        return mp.log1p(mp.expm1((a - 1) * r) / (a * delta)) / (a - 1)
    raise AssertionError(method)


def float_at_or_above(q: Fraction) -> float:
    """The smallest float >= the exact rational q (exact Fraction comparison)."""
    f = float(q)
    return f if Fraction(f) >= q else math.nextafter(f, math.inf)


def ball(mid: Fraction):
    """The arb ball [mid - 1/8, mid + 1/8] with exactly these ends, for a dyadic mid: 1/3 at 2 bits is
    [1/8, 3/8] (arb rounds to the 2-bit midpoint 1/4 and radius 1/8), shifted by the exact dyadic
    mid - 1/4.  Its midpoint and radius are checked in flint."""
    with flint.ctx.workprec(2):
        base = flint.arb(1) / 3
    shift = mid - Fraction(1, 4)
    b = base + flint.arb(shift.numerator) / shift.denominator
    assert b.mid() == flint.arb(mid.numerator) / mid.denominator and b.rad() == flint.arb(1) / 8
    return b


# -- the precision argument --------------------------------------------------------------------------

def test_prec_is_validated_and_named_by_every_certified_conversion():
    """prec: an int in [MIN_PREC_BITS, MAX_PREC_BITS] = [53, 2^17]; the error names "prec"."""
    curve = cv.zcdp_rdp("1/2")
    calls = [lambda p: cv.certify_at(curve, 2.0, "1e-6", "mironov", prec=p),
             lambda p: cv.rdp_to_dp(curve, "1e-6", "mironov", prec=p),
             lambda p: cv.zcdp_to_dp("1/2", "1e-6", "cks", prec=p),
             lambda p: cv.bun_steinke_epsilon("1/2", "1e-6", prec=p),
             lambda p: cv.census_2020_table(prec=p)]
    for call in calls:
        for bad in (52, 0, -1, 2 ** 17 + 1):
            with pytest.raises(InvalidInputError, match=r"^prec must be an integer in \[53, 131072\], got "):
                call(bad)
        for bad in (64.0, "64", True):
            with pytest.raises(WrongTypeError, match=r"^prec must be an integer in \[53, 131072\], got "):
                call(bad)
    with mp.workdps(DPS):                          # both ends of the range are accepted
        truth = M("1/2") + 2 * mp.sqrt(M("1/2") * mp.log(10 ** 6))
        for prec in (53, 2 ** 17):
            res = cv.bun_steinke_epsilon("1/2", "1e-6", prec=prec)
            assert truth <= M(res.upper) <= truth * (1 + mp.mpf(10) ** -14)


# -- certify_at ----------------------------------------------------------------------------------------

def test_certify_at_default_method_is_cks():
    """The default method of certify_at is "cks" (signature): the certified value brackets the CKS
    formula at the given order and rounds it up to the next float."""
    rho, a, delta = Fraction(1, 10), 5.0, Fraction(1, 10 ** 6)
    res = cv.certify_at(cv.zcdp_rdp(rho), a, delta)
    assert res.method == "cks" and "Canonne, Kamath & Steinke" in res.provenance
    with mp.workdps(DPS):
        v = formula("cks", M(rho) * a, M(a), M(delta))
        assert v <= M(res.upper) <= v + M(math.ulp(float(v)))
        assert M(res.lower) <= v


def test_certify_at_asoodeh_needs_alpha_delta_below_one_exactly():
    """Asoodeh's form holds for alpha delta < 1 only: alpha delta = 1 exactly (alpha = 2, delta = 1/2)
    and above are refused; just below 1 (both sides of the boundary, in delta and in alpha) it is
    certified against the printed formula."""
    curve = cv.zcdp_rdp(Fraction(1, 10))
    for delta in (Fraction(1, 2), "0.5", Fraction(1, 2) + Fraction(1, 10 ** 30)):
        with pytest.raises(InvalidInputError, match="^asoodeh conversion needs alpha"):
            cv.certify_at(curve, 2.0, delta, "asoodeh")
    with pytest.raises(InvalidInputError, match="^asoodeh conversion needs alpha"):
        cv.certify_at(curve, math.nextafter(2.0, 3.0), Fraction(1, 2), "asoodeh")
    for a, delta in ((2.0, Fraction(1, 2) - Fraction(1, 10 ** 30)), (math.nextafter(2.0, 1.0), Fraction(1, 2))):
        res = cv.certify_at(curve, a, delta, "asoodeh")
        with mp.workdps(DPS):
            v = formula("asoodeh", M(Fraction(1, 10)) * M(a), M(a), M(delta))
            assert v <= M(res.upper) <= v * (1 + mp.mpf(10) ** -14)


@pytest.mark.parametrize("method", ["mironov", "cks", "asoodeh"])
def test_certified_infinite_rdp_gives_an_infinite_eps(method):
    """A certified RDP of +inf at alpha (an infinite arb ball, kept as is) makes every conversion
    +inf: the result is certified infinite (lower = upper = inf, enclosure (inf, inf)) and the RDP
    upper end reported is inf."""
    curve = cv.rdp_curve_from_callable(lambda a: 1.0, certified=lambda a: flint.arb("inf"), label="inf")
    res = cv.certify_at(curve, 2.0, Fraction(1, 10), method)
    assert res.lower == math.inf and res.upper == math.inf and res.is_infinite
    assert res.enclosure == (math.inf, math.inf)
    assert res.rdp_at_alpha_star_upper == math.inf


def test_enclosure_that_is_not_finite_brackets_everything():
    """A certified RDP enclosure reaching below 0 ([-5, 5]; only certainly negative ones are refused)
    makes Asoodeh's log1p argument reach below -1: the enclosure of eps is then (-inf, inf), and the
    lower end, a lower bound on eps at alpha_star for every admissible RDP value (r = 0 gives
    eps = log1p(0) = 0), is clamped to 0, not +inf."""
    curve = cv.rdp_curve_from_callable(lambda a: 0.1, certified=lambda a: flint.arb(0, 5), label="wide")
    res = cv.certify_at(curve, 2.0, Fraction(1, 10), "asoodeh")
    assert res.enclosure[0] == -math.inf and res.enclosure[1] == math.inf
    assert res.lower == 0.0 and res.upper == math.inf
    with mp.workdps(DPS):
        assert formula("asoodeh", mp.mpf(0), mp.mpf(2), M(Fraction(1, 10))) == 0


def test_lower_end_beyond_the_float_range_stays_finite():
    """An exact certified RDP of 10^400 at alpha = 2: eps = 10^400 + log(10) (Mironov) exceeds every
    float; upper is +inf, but the lower end is the largest float (<= the exact value), not +inf."""
    curve = cv.rdp_curve_from_callable(lambda a: 1.0, certified=lambda a: 10 ** 400, label="huge")
    res = cv.certify_at(curve, 2.0, Fraction(1, 10), "mironov")
    assert res.upper == math.inf and res.enclosure[1] == math.inf
    assert res.lower == res.enclosure[0] == 1.7976931348623157e308
    assert Fraction(res.lower) <= 10 ** 400


@pytest.mark.parametrize("method", ["mironov", "cks", "asoodeh"])
def test_certify_at_details_rdp_upper_and_epsilon_float(method):
    """rdp_at_alpha_star_upper is the certified RDP upper end rounded up to a float (here exactly
    rho alpha = 3/100 ... 1/25: the smallest float >= it); epsilon_float is the float value of the
    conversion at alpha_star (clamped at 0), here below 1, to double accuracy."""
    rho, delta = Fraction(1, 1000), Fraction(1, 100)
    for a in (30.0, 40.0):
        res = cv.certify_at(cv.zcdp_rdp(rho), a, delta, method)
        assert res.rdp_at_alpha_star_upper == float_at_or_above(rho * Fraction(a))
        with mp.workdps(DPS):
            v = formula(method, M(rho) * M(a), M(a), M(delta))
            assert 0 < v < 1
            assert abs(M(res.epsilon_float) - v) <= v * mp.mpf(10) ** -13
            assert M(res.lower) <= v <= M(res.upper) <= v * (1 + mp.mpf(10) ** -14)


def test_uncertified_curve_reports_its_float_as_the_rdp_upper_end():
    """Without ``certified`` the float value is treated as an exact upper bound: the RDP upper end is
    that float, the assumption is recorded, and a negative conversion is clamped at 0 (epsilon_float,
    lower and upper) while the enclosure keeps the negative exact value."""
    curve = cv.rdp_curve_from_callable(lambda a: 0.3)
    res = cv.certify_at(curve, 3.0, Fraction(1, 10), "cks")
    assert res.rdp_at_alpha_star_upper == 0.3 and not res.rdp_certified and res.assumption != ""
    tiny = cv.rdp_curve_from_callable(lambda a: 0.0)
    res = cv.certify_at(tiny, 50.0, "0.5", "cks")
    with mp.workdps(DPS):
        v = formula("cks", mp.mpf(0), mp.mpf(50), mp.mpf("0.5"))
        assert v < 0
        assert M(res.enclosure[0]) <= v <= M(res.enclosure[1])
    assert res.epsilon_float == 0.0 and res.lower == 0.0 and res.upper == 0.0
    assert res.rdp_at_alpha_star_upper == 0.0


def test_certified_results_record_an_empty_assumption():
    """The assumption text is empty for every certified result (recorded only when float RDP values
    are treated as exact): Bun-Steinke's closed form, rho = 0, and a certified curve."""
    results = [cv.bun_steinke_epsilon("1/2", "1e-6"), cv.zcdp_to_dp(0, "1e-6", "cks"),
               cv.zcdp_to_dp("1/2", "1e-6", "cks"), cv.certify_at(cv.zcdp_rdp("1/2"), 3.0, "1e-6")]
    for res in results:
        assert res.details["assumption"] == "" and res.rdp_certified


# -- zcdp_to_dp / bun_steinke_epsilon on rho enclosures ------------------------------------------------

L6 = Fraction(1, 10 ** 6)


def bun_steinke(rho: Fraction):
    with mp.workdps(DPS):
        return M(rho) + 2 * mp.sqrt(M(rho) * mp.log(10 ** 6))


def test_enclosure_with_a_positive_lower_end_is_not_clamped():
    """rho in [1/8, 3/8] (lower end > 0): nothing to clamp; Bun-Steinke is increasing in rho, so the
    result is [value at 1/8, value at 3/8] (the closed form at the exact ends), with no clamp note."""
    rho = ball(Fraction(1, 4))
    lo, hi = bun_steinke(Fraction(1, 8)), bun_steinke(Fraction(3, 8))
    for res in (cv.bun_steinke_epsilon(rho, L6), cv.zcdp_to_dp(rho, L6, "bun-steinke")):
        with mp.workdps(DPS):
            assert lo * (1 - mp.mpf(10) ** -15) <= M(res.lower) <= lo
            assert hi <= M(res.upper) <= hi * (1 + mp.mpf(10) ** -15)
        assert not any(n.startswith(CLAMP_NOTE) for n in res.notes)


@pytest.mark.parametrize("method", ["cks", "bun-steinke"])
def test_enclosure_with_lower_end_exactly_zero_is_not_clamped(method):
    """rho in [0, 1/4]: the enclosure does not reach below 0, so it is used as it is (no clamp note);
    CKS at alpha_star over r in [0, alpha_star/4] has the lower end -log1p(1/U) + (L - log A)/U > 0
    (the value at r = 0), which is the result's lower end."""
    rho = ball(Fraction(1, 8))
    res = cv.zcdp_to_dp(rho, L6, method)
    assert not any(n.startswith(CLAMP_NOTE) for n in res.notes)
    if method == "cks":
        with mp.workdps(DPS):
            at_zero = formula("cks", mp.mpf(0), M(res.alpha_star), M(L6))
            assert at_zero > 1
            # the ball's radius is a 30-bit magnitude, rounded up: the lower end of r is 0 - 2^-29 a/8 at most
            assert at_zero * (1 - mp.mpf(10) ** -7) <= M(res.lower) <= at_zero


SYM = Fraction(1, 8)                               # rho in [-1/8, 1/8]: admits [0, 1/8]


@pytest.mark.parametrize("method", ["bun-steinke", "mironov", "cks", "asoodeh"])
def test_enclosure_reaching_below_zero_is_bounded_at_its_upper_end(method):
    """rho in [-1/8, 1/8] admits [0, 1/8]: the result is the conversion at 1/8 with lower end 0 (the
    value at rho = 0), the enclosure (0, upper), the clamp note, the method's provenance."""
    rho = ball(Fraction(0))
    res = cv.zcdp_to_dp(rho, L6, method)
    assert res.lower == 0.0 and res.details["enclosure"] == (0.0, res.upper)
    assert res.notes[-1].startswith(CLAMP_NOTE) and res.curve == f"zCDP(rho={rho})"
    paper = {"bun-steinke": "Bun & Steinke (2016)", "mironov": "Mironov (2017)",
             "cks": "Canonne, Kamath & Steinke (2020)", "asoodeh": "Asoodeh"}[method]
    assert res.provenance.startswith(paper) and res.source == res.provenance
    with mp.workdps(DPS):
        if method == "bun-steinke":
            v = bun_steinke(SYM)
        else:                                      # at the order it reports, r = (1/8) alpha_star
            v = formula(method, M(SYM) * M(res.alpha_star), M(res.alpha_star), M(L6))
        assert v <= M(res.upper) <= v * (1 + mp.mpf(10) ** -14)
        if method in ("bun-steinke", "mironov"):   # both attain rho + 2 sqrt(rho L) (Bun & Steinke's minimum)
            assert M(res.upper) <= bun_steinke(SYM) * (1 + mp.mpf(10) ** -12)


@pytest.mark.parametrize("method", ["mironov", "cks"])
def test_enclosure_reaching_below_zero_keeps_the_cap_and_its_note(method):
    """alpha_max also binds for a clamped enclosure: the optimum at rho = 1/8, delta = 1e-6 lies near
    alpha = 11.5, so alpha_max = 2 caps it (alpha_star = 2, at the boundary, with the boundary note
    kept before the clamp note); the value is the conversion at alpha = 2, r = 1/4."""
    res = cv.zcdp_to_dp(ball(Fraction(0)), L6, method, alpha_max=2.0)
    assert res.alpha_star == 2.0 and res.alpha_at_search_boundary is True
    assert res.notes[0] == se.BOUNDARY_NOTE and res.notes[-1].startswith(CLAMP_NOTE) and len(res.notes) == 2
    with mp.workdps(DPS):
        v = formula(method, M(Fraction(1, 4)), mp.mpf(2), M(L6))
        assert v <= M(res.upper) <= v * (1 + mp.mpf(10) ** -14)


def test_clamped_enclosure_is_certified_at_the_requested_precision(monkeypatch):
    """prec is the arb working precision of every certified evaluation, also of the clamped branch
    (evaluated at the enclosure's upper end): each arb context the conversion opens uses it."""
    seen = []
    real = cv.arb_precision

    def spy(bits):
        seen.append(bits)
        return real(bits)

    monkeypatch.setattr(cv, "arb_precision", spy)
    for method in ("cks", "mironov", "asoodeh", "bun-steinke"):
        seen.clear()
        res = cv.zcdp_to_dp(ball(Fraction(0)), L6, method, prec=64)
        assert seen and set(seen) == {64}, (method, seen)
        assert res.lower == 0.0 and res.upper > 0
