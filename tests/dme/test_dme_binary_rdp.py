"""The RDP check of R^Bin (proofs_checks/thesis/thm331_rdp.py): its verdict, an independent hand
computation at d = 1 (the message law is the 2RR law itself, so the moment equals (3.4)'s exactly),
and a bad twin (a message law with a less private 2RR parameter) that the check must refute."""

from __future__ import annotations

from fractions import Fraction

from bcdp.checks.thesis import thm331_rdp
from bcdp.dme import binary_vector as bv


def test_the_check_confirms_and_finds_the_tight_cases():
    res = thm331_rdp.check()
    assert res.verdict == "confirmed"
    tight = res.evidence["tight_cases_(d,s,a,hamming)"]
    assert tight and all(d == s * a and h == d for d, s, a, h in tight)


def test_d1_moment_is_the_2rr_moment():
    """d = s = 1: the message is (1, 2RR_p(b)); P_1 = (p, 1-p) on the outputs (0-branch, 1-branch)
    reversed for b = 0, so K_2 = p^2/(1-p) + (1-p)^2/p, by hand."""
    p = Fraction(1, 5)
    params = bv.binary_vector_params(1, 1, p=p)
    P, Q = bv.message_law((1,), params), bv.message_law((0,), params)
    keys = sorted(set(P) | set(Q))
    K = sum(P[k] ** 2 / Q[k] for k in keys)
    assert K == p ** 2 / (1 - p) + (1 - p) ** 2 / p == thm331_rdp.two_rr_moment(p, 2)


def test_a_less_private_message_law_is_refuted(monkeypatch):
    real = bv.message_law

    def leaky(b, params):                           # the 2RR parameter halved: e^eps grows
        return real(b, bv.BinaryVectorParams(params.d, params.s, params.p / 2, params.v))
    monkeypatch.setattr(bv, "message_law", leaky)
    assert thm331_rdp.check().verdict == "refuted"
