"""v2 chunks (V2-CHUNK-001..008): the encoding pipeline (order, filters in list order, compressor,
no header), chunk keys, missing and edge chunks, each compressor, corrupt chunks and unknown codecs."""

from __future__ import annotations

import gzip
import zlib

import numcodecs
import numpy as np

from ..data import sample
from ..generator import add_case, case, verdict
from .table_kit import array, each, hand_case
from .v2_kit import (
    COMPRESSORS,
    blosc_single_threaded,
    codec_needs,
    dtype_needs,
    dumps,
    encode_chunk,
    put_array,
    reject_case,
    zarray,
)

I4 = ["dtype:int32"]


# ---- reads: the pipeline by hand ----------------------------------------------------------
# fmt: off
HAND_BUILT = [
    # case id, needs, requirements, description, the store key by key, what it must do[, options]
    ("v2/chunks/zlib-no-header", [*I4, "codec:zlib"], ["V2-CHUNK-001"], "v2 <i4 with compressor zlib: the chunk is exactly zlib.compress(raw bytes) with no header added", {".zarray": dumps(zarray((4,), (4,), "<i4", 0, compressor={"id": "zlib", "level": 9})), "0": zlib.compress(np.array([3, -1, 2**31 - 1, 5], "<i4").tobytes(), 9)}, array(np.array([3, -1, 2**31 - 1, 5], "<i4"))),
    ("v2/chunks/order-F-hex", [*I4, "feature:order-F"], ["V2-CHUNK-006"], "v2 <i4 (2,3) order F, no compressor: chunk hex 00000000 03000000 01000000 04000000 02000000 05000000 reads as arange(6).reshape(2,3)", {".zarray": dumps(zarray((2, 3), (2, 3), "<i4", 0, order="F")), "0.0": bytes.fromhex("00000000 03000000 01000000 04000000 02000000 05000000")}, array(np.arange(6, dtype="<i4").reshape(2, 3))),
    ("v2/chunks/edge-sentinel", [*I4], ["V2-CHUNK-005"], "v2 <i4 shape (5,) chunks (4,): chunk 1 holds [7, 99, 99, 99]; the array ends in 7 and 99 never shows", {".zarray": dumps(zarray((5,), (4,), "<i4", 0)), "0": np.array([1, 2, 3, 4], "<i4").tobytes(), "1": np.array([7, 99, 99, 99], "<i4").tobytes()}, array(np.array([1, 2, 3, 4, 7], "<i4"))),
]
# fmt: on

each(hand_case, HAND_BUILT, question="spec-read")


@case(
    "v2/chunks/order-F-edge-3d",
    kind="read",
    needs=["dtype:uint16", "codec:zlib", "feature:order-F"],
    requirements=["V2-CHUNK-006", "V2-CHUNK-005"],
    description="v2 <u2 (3,5,4) in (2,3,3) chunks order F: column-major chunks with junk overhang in every "
    "edge direction, one chunk missing",
    question="spec-read",
)
def _(w):
    doc = zarray((3, 5, 4), (2, 3, 3), "<u2", 9, order="F", compressor=COMPRESSORS["zlib"])
    data = sample(w.rng, (3, 5, 4), "<u2", avoid=np.uint16(9))
    expected, _ = put_array(w, "", doc, data, skip={(0, 1, 0)})
    w.expect_array(expected)


@case(
    "v2/chunks/only-first-chunk",
    kind="read",
    needs=[*I4, "codec:zlib"],
    requirements=["V2-CHUNK-004"],
    description="v2 <i4 (6,6) in (3,3) chunks with only 0.0 stored: the other three chunks read as fill 5",
    question="spec-read",
)
def _(w):
    doc = zarray((6, 6), (3, 3), "<i4", 5, compressor=COMPRESSORS["zlib"])
    data = sample(w.rng, (6, 6), "<i4", avoid=np.int32(5))
    expected, _ = put_array(w, "", doc, data, skip={(0, 1), (1, 0), (1, 1)})
    w.expect_array(expected)


