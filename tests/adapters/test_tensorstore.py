"""The tensorstore adapter against arrays written by tensorstore itself, and its writes read back
by tensorstore and checked byte for byte; what reads report (`api`, attributes) against what the
TensorStore object says."""

from __future__ import annotations

import json

import numpy as np
import pytest
from adapter_selftest import (
    declared_unsupported,
    error_rule,
    load_json,
    pinned_version,
    run_python,
    same_bits,
    store,
)

from conformance.corpus.jsonstrict import differences

DATA = np.arange(24, dtype="<u2").reshape(4, 6) * 1000 + 7

V3 = {
    "zarr_format": 3,
    "node_type": "array",
    "shape": [4, 6],
    "data_type": "uint16",
    "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [3, 4]}},
    "chunk_key_encoding": {"name": "default"},
    "fill_value": 65535,
    "codecs": [
        {"name": "transpose", "configuration": {"order": [1, 0]}},
        {"name": "bytes", "configuration": {"endian": "little"}},
        {"name": "gzip", "configuration": {"level": 5}},
    ],
}
V2 = {
    "zarr_format": 2,
    "shape": [4, 6],
    "chunks": [3, 4],
    "dtype": ">u2",
    "compressor": {"id": "zlib", "level": 1},
    "fill_value": 65535,
    "order": "F",
    "filters": None,
    "dimension_separator": "/",
}

# Writes DATA with tensorstore itself (argv: folder, driver, metadata JSON).
WRITE = """
import sys, json, numpy as np, tensorstore as ts
folder, driver, metadata = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
t = ts.open({"driver": driver, "kvstore": {"driver": "file", "path": folder + "/"}, "path": "arr",
             "metadata": metadata, "create": True}).result()
t[...] = np.arange(24, dtype="<u2").reshape(4, 6) * 1000 + 7
"""

# What the TensorStore object says about arr (argv: folder, driver): shape, numpy dtype, write chunk
# shape, fill bytes, resolved metadata.
REPORT = """
import sys, json, numpy as np, tensorstore as ts
t = ts.open({"driver": sys.argv[2], "kvstore": {"driver": "file", "path": sys.argv[1] + "/"}, "path": "arr"}, open=True).result()
fill = None if t.fill_value is None else np.asarray(t.fill_value).astype(t.dtype.numpy_dtype.newbyteorder("<")).tobytes().hex()
print(json.dumps({"shape": list(t.shape), "dtype": t.dtype.numpy_dtype.str, "write_chunk": list(t.chunk_layout.write_chunk.shape),
                  "fill": fill, "metadata": t.spec(minimal_spec=False).to_json()["metadata"]}))
"""

READ_BACK = """
import sys, numpy as np, tensorstore as ts
t = ts.open({"driver": sys.argv[2], "kvstore": {"driver": "file", "path": sys.argv[1] + "/"}, "path": "arr"}, open=True).result()
data = np.asarray(t.read().result())
print(data.dtype.str, data.tobytes().hex())
"""


def test_describe(adapter_clients):
    body = adapter_clients("tensorstore").call("describe").body
    assert body["version"] == pinned_version("tensorstore", "tensorstore")
    assert body["settings"] == {"file_io_sync": False}


