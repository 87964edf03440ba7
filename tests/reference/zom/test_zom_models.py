"""The ZOM pydantic models and their JSON form (ZOM-001..007)."""

from __future__ import annotations

import json

import pytest
from zom_fixtures import deep, v3_array, v3_group, zarray

from conformance.reference import zom
from conformance.reference.errors import LimitError, MetadataError, UnsupportedError
from conformance.reference.zom.names import (
    metadata_to_zom_keys,
    node_name_problem,
    zom_to_metadata_keys,
)


def v2_array_node(**extra):
    return {**zarray(), "attributes": {}, **extra}


def v3_array_node(**extra):
    return {**v3_array(), "attributes": {}, **extra}


# ---- ZOM-001: attributes -----------------------------------------------------------------------


@pytest.mark.parametrize("node", [v2_array_node(), {"zarr_format": 2}, v3_array_node(), v3_group()])
def test_attributes_are_required(node):
    node = deep(node)
    node.pop("attributes", None)
    with pytest.raises(MetadataError) as info:
        zom.from_json(node)
    assert info.value.requirement == "ZOM-001"


@pytest.mark.parametrize("bad", [[], "x", None, {"k": float("nan")}, {"k": {1, 2}}])
def test_attributes_must_be_a_json_object(bad):
    with pytest.raises(MetadataError):
        zom.from_json(v3_array_node(attributes=bad))


# ---- ZOM-002 / ZOM-003: arrays ------------------------------------------------------------------


@pytest.mark.parametrize("node", [v2_array_node(), v3_array_node()])
def test_array_never_has_members(node):
    with pytest.raises(MetadataError) as info:
        zom.from_json({**node, "members": {}})
    assert info.value.requirement == "ZOM-003"


def test_array_never_has_members_even_as_a_v3_extension_member():
    with pytest.raises(MetadataError) as info:
        zom.from_json(v3_array_node(members={"must_understand": False}))
    assert info.value.requirement == "ZOM-003"


@pytest.mark.parametrize(
    "key",
    ["zarr_format", "shape", "chunks", "dtype", "compressor", "fill_value", "order", "filters"],
)
def test_v2_array_requires_every_zarray_key(key):
    node = v2_array_node()
    del node[key]
    with pytest.raises(MetadataError):
        zom.from_json(node, zarr_format=2)


@pytest.mark.parametrize(
    "key",
    [
        "zarr_format",
        "node_type",
        "shape",
        "data_type",
        "chunk_grid",
        "chunk_key_encoding",
        "fill_value",
        "codecs",
    ],
)
def test_v3_array_requires_every_required_member(key):
    node = v3_array_node()
    del node[key]
    with pytest.raises(MetadataError):
        zom.from_json(node, zarr_format=3)


def test_v2_array_keys_are_the_zarray_keys_plus_attributes():
    node = v2_array_node(dimension_separator="/")
    model = zom.from_json(node)
    assert set(zom.to_json(model)) == set(node)
    assert zom.metadata_of(model) == {k: v for k, v in node.items() if k != "attributes"}


def test_v3_unset_optional_members_stay_absent_and_null_is_kept_in_the_zom():
    model = zom.from_json(v3_array_node())
    assert "storage_transformers" not in zom.to_json(model)
    assert "dimension_names" not in zom.to_json(model)
    model = zom.from_json(v3_array_node(storage_transformers=None, dimension_names=None))
    assert zom.to_json(model)["storage_transformers"] is None
    # ...but the stored document never gets a null (ZOM-013)
    assert "storage_transformers" not in zom.metadata_of(model)
    assert "dimension_names" not in zom.metadata_of(model)


