"""The thesis Ch. 5 upper bounds as printed (thesis Thm 5.3.1 (5.4), Cor 5.3.1 (5.5), Remark 5.3.2
(5.6), Thm 5.3.2 (5.7), [EFM19] (5.8)), in mpmath at 60 digits plus the digits of n, written
independently of bcdp (E - 1 and E^2 - 1 as expm1 so that tiny eps0 keeps its digits; the tail
e^{-(n-1)/(8E)} needs its exponent to 60 significant digits).  Shared by tests/shuffle and tests/cli.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath

DPS = 60


def exact_mpf(text: str) -> mpmath.mpf:
    q = Fraction(text)
    return mpmath.mpf(q.numerator) / q.denominator


def nbar_ref(n: int, eps0: str) -> int:
    """floor((n-1)/(2E)) + 1, decided at 250 digits plus those of n: (n-1)/(2E) is within about
    (n-1) eps0 / 2 of the integer (n-1)/2, which 60 digits cannot resolve at eps0 = 1e-110."""
    with mpmath.workdps(250 + len(str(n))):
        return int(mpmath.floor((n - 1) / (2 * mpmath.exp(exact_mpf(eps0))))) + 1


def ref_5_4(n: int, eps0: str, a: int) -> mpmath.mpf:
    """(5.4): 1/(a-1) log(1 + C(a,2)(E-1)^2/(nbar E) + sum_{i=3}^a C(a,i) i Gamma(i/2)
    ((E^2-1)^2/(2 E^2 nbar))^{i/2} + e^{eps0 a - (n-1)/(8E)}), nbar = floor((n-1)/(2E)) + 1."""
    with mpmath.workdps(DPS + len(str(n))):
        e = exact_mpf(eps0)
        E = mpmath.exp(e)
        nb = nbar_ref(n, eps0)
        x = mpmath.expm1(2 * e) ** 2 / (2 * E ** 2 * nb)
        inner = mpmath.binomial(a, 2) * mpmath.expm1(e) ** 2 / (nb * E)
        for i in range(3, a + 1):
            inner += mpmath.binomial(a, i) * i * mpmath.gamma(mpmath.mpf(i) / 2) * x ** (mpmath.mpf(i) / 2)
        inner += mpmath.exp(e * a - mpmath.mpf(n - 1) / (8 * E))
        return mpmath.log1p(inner) / (a - 1)


def ref_5_6(n: int, eps0: str, alpha: str) -> mpmath.mpf:
    """(5.6) applied to (5.4): [w (lo-1) eps(lo) + (1-w)(hi-1) eps(hi)]/(alpha-1), w = hi - alpha."""
    with mpmath.workdps(DPS):
        a = exact_mpf(alpha)
        lo, hi = int(mpmath.floor(a)), int(mpmath.ceil(a))
        if lo == hi:
            return ref_5_4(n, eps0, lo)
        w = hi - a
        t_lo = 0 if lo == 1 else w * (lo - 1) * ref_5_4(n, eps0, lo)
        return (t_lo + (1 - w) * (hi - 1) * ref_5_4(n, eps0, hi)) / (a - 1)


def cond_5_5(n: int, eps0: str, a: int) -> bool:
    with mpmath.workdps(DPS):
        return mpmath.mpf(a) ** 4 * mpmath.exp(5 * exact_mpf(eps0)) < mpmath.mpf(n) / 9


def ref_5_5(n: int, eps0: str, a: int) -> mpmath.mpf:
    """(5.5): 1/(a-1) log(1 + 4 C(a,2)(E-1)^2/n)."""
    with mpmath.workdps(DPS):
        return mpmath.log1p(4 * mpmath.binomial(a, 2) * mpmath.expm1(exact_mpf(eps0)) ** 2 / n) / (a - 1)


def ref_5_7(n: int, eps0: str, alpha: str) -> mpmath.mpf:
    """(5.7): 1/(a-1) log(e^{a^2 (E-1)^2/nbar} + e^{eps0 a - (n-1)/(8E)})."""
    with mpmath.workdps(DPS + len(str(n))):
        e, a = exact_mpf(eps0), exact_mpf(alpha)
        E = mpmath.exp(e)
        nb = nbar_ref(n, eps0)
        u = a ** 2 * mpmath.expm1(e) ** 2 / nb
        v = e * a - mpmath.mpf(n - 1) / (8 * E)
        hi, lo = max(u, v), min(u, v)
        return (hi + mpmath.log1p(mpmath.exp(lo - hi))) / (a - 1)


def ref_5_8(n: int, eps0: str, alpha: str) -> mpmath.mpf:
    """(5.8): 2 a e^{4 eps0} (E-1)^2/n."""
    with mpmath.workdps(DPS):
        e = exact_mpf(eps0)
        return 2 * exact_mpf(alpha) * mpmath.exp(4 * e) * mpmath.expm1(e) ** 2 / n


def ref_thm541(n: int, k: int, eps0: str, a: int) -> mpmath.mpf:
    """Thesis Thm 5.4.1 as printed: 1/(a-1) log(1 + 4 C(a,2) gamma^2 (E-1)^2/(kbar E)
    + sum_{j=3}^a C(a,j) gamma^j j Gamma(j/2) (2(E^2-1)^2/(kbar E^2))^{j/2}
    + ((1 + gamma c)^a - 1 - a gamma c) e^{-(k-1)/(8E)}), gamma = k/n, c = E - 1/E,
    kbar = floor((k-1)/(2E)) + 1 (the tail summed as sum_{l>=2} C(a,l) (gamma c)^l)."""
    with mpmath.workdps(DPS + len(str(n))):
        e = exact_mpf(eps0)
        E = mpmath.exp(e)
        kb = nbar_ref(k, eps0)
        g = mpmath.mpf(k) / n
        y = 2 * mpmath.expm1(2 * e) ** 2 / (kb * E ** 2)
        inner = 4 * mpmath.binomial(a, 2) * g ** 2 * mpmath.expm1(e) ** 2 / (kb * E)
        for j in range(3, a + 1):
            inner += mpmath.binomial(a, j) * g ** j * j * mpmath.gamma(mpmath.mpf(j) / 2) * y ** (mpmath.mpf(j) / 2)
        gc = g * (E - 1 / E)
        tail = sum(mpmath.binomial(a, lam) * gc ** lam for lam in range(2, a + 1))
        inner += tail * mpmath.exp(-mpmath.mpf(k - 1) / (8 * E))
        return mpmath.log1p(inner) / (a - 1)


def thm541_dp_epsilon_ref(n: int, k: int, eps0: str, delta: str, rounds: int, orders) -> float:
    """The certified eps of ``rounds`` rounds of k-of-n subsampled shuffling, from :func:`ref_thm541`
    rounded up (1e-35 relative) as the certified values of an array curve, converted by bcdp's CKS
    conversion (the conversion is tested on its own; the curve here is independent of bcdp)."""
    from bcdp.accounting.conversion import rdp_to_dp
    from bcdp.accounting.curves import rdp_curve_from_arrays

    vals, cert = [], []
    for a in orders:
        with mpmath.workdps(DPS):
            v = ref_thm541(n, k, eps0, a) * (1 + mpmath.mpf(10) ** -35)
            vals.append(float(v))
            cert.append(mpmath.nstr(v, 45))
    curve = rdp_curve_from_arrays([float(a) for a in orders], vals, cert).compose(rounds)
    return rdp_to_dp(curve, delta).upper


def rr_pair_rdp_sum(n: int, eps0, alpha, direction: str, dps: int) -> mpmath.mpf:
    """D_alpha of the shuffled 2RR pair D = 0^n, D' = 0^{n-1}1 by summing every k: k ~ Bin(n, p),
    p = 1/(E+1), E = e^eps0, r(k) = ((n - k)/E + k E)/n (thesis eq. (5.40)); S = E_k[r^beta], beta =
    alpha ("DprimeD", eq. (5.9)) or 1 - alpha ("DDprime"); log1p(S - 1)/(alpha - 1) in mpmath at
    dps + 40 + 2 (digits of eps0's denominator) digits (a tiny eps0 cancels in S - 1)."""
    q0, qa = Fraction(eps0), Fraction(alpha)
    with mpmath.workdps(dps + 40 + 2 * len(str(q0.denominator))):
        E = mpmath.exp(mpmath.mpf(q0.numerator) / q0.denominator)
        p, q = 1 / (E + 1), E / (E + 1)
        a = mpmath.mpf(qa.numerator) / qa.denominator
        beta = a if direction == "DprimeD" else 1 - a
        terms, b = [], q ** n
        for k in range(n + 1):
            terms.append(b * (((n - k) / E + k * E) / n) ** beta)
            b = b * (n - k) / (k + 1) * p / q
        return mpmath.log1p(mpmath.fsum(terms) - 1) / (a - 1)
