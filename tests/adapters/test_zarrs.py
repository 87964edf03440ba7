"""The zarrs adapter (zarrista) against arrays and groups written by zarrista itself, and what it
writes read back by zarrista and checked byte for byte; what reads report (`api`, attributes,
members, the node list) against what zarrista's own objects say; errors as zarrista raised them;
the bench operation on its memory store."""

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

DATA = np.arange(24, dtype="<u2").reshape(4, 6) * 1000 + 7

V3 = {
    "zarr_format": 3,
    "node_type": "array",
    "shape": [4, 6],
    "data_type": "uint16",
    "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [3, 4]}},
    "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
    "fill_value": 65535,
    "codecs": [
        {"name": "transpose", "configuration": {"order": [1, 0]}},
        {"name": "bytes", "configuration": {"endian": "little"}},
        {"name": "gzip", "configuration": {"level": 5}},
    ],
    "dimension_names": ["y", None],
}
V2 = {
    "zarr_format": 2,
    "shape": [4, 6],
    "chunks": [3, 4],
    "dtype": ">u2",
    "compressor": None,
    "fill_value": 65535,
    "order": "F",
    "filters": None,
    "dimension_separator": "/",
}

# Writes DATA with zarrista itself at g/arr under a v3 root group with a child group
# (argv: folder, metadata JSON); group documents by hand: zarrista cannot create groups.
WRITE = """
import sys, json, os, numpy as np, zarrista
from zarrista.store import FilesystemStore
folder, metadata = sys.argv[1], json.loads(sys.argv[2])
if metadata["zarr_format"] == 3:
    for key in ("zarr.json", "g/zarr.json", "g/sub/zarr.json"):
        os.makedirs(os.path.dirname(os.path.join(folder, key)), exist_ok=True)
        with open(os.path.join(folder, key), "w") as f:
            json.dump({"zarr_format": 3, "node_type": "group", "attributes": {"t": key}}, f)
array = zarrista.Array.from_metadata(dict(metadata, attributes={"a": [1, 2]}), FilesystemStore(folder), "/g/arr")
array.store_metadata()
array.store_array_subset(..., np.arange(24, dtype="<u2").reshape(4, 6) * 1000 + 7)
"""

# What zarrista's Array says about g/arr (argv: folder): shape, chunk grid, fill bytes, dimension
# names, attributes.
REPORT = """
import sys, json, zarrista
from zarrista.store import FilesystemStore
a = zarrista.Array.open(FilesystemStore(sys.argv[1]), "/g/arr")
print(json.dumps({"shape": a.shape, "grid": a.chunk_grid.metadata, "fill": a.fill_value.as_bytes().hex(),
                  "names": a.dimension_names, "attrs": a.attrs}))
"""

# What zarrista's Group says about g (argv: folder): arrays, groups, every node below.
GROUP = """
import sys, json, zarrista
from zarrista.store import FilesystemStore
g = zarrista.Group.open(FilesystemStore(sys.argv[1]), "/g")
print(json.dumps({"arrays": g.array_keys(), "groups": g.group_keys(), "attrs": g.attrs,
                  "below": sorted(n.path for n in g.traverse())}))
"""

READ_BACK = """
import sys, zarrista
from zarrista.store import FilesystemStore
data = zarrista.Array.open(FilesystemStore(sys.argv[1]), sys.argv[2]).retrieve_array_subset(...).to_numpy()
print(data.dtype.str, data.tobytes().hex())
"""


def write_with_zarrista(folder, metadata) -> None:
    run_python("zarrs", WRITE, str(folder), json.dumps(metadata))


def test_describe(adapter_clients):
    body = adapter_clients("zarrs").call("describe").body
    assert body["version"] == pinned_version("zarrs", "zarrista")
    assert body["versions"]["zarrista"] == body["version"]
    # the zarrs crate version zarrista bundles, as zarrs records it in what it writes
    assert body["versions"]["zarrs"] == "0.23.13"


