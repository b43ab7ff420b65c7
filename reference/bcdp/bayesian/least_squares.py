"""Algorithm 3 of the BCDP paper: least-squares regression under delta-BCDP and eps-LDP (Sec. 5).

BCDP paper, arXiv:2410.18404: Sec. 5 (eqs. 20-21, Assumption 2, Algorithm 3, Theorem 3) and its
proof in App. C.1 (eqs. 73-77).

Data model (Sec. 5, eq. (20), Assumption 2 and the paragraph after Algorithm 3)
----------------------------------------------------------------------------
User i holds x^(i) = [z^(i); l^(i)] in [-1, 1]^d (Assumption 2): a feature vector
z^(i) in [-1, 1]^(d-1) and a label l^(i) in [-1, 1].  The *whole* vector, label included, is
privatised by Mechanism 1 (every coordinate, the label too, has a BCDP demand delta_i); the
paper puts the label in the **last** coordinate because Assumption 1 (Sec. 4) is not required
of coordinate d (Sec. 5, after Algorithm 3: "we position the label as the last coordinate").
Since Mechanism 1 needs the coordinates sorted by non-decreasing demand (Sec. 4, before
Assumption 1), the label last means the label has the *largest* demand (it is the least
protected coordinate).  The paper does
not say what to do otherwise; here the caller passes ``order`` (the sorted positions, as
:attr:`bcdp.bayesian.allocation.BudgetAllocation.order`, indices into [z_1, ..., z_{d-1}, l]) and, by
default, an order that does not put the label last is refused (``require_label_last=False``
lifts this; then Assumption 1 must also hold for the label, which the paper calls unreasonable
for regression, Sec. 5 after Algorithm 3).  The loss is l(theta, x) = (1/2)(theta^T z - l)^2 (eq. 20),
f(theta) = (1/n) sum_i l(theta, x^(i)) (eq. 20), Theta is a compact convex set; here Theta is
the l2 ball {|theta| <= R}.

The surrogate (Algorithm 3; eq. (74))
------------------------------------
Each user sends two independent copies x^(i,1), x^(i,2) = M_mean(x^(i), c/2) (budgets halved:
LDP/CDP compose, BCDP does not: proof of Theorem 3, App. C.1).  The server forms

    f_hat(theta) = (1/2n) sum_i ( theta^T z^(i,1) z^(i,2)^T theta - 2 theta^T l^(i,1) z^(i,2) ),   (74)

i.e. f_hat(theta) = theta^T A_hat theta - 2 b_hat^T theta with

    A_hat = sym( (1/2n) sum_i z^(i,1) z^(i,2)^T ),     b_hat = (1/2n) sum_i l^(i,1) z^(i,2)

(sym(M) = (M + M^T)/2 changes nothing in theta^T M theta).  Because the copies are independent
and M_mean is unbiased (with the corrected constant of Mechanism 2, see bcdp.bayesian.mechanisms),
E[z^(i,1) z^(i,2)^T] = z z^T and E[l^(i,1) z^(i,2)] = l z, so E[f_hat(theta)] = f(theta) -
(1/2n) sum_i (l^(i))^2, which is eq. (73): the paper's "unbiased" (eq. 77) is for f with the
theta-free constant dropped (App. C.1, eq. (73)).  We also return the unbiased constant
const_hat = (1/2n) sum_i l^(i,1) l^(i,2), with which E[f_hat(theta)] = f(theta) of eq. (20)
exactly; it does not move the minimiser.

OPT (Algorithm 3 calls it "any convex optimization algorithm", Sec. 5)
--------------------------------------------------------------------
A_hat is a product of two independent noisy copies and is in general **indefinite** (it is not
a Gram matrix), so f_hat is not convex and a convex solver is not guaranteed to reach its
minimum over Theta, which the proof needs (eqs. (75)-(76)).  For Theta an l2 ball this is the
trust-region subproblem, solved here exactly (globally) by :func:`trust_region_subproblem`.
(For a general convex Theta, e.g. a box, minimising an indefinite quadratic is NP-hard.)

Vectorisation: no Python loop over users; :func:`privatize_twice` and :func:`surrogate_from_copies`
accept leading batch dimensions (independent repetitions).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from bcdp.bayesian.mechanisms import (
    Channel,
    duchi_l2_constant,
    m_mean,
    paper_weights,
    stage_budgets,
)
from bcdp.core.errors import InvalidInputError
from bcdp.core.numbers import to_float_input

__all__ = [
    "Quadratic",
    "TRSResult",
    "asymptotic_excess_risk",
    "check_data",
    "excess_risk_samples",
    "least_squares_objective",
    "m_mean_moments",
    "private_least_squares",
    "privatize_twice",
    "surrogate_from_copies",
    "surrogate_mean",
    "surrogate_objective",
    "surrogate_variance",
    "trust_region_subproblem",
]


# -- quadratics and the trust-region subproblem --------------------------------------------------

@dataclass(frozen=True)
class Quadratic:
    """q(theta) = theta^T A theta - 2 b^T theta + const (A symmetric, shape (p, p))."""

    A: np.ndarray
    b: np.ndarray
    const: float = 0.0

    def __call__(self, theta: np.ndarray) -> np.ndarray | float:
        """Value at ``theta`` (shape (p,) or (m, p) for m points)."""
        t = np.asarray(theta, dtype=float)
        val = np.einsum("...i,ij,...j->...", t, self.A, t) - 2 * t @ self.b + self.const
        return float(val) if np.ndim(val) == 0 else val

    def gradient(self, theta: np.ndarray) -> np.ndarray:
        return 2 * (self.A @ np.asarray(theta, dtype=float) - self.b)

    def minimize_on_ball(self, radius: float) -> TRSResult:
        return trust_region_subproblem(self.A, self.b, radius)


@dataclass(frozen=True)
class TRSResult:
    """Global minimiser of theta^T A theta - 2 b^T theta over |theta| <= R, with its certificate.

    ``lam`` is the multiplier: (A + lam I) theta = b, lam >= 0, lam (R - |theta|) = 0 and
    A + lam I positive semidefinite -- necessary and sufficient for global optimality
    (Gay 1981; More and Sorensen 1983).  ``case`` is "interior", "boundary" or "hard".
    """

    theta: np.ndarray
    lam: float
    case: str
    value: float


def _sym(A: np.ndarray) -> np.ndarray:
    A = np.asarray(A, dtype=float)
    if A.ndim != 2 or A.shape[0] != A.shape[1]:
        raise InvalidInputError(f"A must be square, got shape {A.shape}")
    return (A + A.T) / 2


def trust_region_subproblem(A: np.ndarray, b: np.ndarray, radius: float) -> TRSResult:
    """Exact global solution of min theta^T A theta - 2 b^T theta s.t. |theta|_2 <= radius.

    A is symmetrised first.  With A = Q diag(mu) Q^T (mu ascending) and beta = Q^T b:

    * interior: mu_1 > 0 and |A^{-1} b| <= R  ->  theta = A^{-1} b, lam = 0;
    * boundary: theta(lam) = (A + lam I)^{-1} b with lam > max(0, -mu_1) the root of the secular
      equation 1/R - 1/|theta(lam)| = 0 (decreasing in lam; bracketed in
      (max(0, -mu_1), |b|/R - mu_1]) found by Brent's method;
    * hard case: b (numerically) orthogonal to the bottom eigenspace, mu_1 <= 0 and
      |theta(-mu_1)| <= R on the complement: lam = -mu_1 and theta = theta_rest + tau q_1 with
      tau = sqrt(R^2 - |theta_rest|^2) (either sign is optimal; + is returned).
    """
    from scipy.optimize import brentq  # lazy: importing the module does not load scipy

    A = _sym(A)
    b = np.asarray(b, dtype=float).reshape(-1)
    p = A.shape[0]
    if b.shape != (p,):
        raise InvalidInputError(f"b must have shape ({p},), got {b.shape}")
    R = to_float_input(radius, "radius", allow_inf=True)
    if not (math.isfinite(R) and R > 0):
        raise InvalidInputError("radius must be finite and positive")
    if not (np.all(np.isfinite(A)) and np.all(np.isfinite(b))):
        raise InvalidInputError("A and b must be finite")
    mu, Q = np.linalg.eigh(A)
    beta = Q.T @ b
    scale = max(float(np.max(np.abs(mu))), 1e-300)
    bnorm = float(np.linalg.norm(b))
    value = lambda th: float(th @ A @ th - 2 * b @ th)

    # interior solution
    if mu[0] > 1e-13 * scale:
        theta0 = Q @ (beta / mu)
        if np.linalg.norm(theta0) <= R:
            return TRSResult(theta0, 0.0, "interior", value(theta0))

    lam_low = max(0.0, -float(mu[0]))
    bottom = mu <= mu[0] + 1e-12 * scale  # the bottom eigenspace (numerical multiplicity)
    rest = ~bottom
    # hard case: b orthogonal to the bottom eigenspace and the rest of theta(lam_low) inside
    if mu[0] <= 0 and np.linalg.norm(beta[bottom]) <= 1e-13 * max(bnorm, scale * R):
        denom = mu[rest] + lam_low
        th_rest = np.zeros(p)
        th_rest[rest] = beta[rest] / denom
        nrest = float(np.linalg.norm(th_rest))
        if nrest <= R:
            coef = th_rest.copy()
            coef[np.argmax(bottom)] = math.sqrt(max(R * R - nrest * nrest, 0.0))  # first bottom vector
            theta = Q @ coef
            return TRSResult(theta, lam_low, "hard", value(theta))

    # boundary: root of psi(s) = 1/R - 1/|theta|, theta_i = beta_i/(base_i + s), s = lam - lam_low > 0.
    # Shifting by lam_low first keeps base_1 = 0 exact for mu_1 < 0, so that a root very close to
    # lam_low (the near-hard case) is resolved to full relative precision in s.
    base = mu - mu[0] if mu[0] < 0 else mu.copy()
    base[0] = 0.0 if mu[0] < 0 else base[0]
    nz = beta != 0

    def inv_norm(sh: float) -> float:
        with np.errstate(divide="ignore", invalid="ignore"):
            t = beta[nz] / (base[nz] + sh)
        if not np.all(np.isfinite(t)):
            return 0.0
        n2 = float(np.linalg.norm(t))
        return 1.0 / n2 if n2 > 0 else math.inf

    psi = lambda sh: 1.0 / R - inv_norm(sh)
    s_up = max(bnorm / R - float(mu[0]) - lam_low, 0.0)  # |theta| <= |b|/(mu_1 + lam) <= R beyond
    while psi(s_up) > 0:  # guard against rounding in the bracket
        s_up = s_up * 2 + 1e-300
    if psi(0.0) <= 0:  # |theta(lam_low)| <= R: only when lam_low = 0 (PSD, near-singular A)
        sh = 0.0
    else:
        sh = brentq(psi, 0.0, s_up, xtol=1e-300, rtol=4 * np.finfo(float).eps, maxiter=1000)
    lam = lam_low + sh
    with np.errstate(divide="ignore", invalid="ignore"):
        coef = np.where(nz, beta / (base + sh), 0.0)
    theta = Q @ coef
    nrm = float(np.linalg.norm(theta))
    if nrm > R:  # rounding
        theta *= R / nrm
    return TRSResult(theta, float(lam), "boundary", value(theta))


# -- data and objectives ----------------------------------------------------------------------------

def check_data(X: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Validate features X (n, p) and labels y (n,) in [-1, 1] (Assumption 2); batch dims allowed."""
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    if X.ndim < 2 or y.shape != X.shape[:-1]:
        raise InvalidInputError(f"X must be (..., n, p) and y (..., n); got {X.shape} and {y.shape}")
    if X.shape[-1] < 1 or X.shape[-2] < 1:
        raise InvalidInputError("need at least one user and one feature")
    if not (np.all(np.isfinite(X)) and np.all(np.isfinite(y))):
        raise InvalidInputError("X and y must be finite")
    if np.any(np.abs(X) > 1) or np.any(np.abs(y) > 1):
        raise InvalidInputError("Assumption 2: every coordinate of x = [z; l] must lie in [-1, 1]")
    return X, y


