"""v3 `sharding_indexed` read cases (V3-SHARD-*, V3-TRANS-004): shards assembled by hand from inner
chunks and a hand-built (offset, nbytes) index, each pinning one point of the binary shard format
that implementations get wrong (index order, absolute offsets, empty markers, edge shards, order
and gaps, nesting, index codecs). Ids v3/sharding/<case>."""

from __future__ import annotations

import numpy as np

from ..data import sample
from .table_kit import each
from .v3_codecs_kit import (
    BE,
    CRC32C,
    EMPTY_ENTRY,
    LE,
    RAW,
    assemble_shard,
    blosc_codec,
    encode_shard,
    fill_bits,
    gzip_codec,
    inner_blocks,
    needs_for,
    outside_inner,
    put_chunks,
    read_case,
    sharding,
    transpose,
    with_crc,
    zstd_codec,
)
from .v3_kit import array_doc

JUNK7 = b"JUNK!!!"  # 7 bytes between inner chunks (V3-SHARD-011)


def _case(
    slug, requirements, description, build, codecs, data_type="int32", tier=None, extra_needs=()
):
    read_case(
        f"v3/sharding/{slug}",
        requirements,
        description,
        build,
        tier=tier,
        needs=[f"dtype:{data_type}", *needs_for(codecs), *extra_needs],
    )


# ---- the index: C order over the inner grid, absolute offsets, size (V3-SHARD-006/009/010) -----------

_UNIQUE = (
    (np.arange(16).reshape(4, 4) + 1) * 1000 + np.array([[1, 2, 1, 2], [3, 4, 3, 4]] * 2)
).astype("<i4")
_SCRAMBLED = [
    (1, 0),
    (0, 1),
    (1, 1),
    (0, 0),
]  # storage order differs from C order: only the index tells


def _unique_shard(index_codecs, location="end", order=_SCRAMBLED):
    codecs = [sharding((2, 2), [LE], index_codecs, location)]

    def build(w):
        w.put_json("zarr.json", array_doc((4, 4), (4, 4), "int32", 0, codecs=codecs))
        w.put("c/0/0", encode_shard(_UNIQUE, codecs[0]["configuration"], order=order))
        w.expect_array(_UNIQUE)

    return build, codecs


# fmt: off
SHARDS = [
    # slug, requirements, description, build, codecs[, options]
    ("index-c-order", ["V3-SHARD-006", "V3-SHARD-009"], "v3 shard [4,4] with [2,2] inner chunks stored in the order (1,0),(0,1),(1,1),(0,0): the C-order index puts inner chunk (0,1) at [0,2..3]; row/column confusion reads other values there", *_unique_shard([LE, CRC32C]), {"question": "spec-read"}),
    ("index-big-endian", ["V3-SHARD-006"], "v3 shard whose index_codecs are [bytes big]: offsets and sizes are big-endian uint64", *_unique_shard([BE]), {"question": "spec-read", "extra_needs": ["dtype:big-endian"]}),
    ("index-big-endian-crc32c-start", ["V3-SHARD-006", "V3-SHARD-010"], "v3 shard with a [bytes big, crc32c] index at the start: big-endian absolute offsets from byte 0", *_unique_shard([BE, CRC32C], "start"), {"question": "spec-read", "extra_needs": ["dtype:big-endian"]}),
    ("index-codecs-transpose", ["V3-SHARD-006"], "v3 shard whose index_codecs are [transpose [1,0,2], bytes]: the (2,2,2) index is stored with its grid axes swapped", *_unique_shard([transpose([1, 0, 2]), LE]), {"question": "spec-silent", "tier": "optional"}),
]
# fmt: on

each(_case, SHARDS)


def _sized_shard(
    slug, requirements, description, location, index_codecs, data_type="float64", fill=0.5
):
    codecs = [sharding((2, 3), [LE], index_codecs, location)]

    def build(w):
        dtype = np.dtype(data_type)
        fb = fill_bits(fill, dtype)
        data = sample(w.rng, (8, 6), dtype, avoid=fb)
        doc = array_doc((8, 6), (4, 6), data_type, fill, codecs=codecs)
        w.expect_array(put_chunks(w, doc, data, fb))

    _case(slug, requirements, description, build, codecs, data_type=data_type)


