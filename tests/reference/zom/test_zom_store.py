"""ZOMs of real stores: from_store, to_store and the round trip (ZOM-001..007, -013, -017, -018)."""

from __future__ import annotations

import json

import pytest
from zom_fixtures import (
    group_005_store,
    raw,
    v2_hierarchy_store,
    v3_array,
    v3_group,
    v3_hierarchy_store,
    zarray,
)

from conformance.reference import MemoryStore, zom
from conformance.reference.errors import (
    LimitError,
    MetadataError,
    NodeNotFoundError,
    UnsupportedError,
)


class RecordingStore(MemoryStore):
    """A MemoryStore that remembers every key read."""

    def __init__(self, data):
        super().__init__(data)
        self.reads: list[str] = []

    def get(self, key):
        self.reads.append(key)
        return super().get(key)

    def get_partial(self, key, start, length=None):
        self.reads.append(key)
        return super().get_partial(key, start, length)


METADATA_NAMES = ("zarr.json", ".zarray", ".zgroup", ".zattrs")


def metadata_documents(store: MemoryStore) -> dict:
    return {
        k: json.loads(v) for k, v in store.data.items() if k.rsplit("/", 1)[-1] in METADATA_NAMES
    }


# ---- ZOM-004: members are exactly the direct children -------------------------------------------


def test_v2_group_005_members_are_bar_and_baz_only():
    model = zom.from_store(group_005_store(), "foo")
    assert set(model.members) == {"bar", "baz"}
    assert model.members["bar"].kind == "group" and model.members["baz"].kind == "array"
    assert model.members["bar"].members == {}
    assert zom.to_json(model)["members"]["bar"]["members"] == {}


def test_v2_group_005_root_without_zgroup_is_not_a_node():
    with pytest.raises(NodeNotFoundError):
        zom.from_store(group_005_store(), "")


def test_v3_members_skip_reserved_prefixes_and_include_empty_groups():
    model = zom.from_store(v3_hierarchy_store())
    assert set(model.members) == {"g", "c64", "big"}
    assert set(model.members["g"].members) == {"temp", "empty"}


def test_v3_implicit_groups_are_not_members():
    store = MemoryStore({"zarr.json": raw(v3_group()), "a/b/zarr.json": raw(v3_array())})
    assert zom.from_store(store).members == {}


# ---- ZOM-001 / ZOM-002 ---------------------------------------------------------------------------


def test_attributes_are_always_present():
    model = zom.to_json(zom.from_store(group_005_store(), "foo"))
    assert model["attributes"] == {} and model["members"]["baz"]["attributes"] == {}


def test_v2_array_is_the_zarray_plus_the_zattrs():
    store = v2_hierarchy_store()
    node = zom.to_json(zom.from_store(store))["members"]["g"]["members"]["temp"]
    zarray_doc = json.loads(store.get("g/temp/.zarray"))
    assert set(node) == set(zarray_doc) | {"attributes"}
    assert {k: v for k, v in node.items() if k != "attributes"} == zarray_doc
    assert node["attributes"] == json.loads(store.get("g/temp/.zattrs"))


def test_v3_array_is_the_zarr_json_unchanged():
    store = v3_hierarchy_store()
    node = zom.to_json(zom.from_store(store))["members"]["g"]["members"]["temp"]
    assert node == json.loads(store.get("g/temp/zarr.json"))
    big = zom.to_json(zom.from_store(store, "big"))
    assert big["fill_value"] == 18446744073709551615 and type(big["fill_value"]) is int


# ---- ZOM-006 through a store ----------------------------------------------------------------------


def test_group_metadata_members_round_trips_as_underscore_members():
    ext = {"must_understand": False, "anything": [1, 2]}
    store = MemoryStore(
        {
            "zarr.json": raw(v3_group(members=ext, attributes={"a": 1})),
            "x/zarr.json": raw(v3_group()),
        }
    )
    model = zom.from_store(store)
    out = zom.to_json(model)
    assert out["_members"] == ext and set(out["members"]) == {"x"}
    target = MemoryStore()
    zom.to_store(model, target)
    assert json.loads(target.get("zarr.json")) == {**v3_group(members=ext), "attributes": {"a": 1}}
    assert zom.to_json(zom.from_store(target)) == out


def test_consolidated_metadata_is_not_part_of_the_zom():
    consolidated = {"kind": "inline", "must_understand": False, "metadata": {"x": v3_group()}}
    store = MemoryStore(
        {
            "zarr.json": raw(v3_group(consolidated_metadata=consolidated)),
            "x/zarr.json": raw(v3_group()),
        }
    )
    assert "consolidated_metadata" not in zom.to_json(zom.from_store(store))


# ---- ZOM-017: structure and metadata only ---------------------------------------------------------


@pytest.mark.parametrize("make", [v2_hierarchy_store, v3_hierarchy_store])
def test_chunk_bytes_do_not_change_the_zom(make):
    a, b = make(chunk_seed=1), make(chunk_seed=2)
    assert any(a.data[k] != b.data[k] for k in a.data)
    assert zom.dumps(zom.from_store(a)) == zom.dumps(zom.from_store(b))