@case(
    "v2/chunks/key-2.4-only",
    kind="read",
    needs=["dtype:uint8", "codec:zlib"],
    requirements=["V2-CHUNK-003"],
    description="v2 |u1 (30,50) in (10,10) chunks with only key 2.4 stored: rows 20-29, columns 40-49 hold its "
    "data, the rest reads as fill 0",
    question="spec-read",
)
def _(w):
    doc = zarray((30, 50), (10, 10), "|u1", 0, compressor=COMPRESSORS["zlib"])
    data = sample(w.rng, (30, 50), "|u1", avoid=np.uint8(0))
    skip = {i for i in np.ndindex(3, 5) if i != (2, 4)}
    expected, _ = put_array(w, "", doc, data, skip=skip)
    w.expect_array(expected)


@case(
    "v2/chunks/multi-digit-keys",
    kind="read",
    needs=["dtype:int16"],
    requirements=["V2-CHUNK-003"],
    description="v2 <i2 (25,) in (2,) chunks: keys 0..12 in decimal (1 vs 10 vs 11), chunks 1 and 11 missing",
    question="spec-read",
)
def _(w):
    doc = zarray((25,), (2,), "<i2", -1)
    data = sample(w.rng, (25,), "<i2", avoid=np.int16(-1))
    expected, _ = put_array(w, "", doc, data, skip={(1,), (11,)})
    w.expect_array(expected)


def _filter_case(
    case_id,
    dtype,
    filters,
    requirements,
    description,
    *,
    fill=0,
    values=None,
    compressor=None,
    tier=None,
    check_order=True,
    order="C",
):
    """A read case whose chunks go through `filters` (in list order) then `compressor`; with
    `check_order` the builder proves that decoding in the wrong order gives different values."""

    def build(w):
        doc = zarray(
            (9, 4), (4, 3), dtype, fill, compressor=compressor, filters=filters, order=order
        )
        data = (
            values(w.rng) if values else sample(w.rng, (9, 4), dtype, avoid=np.array(fill, dtype))
        )
        # Overhang = fill, not junk: a delta filter runs through the overhang, so junk there could
        # overflow an astype and spill into the array's own values.
        expected, _ = put_array(w, "", doc, data, skip={(1, 1)}, junk=False)
        _assert_round_trip(doc, w.store.data["0.0"], data[:4, :3])
        if check_order:
            _assert_order_matters(doc, data[:4, :3])
        w.expect_array(expected)

    add_case(
        case_id,
        kind="read",
        build=build,
        tier=tier,
        requirements=requirements,
        description=description,
        needs=[*dtype_needs(np.dtype(dtype)), *codec_needs(compressor, filters)],
    )


def _assert_round_trip(doc: dict, stored: bytes, block: np.ndarray) -> None:
    """The stored chunk decodes (compressor, then filters in reverse) to exactly the data."""
    buf = (
        numcodecs.get_codec(dict(doc["compressor"])).decode(stored) if doc["compressor"] else stored
    )
    for config in reversed(doc["filters"]):
        buf = numcodecs.get_codec(dict(config)).decode(buf)
    got = np.frombuffer(numcodecs.compat.ensure_bytes(buf), dtype=block.dtype)[: block.size]
    if got.tobytes() != np.asarray(block).ravel(order=doc["order"]).tobytes():
        raise AssertionError(f"{doc['filters']}: the stored chunk does not decode to the data")


def _assert_order_matters(doc: dict, block: np.ndarray) -> None:
    codecs = [numcodecs.get_codec(dict(f)) for f in doc["filters"]]
    encoded = encode_chunk(block, doc["order"], doc["filters"], doc["compressor"])
    buf = encoded
    try:
        for codec in codecs:  # the wrong order: list order instead of reverse
            buf = codec.decode(buf)
        wrong = np.frombuffer(numcodecs.compat.ensure_bytes(buf), dtype=block.dtype)
        if wrong.size == block.size and np.array_equal(wrong, block.ravel()):
            raise AssertionError(f"{doc['filters']}: decoding in list order gives the right values")
    except (ValueError, TypeError, RuntimeError):
        pass  # the wrong order cannot even decode: a reader doing it fails loudly


def _small_steps(rng) -> np.ndarray:
    """<i4 values within +-14400 whose neighbours (and the fill 0) differ by less than 2**15, so
    that delta then astype <i2 is lossless; the values themselves need the delta to fit <i2."""
    return np.cumsum(rng.integers(-400, 400, (9, 4)), axis=None).reshape(9, 4).astype("<i4")


