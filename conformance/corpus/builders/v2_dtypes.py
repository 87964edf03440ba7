"""v2 data types: the byte vectors of V2-DTYPE-002..010 (raw chunks, no compressor) and the bulk
read matrix of every data type under the v2 compressors, in C and F order, with missing chunks and
junk in the edge overhang."""

from __future__ import annotations

import base64
import struct

import numpy as np

from ..data import sample
from ..generator import add_case, case, verdict
from .table_kit import each
from .v2_kit import (
    COMPRESSORS,
    codec_needs,
    dtype_needs,
    dumps,
    fill_bits,
    numpy_dtype,
    put_array,
    zarray,
)


def _b64(raw: bytes) -> str:
    return base64.standard_b64encode(raw).decode("ascii")


def _raw_case(
    case_id: str,
    typestr,
    shape,
    raw: bytes,
    expected: np.ndarray,
    requirements,
    description: str,
    *,
    tier: str | None = None,
    fill=None,
    extra_needs=(),
) -> None:
    """One chunk holding exactly `raw`, compressor and filters null. The fill defaults to a zero
    the spec defines an encoding for, else null (V2-FILL-004)."""
    dtype = expected.dtype
    if fill is None:
        if dtype.names is not None or dtype.kind == "S":  # Base64 of the whole zero element
            fill = _b64(bytes(dtype.itemsize))
        else:
            fill = {"i": 0, "u": 0, "f": 0.0, "b": False}.get(dtype.kind)
    if fill is None:
        extra_needs = [*extra_needs, "feature:fill-null"]

    def build(w):
        w.put(".zarray", dumps(zarray(shape, shape, typestr, fill)))
        w.put("0" if len(shape) == 1 else ".".join("0" * len(shape)), raw)
        w.expect_array(expected)

    add_case(
        case_id,
        kind="read",
        build=build,
        tier=tier,
        requirements=requirements,
        description=description,
        needs=[*dtype_needs(expected.dtype), *extra_needs],
    )


