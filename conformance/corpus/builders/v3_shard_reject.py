"""v3 `sharding_indexed` stores that must not open or read (V3-SHARD-001..004, V3-SHARD-016,
V3-TRANS-004): malformed configurations, and shards whose index or inner chunks are corrupt. Each
case has one fault in an otherwise valid store. Ids v3/sharding/reject-<case>."""

from __future__ import annotations

import struct

import numpy as np

from ..generator import verdict
from .v3_codecs_kit import (
    BE,
    CRC32C,
    LE,
    RAW,
    assemble_shard,
    blosc_codec,
    encode,
    gzip_codec,
    needs_for,
    sharding,
    transpose,
    with_crc,
    zstd_codec,
)
from .v3_kit import array_doc, reject_case

BASE = sharding((2, 3), [LE], [LE, CRC32C])["configuration"]


def _config(slug, reason, requirements, description, changes):
    """A sharding configuration fault (open stage): BASE with `changes` (None deletes a member).
    `codecs` replaces the whole codec list; `data_type`, `shape`, `chunks` and `tier` the array's."""
    changes = dict(changes)
    opts = {k: changes.pop(k, d) for k, d in _ARRAY.items()}
    codecs = opts["codecs"]
    if codecs is None:
        conf = {**BASE, **changes}
        conf = {k: v for k, v in conf.items() if v is not None}
        codecs = [{"name": "sharding_indexed", "configuration": conf}]
    data_type = opts["data_type"]
    reject_case(
        f"v3/sharding/reject-{slug}",
        array_doc(opts["shape"], opts["chunks"], data_type, 0, codecs=codecs),
        reason,
        requirements.split(),
        f"v3 sharded array {description} is rejected on open",
        tier=opts["tier"],
        needs=[f"dtype:{data_type}", *needs_for(codecs)],
    )


_ARRAY = {"codecs": None, "data_type": "int32", "shape": (4, 6), "chunks": (4, 6), "tier": None}
_NO_INNER = {k: v for k, v in BASE.items() if k != "codecs"}

