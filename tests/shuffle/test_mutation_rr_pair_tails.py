"""Mutation kills for the rigorous tail bounds of the k-window of bcdp.shuffle.rr_pair.rr_pair_rdp_mp
(thesis Sec. 5.3.4): with the first window forced narrow (mode +- 3), the window must be widened until
the bound on the mass outside it -- the upper tail (k > k_hi) and the lower tail (k < k_lo), each a
geometric series in the binomial ratio times the largest r^beta on it -- is below 10^-(dps+10) (S - 1).
Large orders make the tails matter: "DprimeD" with alpha = 60, 100 weights the upper tail by r^alpha,
"DDprime" with alpha = 200 weights the lower tail by r^(1-alpha), so a bound that drops a tail or
divides by its maximum stops the widening too early.

Independent reference: k ~ Bin(n, p), p = 1/(E+1), E = e^eps0, r(k) = ((n - k)/E + k E)/n (thesis
eq. (5.40)); S = E_k[r^beta] summed over every k in mpmath (tests/shuffle_references.py), beta = alpha ("DprimeD",
eq. (5.9)) or 1 - alpha ("DDprime"); D_alpha = log1p(S - 1)/(alpha - 1).  Tolerance 10^-(dps-3) relative."""


import mpmath
import pytest
from bcdp.shuffle import rr_pair
from bcdp.shuffle.rr_pair import rr_pair_rdp_mp
from shuffle_references import rr_pair_rdp_sum as oracle


@pytest.mark.parametrize("n, eps0, alpha, direction", [
    (400, 1, 60, "DprimeD"),
    (1000, "1/2", 100, "DprimeD"),
    (100, 1, 200, "DDprime"),
])
def test_narrow_window_with_heavy_tails(monkeypatch, n, eps0, alpha, direction):
    monkeypatch.setattr(rr_pair, "bernstein_halfwidth", lambda var, L: 1.0)
    got = rr_pair_rdp_mp(n, eps0, alpha, direction, dps=30)
    ref = oracle(n, eps0, alpha, direction, 30)
    with mpmath.workdps(70):
        assert abs(got - ref) <= mpmath.mpf(10) ** -27 * abs(ref), (got, ref)