@pytest.mark.parametrize(
    "field, value",
    [
        ("shape", [-1]),
        ("shape", [1.5]),
        ("shape", "10"),
        ("shape", [True]),
        ("order", "A"),
        ("compressor", {"level": 1}),
        ("filters", {}),
        ("filters", [{"dtype": "<f8"}]),
        ("dtype", 5),
        ("dtype", [["a"]]),
        ("dtype", [["a", "<i4", [-1]]]),
        ("dimension_separator", "-"),
        ("dimension_separator", None),
        ("zarr_format", 3),
        ("zarr_format", "2"),
    ],
)
def test_v2_array_structure_is_checked(field, value):
    with pytest.raises(MetadataError):
        zom.from_json({**v2_array_node(), field: value}, zarr_format=2)


@pytest.mark.parametrize(
    "field, value",
    [
        ("codecs", []),
        ("codecs", [{"name": "bytes", "configuration": None}]),
        ("codecs", [{"configuration": {}}]),
        ("codecs", [{"name": "bytes", "extra": 1}]),
        ("codecs", [""]),
        ("chunk_grid", 5),
        ("dimension_names", [1, 2]),
        ("fill_value", None),
        ("fill_value", {"re": 0}),
        ("fill_value", [1, 2, 3.5]),
        ("fill_value", [True, False]),
        ("fill_value", float("inf")),
        ("storage_transformers", {}),
        ("foo", 1),
        ("foo", {"bar": 1}),
        ("foo", {"must_understand": True}),
        ("node_type", "Array"),
    ],
)
def test_v3_array_structure_is_checked(field, value):
    with pytest.raises(MetadataError):
        zom.from_json({**v3_array_node(), field: value}, zarr_format=3)


@pytest.mark.parametrize(
    "field, value",
    [
        ("codecs", ["bytes", "crc32c"]),
        ("codecs", [{"name": "crc32c"}]),
        ("chunk_key_encoding", "default"),
        ("dimension_names", ["x", None]),
        ("fill_value", ["NaN", 0]),
        ("fill_value", ["0x7fc00001", "-Infinity"]),
        ("fill_value", [1, 2, 3]),
        ("fill_value", "0x3f800000"),
        ("fill_value", 18446744073709551615),
        (
            "data_type",
            {"name": "numpy.datetime64", "configuration": {"unit": "s", "scale_factor": 1}},
        ),
        ("storage_transformers", []),
        ("foo", {"must_understand": False, "x": [1]}),
        ("codecs", [{"name": "bytes", "must_understand": True}]),
    ],
)
def test_v3_array_accepts_valid_v3(field, value):
    model = zom.from_json({**v3_array_node(), field: value})
    assert zom.to_json(model)[field] == value


def test_integers_are_not_coerced():
    # strict: a JSON 1.0 shape or a boolean is not silently made an int
    for bad in ([4.0], [False]):
        with pytest.raises(MetadataError):
            zom.from_json(v3_array_node(shape=bad))


# ---- ZOM-004 / ZOM-005: groups and member names ------------------------------------------------


def test_group_members_are_nodes_of_the_same_version():
    doc = v3_group(attributes={}, members={"a": v2_array_node()})
    with pytest.raises(MetadataError):
        zom.from_json(doc)


@pytest.mark.parametrize("name", ["", "a/b", ".", "..", "...", "__x"])
def test_v3_member_names(name):
    with pytest.raises(MetadataError) as info:
        zom.from_json(v3_group(attributes={}, members={name: v3_group(attributes={})}))
    assert info.value.requirement == "ZOM-005"


@pytest.mark.parametrize("name", ["", "a/b", ".", "..", "a\\b", "café"])
def test_v2_member_names(name):
    with pytest.raises(MetadataError) as info:
        zom.from_json(
            {
                "zarr_format": 2,
                "attributes": {},
                "members": {name: {"zarr_format": 2, "attributes": {}}},
            }
        )
    assert info.value.requirement == "ZOM-005"


@pytest.mark.parametrize(
    "name, fmt",
    [("日本語", 3), ("a b", 3), ("é", 3), (".x", 3), ("_x", 3), ("...x", 2), ("__x", 2)],
)
def test_valid_member_names(name, fmt):
    assert node_name_problem(name, fmt) is None


