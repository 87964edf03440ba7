"""The zarrita-js adapter (Node harness.mjs over the npm package zarrita) against stores written by
zarrita itself, and its writes read back by zarrita; its hand-written .npy files are checked by
numpy."""

from __future__ import annotations

import json

import numpy as np
import pytest
from adapter_selftest import load_json, pinned_version, run_node, same_bits, store

from conformance.harness.config import find_adapter
from conformance.harness.refusals import judge_refusal

# Writes a v3 hierarchy with zarrita itself (argv: folder).
WRITE = """
import * as zarr from "zarrita";
import { FileSystemStore } from "@zarrita/storage";
let root = zarr.root(new FileSystemStore(process.argv[2]));
await zarr.create(root, { attributes: { title: "t" } });
let a = await zarr.create(root.resolve("a"), { shape: [5, 7], chunkShape: [2, 3], dtype: "int32", fillValue: -1,
  codecs: [{ name: "bytes", configuration: { endian: "big" } }], attributes: { k: [1, 2] } });
await zarr.set(a, null, { data: Int32Array.from({ length: 35 }, (_, i) => i * 3 - 7), shape: [5, 7], stride: [7, 1] });
let b = await zarr.create(root.resolve("b"), { shape: [3], chunkShape: [2], dtype: "bool", fillValue: false,
  codecs: [{ name: "bytes", configuration: {} }] });
await zarr.set(b, null, { data: new zarr.BoolArray([true, false, true]), shape: [3], stride: [1] });
let z = await zarr.create(root.resolve("z"), { shape: [], chunkShape: [], dtype: "float64", fillValue: 0,
  codecs: [{ name: "bytes", configuration: { endian: "little" } }] });
await zarr.set(z, null, -2.5);
"""

READ_BACK = """
import * as zarr from "zarrita";
import { FileSystemStore } from "@zarrita/storage";
let arr = await zarr.open.v3(zarr.root(new FileSystemStore(process.argv[2])).resolve(process.argv[3]), { kind: "array" });
let { data } = await zarr.get(arr);
console.log(arr.dtype, Array.from(data).join(","));
"""

A = np.arange(35, dtype="<i4").reshape(5, 7) * 3 - 7


def test_describe(adapter_clients):
    body = adapter_clients("zarrita-js").call("describe").body
    assert body["ok"] and body["protocol"] == 1
    assert body["version"] == pinned_version("zarrita-js", "zarrita")
    assert body["versions"]["@zarrita/storage"] == pinned_version("zarrita-js", "@zarrita/storage")


def test_read_what_zarrita_wrote(adapter_clients, tmp_path):
    run_node("zarrita-js", WRITE, str(tmp_path / "s"))
    client = adapter_clients("zarrita-js")
    r = client.call(
        "read", store=store(tmp_path / "s"), format="v3", node="a", output=str(tmp_path / "a.npy")
    )
    assert r.ok, r.describe_error()
    assert r.body["attributes"] == {"k": [1, 2]} and r.body["dtype"] == "<i4"
    assert same_bits(np.load(r.body["data"]), A)
    assert r.body["metadata"] == load_json(tmp_path / "s/a/zarr.json")
    r = client.call(
        "read", store=store(tmp_path / "s"), format="v3", node="b", output=str(tmp_path / "b.npy")
    )
    assert r.ok and np.load(r.body["data"]).tolist() == [True, False, True]
    r = client.call(
        "read", store=store(tmp_path / "s"), format="v3", node="z", output=str(tmp_path / "z.npy")
    )
    zero_d = np.load(r.body["data"])
    assert zero_d.shape == () and zero_d.dtype == np.dtype("<f8") and zero_d[()] == -2.5


