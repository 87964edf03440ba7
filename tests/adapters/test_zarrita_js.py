"""The zarrita-js adapter (Node harness.mjs over the npm package zarrita) against stores written by
zarrita itself, and its writes read back by zarrita; its hand-written .npy files are checked by
numpy."""

from __future__ import annotations

import numpy as np

from adapter_selftest import load_json, pinned_version, run_node, same_bits, store

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
    r = client.call("read", store=store(tmp_path / "s"), format="v3", node="a", output=str(tmp_path / "a.npy"))
    assert r.ok, r.describe_error()
    assert r.body["attributes"] == {"k": [1, 2]} and r.body["dtype"] == "<i4"
    assert same_bits(np.load(r.body["data"]), A)
    assert r.body["metadata"] == load_json(tmp_path / "s/a/zarr.json")
    r = client.call("read", store=store(tmp_path / "s"), format="v3", node="b", output=str(tmp_path / "b.npy"))
    assert r.ok and np.load(r.body["data"]).tolist() == [True, False, True]
    r = client.call("read", store=store(tmp_path / "s"), format="v3", node="z", output=str(tmp_path / "z.npy"))
    zero_d = np.load(r.body["data"])
    assert zero_d.shape == () and zero_d.dtype == np.dtype("<f8") and zero_d[()] == -2.5


def test_reads_fortran_order_v2_in_c_order(adapter_clients, tmp_path):
    # a v2 array stored in F order comes out of zarr.get with F strides: the .npy must be C order
    folder = tmp_path / "v2"
    folder.mkdir()
    (folder / ".zarray").write_text('{"zarr_format": 2, "shape": [2, 3], "chunks": [2, 3], "dtype": ">u2",'
                                    ' "compressor": null, "fill_value": 0, "order": "F", "filters": null}')
    data = (np.arange(6).reshape(2, 3) + 300).astype(">u2")
    (folder / "0.0").write_bytes(data.tobytes(order="F"))
    r = adapter_clients("zarrita-js").call("read", store=store(folder), format="v2", node="",
                                           output=str(tmp_path / "o.npy"))
    assert r.ok, r.describe_error()
    assert same_bits(np.load(r.body["data"]), data)


def test_write_then_zarrita_reads_it(adapter_clients, tmp_path):
    np.save(tmp_path / "in.npy", np.asfortranarray(A.astype(">i4")))  # F-ordered, big-endian input
    metadata = {"zarr_format": 3, "node_type": "array", "shape": [5, 7], "data_type": "int32",
                "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [5, 7]}},
                "chunk_key_encoding": {"name": "default", "configuration": {"separator": "."}},
                "fill_value": 0, "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}]}
    r = adapter_clients("zarrita-js").call("write", store=store(tmp_path / "w"), format="v3", node_type="array",
                                           path="arr", metadata=metadata, attributes={"u": 1},
                                           data=str(tmp_path / "in.npy"))
    assert r.ok, r.describe_error()
    assert (tmp_path / "w/arr/c.0.0").read_bytes() == A.astype("<i4").tobytes()
    assert load_json(tmp_path / "w/arr/zarr.json")["attributes"] == {"u": 1}
    dtype, values = run_node("zarrita-js", READ_BACK, str(tmp_path / "w"), "arr").split()
    assert dtype == "int32" and [int(v) for v in values.split(",")] == A.ravel().tolist()


def test_what_zarrita_cannot_do_is_unsupported(adapter_clients, tmp_path):
    run_node("zarrita-js", WRITE, str(tmp_path / "s"))
    client = adapter_clients("zarrita-js")
    # no listing without consolidated metadata
    r = client.call("list", store=store(tmp_path / "s"), format="v3", node="")
    assert not r.ok and r.unsupported
    # gzip has no encoder in zarrita
    np.save(tmp_path / "in.npy", np.zeros(2, dtype="<i4"))
    metadata = {"zarr_format": 3, "node_type": "array", "shape": [2], "data_type": "int32",
                "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2]}},
                "chunk_key_encoding": {"name": "default"}, "fill_value": 1,
                "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "gzip", "configuration": {"level": 1}}]}
    r = client.call("write", store=store(tmp_path / "w"), format="v3", node_type="array", path="",
                    metadata=metadata, attributes={}, data=str(tmp_path / "in.npy"))
    assert not r.ok and r.unsupported, r.body
    r = client.call("write", store=store(tmp_path / "w2"), format="v2", node_type="group", path="",
                    metadata=None, attributes={}, data=None)
    assert not r.ok and r.unsupported
