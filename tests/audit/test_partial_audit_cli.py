"""``bcdp partial audit FILE.json``: file parsing, errors, and every reported parameter against a
brute force written here from the definitions (Defs. 1, 4, 5 of the partial DP paper), in Fractions."""

from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction

import pytest
from bcdp.cli import main
from bcdp.core.numbers import INFINITY
from bcdp.core.parameters import LogRatioParameter
from hypothesis import given, settings
from hypothesis import strategies as st

INF = float("inf")


# ------------------------------------------------------------------ independent brute force

def ratio(p: Fraction, q: Fraction):
    """sup ratio contribution of one output: None for 0/0, inf for p > 0 = q."""
    if p == 0 and q == 0:
        return None
    if q == 0:
        return INF
    return p / q


def max_ratio(row_a, row_b):
    best = None
    for p, q in zip(row_a, row_b):
        for r in (ratio(p, q), ratio(q, p)):
            if r is not None and (best is None or r > best):
                best = r
    return best


def brute(datasets, rows, d):
    """(per-attribute max ratio, whole-record max ratio, {unordered record pair: max ratio})."""
    per_attr, whole, profile = Fraction(1), Fraction(1), {}
    for a, b in itertools.combinations(range(len(datasets)), 2):
        x, y = datasets[a], datasets[b]
        diff = [i for i in range(len(x)) if x[i] != y[i]]
        if len(diff) != 1:
            continue
        r = max_ratio(rows[a], rows[b])
        if r is None:
            continue
        i = diff[0]
        whole = max(whole, r)
        if sum(u != v for u, v in zip(x[i], y[i])) == 1:
            per_attr = max(per_attr, r)
        key = tuple(sorted((x[i], y[i]), key=repr))
        profile[key] = max(profile.get(key, Fraction(1)), r)
    return per_attr, whole, profile


def exact_str(r) -> str:
    return str(LogRatioParameter(INFINITY if r == INF else Fraction(r)).exact)


# ------------------------------------------------------------------ fixtures / helpers

