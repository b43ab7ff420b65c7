"""Thesis Figs 7.9 / 7.10 (bcdp.repro.ch7_multilevel_figures): the committed tables/thesis_fig7_9.csv and
thesis_fig7_10.csv are regenerated into tmp_path (rtol 1e-10), and their rows agree with 50-digit mpmath of
the printed sums (Sec. 7.4: R_trivial = sum H2(e^eps/(e^eps+1)), R_proposed = sum H2(q_j), (7.36))."""

from __future__ import annotations

import csv
from pathlib import Path

import mpmath
from bcdp.repro import ch7_multilevel_figures as mf

TABLES = Path(__file__).resolve().parents[2] / "tables"
RTOL = 1e-10


def _rows(path):
    with open(path) as fh:
        rows = list(csv.reader(fh))
    return rows[0], rows[1:]


def _close(a, b, rtol=RTOL):
    x, y = float(a), float(b)
    return abs(x - y) <= rtol * max(abs(x), abs(y), 1e-300)


def test_write_regenerates_the_committed_csvs(tmp_path):
    paths = mf.write_multilevel_figures(tmp_path)
    assert sorted(p.name for p in paths) == ["thesis_fig7_10.csv", "thesis_fig7_10.png", "thesis_fig7_9.csv",
                                             "thesis_fig7_9.png"]
    for name in ("thesis_fig7_9.csv", "thesis_fig7_10.csv"):
        h0, r0 = _rows(TABLES / name)
        h1, r1 = _rows(tmp_path / name)
        assert h0 == h1 and len(r0) == len(r1)
        for a, b in zip(r0, r1):
            assert all(_close(x, y) for x, y in zip(a, b)), (name, a, b)
    assert (tmp_path / "thesis_fig7_9.png").stat().st_size > 1000


def _printed(eps):
    def h2(p):
        return 0 if p == 0 else -(p * mpmath.log(p) + (1 - p) * mpmath.log(1 - p)) / mpmath.log(2)
    z = [1 / (mpmath.exp(mpmath.mpf(e)) + 1) for e in eps]
    q = [z[0]] + [(z[j] - z[j - 1]) / (1 - 2 * z[j - 1]) if eps[j] != eps[j - 1] else 0 for j in range(1, len(z))]
    return sum(h2(x) for x in z), sum(h2(x) for x in q)


def test_committed_fig79_rows_match_the_printed_sums():
    h, rows = _rows(TABLES / "thesis_fig7_9.csv")
    assert len(rows) == 100 and rows[0][1] == "0.01" and rows[-1][1] == "1"
    with mpmath.workdps(50):
        for r in rows:
            t, p = _printed([mpmath.mpf(r[0]), mpmath.mpf(r[1])])
            assert _close(r[2], t, 1e-11) and _close(r[3], p, 1e-11) and _close(r[4], t / p, 1e-11)
    assert float(rows[-1][4]) == 2.0  # merged equal levels: exactly twice
    assert abs(float(rows[98][4]) - 1.913) < 1e-3  # eps2 = 0.99


def test_committed_fig710_rows_match_the_printed_sums():
    h, rows = _rows(TABLES / "thesis_fig7_10.csv")
    assert [int(r[0]) for r in rows] == list(range(1, 11))
    with mpmath.workdps(50):
        for r in rows:
            d = int(r[0])
            eps = [mpmath.mpf(2)] + [2 - mpmath.mpf(j) / 10 for j in range(2, d + 1)]
            assert _close(r[1], eps[-1], 1e-12)
            t, p = _printed(eps)
            assert _close(r[2], t, 1e-11) and _close(r[3], p, 1e-11)
            assert abs(float(r[4]) - float(t - p)) <= 1e-11 * float(t)
    gaps = [float(r[4]) for r in rows]
    assert gaps[0] == 0 and all(a < b for a, b in zip(gaps, gaps[1:]))
