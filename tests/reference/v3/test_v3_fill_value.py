"""fill_value exactness (V3-FILL-001..010): parsing, canonical writing, rounding."""

from __future__ import annotations

import json
import math
import struct
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance.reference.formats.v3 import FORMAT, encode_fill_value, parse_fill_value
from conformance.reference.formats.v3.fill_value import round_to_float

from .helpers import array_doc, expect_reason, make_store

DT64 = {"name": "numpy.datetime64", "configuration": {"unit": "s", "scale_factor": 1}}


def bits(array: np.ndarray) -> str:
    return array.tobytes()[::-1].hex() if array.dtype.kind != "V" else array.tobytes().hex()


ACCEPT = [
    # (requirement, data type, JSON fill, big-endian hex of the bits)
    ("V3-FILL-001", "bool", True, "01"),
    ("V3-FILL-001", "bool", False, "00"),
    ("V3-FILL-002", "uint64", 18446744073709551615, "ffffffffffffffff"),
    ("V3-FILL-002", "int64", -9223372036854775808, "8000000000000000"),
    ("V3-FILL-002", "int64", 9223372036854775807, "7fffffffffffffff"),
    ("V3-FILL-002", "uint8", 255, "ff"),
    ("V3-FILL-002", "int8", -128, "80"),
    ("V3-FILL-002", "int16", -2, "fffe"),
    ("V3-FILL-003", "float32", 0.1, "3dcccccd"),
    ("V3-FILL-003", "float32", Decimal("0.1"), "3dcccccd"),
    ("V3-FILL-003", "float16", 1, "3c00"),
    ("V3-FILL-003", "float64", -0.0, "8000000000000000"),
    ("V3-FILL-003", "float32", Decimal("-0.0"), "80000000"),
    ("V3-FILL-003", "float32", 16777217, "4b800000"),  # ties to even
    ("V3-FILL-003", "float16", 65520, "7c00"),  # overflows to infinity when rounded
    ("V3-FILL-003", "float16", Decimal("65519.99"), "7bff"),
    ("V3-FILL-003", "float64", 1e300, "7e37e43c8800759c"),
    ("V3-FILL-004", "float64", "Infinity", "7ff0000000000000"),
    ("V3-FILL-004", "float32", "-Infinity", "ff800000"),
    ("V3-FILL-005", "float16", "NaN", "7e00"),
    ("V3-FILL-005", "float32", "NaN", "7fc00000"),
    ("V3-FILL-005", "float64", "NaN", "7ff8000000000000"),
    ("V3-FILL-006", "float32", "0x3f800000", "3f800000"),
    ("V3-FILL-006", "float32", "0x7fc00001", "7fc00001"),
    ("V3-FILL-006", "float32", "0xFFC00000", "ffc00000"),
    ("V3-FILL-006", "float16", "0x7c01", "7c01"),
    ("V3-FILL-006", "float64", "0x7ff0000000000001", "7ff0000000000001"),
    ("V3-FILL-007", "complex64", [1, 2], "400000003f800000"),
    ("V3-FILL-007", "complex64", ["-Infinity", "NaN"], "7fc00000ff800000"),
    ("V3-FILL-007", "complex128", ["0x7ff0000000000001", -0.0], "80000000000000007ff0000000000001"),
    ("V3-FILL-008", "r16", [1, 2], "0102"),
    ("V3-FILL-008", "r8", [255], "ff"),
    ("V3-DT-009", DT64, "NaT", "8000000000000000"),
    ("V3-DT-009", DT64, -9223372036854775808, "8000000000000000"),
    ("V3-DT-009", DT64, 86400, "0000000000015180"),
]


@pytest.mark.parametrize("requirement, data_type, value, expected", ACCEPT)
def test_fill_values_parse_to_exact_bits(requirement, data_type, value, expected):
    assert bits(parse_fill_value(value, data_type)) == expected


