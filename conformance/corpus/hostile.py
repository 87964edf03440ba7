"""The hostile area, fixtures/hostile/: stores built to exhaust memory or time, to escape the store,
or to smuggle invalid JSON past a parser. Not conformance cases (the ordinary loader skips the
area): each one states how the reference and `validate` refuse it and within which caps, and the
suite records how every implementation copes (`--kinds hostile`, conformance/suite/test_hostile.py).

    fixtures/hostile/<name>/case.json    what it is, what it concerns, the expected outcome, the caps
    fixtures/hostile/<name>/store/       the store (or store.zip)
    fixtures/hostile/<name>/outside/     files beside the store that no reader may reach

Everything is small on disk (bombs are a few KiB that decode to GiBs) and written deterministically:
`corpus generate` calls generate() and `corpus check` compares it like any generated case. What
cannot be committed is made by the consumer at run time (`runtime`: FIFOs, and symbolic links,
which a wheel or an sdist would turn into copies or loops) or served (`http`: the store behind a
hostile route of conformance/testing/servers.py).
"""

from __future__ import annotations

import gzip
import io
import json
import lzma
import os
import shutil
import struct
import threading
import zipfile
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from conformance.testing.bombs import deflate_zeros, gzip_zeros, zeros_crc32, zlib_zeros
from conformance.testing.documents import bytes_codec, v2_array, v3_array

from .case import Case

AREA = "hostile"
GiB, MiB = 1 << 30, 1 << 20
MAX_AREA_BYTES = 2 * MiB  # what the whole area may take on disk

# The security properties a case concerns, beside requirement IDs (fixtures/hostile/README.md).
PROPERTIES = {
    "bounded-memory": "memory stays bounded by the store's limits, whatever the input claims",
    "bounded-time": "a read ends within its time budget, never hangs",
    "confined": "nothing outside the store is read, listed or written",
    "strict-json": "metadata is strict RFC 8259 JSON in UTF-8",
    "same-origin": "an HTTP store follows redirects only within its own origin",
}
# Caps of one `validate` run on a case (fixtures/hostile/README.md): wall seconds and the peak
# resident memory of the whole process, interpreter and imports included.
CAPS = {"seconds": 30, "rss_mib": 400}

RAW = np.arange(16, dtype="<i4").tobytes()  # a 64-byte chunk: shape [16], int32


@dataclass
class Folder:
    """What a builder makes: files, and symbolic links (path -> target), by path relative to the
    case folder. Links are not written: case.json asks the consumer to make them (`runtime`), as
    a wheel, an sdist or a checkout on another system would turn them into copies, or loop."""

    files: dict[str, bytes] = field(default_factory=dict)
    links: dict[str, str] = field(default_factory=dict)

    def put(self, path: str, value) -> None:
        self.files[path] = value if isinstance(value, bytes) else json.dumps(value).encode()

    def store(self, files: dict) -> None:
        for key, value in files.items():
            self.put(f"store/{key}", value)


@dataclass(frozen=True)
class Spec:
    name: str
    description: str
    concerns: tuple[str, ...]  # requirement IDs and PROPERTIES
    format: str
    expect: dict  # {"read": ..., "validate": ...}: see fixtures/hostile/README.md
    build: Callable[[Folder], None]
    store: str = "store"
    node: str = ""
    runtime: dict | None = None
    http: dict | None = None


SPECS: dict[str, Spec] = {}


def hostile(name, description, concerns, format, expect, **options):
    def register(build):
        if name in SPECS:
            raise ValueError(f"duplicate hostile case {name}")
        SPECS[name] = Spec(name, description, tuple(concerns), format, expect, build, **options)
        return build

    return register


def refuse(reason: str, validate_reason: str | None = None, exit: int = 1) -> dict:
    """Both the reference's read and `validate` refuse, with these reason codes."""
    return {
        "read": {"outcome": "refuse", "reason": reason},
        "validate": {"exit": exit, "reason": validate_reason or reason},
    }


# ---- compressed streams that decode to far more than they are ---------------------------------
def zstd_rle(n: int, declare: int | None = None) -> bytes:
    """A Zstandard frame of n zero bytes made of RLE blocks (4 bytes per 128 KiB); `declare`
    writes a Frame_Content_Size (which may lie)."""
    out = bytearray(b"\x28\xb5\x2f\xfd")
    if declare is None:
        out += bytes([0x00, 0x38])  # no content size; window 128 KiB
    else:
        out += bytes([0xC0, 0x38]) + struct.pack("<Q", declare)
    block = 128 * 1024
    while True:
        size = min(block, n)
        n -= size
        last = 1 if n == 0 else 0
        out += (last | 1 << 1 | size << 3).to_bytes(3, "little") + b"\x00"
        if last:
            return bytes(out)


def joined(parts: Iterator[bytes]) -> bytes:
    return b"".join(parts)


def gzip_member(data: bytes) -> bytes:
    return gzip.compress(data, 9, mtime=0)


