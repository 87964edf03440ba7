"""v3 bytes->bytes codecs: gzip (V3-GZIP-*), blosc (V3-BLOSC-*), zstd (V3-ZSTD-*, zarr-extensions,
tier extension) and crc32c (V3-CRC-*). Chunks are compressed by hand (gzip with mtime 0,
numcodecs Blosc/Zstd with fixed settings, the crc32c package, a hand-written zstd frame)."""

from __future__ import annotations

import gzip
import io
import zlib

import numpy as np

from ..data import sample
from ..generator import verdict
from .table_kit import each
from .v3_codecs_kit import (
    CRC32C,
    LE,
    RAW,
    blosc_bytes,
    blosc_codec,
    crc_bytes,
    gzip_bytes,
    gzip_codec,
    needs_for,
    put_chunks,
    read_case,
    with_crc,
    zstd_bytes,
    zstd_codec,
    zstd_raw_frame,
)
from .v3_kit import array_doc, encode_block, reject_case

SHAPE, CHUNKS = (
    (20, 13),
    (16, 8),
)  # 2x2 grid with edge chunks; 128-element chunks so compressors compress


def compressible(rng, shape, dtype, fill) -> np.ndarray:
    """Sample data (extremes and special values first) where nine elements in ten are replaced by
    small integers 0..7, so that shuffling and compression do real work; never equal to `fill`."""
    data = sample(rng, shape, dtype, avoid=fill)
    small = rng.integers(0, 8, shape).astype(dtype)
    keep = np.zeros(shape, dtype=bool)
    keep.reshape(-1)[:8] = True
    replace = (rng.random(shape) < 0.9) & ~keep & (small != fill)
    data[replace] = small[replace]
    return data


def _chunked(
    slug,
    requirements,
    description,
    data_type,
    codecs,
    compress,
    *,
    tier=None,
    fill=-7,
    skip=((1, 0),),
    shape=SHAPE,
    chunks=CHUNKS,
):
    """An array of sample data whose chunks are `compress(bytes codec output)`, with junk
    overhang and missing chunks."""
    dtype = np.dtype(data_type)

    def build(w):
        fb = np.array(fill, dtype=dtype)
        data = compressible(w.rng, shape, dtype, fb)
        doc = array_doc(shape, chunks, data_type, fill, codecs=codecs)
        endian = (codecs[0].get("configuration") or {}).get("endian")
        w.expect_array(
            put_chunks(
                w,
                doc,
                data,
                fb,
                skip=set(skip),
                encoder=lambda block, index: compress(encode_block(block, endian)),
            )
        )

    read_case(
        f"v3/codecs/{slug}",
        requirements,
        description,
        build,
        tier=tier,
        needs=[f"dtype:{data_type}", *needs_for(codecs)],
    )


def _bad(
    slug,
    codecs,
    reason,
    requirements,
    description,
    *,
    tier=None,
    data_type="int32",
    stage="open",
    chunk: bytes | None = None,
):
    doc = array_doc((2,), (2,), data_type, 0, codecs=codecs)
    reject_case(
        f"v3/codecs/{slug}",
        doc,
        reason,
        requirements,
        description,
        stage=stage,
        tier=tier,
        needs=[f"dtype:{data_type}", *needs_for(codecs)],
        extra={"c/0": chunk} if chunk is not None else None,
    )


TWO_I4 = np.array([123456789, -5], "<i4").tobytes()  # the one chunk of the (2,) int32 reject arrays

# ---- gzip (V3-GZIP-001/002) -----------------------------------------------------------------------

# fmt: off
GZIP = [
    # slug, requirements, description, data_type, codecs, compress[, options]
    ("gzip-level-1", ["V3-GZIP-001", "V3-GZIP-002"], "v3 int32 with [bytes, gzip level 1]: chunks made by gzip.compress (1f 8b 08, mtime 0) decode", "int32", [LE, gzip_codec(1)], lambda raw: gzip_bytes(raw, 1)),
    ("gzip-level-0-stored", ["V3-GZIP-001", "V3-GZIP-002"], "v3 float64 with gzip level 0: stored (uncompressed) deflate blocks in gzip members decode", "float64", [LE, gzip_codec(0)], lambda raw: gzip_bytes(raw, 0), {"fill": 0.5}),
    ("gzip-level-mismatch", ["V3-GZIP-001"], "v3 uint16 with gzip level 1 in the metadata but chunks compressed at level 9: the level only affects writing", "uint16", [LE, gzip_codec(1)], lambda raw: gzip_bytes(raw, 9), {"fill": 42}),
]
# fmt: on