# ---- byte vectors ---------------------------------------------------------------------------
_XYZ = np.dtype([("x", "<f4"), ("y", "<f4"), ("z", "<f4", (2, 2))])
_NESTED = np.dtype([("foo", "<f4"), ("bar", [("baz", "<f4"), ("qux", "<i4")])])
_MIXED = np.dtype([("a", "|u1"), ("b", ">i2"), ("c", "<f8")])
# fmt: off
CASES = [
    # case_id, typestr, shape, raw, expected, requirements, description[, options]
    ("v2/dtypes/int16-big-endian-bytes", ">i2", (2,), bytes.fromhex("FFFE 0001"), np.array([-2, 1], ">i2"), ["V2-DTYPE-002", "V2-DTYPE-001", "V2-META-004"], 'v2 ">i2" raw chunk bytes FF FE 00 01 read as [-2, 1]', {"question": "spec-read"}),
    ("v2/dtypes/int16-little-endian-bytes", "<i2", (2,), bytes.fromhex("FEFF 0100"), np.array([-2, 1], "<i2"), ["V2-DTYPE-002", "V2-DTYPE-001", "V2-META-004"], 'v2 "<i2" raw chunk bytes FE FF 01 00 read as [-2, 1]', {"question": "spec-read"}),
    ("v2/dtypes/int32-big-endian-bytes", ">i4", (2,), bytes.fromhex("00000001 FFFFFFFE"), np.array([1, -2], ">i4"), ["V2-DTYPE-002", "V2-DTYPE-001"], 'v2 ">i4" raw chunk bytes 00000001 FFFFFFFE read as [1, -2]', {"question": "spec-read"}),
    ("v2/dtypes/float64-big-endian-bytes", ">f8", (2,), bytes.fromhex("3FF8000000000000 8000000000000000"), np.array([1.5, -0.0], ">f8"), ["V2-DTYPE-002", "V2-DTYPE-001"], 'v2 ">f8" raw chunk bytes 3FF8.. 8000.. read as [1.5, -0.0]', {"question": "spec-read", "fill": 0.0}),
    ("v2/dtypes/bool-bytes", "|b1", (2,), bytes.fromhex("0001"), np.array([False, True]), ["V2-DTYPE-003", "V2-DTYPE-001"], 'v2 "|b1" raw chunk bytes 00 01 read as [False, True]', {"question": "spec-read", "fill": False}),
    ("v2/dtypes/uint8-bytes", "|u1", (3,), bytes.fromhex("00 7F FF"), np.array([0, 127, 255], "u1"), ["V2-DTYPE-001"], 'v2 "|u1" raw chunk bytes 00 7F FF read as [0, 127, 255]', {"question": "spec-read", "fill": 1}),
    ("v2/dtypes/datetime64-s-86400", "<M8[s]", (1,), struct.pack("<q", 86400), np.array(["1970-01-02T00:00:00"], "<M8[s]"), ["V2-DTYPE-004", "V2-DTYPE-001"], 'v2 "<M8[s]" holding the int64 86400 reads as 1970-01-02T00:00:00', {"question": "spec-read"}),
    ("v2/dtypes/datetime64-D-big-endian", ">M8[D]", (2,), struct.pack(">qq", 1, -1), np.array(["1970-01-02", "1969-12-31"], ">M8[D]"), ["V2-DTYPE-004", "V2-DTYPE-002"], 'v2 ">M8[D]" holding big-endian int64 1 and -1 reads as 1970-01-02 and 1969-12-31', {"question": "spec-read"}),
    ("v2/dtypes/timedelta64-ms", "<m8[ms]", (2,), struct.pack("<qq", 1500, -(2**63)), np.array([1500, "NaT"], "<m8[ms]"), ["V2-DTYPE-004"], 'v2 "<m8[ms]" holding int64 1500 and int64 min reads as 1500 ms and NaT', {"question": "spec-read"}),
    ("v2/dtypes/datetime64-10us-multiplier", "<M8[10us]", (1,), struct.pack("<q", 3), np.array([3], "<M8[10us]"), ["V2-DTYPE-004"], 'v2 "<M8[10us]" (a unit multiplier) holding 3 reads as 30 microseconds after the epoch', {"question": "convention", "tier": "optional"}),
    ("v2/dtypes/bytes-S5-nul-padded", "|S5", (2,), b"ab\x00\x00\x00abcde", np.array([b"ab", b"abcde"], "S5"), ["V2-DTYPE-005", "V2-DTYPE-001"], 'v2 "|S5" element bytes 61 62 00 00 00 read as b"ab" and a full element as b"abcde"', {"question": "spec-read"}),
    ("v2/dtypes/unicode-U2-little-endian", "<U2", (2,), bytes.fromhex("61000000 00000000 E9000000 E5650000"), np.array(["a", "\u00e9\u65e5"], "<U2"), ["V2-DTYPE-006"], 'v2 "<U2" bytes 61 00 00 00 00 00 00 00 read as "a", a second element as two non-ASCII code points', {"question": "spec-read"}),
    ("v2/dtypes/unicode-U2-big-endian", ">U2", (1,), bytes.fromhex("00000061 00000062"), np.array(["ab"], ">U2"), ["V2-DTYPE-006", "V2-DTYPE-002"], 'v2 ">U2" bytes 00 00 00 61 00 00 00 62 read as "ab"', {"question": "spec-read"}),
    ("v2/dtypes/complex64-bytes", "<c8", (1,), bytes.fromhex("0000803f 00000040"), np.array([1 + 2j], "<c8"), ["V2-DTYPE-009"], 'v2 "<c8" bytes 0000803f 00000040 read as 1+2j (real part first)', {"question": "spec-read"}),
    ("v2/dtypes/complex128-big-endian-bytes", ">c16", (1,), bytes.fromhex("3FF0000000000000 C000000000000000"), np.array([1 - 2j], ">c16"), ["V2-DTYPE-009", "V2-DTYPE-002"], 'v2 ">c16" bytes 3FF0.. C000.. read as 1-2j (each part big-endian)', {"question": "spec-read"}),
    ("v2/dtypes/void-V3-opaque", "|V3", (2,), bytes.fromhex("010203 FFFEFD"), np.frombuffer(bytes.fromhex("010203FFFEFD"), "V3"), ["V2-DTYPE-010"], 'v2 "|V3" element bytes 01 02 03 and FF FE FD are returned unchanged', {"question": "convention", "tier": "optional"}),
    ("v2/dtypes/structured-subarray-itemsize-24", [["x", "<f4"], ["y", "<f4"], ["z", "<f4", [2, 2]]], (2,), struct.pack("<6f", 1, 2, 3, 4, 5, 6) + struct.pack("<6f", -1, -2, -3, -4, -5, -6), np.array([(1, 2, [[3, 4], [5, 6]]), (-1, -2, [[-3, -4], [-5, -6]])], _XYZ), ["V2-DTYPE-007"], 'v2 structured [["x","<f4"],["y","<f4"],["z","<f4",[2,2]]]: itemsize 24, z is 2x2 row-major', {"question": "spec-read"}),
    ("v2/dtypes/structured-nested-qux-offset-8", [["foo", "<f4"], ["bar", [["baz", "<f4"], ["qux", "<i4"]]]], (2,), struct.pack("<ffi", 1.5, 2.5, 7) + struct.pack("<ffi", -0.5, 8.0, -9), np.array([(1.5, (2.5, 7)), (-0.5, (8.0, -9))], _NESTED), ["V2-DTYPE-008", "V2-DTYPE-007"], 'v2 nested structured [["foo","<f4"],["bar",[["baz","<f4"],["qux","<i4"]]]]: itemsize 12, bar.qux at byte 8', {"question": "spec-read"}),
    ("v2/dtypes/structured-packed-mixed-order", [["a", "|u1"], ["b", ">i2"], ["c", "<f8"]], (1,), bytes.fromhex("07") + struct.pack(">h", -3) + struct.pack("<d", 0.25), np.array([(7, -3, 0.25)], _MIXED), ["V2-DTYPE-007", "V2-DTYPE-002"], "v2 structured [u1, >i2, <f8] is packed with no padding (itemsize 11) and each field keeps its byte order", {"question": "spec-read"}),
]
# fmt: on

