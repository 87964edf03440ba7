"""The published ZOM schemas, the ZEP's original schemas and their defects (ZOM-008..016, -019).

Every table row says what the ZEP's own schema does with an instance and what ours does, so the
defects are shown, not just described.
"""

from __future__ import annotations

import copy
import json

import pytest
from jsonschema import Draft202012Validator
from zom_fixtures import DATA, v3_array, v3_group, zarray, zep6_example

from conformance.reference import MemoryStore, zom
from conformance.reference.errors import MetadataError

V3_ARRAY = {**v3_array(), "attributes": {}}
V2_ARRAY = {**zarray(), "attributes": {}}


def v3_with(**changes):
    node = copy.deepcopy(V3_ARRAY)
    for key, value in changes.items():
        if value is KeyError:
            node.pop(key, None)
        else:
            node[key] = value
    return node


def v2_with(**changes):
    node = copy.deepcopy(V2_ARRAY)
    for key, value in changes.items():
        if value is KeyError:
            node.pop(key, None)
        else:
            node[key] = value
    return node


def group3(members=None, **extra):
    node = v3_group(attributes={}, **extra)
    if members is not None:
        node["members"] = members
    return node


def group2(members=None, **extra):
    node = {"zarr_format": 2, "attributes": {}, **extra}
    if members is not None:
        node["members"] = members
    return node


def original_v3_array(instance):
    """The ZEP's v3 schema validates arrays only through a group's members."""
    return group3(members={"a": instance})


# (requirement, instance, ZEP original schema accepts, our schema accepts)
V3_TABLE = [
    ("ZOM-001", group3(members={"a": v3_with(attributes=KeyError)}), True, False),
    ("ZOM-003", group3(members={"a": v3_with(members={})}), False, False),
    ("ZOM-005", group3(members={"": group3(members={})}), True, False),
    ("ZOM-005", group3(members={"a/b": group3(members={})}), True, False),
    ("ZOM-005", group3(members={"..": group3(members={})}), True, False),
    ("ZOM-005", group3(members={"__x": group3(members={})}), True, False),
    ("ZOM-005", group3(members={"日本語": group3(members={})}), True, True),
    ("ZOM-008", group3(members={"a": V3_ARRAY}), True, True),
    *[
        ("ZOM-008", group3(members={"a": v3_with(**{key: KeyError})}), False, False)
        for key in (
            "shape",
            "data_type",
            "chunk_grid",
            "chunk_key_encoding",
            "fill_value",
            "codecs",
        )
    ],
    ("ZOM-008", group3(members={"a": v3_with(zarr_format=2)}), False, False),
    ("ZOM-008", group3(members={"a": v3_with(node_type="group")}), False, False),
    ("ZOM-008", group3(members={"a": v3_with(foo=1)}), False, False),
    ("ZOM-008", group3(members={"a": v3_with(foo={"must_understand": False})}), False, True),
    ("ZOM-009", group3(), False, True),
    ("ZOM-009", group3(members={}), True, True),
    (
        "ZOM-010",
        original_v3_array(
            v3_with(
                codecs=[
                    {"name": "bytes", "configuration": {"endian": "little"}},
                    {"name": "crc32c"},
                ]
            )
        ),
        False,
        True,
    ),
    ("ZOM-010", original_v3_array(v3_with(codecs=["bytes"], data_type="uint8")), False, True),
    ("ZOM-010", original_v3_array(v3_with(chunk_key_encoding={"name": "default"})), False, True),
    (
        "ZOM-010",
        original_v3_array(v3_with(codecs=[{"name": "bytes", "configuration": None}])),
        True,
        False,
    ),
    ("ZOM-011", original_v3_array(v3_with(dimension_names=["x", None])), False, True),
    ("ZOM-011", original_v3_array(v3_with(dimension_names=["x"])), True, True),
    ("ZOM-011", original_v3_array(v3_with(dimension_names=[1])), False, False),
    (
        "ZOM-012",
        original_v3_array(v3_with(data_type="complex64", fill_value=["NaN", 0])),
        False,
        True,
    ),
    (
        "ZOM-012",
        original_v3_array(v3_with(data_type="complex64", fill_value=[1.5, -2])),
        True,
        True,
    ),
    (
        "ZOM-012",
        original_v3_array(v3_with(data_type="float32", fill_value="0x7fc00001")),
        True,
        True,
    ),
    ("ZOM-012", original_v3_array(v3_with(data_type="r16", fill_value=[1, 2])), True, True),
    ("ZOM-012", original_v3_array(v3_with(fill_value=None)), False, False),
    ("ZOM-013", original_v3_array(v3_with(storage_transformers=None)), True, True),
    ("ZOM-013", original_v3_array(v3_with(storage_transformers=[])), True, True),
]


