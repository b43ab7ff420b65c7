"""Thesis Thm 7.6.1: an eps-DP-Rec mechanism for T samples needs (1) |U| >= |Y^T| >= |X^T| and (2)
H(U) >= T min_s H(U^s_min); the thesis adds that the optimum is T times the single-sample optimum.

(1) is checked by exhaustive enumeration of deterministic encoders ``y = g(x, u)`` (each key value's
map ``x -> g(x, u)`` injective = recoverable; output labels counted when used) with the library's
exact DP-Rec decision :func:`bcdp.randomness.sequences.is_dp_rec`: ``k = 2, T = 1`` with ``|U| <= 3``,
``|Y| <= 4``; ``k = 2, T = 2`` with ``|U| <= 3``, ``|Y| in {4, 5}`` (first key's map fixed up to
relabelling of outputs).  A finite eps exists iff all inputs have the same output support, which
only depends on the key's support, so a uniform key with ``e_eps = |U|`` decides "eps-DP for some
eps".  The positive side ``|U| = |Y| = |X|`` is Lemma 7.6.1's mechanism (checked there).

(2) is checked by the exact minimum of ``H`` over the eps-DP key laws (Def 7.6.1; ``H`` concave, so
at a vertex of the polytope): :func:`~bcdp.randomness.sequences.min_key_entropy` (vertex labellings)
for ``k = 2, 3, T = 2`` and ``k = 2, T = 3``, ``eps in {0, 1/10, 1/2, 1, 2, 5}`` (nats), against ``T``
times :func:`bcdp.randomness.keys.min_two_level_entropy` and an oracle written here (brute force over
``s`` of the law (7.46)).  Ties are decided without arithmetic: every certified minimiser is a
product law whose marginals are two-level laws with ``s`` in the T = 1 argmin, so its entropy is
exactly ``T H(U^{s*}_min)`` (chain rule); every other vertex is certified strictly larger.  At
every size the check uses (``k = 2, T = 2, 3`` at two rational ``E``, ``k = 3, T = 2`` at ``E = 2``: 534
vertices) the library's vertex set is also recomputed by exact double description and the minimum over
those vertices compared (completeness of the labelling characterisation at these sizes).  Other bijections permute the same polytope, so they give the
same minimum.

The proof's averaging chain (7.56)-(7.58) is also evaluated (certified) on (F.24) mechanisms and
key-indexed mixtures of them: ``H(U) >= (1/k^T) sum_x H(Y|X=x)`` (equality exactly for a single (F.24)
mechanism, whose rows permute the key law), the identity with ``(1/k^T) sum_y [s_y H(P^y) - s_y log s_y]``,
and the bound ``T H_min,1``.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.core.intervals import arb_precision, ball_ends, ball_of
from bcdp.randomness import keys, sequences

from .._common import keep
from ._seq_common import dd_vertices, entropy_ball, two_level_min_ends

CLAIM = ClaimSpec(
    id="THESIS-Thm7.6.1",
    paper="thesis",
    group="recoverability",
    where="Thm 7.6.1, Sec. 7.6; proofs Sec. 7.6.1, eqs. (7.54)-(7.59), App. F.7.1",
    statement="An eps-DP-Rec mechanism on T samples needs (1) |U| >= |Y^T| >= |X^T| and (2) H(U) >= "
              "T min_s H(U^s_min); the minimum is T times the single-sample optimum (tight).",
    expected="confirmed",
    also_checked_in=("`tests/randomness/test_randomness_sequences.py`",),
)

EPS = (Fraction(0), Fraction(1, 10), Fraction(1, 2), Fraction(1), Fraction(2), Fraction(5))
SIZES = ((2, 2), (3, 2), (2, 3))
DD_E = (Fraction(2), Fraction(3, 2))
PREC = 128


def _injections(nx: int, ny: int):
    return list(itertools.permutations(range(ny), nx))


def part1(fails: list) -> list:
    rows = []
    for k, T, n_keys, n_out in [(2, 1, m, y) for m in (1, 2, 3) for y in (2, 3, 4)] + \
                               [(2, 2, m, 4) for m in (1, 2, 3)] + [(2, 2, m, 5) for m in (1, 2, 3)]:
        nx = k ** T
        inj = _injections(nx, n_out)
        first = tuple(range(nx))  # the first key's map, up to relabelling of the outputs
        key = [Fraction(1, n_keys)] * n_keys
        encoders = dp_rec = bad = 0
        for cols in itertools.product(inj, repeat=n_keys - 1):
            columns = (first,) + cols
            outputs = [[columns[u][x] for u in range(n_keys)] for x in range(nx)]
            res = sequences.is_dp_rec(outputs, key, k, T, n_keys if n_keys > 1 else 1)
            encoders += 1
            if res["dp_rec"]:
                dp_rec += 1
                used = len(res["labels"])
                if not (n_keys >= used >= nx):
                    bad += 1
                    keep(fails, {"part": 1, "k": k, "T": T, "|U|": n_keys, "outputs": outputs})
        rows.append({"k": k, "T": T, "|U|": n_keys, "|Y| labels": n_out, "encoders": encoders,
                     "DP-Rec": dp_rec, "violating |U| >= |Y| >= |X|": bad})
    return rows


def _tight(res, k: int, T: int, t1_argmin) -> bool:
    """Every candidate minimiser is a product of T two-level laws with s in the T = 1 argmin."""
    for c in res.witness:
        if not sequences.is_product_labelling(c, k, T):
            return False
        for t in range(T):
            marg = [c[v * k ** (T - 1 - t)] - c[0] for v in range(k)]
            lo = min(marg)
            marg = [m - lo for m in marg]
            if set(marg) - {0, 1} or sum(marg) not in t1_argmin:
                return False
    return True


def part2(fails: list) -> list:
    rows = []
    for k, T in SIZES:
        for eps in EPS:
            res = sequences.min_key_entropy(k, T, eps=eps, unit="nats", prec=PREC)
            h1 = keys.min_two_level_entropy(k, eps, unit="nats", prec=PREC)
            with arb_precision(PREC):
                big = ball_of(eps).exp()
                o_lo, o_hi = two_level_min_ends(k, big, ball_of(eps))
                if eps == 0:
                    o_lo, o_hi = ball_ends(ball_of(k).log())
            t_lo, t_hi = T * o_lo, T * o_hi
            overlap = res.lower <= T * h1.upper and T * h1.lower <= res.upper and res.lower <= t_hi and t_lo <= res.upper
            if eps == 0:
                tight = sequences.dp_vertices(k, T, 1) == [tuple([Fraction(1, k ** T)] * k ** T)]
                strict_rest = True
            else:
                tight = _tight(res, k, T, h1.argmin)
                strict_rest = res.second is None or res.second > T * h1.upper
            if not (overlap and tight and strict_rest):
                keep(fails, {"part": 2, "k": k, "T": T, "eps": str(eps), "overlap": overlap, "tight": tight,
                             "others strictly larger": strict_rest})
            rows.append({"k": k, "T": T, "eps": str(eps), "min H (nats)": f"{float(res.lower):.12f}",
                         "T x H_min,1": f"{float(T * h1.lower):.12f}", "s*": list(h1.argmin),
                         "vertices": res.vertices, "minimisers": len(res.witness),
                         "next vertex entropy >=": None if res.second is None else f"{float(res.second):.6f}",
                         "verdict": "equal (product minimisers)" if tight else "NOT decided"})
    return rows


def part2_dd(fails: list) -> list:
    rows = []
    for k, T, E in [(2, 2, E) for E in DD_E] + [(2, 3, E) for E in DD_E] + [(3, 2, DD_E[0])]:
        if True:
            verts = dd_vertices(k, T, E)
            lib_verts = set(sequences.dp_vertices(k, T, E))
            res = sequences.min_key_entropy(k, T, e_eps=E, unit="nats", prec=PREC)
            with arb_precision(PREC):
                ends = [ball_ends(entropy_ball(v)) for v in verts]
                lo, hi = min(a for a, _ in ends), min(b for _, b in ends)
                t_lo, t_hi = two_level_min_ends(k, ball_of(E), ball_of(E).log())
            ok = verts == lib_verts and res.lower <= hi and lo <= res.upper and res.lower <= T * t_hi \
                and T * t_lo <= res.upper
            if not ok:
                keep(fails, {"part": "2-dd", "k": k, "T": T, "E": str(E), "vertex sets equal": verts == lib_verts})
            rows.append({"k": k, "T": T, "E": str(E), "dd vertices": len(verts), "library vertices": len(lib_verts),
                         "min H over dd vertices (nats)": f"{float(lo):.12f}", "T x H_min,1": f"{float(T * t_lo):.12f}"})
    return rows


def part3(fails: list) -> list:
    """The averaging chain (7.56)-(7.58) on (F.24) mechanisms and key-indexed mixtures of them (E = 2):
    H(U) >= (1/k^T) sum_x H(Y|X=x) = (1/k^T) sum_y [s_y H(P^y) - s_y log s_y] >= T H_min,1."""
    rng = random.Random(7560)
    rows = []
    for k, T in ((2, 2), (3, 2)):
        E, n = Fraction(2), k ** T
        verts = sequences.dp_vertices(k, T, E)
        h1 = sequences.min_key_entropy(k, 1, e_eps=E, prec=PREC)
        minimisers = {tuple(sorted(sequences.labelling_law(c, E)))
                      for c in sequences.min_key_entropy(k, T, e_eps=E, prec=PREC).witness}
        done = 0
        with arb_precision(PREC):
            for _ in range(12):
                parts = rng.sample(verts, min(len(verts), rng.randint(1, 3)))
                w = [Fraction(rng.randint(1, 4)) for _ in parts]
                w = [v / sum(w) for v in w]
                key = [wi * p for wi, q in zip(w, parts) for p in q]  # key (b, u): the mixture index is known to Bob
                chans = [sequences.mechanism(q, k, T) for q in parts]
                Q = [[sum(wi * ch[x][y] for wi, ch in zip(w, chans)) for y in range(n)] for x in range(n)]
                h_u = ball_ends(entropy_ball(key))
                rows_h = [ball_ends(entropy_ball(r)) for r in Q]
                avg = (sum(a for a, _ in rows_h) / n, sum(b for _, b in rows_h) / n)
                cols = []
                for y in range(n):
                    col = [Q[x][y] for x in range(n)]
                    s_y = sum(col)
                    hp = ball_of(0) if s_y == 0 else \
                        ball_of(s_y) * entropy_ball([v / s_y for v in col]) - ball_of(s_y) * ball_of(s_y).log()
                    cols.append(ball_ends(hp))
                rhs = (sum(a for a, _ in cols) / n, sum(b for _, b in cols) / n)
                single = len(parts) == 1  # every row is a permutation of the key law: H(Y|X=x) = H(U) exactly
                identity = rhs[0] <= avg[1] and avg[0] <= rhs[1]                               # (7.56)
                step_a = h_u[0] >= avg[1] or (single and h_u[0] <= avg[1] and avg[0] <= h_u[1])  # (a)
                step_c = rhs[0] >= T * h1.upper or (single and tuple(sorted(parts[0])) in minimisers)  # (7.58)
                if not (identity and step_a and step_c):
                    keep(fails, {"part": 3, "k": k, "T": T, "weights": [str(v) for v in w], "(7.56)": identity,
                                 "(a)": step_a, "(7.58)": step_c})
                done += 1
        rows.append({"k": k, "T": T, "E": "2", "mechanisms": done})
    return rows


def check() -> ClaimResult:
    fails: list = []
    rows1 = part1(fails)
    rows2 = part2(fails)
    rows3 = part2_dd(fails)
    rows4 = part3(fails)
    return CLAIM.result(
        verdict="confirmed" if not fails else "refuted",
        key_figure=f"(1) {sum(r['encoders'] for r in rows1)} encoders, {sum(r['DP-Rec'] for r in rows1)} DP-Rec, "
                   f"none with |U| < |Y| or |Y| < |X|; (2) {len(rows2)} (k, T, eps): min H = T H_min,1 exactly "
                   f"(product minimisers); vertex sets = double description; (7.56)-(7.58) on "
                   f"{sum(r['mechanisms'] for r in rows4)} mechanisms ({len(fails)} failures)",
        evidence={"part 1 (exhaustive encoders)": rows1, "part 2 (minimum key entropy)": rows2,
                  "part 2 (double-description oracle)": rows3, "(7.56)-(7.58) chain": rows4, "failures": fails,
                  "finding": "(2) is tight: the minimum over eps-DP key laws on [k]^T equals T min_s H(U^s_min) exactly, "
                             "attained only by products of single-sample optimal two-level laws (7.46); every other "
                             "vertex is certified strictly larger (eps > 0).  Any bijection f permutes the polytope, so "
                             "the minimum does not depend on f.",
                  "library": "bcdp.randomness.sequences (is_dp_rec, min_key_entropy, dp_vertices, is_product_labelling), "
                             "bcdp.randomness.keys.min_two_level_entropy"},
    )
