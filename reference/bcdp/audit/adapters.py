"""White-box adapters: exact kernels of common finite mechanisms, and a goodness-of-fit test of counts.

A black-box audit (:mod:`bcdp.audit.sampling`, :mod:`bcdp.audit.confidence`) sees a sampler only
through its outputs.  When the sampler claims to implement a textbook mechanism, its kernel is known
from the parameters, and two questions can be asked: what are the exact privacy parameters of that
kernel (the exact constructors below return a :class:`~bcdp.core.spaces.Mechanism`, to be read by
:mod:`bcdp.bayesian.notions`), and do the sampler's counts fit that kernel (:func:`goodness_of_fit`).

Exact constructors take exact numbers (:func:`bcdp.core.numbers.to_fraction`: ints, Fractions,
strings such as ``"3/2"``; floats refused), so the privacy parameter enters through a rational
e^eps (or e^{-eps/sensitivity}) and every kernel entry is rational.  Their float twins (``*_float``)
take eps itself and return a numpy array (inputs x outputs), rows in the same order as the exact
kernel's, columns in the order of its outputs.

* Randomized response: Warner 1965 (JASA 60), k = 2; its k-ary form is the "direct encoding" of
  Wang, Blocki, Li and Jha 2017 (USENIX Security, "Locally differentially private protocols for
  frequency estimation"), Section 4: keep the input with probability e^eps / (e^eps + k - 1),
  otherwise report each other value with probability 1 / (e^eps + k - 1).
* Unary encoding: Wang et al. 2017, Section 4, "unary encoding".  The input v in {0..k-1} is
  encoded as the one-hot vector of k bits; each bit is reported as 1 with probability p if it is 1,
  and q if it is 0, independently.  Symmetric unary encoding (SUE: the basic one-time RAPPOR of
  Erlingsson, Pihur and Korolova 2014, CCS, on a one-hot encoding) has p = e^{eps/2} / (1 + e^{eps/2}),
  q = 1 - p; optimized unary encoding (OUE) has p = 1/2, q = 1 / (e^eps + 1).
* Geometric: the alpha-geometric mechanism of Ghosh, Roughgarden and Sundararajan 2009 (STOC,
  "Universally utility-maximizing privacy mechanisms"): output x + Z with
  P(Z = z) = (1 - alpha) / (1 + alpha) alpha^{|z|}, alpha = e^{-eps / sensitivity}, here restricted
  to the range [lo, hi] by clamping (as their range-restricted mechanism): the mass below lo is put
  on lo, the mass above hi on hi.
* Laplace: x + Laplace(scale) (Dwork, McSherry, Nissim and Smith 2006, TCC), binned by edges.

Goodness of fit (:func:`goodness_of_fit`): for each input, Pearson's chi-square test (Pearson 1900)
of its counts against its kernel row, after pooling the cells of small expected count (below
``MIN_EXPECTED`` = 5, the rule of thumb of Cochran 1954, Biometrics 10, "Some methods for
strengthening the common chi-square tests").  Pooling rule, which depends on the kernel and the
number of draws only (never on the counts, so the test keeps its level):

(G1) cells of probability 0 are dropped; if such a cell has a count, the counts are impossible under
     the kernel and the p-value is 0.0;
(G2) the remaining cells of expected count n p < 5 are pooled into one cell; if that pooled cell
     still has expected count < 5 and other cells remain, it is merged with the remaining cell of
     smallest expected count (the first in output order on ties);
(G3) with g cells left, the statistic is compared with chi-square on g - 1 degrees of freedom; a row
     left with one cell (g = 1), or without draws, has p-value 1 (nothing to test).

The per-input p-values are combined by Bonferroni: the reported p-value is min_x p_x times the number
of inputs, capped at 1.  So, as far as the chi-square approximation holds (asymptotically in the
draws), P(p-value <= a) <= a for counts drawn from the kernel.  The approximation is not a guarantee:
unlike the Clopper-Pearson bounds of :mod:`bcdp.audit.confidence`, this p-value is asymptotic.
"""

from __future__ import annotations

import itertools
import math
import numbers
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from bcdp.audit.confidence import CountAudit
from bcdp.core.errors import InvalidInputError, WrongTypeError
from bcdp.core.numbers import brief_number, to_float_input, to_fraction
from bcdp.core.spaces import Mechanism, ProductDomain