@pytest.mark.parametrize("metadata", [V3, V2], ids=["v3", "v2"])
def test_read_what_zarrista_wrote(adapter_clients, tmp_path, metadata):
    write_with_zarrista(tmp_path, metadata)
    fmt = "v3" if metadata["zarr_format"] == 3 else "v2"
    r = adapter_clients("zarrs").call(
        "read", store=store(tmp_path), format=fmt, node="g/arr", output=str(tmp_path / "o.npy")
    )
    assert r.ok, r.describe_error()
    assert same_bits(np.load(r.body["data"]), DATA)
    doc = "zarr.json" if fmt == "v3" else ".zarray"
    assert r.body["metadata"] == load_json(tmp_path / "g" / "arr" / doc)  # the stored document
    zarrista_says = json.loads(run_python("zarrs", REPORT, str(tmp_path)))
    api = r.body["api"]
    assert api["shape"] == zarrista_says["shape"] == [4, 6]
    assert api["chunk_shape"] == zarrista_says["grid"]["configuration"]["chunk_shape"] == [3, 4]
    assert api["fill_value"] == {"bytes": zarrista_says["fill"]} == {"bytes": "ffff"}
    assert api["dtype"] in ("<u2", ">u2")  # the harness compares it regardless of byte order
    assert r.body["attributes"] == zarrista_says["attrs"]
    assert r.body["attributes"]["a"] == [1, 2] and "_zarrs" in r.body["attributes"]
    if fmt == "v3":
        assert api["dimension_names"] == zarrista_says["names"] == ["y", None]
    else:
        assert "dimension_names" not in api


def test_read_from_a_zip_store(adapter_clients, tmp_path):
    write_with_zarrista(tmp_path / "d", V3)
    with zipfile.ZipFile(tmp_path / "s.zip", "w") as archive:
        for path in sorted((tmp_path / "d").rglob("*")):
            if path.is_file():
                archive.write(path, path.relative_to(tmp_path / "d").as_posix())
    r = adapter_clients("zarrs").call(
        "read",
        store=store(tmp_path / "s.zip", "zip"),
        format="v3",
        node="g/arr",
        output=str(tmp_path / "o.npy"),
    )
    assert r.ok, r.describe_error()
    assert same_bits(np.load(r.body["data"]), DATA)
    assert r.body["metadata"] == load_json(tmp_path / "d" / "g" / "arr" / "zarr.json")


def test_groups_and_the_node_list_come_from_zarrista(adapter_clients, tmp_path):
    write_with_zarrista(tmp_path, V3)
    client = adapter_clients("zarrs")
    r = client.call("read", store=store(tmp_path), format="v3", node="g", output="unused.npy")
    assert r.ok, r.describe_error()
    zarrista_says = json.loads(run_python("zarrs", GROUP, str(tmp_path)))
    assert r.body["node_type"] == "group"
    assert r.body["members"] == {"arr": "array", "sub": "group"}
    assert sorted(r.body["members"]) == sorted(zarrista_says["arrays"] + zarrista_says["groups"])
    assert r.body["attributes"] == zarrista_says["attrs"] == {"t": "g/zarr.json"}
    assert r.body["metadata"] == load_json(tmp_path / "g" / "zarr.json")
    r = client.call("list", store=store(tmp_path), format="v3", node="")
    assert r.ok, r.describe_error()
    assert r.body["nodes"] == {"": "group", "g": "group", "g/arr": "array", "g/sub": "group"}
    below = {f"/{path}" for path in r.body["nodes"] if path.startswith("g/")}
    assert below == set(zarrista_says["below"])


