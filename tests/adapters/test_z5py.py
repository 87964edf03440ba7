"""The z5py adapter (PyPI z5py, the Python bindings of z5) against a hierarchy z5py writes itself,
an array at the store root (read through the adapter's wrapper folder, since a z5py File is always
a group), its writes read back by the reference implementation, and its declared refusals."""

from __future__ import annotations

import json

import numpy as np
from adapter_selftest import declared_unsupported, pinned_version, run_python, same_bits, store

from conformance.reference import open_node

ADAPTER = "z5py"

# Writes a v3 hierarchy with z5py itself (argv: folder, named *.zarr as z5py wants it).
WRITE = """
import sys, numpy as np, z5py
f = z5py.File(sys.argv[1], "w", use_zarr_format=True, zarr_format=3)
f.attrs["title"] = "t"
a = f.create_dataset("g/a", shape=(5, 7), chunks=(2, 3), dtype="int32", compression="gzip", fillvalue=-1)
a[:4] = (np.arange(35, dtype="<i4").reshape(5, 7) * 3 - 7)[:4]
a.attrs["k"] = [1, 2]
"""

A = np.arange(35, dtype="<i4").reshape(5, 7) * 3 - 7


def test_describe(adapter_clients):
    body = adapter_clients(ADAPTER).call("describe").body
    assert body["ok"] and body["version"] == pinned_version(ADAPTER, "z5py")


def test_reads_what_z5py_wrote(adapter_clients, tmp_path):
    run_python(ADAPTER, WRITE, str(tmp_path / "s.zarr"))
    client = adapter_clients(ADAPTER)
    s = store(tmp_path / "s.zarr")
    r = client.call("read", store=s, format="v3", node="", output=str(tmp_path / "r.npy"))
    assert r.ok, r.describe_error()
    assert r.body["node_type"] == "group" and r.body["members"] == {"g": "group"}
    assert r.body["attributes"] == {"title": "t"}
    r = client.call("read", store=s, format="v3", node="g/a", output=str(tmp_path / "a.npy"))
    assert r.ok, r.describe_error()
    want = A.copy()
    want[4] = -1  # the last row was never written: the fill value
    assert same_bits(np.load(r.body["data"]), want)
    assert r.body["api"] == {"shape": [5, 7], "dtype": "<i4", "chunk_shape": [2, 3]}
    assert r.body["attributes"] == {"k": [1, 2]}
    r = client.call("list", store=s, format="v3", node="")
    assert r.body["nodes"] == {"": "group", "g": "group", "g/a": "array"}


def test_reads_an_array_at_the_store_root(adapter_clients, tmp_path):
    folder = tmp_path / "root"
    folder.mkdir()
    doc = {
        "zarr_format": 2,
        "shape": [4],
        "chunks": [2],
        "dtype": "<u2",
        "compressor": None,
        "fill_value": 5,
        "order": "C",
        "filters": None,
    }
    (folder / ".zarray").write_text(json.dumps(doc))
    (folder / "0").write_bytes(np.array([1, 2], "<u2").tobytes())
    r = adapter_clients(ADAPTER).call(
        "read", store=store(folder), format="v2", node="", output=str(tmp_path / "o.npy")
    )
    assert r.ok, r.describe_error()
    assert same_bits(np.load(r.body["data"]), np.array([1, 2, 5, 5], "<u2"))
    assert not list(tmp_path.glob("z5py-adapter-*"))  # the wrapper folder is gone


def test_write_read_back_by_the_reference(adapter_clients, tmp_path):
    (tmp_path / "w").mkdir()
    np.save(tmp_path / "in.npy", A)
    metadata = {
        "zarr_format": 2,
        "shape": [5, 7],
        "chunks": [2, 3],
        "dtype": "<i4",
        "compressor": {"id": "zlib", "level": 1},
        "fill_value": 3,
        "order": "C",
        "filters": None,
    }
    r = adapter_clients(ADAPTER).call(
        "write",
        store=store(tmp_path / "w"),
        format="v2",
        path="g/a",
        node_type="array",
        metadata=metadata,
        attributes={"k": "v"},
        data=str(tmp_path / "in.npy"),
    )
    assert r.ok, r.describe_error()
    array = open_node(tmp_path / "w", "g/a", "v2")
    assert same_bits(array.read(), A) and array.attrs == {"k": "v"}
    assert not list(tmp_path.glob("z5py-adapter-*"))  # the scratch folder is gone


def test_root_array_write_is_a_declared_refusal(adapter_clients, tmp_path):
    (tmp_path / "w").mkdir()
    np.save(tmp_path / "in.npy", A)
    metadata = {
        "zarr_format": 2,
        "shape": [5, 7],
        "chunks": [2, 3],
        "dtype": "<i4",
        "compressor": None,
        "fill_value": 0,
        "order": "C",
        "filters": None,
    }
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
    assert r.body.get("unsupported") and declared_unsupported(ADAPTER, r.body)
    assert list((tmp_path / "w").iterdir()) == []
