"""Provenance registry of the thesis Chapter 5 bounds: what each bounds, where it is printed, when
it holds, which neighbouring relation and direction it speaks about (used by ``bcdp rdp shuffle``
and the claim checks).  One :class:`BoundSpec` per function of :mod:`bcdp.shuffle.bounds`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BoundSpec:
    """Provenance of one bound: what it bounds, where it is printed, when it holds."""

    name: str
    kind: str  # "upper" | "lower" | "moment-upper" | "ternary-upper" | "transform"
    source: str
    equation: str
    orders: str
    validity: str
    neighbouring: str
    direction: str
    notes: str = ""


_REPLACE = "replacement of one record (D, D' differ in the last entry); sup over ordered pairs"

BOUNDS: dict[str, BoundSpec] = {
    "thm531_upper": BoundSpec(
        "thm531_upper", "upper", "thesis Ch. 5, Sec. 5.3, Thm 5.3.1 (Upper Bound 1)", "(5.4)",
        "integer alpha >= 2", "n >= 1, eps0 >= 0 (any discrete eps0-LDP randomizer)", _REPLACE,
        "sup over both directions",
        "nbar = floor((n-1)/(2E)) + 1 in the first two terms (bar lost in the extraction; the "
        "proof (5.15) applies Thm 5.3.5 with m = nbar); true n in the tail (n-1)/(8E)"),
    "cor531_upper": BoundSpec(
        "cor531_upper", "upper", "thesis Ch. 5, Cor 5.3.1; proof App. D.1", "(5.5); (D.1)",
        "integer alpha >= 2", "alpha^4 e^{5 eps0} < n/9 (enforced)", _REPLACE,
        "sup over both directions",
        "the D.1 proof derives it from (5.4); steps (D.5) and (D.9) fail for some admissible "
        "(n, eps0, alpha): docs/errata.md"),
    "interpolate_real_alpha": BoundSpec(
        "interpolate_real_alpha", "transform", "thesis Ch. 5, Remark 5.3.2", "(5.6)",
        "real alpha > 1", "convexity of (alpha-1) D_alpha in alpha [EH14, Cor 2]", _REPLACE,
        "any (applies to each pair, hence to the sup)"),
    "thm532_upper": BoundSpec(
        "thm532_upper", "upper", "thesis Ch. 5, Sec. 5.3, Thm 5.3.2 (Upper Bound 2)", "(5.7)",
        "real alpha > 1", "n >= 1, eps0 >= 0", _REPLACE, "sup over both directions",
        "printed 'any alpha >= 1'; at alpha = 1 the expression is +inf (vacuous), so alpha > 1"),
    "efm19_upper": BoundSpec(
        "efm19_upper", "upper", "[EFM19, Remark 1] as quoted in thesis Ch. 5, Sec. 5.3", "(5.8)",
        "real alpha > 1", "none stated in the thesis", _REPLACE, "sup over both directions",
        "obtained in EFM19 by a DP-to-RDP conversion"),
    "thm533_lower": BoundSpec(
        "thm533_lower", "lower", "thesis Ch. 5, Sec. 5.3, Thm 5.3.3; proof Sec. 5.3.4", "(5.9)",
        "integer alpha >= 2", "n >= 1, eps0 >= 0", _REPLACE,
        "D_alpha(M(D') || M(D)), 2RR, D = 0^n, D' = 0^{n-1}1 (the smaller direction; the "
        "reverse one is the true 2RR RDP)",
        "k ~ Bin(n, 1/(E+1)); n (not nbar): equality with the exact 2RR value decides it"),
    "cor532_lower": BoundSpec(
        "cor532_lower", "lower", "thesis Ch. 5, Cor 5.3.2", "(5.10)", "integer alpha >= 2",
        "n >= 1, eps0 >= 0", _REPLACE, "as (5.9)",
        "needs odd central moments of Bin(n, 1/(E+1)) >= 0; the printed Jensen argument is "
        "invalid for odd powers, the claim holds (multinomial expansion, see function doc)"),
    "thm535_special_case": BoundSpec(
        "thm535_special_case", "moment-upper", "thesis Ch. 5, Thm 5.3.5", "(5.13)",
        "integer alpha >= 2", "m >= 1", "special pairs D_m = (d..d), D'_m = (d..d,d')",
        "E_{M(D_m)}[(M(D'_m)/M(D_m))^alpha] (a moment, not an RDP value)",
        "equality at alpha = 2 for 2RR"),
    "thm536_special_case": BoundSpec(
        "thm536_special_case", "moment-upper", "thesis Ch. 5, Thm 5.3.6; proof App. D.2.2",
        "(5.16)", "real alpha >= 2 (proof valid for alpha > 0)", "m >= 1",
        "special pairs as (5.13)", "moment as (5.13)"),
    "thm541_upper": BoundSpec(
        "thm541_upper", "upper", "thesis Ch. 5, Sec. 5.4, Thm 5.4.1; proof Sec. 5.4.1",
        "Thm 5.4.1 (unnumbered)", "integer alpha >= 2",
        "1 <= k <= n, eps0 >= 0 (Thm 5.4.4 needs k >= 2, eps0 > 0; k = 1 and eps0 = 0 are "
        "accepted because they are checked against the exact oracle)",
        "replacement of one record, subsampling k of n without replacement (5.3)",
        "sup over both directions", "kbar = floor((k-1)/(2E)) + 1; variants girgis_code, koskela"),
    "thm542_lower": BoundSpec(
        "thm542_lower", "lower", "thesis Ch. 5, Thm 5.4.2", "Thm 5.4.2 (unnumbered)",
        "integer alpha >= 2", "1 <= k <= n, eps0 >= 0",
        "replacement, subsampling k of n without replacement",
        "D_alpha(M_s(D') || M_s(D)), 2RR, D = 0^n, D' = 0^{n-1}1",
        "k (not kbar): equality with the exact subsampled 2RR value decides it"),
    "thm544_ternary": BoundSpec(
        "thm544_ternary", "ternary-upper", "thesis Ch. 5, Thm 5.4.4", "(5.43)",
        "lambda >= 2 (real; the integer case is what Lemma 5.4.1 uses)", "k >= 2, eps0 > 0",
        "three datasets differing in the last entry (D, D', D'')",
        "zeta(lambda)^lambda >= E_{M(D'')} |(M(D) - M(D'))/M(D'')|^lambda"),
    "thm546_ternary_special_case": BoundSpec(
        "thm546_ternary_special_case", "ternary-upper", "thesis Ch. 5, Thm 5.4.6", "Thm 5.4.6",
        "integer lambda >= 2", "m >= 1", "special triples (D''_m all equal)", "ternary moment"),
    "lemma541_subsampled": BoundSpec(
        "lemma541_subsampled", "transform", "thesis Ch. 5, Lemma 5.4.1 ([WBK19, Prop 16, Eq. (9)])",
        "Lemma 5.4.1", "integer alpha >= 2", "1 <= k <= n, gamma = k/n",
        "replacement, subsampling without replacement", "sup over both directions"),
}


__all__ = ["BOUNDS", "BoundSpec"]
