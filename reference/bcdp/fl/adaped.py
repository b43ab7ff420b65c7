"""DP-AdaPeD (thesis Sec. 4.5.1, Alg 4.4.1): the RDP statement of Thm 4.5.1 and the exact accountant.

**Printed (thesis Thm 4.5.1, proof App. C.5, eqs. (C.38)-(C.40)).**  After T iterations with
synchronisation gap tau, K of n clients per round, clipping C1, C2 and noise sigma_{q1}, sigma_{q2},
DP-AdaPeD is (alpha, eps(alpha))-RDP for every alpha > 1 with

    eps(alpha) = (K/n)^2 6 (T/tau) alpha (C1^2/(K sigma_{q1}^2) + C2^2/(K sigma_{q2}^2)).

Neighbouring relation: user level, one client added or removed (App. C.5: "neighboring sets that
differ in only one client"); the proof models a round as the Poisson-subsampled Gaussian mechanism
(SGM) of [MTZ19] with rate q = K/n (Alg 4.4.1 picks exactly K clients; the thesis' proof, and this
module, use the Poisson model), L2 sensitivity Delta of the averaged update mu^{t+1} and noise
variance tau sigma_{q1}^2 / K (tau local Gaussian steps averaged over K clients, (C.38)-(C.39)),
then composes T/tau rounds (thesis Lemma 2.1.4).  Per round the SGM's noise multiplier z satisfies
z^2 = (tau sigma^2 / K) / Delta^2:

* ``"printed"``: (C.38)'s Delta^2 = tau C1^2 / K^2, so z^2 = K sigma^2 / C1^2;
* ``"worst_case"``: tau clipped steps of norm <= C1 can all point the same way, so
  ||mu - mu'|| <= tau C1 / K and Delta^2 = tau^2 C1^2 / K^2 (the learning rate eta_2 multiplies
  update and noise alike and cancels), so z^2 = K sigma^2 / (tau C1^2).

(C.39) then uses the [MTZ19] closed form q^2 alpha / z^2 with the constant 6 for the RDP of a round.

**Fixed-size sampling.**  Alg 4.4.1 picks exactly K of the n clients (without replacement); the
natural relation there is replace-one.  The exact Poisson value is then still a *lower* bound on the
RDP of a round, so the counterexamples below hold for that sampling too: replace a client whose
tau clipped steps all point the same way by one with zero updates, all other clients having zero
updates; the round's output is N(0, s^2) on one dataset and (1 - K/n) N(0, s^2) + (K/n) N(Delta, s^2)
on the other (the client is in the sample with probability K/n), the SGM pair of [MTZ19].  An upper
bound for that sampling ([WBK19, Thm 9], :mod:`bcdp.accounting.subsampling`) is not computed here.

**Findings (erratum E-Thesis-Thm4.5.1, check ``thesis.erratum_thm451_adaped``).**  The closed form
is a bound only in the [MTZ19, Sec. 3.3] regime (q <= 1/5, z >= 4, alpha below two limits;
:func:`bcdp.accounting.sampled_gaussian.mtz19_regime`); the theorem asserts it for every alpha > 1
and every parameter, and it is below the exact RDP of the SGM outside the regime; and with the
worst-case sensitivity it is too small by the factor tau (the tau in T/tau cancels).

* :func:`thm451_epsilon` -- the printed formula (exact rational);
* :func:`round_noise_variance` -- z^2 of one round, either sensitivity;
* :func:`exact_rdp_ball` -- certified (arb) exact RDP of the T/tau rounds at an integer alpha >= 2:
  (T/tau) (eps_SGM(alpha; K/n, z1) + eps_SGM(alpha; K/n, z2)), the binomial sum of [MTZ19]
  (:mod:`bcdp.accounting.sampled_gaussian`);
* :func:`exact_rdp_curve` / :func:`exact_dp_epsilon` -- the exact RDP at the integer orders 2..alpha_max
  as a certified :class:`~bcdp.accounting.curves.RdpCurve`, and its certified (eps, delta)-DP
  (thesis Lemma 2.1.3; :func:`bcdp.accounting.conversion.rdp_to_dp`, CKS conversion);
* :func:`thm451_epsilon_corrected` -- (K/n)^2 6 T alpha (C1^2/(K sigma_{q1}^2) + C2^2/(K sigma_{q2}^2)),
  the printed form without the division by tau, a valid bound when both rounds' (q, z, alpha) lie in
  the [MTZ19] regime (refused otherwise, :class:`~bcdp.core.errors.ValidityConditionError`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from bcdp.accounting import sampled_gaussian
from bcdp.core.errors import InvalidInputError, ValidityConditionError, WrongTypeError
from bcdp.core.intervals import arb_precision, ball_of
from bcdp.core.numbers import to_fraction

if TYPE_CHECKING:  # pragma: no cover
    import flint

__all__ = ["SENSITIVITIES", "exact_dp_epsilon", "exact_rdp_ball", "exact_rdp_curve", "round_noise_variance", "thm451_epsilon", "thm451_epsilon_corrected"]

#: The two readings of the per-round sensitivity (module docstring).
SENSITIVITIES = ("printed", "worst_case")


def _count(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise WrongTypeError(f"{name} must be a positive integer, got {type(value).__name__} {value!r}")
    if value < 1:
        raise InvalidInputError(f"{name} must be a positive integer, got {value}")
    return value


def _positive(value: Any, name: str) -> Fraction:
    v = to_fraction(value, name)
    if v <= 0:
        raise InvalidInputError(f"{name} must be > 0, got {v}")
    return v


def _params(T, tau, K, n, C1, sigma1, C2, sigma2):
    T, tau, K, n = (_count(v, name) for v, name in ((T, "T"), (tau, "tau"), (K, "K"), (n, "n")))
    if K > n:
        raise InvalidInputError(f"K must be <= n (K of n clients per round), got K={K}, n={n}")
    consts = tuple(_positive(v, name) for v, name in ((C1, "C1"), (sigma1, "sigma1"), (C2, "C2"), (sigma2, "sigma2")))
    return (T, tau, K, n) + consts


def _alpha(alpha: Any) -> Fraction:
    a = to_fraction(alpha, "alpha")
    if a <= 1:
        raise ValidityConditionError(f"Thm 4.5.1 is stated for alpha > 1, got {a}")
    return a


def thm451_epsilon(alpha: Any, T: Any, tau: Any, K: Any, n: Any, C1: Any, sigma1: Any, C2: Any, sigma2: Any) -> Fraction:
    """Thesis Thm 4.5.1 as printed: (K/n)^2 6 (T/tau) alpha (C1^2/(K sigma1^2) + C2^2/(K sigma2^2)),
    exact.  alpha > 1 rational (ValidityConditionError otherwise); T, tau, K <= n positive integers;
    C1, C2, sigma1, sigma2 > 0 exact.  Not a valid RDP bound in general (module docstring)."""
    a = _alpha(alpha)
    T, tau, K, n, C1, s1, C2, s2 = _params(T, tau, K, n, C1, sigma1, C2, sigma2)
    return Fraction(K, n) ** 2 * 6 * Fraction(T, tau) * a * (C1 ** 2 / (K * s1 ** 2) + C2 ** 2 / (K * s2 ** 2))


def round_noise_variance(C: Any, sigma: Any, K: Any, tau: Any, *, sensitivity: str = "worst_case") -> Fraction:
    """z^2 = (tau sigma^2 / K) / Delta^2 of one synchronisation round (thesis App. C.5): Delta^2 =
    tau C^2/K^2 (``"printed"``, (C.38)) or tau^2 C^2/K^2 (``"worst_case"``)."""
    if sensitivity not in SENSITIVITIES:
        raise InvalidInputError(f"sensitivity must be one of {SENSITIVITIES}, got {sensitivity!r}")
    c, s = _positive(C, "C"), _positive(sigma, "sigma")
    K, tau = _count(K, "K"), _count(tau, "tau")
    delta_sq = (tau if sensitivity == "printed" else tau * tau) * c * c / (K * K)
    return (tau * s * s / K) / delta_sq


def _rounds(T: int, tau: int) -> int:
    if T % tau:
        raise ValidityConditionError(f"the exact accountant composes T/tau whole rounds: tau={tau} must divide T={T}")
    return T // tau


def exact_rdp_ball(alpha: Any, T: Any, tau: Any, K: Any, n: Any, C1: Any, sigma1: Any, C2: Any, sigma2: Any, *,
                   sensitivity: str = "worst_case", bits: int = 128) -> flint.arb:
    """Certified enclosure of (T/tau) (eps_SGM(alpha; K/n, z1) + eps_SGM(alpha; K/n, z2)), the exact
    RDP of the model of App. C.5 (Poisson client sampling at rate K/n, add/remove one client) at an
    integer order alpha >= 2, with z_j^2 = :func:`round_noise_variance` (``sensitivity``) and eps_SGM
    the [MTZ19] binomial sum (:func:`bcdp.accounting.sampled_gaussian.sgm_rdp_ball_var`).  RDP
    composes additively over the T/tau rounds (thesis Lemma 2.1.4); tau must divide T."""
    T, tau, K, n, C1, s1, C2, s2 = _params(T, tau, K, n, C1, sigma1, C2, sigma2)
    rounds = _rounds(T, tau)
    q = Fraction(K, n)
    z1 = round_noise_variance(C1, s1, K, tau, sensitivity=sensitivity)
    z2 = round_noise_variance(C2, s2, K, tau, sensitivity=sensitivity)
    e1 = sampled_gaussian.sgm_rdp_ball_var(q, z1, alpha, bits=bits)
    e2 = sampled_gaussian.sgm_rdp_ball_var(q, z2, alpha, bits=bits)
    with arb_precision(bits):
        return ball_of(rounds) * (e1 + e2)


def exact_rdp_curve(T: Any, tau: Any, K: Any, n: Any, C1: Any, sigma1: Any, C2: Any, sigma2: Any, *,
                    alpha_max: int = 256, sensitivity: str = "worst_case", bits: int = 128):
    """The exact RDP of :func:`exact_rdp_ball` at the integer orders 2..``alpha_max`` as an RdpCurve
    (:func:`bcdp.accounting.curves.rdp_curve_from_arrays`) whose certified values are the arb balls."""
    from bcdp.accounting import curves

    if isinstance(alpha_max, bool) or not isinstance(alpha_max, int) or not 2 <= alpha_max <= 4096:
        raise InvalidInputError(f"alpha_max must be an integer in [2, 4096], got {alpha_max!r}")
    orders = list(range(2, alpha_max + 1))
    balls = [exact_rdp_ball(a, T, tau, K, n, C1, sigma1, C2, sigma2, sensitivity=sensitivity, bits=bits)
             for a in orders]
    values = [float(b.upper()) for b in balls]
    return curves.rdp_curve_from_arrays(orders, values, certified_values=balls,
                                        label=f"DP-AdaPeD exact SGM RDP (T={T}, tau={tau}, K={K}, n={n})",
                                        source="thesis App. C.5 model; [MTZ19] binomial sum")


def exact_dp_epsilon(delta: Any, T: Any, tau: Any, K: Any, n: Any, C1: Any, sigma1: Any, C2: Any, sigma2: Any, *,
                     alpha_max: int = 256, sensitivity: str = "worst_case"):
    """Certified user-level (eps, delta)-DP of DP-AdaPeD from :func:`exact_rdp_curve` (thesis Lemma
    2.1.3 via :func:`bcdp.accounting.conversion.rdp_to_dp`, method "cks", integer orders); returns the
    conversion's Certified record (``upper`` is the guarantee)."""
    from bcdp.accounting import conversion

    curve = exact_rdp_curve(T, tau, K, n, C1, sigma1, C2, sigma2, alpha_max=alpha_max, sensitivity=sensitivity)
    return conversion.rdp_to_dp(curve, delta, method="cks", orders="integer")


