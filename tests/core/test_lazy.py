"""bcdp.core.lazy: names re-exported on first use, cached, listed, and unknown names refused."""

from __future__ import annotations

import subprocess
import sys

import pytest


def test_lazy_package_loads_its_module_only_on_first_use():
    code = ("import sys, bcdp.accounting as a\n"
            "assert 'bcdp.accounting.curves' not in sys.modules\n"
            "f = a.gaussian_rdp\n"
            "import bcdp.accounting.curves as c\n"
            "assert f is c.gaussian_rdp and 'gaussian_rdp' in vars(a) and 'gaussian_rdp' in dir(a)\n")
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("package", ["bcdp.accounting", "bcdp.shuffle", "bcdp.shuffle.exact",
                                     "bcdp.shuffle.bounds", "bcdp.shuffle.baselines",
                                     "bcdp.bayesian", "bcdp.partial"])
def test_every_listed_name_resolves_and_unknown_names_are_refused(package):
    import importlib

    module = importlib.import_module(package)
    for name in module.__all__:
        assert getattr(module, name) is not None
    with pytest.raises(AttributeError, match=f"module '{package}' has no attribute 'no_such_name'"):
        getattr(module, "no_such_name")