@pytest.mark.parametrize("fmt,driver,metadata", [("v3", "zarr3", V3), ("v2", "zarr", V2)])
def test_read_what_tensorstore_wrote(adapter_clients, tmp_path, fmt, driver, metadata):
    run_python("tensorstore", WRITE, str(tmp_path), driver, json.dumps(metadata))
    r = adapter_clients("tensorstore").call(
        "read", store=store(tmp_path), format=fmt, node="arr", output=str(tmp_path / "o.npy")
    )
    assert r.ok, r.describe_error()
    assert same_bits(np.load(r.body["data"]), DATA)
    doc = "zarr.json" if fmt == "v3" else ".zarray"
    assert r.body["metadata"] == load_json(tmp_path / "arr" / doc)
    ts_says = json.loads(run_python("tensorstore", REPORT, str(tmp_path), driver))
    api = r.body["api"]
    assert (api["shape"], api["chunk_shape"], api["fill_value"]) == (
        ts_says["shape"],
        ts_says["write_chunk"],
        {"bytes": ts_says["fill"]},
    )
    assert (api["shape"], api["chunk_shape"], api["fill_value"]) == (
        [4, 6],
        [3, 4],
        {"bytes": "ffff"},
    )
    if fmt == "v3":
        assert api["dtype"] == ts_says["dtype"] == "<u2"
        # no dimension_names in the document: tensorstore's metadata leaves them out, as it does
        # when all are null, so it cannot say which (the member is absent, not null)
        assert "dimension_names" not in api and "dimension_names" not in ts_says["metadata"]
        assert r.body["attributes"] == {}
    else:
        # TensorStore.dtype has no byte order: the stored one comes from tensorstore's resolved metadata
        assert ts_says["dtype"] == "<u2" and api["dtype"] == ts_says["metadata"]["dtype"] == ">u2"
        assert "dimension_names" not in api
        assert r.body["attributes"] is None  # the zarr (v2) driver cannot say


@pytest.mark.parametrize("fmt,driver,metadata", [("v3", "zarr3", V3), ("v2", "zarr", V2)])
def test_write_then_tensorstore_reads_it(adapter_clients, tmp_path, fmt, driver, metadata):
    np.save(tmp_path / "in.npy", DATA)
    attributes = {"a": 1} if fmt == "v3" else {}
    r = adapter_clients("tensorstore").call(
        "write",
        store=store(tmp_path / "w"),
        format=fmt,
        node_type="array",
        path="arr",
        metadata=metadata,
        attributes=attributes,
        data=str(tmp_path / "in.npy"),
    )
    assert r.ok, r.describe_error()
    dtype, hexbytes = run_python("tensorstore", READ_BACK, str(tmp_path / "w"), driver).split()
    assert same_bits(np.frombuffer(bytes.fromhex(hexbytes), dtype).reshape(4, 6), DATA)
    if fmt == "v3":
        assert load_json(tmp_path / "w/arr/zarr.json")["attributes"] == {"a": 1}
        # the chunk (0, 0) has its inner (transposed) layout: gunzip and compare with the transposed block
        import gzip

        raw = gzip.decompress((tmp_path / "w/arr/c/0/0").read_bytes())
        assert raw == np.ascontiguousarray(DATA[:3, :4].T).astype("<u2").tobytes()
    else:
        import zlib

        raw = zlib.decompress((tmp_path / "w/arr/0/0").read_bytes())
        assert raw == np.asfortranarray(DATA[:3, :4]).astype(">u2").tobytes(order="F")


def test_groups_and_v2_attributes_are_a_declared_unsupported(adapter_clients, tmp_path):
    client = adapter_clients("tensorstore")
    r = client.call(
        "write",
        store=store(tmp_path / "g"),
        format="v3",
        node_type="group",
        path="",
        metadata=None,
        attributes={},
        data=None,
    )
    assert not r.ok and r.unsupported and declared_unsupported("tensorstore", r.body)
    r = client.call(
        "write",
        store=store(tmp_path / "w"),
        format="v2",
        node_type="array",
        path="arr",
        metadata=V2,
        attributes={"a": 1},
        data=None,
    )
    assert not r.ok and r.unsupported and declared_unsupported("tensorstore", r.body)
    r = client.call("list", store=store(tmp_path), format="v3", node="")
    assert not r.ok and r.unsupported and declared_unsupported("tensorstore", r.body)


def test_a_group_node_is_unsupported_not_failed(adapter_clients, tmp_path):
    (tmp_path / "zarr.json").write_text(
        '{"zarr_format": 3, "node_type": "group", "attributes": {}}'
    )
    r = adapter_clients("tensorstore").call(
        "read", store=store(tmp_path), format="v3", node="", output=str(tmp_path / "o.npy")
    )
    assert not r.ok and r.unsupported and declared_unsupported("tensorstore", r.body)
    assert r.body["error"]["origin"] == "adapter"


