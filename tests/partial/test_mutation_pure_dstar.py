"""Edge tests of bcdp.partial.pure (exact eps-nabla-DP, partial DP paper arXiv:2209.04053, Sec. 2,
Def. 4) and of the JSON form of D* (bcdp.partial.dstar, Sec. 2, Def. 2), written against the
survivors of the mutation gate (benchmarks/mutation_gate.py, package partial).

References: brute force over all ordered pairs of datasets and outputs with exact Fractions
(Def. 4 with the reduction of events to single outputs), KL and Renyi divergences evaluated with
mpmath at 60 digits from their definitions, and the documented input contracts.
"""

from __future__ import annotations

import itertools
from decimal import Decimal
from fractions import Fraction as F

import mpmath
import pytest
from bcdp import Mechanism
from bcdp.core.errors import FloatRefusedError, InvalidInputError
from bcdp.core.numbers import INFINITY
from bcdp.core.parameters import LogRatioParameter
from bcdp.partial.dstar import d_star, d_star_json
from bcdp.partial.pure import dataset_domain, minimal_nabla_ratios, nabla_dp_holds, to_point, whole_record_epsilon


def test_to_point_refuses_a_wrong_number_of_records():
    with pytest.raises(InvalidInputError, match=r"^dataset"):
        to_point(((0,),), 2, 1)
    assert to_point(((0,), (1,)), 2, 1) == (0, 1)


def three_values() -> Mechanism:
    """One record of one attribute in {0, 1, 2}; values 0 and 1 have the same row (no constraint
    between them), value 2 another."""
    P, Q = (F(1, 2), F(1, 3), F(1, 6)), (F(1, 6), F(1, 2), F(1, 3))
    return Mechanism(dataset_domain([(0, 1, 2)], 1), ("a", "b", "c"), (P, P, Q))


def two_records() -> Mechanism:
    """Two records of one bit; the output is RR(3/4) of record 1 only."""
    dom = dataset_domain([(0, 1)], 2)
    rr = {0: (F(3, 4), F(1, 4)), 1: (F(1, 4), F(3, 4))}
    return Mechanism.from_function(dom, (0, 1), lambda x: dict(zip((0, 1), rr[x[1]])))


def brute_ratios(mech: Mechanism, n: int, d: int) -> dict:
    """{(r, r'): max ratio} over ordered pairs of datasets differing only in record i (x_i = r,
    x'_i = r'), both directions, over outputs (equal rows give ratio 1)."""
    pts, out = mech.domain.points, {}
    for a, b in itertools.permutations(range(len(pts)), 2):
        diff = [i for i in range(n) if pts[a][i * d:(i + 1) * d] != pts[b][i * d:(i + 1) * d]]
        if len(diff) != 1:
            continue
        i = diff[0]
        r, s = tuple(pts[a][i * d:(i + 1) * d]), tuple(pts[b][i * d:(i + 1) * d])
        for u, v in ((a, b), (b, a)):
            ratio = max(INFINITY if q == 0 else F(p) / q for p, q in zip(mech.kernel[u], mech.kernel[v]) if p > 0)
            for key in ((r, s), (s, r)):
                out[key] = ratio if key not in out else max(out[key], ratio)
    return out


@pytest.mark.parametrize("mech,n,d", [(three_values(), 1, 1), (two_records(), 2, 1)])
def test_minimal_nabla_ratios_against_brute_force(mech, n, d):
    got = minimal_nabla_ratios(mech, n, d)
    want = brute_ratios(mech, n, d)
    assert {k: v[0] for k, v in got.items()} == want and want
    for (r, s), (ratio, w) in got.items():
        i = w["record"]
        assert i in range(n)
        if ratio == 1:  # equal rows: the witness is any input of the pair
            continue
        assert w["x"][i] in (r, s) and w["x_prime"][i] in (r, s) and w["x"][i] != w["x_prime"][i]
        assert all(w["x"][j] == w["x_prime"][j] for j in range(n) if j != i)


def test_record_of_the_witness_is_the_changed_record():
    got = minimal_nabla_ratios(two_records(), 2, 1)
    assert got and all(w["record"] == 1 for _, w in got.values())


