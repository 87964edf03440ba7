"""Keys, names and hierarchy discovery of the seed-002 draft (V3DRAFT-KEY-001..010, META-018)."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from conformance import reference as ref
from conformance.reference import MemoryStore
from conformance.reference.errors import NodeNotFoundError, PathError, ZarrError

KEY_CHARSET = re.compile(r"[A-Za-z0-9/._-]*[A-Za-z0-9._-]")


def _meta(fmt, **kw):
    return fmt.array_metadata((4, 4), (2, 2), "int32", **kw)


@pytest.mark.parametrize(
    "kind, path, key",
    [  # the spec's "Metadata Storage Key example" table (V3DRAFT-KEY-002/003)
        ("array", "", "meta/array.json"),
        ("group", "", "meta/group.json"),
        ("group", "foo", "meta/foo.group.json"),
        ("array", "foo", "meta/foo.array.json"),
        ("group", "foo/bar", "meta/foo/bar.group.json"),
        ("array", "foo/baz", "meta/foo/baz.array.json"),
    ],
)
def test_metadata_key_table(fmt, kind, path, key):
    store = MemoryStore()
    if kind == "array":
        fmt.create_array(store, path, _meta(fmt))
    else:
        fmt.create_group(store, path)
    assert sorted(store.data) == sorted(["zarr.json", key])
    assert fmt.node_kind(store, path) == kind


def test_entry_point_written_exactly(fmt):
    store = MemoryStore()
    fmt.create_group(store, "")
    assert json.loads(store.data["zarr.json"]) == {
        "zarr_format": "https://purl.org/zarr/spec/core/3.0",
        "metadata_encoding": {"type": "json", "metadata_key_suffix": ".json"},
        "extensions": [],
    }
    assert json.loads(store.data["meta/group.json"]) == {"attributes": {}}  # V3DRAFT-META-016 W
    assert fmt.flavour(store) == ref.formats.v3draft.SEED002


def test_data_key_example(fmt):
    """V3DRAFT-KEY-004: /foo/baz chunk (1, 0) is data/foo/baz/c1/0."""
    store = MemoryStore()
    a = fmt.create_array(store, "foo/baz", _meta(fmt))
    a[2:4, 0:2] = 7
    assert sorted(k for k in store.data if k.startswith("data/")) == ["data/foo/baz/c1/0"]


def test_chunk_id_has_no_separator_after_c(fmt):
    """V3DRAFT-KEY-005: grid index (1, 23, 45) is c1/23/45 (final v3 would write c/1/23/45)."""
    store = MemoryStore()
    a = fmt.create_array(store, "x", fmt.array_metadata((2, 24, 46), (1, 1, 1), "uint8"))
    assert a.chunk_key((1, 23, 45)) == "data/x/c1/23/45"
    a[1, 23, 45] = 3
    assert "data/x/c1/23/45" in store.data
    dotted = fmt.create_array(
        store, "y", fmt.array_metadata((2, 24, 46), (1, 1, 1), "uint8", separator=".")
    )
    assert dotted.chunk_key((1, 23, 45)) == "data/y/c1.23.45"


def test_zero_d_and_root_chunk_keys(fmt):
    store = MemoryStore()
    scalar = fmt.create_array(store, "s", fmt.array_metadata((), (), "float64", fill_value=0.5))
    assert scalar[()] == 0.5
    scalar[()] = 2.25
    assert "data/s/c" in store.data and scalar[()] == 2.25
    root = fmt.create_array(MemoryStore(), "", _meta(fmt))
    root[0, 0] = 1
    assert "data/c0/0" in root.store.data  # root array data keys are data/ + chunk id


@pytest.mark.parametrize("name", ["café", "a b", "..", ".", "a:b", "a\\b", "ä"])
def test_invalid_node_names(fmt, name):
    with pytest.raises(PathError) as err:
        fmt.normalize_path(f"group/{name}")
    assert err.value.reason == "invalid-node-name" and err.value.requirement == "V3DRAFT-KEY-006"


@pytest.mark.parametrize("path", ["a//b", "a/", "//a"])
def test_empty_segments(fmt, path):
    with pytest.raises(PathError, match="invalid-path"):
        fmt.normalize_path(path)


def test_valid_names_and_case_sensitivity(fmt):
    assert fmt.normalize_path("/A-_9/...a/b.c") == "A-_9/...a/b.c"
    assert fmt.normalize_path("/") == ""
    store = MemoryStore()
    fmt.create_array(store, "foo", _meta(fmt, fill_value=1))
    fmt.create_array(store, "FOO", _meta(fmt, fill_value=2))
    assert fmt.open_array(store, "foo")[0, 0] == 1 and fmt.open_array(store, "FOO")[0, 0] == 2


def test_every_written_key_uses_the_key_charset(fmt):
    """V3DRAFT-KEY-007 across arrays, groups, separators, sharding and 0-d arrays."""
    store = MemoryStore()
    fmt.create_group(store, "", {"x": 1})
    fmt.create_group(store, "g-1/sub_2", {"y": 2})
    fmt.create_array(store, "g-1/a.b", _meta(fmt, separator="."))[:] = 1
    fmt.create_array(
        store, "s", _meta(fmt, storage_transformers=[ref.formats.v3draft.sharding([2, 1])])
    )[:] = 2
    fmt.create_array(store, "z", fmt.array_metadata((), (), "uint8"))[()] = 3
    assert len(store.data) > 10
    for key in store.data:
        assert KEY_CHARSET.fullmatch(key), key


def test_no_entry_point_no_hierarchy(fmt, make_store, array_doc):
    """V3DRAFT-KEY-001: meta/ keys without zarr.json cannot be opened."""
    store = make_store(
        {"meta/foo.array.json": array_doc(), "meta/group.json": {"attributes": {}}},
        entry_point=None,
    )
    assert fmt.node_kind(store, "foo") is None and fmt.node_kind(store, "") is None
    assert fmt.flavour(store) is None
    with pytest.raises(NodeNotFoundError) as err:
        fmt.open_array(store, "foo")
    assert err.value.requirement == "V3DRAFT-KEY-001"
    with pytest.raises(ZarrError, match="node-not-found"):
        ref.open_node(store, "foo", format="v3-draft")


def test_implicit_groups(fmt, make_store, array_doc):
    """V3DRAFT-KEY-008 R: only zarr.json and meta/foo/baz/qux.array.json."""
    store = make_store({"meta/foo/baz/qux.array.json": array_doc()})
    for path in ("", "foo", "foo/baz"):
        assert fmt.node_kind(store, path) == "group"
        group = fmt.open_group(store, path)
        assert group.attrs == {} and group.implicit
    assert fmt.node_kind(store, "foo/baz/qux") == "array"
    assert fmt.node_kind(store, "foo/nothing") is None
    with pytest.raises(NodeNotFoundError):
        fmt.open_group(store, "foo/nothing")
    assert fmt.children(store, "foo") == {"baz": "group"}
    assert fmt.children(store, "foo/baz") == {"qux": "array"}


def test_creating_a_node_writes_no_ancestors(fmt):
    """V3DRAFT-KEY-008 W: creating /a/b writes no meta/a.group.json."""
    store = MemoryStore()
    fmt.create_group(store, "a/b")
    fmt.create_array(store, "c/d/e", _meta(fmt))
    assert sorted(store.data) == ["meta/a/b.group.json", "meta/c/d/e.array.json", "zarr.json"]
    assert fmt.open_group(store, "a").implicit and fmt.open_group(store, "c/d").implicit


def test_discover_children_spec_example(fmt, make_store, array_doc):
    """V3DRAFT-KEY-009 with the spec example's key corrected (§8 defect 2)."""
    store = make_store(
        {"meta/foo/bar.group.json": {"attributes": {}}, "meta/foo/baz/qux.array.json": array_doc()}
    )
    assert fmt.children(store, "foo") == {"bar": "group", "baz": "group"}
    assert fmt.children(store, "") == {"foo": "group"}
    assert (
        not fmt.open_group(store, "foo/bar").implicit and fmt.open_group(store, "foo/baz").implicit
    )
    assert sorted(ref.open_node(store, "foo").members()) == ["bar", "baz"]
    # The spec's literal key puts qux under bar, so /foo then has only the child bar.
    literal = make_store(
        {
            "meta/foo/bar.group.json": {"attributes": {}},
            "meta/foo/bar/baz/qux.array.json": array_doc(),
        }
    )
    assert fmt.children(literal, "foo") == {"bar": "group"}


