"""The v3 codec pipeline as a whole (V3-PIPE-*, V3-ARR-005/014 and V3-EXT-004 as they concern
codec lists): encoding in list order and decoding in reverse, every invalid codec order, unknown
codecs wherever they appear. Ids v3/pipeline/<case>."""

from __future__ import annotations

import numpy as np

from ..data import sample
from ..generator import verdict
from .table_kit import each
from .v3_codecs_kit import (
    CRC32C,
    LE,
    RAW,
    blosc_codec,
    fill_bits,
    gzip_codec,
    needs_for,
    put_chunks,
    read_case,
    sharding,
    transpose,
    zstd_codec,
)
from .v3_kit import array_doc, reject_case

# ---- decoding in reverse list order (V3-PIPE-002) ------------------------------------------------


def _pipeline_case(
    slug,
    requirements,
    description,
    codecs,
    data_type="int32",
    fill=-7,
    shape=(7, 9),
    chunks=(4, 4),
    skip=((0, 1),),
    tier=None,
    extra_needs=(),
):
    def build(w):
        dtype = np.dtype(data_type)
        fb = fill_bits(fill, dtype)
        data = sample(w.rng, shape, dtype, avoid=fb)
        doc = array_doc(shape, chunks, data_type, fill, codecs=codecs)
        w.expect_array(put_chunks(w, doc, data, fb, skip=set(skip)))

    read_case(
        f"v3/pipeline/{slug}",
        requirements,
        description,
        build,
        tier=tier,
        needs=[f"dtype:{data_type}", *needs_for(codecs), *extra_needs],
    )


# fmt: off
PIPELINES = [
    # slug, requirements, description, codecs[, options]
    ("transpose-bytes-gzip-crc32c", ["V3-PIPE-002", "V3-TRANS-002", "V3-GZIP-002", "V3-CRC-002"], "v3 int32 (7,9) in (4,4) chunks with [transpose [1,0], bytes little, gzip, crc32c]: each chunk is the transposed bytes, gzipped, checksum appended; read undoes them in reverse", [transpose([1, 0]), LE, gzip_codec(1), CRC32C], {"question": "spec-read"}),
    ("bytes-gzip-gzip", ["V3-PIPE-002", "V3-GZIP-002"], "v3 float32 with [bytes, gzip, gzip]: each chunk is a gzip member of a gzip member", [LE, gzip_codec(1), gzip_codec(9)], {"question": "spec-read", "data_type": "float32", "fill": 0.5}),
    ("bytes-crc32c-gzip-crc32c", ["V3-PIPE-002", "V3-CRC-002"], "v3 uint16 with [bytes, crc32c, gzip, crc32c]: checksums inside and outside the gzip member", [LE, CRC32C, gzip_codec(5), CRC32C], {"question": "spec-read", "data_type": "uint16", "fill": 42}),
    ("bytes-gzip-zstd-crc32c", ["V3-PIPE-002", "V3-ZSTD-002"], "v3 int32 with [bytes, gzip, zstd, crc32c]: three bytes->bytes codecs undone in reverse order", [LE, gzip_codec(1), zstd_codec(1), CRC32C], {"question": "registered-extension", "tier": "extension"}),
    ("transpose-bytes-blosc-gzip", ["V3-PIPE-002", "V3-BLOSC-004"], "v3 float64 with [transpose [1,0], bytes big, blosc zstd bitshuffle, gzip]", [transpose([1, 0]), {"name": "bytes", "configuration": {"endian": "big"}}, blosc_codec("zstd", 5, "bitshuffle", 8, 0), gzip_codec(1)], {"question": "spec-read", "data_type": "float64", "fill": 0.5}),
    ("no-transpose-is-c-order", ["V3-PIPE-003", "V3-BYTES-003"], "v3 uint8 (7,9) in (4,4) chunks with only bytes: chunks are C order of the chunk, never F", [RAW], {"question": "spec-read", "data_type": "uint8", "fill": 42}),
    # ---- partial decoding must not change results (V3-PIPE-005) ---------------------------------------
    ("partial-shard-edge", ["V3-PIPE-005", "V3-SHARD-008"], "v3 int32 (6,10) in (8,8) shards with (2,4) inner chunks: the array covers part of each shard, so readers that decode shards partially must give the same values as a full decode", [sharding((2, 4), [LE, gzip_codec(1)], [LE, CRC32C])], {"question": "spec-read", "shape": (6, 10), "chunks": (8, 8), "skip": ()}),
]
# fmt: on