def test_eps_fn_may_return_a_log_ratio_parameter():
    """e^eps given as a LogRatioParameter: RR(3/4) has max ratio 3, so ratio 3 holds and 2 does not."""
    mech = two_records()
    assert nabla_dp_holds(mech, 2, 1, lambda r, s: LogRatioParameter(F(3))).holds
    assert not nabla_dp_holds(mech, 2, 1, lambda r, s: LogRatioParameter(F(2))).holds


def test_eps_fn_errors_name_the_records():
    mech = two_records()
    with pytest.raises(InvalidInputError, match=r"^eps_fn\(\[0\], \[1\]\): cannot read"):
        nabla_dp_holds(mech, 2, 1, lambda r, s: "x")
    with pytest.raises(InvalidInputError, match=r"^eps_fn\(\[1\], \[0\]\): cannot read"):
        nabla_dp_holds(mech, 2, 1, lambda r, s: "x" if r > s else 3)
    with pytest.raises(FloatRefusedError, match=r"^eps_fn\(\[0\], \[1\]\) returned a float"):
        nabla_dp_holds(mech, 2, 1, lambda r, s: 3.0)


def xor_rr() -> Mechanism:
    """Two records of one bit; the output is RR(3/4) of x_0 XOR x_1: both records give ratio 3."""
    dom = dataset_domain([(0, 1)], 2)
    rr = {0: (F(3, 4), F(1, 4)), 1: (F(1, 4), F(3, 4))}
    return Mechanism.from_function(dom, (0, 1), lambda x: dict(zip((0, 1), rr[x[0] ^ x[1]])))


def test_whole_record_epsilon_edges():
    """Def. 1: max over pairs differing in one record of the output ratio (brute force: RR(3/4)
    gives 3).  Ties between records: the first record; equal rows: ratio 1 with a witness; a single
    input: ratio 1 (eps = 0) and no witness."""
    res = whole_record_epsilon(xor_rr(), 2, 1)
    assert res.ratio == 3 == max(brute_ratios(xor_rr(), 2, 1).values())
    assert res.witness["record"] == 0 and res.witness["x"][1] == res.witness["x_prime"][1]
    res1 = whole_record_epsilon(two_records(), 2, 1)
    assert res1.ratio == 3 and res1.witness["record"] == 1
    const = Mechanism(dataset_domain([(0, 1)], 1), (0, 1), ((F(1, 2), F(1, 2)), (F(1, 2), F(1, 2))))
    flat = whole_record_epsilon(const, 1, 1)
    assert flat.ratio == 1 and flat.witness["record"] == 0
    single = whole_record_epsilon(const, 1, 1, inputs=[((0,),)])
    assert single.ratio == 1 and isinstance(single.ratio, F) and single.witness is None


# -- d_star_json -------------------------------------------------------------------------------------

def test_d_star_json_prints_maximiser_kl_and_width():
    """An interior maximiser (the supremum of D_lambda/lambda is attained at lambda_hat > 1): the JSON
    form prints lambda_hat, KL and the achieved relative width as numbers, checked against the
    definitions at 60 digits (D_lambda at the printed lambda_hat lies in the D* enclosure)."""
    P, Q = (F(1, 100), F(99, 100)), (F(1, 10 ** 6), 1 - F(1, 10 ** 6))
    res = d_star(P, Q)
    js = d_star_json(res)
    assert res.maximiser is not None  # the interior case under test
    with mpmath.workdps(60):
        p, q = [mpmath.mpf(x.numerator) / x.denominator for x in P], [mpmath.mpf(x.numerator) / x.denominator for x in Q]
        lam = mpmath.mpf(js["maximiser"])
        d_lam = mpmath.log(mpmath.fsum(a ** lam * b ** (1 - lam) for a, b in zip(p, q))) / (lam - 1)
        assert lam > 1 and res.lower * (1 - mpmath.mpf(10) ** -25) <= d_lam / lam <= res.upper
        kl = mpmath.fsum(a * mpmath.log(a / b) for a, b in zip(p, q))
        assert abs(mpmath.mpf(js["kl"]) - kl) <= kl * mpmath.mpf(10) ** -38
        width = (res.upper - res.lower) / res.upper
        assert abs(mpmath.mpf(js["achieved_rel_width"]) - width) <= width * mpmath.mpf(10) ** -30
    assert Decimal(js["lower"]) <= Decimal(js["upper"]) and js["at_limit_one"] is False
