"""v2 fill_value encodings (V2-FILL-001..005): missing chunks read as the fill a `.zarray` states,
encodings that must be rejected, and what a writer must put in `fill_value`."""

from __future__ import annotations

import base64
import struct

import numpy as np

from ..data import sample
from ..generator import add_case
from .table_kit import each
from .v2_kit import (
    COMPRESSORS,
    dtype_needs,
    fill_bits,
    full,
    numpy_dtype,
    put_array,
    reject_case,
    zarray,
)

_SKIP = {(1, 0), (2, 2)}


def _missing_case(
    case_id: str,
    dtype_doc,
    fill,
    requirements,
    description: str,
    *,
    tier: str | None = None,
    expected_fill: np.ndarray | None = None,
    extra_needs=(),
) -> None:
    """(5,6) in (2,3) zlib chunks, chunks 1.0 and 2.1 absent: they read as `expected_fill` (computed
    here from the spec's rule, independently of the reference) or are undefined for a null fill."""
    dtype = numpy_dtype(dtype_doc)

    def build(w):
        doc = zarray((5, 6), (2, 3), dtype_doc, fill, compressor=COMPRESSORS["zlib"])
        bits = expected_fill if expected_fill is not None else fill_bits(doc, dtype)
        data = sample(w.rng, (5, 6), dtype, avoid=bits)
        expected, undefined = put_array(w, "", doc, data, skip={(1, 0), (2, 1)})
        if expected_fill is not None:  # overwrite with the independently stated value
            expected[2:4, 0:3] = full(expected_fill, (2, 3))
            expected[4:5, 3:6] = full(expected_fill, (1, 3))
        w.expect_array(expected, undefined=undefined)

    needs = [*dtype_needs(dtype), "codec:zlib", *extra_needs] + (
        ["feature:fill-null"] if fill is None else []
    )
    add_case(
        case_id,
        kind="read",
        build=build,
        tier=tier,
        requirements=[*requirements, "V2-CHUNK-004"],
        needs=needs,
        description=description,
    )


def _bits(typestr: str, hex_le: str) -> np.ndarray:
    """A 0-d value of `typestr` from its little-endian bytes in hex."""
    dtype = np.dtype(typestr)
    return (
        np.frombuffer(bytes.fromhex(hex_le), dtype=dtype.newbyteorder("<"))
        .astype(dtype)
        .reshape(())
    )


