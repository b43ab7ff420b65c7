"""Algorithm 1 (partial DP MWEM, M_l) and Theorem 12 / Lemma 13 of the partial DP paper
(Ghazi-Kumar-Manurangsi-Steinke, arXiv:2209.04053), Sec. 4.2.

Setting (Sec. 4.2, first paragraphs): finite X = {0,1}^d, queries q : X -> [0,1], q(x) = (1/n) sum_i q(x_i),
q(D) = E_{u~D} q(u), attr(q) = the attributes q depends on.

Algorithm 1, with eps_T = eps0/sqrt(2T), A_1 uniform, for t = 1..T:

5. select an ordered l-tuple of pairwise attribute-disjoint queries with
   P[(q_1..q_l)] ∝ exp(eps_T n sum_i |q_i(A_t) - q_i(x)|)          (exponential mechanism);
6. a_{t,i} <- N(q_{t,i}(x), 1/(n^2 eps_T^2)), clipped to [0,1];
7. A_{t+1}(u) ∝ A_t(u) exp(1/2 sum_i q_{t,i}(u) (a_{t,i} - q_{t,i}(A_t)));
8. output E_{X~A}[Q(X)] with A = (1/T) sum_t A_t.

Theorem 12: eps0-nabla0-CDP and (l eps0)^2/2-zCDP; accuracy eq. (3).
Lemma 13 ([HLM12 A.4]): the printed update uses q(u) in place of q(A) and is false
(``docs/errata.md`` E-PDP-Lemma13); :func:`lemma13_slack` evaluates both forms.  The per-round use of Lemma 13 for l > 1
needs q_{t,i}(A_{t,i-1}) = q_{t,i}(A_t), which holds for product A_t but not in general (``docs/errata.md`` E-PDP-Thm12-proof);
:func:`e3_joint_round_slack` evaluates the counterexample family exactly (mpmath).

Float paths are float64 (numpy) with a stated tolerance; exact ones (sensitivities, accounting)
are Fractions and refuse floats.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Sequence

import mpmath
import numpy as np

from bcdp.core.errors import InvalidInputError
from bcdp.core.numbers import MAX_DPS, MIN_DPS, check_precision, to_fraction

UPDATES = ("algorithm1", "lemma13_printed")


# -- workloads ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Workload:
    """Queries on X = {0,1}^d: ``answers[u, j] = q_j(u)`` (integers 0/1 here, so exact) and
    ``attrs[j]`` = attr(q_j).  Record index u: bit i = attribute i (as in partial_dp_projection)."""

    d: int
    answers: np.ndarray
    attrs: tuple[frozenset, ...]

    @property
    def m(self) -> int:
        return len(self.attrs)

    @property
    def size(self) -> int:
        return 2 ** self.d


def conjunction_workload(d: int, ks: Sequence[int]) -> Workload:
    """All unsigned k-way conjunctions prod_{i in S} x_i, |S| in ``ks``, on {0,1}^d (Sec. 4.2, the discussion after Thm 12)."""
    if not (isinstance(d, int) and d >= 1) or not ks or any(not (1 <= k <= d) for k in ks):
        raise InvalidInputError(f"need d >= 1 and 1 <= k <= d for all k, got d={d!r}, ks={ks!r}")
    xs = np.array([[(u >> i) & 1 for i in range(d)] for u in range(2 ** d)], dtype=np.int64)
    cols, attrs = [], []
    for k in ks:
        for s in itertools.combinations(range(d), k):
            cols.append(xs[:, list(s)].prod(axis=1))
            attrs.append(frozenset(s))
    return Workload(d, np.stack(cols, axis=1), tuple(attrs))


def disjoint_tuples(attrs: Sequence[frozenset], ell: int, ordered: bool = True) -> np.ndarray:
    """All ORDERED l-tuples (j_1..j_l) of query indices with pairwise disjoint attr sets
    (Alg. 1 step 5); shape (#tuples, l).  ``ordered=False`` lists each set once (increasing
    indices): the score is symmetric, so the exponential mechanism over sets induces the same law
    on the selected set as the one over ordered tuples (each set has l! orderings of equal weight),
    at a fraction of the cost.  Raises if there is none."""
    if not isinstance(ell, int) or ell < 1:
        raise InvalidInputError(f"l must be a positive int, got {ell!r}")
    out: list[tuple[int, ...]] = []

    def extend(prefix: list[int], used: frozenset) -> None:
        if len(prefix) == ell:
            out.append(tuple(prefix))
            return
        start = prefix[-1] + 1 if (prefix and not ordered) else 0
        for j in range(start, len(attrs)):
            a = attrs[j]
            if j not in prefix and not (a & used):
                extend(prefix + [j], used | a)

    extend([], frozenset())
    if not out:
        raise InvalidInputError(f"no {ell} pairwise attribute-disjoint queries exist in this workload")
    return np.array(out, dtype=np.int64)


# -- Algorithm 1 --------------------------------------------------------------------------------------

@dataclass
class MWEMRun:
    """One run: the averaged distribution A (step 8), the per-round A_t, selections and answers."""

    average: np.ndarray
    distributions: list[np.ndarray] = field(default_factory=list)
    selections: list[tuple[int, ...]] = field(default_factory=list)
    measurements: list[np.ndarray] = field(default_factory=list)

    def answers(self, workload: Workload) -> np.ndarray:
        """Step 9: E_{X~A}[Q(X)]."""
        return self.average @ workload.answers


def _histogram(dataset: Sequence[int], size: int) -> np.ndarray:
    idx = np.asarray(dataset, dtype=np.int64)
    if idx.ndim != 1 or idx.size == 0 or idx.min() < 0 or idx.max() >= size:
        raise InvalidInputError(f"dataset must be a non-empty list of record indices in [0, {size})")
    return np.bincount(idx, minlength=size) / idx.size


def exponential_mechanism_probabilities(scores: np.ndarray, eps_t: float, n: int) -> np.ndarray:
    """Alg. 1 step 5 selection law: P[tuple] ∝ exp(eps_T n score(tuple)) (float64, log-space)."""
    logits = eps_t * n * np.asarray(scores, dtype=np.float64)
    w = np.exp(logits - logits.max())
    return w / w.sum()


def sample_exponential_mechanism(scores: np.ndarray, eps_t: float, n: int, rng: np.random.Generator) -> int:
    """Index drawn from :func:`exponential_mechanism_probabilities` by the Gumbel-max trick
    (argmax of logits + Gumbel noise has exactly the softmax law)."""
    logits = eps_t * n * np.asarray(scores, dtype=np.float64)
    return int(np.argmax(logits + rng.gumbel(size=logits.shape)))


def partial_mwem(dataset: Sequence[int], workload: Workload, eps0: float, T: int, ell: int,
                 rng: np.random.Generator, update: str = "algorithm1",
                 tuples: np.ndarray | None = None) -> MWEMRun:
    """Algorithm 1 (Sec. 4.2), float64.  ``update="algorithm1"`` is step 7 as printed (factor
    exp(1/2 sum_i q_i(u)(a_i - q_i(A_t)))); ``"lemma13_printed"`` is the BAD TWIN using the printed
    Lemma 13 factor exp(1/2 q(u)(a - q(u))) (``docs/errata.md`` E-PDP-Lemma13).  Selection uses the Gumbel-max trick on
    the log-weights eps_T n score (exact sampling of the exponential mechanism)."""
    if update not in UPDATES:
        raise InvalidInputError(f"update must be one of {UPDATES}, got {update!r}")
    if not (isinstance(eps0, (int, float)) and math.isfinite(eps0) and eps0 > 0):
        raise InvalidInputError(f"eps0 must be finite and positive, got {eps0!r}")
    if not isinstance(T, int) or T < 1:
        raise InvalidInputError(f"T must be a positive int, got {T!r}")
    xhist = _histogram(dataset, workload.size)
    n = len(dataset)
    if tuples is None:
        tuples = disjoint_tuples(workload.attrs, ell)
    tuples = np.asarray(tuples)
    if tuples.ndim != 2 or tuples.shape[1] != ell or tuples.shape[0] == 0 or tuples.dtype.kind not in "iu" \
            or tuples.min() < 0 or tuples.max() >= workload.m:
        raise InvalidInputError(f"tuples must be a non-empty integer array of shape (#, {ell}) of query indices")
    masks = np.array([[i in at for i in range(workload.d)] for at in workload.attrs], dtype=np.int64)
    overlap = masks[tuples].sum(axis=1).max(axis=1) > 1
    if np.any(overlap):
        bad = tuple(int(v) for v in tuples[int(np.argmax(overlap))])
        raise InvalidInputError(f"tuple {bad} is not pairwise attribute-disjoint (or repeats a query)")
    qmat = workload.answers.astype(np.float64)
    qx = xhist @ qmat
    eps_t = eps0 / math.sqrt(2 * T)
    a_t = np.full(workload.size, 1.0 / workload.size)
    run = MWEMRun(average=np.zeros(workload.size))
    for _ in range(T):
        run.distributions.append(a_t)
        qa = a_t @ qmat
        scores = np.abs(qa - qx)[tuples].sum(axis=1)
        chosen = tuples[sample_exponential_mechanism(scores, eps_t, n, rng)]
        meas = np.clip(qx[chosen] + rng.standard_normal(ell) / (n * eps_t), 0.0, 1.0)
        run.selections.append(tuple(int(j) for j in chosen))
        run.measurements.append(meas)
        qsel = qmat[:, chosen]                       # |X| x l
        if update == "algorithm1":
            expo = 0.5 * qsel @ (meas - qa[chosen])
        else:
            expo = 0.5 * np.sum(qsel * (meas[None, :] - qsel), axis=1)
        w = np.log(a_t) + expo
        w -= w.max()
        a_t = np.exp(w)
        a_t /= a_t.sum()
    run.average = np.mean(run.distributions, axis=0)
    return run


def max_disjoint_average_error(distribution: np.ndarray, dataset: Sequence[int], workload: Workload,
                               tuples: np.ndarray) -> float:
    """LHS quantity of eq. (3): max over attribute-disjoint l-tuples of (1/l) sum_i |q_i(A) - q_i(x)|."""
    qx = _histogram(dataset, workload.size) @ workload.answers
    qa = np.asarray(distribution) @ workload.answers
    return float(np.abs(qa - qx)[tuples].mean(axis=1).max())


def thm12_accuracy_rhs(n: int, eps0: float, T: int, ell: int, domain_size: int, m: int) -> float:
    """RHS of eq. (3) (Thm 12): sqrt(2T/(n^2 eps0^2) + 4 log|X|/(T l)) + sqrt(2T) log m/(eps0 n)."""
    if not (n >= 1 and eps0 > 0 and T >= 1 and ell >= 1 and domain_size >= 1 and m >= 1):
        raise InvalidInputError("thm12_accuracy_rhs: invalid parameters")
    return (math.sqrt(2 * T / (n * n * eps0 * eps0) + 4 * math.log(domain_size) / (T * ell))
            + math.sqrt(2 * T) * math.log(m) / (eps0 * n))


# -- exact sensitivities and privacy accounting (Thm 12) ----------------------------------------------

@dataclass(frozen=True)
class ScoreSensitivities:
    """Exact (Fraction) sensitivities of the selection score s(tuple) = sum_i |q_i(A) - q_i(x)| and
    of the measured vector (q_i(x))_i, max over neighbouring datasets and over tuples."""

    score_attribute: Fraction
    score_record: Fraction
    l2sq_attribute: Fraction
    l2sq_record: Fraction
    pairs_attribute: int
    pairs_record: int


def score_sensitivities(workload: Workload, tuples: np.ndarray, n: int,
                        distributions: Sequence[Sequence]) -> ScoreSensitivities:
    """Brute force over ALL datasets in X^n, all neighbours (one attribute of one record changed /
    one record replaced), all tuples and the given distributions A (exact rationals; floats
    refused).  Paper claim (proof of Thm 12, privacy part): score sensitivity 1/n per attribute, l/n per record."""
    if not isinstance(n, int) or n < 1:
        raise InvalidInputError(f"n must be a positive int, got {n!r}")
    size, m = workload.size, workload.m
    rows = [[int(v) for v in workload.answers[u]] for u in range(size)]
    qas = []
    for dist in distributions:
        p = [to_fraction(v, "A(u)") for v in dist]
        if len(p) != size or any(v < 0 for v in p) or sum(p) != 1:
            raise InvalidInputError("each distribution A must be a probability vector on X")
        qas.append([sum((p[u] * rows[u][j] for u in range(size)), Fraction(0)) for j in range(m)])
    tup = [tuple(int(j) for j in t) for t in tuples]
    qx_cache: dict[tuple, list[Fraction]] = {}

    def qx(data: tuple) -> list[Fraction]:
        if data not in qx_cache:
            qx_cache[data] = [Fraction(sum(rows[u][j] for u in data), n) for j in range(m)]
        return qx_cache[data]

    best = {"sa": Fraction(0), "sr": Fraction(0), "la": Fraction(0), "lr": Fraction(0)}
    pa = pr = 0
    for data in itertools.product(range(size), repeat=n):
        q1 = qx(data)
        for i in range(n):
            for u2 in range(size):
                if u2 == data[i]:
                    continue
                data2 = data[:i] + (u2,) + data[i + 1:]
                q2 = qx(data2)
                attribute = bin(u2 ^ data[i]).count("1") == 1
                pr += 1
                pa += attribute
                for t in tup:
                    l2 = sum(((q1[j] - q2[j]) ** 2 for j in t), Fraction(0))
                    best["lr"] = max(best["lr"], l2)
                    if attribute:
                        best["la"] = max(best["la"], l2)
                    for qa in qas:
                        ds = abs(sum(abs(qa[j] - q1[j]) for j in t) - sum(abs(qa[j] - q2[j]) for j in t))
                        best["sr"] = max(best["sr"], ds)
                        if attribute:
                            best["sa"] = max(best["sa"], ds)
    return ScoreSensitivities(best["sa"], best["sr"], best["la"], best["lr"], pa, pr)


@dataclass(frozen=True)
class MWEMAccounting:
    """Thm 12 privacy by composition (Lemma 9) of T rounds, each = bounded-range exponential
    mechanism ((2 eps_T n Delta_s)^2/8-zCDP, [RS21]) + Gaussian (n^2 eps_T^2 Delta_2^2/2-zCDP).
    All rho values are exact Fractions given eps0^2."""

    eps0_sq: Fraction
    T: int
    ell: int
    rho_em_attribute: Fraction
    rho_gauss_attribute: Fraction
    rho_em_record: Fraction
    rho_gauss_record: Fraction

    @property
    def rho0(self) -> Fraction:
        """Per-attribute total: nabla0-CDP with eps0' = sqrt(2 rho0)."""
        return self.T * (self.rho_em_attribute + self.rho_gauss_attribute)

    @property
    def rho(self) -> Fraction:
        """Whole-record total zCDP rho."""
        return self.T * (self.rho_em_record + self.rho_gauss_record)

    @property
    def claimed_rho0(self) -> Fraction:
        return self.eps0_sq / 2

    @property
    def claimed_rho(self) -> Fraction:
        return self.ell * self.ell * self.eps0_sq / 2


