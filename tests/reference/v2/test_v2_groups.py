"""Groups, hierarchy, attributes and consolidated metadata (V2-GROUP-*, V2-ATTR-*, V2-KEY-007)."""

from __future__ import annotations

import json
import zipfile

import numpy as np
import pytest
from v2_helpers import make_store, zarray

from conformance.reference import DirectoryStore, ZipStore
from conformance.reference.errors import MetadataError, NodeNotFoundError, ZarrError
from conformance.reference.formats.v2 import read_consolidated, write_consolidated

GROUP = {"zarr_format": 2}


def member_fixture() -> dict:
    """The V2-GROUP-005 store."""
    return {
        "foo/.zgroup": GROUP,
        "foo/bar/.zgroup": GROUP,
        "foo/baz/.zarray": zarray(),
        "foo/qux/quux/.zarray": zarray(),
        "foo/junk": b"stray",
    }


def test_array_without_parent_zgroup(v2):  # V2-GROUP-001
    store = make_store({"a/b/.zarray": zarray()})
    with pytest.raises(NodeNotFoundError):
        v2.open_group(store, "a")
    assert v2.node_kind(store, "a") is None
    assert v2.open_array(store, "a/b").shape == (4,)


def test_create_group_creates_ancestors(v2, memory_store):  # V2-GROUP-003
    v2.create_group(memory_store, "a/b")
    assert sorted(memory_store.data) == [".zgroup", "a/.zgroup", "a/b/.zgroup"]
    assert all(json.loads(v) == GROUP for v in memory_store.data.values())  # V2-GROUP-002 (W)


def test_create_array_creates_ancestors(v2, memory_store):  # V2-GROUP-004
    v2.create_array(memory_store, "a/b/c", v2.array_metadata((4,), (2,), "<i4"))
    assert sorted(memory_store.data) == [".zgroup", "a/.zgroup", "a/b/.zgroup", "a/b/c/.zarray"]


def test_existing_ancestors_are_kept(v2, memory_store):
    v2.create_group(memory_store, "a", attributes={"keep": True})
    before = dict(memory_store.data)
    v2.create_array(memory_store, "a/b", v2.array_metadata((4,), (2,), "<i4"))
    assert all(memory_store.data[k] == v for k, v in before.items())


def test_members_are_direct_children_with_metadata(v2):  # V2-GROUP-005
    store = make_store(member_fixture())
    group = v2.open_group(store, "foo")
    assert group.children() == {"bar": "group", "baz": "array"}
    members = group.members()
    assert members["bar"].kind == "group" and members["baz"].kind == "array"


def test_hierarchy_can_be_opened_at_any_group(v2):  # V2-GROUP-006
    store = make_store(member_fixture())
    assert v2.node_kind(store, "") is None
    assert v2.open_group(store, "foo/bar").children() == {}


def test_nested_and_flat_stores_agree(v2, tmp_path):  # V2-KEY-007
    entries = member_fixture()
    entries["foo/baz/0"] = np.array([1, 2], "<i4").tobytes()
    directory = DirectoryStore(tmp_path / "d")
    for key, value in make_store(entries).data.items():
        directory.set(key, value)
    with zipfile.ZipFile(tmp_path / "f.zip", "w") as zf:
        for key, value in make_store(entries).data.items():
            zf.writestr(key, value)
    for store in (make_store(entries), directory, ZipStore(tmp_path / "f.zip")):
        assert v2.open_group(store, "foo").children() == {"bar": "group", "baz": "array"}
        assert v2.open_array(store, "foo/baz")[:].tolist() == [1, 2, 0, 0]


def test_children_of_non_group_fails(v2):
    with pytest.raises(NodeNotFoundError):
        v2.children(make_store(member_fixture()), "foo/qux")


def test_both_zarray_and_zgroup_is_ambiguous(v2):
    store = make_store({".zgroup": GROUP, "x/.zgroup": GROUP, "x/.zarray": zarray()})
    with pytest.raises(MetadataError) as info:
        v2.node_kind(store, "x")
    assert info.value.reason == "invalid-node-type"


def test_cannot_create_inside_an_array(v2, memory_store):
    v2.create_array(memory_store, "a", v2.array_metadata((4,), (2,), "<i4"))
    before = dict(memory_store.data)
    for create in (
        lambda: v2.create_group(memory_store, "a/b"),
        lambda: v2.create_array(memory_store, "a/b/c", v2.array_metadata((4,), (2,), "<i4")),
    ):
        with pytest.raises(ZarrError) as info:
            create()
        assert info.value.reason == "invalid-node-type"
    assert memory_store.data == before


