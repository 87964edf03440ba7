"""zarr-python 3's `numcodecs.<id>` codecs: a numcodecs codec under a v3 name, its configuration
being the numcodecs config without "id" (zarr.codecs.numcodecs). None of these names is in the
zarr-extensions registry at REGISTRY_COMMIT except `numcodecs.bitround` (a deprecated alias of
`bitround`) and `numcodecs.fixedscaleoffset` (the legacy codec the scale_offset README defines);
zarr-python writes them, so the reference reads and writes them with numcodecs as the primitive,
exactly as zarr-python runs them:

  bytes->bytes  blosc lz4 zstd zlib gzip bz2 lzma shuffle crc32 crc32c adler32 fletcher32
                jenkins_lookup3 (checksum failures are 'checksum-mismatch')
  array->array  delta fixedscaleoffset quantize astype bitround packbits
  array->bytes  pcodec zfpy

Decompressors are bounded like the v2 reference's (no decompression bombs).
"""

from __future__ import annotations

import math
from typing import Any

import numcodecs
import numpy as np
from numcodecs.compat import ensure_contiguous_ndarray

from ....errors import ChunkError, MetadataError
from ..data_types import data_type_from_numpy
from .base import ArrayArrayCodec, ArrayBytesCodec, ArraySpec, BytesBytesCodec, Codec

PREFIX = "numcodecs."
CHECKSUMS = {"crc32", "crc32c", "adler32", "fletcher32", "jenkins_lookup3"}
BYTES_IDS = {"blosc", "lz4", "zstd", "zlib", "gzip", "bz2", "lzma", "shuffle", *CHECKSUMS}
ARRAY_IDS = {"delta", "fixedscaleoffset", "quantize", "astype", "bitround", "packbits"}
ARRAY_BYTES_IDS = {"pcodec", "zfpy"}


def _numcodec(name: str, configuration: dict[str, Any] | None) -> Any:
    codec_id = name[len(PREFIX) :]
    config = dict(configuration or {})
    if "id" in config and config["id"] != codec_id:
        raise MetadataError(
            "invalid-codec",
            f"codec {name!r}: configuration id {config['id']!r} differs",
            "V3-ARR-014",
        )
    config["id"] = codec_id
    try:
        return numcodecs.get_codec(config)
    except numcodecs.errors.UnknownCodecError:
        raise MetadataError(
            "unknown-codec", f"codec {name!r}: numcodecs has no codec {codec_id!r}", "V3-EXT-004"
        ) from None
    except Exception as exc:
        raise MetadataError(
            "invalid-codec",
            f"codec {name!r}: invalid configuration {configuration!r}: {exc}",
            "V3-ARR-014",
        ) from None


class NumcodecsBytesCodec(BytesBytesCodec):
    def __init__(self, configuration: dict[str, Any] | None, decoded_size: int | None) -> None:
        super().__init__(configuration, decoded_size)
        self.codec = _numcodec(self.name, configuration)
        self.codec_id = self.name[len(PREFIX) :]

    @property
    def encoded_size(self) -> int | None:
        if self.codec_id in CHECKSUMS and self.decoded_size is not None:
            return self.decoded_size + 4
        if self.codec_id == "shuffle":
            return self.decoded_size
        return None

    def encode(self, data: bytes | memoryview) -> bytes:
        out = self.codec.encode(np.frombuffer(bytes(data), dtype=np.uint8))
        return bytes(out) if not isinstance(out, np.ndarray) else out.tobytes()

    def decode(self, data: memoryview) -> bytes | memoryview:
        from ...v2.codecs import _bounded_decompress

        raw = bytes(data)
        out = _bounded_decompress(self.codec_id, raw, self.output_limit)
        if out is None:
            try:
                out = self.codec.decode(raw)
            except Exception as exc:
                if self.codec_id in CHECKSUMS:
                    raise ChunkError("checksum-mismatch", f"{self.name}: {exc}") from None
                raise ChunkError("corrupt-chunk", f"{self.name}: {exc}") from None
        view = memoryview(ensure_contiguous_ndarray(out).view(np.uint8))  # not a second copy
        if self.decoded_size is not None and len(view) != self.decoded_size:
            raise ChunkError(
                "corrupt-chunk",
                f"{self.name}: {len(view)} bytes decoded, expected {self.decoded_size}",
            )
        return view


