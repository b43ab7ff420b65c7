"""The D* oracle shared by the tests of the partial DP certification search (bcdp.partial.dstar;
partial DP paper arXiv:2209.04053, Sec. 2, Def. 2): K(lambda) = log sum_y P(y)^lambda Q(y)^(1-lambda),
its tilted mean K', the curvature bound V of LogMgf.curvature_bound's docstring, the quadratic bound
of the search, phi_rho and D* itself, all from their formulas in mpmath (independent of bcdp), and a
LogMgf wrapper that counts the intervals the search examines."""

from __future__ import annotations

from fractions import Fraction

import mpmath


def mp(x: Fraction) -> mpmath.mpf:
    return mpmath.mpf(x.numerator) / x.denominator


class DstarOracle:
    """The quantities of a pair (P, Q) of exact rows.  Built at the current mpmath precision, or at
    ``digits`` digits when given; the methods run at the caller's precision."""

    def __init__(self, case, digits: int | None = None):
        P, Q = case
        with mpmath.workdps(digits if digits is not None else mpmath.mp.dps):
            self.pq = [(mp(a), mp(b)) for a, b in zip(P, Q) if a > 0]
            self.ell = [mpmath.log(a / b) for a, b in self.pq]
            self.d_inf = max(self.ell)
            self.kl = mpmath.fsum(a * l for (a, _b), l in zip(self.pq, self.ell))
            self.scale = 1 + max(abs(x) for x in self.ell) + max(abs(mpmath.log(b)) for _a, b in self.pq)

    def tilted(self, lam):
        w = [a ** lam * b ** (1 - lam) for a, b in self.pq]
        s = mpmath.fsum(w)
        pi = [x / s for x in w]
        return mpmath.log(s), mpmath.fsum(p * l for p, l in zip(pi, self.ell)), pi

    def g(self, lam):
        return self.tilted(lam)[0] / (lam * (lam - 1))

    def phi(self, rho, lam):
        return self.tilted(lam)[0] - rho * lam * (lam - 1)

    def V(self, a, b):
        _k, c, pi = self.tilted(a)
        return mpmath.fsum(p * (l - c) ** 2 * max(1, mpmath.exp((b - a) * (l - c))) for p, l in zip(pi, self.ell))

    def bound(self, rho, a, b):
        """max over t in [0, b - a] of the quadratic bound of phi_rho on [a, b] (divided by t if a = 1)."""
        T, v = b - a, self.V(a, b)
        if a == 1:
            d1 = self.kl - rho
            return max(d1, d1 + (v - 2 * rho) * T / 2)
        k0, k1, _pi = self.tilted(a)
        f0, f1, c = k0 - rho * a * (a - 1), k1 - rho * (2 * a - 1), v - 2 * rho
        out = max(f0, f0 + f1 * T + c * T * T / 2)
        if c < 0 and 0 < f1 / (-c) < T:
            out = max(out, f0 + f1 * f1 / (2 * (-c)))
        return out

    def gmax(self, lo, hi):
        """max of g(lambda) = K/(lambda(lambda - 1)) on a fine grid of [lo, hi] (a lower bound of D*)."""
        return max(self.g(x) for x in mpmath.linspace(lo, hi, 400))

    def dstar(self):
        """(maximiser or None, D*)."""
        grid = [1 + mpmath.mpf(10) ** (mpmath.mpf(k) / 50 - 4) for k in range(351)]
        start = max(grid, key=self.g)
        if self.g(start) <= self.kl:
            return None, self.kl

        def h(x):
            k0, k1, _pi = self.tilted(x)
            return k1 * x * (x - 1) - k0 * (2 * x - 1)
        lam = mpmath.findroot(h, start)
        return lam, self.g(lam)


class Counting:
    """A LogMgf that counts calls of curvature_bound: one per interval the search examines."""

    def __init__(self, model):
        self._model = model
        self.examined = 0

    def curvature_bound(self, a, b):
        self.examined += 1
        return self._model.curvature_bound(a, b)

    def __getattr__(self, name):
        return getattr(self._model, name)
