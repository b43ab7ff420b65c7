"""Communication counts of thesis Ch. 4, exact: the histogram trick (Sec. 4.3.1.2, after [MT20]), the
28096x saving of Sec. 4.6, and the parameter count of the MNIST model of Table 4.1.

* Histogram trick: the s outputs of the same b-bit randomizer are sent as their histogram, an element
  of A^s_B = {(n_1..n_B) : sum n_j = s, n_j >= 0}, B = 2^b; |A^s_B| = C(s+B-1, s) <= (e(s+B-1)/s)^s, so
  ceil(log2 C(s+B-1, s)) bits suffice (the thesis' bound s(log e + log((s+B-1)/s)) is the log of the
  right-hand side).
* Sec. 4.6: R^{l_inf} with m = 1, s = 1 sends ceil(log2 d) + 1 bits per gradient against 32 d for full
  precision: a factor 32 d/(ceil(log2 d) + 1), = 28096 exactly at d = 13170.
* Table 4.1 (conv 16 filters 8x8 stride 2, max-pool 2x2, conv 32 filters 4x4 stride 2, max-pool 2x2,
  fully connected 32, softmax 10; 28x28x1 MNIST input): :func:`table41_parameter_counts` counts the
  parameters (weights + biases) for each reading of the unstated choices (padding of each layer,
  pooling stride 1 or 2).  None gives the printed d = 13170 (the readings give 10650 ... 59802; the
  [PTS20] model, SAME / pool stride 1 / VALID / pool stride 1, has 26010).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

from bcdp.core.errors import InvalidInputError
from bcdp.core.intervals import arb_precision, ball_of


def _count(name: str, value, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInputError(f"{name} must be an integer, got {value!r}")
    if value < minimum:
        raise InvalidInputError(f"{name} must be >= {minimum}, got {value}")
    return value


def histogram_count(s: int, B: int) -> int:
    """|A^s_B| = C(s + B - 1, s): histograms of s outputs on B bins (Sec. 4.3.1.2), exact."""
    s, B = _count("s", s), _count("B", B)
    return math.comb(s + B - 1, s)


def histogram_bits(s: int, b: int) -> int:
    """ceil(log2 |A^s_B|) with B = 2^b: the bits of the histogram trick (exact integer arithmetic)."""
    b = _count("b", b)
    return (histogram_count(s, 2 ** b) - 1).bit_length()


def histogram_bound_holds(s: int, B: int) -> bool:
    """Decides C(s+B-1, s) <= (e (s+B-1)/s)^s (Sec. 4.3.1.2) with arb balls (True/False only when the
    enclosure decides; raises InvalidInputError if 400 bits cannot, which an exact tie would need:
    e^s is irrational, so there are none)."""
    count = histogram_count(s, B)
    for prec in (64, 128, 400):
        with arb_precision(prec):
            rhs = (ball_of(1).exp() * ball_of(Fraction(s + B - 1, s))) ** s
            lhs = ball_of(count)
            if lhs <= rhs:
                return True
            if lhs > rhs:
                return False
    raise InvalidInputError(f"could not decide the histogram bound at s={s}, B={B}")


def bit_saving(d: int) -> Fraction:
    """32 d / (ceil(log2 d) + 1): full-precision bits over the bits of R^{l_inf} (m = s = 1), Sec. 4.6."""
    d = _count("d", d, 2)
    return Fraction(32 * d, (d - 1).bit_length() + 1)


def _out(size: int, kernel: int, stride: int, padding: str) -> int:
    return -(-size // stride) if padding == "SAME" else (size - kernel) // stride + 1


def table41_parameter_counts(input_size: int = 28) -> dict[tuple, tuple[int, int]]:
    """Parameters of Table 4.1's model for every reading (conv1 padding, pool1 padding, pool1 stride,
    conv2 padding, pool2 padding, pool2 stride) -> (side of the last feature map, d)."""
    input_size = _count("input_size", input_size)
    out = {}
    for p1, q1, r1, p2, q2, r2 in itertools.product(("SAME", "VALID"), ("SAME", "VALID"), (1, 2),
                                                    ("SAME", "VALID"), ("SAME", "VALID"), (1, 2)):
        h = _out(input_size, 8, 2, p1)
        h = _out(h, 2, r1, q1)
        h = _out(h, 4, 2, p2)
        h = _out(h, 2, r2, q2)
        if h < 1:
            continue
        d = (16 * 8 * 8 * 1 + 16) + (32 * 4 * 4 * 16 + 32) + (32 * h * h * 32 + 32) + (10 * 32 + 10)
        out[(p1, q1, r1, p2, q2, r2)] = (h, d)
    return out


__all__ = ["bit_saving", "histogram_bits", "histogram_bound_holds", "histogram_count", "table41_parameter_counts"]
