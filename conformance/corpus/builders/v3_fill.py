"""v3 fill values (V3-FILL-*): every JSON form read back through missing chunks with exact bits,
the forms that must be rejected, and what a writer must put in `fill_value`."""

from __future__ import annotations

import numpy as np

from ...reference import jsonio
from ..data import sample
from ..generator import add_case, case
from .table_kit import each
from .v3_kit import (
    array_doc,
    bits,
    default_endian,
    dtype_needs,
    numpy_dtype,
    put_array,
    reject_case,
)


def _read(
    slug,
    data_type,
    fill_json,
    fill_bits,
    requirements,
    description,
    tier=None,
    shape=(5,),
    chunks=(2,),
    skip=((0,), (2,)),
    fill_text: bytes | None = None,
):
    """A read case whose missing chunks (`skip`) must hold exactly `fill_bits`."""
    dtype = numpy_dtype(data_type)
    fill_bits = np.asarray(fill_bits).reshape(())

    def build(w):
        if dtype == np.bool_:
            data = np.zeros(shape, bool) if bool(fill_bits) else np.ones(shape, bool)
        else:
            data = sample(w.rng, shape, dtype, avoid=fill_bits)
        doc = array_doc(shape, chunks, data_type, fill_json)
        w.expect_array(
            put_array(
                w,
                "",
                doc,
                data,
                fill_bits=fill_bits,
                skip=set(skip),
                endian=default_endian(data_type),
            )
        )
        if fill_text is not None:  # a number Python's float cannot hold exactly: write its text
            w.put("zarr.json", jsonio.dumps(doc).replace(b'"@FILL@"', fill_text))

    add_case(
        f"v3/fill/{slug}",
        kind="read",
        build=build,
        needs=[*dtype_needs(data_type), "codec:bytes"],
        requirements=["V3-FILL-009", *requirements],
        tier=tier,
        description=description,
    )


NAN = {"float16": 0x7E00, "float32": 0x7FC00000, "float64": 0x7FF8000000000000}