#: Largest number of outputs of an adapter kernel (2^12: unary encoding of k = 12 values).
MAX_OUTPUTS = 2 ** 12
#: Largest number of entries (inputs x outputs) of an exact adapter kernel (each is a Fraction).
MAX_EXACT_ENTRIES = 2 ** 20
#: Largest number of entries of a float adapter kernel (32 MB of float64).
MAX_FLOAT_ENTRIES = 2 ** 22
#: Largest k of unary encoding (its 2^k outputs are enumerated).
MAX_UNARY_K = 12
#: Pooling threshold of the chi-square test: cells of smaller expected count are pooled, (G2).
MIN_EXPECTED = 5
#: Tolerance on the row sums of a float kernel (exact kernels must sum to exactly 1).
FLOAT_ROW_TOLERANCE = 1e-9


# --- argument checks ----------------------------------------------------------------------------

def _integer(value: Any, name: str, lo: int | None = None, hi: int | None = None) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise WrongTypeError(f"{name} must be an integer, got {type(value).__name__} {value!r}")
    v = int(value)
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        bound = f">= {lo}" if hi is None else f"in [{lo}, {hi}]"
        raise InvalidInputError(f"{name} must be an integer {bound}, got {v}")
    return v


def _check_size(rows: int, cols: int, cap: int) -> None:
    if cols > MAX_OUTPUTS:
        raise InvalidInputError(f"the kernel would have {cols} outputs, beyond the cap of {MAX_OUTPUTS}")
    if rows * cols > cap:
        raise InvalidInputError(f"the kernel would have {rows} x {cols} = {rows * cols} entries, "
                                f"beyond the cap of {cap}")


def _exp_eps(value: Any, name: str = "exp_eps") -> Fraction:
    e = to_fraction(value, name)
    if e < 1:
        raise InvalidInputError(f"{name} = e^eps must be at least 1 (eps >= 0), got {brief_number(e)}")
    return e


def _eps_float(value: Any, name: str = "eps") -> float:
    eps = to_float_input(value, name, allow_inf=True)
    if eps < 0:
        raise InvalidInputError(f"{name} must be non-negative, got {value!r}")
    return eps


def _one_coordinate(values: Sequence[Any]) -> ProductDomain:
    return ProductDomain((tuple(values),))


# --- randomized response (Warner 1965; k-ary: Wang et al. 2017, direct encoding) --------------------

def randomized_response(exp_eps: Any, k: int = 2) -> Mechanism:
    """k-ary randomized response on {0..k-1} with e^eps = ``exp_eps`` given exactly (rational >= 1):
    P(y | x) = e^eps / (e^eps + k - 1) if y = x, else 1 / (e^eps + k - 1).  Its LDP epsilon is eps."""
    e = _exp_eps(exp_eps)
    k = _integer(k, "k", 2)
    _check_size(k, k, MAX_EXACT_ENTRIES)
    total = e + k - 1
    keep, other = e / total, 1 / total
    rows = tuple(tuple(keep if y == x else other for y in range(k)) for x in range(k))
    return Mechanism(_one_coordinate(range(k)), tuple(range(k)), rows)


def randomized_response_float(eps: Any, k: int = 2) -> np.ndarray:
    """Float twin of :func:`randomized_response` from eps (k x k array); evaluated as
    1 / (1 + (k - 1) e^{-eps}), which neither overflows nor cancels for large eps."""
    eps = _eps_float(eps)
    k = _integer(k, "k", 2)
    _check_size(k, k, MAX_FLOAT_ENTRIES)
    t = math.exp(-eps)
    den = 1 + (k - 1) * t
    out = np.full((k, k), t / den)
    np.fill_diagonal(out, 1 / den)
    return out


# --- unary encoding (Wang et al. 2017, Section 4; RAPPOR: Erlingsson et al. 2014) -------------------

def unary_encoding_outputs(k: int) -> tuple[tuple[int, ...], ...]:
    """The 2^k outputs of unary encoding: the bit tuples in lexicographic order, so that output m is
    the k bits of the integer m, most significant first (a sampler may report m instead of the tuple)."""
    k = _unary_k(k)
    return tuple(itertools.product((0, 1), repeat=k))


def _unary_k(k: Any) -> int:
    k = _integer(k, "k", 2)
    if k > MAX_UNARY_K:
        raise InvalidInputError(f"unary encoding of k = {k} values has 2^{k} = {2 ** k} outputs, "
                                f"beyond the cap of 2^{MAX_UNARY_K} = {2 ** MAX_UNARY_K}")
    return k