# fmt: off
FILTERS = [
    # case_id, dtype, filters, requirements, description[, options]
    ("v2/chunks/filters-delta-then-astype", "<i4", [{"id": "delta", "dtype": "<i4", "astype": "<i4"}, {"id": "astype", "encode_dtype": "<i2", "decode_dtype": "<i4"}], ["V2-CHUNK-002", "V2-META-005"], "v2 filters [delta <i4, astype <i4 -> <i2]: decoding applies astype first, then delta (reverse list order)", {"fill": 0, "values": _small_steps}),
    ("v2/chunks/filters-scaleoffset-then-delta", "<f8", [{"id": "fixedscaleoffset", "offset": 1000, "scale": 10, "dtype": "<f8", "astype": "<i4"}, {"id": "delta", "dtype": "<i4", "astype": "<i4"}], ["V2-CHUNK-002"], "v2 filters [fixedscaleoffset <f8 -> <i4, delta <i4] with zlib: decode is zlib, delta, then fixedscaleoffset", {"fill": 0.5, "compressor": COMPRESSORS["zlib"], "values": lambda rng: rng.integers(-10000, 10000, (9, 4)) / 10 + 1000}),
    ("v2/chunks/filters-shuffle-zlib", "<f8", [{"id": "shuffle", "elementsize": 8}], ["V2-CHUNK-002"], "v2 filters [shuffle elementsize 8] then zlib: the byte shuffle is undone after decompression", {"fill": -2.5, "compressor": COMPRESSORS["zlib"], "check_order": False}),
    ("v2/chunks/filters-quantize", "<f8", [{"id": "quantize", "digits": 3, "dtype": "<f8"}], ["V2-CHUNK-002"], "v2 filters [quantize digits 3 <f8]: stored values are the quantized ones, read as is", {"fill": 0.0, "check_order": False, "values": lambda rng: (numcodecs.Quantize(3, "<f8").encode(rng.uniform(-5, 5, (9, 4))).reshape(9, 4))}),
    ("v2/chunks/filters-crc32", "<i4", [{"id": "crc32"}], ["V2-CHUNK-002"], "v2 filters [crc32]: each chunk carries numcodecs' CRC-32 prefix, checked and stripped on read", {"fill": 3, "check_order": False}),
    ("v2/chunks/filters-adler32-then-zlib", "<u2", [{"id": "adler32"}], ["V2-CHUNK-002"], "v2 filters [adler32] then zlib: decompress, then verify and strip the Adler-32 prefix", {"fill": 7, "compressor": COMPRESSORS["zlib"], "check_order": False}),
    ("v2/chunks/filters-packbits-bool", "|b1", [{"id": "packbits"}], ["V2-CHUNK-002", "V2-DTYPE-003"], "v2 |b1 with filters [packbits]: eight booleans per byte after numcodecs' padding header", {"fill": False, "check_order": False}),
    # zarr-python before 3.3 passed F-ordered chunks to numcodecs filters as they lay in memory: stored transposed
    ("v2/chunks/filters-delta-order-F", "<i4", [{"id": "delta", "dtype": "<i4", "astype": "<i4"}], ["V2-CHUNK-002", "V2-CHUNK-006"], "v2 <i4 (9,4) in (4,3) chunks with order F and filters [delta <i4]: the deltas run down the columns of each chunk (its F-order sequence), not along its rows", {"fill": 0, "check_order": False, "order": "F"}),
    ("v2/chunks/filters-delta-zstd-big-endian", ">i8", [{"id": "delta", "dtype": ">i8", "astype": ">i8"}], ["V2-CHUNK-002", "V2-DTYPE-002"], "v2 >i8 with filters [delta >i8] then zstd: big-endian deltas are summed back", {"fill": 0, "compressor": COMPRESSORS["zstd"], "check_order": False, "values": lambda rng: rng.integers(-(2**40), 2**40, (9, 4)).astype(">i8")}),
]
# fmt: on

each(_filter_case, FILTERS, question="spec-read")