each(_raw_case, CASES)


@case(
    "v2/dtypes/typestr-examples",
    kind="read",
    needs=["node:group"],
    requirements=["V2-DTYPE-001", "V2-GROUP-005"],
    description='v2 group of five arrays with the spec typestr examples "<f8", ">i4", "|b1", "|u1", "|S12"',
    question="spec-read",
)
def _(w):
    w.put(".zgroup", dumps({"zarr_format": 2}))
    for name in ("f8", "i4", "b1", "u1", "S12"):
        w.put(
            f"{name}/.zarray",
            dumps(
                zarray(
                    (3,),
                    (2,),
                    {"f8": "<f8", "i4": ">i4", "b1": "|b1", "u1": "|u1", "S12": "|S12"}[name],
                    None,
                )
            ),
        )
    w.expect_group(members={n: "array" for n in ("f8", "i4", "b1", "u1", "S12")})


with verdict(question="spec-read"):
    for _name, _typestr in [
        ("float64", "<f8"),
        ("int32-big-endian", ">i4"),
        ("bool", "|b1"),
        ("uint8", "|u1"),
        ("bytes-S12", "|S12"),
    ]:

        def _build(w, typestr=_typestr):
            dtype = np.dtype(typestr)
            fill = {"b": False, "S": _b64(bytes(dtype.itemsize)), "f": 0.0}.get(dtype.kind, 0)
            doc = zarray((5,), (2,), typestr, fill, compressor=COMPRESSORS["zlib"])
            data = sample(w.rng, (5,), dtype, avoid=np.zeros((), dtype))
            expected, _ = put_array(w, "", doc, data)
            w.expect_array(expected)

        add_case(
            f"v2/dtypes/typestr-{_name}",
            kind="read",
            build=_build,
            requirements=["V2-DTYPE-001"],
            needs=[*dtype_needs(np.dtype(_typestr)), "codec:zlib"],
            description=f'v2 spec typestr example "{_typestr}" (5,) in (2,) zlib chunks reads bit-exactly',
        )


# ---- the bulk matrix ----------------------------------------------------------------------
_STRUCT = [["a", "<i4"], ["b", ">f8"], ["c", "|S3", [2]]]
_STRUCT_FILL = struct.pack("<i", -1) + struct.pack(">d", 2.5) + b"xy\x00zz\x00"

