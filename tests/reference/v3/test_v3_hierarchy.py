"""Paths, node names, metadata keys, groups and node creation (V3-KEY-*, V3-NAME-*, V3-GRP-*,
V3-ATTR-*)."""

from __future__ import annotations

import json
import unicodedata

import numpy as np
import pytest

from conformance import reference as ref
from conformance.reference import MemoryStore
from conformance.reference.formats.v3 import FORMAT, normalize_path

from .helpers import array_doc, expect_reason, group_doc, make_store


def meta(shape=(2,), chunks=(2,), dtype="int8", **options):
    return FORMAT.array_metadata(shape, chunks, dtype, **options)


# ---- paths and names -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path, normal",
    [
        ("", ""),
        ("/", ""),
        ("foo", "foo"),
        ("/foo/bar", "foo/bar"),
        ("a.b/c-d_e", "a.b/c-d_e"),
        ("é/日本語", "é/日本語"),
        ("a b", "a b"),
        (".a", ".a"),
        ("a..", "a.."),
        ("_a", "_a"),
        ("a__", "a__"),
        ("FOO", "FOO"),
    ],
)
def test_valid_paths(path, normal):
    assert normalize_path(path) == normal


@pytest.mark.parametrize(
    "path, requirement",
    [
        ("a//b", "V3-NAME-001"),
        ("a/", "V3-NAME-001"),
        ("//a", "V3-NAME-001"),
        (".", "V3-NAME-003"),
        ("..", "V3-NAME-003"),
        ("...", "V3-NAME-003"),
        ("a/../b", "V3-NAME-003"),
        ("./a", "V3-NAME-003"),
        ("__foo", "V3-NAME-004"),
        ("a/__zarr", "V3-NAME-004"),
        ("__", "V3-NAME-004"),
    ],
)
def test_invalid_names_are_rejected_on_create(path, requirement):
    store = MemoryStore()
    error = expect_reason("invalid-node-name", FORMAT.create_group, store, path)
    assert error.requirement == requirement
    expect_reason("invalid-node-name", FORMAT.create_array, store, path, meta())
    assert store.data == {}


def test_non_string_path_is_rejected():
    expect_reason("invalid-path", normalize_path, 5)


# ---- keys ----------------------------------------------------------------------------------------


def test_root_group_writes_exactly_zarr_json():
    """V3-KEY-001 / V3-GRP-001: one key, holding exactly the minimal group document."""
    store = MemoryStore()
    FORMAT.create_group(store, "")
    assert list(store.data) == ["zarr.json"]
    assert json.loads(store.data["zarr.json"]) == {"zarr_format": 3, "node_type": "group"}
    assert list(json.loads(store.data["zarr.json"])) == ["zarr_format", "node_type"]


def test_nested_group_keys_and_ancestors():
    """V3-KEY-002 / V3-GRP-006: /foo/bar gives foo/bar/zarr.json, plus the ancestor groups."""
    store = MemoryStore()
    FORMAT.create_group(store, "/foo/bar", attributes={"x": 1})
    assert sorted(store.data) == ["foo/bar/zarr.json", "foo/zarr.json", "zarr.json"]
    assert json.loads(store.data["foo/zarr.json"]) == {"zarr_format": 3, "node_type": "group"}
    assert json.loads(store.data["foo/bar/zarr.json"])["attributes"] == {"x": 1}


def test_array_creation_writes_ancestor_groups():
    """V3-GRP-006: array /a/b/c in an empty store writes zarr.json, a/zarr.json, a/b/zarr.json."""
    store = MemoryStore()
    FORMAT.create_array(store, "/a/b/c", meta())
    assert sorted(store.data) == ["a/b/c/zarr.json", "a/b/zarr.json", "a/zarr.json", "zarr.json"]
    assert FORMAT.children(store, "a/b") == {"c": "array"}


def test_existing_ancestors_are_kept():
    store = MemoryStore()
    FORMAT.create_group(store, "a", attributes={"keep": True})
    FORMAT.create_array(store, "a/x", meta())
    assert FORMAT.open_group(store, "a").attrs == {"keep": True}


def test_unicode_keys_are_kept_exactly():
    """V3-KEY-004 / V3-NAME-008: UTF-8 keys, NFC and NFD names are two different nodes."""
    nfc, nfd = unicodedata.normalize("NFC", "café"), unicodedata.normalize("NFD", "café")
    assert nfc != nfd
    store = MemoryStore()
    FORMAT.create_array(store, nfc, meta(dtype="int8", fill_value=1))
    FORMAT.create_array(store, nfd, meta(dtype="float64", fill_value=2.0))
    assert f"{nfc}/zarr.json" in store.data and f"{nfd}/zarr.json" in store.data
    assert FORMAT.children(store, "") == dict(sorted({nfc: "array", nfd: "array"}.items()))
    assert FORMAT.open_array(store, nfc)[:].tolist() == [1, 1]
    assert FORMAT.open_array(store, nfd).dtype == np.dtype("float64")


