"""Mutation testing of the trusted core (``reference/bcdp/core``) against ``tests/core``.

Each mutant below is ONE hand-written, realistic single-point bug: a (file, exact old snippet, new
snippet) triple; the old snippet must occur exactly once in the file.  For each mutant the script
writes the mutated file, runs ``python3 -m pytest -q -x tests/core -p no:cacheprovider`` with
``PYTHONPATH=<worktree>/reference`` (bytecode writing off, so no stale .pyc can survive a restore),
records killed (tests fail) or survived (tests pass), and ALWAYS restores the original bytes and
mtime (try/finally).  At the end it checks ``git diff --quiet reference/``.

Mutants marked ``equivalent`` are expected to survive; the reason is given and printed.  The exit
status is 0 when every survivor is a documented equivalent (and no documented equivalent is
killed), 1 otherwise.

Usage (from anywhere; not collected by pytest: it lives outside ``tests/``)::

    python3 benchmarks/mutate_core.py            # all mutants, table on stdout
    python3 benchmarks/mutate_core.py --list     # list the mutants
    python3 benchmarks/mutate_core.py N20 I05    # only these ids
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORE = ROOT / "reference" / "bcdp" / "core"
TIMEOUT = 300  # seconds per mutant run; a hang counts as killed (the suite does not pass)


@dataclass(frozen=True)
class Mutant:
    id: str
    file: str
    old: str
    new: str
    what: str
    equivalent: str = ""  # reason, when the mutant cannot change any observable behaviour


M = Mutant
MUTANTS: list[Mutant] = [
    # -- numbers.py --------------------------------------------------------------------------------
    M("N01", "numbers.py", "abs(dec.adjusted()) > MAX_DECIMAL_EXPONENT", "abs(dec.adjusted()) >= MAX_DECIMAL_EXPONENT",
      "exponent cap off by one (> -> >=)"),
    M("N02", "numbers.py", "len(dec.as_tuple().digits) > MAX_DIGITS", "len(dec.as_tuple().digits) >= MAX_DIGITS",
      "digit cap off by one (> -> >=)"),
    M("N03", "numbers.py", "        if len(text) > MAX_DIGITS:\n            raise InvalidInputError(f\"{name}: numeric string longer than {MAX_DIGITS} characters\")\n        try:\n            if",
      "        if len(text) >= MAX_DIGITS:\n            raise InvalidInputError(f\"{name}: numeric string longer than {MAX_DIGITS} characters\")\n        try:\n            if",
      "to_fraction length cap off by one (> -> >=)"),
    M("N04", "numbers.py", "    if isinstance(value, float):\n        raise FloatRefusedError(",
      "    if isinstance(value, float) and not value.is_integer():\n        raise FloatRefusedError(",
      "to_fraction accepts integral floats (2.0)"),
    M("N05", "numbers.py", "    if isinstance(value, bool):\n        raise WrongTypeError(f\"{name}: booleans are not numbers here (got {value!r})\")\n    if isinstance(value, Fraction):",
      "    if False:\n        raise WrongTypeError(f\"{name}: booleans are not numbers here (got {value!r})\")\n    if isinstance(value, Fraction):",
      "to_fraction accepts bools (True -> 1)"),
    M("N06", "numbers.py", "if p < 0 or p > 1:", "if p < 0 or p >= 1:", "to_probability refuses 1"),
    M("N07", "numbers.py", "if p < 0 or p > 1:", "if p <= 0 or p > 1:", "to_probability refuses 0"),
    M("N08", "numbers.py", "if isinstance(value, sympy.Rational):", "if isinstance(value, sympy.Expr):",
      "to_fraction takes any sympy expression (sqrt(2))"),
    M("N09", "numbers.py", "    if r <= 0:\n        raise InvalidInputError(f\"log of", "    if r < 0:\n        raise InvalidInputError(f\"log of",
      "ratio_to_float_log accepts ratio 0"),
    M("N10", "numbers.py", "with mpmath.workdps(40):", "with mpmath.workdps(12):",
      "ratio_to_float_log works at 12 digits (not one-ulp accurate)"),
    M("N11", "numbers.py", "if math.isinf(out) and not allow_inf:", "if math.isinf(out) and allow_inf:",
      "to_float_input: allow_inf inverted"),
    M("N12", "numbers.py", "    if math.isnan(out):\n        raise", "    if False:\n        raise",
      "to_float_input lets NaN through"),
    M("N13", "numbers.py", "sympy.log(sympy.Rational(ratio.numerator, ratio.denominator))",
      "sympy.log(sympy.Rational(ratio.denominator, ratio.numerator))", "log_of_ratio inverts the ratio"),
    M("N14", "numbers.py", "if not minimum <= v <= maximum:", "if not minimum < v <= maximum:",
      "check_precision refuses the minimum"),
    M("N15", "numbers.py", "if not minimum <= v <= maximum:", "if not minimum <= v < maximum:",
      "check_precision refuses the maximum"),
    M("N16", "numbers.py", "if isinstance(value, bool) or not isinstance(value, numbers.Integral):",
      "if not isinstance(value, numbers.Integral):", "check_precision accepts bools"),
    # -- errors.py ---------------------------------------------------------------------------------
    M("E01", "errors.py", "    exit_code = EXIT_BAD_INPUT", "    exit_code = EXIT_CHECK_FAILED",
      "bad input mapped to exit code 1"),
    M("E02", "errors.py", "        return exc.exit_code\n    return EXIT_INTERNAL_ERROR",
      "        return exc.exit_code\n    return EXIT_BAD_INPUT", "internal errors mapped to exit code 2"),
    M("E03", "errors.py", "class FloatRefusedError(WrongTypeError):", "class FloatRefusedError(InvalidInputError):",
      "FloatRefusedError no longer a TypeError"),
    M("E04", "errors.py", "class UndecidedComparison(CertificationError):", "class UndecidedComparison(BcdpError):",
      "UndecidedComparison outside CertificationError"),
    # -- intervals.py ------------------------------------------------------------------------------
    M("I01", "intervals.py", "if up and Fraction(f) < q:", "if up and Fraction(f) <= q:",
      "float_up moves up even when exact (< -> <=)"),
    M("I02", "intervals.py", "        f = math.nextafter(f, math.inf)\n", "        f = math.nextafter(f, -math.inf)\n",
      "float_up: nextafter in the wrong direction"),
    M("I03", "intervals.py", "elif not up and Fraction(f) > q:", "elif not up and Fraction(f) >= q:",
      "float_down moves down even when exact (> -> >=)"),
    M("I04", "intervals.py", "    return _directed(x, True)", "    return float(exact_fraction(x))",
      "float_up is round-to-nearest"),
    M("I05", "intervals.py", "    except OverflowError:\n        big = sys.float_info.max\n        return (math.inf if up else big) if q > 0 else (-big if up else -math.inf)",
      "    except OverflowError:\n        big = sys.float_info.max\n        return (math.inf if up else big) if q > 0 else (-math.inf if up else -big)",
      "overflow of a negative value: directions swapped"),
    M("I07", "intervals.py", "    if q == 0:\n        return 0.0\n", "",
      "drop the q == 0 shortcut",
      equivalent="float(Fraction(0)) is 0.0, exact, so neither nextafter branch fires: same result"),
    M("I08", "intervals.py", "        return -value if sign else value", "        return value",
      "exact_fraction of an mpf drops the sign"),
    M("I09", "intervals.py", "(-(q.denominator.bit_length() - 1))", "(-(q.denominator.bit_length()))",
      "ball_of dyadic exponent off by one"),
    M("I10", "intervals.py", "    r = exact_fraction(rad)\n    return mid - r, mid + r", "    r = exact_fraction(rad)\n    return mid - r, mid",
      "ball_ends: upper end is mid (mid + rad -> mid)"),
    M("I11", "intervals.py", "mpmath.fadd(mid, r, exact=True)", "mid", "ball_ends_mpf: upper end is mid"),
    M("I12", "intervals.py", "    if not rad.is_exact():\n        rad = rad.upper()\n    r = exact_fraction(rad)",
      "    r = exact_fraction(rad.mid())", "ball_ends: radius taken at its midpoint",
      equivalent="arb radii are mag_t values (30-bit mantissa), converted to an exact arb: rad() is always "
                 "exact, so rad.mid() == rad == rad.upper()"),
    M("I13", "intervals.py", "    if n % 2 == 0:\n        return flint.arb(0).union", "    if n % 2 == 1:\n        return flint.arb(0).union",
      "ball_power: even/odd branch swapped"),
    M("I14", "intervals.py", "return flint.arb(0).union(b.abs_upper() ** n)", "return b.abs_upper() ** n",
      "ball_power even branch drops 0 from the hull"),
    M("I15", "intervals.py", "    for _ in range(n - 1):", "    for _ in range(n):", "ball_power odd product off by one"),
    M("I16", "intervals.py", "        return flint.arb(1) / ball_power(b, -n)", "        return ball_power(b, -n)",
      "ball_power: negative exponent not inverted"),
    M("I17", "intervals.py", "    if n == 0:\n        return flint.arb(1)", "    if n == 0:\n        return flint.arb(0)",
      "ball_power: b^0 = 0"),
    M("I18", "intervals.py", "            if enc > 0:\n                return 1", "            if enc.mid() > 0:\n                return 1",
      "compare decides by the midpoint"),
    M("I19", "intervals.py", "            if enc < 0:\n                return -1", "            if enc <= 0:\n                return -1",
      "compare: < -> <= on the enclosure"),
    M("I25", "intervals.py", "            if enc > 0:\n                return 1", "            if enc >= 0:\n                return 1",
      "compare: > -> >= on the enclosure"),
    M("I20", "intervals.py", "PRECISIONS = (53, 120, 250, 500, 1000)", "PRECISIONS = (53, 120, 250, 500)",
      "precision ladder cap one step short"),
    M("I21", "intervals.py", "    return compare(a, b) <= 0", "    return compare(a, b) < 0", "leq is strict"),
    M("I22", "intervals.py", "out.min(v) if isinstance(e, sympy.Min) else out.max(v)",
      "out.max(v) if isinstance(e, sympy.Min) else out.min(v)", "arb Min/Max swapped"),
    M("I23", "intervals.py", "    return float_down(lo), float_up(hi)",
      "    return float(lo), float(hi)", "outward_floats of a ball rounds to nearest"),
    M("I24", "intervals.py", "    if diff == 0:\n        return 0\n", "",
      "compare without the structural-zero shortcut",
      equivalent="a structural 0 is the exact ball 0 (neither > 0 nor < 0 at any precision), and "
                 "is_identically_zero(0) is True: same answer, only slower"),
    # -- results.py --------------------------------------------------------------------------------
    M("R01", "results.py", "    return upper_of(a) <= lower_of(b)", "    return lower_of(a) <= lower_of(b)",
      "certainly_le uses lower(a)"),
    M("R02", "results.py", "    return upper_of(a) < lower_of(b)", "    return upper_of(a) <= lower_of(b)",
      "certainly_lt is not strict"),
    M("R03", "results.py", "    return lower_of(a) > upper_of(b)", "    return lower_of(a) >= upper_of(b)",
      "certainly_gt is not strict"),
    M("R04", "results.py", "    if certainly_le(a, b):\n        return True", "    if lower_of(a) <= lower_of(b):\n        return True",
      "decide_le compares lower ends"),
    M("R05", "results.py", "    if certainly_gt(a, b):\n        return False", "    if not certainly_le(a, b):\n        return False",
      "decide_le never undecided"),
    M("R06", "results.py", "        return self.lower == INFINITY", "        return self.upper == INFINITY",
      "is_infinite tests the upper end"),
    M("R07", "results.py", "self.exact is not None or self.lower == self.upper", "self.exact is not None and self.lower == self.upper",
      "is_exact: or -> and"),
    M("R08", "results.py", "        return self.upper - self.lower", "        return self.lower - self.upper", "width sign"),
    M("R09", "results.py", "        if math.isinf(x):\n            return \"inf\" if x > 0 else \"-inf\"",
      "        if math.isinf(x):\n            return \"inf\"", "jsonable: -inf as \"inf\""),
    M("R10", "results.py", "        if math.isnan(x):\n            raise ValueError(\"NaN is not a valid result\")\n        if math.isinf(x):",
      "        if math.isinf(x):", "jsonable lets a float NaN through"),
    M("R11", "results.py", "        if mpmath.isinf(x):\n            return \"inf\" if x > 0 else \"-inf\"\n", "",
      "jsonable: mpf infinities printed by nstr (\"+inf\")"),
    M("R12", "results.py", "    if isinstance(x, Fraction):\n        return str(x)", "    if isinstance(x, Fraction):\n        return float(x)",
      "jsonable: Fractions as floats"),
    M("R13", "results.py", "    if x is None or isinstance(x, (bool, str)):", "    if x is None or isinstance(x, str):",
      "jsonable: bools fall through to the int branch",
      equivalent="bool is a subclass of int and the int branch returns x unchanged: True stays True"),
    # -- divergences.py ----------------------------------------------------------------------------
    M("D01", "divergences.py", "    if a == 1:\n        return kl_divergence(p, q, dps)", "    if a <= 1:\n        return kl_divergence(p, q, dps)",
      "Renyi dispatch: orders < 1 sent to KL"),
    M("D02", "divergences.py", "    if a == INFINITY:\n        ratio = d_infinity(p, q).ratio\n        if ratio == INFINITY:\n            return INFINITY\n        with mpmath.workdps(dps):\n            return mpmath.log(mpf_of_fraction(ratio))",
      "    if a == INFINITY:\n        ratio = d_infinity(p, q).ratio\n        if ratio == INFINITY:\n            return INFINITY\n        with mpmath.workdps(dps):\n            return mpmath.log(mpf_of_fraction(ratio)) / 2",
      "Renyi order inf: wrong value"),
    M("D03", "divergences.py", "    if a > 1 and infinite_support(p, q):", "    if a > 0 and infinite_support(p, q):",
      "support rule: orders < 1 made infinite by a mismatch"),
    M("D04", "divergences.py", "    if a > 1 and infinite_support(p, q):", "    if a >= 1 and infinite_support(p, q):",
      "support rule at a = 1 (> -> >=)",
      equivalent="a == 1 has already returned through kl_divergence above, so a >= 1 and a > 1 agree here"),
    M("D05", "divergences.py", "any(a > 0 and b == 0 for a, b in zip(p, q))", "any(b > 0 and a == 0 for a, b in zip(p, q))",
      "infinite_support in the wrong direction"),
    M("D06", "divergences.py", "x ** a / y ** (a - 1) for x, y", "x ** a / y ** a for x, y", "exact moment (a-1) -> a"),
    M("D07", "divergences.py", "/ (int(order) - 1)", "/ int(order)", "exact Renyi divides by a, not a - 1"),
    M("D08", "divergences.py", "for x, y in zip(p, q) if x > 0), Fraction(0))", "for x, y in zip(p, q)), Fraction(0))",
      "exact moment sums over every output (0/0 at common zeros)"),
    M("D09", "divergences.py", "rat(a) * sympy.log(rat(a / b))", "rat(a) * sympy.log(rat(b / a))", "exact KL sign"),
    M("D10", "divergences.py", "mpmath.exp(lq + l) * l for lq, l", "mpmath.exp(lq) * l for lq, l",
      "high-precision KL weighted by Q instead of P"),
    M("D11", "divergences.py", "        if arg is None or r > best:", "        if arg is None or r >= best:",
      "d_infinity witness tie-break: last instead of first"),
    M("D12", "divergences.py", "        if a == 0:\n            continue\n        r = INFINITY", "        r = INFINITY",
      "d_infinity counts outputs with P(y) = 0 (0/0 -> inf)"),
    M("D13", "divergences.py", "max(Fraction(0), a - r * b)", "(a - r * b)", "exact hockey-stick without max(0, .)"),
    M("D14", "divergences.py", "    if r < 0:\n        raise InvalidInputError(f\"ratio", "    if r <= 0:\n        raise InvalidInputError(f\"ratio",
      "hockey-stick refuses r = 0"),
    M("D15", "divergences.py", "max(mpmath.mpf(0), mpf_of_fraction(a) - r * mpf_of_fraction(b))",
      "(mpf_of_fraction(a) - r * mpf_of_fraction(b))", "high-precision hockey-stick without max(0, .)"),
    M("D16", "divergences.py", "        r = mpmath.exp(e)", "        r = 1 + e", "hockey-stick: e^eps ~ 1 + eps"),
    M("D17", "divergences.py", "        if witness is None or ratio > best:", "        if witness is None or ratio >= best:",
      "max_column_ratio witness tie-break (> -> >=)"),
    M("D18", "divergences.py", "        if hi == 0:\n            continue\n", "",
      "max_column_ratio: all-zero column not skipped (0/0 -> inf)"),
    M("D20", "divergences.py", "        if v < 0:\n            raise InvalidInputError(f\"{name}[{k}]", "        if v <= 0:\n            raise InvalidInputError(f\"{name}[{k}]",
      "exact_row refuses zero entries"),
    M("D21", "divergences.py", "    if value <= 0:\n        raise InvalidInputError(f\"the Renyi order", "    if value < 0:\n        raise InvalidInputError(f\"the Renyi order",
      "Renyi order 0 accepted"),
    M("D22", "divergences.py", "for x, y in zip(p, q) if x > 0 and y > 0]", "for x, y in zip(p, q) if x > 0]",
      "order < 1: outputs with Q(y) = 0 kept (log 0)"),
    M("D23", "divergences.py", "np.outer(1 - a[gt], lq), axis=1) / (a[gt] - 1)", "np.outer(a[gt] - 1, lq), axis=1) / (a[gt] - 1)",
      "float twin: sign of (1 - a) for a > 1"),
    M("D24", "divergences.py", "np.maximum(0.0, p[None, :] - np.exp(e)[:, None] * q[None, :])",
      "(p[None, :] - np.exp(e)[:, None] * q[None, :])", "float hockey-stick without max(0, .)"),
    M("D25", "divergences.py", "        out[inf] = float(np.max(lp - lq))", "        out[inf] = float(np.max(lq - lp))",
      "float twin order inf: log Q/P"),
]


def run_tests() -> tuple[bool, str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "reference"), PYTHONDONTWRITEBYTECODE="1")
    try:
        proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "tests/core", "-p", "no:cacheprovider"],
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=TIMEOUT, check=False)
    except subprocess.TimeoutExpired:
        return False, "timeout"
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith(("FAILED", "ERROR"))]
    return proc.returncode == 0, (lines[0][:110] if lines else proc.stdout.strip().splitlines()[-1][:110])


def apply_and_test(m: Mutant) -> tuple[bool, str]:
    path = CORE / m.file
    original = path.read_bytes()
    stat = path.stat()
    text = original.decode()
    count = text.count(m.old)
    if count != 1:
        raise SystemExit(f"{m.id}: old snippet found {count} times in {m.file} (must be exactly once)")
    try:
        path.write_text(text.replace(m.old, m.new))
        return run_tests()
    finally:
        path.write_bytes(original)
        os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))


def main(argv: list[str]) -> int:
    if "--list" in argv:
        for m in MUTANTS:
            print(f"{m.id}  {m.file:15s} {m.what}")
        return 0
    chosen = [m for m in MUTANTS if not argv or m.id in argv]
    ok, msg = run_tests()
    if not ok:
        print(f"the unmutated tests fail ({msg}): fix that first")
        return 1
    killed = survived = 0
    problems = []
    start = time.perf_counter()
    print(f"{'id':4s} {'file':15s} {'result':9s} mutant / evidence")
    try:
        for m in chosen:
            passed, evidence = apply_and_test(m)
            if passed:
                survived += 1
                status = "equiv" if m.equivalent else "SURVIVED"
                if not m.equivalent:
                    problems.append(m.id)
                detail = f"{m.what}  [equivalent: {m.equivalent}]" if m.equivalent else m.what
            else:
                killed += 1
                status = "killed"
                if m.equivalent:
                    problems.append(f"{m.id} (documented equivalent but killed)")
                detail = f"{m.what}  <- {evidence}"
            print(f"{m.id:4s} {m.file:15s} {status:9s} {detail}", flush=True)
    finally:
        clean = subprocess.run(["git", "diff", "--quiet", "reference/"], cwd=ROOT, check=False).returncode == 0
    n_eq = sum(1 for m in chosen if m.equivalent)
    print(f"\n{killed}/{len(chosen)} killed, {survived} survived ({n_eq} documented equivalent); "
          f"{time.perf_counter() - start:.0f}s; reference/ restored: {'yes' if clean else 'NO'}")
    if problems:
        print("unexplained: " + ", ".join(problems))
    return 0 if clean and not problems else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
