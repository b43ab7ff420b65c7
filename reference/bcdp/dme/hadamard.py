"""The l1-ball Hadamard mechanism R^{l1}_{eps0} and its aggregator A^{l1} (thesis Alg 3.4.1, Sec. 3.4).

Thesis Ch. 3, Sec. 3.4 (after [ASZ19]), exact in Fractions.  The privacy level enters through the
rational ``E = e^{eps0} > 1`` (eps0 > 0), so every probability is rational; ``c = (E+1)/(E-1) =
coth(eps0/2)`` is the output scale of (3.13).

* Sylvester matrix: H_1 = [1], H_d = [[H_{d/2}, H_{d/2}], [H_{d/2}, -H_{d/2}]] (d a power of 2);
  an input of another dimension d is padded with zeros to D = 2^{ceil(log2 d)} (this keeps ||x||_1).
* Randomizer (Alg 3.4.1, eq. (3.13)): y = H_D x / sqrt(D), j ~ Unif[D] and
  z = +- r1 c H_D(j) with P[+] = 1/2 + sqrt(D) y[j] / (2 r1 c).  Since H_D is symmetric,
  sqrt(D) y[j] = <H_D(j), x> (an exact rational; y itself is irrational unless D is a square), and
  |<H_D(j), x>| <= ||x||_1 <= r1 makes (3.13) a distribution.  The message is (j, sign):
  log2(D) + 1 bits with private randomness, 1 bit when j is public (Thm 3.4.1, Lemma 3.4.1(1)).
  **Reading of the scale** (decided, docs/errata.md E-Thesis-Alg3.4.1): the text and App. B.2 write
  the negative output as -a H_d(j); the algorithm box has +r1 H_d(j), and only a = r1 is unbiased.
* Aggregator A^{l1}: x_hat = (1/n) sum_i z_i, truncated to the first d coordinates (the padded
  coordinates of every input are 0).  Per client, E[z] = x (Lemma 3.4.1(2)) and the exact error is
  E||z - x||^2 = r1^2 d c^2 - ||x||^2 <= r1^2 d c^2 (d the unpadded dimension: every kept entry of
  z is +- r1 c), so MSE(x_hat) = (1/n^2) sum_i (r1^2 d c^2 - ||x_i||^2) (Thm 3.4.1, exact form).
* LDP (Lemma 3.4.1(1), App. B.2): for the output (j, s) the probability (1/D)(1/2 + s t/(2 r1 c))
  is affine in t = <H_D(j), x>, and t ranges over exactly [-r1, r1] on B_1(r1).  The supremum of
  the likelihood ratio over the ball is therefore (1 + 1/c)/(1 - 1/c) = E, attained (at x = r1 e_1,
  x' = -r1 e_1, and only where |t| = |t'| = r1): it is a maximum, reached at vertices.
* Remark 3.4.1 as printed has the inclusion reversed (docs/errata.md E-Thesis-Rem3.4.1): B_1(r) is
  a subset of B_p(r), and B_p(r) is a subset of B_1(d^{1-1/p} r) (Hoelder, tight at the constant
  vector); :func:`lp_ball_l1_radius` is the radius at which R^{l1} covers the l_p ball.

The float twins (``*_float``) sample the messages for many clients at once with a
``numpy.random.Generator`` (a fast Walsh-Hadamard transform gives <H_D(j), x_i> without forming H_D).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Sequence

import numpy as np

from bcdp.core.errors import InvalidInputError, WrongTypeError
from bcdp.core.numbers import to_fraction, to_float_input

from ._args import check_E as _check_E
from ._args import check_int as _check_int

#: Largest padded dimension accepted by the exact functions (their laws have 2 D entries).
MAX_EXACT_DIMENSION = 2 ** 12
#: Largest d of :func:`l1_hadamard_worst_ratio` (it enumerates the 4 d^2 vertex pairs).
MAX_VERTEX_DIMENSION = 64
#: Largest padded dimension accepted by the float twins.
MAX_FLOAT_DIMENSION = 2 ** 20

Message = tuple[int, int]


# -- inputs ---------------------------------------------------------------------------------------

def padded_dimension(d: Any) -> int:
    """D = the smallest power of 2 >= d (thesis Sec. 3.4: "we assume that d is a power of 2";
    padding with zeros keeps ||x||_1).  ``d`` an integer >= 1."""
    d = _check_int(d, "d", 1)
    return 1 << (d - 1).bit_length()


def _check_radius(r1: Any) -> Fraction:
    r1 = to_fraction(r1, "r1")
    if r1 <= 0:
        raise InvalidInputError(f"r1 must be > 0, got {r1}")
    return r1


def _check_vector(x: Any, name: str = "x") -> tuple[Fraction, ...]:
    if isinstance(x, (str, bytes)) or not hasattr(x, "__len__"):
        raise WrongTypeError(f"{name} must be a sequence of exact rationals, got {type(x).__name__}")
    out = tuple(to_fraction(v, f"{name}[{i}]") for i, v in enumerate(x))
    if not out:
        raise InvalidInputError(f"{name} must have dimension >= 1")
    if padded_dimension(len(out)) > MAX_EXACT_DIMENSION:
        raise InvalidInputError(f"{name}: dimension {len(out)} pads beyond the exact cap {MAX_EXACT_DIMENSION}")
    return out


def _check_in_ball(x: tuple[Fraction, ...], r1: Fraction) -> None:
    norm = sum(abs(v) for v in x)
    if norm > r1:
        raise InvalidInputError(f"x is outside the l1 ball B_1(r1): ||x||_1 = {norm} > r1 = {r1} "
                                "(thesis Alg 3.4.1 needs x in B^d_1(r1))")


def output_scale(E: Any) -> Fraction:
    """c = (E+1)/(E-1) = coth(eps0/2), the scale of the outputs in (3.13); E = e^{eps0} > 1."""
    E = _check_E(E)
    return (E + 1) / (E - 1)


# -- the Sylvester matrix and the transform --------------------------------------------------------

def sylvester_hadamard(d: Any) -> tuple[tuple[int, ...], ...]:
    """H_d by the recursion of thesis Sec. 3.4: H_1 = [1], H_d = [[H, H], [H, -H]] with H = H_{d/2}.

    ``d`` a power of 2 (1, 2, 4, ...) at most :data:`MAX_EXACT_DIMENSION`; rows as tuples of +-1."""
    d = _check_int(d, "d", 1)
    if d & (d - 1) or d > MAX_EXACT_DIMENSION:
        raise InvalidInputError(f"d must be a power of 2 at most {MAX_EXACT_DIMENSION}, got {d}")
    rows: list[tuple[int, ...]] = [(1,)]
    while len(rows) < d:
        rows = [r + r for r in rows] + [r + tuple(-v for v in r) for r in rows]
    return tuple(rows)


def _fwht(values: list) -> list:
    """H_D v for D = len(values) a power of 2 (in-place butterflies in Sylvester order)."""
    v = list(values)
    h = 1
    while h < len(v):
        for start in range(0, len(v), 2 * h):
            for i in range(start, start + h):
                a, b = v[i], v[i + h]
                v[i], v[i + h] = a + b, a - b
        h *= 2
    return v


def hadamard_coefficients(x: Sequence[Any]) -> tuple[Fraction, ...]:
    """sqrt(D) y = H_D x for x padded to D (thesis Alg 3.4.1, step 2: y = H_D x / sqrt(D)); entry j
    is <H_D(j), x>, the quantity (3.13) uses.  Exact rationals in, Fractions out."""
    x = _check_vector(x)
    D = padded_dimension(len(x))
    return tuple(_fwht(list(x) + [Fraction(0)] * (D - len(x))))


# -- the exact law --------------------------------------------------------------------------------

def l1_hadamard_law(x: Sequence[Any], r1: Any, E: Any) -> dict[Message, Fraction]:
    """Exact law of the message (j, s) of R^{l1}_{eps0}(x) (thesis Alg 3.4.1, eq. (3.13)).

    P[(j, s)] = (1/D)(1/2 + s <H_D(j), x> / (2 r1 c)), j in 0..D-1 (0-based column), s in {+1, -1},
    c = (E+1)/(E-1).  Needs x in B_1(r1) (||x||_1 <= r1, else InvalidInputError: (3.13) would not be
    a distribution), r1 > 0, E = e^{eps0} > 1; x is padded with zeros to D = 2^{ceil(log2 d)}."""
    x = _check_vector(x)
    r1 = _check_radius(r1)
    c = output_scale(E)
    _check_in_ball(x, r1)
    t = hadamard_coefficients(x)
    D = len(t)
    law: dict[Message, Fraction] = {}
    for j, tj in enumerate(t):
        half = tj / (2 * r1 * c)
        law[(j, 1)] = (Fraction(1, 2) + half) / D
        law[(j, -1)] = (Fraction(1, 2) - half) / D
    return law


def l1_hadamard_output(message: Message, d: Any, r1: Any, E: Any) -> tuple[Fraction, ...]:
    """The vector z = s r1 c H_D(j) of the message (j, s), truncated to the first d coordinates
    (thesis Alg 3.4.1, eq. (3.13); entry i of H_D(j) is (-1)^{popcount(i & j)} in Sylvester order)."""
    D = padded_dimension(d)
    d = int(d)
    r1 = _check_radius(r1)
    c = output_scale(E)
    if not (isinstance(message, tuple) and len(message) == 2):
        raise WrongTypeError(f"a message is a pair (j, s), got {message!r}")
    j = _check_int(message[0], "j", 0)
    s = _check_int(message[1], "s", -1)
    if j >= D or s not in (1, -1):
        raise InvalidInputError(f"message (j, s) needs 0 <= j < {D} and s = +-1, got {message!r}")
    scale = s * r1 * c
    return tuple(scale * (-1 if bin(i & j).count("1") % 2 else 1) for i in range(d))


def l1_hadamard_aggregate(messages: Sequence[Message], d: Any, r1: Any, E: Any) -> tuple[Fraction, ...]:
    """A^{l1}: x_hat = (1/n) sum_i z_i, exactly, truncated to d coordinates (thesis Sec. 3.4)."""
    if not messages:
        raise InvalidInputError("the aggregator needs at least one message")
    padded_dimension(d)
    total = [Fraction(0)] * int(d)
    for m in messages:
        for i, v in enumerate(l1_hadamard_output(m, d, r1, E)):
            total[i] += v
    return tuple(v / len(messages) for v in total)


def l1_hadamard_mean(x: Sequence[Any], r1: Any, E: Any) -> tuple[Fraction, ...]:
    """E[z] computed from the exact law (Lemma 3.4.1(2) says it is x)."""
    xs = _check_vector(x)
    law = l1_hadamard_law(xs, r1, E)
    mean = [Fraction(0)] * len(xs)
    for m, p in law.items():
        for i, v in enumerate(l1_hadamard_output(m, len(xs), r1, E)):
            mean[i] += p * v
    return tuple(mean)


def l1_hadamard_mse(x: Sequence[Any], r1: Any, E: Any) -> Fraction:
    """Exact E||z - x||^2 = r1^2 d c^2 - ||x||_2^2 of one client (Lemma 3.4.1(2); App. B.2 computes
    E||z||^2 = r1^2 d c^2 and E[z] = x).  d is the unpadded dimension; x in B_1(r1)."""
    xs = _check_vector(x)
    r1 = _check_radius(r1)
    c = output_scale(E)
    _check_in_ball(xs, r1)
    return r1 * r1 * len(xs) * c * c - sum(v * v for v in xs)


def l1_hadamard_mse_bound(d: Any, r1: Any, E: Any) -> Fraction:
    """The bound r1^2 d ((E+1)/(E-1))^2 of Lemma 3.4.1(2) (equality iff x = 0)."""
    d = _check_int(d, "d", 1)
    r1 = _check_radius(r1)
    c = output_scale(E)
    return r1 * r1 * d * c * c


def l1_hadamard_estimator_mse(xs: Sequence[Sequence[Any]], r1: Any, E: Any) -> Fraction:
    """MSE of A^{l1} over n independent clients: (1/n^2) sum_i (r1^2 d c^2 - ||x_i||^2)
    (thesis Thm 3.4.1, exact form of (3.14)); all x_i of one dimension d, each in B_1(r1)."""
    if not xs:
        raise InvalidInputError("need at least one client")
    dims = {len(_check_vector(x)) for x in xs}
    if len(dims) != 1:
        raise InvalidInputError(f"all clients need the same dimension, got {sorted(dims)}")
    n = len(xs)
    return sum((l1_hadamard_mse(x, r1, E) for x in xs), Fraction(0)) / (n * n)


# -- privacy and communication ---------------------------------------------------------------------

def l1_hadamard_ratio(x: Sequence[Any], x_prime: Sequence[Any], r1: Any, E: Any) -> Fraction:
    """max over messages of P[R(x) = m] / P[R(x') = m], exactly (both laws have full support since
    |<H(j), x>| <= r1 < r1 c).  Lemma 3.4.1(1): at most E = e^{eps0} on B_1(r1)."""
    p, q = l1_hadamard_law(x, r1, E), l1_hadamard_law(x_prime, r1, E)
    if set(p) != set(q):
        raise InvalidInputError("x and x_prime must pad to the same dimension")
    return max(p[m] / q[m] for m in p)


def l1_hadamard_worst_ratio(d: Any, r1: Any, E: Any) -> tuple[Fraction, tuple[Fraction, ...], tuple[Fraction, ...]]:
    """sup over x, x' in B_1(r1) of the likelihood ratio, with a pair attaining it.

    Every message probability is affine in t = <H_D(j), x>, a linear functional whose image of
    B_1(r1) is [-r1, r1] reached at the vertices +-r1 e_i (||H_D(j)||_inf = 1): a ratio of two
    positive affine functions of independent arguments is maximised at extreme points, so the sup
    over the ball is the max over vertex pairs, enumerated here (2d vertices).  Lemma 3.4.1(1) / App.
    B.2 gives E = e^{eps0}: the sup is attained.  d at most :data:`MAX_VERTEX_DIMENSION`."""
    d = _check_int(d, "d", 1)
    if d > MAX_VERTEX_DIMENSION:
        raise InvalidInputError(f"d must be at most {MAX_VERTEX_DIMENSION} (4 d^2 vertex pairs), got {d}")
    r1 = _check_radius(r1)
    vertices = [tuple(s * r1 if k == i else Fraction(0) for k in range(d)) for i in range(d) for s in (1, -1)]
    laws = [l1_hadamard_law(v, r1, E) for v in vertices]
    best = (Fraction(-1), vertices[0], vertices[0])
    for a, la in zip(vertices, laws):
        for b, lb in zip(vertices, laws):
            ratio = max(la[m] / lb[m] for m in la)
            if ratio > best[0]:
                best = (ratio, a, b)
    return best


def l1_hadamard_bits(d: Any, public_randomness: bool = False) -> int:
    """Bits of one message: log2(D) + 1 with private randomness (j and the sign), 1 when j is
    public (thesis Thm 3.4.1, Lemma 3.4.1(1))."""
    D = padded_dimension(d)
    if not isinstance(public_randomness, bool):
        raise WrongTypeError("public_randomness must be a bool")
    return 1 if public_randomness else D.bit_length()  # log2(D) + 1


def lp_ball_l1_radius(d: Any, r: Any, p: Any) -> Any:
    """The smallest r1 with B^d_p(r) inside B^d_1(r1): d^{1-1/p} r (Hoelder; tight at the constant
    vector r d^{-1/p} 1).  The corrected Remark 3.4.1 (docs/errata.md E-Thesis-Rem3.4.1): R^{l1}
    covers the l_p ball of radius r when run with this r1, with MSE <= r^2 d^{3-2/p} c^2.  p rational
    >= 1, r > 0; a sympy exact number (rational when d^{1-1/p} is, e.g. d = 8, p = 3/2 gives 2r)."""
    import sympy

    d = _check_int(d, "d", 1)
    r = _check_radius(r)
    p = to_fraction(p, "p")
    if p < 1:
        raise InvalidInputError(f"p must be >= 1, got {p}")
    return sympy.Integer(d) ** sympy.Rational(p.numerator - p.denominator, p.numerator) * sympy.Rational(
        r.numerator, r.denominator)


# -- float twins: vectorised sampler and aggregator -----------------------------------------------

def _fwht_rows(x: np.ndarray) -> np.ndarray:
    """H_D x_i for every row x_i (n x D, D a power of 2), O(n D log D), Sylvester order."""
    n, D = x.shape
    out = x.astype(np.float64, copy=True)
    h = 1
    while h < D:
        blocks = out.reshape(n, D // (2 * h), 2, h)
        a, b = blocks[:, :, 0, :].copy(), blocks[:, :, 1, :]
        blocks[:, :, 0, :] += b
        blocks[:, :, 1, :] = a - b
        h *= 2
    return out


def _float_params(r1: Any, E: Any) -> tuple[float, float]:
    r1f = to_float_input(r1, "r1")
    Ef = to_float_input(E, "E")
    if not r1f > 0:
        raise InvalidInputError(f"r1 must be > 0, got {r1f}")
    if not Ef > 1:
        raise InvalidInputError(f"E = e^eps0 must be > 1, got {Ef}")
    return r1f, (Ef + 1.0) / (Ef - 1.0)


def _float_inputs(x: Any) -> np.ndarray:
    arr = np.asarray(x, dtype=np.float64)
    if arr.ndim != 2 or arr.shape[0] < 1 or arr.shape[1] < 1:
        raise InvalidInputError(f"x must be an (n, d) array with n, d >= 1, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise InvalidInputError("x has a NaN or an infinite entry")
    if padded_dimension(arr.shape[1]) > MAX_FLOAT_DIMENSION:
        raise InvalidInputError(f"d = {arr.shape[1]} pads beyond {MAX_FLOAT_DIMENSION}")
    return arr


def l1_hadamard_sample_float(x: Any, r1: Any, E: Any, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Messages (j, s) of R^{l1}_{eps0} for the n rows of ``x`` (thesis Alg 3.4.1, eq. (3.13)), float64.

    Returns (j, s): int64 columns in 0..D-1 and int8 signs +-1.  Rows must lie in B_1(r1) up to a
    relative 1e-12 (InvalidInputError otherwise); E = e^{eps0} > 1 as a float."""
    if not isinstance(rng, np.random.Generator):
        raise WrongTypeError("rng must be a numpy.random.Generator")
    arr = _float_inputs(x)
    r1f, c = _float_params(r1, E)
    norms = np.abs(arr).sum(axis=1)
    if np.any(norms > r1f * (1 + 1e-12)):
        raise InvalidInputError(f"a row is outside B_1(r1): max ||x_i||_1 = {norms.max()!r} > r1 = {r1f!r}")
    n, d = arr.shape
    D = padded_dimension(d)
    padded = np.zeros((n, D))
    padded[:, :d] = arr
    j = rng.integers(0, D, size=n)
    t = _fwht_rows(padded)[np.arange(n), j]
    p_plus = np.clip(0.5 + t / (2.0 * r1f * c), 0.0, 1.0)
    s = np.where(rng.random(n) < p_plus, 1, -1).astype(np.int8)
    return j.astype(np.int64), s


def l1_hadamard_aggregate_float(j: Any, s: Any, d: Any, r1: Any, E: Any) -> np.ndarray:
    """A^{l1} of float messages: (r1 c / n) H_D w truncated to d, where w[k] = sum of the signs of the
    messages with column k (= (1/n) sum_i s_i r1 c H_D(j_i)); O(n + D log D)."""
    D = padded_dimension(d)
    r1f, c = _float_params(r1, E)
    j = np.asarray(j)
    s = np.asarray(s)
    if j.ndim != 1 or j.shape != s.shape or j.size == 0:
        raise InvalidInputError("j and s must be non-empty 1-d arrays of one length")
    if np.any(j < 0) or np.any(j >= D) or not np.all(np.isin(s, (-1, 1))):
        raise InvalidInputError(f"messages need 0 <= j < {D} and s = +-1")
    w = np.bincount(j.astype(np.int64), weights=s.astype(np.float64), minlength=D)
    return (r1f * c / j.size) * _fwht_rows(w[None, :])[0, : int(d)]