each(_pipeline_case, PIPELINES)


# ---- every invalid codec order (V3-PIPE-001, V3-ARR-005) ------------------------------------------

GZ, BL = gzip_codec(1), blosc_codec()
SH = sharding((2, 3), [LE], [LE, CRC32C])
# fmt: off
_ORDERS = [
    ("gzip-bytes", [GZ, LE], "[gzip, bytes] (bytes->bytes before array->bytes)"),
    ("bytes-transpose", [LE, transpose([1, 0])], "[bytes, transpose] (array->array after array->bytes)"),
    ("bytes-bytes", [LE, LE], "[bytes, bytes] (two array->bytes codecs)"),
    ("transpose-only", [transpose([1, 0])], "[transpose] (no array->bytes codec)"),
    ("gzip-only", [GZ], "[gzip] (no array->bytes codec)"),
    ("crc32c-only", [CRC32C], "[crc32c] (no array->bytes codec)"),
    ("crc32c-bytes", [CRC32C, LE], "[crc32c, bytes]"),
    ("transpose-gzip-bytes", [transpose([1, 0]), GZ, LE], "[transpose, gzip, bytes]"),
    ("bytes-gzip-transpose", [LE, GZ, transpose([1, 0])], "[bytes, gzip, transpose]"),
    ("bytes-sharding", [LE, SH], "[bytes, sharding_indexed] (two array->bytes codecs)"),
    ("sharding-bytes", [SH, LE], "[sharding_indexed, bytes] (two array->bytes codecs)"),
    ("sharding-transpose", [SH, transpose([1, 0])], "[sharding_indexed, transpose]"),
    ("gzip-sharding", [GZ, SH], "[gzip, sharding_indexed]"),
    ("blosc-gzip", [BL, GZ], "[blosc, gzip] (only bytes->bytes codecs)"),
    ("transpose-transpose", [transpose([1, 0]), transpose([1, 0])], "[transpose, transpose] (no array->bytes codec)"),
]
# fmt: on
with verdict(question="codec-order", tests="array -> bytes"):
    for _slug, _codecs, _what in _ORDERS:
        reject_case(
            f"v3/pipeline/reject-order-{_slug}",
            array_doc((4, 6), (2, 3), "int32", 0, codecs=_codecs),
            "codec-order",
            ["V3-PIPE-001"] + (["V3-ARR-005"] if "no array->bytes" in _what else []),
            f"v3 codecs {_what} are rejected on open",
            needs=["dtype:int32", *needs_for(_codecs)],
        )


# ---- unknown codecs and malformed entries (V3-EXT-004, V3-ARR-014) ---------------------------------


def _bad(
    slug, codecs, reason, requirements, description, tier=None, data_type="int32", extra_needs=()
):
    reject_case(
        f"v3/pipeline/{slug}",
        array_doc((4, 6), (2, 3), data_type, 0, codecs=codecs),
        reason,
        requirements,
        description,
        tier=tier,
        needs=[f"dtype:{data_type}", *needs_for(codecs), *extra_needs],
    )