# (slug, dtype document, fill_value document); fills that the spec leaves to convention are null
MATRIX = [
    ("int8", "|i1", -7),
    ("uint8", "|u1", 200),
    ("int16", "<i2", -300),
    ("int16-be", ">i2", 300),
    ("uint16", "<u2", 65535),
    ("uint16-be", ">u2", 1),
    ("int32", "<i4", 42),
    ("int32-be", ">i4", -42),
    ("uint32", "<u4", 4294967295),
    ("uint32-be", ">u4", 7),
    ("int64", "<i8", -(2**63)),
    ("int64-be", ">i8", 2**63 - 1),
    ("uint64", "<u8", 2**64 - 1),
    ("uint64-be", ">u8", 2**64 - 2),
    ("float16", "<f2", -1.5),
    ("float16-be", ">f2", "NaN"),
    ("float32", "<f4", 0.5),
    ("float32-be", ">f4", "-Infinity"),
    ("float64", "<f8", "NaN"),
    ("float64-be", ">f8", 1e300),
    ("complex64", "<c8", None),
    ("complex128-be", ">c16", None),
    ("complex128", "<c16", None),
    ("bool", "|b1", True),
    # the Base64 fill covers every byte of the element (a shorter one is a convention)
    ("bytes-S7", "|S7", _b64(b"fill\0\0\0")),
    ("unicode-U3", "<U3", None),
    ("unicode-U3-be", ">U3", None),
    ("void-V5", "|V5", None),
    ("datetime64-ns", "<M8[ns]", None),
    ("datetime64-D-be", ">M8[D]", None),
    ("timedelta64-s", "<m8[s]", None),
    ("timedelta64-ms-be", ">m8[ms]", None),
    ("structured", _STRUCT, _b64(_STRUCT_FILL)),
]
_COMPRESSOR_CYCLE = list(COMPRESSORS)
_SKIP = {(1, 1), (2, 0)}


for _i, (_slug, _doc, _fill) in enumerate(MATRIX):
    _comp_name = _COMPRESSOR_CYCLE[_i % len(_COMPRESSOR_CYCLE)]
    _order = (
        "F" if (_i // len(_COMPRESSOR_CYCLE)) % 2 == _i % 2 else "C"
    )  # every compressor meets both orders
    _dtype = numpy_dtype(_doc)

    def _build(w, doc=_doc, fill=_fill, comp=COMPRESSORS[_comp_name], order=_order, dtype=_dtype):
        meta = zarray((7, 5), (3, 2), doc, fill, order=order, compressor=comp)
        bits = fill_bits(meta, dtype)
        data = sample(w.rng, (7, 5), dtype, avoid=bits)
        expected, undefined = put_array(w, "", meta, data, skip=_SKIP)
        w.expect_array(expected, undefined=undefined)

    _reqs = ["V2-DTYPE-001", "V2-CHUNK-001", "V2-CHUNK-004", "V2-CHUNK-005"]
    if _order == "F":
        _reqs.append("V2-CHUNK-006")
    if _dtype.byteorder == ">":
        _reqs.append("V2-DTYPE-002")
    _reqs += (
        []
        if _dtype.names is not None
        else {
            "M": ["V2-DTYPE-004"],
            "m": ["V2-DTYPE-004"],
            "S": ["V2-DTYPE-005", "V2-FILL-002"],
            "U": ["V2-DTYPE-006"],
            "c": ["V2-DTYPE-009"],
            "V": ["V2-DTYPE-010"],
            "b": ["V2-DTYPE-003"],
        }.get(_dtype.kind, [])
    )
    if _dtype.names is not None:
        _reqs += ["V2-DTYPE-007", "V2-FILL-003"]
    if _fill is None:
        _reqs.append("V2-FILL-004")
    elif _dtype.kind == "f" and isinstance(_fill, str):
        _reqs.append("V2-FILL-001")
    elif _dtype.kind in "iubf":
        _reqs.append("V2-FILL-005")
    _needs = [*dtype_needs(_dtype), *codec_needs(COMPRESSORS[_comp_name])]
    if _order == "F":
        _needs.append("feature:order-F")
    if _fill is None:
        _needs.append("feature:fill-null")
    add_case(
        f"v2/matrix/{_slug}-{_comp_name}-{_order}",
        kind="read",
        build=_build,
        # a plain void type's API form is left open by v2 (a convention); every other type is v2's own
        question="convention" if _dtype.kind == "V" and _dtype.names is None else "spec-read",
        requirements=_reqs,
        needs=_needs,
        description=f"v2 matrix: {_doc if isinstance(_doc, str) else 'structured'} (7,5) in (3,2) chunks, "
        f"compressor {_comp_name}, order {_order}, fill {_fill!r}, chunks 1.1 and 2.0 missing, "
        "junk in the edge overhang",
    )
