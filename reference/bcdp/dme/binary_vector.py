"""The binary-vector mechanism R^Bin_{v,s} and aggregator A^Bin (thesis Algs 3.3.1-3.3.2, Thm 3.3.1), exact.

Client (thesis Alg 3.3.1): pad b in {0,1}^d with s*ceil(d/s) - d zeros, cut it into s blocks of
a = ceil(d/s) coordinates, and in block j send (a_j, y_j) with a_j uniform in the block and
y_j = a * 2RR_p(b[a_j]), where p is Lemma 2.4.1's parameter for the per-message budget v/s.
Server (thesis Alg 3.3.2): b_hat[a_ij] += y_ij over all clients and messages, then b_hat /= n.

Coordinates are 0-based indices into the padded vector (block j holds j*a, ..., (j+1)*a - 1).  The
estimate y_i of one client is a vector of the padded dimension s*a; :func:`client_estimate` and the
aggregator drop the padded coordinates (``truncate=True``) or keep them (``truncate=False``).

Exact results (tests and ``proofs_checks/thesis/thm331_binary_vector.py``):

* E[y_i] = b_i (thesis eq. (3.9)), on the padded vector and its first d coordinates;
* E||y_i - b_i||^2 = s a^2 V + (a - 1)||b_i||^2 on the padded vector, V = p(1-p)/(1-2p)^2 (thesis
  eq. (3.10), equality steps (a)-(b)); truncated to the d real coordinates it is d a V + (a-1)||b_i||^2;
* the bound d^2 (1/s - 1/d + s/v^2) of (3.10) holds when s divides d, with equality iff b = 1_d or
  a = 1 (s = d: the sampling term (a-1)||b||^2 vanishes, so every b attains it);
  when it does not, it holds with d replaced by the padded dimension s*a, and fails with the input
  d (erratum E-Thesis-3.10-padding, docs/errata.md);
* the exact LDP ratio of the whole client is ((1-p)/p)^k with k = ceil(d/a) the number of blocks
  that hold a real coordinate (blocks made only of padding send input-independent messages), so
  eps = k * 2 asinh(v/(2s)) < v for every v > 0: the budget v of Thm 3.3.1 is an upper bound, never
  attained;
* communication: s*(ceil(log2 a) + 1) bits (:func:`communication_bits`; the thesis writes
  s(log ceil(d/s) + 1), the index needs ceil(log2 a) whole bits, 0 when a = 1).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from bcdp.core.errors import InvalidInputError, ValidityConditionError, WrongTypeError
from bcdp.core.numbers import INFINITY, to_float_input, to_fraction

from .two_rr import budget_p, check_bit, check_p, two_rr_law, two_rr_variance

__all__ = [
    "MAX_ENUM_DIM",
    "BinaryVectorParams",
    "aggregate",
    "aggregate_float",
    "binary_vector_params",
    "client_estimate",
    "client_mean",
    "client_mse",
    "communication_bits",
    "ldp_ratio",
    "ldp_ratio_closed_form",
    "message_law",
    "mse_bound_310",
    "mse_equality_310",
    "mse_truncated",
    "pad",
    "sample_binary_vector",
]

#: Largest dimension for which the exact laws are enumerated ((2a)^s outcomes per input, 2^d inputs).
MAX_ENUM_DIM = 10

Message = tuple[tuple[int, Fraction], ...]


@dataclass(frozen=True)
class BinaryVectorParams:
    """Public parameters of R^Bin_{v,s} (thesis Alg 3.3.1): dimension d, messages s, block size
    a = ceil(d/s), the 2RR parameter p and (when given) the total budget v."""

    d: int
    s: int
    p: Fraction
    v: Fraction | None = None

    @property
    def a(self) -> int:
        return -(-self.d // self.s)

    @property
    def padded_dim(self) -> int:
        return self.s * self.a


def _check_count(x: Any, name: str, low: int = 1) -> int:
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)):
        raise WrongTypeError(f"{name} must be an int, got {type(x).__name__} {x!r}")
    if x < low:
        raise InvalidInputError(f"{name} must be >= {low}, got {x}")
    return int(x)


def binary_vector_params(d: Any, s: Any, *, v: Any = None, p: Any = None) -> BinaryVectorParams:
    """Parameters of R^Bin_{v,s} (thesis Alg 3.3.1, line 4): exactly one of ``v`` (total budget; p is
    Lemma 2.4.1's p for v/s, which must be rational: (v/s)^2 + 4 a rational square, e.g. v/s = 3/2
    gives p = 1/5) or ``p`` (the 2RR parameter in [0, 1/2) directly).  Requires 1 <= s <= d."""
    dd = _check_count(d, "d")
    ss = _check_count(s, "s")
    if ss > dd:
        raise ValidityConditionError(f"s = {ss} must be in {{1, ..., d}} = {{1, ..., {dd}}} (thesis Alg 3.3.1)")
    if (v is None) == (p is None):
        raise InvalidInputError("give exactly one of v (total budget) and p (2RR parameter)")
    if v is not None:
        vv = to_fraction(v, "v")
        if vv <= 0:
            raise ValidityConditionError(f"v = {vv} must be > 0 (thesis Lemma 2.4.1)")
        pp = budget_p(vv / ss)
        if not isinstance(pp, Fraction):
            raise InvalidInputError(f"p of v/s = {vv / ss} is irrational ((v/s)^2 + 4 is not a rational square); "
                                    "pass p or a v with v/s = t - 1/t")
        return BinaryVectorParams(dd, ss, pp, vv)
    return BinaryVectorParams(dd, ss, check_p(p))


def _check_vector(b: Sequence[Any], d: int) -> tuple[int, ...]:
    if isinstance(b, (str, bytes)) or not isinstance(b, Iterable):
        raise WrongTypeError("b must be a sequence of bits")
    bits = tuple(check_bit(x, "b[i]") for x in b)
    if len(bits) != d:
        raise InvalidInputError(f"b has {len(bits)} coordinates, expected d = {d}")
    return bits


def pad(b: Sequence[Any], params: BinaryVectorParams) -> tuple[int, ...]:
    """b with s*ceil(d/s) - d zeros appended (thesis Alg 3.3.1, line 3)."""
    bits = _check_vector(b, params.d)
    return bits + (0,) * (params.padded_dim - params.d)


def message_law(b: Sequence[Any], params: BinaryVectorParams) -> dict[Message, Fraction]:
    """Exact law of the message set Y = ((a_1, y_1), ..., (a_s, y_s)) of R^Bin on input b (thesis
    Alg 3.3.1), by enumeration of the s uniform coordinates and the s 2RR flips ((2a)^s outcomes)."""
    if params.d > MAX_ENUM_DIM:
        raise InvalidInputError(f"d = {params.d} is over the enumeration cap {MAX_ENUM_DIM}")
    bp, a = pad(b, params), params.a
    per_block = []
    for j in range(params.s):
        opts = []
        for c in range(j * a, (j + 1) * a):
            for y, w in two_rr_law(bp[c], params.p).items():
                opts.append(((c, a * y), w / a))
        per_block.append(opts)
    law: dict[Message, Fraction] = {}
    for combo in itertools.product(*per_block):
        msg = tuple(m for m, _ in combo)
        w = Fraction(1)
        for _, x in combo:
            w *= x
        law[msg] = law.get(msg, Fraction(0)) + w
    return law


def client_estimate(message: Message, params: BinaryVectorParams, truncate: bool = True) -> tuple[Fraction, ...]:
    """The sparse estimate y_i = sum_j y_j e_{a_j} of one client (thesis Alg 3.3.2 for n = 1; proof of
    Thm 3.3.1), of dimension d (``truncate``) or s*a (padded)."""
    out = [Fraction(0)] * params.padded_dim
    for c, y in message:
        out[c] += y
    return tuple(out[: params.d] if truncate else out)


def aggregate(messages: Sequence[Message], params: BinaryVectorParams, truncate: bool = True) -> tuple[Fraction, ...]:
    """A^Bin (thesis Alg 3.3.2): b_hat[a_ij] += y_ij over clients i and messages j, then b_hat /= n."""
    n = len(messages)
    if n == 0:
        raise InvalidInputError("A^Bin needs at least one client")
    total = [Fraction(0)] * (params.d if truncate else params.padded_dim)
    for msg in messages:
        for k, y in enumerate(client_estimate(msg, params, truncate)):
            total[k] += y
    return tuple(x / n for x in total)


def client_mean(b: Sequence[Any], params: BinaryVectorParams, truncate: bool = True) -> tuple[Fraction, ...]:
    """E[y_i] from the exact message law (thesis eq. (3.9): equals b_i, padded or not)."""
    dim = params.d if truncate else params.padded_dim
    mean = [Fraction(0)] * dim
    for msg, w in message_law(b, params).items():
        for k, y in enumerate(client_estimate(msg, params, truncate)):
            mean[k] += w * y
    return tuple(mean)


def client_mse(b: Sequence[Any], params: BinaryVectorParams, truncate: bool = True) -> Fraction:
    """E||y_i - b_i||^2 from the exact message law (thesis eq. (3.10), left side), over the d real
    coordinates (``truncate``) or the padded vector."""
    target = pad(b, params)
    if truncate:
        target = target[: params.d]
    total = Fraction(0)
    for msg, w in message_law(b, params).items():
        est = client_estimate(msg, params, truncate)
        total += w * sum(((e - t) ** 2 for e, t in zip(est, target)), Fraction(0))
    return total


def mse_equality_310(b: Sequence[Any], params: BinaryVectorParams) -> Fraction:
    """The equality of thesis eq. (3.10), steps (a)-(b): s a^2 p(1-p)/(1-2p)^2 + (a-1)||b||^2 (the
    padded estimate's MSE)."""
    bits = _check_vector(b, params.d)
    a = params.a
    return params.s * a * a * two_rr_variance(params.p) + (a - 1) * sum(bits)


def mse_truncated(b: Sequence[Any], params: BinaryVectorParams) -> Fraction:
    """The MSE over the d real coordinates: d a p(1-p)/(1-2p)^2 + (a-1)||b||^2 (derived here from
    thesis eq. (3.10); equals :func:`mse_equality_310` when s divides d)."""
    bits = _check_vector(b, params.d)
    a = params.a
    return params.d * a * two_rr_variance(params.p) + (a - 1) * sum(bits)


def mse_bound_310(dim: Any, s: Any, v: Any) -> Fraction:
    """The bound of thesis eq. (3.10), step (d): dim^2 (1/s - 1/dim + s/v^2) (per client; (3.11)
    divides by n).  Proved with dim = s*a, the padded dimension (thesis, proof of Thm 3.3.1)."""
    dd = _check_count(dim, "dim")
    ss = _check_count(s, "s")
    vv = to_fraction(v, "v")
    if vv <= 0:
        raise ValidityConditionError(f"v = {vv} must be > 0 (thesis Lemma 2.4.1)")
    return Fraction(dd * dd) * (Fraction(1, ss) - Fraction(1, dd) + ss / (vv * vv))


def ldp_ratio(params: BinaryVectorParams) -> Fraction | float:
    """Exact LDP ratio e^eps of the whole client randomizer R^Bin (thesis Thm 3.3.1, Def 2.2.1):
    max over inputs b, b' in {0,1}^d and message sets Y of P[Y | b]/P[Y | b'], by enumerating all
    2^d exact laws (per output, max over inputs / min over inputs); INFINITY if some output has
    probability 0 under one input only."""
    if params.d > MAX_ENUM_DIM:
        raise InvalidInputError(f"d = {params.d} is over the enumeration cap {MAX_ENUM_DIM}")
    laws = [message_law(b, params) for b in itertools.product((0, 1), repeat=params.d)]
    outputs = set().union(*laws)
    best: Fraction | float = Fraction(1)
    for y in outputs:
        ws = [law.get(y, Fraction(0)) for law in laws]
        hi, lo = max(ws), min(ws)
        if lo == 0:
            if hi > 0:
                return INFINITY
            continue
        best = max(best, hi / lo)
    return best


def ldp_ratio_closed_form(params: BinaryVectorParams) -> Fraction | float:
    """((1-p)/p)^k with k = ceil(d/a) blocks holding a real coordinate (derived here; thesis Thm 3.3.1
    bounds it by e^v via basic composition of s messages)."""
    if params.p == 0:
        return INFINITY
    k = -(-params.d // params.a)
    return ((1 - params.p) / params.p) ** k


def communication_bits(d: Any, s: Any) -> int:
    """Bits per client, s*(ceil(log2 ceil(d/s)) + 1) (thesis Thm 3.3.1, s(log ceil(d/s) + 1) with the
    index rounded up to whole bits; a block of one coordinate needs no index bit)."""
    dd = _check_count(d, "d")
    ss = _check_count(s, "s")
    if ss > dd:
        raise ValidityConditionError(f"s = {ss} must be in {{1, ..., d}} (thesis Alg 3.3.1)")
    a = -(-dd // ss)
    return ss * ((a - 1).bit_length() + 1)


def sample_binary_vector(rng: np.random.Generator, B: Any, s: Any, p: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Vectorised R^Bin (thesis Alg 3.3.1) for n clients: B is an (n, d) array of 0/1; returns
    (coords, gamma, y), each (n, s): padded 0-based coordinates, the 2RR flips and y = a*2RR(b[coord])."""
    if not isinstance(rng, np.random.Generator):
        raise WrongTypeError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    X = np.asarray(B)
    if X.ndim != 2 or X.dtype == bool or not np.issubdtype(X.dtype, np.integer) or ((X != 0) & (X != 1)).any():
        raise InvalidInputError("B must be an (n, d) integer array of 0s and 1s")
    n, d = X.shape
    ss = _check_count(s, "s")
    if ss > d:
        raise ValidityConditionError(f"s = {ss} must be in {{1, ..., d}} = {{1, ..., {d}}} (thesis Alg 3.3.1)")
    q = to_float_input(p, "p")
    if not 0 <= q < 0.5:
        raise ValidityConditionError(f"p = {q} is outside [0, 1/2), the range of thesis Thm 2.4.1 (2RR)")
    a = -(-d // ss)
    Xp = np.zeros((n, ss * a), dtype=np.int64)
    Xp[:, :d] = X
    coords = rng.integers(0, a, size=(n, ss)) + a * np.arange(ss)[None, :]
    bits = np.take_along_axis(Xp, coords, axis=1)
    gamma = rng.random((n, ss)) < q
    sent = np.where(gamma, 1 - bits, bits)
    return coords, gamma, a * (sent - q) / (1 - 2 * q)


def aggregate_float(coords: np.ndarray, y: np.ndarray, d: Any, truncate: bool = True) -> np.ndarray:
    """A^Bin (thesis Alg 3.3.2) on sampled messages: b_hat = (1/n) sum_{i,j} y_ij e_{a_ij} (float64)."""
    c, yy = np.asarray(coords), np.asarray(y, dtype=float)
    if c.shape != yy.shape or c.ndim != 2:
        raise InvalidInputError("coords and y must be (n, s) arrays of the same shape")
    dd = _check_count(d, "d")
    n, ss = c.shape
    dim = ss * (-(-dd // ss))
    total = np.bincount(c.ravel(), weights=yy.ravel(), minlength=dim) / n
    return total[:dd] if truncate else total
