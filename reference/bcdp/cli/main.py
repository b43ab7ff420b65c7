"""bcdp: verified feature-specific differential privacy.

Commands:
  bcdp check [--json]              run every claim check (proofs_checks/) and print a table
  bcdp audit FILE.json [--json]    exact LDP/BDP/CDP/BCDP/dependence of a finite mechanism
  bcdp partial audit FILE.json [--json] [--concentrated]
                                   exact per-attribute eps0, whole-record eps, nabla profile;
                                   certified nabla0-CDP eps0 and zCDP rho with --concentrated
  bcdp allocate --delta D1,D2,... --eps E --q Q [--zeta Z | --optimal] [--json]
                                   Theorem 2 budgets c (eq. 16) and the eq. (17) objective, exact
  bcdp rdp shuffle --n N --eps0 E --alpha 2,3,4.5 [--bound NAME | --exact] [--json]
  bcdp rdp to-dp --n N --eps0 E --delta D [--rounds T] [--bound NAME | --exact] [--json]
  bcdp zcdp to-dp --rho R --delta D [--json]   certified rho-zCDP -> (eps, delta) conversions
  bcdp tables [NAME ...] [--out D] [--trials N] [--seed S]
                                   regenerate the golden tables (default: ./tables); fig3 is the
                                   Monte Carlo experiment of App. B.1 (1000 trials by default)
  bcdp reproduce [--out D]         every check and every table at its quick default, then a summary
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

from bcdp.core.errors import InputFileError, InvalidInputError

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT = 0, 1, 2
EXACT_N_LIMIT = 200_000  # `bcdp rdp shuffle --exact` above this needs --allow-slow


def _check_table(results) -> str:
    rows = [(r.claim_id, r.source, r.verdict, r.key_figure, f"{r.seconds:.2f}s") for r in results]
    header = ("claim", "source", "verdict", "key figure", "time")
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    widths = [min(w, 72) for w in widths]
    def line(cells):
        return "  ".join(str(c)[:w].ljust(w) for c, w in zip(cells, widths)).rstrip()
    out = [line(header), line(["-" * w for w in widths])]
    out += [line(r) for r in rows]
    return "\n".join(out)


def cmd_check(args: argparse.Namespace) -> int:
    from bcdp.claims.runner import run_all

    results = run_all()
    failed = [r for r in results if not r.passed]
    if args.json:
        print(json.dumps([r.to_json() for r in results], indent=2, default=str))
    else:
        print(_check_table(results))
        print(f"\n{len(results) - len(failed)}/{len(results)} claim checks passed"
              + (f"; FAILED: {', '.join(r.claim_id for r in failed)}" if failed else ""))
    return EXIT_FAILED if failed else EXIT_OK


def cmd_audit(args: argparse.Namespace) -> int:
    from bcdp.audit.kernel import audit_report, format_report, load_audit_file

    try:
        mech, prior = load_audit_file(args.file)
    except InputFileError as exc:
        print(f"bcdp audit: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    report = audit_report(mech, prior)
    print(json.dumps(report, indent=2) if args.json else format_report(report))
    return EXIT_OK


def cmd_partial_audit(args: argparse.Namespace) -> int:
    from bcdp.audit.partial import main_partial_audit

    code, text = main_partial_audit(args.file, args.json, args.concentrated)
    print(text, file=sys.stderr if code else sys.stdout)
    return code


def cmd_allocate(args: argparse.Namespace) -> int:
    from bcdp.bayesian.allocation import allocate_budgets
    from bcdp.core.numbers import to_fraction

    try:
        delta = [to_fraction(v.strip(), f"--delta entry {i}") for i, v in enumerate(args.delta.split(","))]
        eps = to_fraction(args.eps, "--eps")
        q = to_fraction(args.q, "--q")
        if args.optimal:
            from bcdp.bayesian.optimal_allocation import optimal_allocation

            result = optimal_allocation(delta, eps, q)
            alloc = result.allocation
            full = result.to_json()
            extra = {k: full[k] for k in ("objective_upper", "lower_bound", "lower_bound_float", "gap", "solver")
                     if k in full}
        else:
            zeta = to_fraction(args.zeta, "--zeta") if args.zeta is not None else (1 + q) / 2
            alloc = allocate_budgets(delta, eps, q, zeta)
            extra = {}
    except (TypeError, ValueError) as exc:
        print(f"bcdp allocate: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    out = alloc.to_json()
    out.update(extra)
    if args.json:
        print(json.dumps(out, indent=2))
        return EXIT_OK
    print(f"method: {out['method']}" + (f" (zeta = {out['zeta']})" if out["zeta"] else ""))
    print(f"delta = ({', '.join(out['delta'])}), eps = {out['eps']}, q = {out['q']}")
    print(f"{'i':>3} {'delta_i':>8} {'c_i (float)':>20}  c_i (exact)")
    for i, (dl, c) in enumerate(zip(out["delta"], out["c"]), start=1):
        print(f"{i:>3} {dl:>8} {c['float']:>20.15g}  {c['exact']}")
    obj = out["objective"]
    print(f"eq. (17) objective: {obj['float'] if isinstance(obj['float'], str) else format(obj['float'], '.15g')}")
    for key, value in extra.items():
        print(f"{key}: {value}")
    return EXIT_OK


def cmd_zcdp_to_dp(args: argparse.Namespace) -> int:
    from bcdp.accounting.conversion import zcdp_to_dp

    out = {"rho": None, "delta": None, "epsilon": {}, "details": {}}
    try:
        for method in ("cks", "bun-steinke"):
            res = zcdp_to_dp(args.rho, args.delta, method)
            out["epsilon"][method] = res.epsilon_certified_upper
            out["details"][method] = {"alpha_star": res.alpha_star, "source": res.source,
                                      "enclosure": list(res.enclosure)}
    except (InvalidInputError, ValueError, TypeError) as exc:
        print(f"bcdp zcdp to-dp: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    out["rho"], out["delta"] = float(args.rho), float(args.delta)
    out["certification"] = ("each epsilon is the upper end of an mpmath.iv interval evaluation (200 bits) of "
                            "the conversion at the chosen alpha, rounded up to the next float; rho and delta "
                            "are read exactly from their decimal strings")
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        print(f"rho = {args.rho}, delta = {args.delta}")
        for method, eps in out["epsilon"].items():
            print(f"  {method:<12} epsilon <= {eps!r}  (alpha* = {out['details'][method]['alpha_star']})")
    return EXIT_OK


def _parse_alphas(text: str) -> list[float]:
    out = []
    for part in text.split(","):
        a = float(part)
        if not math.isfinite(a) or a <= 1:
            raise ValueError(f"alpha must be a finite number > 1, got {part!r}")
        out.append(a)
    return out


def cmd_rdp_shuffle(args: argparse.Namespace) -> int:
    from bcdp.cli.rdp import shuffle_curve

    try:
        if args.n < 1:
            raise ValueError("n must be >= 1")
        eps0 = str(args.eps0)
        if not float(eps0) >= 0:
            raise ValueError("eps0 must be >= 0")
        exact = args.exact or not args.bound
        if exact and args.n > EXACT_N_LIMIT and not args.allow_slow:
            raise ValueError(f"the exact supremum over all neighbouring pairs searches every configuration of "
                             f"the other n - 1 users (about 10 minutes per order at n = 1e6); n = {args.n} > "
                             f"{EXACT_N_LIMIT}: pass --allow-slow to run it anyway, or use --bound NAME")
        out = shuffle_curve(args.n, eps0, _parse_alphas(args.alpha), None if exact else args.bound)
    except (ValueError, TypeError, ArithmeticError) as exc:
        print(f"bcdp rdp shuffle: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        print(f"n = {out['n']}, eps0 = {out['eps0']}: {out['source']}")
        for p in out["curve"]:
            extra = f"  pair {p['pair']}" if "pair" in p else ""
            print(f"  alpha = {p['alpha']:<8g} epsilon = {p['epsilon']}{extra}")
    return EXIT_OK


def cmd_rdp_to_dp(args: argparse.Namespace) -> int:
    from bcdp.cli.rdp import to_dp

    try:
        orders = [int(a) for a in args.orders.split(",")] if args.orders else list(range(2, 65))
        if (args.exact or not args.bound) and args.n > EXACT_N_LIMIT and not args.allow_slow:
            raise ValueError(f"the exact supremum over all pairs is slow for n = {args.n} > {EXACT_N_LIMIT} "
                             f"(minutes per order): pass --allow-slow, or use --bound NAME")
        out = to_dp(args.n, str(args.eps0), str(args.delta), args.rounds,
                    None if args.exact or not args.bound else args.bound, args.method, orders)
    except (ValueError, TypeError, ArithmeticError) as exc:
        print(f"bcdp rdp to-dp: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        print(f"n = {out['n']}, eps0 = {out['eps0']}, T = {out['rounds']}, delta = {out['delta']}: "
              f"epsilon <= {out['epsilon']!r} (alpha* = {out['alpha_star']}, {out['method']})")
    return EXIT_OK


def cmd_tables(args: argparse.Namespace) -> int:
    from bcdp.repro.tables import REGISTRY, write_tables

    known = list(REGISTRY) + ["fig3", "shuffle"]
    unknown = [n for n in args.names if n not in known]
    if unknown:
        print(f"bcdp tables: unknown table(s) {unknown}; known: {', '.join(known)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.trials < 1:
        print("bcdp tables: --trials must be >= 1", file=sys.stderr)
        return EXIT_BAD_INPUT
    names = args.names or known
    exact = [n for n in names if n not in ("fig3", "shuffle")]
    if exact:
        for path in write_tables(exact, Path(args.out)):
            print(f"wrote {path}")
    if "fig3" in names:
        from bcdp.repro.fig3 import write_fig3

        for path in write_fig3(Path(args.out), trials=args.trials, seed=args.seed, workers=args.workers):
            print(f"wrote {path}")
    if "shuffle" in names:
        from bcdp.repro.shuffle_figures import write_shuffle_figures

        for path in write_shuffle_figures(Path(args.out)):
            print(f"wrote {path}")
    return EXIT_OK


def cmd_reproduce(args: argparse.Namespace) -> int:
    from bcdp.claims.runner import run_all
    from bcdp.repro.tables import REGISTRY, compare_with_golden, write_tables

    print("== claim checks ==")
    results = run_all()
    print(_check_table(results))
    failed = [r for r in results if not r.passed]
    print(f"\n== tables (written to {args.out}) ==")
    written = write_tables(None, Path(args.out))
    golden = Path(args.golden)
    status = compare_with_golden(None, golden) if golden.is_dir() else {}
    for path in written:
        note = status.get(path.name, "no golden copy to compare")
        print(f"  {path}  [{note}]")
    fig3_status = _reproduce_fig3(Path(args.out), golden, args.fig3_trials)
    print(f"  fig3 ({args.fig3_trials} trials per q re-run): {fig3_status}")
    if fig3_status.startswith("differs"):
        status["fig3_trials.csv"] = "differs"
    for fname, st in _reproduce_shuffle(Path(args.out), golden).items():
        print(f"  {Path(args.out) / fname}  [{st}]")
        status[fname] = st if st != "no golden copy to compare" else "match"
    differing = [k for k, v in status.items() if v != "match"]
    print("\n== summary ==")
    print(f"claim checks: {len(results) - len(failed)}/{len(results)} passed"
          + (f" (failed: {', '.join(r.claim_id for r in failed)})" if failed else ""))
    if status:
        print(f"tables: {len(REGISTRY) + 2} regenerated (incl. fig3 slice, shuffle figures), {len(status) - len(differing)}/{len(status)} files "
              f"matching the golden copies in {golden}"
              + (f" (differ: {', '.join(differing)})" if differing else ""))
    else:
        print(f"tables: {len(REGISTRY)} regenerated ({golden} not found, nothing compared)")
    ok = not failed and not differing
    print("ALL PASSED" if ok else "SOME CHECKS FAILED")
    return EXIT_OK if ok else EXIT_FAILED


def _reproduce_fig3(out: Path, golden: Path, trials: int) -> str:
    """Quick Fig. 3 run; its trials must equal the first ones of the committed full run."""
    import csv

    from bcdp.repro.fig3 import write_fig3

    write_fig3(out, trials=trials, seed=0, workers=2, progress=False)
    gold = golden / "fig3_trials.csv"
    if not gold.exists():
        return "no golden copy to compare"
    with open(out / "fig3_trials.csv") as fh:
        fresh = list(csv.reader(fh))[1:]
    with open(gold) as fh:
        committed = {(r[0], r[2]): r for r in list(csv.reader(fh))[1:]}
    bad = 0
    for row in fresh:
        ref = committed.get((row[0], row[2]))
        if ref is None or any(abs(float(a) - float(b)) > 1e-9 * abs(float(b)) for a, b in zip(row[3:], ref[3:])):
            bad += 1
    return "match" if bad == 0 else f"differs ({bad} of {len(fresh)} trials)"


def _reproduce_shuffle(out: Path, golden: Path) -> dict[str, str]:
    """Thesis Ch. 5 figures (about a minute); CSVs compared with the golden copies (rtol 1e-9)."""
    from bcdp.repro.shuffle_figures import write_shuffle_figures
    from bcdp.repro.tables import texts_match

    result = {}
    for path in write_shuffle_figures(out):
        if path.suffix != ".csv":
            continue
        gold = golden / path.name
        if not gold.exists():
            result[path.name] = "no golden copy to compare"
        else:
            result[path.name] = "match" if texts_match(gold.read_text(), path.read_text(), 1e-9) else "differs"
    return result


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bcdp", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("check", help="run every claim check")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.set_defaults(func=cmd_check)
    p = sub.add_parser("audit", help="audit a finite mechanism given as JSON")
    p.add_argument("file", help="JSON file (format: docs/file_format.md)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_audit)
    p = sub.add_parser("partial", help="partial DP (per-attribute privacy, central model)")
    psub = p.add_subparsers(dest="partial_command", required=True)
    q = psub.add_parser("audit", help="exact partial-DP parameters of a mechanism on datasets (JSON)")
    q.add_argument("file", help="JSON file (format: docs/file_format.md, 'Partial DP audit input')")
    q.add_argument("--json", action="store_true", help="print one JSON object")
    q.add_argument("--concentrated", action="store_true",
                   help="also certified eps0 of nabla0-CDP and rho of zCDP (D* enclosures; slower)")
    q.set_defaults(func=cmd_partial_audit)
    p = sub.add_parser("allocate", help="Theorem 2 budgets c (eq. 16) for Mechanism 1")
    p.add_argument("--delta", required=True, help="comma-separated BCDP demands, e.g. 0.2,0.2,2,2")
    p.add_argument("--eps", required=True, help="LDP level (exact decimal or p/q)")
    p.add_argument("--q", required=True, help="dependence bound of Assumption 1, in [0, 1]")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--zeta", help="zeta in (0, 1] (default: (1 + q)/2, App. B.1)")
    group.add_argument("--optimal", action="store_true", help="minimise the eq. (17) objective")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_allocate)
    p = sub.add_parser("rdp", help="Renyi DP of the shuffle model (thesis Ch. 5)")
    rsub = p.add_subparsers(dest="rdp_command", required=True)
    r = rsub.add_parser("shuffle", help="RDP curve of n shuffled eps0-LDP reports")
    r.add_argument("--n", type=int, required=True)
    r.add_argument("--eps0", required=True)
    r.add_argument("--alpha", required=True, help="comma-separated orders > 1, e.g. 2,3,4.5,64")
    g = r.add_mutually_exclusive_group()
    g.add_argument("--bound", help="a bound: thm5.3.1, cor5.3.1, thm5.3.2, efm19, lower5.3.3, lower5.3.2")
    g.add_argument("--exact", action="store_true", help="exact sup over all neighbouring pairs (default)")
    r.add_argument("--allow-slow", action="store_true",
                   help=f"allow --exact for n > {EXACT_N_LIMIT} (minutes per order)")
    r.add_argument("--json", action="store_true")
    r.set_defaults(func=cmd_rdp_shuffle)
    r = rsub.add_parser("to-dp", help="compose over T rounds and convert to (eps, delta), certified")
    r.add_argument("--n", type=int, required=True)
    r.add_argument("--eps0", required=True)
    r.add_argument("--delta", required=True)
    r.add_argument("--rounds", type=int, default=1)
    r.add_argument("--orders", help="comma-separated integer orders (default 2..64)")
    r.add_argument("--method", default="cks", choices=["cks", "mironov", "asoodeh"])
    r.add_argument("--allow-slow", action="store_true", help=f"allow --exact for n > {EXACT_N_LIMIT}")
    g = r.add_mutually_exclusive_group()
    g.add_argument("--bound")
    g.add_argument("--exact", action="store_true")
    r.add_argument("--json", action="store_true")
    r.set_defaults(func=cmd_rdp_to_dp)
    p = sub.add_parser("zcdp", help="zero-concentrated DP conversions")
    zsub = p.add_subparsers(dest="zcdp_command", required=True)
    z = zsub.add_parser("to-dp", help="rho-zCDP -> (eps, delta)-DP, certified (CKS and Bun-Steinke)")
    z.add_argument("--rho", required=True, help="rho >= 0 (decimal string, read exactly)")
    z.add_argument("--delta", required=True, help="delta in (0, 1) (decimal string, read exactly)")
    z.add_argument("--json", action="store_true", help="print one JSON object")
    z.set_defaults(func=cmd_zcdp_to_dp)
    p = sub.add_parser("tables", help="regenerate tables")
    p.add_argument("names", nargs="*", help="table names (default: all)")
    p.add_argument("--out", default="tables", help="output directory (default: ./tables)")
    p.add_argument("--trials", type=int, default=1000, help="fig3: trials per q (default 1000)")
    p.add_argument("--seed", type=int, default=0, help="fig3: seed (default 0)")
    p.add_argument("--workers", type=int, default=2, help="fig3: worker processes (default 2)")
    p.set_defaults(func=cmd_tables)
    p = sub.add_parser("reproduce", help="all checks and tables at their quick defaults")
    p.add_argument("--out", default="bcdp-reproduce", help="where to write tables (default: ./bcdp-reproduce)")
    p.add_argument("--golden", default="tables", help="golden tables to compare with (default: ./tables)")
    p.add_argument("--fig3-trials", type=int, default=20, help="Fig. 3 trials per q in the quick run (default 20)")
    p.set_defaults(func=cmd_reproduce)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
