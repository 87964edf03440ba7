"""The version sweep (conformance/report/sweep.py): columns of one implementation at several
versions, grouped by the package their adapter drives, ordered by release, with the cases that
changed between consecutive versions; rendered into README.md and each version's page."""

from __future__ import annotations

import json
import re

from conformance.report import sweep
from conformance.report.publish import publish


def record(impl: str, case: str, outcome: str, tier: str = "required") -> dict:
    return {
        "test": "read",
        "case": case,
        "impl": impl,
        "writer": None,
        "reader": None,
        "outcome": outcome,
        "message": "",
        "tier": tier,
        "format": "v3",
        "requirements": [],
        "store": {"kind": "directory"},
    }


# zarr-python pins zarr 3.4.x; the version rows run 3.0.10 and 3.0.9 (given out of order);
# zarr-python2 drives the same pip package at 2.18.x; tensorstore drives another one.
RECORDS = [
    record("zarr-python", "v3/a", "passed"),
    record("zarr-python", "v3/b", "passed"),
    record("zarr-python", "v3/c", "known-failure", "strict"),
    record("zarr-python@3.0.10", "v3/a", "wrong-data"),
    record("zarr-python@3.0.10", "v3/b", "passed"),
    record("zarr-python@3.0.10", "v3/c", "failed", "strict"),
    record("zarr-python@3.0.9", "v3/a", "wrong-data"),
    record("zarr-python@3.0.9", "v3/b", "errored"),
    record("zarr-python2", "v3/a", "unsupported"),
    record("tensorstore", "v3/a", "passed"),
]


def test_columns_grouped_by_package_in_release_order():
    (package, cols), *others = sweep.sweeps(RECORDS).items()
    assert package == "pip:zarr" and not others  # tensorstore runs at one version only
    assert [c.name for c in cols][:3] == ["zarr-python2", "zarr-python@3.0.9", "zarr-python@3.0.10"]
    assert cols[-1].name == "zarr-python" and cols[-1].version.startswith("3.4.")
    assert sweep.version_key("3.0.10") > sweep.version_key("3.0.9")


def test_changes_between_consecutive_versions():
    assert sweep.changes(RECORDS, "zarr-python@3.0.9", "zarr-python@3.0.10") == [
        ("read", "v3/b", "errored", "passed"),
        ("read", "v3/c", "absent", "failed"),
    ]
    assert sweep.changes(RECORDS, "zarr-python@3.0.10", "zarr-python") == [
        ("read", "v3/a", "wrong-data", "passed"),
        ("read", "v3/c", "failed", "known-failure"),
    ]


def test_rendered_into_the_report(tmp_path):
    results = tmp_path / "results.jsonl"
    results.write_text("".join(json.dumps(r) + "\n" for r in RECORDS))
    (tmp_path / "fixtures").mkdir()
    publish(results, tmp_path / "out", tmp_path / "fixtures")
    readme = (tmp_path / "out" / "README.md").read_text()
    assert "## Version sweep" in readme
    assert "- `v3/a` (read): wrong-data → passed" in readme
    page = (tmp_path / "out" / "impl" / "zarr-python@3.0.10.html").read_text()
    assert 'id="versions"' in page and "3.0.9 → 3.0.10: 2 case(s) changed" in page
    # every version of the package, in release order, zarr-python2 (pip zarr 2.x) included
    versions = re.findall(r'<tr><th scope="row">([^<]+)</th>', page.split('id="versions"', 1)[1])
    assert versions[:4] == sorted(versions[:4], key=sweep.version_key) and len(versions) >= 3


def test_no_sweep_without_a_second_version(tmp_path):
    only_pinned = [r for r in RECORDS if "@" not in r["impl"] and r["impl"] != "zarr-python2"]
    assert sweep.sweeps(only_pinned) == {} and sweep.markdown(only_pinned) == ""
