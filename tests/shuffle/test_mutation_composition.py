"""Mutation kills for bcdp.shuffle.composition.clones_kov_composition (Clones [FMT21] per round +
[KOV15] optimal composition): its input checks (the failing argument named in the message), the
split grid's open interval (0, 1), the splits outside FMT21 Thm 3.1's validity range (skipped, and
the all-outside result), the default per-round method and the choice of the best split.

Independent references: the printed statement of FMT21 Thm 3.1 (validity eps0 <= log(n/(16 log(2/delta)))
and eps <= log(1 + (e^eps0 - 1)/(e^eps0 + 1) (8 sqrt(e^eps0 log(4/delta))/sqrt(n) + 8 e^eps0/n)), as
quoted in the thesis, Sec. 3.3) evaluated with mpmath at 60 digits here, and the documented contract of
the function (its docstring, and ``epsilon_bracket``'s for the infeasible result)."""

import math

import mpmath
import pytest
from bcdp.core.errors import InvalidInputError
from bcdp.shuffle.composition import clones_kov_composition, kov_optimal_composition

N, T, DELTA = 10**4, 10, 1e-6


def _fmt21_cap(n, dt):
    with mpmath.workdps(60):
        return mpmath.log(n / (16 * mpmath.log(2 / mpmath.mpf(dt))))


def _fmt21_thm31(eps0, n, dt):
    with mpmath.workdps(60):
        E = mpmath.exp(eps0)
        return mpmath.log(1 + (E - 1) / (E + 1) * (8 * mpmath.sqrt(E * mpmath.log(4 / mpmath.mpf(dt))) / mpmath.sqrt(n)
                                               + 8 * E / n))


@pytest.mark.parametrize("kwargs, name", [
    ({"eps0": -1.0}, "eps0"), ({"n": 0}, "n"), ({"T": 0}, "T"), ({"delta": 0.0}, "delta")])
def test_each_bad_argument_is_named(kwargs, name):
    args = {"eps0": 1.0, "n": 1000, "T": 10, "delta": 1e-6} | kwargs
    with pytest.raises(InvalidInputError, match=rf"^{name} must"):
        clones_kov_composition(args["eps0"], args["n"], args["T"], args["delta"], split_grid=(0.5,))


@pytest.mark.parametrize("grid", [(), (0.0,), (1.0,), (1.5,), (0.5, 1.0)])
def test_split_grid_must_be_nonempty_inside_the_open_unit_interval(grid):
    with pytest.raises(InvalidInputError, match="^split_grid must be"):
        clones_kov_composition(1.0, 1000, 10, 1e-6, split_grid=grid)


def test_default_per_round_is_numerical():
    a = clones_kov_composition(1.0, 1000, 10, 1e-6, split_grid=(0.5,))
    b = clones_kov_composition(1.0, 1000, 10, 1e-6, per_round="numerical", split_grid=(0.5,))
    assert a.upper == b.upper and a.details["method"] == b.details["method"]
    assert "numerical" in a.details["method"]


def test_split_outside_thm31_is_skipped_and_the_next_is_used():
    # eps0 = 3.55 lies between the Thm 3.1 caps at delta~ = 0.1 delta/T (3.487) and 0.9 delta/T (3.609)
    e0 = 3.55
    assert _fmt21_cap(N, 0.1 * DELTA / T) < e0 < _fmt21_cap(N, 0.9 * DELTA / T)
    b = clones_kov_composition(e0, N, T, DELTA, per_round="theorem-3.1", split_grid=(0.1, 0.9))
    d = b.details
    assert d["tried"][0] == {"x": 0.1, "per_round_eps": "outside Thm 3.1 range"}
    assert set(d["tried"][1]) == {"x", "per_round_eps", "eps_total"} and d["tried"][1]["x"] == 0.9
    assert d["split_x"] == 0.9 and d["per_round_delta"] == 0.9 * DELTA / T
    et = d["per_round_eps"]
    ref = _fmt21_thm31(e0, N, 0.9 * DELTA / T)
    assert ref <= et <= ref * (1 + 1e-12)                       # an upper end of the printed formula
    assert b.upper == d["tried"][1]["eps_total"] == kov_optimal_composition(et, 0.9 * DELTA / T, T, DELTA).upper
    assert math.isfinite(b.upper) and b.upper > 0


def test_every_split_outside_thm31_gives_the_infinite_bracket():
    e0 = 5.0
    assert e0 > _fmt21_cap(N, 0.9 * DELTA / T)
    b = clones_kov_composition(e0, N, T, DELTA, per_round="theorem-3.1", split_grid=(0.1, 0.9))
    assert b.lower == math.inf and b.upper == math.inf
    d = b.details
    assert d["delta"] == DELTA and d["delta_at_upper"] == math.inf and d["delta_at_lower"] == math.inf
    assert d["note"] == "no split point in the validity range"
    assert d["method"] == "FMT21 (theorem-3.1) + KOV15" == b.provenance
    assert d["tried"] == [{"x": x, "per_round_eps": "outside Thm 3.1 range"} for x in (0.1, 0.9)]


def test_best_split_is_the_minimum_and_the_first_of_equals():
    b = clones_kov_composition(1.0, 1000, 10, 1e-6, split_grid=(0.1, 0.5, 0.9))
    tot = [t["eps_total"] for t in b.details["tried"]]
    assert [t["x"] for t in b.details["tried"]] == [0.1, 0.5, 0.9]
    assert b.upper == min(tot) and b.details["split_x"] == (0.1, 0.5, 0.9)[tot.index(min(tot))]
    assert len(set(tot)) == 3
    # eps0 = 0: every report is uniform, every split gives eps 0 (a tie): the first split is kept
    z = clones_kov_composition(0.0, 1000, 10, 1e-6, split_grid=(0.1, 0.9))
    assert z.upper == 0.0 and [t["eps_total"] for t in z.details["tried"]] == [0.0, 0.0]
    assert z.details["split_x"] == 0.1 and z.details["per_round_delta"] == 0.1 * 1e-6 / 10
