"""`.zarray` and `.zgroup` validation (V2-META-001..009, V2-GROUP-002) and the canonical builder."""

from __future__ import annotations

import json

import numcodecs
import pytest
from v2_helpers import make_store, zarray

from conformance.reference.errors import MetadataError, UnsupportedError, ZarrError
from conformance.reference.formats.v2 import array_metadata, parse_array_metadata

REQUIRED = [
    "zarr_format",
    "shape",
    "chunks",
    "dtype",
    "compressor",
    "fill_value",
    "order",
    "filters",
]


def reject(doc, reason, v2=None):
    """Assert that opening an array with this `.zarray` fails with `reason`."""
    from conformance.reference.formats.v2 import FORMAT

    store = make_store({".zarray": doc, "0": bytes(8)})
    with pytest.raises(ZarrError) as info:
        FORMAT.open_array(store, "")
    assert info.value.reason == reason, info.value
    return info.value


def test_valid_document_opens(v2):
    a = v2.open_array(make_store({".zarray": zarray()}), "")
    assert (a.shape, a.chunks, a.dtype.str) == ((4,), (2,), "<i4")
    assert a.notes == []


@pytest.mark.parametrize("key", REQUIRED)
def test_each_required_key_is_required(key):  # V2-META-001
    error = reject(zarray(**{key: ...}), "missing-field")
    assert error.requirement == "V2-META-001" and key in error.message


@pytest.mark.parametrize(
    "overrides, reason",
    [
        ({"zarr_format": 3}, "invalid-zarr-format"),  # V2-META-002
        ({"zarr_format": "2"}, "invalid-zarr-format"),
        ({"zarr_format": 2.0}, "invalid-zarr-format"),
        ({"zarr_format": True}, "invalid-zarr-format"),
        ({"shape": [10, 10], "chunks": [5]}, "invalid-chunk-shape"),  # V2-META-003
        ({"shape": [4], "chunks": [0]}, "invalid-chunk-shape"),
        ({"shape": [4], "chunks": [-1]}, "invalid-chunk-shape"),
        ({"shape": [4], "chunks": [2.0]}, "invalid-chunk-shape"),
        ({"shape": [4], "chunks": 2}, "invalid-chunk-shape"),
        ({"shape": [-4]}, "invalid-shape"),
        ({"shape": [4.5]}, "invalid-shape"),
        ({"shape": [True]}, "invalid-shape"),
        ({"shape": "4"}, "invalid-shape"),
        ({"shape": [2**64]}, "invalid-shape"),
        ({"shape": [1] * 65, "chunks": [1] * 65}, "too-large"),
        ({"compressor": {"level": 1}}, "invalid-codec"),  # V2-META-004
        ({"compressor": "zlib"}, "invalid-codec"),
        ({"compressor": {"id": 5}}, "invalid-codec"),
        ({"compressor": {"id": "zlib", "nonsense": 1}}, "invalid-codec"),
        ({"compressor": {"id": "blosc", "cname": "nope"}}, "invalid-codec"),
        ({"compressor": {"id": "nonexistent-codec"}}, "unknown-codec"),  # V2-CHUNK-008
        ({"filters": [{"dtype": "<f8"}]}, "invalid-codec"),  # V2-META-005
        ({"filters": {"id": "delta", "dtype": "<i4"}}, "invalid-codec"),
        ({"filters": ["delta"]}, "invalid-codec"),
        ({"filters": [{"id": "nonexistent-filter"}]}, "unknown-codec"),
        ({"filters": [{"id": "pickle"}]}, "unsupported"),
        ({"order": "A"}, "invalid-order"),  # V2-META-006
        ({"order": "c"}, "invalid-order"),
        ({"order": None}, "invalid-order"),
        ({"dimension_separator": "-"}, "invalid-chunk-key-encoding"),  # V2-META-007
        ({"dimension_separator": None}, "invalid-chunk-key-encoding"),
        ({"dimension_separator": ""}, "invalid-chunk-key-encoding"),
        ({"dimension_separator": "//"}, "invalid-chunk-key-encoding"),
        ({"dtype": "f8"}, "invalid-data-type"),  # V2-DTYPE-001
        ({"fill_value": "x"}, "invalid-fill-value"),
    ],
)
def test_invalid_documents_are_rejected(overrides, reason):
    reject(zarray(**overrides), reason)


@pytest.mark.parametrize(
    "raw, reason",
    [
        (b"[]", "invalid-metadata"),
        (b"{", "invalid-json"),
        (b'{"fill_value": NaN}', "invalid-json"),  # V2-META-009: bare tokens are not JSON
        (b"\xff\xfe{}", "invalid-json"),
        (b'{"a": 1, "a": 2}', "invalid-json"),
        (b"[" * 100000, "invalid-json"),
    ],
)
def test_malformed_json_is_rejected(raw, reason):
    reject(raw, reason)


def test_unknown_keys_are_tolerated_with_a_note(v2):  # V2-META-008
    a = v2.open_array(make_store({".zarray": zarray(foo=1, bar={"x": []})}), "")
    assert a.shape == (4,)
    assert len(a.notes) == 1 and "V2-META-008" in a.notes[0] and "'bar', 'foo'" in a.notes[0]


def test_empty_filter_list_reads_as_no_filters(v2):  # V2-META-005 (R, SHOULD)
    store = make_store({".zarray": zarray(filters=[]), "0": bytes.fromhex("0100000002000000")})
    a = v2.open_array(store, "")
    assert a[:].tolist() == [1, 2, 0, 0]
    assert any("V2-META-005" in note for note in a.notes)