def thm12_accounting(eps0_sq, T: int, ell: int, n: int, sens: ScoreSensitivities) -> MWEMAccounting:
    """Compose the per-round parts with the given exact sensitivities; eps_T^2 = eps0^2/(2T) (Alg. 1, line 3)."""
    e2 = to_fraction(eps0_sq, "eps0^2")
    if e2 <= 0 or not isinstance(T, int) or T < 1 or not isinstance(ell, int) or ell < 1 or n < 1:
        raise InvalidInputError("thm12_accounting: need eps0^2 > 0 and positive integers T, l, n")
    et2 = e2 / (2 * T)
    nn = n * n

    def em(ds: Fraction) -> Fraction:          # (2 eps_T n ds)^2 / 8
        return 4 * et2 * nn * ds * ds / 8

    def gauss(l2sq: Fraction) -> Fraction:     # l2sq / (2 * variance), variance 1/(n^2 eps_T^2)
        return l2sq * nn * et2 / 2

    return MWEMAccounting(e2, T, ell, em(sens.score_attribute), gauss(sens.l2sq_attribute),
                          em(sens.score_record), gauss(sens.l2sq_record))


# -- Lemma 13 and the E3 gap --------------------------------------------------------------------------

def lemma13_slack(a_dist: np.ndarray, x_dist: np.ndarray, q: np.ndarray, a: np.ndarray,
                  form: str = "corrected") -> np.ndarray:
    """Vectorised (rows = instances) slack Psi(A) - Psi(A') - [1/4 (q(A)-q(x))^2 - 1/4 (a-q(x))^2]
    of Lemma 13, Psi(A) = KL(x || A).  ``form``: "corrected" (A' ∝ A exp(1/2 q (a - q(A))),
    as in Alg. 1 step 7) or "printed" (A' ∝ A exp(1/2 q(u)(a - q(u))), ``docs/errata.md`` E-PDP-Lemma13).  float64;
    Psi(A) - Psi(A') = sum_u x(u) log(A'(u)/A(u)) = sum_u x(u) e(u) - log sum_u A(u) exp(e(u)).
    (If A(u) = 0 < x(u) both potentials are infinite; the value returned is then this continuous
    extension, since A'(u)/A(u) = e^{e(u)}/Z stays well defined.)"""
    if form not in ("corrected", "printed"):
        raise InvalidInputError(f"form must be 'corrected' or 'printed', got {form!r}")
    a_dist, x_dist, q = (np.atleast_2d(np.asarray(v, dtype=np.float64)) for v in (a_dist, x_dist, q))
    a = np.atleast_1d(np.asarray(a, dtype=np.float64))
    if not (a_dist.shape == x_dist.shape == q.shape and a.shape[0] == a_dist.shape[0]):
        raise InvalidInputError("lemma13_slack: shape mismatch")
    qa = np.sum(a_dist * q, axis=1)
    qx = np.sum(x_dist * q, axis=1)
    e = 0.5 * q * ((a - qa)[:, None] if form == "corrected" else (a[:, None] - q))
    emax = e.max(axis=1, keepdims=True)
    drop = np.sum(x_dist * e, axis=1) - (np.log(np.sum(a_dist * np.exp(e - emax), axis=1)) + emax[:, 0])
    return drop - 0.25 * (qa - qx) ** 2 + 0.25 * (a - qx) ** 2


