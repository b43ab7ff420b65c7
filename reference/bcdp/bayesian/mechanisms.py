"""The mechanisms of the BCDP paper as vectorised float64 samplers (Sec. 4, Mechanisms 1-2).

* :func:`duchi_l2` - Mechanism 2, the l2-ball channel of Duchi et al. [2013a], vectorised over users.
  For v in B2(r): K ~ Bern(e^a/(e^a+1)), S ~ Bern(1/2 + |v|/(2r)), v~ = (2S-1) r v/|v|, and
  Z ~ Uniform{z : |z| = B, (2K-1) z^T v~ > 0}.
  **Constant.**  E[Z | v] = B m_d (e^a-1)/(e^a+1) v / r with m_d = E|u_1| = Gamma(d/2) /
  (sqrt(pi) Gamma((d+1)/2)) for u uniform on the unit sphere (derived in
  :func:`bcdp.bayesian.mechanisms_theory.hemisphere_mean_factor`), so the channel is unbiased iff
      B = r (e^a+1)/(e^a-1) sqrt(pi) Gamma((d+1)/2) / Gamma(d/2).                      (unbiased)
  The paper prints B = sqrt(pi) d r (e^a+1)/(e^a-1) Gamma((d+1)/2)/Gamma(d/2+1), which is exactly
  twice that for every d (d Gamma(d/2)/Gamma(d/2+1) = 2): its output has mean 2v.  ``constant=
  "unbiased"`` (default) implements the corrected constant; ``"paper"`` the printed one (a bad
  twin kept for the checks; docs/errata.md).
* :func:`m_mean` - Mechanism 1, over any channel with the paper's interface
  ``channel(x_sub, budget, radius, rng)``: stage k applies the channel with budget c_k - c_{k-1}
  to x_{k:d} with radius sqrt(d-k+1); weights w_k = (c_k - c_{k-1})^2/(d-k+1); estimate
  nu_i = sum_{k<=i} w_k Y^k_{i+1-k} / sum_{k<=i} w_k.  Stages with a zero budget are skipped
  (their weight is 0).  A coordinate whose weights are all 0 (c_1 = ... = c_i = 0) gets no
  information and is estimated by 0, the centre of [-1, 1].
* :func:`private_mean` - Theorem 2's estimator: project (1/n) sum_j M_mean(x^(j), c) onto [-1,1]^d.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from bcdp.bayesian.exact_inputs import float_vector
from bcdp.core.errors import InvalidInputError, WrongTypeError
from bcdp.core.numbers import to_float_input

Channel = Callable[[np.ndarray, float, float, np.random.Generator], np.ndarray]


def _check_eps(eps: float) -> float:
    eps = to_float_input(eps, "eps", allow_inf=True)
    if not math.isfinite(eps) or eps <= 0:
        raise InvalidInputError(f"the channel needs a finite budget eps > 0 (got {eps})")
    return eps


def duchi_l2_constant(d: int, eps: float, radius: float, constant: str = "unbiased") -> float:
    """B of Mechanism 2: ``"unbiased"`` (corrected) or ``"paper"`` (as printed, = 2 x unbiased).

    Float inputs (:func:`bcdp.core.numbers.to_float_input`); ``d`` an integer >= 1.
    """
    # lazy: importing the samplers does not load scipy
    from scipy.special import gammaln

    if isinstance(d, bool) or not isinstance(d, (int, np.integer)):
        raise WrongTypeError(f"d must be an integer, got {d!r}")
    if d < 1:
        raise InvalidInputError("d must be >= 1")
    eps = _check_eps(eps)
    radius = to_float_input(radius, "radius")
    if not radius > 0:
        raise InvalidInputError("radius must be positive")
    coth = 1.0 / math.tanh(eps / 2.0)  # (e^a + 1)/(e^a - 1), stable for small and large a
    log_ratio = gammaln((d + 1) / 2.0) - gammaln(d / 2.0)
    unbiased = radius * coth * math.sqrt(math.pi) * math.exp(log_ratio)
    if constant == "unbiased":
        return unbiased
    if constant == "paper":
        return math.sqrt(math.pi) * d * radius * coth * math.exp(gammaln((d + 1) / 2.0) - gammaln(d / 2.0 + 1))
    raise InvalidInputError(f"constant must be 'unbiased' or 'paper', not {constant!r}")


def _duchi_l2_core(x: np.ndarray, eps: float, radius: float, rng: np.random.Generator,
                   constant: str) -> tuple[np.ndarray, np.ndarray]:
    """Row coefficients and Gaussian draws with Z_j = coef_j * g_j (shared by the samplers).

    u_j = g_j/|g_j| is uniform on the sphere; Z_j must lie in the hemisphere
    {z : (2K-1)(2S-1) z^T v_j > 0}, so u_j is reflected (u -> -u, a measure-preserving bijection
    between the open hemispheres) when it lies on the wrong side: coef_j = B s_j / |g_j| with
    s_j = (2K-1)(2S-1) sign(g_j^T v_j).  For v_j = 0, S is a fair coin independent of everything
    else, so the hemisphere's axis is irrelevant and Z_j is uniform on the whole sphere: s_j = 1.
    """
    x = np.asarray(x, dtype=float)
    if x.ndim != 2:
        raise InvalidInputError(f"x must be an (n, d) array, got shape {x.shape}")
    if not np.all(np.isfinite(x)):
        raise InvalidInputError("x contains NaN or infinite entries")
    n, d = x.shape
    B = duchi_l2_constant(d, eps, radius, constant)
    norms = np.sqrt(np.einsum("ij,ij->i", x, x))
    too_big = norms > radius * (1 + 1e-12)
    if too_big.any():
        bad = int(np.argmax(too_big))
        raise InvalidInputError(f"row {bad} has l2 norm {norms[bad]} > radius {radius}")
    p_keep = 1.0 / (1.0 + math.exp(-eps))  # e^a/(e^a+1) without overflow
    K = rng.random(n) < p_keep
    S = rng.random(n) < 0.5 + np.minimum(norms, radius) / (2 * radius)
    g = rng.standard_normal((n, d))
    side = np.einsum("ij,ij->i", g, x)
    sign = np.where(K == S, 1.0, -1.0) * np.where(side < 0, -1.0, 1.0)
    sign[norms == 0] = 1.0
    coef = (B * sign) / np.sqrt(np.einsum("ij,ij->i", g, g))
    return coef, g


def duchi_l2(x: np.ndarray, eps: float, radius: float, rng: np.random.Generator, *,
             constant: str = "unbiased") -> np.ndarray:
    """Mechanism 2 on every row of ``x`` (shape (n, d), rows in the l2 ball of ``radius``).

    Returns the (n, d) privatized rows.  Vectorised over rows: one (n, d) Gaussian draw,
    normalised to the sphere of radius B and reflected into the required hemisphere.
    """
    coef, g = _duchi_l2_core(x, eps, radius, rng, constant)
    return coef[:, None] * g


def duchi_l2_sum(x: np.ndarray, eps: float, radius: float, rng: np.random.Generator, *,
                 constant: str = "unbiased") -> np.ndarray:
    """sum_j Mechanism2(x_j): the same draws as :func:`duchi_l2`, summed over rows without
    materialising the (n, d) output (one matrix-vector product)."""
    coef, g = _duchi_l2_core(x, eps, radius, rng, constant)
    return coef @ g


def stage_budgets(c_sorted: Sequence[float]) -> np.ndarray:
    """Mechanism 1's stage budgets c_k - c_{k-1} (c_0 = 0) of a sorted float budget vector."""
    c = float_vector(c_sorted, "c")
    if c.size == 0:
        raise InvalidInputError("c must be a non-empty vector")
    if np.any(~np.isfinite(c)) or np.any(c < 0):
        raise InvalidInputError("c must be finite and non-negative")
    inc = np.diff(np.concatenate(([0.0], c)))
    if np.any(inc < -1e-12):
        raise InvalidInputError("c must be non-decreasing (sort the coordinates by delta first)")
    return np.maximum(inc, 0.0)


