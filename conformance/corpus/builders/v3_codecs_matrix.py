"""The v3 data type x codec pipeline read matrix (ids v3/pipeline/matrix-<pipeline>-<type>).

Every case is the same (9,13) array in (4,6) chunks, a 3x3 chunk grid with edge chunks whose
overhang is junk and two chunks (one inside, one on the edge) missing, encoded by hand with one
pipeline. Sharded cases use (2,3) inner chunks: some inner chunks are marked empty (they read as
the fill), inner chunks wholly outside the array are either empty or full of junk.
"""

from __future__ import annotations

import numpy as np

from ..data import sample
from .v3_codecs_kit import (
    BE,
    CRC32C,
    FILLS,
    LE,
    RAW,
    blosc_codec,
    fill_bits,
    gzip_codec,
    needs_for,
    outside_inner,
    put_chunks,
    read_case,
    sharding,
    transpose,
    zstd_codec,
)
from .v3_kit import array_doc, numpy_dtype

SHAPE, CHUNKS, INNER = (9, 13), (4, 6), (2, 3)
SKIP = {(1, 1), (2, 0)}
TYPES = (
    "int8",
    "uint16",
    "int32",
    "int64",
    "uint64",
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
    "bool",
)


def _le(data_type: str) -> dict:
    """The little-endian bytes codec; one-byte types use the form with no configuration."""
    return RAW if numpy_dtype(data_type).itemsize == 1 else LE


# name -> (codecs for a data type, requirements, words for the description)
PIPELINES = {
    "bytes-le": (
        lambda t: [_le(t)],
        ["V3-BYTES-001", "V3-BYTES-002", "V3-BYTES-003", "V3-PIPE-003"],
        "bytes (little-endian, or no configuration for one-byte types)",
    ),
    "bytes-be": (lambda t: [BE], ["V3-BYTES-001", "V3-BYTES-003"], "bytes with endian big"),
    "transpose-bytes": (
        lambda t: [transpose([1, 0]), _le(t)],
        ["V3-TRANS-002", "V3-PIPE-002"],
        "transpose [1,0] then bytes",
    ),
    "gzip": (
        lambda t: [_le(t), gzip_codec(5)],
        ["V3-GZIP-001", "V3-GZIP-002", "V3-PIPE-002"],
        "bytes then gzip level 5 (RFC 1952 members, mtime 0)",
    ),
    "zstd": (
        lambda t: [_le(t), zstd_codec(3)],
        ["V3-ZSTD-001", "V3-ZSTD-002", "V3-PIPE-002"],
        "bytes then zstd level 3",
    ),
    "blosc-lz4-shuffle": (
        lambda t: [_le(t), blosc_codec("lz4", 5, "shuffle", numpy_dtype(t).itemsize, 0)],
        ["V3-BLOSC-001", "V3-BLOSC-002", "V3-BLOSC-004", "V3-PIPE-002"],
        "bytes then blosc lz4 with byte shuffle and typesize = item size",
    ),
    "crc32c": (
        lambda t: [_le(t), CRC32C],
        ["V3-CRC-001", "V3-CRC-002", "V3-PIPE-002"],
        "bytes then crc32c (checksum appended, little-endian)",
    ),
    "shard-end": (
        lambda t: [sharding(INNER, [_le(t)], [LE], "end")],
        [
            "V3-SHARD-001",
            "V3-SHARD-006",
            "V3-SHARD-007",
            "V3-SHARD-008",
            "V3-SHARD-009",
            "V3-SHARD-014",
        ],
        "sharding_indexed with (2,3) inner chunks and a [bytes] index at the end",
    ),
    "shard-start-crc": (
        lambda t: [sharding(INNER, [_le(t)], [LE, CRC32C], "start")],
        [
            "V3-SHARD-001",
            "V3-SHARD-006",
            "V3-SHARD-007",
            "V3-SHARD-008",
            "V3-SHARD-009",
            "V3-SHARD-010",
            "V3-SHARD-014",
        ],
        "sharding_indexed with (2,3) inner chunks and a [bytes, crc32c] index at the start",
    ),
}


def _empty_inner(index):
    """Inner chunks to leave empty in shard `index`: in shards with an even index sum, inner chunk
    (1,0) and those wholly outside the array; in the others none (outside ones then hold junk)."""
    if sum(index) % 2:
        return set()
    return {(1, 0)} | outside_inner(index, CHUNKS, INNER, SHAPE)


def _matrix_case(pipeline: str, data_type: str) -> None:
    make_codecs, requirements, words = PIPELINES[pipeline]
    dtype = numpy_dtype(data_type)
    fill = FILLS[data_type]

    def build(w):
        fb = fill_bits(fill, dtype)
        if dtype == np.bool_:
            data = w.rng.integers(0, 2, SHAPE).astype(bool)
        else:
            data = sample(w.rng, SHAPE, dtype, avoid=fb)
        doc = array_doc(SHAPE, CHUNKS, data_type, fill, codecs=make_codecs(data_type))
        w.expect_array(put_chunks(w, doc, data, fb, skip=SKIP, empty_inner=_empty_inner))

    requirements = [*requirements, "V3-DT-001", "V3-FILL-009", "V3-GRID-006"]
    what = "shards and empty inner chunks" if pipeline.startswith("shard") else "chunks"
    # zstd is a registered extension, float16 a data type the core marks optional
    question = (
        "registered-extension"
        if pipeline == "zstd"
        else "optional-data-type"
        if data_type == "float16"
        else "spec-read"
    )
    needs = [f"dtype:{data_type}", *needs_for(make_codecs(data_type))]
    read_case(
        f"v3/pipeline/matrix-{pipeline}-{data_type}",
        requirements,
        f"v3 {data_type} (9,13) in (4,6) chunks with {words}: missing {what} read as fill {fill}, "
        f"edge overhang is junk, values bit-exact",
        build,
        needs=needs,
        question=question,
    )


for _pipeline in PIPELINES:
    for _type in TYPES:
        _matrix_case(_pipeline, _type)