# "v3 sharded array <description> is rejected on open"
# fmt: off
CONFIG_FAULTS = [
    # slug, question, tests, reason, requirements, description, changes to BASE (or to the array)
    # configuration members (V3-SHARD-001)
    ("missing-index-codecs", "missing-member", "index_codecs", "invalid-codec", "V3-SHARD-001", "without index_codecs (the pre-July-2023 form)", {"index_codecs": None}),
    ("missing-codecs", "missing-member", "codecs", "invalid-codec", "V3-SHARD-001", "without inner codecs", {"codecs": [{"name": "sharding_indexed", "configuration": _NO_INNER}]}),
    ("missing-chunk-shape", "missing-member", "chunk_shape", "invalid-codec", "V3-SHARD-001 V3-SHARD-002", "without chunk_shape", {"chunk_shape": None}),
    ("index-location-middle", "invalid-value", "index_location", "invalid-codec", "V3-SHARD-001", "with index_location 'middle'", {"index_location": "middle"}),
    ("index-location-uppercase", "case-variant", "index_location", "invalid-codec", "V3-SHARD-001", "with index_location 'END'", {"index_location": "END"}),
    # null kept in the document (a None change would delete the member)
    ("index-location-null", "null-optional", "index_location", "invalid-codec", "V3-SHARD-001", "with index_location null", {"codecs": [{"name": "sharding_indexed", "configuration": {**BASE, "index_location": None}}]}),
    ("no-configuration", "missing-member", "configuration", "invalid-codec", "V3-SHARD-001", "with a sharding_indexed codec without configuration", {"codecs": [{"name": "sharding_indexed"}]}),
    ("write-order-member", "unknown-configuration-member", "write strategy", "invalid-codec", "V3-SHARD-015 V3-SHARD-001", "whose configuration carries the write-strategy member 'order': 'morton'", {"order": "morton"}),
    # the inner chunk shape (V3-SHARD-002, V3-TRANS-004)
    ("inner-shape-not-dividing", "codec-input", "chunk_shape", "invalid-chunk-shape", "V3-SHARD-002", "with inner chunk_shape [3] in [8] shards", {"shape": (16,), "chunks": (8,), "codecs": [sharding((3,), [LE], [LE, CRC32C])]}),
    ("inner-shape-rank", "codec-input", "chunk_shape", "invalid-chunk-shape", "V3-SHARD-002", "with inner chunk_shape [2] in rank-2 [4,6] shards", {"chunk_shape": [2]}),
    ("inner-shape-zero", "codec-input", "chunk_shape", "invalid-chunk-shape", "V3-SHARD-002", "with inner chunk_shape [0,3]", {"chunk_shape": [0, 3]}),
    ("inner-shape-larger", "codec-input", "chunk_shape", "invalid-chunk-shape", "V3-SHARD-002", "with inner chunk_shape [8,6] larger than the [4,6] shard", {"chunk_shape": [8, 6]}),
    # a sharding codec inside another is validated like the outer one (zarr-python before 3.4.1 read fill or wrong data)
    ("nested-inner-not-dividing", "codec-input", "chunk_shape", "invalid-chunk-shape", "V3-SHARD-002", "whose nested sharding codec has inner chunk_shape [3] in the [8] chunks of the outer shard", {"shape": (16,), "chunks": (16,), "codecs": [sharding((8,), [sharding((3,), [LE], [LE, CRC32C])], [LE, CRC32C])]}),
    ("nested-inner-shape-zero", "codec-input", "chunk_shape", "invalid-chunk-shape", "V3-SHARD-002", "whose nested sharding codec has inner chunk_shape [0]", {"shape": (16,), "chunks": (16,), "codecs": [sharding((8,), [sharding((0,), [LE], [LE, CRC32C])], [LE, CRC32C])]}),
    ("inner-shape-floats", "integer-as-float", "chunk_shape", "invalid-chunk-shape", "V3-SHARD-002", "with inner chunk_shape [2.0,3.0]", {"chunk_shape": [2.0, 3.0]}),
    ("transpose-untransposed-inner", "codec-input", "chunk_shape", "invalid-chunk-shape", "V3-TRANS-004 V3-SHARD-002", "with chunks [4,8] and [transpose [1,0], sharding chunk_shape [4,8]] (fits only the untransposed shape)", {"shape": (4, 8), "chunks": (4, 8), "codecs": [transpose([1, 0]), sharding((4, 8), [LE], [LE, CRC32C])]}),
    ("transpose-inner-2-8", "codec-input", "chunk_shape", "invalid-chunk-shape", "V3-TRANS-004 V3-SHARD-002", "with chunks [4,8] and [transpose [1,0], sharding chunk_shape [2,8]] (8 does not divide the transposed 4)", {"shape": (4, 8), "chunks": (4, 8), "codecs": [transpose([1, 0]), sharding((2, 8), [LE], [LE, CRC32C])]}),
    # inner and index codec lists (V3-SHARD-003, V3-SHARD-004)
    ("inner-codecs-gzip-only", "codec-order", "codecs", "codec-order", "V3-SHARD-003", "with inner codecs [gzip]", {"codecs": [sharding((2, 3), [gzip_codec(1)], [LE, CRC32C])]}),
    ("inner-codecs-two-bytes", "codec-order", "codecs", "codec-order", "V3-SHARD-003", "with inner codecs [bytes, bytes]", {"codecs": [sharding((2, 3), [LE, LE], [LE, CRC32C])]}),
    ("inner-codecs-gzip-bytes", "codec-order", "codecs", "codec-order", "V3-SHARD-003 V3-PIPE-001", "with inner codecs [gzip, bytes]", {"codecs": [sharding((2, 3), [gzip_codec(1), LE], [LE, CRC32C])]}),
    ("index-codecs-crc32c-only", "codec-order", "array -> bytes", "codec-order", "V3-SHARD-003", "with index_codecs [crc32c]", {"index_codecs": [CRC32C]}),
    ("index-codecs-empty", "codec-order", "array -> bytes", "codec-order", "V3-SHARD-003", "with index_codecs []", {"index_codecs": []}),
    ("index-codecs-crc32c-bytes", "codec-order", "array -> bytes", "codec-order", "V3-SHARD-003", "with index_codecs [crc32c, bytes]", {"index_codecs": [CRC32C, LE]}),
    ("index-codecs-gzip", "codec-input", "index_codecs", "invalid-codec", "V3-SHARD-004", "with index_codecs [bytes, gzip] (a compressor)", {"codecs": [sharding((2, 3), [LE], [LE, gzip_codec(1)])]}),
    ("index-codecs-blosc", "codec-input", "index_codecs", "invalid-codec", "V3-SHARD-004", "with index_codecs [bytes, blosc]", {"codecs": [sharding((2, 3), [LE], [LE, blosc_codec("lz4", 5, "shuffle", 8, 0)])]}),
    ("index-codecs-zstd", "codec-input", "index_codecs", "invalid-codec", "V3-SHARD-004", "with index_codecs [bytes, zstd]", {"tier": "extension", "codecs": [sharding((2, 3), [LE], [LE, zstd_codec(1)])]}),
    ("index-codecs-bytes-no-endian", "byte-order-unspecified", "endian", "invalid-codec", "V3-SHARD-006 V3-BYTES-002", "with index_codecs [{'name': 'bytes'}] (the uint64 index needs an endian)", {"index_codecs": [RAW]}),
    ("inner-bytes-no-endian", "byte-order-unspecified", "endian", "invalid-codec", "V3-BYTES-002 V3-SHARD-012", "of int16 with inner codecs [{'name': 'bytes'}] (int16 needs an endian)", {"data_type": "int16", "codecs": [sharding((2, 3), [RAW], [LE, CRC32C])]}),
]
# fmt: on