@pytest.mark.parametrize("make", [v2_hierarchy_store, v3_hierarchy_store])
def test_from_store_reads_metadata_keys_only(make):
    store = RecordingStore(make().data)
    zom.from_store(store)
    assert store.reads
    assert {key.rsplit("/", 1)[-1] for key in store.reads} <= set(METADATA_NAMES)


# ---- ZOM-018: round trip ----------------------------------------------------------------------------


@pytest.mark.parametrize("make", [v2_hierarchy_store, v3_hierarchy_store])
def test_round_trip_store_zom_store_zom(make):
    original = make()
    model = zom.from_store(original)
    copy = MemoryStore()
    zom.to_store(model, copy)
    assert zom.dumps(zom.from_store(copy)) == zom.dumps(model)
    assert not [
        k for k in copy.data if k.rsplit("/", 1)[-1] not in METADATA_NAMES
    ]  # no chunks written
    want, got = metadata_documents(original), metadata_documents(copy)
    # v3 documents are the same JSON values apart from an empty `attributes` a writer may add;
    # v2 `.zattrs` files exist exactly for non-empty attributes
    for docs in (want, got):
        for doc in docs.values():
            if doc.get("attributes") == {}:
                del doc["attributes"]
    want = {k: v for k, v in want.items() if not (k.endswith(".zattrs") and v == {})}
    assert got == want


def test_round_trip_below_a_path():
    model = zom.from_store(v2_hierarchy_store(), "g")
    target = MemoryStore()
    zom.to_store(model, target, "deep/down")
    assert target.get("deep/.zgroup") is not None  # the v2 writer adds ancestors (V2-GROUP-003)
    assert zom.dumps(zom.from_store(target, "deep/down")) == zom.dumps(model)


# ---- ZOM-007 / ZOM-013: materialising -------------------------------------------------------------


def test_materialised_v2_user_metadata_is_in_zattrs():
    doc = {
        "zarr_format": 2,
        "attributes": {"g": 1},
        "members": {"a": {**zarray(), "attributes": {"units": "m"}}},
    }
    store = MemoryStore()
    zom.to_store(zom.from_json(doc), store)
    assert json.loads(store.get(".zattrs")) == {"g": 1}
    assert json.loads(store.get("a/.zattrs")) == {"units": "m"}
    assert "units" not in json.loads(store.get("a/.zarray"))
    assert json.loads(store.get("a/.zarray")) == zarray()


def test_materialised_v3_null_storage_transformers_write_no_key():
    node = {**v3_array(), "attributes": {}, "storage_transformers": None, "dimension_names": None}
    store = MemoryStore()
    zom.to_store(zom.from_json(node), store)
    written = json.loads(store.get("zarr.json"))
    assert "storage_transformers" not in written and "dimension_names" not in written


def test_materialising_refuses_invalid_metadata():
    node = {**v3_array(), "attributes": {}, "data_type": "int128"}
    with pytest.raises(MetadataError) as info:
        zom.to_store(zom.from_json(node), MemoryStore())
    assert info.value.reason == "invalid-data-type"


def test_mixed_versions_cannot_be_materialised():
    model = zom.from_json(v3_group(attributes={}))
    model.__dict__["members"] = {"a": zom.from_json({"zarr_format": 2, "attributes": {}})}
    with pytest.raises(MetadataError):
        zom.to_store(model, MemoryStore())


# ---- formats and hostile stores -----------------------------------------------------------------------


def test_root_array():
    store = MemoryStore({"zarr.json": raw({**v3_array(), "attributes": {"a": 1}})})
    model = zom.from_store(store)
    assert model.kind == "array" and model.attributes == {"a": 1}


def test_formats_without_a_zom_are_refused():
    store = MemoryStore({"meta": raw({"zarr_format": 1}), "attrs": b"{}"})
    with pytest.raises((UnsupportedError, NodeNotFoundError)):
        zom.from_store(store, format="v1")


def test_invalid_metadata_is_refused_with_the_format_reason():
    store = MemoryStore({".zgroup": raw({"zarr_format": 2}), "a/.zarray": raw(zarray(order="A"))})
    with pytest.raises(MetadataError) as info:
        zom.from_store(store)
    assert info.value.reason == "invalid-order"


def test_deep_store_hierarchies_are_refused():
    data = {}
    path = ""
    for _ in range(zom.MAX_HIERARCHY_DEPTH + 3):
        data[f"{path}.zgroup"] = raw({"zarr_format": 2})
        path += "a/"
    with pytest.raises(LimitError):
        zom.from_store(MemoryStore(data))


def test_directory_store_by_path(tmp_path):
    source = v2_hierarchy_store()
    for key, value in source.data.items():
        target = tmp_path / "h.zarr" / key
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(value)
    assert zom.dumps(zom.from_store(str(tmp_path / "h.zarr"))) == zom.dumps(zom.from_store(source))