# fmt: off
REJECTS = [
    # slug, codecs, reason, requirements, description[, options]
    ("reject-unknown-array-to-bytes", [{"name": "no_such_serializer", "configuration": {}}], "unknown-codec", ["V3-EXT-004"], "v3 codecs [no_such_serializer] (an unknown codec in place of bytes) are rejected on open", {"tests": "extension points", "question": "unknown-extension"}),
    ("reject-unknown-after-crc32c", [LE, CRC32C, {"name": "lz77", "configuration": {"level": 1}}], "unknown-codec", ["V3-EXT-004"], "v3 codecs [bytes, crc32c, lz77] with an unknown last bytes->bytes codec are rejected on open", {"tests": "extension points", "question": "unknown-extension"}),
    ("reject-unknown-inner-sharding-codec", [sharding((2, 3), [LE, {"name": "no_such_codec"}], [LE, CRC32C])], "unknown-codec", ["V3-EXT-004", "V3-SHARD-003"], "v3 sharding whose inner codecs hold an unknown codec is rejected on open", {"tests": "extension points", "question": "unknown-extension"}),
    ("reject-unknown-index-codec", [sharding((2, 3), [LE], [LE, {"name": "no_such_checksum"}])], "unknown-codec", ["V3-EXT-004", "V3-SHARD-004"], "v3 sharding whose index_codecs hold an unknown codec is rejected on open", {"tests": "extension points", "question": "unknown-extension"}),
    ("reject-v2-zlib-name", [LE, {"name": "zlib", "configuration": {"level": 1}}], "unknown-codec", ["V3-EXT-004"], "v3 codecs with the v2 numcodecs id 'zlib' (not a v3 codec name) are rejected on open", {"tests": "extension points", "question": "other-version-form"}),
    ("reject-codec-entry-extra-member", [LE, {"name": "gzip", "configuration": {"level": 1}, "id": "gzip"}], "invalid-codec", ["V3-ARR-014"], "v3 codec entry with an extra member 'id' next to name and configuration is rejected on open", {"tests": "configuration", "question": "unknown-configuration-member"}),
    ("reject-codec-entry-v2-style", [LE, {"id": "gzip", "level": 1}], "invalid-codec", ["V3-ARR-014"], "v3 codec entry in the v2 style {'id': 'gzip', 'level': 1} (no name) is rejected on open", {"tests": "name", "question": "unknown-extension"}),
    ("reject-codec-configuration-null", [LE, {"name": "gzip", "configuration": None}], "invalid-codec", ["V3-ARR-014"], "v3 codec entry with configuration null (not an object) is rejected on open", {"tests": "configuration", "question": "null-optional"}),
    ("reject-inner-codecs-empty", [sharding((2, 3), [], [LE, CRC32C])], "codec-order", ["V3-ARR-005", "V3-SHARD-003"], "v3 sharding with inner codecs [] (no array->bytes codec) is rejected on open", {"tests": "array -> bytes", "question": "codec-order"}),
]
# fmt: on

each(_bad, REJECTS)


# ---- 3.1 short-hand names inside codec lists (V3-ARR-014) ------------------------------------------


def _shorthand(slug, codecs, description):
    def build(w):
        data = sample(w.rng, (4, 6), "u1", avoid=np.uint8(0))
        doc = array_doc((4, 6), (2, 3), "uint8", 0, codecs=codecs)
        w.expect_array(
            put_chunks(w, doc, data, np.array(0, "u1"), skip={(1, 1)})
        )  # the hand encoder reads short-hands

    read_case(
        f"v3/pipeline/{slug}",
        ["V3-ARR-014", "V3-EXT-002"],
        description,
        build,
        tier="optional",
        needs=["dtype:uint8", "feature:shorthand-names", *needs_for(codecs)],
    )


with verdict(question="v3.1-addition"):
    _shorthand(
        "shorthand-bytes-crc32c",
        ["bytes", "crc32c"],
        "v3.1 uint8 with codecs ['bytes', 'crc32c'] (short-hand names) reads like the object form",
    )
with verdict(question="v3.1-addition"):
    _shorthand(
        "shorthand-inside-sharding",
        [sharding((2, 3), ["bytes"], [LE, "crc32c"])],
        "v3.1 uint8 sharded with inner codecs ['bytes'] and index_codecs [bytes, 'crc32c'] short-hand names reads",
    )
