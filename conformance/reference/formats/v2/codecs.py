"""v2 chunk encoding: raw bytes in `order`, then the filters in list order, then the compressor;
decoding runs the other way (V2-CHUNK-001/002/006). numcodecs supplies the codec primitives.
"""

from __future__ import annotations

import bz2
import lzma
import math
import struct
import zlib
from typing import Any, Literal

import numcodecs
import numpy as np
from numcodecs.abc import Codec
from numcodecs.compat import ensure_bytes, ensure_contiguous_ndarray

from ...array import MAX_CHUNK_BYTES
from ...errors import ChunkError, LimitError, MetadataError, UnsupportedError, ZarrError
from ...inflate import inflate_stream, inflate_zlib
from ...value_cost import MAX_FRAME_BYTES, charge_frame, value_account

# Object codecs the reference reads and writes for '|O' arrays (the zarr-python extension tier).
OBJECT_CODECS = frozenset({"vlen-utf8", "vlen-bytes"})
# Object codecs that exist in numcodecs but that the reference will not run.
UNSUPPORTED_OBJECT_CODECS = frozenset({"vlen-array", "json2", "msgpack2", "pickle"})
# 'pickle' decoding runs arbitrary code from the store: never for a hostile-input reader.
REFUSED_CODECS = {"pickle": "it would execute code stored in the array"}
# Codecs that accept bad settings until first use, so a tiny encode checks them at open time.
_PROBED = frozenset({"blosc", "zlib", "gzip", "bz2", "lz4"})
# Filters whose decode failure means the stored checksum does not match.
# Compressors, wherever they appear (as the compressor or as a filter), decode with a bound.
COMPRESSOR_CODECS = frozenset({"zlib", "gzip", "bz2", "lzma", "blosc", "lz4", "zstd"})
LZMA_MEMORY_LIMIT = 256 << 20
CHECKSUM_CODECS = frozenset({"crc32", "crc32c", "adler32", "fletcher32", "jenkins_lookup3"})


def build_codec(config: Any, role: str, requirement: str) -> Codec:
    """A numcodecs codec from a v2 compressor or filter object (which must carry an "id")."""
    if not isinstance(config, dict):
        raise MetadataError(
            "invalid-codec", f"{role} must be a JSON object, got {config!r}", requirement
        )
    codec_id = config.get("id")
    if codec_id is None:
        raise MetadataError("invalid-codec", f'{role} {config!r} has no "id"', requirement)
    if not isinstance(codec_id, str):
        raise MetadataError(
            "invalid-codec", f"{role} id {codec_id!r} must be a string", requirement
        )
    if codec_id in REFUSED_CODECS:
        raise UnsupportedError(
            f"{role} {codec_id!r} is refused: {REFUSED_CODECS[codec_id]}", requirement
        )
    try:
        codec = numcodecs.get_codec(dict(config))
        if codec_id in _PROBED:  # (not lzma: a high preset costs hundreds of MB to try)
            codec.encode(bytes(16))
        return codec
    except numcodecs.errors.UnknownCodecError:
        raise MetadataError(
            "unknown-codec", f"{role} {codec_id!r} is not a known codec", "V2-CHUNK-008"
        ) from None
    except Exception as exc:  # the codec refused its configuration
        raise MetadataError(
            "invalid-codec", f"{role} {config!r} is not a valid configuration: {exc}", requirement
        ) from None


def _over(what: str, bound: int, limit: bool) -> ZarrError:
    """A stream decoding past `bound`: corrupt where the chunk's size is known; past the reference's
    limit (too-large) where it is not (variable-length frames, `limit`)."""
    if limit:
        return LimitError(
            f"{what} decodes to more than {bound} bytes, the most a variable-length frame may take"
        )
    return ChunkError("corrupt-chunk", f"{what} decodes to more than the {bound} bytes expected")


def _check_blosc_header(data: bytes, bound: int = MAX_CHUNK_BYTES, limit: bool = False) -> None:
    """Refuse a Blosc frame whose header disagrees with its length before the C library sees it."""
    if len(data) < 16:
        raise ChunkError(
            "corrupt-chunk", f"blosc chunk of {len(data)} bytes is shorter than its 16-byte header"
        )
    nbytes, _blocksize, cbytes = struct.unpack_from("<III", data, 4)
    if cbytes != len(data):
        raise ChunkError(
            "corrupt-chunk",
            f"blosc header says {cbytes} compressed bytes, the chunk has {len(data)}",
        )
    if nbytes > bound:
        raise _over(f"blosc chunk (its header claims {nbytes} bytes)", bound, limit)