def lemma13_slack_mp(a_dist: Sequence, x_dist: Sequence, q: Sequence, a, form: str = "corrected",
                     dps: int = 60) -> mpmath.mpf:
    """Same as :func:`lemma13_slack` for one instance, in mpmath at ``dps`` (>= 50) digits; inputs
    exact (Fractions / ints / strings, floats refused)."""
    dps = check_precision(dps, "dps", 50, MAX_DPS)
    with mpmath.workdps(dps):
        A = [mpmath.mpf(to_fraction(v).numerator) / to_fraction(v).denominator for v in a_dist]
        X = [mpmath.mpf(to_fraction(v).numerator) / to_fraction(v).denominator for v in x_dist]
        Q = [mpmath.mpf(to_fraction(v).numerator) / to_fraction(v).denominator for v in q]
        af = to_fraction(a)
        av = mpmath.mpf(af.numerator) / af.denominator
        qa = mpmath.fsum(p * v for p, v in zip(A, Q))
        qx = mpmath.fsum(p * v for p, v in zip(X, Q))
        e = [0.5 * v * (av - (qa if form == "corrected" else v)) for v in Q]
        drop = mpmath.fsum(p * ev for p, ev in zip(X, e)) - mpmath.log(mpmath.fsum(p * mpmath.exp(ev) for p, ev in zip(A, e)))
        return drop - (qa - qx) ** 2 / 4 + (av - qx) ** 2 / 4


