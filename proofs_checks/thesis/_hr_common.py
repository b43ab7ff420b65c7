"""Oracles of the Hadamard-response checks (thesis Sec. 7.3, 7.3.2), written here from the printed
text, independently of :mod:`bcdp.randomness.hadamard`.

- :func:`sylvester_blocks`: ``B_j`` from the Sylvester recursion ``H_2K = [[H, H], [H, -H]]`` (eq. (7.28)).
- :func:`risk_oracle`: ``E||p_hat - p||^2 = (4 E^2/(n q^2 (E-1)^2)) sum_j s_j (1 - s_j)`` on all ``K``
  coordinates with ``s_j`` of (7.29) and ``n/K`` users per group (derived in the library's module doc,
  confirmed by exact enumeration in ``tests/randomness/test_randomness_hadamard.py``), times ``k/K``
  on the first ``k`` coordinates.
- :func:`is_global_max`: the KKT certificate that ``p*`` maximises that concave quadratic over
  ``Delta_k`` (gradient equal to a multiplier on the support, at most it elsewhere), exact.
- the printed bounds of (7.8), (7.10), (7.32), typed in.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Sequence


def sylvester_blocks(big_k: int) -> list[set[int]]:
    h = [[1]]
    while len(h) < big_k:
        h = [row + row for row in h] + [row + [-x for x in row] for row in h]
    return [{x for x in range(big_k) if h[x][j] == 1} for j in range(big_k)]


def pow2_at_least(k: int) -> int:
    big_k = 1
    while big_k < k:
        big_k *= 2
    return big_k


def rates(p: Sequence[Fraction], q: Fraction, e: Fraction, blocks: list[set[int]]) -> list[Fraction]:
    k = len(p)
    return [q / e + sum((p[x] for x in b if x < k), Fraction(0)) * q * (e - 1) / e for b in blocks]


def risk_oracle(p: Sequence[Fraction], n: int, q: Fraction, e: Fraction, coordinates: str = "all") -> Fraction:
    k = len(p)
    big_k = pow2_at_least(k)
    s = rates(p, q, e, sylvester_blocks(big_k))
    full = 4 * e * e / (n * q * q * (e - 1) ** 2) * sum(x * (1 - x) for x in s)
    return full if coordinates == "all" else full * Fraction(k, big_k)


def is_global_max(p: Sequence[Fraction], q: Fraction, e: Fraction) -> bool:
    """KKT for ``max sum_j s_j (1 - s_j)`` over ``Delta_k`` (a concave quadratic, so KKT suffices):
    ``g_x = sum_{j: x in B_j} (1 - 2 s_j) q (E-1)/E`` equals ``max_x g_x`` wherever ``p_x > 0``."""
    k = len(p)
    blocks = sylvester_blocks(pow2_at_least(k))
    s = rates(p, q, e, blocks)
    b = q * (e - 1) / e
    coef = [(1 - 2 * sj) * b for sj in s]
    grad = [sum((coef[j] for j, blk in enumerate(blocks) if x in blk), Fraction(0)) for x in range(k)]
    top = max(grad)
    return all(g == top for g, px in zip(grad, p) if px > 0)


def lemma734_printed(k: int, n: int, q: Fraction, e: Fraction) -> Fraction:
    """(7.32): 2 k e^{2 eps} / (n q^2 (e^eps - 1)^2)."""
    return 2 * k * e ** 2 / (n * q ** 2 * (e - 1) ** 2)


def eta_printed(k: int, n: int, e: Fraction, p_r: Fraction | None) -> Fraction:
    """(7.10): 2k(e^eps+1)^2/(n(e^eps-1)^2) (p_r None: R >= H2) or 2k e^{2eps}/(n p_R^2 (e^eps-1)^2)."""
    if p_r is None:
        return 2 * k * (e + 1) ** 2 / (n * (e - 1) ** 2)
    return 2 * k * e ** 2 / (n * p_r ** 2 * (e - 1) ** 2)


def tau_printed(k: int, n: int, e: Fraction, p_r: Fraction | None) -> Fraction:
    """(7.8): k(e^eps+1)^2/(16 n e^eps (e^eps-1)^2) (p_r None) or k e^eps/(16 n p_R^2 (e^eps-1)^2)."""
    if p_r is None:
        return k * (e + 1) ** 2 / (16 * n * e * (e - 1) ** 2)
    return k * e / (16 * n * p_r ** 2 * (e - 1) ** 2)