def _check_vlen_header(buf: Any, count: int) -> None:
    """A vlen frame starts with its item count (LE u32) and holds at least 4 bytes per item: check
    both before numcodecs allocates that many Python objects."""
    raw = ensure_contiguous_ndarray(buf).view(np.uint8)
    if raw.nbytes < 4:
        raise ChunkError("corrupt-chunk", "vlen chunk is shorter than its 4-byte item count")
    (items,) = struct.unpack_from("<I", raw[:4].tobytes())
    if items != count or raw.nbytes < 4 + 4 * items:
        raise ChunkError(
            "corrupt-chunk",
            f"vlen chunk claims {items} items in {raw.nbytes} bytes, expected {count}",
        )


def _check_lz4_header(data: bytes, bound: int = MAX_CHUNK_BYTES, limit: bool = False) -> None:
    """numcodecs' lz4 frame starts with the decoded size (LE i32), which it allocates up front."""
    if len(data) < 4:
        raise ChunkError("corrupt-chunk", "lz4 chunk is shorter than its 4-byte size header")
    (size,) = struct.unpack_from("<i", data)
    if size > bound:
        raise _over(f"lz4 chunk (its header claims {size} bytes)", bound, limit)
    if size < 0:
        raise ChunkError("corrupt-chunk", f"lz4 header claims {size} decoded bytes")


def _bounded_lzma(codec: Codec, data: bytes, bound: int, limit: bool = False) -> bytearray:
    fmt = getattr(codec, "format", lzma.FORMAT_XZ)
    filters = getattr(codec, "filters", None) if fmt == lzma.FORMAT_RAW else None
    try:
        # memlimit: the decoder's own dictionary (preset 9 needs 65 MiB) is bounded too
        inflater = lzma.LZMADecompressor(format=fmt, memlimit=LZMA_MEMORY_LIMIT, filters=filters)
        out = inflate_stream(inflater, data, bound)
    except lzma.LZMAError as exc:
        raise ChunkError("corrupt-chunk", f"lzma stream cannot be decoded: {exc}") from None
    if len(out) > bound:
        raise _over("lzma stream", bound, limit)
    if not inflater.eof:
        raise ChunkError("corrupt-chunk", "lzma stream is truncated")
    return out


def _bounded_decompress(
    codec_id: str, data: bytes, bound: int, codec: Codec | None = None, limit: bool = False
) -> bytearray | None:
    """Decompress zlib, gzip, bz2 and lzma streams with the stdlib, stopping past `bound` bytes, so
    a decompression bomb costs nothing; None for other compressors (numcodecs decodes those, after
    a check of the size their headers declare)."""
    if codec_id in ("zlib", "gzip"):
        inflater = zlib.decompressobj(zlib.MAX_WBITS | (16 if codec_id == "gzip" else 0))
        try:
            out = inflate_zlib(inflater, data, bound)
        except zlib.error as exc:
            raise ChunkError(
                "corrupt-chunk", f"{codec_id} stream cannot be decoded: {exc}"
            ) from None
        if len(out) > bound or inflater.unconsumed_tail:
            raise _over(f"{codec_id} stream", bound, limit)
        if not inflater.eof:
            raise ChunkError("corrupt-chunk", f"{codec_id} stream is truncated")
        return out
    if codec_id == "bz2":
        bz2_inflater = bz2.BZ2Decompressor()
        try:
            out = inflate_stream(bz2_inflater, data, bound)
        except (OSError, ValueError) as exc:
            raise ChunkError("corrupt-chunk", f"bz2 stream cannot be decoded: {exc}") from None
        if len(out) > bound:
            raise _over("bz2 stream", bound, limit)
        if not bz2_inflater.eof:
            raise ChunkError("corrupt-chunk", "bz2 stream is truncated")
        return out
    if codec_id == "lzma" and codec is not None:
        return _bounded_lzma(codec, data, bound, limit)
    if codec_id == "blosc":
        _check_blosc_header(data, bound, limit)
    elif codec_id == "lz4":
        _check_lz4_header(data, bound, limit)
    elif codec_id == "zstd":
        from ..v3.codecs.zstd_frames import walk

        if walk(data).bound > bound:
            raise _over("zstd frames", bound, limit)
    return None