for _slug, _question, _tests, *_row in CONFIG_FAULTS:
    with verdict(question=_question, tests=_tests):
        _config(_slug, *_row)


# ---- corrupt shards (V3-SHARD-016 and friends, stage read) -----------------------------------------------


def _shard_fault(slug, reason, requirements, description, mutate, conf=BASE):
    """A (4,6) int32 array in one [4,6] shard with [2,3] inner chunks; `mutate(shard) -> bytes`."""
    codecs = [{"name": "sharding_indexed", "configuration": conf}]
    data = (np.arange(24).reshape(4, 6) * 3 + 1).astype(np.dtype("int32"))
    reject_case(
        f"v3/sharding/reject-{slug}",
        array_doc((4, 6), (4, 6), "int32", 0, codecs=codecs),
        reason,
        requirements.split(),
        description,
        stage="read",
        needs=["dtype:int32", *needs_for(codecs)],
        extra={"c/0/0": mutate(encode(data, codecs))},
    )


def _patch_entry(shard: bytes, entry: int, offset=None, nbytes=None, index_at=None) -> bytes:
    """Rewrite one (offset, nbytes) pair of a [bytes, crc32c] end index and fix its CRC."""
    index_at = len(shard) - 68 if index_at is None else index_at
    table = bytearray(shard[index_at : index_at + 64])
    old_offset, old_nbytes = struct.unpack_from("<QQ", table, 16 * entry)
    struct.pack_into(
        "<QQ",
        table,
        16 * entry,
        old_offset if offset is None else offset,
        old_nbytes if nbytes is None else nbytes,
    )
    return shard[:index_at] + with_crc(bytes(table)) + shard[index_at + 68 :]


def _truncate_last_inner(shard: bytes, cut: int) -> bytes:
    """Remove `cut` bytes from the end of the last stored inner chunk and shrink its nbytes."""
    index_at = len(shard) - 68
    offset, nbytes = struct.unpack_from("<QQ", shard, index_at + 48)
    body = shard[: offset + nbytes - cut] + shard[offset + nbytes : index_at]
    return _patch_entry(body + shard[index_at:], 3, nbytes=nbytes - cut)


def _flip(shard: bytes, at: int) -> bytes:
    return shard[:at] + bytes([shard[at] ^ 0x01]) + shard[at + 1 :]


_START = {**BASE, "index_location": "start"}
_GZ_INNER = {**BASE, "codecs": [LE, gzip_codec(1)]}
_CRC_INNER = {**BASE, "codecs": [LE, CRC32C]}