V3_ATTRIBUTES = {
    "zarr_format": 3,
    "node_type": "array",
    "shape": [3],
    "data_type": "int32",
    "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2]}},
    "chunk_key_encoding": {"name": "default"},
    "fill_value": 0,
    "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}],
    "dimension_names": ["x"],
    "attributes": {"big": 2**70 + 1, "list": [1, 2.5, None], "s": "x"},
}


def test_attributes_come_from_tensorstore(adapter_clients, tmp_path):
    # 2**70 + 1 is an integer in the stored document; tensorstore's JSON turns it into the nearest
    # double, so attributes read through tensorstore differ from the file's: the adapter's are
    # tensorstore's.
    (tmp_path / "arr").mkdir()
    (tmp_path / "arr" / "zarr.json").write_text(json.dumps(V3_ATTRIBUTES))
    r = adapter_clients("tensorstore").call(
        "read", store=store(tmp_path), format="v3", node="arr", output=str(tmp_path / "o.npy")
    )
    assert r.ok, r.describe_error()
    ts_says = json.loads(run_python("tensorstore", REPORT, str(tmp_path), "zarr3"))["metadata"]
    assert not differences(ts_says["attributes"], r.body["attributes"])
    assert differences(V3_ATTRIBUTES["attributes"], r.body["attributes"])  # not the file's
    assert r.body["attributes"]["big"] == float(2**70 + 1) and isinstance(
        r.body["attributes"]["big"], float
    )
    assert r.body["api"]["dimension_names"] == ["x"] == ts_says["dimension_names"]
    # the v2 driver never reads .zattrs: tensorstore cannot say, whatever the file holds
    (tmp_path / "v2" / "arr").mkdir(parents=True)
    (tmp_path / "v2" / "arr" / ".zarray").write_text(json.dumps(dict(V2, shape=[3], chunks=[2])))
    (tmp_path / "v2" / "arr" / ".zattrs").write_text('{"a": 1}')
    r = adapter_clients("tensorstore").call(
        "read",
        store=store(tmp_path / "v2"),
        format="v2",
        node="arr",
        output=str(tmp_path / "o.npy"),
    )
    assert r.ok, r.describe_error()
    assert r.body["attributes"] is None


def test_errors_are_tensorstores_classified_by_status(adapter_clients, tmp_path):
    (tmp_path / "arr").mkdir()
    (tmp_path / "arr" / "zarr.json").write_text(
        json.dumps(
            dict(
                V3,
                shape=[4, 6],
                codecs=[
                    {"name": "bytes", "configuration": {"endian": "little"}},
                    {"name": "crc32c"},
                ],
            )
        )
    )
    (tmp_path / "arr" / "c" / "0").mkdir(parents=True)
    (tmp_path / "arr" / "c" / "0" / "0").write_bytes(
        bytes(3 * 4 * 2) + b"\0\0\0\0"
    )  # wrong checksum
    client = adapter_clients("tensorstore")
    r = client.call(
        "read", store=store(tmp_path), format="v3", node="arr", output=str(tmp_path / "o.npy")
    )
    assert not r.ok and not r.unsupported
    assert r.error_type == "ValueError" and r.error_message.startswith("DATA_LOSS: "), r.body
    assert r.body["error"]["origin"] == "implementation"
    assert error_rule("tensorstore", r.body).category == "chunk-data"
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "zarr.json").write_text(json.dumps(dict(V3, shape=[-1])))
    r = client.call(
        "read", store=store(tmp_path), format="v3", node="bad", output=str(tmp_path / "o.npy")
    )
    assert not r.ok and not r.unsupported and r.error_type == "ValueError"
    assert error_rule("tensorstore", r.body).category == "metadata"
