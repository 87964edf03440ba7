"""Draft codecs by URI (V3DRAFT-META-012/013) and zarr-python 2's `compressor` (V3DRAFT-ZP2-003).

A chunk moves through representations: the decoded array (chunk shape, or reversed for "F"
memory layout), then byte strings. `endian` needs an array and yields bytes; `gzip` and `blosc`
take bytes (an array is first turned into its default little-endian C-order bytes) and yield
bytes. An `endian` after a byte codec has no array to work on and is refused as 'codec-order'.

Decoding is bounded: a codec never produces more than the size the next representation needs,
so hostile chunks cannot expand without limit.
"""

from __future__ import annotations

import gzip
import math
import struct
import zlib
from dataclasses import dataclass
from typing import Any, Literal

import numcodecs
import numcodecs.blosc
import numpy as np

from ...array import MAX_CHUNK_BYTES
from ...errors import ChunkError, MetadataError, UnsupportedError

GZIP_URI = "https://purl.org/zarr/spec/codecs/gzip/1.0"
BLOSC_URI = "https://purl.org/zarr/spec/codecs/blosc/1.0"
ENDIAN_URI = "https://purl.org/zarr/spec/codecs/endian/1.0"
ZP2_CODEC_PREFIX = "https://purl.org/zarr/spec/codec/"
ZP2_CODECS = ("gzip", "zlib", "blosc", "bz2", "lz4", "lzma", "zstd")
BLOSC_CNAMES = ("lz4", "lz4hc", "blosclz", "zstd", "snappy", "zlib")


def _bad(message: str, requirement: str = "V3DRAFT-META-013") -> MetadataError:
    return MetadataError("invalid-codec", message, requirement)


def _int_in(config: dict[str, Any], name: str, low: int, high: int | None, where: str) -> int:
    value = config.get(name)
    if (
        not isinstance(value, int)
        or isinstance(value, bool)
        or value < low
        or (high is not None and value > high)
    ):
        span = f"{low}..{high}" if high is not None else f">= {low}"
        raise _bad(f"{where} {name!r} must be an integer {span}, got {value!r}")
    return value


def _check_members(
    config: dict[str, Any], required: set[Any], optional: set[Any], where: str
) -> None:
    missing = required - set(config)
    extra = set(config) - required - optional
    if missing:
        raise _bad(f"{where} configuration lacks {sorted(missing)}")
    if extra:
        raise _bad(f"{where} configuration has undefined members {sorted(extra)}")


def inflate(data: bytes, wbits: int, size: int | None) -> bytes:
    """DEFLATE in a gzip (wbits 31), zlib (15) or either (47) container, bounded by `size`."""
    limit = MAX_CHUNK_BYTES if size is None else size
    out, rest = bytearray(), bytes(data)
    while True:  # gzip allows several concatenated members
        decoder = zlib.decompressobj(wbits)
        out += decoder.decompress(rest, limit + 1 - len(out))
        if len(out) > limit:
            raise ChunkError("corrupt-chunk", f"compressed chunk expands beyond {limit} bytes")
        if not decoder.eof:
            raise ChunkError("corrupt-chunk", "compressed chunk is truncated")
        rest = decoder.unused_data
        if not rest:
            return bytes(out)
        if wbits == 15:
            raise ChunkError("corrupt-chunk", "trailing bytes after the zlib stream")


@dataclass(frozen=True)
class GzipCodec:
    level: int
    wants_array = False
    uri = GZIP_URI

    def encode(self, data: bytes) -> bytes:
        return gzip.compress(data, compresslevel=self.level, mtime=0)

    def decode(self, data: bytes, size: int | None) -> bytes:
        # The draft says decoding is RFC 1951 and the container *should* be gzip: zlib is read too.
        return inflate(data, 47, size)


@dataclass(frozen=True)
class ZlibCodec:  # zarr-python 2's 'zlib' compressor
    level: int
    wants_array = False

    def encode(self, data: bytes) -> bytes:
        return zlib.compress(data, self.level)

    def decode(self, data: bytes, size: int | None) -> bytes:
        return inflate(data, 15, size)