REJECT = [
    ("V3-FILL-001", "bool", 1),
    ("V3-FILL-001", "bool", "true"),
    ("V3-FILL-001", "bool", 0),
    ("V3-FILL-002", "uint8", 1.0),
    ("V3-FILL-002", "uint8", 1e2),
    ("V3-FILL-002", "uint8", 256),
    ("V3-FILL-002", "uint8", -1),
    ("V3-FILL-002", "int32", True),
    ("V3-FILL-002", "int32", "1"),
    ("V3-FILL-002", "int32", Decimal("1.0")),
    ("V3-FILL-002", "int32", Decimal("1E+2")),
    ("V3-FILL-002", "uint64", 18446744073709551616),
    ("V3-FILL-002", "int64", -9223372036854775809),
    ("V3-FILL-004", "float32", "+Infinity"),
    ("V3-FILL-004", "float32", "inf"),
    ("V3-FILL-004", "float32", "nan"),
    ("V3-FILL-004", "float32", "-NaN"),
    ("V3-FILL-004", "float32", "Inf"),
    ("V3-FILL-004", "float64", float("nan")),
    ("V3-FILL-006", "float32", "0x7fc0000"),  # too short
    ("V3-FILL-006", "float32", "0x7fc000001"),  # too long
    ("V3-FILL-004", "float32", "0X7fc00000"),
    ("V3-FILL-006", "float32", "0x7fc0000g"),
    ("V3-FILL-006", "float32", "0x+fc00000"),
    ("V3-FILL-006", "float16", "0x3f800000"),
    ("V3-FILL-003", "float32", True),
    ("V3-FILL-003", "float32", [1.0]),
    ("V3-FILL-007", "complex64", 0),
    ("V3-FILL-007", "complex64", [1]),
    ("V3-FILL-007", "complex64", [1, 2, 3]),
    ("V3-FILL-004", "complex64", ["NaN", "nan"]),
    ("V3-FILL-007", "complex64", {"re": 1}),
    ("V3-FILL-008", "r16", [1]),
    ("V3-FILL-008", "r16", [1, 256]),
    ("V3-FILL-008", "r16", [1, -1]),
    ("V3-FILL-008", "r16", [1, 2.0]),
    ("V3-FILL-008", "r16", [True, 2]),
    ("V3-FILL-008", "r16", [0] * 16),  # the spec's literal "length N" (bits) is read as bytes
    ("V3-FILL-008", "r16", "AQI="),
    *[
        ("V3-FILL-010", t, None)
        for t in ("bool", "int8", "uint64", "float16", "float64", "complex128", "r8")
    ],
    ("V3-DT-009", DT64, "nat"),
    ("V3-DT-009", DT64, 1.5),
    ("V3-DT-009", DT64, 2**63),
    ("V3-DT-009", "string", 5),
    ("V3-DT-009", "bytes", "not base64!"),
    ("V3-DT-009", "bytes", 5),
]


@pytest.mark.parametrize("requirement, data_type, value", REJECT)
def test_invalid_fill_values_are_rejected(requirement, data_type, value):
    error = expect_reason("invalid-fill-value", parse_fill_value, value, data_type)
    assert error.requirement == requirement


def test_integer_fill_from_document_text_is_exact():
    """V3-FILL-002: the document text is parsed with exact integers, and `1.0`/`1e2` are floats."""
    for text, ok in [
        ("18446744073709551615", True),
        ("1.0", False),
        ("1e2", False),
        ("1E2", False),
        ("-0", True),
    ]:
        doc = json.dumps(array_doc(data_type="uint64", fill_value=0)).replace(
            '"fill_value": 0', f'"fill_value": {text}'
        )
        store = make_store({"zarr.json": doc.encode()})
        if ok:
            assert FORMAT.open_array(store, "").fill_value == int(text)
        else:
            expect_reason("invalid-fill-value", FORMAT.open_array, store, "")


@pytest.mark.parametrize(
    "text, data_type, expected",
    [
        ("0.1", "float32", "3dcccccd"),
        ("-0", "float32", "80000000"),
        ("-0.0", "float16", "8000"),
        ("1e-50", "float32", "00000000"),
        ("-1e-50", "float32", "80000000"),
        ("1e400", "float64", "7ff0000000000000"),
        ("-1e400", "float32", "ff800000"),
        # 1 + 2^-24 + 2^-80: above the float32 midpoint, but the nearest double is the midpoint itself
        ("1.0000000596046447753906250000000008271806125530276748", "float32", "3f800001"),
        (
            "[1.0000000596046447753906250000000008271806125530276748, -0.0]",
            "complex64",
            "800000003f800001",
        ),
    ],
)
def test_float_fill_from_document_rounds_once(text, data_type, expected):
    """V3-FILL-003: a decimal fill rounds directly to the nearest value of the type."""
    doc = json.dumps(array_doc(data_type=data_type, fill_value=0)).replace(
        '"fill_value": 0', f'"fill_value": {text}'
    )
    array = FORMAT.open_array(make_store({"zarr.json": doc.encode()}), "")
    assert bits(array.fill_value) == expected


