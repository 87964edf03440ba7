"""Data types and their bytes (V2-DTYPE-001..010), read from hand-built fixture stores."""

from __future__ import annotations

import numpy as np
import pytest
from v2_helpers import make_store, zarray

from conformance.reference.errors import LimitError, MetadataError
from conformance.reference.formats.v2 import dtype_to_json, parse_dtype


def read_one_chunk(v2, dtype_doc, chunk: bytes, shape=(None,), **overrides):
    """Read a 1-chunk array whose only chunk holds exactly `chunk`."""
    itemsize = parse_dtype(dtype_doc).itemsize
    n = len(chunk) // itemsize if shape == (None,) else int(np.prod(shape))
    shape = [n] if shape == (None,) else list(shape)
    doc = zarray(dtype=dtype_doc, shape=shape, chunks=shape, fill_value=None, **overrides)
    return v2.open_array(make_store({".zarray": doc, ".".join("0" * len(shape)): chunk}), "")[...]


@pytest.mark.parametrize(
    "dtype, hexbytes, expected",
    [
        (">i2", "FFFE", [-2]),  # V2-DTYPE-002
        ("<i2", "FEFF", [-2]),
        (">i4", "00000001", [1]),
        ("<i4", "01000000", [1]),
        ("<u8", "FFFFFFFFFFFFFFFF", [2**64 - 1]),
        (">i8", "8000000000000000", [-(2**63)]),
        ("|u1", "00FF", [0, 255]),
        ("|i1", "80", [-128]),
        ("<f8", "000000000000F03F", [1.0]),
        (">f4", "3F800000", [1.0]),
        ("<f2", "003C", [1.0]),
        ("|b1", "0001", [False, True]),  # V2-DTYPE-003
    ],
)
def test_simple_types(v2, dtype, hexbytes, expected):  # V2-DTYPE-001/002/003
    out = read_one_chunk(v2, dtype, bytes.fromhex(hexbytes))
    assert out.tolist() == expected
    assert out.dtype.str == dtype  # the stored byte order is kept
    assert out.tobytes() == bytes.fromhex(hexbytes)


def test_datetime_with_unit(v2):  # V2-DTYPE-004
    out = read_one_chunk(v2, "<M8[s]", (86400).to_bytes(8, "little"))
    assert out[0] == np.datetime64("1970-01-02")
    out = read_one_chunk(v2, ">m8[ms]", (1500).to_bytes(8, "big"))
    assert out[0] == np.timedelta64(1500, "ms")


@pytest.mark.parametrize(
    "dtype", ["<M8", ">m8", "<M8[]", "<M8[parsec]", "<M4[s]", "|M8[s]", "<M8[0s]"]
)
def test_datetime_without_valid_unit_is_rejected(dtype):  # V2-DTYPE-004
    with pytest.raises(MetadataError) as info:
        parse_dtype(dtype)
    assert info.value.reason == "invalid-data-type"


def test_fixed_bytes(v2):  # V2-DTYPE-005
    out = read_one_chunk(v2, "|S5", bytes.fromhex("6162000000"))
    assert out[0] == b"ab" and out.tobytes() == b"ab\x00\x00\x00"


def test_fixed_unicode_little_and_big(v2):  # V2-DTYPE-006
    assert read_one_chunk(v2, "<U2", bytes.fromhex("6100000000000000"))[0] == "a"
    out = read_one_chunk(v2, ">U2", bytes.fromhex("000000610001F600"))
    assert out[0] == "a\U0001f600" and out.dtype.str == ">U2"


def test_structured_with_subarray(v2):  # V2-DTYPE-007
    doc = [["x", "<f4"], ["y", "<f4"], ["z", "<f4", [2, 2]]]
    dt = parse_dtype(doc)
    assert dt.itemsize == 24
    assert dt["z"].shape == (2, 2) and dt.fields["z"][1] == 8
    item = np.arange(6, dtype="<f4").tobytes()
    out = read_one_chunk(v2, doc, item)
    assert out["x"][0] == 0 and out["y"][0] == 1 and out["z"][0].tolist() == [[2, 3], [4, 5]]


