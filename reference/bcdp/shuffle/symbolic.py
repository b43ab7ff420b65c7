"""Sympy derivations behind the thesis Chapter 5 closed forms (used by ``proofs_checks/``).

Each function derives one identity or inequality from its definitions and returns the simplified
residual (0 when the identity holds) or a small record; nothing here is numerical except where a
function says so.  E = e^eps0 > 0 throughout (a positive symbol), p = 1/(E+1).

* :func:`ratio_identity_540` -- (5.40): for shuffled 2RR with D = 0^n, D' = 0^{n-1}1 and k ones,
  M(D')(k)/M(D)(k) - 1 = ((E^2-1)/(nE))(k - n/(E+1)).  The printed left side is
  M(D)(k)/M(D')(k) - 1 (thesis Sec. 5.3.4), which is not that affine function (erratum E-Thesis-5.40).
* :func:`chi_square_lemma535` -- Lemma 5.3.5 (5.39): the value (E-1)^2/E at the vertices of
  T_eps0 (ratio E on p-mass 1/(E+1), 1/E elsewhere) and at 2RR, which is such a vertex.
* :func:`upsilon_identity` -- Thm 5.4.1: sum_{lambda=2}^alpha C(alpha,lambda) gamma^lambda
  c^lambda = (1 + gamma c)^alpha - 1 - alpha gamma c (binomial theorem), and Lemma 5.4.1 applied to
  (5.43) equals the printed Thm 5.4.1 (the tails sum to Upsilon).
* :func:`bernoulli_central_moments_nonnegative` -- Cor 5.3.2: E[(B - p)^r] = p q^r + q (-p)^r,
  = p q (q^{r-1} - p^{r-1}) for odd r, hence >= 0 for p <= 1/2; with the multinomial expansion
  this proves that every central moment of Bin(n, p), p <= 1/2, is >= 0.
* :func:`claim_d11` -- Claim D.1.1: C(alpha, i) i Gamma(i/2) <= alpha^i, exact comparison.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

E = sp.Symbol("E", positive=True)
n_sym = sp.Symbol("n", positive=True, integer=True)
k_sym = sp.Symbol("k", nonnegative=True, integer=True)


def _2rr_laws() -> tuple[sp.Expr, sp.Expr, sp.Expr]:
    """(M(D)(k), M(D')(k), p) for shuffled 2RR, D = 0^n, D' = 0^{n-1}1, as sympy expressions
    with the binomial ratios written out (C(n-1,k-1) = C(n,k) k/n, C(n-1,k) = C(n,k)(n-k)/n)."""
    p = 1 / (E + 1)
    q = 1 - p
    n, k = n_sym, k_sym
    C = sp.Symbol("C", positive=True)  # C(n, k)
    md = C * p ** k * q ** (n - k)
    mdp = q * (C * k / n) * p ** (k - 1) * q ** (n - k) + p * (C * (n - k) / n) * p ** k * q ** (n - k - 1)
    return md, mdp, p


def ratio_identity_540() -> dict[str, Any]:
    """Residuals of (5.40) the right way up (0) and as printed (non-zero), plus an exact
    counterexample to the printed side at n = 2, k = 0, E = 2."""
    md, mdp, _ = _2rr_laws()
    n, k = n_sym, k_sym
    affine = (E ** 2 - 1) / (n * E) * (k - n / (E + 1))
    right_way = sp.simplify(sp.powsimp(sp.expand_power_base(mdp / md - 1 - affine, force=True), force=True))
    printed = sp.simplify(sp.powsimp(sp.expand_power_base(md / mdp - 1 - affine, force=True), force=True))
    at = {n: 2, k: 0, E: 2}
    return {
        "residual_correct": right_way,
        "residual_printed": printed,
        "printed_counterexample": {"n": 2, "k": 0, "E": 2,
                                   "printed_lhs": sp.nsimplify(sp.simplify((md / mdp - 1).subs(at))),
                                   "correct_lhs": sp.nsimplify(sp.simplify((mdp / md - 1).subs(at))),
                                   "affine_rhs": sp.nsimplify(affine.subs(at))},
    }


def chi_square_lemma535() -> dict[str, Any]:
    """Lemma 5.3.5: vertex value and 2RR value of sum_j p'_j^2/p_j - 1."""
    s = sp.Symbol("s", positive=True)  # p-mass of the outputs where p'/p = E
    # p'-mass: E s + (1 - s)/E = 1
    s_star = sp.solve(sp.Eq(E * s + (1 - s) / E, 1), s)
    vertex_value = sp.simplify(E ** 2 * s + (1 - s) / E ** 2 - 1)
    vertex_value = sp.simplify(vertex_value.subs(s, s_star[0]))
    p = [E / (E + 1), 1 / (E + 1)]
    pp = [1 / (E + 1), E / (E + 1)]
    rr_value = sp.simplify(sum(b ** 2 / a for a, b in zip(p, pp)) - 1)
    target = (E - 1) ** 2 / E
    return {"vertex_mass": s_star, "vertex_value": vertex_value, "rr_value": rr_value,
            "vertex_residual": sp.simplify(vertex_value - target),
            "rr_residual": sp.simplify(rr_value - target)}


def upsilon_identity(alpha_max: int = 30) -> dict[str, Any]:
    """Binomial identity for the Upsilon tail, for alpha = 2..alpha_max (polynomial identity in
    x; for general alpha it is the binomial theorem), and the full Lemma 5.4.1 o (5.43) = Thm 5.4.1
    identity for alpha = 2..8 with symbols gamma, E, kbar, k.  Also shows that the two published
    code tails are *not* this sum (they differ by a non-zero polynomial)."""
    x = sp.Symbol("x")
    res = {}
    for a in range(2, alpha_max + 1):
        lhs = sum(sp.binomial(a, lam) * x ** lam for lam in range(2, a + 1))
        res[a] = sp.expand(lhs - ((1 + x) ** a - 1 - a * x))
    # full theorem
    g, kb, k = sp.symbols("gamma kbar k", positive=True)
    c = E - 1 / E
    decay = sp.exp(-(k - 1) / (8 * E))
    full = {}
    for a in range(2, 9):
        def zeta_pow(l: int) -> sp.Expr:
            main = (4 * (E - 1) ** 2 / (kb * E) if l == 2 else
                    l * sp.gamma(sp.Rational(l, 2)) * (2 * (E ** 2 - 1) ** 2 / (kb * E ** 2)) ** sp.Rational(l, 2))
            return main + c ** l * decay
        lemma = sum(sp.binomial(a, l) * g ** l * zeta_pow(l) for l in range(2, a + 1))
        printed = (4 * sp.binomial(a, 2) * g ** 2 * (E - 1) ** 2 / (kb * E)
                   + sum(sp.binomial(a, j) * g ** j * j * sp.gamma(sp.Rational(j, 2))
                         * (2 * (E ** 2 - 1) ** 2 / (kb * E ** 2)) ** sp.Rational(j, 2) for j in range(3, a + 1))
                   + ((1 + g * c) ** a - 1 - a * g * c) * decay)
        full[a] = sp.simplify(sp.expand(lemma - printed))
    # published-code tails against the sum: girgis (1+x)^a - 1 - x with x = gamma(E-1);
    # the "dropped alpha factor" alone: (1+x)^a - 1 - x
    dropped = {a: sp.expand(sum(sp.binomial(a, l) * x ** l for l in range(2, a + 1)) - ((1 + x) ** a - 1 - x))
               for a in range(2, 6)}
    return {"per_alpha_residuals": res,
            "lemma541_of_543_minus_thm541": full, "dropped_alpha_factor_residuals": dropped}


def bernoulli_central_moments_nonnegative(r_max: int = 40) -> dict[str, Any]:
    """E[(B-p)^r] = p q^r + q(-p)^r; for odd r it equals p q (q^{r-1} - p^{r-1}) (residual 0),
    and q^{r-1} - p^{r-1} = (1 - 2p) sum_{j=0}^{r-2} q^{r-2-j} p^j >= 0 for 0 <= p <= 1/2 (every
    summand is >= 0).  Returns the residuals of both polynomial identities (0 = holds)."""
    p = sp.Symbol("p", nonnegative=True)
    q = 1 - p
    residuals = {}
    for r in range(3, r_max + 1, 2):
        m_r = p * q ** r + q * (-p) ** r
        residuals[r] = sp.expand(m_r - p * q * (q ** (r - 1) - p ** (r - 1)))
    # q^{r-1} - p^{r-1} = (q - p) * sum_{j} q^{r-2-j} p^j with q - p = 1 - 2p >= 0
    factor_ok = {}
    for r in range(3, r_max + 1, 2):
        f = sp.expand(q ** (r - 1) - p ** (r - 1))
        factorised = sp.expand((1 - 2 * p) * sum(q ** (r - 2 - j) * p ** j for j in range(r - 1)))
        factor_ok[r] = sp.expand(f - factorised) == 0
    return {"odd_moment_residuals": residuals, "factor_identity": factor_ok}


def claim_d11(alpha_max: int = 60) -> dict[str, Any]:
    """Claim D.1.1 (App. D.1): C(alpha,i) i Gamma(i/2) <= alpha^i for 3 <= i <= alpha, checked
    exactly (Gamma(i/2) is rational times sqrt(pi); compared through a certified sympy sign)."""
    worst = (sp.Integer(0), None)
    violations = []
    for a in range(3, alpha_max + 1):
        for i in range(3, a + 1):
            lhs = sp.binomial(a, i) * i * sp.gamma(sp.Rational(i, 2))
            rhs = sp.Integer(a) ** i
            ratio = lhs / rhs
            if sp.N(ratio, 50) > 1:
                violations.append((a, i))
            if sp.N(ratio, 30) > sp.N(worst[0], 30):
                worst = (ratio, (a, i))
    return {"violations": violations, "max_ratio": str(sp.N(worst[0], 15)), "argmax": worst[1]}