def test_reads_fortran_order_v2_in_c_order(adapter_clients, tmp_path):
    # a v2 array stored in F order comes out of zarr.get with F strides: the .npy must be C order
    folder = tmp_path / "v2"
    folder.mkdir()
    (folder / ".zarray").write_text(
        '{"zarr_format": 2, "shape": [2, 3], "chunks": [2, 3], "dtype": ">u2",'
        ' "compressor": null, "fill_value": 0, "order": "F", "filters": null}'
    )
    data = (np.arange(6).reshape(2, 3) + 300).astype(">u2")
    (folder / "0.0").write_bytes(data.tobytes(order="F"))
    r = adapter_clients("zarrita-js").call(
        "read", store=store(folder), format="v2", node="", output=str(tmp_path / "o.npy")
    )
    assert r.ok, r.describe_error()
    assert same_bits(np.load(r.body["data"]), data)


def test_write_then_zarrita_reads_it(adapter_clients, tmp_path):
    np.save(tmp_path / "in.npy", np.asfortranarray(A.astype(">i4")))  # F-ordered, big-endian input
    metadata = {
        "zarr_format": 3,
        "node_type": "array",
        "shape": [5, 7],
        "data_type": "int32",
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [5, 7]}},
        "chunk_key_encoding": {"name": "default", "configuration": {"separator": "."}},
        "fill_value": 0,
        "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}],
    }
    r = adapter_clients("zarrita-js").call(
        "write",
        store=store(tmp_path / "w"),
        format="v3",
        node_type="array",
        path="arr",
        metadata=metadata,
        attributes={"u": 1},
        data=str(tmp_path / "in.npy"),
    )
    assert r.ok, r.describe_error()
    assert (tmp_path / "w/arr/c.0.0").read_bytes() == A.astype("<i4").tobytes()
    assert load_json(tmp_path / "w/arr/zarr.json")["attributes"] == {"u": 1}
    dtype, values = run_node("zarrita-js", READ_BACK, str(tmp_path / "w"), "arr").split()
    assert dtype == "int32" and [int(v) for v in values.split(",")] == A.ravel().tolist()


def verdict(body: dict) -> str:
    """What the harness makes of a failed response under adapter.toml [[errors]]."""
    return judge_refusal(find_adapter("zarrita-js"), body).verdict


def test_what_zarrita_cannot_do_is_unsupported(adapter_clients, tmp_path):
    run_node("zarrita-js", WRITE, str(tmp_path / "s"))
    client = adapter_clients("zarrita-js")
    # no listing without consolidated metadata: the adapter's own answer, declared
    r = client.call("list", store=store(tmp_path / "s"), format="v3", node="")
    assert not r.ok and r.unsupported
    assert r.body["error"]["type"] == "Unsupported" and r.body["error"]["origin"] == "adapter"
    assert verdict(r.body) == "unsupported"
    # gzip has no encoder in zarrita: zarrita's error as it is, mapped to unsupported by [[errors]]
    np.save(tmp_path / "in.npy", np.zeros(2, dtype="<i4"))
    metadata = {
        "zarr_format": 3,
        "node_type": "array",
        "shape": [2],
        "data_type": "int32",
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2]}},
        "chunk_key_encoding": {"name": "default"},
        "fill_value": 1,
        "codecs": [
            {"name": "bytes", "configuration": {"endian": "little"}},
            {"name": "gzip", "configuration": {"level": 1}},
        ],
    }
    r = client.call(
        "write",
        store=store(tmp_path / "w"),
        format="v3",
        node_type="array",
        path="",
        metadata=metadata,
        attributes={},
        data=str(tmp_path / "in.npy"),
    )
    assert not r.ok and not r.unsupported, r.body
    error = r.body["error"]
    assert error["type"] == "CodecPipelineError" and error["origin"] == "implementation", error
    assert "(cause: UnsupportedError: " in error["message"] and verdict(r.body) == "unsupported"
    r = client.call(
        "write",
        store=store(tmp_path / "w2"),
        format="v2",
        node_type="group",
        path="",
        metadata=None,
        attributes={},
        data=None,
    )
    assert not r.ok and r.unsupported and verdict(r.body) == "unsupported"


