"""Mutation kills for the float64 twins of thesis Ch. 5 (bcdp.shuffle.float_bounds and the [GDD21e]
twin of bcdp.shuffle.subsampled): each twin pinned (relative error 1e-12) against its printed
statement evaluated here with mpmath at 60 digits at the exact binary value of the float inputs;
integral float counts (the twins take floats), eps0 = inf (an array of +inf of the orders' shape),
the cap min(., eps0), an infinite order, and the validity conditions just inside and just outside.

Printed statements used (thesis Sec. 5.3, 5.4 and Sec. 3.3.1), E = e^eps0:
* (5.5)  Cor 5.3.1: log(1 + 4 C(a,2)(E-1)^2/n)/(a-1)  (valid if a^4 e^{5 eps0} < n/9);
* (3.5)  [GDD21e] Lemma 3.3.1: log(1 + 2 a(a-1)(E-1)^2/n)/(a-1)  (valid if a^4 e^{5 eps0} <= n/9, eps0 > 0);
* (5.7)  Thm 5.3.2: log(e^{a^2 (E-1)^2/nbar} + e^{eps0 a - (n-1)/(8E)})/(a-1), nbar = floor((n-1)/(2E)) + 1;
* (5.8)  [EFM19] as quoted: 2 a e^{4 eps0}(E-1)^2/n;
* (5.9)  Thm 5.3.3: log(1 + C(a,2)(E-1)^2/(nE) + sum_{i=3}^a C(a,i)((E^2-1)/(nE))^i E[(k - n/(E+1))^i])/(a-1),
  k ~ Bin(n, 1/(E+1));
* (5.10) Cor 5.3.2: log(1 + C(a,2)(E-1)^2/(nE))/(a-1);
* Thm 5.4.1: log(1 + 4 C(a,2) g^2 (E-1)^2/(kbar E) + sum_{j=3}^a C(a,j) g^j j Gamma(j/2)
  (2(E^2-1)^2/(kbar E^2))^{j/2} + ((1 + g c)^a - 1 - a g c) e^{-(k-1)/(8E)})/(a-1), g = k/n, c = E - 1/E,
  kbar = floor((k-1)/(2E)) + 1."""

import math

import mpmath
import numpy as np
import pytest
from bcdp.core.errors import FloatRefusedError, InvalidInputError
from bcdp.shuffle import float_bounds as fb
from bcdp.shuffle import subsampled as sr
from bcdp.shuffle.inputs import check_nk

DPS = 60


def _E(e):
    return mpmath.exp(mpmath.mpf(e))   # the float's exact binary value


def eq55(n, e, a):
    E = _E(e)
    return mpmath.log1p(4 * mpmath.binomial(a, 2) * (E - 1) ** 2 / n) / (a - 1)


def eq35(n, e, a):
    E = _E(e)
    return mpmath.log1p(2 * a * (a - 1) * (E - 1) ** 2 / n) / (a - 1)


def eq57(n, e, a):
    E = _E(e)
    nbar = mpmath.floor((n - 1) / (2 * E)) + 1
    a = mpmath.mpf(a)
    return mpmath.log(mpmath.exp(a ** 2 * (E - 1) ** 2 / nbar) + mpmath.exp(mpmath.mpf(e) * a - (n - 1) / (8 * E))) / (a - 1)


def eq58(n, e, a):
    E = _E(e)
    return 2 * mpmath.mpf(a) * E ** 4 * (E - 1) ** 2 / n


def eq59(n, e, a):
    E = _E(e)
    p = 1 / (E + 1)
    mean = n * p

    def central(i):   # E[(k - np)^i], k ~ Bin(n, p), summed over every k
        return mpmath.fsum(mpmath.binomial(n, k) * p ** k * (1 - p) ** (n - k) * (k - mean) ** i for k in range(n + 1))

    x = mpmath.binomial(a, 2) * (E - 1) ** 2 / (n * E)
    x += mpmath.fsum(mpmath.binomial(a, i) * ((E * E - 1) / (n * E)) ** i * central(i) for i in range(3, a + 1))
    return mpmath.log1p(x) / (a - 1)


def eq510(n, e, a):
    E = _E(e)
    return mpmath.log1p(mpmath.binomial(a, 2) * (E - 1) ** 2 / (n * E)) / (a - 1)


def thm541(n, k, e, a):
    E = _E(e)
    g = mpmath.mpf(k) / n
    c = E - 1 / E
    kb = mpmath.floor((k - 1) / (2 * E)) + 1
    x = 4 * mpmath.binomial(a, 2) * g ** 2 * (E - 1) ** 2 / (kb * E)
    for j in range(3, a + 1):
        x += mpmath.binomial(a, j) * g ** j * j * mpmath.gamma(mpmath.mpf(j) / 2) * (2 * (E * E - 1) ** 2 / (kb * E * E)) ** (mpmath.mpf(j) / 2)
    x += ((1 + g * c) ** a - 1 - a * g * c) * mpmath.exp(-(k - 1) / (8 * E))
    return mpmath.log1p(x) / (a - 1)


