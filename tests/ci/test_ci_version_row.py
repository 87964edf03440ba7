"""A version row: `--impl zarr-python@3.0.10` runs the zarr-python adapter in a venv of its pins with
zarr==3.0.10 instead of the pinned zarr, beside the pinned column, and names the column so."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

OLD = "3.0.10"  # a real older zarr-python 3 release


@pytest.mark.slow
def test_an_older_version_runs_as_its_own_column(tmp_path):
    results = tmp_path / "rows.jsonl"
    script = Path(sys.executable).parent / "zarr-conformance"
    proc = subprocess.run(
        [
            str(script),
            "run",
            "--impl",
            f"zarr-python@{OLD}",
            "--impl",
            "zarr-python",
            "--kinds",
            "read",
            "--cases",
            "v3/fill/*",
            "--results",
            str(results),
        ],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert results.is_file(), proc.stdout[-3000:] + proc.stderr[-3000:]
    records = [json.loads(line) for line in results.read_text().splitlines()]
    rows = {}
    for r in records:
        rows.setdefault(r["impl"], []).append(r)
    assert set(rows) == {f"zarr-python@{OLD}", "zarr-python"}
    old = rows[f"zarr-python@{OLD}"]
    assert all(r["versions"][f"zarr-python@{OLD}"]["zarr"] == OLD for r in old if r["versions"])
    assert all(
        r["versions"]["zarr-python"]["zarr"] != OLD for r in rows["zarr-python"] if r["versions"]
    )
    # the same cases, except the store kinds a row leaves out (variants.STORE_PACKAGES: icechunk)
    pinned = [r for r in rows["zarr-python"] if r["store"]["kind"] != "icechunk"]
    assert len(old) == len(pinned) and not any(r["store"]["kind"] == "icechunk" for r in old)
    meta = json.loads((tmp_path / "rows.meta.json").read_text())
    assert meta["adapters"][f"zarr-python@{OLD}"]["env"] == "version"
    assert meta["adapters"][f"zarr-python@{OLD}"]["version"] == OLD
    assert f"zarr-python@{OLD}" in proc.stdout  # the summary table has the row
