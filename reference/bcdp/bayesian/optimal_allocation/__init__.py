"""The best allocation: minimise the eq. (17) objective over all privacy-feasible budgets c.

BCDP paper (arXiv:2410.18404), Sec. 4 (Theorem 2, eqs. 16-17; privacy proof in App. B.2).  Sort
the demands (``allocation.sorted_order``), put delta~_i = min(delta_i, eps) and
L(t) = log(1 + q (e^t - 1)).  We minimise

    F(c) = sum_{i=1}^d 1 / S_i,   S_i = sum_{k<=i} (c_k - c_{k-1})^2 / (d - k + 1),   c_0 = 0,

over the budgets that the proof of Theorem 2 certifies (Mechanism 1 is c-CDP and c_d-LDP, then
Prop. 4 part 2): 0 <= c_1 <= ... <= c_d = t <= eps and, for every i, t <= delta~_i or
c_i + L(t) <= delta~_i.  For fixed t this reads c_i <= u_i(t) with u_i(t) = t if t <= delta~_i and
u_i(t) = delta~_i - L(t) otherwise; u_i is non-decreasing in i.  (i = d forces t <= delta~_d <= eps.)

The problem is not convex, so the package returns a certified *pair*: a rational feasible point (an
upper bound) and a lower bound on the true minimum whose validity does not depend on any local
solver having converged.  The method has four steps.

1. Group reduction (exact, proved here).  Fix t and a run [a, e] of consecutive sorted coordinates
   with c_e <= u_a(t) (e.g. a run with equal u_i(t)).  Replacing c_a, ..., c_{e-1} by c_e (i.e.
   moving all increments Delta_k = c_k - c_{k-1}, k in [a, e], to k = a) keeps c feasible and does
   not increase F.  Proof: write w_k = 1/(d-k+1), D = sum_{k=a}^e Delta_k, and for i >= a
   S_i = A_i + x_i with A_i = S_{a-1} + (contributions of increments after e), non-decreasing in i,
   x_i = sum_{a<=k<=min(i,e)} w_k Delta_k^2; after the move x'_i = w_a D^2.  By convexity of
   f_i(x) = 1/(A_i + x),  F - F' >= sum_{i>=a} g_i (x'_i - x_i)  with g_i = (A_i + x'_i)^{-2}
   non-increasing in i.  By Abel summation it suffices that every partial sum
   Y_m = sum_{i=a}^m (x'_i - x_i) is >= 0, and indeed
   sum_{i=a}^m x_i = sum_k Delta_k^2 w_k (m-k+1) <= w_a (m-a+1) sum_k Delta_k^2 <= w_a (m-a+1) D^2
   because w_k (m-k+1) = 1 - (d-m)/(d-k+1) is non-increasing in k and sum Delta^2 <= (sum Delta)^2.
   Hence some optimal c is constant on every group of coordinates with equal u_i(t).

2. Pieces in t.  Let l_1 < ... < l_m be the distinct values of delta~ (n_g coordinates each).  On
   piece 0, t in (0, l_1], every u_i(t) = t, so by step 1 c = (t, ..., t) and F = d^2/t^2: the
   piece's minimum is d^2 / l_1^2 (the min-delta baseline), exactly.  On piece j >= 1,
   t in (l_j, l_{j+1}], the groups are the levels l_1..l_j (bound l_g - L(t)) and one top group
   (all delta~ >= l_{j+1}, bound t), so the problem becomes (p = j + 1 variables)

       min  sum_{g=1}^{p} n_g / S_g,   S_g = sum_{h<=g} (z_h - z_{h-1})^2 / N_h,  z_0 = 0,
       s.t. 0 <= z_1 <= ... <= z_j <= z_p = t,   z_g + L(t) <= l_g (g <= j),   t in [l_j, l_{j+1}],

   where N_h = number of coordinates in groups h..p.  We search the closed interval: at t = l_j the
   constraint z_j + L(t) <= l_j is stricter than the true one (u = t there), so every point of the
   closed problem is truly feasible (upper bounds stay valid) and the closed problem contains the
   piece (lower bounds stay valid).  Pieces with L^{-1}(l_1) <= l_j are certified empty (then
   z_1 <= 0 and F = oo); e.g. every piece j >= 1 when q = 1.  For q = 0, L = 0 and the bounds
   do not depend on t, so raising c_d to delta~_d keeps c feasible and only increases S_d: only
   t = l_m (in piece m - 1) needs to be searched.

3. Branch and bound over boxes in z (all pieces together, best-first).  On a box
   [lo, hi] intersected with the chain, Delta_h = z_h - z_{h-1} lies in
   [Dmin_h, Dmax_h] = [max(0, lo_h - hi_{h-1}), hi_h - lo_{h-1}], where the secant
   sigma_h(D) = (Dmin_h + Dmax_h) D - Dmin_h Dmax_h >= D^2.  Hence F >= R with
   R(z) = sum_g n_g / T_g(z),  T_g = sum_{h<=g} sigma_h(Delta_h) / N_h, a convex function of z
   (1/positive-affine) on E = {T_g > 0 for all g}.  The concave bound z_g <= l_g - L(t) is
   replaced by the valid linear cut z_g + a t <= l_g - m with m <= min_{t in box} (L(t) - a t)
   (L is convex; a = L'(t_mid); m from a tangent at t_mid, computed in interval arithmetic).
   With A z <= b collecting the chain rows and these cuts, for ANY z^ in E and ANY y >= 0
   (tangent inequality of the convex R plus weak duality, box constraints exact; feasible points
   outside E have some S_g = 0, i.e. F = oo):

       min_{feasible z in box} F(z)  >=  R(z^) + y.(A z^ - b)
                                          + sum_h [ min(r_h lo_h, r_h hi_h) - r_h z^_h ],
       r = grad R(z^) + A^T y.

   A local solver (SLSQP) only *proposes* z^ (the relaxation's minimiser) and y (its multipliers);
   a poor proposal only weakens the bound.  Also F >= sum_g n_g / sum_{h<=g} Dmax_h^2/N_h on the
   box (a crude bound; we take the larger).  The secant and the cut are exact up to O(width^2), so
   the bound converges quadratically and boxes are pruned fast.  Box boundaries produced by the
   feasibility propagation (z_g <= l_g - L(t_lo), t <= L^{-1}(l_g - lo_g), chain) are rounded
   outwards with interval arithmetic, so the leaves cover the feasible set.

4. Certificate.  When the search stops (relative gap <= tol, or the node budget is spent) the
   bound of every leaf (open or pruned) is recomputed in exact rational arithmetic (Fractions;
   L-dependent constants as rational interval endpoints), and ``lower_bound`` is the minimum of
   these, of d^2/l_1^2 (piece 0) and of oo (empty pieces), rounded down.  The upper bound is the
   best point found, polished by SLSQP on the reduced problem, rounded to a rational point
   (active bounds use 26-digit rational lower bounds of l_g - L(t) minus a relative margin
   10^-(24 - 4 k) at attempt k = 0..3, i.e. 1e-24 up to 1e-12; other values keep 16 digits and sit at
   stationary points: rounding costs about the margin of the attempt that certifies, < 1e-20
   relatively at the first, up to about 1e-12 at the last) and certified feasible with
   :func:`bcdp.core.intervals.compare` for every coordinate.  ``objective_upper`` is its exact objective.
   The pair is returned as a :class:`bcdp.core.results.Certified` (``OptimalAllocation.minimum``).

Edge cases: delta_1 = 0 forces c_1 = 0, so every feasible c has F = oo (we return c = 0, both bounds
oo, gap 0); q = 1 gives the min-delta baseline (only piece 0 is non-empty); q = 0 makes L = 0;
d = 1 gives c_1 = delta~_1; delta_i > eps is capped at eps.

Cost: the search runs in p <= m dimensions (m = number of distinct levels of delta~).  For m <= 10
(e.g. the Fig. 3 setting, m = 2: well under a second per q) it reaches the default tol = 1e-9;
with many more distinct levels the node cap ends the search early and the reported (still
certified) gap is larger.  Below tol ~ 1e-12 the float search cannot separate bounds any more.

Modules: :mod:`~bcdp.bayesian.optimal_allocation.instance` (the instance, L(t), pieces, box
propagation; step 2), :mod:`~bcdp.bayesian.optimal_allocation.relaxation` (the bound on a box and
its exact recomputation; steps 3-4), :mod:`~bcdp.bayesian.optimal_allocation.rounding` (the
certified rational point; step 4), :mod:`~bcdp.bayesian.optimal_allocation.search` (the driver and
:class:`OptimalAllocation`).  Interval arithmetic: :mod:`bcdp.core.intervals` (arb balls).
"""

from bcdp.bayesian.optimal_allocation.search import (
    METHOD,
    OptimalAllocation,
    optimal_allocation,
)

__all__ = ["METHOD", "OptimalAllocation", "optimal_allocation"]
