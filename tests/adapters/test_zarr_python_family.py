"""The zarr-python 3 based adapters (zarr-python, zarrs-python, pydantic-zarr) against stores written
by the implementation itself in the adapter's own environment, and what they write read back by the
implementation and checked byte for byte; what reads report (`api`, attributes, members) against
what zarr's own objects say; errors as the implementation raised them."""

from __future__ import annotations

import json
import zipfile

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

A = np.arange(35, dtype="<i4").reshape(5, 7) * 3 - 7
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
    run_python(
        adapter,
        WRITE_HIERARCHY,
        str(folder),
        str(zarr_format),
        "zarrs" if adapter == "zarrs-python" else "",
    )


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
    apis = {
        "a": {
            "shape": [5, 7],
            "dtype": "<i4",
            "chunk_shape": [2, 3],
            "fill_value": {"bytes": "ffffffff"},
        },
        "sub/b": {
            "shape": [4],
            "dtype": "<f8",
            "chunk_shape": [3],
            "fill_value": {"bytes": "0" * 16},
        },
    }
    for node, want, attrs in [("a", A, {"k": [1, 2]}), ("sub/b", B, {})]:
        r = client.call(
            "read",
            store=store(tmp_path / "s"),
            format=fmt,
            node=node,
            output=str(tmp_path / "o.npy"),
        )
        assert r.ok, r.describe_error()
        assert r.body["node_type"] == "array" and r.body["attributes"] == attrs
        assert same_bits(np.load(r.body["data"]), want)
        names = (
            {"dimension_names": None} if zarr_format == 3 else {}
        )  # v2 arrays have none in zarr's API
        assert r.body["api"] == {**apis[node], **names}
        doc = "zarr.json" if zarr_format == 3 else ".zarray"
        assert r.body["metadata"] == load_json(
            tmp_path / "s" / node / doc
        )  # the document as stored


@pytest.mark.parametrize("adapter", ZARR3_FAMILY + ["pydantic-zarr"])
def test_group_read_and_list(adapter_clients, adapter, tmp_path):
    write_hierarchy("zarr-python", tmp_path / "s", 3)
    client = adapter_clients(adapter)
    r = client.call(
        "read", store=store(tmp_path / "s"), format="v3", node="", output=str(tmp_path / "o.npy")
    )
    assert r.ok, r.describe_error()
    assert r.body["node_type"] == "group" and r.body["attributes"] == {"title": "t"}
    assert r.body["members"] == {"a": "array", "sub": "group"}
    if adapter in ZARR3_FAMILY:
        assert r.body["metadata"] == load_json(
            tmp_path / "s" / "zarr.json"
        )  # the group document as stored
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
    r = adapter_clients("zarr-python").call(
        "read",
        store=store(zip_of(tmp_path / "s", tmp_path / "s.zip"), "zip"),
        format="v3",
        node="a",
        output=str(tmp_path / "o.npy"),
    )
    assert r.ok, r.describe_error()
    assert same_bits(np.load(r.body["data"]), A)


def test_zarrs_answers_unsupported_when_zarr_python_falls_back_to_its_own_pipeline(
    adapter_clients, tmp_path
):
    # zarrs-python has no zip store: zarr-python silently uses BatchedCodecPipeline even in strict
    # mode. The adapter must notice and refuse rather than report zarr-python's result as zarrs'.
    write_hierarchy("zarr-python", tmp_path / "s", 3)
    r = adapter_clients("zarrs-python").call(
        "read",
        store=store(zip_of(tmp_path / "s", tmp_path / "s.zip"), "zip"),
        format="v3",
        node="a",
        output=str(tmp_path / "o.npy"),
    )
    assert not r.ok and r.unsupported, r.body
    assert "BatchedCodecPipeline" in r.error_message
    assert r.body["error"]["origin"] == "adapter"  # the adapter's own check refused ...
    assert declared_unsupported("zarrs-python", r.body)  # ... as adapter.toml declares


