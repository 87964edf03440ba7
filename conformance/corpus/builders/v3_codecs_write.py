"""v3 write cases for codecs, pipelines and sharding. The written store is judged by the reference
reader, which verifies every byte format on the way back (crc32c appended little-endian, gzip
members, zstd frames, the blosc header's cbytes/nbytes, the shard index size and checksum), and by
meaning: the written `codecs` must describe the same pipeline as the request (names, order, and
the members that decide the layout), while encoder-only choices (levels, blosc typesize/shuffle,
an `endian` on a one-byte type, the zstd checksum flag) are the writer's. On top of that, `stored`
checks pin raw values where a cited sentence fixes them (`exact_basis`: gzip/zstd magic, an
appended CRC-32C, chunk sizes, exact bytes of deterministic codecs), and keys are stated where the
spec fixes them."""

from __future__ import annotations

import numpy as np

from ..data import sample
from ..generator import add_case, verdict
from .table_kit import each
from .v3_codecs_kit import (
    BE,
    CRC32C,
    LE,
    RAW,
    blosc_codec,
    encode,
    gzip_codec,
    needs_for,
    sharding,
    transpose,
    zstd_codec,
)
from .v3_kit import array_doc, default_key, grid, region

GZIP_MEMBER = {
    "prefix": bytes.fromhex("1f8b08")
}  # RFC 1952 magic and the deflate method (V3-GZIP-002)
ZSTD_FRAME = {"prefix": bytes.fromhex("28b52ffd")}  # RFC 8878 frame magic (V3-ZSTD-002)


def _write(
    case_id,
    requirements,
    description,
    codecs,
    *,
    data_type="int32",
    fill=-7,
    shape=(7, 9),
    chunks=(4, 4),
    tier=None,
    exact_keys=True,
    data=None,
    required_keys=None,
    forbidden_keys=(),
    each_chunk: dict | None = None,
    interior_equal: bool = False,
    exact_basis=(),
):
    """`each_chunk`: a `stored` check for every chunk key; `interior_equal`: chunks wholly inside
    the array must equal the hand encoding (deterministic codecs only; edge overhang is free)."""
    dtype = np.dtype(data_type)

    def build(w):
        values = (
            data(w.rng)
            if data is not None
            else sample(w.rng, shape, dtype, avoid=np.array(fill, dtype))
        )
        doc = array_doc(shape, chunks, data_type, fill, codecs=codecs)
        indices = list(np.ndindex(*grid(shape, chunks)))
        stored = {default_key(i): dict(each_chunk) for i in indices} if each_chunk else {}
        if interior_equal:
            for i in indices:
                where = region(i, chunks, shape)
                if all(s.stop - s.start == c for s, c in zip(where, chunks)):
                    stored.setdefault(default_key(i), {})["equals"] = encode(values[where], codecs)
        w.expect_write(
            metadata=doc,
            data=values,
            keys=["zarr.json", *map(default_key, indices)] if exact_keys else None,
            required_keys=required_keys if required_keys is not None else ["zarr.json"],
            forbidden_keys=forbidden_keys,
            stored=stored,
            exact_basis=exact_basis if stored else (),
        )

    add_case(
        case_id,
        kind="write",
        build=build,
        tier=tier,
        requirements=requirements,
        description=description,
        needs=[f"dtype:{data_type}", "op:write", *needs_for(codecs)],
    )


# ---- pipelines and bytes->bytes codecs ------------------------------------------------------------------