def _nearest_reference(x: Fraction, ftype: np.dtype) -> int:
    """Slow exact oracle: the bits of the ftype value nearest to x (ties to even mantissa)."""
    info = np.finfo(ftype)
    unsigned = {2: "u2", 4: "u4"}[ftype.itemsize]
    overflow = Fraction(2) ** (info.maxexp)  # 'infinity' sits one ulp past max in the rounding rule
    if abs(x) >= overflow:
        return int(
            np.array(math.copysign(math.inf, x), dtype=ftype).view(
                {2: "u2", 4: "u4"}[ftype.itemsize]
            )
        )
    with np.errstate(over="ignore"):
        near = np.array(float(x) if abs(x) < 2**1000 else math.copysign(math.inf, x), dtype=ftype)
    candidates = {int(near.view(unsigned))}
    for _ in range(2):
        for c in list(candidates):
            v = np.array(c, dtype=unsigned).view(ftype)
            with np.errstate(over="ignore"):
                steps = (
                    np.nextafter(v, np.array(np.inf, ftype)),
                    np.nextafter(v, np.array(-np.inf, ftype)),
                )
            for d in steps:
                candidates.add(int(np.array(d, dtype=ftype).view(unsigned)))

    def value(b):
        f = float(np.array(b, dtype=unsigned).view(ftype))
        return math.copysign(overflow, f) if math.isinf(f) else Fraction(f)

    finite = [
        b for b in candidates if not math.isnan(float(np.array(b, dtype=unsigned).view(ftype)))
    ]
    best = min(finite, key=lambda b: (abs(value(b) - x), b & 1, b))
    if value(best) == 0:  # an underflow keeps the sign of x
        return int(np.array(-0.0 if x < 0 else 0.0, dtype=ftype).view(unsigned))
    return best


@settings(max_examples=300, deadline=None)
@given(
    mantissa=st.integers(min_value=-(10**30), max_value=10**30),
    exponent=st.integers(min_value=-60, max_value=45),
    ftype=st.sampled_from([np.dtype("f2"), np.dtype("f4")]),
)
def test_rounding_matches_exact_oracle(mantissa, exponent, ftype):
    x = Decimal(mantissa).scaleb(exponent)
    got = int(round_to_float(x, ftype).view({2: "u2", 4: "u4"}[ftype.itemsize]))
    assert got == _nearest_reference(Fraction(x), ftype)


@settings(max_examples=200, deadline=None)
@given(bits_=st.integers(min_value=0, max_value=2**32 - 1))
def test_float32_midpoints_round_to_even_or_away(bits_):
    """Exact midpoints between adjacent float32 values (and values a hair either side)."""
    f = np.array(bits_, dtype="u4").view("f4")
    if not np.isfinite(f):
        return
    g = np.nextafter(f, np.array(np.inf, "f4"))
    if not np.isfinite(g):
        return
    mid = (Fraction(float(f)) + Fraction(float(g))) / 2
    for x in (mid, mid + Fraction(1, 2**200), mid - Fraction(1, 2**200)):
        text = Decimal(x.numerator) / Decimal(x.denominator) if x.denominator < 2**200 else None
        if text is None:
            continue
        assert int(round_to_float(text, np.dtype("f4")).view("u4")) == _nearest_reference(
            Fraction(text), np.dtype("f4")
        )


# ---- canonical writing ---------------------------------------------------------------------------


WRITE = [
    # (data type, value, canonical JSON)
    ("bool", True, True),
    ("uint64", np.uint64(2**64 - 1), 18446744073709551615),
    ("int64", -(2**63), -9223372036854775808),
    ("float64", float("nan"), "NaN"),
    ("float32", np.float32("nan"), "NaN"),
    ("float32", np.array(0xFFC00000, "u4").view("f4"), "0xffc00000"),  # V3-FILL-006 W
    ("float32", np.array(0x7FC00001, "u4").view("f4"), "0x7fc00001"),
    ("float16", np.array(0x7E01, "u2").view("f2"), "0x7e01"),
    ("float64", np.array(0x7FF8000000000001, "u8").view("f8"), "0x7ff8000000000001"),
    ("float64", float("inf"), "Infinity"),
    ("float32", -np.inf, "-Infinity"),
    ("float64", -0.0, -0.0),
    ("float32", np.float32(0.1), 0.1),  # shortest decimal that reads back to 0x3dcccccd
    ("float32", 0.1, 0.1),
    ("float16", np.float16(0.1), 0.1),
    ("float64", 0.1, 0.1),
    ("float32", np.float32(16777216), 16777216.0),
    ("complex64", complex(1, float("nan")), [1.0, "NaN"]),
    ("complex128", [-0.0, "Infinity"], [-0.0, "Infinity"]),
    ("r16", b"\x01\x02", [1, 2]),
    ("r24", [0, 255, 7], [0, 255, 7]),
    ("string", "héllo", "héllo"),
    ("bytes", b"\x00\xff", "AP8="),
    (DT64, np.datetime64("NaT"), -9223372036854775808),
    (DT64, np.datetime64(86400, "s"), 86400),
]


