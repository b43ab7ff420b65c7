"""Key-entropy closed forms of private recoverability and [ASZ19]'s Hadamard response (thesis Sec. 7.5).

Closed forms (entropies in nats as printed, or bits; ``eps`` exact, ``e^eps`` an arb ball):

- :func:`entropy_747`: ``H(U^s_min) = log(s(e^eps - 1) + k) - s eps e^eps / (s(e^eps - 1) + k)`` (7.47);
- :func:`stationary_point`: ``s~ = k (e^eps (eps - 1) + 1) / (e^eps - 1)^2`` (7.48) (``k/2`` at ``eps = 0``,
  the limit), with :func:`derive_stationary_point` re-deriving it with sympy (``t* = eps e^eps k / (e^eps - 1)``,
  second derivative ``> 0``);
- :func:`s_star`: Thm 7.5.1's rule ``s* = argmin_{s in {floor s~, ceil s~}} H(U^s_min)``, clipped to ``[1, k-1]``;
- :func:`lower_bound_752`: (7.52) as printed (split at ``eps <= log k``) or corrected (its first case, the
  minimum over real ``s``, for every ``eps > 0``);
- :func:`hr_upper_bound_751`: (7.51), the unsplit bound and both readings of its case split
  (``eps <= log k + 1`` printed; ``min{e^eps, 2k} = e^eps`` exact);
- :func:`storage_gain`: Sec. 7.7's ``(log k - H_min)/log k`` (Fig. 7.3).

Hadamard response (7.49), exact with a rational ``e_eps`` (``eps = log e_eps``; the parameters depend on
``eps`` only through ``ceil(log2 min{e^eps, 2k})``, :func:`hr_parameters_exact`): :func:`hr_sets` builds the
sets ``C_x``, :func:`hr_channel` the channel, :func:`hr_key_law` the key law ``q_HR`` and
:func:`hr_key_realisation` a recoverable map ``f`` with key law ``q_HR`` on ``[K]`` when one exists.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Sequence

from bcdp.core.errors import InvalidInputError, UndecidedComparison
from bcdp.core.intervals import arb_precision, ball_ends, ball_of
from bcdp.core.numbers import MAX_PREC_BITS, MIN_PREC_BITS, brief_number, check_precision, to_fraction
from bcdp.core.results import Certified, decide_le
from bcdp.randomness import keys
from bcdp.randomness.entropy import check_unit

MAX_K = 10 ** 6
MAX_EPS = 10_000
#: Largest ``K`` for the exact Hadamard-response tables.
MAX_HR_K = 4096
#: Largest k K of :func:`hr_key_realisation` (edge colouring of k K edges; about 2 s at the cap).
MAX_REALISATION_EDGES = 2 ** 16
HR_RULES = ("asz19", "asz19_complement", "cyclic")


def _k(k: Any, minimum: int = 2) -> int:
    if isinstance(k, bool) or not isinstance(k, int) or not minimum <= k <= MAX_K:
        raise InvalidInputError(f"k must be an integer in [{minimum}, {MAX_K}], got {k!r}")
    return k


def _eps(eps: Any, positive: bool = False) -> Fraction:
    e = to_fraction(eps, "eps")
    if e < 0 or e > MAX_EPS or (positive and e == 0):
        raise InvalidInputError(f"eps must be in {'(0' if positive else '[0'}, {MAX_EPS}], got {brief_number(e)}")
    return e


def _prec(prec: int) -> int:
    return check_precision(prec, "prec", MIN_PREC_BITS, MAX_PREC_BITS)


def _cert(ball: Any, unit: str | None, provenance: str, **details: Any) -> Certified:
    if unit == "bits":
        ball = ball / ball_of(2).log()
    lo, hi = ball_ends(ball)
    return Certified(lower=lo, upper=hi, provenance=provenance, details={"unit": unit, **details})


def _refined_cert(make_ball: Any, prec: int, unit: str | None, provenance: str, **details: Any) -> Certified:
    """``_cert`` of ``make_ball()`` evaluated at ``prec`` bits, doubled while the ball is not finite or wider than
    ``2^-(prec/2)`` relative (cancellation, e.g. ``E (eps - 1) + 1 ~ eps^2/2`` for tiny ``eps`` in (7.48), (7.52))."""
    p = prec
    while p <= MAX_PREC_BITS:
        with arb_precision(p):
            ball = make_ball()
            if ball.is_finite() and ball.rad() <= (abs(ball.mid()) + 1) * ball_of(2) ** (-(prec // 2)):
                return _cert(ball, unit, provenance, **details)
        p *= 2
    raise UndecidedComparison(f"{provenance}: no tight enclosure up to {MAX_PREC_BITS} bits")


def entropy_747_ball(k: int, s: int, eps: Fraction) -> Any:
    """Arb ball of (7.47) in nats: ``log(s(E - 1) + k) - s eps E / (s(E - 1) + k)``, ``E = e^eps``."""
    big = ball_of(eps).exp()
    t = s * (big - 1) + k
    return t.log() - s * ball_of(eps) * big / t


def entropy_747(k: int, s: int, eps: Any, unit: str = "nats", prec: int = 128) -> Certified:
    """Certified closed form (7.47) of ``H(U^s_min)`` (thesis Sec. 7.5.1), ``0 <= s <= k``."""
    prec, k, e = _prec(prec), _k(k, 1), _eps(eps)
    if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s <= k:
        raise InvalidInputError(f"s must be an integer in [0, {k}], got {s!r}")
    with arb_precision(prec):
        return _cert(entropy_747_ball(k, s, e), check_unit(unit), "thesis eq. (7.47)", k=k, s=s, eps=e)


def stationary_point_ball(k: int, eps: Fraction) -> Any:
    big = ball_of(eps).exp()
    return k * (big * (ball_of(eps) - 1) + 1) / (big - 1) ** 2


def stationary_point(k: int, eps: Any, prec: int = 128) -> Certified:
    """Certified ``s~ = k (e^eps (eps - 1) + 1) / (e^eps - 1)^2`` (thesis (7.48)); exactly ``k/2`` at ``eps = 0``
    (the limit; the formula is 0/0 there)."""
    prec, k, e = _prec(prec), _k(k, 1), _eps(eps)
    if e == 0:
        half = Fraction(k, 2)
        return Certified(lower=half, upper=half, exact=half, provenance="thesis (7.48) at eps -> 0")
    return _refined_cert(lambda: stationary_point_ball(k, e), prec, None, "thesis eq. (7.48)", k=k, eps=e)


def derive_stationary_point() -> dict[str, Any]:
    """Sympy re-derivation of (7.48): with ``t = s(E - 1) + k`` and ``h(s) = log t - s eps E / t`` (7.47), the
    stationary point ``t* = eps E k / (E - 1)`` and ``s~ = (t* - k)/(E - 1)``; ``h''`` at ``t*`` is
    ``(E - 1)^2 / t*^2 > 0`` (so the only stationary point is a minimum).  Returns the sympy expressions."""
    import sympy

    s, k, eps = sympy.symbols("s k epsilon", positive=True)
    big = sympy.exp(eps)
    t = s * (big - 1) + k
    h = sympy.log(t) - s * eps * big / t
    dh = sympy.together(sympy.diff(h, s))
    roots = sympy.solve(sympy.numer(dh), s)
    if len(roots) != 1:
        raise InvalidInputError(f"expected one stationary point, sympy found {roots}")
    s_tilde = sympy.simplify(roots[0])
    t_star = sympy.simplify(t.subs(s, s_tilde))
    second = sympy.simplify(sympy.diff(h, s, 2).subs(s, s_tilde))
    return {"h": h, "dh_ds": dh, "s_tilde": s_tilde, "t_star": t_star, "second_derivative": second,
            "symbols": (s, k, eps)}


def s_star(k: int, eps: Any, prec: int = 128) -> Certified:
    """Thm 7.5.1's ``s* = argmin_{s in {floor l, ceil l}} H(U^s_min)``, ``l = s~`` of (7.48), the candidates
    clipped to ``[1, k - 1]``; ``k >= 2``.  ``witness`` = ``s*``; ``lower``/``upper`` enclose ``H(U^{s*}_min)``
    in nats.  At ``eps = 0`` every ``s`` ties (uniform law): ``witness`` is ``None`` (undecided) for ``k > 2``
    and the enclosure is that of ``log k``."""
    prec, k, e = _prec(prec), _k(k), _eps(eps)
    p = prec
    while True:
        with arb_precision(p):
            if e == 0:
                fl = k // 2
            else:
                lo, hi = ball_ends(stationary_point_ball(k, e))
                fl = lo.numerator // lo.denominator
                if hi.numerator // hi.denominator != fl or fl == lo:
                    p *= 2  # s~ is never an integer for rational eps > 0; refine
                    if p > MAX_PREC_BITS:
                        raise UndecidedComparison("floor of s~ undecided; raise prec")
                    continue
            cands = sorted({min(max(c, 1), k - 1) for c in (fl, fl + 1)})
            balls = {c: entropy_747_ball(k, c, e) for c in cands}
            if e == 0 and k > 2:
                best = None  # every s gives the uniform law: a tie, no argmin (the entropy is log k)
                cands = [k // 2]
            elif len(cands) == 1:
                best = cands[0]
            else:
                a, b = cands
                le = decide_le(Certified(*ball_ends(balls[a])), Certified(*ball_ends(balls[b])))
                if le is None:
                    p *= 2
                    if p > MAX_PREC_BITS:
                        raise UndecidedComparison("H(U^s) at floor/ceil of s~ undecided; raise prec")
                    continue
                best = a if le else b
            lo, hi = ball_ends(balls[cands[0] if best is None else best])
        return Certified(lower=lo, upper=hi, witness=best, provenance="thesis Thm 7.5.1, rule (7.48)",
                         details={"k": k, "eps": e, "candidates": tuple(cands), "unit": "nats"})


def _log_k_decides(e: Fraction, k: int, shift: int) -> bool:
    """Certified ``eps <= log k + shift`` (``log k + shift`` is irrational for ``k >= 2``: never a tie)."""
    p = 128
    while p <= MAX_PREC_BITS:
        with arb_precision(p):
            d = decide_le(Certified(e, e), Certified(*ball_ends(ball_of(k).log() + shift)))
        if d is not None:
            return d
        p *= 2
    raise UndecidedComparison("eps vs log k undecided")


def lower_bound_752(k: int, eps: Any, unit: str = "nats", reading: str = "printed", prec: int = 128) -> Certified:
    """(7.52), thesis Sec. 7.5.2: the lower bound on ``H_min(U) = H(U^{s*}_min)``; ``eps > 0``, ``k >= 2``.

    ``reading="printed"``: ``log(k eps E/(E - 1)) - eps E / (E + (E - 1)^2/(E(eps - 1) + 1) - 1)`` if
    ``eps <= log k``, else ``log(E + k - 1) - eps E/(E + k - 1)`` (the value at ``s = 1``).
    ``reading="corrected"``: the first expression for every ``eps > 0``: it is (7.47) at the real minimiser
    ``s~`` in ``(0, k/2]``, hence at most the minimum over integers (E-Thesis-Eq7.52).
    """
    prec, k, e = _prec(prec), _k(k), _eps(eps, positive=True)
    if reading not in ("printed", "corrected"):
        raise InvalidInputError(f"reading must be 'printed' or 'corrected', got {reading!r}")
    first = reading == "corrected" or _log_k_decides(e, k, 0)
    unit = check_unit(unit)

    def ball() -> Any:
        big, ep = ball_of(e).exp(), ball_of(e)
        if first:
            return (k * ep * big / (big - 1)).log() - ep * big / (big + (big - 1) ** 2 / (big * (ep - 1) + 1) - 1)
        return (big + k - 1).log() - ep * big / (big + k - 1)
    return _refined_cert(ball, prec, unit, f"thesis eq. (7.52), {reading}", k=k, eps=e,
                         case="eps <= log k" if first else "eps > log k")


def hr_upper_bound_751(k: int, eps: Any, unit: str = "nats", split: str = "none", prec: int = 128) -> Certified:
    """(7.51), thesis Sec. 7.5.2: upper bound on the entropy of HR's key, ``eps > 0``, ``k >= 2``.

    ``split="none"``: ``log((2k/m)(E - 1) + 4k) - eps E / (E - 1 + 2m)``, ``m = min{E, 2k}``;
    ``split="printed"``: ``log(2k(3E - 1)/E) - eps E/(3E - 1)`` if ``eps <= log k + 1``, else
    ``log(E + 4k - 1) - eps E/(E + 4k - 1)``; ``split="min"``: the same two cases split at ``E <= 2k``
    (``min{E, 2k} = E``; then equal to ``"none"``).
    """
    prec, k, e = _prec(prec), _k(k), _eps(eps, positive=True)
    if split not in ("none", "printed", "min"):
        raise InvalidInputError(f"split must be 'none', 'printed' or 'min', got {split!r}")
    with arb_precision(prec):
        big, ep = ball_of(e).exp(), ball_of(e)
        small = decide_le(Certified(*ball_ends(big)), Certified(2 * k, 2 * k))  # e^eps irrational: no tie
        if small is None:
            raise UndecidedComparison("e^eps vs 2k undecided; raise prec")
        if split == "none":
            m = big if small else ball_of(2 * k)
            ball = (2 * k / m * (big - 1) + 4 * k).log() - ep * big / (big - 1 + 2 * m)
            case = "min = e^eps" if small else "min = 2k"
        else:
            first = _log_k_decides(e, k, 1) if split == "printed" else small
            if first:
                ball = (2 * k * (3 * big - 1) / big).log() - ep * big / (3 * big - 1)
            else:
                ball = (big + 4 * k - 1).log() - ep * big / (big + 4 * k - 1)
            case = "first" if first else "second"
        return _cert(ball, check_unit(unit), f"thesis eq. (7.51), split {split}", k=k, eps=e, case=case)


def storage_gain(k: int, eps: Any, prec: int = 128) -> Certified:
    """Certified storage gain ``(log k - H_min)/log k`` of thesis Sec. 7.7 (Fig. 7.3), ``H_min = min_s H(U^s_min)``
    (:func:`bcdp.randomness.keys.min_two_level_entropy`, Thm 7.5.1); unit-free; ``k >= 2``, exact ``eps >= 0``."""
    prec, k, e = _prec(prec), _k(k), _eps(eps)
    h = keys.min_two_level_entropy(k, e, "nats", prec=prec)
    with arb_precision(prec):
        log_k = ball_of(k).log()
        lo = ball_ends((log_k - ball_of(h.upper)) / log_k)[0]
        hi = ball_ends((log_k - ball_of(h.lower)) / log_k)[1]
    return Certified(lower=lo, upper=hi, provenance="storage gain (log k - H_min)/log k, thesis Sec. 7.7",
                     details={"k": k, "eps": e, "argmin": h.argmin})


# -- Hadamard response, exact ------------------------------------------------------------------------

def _ceil_log2(x: Fraction) -> int:
    j = x.numerator.bit_length() - x.denominator.bit_length() - 1
    while Fraction(2) ** j < x:
        j += 1
    while Fraction(2) ** (j - 1) >= x:
        j -= 1
    return j


def hr_parameters_exact(k: int, e_eps: Any) -> dict[str, int]:
    """[ASZ19, Sec. 5]'s ``(B, b, K, s)`` (thesis Sec. 7.5.2) from an exact ratio ``e_eps = e^eps > 1``:
    ``B = 2^(ceil(log2 min{e_eps, 2k}) - 1)``, ``b = 2^ceil(log2(k/B + 1))``, ``K = B b``, ``s = b/2``; ``B >= 1``
    needs ``e_eps > 1``."""
    k = _k(k)
    e = to_fraction(e_eps, "e_eps")
    if e <= 1:
        raise InvalidInputError(f"e_eps must be > 1, got {brief_number(e)}")
    big_b = 2 ** (_ceil_log2(min(e, Fraction(2 * k))) - 1)
    b = 2 ** _ceil_log2(Fraction(k, big_b) + 1)
    return {"B": big_b, "b": b, "K": big_b * b, "s": b // 2}


def hr_sets(k: int, big_b: int, b: int, rule: str = "asz19") -> tuple[frozenset[int], ...]:
    """The sets ``C_x`` of (7.49) on outputs ``[K] = [B b]`` (output ``j b + y`` = block ``j``, position ``y``).

    ``"asz19"`` ([ASZ19, Sec. 5] and its reference code): input ``x`` sits in block ``j = x // (b - 1)`` at row
    ``i = x mod (b - 1) + 1`` of the Sylvester matrix ``H_b`` (row 0 skipped), ``C_x = {j b + y : H_b(i, y) = +1}``
    (``popcount(i & y)`` even); ``"asz19_complement"``: the ``-1`` entries instead; ``"cyclic"``: ``C_x =
    {x s + t mod K : 0 <= t < s}`` with ``s = b/2`` (each output in ``floor`` or ``ceil`` of ``k s / K`` sets).
    Needs ``B (b - 1) >= k`` for the Hadamard rules."""
    k = _k(k)
    if rule not in HR_RULES:
        raise InvalidInputError(f"rule must be one of {HR_RULES}, got {rule!r}")
    for name, v in (("B", big_b), ("b", b)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 1 or v & (v - 1):
            raise InvalidInputError(f"{name} must be a power of 2, got {v!r}")
    if b < 2 or big_b * b > MAX_HR_K:
        raise InvalidInputError(f"need b >= 2 and K = B b <= {MAX_HR_K}")
    if rule != "cyclic" and big_b * (b - 1) < k:
        raise InvalidInputError(f"B (b - 1) = {big_b * (b - 1)} < k = {k}: not enough Hadamard rows")
    big_k, s = big_b * b, b // 2
    out = []
    for x in range(k):
        if rule == "cyclic":
            out.append(frozenset((x * s + t) % big_k for t in range(s)))
            continue
        j, i = divmod(x, b - 1)
        i += 1
        plus = rule == "asz19"
        out.append(frozenset(j * b + y for y in range(b) if (bin(i & y).count("1") % 2 == 0) == plus))
    return tuple(out)


def hr_channel(sets: Sequence[frozenset[int]], big_k: int, e_eps: Any) -> tuple[tuple[Fraction, ...], ...]:
    """(7.49) exactly: ``Q(y|x) = E/(s E + K - s)`` for ``y in C_x``, else ``1/(s E + K - s)``; every ``|C_x| = s``."""
    e = to_fraction(e_eps, "e_eps")
    sizes = {len(c) for c in sets}
    if len(sizes) != 1 or any(not c <= set(range(big_k)) for c in sets):
        raise InvalidInputError("the sets C_x must all have the same size s and lie in [0, K)")
    s = sizes.pop()
    den = s * e + big_k - s
    return tuple(tuple((e if y in c else Fraction(1)) / den for y in range(big_k)) for c in sets)


def hr_key_law(big_k: int, s: int, e_eps: Any) -> tuple[Fraction, ...]:
    """``q_HR`` (thesis Sec. 7.5.2): ``K - s`` values ``1/(s E + K - s)`` then ``s`` values ``E/(s E + K - s)``."""
    e = to_fraction(e_eps, "e_eps")
    den = s * e + big_k - s
    return tuple([1 / den] * (big_k - s) + [e / den] * s)


def _edge_colouring(edges: list[tuple[Any, Any]], colours: int) -> dict[tuple[Any, Any], int] | None:
    """A proper edge colouring of a bipartite graph with ``colours`` colours (alternating-path algorithm,
    Koenig's theorem: it exists iff the maximum degree is at most ``colours``); None otherwise."""
    deg: dict[Any, int] = {}
    for a, b in edges:
        deg[a] = deg.get(a, 0) + 1
        deg[b] = deg.get(b, 0) + 1
    if deg and max(deg.values()) > colours:
        return None
    at: dict[Any, dict[int, Any]] = {v: {} for v in deg}
    for a, b in edges:
        alpha = next(c for c in range(colours) if c not in at[a])
        beta = next(c for c in range(colours) if c not in at[b])
        if alpha in at[b]:
            path, v, c = [], b, alpha
            while c in at[v]:
                w = at[v][c]
                path.append((v, w, c))
                v, c = w, (beta if c == alpha else alpha)
            for v, w, c in path:
                del at[v][c], at[w][c]
            for v, w, c in path:
                nc = beta if c == alpha else alpha
                at[v][nc], at[w][nc] = w, v
        at[a][alpha], at[b][alpha] = b, a
    return {(a, b): next(c for c, w in at[a].items() if w == b) for a, b in edges}


def hr_key_realisation(sets: Sequence[frozenset[int]], big_k: int) -> tuple[tuple[int, ...], ...] | None:
    """A map ``f[x][u]`` such that the key law :func:`hr_key_law` on ``[K]`` induces (7.49) and ``X`` is
    recoverable, or None when none exists.  With ``K`` key values and ``K`` outputs every ``f(x, .)`` must be a
    bijection sending the ``s`` likely key values onto ``C_x``; a recoverable choice exists iff every output
    lies in at most ``s`` sets and outside at most ``K - s`` (Koenig's edge-colouring theorem), and is then
    built by colouring the bipartite graphs ``x -- y in C_x`` (``s`` colours = likely keys) and
    ``x -- y not in C_x`` (``K - s`` colours).  At most ``MAX_REALISATION_EDGES`` pairs ``(x, y)``."""
    if isinstance(big_k, bool) or not isinstance(big_k, int) or not 1 <= big_k <= MAX_HR_K:
        raise InvalidInputError(f"K must be an integer in [1, {MAX_HR_K}], got {big_k!r}")
    sets = tuple(frozenset(c) for c in sets)
    k = len(sets)
    if not 1 <= k or k * big_k > MAX_REALISATION_EDGES:
        raise InvalidInputError(f"need 1 <= k and k K <= {MAX_REALISATION_EDGES}, got k = {k}, K = {big_k}")
    if len({len(c) for c in sets}) != 1 or any(not c <= set(range(big_k)) for c in sets):
        raise InvalidInputError("the sets C_x must all have the same size s and lie in [0, K)")
    s = len(sets[0])
    high = _edge_colouring([(("x", x), ("y", y)) for x in range(k) for y in sorted(sets[x])], s)
    low = _edge_colouring([(("x", x), ("y", y)) for x in range(k) for y in range(big_k) if y not in sets[x]],
                          big_k - s)
    if high is None or low is None:
        return None
    f = [[-1] * big_k for _ in range(k)]
    for ((_, x), (_, y)), c in high.items():
        f[x][big_k - s + c] = y
    for ((_, x), (_, y)), c in low.items():
        f[x][c] = y
    return tuple(tuple(row) for row in f)


def max_column_sum(channel: Sequence[Sequence[Any]]) -> Fraction:
    """``max_y sum_x Q(y|x)``: recoverability with any key forces it to be ``<= 1`` (for each ``y`` the key
    sets ``U_yx`` are disjoint, App. F.5.1), so a value ``> 1`` certifies that no key recovers ``X``."""
    return max(sum((Fraction(v) for v in col), Fraction(0)) for col in zip(*channel))