# fmt: off
READS = [
    # slug, data type, fill_value, the bits missing chunks hold, requirements, description[, options]
    ("bool-true", "bool", True, np.array(True), ["V3-FILL-001"], "v3 bool fill true: missing chunks read as true"),
    ("bool-false", "bool", False, np.array(False), ["V3-FILL-001"], "v3 bool fill false: missing chunks read as false between chunks of true"),
    ("uint64-max", "uint64", 2**64 - 1, np.array(2**64 - 1, "u8"), ["V3-FILL-002"], "v3 uint64 fill 18446744073709551615 is read exactly (not through a double)"),
    ("int64-min", "int64", -(2**63), np.array(-(2**63), "i8"), ["V3-FILL-002"], "v3 int64 fill -9223372036854775808 is read exactly"),
    ("int64-max-minus-1", "int64", 2**63 - 2, np.array(2**63 - 2, "i8"), ["V3-FILL-002"], "v3 int64 fill 9223372036854775806 (not a double) is read exactly"),
    ("int8-min", "int8", -128, np.array(-128, "i1"), ["V3-FILL-002"], "v3 int8 fill -128 (range minimum)"),
    ("uint8-max", "uint8", 255, np.array(255, "u1"), ["V3-FILL-002"], "v3 uint8 fill 255 (range maximum)"),
    ("uint32-max", "uint32", 2**32 - 1, np.array(2**32 - 1, "u4"), ["V3-FILL-002"], "v3 uint32 fill 4294967295"),
    ("int16-all-missing", "int16", 42, np.array(42, "i2"), [], "v3 int16 (7,6) with fill 42 and no chunk keys at all reads entirely as 42", {"shape": (7, 6), "chunks": (3, 4), "skip": [(i, j) for i in range(3) for j in range(2)]}),
    ("float32-decimal-0.1", "float32", 0.1, bits("f4", 0x3DCCCCCD), ["V3-FILL-003"], "v3 float32 fill 0.1 rounds to the nearest float32, bits 0x3dcccccd"),
    ("float64-decimal-0.1", "float64", 0.1, bits("f8", 0x3FB999999999999A), ["V3-FILL-003"], "v3 float64 fill 0.1 gives bits 0x3fb999999999999a"),
    ("float16-decimal-0.1", "float16", 0.1, bits("f2", 0x2E66), ["V3-FILL-003"], "v3 float16 fill 0.1 rounds to the nearest float16, bits 0x2e66", {"question": "optional-data-type"}),
    ("float32-integer-number", "float32", 3, np.array(3.0, "f4"), ["V3-FILL-003"], "v3 float32 fill written as the JSON integer 3 reads as 3.0"),
    ("float64-exponent", "float64", 1.5e-300, np.array(1.5e-300, "f8"), ["V3-FILL-003"], "v3 float64 fill 1.5e-300 (a JSON number with an exponent)"),
    ("float32-subnormal", "float32", 1e-45, bits("f4", 0x00000001), ["V3-FILL-003"], "v3 float32 fill 1e-45 rounds to the smallest subnormal, bits 0x00000001"),
    ("float32-max", "float32", 3.4028234663852886e38, bits("f4", 0x7F7FFFFF), ["V3-FILL-003"], "v3 float32 fill 3.4028234663852886e38 is the largest finite float32, bits 0x7f7fffff"),
    ("float32-16777217-ties-even", "float32", 16777217, np.array(16777216.0, "f4"), ["V3-FILL-003"], "v3 float32 fill 16777217 (a tie) rounds to even, 16777216 (HEAD-2026 wording)", {"question": "versions-disagree", "tier": "optional"}),
    # Decimal texts near the midpoint 1 + 2^-24 of 1.0 and its float32 successor: the exact midpoint
    # ties to even (1.0); a text just above it must round up to 1 + 2^-23, although parsing it into a
    # double first lands on the midpoint and then ties down (double rounding).
    ("float32-midpoint-ties-even", "float32", "@FILL@", np.array(1.0, "f4"), ["V3-FILL-003"], "v3 float32 fill 1.000000059604644775390625 (exactly between two float32) ties to even, 1.0", {"question": "versions-disagree", "tier": "optional", "fill_text": b"1.000000059604644775390625"}),
    ("float32-double-rounding", "float32", "@FILL@", bits("f4", 0x3F800001), ["V3-FILL-003"], "v3 float32 fill 1.00000005960464477539062500001 rounds once to 1+2^-23, not via a double to 1.0", {"question": "json-number-precision", "tier": "optional", "fill_text": b"1.00000005960464477539062500001"}),
    ("float64-negative-zero", "float64", -0.0, bits("f8", 1 << 63), ["V3-FILL-003"], "v3 float64 fill -0.0 keeps its sign bit in missing chunks"),
    ("float32-negative-zero", "float32", -0.0, bits("f4", 1 << 31), ["V3-FILL-003"], "v3 float32 fill -0.0 keeps its sign bit in missing chunks"),
    # "NaN" is the canonical quiet NaN of each width
    *[(f"{t}-nan-canonical", t, "NaN", bits(numpy_dtype(t), NAN[t]), ["V3-FILL-004", "V3-FILL-005"], f"v3 {t} fill 'NaN': missing chunks hold exactly the canonical quiet NaN 0x{NAN[t]:x}", {"question": question})
      for t, question in (("float16", "optional-data-type"), ("float32", "spec-read"), ("float64", "spec-read"))],
    ("float32-infinity", "float32", "Infinity", np.array(np.inf, "f4"), ["V3-FILL-004"], "v3 float32 fill 'Infinity' reads as +inf"),
    ("float32-minus-infinity", "float32", "-Infinity", np.array(-np.inf, "f4"), ["V3-FILL-004"], "v3 float32 fill '-Infinity' reads as -inf"),
    ("float64-infinity", "float64", "Infinity", np.array(np.inf, "f8"), ["V3-FILL-004"], "v3 float64 fill 'Infinity' reads as +inf"),
    ("float64-minus-infinity", "float64", "-Infinity", np.array(-np.inf, "f8"), ["V3-FILL-004"], "v3 float64 fill '-Infinity' reads as -inf"),
    ("float16-minus-infinity", "float16", "-Infinity", np.array(-np.inf, "f2"), ["V3-FILL-004"], "v3 float16 fill '-Infinity' reads as -inf", {"question": "optional-data-type"}),
    ("float32-hex-one", "float32", "0x3f800000", np.array(1.0, "f4"), ["V3-FILL-006"], "v3 float32 hex fill '0x3f800000' reads as 1.0"),
    ("float32-hex-nan-payload", "float32", "0x7fc00001", bits("f4", 0x7FC00001), ["V3-FILL-006"], "v3 float32 hex fill '0x7fc00001' keeps its NaN payload bit for bit"),
    ("float32-hex-negative-nan", "float32", "0xffc00000", bits("f4", 0xFFC00000), ["V3-FILL-006"], "v3 float32 hex fill '0xffc00000' is the negative quiet NaN, sign bit kept"),
    ("float64-hex-signalling-nan", "float64", "0x7ff0000000000001", bits("f8", 0x7FF0000000000001), ["V3-FILL-006"], "v3 float64 hex fill '0x7ff0000000000001' (a signalling NaN) is not quietened"),
    ("float64-hex-negative-zero", "float64", "0x8000000000000000", bits("f8", 1 << 63), ["V3-FILL-006"], "v3 float64 hex fill '0x8000000000000000' is negative zero"),
    ("float16-hex-nan-payload", "float16", "0x7e01", bits("f2", 0x7E01), ["V3-FILL-006"], "v3 float16 hex fill '0x7e01' keeps its NaN payload", {"question": "optional-data-type"}),
    ("float32-hex-uppercase", "float32", "0x7FC00001", bits("f4", 0x7FC00001), ["V3-FILL-006"], "v3 float32 hex fill with upper-case digits '0x7FC00001' reads like the lower-case form", {"question": "spec-silent", "tier": "optional"}),
    ("complex64-inf-nan", "complex64", ["-Infinity", "NaN"], np.array([-np.inf, bits("f4", 0x7FC00000)], "f4").view("c8")[0], ["V3-FILL-007", "V3-FILL-005"], "v3 complex64 fill ['-Infinity', 'NaN']: real -inf, imaginary the canonical NaN 0x7fc00000"),
    ("complex128-pair", "complex128", [1, 2], np.array(1 + 2j, "c16"), ["V3-FILL-007"], "v3 complex128 fill [1, 2] reads as 1+2j"),
    ("complex64-hex-parts", "complex64", ["0x7fc00001", -0.0], np.array([bits("f4", 0x7FC00001), bits("f4", 1 << 31)], "f4").view("c8")[0], ["V3-FILL-007", "V3-FILL-006"], "v3 complex64 fill ['0x7fc00001', -0.0]: a NaN payload real part and a negative-zero imaginary part"),
    ("complex128-nan-infinity", "complex128", ["NaN", "Infinity"], np.array([bits("f8", NAN["float64"]), np.inf], "f8").view("c16")[0], ["V3-FILL-007", "V3-FILL-005"], "v3 complex128 fill ['NaN', 'Infinity'] with the canonical float64 NaN real part"),
    ("r16-bytes", "r16", [1, 2], np.frombuffer(b"\x01\x02", "V2")[0], ["V3-FILL-008"], "v3 r16 fill [1, 2]: missing elements hold the bytes 01 02 (N/8 = 2 bytes)", {"question": "optional-data-type"}),
    ("r8-bytes", "r8", [255], np.frombuffer(b"\xff", "V1")[0], ["V3-FILL-008"], "v3 r8 fill [255]: missing elements hold the byte FF", {"question": "optional-data-type"}),
    ("r32-bytes", "r32", [0, 128, 255, 7], np.frombuffer(bytes([0, 128, 255, 7]), "V4")[0], ["V3-FILL-008"], "v3 r32 fill [0, 128, 255, 7] keeps byte order exactly as listed", {"question": "optional-data-type"}),
]
# fmt: on

