"""The committed report (reports/) is what a fresh run of this checkout renders.

`./dev test` records the matrix into results/matrix.jsonl before pytest runs; the counts of that
fresh run must equal the committed reports/results.json for every implementation column the
fresh run has (the published run may have more: version rows, adapters not in the default
matrix). A corpus, adapter or known-failure change without a re-rendered report fails here,
with the commands that fix it."""

import json
from pathlib import Path

import pytest

from conformance.report import matrices as m
from conformance.report.publish import publish

ROOT = Path(__file__).resolve().parents[2]
FRESH = ROOT / "results" / "matrix.jsonl"
PUBLISHED = ROOT / "reports" / "results.json"
HOW_TO_FIX = (
    "re-render the published report from this run: cp results/matrix.jsonl "
    "reports/latest/results.jsonl && cp results/matrix.meta.json reports/latest/results.meta.json "
    "&& zarr-conformance report (or ./dev report), then commit reports/"
)


def counts_of(summary: dict) -> tuple[dict, dict]:
    return summary["implementations"], summary.get("interop", {})


def fresh_counts(records: list[dict], tmp_path: Path) -> tuple[dict, dict]:
    tmp_path.mkdir(parents=True, exist_ok=True)
    publish_into = tmp_path / "report"
    results = tmp_path / "fresh.jsonl"
    results.write_text("".join(json.dumps(r) + "\n" for r in records), "utf-8")
    publish(results, publish_into, ROOT / "fixtures")
    return counts_of(json.loads((publish_into / "results.json").read_text("utf-8")))


def differences(published: dict, fresh: dict, columns: set[str], what: str) -> list[str]:
    out = []
    for name in sorted(fresh):
        if name not in published:
            out.append(f"{what} {name}: in the fresh run, missing from the published report")
        elif published[name] != fresh[name]:
            out.append(f"{what} {name}: published {published[name]} != fresh {fresh[name]}")
    return out


def pair_columns(pairs: dict, columns: set[str]) -> dict:
    return {k: v for k, v in pairs.items() if set(k.split("->")) <= columns}


@pytest.mark.skipif(not FRESH.is_file(), reason="no fresh matrix: `./dev test` records one first")
def test_published_counts_match_the_fresh_matrix(tmp_path):
    records = m.load_records(FRESH)
    columns = {r["impl"] for r in records}
    published_impls, published_interop = counts_of(json.loads(PUBLISHED.read_text("utf-8")))
    fresh_impls, fresh_interop = fresh_counts(records, tmp_path)
    problems = differences(published_impls, fresh_impls, columns, "implementation")
    for fmt in sorted(set(fresh_interop) | set(published_interop)):
        problems += differences(
            pair_columns(published_interop.get(fmt, {}), columns),
            fresh_interop.get(fmt, {}),
            columns,
            f"interop {fmt}",
        )
    assert not problems, "\n".join(problems[:40] + [HOW_TO_FIX])


def test_a_changed_count_is_caught(tmp_path):
    """The comparison above is not vacuous: one record's outcome changed is reported."""
    record = {"test": "read", "case": "v3/x", "impl": "a", "format": "v3", "tier": "required"}
    base = [dict(record, outcome="passed"), dict(record, case="v3/y", outcome="passed")]
    changed = [base[0], dict(base[1], outcome="wrong-data")]
    published, _ = fresh_counts(base, tmp_path / "one")
    fresh, _ = fresh_counts(changed, tmp_path / "two")
    assert differences(published, fresh, {"a"}, "implementation")
    assert not differences(published, published, {"a"}, "implementation")
