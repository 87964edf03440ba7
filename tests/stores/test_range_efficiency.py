"""conformance.bench.ranges: the bytes a reader fetches over HTTP for one inner chunk of a
sharded array, from the server's own log, against the bytes that read needs."""

from __future__ import annotations

from conformance.bench.ranges import measure


def test_the_reference_reads_one_inner_chunk_with_ranges():
    report = measure(["reference"])
    sizes, result = report["sizes"], report["adapters"]["reference"]
    assert result["status"] == "measured", result
    assert sizes["needed"] == sizes["metadata"] + sizes["index"] + sizes["chunk"]
    assert sizes["shard"] > 5 * sizes["needed"]  # reading the whole shard would show
    assert result["bytes_fetched"] >= result["bytes_needed"]  # it cannot read less than needed
    assert result["ratio"] < 2, result  # ranged: the index and one chunk, not the shard
    assert result["ranged_requests"] >= 2