@pytest.mark.parametrize(
    "requirement, instance, zep_accepts, ours_accepts",
    V3_TABLE,
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_v3_schema_table(requirement, instance, zep_accepts, ours_accepts):
    assert zom.is_valid(instance, "zep6-original-v3") is zep_accepts, zom.schema_errors(
        instance, "zep6-original-v3"
    )
    assert zom.is_valid(instance, "v3") is ours_accepts, zom.schema_errors(instance, "v3")


def zep_v2_typo_only_fixed() -> dict:
    """The ZEP's v2 schema with nothing changed but `attributess` -> `attributes` and `zarr_version`
    -> `zarr_format`, to show the defects that remain after those two (ZOM-016)."""
    text = (
        json.dumps(zom.load_schema("zep6-original-v2"))
        .replace("attributess", "attributes")
        .replace("zarr_version", "zarr_format")
    )
    return json.loads(text)


def typo_fixed_accepts(instance) -> bool:
    return Draft202012Validator(zep_v2_typo_only_fixed()).is_valid(instance)


V2_TABLE = [
    # (requirement, instance, ZEP original accepts, ZEP with only the typo + name fixed accepts, ours accepts)
    ("ZOM-014", group2(members={}), False, True, True),
    ("ZOM-014", {"zarr_version": 2, "attributes": {}, "members": {}}, True, False, False),
    ("ZOM-014", group2(), False, False, True),
    ("ZOM-014", group2(members={}, foo=1), False, False, False),
    (
        "ZOM-015",
        {
            "zarr_version": 2,
            "attributes": {},
            "members": {"a": {k: v for k, v in V2_ARRAY.items() if k != "zarr_format"}},
        },
        False,
        False,
        False,
    ),
    (
        "ZOM-015",
        group2(members={"a": v2_with(compressor={"id": "zlib", "level": 1}, filters=[])}),
        False,
        True,
        True,
    ),
    ("ZOM-016", group2(members={"a": V2_ARRAY}), False, False, True),
    (
        "ZOM-016",
        group2(members={"a": v2_with(compressor={"id": "zlib"}, filters=None)}),
        False,
        False,
        True,
    ),
    ("ZOM-016", group2(members={"a": v2_with(compressor=None, filters=[])}), False, False, True),
    (
        "ZOM-016",
        group2(members={"a": v2_with(compressor={"id": "zlib"}, filters={})}),
        False,
        False,
        False,
    ),
    (
        "ZOM-016",
        group2(
            members={"a": v2_with(compressor={"id": "zlib"}, filters=[], dimension_separator="-")}
        ),
        False,
        False,
        False,
    ),
    (
        "ZOM-016",
        group2(
            members={
                "a": v2_with(compressor={"id": "zlib"}, filters=[], fill_value={"any": "thing"})
            }
        ),
        False,
        True,
        True,
    ),
    (
        "ZOM-016",
        group2(members={"a": v2_with(compressor={"id": "zlib"}, filters=[], fill_value=KeyError)}),
        False,
        True,
        False,
    ),
    (
        "ZOM-016",
        group2(
            members={
                "a": v2_with(
                    compressor={"id": "zlib"}, filters=[], dtype=[["x", "<f4"], ["y", "<f4", [2]]]
                )
            }
        ),
        False,
        False,
        True,
    ),
    (
        "ZOM-003",
        group2(members={"a": v2_with(compressor={"id": "zlib"}, filters=[], members={})}),
        False,
        False,
        False,
    ),
    ("ZOM-005", group2(members={"a\\b": group2(members={})}), False, True, False),
]


@pytest.mark.parametrize(
    "requirement, instance, zep_accepts, typo_fixed, ours_accepts",
    V2_TABLE,
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_v2_schema_table(requirement, instance, zep_accepts, typo_fixed, ours_accepts):
    assert zom.is_valid(instance, "zep6-original-v2") is zep_accepts
    assert typo_fixed_accepts(instance) is typo_fixed
    assert zom.is_valid(instance, "v2") is ours_accepts, zom.schema_errors(instance, "v2")


def test_zep_v2_array_schema_is_unsatisfiable():
    """ZOM-015: `required` names `attributess` while `additionalProperties` is false."""
    array_schema = zom.load_schema("zep6-original-v2")["definitions"]["Array"]
    assert "attributess" in array_schema["required"]
    assert (
        "attributess" not in array_schema["properties"]
        and array_schema["additionalProperties"] is False
    )


# ---- ZOM-019: the ZEP's own examples are negative fixtures ---------------------------------------


def test_zep_first_v2_example_is_not_json():
    text = (DATA / "zep6-example-v2-array-unbalanced.json.txt").read_text()
    with pytest.raises(MetadataError) as info:
        zom.from_json(text)
    assert info.value.reason == "invalid-json"


def test_zep_v2_examples_fail_the_zep_v2_schema():
    """ZOM-014: both v2 examples spell `zarr_format`, which the ZEP's schema does not allow."""
    for name in ("v2-group", "v2-hierarchy"):
        assert not zom.is_valid(zep6_example(name), "zep6-original-v2")


def test_zep_v2_hierarchy_example_has_invalid_filters():
    """ZOM-016 / ZOM-019: `"filters": {}` is neither null nor a list."""
    example = zep6_example("v2-hierarchy")
    assert not zom.is_valid(example, "v2")
    with pytest.raises(MetadataError):
        zom.from_json(example)
    example["members"]["foo"]["filters"] = None
    assert zom.is_valid(example, "v2")
    zom.to_store(zom.from_json(example), MemoryStore())  # and then it is valid v2 metadata


def test_zep_v2_group_example_is_a_childless_group():
    assert zom.is_valid(zep6_example("v2-group"), "v2")


def test_zep_v3_example_is_structurally_a_zom_but_not_valid_v3():
    """ZOM-019: `"|u1"`, `"GZip"` and no array->bytes codec; V3-DT-001, V3-EXT-006, V3-PIPE-001."""
    example = zep6_example("v3-hierarchy")
    assert zom.is_valid(example, "zep6-original-v3")
    assert zom.is_valid(example, "v3")
    model = zom.from_json(example)
    with pytest.raises(MetadataError) as info:
        zom.to_store(model, MemoryStore())
    assert info.value.reason == "invalid-data-type"
    example["members"]["array"]["data_type"] = "uint8"
    with pytest.raises(MetadataError) as info:
        zom.to_store(zom.from_json(example), MemoryStore())
    assert info.value.reason in ("unknown-codec", "codec-order", "invalid-codec")
    example["members"]["array"]["codecs"] = [
        {"name": "bytes"},
        {"name": "gzip", "configuration": {"level": 1}},
    ]
    store = MemoryStore()
    zom.to_store(zom.from_json(example), store)
    assert "storage_transformers" not in json.loads(store.get("array/zarr.json"))  # ZOM-013


# ---- the published schemas agree with the pydantic models ---------------------------------------

AGREEMENT_EXAMPLES = (
    [row[1] for row in V3_TABLE]
    + [row[1] for row in V2_TABLE]
    + [V3_ARRAY, V2_ARRAY, v3_with(attributes={"a": [1, None]}), v2_with(attributes=[])]
    + [
        v3_with(**{k: v})
        for k, v in [
            ("shape", [-1]),
            ("shape", []),
            ("codecs", []),
            ("codecs", ["bytes", {"name": "crc32c", "configuration": {}}]),
            (
                "data_type",
                {"name": "numpy.datetime64", "configuration": {"unit": "s", "scale_factor": 1}},
            ),
            ("data_type", {"name": "x", "must_understand": "no"}),
            ("fill_value", [1, 2, 300]),
            ("fill_value", []),
            ("fill_value", True),
            ("fill_value", "NaN"),
            ("dimension_names", None),
            ("storage_transformers", [{"name": "t"}]),
            ("zarr_format", "3"),
        ]
    ]
    + [
        v2_with(**{k: v})
        for k, v in [
            ("order", "A"),
            ("compressor", {"level": 1}),
            ("filters", [{"id": "delta", "dtype": "<i4"}]),
            ("dtype", [["a", [["b", "<i4"]]]]),
            ("dtype", [["a", "<i4", [2], "extra"]]),
            ("shape", [1, -1]),
            ("dimension_separator", "."),
            ("zarr_format", 2.5),
        ]
    ]
)


@pytest.mark.parametrize("instance", AGREEMENT_EXAMPLES)
def test_published_schema_agrees_with_the_models(instance):
    version = (
        2
        if (instance.get("zarr_format") == 2 or "zarr_version" in instance or "chunks" in instance)
        else 3
    )
    try:
        model = zom.from_json(instance, zarr_format=version)
        model_accepts = True
    except MetadataError:
        model_accepts = False
    assert zom.is_valid(instance, f"v{version}") is model_accepts, zom.schema_errors(
        instance, f"v{version}"
    )
    if model_accepts:
        # what the models accept also passes pydantic's own (looser) generated schema
        cls = type(model)
        assert Draft202012Validator(cls.model_json_schema()).is_valid(instance)


def test_json_schema_integer_accepts_integral_floats_but_the_models_do_not():
    """A known limit of JSON Schema: `type: integer` accepts 4.0; the models are strict."""
    instance = v3_with(shape=[4.0])
    assert zom.is_valid(instance, "v3")
    with pytest.raises(MetadataError):
        zom.from_json(instance)


@pytest.mark.parametrize("name", zom.SCHEMA_NAMES)
def test_published_schemas_are_valid_2020_12_schemas(name):
    schema = zom.load_schema(name)
    Draft202012Validator.check_schema(schema)
    if not name.startswith("zep6-original"):
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_original_schemas_are_the_zep_text():
    """The transcriptions are exactly the JSON blocks of ZEP 6 (parsed, not retyped)."""
    import re
    from pathlib import Path

    seed = Path(__file__).resolve().parents[3] / "conformance" / "reference" / "zom" / "schemas"
    v3 = json.loads((seed / "zep6-original-v3.schema.json").read_text())
    v2 = json.loads((seed / "zep6-original-v2.schema.json").read_text())
    assert set(v3) == {"$defs", "allOf"} and set(v2) == {"$ref", "definitions"}
    assert v3["$defs"]["NamedConfig"]["required"] == ["name", "configuration"]
    assert re.search("attributess", json.dumps(v2))