@pytest.mark.parametrize("metadata", [V3, V2], ids=["v3", "v2"])
def test_write_then_zarrista_reads_it(adapter_clients, tmp_path, metadata):
    np.save(tmp_path / "in.npy", DATA)
    fmt = "v3" if metadata["zarr_format"] == 3 else "v2"
    r = adapter_clients("zarrs").call(
        "write",
        store=store(tmp_path / "w"),
        format=fmt,
        node_type="array",
        path="arr",
        metadata=metadata,
        attributes={"a": 1},
        data=str(tmp_path / "in.npy"),
    )
    assert r.ok, r.describe_error()
    dtype, hexbytes = run_python("zarrs", READ_BACK, str(tmp_path / "w"), "/arr").split()
    assert same_bits(np.frombuffer(bytes.fromhex(hexbytes), dtype).reshape(4, 6), DATA)
    if fmt == "v3":
        doc = load_json(tmp_path / "w/arr/zarr.json")
        assert doc["codecs"] == V3["codecs"] and doc["attributes"]["a"] == 1
        import gzip

        # the chunk (0, 0) holds the transposed block, gzipped
        raw = gzip.decompress((tmp_path / "w/arr/c/0/0").read_bytes())
        assert raw == np.ascontiguousarray(DATA[:3, :4].T).astype("<u2").tobytes()
    else:
        assert load_json(tmp_path / "w/arr/.zattrs")["a"] == 1
        raw = (tmp_path / "w/arr/0/0").read_bytes()  # no compressor: F order, big-endian
        assert raw == np.asfortranarray(DATA[:3, :4]).astype(">u2").tobytes(order="F")


def test_strings_travel_both_ways(adapter_clients, tmp_path):
    metadata = dict(
        V3,
        shape=[5],
        data_type="string",
        chunk_grid={"name": "regular", "configuration": {"chunk_shape": [2]}},
        fill_value="",
        codecs=[{"name": "vlen-utf8"}],
        dimension_names=None,
    )
    values = ["a", "", "日本語", "ü" * 7, "z"]
    (tmp_path / "in.json").write_text(
        json.dumps({"shape": [5], "kind": "string", "values": values})
    )
    client = adapter_clients("zarrs")
    r = client.call(
        "write",
        store=store(tmp_path / "w"),
        format="v3",
        node_type="array",
        path="",
        metadata=metadata,
        attributes={},
        data=str(tmp_path / "in.json"),
    )
    assert r.ok, r.describe_error()
    r = client.call(
        "read", store=store(tmp_path / "w"), format="v3", node="", output=str(tmp_path / "o.npy")
    )
    assert r.ok, r.describe_error()
    assert r.body["data"].endswith(".json") and r.body["dtype"] == "|O"
    assert load_json(r.body["data"])["values"] == values
    assert r.body["api"]["fill_value"] == {"value": ""}


def test_requests_outside_zarrista_are_declared_unsupported(adapter_clients, tmp_path):
    client = adapter_clients("zarrs")
    for request in (
        {"format": "v3", "node_type": "group", "store": store(tmp_path / "g")},
        {"format": "v3", "node_type": "array", "store": store(tmp_path / "z.zip", "zip")},
        {"format": "v1", "node_type": "array", "store": store(tmp_path / "v1")},
    ):
        r = client.call(
            "write",
            path="",
            metadata=V3 if request["node_type"] == "array" else None,
            attributes={},
            data=None,
            **request,
        )
        assert not r.ok and r.unsupported and declared_unsupported("zarrs", r.body), r.body
        assert r.body["error"]["origin"] == "adapter"