def test_unicode_keys_on_disk(tmp_path):
    """V3-KEY-004 on a directory store: the file name is the UTF-8 of the name as given."""
    store = ref.DirectoryStore(str(tmp_path / "h.zarr"))
    FORMAT.create_group(store, "日本語")
    assert (tmp_path / "h.zarr" / "日本語" / "zarr.json").is_file()
    assert FORMAT.children(store, "") == {"日本語": "group"}


def test_names_are_case_sensitive():
    """V3-NAME-006: foo (int8) and FOO (float64) are siblings with their own metadata."""
    store = MemoryStore()
    FORMAT.create_array(store, "foo", meta(dtype="int8"))
    FORMAT.create_array(store, "FOO", meta(dtype="float64"))
    assert FORMAT.open_array(store, "foo").dtype == np.dtype("int8")
    assert FORMAT.open_array(store, "FOO").dtype == np.dtype("float64")
    assert FORMAT.children(store, "") == {"FOO": "array", "foo": "array"}


def test_non_ascii_and_space_names_list_and_open():
    """V3-NAME-007."""
    store = make_store(
        {"zarr.json": group_doc(), "日本語/zarr.json": group_doc(), "a b/zarr.json": array_doc()}
    )
    assert FORMAT.children(store, "") == {"a b": "array", "日本語": "group"}
    assert ref.open_node(store, "a b").kind == "array"
    assert ref.open_node(store, "/日本語").kind == "group"


# ---- groups and discovery ------------------------------------------------------------------------


def discovery_store():
    return make_store(
        {
            "zarr.json": group_doc(),
            "x/zarr.json": array_doc(),
            "y/zarr.json": group_doc(),
            "__meta/data": b"extension data",
            "__ext/zarr.json": group_doc(),
            "z/c/0/0": b"stray",
            "z/w/zarr.json": group_doc(),
        }
    )


def test_child_discovery():
    """V3-GRP-008 / V3-NAME-004: x (array) and y (group); '__' prefixes and z (no zarr.json) are
    not children."""
    store = discovery_store()
    assert FORMAT.children(store, "") == {"x": "array", "y": "group"}
    assert set(ref.open_node(store, "").members()) == {"x", "y"}


def test_node_existence_is_the_metadata_key():
    """V3-GRP-009: z exists only through descendants, so it is not a node."""
    store = discovery_store()
    assert FORMAT.node_kind(store, "z") is None
    assert FORMAT.node_kind(store, "x") == "array" and FORMAT.node_kind(store, "y") == "group"
    expect_reason("node-not-found", FORMAT.open_node, store, "nothing")
    expect_reason("node-not-found", FORMAT.open_array, store, "y/nothing")


def test_spec_discovery_example():
    """The spec's child-discovery example: group /foo/bar and array /foo/baz/qux. Creating them
    writes the ancestors (the example's "implied" groups predate PR #292), so /foo lists both."""
    store = MemoryStore()
    FORMAT.create_group(store, "/foo/bar")
    FORMAT.create_array(store, "/foo/baz/qux", meta())
    assert {
        "foo/bar/zarr.json",
        "foo/baz/qux/zarr.json",
        "foo/baz/zarr.json",
        "foo/zarr.json",
        "zarr.json",
    } == set(store.data)
    assert FORMAT.children(store, "/foo") == {"bar": "group", "baz": "group"}
    assert FORMAT.children(store, "foo/baz") == {"qux": "array"}


def test_no_implicit_groups():
    """V3-GRP-005: zarr.json and a/b/zarr.json but no a/zarr.json: `a` is not a group."""
    store = make_store({"zarr.json": group_doc(), "a/b/zarr.json": array_doc()})
    expect_reason("implicit-group", FORMAT.open_group, store, "a")
    expect_reason("implicit-group", FORMAT.open_node, store, "a")
    expect_reason("implicit-group", FORMAT.children, store, "a")
    assert FORMAT.children(store, "") == {}
    assert FORMAT.open_array(store, "a/b").shape == (4, 6)  # the array itself still opens


def test_root_array_hierarchy():
    """V3-GRP-007: a root zarr.json can be an array with its chunks at c/..."""
    store = make_store(
        {
            "zarr.json": array_doc(
                shape=[2], chunk_grid={"name": "regular", "configuration": {"chunk_shape": [2]}}
            ),
            "c/0": np.array([5, 6], "<i4").tobytes(),
        }
    )
    node = ref.open_node(store)
    assert node.kind == "array" and node[:].tolist() == [5, 6]
    assert ref.detect_format(store) == "v3"
    expect_reason("invalid-node-type", FORMAT.children, store, "")


def test_children_of_array_and_listing_errors():
    store = make_store(
        {"zarr.json": group_doc(), "a/zarr.json": array_doc(), "b/zarr.json": b"{not json"}
    )
    expect_reason("invalid-node-type", FORMAT.children, store, "a")
    expect_reason("invalid-json", FORMAT.children, store, "")


# ---- creating, overwriting, attributes -----------------------------------------------------------