def write(tmp_path, doc, name="m.json"):
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return str(path)


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def random_doc(rng: random.Random, n: int, sizes: list[int], m: int, zero_prob: float, subset: bool):
    attrs = [list(range(s)) for s in sizes]
    records = list(itertools.product(*attrs))
    datasets = [list(map(list, ds)) for ds in itertools.product(records, repeat=n)]
    if subset:
        rng.shuffle(datasets)
        datasets = datasets[:max(2, len(datasets) // 2)]
    kernel = []
    for _ in datasets:
        w = [0 if rng.random() < zero_prob else rng.randint(1, 6) for _ in range(m)]
        if sum(w) == 0:
            w[rng.randrange(m)] = 1
        kernel.append([str(Fraction(v, sum(w))) for v in w])
    return {"n": n, "attributes": attrs, "datasets": datasets, "outputs": list(range(m)), "kernel": kernel}


def as_tuples(datasets):
    return [tuple(tuple(r) for r in ds) for ds in datasets]


# ------------------------------------------------------------------ tests

def test_product_randomized_response_values(tmp_path, capsys):
    """Two independent RR bits with keep prob. 3/4: eps0 = log 3 per attribute, log 9 for the record
    (Prop. 8 tight), by hand."""
    doc = {"n": 1, "datasets": [[[0, 0]], [[0, 1]], [[1, 0]], [[1, 1]]], "outputs": ["00", "01", "10", "11"],
           "kernel": [["9/16", "3/16", "3/16", "1/16"], ["3/16", "9/16", "1/16", "3/16"],
                      ["3/16", "1/16", "9/16", "3/16"], ["1/16", "3/16", "3/16", "9/16"]]}
    code, out, _ = run(capsys, "partial", "audit", write(tmp_path, doc), "--json")
    assert code == 0
    rep = json.loads(out)
    assert rep["per_attribute_epsilon"]["exact"] == "log(3)"
    assert rep["whole_record_epsilon"]["exact"] == "log(9)"
    assert rep["prop8_bound"] == {"exact": "log(9)", "float": pytest.approx(2 * 1.0986122886681098),
                                  "holds": True, "applies": True}
    assert rep["full_domain"] and rep["per_attribute_epsilon"]["hamming_scaled_holds"]
    assert {(tuple(e["record"]), tuple(e["record_prime"])): e["exact"] for e in rep["nabla_profile"]} == {
        ((0, 0), (0, 1)): "log(3)", ((0, 0), (1, 0)): "log(3)", ((0, 0), (1, 1)): "log(9)",
        ((0, 1), (1, 0)): "log(9)", ((0, 1), (1, 1)): "log(3)", ((1, 0), (1, 1)): "log(3)"}
    code, text, _ = run(capsys, "partial", "audit", write(tmp_path, doc))
    assert code == 0 and "per-attribute eps0" in text and "log(9)" in text


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(1, 2), sizes=st.sampled_from([[2], [2, 2], [3, 2], [2, 2, 2]]),
       m=st.integers(2, 4), zero_prob=st.sampled_from([0.0, 0.3]), subset=st.booleans())
def test_report_matches_brute_force(tmp_path_factory, seed, n, sizes, m, zero_prob, subset):
    if n == 2 and len(sizes) == 3:
        sizes = [2, 2]
    doc = random_doc(random.Random(seed), n, sizes, m, zero_prob, subset)
    path = write(tmp_path_factory.mktemp("pa"), doc)
    from bcdp.audit.partial import load_partial_audit_file, partial_audit_report
    rep = partial_audit_report(load_partial_audit_file(path))
    rows = [[Fraction(v) for v in row] for row in doc["kernel"]]
    per_attr, whole, profile = brute(as_tuples(doc["datasets"]), rows, len(sizes))
    assert rep["per_attribute_epsilon"]["exact"] == exact_str(per_attr)
    assert rep["whole_record_epsilon"]["exact"] == exact_str(whole)
    got = {tuple(sorted((tuple(e["record"]), tuple(e["record_prime"])), key=repr)): e["exact"]
           for e in rep["nabla_profile"]}
    assert got == {k: exact_str(v) for k, v in profile.items()}
    total = 1
    for size in sizes:
        total *= size
    full = len(doc["datasets"]) == total ** n
    assert rep["full_domain"] == full
    if full:  # Prop. 8 on the full domain
        assert rep["prop8_bound"]["holds"] and rep["per_attribute_epsilon"]["hamming_scaled_holds"]


def test_decimals_are_exact_and_subset(tmp_path, capsys):
    doc = {"n": 1, "attributes": [[0, 1, 2]], "datasets": [[[0]], [[2]]], "outputs": ["a", "b", "c"],
           "kernel": [[0.1, 0.2, 0.7], [0.2, 0.2, 0.6]]}
    code, out, _ = run(capsys, "partial", "audit", write(tmp_path, doc), "--json")
    assert code == 0
    rep = json.loads(out)
    assert rep["per_attribute_epsilon"]["exact"] == "log(2)"      # 0.2/0.1 exactly
    assert not rep["full_domain"] and rep["datasets"] == 2


def test_zero_probability_gives_infinity(tmp_path, capsys):
    doc = {"n": 1, "datasets": [[[0]], [[1]]], "outputs": [0, 1], "kernel": [[1, 0], ["1/2", "1/2"]]}
    code, out, _ = run(capsys, "partial", "audit", write(tmp_path, doc), "--json")
    rep = json.loads(out)
    assert code == 0 and rep["per_attribute_epsilon"]["exact"] == "oo"
    assert rep["per_attribute_epsilon"]["float"] == "inf" and rep["prop8_bound"]["float"] == "inf"


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d.pop("kernel"), "missing key 'kernel'"),
    (lambda d: d.update(extra=1), "unknown keys"),
    (lambda d: d.update(n=0), "'n' must be a positive integer"),
    (lambda d: d.update(n=1.5), "'n' must be a positive integer"),
    (lambda d: d["kernel"].__setitem__(1, ["1/2", "1/3"]), "sums to 5/6, not 1"),
    (lambda d: d["kernel"].__setitem__(1, ["3/2", "-1/2"]), "is negative"),
    (lambda d: d["kernel"].__setitem__(1, ["1/2", None]), "is not a number"),
    (lambda d: d["kernel"].pop(), "'kernel' has 1 rows but there are 2 datasets"),
    (lambda d: d["datasets"].__setitem__(1, [[0, 1], [1, 1]]), "must be a list of n = 1 records"),
    (lambda d: d["datasets"].__setitem__(1, [[0]]), "records have 1 attributes"),
    (lambda d: d["datasets"].__setitem__(1, [[0, 0]]), "repeats datasets[0]"),
    (lambda d: d.update(attributes=[[0], [0, 1]]), "is not in attributes[0]"),
    (lambda d: d.update(outputs=[0, 0]), "lists a value twice"),
])
def test_bad_files_exit_2_with_a_message(tmp_path, capsys, mutate, message):
    doc = {"n": 1, "datasets": [[[0, 0]], [[1, 0]]], "outputs": [0, 1], "kernel": [["1/2", "1/2"], ["1/3", "2/3"]]}
    mutate(doc)
    code, out, err = run(capsys, "partial", "audit", write(tmp_path, doc))
    assert code == 2 and out == ""
    assert message in err