each(_chunked, GZIP, question="spec-read")


def _gzip_with_header(raw: bytes) -> bytes:
    """A gzip member with a file name, a modification time and OS byte: optional header fields a
    reader must skip (RFC 1952 FNAME)."""
    buf = io.BytesIO()
    with gzip.GzipFile(
        filename="chunk.bin", mode="wb", fileobj=buf, mtime=1700000000, compresslevel=6
    ) as f:
        f.write(raw)
    return buf.getvalue()


# fmt: off
GZIP_HEADERS = [
    # slug, requirements, description, data_type, codecs, compress[, options]
    ("gzip-header-fname-mtime", ["V3-GZIP-002"], "v3 int32 with gzip chunks whose members carry FNAME 'chunk.bin' and a non-zero mtime decode", "int32", [LE, gzip_codec(5)], _gzip_with_header, {"question": "spec-read"}),
    ("gzip-two-members", ["V3-GZIP-002"], "v3 int32 with gzip chunks made of two concatenated gzip members (RFC 1952 allows several) decode to their concatenation", "int32", [LE, gzip_codec(5)], lambda raw: gzip_bytes(raw[: len(raw) // 2], 5) + gzip_bytes(raw[len(raw) // 2 :], 5), {"question": "should", "tier": "optional"}),
]
# fmt: on

each(_chunked, GZIP_HEADERS)

with verdict(question="encoder-parameter", tests="level"):
    for _level in (10, -1):
        _bad(
            f"reject-gzip-level-{_level}".replace("--", "-minus-"),
            [LE, gzip_codec(_level)],
            "invalid-codec",
            ["V3-GZIP-001"],
            f"v3 gzip level {_level} (outside 0..9) is rejected on open",
        )
# fmt: off
GZIP_REJECTS = [
    # slug, codecs, reason, requirements, description[, options]
    ("reject-gzip-level-string", [LE, {"name": "gzip", "configuration": {"level": "5"}}], "invalid-codec", ["V3-GZIP-001"], "v3 gzip level '5' (a string) is rejected on open", {"tests": "level", "question": "encoder-parameter"}),
    ("reject-gzip-level-float", [LE, {"name": "gzip", "configuration": {"level": 1.5}}], "invalid-codec", ["V3-GZIP-001"], "v3 gzip level 1.5 is rejected on open", {"tests": "level", "question": "encoder-parameter"}),
    ("reject-gzip-level-missing", [LE, {"name": "gzip", "configuration": {}}], "invalid-codec", ["V3-GZIP-001"], "v3 gzip configuration without level is rejected on open", {"tests": "level", "question": "encoder-parameter"}),
    ("reject-gzip-zlib-stream", [LE, gzip_codec(5)], "corrupt-chunk", ["V3-GZIP-002"], "v3 gzip codec with a zlib-wrapped chunk (78 9c, RFC 1950) fails on read (readers differ: recorded)", {"question": "foreign-container", "stage": "read", "chunk": zlib.compress(TWO_I4, 6)}),
    ("reject-gzip-raw-deflate", [LE, gzip_codec(5)], "corrupt-chunk", ["V3-GZIP-002"], "v3 gzip codec with a raw deflate chunk (no container) fails on read", {"question": "foreign-container", "stage": "read", "chunk": zlib.compress(TWO_I4, 6)[2:-4]}),
    ("reject-gzip-truncated", [LE, gzip_codec(5)], "corrupt-chunk", ["V3-GZIP-002"], "v3 gzip chunk cut short (last 6 bytes missing) fails on read", {"tests": "gzip", "question": "corrupt-chunk", "stage": "read", "chunk": gzip_bytes(TWO_I4, 5)[:-6]}),
    ("reject-gzip-bad-trailer-crc", [LE, gzip_codec(5)], "corrupt-chunk", ["V3-GZIP-002"], "v3 gzip chunk whose member trailer CRC-32 is wrong fails on read", {"question": "checksum-mismatch", "stage": "read", "chunk": (lambda g: g[:-8] + bytes([g[-8] ^ 0xFF]) + g[-7:])(gzip_bytes(TWO_I4, 5))}),
    ("reject-gzip-wrong-size", [LE, gzip_codec(5)], "corrupt-chunk", ["V3-GZIP-002", "V3-BYTES-004"], "v3 gzip chunk that inflates to 12 bytes for a (2,) int32 chunk (8 expected) fails on read", {"tests": "gzip", "question": "corrupt-chunk", "stage": "read", "chunk": gzip_bytes(TWO_I4 + b"\x01\x02\x03\x04", 5)}),
    ("reject-gzip-junk-after-member", [LE, gzip_codec(5)], "corrupt-chunk", ["V3-GZIP-002"], "v3 gzip chunk followed by 5 junk bytes fails on read", {"question": "trailing-junk", "stage": "read", "chunk": gzip_bytes(TWO_I4, 5) + b"junk!"}),
]
# fmt: on

each(_bad, GZIP_REJECTS)

# ---- blosc (V3-BLOSC-001..005) ---------------------------------------------------------------------

# fmt: off
BLOSC = [
    # slug, requirements, description, data_type, codecs, compress[, options]
    ("blosc-lz4-shuffle-int32", ["V3-BLOSC-001", "V3-BLOSC-002", "V3-BLOSC-003", "V3-BLOSC-004"], "v3 int32 with blosc lz4 clevel 5 shuffle typesize 4 chunks decodes", "int32", [LE, blosc_codec("lz4", 5, "shuffle", 4, 0)], lambda raw: blosc_bytes(raw, "lz4", 5, "shuffle", 4, 0), {"question": "spec-read"}),
    ("blosc-zstd-bitshuffle-float64", ["V3-BLOSC-001", "V3-BLOSC-002", "V3-BLOSC-004"], "v3 float64 with blosc zstd clevel 3 bitshuffle typesize 8 chunks decodes (NaN payload, -0.0 exact)", "float64", [LE, blosc_codec("zstd", 3, "bitshuffle", 8, 0)], lambda raw: blosc_bytes(raw, "zstd", 3, "bitshuffle", 8, 0), {"question": "spec-read", "fill": 0.5}),
    ("blosc-blosclz-noshuffle-no-typesize", ["V3-BLOSC-003", "V3-BLOSC-001"], "v3 int64 with blosc blosclz noshuffle and no typesize member opens and decodes", "int64", [LE, blosc_codec("blosclz", 5, "noshuffle", None, 0)], lambda raw: blosc_bytes(raw, "blosclz", 5, "noshuffle", 1, 0), {"question": "spec-read"}),
    ("blosc-zlib-shuffle-uint16", ["V3-BLOSC-001", "V3-BLOSC-004"], "v3 uint16 with blosc zlib clevel 9 shuffle typesize 2 chunks decodes", "uint16", [LE, blosc_codec("zlib", 9, "shuffle", 2, 0)], lambda raw: blosc_bytes(raw, "zlib", 9, "shuffle", 2, 0), {"question": "spec-read", "fill": 42}),
    ("blosc-lz4hc-blocksize-128", ["V3-BLOSC-001", "V3-BLOSC-004"], "v3 int32 with blosc lz4hc and an explicit blocksize of 128 bytes (several blocks per chunk) decodes", "int32", [LE, blosc_codec("lz4hc", 5, "shuffle", 4, 128)], lambda raw: blosc_bytes(raw, "lz4hc", 5, "shuffle", 4, 128), {"question": "spec-read"}),
    ("blosc-clevel-0-memcpy", ["V3-BLOSC-001", "V3-BLOSC-004"], "v3 float32 with blosc clevel 0: chunks stored uncompressed (memcpy flag set) decode", "float32", [LE, blosc_codec("lz4", 0, "shuffle", 4, 0)], lambda raw: blosc_bytes(raw, "lz4", 0, "shuffle", 4, 0), {"question": "spec-read", "fill": 0.5}),
    ("blosc-typesize-differs-from-header", ["V3-BLOSC-005"], "v3 int32 with blosc typesize 4 in the metadata but chunks shuffled with typesize 8: decoding follows the self-describing header", "int32", [LE, blosc_codec("lz4", 5, "shuffle", 4, 0)], lambda raw: blosc_bytes(raw, "lz4", 5, "shuffle", 8, 0), {"question": "should", "tier": "optional"}),
    ("blosc-cname-differs-from-header", ["V3-BLOSC-005"], "v3 int32 with blosc cname lz4 in the metadata but chunks compressed with zstd inside blosc (recorded)", "int32", [LE, blosc_codec("lz4", 5, "shuffle", 4, 0)], lambda raw: blosc_bytes(raw, "zstd", 5, "shuffle", 4, 0), {"question": "should", "tier": "optional"}),
]
# fmt: on

each(_chunked, BLOSC)

# fmt: off
_BLOSC_BAD = [
    ("cname-lzma", "encoder-parameter", "cname", {"cname": "lzma"}, ["V3-BLOSC-001"], "cname 'lzma'"),
    ("cname-uppercase", "encoder-parameter", "cname", {"cname": "LZ4"}, ["V3-BLOSC-001"], "cname 'LZ4'"),
    ("clevel-10", "encoder-parameter", "clevel", {"clevel": 10}, ["V3-BLOSC-001"], "clevel 10"),
    ("clevel-minus-1", "encoder-parameter", "clevel", {"clevel": -1}, ["V3-BLOSC-001"], "clevel -1"),
    ("shuffle-int-1", "encoder-parameter", "shuffle", {"shuffle": 1}, ["V3-BLOSC-002"], "the v2 integer shuffle 1"),
    ("shuffle-int-0", "encoder-parameter", "shuffle", {"shuffle": 0}, ["V3-BLOSC-002"], "the v2 integer shuffle 0"),
    ("shuffle-int-minus-1", "encoder-parameter", "shuffle", {"shuffle": -1}, ["V3-BLOSC-002"], "the v2 automatic shuffle -1"),
    ("shuffle-byteshuffle", "encoder-parameter", "shuffle", {"shuffle": "byteshuffle"}, ["V3-BLOSC-002"], "shuffle 'byteshuffle'"),
    ("shuffle-missing-typesize", "encoder-parameter", "typesize", {"typesize": None}, ["V3-BLOSC-003"], "shuffle 'shuffle' without typesize"),
    ("typesize-0", "encoder-parameter", "typesize", {"typesize": 0}, ["V3-BLOSC-003"], "typesize 0 (not positive)"),
    ("typesize-float", "integer-as-float", "typesize", {"typesize": 4.0}, ["V3-BLOSC-003"], "typesize 4.0 (a float)"),
    # the text asks only for "An integer" (0: automatic) and decoding ignores it: nothing forbids -1
    ("blocksize-negative", "spec-silent", "blocksize", {"blocksize": -1}, ["V3-BLOSC-001"], "blocksize -1 (the spec asks only for an integer; the reference refuses a negative size: recorded)"),
    ("bitshuffle-missing-typesize", "encoder-parameter", "typesize", {"shuffle": "bitshuffle", "typesize": None}, ["V3-BLOSC-003"], "shuffle 'bitshuffle' without typesize"),
    ("cname-missing", "encoder-parameter", "cname", {"cname": None}, ["V3-BLOSC-001"], "no cname (the spec gives no default)"),
    ("clevel-missing", "encoder-parameter", "clevel", {"clevel": None}, ["V3-BLOSC-001"], "no clevel (the spec gives no default)"),
    ("shuffle-missing", "encoder-parameter", "shuffle", {"shuffle": None}, ["V3-BLOSC-002"], "no shuffle (the spec gives no default)"),
    ("blocksize-missing", "encoder-parameter", "blocksize", {"blocksize": None}, ["V3-BLOSC-001"], "no blocksize (the spec gives no default)"),
]
# fmt: on

for _slug, _question, _tests, _changes, _reqs, _what in _BLOSC_BAD:
    _conf = dict(blosc_codec("lz4", 5, "shuffle", 4, 0)["configuration"])
    for _k, _v in _changes.items():
        if _v is None:
            del _conf[_k]
        else:
            _conf[_k] = _v
    with verdict(question=_question, tests=_tests):
        _bad(
            f"reject-blosc-{_slug}",
            [LE, {"name": "blosc", "configuration": _conf}],
            "invalid-codec",
            _reqs,
            f"v3 blosc with {_what} is rejected on open",
        )

_BLOSC_OK = blosc_bytes(TWO_I4, "lz4", 5, "shuffle", 4, 0)
# fmt: off
BLOSC_REJECTS = [
    # slug, codecs, reason, requirements, description[, options]
    ("reject-blosc-short-header", [LE, blosc_codec()], "corrupt-chunk", ["V3-BLOSC-004"], "v3 blosc chunk of 10 bytes (shorter than the 16-byte header) fails on read", {"stage": "read", "chunk": _BLOSC_OK[:10]}),
    ("reject-blosc-truncated", [LE, blosc_codec()], "corrupt-chunk", ["V3-BLOSC-004"], "v3 blosc chunk missing its last 2 bytes (header cbytes disagrees with the length) fails on read", {"stage": "read", "chunk": _BLOSC_OK[:-2]}),
    ("reject-blosc-wrong-nbytes", [LE, blosc_codec()], "corrupt-chunk", ["V3-BLOSC-004", "V3-BYTES-004"], "v3 blosc chunk holding 12 bytes for a (2,) int32 chunk (8 expected) fails on read", {"stage": "read", "chunk": blosc_bytes(TWO_I4 + b"\x00\x01\x02\x03", "lz4", 5, "shuffle", 4, 0)}),
    ("reject-blosc-zlib-chunk", [LE, blosc_codec()], "corrupt-chunk", ["V3-BLOSC-004"], "v3 blosc codec with a zlib stream as chunk fails on read", {"stage": "read", "chunk": zlib.compress(TWO_I4)}),
]
# fmt: on

each(_bad, BLOSC_REJECTS, question="corrupt-chunk", tests="encoded buffer")

# ---- zstd (V3-ZSTD-001..003, zarr-extensions: tier extension) -------------------------------------

# fmt: off
ZSTD = [
    # slug, requirements, description, data_type, codecs, compress[, options]
    ("zstd-level-0-default", ["V3-ZSTD-001", "V3-ZSTD-002"], "v3 int32 with zstd {'level': 0} (library default) opens and its frames decode", "int32", [LE, zstd_codec(0)], lambda raw: zstd_bytes(raw, 0), {"tier": "extension"}),
    ("zstd-checksum-true", ["V3-ZSTD-003", "V3-ZSTD-002"], "v3 float64 with zstd level 5 checksum true: frames with a content checksum decode", "float64", [LE, zstd_codec(5, True)], lambda raw: zstd_bytes(raw, 5, True), {"tier": "extension", "fill": 0.5}),
    ("zstd-checksum-false-explicit", ["V3-ZSTD-003", "V3-ZSTD-002"], "v3 int32 with zstd checksum false written out (as zarr-python does) opens and decodes", "int32", [LE, zstd_codec(3, False)], lambda raw: zstd_bytes(raw, 3, False), {"tier": "extension"}),
    ("zstd-negative-level", ["V3-ZSTD-001"], "v3 uint16 with zstd level -5 (fast mode) opens and decodes", "uint16", [LE, zstd_codec(-5)], lambda raw: zstd_bytes(raw, -5), {"tier": "extension", "fill": 42}),
    ("zstd-frame-without-content-size", ["V3-ZSTD-002"], "v3 int64 with zstd chunks written as raw-block frames without a declared content size decode", "int64", [LE, zstd_codec(3)], zstd_raw_frame, {"tier": "extension"}),
    ("zstd-two-frames", ["V3-ZSTD-002"], "v3 int32 with zstd chunks made of two concatenated frames decode to their concatenation", "int32", [LE, zstd_codec(3)], lambda raw: zstd_bytes(raw[:100], 3) + zstd_bytes(raw[100:], 3), {"tier": "extension"}),
]
# fmt: on

each(_chunked, ZSTD, question="registered-extension")

for _slug, _question, _conf, _what in (
    ("level-23", "encoder-parameter", {"level": 23}, "level 23 (above 22)"),
    ("level-too-low", "encoder-parameter", {"level": -131073}, "level -131073 (below -131072)"),
    ("level-string", "encoder-parameter", {"level": "3"}, "level '3' (a string)"),
    ("level-missing", "encoder-parameter", {"checksum": True}, "no level (required by the schema)"),
    (
        "checksum-string",
        "encoder-parameter",
        {"level": 3, "checksum": "true"},
        "checksum 'true' (a string)",
    ),
    (
        "unknown-member",
        "unknown-configuration-member",
        {"level": 3, "window_log": 20},
        "an unknown member 'window_log'",
    ),
):
    with verdict(question=_question):
        _bad(
            f"reject-zstd-{_slug}",
            [LE, {"name": "zstd", "configuration": _conf}],
            "invalid-codec",
            ["V3-ZSTD-001"],
            f"v3 zstd with {_what} is rejected on open",
            tier="extension",
        )
_ZSTD_SUM = zstd_bytes(TWO_I4, 3, True)
# fmt: off
ZSTD_REJECTS = [
    # slug, codecs, reason, requirements, description[, options]
    ("reject-zstd-no-configuration", [LE, {"name": "zstd"}], "invalid-codec", ["V3-ZSTD-001"], "v3 zstd without a configuration (level is required) is rejected on open", {"question": "encoder-parameter", "tier": "extension"}),
    ("reject-zstd-bad-content-checksum", [LE, zstd_codec(3, True)], "corrupt-chunk", ["V3-ZSTD-003"], "v3 zstd frame whose content checksum is wrong fails on read", {"question": "checksum-mismatch", "tier": "extension", "stage": "read", "chunk": _ZSTD_SUM[:-1] + bytes([_ZSTD_SUM[-1] ^ 0x01])}),
    ("reject-zstd-not-a-frame", [LE, zstd_codec(3)], "corrupt-chunk", ["V3-ZSTD-002"], "v3 zstd codec with a gzip member as chunk fails on read", {"question": "corrupt-chunk", "tier": "extension", "stage": "read", "chunk": gzip_bytes(TWO_I4)}),
    ("reject-zstd-truncated", [LE, zstd_codec(3)], "corrupt-chunk", ["V3-ZSTD-002"], "v3 zstd frame cut short fails on read", {"question": "corrupt-chunk", "tier": "extension", "stage": "read", "chunk": zstd_bytes(TWO_I4, 3)[:-3]}),
]
# fmt: on

each(_bad, ZSTD_REJECTS)

# ---- crc32c (V3-CRC-001..004) -----------------------------------------------------------------------


def _crc_vector(slug, requirements, description, codecs, tier=None):
    def build(w):
        value = np.frombuffer(b"123456789", "u1")
        w.put_json("zarr.json", array_doc((9,), (9,), "uint8", 0, codecs=codecs))
        w.put("c/0", b"123456789" + bytes.fromhex("839206e3"))  # CRC-32C 0xE3069283, little-endian
        w.expect_array(value)

    read_case(
        f"v3/codecs/{slug}",
        requirements,
        description,
        build,
        tier=tier,
        needs=["dtype:uint8", *needs_for(codecs)],
    )


# fmt: off
CRC_VECTORS = [
    # slug, requirements, description, codecs[, options]
    ("crc32c-vector-123456789", ["V3-CRC-001", "V3-CRC-002"], "v3 uint8 '123456789' with [bytes, crc32c]: the chunk ends 83 92 06 e3 (CRC-32C 0xE3069283 appended little-endian) and reads back", [RAW, CRC32C]),
    ("crc32c-empty-configuration", ["V3-CRC-001", "V3-CRC-002"], "v3 crc32c given as {'name': 'crc32c', 'configuration': {}} opens and checks the test vector", [RAW, {"name": "crc32c", "configuration": {}}]),
]
# fmt: on

each(_crc_vector, CRC_VECTORS, question="spec-read")
# fmt: off
CRC32C_READS = [
    # slug, requirements, description, data_type, codecs, compress[, options]
    ("crc32c-after-gzip", ["V3-CRC-002", "V3-PIPE-002", "V3-GZIP-002"], "v3 int32 with [bytes, gzip, crc32c]: the checksum covers the gzip member (which starts 1f 8b) and is appended little-endian", "int32", [LE, gzip_codec(5), CRC32C], lambda raw: with_crc(gzip_bytes(raw, 5))),
    ("crc32c-before-gzip", ["V3-CRC-002", "V3-PIPE-002"], "v3 int32 with [bytes, crc32c, gzip]: each chunk is one gzip member of the bytes plus their checksum", "int32", [LE, CRC32C, gzip_codec(5)], lambda raw: gzip_bytes(with_crc(raw), 5)),
    ("crc32c-twice", ["V3-CRC-002", "V3-PIPE-002"], "v3 float64 with [bytes, crc32c, crc32c]: a checksum of the checksummed bytes is appended", "float64", [LE, CRC32C, CRC32C], lambda raw: with_crc(with_crc(raw)), {"fill": 0.5}),
]
# fmt: on

each(_chunked, CRC32C_READS, question="spec-read")

# fmt: off
CRC32C_REJECTS = [
    # slug, codecs, reason, requirements, description[, options]
    ("reject-crc32c-bit-flip", [LE, CRC32C], "checksum-mismatch", ["V3-CRC-003"], "v3 crc32c chunk with one payload bit flipped fails on read", {"question": "checksum-mismatch", "stage": "read", "chunk": bytes([TWO_I4[0] ^ 0x10]) + TWO_I4[1:] + crc_bytes(TWO_I4)}),
    ("reject-crc32c-checksum-big-endian", [LE, CRC32C], "checksum-mismatch", ["V3-CRC-002", "V3-CRC-003"], "v3 crc32c chunk whose checksum is stored big-endian fails on read", {"question": "checksum-mismatch", "stage": "read", "chunk": TWO_I4 + crc_bytes(TWO_I4)[::-1]}),
    ("reject-crc32c-checksum-prepended", [LE, CRC32C], "checksum-mismatch", ["V3-CRC-002", "V3-CRC-003"], "v3 crc32c chunk with the checksum before the data (not appended) fails on read", {"question": "checksum-mismatch", "stage": "read", "chunk": crc_bytes(TWO_I4) + TWO_I4}),
    ("reject-crc32c-3-bytes", [LE, CRC32C], "corrupt-chunk", ["V3-CRC-004"], "v3 crc32c chunk of 3 bytes (too short for a checksum) fails on read", {"tests": "checksum", "question": "corrupt-chunk", "stage": "read", "chunk": b"\x01\x02\x03"}),
    ("reject-crc32c-missing-checksum", [LE, CRC32C], "checksum-mismatch", ["V3-CRC-002", "V3-CRC-003"], "v3 crc32c codec with a chunk holding only the 8 data bytes (no checksum) fails on read", {"tests": "checksum", "question": "corrupt-chunk", "stage": "read", "chunk": TWO_I4}),
    ("reject-crc32c-configuration-member", [LE, {"name": "crc32c", "configuration": {"location": "end"}}], "invalid-codec", ["V3-CRC-001"], "v3 crc32c with a configuration member 'location' is rejected on open", {"tests": "configuration", "question": "unknown-configuration-member"}),
    ("reject-crc32c-configuration-string", [LE, {"name": "crc32c", "configuration": "end"}], "invalid-codec", ["V3-CRC-001"], "v3 crc32c with configuration 'end' (not an object) is rejected on open", {"tests": "configuration", "question": "unknown-configuration-member"}),
]
# fmt: on

each(_bad, CRC32C_REJECTS)