def test_zarrs_refusal_of_a_data_type_is_its_own_exception(adapter_clients, tmp_path):
    # zarrs' pipeline refuses numpy kinds S U V M m O T with UnsupportedDataTypeError (strict mode):
    # the adapter lets it through as it is; adapter.toml declares it unsupported.
    run_python(
        "zarr-python",
        """
import sys, zarr
from zarr.storage import LocalStore
a = zarr.create_array(LocalStore(sys.argv[1]), shape=(3,), chunks=(2,), dtype=str, zarr_format=3)
a[...] = ["ab", "c", "def"]
""",
        str(tmp_path / "s"),
    )
    r = adapter_clients("zarrs-python").call(
        "read", store=store(tmp_path / "s"), format="v3", node="", output=str(tmp_path / "o.npy")
    )
    assert not r.ok and not r.unsupported, r.body
    error = r.body["error"]
    assert (error["type"], error["module"], error["origin"]) == (
        "UnsupportedDataTypeError",
        "zarrs.pipeline",
        "implementation",
    )
    assert declared_unsupported("zarrs-python", r.body)


V2_LZ4 = {
    "zarr_format": 2,
    "shape": [4],
    "chunks": [4],
    "dtype": "<i4",
    "compressor": {"id": "lz4", "acceleration": 1},
    "fill_value": 0,
    "order": "C",
    "filters": None,
}
V3_ZSTD_LEVEL_TOO_LOW = {
    "zarr_format": 3,
    "node_type": "array",
    "shape": [4],
    "data_type": "int32",
    "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [4]}},
    "chunk_key_encoding": {"name": "default"},
    "fill_value": 0,
    "codecs": [
        {"name": "bytes", "configuration": {"endian": "little"}},
        {"name": "zstd", "configuration": {"level": -200000, "checksum": False}},
    ],
}


def test_zarrs_metadata_refusals_carry_the_rust_message(adapter_clients, tmp_path):
    # UnsupportedMetadataError comes without a message, `from` the Rust side's error: the adapter
    # gives it that text. "unsupported codec lz4" is declared unsupported; an invalid configuration
    # zarr-python let through is a metadata refusal, not unsupported, although zarrs' wording
    # ("configuration is unsupported: ...") has the word in it.
    client = adapter_clients("zarrs-python")
    (tmp_path / "lz4").mkdir()
    (tmp_path / "lz4" / ".zarray").write_text(json.dumps(V2_LZ4))
    r = client.call(
        "read", store=store(tmp_path / "lz4"), format="v2", node="", output=str(tmp_path / "o.npy")
    )
    assert not r.ok and not r.unsupported, r.body
    assert (
        r.error_type == "UnsupportedMetadataError" and r.body["error"]["origin"] == "implementation"
    )
    assert r.error_message.startswith("unsupported codec lz4"), r.error_message
    assert declared_unsupported("zarrs-python", r.body)
    (tmp_path / "zstd").mkdir()
    (tmp_path / "zstd" / "zarr.json").write_text(json.dumps(V3_ZSTD_LEVEL_TOO_LOW))
    r = client.call(
        "read", store=store(tmp_path / "zstd"), format="v3", node="", output=str(tmp_path / "o.npy")
    )
    assert not r.ok and not r.unsupported, r.body
    assert r.error_type == "UnsupportedMetadataError" and "unsupported" in r.error_message
    assert error_rule("zarrs-python", r.body).category == "metadata"


# Writes a v3 sharded array with dimension names and a v2 big-endian array with zarr itself
# (argv: folder, "zarrs" or ""), then prints what zarr's Array objects say about them.
WRITE_AND_REPORT = """
import sys, json, numpy as np, zarr
from zarr.storage import LocalStore
folder, pipeline = sys.argv[1], sys.argv[2]
if pipeline:
    zarr.config.set({"codec_pipeline.path": "zarrs.ZarrsCodecPipeline", "codec_pipeline.strict": True})
s = zarr.create_array(LocalStore(folder), name="sharded", shape=(6, 8), chunks=(2, 2), shards=(4, 4),
                      dtype="<u2", fill_value=7, dimension_names=["y", None], attributes={"k": 1})
s[...] = np.arange(48, dtype="<u2").reshape(6, 8)
b = zarr.create_array(LocalStore(folder), name="v2/be", shape=(5,), chunks=(2,), dtype=">i4", fill_value=-3,
                      zarr_format=2)
b[...] = np.arange(5)
out = {}
for name, zf in (("sharded", 3), ("v2/be", 2)):
    a = zarr.open_array(LocalStore(folder, read_only=True), path=name, zarr_format=zf, mode="r")
    out[name] = {"shape": list(a.shape), "dtype": a.dtype.str, "chunks": list(a.chunks),
                 "shards": None if a.shards is None else list(a.shards),
                 "fill": np.asarray(a.fill_value).astype(a.dtype.newbyteorder("<")).tobytes().hex(),
                 "dimension_names": list(a.metadata.dimension_names) if zf == 3 else "absent"}
print(json.dumps(out))
"""


