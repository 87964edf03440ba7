"""Entry point, array and group documents, data types and fill values (V3DRAFT-META-*)."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

from conformance.reference import MemoryStore
from conformance.reference.errors import MetadataError, ZarrError
from conformance.reference.formats.v3draft import FallbackDataTypeWarning

CORE = "https://purl.org/zarr/spec/core/3.0"
JSON_ENCODING = {"type": "json", "metadata_key_suffix": ".json"}


def _open(fmt, make_store, doc, entry_point=None, chunks=None):
    docs = {"meta/a.array.json": doc, **(chunks or {})}
    store = make_store(docs) if entry_point is None else make_store(docs, entry_point)
    return fmt.open_array(store, "a")


def _reason(fmt, make_store, doc, **kw) -> tuple[str, str | None]:
    with pytest.raises(ZarrError) as err:
        _open(fmt, make_store, doc, **kw)
    return err.value.reason, err.value.requirement


# ---- entry point (V3DRAFT-META-001/002/003) ----------------------------------------------------
def _entry(**overrides):
    doc = {"zarr_format": CORE, "metadata_encoding": dict(JSON_ENCODING), "extensions": []}
    doc.update(overrides)
    return {k: v for k, v in doc.items() if v is not None}


@pytest.mark.parametrize(
    "entry, reason",
    [
        (_entry(zarr_format="https://purl.org/zarr/spec/core/4.0"), "invalid-zarr-format"),
        (_entry(zarr_format="https://purl.org/zarr/spec/core/3"), "invalid-zarr-format"),
        (_entry(zarr_format=None), "missing-field"),
        (_entry(metadata_encoding="json"), "invalid-metadata"),  # string form refused
        (
            _entry(metadata_encoding={"type": "json", "metadata_key_suffix": ".JSON"}),
            "invalid-metadata",
        ),
        (
            _entry(
                metadata_encoding={
                    "extension": "https://example.org/cbor",
                    "type": "cbor",
                    "metadata_key_suffix": ".cbor",
                }
            ),
            "must-understand",
        ),
        (_entry(metadata_encoding=None), "missing-field"),
        (_entry(extensions=None), "missing-field"),
        (
            _entry(extensions=[{"extension": "https://example.org/x", "must_understand": True}]),
            "must-understand",
        ),
        (_entry(extensions=[{"extension": "https://example.org/x"}]), "invalid-extension"),
        (_entry(extensions={}), "invalid-extension"),
        (_entry(extra=1), "unknown-field"),
    ],
)
def test_entry_point_rejections(fmt, make_store, array_doc, entry, reason):
    assert _reason(fmt, make_store, array_doc(), entry_point=entry)[0] == reason


def test_entry_point_acceptances(fmt, make_store, array_doc):
    optional = {
        "extension": "https://example.org/x",
        "must_understand": False,
        "configuration": {"foo": "bar"},
    }
    assert _open(fmt, make_store, array_doc(), entry_point=_entry(extensions=[optional])).shape == (
        4,
        6,
    )
    # a 3.x minor version opens, and its new names are ignored (stability policy)
    minor = _entry(zarr_format="https://purl.org/zarr/spec/core/3.1", later_feature={"x": 1})
    assert _open(fmt, make_store, array_doc(new_member=1), entry_point=minor).shape == (4, 6)


def test_final_v3_zarr_json_is_not_a_draft_hierarchy(fmt, make_store):
    store = make_store({}, entry_point={"zarr_format": 3, "node_type": "group", "attributes": {}})
    assert fmt.flavour(store) is None and fmt.node_kind(store, "") is None


def test_invalid_entry_point_json(fmt):
    store = MemoryStore({"zarr.json": b'{"zarr_format": NaN}'})
    with pytest.raises(MetadataError, match="invalid-json"):
        fmt.node_kind(store, "")


# ---- array members (V3DRAFT-META-004/005) ------------------------------------------------------
@pytest.mark.parametrize(
    "member",
    [
        "shape",
        "data_type",
        "chunk_grid",
        "chunk_memory_layout",
        "fill_value",
        "extensions",
        "attributes",
    ],
)
def test_required_members(fmt, make_store, array_doc, member):
    assert _reason(fmt, make_store, array_doc(**{member: None})) == (
        "missing-field",
        "V3DRAFT-META-004",
    )


@pytest.mark.parametrize(
    "member, value",
    [
        ("dimension_names", ["x", "y"]),
        ("zarr_format", 3),
        ("compressor", None),
        ("node_type", "array"),
    ],
)
def test_unknown_members_rejected(fmt, make_store, array_doc, member, value):
    doc = array_doc()
    doc[member] = value
    assert _reason(fmt, make_store, doc) == ("unknown-field", "V3DRAFT-META-005")


def test_array_extensions(fmt, make_store, array_doc):
    ok = array_doc(extensions=[{"extension": "https://example.org/a", "must_understand": False}])
    assert _open(fmt, make_store, ok).shape == (4, 6)
    bad = array_doc(extensions=[{"extension": "https://example.org/a", "must_understand": True}])
    assert _reason(fmt, make_store, bad)[0] == "must-understand"


@pytest.mark.parametrize(
    "member, value, reason",
    [
        ("shape", [4, -1], "invalid-shape"),
        ("shape", [4, True], "invalid-shape"),
        ("shape", "4,6", "invalid-shape"),
        ("shape", [1] * 65, "invalid-shape"),
        (
            "chunk_grid",
            {"name": "regular", "configuration": {"chunk_shape": [2, 3]}},
            "invalid-chunk-grid",
        ),
        (
            "chunk_grid",
            {"type": "rectilinear", "chunk_shape": [2, 3], "separator": "/"},
            "invalid-chunk-grid",
        ),
        ("chunk_grid", {"extension": "https://example.org/g", "type": "g"}, "must-understand"),
        (
            "chunk_grid",
            {"type": "regular", "chunk_shape": [2, 3], "separator": "-"},
            "invalid-chunk-key-encoding",
        ),
        (
            "chunk_grid",
            {"type": "regular", "chunk_shape": [2], "separator": "/"},
            "invalid-chunk-shape",
        ),
        (
            "chunk_grid",
            {"type": "regular", "chunk_shape": [2, 0], "separator": "/"},
            "invalid-chunk-shape",
        ),
        (
            "chunk_grid",
            {"type": "regular", "chunk_shape": [2, 3], "separator": "/", "x": 1},
            "invalid-chunk-grid",
        ),
        ("chunk_memory_layout", "A", "invalid-order"),
        (
            "chunk_memory_layout",
            {"extension": "https://example.org/morton", "type": "z"},
            "must-understand",
        ),
        ("attributes", [], "invalid-attributes"),
        ("storage_transformers", {}, "invalid-storage-transformer"),
        (
            "storage_transformers",
            [{"extension": "https://example.org/cache", "type": "lru"}],
            "must-understand",
        ),
    ],
)
def test_malformed_members(fmt, make_store, array_doc, member, value, reason):
    assert _reason(fmt, make_store, array_doc(**{member: value}))[0] == reason


def test_separator_default_and_dot(fmt, make_store, array_doc):
    grid = {"type": "regular", "chunk_shape": [2, 3]}  # the grid section's default separator is '/'
    assert _open(fmt, make_store, array_doc(chunk_grid=grid)).chunk_key((1, 0)) == "data/a/c1/0"
    dotted = array_doc(chunk_grid={**grid, "separator": "."})
    a = _open(fmt, make_store, dotted, chunks={"data/a/c1.1": np.full(6, 9, "<i4").tobytes()})
    assert a[2, 3] == 9 and a[0, 0] == 0


def test_zero_length_dimension(fmt, make_store, array_doc):
    grid = {"type": "regular", "chunk_shape": [0, 3], "separator": "/"}
    a = _open(fmt, make_store, array_doc(shape=[0, 6], chunk_grid=grid))
    assert a[:].shape == (0, 6)


# ---- data types (V3DRAFT-META-006/007/008) -----------------------------------------------------
@pytest.mark.parametrize(
    "name, numpy",
    [
        ("bool", "|b1"),
        ("int8", "i1"),
        ("int16", "<i2"),
        ("int32", "<i4"),
        ("uint8", "u1"),
        ("uint16", "<u2"),
        ("uint32", "<u4"),
        ("float16", "<f2"),
        ("float32", "<f4"),
        ("float64", "<f8"),
        ("complex64", "<c8"),
        ("complex128", "<c16"),
        ("r8", "V1"),
        ("r24", "V3"),
    ],
)
def test_core_data_types(fmt, make_store, array_doc, name, numpy):
    kind = np.dtype(numpy).kind
    fill = "0x" + "00" * np.dtype(numpy).itemsize if kind in "cV" else (False if kind == "b" else 0)
    assert _open(fmt, make_store, array_doc(data_type=name, fill_value=fill)).dtype == np.dtype(
        numpy
    )


@pytest.mark.parametrize(
    "name", ["int64", "uint64", "<f8", "<i4", "float", "r12", "r0", "R8", "r08", 5, None]
)
def test_rejected_data_types(fmt, make_store, array_doc, name):
    reason, requirement = _reason(
        fmt, make_store, array_doc(data_type=name) if name is not None else array_doc(data_type=[])
    )
    assert reason == "invalid-data-type" and requirement == "V3DRAFT-META-006"


def test_raw_type_too_large(fmt, make_store, array_doc):
    assert (
        _reason(fmt, make_store, array_doc(data_type="r9999999992", fill_value="0x00"))[0]
        == "too-large"
    )


def test_extension_data_type_fallback(fmt, make_store, array_doc):
    """V3DRAFT-META-007: an unknown extension with fallback int32 reads as int32, with a warning."""
    ext = {"extension": "https://example.org/dt/money", "type": "money", "fallback": "int32"}
    chunk = np.arange(6, dtype="<i4").tobytes()
    with pytest.warns(FallbackDataTypeWarning):
        a = _open(
            fmt, make_store, array_doc(data_type=ext, fill_value=-5), chunks={"data/a/c0/0": chunk}
        )
    assert a.dtype == np.dtype("<i4")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FallbackDataTypeWarning)
        np.testing.assert_array_equal(a[0:2, 0:4], [[0, 1, 2, -5], [3, 4, 5, -5]])
        # the first *known* fallback of a list wins
        listed = dict(
            ext,
            fallback=[
                "<i8",
                {"extension": "https://example.org/other", "type": "t"},
                "uint16",
                "int32",
            ],
        )
        assert _open(fmt, make_store, array_doc(data_type=listed)).dtype == np.dtype("<u2")


@pytest.mark.parametrize("fallback", [None, "<i8", ["int64", "text"], []])
def test_extension_data_type_without_known_fallback(fmt, make_store, array_doc, fallback):
    ext = {"extension": "https://example.org/dt/money", "type": "money"}
    if fallback is not None:
        ext["fallback"] = fallback
    assert _reason(fmt, make_store, array_doc(data_type=ext)) == (
        "must-understand",
        "V3DRAFT-META-007",
    )


def test_default_representation_is_little_endian(fmt, make_store, array_doc):
    """V3DRAFT-META-008/012: with no codecs an int16 chunk is raw little-endian C order."""
    doc = array_doc(data_type="int16", shape=[2, 3])
    a = _open(
        fmt, make_store, doc, chunks={"data/a/c0/0": bytes.fromhex("0100 0002 ff7f 0080 fffe 0000")}
    )
    np.testing.assert_array_equal(a[:], [[1, 512, 32767], [-32768, -257, 0]])
    store = MemoryStore()
    w = fmt.create_array(store, "w", fmt.array_metadata((2, 3), (2, 3), "int32"))
    w[:] = np.arange(6).reshape(2, 3) - 1
    assert store.data["data/w/c0/0"] == np.arange(-1, 5, dtype="<i4").tobytes()
    assert "codecs" not in json.loads(store.data["meta/w.array.json"])


# ---- memory layout (V3DRAFT-META-010) ----------------------------------------------------------
V2_CHUNK_006 = bytes.fromhex("00000000 03000000 01000000 04000000 02000000 05000000")


def test_f_layout_reads_v2_chunk_006_bytes(fmt, make_store, array_doc):
    doc = array_doc(
        shape=[2, 3],
        chunk_grid={"type": "regular", "chunk_shape": [2, 3], "separator": "/"},
        chunk_memory_layout="F",
    )
    a = _open(fmt, make_store, doc, chunks={"data/a/c0/0": V2_CHUNK_006})
    np.testing.assert_array_equal(a[:], np.arange(6).reshape(2, 3))
    c = _open(
        fmt, make_store, dict(doc, chunk_memory_layout="C"), chunks={"data/a/c0/0": V2_CHUNK_006}
    )
    np.testing.assert_array_equal(c[:], [[0, 3, 1], [4, 2, 5]])


def test_f_layout_writes_v2_chunk_006_bytes(fmt):
    store = MemoryStore()
    a = fmt.create_array(store, "f", fmt.array_metadata((2, 3), (2, 3), "int32", order="F"))
    a[:] = np.arange(6).reshape(2, 3)
    assert store.data["data/f/c0/0"] == V2_CHUNK_006


# ---- fill values (V3DRAFT-META-011) ------------------------------------------------------------
def _fill(fmt, make_store, array_doc, data_type, value):
    return _open(fmt, make_store, array_doc(data_type=data_type, fill_value=value)).fill_value


@pytest.mark.parametrize(
    "data_type, value, hex_bits",
    [
        ("float32", "+Infinity", "0000807f"),
        ("float32", "-Infinity", "000080ff"),
        ("float64", "NaN", "000000000000f87f"),
        ("float16", "NaN", "007e"),
        ("float32", "0x3f800000", "0000803f"),
        ("float32", "0b00111111100000000000000000000000", "0000803f"),
        ("float32", "0x7fc00001", "0100c07f"),  # a NaN payload survives
        ("float64", -0.0, "0000000000000080"),
        ("float32", 0.1, "cdcccc3d"),
        ("float16", 1, "003c"),
        ("int16", "0xffff", "ffff"),
        ("int8", -128, "80"),
        ("uint32", 4294967295, "ffffffff"),
        ("bool", True, "01"),
        ("bool", "0x01", "01"),
        ("bool", "0b00000000", "00"),
        ("complex64", "0x3f80000040000000", "0000803f00000040"),  # 1 + 2j: real bits first
        ("r16", "0x0102", "0102"),  # raw bytes in storage order
        ("uint8", "0xAb", "ab"),
    ],
)
def test_fill_values(fmt, make_store, array_doc, data_type, value, hex_bits):
    fill = _fill(fmt, make_store, array_doc, data_type, value)
    assert fill.shape == () and fill.tobytes().hex() == hex_bits


@pytest.mark.parametrize(
    "data_type, value",
    [
        ("float32", None),  # null is not permitted (the draft's own example uses it: strict choice)
        ("int32", None),
        ("float32", "Infinity"),  # final v3 spelling, not this draft's
        ("float32", "inf"),
        ("float32", "nan"),
        ("float32", "0x3f80"),  # must be padded to the full width
        ("float32", "0x03f800000"),
        ("float32", "0x3f80_0000"),
        ("float32", "0X3F800000"),
        ("float32", 1e39),  # overflows float32
        ("float64", 10**400),
        ("float32", True),
        ("int32", 1.0),  # no fraction part allowed
        ("int32", 1e3),
        ("int8", 128),
        ("uint8", -1),
        ("int32", "1"),
        ("int32", False),
        ("bool", 0),
        ("bool", "0x02"),
        ("bool", "true"),
        ("complex64", [1.0, 2.0]),  # no JSON form for complex in this draft
        ("complex64", 0),
        ("r16", 0),
        ("r16", "0x01"),
        ("uint8", "0b1"),
    ],
)
def test_invalid_fill_values(fmt, make_store, array_doc, data_type, value):
    doc = array_doc(data_type=data_type)
    doc["fill_value"] = value
    assert _reason(fmt, make_store, doc) == ("invalid-fill-value", "V3DRAFT-META-011")


def test_fill_value_fills_missing_chunks(fmt, make_store, array_doc):
    a = _open(fmt, make_store, array_doc(data_type="float32", fill_value="+Infinity"))
    assert a[:].dtype == np.float32 and np.isposinf(a[:]).all()


@pytest.mark.parametrize(
    "dtype, value, written, bits",
    [
        ("float32", np.nan, "NaN", "0000c07f"),
        ("float64", -np.inf, "-Infinity", "000000000000f0ff"),
        ("float32", 0.5, 0.5, "0000003f"),
        ("float32", np.frombuffer(bytes.fromhex("0100c07f"), "<f4")[0], "0x7fc00001", "0100c07f"),
        (
            "complex128",
            1 - 2j,
            "0x3ff0000000000000c000000000000000",
            "000000000000f03f00000000000000c0",
        ),
        ("int16", -3, -3, "fdff"),
        ("bool", 1, True, "01"),
        ("r16", b"\x01\x02", "0x0102", "0102"),
        ("float32", "0x3f800000", "0x3f800000", "0000803f"),
    ],
)
def test_array_metadata_fill_encoding(fmt, dtype, value, written, bits):
    doc = fmt.array_metadata((2,), (2,), dtype, fill_value=value)
    assert doc["fill_value"] == written
    assert fmt.create_array(MemoryStore(), "a", doc).fill_value.tobytes().hex() == bits


def test_array_metadata_rejects_bad_fill(fmt):
    with pytest.raises(MetadataError, match="invalid-fill-value"):
        fmt.array_metadata((2,), (2,), "int8", fill_value=1.5)
    with pytest.raises(MetadataError, match="invalid-fill-value"):
        fmt.array_metadata((2,), (2,), "float32", fill_value="Infinity")
    with pytest.raises(MetadataError, match="invalid-data-type"):
        fmt.array_metadata((2,), (2,), "int64")


# ---- groups (V3DRAFT-META-016) -----------------------------------------------------------------
@pytest.mark.parametrize(
    "doc, reason",
    [
        ({"attributes": {}, "extensions": []}, "unknown-field"),
        ({"attributes": {}, "zarr_format": CORE}, "unknown-field"),
        ({}, "missing-field"),
        ({"attributes": "x"}, "invalid-attributes"),
        ([], "invalid-metadata"),
    ],
)
def test_group_document_rejections(fmt, make_store, doc, reason):
    store = make_store({"meta/g.group.json": doc})
    with pytest.raises(ZarrError) as err:
        fmt.open_group(store, "g")
    assert err.value.reason == reason


def test_group_document_accepted(fmt, make_store):
    store = make_store({"meta/g.group.json": {"attributes": {"spam": "ham", "eggs": 42}}})
    group = fmt.open_group(store, "g")
    assert group.attrs == {"spam": "ham", "eggs": 42} and not group.implicit