def test_unreadable_and_invalid_json(tmp_path, capsys):
    code, _, err = run(capsys, "partial", "audit", str(tmp_path / "missing.json"))
    assert code == 2 and "cannot read" in err
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    code, _, err = run(capsys, "partial", "audit", str(bad))
    assert code == 2 and "not valid JSON" in err


def test_documented_example_file(capsys):
    """The example shipped in docs/examples/ runs and matches the brute force."""
    from pathlib import Path
    path = Path(__file__).resolve().parents[2] / "docs" / "examples" / "partial_audit_two_records.json"
    doc = json.loads(path.read_text())
    code, out, _ = run(capsys, "partial", "audit", str(path), "--json")
    assert code == 0
    rep = json.loads(out)
    rows = [[Fraction(v) for v in row] for row in doc["kernel"]]
    per_attr, whole, _ = brute(as_tuples(doc["datasets"]), rows, 2)
    assert rep["per_attribute_epsilon"]["exact"] == exact_str(per_attr)
    assert rep["whole_record_epsilon"]["exact"] == exact_str(whole)


def test_concentrated_product_randomized_response(tmp_path, capsys):
    """--concentrated on two independent RR bits (e^eps = 3): D* of one RR bit is its KL,
    eps tanh(eps/2) (Bun and Steinke 2016), and D* adds over independent coordinates, so
    eps0 = sqrt(2 eps tanh(eps/2)) and rho = 2 eps tanh(eps/2); closed forms in mpmath at 50 digits."""
    import mpmath
    doc = {"n": 1, "datasets": [[[0, 0]], [[0, 1]], [[1, 0]], [[1, 1]]], "outputs": ["00", "01", "10", "11"],
           "kernel": [["9/16", "3/16", "3/16", "1/16"], ["3/16", "9/16", "1/16", "3/16"],
                      ["3/16", "1/16", "9/16", "3/16"], ["1/16", "3/16", "3/16", "9/16"]]}
    code, out, _ = run(capsys, "partial", "audit", write(tmp_path, doc), "--json", "--concentrated")
    assert code == 0
    c = json.loads(out)["concentrated"]
    with mpmath.workdps(50):
        eps = mpmath.log(3)
        kl = eps * mpmath.tanh(eps / 2)
        for key, expected in (("per_attribute_epsilon0", mpmath.sqrt(2 * kl)), ("whole_record_rho", 2 * kl)):
            lo, hi = mpmath.mpf(c[key]["lower"]), mpmath.mpf(c[key]["upper"])
            assert lo <= expected <= hi           # the printed decimals are rounded outward
            assert hi - lo <= mpmath.mpf("1e-18") * expected
    assert c["prop8_holds"] is True and c["applies"] is True
    assert c["whole_record_rho"]["witness"]["hamming"] == 2
    code, text, _ = run(capsys, "partial", "audit", write(tmp_path, doc), "--concentrated")
    assert code == 0 and "rho of zCDP (Def. 3)" in text and "eps0 of nabla0-CDP (Def. 6)" in text


