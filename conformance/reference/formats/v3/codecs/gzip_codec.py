"""The `gzip` bytes->bytes codec (V3-GZIP-001/002).

Encoding writes one RFC 1952 member with mtime 0, so the output depends only on the input, the
level and zlib. Decoding accepts one or more concatenated gzip members and nothing else: a zlib
(RFC 1950) or raw deflate stream under the name `gzip` is rejected with 'corrupt-chunk'. The spec
only says SHOULD for the container, so this is the reference's documented choice; the error names
V3-GZIP-002 and says which container was found. Output is bounded by the decoded size the next
codec expects (or MAX_DECODED_BYTES), so a gzip bomb stops early.
"""

from __future__ import annotations

import gzip
import zlib
from typing import Any

from ....errors import ChunkError, LimitError
from ....inflate import inflate_zlib
from .base import BytesBytesCodec
from .config import Config

GZIP_MAGIC = b"\x1f\x8b"


def looks_like_zlib(data: bytes | memoryview) -> bool:
    return len(data) >= 2 and data[0] & 0x0F == 8 and (data[0] << 8 | data[1]) % 31 == 0


class GzipCodec(BytesBytesCodec):
    name = "gzip"

    def __init__(self, configuration: dict[str, Any] | None, decoded_size: int | None) -> None:
        super().__init__(configuration, decoded_size)
        config = Config(self.name, configuration, "V3-GZIP-001")
        self.level = config.integer("level", 0, 9)
        config.finish()

    def encode(self, data: bytes | memoryview) -> bytes:
        return gzip.compress(data, compresslevel=self.level, mtime=0)

    def decode(self, data: memoryview) -> bytearray:
        if bytes(data[:2]) != GZIP_MAGIC:
            found = "a zlib (RFC 1950) stream" if looks_like_zlib(data) else "no gzip header"
            raise ChunkError(
                "corrupt-chunk", f"gzip codec: found {found}, expected RFC 1952 gzip", "V3-GZIP-002"
            )
        limit = self.output_limit
        result = bytearray()  # grows in place: the output is never held twice
        rest: bytes | memoryview = data
        try:
            while True:
                member = zlib.decompressobj(16 + zlib.MAX_WBITS)  # gzip container only
                inflate_zlib(member, rest, limit, result)
                if len(result) > limit or member.unconsumed_tail:
                    self._too_much(len(result))
                if not member.eof:
                    raise ChunkError("corrupt-chunk", "gzip stream is truncated", "V3-GZIP-002")
                rest = member.unused_data
                if not rest:
                    break
                if rest[:2] != GZIP_MAGIC:
                    raise ChunkError(
                        "corrupt-chunk",
                        f"{len(rest)} bytes of junk after the gzip data",
                        "V3-GZIP-002",
                    )
        except zlib.error as exc:
            raise ChunkError(
                "corrupt-chunk", f"gzip stream cannot be decoded: {exc}", "V3-GZIP-002"
            ) from None
        if self.decoded_size is not None and len(result) != self.decoded_size:
            raise ChunkError(
                "corrupt-chunk",
                f"gzip stream holds {len(result)} bytes, expected {self.decoded_size}",
            )
        return result

    def _too_much(self, total: int) -> None:
        if self.decoded_size is not None:
            raise ChunkError(
                "corrupt-chunk",
                f"gzip stream holds more than the expected {self.decoded_size} bytes",
            )
        raise LimitError(f"gzip stream decodes to more than {self.output_limit} bytes")