# fmt: off
SHARD_FAULTS = [
    # slug, question, tests, reason, requirements, description, how the shard's bytes are damaged[, configuration]
    ("index-checksum-wrong", "checksum-mismatch", "checksum", "checksum-mismatch", "V3-SHARD-016 V3-CRC-003", "v3 shard whose index has one offset byte changed (its CRC-32C no longer matches) fails on read", lambda s: _flip(s, len(s) - 68 + 16)),
    ("index-crc-bytes-wrong", "checksum-mismatch", "checksum", "checksum-mismatch", "V3-SHARD-016 V3-CRC-003", "v3 shard whose index CRC-32C itself has a flipped bit fails on read", lambda s: _flip(s, len(s) - 2)),
    ("nbytes-past-end", "corrupt-chunk", "offset", "corrupt-shard-index", "V3-SHARD-016", "v3 shard whose last inner chunk's nbytes runs 1000 bytes past the end of the shard (valid CRC) fails on read", lambda s: _patch_entry(s, 3, nbytes=1000)),
    ("offset-past-end", "corrupt-chunk", "offset", "corrupt-shard-index", "V3-SHARD-016", "v3 shard whose inner chunk offset lies beyond the shard (valid CRC) fails on read", lambda s: _patch_entry(s, 1, offset=10_000)),
    ("offset-huge", "corrupt-chunk", "offset", "corrupt-shard-index", "V3-SHARD-016", "v3 shard whose inner chunk offset is 2^63 (offset + nbytes overflows int64) fails on read", lambda s: _patch_entry(s, 0, offset=2**63)),
    ("half-empty-entry", "corrupt-chunk", "offset", "corrupt-shard-index", "V3-SHARD-007 V3-SHARD-016", "v3 shard whose index entry has offset 2^64-1 but a real nbytes (only one field marks empty) fails on read", lambda s: _patch_entry(s, 2, offset=2**64 - 1)),
    ("shorter-than-index", "corrupt-chunk", "offset", "corrupt-shard-index", "V3-SHARD-016 V3-SHARD-009", "v3 shard value of 40 bytes (the [bytes, crc32c] index alone needs 68) fails on read", lambda s: s[-40:]),
    ("empty-value", "corrupt-chunk", "offset", "corrupt-shard-index", "V3-SHARD-016 V3-SHARD-009", "v3 shard stored as an empty (0-byte) value fails on read", lambda s: b""),
    ("inner-nbytes-short", "corrupt-chunk", "inner chunks", "corrupt-chunk", "V3-SHARD-012 V3-BYTES-004", "v3 shard whose inner chunk (0,0) entry says 20 bytes for a 24-byte [2,3] int32 chunk fails on read", lambda s: _patch_entry(s, 0, nbytes=20)),
    ("index-not-at-end", "checksum-mismatch", "checksum", "checksum-mismatch", "V3-SHARD-009 V3-SHARD-016", "v3 shard (index_location end) whose index was written at the start fails on read", lambda s: s[-68:] + s[:-68]),
    ("index-start-offset-into-index", "spec-silent", "offset", "corrupt-shard-index", "V3-SHARD-010 V3-SHARD-016", "v3 shard with the index at the start whose first entry points at offset 0 (inside the index) fails on read", lambda s: _patch_entry(s, 0, offset=0, index_at=0)[:68] + s[68:], _START),
    ("inner-gzip-truncated", "corrupt-chunk", "inner chunks", "corrupt-chunk", "V3-SHARD-012 V3-GZIP-002", "v3 shard whose gzip inner chunk (1,1) is cut short by 4 bytes (index adjusted) fails on read", lambda s: _truncate_last_inner(s, 4), _GZ_INNER),
    ("inner-crc32c-bit-flip", "checksum-mismatch", "checksum", "checksum-mismatch", "V3-SHARD-012 V3-CRC-003", "v3 shard whose inner chunk (0,0) carries a crc32c and has one payload bit flipped fails on read", lambda s: _flip(s, 3), _CRC_INNER),
]
# fmt: on

for _slug, _question, _tests, *_row in SHARD_FAULTS:
    with verdict(question=_question, tests=_tests):
        _shard_fault(_slug, *_row)


# a shard whose inner chunks are fine but whose trailing index is big-endian while the metadata says little
_BE_SHARD = assemble_shard(
    {(0, 0): np.arange(6, dtype="<i4").tobytes()}, {**BASE, "index_codecs": [BE, CRC32C]}, (2, 2)
)
with verdict(question="corrupt-chunk", tests="index"):
    reject_case(
        "v3/sharding/reject-index-wrong-endian",
        array_doc(
            (4, 6), (4, 6), "int32", 0, codecs=[{"name": "sharding_indexed", "configuration": BASE}]
        ),
        "corrupt-shard-index",
        ["V3-SHARD-006", "V3-SHARD-016"],
        "v3 shard whose index was written big-endian while index_codecs say little fails on read",
        stage="read",
        needs=["dtype:int32", "codec:sharding_indexed", "codec:bytes", "codec:crc32c"],
        extra={"c/0/0": _BE_SHARD},
    )
