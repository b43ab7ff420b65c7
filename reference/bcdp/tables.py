"""Regenerated tables (CSV + Markdown) and the registry behind ``bcdp tables``.

Each table is a function returning a :class:`Table`; :data:`REGISTRY` maps its name to it.  The
committed files in ``tables/`` are golden outputs: ``tests/test_tables_golden.py`` regenerates every
table and fails when code and files disagree.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .examples import example1_mechanism, example2_mechanism
from .notions import bcdp_vector, bdp_epsilon, cdp_vector, coordinate_dependence, ldp_epsilon
from .rational import to_fraction
from .spaces import Prior, compose


@dataclass
class Table:
    name: str
    title: str
    source: str
    header: list[str]
    rows: list[list[str]]
    notes: list[str] = field(default_factory=list)

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


def _independent_rr(keeps):
    from fractions import Fraction

    from .spaces import Mechanism, ProductDomain

    dom = ProductDomain.binary(len(keeps))

    def law(x):
        out = {}
        for y in dom.points:
            p = Fraction(1)
            for j, kp in enumerate(keeps):
                p *= kp if y[j] == x[j] else 1 - kp
            out[y] = p
        return out

    return Mechanism.from_function(dom, dom.points, law)


def _log_gap(bound, exact) -> float:
    from .rational import INFINITY, ratio_to_float_log

    if bound == INFINITY:
        return float("inf")
    return ratio_to_float_log(bound / exact)


def table_prop4_slack() -> Table:
    """Prop. 4 bounds vs the exact BCDP vector: the App. B.1 family and random instances."""
    import random
    import statistics
    from fractions import Fraction

    from .cdp_to_bcdp import prop4_bound_ratios
    from .random_instances import random_domain, random_mechanism, random_prior
    from .rational import ratio_to_float_log

    rows = []
    keeps = [Fraction(3, 4), Fraction(2, 3), Fraction(3, 5)]
    mech = _independent_rr(keeps)
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


REGISTRY: dict[str, Callable[[], Table]] = {
    "paper_examples": table_paper_examples,
    "correlated_prior_dependence": table_correlated_prior_dependence,
    "prop4_slack": table_prop4_slack,
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


def compare_with_golden(names: list[str] | None, golden_dir: Path) -> dict[str, str]:
    """Regenerate and compare with files in ``golden_dir``: name -> 'match' | 'differs' | 'missing'."""
    status = {}
    for name in names or list(REGISTRY):
        for fname, text in REGISTRY[name]().files().items():
            path = golden_dir / fname
            if not path.exists():
                status[fname] = "missing"
            else:
                status[fname] = "match" if path.read_text() == text else "differs"
    return status
