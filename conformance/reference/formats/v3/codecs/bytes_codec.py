"""The `bytes` array->bytes codec: fixed-size elements in C order, in the configured byte order
(bytes codec spec; V3-BYTES-001..004, V3-DT-002..005, V3-PIPE-003)."""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

from ....errors import ChunkError, MetadataError
from .base import ArrayBytesCodec, ArraySpec
from .config import Config

ENDIANS: dict[str, Literal["<", ">"]] = {"little": "<", "big": ">"}


def endian_matters(dtype: np.dtype) -> bool:
    """Whether byte order changes the encoding: multi-byte numbers, complex, datetime, UTF-32 and
    structured types with such fields. One-byte types and opaque r<N> ('V') items do not."""
    return dtype.newbyteorder("<") != dtype.newbyteorder(">")


def as_byte_view(array: np.ndarray) -> memoryview:
    """The bytes of a C-contiguous array without copying them."""
    flat = array.reshape(-1)
    return memoryview(flat.view(np.uint8) if flat.dtype.itemsize else flat)  # type: ignore[arg-type]  # an ndarray is a buffer


class BytesCodec(ArrayBytesCodec):
    name = "bytes"

    def __init__(
        self, configuration: dict[str, Any] | None, spec: ArraySpec, context: Any = None
    ) -> None:
        super().__init__(configuration, spec)
        config = Config(self.name, configuration, "V3-BYTES-001")
        endian = config.choice("endian", tuple(ENDIANS), "V3-BYTES-001", required=False)
        config.finish()
        dtype = spec.dtype
        info = spec.info
        if dtype.hasobject:
            raise MetadataError(
                "invalid-codec",
                f"codec 'bytes' cannot encode the variable-length data type {spec.data_type!r}",
                "V3-PIPE-004",
            )
        # Byte order is a property of the plain layout: ml_dtypes floats swap as unsigned integers.
        raw = info.raw if info is not None and info.dtype == dtype else dtype
        self.info = (
            info
            if info is not None and info.dtype == dtype and info.raw_dtype is not None
            else None
        )
        if endian is None and endian_matters(raw):
            if info is not None and getattr(info, "legacy", False):
                # Legacy `structured` arrays without `endian` MUST be read as little-endian, and a
                # reader SHOULD warn (zarr-extensions data-types/structured).
                endian = "little"
                self.notes.append(
                    f"bytes codec without 'endian' on the legacy 'structured' type {spec.data_type!r}: "
                    "read as little-endian, as zarr-extensions requires (writers should set it)"
                )
            else:
                raise MetadataError(
                    "invalid-codec",
                    f"codec 'bytes' needs 'endian' for the multi-byte data type {spec.data_type!r}",
                    "V3-BYTES-002",
                )
        self.endian = endian
        # The dtype of the stored bytes; for one-byte and opaque types the order is irrelevant.
        self.raw = raw
        self.stored_dtype = (
            raw.newbyteorder(ENDIANS[endian]) if endian and endian_matters(raw) else raw
        )
        self.is_bool = dtype == np.bool_
        self._size = spec.size * dtype.itemsize

    @property
    def encoded_size(self) -> int:
        return self._size

    def encode(self, array: np.ndarray) -> memoryview:
        if self.is_bool:
            # bool is 0x00 / 0x01 (V3-DT-002), even for arrays made by viewing other bytes as bool.
            raw = np.ascontiguousarray(array).view(np.uint8)
            if raw.size and raw.max() > 1:
                array = raw != 0
        if self.info is not None:
            array = self.info.to_raw(array)
        stored = np.ascontiguousarray(array, dtype=self.stored_dtype)
        return as_byte_view(stored)

    def decode(self, data: memoryview) -> np.ndarray:
        return self._decode(data, copy=True)

    def decode_view(self, data: memoryview) -> np.ndarray:
        return self._decode(data, copy=False)

    def _decode(self, data: memoryview, copy: bool) -> np.ndarray:
        """The chunk in `data`: a new writable array (copy), or the stored bytes themselves where
        they are already in the caller's byte order (a view: read-only if `data` is)."""
        spec = self.decoded_spec
        if len(data) != self._size:
            raise ChunkError(
                "corrupt-chunk",
                f"bytes codec: {len(data)} bytes for shape {spec.shape} of {spec.data_type} "
                f"(exactly {self._size} expected)",
                "V3-BYTES-004",
            )
        flat = np.frombuffer(data, dtype=self.stored_dtype)
        if self.is_bool and flat.size and flat.view(np.uint8).max() > 1:
            raise ChunkError(
                "corrupt-chunk", "bool chunk holds bytes other than 0x00 and 0x01", "V3-DT-002"
            )
        if self.info is not None:
            return self.info.from_raw(flat.astype(self.raw)).reshape(spec.shape)
        return flat.astype(spec.dtype, copy=copy).reshape(spec.shape)


class LegacyEndianCodec(BytesCodec):
    """The pre-2024 name of the bytes codec (V3HIST-001), accepted only in legacy mode."""

    name = "endian"
