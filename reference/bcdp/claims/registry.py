"""The claim registry: every claim of the papers that this project checks, declared once.

A claim is declared by a :class:`ClaimSpec`: its id, the paper it comes from (a key of
:data:`PAPERS`), where in that paper (section, theorem, equation), the statement, the verdict its
check is expected to return, where else it is checked (tests, tables) and the status text of the
theory index.  Citations name the paper (with its arXiv id where it has one) and a section,
theorem or equation of it, never a line of a text file.

Each check module of :mod:`bcdp.checks` (``proofs_checks/<source>/<name>.py``) declares its claim
once, as a module-level ``CLAIM = ClaimSpec(...)``, and its ``check()`` returns
``CLAIM.result(verdict=..., key_figure=..., evidence=...)``.  Claims checked only by tests or
tables are declared in the private modules ``_declared.py`` of each source subpackage, as a tuple
``CLAIMS``.  :func:`registered` finds all of them by walking :mod:`bcdp.checks` recursively, and
:mod:`bcdp.claims.index` renders ``docs/theory_index.md`` from them.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from bcdp.claims.result import PASSING_VERDICTS, ClaimResult

#: Verdict kinds a spec may expect: a check returns one of :data:`PASSING_VERDICTS`; claims
#: checked only by tests or tables (reproductions of figures, numbers quoted in the text) may
#: also be only partly reproduced or not reproduced.
EXPECTED_KINDS = PASSING_VERDICTS + ("partly reproduced", "not reproduced")

_ID = re.compile(r"^[A-Z]+-[A-Za-z0-9.\-]+$")


@dataclass(frozen=True)
class Paper:
    """A source of claims.  ``cite`` is the short form used in every citation."""

    key: str
    authors: str
    title: str
    venue: str
    arxiv: str
    short: str
    heading: str

    @property
    def cite(self) -> str:
        return f"{self.short} ({self.arxiv})" if self.arxiv else self.short

    @property
    def reference(self) -> str:
        tail = f", {self.arxiv}" if self.arxiv else ""
        return f"{self.authors}, \"{self.title}\", {self.venue}{tail}"


#: The sources, in the order of the theory index.  The BCDP paper's arXiv id is not printed in
#: its text (dated October 23, 2024); 2410.18404 is the arXiv listing of that title.  The partial
#: DP paper's id is the one the BCDP paper's bibliography gives for it.  The thesis text has no
#: title page; it is cited by author, with the chapter in each claim's location.
PAPERS: dict[str, Paper] = {p.key: p for p in (
    Paper("bcdp", "M. Aliakbarpour, S. Chaudhuri, T. A. Courtade, A. Fallah, M. I. Jordan",
          "Enhancing Feature-Specific Data Protection via Bayesian Coordinate Differential Privacy",
          "AISTATS 2025 (PMLR 258)", "arXiv:2410.18404", "BCDP paper",
          "BCDP paper (Bayesian coordinate differential privacy)"),
    Paper("partial_dp", "B. Ghazi, R. Kumar, P. Manurangsi, T. Steinke",
          "Algorithms with More Granular Differential Privacy Guarantees", "ITCS 2023",
          "arXiv:2209.04053", "partial DP paper", "Partial DP paper"),
    Paper("thesis", "A. M. Girgis", "Communication-privacy-utility trade-offs in distributed learning",
          "PhD thesis (University of California); Ch. 3 \"distributed mean estimation\", Ch. 5 "
          "\"Renyi Differential Privacy of the Shuffled Model\"", "",
          "Girgis PhD thesis",
          "The thesis: mean estimation (Ch. 3) and Renyi DP of the shuffle model (Ch. 5)"),
)}

#: The subsections of the theory index, per paper, in order: short key -> title.
GROUPS: dict[str, dict[str, str]] = {
    "bcdp": {
        "notions": "Notions and their relations (Sec. 2-3, App. A.1-A.3, A.6)",
        "allocation": "From coordinate DP to BCDP, and the c-allocation (Sec. 3.4, Sec. 4, App. A.4-A.5, B.2)",
        "mechanisms": "Mechanisms and least squares (Sec. 4-5, App. B-C)",
        "beyond": "Beyond the paper",
    },
    "partial_dp": {
        "overview": "Overview (Sec. 1, Table 1)",
        "basics": "Definitions and basic properties (Sec. 2)",
        "workloads": "Answering query workloads (Sec. 4)",
        "histograms": "Histograms and heavy hitters (Sec. 5, App. A.1-A.2)",
        "halfspaces": "Robust learning of halfspaces (Sec. 6)",
        "adversary": "Assumptions about the adversary (Sec. 7.1)",
    },
    "thesis": {
        "background": "Background: DP, RDP, subsampling, composition, shuffling, 2RR (Ch. 2)",
        "dme": "Distributed mean estimation under privacy and communication constraints (Ch. 3)",
        "shuffle": "RDP of the shuffled model (Sec. 5.3)",
        "subsampled": "RDP of the subsampled shuffled model (Sec. 5.4)",
        "numerics": "Numerical results, conversions and baselines (Sec. 5.4-5.5)",
        "fl": "Shuffled federated learning: CLDP-SGD, client self-sampling, DP-AdaPeD (Ch. 4, App. C)",
        "bandits": "Private linear bandits: central, local and shuffled (Ch. 6, App. E)",
        "randomness": "Privacy, utility and randomness: the (eps, R)-LDP model and single-level privacy (Sec. 7.2-7.3, App. F.1-F.3)",
        "multilevel": "Multi-level privacy: successive refinement with a key cascade (Sec. 7.4, App. F.4)",
        "recoverability": "Private recoverability and sequences of T samples (Sec. 7.5-7.6, App. F.5-F.9)",
    },
}


@dataclass(frozen=True)
class ClaimSpec:
    """One claim: what is claimed, where, and what its check is expected to find.

    ``group`` is a key of ``GROUPS[paper]`` (the subsection of the index).  ``where`` locates the
    claim in ``PAPERS[paper]`` (section, theorem, equation; other works it relies on).
    ``expected`` is the verdict of its check (a change is a finding), or for claims
    checked only by tests and tables one of :data:`EXPECTED_KINDS`.  ``also_checked_in`` lists
    further places (tests, tables, library functions) in Markdown; ``status`` is the status text
    of the index (defaults to ``expected``); ``erratum`` is the entry id in the project's errata
    list when the printed claim is wrong.
    """

    id: str
    paper: str
    group: str
    where: str
    statement: str
    expected: str
    also_checked_in: tuple[str, ...] = ()
    status: str = ""
    erratum: str = ""

    def __post_init__(self) -> None:
        if not _ID.match(self.id):
            raise ValueError(f"claim id {self.id!r} is not of the form SOURCE-Name")
        if self.paper not in PAPERS:
            raise ValueError(f"{self.id}: unknown paper {self.paper!r}")
        if self.group not in GROUPS[self.paper]:
            raise ValueError(f"{self.id}: unknown group {self.group!r} of {self.paper!r}")
        if self.expected not in EXPECTED_KINDS:
            raise ValueError(f"{self.id}: expected verdict {self.expected!r} not in {EXPECTED_KINDS}")
        if isinstance(self.also_checked_in, str):
            raise TypeError(f"{self.id}: also_checked_in must be a tuple of strings")

    @property
    def citation(self) -> str:
        """Paper (with arXiv id) and location, e.g. "BCDP paper (arXiv:2410.18404), Prop. 1, Sec. 2"."""
        return f"{PAPERS[self.paper].cite}, {self.where}"

    @property
    def status_text(self) -> str:
        return self.status or self.expected

    def result(self, *, verdict: str, key_figure: str, evidence: dict[str, Any] | None = None) -> ClaimResult:
        """The :class:`ClaimResult` of this claim's check (id, source and statement from the spec)."""
        return ClaimResult(claim_id=self.id, source=self.citation, statement=self.statement,
                           verdict=verdict, key_figure=key_figure,
                           evidence={} if evidence is None else evidence)