def thm451_epsilon_corrected(alpha: Any, T: Any, tau: Any, K: Any, n: Any, C1: Any, sigma1: Any, C2: Any,
                             sigma2: Any) -> Fraction:
    """Corrected Thm 4.5.1 (erratum E-Thesis-Thm4.5.1): (K/n)^2 6 T alpha (C1^2/(K sigma1^2) +
    C2^2/(K sigma2^2)) -- the worst-case sensitivity tau C/K makes z_j^2 = K sigma_j^2/(tau C_j^2)
    and the tau of T/tau cancels.  An RDP bound (3 times [MTZ19]'s 2 q^2 alpha / z^2 per round) when
    (K/n, z_j, alpha) lies in the [MTZ19, Sec. 3.3] regime for j = 1, 2; ValidityConditionError
    outside it or for alpha <= 1."""
    a = _alpha(alpha)
    T, tau, K, n, C1, s1, C2, s2 = _params(T, tau, K, n, C1, sigma1, C2, sigma2)
    q = Fraction(K, n)
    for j, (c, s) in enumerate(((C1, s1), (C2, s2)), start=1):
        z_sq = round_noise_variance(c, s, K, tau, sensitivity="worst_case")
        if not sampled_gaussian.mtz19_regime_var(q, z_sq, a):
            raise ValidityConditionError(f"mechanism {j}: (q={q}, z^2={z_sq}, alpha={a}) is outside the MTZ19 "
                                         "regime (q <= 1/5, z >= 4, alpha below its two limits)")
    return q ** 2 * 6 * T * a * (C1 ** 2 / (K * s1 ** 2) + C2 ** 2 / (K * s2 ** 2))
