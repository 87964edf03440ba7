"""The zarr-js adapter (Node harness.mjs over the npm package zarr, zarr.js 0.6.3): its reads of v2
stores against the bits stored, its writes read back by the reference implementation, zarr.js's
error classes reported by name (`__zarr__`) and the declared refusals."""

from __future__ import annotations

import json

import numpy as np
from adapter_selftest import declared_unsupported, error_rule, pinned_version, same_bits, store

from conformance.reference import open_node

ADAPTER = "zarr-js"
V2 = {"zarr_format": 2, "compressor": None, "fill_value": 0, "filters": None}


def write_v2(folder, stored: dict[str, bytes], **members):
    folder.mkdir(parents=True)
    (folder / ".zarray").write_text(json.dumps({**V2, **members}))
    for key, value in stored.items():
        (folder / key).write_bytes(value)


def test_describe(adapter_clients):
    body = adapter_clients(ADAPTER).call("describe").body
    assert body["ok"] and body["protocol"] == 1
    assert body["version"] == pinned_version(ADAPTER, "zarr") == body["versions"]["zarr"]


def test_reads_big_endian_fortran_order_with_fill(adapter_clients, tmp_path):
    # chunk (0, 0) stored big-endian in F order, chunk (0, 1) missing: the fill value
    data = (np.arange(6).reshape(2, 3) + 300).astype(">u2")
    write_v2(
        tmp_path / "s",
        {"0.0": data.tobytes(order="F")},
        shape=[2, 6],
        chunks=[2, 3],
        dtype=">u2",
        order="F",
        fill_value=9,
    )
    r = adapter_clients(ADAPTER).call(
        "read", store=store(tmp_path / "s"), format="v2", node="", output=str(tmp_path / "o.npy")
    )
    assert r.ok, r.describe_error()
    want = np.concatenate([data, np.full((2, 3), 9, ">u2")], axis=1)
    assert same_bits(np.load(r.body["data"]), want)
    assert r.body["api"] == {
        "shape": [2, 6],
        "dtype": "<u2",
        "chunk_shape": [2, 3],
        "fill_value": {"bytes": "0900"},
    }


def test_write_read_back_by_the_reference(adapter_clients, tmp_path):
    data = np.arange(35, dtype="<i4").reshape(5, 7) * 3 - 7
    np.save(tmp_path / "in.npy", data)
    metadata = {
        **V2,
        "shape": [5, 7],
        "chunks": [2, 3],
        "dtype": "<i4",
        "order": "C",
        "fill_value": -1,
        "compressor": {"id": "zlib", "level": 1},
    }
    r = adapter_clients(ADAPTER).call(
        "write",
        store=store(tmp_path / "w"),
        format="v2",
        path="g/a",
        node_type="array",
        metadata=metadata,
        attributes={"k": [1, 2]},
        data=str(tmp_path / "in.npy"),
    )
    assert r.ok, r.describe_error()
    array = open_node(tmp_path / "w", "g/a")
    assert same_bits(array.read(), data)
    assert array.attrs == {"k": [1, 2]}
    assert json.loads((tmp_path / "w/g/.zgroup").read_text()) == {"zarr_format": 2}


def test_group_write_creates_the_group(adapter_clients, tmp_path):
    # zarr.group() would create nothing in an empty store; the adapter uses openGroup "w-"
    r = adapter_clients(ADAPTER).call(
        "write",
        store=store(tmp_path / "w"),
        format="v2",
        path="",
        node_type="group",
        attributes={"title": "t"},
    )
    assert r.ok, r.describe_error()
    assert json.loads((tmp_path / "w/.zgroup").read_text()) == {"zarr_format": 2}
    assert json.loads((tmp_path / "w/.zattrs").read_text()) == {"title": "t"}


def test_zarr_js_errors_keep_their_class_name(adapter_clients, tmp_path):
    (tmp_path / "empty").mkdir()
    r = adapter_clients(ADAPTER).call(
        "read",
        store=store(tmp_path / "empty"),
        format="v2",
        node="",
        output=str(tmp_path / "o.npy"),
    )
    assert not r.ok
    assert r.body["error"]["type"] == "GroupNotFoundError"
    assert r.body["error"]["origin"] == "implementation"
    assert error_rule(ADAPTER, r.body).category == "metadata"


def test_declared_refusals(adapter_clients, tmp_path):
    client = adapter_clients(ADAPTER)
    r = client.call(
        "read", store=store(tmp_path), format="v3", node="", output=str(tmp_path / "o.npy")
    )
    assert r.body.get("unsupported") and declared_unsupported(ADAPTER, r.body)
    write_v2(tmp_path / "i8", {}, shape=[2], chunks=[2], dtype="<i8", order="C")
    r = client.call(
        "read", store=store(tmp_path / "i8"), format="v2", node="", output=str(tmp_path / "o.npy")
    )
    # zarr.js's own refusal of a data type it has no typed array for, declared unsupported
    assert not r.ok and not r.body.get("unsupported") and declared_unsupported(ADAPTER, r.body)