def test_writer_emits_null_not_empty_filters():  # V2-META-005 (W, SHOULD)
    assert array_metadata((4,), (2,), "<i4", filters=[])["filters"] is None


@pytest.mark.parametrize(
    "overrides",
    [
        {},
        {"dimension_separator": "."},
        {"dimension_separator": "/"},
        {"compressor": {"id": "zlib", "level": 1}},
    ],
)
def test_all_required_keys_written(overrides):  # V2-META-001 (W), V2-META-008 (W)
    doc = array_metadata((4,), (2,), "<i4", **overrides)
    assert set(REQUIRED) <= set(doc) <= set(REQUIRED) | {"dimension_separator"}
    assert doc["compressor"] == overrides.get("compressor") and doc["filters"] is None


def test_builder_key_order_is_sorted():
    doc = array_metadata(
        (4, 6),
        (2, 3),
        "float64",
        fill_value=float("nan"),
        order="F",
        compressor=numcodecs.Zlib(level=3),
        filters=[numcodecs.Delta(dtype="<f8")],
        dimension_separator="/",
    )
    assert list(doc) == sorted(doc)
    assert doc == {
        "chunks": [2, 3],
        "compressor": {"id": "zlib", "level": 3},
        "dimension_separator": "/",
        "dtype": "<f8",
        "fill_value": "NaN",
        "filters": [{"id": "delta", "dtype": "<f8", "astype": "<f8"}],
        "order": "F",
        "shape": [4, 6],
        "zarr_format": 2,
    }
    assert "dimension_separator" not in array_metadata((4,), (2,), "<i4")


@pytest.mark.parametrize(
    "fill, text",
    [(float("nan"), '"NaN"'), (float("inf"), '"Infinity"'), (float("-inf"), '"-Infinity"')],
)
def test_written_metadata_is_strict_json(
    v2, memory_store, fill, text
):  # V2-META-009, V2-FILL-001 (W)
    v2.create_array(memory_store, "x", v2.array_metadata((2,), (2,), "<f4", fill_value=fill))
    raw = memory_store.data["x/.zarray"].decode("ascii")

    def refuse(token):
        raise ValueError(token)

    assert json.loads(raw, parse_constant=refuse)["fill_value"] == json.loads(text)
    assert f'"fill_value": {text}' in raw


def test_create_array_refuses_invalid_metadata(v2, memory_store):
    with pytest.raises(MetadataError):
        v2.create_array(memory_store, "x", zarray(order="A"))
    with pytest.raises(MetadataError):
        v2.create_array(memory_store, "x", zarray(fill_value=float("nan")))  # not JSON: V2-META-009
    assert memory_store.data == {}


@pytest.mark.parametrize(
    "doc, reason",
    [
        ({}, "missing-field"),
        ({"zarr_format": 3}, "invalid-zarr-format"),
        ({"zarr_format": "2"}, "invalid-zarr-format"),
        ([], "invalid-metadata"),
    ],
)
def test_invalid_zgroup_is_rejected(v2, doc, reason):  # V2-GROUP-002
    with pytest.raises(ZarrError) as info:
        v2.open_group(make_store({".zgroup": doc}), "")
    assert info.value.reason == reason


def test_zgroup_extra_keys_are_tolerated_with_a_note(v2):  # V2-GROUP-002 (R, lenient)
    group = v2.open_group(make_store({".zgroup": {"zarr_format": 2, "extra": True}}), "")
    assert any("V2-GROUP-002" in note for note in group.notes)


def test_parse_returns_codecs_in_order():
    meta = parse_array_metadata(
        zarray(
            dtype="<f8",
            filters=[
                {"id": "delta", "dtype": "<f8"},
                {"id": "astype", "encode_dtype": "<f4", "decode_dtype": "<f8"},
            ],
            compressor={"id": "gzip", "level": 5},
        )
    )
    assert [f.codec_id for f in meta.filters] == [
        "delta",
        "astype",
    ] and meta.compressor.codec_id == "gzip"
    assert meta.dimension_separator == "."  # V2-META-007: absent means '.'


@pytest.mark.parametrize(
    "overrides, error",
    [
        ({"dtype": "|O", "filters": None}, MetadataError),
        ({"dtype": "|O", "filters": [{"id": "zlib"}, {"id": "vlen-utf8"}]}, MetadataError),
        ({"dtype": "<i4", "filters": [{"id": "vlen-utf8"}]}, MetadataError),
        ({"dtype": "|O", "filters": [{"id": "vlen-array", "dtype": "<i4"}]}, UnsupportedError),
        ({"dtype": "|O", "filters": [{"id": "json2"}]}, UnsupportedError),
    ],
)
def test_object_codec_rules(overrides, error):
    with pytest.raises(error):
        parse_array_metadata(zarray(fill_value=None, **overrides))


@pytest.mark.parametrize(
    "dtype, fill",
    [
        ("|S3", ""),
        ("<U2", ""),
        ("|V2", "AAA="),
        ([["a", "<i2"], ["b", "|u1"]], "AAAA"),
        ("<i4", 0),
        ("<f8", 0.0),
        ("|b1", False),
        ("<M8[s]", 0),
        ("<c8", [0.0, 0.0]),
    ],
)
def test_default_fill_is_the_zero_item(dtype, fill):
    assert array_metadata((2,), (2,), dtype)["fill_value"] == fill
