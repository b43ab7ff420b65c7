"""Thm 11 of the partial DP paper (arXiv:2209.04053, Sec. 4.1): diameter Delta and partial diameter Delta0 of k-way workloads.

For a workload q_1..q_m : X -> R with Q(x) = (q_j(x))_j, the paper defines (Sec. 4.1)

* Delta  = max{ ||Q(x) - Q(x')||_2 : x, x' in X }            (one record changes arbitrarily),
* Delta0 = the same max over ||x - x'||_0 <= 1                (one attribute of one record changes).

The projection mechanism with Gaussian noise sigma is then (Delta/(sigma n))^2/2-zCDP and
(Delta0/(sigma n))^2/2-nabla0-zCDP.  Here both are computed by brute force over X = {0,1}^d for the
k-way (unsigned) conjunctions prod_{i in S} x_i and parities sum_{i in S} x_i mod 2, |S| = k; the
squared diameters are integers, so everything is exact.  The paper claims Delta^2 = m = C(d,k) and
Delta0^2 = C(d-1,k-1) for both families.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from math import comb

import numpy as np

from bcdp.core.errors import InvalidInputError

FAMILIES = ("conjunction", "parity")


def workload(family: str, d: int, k: int) -> tuple[np.ndarray, list[tuple[int, ...]]]:
    """Answer matrix A[x, j] = q_{S_j}(x) for x in {0,1}^d (row index = x read as binary, bit i of
    the index is attribute i) and the k-subsets S_j in lexicographic order."""
    if family not in FAMILIES:
        raise InvalidInputError(family)
    xs = np.array([[(x >> i) & 1 for i in range(d)] for x in range(2 ** d)], dtype=np.int64)
    subsets = list(itertools.combinations(range(d), k))
    cols = []
    for s in subsets:
        sub = xs[:, list(s)]
        cols.append(sub.prod(axis=1) if family == "conjunction" else sub.sum(axis=1) % 2)
    return np.stack(cols, axis=1), subsets


@dataclass(frozen=True)
class Diameters:
    family: str
    d: int
    k: int
    m: int
    delta_sq: int          # Delta^2, record change
    delta0_sq: int         # Delta0^2, single-attribute change
    witness: tuple[int, int]  # a pair (x, x') attaining Delta^2, as integers (bit i = attribute i)

    @property
    def claimed_delta_sq(self) -> int:
        return self.m

    @property
    def claimed_delta0_sq(self) -> int:
        return comb(self.d - 1, self.k - 1)


def diameters(family: str, d: int, k: int) -> Diameters:
    a, _ = workload(family, d, k)
    diff = a[:, None, :] - a[None, :, :]
    sq = (diff * diff).sum(axis=2)
    i, j = np.unravel_index(int(np.argmax(sq)), sq.shape)
    size = 2 ** d
    hamming1 = np.array([[bin(x ^ y).count("1") <= 1 for y in range(size)] for x in range(size)])
    return Diameters(family, d, k, comb(d, k), int(sq.max()), int(sq[hamming1].max()), (int(i), int(j)))


def parity_delta_sq_formula(d: int, k: int) -> int:
    """Corrected Delta^2 for k-way parities: Q(x) and Q(x') differ on S iff |S cap (x xor x')| is odd,
    so Delta^2 = max_w sum_{j odd} C(w, j) C(d - w, k - j) (w = Hamming distance of x and x')."""
    return max(sum(comb(w, j) * comb(d - w, k - j) for j in range(1, k + 1, 2)) for w in range(d + 1))


def bits(x: int, d: int) -> str:
    """Record x as a bit string, attribute 1 first."""
    return "".join(str((x >> i) & 1) for i in range(d))