def test_children_kinds_and_ignored_keys(fmt, make_store, array_doc):
    store = make_store(
        {
            "meta/a.array.json": array_doc(),
            "meta/b.group.json": {"attributes": {}},
            "meta/c/d.group.json": {"attributes": {}},
            "meta/notes.txt": b"not metadata",
            "meta/bad name.group.json": {"attributes": {}},
        }
    )
    assert fmt.children(store, "") == {"a": "array", "b": "group", "c": "group"}


def test_existence_order_array_first(fmt, make_store, array_doc):
    """V3DRAFT-KEY-010: meta/x.array.json and meta/x/... make x an array."""
    store = make_store(
        {
            "meta/x.array.json": array_doc(),
            "meta/x.group.json": {"attributes": {}},
            "meta/x/y.array.json": array_doc(),
        }
    )
    assert fmt.node_kind(store, "x") == "array"
    assert fmt.children(store, "") == {"x": "array"}
    assert isinstance(ref.open_node(store, "x", format="v3-draft"), ref.Array)
    with pytest.raises(ZarrError, match="invalid-node-type"):
        fmt.open_group(store, "x")


def test_suffix_builds_keys(fmt, make_store, array_doc):
    """V3DRAFT-META-018: documents live at meta/<P> + .array + the suffix."""
    store = make_store({"meta/foo.array.json": array_doc()})
    assert fmt.open_array(store, "foo").shape == (4, 6)
    store = make_store({"meta/foo.array": array_doc()})  # no suffix: not a node
    assert fmt.node_kind(store, "foo") is None