def test_concentrated_infinite_when_supports_differ(tmp_path, capsys):
    doc = {"n": 1, "datasets": [[[0]], [[1]]], "outputs": [0, 1], "kernel": [[1, 0], ["1/2", "1/2"]]}
    code, out, _ = run(capsys, "partial", "audit", write(tmp_path, doc), "--json", "--concentrated")
    c = json.loads(out)["concentrated"]
    assert code == 0 and c["per_attribute_epsilon0"]["upper"] == "inf" and c["whole_record_rho"]["lower"] == "inf"
    assert c["prop8_rho_bound_upper"] == "inf"


# ------------------------------------------------------------------ listed datasets of a huge product

def _n30_document(seed: int, d: int = 2, n: int = 30, m: int = 3):
    """A few datasets of n = 30 records of d bits (the product has 2^(n d) datasets): a base, every
    single-attribute flip of records 0-2, a two-attribute change of record 3, a change of two
    records, and one unrelated dataset; random exact rows (zeros included)."""
    rng = random.Random(seed)
    base = [[rng.randint(0, 1) for _ in range(d)] for _ in range(n)]

    def changed(cells):
        ds = [list(r) for r in base]
        for i, j in cells:
            ds[i][j] = 1 - ds[i][j]
        return ds

    datasets = [base] + [changed([(i, j)]) for i in range(3) for j in range(d)]
    datasets += [changed([(3, j) for j in range(d)]), changed([(4, 0), (5, 0)]), changed([(0, 0), (3, 0), (7, 1)])]
    kernel = []
    for _ in datasets:
        w = [0 if rng.random() < 0.2 else rng.randint(1, 9) for _ in range(m)]
        w[rng.randrange(m)] += 1
        kernel.append([str(Fraction(v, sum(w))) for v in w])
    return {"n": n, "attributes": [[0, 1]] * d, "datasets": datasets, "outputs": list(range(m)), "kernel": kernel}


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("listed_attributes", [True, False])
def test_n30_listed_datasets_are_computed_not_refused(tmp_path, capsys, seed, listed_attributes):
    """Issue 12: a file listing a few datasets of n = 30 records used to be refused because the audit
    enumerated all 2^60 datasets of the product.  The mechanism now lives on the listed datasets
    alone; every reported value matches the brute force over pairs of listed datasets written above
    (Defs. 1, 4, 5 of the partial DP paper, in Fractions), and it is fast."""
    import time

    doc = _n30_document(seed)
    if not listed_attributes:
        doc.pop("attributes")
    path = write(tmp_path, doc)
    start = time.perf_counter()
    code, out, err = run(capsys, "partial", "audit", path, "--json")
    assert code == 0, err
    assert time.perf_counter() - start < 10
    rep = json.loads(out)
    rows = [[Fraction(v) for v in row] for row in doc["kernel"]]
    per_attr, whole, profile = brute(as_tuples(doc["datasets"]), rows, 2)
    assert per_attr != 1 and len(profile) >= 4      # not vacuous: the listed pairs constrain eps0
    assert rep["per_attribute_epsilon"]["exact"] == exact_str(per_attr)
    assert rep["whole_record_epsilon"]["exact"] == exact_str(whole)
    got = {tuple(sorted((tuple(e["record"]), tuple(e["record_prime"])), key=repr)): e["exact"]
           for e in rep["nabla_profile"]}
    assert got == {k: exact_str(v) for k, v in profile.items()}
    assert rep["n"] == 30 and rep["d"] == 2 and rep["datasets"] == len(doc["datasets"])
    assert rep["full_domain"] is False and rep["prop8_bound"]["applies"] is False
    # per (record, attribute): only records 0-2 have single-attribute neighbours among the listed
    for i, row in enumerate(rep["per_record_attribute"]):
        for j, v in enumerate(row):
            pairs = [(a, b) for a, b in itertools.combinations(range(len(doc["datasets"])), 2)
                     if _only_cell_differs(doc["datasets"][a], doc["datasets"][b], i, j)]
            rs = [r for r in (max_ratio(rows[a], rows[b]) for a, b in pairs) if r is not None]
            assert v["exact"] == exact_str(max(rs, default=Fraction(1))), (i, j)


