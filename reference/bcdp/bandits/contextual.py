"""The contextual-to-linear reduction behind thesis Cor 6.3.1 (Sec. 6.3, after [HYF23]), exact.

With a known context distribution P over finitely many contexts c, each with feature vectors
``phi(a, c)`` for the actions a, the reduction plays linear bandits over
``X = {g(theta) : theta in Theta}`` with ``g(theta) = E_{c ~ P}[phi(a*(c, theta), c)]`` and
``a*(c, theta) = argmax_a <phi(a, c), theta>`` (ties broken towards the lowest index; the thesis leaves
ties arbitrary).  A client handed ``x_t = g(theta_t)`` plays ``a*(c_t, theta_t)``.

What makes the reduction exact (and what :mod:`bcdp.checks` decides on finite instances):

* the expected reward of the client's choice is linear in x: ``E_c <phi(a*(c, theta), c), theta*> =
  <g(theta), theta*>`` (:func:`contextual_expected_reward` computes the left side directly);
* the contextual optimum ``E_c max_a <phi(a, c), theta*>`` equals ``<g(theta*), theta*>`` and is the
  maximum of ``<x, theta*>`` over X when theta* is in Theta, so per-round expected regrets coincide.

Privacy (the JDP part of Cor 6.3.1) is post-processing: the learner sees only the noised batch reward
sums of Alg 6.3.1, so it inherits Alg 6.3.1's guarantee (eps with sensitivity Delta = 2; see
docs/errata.md E-Thesis-E.1.1).  Inputs are exact (Fractions, ints, strings such as '1/3'; floats refused).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Sequence

from bcdp.core.errors import InvalidInputError, WrongTypeError
from bcdp.core.numbers import to_fraction

Vector = tuple[Fraction, ...]


def _seq(v: Any, name: str) -> Sequence:
    if isinstance(v, (str, bytes)) or not isinstance(v, Sequence):
        raise WrongTypeError(f"{name} must be a sequence (list or tuple), got {type(v).__name__}")
    return v


def _vector(v: Any, d: int | None, name: str) -> Vector:
    out = tuple(to_fraction(x, name) for x in _seq(v, name))
    if not out or (d is not None and len(out) != d):
        raise InvalidInputError(f"{name} must have {d if d is not None else 'at least 1'} coordinates, got {len(out)}")
    return out


def _dot(u: Vector, v: Vector) -> Fraction:
    return sum((a * b for a, b in zip(u, v)), Fraction(0))


def check_contexts(contexts: Sequence[tuple[Any, Sequence[Sequence[Any]]]]) -> list[tuple[Fraction, list[Vector]]]:
    """``[(P(c), [phi(a, c) for a]) ...]``: probabilities > 0 summing to 1, at least one action per
    context, all feature vectors of one dimension d."""
    out: list[tuple[Fraction, list[Vector]]] = []
    d = None
    for item in _seq(contexts, "contexts"):
        if len(_seq(item, "context")) != 2:
            raise InvalidInputError(f"each context must be a pair (probability, feature vectors), got {len(item)} items")
        prob, feats = item
        p = to_fraction(prob, "context probability")
        if p <= 0:
            raise InvalidInputError(f"context probabilities must be > 0, got {p}")
        rows = [_vector(f, d, "feature vector") for f in _seq(feats, "feature vectors")]
        if not rows:
            raise InvalidInputError("every context needs at least one action")
        d = len(rows[0])
        if any(len(r) != d for r in rows):
            raise InvalidInputError(f"all feature vectors must have {d} coordinates")
        out.append((p, rows))
    if not out:
        raise InvalidInputError("at least one context is needed")
    if sum(p for p, _ in out) != 1:
        raise InvalidInputError(f"context probabilities must sum to 1, got {sum(p for p, _ in out)}")
    return out


def greedy_action(features: Sequence[Vector], theta: Vector) -> int:
    """``a*(c, theta)``: the lowest index maximising ``<phi(a, c), theta>``."""
    values = [_dot(f, theta) for f in features]
    return values.index(max(values))


def reduced_action(theta: Sequence[Any], contexts: Sequence[tuple[Any, Sequence[Sequence[Any]]]]) -> Vector:
    """``g(theta) = sum_c P(c) phi(a*(c, theta), c)`` (Cor 6.3.1's action map), exact."""
    ctx = check_contexts(contexts)
    th = _vector(theta, len(ctx[0][1][0]), "theta")
    total = [Fraction(0)] * len(th)
    for p, feats in ctx:
        f = feats[greedy_action(feats, th)]
        total = [t + p * x for t, x in zip(total, f)]
    return tuple(total)


def reduced_action_set(thetas: Sequence[Sequence[Any]], contexts) -> list[tuple[Vector, Vector]]:
    """``X = {g(theta)}`` over a finite Theta, as ``(x, theta)`` pairs, one per distinct x (the first
    theta giving it kept: the client's ``g^{-1}(x)``)."""
    seen: dict[Vector, Vector] = {}
    for theta in _seq(thetas, "thetas"):
        th = tuple(to_fraction(x, "theta") for x in _seq(theta, "theta"))
        seen.setdefault(reduced_action(th, contexts), th)
    if not seen:
        raise InvalidInputError("Theta must not be empty")
    return list(seen.items())


def contextual_expected_reward(theta: Sequence[Any], theta_star: Sequence[Any], contexts) -> Fraction:
    """``E_{c ~ P}[<phi(a*(c, theta), c), theta*>]``: the mean reward of a client playing the greedy
    action for ``theta`` when the true parameter is ``theta*`` (computed per context, not through g)."""
    ctx = check_contexts(contexts)
    d = len(ctx[0][1][0])
    th, ts = _vector(theta, d, "theta"), _vector(theta_star, d, "theta_star")
    return sum((p * _dot(feats[greedy_action(feats, th)], ts) for p, feats in ctx), Fraction(0))


def contextual_optimum(theta_star: Sequence[Any], contexts) -> Fraction:
    """``E_{c ~ P}[max_a <phi(a, c), theta*>]``: the expected reward of the best policy."""
    ctx = check_contexts(contexts)
    ts = _vector(theta_star, len(ctx[0][1][0]), "theta_star")
    return sum((p * max(_dot(f, ts) for f in feats) for p, feats in ctx), Fraction(0))


__all__ = ["check_contexts", "contextual_expected_reward", "contextual_optimum", "greedy_action",
           "reduced_action", "reduced_action_set"]
