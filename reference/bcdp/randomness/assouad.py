"""Assouad's lower-bound machinery of the thesis Sec. 7.3.1 and App. F.1.1 / F.3, exactly, on tiny instances.

- :func:`packing`: ``p^nu`` of eq. (7.13), ``p_j = 1/k + delta nu_j`` (``j <= k/2``) and
  ``p_{j+k/2} = 1/k - delta nu_j``, ``nu in {-1, 1}^{k/2}``, ``0 <= delta <= 1/k`` (``k`` even);
- :func:`separation_sides`: both sides of (7.14), ``l(p_hat, p^nu) >= phi(delta) sum_{j <= k/2}
  1(sgn(p_hat_j - 1/k) != nu_j)``, with ``sgn`` valued in ``{-1, +1}`` (``sgn(0) = +1``);
- :func:`product_law`, :func:`mixture_pair`: the laws of ``Y^n`` (``n`` users, one mechanism ``Q``)
  under ``p^nu`` and the *normalised* mixtures ``M^n_{+j}``, ``M^n_{-j}`` (uniform over the ``nu``
  with ``nu_j = +1``, resp. ``-1``);
- :func:`assouad_rhs`: ``phi(delta) sum_j (1 - ||M^n_{+j} - M^n_{-j}||_TV)`` (Lemma F.1.2, (F.12) = (F.17)), exact;
- :func:`bayes_risk`: the exact Bayes risk under the uniform prior on the packing (Bayes-optimal
  estimator: posterior mean for ``l2^2``, posterior median per coordinate for ``l1``);
- :func:`lemma731_rhs`: ``phi(delta) (k/2) (1 - sqrt((n/2) max_{j, nu: nu_j = 1} D_KL(M^nu || M^{nu - 2e_j})))``,
  (7.16) with the ``sup`` over ``Q(eps, R)`` replaced by the given mechanism (certified);
- :func:`chi2_chain`: the quantities of (7.17)-(7.18) for one ``(j, nu)``.

``phi(x) = x^2`` for the ``l2^2`` loss and ``|x|`` for ``l1`` (footnote 6).  Everything is exact
(Fractions) except KL and the square root, enclosed by arb balls.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any, Sequence

from bcdp.core.errors import InvalidInputError, ValidityConditionError
from bcdp.core.intervals import arb_precision, ball_ends, ball_of
from bcdp.core.numbers import MAX_PREC_BITS, MIN_PREC_BITS, brief_number, check_precision, to_fraction
from bcdp.core.results import Certified
from bcdp.randomness import model

#: Largest number of output sequences (``m^n``) and of sign vectors (``2^{k/2}``) enumerated.
MAX_SEQUENCES = 20_000
MAX_K = 8
#: Largest ``2^(k/2) m^n k`` (sign vectors x output sequences x coordinates) of the exact Bayes risk and
#: the (F.17) right-hand side (k = 8, m = 8, n = 4 took 9 s).
MAX_WORK = 300_000

Law = dict[tuple[int, ...], Fraction]


def _k_delta(k: Any, delta: Any) -> tuple[int, Fraction]:
    if isinstance(k, bool) or not isinstance(k, int) or k < 2 or k % 2 or k > MAX_K:
        raise InvalidInputError(f"k must be an even integer in [2, {MAX_K}], got {k!r}")
    d = to_fraction(delta, "delta")
    if d < 0 or d > Fraction(1, k):
        raise ValidityConditionError(f"(7.13) needs 0 <= delta <= 1/k = 1/{k}, got {brief_number(d)}")
    return k, d


def _loss(loss: str) -> str:
    if loss not in model.LOSSES:
        raise InvalidInputError(f"loss must be 'l1' or 'l2', got {loss!r}")
    return loss


def phi(x: Fraction, loss: str) -> Fraction:
    """``phi(x) = x^2`` (``l2^2``) or ``|x|`` (``l1``), footnote 6 of Sec. 7.3.1; ``x`` exact."""
    x = to_fraction(x, "x")
    return x * x if _loss(loss) == "l2" else abs(x)


def signs(k: int) -> list[tuple[int, ...]]:
    """All ``nu in {-1, 1}^{k/2}`` (lexicographic); ``k`` even in ``[2, MAX_K]``."""
    k, _ = _k_delta(k, 0)
    return list(itertools.product((-1, 1), repeat=k // 2))


def packing(k: int, delta: Any, nu: Sequence[int]) -> tuple[Fraction, ...]:
    """``p^nu`` of eq. (7.13); ``k`` even, ``0 <= delta <= 1/k`` (ValidityConditionError otherwise)."""
    k, d = _k_delta(k, delta)
    if isinstance(nu, (str, bytes)) or not hasattr(nu, "__len__") or len(nu) != k // 2 \
            or any(isinstance(v, bool) or v not in (-1, 1) for v in nu):
        raise InvalidInputError(f"nu must be a vector of k/2 = {k // 2} signs +-1")
    half = [Fraction(1, k) + d * v for v in nu]
    return tuple(half + [Fraction(1, k) - d * v for v in nu])


def _sgn(x: Fraction) -> int:
    return 1 if x >= 0 else -1


def separation_sides(p_hat: Sequence[Any], k: int, delta: Any, nu: Sequence[int], loss: str) -> tuple[Fraction, Fraction]:
    """``(l(p_hat, p^nu), phi(delta) #{j <= k/2 : sgn(p_hat_j - 1/k) != nu_j})``: the two sides of
    (7.14), with ``sgn`` in ``{-1, +1}`` (the thesis prints ``sgn(x) = 0`` for ``x < 0``, a typo)."""
    k, d = _k_delta(k, delta)
    ph = [to_fraction(v, "p_hat") for v in p_hat]
    if len(ph) != k:
        raise InvalidInputError(f"p_hat must have k = {k} entries")
    p = packing(k, d, nu)
    wrong = sum(1 for j in range(k // 2) if _sgn(ph[j] - Fraction(1, k)) != nu[j])
    return model.loss_value(ph, p, _loss(loss)), phi(d, loss) * wrong


def product_law(q: Sequence[Sequence[Any]], p: Sequence[Any], n: int) -> Law:
    """The law of ``Y^n`` for ``n`` users with mechanism ``Q`` and i.i.d. ``X_i ~ p`` (product of (7.15))."""
    law = model.output_marginal(q, p)
    n = model.check_sequences(len(law), n, MAX_SEQUENCES)
    out: Law = {}
    for seq in itertools.product(range(len(law)), repeat=n):
        prob = Fraction(1)
        for y in seq:
            prob *= law[y]
        out[seq] = prob
    return out


def _laws(q: Sequence[Sequence[Any]], k: int, d: Fraction, n: int) -> dict[tuple[int, ...], Law]:
    mat = model.mechanism(q)
    if len(mat) != k:
        raise InvalidInputError(f"the mechanism has {len(mat)} inputs, expected k = {k}")
    n = model.check_sequences(len(mat[0]), n, MAX_SEQUENCES)
    work = 2 ** (k // 2) * len(mat[0]) ** n * k
    if work > MAX_WORK:
        raise InvalidInputError(f"2^(k/2) m^n k = {work} exceeds {MAX_WORK} (k = {k}, m = {len(mat[0])}, n = {n})")
    return {nu: product_law(mat, packing(k, d, nu), n) for nu in signs(k)}


def mixture_pair(q: Sequence[Sequence[Any]], k: int, delta: Any, n: int, j: int) -> tuple[Law, Law]:
    """Normalised ``M^n_{+j}`` and ``M^n_{-j}`` (``j`` in ``1..k/2``): the uniform mixtures of the
    product laws over the ``nu`` with ``nu_j = +1``, resp. ``-1`` (Sec. 7.3.1 prints the weight
    ``1/|V|``, which gives measures of mass 1/2; ``2/|V|`` is what (F.17) needs)."""
    k, d = _k_delta(k, delta)
    j = _j(j, k)
    return _mixtures(_laws(q, k, d, n), j)


def _j(j: Any, k: int) -> int:
    if isinstance(j, bool) or not isinstance(j, int) or not 1 <= j <= k // 2:
        raise InvalidInputError(f"j must be an integer in [1, {k // 2}], got {j!r}"[:120])
    return j


def _mixtures(laws: dict[tuple[int, ...], Law], j: int) -> tuple[Law, Law]:
    plus: Law = {}
    minus: Law = {}
    weight = Fraction(2, len(laws))
    for nu, law in laws.items():
        target = plus if nu[j - 1] == 1 else minus
        for seq, prob in law.items():
            target[seq] = target.get(seq, Fraction(0)) + weight * prob
    return plus, minus


def total_variation(a: Law, b: Law) -> Fraction:
    """``sup_A |a(A) - b(A)| = (1/2) sum |a - b|`` for two probability laws on the same finite set
    (mappings outcome -> exact probability)."""
    if not isinstance(a, dict) or not isinstance(b, dict):
        raise InvalidInputError("total_variation takes two laws given as dicts outcome -> probability")
    keys = set(a) | set(b)
    return sum((abs(a.get(s, Fraction(0)) - b.get(s, Fraction(0))) for s in keys), Fraction(0)) / 2


def assouad_rhs(q: Sequence[Sequence[Any]], k: int, delta: Any, n: int, loss: str = "l2") -> Fraction:
    """Exact right-hand side of Lemma F.1.2, (F.12) (the end (F.17) of its proof in App. F.3): ``phi(delta) sum_{j <= k/2} (1 - ||M^n_{+j} -
    M^n_{-j}||_TV)`` with normalised mixtures."""
    k, d = _k_delta(k, delta)
    laws = _laws(q, k, d, n)
    total = Fraction(0)
    for j in range(1, k // 2 + 1):
        plus, minus = _mixtures(laws, j)
        total += 1 - total_variation(plus, minus)
    return phi(d, loss) * total


def bayes_risk(q: Sequence[Sequence[Any]], k: int, delta: Any, n: int, loss: str = "l2") -> Fraction:
    """Exact Bayes risk ``inf_{p_hat} (1/|V|) sum_nu E_nu[l(p_hat(Y^n), p^nu)]`` (uniform prior on the
    packing (7.13)); a lower bound on the minimax risk ``inf_{p_hat} sup_{p in Delta_k} E[l]`` of (7.5)
    for this mechanism.  ``l2^2``: posterior variances summed; ``l1``: per coordinate the posterior
    takes two values ``1/k +- delta``, and the median errs by ``2 delta min(P+, P-)``."""
    k, d = _k_delta(k, delta)
    loss = _loss(loss)
    laws = _laws(q, k, d, n)
    weight = Fraction(1, len(laws))
    packs = {nu: packing(k, d, nu) for nu in laws}
    total = Fraction(0)
    for seq in next(iter(laws.values())):
        joint = {nu: weight * laws[nu][seq] for nu in laws}
        mass = sum(joint.values(), Fraction(0))
        if mass == 0:
            continue
        for i in range(k):
            if loss == "l2":
                mean = sum((w * packs[nu][i] for nu, w in joint.items()), Fraction(0)) / mass
                total += sum((w * (packs[nu][i] - mean) ** 2 for nu, w in joint.items()), Fraction(0))
            else:
                up = sum((w for nu, w in joint.items() if packs[nu][i] > Fraction(1, k)), Fraction(0))
                total += 2 * d * min(up, mass - up) if d else Fraction(0)
    return total


def _kl_ball(a: Sequence[Fraction], b: Sequence[Fraction]) -> Any:
    total = ball_of(0)
    for x, y in zip(a, b):
        if x:
            if not y:
                raise InvalidInputError("KL divergence is infinite (support mismatch)")
            total += ball_of(x) * (ball_of(x) / ball_of(y)).log()
    return total


def lemma731_rhs(q: Sequence[Sequence[Any]], k: int, delta: Any, n: int, loss: str = "l2",
                 prec: int = 128) -> Certified:
    """Certified ``phi(delta) (k/2) (1 - sqrt((n/2) max_{j, nu: nu_j = 1} D_KL(M^nu || M^{nu-2e_j})))``:
    Lemma 7.3.1, eq. (7.16), for one mechanism ``Q`` used by all ``n`` users (the lemma's
    ``sup_{Q in Q(eps, R)}`` is at least this ``max``, so the lemma's right-hand side is at most this)."""
    prec = check_precision(prec, "prec", MIN_PREC_BITS, MAX_PREC_BITS)
    k, d = _k_delta(k, delta)
    mat = model.mechanism(q)
    if len(mat) != k:
        raise InvalidInputError(f"the mechanism has {len(mat)} inputs, expected k = {k}")
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise InvalidInputError(f"n must be a positive integer, got {n!r}")
    with arb_precision(prec):
        worst = None
        for nu in signs(k):
            for j in range(k // 2):
                if nu[j] != 1:
                    continue
                other = list(nu)
                other[j] = -1
                kl = _kl_ball(model.output_marginal(mat, packing(k, d, nu)),
                              model.output_marginal(mat, packing(k, d, other)))
                worst = kl if worst is None else worst.max(kl)
        root = (ball_of(n) / 2 * worst).sqrt()
        rhs = ball_of(phi(d, loss) * Fraction(k, 2)) * (1 - root)
        lo, hi = ball_ends(rhs)
        klo, khi = ball_ends(worst)
    return Certified(lower=lo, upper=hi, provenance="Lemma 7.3.1, eq. (7.16), for one mechanism",
                     details={"max_kl": (klo, khi)})


def chi2_chain(q: Sequence[Sequence[Any]], k: int, delta: Any, j: int, nu: Sequence[int], e_eps: Any,
               prec: int = 128) -> dict[str, Any]:
    """The quantities of (7.17)-(7.18) for user mechanism ``Q``, ``j`` in ``1..k/2`` and ``nu`` with
    ``nu_j = +1``: ``kl`` and ``kl_sym`` (certified ``(lower, upper)``), the exact ``chi2 = sum_y
    (M^nu - M^{nu-2e_j})^2 / M^{nu-2e_j}`` (step (b)), ``step_c_printed = delta^2 S'`` with ``S' =
    sum_y (Q(y|j) - Q(y|j+k/2))^2 / M^{nu-2e_j}(y)`` (step (c) as printed), ``step_d_printed =
    2 delta^2 e_eps S`` with ``S = sum_y (Q(y|j) - Q(y|j+k/2))^2 / (Q(y|j) + Q(y|j+k/2))`` (step (d)),
    ``denominator_bound`` = whether (7.18) ``M^{nu-2e_j}(y) >= (Q(y|j) + Q(y|j+k/2)) / (2 e_eps)``
    holds for all y (exact), and ``S``."""
    prec = check_precision(prec, "prec", MIN_PREC_BITS, MAX_PREC_BITS)
    k, d = _k_delta(k, delta)
    mat = model.mechanism(q)
    ee = to_fraction(e_eps, "e_eps")
    if ee < 1:
        raise InvalidInputError(f"e_eps must be >= 1, got {brief_number(ee)}")
    j = _j(j, k)
    a = model.output_marginal(mat, packing(k, d, nu)) if len(mat) == k else None
    if a is None or nu[j - 1] != 1:
        raise InvalidInputError("need a k-input mechanism, 1 <= j <= k/2 and nu with nu_j = +1")
    other = list(nu)
    other[j - 1] = -1
    b = model.output_marginal(mat, packing(k, d, other))
    if any(y == 0 and x != 0 for x, y in zip(a, b)):
        raise InvalidInputError("M^{nu-2e_j} vanishes where M^nu does not (chi^2 infinite)")
    chi2 = sum(((x - y) ** 2 / y for x, y in zip(a, b) if y), Fraction(0))
    qa, qb = [row for row in (mat[j - 1], mat[j - 1 + k // 2])]
    s_prime = sum(((u - v) ** 2 / y for u, v, y in zip(qa, qb, b) if y), Fraction(0))
    s = sum(((u - v) ** 2 / (u + v) for u, v in zip(qa, qb) if u + v), Fraction(0))
    denominator_ok = all(y >= (u + v) / (2 * ee) for u, v, y in zip(qa, qb, b))
    with arb_precision(prec):
        kl = _kl_ball(a, b)
        kl_sym = kl + _kl_ball(b, a)
        kl_ends, sym_ends = ball_ends(kl), ball_ends(kl_sym)
    return {"kl": kl_ends, "kl_sym": sym_ends, "chi2": chi2, "step_c_printed": d * d * s_prime,
            "step_c_exact": 4 * d * d * s_prime, "step_d_printed": 2 * d * d * ee * s,
            "step_d_corrected": 8 * d * d * ee * s, "S": s, "denominator_bound": denominator_ok}