def e3_joint_round_slack(ell: int, dps: int = 60) -> tuple[mpmath.mpf, mpmath.mpf, mpmath.mpf]:
    """The two-point family of E-PDP-Thm12-proof (docs/errata.md) (mpmath, ``dps`` digits): X = {0,1}^l, q_i(u) = u_i (attribute-disjoint),
    A_t = 1/2 delta_{0^l} + 1/2 delta_{1^l}, x = delta_{1^l}, exact answers a_i = q_i(x) = 1.
    Joint update A_{t+1} ∝ A_t exp(1/2 sum_i q_i(u)(a_i - q_i(A_t))).  Returns (drop Psi(A_t) -
    Psi(A_{t+1}), the per-round bound 1/4 sum_i [(q_i(A_t)-q_i(x))^2 - (a_i-q_i(x))^2] = l/16,
    drop - bound).  Closed form: drop = log 2 - log(1 + e^{-l/4})."""
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    if not isinstance(ell, int) or ell < 1:
        raise InvalidInputError(f"l must be a positive int, got {ell!r}")
    with mpmath.workdps(dps):
        half = mpmath.mpf(1) / 2
        e_top = half * ell * (1 - half)              # exponent at u = 1^l; 0 at u = 0^l
        psi_before = mpmath.log(2)                    # KL(delta_1 || A_t) = log(1/A_t(1^l))
        a_next_top = half * mpmath.exp(e_top) / (half * mpmath.exp(e_top) + half)
        psi_after = -mpmath.log(a_next_top)
        drop = psi_before - psi_after
        bound = mpmath.mpf(ell) * (half - 1) ** 2 / 4
        return drop, bound, drop - bound


