"""v3 write cases for the plain sharded array a streaming writer produces: sharding_indexed with
the recommended [bytes little, crc32c] index at the end, bytes plus at most one core compressor
inside, named dimensions and fill value 0, in the common integer and float types, 2-D and 3-D, with
edge shards that overhang the array. These are the arrays acquisition writers (acquire-zarr) emit,
so every writer can be compared on them. The data never equals the fill, so every shard is
written; the reference reader checks each shard index (full shape, checksum) on the way back and
the written document is judged by meaning (write_semantics)."""

from __future__ import annotations

import numpy as np

from ..data import sample
from ..generator import add_case, verdict
from .table_kit import each
from .v3_codecs_kit import CRC32C, LE, blosc_codec, gzip_codec, needs_for, sharding
from .v3_kit import array_doc, default_key, grid


def _write(
    case_id,
    requirements,
    description,
    data_type,
    shape,
    shards,
    inner,
    inner_codecs,
    *,
    data=None,
    required_keys=None,
):
    """`data(rng)`: values that may hold the fill; then only `required_keys` are demanded (a shard
    that is all fill may be left out)."""
    codecs = [sharding(inner, inner_codecs, [LE, CRC32C], "end")]
    names = ["t", "z", "y", "x"][-len(shape) :]
    shard_keys = ["zarr.json", *map(default_key, np.ndindex(*grid(shape, shards)))]

    def build(w):
        zero = np.array(0, data_type)
        values = data(w.rng) if data else sample(w.rng, shape, np.dtype(data_type), avoid=zero)
        doc = array_doc(shape, shards, data_type, 0, codecs=codecs, dimension_names=names)
        w.expect_write(
            metadata=doc,
            data=values,
            keys=None if data else shard_keys,
            required_keys=required_keys or ["zarr.json"],
        )

    add_case(
        case_id,
        kind="write",
        build=build,
        requirements=requirements,
        description=description,
        needs=[f"dtype:{data_type}", "op:write", "feature:dimension-names", *needs_for(codecs)],
    )


_EDGE = ["V3-SHARD-008", "V3-SHARD-009", "V3-SHARD-005", "V3-ARR-008"]
# fmt: off
WRITES = [
    # case_id, requirements, description, data_type, shape, shard shape, inner chunk shape, inner codecs
    ("v3/sharding/write-named-uint8-2d-edge", _EDGE, "v3 sharded write of uint8 (10,13) named ['y','x'], fill 0, in [4,8] shards of [2,4] inner chunks with bytes: one key per shard, edge shards overhanging both dimensions keep a full index", "uint8", (10, 13), (4, 8), (2, 4), [LE]),
    ("v3/sharding/write-named-uint16-3d-edge", _EDGE, "v3 sharded write of uint16 (5,8,12) named ['z','y','x'], fill 0, in [2,8,6] shards of [1,4,3] inner chunks: the last shard along z is half outside the array", "uint16", (5, 8, 12), (2, 8, 6), (1, 4, 3), [LE]),
    ("v3/sharding/write-named-int32-blosc-zstd", [*_EDGE, "V3-BLOSC-004"], "v3 sharded write of int32 (3,9,10) named ['z','y','x'], fill 0, inner codecs [bytes, blosc zstd shuffle typesize 4] in [2,6,10] shards of [1,3,5] chunks reads back exactly", "int32", (3, 9, 10), (2, 6, 10), (1, 3, 5), [LE, blosc_codec("zstd", 3, "shuffle", 4, 0)]),
    ("v3/sharding/write-named-float32-blosc-lz4", [*_EDGE, "V3-BLOSC-004"], "v3 sharded write of float32 (6,10) named ['y','x'], fill 0, inner codecs [bytes, blosc lz4 bitshuffle typesize 4] in [4,8] shards of [2,4] chunks reads back bit-exactly", "float32", (6, 10), (4, 8), (2, 4), [LE, blosc_codec("lz4", 5, "bitshuffle", 4, 0)]),
    ("v3/sharding/write-named-int16-blosc-noshuffle", [*_EDGE, "V3-BLOSC-003"], "v3 sharded write of int16 (4,6,7) named ['z','y','x'], fill 0, inner codecs [bytes, blosc zstd noshuffle typesize 2] in [4,6,4] shards of [2,3,2] chunks reads back exactly", "int16", (4, 6, 7), (4, 6, 4), (2, 3, 2), [LE, blosc_codec("zstd", 1, "noshuffle", 2, 0)]),
    ("v3/sharding/write-named-int8-4d", [*_EDGE, "V3-BLOSC-004"], "v3 sharded write of int8 (3,2,5,6) named ['t','z','y','x'], fill 0, inner codecs [bytes, blosc lz4 shuffle typesize 1] in [2,2,4,6] shards of [1,1,2,3] chunks: edge shards along t and y", "int8", (3, 2, 5, 6), (2, 2, 4, 6), (1, 1, 2, 3), [LE, blosc_codec("lz4", 5, "shuffle", 1, 0)]),
    ("v3/sharding/write-named-uint64-3d-edge", _EDGE, "v3 sharded write of uint64 (3,7,5) named ['z','y','x'], fill 0, in [3,4,4] shards of [1,2,2] inner chunks with bytes (uint64 extremes included): edge shards along y and x", "uint64", (3, 7, 5), (3, 4, 4), (1, 2, 2), [LE]),
    ("v3/sharding/write-named-float64-gzip", [*_EDGE, "V3-GZIP-002"], "v3 sharded write of float64 (7,9) named ['y','x'], fill 0, inner codecs [bytes, gzip level 1] in [4,6] shards of [2,3] chunks reads back bit-exactly", "float64", (7, 9), (4, 6), (2, 3), [LE, gzip_codec(1)]),
    ("v3/sharding/write-named-uint32-inner-crc32c", [*_EDGE, "V3-CRC-002"], "v3 sharded write of uint32 (2,5,6) named ['z','y','x'], fill 0, inner codecs [bytes, crc32c] in [1,4,6] shards of [1,2,3] chunks: every inner chunk checksum verifies on the way back", "uint32", (2, 5, 6), (1, 4, 6), (1, 2, 3), [LE, CRC32C]),
]
# fmt: on

each(_write, WRITES, question="spec-write")


def _zero_blocks(rng):
    """uint16 (8,8) where inner chunk (0,0) of shard c/0/0 and all of shard c/1/1 are 0 (the
    fill); no other value is."""
    values = sample(rng, (8, 8), "u2", avoid=np.uint16(0))
    values[:2, :2] = 0
    values[4:, 4:] = 0
    return values


with verdict(question="spec-write"):
    _write(
        "v3/sharding/write-named-fill-inner-chunks",
        ["V3-SHARD-007", "V3-SHARD-017", "V3-SHARD-008", "V3-ARR-008"],
        "v3 sharded write of uint16 (8,8) named ['y','x'], fill 0, in [4,4] shards of [2,2] chunks where "
        "one inner chunk and one whole shard are 0: they read back as 0 whether the writer stores them, "
        "marks them empty (2^64-1) or leaves the shard out",
        "uint16",
        (8, 8),
        (4, 4),
        (2, 2),
        [LE],
        data=_zero_blocks,
        required_keys=["zarr.json", "c/0/0", "c/0/1", "c/1/0"],
    )
