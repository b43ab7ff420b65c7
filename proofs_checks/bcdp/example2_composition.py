"""Example 2 (eq. 14): BCDP does not compose.

x in {0,1}^3 with i.i.d. Bern(1/2) coordinates; M(x) = (x1 xor x2, x3) or (x2, x1 xor x3), each
with probability 1/2 (when the two branches coincide -- exactly when x1 = 0 -- the output has
probability one).  The paper says M is 0-BCDP for coordinate 1 but two independent copies are not:
if x1 = 1 the two copies can differ, if x1 = 0 they never do.  Checked exactly: delta_1(M) = 0,
delta_1(M, M) > 0 (in fact infinite; the witness and the "copies differ" statistic are recorded),
and the same for three copies.
"""

from __future__ import annotations

from fractions import Fraction

from bcdp import (
    Mechanism,
    Prior,
    bcdp_vector,
    cdp_vector,
    compose,
    conditional_output_laws,
    ldp_epsilon,
    post_process,
)
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec

from .._common import jsonable, vec_str, verdict

CLAIM = ClaimSpec(
    id="BCDP-Example2",
    paper="bcdp",
    group="notions",
    where="Example 2, Sec. 3.5, eq. (14)",
    statement="M(x) = (x1 xor x2, x3) or (x2, x1 xor x3) w.p. 1/2 each is 0-BCDP for coordinate 1 under "
              "i.i.d. Bern(1/2), but two independent copies are not (exact: delta(M) = (0, log 3, log 3), "
              "delta(M, M) = (inf, log 5, log 5), three copies (inf, log 9, log 9)).",
    expected="confirmed",
)

HALF = Fraction(1, 2)


def example2_mechanism(prior: Prior) -> Mechanism:
    def law(x: tuple) -> dict:
        x1, x2, x3 = x
        out: dict = {}
        for branch in ((x1 ^ x2, x3), (x2, x1 ^ x3)):
            out[branch] = out.get(branch, Fraction(0)) + HALF  # coinciding branches add up to 1
        return out
    outputs = [(u, v) for u in (0, 1) for v in (0, 1)]
    return Mechanism.from_function(prior.domain, outputs, law)


def check() -> ClaimResult:
    prior = Prior.independent([{0: HALF, 1: HALF}] * 3)
    m = example2_mechanism(prior)
    single = bcdp_vector(m, prior)
    two = compose(m, m)
    double = bcdp_vector(two, prior)
    triple = bcdp_vector(compose(m, m, m), prior)

    # the paper's argument: "the two copies differ" has probability 0 given x1 = 0, 1/2 given x1 = 1
    differ = post_process(two, lambda y: "differ" if y[0] != y[1] else "equal")
    differ_laws = conditional_output_laws(differ, prior, 0)
    differ_delta = bcdp_vector(differ, prior)[0]
    argument_ok = (dict(zip(differ.outputs, differ_laws[0])).get("differ", Fraction(0)) == 0
                   and dict(zip(differ.outputs, differ_laws[1])).get("differ", Fraction(0)) == HALF)

    ok = single[0].ratio == 1 and double[0].ratio > 1 and argument_ok
    return CLAIM.result(
        verdict=verdict(ok),
        key_figure=f"delta(M) = ({', '.join(vec_str(single))}); delta(M,M) = ({', '.join(vec_str(double))})",
        evidence={
            "kernel": {str(list(x)): {str(list(y)): str(p) for y, p in zip(m.outputs, row) if p}
                       for x, row in zip(m.domain.points, m.kernel)},
            "single": {"bcdp": vec_str(single), "witnesses": jsonable([d.witness for d in single]),
                       "cdp": vec_str(cdp_vector(m)), "ldp": str(ldp_epsilon(m).exact)},
            "two_copies": {"bcdp": vec_str(double), "delta_1_witness": jsonable(double[0].witness),
                           "ldp": str(ldp_epsilon(two).exact)},
            "three_copies": {"bcdp": vec_str(triple), "delta_1_witness": jsonable(triple[0].witness)},
            "copies_differ_statistic": {
                "P(differ | x1=0)": str(dict(zip(differ.outputs, differ_laws[0])).get("differ", 0)),
                "P(differ | x1=1)": str(dict(zip(differ.outputs, differ_laws[1])).get("differ", 0)),
                "delta_1": str(differ_delta.exact), "matches_paper_argument": argument_ok},
            "delta_1_single_is_zero": single[0].ratio == 1,
            "delta_1_two_copies_positive": double[0].ratio > 1,
        },
    )
