"""The `crc32c` bytes->bytes codec: the input followed by its CRC-32C (Castagnoli) as a
little-endian uint32 (V3-CRC-001..004)."""

from __future__ import annotations

from typing import Any

import crc32c

from ....errors import ChunkError
from .base import BytesBytesCodec
from .config import Config


class Crc32cCodec(BytesBytesCodec):
    name = "crc32c"

    def __init__(self, configuration: dict[str, Any] | None, decoded_size: int | None) -> None:
        super().__init__(configuration, decoded_size)
        Config(self.name, configuration, "V3-CRC-001").finish()  # no parameters at all

    @property
    def encoded_size(self) -> int | None:
        return None if self.decoded_size is None else self.decoded_size + 4

    def encode(self, data: bytes | memoryview) -> bytes:
        return b"".join((data, crc32c.crc32c(data).to_bytes(4, "little")))

    def decode(self, data: memoryview) -> memoryview:
        if len(data) < 4:
            raise ChunkError(
                "corrupt-chunk", f"crc32c: {len(data)} bytes cannot hold a checksum", "V3-CRC-004"
            )
        payload = data[:-4]
        stored = int.from_bytes(data[-4:], "little")
        actual = crc32c.crc32c(payload)
        if stored != actual:
            raise ChunkError(
                "checksum-mismatch",
                f"crc32c: stored {stored:#010x}, computed {actual:#010x}",
                "V3-CRC-003",
            )
        return payload