@pytest.mark.parametrize("adapter", ZARR3_FAMILY)
def test_api_is_what_zarr_reports(adapter_clients, adapter, tmp_path):
    reported = json.loads(
        run_python(
            adapter,
            WRITE_AND_REPORT,
            str(tmp_path / "s"),
            "zarrs" if adapter == "zarrs-python" else "",
        )
    )
    lib = reported["sharded"]
    assert (lib["chunks"], lib["shards"]) == (
        [2, 2],
        [4, 4],
    )  # zarr: chunks is the inner chunk shape
    r = adapter_clients(adapter).call(
        "read",
        store=store(tmp_path / "s"),
        format="v3",
        node="sharded",
        output=str(tmp_path / "o.npy"),
    )
    assert r.ok, r.describe_error()
    assert r.body["api"] == {
        "shape": lib["shape"],
        "dtype": lib["dtype"],
        "chunk_shape": lib["shards"],
        "fill_value": {"bytes": lib["fill"]},
        "dimension_names": lib["dimension_names"],
    }
    assert r.body["api"] == {
        "shape": [6, 8],
        "dtype": "<u2",
        "chunk_shape": [4, 4],
        "fill_value": {"bytes": "0700"},
        "dimension_names": ["y", None],
    }
    assert r.body["attributes"] == {"k": 1}
    if adapter == "zarrs-python":
        return  # zarrs-python refuses non-native byte orders (declared unsupported)
    lib = reported["v2/be"]
    r = adapter_clients(adapter).call(
        "read",
        store=store(tmp_path / "s"),
        format="v2",
        node="v2/be",
        output=str(tmp_path / "o.npy"),
    )
    assert r.ok, r.describe_error()
    assert r.body["api"] == {
        "shape": lib["shape"],
        "dtype": lib["dtype"],
        "chunk_shape": lib["chunks"],
        "fill_value": {"bytes": lib["fill"]},
    }  # v2: no dimension names in zarr's API
    assert r.body["api"]["dtype"] == ">i4" and r.body["api"]["fill_value"] == {"bytes": "fdffffff"}


def test_an_exception_inside_zarr_is_reported_as_the_implementations(adapter_clients, tmp_path):
    # a group whose consolidated_metadata is a number: zarr 3.4.2 fails inside its own code with
    # TypeError ('int' object is not iterable). The adapter passes it on as it is: type, module,
    # origin "implementation", where it was raised (by an operation of a zarr function, not a
    # raise statement) and the phase (the harness then records a crash, not a clean refusal).
    (tmp_path / "zarr.json").write_text(
        '{"zarr_format": 3, "node_type": "group", "consolidated_metadata": 5}'
    )
    r = adapter_clients("zarr-python").call(
        "read", store=store(tmp_path), format="v3", node="", output=str(tmp_path.parent / "o.npy")
    )
    assert not r.ok and not r.unsupported, r.body
    error = r.body["error"]
    assert (error["type"], error["module"], error["origin"]) == (
        "TypeError",
        "builtins",
        "implementation",
    ), error
    assert error["raised_in"].startswith("zarr.") and error["raised_by"] == "operation", error
    assert error["phase"] == "metadata", error
    # ... while zarr's parsers refuse a mistyped member with a raise statement of their own
    doc = json.loads(json.dumps(V3_UNCOMPRESSED))
    doc["codecs"] = [doc["codecs"][0], {"name": "gzip", "configuration": {"level": "5"}}]
    (tmp_path / "zarr.json").write_text(json.dumps(doc))
    r = adapter_clients("zarr-python").call(
        "read", store=store(tmp_path), format="v3", node="", output=str(tmp_path.parent / "o.npy")
    )
    error = r.body["error"]
    assert (error["type"], error["raised_by"], error["phase"]) == ("TypeError", "raise", "metadata")
    assert error["raised_in"].startswith("zarr."), error