@dataclass(frozen=True)
class BloscCodec:
    cname: str
    clevel: int
    shuffle: int
    blocksize: int = 0
    wants_array = False
    typed_input = True  # an array input gives blosc its item size (as zarr-python 2 does)

    def encode(self, data: Any) -> bytes:
        codec = numcodecs.Blosc(
            cname=self.cname, clevel=self.clevel, shuffle=self.shuffle, blocksize=self.blocksize
        )
        return bytes(codec.encode(data))

    def decode(self, data: bytes, size: int | None) -> bytes:
        if len(data) < 16:
            raise ChunkError("corrupt-chunk", "blosc chunk is shorter than its 16-byte header")
        # header: version, versionlz, flags, typesize (u8 each), nbytes, blocksize, cbytes (u32 LE)
        nbytes, _, cbytes = struct.unpack_from("<III", data, 4)
        if cbytes != len(data):
            raise ChunkError(
                "corrupt-chunk",
                f"blosc header says {cbytes} compressed bytes, chunk has {len(data)}",
            )
        if nbytes > (MAX_CHUNK_BYTES if size is None else size):
            raise ChunkError(
                "corrupt-chunk", f"blosc header says {nbytes} bytes, more than the chunk holds"
            )
        return bytes(numcodecs.blosc.decompress(data))


@dataclass(frozen=True)
class NumcodecsCodec:  # zarr-python 2's bz2/lz4/lzma/zstd compressors
    config: tuple[Any, ...]
    wants_array = False

    def encode(self, data: bytes) -> bytes:
        return bytes(numcodecs.get_codec(dict(self.config)).encode(data))

    def decode(self, data: bytes, size: int | None) -> bytes:
        out = bytes(numcodecs.get_codec(dict(self.config)).decode(data))
        if size is not None and len(out) != size:
            raise ChunkError(
                "corrupt-chunk", f"chunk decompresses to {len(out)} bytes, expected {size}"
            )
        return out


@dataclass(frozen=True)
class EndianCodec:
    endian: str  # 'little' or 'big'
    wants_array = True
    uri = ENDIAN_URI

    def byte_order(self) -> Literal["<", ">"]:
        return "<" if self.endian == "little" else ">"


def parse_codecs(value: Any) -> list[Any]:
    """The seed-002 `codecs` list (absent means [], V3DRAFT-META-012)."""
    if not isinstance(value, list):
        raise _bad("codecs must be a list", "V3DRAFT-META-012")
    steps = []
    for entry in value:
        if not isinstance(entry, dict) or not isinstance(entry.get("type"), str):
            raise _bad("each codec is an object with a 'type' URI", "V3DRAFT-META-012")
        if set(entry) - {"type", "configuration"}:
            raise _bad(
                f"codec has undefined members {sorted(set(entry) - {'type', 'configuration'})}"
            )
        config = entry.get("configuration", {})
        if not isinstance(config, dict):
            raise _bad("a codec configuration must be an object", "V3DRAFT-META-012")
        steps.append(_parse_codec(entry["type"], config))
    check_order(steps)
    return steps


def _parse_codec(uri: str, config: dict[str, Any]) -> Any:
    if uri == GZIP_URI:
        _check_members(config, {"level"}, set(), "gzip")
        return GzipCodec(_int_in(config, "level", 0, 9, "gzip"))
    if uri == BLOSC_URI:
        # The draft lists no defaults; blocksize alone has an obvious one (0 = automatic).
        _check_members(config, {"cname", "clevel", "shuffle"}, {"blocksize"}, "blosc")
        return _blosc(config, "blosc")
    if uri == ENDIAN_URI:
        _check_members(config, {"endian"}, set(), "endian")
        if config["endian"] not in ("big", "little"):
            raise _bad(f"endian must be 'big' or 'little', got {config['endian']!r}")
        return EndianCodec(config["endian"])
    raise MetadataError("unknown-codec", f"unknown codec {uri!r}", "V3DRAFT-META-013")


def _blosc(config: dict[str, Any], where: str) -> BloscCodec:
    cname = config.get("cname")
    if cname not in BLOSC_CNAMES:
        raise _bad(f"{where} cname must be one of {BLOSC_CNAMES}, got {cname!r}")
    if cname not in numcodecs.blosc.list_compressors():
        raise UnsupportedError(f"blosc compressor {cname!r} is not built into this numcodecs")
    clevel = _int_in(config, "clevel", 0, 9, where)
    shuffle = config.get("shuffle")
    if shuffle not in (0, 1, 2, -1) or isinstance(shuffle, bool):
        raise _bad(f"{where} shuffle must be one of 0, 1, 2, -1, got {shuffle!r}")
    blocksize = _int_in(config, "blocksize", 0, None, where) if "blocksize" in config else 0
    return BloscCodec(cname, clevel, shuffle, blocksize)