def test_create_refuses_to_overwrite_unless_asked():
    store = MemoryStore()
    array = FORMAT.create_array(store, "a", meta(shape=(4,), chunks=(2,), fill_value=0))
    array[...] = 3
    before = dict(store.data)
    expect_reason("node-exists", FORMAT.create_array, store, "a", meta())
    expect_reason("node-exists", FORMAT.create_group, store, "a")
    expect_reason("node-exists", FORMAT.create_group, store, "")
    assert store.data == before
    FORMAT.create_array(store, "a", meta(shape=(4,), chunks=(2,), fill_value=9), overwrite=True)
    assert sorted(store.data) == [
        "a/zarr.json",
        "zarr.json",
    ]  # the old chunks went with the old node
    assert FORMAT.open_array(store, "a")[:].tolist() == [9, 9, 9, 9]


def test_nodes_cannot_be_created_inside_an_array():
    store = MemoryStore()
    FORMAT.create_array(store, "a", meta())
    expect_reason("invalid-node-type", FORMAT.create_group, store, "a/b")
    expect_reason("invalid-node-type", FORMAT.create_array, store, "a/b/c", meta())
    assert sorted(store.data) == ["a/zarr.json", "zarr.json"]


@pytest.mark.parametrize(
    "metadata, reason",
    [
        (array_doc(codecs=[]), "codec-order"),
        (array_doc(fill_value=1.5), "invalid-fill-value"),
        (array_doc(codecs=[{"name": "bytes"}]), "invalid-codec"),  # int32 needs endian
        (array_doc(shape=[np.int64(4), 6]), "invalid-metadata"),  # not JSON
        ({**array_doc(), "foo": 1}, "unknown-field"),
        ([1, 2], "invalid-metadata"),
    ],
)
def test_create_validates_before_writing(metadata, reason):
    store = MemoryStore()
    expect_reason(reason, FORMAT.create_array, store, "a/b", metadata)
    assert store.data == {}


def test_created_document_key_order():
    document = meta(
        shape=(3, 4), chunks=(2, 2), dtype="float32", dimension_names=["y", None], fill_value=0.5
    )
    assert list(document) == [
        "zarr_format",
        "node_type",
        "shape",
        "data_type",
        "chunk_grid",
        "chunk_key_encoding",
        "fill_value",
        "codecs",
        "dimension_names",
    ]
    store = MemoryStore()
    FORMAT.create_array(store, "", document, attributes={"a": 1})
    stored = json.loads(store.data["zarr.json"])
    assert list(stored)[-1] == "attributes" and stored["fill_value"] == 0.5
    assert stored["chunk_key_encoding"] == {
        "name": "default",
        "configuration": {"separator": "/"},
    }  # V3-CKE-006


def test_attributes_round_trip_and_live_only_in_zarr_json():
    """V3-ATTR-001 / V3-ATTR-002."""
    attrs = {"ü": [None, {"a": 1.5}], "big": 18446744073709551615}
    store = MemoryStore()
    array = FORMAT.create_array(store, "g/a", meta(), attributes=attrs)
    assert FORMAT.open_array(store, "g/a").attrs == attrs
    array[...] = 1
    before = dict(store.data)
    array.set_attributes({"new": "value"})
    changed = {k for k in store.data if store.data[k] != before.get(k)}
    assert changed == {"g/a/zarr.json"} and set(store.data) == set(before)
    assert FORMAT.open_array(store, "g/a").attrs == {"new": "value"}
    group = FORMAT.open_group(store, "g")
    group.set_attributes({"k": [1, 2]})
    assert json.loads(store.data["g/zarr.json"]) == {
        "zarr_format": 3,
        "node_type": "group",
        "attributes": {"k": [1, 2]},
    }


@pytest.mark.parametrize("attributes", [{"x": float("nan")}, {1: "x"}, {"x": object()}, ["x"]])
def test_unwritable_attributes_are_rejected(attributes):
    store = MemoryStore()
    group = FORMAT.create_group(store, "g")
    before = dict(store.data)
    expect_reason("invalid-attributes", FORMAT.write_attributes, group, attributes)
    assert store.data == before
    if isinstance(attributes, dict):
        expect_reason("invalid-attributes", FORMAT.create_group, MemoryStore(), "h", attributes)


def test_write_attributes_keeps_other_members():
    store = make_store(
        {"zarr.json": array_doc(foo={"must_understand": False}, dimension_names=["a", "b"])}
    )
    array = FORMAT.open_array(store, "")
    array.set_attributes({"x": 1})
    stored = json.loads(store.data["zarr.json"])
    assert stored["foo"] == {"must_understand": False} and stored["dimension_names"] == ["a", "b"]
    assert stored["attributes"] == {"x": 1}


def test_top_level_open_node_and_get_format():
    store = MemoryStore()
    fmt = ref.get_format("v3")
    assert fmt is FORMAT and fmt.name == "v3"
    a = fmt.create_array(store, "x", fmt.array_metadata((10,), (4,), "int32", fill_value=0))
    a[2:7] = 5
    assert ref.open_node(store, "x")[:].tolist() == [0, 0, 5, 5, 5, 5, 5, 0, 0, 0]
    assert ref.open_node(store, "").children() == {"x": "array"}
