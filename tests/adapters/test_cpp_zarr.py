"""The cpp-zarr adapter (PyPI cpp-zarr, module cppzarr) against stores cpp-zarr writes itself, its
writes read back by the reference implementation, and the requests it answers Unsupported because
write_zarr has no argument for them."""

from __future__ import annotations

import json

import numpy as np
import pytest
from adapter_selftest import declared_unsupported, pinned_version, run_python, same_bits, store

from conformance.reference import open_node

ADAPTER = "cpp-zarr"

# Writes a v3 sharded, gzip-compressed uint16 array with cpp-zarr itself (argv: folder).
WRITE = """
import sys, numpy as np, cppzarr
cppzarr.write_zarr(sys.argv[1], (np.arange(64, dtype="<u2") * 7).reshape(8, 8), chunks=[2, 2],
                   shards=[4, 4], zarr_format=3, cname="gzip", clevel=5)
"""


def test_describe(adapter_clients):
    body = adapter_clients(ADAPTER).call("describe").body
    assert body["ok"] and body["version"] == pinned_version(ADAPTER, "cpp-zarr")


def test_reads_what_cpp_zarr_wrote(adapter_clients, tmp_path):
    run_python(ADAPTER, WRITE, str(tmp_path / "s"))
    r = adapter_clients(ADAPTER).call(
        "read", store=store(tmp_path / "s"), format="v3", node="", output=str(tmp_path / "o.npy")
    )
    assert r.ok, r.describe_error()
    assert same_bits(np.load(r.body["data"]), (np.arange(64, dtype="<u2") * 7).reshape(8, 8))
    # read_zarr returns the array only: nothing else is claimed
    assert r.body["api"] == {"shape": [8, 8], "dtype": "<u2"} and r.body["attributes"] is None


def test_reads_a_0d_array_as_0d(adapter_clients, tmp_path):
    folder = tmp_path / "z"
    folder.mkdir()
    doc = {
        "zarr_format": 3,
        "node_type": "array",
        "shape": [],
        "data_type": "float64",
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": []}},
        "chunk_key_encoding": {"name": "default"},
        "fill_value": 0,
        "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}],
    }
    (folder / "zarr.json").write_text(json.dumps(doc))
    (folder / "c").write_bytes(np.float64(-2.5).tobytes())
    r = adapter_clients(ADAPTER).call(
        "read", store=store(folder), format="v3", node="", output=str(tmp_path / "o.npy")
    )
    assert r.ok, r.describe_error()
    got = np.load(r.body["data"])
    assert got.shape == () and got[()] == -2.5


@pytest.mark.parametrize(
    "fmt,metadata",
    [
        (
            "v2",
            {
                "zarr_format": 2,
                "shape": [5, 7],
                "chunks": [2, 3],
                "dtype": "<i4",
                "order": "F",
                "fill_value": 0,
                "filters": None,
                "compressor": {
                    "id": "blosc",
                    "cname": "zstd",
                    "clevel": 3,
                    "shuffle": 1,
                    "blocksize": 0,
                },
                "dimension_separator": "/",
            },
        ),
        (
            "v3",
            {
                "zarr_format": 3,
                "node_type": "array",
                "shape": [5, 7],
                "data_type": "int32",
                "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [4, 6]}},
                "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
                "fill_value": 0,
                "codecs": [
                    {
                        "name": "sharding_indexed",
                        "configuration": {
                            "chunk_shape": [2, 3],
                            "codecs": [
                                {"name": "bytes", "configuration": {"endian": "little"}},
                                {"name": "gzip", "configuration": {"level": 1}},
                            ],
                            "index_codecs": [
                                {"name": "bytes", "configuration": {"endian": "little"}},
                                {"name": "crc32c"},
                            ],
                            "index_location": "end",
                        },
                    }
                ],
            },
        ),
    ],
)
def test_write_read_back_by_the_reference(adapter_clients, tmp_path, fmt, metadata):
    data = np.arange(35, dtype="<i4").reshape(5, 7) * 3 - 7
    np.save(tmp_path / "in.npy", data)
    r = adapter_clients(ADAPTER).call(
        "write",
        store=store(tmp_path / "w"),
        format=fmt,
        path="",
        node_type="array",
        metadata=metadata,
        attributes={},
        data=str(tmp_path / "in.npy"),
    )
    assert r.ok, r.describe_error()
    array = open_node(tmp_path / "w", "", fmt)
    assert same_bits(array.read(), data)
    written = json.loads((tmp_path / "w" / (".zarray" if fmt == "v2" else "zarr.json")).read_text())
    assert {k: v for k, v in written.items() if k != "attributes"} == metadata


@pytest.mark.parametrize(
    "change",
    [
        {"fill_value": 7},
        {"fill_value": -0.0},
        {"dtype": ">i4"},
        {"filters": [{"id": "delta", "dtype": "<i4"}]},
    ],
)
def test_what_write_zarr_cannot_express_is_unsupported(adapter_clients, tmp_path, change):
    metadata = {
        "zarr_format": 2,
        "shape": [4],
        "chunks": [2],
        "dtype": "<f8",
        "order": "C",
        "fill_value": 0,
        "filters": None,
        "compressor": None,
        **change,
    }
    np.save(tmp_path / "in.npy", np.arange(4, dtype=metadata["dtype"]))
    r = adapter_clients(ADAPTER).call(
        "write",
        store=store(tmp_path / "w"),
        format="v2",
        path="",
        node_type="array",
        metadata=metadata,
        attributes={},
        data=str(tmp_path / "in.npy"),
    )
    assert r.body.get("unsupported") and declared_unsupported(ADAPTER, r.body), r.body
    assert not (tmp_path / "w" / ".zarray").exists()
