"""Logical paths and key layout (V2-KEY-001..006, V2-STORE-001)."""

from __future__ import annotations

import pytest

from conformance.reference import MemoryStore
from conformance.reference.errors import PathError
from conformance.reference.formats.v2 import normalize_path


@pytest.mark.parametrize(
    "path, normal",
    [
        ("", ""),
        ("/", ""),
        ("foo", "foo"),
        ("foo\\bar", "foo/bar"),  # V2-KEY-001
        ("\\foo\\\\bar\\", "foo/bar"),
        ("/foo", "foo"),  # V2-KEY-002
        ("///foo", "foo"),
        ("foo/", "foo"),  # V2-KEY-003
        ("foo///", "foo"),
        ("foo//bar", "foo/bar"),  # V2-KEY-004
        ("a////b//c", "a/b/c"),
        ("/a\\/b/", "a/b"),
        ("...", "..."),  # only exact '.' and '..' segments are forbidden
        ("a/.b/..c", "a/.b/..c"),
    ],
)
def test_normalisation(path, normal):
    assert normalize_path(path) == normal


@pytest.mark.parametrize(
    "path", ["foo/../bar", "./foo", "foo/.", "..", ".", "a\\..\\b", "a//./b", "/../x"]
)
def test_dot_segments_are_rejected(path):  # V2-KEY-005
    with pytest.raises(PathError) as info:
        normalize_path(path)
    assert info.value.reason == "invalid-path"


@pytest.mark.parametrize("path", ["foo/../bar", "./foo", "foo/."])
def test_dot_segments_write_nothing(v2, path):  # V2-KEY-005: no key is written
    store = MemoryStore()
    with pytest.raises(PathError):
        v2.create_array(store, path, v2.array_metadata((4,), (2,), "<i4"))
    with pytest.raises(PathError):
        v2.create_group(store, path)
    assert store.data == {}


@pytest.mark.parametrize(
    "path, key",
    [
        ("foo\\bar", "foo/bar/.zarray"),
        ("/foo", "foo/.zarray"),
        ("foo/", "foo/.zarray"),
        ("foo//bar", "foo/bar/.zarray"),
        ("", ".zarray"),
    ],
)
def test_create_array_writes_normalised_keys(v2, path, key):  # V2-KEY-001..004, 006
    store = MemoryStore()
    v2.create_array(store, path, v2.array_metadata((4,), (2,), "<i4"))
    assert key in store.data
    assert not any(k.startswith("/") or "//" in k or "\\" in k for k in store.data)


def test_key_prefix_for_metadata_attributes_and_chunks(v2):  # V2-KEY-006
    store = MemoryStore()
    a = v2.create_array(
        store, "foo/bar", v2.array_metadata((4, 4), (2, 2), "<i4"), attributes={"x": 1}
    )
    a[0:2, 0:2] = 1
    assert {"foo/bar/.zarray", "foo/bar/.zattrs", "foo/bar/0.0"} <= set(store.data)
    assert a.chunk_key((1, 0)) == "foo/bar/1.0"


def test_root_array_has_empty_prefix(v2):  # V2-KEY-006
    store = MemoryStore()
    a = v2.create_array(store, "", v2.array_metadata((4,), (2,), "<i4"))
    a[:] = 7
    assert sorted(store.data) == [".zarray", "0", "1"]


def test_every_written_key_and_document_is_ascii(v2):  # V2-STORE-001
    store = MemoryStore()
    a = v2.create_array(
        store,
        "grp/arr",
        v2.array_metadata((3,), (2,), "<U2", fill_value="é"),
        attributes={"naïve": "ü€", "list": ["日本"]},
    )
    a[:] = "ß"
    v2.write_attributes(v2.open_group(store, "grp"), {"ü": "√"})
    for key, value in store.data.items():
        assert key.isascii()
        if key.rsplit("/", 1)[-1].startswith("."):
            value.decode("ascii")
    assert v2.open_array(store, "grp/arr").attrs == {"naïve": "ü€", "list": ["日本"]}
    assert a[:].tolist() == ["ß"] * 3


def test_non_ascii_paths_are_not_written(v2):  # V2-STORE-001
    store = MemoryStore()
    with pytest.raises(PathError):
        v2.create_group(store, "grüppe")
    assert store.data == {}