# fmt: off
SIZED = [
    # slug, requirements, description, location, index_codecs[, options]
    ("index-end-68-bytes", ["V3-SHARD-009"], "v3 float64 shards [4,6] with [2,3] inner chunks and [bytes, crc32c] index_codecs: the last 68 bytes are the index, its last 4 the CRC-32C of the first 64", "end", [LE, CRC32C]),
    ("index-start-offset-68", ["V3-SHARD-010", "V3-SHARD-009"], "v3 float64 shards with a 68-byte [bytes, crc32c] index at the start: the first inner chunk is at offset 68, offsets count from the start of the shard", "start", [LE, CRC32C]),
    ("index-end-64-bytes-no-crc", ["V3-SHARD-009"], "v3 int16 shards with a 64-byte [bytes] index at the end (no checksum)", "end", [LE], {"data_type": "int16", "fill": -7}),
    ("index-location-absent", ["V3-SHARD-001", "V3-SHARD-009"], "v3 uint32 shards whose configuration has no index_location: the index is at the end", None, [LE, CRC32C], {"data_type": "uint32", "fill": 42}),
]
# fmt: on

each(_sized_shard, SIZED, question="spec-read")


# ---- empty inner chunks and empty shards (V3-SHARD-007, V3-SHARD-014, V3-SHARD-017) ----------------


def _empty_marker(w):
    conf = sharding((2, 2), [LE], [LE, CRC32C])
    data = sample(w.rng, (4, 4), "u2", avoid=np.uint16(42))
    w.put_json("zarr.json", array_doc((4, 4), (4, 4), "uint16", 42, codecs=[conf]))
    w.put("c/0/0", encode_shard(data, conf["configuration"], empty={(1, 0)}))
    data[2:, :2] = 42
    w.expect_array(data)


def _only_one_present(w):
    conf = sharding((2, 2), [LE], [LE])
    data = sample(w.rng, (4, 4), "f4", avoid=np.float32(-1.5))
    w.put_json("zarr.json", array_doc((4, 4), (4, 4), "float32", -1.5, codecs=[conf]))
    w.put("c/0/0", encode_shard(data, conf["configuration"], empty={(0, 0), (1, 0), (1, 1)}))
    expected = np.full((4, 4), -1.5, "f4")
    expected[:2, 2:] = data[:2, 2:]
    w.expect_array(expected)


def _empty_shards(index_codecs, missing_key: bool):
    conf = sharding((2, 3), [LE], index_codecs)

    def build(w):
        data = sample(w.rng, (8, 12), "i4", avoid=np.int32(-7))
        doc = array_doc((8, 12), (4, 6), "int32", -7, codecs=[conf])
        expected = put_chunks(w, doc, data, np.array(-7, "i4"), skip={(0, 1)})
        if not missing_key:
            index = EMPTY_ENTRY * 4
            w.put("c/0/1", with_crc(index) if len(index_codecs) == 2 else index)
        w.expect_array(expected)

    return build, [conf]


def _edge(index_codecs):
    conf = sharding((2,), [LE], index_codecs)

    def build(w):
        data = sample(w.rng, (10,), "i8", avoid=np.int64(-7))
        w.put_json("zarr.json", array_doc((10,), (8,), "int64", -7, codecs=[conf]))
        w.put("c/0", encode_shard(data[:8], conf["configuration"]))
        edge = np.full(8, 0x5A5A5A5A5A5A5A5A, "i8")  # inner chunk 1 (elements 10,11) holds junk
        edge[:2] = data[8:]
        w.put("c/1", encode_shard(edge, conf["configuration"], empty={(2,), (3,)}))
        w.expect_array(data)

    return build, [conf]


def _order_gaps(location, lead: bytes = b""):
    conf = sharding((2, 2), [LE, gzip_codec(1)], [LE, CRC32C], location)

    def build(w):
        data = sample(w.rng, (4, 4), "i4", avoid=np.int32(0))
        w.put_json("zarr.json", array_doc((4, 4), (4, 4), "int32", 0, codecs=[conf]))
        order = [(1, 1), (1, 0), (0, 1), (0, 0)]  # reverse C order
        w.put("c/0/0", encode_shard(data, conf["configuration"], order=order, gap=JUNK7, lead=lead))
        w.expect_array(data)

    return build, [conf]


