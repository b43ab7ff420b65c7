"""Lazy re-exports: a package (or a facade module) that offers names defined in its submodules and
imports each submodule on first use, so that importing the package loads no heavy dependency."""

from __future__ import annotations

import sys
from importlib import import_module
from typing import Any, Callable, Iterable, Mapping


def lazy_exports(module_name: str, where: Mapping[str, Iterable[str]]
                 ) -> tuple[Callable[[str], Any], Callable[[], list[str]], list[str]]:
    """``(__getattr__, __dir__, names)`` for the module ``module_name`` re-exporting, for each
    ``module -> names`` entry of ``where`` (absolute module names), those names of that module.

    A name is imported on first access (PEP 562) and cached in the module's globals; ``names`` is the
    sorted list of lazy names, for ``__all__``.
    """
    module_of = {name: module for module, names in where.items() for name in names}

    def __getattr__(name: str) -> Any:
        module = module_of.get(name)
        if module is None:
            raise AttributeError(f"module {module_name!r} has no attribute {name!r}")
        value = getattr(import_module(module), name)
        vars(sys.modules[module_name])[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[module_name])) | set(module_of))

    return __getattr__, __dir__, sorted(module_of)