def e3_joint_round_slack_numeric(ell: int) -> float:
    """Independent float64 evaluation of the same E3 instance through the generic joint-update
    code path (full distribution on {0,1}^l, l <= 16), for cross-checking the closed form."""
    size = 2 ** ell
    q = np.array([[(u >> i) & 1 for i in range(ell)] for u in range(size)], dtype=np.float64)
    a_t = np.zeros(size)
    a_t[0] = a_t[size - 1] = 0.5
    x = np.zeros(size)
    x[size - 1] = 1.0
    qa, qx = a_t @ q, x @ q
    e = 0.5 * q @ (np.ones(ell) - qa)
    nz = a_t > 0
    a_next = np.where(nz, a_t * np.exp(e), 0.0)
    a_next /= a_next.sum()
    drop = math.log(a_next[size - 1] / a_t[size - 1])
    return drop - 0.25 * float(np.sum((qa - qx) ** 2) - np.sum((np.ones(ell) - qx) ** 2))


def joint_round_slack(a_dist: np.ndarray, x_dist: np.ndarray, q: np.ndarray, a: np.ndarray,
                      eta: float = 0.5) -> np.ndarray:
    """Per-round inequality used in the proof of Thm 12 (the claim on A_{t,l}), vectorised over instances:
    drop - (eta/2) sum_i [(q_i(A) - q_i(x))^2 - (a_i - q_i(x))^2] for the JOINT update
    A'(u) ∝ A(u) exp(eta sum_i q_i(u)(a_i - q_i(A))); eta = 1/2 is Alg. 1 (bound 1/4 sum ...).
    Shapes: a_dist, x_dist (N, |X|); q (|X|, l); a (N, l).  float64.  Holds for every A when
    eta <= 4/l, i.e. l <= 8 at eta = 1/2 (Hoeffding's lemma: the exponent has range
    <= eta sum_i |a_i - q_i(A)|, so log E_A e^{e - E e} <= eta^2 l sum_i (a_i - q_i(A))^2/8), not beyond."""
    a_dist, x_dist = np.atleast_2d(a_dist), np.atleast_2d(x_dist)
    a = np.atleast_2d(a)
    q = np.asarray(q, dtype=np.float64)
    if not (a_dist.shape == x_dist.shape and a_dist.shape[1] == q.shape[0] and a.shape == (a_dist.shape[0], q.shape[1])):
        raise InvalidInputError("joint_round_slack: shape mismatch")
    qa, qx = a_dist @ q, x_dist @ q
    if not (eta > 0 and math.isfinite(eta)):
        raise InvalidInputError(f"eta must be finite and positive, got {eta!r}")
    e = eta * (a - qa) @ q.T                                   # (N, |X|)
    emax = e.max(axis=1, keepdims=True)
    drop = np.sum(x_dist * e, axis=1) - (np.log(np.sum(a_dist * np.exp(e - emax), axis=1)) + emax[:, 0])
    return drop - 0.5 * eta * np.sum((qa - qx) ** 2 - (a - qx) ** 2, axis=1)


def e3_symmetric_slack(ell: int, w, dps: int = 60) -> mpmath.mpf:
    """Second E3 family (derived here), mpmath at ``dps`` digits: X = {0,1}^l, q_i(u) = u_i,
    A = x = (delta_{0^l} + delta_{1^l})/2, a_i = 1/2 + 2w/l (needs 0 <= w <= l/4).  The per-round
    slack is exactly w^2/l - log cosh(w/2), negative for small w iff l > 8 (log cosh(w/2) =
    w^2/8 - w^4/192 + ...); at w = 1 it is negative exactly for l >= 9.  ``w`` exact (floats refused)."""
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    if not isinstance(ell, int) or ell < 1:
        raise InvalidInputError(f"l must be a positive int, got {ell!r}")
    wf = to_fraction(w, "w")
    if not 0 <= wf <= Fraction(ell, 4):
        raise InvalidInputError("need 0 <= w <= l/4 so that a_i lies in [0, 1]")
    with mpmath.workdps(dps):
        wm = mpmath.mpf(wf.numerator) / wf.denominator
        return wm ** 2 / ell - mpmath.log(mpmath.cosh(wm / 2))