def check_order(steps: list[Any]) -> None:
    """Only the first step may receive an array; a step that needs one cannot follow bytes."""
    for position, step in enumerate(steps):
        if step.wants_array and position > 0:
            raise MetadataError(
                "codec-order",
                "the endian codec needs an array but follows a byte codec",
                "V3DRAFT-META-013",
            )


def parse_zp2_compressor(value: Any) -> Any:
    """`{"codec": ".../spec/codec/<id>/1.0", "configuration": {numcodecs config}}` (V3DRAFT-ZP2-003)."""
    requirement = "V3DRAFT-ZP2-003"
    if not isinstance(value, dict) or set(value) != {"codec", "configuration"}:
        raise _bad("compressor is {'codec': URI, 'configuration': {...}}", requirement)
    uri, config = value["codec"], value["configuration"]
    if not isinstance(uri, str) or not isinstance(config, dict):
        raise _bad("compressor codec must be a URI and configuration an object", requirement)
    name = uri[len(ZP2_CODEC_PREFIX) :].split("/")[0] if uri.startswith(ZP2_CODEC_PREFIX) else None
    if name not in ZP2_CODECS or uri != f"{ZP2_CODEC_PREFIX}{name}/1.0":
        raise MetadataError(
            "unknown-codec", f"unknown zarr-python 2 compressor {uri!r}", requirement
        )
    if name in ("gzip", "zlib"):
        _check_members(config, {"level"}, set(), name)
        level = _int_in(config, "level", 0, 9, name)
        return GzipCodec(level) if name == "gzip" else ZlibCodec(level)
    if name == "blosc":
        _check_members(config, {"cname", "clevel", "shuffle"}, {"blocksize", "typesize"}, name)
        return _blosc({k: v for k, v in config.items() if k != "typesize"}, name)
    try:
        codec = numcodecs.get_codec({**config, "id": name})
    except Exception as exc:  # numcodecs raises TypeError/ValueError on bad keyword arguments
        raise _bad(f"{name} configuration {config!r} is invalid: {exc}", requirement) from None
    return NumcodecsCodec(tuple(sorted(codec.get_config().items())))


class DraftChunkCodec:
    """One chunk <-> stored bytes: memory layout, the codec steps, then the default conversion.

    `dtype` is the decoded dtype; its byte order is the one used when an array is turned into
    bytes without an endian codec (little for seed-002, as stored for zarr-python 2 typestrs)."""

    def __init__(self, chunk_shape: tuple[int, ...], dtype: np.dtype, order: str, steps: list[Any]):
        self.chunk_shape = chunk_shape
        self.dtype = dtype
        self.order = order
        self.steps = steps
        self.layout_shape = chunk_shape if order == "C" else chunk_shape[::-1]
        self.nbytes = math.prod(chunk_shape) * dtype.itemsize

    def encode(self, chunk: np.ndarray) -> bytes:
        data: Any = chunk if self.order == "C" else chunk.T  # EC[0] (V3DRAFT-META-010)
        for step in self.steps:
            if isinstance(step, EndianCodec):
                data = np.ascontiguousarray(
                    data, dtype=self.dtype.newbyteorder(step.byte_order())
                ).tobytes()
            elif isinstance(data, np.ndarray) and getattr(step, "typed_input", False):
                data = step.encode(np.ascontiguousarray(data, dtype=self.dtype))
            else:
                data = step.encode(data if isinstance(data, bytes) else self._to_bytes(data))
        return data if isinstance(data, bytes) else self._to_bytes(data)

    def _to_bytes(self, array: np.ndarray) -> bytes:
        return np.ascontiguousarray(array, dtype=self.dtype).tobytes()

    def decode(self, data: bytes) -> np.ndarray:
        data = bytes(data)
        array = None
        for position in range(len(self.steps) - 1, -1, -1):
            step = self.steps[position]
            if isinstance(step, EndianCodec):
                array = self._from_bytes(data, self.dtype.newbyteorder(step.byte_order()))
            else:
                # The decoded size is known when the step below is the array (or an endian codec).
                size = (
                    self.nbytes if position == 0 or self.steps[position - 1].wants_array else None
                )
                data = step.decode(data, size)
        if array is None:
            array = self._from_bytes(data, self.dtype)
        array = array.astype(self.dtype, copy=False)
        return array if self.order == "C" else array.T

    def _from_bytes(self, data: bytes, dtype: np.dtype) -> np.ndarray:
        if len(data) != self.nbytes:
            raise ChunkError(
                "corrupt-chunk", f"chunk has {len(data)} bytes, expected {self.nbytes}"
            )
        return np.frombuffer(data, dtype=dtype).reshape(self.layout_shape)
