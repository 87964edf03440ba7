"""The tensorstore adapter against arrays written by tensorstore itself, and its writes read back
by tensorstore and checked byte for byte."""

from __future__ import annotations

import numpy as np
import pytest

from adapter_selftest import load_json, pinned_version, run_python, same_bits, store

DATA = np.arange(24, dtype="<u2").reshape(4, 6) * 1000 + 7

V3 = {
    "zarr_format": 3, "node_type": "array", "shape": [4, 6], "data_type": "uint16",
    "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [3, 4]}},
    "chunk_key_encoding": {"name": "default"}, "fill_value": 65535,
    "codecs": [{"name": "transpose", "configuration": {"order": [1, 0]}},
               {"name": "bytes", "configuration": {"endian": "little"}},
               {"name": "gzip", "configuration": {"level": 5}}],
}
V2 = {"zarr_format": 2, "shape": [4, 6], "chunks": [3, 4], "dtype": ">u2", "compressor": {"id": "zlib", "level": 1},
      "fill_value": 65535, "order": "F", "filters": None, "dimension_separator": "/"}

# Writes DATA with tensorstore itself (argv: folder, driver, metadata JSON).
WRITE = """
import sys, json, numpy as np, tensorstore as ts
folder, driver, metadata = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
t = ts.open({"driver": driver, "kvstore": {"driver": "file", "path": folder + "/"}, "path": "arr",
             "metadata": metadata, "create": True}).result()
t[...] = np.arange(24, dtype="<u2").reshape(4, 6) * 1000 + 7
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
    import json

    run_python("tensorstore", WRITE, str(tmp_path), driver, json.dumps(metadata))
    r = adapter_clients("tensorstore").call("read", store=store(tmp_path), format=fmt, node="arr",
                                            output=str(tmp_path / "o.npy"))
    assert r.ok, r.describe_error()
    assert same_bits(np.load(r.body["data"]), DATA)
    doc = "zarr.json" if fmt == "v3" else ".zarray"
    assert r.body["metadata"] == load_json(tmp_path / "arr" / doc)


@pytest.mark.parametrize("fmt,driver,metadata", [("v3", "zarr3", V3), ("v2", "zarr", V2)])
def test_write_then_tensorstore_reads_it(adapter_clients, tmp_path, fmt, driver, metadata):
    np.save(tmp_path / "in.npy", DATA)
    attributes = {"a": 1} if fmt == "v3" else {}
    r = adapter_clients("tensorstore").call("write", store=store(tmp_path / "w"), format=fmt, node_type="array",
                                            path="arr", metadata=metadata, attributes=attributes,
                                            data=str(tmp_path / "in.npy"))
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


def test_groups_and_v2_attributes_are_unsupported(adapter_clients, tmp_path):
    client = adapter_clients("tensorstore")
    r = client.call("write", store=store(tmp_path / "g"), format="v3", node_type="group", path="",
                    metadata=None, attributes={}, data=None)
    assert not r.ok and r.unsupported
    r = client.call("write", store=store(tmp_path / "w"), format="v2", node_type="array", path="arr",
                    metadata=V2, attributes={"a": 1}, data=None)
    assert not r.ok and r.unsupported
    r = client.call("list", store=store(tmp_path), format="v3", node="")
    assert not r.ok and r.unsupported


def test_a_group_node_is_unsupported_not_failed(adapter_clients, tmp_path):
    (tmp_path / "zarr.json").write_text('{"zarr_format": 3, "node_type": "group", "attributes": {}}')
    r = adapter_clients("tensorstore").call("read", store=store(tmp_path), format="v3", node="",
                                            output=str(tmp_path / "o.npy"))
    assert not r.ok and r.unsupported