def xz_zeros(n: int) -> bytes:
    compressor = lzma.LZMACompressor(format=lzma.FORMAT_XZ, preset=6)
    unit = bytes(MiB)
    parts = [compressor.compress(unit) for _ in range(n // MiB)]
    return b"".join(parts) + compressor.flush()


def blosc_zeros(n: int) -> bytes:
    import numcodecs
    import numcodecs.blosc

    numcodecs.blosc.use_threads = False  # threads would make the block order vary
    # np.zeros is calloc'd: the pages blosc reads are never made resident
    return bytes(numcodecs.Blosc("zstd", 5, 0, blocksize=0).encode(np.zeros(n, dtype=np.uint8)))


# ---- shared store shapes ------------------------------------------------------------------------
GZIP = {"name": "gzip", "configuration": {"level": 9}}
ZSTD = {"name": "zstd", "configuration": {"level": 3, "checksum": False}}
SECRET = np.full(16, 666, dtype="<i4").tobytes()  # outside the store: must never be read


def v3_chunked(codecs, chunk: bytes, **extra) -> dict:
    """A v3 int32 array of 16 elements in one chunk c/0."""
    doc = v3_array([16], [16], "int32", codecs=[bytes_codec(), *codecs], **extra)
    return {"zarr.json": doc, "c/0": chunk}


def v2_chunked(compressor, chunk: bytes, filters=None) -> dict:
    return {
        ".zarray": v2_array([16], [16], "<i4", compressor=compressor, filters=filters),
        "0": chunk,
    }


def outside_array(f: Folder) -> None:
    """outside/: a valid v3 array whose chunk is the secret, one folder above the store."""
    f.put("outside/zarr.json", v3_array([16], [16], "int32"))
    f.put("outside/c/0", SECRET)
    f.put("outside/secret", SECRET)


def case(name, description, concerns, format, expect, files=None, **options):
    """Register a case whose store is `files()` (a function: bytes are made only when built)."""

    def build(f: Folder) -> None:
        f.store(files())

    hostile(name, description, concerns, format, expect, **options)(build)


BOMB = ("bounded-memory",)
# A FIFO in place of a chunk: refused (the reference), or passed over as a missing chunk, which
# gives the fill value everywhere and is as safe; what must not happen is blocking on it.
FIFO_CHUNK = {
    "read": {"outcome": "refuse", "reason": "invalid-path", "or_fill": 0},
    "validate": {"exit": 1, "reason": "invalid-path"},
}
CORRUPT = refuse("corrupt-chunk")

# ---- decompression bombs ------------------------------------------------------------------------
case(
    "bomb-v3-gzip-64mib",
    "a v3 gzip chunk of 64 KiB that inflates to 64 MiB of zeros where 64 bytes are due",
    (*BOMB, "V3-PIPE-002"),
    "v3",
    CORRUPT,
    lambda: v3_chunked([GZIP], joined(gzip_zeros(64 * MiB))),
)
case(
    "bomb-v3-gzip-nested-4gib",
    "v3 codecs [bytes, gzip, gzip]: a 10 KiB chunk whose outer gzip inflates to 4 MiB and the "
    "inner one to 4 GiB of zeros",
    (*BOMB, "V3-PIPE-002"),
    "v3",
    CORRUPT,
    lambda: v3_chunked([GZIP, GZIP], gzip_member(joined(gzip_zeros(4 * GiB)))),
)
case(
    "bomb-v3-zstd-1gib",
    "a v3 zstd frame of 32 KiB (RLE blocks) that declares and holds 1 GiB of zeros",
    (*BOMB, "V3-ZSTD-002"),
    "v3",
    CORRUPT,
    lambda: v3_chunked([ZSTD], zstd_rle(GiB, declare=GiB)),
)
case(
    "bomb-v3-zstd-streamed-1gib",
    "a v3 zstd frame of 32 KiB holding 1 GiB of zeros, with no content size in its header",
    (*BOMB, "V3-ZSTD-002"),
    "v3",
    CORRUPT,
    lambda: v3_chunked([ZSTD], zstd_rle(GiB)),
)
case(
    "bomb-v3-zstd-declares-1tib",
    "a v3 zstd frame of 64 zero bytes whose header declares a content size of 1 TiB: a reader "
    "that allocates what the header says asks for 1 TiB",
    (*BOMB, "V3-ZSTD-002"),
    "v3",
    CORRUPT,
    lambda: v3_chunked([ZSTD], zstd_rle(64, declare=1 << 40)),
)
case(
    "bomb-v2-zlib-64mib",
    "a v2 zlib chunk of 64 KiB that inflates to 64 MiB of zeros where 64 bytes are due",
    (*BOMB, "V2-CHUNK-002"),
    "v2",
    CORRUPT,
    lambda: v2_chunked({"id": "zlib", "level": 9}, joined(zlib_zeros(64 * MiB))),
)
case(
    "bomb-v2-zlib-filter-4gib",
    "v2 zlib used as a filter under a zlib compressor: the compressor yields 4 MiB, the filter "
    "inflates that to 4 GiB of zeros",
    (*BOMB, "V2-CHUNK-002"),
    "v2",
    CORRUPT,
    lambda: v2_chunked(
        {"id": "zlib", "level": 9},
        zlib.compress(joined(zlib_zeros(4 * GiB)), 9),
        filters=[{"id": "zlib", "level": 9}],
    ),
)
case(
    "bomb-v2-lzma-256mib",
    "a v2 lzma (xz) chunk of 40 KiB that decodes to 256 MiB of zeros",
    (*BOMB, "V2-CHUNK-002"),
    "v2",
    CORRUPT,
    lambda: v2_chunked({"id": "lzma", "format": 1, "check": -1}, xz_zeros(256 * MiB)),
)
case(
    "bomb-v2-blosc-1gib",
    "a v2 blosc (zstd) chunk of 60 KiB whose header declares, and whose blocks hold, 1 GiB",
    (*BOMB, "V2-CHUNK-002"),
    "v2",
    CORRUPT,
    lambda: v2_chunked(
        {"id": "blosc", "cname": "zstd", "clevel": 5, "shuffle": 0, "blocksize": 0},
        blosc_zeros(GiB),
    ),
)


# ---- variable-length values: a frame and the objects it decodes to -----------------------------
def vlen_frame_head(items: int, length: int) -> bytes:
    """The start of a vlen frame of `items` items whose first item is `length` bytes long."""
    return struct.pack("<II", items, length)


def zstd_raw_then_zeros(head: bytes, zeros: int) -> bytes:
    """A Zstandard frame without a content size: one raw block `head`, then RLE blocks of zeros."""
    out = bytearray(b"\x28\xb5\x2f\xfd\x00\x38")
    out += (len(head) << 3).to_bytes(3, "little") + head  # raw block, not the last
    return bytes(out) + zstd_rle(zeros)[6:]  # zstd_rle's blocks after its own frame header


def zlib_frame_of_zeros(head: bytes, zeros: int) -> bytes:
    """A zlib stream of `head` followed by `zeros` zero bytes, made without the zeros."""
    deflater = zlib.compressobj(9, zlib.DEFLATED, -15)
    start = deflater.compress(head) + deflater.flush(zlib.Z_FULL_FLUSH)  # not final: more follows
    a = (1 + sum(head)) % 65521
    b = (sum((len(head) - i) * byte for i, byte in enumerate(head)) + len(head)) % 65521
    b = (b + zeros * a) % 65521  # every zero byte adds a to b
    return b"\x78\xda" + start + joined(deflate_zeros(zeros)) + struct.pack(">I", b << 16 | a)


def v3_vlen(data_type: str, codecs: list, chunk: bytes, shape: int = 1) -> dict:
    codec = "vlen-utf8" if data_type == "string" else "vlen-bytes"
    doc = v3_array([shape], [shape], data_type, fill_value="" if codec == "vlen-utf8" else [])
    doc["codecs"] = [{"name": codec}, *codecs]
    return {"zarr.json": doc, "c/0": chunk}


VLEN_ITEM = GiB - 8  # one item filling a frame of exactly 1 GiB, the old value limit
VLEN_TOO_LARGE = refuse("too-large")
case(
    "bomb-v3-vlen-gzip-1gib",
    "a v3 bytes array of one element whose vlen-bytes frame is 1 GiB (one item of zeros) under "
    "two gzip layers of 10 KiB: decoding it whole would hold the frame and the item, 2 GiB",
    ("bounded-memory",),
    "v3",
    VLEN_TOO_LARGE,
    lambda: v3_vlen(
        "bytes",
        [GZIP, GZIP],
        gzip_member(gzip_member(vlen_frame_head(1, VLEN_ITEM)) + joined(gzip_zeros(VLEN_ITEM))),
    ),
)
case(
    "bomb-v3-vlen-zstd-1gib",
    "a v3 string array of one element whose vlen-utf8 frame is a zstd frame of 32 KiB holding "
    "1 GiB (one item of NUL characters), with no content size in its header",
    ("bounded-memory",),
    "v3",
    VLEN_TOO_LARGE,
    lambda: v3_vlen(
        "string", [ZSTD], zstd_raw_then_zeros(vlen_frame_head(1, VLEN_ITEM), VLEN_ITEM)
    ),
)
case(
    "bomb-v3-vlen-many-items",
    "a v3 string array chunk of 2^24 two-character items: a 96 MiB frame (gzip, 100 KiB) that "
    "would become 16 Mi str objects of about 60 bytes each, 0.9 GiB",
    ("bounded-memory",),
    "v3",
    VLEN_TOO_LARGE,
    lambda: v3_vlen(
        "string",
        [GZIP, GZIP],
        gzip_member(gzip_member(struct.pack("<I", 1 << 24) + b"\x02\x00\x00\x00ab" * (1 << 24))),
        shape=1 << 24,
    ),
)
case(
    "bomb-v2-vlen-zlib-1gib",
    "a v2 object array of one element: vlen-utf8, then zlib as a filter and as the compressor; "
    "the frame inside is 1 GiB (one item of NUL characters)",
    ("bounded-memory", "V2-CHUNK-002"),
    "v2",
    VLEN_TOO_LARGE,
    lambda: {
        ".zarray": v2_array(
            [1],
            [1],
            "|O",
            fill_value="",
            compressor={"id": "zlib", "level": 9},
            filters=[{"id": "vlen-utf8"}, {"id": "zlib", "level": 9}],
        ),
        "0": zlib.compress(zlib_frame_of_zeros(vlen_frame_head(1, VLEN_ITEM), VLEN_ITEM), 9),
    },
)


# ---- shard indexes ------------------------------------------------------------------------------
def sharded(index: list[tuple[int, int]], body: bytes = RAW, shape=16, inner=8) -> dict:
    """A v3 array of `shape` int32 in one shard of inner chunks `inner`, index at the end with
    crc32c; `index` gives (offset, nbytes) per inner chunk."""
    import crc32c

    table = struct.pack(f"<{2 * len(index)}Q", *[v for pair in index for v in pair])
    codec = {
        "name": "sharding_indexed",
        "configuration": {
            "chunk_shape": [inner],
            "codecs": [bytes_codec()],
            "index_codecs": [bytes_codec(), {"name": "crc32c"}],
            "index_location": "end",
        },
    }
    shard = body + table + crc32c.crc32c(table).to_bytes(4, "little")
    return {"zarr.json": v3_array([shape], [shape], "int32", codecs=[codec]), "c/0": shard}


SHARD = ("bounded-memory", "V3-SHARD-016")
case(
    "shard-index-huge-offsets",
    "a v3 shard whose index sends its inner chunks to offsets 1 TiB and 2 TiB, 1 TiB long",
    SHARD,
    "v3",
    refuse("corrupt-shard-index"),
    lambda: sharded([(1 << 40, 32), (2 << 40, 1 << 40)]),
)
case(
    "shard-index-overflowing",
    "a v3 shard index whose offset + nbytes overflows 64 bits",
    SHARD,
    "v3",
    refuse("corrupt-shard-index"),
    lambda: sharded([(0, 32), (2**64 - 16, 32)]),
)
case(
    "shard-index-overlapping-huge",
    "a v3 shard index whose two inner chunks overlap, both claiming the whole shard and 1 GiB more",
    SHARD,
    "v3",
    refuse("corrupt-shard-index"),
    lambda: sharded([(0, GiB), (16, GiB)]),
)
case(
    "shard-index-2e40-entries",
    "a v3 shard of 2^40 inner chunks: its index would be 16 TiB, the stored shard is 68 bytes",
    SHARD,
    "v3",
    refuse("too-large"),
    lambda: sharded([(0, 32), (32, 32)], shape=2**40, inner=1),
)

# ---- enormous shapes, ranks and chunk counts ---------------------------------------------------
HUGE = ("bounded-memory", "bounded-time", "V3-GRID-002")
case(
    "shape-2e62",
    "a v3 uint8 array of 2^62 elements (chunks of 2^20), nothing stored",
    HUGE,
    "v3",
    {"read": {"outcome": "refuse", "reason": "too-large"}, "validate": {"exit": 0}},
    lambda: {"zarr.json": v3_array([2**62], [2**20], "uint8")},
)
case(
    "rank-10000",
    "a v3 array of rank 10000",
    HUGE,
    "v3",
    refuse("too-large"),
    lambda: {"zarr.json": v3_array([1] * 10000, [1] * 10000, "uint8")},
)
case(
    "chunks-1e15",
    "a v3 uint8 array of 10^15 chunks of one element, the first and the last stored",
    HUGE,
    "v3",
    {"read": {"outcome": "refuse", "reason": "too-large"}, "validate": {"exit": 0}},
    lambda: {
        "zarr.json": v3_array([10**15], [1], "uint8"),
        "c/0": b"\x01",
        f"c/{10**15 - 1}": b"\x02",
    },
)
case(
    "chunk-2e40-stored",
    "a v3 array with chunks of 2^40 elements, one stored as 8 bytes",
    HUGE,
    "v3",
    refuse("too-large"),
    lambda: {"zarr.json": v3_array([2**62], [2**40], "uint8"), "c/0": bytes(8)},
)
case(
    "v2-rank-10000",
    "a v2 array of rank 10000",
    HUGE,
    "v2",
    refuse("too-large"),
    lambda: {".zarray": v2_array([1] * 10000, [1] * 10000, "|u1")},
)

# ---- JSON: deep, huge numbers, duplicates, encodings, tokens -------------------------------------
DEEP = 100_000
JSON = ("strict-json", "V3-ARR-013")
group_prefix = b'{"zarr_format": 3, "node_type": "group", "attributes": {"a": '
case(
    "json-deep-100k",
    "a v3 zarr.json that is a list nested 100000 deep",
    ("bounded-memory", "strict-json"),
    "v3",
    refuse("invalid-json"),
    lambda: {"zarr.json": b"[" * DEEP + b"]" * DEEP},
)
case(
    "json-deep-attributes-100k",
    "v3 group attributes holding a list nested 100000 deep",
    ("bounded-memory", "strict-json"),
    "v3",
    refuse("invalid-json"),
    lambda: {"zarr.json": group_prefix + b"[" * DEEP + b"]" * DEEP + b"}}"},
)
case(
    "json-deep-zattrs-100k",
    "a v2 .zattrs holding a list nested 100000 deep beside a valid .zarray",
    ("bounded-memory", "strict-json", "V2-ATTR-001"),
    "v2",
    refuse("invalid-json"),
    lambda: {
        ".zarray": v2_array([16], [16]),
        ".zattrs": b'{"a": ' + b"[" * DEEP + b"]" * DEEP + b"}",
    },
)
case(
    "json-integer-100k-digits",
    "a v3 fill_value that is an integer of 100000 digits (quadratic to convert in some parsers)",
    ("bounded-time", "V3-ARR-013"),
    "v3",
    refuse("invalid-json"),
    lambda: {
        "zarr.json": json.dumps(v3_array([16], [16], "int32"))
        .replace('"fill_value": 0', '"fill_value": ' + "9" * 100_000)
        .encode()
    },
)
case(
    "json-duplicate-keys",
    "a v3 zarr.json that states `shape` twice, [16] and then [2^62]",
    JSON,
    "v3",
    refuse("invalid-json"),
    lambda: {
        "zarr.json": json.dumps(v3_array([16], [16], "int32"))
        .replace('"shape": [16]', '"shape": [16], "shape": [4611686018427387904]')
        .encode(),
        "c/0": RAW,
    },
)
case(
    "json-invalid-utf8",
    "a v3 group zarr.json whose attribute value holds the bytes FF FE (not UTF-8)",
    JSON,
    "v3",
    refuse("invalid-json"),
    lambda: {"zarr.json": group_prefix + b'"caf\xff\xfe"}}'},
)
case(
    "json-utf16",
    "a v3 group zarr.json encoded as UTF-16 with a byte-order mark",
    JSON,
    "v3",
    refuse("invalid-json"),
    lambda: {"zarr.json": '{"zarr_format": 3, "node_type": "group"}'.encode("utf-16")},
)
case(
    "json-nan-token",
    "a v3 group whose attributes hold a bare NaN token",
    JSON,
    "v3",
    refuse("invalid-json"),
    lambda: {"zarr.json": group_prefix + b"NaN}}"},
)
case(
    "json-infinity-token-v2",
    "a v2 float64 .zarray whose fill_value is the bare token Infinity",
    ("strict-json", "V2-META-009"),
    "v2",
    refuse("invalid-json"),
    lambda: {
        ".zarray": json.dumps(v2_array([16], [16], "<f8"))
        .replace('"fill_value": 0', '"fill_value": Infinity')
        .encode()
    },
)


# ---- paths and keys that try to leave the store ------------------------------------------------
def dotdot_store(f: Folder) -> None:
    f.store({"zarr.json": {"zarr_format": 3, "node_type": "group"}})
    outside_array(f)


hostile(
    "path-node-dotdot",
    "the node path '../outside' of a v3 store, where ../outside holds a valid array",
    ("confined", "V3-NAME-003"),
    "v3",
    {"read": {"outcome": "refuse", "reason": "invalid-node-name"}, "validate": {"exit": 2}},
    node="../outside",
)(dotdot_store)
hostile(
    "path-node-dotdot-nested",
    "the node path 'a/../../outside' of a v3 store, where ../outside holds a valid array",
    ("confined", "V3-NAME-003"),
    "v3",
    {"read": {"outcome": "refuse", "reason": "invalid-node-name"}, "validate": {"exit": 2}},
    node="a/../../outside",
)(dotdot_store)


@hostile(
    "path-v2-consolidated-dotdot",
    "v2 consolidated metadata (.zmetadata) naming arrays at '../outside' and '/abs'",
    ("confined", "V2-KEY-005"),
    "v2",
    {"read": {"outcome": "group", "members": {}}, "validate": {"exit": 0}},
)
def _(f: Folder) -> None:
    array = v2_array([16], [16])
    f.store(
        {
            ".zgroup": {"zarr_format": 2},
            ".zmetadata": {
                "zarr_consolidated_format": 1,
                "metadata": {
                    ".zgroup": {"zarr_format": 2},
                    "../outside/.zarray": array,
                    "/abs/.zarray": array,
                },
            },
        }
    )
    f.put("outside/.zarray", array)
    f.put("outside/0", SECRET)


@hostile(
    "path-v3-consolidated-dotdot",
    "a v3 group whose consolidated metadata names an array at '../outside'",
    ("confined", "V3-GRP-004"),
    "v3",
    {"read": {"outcome": "group", "members": {}}, "validate": {"exit": 0}},
)
def _(f: Folder) -> None:
    f.store(
        {
            "zarr.json": {
                "zarr_format": 3,
                "node_type": "group",
                "consolidated_metadata": {
                    "kind": "inline",
                    "must_understand": False,
                    "metadata": {"../outside": v3_array([16], [16], "int32")},
                },
            }
        }
    )
    outside_array(f)


case(
    "path-v3-separator-dotdot",
    "a v3 chunk key encoding whose separator is '/../', so chunk keys would climb out",
    ("confined", "V3-KEY-003"),
    "v3",
    refuse("invalid-chunk-key-encoding"),
    lambda: {
        "zarr.json": v3_array(
            [16, 16],
            [8, 8],
            "int32",
            chunk_key_encoding={"name": "default", "configuration": {"separator": "/../"}},
        )
    },
)
case(
    "path-v2-separator-dotdot",
    "a v2 dimension_separator of '/../', so chunk keys would climb out",
    ("confined", "V2-KEY-005"),
    "v2",
    refuse("invalid-chunk-key-encoding"),
    lambda: {".zarray": v2_array([16, 16], [8, 8], dimension_separator="/../")},
)


# ---- symbolic links out of a directory store (made by the consumer: runtime.symlinks) -----------
@hostile(
    "symlink-chunk-out",
    "a v3 array (fill 7) whose chunk c/0 is a symbolic link to a file outside the store",
    ("confined",),
    "v3",
    {"read": {"outcome": "data", "fill": 7}, "validate": {"exit": 0}},
)
def _(f: Folder) -> None:
    f.store({"zarr.json": v3_array([16], [16], "int32", fill_value=7)})
    f.links["store/c/0"] = "../../outside/secret"
    outside_array(f)


@hostile(
    "symlink-node-out",
    "a v3 root group with a child 'b' that is a symbolic link to an array outside the store",
    ("confined",),
    "v3",
    {"read": {"outcome": "group", "members": {}}, "validate": {"exit": 0}},
)
def _(f: Folder) -> None:
    f.store({"zarr.json": {"zarr_format": 3, "node_type": "group"}})
    f.links["store/b"] = "../outside"
    outside_array(f)


@hostile(
    "symlink-metadata-out",
    "a v3 store whose zarr.json is a symbolic link to an array's zarr.json outside the store",
    ("confined",),
    "v3",
    refuse("node-not-found"),
)
def _(f: Folder) -> None:
    f.links["store/zarr.json"] = "../outside/zarr.json"
    outside_array(f)


@hostile(
    "symlink-loops",
    "a v3 root group holding links to itself and to its parent",
    ("confined", "bounded-time"),
    "v3",
    {"read": {"outcome": "group", "members": {}}, "validate": {"exit": 0}},
)
def _(f: Folder) -> None:
    f.store({"zarr.json": {"zarr_format": 3, "node_type": "group"}})
    f.links["store/loop"] = "."
    f.links["store/up"] = ".."
    outside_array(f)


# ---- zip stores -----------------------------------------------------------------------------------
def zip_of(members: dict[str, bytes], links: dict[str, str] | None = None) -> bytes:
    """A zip archive keeping member names as given ('../x' included); `links` are members flagged
    as Unix symbolic links (their content is the target)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, value in members.items():
            zf.writestr(zipfile.ZipInfo(name), value)
        for name, target in (links or {}).items():
            info = zipfile.ZipInfo(name)
            info.create_system = 3
            info.external_attr = (0o120777) << 16
            zf.writestr(info, target)
    return out.getvalue()


def zip_case(name, description, concerns, format, expect, make) -> None:
    def build(f: Folder) -> None:
        f.files["store.zip"] = make()

    hostile(name, description, concerns, format, expect, store="store.zip")(build)


GROUP_DOC = json.dumps({"zarr_format": 3, "node_type": "group"}).encode()
ARRAY_DOC = json.dumps(v3_array([16], [16], "int32", fill_value=7)).encode()
zip_case(
    "zip-dotdot-members",
    "a zip store whose members include '../outside/zarr.json', '/abs/zarr.json' and "
    "'a/../../zarr.json' beside a root group",
    ("confined",),
    "v3",
    {"read": {"outcome": "group", "members": {}}, "validate": {"exit": 0}},
    lambda: zip_of(
        {
            "zarr.json": GROUP_DOC,
            "../outside/zarr.json": ARRAY_DOC,
            "../outside/c/0": SECRET,
            "/abs/zarr.json": ARRAY_DOC,
            "a/../../zarr.json": ARRAY_DOC,
        }
    ),
)
zip_case(
    "zip-symlink-member",
    "a zip store of an array (fill 7) whose chunk member c/0 is flagged as a symbolic link "
    "to '../../outside/secret'",
    ("confined",),
    "v3",
    refuse("invalid-path"),
    lambda: zip_of({"zarr.json": ARRAY_DOC}, {"c/0": "../../outside/secret"}),
)


def zip_bomb(
    members: dict[str, int], declared: dict[str, int] | None = None, doc=("zarr.json", None)
) -> bytes:
    """Deflated members of n zero bytes (`declared`: the size the archive states instead) beside
    the metadata document `doc` (key, document; default: a v3 array of 16 int32)."""
    import tempfile

    from conformance.testing.bombs import write_zip_bomb

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bomb.zip"
        key, document = doc
        metadata = ARRAY_DOC if document is None else json.dumps(document).encode()
        write_zip_bomb(path, members, {key: metadata}, declared)
        return path.read_bytes()


def zip_overlapping(copies: int, size: int) -> bytes:
    """One deflated member of `size` zeros (c/0) that `copies` central directory entries (c/0,
    c/1, ...) all point at: the overlap bomb, `copies` x `size` bytes from one kernel."""
    kernel = joined(deflate_zeros(size))
    crc = zeros_crc32(size)
    out = bytearray()
    local = b"c/0"
    out += struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, 0x21, crc, len(kernel), size, 3, 0)
    out += local + kernel
    doc_offset = len(out)
    doc = ARRAY_DOC.replace(b"[\n    16\n  ]", b"[16]")
    out += struct.pack(
        "<IHHHHHIIIHH", 0x04034B50, 20, 0, 0, 0, 0x21, zlib.crc32(doc), len(doc), len(doc), 9, 0
    )
    out += b"zarr.json" + doc
    central = bytearray()
    entries = [(f"c/{i}".encode(), 0, 8, crc, len(kernel), size) for i in range(copies)]
    entries.append((b"zarr.json", doc_offset, 0, zlib.crc32(doc), len(doc), len(doc)))
    for name, offset, method, crc_, csize, usize in entries:
        central += struct.pack(
            "<IHHHHHHIIIHHHHHII",
            0x02014B50,
            0x031E,
            20,
            0,
            method,
            0,
            0x21,
            crc_,
            csize,
            usize,
            len(name),
            0,
            0,
            0,
            0,
            0o100644 << 16,
            offset,
        )
        central += name
    start = len(out)
    out += central
    out += struct.pack(
        "<IHHHHIIH", 0x06054B50, 0, 0, len(entries), len(entries), len(central), start, 0
    )
    return bytes(out)


zip_case(
    "zip-bomb-declared-3gib",
    "a zip member c/0 of 1 KiB that states an uncompressed size of 3 GiB",
    ("bounded-memory",),
    "v3",
    refuse("too-large"),
    lambda: zip_bomb({"c/0": MiB}, declared={"c/0": 3 * GiB}),
)
zip_case(
    "zip-bomb-deflate-32mib",
    "a zip member c/0 of 32 KiB that inflates to 32 MiB where the chunk is 64 bytes",
    ("bounded-memory",),
    "v3",
    refuse("corrupt-chunk"),
    lambda: zip_bomb({"c/0": 32 * MiB}),
)
zip_case(
    "zip-overlapping-members",
    "a zip whose 64 chunk members c/0..c/63 all point at one 32 KiB deflate stream of 32 MiB: "
    "2 GiB from one kernel",
    ("bounded-memory",),
    "v3",
    refuse("corrupt-chunk"),
    lambda: zip_overlapping(64, 32 * MiB),
)

# ---- special files (made by the consumer at run time: git cannot hold them) --------------------
case(
    "special-fifo-chunk",
    "a v3 array whose chunk c/0 is a FIFO (named pipe): opening it for reading blocks forever",
    ("bounded-time",),
    "v3",
    FIFO_CHUNK,
    lambda: {"zarr.json": v3_array([16], [16], "int32")},
    runtime={"fifo": "store/c/0"},
)
case(
    "special-fifo-metadata",
    "a v3 root group whose child a/zarr.json is a FIFO (named pipe)",
    ("bounded-time",),
    "v3",
    refuse("invalid-path"),
    lambda: {"zarr.json": {"zarr_format": 3, "node_type": "group"}},
    node="a",
    runtime={"fifo": "store/a/zarr.json"},
)


# ---- HTTP: a valid store behind hostile answers (conformance/testing/servers.py routes) ----------
def http_case(name, description, concerns, expect, routes, other_origin=False) -> None:
    def build(f: Folder) -> None:
        f.store({"zarr.json": v3_array([16], [16], "int32"), "c/0": RAW})
        if other_origin:
            outside_array(f)

    http = {"routes": routes, "other_origin": other_origin}
    hostile(name, description, concerns, "v3", expect, http=http)(build)


http_case(
    "http-endless-metadata",
    "zarr.json answered with 200, no Content-Length and zeros until the client hangs up",
    ("bounded-memory", "bounded-time"),
    refuse("too-large"),
    {"zarr.json": {"route": "endless_body"}},
)
http_case(
    "http-huge-content-length",
    "chunk c/0 answered with a Content-Length of 1 PiB, then zeros",
    ("bounded-memory",),
    refuse("too-large"),
    {"c/0": {"route": "huge_content_length"}},
)
http_case(
    "http-gzip-bomb",
    "zarr.json answered with Content-Encoding gzip: 8 MiB that decode to 8 GiB of zeros",
    ("bounded-memory",),
    refuse("too-large"),
    {"zarr.json": {"route": "gzip_bomb"}},
)
http_case(
    "http-redirect-cross-origin",
    "zarr.json redirects (302) to another origin, which serves an array holding a secret",
    ("same-origin", "confined"),
    refuse("io-error"),
    {"zarr.json": {"route": "redirect_other_origin"}, "c/0": {"route": "redirect_other_origin"}},
    other_origin=True,
)
http_case(
    "http-stalled-chunk",
    "chunk c/0 answered with headers, then nothing for longer than any time budget",
    ("bounded-time",),
    {
        "read": {"outcome": "refuse", "reason": "io-error"},
        "validate": {"exit": 1, "reason": "io-error", "args": ["--timeout", "10"]},
    },
    {"c/0": {"route": "stall"}},
)


# ---- v2 variants: the same attacks on a v2 store (readers of v2 only see these) -----------------
V2_ARRAY = v2_array([16], [16], "<i4", fill_value=7)


def v2_outside(f: Folder) -> None:
    """outside/: a valid v2 array whose chunk is the secret, one folder above the store."""
    f.put("outside/.zarray", v2_array([16], [16], "<i4"))
    f.put("outside/0", SECRET)
    f.put("outside/secret", SECRET)


@hostile(
    "v2-symlink-chunk-out",
    "a v2 array (fill 7) whose chunk 0 is a symbolic link to a file outside the store",
    ("confined",),
    "v2",
    {"read": {"outcome": "data", "fill": 7}, "validate": {"exit": 0}},
)
def _(f: Folder) -> None:
    f.store({".zarray": V2_ARRAY})
    f.links["store/0"] = "../outside/secret"
    v2_outside(f)


@hostile(
    "v2-symlink-metadata-out",
    "a v2 store whose .zarray is a symbolic link to an array's .zarray outside the store",
    ("confined",),
    "v2",
    refuse("node-not-found"),
)
def _(f: Folder) -> None:
    f.links["store/.zarray"] = "../outside/.zarray"
    f.links["store/0"] = "../outside/0"
    v2_outside(f)


case(
    "v2-special-fifo-chunk",
    "a v2 array whose chunk 0 is a FIFO (named pipe): opening it for reading blocks forever",
    ("bounded-time",),
    "v2",
    FIFO_CHUNK,
    lambda: {".zarray": v2_array([16], [16], "<i4")},
    runtime={"fifo": "store/0"},
)
case(
    "v2-shape-2e62",
    "a v2 uint8 array of 2^62 elements (chunks of 2^20), nothing stored",
    HUGE,
    "v2",
    {"read": {"outcome": "refuse", "reason": "too-large"}, "validate": {"exit": 0}},
    lambda: {".zarray": v2_array([2**62], [2**20], "|u1")},
)
zip_case(
    "v2-zip-bomb-declared-3gib",
    "a v2 zip store whose chunk member 0 of 1 KiB states an uncompressed size of 3 GiB",
    ("bounded-memory",),
    "v2",
    refuse("too-large"),
    lambda: zip_bomb({"0": MiB}, declared={"0": 3 * GiB}, doc=(".zarray", V2_ARRAY)),
)


def v2_http_case(name, description, concerns, expect, routes, other_origin=False) -> None:
    def build(f: Folder) -> None:
        f.store({".zarray": v2_array([16], [16], "<i4"), "0": RAW})
        if other_origin:
            v2_outside(f)

    http = {"routes": routes, "other_origin": other_origin}
    hostile(name, description, concerns, "v2", expect, http=http)(build)


v2_http_case(
    "v2-http-redirect-cross-origin",
    ".zarray and chunk 0 redirect (302) to another origin, which serves an array holding a secret",
    ("same-origin", "confined"),
    refuse("io-error"),
    {".zarray": {"route": "redirect_other_origin"}, "0": {"route": "redirect_other_origin"}},
    other_origin=True,
)
v2_http_case(
    "v2-http-gzip-bomb",
    ".zarray answered with Content-Encoding gzip: 8 MiB that decode to 8 GiB of zeros",
    ("bounded-memory",),
    refuse("too-large"),
    {".zarray": {"route": "gzip_bomb"}},
)


# ---- building and writing ----------------------------------------------------------------------
def needs_of(spec: Spec) -> list[str]:
    """What an adapter must declare to be sent the case (anything else it may refuse)."""
    kind = "http" if spec.http else ("zip" if spec.store.endswith(".zip") else "directory")
    return sorted({"op:read", f"format:{spec.format}", f"store:{kind}"})


def case_document(spec: Spec, links: dict[str, str]) -> dict:
    unknown = [c for c in spec.concerns if c not in PROPERTIES and c[:2] not in ("V1", "V2", "V3")]
    if unknown:
        raise ValueError(f"{spec.name}: unknown concerns {unknown}")
    doc = {
        "id": f"{AREA}/{spec.name}",
        "kind": "hostile",
        "tier": "hostile",
        "format": spec.format,
        "description": spec.description,
        "concerns": list(spec.concerns),
        "requirements": [c for c in spec.concerns if c not in PROPERTIES],
        "needs": needs_of(spec),
        "store": spec.store,
        "node": spec.node,
        "expect": spec.expect,
        "caps": CAPS,
    }
    runtime = dict(spec.runtime or {})
    if links:
        runtime["symlinks"] = dict(sorted(links.items()))
    if runtime:
        doc["runtime"] = runtime
    if spec.http:
        doc["http"] = spec.http
    return doc


def build(spec: Spec) -> Folder:
    folder = Folder()
    spec.build(folder)
    folder.files["case.json"] = (
        json.dumps(case_document(spec, folder.links), indent=2, sort_keys=True) + "\n"
    ).encode()
    return folder


def generate(root: Path, progress: Callable[[str], None] | None = None) -> int:
    """(Re)write root/hostile/ (and nothing else): every case folder, deterministically."""
    built = {name: build(SPECS[name]) for name in sorted(SPECS)}
    size = sum(len(v) for f in built.values() for v in f.files.values())
    if size > MAX_AREA_BYTES:
        raise ValueError(f"the hostile area would take {size} bytes, over {MAX_AREA_BYTES}")
    area = Path(root) / AREA
    area.mkdir(parents=True, exist_ok=True)
    for child in sorted(area.iterdir()):
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child)
    for name, folder in built.items():
        base = area / name
        for rel, value in sorted(folder.files.items()):
            target = base / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(value)
    if progress:
        progress(f"built {len(built)} hostile cases ({size} bytes)")
    return len(built)


# ---- consuming the area ------------------------------------------------------------------------
class HostileCase(Case):
    """A hostile case as loaded from fixtures/hostile/<name>/case.json."""

    @property
    def name(self) -> str:
        return self.id.split("/", 1)[1]

    @property
    def store_kind(self) -> str:
        return "http" if self.raw.get("http") else super().store_kind

    @property
    def caps(self) -> dict:
        return self.raw["caps"]

    @property
    def fifos(self) -> list[str]:
        fifo = (self.raw.get("runtime") or {}).get("fifo")
        return [fifo] if fifo else []

    @property
    def symlinks(self) -> dict[str, str]:
        return (self.raw.get("runtime") or {}).get("symlinks") or {}


def load_cases(root: str | os.PathLike | None = None) -> list[HostileCase]:
    """Every case of the hostile area under the corpus root `root` (default: the corpus)."""
    from .case import default_root

    area = Path(root if root is not None else default_root()) / AREA
    return [HostileCase.from_dir(p.parent, area) for p in sorted(area.glob("*/case.json"))]


def materialize(case: HostileCase, workdir: Path) -> Path:
    """A copy of the case folder (store, outside/) under `workdir`, with its run-time files made
    (symbolic links, FIFOs): readers work on the copy, so the corpus stays untouched."""
    target = Path(workdir) / case.name
    shutil.copytree(case.dir, target, symlinks=True)
    for rel, link in case.symlinks.items():
        path = target / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        os.symlink(link, path)
    for rel in case.fifos:
        path = target / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        os.mkfifo(path)
    return target


@contextmanager
def fifo_release(folder: Path, case: HostileCase, after: float) -> Iterator[list[str]]:
    """After `after` seconds, open each of the case's FIFOs for writing and close it at once, so a
    reader blocked on one sees end-of-file instead of hanging forever. Yields the list of FIFOs
    that had a blocked reader when released (empty: nobody blocked)."""
    released: list[str] = []
    stop = threading.Event()

    def watch() -> None:
        if stop.wait(after):
            return
        for rel in case.fifos:
            try:  # O_NONBLOCK: fails with ENXIO when no reader is waiting
                os.close(os.open(folder / rel, os.O_WRONLY | os.O_NONBLOCK))
                released.append(rel)
            except OSError:
                pass

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    try:
        yield released
    finally:
        stop.set()
        thread.join(5)
