"""PrivHeavyHitter, Algorithm 2 of the partial DP paper: parameters, Laplace closed forms, the dyadic
tree, datasets and counts, and the float64 sampler.

Source: Ghazi, Kumar, Manurangsi, Steinke, "Algorithms with More Granular Differential Privacy
Guarantees" (arXiv:2209.04053), Sec. 5.1-5.2, Algorithm 2 (d a power of two, levels l = 1..log2 d;
the leaf initialisation ranges over all d leaves -- lines 3-4 of Algorithm 2 print j in [log d])::

    L_{j} = {0,1} for every leaf j
    for l = 1..log2 d:  tau_l = tau + (l-1) mu
        for every node I of level l (blocks of 2^l consecutive attributes):
            L_I = { s in L_{I_left} o L_{I_right} : max(f^I_s, tau_l - mu) + Lap(lambda) > tau_l }

with fresh noise for every (I, s); ``Lap(lambda)`` has density e^{-|z|/lambda}/(2 lambda).  The
transcript is (L_I)_{I internal}; the output is L_[d].

Neighbouring relation (nabla0, Def. 5): x, x' have the same number n of records and differ in ONE
attribute j of ONE record i (x_i = u, x'_i = u', u and u' differ exactly at j).

Exact transcript law.  Given the lists of the children, the accept events of the candidates of a
node are independent, so for a transcript T = (L_I)

    P_x[T] = prod_I prod_{s in L_{I_left} o L_{I_right}} ( p_x(I,s) if s in L_I else 1 - p_x(I,s) ),

(0 if some L_I is not inside its candidate set), with the closed form
p_x(I,s) = P[max(f, tau_l - mu) + Lap(lambda) > tau_l] = S(tau_l - max(f, tau_l - mu)),
S(t) = P[Lap(lambda) > t] = e^{-t/lambda}/2 (t >= 0), 1 - e^{t/lambda}/2 (t < 0).  Every probability
is in (0, 1), so every consistent transcript has positive probability under every dataset.

High-precision functions evaluate in mpmath at :data:`DPS` = 50 significant digits and take
parameters as ints / Fractions / strings / mpmath numbers (Python floats are refused, as in
:func:`bcdp.core.numbers.to_fraction`).  The sampler :func:`priv_heavy_hitter_sample` is the float64
twin (inputs through :func:`bcdp.core.numbers.to_float_input`) and is tested against the exact law.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import mpmath as mp
import numpy as np

from bcdp.core.errors import FloatRefusedError, InvalidInputError
from bcdp.core.numbers import to_float_input, to_fraction

#: Working precision (significant decimal digits) of every mpmath computation of the heavy-hitter modules.
DPS = 50

Transcript = dict  # {(lo, hi): frozenset of bit strings of length hi - lo}


# -- parameters and closed forms -----------------------------------------------------------------------

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
        raise InvalidInputError(f"{name}: non-finite value {value!r}")
    return out


@dataclass(frozen=True)
class HHParams:
    """Parameters (lambda, mu, tau) of Algorithm 2 (its line 2: lambda, tau, mu > 0), as mpmath numbers."""

    lam: mp.mpf
    mu: mp.mpf
    tau: mp.mpf

    def tau_level(self, level: int) -> mp.mpf:
        """tau_l = tau + (l - 1) mu (Alg. 2 line 6)."""
        with mp.workdps(DPS):
            return self.tau + (level - 1) * self.mu


def hh_params(lam: Any, mu: Any, tau: Any) -> HHParams:
    """Validated Algorithm 2 parameters; every one must be > 0 (Alg. 2 line 2)."""
    out = HHParams(to_mpf(lam, "lambda"), to_mpf(mu, "mu"), to_mpf(tau, "tau"))
    for name, v in (("lambda", out.lam), ("mu", out.mu), ("tau", out.tau)):
        if not v > 0:
            raise InvalidInputError(f"{name} must be > 0 (Algorithm 2, line 2), got {mp.nstr(v, 10)}")
    return out


def laplace_tail(t: Any, lam: Any) -> mp.mpf:
    """S(t) = P[Lap(lam) > t] (scale lam), at DPS digits."""
    t, lam = to_mpf(t, "t"), to_mpf(lam, "lambda")
    if not lam > 0:
        raise InvalidInputError("Laplace scale must be > 0")
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
        raise InvalidInputError("a count is >= 0")
    return _accept_reject(int(count), int(level), p)[0]


def reject_probability(count: int, level: int, p: HHParams) -> mp.mpf:
    """1 - accept_probability, computed as P[Lap(lambda) <= t] directly (no cancellation when tiny)."""
    if count < 0:
        raise InvalidInputError("a count is >= 0")
    return _accept_reject(int(count), int(level), p)[1]


# -- tree, datasets, counts ------------------------------------------------------------------------

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


# -- the float64 sampler ---------------------------------------------------------------------------

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
    lam, mu, tau = (to_float_input(v, name) for v, name in ((lam, "lambda"), (mu, "mu"), (tau, "tau")))
    for name, v in (("lambda", lam), ("mu", mu), ("tau", tau)):
        if not v > 0:
            raise InvalidInputError(f"{name} must be a finite number > 0")
    if trials < 1:
        raise InvalidInputError("trials must be >= 1")
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
