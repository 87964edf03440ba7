"""Range-request efficiency: how many bytes an implementation fetches over HTTP to read one inner
chunk of a sharded array, against the bytes that read needs.

    python -m conformance.bench.ranges --impl all --out reports/latest/ranges.json

The reference writes one v3 array (64 x 64 int32, one shard of 8 x 8 inner chunks, bytes + zstd
inside, the index with crc32c at the end); a loopback HTTP server with byte ranges
(conformance.testing.servers) serves it; each adapter declaring `store:http` reads the region
[0:8, 0:8] through its `bench` operation (`regions`). Needed: the metadata document, the shard
index and the one inner chunk's stored bytes. Fetched: the body bytes the server answered (its
request log). A reader that fetches the whole shard shows a ratio near the shard's size over
what is needed; one that reads ranges, a ratio near 1. The data read back is compared bit for bit:
a wrong answer is reported as such, not as a number.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

import numpy as np

SHAPE, INNER = (64, 64), (8, 8)
REGION = [[0, 8], [0, 8]]
INDEX_BYTES = (SHAPE[0] // INNER[0]) * (SHAPE[1] // INNER[1]) * 16 + 4  # offsets+lengths, crc32c


def array_document() -> dict:
    return {
        "zarr_format": 3,
        "node_type": "array",
        "shape": list(SHAPE),
        "data_type": "int32",
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": list(SHAPE)}},
        "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
        "fill_value": 0,
        "codecs": [
            {
                "name": "sharding_indexed",
                "configuration": {
                    "chunk_shape": list(INNER),
                    "codecs": [
                        {"name": "bytes", "configuration": {"endian": "little"}},
                        {"name": "zstd", "configuration": {"level": 1, "checksum": False}},
                    ],
                    "index_codecs": [
                        {"name": "bytes", "configuration": {"endian": "little"}},
                        {"name": "crc32c"},
                    ],
                    "index_location": "end",
                },
            }
        ],
    }


def data() -> np.ndarray:
    # Distinct values that do not compress to nothing: every inner chunk has bytes of its own.
    rng = np.random.default_rng(20261123)
    return rng.integers(-(2**31), 2**31 - 1, size=SHAPE, dtype=np.int32)


def write_store(folder: Path) -> dict:
    """The reference writes the array; the sizes of what a one-chunk read needs."""
    from conformance.reference import DirectoryStore, get_format

    store = DirectoryStore(folder)
    get_format("v3").create_array(store, "", array_document(), {}).write(None, data())
    store.close()
    shard = (folder / "c" / "0" / "0").read_bytes()
    index = np.frombuffer(shard[-INDEX_BYTES:-4], dtype="<u8").reshape(-1, 2)
    metadata = (folder / "zarr.json").stat().st_size
    return {
        "metadata": metadata,
        "index": INDEX_BYTES,
        "chunk": int(index[0][1]),
        "shard": len(shard),
        "needed": metadata + INDEX_BYTES + int(index[0][1]),
    }


def measure(names: list[str], timeout: float = 60.0) -> dict:
    """Per adapter: bytes fetched and needed, requests, the ratio, or why nothing was measured."""
    from conformance.harness.adapter_api import load_data
    from conformance.harness.client import AdapterPool
    from conformance.harness.config import find_adapter
    from conformance.testing.servers import http_server

    scratch = Path(tempfile.mkdtemp(prefix="zarr-conformance-ranges-"))
    results = {}
    try:
        sizes = write_store(scratch / "store")
        expected = data()[0:8, 0:8]
        pool = AdapterPool(timeout=timeout, in_process=False, scratch=scratch / "pool")
        with http_server(scratch) as server:
            for name in names:
                config = find_adapter(name)
                if "store:http" not in config.capabilities:
                    continue
                server.clear()
                output = scratch / f"{name}-out.npy"
                try:
                    pool.register(config)
                    response = pool.get(name).call(
                        "bench",
                        operation="read",
                        format="v3",
                        path="",
                        metadata=array_document(),
                        store={
                            "kind": "url",
                            "location": f"{server.url}/store",
                            "storage_options": {},
                        },
                        regions=[REGION],
                        output=str(output),
                    )
                except Exception as exc:  # a crash or hang of one adapter: recorded, go on
                    no_bench = "unimplemented op 'bench'" in str(exc)
                    results[name] = {
                        "status": "not-measured" if no_bench else "errored",
                        "message": "the adapter has no bench operation (partial reads)"
                        if no_bench
                        else f"{type(exc).__name__}: {exc}",
                    }
                    continue
                results[name] = judge(response, server, sizes, expected, load_data)
        pool.close()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return {"sizes": sizes, "region": REGION, "adapters": results}


def judge(response, server, sizes: dict, expected: np.ndarray, load_data) -> dict:
    requests = [r for r in server.requests if r.method == "GET"]
    fetched = server.bytes_served("/store/")
    out = {
        "bytes_fetched": fetched,
        "bytes_needed": sizes["needed"],
        "ratio": round(fetched / sizes["needed"], 2),
        "requests": len(requests),
        "ranged_requests": sum(1 for r in requests if r.range),
    }
    if not response.ok:  # e.g. a v2-only implementation: no sharded array to read
        return {"status": "refused", "message": response.describe_error(), **out}
    try:
        got = np.asarray(load_data(response.body["data"]))
    except (OSError, ValueError, KeyError) as exc:
        return {"status": "errored", "message": f"no data file: {exc}", **out}
    got = got.reshape(got.shape[-2:]) if got.ndim > 2 else got
    if got.shape != expected.shape or got.astype("<i4").tobytes() != expected.tobytes():
        return {"status": "wrong-data", "message": "the region read differs from the data", **out}
    return {"status": "measured", **out}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m conformance.bench.ranges", description=__doc__)
    parser.add_argument("--impl", action="append", default=[], help="adapter name, or all")
    parser.add_argument("--out", type=Path, default=None, help="write the JSON here")
    args = parser.parse_args(argv)
    from conformance.harness.config import all_adapters

    names = args.impl or ["all"]
    if "all" in names:
        names = [c.name for c in all_adapters() if c.default]
    report = measure(names)
    text = json.dumps(report, indent=1, sort_keys=True)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text + "\n", "utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
