"""Thesis Ch. 5 figures (bcdp.repro.shuffle_figures): the committed CSVs in tables/ are reproduced, and
sanity relations hold.  Fast subset (< 30 s): Fig 5.2 and Fig 5.6 fully, the RDP and closed-form
columns of Figs 5.3/5.4, and the numerical-clones column at the cheap (n <= 1e5) points."""

import csv
import math
from pathlib import Path

import numpy as np
import pytest
from bcdp.repro import shuffle_figures as sf

TABLES = Path(__file__).resolve().parents[2] / "tables"
RTOL = 1e-9


def _committed(name):
    with open(TABLES / f"{name}.csv") as fh:
        rows = list(csv.reader(fh))
    return rows[0], rows[1:]


def _close(a, b):
    try:
        x, y = float(a), float(b)
    except ValueError:
        return a == b
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    if math.isinf(x) or math.isinf(y):
        return x == y
    return abs(x - y) <= RTOL * max(abs(x), abs(y), 1e-300)


def _fresh_rows(header, rows):
    return [[sf._fmt(v) for v in r] for r in rows]


@pytest.mark.parametrize("name,fn", [("shuffle_fig5_2", sf.fig52_rows), ("shuffle_fig5_6", sf.fig56_rows)])
def test_full_regeneration(name, fn):
    h0, r0 = _committed(name)
    h, r = fn()
    assert h == h0
    fresh = _fresh_rows(h, r)
    assert len(fresh) == len(r0)
    for a, b in zip(fresh, r0):
        assert all(_close(x, y) for x, y in zip(a, b)), (a, b)


def test_fig53_fig54_rdp_and_closed_form_columns():
    _, r3 = _committed("shuffle_fig5_3")
    for row in r3:
        eps0, n = float(row[0]), int(row[1])
        if eps0 not in (0.5, 2.0):
            continue
        vals = [sf.thm531_upper_float(n, eps0, sf.ORDERS), sf.thm532_upper_float(n, eps0, sf.ORDERS),
                sf.efm19_upper_float(n, eps0, sf.ORDERS), sf._exact_pair(n, eps0)]
        for j, v in enumerate(vals):
            assert _close(repr(sf.rdp_eps(v, 1, sf.DELTA_53)[0]), row[2 + j])
        cf = sf.clones_closed_form(eps0, n, sf.DELTA_53, variant="theorem-3.1", outside="inf")
        assert _close(repr(float(cf)), row[6])
        if n <= 10**5:
            assert _close(repr(sf._clones_num_upper(eps0, n, sf.DELTA_53)), row[7])
    _, r4 = _committed("shuffle_fig5_4")
    for row in r4:
        eps0, n, T = float(row[3]), int(row[4]), int(row[5])
        assert _close(repr(sf.rdp_eps(sf.thm531_upper_float(n, eps0, sf.ORDERS), T, sf.DELTA_COMP)[0]), row[6])
        assert _close(repr(sf.baseline_shuffle(eps0, n, T, sf.DELTA_COMP, "theorem-3.1")), row[10])
        if n <= 10**4 and row[0] == "b":
            assert _close(repr(sf.baseline_shuffle(eps0, n, T, sf.DELTA_COMP, "numerical")), row[11])


def test_fig52_upper_ge_exact_ge_lower():
    _, r = _committed("shuffle_fig5_2")
    for row in r:
        u1, u2, ef, lo, ex = (float(x) for x in row[3:8])
        for u in (u1, u2, ef):
            assert u >= ex * (1 - 1e-12), row
        assert ex >= lo * (1 - 1e-12), row


def test_rdp_route_beats_baseline_where_claimed():
    _, r = _committed("shuffle_ratios")
    by = {(row[0], row[4]): row for row in r}
    # Fig 5.4a (8x claim): ours < both baseline variants; Fig 5.6 (14x claim): ours < numerical baseline
    for key in [("8x", "clones numerical + KOV15"), ("8x", "clones theorem-3.1 + KOV15"),
                ("14x", "clones numerical on k + Ull17 subsampling + KOV15")]:
        row = by[key]
        assert float(row[5]) < float(row[6]), row
    # thesis: the baseline wins for T < 10 at eps0 = 2 -- measured at T = 10 with the numerical clones
    assert float(by[("baseline wins (ratio < 1)", "clones numerical + KOV15")][7]) < 1
    # Fig 5.4 large-T points (T >= 1e3, and the n / eps0 panels at T = 1e4): ours <= numerical baseline
    _, r4 = _committed("shuffle_fig5_4")
    for row in r4:
        if int(row[5]) >= 1000:
            assert float(row[6]) <= float(row[11]), row


def test_fig55_panel_a_regenerates_and_2p5x_baseline_is_invalid():
    """Fig 5.5 panel (a) (eps0 = 0.5, n = 1e6) recomputed vs the committed CSV; the 2.5x baseline
    (GDD21e (3.5) + WBK19) is reported as invalid: alpha^4 e^(5 eps0) <= k/9 fails at alpha = 2
    (16 e^10 > 1000/9, independent arithmetic here)."""
    h0, r0 = _committed("shuffle_fig5_5")
    assert h0[:6] == ["panel", "eps0", "n", "gamma", "k", "T"]
    sel = [row for row in r0 if row[0] == "a"]
    c = sf.fig55_curves(0.5, 10**6)
    for row in sel:
        T = int(row[5])
        assert _close(repr(sf.rdp_eps(c["zw19_thm531"], T, sf.DELTA_COMP, sf.FIG55_ORDERS)[0]), row[6])
        assert _close(repr(sf.rdp_eps(c["sound_thm541_poisson"], T, sf.DELTA_COMP, sf.FIG55_ORDERS)[0]), row[9])
    assert 16 * math.exp(10) > 1000 / 9
    _, r = _committed("shuffle_ratios")
    rows = [row for row in r if row[0] == "2.5x"]
    assert any(row[6] == "nan" and "invalid" in row[4] for row in rows)
    assert any(row[0] == "11x" for row in r)
