"""v3 data types (V3-DT-*): one read case per core type and byte order, the spec's byte vectors,
unknown and v2-style identifiers, and the zarr-extensions `string`, `bytes` and `numpy.datetime64`
types (tier extension). Chunks are NumPy bytes written by hand."""

from __future__ import annotations

import numpy as np

from ..data import sample, strings
from ..generator import add_case, case, verdict
from .table_kit import each
from .v3_codecs_kit import FILLS as CORE_FILLS
from .v3_kit import array_doc, bits, bytes_codec, dtype_needs, numpy_dtype, put_array, reject_case

# non-zero fills, exact in every width (the codec cases' table); r<N> fills are byte lists
FILLS = {**CORE_FILLS, "r8": [171], "r16": [1, 2], "r64": [1, 2, 3, 4, 5, 6, 7, 8]}
OPTIONAL_TYPES = (
    "float16",
    "r8",
    "r16",
    "r64",
)  # optional in the spec (V3-DT-001, V3-DT-006, V3-DT-007)


def fill_bits(data_type: str, fill) -> np.ndarray:
    dtype = numpy_dtype(data_type)
    if dtype.kind == "V":
        return np.frombuffer(bytes(fill), dtype=dtype).reshape(()).copy()
    if dtype.kind == "c":
        return np.array(complex(*fill), dtype=dtype)
    return np.array(fill, dtype=dtype)


def _type_case(data_type: str, endian: str | None) -> None:
    dtype = numpy_dtype(data_type)
    fill = FILLS[data_type]
    suffix = {"little": "-le", "big": "-be", None: ""}[endian]
    requirements = ["V3-DT-001", "V3-FILL-009", "V3-GRID-006", "V3-BYTES-003"]
    requirements += {
        "bool": ["V3-DT-002"],
        "float16": ["V3-DT-004", "V3-DT-006"],
        "float32": ["V3-DT-004"],
        "float64": ["V3-DT-004"],
        "complex64": ["V3-DT-005"],
        "complex128": ["V3-DT-005"],
    }.get(data_type, [])
    if dtype.kind in "iu":
        requirements.append("V3-DT-003")
    if dtype.kind == "V":
        requirements.append("V3-DT-007")
    needs = [*dtype_needs(data_type), "codec:bytes"] + (
        ["dtype:big-endian"] if endian == "big" else []
    )

    def build(w):
        fb = fill_bits(data_type, fill)
        if dtype == np.bool_:
            data = w.rng.integers(0, 2, (5, 7)).astype(
                bool
            )  # a bool sample that avoids the fill is constant
        else:
            data = sample(w.rng, (5, 7), dtype, avoid=fb)
        doc = array_doc((5, 7), (2, 3), data_type, fill, codecs=[bytes_codec(endian)])
        w.expect_array(
            put_array(w, "", doc, data, fill_bits=fb, skip={(1, 2), (2, 0)}, endian=endian)
        )

    order = {"little": "little-endian ", "big": "big-endian ", None: ""}[endian]
    add_case(
        f"v3/dtypes/{data_type}{suffix}",
        kind="read",
        build=build,
        needs=needs,
        requirements=requirements,
        question="optional-data-type" if data_type in OPTIONAL_TYPES else "spec-read",
        description=f"v3 {order}{data_type} (5,7) in (2,3) chunks: two chunks missing read as fill "
        f"{fill}, edge overhang is junk, extremes and special values exact",
    )


for _name in FILLS:
    _dt = numpy_dtype(_name)
    if _dt.itemsize == 1 or _dt.kind == "V":
        _type_case(_name, None)
    else:
        _type_case(_name, "little")
        _type_case(_name, "big")


# ---- the spec's byte vectors (V3-DT-002..005, V3-DT-007) ----------------------------------------


def _vector(case_id, data_type, endian, raw_hex, expected, requirements, description, tier=None):
    def build(w):
        value = np.asarray(expected)
        doc = array_doc(
            value.shape,
            value.shape,
            data_type,
            FILLS.get(data_type, 0),
            codecs=[bytes_codec(endian)],
        )
        w.put_json("zarr.json", doc)
        w.put("c/0", bytes.fromhex(raw_hex))
        w.expect_array(value)

    needs = [*dtype_needs(data_type), "codec:bytes"] + (
        ["dtype:big-endian"] if endian == "big" else []
    )
    add_case(
        case_id,
        kind="read",
        build=build,
        needs=needs,
        requirements=requirements,
        tier=tier,
        description=description,
    )


