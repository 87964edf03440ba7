"""The zarr-python 3 based adapters (zarr-python, zarrs, pydantic-zarr) against stores written by
the implementation itself in the adapter's own environment, and what they write read back by the
implementation and checked byte for byte."""

from __future__ import annotations

import json
import zipfile

import numpy as np
import pytest

from adapter_selftest import load_json, pinned_version, run_python, same_bits, store

A = (np.arange(35, dtype="<i4").reshape(5, 7) * 3 - 7)
B = np.array([1.5, -0.0, np.inf, 0.0], dtype="<f8")
B[3] = np.array([0x7FF8000000000123], dtype="<u8").view("<f8")[0]  # a NaN with a payload

# Writes a small hierarchy with zarr-python itself (argv: folder, zarr_format, "zarrs" or "").
WRITE_HIERARCHY = """
import sys, numpy as np, zarr
from zarr.storage import LocalStore
folder, zf, pipeline = sys.argv[1], int(sys.argv[2]), sys.argv[3]
if pipeline:
    zarr.config.set({"codec_pipeline.path": "zarrs.ZarrsCodecPipeline", "codec_pipeline.strict": True})
A = np.arange(35, dtype="<i4").reshape(5, 7) * 3 - 7
B = np.array([1.5, -0.0, np.inf, 0.0], dtype="<f8")
B[3] = np.array([0x7FF8000000000123], dtype="<u8").view("<f8")[0]
root = zarr.open_group(LocalStore(folder), mode="w", zarr_format=zf, attributes={"title": "t"})
a = root.create_array("a", shape=(5, 7), chunks=(2, 3), dtype="<i4", fill_value=-1, attributes={"k": [1, 2]})
a[...] = A
b = root.create_group("sub").create_array("b", shape=(4,), chunks=(3,), dtype="<f8", fill_value=0.0)
b[...] = B
"""

# Reads one array back with zarr-python itself and prints its bytes as hex (argv: folder, path, zarr_format).
READ_BACK = """
import sys, zarr
from zarr.storage import LocalStore
arr = zarr.open_array(LocalStore(sys.argv[1], read_only=True), path=sys.argv[2], zarr_format=int(sys.argv[3]), mode="r")
data = arr[...]
print(data.dtype.str, data.tobytes().hex())
"""

ZARR3_FAMILY = ["zarr-python", "zarrs-python"]


def write_hierarchy(adapter: str, folder, zarr_format: int) -> None:
    run_python(adapter, WRITE_HIERARCHY, str(folder), str(zarr_format), "zarrs" if adapter == "zarrs-python" else "")


@pytest.mark.parametrize("adapter", ZARR3_FAMILY + ["pydantic-zarr"])
def test_describe_reports_the_pinned_versions(adapter_clients, adapter):
    body = adapter_clients(adapter).call("describe").body
    assert body["ok"] and body["name"] == adapter and body["protocol"] == 1
    assert body["versions"]["zarr"] == pinned_version(adapter, "zarr")
    if adapter == "zarrs-python":
        assert body["version"] == pinned_version("zarrs-python", "zarrs")
        assert body["settings"]["codec_pipeline.strict"] is True
        assert body["settings"]["codec_pipeline.path"] == "zarrs.ZarrsCodecPipeline"
    elif adapter == "pydantic-zarr":
        assert body["version"] == pinned_version(adapter, "pydantic-zarr")
    else:
        assert body["version"] == pinned_version(adapter, "zarr")


@pytest.mark.parametrize("zarr_format", [2, 3])
@pytest.mark.parametrize("adapter", ZARR3_FAMILY)
def test_read_arrays_written_by_the_implementation(adapter_clients, adapter, zarr_format, tmp_path):
    write_hierarchy(adapter, tmp_path / "s", zarr_format)
    client = adapter_clients(adapter)
    fmt = f"v{zarr_format}"
    for node, want, attrs in [("a", A, {"k": [1, 2]}), ("sub/b", B, {})]:
        r = client.call("read", store=store(tmp_path / "s"), format=fmt, node=node, output=str(tmp_path / "o.npy"))
        assert r.ok, r.describe_error()
        assert r.body["node_type"] == "array" and r.body["attributes"] == attrs
        assert same_bits(np.load(r.body["data"]), want)
        doc = "zarr.json" if zarr_format == 3 else ".zarray"
        assert r.body["metadata"] == load_json(tmp_path / "s" / node / doc)  # the document as stored


