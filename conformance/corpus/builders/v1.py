"""v1 cases (seed 004). Stores are hand-built key by key, independent of the reference writer."""

from __future__ import annotations

import json
import zlib

import numpy as np

from ..data import sample
from ..generator import add_case, case, verdict
from .table_kit import array, each, hand_case, reject

ATTRS = {"foo": 42, "bar": "apples", "baz": [1, 2, 3, 4]}


def meta(
    shape, chunks, dtype, fill_value=0, order="C", compression="zlib", compression_opts=1, **extra
):
    doc = {
        "chunks": list(chunks),
        "compression": compression,
        "compression_opts": compression_opts,
        "dtype": dtype,
        "fill_value": fill_value,
        "order": order,
        "shape": list(shape),
        "zarr_format": 1,
    }
    doc.update(extra)
    return doc


def compress(raw: bytes, compression: str, opts) -> bytes:
    if compression == "zlib":
        return zlib.compress(raw, opts)
    if compression == "blosc":
        import numcodecs

        return numcodecs.Blosc(
            cname=opts["cname"], clevel=opts["clevel"], shuffle=opts["shuffle"]
        ).encode(raw)
    raise ValueError(compression)


def put_array(w, doc: dict, data: np.ndarray, skip=(), junk=0x5A, attrs=None) -> None:
    """Write `meta`, `attrs` and every chunk except those in `skip`; edge-chunk overhang is junk."""
    w.put("meta", json.dumps(doc, indent=4, sort_keys=True).encode("ascii"))
    w.put("attrs", json.dumps(attrs if attrs is not None else {}).encode("ascii"))
    dtype = data.dtype
    chunks = doc["chunks"]
    grid = [-(-s // c) for s, c in zip(data.shape, chunks)]
    for index in np.ndindex(*grid):
        if index in skip:
            continue
        block = (
            np.frombuffer(bytes([junk]) * (int(np.prod(chunks)) * dtype.itemsize), dtype=dtype)
            .reshape(chunks)
            .copy()
        )
        region = tuple(
            slice(i * c, min((i + 1) * c, s)) for i, c, s in zip(index, chunks, data.shape)
        )
        block[tuple(slice(0, r.stop - r.start) for r in region)] = data[region]
        raw = (block.T if doc["order"] == "F" else block).tobytes()
        w.put(".".join(map(str, index)), compress(raw, doc["compression"], doc["compression_opts"]))


def expected_with_missing(data: np.ndarray, chunks, skip, fill) -> np.ndarray:
    out = data.copy()
    for index in skip:
        out[tuple(slice(i * c, (i + 1) * c) for i, c in zip(index, chunks))] = fill
    return out


@case(
    "v1/read/zlib-int32",
    kind="read",
    needs=["dtype:int32", "codec:zlib"],
    requirements=[
        "V1-META-001",
        "V1-META-006",
        "V1-CHUNK-001",
        "V1-CHUNK-002",
        "V1-CHUNK-003",
        "V1-CHUNK-005",
        "V1-ATTR-001",
    ],
    description="v1 <i4 (7,5) in (4,3) zlib chunks: one chunk missing reads as fill 42, edge overhang is junk",
    question="spec-read",
)
def _(w):
    data = sample(w.rng, (7, 5), "<i4", avoid=np.int32(42))
    skip = {(1, 1)}
    put_array(w, meta((7, 5), (4, 3), "<i4", fill_value=42), data, skip=skip, attrs=ATTRS)
    w.expect_array(expected_with_missing(data, (4, 3), skip, 42), attributes=ATTRS)


@case(
    "v1/read/zlib-int32-zip",
    kind="read",
    needs=["dtype:int32", "codec:zlib"],
    requirements=["V1-STORE-001", "V1-CHUNK-003"],
    description="the v1 zlib <i4 array with a missing chunk, stored in a zip file, reads the same",
    question="spec-read",
)
def _(w):
    data = sample(w.rng, (7, 5), "<i4", avoid=np.int32(42))
    skip = {(0, 1)}
    put_array(w, meta((7, 5), (4, 3), "<i4", fill_value=42), data, skip=skip)
    w.zip = True
    w.expect_array(expected_with_missing(data, (4, 3), skip, 42))


@case(
    "v1/read/blosc-float64",
    kind="read",
    needs=["dtype:float64", "codec:blosc"],
    requirements=["V1-META-006", "V1-CHUNK-001"],
    description="v1 <f8 with blosc lz4 byte-shuffle chunks including NaN payload and -0.0",
    question="spec-read",
)
def _(w):
    opts = {"clevel": 5, "cname": "lz4", "shuffle": 1}
    data = sample(w.rng, (9, 4), "<f8", avoid=np.float64(0))
    put_array(w, meta((9, 4), (5, 2), "<f8", compression="blosc", compression_opts=opts), data)
    w.expect_array(data)


# fmt: off
HAND_BUILT = [
    # case id, needs, requirements, description, the store key by key, what it must do[, options]
    ("v1/read/order-F", ["dtype:int32", "codec:zlib", "feature:order-F"], ["V1-META-005"], "v1 F-order <i4 (2,3): raw chunk bytes 0,3,1,4,2,5 read as arange(6).reshape(2,3)", {"meta": json.dumps(meta((2, 3), (2, 3), "<i4", order="F")).encode(), "attrs": b"{}", "0.0": zlib.compress(np.array([0, 3, 1, 4, 2, 5], "<i4").tobytes(), 1)}, array(np.arange(6, dtype="<i4").reshape(2, 3)), {"question": "spec-read"}),
    ("v1/read/big-endian-int32", ["dtype:int32", "dtype:big-endian", "codec:zlib"], ["V1-DTYPE-001"], "v1 >i4: the bytes 00 00 00 01 read as 1", {"meta": json.dumps(meta((1,), (1,), ">i4")).encode(), "attrs": b"{}", "0": zlib.compress(b"\x00\x00\x00\x01", 1)}, array(np.array([1], ">i4")), {"question": "spec-read"}),
    ("v1/read/all-missing-fill", ["dtype:int16", "codec:zlib"], ["V1-CHUNK-003"], "v1 <i2 with fill_value 42 and no chunks at all reads as all 42", {"meta": json.dumps(meta((5, 6), (2, 4), "<i2", fill_value=42)).encode(), "attrs": b"{}"}, array(np.full((5, 6), 42, "<i2")), {"question": "spec-read"}),
    ("v1/read/edge-chunk-sentinel", ["dtype:int32", "codec:zlib"], ["V1-CHUNK-005"], "v1 shape (5,) chunks (4,): chunk 1 holds [7,99,99,99] and the array ends in 7", {"meta": json.dumps(meta((5,), (4,), "<i4")).encode(), "attrs": b"{}", "0": zlib.compress(np.array([1, 2, 3, 4], "<i4").tobytes(), 1), "1": zlib.compress(np.array([7, 99, 99, 99], "<i4").tobytes(), 1)}, array(np.array([1, 2, 3, 4, 7], "<i4")), {"question": "spec-read"}),
    ("v1/reject/meta-not-json", ["dtype:int32", "codec:zlib"], ["V1-META-001"], "v1 meta that is not JSON (a trailing comma) is rejected", {"meta": b'{"zarr_format": 1, "shape": [4],}', "attrs": b"{}"}, reject("invalid-json"), {"question": "json-lenient"}),
]
# fmt: on

each(hand_case, HAND_BUILT, tests="JSON")


@case(
    "v1/read/order-F-edge",
    kind="read",
    needs=["dtype:uint16", "codec:zlib", "feature:order-F"],
    requirements=["V1-META-005", "V1-CHUNK-005"],
    description="v1 F-order >u2 (5,7) in (2,3) chunks with junk overhang in the edge chunks",
    question="spec-read",
)
def _(w):
    data = sample(w.rng, (5, 7), ">u2", avoid=np.uint16(0))
    put_array(w, meta((5, 7), (2, 3), ">u2", order="F"), data)
    w.expect_array(data)


@case(
    "v1/read/structured-rgb",
    kind="read",
    needs=["dtype:structured", "codec:zlib"],
    requirements=["V1-DTYPE-002"],
    description="v1 structured [[r,|u1],[g,|u1],[b,|u1]]: 3 bytes per element",
    question="spec-read",
)
def _(w):
    dtype = np.dtype([("r", "u1"), ("g", "u1"), ("b", "u1")])
    data = sample(w.rng, (6,), dtype)
    put_array(
        w, meta((6,), (4,), [["r", "|u1"], ["g", "|u1"], ["b", "|u1"]], fill_value=None), data
    )
    w.expect_array(data)


@case(
    "v1/read/fill-null-missing",
    kind="read",
    needs=["dtype:float32", "codec:zlib", "feature:fill-null"],
    requirements=["V1-CHUNK-004"],
    description="v1 <f4 with fill_value null and a missing chunk: reading does not raise (missing values undefined)",
    question="spec-read",
)
def _(w):
    data = sample(w.rng, (6,), "<f4", avoid=np.float32(0))
    put_array(w, meta((6,), (3,), "<f4", fill_value=None), data, skip={(1,)})
    undefined = np.zeros(6, bool)
    undefined[3:] = True
    w.expect_array(data, undefined=undefined)


@case(
    "v1/read/extra-member",
    kind="read",
    needs=["dtype:int32", "codec:zlib"],
    requirements=["V1-META-004"],
    description="v1 meta with an extra member 'foo' reads the same data as without it",
    question="spec-read",
)
def _(w):
    data = sample(w.rng, (4, 4), "<i4", avoid=np.int32(0))
    put_array(w, meta((4, 4), (2, 2), "<i4", foo={"bar": [1, 2], "order": "F"}), data)
    w.expect_array(data)


with verdict(question="spec-read"):
    for _dtype, _cap in [
        ("|b1", "bool"),
        ("|i1", "int8"),
        ("<u2", "uint16"),
        ("<i8", "int64"),
        ("<u8", "uint64"),
        ("<f2", "float16"),
        ("<f4", "float32"),
        (">f8", "float64"),
        ("<c8", "complex64"),
        (">c16", "complex128"),
        ("|S4", "fixed-bytes"),
        ("<U3", "fixed-unicode"),
    ]:

        def _build(w, dtype=_dtype):
            fill = {"b": False, "S": "", "U": ""}.get(np.dtype(dtype).kind, 0)
            data = sample(w.rng, (5, 3), dtype, avoid=np.zeros((), dtype))
            put_array(
                w,
                meta(
                    (5, 3),
                    (2, 2),
                    dtype,
                    fill_value=fill if np.dtype(dtype).kind not in "SU" else None,
                ),
                data,
            )
            w.expect_array(data)

        extra = ["dtype:big-endian"] if _dtype.startswith(">") else []
        add_case(
            f"v1/dtypes/{_cap}",
            kind="read",
            build=_build,
            needs=[f"dtype:{_cap}", "codec:zlib", *extra],
            requirements=["V1-DTYPE-001", "V1-CHUNK-001"],
            description=f"v1 {_dtype} (5,3) in (2,2) zlib chunks reads bit-exactly",
        )


# ---- must-reject --------------------------------------------------------------------------
REQUIRED = [
    "zarr_format",
    "shape",
    "chunks",
    "dtype",
    "compression",
    "compression_opts",
    "fill_value",
    "order",
]

with verdict(question="missing-member"):
    for _key in REQUIRED:

        def _build(w, key=_key):
            doc = meta((4,), (2,), "<i4")
            del doc[key]
            w.put("meta", json.dumps(doc).encode())
            w.put("attrs", b"{}")
            w.put("0", zlib.compress(np.arange(2, dtype="<i4").tobytes(), 1))
            w.expect_reject("missing-field")

        add_case(
            f"v1/reject/missing-{_key.replace('_', '-')}",
            kind="reject",
            build=_build,
            needs=["dtype:int32", "codec:zlib"],
            requirements=["V1-META-002"],
            description=f"v1 meta without the required key {_key!r} is rejected",
            tests=_key,
        )


def _reject(case_id, reason, requirement, description, tier=None, **changes):
    def _build(w):
        doc = meta((4,), (2,), "<i4")
        doc.update(changes)
        w.put("meta", json.dumps(doc).encode())
        w.put("attrs", b"{}")
        w.expect_reject(reason)

    add_case(
        case_id,
        kind="reject",
        build=_build,
        needs=["dtype:int32", "codec:zlib"],
        tier=tier,
        requirements=[requirement],
        description=description,
    )


# fmt: off
REJECTS = [
    # case_id, reason, requirement, description[, options]
    ("v1/reject/zarr-format-2", "invalid-zarr-format", "V1-META-003", "v1 meta with zarr_format 2 is rejected", {"tests": "zarr_format", "question": "other-format", "zarr_format": 2}),
    ("v1/reject/zarr-format-string", "invalid-zarr-format", "V1-META-003", 'v1 meta with zarr_format "1" (a string) is rejected', {"tests": "zarr_format", "question": "scalar-spelling", "zarr_format": "1"}),
    ("v1/reject/dtype-no-byte-order", "invalid-data-type", "V1-DTYPE-001", 'v1 dtype "i4" without a byte-order character is rejected', {"tests": "byte order", "question": "byte-order-unspecified", "dtype": "i4"}),
    ("v1/reject/order-A", "invalid-order", "V1-META-005", 'v1 order "A" is rejected', {"tests": "order", "question": "invalid-value", "order": "A"}),
    ("v1/reject/shape-chunks-rank", "invalid-chunk-shape", "V1-META-002", "v1 shape [4] with chunks [2, 2] is rejected", {"tests": "chunks", "question": "invalid-value", "chunks": [2, 2]}),
]
# fmt: on

each(_reject, REJECTS)


@case(
    "v1/reject/corrupt-chunk",
    kind="reject",
    needs=["dtype:int32", "codec:zlib"],
    requirements=["V1-CHUNK-001"],
    description="v1 chunk whose zlib stream is truncated fails on read",
    question="corrupt-chunk",
    tests="compressed bytes",
)
def _(w):
    w.put("meta", json.dumps(meta((4,), (4,), "<i4")).encode())
    w.put("attrs", b"{}")
    w.put("0", zlib.compress(np.arange(4, dtype="<i4").tobytes(), 1)[:-5])
    w.expect_reject("corrupt-chunk", stage="read")


# ---- write --------------------------------------------------------------------------------
@case(
    "v1/write/keys-and-documents",
    kind="write",
    needs=["dtype:int32", "codec:zlib", "op:write"],
    requirements=[
        "V1-META-001",
        "V1-META-002",
        "V1-META-003",
        "V1-ATTR-001",
        "V1-CHUNK-002",
        "V1-CHUNK-001",
    ],
    description="v1 write of (20,20) in (10,10) zlib chunks gives keys meta, attrs, 0.0 0.1 1.0 1.1 and attrs {}",
    question="spec-write",
)
def _(w):
    data = sample(w.rng, (20, 20), "<i4", avoid=np.int32(0))
    doc = meta((20, 20), (10, 10), "<i4")
    # what meta and attrs say is judged by meaning (shape, chunks, dtype, order, attributes {})
    w.expect_write(metadata=doc, data=data, keys=["meta", "attrs", "0.0", "0.1", "1.0", "1.1"])


@case(
    "v1/write/edge-chunks",
    kind="write",
    needs=["dtype:float32", "codec:zlib", "op:write"],
    requirements=["V1-CHUNK-005", "V1-META-005"],
    description="v1 F-order write of (5,7) in (4,4) chunks: every chunk stored full size and data reads back exactly",
    question="spec-write",
)
def _(w):
    data = sample(w.rng, (5, 7), "<f4", avoid=np.float32(0))
    w.expect_write(
        metadata=meta((5, 7), (4, 4), "<f4", order="F"),
        data=data,
        keys=["meta", "attrs", "0.0", "0.1", "1.0", "1.1"],
    )
