"""The data types of the zarr-extensions registry (v3_registry_kit): a read case per type with the
bytes codec (values, a missing chunk read as the fill, edge overhang), the README's "NaN" bit
pattern for the small floats, junk in the ignored upper bits of the sub-byte integers, and the
documents each README or JSON schema forbids.

The core types the registry lists (bool, int8 ... complex128, r<N>) point to the core spec; their
cases are the core corpus (v3/dtypes). string, bytes and numpy.datetime64 also have cases in
v3/dtypes; the cases here add what their own READMEs say.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

from ..data import strings
from ..generator import verdict
from .v3_registry_kit import doc, hand_store, le_bytes, opaque, registry_case, reject, with_fill

SHAPE, CHUNKS, SKIP = (5,), (2,), {(1,)}  # three chunks: the middle one is missing
LITTLE, BIG = (
    {"name": "bytes", "configuration": {"endian": "little"}},
    {
        "name": "bytes",
        "configuration": {"endian": "big"},
    },
)
DATA_TYPE_NAME = "Data type name"
SPECIFIED = 'The data type is specified as `"{name}"`.'
_GENERAL = [0.5, 1.0, 1.5, 2.0, 3.0, 4.0, -1.0, -6.0]  # exact in every small float with a sign
_POWERS = [0.25, 1.0, 2.0, 4.0, 8.0, 0.125]  # float8_e8m0fnu: powers of two only

# name -> (NumPy type, values, README "NaN" pattern or None); fill 0.5 everywhere.
SMALL_FLOATS = {
    "bfloat16": (ml_dtypes.bfloat16, _GENERAL, "0x7fc0"),
    "float8_e3m4": (ml_dtypes.float8_e3m4, _GENERAL, "0x78"),
    "float8_e4m3": (ml_dtypes.float8_e4m3, _GENERAL, "0x7c"),
    "float8_e4m3b11fnuz": (ml_dtypes.float8_e4m3b11fnuz, _GENERAL, "0x80"),
    "float8_e4m3fnuz": (ml_dtypes.float8_e4m3fnuz, _GENERAL, "0x80"),
    "float8_e5m2": (ml_dtypes.float8_e5m2, _GENERAL, "0x7e"),
    "float8_e5m2fnuz": (ml_dtypes.float8_e5m2fnuz, _GENERAL, "0x80"),
    "float8_e8m0fnu": (ml_dtypes.float8_e8m0fnu, _POWERS, "0xFF"),
    "float6_e2m3fn": (ml_dtypes.float6_e2m3fn, _GENERAL, None),
    "float6_e3m2fn": (ml_dtypes.float6_e3m2fn, _GENERAL, None),
    "float4_e2m1fn": (ml_dtypes.float4_e2m1fn, _GENERAL, None),
}
COMPLEX_COMPONENTS = {
    "complex_bfloat16": ml_dtypes.bfloat16,
    "complex_float16": np.float16,
    "complex_float32": np.float32,
    "complex_float64": np.float64,
    **{f"complex_{n}": SMALL_FLOATS[n][0] for n in SMALL_FLOATS if n != "bfloat16"},
}
# name -> (NumPy type, bits, fill, values); the README: "the upper ... bits are ignored"
SUB_BYTE_INTS = {
    "int2": (ml_dtypes.int2, 2, 1, [-2, -1, 0, -2, 0, -1]),
    "int4": (ml_dtypes.int4, 4, 1, [-8, 7, -1, 0, 5, -3]),
    "uint2": (ml_dtypes.uint2, 2, 1, [0, 2, 3, 0, 3, 2]),
    "uint4": (ml_dtypes.uint4, 4, 1, [0, 15, 9, 4, 12, 2]),
}
UPPER_BITS = {
    2: "Encoded as a 1-byte value, `0bIIIIIIXX` where the upper `IIIIII` bits are ignored.",
    4: "Encoded as a 1-byte value, `0bIIIIXXXX` where the upper `IIII` bits are ignored.",
}


def _pick(rng, values, n):
    return np.asarray(rng.choice(np.asarray(values, dtype=object), n)).tolist()


def _read(slug, name, quote, section, description, build, needs=()):
    registry_case(
        slug,
        point="dtype",
        name=name,
        quote=quote,
        section=section,
        kind="read",
        question="registered-extension",
        description=description,
        build=build,
        needs=[f"dtype:{name}", "codec:bytes", *needs],
    )


def _bad_type(
    slug, name, data_type, fill, question, what, quote, section, reason="invalid-data-type"
):
    reject(
        f"{slug}",
        doc(SHAPE, CHUNKS, data_type, fill, [LITTLE]),
        reason,
        question,
        what,
        point="dtype",
        name=name,
        quote=quote,
        section=section,
        needs=[f"dtype:{name}", "codec:bytes"],
    )


# ---- small floats ---------------------------------------------------------------------------
def _small_float(name, kind, values, endian):
    def build(w):
        data = np.array(_pick(w.rng, [v for v in values if v != 0.5], 5), dtype=kind)
        fill = np.array(0.5, dtype=kind)
        codecs = [BIG if endian == "big" else LITTLE]
        hand_store(
            w,
            doc(SHAPE, CHUNKS, name, 0.5, codecs),
            data,
            lambda b: le_bytes(b, endian == "big"),
            SKIP,
        )
        w.expect_array(opaque(with_fill(data, CHUNKS, SKIP, fill)))

    return build


def _nan_fill(name, kind, pattern):
    def build(w):
        data = np.array(_pick(w.rng, SMALL_FLOATS[name][1], 5), dtype=kind)
        nbytes = np.dtype(kind).itemsize
        fill = np.frombuffer(int(pattern, 16).to_bytes(nbytes, "little"), dtype=kind).reshape(())
        hand_store(w, doc(SHAPE, CHUNKS, name, "NaN", [LITTLE]), data, le_bytes, SKIP)
        w.expect_array(opaque(with_fill(data, CHUNKS, SKIP, fill)))

    return build


for _name, (_kind, _values, _nan) in SMALL_FLOATS.items():
    _read(
        _name,
        _name,
        SPECIFIED.format(name=_name),
        DATA_TYPE_NAME,
        f"v3 {_name} (5,) in (2,) chunks with the bytes codec: exact values, a missing chunk reads "
        "as the fill 0.5",
        _small_float(_name, _kind, _values, "little"),
    )
    if _nan is not None:
        _read(
            f"{_name}-fill-nan",
            _name,
            f'The constant `"NaN"` corresponds to a representation of `"{_nan}"`.',
            "Fill value representation",
            f"v3 {_name} with fill 'NaN': a missing chunk reads as the bit pattern {_nan} the "
            "README names",
            _nan_fill(_name, _kind, _nan),
        )
_read(
    "bfloat16-big-endian",
    "bfloat16",
    "Encoded as a 2-byte little-endian or big-endian value `0bSEEEEEEEEMMMMMMM`.",
    "bytes",
    "v3 bfloat16 with the bytes codec big-endian: each value is 2 bytes, most significant first",
    _small_float("bfloat16", ml_dtypes.bfloat16, _GENERAL, "big"),
)
with verdict(tests="configuration"):
    _bad_type(
        "bfloat16-reject-configuration-member",
        "bfloat16",
        {"name": "bfloat16", "configuration": {"precision": 8}},
        0.5,
        "unknown-configuration-member",
        "whose bfloat16 data type has a configuration member (the type takes none)",
        "None.",
        "Configuration",
    )
with verdict(tests="fill value"):
    _bad_type(
        "float8_e4m3-reject-fill-string",
        "float8_e4m3",
        "float8_e4m3",
        "one",
        "invalid-value",
        "with the float8_e4m3 fill value 'one' (not a number, 'NaN', an infinity or a hex pattern)",
        "The fill value is specified in the same way as the core IEEE 754 floating point numbers:",
        "Fill value representation",
        reason="invalid-fill-value",
    )


# ---- complex types of two float components -----------------------------------------------------
def _complex(name, component):
    pairs = [(v, -v) for v in _GENERAL] + [(1.0, 2.0), (-4.0, 0.5)]
    if component is ml_dtypes.float8_e8m0fnu:
        pairs = [(a, b) for a in _POWERS for b in _POWERS]

    def build(w):
        from ...reference.formats.v3.data_types import parse_data_type

        dtype = parse_data_type(name).dtype  # complex64/128 or packed (real, imag)
        chosen = [pairs[i] for i in w.rng.choice(len(pairs), 5)]
        chosen = [p if p != (0.5, 1.0) else (1.0, 1.0) for p in chosen]
        data = np.empty(SHAPE, dtype=dtype)
        fill = np.empty((), dtype=dtype)
        if dtype.fields:
            data["real"], data["imag"] = [c[0] for c in chosen], [c[1] for c in chosen]
            fill["real"], fill["imag"] = 0.5, 1.0
        else:
            data[...] = [complex(*c) for c in chosen]
            fill[()] = complex(0.5, 1.0)
        encode = le_bytes if dtype.fields else lambda b: b.astype(dtype.newbyteorder("<")).tobytes()
        hand_store(w, doc(SHAPE, CHUNKS, name, [0.5, 1.0], [LITTLE]), data, encode, SKIP)
        w.expect_array(opaque(with_fill(data, CHUNKS, SKIP, fill)))

    return build


for _name, _component in COMPLEX_COMPONENTS.items():
    _read(
        _name,
        _name,
        SPECIFIED.format(name=_name),
        DATA_TYPE_NAME,
        f"v3 {_name} (5,) in (2,) chunks with the bytes codec (real then imaginary component): "
        "exact values, a missing chunk reads as the fill [0.5, 1.0]",
        _complex(_name, _component),
    )
with verdict(tests="fill value"):
    _bad_type(
        "complex_bfloat16-reject-fill-scalar",
        "complex_bfloat16",
        "complex_bfloat16",
        0.5,
        "wrong-structure",
        "with the complex_bfloat16 fill value 0.5 (a complex fill is a [real, imaginary] pair)",
        "The fill value is specified in the same way as the core complex number data data types:",
        "Fill value representation",
        reason="invalid-fill-value",
    )


# ---- sub-byte integers: junk in the ignored upper bits ------------------------------------------
def _sub_byte(name, kind, bits, fill, values):
    mask = (1 << bits) - 1

    def build(w):
        data = np.array(_pick(w.rng, [v for v in values if v != fill], 5), dtype=kind)
        junk = w.rng.integers(1, 256 >> bits, size=64, dtype=np.uint8) << bits

        def encode(block):
            low = np.ascontiguousarray(block).view(np.uint8) & mask
            return (low | junk[: low.size].reshape(low.shape)).tobytes()

        hand_store(w, doc(SHAPE, CHUNKS, name, fill, [{"name": "bytes"}]), data, encode, SKIP)
        w.expect_array(opaque(with_fill(data, CHUNKS, SKIP, np.array(fill, dtype=kind))))

    return build


for _name, (_kind, _bits, _fill, _values) in SUB_BYTE_INTS.items():
    _read(
        _name,
        _name,
        UPPER_BITS[_bits],
        "bytes",
        f"v3 {_name} with the bytes codec: each value is the low {_bits} bits of a byte whose "
        f"upper bits are junk (ignored); a missing chunk reads as the fill {_fill}",
        _sub_byte(_name, _kind, _bits, _fill, _values),
    )
with verdict(tests="range"):
    _bad_type(
        "int2-reject-fill-out-of-range",
        "int2",
        "int2",
        2,
        "invalid-value",
        "with the int2 fill value 2 (int2 is the range [-2, 1])",
        "Defines a signed integer in the range `[-2, 1]`.",
        "int2 data type",
        reason="invalid-fill-value",
    )
with verdict(tests="range"):
    _bad_type(
        "uint4-reject-fill-out-of-range",
        "uint4",
        "uint4",
        16,
        "invalid-value",
        "with the uint4 fill value 16 (uint4 is the range [0, 15])",
        "Defines an unsigned integer in the range `[0, 15]`.",
        "uint4 data type",
        reason="invalid-fill-value",
    )


# ---- fixed_length_utf32 ----------------------------------------------------------------------
FLU32 = "fixed_length_utf32"


def _utf32(endian):
    def build(w):
        data = strings(w.rng, SHAPE, alphabet="ab\u00e9\u65e5\U0001f600").astype("<U3")
        for i in range(data.size):
            data[i] = data[i][:3]
        hand_store(
            w,
            doc(
                SHAPE,
                CHUNKS,
                {"name": FLU32, "configuration": {"length_bytes": 12}},
                "",
                [BIG if endian == "big" else LITTLE],
            ),
            data,
            lambda b: b.astype(">U3" if endian == "big" else "<U3").tobytes(),
            SKIP,
        )
        w.expect_array(with_fill(data, CHUNKS, SKIP, np.array("", "<U3")))

    return build


for _endian in ("little", "big"):
    _read(
        f"{FLU32}-{_endian}",
        FLU32,
        "Each code point is encoded as a 4-byte UTF-32 code unit.",
        "Bytes codec encoding",
        f"v3 fixed_length_utf32 (length_bytes 12) with the bytes codec {_endian}-endian: strings of "
        "0-3 code points (non-BMP included) zero-padded; a missing chunk reads as the fill ''",
        _utf32(_endian),
    )
for _slug, _config, _question, _what, _tests in (
    ("no-configuration", None, "missing-member", "without a configuration", "configuration"),
    ("length-missing", {}, "missing-member", "without length_bytes", "length_bytes"),
    (
        "length-not-multiple-of-4",
        {"length_bytes": 6},
        "invalid-value",
        "with length_bytes 6",
        "length_bytes",
    ),
    ("length-zero", {"length_bytes": 0}, "invalid-value", "with length_bytes 0", "length_bytes"),
    (
        "length-string",
        {"length_bytes": "12"},
        "scalar-spelling",
        "with length_bytes '12'",
        "length_bytes",
    ),
):
    with verdict(tests=_tests):
        _type = {"name": FLU32} if _config is None else {"name": FLU32, "configuration": _config}
        _bad_type(
            f"{FLU32}-reject-{_slug}",
            FLU32,
            _type,
            "",
            _question,
            f"whose fixed_length_utf32 data type is {_what}",
            "`length_bytes` | positive integer, multiple of `4` | yes |",
            "Configuration",
        )


# ---- struct and its legacy alias structured ---------------------------------------------------
STRUCT_FIELDS = [{"name": "x", "data_type": "int16"}, {"name": "y", "data_type": "float32"}]
STRUCT_NUMPY = np.dtype([("x", "<i2"), ("y", "<f4")])


def _struct(data_type, fill_json, endian):
    def build(w):
        data = np.zeros(SHAPE, STRUCT_NUMPY)
        data["x"] = w.rng.integers(-300, 300, SHAPE)
        data["y"] = w.rng.integers(-64, 64, SHAPE) / 8
        fill = np.zeros((), STRUCT_NUMPY)
        fill["x"], fill["y"] = 7, 0.25
        codecs = [BIG if endian == "big" else LITTLE]
        hand_store(
            w,
            doc(SHAPE, CHUNKS, data_type, fill_json, codecs),
            data,
            lambda b: le_bytes(b, endian == "big"),
            SKIP,
        )
        w.expect_array(opaque(with_fill(data, CHUNKS, SKIP, fill)))

    return build


for _endian in ("little", "big"):
    _read(
        f"struct-{_endian}",
        "struct",
        "The `fill_value` for arrays with the `struct` data type MUST be a JSON object mapping each "
        "field name to its fill value.",
        "Fill value representation",
        f"v3 struct {{x: int16, y: float32}} with the bytes codec {_endian}-endian (fields packed, "
        "each in that byte order); a missing chunk reads as the fill {x: 7, y: 0.25}",
        _struct(
            {"name": "struct", "configuration": {"fields": STRUCT_FIELDS}},
            {"x": 7, "y": 0.25},
            _endian,
        ),
    )
_read(
    "structured-tuple-fields",
    "structured",
    'Implementations MUST be able to read arrays whose metadata uses `"structured"` as the data '
    "type name.",
    "Read-only alias",
    "v3 legacy 'structured' data type with tuple fields [['x', 'int16'], ['y', 'float32']] reads "
    "as the same packed struct",
    _struct(
        {"name": "structured", "configuration": {"fields": [["x", "int16"], ["y", "float32"]]}},
        {"x": 7, "y": 0.25},
        "little",
    ),
)
_STRUCT_OK = {"name": "struct", "configuration": {"fields": STRUCT_FIELDS}}
for _slug, _type, _fill, _question, _what, _quote, _section, _tests in (
    (
        "fill-missing-field",
        _STRUCT_OK,
        {"x": 7},
        "missing-member",
        "with a struct fill value that has no entry for field y",
        "Every field defined in the `struct` type MUST have a corresponding entry in the fill "
        "value object.",
        "Fill value representation",
        "fill value",
    ),
    (
        "fill-not-object",
        _STRUCT_OK,
        [7, 0.25],
        "wrong-structure",
        "with a struct fill value given as a list",
        "The `fill_value` for arrays with the `struct` data type MUST be a JSON object mapping "
        "each field name to its fill value.",
        "Fill value representation",
        "fill_value",
    ),
    (
        "no-fields",
        {"name": "struct", "configuration": {"fields": []}},
        {},
        "invalid-value",
        "with a struct data type of no fields",
        'The `"fields"` array MUST contain at least one field.',
        "Configuration",
        "fields",
    ),
    (
        "no-configuration",
        {"name": "struct"},
        {},
        "missing-member",
        "with a struct data type without a configuration",
        "This data type requires a configuration object.",
        "Configuration",
        "configuration",
    ),
):
    with verdict(tests=_tests):
        _bad_type(
            f"struct-reject-{_slug}",
            "struct",
            _type,
            _fill,
            _question,
            _what,
            _quote,
            _section,
            reason="invalid-fill-value" if _slug.startswith("fill") else "invalid-data-type",
        )


# ---- string and bytes (vlen codecs), numpy.timedelta64 ------------------------------------------
def _vlen(data_type, codec, fill_json, fill, values):
    def build(w):
        from .v3_registry_kit import reference_store

        data = np.empty(SHAPE, dtype=object)
        data[:] = values
        reference_store(w, doc(SHAPE, CHUNKS, data_type, fill_json, [{"name": codec}]), data, SKIP)
        expected = data.copy()
        expected[2:4] = fill
        w.expect_array(expected)

    return build


_BYTES = [b"\x00ab", b"", b"\xff" * 3, b"zarr", b"\x01"]
for _slug, _fill_json, _quote in (
    (
        "fill-base64",
        "AQID",
        "a string produced by applying base64 encoding to a byte string.",
    ),
    (
        "fill-integer-list",
        [1, 2, 3],
        "an array of integers from the closed interval `[0, 255]`, where each value encodes a byte "
        "from a byte string.",
    ),
):
    registry_case(
        f"bytes-{_slug}",
        point="dtype",
        name="bytes",
        quote=_quote,
        section="Fill value encoding",
        kind="read",
        question="registered-extension",
        description=f"v3 bytes data type with vlen-bytes and the fill {_fill_json!r} (the byte "
        "string 01 02 03): a missing chunk reads as it",
        build=_vlen("bytes", "vlen-bytes", _fill_json, b"\x01\x02\x03", _BYTES),
        needs=["dtype:bytes", "codec:vlen-bytes"],
    )
for _slug, _fill_json, _what, _tests in (
    ("integer-256", [1, 256], "with the bytes fill [1, 256] (256 is no byte)", "fill_value"),
    ("not-base64", "A?==", "with the bytes fill 'A?==' (not Base64)", "fill_value"),
):
    with verdict(tests=_tests):
        reject(
            f"bytes-reject-fill-{_slug}",
            doc(SHAPE, CHUNKS, "bytes", _fill_json, [{"name": "vlen-bytes"}]),
            "invalid-fill-value",
            "invalid-value",
            _what,
            point="dtype",
            name="bytes",
            quote="The value of the `fill_value` metadata key must be one of:",
            section="Fill value encoding",
            needs=["dtype:bytes", "codec:vlen-bytes"],
        )
registry_case(
    "string-fill-unicode",
    point="dtype",
    name="string",
    quote="The value of the `fill_value` metadata key must be unicode string.",
    section="Permitted fill values",
    kind="read",
    question="registered-extension",
    description="v3 string data type with vlen-utf8 and the fill 'f\u00f6\u00f6': a missing chunk "
    "reads as it",
    build=_vlen(
        "string", "vlen-utf8", "f\u00f6\u00f6", "f\u00f6\u00f6", ["", "a", "\u65e5", "zz", "q"]
    ),
    needs=["dtype:string", "codec:vlen-utf8"],
)
with verdict(tests="fill_value"):
    reject(
        "string-reject-fill-number",
        doc(SHAPE, CHUNKS, "string", 5, [{"name": "vlen-utf8"}]),
        "invalid-fill-value",
        "invalid-value",
        "with the string fill value 5 (a number)",
        point="dtype",
        name="string",
        quote="The value of the `fill_value` metadata key must be unicode string.",
        section="Permitted fill values",
        needs=["dtype:string", "codec:vlen-utf8"],
    )


def _timedelta(fill_json, fill):
    def build(w):
        data = w.rng.integers(-(10**6), 10**6, SHAPE).astype("m8[5ms]")  # counts of 5 ms
        hand_store(
            w,
            doc(
                SHAPE,
                CHUNKS,
                {"name": "numpy.timedelta64", "configuration": {"unit": "ms", "scale_factor": 5}},
                fill_json,
                [LITTLE],
            ),
            data,
            lambda b: b.view("<i8").tobytes(),
            SKIP,
        )
        w.expect_array(with_fill(data, CHUNKS, SKIP, np.array(fill, "m8[5ms]")))

    return build


_read(
    "numpy.timedelta64",
    "numpy.timedelta64",
    "The `timedelta64` data type represents signed temporal durations.",
    "numpy.timedelta64 data type",
    "v3 numpy.timedelta64 (unit ms, scale_factor 5) little-endian: int64 counts of 5 ms; a missing "
    "chunk reads as the fill -25 (counts)",
    _timedelta(-25, -25),
)
_read(
    "numpy.timedelta64-fill-nat",
    "numpy.timedelta64",
    'As the string `"NaT"`, which denotes the value `NaT`.',
    "Fill value representation",
    "v3 numpy.timedelta64 with the fill 'NaT': a missing chunk reads as NaT (int64 -2^63)",
    _timedelta("NaT", "NaT"),
)
for _point, _name in (("timedelta", "numpy.timedelta64"), ("datetime", "numpy.datetime64")):
    for _slug, _config, _question, _what, _tests in (
        (
            "unit-unknown",
            {"unit": "days", "scale_factor": 1},
            "invalid-value",
            "unit 'days'",
            "unit",
        ),
        (
            "scale-zero",
            {"unit": "s", "scale_factor": 0},
            "invalid-value",
            "scale_factor 0",
            "scale_factor",
        ),
        ("scale-missing", {"unit": "s"}, "missing-member", "no scale_factor", "scale_factor"),
        ("unit-missing", {"scale_factor": 1}, "missing-member", "no unit", "unit"),
    ):
        with verdict(tests=_tests):
            _bad_type(
                f"{_name}-reject-{_slug}",
                _name,
                {"name": _name, "configuration": _config},
                0,
                _question,
                f"whose {_name} configuration has {_what}",
                '`"scale_factor"` | `integer` | yes | The number must represent an integer from the '
                "inclusive range `[1, 2147483647]`"
                if "scale" in _slug
                else f"The NumPy `{_point}64` data type takes a unit parameter, which must be one of "
                "the following",
                "Configuration" if "scale" in _slug else "Unit",
            )
