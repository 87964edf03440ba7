"""The `update` operation of every adapter that declares op:update: after its own `write`, a region
and a single element written into the array land where they belong (read back through the adapter
itself and through the reference, bit for bit), and `resize` is either the implementation's own
(feature:resize: the new shape reads back with the fill value in the new region) or a declared
`unsupported` answer, never a silent no-op."""

from __future__ import annotations

import numpy as np
import pytest

from conformance.harness.config import find_adapter
from conformance.harness.refusals import judge_refusal
from conformance.reference import get_format, open_store

# (adapter, format): a format each one writes
UPDATERS = [
    ("reference", "v3"),
    ("zarr-python", "v3"),
    ("zarrs-python", "v3"),
    ("zarr-python2", "v2"),
    ("tensorstore", "v3"),
    ("zarrita-js", "v3"),
    ("zarr-js", "v2"),
    ("z5py", "v3"),
]
FILL = 7
DATA = (np.arange(30, dtype="<i4") * 11 - 100).reshape(5, 6)


def metadata(fmt: str, shape=(5, 6)) -> dict:
    if fmt == "v3":
        return get_format("v3").array_metadata(shape, (2, 4), "int32", fill_value=FILL)
    doc = get_format("v2").array_metadata(shape, (2, 4), "<i4", fill_value=FILL)
    return {**doc, "compressor": None}


def spec(path) -> dict:
    return {"kind": "directory", "location": str(path)}


def write_and_update(client, tmp_path, fmt, steps, data=DATA):
    store = tmp_path / "store"
    store.mkdir()
    np.save(tmp_path / "in.npy", data)
    written = client.call(
        "write",
        store=spec(store),
        format=fmt,
        node_type="array",
        path="a",
        metadata=metadata(fmt, data.shape),
        attributes={},
        data=str(tmp_path / "in.npy"),
    )
    assert written.ok, written.describe_error()
    return store, client.call("update", store=spec(store), format=fmt, path="a", steps=steps)


def reference_reads(store, fmt: str) -> np.ndarray:
    opened = open_store(store)
    try:
        return get_format(fmt).open_node(opened, "a").read()
    finally:
        opened.close()


@pytest.mark.parametrize(("adapter", "fmt"), UPDATERS, ids=[a for a, _ in UPDATERS])
def test_regions_and_elements_land_where_they_belong(adapter_clients, adapter, fmt, tmp_path):
    assert "op:update" in find_adapter(adapter).capabilities
    region = np.array([[1, 2, 3], [4, 5, 6]], dtype="<i4")
    np.save(tmp_path / "region.npy", region)
    np.save(tmp_path / "element.npy", np.array(-9, dtype="<i4"))
    steps = [
        {"op": "write", "region": [[1, 3], [2, 5]], "data": str(tmp_path / "region.npy")},
        {"op": "write", "region": [4, 5], "data": str(tmp_path / "element.npy")},
    ]
    client = adapter_clients(adapter)
    store, updated = write_and_update(client, tmp_path, fmt, steps)
    assert updated.ok, updated.describe_error()
    want = DATA.copy()
    want[1:3, 2:5] = region
    want[4, 5] = -9
    assert np.array_equal(reference_reads(store, fmt), want)
    read = client.call(
        "read", store=spec(store), format=fmt, node="a", output=str(tmp_path / "out.npy")
    )
    assert read.ok, read.describe_error()
    assert np.array_equal(np.load(read.body["data"]), want)


@pytest.mark.parametrize(("adapter", "fmt"), UPDATERS, ids=[a for a, _ in UPDATERS])
def test_resize_is_the_implementations_or_declared_unsupported(
    adapter_clients, adapter, fmt, tmp_path
):
    config = find_adapter(adapter)
    client = adapter_clients(adapter)
    data = DATA[:4, :4]  # whole chunks: growing shows no overhang of an old edge chunk
    store, resized = write_and_update(
        client, tmp_path, fmt, [{"op": "resize", "shape": [7, 4]}], data
    )
    if "feature:resize" not in config.capabilities:
        assert not resized.ok, "resized without declaring feature:resize"
        assert judge_refusal(config, resized.body).verdict == "unsupported", resized.body
        return
    assert resized.ok, resized.describe_error()
    want = np.full((7, 4), FILL, dtype="<i4")
    want[:4] = data
    assert np.array_equal(reference_reads(store, fmt), want)
