"""Finite local randomizers and datasets of gradients, exact (shared by the exact round enumerations of
:mod:`bcdp.fl.rounds` (CLDP-SGD, thesis Alg 4.3.1) and :mod:`bcdp.fl.self_sampling` (dss-SGD, Sec. 4.4)).

A *gradient* is a vector of exact rationals (a scalar is the 1-vector); a *kernel* is a finite local
randomizer R (thesis Sec. 4.3, conditions (i)-(iv) on R_p): a mapping from each gradient x of a finite
domain X to its exact law {output vector y: P[R(x) = y]} (Fractions summing to 1).  A *dataset* is
D = (D_1, ..., D_n) with D_i = (d_i1, ..., d_im), every d_ij a gradient of the kernel's domain (the
gradients x_ij = grad f(theta_t; d_ij) at the current model, thesis eq. (4.5)).

The kernel is passed in (rather than built here) so that :mod:`bcdp.fl` does not depend on another
chapter package; the claim checks build it from 2RR (:mod:`bcdp.dme.two_rr`).

Also here: the per-input mean and MSE of a kernel (unbiasedness, condition (ii); f_p, condition (iv):
sup_x E||R(x) - x||_2^2 <= L^2 f_p), its exact LDP ratio e^{eps0} (condition (i)), and the exact law of
the multiset of outputs when a multiset of inputs is randomized independently and shuffled (the
shuffler's output H_ks, thesis eq. (C.1)).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from bcdp.core.errors import InvalidInputError, WrongTypeError
from bcdp.core.numbers import INFINITY, to_fraction

__all__ = [
    "Kernel", "Vector", "as_vector", "check_count", "check_dataset", "check_kernel", "dataset_mean",
    "kernel_fp", "kernel_ldp_ratio", "kernel_mean", "kernel_mse", "max_sq_norm", "merge_multisets", "multiset_law",
    "sq_norm",
]

Vector = tuple[Fraction, ...]
Kernel = dict[Vector, dict[Vector, Fraction]]
#: Largest number of (input, output) entries a kernel may have (exact enumeration stays small).
MAX_KERNEL_ENTRIES = 4096


def check_count(value: Any, name: str, minimum: int = 1) -> int:
    """An int (numpy integers accepted, bools refused) >= ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise WrongTypeError(f"{name} must be an integer, got {type(value).__name__} {value!r}")
    if int(value) < minimum:
        raise InvalidInputError(f"{name} must be an integer >= {minimum}, got {int(value)}")
    return int(value)


def as_vector(value: Any, name: str = "gradient") -> Vector:
    """A gradient as a tuple of Fractions: a scalar (int, Fraction, sympy Rational, string) becomes the
    1-vector; a tuple/list becomes a vector (floats refused)."""
    if isinstance(value, (tuple, list)):
        if len(value) == 0:
            raise InvalidInputError(f"{name} must have at least one coordinate")
        return tuple(to_fraction(v, name) for v in value)
    return (to_fraction(value, name),)


def check_kernel(kernel: Any) -> Kernel:
    """Validate and normalise a finite local randomizer {x: {y: P[R(x) = y]}} (exact probabilities,
    each row summing to 1; inputs and outputs vectors of one common dimension)."""
    if not isinstance(kernel, Mapping) or len(kernel) == 0:
        raise InvalidInputError("kernel must be a non-empty mapping {input: {output: probability}}")
    out: Kernel = {}
    dims: set[int] = set()
    entries = 0
    for x, row in kernel.items():
        xv = as_vector(x, "kernel input")
        if not isinstance(row, Mapping) or len(row) == 0:
            raise InvalidInputError(f"kernel row of input {x!r} must be a non-empty mapping {{output: probability}}")
        law: dict[Vector, Fraction] = {}
        for y, w in row.items():
            yv = as_vector(y, "kernel output")
            p = to_fraction(w, "kernel probability")
            if p < 0:
                raise InvalidInputError(f"kernel probability {p} of output {y!r} is negative")
            law[yv] = law.get(yv, Fraction(0)) + p
            dims.add(len(yv))
            entries += 1
        if sum(law.values()) != 1:
            raise InvalidInputError(f"kernel row of input {x!r} sums to {sum(law.values())}, not 1")
        if xv in out:
            raise InvalidInputError(f"kernel input {x!r} appears twice")
        dims.add(len(xv))
        out[xv] = {y: p for y, p in law.items() if p > 0}
    if len(dims) != 1:
        raise InvalidInputError(f"kernel inputs and outputs must share one dimension, got dimensions {sorted(dims)}")
    if entries > MAX_KERNEL_ENTRIES:
        raise InvalidInputError(f"kernel has {entries} entries, more than {MAX_KERNEL_ENTRIES} (exact enumeration)")
    return out


