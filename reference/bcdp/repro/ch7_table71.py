"""Thesis Table 7.1 regenerated: the randomness per user of RAPPOR, RR, HR and BH (Sec. 7.3).

For ``k`` in :data:`KS` and ``eps`` in :data:`EPSILONS` (exact rationals; ``e^eps`` enclosed by arb),
each row gives the exact randomness ``max_x H(Y|X=x)`` of (7.2) of the mechanism's channel, in nats,
computed by definition from the rows' entries (:func:`bcdp.randomness.mechanisms.row_levels`), and
the printed column of Table 7.1 evaluated independently from its formula (nats, ``log`` natural):

- RAPPOR (as printed: flip probability ``1/(e^eps+1)`` per bit): ``k H2(e^eps/(e^eps+1))``;
- RAPPOR at eps/2 per bit (the eps-LDP RAPPOR; the printed one is exactly ``2 eps``-LDP): same printed
  entry, actual ``k H2(e^{eps/2}/(e^{eps/2}+1))``;
- RR: ``log(k-1+e^eps) - eps e^eps/(k-1+e^eps)``;
- HR ([ASZ19] parameters, :func:`bcdp.randomness.keys.asz19_parameters`): the bound
  ``<= log(2k(3e^eps-1)/e^eps) - eps e^eps/(3e^eps-1)``;
- BH ((7.27), one group, ``q = e^eps/(e^eps+1)``): ``H2(e^eps/(e^eps+1))``.

``verdict``: ``agree`` when printed and actual coincide to within ``2^-100`` (the identities are exact
algebra), ``printed >= actual`` when certified above, ``printed BELOW actual`` when certified below
(an erratum: the printed randomness would not suffice).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

from bcdp.core.intervals import arb_precision, ball_ends, ball_of
from bcdp.randomness import keys, mechanisms

KS = (4, 8, 16, 64)
EPSILONS = (Fraction(1, 2), Fraction(1), Fraction(2))
PREC = 256
TIE = Fraction(1, 2 ** 100)
HEADER = ("k", "eps", "mechanism", "actual_nats", "printed_nats", "printed_kind", "verdict", "ldp_eps_of_channel")


def _entropy_of_levels(levels: list[list[tuple[Any, int]]]) -> Any:
    best = None
    for row in levels:
        h = ball_of(0)
        for value, count in row:
            h -= count * value * value.log()
        best = h if best is None else best.max(h)
    return best


def _h2(p: Any) -> Any:
    return -(p * p.log()) - (1 - p) * (1 - p).log()


def _verdict(actual: Any, printed: Any) -> str:
    a_lo, a_hi = ball_ends(actual)
    p_lo, p_hi = ball_ends(printed)
    if max(a_hi, p_hi) - min(a_lo, p_lo) < TIE:
        return "agree"
    if p_lo >= a_hi:
        return "printed >= actual"
    if p_hi <= a_lo:
        return "printed BELOW actual"
    return "undecided"


def _num(ball: Any) -> str:
    lo, hi = ball_ends(ball)
    return f"{float((lo + hi) / 2):.12g}"


def rows() -> list[dict[str, str]]:
    """The table's rows (deterministic strings)."""
    out = []
    with arb_precision(PREC):
        for k in KS:
            for eps in EPSILONS:
                big = ball_of(eps).exp()
                half = ball_of(eps / 2).exp()
                t = big + (k - 1)
                params = keys.asz19_parameters(k, eps)
                printed = {
                    "RAPPOR": k * _h2(big / (big + 1)),
                    "RAPPOR (eps/2 per bit)": k * _h2(big / (big + 1)),
                    "RR": t.log() - ball_of(eps) * big / t,
                    "HR": (2 * k * (3 * big - 1) / big).log() - ball_of(eps) * big / (3 * big - 1),
                    "BH": _h2(big / (big + 1)),
                }
                actual = {
                    "RAPPOR": _entropy_of_levels(mechanisms.row_levels("RAPPOR", k, big)),
                    "RAPPOR (eps/2 per bit)": _entropy_of_levels(mechanisms.row_levels("RAPPOR", k, half)),
                    "RR": _entropy_of_levels(mechanisms.row_levels("RR", k, big)),
                    "HR": _entropy_of_levels(mechanisms.row_levels("HR", k, big, params)),
                    "BH": _entropy_of_levels(mechanisms.row_levels("BH", k, big)),
                }
                ldp = {"RAPPOR": "2*eps", "RAPPOR (eps/2 per bit)": "eps", "RR": "eps", "HR": "eps", "BH": "eps"}
                for name in printed:
                    out.append({"k": str(k), "eps": str(eps), "mechanism": name,
                                "actual_nats": _num(actual[name]), "printed_nats": _num(printed[name]),
                                "printed_kind": "<=" if name == "HR" else "=",
                                "verdict": _verdict(actual[name], printed[name]),
                                "ldp_eps_of_channel": ldp[name]})
    return out


def csv_text(table: list[dict[str, str]] | None = None) -> str:
    table = rows() if table is None else table
    lines = [",".join(HEADER)] + [",".join(f'"{r[h]}"' if "," in r[h] else r[h] for h in HEADER) for r in table]
    return "\n".join(lines) + "\n"


def markdown(table: list[dict[str, str]] | None = None) -> str:
    table = rows() if table is None else table
    below = [r for r in table if r["verdict"] == "printed BELOW actual"]
    text = ["# Thesis Table 7.1: randomness per user (nats), regenerated", "",
            "Actual = max_x H(Y|X=x) of (7.2) from each channel's entries (certified, arb 256 bits); printed = "
            "Table 7.1's formula evaluated independently.  The channel's exact LDP level (checked exactly at "
            "rational e^eps in THESIS-Table7.1) is in the last column: RAPPOR as printed (flip 1/(e^eps+1) per "
            "bit) is 2 eps-LDP, so the eps-LDP RAPPOR flips with 1/(e^{eps/2}+1) and needs more randomness than "
            "printed.", "",
            "| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    text += ["| " + " | ".join(r[h] for h in HEADER) + " |" for r in table]
    text += ["", f"Rows with the printed randomness certified BELOW the actual one: {len(below)} "
             f"(all of them 'RAPPOR (eps/2 per bit)')." if below else "No printed entry is below the actual randomness."]
    return "\n".join(text) + "\n"


def write_table71(out_dir: str | Path) -> list[Path]:
    """Write ``thesis_table7_1.csv`` and ``thesis_table7_1.md`` into ``out_dir``."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    table = rows()
    csv_path, md_path = out / "thesis_table7_1.csv", out / "thesis_table7_1.md"
    csv_path.write_text(csv_text(table))
    md_path.write_text(markdown(table))
    return [csv_path, md_path]
