"""The shuffled-model calibration of thesis Alg 6.4.1 (Sec. 6.5, eq. (6.10); privacy proof App. E.4.1, (E.29)).

In batch i of Alg 6.4.1 the n_i users each send r + Lap(Delta/eps0^(i)) (an eps0^(i)-LDP report, with the
sensitivity Delta = 2 of erratum E-Thesis-E.1.1; the printed Lap(1/eps0^(i)) is 2 eps0^(i)-LDP) through
a shuffler, with eps0^(i) = f^{-1}_{n_i,delta}(eps) and f_{n,delta} the FMT21 Thm 3.1 closed form (6.10):

    f_{n,delta}(eps0) = log(1 + (e^eps0 - 1)/(e^eps0 + 1) (8 sqrt(e^eps0 log(4/delta))/sqrt(n) + 8 e^eps0/n)).

Each batch is then (f(eps0^(i)), delta)-DP <= (eps, delta) for the swap-one neighbouring relation of the
batch, and since every user is in exactly one batch, parallel composition makes the whole algorithm
(eps, delta)-DP (App. E.4.1).

Decided reading (docs/errata.md, "Notes on Chapter 6"): eq. (6.10) defines f on all of R_+, but FMT21
Thm 3.1 proves it only for eps0 <= log(n/(16 log(2/delta))); the inverse is taken in [0, cap] (the
certified :func:`bcdp.accounting.amplification.clones_closed_form_inverse`), so when f(cap) < eps the
batch uses eps0 = cap and is (f(cap), delta)-DP, better than asked.  Batches with cap < 0 (n_i too small
for the theorem) raise ValidityConditionError.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Sequence

from bcdp.accounting import amplification
from bcdp.core.errors import InvalidInputError
from bcdp.core.intervals import float_up
from bcdp.core.numbers import to_float_input


@dataclass(frozen=True)
class ShuffledCalibration:
    """Per batch: ``eps0`` = f^{-1}_{n_i,delta}(eps) (certified f(eps0) <= eps), ``scales`` = Delta/eps0
    (rounded up to a float), ``batch_eps`` = certified upper bounds on f(eps0^(i)), ``capped`` = whether eps0 hit the FMT21 cap;
    ``guarantee`` = (max batch eps, delta) by parallel composition across batches."""

    eps0: tuple[float, ...]
    scales: tuple[float, ...]
    batch_eps: tuple[float, ...]
    capped: tuple[bool, ...]
    guarantee: tuple[float, float]


def shuffled_local_budget(eps: float, n: int, delta: float) -> float:
    """eps0 = f^{-1}_{n,delta}(eps) of Alg 6.4.1 step 8 (eq. (6.10), FMT21 Thm 3.1 with its domain cap
    eps0 <= log(n/(16 log(2/delta)))): the largest certified eps0 in [0, cap] with f(eps0) <= eps."""
    return amplification.clones_closed_form_inverse(eps, n, delta, variant="theorem-3.1")


def shuffled_batch_calibration(eps: float, delta: float, batch_sizes: Sequence[int], *,
                               sensitivity: Any = 2.0) -> ShuffledCalibration:
    """Alg 6.4.1 steps 8-9 for every batch size n_i: eps0^(i), the noise scale Delta/eps0^(i), and the
    (eps, delta) guarantee of the whole algorithm (App. E.4.1: parallel composition over batches).
    ``sensitivity`` Delta defaults to 2 (erratum E-Thesis-E.1.1; 1 reproduces the printed Lap(1/eps0))."""
    if isinstance(batch_sizes, (str, bytes)) or not isinstance(batch_sizes, Sequence) or not batch_sizes:
        raise InvalidInputError("batch_sizes must be a non-empty sequence of integers")
    d = to_float_input(sensitivity, "sensitivity")
    if d <= 0:
        raise InvalidInputError(f"sensitivity must be > 0, got {d}")
    e = to_float_input(eps, "eps")
    if e <= 0:
        raise InvalidInputError(f"eps must be > 0, got {e}")
    eps0s, scales, beps, capped = [], [], [], []
    for n in batch_sizes:
        e0 = shuffled_local_budget(e, n, delta)
        if e0 <= 0:
            raise InvalidInputError(f"batch of n = {n}: no eps0 > 0 has f(eps0) <= eps = {e}")
        cap = amplification.clones_closed_form_cap(n, delta)
        eps0s.append(e0)
        scales.append(float_up(Fraction(d) / Fraction(e0)))     # noise scale >= Delta/eps0: rounded up
        beps.append(amplification.clones_closed_form(e0, n, delta, variant="theorem-3.1"))
        capped.append(e0 == cap)
    return ShuffledCalibration(tuple(eps0s), tuple(scales), tuple(beps), tuple(capped),
                               (max(beps), float(delta)))


__all__ = ["ShuffledCalibration", "shuffled_batch_calibration", "shuffled_local_budget"]
