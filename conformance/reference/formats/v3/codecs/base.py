"""The three codec kinds of the v3 pipeline and the representation each one receives.

A codec is constructed for one fixed input representation (`ArraySpec` for array->array and
array->bytes codecs, a byte count or None for bytes->bytes codecs), so every check that depends on
the input (V3-PIPE-004) happens when the pipeline is built, not when a chunk is read.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ....errors import ChunkError, LimitError
from ....value_cost import MAX_VALUE_COST

ARRAY_ARRAY = "array->array"
ARRAY_BYTES = "array->bytes"
BYTES_BYTES = "bytes->bytes"

# Decompressing a value whose decoded size is not known in advance (after sharding or a vlen codec)
# is refused above this size, so a hostile stream cannot exhaust memory (mirrors the array engine's
# chunk limit). A vlen frame is held beside the objects it decodes to, so it gets less
# (conformance/reference/value_cost.py).
MAX_DECODED_BYTES = MAX_VALUE_COST


@dataclass(frozen=True)
class ArraySpec:
    """The decoded representation an array codec receives: shape, NumPy dtype, the exact fill value
    (a 0-d array of `dtype`, or None), the v3 data type name and, where known, its DataType
    (`info`: byte layout, sub-byte width, struct fields, small-float format)."""

    shape: tuple[int, ...]
    dtype: np.dtype
    fill_value: Any
    data_type: str
    info: Any = field(default=None, compare=False)

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    def with_shape(self, shape: tuple[int, ...]) -> ArraySpec:
        return ArraySpec(tuple(shape), self.dtype, self.fill_value, self.data_type, self.info)

    def with_type(self, info: Any, fill_value: Any) -> ArraySpec:
        """The same shape holding another data type (a DataType) and fill value."""
        return ArraySpec(self.shape, info.dtype, fill_value, info.name, info)

    def fill_array(self, shape: tuple[int, ...] | None = None) -> np.ndarray:
        """A new writable array of `shape` (default: this spec's shape) holding the fill value."""
        shape = self.shape if shape is None else shape
        if self.dtype.hasobject:
            out = np.empty(shape, dtype=self.dtype)
            out[...] = "" if self.fill_value is None else self.fill_value[()]
            return out
        out = np.zeros(shape, dtype=self.dtype)
        if self.fill_value is not None:
            out[...] = self.fill_value
        return out


class Codec:
    """Common surface: the registered name, the kind, and the JSON form it was built from.
    `notes` collects tolerated deviations found while building (a validator warns about them)."""

    name: str = ""
    kind: str = ""

    def __init__(self, configuration: dict[str, Any] | None) -> None:
        self.configuration = configuration
        self.notes: list[str] = []

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name}
        if self.configuration is not None:
            out["configuration"] = self.configuration
        return out

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.configuration!r})"


class ArrayArrayCodec(Codec):
    kind = ARRAY_ARRAY

    def __init__(
        self, configuration: dict[str, Any] | None, spec: ArraySpec, context: Any = None
    ) -> None:
        super().__init__(configuration)
        self.decoded_spec = spec

    @property
    def encoded_spec(self) -> ArraySpec:
        raise NotImplementedError

    def encode(self, array: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def decode(self, array: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def encoded_selection(self, selection: tuple[slice, ...]) -> tuple[slice, ...]:
        """The box of the encoded array that holds exactly the decoded box `selection`."""
        raise NotImplementedError


class ArrayBytesCodec(Codec):
    kind = ARRAY_BYTES
    supports_partial = False
    max_encoded_size = MAX_DECODED_BYTES  # the most bytes->bytes codecs may decode to for it

    def __init__(
        self, configuration: dict[str, Any] | None, spec: ArraySpec, context: Any = None
    ) -> None:
        super().__init__(configuration)
        self.decoded_spec = spec

    @property
    def encoded_size(self) -> int | None:
        """The exact encoded byte count when it does not depend on the values, else None."""
        return None

    def encode(self, array: np.ndarray) -> bytes | memoryview:
        raise NotImplementedError

    def decode(self, data: memoryview) -> np.ndarray:
        """An array of exactly decoded_spec.shape; the dtype may differ in byte order only."""
        raise NotImplementedError

    def decode_view(self, data: memoryview) -> np.ndarray:
        """decode(), for a caller that copies what it keeps and writes nothing into the result:
        it may be a read-only view of `data` (the bytes codec then copies nothing)."""
        return self.decode(data)

    def decode_partial(self, source: ByteSource, selection: tuple[slice, ...]) -> np.ndarray | None:
        raise NotImplementedError


class BytesBytesCodec(Codec):
    kind = BYTES_BYTES

    def __init__(
        self, configuration: dict[str, Any] | None, decoded_size: int | None, context: Any = None
    ) -> None:
        # `context`: the pipeline builder, for a codec holding nested codecs (conditional)
        super().__init__(configuration)
        self.decoded_size = decoded_size  # the input byte count when fixed, else None
        self.size_limit = (
            MAX_DECODED_BYTES  # the bound when decoded_size is None (set by the pipeline)
        )

    @property
    def encoded_size(self) -> int | None:
        return None

    def encode(self, data: bytes | memoryview) -> bytes | memoryview:
        raise NotImplementedError

    def decode(self, data: memoryview) -> bytes | bytearray | memoryview:
        raise NotImplementedError

    def check_decoded_size(self, declared: int) -> None:
        """Refuse a stream that declares a decoded size other than the one the next codec needs,
        or an unbounded one, before any memory is allocated for it."""
        if self.decoded_size is not None:
            if declared != self.decoded_size:
                raise ChunkError(
                    "corrupt-chunk",
                    f"{self.name} stream declares {declared} decoded bytes, expected {self.decoded_size}",
                )
        elif declared > self.size_limit:
            raise LimitError(
                f"{self.name} stream declares {declared} decoded bytes (limit {self.size_limit})"
            )

    @property
    def output_limit(self) -> int:
        """The largest decoded size this codec may produce."""
        return self.size_limit if self.decoded_size is None else self.decoded_size


class ByteSource:
    """Read access to one stored value (or a byte range of it) for partial decoding.

    `read(offset, length)` returns exactly that range relative to the start of the source, or
    fewer bytes when the value is shorter, or None when the store key is absent. `read_suffix(n)`
    returns the last `n` bytes the same way.
    """

    def __init__(self, store: Any, key: str, start: int = 0, length: int | None = None):
        self.store = store
        self.key = key
        self.start = start
        self.length = length  # None: the whole value, length unknown until read

    def read(self, offset: int, length: int) -> bytes | None:
        if self.length is not None:
            length = max(0, min(length, self.length - offset))
        return self.store.get_partial(self.key, self.start + offset, length)

    def read_suffix(self, length: int) -> bytes | None:
        if self.length is None:
            if length == 0:
                value = self.store.get_partial(self.key, 0, 0)
                return None if value is None else b""
            return self.store.get_partial(self.key, -length, length)
        offset = max(0, self.length - length)
        return self.read(offset, self.length - offset)

    def read_all(self) -> bytes | None:
        if self.length is None:
            return self.store.get(self.key)
        return self.read(0, self.length)

    def sub(self, offset: int, length: int) -> ByteSource:
        return ByteSource(self.store, self.key, self.start + offset, length)