def test_v2_group_refuses_extra_zgroup_keys():
    with pytest.raises(MetadataError):
        zom.from_json({"zarr_format": 2, "attributes": {}, "foo": 1})


def test_zep_v2_zarr_version_spelling_is_refused():
    with pytest.raises(MetadataError):
        zom.from_json({"zarr_version": 2, "attributes": {}, "members": {}})


# ---- ZOM-006: the members name clash ------------------------------------------------------------


@pytest.mark.parametrize(
    "metadata, renamed",
    [
        ({"members": 1}, {"_members": 1}),
        ({"members": 1, "_members": 2}, {"__members": 1, "_members": 2}),
        (
            {"members": 1, "_members": 2, "__members": 3},
            {"___members": 1, "_members": 2, "__members": 3},
        ),
        ({"other": 1}, {"other": 1}),
    ],
)
def test_members_clash_rule_round_trips(metadata, renamed):
    assert metadata_to_zom_keys(metadata) == renamed
    assert zom_to_metadata_keys(renamed) == metadata


@pytest.mark.parametrize("metadata", [{"_members": 2}, {"members": 1, "__members": 3}])
def test_members_clash_rule_refuses_what_it_cannot_invert(metadata):
    with pytest.raises(UnsupportedError) as info:
        metadata_to_zom_keys(metadata)
    assert info.value.requirement == "ZOM-006"


def test_group_metadata_members_becomes_underscore_members():
    ext = {"must_understand": False, "note": "a metadata property called members"}
    model = zom.node_from_metadata(3, "group", v3_group(members=ext), {"a": 1})
    out = zom.to_json(model)
    assert out["_members"] == ext and out["members"] == {}
    assert zom.metadata_of(model) == v3_group(members=ext)


# ---- JSON form ----------------------------------------------------------------------------------


def test_json_output_is_deterministic_and_ordered():
    doc = v3_group(
        attributes={"z": 1, "a": 2},
        members={"b": v3_array_node(), "a": v3_group(attributes={})},
        zzz={"must_understand": False},
        aaa={"must_understand": False},
    )
    model = zom.from_json(json.dumps(doc))
    out = zom.to_json(model)
    assert list(out) == ["zarr_format", "node_type", "aaa", "zzz", "attributes", "members"]
    assert list(out["members"]) == ["a", "b"]
    assert list(out["members"]["b"])[:4] == ["zarr_format", "node_type", "shape", "data_type"]
    assert zom.dumps(model) == zom.dumps(zom.from_json(zom.dumps(model)))
    assert zom.dumps(model).endswith(b"}\n")


def test_from_json_text_must_be_strict_json():
    with pytest.raises(MetadataError) as info:
        zom.from_json('{"zarr_format": 3, "node_type": "group", "attributes": {"x": NaN}}')
    assert info.value.reason == "invalid-json"


@pytest.mark.parametrize(
    "doc",
    [
        [],
        "x",
        {"zarr_format": 4, "attributes": {}},
        {"zarr_format": True, "attributes": {}},
        {"attributes": {}},
    ],
)
def test_from_json_needs_a_known_zarr_format(doc):
    with pytest.raises(MetadataError):
        zom.from_json(doc)


def test_deep_hierarchies_are_refused_not_crashed():
    node = v3_group(attributes={})
    for _ in range(zom.MAX_HIERARCHY_DEPTH + 5):
        node = v3_group(attributes={}, members={"a": node})
    with pytest.raises(LimitError):
        zom.from_json(node)


def test_hierarchy_at_the_depth_limit_works():
    node = v3_group(attributes={}, members={})
    for _ in range(zom.MAX_HIERARCHY_DEPTH):
        node = v3_group(attributes={}, members={"a": node})
    model = zom.from_json(node)
    assert zom.to_json(model) == {**node}
    assert zom.is_valid(node, "v3")


def test_deeply_nested_attributes_are_refused():
    value: list = []
    for _ in range(5000):
        value = [value]
    with pytest.raises(MetadataError):
        zom.from_json(v3_group(attributes={"deep": value}))