def _shared_blob(w):
    conf = sharding((2,), [LE], [LE])
    w.put_json("zarr.json", array_doc((6,), (6,), "int32", 0, codecs=[conf]))
    blob = np.array([11, -11], "<i4").tobytes()
    blobs = {(0,): blob, (1,): np.array([5, 6], "<i4").tobytes(), (2,): blob}
    shard = bytearray(assemble_shard({(0,): blob, (1,): blobs[(1,)]}, conf["configuration"], (3,)))
    index_start = len(shard) - 48
    shard[index_start + 32 : index_start + 48] = shard[
        index_start : index_start + 16
    ]  # (2,) points at (0,)'s bytes
    w.put("c/0", bytes(shard))
    w.expect_array(np.array([11, -11, 5, 6, 11, -11], "i4"))


# fmt: off
EMPTY_AND_ORDERED = [
    # slug, requirements, description, build, codecs[, options]
    ("empty-marker", ["V3-SHARD-007"], "v3 shard whose index entry for inner chunk (1,0) is 16 bytes of FF (2^64-1 twice): it reads as fill 42", _empty_marker, [sharding((2, 2), [LE], [LE, CRC32C])], {"question": "spec-read", "data_type": "uint16"}),
    ("empty-marker-three-of-four", ["V3-SHARD-007"], "v3 shard holding only inner chunk (0,1) (the other 3 index entries are FF x 16): three quarters read as fill", _only_one_present, [sharding((2, 2), [LE], [LE])], {"question": "spec-read", "data_type": "float32"}),
    ("missing-shard-key", ["V3-SHARD-014", "V3-SHARD-017"], "v3 sharded (8,12) array in [4,6] shards whose shard key c/0/1 is absent: that shard reads as fill -7", *_empty_shards([LE, CRC32C], True), {"question": "spec-read"}),
    ("all-empty-index-64-bytes", ["V3-SHARD-017", "V3-SHARD-007"], "v3 shard c/0/1 stored as only its all-FF 64-byte [bytes] index: every inner chunk empty, reads as fill -7", *_empty_shards([LE], False), {"question": "spec-read"}),
    ("all-empty-index-68-bytes", ["V3-SHARD-017", "V3-SHARD-007", "V3-SHARD-009"], "v3 shard c/0/1 stored as only its 68-byte [bytes, crc32c] index (64 FF bytes plus their valid CRC-32C): reads as fill -7", *_empty_shards([LE, CRC32C], False), {"question": "spec-read"}),
    # ---- edge shards keep a full-size index (V3-SHARD-008) ---------------------------------------------
    ("edge-shard-full-index", ["V3-SHARD-008", "V3-SHARD-009"], "v3 int64 (10,) in (8,) shards with (2,) inner chunks: edge shard c/1 has a 4-entry 64-byte index (one valid, one junk outside the array, two empty)", *_edge([LE]), {"question": "spec-read", "data_type": "int64"}),
    ("edge-shard-full-index-crc32c", ["V3-SHARD-008", "V3-SHARD-009"], "v3 int64 (10,) in (8,) shards: edge shard c/1 has a 4-entry 68-byte [bytes, crc32c] index", *_edge([LE, CRC32C]), {"question": "spec-read", "data_type": "int64"}),
    # ---- inner chunks in any order, with gaps (V3-SHARD-011) -------------------------------------------
    ("reverse-order-junk-gaps", ["V3-SHARD-011"], "v3 shard with gzip inner chunks stored in reverse C order and 7 junk bytes between them: only the index counts", *_order_gaps("end"), {"question": "spec-read"}),
    ("reverse-order-junk-gaps-index-start", ["V3-SHARD-011", "V3-SHARD-010"], "v3 shard with the index at the start, 5 unused bytes after it, then inner chunks in reverse order with 7-byte gaps", *_order_gaps("start", lead=b"\x00" * 5), {"question": "spec-read"}),
    ("two-entries-one-blob", ["V3-SHARD-011"], "v3 shard whose index points inner chunks (0,) and (2,) at the same bytes (deduplicated): both read them", _shared_blob, [sharding((2,), [LE], [LE])], {"question": "spec-silent", "tier": "optional"}),
]
# fmt: on

each(_case, EMPTY_AND_ORDERED)


# ---- inner codecs (V3-SHARD-012) ---------------------------------------------------------------------


