"""fill_value encodings (V2-FILL-001..005, V2-META-009, §9 conventions)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from v2_helpers import make_store, zarray

from conformance.reference.errors import MetadataError
from conformance.reference.formats.v2 import encode_fill_value, parse_dtype, parse_fill_value


def read_missing(v2, dtype_doc, fill, n=3, **extra):
    """Read an array whose chunks are all missing (V2-CHUNK-004)."""
    doc = zarray(dtype=dtype_doc, fill_value=fill, shape=[n], chunks=[2], **extra)
    return v2.open_array(make_store({".zarray": doc}), "")[:]


def bits(a: np.ndarray) -> bytes:
    return np.ascontiguousarray(a).tobytes()


@pytest.mark.parametrize("dtype", ["<f8", ">f4", "<f2"])
def test_float_special_values(v2, dtype):  # V2-FILL-001 (R)
    assert np.isnan(read_missing(v2, dtype, "NaN")).all()
    assert (read_missing(v2, dtype, "Infinity") == np.inf).all()
    assert (read_missing(v2, dtype, "-Infinity") == -np.inf).all()


def test_nan_fill_has_the_canonical_quiet_nan_bits():
    assert parse_fill_value("NaN", np.dtype("<f4")).tobytes() == bytes.fromhex("0000c07f")
    assert parse_fill_value("NaN", np.dtype(">f8")).tobytes() == bytes.fromhex("7ff8000000000000")


@pytest.mark.parametrize(
    "bad", ["+Infinity", "inf", "nan", "Inf", "-NaN", "0x7fc00000", "1.5", [1.0], True, {}]
)
def test_other_float_spellings_are_rejected(bad):  # V2-FILL-001
    with pytest.raises(MetadataError) as info:
        parse_fill_value(bad, np.dtype("<f8"))
    assert info.value.reason == "invalid-fill-value"


@pytest.mark.parametrize(
    "value, text",
    [
        (math.nan, "NaN"),
        (math.inf, "Infinity"),
        (-math.inf, "-Infinity"),
        (np.float32("inf"), "Infinity"),
        (0.5, 0.5),
        (-0.0, -0.0),
    ],
)
def test_float_fills_are_written_canonically(value, text):  # V2-FILL-001 (W), V2-META-009
    out = encode_fill_value(value, np.dtype("<f8"))
    assert out == text or (
        isinstance(text, float) and math.copysign(1, out) == math.copysign(1, text) and out == text
    )


def test_bytes_fill_base64(v2):  # V2-FILL-002
    assert read_missing(v2, "|S3", "YWJj").tolist() == [b"abc"] * 3
    assert encode_fill_value(b"abc", np.dtype("|S3")) == "YWJj"
    assert (
        read_missing(v2, "|S5", "YWI=").tobytes() == b"ab\0\0\0" * 3
    )  # short fills are NUL padded
    assert encode_fill_value(b"", np.dtype("|S3")) == ""


@pytest.mark.parametrize("bad", ["abc", "YWJjZA==", "YW J j", 0, [97], "Y"])
def test_bad_bytes_fills(bad):  # V2-FILL-002: Base64 only, and it must fit
    with pytest.raises(MetadataError):
        parse_fill_value(bad, np.dtype("|S3"))


def test_structured_fill_base64(v2):  # V2-FILL-003
    dtype = [["a", "<i4"], ["b", "<f4"]]
    out = read_missing(v2, dtype, "AQAAAAAAAEA=")
    assert out["a"].tolist() == [1, 1, 1] and out["b"].tolist() == [2.0, 2.0, 2.0]
    value = np.array((1, 2.0), dtype=parse_dtype(dtype))
    assert encode_fill_value(value, parse_dtype(dtype)) == "AQAAAAAAAEA="
    assert (
        encode_fill_value(bytes.fromhex("0100000000000040"), parse_dtype(dtype)) == "AQAAAAAAAEA="
    )


@pytest.mark.parametrize("bad", ["AQAAAAAAAA==", "AQAAAAAAAEAA", 0, [1, 2.0]])
def test_structured_fill_must_be_exactly_one_item(bad):  # V2-FILL-003
    with pytest.raises(MetadataError):
        parse_fill_value(bad, parse_dtype([["a", "<i4"], ["b", "<f4"]]))


def test_void_fill_base64(v2):  # §9: unstructured |V fill is Base64
    assert read_missing(v2, "|V2", "AQI=").tobytes() == b"\x01\x02" * 3
    assert encode_fill_value(b"\x01\x02", np.dtype("|V2")) == "AQI="


@pytest.mark.parametrize(
    "dtype", ["<i4", "|b1", "<f8", "|S2", "<U1", [["a", "<i4"]], "<M8[s]", "<c8", "|V1"]
)
def test_null_fill_leaves_missing_chunks_undefined(v2, dtype):  # V2-FILL-004
    doc = zarray(dtype=dtype, fill_value=None)
    a = v2.open_array(make_store({".zarray": doc}), "")
    assert a.fill_value is None
    assert a[:].shape == (4,)  # reading a missing chunk does not raise


@pytest.mark.parametrize(
    "dtype, fill, expected",
    [
        ("<i4", 42, 42),
        ("|b1", True, True),
        ("<f4", 0.5, 0.5),
        ("|u1", 255, 255),
        ("<i8", -(2**63), -(2**63)),
        ("<u8", 2**64 - 1, 2**64 - 1),
        (">i2", -2, -2),
        ("<i4", 3.0, 3),
        ("|b1", 0, False),
    ],
)
def test_plain_scalar_fills(v2, dtype, fill, expected):  # V2-FILL-005
    assert read_missing(v2, dtype, fill).tolist() == [expected] * 3


def test_uint64_max_is_exact():  # JSON-as-double would round this
    assert parse_fill_value(2**64 - 1, np.dtype("<u8")).tobytes() == b"\xff" * 8
    assert parse_fill_value(2**63 - 1, np.dtype(">i8")).tobytes() == b"\x7f" + b"\xff" * 7


@pytest.mark.parametrize(
    "dtype, bad",
    [
        ("<i4", 2**31),
        ("|u1", -1),
        ("|u1", 256),
        ("<i4", 1.5),
        ("<i4", True),
        ("<i4", "1"),
        ("<i4", [1]),
        ("|b1", 2),
        ("|b1", "true"),
        ("<f4", 1e39),
        ("<f2", 70000.0),
        ("<f8", 10**400),
        ("<U2", "abc"),
        ("<U2", 1),
        ("<M8[s]", "1970-01-01"),
        ("<M8[s]", 2**63),
        ("<c8", [1.0]),
        ("<c8", [1.0, 2.0, 3.0]),
        ("<c8", "1+2j"),
    ],
)
def test_invalid_fills(dtype, bad):
    with pytest.raises(MetadataError) as info:
        parse_fill_value(bad, parse_dtype(dtype))
    assert info.value.reason == "invalid-fill-value"


def test_complex_fill_pairs(v2):  # §9: [real, imag]
    out = read_missing(v2, "<c8", [1.0, 2.0])
    assert out.tolist() == [1 + 2j] * 3
    nan_part = parse_fill_value(["NaN", "-Infinity"], np.dtype(">c16"))
    assert np.isnan(nan_part.real) and nan_part.imag == -np.inf
    assert nan_part.tobytes() == bytes.fromhex("7ff8000000000000fff0000000000000")
    assert encode_fill_value(complex(math.nan, 1.5), np.dtype("<c16")) == ["NaN", 1.5]
    assert parse_fill_value(3.0, np.dtype("<c8"))[()] == 3 + 0j


def test_datetime_fill_is_int64_count(v2):  # §9
    assert read_missing(v2, "<M8[s]", 86400)[0] == np.datetime64("1970-01-02")
    nat = parse_fill_value(-(2**63), np.dtype(">M8[ns]"))
    assert np.isnat(nat) and nat.tobytes() == bytes.fromhex("8000000000000000")
    assert encode_fill_value(np.datetime64("NaT", "ns"), np.dtype("<M8[ns]")) == -(2**63)
    assert encode_fill_value(np.timedelta64(5, "ms"), np.dtype(">m8[ms]")) == 5


def test_unicode_fill_is_a_plain_string(v2):  # §9
    assert read_missing(v2, ">U2", "hé").tolist() == ["hé"] * 3
    assert encode_fill_value("hé", np.dtype("<U2")) == "hé"


@pytest.mark.parametrize(
    "dtype, value",
    [
        ("<f8", 1.25),
        (">f4", -3.5),
        ("<i8", -(2**63)),
        ("<u8", 2**64 - 1),
        ("|b1", True),
        ("|S4", b"a\x00b"),
        ("<U3", "xyz"),
        ("<c16", 1 - 2j),
        ("|V2", b"\x00\xff"),
        ("<m8[us]", np.timedelta64(-7, "us")),
    ],
)
def test_encode_parse_round_trip(dtype, value):
    dt = parse_dtype(dtype)
    doc = encode_fill_value(value, dt)
    assert bits(parse_fill_value(doc, dt)) == bits(np.array(value, dtype=dt))


@pytest.mark.parametrize(
    "dtype, bad",
    [
        ("<i4", 1.5),
        ("|u1", 300),
        ("|S2", b"abc"),
        ("|S2", "ab"),
        ("<U1", "ab"),
        ("|V2", b"\x00"),
        ("<f8", "NaN"),
    ],
)
def test_encode_refuses_lossy_values(dtype, bad):
    with pytest.raises(MetadataError):
        encode_fill_value(bad, parse_dtype(dtype))


def test_object_fills():  # zarr-python convention for the '|O' extension tier
    dt = np.dtype(object)
    assert parse_fill_value("x", dt, "vlen-utf8")[()] == "x"
    assert parse_fill_value("YWI=", dt, "vlen-bytes")[()] == b"ab"
    assert encode_fill_value("x", dt, "vlen-utf8") == "x"
    assert encode_fill_value(b"ab", dt, "vlen-bytes") == "YWI="
    # zarr-python 2's default fill 0 for object string arrays is the zero string (see
    # tests/validate/test_validate_extensions.py for the warning); other numbers name no string
    assert parse_fill_value(0, dt, "vlen-utf8")[()] == ""
    with pytest.raises(MetadataError):
        parse_fill_value(1, dt, "vlen-utf8")