def unary_encoding(k: int, p: Any, q: Any) -> Mechanism:
    """Unary encoding of v in {0..k-1} (Wang et al. 2017, Section 4), exact: the one-hot bits of v,
    each reported as 1 with probability ``p`` if it is 1 and ``q`` if it is 0, independently.

    P(y | v) = prod_i P(y_i | [i = v]); outputs are :func:`unary_encoding_outputs` (k <= 12).  For
    0 < q < p < 1 its LDP epsilon is log(p (1 - q) / ((1 - p) q)) (Wang et al., Section 4)."""
    k = _unary_k(k)
    pf = to_fraction(p, "p")
    qf = to_fraction(q, "q")
    for name, v in (("p", pf), ("q", qf)):
        if not 0 <= v <= 1:
            raise InvalidInputError(f"{name} = {brief_number(v)} is not a probability in [0, 1]")
    outputs = unary_encoding_outputs(k)
    one_bit = {(1, 1): pf, (1, 0): 1 - pf, (0, 1): qf, (0, 0): 1 - qf}   # (input bit, output bit)
    rows = []
    for v in range(k):
        row = []
        for y in outputs:
            prob = Fraction(1)
            for i, bit in enumerate(y):
                prob *= one_bit[(int(i == v), bit)]
            row.append(prob)
        rows.append(tuple(row))
    return Mechanism(_one_coordinate(range(k)), outputs, tuple(rows))


def unary_encoding_parameters(variant: str, exp_eps: Any) -> tuple[Fraction, Fraction]:
    """Exact (p, q) of a unary-encoding variant from an exact e^eps: ``"oue"`` gives (1/2, 1/(e^eps + 1));
    ``"rappor"`` gives (s / (1 + s), 1 / (1 + s)) with s = e^{eps/2}, which must be rational (e^eps
    the square of a rational, e.g. 9 or 9/4), else the exact kernel is not rational and is refused."""
    e = _exp_eps(exp_eps)
    name = _variant(variant)
    if name == "oue":
        return Fraction(1, 2), 1 / (e + 1)
    num, den = math.isqrt(e.numerator), math.isqrt(e.denominator)
    if num * num != e.numerator or den * den != e.denominator:
        raise InvalidInputError(f"RAPPOR needs e^(eps/2) rational, but exp_eps = {brief_number(e)} "
                                f"is not the square of a rational")
    s = Fraction(num, den)
    return s / (1 + s), 1 / (1 + s)


def _variant(variant: Any) -> str:
    if variant not in ("rappor", "oue"):
        raise InvalidInputError(f"variant must be 'rappor' or 'oue', got {variant!r}")
    return str(variant)


def unary_encoding_float(k: int, eps: Any, variant: str) -> np.ndarray:
    """Float twin of :func:`unary_encoding` from eps and a variant (k x 2^k array, columns in the
    order of :func:`unary_encoding_outputs`): ``"rappor"`` p = e^{eps/2} / (1 + e^{eps/2}), q = 1 - p;
    ``"oue"`` p = 1/2, q = 1 / (e^eps + 1)."""
    k = _unary_k(k)
    eps = _eps_float(eps)
    if _variant(variant) == "rappor":
        t = math.exp(-eps / 2)
        p, q = 1 / (1 + t), t / (1 + t)
    else:
        t = math.exp(-eps)
        p, q = 0.5, t / (1 + t)
    bits = np.array(unary_encoding_outputs(k), dtype=bool)           # (2^k, k)
    out = np.empty((k, len(bits)))
    for v in range(k):
        factors = np.where(bits, q, 1 - q)
        factors[:, v] = np.where(bits[:, v], p, 1 - p)
        out[v] = np.prod(factors, axis=1)
    return out


# --- the geometric mechanism (Ghosh, Roughgarden and Sundararajan 2009), clamped to [lo, hi] ------

def _geometric_args(lo: Any, hi: Any, inputs: Sequence[Any], cap: int) -> tuple[int, int, list[int]]:
    lo = _integer(lo, "lo")
    hi = _integer(hi, "hi")
    if not lo < hi:
        raise InvalidInputError(f"the range needs lo < hi, got lo = {lo}, hi = {hi}")
    xs = [_integer(x, f"input {j}", lo, hi) for j, x in enumerate(inputs)]
    if not xs:
        raise InvalidInputError("the input set is empty")
    if len(set(xs)) != len(xs):
        raise InvalidInputError("the inputs must be distinct integers")
    _check_size(len(xs), hi - lo + 1, cap)
    return lo, hi, xs