@pytest.mark.parametrize("data_type, value, expected", WRITE)
def test_canonical_fill_value_json(data_type, value, expected):
    written = encode_fill_value(value, data_type)
    assert json.dumps(written) == json.dumps(expected)
    assert type(written) is type(expected)
    back = parse_fill_value(json.loads(json.dumps(written)), data_type)
    original = parse_fill_value(expected, data_type)
    if back.dtype.hasobject:
        assert back[()] == original[()]
    else:
        assert back.tobytes() == original.tobytes()


@settings(max_examples=300, deadline=None)
@given(
    raw=st.binary(min_size=8, max_size=8),
    data_type=st.sampled_from(["float16", "float32", "float64", "complex64"]),
)
def test_any_float_bits_survive_a_json_round_trip(raw, data_type):
    """Every bit pattern (NaN payloads, -0.0, subnormals) is written so that it reads back exactly;
    the JSON text goes through the same exact-decimal path as a stored document."""
    dtype = {"float16": "f2", "float32": "f4", "float64": "f8", "complex64": "c8"}[data_type]
    value = np.frombuffer(raw[: np.dtype(dtype).itemsize], dtype=dtype).reshape(())
    text = json.dumps(encode_fill_value(value, data_type), allow_nan=False)
    exact = json.loads(text, parse_float=Decimal, parse_int=Decimal)
    assert parse_fill_value(exact, data_type).tobytes() == value.tobytes()


def test_writer_emits_hex_for_negative_nan_in_metadata():
    """V3-FILL-006 W / V3-FILL-004 W: the stored document has '0x...' or 'NaN', never a NaN token."""
    store = make_store({})
    neg_nan = np.array(0xFFC00000, "u4").view("f4")
    FORMAT.create_array(
        store, "a", FORMAT.array_metadata((2,), (2,), "float32", fill_value=neg_nan)
    )
    FORMAT.create_array(
        store, "b", FORMAT.array_metadata((2,), (2,), "float32", fill_value=float("nan"))
    )
    assert json.loads(store.get("a/zarr.json"))["fill_value"] == "0xffc00000"
    assert json.loads(store.get("b/zarr.json"))["fill_value"] == "NaN"
    assert FORMAT.open_array(store, "a")[:].view("u4").tolist() == [0xFFC00000] * 2


def test_default_fill_is_written_down():
    """V3-ARR-011: a fill chosen by the implementation is recorded in the metadata."""
    for dtype, expected in [
        ("int32", 0),
        ("float64", 0.0),
        ("bool", False),
        ("complex64", [0.0, 0.0]),
        ("r16", [0, 0]),
    ]:
        assert FORMAT.array_metadata((3,), (3,), dtype)["fill_value"] == expected


def test_encode_rejects_values_that_do_not_fit():
    expect_reason("invalid-fill-value", encode_fill_value, 256, "uint8")
    expect_reason("invalid-fill-value", encode_fill_value, 1.5, "int32")
    expect_reason("invalid-fill-value", encode_fill_value, 1, "bool")
    expect_reason("invalid-fill-value", encode_fill_value, b"\x01", "r16")
    expect_reason("invalid-fill-value", encode_fill_value, "x!", "bytes")  # not base64
    expect_reason("invalid-fill-value", encode_fill_value, 5, "bytes")


def test_struct_sanity_of_expected_bits():
    """The table's expected patterns agree with the struct module (an independent encoder)."""
    assert struct.pack(">f", 0.1).hex() == "3dcccccd"
    assert struct.pack(">e", 1.0).hex() == "3c00"