class NumcodecsArrayCodec(ArrayArrayCodec):
    def __init__(
        self, configuration: dict[str, Any] | None, spec: ArraySpec, context: Any = None
    ) -> None:
        super().__init__(configuration, spec)
        self.codec_id = self.name[len(PREFIX) :]
        config = dict(configuration or {})
        # zarr-python fills in the array's dtype where the codec needs one
        if self.codec_id in ("fixedscaleoffset", "quantize") and "dtype" not in config:
            config["dtype"] = spec.dtype.str
        if self.codec_id == "astype" and "decode_dtype" not in config:
            config["decode_dtype"] = spec.dtype.str
        self.codec = _numcodec(self.name, config)
        self.maps_selection = self.codec_id not in ("delta", "packbits")
        shape, dtype = spec.shape, spec.dtype
        if self.codec_id == "packbits":
            if dtype != np.bool_:
                raise MetadataError(
                    "invalid-codec", f"codec {self.name!r} packs bool arrays only", "V3-PIPE-004"
                )
            shape, dtype = (1 + math.ceil(spec.size / 8),), np.dtype("u1")
        elif self.codec_id in ("delta", "fixedscaleoffset") and config.get("astype"):
            dtype = np.dtype(config["astype"])
        elif self.codec_id == "astype":
            dtype = np.dtype(config["encode_dtype"])
        dtype = dtype.newbyteorder("=")
        info = spec.info if dtype == spec.dtype else data_type_from_numpy(dtype)
        fill = None
        if spec.fill_value is not None and shape == spec.shape:
            try:
                fill = (
                    np.asarray(self.codec.encode(np.asarray(spec.fill_value).reshape(1)))
                    .astype(dtype)
                    .reshape(())
                )
            except Exception:
                fill = None
        self._encoded = ArraySpec(tuple(shape), dtype, fill, info.name, info)

    @property
    def encoded_spec(self) -> ArraySpec:
        return self._encoded

    def encode(self, array: np.ndarray) -> np.ndarray:
        out = np.asarray(self.codec.encode(np.ascontiguousarray(array)))
        return out.astype(self._encoded.dtype, copy=False).reshape(self._encoded.shape)

    def decode(self, array: np.ndarray) -> np.ndarray:
        try:
            out = np.asarray(self.codec.decode(np.ascontiguousarray(array)))
        except Exception as exc:
            raise ChunkError("corrupt-chunk", f"{self.name}: {exc}") from None
        spec = self.decoded_spec
        if out.size != spec.size:
            raise ChunkError(
                "corrupt-chunk", f"{self.name}: {out.size} values decoded, expected {spec.size}"
            )
        return out.astype(spec.dtype, copy=False).reshape(spec.shape)

    def encoded_selection(self, selection: tuple[slice, ...]) -> tuple[slice, ...]:
        return selection


class NumcodecsArrayBytesCodec(ArrayBytesCodec):
    def __init__(
        self, configuration: dict[str, Any] | None, spec: ArraySpec, context: Any = None
    ) -> None:
        super().__init__(configuration, spec)
        self.codec = _numcodec(self.name, configuration)

    def encode(self, array: np.ndarray) -> bytes:
        out = self.codec.encode(np.ascontiguousarray(array, dtype=self.decoded_spec.dtype))
        return bytes(out)

    def decode(self, data: memoryview) -> np.ndarray:
        spec = self.decoded_spec
        try:
            out = np.asarray(self.codec.decode(bytes(data)))
        except Exception as exc:
            raise ChunkError("corrupt-chunk", f"{self.name}: {exc}") from None
        if out.size != spec.size:
            raise ChunkError(
                "corrupt-chunk", f"{self.name}: {out.size} values decoded, expected {spec.size}"
            )
        return out.astype(spec.dtype, copy=False).reshape(spec.shape)


def make_class(name: str) -> type[Codec] | None:
    """The codec class for a `numcodecs.<id>` name, or None when the id is not one of them."""
    codec_id = name[len(PREFIX) :] if name.startswith(PREFIX) else None
    base: type[Codec]
    if codec_id in BYTES_IDS:
        base = NumcodecsBytesCodec
    elif codec_id in ARRAY_IDS:
        base = NumcodecsArrayCodec
    elif codec_id in ARRAY_BYTES_IDS:
        base = NumcodecsArrayBytesCodec
    else:
        return None
    return type(f"Numcodecs_{codec_id}", (base,), {"name": name})


NUMCODECS_CODECS: dict[str, type[Codec]] = {
    PREFIX + i: cls
    for i in sorted(BYTES_IDS | ARRAY_IDS | ARRAY_BYTES_IDS)
    if (cls := make_class(PREFIX + i)) is not None
}