@dataclass(frozen=True)
class Registered:
    """A spec with the module that declares it; ``has_check`` when that module is a check."""

    spec: ClaimSpec
    module: str
    has_check: bool

    @property
    def path(self) -> str:
        """The declaring module's file in the repository, e.g. ``proofs_checks/bcdp/prop1_ldp_bdp.py``."""
        return "proofs_checks/" + self.module.removeprefix("bcdp.checks.").replace(".", "/") + ".py"


def check_package_modules() -> list[str]:
    """Every module of :mod:`bcdp.checks` (recursively, private ones included), sorted."""
    import bcdp.checks

    names = [m.name for m in pkgutil.walk_packages(bcdp.checks.__path__, prefix="bcdp.checks.")
             if not m.ispkg]
    return sorted(names)


def is_check_module(name: str) -> bool:
    """A check module is a public module (no part of its name after ``bcdp.checks`` is private)."""
    return not any(part.startswith("_") for part in name.removeprefix("bcdp.checks.").split("."))


@lru_cache(maxsize=1)
def _registered() -> tuple[Registered, ...]:
    out: list[Registered] = []
    for name in check_package_modules():
        module = importlib.import_module(name)
        check = is_check_module(name)
        if check:
            spec = getattr(module, "CLAIM", None)
            if not isinstance(spec, ClaimSpec):
                raise TypeError(f"check module {name} declares no CLAIM = ClaimSpec(...)")
            out.append(Registered(spec, name, True))
        for spec in getattr(module, "CLAIMS", ()):
            out.append(Registered(spec, name, False))
    ids = [r.spec.id for r in out]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise ValueError(f"claim ids declared more than once: {duplicates}")
    return tuple(out)


def registered() -> list[Registered]:
    """Every declared claim with its module, in index order: paper, group, the first section the
    citation names (:func:`location_key`), then the natural order of the ids."""
    papers, groups = list(PAPERS), {p: list(g) for p, g in GROUPS.items()}
    return sorted(_registered(), key=lambda r: (papers.index(r.spec.paper),
                                                groups[r.spec.paper].index(r.spec.group),
                                                location_key(r.spec.where),
                                                natural_key(r.spec.id)))


def specs() -> list[ClaimSpec]:
    return [r.spec for r in registered()]


def spec_by_id(claim_id: str) -> ClaimSpec:
    for r in registered():
        if r.spec.id == claim_id:
            return r.spec
    raise KeyError(claim_id)


def location_key(where: str) -> tuple[int, ...]:
    """(3, 1) for the first "Sec. 3.1" named in ``where``; appendices ("App. B.2") after all
    sections; no location last."""
    sec = re.search(r"Sec\.\s*(\d+(?:\.\d+)*)", where)
    if sec:
        return tuple(int(x) for x in sec.group(1).split("."))
    app = re.search(r"App\.\s*([A-Z])((?:\.\d+)*)", where)
    if app:
        return (100 + ord(app.group(1)) - ord("A"),) + tuple(int(x) for x in app.group(2).split(".")[1:])
    return (1000,)


def natural_key(text: str) -> tuple:
    """Sort key with numbers compared as numbers ("Prop2" < "Prop10"), case-insensitive."""
    return tuple((0, int(t), "") if t.isdigit() else (1, 0, t.lower()) for t in re.findall(r"\d+|\D+", text))
