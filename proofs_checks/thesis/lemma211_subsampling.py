"""Thesis Lemma 2.1.1 (amplification by subsampling without replacement), exactly on finite mechanisms.

Printed (thesis Sec. 2.1.1): if M: X^k -> V is (eps, delta)-DP, then M' = M o samp_{n,k} is
(eps', delta')-DP with eps' = log(1 + q(e^eps - 1)), delta' = q delta, q = k/n.  Neighbouring
relation: replace-one, on X^k and on X^n (thesis Sec. 2.1).

Instances (all exact, :mod:`bcdp.accounting.subsampling_exact`): the count of k binary randomized
responses with e^eps in {2, 3, 3/2} and the sum of k unbiased 2RR outputs (Alg 2.2.1), k of n in
{1 of 4, 2 of 4, 2 of 5, 3 of 6, 1 of 6, 3 of 8} (pure DP: delta = 0); for (eps, delta)-DP, M's own
exact profile delta_M(e^eps) at an e^eps below its pure level (RR counts, 2RR sums, 12 seeded random
mechanisms on binary and ternary alphabets, some not symmetric in the records).  Oracle (written
here from the printed lemma): e^{eps'} = 1 + q(e^eps - 1) and q delta as Fractions; the exact profile
of M' over every replace-one pair of X^n must satisfy max e^{D_inf} <= e^{eps'} (pure) and
delta_{M'}(e^{eps'}) <= q delta.  Library: :func:`bcdp.accounting.amplification.subsampling_amplification`
(certified float) is called at upward-rounded eps, delta and the exact q = k/n; its (eps'_lib, delta'_lib) must be a
valid guarantee of the exact M' (e^{eps'_lib} >= exact max ratio, compared at 50 digits; the exact
delta_{M'} at a rational ratio below e^{eps'_lib} <= delta'_lib) and equal, up to outward rounding
(relative 2^-45), to the printed pair at its inputs (a looser valid pair is refuted).  Finding: the lemma is attained
(ratio 1 exactly) for every RR count in the pure grid, so no smaller eps' is valid in general.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
from bcdp.accounting import amplification
from bcdp.accounting import subsampling_exact as se
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec

from .._common import keep

CLAIM = ClaimSpec(
    id="THESIS-Lemma2.1.1",
    paper="thesis",
    group="background",
    where="Lemma 2.1.1, Sec. 2.1.1 ([KLN11, Ull17])",
    statement="If M: X^k -> V is (eps, delta)-DP then M o samp_{n,k} is (log(1 + q(e^eps - 1)), q delta)-DP, "
              "q = k/n (replace-one neighbours); exact on RR counts, 2RR sums and random finite mechanisms.",
    expected="confirmed",
    also_checked_in=("`tests/accounting/test_accounting_subsampling_exact.py`",),
)

PURE_SIZES = ((1, 4), (2, 4), (2, 5), (3, 6), (1, 6), (3, 8))
PURE_RATIOS = (Fraction(2), Fraction(3), Fraction(3, 2))


def _up(x) -> float:
    """The smallest float >= x (x a Fraction or an mpf)."""
    f = float(x)
    if (Fraction(f) if isinstance(x, Fraction) else mpmath.mpf(f)) < x:
        f = math.nextafter(f, math.inf)
    return f


def _pure_cases() -> list:
    out = [(f"RR count k={k}, n={n}, e^eps={r}", se.rr_count_mechanism(k, r), n, r)
           for k, n in PURE_SIZES for r in PURE_RATIOS]
    out.append(("2RR sum k=2, n=5, p=1/4", se.two_rr_sum_mechanism(2, Fraction(1, 4)), 5, Fraction(3)))
    return out


def _approx_cases() -> list:
    out = []
    for k, n in ((1, 4), (2, 4), (2, 5), (3, 6)):
        out.append((f"RR count k={k}, n={n}, e^eps=3 at 2", se.rr_count_mechanism(k, Fraction(3)), n, Fraction(2)))
        out.append((f"2RR sum p=1/4 k={k}, n={n} at 3/2", se.two_rr_sum_mechanism(k, Fraction(1, 4)), n,
                    Fraction(3, 2)))
    for s in range(4):
        out.append((f"random binary k=2 seed {s}, n=4", se.random_mechanism(s, 2), 4, Fraction(3, 2)))
        out.append((f"random ternary k=1 seed {s}, n=3", se.random_mechanism(s, 1, (0, 1, 2)), 3, Fraction(3, 2)))
        out.append((f"random ternary k=2 seed {100 + s}, n=4", se.random_mechanism(100 + s, 2, (0, 1, 2)), 4,
                    Fraction(3, 2)))
    return out


def _library_ok(mech, n: int, ratio: Fraction, delta: Fraction, pure: bool) -> tuple[bool, dict]:
    """Is the library's (eps', delta') a valid guarantee of the exact M' = M o samp_{n,k}?"""
    q = Fraction(mech.k, n)
    with mpmath.workdps(50):
        eps_up = _up(mpmath.log(mpmath.mpf(ratio.numerator) / ratio.denominator))
        eps_lib, delta_lib = amplification.subsampling_amplification(eps_up, _up(delta), q)   # q exact
        e_lib = mpmath.exp(mpmath.mpf(eps_lib))
        # tight: the library's pair is the printed one at its inputs, up to outward rounding (a looser
        # but still valid pair, e.g. no amplification at all, is not the lemma)
        qm = mpmath.mpf(q.numerator) / q.denominator
        want_e = mpmath.log(1 + qm * mpmath.expm1(mpmath.mpf(eps_up)))
        want_d = qm * mpmath.mpf(_up(delta))
        if (mpmath.mpf(eps_lib) > want_e * (1 + mpmath.mpf(2) ** -45) + mpmath.mpf(2) ** -1000
                or mpmath.mpf(delta_lib) > want_d * (1 + mpmath.mpf(2) ** -45)):
            return False, {"eps_lib": repr(eps_lib), "delta_lib": repr(delta_lib),
                           "printed_eps'": mpmath.nstr(want_e, 20), "printed_delta'": mpmath.nstr(want_d, 20),
                           "what": "library pair looser than the printed (eps', delta')"}
        if pure:
            R, _ = se.max_privacy_ratio(mech, n)
            ok = mpmath.mpf(R.numerator) / R.denominator <= e_lib and delta_lib >= 0
            return ok, {"eps_lib": repr(eps_lib), "delta_lib": repr(delta_lib)}
        printed = 1 + q * (ratio - 1)
        if mpmath.mpf(printed.numerator) / printed.denominator <= e_lib:
            rho = printed                                  # delta_{M'} decreases in the ratio
        else:                                              # a rational <= e^{eps'_lib}
            rho = Fraction(mpmath.nstr(e_lib * (1 - mpmath.mpf(10) ** -40), 45))
    d_at, _ = se.privacy_profile(mech, rho, n)
    return d_at <= Fraction(delta_lib), {"eps_lib": repr(eps_lib), "delta_lib": repr(delta_lib),
                                         "exact_delta_at_lib_eps": str(d_at)}


def check() -> ClaimResult:
    fails: list = []
    rows: list = []
    tight_pure = 0
    pure = _pure_cases()
    for label, mech, n, r in pure:
        q = Fraction(mech.k, n)
        R_M, _ = se.max_privacy_ratio(mech)
        bound = 1 + q * (r - 1)                       # printed e^{eps'}
        R, wit = se.max_privacy_ratio(mech, n)
        lib_ok, lib = _library_ok(mech, n, r, Fraction(0), True)
        tight_pure += R == bound
        if R_M != r or R > bound or not lib_ok:
            keep(fails, {"case": label, "M_ratio": str(R_M), "exact_M'_ratio": str(R), "printed": str(bound),
                         **lib})
        rows.append({"case": label, "exact_M'_ratio": str(R), "printed_1+q(e^eps-1)": str(bound),
                     "attained": R == bound, "witness": str(wit)})
    approx_rows: list = []
    max_ratio = None
    for label, mech, n, r in _approx_cases():
        q = Fraction(mech.k, n)
        delta, _ = se.privacy_profile(mech, r)
        if delta == 0:
            keep(fails, {"case": label, "what": "instance is pure at this eps"})
            continue
        d_sub, wit = se.privacy_profile(mech, 1 + q * (r - 1), n)
        lib_ok, lib = _library_ok(mech, n, r, delta, False)
        ratio = d_sub / (q * delta)
        max_ratio = ratio if max_ratio is None else max(max_ratio, ratio)
        if d_sub > q * delta or not lib_ok:
            keep(fails, {"case": label, "delta_M": str(delta), "exact_delta_M'": str(d_sub),
                         "q_delta": str(q * delta), **lib})
        approx_rows.append({"case": label, "delta_M(e^eps)": str(delta), "delta_M'(e^eps')": str(d_sub),
                            "q delta": str(q * delta), "ratio": str(ratio)})
    ok = not fails
    return CLAIM.result(
        verdict="confirmed" if ok else "refuted",
        key_figure=f"{len(pure)} pure instances: exact max ratio of M' <= 1 + q(e^eps - 1), attained in {tight_pure}; "
                   f"{len(approx_rows)} (eps, delta) instances: delta_M'(eps') <= q delta, largest ratio "
                   f"{max_ratio}; {len(fails)} failures of the exact oracle or of the library's (eps', delta')",
        evidence={"pure": rows, "approximate": approx_rows, "failures": fails,
                  "largest_delta_ratio": str(max_ratio),
                  "relation": "replace-one on X^k and X^n; samp_{n,k} uniform k-subset, records in index order",
                  "library": "bcdp.accounting.amplification.subsampling_amplification (certified), "
                             "bcdp.accounting.subsampling_exact (exact profiles)"},
    )