# fmt: off
VECTORS = [
    # case_id, data_type, endian, raw_hex, expected, requirements, description[, options]
    ("v3/dtypes/bytes-bool-00-01", "bool", None, "0001", np.array([False, True]), ["V3-DT-002"], "v3 bool chunk bytes 00 01 read as [false, true]", {"question": "spec-read"}),
    ("v3/dtypes/bytes-int16-minus2-le", "int16", "little", "feff", np.array([-2], "i2"), ["V3-DT-003"], "v3 int16 little-endian bytes FE FF read as -2", {"question": "spec-read"}),
    ("v3/dtypes/bytes-int16-minus2-be", "int16", "big", "fffe", np.array([-2], "i2"), ["V3-DT-003"], "v3 int16 big-endian bytes FF FE read as -2", {"question": "spec-read"}),
    ("v3/dtypes/bytes-uint64-max", "uint64", "little", "ff" * 8, np.array([2**64 - 1], "u8"), ["V3-DT-003"], "v3 uint64 bytes FF x 8 read as 2^64-1 exactly", {"question": "spec-read"}),
    ("v3/dtypes/bytes-int64-min-be", "int64", "big", "80" + "00" * 7, np.array([-(2**63)], "i8"), ["V3-DT-003"], "v3 int64 big-endian bytes 80 00..00 read as -2^63 exactly", {"question": "spec-read"}),
    ("v3/dtypes/bytes-float16-one-le", "float16", "little", "003c", np.array([1.0], "f2"), ["V3-DT-004", "V3-DT-006"], "v3 float16 little-endian bytes 00 3C read as 1.0", {"question": "optional-data-type", "tier": "optional"}),
    ("v3/dtypes/bytes-float64-negzero-le", "float64", "little", "00" * 7 + "80", bits("f8", 1 << 63).reshape(1), ["V3-DT-004"], "v3 float64 little-endian bytes 00..00 80 read as negative zero (sign bit kept)", {"question": "spec-read"}),
    ("v3/dtypes/bytes-float32-nan-payload-be", "float32", "big", "7fc00001", bits("f4", 0x7FC00001).reshape(1), ["V3-DT-004"], "v3 float32 big-endian bytes 7F C0 00 01 read as the NaN with payload 0x7fc00001", {"question": "spec-read"}),
    ("v3/dtypes/bytes-complex64-le", "complex64", "little", "0000803f00000040", np.array([1 + 2j], "c8"), ["V3-DT-005"], "v3 complex64 little-endian bytes 0000803f 00000040 read as 1+2j", {"question": "spec-read"}),
    ("v3/dtypes/bytes-complex64-be", "complex64", "big", "3f80000040000000", np.array([1 + 2j], "c8"), ["V3-DT-005"], "v3 complex64 big-endian bytes 3f800000 40000000 read as 1+2j (each part swapped alone)", {"question": "spec-read"}),
    ("v3/dtypes/bytes-r16-passthrough", "r16", None, "deadbeef0102", np.frombuffer(bytes.fromhex("deadbeef0102"), "V2"), ["V3-DT-007"], "v3 r16 chunk bytes DE AD BE EF 01 02 come back unchanged as three 2-byte items", {"question": "optional-data-type", "tier": "optional"}),
]
# fmt: on

each(_vector, VECTORS)


# ---- identifiers that must not open (V3-DT-001, V3-DT-007, V3-DT-008) ------------------------------