def test_existing_node_needs_overwrite(v2, memory_store):
    a = v2.create_array(
        memory_store, "a", v2.array_metadata((4,), (2,), "<i4"), attributes={"v": 1}
    )
    a[:] = 3
    with pytest.raises(ZarrError) as info:
        v2.create_group(memory_store, "a")
    assert info.value.reason == "node-exists"
    g = v2.create_group(memory_store, "a", overwrite=True)
    assert g.kind == "group" and sorted(memory_store.data) == [".zgroup", "a/.zgroup"]


def test_attributes_round_trip(v2, memory_store):  # V2-ATTR-001, V2-ATTR-003
    attrs = {"foo": 42, "bar": "apples", "baz": [1, 2, 3, 4]}
    v2.create_group(memory_store, "g", attributes=attrs)
    assert json.loads(memory_store.data["g/.zattrs"]) == attrs
    assert v2.open_group(memory_store, "g").attrs == attrs
    odd = {"ü": [None, {"a": [1.5, "x"]}], "big": 2**64, "neg": -0.0}
    node = v2.open_group(memory_store, "g")
    node.set_attributes(odd)
    assert v2.open_group(memory_store, "g").attrs == odd
    assert memory_store.data["g/.zattrs"].isascii()


def test_missing_zattrs_is_empty(v2):  # V2-ATTR-002
    store = make_store({".zgroup": GROUP, "a/.zarray": zarray()})
    assert v2.open_group(store, "").attrs == {} and v2.open_array(store, "a").attrs == {}


@pytest.mark.parametrize("raw", [b"[]", b"1", b"null", b'"x"'])
def test_non_object_zattrs_is_rejected(v2, raw):
    with pytest.raises(MetadataError) as info:
        v2.open_group(make_store({".zgroup": GROUP, ".zattrs": raw}), "")
    assert info.value.reason == "invalid-attributes"


@pytest.mark.parametrize(
    "bad", [{"x": float("nan")}, {1: "a"}, {"t": (1, 2)}, {"n": np.int64(1)}, ["a"], {"s": {1, 2}}]
)
def test_unrepresentable_attributes_are_refused(v2, memory_store, bad):
    with pytest.raises(MetadataError) as info:
        v2.create_group(memory_store, "g", attributes=bad)
    assert info.value.reason == "invalid-attributes"
    assert memory_store.data == {}


def test_consolidated_round_trip(v2, memory_store):
    v2.create_group(memory_store, "g", attributes={"title": "t"})
    v2.create_array(
        memory_store,
        "g/a",
        v2.array_metadata((4,), (2,), "<f8", fill_value=float("nan")),
        attributes={"u": "m"},
    )
    v2.create_array(memory_store, "g/h/b", v2.array_metadata((2, 2), (1, 1), ">i2"))
    v2.open_array(memory_store, "g/a")[:] = 1.0
    document = write_consolidated(memory_store, "g")
    assert document["zarr_consolidated_format"] == 1
    assert sorted(document["metadata"]) == [
        ".zattrs",
        ".zgroup",
        "a/.zarray",
        "a/.zattrs",
        "h/.zgroup",
        "h/b/.zarray",
    ]
    stored = json.loads(memory_store.data["g/.zmetadata"])
    assert stored == document
    metadata = read_consolidated(memory_store, "g")
    for key, doc in metadata.items():
        assert doc == json.loads(memory_store.data["g/" + key])
    assert read_consolidated(memory_store, "") is None
    root = write_consolidated(memory_store)
    assert "g/a/.zarray" in root["metadata"] and ".zgroup" in root["metadata"]


@pytest.mark.parametrize(
    "raw",
    [
        {"zarr_consolidated_format": 2, "metadata": {}},
        {"metadata": {}},
        {"zarr_consolidated_format": 1},
        {"zarr_consolidated_format": 1, "metadata": {"a/0.0": {}}},
        {"zarr_consolidated_format": 1, "metadata": {".zgroup": 2}},
    ],
)
def test_bad_consolidated_documents(raw):
    with pytest.raises(MetadataError):
        read_consolidated(make_store({".zmetadata": raw}))
