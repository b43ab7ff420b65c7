"""Regenerated tables (CSV + Markdown) and the registry behind ``bcdp tables``.

Each table is a function returning a :class:`Table`; :data:`REGISTRY` maps its name to it.  The
committed files in ``tables/`` are golden outputs: ``tests/repro/test_tables_golden.py`` regenerates
every table and fails when code and files disagree.  They ship inside the package as the data package
``bcdp.golden`` (pyproject ``package-dir``), found by :func:`golden_dir` wherever bcdp is installed.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from bcdp.bayesian.examples import (
    example1_mechanism,
    example2_mechanism,
    independent_randomized_response,
)
from bcdp.bayesian.notions import (
    bcdp_vector,
    bdp_epsilon,
    cdp_vector,
    coordinate_dependence,
    ldp_epsilon,
)
from bcdp.core.numbers import to_fraction
from bcdp.core.spaces import Prior, compose

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable


@dataclass
class Table:
    name: str
    title: str
    source: str
    header: list[str]
    rows: list[list[str]]
    notes: list[str] = field(default_factory=list)
    #: 0 = golden files must match byte for byte; > 0 = numeric cells may differ by this relative
    #: amount (for values from a numerical optimiser, stated in the table's notes).
    numeric_rtol: float = 0.0

    def to_csv(self) -> str:
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(self.header)
        writer.writerows(self.rows)
        return buf.getvalue()

    def to_markdown(self) -> str:
        lines = [f"# {self.title}", "", f"Source: {self.source}", "",
                 "| " + " | ".join(self.header) + " |",
                 "|" + "|".join("---" for _ in self.header) + "|"]
        lines += ["| " + " | ".join(r) + " |" for r in self.rows]
        if self.notes:
            lines += [""] + [f"- {n}" for n in self.notes]
        lines.append("")
        lines.append(f"Regenerate with `bcdp tables {self.name}`.")
        return "\n".join(lines) + "\n"

    def files(self) -> dict[str, str]:
        return {f"{self.name}.csv": self.to_csv(), f"{self.name}.md": self.to_markdown()}


def _fmt_float(x: float) -> str:
    return "inf" if x == float("inf") else f"{x:.12g}"


def _param_rows(instance: str, mech, prior) -> list[list[str]]:
    rows = []
    def add(name, coord, p):
        rows.append([instance, name, coord, str(p.exact), _fmt_float(p.float)])
    add("ldp_epsilon", "-", ldp_epsilon(mech))
    add("bdp_epsilon", "-", bdp_epsilon(mech, prior))
    for i, p in enumerate(cdp_vector(mech), start=1):
        add("cdp", str(i), p)
    for i, p in enumerate(bcdp_vector(mech, prior), start=1):
        add("bcdp", str(i), p)
    for i, p in enumerate(coordinate_dependence(prior), start=1):
        add("dependence", str(i), p)
    return rows


def table_paper_examples() -> Table:
    """Examples 1 and 2 of the BCDP paper: every exact parameter."""
    rows = []
    mech, prior = example1_mechanism("1/2", "1/2", "1/2")
    rows += _param_rows("Example 1, a=b=c=1/2", mech, prior)
    mech2, prior2 = example2_mechanism()
    rows += _param_rows("Example 2, one copy", mech2, prior2)
    rows += _param_rows("Example 2, two independent copies", compose(mech2, mech2), prior2)
    rows += _param_rows("Example 2, three independent copies", compose(mech2, mech2, mech2), prior2)
    return Table(
        name="paper_examples",
        title="BCDP paper, Examples 1 and 2: exact privacy parameters",
        source="Aliakbarpour et al. (2024), Sec. 3.3 Example 1 and Sec. 3.5 Example 2 (eq. 14)",
        header=["instance", "parameter", "coordinate", "exact", "float"],
        rows=rows,
        notes=["Coordinates are numbered from 1 as in the paper.",
               "Example 1: the paper states (log 2, log 2)-BCDP and not LDP at a=b=c=1/2.",
               "Example 2: the paper states delta_1 = 0 for one copy and no BCDP for two copies."],
    )


def table_correlated_prior_dependence() -> Table:
    """Appendix B.1, eqs. (59)-(60): the dependence of the correlated prior equals q."""
    rows = []
    for d in (2, 3, 4):
        for q in ("0", "1/100", "1/10", "3/10", "1/2", "9/10", "1"):
            dep = coordinate_dependence(Prior.correlated_bits(d, q))
            equal = all(p.value == to_fraction(q) for p in dep)
            rows.append([str(d), q, ", ".join(str(p.exact) for p in dep), "yes" if equal else "no"])
    return Table(
        name="correlated_prior_dependence",
        title="Dependence q_i (eq. 13) of the correlated prior of Appendix B.1",
        source="Aliakbarpour et al. (2024), App. B.1, eqs. (59)-(60): 'TV = q for all i'",
        header=["d", "q", "q_i for i = 1..d (exact)", "every q_i equals q"],
        rows=rows,
    )


def _log_gap(bound, exact) -> float:
    from bcdp.core.numbers import INFINITY, ratio_to_float_log

    if bound == INFINITY:
        return float("inf")
    return ratio_to_float_log(bound / exact)


def table_prop4_slack() -> Table:
    """Prop. 4 bounds vs the exact BCDP vector: the App. B.1 family and random instances."""
    import random
    import statistics
    from fractions import Fraction

    from bcdp.bayesian.cdp_to_bcdp import prop4_bound_ratios
    from bcdp.bayesian.random_instances import (
        random_domain,
        random_mechanism,
        random_prior,
    )
    from bcdp.core.numbers import ratio_to_float_log

    rows = []
    keeps = [Fraction(3, 4), Fraction(2, 3), Fraction(3, 5)]
    mech = independent_randomized_response(keeps)
    c = [v.ratio for v in cdp_vector(mech)]
    eps = ldp_epsilon(mech).ratio
    for q in ("0", "1/10", "3/10", "1/2", "7/10", "9/10", "1"):
        prior = Prior.correlated_bits(3, q)
        qs = [v.value for v in coordinate_dependence(prior)]
        exact = [v.ratio for v in bcdp_vector(mech, prior)]
        p1, p2 = prop4_bound_ratios(c, qs), prop4_bound_ratios(c, qs, eps)
        for i in range(3):
            rows.append(["App. B.1 prior, independent RR (keep 3/4, 2/3, 3/5)", q, str(i + 1),
                         _fmt_float(ratio_to_float_log(exact[i])), _fmt_float(ratio_to_float_log(p1[i])),
                         _fmt_float(ratio_to_float_log(p2[i])), _fmt_float(_log_gap(p1[i], exact[i])),
                         _fmt_float(_log_gap(p2[i], exact[i]))])
    rng = random.Random(44)
    gaps1, gaps2 = [], []
    for _ in range(200):
        dom = random_domain(rng, 3, 3, 12)
        m = random_mechanism(rng, dom, rng.randint(2, 4))
        pr = random_prior(rng, dom, 0.2)
        cc = [v.ratio for v in cdp_vector(m)]
        qs = [v.value for v in coordinate_dependence(pr)]
        ex = [v.ratio for v in bcdp_vector(m, pr)]
        b1, b2 = prop4_bound_ratios(cc, qs), prop4_bound_ratios(cc, qs, ldp_epsilon(m).ratio)
        gaps1 += [_log_gap(b, e) for b, e in zip(b1, ex)]
        gaps2 += [_log_gap(b, e) for b, e in zip(b2, ex)]
    for label, fn in (("median", statistics.median),
                      ("90th percentile", lambda g: statistics.quantiles(g, n=10)[-1]),
                      ("max", max), ("min", min)):
        rows.append([f"200 random instances (seed 44), {len(gaps1)} coordinates: {label}", "-", "-", "-", "-",
                     "-", _fmt_float(fn(gaps1)), _fmt_float(fn(gaps2))])
    return Table(
        name="prop4_slack",
        title="Proposition 4: CDP + dependence bound vs the exact BCDP vector",
        source="Aliakbarpour et al. (2024), Prop. 4 (Sec. 3.4), eq. (13); App. A.4",
        header=["family", "q", "coordinate", "exact delta_i", "Prop. 4 (1) bound", "Prop. 4 (2) bound",
                "slack (1)", "slack (2)"],
        rows=rows,
        notes=["Values are natural-log privacy parameters; slack = bound - exact delta_i (0 = attained).",
               "c, q and eps are the exact cdp_vector, coordinate_dependence and ldp_epsilon of each instance.",
               "At q = 1 (redundant copies) part (1) is attained: delta_i = sum_j c_j (paper, Sec. 3.4).",
               "Random instances: zero-free random kernels on domains of size <= 12, priors with zeros."],
    )


FIG3_DELTA = ["0.2", "0.2"] + ["2"] * 8
FIG3_Q = ["0", "0.01", "0.05", "0.1", "0.2", "0.3", "0.5", "0.7", "0.9", "1"]


def table_fig3_allocations() -> Table:
    """Budgets c and eq. (17) objective in the Fig. 3 setting, four allocation rules."""
    from fractions import Fraction

    from bcdp.bayesian.allocation import allocate_budgets, min_delta_baseline
    from bcdp.bayesian.optimal_allocation import optimal_allocation
    from bcdp.core.intervals import to_float

    def fmt(v, digits=12):
        x = to_float(v)
        return "inf" if x == float("inf") else f"{x:.{digits}g}"

    rows = []
    for q in FIG3_Q:
        qf = Fraction(q)
        rules = [("zeta = 1/2", allocate_budgets(FIG3_DELTA, 2, qf, Fraction(1, 2)), "-"),
                 ("zeta = (1+q)/2", allocate_budgets(FIG3_DELTA, 2, qf, (1 + qf) / 2), "-")]
        opt = optimal_allocation(FIG3_DELTA, 2, qf)
        rules.append(("optimal", opt.allocation, fmt(opt.lower_bound, 8)))
        rules.append(("min-delta LDP", min_delta_baseline(FIG3_DELTA, 2, qf), "-"))
        for name, alloc, lower in rules:
            digits = 8 if name == "optimal" else 12
            c = alloc.c_sorted
            if c[0] != c[1] or any(v != c[2] for v in c[3:]):  # the columns below rely on it
                raise AssertionError(f"{name}, q = {q}: c is not constant on {{1,2}} and {{3..10}}: {c}")
            rows.append([q, name, str(alloc.zeta) if alloc.zeta is not None else "-"]
                        + [fmt(v, digits) for v in (c[0], c[2], c[-1])]
                        + [fmt(alloc.objective, digits), lower])
    return Table(
        name="fig3_allocations",
        title="Budgets c and the eq. (17) objective in the Fig. 3 setting",
        source="Aliakbarpour et al. (2024), Thm 2 eq. (16)-(17), Cor. 1, App. B.1 (d = 10, "
               "delta = (0.2, 0.2, 2 x 8), eps = 2)",
        header=["q", "rule", "zeta", "c_1 (= c_2)", "c_3 (= ... = c_9)", "c_10 (= c_d)", "eq. (17) objective",
                "certified lower bound (optimal)"],
        rows=rows,
        notes=["Every allocation here has c_1 = c_2 and c_3 = ... = c_10 (verified when the table is built; "
               "for the optimum it is the group reduction proved in bcdp.bayesian.optimal_allocation).",
               "Finding: for q >= ~0.2136 the optimum is the min-delta baseline itself; Theorem 2 with "
               "zeta = (1+q)/2 is then up to 80x worse (q = 0.9), and zeta = 1/2 is worse than the baseline "
               "for every q >= 0.2.",
               "eq. (17) objective = sum_i 1/sum_{k<=i} (c_k - c_{k-1})^2/(d-k+1), without 1/n, the cap at d "
               "and the hidden constant; lower is better.",
               "Theorem 2 rows are exact values rounded to 12 digits; the optimal rows come from a certified "
               "branch and bound (relative gap <= 1e-9; c determined to about sqrt(gap)) and are printed "
               "with 8 digits; the golden test compares them with a relative tolerance of 1e-4.",
               "min-delta LDP is the baseline c_i = min delta = 0.2 for all i (objective d^2/0.04 = 2500)."],
        numeric_rtol=1e-4,
    )


def table_partial_dp_table1() -> Table:
    """Table 1 of the partial DP paper, from the data of :func:`bcdp.partial.table1.table_data`."""
    from bcdp.partial.table1 import table_data

    return Table(**table_data())


def table_dme_table3_1() -> Table:
    """Thesis Table 3.1 (:func:`bcdp.repro.dme_figures.table3_1`)."""
    from bcdp.repro.dme_figures import table3_1

    return Table(**table3_1())


def table_dme_fig3_2a() -> Table:
    """Thesis Fig. 3.2(a) data (:func:`bcdp.repro.dme_figures.fig32a_table`)."""
    from bcdp.repro.dme_figures import fig32a_table

    return Table(**fig32a_table())


def table_dme_fig3_2b() -> Table:
    """Thesis Fig. 3.2(b) data (:func:`bcdp.repro.dme_figures.fig32b_table`; float64, rtol 1e-9)."""
    from bcdp.repro.dme_figures import fig32b_table

    return Table(**fig32b_table())


def table_dme_fig3_2c() -> Table:
    """Thesis Fig. 3.2(c) data (:func:`bcdp.repro.dme_fig32c.fig32c_table`; float64, rtol 1e-9)."""
    from bcdp.repro.dme_fig32c import fig32c_table

    return Table(**fig32c_table())


REGISTRY: dict[str, Callable[[], Table]] = {
    "paper_examples": table_paper_examples,
    "correlated_prior_dependence": table_correlated_prior_dependence,
    "prop4_slack": table_prop4_slack,
    "fig3_allocations": table_fig3_allocations,
    "partial_dp_table1": table_partial_dp_table1,
    "dme_table3_1": table_dme_table3_1,
    "dme_fig3_2a": table_dme_fig3_2a,
    "dme_fig3_2b": table_dme_fig3_2b,
    "dme_fig3_2c": table_dme_fig3_2c,
}


def write_tables(names: list[str] | None, out_dir: Path) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name in names or list(REGISTRY):
        if name not in REGISTRY:
            raise KeyError(f"unknown table {name!r}; known: {', '.join(REGISTRY)}")
        for fname, text in REGISTRY[name]().files().items():
            path = out_dir / fname
            path.write_text(text)
            written.append(path)
    return written


def _cells(text: str) -> list[list[str]]:
    sep = "|" if text.lstrip().startswith("#") else ","
    return [[c.strip() for c in line.split(sep)] for line in text.splitlines()]


def _close(a: str, b: str, rtol: float) -> bool:
    if a == b:
        return True
    try:
        x, y = float(a), float(b)
    except ValueError:
        return False
    return abs(x - y) <= rtol * max(abs(x), abs(y), 1e-300)


def texts_match(golden: str, fresh: str, rtol: float) -> bool:
    """Byte equality, or (rtol > 0) equal cell by cell with numeric cells within rtol."""
    if golden == fresh:
        return True
    if rtol <= 0:
        return False
    g, f = _cells(golden), _cells(fresh)
    return len(g) == len(f) and all(len(r) == len(s) and all(_close(a, b, rtol) for a, b in zip(r, s))
                                    for r, s in zip(g, f))


#: the data package holding the golden copies of ``tables/`` (mapped to that directory in pyproject.toml)
GOLDEN_PACKAGE = "bcdp.golden"


def golden_dir() -> Traversable:
    """The golden tables shipped with the installed package (``tables/`` of the repository).

    Read through :mod:`importlib.resources`, so the answer does not depend on the current directory:
    a wheel install finds its own copies, an editable install the repository's ``tables/``.
    """
    try:
        return resources.files(GOLDEN_PACKAGE)
    except ModuleNotFoundError as exc:
        raise ModuleNotFoundError(
            f"the golden tables are not installed (no package {GOLDEN_PACKAGE}); install bcdp with "
            f"`pip install .` or `pip install -e .` from the repository") from exc


#: status of a golden copy that is not UTF-8 text (or cannot be read): it does not match
UNREADABLE = "differs (the golden copy is not readable UTF-8 text)"


def read_golden(path: Path | Traversable) -> str | None:
    """The text of a golden copy, or ``None`` when it is not readable UTF-8 text (a golden directory
    given with ``--golden`` may hold anything: such a copy is reported as differing, exit 1, where
    the decoding error was an internal error, exit 3)."""
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def compare_with_golden(names: list[str] | None, golden_dir: Path | Traversable) -> dict[str, str]:
    """Regenerate and compare with files in ``golden_dir``: name -> 'match' | 'differs' | 'missing'
    (or :data:`UNREADABLE`)."""
    status = {}
    for name in names or list(REGISTRY):
        table = REGISTRY[name]()
        for fname, text in table.files().items():
            path = golden_dir / fname
            if not path.is_file():
                status[fname] = "missing"
                continue
            golden = read_golden(path)
            if golden is None:
                status[fname] = UNREADABLE
            else:
                status[fname] = "match" if texts_match(golden, text, table.numeric_rtol) else "differs"
    return status