_BAD_TYPES = [
    ("v2-f8", "unknown-extension", "data_type", "<f8", "V3-DT-001", "the v2 spelling '<f8'"),
    ("v2-u1", "unknown-extension", "data_type", "|u1", "V3-DT-001", "the v2 spelling '|u1'"),
    ("v2-i4", "unknown-extension", "data_type", "<i4", "V3-DT-001", "the v2 spelling '<i4'"),
    ("v2-be-i2", "unknown-extension", "data_type", ">i2", "V3-DT-001", "the v2 spelling '>i2'"),
    ("v2-b1", "unknown-extension", "data_type", "|b1", "V3-DT-001", "the v2 spelling '|b1'"),
    ("numpy-f8", "unknown-extension", "data_type", "f8", "V3-DT-001", "the NumPy code 'f8'"),
    (
        "uppercase",
        "unknown-extension",
        "data_type",
        "Int32",
        "V3-DT-001",
        "'Int32' (identifiers are case-sensitive)",
    ),
    (
        "padded",
        "unknown-extension",
        "data_type",
        " int32",
        "V3-DT-001",
        "' int32' with a leading space",
    ),
    (
        "float-alias",
        "unknown-extension",
        "data_type",
        "float",
        "V3-DT-008",
        "the unregistered name 'float'",
    ),
    (
        "int128",
        "unknown-extension",
        "data_type",
        "int128",
        "V3-DT-008",
        "the unknown type 'int128'",
    ),
    (
        "complex32",
        "unknown-extension",
        "data_type",
        "complex32",
        "V3-DT-008",
        "the unknown type 'complex32'",
    ),
    ("r12", "unknown-extension", "r", "r12", "V3-DT-007", "'r12' (not a multiple of 8 bits)"),
    ("r0", "unknown-extension", "r", "r0", "V3-DT-007", "'r0' (zero bits)"),
    ("r-no-bits", "unknown-extension", "r", "r", "V3-DT-007", "'r' with no bit count"),
    ("null", "null-mandatory", "data_type", None, "V3-DT-008", "a null data_type"),
    ("number", "unknown-extension", "data_type", 4, "V3-DT-008", "the number 4 as data_type"),
    (
        "list",
        "wrong-structure",
        "data_type",
        ["int32"],
        "V3-DT-008",
        "the list ['int32'] as data_type",
    ),
    (
        "object-no-name",
        "unknown-extension",
        "name",
        {"configuration": {}},
        "V3-EXT-001",
        "an object data_type without 'name'",
    ),
]

for _slug, _question, _tests, _value, _req, _what in _BAD_TYPES:
    with verdict(question=_question, tests=_tests):
        reject_case(
            f"v3/dtypes/reject-{_slug}",
            array_doc((4,), (2,), _value, 0, codecs=[bytes_codec("little")]),
            "invalid-data-type",
            [_req],
            f"v3 data_type {_what} is rejected on open",
            needs=["codec:bytes"],
        )

with verdict(question="versions-disagree"):
    reject_case(
        "v3/dtypes/reject-r-leading-zero",
        array_doc((4,), (2,), "r016", [0, 0]),
        "invalid-data-type",
        ["V3-DT-007"],
        "v3 data_type 'r016' (a non-canonical bit count) is rejected on open",
        needs=["codec:bytes", "dtype:r*"],
    )


@case(
    "v3/dtypes/reject-bool-byte-02",
    kind="reject",
    needs=["dtype:bool", "codec:bytes"],
    requirements=["V3-DT-002"],
    description="v3 bool chunk holding the byte 02 (neither false nor true) fails on read",
    question="spec-silent",
)
def _(w):
    w.put_json("zarr.json", array_doc((3,), (3,), "bool", False))
    w.put("c/0", bytes([0, 1, 2]))
    w.expect_reject("corrupt-chunk", stage="read")


# ---- zarr-extensions data types (tier extension, V3-DT-009) --------------------------------------


def vlen_frame(items: list[bytes]) -> bytes:
    """vlen-utf8 / vlen-bytes framing: u32 LE count, then u32 LE length + bytes per item."""
    out = [len(items).to_bytes(4, "little")]
    for item in items:
        out += [len(item).to_bytes(4, "little"), item]
    return b"".join(out)


@case(
    "v3/dtypes/ext-string-vlen-utf8",
    kind="read",
    tier="extension",
    needs=["dtype:string", "codec:vlen-utf8"],
    requirements=["V3-DT-009", "V3-FILL-009"],
    description="v3 extension data type string with vlen-utf8 (7,) in (3,) chunks: non-ASCII text, "
    "empty strings, a missing chunk reads as the fill 'fill'",
    question="registered-extension",
)
def _(w):
    data = strings(w.rng, (7,))
    data[0], data[1] = "日本語", ""
    doc = array_doc(
        (7,), (3,), "string", "fill", codecs=[{"name": "vlen-utf8", "configuration": {}}]
    )
    w.put_json("zarr.json", doc)
    expected = data.copy()
    w.put("c/0", vlen_frame([s.encode() for s in data[0:3]]))
    expected[3:6] = "fill"
    w.put("c/2", vlen_frame([s.encode() for s in data[6:7]] + [b"junk", b"overhang"]))
    w.expect_array(expected)


