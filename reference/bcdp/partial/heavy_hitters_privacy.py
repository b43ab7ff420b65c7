"""Privacy of PrivHeavyHitter (Algorithm 2 of the partial DP paper, arXiv:2209.04053): exact sups of
log P_x[T]/P_x'[T] over transcripts T, Lemmas 28 and 29 (App. A.1.1).

* :func:`lemma28_bound`, :func:`zxx16_laplace_lemma`: Lemma 28's eps and the [ZXX16] Laplace lemma
  used in its proof;
* the exact transcript law at d = 4: every transcript enumerated (:func:`enumerate_transcripts_d4`),
  brute-force and exact maxima of the log ratio (:func:`max_log_ratio_d4`);
* the path-sum method (the structure of the proofs of Lemmas 28 and 29): the exact sup for any
  power of two d, for one pair (:func:`path_sup_for_pair`) and over all neighbouring pairs of datasets
  with n records (:func:`path_sup_all_datasets`);
* the symmetry reduction for exhaustive sweeps over small datasets (:func:`tree_symmetries`).

The law and the parameters are those of :mod:`bcdp.partial.heavy_hitters_algorithm` (mpmath at
:data:`~bcdp.partial.heavy_hitters_algorithm.DPS` digits; Python floats refused).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import mpmath as mp

from bcdp.core.errors import InvalidInputError, ValidityConditionError
from bcdp.partial.heavy_hitters_algorithm import (
    DPS,
    HHParams,
    Transcript,
    accept_probability,
    as_counter,
    laplace_tail,
    neighbours,
    reject_probability,
    restriction_counts,
    to_mpf,
    tree_levels,
)

#: Fixed-point resolution 2^-FIXED_BITS of the integer sums in :func:`max_log_ratio_d4` (2^-200 ~ 6e-61).
FIXED_BITS = 200


# -- Lemma 28 ----------------------------------------------------------------------------------------------

def lemma28_bound(p: HHParams) -> mp.mpf:
    """Lemma 28 (App. A.1.1): if mu > 1, Algorithm 2 is eps-nabla0DP for
    eps = (2/lambda)(1 + 1/(1 - e^{-mu/lambda}))."""
    if not p.mu > 1:
        raise ValidityConditionError(f"Lemma 28 (App. A.1.1) needs mu > 1 (got mu = {mp.nstr(p.mu, 10)})")
    with mp.workdps(DPS):
        return (2 / p.lam) * (1 + 1 / (1 - mp.exp(-p.mu / p.lam)))


def zxx16_laplace_lemma(a: Any, lam: Any) -> tuple[mp.mpf, mp.mpf]:
    """[ZXX16, Lemma 2.1] as used in the proof of Lemma 28 (App. A.1.1):
    log(P[a + Lap(lam) > 0] / P[a - 1 + Lap(lam) > 0]) <= (1/lam) exp((1 - a)/lam).  Returns (lhs, rhs)."""
    a, lam = to_mpf(a, "a"), to_mpf(lam, "lambda")
    with mp.workdps(DPS):
        lhs = mp.log(laplace_tail(-a, lam) / laplace_tail(1 - a, lam))
        return lhs, mp.exp((1 - a) / lam) / lam


# -- exact transcript law ---------------------------------------------------------------------------

def _concat(left: Iterable[str], right: Iterable[str]) -> list[str]:
    return [a + b for a in sorted(left) for b in sorted(right)]


def transcript_log_probability(data: Any, transcript: Transcript, p: HHParams, d: int) -> mp.mpf:
    """log P_x[T] by the factorised law (module docstring); -inf if T is inconsistent."""
    x = as_counter(data, d)
    levels = tree_levels(d)
    lists: dict[tuple[int, int], frozenset] = {(j, j + 1): frozenset({"0", "1"}) for j in range(d)}
    with mp.workdps(DPS):
        total = mp.mpf(0)
        for level, nodes in enumerate(levels, start=1):
            for lo, hi in nodes:
                mid = (lo + hi) // 2
                chosen = frozenset(transcript[(lo, hi)])
                cand = _concat(lists[(lo, mid)], lists[(mid, hi)])
                if not chosen <= set(cand):
                    return mp.mpf("-inf")
                f = restriction_counts(x, lo, hi)
                for s in cand:
                    total += (mp.log(accept_probability(f[s], level, p)) if s in chosen
                              else mp.log(reject_probability(f[s], level, p)))
                lists[(lo, hi)] = chosen
        return total


def _subsets(items: Sequence[str]) -> list[frozenset]:
    return [frozenset(c) for r in range(len(items) + 1) for c in itertools.combinations(items, r)]


LEVEL1_STRINGS = ("00", "01", "10", "11")


def _event_logs_d4(x: Counter, p: HHParams) -> tuple[dict, dict]:
    """log P[accept], log P[reject] of every (node, candidate) event of Algorithm 2 at d = 4."""
    lv1, top = {}, {}
    for node in ((0, 2), (2, 4)):
        f = restriction_counts(x, *node)
        for s in LEVEL1_STRINGS:
            lv1[node, s] = (mp.log(accept_probability(f[s], 1, p)), mp.log(reject_probability(f[s], 1, p)))
    for s in _concat(LEVEL1_STRINGS, LEVEL1_STRINGS):
        top[s] = (mp.log(accept_probability(x[s], 2, p)), mp.log(reject_probability(x[s], 2, p)))
    return lv1, top


def enumerate_transcripts_d4(datasets: Sequence[Any], p: HHParams) -> Iterator[tuple[Transcript, list]]:
    """Every transcript T = (L_{12}, L_{34}, L_[4]) at d = 4 (113,855 of them) with [log P_x[T] for x in
    datasets] (brute force, DPS digits).

    The log-probability of T is the sum of the log-probabilities of its (node, candidate) events
    (the law of Algorithm 2); consecutive top-level lists are visited in Gray-code order, so each step
    adds one event difference.  Nothing is maximised or summed out."""
    xs = [as_counter(x, 4) for x in datasets]
    with mp.workdps(DPS):
        logs = [_event_logs_d4(x, p) for x in xs]
        subsets = _subsets(LEVEL1_STRINGS)
        for l12 in subsets:
            for l34 in subsets:
                cand = _concat(l12, l34)
                # start: every candidate rejected
                cur = []
                for lv1, top in logs:
                    v = sum(lv1[(0, 2), s][0 if s in l12 else 1] for s in LEVEL1_STRINGS)
                    v += sum(lv1[(2, 4), s][0 if s in l34 else 1] for s in LEVEL1_STRINGS)
                    cur.append(v + sum((top[s][1] for s in cand), mp.mpf(0)))
                chosen: set = set()
                yield {(0, 2): l12, (2, 4): l34, (0, 4): frozenset(chosen)}, list(cur)
                for step in range(1, 1 << len(cand)):
                    k = (step & -step).bit_length() - 1  # Gray code: toggle candidate k
                    s = cand[k]
                    sign = -1 if s in chosen else 1
                    chosen.symmetric_difference_update({s})
                    for i, (_, top) in enumerate(logs):
                        cur[i] += sign * (top[s][0] - top[s][1])
                    yield {(0, 2): l12, (2, 4): l34, (0, 4): frozenset(chosen)}, list(cur)


def max_log_ratio_d4_bruteforce(x: Any, xp: Any, p: HHParams) -> tuple[mp.mpf, Transcript, mp.mpf, mp.mpf, int]:
    """max_T log P_x[T]/P_x'[T] over ALL d = 4 transcripts by enumeration; also both total masses and
    the number of transcripts (the masses must be 1: a check of the law)."""
    best, arg, count = mp.mpf("-inf"), None, 0
    with mp.workdps(DPS):
        mass_x, mass_xp = mp.mpf(0), mp.mpf(0)
        for t, (lx, lxp) in enumerate_transcripts_d4([x, xp], p):
            count += 1
            mass_x += mp.exp(lx)
            mass_xp += mp.exp(lxp)
            if lx - lxp > best:
                best, arg = lx - lxp, t
    return best, arg, mass_x, mass_xp, count


def max_log_ratio_d4(x: Any, xp: Any, p: HHParams, stage2_scale: Any = None) -> tuple[mp.mpf, tuple]:
    """max over all d = 4 transcripts of log P_x/P_x' (optionally with the Thm 15 stage-2 Laplace counts).

    Enumerates every pair of level-1 lists (L_{12}, L_{34}) (256 pairs); given them, the top-level
    events are independent, so the max over L_[4] is the sum over candidates s of
    max(acc(s) [+ |f_s(x) - f_s(x')| / b2 with stage 2], rej(s)).  No path reduction is used."""
    x, xp = as_counter(x, 4), as_counter(xp, 4)
    with mp.workdps(DPS):
        extra_scale = None if stage2_scale is None else to_mpf(stage2_scale, "b2")
        lv1 = {}
        for node in ((0, 2), (2, 4)):
            f, g = restriction_counts(x, *node), restriction_counts(xp, *node)
            for s in LEVEL1_STRINGS:
                a, b = accept_probability(f[s], 1, p), accept_probability(g[s], 1, p)
                lv1[node, s] = (mp.log(a / b), mp.log(reject_probability(f[s], 1, p) / reject_probability(g[s], 1, p)))
        best_top = {}
        for u in LEVEL1_STRINGS:
            for w in LEVEL1_STRINGS:
                s = u + w
                a, b = accept_probability(x[s], 2, p), accept_probability(xp[s], 2, p)
                acc = mp.log(a / b)
                if extra_scale is not None:
                    acc += abs(x[s] - xp[s]) / extra_scale
                best_top[u, w] = max(acc, mp.log(reject_probability(x[s], 2, p) / reject_probability(xp[s], 2, p)))
        # Sums of the per-event log-ratios are formed in fixed point (integers scaled by 2^FIXED_BITS;
        # each term is rounded once, so a sum of <= 24 terms is within 24 * 2^-FIXED_BITS of the
        # mpmath value); the maximising lists are then re-evaluated in mpmath.
        scale = mp.mpf(2) ** FIXED_BITS
        fx = lambda v: int(mp.nint(v * scale))  # noqa: E731
        subsets = _subsets(LEVEL1_STRINGS)
        side = {node: [sum(fx(lv1[node, s][0 if s in sub else 1]) for s in LEVEL1_STRINGS) for sub in subsets]
                for node in ((0, 2), (2, 4))}
        top_fx = {key: fx(v) for key, v in best_top.items()}
        best_fx, arg_idx = None, None
        for i, l12 in enumerate(subsets):
            col = {w: sum(top_fx[u, w] for u in l12) for w in LEVEL1_STRINGS}
            s12 = side[(0, 2)][i]
            for k, l34 in enumerate(subsets):
                v = s12 + side[(2, 4)][k] + sum(col[w] for w in l34)
                if best_fx is None or v > best_fx:
                    best_fx, arg_idx = v, (i, k)
        l12, l34 = subsets[arg_idx[0]], subsets[arg_idx[1]]
        best = (sum(lv1[(0, 2), s][0 if s in l12 else 1] for s in LEVEL1_STRINGS)
                + sum(lv1[(2, 4), s][0 if s in l34 else 1] for s in LEVEL1_STRINGS)
                + sum((best_top[u, w] for u in l12 for w in l34), mp.mpf(0)))
        return best, (tuple(sorted(l12)), tuple(sorted(l34)))


# -- path-sum method (structure of the proofs of Lemmas 28 and 29): exact sup for any d -----------

def _terms(level: int, f: int, p: HHParams, side: str) -> tuple[mp.mpf, mp.mpf]:
    """(accept, reject) log-ratio of one path candidate at level l.

    side 'a': x has count f, x' has f - 1 (the string of x_i);  side 'b': x has f, x' has f + 1."""
    g = f - 1 if side == "a" else f + 1
    with mp.workdps(DPS):
        px, pxp = accept_probability(f, level, p), accept_probability(g, level, p)
        return mp.log(px / pxp), mp.log(reject_probability(f, level, p) / reject_probability(g, level, p))


def _feasible_patterns(levels: int) -> list[tuple[int, str, int, str]]:
    """Path patterns (k_a, e_a, k_b, e_b): string a (b) is a candidate at levels 1..k_a (1..k_b), accepted
    below k_a and decided e_a at k_a.  Feasible iff a sibling-switch sequence z_2..z_L exists (see
    :func:`path_sup_for_pair`)."""
    out = []
    for ka, ea, kb, eb in itertools.product(range(1, levels + 1), "ar", range(1, levels + 1), "ar"):
        ones = max(ka, kb)  # z_2..z_max must be 1
        zeros = [k + 1 for k, e in ((ka, ea), (kb, eb)) if e == "a" and k < levels]
        if all(z > ones for z in zeros):
            out.append((ka, ea, kb, eb))
    return out


def _pattern_value(pattern: tuple[int, str, int, str], ta: list, tb: list) -> mp.mpf:
    ka, ea, kb, eb = pattern
    v = mp.mpf(0)
    for lvl in range(1, ka + 1):
        v += ta[lvl - 1][0 if (lvl < ka or ea == "a") else 1]
    for lvl in range(1, kb + 1):
        v += tb[lvl - 1][0 if (lvl < kb or eb == "a") else 1]
    return v


def path_counts(x: Counter, u: str, up: str, d: int) -> tuple[list[int], list[int]]:
    """Counts f_{a_l}(x), f_{b_l}(x) of a_l = u|_{I_l}, b_l = u'|_{I_l} on the path nodes I_l containing j."""
    j = next(k for k in range(d) if u[k] != up[k])
    fa, fb = [], []
    for nodes in tree_levels(d):
        lo, hi = next(node for node in nodes if node[0] <= j < node[1])
        f = restriction_counts(x, lo, hi)
        fa.append(f[u[lo:hi]])
        fb.append(f[up[lo:hi]])
    return fa, fb


def path_sup_for_pair(x: Any, u: str, up: str, p: HHParams, d: int,
                      stage2_scale: Any = None) -> tuple[mp.mpf, tuple]:
    """Exact max over ALL transcripts of log P_x[T]/P_x'[T], x' = x with one record u replaced by u'
    (u, u' differ at one attribute j), for any power of two d.  Returns (value, maximising pattern).

    Why this reduction is exact (the structure of the proofs of Lemmas 28 and 29, App. A.1.1):

    1. Counts f^I_s(x) and f^I_s(x') differ only if j is in I, and then only for s = a := u|_I (one
       less in x') and s = b := u'|_I (one more).  At level l exactly one node I_l contains j, and
       I_{l-1} is one of its children.  So in log P_x[T] - log P_x'[T] (factorised law) every factor
       cancels except those of the events (I_l, a_l), (I_l, b_l) for levels l where a_l (resp. b_l)
       is a candidate of I_l; each contributes acc_l or rej_l (:func:`_terms`) according to its decision.
    2. a_l and b_l differ only inside I_{l-1} and agree on the sibling J_l of I_{l-1}; so a_l is a
       candidate iff a_{l-1} in L_{I_{l-1}} and z_l := [u|_{J_l} in L_{J_l}], and likewise b_l with the
       SAME switch z_l (z_1 = 1: the sibling is a leaf with list {0,1}, and a_0, b_0 are in {0,1}).
       Hence the log-ratio of T depends on T only through the pattern (k_a, e_a, k_b, e_b) = last level
       at which a (b) is a candidate and its decision there; :func:`_feasible_patterns` lists exactly
       the patterns some z-sequence allows.
    3. Every feasible pattern is realised by a transcript of positive probability under both datasets:
       make every node off the path accept all its candidates (so any string can sit in any list off
       the path), put u|_{J_l} in L_{J_l} iff z_l = 1, and let L_{I_l} contain exactly those of
       a_l, b_l that the pattern accepts.  All accept probabilities lie in (0, 1).

    So max_T = max over feasible patterns of the pattern sum (a finite max, attained).  With
    ``stage2_scale`` = b2 the Thm 15 stage-2 release f_s + Lap(b2) for s in L_[d] is included: its
    density ratio has sup |f_s(x) - f_s(x')|/b2 = 1/b2 for s in {a_L, b_L} and 1 otherwise, so
    1/b2 is added to the top-level accept terms.
    """
    x = as_counter(x, d)
    if len(u) != d or len(up) != d or sum(c1 != c2 for c1, c2 in zip(u, up)) != 1:
        raise InvalidInputError("u and u' must be records of length d differing in exactly one attribute")
    if x[u] < 1:
        raise InvalidInputError("u must be a record of x")
    fa, fb = path_counts(x, u, up, d)
    L = len(fa)
    with mp.workdps(DPS):
        ta = [list(_terms(lvl, fa[lvl - 1], p, "a")) for lvl in range(1, L + 1)]
        tb = [list(_terms(lvl, fb[lvl - 1], p, "b")) for lvl in range(1, L + 1)]
        if stage2_scale is not None:
            b2 = to_mpf(stage2_scale, "b2")
            ta[-1][0] += 1 / b2
            tb[-1][0] += 1 / b2
        best, arg = mp.mpf("-inf"), None
        for pat in _feasible_patterns(L):
            v = _pattern_value(pat, ta, tb)
            if v > best:
                best, arg = v, pat
        return best, arg


def path_sup_all_datasets(d: int, n: int, p: HHParams, stage2_scale: Any = None) -> tuple[mp.mpf, dict]:
    """Exact max of log P_x[T]/P_x'[T] over all transcripts T and ALL nabla0-neighbouring pairs of
    datasets with n records in {0,1}^d (d a power of two).

    By :func:`path_sup_for_pair` the value of a pair depends only on the path count sequences
    f_a = (f_{a_l}(x))_l and f_b = (f_{b_l}(x))_l.  The realisable sequences are exactly the
    non-increasing integer sequences with f_{a,L} >= 1, f_{b,L} >= 0 and f_{a,1} + f_{b,1} <= n
    (matches on I_l imply matches on I_{l-1}; a_1 != b_1; a record matching a_l but not a_{l+1} flips
    a bit of the sibling J_{l+1}; the other records flip the other bit of I_1).  For a fixed pattern
    the sum separates into an a-part and a b-part, each maximised over non-increasing sequences by a
    dynamic programme (V_l(f) = term_l(f) + max_{g <= f} V_{l+1}(g)); the coupling f_{a,1} + f_{b,1}
    <= n is a final max over the split.  Runs in O(patterns * L * n) mpmath operations.
    Returns (value, witness with the pattern, the two count sequences, and the separate sups
    a_path_sup / b_path_sup of the a-path and b-path sums -- the proof's products (5) and (6)).
    """
    L = len(tree_levels(d))
    if not isinstance(n, int) or n < 1:
        raise InvalidInputError("n must be an integer >= 1")
    with mp.workdps(DPS):
        ninf = mp.mpf("-inf")
        ta = [[[ninf, ninf]] + [list(_terms(lvl, f, p, "a")) for f in range(1, n + 1)] for lvl in range(1, L + 1)]
        tb = [[list(_terms(lvl, f, p, "b")) for f in range(n + 1)] for lvl in range(1, L + 1)]
        if stage2_scale is not None:
            b2 = to_mpf(stage2_scale, "b2")
            for f in range(n + 1):
                ta[L - 1][f][0] += 1 / b2
                tb[L - 1][f][0] += 1 / b2

        def side_best(terms: list, k: int, e: str, fmin: int) -> tuple[list, list]:
            """best[f1] over non-increasing sequences (levels 1..k) starting at f1, with argmax sequences."""
            dec = [0] * k
            dec[k - 1] = 0 if e == "a" else 1
            value = [terms[k - 1][f][dec[k - 1]] if f >= fmin else mp.mpf("-inf") for f in range(n + 1)]
            seq = [[f] for f in range(n + 1)]
            for lvl in range(k - 1, 0, -1):
                run_best, run_arg = mp.mpf("-inf"), None
                new_value, new_seq = [], []
                for f in range(n + 1):
                    if value[f] > run_best:
                        run_best, run_arg = value[f], f
                    if f < fmin or run_arg is None:
                        new_value.append(mp.mpf("-inf"))
                        new_seq.append(None)
                    else:
                        new_value.append(terms[lvl - 1][f][0] + run_best)
                        new_seq.append([f] + seq[run_arg])
                value, seq = new_value, new_seq
            return value, seq

        a_parts = {(k, e): side_best(ta, k, e, 1) for k in range(1, L + 1) for e in "ar"}
        b_parts = {(k, e): side_best(tb, k, e, 0) for k in range(1, L + 1) for e in "ar"}
        # separate sups of the two path sums (the paper's products (5) and (6) of the proof of Lemma 28)
        a_sup = max(max(v[0]) for v in a_parts.values())
        b_sup = max(max(v[0]) for v in b_parts.values())
        best, witness = mp.mpf("-inf"), {}
        for pat in _feasible_patterns(L):
            ka, ea, kb, eb = pat
            va, sa = a_parts[ka, ea]
            vb, sb = b_parts[kb, eb]
            # prefix max of the b-part over f_{b,1} <= m
            pref, pref_arg, run, run_arg = [], [], mp.mpf("-inf"), None
            for f in range(n + 1):
                if vb[f] > run:
                    run, run_arg = vb[f], f
                pref.append(run)
                pref_arg.append(run_arg)
            for fa1 in range(1, n + 1):
                if pref_arg[n - fa1] is None:
                    continue
                v = va[fa1] + pref[n - fa1]
                if v > best:
                    fb1 = pref_arg[n - fa1]
                    best = v
                    witness = {"pattern": pat, "f_a": sa[fa1], "f_b": sb[fb1]}
        witness["a_path_sup"], witness["b_path_sup"] = a_sup, b_sup
        return best, witness


def example_pair_from_counts(d: int, n: int, fa: Sequence[int], fb: Sequence[int]) -> tuple[Counter, str, str]:
    """A dataset x (n records) realising path counts fa, fb for u = 0^d, u' = 10^{d-1} (j = 0).

    Record types: 'a-level-l' matches u on I_l only (flips bit 2^l of the sibling J_{l+1}),
    similarly for b, and fillers 01...  Used to turn :func:`path_sup_all_datasets` witnesses into
    explicit datasets."""
    L = len(tree_levels(d))
    if len(fa) < L or len(fb) < L:
        fa = list(fa) + [fa[-1]] * (L - len(fa))
        fb = list(fb) + [fb[-1]] * (L - len(fb))
    if fa[0] + fb[0] > n or fa[-1] < 1 or any(fa[k] < fa[k + 1] or fb[k] < fb[k + 1] for k in range(L - 1)):
        raise InvalidInputError("count sequences must be non-increasing, f_a >= 1, f_a1 + f_b1 <= n")
    u, up = "0" * d, "1" + "0" * (d - 1)
    x: Counter = Counter()
    for base, f in ((u, fa), (up, fb)):
        for lvl in range(1, L + 1):
            exact_here = f[lvl - 1] - (f[lvl] if lvl < L else 0)
            if exact_here:
                rec = base if lvl == L else base[: 2 ** lvl] + "1" + base[2 ** lvl + 1:]
                x[rec] += exact_here
    filler = "01" + "0" * (d - 2)
    if n - fa[0] - fb[0]:
        x[filler] += n - fa[0] - fb[0]
    return x, u, up


# -- symmetry reduction for exhaustive sweeps over small datasets -----------------------------------

def _tree_permutations(lo: int, hi: int) -> list[tuple[int, ...]]:
    """Coordinate permutations of [lo, hi) that preserve the dyadic tree (swap children at any node)."""
    if hi - lo == 1:
        return [(lo,)]
    mid = (lo + hi) // 2
    out = []
    for left in _tree_permutations(lo, mid):
        for right in _tree_permutations(mid, hi):
            out.append(left + right)
            out.append(right + left)
    return out


def tree_symmetries(d: int) -> list[tuple[tuple[int, ...], str]]:
    """The group G of maps s -> (s_{perm(k)} xor flip_k)_k with perm a tree automorphism and flip any mask.

    Algorithm 2's law is G-equivariant: g maps the restriction of a record to a node I onto the
    restriction to the node g(I) at the same level, bijectively on strings, so f^{gI}_{gs}(gx) =
    f^I_s(x); thresholds do not depend on strings, hence P_{gx}[gT] = P_x[T].  g maps a one-attribute
    change to a one-attribute change, so sup_T log P_x/P_x' is constant on G-orbits of ordered
    neighbouring pairs and it suffices to examine pairs whose first dataset is an orbit
    representative."""
    tree_levels(d)
    return [(perm, "".join(bits)) for perm in _tree_permutations(0, d)
            for bits in itertools.product("01", repeat=d)]


def apply_symmetry(g: tuple[tuple[int, ...], str], rec: str) -> str:
    perm, flip = g
    return "".join("1" if (rec[perm[k]] == "1") != (flip[k] == "1") else "0" for k in range(len(rec)))


def neighbouring_pairs_up_to_symmetry(d: int, n: int) -> Iterator[tuple[Counter, str, str, Counter]]:
    """Ordered nabla0-neighbouring pairs (x, x') with n records in {0,1}^d, one per G-orbit of x
    (every ordered pair is G-equivalent to a yielded one; see :func:`tree_symmetries`)."""
    group = tree_symmetries(d)
    universe = ["".join(b) for b in itertools.product("01", repeat=d)]
    index = {s: i for i, s in enumerate(universe)}
    images = [[index[apply_symmetry(g, s)] for s in universe] for g in group]
    if not isinstance(n, int) or n < 1:
        raise InvalidInputError("n must be an integer >= 1")
    for combo in itertools.combinations_with_replacement(range(len(universe)), n):
        if all(tuple(sorted(img[i] for i in combo)) >= combo for img in images):
            x = Counter(universe[i] for i in combo)
            for u, up, _j, xp in neighbours(x):
                yield x, u, up, xp
