"""Thesis Lemma 3.4.1 (App. B.2): R^{l1}_{eps0} is unbiased, E||z-x||^2 = r1^2 d c^2 - ||x||^2, eps0-LDP.

Exact in Fractions on the grid d in {1, 2, 4, 8}, E = e^{eps0} in {2, 3, 5/2}, r1 in {1, 3/2}: seeded
random rational inputs in B_1(r1) (interior and on the sphere) and every vertex +-r1 e_i.  The
oracle written here is (3.13) read from the algorithm box: the Hadamard entries from the closed form
(-1)^{popcount(i & j)}, sqrt(d) y[j] = sum_i H[i][j] x_i, P[(j, +)] = (1/d)(1/2 + sqrt(d) y[j] (E-1) /
(2 r1 (E+1))), outputs +-r1 (E+1)/(E-1) H_d(j); the moments by enumerating the 2d outputs.  The
library (:mod:`bcdp.dme.hadamard`) must return the same law, mean, error and worst ratio; the bound
of Lemma 3.4.1(2) must hold, the worst ratio over the ball must be E exactly (attained at a vertex
pair: the sup is a maximum), and random interior pairs must stay strictly below E.  The message
count 2d = 2^{log2 d + 1} gives the bits of Thm 3.4.1.
"""

from __future__ import annotations

import random
from fractions import Fraction

from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.dme import hadamard

from .._common import keep

CLAIM = ClaimSpec(
    id="THESIS-Lemma3.4.1",
    paper="thesis",
    group="dme",
    where="Lemma 3.4.1 and Thm 3.4.1 (Alg 3.4.1, eq. (3.13), Sec. 3.4; proof App. B.2)",
    statement="R^{l1}_{eps0} (Alg 3.4.1) is eps0-LDP with log2(d)+1 bits (1 with public j), unbiased, and "
              "E||R(x)-x||^2 <= r1^2 d ((E+1)/(E-1))^2 (exactly r1^2 d c^2 - ||x||^2; worst ratio = E, "
              "attained at vertices).",
    expected="confirmed",
    also_checked_in=("`tests/dme/test_dme_hadamard_exact.py`", "`tests/dme/test_dme_hadamard_sampler.py`"),
)

SEED = 341
DIMS = (1, 2, 4, 8)
GRID_E = (Fraction(2), Fraction(3), Fraction(5, 2))
RADII = (Fraction(1), Fraction(3, 2))
POINTS_PER_CELL = 6


def oracle_law(x: tuple[Fraction, ...], r1: Fraction, E: Fraction) -> dict:
    """(3.13) as printed (a = r1): message (j, s) -> (probability, output vector)."""
    d = len(x)
    c = (E + 1) / (E - 1)
    out = {}
    for j in range(d):
        col = [(-1) ** bin(i & j).count("1") for i in range(d)]
        sqrt_d_y = sum(h * v for h, v in zip(col, x))
        plus = Fraction(1, 2) + sqrt_d_y / (2 * r1) * (E - 1) / (E + 1)
        out[(j, 1)] = (plus / d, tuple(r1 * c * h for h in col))
        out[(j, -1)] = ((1 - plus) / d, tuple(-r1 * c * h for h in col))
    return out


def _point(rng: random.Random, d: int, r1: Fraction, sphere: bool) -> tuple[Fraction, ...]:
    w = [Fraction(rng.randint(-12, 12), rng.randint(1, 7)) for _ in range(d)]
    norm = sum(abs(v) for v in w) or Fraction(1)
    if not any(w):
        w[0] = Fraction(1)
    scale = r1 / norm if sphere else r1 * Fraction(rng.randint(0, 99), 100) / norm
    return tuple(v * scale for v in w)