# ---- reads: missing chunks take the fill -----------------------------------------------------
_STRUCT_AB = np.dtype([("a", "<i4"), ("b", "<f4")])
# fmt: off
MISSING = [
    # case_id, dtype_doc, fill, requirements, description[, options]
    ("v2/fill/float32-nan", "<f4", "NaN", ["V2-FILL-001"], 'v2 <f4 fill "NaN": missing chunks read as NaN (quiet NaN 0x7FC00000)', {"question": "spec-read", "expected_fill": _bits("<f4", "0000c07f")}),
    ("v2/fill/float64-infinity", "<f8", "Infinity", ["V2-FILL-001"], 'v2 <f8 fill "Infinity": missing chunks read as +inf', {"question": "spec-read", "expected_fill": _bits("<f8", "000000000000f07f")}),
    ("v2/fill/float64-minus-infinity-big-endian", ">f8", "-Infinity", ["V2-FILL-001", "V2-DTYPE-002"], 'v2 >f8 fill "-Infinity": missing chunks read as -inf', {"question": "spec-read", "expected_fill": _bits(">f8", "000000000000f0ff")}),
    ("v2/fill/float64-nan", "<f8", "NaN", ["V2-FILL-001"], 'v2 <f8 fill "NaN": missing chunks read as NaN (quiet NaN 0x7FF8000000000000)', {"question": "spec-read", "expected_fill": _bits("<f8", "000000000000f87f")}),
    ("v2/fill/float16-minus-infinity", "<f2", "-Infinity", ["V2-FILL-001"], 'v2 <f2 fill "-Infinity": missing chunks read as -inf (0xFC00)', {"question": "spec-read", "expected_fill": _bits("<f2", "00fc")}),
    ("v2/fill/bytes-S3-base64", "|S3", "YWJj", ["V2-FILL-002", "V2-DTYPE-005"], 'v2 |S3 fill "YWJj" (Base64): missing chunks read as b"abc"', {"question": "spec-read", "expected_fill": np.array(b"abc", "S3")}),
    ("v2/fill/bytes-S3-base64-short", "|S3", "YQ==", ["V2-FILL-002"], 'v2 |S3 fill "YQ==" (Base64 of one byte): missing chunks read as b"a" padded with NULs', {"question": "convention", "expected_fill": np.array(b"a", "S3"), "tier": "optional"}),
    ("v2/fill/structured-base64", [["a", "<i4"], ["b", "<f4"]], "AQAAAAAAAEA=", ["V2-FILL-003", "V2-DTYPE-007"], 'v2 structured [["a","<i4"],["b","<f4"]] fill "AQAAAAAAAEA=": missing chunks read as (1, 2.0)', {"question": "spec-read", "expected_fill": np.array((1, 2.0), _STRUCT_AB)}),
    ("v2/fill/null-float32", "<f4", None, ["V2-FILL-004"], "v2 <f4 fill null: reading missing chunks does not raise (their values are undefined)", {"question": "spec-read"}),
    ("v2/fill/null-int16", "<i2", None, ["V2-FILL-004"], "v2 <i2 fill null: reading missing chunks does not raise (their values are undefined)", {"question": "spec-read"}),
    ("v2/fill/int32-42", "<i4", 42, ["V2-FILL-005"], "v2 <i4 fill 42: missing chunks read as 42", {"question": "spec-read", "expected_fill": np.array(42, "<i4")}),
    ("v2/fill/bool-true", "|b1", True, ["V2-FILL-005", "V2-DTYPE-003"], "v2 |b1 fill true: missing chunks read as True", {"question": "spec-read", "expected_fill": np.array(True)}),
    ("v2/fill/float32-half", "<f4", 0.5, ["V2-FILL-005"], "v2 <f4 fill 0.5: missing chunks read as 0.5", {"question": "spec-read", "expected_fill": np.array(0.5, "<f4")}),
    ("v2/fill/float32-one-tenth", "<f4", 0.1, ["V2-FILL-005"], "v2 <f4 fill 0.1: missing chunks read as the nearest float32 (0x3DCCCCCD)", {"question": "spec-read", "expected_fill": _bits("<f4", "cdcccc3d")}),
    ("v2/fill/float64-negative-zero", "<f8", -0.0, ["V2-FILL-005"], "v2 <f8 fill -0.0: missing chunks read as negative zero (sign bit set)", {"question": "spec-read", "expected_fill": _bits("<f8", "0000000000000080")}),
    ("v2/fill/uint64-max", "<u8", 2**64 - 1, ["V2-FILL-005"], "v2 <u8 fill 18446744073709551615 (exact, beyond a double): missing chunks read as uint64 max", {"question": "spec-read", "expected_fill": np.array(2**64 - 1, "<u8")}),
    ("v2/fill/int64-min-big-endian", ">i8", -(2**63), ["V2-FILL-005", "V2-DTYPE-002"], "v2 >i8 fill -9223372036854775808: missing chunks read as int64 min", {"question": "spec-read", "expected_fill": np.array(-(2**63), ">i8")}),
    ("v2/fill/int64-max-minus-one", "<i8", 2**63 - 2, ["V2-FILL-005"], "v2 <i8 fill 9223372036854775806 (not representable as a double): missing chunks read exactly", {"question": "spec-read", "expected_fill": np.array(2**63 - 2, "<i8")}),
    # lenient readings of scalar fills (ambiguous: JSON has one number type)
    ("v2/fill/bool-from-1", "|b1", 1, ["V2-FILL-005"], "v2 |b1 fill 1 (a number, not true): lenient readers take it as True", {"question": "lenient-read", "tier": "optional", "expected_fill": np.array(True)}),
    ("v2/fill/int32-from-whole-float", "<i4", 42.0, ["V2-FILL-005"], "v2 <i4 fill 42.0 (a whole float): lenient readers take it as 42", {"question": "lenient-read", "tier": "optional", "expected_fill": np.array(42, "<i4")}),
    # conventions (§9 of the catalogue): the spec gives no encoding, zarr-python's is recorded
    ("v2/fill/complex64-pair", "<c8", [1.0, -2.0], ["V2-FILL-005", "V2-DTYPE-009"], "v2 <c8 fill [1.0, -2.0] (zarr-python's [real, imag] convention): missing chunks read as 1-2j", {"question": "convention", "tier": "optional", "expected_fill": np.array(1 - 2j, "<c8")}),
    ("v2/fill/complex128-nan-infinity", "<c16", ["NaN", "-Infinity"], ["V2-FILL-001", "V2-DTYPE-009"], 'v2 <c16 fill ["NaN", "-Infinity"] (convention): missing chunks read as complex(nan, -inf)', {"question": "convention", "tier": "optional", "expected_fill": _bits("<c16", "000000000000f87f000000000000f0ff")}),
    ("v2/fill/datetime64-int", "<M8[s]", 86400, ["V2-DTYPE-004"], "v2 <M8[s] fill 86400 (the int64 count, convention): missing chunks read as 1970-01-02", {"question": "convention", "tier": "optional", "expected_fill": np.array(86400, "<i8").view("<M8[s]")}),
    ("v2/fill/unicode-string", "<U2", "\u00e9x", ["V2-DTYPE-006"], 'v2 <U2 fill "\u00e9x" (a plain JSON string, convention): missing chunks read as that string', {"question": "convention", "tier": "optional", "expected_fill": np.array("\u00e9x", "<U2")}),
    ("v2/fill/void-base64", "|V2", "AP8=", ["V2-DTYPE-010"], 'v2 |V2 fill "AP8=" (Base64, convention): missing chunks read as the bytes 00 FF', {"question": "convention", "tier": "optional", "expected_fill": np.frombuffer(b"\x00\xff", "V2").reshape(())}),
]
# fmt: on