each(_read, READS, question="spec-read")


# ---- fills that must be rejected -----------------------------------------------------------------


def _bad(slug, data_type, fill, requirements, what, tier=None):
    reject_case(
        f"v3/fill/reject-{slug}",
        array_doc((4,), (2,), data_type, fill),
        "invalid-fill-value",
        requirements,
        f"v3 {data_type} array with fill_value {what} is rejected on open",
        needs=[*dtype_needs(data_type), "codec:bytes"],
        tier=tier,
    )


# fmt: off
REJECTS = [
    # slug, data type, fill_value, requirements, "v3 <type> array with fill_value <what> is rejected on open"
    ("bool-1", "bool", 1, ["V3-FILL-001"], "1 (a number, not a boolean)", {"question": "scalar-spelling"}),
    ("bool-0", "bool", 0, ["V3-FILL-001"], "0 (a number, not a boolean)", {"question": "scalar-spelling"}),
    ("bool-string-true", "bool", "true", ["V3-FILL-001"], "'true' (a string)", {"question": "scalar-spelling"}),
    ("bool-null", "bool", None, ["V3-FILL-001", "V3-FILL-010"], "null", {"question": "null-mandatory"}),
    ("uint8-1.0", "uint8", 1.0, ["V3-FILL-002"], "1.0 (a fraction part)", {"question": "integer-as-float"}),
    ("uint8-1e2", "uint8", 1e2, ["V3-FILL-002"], "1e2 written as 100.0 (not an integer literal)", {"question": "integer-as-float"}),
    ("uint8-256", "uint8", 256, ["V3-FILL-002"], "256 (out of range)", {"question": "invalid-value"}),
    ("uint8-minus-1", "uint8", -1, ["V3-FILL-002"], "-1 (out of range)", {"question": "invalid-value"}),
    ("int8-minus-129", "int8", -129, ["V3-FILL-002"], "-129 (out of range)", {"question": "invalid-value"}),
    ("int64-overflow", "int64", 2**63, ["V3-FILL-002"], "9223372036854775808 (2^63, out of range)", {"question": "invalid-value"}),
    ("uint64-overflow", "uint64", 2**64, ["V3-FILL-002"], "18446744073709551616 (2^64, out of range)", {"question": "invalid-value"}),
    ("int32-string", "int32", "1", ["V3-FILL-002"], "'1' (a string)", {"question": "scalar-spelling"}),
    ("int32-true", "int32", True, ["V3-FILL-002"], "true (a boolean)", {"question": "scalar-spelling"}),
    ("int32-hex", "int32", "0x00000001", ["V3-FILL-002"], "'0x00000001' (hex is for floats only)", {"question": "scalar-spelling"}),
    ("int32-null", "int32", None, ["V3-FILL-010"], "null", {"question": "null-mandatory"}),
    ("int32-list", "int32", [1], ["V3-FILL-002"], "[1] (a list)", {"question": "wrong-structure"}),
    ("float32-plus-infinity", "float32", "+Infinity", ["V3-FILL-004"], "'+Infinity' (not one of the three strings)", {"question": "float-special-spelling"}),
    ("float32-inf", "float32", "inf", ["V3-FILL-004"], "'inf'", {"question": "float-special-spelling"}),
    ("float32-nan-lowercase", "float32", "nan", ["V3-FILL-004"], "'nan' (lower case)", {"question": "float-special-spelling"}),
    ("float64-minus-nan", "float64", "-NaN", ["V3-FILL-004"], "'-NaN'", {"question": "float-special-spelling"}),
    ("float64-infinity-uppercase", "float64", "INFINITY", ["V3-FILL-004"], "'INFINITY'", {"question": "float-special-spelling"}),
    ("float64-number-string", "float64", "1.5", ["V3-FILL-004"], "'1.5' (a number inside a string)", {"question": "scalar-spelling"}),
    ("float64-null", "float64", None, ["V3-FILL-010"], "null (not valid for any core type)", {"question": "null-mandatory"}),
    ("float32-true", "float32", True, ["V3-FILL-003"], "true (a boolean)", {"question": "scalar-spelling"}),
    ("float32-list", "float32", [1.0], ["V3-FILL-003"], "[1.0] (a list)", {"question": "wrong-structure"}),
    ("float32-hex-short", "float32", "0x3f80", ["V3-FILL-006"], "'0x3f80' (fewer hex digits than the type's 4 bytes)", {"question": "hex-digits"}),
    ("float32-hex-long", "float32", "0x3f80000000", ["V3-FILL-006"], "'0x3f80000000' (more than 4 bytes of hex)", {"question": "invalid-value"}),
    ("float32-hex-not-hex", "float32", "0x3f80zz00", ["V3-FILL-006"], "'0x3f80zz00' (not hex digits)", {"question": "invalid-value"}),
    ("complex64-number", "complex64", 0, ["V3-FILL-007"], "0 (not a [real, imag] pair)", {"question": "wrong-structure"}),
    ("complex64-one-part", "complex64", [1.0], ["V3-FILL-007"], "[1.0] (one part)", {"question": "wrong-structure"}),
    ("complex64-three-parts", "complex64", [1, 2, 3], ["V3-FILL-007"], "[1, 2, 3] (three parts)", {"question": "wrong-structure"}),
    ("complex128-bad-part", "complex128", [1, "inf"], ["V3-FILL-007", "V3-FILL-004"], "[1, 'inf'] (a bad special string)", {"question": "float-special-spelling"}),
    ("complex128-null", "complex128", None, ["V3-FILL-010"], "null", {"question": "null-mandatory"}),
    ("r16-short", "r16", [1], ["V3-FILL-008"], "[1] (one byte for a 2-byte type)", {"question": "invalid-value"}),
    ("r16-byte-256", "r16", [1, 256], ["V3-FILL-008"], "[1, 256] (a value above 255)", {"question": "invalid-value"}),
    ("r16-negative", "r16", [1, -1], ["V3-FILL-008"], "[1, -1] (a negative byte)", {"question": "invalid-value"}),
    ("r16-sixteen-items", "r16", list(range(16)), ["V3-FILL-008"], "a 16-item list (the spec's literal 'length N' in bits; read as N/8 bytes)", {"question": "versions-disagree"}),
    ("r16-base64", "r16", "AQI=", ["V3-FILL-008"], "'AQI=' (base64 text, not a byte list)", {"question": "wrong-structure"}),
    ("r16-null", "r16", None, ["V3-FILL-008", "V3-FILL-010"], "null", {"question": "null-mandatory"}),
]
# fmt: on