def _pin(got, refs, rtol=1e-12):
    got = np.asarray(got)
    assert got.dtype == np.float64 and got.shape == (len(refs),), got
    for g, r in zip(got, refs):
        assert abs(g - float(r)) <= rtol * abs(float(r)), (g, r)


# name -> (twin(n, eps0, alphas, **kw), oracle(n, eps0, a)); n = 10^6, eps0 = 1/2, orders where every
# condition holds (2^4 e^{2.5} < 10^6/9 and 3^4 e^{2.5} < 10^6/9)
TWINS = {
    "cor531": (fb.cor531_upper_float, eq55),
    "gdd21e": (sr.gdd21e_rdp_float, eq35),
    "thm532": (fb.thm532_upper_float, eq57),
    "efm19": (fb.efm19_upper_float, eq58),
    "cor532": (fb.cor532_lower_float, eq510),
    "thm541": (lambda n, e, al, **kw: fb.thm541_upper_float(n, n // 4, e, al, **kw),
               lambda n, e, a: thm541(n, n // 4, e, a)),
}


@pytest.mark.parametrize("name", sorted(TWINS))
def test_float_twins_match_the_printed_formula_and_take_integral_float_counts(name):
    twin, oracle = TWINS[name]
    n, e, orders = 10**6, 0.5, [2, 3]
    with mpmath.workdps(DPS):
        refs = [oracle(n, e, a) for a in orders]
    _pin(twin(n, e, orders), refs)
    _pin(twin(float(n), e, orders), refs)           # an integral float count is a count for a twin


def test_thm533_lower_float_matches_the_central_moment_sum_and_takes_a_float_count():
    n, e, orders = 30, 1.25, [2, 3, 5]
    with mpmath.workdps(DPS):
        refs = [eq59(n, e, a) for a in orders]
    _pin(fb.thm533_lower_float(n, e, orders), refs, rtol=1e-11)
    _pin(fb.thm533_lower_float(30.0, e, orders), refs, rtol=1e-11)


def test_thm541_float_takes_float_counts_but_the_exact_check_refuses_them():
    n, k, e = 1000, 200, 0.75
    with mpmath.workdps(DPS):
        refs = [thm541(n, k, e, a) for a in (2, 4)]
    _pin(fb.thm541_upper_float(1000.0, 200.0, e, [2, 4]), refs)
    _pin(fb.thm541_upper_float(1000, 200.0, e, [2, 4]), refs)
    assert check_nk(1000.0, 200.0, allow_float=True) == (1000, 200)
    for bad in [(1000.0, 200), (1000, 200.0)]:
        with pytest.raises(FloatRefusedError):
            check_nk(*bad)                          # exact functions: floats refused by default
    with pytest.raises(InvalidInputError, match="^k must be >= 1"):
        check_nk(10, 0)
    with pytest.raises(InvalidInputError, match="^k must be <= n"):
        check_nk(10, 11)


@pytest.mark.parametrize("name", sorted(TWINS) + ["thm533"])
def test_float_twins_at_eps0_inf_give_an_inf_array_of_the_orders_shape(name):
    twin = fb.thm533_lower_float if name == "thm533" else TWINS[name][0]
    got = np.asarray(twin(1000, math.inf, [2, 3, 4]))
    assert got.dtype == np.float64 and got.shape == (3,) and np.all(np.isposinf(got))


def test_thm541_float_at_eps0_zero_is_an_array_of_zeros_and_refuses_k_unbarred():
    got = fb.thm541_upper_float(100, 10, 0.0, [2, 5])
    assert got.dtype == np.float64 and got.shape == (2,) and np.all(got == 0)
    with pytest.raises(InvalidInputError, match="^unknown variant 'k_unbarred'"):
        fb.thm541_upper_float(100, 10, 0.5, [2], variant="k_unbarred")


# cap: min(bound, eps0) (the shuffled histogram is eps0-DP); (n, eps0, orders) with the uncapped
# bound below eps0 at the first order and above it at the second (cor531 outside its condition, enforce=False)
CAP_CASES = {
    "efm19": (fb.efm19_upper_float, eq58, 10**4, 1.0, [2, 100]),
    "thm532": (fb.thm532_upper_float, eq57, 10**4, 1.0, [2, 1000]),
    "cor531": (lambda n, e, al, **kw: fb.cor531_upper_float(n, e, al, enforce=False, **kw), eq55, 5, 1.0, [20, 2]),
    "thm541": (lambda n, e, al, **kw: fb.thm541_upper_float(n, 100, e, al, **kw),
               lambda n, e, a: thm541(n, 100, e, a), 100, 1.0, [2, 100]),
}


@pytest.mark.parametrize("name", sorted(CAP_CASES))
def test_float_twins_cap_is_min_with_eps0_and_off_by_default(name):
    twin, oracle, n, e, orders = CAP_CASES[name]
    with mpmath.workdps(DPS):
        refs = [oracle(n, e, a) for a in orders]
    assert refs[0] < e < refs[1]
    _pin(twin(n, e, orders), refs)                        # default: not capped
    _pin(twin(n, e, orders, cap=False), refs)
    capped = twin(n, e, orders, cap=True)
    _pin(capped[:1], refs[:1])
    assert capped[1] == e


def test_thm532_float_at_an_infinite_order_is_inf():
    with np.errstate(invalid="ignore"):   # inf/inf in the formula, replaced by inf
        got = fb.thm532_upper_float(1000, 0.5, [2.5, math.inf])
    assert got.dtype == np.float64 and got[1] == math.inf
    with mpmath.workdps(DPS):
        _pin(got[:1], [eq57(1000, 0.5, mpmath.mpf(2.5))])


@pytest.mark.parametrize("e", [1e-8, 0.3, 1.0, 5.0, 800.0])
def test_cor532_lower_float_small_and_huge_eps0(e):
    # log(E - 1) evaluated without cancellation at tiny eps0 and without overflow at eps0 = 800
    with mpmath.workdps(DPS):
        refs = [eq510(10**6, e, a) for a in (2, 7)]
    _pin(fb.cor532_lower_float(10**6, e, [2, 7]), refs)


def _just(n, a, rel):
    """A float eps0 with 4 log a + 5 eps0 = log(n/9)(1 + rel) (relative error of the float ~1e-16),
    and the exact sign of a^4 e^{5 eps0} - n/9 at that float."""
    e = (math.log(n / 9) * (1 + rel) - 4 * math.log(a)) / 5
    with mpmath.workdps(DPS):
        s = mpmath.sign(mpmath.mpf(a) ** 4 * mpmath.exp(5 * mpmath.mpf(e)) - mpmath.mpf(n) / 9)
    return e, s


@pytest.mark.parametrize("twin, oracle", [(fb.cor531_upper_float, eq55), (sr.gdd21e_rdp_float, eq35)])
def test_float_conditions_just_inside_accepted_just_outside_refused(twin, oracle):
    n = 10**6
    for a in (2, 3):
        e_in, s_in = _just(n, a, -1e-9)
        e_out, s_out = _just(n, a, 5e-13)      # outside by less than the 1e-12 guard
        assert s_in < 0 < s_out
        with mpmath.workdps(DPS):
            _pin(twin(n, e_in, [a]), [oracle(n, e_in, a)])
        assert twin(n, e_out, [a])[0] == math.inf
        with mpmath.workdps(DPS):
            _pin(twin(n, e_out, [a], enforce=False), [oracle(n, e_out, a)])


def test_gdd21e_float_enforce_false_and_eps0_zero():
    # n = 100: 2^4 e^5 > 100/9, outside both conditions; enforce=False evaluates (3.5) anyway
    with mpmath.workdps(DPS):
        refs = [eq35(100, 1.0, a) for a in (2, 3)]
    _pin(sr.gdd21e_rdp_float(100, 1.0, [2, 3], enforce=False), refs)
    assert np.all(np.isposinf(sr.gdd21e_rdp_float(100, 1.0, [2, 3])))
    # Lemma 3.3.1 is stated for eps0 > 0: +inf at eps0 = 0 even where 9 a^4 <= n
    got = sr.gdd21e_rdp_float(10**6, 0.0, [2, 3])
    assert got.shape == (2,) and np.all(np.isposinf(got))


def _thm541_moment(n, k, e, a):
    """1 + (the sum inside the log of Thm 5.4.1), from the printed statement (module doc)."""
    return mpmath.exp(thm541(n, k, e, a) * (a - 1))


def test_thm541_log_moment_kbar_guard_only_lowers_kbar():
    """The float kbar of the sound Poisson route floors (t-1)/(2E) with a guard that can only lower it:
    where (t-1)/(2E) is just below the integer 10 (by a few ulps) the exact floor 9 must be kept."""
    t, n = 101, 400
    e = math.log(5.0)
    while True:   # the first float eps0 >= log 5 whose exact (t-1)/(2 e^eps0) is below 10
        with mpmath.workdps(DPS):
            x = (t - 1) / (2 * _E(e))
        if x < 10:
            break
        e = math.nextafter(e, math.inf)
    assert 10 - 1e-13 < x < 10
    for a in (2, 3, 6):
        got = sr._thm541_log_moment_t(n, np.array([t, 40]), e, a)
        with mpmath.workdps(DPS):
            refs = [mpmath.log(_thm541_moment(n, kk, e, a)) for kk in (t, 40)]
        _pin(got, refs)
