"""The `blosc` bytes->bytes codec (V3-BLOSC-001..005), with numcodecs' c-blosc as the primitive.

All five members are read strictly: the spec gives no default for cname, clevel, shuffle or
blocksize, so they are required; typesize is required unless shuffle is "noshuffle" (V3-BLOSC-003).
Decoding depends only on the self-describing 16-byte header (V3-BLOSC-005), which is checked
before c-blosc sees the data: cbytes must equal the stored length and nbytes the expected size.
"""

from __future__ import annotations

from typing import Any

from numcodecs import blosc as _blosc

from ....errors import ChunkError, UnsupportedError
from .base import BytesBytesCodec
from .config import Config

CNAMES = ("lz4", "lz4hc", "blosclz", "zstd", "snappy", "zlib")
SHUFFLES = {"noshuffle": 0, "shuffle": 1, "bitshuffle": 2}
HEADER_SIZE = 16
# Compressor codes in bits 5..7 of the header flags (c-blosc README_CHUNK_FORMAT).
_FORMAT_LIBRARIES = {0: "blosclz", 1: "lz4", 2: "snappy", 3: "zlib", 4: "zstd"}


class BloscCodec(BytesBytesCodec):
    name = "blosc"

    def __init__(self, configuration: dict[str, Any] | None, decoded_size: int | None) -> None:
        super().__init__(configuration, decoded_size)
        config = Config(self.name, configuration, "V3-BLOSC-001")
        self.cname = config.choice("cname", CNAMES, "V3-BLOSC-001")
        self.clevel = config.integer("clevel", 0, 9, "V3-BLOSC-001")
        self.shuffle = config.choice("shuffle", tuple(SHUFFLES), "V3-BLOSC-002")
        needs_typesize = self.shuffle != "noshuffle"
        self.typesize = config.integer(
            "typesize", 1, None, "V3-BLOSC-003", required=needs_typesize, default=1
        )
        self.blocksize = config.integer("blocksize", 0, None, "V3-BLOSC-001")
        config.finish()

    def encode(self, data: bytes | memoryview) -> bytes:
        if self.cname not in _blosc.list_compressors():
            raise UnsupportedError(
                f"blosc compressor {self.cname!r} is not built into this c-blosc"
            )
        return _blosc.compress(
            data,
            self.cname.encode(),
            self.clevel,
            SHUFFLES[self.shuffle],
            self.blocksize,
            self.typesize,
        )

    def decode(self, data: memoryview) -> bytes:
        if len(data) < HEADER_SIZE:
            raise ChunkError(
                "corrupt-chunk",
                f"blosc: {len(data)} bytes cannot hold the 16-byte header",
                "V3-BLOSC-004",
            )
        flags = data[2]
        nbytes = int.from_bytes(data[4:8], "little")
        cbytes = int.from_bytes(data[12:16], "little")
        if cbytes != len(data):
            raise ChunkError(
                "corrupt-chunk",
                f"blosc header says {cbytes} compressed bytes, the value has {len(data)}",
                "V3-BLOSC-004",
            )
        self.check_decoded_size(nbytes)
        if nbytes == 0:
            return b""  # c-blosc reports decoding an empty buffer as an error
        library = _FORMAT_LIBRARIES.get(flags >> 5)
        if not flags & 0x02 and library is not None and library not in _blosc.list_compressors():
            raise UnsupportedError(
                f"blosc chunk compressed with {library!r}, which this c-blosc lacks"
            )
        try:
            return _blosc.decompress(data)
        except (RuntimeError, ValueError) as exc:
            raise ChunkError(
                "corrupt-chunk", f"blosc chunk cannot be decoded: {exc}", "V3-BLOSC-004"
            ) from None