def paper_weights(c_sorted: Sequence[float]) -> np.ndarray:
    """w_k = (c_k - c_{k-1})^2 / (d - k + 1) (Mechanism 1)."""
    inc = stage_budgets(c_sorted)
    d = inc.size
    return inc ** 2 / (d - np.arange(d))


def m_mean(x: np.ndarray, c_sorted: Sequence[float], rng: np.random.Generator,
           channel: Channel | None = None) -> np.ndarray:
    """Mechanism 1 for every user (rows of ``x``, in [-1, 1]^d, coordinates sorted by delta).

    Returns the (n, d) array of per-user estimates nu_hat.  No loop over users; one loop over
    the d stages.
    """
    x = np.asarray(x, dtype=float)
    if x.ndim != 2:
        raise InvalidInputError(f"x must be (n, d), got shape {x.shape}")
    n, d = x.shape
    if np.any(np.abs(x) > 1):
        raise InvalidInputError("x must lie in [-1, 1]^d")
    inc = stage_budgets(c_sorted)
    if inc.size != d:
        raise InvalidInputError(f"c has {inc.size} entries but x has {d} coordinates")
    channel = channel or duchi_l2
    w = paper_weights(c_sorted)
    num = np.zeros((n, d))
    den = np.zeros(d)
    for k in range(d):
        if inc[k] <= 0:
            continue
        y = channel(x[:, k:], float(inc[k]), math.sqrt(d - k), rng)
        num[:, k:] += w[k] * y
        den[k:] += w[k]
    out = np.zeros((n, d))
    informed = den > 0
    out[:, informed] = num[:, informed] / den[informed]
    return out


def project_box(v: np.ndarray) -> np.ndarray:
    """Pi: Euclidean projection onto [-1, 1]^d (coordinate-wise clipping)."""
    return np.clip(v, -1.0, 1.0)


def private_mean(x: np.ndarray, c_sorted: Sequence[float], rng: np.random.Generator,
                 channel: Channel | None = None) -> np.ndarray:
    """Theorem 2's estimate Pi((1/n) sum_j M_mean(x^(j), c))."""
    return project_box(m_mean(x, c_sorted, rng, channel).mean(axis=0))