def test_overwrite_rules(fmt):
    store = MemoryStore()
    a = fmt.create_array(store, "a", _meta(fmt))
    a[:] = 5
    with pytest.raises(ZarrError, match="node-exists"):
        fmt.create_array(store, "a", _meta(fmt))
    with pytest.raises(ZarrError, match="node-exists"):
        fmt.create_group(store, "a")
    fmt.create_array(store, "b/c", _meta(fmt))
    with pytest.raises(ZarrError, match="node-exists"):  # an implicit group with descendants
        fmt.create_array(store, "b", _meta(fmt))
    fmt.create_group(store, "b", {"now": "explicit"})  # making an implicit group explicit is fine
    assert fmt.open_group(store, "b").attrs == {"now": "explicit"}
    fmt.create_array(store, "a", _meta(fmt, fill_value=9), overwrite=True)
    assert not any(k.startswith("data/a/") for k in store.data)
    np.testing.assert_array_equal(fmt.open_array(store, "a")[:], np.full((4, 4), 9, "int32"))


def test_attributes_round_trip_and_rewrite(fmt):
    """V3DRAFT-META-017."""
    store = MemoryStore()
    attrs = {"s": "ü", "n": [1, 2.5, None, True], "o": {"deep": {"x": -1}}}
    a = fmt.create_array(store, "a", _meta(fmt), attributes=attrs)
    assert fmt.open_array(store, "a").attrs == attrs
    a.set_attributes({"new": 1})
    assert json.loads(store.data["meta/a.array.json"])["attributes"] == {"new": 1}
    assert fmt.open_array(store, "a").metadata["shape"] == [4, 4]
    implicit = fmt.open_group(store, "")
    implicit.set_attributes({"root": True})
    assert json.loads(store.data["meta/group.json"]) == {"attributes": {"root": True}}
    with pytest.raises(ZarrError, match="invalid-attributes"):
        fmt.create_group(store, "g", attributes=[1, 2])


def test_root_of_an_empty_hierarchy_is_a_group(fmt, make_store):
    """A hierarchy always has a root node: with only zarr.json it is an (implicit) group."""
    store = make_store({})
    assert fmt.node_kind(store, "") == "group"
    root = fmt.open_group(store, "")
    assert root.implicit and root.attrs == {} and fmt.children(store, "") == {}
    assert fmt.node_kind(store, "x") is None


def test_directory_store_hierarchy(fmt, tmp_path):
    """The same layout on disk: implicit groups, sharded partial reads, detection, attributes."""
    store = ref.DirectoryStore(str(tmp_path / "h.zarr"))
    meta = _meta(fmt, fill_value=-1, storage_transformers=[ref.formats.v3draft.sharding([2, 2])])
    a = fmt.create_array(store, "group/deep/arr", meta, attributes={"a": 1})
    a[1:4, 1:3] = np.arange(6).reshape(3, 2)
    a.set_attributes({"b": 2})
    root = tmp_path / "h.zarr"
    files = sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())
    # four chunks in the one 2x2 shard; no ancestor group documents
    assert files == ["data/group/deep/arr/c0/0", "meta/group/deep/arr.array.json", "zarr.json"]
    reopened = ref.open_node(str(tmp_path / "h.zarr"), "group/deep/arr")
    expected = np.full((4, 4), -1, "int32")
    expected[1:4, 1:3] = np.arange(6).reshape(3, 2)
    np.testing.assert_array_equal(reopened[:], expected)
    assert reopened.attrs == {"b": 2} and ref.detect_format(store, "") == "v3-draft"
    assert fmt.children(store, "group") == {"deep": "group"}