each(_missing_case, MISSING)


# ---- rejects ---------------------------------------------------------------------------------
def _fill_reject(slug, typestr, fill, requirement, what, tier=None):
    dtype = numpy_dtype(typestr)
    doc = zarray((4,), (4,), typestr, fill)
    reject_case(
        f"v2/fill/reject-{slug}",
        doc,
        "invalid-fill-value",
        [requirement],
        f"v2 {typestr if isinstance(typestr, str) else 'structured'} with fill_value {what} is rejected",
        needs=dtype_needs(dtype),
        tier=tier,
        chunk=False,
    )


# fmt: off
REJECTS = [
    # slug, typestr, fill, requirement, what[, options]
    ("float-nan-lowercase", "<f8", "nan", "V2-FILL-001", '"nan" (lower case)', {"tests": "fill_value", "question": "float-special-spelling"}),
    ("float-plus-infinity", "<f8", "+Infinity", "V2-FILL-001", '"+Infinity" (the spec has "Infinity")', {"tests": "fill_value", "question": "float-special-spelling"}),
    ("float-inf-short", "<f4", "Inf", "V2-FILL-001", '"Inf"', {"tests": "fill_value", "question": "float-special-spelling"}),
    ("float-number-string", "<f8", "1.5", "V2-FILL-005", '"1.5" (a number in a string)', {"tests": "fill_value", "question": "scalar-spelling"}),
    ("float-true", "<f4", True, "V2-FILL-005", "true", {"tests": "fill_value", "question": "scalar-spelling"}),
    ("float-overflow", "<f4", 1e39, "V2-FILL-005", "1e39 (beyond float32)", {"question": "spec-silent"}),
    ("bytes-not-base64", "|S3", "abc!", "V2-FILL-002", '"abc!" (not Base64)', {"tests": "Base64", "question": "invalid-value"}),
    ("bytes-too-long", "|S3", "YWJjZA==", "V2-FILL-002", '"YWJjZA==" (4 bytes for an |S3 item)', {"tests": "Base64", "question": "invalid-value"}),
    ("bytes-number", "|S3", 0, "V2-FILL-002", "0 (a number instead of a Base64 string)", {"tests": "Base64", "question": "invalid-value"}),
    ("structured-wrong-length", [["a", "<i4"], ["b", "<f4"]], "AQAAAA==", "V2-FILL-003", '"AQAAAA==" (4 bytes for an 8-byte item)', {"tests": "Base64", "question": "invalid-value"}),
    ("structured-list", [["a", "<i4"], ["b", "<f4"]], [1, 2.0], "V2-FILL-003", "[1, 2.0] (a list instead of Base64)", {"tests": "Base64", "question": "wrong-structure"}),
    ("int-fraction", "<i4", 1.5, "V2-FILL-005", "1.5", {"tests": "fill_value", "question": "invalid-value"}),
    ("int-string", "<i4", "42", "V2-FILL-005", '"42" (a string)', {"tests": "fill_value", "question": "scalar-spelling"}),
    ("uint8-256", "|u1", 256, "V2-FILL-005", "256 (out of range)", {"tests": "fill_value", "question": "invalid-value"}),
    ("uint8-minus-1", "|u1", -1, "V2-FILL-005", "-1 (out of range)", {"tests": "fill_value", "question": "invalid-value"}),
    ("int64-overflow", "<i8", 2**63, "V2-FILL-005", "9223372036854775808 (out of range)", {"tests": "fill_value", "question": "invalid-value"}),
    ("bool-string", "|b1", "true", "V2-FILL-005", '"true" (a string)', {"tests": "fill_value", "question": "scalar-spelling"}),
    ("bool-2", "|b1", 2, "V2-FILL-005", "2", {"tests": "fill_value", "question": "invalid-value"}),
]
# fmt: on

