"""The zarr-python2 adapter (zarr 2.18.7 in its own venv) against stores written by zarr 2 itself:
format v2, and its experimental v3 (the early-2022 draft layout, format v3-draft); what reads report
(`api`) against what zarr 2's Array objects say; refusals as declared in adapter.toml."""

from __future__ import annotations

import json

import numpy as np
from adapter_selftest import (
    declared_unsupported,
    error_rule,
    load_json,
    pinned_version,
    run_python,
    same_bits,
    store,
)

# Writes a v2 hierarchy and a v3-draft array with zarr 2 itself (argv: v2 folder, draft folder).
WRITE = """
import os, sys
os.environ["ZARR_V3_EXPERIMENTAL_API"] = "1"
import numpy as np, zarr
from zarr._storage.v3 import DirectoryStoreV3
root = zarr.open_group(sys.argv[1], mode="w")
root.attrs["title"] = "t"
a = root.create_dataset("a", shape=(5, 7), chunks=(2, 3), dtype=">i8", fill_value=-1, order="F")
a[...] = np.arange(35).reshape(5, 7) * 10**15
s = root.create_group("g").create_dataset("s", shape=(3,), chunks=(2,), dtype="<U3", fill_value="")
s[...] = ["a", "bcd", "ef"]
d = zarr.open_array(DirectoryStoreV3(sys.argv[2]), mode="w", path="x/arr", shape=(4, 3), chunks=(3, 2),
                    dtype="<f4", fill_value=float("nan"), zarr_version=3)
d[...] = np.arange(12, dtype="<f4").reshape(4, 3) / 4
"""

# What zarr 2's Array says about a node (argv: folder, path, zarr_version).
REPORT = """
import os, sys, json
os.environ["ZARR_V3_EXPERIMENTAL_API"] = "1"
import numpy as np, zarr
from zarr._storage.v3 import DirectoryStoreV3
zv = int(sys.argv[3])
st = DirectoryStoreV3(sys.argv[1]) if zv == 3 else zarr.storage.DirectoryStore(sys.argv[1])
a = zarr.open_array(st, mode="r", path=sys.argv[2], zarr_version=zv)
fill = np.asarray(a.fill_value, dtype=a.dtype).astype(a.dtype.newbyteorder("<")).tobytes().hex()
print(json.dumps({"shape": list(a.shape), "dtype": a.dtype.str, "chunks": list(a.chunks), "fill": fill}))
"""

READ_BACK = """
import sys, numpy as np, zarr
data = zarr.open_array(sys.argv[1], mode="r", path=sys.argv[2])[...]
print(data.dtype.str, data.tobytes().hex())
"""


def test_describe(adapter_clients):
    body = adapter_clients("zarr-python2").call("describe").body
    assert body["version"] == pinned_version("zarr-python2", "zarr")
    assert body["versions"]["numcodecs"] == pinned_version("zarr-python2", "numcodecs")