_SHARD = sharding((2, 3), [LE, gzip_codec(1)], [LE, CRC32C], "start")
# fmt: off
WRITES = [
    # case_id, requirements, description, codecs[, options]
    ("v3/pipeline/write-transpose-gzip-crc32c", ["V3-PIPE-002", "V3-CRC-002", "V3-GZIP-002", "V3-TRANS-002"], "v3 write with [transpose [1,0], bytes, gzip, crc32c]: every chunk key written and each chunk ends with the little-endian CRC-32C of the bytes before it (the gzip container is a SHOULD: v3/codecs/write-gzip-container)", [transpose([1, 0]), LE, gzip_codec(5), CRC32C], {"question": "spec-write", "each_chunk": {"crc32c_suffix": True}, "exact_basis": ["V3-CRC-002"]}),
    ("v3/codecs/write-gzip-container", ["V3-GZIP-002", "V3-GZIP-001"], "v3 write with [bytes, gzip level 1]: chunks are RFC 1952 gzip members (1f 8b 08), not zlib streams", [LE, gzip_codec(1)], {"question": "should", "data_type": "float64", "fill": 0.5, "tier": "optional", "each_chunk": GZIP_MEMBER, "exact_basis": ["V3-GZIP-002"]}),
    ("v3/codecs/write-zstd-frames", ["V3-ZSTD-002", "V3-ZSTD-001"], "v3 write with [bytes, zstd level 3]: chunks are Zstandard frames starting 28 b5 2f fd", [LE, zstd_codec(3)], {"question": "registered-extension", "data_type": "uint16", "fill": 42, "tier": "extension", "each_chunk": ZSTD_FRAME, "exact_basis": ["V3-ZSTD-002"]}),
    ("v3/codecs/write-zstd-checksum", ["V3-ZSTD-003", "V3-ZSTD-002"], "v3 write with zstd checksum true: chunks are Zstandard frames (28 b5 2f fd) that read back exactly", [LE, zstd_codec(5, True)], {"question": "registered-extension", "data_type": "int64", "tier": "extension", "each_chunk": ZSTD_FRAME, "exact_basis": ["V3-ZSTD-002"]}),
    ("v3/codecs/write-blosc-shuffle-typesize", ["V3-BLOSC-003", "V3-BLOSC-002", "V3-BLOSC-004"], "v3 write with blosc lz4 shuffle typesize 4: the written configuration is valid (shuffle a string, a typesize recorded) and chunks are c-blosc buffers whose header sizes agree", [LE, blosc_codec("lz4", 5, "shuffle", 4, 0)], {"question": "spec-write"}),
    ("v3/codecs/write-blosc-bitshuffle-float64", ["V3-BLOSC-002", "V3-BLOSC-004", "V3-BLOSC-001"], "v3 write with blosc zstd bitshuffle typesize 8 on float64: chunks read back bit-exactly", [LE, blosc_codec("zstd", 3, "bitshuffle", 8, 0)], {"question": "spec-write", "data_type": "float64", "fill": 0.5}),
    ("v3/codecs/write-blosc-noshuffle-no-typesize", ["V3-BLOSC-003"], "v3 write of uint8 with blosc noshuffle and no typesize member: the written pipeline is [bytes, blosc] (the writer may record a typesize and an endian of its choice) and reads back exactly", [LE, blosc_codec("blosclz", 9, "noshuffle", None, 0)], {"question": "spec-write", "data_type": "uint8", "fill": 42}),
    ("v3/codecs/write-crc32c-no-parameters", ["V3-CRC-001", "V3-CRC-002"], "v3 write with [bytes, crc32c] on int32: the pipeline is written as bytes then crc32c and every chunk ends with the CRC-32C of the bytes before it", [LE, CRC32C], {"question": "spec-write", "each_chunk": {"crc32c_suffix": True}, "exact_basis": ["V3-CRC-002"]}),
    ("v3/codecs/write-crc32c-round-trip", ["V3-CRC-002", "V3-BYTES-004"], "v3 write with [bytes, crc32c] on float32: every chunk is 64 data bytes followed by their little-endian CRC-32C (68 bytes), interior chunks exactly", [LE, CRC32C], {"question": "spec-write", "data_type": "float32", "fill": 0.5, "each_chunk": {"crc32c_suffix": True, "size": 68}, "interior_equal": True, "exact_basis": ["V3-CRC-002", "V3-BYTES-004"]}),
    ("v3/codecs/write-bytes-big-endian", ["V3-BYTES-001", "V3-BYTES-003", "V3-BYTES-004"], "v3 write with bytes endian big on int64: interior chunks are exactly the big-endian C-order bytes, every chunk 128 bytes (int64 min and max included)", [BE], {"question": "spec-write", "data_type": "int64", "each_chunk": {"size": 128}, "interior_equal": True, "exact_basis": ["V3-BYTES-003", "V3-BYTES-004"]}),
    ("v3/codecs/write-bytes-uint8-no-endian", ["V3-BYTES-002"], "v3 write of uint8 with {'name': 'bytes'}: valid without endian (a writer may also record one) and reads back exactly", [RAW], {"question": "spec-write", "data_type": "uint8", "fill": 42}),
    ("v3/codecs/write-transpose-10-int32", ["V3-TRANS-003", "V3-TRANS-002"], "v3 write of arange(6).reshape(2,3) int32 with [transpose [1,0], bytes little]: the chunk is exactly the v2 order-F bytes 00 03 01 04 02 05 (as int32 LE)", [transpose([1, 0]), LE], {"question": "spec-write", "shape": (2, 3), "chunks": (2, 3), "data": lambda rng: np.arange(6, dtype="i4").reshape(2, 3), "interior_equal": True, "exact_basis": ["V3-TRANS-002", "V3-TRANS-003"]}),
    ("v3/codecs/write-transpose-201-rank3", ["V3-TRANS-002", "V3-BYTES-004"], "v3 write of uint8 (5,6,7) in (2,3,4) chunks with transpose [2,0,1]: interior chunks are exactly the permuted bytes, every chunk (edge ones too) 24 bytes", [transpose([2, 0, 1]), RAW], {"question": "spec-write", "data_type": "uint8", "fill": 42, "shape": (5, 6, 7), "chunks": (2, 3, 4), "each_chunk": {"size": 24}, "interior_equal": True, "exact_basis": ["V3-TRANS-002", "V3-BYTES-004"]}),
    # ---- sharding --------------------------------------------------------------------------------------------
    ("v3/sharding/write-keys-per-shard", ["V3-SHARD-014", "V3-SHARD-009"], "v3 sharded write of (8,12) in [4,6] shards of [2,3] inner chunks: exactly zarr.json and c/0/0 c/0/1 c/1/0 c/1/1, one key per shard and none per inner chunk", [sharding((2, 3), [LE], [LE, CRC32C])], {"question": "spec-write", "shape": (8, 12), "chunks": (4, 6), "forbidden_keys": ["c/0/0/0/0", "c/0/0/0", "c/2/0"]}),
    ("v3/sharding/write-configuration-members", ["V3-SHARD-015", "V3-SHARD-001", "V3-SHARD-010"], "v3 sharded write with index_location start: the sharding configuration holds only chunk_shape, codecs, index_codecs and index_location, with no write-strategy settings", [_SHARD], {"question": "spec-write", "shape": (8, 12), "chunks": (4, 6)}),
    ("v3/sharding/write-recommended-index-codecs", ["V3-SHARD-005"], "v3 sharded write with the recommended index_codecs [bytes little, crc32c]: the index reads back with a valid checksum and the written index_codecs mean the same", [sharding((2, 2), [LE], [LE, CRC32C])], {"question": "should", "data_type": "float64", "fill": 0.5, "shape": (8, 8), "chunks": (4, 4), "tier": "optional"}),
    ("v3/sharding/write-edge-shard", ["V3-SHARD-008", "V3-SHARD-009"], "v3 sharded write of int64 (10,) in (8,) shards of (2,) inner chunks: the edge shard c/1 keeps a full 4-entry index (68 bytes with crc32c)", [sharding((2,), [LE], [LE, CRC32C])], {"question": "spec-write", "data_type": "int64", "shape": (10,), "chunks": (8,)}),
    ("v3/sharding/write-nested", ["V3-SHARD-013"], "v3 write with two-level sharding ([8,8] shards of [4,4] inner shards of [2,2] chunks) reads back exactly", [sharding((4, 4), [sharding((2, 2), [LE], [LE, CRC32C])], [LE, CRC32C])], {"question": "spec-write", "data_type": "uint16", "fill": 42, "shape": (10, 16), "chunks": (8, 8)}),
    ("v3/sharding/write-transpose-then-sharding", ["V3-TRANS-004"], "v3 write with [transpose [1,0], sharding chunk_shape [8,2]] on [4,8] chunks reads back exactly", [transpose([1, 0]), sharding((8, 2), [LE], [LE, CRC32C])], {"question": "spec-write", "shape": (6, 13), "chunks": (4, 8)}),
]
# fmt: on

each(_write, WRITES)


def _mostly_fill(rng):
    """(8,8) float32 where inner chunk (0,0) of shard c/0/0 and all of shard c/1/1 are fill; the
    rest never equals it."""
    values = sample(rng, (8, 8), "f4", avoid=np.float32(0.5))
    values[:2, :2] = 0.5
    values[4:, 4:] = 0.5
    return values


with verdict(question="spec-write"):
    _write(
        "v3/sharding/write-empty-inner-chunks",
        ["V3-SHARD-007", "V3-SHARD-017"],
        "v3 sharded write where one inner chunk and one whole shard equal the fill: they read back as fill whether "
        "the writer marks them empty, stores them or drops the shard",
        [sharding((2, 2), [LE], [LE, CRC32C])],
        data_type="float32",
        fill=0.5,
        shape=(8, 8),
        chunks=(4, 4),
        exact_keys=False,
        data=_mostly_fill,
        required_keys=["zarr.json", "c/0/0", "c/0/1", "c/1/0"],
    )