each(_fill_reject, REJECTS)


# ---- writes ----------------------------------------------------------------------------------
def _fill_write(slug, typestr, fill, written, requirements, description, tier=None):
    dtype = numpy_dtype(typestr)

    def build(w):
        doc = zarray((5,), (2,), typestr, fill)
        bits = fill_bits(doc, dtype)
        data = sample(w.rng, (5,), dtype, avoid=bits)
        # `written` is how the spec encodes the fill; the judge compares fills as bytes of the
        # data type, which also holds a writer to that value (V2-FILL-001/002)
        w.expect_write(metadata=doc, data=data)
        assert written is not None or fill is None

    add_case(
        f"v2/fill/write-{slug}",
        kind="write",
        build=build,
        tier=tier,
        requirements=requirements,
        needs=[*dtype_needs(dtype), "op:write"] + (["feature:fill-null"] if fill is None else []),
        description=description,
    )


# fmt: off
WRITES = [
    # slug, typestr, fill, written, requirements, description[, options]
    ("float32-infinity", "<f4", "Infinity", "Infinity", ["V2-FILL-001", "V2-META-009"], 'v2 write of <f4 with fill +inf: fill_value is written as exactly "Infinity"', {"question": "spec-write"}),
    ("float64-minus-infinity", "<f8", "-Infinity", "-Infinity", ["V2-FILL-001", "V2-META-009"], 'v2 write of <f8 with fill -inf: fill_value is written as exactly "-Infinity"', {"question": "spec-write"}),
    ("bytes-S3-base64", "|S3", "YWJj", "YWJj", ["V2-FILL-002"], 'v2 write of |S3 with fill b"abc": fill_value is written as the Base64 "YWJj"', {"question": "spec-write"}),
    ("structured-base64", [["a", "<i4"], ["b", "<f4"]], "AQAAAAAAAEA=", "AQAAAAAAAEA=", ["V2-FILL-003"], 'v2 write of structured [a <i4, b <f4] with fill (1, 2.0): fill_value is written as "AQAAAAAAAEA="', {"question": "spec-write"}),
    ("int32-42", "<i4", 42, 42, ["V2-FILL-005"], "v2 write of <i4 with fill 42: fill_value is the number 42", {"question": "spec-write"}),
    ("bool-true", "|b1", True, True, ["V2-FILL-005"], "v2 write of |b1 with fill true: fill_value is true", {"question": "spec-write"}),
    ("float32-half", "<f4", 0.5, 0.5, ["V2-FILL-005"], "v2 write of <f4 with fill 0.5: fill_value is 0.5", {"question": "spec-write"}),
    ("uint64-max", "<u8", 2**64 - 1, 2**64 - 1, ["V2-FILL-005"], "v2 write of <u8 with fill uint64 max: fill_value is exactly 18446744073709551615", {"question": "spec-write"}),
    ("null", "<i2", None, None, ["V2-FILL-004"], "v2 write of <i2 with fill null keeps fill_value null", {"question": "writer-choice", "tier": "optional"}),
]
# fmt: on

each(_fill_write, WRITES)

assert base64.b64decode("AQAAAAAAAEA=") == struct.pack("<if", 1, 2.0)  # the vector of V2-FILL-003
