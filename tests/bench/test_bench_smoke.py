"""`zarr-conformance bench` end to end in quick mode (8 MiB, 2 repetitions) through real adapter
processes, and its guard: an implementation that returns or writes wrong data is reported as
wrong-data, never as a speed. The figures themselves are not tested (their statistics are, in
test_stats.py)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from conformance.bench.html import bench_fragment, markdown_table
from conformance.bench.runner import (
    Bench,
    Options,
    bench_request,
    check_written,
    classify_error,
    codec_names,
    gating,
    plan,
    write_node,
)
from conformance.bench.workloads import CODECS, OPERATIONS, STORES, Geometry, array_document
from conformance.cli import main
from conformance.harness.config import find_adapter
from conformance.harness.schemas import problems

ALTERED = Path(__file__).parent / "fakes" / "altered-data"


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    """The quick bench of the reference and zarr-python (all codecs, stores and operations)."""
    out = tmp_path_factory.mktemp("bench") / "bench.json"
    code = main(
        [
            "bench",
            "--size",
            "8",
            "--repeat",
            "2",
            "--impl",
            "reference",
            "--impl",
            "zarr-python",
            "--validate-size",
            "16",
            "--out",
            str(out),
        ]
    )
    return code, json.loads(out.read_text()), out


@pytest.mark.slow
def test_quick_bench_verifies_every_read_and_write(quick):
    code, report, _ = quick
    assert code == 0 and report["ok"]
    results = {(r["impl"], r["codec"], r["store"], r["operation"]): r for r in report["results"]}
    for impl in ("reference", "zarr-python"):
        for key in [(impl, c, s, o) for c in CODECS for s in STORES for o in OPERATIONS]:
            entry = results[key]
            assert entry["status"] == "ok", (key, entry.get("reason"))
            assert entry["runs"] == 2 and len(entry["runs_s"]) == 2
            rate = entry["mb_s"]
            assert 0 < rate["min"] <= rate["median"] <= rate["max"]
            assert rate["ci"] == [rate["min"], rate["max"]] and rate["ci_level"] == 0.5  # n = 2
            # CPU time: reported by the adapter for the operation alone
            assert len(entry["cpu_runs_s"]) == 2 and entry["cpu_s"]["median"] >= 0
            assert entry["rank"]["wall"] >= 1 and "cpu" in entry["within_noise_of"]
            assert (
                entry["limit_mb_s"] > 0
                and entry["ratio_to_limit"]["median"] > 0
                and entry["limit_basis"]
            )
            if key[3] == "write":
                assert entry["stored_bytes"] > 0 and entry["compression_ratio"] > 0
    # compression really happened where asked for
    assert (
        results[("zarr-python", "zstd", "directory", "write")]["stored_bytes"]
        < results[("zarr-python", "none", "directory", "write")]["stored_bytes"]
    )


@pytest.mark.slow
def test_quick_bench_report_structure(quick):
    _, report, out = quick
    assert report["schema"] == "zarr-conformance-bench/2"
    assert (
        report["workload"]["shape"] == [1024, 2048] and report["workload"]["chunk_bytes"] == 2**20
    )
    assert report["workload"]["random_chunks"] == 1
    machine = report["machine"]
    assert machine["cores"] and machine["packages"]["numpy"] and machine["filesystem"]["type"]
    assert machine["load"][0]["at"] == "start" and "load_1min" in machine["load"][0]
    ranking = report["rankings"][0]
    assert ranking["metric"] in ("wall", "cpu") and ranking["order"][0]["rank"] == 1
    validate = report["validate"]
    assert validate["size_mib"] == 16
    assert [(r["codec"], r["store"]) for r in validate["rows"]] == [
        *((c, "directory") for c in CODECS),
        ("zstd", "http"),
    ]
    for row in validate["rows"]:
        assert row["status"] == "ok", row
        assert row["reader"] in ("reference", "zarr-python") and row["ratio_wall"] > 0
        assert row["validate"]["peak_rss_mib"] > 0 and row["ratio_cpu"] > 0
    limits = report["limits"]
    assert (
        limits["memcpy"]["runs"] == 2
        and limits["file_write"]["median"] > 0
        and limits["file_read"]["median"] > 0
    )
    assert (
        limits["codecs"]["zstd"]["encode"]["median"] > 0
        and limits["codecs"]["zstd"]["stored_bytes"] > 0
    )
    zp = report["implementations"]["zarr-python"]
    assert zp["format"] == "v3" and zp["versions"]["zarr"]
    assert "async.concurrency" in zp["settings"]["directory"]
    assert report["implementations"]["reference"]["settings"]["memory"]["store"] == "MemoryStore"
    for store in STORES:
        svg = out.parent / f"bench-{store}.svg"
        assert svg.is_file() and "<svg" in svg.read_text()
    assert out.with_suffix(".md").is_file()
    fragment = bench_fragment(report)
    assert fragment.startswith('<section id="bench">') and fragment.count("<svg") == 2
    assert "zarr-python" in fragment and "× limit" in fragment and "MB stored" in fragment
    assert "/cpu-s" in fragment and "validate (16 MiB stores)" in fragment


def test_altered_data_is_flagged_never_timed(tmp_path):
    out = tmp_path / "bench.json"
    code = main(
        [
            "bench",
            "--size",
            "8",
            "--repeat",
            "1",
            "--impl",
            "reference",
            "--impl",
            str(ALTERED),
            "--codec",
            "zstd",
            "--validate-size",
            "0",
            "--out",
            str(out),
            "--no-plots",
        ]
    )
    report = json.loads(out.read_text())
    assert code == 1 and not report["ok"]
    altered = [r for r in report["results"] if r["impl"] == "altered-data"]
    assert len(altered) == len(STORES) * len(OPERATIONS)
    for entry in altered:
        assert entry["status"] == "wrong-data", entry
        assert "mb_s" not in entry and "seconds" not in entry
        assert "values differ" in entry["reason"]
    assert all(r["status"] == "ok" for r in report["results"] if r["impl"] == "reference")
    assert "WRONG DATA" in bench_fragment(report) and "WRONG DATA" in markdown_table(report)


def test_requests_follow_the_schema(tmp_path):
    geometry = Geometry.for_size(8)
    for fmt, codec in [("v3", c) for c in CODECS] + [("v2", "zstd")]:
        for store in STORES:
            for operation in OPERATIONS:
                request = bench_request(
                    geometry,
                    fmt,
                    codec,
                    store,
                    operation,
                    data=tmp_path / "in.npy",
                    source=tmp_path / "canonical",
                    written=tmp_path / "w",
                    output=tmp_path / "out.npy",
                )
                assert problems("request", {"id": 1, "op": "bench", **request}) == []


def test_geometry():
    assert Geometry.for_size(256).shape == (8192, 8192) and Geometry.for_size(256).shard_shape == (
        2048,
        2048,
    )
    small = Geometry.for_size(8)
    assert small.nbytes == 8 * 2**20 and small.shard_shape == (1024, 2048)
    assert len(Geometry.for_size(256).random_regions()) == 3  # 1% of 256 chunks, rounded up
    assert small.random_regions() == small.random_regions()  # fixed seed


def test_a_write_that_drops_the_compressor_is_wrong(tmp_path):
    from conformance.reference import DirectoryStore, get_format

    geometry = Geometry.for_size(1)
    data = np.arange(512 * 512, dtype="<f4").reshape(512, 512)
    asked = array_document("v3", "zstd", geometry)
    store = DirectoryStore(tmp_path)
    get_format("v3").create_array(store, "", array_document("v3", "none", geometry), {}).write(
        None, data
    )
    store.close()
    exact, message, stored = check_written(tmp_path, "v3", asked, data)
    assert not exact and "stored codecs" in message and stored > 0
    assert codec_names("v3", asked) == ["bytes", "zstd"]


def test_declared_refusals_are_not_applicable_others_errored():
    config = find_adapter("zarrita-js")
    refused = {
        "ok": False,
        "error": {"type": "UnsupportedError", "message": "Unsupported: set on sharded arrays"},
    }
    assert classify_error(config, refused)[0] == "not-applicable"
    crashed = {"ok": False, "error": {"type": "TypeError", "message": "x is undefined"}}
    assert classify_error(config, crashed)[0] == "errored"


def test_plan_runs_declared_workloads_probes_undeclared_codecs():
    reference, zarr_js = find_adapter("reference"), find_adapter("zarr-js")
    assert plan(reference, "v3", "sharded-zstd", "read") == ("run", "")
    # zarr.js declares no zstd: probed, so that its own refusal (or failure) is recorded
    assert plan(zarr_js, "v2", "zstd", "read") == ("probe", "codec:zstd")
    how, why = plan(zarr_js, "v2", "sharded-zstd", "read")
    assert how == "not-applicable" and "format v2 has no sharding" in why
    how, why = plan(find_adapter("acquire-zarr"), "v3", "sharded-blosc-zstd", "read")
    assert how == "not-applicable" and "no op:read" in why
    # GDAL and NCZarr always write a root group: their array goes below it
    assert write_node(find_adapter("gdal-debian")) == "bench" and write_node(reference) == ""


def test_a_slow_workload_stops_at_the_minimum_repetitions():
    bench = Bench(Options(repeat=5, workload_budget_s=60.0))
    key = ("slow", "gzip", "directory", "write")
    for seconds in (30.0, 30.0):
        bench.record(key, {"status": "ok", "seconds": seconds})
        assert not bench.settled(key)  # fewer than MIN_REPEAT runs: never settled by time
    bench.record(key, {"status": "ok", "seconds": 30.0})
    assert bench.settled(key)
    fast = ("fast", "gzip", "directory", "write")
    for _ in range(4):
        bench.record(fast, {"status": "ok", "seconds": 0.5})
    assert not bench.settled(fast)
    refused = ("x", "gzip", "memory", "read")
    bench.record(refused, {"status": "not-applicable", "reason": "no memory store"})
    assert bench.settled(refused)
    probe = ("y", "zstd", "directory", "read")
    bench.record(probe, {"status": "wrong-data", "probe": "codec:zstd", "reason": "..."})
    assert bench.settled(probe) and not gating({"status": "wrong-data", "undeclared": "codec:zstd"})
    assert gating({"status": "wrong-data"})
