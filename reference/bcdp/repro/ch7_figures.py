"""The thesis Ch. 7 tables and figures in one call (``bcdp tables randomness``; re-run by ``bcdp reproduce``).

Each writer lives next to the section it regenerates (module, function; resolved at call time):
Table 7.1 (:mod:`bcdp.repro.ch7_table71`), Fig 7.3 (:mod:`bcdp.repro.ch7_storage_figure`), Fig 7.4
(:mod:`bcdp.repro.ch7_p1_figure`), Figs 7.7-7.8 (:mod:`bcdp.repro.ch7_hr_figures`, seeded Monte Carlo) and
Figs 7.9-7.10 (:mod:`bcdp.repro.ch7_multilevel_figures`).
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

#: (module, function) of every Ch. 7 writer; each returns the paths it wrote
CH7_WRITERS = (
    ("bcdp.repro.ch7_table71", "write_table71"),
    ("bcdp.repro.ch7_storage_figure", "write_storage_figure"),
    ("bcdp.repro.ch7_p1_figure", "write_p1_figure"),
    ("bcdp.repro.ch7_hr_figures", "write_hr_figures"),
    ("bcdp.repro.ch7_multilevel_figures", "write_multilevel_figures"),
)


def write_ch7_figures(out_dir: Any) -> list[Path]:
    """Write every Ch. 7 golden file of :data:`CH7_WRITERS` into ``out_dir``; the paths written."""
    paths: list[Path] = []
    for module, function in CH7_WRITERS:
        paths.extend(getattr(importlib.import_module(module), function)(Path(out_dir)))
    return paths