# ---- reads: each compressor -------------------------------------------------------------------
with verdict(question="spec-read"):
    for _name, _comp in COMPRESSORS.items():
        for _typestr, _shape, _chunks, _order, _fill in (
            ("<f8", (7, 6), (3, 4), "C", "NaN"),
            (">i4", (5, 4, 3), (2, 3, 2), "F", -7),
        ):

            def _build(
                w,
                comp=_comp,
                typestr=_typestr,
                shape=_shape,
                chunks=_chunks,
                order=_order,
                fill=_fill,
            ):
                doc = zarray(shape, chunks, typestr, fill, order=order, compressor=comp)
                fill_value = np.array(np.nan if fill == "NaN" else fill, typestr)
                data = sample(w.rng, shape, typestr, avoid=fill_value)
                skip = {(1,) * len(shape)}
                expected, _ = put_array(w, "", doc, data, skip=skip)
                w.expect_array(expected)

            _needs = [*dtype_needs(np.dtype(_typestr)), *codec_needs(_comp)] + (
                ["feature:order-F"] if _order == "F" else []
            )
            _reqs = ["V2-CHUNK-001", "V2-CHUNK-004", "V2-CHUNK-005"] + (
                ["V2-CHUNK-006"] if _order == "F" else []
            )
            _reqs += (
                ["V2-CHUNK-007"] if _name == "blosc" else ["V2-META-004"] if _name == "none" else []
            )
            add_case(
                f"v2/codecs/{_name}-{np.dtype(_typestr).name}-{len(_shape)}d-{_order}",
                kind="read",
                build=_build,
                needs=_needs,
                requirements=_reqs,
                description=f"v2 {_typestr} {_shape} in {_chunks} chunks order {_order}, compressor {_name}: "
                f"chunk {'.'.join(['1'] * len(_shape))} missing (fill {_fill}), junk overhang",
            )


@case(
    "v2/codecs/zstd-checksum-false-member",
    kind="read",
    needs=["dtype:float32", "codec:zstd"],
    requirements=["V2-CHUNK-001", "V2-META-004"],
    description='v2 compressor {"id": "zstd", "level": 3, "checksum": false} as numcodecs >= 0.13 and zarr-python '
    "write it: the extra codec parameter is part of a valid zstd configuration",
    question="spec-read",
)
def _(w):
    doc = zarray(
        (6, 5), (4, 4), "<f4", 0.0, compressor={"id": "zstd", "level": 3, "checksum": False}
    )
    data = sample(w.rng, (6, 5), "<f4", avoid=np.float32(0))
    expected, _ = put_array(w, "", doc, data, skip={(1, 1)})
    w.expect_array(expected)


# fmt: off
_BLOSC_VARIANTS = [
    ("blosc-zstd-noshuffle", {"id": "blosc", "cname": "zstd", "clevel": 3, "shuffle": 0, "blocksize": 0}, "<f4"),
    ("blosc-blosclz-bitshuffle", {"id": "blosc", "cname": "blosclz", "clevel": 9, "shuffle": 2, "blocksize": 0}, "<u8"),
    ("blosc-zlib-shuffle", {"id": "blosc", "cname": "zlib", "clevel": 1, "shuffle": 1, "blocksize": 0}, ">i2"),
    ("blosc-lz4hc-small-blocks", {"id": "blosc", "cname": "lz4hc", "clevel": 5, "shuffle": 1, "blocksize": 64}, "<f8"),
]
# fmt: on
with verdict(question="spec-read"):
    for _slug, _comp, _typestr in _BLOSC_VARIANTS:

        def _build(w, comp=_comp, typestr=_typestr):
            doc = zarray((20, 9), (8, 8), typestr, 1, compressor=comp)
            data = sample(w.rng, (20, 9), typestr, avoid=np.array(1, typestr))
            expected, _ = put_array(w, "", doc, data, skip={(0, 1)})
            w.expect_array(expected)

        add_case(
            f"v2/codecs/{_slug}",
            kind="read",
            build=_build,
            needs=[*dtype_needs(np.dtype(_typestr)), "codec:blosc"],
            requirements=["V2-CHUNK-001", "V2-CHUNK-007"],
            description=f"v2 {_typestr} with blosc {_comp['cname']} clevel {_comp['clevel']} shuffle {_comp['shuffle']} "
            f"blocksize {_comp['blocksize']}: chunks are stored Blosc frames with their 16-byte header",
        )