def test_errors_are_zarristas_classified_by_class(adapter_clients, tmp_path):
    client = adapter_clients("zarrs")
    crc = dict(
        V3,
        codecs=[{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "crc32c"}],
    )
    (tmp_path / "crc" / "c" / "0").mkdir(parents=True)
    (tmp_path / "crc" / "zarr.json").write_text(json.dumps(crc))
    (tmp_path / "crc" / "c" / "0" / "0").write_bytes(bytes(3 * 4 * 2) + b"\0\0\0\0")  # bad checksum
    r = client.call(
        "read", store=store(tmp_path), format="v3", node="crc", output=str(tmp_path / "o.npy")
    )
    assert not r.ok and not r.unsupported, r.body
    assert r.body["error"]["module"].startswith("zarrista") and r.error_type == "ArrayError"
    assert r.body["error"]["origin"] == "implementation"
    assert error_rule("zarrs", r.body).category == "chunk-data"
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "zarr.json").write_text(json.dumps(dict(V3, shape=[-1, 6])))
    r = client.call(
        "read", store=store(tmp_path), format="v3", node="bad", output=str(tmp_path / "o.npy")
    )
    assert not r.ok and not r.unsupported and r.error_type == "ArrayCreateError", r.body
    assert error_rule("zarrs", r.body).category == "metadata"
    # a codec zarrs does not implement: a declared unsupported refusal, by zarrs
    (tmp_path / "lz4").mkdir()
    (tmp_path / "lz4" / ".zarray").write_text(
        json.dumps(dict(V2, compressor={"id": "lz4", "acceleration": 1}))
    )
    r = client.call(
        "read", store=store(tmp_path), format="v2", node="lz4", output=str(tmp_path / "o.npy")
    )
    assert not r.ok and r.body["error"]["origin"] == "implementation"
    assert declared_unsupported("zarrs", r.body), r.body
    # zarrista's to_numpy crashes on r16 (a known failure): a crash of the implementation's, not
    # the adapter's
    (tmp_path / "r16" / "c").mkdir(parents=True)
    (tmp_path / "r16" / "zarr.json").write_text(
        json.dumps(
            dict(
                V3,
                shape=[2],
                data_type="r16",
                fill_value=[0, 0],
                chunk_grid={"name": "regular", "configuration": {"chunk_shape": [2]}},
                codecs=[{"name": "bytes"}],
                dimension_names=None,
            )
        )
    )
    (tmp_path / "r16" / "c" / "0").write_bytes(b"\1\2\3\4")
    r = client.call(
        "read", store=store(tmp_path), format="v3", node="r16", output=str(tmp_path / "o.npy")
    )
    assert (
        not r.ok and r.error_type == "TypeError" and r.body["error"]["origin"] == "implementation"
    )


@pytest.mark.parametrize("kind", ["memory", "directory"])
def test_bench_writes_and_reads_through_zarrista(adapter_clients, tmp_path, kind):
    client = adapter_clients("zarrs")
    metadata = dict(V3, codecs=V3["codecs"][1:], dimension_names=None)  # bytes + gzip
    np.save(tmp_path / "in.npy", DATA)
    target = {"kind": kind, "location": "bench" if kind == "memory" else str(tmp_path / "w")}
    r = client.call(
        "bench",
        operation="write",
        store=target,
        format="v3",
        path="",
        metadata=metadata,
        data=str(tmp_path / "in.npy"),
        **({"dump": str(tmp_path / "w")} if kind == "memory" else {}),
    )
    assert r.ok, r.describe_error()
    assert r.body["seconds"] > 0 and r.body["settings"]["store"].endswith("Store")
    dtype, hexbytes = run_python("zarrs", READ_BACK, str(tmp_path / "w"), "/").split()
    assert same_bits(np.frombuffer(bytes.fromhex(hexbytes), dtype).reshape(4, 6), DATA)
    regions = [[[0, 2], [1, 4]], [[2, 4], [3, 6]]]
    r = client.call(
        "bench",
        operation="read",
        store=target if kind == "memory" else store(tmp_path / "w"),
        format="v3",
        path="",
        metadata=metadata,
        source=str(tmp_path / "w"),
        regions=regions,
        output=str(tmp_path / "o.npy"),
    )
    assert r.ok, r.describe_error()
    want = np.stack([DATA[a:b, c:d] for (a, b), (c, d) in regions])
    assert same_bits(np.load(r.body["data"]), want)