def _inner(
    slug,
    requirements,
    description,
    inner_codecs,
    data_type="uint16",
    fill=42,
    tier=None,
    index_codecs=None,
    after=(),
    inner=(3, 2),
    empty=(0, 1),
):
    codecs = [sharding(inner, inner_codecs, index_codecs or [LE, CRC32C]), *after]

    def build(w):
        dtype = np.dtype(data_type)
        fb = fill_bits(fill, dtype)
        data = sample(w.rng, (11, 7), dtype, avoid=fb)
        doc = array_doc((11, 7), (6, 4), data_type, fill, codecs=codecs)
        w.expect_array(
            put_chunks(
                w,
                doc,
                data,
                fb,
                skip={(1, 0)},
                empty_inner=lambda i: {empty} if i == (0, 0) and empty else set(),
            )
        )

    _case(slug, requirements, description, build, codecs, data_type=data_type, tier=tier)


# fmt: off
INNER = [
    # slug, requirements, description, inner_codecs[, options]
    ("inner-bytes-big-gzip", ["V3-SHARD-012", "V3-GZIP-002"], "v3 uint16 shards whose inner codecs are [bytes big, gzip]: each inner chunk is a gzip member of big-endian data", [BE, gzip_codec(5)], {"question": "spec-read"}),
    ("inner-crc32c", ["V3-SHARD-012", "V3-CRC-002"], "v3 float32 shards whose inner codecs are [bytes, crc32c]: each inner chunk carries its own checksum", [LE, CRC32C], {"question": "spec-read", "data_type": "float32", "fill": 0.5}),
    ("inner-transpose", ["V3-SHARD-012", "V3-TRANS-002"], "v3 int64 shards whose inner codecs are [transpose [1,0], bytes]: inner chunks are stored transposed", [transpose([1, 0]), LE], {"question": "spec-read", "data_type": "int64", "fill": -7}),
    ("inner-blosc", ["V3-SHARD-012", "V3-BLOSC-004"], "v3 int32 shards whose inner codecs are [bytes, blosc lz4 shuffle typesize 4]", [LE, blosc_codec()], {"question": "spec-read", "data_type": "int32", "fill": -7}),
    ("inner-zstd", ["V3-SHARD-012", "V3-ZSTD-002"], "v3 float64 shards whose inner codecs are [bytes, zstd level 3]", [LE, zstd_codec(3)], {"question": "registered-extension", "data_type": "float64", "fill": 0.5, "tier": "extension"}),
    ("single-inner-chunk", ["V3-SHARD-002", "V3-SHARD-012"], "v3 uint8 shards whose inner chunk_shape equals the shard shape (one inner chunk per shard)", [RAW], {"question": "spec-read", "data_type": "uint8", "inner": (6, 4), "empty": None}),
    ("sharding-then-gzip", ["V3-SHARD-012", "V3-PIPE-002"], "v3 int32 with codecs [sharding_indexed, gzip]: each whole shard (chunks plus index) is one gzip member", [LE], {"question": "spec-read", "data_type": "int32", "fill": -7, "after": [gzip_codec(1)]}),
    ("sharding-then-crc32c", ["V3-PIPE-002", "V3-CRC-002"], "v3 uint16 with codecs [sharding_indexed, crc32c]: a checksum over the whole shard follows the index", [LE], {"question": "spec-read", "after": [CRC32C]}),
]
# fmt: on

each(_inner, INNER)


# ---- transpose before sharding: inner chunk_shape in transposed coordinates (V3-TRANS-004) ----------


def _transposed(w):
    codecs = [transpose([1, 0]), sharding((8, 2), [LE], [LE, CRC32C])]
    data = sample(w.rng, (6, 13), "i4", avoid=np.int32(-7))
    doc = array_doc((6, 13), (4, 8), "int32", -7, codecs=codecs)
    w.expect_array(put_chunks(w, doc, data, np.array(-7, "i4"), skip={(1, 0)}))


_INNER_SHARD = sharding((2, 2), [LE], [LE, CRC32C], "start")
_NESTED = sharding((4, 4), [_INNER_SHARD], [LE, CRC32C], "end")


