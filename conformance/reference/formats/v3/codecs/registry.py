"""Codec names the reference understands, with their kind and class."""

from __future__ import annotations

from .base import ARRAY_ARRAY, ARRAY_BYTES, BYTES_BYTES, Codec
from .blosc_codec import BloscCodec
from .bytes_codec import BytesCodec, LegacyEndianCodec
from .crc32c_codec import Crc32cCodec
from .extension_codecs import (
    BitroundCodec,
    CastValueCodec,
    ConditionalCodec,
    N5DefaultCodec,
    PackbitsCodec,
    ReshapeCodec,
    ScaleOffsetCodec,
    ZfpCodec,
)
from .gzip_codec import GzipCodec
from .numcodecs_codecs import NUMCODECS_CODECS
from .sharding import ShardingCodec
from .transpose import TransposeCodec
from .vlen import VLenBytesCodec, VLenUtf8Codec
from .zstd_codec import ZstdCodec

CODECS: dict[str, type[Codec]] = {
    cls.name: cls
    for cls in (
        TransposeCodec,
        BytesCodec,
        ShardingCodec,
        VLenUtf8Codec,
        VLenBytesCodec,
        GzipCodec,
        BloscCodec,
        ZstdCodec,
        Crc32cCodec,
        # zarr-extensions registrations beyond the core codecs
        BitroundCodec,
        CastValueCodec,
        ScaleOffsetCodec,
        ReshapeCodec,
        PackbitsCodec,
        ZfpCodec,
        N5DefaultCodec,
        ConditionalCodec,
    )
}
# zarr-python 3's numcodecs wrappers; `numcodecs.bitround` is the registry's deprecated alias of
# `bitround` and runs the same (exact) code.
CODECS.update(NUMCODECS_CODECS)
CODECS["numcodecs.bitround"] = type(
    "NumcodecsBitroundCodec", (BitroundCodec,), {"name": "numcodecs.bitround"}
)

# Names accepted only with legacy=True (2023-24 intermediate states of the spec).
LEGACY_CODECS: dict[str, type[Codec]] = {LegacyEndianCodec.name: LegacyEndianCodec}  # V3HIST-001

assert {cls.kind for cls in CODECS.values()} == {ARRAY_ARRAY, ARRAY_BYTES, BYTES_BYTES}


def codec_names() -> frozenset[str]:
    """The codec names a standard (non-legacy) pipeline accepts."""
    return frozenset(CODECS)


def lookup(name: str, legacy: bool) -> type[Codec] | None:
    cls = CODECS.get(name)
    if cls is None and legacy:
        cls = LEGACY_CODECS.get(name)
    return cls