V3_UNCOMPRESSED = {
    "zarr_format": 3,
    "node_type": "array",
    "shape": [3, 5],
    "data_type": "int32",
    "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [3, 5]}},
    "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
    "fill_value": 0,
    "codecs": [{"name": "bytes", "configuration": {"endian": "big"}}],
}
V2_UNCOMPRESSED = {
    "zarr_format": 2,
    "shape": [3, 5],
    "chunks": [3, 5],
    "dtype": "<i4",
    "compressor": None,
    "fill_value": 0,
    "order": "F",
    "filters": None,
}


@pytest.mark.parametrize("adapter", ZARR3_FAMILY)
@pytest.mark.parametrize("fmt", ["v2", "v3"])
def test_write_puts_the_exact_bytes_in_the_store(adapter_clients, adapter, fmt, tmp_path):
    data = np.arange(15, dtype="<i4").reshape(3, 5) - 4
    np.save(tmp_path / "in.npy", data)
    metadata = V3_UNCOMPRESSED if fmt == "v3" else V2_UNCOMPRESSED
    out = tmp_path / "w"
    r = adapter_clients(adapter).call(
        "write",
        store=store(out),
        format=fmt,
        node_type="array",
        path="x/y",
        metadata=metadata,
        attributes={"units": "m"},
        data=str(tmp_path / "in.npy"),
    )
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
    r = adapter_clients(adapter).call(
        "write",
        store=store(tmp_path / "w"),
        format="v3",
        node_type="group",
        path="g",
        metadata=None,
        attributes={"a": 1},
        data=None,
    )
    assert r.ok, r.describe_error()
    doc = load_json(tmp_path / "w/g/zarr.json")
    assert (doc["zarr_format"], doc["node_type"], doc["attributes"]) == (3, "group", {"a": 1})
    assert load_json(tmp_path / "w/zarr.json")["node_type"] == "group"


@pytest.mark.parametrize("adapter", ZARR3_FAMILY + ["pydantic-zarr"])
def test_unknown_formats_are_a_declared_unsupported(adapter_clients, adapter, tmp_path):
    r = adapter_clients(adapter).call(
        "read", store=store(tmp_path), format="v3-draft", node="", output=str(tmp_path / "o.npy")
    )
    assert not r.ok and r.unsupported
    assert r.error_type == "Unsupported" and declared_unsupported(adapter, r.body)
    if adapter != "zarrs-python":
        # raised by the adapter. (Under zarrs-python the same code runs from adapters/zarr-python,
        # outside that adapter's folder, and is reported with origin "implementation".)
        assert r.body["error"]["origin"] == "adapter"


def test_pydantic_zarr_zom_is_the_implementations_model(adapter_clients, tmp_path):
    write_hierarchy("zarr-python", tmp_path / "s", 3)
    expected = json.loads(
        run_python(
            "pydantic-zarr",
            """
import sys, json, zarr
from zarr.storage import LocalStore
from pydantic_zarr.v3 import GroupSpec
g = zarr.open_group(LocalStore(sys.argv[1], read_only=True), mode="r")
print(json.dumps(GroupSpec.from_zarr(g).model_dump(mode="json")))
""",
            str(tmp_path / "s"),
        )
    )
    r = adapter_clients("pydantic-zarr").call(
        "zom", store=store(tmp_path / "s"), format="v3", node=""
    )
    assert r.ok, r.describe_error()
    assert r.body["model"] == expected
    assert set(r.body["model"]["members"]) == {"a", "sub"}
    assert r.body["model"]["members"]["a"]["attributes"] == {"k": [1, 2]}
    r = adapter_clients("pydantic-zarr").call(
        "read", store=store(tmp_path / "s"), format="v3", node="a", output=str(tmp_path / "o.npy")
    )
    assert not r.ok and r.unsupported  # a metadata model: no array values
    assert declared_unsupported("pydantic-zarr", r.body)
    # the model-document form of op zom: its own model is valid, an array with members is not
    r = adapter_clients("pydantic-zarr").call("zom", model=expected, format="v3")
    assert r.body["valid"] is True and r.body["findings"] == []
    bad = dict(expected["members"]["a"], members={})
    r = adapter_clients("pydantic-zarr").call("zom", model=bad, format="v3")
    assert r.body["valid"] is False and r.body["findings"], r.body
