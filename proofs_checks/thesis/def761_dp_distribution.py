"""Thesis Def 7.6.1, eq. (7.53): an eps-DP distribution on [k^T] (with a bijection f: [k]^T -> [k^T]).

Printed (thesis Sec. 7.6.1): a key law ``q = [q_1, ..., q_{k^T}]`` satisfies eps-DP if some bijection
``f`` from the databases ``[k]^T`` to ``[1 : k^T]`` has ``q_f(x) / q_f(x') <= e^eps`` for every
neighbouring ``x, x'`` (differing in one time index, eq. (7.7)).  The check evaluates the library
(:func:`bcdp.randomness.sequences.is_dp_distribution`, :func:`~bcdp.randomness.sequences.find_dp_bijection`)
against oracles written here (brute force over all pairs of databases; for ``k = 2, T = 2`` over all
24 bijections) on: the vertices of the polytope (exact double description for ``k = 2``, the
library's vertex list for ``k = 3``), seeded random interior points, the same laws pushed through
random bijections, and the vertex laws at ``E +- 1/100`` (both sides of the boundary).  Also: for
``T = 1`` the definition is ``q_max / q_min <= e^eps`` (Sec. 7.5, App. F.6), and a law with
``q_max / q_min > E^T`` has no admissible bijection (any two databases are joined by a path of at
most ``T`` neighbours).  ``e^eps = E`` is an exact rational here (``eps = log E``).
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.randomness import sequences

from .._common import keep
from ._seq_common import dd_vertices, dp_oracle, random_interior

CLAIM = ClaimSpec(
    id="THESIS-Def7.6.1",
    paper="thesis",
    group="recoverability",
    where="Def 7.6.1, Sec. 7.6.1, eq. (7.53) (neighbours of eq. (7.7))",
    statement="A key law q on [k^T] is eps-DP iff some bijection f: [k]^T -> [k^T] has q_f(x) <= e^eps q_f(x') "
              "for all neighbouring databases (differing in one time index); for T = 1 this is q_max/q_min <= e^eps.",
    expected="confirmed",
    also_checked_in=("`tests/randomness/test_randomness_sequences.py`",),
)

CASES = ((2, 2, Fraction(2)), (2, 2, Fraction(3, 2)), (3, 2, Fraction(2)), (2, 3, Fraction(3)))
STEP = Fraction(1, 100)


def _pushed(q, perm):
    """The law q' with q'[perm[i]] = q[i]: DP under the bijection f = perm iff q is DP under the identity."""
    out = [Fraction(0)] * len(q)
    for i, p in enumerate(perm):
        out[p] = q[i]
    return tuple(out)


def check() -> ClaimResult:
    fails: list = []
    rows: list = []
    rng = random.Random(761)
    n_laws = 0
    for k, T, E in CASES:
        n = k ** T
        verts = sorted(dd_vertices(k, T, E)) if k == 2 else sequences.dp_vertices(k, T, E)
        labellings = sequences.vertex_labellings(k, T)
        inside = random_interior(verts, 20, seed=k * 100 + T)
        above = [sequences.labelling_law(c, E + STEP) for c in labellings]
        below = [sequences.labelling_law(c, E - STEP) for c in labellings]
        agree = dp_true = 0
        for q in itertools.chain(verts, inside, above, below):
            n_laws += 1
            lib, ora = sequences.is_dp_distribution(q, k, T, E), dp_oracle(q, k, T, E)
            agree += lib == ora
            dp_true += ora
            if lib != ora:
                keep(fails, {"k": k, "T": T, "E": str(E), "q": [str(v) for v in q], "library": lib, "oracle": ora})
        if not all(dp_oracle(q, k, T, E) for q in itertools.chain(verts, inside, below)) or any(
                dp_oracle(q, k, T, E) for q in above):
            keep(fails, {"k": k, "T": T, "what": "vertices/interior/below must be DP, above not"})
        # bijections: push DP laws through random permutations; the library must find an admissible f
        found = 0
        for q in rng.sample(list(itertools.chain(verts, inside)), 8 if n > 4 else 12):
            perm = list(range(n))
            rng.shuffle(perm)
            qp = _pushed(q, perm)
            ok_f = sequences.is_dp_distribution(qp, k, T, E, f=perm) and dp_oracle(qp, k, T, E, perm)
            f = sequences.find_dp_bijection(qp, k, T, E)
            found += f is not None and dp_oracle(qp, k, T, E, f)
            if not ok_f or f is None or not dp_oracle(qp, k, T, E, f):
                keep(fails, {"k": k, "T": T, "what": "bijection", "q": [str(v) for v in qp]})
        # no bijection when q_max / q_min > E^T (one such law per case)
        c_far = max(labellings, key=lambda c: max(c))
        far = sequences.labelling_law(c_far, E + STEP)
        if max(far) / min(far) <= E ** T or sequences.find_dp_bijection(far, k, T, E) is not None:
            keep(fails, {"k": k, "T": T, "what": "law with ratio > E^T got a bijection"})
        rows.append({"k": k, "T": T, "E": str(E), "vertices": len(verts), "laws": len(verts) + len(inside) + 2 * len(labellings),
                     "DP laws": dp_true, "library = oracle": agree, "bijections found": found})
    # k = 2, T = 2: every bijection, against the library's search (DP under some f or under none)
    k, T, E = 2, 2, Fraction(2)
    perms = list(itertools.permutations(range(4)))
    exhaustive = 0
    for a, b, c in itertools.product((1, 2, 3, 4, 5), repeat=3):
        weights = (Fraction(1), Fraction(a), Fraction(b), Fraction(c))
        q = tuple(w / sum(weights) for w in weights)
        ora = any(dp_oracle(q, k, T, E, f) for f in perms)
        lib = sequences.find_dp_bijection(q, k, T, E)
        exhaustive += 1
        if (lib is not None) != ora or (lib is not None and not dp_oracle(q, k, T, E, lib)):
            keep(fails, {"what": "bijection search", "q": [str(v) for v in q], "oracle": ora})
    # T = 1: Def 7.6.1 is q_max / q_min <= e^eps
    t1 = 0
    for k in (2, 3, 5):
        for _ in range(30):
            q = [Fraction(rng.randint(1, 7)) for _ in range(k)]
            q = tuple(v / sum(q) for v in q)
            E = Fraction(rng.randint(2, 8), 2)
            t1 += 1
            if sequences.is_dp_distribution(q, k, 1, E) != (max(q) / min(q) <= E):
                keep(fails, {"what": "T = 1", "q": [str(v) for v in q], "E": str(E)})
    return CLAIM.result(
        verdict="confirmed" if not fails else "refuted",
        key_figure=f"{n_laws} laws on 4 (k, T, E) cases + {exhaustive} laws x 24 bijections + {t1} T = 1 laws: "
                   f"library = oracle ({len(fails)} failures)",
        evidence={"cases": rows, "failures": fails,
                  "finding": "the library's Def 7.6.1 test agrees with brute force; vertices and the vertex laws at "
                             "E - 1/100 are DP, at E + 1/100 not; pushed laws are DP under the pushing bijection and the "
                             "search finds one; for T = 1 the definition is q_max/q_min <= e^eps",
                  "library": "bcdp.randomness.sequences (is_dp_distribution, find_dp_bijection, vertex_labellings, "
                             "labelling_law, dp_vertices)"},
    )