def check() -> ClaimResult:
    rng = random.Random(SEED)
    law_mismatch: list = []
    biased: list = []
    mse_mismatch: list = []
    bound_fail: list = []
    ratio_fail: list = []
    interior_at_E: list = []
    bits_fail: list = []
    inputs = ratios = 0
    for d in DIMS:
        if 2 ** (hadamard.l1_hadamard_bits(d) - 1) != d or hadamard.l1_hadamard_bits(d, True) != 1:
            keep(bits_fail, {"d": d, "bits": hadamard.l1_hadamard_bits(d)})
        for E in GRID_E:
            for r1 in RADII:
                vertices = [tuple(s * r1 if k == i else Fraction(0) for k in range(d))
                            for i in range(d) for s in (1, -1)]
                points = vertices + [_point(rng, d, r1, sphere=t % 2 == 0) for t in range(POINTS_PER_CELL)]
                laws = {}
                for x in points:
                    inputs += 1
                    oracle = oracle_law(x, r1, E)
                    lib = hadamard.l1_hadamard_law(x, r1, E)
                    laws[x] = oracle
                    cell = {"d": d, "E": str(E), "r1": str(r1), "x": [str(v) for v in x]}
                    if {m: p for m, (p, _) in oracle.items()} != lib or any(
                            hadamard.l1_hadamard_output(m, d, r1, E) != z for m, (_, z) in oracle.items()):
                        keep(law_mismatch, cell)
                    mean = tuple(sum(p * z[i] for p, z in oracle.values()) for i in range(d))
                    if mean != x or hadamard.l1_hadamard_mean(x, r1, E) != x:
                        keep(biased, {**cell, "mean": [str(v) for v in mean]})
                    mse = sum(p * sum((zi - xi) ** 2 for zi, xi in zip(z, x)) for p, z in oracle.values())
                    if hadamard.l1_hadamard_mse(x, r1, E) != mse:
                        keep(mse_mismatch, {**cell, "enumerated": str(mse)})
                    if mse > r1 * r1 * d * ((E + 1) / (E - 1)) ** 2:
                        keep(bound_fail, {**cell, "mse": str(mse)})
                worst = max(max(pa / laws[b][m][0] for m, (pa, _) in laws[a].items())
                            for a in vertices for b in vertices)
                lib_worst, xa, xb = hadamard.l1_hadamard_worst_ratio(d, r1, E)
                ratios += len(points) ** 2
                if worst != E or lib_worst != E:
                    keep(ratio_fail, {"d": d, "E": str(E), "r1": str(r1), "vertex_max": str(worst),
                                      "library": str(lib_worst)})
                for a in points:
                    for b in points:
                        r = max(pa / laws[b][m][0] for m, (pa, _) in laws[a].items())
                        if r > E:
                            keep(ratio_fail, {"d": d, "E": str(E), "x": [str(v) for v in a],
                                              "x'": [str(v) for v in b], "ratio": str(r)})
                        if r == E and sum(abs(v) for v in a) < r1:
                            keep(interior_at_E, {"d": d, "E": str(E), "x": [str(v) for v in a]})
    failures = law_mismatch + biased + mse_mismatch + bound_fail + ratio_fail + interior_at_E + bits_fail
    return CLAIM.result(
        verdict="confirmed" if not failures else "refuted",
        key_figure=f"{inputs} exact inputs (d in {list(DIMS)}, E in {{2, 3, 5/2}}, seed {SEED}): unbiased, "
                   f"MSE = r1^2 d c^2 - ||x||^2 <= bound, {ratios} pair ratios <= E, sup = E attained at "
                   f"+-r1 e_1; {len(failures)} failures",
        evidence={"inputs": inputs, "pairs": ratios, "seed": SEED,
                  "law_mismatches": law_mismatch, "biased": biased, "mse_mismatches": mse_mismatch,
                  "bound_failures": bound_fail, "ratio_failures": ratio_fail,
                  "interior_pairs_at_E": interior_at_E, "bits_failures": bits_fail,
                  "sup_attained": "yes: the likelihood ratio E is reached at x = r1 e_1, x' = -r1 e_1 (every "
                                  "message probability is affine in <H_d(j), x>, which spans [-r1, r1])",
                  "library": "bcdp.dme.hadamard: l1_hadamard_law, l1_hadamard_output, l1_hadamard_mean, "
                             "l1_hadamard_mse, l1_hadamard_worst_ratio, l1_hadamard_bits"},
    )