@case(
    "v3/dtypes/ext-bytes-vlen-bytes",
    kind="read",
    tier="extension",
    needs=["dtype:bytes", "codec:vlen-bytes"],
    requirements=["V3-DT-009", "V3-FILL-009"],
    description="v3 extension data type bytes with vlen-bytes (5,) in (2,) chunks: NUL and high bytes "
    "kept, the base64 fill 'AAE=' gives b'\\x00\\x01' for a missing chunk",
    question="registered-extension",
)
def _(w):
    items = [b"\x00\xff", b"", b"abc", b"\x80zarr", b"\x00"]
    doc = array_doc(
        (5,), (2,), "bytes", "AAE=", codecs=[{"name": "vlen-bytes", "configuration": {}}]
    )
    w.put_json("zarr.json", doc)
    w.put("c/0", vlen_frame(items[0:2]))
    w.put("c/2", vlen_frame(items[4:5] + [b"overhang junk"]))
    expected = np.empty(5, dtype=object)
    expected[:] = [items[0], items[1], b"\x00\x01", b"\x00\x01", items[4]]
    w.expect_array(expected)


@case(
    "v3/dtypes/ext-numpy-datetime64",
    kind="read",
    tier="extension",
    needs=["dtype:numpy.datetime64", "codec:bytes"],
    requirements=["V3-DT-009", "V3-FILL-009"],
    description="v3 extension data type numpy.datetime64 (unit ms, scale_factor 10) little-endian: "
    "a missing chunk reads as the fill NaT (-2^63)",
    question="registered-extension",
)
def _(w):
    dtype = np.dtype("M8[10ms]")
    data = w.rng.integers(-(2**40), 2**40, (6,), dtype=np.int64).view(dtype)
    data[0] = np.datetime64(-(2**63) + 1, "10ms")  # the smallest non-NaT value
    doc = array_doc(
        (6,),
        (4,),
        {"name": "numpy.datetime64", "configuration": {"unit": "ms", "scale_factor": 10}},
        -(2**63),
        codecs=[bytes_codec("little")],
    )
    nat = np.array(-(2**63), dtype="i8").view(dtype)
    w.expect_array(put_array(w, "", doc, data, fill_bits=nat, skip={(1,)}, endian="little"))


@case(
    "v3/dtypes/ext-numpy-datetime64-be",
    kind="read",
    tier="extension",
    needs=["dtype:numpy.datetime64", "codec:bytes", "dtype:big-endian"],
    requirements=["V3-DT-009"],
    description="v3 extension data type numpy.datetime64 (unit s, scale_factor 1) big-endian with fill 0",
    question="registered-extension",
)
def _(w):
    dtype = np.dtype("M8[s]")
    data = w.rng.integers(1, 2**35, (5,), dtype=np.int64).view(dtype)
    doc = array_doc(
        (5,),
        (2,),
        {"name": "numpy.datetime64", "configuration": {"unit": "s", "scale_factor": 1}},
        0,
        codecs=[bytes_codec("big")],
    )
    w.expect_array(
        put_array(w, "", doc, data, fill_bits=np.array(0, "i8").view(dtype), endian="big")
    )


@case(
    "v3/dtypes/ext-string-write",
    kind="write",
    tier="extension",
    needs=["dtype:string", "codec:vlen-utf8", "op:write"],
    requirements=["V3-DT-009"],
    description="v3 write of a string array with vlen-utf8 (5,) in (2,) chunks round-trips exactly",
    question="registered-extension",
)
def _(w):
    data = strings(w.rng, (5,))
    data[0] = "é日本"
    doc = array_doc((5,), (2,), "string", "", codecs=[{"name": "vlen-utf8"}])
    w.expect_write(metadata=doc, data=data, keys=["zarr.json", "c/0", "c/1", "c/2"])
