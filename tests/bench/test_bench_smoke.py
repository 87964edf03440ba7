"""The benchmark runs end to end and checks what it reads (figures themselves are not tested)."""

from __future__ import annotations

import json

from conformance.cli import main


def test_bench_runs_and_reads_back_exactly(tmp_path):
    out = tmp_path / "bench.json"
    code = main(["bench", "--size-mib", "1", "--chunk-mib", "0.0625", "--repeat", "1", "--out", str(out)])
    report = json.loads(out.read_text())
    assert code == 0
    assert {(r["impl"], r["codec"]) for r in report["results"]} == {
        ("files", "none"), ("reference", "none"), ("zarr-python", "none"), ("reference", "zstd"), ("zarr-python", "zstd")}
    assert all(r["exact"] and r["read_mib_s"] > 0 for r in report["results"])
    assert report["machine"]["cores"] and report["machine"]["packages"]["numpy"]
