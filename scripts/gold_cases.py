"""What the gold stores are: for each writer, small stores covering the corpus features it can write.

A case is one store (written by one writer) and one node of it to read. Nodes are described
writer-neutrally; scripts/gold_writers.py turns each into that writer's API calls. The array data a
writer receives is made here (seeded by the case id) and is the expected data: only `region` is
written, everything else reads as the fill value, so missing chunks come from partial writes.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field

# ---- the writers --------------------------------------------------------------------------------
# Exact pins: the implementation and its dependency closure (the same sets as adapters/*/adapter.toml).
ZARR3_CLOSURE = [
    "numcodecs==0.16.6",
    "numpy==2.4.6",
    "google-crc32c==1.9.0",
    "crc32c==2.9.post0",
    "donfig==0.8.1.post1",
    "pyyaml==6.0.3",
    "packaging==26.3",
    "typing-extensions==4.16.0",
]


@dataclass(frozen=True)
class Writer:
    name: str
    package: str  # the distribution whose version is the writer's version
    version: str
    pins: tuple[str, ...]
    also: dict = field(default_factory=dict)  # other distributions whose exact version must match


WRITERS = {
    "zarr-python": Writer("zarr-python", "zarr", "3.1.6", ("zarr==3.1.6", *ZARR3_CLOSURE)),
    "zarr-python2": Writer(
        "zarr-python2",
        "zarr",
        "2.18.7",
        (
            "zarr==2.18.7",
            "numcodecs==0.15.2",
            "numpy==2.4.6",
            "crc32c==2.9.post0",
            "asciitree==1.0.0",
            "fasteners==0.20",
            "deprecated==1.3.1",
            "wrapt==2.5.2",
        ),
    ),
    "tensorstore": Writer(
        "tensorstore",
        "tensorstore",
        "0.1.86",
        ("tensorstore==0.1.86", "numpy==2.4.6", "ml-dtypes==0.6.0"),
    ),
    "zarrs": Writer(
        "zarrs",
        "zarrs",
        "0.2.3",
        ("zarrs==0.2.3", "zarr==3.1.6", *ZARR3_CLOSURE),
        also={"zarr": "3.1.6"},
    ),
}


# ---- node descriptions --------------------------------------------------------------------------
def group(path: str = "", attributes: dict | None = None) -> dict:
    return {"kind": "group", "path": path, "attributes": attributes or {}}


def v2_array(
    path,
    shape,
    chunks,
    dtype,
    fill,
    region,
    *,
    order="C",
    compressor=None,
    filters=None,
    separator=None,
    attributes=None,
    strings=False,
) -> dict:
    """A v2 array; `fill` is its .zarray JSON encoding, `region` the ((start, stop), ...) written."""
    return {
        "kind": "array",
        "path": path,
        "shape": list(shape),
        "chunks": list(chunks),
        "dtype": dtype,
        "fill_json": fill,
        "region": [list(r) for r in region],
        "order": order,
        "compressor": compressor,
        "filters": filters,
        "separator": separator,
        "attributes": attributes or {},
        "strings": strings,
    }


def v3_array(
    path,
    shape,
    chunks,
    data_type,
    fill,
    region,
    codecs,
    *,
    chunk_key_encoding=None,
    attributes=None,
    dimension_names=None,
    strings=False,
) -> dict:
    """A v3 array; `chunks` is the outer grid (the shard shape when sharded), `fill` its JSON form."""
    return {
        "kind": "array",
        "path": path,
        "shape": list(shape),
        "chunks": list(chunks),
        "data_type": data_type,
        "fill_json": fill,
        "region": [list(r) for r in region],
        "codecs": codecs,
        "chunk_key_encoding": chunk_key_encoding,
        "attributes": attributes or {},
        "dimension_names": dimension_names,
        "strings": strings,
    }


@dataclass(frozen=True)
class GoldCase:
    writer: str
    format: str  # "v2" or "v3"
    name: str
    description: str
    requirements: tuple[str, ...]
    needs: tuple[str, ...]
    nodes: tuple[dict, ...]
    read: str = ""  # the node the case opens
    tier: str = "required"

    @property
    def id(self) -> str:
        return f"{self.format}/gold-{self.writer}/{self.name}"


# ---- shared specs -------------------------------------------------------------------------------
ZLIB = {"id": "zlib", "level": 1}
GZIP = {"id": "gzip", "level": 5}
BLOSC = {"id": "blosc", "cname": "lz4", "clevel": 5, "shuffle": 1, "blocksize": 0}
ZSTD = {"id": "zstd", "level": 3}
BZ2 = {"id": "bz2", "level": 1}
LZMA = {"id": "lzma", "format": 1, "check": -1, "preset": 1, "filters": None}
LZ4 = {"id": "lz4", "acceleration": 1}

PARTIAL_2D = ((0, 14), (0, 11))  # of (20, 13) in (6, 5) chunks: row 3 of the grid is never written


def _b64(raw: bytes) -> str:
    return base64.standard_b64encode(raw).decode("ascii")


def bytes_codec(endian="little") -> dict:
    return {"name": "bytes", "configuration": {"endian": endian}} if endian else {"name": "bytes"}


def gzip3(level=5) -> dict:
    return {"name": "gzip", "configuration": {"level": level}}


def blosc3(typesize: int, shuffle="shuffle", cname="lz4") -> dict:
    return {
        "name": "blosc",
        "configuration": {
            "cname": cname,
            "clevel": 5,
            "shuffle": shuffle,
            "typesize": typesize,
            "blocksize": 0,
        },
    }


def zstd3(level=3, checksum=False) -> dict:
    return {"name": "zstd", "configuration": {"level": level, "checksum": checksum}}


CRC32C = {"name": "crc32c"}


def sharding(inner, codecs, location="end") -> dict:
    return {
        "name": "sharding_indexed",
        "configuration": {
            "chunk_shape": list(inner),
            "codecs": codecs,
            "index_codecs": [bytes_codec(), CRC32C],
            "index_location": location,
        },
    }


def transpose(order) -> dict:
    return {"name": "transpose", "configuration": {"order": list(order)}}


_STRUCT = [["a", "<i4"], ["b", ">f8"], ["c", "|S3", [2]]]
_STRUCT_FILL = _b64(b"\xff\xff\xff\xff" + b"\x40\x04\x00\x00\x00\x00\x00\x00" + b"xy\x00zz\x00")
_STRUCT_FLAT_FILL = b"\xff\xff\xff\xff" + b"\x40\x04\x00\x00\x00\x00\x00\x00" + b"xyz"
HIER_ATTRS = {"title": "gold hierarchy", "nested": {"list": [1, 2.5, None, "\u00fc"]}}

# v2 cases, each usable by any v2 writer that supports its features: name -> (description, requirements, needs, nodes)
V2 = {
    "int32-zlib-partial": (
        "<i4 (20,13) in (6,5) chunks, zlib, fill 42; only rows 0-13 and columns 0-10 written",
        ["V2-CHUNK-001", "V2-CHUNK-004", "V2-CHUNK-005", "V2-FILL-005"],
        ["dtype:int32", "codec:zlib"],
        [v2_array("", (20, 13), (6, 5), "<i4", 42, PARTIAL_2D, compressor=ZLIB)],
    ),
    "float64-blosc-nan-order-F": (
        "<f8 (20,13) in (6,5) chunks, order F, blosc lz4 shuffle, fill NaN; partial write",
        ["V2-CHUNK-006", "V2-CHUNK-007", "V2-FILL-001", "V2-CHUNK-004"],
        ["dtype:float64", "codec:blosc", "feature:order-F"],
        [v2_array("", (20, 13), (6, 5), "<f8", "NaN", PARTIAL_2D, order="F", compressor=BLOSC)],
    ),
    "float32-big-endian-zstd-minus-infinity": (
        ">f4 (20,13) in (6,5) chunks, zstd, fill -Infinity; partial write",
        ["V2-DTYPE-002", "V2-FILL-001", "V2-CHUNK-004"],
        ["dtype:float32", "dtype:big-endian", "codec:zstd"],
        [v2_array("", (20, 13), (6, 5), ">f4", "-Infinity", PARTIAL_2D, compressor=ZSTD)],
    ),
    "uint8-gzip-slash-separator": (
        '|u1 (30,20) in (8,8) chunks, gzip, dimension_separator "/", fill 255; partial write',
        ["V2-META-007", "V2-CHUNK-003", "V2-CHUNK-004"],
        ["dtype:uint8", "codec:gzip", "feature:dimension-separator-slash"],
        [
            v2_array(
                "", (30, 20), (8, 8), "|u1", 255, ((0, 20), (3, 17)), compressor=GZIP, separator="/"
            )
        ],
    ),
    "bool-bz2": (
        "|b1 (20,13) in (6,5) chunks, bz2, fill true; partial write",
        ["V2-DTYPE-003", "V2-FILL-005", "V2-CHUNK-004"],
        ["dtype:bool", "codec:bz2"],
        [v2_array("", (20, 13), (6, 5), "|b1", True, PARTIAL_2D, compressor=BZ2)],
    ),
    "int64-lzma-order-F-3d": (
        "<i8 (7,6,5) in (3,4,2) chunks, order F, lzma, fill -1; partial write",
        ["V2-CHUNK-006", "V2-CHUNK-004"],
        ["dtype:int64", "codec:lzma", "feature:order-F"],
        [
            v2_array(
                "",
                (7, 6, 5),
                (3, 4, 2),
                "<i8",
                -1,
                ((0, 5), (0, 6), (1, 5)),
                order="F",
                compressor=LZMA,
            )
        ],
    ),
    "complex128-zlib": (
        "<c16 (9,7) in (4,4) chunks, zlib, fill 0 (the writer chooses its encoding); partial write",
        ["V2-DTYPE-009", "V2-CHUNK-004"],
        ["dtype:complex128", "codec:zlib"],
        [v2_array("", (9, 7), (4, 4), "<c16", [0.0, 0.0], ((0, 6), (0, 7)), compressor=ZLIB)],
    ),
    "bytes-S6-base64-fill": (
        '|S6 (9,7) in (4,4) chunks, zlib, fill b"abc" (given as the full-item Base64 "YWJjAAAA"); partial write',
        ["V2-DTYPE-005", "V2-FILL-002", "V2-CHUNK-004"],
        ["dtype:fixed-bytes", "codec:zlib"],
        [v2_array("", (9, 7), (4, 4), "|S6", "YWJjAAAA", ((0, 6), (0, 7)), compressor=ZLIB)],
    ),
    "unicode-U4": (
        '<U4 (9,7) in (4,4) chunks, zlib, fill "" ; partial write',
        ["V2-DTYPE-006", "V2-CHUNK-004"],
        ["dtype:fixed-unicode", "codec:zlib"],
        [v2_array("", (9, 7), (4, 4), "<U4", "", ((0, 6), (0, 7)), compressor=ZLIB)],
    ),
    "datetime64-ns": (
        "<M8[ns] (9,7) in (4,4) chunks, zlib, fill 0 (1970-01-01); partial write",
        ["V2-DTYPE-004", "V2-CHUNK-004"],
        ["dtype:datetime64", "codec:zlib"],
        [v2_array("", (9, 7), (4, 4), "<M8[ns]", 0, ((0, 6), (0, 7)), compressor=ZLIB)],
    ),
    "structured": (
        'structured [["a","<i4"],["b",">f8"],["c","|S3",[2]]] (9,7) in (4,4) chunks, zlib, Base64 fill; partial write',
        ["V2-DTYPE-007", "V2-FILL-003", "V2-CHUNK-004"],
        ["dtype:structured", "dtype:big-endian", "codec:zlib"],
        [v2_array("", (9, 7), (4, 4), _STRUCT, _STRUCT_FILL, ((0, 6), (0, 7)), compressor=ZLIB)],
    ),
    "structured-flat": (
        'structured [["a","<i4"],["b",">f8"],["c","|S3"]] (no subarray field) (9,7) in (4,4) chunks, zlib, Base64 '
        "fill; partial write",
        ["V2-DTYPE-007", "V2-FILL-003", "V2-CHUNK-004"],
        ["dtype:structured", "dtype:big-endian", "codec:zlib"],
        [
            v2_array(
                "",
                (9, 7),
                (4, 4),
                [["a", "<i4"], ["b", ">f8"], ["c", "|S3"]],
                _b64(_STRUCT_FLAT_FILL),
                ((0, 6), (0, 7)),
                compressor=ZLIB,
            )
        ],
    ),
    "float16-zlib": (
        "<f2 (9,7) in (4,4) chunks, zlib, fill 0.5; partial write",
        ["V2-DTYPE-001", "V2-FILL-005", "V2-CHUNK-004"],
        ["dtype:float16", "codec:zlib"],
        [v2_array("", (9, 7), (4, 4), "<f2", 0.5, ((0, 6), (0, 7)), compressor=ZLIB)],
    ),
    "delta-filter-zlib": (
        "<i4 (20,13) in (6,5) chunks with filters [delta] and zlib, fill 0; partial write",
        ["V2-CHUNK-002", "V2-CHUNK-001"],
        ["dtype:int32", "codec:delta", "codec:zlib"],
        [
            v2_array(
                "",
                (20, 13),
                (6, 5),
                "<i4",
                0,
                PARTIAL_2D,
                compressor=ZLIB,
                filters=[{"id": "delta", "dtype": "<i4"}],
            )
        ],
    ),
    "lz4-int16": (
        "<i2 (20,13) in (6,5) chunks, lz4, fill -3; partial write",
        ["V2-CHUNK-001", "V2-CHUNK-004"],
        ["dtype:int16", "codec:lz4"],
        [v2_array("", (20, 13), (6, 5), "<i2", -3, PARTIAL_2D, compressor=LZ4)],
    ),
    "vlen-utf8": (
        "'|O' text (9,7) in (4,4) chunks with the vlen-utf8 object codec and zlib, fill \"\"; partial write",
        ["V2-CHUNK-002", "V2-CHUNK-004"],
        ["dtype:object", "codec:vlen-utf8", "codec:zlib"],
        [
            v2_array(
                "",
                (9, 7),
                (4, 4),
                "|O",
                "",
                ((0, 6), (0, 7)),
                compressor=ZLIB,
                filters=[{"id": "vlen-utf8"}],
                strings=True,
            )
        ],
    ),
}
V2_HIERARCHY = [
    group("", HIER_ATTRS),
    group("g", {"level": 1}),
    v2_array(
        "g/arr",
        (11, 9),
        (4, 4),
        "<u2",
        7,
        ((0, 8), (0, 9)),
        compressor=ZLIB,
        attributes={"units": "m"},
    ),
    v2_array("x", (5,), (2,), "<f4", -0.5, ((0, 5),), compressor=None),
]

# v3 cases: name -> (description, requirements, needs, nodes)
V3 = {
    "int32-gzip-partial": (
        "int32 (20,13) in (6,5) chunks, [bytes little, gzip 5], fill 42; only rows 0-13 and columns 0-10 written",
        ["V3-FILL-009", "V3-GZIP-002", "V3-GRID-004", "V3-CKE-001"],
        ["dtype:int32", "codec:bytes", "codec:gzip"],
        [v3_array("", (20, 13), (6, 5), "int32", 42, PARTIAL_2D, [bytes_codec(), gzip3()])],
    ),
    "float32-blosc-nan": (
        "float32 (20,13) in (6,5) chunks, [bytes, blosc lz4 shuffle typesize 4], fill NaN; partial write",
        ["V3-BLOSC-004", "V3-FILL-005", "V3-FILL-009"],
        ["dtype:float32", "codec:bytes", "codec:blosc"],
        [v3_array("", (20, 13), (6, 5), "float32", "NaN", PARTIAL_2D, [bytes_codec(), blosc3(4)])],
    ),
    "float64-zstd-crc32c-minus-infinity": (
        "float64 (20,13) in (6,5) chunks, [bytes, zstd 3, crc32c], fill -Infinity; partial write",
        ["V3-ZSTD-002", "V3-CRC-002", "V3-FILL-004", "V3-PIPE-002"],
        ["dtype:float64", "codec:bytes", "codec:zstd", "codec:crc32c"],
        [
            v3_array(
                "",
                (20, 13),
                (6, 5),
                "float64",
                "-Infinity",
                PARTIAL_2D,
                [bytes_codec(), zstd3(), CRC32C],
            )
        ],
    ),
    "uint16-big-endian": (
        "uint16 (20,13) in (6,5) chunks, [bytes big], fill 7; partial write",
        ["V3-DT-003", "V3-BYTES-003"],
        ["dtype:uint16", "codec:bytes", "dtype:big-endian"],
        [v3_array("", (20, 13), (6, 5), "uint16", 7, PARTIAL_2D, [bytes_codec("big")])],
    ),
    "int16-transpose-gzip": (
        "int16 (20,13) in (6,5) chunks, [transpose [1,0], bytes, gzip], fill -1; partial write",
        ["V3-TRANS-002", "V3-TRANS-003", "V3-PIPE-002"],
        ["dtype:int16", "codec:transpose", "codec:bytes", "codec:gzip"],
        [
            v3_array(
                "",
                (20, 13),
                (6, 5),
                "int16",
                -1,
                PARTIAL_2D,
                [transpose((1, 0)), bytes_codec(), gzip3()],
            )
        ],
    ),
    "sharding-index-end": (
        "int32 (20,13) in (8,10) shards of (4,5) inner chunks [bytes, gzip], index [bytes, crc32c] at the end, "
        "fill 42; partial write leaves empty inner chunks and a missing shard",
        ["V3-SHARD-006", "V3-SHARD-007", "V3-SHARD-014", "V3-SHARD-017"],
        ["dtype:int32", "codec:sharding_indexed", "codec:bytes", "codec:gzip", "codec:crc32c"],
        [
            v3_array(
                "",
                (20, 13),
                (8, 10),
                "int32",
                42,
                ((0, 11), (0, 13)),
                [sharding((4, 5), [bytes_codec(), gzip3()])],
            )
        ],
    ),
    "sharding-index-start": (
        "float32 (20,13) in (8,10) shards of (4,5) inner chunks [bytes], index at the start, fill 0.5; partial write",
        ["V3-SHARD-010", "V3-SHARD-007", "V3-SHARD-014"],
        [
            "dtype:float32",
            "codec:sharding_indexed",
            "codec:bytes",
            "codec:crc32c",
            "feature:sharding-index-start",
        ],
        [
            v3_array(
                "",
                (20, 13),
                (8, 10),
                "float32",
                0.5,
                ((0, 11), (0, 13)),
                [sharding((4, 5), [bytes_codec()], "start")],
            )
        ],
    ),
    "bool-fill-true": (
        "bool (9,7) in (4,4) chunks, [bytes, gzip], fill true; partial write",
        ["V3-DT-002", "V3-FILL-001", "V3-FILL-009"],
        ["dtype:bool", "codec:bytes", "codec:gzip"],
        [
            v3_array(
                "", (9, 7), (4, 4), "bool", True, ((0, 6), (0, 7)), [bytes_codec(None), gzip3()]
            )
        ],
    ),
    "uint64-max-fill": (
        "uint64 (9,7) in (4,4) chunks, [bytes], fill 18446744073709551615; partial write",
        ["V3-FILL-002", "V3-FILL-009"],
        ["dtype:uint64", "codec:bytes"],
        [v3_array("", (9, 7), (4, 4), "uint64", 2**64 - 1, ((0, 6), (0, 7)), [bytes_codec()])],
    ),
    "complex64-zstd": (
        "complex64 (9,7) in (4,4) chunks, [bytes, zstd], fill [1.0, -2.0]; partial write",
        ["V3-DT-005", "V3-FILL-007", "V3-FILL-009"],
        ["dtype:complex64", "codec:bytes", "codec:zstd"],
        [
            v3_array(
                "",
                (9, 7),
                (4, 4),
                "complex64",
                [1.0, -2.0],
                ((0, 6), (0, 7)),
                [bytes_codec(), zstd3()],
            )
        ],
    ),
    "float16-v2-key-encoding": (
        'float16 (9,7) in (4,4) chunks, chunk_key_encoding v2 ".", fill -0.0; partial write',
        ["V3-CKE-005", "V3-DT-004", "V3-FILL-009"],
        ["dtype:float16", "codec:bytes", "feature:chunk-key-encoding-v2"],
        [
            v3_array(
                "",
                (9, 7),
                (4, 4),
                "float16",
                -0.0,
                ((0, 6), (0, 7)),
                [bytes_codec()],
                chunk_key_encoding={"name": "v2", "configuration": {"separator": "."}},
            )
        ],
    ),
    "attributes-dimension-names": (
        'int8 (9,7) with attributes and dimension_names ["y", "x"], [bytes], fill 3; partial write',
        ["V3-ATTR-001", "V3-ATTR-002", "V3-ARR-008"],
        ["dtype:int8", "codec:bytes", "feature:dimension-names", "feature:attributes"],
        [
            v3_array(
                "",
                (9, 7),
                (4, 4),
                "int8",
                3,
                ((0, 6), (0, 7)),
                [bytes_codec(None)],
                attributes=HIER_ATTRS,
                dimension_names=["y", "x"],
            )
        ],
    ),
}
V3_HIERARCHY = [
    group("", HIER_ATTRS),
    group("g", {"level": 1}),
    v3_array(
        "g/arr",
        (11, 9),
        (4, 4),
        "uint16",
        7,
        ((0, 8), (0, 9)),
        [bytes_codec(), gzip3()],
        attributes={"units": "m"},
    ),
    v3_array("x", (5,), (2,), "float32", -0.5, ((0, 5),), [bytes_codec()]),
]

# Which shared cases each writer writes (the rest of the features: see the report / README).
PLAN = {
    "zarr-python": {
        "v2": [
            "int32-zlib-partial",
            "float64-blosc-nan-order-F",
            "float32-big-endian-zstd-minus-infinity",
            "uint8-gzip-slash-separator",
            "bool-bz2",
            "bytes-S6-base64-fill",
            "unicode-U4",
            "datetime64-ns",
            "structured-flat",
            "delta-filter-zlib",
            "vlen-utf8",
            "hierarchy",
            "complex128-zlib",
            "lz4-int16",
            "int64-lzma-order-F-3d",
        ],
        "v3": [
            "int32-gzip-partial",
            "float32-blosc-nan",
            "float64-zstd-crc32c-minus-infinity",
            "uint16-big-endian",
            "int16-transpose-gzip",
            "sharding-index-end",
            "sharding-index-start",
            "bool-fill-true",
            "uint64-max-fill",
            "complex64-zstd",
            "float16-v2-key-encoding",
            "attributes-dimension-names",
            "hierarchy",
        ],
    },
    "zarr-python2": {
        "v2": [
            "int32-zlib-partial",
            "float64-blosc-nan-order-F",
            "float32-big-endian-zstd-minus-infinity",
            "uint8-gzip-slash-separator",
            "bool-bz2",
            "int64-lzma-order-F-3d",
            "complex128-zlib",
            "bytes-S6-base64-fill",
            "unicode-U4",
            "datetime64-ns",
            "structured",
            "delta-filter-zlib",
            "lz4-int16",
            "vlen-utf8",
            "hierarchy",
        ]
    },
    "tensorstore": {
        "v2": [
            "int32-zlib-partial",
            "float64-blosc-nan-order-F",
            "float32-big-endian-zstd-minus-infinity",
            "uint8-gzip-slash-separator",
            "bool-bz2",
            "complex128-zlib",
            "bytes-S6-base64-fill",
            "structured",
            "float16-zlib",
        ],
        "v3": [
            "int32-gzip-partial",
            "float32-blosc-nan",
            "float64-zstd-crc32c-minus-infinity",
            "uint16-big-endian",
            "int16-transpose-gzip",
            "sharding-index-end",
            "sharding-index-start",
            "uint64-max-fill",
            "complex64-zstd",
            "attributes-dimension-names",
            "bool-fill-true",
            "float16-v2-key-encoding",
        ],
    },
    "zarrs": {
        "v2": [
            "int32-zlib-partial",
            "float64-blosc-nan-order-F",
            "float32-big-endian-zstd-minus-infinity",
            "bool-bz2",
        ],
        "v3": [
            "int32-gzip-partial",
            "float32-blosc-nan",
            "float64-zstd-crc32c-minus-infinity",
            "uint16-big-endian",
            "int16-transpose-gzip",
            "sharding-index-end",
            "sharding-index-start",
            "bool-fill-true",
            "uint64-max-fill",
            "complex64-zstd",
            "float16-v2-key-encoding",
        ],
    },
}
EXTENSION_CASES = {"vlen-utf8"}


def cases_for(writer: str) -> list[GoldCase]:
    out = []
    for fmt, names in PLAN[writer].items():
        table, hierarchy = (V2, V2_HIERARCHY) if fmt == "v2" else (V3, V3_HIERARCHY)
        for name in names:
            if name == "hierarchy":
                needs = (
                    "node:group",
                    "feature:attributes",
                    "dtype:uint16",
                    "dtype:float32",
                    "codec:zlib" if fmt == "v2" else "codec:gzip",
                )
                groups = (
                    ["V2-GROUP-004", "V2-GROUP-005", "V2-ATTR-001"]
                    if fmt == "v2"
                    else ["V3-GRP-006", "V3-GRP-008", "V3-ATTR-002"]
                )
                out.append(
                    GoldCase(
                        writer,
                        fmt,
                        "hierarchy",
                        f"{writer}: {fmt} root group with attributes, a "
                        "subgroup g holding array g/arr, and array x: root members {g, x}",
                        tuple(groups),
                        needs,
                        tuple(hierarchy),
                        read="",
                    )
                )
                out.append(
                    GoldCase(
                        writer,
                        fmt,
                        "hierarchy-array",
                        f"{writer}: {fmt} array g/arr with attributes "
                        "inside the gold hierarchy, partly written",
                        tuple(groups[:1] + groups[2:]),
                        needs,
                        tuple(hierarchy),
                        read="g/arr",
                    )
                )
                continue
            description, requirements, needs, nodes = table[name]
            out.append(
                GoldCase(
                    writer,
                    fmt,
                    name,
                    f"{writer}: {fmt} {description}",
                    tuple(requirements),
                    tuple(needs),
                    tuple(nodes),
                    tier="extension" if name in EXTENSION_CASES else "required",
                )
            )
    return out


def all_cases() -> list[GoldCase]:
    return [c for w in WRITERS for c in cases_for(w)]


def node_at(case: GoldCase, path: str) -> dict:
    return next(n for n in case.nodes if n["path"] == path)