def test_every_unsupported_answer_is_declared(adapter_clients, tmp_path):
    # formats zarrita does not implement
    client = adapter_clients("zarrita-js")
    (tmp_path / "s").mkdir()
    for fmt in ("v1", "v3-draft"):
        r = client.call(
            "read", store=store(tmp_path / "s"), format=fmt, node="", output=str(tmp_path / "o.npy")
        )
        assert not r.ok and r.unsupported and verdict(r.body) == "unsupported", r.body
    # what zarr.create cannot express
    metadata = {
        "zarr_format": 3,
        "node_type": "array",
        "shape": [2],
        "data_type": "int32",
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2]}},
        "chunk_key_encoding": {"name": "v2"},
        "fill_value": 0,
        "codecs": [{"name": "bytes"}],
    }
    r = client.call(
        "write",
        store=store(tmp_path / "w"),
        format="v3",
        node_type="array",
        path="",
        metadata=metadata,
        attributes={},
        data=None,
    )
    assert not r.ok and r.unsupported and verdict(r.body) == "unsupported", r.body


INVALID_GROUPS = {
    # zarrita opens any zarr.json whose node_type is not "array" as a group, whatever zarr_format says
    "dataset": (
        {"zarr_format": 3, "node_type": "dataset", "attributes": {"a": 1}},
        {"attributes": {"a": 1}},
    ),
    "format-2": ({"zarr_format": 2, "node_type": "group"}, {"attributes": None}),
    "list-attributes": (
        {"zarr_format": 3, "node_type": "group", "attributes": [1, 2]},
        {"attributes": None, "attributes_as_read": [1, 2]},
    ),
}


@pytest.mark.parametrize("name", sorted(INVALID_GROUPS))
def test_invalid_group_document_is_reported_as_what_zarrita_opened(adapter_clients, tmp_path, name):
    document, want = INVALID_GROUPS[name]
    (tmp_path / "g").mkdir()
    (tmp_path / "g/zarr.json").write_text(json.dumps(document))
    r = adapter_clients("zarrita-js").call(
        "read", store=store(tmp_path / "g"), format="v3", node="", output=str(tmp_path / "o.npy")
    )
    assert r.ok and not r.unsupported, r.body
    body = r.body
    assert body["node_type"] == "group"
    assert body["members"] is None  # no consolidated metadata: zarrita has no listing
    for key, value in want.items():
        assert body[key] == value and type(body[key]) is type(value), (key, body)


def test_group_members_from_consolidated_metadata(adapter_clients, tmp_path):
    folder = tmp_path / "c"
    (folder / "a").mkdir(parents=True)
    zarray = {
        "zarr_format": 2,
        "shape": [2],
        "chunks": [2],
        "dtype": "<i4",
        "compressor": None,
        "fill_value": 0,
        "order": "C",
        "filters": None,
    }
    (folder / ".zgroup").write_text('{"zarr_format": 2}')
    (folder / "a/.zarray").write_text(json.dumps(zarray))
    (folder / ".zmetadata").write_text(
        json.dumps(
            {
                "zarr_consolidated_format": 1,
                "metadata": {
                    ".zgroup": {"zarr_format": 2},
                    ".zattrs": {"t": 1},
                    "a/.zarray": zarray,
                    "g/.zgroup": {"zarr_format": 2},
                },
            }
        )
    )
    r = adapter_clients("zarrita-js").call(
        "read", store=store(folder), format="v2", node="", output=str(tmp_path / "o.npy")
    )
    assert r.ok and r.body["node_type"] == "group", r.body
    body = r.body
    assert body["members"] == {"a": "array", "g": "group"}


