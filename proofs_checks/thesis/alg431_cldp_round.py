"""Thesis Alg 4.3.1 (CLDP-SGD), one round enumerated exactly: q = ks/(mn), no co-occurrence for s = 1, E[g_t] = grad F.

Printed (thesis Sec. 4.3, before Thm 4.3.1): each record is chosen in a round with probability
q = ks/(mn); footnote 4 of Sec. 4.3.1.1: for s = 1 two records of one client are never both chosen;
Sec. 4.3.1.3: for an unbiased R, E[g_t] = grad F(theta_t).  The check calls :mod:`bcdp.fl.rounds`
(inclusion_probability, co_occurrence_probability, output_law, gradient_mean) and compares with
oracles written here: ks/(mn) and (k/n) s(s-1)/(m(m-1)) from the printed sampling, the mean of all
nm gradients, and a brute-force law of the ks messages (every k-set, every s-set per client, every
joint output).  Randomizers: 2RR-based (:mod:`bcdp.dme.two_rr`), scalar and 2-d.
"""

from __future__ import annotations

from fractions import Fraction

from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.fl import rounds

from .._common import keep
from ._fl_instances import brute_output_law, dstr, kernels

CLAIM = ClaimSpec(
    id="THESIS-Alg4.3.1",
    paper="thesis",
    group="fl",
    where="Alg 4.3.1 and Sec. 4.3 (q = ks/(mn)), footnote 4 of Sec. 4.3.1.1, Sec. 4.3.1.3",
    statement="In one round of CLDP-SGD every record is used with probability q = ks/(mn); for s = 1 two records "
              "of one client never co-occur; with an unbiased R, E[g_t] = grad F(theta_t).",
    expected="confirmed",
    also_checked_in=("`tests/fl/test_fl_rounds_exact.py`",),
)

SIZES = ((3, 2, 2, 1), (4, 3, 2, 1), (3, 3, 2, 2), (2, 3, 1, 3), (4, 2, 4, 1), (3, 2, 1, 2))
LAW_SIZES = ((3, 2, 2, 1), (2, 3, 1, 2), (2, 2, 2, 1))


def _datasets(domain, n, m):
    """Two fixed datasets over ``domain``: cyclic and reversed-cyclic fillings."""
    d = sorted(domain)
    a = tuple(tuple(d[(i * m + j) % len(d)] for j in range(m)) for i in range(n))
    b = tuple(tuple(d[(i + 2 * j + 1) % len(d)] for j in range(m)) for i in range(n))
    return a, b


def _vec(x):
    return x if isinstance(x, tuple) else (x,)


def check() -> ClaimResult:
    fails: list = []
    rows: list = []
    for n, m, k, s in SIZES:
        q = Fraction(k * s, m * n)
        incl = {rounds.inclusion_probability(n, m, k, s, i, j) for i in range(n) for j in range(m)}
        co = rounds.co_occurrence_probability(n, m, k, s) if m >= 2 else Fraction(0)
        co_oracle = Fraction(k, n) * Fraction(s * (s - 1), m * (m - 1)) if m >= 2 else Fraction(0)
        if incl != {q} or co != co_oracle:
            keep(fails, {"sizes": [n, m, k, s], "inclusion": sorted(str(v) for v in incl), "q": str(q),
                         "co_occurrence": str(co), "oracle": str(co_oracle)})
        rows.append({"n,m,k,s": [n, m, k, s], "q": str(q), "co_occurrence": str(co)})
    laws = 0
    for label, ker in kernels():
        for n, m, k, s in LAW_SIZES:
            for D in _datasets(list(ker), n, m):
                laws += 1
                lib = rounds.output_law(D, ker, k, s)
                oracle = brute_output_law(D, ker, k, s)
                flat = [_vec(x) for c in D for x in c]
                grad = tuple(sum(v[c] for v in flat) / len(flat) for c in range(len(flat[0])))
                mean = rounds.gradient_mean(D, ker, k, s)
                if lib != oracle or mean != grad or sum(lib.values()) != 1:
                    keep(fails, {"kernel": label, "sizes": [n, m, k, s], "dataset": dstr(D),
                                 "law_equal": lib == oracle, "mean": [str(c) for c in mean],
                                 "grad_F": [str(c) for c in grad]})
    return CLAIM.result(
        verdict="confirmed" if not fails else "refuted",
        key_figure=f"{len(SIZES)} sizes: inclusion = ks/(mn) for every record, co-occurrence 0 when s = 1; {laws} "
                   f"round laws equal to brute force with E[g_t] = grad F ({len(fails)} failures)",
        evidence={"sizes": rows, "round_laws": laws, "failures": fails,
                  "finding": "two records of one client co-occur with probability (k/n) s(s-1)/(m(m-1)), 0 iff s = 1",
                  "library": "bcdp.fl.rounds (inclusion_probability, co_occurrence_probability, output_law, "
                             "gradient_mean)"},
    )