each(_bad, REJECTS, tests="fill_value")


# ---- what writers put in fill_value (V3-ARR-011, V3-FILL-002/004/006) -----------------------------


def _write(slug, data_type, fill_json, fill_bits, requirements, description, tier=None):
    """The judge compares the written fill with the requested one as bytes of the data type: any
    spelling the spec allows passes ("NaN" or "0x7fc00000"), a changed value (a sign, a payload, a
    rounding) fails, and an invalid spelling (null, a bare NaN token) cannot be opened."""

    def build(w):
        dtype = numpy_dtype(data_type)
        data = sample(w.rng, (6,), dtype, avoid=np.asarray(fill_bits).reshape(()))
        doc = array_doc((6,), (4,), data_type, fill_json)
        w.expect_write(metadata=doc, data=data, keys=["zarr.json", "c/0", "c/1"])

    add_case(
        f"v3/fill/write-{slug}",
        kind="write",
        build=build,
        tier=tier,
        requirements=requirements,
        needs=[*dtype_needs(data_type), "codec:bytes", "op:write"],
        description=description,
        question="writer-records-fill",
    )


# fmt: off
WRITES = [
    # slug, data type, fill_value, its bits, requirements, description
    ("nan", "float32", "NaN", bits("f4", NAN["float32"]), ["V3-FILL-004", "V3-ARR-011", "V3-ARR-013"], "v3 write with fill 'NaN' records the canonical NaN (as 'NaN' or its hex bits; not null, not a bare NaN token)"),
    ("minus-infinity", "float64", "-Infinity", np.array(-np.inf), ["V3-FILL-004", "V3-ARR-011"], "v3 write with fill '-Infinity' records negative infinity in fill_value"),
    ("negative-nan-hex", "float32", "0xffc00000", bits("f4", 0xFFC00000), ["V3-FILL-006"], "v3 write with the negative NaN fill 0xffc00000 records those bits (a hex string), not 'NaN', which is another value"),
    ("uint64-max", "uint64", 2**64 - 1, np.array(2**64 - 1, "u8"), ["V3-FILL-002", "V3-ARR-011"], "v3 write with fill 2^64-1 records fill_value 18446744073709551615 exactly"),
    ("int64-min", "int64", -(2**63), np.array(-(2**63), "i8"), ["V3-FILL-002", "V3-ARR-011"], "v3 write with fill -2^63 records fill_value -9223372036854775808 exactly"),
    ("zero", "int16", 0, np.array(0, "i2"), ["V3-ARR-011"], "v3 write with fill 0 still writes the fill_value member into zarr.json (an int16 0, not -0 or a float)"),
    ("bool-true", "bool", True, np.array(True), ["V3-FILL-001", "V3-ARR-011"], "v3 write of a bool array with fill true records true (the JSON boolean: 1 cannot be opened)"),
    ("complex-infinity-nan", "complex128", ["Infinity", "NaN"], np.array([np.inf, bits("f8", NAN["float64"])], "f8").view("c16")[0], ["V3-FILL-007", "V3-FILL-004"], "v3 write with complex fill ['Infinity', 'NaN'] records that pair bit for bit"),
]
# fmt: on

each(_write, WRITES)


@case(
    "v3/fill/reject-nan-token",
    kind="reject",
    needs=["dtype:float32", "codec:bytes"],
    requirements=["V3-FILL-004", "V3-ARR-013"],
    description="v3 zarr.json with a bare NaN token as fill_value (not strict JSON) is rejected",
    question="json-lenient",
    tests="fill_value",
)
def _(w):
    text = (
        '{"zarr_format": 3, "node_type": "array", "shape": [4], "data_type": "float32", '
        '"chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2]}}, '
        '"chunk_key_encoding": {"name": "default"}, "fill_value": NaN, '
        '"codecs": [{"name": "bytes", "configuration": {"endian": "little"}}]}'
    )
    w.put("zarr.json", text.encode())
    w.expect_reject("invalid-json")