def _nested(w):
    data = sample(w.rng, (8, 14), "u2", avoid=np.uint16(42))
    w.put_json("zarr.json", array_doc((8, 14), (8, 8), "uint16", 42, codecs=[_NESTED]))
    expected = data.copy()
    outer_conf, inner_conf = _NESTED["configuration"], _INNER_SHARD["configuration"]
    for j in range(2):  # shards c/0/0 and the edge shard c/0/1
        block = np.full((8, 8), 0x5A5A, "u2")
        part = data[:, 8 * j : 8 * j + 8]
        block[:, : part.shape[1]] = part
        blobs = {}
        for pos, sub in inner_blocks(block, (4, 4)).items():
            if (j, pos) == (0, (1, 1)):  # a whole inner shard empty at the outer level
                expected[4:8, 4:8] = 42
                continue
            empty = (
                {(0, 0)} if pos == (0, 0) else set()
            )  # one innermost chunk empty at the inner level
            for e in empty:
                r0, c0 = 4 * pos[0] + 2 * e[0], 8 * j + 4 * pos[1] + 2 * e[1]
                expected[r0 : r0 + 2, c0 : c0 + 2] = 42
            blobs[pos] = encode_shard(sub, inner_conf, empty=empty)
        w.put(
            f"c/0/{j}", assemble_shard(blobs, outer_conf, (2, 2), order=sorted(blobs, reverse=True))
        )
    w.expect_array(expected)


def _rank3(w):
    codecs = [sharding((2, 2, 2), [RAW], [LE, CRC32C], "start")]
    data = sample(w.rng, (5, 4, 3), "i1", avoid=np.int8(-7))
    doc = array_doc((5, 4, 3), (4, 4, 4), "int8", -7, codecs=codecs)
    w.expect_array(
        put_chunks(
            w,
            doc,
            data,
            np.array(-7, "i1"),
            empty_inner=lambda i: {(0, 1, 0)} | outside_inner(i, (4, 4, 4), (2, 2, 2), (5, 4, 3)),
        )
    )


def _zip(w):
    codecs = [sharding((2, 3), [LE, gzip_codec(1)], [LE, CRC32C])]
    data = sample(w.rng, (7, 9), "f8", avoid=np.float64(0.5))
    doc = array_doc((7, 9), (4, 6), "float64", 0.5, codecs=codecs)
    w.expect_array(
        put_chunks(
            w,
            doc,
            data,
            np.array(0.5, "f8"),
            skip={(0, 1)},
            empty_inner=lambda i: {(1, 1)} if i == (0, 0) else set(),
        )
    )
    w.zip = True


# fmt: off
LAYOUTS = [
    # slug, requirements, description, build, codecs[, options]
    ("transpose-then-sharding", ["V3-TRANS-004", "V3-TRANS-002", "V3-SHARD-002"], "v3 int32 chunks [4,8] with [transpose [1,0], sharding chunk_shape [8,2]]: the shard codec sees (8,4), so [8,2] is valid; shards hold the transposed chunk", _transposed, [transpose([1, 0]), sharding((8, 2), [LE], [LE, CRC32C])]),
    # ---- nested sharding (V3-SHARD-013) -------------------------------------------------------------------
    ("nested-two-levels", ["V3-SHARD-013", "V3-SHARD-007", "V3-SHARD-010", "V3-PIPE-005"], "v3 uint16 (8,14) with [8,8] shards of [4,4] inner shards (index at the end) of [2,2] chunks (index at the start): empty entries at both levels read as fill 42; the edge shard is read in part", _nested, [_NESTED], {"data_type": "uint16"}),
    # ---- other ranks and stores ------------------------------------------------------------------------------
    ("rank3-index-start", ["V3-SHARD-006", "V3-SHARD-008", "V3-SHARD-010"], "v3 int8 (5,4,3) in [4,4,4] shards of [2,2,2] inner chunks, index at the start: the (2,2,2,2) index is C order", _rank3, [sharding((2, 2, 2), [RAW], [LE, CRC32C], "start")], {"data_type": "int8"}),
    ("zip-store", ["V3-SHARD-014", "V3-SHARD-009"], "v3 float64 sharded array in a zip store: one shard key absent, one inner chunk empty, gzip inner chunks", _zip, [sharding((2, 3), [LE, gzip_codec(1)], [LE, CRC32C])], {"data_type": "float64"}),
]
# fmt: on

each(_case, LAYOUTS, question="spec-read")
