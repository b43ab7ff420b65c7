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


REGISTRY: dict[str, Callable[[], Table]] = {
    "paper_examples": table_paper_examples,
    "correlated_prior_dependence": table_correlated_prior_dependence,
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