def _only_cell_differs(x, y, i, j) -> bool:
    cells = [(a, b) for a in range(len(x)) for b in range(len(x[a])) if x[a][b] != y[a][b]]
    return cells == [(i, j)]


def test_n30_the_domain_is_the_listed_datasets():
    """The parsed mechanism holds one row per listed dataset, not 2^30 (PointSubset), in file order."""
    from bcdp.audit.partial import parse_partial_audit_document
    from bcdp.core.spaces import PointSubset

    doc = {"n": 30, "datasets": [[[0]] * 30, [[1]] + [[0]] * 29], "outputs": [0, 1],
           "kernel": [["1/2", "1/2"], ["1/3", "2/3"]]}
    audit = parse_partial_audit_document(doc)
    dom = audit.mechanism.domain
    assert isinstance(dom, PointSubset) and dom.size == 2 and dom.product_size == 2 ** 30
    assert dom.points == ((0,) * 30, (1,) + (0,) * 29) and not audit.full_domain
    assert audit.mechanism.kernel == ((Fraction(1, 2), Fraction(1, 2)), (Fraction(1, 3), Fraction(2, 3)))


def test_n30_concentrated_randomized_response(tmp_path, capsys):
    """--concentrated at n = 30: two datasets differing in one bit of record 0, rows of binary RR
    with e^eps = 3; D* = KL = eps tanh(eps/2) (Bun and Steinke 2016), so eps0 = sqrt(2 D*) and
    rho = D* (mpmath at 50 digits, from the closed form)."""
    import mpmath

    doc = {"n": 30, "datasets": [[[0, 1]] * 30, [[1, 1]] + [[0, 1]] * 29], "outputs": [0, 1],
           "kernel": [["3/4", "1/4"], ["1/4", "3/4"]]}
    code, out, err = run(capsys, "partial", "audit", write(tmp_path, doc), "--json", "--concentrated")
    assert code == 0, err
    c = json.loads(out)["concentrated"]
    with mpmath.workdps(50):
        eps = mpmath.log(3)
        kl = eps * mpmath.tanh(eps / 2)
        for key, expected in (("per_attribute_epsilon0", mpmath.sqrt(2 * kl)), ("whole_record_rho", kl)):
            lo, hi = mpmath.mpf(c[key]["lower"]), mpmath.mpf(c[key]["upper"])
            assert lo <= expected <= hi and hi - lo <= mpmath.mpf("1e-18") * expected
    assert c["applies"] is False and c["whole_record_rho"]["witness"]["record"] == 0


def test_full_domain_listed_in_any_order_is_the_product(tmp_path, capsys):
    """Listing every dataset (n = 2 records of one bit, shuffled) is the full domain: Prop. 8 applies
    and the values match the brute force."""
    datasets = [[[a], [b]] for a in (0, 1) for b in (0, 1)]
    random.Random(5).shuffle(datasets)
    kernel = [["1/2", "1/2"], ["1/5", "4/5"], ["2/3", "1/3"], ["1/4", "3/4"]]
    doc = {"n": 2, "datasets": datasets, "outputs": ["a", "b"], "kernel": kernel}
    code, out, _ = run(capsys, "partial", "audit", write(tmp_path, doc), "--json")
    rep = json.loads(out)
    per_attr, whole, _ = brute(as_tuples(datasets), [[Fraction(v) for v in r] for r in kernel], 1)
    assert code == 0 and rep["full_domain"] is True and rep["prop8_bound"]["applies"] is True
    assert rep["per_attribute_epsilon"]["exact"] == exact_str(per_attr)
    assert rep["whole_record_epsilon"]["exact"] == exact_str(whole)
