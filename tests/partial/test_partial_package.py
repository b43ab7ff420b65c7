"""The package face of bcdp.partial: lazy main names, fast start, no private cross-module imports."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import bcdp
import pytest

PACKAGE_DIRS = [Path(bcdp.__file__).parent / "partial", Path(bcdp.__file__).parent / "audit"]


def test_package_names_are_the_module_functions():
    import bcdp.partial as p
    from bcdp.partial import concentrated, dstar, pure

    assert p.d_star is dstar.d_star
    assert p.nabla_cdp_holds is concentrated.nabla_cdp_holds
    assert p.per_attribute_epsilon is pure.per_attribute_epsilon
    assert set(p.__all__) <= set(dir(p))
    with pytest.raises(AttributeError):
        p.no_such_name  # noqa: B018


@pytest.mark.parametrize("module", ["bcdp.partial", "bcdp.partial.concentrated", "bcdp.partial.halfspaces",
                                    "bcdp.partial.heavy_hitters", "bcdp.audit.partial"])
def test_import_loads_no_sympy_scipy_matplotlib(module):
    code = (f"import sys, {module}; "
            "print(','.join(m for m in ('sympy', 'scipy', 'matplotlib') if m in sys.modules))")
    env = {**os.environ, "PYTHONPATH": str(Path(bcdp.__file__).parent.parent)}  # this tree's bcdp
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    assert out.stdout.strip() == ""


def test_no_private_names_imported_from_other_modules():
    """A module imports no ``_private`` name of another module of the library."""
    offenders = []
    for folder in PACKAGE_DIRS:
        for path in folder.glob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("bcdp"):
                    offenders += [f"{path.name}: {node.module}.{a.name}" for a in node.names
                                  if a.name.startswith("_") and not a.name.startswith("__")]
    assert offenders == []