@pytest.mark.parametrize("adapter", ZARR3_FAMILY + ["pydantic-zarr"])
def test_group_read_and_list(adapter_clients, adapter, tmp_path):
    write_hierarchy("zarr-python", tmp_path / "s", 3)
    client = adapter_clients(adapter)
    r = client.call("read", store=store(tmp_path / "s"), format="v3", node="", output=str(tmp_path / "o.npy"))
    assert r.ok, r.describe_error()
    assert r.body["node_type"] == "group" and r.body["attributes"] == {"title": "t"}
    assert r.body["members"] == {"a": "array", "sub": "group"}
    r = client.call("list", store=store(tmp_path / "s"), format="v3", node="")
    assert r.ok, r.describe_error()
    assert r.body["nodes"] == {"": "group", "a": "array", "sub": "group", "sub/b": "array"}
    r = client.call("list", store=store(tmp_path / "s"), format="v3", node="sub")
    assert r.body["nodes"] == {"sub": "group", "sub/b": "array"}  # paths from the store root


def zip_of(folder, target):
    with zipfile.ZipFile(target, "w") as zf:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                zf.write(path, path.relative_to(folder).as_posix())
    return target


def test_zarr_python_reads_zip_stores(adapter_clients, tmp_path):
    write_hierarchy("zarr-python", tmp_path / "s", 3)
    r = adapter_clients("zarr-python").call("read", store=store(zip_of(tmp_path / "s", tmp_path / "s.zip"), "zip"),
                                            format="v3", node="a", output=str(tmp_path / "o.npy"))
    assert r.ok, r.describe_error()
    assert same_bits(np.load(r.body["data"]), A)


def test_zarrs_answers_unsupported_when_zarr_python_falls_back_to_its_own_pipeline(adapter_clients, tmp_path):
    # zarrs-python has no zip store: zarr-python silently uses BatchedCodecPipeline even in strict
    # mode. The adapter must notice and refuse rather than report zarr-python's result as zarrs'.
    write_hierarchy("zarr-python", tmp_path / "s", 3)
    r = adapter_clients("zarrs-python").call("read", store=store(zip_of(tmp_path / "s", tmp_path / "s.zip"), "zip"),
                                      format="v3", node="a", output=str(tmp_path / "o.npy"))
    assert not r.ok and r.unsupported, r.body
    assert "BatchedCodecPipeline" in r.error_message


def test_zarrs_refuses_data_types_its_pipeline_lacks(adapter_clients, tmp_path):
    run_python("zarr-python", """
import sys, zarr
from zarr.storage import LocalStore
a = zarr.create_array(LocalStore(sys.argv[1]), shape=(3,), chunks=(2,), dtype="|S3", zarr_format=2)
a[...] = [b"ab", b"c", b"def"]
""", str(tmp_path / "s"))
    r = adapter_clients("zarrs-python").call("read", store=store(tmp_path / "s"), format="v2", node="",
                                      output=str(tmp_path / "o.npy"))
    assert not r.ok and r.unsupported, r.body


V3_UNCOMPRESSED = {
    "zarr_format": 3, "node_type": "array", "shape": [3, 5], "data_type": "int32",
    "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [3, 5]}},
    "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
    "fill_value": 0, "codecs": [{"name": "bytes", "configuration": {"endian": "big"}}],
}
V2_UNCOMPRESSED = {
    "zarr_format": 2, "shape": [3, 5], "chunks": [3, 5], "dtype": "<i4", "compressor": None,
    "fill_value": 0, "order": "F", "filters": None,
}