# ---- rejects ---------------------------------------------------------------------------------
_RAW4 = np.arange(1, 5, dtype="<i4").tobytes()
_RANDOM64 = (
    np.random.default_rng(64).integers(-(2**31), 2**31 - 1, 64, dtype="<i4").tobytes()
)  # incompressible
_BLOSC_FRAME = blosc_single_threaded(
    numcodecs.Blosc(cname="lz4", clevel=5, shuffle=1, blocksize=0), np.arange(1, 5, dtype="<i4")
)
# fmt: off
REJECTS = [
    # case_id, doc_or_bytes, reason, requirements, description[, options]
    ("v2/chunks/reject-unknown-compressor", zarray((4,), (4,), "<i4", 0, compressor={"id": "nonexistent-codec"}), "unknown-codec", ["V2-CHUNK-008"], 'v2 compressor {"id": "nonexistent-codec"} with one chunk present is rejected (never returned undecoded)', {"tests": "id", "question": "unknown-extension", "needs": I4}),
    ("v2/chunks/reject-unknown-filter", zarray((4,), (4,), "<i4", 0, filters=[{"id": "nonexistent-filter"}]), "unknown-codec", ["V2-CHUNK-008"], 'v2 filters [{"id": "nonexistent-filter"}] with one chunk present is rejected', {"tests": "id", "question": "unknown-extension", "needs": I4}),
    ("v2/chunks/reject-truncated-zlib", zarray((64,), (64,), "<i4", 0, compressor=COMPRESSORS["zlib"]), "corrupt-chunk", ["V2-CHUNK-001"], "v2 zlib chunk cut to half its stream (the values cannot all be decoded) fails on read", {"tests": "compressor", "question": "corrupt-chunk", "needs": [*I4, "codec:zlib"], "stage": "read", "chunk": False, "extra": {"0": zlib.compress(_RANDOM64, 1)[: len(zlib.compress(_RANDOM64, 1)) // 2]}}),
    ("v2/chunks/reject-zlib-stream-uncompressed", zarray((4,), (4,), "<i4", 0), "corrupt-chunk", ["V2-CHUNK-001", "V2-META-004"], "v2 compressor null but the chunk is a zlib stream (wrong size): reading fails", {"tests": "compressor", "question": "corrupt-chunk", "needs": I4, "stage": "read", "chunk": False, "extra": {"0": zlib.compress(_RAW4, 1)}}),
    ("v2/chunks/reject-gzip-under-zlib", zarray((4,), (4,), "<i4", 0, compressor=COMPRESSORS["zlib"]), "corrupt-chunk", ["V2-CHUNK-001"], "v2 compressor zlib but the chunk is a gzip member: reading fails (lenient readers may sniff gzip)", {"question": "foreign-container", "needs": [*I4, "codec:zlib"], "stage": "read", "chunk": False, "extra": {"0": gzip.compress(_RAW4, mtime=0)}}),
    ("v2/chunks/reject-raw-chunk-short", zarray((4,), (4,), "<i4", 0), "corrupt-chunk", ["V2-CHUNK-005"], "v2 raw chunk of 12 bytes where the full chunk is 16: reading fails (chunks are always full size)", {"tests": "same shape", "question": "corrupt-chunk", "needs": I4, "stage": "read", "chunk": False, "extra": {"0": _RAW4[:12]}}),
    ("v2/chunks/reject-raw-chunk-long", zarray((4,), (4,), "<i4", 0), "corrupt-chunk", ["V2-CHUNK-005"], "v2 raw chunk of 17 bytes where the full chunk is 16: reading fails", {"tests": "same shape", "question": "corrupt-chunk", "needs": I4, "stage": "read", "chunk": False, "extra": {"0": _RAW4 + b"\x00"}}),
    ("v2/chunks/reject-edge-chunk-truncated", zarray((5,), (4,), "<i4", 0), "corrupt-chunk", ["V2-CHUNK-005"], "v2 shape (5,) chunks (4,): the edge chunk stored as one element (N5-style truncation) fails on read", {"tests": "same shape", "question": "corrupt-chunk", "needs": I4, "stage": "read", "chunk": False, "extra": {"0": _RAW4, "1": np.array([5], "<i4").tobytes()}}),
    ("v2/chunks/reject-blosc-trailing-byte", zarray((4,), (4,), "<i4", 0, compressor=COMPRESSORS["blosc"]), "corrupt-chunk", ["V2-CHUNK-007"], "v2 blosc chunk with one byte appended (header cbytes no longer equals the stored length) fails on read (strict readers)", {"question": "trailing-junk", "needs": [*I4, "codec:blosc"], "stage": "read", "chunk": False, "extra": {"0": _BLOSC_FRAME + b"\x00"}}),
    ("v2/chunks/reject-blosc-nbytes-mismatch", zarray((8,), (8,), "<i4", 0, compressor=COMPRESSORS["blosc"]), "corrupt-chunk", ["V2-CHUNK-007"], "v2 blosc chunk whose header nbytes (16) is half the chunk size (32) fails on read", {"tests": "compressed", "question": "corrupt-chunk", "needs": [*I4, "codec:blosc"], "stage": "read", "chunk": False, "extra": {"0": _BLOSC_FRAME}}),
]
# fmt: on

each(reject_case, REJECTS)
_CRC = bytearray(numcodecs.CRC32().encode(np.arange(1, 5, dtype="<i4")))
_CRC[-1] ^= 0x01
with verdict(question="checksum-mismatch"):
    reject_case(
        "v2/chunks/reject-crc32-mismatch",
        zarray((4,), (4,), "<i4", 0, filters=[{"id": "crc32"}]),
        "checksum-mismatch",
        ["V2-CHUNK-002"],
        "v2 filters [crc32]: a chunk with one flipped data bit fails its checksum on read",
        needs=[*I4, "codec:crc32"],
        stage="read",
        chunk=False,
        extra={"0": bytes(_CRC)},
    )


# ---- writes ----------------------------------------------------------------------------------
def _keys(grid_shape, sep=".") -> list[str]:
    return [sep.join(map(str, i)) for i in np.ndindex(*grid_shape)]


@case(
    "v2/chunks/write-chunk-keys",
    kind="write",
    needs=["dtype:uint8", "codec:zlib", "op:write"],
    requirements=["V2-CHUNK-003", "V2-KEY-006"],
    description="v2 write of |u1 (30,50) in (10,10) chunks at the root: chunk keys are exactly 0.0 ... 2.4",
    question="spec-write",
)
def _(w):
    doc = zarray((30, 50), (10, 10), "|u1", 0, compressor=COMPRESSORS["zlib"])
    data = sample(w.rng, (30, 50), "|u1", avoid=np.uint8(0))
    w.expect_write(
        metadata=doc,
        data=data,
        required_keys=[".zarray", *_keys((3, 5))],
        forbidden_keys=["2/4", "c.2.4", "c/2/4", "2.4.0", "02.04"],
    )


@case(
    "v2/chunks/write-order-F",
    kind="write",
    needs=[*I4, "op:write", "feature:order-F"],
    requirements=["V2-CHUNK-006"],
    description="v2 write of arange(6).reshape(2,3) <i4 order F, no compressor: chunk 0.0 is exactly 00000000 "
    "03000000 01000000 04000000 02000000 05000000",
    question="spec-write",
)
def _(w):
    w.expect_write(
        metadata=zarray((2, 3), (2, 3), "<i4", -1, order="F"),
        data=np.arange(6, dtype="<i4").reshape(2, 3),
        required_keys=[".zarray", "0.0"],
        exact_basis=["V2-CHUNK-006"],
        stored={
            "0.0": {
                "equals": bytes.fromhex("00000000 03000000 01000000 04000000 02000000 05000000")
            }
        },
    )


@case(
    "v2/chunks/write-order-F-edges",
    kind="write",
    needs=["dtype:float32", "codec:zlib", "op:write", "feature:order-F"],
    requirements=["V2-CHUNK-006", "V2-CHUNK-005"],
    description="v2 write of <f4 (5,7) in (4,4) chunks order F with zlib: every chunk full size, data reads back exactly",
    question="spec-write",
)
def _(w):
    data = sample(w.rng, (5, 7), "<f4", avoid=np.float32(0))
    w.expect_write(
        metadata=zarray((5, 7), (4, 4), "<f4", 0.0, order="F", compressor=COMPRESSORS["zlib"]),
        data=data,
        required_keys=[".zarray", *_keys((2, 2))],
    )


@case(
    "v2/chunks/write-edge-raw-size",
    kind="write",
    needs=["dtype:int16", "op:write"],
    requirements=["V2-CHUNK-005", "V2-META-004"],
    description="v2 write of <i2 (5,3) in (2,2) chunks, no compressor: every chunk, edge ones included, is stored "
    "full size (8 bytes) and 0.0 is the raw values",
    question="spec-write",
)
def _(w):
    data = sample(w.rng, (5, 3), "<i2", avoid=np.int16(0))
    # every stored chunk, the edge ones included, is 2*2*2 bytes; the interior chunk 0.0 is the raw values
    stored = {key: {"size": 8} for key in _keys((3, 2))}
    stored["0.0"] = {"equals": np.ascontiguousarray(data[0:2, 0:2]).tobytes()}
    w.expect_write(
        metadata=zarray((5, 3), (2, 2), "<i2", 0),
        data=data,
        required_keys=[".zarray", *_keys((3, 2))],
        stored=stored,
        exact_basis=["V2-CHUNK-005"],
    )


@case(
    "v2/chunks/write-blosc-header",
    kind="write",
    needs=["dtype:float64", "codec:blosc", "op:write"],
    requirements=["V2-CHUNK-007", "V2-CHUNK-001"],
    description="v2 write with blosc lz4 shuffle: chunks are Blosc frames whose header cbytes equals the stored size",
    question="spec-write",
)
def _(w):
    data = sample(w.rng, (6, 5), "<f8", avoid=np.float64(0))
    w.expect_write(
        metadata=zarray((6, 5), (4, 4), "<f8", 0.0, compressor=COMPRESSORS["blosc"]),
        data=data,
        required_keys=[".zarray", *_keys((2, 2))],
    )


@case(
    "v2/chunks/write-filters-in-order",
    kind="write",
    needs=[*I4, "codec:delta", "codec:astype", "codec:zlib", "op:write"],
    requirements=["V2-CHUNK-002", "V2-CHUNK-001"],
    description="v2 write with filters [delta, astype <i2] and zlib: the reference decodes in reverse order to the data",
    question="spec-write",
)
def _(w):
    data = _small_steps(w.rng)
    doc = zarray(
        (9, 4),
        (4, 3),
        "<i4",
        0,
        compressor=COMPRESSORS["zlib"],
        filters=[
            {"id": "delta", "dtype": "<i4", "astype": "<i4"},
            {"id": "astype", "encode_dtype": "<i2", "decode_dtype": "<i4"},
        ],
    )
    w.expect_write(metadata=doc, data=data, required_keys=[".zarray", *_keys((3, 2))])


@case(
    "v2/chunks/write-filters-delta-order-F",
    kind="write",
    needs=[*I4, "codec:delta", "feature:order-F", "op:write"],
    requirements=["V2-CHUNK-002", "V2-CHUNK-006"],
    description="v2 write with order F and filters [delta <i4]: each chunk is delta-encoded in its F-order "
    "sequence, so the reference reads the data back exactly (not transposed)",
    question="spec-write",
)
def _(w):
    doc = zarray(
        (9, 4),
        (4, 3),
        "<i4",
        0,
        order="F",
        filters=[{"id": "delta", "dtype": "<i4", "astype": "<i4"}],
    )
    w.expect_write(metadata=doc, data=sample(w.rng, (9, 4), "<i4", avoid=np.int32(0)))


# The compressor's own stream format starts every chunk: Zarr adds no header (V2-CHUNK-001). zlib:
# CMF 0x78 (deflate, 32K window); gzip: 1f 8b 08; zstd: the frame magic; bz2: "BZh"; lzma (xz,
# format 1): FD "7zXZ" 00; numcodecs lz4: the decoded size as a little-endian int32 (3*3*8 = 72).
_MAGIC = {
    "zlib": "78",
    "gzip": "1f8b08",
    "zstd": "28b52ffd",
    "bz2": "425a68",
    "lzma": "fd377a585a00",
    "lz4": "48000000",
}
with verdict(question="spec-write"):
    for _name in ("zlib", "gzip", "zstd", "lz4", "bz2", "lzma"):

        def _build(w, comp=COMPRESSORS[_name], magic_hex=_MAGIC[_name]):
            magic = bytes.fromhex(magic_hex)
            data = sample(w.rng, (7, 5), "<i8", avoid=np.int64(0))
            w.expect_write(
                metadata=zarray((7, 5), (3, 3), "<i8", 0, compressor=comp),
                data=data,
                required_keys=[".zarray", *_keys((3, 2))],
                stored={key: {"prefix": magic} for key in _keys((3, 2))},
                exact_basis=["V2-CHUNK-007"],
            )

        add_case(
            f"v2/chunks/write-{_name}",
            kind="write",
            build=_build,
            needs=["dtype:int64", f"codec:{_name}", "op:write"],
            requirements=["V2-CHUNK-001", "V2-CHUNK-007", "V2-META-004"],
            description=f"v2 write of <i8 (7,5) in (3,3) chunks with compressor {_name}: every chunk starts with the "
            f"{_name} stream's own header (no Zarr header) and the data reads back exactly",
        )