def test_read_v2_and_draft_stores_written_by_zarr2(adapter_clients, tmp_path):
    run_python("zarr-python2", WRITE, str(tmp_path / "v2"), str(tmp_path / "draft"))
    client = adapter_clients("zarr-python2")
    r = client.call(
        "read", store=store(tmp_path / "v2"), format="v2", node="a", output=str(tmp_path / "a.npy")
    )
    assert r.ok, r.describe_error()
    assert same_bits(np.load(r.body["data"]), np.arange(35, dtype=">i8").reshape(5, 7) * 10**15)
    assert r.body["metadata"] == load_json(tmp_path / "v2/a/.zarray")
    lib = json.loads(run_python("zarr-python2", REPORT, str(tmp_path / "v2"), "a", "2"))
    assert r.body["api"] == {
        "shape": lib["shape"],
        "dtype": lib["dtype"],
        "chunk_shape": lib["chunks"],
        "fill_value": {"bytes": lib["fill"]},
    }
    assert r.body["api"] == {
        "shape": [5, 7],
        "dtype": ">i8",
        "chunk_shape": [2, 3],
        "fill_value": {"bytes": "ff" * 8},
    }  # no dimension names in zarr 2
    r = client.call(
        "read",
        store=store(tmp_path / "v2"),
        format="v2",
        node="g/s",
        output=str(tmp_path / "s.npy"),
    )
    assert r.ok and np.load(r.body["data"]).tolist() == ["a", "bcd", "ef"]
    assert r.body["api"]["dtype"] == "<U3" and r.body["api"]["fill_value"] == {"bytes": "00" * 12}
    r = client.call(
        "read", store=store(tmp_path / "v2"), format="v2", node="", output=str(tmp_path / "r.npy")
    )
    assert r.body["node_type"] == "group" and r.body["attributes"] == {"title": "t"}
    assert r.body["members"] == {"a": "array", "g": "group"}
    r = client.call("list", store=store(tmp_path / "v2"), format="v2", node="")
    assert r.body["nodes"] == {"": "group", "a": "array", "g": "group", "g/s": "array"}
    r = client.call(
        "read",
        store=store(tmp_path / "draft"),
        format="v3-draft",
        node="x/arr",
        output=str(tmp_path / "d.npy"),
    )
    assert r.ok, r.describe_error()
    assert same_bits(np.load(r.body["data"]), np.arange(12, dtype="<f4").reshape(4, 3) / 4)
    assert r.body["metadata"] == load_json(tmp_path / "draft/meta/root/x/arr.array.json")
    lib = json.loads(run_python("zarr-python2", REPORT, str(tmp_path / "draft"), "x/arr", "3"))
    assert r.body["api"] == {
        "shape": lib["shape"],
        "dtype": lib["dtype"],
        "chunk_shape": lib["chunks"],
        "fill_value": {"bytes": lib["fill"]},
    }
    assert r.body["api"]["fill_value"] == {"bytes": "0000c07f"}  # float32 NaN


def test_write_v2_exact_bytes_and_read_back_by_zarr2(adapter_clients, tmp_path):
    data = np.arange(12, dtype="<i2").reshape(3, 4) - 6
    np.save(tmp_path / "in.npy", data)
    metadata = {
        "zarr_format": 2,
        "shape": [3, 4],
        "chunks": [3, 4],
        "dtype": ">i2",
        "compressor": None,
        "fill_value": 0,
        "order": "C",
        "filters": None,
    }
    r = adapter_clients("zarr-python2").call(
        "write",
        store=store(tmp_path / "w"),
        format="v2",
        node_type="array",
        path="p/q",
        metadata=metadata,
        attributes={"u": "m"},
        data=str(tmp_path / "in.npy"),
    )
    assert r.ok, r.describe_error()
    assert (tmp_path / "w/p/q/0.0").read_bytes() == data.astype(">i2").tobytes()
    assert load_json(tmp_path / "w/p/q/.zattrs") == {"u": "m"}
    assert (tmp_path / "w/p/.zgroup").is_file() and (tmp_path / "w/.zgroup").is_file()
    dtype, hexbytes = run_python("zarr-python2", READ_BACK, str(tmp_path / "w"), "p/q").split()
    assert same_bits(np.frombuffer(bytes.fromhex(hexbytes), dtype).reshape(3, 4), data)


def test_write_draft_layout(adapter_clients, tmp_path):
    data = np.arange(6, dtype="<f8").reshape(2, 3)
    np.save(tmp_path / "in.npy", data)
    metadata = {
        "shape": [2, 3],
        "data_type": "<f8",
        "chunk_grid": {"type": "regular", "chunk_shape": [2, 3], "separator": "/"},
        "chunk_memory_layout": "C",
        "fill_value": "NaN",
        "extensions": [],
        "attributes": {},
    }
    r = adapter_clients("zarr-python2").call(
        "write",
        store=store(tmp_path / "w"),
        format="v3-draft",
        node_type="array",
        path="arr",
        metadata=metadata,
        attributes={"k": 1},
        data=str(tmp_path / "in.npy"),
    )
    assert r.ok, r.describe_error()
    assert (
        load_json(tmp_path / "w/zarr.json")["zarr_format"]
        == "https://purl.org/zarr/spec/protocol/core/3.0"
    )
    assert load_json(tmp_path / "w/meta/root/arr.array.json")["attributes"] == {"k": 1}
    assert (tmp_path / "w/data/root/arr/c0/0").read_bytes() == data.tobytes()


