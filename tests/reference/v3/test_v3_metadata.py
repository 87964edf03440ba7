"""Array and group zarr.json validation: every N test of V3-ARR/GRP/EXT/DT/GRID/CKE with its reason."""

from __future__ import annotations

import json

import numpy as np
import pytest

from conformance.reference.formats.v3 import (
    FORMAT,
    parse_array_metadata,
    parse_data_type,
    read_consolidated,
)
from conformance.reference.formats.v3.metadata import load_document

from .helpers import DROP, LE, array_doc, expect_reason, group_doc, make_store, open_doc

REQUIRED = ["shape", "data_type", "chunk_grid", "chunk_key_encoding", "fill_value", "codecs"]

REJECT_ARRAY = [
    # (requirement, overrides, reason)
    ("V3-ARR-001", {"zarr_format": "3"}, "invalid-zarr-format"),
    ("V3-ARR-001", {"zarr_format": 2}, "invalid-zarr-format"),
    ("V3-ARR-001", {"zarr_format": 3.0}, "invalid-zarr-format"),
    ("V3-ARR-001", {"zarr_format": True}, "invalid-zarr-format"),
    ("V3-ARR-002", {"node_type": DROP}, "invalid-node-type"),
    ("V3-ARR-002", {"node_type": "Array"}, "invalid-node-type"),
    ("V3-ARR-002", {"node_type": ["array"]}, "invalid-node-type"),
    ("V3-ARR-003", {"zarr_format": DROP}, "missing-field"),
    *[("V3-ARR-003", {name: DROP}, "missing-field") for name in REQUIRED],
    ("V3-ARR-004", {"shape": [-1, 6]}, "invalid-shape"),
    ("V3-ARR-004", {"shape": [1.5, 6]}, "invalid-shape"),
    ("V3-ARR-004", {"shape": "10"}, "invalid-shape"),
    ("V3-ARR-004", {"shape": [True, 6]}, "invalid-shape"),
    ("V3-ARR-004", {"shape": [4.0, 6]}, "invalid-shape"),
    ("V3-ARR-005", {"codecs": []}, "codec-order"),
    ("V3-ARR-007", {"storage_transformers": [{"name": "foo"}]}, "invalid-storage-transformer"),
    ("V3-ARR-007", {"storage_transformers": {}}, "invalid-storage-transformer"),
    ("V3-ARR-007", {"storage_transformers": None}, "invalid-storage-transformer"),
    ("V3-ARR-008", {"dimension_names": ["a", "b", "c"]}, "invalid-dimension-names"),
    ("V3-ARR-008", {"dimension_names": [1, 2]}, "invalid-dimension-names"),
    ("V3-ARR-008", {"dimension_names": "xy"}, "invalid-dimension-names"),
    ("V3-ARR-010", {"foo": 1}, "unknown-field"),
    ("V3-ARR-010", {"foo": {"bar": 1}}, "unknown-field"),
    ("V3-ARR-010", {"foo": {"must_understand": True}}, "unknown-field"),
    ("V3-ARR-010", {"foo": {"must_understand": "false"}}, "unknown-field"),
    ("V3-ARR-010", {"foo": None}, "unknown-field"),
    ("V3-ARR-010", {"consolidated_metadata": None}, "unknown-field"),  # only groups carry it
    (
        "V3-ARR-012",
        {"chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [5]}}},
        "invalid-chunk-shape",
    ),
    ("V3-ATTR-001", {"attributes": []}, "invalid-attributes"),
    ("V3-ATTR-001", {"attributes": None}, "invalid-attributes"),
    (
        "V3-EXT-001",
        {"chunk_key_encoding": {"name": "default", "configuration": 5}},
        "invalid-chunk-key-encoding",
    ),
    ("V3-EXT-001", {"chunk_key_encoding": {"configuration": {}}}, "invalid-chunk-key-encoding"),
    (
        "V3-EXT-001",
        {"chunk_key_encoding": {"name": "default", "extra": 1}},
        "invalid-chunk-key-encoding",
    ),
    (
        "V3-EXT-003",
        {"data_type": {"name": "my_unknown", "must_understand": False}},
        "invalid-data-type",
    ),
    ("V3-EXT-003", {"data_type": {"name": "int32", "must_understand": False}}, "invalid-data-type"),
    (
        "V3-EXT-003",
        {
            "chunk_grid": {
                "name": "regular",
                "configuration": {"chunk_shape": [2, 3]},
                "must_understand": False,
            }
        },
        "invalid-chunk-grid",
    ),
    (
        "V3-EXT-003",
        {"chunk_key_encoding": {"name": "default", "must_understand": False}},
        "invalid-chunk-key-encoding",
    ),
    (
        "V3-EXT-003",
        {"chunk_key_encoding": {"name": "weird", "must_understand": False}},
        "invalid-chunk-key-encoding",
    ),
    ("V3-EXT-004", {"codecs": [LE, {"name": "no_such_codec"}]}, "unknown-codec"),
    ("V3-EXT-005", {"chunk_grid": {"name": "rectilinear_x"}}, "invalid-chunk-grid"),
    ("V3-EXT-005", {"chunk_key_encoding": {"name": "weird"}}, "invalid-chunk-key-encoding"),
    ("V3-DT-001", {"data_type": "<f8"}, "invalid-data-type"),
    ("V3-DT-001", {"data_type": "|u1"}, "invalid-data-type"),
    ("V3-DT-001", {"data_type": "Int32"}, "invalid-data-type"),
    ("V3-DT-007", {"data_type": "r12"}, "invalid-data-type"),
    ("V3-DT-008", {"data_type": "int128"}, "invalid-data-type"),
    ("V3-DT-008", {"data_type": 5}, "invalid-data-type"),
    (
        "V3-DT-008",
        {"data_type": {"name": "datetime", "configuration": {"unit": "ns"}}},
        "invalid-data-type",
    ),
    (
        "V3-GRID-001",
        {"chunk_grid": {"name": "regular", "chunk_shape": [2, 3]}},
        "invalid-chunk-grid",
    ),
    ("V3-GRID-001", {"chunk_grid": "regular"}, "invalid-chunk-grid"),
    (
        "V3-GRID-001",
        {"chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2, 3], "x": 1}}},
        "invalid-chunk-grid",
    ),
    (
        "V3-GRID-001",
        {"chunk_grid": {"name": "regular", "configuration": {"chunk_shape": "2,3"}}},
        "invalid-chunk-shape",
    ),
    (
        "V3-GRID-009",
        {"chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [0, 3]}}},
        "invalid-chunk-shape",
    ),
    (
        "V3-GRID-009",
        {"chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [-2, 3]}}},
        "invalid-chunk-shape",
    ),
    (
        "V3-CKE-003",
        {"chunk_key_encoding": {"name": "default", "configuration": {"separator": "-"}}},
        "invalid-chunk-key-encoding",
    ),
    (
        "V3-CKE-003",
        {"chunk_key_encoding": {"name": "default", "configuration": {"separator": ""}}},
        "invalid-chunk-key-encoding",
    ),
    (
        "V3-CKE-003",
        {"chunk_key_encoding": {"name": "v2", "configuration": {"separator": ["/"]}}},
        "invalid-chunk-key-encoding",
    ),
    ("V3-FILL-010", {"fill_value": None}, "invalid-fill-value"),
    ("V3-FILL-002", {"fill_value": 1.0}, "invalid-fill-value"),
]


@pytest.mark.parametrize(
    "requirement, overrides, reason",
    REJECT_ARRAY,
    ids=[f"{r[0]}-{i}" for i, r in enumerate(REJECT_ARRAY)],
)
def test_invalid_array_documents_are_rejected(requirement, overrides, reason):
    error = expect_reason(reason, open_doc, array_doc(**overrides), "a")
    assert error.requirement is not None


def test_reference_array_document_is_valid():
    """The base document of the table above opens: each rejection is caused by its override."""
    array = open_doc(array_doc(), "a")
    assert (array.shape, array.chunks, array.dtype) == ((4, 6), (2, 3), np.dtype("int32"))


def test_group_document_opened_as_array_is_rejected():
    store = make_store({"g/zarr.json": group_doc()})
    expect_reason("invalid-node-type", FORMAT.open_array, store, "g")
    store = make_store({"a/zarr.json": array_doc()})
    expect_reason("invalid-node-type", FORMAT.open_group, store, "a")


@pytest.mark.parametrize(
    "text",
    [
        # V3-ARR-013: the spec's examples carry trailing commas; built here, never pasted
        lambda doc: json.dumps(doc)[:-1] + ",}",
        lambda doc: json.dumps(doc).replace('"fill_value": 0', '"fill_value": NaN'),
        lambda doc: json.dumps(doc).replace('"fill_value": 0', '"fill_value": Infinity'),
        lambda doc: json.dumps(doc) + "// comment",
        lambda doc: json.dumps(doc).replace('"fill_value": 0', '"fill_value": 0, "fill_value": 0'),
        lambda doc: "[" + json.dumps(doc) + "]",
    ],
)
def test_non_strict_json_is_rejected(text):
    data = text(array_doc()).encode()
    store = make_store({"zarr.json": data})
    with pytest.raises(Exception) as info:
        FORMAT.open_array(store, "")
    assert info.value.reason in ("invalid-json", "invalid-metadata")


def test_invalid_utf8_is_rejected():
    data = json.dumps(array_doc(attributes={"x": "\u00e9"}), ensure_ascii=False).encode("latin-1")
    expect_reason("invalid-json", FORMAT.open_array, make_store({"zarr.json": data}), "")


# ---- accepted forms ---------------------------------------------------------------------------


def test_spec_core_example_opens():
    """The first array example of the core spec (built as a dict: the text is not pasted)."""
    doc = {
        "zarr_format": 3,
        "node_type": "array",
        "shape": [10000, 1000],
        "dimension_names": ["rows", "columns"],
        "data_type": "float64",
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [1000, 100]}},
        "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
        "codecs": [LE],
        "fill_value": "NaN",
        "attributes": {"foo": 42, "bar": "apples", "baz": [1, 2, 3, 4]},
    }
    array = open_doc(doc)
    assert array.grid_shape == (10, 10)
    assert array.dimension_names == ("rows", "columns")
    assert array.attrs == {"foo": 42, "bar": "apples", "baz": [1, 2, 3, 4]}
    assert array.fill_value.view("u8") == 0x7FF8000000000000
    assert np.isnan(array[0:2, 0:2]).all()


def test_spec_extension_example_is_rejected():
    """The core spec's made-up `datetime` extension type is unknown here (and its null fill is
    valid only for an extension that defines it)."""
    doc = array_doc(
        data_type={"name": "datetime", "configuration": {"unit": "ns"}}, fill_value=None
    )
    expect_reason("invalid-data-type", open_doc, doc)


def test_spec_group_example_opens():
    group = open_doc(group_doc(attributes={"spam": "ham", "eggs": 42}))
    assert group.kind == "group" and group.attrs == {"spam": "ham", "eggs": 42}


@pytest.mark.parametrize(
    "requirement, overrides",
    [
        ("V3-ARR-006", {}),
        ("V3-ARR-007", {"storage_transformers": []}),
        ("V3-ARR-008", {"dimension_names": [None, "x"]}),
        ("V3-ARR-009", {"dimension_names": ["x", "x"]}),
        ("V3-ARR-010", {"foo": {"must_understand": False, "x": 1}}),
        ("V3-ATTR-003", {"attributes": {"must_understand": True, "codecs": "x"}}),
        ("V3-EXT-002", {"chunk_key_encoding": "default"}),
        ("V3-EXT-002", {"chunk_key_encoding": {"name": "default", "must_understand": True}}),
        ("V3-EXT-003", {"data_type": {"name": "int32"}}),
        ("V3-EXT-003", {"data_type": {"name": "int32", "configuration": {}}}),
        ("V3-CKE-002", {"chunk_key_encoding": {"name": "default"}}),
        ("V3-CKE-002", {"chunk_key_encoding": {"name": "default", "configuration": {}}}),
    ],
)
def test_accepted_array_documents_read_data(requirement, overrides):
    chunk = np.arange(6, dtype="<i4").tobytes()
    array = open_doc(array_doc(**overrides), "a", {"a/c/0/1": chunk})
    assert array[0:2, 3:6].tolist() == [[0, 1, 2], [3, 4, 5]]
    assert array[2:, :].tolist() == [[0] * 6] * 2


def test_codec_short_hand_names_are_read():
    """V3-ARR-014 (3.1): ["bytes"] is {"name": "bytes"} for a one-byte type."""
    doc = array_doc(data_type="uint8", codecs=["bytes"])
    array = open_doc(doc, "", {"c/1/1": bytes(range(6))})
    assert array[2:4, 3:6].tolist() == [[0, 1, 2], [3, 4, 5]]


def test_absent_attributes_read_as_empty_object():
    assert open_doc(array_doc()).attrs == {}
    assert open_doc(group_doc()).attrs == {}  # V3-GRP-002


def test_ignored_member_is_noted():
    array = open_doc(array_doc(foo={"must_understand": False}))
    assert array.notes and "foo" in array.notes[0]


# ---- data types --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, dtype",
    [
        ("bool", "?"),
        ("int8", "i1"),
        ("int16", "i2"),
        ("int32", "i4"),
        ("int64", "i8"),
        ("uint8", "u1"),
        ("uint16", "u2"),
        ("uint32", "u4"),
        ("uint64", "u8"),
        ("float16", "f2"),
        ("float32", "f4"),
        ("float64", "f8"),
        ("complex64", "c8"),
        ("complex128", "c16"),
        ("r8", "V1"),
        ("r16", "V2"),
        ("r24", "V3"),
    ],
)
def test_core_data_types_map_to_native_numpy(name, dtype):
    data_type = parse_data_type(name)
    assert data_type.dtype == np.dtype(dtype) and data_type.dtype.isnative
    assert not data_type.extension and data_type.to_json() == name


@pytest.mark.parametrize(
    "name", ["r0", "r08", "r-8", "r", "R8", "r8 ", "float", "complex", "uint", "string8"]
)
def test_malformed_data_type_names(name):
    expect_reason("invalid-data-type", parse_data_type, name)


@pytest.mark.parametrize(
    "value, dtype",
    [
        ({"name": "numpy.datetime64", "configuration": {"unit": "s", "scale_factor": 1}}, "M8[s]"),
        (
            {"name": "numpy.datetime64", "configuration": {"unit": "μs", "scale_factor": 10}},
            "M8[10us]",
        ),
        (
            {"name": "numpy.timedelta64", "configuration": {"unit": "ns", "scale_factor": 1}},
            "m8[ns]",
        ),
        (
            {"name": "numpy.timedelta64", "configuration": {"unit": "generic", "scale_factor": 1}},
            "m8",
        ),
        ("string", "O"),
        ("bytes", "O"),
        ("variable_length_bytes", "O"),
    ],
)
def test_extension_data_types(value, dtype):
    data_type = parse_data_type(value)
    assert data_type.extension and data_type.dtype == np.dtype(dtype)


@pytest.mark.parametrize(
    "config",
    [
        None,
        {"unit": "s"},
        {"unit": "s", "scale_factor": 0},
        {"unit": "s", "scale_factor": 2**31},
        {"unit": "s", "scale_factor": 1.0},
        {"unit": "sec", "scale_factor": 1},
        {"unit": "generic", "scale_factor": 2},
        {"unit": "s", "scale_factor": 1, "endian": "little"},
    ],
)
def test_malformed_time_data_types(config):
    value = (
        {"name": "numpy.datetime64"}
        if config is None
        else {"name": "numpy.datetime64", "configuration": config}
    )
    expect_reason("invalid-data-type", parse_data_type, value)


# ---- groups ------------------------------------------------------------------------------------

REJECT_GROUP = [
    ("V3-GRP-001", {"node_type": DROP}, "invalid-node-type"),
    ("V3-GRP-001", {"zarr_format": 2}, "invalid-zarr-format"),
    ("V3-GRP-003", {"foo": 1}, "unknown-field"),
    ("V3-GRP-003", {"foo": {"must_understand": True}}, "unknown-field"),
    ("V3-GRP-003", {"shape": [1]}, "unknown-field"),
    ("V3-GRP-004", {"consolidated_metadata": 5}, "invalid-metadata"),
    ("V3-ATTR-001", {"attributes": "x"}, "invalid-attributes"),
]


@pytest.mark.parametrize("requirement, overrides, reason", REJECT_GROUP)
def test_invalid_group_documents_are_rejected(requirement, overrides, reason):
    expect_reason(reason, open_doc, group_doc(**overrides), "g")


def test_group_unknown_member_with_must_understand_false_opens():
    assert open_doc(group_doc(foo={"must_understand": False})).kind == "group"  # V3-GRP-003


def test_consolidated_metadata_object_and_null():
    """V3-GRP-004 / §9: the zarr-python object form is read; 3.0.x's null is tolerated and noted."""
    inner = {"a": array_doc(), "b": group_doc(attributes={"k": 1})}
    consolidated = {"kind": "inline", "must_understand": False, "metadata": inner}
    store = make_store({"zarr.json": group_doc(consolidated_metadata=consolidated)})
    group = FORMAT.open_group(store, "")
    assert group.notes == [] and group.consolidated == consolidated
    assert read_consolidated(store, "") == inner
    store = make_store({"zarr.json": group_doc(consolidated_metadata=None)})
    group = FORMAT.open_group(store, "")
    assert group.notes and "V3-GRP-004" in group.notes[0]
    assert read_consolidated(store, "") is None
    assert read_consolidated(make_store({"zarr.json": group_doc()})) is None
    bad = make_store(
        {"zarr.json": group_doc(consolidated_metadata={"kind": "file", "metadata": {}})}
    )
    expect_reason("invalid-metadata", read_consolidated, bad, "")


# ---- hostile input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "overrides, reason",
    [
        (
            {
                "shape": [1] * 65,
                "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [1] * 65}},
            },
            "too-large",
        ),
        ({"shape": [2**64, 1]}, "too-large"),
        ({"data_type": "r99999999992"}, "invalid-data-type"),
        ({"data_type": "r999999992"}, "too-large"),
        ({"attributes": {"deep": json.loads("[" * 50 + "]" * 50)}, "shape": "x"}, "invalid-shape"),
    ],
)
def test_hostile_documents_fail_cleanly(overrides, reason):
    expect_reason(reason, open_doc, array_doc(**overrides))


def test_deeply_nested_document_is_invalid_json():
    data = (
        b'{"zarr_format": 3, "node_type": "group", "attributes": {"x": '
        + b"[" * 100000
        + b"]" * 100000
        + b"}}"
    )
    expect_reason("invalid-json", FORMAT.open_group, make_store({"zarr.json": data}), "")


def test_load_document_keeps_exact_float_fill_text():
    doc, exact = load_document(json.dumps(array_doc(data_type="float32", fill_value=0.1)).encode())
    assert str(exact) == "0.1" and doc["fill_value"] == 0.1
    meta = parse_array_metadata(doc, exact)
    assert meta.fill_value.view("u4") == 0x3DCCCCCD