def geometric(alpha: Any, lo: int, hi: int, inputs: Sequence[int]) -> Mechanism:
    """The alpha-geometric mechanism clamped to [lo, hi], exact (alpha = e^{-eps / sensitivity}, a
    rational in (0, 1)): for inputs x in [lo, hi] and outputs y in lo..hi,

    P(y | x) = (1 - alpha) / (1 + alpha) alpha^{|y - x|} for lo < y < hi, and
    P(lo | x) = P(Z <= lo - x) = alpha^{x - lo} / (1 + alpha), P(hi | x) = alpha^{hi - x} / (1 + alpha)
    (sums of geometric series).  Every entry is c_y alpha^{|y - x|}, so by the triangle inequality the
    LDP epsilon over the inputs is (max input - min input) eps / sensitivity."""
    a = to_fraction(alpha, "alpha")
    if not 0 < a < 1:
        raise InvalidInputError(f"alpha = e^(-eps/sensitivity) must lie in (0, 1), got {brief_number(a)}")
    lo, hi, xs = _geometric_args(lo, hi, inputs, MAX_EXACT_ENTRIES)
    c = (1 - a) / (1 + a)
    rows = []
    for x in xs:
        row = [c * a ** abs(y - x) for y in range(lo, hi + 1)]
        row[0] = a ** (x - lo) / (1 + a)
        row[-1] = a ** (hi - x) / (1 + a)
        rows.append(tuple(row))
    return Mechanism(_one_coordinate(xs), tuple(range(lo, hi + 1)), tuple(rows))


def geometric_float(alpha: Any, lo: int, hi: int, inputs: Sequence[int]) -> np.ndarray:
    """Float twin of :func:`geometric` (alpha a number in (0, 1); inputs x outputs lo..hi array)."""
    a = to_float_input(alpha, "alpha")
    if not 0 < a < 1:
        raise InvalidInputError(f"alpha = e^(-eps/sensitivity) must lie in (0, 1), got {alpha!r}")
    lo, hi, xs = _geometric_args(lo, hi, inputs, MAX_FLOAT_ENTRIES)
    x = np.array(xs, dtype=float)[:, None]
    y = np.arange(lo, hi + 1, dtype=float)[None, :]
    out = (1 - a) / (1 + a) * a ** np.abs(y - x)
    out[:, 0] = a ** (x[:, 0] - lo) / (1 + a)
    out[:, -1] = a ** (hi - x[:, 0]) / (1 + a)
    return out


# --- binned Laplace (Dwork, McSherry, Nissim and Smith 2006) ----------------------------------------

def binned_laplace_float(inputs: Sequence[Any], scale: Any, edges: Sequence[Any]) -> np.ndarray:
    """P(x + Laplace(scale) in [e_j, e_{j+1})) for every input x and cell j (inputs x cells array).

    ``edges`` must start at -inf and end at inf (the cells cover the line, so each row is a pmf).
    Each cell is evaluated on the side of x it lies on, as (1/2) e^{-u/b} (1 - e^{-(v-u)/b}) with
    expm1 for a cell [x + u, x + v), 0 <= u < v (mirrored on the left), and 1 - (1/2) e^{-u/b} -
    (1/2) e^{-v/b} for the cell containing x: no cancellation in the tails."""
    b = to_float_input(scale, "scale")
    if not b > 0:
        raise InvalidInputError(f"scale must be positive, got {scale!r}")
    e = np.array([to_float_input(v, f"edge {j}", allow_inf=True) for j, v in enumerate(edges)])
    if e.ndim != 1 or len(e) < 2 or np.any(np.diff(e) <= 0):
        raise InvalidInputError("bin edges must be at least two increasing numbers")
    if e[0] != -math.inf or e[-1] != math.inf:
        raise InvalidInputError("bin edges must start at -inf and end at inf, so that each row sums to 1")
    xs = np.array([to_float_input(x, f"input {j}") for j, x in enumerate(inputs)])
    if xs.size == 0:
        raise InvalidInputError("the input set is empty")
    _check_size(len(xs), len(e) - 1, MAX_FLOAT_ENTRIES)
    lo = (e[None, :-1] - xs[:, None]) / b        # cell [x + b lo, x + b hi), in units of the scale
    hi = (e[None, 1:] - xs[:, None]) / b
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):   # discarded branches
        right = 0.5 * np.exp(-lo) * -np.expm1(-(hi - lo))            # 0 <= lo
        left = 0.5 * np.exp(hi) * -np.expm1(-(hi - lo))              # hi <= 0
        middle = 1 - 0.5 * np.exp(lo) - 0.5 * np.exp(-hi)            # lo < 0 < hi
    return np.where(lo >= 0, right, np.where(hi <= 0, left, middle))


# --- goodness of fit --------------------------------------------------------------------------------

