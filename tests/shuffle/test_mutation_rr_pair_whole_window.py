"""Regression test for bcdp.shuffle.rr_pair.rr_pair_rdp_mp at a tiny eps0 and a small n (thesis
Sec. 5.3.4): the k-window is all of [0, n], so nothing is neglected, but S - 1 ~ eps0^2 rounds to
0 or below at the first working precision; the window loop used to require tail <= 10^-(dps+10) (S - 1)
even with tail = 0 and raised CertificationError ("window did not converge") instead of returning S
and letting the precision loop raise the working precision (also when S - 1 is exactly 0, n = 1).

Independent reference: k ~ Bin(n, p), p = 1/(E+1), E = e^eps0, and r(k) = ((n - k)/E + k E)/n
(thesis eq. (5.40)); S = E_k[r^beta] summed over every k in mpmath at dps + 40 + 2 log10(1/eps0)
digits, beta = alpha ("DprimeD", eq. (5.9)) or 1 - alpha ("DDprime"); D_alpha = log1p(S - 1)/(alpha - 1).
Tolerance 10^-(dps-3) relative."""


import mpmath
import pytest
from bcdp.shuffle.rr_pair import rr_pair_rdp_mp
from shuffle_references import rr_pair_rdp_sum as oracle


@pytest.mark.parametrize("n, eps0, alpha, direction, dps", [
    (5, "1e-50", "5/2", "DprimeD", 40),
    (5, "1e-50", "5/2", "DDprime", 40),
    (3, "1e-70", 2, "DprimeD", 60),
    (1, "1e-50", 2, "DprimeD", 30),       # n = 1: S - 1 rounds to exactly 0 at the first pass
    (1, "1e-60", 3, "DDprime", 30),
])
def test_tiny_eps0_whole_window(n, eps0, alpha, direction, dps):
    got = rr_pair_rdp_mp(n, eps0, alpha, direction, dps=dps)
    ref = oracle(n, eps0, alpha, direction, dps)
    with mpmath.workdps(dps + 40):
        assert abs(got - ref) <= mpmath.mpf(10) ** (-(dps - 3)) * ref, (got, ref)