class V2ChunkCodec:
    """The ChunkCodec of a v2 (or v1) array."""

    def __init__(
        self,
        dtype: np.dtype,
        chunk_shape: tuple[int, ...],
        order: str,
        filters: list[Codec],
        compressor: Codec | None,
    ):
        self.dtype = dtype
        self.chunk_shape = chunk_shape
        self.order: Literal["C", "F"] = "F" if order == "F" else "C"  # validated upstream
        self.filters = list(filters)
        self.compressor = compressor
        self.count = math.prod(chunk_shape)

    def encode(self, chunk: np.ndarray) -> bytes:
        # One flat array in storage order: C = row-major, F = column-major (V2-CHUNK-006).
        buf: Any = np.asarray(chunk, dtype=self.dtype).ravel(order=self.order)
        if self.dtype.hasobject and not buf.flags.writeable:
            buf = buf.copy()  # numcodecs' vlen encoders want a writable buffer
        if self.dtype.names is not None:
            # The same bytes as opaque items of the same size: the buffer protocol cannot export
            # structured types with datetime fields, and codecs only need the item size.
            buf = buf.view(np.dtype(("V", self.dtype.itemsize)))
        for f in self.filters:
            buf = f.encode(buf)
        if self.compressor is not None:
            buf = self.compressor.encode(buf)
        return ensure_bytes(buf)

    def _decoded_bound(self) -> int:
        """The most bytes any decoding step of a valid chunk yields: exactly the chunk's size
        without filters; filters change the item size at most eightfold (packbits, astype between
        1- and 8-byte types); object chunks have no fixed size."""
        expected = self.count * self.dtype.itemsize
        if self.dtype.hasobject:
            return MAX_FRAME_BYTES  # a vlen frame is held beside its objects (value_cost.py)
        return expected if not self.filters else min(MAX_CHUNK_BYTES, 8 * expected)

    def decode(self, data: bytes) -> np.ndarray:
        with value_account():
            return self._decode(data)

    def _decode(self, data: bytes) -> np.ndarray:
        buf: Any = data
        bound = self._decoded_bound()
        limit = self.dtype.hasobject  # no size to expect: the bound is a limit
        if self.compressor is not None:
            out = _bounded_decompress(
                self.compressor.codec_id, bytes(data), bound, self.compressor, limit
            )
            buf = self.compressor.decode(buf) if out is None else out
        for f in reversed(self.filters):
            if f.codec_id in OBJECT_CODECS:
                _check_vlen_header(buf, self.count)
                frame = ensure_contiguous_ndarray(buf).view(np.uint8)
                charge_frame(frame, self.count, text=f.codec_id == "vlen-utf8")
            if f.codec_id in COMPRESSOR_CODECS:
                out = _bounded_decompress(f.codec_id, ensure_bytes(buf), bound, f, limit)
                if out is not None:
                    buf = out
                    continue
            try:
                buf = f.decode(buf)
            except Exception as exc:
                if f.codec_id in CHECKSUM_CODECS:
                    raise ChunkError(
                        "checksum-mismatch", f"{f.codec_id} check failed: {exc}"
                    ) from None
                raise
        if self.dtype.hasobject:
            flat = np.asarray(buf)
            if flat.dtype != object or flat.size != self.count:
                raise ChunkError(
                    "corrupt-chunk",
                    f"object chunk decodes to {flat.size} items, expected {self.count}",
                )
            return flat.reshape(self.chunk_shape, order=self.order)
        raw = ensure_contiguous_ndarray(buf).view(np.uint8)
        expected = self.count * self.dtype.itemsize
        if raw.nbytes != expected:
            raise ChunkError(
                "corrupt-chunk",
                f"chunk decodes to {raw.nbytes} bytes, expected {expected}",
                "V2-CHUNK-005",
            )
        return np.frombuffer(raw, dtype=self.dtype).reshape(self.chunk_shape, order=self.order)