@pytest.mark.parametrize("adapter", ZARR3_FAMILY)
@pytest.mark.parametrize("fmt", ["v2", "v3"])
def test_write_puts_the_exact_bytes_in_the_store(adapter_clients, adapter, fmt, tmp_path):
    data = np.arange(15, dtype="<i4").reshape(3, 5) - 4
    np.save(tmp_path / "in.npy", data)
    metadata = V3_UNCOMPRESSED if fmt == "v3" else V2_UNCOMPRESSED
    out = tmp_path / "w"
    r = adapter_clients(adapter).call("write", store=store(out), format=fmt, node_type="array", path="x/y",
                                      metadata=metadata, attributes={"units": "m"}, data=str(tmp_path / "in.npy"))
    assert r.ok, r.describe_error()
    if fmt == "v3":
        # one chunk, bytes codec big-endian, no compression: the chunk is the big-endian C-order data
        assert (out / "x/y/c/0/0").read_bytes() == data.astype(">i4").tobytes()
        doc = load_json(out / "x/y/zarr.json")
        assert doc["attributes"] == {"units": "m"} and doc["codecs"] == metadata["codecs"]
        assert load_json(out / "x/zarr.json")["node_type"] == "group"  # ancestors are created
    else:
        assert (out / "x/y/0.0").read_bytes() == np.asfortranarray(data).tobytes(order="F")
        assert load_json(out / "x/y/.zattrs") == {"units": "m"}
        assert load_json(out / "x/y/.zarray")["order"] == "F"
        assert (out / "x/.zgroup").is_file()
    dtype, hexbytes = run_python("zarr-python", READ_BACK, str(out), "x/y", fmt[1]).split()
    assert same_bits(np.frombuffer(bytes.fromhex(hexbytes), dtype).reshape(3, 5), data)


@pytest.mark.parametrize("adapter", ZARR3_FAMILY)
def test_write_group_with_attributes(adapter_clients, adapter, tmp_path):
    r = adapter_clients(adapter).call("write", store=store(tmp_path / "w"), format="v3", node_type="group",
                                      path="g", metadata=None, attributes={"a": 1}, data=None)
    assert r.ok, r.describe_error()
    doc = load_json(tmp_path / "w/g/zarr.json")
    assert (doc["zarr_format"], doc["node_type"], doc["attributes"]) == (3, "group", {"a": 1})
    assert load_json(tmp_path / "w/zarr.json")["node_type"] == "group"


def test_unknown_formats_are_unsupported_not_failed(adapter_clients, tmp_path):
    r = adapter_clients("zarr-python").call("read", store=store(tmp_path), format="v3-draft", node="",
                                            output=str(tmp_path / "o.npy"))
    assert not r.ok and r.unsupported


def test_pydantic_zarr_zom_is_the_implementations_model(adapter_clients, tmp_path):
    write_hierarchy("zarr-python", tmp_path / "s", 3)
    expected = json.loads(run_python("pydantic-zarr", """
import sys, json, zarr
from zarr.storage import LocalStore
from pydantic_zarr.v3 import GroupSpec
g = zarr.open_group(LocalStore(sys.argv[1], read_only=True), mode="r")
print(json.dumps(GroupSpec.from_zarr(g).model_dump(mode="json")))
""", str(tmp_path / "s")))
    r = adapter_clients("pydantic-zarr").call("zom", store=store(tmp_path / "s"), format="v3", node="")
    assert r.ok, r.describe_error()
    assert r.body["model"] == expected
    assert set(r.body["model"]["members"]) == {"a", "sub"}
    assert r.body["model"]["members"]["a"]["attributes"] == {"k": [1, 2]}
    r = adapter_clients("pydantic-zarr").call("read", store=store(tmp_path / "s"), format="v3", node="a",
                                              output=str(tmp_path / "o.npy"))
    assert not r.ok and r.unsupported  # a metadata model: no array values
    # the model-document form of op zom: its own model is valid, an array with members is not
    r = adapter_clients("pydantic-zarr").call("zom", model=expected, format="v3")
    assert r.body["valid"] is True and r.body["findings"] == []
    bad = dict(expected["members"]["a"], members={})
    r = adapter_clients("pydantic-zarr").call("zom", model=bad, format="v3")
    assert r.body["valid"] is False and r.body["findings"], r.body