def test_nested_structured(v2):  # V2-DTYPE-008
    doc = [["foo", "<f4"], ["bar", [["baz", "<f4"], ["qux", "<i4"]]]]
    dt = parse_dtype(doc)
    assert dt.itemsize == 12
    assert dt.fields["bar"][1] + dt["bar"].fields["qux"][1] == 8
    out = read_one_chunk(
        v2,
        doc,
        np.float32(1.5).tobytes()
        + np.float32(2.5).tobytes()
        + (-7).to_bytes(4, "little", signed=True),
    )
    assert out["bar"]["qux"][0] == -7 and out["bar"]["baz"][0] == 2.5 and out["foo"][0] == 1.5


def test_structured_is_packed_without_alignment_padding():  # V2-DTYPE-007
    dt = parse_dtype([["a", "|u1"], ["b", "<f8"], ["c", ">i2", [3]]])
    assert dt.itemsize == 1 + 8 + 6
    assert [dt.fields[n][1] for n in dt.names] == [0, 1, 9]
    assert dt.fields["c"][0].base.str == ">i2"


def test_rgb_example():
    dt = parse_dtype([["r", "|u1"], ["g", "|u1"], ["b", "|u1"]])
    assert dt.itemsize == 3 and dt.names == ("r", "g", "b")


def test_complex(v2):  # V2-DTYPE-009
    assert read_one_chunk(v2, "<c8", bytes.fromhex("0000803f00000040"))[0] == 1 + 2j
    assert read_one_chunk(v2, ">c16", np.array([3 - 4j], ">c16").tobytes())[0] == 3 - 4j


def test_opaque_void(v2):  # V2-DTYPE-010
    out = read_one_chunk(v2, "|V3", bytes.fromhex("0102030405FF"))
    assert out.dtype.str == "|V3" and out.tobytes() == bytes.fromhex("0102030405FF")


@pytest.mark.parametrize(
    "doc",
    [
        "f8",
        "i4",
        "<f16",
        "<i3",
        "<u16",
        "|i4",
        "|f8",
        "|U2",
        "<S0",
        "|V0",
        "<b2",
        "<f8 ",
        "=f8",
        "!f8",
        "<O",
        "|O4",
        "<x4",
        "",
        4,
        None,
        {"a": "<i4"},
        [],
        [["a"]],
        [["a", "<i4", [2], 5]],
        [[1, "<i4"]],
        [["", "<i4"]],
        [["a", "<i4"], ["a", "<i4"]],
        [["a", "<i4", [-1]]],
        [["a", "<i4", 2]],
        [["a", "|O"]],
        [["a", "<i4", [True]]],
        "|S" + "9" * 5000,
        "<M8[999999999999s]",
        "<M8[" + "1" * 5000 + "s]",
    ],
)
def test_invalid_data_types(doc):  # V2-DTYPE-001
    with pytest.raises(MetadataError) as info:
        parse_dtype(doc)
    assert info.value.reason == "invalid-data-type"


@pytest.mark.parametrize("doc", ["|S99999999999", [["a", "<f8", [2**20, 2**20]]]])
def test_oversized_types_are_refused(doc):
    with pytest.raises(LimitError):
        parse_dtype(doc)


def test_deep_nesting_is_refused():
    doc = "<i4"
    for _ in range(40):
        doc = [["a", doc]]
    with pytest.raises(LimitError):
        parse_dtype(doc)


@pytest.mark.parametrize(
    "doc",
    [
        "<f8",
        ">i4",
        "|b1",
        "|S12",
        "<U3",
        ">U1",
        "<M8[ns]",
        ">m8[10s]",
        "|V7",
        "|O",
        "<c8",
        ">c16",
        "<f2",
        "|u1",
        [["x", "<f4"], ["y", ">i8", [2, 3]], ["n", [["a", "|b1"], ["b", "|S3", [2]]]]],
    ],
)
def test_dtype_json_round_trip(doc):
    assert dtype_to_json(parse_dtype(doc)) == doc


def test_one_byte_types_accept_any_byte_order():
    assert (
        parse_dtype("<u1").str == "|u1"
        and parse_dtype(">b1").str == "|b1"
        and parse_dtype("<S3").str == "|S3"
    )


def test_padded_numpy_dtypes_cannot_be_written():
    aligned = np.dtype([("a", "u1"), ("b", "<f8")], align=True)
    with pytest.raises(MetadataError):
        dtype_to_json(aligned)
    assert dtype_to_json(np.dtype([("a", "u1"), ("b", "<f8")])) == [["a", "|u1"], ["b", "<f8"]]
