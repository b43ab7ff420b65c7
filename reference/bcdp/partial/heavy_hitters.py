"""PrivHeavyHitter (Algorithm 2 of the partial DP paper) and the Section 5 results built on it.

Source: Ghazi, Kumar, Manurangsi, Steinke, "Algorithms with More Granular Differential Privacy
Guarantees" (``/work/shared/papers/partial_dp.txt``): Algorithm 2 (L1550-L1567), Lemma 28 / Lemma 29
(privacy, L2721-L3805), Lemma 30 (utility, L3813-L3923), Theorem 15 (L1437-L1447, proof A.1.3
L3925-L3977), Theorem 16 (L1849-L1864, proof A.2 L3979-L4020).  Digest: ``/work/shared/notes/
partial_dp.md`` Section 4 and errata E1, E6-E11, E22.

Algorithm 2 (d a power of two, levels l = 1..log2 d; the leaf loop ranges over all d leaves, E22)::

    L_{j} = {0,1} for every leaf j
    for l = 1..log2 d:  tau_l = tau + (l-1) mu
        for every node I of level l (blocks of 2^l consecutive attributes):
            L_I = { s in L_{I_left} o L_{I_right} : max(f^I_s, tau_l - mu) + Lap(lambda) > tau_l }

with fresh noise for every (I, s); ``Lap(lambda)`` has density e^{-|z|/lambda}/(2 lambda).  The
transcript is (L_I)_{I internal}; the output is L_[d].

Neighbouring relation (nabla0, Def. of partial DP): x, x' have the same number n of records and
differ in ONE attribute j of ONE record i (x_i = u, x'_i = u', u and u' differ exactly at j).

Exact transcript law.  Given the lists of the children, the accept events of the candidates of a
node are independent, so for a transcript T = (L_I)

    P_x[T] = prod_I prod_{s in L_{I_left} o L_{I_right}} ( p_x(I,s) if s in L_I else 1 - p_x(I,s) ),

(0 if some L_I is not inside its candidate set), with the closed form
p_x(I,s) = P[max(f, tau_l - mu) + Lap(lambda) > tau_l] = S(tau_l - max(f, tau_l - mu)),
S(t) = P[Lap(lambda) > t] = e^{-t/lambda}/2 (t >= 0), 1 - e^{t/lambda}/2 (t < 0).  Every probability
is in (0, 1), so every consistent transcript has positive probability under every dataset.

High-precision functions evaluate in mpmath at :data:`DPS` = 50 significant digits and take
parameters as ints / Fractions / strings / mpmath numbers (Python floats are refused, as in
:func:`bcdp.core.numbers.to_fraction`).  The sampler is float64 (numpy) and is tested against the exact
law.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Iterable, Iterator, Mapping, Sequence

import mpmath as mp
import numpy as np
import sympy

from bcdp.core.errors import FloatRefusedError, InvalidInputError
from bcdp.core.numbers import to_fraction

#: Working precision (significant decimal digits) of every mpmath computation of this module.
DPS = 50
#: Fixed-point resolution 2^-FIXED_BITS of the integer sums in :func:`max_log_ratio_d4` (2^-200 ~ 6e-61).
FIXED_BITS = 200

Transcript = dict  # {(lo, hi): frozenset of bit strings of length hi - lo}


# ----------------------------------------------------------------------------------------------
# parameters and closed forms
# ----------------------------------------------------------------------------------------------

def to_mpf(value: Any, name: str = "value") -> mp.mpf:
    """A parameter as an mpmath number at :data:`DPS` digits, refusing Python floats."""
    if isinstance(value, float):
        raise FloatRefusedError(f"{name}: floats are refused (got {value!r}); pass a Fraction, int, string "
                                "or an mpmath number")
    with mp.workdps(DPS):
        if isinstance(value, mp.mpf):
            out = +value
        else:
            q = to_fraction(value, name)
            out = mp.mpf(q.numerator) / q.denominator
    if not mp.isfinite(out):
        raise ValueError(f"{name}: non-finite value {value!r}")
    return out


@dataclass(frozen=True)
class HHParams:
    """Parameters (lambda, mu, tau) of Algorithm 2 (L1552: lambda, tau, mu > 0), as mpmath numbers."""

    lam: mp.mpf
    mu: mp.mpf
    tau: mp.mpf

    def tau_level(self, level: int) -> mp.mpf:
        """tau_l = tau + (l - 1) mu (Alg. 2 line 6)."""
        with mp.workdps(DPS):
            return self.tau + (level - 1) * self.mu


def hh_params(lam: Any, mu: Any, tau: Any) -> HHParams:
    """Validated Algorithm 2 parameters; every one must be > 0 (L1552)."""
    out = HHParams(to_mpf(lam, "lambda"), to_mpf(mu, "mu"), to_mpf(tau, "tau"))
    for name, v in (("lambda", out.lam), ("mu", out.mu), ("tau", out.tau)):
        if not v > 0:
            raise ValueError(f"{name} must be > 0 (Algorithm 2, L1552), got {mp.nstr(v, 10)}")
    return out


def laplace_tail(t: Any, lam: Any) -> mp.mpf:
    """S(t) = P[Lap(lam) > t] (scale lam), at DPS digits."""
    t, lam = to_mpf(t, "t"), to_mpf(lam, "lambda")
    if not lam > 0:
        raise ValueError("Laplace scale must be > 0")
    with mp.workdps(DPS):
        return mp.exp(-t / lam) / 2 if t >= 0 else 1 - mp.exp(t / lam) / 2


@functools.lru_cache(maxsize=1 << 16)
def _accept_reject(count: int, level: int, p: HHParams) -> tuple[mp.mpf, mp.mpf]:
    """(P[accept], P[reject]) of a candidate with count f at level l, both computed directly
    (the reject probability as a Laplace CDF, so no cancellation when it is tiny).  Cached: the value
    depends only on (f, l, p) and the precision is fixed at DPS."""
    with mp.workdps(DPS):
        t = p.tau + (level - 1) * p.mu - max(mp.mpf(count), p.tau + (level - 2) * p.mu)
        tail = mp.exp(-abs(t) / p.lam) / 2
        return (tail, 1 - tail) if t >= 0 else (1 - tail, tail)


def accept_probability(count: int, level: int, p: HHParams) -> mp.mpf:
    """P[max(f, tau_l - mu) + Lap(lambda) > tau_l] for a candidate with count f at level l (Alg. 2 l. 10-11)."""
    if count < 0:
        raise ValueError("a count is >= 0")
    return _accept_reject(int(count), int(level), p)[0]


def reject_probability(count: int, level: int, p: HHParams) -> mp.mpf:
    """1 - accept_probability, computed as P[Lap(lambda) <= t] directly (no cancellation when tiny)."""
    if count < 0:
        raise ValueError("a count is >= 0")
    return _accept_reject(int(count), int(level), p)[1]


def miss_probability_union_bound(data: Any, s: str, p: HHParams, d: int) -> mp.mpf:
    """Upper bound on P[s not in L_[d]] (Lemma 30 part 1 chain, L3830-L3850): s is missed only if some
    restriction s|_I is rejected at its node I, so P[miss] <= sum_I P[reject s|_I | candidate]."""
    x = as_counter(data, d)
    with mp.workdps(DPS):
        total = mp.mpf(0)
        for level, nodes in enumerate(tree_levels(d), start=1):
            for lo, hi in nodes:
                total += reject_probability(restriction_counts(x, lo, hi)[s[lo:hi]], level, p)
        return total


def lemma28_bound(p: HHParams) -> mp.mpf:
    """Lemma 28 (L2721): if mu > 1, Algorithm 2 is eps-nabla0DP for eps = (2/lambda)(1 + 1/(1 - e^{-mu/lambda}))."""
    if not p.mu > 1:
        raise ValueError(f"Lemma 28 needs mu > 1 (got mu = {mp.nstr(p.mu, 10)})")
    with mp.workdps(DPS):
        return (2 / p.lam) * (1 + 1 / (1 - mp.exp(-p.mu / p.lam)))


def zxx16_laplace_lemma(a: Any, lam: Any) -> tuple[mp.mpf, mp.mpf]:
    """[ZXX16, Lemma 2.1] as used in the proof of Lemma 28 (digest 4.4):
    log(P[a + Lap(lam) > 0] / P[a - 1 + Lap(lam) > 0]) <= (1/lam) exp((1 - a)/lam).  Returns (lhs, rhs)."""
    a, lam = to_mpf(a, "a"), to_mpf(lam, "lambda")
    with mp.workdps(DPS):
        lhs = mp.log(laplace_tail(-a, lam) / laplace_tail(1 - a, lam))
        return lhs, mp.exp((1 - a) / lam) / lam


# ----------------------------------------------------------------------------------------------
# tree, datasets, counts
# ----------------------------------------------------------------------------------------------

def tree_levels(d: int) -> list[list[tuple[int, int]]]:
    """Internal nodes by level: level l (1-based) holds the blocks [2^l (t-1), 2^l t) (0-based, half-open)."""
    if not isinstance(d, int) or isinstance(d, bool) or d < 2 or d & (d - 1):
        raise InvalidInputError(f"Algorithm 2 needs d a power of two >= 2 (Section 5.1), got {d!r}")
    levels, width = [], 2
    while width <= d:
        levels.append([(lo, lo + width) for lo in range(0, d, width)])
        width *= 2
    return levels


def as_counter(data: Any, d: int | None = None) -> Counter:
    """Dataset (sequence of bit strings, a Counter string -> multiplicity, or an (n, d) 0/1 array) as a Counter."""
    if isinstance(data, np.ndarray):
        if data.ndim != 2 or not np.isin(data, (0, 1)).all():
            raise InvalidInputError("a dataset array must be (n, d) with 0/1 entries")
        out = Counter("".join(str(int(b)) for b in row) for row in data)
    elif isinstance(data, Mapping):
        out = Counter({str(k): int(v) for k, v in data.items() if int(v) != 0})
        if any(v < 0 for v in out.values()):
            raise InvalidInputError("multiplicities must be >= 0")
    else:
        out = Counter(str(r) for r in data)
    lengths = {len(r) for r in out}
    if len(lengths) > 1 or any(set(r) - {"0", "1"} for r in out):
        raise InvalidInputError("records must be 0/1 strings of one length")
    if d is not None and lengths and lengths != {d}:
        raise InvalidInputError(f"records must have length d = {d}")
    return out


def restriction_counts(data: Counter, lo: int, hi: int) -> Counter:
    """f^I_s for I = [lo, hi): multiplicity of each restriction x_i|_I."""
    out: Counter = Counter()
    for rec, c in data.items():
        out[rec[lo:hi]] += c
    return out


def neighbours(data: Counter) -> Iterator[tuple[str, str, int, Counter]]:
    """Every nabla0 neighbour x' of x: one record u -> u' flipped at one attribute j (distinct results)."""
    for rec in sorted(data):
        for j in range(len(rec)):
            flipped = rec[:j] + ("1" if rec[j] == "0" else "0") + rec[j + 1:]
            xp = Counter(data)
            xp[rec] -= 1
            if xp[rec] == 0:
                del xp[rec]
            xp[flipped] += 1
            yield rec, flipped, j, xp


def all_datasets(d: int, n: int) -> Iterator[Counter]:
    """Every multiset of n records of {0,1}^d (Algorithm 2 depends on the data through counts only)."""
    universe = ["".join(b) for b in itertools.product("01", repeat=d)]
    for combo in itertools.combinations_with_replacement(universe, n):
        yield Counter(combo)


# ----------------------------------------------------------------------------------------------
# exact transcript law
# ----------------------------------------------------------------------------------------------

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


# ----------------------------------------------------------------------------------------------
# path-sum method (Lemma 28 / 29 structure, digest 4.4): exact sup for any d
# ----------------------------------------------------------------------------------------------

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

    Why this reduction is exact (Lemma 28/29 structure, digest 4.4; proof):

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


# ----------------------------------------------------------------------------------------------
# sampler (float64) and exact inclusion probabilities (Lemma 30)
# ----------------------------------------------------------------------------------------------

def _node_keys(bits: np.ndarray, lo: int, hi: int) -> np.ndarray:
    weights = 1 << np.arange(hi - lo - 1, -1, -1, dtype=np.int64)
    return bits[:, lo:hi].astype(np.int64) @ weights


def priv_heavy_hitter_sample(data: np.ndarray, lam: float, mu: float, tau: float, rng: np.random.Generator,
                             trials: int = 1, keep_transcript: bool = False) -> list:
    """Run Algorithm 2 ``trials`` times (float64).  data: (n, d) 0/1 array, d a power of two.

    Strings of a node [lo, hi) are ints with attribute lo as the most significant bit.  Returns, per
    trial, the output list L_[d] as a sorted int array, or (with keep_transcript) a dict node -> array.
    Vectorised over the candidates of a node; the counts f^I_s are computed once for all trials."""
    data = np.asarray(data)
    if data.ndim != 2 or not np.isin(data, (0, 1)).all():
        raise InvalidInputError("data must be an (n, d) 0/1 array")
    d = data.shape[1]
    levels = tree_levels(d)
    for name, v in (("lambda", lam), ("mu", mu), ("tau", tau)):
        if not (isinstance(v, (int, float)) and math.isfinite(v) and v > 0):
            raise ValueError(f"{name} must be a finite number > 0")
    if trials < 1:
        raise ValueError("trials must be >= 1")
    count_tables = {}
    for nodes in levels:
        for lo, hi in nodes:
            keys, cnt = np.unique(_node_keys(data, lo, hi), return_counts=True)
            count_tables[lo, hi] = (keys, cnt)
    out = []
    leaf = np.array([0, 1], dtype=np.int64)
    for _ in range(trials):
        lists = {(j, j + 1): leaf for j in range(d)}
        for level, nodes in enumerate(levels, start=1):
            tl = tau + (level - 1) * mu
            for lo, hi in nodes:
                mid = (lo + hi) // 2
                left, right = lists[lo, mid], lists[mid, hi]
                cand = ((left[:, None] << (hi - mid)) | right[None, :]).ravel()
                if cand.size == 0:
                    lists[lo, hi] = cand
                    continue
                keys, cnt = count_tables[lo, hi]
                pos = np.searchsorted(keys, cand)
                pos_c = np.minimum(pos, keys.size - 1)
                f = np.where((pos < keys.size) & (keys[pos_c] == cand), cnt[pos_c], 0)
                noisy = np.maximum(f, tl - mu) + rng.laplace(0.0, lam, size=cand.size)
                lists[lo, hi] = np.sort(cand[noisy > tl])
        out.append(dict(lists) if keep_transcript else lists[0, d])
    return out


def int_to_bits(value: int, width: int) -> str:
    return format(int(value), f"0{width}b")


@dataclass(frozen=True)
class InclusionLaw:
    """Exact E|L_I| and P[s in L_I] (for the strings s that occur in the data) of every node."""

    expected_size: dict
    inclusion: dict


def inclusion_law(data: Any, p: HHParams, d: int) -> InclusionLaw:
    """Exact E|L_I| and P[s in L_I] by the factorised law (mpmath, DPS digits).

    The subtrees of I_left and I_right use disjoint noise, so P[s in L_I] = P[s_l in L_l] P[s_r in L_r]
    p(I, s).  Every string with count f <= tau_l - mu has the same accept probability
    q_l := p(I, 0) (every string absent from the data has count 0), hence
    E|L_I| = q_l E|L_l| E|L_r| + sum_{s in data|_I} P[s_l in L_l] P[s_r in L_r] (p(I, s) - q_l).
    (When tau_l >= mu, q_l = S(mu) = e^{-mu/lambda}/2, the floor of eq. (9), L3877.)"""
    x = as_counter(data, d)
    with mp.workdps(DPS):
        size = {(j, j + 1): mp.mpf(2) for j in range(d)}
        incl = {(j, j + 1): {"0": mp.mpf(1), "1": mp.mpf(1)} for j in range(d)}
        for level, nodes in enumerate(tree_levels(d), start=1):
            for lo, hi in nodes:
                mid = (lo + hi) // 2
                q0 = accept_probability(0, level, p)
                f = restriction_counts(x, lo, hi)
                e = q0 * size[lo, mid] * size[mid, hi]
                inc = {}
                for s, c in f.items():
                    both = incl[lo, mid][s[: mid - lo]] * incl[mid, hi][s[mid - lo:]]
                    pa = accept_probability(c, level, p)
                    inc[s] = both * pa
                    e += both * (pa - q0)
                size[lo, hi], incl[lo, hi] = e, inc
        return InclusionLaw(size, incl)


def lemma30_conditions(d: int, n: int, lam: Any, mu: Any, nu: Any, eta: Any) -> dict:
    """Lemma 30 (L3813): eta, nu in (0, 0.1], tau = 0.5 nu n, tau >= 8 mu log2 d + 8 lambda ln(d/(eta nu)),
    mu >= lambda ln(16/nu).  Returns the quantities and whether each condition holds (mpmath)."""
    with mp.workdps(DPS):
        lam, mu, nu, eta = to_mpf(lam, "lambda"), to_mpf(mu, "mu"), to_mpf(nu, "nu"), to_mpf(eta, "eta")
        tau = nu * n / 2
        need_tau = 8 * mu * mp.log(d, 2) + 8 * lam * mp.log(d / (eta * nu))
        return {"tau": tau, "tau_needed": need_tau,
                "nu_eta_ok": 0 < nu <= mp.mpf(1) / 10 and 0 < eta <= mp.mpf(1) / 10,
                "tau_ok": tau >= need_tau, "mu_ok": mu >= lam * mp.log(16 / nu)}


# ----------------------------------------------------------------------------------------------
# Theorem 15
# ----------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Thm15Params:
    """Stage-1 (Algorithm 2) parameters and stage-2 Laplace scale b2 of the two-stage histogram."""

    stage1: HHParams
    b2: mp.mpf
    variant: str


def thm15_params(eps: Any, nu: Any, n: int, variant: str) -> Thm15Params:
    """Theorem 15 constants (proof A.1.3, L3925-L3931).

    variant "printed":   lambda = 3/eps, mu = lambda ln(16/nu), tau = nu n/2, stage 2 Lap(2/eps)
                          (claimed 0.5 eps + 0.5 eps; false, digest E8/E9).
    variant "corrected": lambda = (4/eps)(1 + 16/(16 - nu)) (Lemma 28 gives exactly eps/2 at
                          mu = lambda ln(16/nu), since e^{-mu/lambda} = nu/16), same mu/tau, stage 2
                          Lap(4/eps) (l1-sensitivity of the counts is 2 under nabla0, so eps/2)."""
    eps_q, nu_q = to_fraction(eps, "eps"), to_fraction(nu, "nu")
    if eps_q <= 0 or not (0 < nu_q < 1):
        raise ValueError("need eps > 0 and nu in (0, 1)")
    with mp.workdps(DPS):
        e, v = to_mpf(eps_q), to_mpf(nu_q)
        if variant == "printed":
            lam, b2 = 3 / e, 2 / e
        elif variant == "corrected":
            lam, b2 = (4 / e) * (1 + 16 / (16 - v)), 4 / e
        else:
            raise ValueError("variant must be 'printed' or 'corrected'")
        return Thm15Params(HHParams(lam, lam * mp.log(16 / v), v * n / 2), b2, variant)


def thm15_sample_size(d: int, eps: Any, nu: Any, eta: Any, variant: str = "printed") -> mp.mpf:
    """Sample size of Thm 15 (mpmath, DPS digits; log2 for the tree depth, ln elsewhere).

    "printed" (A.1.3, L3933-L3940): n >= (16 mu log2 d + 16 lambda ln(d/(eta nu)))/nu
    + 100 ln(1/(eta nu))/(nu eps) with lambda = 3/eps, mu = lambda ln(16/nu).
    "corrected": the first term with the corrected lambda = (4/eps)(1 + 16/(16 - nu)) (so that
    tau = nu n/2 meets Lemma 30), plus b2 ln(16/(nu eta))/nu with b2 = 4/eps, which makes the stage-2
    failure bound of :func:`thm15_failure_bound` at most eta/2 (digest E10)."""
    tree_levels(d)
    tp = thm15_params(eps, nu, 1, variant)
    with mp.workdps(DPS):
        e, v, h = to_mpf(eps, "eps"), to_mpf(nu, "nu"), to_mpf(eta, "eta")
        lam, mu = tp.stage1.lam, tp.stage1.mu
        first = (16 * mu * mp.log(d, 2) + 16 * lam * mp.log(d / (h * v))) / v
        if variant == "printed":
            return first + 100 * mp.log(1 / (h * v)) / (v * e)
        return first + tp.b2 * mp.log(16 / (v * h)) / v


def thm15_failure_bound(d: int, eps: Any, nu: Any, eta: Any, n: int, variant: str) -> mp.mpf:
    """Upper bound on P[max_y |f_hat_y - f_y| > nu n] for the two-stage histogram (repairing E10).

    The proof (L3957-L3975) uses Markov to get |L| <= 32/nu "with probability 1 - 0.25 eta"; Markov
    only gives probability 3/4.  Valid chain: failure needs (i) a heavy string (f >= 2 tau = nu n)
    missing from L -- probability <= eta/2 by Lemma 30 -- or (ii) some s in L with |Lap(b2)| > nu n;
    stage-2 noise is independent of L, so P[(ii)] <= E|L| e^{-nu n/b2} <= (8/nu) e^{-nu n/b2}
    (Lemma 30).  Strings outside L with f <= nu n get f_hat = 0, within nu n.  Requires the Lemma 30
    conditions at tau = nu n/2 (raises otherwise)."""
    tp = thm15_params(eps, nu, n, variant)
    cond = lemma30_conditions(d, n, tp.stage1.lam, tp.stage1.mu, nu, eta)
    if not (cond["tau_ok"] and cond["mu_ok"] and cond["nu_eta_ok"]):
        raise ValueError("Lemma 30 conditions fail at this n: the bound does not apply")
    with mp.workdps(DPS):
        v, h = to_mpf(nu, "nu"), to_mpf(eta, "eta")
        return h / 2 + (8 / v) * mp.exp(-v * n / tp.b2)


def rounding_success_probability(scale: Any) -> sympy.Expr:
    """P[|Lap(b)| < 1/2] = 1 - e^{-1/(2b)} exactly (sympy): rounding f + Lap(b) recovers f (L1410-L1423)."""
    b = sympy.Rational(*to_fraction(scale, "b").as_integer_ratio())
    if b <= 0:
        raise ValueError("scale must be > 0")
    z = sympy.Symbol("z", real=True)
    density = sympy.exp(-sympy.Abs(z) / b) / (2 * b)
    return sympy.simplify(2 * sympy.integrate(density.subs(sympy.Abs(z), z), (z, 0, sympy.Rational(1, 2))))


def laplace_histogram_epsilon(scale: Any, relation: str) -> Fraction:
    """Exact pure-DP eps of f + Lap(b) per count: l1 sensitivity / b, with sensitivity 1 under add/remove
    and 2 under replace-one (Def. 1, L202) or nabla0 (one attribute change moves one record between two
    cells).  Digest E6/E9."""
    b = to_fraction(scale, "b")
    if b <= 0:
        raise ValueError("scale must be > 0")
    sens = {"add-remove": 1, "replace-one": 2, "nabla0": 2}
    if relation not in sens:
        raise ValueError(f"relation must be one of {sorted(sens)}")
    return Fraction(sens[relation]) / b


# ----------------------------------------------------------------------------------------------
# Theorem 16 (lower bound by packing)
# ----------------------------------------------------------------------------------------------

def _rat(value: Any, name: str) -> sympy.Rational:
    q = to_fraction(value, name)
    return sympy.Rational(q.numerator, q.denominator)


def thm16_packing_min_n(d: int, eps: Any, nu: Any, success: Any = "1/10", distance: str = "corrected") -> int:
    """Smallest n that the packing argument of Thm 16 (proof A.2, L3979-L4020) does NOT rule out.

    Datasets x^(0) = all zeros and x^(i) = ceil(3 nu n) copies of 1_i (rest zeros), i in [d]; the
    solution sets S^(i) are disjoint (f_hat_{1_i} >= 2 nu n vs <= nu n: "cannot hold simultaneously",
    E11); x^(0) and x^(i) are ceil(3 nu n) attribute changes apart, so group privacy gives
    1 >= sum_i P[A(x^(0)) in S^(i)] >= d e^{-eps k} * success with k = ceil(3 nu n) ("corrected") or the
    printed k = ceil(2 nu n) ("printed").  The argument rules out n iff d * success * e^{-eps k} > 1;
    the returned n is the least n with d * success * e^{-eps k(n)} <= 1, i.e. the lower bound the
    proof yields is n >= that value.  Exact: k(n) >= K := ceil(ln(d success)/eps) (sympy decides the
    ceiling), and ceil(c nu n) >= K iff c nu n > K - 1."""
    e, v, s = _rat(eps, "eps"), _rat(nu, "nu"), _rat(success, "success")
    if e <= 0 or not (0 < v < 1) or not (0 < s <= 1) or d < 1:
        raise ValueError("need eps > 0, nu in (0, 1), success in (0, 1], d >= 1")
    factor = {"corrected": 3, "printed": 2}[distance]
    # need k(n) >= K := ceil(ln(d s)/eps)  (d s e^{-eps k} <= 1  iff  k >= ln(d s)/eps)
    K = int(sympy.ceiling(sympy.log(d * s) / e))
    if K <= 0:
        return 1
    # ceil(factor nu n) >= K  iff  factor nu n > K - 1
    n = int(sympy.floor((K - 1) / (factor * v))) + 1
    assert sympy.ceiling(factor * v * n) >= K and (n == 1 or sympy.ceiling(factor * v * (n - 1)) < K)
    return n


def thm16_printed_bound(d: int, eps: Any, nu: Any) -> sympy.Expr:
    """The printed conclusion n >= 0.05 ln d / (eps nu) (A.2, L4019), as an exact sympy number."""
    return sympy.Rational(1, 20) * sympy.log(d) / (_rat(eps, "eps") * _rat(nu, "nu"))


def thm16_printed_step(d: int, eps: Any, nu_n: Any) -> tuple[sympy.Expr, sympy.Expr]:
    """The printed step (A.2): 0.1 d e^{-eps ceil(2 nu n)} >= d^{0.1} e^{-2 eps nu n} under d >= 10 e^{1.1 eps}.
    Returns (lhs, rhs) exactly; the step is claimed lhs >= rhs."""
    e, m = _rat(eps, "eps"), _rat(nu_n, "nu n")
    lhs = sympy.Rational(1, 10) * d * sympy.exp(-e * sympy.ceiling(2 * m))
    rhs = sympy.Integer(d) ** sympy.Rational(1, 10) * sympy.exp(-2 * e * m)
    return lhs, rhs


def packing_success_bound(d: int, eps: Any, nu: Any, n: int) -> sympy.Expr:
    """Packing inequality for tiny d, n: if an eps-nabla0DP algorithm succeeds with probability >= p on
    each of x^(0), ..., x^(d), then 1 >= P[A(x^0) in S^0] + sum_i P[A(x^0) in S^i] >= p (1 + d e^{-eps k}),
    k = ceil(3 nu n), so p <= 1/(1 + d e^{-eps k}) (exact sympy)."""
    e, v = _rat(eps, "eps"), _rat(nu, "nu")
    if n < 1 or d < 1:
        raise ValueError("need n, d >= 1")
    k = sympy.ceiling(3 * v * n)
    return 1 / (1 + d * sympy.exp(-e * k))


# ----------------------------------------------------------------------------------------------
# symmetry reduction for exhaustive sweeps over small datasets
# ----------------------------------------------------------------------------------------------

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