def least_squares_objective(X: np.ndarray, y: np.ndarray) -> Quadratic:
    """f of eq. (20) as a Quadratic: f(theta) = (1/2n) sum_i (theta^T z_i - l_i)^2."""
    X, y = check_data(X, y)
    if X.ndim != 2:
        raise InvalidInputError("least_squares_objective takes one data set (X of shape (n, p))")
    n = X.shape[0]
    return Quadratic(X.T @ X / (2 * n), X.T @ y / (2 * n), float(y @ y / (2 * n)))


def _resolve_order(order: Sequence[int] | None, d: int, require_label_last: bool) -> np.ndarray:
    if order is None:
        return np.arange(d)
    o = np.asarray(order, dtype=int)
    if sorted(o.tolist()) != list(range(d)):
        raise InvalidInputError(f"order must be a permutation of 0..{d - 1}, got {list(order)}")
    if require_label_last and o[-1] != d - 1:
        raise InvalidInputError(
            "the label (coordinate d-1 of [z; l]) is not last in the delta-sorted order; the paper "
            "requires it last (Sec. 5: Assumption 1 is not imposed on coordinate d).  Pass "
            "require_label_last=False if Assumption 1 also holds for the label.")
    return o


def privatize_twice(X: np.ndarray, y: np.ndarray, c_sorted: Sequence[float], rng: np.random.Generator, *,
                    order: Sequence[int] | None = None, channel: Channel | None = None,
                    require_label_last: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """The users' side of Algorithm 3: two independent copies M_mean(x, c/2) of x = [z; l].

    ``c_sorted`` are the budgets of the full vector (length d = p + 1) in delta-sorted order
    (e.g. ``to_float`` of :attr:`BudgetAllocation.c_sorted`); ``order`` the sorted positions
    (indices into [z_1..z_p, l]; default identity, i.e. the data are already sorted with the label
    last).  Returns x_hat1, x_hat2 of shape (..., n, d) in the caller's coordinate order.
    """
    X, y = check_data(X, y)
    data = np.concatenate([X, y[..., None]], axis=-1)
    d = data.shape[-1]
    o = _resolve_order(order, d, require_label_last)
    c = np.asarray(c_sorted, dtype=float)
    if c.shape != (d,):
        raise InvalidInputError(f"c_sorted must have d = p + 1 = {d} entries, got shape {c.shape}")
    half = c / 2
    flat = data.reshape(-1, d)[:, o]
    copies = []
    for _ in range(2):
        out = np.empty_like(flat)
        out[:, o] = m_mean(flat, half, rng, channel)
        copies.append(out.reshape(data.shape))
    return copies[0], copies[1]


def surrogate_from_copies(xhat1: np.ndarray, xhat2: np.ndarray, *, include_constant: bool = True
                          ) -> Quadratic | list[Quadratic]:
    """The server's f_hat of eq. (74) from the two copies (shape (n, d), or (..., n, d) -> a list
    of Quadratics in C order of the batch dims).  ``include_constant`` adds
    (1/2n) sum l^(i,1) l^(i,2), making E[f_hat] = f of eq. (20) (without it: f of eq. (73))."""
    x1 = np.asarray(xhat1, dtype=float)
    x2 = np.asarray(xhat2, dtype=float)
    if x1.shape != x2.shape or x1.ndim < 2 or x1.shape[-1] < 2:
        raise InvalidInputError("the copies must have equal shapes (..., n, d) with d >= 2")
    n = x1.shape[-2]
    z1, l1 = x1[..., :-1], x1[..., -1]
    z2, l2 = x2[..., :-1], x2[..., -1]
    M = np.einsum("...ni,...nj->...ij", z1, z2) / (2 * n)
    A = (M + np.swapaxes(M, -1, -2)) / 2
    b = np.einsum("...n,...ni->...i", l1, z2) / (2 * n)
    const = np.einsum("...n,...n->...", l1, l2) / (2 * n) if include_constant else np.zeros(x1.shape[:-2])
    if x1.ndim == 2:
        return Quadratic(A, b, float(const))
    p = A.shape[-1]
    A2, b2, c2 = A.reshape(-1, p, p), b.reshape(-1, p), np.asarray(const).reshape(-1)
    return [Quadratic(A2[k], b2[k], float(c2[k])) for k in range(A2.shape[0])]


def surrogate_objective(X: np.ndarray, y: np.ndarray, c_sorted: Sequence[float], rng: np.random.Generator, *,
                        order: Sequence[int] | None = None, channel: Channel | None = None,
                        include_constant: bool = True, require_label_last: bool = True) -> Quadratic:
    """f_hat of Algorithm 3 / eq. (74) for one data set (X (n, p), y (n,)): privatise twice, combine."""
    X, y = check_data(X, y)
    if X.ndim != 2:
        raise InvalidInputError("surrogate_objective takes one data set; use privatize_twice for batches")
    x1, x2 = privatize_twice(X, y, c_sorted, rng, order=order, channel=channel,
                             require_label_last=require_label_last)
    return surrogate_from_copies(x1, x2, include_constant=include_constant)


def private_least_squares(X: np.ndarray, y: np.ndarray, c_sorted: Sequence[float], radius: float,
                          rng: np.random.Generator, *, order: Sequence[int] | None = None,
                          channel: Channel | None = None, require_label_last: bool = True,
                          return_details: bool = False):
    """Algorithm 3: theta_hat = argmin over |theta| <= radius of f_hat (exact global TRS solution;
    the paper's OPT(f_hat, 1/n) tolerance is met with room).  With ``return_details`` returns
    (theta_hat, f_hat, TRSResult)."""
    fhat = surrogate_objective(X, y, c_sorted, rng, order=order, channel=channel,
                               require_label_last=require_label_last)
    res = fhat.minimize_on_ball(radius)
    return (res.theta, fhat, res) if return_details else res.theta


# -- exact moments (Mechanism 2 as channel) --------------------------------------------------------

def m_mean_moments(x: np.ndarray, c_sorted: Sequence[float], *, constant: str = "unbiased"
                   ) -> tuple[np.ndarray, np.ndarray]:
    """Exact E[nu_hat] and E[nu_hat nu_hat^T] of Mechanism 1 over Mechanism 2 (rows of ``x``, sorted
    coordinates), shapes (n, d) and (n, d, d).

    Stage k (0-based) outputs Y^k = Z on the sphere of radius B_k in R^{d-k} with E[Y^k] =
    kappa x_{k:} (kappa = 1 for the unbiased constant, 2 for the paper's, bcdp.bayesian.mechanisms_theory)
    and E[Y^k Y^k^T] = (B_k^2/(d-k)) I: u u^T is invariant under u -> -u, which maps one hemisphere
    onto the other, so the hemisphere's second moment equals the sphere's, I/(d-k).  The stages
    are independent and nu_hat = sum_k D_k Y^k with D_k = diag(w_k / sum_{j<=i} w_j)_{i>=k}, so
    E[nu nu^T] = sum_k D_k (B_k^2/(d-k) I - kappa^2 x_k: x_k:^T) D_k^T + E[nu] E[nu]^T.
    """
    x = np.atleast_2d(np.asarray(x, dtype=float))
    n, d = x.shape
    inc = stage_budgets(c_sorted)
    if inc.size != d:
        raise InvalidInputError("c_sorted and x disagree on d")
    kappa = {"unbiased": 1.0, "paper": 2.0}[constant]
    w = paper_weights(c_sorted)
    den = np.cumsum(w)
    mean = np.zeros((n, d))
    cov = np.zeros((n, d, d))
    for k in range(d):
        if inc[k] <= 0:
            continue
        m = d - k
        B = duchi_l2_constant(m, float(inc[k]), math.sqrt(m), constant)
        coef = np.zeros(d)
        coef[k:] = w[k] / den[k:]
        xs = np.zeros((n, d))
        xs[:, k:] = x[:, k:]
        mean += kappa * coef * xs
        Dk = np.diag(coef)
        inner = (B * B / m) * np.diag((np.arange(d) >= k).astype(float)) - kappa ** 2 * np.einsum("ni,nj->nij", xs, xs)
        cov += Dk @ inner @ Dk
    second = cov + np.einsum("ni,nj->nij", mean, mean)
    return mean, second


def _bilinear_matrix(theta: np.ndarray, include_constant: bool) -> np.ndarray:
    """M with f_hat contribution of user i = (1/2) x_hat1^T M x_hat2 (x = [z; l])."""
    p = theta.size
    M = np.zeros((p + 1, p + 1))
    M[:p, :p] = np.outer(theta, theta)
    M[p, :p] = -2 * theta
    M[p, p] = 1.0 if include_constant else 0.0
    return M


def _sorted_moments(X, y, c_sorted, order, constant):
    X, y = check_data(X, y)
    data = np.concatenate([X, y[:, None]], axis=1)
    d = data.shape[1]
    o = _resolve_order(order, d, False)
    half = np.asarray(c_sorted, dtype=float) / 2
    mean_s, second_s = m_mean_moments(data[:, o], half, constant=constant)
    inv = np.argsort(o)
    return mean_s[:, inv], second_s[:, inv][:, :, inv]


def surrogate_mean(X: np.ndarray, y: np.ndarray, c_sorted: Sequence[float], theta: np.ndarray, *,
                   order: Sequence[int] | None = None, include_constant: bool = True,
                   constant: str = "unbiased") -> float:
    """Closed-form E[f_hat(theta)] = (1/2n) sum_i m_i^T M m_i, m_i = E[M_mean(x_i, c/2)] (copies
    independent).  Equals f(theta) (eq. 20) for the unbiased channel with ``include_constant``."""
    mean, _ = _sorted_moments(X, y, c_sorted, order, constant)
    M = _bilinear_matrix(np.asarray(theta, dtype=float), include_constant)
    return float(np.einsum("ni,ij,nj->", mean, M, mean) / (2 * mean.shape[0]))


def surrogate_variance(X: np.ndarray, y: np.ndarray, c_sorted: Sequence[float], theta: np.ndarray, *,
                       order: Sequence[int] | None = None, include_constant: bool = True,
                       constant: str = "unbiased") -> tuple[float, float]:
    """Exact Var[f_hat(theta)] and an almost-sure bound on each user's term |(1/2) x1^T M x2|.

    Var = (1/4n^2) sum_i (tr(M S_i M^T S_i) - (m_i^T M m_i)^2), S_i = E[x_hat x_hat^T]: for
    independent copies E[(x1^T M x2)^2] = E[x1^T M S M^T x1] = tr(M S M^T S).  Bound: every
    coordinate of nu_hat is a convex combination of channel coordinates, so |nu_hat|_inf <=
    max_k B_k and |x_hat|_2 <= sqrt(d) max_k B_k.
    """
    theta = np.asarray(theta, dtype=float)
    mean, second = _sorted_moments(X, y, c_sorted, order, constant)
    n, d = mean.shape
    M = _bilinear_matrix(theta, include_constant)
    t1 = np.einsum("ij,njk,lk,nli->n", M, second, M, second)
    t2 = np.einsum("ni,ij,nj->n", mean, M, mean) ** 2
    var = float(np.sum(t1 - t2) / (4 * n * n))
    half = np.asarray(c_sorted, dtype=float) / 2
    inc = stage_budgets(half)
    Bmax = max(duchi_l2_constant(d - k, float(inc[k]), math.sqrt(d - k), constant)
               for k in range(d) if inc[k] > 0)
    bound = 0.5 * float(np.linalg.norm(M, 2)) * d * Bmax ** 2
    return var, bound


def excess_risk_samples(X: np.ndarray, y: np.ndarray, c_sorted: Sequence[float], radius: float, reps: int,
                        rng: np.random.Generator, *, order: Sequence[int] | None = None,
                        channel: Channel | None = None, max_rows: int = 2_000_000) -> np.ndarray:
    """f(theta_hat) - f* for ``reps`` independent runs of Algorithm 3 on one data set (f* = min of
    f over the ball, by :func:`trust_region_subproblem`).  Users are privatised in chunks of at
    most ``max_rows`` rows (all repetitions of a chunk in one vectorised call)."""
    X, y = check_data(X, y)
    f = least_squares_objective(X, y)
    fstar = f.minimize_on_ball(radius).value + f.const
    n = X.shape[0]
    per_chunk = max(1, max_rows // n)
    out = np.empty(reps)
    done = 0
    while done < reps:
        m = min(per_chunk, reps - done)
        x1, x2 = privatize_twice(np.broadcast_to(X, (m,) + X.shape), np.broadcast_to(y, (m,) + y.shape),
                                 c_sorted, rng, order=order, channel=channel)
        for k, q in enumerate(surrogate_from_copies(x1, x2)):
            out[done + k] = f(q.minimize_on_ball(radius).theta) - fstar
        done += m
    return np.maximum(out, 0.0)


def asymptotic_excess_risk(X: np.ndarray, y: np.ndarray, c_sorted: Sequence[float], *,
                           order: Sequence[int] | None = None) -> float:
    """Local (delta-method) prediction of E[f(theta_hat)] - f* for a fixed data set whose
    unconstrained least-squares solution theta* = A^{-1} b lies strictly inside the ball (not in
    the paper; used to explain the measured rate).

    With f = theta^T A theta - 2 b^T theta + const (A = Z^T Z/2n), theta_hat - theta* ~ -A^{-1} g,
    g = (A_hat - A) theta* - (b_hat - b), so f(theta_hat) - f* ~ g^T A^{-1} g and
    E ~ tr(A^{-1} Cov g).  Each coordinate of g is a sum over users of bilinear forms
    x_hat1^T G_j x_hat2 / 2n with G_j = (e_j t^T + t e_j^T)/2 - e_l e_j^T (t = [theta*; 0]), whose
    covariance is exact from the second moments (see :func:`surrogate_variance`).  Cov g = O(1/n),
    so for a fixed data distribution the excess risk decays like 1/n.
    """
    X, y = check_data(X, y)
    f = least_squares_objective(X, y)
    theta = np.linalg.solve(f.A, f.b)
    mean, second = _sorted_moments(X, y, c_sorted, order, "unbiased")
    n, d = mean.shape
    p = d - 1
    t = np.append(theta, 0.0)
    G = np.zeros((p, d, d))
    for j in range(p):
        e = np.zeros(d)
        e[j] = 1.0
        G[j] = (np.outer(e, t) + np.outer(t, e)) / 2
        G[j, p, j] -= 1.0
    second_moment = np.einsum("jab,nbc,kdc,nda->jk", G, second, G, second)
    means = np.einsum("na,jab,nb->nj", mean, G, mean)
    cov = (second_moment - means.T @ means) / (4 * n * n)
    return float(np.trace(np.linalg.solve(f.A, cov)))