def kernel_array(kernel: Any, shape: tuple[int, int]) -> np.ndarray:
    """The kernel as float probabilities, after checking its shape, entries and row sums (exactly for
    an all-exact kernel, to ``FLOAT_ROW_TOLERANCE`` when some entry is a float)."""
    if isinstance(kernel, Mechanism):
        kernel = kernel.kernel
    rows = kernel.tolist() if isinstance(kernel, np.ndarray) else kernel
    try:
        rows = [list(r) for r in rows]
    except TypeError as exc:
        raise InvalidInputError("the kernel must be a table: one row of probabilities per input") from exc
    if len(rows) != shape[0] or any(len(r) != shape[1] for r in rows):
        widths = sorted({len(r) for r in rows})
        raise InvalidInputError(f"the kernel must have shape {shape} (inputs x cells), got {len(rows)} rows "
                                f"of {' or '.join(map(str, widths)) or 0} entries")
    exact = True
    values: list[list[Any]] = []
    for i, row in enumerate(rows):
        out = []
        for j, v in enumerate(row):
            if isinstance(v, (float, np.floating)):
                exact = False
                v = to_float_input(v, f"kernel[{i}][{j}]")
            elif isinstance(v, numbers.Integral) and not isinstance(v, (bool, np.bool_)):
                v = Fraction(int(v))
            else:
                v = to_fraction(v, f"kernel[{i}][{j}]")
            if v < 0:
                raise InvalidInputError(f"kernel[{i}][{j}] is negative ({v})")
            out.append(v)
        values.append(out)
    for i, row in enumerate(values):
        if exact:
            total = sum(row, Fraction(0))
            if total != 1:
                raise InvalidInputError(f"kernel row {i} sums to {brief_number(total)}, not exactly 1")
        else:
            total = math.fsum(float(v) for v in row)
            if abs(total - 1) > FLOAT_ROW_TOLERANCE:
                raise InvalidInputError(f"kernel row {i} sums to {total!r}, not 1 within {FLOAT_ROW_TOLERANCE}")
    return np.array([[float(v) for v in row] for row in values], dtype=float).reshape(shape)


def _pooled_cells(expected: np.ndarray) -> list[list[int]]:
    """(G2): groups of cell indices (cells of positive probability only), in output order."""
    small = [j for j in range(len(expected)) if expected[j] < MIN_EXPECTED]
    groups = [[j] for j in range(len(expected)) if expected[j] >= MIN_EXPECTED]
    if small:
        if sum(expected[j] for j in small) < MIN_EXPECTED and groups:
            target = min(range(len(groups)), key=lambda g: (expected[groups[g][0]], groups[g][0]))
            groups[target] = sorted(groups[target] + small)
        else:
            groups.append(small)
    return sorted(groups)


def row_p_values(audit: CountAudit, kernel: Any) -> np.ndarray:
    """(G1)-(G3): one chi-square p-value per input (0.0 for a count in a cell of probability 0)."""
    from scipy.stats import chisquare

    if not isinstance(audit, CountAudit):
        raise WrongTypeError(f"audit must be a CountAudit, got {type(audit).__name__}")
    counts = np.asarray(audit.counts)
    probs = kernel_array(kernel, counts.shape)
    out = np.ones(counts.shape[0])
    for i in range(counts.shape[0]):
        n = int(counts[i].sum())
        zero = probs[i] == 0
        if np.any(counts[i][zero] > 0):
            out[i] = 0.0
            continue
        keep = np.flatnonzero(~zero)
        if n == 0:
            continue
        p = probs[i][keep]
        groups = _pooled_cells(n * p)
        if len(groups) < 2:
            continue
        obs = np.array([counts[i][keep[g]].sum() for g in groups], dtype=float)
        mass = np.array([p[g].sum() for g in groups])
        out[i] = float(chisquare(obs, n * mass / mass.sum()).pvalue)
    return out


def goodness_of_fit(audit: CountAudit, kernel: Any) -> float:
    """p-value of "the counts of ``audit`` were drawn from ``kernel``" (rows: the audit's inputs, in
    order; columns: its output cells, in order; floats, or exact numbers such as Fractions, or a
    :class:`~bcdp.core.spaces.Mechanism`): per-input chi-square tests (G1)-(G3), combined by
    Bonferroni, min_x p_x times the number of inputs, capped at 1.  Asymptotic (module docstring).

    Refused (:class:`InvalidInputError`): a kernel of another shape, a negative or non-finite entry,
    a row not summing to 1 (exactly when every entry is exact, within ``FLOAT_ROW_TOLERANCE`` when
    some entry is a float; such a row is then renormalised).  A count in a cell of probability 0
    gives 0.0 (impossible under the kernel)."""
    p = row_p_values(audit, kernel)
    if p.size == 0:
        raise InvalidInputError("the audit has no inputs")
    return float(min(1.0, float(p.min()) * len(p)))
