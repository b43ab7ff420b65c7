"""Start-up cost of the package and of the ``bcdp`` command.  Run on demand:

    python benchmarks/bench_import.py [--repeat 5]

Each figure is the best of ``--repeat`` fresh interpreters: ``process`` is the wall time of the
whole subprocess (interpreter start-up included), ``code`` the time of the measured statements
inside it (``time.perf_counter`` around them).  Measured:

* ``import bcdp``;
* ``bcdp --help``: importing :mod:`bcdp.cli.main` and building the parser (what the console script
  does before it prints the help);
* for comparison, ``import sympy`` alone and one command that needs the exact engine
  (``bcdp.cli.allocate`` running a three-coordinate allocation).

For each it lists which heavy modules (sympy, scipy, mpmath, matplotlib, numpy) were loaded.  The
bcdp used is the one the running interpreter imports (its directory is put on PYTHONPATH of the
subprocesses).  Not a test module (pytest does not collect it); the start-up contract itself is
tested in ``tests/cli/test_cli_startup.py``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

import bcdp

HEAVY = ("sympy", "scipy", "mpmath", "matplotlib", "numpy")

CASES = {
    "python -c pass (interpreter start-up)": "pass",
    "import bcdp": "import bcdp",
    "bcdp --help (import bcdp.cli.main + build_parser)":
        "from bcdp.cli.main import build_parser\nbuild_parser().format_help()",
    "import sympy (reference)": "import sympy",
    "bcdp allocate (exact engine)":
        "import contextlib, io\nfrom bcdp.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['allocate', '--delta', '0.2,0.2,2', '--eps', '2', '--q', '0.3'])",
}

def _program(code: str) -> str:
    """``code`` timed inside a fresh interpreter, followed by the heavy modules it left loaded."""
    body = "".join("    " + line + "\n" for line in code.splitlines())
    return ("import sys, time\n_t0 = time.perf_counter()\nif True:\n" + body
            + "_dt = time.perf_counter() - _t0\n"
            + "print(repr(_dt), ','.join(sorted({m.split('.')[0] for m in sys.modules} & "
            + repr(set(HEAVY)) + ")))\n")


def _env() -> dict[str, str]:
    env = dict(os.environ)
    root = str(Path(bcdp.__file__).resolve().parents[1])
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def measure(code: str, repeat: int) -> tuple[float, float, list[str]]:
    """(best wall seconds of the whole subprocess, best in-process seconds of ``code``, heavy modules)."""
    best_wall, best_code, heavy = float("inf"), float("inf"), []
    for _ in range(repeat):
        start = time.perf_counter()
        proc = subprocess.run([sys.executable, "-c", _program(code)], env=_env(),
                              capture_output=True, text=True, check=True)
        best_wall = min(best_wall, time.perf_counter() - start)
        seconds, _, loaded = proc.stdout.strip().splitlines()[-1].partition(" ")
        best_code = min(best_code, float(seconds))
        heavy = [h for h in loaded.split(",") if h]
    return best_wall, best_code, heavy


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=5, help="fresh interpreters per case; the best is kept")
    args = ap.parse_args()
    print(f"python {sys.version.split()[0]}, bcdp from {Path(bcdp.__file__).parent}, best of {args.repeat}")
    print(f"{'case':<52} {'process':>9} {'code':>9}  heavy modules loaded")
    for name, code in CASES.items():
        wall, seconds, heavy = measure(code, args.repeat)
        print(f"{name:<52} {wall * 1e3:>7.0f}ms {seconds * 1e3:>7.1f}ms  {', '.join(heavy) or '-'}")


if __name__ == "__main__":
    main()
