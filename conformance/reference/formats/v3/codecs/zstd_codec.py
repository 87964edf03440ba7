"""The `zstd` bytes->bytes codec registered in zarr-extensions (V3-ZSTD-001..003), with numcodecs'
libzstd binding as the primitive. A content checksum, when present, is verified by libzstd."""

from __future__ import annotations

from typing import Any

import numpy as np
from numcodecs import zstd as _zstd

from ....errors import ChunkError, LimitError
from .base import BytesBytesCodec
from .config import Config
from .zstd_frames import walk


class ZstdCodec(BytesBytesCodec):
    name = "zstd"

    def __init__(self, configuration: dict[str, Any] | None, decoded_size: int | None) -> None:
        super().__init__(configuration, decoded_size)
        if configuration is None:
            raise Config(self.name, None).error(
                "a configuration with 'level' is required", "V3-ZSTD-001"
            )
        config = Config(self.name, configuration, "V3-ZSTD-001")
        self.level = config.integer("level", -131072, 22)
        # Readers accept an explicit false although writers should leave it out (V3-ZSTD-003).
        self.checksum = config.boolean("checksum", "V3-ZSTD-003", required=False, default=False)
        config.finish()

    def encode(self, data: bytes | memoryview) -> bytes:
        return _zstd.compress(data, self.level, self.checksum)

    def decode(self, data: memoryview) -> bytes | memoryview:
        size = walk(data)
        if size.exact is not None:
            self.check_decoded_size(size.exact)
            if size.exact == 0 and size.block_bound == 0:
                return b""  # libzstd (through numcodecs) reports an empty frame as invalid input
        elif size.bound > self.output_limit and not self.decoded_size:
            raise LimitError(f"zstd stream of unknown size may decode to {size.bound} bytes")
        try:
            if self.decoded_size:
                # The size is known: decompress into a buffer of exactly that size, which libzstd
                # (through numcodecs) refuses to under- or overfill for streams of unknown size.
                # np.empty: libzstd writes every byte, so the buffer need not be zeroed first.
                out = np.empty(self.decoded_size, np.uint8)
                _zstd.decompress(data, out)
                return out.data
            out = _zstd.decompress(data)  # bounded by the checks above
        except (RuntimeError, ValueError) as exc:
            raise ChunkError(
                "corrupt-chunk", f"zstd stream cannot be decoded: {exc}", "V3-ZSTD-002"
            ) from None
        if self.decoded_size == 0 and len(out):
            raise ChunkError("corrupt-chunk", f"zstd stream holds {len(out)} bytes, expected none")
        return out
