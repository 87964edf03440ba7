"""`vlen-utf8` and `vlen-bytes`: the zarr-extensions array->bytes codecs of the `string` and
`bytes` data types (object arrays), with numcodecs' VLenUTF8 / VLenBytes as the primitive.

Framing: u32 LE item count, then per item (C order) a u32 LE byte length and the bytes. Decoding
is strict: the count must equal the chunk's element count and the items must use up the value
exactly (no trailing bytes). What the objects may cost is charged before they are made
(conformance/reference/value_cost.py), and a frame is at most MAX_FRAME_BYTES.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numcodecs import VLenBytes, VLenUTF8

from ....errors import ChunkError, MetadataError
from ....value_cost import MAX_FRAME_BYTES, charge_frame
from .base import ArrayBytesCodec, ArraySpec
from .config import Config


class _VLenCodec(ArrayBytesCodec):
    data_type = ""
    item_type: type = str
    primitive: Any = None  # the numcodecs codec, set by each subclass
    max_encoded_size = MAX_FRAME_BYTES

    def __init__(
        self, configuration: dict[str, Any] | None, spec: ArraySpec, context: Any = None
    ) -> None:
        super().__init__(configuration, spec)
        Config(self.name, configuration).finish()  # no parameters
        if spec.data_type != self.data_type or not spec.dtype.hasobject:
            raise MetadataError(
                "invalid-codec",
                f"codec {self.name!r} encodes only the {self.data_type!r} data type, not {spec.data_type!r}",
                "V3-PIPE-004",
            )

    def encode(self, array: np.ndarray) -> bytes:
        flat = np.array(array, dtype=object).reshape(
            -1
        )  # a writable C-order copy: numcodecs may not take a read-only view
        for item in flat:
            if not isinstance(item, self.item_type):
                raise TypeError(f"{self.name}: element {item!r} is not {self.item_type.__name__}")
        return self.primitive.encode(flat)

    def decode(self, data: memoryview) -> np.ndarray:
        spec = self.decoded_spec
        if len(data) < 4:
            raise ChunkError(
                "corrupt-chunk", f"{self.name}: {len(data)} bytes cannot hold the item count"
            )
        count = int.from_bytes(data[:4], "little")
        if count != spec.size:
            raise ChunkError(
                "corrupt-chunk", f"{self.name}: {count} items stored, chunk has {spec.size}"
            )
        if len(data) < 4 + 4 * count:
            raise ChunkError(
                "corrupt-chunk", f"{self.name}: {len(data)} bytes cannot hold {count} items"
            )
        charge_frame(data, count, text=self.item_type is str)
        try:
            items = self.primitive.decode(data)
        except (ValueError, UnicodeDecodeError) as exc:
            raise ChunkError("corrupt-chunk", f"{self.name}: {exc}") from None
        used = 4 + 4 * count + self._payload_size(items)
        if used != len(data):
            raise ChunkError(
                "corrupt-chunk", f"{self.name}: {len(data) - used} bytes after the last item"
            )
        return items.reshape(spec.shape)

    def _payload_size(self, items: np.ndarray) -> int:
        raise NotImplementedError


class VLenUtf8Codec(_VLenCodec):
    name = "vlen-utf8"
    data_type = "string"
    item_type = str
    primitive = VLenUTF8()

    def _payload_size(self, items: np.ndarray) -> int:
        return sum(len(s) if s.isascii() else utf8_size(s) for s in items)


class VLenBytesCodec(_VLenCodec):
    name = "vlen-bytes"
    data_type = "bytes"
    item_type = bytes
    primitive = VLenBytes()

    def _payload_size(self, items: np.ndarray) -> int:
        return sum(map(len, items))


def utf8_size(text: str, block: int = 1 << 20) -> int:
    """The UTF-8 length of `text`, encoding a block at a time (never a second copy of it all)."""
    return sum(len(text[i : i + block].encode()) for i in range(0, len(text), block))