def test_seed002_layout_and_ambiguous_draft_writes_are_unsupported(adapter_clients, tmp_path):
    # format v3-draft names two drafts; zarr 2 implements only the early-2022 one
    (tmp_path / "zarr.json").write_text(
        '{"zarr_format": "https://purl.org/zarr/spec/core/3.0", '
        '"metadata_encoding": {"type": "json"}, "extensions": []}'
    )
    client = adapter_clients("zarr-python2")
    r = client.call(
        "read", store=store(tmp_path), format="v3-draft", node="", output=str(tmp_path / "o.npy")
    )
    assert not r.ok and r.unsupported and "early-2022" in r.error_message
    assert declared_unsupported("zarr-python2", r.body)
    seed002 = {
        "shape": [2],
        "data_type": "float64",
        "chunk_grid": {"type": "regular", "chunk_shape": [2], "separator": "/"},
        "chunk_memory_layout": "C",
        "fill_value": 0,
        "extensions": [],
        "attributes": {},
        "codecs": [],
    }
    r = client.call(
        "write",
        store=store(tmp_path / "w"),
        format="v3-draft",
        node_type="array",
        path="a",
        metadata=seed002,
        attributes={},
        data=None,
    )
    assert not r.ok and r.unsupported and declared_unsupported("zarr-python2", r.body)
    r = client.call(
        "write",
        store=store(tmp_path / "w"),
        format="v3-draft",
        node_type="group",
        path="g",
        metadata=None,
        attributes={},
        data=None,
    )
    assert not r.ok and r.unsupported and declared_unsupported("zarr-python2", r.body)


def test_an_unreadable_entry_point_is_zarr2s_to_refuse(adapter_clients, tmp_path):
    # the adapter reads zarr.json itself to tell the two drafts apart; a document that is not JSON
    # must not be refused by that peek (it would pass for zarr 2's refusal): zarr 2 decides
    (tmp_path / "zarr.json").write_text('{"zarr_format": ')
    r = adapter_clients("zarr-python2").call(
        "read",
        store=store(tmp_path),
        format="v3-draft",
        node="",
        output=str(tmp_path.parent / "o.npy"),
    )
    assert not r.ok and not r.unsupported
    assert r.body["error"]["origin"] == "implementation", r.body
    assert error_rule("zarr-python2", r.body).category == "metadata"


def test_reads_never_modify_the_store(adapter_clients, tmp_path):
    # zarr 2's v3 API writes a default zarr.json entry point into any store it opens, even with
    # mode "r": the adapter must keep that write away from the store it was asked to read
    (tmp_path / "meta" / "root").mkdir(parents=True)
    (tmp_path / "meta" / "root" / "g.group.json").write_text('{"attributes": {}}')
    before = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*"))
    adapter_clients("zarr-python2").call(
        "read",
        store=store(tmp_path),
        format="v3-draft",
        node="g",
        output=str(tmp_path.parent / "o.npy"),
    )
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")) == before


def test_final_v3_is_a_declared_unsupported(adapter_clients, tmp_path):
    r = adapter_clients("zarr-python2").call(
        "read", store=store(tmp_path), format="v3", node="", output=str(tmp_path / "o.npy")
    )
    assert not r.ok and r.unsupported
    assert r.body["error"]["origin"] == "adapter" and declared_unsupported("zarr-python2", r.body)