def test_crash_types_carry_their_origin(adapter_clients, tmp_path):
    client = adapter_clients("zarrita-js")
    # zarrita reads chunk_grid.configuration.chunk_shape without checking: a TypeError in zarrita
    (tmp_path / "s").mkdir()
    (tmp_path / "s/zarr.json").write_text(
        json.dumps(
            {
                "zarr_format": 3,
                "node_type": "array",
                "shape": [2],
                "data_type": "int32",
                "chunk_grid": {"name": "regular"},
                "chunk_key_encoding": {"name": "default"},
                "fill_value": 0,
                "codecs": [{"name": "bytes"}],
            }
        )
    )
    r = client.call(
        "read", store=store(tmp_path / "s"), format="v3", node="", output=str(tmp_path / "o.npy")
    )
    assert not r.ok and not r.unsupported
    assert (
        r.body["error"]["type"] == "TypeError" and r.body["error"]["origin"] == "implementation"
    ), r.body
    assert verdict(r.body) == "crash"
    # the same omission in the adapter's own translation of a write request: origin "adapter"
    metadata = {
        "zarr_format": 3,
        "node_type": "array",
        "shape": [2],
        "data_type": "int32",
        "chunk_grid": {"name": "regular"},
        "chunk_key_encoding": {"name": "default"},
        "fill_value": 0,
        "codecs": [{"name": "bytes"}],
    }
    r = client.call(
        "write",
        store=store(tmp_path / "w"),
        format="v3",
        node_type="array",
        path="",
        metadata=metadata,
        attributes={},
        data=None,
    )
    assert not r.ok and not r.unsupported
    assert r.body["error"]["type"] == "TypeError" and r.body["error"]["origin"] == "adapter", r.body
    assert verdict(r.body) == "crash"


API_STORE = """
import * as zarr from "zarrita";
import { FileSystemStore } from "@zarrita/storage";
let root = zarr.root(new FileSystemStore(process.argv[2]));
await zarr.create(root.resolve("f"), { shape: [4, 3], chunkShape: [3, 2], dtype: "float32", fillValue: NaN,
  codecs: [{ name: "bytes", configuration: { endian: "big" } }], dimensionNames: ["y", null] });
// a number: zarr.create cannot serialise a BigInt fill (a known failure); zarrita reads it back as -2n
await zarr.create(root.resolve("i"), { shape: [5], chunkShape: [5], dtype: "int64", fillValue: -2,
  codecs: [{ name: "bytes", configuration: { endian: "little" } }] });
await zarr.create(root.resolve("s"), { shape: [8], chunkShape: [4], dtype: "uint16", fillValue: 7,
  codecs: [{ name: "sharding_indexed", configuration: { chunk_shape: [2], codecs: [{ name: "bytes", configuration: { endian: "little" } }],
    index_codecs: [{ name: "bytes", configuration: { endian: "little" } }] } }] });
"""


def test_api_members_come_from_zarritas_array(adapter_clients, tmp_path):
    run_node("zarrita-js", WRITE, str(tmp_path / "s"))
    run_node("zarrita-js", API_STORE, str(tmp_path / "s"))
    client = adapter_clients("zarrita-js")

    def api(node: str) -> dict:
        r = client.call(
            "read",
            store=store(tmp_path / "s"),
            format="v3",
            node=node,
            output=str(tmp_path / f"{node}.npy"),
        )
        assert r.ok, r.describe_error()
        return r.body["api"]

    def fill(value, dtype: str) -> dict:
        return {
            "bytes": np.asarray(value, dtype)
            .astype(np.dtype(dtype).newbyteorder("<"))
            .tobytes()
            .hex()
        }

    assert api("a") == {
        "shape": [5, 7],
        "dtype": "<i4",
        "chunk_shape": [2, 3],
        "fill_value": fill(-1, "<i4"),
    }
    assert api("b") == {
        "shape": [3],
        "dtype": "|b1",
        "chunk_shape": [2],
        "fill_value": fill(False, "|b1"),
    }
    assert api("z") == {
        "shape": [],
        "dtype": "<f8",
        "chunk_shape": [],
        "fill_value": fill(0, "<f8"),
    }
    assert api("f") == {
        "shape": [4, 3],
        "dtype": "<f4",
        "chunk_shape": [3, 2],
        "fill_value": fill(np.nan, "<f4"),
        "dimension_names": ["y", None],
    }
    assert api("i") == {
        "shape": [5],
        "dtype": "<i8",
        "chunk_shape": [5],
        "fill_value": fill(-2, "<i8"),
    }
    # sharded: zarrita's Array.chunks is the inner chunk shape, not the grid's: chunk_shape absent
    assert api("s") == {"shape": [8], "dtype": "<u2", "fill_value": fill(7, "<u2")}