def check_dataset(dataset: Any, kernel: Kernel) -> tuple[tuple[Vector, ...], ...]:
    """Validate D = (D_1, ..., D_n): n >= 1 clients with the same number m >= 1 of gradients each, every
    gradient in the kernel's domain (thesis Alg 4.3.1, line 1: D = union of D_i, |D_i| = m)."""
    if not isinstance(dataset, Sequence) or isinstance(dataset, str) or len(dataset) == 0:
        raise InvalidInputError("dataset must be a non-empty sequence of clients (each a sequence of gradients)")
    clients = []
    for i, client in enumerate(dataset):
        if not isinstance(client, Sequence) or isinstance(client, str) or len(client) == 0:
            raise InvalidInputError(f"client {i} must be a non-empty sequence of gradients")
        row = tuple(as_vector(x) for x in client)
        for x in row:
            if x not in kernel:
                raise InvalidInputError(f"gradient {tuple(str(v) for v in x)} of client {i} is not in the kernel's domain")
        clients.append(row)
    if len({len(c) for c in clients}) != 1:
        raise InvalidInputError(f"every client must hold the same number m of records, got {[len(c) for c in clients]}")
    return tuple(clients)


def sq_norm(v: Vector) -> Fraction:
    """||v||_2^2, exact."""
    return sum((c * c for c in v), Fraction(0))


def kernel_mean(kernel: Any, x: Any) -> Vector:
    """E[R(x)] from the exact law (condition (ii) of thesis Sec. 4.3: = x for an unbiased R)."""
    k = check_kernel(kernel)
    xv = as_vector(x)
    if xv not in k:
        raise InvalidInputError(f"{x!r} is not in the kernel's domain")
    return tuple(sum((y[c] * w for y, w in k[xv].items()), Fraction(0)) for c in range(len(xv)))


def kernel_mse(kernel: Any, x: Any) -> Fraction:
    """E||R(x) - x||_2^2 from the exact law (condition (iv) of thesis Sec. 4.3: <= L^2 f_p)."""
    k = check_kernel(kernel)
    xv = as_vector(x)
    if xv not in k:
        raise InvalidInputError(f"{x!r} is not in the kernel's domain")
    return sum((sq_norm(tuple(a - b for a, b in zip(y, xv))) * w for y, w in k[xv].items()), Fraction(0))


def kernel_ldp_ratio(kernel: Any) -> Fraction | float:
    """e^{eps0} = max over inputs x, x' and outputs y of P[R(x) = y]/P[R(x') = y] (condition (i) of
    thesis Sec. 4.3, Def 2.2.1); INFINITY when some output has probability 0 under one input only."""
    k = check_kernel(kernel)
    outputs = {y for row in k.values() for y in row}
    best: Fraction | float = Fraction(1)
    for y in outputs:
        col = [row.get(y, Fraction(0)) for row in k.values()]
        lo, hi = min(col), max(col)
        if lo == 0:
            return INFINITY
        best = max(best, hi / lo)
    return best


def max_sq_norm(vectors: Any) -> Fraction:
    """max ||x||_2^2 over the given gradients (L^2 for the Lipschitz constant L, thesis Lemma 4.3.2)."""
    return max(sq_norm(as_vector(v)) for v in vectors)


def dataset_mean(dataset: Any, kernel: Any) -> Vector:
    """grad F(theta_t) = (1/(nm)) sum_ij x_ij (thesis Alg 4.3.1, line 1: F = (1/(nm)) sum_ij f(theta; d_ij))."""
    clients = check_dataset(dataset, check_kernel(kernel))
    flat = [x for c in clients for x in c]
    return tuple(sum((x[c] for x in flat), Fraction(0)) / len(flat) for c in range(len(flat[0])))


def merge_multisets(a: tuple, b: tuple) -> tuple:
    """The union of two multisets written as sorted tuples (a sorted tuple)."""
    return tuple(sorted(a + b))


def convolve(law_a: Mapping[tuple, Fraction], law_b: Mapping[tuple, Fraction]) -> dict[tuple, Fraction]:
    """Law of the union of two independent random multisets (sorted tuples)."""
    out: dict[tuple, Fraction] = {}
    for a, wa in law_a.items():
        for b, wb in law_b.items():
            key = merge_multisets(a, b)
            out[key] = out.get(key, Fraction(0)) + wa * wb
    return out


def multiset_law(inputs: Sequence[Vector], kernel: Kernel) -> dict[tuple, Fraction]:
    """Exact law of the shuffled outputs H(R(x_1), ..., R(x_r)) of independent randomizations of the
    inputs, as {sorted tuple of outputs: probability} (thesis eq. (C.1): the shuffler's output is the
    multiset of the messages).  ``kernel`` must already be normalised by :func:`check_kernel`."""
    law: dict[tuple, Fraction] = {(): Fraction(1)}
    for x in inputs:
        law = convolve(law, {(y,): w for y, w in kernel[x].items()})
    return law


def kernel_fp(kernel: Any, L2: Any = None) -> Fraction:
    """f_p of thesis Sec. 4.3, condition (iv): the least f with sup_x E||R(x) - x||_2^2 <= L^2 f over the
    kernel's domain, i.e. max_x MSE(x) / L^2; ``L2`` = L^2 defaults to max_x ||x||_2^2 over the domain."""
    k = check_kernel(kernel)
    l2 = max_sq_norm(list(k)) if L2 is None else to_fraction(L2, "L2")
    if l2 <= 0:
        raise InvalidInputError(f"L^2 must be > 0, got {l2}")
    return max(kernel_mse(k, x) for x in k) / l2
